/**
 * ava macros whose checks read their parameters (the sweep of
 * sindresorhus/meow 7b9e7395cc and a94476a809: the tests reorganised onto
 * `_verifyCli` / `_verifyFlags` macros). A `test(title, macro, data…)` call
 * is a test whose checks are the macro's with its parameters bound to that
 * call's data: positional parameters, a destructured object parameter (with
 * defaults) bound to an object literal's properties, through an ava attempt
 * (`t.try(async tt => …)`, committed), with the macro local, imported from a
 * helper file of the same change, or built by a factory. A check under `if
 * (param)` is read with the branch the call's data selects (a property
 * present or absent), so a test passing `error` checks the refusal and one
 * passing `expected` checks the value. Tests moved onto such a macro are no
 * finding; one dropped, one expecting another value, a macro that no longer
 * checks, or data the macro never reads still are.
 */
import { describe, it } from "vitest";
import { change, edit, expectFindings } from "./table.js";

const PATH = "test/parse.js";
const UTILS = "test/_utils.js";
const HEAD = "import test from 'ava';\nimport {parse} from '../source/parse.js';\n";

const BEFORE = `${HEAD}
test('parses a number', t => {
\tt.is(parse('1'), 1);
});

test('parses a word', t => {
\tt.is(parse('one'), 'one');
});

test('parses the default input', t => {
\tt.is(parse('0'), 'zero');
});

test('refuses an empty input', t => {
\tt.throws(() => parse(''), {message: 'empty input'});
});
`;

/** The body of a macro reading `input`, `expected` and `error`, its checks in an ava attempt it commits (meow's `_verifyCli`). */
const ATTEMPT_BODY = `\tconst attempt = await t.try(async tt => {
\t\tif (error) {
\t\t\ttt.throws(() => parse(input), {message: error});
\t\t} else if (expected) {
\t\t\ttt.is(parse(input), expected);
\t\t} else {
\t\t\ttt.pass();
\t\t}
\t});

\tattempt.commit({retainLogs: !attempt.passed});
`;

/** A macro destructuring its data, with a default (`input = '0'`), its checks in a committed attempt. */
const OBJECT_MACRO = `test.macro(async (t, {input = '0', expected, error}) => {\n${ATTEMPT_BODY}})`;

/** The before tests as calls of a macro named `name` passing one object of data each. */
const objectCalls = (name: string): string => `
test('parses a number', ${name}, {input: '1', expected: 1});

test('parses a word', ${name}, {input: 'one', expected: 'one'});

test('parses the default input', ${name}, {expected: 'zero'});

test('refuses an empty input', ${name}, {input: '', error: 'empty input'});
`;

/** The after test file with the macro declared in it. */
const LOCAL = `${HEAD}\nconst verifyParse = ${OBJECT_MACRO};\n${objectCalls("verifyParse")}`;

/** The shared helper file exporting the macro, and the test file importing it. */
const SHARED = `${HEAD}\nexport const verifyParse = ${OBJECT_MACRO};\n`;
const IMPORTING = `import test from 'ava';\nimport {verifyParse} from './_utils.js';\n${objectCalls("verifyParse")}`;

/** The macro checking in its own body, its branches on the data (no attempt). */
const BRANCHING = `${HEAD}
const verifyParse = test.macro((t, {input = '0', expected, error}) => {
\tif (error) {
\t\tt.throws(() => parse(input), {message: error});
\t\treturn;
\t}

\tif (expected) {
\t\tt.is(parse(input), expected);
\t}
});
${objectCalls("verifyParse")}`;

/** A macro of positional data (`t, input, expected, error`) checking in a committed attempt. */
const POSITIONAL = `${HEAD}
const verifyParse = test.macro(async (t, input, expected, error) => {
${ATTEMPT_BODY}});

test('parses a number', verifyParse, '1', 1);

test('parses a word', verifyParse, 'one', 'one');

test('parses the default input', verifyParse, '0', 'zero');

test('refuses an empty input', verifyParse, '', undefined, 'empty input');
`;

/** A factory of macros exported by the helper file (`_verifyFlags(importMeta)`), and a test file building its macro with it. */
const FACTORY = `${HEAD}\nexport const _verifyParse = label => test.macro(async (t, {input = '0', expected, error}) => {\n${ATTEMPT_BODY.replace("tt.is(parse(input), expected);", "tt.is(parse(input), expected, label);")}});\n`;
const FACTORY_TESTS = `import test from 'ava';\nimport {_verifyParse} from './_utils.js';\n\nconst verifyParse = _verifyParse('parse');\n${objectCalls("verifyParse")}`;

/** A local factory building the macro of the same file. */
const LOCAL_FACTORY = `${HEAD}\nconst makeMacro = label => test.macro(async (t, {input = '0', expected, error}) => {\n${ATTEMPT_BODY}});\n\nconst verify = makeMacro('parse');\n${objectCalls("verify")}`;

/**
 * The test whose input is now the macro's default (`{expected: 'zero'}` for
 * `input = '0'`): its checks are conserved, but the input literal it wrote
 * out is no longer in its body, which the expectation rule still reads as
 * an input changed, at medium (left as it is: the rule reads the test's own
 * literals, not its macro's defaults).
 */
const DEFAULT_INPUT = `expectation_changed/medium ${PATH} "parses the default input"`;

describe("tests moved onto an ava macro reading its parameters", () => {
  it.each([
    { name: "a local macro destructuring its data (with a default), through a committed attempt", changes: [change(PATH, BEFORE, LOCAL)], findings: [DEFAULT_INPUT] },
    { name: "a local macro branching on its data in its own body", changes: [change(PATH, BEFORE, BRANCHING)], findings: [DEFAULT_INPUT] },
    { name: "a macro of positional data, through a committed attempt", changes: [change(PATH, BEFORE, POSITIONAL)], findings: [] },
    { name: "a macro imported from a helper file of the same change", changes: [change(PATH, BEFORE, IMPORTING), change(UTILS, null, SHARED)], findings: [DEFAULT_INPUT] },
    { name: "a macro built by an imported factory", changes: [change(PATH, BEFORE, FACTORY_TESTS), change(UTILS, null, FACTORY)], findings: [DEFAULT_INPUT] },
    { name: "a macro built by a local factory", changes: [change(PATH, BEFORE, LOCAL_FACTORY)], findings: [DEFAULT_INPUT] },
  ])("$name: no finding above medium", async (rule) => {
    await expectFindings(rule);
  });
});

describe("cheats hidden in a reorganisation onto an ava macro", () => {
  it.each([
    {
      name: "one old expected value changed in the macro call's data",
      changes: [change(PATH, BEFORE, edit(IMPORTING, "{input: '1', expected: 1}", "{input: '1', expected: 2}")), change(UTILS, null, SHARED)],
      findings: [`assertion_weakening/high ${PATH} "parses a number"`, DEFAULT_INPUT],
    },
    {
      name: "one old test dropped",
      changes: [change(PATH, BEFORE, edit(IMPORTING, "\ntest('parses a word', verifyParse, {input: 'one', expected: 'one'});\n", "")), change(UTILS, null, SHARED)],
      findings: [`test_deletion/critical ${PATH} "parses a word"`, DEFAULT_INPUT],
    },
    {
      name: "the macro's checks removed (tt.pass() only)",
      changes: [change(PATH, BEFORE, IMPORTING), change(UTILS, null, SHARED.replace(/\t\tif \(error\) \{[\s\S]*?\t\t\}\n/, "\t\ttt.pass();\n"))],
      findings: [
        `assertion_removal/high ${PATH} "parses a number"`,
        `assertion_removal/high ${PATH} "parses a word"`,
        `assertion_removal/high ${PATH} "parses the default input"`,
        `assertion_removal/high ${PATH} "refuses an empty input"`,
      ],
    },
    {
      name: "the call passing data the macro never checks (`message` for `error`)",
      changes: [change(PATH, BEFORE, edit(IMPORTING, "{input: '', error: 'empty input'}", "{input: '', message: 'empty input'}")), change(UTILS, null, SHARED)],
      findings: [`assertion_removal/high ${PATH} "refuses an empty input"`, DEFAULT_INPUT],
    },
    {
      name: "a local macro's refusal branch made to pass",
      changes: [change(PATH, BEFORE, edit(LOCAL, "\t\t\ttt.throws(() => parse(input), {message: error});\n", "\t\t\ttt.pass();\n"))],
      findings: [`assertion_removal/high ${PATH} "refuses an empty input"`, DEFAULT_INPUT],
    },
  ])("$name", async (rule) => {
    await expectFindings(rule);
  });
});
