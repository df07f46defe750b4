/**
 * The conservation-of-checks model (DESIGN.md "Tests are judged by what
 * they check"; issue 9): every assertion is a normalised {@link Check};
 * helpers that assert are resolved into their checks; a table test's names
 * bind to the literals of one of its rows. A change conserves a before test
 * when each of its checks has an equal or stronger check after it, wherever
 * that check now lives (a merge into a table, a split into several tests,
 * another file, another framework), and the literals the test fed the code
 * are still fed by the tests that cover it.
 *
 * compare.ts asks {@link conserve} about the before tests its name passes
 * left without a partner; rules/assertions.ts asks {@link isCheckConserved}
 * about assertions a surviving test lost.
 */

import type { AssertionFact, AssertionHelperFact, FileFacts, TestCase } from "../facts.js";
import { calleeOf, isSameCall } from "./calls.js";
import { coverage, isInNamedCells, isInRow, literalTokens, unify } from "./coverage.js";
import { canonicalText, closingBracket, conjuncts, isLiteralText, literalKey, splitArguments, splitCall, toCheck, type Check } from "./normalise.js";
import { relationOfMatcher } from "./relations.js";
import { isRunDirectly } from "./direct-calls.js";
import { findCrossCheckCover } from "./cross-checks.js";

export { canonicalText, literalKey, toCheck, type Check } from "./normalise.js";
export { coverage, unify } from "./coverage.js";
export { checkStrength, relationOfMatcher, RELATION_STRENGTH, type Relation } from "./relations.js";

/** A helper of a test file that asserts (facts.ts AssertionHelperFact): its parameters and its assertions, so a call resolves into checks. */
export type HelperFacts = Pick<AssertionHelperFact, "name" | "params" | "paramDefaults" | "assertionsDetail" | "paramArms" | "paramSinks" | "absentIsUndefined">;

/** One test with its checks resolved, as the conservation rule reads it. */
export interface CheckedTest {
  file: string;
  test: TestCase;
  /** Its real checks (reachable, not tautologies), helper calls resolved one level into the helper's checks. */
  checks: Check[];
  /** Literal rows of its table (canonical), or null for a test without a literal table. */
  rows: string[][] | null;
  /** Literals its body feeds the code or expects (canonical), as a set. */
  literals: ReadonlySet<string>;
  /** Those and the literals of the file's helpers it calls (TestCase.helperLiterals), canonical: what it feeds the code through them. */
  reached: ReadonlySet<string>;
  /** Its helper calls whose helper is known: the checks each stands for (reachable, real), the literals of the branches its arguments select ({@link helperArmLiterals}) and the fields they set ({@link helperSinkLiterals}). */
  helperCalls?: Map<Check, { parts: Check[]; armLiterals: string[]; sinks: SinkLiteral[] }>;
}

/** The literals of a test as recorded by its language: tree-sitter `literals`, or JS/TS input and expected literals. */
export function literalsOfTest(test: TestCase): string[] {
  return (test.literals ?? [...(test.inputLiterals ?? []), ...(test.expectedLiterals ?? [])]).map((literal) => literalKey(canonicalText(literal)));
}

/**
 * The checks of a test: each assertion normalised, and each call of a
 * helper of its file (`check(t, got, want)`, `assertValid(x)`) expanded into
 * the helper's checks with its parameters replaced by the call's arguments,
 * besides the helper-call check itself.
 */
export function checksOf(test: TestCase, helpers: readonly HelperFacts[] = []): Check[] {
  const checks: Check[] = [];
  for (const fact of test.assertionsDetail ?? []) {
    for (const check of toChecks(fact)) {
      checks.push(check);
      if (check.relation !== "helper") continue;
      checks.push(...helperCheckParts(check, helpers));
    }
  }
  return checks;
}

/**
 * The checks one assertion makes: one, or one per conjunct when it asserts
 * a conjunction holds (`t.true(n >= 2 && n < 30)`, `assert a and b`,
 * `assert!(x && y)`, `assertTrue(a && b)`), or one per element when it
 * compares two tuples or arrays element by element (`assert (a, b) == (1,
 * 2)`): the same checks as the separate assertions it may have replaced. A
 * negated or falsy assertion of a conjunction (`assertFalse(a && b)`)
 * states only that one conjunct fails: one check.
 */
export function toChecks(fact: AssertionFact): Check[] {
  return conjunctFacts(fact).map(toCheck);
}

/**
 * An assertion of a conjunction as one assertion per conjunct (`actual` =
 * the conjunct), or the assertion alone (see {@link toChecks}).
 */
export function conjunctFacts(fact: AssertionFact): AssertionFact[] {
  const actual = fact.actualValue ?? fact.actual;
  const elements = tupleElements(fact);
  if (elements) return elements;
  if (actual === undefined || fact.expected !== undefined || fact.negated === true || relationOfMatcher(fact.matcher) !== "truthy") return [fact];
  const parts = conjuncts(canonicalText(actual));
  if (parts.length < 2) return [fact];
  return parts.map((part) => {
    const single: AssertionFact = { ...fact, actual: part };
    delete single.actualValue;
    return single;
  });
}

/** Equality matchers that compare sequences element by element (a deep or structural equality, not an identity: `toBe`, `assertSame`, `is` compare references). */
const ELEMENTWISE_EQUALITY =
  /^(?:assert ==|assert_eq!?|assertEqual|assertEquals|assertTupleEqual|assertListEqual|assertSequenceEqual|toEqual|toStrictEqual|deepEqual|deepStrictEqual|(?:t|assert)\.deepEqual|(?:t|assert)\.deepStrictEqual|equal|eq|eql|deep\.equal|assert_equal)$/;

/**
 * An equality of two tuple or array literals of the same length as one
 * equality per element (`assert (len(closed), len(attempts)) == (4, 1)`,
 * `assert_eq!((a, b), (1, 2))`, `expect([a, b]).toEqual([1, 2])`): the
 * checks of the separate assertions it bundles, since a tuple, a Rust tuple
 * and a deeply compared array are equal exactly when each element is. Null
 * for anything else: a negated equality (one element differs), an identity
 * matcher, a one-element group (a parenthesised value), lengths that differ.
 */
function tupleElements(fact: AssertionFact): AssertionFact[] | null {
  const actual = fact.actualValue ?? fact.actual;
  if (actual === undefined || fact.expected === undefined || fact.negated === true || relationOfMatcher(fact.matcher) !== "equal" || !ELEMENTWISE_EQUALITY.test(fact.matcher)) return null;
  const left = groupElements(canonicalText(actual));
  const right = groupElements(canonicalText(fact.expected));
  if (!left || !right || left.length !== right.length || left.length < 2) return null;
  return left.map((element, index) => {
    const single: AssertionFact = { ...fact, actual: element, expected: right[index] as string };
    delete single.actualValue;
    return single;
  });
}

/**
 * The elements of a tuple `(a,b)` or array `[a,b]` literal in canonical text
 * (its one top-level bracket pair; canonicalText drops a tuple's outer
 * parentheses, leaving `a,b`), or null.
 */
function groupElements(text: string): string[] | null {
  const open = text[0];
  const close = open === "(" ? ")" : open === "[" ? "]" : null;
  const isBracketed = close !== null && text.endsWith(close);
  const inner = isBracketed ? text.slice(1, -1) : text;
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const char = inner[i];
    if (char === '"') {
      i++;
      while (i < inner.length && inner[i] !== '"') i += inner[i] === "\\" ? 2 : 1;
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    if (depth < 0) return null; // `(a)+(b)`: two groups, not one
  }
  if (depth !== 0) return null;
  const parts = splitArguments(inner).map((part) => part.trim());
  if (!isBracketed && parts.length < 2) return null;
  return parts.length > 0 && parts.every((part) => part !== "") ? parts : null;
}

/**
 * A helper's checks with its parameters replaced by the call's arguments
 * (`check(x, y)` called as `check(1, 2)`: `f(x) == y` -> `f(1) == 2`). A
 * parameter destructuring an object (`(t, {run, error = false})`, an ava
 * macro's data) binds each name to the property of that name in an object
 * literal argument (`{run: () => f(1)}`), or to its default. The facts are
 * instantiated before they are read as checks, so a bound thunk reads as
 * the call it wraps (`t.throws(run)` with `run: () => f(1)`).
 */
function expandHelper(call: Check, helper: HelperFacts): Check[] {
  const bound = instantiateHelper(call.subject, helper);
  // A helper check of a parameter's member or call reads it as a direct check of the local passed does: the local as
  // written (`result.returncode`, AssertionFact.actualBase); a check of the bare parameter reads what the local was bound to.
  const written = call.written === undefined ? bound : instantiateHelper(call.written, helper);
  const params = new Set(helper.params ?? []);
  const originals = helper.assertionsDetail ?? [];
  return (
    bound
      .map((fact, index) => {
        const actual = originals[index]?.actual;
        return actual !== undefined && !params.has(canonicalText(actual)) ? (written[index] ?? fact) : fact;
      })
      .flatMap(toChecks)
      // A call that never runs (after an early return, in a loop over nothing) makes none of its helper's checks.
      .map((check) => ({ ...check, line: call.line, isReachable: check.isReachable && call.isReachable }))
  );
}

/**
 * A helper's assertion facts with its parameters replaced by the arguments
 * of `callText` (canonical or as written: `checkEmpty("A")`), as
 * {@link expandHelper} reads them; the facts as they are when the call
 * binds no parameter.
 */
export function instantiateHelper(callText: string, helper: HelperFacts): AssertionFact[] {
  const parts = splitCall(canonicalText(callText));
  const args = parts ? splitArguments(parts[1]) : [];
  const bindings = bindParameters(helper.params ?? [], args, helper.absentIsUndefined === true && parts !== null, helper.paramDefaults);
  if (bindings.size === 0) return [...(helper.assertionsDetail ?? [])];
  const substitute = (text: string): string =>
    text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[A-Za-z_$][\w$]*/g, (name, offset: number) => {
      // String literals are left as written: a parameter's name inside a message is not the parameter.
      const value = bindings.get(name);
      if (value === undefined || text[offset - 1] === "." || text[offset - 1] === "$") return name;
      return value;
    });
  return (helper.assertionsDetail ?? []).map((fact) => {
    const bound: AssertionFact = { ...fact };
    for (const key of ["actual", "actualValue", "expected", "message"] as const) {
      const text = fact[key];
      // Canonical first: `t . hours ( )` as tree-sitter spells it is `t.hours()`, whose `hours` is a member, not the parameter.
      if (text !== undefined) bound[key] = substitute(canonicalText(text));
    }
    // A branch on a parameter the call fixed (`if !enc && c.Valid` with enc = true) that cannot run for this call holds no check of it;
    // one the call's data selects (`if (expected)` given `expected: 1`) is no condition of this call's check.
    if (fact.conditions) {
      const isJavaScript = helper.absentIsUndefined === true;
      const conditions = fact.conditions.map(substitute);
      if (conditions.some((condition) => isFalseCondition(condition, isJavaScript) || nullTestTruth(condition) === false)) bound.unreachable = true;
      // A null test of a literal the call passed (`if stdout is not None` given `stdout="x"`) is decided by the call too.
      const open = conditions.filter((condition) => nullTestTruth(condition) !== true && (!isJavaScript || literalTruth(condition) !== true));
      if (open.length > 0) bound.conditions = open;
      else delete bound.conditions;
    }
    return bound;
  });
}

/**
 * True when no assertion of `helper` can fail a test through the call
 * `callText`: each is unreachable (a discarded ava attempt) or under a
 * branch the call's arguments rule out ({@link instantiateHelper}: a macro
 * checking only under `if (error)` and `if (expected)`, called with
 * neither). False for a helper with no assertion details.
 */
export function isNeverCheckingCall(callText: string, helper: HelperFacts): boolean {
  const facts = instantiateHelper(callText, helper);
  return facts.length > 0 && facts.every((fact) => fact.unreachable === true);
}

/**
 * The helper's parameter names bound to a call's arguments (canonical
 * text), by position; an object pattern parameter (`{a, b: c, d = 1,
 * ...rest}`) binds its names to the properties of an object literal
 * argument, or to their defaults. Names with no argument stay unbound,
 * unless `absentIsUndefined` (JavaScript, AssertionHelperFact.absentIsUndefined):
 * then a parameter past the call's last argument, and a name the object
 * literal leaves out with no default, are `undefined`, while a spread
 * argument or property (`...rest`) leaves them unbound (it may supply them).
 * A parameter with a default (`defaults`, AssertionHelperFact.paramDefaults)
 * and no argument binds its default, in every language.
 */
export function bindParameters(params: readonly string[], allArgs: readonly string[], absentIsUndefined = false, defaults: Readonly<Record<string, string>> = {}): Map<string, string> {
  const bindings = new Map<string, string>();
  // Keyword arguments (Python `exit_code=0`, Ruby `method_name: :gets`, canonical `method_name::gets`) of a parameter's name bind that
  // parameter; the others bind by position.
  const named = new Map<string, string>();
  const args = allArgs.filter((arg) => {
    const keyword = /^([A-Za-z_]\w*)=(?!=)([\s\S]+)$/.exec(arg) ?? /^([a-z_]\w*):(?=[^\s])([\s\S]+)$/.exec(arg);
    if (!keyword || !params.includes(keyword[1] as string)) return true;
    named.set(keyword[1] as string, keyword[2] as string);
    return false;
  });
  for (const [name, value] of named) bindings.set(name, value);
  const spreads = args.some((arg) => arg.startsWith("..."));
  params
    .filter((param) => !named.has(param))
    .forEach((param, index) => {
      const arg = args[index];
      const pattern = canonicalText(param);
      if (!(pattern.startsWith("{") && pattern.endsWith("}"))) {
        if (!/^[A-Za-z_$][\w$]*$/.test(param)) return;
        const fallback = defaults[param];
        if (arg !== undefined) bindings.set(param, arg);
        else if (fallback !== undefined && !spreads) bindings.set(param, canonicalText(fallback));
        else if (absentIsUndefined && !spreads) bindings.set(param, "undefined");
        return;
      }
      const properties = new Map<string, string>();
      // Only an object literal (or nothing at all) tells which names the call leaves out.
      let isClosed = absentIsUndefined && !spreads && (arg === undefined || (arg.startsWith("{") && arg.endsWith("}")));
      if (arg !== undefined && arg.startsWith("{") && arg.endsWith("}")) {
        for (const entry of splitArguments(arg.slice(1, -1))) {
          const colon = topLevelColon(entry);
          const key = (colon === -1 ? entry : entry.slice(0, colon)).replace(/^"(.*)"$/, "$1");
          if (key.startsWith("...") || key.startsWith("[")) isClosed = false;
          else properties.set(key, colon === -1 ? entry : entry.slice(colon + 1));
        }
      }
      for (const entry of splitArguments(pattern.slice(1, -1))) {
        if (entry.startsWith("...")) continue;
        const colon = topLevelColon(entry);
        const key = colon === -1 ? entry.replace(/=.*$/s, "") : entry.slice(0, colon);
        const local = colon === -1 ? key : entry.slice(colon + 1).replace(/=.*$/s, "");
        const fallback = /=(.*)$/s.exec(colon === -1 ? entry : entry.slice(colon + 1))?.[1];
        const value = properties.get(key) ?? fallback ?? (isClosed ? "undefined" : undefined);
        if (value !== undefined && /^[A-Za-z_$][\w$]*$/.test(local)) bindings.set(local, value);
      }
    });
  return bindings;
}

/** Index of the first `:` of canonical text outside brackets and strings, or -1. */
function topLevelColon(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    else if (char === ":" && depth === 0) return i;
  }
  return -1;
}

/**
 * A branch condition that is false whatever runs: `false`, `!true`, `not
 * True`, or a conjunction with such a conjunct (`!true&&c.Valid`); with
 * `isJavaScript`, also a literal JavaScript reads as falsy or the negation
 * of a truthy one ({@link literalTruth}: `undefined`, `!"empty input"`).
 */
function isFalseCondition(condition: string, isJavaScript = false): boolean {
  return conjuncts(canonicalText(condition)).some(
    (part) => /^(?:false|False|!true|!True|!\(true\)|!\(True\)|nottrue|not True|notTrue)$/.test(part.replace(/\s+/g, " ")) || (isJavaScript && literalTruth(part) === false),
  );
}

/** A null literal of a language (`None`, `null`, `nil`, `undefined`). */
const NULL_LITERAL = /^(?:None|null|nil|NULL|undefined)$/;

/**
 * What a null test of a literal evaluates to, the same in every language
 * (`"x" is not None`, `3 != nil`, `null === null`, `None is None`): true
 * or false when the tested side is a literal, undefined otherwise (a name
 * the call left unbound).
 */
function nullTestTruth(text: string): boolean | undefined {
  const test = /^(.+?)\s*(is not|is|!==|===|!=|==)\s*(None|null|nil|NULL|undefined)$/s.exec(canonicalText(text).trim());
  if (!test) return undefined;
  const value = (test[1] as string).trim();
  const isNull = NULL_LITERAL.test(value) ? true : literalType(value) !== undefined || /^(?:True|False)$/.test(value) ? false : undefined;
  if (isNull === undefined) return undefined;
  return test[2] === "is" || test[2] === "===" || test[2] === "==" ? isNull : !isNull;
}

/** The JavaScript truthiness of a literal written as text: `undefined`, `null`, `0`, `""` and `false` are falsy, another number, string, object or array literal truthy; `!x` the negation; `typeof <literal> === "<type>"` as evaluated; undefined when the text is none of these. */
function literalTruth(text: string): boolean | undefined {
  const condition = canonicalText(text).trim();
  if (condition.startsWith("!") && !condition.startsWith("!=")) {
    const inner = literalTruth(condition.slice(1).replace(/^\((.*)\)$/s, "$1"));
    return inner === undefined ? undefined : !inner;
  }
  const typeOf = /^typeof\s*(.+?)\s*(===|!==|==|!=)\s*"(\w+)"$/s.exec(condition);
  if (typeOf) {
    const type = literalType(typeOf[1] as string);
    if (type === undefined) return undefined;
    return (type === typeOf[3]) === (typeOf[2] === "===" || typeOf[2] === "==");
  }
  if (/^(?:undefined|null|false|0|-0|0n|NaN|""|'')$/.test(condition)) return false;
  if (/^(?:true|-?\d[\d_.]*(?:e-?\d+)?n?|"(?:[^"\\]|\\.)+"|'(?:[^'\\]|\\.)+')$/.test(condition) || isBracketedLiteral(condition)) return true;
  return undefined;
}

/** The `typeof` of a literal written as text, or undefined when it is no literal. */
function literalType(text: string): string | undefined {
  const value = text.trim();
  if (value === "undefined") return "undefined";
  if (value === "true" || value === "false") return "boolean";
  if (/^-?\d[\d_.]*(?:e-?\d+)?$/.test(value)) return "number";
  if (/^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')$/.test(value)) return "string";
  if (value === "null" || isBracketedLiteral(value)) return "object";
  return undefined;
}

/** True for an object or array literal (`{a:1}`, `[1,2]`): one bracket pair around the whole text. */
function isBracketedLiteral(text: string): boolean {
  if (!((text.startsWith("{") && text.endsWith("}")) || (text.startsWith("[") && text.endsWith("]")))) return false;
  return closingBracket(text) === text.length - 1;
}

/**
 * The literals (in {@link literalKey} form) of the helper's branches that a
 * call's boolean arguments select (AssertionHelperFact.paramArms):
 * `runConformance(t, true)` of a helper with `if next { r.Version = "1.1"
 * }` selects `"1.1"`. A test the helper was inlined into keeps what the call
 * checked only where it feeds these: the same checks in the other mode are
 * another test. Empty when the call fixes no branch.
 */
export function helperArmLiterals(check: Check, helpers: readonly HelperFacts[]): string[] {
  if (check.relation !== "helper") return [];
  const helper = helpers.find((candidate) => candidate.name === check.helper);
  if (!helper?.paramArms || helper.paramArms.length === 0) return [];
  const parts = splitCall(check.subject);
  const bindings = bindParameters(helper.params ?? [], parts ? splitArguments(parts[1]) : []);
  const literals: string[] = [];
  for (const arm of helper.paramArms) {
    const value = bindings.get(arm.param);
    const truth = value === undefined ? undefined : /^(?:true|True)$/.test(value) ? true : /^(?:false|False)$/.test(value) ? false : undefined;
    if (truth === arm.when) literals.push(...arm.literals.map((literal) => literalKey(canonicalText(literal))));
  }
  return literals;
}

/** A field or keyword a helper call sets to a literal through a parameter (AssertionHelperFact.paramSinks), literal in {@link literalKey} form. */
export interface SinkLiteral {
  key: string;
  literal: string;
}

/** Zero values a language fills in for a field left out (Go's zero values, a missing keyword's usual default): a call setting one sets nothing an inlined test must write out. */
const ZERO_LITERAL = /^(?:false|False|0|0\.0|""|nil|None|null|undefined)$/;

/**
 * The fields a helper call sets to a non-zero literal through its
 * parameters (`run(t, true)` of a helper building `Runner{Encoder: enc}`:
 * `Encoder` = `true`). A test the helper was inlined into checks what the
 * call checked only where it sets them too, unless the product no longer
 * declares the field (the knob is gone: see {@link conserve}).
 */
export function helperSinkLiterals(check: Check, helpers: readonly HelperFacts[]): SinkLiteral[] {
  if (check.relation !== "helper") return [];
  const helper = helpers.find((candidate) => candidate.name === check.helper);
  if (!helper?.paramSinks || helper.paramSinks.length === 0) return [];
  const parts = splitCall(check.subject);
  const bindings = bindParameters(helper.params ?? [], parts ? splitArguments(parts[1]) : []);
  const sinks: SinkLiteral[] = [];
  for (const sink of helper.paramSinks) {
    const value = bindings.get(sink.param);
    if (value === undefined || !isLiteralText(value) || ZERO_LITERAL.test(value)) continue;
    sinks.push({ key: sink.key, literal: literalKey(canonicalText(value)) });
  }
  return sinks;
}

/**
 * The checks a helper-call check stands for: the helper's checks (of
 * `helpers`, the calling file's) instantiated with the call's arguments;
 * empty when `check` is no helper call or its helper is not known. A call
 * of a helper that was inlined into the test lives on where each of these does.
 */
export function helperCheckParts(check: Check, helpers: readonly HelperFacts[]): Check[] {
  if (check.relation !== "helper") return [];
  const helper = helpers.find((candidate) => candidate.name === check.helper);
  return helper?.assertionsDetail ? expandHelper(check, helper) : [];
}

/** A test of one side with its checks, rows and literals (see {@link CheckedTest}). */
export function checkedTest(file: string, test: TestCase, facts: FileFacts | null): CheckedTest {
  const helpers: readonly HelperFacts[] = facts?.assertionHelpers ?? [];
  const rows = test.eachRowLiterals ? test.eachRowLiterals.map((row) => row.map((literal) => literalKey(canonicalText(literal)))) : null;
  const checked: CheckedTest = {
    file,
    test,
    checks: checksOf(test, helpers).filter((check) => check.isReachable && !check.isTautology),
    rows,
    literals: new Set(literalsOfTest(test)),
    reached: new Set([...literalsOfTest(test), ...(test.helperLiterals ?? []).map((literal) => literalKey(canonicalText(literal)))]),
  };
  const calls = new Map<Check, { parts: Check[]; armLiterals: string[]; sinks: SinkLiteral[] }>();
  for (const check of checked.checks) {
    const parts = helperCheckParts(check, helpers).filter((part) => part.isReachable && !part.isTautology);
    if (parts.length > 0) calls.set(check, { parts, armLiterals: helperArmLiterals(check, helpers), sinks: helperSinkLiterals(check, helpers) });
  }
  if (calls.size > 0) checked.helperCalls = calls;
  return checked;
}

/**
 * Where a helper call lives on when its helper was inlined: each check it
 * stands for has a cover in `pool` (equal or stronger, as
 * {@link findCover}), and the covering tests feed the literals of the
 * branches the call's arguments selected ({@link helperArmLiterals}), so the
 * inlined code runs the call's mode, not the other one. The first part's
 * cover, or null.
 */
export function findInlinedCover(call: Check, parts: readonly Check[], armLiterals: readonly string[], pool: readonly CheckedTest[]): Cover | null {
  const covers = parts.map((part) => findCover(part, pool));
  if (covers.length === 0 || covers.some((cover) => cover === null)) return null;
  const kept = keptLiterals(covers as Cover[]);
  if (!armLiterals.every((literal) => kept.has(literal))) return null;
  return { check: call, by: (covers[0] as Cover).by };
}

/** Where one before check lives on: the after test, and the row of its table when its names bound to the check's literals. */
export interface Cover {
  check: Check;
  by: CheckedTest;
  row?: readonly string[];
}

/** The outcome of {@link conserve}: the before test's checks found after the change, and those found nowhere. */
export interface Conservation {
  covered: Cover[];
  missing: Check[];
  /** Literals the before test fed the code that none of the covering tests (nor their rows) feed any more. */
  lostLiterals: string[];
}

/** The first after check (in `pool` order) equal to or stronger than `check`, with the row its names bound to. */
export function findCover(check: Check, pool: readonly CheckedTest[]): Cover | null {
  for (const candidate of pool) {
    const canBind = candidate.rows !== null && candidate.rows.length > 0;
    for (const after of candidate.checks) {
      const bindings = coverage(check, after, canBind);
      if (!bindings) continue;
      if (bindings.size === 0) return { check, by: candidate };
      const elements = candidate.test.eachRowElements?.length === candidate.rows?.length ? candidate.test.eachRowElements : undefined;
      const row = candidate.rows?.find((cells, index) => isInRow(bindings, cells) && isInNamedCells(bindings, elements?.[index]));
      if (row) return { check, by: candidate, row };
    }
    // A not-throws check made by running the code directly (direct-calls.ts).
    if (isRunDirectly(check, candidate.test)) return { check, by: candidate };
  }
  return null;
}

/**
 * Where a check of a local value (`assertSame([2, 4], $levels)`, the local
 * built by the test's arrange code) lives on in a table test whose arrange
 * code moved into a helper (`assertSame($expected, $this->process($config,
 * $levels))` over provider rows): an after check of the same relation,
 * negation and no less strength, whose expected value binds to the before
 * check's from one row that, with the after test's own literals, holds
 * every literal of the before test (its inputs and its expected value, as a
 * multiset; messages aside). A row that drops or changes one of the old
 * inputs or the expected value is no cover. Null when the before check's
 * subject is not one plain name (as written: Check.local) or nothing covers it.
 */
function findLocalCover(check: Check, test: TestCase, pool: readonly CheckedTest[]): Cover | null {
  if ((!/^\$?[A-Za-z_]\w*$/.test(check.subject) && check.local === undefined) || check.expected === undefined) return null;
  const needed = literalsOfTest(test).filter((literal) => !isMessageLiteral(literal));
  if (needed.length === 0) return null;
  for (const candidate of pool) {
    if (candidate.rows === null || candidate.rows.length === 0) continue;
    for (const after of candidate.checks) {
      if (after.relation !== check.relation || after.isNegated !== check.isNegated || after.strength < check.strength || after.expected === undefined) continue;
      const bindings = unify(after.expected, check.expected, true);
      if (!bindings || bindings.size === 0) continue;
      const row = candidate.rows.find((cells) => isInRow(bindings, cells) && isRowKept(needed, [...cells, ...candidate.reached]));
      if (row) return { check, by: candidate, row };
    }
  }
  return null;
}

/** Where a check of `test` lives on as it was (see {@link conserve}): the same or a stronger check, one of a local kept by a table row, or a timing threshold made relative; null when none. */
export function findKeptCover(check: Check, test: TestCase, file: string, pool: readonly CheckedTest[]): Cover | null {
  return findCover(check, pool) ?? findLocalCover(check, test, pool) ?? findRelativeTimingCover(check, file, pool);
}

/**
 * Where a check lives on with its expected value changed (the expectation
 * followed a change of the code under test, which the caller establishes):
 * an after check of a table test in `pool` with the same relation and
 * negation and no less strength, whose expected value is a parameter the
 * rows name (TestCase.eachRowElements), in a row whose other values (with
 * the after test's own and its helpers' literals) hold every input of the
 * before test, its literals less those of the check's expected value; for
 * a check of a call (not a local), the after subject must also bind to the
 * before subject from that row. Null when the rows' values are not named or
 * no row keeps the inputs: a row that changed an input is another check,
 * and the new expected value's literals never stand in for an input.
 */
export function findReExpectedCover(check: Check, test: TestCase, pool: readonly CheckedTest[]): Cover | null {
  if (!isReExpectable(check)) return null;
  const expected = literalTokens(check.expected);
  const all = literalsOfTest(test).filter((literal) => !isMessageLiteral(literal));
  const inputs = [...all];
  for (const literal of expected) {
    const index = inputs.indexOf(literal);
    if (index !== -1) inputs.splice(index, 1);
  }
  if (inputs.length === 0) return null;
  const isLocal = /^\$?[A-Za-z_]\w*$/.test(check.subject);
  for (const candidate of pool) {
    const elements = candidate.test.eachRowElements;
    if (candidate.rows === null || candidate.rows.length === 0 || elements?.length !== candidate.rows.length) continue;
    for (const after of candidate.checks) {
      if (after.relation !== check.relation || after.isNegated !== check.isNegated || after.strength < check.strength || after.expected === undefined) continue;
      if (!/^\$?[A-Za-z_]\w*$/.test(after.expected)) continue;
      const bindings = isLocal ? new Map<string, string>() : unify(after.subject, check.subject, true);
      if (!bindings) continue;
      const name = after.expected.replace(/^\$/, "");
      const index = candidate.rows.findIndex((cells, row) => {
        const cell = (elements[row] ?? []).find((element) => element.startsWith(`${name}: `));
        if (cell === undefined) return false;
        const others = [...cells];
        for (const literal of literalTokens(cell.slice(name.length + 2))) {
          const at = others.indexOf(literal);
          if (at !== -1) others.splice(at, 1);
        }
        return isInRow(bindings, others) && isRowKept(inputs, [...others, ...candidate.reached]);
      });
      if (index !== -1) return { check, by: candidate, row: candidate.rows[index] as string[] };
    }
  }
  return null;
}

/** True when a check states an expected value another could replace: not an error, warning or helper check, and with an expected value. */
function isReExpectable(check: Check): check is Check & { expected: string } {
  return check.expected !== undefined && check.relation !== "throws" && check.relation !== "warns" && check.relation !== "helper";
}

/**
 * True when `after` makes `check` again on the same call with another
 * expected value: the same relation and negation, no less strength (nor a
 * loose equality for a strict one), no branch condition of its own, the
 * same callee with every literal the before subject passed still passed
 * (calls.ts isSameCall), and an expected value (or what a local expected
 * value was bound to) that differs.
 */
function isReCalled(check: Check, after: Check): boolean {
  if (after.relation !== check.relation || after.isNegated !== check.isNegated || after.strength < check.strength || after.expected === undefined) return false;
  if ((after.isLoose && !check.isLoose) || (after.conditions !== undefined && after.conditions.join("\u0000") !== (check.conditions ?? []).join("\u0000"))) return false;
  return (after.expectedValue ?? after.expected) !== (check.expectedValue ?? check.expected) && isSameCall(check.subject, after.subject);
}

/**
 * Where a check lives on with its expected value changed in a plain test
 * (a test retitled, or its check moved into a new test, while the code
 * under test changed, which the caller establishes): the first check of
 * `pool` that makes it again on the same call expecting another value
 * ({@link isReCalled}). Null for an error, warning or helper check, a
 * subject that is no call, or when no test makes it: a call with a literal
 * input changed is another check. The caller also asks
 * {@link keepsInputs} of the covers it takes.
 */
export function findReCalledCover(check: Check, pool: readonly CheckedTest[]): Cover | null {
  if (!isReExpectable(check) || calleeOf(check.subject) === null) return null;
  for (const candidate of pool) if (candidate.checks.some((after) => isReCalled(check, after))) return { check, by: candidate };
  return null;
}

/**
 * True when the tests of `homes` (where the checks of `test` live on) and
 * the rows and checks of `reExpected` (its checks made again expecting
 * otherwise) still feed every input literal of `test`: its literals, less
 * messages and the literals of the re-expected checks' old expected values.
 * A before test whose inputs reach the call through locals (`parse(input)`)
 * is the same test only when those locals' literals are still fed.
 */
export function keepsInputs(test: TestCase, reExpected: readonly Cover[], homes: readonly CheckedTest[]): boolean {
  const expected = new Set(reExpected.flatMap((cover) => literalTokens(cover.check.expected ?? "")));
  const kept = new Set([...homes, ...reExpected.map((cover) => cover.by)].flatMap((home) => [...home.reached]));
  for (const cover of reExpected) for (const literal of cover.row ?? []) kept.add(literal);
  return literalsOfTest(test).every((literal) => isMessageLiteral(literal) || expected.has(literal) || kept.has(literal));
}

/** Names and reads of a measured duration: `timer.ElapsedMilliseconds`, `elapsedMs`, `time.monotonic() - start`, `sequential_elapsed`, `duration`. */
const MEASURED_TIME = /elapsed|duration|stopwatch|monotonic|perf_counter|performance\.now|\bMs\b|[a-z]Ms\b|_ms\b|millis|nanos|\btimer\b|time\.(?:time|Since|Now)/i;

/** True when a check's text is a number (a threshold): `750`, `0.75`, `-1`. */
function isNumberText(text: string | undefined): boolean {
  return text !== undefined && /^-?\d[\d_.]*(?:e-?\d+)?[a-zA-Z]*$/.test(text);
}

/**
 * True when `check` is an absolute threshold on a measured duration: an
 * order check (greater or less, not negated) of a subject that reads a
 * duration ({@link MEASURED_TIME}: `elapsed`, `duration`, `time.Since(start)`,
 * `timer.ElapsedMilliseconds`) against a number (`duration < 10`,
 * `elapsed > 0.5`). What it checks depends on the machine's speed as much as
 * on the code: the kind of check a flaky-test fix replaces.
 */
export function isTimingThreshold(check: Check): boolean {
  return (check.relation === "greater" || check.relation === "less") && !check.isNegated && isNumberText(check.expected) && MEASURED_TIME.test(check.subject);
}

/** True when a check's subject or expected value reads a measured duration ({@link MEASURED_TIME}). */
export function readsMeasuredTime(check: Check): boolean {
  return MEASURED_TIME.test(check.subject) || (check.expected !== undefined && MEASURED_TIME.test(check.expected));
}

/**
 * Where an absolute threshold on a measured duration (`elapsed <
 * 750`, `timer.ElapsedMilliseconds.ShouldBeLessThan(750)`) lives on when the
 * timing tests are merged into one relative comparison of two measurements
 * (`sequentialElapsed.ShouldBeGreaterThan(parallelElapsed)`): the usual fix
 * of a timing test that fails on a slow machine (MediatR #858). The before
 * check is an order check (greater or less, not negated) of a subject that
 * reads a duration ({@link MEASURED_TIME}) against a number; the cover is an
 * order check of a new or edited test of the same file (`file`) whose
 * subject and bound both read a duration and neither is a number. A threshold on anything else (a count,
 * a size) is no timing and finds no cover here.
 */
function findRelativeTimingCover(check: Check, file: string, pool: readonly CheckedTest[]): Cover | null {
  const isOrder = (candidate: Check): boolean => (candidate.relation === "greater" || candidate.relation === "less") && !candidate.isNegated;
  if (!isTimingThreshold(check)) return null;
  for (const candidate of pool) {
    if (candidate.file !== file) continue;
    const after = candidate.checks.find(
      (made) => isOrder(made) && made.expected !== undefined && !isNumberText(made.expected) && !isNumberText(made.subject) && MEASURED_TIME.test(made.subject) && MEASURED_TIME.test(made.expected),
    );
    if (after) return { check, by: candidate };
  }
  return null;
}

/** True when every literal of `row` is in `other` (as a multiset): the row survives in the other table. */
function isRowKept(row: readonly string[], other: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const literal of other) left.set(literal, (left.get(literal) ?? 0) + 1);
  return row.every((literal) => {
    const count = left.get(literal) ?? 0;
    left.set(literal, count - 1);
    return count > 0;
  });
}

/**
 * Where one row of a before table test's check lives on: an after table
 * test with the same check that keeps the row, or a check of literals that
 * the before check's names bind to from this row (the table unrolled into
 * plain tests, a `describe` per row). An after test whose rows are not
 * known (a loop over a name) keeps the row when its check is the same.
 */
function findRowCover(check: Check, row: readonly string[], pool: readonly CheckedTest[]): Cover | null {
  for (const candidate of pool) {
    for (const after of candidate.checks) {
      const exact = coverage(check, after, "none");
      if (exact && (candidate.rows === null || candidate.rows.some((cells) => isRowKept(row, cells)))) return { check, by: candidate, row };
      const bound = coverage(check, after, "before");
      if (bound && bound.size > 0 && isInRow(bound, row)) return { check, by: candidate, row };
    }
  }
  return null;
}

/**
 * Which checks of `before` live on in `pool` (after tests that are new or
 * whose body changed: a test kept byte for byte absorbed nothing), and,
 * when one of them reads a local value (`assert r == 2`: its subject has no
 * literal), which literals of its body none of the covering tests keeps
 * (messages left aside): the same check text fed other inputs is another
 * check. A table test's checks must live on for each of its rows (a row
 * lost is a check lost). A test with no checks conserves nothing: the
 * caller judges it by other means. A helper call lives on where its helper
 * was inlined ({@link findInlinedCover}) with the literals its arguments
 * selected, and the fields they set unless `removedNames` (the product
 * names the change removed) holds the field.
 */
export function conserve(before: CheckedTest, pool: readonly CheckedTest[], removedNames: ReadonlySet<string> = new Set()): Conservation {
  const covered: Cover[] = [];
  const missing: Check[] = [];
  for (const check of before.checks) {
    if (before.rows !== null && before.rows.length > 0) {
      const covers = before.rows.map((row) => findRowCover(check, row, pool));
      if (covers.every((cover) => cover !== null)) covered.push(...(covers as Cover[]));
      else if (covers.some((cover) => cover !== null)) {
        covered.push(...covers.filter((cover): cover is Cover => cover !== null));
        missing.push(check);
      } else missing.push(check);
      continue;
    }
    const inlined = before.helperCalls?.get(check);
    const cover =
      findCoverKeeping(check, pool, before.literals, keptLiterals(covered)) ??
      findLocalCover(check, before.test, pool) ??
      findRelativeTimingCover(check, before.file, pool) ??
      (inlined ? findInlinedCover(check, inlined.parts, [...inlined.armLiterals, ...inlined.sinks.filter((sink) => !removedNames.has(sink.key)).map((sink) => sink.literal)], pool) : null);
    if (cover) covered.push(cover);
    else missing.push(check);
  }
  const kept = keptLiterals(covered);
  // Inputs matter where a check reads a local value (`assert r == 2`): the test's inputs must still be fed where it lives on.
  const readsContext = covered.some((cover) => literalTokens(cover.check.subject).length === 0 && cover.row === undefined);
  const lostLiterals = !readsContext ? [] : [...before.literals].filter((literal) => !kept.has(literal) && !isMessageLiteral(literal));
  return { covered, missing, lostLiterals };
}

/** The literals the covering tests keep: their bodies', their rows' and the covering checks' own. */
function keptLiterals(covered: readonly Cover[]): Set<string> {
  const kept = new Set<string>();
  for (const cover of covered) {
    for (const literal of cover.by.literals) kept.add(literal);
    for (const literal of cover.row ?? []) kept.add(literal);
    for (const literal of literalTokens(`${cover.check.subject}(${cover.check.expected ?? ""})`)) kept.add(literal);
  }
  return kept;
}

/**
 * The cover of `check` (as {@link findCover}) whose test keeps the most
 * literals of the before test not yet kept by the other covers: a test
 * split into several whose checks read the same local value (`if err ==
 * nil { t.Error }` in each) has each check live on where its inputs went,
 * not all in the first piece. The first cover on a tie.
 */
function findCoverKeeping(check: Check, pool: readonly CheckedTest[], literals: ReadonlySet<string>, kept: ReadonlySet<string>): Cover | null {
  let best: Cover | null = null;
  let bestGain = -1;
  for (const candidate of pool) {
    const cover = findCover(check, [candidate]);
    if (!cover) continue;
    const keeps = keptLiterals([cover]);
    const gain = [...literals].filter((literal) => !kept.has(literal) && keeps.has(literal)).length;
    if (gain > bestGain) [best, bestGain] = [cover, gain];
  }
  return best;
}

/** A string that reads as a message for people (words with spaces, a format directive), not an input: `"1+1 failed"`, `"%d+%d"`. */
export function isMessageLiteral(literal: string): boolean {
  return literal.startsWith('"') && /\s|%[-+ #0-9.]*[a-zA-Z]|\{\w*\}/.test(literal);
}

/**
 * True when a check a surviving test lost is still made after the change:
 * by the same test (reworded, moved into a helper it calls, migrated to
 * another framework) or by a new or edited test that feeds the check's own
 * literals (split out of it); a cross-check of two computations also by the
 * same comparison over a variable input (checks/cross-checks.ts).
 */
export function isCheckConserved(check: Check, sameTest: CheckedTest, others: readonly CheckedTest[]): boolean {
  if (findCover(check, [sameTest])) return true;
  // Within its own test, a check of the set-up's object (`@io.gets`, `self.p.parse(…)`) is made again on a local of the same
  // name the test (or a helper it calls) builds (`io.gets`), as an edited test's paired checks may move from one to the other.
  const rooted = asLocalRooted(check);
  if (rooted !== check && findCover(rooted, [{ ...sameTest, checks: sameTest.checks.map(asLocalRooted) }])) return true;
  const cover = findCover(check, others);
  const needed = literalTokens(`${check.subject}(${check.expected ?? ""})`);
  if (!cover) {
    // A cross-check of two computations made again over a variable input (checks/cross-checks.ts), its literals kept.
    const crossCover = findCrossCheckCover(check, [sameTest, ...others]);
    const crossKept = new Set(crossCover === null ? [] : literalTokens(`${crossCover.subject}(${crossCover.expected ?? ""})`));
    return crossCover !== null && needed.every((literal) => crossKept.has(literal));
  }
  const kept = new Set([...cover.by.literals, ...(cover.row ?? []), ...literalTokens(`${cover.check.subject}(${cover.check.expected ?? ""})`)]);
  return needed.every((literal) => kept.has(literal)) || cover.row !== undefined;
}

/** A receiver that is the test's set-up state: Ruby `@x`, Python `self.x`, JS/Java/C# `this.x`, PHP `$this->x`. */
const MEMBER_ROOT = /^(?:@|self\.|this\.|\$this->)(?=[A-Za-z_]\w*(?:[.([]|$))/;

/** `check` with a set-up member at the root of its subject read as the local of that name (`@io.gets` -> `io.gets`); the check itself when none. */
function asLocalRooted(check: Check): Check {
  if (!MEMBER_ROOT.test(check.subject)) return check;
  return { ...check, subject: check.subject.replace(MEMBER_ROOT, "") };
}

/** An assertion as a person reads it in a message: `contains(s, "x")`, `throws(f(), ValueError)`. */
export function describeCheck(check: Check): string {
  const expected = check.relation === "throws" || check.relation === "warns" ? [check.errorType, check.message].filter(Boolean).join(", ") : check.expected;
  const args = [check.subject, expected].filter((part): part is string => part !== undefined && part !== "");
  return `${check.isNegated ? "not " : ""}${check.relation}(${args.join(", ")})`.slice(0, 160);
}

/**
 * Names a changed non-test file declared (FileFacts.code.declared: types,
 * functions, fields, constants) before the change that no changed file
 * declares after it: a field a helper set through its parameter that the
 * product dropped is a knob gone, not a mode a test stopped setting.
 * `pairs` are the changed files' facts on each side (null: absent).
 */
export function removedDeclarations(pairs: readonly { before: FileFacts | null; after: FileFacts | null }[]): Set<string> {
  const after = new Set<string>();
  for (const pair of pairs) for (const name of pair.after?.code?.declared ?? []) after.add(name);
  const removed = new Set<string>();
  for (const pair of pairs) {
    if (pair.before?.isTestFile !== false || pair.after === null || pair.after.isTestFile !== false) continue;
    for (const name of pair.before.code?.declared ?? []) if (!after.has(name)) removed.add(name);
  }
  return removed;
}
