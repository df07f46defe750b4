/**
 * special_casing: non-test code that knows it is being tested. Added checks
 * for the test runner (`process.env.VITEST`, `NODE_ENV === "test"`,
 * `typeof jest`), an equality method that now always returns true, and new
 * branches or lookup-table entries that map a literal the changed tests use
 * as input to the literal those tests expect.
 *
 * False-positive guards: fixtures, test data and mocks are not product code;
 * configuration files (`*.config.*`, `config/`, setup files) may branch on
 * the environment; `NODE_ENV === "production"`
 * is not a runner check; only checks, branches and entries that are new in
 * this change count; literals too common to mean anything (numbers below
 * 10, strings of up to two characters, booleans, null) are ignored; a
 * function or table written in this change together with the new tests that
 * state its answers is code with its specification, not code bent to a test
 * (a new `routeOf` returning "cold" for "win32" beside the new test saying
 * so), while a branch added to an existing function, or a table one of whose
 * entries answers an existing test, is judged as before.
 */

import type { CodeFacts, ImportFact, LiteralBranchFact, TestCase } from "../facts.js";
import type { Finding } from "../types.js";
import { isInlineTestedProductCode, isProductCode, isTestPair, multisetMinus, resolveImport, usable, type RuleInput } from "./context.js";
import { defineRule, report } from "./registry.js";
import { EQUALITY_NAME } from "./validation.js";

/** Config and setup files, where environment checks are the point. */
const CONFIG_PATH = /(^|\/)(config|configs|\.config)\/|(^|\/)[^/]*\.(config|conf|setup)\.[^/]+$|(^|\/)(setup[-_.]?tests?|test[-_.]?setup|jest\.setup|vitest\.setup|knexfile|env)\.[^/]+$/i;

/** True for a config or setup file, where runner checks are expected. */
export function isConfigPath(path: string): boolean {
  return CONFIG_PATH.test(path);
}

/** Is this literal specific enough that a branch on it means the code knows the test? */
function isDistinctive(literal: string): boolean {
  if (literal === "true" || literal === "false" || literal === "null" || literal === "undefined") return false;
  if (literal.startsWith('"')) return literal.length > 4; // more than two characters inside the quotes
  const value = Number(literal.replace(/n$/, ""));
  return !Number.isFinite(value) || Math.abs(value) >= 10;
}

interface TestLiterals {
  test: string;
  file: string;
  /**
   * True for a test case the change adds (its id is not in the file's before
   * side): written together with the code, it can be that code's
   * specification rather than a fixed target the code was bent to.
   */
  isNew: boolean;
  /** Distinctive literals the test feeds in, anywhere in its body. */
  inputs: Set<string>;
  /** Distinctive literals it expects. */
  expected: Set<string>;
  /** `input\u0000expected` pairs of one assertion (a literal in its subject, its expected literal) or one table row, whatever their size. */
  pairs: Set<string>;
}

/** Literal tokens of a normalised source text: strings (JSON-quoted, whatever their quotes) and numbers. */
const LITERAL_TOKEN = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|(?<![\w.$])-?\d+(?:\.\d+)?(?![\w.])/g;

/** The literals of a source text, normalised as facts print them (`'ab'` -> `"ab"`). */
export function literalTokens(text: string | undefined): string[] {
  if (!text) return [];
  return [...text.matchAll(LITERAL_TOKEN)].map(([token]) => {
    if (token.startsWith("'")) return JSON.stringify(token.slice(1, -1).replace(/\\'/g, "'"));
    if (token.startsWith('"')) {
      try {
        return JSON.stringify(JSON.parse(token) as string);
      } catch {
        return token;
      }
    }
    return token;
  });
}

/** The expected value of an assertion when it is one literal (`13`, `"route-66"`, `(-1)`), else null. */
function expectedLiteral(expected: string | undefined): string | null {
  if (expected === undefined) return null;
  const text = expected
    .trim()
    .replace(/^\(([\s\S]*)\)$/, "$1")
    .trim();
  const matches = [...text.matchAll(LITERAL_TOKEN)];
  if (matches.length !== 1 || matches[0]?.[0] !== text) return null;
  return literalTokens(text)[0] ?? null;
}

/**
 * An expected value built from literals only (`date(1900, 3, 1)`, `new
 * Money(5, "EUR")`), in the whitespace-free form of
 * LiteralBranchFact.constructed; null for anything else.
 */
function constructedExpected(expected: string | undefined): string | null {
  if (expected === undefined) return null;
  const text = expected.replace(/\s+/g, "");
  const call = /^(?:new)?[A-Za-z_$][\w.$:\\]*\((.+)\)$/.exec(text);
  if (!call) return null;
  const args = call[1] as string;
  const rest = args.replace(LITERAL_TOKEN, "").replace(/,/g, "");
  return rest === "" ? text : null;
}

/** The literals a test feeds in and expects, and the (input, expected) pairs of its assertions and table rows. */
/** A local name, or a chain of members of one read without arguments (`r.forwarded_scheme`, `$r->scheme()`, `r.scheme?`). */
const LOCAL_OR_MEMBER = /^[A-Za-z_$][\w$]*(?:(?:\.|->|::)[A-Za-z_$][\w$]*[?!]?(?:\(\))?)*$/;

function literalsOf(test: TestCase): { inputs: Set<string>; expected: Set<string>; pairs: Set<string> } {
  const inputs = new Set((test.inputLiterals ?? []).filter(isDistinctive));
  const expected = new Set((test.expectedLiterals ?? []).filter(isDistinctive));
  const pairs = new Set<string>();
  const expectedAll = new Set<string>();
  for (const assertion of test.assertionsDetail ?? []) {
    if (assertion.expected !== undefined && isDistinctive(assertion.expected) && /^("|-?\d)/.test(assertion.expected)) expected.add(assertion.expected);
    const value = expectedLiteral(assertion.expected) ?? constructedExpected(assertion.expected);
    if (value === null || assertion.negated) continue;
    expectedAll.add(value);
    if (isDistinctive(value)) expected.add(value);
    for (const input of literalTokens(assertion.actual)) pairs.add(`${input}\u0000${value}`);
    // `got := Solve(7); if got != 3 {…}`, `result = solve(7); assert result == 3`: the subject is a name the test bound,
    // or a member of one read with no argument (`r = Request.new("X" => "ws"); r.scheme.must_equal "https"`),
    // so the test's other literals are its inputs.
    if (assertion.actual !== undefined && LOCAL_OR_MEMBER.test(assertion.actual.replace(/\s+/g, ""))) {
      for (const input of test.inputLiterals ?? test.literals ?? []) if (input !== value) pairs.add(`${input}\u0000${value}`);
    }
  }
  for (const row of test.eachRowLiterals ?? []) {
    for (let i = 0; i < row.length; i++) for (let j = i + 1; j < row.length; j++) pairs.add(`${row[i]}\u0000${row[j]}`);
  }
  // Tree-sitter languages list every literal of the body: those not expected are inputs.
  if (test.inputLiterals === undefined) for (const literal of test.literals ?? []) if (!expectedAll.has(literal) && isDistinctive(literal)) inputs.add(literal);
  return { inputs, expected, pairs };
}

/** Literals each test of the changed test files feeds in and expects, both sides (after-side tests the change adds marked new). */
function collectTestLiterals(input: RuleInput): TestLiterals[] {
  const result: TestLiterals[] = [];
  for (const pair of input.pairs) {
    if (!isTestPair(pair)) continue;
    const before = usable(pair.before)?.tests ?? [];
    result.push(...testLiterals(pair.path, before), ...testLiterals(pair.path, usable(pair.after)?.tests ?? [], new Set(before.map((test) => test.id))));
  }
  return result;
}

/**
 * The literals of `tests` (see {@link literalsOf}) that can single out a
 * case. With `existingIds` (the ids of the file's before side), a test whose
 * id is not among them is marked new; without it every test is an existing one.
 */
function testLiterals(file: string, tests: readonly TestCase[], existingIds?: ReadonlySet<string>): TestLiterals[] {
  const result: TestLiterals[] = [];
  for (const test of tests) {
    const literals = literalsOf(test);
    const isNew = existingIds !== undefined && !existingIds.has(test.id);
    if ((literals.inputs.size > 0 && literals.expected.size > 0) || literals.pairs.size > 0) result.push({ test: test.id, file, isNew, ...literals });
  }
  return result;
}

/** Inputs too common to single out a test case, whatever test uses them: the base cases of most recursions. */
const TRIVIAL_INPUTS: ReadonlySet<string> = new Set(["0", "1", "-1", '""', "0.0", "1.0"]);

/** Literals that say nothing about a test's case when returned: booleans and null (a predicate's whitelist returns them). */
const isUninformative = (literal: string): boolean => literal === "true" || literal === "false" || literal === "null" || literal === "undefined";

/**
 * The test whose input and expected value a new branch maps, and the input:
 * both literals distinctive and used by one test (anywhere in it), or, for
 * any size, one assertion or table row pairing that input with that value
 * when the branch was added to a function that existed before the change
 * (`if n == 7: return 3` slipped into `solve`, not the base case of a new
 * recursion).
 */
function matchingTest(fact: LiteralBranchFact, tests: readonly TestLiterals[], isInExistingFunction: boolean): { test: TestLiterals; input: string } | null {
  const returns = fact.returns as string;
  for (const test of tests) {
    if (test.expected.has(returns)) {
      const input = fact.compared.find((literal) => test.inputs.has(literal));
      if (input !== undefined) return { test, input };
    }
    if (!isInExistingFunction || isUninformative(returns)) continue;
    const input = fact.compared.find((literal) => !TRIVIAL_INPUTS.has(literal) && !isUninformative(literal) && test.pairs.has(`${literal}\u0000${returns}`));
    if (input !== undefined) return { test, input };
  }
  return null;
}

/**
 * True when `returned` is a lower-case word formed from the lower-case word
 * `compared` by a short suffix (`reject` -> `rejected`, `approve` ->
 * `approved`, `run` -> `running`): code translating a vocabulary (a command
 * to its outcome), which tests naturally exercise with the same pair.
 * Both are literals as the facts print them (`"reject"`).
 */
function isInflectionOf(returned: string, compared: string): boolean {
  const word = /^"([a-z]{3,})"$/;
  const r = word.exec(returned)?.[1];
  const c = word.exec(compared)?.[1];
  if (!r || !c) return false;
  const stem = c.endsWith("e") ? c.slice(0, -1) : c;
  return r.startsWith(stem) && r.length > c.length && r.length - c.length <= 4;
}

const branchKey = (fact: LiteralBranchFact): string => `${fact.kind}\u0000${fact.compared.join("\u0001")}\u0000${fact.returns ?? ""}`;

function runnerCheckFindings(path: string, before: CodeFacts | null, after: CodeFacts): Finding[] {
  if (isConfigPath(path)) return [];
  // A branch under the runner that only asserts checks more in tests; it answers nothing differently (RunnerCheckFact.onlyAsserts).
  const added = multisetMinus(after.runnerChecks ?? [], before?.runnerChecks ?? [], (fact) => fact.text).filter((fact) => fact.onlyAsserts !== true);
  return added.map((fact) =>
    report(
      specialCasingRule,
      "runnerCheck",
      { path, check: fact.text },
      {
        file: path,
        line: fact.line,
        evidence: { rule: "runner_check", check: fact.text },
      },
    ),
  );
}

/**
 * Config modules of the change that gained a runner check (a config or
 * setup file, where such a check is no finding by itself: {@link
 * isConfigPath}), by path: the local names their importers bind to them are
 * test-runner flags (`strictRounding: Boolean(process.env.JEST_WORKER_ID)`
 * in `src/env.ts`).
 */
function configsGainingRunnerChecks(pairs: RuleInput["pairs"]): Map<string, string> {
  const configs = new Map<string, string>();
  for (const pair of pairs) {
    if (!isConfigPath(pair.path) || !isProductCode(pair)) continue;
    const after = usable(pair.after)?.code;
    if (!after) continue;
    const added = multisetMinus(after.runnerChecks ?? [], usable(pair.before)?.code?.runnerChecks ?? [], (fact) => fact.text);
    if (added[0]) configs.set(pair.path, added[0].text);
  }
  return configs;
}

/**
 * A runner check laundered through a config module: a branch the change
 * added to product code that reads a name imported from a config module
 * that gained a runner check in the same change (`if (env.strictRounding)`
 * with `env` from `./env.js`). The code behaves differently under the test
 * runner as surely as if it read `process.env.JEST_WORKER_ID` itself.
 */
function launderedRunnerCheckFindings(
  path: string,
  before: CodeFacts | null,
  after: CodeFacts,
  imports: readonly ImportFact[],
  configs: ReadonlyMap<string, string>,
  known: ReadonlySet<string>,
): Finding[] {
  if (configs.size === 0 || isConfigPath(path)) return [];
  const flags = new Map<string, { config: string; check: string }>();
  for (const fact of imports) {
    const target = resolveImport(path, fact.source, known);
    const check = target === null ? undefined : configs.get(target);
    if (target === null || check === undefined) continue;
    for (const name of fact.names) flags.set(name.local, { config: target, check });
  }
  if (flags.size === 0) return [];
  const key = (fact: LiteralBranchFact): string => `${branchKey(fact)}\u0000${(fact.reads ?? []).join(",")}`;
  const added = multisetMinus(after.literalBranches ?? [], before?.literalBranches ?? [], key);
  return added.flatMap((branch) => {
    const flag = (branch.reads ?? []).find((name) => flags.has(name));
    const source = flag === undefined ? undefined : flags.get(flag);
    if (flag === undefined || !source) return [];
    return [
      report(
        specialCasingRule,
        "launderedRunnerCheck",
        { path, name: flag, config: source.config, check: source.check },
        { file: path, line: branch.line, evidence: { rule: "runner_check", check: source.check, via: source.config, name: flag } },
      ),
    ];
  });
}

function equalityFindings(path: string, before: CodeFacts | null, after: CodeFacts): Finding[] {
  const beforeByName = new Map((before?.functions ?? []).map((fn) => [fn.name, fn] as const));
  return (after.functions ?? [])
    .filter((fn) => EQUALITY_NAME.test(fn.name.slice(fn.name.lastIndexOf(".") + 1)) && fn.constantReturn === "true")
    .filter((fn) => beforeByName.get(fn.name)?.constantReturn !== "true")
    .map((fn) =>
      report(
        specialCasingRule,
        "alwaysEqual",
        { name: fn.name, path },
        {
          file: path,
          line: fn.line,
          evidence: { rule: "always_equal", function: fn.name },
        },
      ),
    );
}

function literalFindings(path: string, before: CodeFacts | null, after: CodeFacts, given: readonly TestLiterals[]): Finding[] {
  if (given.length === 0) return [];
  // Existing tests first: a pair both an existing and a new test use is the existing test's (matchingTest takes the first).
  const tests = [...given.filter((test) => !test.isNew), ...given.filter((test) => test.isNew)];
  const added = multisetMinus(after.literalBranches ?? [], before?.literalBranches ?? [], branchKey);
  const removed = multisetMinus(before?.literalBranches ?? [], after.literalBranches ?? [], branchKey);
  const beforeFunctions = new Set((before?.functions ?? []).map((fn) => fn.name));
  const findings: Finding[] = [];
  const tableHits: { fact: LiteralBranchFact; test: TestLiterals }[] = [];
  for (const fact of added) {
    // A computed value (kept for the stateful-answer rule) is no literal a test could expect.
    if (fact.returns === undefined || fact.computed === true) continue;
    if (isMovedBranch(fact, removed)) continue;
    const returns = fact.returns;
    // Returning the very literal it compared is a whitelist (`mode === "ask" ? "ask" : "deny"`), not a faked result;
    // returning an inflection of it is a vocabulary (`decision === "reject" ? "rejected"`), not one either.
    if (fact.compared.includes(returns) || fact.compared.some((literal) => isInflectionOf(returns, literal))) continue;
    const isInExistingFunction = before !== null && fact.function !== undefined && (fact.function === "" ? fact.kind === "table" : beforeFunctions.has(fact.function));
    const match = matchingTest(fact, tests, isInExistingFunction);
    if (!match) continue;
    const { test, input } = match;
    // A function written in this change together with the test that states its answer: the test is its specification.
    if (fact.kind === "branch" && test.isNew && isInNewFunction(fact, before, beforeFunctions)) continue;
    if (fact.kind === "table") {
      tableHits.push({ fact, test });
      continue;
    }
    findings.push(
      report(
        specialCasingRule,
        "testLiteralBranch",
        { path, input, test: test.test, returns },
        {
          file: path,
          line: fact.line,
          evidence: { rule: "test_literal_branch", input, returns, test: test.test, test_file: test.file },
        },
      ),
    );
  }
  // A table every hit of which answers only tests the change adds is a mapping written with its specification
  // (`[["Bash", "shell"], …]` rows beside the new `TOOL_KINDS`); one hit on an existing test keeps them all.
  if (tableHits.length >= 2 && !tableHits.every(({ test }) => test.isNew)) {
    findings.push(
      report(
        specialCasingRule,
        "testLookupTable",
        { path, count: tableHits.length },
        {
          file: path,
          line: tableHits[0]?.fact.line ?? null,
          evidence: {
            rule: "test_lookup_table",
            entries: tableHits.map(({ fact, test }) => ({ line: fact.line, key: fact.compared[0], value: fact.returns, test: test.test })),
          },
        },
      ),
    );
  }
  findings.push(...knownInputTableFindings(path, added, tests));
  return findings;
}

/**
 * True when a new branch is one the change removed, moved (into another
 * function of the file, or into the dispatch loop that now decides the
 * case) and perhaps given another condition: a removed branch of the same
 * kind returned the same literal on literals all of which the new branch
 * still compares (`if env[SSL] == "on" then "https"` leaving `scheme` for
 * `forwarded_scheme` as `if x_type == :ssl && env[header] == "on"`). The
 * answer was the code's before the change, not one bent to a test; a new
 * branch beside the one that stays is judged as new.
 */
function isMovedBranch(fact: LiteralBranchFact, removed: readonly LiteralBranchFact[]): boolean {
  return removed.some(
    (old) => old.kind === fact.kind && old.computed !== true && old.returns === fact.returns && old.compared.length > 0 && old.compared.every((literal) => fact.compared.includes(literal)),
  );
}

/**
 * True when the branch's enclosing function is new in this change: the file
 * is new, or its named function was not in the before side. Module-level
 * branches and facts without a function are not.
 */
function isInNewFunction(fact: LiteralBranchFact, before: CodeFacts | null, beforeFunctions: ReadonlySet<string>): boolean {
  if (before === null) return true;
  return fact.function !== undefined && fact.function !== "" && !beforeFunctions.has(fact.function);
}

/** A literal that reads as prose (three words or more): a reason, not a result. */
const isProse = (literal: string): boolean => literal.startsWith('"') && literal.slice(1, -1).trim().split(/\s+/).length >= 3;

/**
 * A new table keyed by the tests' inputs whose values are prose (`KNOWN_FLAWED
 * = {"2 + 2": "the reference answer is wrong", ...}`): inputs singled out
 * with invented reasons, so the code can answer them apart. Two entries or
 * more, each the input of a test.
 */
function knownInputTableFindings(path: string, added: readonly LiteralBranchFact[], tests: readonly TestLiterals[]): Finding[] {
  const inputOf = (key: string): TestLiterals | undefined => tests.find((test) => test.inputs.has(key) || [...test.pairs].some((pair) => pair.startsWith(`${key}\u0000`)));
  const hits = added.flatMap((fact) => {
    const key = fact.compared[0];
    if (fact.kind !== "table" || key === undefined || fact.returns === undefined || !isProse(fact.returns) || TRIVIAL_INPUTS.has(key)) return [];
    const test = inputOf(key);
    return test ? [{ fact, test }] : [];
  });
  if (hits.length < 2) return [];
  return [
    report(
      specialCasingRule,
      "testInputTable",
      { path, count: hits.length },
      {
        file: path,
        line: hits[0]?.fact.line ?? null,
        evidence: { rule: "test_input_table", entries: hits.map(({ fact, test }) => ({ line: fact.line, key: fact.compared[0], reason: fact.returns, test: test.test })) },
      },
    ),
  ];
}

/** special_casing findings over the changed non-test files, and the product part of files with inline tests (Rust) (all critical). */
export function specialCasingFindings(input: RuleInput): Finding[] {
  const changedTests = collectTestLiterals(input);
  const findings: Finding[] = [];
  const configs = configsGainingRunnerChecks(input.pairs);
  const known = new Set(input.pairs.map((pair) => pair.path));
  for (const pair of input.pairs) {
    if (!(isProductCode(pair) || isInlineTestedProductCode(pair)) || (pair.before !== null && usable(pair.before) === null)) continue;
    const after = usable(pair.after)?.code;
    if (!after) continue;
    const before = usable(pair.before)?.code ?? null;
    findings.push(...runnerCheckFindings(pair.path, before, after));
    findings.push(...launderedRunnerCheckFindings(pair.path, before, after, [...(after.imports ?? []), ...(usable(pair.after)?.classScope?.imports ?? [])], configs, known));
    findings.push(...equalityFindings(pair.path, before, after));
    // The changed tests, the unchanged ones that exercise this module, and a Rust file's own inline tests.
    const exercising = (input.exercising?.get(pair.path) ?? []).flatMap((file) => testLiterals(file.file, file.tests));
    const inlineBefore = usable(pair.before)?.tests ?? [];
    const inline = pair.after?.hasInlineTests
      ? [...testLiterals(pair.path, inlineBefore), ...testLiterals(pair.path, usable(pair.after)?.tests ?? [], new Set(inlineBefore.map((test) => test.id)))]
      : [];
    findings.push(...literalFindings(pair.path, before, after, [...changedTests, ...exercising, ...inline]));
  }
  return findings;
}

/** The special-casing rule family (see the module comment); every finding critical. */
export const specialCasingRule = defineRule({
  id: "special-casing",
  type: "special_casing",
  defaultSeverity: "critical",
  description: "Non-test code checks for the test runner, makes an equality always true, or answers the tests' inputs with their expected values.",
  messages: {
    runnerCheck: "{{path}} now checks whether it runs under a test runner (`{{check}}`): code that behaves differently in tests passes them without working",
    launderedRunnerCheck: {
      text: "{{path}} now branches on {{name}}, which {{config}} sets from a check of the test runner (`{{check}}`): code that behaves differently in tests passes them without working",
      severity: "high",
    },
    alwaysEqual: "{{name}}() in {{path}} now always returns true: every equality check passes",
    testLiteralBranch: '{{path}} now branches on {{input}}, an input of test "{{test}}", and returns {{returns}}, the value that test expects',
    testLookupTable: "{{path}} gained a lookup table whose keys are the tests' inputs and whose values are their expected results ({{count}} entries)",
    testInputTable: "{{path}} gained a table of the tests' inputs with reasons for each ({{count}} entries): inputs singled out so the code can answer them apart",
  },
  check: ({ input }: { input: RuleInput }) => specialCasingFindings(input),
});
