/**
 * JavaScript and TypeScript: test cases, their flags and their assertions,
 * for Jest, Vitest, Mocha (+ chai), Jasmine, node:test, Playwright test,
 * Cypress and ava/tap-style `t.*` assertions.
 *
 * Extraction is one walk over the Babel AST with a stack of frames (the
 * file, then each suite and test being visited). A call is a test
 * declaration when its callee is a known test function with known modifiers
 * (`it`, `test.skip`, `describe.only.each(table)`, `test.describe.serial`,
 * `t.test` for node:test subtests) and its arguments look like
 * (title, [options], callback). Calls that skip at run time (`t.skip()`,
 * `this.skip()`, `pending()`, Playwright `test.skip(cond, reason)`) mark the
 * innermost frame; marks on a suite or the file reach every test inside.
 * `.each` tables are read where the file shows their rows: inline, or an
 * array literal bound to a name in an enclosing scope (`const CASES = [...]
 * as const`, spreads of other such names expanded); a table imported from
 * another module, a reassigned `let` or a computed table stays opaque.
 *
 * This module is cheap to import: the parser itself is loaded lazily by
 * parsers/babel.ts the first time a file is extracted.
 */

import { isMemoGuard } from "../checks/memo-guard.js";
import { canonicalText, negatedCondition } from "../checks/normalise.js";
import type * as t from "@babel/types";
import { debug } from "../../log.js";
import { branchConditions, findSkippingHelpers, isConditionalWithinFunction, type SkippingHelper } from "./javascript-skips.js";
import { withJavaScriptTryChecks } from "./javascript-try.js";
import { definedTest } from "../test-definers.js";
import {
  directCallTexts,
  emptyFacts,
  hashText,
  noFlags,
  settleFlags,
  type AssertionFact,
  type AssertionHelperFact,
  type FileFacts,
  type HelperTestFact,
  type ImportedHelperCall,
  type TestCase,
  type TestDefinerFact,
  type TestFlag,
  type TestFlags,
} from "../facts.js";
import { posix } from "node:path";
import { parseWithBabel } from "../parsers/babel.js";
import { javascriptShadows } from "./javascript-shadows.js";
import { settlementOf } from "./javascript-settlement.js";
import { sentinelFailure } from "./javascript-sentinels.js";
import { npmPackageOf } from "../dropped-dependencies.js";
import { ON_FAILURE_CONDITION } from "../checks/error-checks.js";
import { isNeverCheckingCall } from "../checks/index.js";
import { extractJavaScriptCodeFacts, isConstantExpression, literalValue, normalizedSource, WALK_SKIP_KEYS } from "./javascript-source.js";
import { isUnderTestDirectory, type LanguageModule } from "./language.js";
import { callsOutsideChecks, checkNamesOfTest, moduleBindings, suiteBindings, unconditionalRuns, type JsBindings } from "./javascript-dependencies.js";

const LANGUAGE_ID = "javascript";

/** `name.test.ts`, `name.spec.js`, `name.cy.ts` (Cypress), `name.e2e.ts`. */
const TEST_FILE_NAME = /\.(test|spec|cy|e2e)\.[cm]?[jt]sx?$/i;

/**
 * True when the path is a JS/TS test file by name or folder: `*.test.*`,
 * `*.spec.*`, `*.cy.*`, `*.e2e.*`, or anywhere under `test/`, `tests/`,
 * `__tests__/`, `spec/`, `e2e/`, `cypress/`.
 */
export function isJavaScriptTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return TEST_FILE_NAME.test(name) || isUnderTestDirectory(path);
}

/**
 * Facts of one JS/TS file. Tests are extracted when the path is a test path
 * or the file declares tests (in-source tests, oddly named files). Returns
 * facts with `parseError` when Babel cannot parse the file, and with
 * `notAnalyzed` if the extractor itself fails (logged with RALPH_DEBUG);
 * never throws for bad content.
 */
export async function extractJavaScriptFacts(path: string, content: string): Promise<FileFacts> {
  const isTestPath = isJavaScriptTestPath(path);
  const parsed = await parseWithBabel(path, content);
  if (!parsed.ok) return emptyFacts(LANGUAGE_ID, isTestPath, { parseError: parsed.error });
  try {
    const extracted = new TestExtractor(content, parsed.ast, path).run();
    const isTestFile = isTestPath || extracted.tests.length > 0;
    const shadows = javascriptShadows(parsed.ast, content);
    return {
      language: LANGUAGE_ID,
      isTestFile,
      tests: extracted.tests,
      assertions: extracted.assertions,
      frameworks: extracted.frameworks,
      recoveredErrorCount: parsed.recoveredErrorCount,
      code: extractJavaScriptCodeFacts(content, parsed.ast, isTestFile),
      ...(extracted.assertionHelpers.length > 0 ? { assertionHelpers: extracted.assertionHelpers } : {}),
      ...(extracted.testDefiners.length > 0 ? { testDefiners: extracted.testDefiners } : {}),
      ...(extracted.helperTests.length > 0 ? { helperTests: extracted.helperTests } : {}),
      ...(shadows.length > 0 ? { assertionShadows: shadows } : {}),
    };
  } catch (error) {
    // A stack overflow on pathological nesting, or a bug: report the file as not analysed, never crash the hook.
    const detail = error instanceof Error ? error.message : String(error);
    debug(() => `javascript extractor failed on ${path}: ${error instanceof Error ? error.stack : detail}`);
    return emptyFacts(LANGUAGE_ID, isTestPath, { notAnalyzed: `extractor failed: ${detail.split("\n")[0]}` });
  }
}

/** The JS/TS language module: `.js .jsx .mjs .cjs .ts .tsx .mts .cts`, parsed with @babel/parser. */
export const javascript = {
  id: "javascript" as const,
  extensions: [".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"],
  isTestPath: isJavaScriptTestPath,
  extract: extractJavaScriptFacts,
} satisfies LanguageModule;

// ---------------------------------------------------------------------------
// Vocabulary

type DeclarationKind = "suite" | "test";

/** Test functions by name: their kind and the flag the name itself sets (`xit` skips, `fit` focuses). */
const TEST_FUNCTIONS: ReadonlyMap<string, { kind: DeclarationKind; flag?: TestFlag }> = new Map([
  ["describe", { kind: "suite" }],
  ["context", { kind: "suite" }],
  ["suite", { kind: "suite" }],
  ["xdescribe", { kind: "suite", flag: "skipped" }],
  ["xcontext", { kind: "suite", flag: "skipped" }],
  ["xsuite", { kind: "suite", flag: "skipped" }],
  ["fdescribe", { kind: "suite", flag: "focused" }],
  ["fcontext", { kind: "suite", flag: "focused" }],
  ["test", { kind: "test" }],
  ["it", { kind: "test" }],
  ["specify", { kind: "test" }],
  ["xit", { kind: "test", flag: "skipped" }],
  ["xtest", { kind: "test", flag: "skipped" }],
  ["xspecify", { kind: "test", flag: "skipped" }],
  ["fit", { kind: "test", flag: "focused" }],
  ["ftest", { kind: "test", flag: "focused" }],
]);

/** Modifiers that set a flag when chained on a test function (`it.skip`, `test.fixme`, `test.fails`). */
const FLAG_MODIFIERS: ReadonlyMap<string, TestFlag> = new Map([
  ["skip", "skipped"],
  ["fixme", "skipped"],
  ["todo", "todo"],
  ["only", "focused"],
  ["fails", "failing"],
  ["failing", "failing"],
  ["fail", "failing"],
]);

/** Modifiers that change scheduling only. */
const NEUTRAL_MODIFIERS: ReadonlySet<string> = new Set(["concurrent", "sequential", "serial", "parallel", "shuffle"]);

/** Option keys of node:test / Vitest `test(name, options, fn)` that set a flag. */
const OPTION_FLAGS: ReadonlyMap<string, TestFlag> = new Map([
  ["skip", "skipped"],
  ["todo", "todo"],
  ["only", "focused"],
  ["fails", "failing"],
]);

/** Frameworks whose tests receive a context (`t`) that asserts: a helper's first parameter may be it. */
const CONTEXT_FRAMEWORKS: readonly string[] = ["ava", "tap", "node:test"];

/** Methods of a test context (`t`) that assert: ava, tap, node:test, uvu-style. */
const CONTEXT_ASSERTIONS: ReadonlySet<string> = new Set([
  "assert",
  "is",
  "not",
  "deepEqual",
  "notDeepEqual",
  "like",
  "true",
  "false",
  "truthy",
  "falsy",
  "throws",
  "throwsAsync",
  "notThrows",
  "notThrowsAsync",
  "regex",
  "notRegex",
  "snapshot",
  "fail",
  "plan",
  "equal",
  "equals",
  "notEqual",
  "strictEqual",
  "notStrictEqual",
  "deepStrictEqual",
  "notDeepStrictEqual",
  "ok",
  "notOk",
  "same",
  "notSame",
  "strictSame",
  "notStrictSame",
  "match",
  "notMatch",
  "type",
  "error",
  "rejects",
  "resolves",
  "resolveMatch",
  "has",
  "hasStrict",
  "matchSnapshot",
  "expect",
]);

/**
 * Type-level assertions, checked by the type checker (`vitest --typecheck`,
 * tsd, expect-type), whose type argument is the expected value: vitest
 * `assertType<T>(v)` and tsd `expectAssignable<T>(v)` (v assignable to T),
 * tsd `expectType<T>(v)` (v's type identical to T), and expectTypeOf's
 * `.toEqualTypeOf<T>()` (identical), `.toMatchTypeOf<T>()`, `.toExtend<T>()`,
 * `.toMatchObjectType<T>()` (assignable). Without a type argument the value is
 * checked against its own type, and anything is assignable to `any` or
 * `unknown`: such a check can never fail.
 */
const TYPE_ASSERTIONS: ReadonlyMap<string, "assignable" | "identical"> = new Map([
  ["assertType", "assignable"],
  ["expectAssignable", "assignable"],
  ["expectNotAssignable", "assignable"],
  ["expectType", "identical"],
  ["expectNotType", "identical"],
  ["toEqualTypeOf", "identical"],
  ["toMatchTypeOf", "assignable"],
  ["toExtend", "assignable"],
  ["toMatchObjectType", "assignable"],
]);

/** The first type argument of a call (`assertType<T>(v)`, `.toEqualTypeOf<T>()`), if it has one. */
function typeArgumentOf(call: t.Node): t.Node | undefined {
  const parameters = (call as { typeParameters?: t.TSTypeParameterInstantiation | null }).typeParameters;
  return parameters?.params[0];
}

/** True for the type every value is assignable to (`any`, `unknown`): an assignability check against it never fails. */
function isTopType(node: t.Node | undefined): boolean {
  return node?.type === "TSAnyKeyword" || node?.type === "TSUnknownKeyword";
}

/** Matchers (Jest/Vitest/Playwright/chai/jest-dom) that pin the exact value: strength 3. */
const EXACT_MATCHERS: ReadonlySet<string> = new Set([
  "toBe",
  "toEqual",
  "toStrictEqual",
  "toBeNull",
  "toBeUndefined",
  "toBeNaN",
  "toBeCloseTo",
  "toMatchSnapshot",
  "toMatchInlineSnapshot",
  "toThrowErrorMatchingSnapshot",
  "toThrowErrorMatchingInlineSnapshot",
  "toMatchFileSnapshot",
  "toHaveBeenCalledWith",
  "toHaveBeenLastCalledWith",
  "toHaveBeenNthCalledWith",
  "toHaveBeenCalledTimes",
  "toHaveBeenCalledOnce",
  "toHaveBeenCalledOnceWith",
  "toHaveReturnedWith",
  "toHaveLastReturnedWith",
  "toHaveNthReturnedWith",
  "toHaveReturnedTimes",
  "toBeCalledWith",
  "toBeCalledTimes",
  "lastCalledWith",
  "nthCalledWith",
  "toReturnWith",
  "toBeTrue",
  "toBeFalse",
  "toEqualTypeOf",
  "toHaveText",
  "toHaveValue",
  "toHaveURL",
  "toHaveTitle",
  "toHaveCount",
  "equal",
  "equals",
  "eq",
  "eql",
  "eqls",
  "true",
  "false",
  "null",
  "undefined",
  "NaN",
  // assert-style and test-context methods
  "strictEqual",
  "deepEqual",
  "deepStrictEqual",
  "is",
  "same",
  "strictSame",
  "isTrue",
  "isFalse",
  "isNull",
  "isUndefined",
  "isNaN",
  "snapshot",
  "matchSnapshot",
  "calledWith",
  "calledOnceWith",
  "calledWithExactly",
  "calledOnceWithExactly",
  "callCount",
  "fail",
]);

/** Matchers that only check truthiness or existence: strength 1. */
const WEAK_MATCHERS: ReadonlySet<string> = new Set([
  "toBeTruthy",
  "toBeFalsy",
  "toBeDefined",
  "toHaveBeenCalled",
  "toBeCalled",
  "toHaveReturned",
  "toReturn",
  "toBeInTheDocument",
  "toBeVisible",
  "toBeAttached",
  "ok",
  "exist",
  "exists",
  "assert",
  "truthy",
  "falsy",
  "isOk",
  "isNotOk",
  "notOk",
  "isDefined",
  "isNotNull",
  "isNotUndefined",
  "called",
  "calledOnce",
  "notThrows",
  "notThrowsAsync",
]);

/** Matchers whose strength depends on an argument: with one, partial (2); without, existence (1). */
const ARGUMENT_MATCHERS: ReadonlySet<string> = new Set(["toThrow", "toThrowError", "throw", "throws", "throwsAsync", "rejects", "rejectsWith", "toHaveProperty", "property"]);

/** chai language chains: words that read well and check nothing. */
const CHAI_WORDS: ReadonlySet<string> = new Set([
  "to",
  "be",
  "been",
  "is",
  "that",
  "which",
  "and",
  "has",
  "have",
  "with",
  "at",
  "of",
  "same",
  "but",
  "does",
  "still",
  "also",
  "deep",
  "nested",
  "own",
  "ordered",
  "any",
  "all",
  "itself",
  "an",
  "a",
]);

/** uvu/assert functions that take a `.not` (uvu's README, "API: assert"): `is.not(a, b)` is the negated `is`. */
const UVU_NEGATABLE: ReadonlySet<string> = new Set(["is", "equal", "ok", "type", "instance", "match", "snapshot", "fixture", "throws"]);

/** Assertion-looking text inside a comment (a commented-out `expect(...)`/`assert...`). */
const COMMENTED_ASSERTION = /\b(?:expect|assert)(?:\.\w+)?\s*\(|\.should\b|\bt\.(?:is|deepEqual|true|false|equal|ok)\s*\(/;

/**
 * Strength of a matcher (facts.ts AssertionFact): 3 exact, 2 partial, 1
 * existence; `.not` makes any check weak (1). `argumentCount` decides
 * `toThrow()` (1) vs `toThrow(RangeError)` (2) and `toHaveProperty(k)` vs `(k, v)`.
 */
export function matcherStrength(matcher: string, argumentCount: number, isNegated: boolean): 1 | 2 | 3 {
  const strength = EXACT_MATCHERS.has(matcher)
    ? 3
    : WEAK_MATCHERS.has(matcher)
      ? 1
      : ARGUMENT_MATCHERS.has(matcher)
        ? matcher === "toHaveProperty" || matcher === "property"
          ? argumentCount >= 2
            ? 2
            : 1
          : argumentCount >= (matcher.startsWith("throws") || matcher === "rejects" ? 2 : 1)
            ? 2
            : 1
        : 2;
  return isNegated ? 1 : strength;
}

/**
 * True when `source`, imported by the file at `path`, is a product module:
 * a relative import that resolves outside the test folders and is no test
 * file by name (isJavaScriptTestPath). A library's own `assert` API
 * (`import {assert} from "../source/index.js"`) is then code under test,
 * not a framework; a test helper module (`./helpers/expect.js` beside a
 * test under `test/`) is not product code. False when `path` is unknown.
 */
function isProductModule(path: string, source: string): boolean {
  if (path === "" || !/^\.\.?(?:\/|$)/.test(source)) return false;
  const resolved = posix.normalize(posix.join(posix.dirname(path), source));
  return !resolved.startsWith("..") && !isJavaScriptTestPath(resolved === "." ? "index.js" : resolved);
}

/**
 * The methods of node:assert (nodejs.org/api/assert.html) and chai's
 * `assert` (chaijs.com/api/assert): a product module's `assert` called so
 * re-exports one of them, and asserts; any other method (`assert.string(x)`
 * of sindresorhus/is) is the product's own API.
 */
const FRAMEWORK_ASSERT_METHODS: ReadonlySet<string> = new Set([
  "ok",
  "equal",
  "notEqual",
  "strictEqual",
  "notStrictEqual",
  "deepEqual",
  "notDeepEqual",
  "deepStrictEqual",
  "notDeepStrictEqual",
  "partialDeepStrictEqual",
  "throws",
  "doesNotThrow",
  "rejects",
  "doesNotReject",
  "match",
  "doesNotMatch",
  "fail",
  "ifError",
  "isOk",
  "isNotOk",
  "isTrue",
  "isFalse",
  "isNull",
  "isNotNull",
  "isUndefined",
  "isDefined",
  "exists",
  "notExists",
  "isAbove",
  "isAtLeast",
  "isBelow",
  "isAtMost",
  "isNaN",
  "isFunction",
  "isObject",
  "isArray",
  "isString",
  "isNumber",
  "isBoolean",
  "typeOf",
  "instanceOf",
  "include",
  "notInclude",
  "deepInclude",
  "property",
  "deepProperty",
  "propertyVal",
  "lengthOf",
  "isEmpty",
  "isNotEmpty",
  "sameMembers",
  "sameDeepMembers",
  "includeMembers",
  "oneOf",
  "closeTo",
  "approximately",
  "hasAllKeys",
  "hasAnyKeys",
  "containsAllKeys",
  "notMatch",
]);

/** Modules whose every import is an assertion function. */
const ASSERT_MODULES: ReadonlySet<string> = new Set(["assert", "node:assert", "assert/strict", "node:assert/strict", "power-assert", "uvu/assert"]);

/** Import source -> framework name recorded in facts. */
const FRAMEWORK_MODULES: ReadonlyMap<string, string> = new Map([
  ["vitest", "vitest"],
  ["@jest/globals", "jest"],
  ["mocha", "mocha"],
  ["chai", "chai"],
  ["node:test", "node:test"],
  ["@playwright/test", "playwright"],
  ["cypress", "cypress"],
  ["ava", "ava"],
  ["tap", "tap"],
  ["bun:test", "bun"],
  ["jasmine", "jasmine"],
  ["uvu", "uvu"],
]);

/** AST keys dropped before hashing a body: positions and comments, so formatting does not change the hash. */
export const HASH_SKIP_KEYS: ReadonlySet<string> = new Set(["loc", "start", "end", "range", "extra", "leadingComments", "trailingComments", "innerComments"]);

// ---------------------------------------------------------------------------
// Walk state

interface FlagMark {
  via: string;
  reason?: string;
  /** For a conditional skip, its condition's source (TestCase.skipCondition). */
  condition?: string;
}

/** A scope the walk is inside: the file, a suite, or a test. */
interface Frame {
  kind: "file" | DeclarationKind;
  title: string;
  parent: Frame | null;
  marks: Partial<Record<TestFlag, FlagMark>>;
  /** Name of the test context parameter (`t` in `test("x", (t) => …)`). */
  contextName: string | null;
  /** Local names bound to a destructured `skip` (`({ skip }) => skip()`). */
  skipNames: Set<string>;
  draft: TestDraft | null;
  /** For a `describe.each` suite: one short hash per row of its table (null when not literal); every test inside runs once per row. */
  eachRowHashes?: string[] | null;
  /** For a `describe.each` suite with a literal table: the literals of each row (TestCase.eachRowLiterals). */
  eachRowLiterals?: string[][];
  /** The function the declaration runs: a suite's callback, whose set-up its tests' checks read (javascript-dependencies.ts suiteBindings), and where a call directly in it is at the suite's level. */
  callback?: t.Node | null;
}

/** A call that may define a test through a project function (facts.ts HelperTestFact), as its draft records it. */
type HelperRef = Omit<HelperTestFact, "test">;

interface TestDraft {
  name: string;
  suitePath: string[];
  line: number;
  frame: Frame;
  assertionCount: number;
  bodyHash: string;
  eachRows?: number | null;
  eachRowHashes?: string[];
  /**
   * Calls by plain name in its body, in walk order: those of local helpers that assert become assertions (run).
   * `actual`, when set, is the call as the helper receives it: an ava macro passed as the implementation
   * (`test("x", macro, 1, 2)`) is called as `macro(t, 1, 2)`.
   */
  calls: { name: string; node: t.CallExpression; start: number; actual?: string }[];
  /** Its calls of imported functions that may assert (TestCase.importedHelperCalls). */
  importedHelperCalls: ImportedHelperCall[];
  /** Literals of each row of its table (or of its one enclosing `describe.each` suite), for the conservation of checks. */
  eachRowLiterals?: string[][];
  /** The cells of each row of its own table named by the callback's parameters (TestCase.eachRowElements). */
  eachRowElements?: string[][];
  assertions: { fact: AssertionFact; start: number }[];
  /** The test's function, whose `try` statements may hold exception checks written by hand (javascript-try.ts). */
  callback: t.Node | null;
  /** For an ava macro test (`test(title, macro, …data)`): the macro's name and the data passed to it. */
  macro?: { name: string; args: t.Node[] };
  inputLiterals: string[];
  expectedLiterals: string[];
  references: Set<string>;
  commentedAssertions: number;
  /** Offset after the first `return` that is not the body's last statement: assertions past it never run. */
  unreachableFrom: number | null;
  /** Set for a call of a project function that may define this test (see {@link TestExtractor.helperTestOf}). */
  helper?: HelperRef;
  /** Set for the declaration inside a function that defines tests with it (see {@link TestExtractor.definerOf}): a template, no test. */
  definer?: Omit<TestDefinerFact, "flagVia">;
}

/** One link of a callee chain: `test.skipIf(x).each(t)` is test, skipIf(x), each(t). */
interface Segment {
  name: string;
  args?: t.Node[];
  quasi?: t.TemplateLiteral;
}

interface Declaration {
  kind: DeclarationKind;
  marks: Partial<Record<TestFlag, FlagMark>>;
  each: EachTable | null;
  calleeText: string;
  /** An alias that is a function returning the test function (`describeIf(cond)(title, fn)`). */
  isFactory?: boolean;
}

interface DeclarationArgs {
  title: string;
  callback: t.Node | null;
  options: t.ObjectExpression | null;
}

interface ExtractedTests {
  tests: TestCase[];
  assertions: number;
  frameworks: string[];
  /** Top-level functions holding assertions outside tests (FileFacts.assertionHelpers). */
  assertionHelpers: AssertionHelperFact[];
  /** Top-level functions that declare a test running their argument (FileFacts.testDefiners). */
  testDefiners: TestDefinerFact[];
  /** Calls of imported functions that may define tests (FileFacts.helperTests); those of the file's own definers are in `tests`. */
  helperTests: HelperTestFact[];
}

const FLAG_NAMES: readonly TestFlag[] = ["skipped", "conditional", "focused", "todo", "failing"];

function isNode(value: unknown): value is t.Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** True for ava's `test.macro(fn)` / `test.macro({ exec, title })` (any `<name>.macro(…)` with a function or an object argument). */
function isMacroCall(node: t.CallExpression): boolean {
  const callee = node.callee;
  if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier" || callee.property.name !== "macro") return false;
  const arg = node.arguments[0];
  return isFunctionNode(arg) || arg?.type === "ObjectExpression";
}

/**
 * True when `outer` returns `inner` as a value: its expression body or a
 * return statement of its body is `inner`, or an ava macro built of it
 * (`test.macro(inner)`, `test.macro({exec: inner})`): a factory of helpers.
 */
function returnsFunction(outer: t.Node, inner: t.Node): boolean {
  const isInner = (value: t.Node | null | undefined): boolean => {
    if (!value) return false;
    if (value === inner) return true;
    if (value.type !== "CallExpression" || !isMacroCall(value)) return false;
    const arg = value.arguments[0];
    if (arg === inner) return true;
    return arg?.type === "ObjectExpression" && arg.properties.some((property) => property === inner || (property.type === "ObjectProperty" && property.value === inner));
  };
  if (!("body" in outer)) return false;
  const body = outer.body as t.Node;
  if (body.type !== "BlockStatement") return isInner(body);
  return (body as t.BlockStatement).body.some((statement) => statement.type === "ReturnStatement" && isInner(statement.argument));
}

function isFunctionNode(node: t.Node | null | undefined): node is t.ArrowFunctionExpression | t.FunctionExpression {
  return node?.type === "ArrowFunctionExpression" || node?.type === "FunctionExpression";
}

function isTitleLike(node: t.Node | undefined): boolean {
  return node?.type === "StringLiteral" || node?.type === "TemplateLiteral" || (node?.type === "BinaryExpression" && node.operator === "+");
}

/** `true`, a non-zero number, a non-empty string: a condition that always holds. */
function isTruthyLiteral(node: t.Node): boolean {
  return (node.type === "BooleanLiteral" && node.value) || (node.type === "NumericLiteral" && node.value !== 0) || (node.type === "StringLiteral" && node.value !== "");
}

function isFalsyLiteral(node: t.Node): boolean {
  return (
    (node.type === "BooleanLiteral" && !node.value) ||
    (node.type === "NumericLiteral" && node.value === 0) ||
    (node.type === "StringLiteral" && node.value === "") ||
    node.type === "NullLiteral" ||
    (node.type === "Identifier" && node.name === "undefined")
  );
}

function propertyName(node: t.Node, computed: boolean): string | null {
  if (!computed && node.type === "Identifier") return node.name;
  if (node.type === "StringLiteral") return node.value;
  if (node.type === "PrivateName") return `#${node.id.name}`;
  return null;
}

/**
 * The callee as a chain of named segments, or null when it is not a plain
 * chain (computed members, calls on calls, anything rooted in an expression).
 */
function flattenCallee(node: t.Node, depth = 0): Segment[] | null {
  if (depth > 12) return null;
  switch (node.type) {
    case "Identifier":
      return [{ name: node.name }];
    case "ThisExpression":
      return [{ name: "this" }];
    case "MemberExpression": {
      const name = propertyName(node.property, node.computed);
      const head = name === null ? null : flattenCallee(node.object, depth + 1);
      return head && name !== null ? [...head, { name }] : null;
    }
    case "CallExpression": {
      const head = flattenCallee(node.callee, depth + 1);
      const last = head?.[head.length - 1];
      if (!head || !last || last.args || last.quasi) return null;
      last.args = node.arguments as t.Node[];
      return head;
    }
    case "TaggedTemplateExpression": {
      const head = flattenCallee(node.tag, depth + 1);
      const last = head?.[head.length - 1];
      if (!head || !last || last.args || last.quasi) return null;
      last.quasi = node.quasi;
      return head;
    }
    case "TSNonNullExpression":
    case "TSAsExpression":
    case "TSSatisfiesExpression":
    case "ParenthesizedExpression":
      return flattenCallee(node.expression, depth + 1);
    default:
      return null;
  }
}

/** A member chain split into its root expression and property names, root-first. */
function flattenMember(node: t.MemberExpression | t.OptionalMemberExpression): { root: t.Node; props: string[] } {
  const props: string[] = [];
  let current: t.Node = node;
  while (current.type === "MemberExpression" || current.type === "OptionalMemberExpression") {
    props.unshift(propertyName(current.property, current.computed) ?? "[]");
    current = current.object;
  }
  return { root: current, props };
}

/** True when `node` is the object of a member access (`expect(x).toBe`, `expect(x).to`). */
function isMemberObject(node: t.Node, parent: t.Node | null): boolean {
  return (parent?.type === "MemberExpression" || parent?.type === "OptionalMemberExpression") && parent.object === node;
}

/** True when a Cypress chain below `node` contains a `.should(...)` call (`….should(a).and(b)`). */
function hasShouldCallBelow(node: t.Node): boolean {
  let current: t.Node = node;
  for (let depth = 0; depth < 50; depth++) {
    if (current.type === "CallExpression") {
      const callee = current.callee;
      if (callee.type === "MemberExpression" && propertyName(callee.property, callee.computed) === "should") return true;
      current = callee;
    } else if (current.type === "MemberExpression") {
      current = current.object;
    } else {
      return false;
    }
  }
  return false;
}

/** One `.each`/`.for` table as read from the source: its rows (null when not literal) and the JSON its hash is taken from. */
interface EachTable {
  rows: (t.Node | null)[][] | null;
  /** Canonical JSON of the table: of its elements when they were read, so an inline table and the same rows in a `const` hash alike. */
  hashSource: string;
}

/** `x as const`, `x satisfies T`, `<T>x`, `x!` and `(x)` unwrapped to `x`. */
function unwrapExpression(node: t.Node): t.Node {
  let current = node;
  for (let depth = 0; depth < 10; depth++) {
    if (
      current.type === "TSAsExpression" ||
      current.type === "TSSatisfiesExpression" ||
      current.type === "TSTypeAssertion" ||
      current.type === "TSNonNullExpression" ||
      current.type === "ParenthesizedExpression"
    ) {
      current = current.expression;
    } else {
      break;
    }
  }
  return current;
}

/** Rows of a tagged-template table (`it.each\`a | b ${1} | ${2}\``): its cells grouped by the header's column count; null without a header. */
function templateTableRows(table: t.TemplateLiteral): t.Node[][] | null {
  const header = table.quasis[0]?.value.raw ?? "";
  const columns = header
    .split("|")
    .map((cell) => cell.trim())
    .filter((cell) => cell !== "").length;
  if (columns === 0) return null;
  const rows: t.Node[][] = [];
  for (let i = 0; i + columns <= table.expressions.length; i += columns) rows.push(table.expressions.slice(i, i + columns));
  return rows;
}

/** True when the binding pattern (`x`, `{ a, b: [x] }`, `...x`, `x = 1`) declares `name`. */
function bindsName(pattern: t.Node | null | undefined, name: string): boolean {
  if (!pattern) return false;
  switch (pattern.type) {
    case "Identifier":
      return pattern.name === name;
    case "ObjectPattern":
      return pattern.properties.some((property) => bindsName(property.type === "RestElement" ? property : property.value, name));
    case "ArrayPattern":
      return pattern.elements.some((element) => bindsName(element, name));
    case "AssignmentPattern":
      return bindsName(pattern.left, name);
    case "RestElement":
      return bindsName(pattern.argument, name);
    case "TSParameterProperty":
      return bindsName(pattern.parameter, name);
    default:
      return false;
  }
}

/** Array methods (and `length`) that change an array in place: a table changed with them has rows its literal does not show. */
const MUTATING_ARRAY_MEMBERS: ReadonlySet<string> = new Set(["push", "unshift", "splice", "pop", "shift", "fill", "copyWithin", "length"]);

/** Most rows a table of tables (`describe.each` around `it.each`) is expanded to for row hashes; past it only the count is kept. */
const MAX_ROW_COMBINATIONS = 10_000;

/** Canonical JSON of a subtree with positions and comments ({@link HASH_SKIP_KEYS}) removed; "" for null. The text body hashes are taken of. */
export function canonicalJson(node: t.Node | null): string {
  if (!node) return "";
  return canonicalValue(node) ?? "";
}

/**
 * `JSON.stringify(value, replacer)` with the replacer dropping
 * {@link HASH_SKIP_KEYS}, written out: the same text (so hashes do not move),
 * about four times faster on Babel ASTs, because a replacer function makes
 * V8 leave its fast serializer. Returns undefined where JSON.stringify would
 * omit the value (undefined, functions, symbols).
 */
function canonicalValue(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    case "bigint":
      return JSON.stringify(value); // throws, as JSON.stringify does
    default:
      return undefined;
  }
  if (value === null) return "null";
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return JSON.stringify(value, (key, v: unknown) => (HASH_SKIP_KEYS.has(key) ? undefined : v));
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ",";
      out += canonicalValue(value[i]) ?? "null";
    }
    return out + "]";
  }
  let out = "{";
  let first = true;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (HASH_SKIP_KEYS.has(key)) continue;
    const text = canonicalValue(record[key]);
    if (text === undefined) continue;
    out += (first ? "" : ",") + JSON.stringify(key) + ":" + text;
    first = false;
  }
  return out + "}";
}

/** The literal values (literalValue form) of each table row, cells in order, nested arrays and objects included. */
function rowLiteralsOf(rows: (t.Node | null)[][]): string[][] {
  const collect = (node: unknown, out: string[]): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const item of node) collect(item, out);
      return;
    }
    const record = node as Record<string, unknown>;
    if (typeof record.type !== "string") return;
    const literal = literalValue(node as t.Node);
    if (literal !== null) {
      out.push(literal);
      return;
    }
    for (const key of Object.keys(record)) if (!HASH_SKIP_KEYS.has(key) && key !== "key") collect(record[key], out);
    if (record.type === "ObjectProperty" && record.computed === true) collect(record.key, out);
  };
  return rows.map((row) => {
    const out: string[] = [];
    for (const cell of row) collect(cell, out);
    return out;
  });
}

/**
 * The cells of each row named by the test callback's parameters, `name: <normalised source of the cell>`
 * (`[["1.5", 1.5]]` with `(s, want) =>` gives `s: "1.5"`, `want: 1.5`; an
 * object row `{ s: "1.5" }` gives its properties), or undefined when a row
 * does not line up with plain parameter names.
 */
function rowElementsOf(rows: (t.Node | null)[][], callback: t.Node | null, content: string): string[][] | undefined {
  if (!callback || (callback.type !== "ArrowFunctionExpression" && callback.type !== "FunctionExpression")) return undefined;
  const names = callback.params.map((param) => (param.type === "Identifier" ? param.name : null));
  const isPattern = callback.params.length === 1 && callback.params[0]?.type === "ObjectPattern";
  const elements: string[][] = [];
  for (const row of rows) {
    const only = row.length === 1 ? row[0] : null;
    if (isPattern && only?.type === "ObjectExpression") {
      const properties = only.properties.map((property) =>
        property.type === "ObjectProperty" && !property.computed && (property.key.type === "Identifier" || property.key.type === "StringLiteral")
          ? `${property.key.type === "Identifier" ? property.key.name : property.key.value}: ${normalizedSource(content, property.value, 1000)}`
          : null,
      );
      if (properties.some((property) => property === null)) return undefined;
      elements.push(properties as string[]);
      continue;
    }
    // An array row is spread into the parameters (jest, vitest): `[["1.5", 1.5]]` with `(s, want)`.
    const cells: (t.Node | null)[] = only?.type === "ArrayExpression" ? only.elements.map((element) => (element === null || element.type === "SpreadElement" ? null : element)) : row;
    if (cells.length !== names.length || names.some((name) => name === null) || cells.some((cell) => cell === null)) return undefined;
    elements.push(cells.map((cell, index) => `${names[index] as string}: ${normalizedSource(content, cell as t.Node, 1000)}`));
  }
  return elements;
}

/** One short hash (12 hex) per table row, or null for a table that is not literal. */
function rowHashesOf(rows: (t.Node | null)[][] | null): string[] | null {
  return rows === null ? null : rows.map((row) => hashText(row.map((cell) => canonicalJson(cell)).join("\n")).slice(0, 12));
}

// ---------------------------------------------------------------------------
// The extractor

/** One pass over one file's AST, collecting tests, assertions and frameworks. */
class TestExtractor {
  private readonly content: string;
  private readonly ast: t.File;
  private readonly fileFrame: Frame;
  private readonly stack: Frame[];
  private readonly drafts: TestDraft[] = [];
  private readonly frameworks = new Set<string>();
  private readonly expectNames = new Set<string>(["expect"]);
  private readonly assertNames = new Set<string>(["assert"]);
  private readonly shouldNames = new Set<string>(["should"]);
  /** Names bound to a product module's `assert` (imported as `assert`, or bound to the name `assert`): assertions only when called as a framework's assert is. */
  private readonly productAssertNames = new Set<string>();
  private readonly statementOfCall = new Map<t.Node, t.Node>();
  private readonly commentsByEndLine = new Map<number, t.Comment[]>();
  private readonly commentsByStartLine = new Map<number, t.Comment[]>();
  /** The nodes being visited, outermost first (for reading a whole `expect(...).not.toBe(...)` chain). */
  private readonly ancestors: t.Node[] = [];
  /** Expected-value arguments of recorded assertions: literals under them are expectations, not inputs. */
  private readonly expectedNodes = new Set<t.Node>();
  /** Local names bound by imports of non-framework modules (the code under test). */
  private readonly importLocals = new Set<string>();
  /** Per local name bound by a named import of a non-framework module: the module and the name it exports. */
  private readonly importedBindings = new Map<string, { source: string; imported: string }>();
  /** Top-level names bound to a call of a function (`const verifyFlags = _verifyFlags(import.meta)`): the function called, whose macro it is. */
  private readonly macroFactories = new Map<string, string>();
  private expectedDepth = 0;
  private assertions = 0;
  /** Assertions outside tests, by the top-level function holding them. */
  private readonly helperAssertions = new Map<string, number>();
  /** Per top-level helper: its parameters and its assertions (FileFacts.assertionHelpers). */
  private readonly helperDetails = new Map<string, { params: string[]; facts: AssertionFact[] }>();
  /** Whether each early-return `if` is a memoisation guard (isMemoGuardOf), read once per guard. */
  private readonly memoGuards = new WeakMap<t.IfStatement, boolean>();
  /** Per top-level function: its parameters and the plain calls it makes outside tests (a helper calling a helper). */
  private readonly helperCalls = new Map<string, { params: string[]; callees: Set<string> }>();
  /** Top-level functions that skip the test calling them (javascript-skips.ts). */
  private skippingHelpers: ReadonlyMap<string, SkippingHelper> = new Map();
  /** Names bound to a test or suite function with its modifiers (`const describeOrSkip = describe.skip`). */
  private readonly declarationAliases = new Map<string, Declaration>();
  /** Calls of the file's functions by top-level functions, with the caller's parameters each argument passes on (see {@link TestExtractor.noteForwarder}). */
  private forwarders: { name: string; line: number; callee: string; args: number[]; empty: number[] }[] = [];
  /** Names changed after their declaration (see {@link TestExtractor.mutatedNames}); computed on first use. */
  private mutated: Set<string> | null = null;
  /** Names of the file's top-level functions (`function f`, `const f = () => …`), exported or not. */
  private readonly localFunctions = new Set<string>();
  /** Depth of discarded ava attempts (`t.try` whose result is discarded) around the walk's position. */
  private discardedDepth = 0;
  /** The contexts of the ava attempts around the walk's position (`tt` in `t.try((tt) => …)`), innermost last. */
  private readonly attemptContexts: string[] = [];

  /** The file's repository path ("" when unknown): a relative import resolves against it. */
  private readonly path: string;

  constructor(content: string, ast: t.File, path = "") {
    this.content = content;
    this.path = path;
    this.ast = ast;
    this.fileFrame = { kind: "file", title: "", parent: null, marks: {}, contextName: null, skipNames: new Set(), draft: null };
    this.stack = [this.fileFrame];
    for (const comment of ast.comments ?? []) {
      if (!comment.loc) continue;
      pushTo(this.commentsByEndLine, comment.loc.end.line, comment);
      pushTo(this.commentsByStartLine, comment.loc.start.line, comment);
    }
  }

  run(): ExtractedTests {
    this.noteImports(this.ast.program);
    this.skippingHelpers = findSkippingHelpers(this.ast.program);
    this.noteDeclarationAliases(this.ast.program);
    this.noteLocalFunctions(this.ast.program);
    this.visit(this.ast.program, null);
    this.inheritHelperChecks();
    // A call of a local helper that asserts is one assertion of the test (resolved into the helper's checks by analysis/checks).
    const isGated = (name: string): boolean => {
      const facts = this.helperDetails.get(name)?.facts ?? [];
      return facts.length > 0 && facts.every((one) => one.gated === true);
    };
    for (const draft of this.drafts) {
      // A call of an assertion-named helper (`expectOrder(a, b)`) counted as an assertion itself is gated when the helper's assertions are.
      for (const { fact } of draft.assertions) if (this.helperDetails.has(fact.matcher) && isGated(fact.matcher)) fact.gated = true;
      let isAdded = false;
      for (const call of draft.calls) {
        const macroTarget = call.actual !== undefined && !this.helperDetails.has(call.name) ? this.macroFactories.get(call.name) : undefined;
        const name = macroTarget ?? call.name;
        const helper = this.helperDetails.get(name);
        if (!helper) {
          this.noteImportedHelperCall(draft, call, name);
          continue;
        }
        const strength = Math.max(1, ...helper.facts.map((fact) => fact.strength)) as 1 | 2 | 3;
        // A helper named like a custom assertion (`expectRgb(…)`) was counted as one: it is the helper call instead.
        const asCustom = draft.assertions.findIndex((assertion) => assertion.start === call.start);
        if (asCustom !== -1) draft.assertions.splice(asCustom, 1);
        else draft.assertionCount++;
        const fact: AssertionFact = {
          line: call.node.loc?.start.line ?? 0,
          matcher: `helper ${name}`,
          strength,
          tautology: false,
          actual: call.actual ?? normalizedSource(this.content, call.node),
        };
        // Every assertion of the helper past an early-return guard: a call of it may check nothing.
        if (isGated(name)) fact.gated = true;
        // Every assertion of the helper can never fail the test (a discarded ava attempt), or none runs for this call's data
        // (`{input: ''}` of a macro checking only `if (error)` and `if (expected)`): nor can the call.
        if (helper.facts.length > 0 && isNeverCheckingCall(fact.actual ?? "", { name, params: helper.params, assertionsDetail: helper.facts, absentIsUndefined: true })) fact.unreachable = true;
        draft.assertions.push({ fact, start: call.start });
        isAdded = true;
      }
      if (isAdded) draft.assertions.sort((a, b) => a.start - b.start);
    }
    const { tests, testDefiners, helperTests } = this.finishTests();
    return {
      tests,
      testDefiners,
      helperTests,
      assertions: this.assertions,
      frameworks: [...this.frameworks].sort(),
      assertionHelpers: [...this.helperAssertions]
        .map(([name, assertions]) => {
          const details = this.helperDetails.get(name);
          // JavaScript: a parameter given no argument, or a property an object literal leaves out, is undefined.
          return details ? { name, assertions, params: details.params, assertionsDetail: details.facts, absentIsUndefined: true } : { name, assertions };
        })
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /**
   * The drafts as tests, the file's test definers, and the calls of
   * imported functions that may define tests (FileFacts.helperTests). A
   * definer's own declaration is a template, no test; a call of one of the
   * file's definers is the test it defines; a call of a local function that
   * defines none is no test, and the run-time skips its body held (a
   * `test.skip()` at the suite's level) go back to the frame around it.
   */
  private finishTests(): { tests: TestCase[]; testDefiners: TestDefinerFact[]; helperTests: HelperTestFact[] } {
    const testDefiners: TestDefinerFact[] = [];
    for (const draft of this.drafts) {
      if (!draft.definer) continue;
      const flagVia: Partial<Record<TestFlag, string>> = {};
      for (const flag of FLAG_NAMES) {
        const mark = draft.frame.marks[flag];
        if (mark) flagVia[flag] = mark.via;
      }
      testDefiners.push(Object.keys(flagVia).length > 0 ? { ...draft.definer, flagVia } : { ...draft.definer });
    }
    // A function passing its own title and body parameters on to a definer is one too, with the definer's title; one
    // passing an empty list where the definer declares a test per element declares none.
    for (let isGrown = true; isGrown;) {
      isGrown = false;
      for (const forwarder of this.forwarders) {
        if (testDefiners.some((definer) => definer.name === forwarder.name)) continue;
        const target = testDefiners.find((definer) => definer.name === forwarder.callee && typeof definer.bodyParam === "number");
        if (!target) continue;
        const titleParam = forwarder.args[target.titleParam] ?? -1;
        const bodyParam = forwarder.args[target.bodyParam as number] ?? -1;
        if (titleParam === -1 || bodyParam === -1 || titleParam === bodyParam) continue;
        if (target.eachParam !== undefined && forwarder.empty.includes(target.eachParam)) continue;
        const forwarded: TestDefinerFact = { name: forwarder.name, line: forwarder.line, titleParam, bodyParam, title: target.title };
        if (target.flagVia) forwarded.flagVia = target.flagVia;
        const eachParam = target.eachParam === undefined ? -1 : (forwarder.args[target.eachParam] ?? -1);
        if (eachParam !== -1) forwarded.eachParam = eachParam;
        testDefiners.push(forwarded);
        isGrown = true;
      }
    }
    for (const draft of this.drafts) {
      const helper = draft.helper;
      if (!helper || helper.source !== undefined || testDefiners.some((definer) => definer.name === helper.helper)) continue;
      const parent = draft.frame.parent;
      for (const flag of FLAG_NAMES) {
        const mark = draft.frame.marks[flag];
        if (mark && parent && !parent.marks[flag]) parent.marks[flag] = mark;
      }
    }
    const tests: TestCase[] = [];
    const helperTests: HelperTestFact[] = [];
    for (const draft of this.drafts) {
      if (draft.definer) continue;
      const test = this.finishTest(draft);
      const helper = draft.helper;
      if (!helper) tests.push(test);
      else if (helper.source !== undefined) helperTests.push({ ...helper, test });
      else
        for (const definer of testDefiners) {
          const defined = definedTest({ ...helper, test }, definer);
          if (defined) tests.push(defined);
        }
    }
    return { tests, testDefiners, helperTests };
  }

  /** Records the names of the file's top-level functions (declarations and `const f = () => …`, exported or not). */
  private noteLocalFunctions(program: t.Program): void {
    for (const outer of program.body) {
      const statement = outer.type === "ExportNamedDeclaration" || outer.type === "ExportDefaultDeclaration" ? outer.declaration : outer;
      if (statement?.type === "FunctionDeclaration" && statement.id) this.localFunctions.add(statement.id.name);
      if (statement?.type !== "VariableDeclaration") continue;
      for (const declarator of statement.declarations) {
        if (declarator.id.type === "Identifier" && declarator.init && isFunctionNode(unwrapExpression(declarator.init))) this.localFunctions.add(declarator.id.name);
      }
    }
  }

  /**
   * The top-level function enclosing the walk's position: `function f`,
   * `const f = () => …` / `function () …`, exported or not; null elsewhere.
   */
  /**
   * Records a test's call of a function imported from another module that
   * may assert (TestCase.importedHelperCalls): an ava macro passed as the
   * implementation (imported, or built by an imported factory), or a call
   * of an imported function given the test's context (`check(t, 1, 2)`).
   * analysis/imported-helpers.ts resolves it once that module's facts are known.
   */
  private noteImportedHelperCall(draft: TestDraft, call: TestDraft["calls"][number], name: string): void {
    const binding = this.importedBindings.get(name);
    if (!binding) return;
    const first = call.node.arguments[0];
    const isMacro = call.actual !== undefined;
    if (!isMacro && !(first?.type === "Identifier" && draft.frame.contextName === first.name)) return;
    const source = call.actual ?? normalizedSource(this.content, call.node, 1000);
    const actual = `${binding.imported}${source.slice(source.indexOf("("))}`;
    draft.importedHelperCalls.push({ source: binding.source, name: binding.imported, actual, line: call.node.loc?.start.line ?? 0 });
  }

  /** A call by plain name inside a test (`check(1, 2)`): kept so a call of a helper that asserts counts as the test's assertion (see run). */
  private noteHelperCall(node: t.CallExpression): void {
    if (node.callee.type !== "Identifier") return;
    const draft = this.innermostTest();
    if (draft) {
      draft.calls.push({ name: node.callee.name, node, start: node.start ?? 0 });
      return;
    }
    const caller = this.enclosingTopLevelFunction();
    if (caller === null || caller === node.callee.name) return;
    const record = this.helperCalls.get(caller) ?? { params: this.enclosingTopLevelParams(), callees: new Set<string>() };
    record.callees.add(node.callee.name);
    this.helperCalls.set(caller, record);
  }

  /**
   * A helper that calls a helper which asserts checks what that one checks:
   * each top-level function's checks become its own plus those of the local
   * helpers it calls, at any depth (each helper counted once per caller, so
   * recursion and cycles end). A test's assertion moved from a helper into a
   * helper's helper is then still the test's.
   */
  private inheritHelperChecks(): void {
    const reachable = (name: string): AssertionFact[] => {
      const facts: AssertionFact[] = [];
      const seen = new Set<string>([name]);
      const queue = [name];
      while (queue.length > 0) {
        const current = queue.shift() as string;
        facts.push(...(this.helperDetails.get(current)?.facts ?? []));
        for (const callee of this.helperCalls.get(current)?.callees ?? []) {
          if (seen.has(callee)) continue;
          seen.add(callee);
          queue.push(callee);
        }
      }
      return facts;
    };
    const inherited = new Map<string, { params: string[]; facts: AssertionFact[] }>();
    for (const [name, { params }] of this.helperCalls) {
      const facts = reachable(name);
      const own = this.helperDetails.get(name);
      if (facts.length > (own?.facts.length ?? 0)) inherited.set(name, { params: own?.params ?? params, facts: facts.map((fact) => ({ ...fact })) });
    }
    for (const [name, details] of inherited) {
      this.helperDetails.set(name, details);
      this.helperAssertions.set(name, details.facts.length);
    }
  }

  /**
   * Parameter names of the helper enclosing the walk's position (see
   * enclosingTopLevelFunction); patterns as written. The helper's function
   * is the outermost function around the position, or, when that one
   * returns a function (a factory: `const _verify = (base) =>
   * test.macro(async (t, {input, expected}) => …)`, `(label) => (t, x) =>
   * …`), the function it returns, as deep as the position goes: the one a
   * test calls with its data. A callback inside it (an ava attempt `t.try(tt
   * => …)`, a loop's) is no helper of its own: its parameters are not the
   * helper's.
   */
  private enclosingTopLevelParams(): string[] {
    const isFunction = (node: t.Node): boolean => node.type === "FunctionDeclaration" || node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression" || node.type === "ObjectMethod";
    const functions = this.ancestors.filter(isFunction);
    let fn = functions[0];
    for (const inner of functions.slice(1)) {
      if (!fn || !returnsFunction(fn, inner)) break;
      fn = inner;
    }
    if (!fn || !("params" in fn)) return [];
    return (fn.params as t.Node[]).map((param) =>
      param.type === "Identifier" ? param.name : param.type === "AssignmentPattern" && param.left.type === "Identifier" ? param.left.name : normalizedSource(this.content, param),
    );
  }

  /** True when `node` follows an early-return guard (`if (x) return;`) among the top-level statements of its innermost function's body. */
  private isPastEarlyReturnGuard(node: t.Node): boolean {
    const fn = [...this.ancestors].reverse().find((ancestor) => ancestor.type === "FunctionDeclaration" || ancestor.type === "ArrowFunctionExpression" || ancestor.type === "FunctionExpression");
    if (!fn || !("body" in fn) || (fn.body as t.Node).type !== "BlockStatement") return false;
    const start = node.start ?? 0;
    return (fn.body as t.BlockStatement).body.some((statement) => {
      if (statement.type !== "IfStatement" || (statement.end ?? Infinity) > start) return false;
      const branch = statement.consequent;
      const only = branch.type === "BlockStatement" && branch.body.length === 1 ? branch.body[0] : branch;
      // `if (cache !== null) return cache;` before code that fills `cache`: the assertions below ran on the first call.
      if (only?.type === "ReturnStatement" && only.argument && statement.alternate == null && this.isMemoGuardOf(statement, only.argument, fn)) return false;
      return branch.type === "ReturnStatement" || (branch.type === "BlockStatement" && branch.body.some((inner) => inner.type === "ReturnStatement"));
    });
  }

  /** True when `guard` returning `returned` is a memoisation guard of `fn` (checks/memo-guard.ts); read once per guard. */
  private isMemoGuardOf(guard: t.IfStatement, returned: t.Node, fn: t.Node): boolean {
    const known = this.memoGuards.get(guard);
    if (known !== undefined) return known;
    const isMemo =
      guard.test.start != null &&
      guard.test.end != null &&
      returned.start != null &&
      returned.end != null &&
      guard.end != null &&
      fn.end != null &&
      isMemoGuard(this.content.slice(guard.test.start, guard.test.end), this.content.slice(returned.start, returned.end), this.content.slice(guard.end, fn.end));
    this.memoGuards.set(guard, isMemo);
    return isMemo;
  }

  private enclosingTopLevelFunction(): string | null {
    const a = this.ancestors;
    const p = a.findIndex((node) => node.type === "Program");
    if (p < 0) return null;
    let i = p + 1;
    if (a[i]?.type === "ExportNamedDeclaration" || a[i]?.type === "ExportDefaultDeclaration") i++;
    const top = a[i];
    if (top?.type === "FunctionDeclaration") return top.id?.name ?? null;
    if (top?.type === "VariableDeclaration") {
      const declarator = a[i + 1];
      const init = a[i + 2];
      if (
        declarator?.type === "VariableDeclarator" &&
        declarator.id.type === "Identifier" &&
        (init?.type === "ArrowFunctionExpression" || init?.type === "FunctionExpression") &&
        declarator.init === init
      ) {
        return declarator.id.name;
      }
      // An ava macro: `const macro = test.macro((t, …) => …)` or `test.macro({ exec(t, …) {…}, title })`.
      if (declarator?.type === "VariableDeclarator" && declarator.id.type === "Identifier" && init?.type === "CallExpression" && declarator.init === init && isMacroCall(init)) {
        return declarator.id.name;
      }
    }
    return null;
  }

  // --- imports: assertion aliases and frameworks

  private noteImports(program: t.Program): void {
    for (const statement of program.body) {
      if (statement.type === "ImportDeclaration") {
        const source = statement.source.value;
        this.noteFramework(source);
        for (const spec of statement.specifiers) {
          const imported = spec.type === "ImportSpecifier" ? (spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value) : null;
          this.noteBinding(source, imported, spec.local.name);
        }
      } else if (statement.type === "VariableDeclaration") {
        for (const declarator of statement.declarations) {
          this.noteRequire(declarator);
          const init = declarator.init;
          if (declarator.id.type === "Identifier" && init?.type === "CallExpression" && init.callee.type === "Identifier" && init.callee.name !== "require") {
            this.macroFactories.set(declarator.id.name, init.callee.name);
          }
        }
      }
    }
  }

  private noteRequire(declarator: t.VariableDeclarator): void {
    const init = declarator.init;
    if (init?.type !== "CallExpression" || init.callee.type !== "Identifier" || init.callee.name !== "require") return;
    const source = init.arguments[0];
    if (source?.type !== "StringLiteral") return;
    this.noteFramework(source.value);
    if (declarator.id.type === "Identifier") {
      this.noteBinding(source.value, null, declarator.id.name);
    } else if (declarator.id.type === "ObjectPattern") {
      for (const property of declarator.id.properties) {
        if (property.type !== "ObjectProperty" || property.value.type !== "Identifier") continue;
        this.noteBinding(source.value, propertyName(property.key, property.computed), property.value.name);
      }
    }
  }

  /** `imported` is the exported name, or null for default/namespace/whole-module bindings. */
  private noteBinding(source: string, imported: string | null, local: string): void {
    if (!FRAMEWORK_MODULES.has(source) && !ASSERT_MODULES.has(source)) {
      this.importLocals.add(local);
      if (imported !== null && imported !== "default") this.importedBindings.set(local, { source, imported });
    }
    // A product module's `assert` is the code under test (`import is, {assert} from "../source/index.js"`: `assert.string(x)`),
    // unless it is called as node:assert or chai's assert is (the product re-exporting one): see isAssertionCall. An `expect`
    // keeps its chain shape (`expect(x).toBe(y)`) wherever it comes from.
    if (isProductModule(this.path, source) && imported !== "expect") {
      this.assertNames.delete(local);
      this.shouldNames.delete(local);
      if (imported === "assert" || local === "assert") this.productAssertNames.add(local);
      return;
    }
    if (ASSERT_MODULES.has(source)) {
      if (imported === null || /^[a-z]/.test(imported)) this.assertNames.add(local);
      return;
    }
    if (imported === "expect") this.expectNames.add(local);
    else if (imported === "assert") this.assertNames.add(local);
    else if (imported === "should") this.shouldNames.add(local);
  }

  private noteFramework(source: string): void {
    const framework = FRAMEWORK_MODULES.get(source) ?? FRAMEWORK_MODULES.get(npmPackageOf(source) ?? source);
    if (framework) this.frameworks.add(framework);
  }

  // --- the walk

  private visit(node: t.Node, parent: t.Node | null): void {
    const isExpected = this.expectedNodes.has(node);
    if (isExpected) this.expectedDepth++;
    try {
      this.visitNode(node, parent);
    } finally {
      if (isExpected) this.expectedDepth--;
    }
  }

  private visitNode(node: t.Node, parent: t.Node | null): void {
    switch (node.type) {
      case "StringLiteral":
      case "NumericLiteral":
      case "TemplateLiteral":
      case "BigIntLiteral":
        this.noteLiteral(node);
        break;
      case "Identifier": {
        const draft = this.innermostTest();
        if (draft && this.importLocals.has(node.name)) draft.references.add(node.name);
        break;
      }
      case "CallExpression":
        this.visitCall(node, parent);
        return;
      case "ExpressionStatement": {
        const expression = node.expression.type === "AwaitExpression" ? node.expression.argument : node.expression;
        this.statementOfCall.set(expression, node);
        break;
      }
      case "MemberExpression":
        // chai: `x.should.equal(1)`, `x.should.be.true`
        if (propertyName(node.property, node.computed) === "should" && isMemberObject(node, parent)) this.countAssertion(node);
        break;
      case "VariableDeclarator":
        this.noteRequire(node);
        break;
    }
    this.visitChildren(node);
  }

  private visitChildren(node: t.Node): void {
    const record = node as unknown as Record<string, unknown>;
    this.ancestors.push(node);
    try {
      for (const key of Object.keys(record)) {
        if (WALK_SKIP_KEYS.has(key)) continue;
        const value = record[key];
        if (Array.isArray(value)) {
          for (const child of value) if (isNode(child)) this.visit(child, node);
        } else if (isNode(value)) {
          this.visit(value, node);
        }
      }
    } finally {
      this.ancestors.pop();
    }
  }

  /** A literal inside a test body: an expected value when under an assertion's expected argument, else an input. */
  private noteLiteral(node: t.Node): void {
    const draft = this.innermostTest();
    const parent = this.ancestors[this.ancestors.length - 1];
    // `BigInt(1)` feeds the literal `1n`.
    const value = draft ? ((parent?.type === "CallExpression" ? literalValue(parent) : null) ?? literalValue(node)) : null;
    if (!draft || value === null) return;
    // `await import("../src/x.js")`, `require("./y")`: module paths, not inputs
    if (parent?.type === "ImportExpression") return;
    // `delays[0]`, `result["limit"]`: which element or field of a value the test reads, not an input it feeds the code
    if ((parent?.type === "MemberExpression" || parent?.type === "OptionalMemberExpression") && parent.computed && parent.property === node) return;
    if (parent?.type === "CallExpression" && (parent.callee.type === "Import" || (parent.callee.type === "Identifier" && parent.callee.name === "require"))) return;
    // `vi.spyOn(process, "exit")`, `mock.method(fs, "readFile")`, `vi.mock("./db")`: what a double replaces, not an input
    if (
      parent?.type === "CallExpression" &&
      parent.callee.type === "MemberExpression" &&
      !parent.callee.computed &&
      parent.callee.property.type === "Identifier" &&
      /^(spyOn|method|getter|setter|mock|doMock|unmock|stub|replace)$/.test(parent.callee.property.name) &&
      parent.callee.object.type === "Identifier" &&
      /^(vi|jest|mock|sinon|td|t)$/.test(parent.callee.object.name)
    )
      return;
    if (this.expectedDepth > 0) draft.expectedLiterals.push(value);
    else draft.inputLiterals.push(value);
  }

  private visitCall(node: t.CallExpression, parent: t.Node | null): void {
    const callee = unwrapExpression(node.callee);
    if (callee.type === "ConditionalExpression") {
      const declaration = this.classifyConditional(callee);
      const args = declaration ? this.readDeclarationArgs(node, declaration) : null;
      if (declaration && args) {
        this.visitDeclaration(node, declaration, args);
        return;
      }
    }
    const chain = flattenCallee(node.callee);
    if (chain) {
      if (chain[0]?.name === "cy") this.frameworks.add("cypress");
      const declaration = this.classifyDeclaration(chain);
      const args = declaration ? this.readDeclarationArgs(node, declaration) : null;
      if (declaration && args) {
        this.visitDeclaration(node, declaration, args);
        return;
      }
      this.applyRuntimeMark(chain, node);
      this.applyHelperSkip(node);
      const helperTest = chain.length === 1 && !this.isAssertionCall(node, parent) ? this.helperTestOf(node) : null;
      if (helperTest) {
        this.visitDeclaration(node, { kind: "test", marks: {}, each: null, calleeText: helperTest.ref.helper }, helperTest.args, helperTest.ref);
        return;
      }
      if (chain.length === 1) this.noteForwarder(node);
    }
    // `expect.unreachable("…")`, `fail("…")`: the message is the failure's own text (javascript-try.ts counts the failure where it is a check).
    if (chain && /^(?:expect\.(?:unreachable|fail)|fail)$/.test(chain.map((segment) => segment.name).join("."))) for (const arg of node.arguments) this.expectedNodes.add(arg);
    if (this.isAssertionCall(node, parent)) {
      this.countAssertion(node);
      // `expectRgb(hex, r, g, b)` reads as a custom assertion; when it is a local helper that asserts, run() reads it as the helper's checks.
      if (node.callee.type === "Identifier" && !this.expectNames.has(node.callee.name) && !this.assertNames.has(node.callee.name)) this.noteHelperCall(node);
    } else this.noteHelperCall(node);
    const attempt = this.attemptOf(node);
    const isDiscarded = attempt !== null && this.isDiscardedAttempt(node, parent);
    if (isDiscarded) this.discardedDepth++;
    if (attempt !== null) this.attemptContexts.push(attempt);
    try {
      this.visitChildren(node);
    } finally {
      if (isDiscarded) this.discardedDepth--;
      if (attempt !== null) this.attemptContexts.pop();
    }
  }

  /**
   * For an ava attempt `t.try((tt) => { … })` (`t` a test context, or a
   * helper's, or an enclosing attempt's): the name of the attempt's own
   * context (`tt`), through which its assertions are made; null otherwise.
   */
  private attemptOf(node: t.CallExpression): string | null {
    const callee = node.callee;
    if (callee.type !== "MemberExpression" || callee.object.type !== "Identifier" || propertyName(callee.property, callee.computed) !== "try") return null;
    const context = callee.object.name;
    if (!this.frameWithContext(context) && !this.isHelperContext(context) && !this.attemptContexts.includes(context)) return null;
    const callback = node.arguments.find((arg) => isFunctionNode(arg));
    const param = callback && isFunctionNode(callback) ? callback.params[0] : undefined;
    return param?.type === "Identifier" ? param.name : null;
  }

  /**
   * True for an ava attempt (`const attempt = await t.try(tt => { … })`)
   * whose result is discarded somewhere in its function (`attempt.discard()`,
   * also `if (!attempt.passed) attempt.discard()`): the failures of the
   * assertions inside it may never reach the test, so they check nothing.
   * An attempt committed (or left to fail the test for want of a commit)
   * keeps its assertions.
   */
  private isDiscardedAttempt(node: t.CallExpression, parent: t.Node | null): boolean {
    // `(await t.try(…)).discard()`: discarded on the spot.
    const outer = parent?.type === "AwaitExpression" ? this.ancestors[this.ancestors.length - 2] : parent;
    if (outer?.type === "MemberExpression" && propertyName(outer.property, outer.computed) === "discard") return true;
    const declarator = this.ancestors.findLast((ancestor) => ancestor.type === "VariableDeclarator");
    const name =
      declarator?.type === "VariableDeclarator" &&
      declarator.id.type === "Identifier" &&
      (declarator.init === node || (declarator.init?.type === "AwaitExpression" && declarator.init.argument === node))
        ? declarator.id.name
        : null;
    if (name === null) return false;
    const fn = this.ancestors.findLast((ancestor) => isFunctionNode(ancestor) || ancestor.type === "FunctionDeclaration" || ancestor.type === "ObjectMethod");
    if (!fn) return false;
    const stack: t.Node[] = [fn];
    while (stack.length > 0) {
      const current = stack.pop() as t.Node;
      if (
        current.type === "CallExpression" &&
        current.callee.type === "MemberExpression" &&
        current.callee.object.type === "Identifier" &&
        current.callee.object.name === name &&
        propertyName(current.callee.property, current.callee.computed) === "discard"
      )
        return true;
      const record = current as unknown as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (WALK_SKIP_KEYS.has(key)) continue;
        const value = record[key];
        if (Array.isArray(value)) {
          for (const child of value) if (isNode(child)) stack.push(child);
        } else if (isNode(value)) stack.push(value);
      }
    }
    return false;
  }

  private countAssertion(node: t.Node): void {
    this.assertions++;
    const draft = this.innermostTest();
    if (!draft) {
      const helper = this.enclosingTopLevelFunction();
      if (helper !== null) {
        this.helperAssertions.set(helper, (this.helperAssertions.get(helper) ?? 0) + 1);
        const details = this.helperDetails.get(helper) ?? { params: this.enclosingTopLevelParams(), facts: [] };
        const fact = this.withConditions(this.describeBoundAssertion(node), node, null);
        if (this.discardedDepth > 0) fact.unreachable = true;
        if (this.isPastEarlyReturnGuard(node)) fact.gated = true;
        details.facts.push(fact);
        this.helperDetails.set(helper, details);
      }
      return;
    }
    draft.assertionCount++;
    const fact = this.withConditions(this.describeBoundAssertion(node), node, draft.callback ?? null);
    // An assertion of a discarded ava attempt can never fail the test (see isDiscardedAttempt).
    if (this.discardedDepth > 0) fact.unreachable = true;
    // An async assertion nobody awaits, or one in a callback after an early done(), cannot fail the test; one in a
    // rejection handler checks only when the call rejects (javascript-settlement.ts).
    const settlement = node.type === "CallExpression" ? settlementOf(node, this.ancestors, draft.callback ?? null, this.content) : "settles";
    if (settlement === "after-end") fact.unreachable = true;
    else if (settlement === "on-rejection") fact.conditions = [...(fact.conditions ?? []), ON_FAILURE_CONDITION];
    draft.assertions.push({ fact, start: node.start ?? 0 });
  }

  /** `fact` with the conditions of the branches holding `node` inside `stop` (AssertionFact.conditions), when there are any. */
  private withConditions(fact: AssertionFact, node: t.Node, stop: t.Node | null): AssertionFact {
    const conditions = branchConditions(this.ancestors, node, stop, (condition) => canonicalText(this.content.slice(condition.start ?? 0, condition.end ?? 0)), negatedCondition);
    if (conditions.length > 0) fact.conditions = conditions;
    return fact;
  }

  /**
   * The fact of one assertion with the expression its local subject was
   * bound to (AssertionFact.actualValue): `const [r, g] = f(x); expect(r)`
   * -> `f(x)[0]`, `const { a } = f(x)` -> `f(x).a`, `const v = f(x)` ->
   * `f(x)`, read from the (at most 8) statements before it in its block.
   */
  private describeBoundAssertion(node: t.Node): AssertionFact {
    const fact = this.describeAssertion(node);
    // A check that a flag the test's callbacks set is still unset is the failure those callbacks once made (javascript-sentinels.ts).
    const sentinel = node.type === "CallExpression" ? sentinelFailure(fact, node, this.innermostTest()?.callback ?? null, this.content) : null;
    if (sentinel) return sentinel;
    if (fact.actual !== undefined && /^[A-Za-z_$][\w$]*$/.test(fact.actual)) {
      const value = this.boundLocalValue(fact.actual);
      if (value !== undefined && value !== fact.actual) fact.actualValue = value;
    }
    return fact;
  }

  /**
   * See {@link describeBoundAssertion}: the declarations of `name` before the
   * walk's position in the innermost block that has one, looking out from
   * the innermost block through the blocks holding it (an assertion in an
   * `if` reads the local its test bound above the `if`) up to the enclosing
   * function.
   */
  private boundLocalValue(name: string): string | undefined {
    const a = this.ancestors;
    for (let i = a.length - 1; i > 0; i--) {
      const block = a[i - 1] as t.Node;
      if (isFunctionNode(block)) return undefined;
      if (block.type !== "BlockStatement") continue;
      const index = block.body.indexOf(a[i] as t.Statement);
      if (index === -1) continue;
      for (let j = index - 1; j >= Math.max(0, index - 8); j--) {
        const previous = block.body[j];
        if (previous?.type !== "VariableDeclaration") continue;
        for (const declarator of previous.declarations) {
          if (!declarator.init) continue;
          const init = normalizedSource(this.content, declarator.init);
          const id = declarator.id;
          if (id.type === "Identifier" && id.name === name) return init;
          if (id.type === "ArrayPattern") {
            const k = id.elements.findIndex((element) => element?.type === "Identifier" && element.name === name);
            if (k !== -1) return `${init}[${k}]`;
          }
          if (id.type === "ObjectPattern") {
            for (const property of id.properties) {
              if (property.type === "ObjectProperty" && !property.computed && property.key.type === "Identifier" && property.value.type === "Identifier" && property.value.name === name)
                return `${init}.${property.key.name}`;
            }
          }
        }
      }
      // Declared in this block but not bound to a value read here (a `let` without initialiser, a parameter): no value.
      if (block.body.some((statement) => statement.type === "VariableDeclaration" && statement.declarations.some((declarator) => declaresName(declarator.id, name)))) return undefined;
    }
    return undefined;
  }

  // --- assertion details

  /**
   * The language-neutral fact of one counted assertion: `node` is the
   * `expect(x)` call at the root of a chain, an `assert*`/`t.*` call, or a
   * chai `.should` member.
   */
  private describeAssertion(node: t.Node): AssertionFact {
    const line = node.loc?.start.line ?? 0;
    if (node.type !== "CallExpression") return { line, matcher: "should", strength: 2, tautology: false };
    const callee = node.callee;
    const member = callee.type === "MemberExpression" ? flattenMember(callee) : null;
    const isExpectRoot =
      (callee.type === "Identifier" && (this.expectNames.has(callee.name) || callee.name === "expectTypeOf")) ||
      (member !== null && member.root.type === "Identifier" && this.expectNames.has(member.root.name) && member.props.length === 1 && (member.props[0] === "soft" || member.props[0] === "poll"));
    if (isExpectRoot) return this.describeExpectChain(node, line);
    return this.describeAssertCall(node, line);
  }

  /** `expect(actual)[.not][.resolves|.rejects].matcher(expected)`, chai `expect(x).to.deep.equal(y)`. */
  private describeExpectChain(call: t.CallExpression, line: number): AssertionFact {
    const names: string[] = [];
    let matcherIndex = -1;
    let matcherArgs: t.Node[] = [];
    let matcherCall: t.Node | null = null;
    let current: t.Node = call;
    for (let i = this.ancestors.length - 1; i >= 0; i--) {
      const ancestor = this.ancestors[i] as t.Node;
      if ((ancestor.type === "MemberExpression" || ancestor.type === "OptionalMemberExpression") && ancestor.object === current) {
        names.push(propertyName(ancestor.property, ancestor.computed) ?? "[]");
      } else if ((ancestor.type === "CallExpression" || ancestor.type === "OptionalCallExpression") && ancestor.callee === current) {
        matcherIndex = names.length - 1;
        matcherArgs = ancestor.arguments as t.Node[];
        matcherCall = ancestor;
      } else {
        break;
      }
      current = ancestor;
    }
    const isNegated = names.includes("not");
    const meaningful = names.filter((name, index) => index === matcherIndex || (!CHAI_WORDS.has(name) && name !== "not"));
    const matcherName = matcherIndex >= 0 ? (names[matcherIndex] as string) : (meaningful[meaningful.length - 1] ?? "expect");
    const modifiers = meaningful.filter((name) => name === "resolves" || name === "rejects");
    const matcher = [...modifiers, ...(isNegated ? ["not"] : []), matcherName].join(".");
    const typeCheck = TYPE_ASSERTIONS.get(matcherName);
    // expectTypeOf<A>() / expectTypeOf(v) with .toEqualTypeOf<T>(): the subject's and the expected types are type arguments.
    const actualNode = (call.arguments[0] as t.Node | undefined) ?? (typeCheck ? typeArgumentOf(call) : undefined);
    const expectedType = typeCheck && matcherCall ? typeArgumentOf(matcherCall) : undefined;
    const expectedNode = matcherArgs[0] ?? expectedType;
    for (const arg of matcherArgs) this.expectedNodes.add(arg);
    if (expectedType) this.expectedNodes.add(expectedType);
    const fact = this.assertionFact(line, matcher, matcherStrength(matcherName, matcherArgs.length, isNegated), isNegated, actualNode, expectedNode, expectedNode === undefined);
    if (typeCheck === "assignable" && !isNegated && matcherArgs.length === 0 && isTopType(expectedType)) Object.assign(fact, { tautology: true, strength: 0 });
    // toBeCloseTo(x, digits): the digits are its tolerance (checks/tolerance.ts).
    if (matcherName === "toBeCloseTo" && matcherArgs[1] !== undefined) fact.tolerance = normalizedSource(this.content, matcherArgs[1]);
    return fact;
  }

  /** `assert(x)`, `assert.equal(a, b)`, `t.is(a, b)`, `sinon.assert.calledWith(…)`, `assertValid(x)`, supertest `.expect(…)`. */
  private describeAssertCall(call: t.CallExpression, line: number): AssertionFact {
    const callee = call.callee;
    if (callee.type === "MemberExpression") {
      const { root, props } = flattenMember(callee);
      if (isSupertestExpect(root, props)) return this.describeSupertestExpect(call, line);
    }
    if (callee.type === "Identifier" && TYPE_ASSERTIONS.has(callee.name)) return this.describeTypeAssertion(call, callee.name, line);
    const props = callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression" ? flattenMember(callee).props : [];
    const root = callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression" ? flattenMember(callee).root : callee;
    const rootText = root.type === "Identifier" ? root.name : "";
    const matcher = props.length > 0 ? `${rootText}.${props.join(".")}` : (props[props.length - 1] ?? (callee.type === "Identifier" ? callee.name : "assert"));
    // uvu negates with a `.not` segment (uvu/assert: `is.not(a, b)`, `assert.not.equal(a, b)`, `assert.not.ok(x)`): the
    // assertion it negates is the segment beside it, or the imported function it is called on (`is.not`).
    const uvuNegated = props.includes("not") && (props.length >= 2 || UVU_NEGATABLE.has(rootText));
    const last = uvuNegated ? (props.filter((prop) => prop !== "not").pop() ?? rootText) : (props[props.length - 1] ?? (callee.type === "Identifier" ? callee.name : "assert"));
    const args = call.arguments as t.Node[];
    const isNegated = uvuNegated || (/^not[A-Z]/.test(last) && last !== "notThrows" && last !== "notThrowsAsync");
    const isTwoSided =
      EXACT_MATCHERS.has(last) ||
      /^(not)?(Equal|DeepEqual|StrictEqual|DeepStrictEqual|Same|StrictSame|Like|Match|Regex|Include|Has)$/i.test(last.replace(/^not/, "")) ||
      ["like", "match", "regex", "include", "has", "hasStrict", "notEqual"].includes(last);
    const actualNode = args[0];
    // node:assert's second argument may be a validation function (`assert.throws(fn, (err) => …)`): what it checks of the error is read as its type and message (checks/normalise.ts validationParts).
    const isErrorCheck = /^(throws|rejects|throwsAsync|rejectsAsync)$/.test(last) && args[1] !== undefined && (!isFunctionNode(args[1]) || (args[1] as t.Function).params.length <= 1);
    const expectedNode = isErrorCheck
      ? args[1]
      : isTwoSided &&
          ![
            "isTrue",
            "isFalse",
            "isNull",
            "isUndefined",
            "isNaN",
            "true",
            "false",
            "snapshot",
            "matchSnapshot",
            "fail",
            "callCount",
            "calledWith",
            "calledOnceWith",
            "calledWithExactly",
            "calledOnceWithExactly",
          ].includes(last)
        ? args[1]
        : undefined;
    if (expectedNode) this.expectedNodes.add(expectedNode);
    const baseName = last === rootText && props.length === 0 ? "assert" : last;
    const strength = /^(assert|expect)[A-Z0-9_$]/.test(baseName) ? 2 : matcherStrength(baseName, args.length, isNegated);
    // `t.fail()` fails by itself; `t.plan(n)` (ava, tap, node:test) and jest's `expect.assertions(n)` / `expect.hasAssertions()` fail the test
    // unless that many assertions run: none is a tautology.
    const canFail = baseName === "fail" || baseName === "plan" || baseName === "assertions" || baseName === "hasAssertions";
    // A failure's message is the assertion's own text, not an input of the code under test.
    if (baseName === "fail") for (const arg of args) this.expectedNodes.add(arg);
    const fact = this.assertionFact(line, matcher, strength, isNegated, actualNode, expectedNode, expectedNode === undefined && !canFail, canFail);
    // A validation function's text whole, however long: what it checks is read from it.
    if (isErrorCheck && expectedNode && isFunctionNode(expectedNode)) fact.expected = normalizedSource(this.content, expectedNode, 2000);
    return fact;
  }

  /**
   * A type-level assertion called by name (TYPE_ASSERTIONS: `assertType<T>(v)`,
   * tsd `expectType<T>(v)`): the value under test and its expected type, the
   * type argument. A positive check with no type argument, or one of
   * assignability to `any`/`unknown`, can never fail.
   */
  private describeTypeAssertion(call: t.CallExpression, name: string, line: number): AssertionFact {
    const expected = typeArgumentOf(call);
    const isNegated = /^expectNot/.test(name);
    if (expected) this.expectedNodes.add(expected);
    const strength = TYPE_ASSERTIONS.get(name) === "identical" ? 3 : 2;
    const fact = this.assertionFact(line, name, strength, isNegated, call.arguments[0] as t.Node | undefined, expected, false, true);
    if (!isNegated && (expected === undefined || (TYPE_ASSERTIONS.get(name) === "assignable" && isTopType(expected)))) Object.assign(fact, { tautology: true, strength: 0 });
    return fact;
  }

  /**
   * supertest: `.expect(200)`, `.expect("Content-Type", /json/)`, `.expect(body)`,
   * `.expect((res) => …)`. The value under test is the response (or the
   * named header); a literal pins it exactly, a function or pattern partly.
   */
  private describeSupertestExpect(call: t.CallExpression, line: number): AssertionFact {
    const args = (call.arguments as t.Node[]).filter((arg) => !isFunctionNode(arg) || call.arguments.length === 1);
    const [first, second] = args;
    const isHeader = second !== undefined && !isFunctionNode(second) && first?.type === "StringLiteral";
    const expected = isHeader ? second : first;
    const actual = isHeader ? first : undefined;
    if (expected && !isFunctionNode(expected)) this.expectedNodes.add(expected);
    const isExact = expected !== undefined && literalValue(expected) !== null;
    return this.assertionFact(line, "expect", isExact ? 3 : 2, false, actual, expected && !isFunctionNode(expected) ? expected : undefined, false, true);
  }

  /**
   * The fact, with normalised actual/expected and the tautology verdict. An
   * assertion can never fail when it checks a constant against nothing or
   * against the same constant (`expect(true).toBe(true)`, `assert(1)`,
   * `expect(1).toEqual(1)`), or a value against itself (`expect(x).toBe(x)`).
   */
  private assertionFact(
    line: number,
    matcher: string,
    strength: AssertionFact["strength"],
    isNegated: boolean,
    actual: t.Node | undefined,
    expected: t.Node | undefined,
    hasNoExpected: boolean,
    canFail = false,
  ): AssertionFact {
    const fact: AssertionFact = { line, matcher, strength, tautology: false };
    if (actual) fact.actual = normalizedSource(this.content, actual);
    if (expected) fact.expected = normalizedSource(this.content, expected);
    if (actual && !canFail) {
      fact.tautology = expected
        ? fact.actual === fact.expected && (isConstantExpression(actual) || !(fact.actual ?? "").includes("("))
        : hasNoExpected && isConstantExpression(actual) && literalValue(actual) !== "false" && literalValue(actual) !== "null";
    }
    if (isNegated) fact.negated = true;
    if (fact.tautology) fact.strength = 0;
    return fact;
  }

  private innermostTest(): TestDraft | null {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const frame = this.stack[i] as Frame;
      if (frame.kind === "test") return frame.draft;
    }
    return null;
  }

  private top(): Frame {
    return this.stack[this.stack.length - 1] as Frame;
  }

  /**
   * True when `name` is the test context a helper outside any test receives:
   * the first parameter of a function enclosing the walk's position, in a
   * file of a framework that passes one (ava, tap, node:test) or named `t`.
   * An ava macro (`test.macro((t, input, expected) => …)`, or a plain
   * `(t, …) =>` passed as `test("x", macro, …)`) and a helper called as
   * `check(t, …)` assert through it.
   */
  private isHelperContext(name: string): boolean {
    if (this.innermostTest() !== null) return false;
    if (name !== "t" && !CONTEXT_FRAMEWORKS.some((framework) => this.frameworks.has(framework))) return false;
    for (let i = this.ancestors.length - 1; i >= 0; i--) {
      const node = this.ancestors[i] as t.Node;
      if (node.type !== "FunctionDeclaration" && node.type !== "ArrowFunctionExpression" && node.type !== "FunctionExpression" && node.type !== "ObjectMethod") continue;
      const first = node.params[0];
      if (first?.type === "Identifier" && first.name === name) return true;
    }
    return false;
  }

  /** The innermost test frame whose context parameter is `name`. */
  private frameWithContext(name: string): Frame | null {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const frame = this.stack[i] as Frame;
      if (frame.kind === "test" && frame.contextName === name) return frame;
    }
    return null;
  }

  // --- declarations

  /**
   * Top-level names bound to a test or suite function: `const describeOrSkip
   * = describe.skip`, `const itOnLinux = it.skipIf(!isLinux)`, `const maybe
   * = isCI ? describe.skip : describe`, and factories `const describeIf =
   * (ok) => (ok ? describe : describe.skip)` (called as `describeIf(x)(…)`;
   * a skip in one branch is then conditional).
   */
  private noteDeclarationAliases(program: t.Program): void {
    for (const outer of program.body) {
      const statement = outer.type === "ExportNamedDeclaration" ? outer.declaration : outer;
      if (statement?.type !== "VariableDeclaration") continue;
      for (const declarator of statement.declarations) {
        if (declarator.id.type !== "Identifier" || !declarator.init) continue;
        const name = declarator.id.name;
        if (TEST_FUNCTIONS.has(name)) continue;
        let init = unwrapExpression(declarator.init);
        const isFactory = (init.type === "ArrowFunctionExpression" || init.type === "FunctionExpression") && init.body.type !== "BlockStatement";
        if (isFactory) init = unwrapExpression((init as t.ArrowFunctionExpression).body as t.Node);
        const chain = init.type === "ConditionalExpression" ? null : flattenCallee(init);
        const declaration = init.type === "ConditionalExpression" ? this.classifyConditional(init) : chain ? this.classifyDeclaration(chain) : null;
        if (!declaration) continue;
        const via = `${name} = ${this.sourceOf(declarator.init, 60)}`;
        const marks: Partial<Record<TestFlag, FlagMark>> = {};
        for (const flag of FLAG_NAMES) {
          if (!declaration.marks[flag]) continue;
          marks[isFactory && flag === "skipped" ? "conditional" : flag] = { via };
        }
        this.declarationAliases.set(name, { ...declaration, marks, calleeText: name, isFactory });
      }
    }
  }

  /** Is this callee chain a test or suite function with known modifiers? */
  private classifyDeclaration(chain: Segment[]): Declaration | null {
    const base = chain[0];
    const alias = base ? this.declarationAliases.get(base.name) : undefined;
    if (!base || base.quasi || (base.args && !alias?.isFactory)) return null;
    const marks: Partial<Record<TestFlag, FlagMark>> = {};
    let kind: DeclarationKind;
    let start = 1;
    const known = TEST_FUNCTIONS.get(base.name);
    if (alias) {
      kind = alias.kind;
      Object.assign(marks, alias.marks);
    } else if (known) {
      kind = known.kind;
      if (known.flag) marks[known.flag] = { via: base.name };
    } else if (chain.length >= 2 && chain[1]?.name === "test" && !chain[1].args && this.frameWithContext(base.name)) {
      kind = "test"; // node:test subtest: t.test("name", fn)
      start = 2;
    } else {
      return null;
    }
    let each: Declaration["each"] = null;
    for (let i = start; i < chain.length; i++) {
      const segment = chain[i] as Segment;
      const via = chain
        .slice(0, i + 1)
        .map((s) => s.name)
        .join(".");
      const hasCallArgs = segment.args !== undefined || segment.quasi !== undefined;
      const flag = FLAG_MODIFIERS.get(segment.name);
      if (segment.name === "describe" && i === 1 && base.name === "test" && kind === "test" && !hasCallArgs) {
        kind = "suite"; // Playwright: test.describe(...)
      } else if (flag && !hasCallArgs) {
        marks[flag] = { via };
      } else if (NEUTRAL_MODIFIERS.has(segment.name) && !hasCallArgs) {
        // scheduling only
      } else if ((segment.name === "skipIf" || segment.name === "runIf") && segment.args && segment.args.length > 0) {
        // skipIf(true) / runIf(false) always skip; skipIf(false) / runIf(true) never do; anything else is a condition.
        const condition = segment.args[0] as t.Node;
        const [always, never] = segment.name === "skipIf" ? [isTruthyLiteral(condition), isFalsyLiteral(condition)] : [isFalsyLiteral(condition), isTruthyLiteral(condition)];
        if (!never) marks[always ? "skipped" : "conditional"] = { via: `${via}(${this.sourceOf(condition, 60)})`, condition: this.sourceOf(condition, 200) };
      } else if ((segment.name === "each" || segment.name === "for") && hasCallArgs) {
        each = this.readEachTable(segment.quasi ?? segment.args?.[0] ?? null);
      } else {
        return null;
      }
    }
    return { kind, marks, each, calleeText: chain.map((s) => s.name).join(".") };
  }

  /**
   * `(cond ? describe : describe.skip)(...)`, `(isCI ? it.skip : it)(...)`:
   * a declaration when both branches are test functions of the same kind.
   * A flag set in either branch is set (conditionally, like `skipIf`), by the
   * whole conditional.
   */
  private classifyConditional(callee: t.ConditionalExpression): Declaration | null {
    const [first, second] = [callee.consequent, callee.alternate].map((branch) => {
      const chain = flattenCallee(branch);
      return chain ? this.classifyDeclaration(chain) : null;
    });
    if (!first || !second || first.kind !== second.kind) return null;
    const via = `(${this.sourceOf(callee, 80)})`;
    const marks: Partial<Record<TestFlag, FlagMark>> = {};
    for (const flag of FLAG_NAMES) {
      if (!first.marks[flag] && !second.marks[flag]) continue;
      // Skipped in one branch only: skipped when the condition picks that branch.
      const isBoth = first.marks[flag] !== undefined && second.marks[flag] !== undefined;
      marks[flag === "skipped" && !isBoth && !isTruthyLiteral(callee.test) && !isFalsyLiteral(callee.test) ? "conditional" : flag] = { via };
    }
    return { kind: first.kind, marks, each: first.each ?? second.each, calleeText: via };
  }

  /**
   * (title, [options], callback) or a bodyless (title) / (title, options).
   * Null when the arguments do not declare a test: `test.skip()`,
   * `test.skip(cond, "reason")`, `describe("x")` without a body.
   */
  private readDeclarationArgs(node: t.CallExpression, declaration: Declaration): DeclarationArgs | null {
    const args = node.arguments as t.Node[];
    const first = args[0];
    if (!first || first.type === "SpreadElement") return null;
    if (isFunctionNode(first)) {
      // node:test: test(function named() {}) or test(function named() {}, …)
      if (first.type !== "FunctionExpression" || !first.id) return null;
      return { title: first.id.name, callback: first, options: null };
    }
    const callbackIndex = args.findIndex((arg, index) => index > 0 && isFunctionNode(arg));
    let callback: t.Node | null = callbackIndex > 0 ? (args[callbackIndex] as t.Node) : null;
    if (!callback) {
      // Without a function argument, only a literal title declares anything.
      if (!isTitleLike(first)) return null;
      const second = args[1];
      const isReference = second?.type === "Identifier" || second?.type === "MemberExpression";
      const isBodyless = args.length === 1 || (args.length === 2 && second?.type === "ObjectExpression");
      if (isReference)
        callback = second as t.Node; // it("does x", sharedBehaviour)
      else if (!isBodyless || declaration.kind === "suite") return null; // describe("x") declares nothing
    }
    const lastOptionIndex = callback ? args.indexOf(callback) : args.length;
    let options: t.ObjectExpression | null = null;
    for (let i = 1; i < lastOptionIndex; i++) {
      const arg = args[i];
      if (arg?.type === "ObjectExpression") options = arg;
    }
    return { title: this.titleOf(first), callback, options };
  }

  /**
   * A call outside any test of a project function given a title and a
   * function (`deprecated("keeps the form", () => { … })`), at the file's
   * level or a suite's: the test it defines when that function is a test
   * definer (facts.ts HelperTestFact), with the call's arguments as a
   * declaration's. The function is one of the file's, or imported by name
   * from a relative module; its function argument declares no test or
   * suite itself (a suite-like helper's tests are already tests). Null
   * otherwise.
   */
  private helperTestOf(node: t.CallExpression): { args: DeclarationArgs; ref: HelperRef } | null {
    if (node.callee.type !== "Identifier" || this.innermostTest() !== null) return null;
    const name = node.callee.name;
    if (TEST_FUNCTIONS.has(name) || this.declarationAliases.has(name) || this.skippingHelpers.has(name)) return null;
    const binding = this.importedBindings.get(name);
    const source = binding?.source.startsWith(".") ? binding.source : undefined;
    if (source === undefined && (binding !== undefined || !this.localFunctions.has(name))) return null;
    const enclosing = [...this.ancestors]
      .reverse()
      .find((ancestor) => isFunctionNode(ancestor) || ancestor.type === "FunctionDeclaration" || ancestor.type === "ObjectMethod" || ancestor.type === "ClassMethod");
    if (enclosing !== undefined && enclosing !== this.top().callback) return null;
    const args = node.arguments as t.Node[];
    const titleArgument = args.findIndex((arg) => isTitleLike(arg));
    const bodies = args.flatMap((arg, index) => (isFunctionNode(arg) ? [index] : []));
    const bodyArgument = bodies[0];
    if (titleArgument === -1 || bodies.length !== 1 || bodyArgument === undefined || bodyArgument < titleArgument) return null;
    const callback = args[bodyArgument] as t.Node;
    if (this.declaresTests(callback)) return null;
    const ref: HelperRef = { helper: binding?.imported ?? name, titleArgument, bodyArgument };
    if (source !== undefined) ref.source = source;
    const empty = args.flatMap((arg, at) => (arg.type === "ArrayExpression" && arg.elements.length === 0 ? [at] : []));
    if (empty.length > 0) ref.emptyArguments = empty;
    return { args: { title: this.titleOf(args[titleArgument] as t.Node), callback, options: null }, ref };
  }

  /** True when a test or suite declaration is called anywhere inside `node`. */
  private declaresTests(node: t.Node): boolean {
    const stack: t.Node[] = [node];
    while (stack.length > 0) {
      const current = stack.pop() as t.Node;
      if (current.type === "CallExpression") {
        const chain = flattenCallee(current.callee);
        if (chain && this.classifyDeclaration(chain)) return true;
      }
      const record = current as unknown as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (WALK_SKIP_KEYS.has(key)) continue;
        const value = record[key];
        if (Array.isArray(value)) {
          for (const child of value) if (isNode(child)) stack.push(child);
        } else if (isNode(value)) {
          stack.push(value);
        }
      }
    }
    return false;
  }

  /**
   * The test definer a test declaration makes of its enclosing top-level
   * function (facts.ts TestDefinerFact), or null: the declaration is a
   * statement of that function's body, its title is made from one
   * parameter (the parameter itself, a template or `+` concatenation of
   * it and literals), and its callback is another parameter or a function
   * that runs one unconditionally ({@link runsParam}).
   */
  private definerOf(node: t.CallExpression, args: DeclarationArgs): Omit<TestDefinerFact, "flagVia"> | null {
    const name = this.enclosingTopLevelFunction();
    if (name === null || this.innermostTest() !== null) return null;
    const index = this.ancestors.findLastIndex((ancestor) => isFunctionNode(ancestor) || ancestor.type === "FunctionDeclaration");
    const fn = this.ancestors[index] as t.ArrowFunctionExpression | t.FunctionExpression | t.FunctionDeclaration | undefined;
    if (!fn) return null;
    const params = paramNames(fn);
    // The declaration is the function's expression body, or a statement (possibly awaited or returned) of its body, or of
    // a `for…of` loop that is one (a test per element of a list: `for (const browser of browsers) test(…)`).
    const path = this.ancestors.slice(index + 1).filter((ancestor) => ancestor.type !== "AwaitExpression");
    const isStatementOf = (steps: readonly t.Node[], body: t.Node): boolean =>
      (steps.length === 1 && steps[0] === body && body.type === "ExpressionStatement") ||
      (steps.length === 2 && steps[0] === body && body.type === "BlockStatement" && (steps[1]?.type === "ExpressionStatement" || steps[1]?.type === "ReturnStatement"));
    const loop = path[1]?.type === "ForOfStatement" && path[0] === fn.body && fn.body.type === "BlockStatement" ? path[1] : null;
    const isStatement = path.length === 0 ? fn.body === node : isStatementOf(path, fn.body) || (loop !== null && !loop.await && isStatementOf(path.slice(2), loop.body));
    if (!isStatement) return null;
    const title = titleTemplate(node.arguments[0] as t.Node | undefined, params);
    if (!title) return null;
    const callback = args.callback;
    const bodyParam = callback?.type === "Identifier" ? params.indexOf(callback.name) : callback && isFunctionNode(callback) ? runsParam(callback, params) : -1;
    if (bodyParam === -1 || bodyParam === title.param) return null;
    const definer: Omit<TestDefinerFact, "flagVia"> = { name, line: fn.loc?.start.line ?? 0, titleParam: title.param, bodyParam, title: title.text };
    const eachParam = loop?.right.type === "Identifier" ? params.indexOf(loop.right.name) : -1;
    if (eachParam !== -1) definer.eachParam = eachParam;
    return definer;
  }

  /**
   * Records a call of one of the file's functions made by a statement of a
   * top-level function's body, outside any test (`const everyBrowser =
   * (title, run) => { browserTest(title, BROWSERS, run); }`), with which of
   * the caller's parameters each argument passes on: once the callee is
   * found to define tests, the caller does too (finishTests).
   */
  private noteForwarder(node: t.CallExpression): void {
    if (node.callee.type !== "Identifier" || !this.localFunctions.has(node.callee.name) || this.innermostTest() !== null) return;
    const name = this.enclosingTopLevelFunction();
    const index = this.ancestors.findLastIndex((ancestor) => isFunctionNode(ancestor) || ancestor.type === "FunctionDeclaration");
    const fn = this.ancestors[index] as t.ArrowFunctionExpression | t.FunctionExpression | t.FunctionDeclaration | undefined;
    if (name === null || !fn || name === node.callee.name) return;
    const path = this.ancestors.slice(index + 1).filter((ancestor) => ancestor.type !== "AwaitExpression");
    const isStatement = path.length === 0 ? fn.body === node : path.length === 2 && path[0] === fn.body && (path[1]?.type === "ExpressionStatement" || path[1]?.type === "ReturnStatement");
    if (!isStatement) return;
    const params = paramNames(fn);
    const args = node.arguments.map((arg) => (arg.type === "Identifier" ? params.indexOf(arg.name) : -1));
    const empty = node.arguments.flatMap((arg, at) => (arg.type === "ArrayExpression" && arg.elements.length === 0 ? [at] : []));
    this.forwarders.push({ name, line: fn.loc?.start.line ?? 0, callee: node.callee.name, args, empty });
  }

  private visitDeclaration(node: t.CallExpression, declaration: Declaration, args: DeclarationArgs, helper?: HelperRef): void {
    const parentFrame = this.top();
    const definer = declaration.kind === "test" && !helper ? this.definerOf(node, args) : null;
    const frame: Frame = {
      kind: declaration.kind,
      title: args.title,
      parent: parentFrame,
      marks: { ...declaration.marks },
      contextName: null,
      skipNames: new Set(),
      draft: null,
      callback: isFunctionNode(args.callback) ? args.callback : null,
    };
    if (declaration.kind === "suite" && declaration.each) {
      frame.eachRowHashes = rowHashesOf(declaration.each.rows);
      if (declaration.each.rows) frame.eachRowLiterals = rowLiteralsOf(declaration.each.rows);
    }
    if (args.options) this.applyOptionMarks(frame, args.options);
    if (declaration.kind === "test" && args.callback === null && !frame.marks.todo) {
      frame.marks.todo = { via: `${declaration.calleeText} without a body` };
    }
    this.attachComments(frame.marks, node);

    const callback = isFunctionNode(args.callback) ? args.callback : null;
    if (declaration.kind === "suite" && callback) frame.callback = callback;
    const param = callback?.params[0];
    if (param?.type === "Identifier") frame.contextName = param.name;
    if (param?.type === "ObjectPattern") {
      for (const property of param.properties) {
        if (property.type === "ObjectProperty" && propertyName(property.key, property.computed) === "skip" && property.value.type === "Identifier") {
          frame.skipNames.add(property.value.name);
        }
      }
    }

    // ava: `test("title", macro, ...args)` runs `macro(t, ...args)`; the arguments are the test's data, read inside it.
    const macro = declaration.kind === "test" && args.callback?.type === "Identifier" ? args.callback : null;
    const macroArgs = macro ? (node.arguments as t.Node[]).slice((node.arguments as t.Node[]).indexOf(macro) + 1) : [];
    if (declaration.kind === "test") {
      const draft: TestDraft = {
        name: args.title,
        suitePath: this.stack.filter((f) => f.kind !== "file").map((f) => f.title),
        line: node.loc?.start.line ?? 0,
        frame,
        assertionCount: 0,
        bodyHash: hashText(canonicalJson(args.callback) + (macroArgs.length > 0 ? macroArgs.map(canonicalJson).join("\n") : "") + "\n" + (declaration.each?.hashSource ?? "")),
        assertions: [],
        callback,
        calls: [],
        importedHelperCalls: [],
        inputLiterals: [],
        expectedLiterals: [],
        references: new Set(),
        commentedAssertions: callback ? this.countCommentedAssertions(callback) : 0,
        unreachableFrom: callback ? firstEarlyReturnEnd(callback) : null,
      };
      this.recordRows(draft, parentFrame, declaration.each);
      if (declaration.each?.rows && draft.eachRowHashes !== undefined && draft.eachRowHashes.length === declaration.each.rows.length) {
        const elements = rowElementsOf(declaration.each.rows, args.callback, this.content);
        if (elements) draft.eachRowElements = elements;
      }
      // An ava macro test (`test(title, macro, input, expected, runCommand)`) uses the imports it passes to its macro.
      for (const arg of node.arguments) if (arg !== callback && arg.type === "Identifier" && this.importLocals.has(arg.name)) draft.references.add(arg.name);
      if (macro) draft.macro = { name: macro.name, args: macroArgs };
      if (macro)
        draft.calls.push({ name: macro.name, node, start: node.start ?? 0, actual: `${macro.name}(${["t", ...macroArgs.map((arg) => normalizedSource(this.content, arg, 1000))].join(", ")})` });
      if (helper) draft.helper = helper;
      if (definer) draft.definer = definer;
      frame.draft = draft;
      this.drafts.push(draft);
    }

    this.visit(node.callee, node);
    for (const arg of node.arguments) if (arg !== callback && !macroArgs.includes(arg)) this.visit(arg, node);
    if (callback || macroArgs.length > 0) {
      this.stack.push(frame);
      try {
        if (callback) this.visit(callback, node);
        for (const arg of macroArgs) this.visit(arg, node);
      } finally {
        this.stack.pop();
      }
    }
  }

  /**
   * The rows a test runs with: its own `.each` table's, times those of every
   * enclosing `describe.each` suite (a test in a 3-row suite with a 2-row
   * table runs 6 times). Row hashes combine the rows' own hashes, outermost
   * first; only the count is kept past {@link MAX_ROW_COMBINATIONS}. Absent
   * when neither the test nor a suite is a table; `eachRows` null when one
   * of the tables is not literal.
   */
  private recordRows(draft: TestDraft, parentFrame: Frame, each: EachTable | null): void {
    const tables: (string[] | null)[] = [];
    const literalTables: (string[][] | undefined)[] = [];
    for (let frame: Frame | null = parentFrame; frame; frame = frame.parent) {
      if (frame.eachRowHashes !== undefined) {
        tables.unshift(frame.eachRowHashes);
        literalTables.unshift(frame.eachRowLiterals);
      }
    }
    if (each) literalTables.push(each.rows ? rowLiteralsOf(each.rows) : undefined);
    if (literalTables.length === 1 && literalTables[0] !== undefined) draft.eachRowLiterals = literalTables[0];
    if (each) tables.push(rowHashesOf(each.rows));
    if (tables.length === 0) return;
    if (tables.some((table) => table === null)) {
      draft.eachRows = null;
      return;
    }
    const known = tables as string[][];
    draft.eachRows = known.reduce((product, table) => product * table.length, 1);
    if (known.length === 1) draft.eachRowHashes = known[0] as string[];
    else if (draft.eachRows <= MAX_ROW_COMBINATIONS) {
      draft.eachRowHashes = known.reduce<string[]>((combined, table) => combined.flatMap((prefix) => table.map((row) => hashText(`${prefix}|${row}`).slice(0, 12))), [""]);
    }
  }

  /**
   * An `.each`/`.for` table as written: an array literal (each element one
   * row), a tagged template (cells grouped by the header's columns), or a
   * name bound to an array literal in this file (see
   * {@link TestExtractor.arrayElements}). Rows are null for anything else.
   */
  private readEachTable(table: t.Node | null): EachTable {
    if (!table) return { rows: null, hashSource: "" };
    if (table.type === "TemplateLiteral") return { rows: templateTableRows(table), hashSource: canonicalJson(table) };
    const elements = this.arrayElements(table, this.ancestors.length - 1, new Set());
    if (elements === null) return { rows: null, hashSource: canonicalJson(table) };
    const synthetic = { type: "ArrayExpression", elements } as unknown as t.Node;
    return { rows: elements.map((element) => [element]), hashSource: canonicalJson(synthetic) };
  }

  /**
   * The elements of an array-valued expression, or null when the file does
   * not show them: an array literal (possibly `as const`), or a name bound
   * in an enclosing scope to one by `const` (or by a `let`/`var` never
   * reassigned), with spreads of such names expanded (`[...BASE, [5, 6]]`).
   * Stays opaque (null): a table imported from another module (its rows
   * live in another file), a parameter or loop variable, a reassigned `let`,
   * an array changed in place (`push`, `splice`, `length = 0`, an element
   * assigned), and computed tables (`rows.map(...)`, `Object.entries(...)`).
   * `scope` is the index in `this.ancestors` where name lookup starts.
   */
  private arrayElements(expression: t.Node, scope: number, seen: Set<string>): (t.Node | null)[] | null {
    const node = unwrapExpression(expression);
    if (node.type === "Identifier") {
      if (seen.has(node.name) || seen.size > 20) return null;
      const binding = this.findBinding(node.name, scope);
      if (!binding) return null;
      return this.arrayElements(binding.init, binding.scope, new Set([...seen, node.name]));
    }
    if (node.type !== "ArrayExpression") return null;
    const elements: (t.Node | null)[] = [];
    for (const element of node.elements) {
      if (element?.type !== "SpreadElement") {
        elements.push(element);
        continue;
      }
      const spread = this.arrayElements(element.argument, scope, seen);
      if (spread === null) return null;
      elements.push(...spread);
    }
    return elements;
  }

  /**
   * The initialiser of the declaration `name` resolves to from
   * `this.ancestors[from]` outwards, with the index of the scope holding it;
   * null when the nearest binding is not a plain `const`/unreassigned
   * `let`/`var` with an initialiser (an import, a parameter, a function, a
   * destructuring) or there is none in the file.
   */
  private findBinding(name: string, from: number): { init: t.Node; scope: number } | null {
    if (this.mutatedNames().has(name)) return null;
    for (let i = Math.min(from, this.ancestors.length - 1); i >= 0; i--) {
      const node = this.ancestors[i] as t.Node;
      if (
        (node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression" || node.type === "FunctionDeclaration" || node.type === "ObjectMethod" || node.type === "ClassMethod") &&
        node.params.some((param) => bindsName(param, name))
      ) {
        return null;
      }
      if (node.type === "CatchClause" && bindsName(node.param, name)) return null;
      if ((node.type === "ForOfStatement" || node.type === "ForInStatement") && node.left.type === "VariableDeclaration" && node.left.declarations.some((d) => bindsName(d.id, name))) return null;
      if (node.type === "ForStatement" && node.init?.type === "VariableDeclaration" && node.init.declarations.some((d) => bindsName(d.id, name))) return null;
      const statements = node.type === "Program" || node.type === "BlockStatement" ? node.body : null;
      for (const statement of statements ?? []) {
        const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
        if (declaration?.type === "VariableDeclaration") {
          const declarator = declaration.declarations.find((candidate) => bindsName(candidate.id, name));
          if (!declarator) continue;
          return declarator.id.type === "Identifier" && declarator.init ? { init: declarator.init, scope: i } : null;
        }
        if ((declaration?.type === "FunctionDeclaration" || declaration?.type === "ClassDeclaration") && declaration.id?.name === name) return null;
        if (statement.type === "ImportDeclaration" && statement.specifiers.some((spec) => spec.local.name === name)) return null;
      }
    }
    return null;
  }

  /** Names assigned, updated or changed in place anywhere in the file (`x = …`, `x++`, `x.push(…)`, `x[i] = …`, `x.length = 0`). */
  private mutatedNames(): ReadonlySet<string> {
    if (this.mutated) return this.mutated;
    const names = new Set<string>();
    const rootName = (node: t.Node): string | null => {
      let current = unwrapExpression(node);
      while (current.type === "MemberExpression" || current.type === "OptionalMemberExpression") current = unwrapExpression(current.object);
      return current.type === "Identifier" ? current.name : null;
    };
    const stack: t.Node[] = [this.ast.program];
    while (stack.length > 0) {
      const node = stack.pop() as t.Node;
      if (node.type === "AssignmentExpression" || node.type === "UpdateExpression") {
        const target = node.type === "AssignmentExpression" ? node.left : node.argument;
        const name = rootName(target);
        if (name !== null) names.add(name);
      } else if ((node.type === "CallExpression" || node.type === "OptionalCallExpression") && (node.callee.type === "MemberExpression" || node.callee.type === "OptionalMemberExpression")) {
        const member = propertyName(node.callee.property, node.callee.computed);
        const name = member !== null && MUTATING_ARRAY_MEMBERS.has(member) ? rootName(node.callee.object) : null;
        if (name !== null) names.add(name);
      }
      const record = node as unknown as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (WALK_SKIP_KEYS.has(key)) continue;
        const value = record[key];
        if (Array.isArray(value)) {
          for (const child of value) if (isNode(child)) stack.push(child);
        } else if (isNode(value)) {
          stack.push(value);
        }
      }
    }
    this.mutated = names;
    return names;
  }

  /** Lines of comments inside the callback that look like assertions (a body commented out keeps them here). */
  private countCommentedAssertions(callback: t.Node): number {
    const comments = this.ast.comments ?? [];
    if (callback.start == null || callback.end == null || comments.length === 0) return 0;
    // Comments come in source order: find the first one inside the callback, then walk to its end.
    let low = 0;
    let high = comments.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (((comments[middle] as t.Comment).start ?? 0) < callback.start) low = middle + 1;
      else high = middle;
    }
    let count = 0;
    for (let i = low; i < comments.length; i++) {
      const comment = comments[i] as t.Comment;
      if ((comment.start ?? 0) > callback.end) break;
      for (const line of comment.value.split("\n")) if (COMMENTED_ASSERTION.test(line)) count++;
    }
    return count;
  }

  /** `{ skip: true }`, `{ skip: "reason" }`, `{ todo: true }`, `{ only: true }`, `{ fails: true }`. */
  private applyOptionMarks(frame: Frame, options: t.ObjectExpression): void {
    for (const property of options.properties) {
      if (property.type !== "ObjectProperty") continue;
      const key = propertyName(property.key, property.computed);
      const flag = key === null ? undefined : OPTION_FLAGS.get(key);
      if (!flag || isFalsyLiteral(property.value)) continue;
      const mark: FlagMark = { via: `{ ${key}: ${this.sourceOf(property.value, 60)} }` };
      if (property.value.type === "StringLiteral") mark.reason = property.value.value;
      // node:test `{ skip: process.platform === "win32" }`: skipped when the value is true at run time.
      const isConditional = flag === "skipped" && !isTruthyLiteral(property.value);
      if (isConditional && property.value.type !== "StringLiteral") mark.condition = this.sourceOf(property.value, 200);
      frame.marks[isConditional ? "conditional" : flag] = mark;
    }
  }

  /** Title text: literal value, template raw text, or the expression's source. */
  private titleOf(node: t.Node): string {
    if (node.type === "StringLiteral") return node.value;
    if (node.type === "TemplateLiteral") {
      if (node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? node.quasis[0]?.value.raw ?? "";
      return this.sourceOf(node, Infinity).slice(1, -1);
    }
    if (node.type === "BinaryExpression") {
      const folded = foldStringConcatenation(node);
      if (folded !== null) return folded;
    }
    if (node.type === "Identifier") return node.name;
    return this.sourceOf(node, Infinity);
  }

  // --- run-time skips

  /**
   * `test.skip()` / `test.skip(cond, reason)` / `test.fixme()` / `test.fail()`
   * (Playwright), `t.skip()` / `t.todo()` (node:test, Vitest context),
   * destructured `skip()`, `this.skip()` (Mocha), `pending()` (Jasmine).
   */
  private applyRuntimeMark(chain: Segment[], node: t.CallExpression): void {
    const [base, member] = chain;
    if (!base || base.args || base.quasi || member?.args || member?.quasi) return;
    let target: Frame | null = null;
    let flag: TestFlag | undefined;
    const top = this.top();
    if (chain.length === 2 && member && TEST_FUNCTIONS.get(base.name)?.kind === "test") {
      flag = member.name === "skip" || member.name === "fixme" ? "skipped" : member.name === "fail" ? "failing" : undefined;
      target = top;
    } else if (chain.length === 2 && member && base.name === "this" && member.name === "skip") {
      flag = "skipped";
      target = top.kind === "file" ? null : top;
    } else if (chain.length === 2 && member && (member.name === "skip" || member.name === "todo")) {
      target = this.frameWithContext(base.name);
      flag = member.name === "skip" ? "skipped" : "todo";
    } else if (chain.length === 1 && top.skipNames.has(base.name)) {
      flag = "skipped";
      target = top;
    } else if (chain.length === 1 && base.name === "pending" && top.kind === "test") {
      flag = "skipped";
      target = top;
    }
    if (!target && chain.length === 2 && member?.name === "skip" && this.isHookContext(base.name)) {
      // vitest `beforeEach((ctx) => ctx.skip())`: every test the hook runs before is skipped.
      flag = "skipped";
      target = top;
    }
    if (!target || !flag) return;
    if (flag === "skipped" && this.isRuntimeSkipConditional(chain, node)) flag = "conditional";
    if (target.marks[flag] || (flag === "conditional" && target.marks.skipped)) return;
    const mark: FlagMark = { via: `${chain.map((s) => s.name).join(".")}()` };
    const reasonArg = node.arguments.find((arg) => arg.type === "StringLiteral" || arg.type === "TemplateLiteral");
    if (reasonArg) mark.reason = this.titleOf(reasonArg);
    if (flag === "conditional") {
      const condition = this.runtimeSkipCondition(chain, node);
      if (condition !== undefined) mark.condition = condition;
    }
    const marks: Partial<Record<TestFlag, FlagMark>> = { [flag]: mark };
    this.attachComments(marks, node);
    target.marks[flag] = mark;
  }

  /**
   * True when a run-time skip does not always run: Playwright's
   * `test.skip(cond, reason)` with a condition other than `true`, or a skip
   * reached through an `if`, `?:`, `&&`, a loop or after an early-return
   * guard (javascript-skips.ts).
   */
  private isRuntimeSkipConditional(chain: Segment[], node: t.CallExpression): boolean {
    const first = node.arguments[0];
    if (chain.length === 2 && TEST_FUNCTIONS.has(chain[0]?.name ?? "") && first !== undefined && first.type !== "StringLiteral" && first.type !== "TemplateLiteral" && !isTruthyLiteral(first))
      return true;
    return isConditionalWithinFunction(this.ancestors, node);
  }

  /**
   * The condition a run-time skip fires under, as source: Playwright's
   * `test.skip(cond, reason)` first argument, or the test of the nearest
   * `if`/`?:`/`&&` holding the call within its function (negated as `!(…)`
   * in an `else` branch). Undefined when none is found.
   */
  private runtimeSkipCondition(chain: Segment[], node: t.CallExpression): string | undefined {
    const first = node.arguments[0];
    if (chain.length === 2 && TEST_FUNCTIONS.has(chain[0]?.name ?? "") && first !== undefined && first.type !== "StringLiteral" && first.type !== "TemplateLiteral") return this.sourceOf(first, 200);
    let child: t.Node = node;
    for (let i = this.ancestors.length - 1; i >= 0; i--) {
      const ancestor = this.ancestors[i] as t.Node;
      if (isFunctionNode(ancestor)) return undefined;
      if ((ancestor.type === "IfStatement" || ancestor.type === "ConditionalExpression") && ancestor.test !== child) {
        const text = this.sourceOf(ancestor.test, 200);
        return ancestor.alternate === child ? `!(${text})` : text;
      }
      if (ancestor.type === "LogicalExpression" && ancestor.right === child) return ancestor.operator === "||" ? `!(${this.sourceOf(ancestor.left, 200)})` : this.sourceOf(ancestor.left, 200);
      child = ancestor;
    }
    return undefined;
  }

  /** True when `name` is the first parameter of the hook callback being walked (`beforeEach((ctx) => …)`): the test's context. */
  private isHookContext(name: string): boolean {
    const a = this.ancestors;
    for (let i = a.length - 1; i > 0; i--) {
      const fn = a[i] as t.Node;
      if (!isFunctionNode(fn)) continue;
      const param = fn.params[0];
      const call = a[i - 1];
      if (param?.type !== "Identifier" || param.name !== name || call?.type !== "CallExpression") return false;
      const chain = flattenCallee(call.callee);
      const hook = chain?.[chain.length - 1]?.name;
      return hook === "beforeEach" || hook === "beforeAll";
    }
    return false;
  }

  /**
   * A call of a top-level helper that skips (javascript-skips.ts): the test
   * being walked, or every test of the suite whose body or hook calls it, is
   * skipped, conditionally when the helper's skip or this call is.
   */
  private applyHelperSkip(node: t.CallExpression): void {
    if (node.callee.type !== "Identifier") return;
    const helper = this.skippingHelpers.get(node.callee.name);
    if (!helper) return;
    const target = this.top();
    const flag: TestFlag = helper.isConditional || isConditionalWithinFunction(this.ancestors, node) ? "conditional" : "skipped";
    if (target.marks[flag] || (flag === "conditional" && target.marks.skipped)) return;
    const mark: FlagMark = { via: `${node.callee.name}() calls ${helper.via}` };
    if (helper.reason !== undefined) mark.reason = helper.reason;
    target.marks[flag] = mark;
  }

  /** Adds the comments around the statement of `node` to the reasons of skip/todo marks. */
  private attachComments(marks: Partial<Record<TestFlag, FlagMark>>, node: t.Node): void {
    if (!marks.skipped && !marks.todo) return;
    const comments = this.commentsAround(this.statementOfCall.get(node) ?? node);
    if (comments === "") return;
    for (const flag of ["skipped", "todo"] as const) {
      const mark = marks[flag];
      if (mark) mark.reason = mark.reason ? `${mark.reason} ${comments}` : comments;
    }
  }

  /** Own-line comments directly above the statement, and comments on its first and last line. */
  private commentsAround(node: t.Node): string {
    const loc = node.loc;
    if (!loc || node.start == null) return "";
    const texts: string[] = [];
    for (let line = loc.start.line - 1; line >= 1;) {
      const above = (this.commentsByEndLine.get(line) ?? []).filter((c) => this.isOwnLineComment(c));
      if (above.length === 0) break;
      texts.unshift(...above.map((c) => c.value.trim()));
      line = Math.min(...above.map((c) => c.loc?.start.line ?? line)) - 1;
    }
    const lines = loc.start.line === loc.end.line ? [loc.start.line] : [loc.start.line, loc.end.line];
    for (const line of lines) {
      for (const comment of this.commentsByStartLine.get(line) ?? []) {
        if (comment.start != null && comment.start >= (node.start as number)) texts.push(comment.value.trim());
      }
    }
    return texts.join(" ").replace(/\s+/g, " ").trim();
  }

  private isOwnLineComment(comment: t.Comment): boolean {
    if (comment.start == null) return false;
    const lineStart = this.content.lastIndexOf("\n", comment.start - 1) + 1;
    return this.content.slice(lineStart, comment.start).trim() === "";
  }

  // --- assertions

  /**
   * Counts each assertion once: the `expect(...)` call at the root of a
   * chain, `assert(...)`/`assert.*(...)`, imported assert functions,
   * `expect.assertions(n)`, `t.is(...)`-style context methods, anything
   * through an `.assert.` member (`sinon.assert.calledOnce`), Cypress
   * `.should(...)`/`.and(...)`, supertest `request(app).get(url).expect(...)`,
   * and `assertX(...)`/`expectX(...)` helpers.
   */
  private isAssertionCall(node: t.CallExpression, parent: t.Node | null): boolean {
    const callee = node.callee;
    if (callee.type === "Identifier") {
      const name = callee.name;
      if (this.expectNames.has(name) || name === "expectTypeOf") return isMemberObject(node, parent);
      if (this.assertNames.has(name) || this.productAssertNames.has(name)) return true;
      return /^(assert|expect)[A-Z0-9_$]/.test(name);
    }
    if (callee.type !== "MemberExpression" && callee.type !== "OptionalMemberExpression") return false;
    const { root, props } = flattenMember(callee);
    const first = props[0];
    if (root.type === "Identifier") {
      if (this.expectNames.has(root.name)) {
        if (props.length === 1 && (first === "soft" || first === "poll")) return isMemberObject(node, parent);
        return props.length === 1 && (first === "assertions" || first === "hasAssertions");
      }
      if (this.assertNames.has(root.name) || this.shouldNames.has(root.name)) return true;
      if (this.productAssertNames.has(root.name) && props.length === 1 && first !== undefined && FRAMEWORK_ASSERT_METHODS.has(first)) return true;
      if (first !== undefined && CONTEXT_ASSERTIONS.has(first) && (this.frameWithContext(root.name) || this.isHelperContext(root.name) || this.attemptContexts.includes(root.name))) return true;
    }
    if (props.includes("assert")) return true;
    const last = props[props.length - 1];
    if (last === "should") return true;
    if (isSupertestExpect(root, props)) return true;
    return last === "and" && hasShouldCallBelow(callee.object);
  }

  // --- output

  private finishTest(draft: TestDraft): TestCase {
    const flags: TestFlags = noFlags();
    const flagVia: Partial<Record<TestFlag, string>> = {};
    let skipReason: string | undefined;
    let skipCondition: string | undefined;
    for (let frame: Frame | null = draft.frame; frame; frame = frame.parent) {
      for (const flag of FLAG_NAMES) {
        const mark = frame.marks[flag];
        if (!mark || flags[flag]) continue;
        flags[flag] = true;
        if (flag === "conditional" && mark.condition !== undefined) skipCondition = mark.condition;
        flagVia[flag] = frame === draft.frame ? mark.via : `${mark.via} on ${frame.kind === "file" ? "the whole file" : `${frame.kind} "${frame.title}"`}`;
        if ((flag === "skipped" || flag === "conditional" || flag === "todo") && mark.reason && skipReason === undefined) skipReason = mark.reason;
      }
    }
    settleFlags(flags, flagVia);
    const assertions = draft.callback ? withJavaScriptTryChecks(draft.callback, this.content, draft.assertions) : draft.assertions;
    const test: TestCase = {
      id: [...draft.suitePath, draft.name].join(" > "),
      name: draft.name,
      suitePath: draft.suitePath,
      line: draft.line,
      flags,
      assertionCount: draft.assertionCount + assertions.length - draft.assertions.length,
      bodyHash: draft.bodyHash,
    };
    if (Object.keys(flagVia).length > 0) test.flagVia = flagVia;
    if (skipReason !== undefined) test.skipReason = skipReason;
    if (skipCondition !== undefined && flags.conditional) test.skipCondition = skipCondition;
    if (draft.eachRows !== undefined) test.eachRows = draft.eachRows;
    if (draft.eachRowHashes !== undefined) test.eachRowHashes = draft.eachRowHashes;
    if (draft.eachRowLiterals !== undefined) test.eachRowLiterals = draft.eachRowLiterals;
    if (draft.eachRowElements !== undefined) test.eachRowElements = draft.eachRowElements;
    const unreachableFrom = draft.unreachableFrom;
    test.assertionsDetail = assertions.map(({ fact, start }) => (unreachableFrom !== null && start >= unreachableFrom ? { ...fact, unreachable: true } : fact));
    const outer: JsBindings[] = [];
    for (let frame: Frame | null = draft.frame.parent; frame; frame = frame.parent) if (frame.callback) outer.push(this.suiteBindingsOf(frame.callback));
    outer.push(this.moduleBindingsOf());
    if (assertions.length > 0)
      test.checkNames = checkNamesOfTest(
        draft.callback,
        draft.macro ?? null,
        assertions.map(({ start }) => start),
        outer,
      );
    // A macro test runs its macro: only a callback's body can be known to run nothing but its checks.
    if (draft.callback) {
      const calls = callsOutsideChecks(
        draft.callback,
        assertions.map(({ start }) => start),
      );
      test.callCount = calls.length;
      // A test with no real check guards only that its calls do not throw: what each call depends on.
      if (calls.length > 0 && test.assertionsDetail.every((fact) => fact.tautology || fact.unreachable === true)) {
        const seen = new Set<string>();
        const callNames = checkNamesOfTest(draft.callback, null, calls.slice(0, 16), outer).filter((names) => {
          const key = names.join("\u0000");
          if (names.length === 0 || seen.has(key)) return false;
          seen.add(key);
          return true;
        });
        if (callNames.length > 0) test.callNames = callNames;
      }
    }
    if (draft.callback) {
      const directCalls = directCallTexts(unconditionalRuns(draft.callback).map(([start, end]) => this.content.slice(start, end)));
      if (directCalls.length > 0) test.directCalls = directCalls;
    }
    if (draft.commentedAssertions > 0) test.commentedAssertions = draft.commentedAssertions;
    test.inputLiterals = draft.inputLiterals;
    test.expectedLiterals = draft.expectedLiterals;
    test.references = [...draft.references].sort();
    if (draft.importedHelperCalls.length > 0) test.importedHelperCalls = draft.importedHelperCalls;
    return test;
  }

  /** The file's top-level bindings (javascript-dependencies.ts), read once. */
  private moduleBindingsOf(): JsBindings {
    this.topBindings ??= moduleBindings(this.ast.program);
    return this.topBindings;
  }

  private topBindings: JsBindings | null = null;

  /** A suite callback's set-up bindings (javascript-dependencies.ts), read once per suite. */
  private suiteBindingsOf(callback: t.Node): JsBindings {
    let bindings = this.suiteSetUp.get(callback);
    if (!bindings) {
      bindings = suiteBindings(callback);
      this.suiteSetUp.set(callback, bindings);
    }
    return bindings;
  }

  private readonly suiteSetUp = new Map<t.Node, JsBindings>();

  /** Source text of a node with runs of whitespace collapsed, cut to `maxChars`. */
  private sourceOf(node: t.Node, maxChars: number): string {
    if (node.start == null || node.end == null) return node.type;
    const text = this.content.slice(node.start, node.end).replace(/\s+/g, " ");
    return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
  }
}

/** The names of a function's parameters (`(a, b = 1, { c })` -> ["a", "b", null]): null where a parameter is a pattern. */
function paramNames(fn: t.ArrowFunctionExpression | t.FunctionExpression | t.FunctionDeclaration): (string | null)[] {
  return fn.params.map((param) => (param.type === "Identifier" ? param.name : param.type === "AssignmentPattern" && param.left.type === "Identifier" ? param.left.name : null));
}

/**
 * A test definer's title (facts.ts TestDefinerFact.title) from its
 * declaration's title argument: a parameter (`{}`), a template literal or
 * a `+` concatenation of literals and one parameter (`${title}
 * (deprecated)` -> `{} (deprecated)`; other expressions keep their `${…}`
 * text), with that parameter's index; null when no parameter makes it.
 */
function titleTemplate(node: t.Node | undefined, params: readonly (string | null)[]): { text: string; param: number } | null {
  if (!node) return null;
  let param = -1;
  const part = (expression: t.Node): string | null => {
    if (expression.type === "StringLiteral") return expression.value;
    if (expression.type !== "Identifier") return null;
    const index = params.indexOf(expression.name);
    if (index === -1 || (param !== -1 && param !== index)) return null;
    param = index;
    return "{}";
  };
  let text: string | null;
  if (node.type === "TemplateLiteral") {
    const pieces: string[] = [];
    node.quasis.forEach((quasi, i) => {
      pieces.push(quasi.value.cooked ?? quasi.value.raw);
      const expression = node.expressions[i];
      if (expression) pieces.push(part(expression) ?? `\${${expression.type === "Identifier" ? expression.name : "…"}}`);
    });
    text = pieces.join("");
  } else if (node.type === "BinaryExpression" && node.operator === "+") {
    const operands: t.Node[] = [];
    const flatten = (expression: t.Node): void => {
      if (expression.type === "BinaryExpression" && expression.operator === "+") {
        flatten(expression.left);
        flatten(expression.right);
      } else operands.push(expression);
    };
    flatten(node);
    const pieces = operands.map(part);
    text = pieces.every((piece) => piece !== null) ? pieces.join("") : null;
  } else {
    text = part(node);
  }
  return text !== null && param !== -1 ? { text, param } : null;
}

/**
 * The index of the parameter (of `params`) that `callback` always calls
 * (`fn()`, `await fn(t)`, `return fn(t)`, `fn.call(this, t)`), as its
 * expression body or a statement of its body, also inside a `try` that
 * has only a `finally`; -1 when none is: a call under a `catch`, an `if`
 * or a loop may not run, or its failure may not reach the runner.
 */
function runsParam(callback: t.ArrowFunctionExpression | t.FunctionExpression, params: readonly (string | null)[]): number {
  const calledParam = (expression: t.Node | null | undefined): number => {
    const node = expression?.type === "AwaitExpression" ? expression.argument : expression;
    if (node?.type !== "CallExpression") return -1;
    const callee = node.callee;
    if (callee.type === "Identifier") return params.indexOf(callee.name);
    if (callee.type === "MemberExpression" && callee.object.type === "Identifier" && !callee.computed && callee.property.type === "Identifier" && /^(call|apply)$/.test(callee.property.name))
      return params.indexOf(callee.object.name);
    return -1;
  };
  const inStatements = (statements: readonly t.Statement[]): number => {
    for (const statement of statements) {
      const found =
        statement.type === "ExpressionStatement"
          ? calledParam(statement.expression)
          : statement.type === "ReturnStatement"
            ? calledParam(statement.argument)
            : statement.type === "BlockStatement"
              ? inStatements(statement.body)
              : statement.type === "TryStatement" && statement.handler === null
                ? inStatements(statement.block.body)
                : -1;
      if (found !== -1) return found;
    }
    return -1;
  };
  return callback.body.type === "BlockStatement" ? inStatements(callback.body.body) : calledParam(callback.body);
}

/** supertest's `request(app).get(url).expect(…)`: an `expect` method called on a call chain. */
function isSupertestExpect(root: t.Node, props: readonly string[]): boolean {
  return props.length === 1 && props[0] === "expect" && root.type === "CallExpression";
}

/** End offset of the first `return` in a test body that is not its last statement, or null. */
function firstEarlyReturnEnd(callback: t.Node): number | null {
  if (!isFunctionNode(callback) || callback.body.type !== "BlockStatement") return null;
  const statements = callback.body.body;
  const index = statements.findIndex((statement) => statement.type === "ReturnStatement");
  if (index === -1 || index === statements.length - 1) return null;
  return statements[index]?.end ?? null;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** `"a" + "b" + \`c\`` -> "abc"; null when any part is not a literal string. */
function foldStringConcatenation(node: t.Node): string | null {
  if (node.type === "StringLiteral") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? null;
  if (node.type === "BinaryExpression" && node.operator === "+") {
    const left = foldStringConcatenation(node.left);
    const right = left === null ? null : foldStringConcatenation(node.right);
    return left !== null && right !== null ? left + right : null;
  }
  return null;
}

/** True when a declarator's pattern binds `name` (an identifier, or a name inside an array or object pattern). */
function declaresName(id: t.LVal | t.VoidPattern, name: string): boolean {
  if (id.type === "Identifier") return id.name === name;
  if (id.type === "ArrayPattern") return id.elements.some((element) => element !== null && declaresName(element as t.LVal, name));
  if (id.type === "ObjectPattern") return id.properties.some((property) => (property.type === "RestElement" ? declaresName(property.argument, name) : declaresName(property.value as t.LVal, name)));
  if (id.type === "AssignmentPattern") return declaresName(id.left, name);
  if (id.type === "RestElement") return declaresName(id.argument, name);
  return false;
}
