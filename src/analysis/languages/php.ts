/**
 * PHP: PHPUnit test methods (`test*` methods of a TestCase class, `@test`
 * docblocks, `#[Test]` attributes), `markTestSkipped`/`markTestIncomplete`,
 * data providers (`@dataProvider` / `#[DataProvider]` rows from the
 * provider's literal array or yields), and assertions (`$this->assert*`,
 * `self::assert*`, `expectException`), from tree-sitter-php with
 * grammars/php/*.scm. Test ids are the class name and the method name.
 */

import {
  type AssertionDraft,
  compactText,
  type ExtractedDrafts,
  hashNode,
  hashRow,
  isComment,
  literalsOf,
  type LoadedGrammar,
  namedChildren,
  type Node,
  queryCaptures,
  type SkipDraft,
  type SkipReach,
  stringValue,
  type TestDraft,
  withBoundActual,
} from "../parsers/tree-sitter.js";
import { counterTarget, type BranchDraft, type CodeContext, type CodeSyntax, type EscapeDraft, type ExportDraft, type FlowSyntax, type GuardDraft } from "../parsers/tree-sitter-code.js";
import type { AssertionFact, NonTestFunctionFact } from "../facts.js";
import { isUnderTestDirectory } from "./language.js";
import { defineLanguage } from "./define-language.js";
import { catchesOnlyLookupErrors, LOOKUP_ERRORS } from "./lookup-errors.js";
import { createdType, statementNodes, withTryChecks, type TrySyntax } from "../parsers/tree-sitter-try.js";
import { ERROR_RESULT_CLASS } from "../checks/rejection.js";
import { PHP_SHADOWS } from "./shadow-tables.js";

/** True under a `vendor/` directory (Composer dependencies). */
function isVendorPath(path: string): boolean {
  return path.startsWith("vendor/") || path.includes("/vendor/");
}

/** `*Test.php`, or under `tests/`/`test/`. */
export function isPhpTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return isUnderTestDirectory(path) || /Test\.php$/.test(name);
}

/** PHPUnit assertion -> strength and negation; unknown assert* methods count as truthiness checks. */
const STRENGTH: ReadonlyMap<string, { strength: 1 | 2 | 3; negated?: boolean }> = new Map([
  ["assertSame", { strength: 3 }],
  ["assertEquals", { strength: 3 }],
  ["assertEqualsCanonicalizing", { strength: 3 }],
  ["assertEqualsWithDelta", { strength: 3 }],
  ["assertNull", { strength: 3 }],
  ["assertJsonStringEqualsJsonString", { strength: 3 }],
  ["assertStringEqualsFile", { strength: 3 }],
  ["assertFileEquals", { strength: 3 }],
  ["assertXmlStringEqualsXmlString", { strength: 3 }],
  ["expectExceptionMessage", { strength: 3 }],
  // A deprecation the test expects, with its message: Symfony PHPUnit Bridge's ExpectDeprecationTrait, PHPUnit 11's expectUserDeprecationMessage*.
  ["expectDeprecation", { strength: 2 }],
  ["expectUserDeprecationMessage", { strength: 2 }],
  ["expectUserDeprecationMessageMatches", { strength: 2 }],
  ["expectExceptionCode", { strength: 3 }],
  ["assertNotSame", { strength: 2, negated: true }],
  ["assertNotEquals", { strength: 2, negated: true }],
  ["assertContains", { strength: 2 }],
  ["assertNotContains", { strength: 2, negated: true }],
  ["assertContainsEquals", { strength: 2 }],
  ["assertStringContainsString", { strength: 2 }],
  ["assertStringStartsWith", { strength: 2 }],
  ["assertStringEndsWith", { strength: 2 }],
  ["assertMatchesRegularExpression", { strength: 2 }],
  ["assertInstanceOf", { strength: 2 }],
  ["assertCount", { strength: 2 }],
  ["assertArrayHasKey", { strength: 2 }],
  ["assertGreaterThan", { strength: 2 }],
  ["assertLessThan", { strength: 2 }],
  ["assertGreaterThanOrEqual", { strength: 2 }],
  ["assertLessThanOrEqual", { strength: 2 }],
  ["assertIsArray", { strength: 2 }],
  ["assertIsString", { strength: 2 }],
  ["assertIsInt", { strength: 2 }],
  ["expectException", { strength: 2 }],
  ["expectExceptionMessageMatches", { strength: 2 }],
  ["assertTrue", { strength: 1 }],
  ["assertFalse", { strength: 1, negated: true }],
  ["assertNotNull", { strength: 1, negated: true }],
  ["assertNotEmpty", { strength: 1, negated: true }],
  ["assertEmpty", { strength: 1 }],
  ["assertFileExists", { strength: 1 }],
  ["fail", { strength: 1 }],
]);

/** Exception classes too broad to pin a failure down. */
const BROAD_EXCEPTIONS: ReadonlySet<string> = new Set(["Exception", "\\Exception", "Throwable", "\\Throwable", "Error", "\\Error"]);

/** The docblock comment right before a method (attributes and modifiers are inside the method node). */
function docblockOf(method: Node): string {
  const previous = method.previousNamedSibling;
  return previous && isComment(previous) && previous.text.startsWith("/**") ? previous.text : "";
}

/** Attribute names of a method (`#[Test]`, `#[DataProvider('cases')]`) with their argument lists. */
function attributesOf(method: Node): Map<string, Node | null> {
  const attributes = new Map<string, Node | null>();
  const list = method.childForFieldName("attributes");
  if (!list) return attributes;
  for (const attribute of list.descendantsOfType("attribute")) {
    if (!attribute) continue;
    const name = (namedChildren(attribute)[0]?.text ?? "").split("\\").pop() ?? "";
    attributes.set(name, attribute.childForFieldName("parameters"));
  }
  return attributes;
}

/** `\\Diff\\Output\\Builder::class`, `'\\Diff\\f'`, `\\Diff\\Builder::build` -> the short name (`Builder`, `f`, `build`). */
function shortCovered(text: string): string {
  const bare = text.replace(/^['"]|['"]$/g, "").replace(/::class$/, "");
  return bare.slice(Math.max(bare.lastIndexOf("\\"), bare.lastIndexOf(":")) + 1);
}

/**
 * The code a test method or test class declares it covers (TestCase.covers):
 * `#[CoversClass(X::class)]`, `#[CoversFunction('f')]`, `#[CoversMethod(X::class, 'm')]`,
 * and the docblock's `@covers X`, `@covers X::m`, `@coversDefaultClass X` (PHPUnit manual, "Code Coverage: Targeting Units of Code").
 */
function coveredBy(declaration: Node): string[] {
  const covered: string[] = [];
  const attributes = attributesOf(declaration);
  for (const [name, parameters] of attributes) {
    const values = argumentValues(parameters).map((value) => value.text);
    if (name === "CoversClass" || name === "CoversFunction" || name === "CoversTrait") covered.push(...values.slice(0, 1).map(shortCovered));
    if (name === "CoversMethod" && values[1] !== undefined) covered.push(shortCovered(values[1]));
  }
  for (const match of docblockOf(declaration).matchAll(/@covers(?:DefaultClass)?\s+([\\\w:]+)/g)) covered.push(shortCovered(match[1] as string));
  return covered.filter((name) => name !== "");
}

/** The values of the arguments of a call (PHP wraps each in an `argument` node). */
function argumentValues(args: Node | null | undefined): Node[] {
  if (!args) return [];
  return namedChildren(args).map((arg) => (arg.type === "argument" ? (namedChildren(arg)[namedChildren(arg).length - 1] ?? arg) : arg));
}

/** Is this class one PHPUnit runs: it extends a *TestCase class (or any base, when named *Test)? */
function isTestClass(node: Node): boolean {
  const base = namedChildren(node).find((child) => child.type === "base_clause")?.text ?? "";
  const name = node.childForFieldName("name")?.text ?? "";
  const isAbstract = namedChildren(node).some((child) => child.type === "abstract_modifier");
  return !isAbstract && (/TestCase\b/.test(base) || (/Test$/.test(name) && base !== ""));
}

interface Rows {
  count: number | null;
  hashes?: string[];
  literals?: string[][];
  /** Per row, its values named by the test method's parameters (`expected: [2, 3]`), as TestCase.eachRowElements wants; absent when they do not line up. */
  elements?: string[][];
}

/** The parameter names of a method (`$config` -> `config`), in order. */
function parameterNamesOf(method: Node): string[] {
  const params = method.childForFieldName("parameters");
  return (params ? namedChildren(params) : []).map((param) => param.childForFieldName("name")?.text.replace(/^\$/, "") ?? "").filter((name) => name !== "");
}

/**
 * One provider row's values named by `names`: the elements of the row's
 * array (`yield 'case' => [[], [1, 4], [1, 2]]`, a returned array's element),
 * paired in order with the test method's parameters; null when the row is
 * no literal array of as many elements (string keys name no parameter).
 */
function namedRowElements(row: Node, names: readonly string[]): string[] | null {
  const entry = row.type === "yield_expression" ? namedChildren(row)[0] : row;
  const parts = entry ? namedChildren(entry) : [];
  const array = parts[parts.length - 1];
  if (!array || array.type !== "array_creation_expression") return null;
  const cells = namedChildren(array).filter((child) => child.type === "array_element_initializer");
  if (cells.length !== names.length || cells.some((cell) => namedChildren(cell).length !== 1)) return null;
  return cells.map((cell, index) => `${names[index] as string}: ${compactText(namedChildren(cell)[0]) ?? ""}`);
}

/**
 * The data providers a test method names, in order: every
 * `#[DataProvider('m')]` attribute and every `@dataProvider m` docblock tag
 * (PHPUnit runs the method with the rows of each; manual, "Data
 * Providers").
 */
function providerNamesOf(method: Node, docblock: string): string[] {
  const names: string[] = [];
  for (const attribute of method.childForFieldName("attributes")?.descendantsOfType("attribute") ?? []) {
    if (!attribute || (namedChildren(attribute)[0]?.text ?? "").split("\\").pop() !== "DataProvider") continue;
    const name = stringValue(argumentValues(attribute.childForFieldName("parameters"))[0]);
    if (name !== null) names.push(name);
  }
  for (const match of docblock.matchAll(/@dataProvider\s+(\w+)/g)) names.push(match[1] as string);
  return [...new Set(names)];
}

/** The rows of several providers of one test, in order: unknown (null count) when one provider's are. */
function unitedRows(all: readonly Rows[]): Rows {
  if (all.length === 1) return all[0] as Rows;
  if (all.some((rows) => rows.count === null)) return { count: null };
  const united: Rows = { count: all.reduce((sum, rows) => sum + (rows.count ?? 0), 0) };
  if (all.every((rows) => rows.hashes)) united.hashes = all.flatMap((rows) => rows.hashes ?? []);
  if (all.every((rows) => rows.literals)) united.literals = all.flatMap((rows) => rows.literals ?? []);
  if (all.every((rows) => rows.elements)) united.elements = all.flatMap((rows) => rows.elements ?? []);
  return united;
}

/** Node types of PHP loops: a `yield` in one yields a row per iteration. */
const LOOPS = new Set(["foreach_statement", "for_statement", "while_statement", "do_statement"]);

/**
 * Rows of a data provider method: the elements of its returned literal
 * array, or its `yield`s; null count otherwise, and when a `yield` runs in a
 * loop or delegates (`yield from`): those rows are not counted from the
 * source. `names` are the test method's parameters.
 */
function providerRows(provider: Node | undefined, names: readonly string[] = []): Rows {
  const body = provider?.childForFieldName("body");
  if (!body) return { count: null };
  const yields = body.descendantsOfType("yield_expression").filter((node): node is Node => node !== null);
  const isCounted = (node: Node): boolean => {
    if (/^yield\s+from\b/.test(node.text)) return false;
    for (let parent = node.parent; parent && parent.id !== body.id; parent = parent.parent)
      if (LOOPS.has(parent.type) || parent.type === "anonymous_function" || parent.type === "arrow_function") return false;
    return true;
  };
  if (!yields.every(isCounted)) return { count: null };
  const returned = namedChildren(body).find((statement) => statement.type === "return_statement");
  const array = returned ? namedChildren(returned)[0] : undefined;
  const rows = yields.length > 0 ? yields : array?.type === "array_creation_expression" ? namedChildren(array).filter((child) => child.type === "array_element_initializer") : null;
  if (!rows) return { count: null };
  const result: Rows = { count: rows.length, hashes: rows.map(hashRow), literals: rows.map(literalsOf) };
  const elements = names.length > 0 ? rows.map((row) => namedRowElements(row, names)) : [];
  if (elements.length > 0 && elements.every((row) => row !== null)) result.elements = elements as string[][];
  return result;
}

/** One PHPUnit assertion as an AssertionFact. */
function assertionFact(matcher: string, args: Node | undefined, line: number): AssertionFact {
  const rank = STRENGTH.get(matcher) ?? { strength: 1 as const };
  const values = argumentValues(args);
  const fact: AssertionFact = { line, matcher, strength: rank.strength, tautology: false };
  if (rank.negated) fact.negated = true;
  const [first, second] = values;
  if (matcher === "expectException") {
    const type = first?.text.replace(/::class$/, "") ?? "";
    if (type) fact.expected = type;
    if (BROAD_EXCEPTIONS.has(type)) fact.strength = 1;
    return fact;
  }
  // The message or code the expected exception must carry: a part of the error check, with no value under test of its own.
  if (matcher === "expectExceptionMessage" || matcher === "expectExceptionMessageMatches" || matcher === "expectExceptionCode" || /^expect(?:User)?Deprecation/.test(matcher)) {
    const value = compactText(first);
    if (value !== undefined) fact.expected = matcher === "expectExceptionCode" ? `{code:${value}}` : value;
    return fact;
  }
  if (rank.strength >= 2 && first && second) {
    fact.expected = compactText(first) as string;
    fact.actual = compactText(second) as string;
    // assertEqualsWithDelta(want, got, delta): the tolerance (checks/tolerance.ts).
    if (values[2] && matcher === "assertEqualsWithDelta") fact.tolerance = compactText(values[2]) as string;
    if (rank.strength === 3 && !rank.negated && fact.expected === fact.actual) Object.assign(fact, { strength: 0, tautology: true });
  } else if (first) {
    fact.actual = compactText(first) as string;
    if (rank.strength === 3 && matcher.startsWith("expect")) fact.expected = fact.actual;
    if ((matcher === "assertTrue" && /^true$/i.test(first.text)) || (matcher === "assertFalse" && /^false$/i.test(first.text))) {
      Object.assign(fact, { strength: 0, tautology: true });
    }
  }
  return fact;
}

function extractPhpDrafts(path: string, grammar: LoadedGrammar, root: Node): ExtractedDrafts {
  const tests: TestDraft[] = [];
  const nonTestFunctions: NonTestFunctionFact[] = [];
  const matches = queryCaptures(grammar, "tests", root);
  // Composer's vendor/ holds dependencies (sometimes committed): PHPUnit runs the project's tests, not theirs.
  const isVendored = isVendorPath(path);

  for (const match of matches) {
    const definition = match.get("definition");
    const name = match.get("name")?.text;
    const body = match.get("body");
    if (!definition || !name || !body) continue;
    const classNode = definition.parent?.parent;
    if (classNode?.type !== "class_declaration") continue;
    const className = classNode.childForFieldName("name")?.text ?? "";
    const line = definition.startPosition.row + 1;
    const bodyHash = hashNode(body);
    const docblock = docblockOf(definition);
    const attributes = attributesOf(definition);
    const isPublic = !/\b(private|protected)\b/.test(
      namedChildren(definition)
        .filter((child) => child.type === "visibility_modifier")
        .map((child) => child.text)
        .join(" "),
    );
    const isTest = !isVendored && isTestClass(classNode) && isPublic && (name.startsWith("test") || /@test\b/.test(docblock) || attributes.has("Test"));
    if (!isTest) {
      nonTestFunctions.push({ name, suitePath: [className], line, bodyHash });
      continue;
    }
    const draft: TestDraft = { name, suitePath: [className], line, node: definition, bodyHash, marks: {}, literals: literalsOf(body), body };
    const covers = [...coveredBy(definition), ...coveredBy(classNode)];
    if (covers.length > 0) draft.covers = covers;
    // `@group legacy` / `#[Group('legacy')]` (Symfony PHPUnit Bridge: a test of deprecated behaviour), `#[IgnoreDeprecations]` (PHPUnit 11).
    const groups = [...docblock.matchAll(/@group\s+(\S+)/g)].map((match) => match[1]);
    const groupAttribute = stringValue(argumentValues(attributes.get("Group"))[0]);
    if (groups.includes("legacy") || groupAttribute === "legacy" || attributes.has("IgnoreDeprecations")) draft.exercisesDeprecated = true;
    // `@requires OS Windows`, `#[RequiresPhp('8.2')]`, `#[RequiresOperatingSystemFamily(…)]`: skipped unless the requirement holds.
    const requirement = [...attributes.keys()].find((attribute) => attribute.startsWith("Requires")) ?? /@requires\s+\S+/.exec(docblock)?.[0] ?? null;
    if (requirement) draft.marks.conditional = { via: requirement.startsWith("@") ? requirement : `#[${requirement}]` };
    const providerNames = providerNamesOf(definition, docblock);
    if (providerNames.length > 0) {
      const methods = classNode.descendantsOfType("method_declaration");
      const names = parameterNamesOf(definition);
      const rows = unitedRows(providerNames.map((providerName) => providerRows(methods.find((method) => method?.childForFieldName("name")?.text === providerName) ?? undefined, names)));
      draft.eachRows = rows.count;
      if (rows.hashes) draft.eachRowHashes = rows.hashes;
      if (rows.literals) draft.eachRowLiterals = rows.literals;
      if (rows.elements) draft.eachRowElements = rows.elements;
    } else if (attributes.has("TestWith") || /@testWith\b/.test(docblock)) {
      draft.eachRows = null;
    }
    tests.push(draft);
  }

  const skips: SkipDraft[] = [];
  for (const match of matches) {
    const call = match.get("skip");
    const method = match.get("method")?.text;
    if (!call || !method) continue;
    const reason = stringValue(argumentValues(match.get("args"))[0]);
    const skip: SkipDraft = { startIndex: call.startIndex, flag: method === "markTestIncomplete" ? "todo" : "skipped", via: `${method}()`, node: call };
    if (reason !== null) skip.reason = reason;
    skips.push(skip);
  }

  const assertions: AssertionDraft[] = [];
  for (const match of queryCaptures(grammar, "assertions", root)) {
    const node = match.get("assertion");
    const matcher = match.get("matcher")?.text;
    if (!node || !matcher) continue;
    assertions.push({ ...withBoundActual(assertionFact(matcher, match.get("args"), node.startPosition.row + 1), node), startIndex: node.startIndex });
  }
  const frameworks = tests.length > 0 ? ["phpunit"] : [];
  return {
    tests,
    assertions: withTryChecks(root, assertions, PHP_TRY),
    skips,
    nonTestFunctions: tests.length > 0 || isPhpTestPath(path) ? nonTestFunctions : [],
    frameworks,
    skipReach: PHP_SKIP_REACH,
  };
}

/** A skip in `setUp()`/`setUpBeforeClass()` (or a `#[Before]`/`@before` method) reaches every test of its class; in another method, the tests calling it. */
const PHP_SKIP_REACH: SkipReach = {
  classify(fn) {
    const name = fn.childForFieldName("name")?.text;
    if (!name) return null;
    const cls = fn.parent?.type === "declaration_list" ? fn.parent.parent : null;
    const attributes = fn.type === "method_declaration" ? attributesOf(fn) : new Map();
    const isSetup = name === "setUp" || name === "setUpBeforeClass" || attributes.has("Before") || attributes.has("BeforeClass") || /@before(Class)?\b/.test(docblockOf(fn));
    if (fn.type === "method_declaration" && isSetup) return { kind: "setup", scope: cls, label: `${name}()` };
    return { kind: "helper", name };
  },
  functionTypes: new Set(["method_declaration", "function_definition"]),
};

/** A callee as the engine's log-call test reads it: `$this->logger->warning` -> `self.logger.warning`, `\\Log::error` -> `Log.error`. */
function phpCallee(call: Node): string | null {
  const target = call.childForFieldName("function") ?? call.childForFieldName("name");
  if (!target) return null;
  const scope = call.childForFieldName("object") ?? call.childForFieldName("scope");
  const name = target.text.replace(/^\\/, "");
  if (call.type === "function_call_expression") return name === "error_log" || name === "syslog" ? `log.${name}` : name;
  const receiver = (scope?.text ?? "")
    .replace(/^\\/, "")
    .replace(/^\$this\b/, "self")
    .replace(/\$/g, "")
    .replace(/(->|\?->|::)/g, ".");
  return receiver ? `${receiver}.${name}` : name;
}

/** A double-quoted string without interpolation is a constant like a single-quoted one. */
function phpConstant(node: Node): string | null {
  if (node.type !== "encapsed_string" || namedChildren(node).some((child) => child.type !== "string_content" && child.type !== "string_value")) return null;
  return JSON.stringify(node.text.slice(1, -1));
}

/** The condition of an `if` or `?:` with its parentheses dropped. */
function phpCondition(node: Node): Node | null {
  const wrapped = node.childForFieldName("condition");
  return wrapped?.type === "parenthesized_expression" && wrapped.namedChildCount === 1 ? wrapped.namedChild(0) : wrapped;
}

/** Literal branches: an `if` (each `elseif` arm too) or `?:` returning a literal, `case`/`match` arms of literals, `[k => v]` arrays (two entries or more). */
const PHP_BRANCHES: Readonly<Record<string, (node: Node) => BranchDraft[]>> = {
  if_statement: (node) => [{ kind: "branch", condition: phpCondition(node), result: node.childForFieldName("body") }],
  // `elseif (c) { return 'x'; }` / `else if`: an arm of the chain, a branch of its own.
  else_if_clause: (node) => [{ kind: "branch", condition: phpCondition(node), result: node.childForFieldName("body") }],
  conditional_expression: (node) => [{ kind: "branch", condition: phpCondition(node), result: node.childForFieldName("body") }],
  case_statement: (node) => {
    const value = node.childForFieldName("value");
    return value ? [{ kind: "branch", patterns: [value], result: namedChildren(node).filter((child) => child.id !== value.id) }] : [];
  },
  match_conditional_expression: (node) => {
    const conditions = node.childForFieldName("conditional_expressions");
    return conditions ? [{ kind: "branch", patterns: namedChildren(conditions), result: node.childForFieldName("return_expression") }] : [];
  },
  array_creation_expression: (node) => {
    const entries = namedChildren(node).filter((child) => child.type === "array_element_initializer" && child.namedChildCount === 2);
    if (entries.length < 2 || entries.length > 500) return [];
    return entries.map((entry) => ({ kind: "table" as const, patterns: [entry.namedChild(0) as Node], result: entry.namedChild(1) }));
  },
};

/** PHP's ways out of a test run: `exit`/`die` (with a status or none); `register_shutdown_function` and `set_exception_handler` hooks. */
function phpEscape(node: Node): EscapeDraft | null {
  if (node.type === "exit_statement") {
    const status = namedChildren(node)[0] ?? null;
    // `exit("message")` prints and exits with status 0.
    return { kind: "exit", code: status && status.type !== "integer" && phpConstant(status) !== null ? "0" : status };
  }
  const callee = phpCallee(node)?.replace(/^\\/, "") ?? "";
  return /^(register_shutdown_function|set_exception_handler)$/.test(callee) ? { kind: "hook" } : null;
}

const PHP_FLOW: FlowSyntax = {
  throwTypes: new Set(["throw_expression", "throw_statement"]),
  returnTypes: new Set(["return_statement"]),
  noopTypes: new Set(["empty_statement"]),
  expressionTypes: new Set(["expression_statement"]),
  callTypes: new Set(["function_call_expression", "member_call_expression", "nullsafe_member_call_expression", "scoped_call_expression"]),
  callee: phpCallee,
  constant: phpConstant,
};

/** The visibility a class member declares (`public` when it says none, as PHP does). */
function phpVisibility(member: Node): string {
  return (
    namedChildren(member)
      .find((child) => child.type === "visibility_modifier")
      ?.text.toLowerCase() ?? "public"
  );
}

/** Declarations whose name is API, each with the node holding its members. */
const PHP_TYPE_DECLARATIONS: ReadonlySet<string> = new Set(["class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"]);

/**
 * The public API one top-level statement declares (PHP manual, "Visibility":
 * members without a modifier are public): functions, classes, interfaces,
 * traits and enums, and their public methods (`Money::parse`); inside a
 * braced `namespace X { … }` as well.
 */
function phpExports(node: Node, context: CodeContext): ExportDraft[] {
  const line = node.startPosition.row + 1;
  const name = node.childForFieldName("name")?.text;
  if (node.type === "function_definition") return name ? [{ name, body: node.childForFieldName("body"), line }] : [];
  if (node.type === "namespace_definition") {
    const body = node.childForFieldName("body");
    return body ? namedChildren(body).flatMap((child) => phpExports(child, context)) : [];
  }
  if (!PHP_TYPE_DECLARATIONS.has(node.type) || !name) return [];
  const body = node.childForFieldName("body");
  const methods = (body ? namedChildren(body) : []).flatMap((member) => {
    const method = member.type === "method_declaration" && phpVisibility(member) === "public" ? member.childForFieldName("name")?.text : undefined;
    return method ? [{ name: `${name}::${method}`, body: member.childForFieldName("body"), line: member.startPosition.row + 1, ownNames: [name] }] : [];
  });
  return [{ name, body, line, ownNames: [name] }, ...methods];
}

/**
 * PHP's code facts (tree-sitter-code.ts): `@phpstan-ignore[-line|-next-line]`,
 * `@psalm-suppress`, and PHP_CodeSniffer's `@codingStandardsIgnore*` /
 * `phpcs:ignore` / `phpcs:disable`, in `//`, `#` and docblock comments;
 * functions and methods (`Class.method`) with their constant result, guards:
 * an `if` whose branch ends in `throw` or returns a result type's error
 * (an `else` that throws guards the negated condition), a `match` arm or `switch` case that throws, a
 * `foreach` over `array_filter(…)` that throws, and a function's
 * fall-through throw; `catch` blocks by what they do with the error; and
 * the public API ({@link phpExports}).
 */
/** Constants, classes and environment variables only a PHP test run has: PHPUnit's and Pest's. */
const PHP_RUNNER_KEY = /^\\?(?:PHPUNIT_|PHPUnit\\|PEST_|Pest\\)/;

/** A PHP check for the test runner (special_casing): `defined('PHPUNIT_COMPOSER_INSTALL')`, `class_exists(\PHPUnit\Framework\TestCase::class)`, `getenv('PHPUNIT_...')`. */
function isPhpRunnerCheck(node: Node): boolean {
  const name = node.childForFieldName("function")?.text.replace(/^\\/, "").toLowerCase();
  if (!name || !/^(defined|constant|class_exists|interface_exists|getenv)$/.test(name)) return false;
  const first = node.childForFieldName("arguments")?.namedChild(0);
  const text = (first?.type === "argument" ? first.namedChild(0) : first)?.text ?? "";
  const value = /^(['"])(.*)\1$/.exec(text)?.[2]?.replace(/\\\\/g, "\\") ?? text.replace(/::class$/, "");
  return PHP_RUNNER_KEY.test(value);
}

const PHP_CODE: CodeSyntax = {
  runnerChecks: { function_call_expression: isPhpRunnerCheck },
  comments: [
    { kind: "phpstan-ignore", pattern: /@phpstan-ignore(?:-line|-next-line)?\b/ },
    { kind: "psalm-suppress", pattern: /@psalm-suppress\b/ },
    { kind: "phpcs-ignore", pattern: /@codingStandardsIgnore(?:Line|Start|File)\b|\bphpcs:(?:ignore|disable)\b/ },
  ],
  functions: {
    function_definition: (node) => ({ name: node.childForFieldName("name")?.text ?? "<anonymous>", body: node.childForFieldName("body") }),
    method_declaration: (node) => ({ name: node.childForFieldName("name")?.text ?? "<anonymous>", body: node.childForFieldName("body") }),
  },
  containers: Object.fromEntries(
    ["class_declaration", "trait_declaration", "interface_declaration", "enum_declaration"].map((type) => [type, (node: Node) => node.childForFieldName("name")?.text ?? null]),
  ),
  calls: {
    function_call_expression: (node) => node.childForFieldName("function")?.text.split("\\").pop() ?? null,
    member_call_expression: (node) => node.childForFieldName("name")?.text ?? null,
    scoped_call_expression: (node) => node.childForFieldName("name")?.text ?? null,
  },
  guards: {
    if_statement: (node) => {
      const wrapped = node.childForFieldName("condition");
      const condition = wrapped?.type === "parenthesized_expression" && wrapped.namedChildCount === 1 ? wrapped.namedChild(0) : wrapped;
      if (!condition) return [];
      const guards: GuardDraft[] = [];
      const thrown = phpThrownBy(node.childForFieldName("body")) ?? phpErrorReturnedBy(node.childForFieldName("body"));
      if (thrown) guards.push({ condition, action: thrown });
      const alternatives = node.childrenForFieldName("alternative").filter((child): child is Node => child !== null);
      const onlyElse = alternatives.length === 1 && alternatives[0]?.type === "else_clause" ? alternatives[0] : null;
      const thrownElse = onlyElse ? phpThrownBy(onlyElse.childForFieldName("body")) : null;
      if (thrownElse) guards.push({ condition, action: thrownElse, isNegated: true });
      return guards;
    },
    // `elseif (c) { throw … }`: a guard on `c` (the branches before it took their own values).
    else_if_clause: (node) => {
      const wrapped = node.childForFieldName("condition");
      const condition = wrapped?.type === "parenthesized_expression" && wrapped.namedChildCount === 1 ? wrapped.namedChild(0) : wrapped;
      const thrown = phpThrownBy(node.childForFieldName("body"));
      return condition && thrown ? [{ condition, action: thrown }] : [];
    },
    binary_expression: phpThrowExpressionGuard,
    match_conditional_expression: phpArmGuard,
    case_statement: phpArmGuard,
    foreach_statement: phpLoopGuard,
    catch_clause: phpHandlerGuard,
  },
  fallthrough: (body) => (body.type === "compound_statement" ? phpThrownBy(body) : null),
  identifierTypes: new Set(["name", "variable_name"]),
  flow: PHP_FLOW,
  catches: {
    catch_clause: (node) => ({
      body: node.childForFieldName("body"),
      errorName: node.childForFieldName("name")?.text ?? null,
      caught: node.childForFieldName("type")?.text.replace(/\s+/g, " ") ?? "*",
      guarded: node.parent?.type === "try_statement" ? node.parent.childForFieldName("body") : null,
    }),
  },
  literalBranches: PHP_BRANCHES,
  state: {
    declarations: {
      static_variable_declaration: (node) => [node.childForFieldName("name")?.text ?? namedChildren(node)[0]?.text ?? ""].filter((name) => name !== ""),
      global_declaration: (node) => namedChildren(node).map((child) => child.text),
    },
    updates: { update_expression: counterTarget, augmented_assignment_expression: counterTarget, assignment_expression: counterTarget },
    // A static property (`self::$calls`, `Ticket::$calls`) or the object's own (`$this->calls`) outlives the call.
    isStateName: (name) => /^[\w\\]+::\$\w|^\$this->\w/.test(name),
  },
  escapes: { exit_statement: phpEscape, function_call_expression: phpEscape },
  isScript: (content) => content.startsWith("#!"),
  exports: Object.fromEntries(["function_definition", "namespace_definition", ...PHP_TYPE_DECLARATIONS].map((type) => [type, phpExports])),
};

/**
 * `try { $v = $this->lookup($k); } catch (\OutOfBoundsException $e) { throw
 * new E(m, 0, $e); }`: the exit of a failed lookup or conversion handled by
 * throwing (GuardFact.handler), as the `if (!array_key_exists($k, $t))
 * throw new E(m)` it spells the other way. Only a catch of lookup errors
 * ({@link LOOKUP_ERRORS}, each of `A | B`) whose block ends in a throw of
 * its own is one.
 */
function phpHandlerGuard(node: Node): GuardDraft[] {
  const caught = node.childForFieldName("type")?.text.replace(/\s+/g, " ");
  const tryBody = node.parent?.type === "try_statement" ? node.parent.childForFieldName("body") : null;
  const thrown = phpThrownBy(node.childForFieldName("body"));
  if (!tryBody || !thrown || caught === undefined || !catchesOnlyLookupErrors(caught, LOOKUP_ERRORS.php)) return [];
  const guarded = namedChildren(tryBody).filter((child) => child.type !== "comment");
  return guarded.length > 0 ? [{ condition: guarded[0] as Node, guarded, action: thrown }] : [];
}

/** The exception a PHP branch ends by throwing (`throw` as a statement or expression statement, alone or last in a block), else null. */
function phpThrownBy(branch: Node | null): Node | null {
  const last = branch?.type === "compound_statement" ? namedChildren(branch).at(-1) : branch;
  const inner = last?.type === "expression_statement" ? last.namedChild(0) : last;
  return inner?.type === "throw_expression" || inner?.type === "throw_statement" ? (namedChildren(inner)[0] ?? null) : null;
}

/**
 * A result type's error a branch returns instead of throwing: the last
 * statement `return new InvalidEmail(new Reason())` (an error result
 * object, {@link ERROR_RESULT_CLASS}), `return Error::create($m)`, `return Result::error($m)`,
 * `return Either::left($m)`, `return Err::of($m)` (graham-campbell/result-type,
 * and result and either libraries alike): the error refuses the input as a
 * throw would. Null otherwise.
 */
function phpErrorReturnedBy(branch: Node | null): Node | null {
  const last =
    branch?.type === "compound_statement"
      ? namedChildren(branch)
          .filter((child) => child.type !== "comment")
          .at(-1)
      : branch;
  if (last?.type !== "return_statement") return null;
  const value = last.namedChild(0);
  // `return new InvalidEmail(new ConsecutiveDot(), $token)`: an error result object (egulias/EmailValidator 3.x).
  if (value?.type === "object_creation_expression") {
    const created = (namedChildren(value).find((child) => /name/.test(child.type))?.text ?? "").split("\\").pop() ?? "";
    return ERROR_RESULT_CLASS.test(created) ? value : null;
  }
  if (value?.type !== "scoped_call_expression") return null;
  const scope = value.childForFieldName("scope")?.text.split("\\").pop() ?? "";
  const method = value.childForFieldName("name")?.text ?? "";
  const isErrorClass = /^(?:Error|Err|Failure|Left)$/.test(scope) && /^(?:create|of|new|make|from)$/.test(method);
  const isErrorCase = /(?:Result|Either|Outcome|Try)$/.test(scope) && /^(?:error|err|failure|fail|left)$/i.test(method);
  return isErrorClass || isErrorCase ? value : null;
}

/**
 * A PHP 8 throw expression after a logical operator: `c || throw E`, `c or
 * throw E`, `$x ?? throw E`, `$x ?: throw E` fire when the left side is false
 * or null (the negated left side, as the `if (!c) throw E` they rewrite);
 * `c && throw E`, `c and throw E` when it holds.
 */
function phpThrowExpressionGuard(node: Node): GuardDraft[] {
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  const operator = node.childForFieldName("operator")?.text ?? node.children.find((child) => child !== null && !child.isNamed)?.text ?? "";
  const thrown = right?.type === "throw_expression" ? (namedChildren(right)[0] ?? null) : null;
  if (!left || !thrown) return [];
  if (/^(\|\||or|\?\?|\?:)$/i.test(operator)) return [{ condition: left, action: thrown, isNegated: true }];
  return /^(&&|and)$/i.test(operator) ? [{ condition: left, action: thrown }] : [];
}

/** The parenthesised value a `switch`/`match` tests. */
function phpSubject(statement: Node | null | undefined): Node | null {
  const wrapped = statement?.childForFieldName("condition");
  return wrapped?.type === "parenthesized_expression" && wrapped.namedChildCount === 1 ? wrapped.namedChild(0) : (wrapped ?? null);
}

/**
 * A `match` arm or `switch` case that throws: a guard on the subject
 * matching the arm's conditions (`$n is 1 | 2`), or, in a `match (true)`,
 * on the arm's own condition (`$n > 2 => throw …`, as the `if` it
 * rewrites). `default` is left out: a catch-all rewritten as a lookup would
 * read as a guard removed.
 */
function phpArmGuard(node: Node): GuardDraft[] {
  if (node.type === "case_statement") {
    const thrown = phpThrownBy(namedChildren(node).at(-1) ?? null);
    const subject = phpSubject(node.parent?.parent);
    const value = node.childForFieldName("value");
    return thrown && subject && value ? [{ condition: subject, action: thrown, patterns: [value] }] : [];
  }
  const thrown = phpThrownBy(node.childForFieldName("return_expression"));
  const subject = phpSubject(node.parent?.parent);
  const conditions = namedChildren(node.childForFieldName("conditional_expressions") ?? node);
  if (!thrown || !subject || conditions.length === 0) return [];
  if (subject.type === "boolean" && subject.text.toLowerCase() === "true") return conditions.length === 1 ? [{ condition: conditions[0] as Node, action: thrown }] : [];
  return [{ condition: subject, action: thrown, patterns: conditions }];
}

/**
 * `foreach (array_filter($xs, fn($x) => bad($x)) as $x) { throw … }`: the
 * loop guard `foreach ($xs as $x) { if (bad($x)) throw … }` with its
 * condition moved into the filter. The body must hold nothing but the
 * throw, after assignments.
 */
function phpLoopGuard(node: Node): GuardDraft[] {
  const iterable = node.namedChild(0);
  if (iterable?.type !== "function_call_expression" || iterable.childForFieldName("function")?.text.replace(/^\\/, "") !== "array_filter") return [];
  const predicate = namedChildren(iterable.childForFieldName("arguments") ?? iterable)[1]?.namedChild(0);
  let condition: Node | null = null;
  if (predicate?.type === "arrow_function") condition = predicate.childForFieldName("body");
  else if (predicate?.type === "anonymous_function_creation_expression" || predicate?.type === "anonymous_function") {
    const statements = namedChildren(predicate.childForFieldName("body") ?? predicate);
    condition = statements.length === 1 && statements[0]?.type === "return_statement" ? statements[0].namedChild(0) : null;
  } else if (predicate?.type === "string" || predicate?.type === "encapsed_string") condition = predicate;
  const body = node.childForFieldName("body");
  const statements = body?.type === "compound_statement" ? namedChildren(body).filter((child) => child.type !== "comment") : body ? [body] : [];
  const isAssignment = (statement: Node): boolean => statement.type === "expression_statement" && statement.namedChild(0)?.type === "assignment_expression";
  const thrown = statements.length > 0 && statements.slice(0, -1).every(isAssignment) ? phpThrownBy(statements.at(-1) ?? null) : null;
  return condition && thrown ? [{ condition, action: thrown }] : [];
}

/** The PHP language module: `.php`, parsed with tree-sitter-php (see the module comment). Never throws for bad content. */
export const php = defineLanguage({
  id: "php",
  extensions: [".php"],
  queries: ["tests", "assertions"],
  isTestPath: isPhpTestPath,
  drafts: ({ path }, grammar, root) => extractPhpDrafts(path, grammar, root),
  code: PHP_CODE,
  shadows: PHP_SHADOWS,
});

/**
 * PHP `try` statements for the exception checks written by hand
 * (parsers/tree-sitter-try.ts): `catch (A | B $e)` names A and B. PHPUnit's
 * `$this->fail()` throws an AssertionFailedError, a RuntimeException, which
 * `catch (\Exception)`, `catch (\Throwable)` and `catch (\RuntimeException)` catch.
 */
const PHP_TRY: TrySyntax = {
  tryTypes: new Set(["try_statement"]),
  parts(node) {
    const handlers = namedChildren(node)
      .filter((child) => child.type === "catch_clause")
      .map((clause) => {
        const list = clause.childForFieldName("type");
        const types = list ? (list.type === "type_list" ? namedChildren(list) : [list]).map((type) => type.text.replace(/\s+/g, "")) : [];
        return { node: clause, types, statements: statementNodes(clause.childForFieldName("body")) };
      });
    return { body: statementNodes(node.childForFieldName("body")), handlers, orElse: [] };
  },
  /** `throw new E(…);` (a throw expression as a statement since PHP 8). */
  raisedType(statement) {
    const thrown = statement.type === "expression_statement" ? namedChildren(statement)[0] : statement;
    return thrown?.type === "throw_expression" || thrown?.type === "throw_statement" ? createdType(namedChildren(thrown)[0]) : null;
  },
  catchesFailure: (types) => types.some((type) => /^\\?(?:Exception|Throwable|RuntimeException)$|(?:AssertionFailedError|ExpectationFailedException|PHPUnit\\Framework\\Exception)$/.test(type)),
  /** Every assertion of the framework fails as its explicit failure does (the same error type). */
  catchesAssertion(types, fact) {
    return this.catchesFailure(types, fact);
  },
};
