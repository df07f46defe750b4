/**
 * Java: JUnit 4 and 5 (`@Test`, `@ParameterizedTest` with `@ValueSource` /
 * `@CsvSource` rows, `@RepeatedTest`, `@TestFactory`, `@Disabled*`,
 * `@Ignore`, `@Nested` classes), JUnit 3 `TestCase` subclasses, and
 * assertions (`Assertions.*`, `Assert.*`, AssertJ and Hamcrest
 * `assertThat`, Mockito `verify`), from tree-sitter-java with
 * grammars/java/*.scm. Test ids are the enclosing class names and the
 * method name.
 */

import { javaExecutionConditions, javaExtensionsApplied, javaSuiteLists } from "./java-suites.js";
import { assumptionSkips, JAVA_SKIP_CALLS } from "./assumption-skips.js";
import {
  type AssertionDraft,
  compactText,
  type ExtractedDrafts,
  hashNode,
  isLiteral,
  literalsOf,
  type LoadedGrammar,
  namedChildren,
  type Node,
  normalizeLiteral,
  queryCaptures,
  type SkipReach,
  stringValue,
  type TestDraft,
  thunkSubject,
  withBoundActual,
} from "../parsers/tree-sitter.js";
import { counterTarget, literalText, type BranchDraft, type CodeSyntax, type EscapeDraft, type ExportDraft, type FlowSyntax, type GuardDraft } from "../parsers/tree-sitter-code.js";
import { hashText, type AssertionFact, type NonTestFunctionFact } from "../facts.js";
import { isUnderTestDirectory } from "./language.js";
import { defineLanguage } from "./define-language.js";
import { catchesOnlyLookupErrors, LOOKUP_ERRORS } from "./lookup-errors.js";
import { createdType, statementNodes, withTryChecks, type TrySyntax } from "../parsers/tree-sitter-try.js";
import { JAVA_SHADOWS } from "./shadow-tables.js";

/** `src/test/...`, `*Test.java`, `*Tests.java`, `*IT.java`, `*TestCase.java`, or under a test directory. */
export function isJavaTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return isUnderTestDirectory(path) || /(Test|Tests|IT|TestCase)\.java$/.test(name) || /^Test\w*\.java$/.test(name);
}

/** Annotations that declare a test method (simple names; qualified ones are matched on their last segment). */
const TEST_ANNOTATIONS: ReadonlySet<string> = new Set(["Test", "ParameterizedTest", "RepeatedTest", "TestFactory", "TestTemplate", "Theory", "Property", "Example"]);

/** JUnit/AssertJ/Hamcrest matchers -> strength (see AssertionFact.strength). */
const STRENGTH: ReadonlyMap<string, { strength: 0 | 1 | 2 | 3; negated?: boolean }> = new Map([
  ["assertEquals", { strength: 3 }],
  ["assertArrayEquals", { strength: 3 }],
  ["assertIterableEquals", { strength: 3 }],
  ["assertLinesMatch", { strength: 3 }],
  ["assertSame", { strength: 3 }],
  ["assertNull", { strength: 3 }],
  ["assertNotEquals", { strength: 2, negated: true }],
  ["assertNotSame", { strength: 2, negated: true }],
  ["assertThrows", { strength: 2 }],
  ["assertThrowsExactly", { strength: 3 }],
  ["assertInstanceOf", { strength: 2 }],
  ["assertTimeout", { strength: 2 }],
  ["assertTimeoutPreemptively", { strength: 2 }],
  ["assertAll", { strength: 2 }],
  ["assertTrue", { strength: 1 }],
  ["assertFalse", { strength: 1, negated: true }],
  ["assertNotNull", { strength: 1, negated: true }],
  ["assertDoesNotThrow", { strength: 1 }],
  ["fail", { strength: 1 }],
  ["verify", { strength: 2 }],
  // AssertJ chain ends
  ["isEqualTo", { strength: 3 }],
  ["isSameAs", { strength: 3 }],
  ["containsExactly", { strength: 3 }],
  ["containsExactlyInAnyOrder", { strength: 3 }],
  ["isNull", { strength: 3 }],
  ["hasMessage", { strength: 3 }],
  ["hasValue", { strength: 3 }],
  ["isEqualToComparingFieldByField", { strength: 3 }],
  ["usingRecursiveComparison", { strength: 3 }],
  ["isNotEqualTo", { strength: 2, negated: true }],
  ["contains", { strength: 2 }],
  ["containsOnly", { strength: 2 }],
  ["hasSize", { strength: 2 }],
  ["startsWith", { strength: 2 }],
  ["endsWith", { strength: 2 }],
  ["matches", { strength: 2 }],
  ["isInstanceOf", { strength: 2 }],
  ["isGreaterThan", { strength: 2 }],
  ["isLessThan", { strength: 2 }],
  ["isBetween", { strength: 2 }],
  ["isCloseTo", { strength: 2 }],
  ["hasMessageContaining", { strength: 2 }],
  ["isInstanceOfAny", { strength: 2 }],
  ["doesNotContain", { strength: 2, negated: true }],
  ["isTrue", { strength: 1 }],
  ["isFalse", { strength: 1, negated: true }],
  ["isNotNull", { strength: 1, negated: true }],
  ["isNotEmpty", { strength: 1, negated: true }],
  ["isEmpty", { strength: 1 }],
  ["isPresent", { strength: 1 }],
  ["isNotBlank", { strength: 1 }],
  // Hamcrest matchers (assertThat(actual, matcher))
  ["is", { strength: 3 }],
  ["equalTo", { strength: 3 }],
  ["sameInstance", { strength: 3 }],
  ["nullValue", { strength: 3 }],
  ["containsString", { strength: 2 }],
  ["hasItem", { strength: 2 }],
  ["hasItems", { strength: 2 }],
  ["instanceOf", { strength: 2 }],
  ["greaterThan", { strength: 2 }],
  ["lessThan", { strength: 2 }],
  ["not", { strength: 2, negated: true }],
  ["notNullValue", { strength: 1, negated: true }],
  ["anything", { strength: 0 }],
]);

/** Annotation simple name -> its arguments node (null for a marker annotation), from a `modifiers` node. */
/** Annotations of a method that runs before the tests of its class: JUnit 4/5, TestNG. */
const SETUP_ANNOTATIONS: ReadonlySet<string> = new Set(["Before", "BeforeEach", "BeforeAll", "BeforeClass", "BeforeMethod"]);

/** A skip in a `@Before`/`@BeforeEach`/`@BeforeAll` method reaches every test of its class; in another method, the tests calling it. */
const JAVA_SKIP_REACH: SkipReach = {
  classify(fn) {
    const name = fn.childForFieldName("name")?.text;
    if (fn.type !== "method_declaration" || !name) return null;
    const setup = [...annotationsOf(fn).keys()].find((annotation) => SETUP_ANNOTATIONS.has(annotation));
    const cls = fn.parent?.type === "class_body" ? fn.parent.parent : null;
    if (setup) return { kind: "setup", scope: cls, label: `@${setup} ${name}()` };
    return { kind: "helper", name };
  },
  functionTypes: new Set(["method_declaration", "constructor_declaration"]),
};

function annotationsOf(declaration: Node): Map<string, Node | null> {
  const annotations = new Map<string, Node | null>();
  const modifiers = namedChildren(declaration).find((child) => child.type === "modifiers");
  if (!modifiers) return annotations;
  for (const child of namedChildren(modifiers)) {
    if (child.type !== "annotation" && child.type !== "marker_annotation") continue;
    const name = (child.childForFieldName("name")?.text ?? "").split(".").pop() ?? "";
    if (!annotations.has(name)) annotations.set(name, child.childForFieldName("arguments"));
  }
  return annotations;
}

/** The first string literal inside an annotation's arguments (a @Disabled/@Ignore reason). */
function firstString(args: Node | null | undefined): string | undefined {
  if (!args) return undefined;
  const found = args.descendantsOfType("string_literal")[0];
  return found ? (stringValue(found) ?? undefined) : undefined;
}

interface ClassFrame {
  name: string;
  node: Node;
  /** JUnit 3: `extends TestCase` (or a *TestCase base). */
  isJUnit3: boolean;
}

/** Classes enclosing a method, outermost first (anonymous and local classes end the walk: not collected). */
function enclosingClasses(method: Node): ClassFrame[] | null {
  const frames: ClassFrame[] = [];
  for (let node = method.parent; node; node = node.parent) {
    if (node.type === "class_declaration" || node.type === "enum_declaration" || node.type === "record_declaration" || node.type === "interface_declaration") {
      const superclass = node.childForFieldName("superclass")?.text ?? "";
      frames.unshift({ name: node.childForFieldName("name")?.text ?? "", node, isJUnit3: /TestCase\b/.test(superclass) });
    } else if (node.type === "object_creation_expression" || node.type === "method_declaration" || node.type === "lambda_expression") {
      return null;
    }
  }
  return frames;
}

/** A CSV row's cells (split at `delimiter`, JUnit's default `,`) as literals: numbers as written, everything else JSON-quoted. */
function csvLiterals(row: string, delimiter = ","): string[] {
  return row.split(delimiter).map((cell) => {
    const value = cell.trim().replace(/^'(.*)'$/, "$1");
    return /^-?\d+(\.\d+)?[lLdDfF]?$/.test(value) ? value : JSON.stringify(value);
  });
}

interface Rows {
  count: number | null;
  hashes?: string[];
  literals?: string[][];
}

/**
 * The parts of a `@CsvSource` (JUnit 5 CsvSource): the cell delimiter
 * (`delimiter = '|'` or `delimiterString = "|"`, default `,`) and the
 * nodes holding its rows (`value = {…}`, `textBlock = """…"""`, or the
 * annotation's single unnamed argument).
 */
function csvSourceParts(csv: Node): { delimiter: string; sources: Node[] } {
  let delimiter = ",";
  const sources: Node[] = [];
  const pairs = csv.descendantsOfType("element_value_pair").filter((pair): pair is Node => pair !== null && pair.parent?.id === csv.id);
  for (const pair of pairs) {
    const key = pair.childForFieldName("key")?.text;
    const value = pair.childForFieldName("value");
    if (!value) continue;
    if (key === "delimiter" || key === "delimiterString") delimiter = stringValue(value) || delimiter;
    else if (key === "value" || key === "textBlock") sources.push(value);
  }
  if (pairs.length === 0) sources.push(csv);
  return { delimiter, sources };
}

/** Rows of a parameterized test from its sources: @ValueSource values, @CsvSource lines; null count for method/enum/file sources. */
function parameterRows(annotations: Map<string, Node | null>): Rows | null {
  if (!annotations.has("ParameterizedTest")) return null;
  const rows: string[][] = [];
  let isKnown = false;
  const value = annotations.get("ValueSource");
  if (value) {
    isKnown = true;
    const array = value.descendantsOfType("element_value_array_initializer")[0];
    const items = array
      ? namedChildren(array)
      : namedChildren(value).flatMap((pair) => (pair.type === "element_value_pair" ? [pair.childForFieldName("value")].filter((item): item is Node => item !== null) : []));
    for (const item of items) rows.push(isLiteral(item) ? [normalizeLiteral(item)] : [item.text]);
  }
  const csv = annotations.get("CsvSource");
  if (csv) {
    isKnown = true;
    const { delimiter, sources } = csvSourceParts(csv);
    for (const source of sources) {
      for (const literal of source.descendantsOfType("string_literal")) {
        if (!literal) continue;
        const text = stringValue(literal) ?? "";
        const lines = literal.text.startsWith('"""') ? text.split("\n").filter((line) => line.trim() !== "") : [text];
        for (const line of lines) rows.push(csvLiterals(line, delimiter));
      }
    }
  }
  const hasOpaqueSource = ["MethodSource", "EnumSource", "CsvFileSource", "ArgumentsSource", "FieldSource"].some((name) => annotations.has(name));
  if (!isKnown || hasOpaqueSource) return { count: null };
  return { count: rows.length, hashes: rows.map((row) => hashText(row.join("\u0000")).slice(0, 12)), literals: rows };
}

/** The last method name of an AssertJ chain rooted at this `assertThat(x)` call, or null when it is not a chain. */
function chainEnd(call: Node): Node | null {
  let end: Node | null = null;
  for (let node = call.parent; node && node.type === "method_invocation" && node.childForFieldName("object") !== null; node = node.parent) {
    end = node;
  }
  return end;
}

/** One JUnit/AssertJ/Hamcrest assertion as an AssertionFact; null for an assertThat that is part of a chain counted elsewhere. */
function assertionFact(call: Node, matcher: string, args: Node | undefined, line: number): AssertionFact {
  const values = args ? namedChildren(args) : [];
  if (matcher === "assertThat" && values.length === 1) {
    const end = chainEnd(call);
    const endName = end?.childForFieldName("name")?.text ?? "";
    const rank = STRENGTH.get(endName) ?? { strength: 1 as const };
    const expected = end?.childForFieldName("arguments")?.namedChild(0);
    const fact: AssertionFact = { line, matcher: `assertThat.${endName || "(none)"}`, strength: end ? rank.strength : 0, tautology: !end };
    fact.actual = compactText(values[0]) as string;
    if (expected) fact.expected = compactText(expected) as string;
    if (rank.negated) fact.negated = true;
    if (endName === "isTrue" && values[0]?.type === "true") Object.assign(fact, { strength: 0, tautology: true });
    return fact;
  }
  if (matcher === "assertThat" && values.length >= 2) {
    const matcherCall = values[values.length - 1] as Node;
    const name = (matcherCall.type === "method_invocation" ? matcherCall.childForFieldName("name")?.text : matcherCall.text) ?? "";
    const rank = STRENGTH.get(name) ?? { strength: 2 as const };
    const fact: AssertionFact = { line, matcher: `assertThat(${name})`, strength: rank.strength, tautology: rank.strength === 0, actual: compactText(values[values.length - 2]) as string };
    const expected = matcherCall.childForFieldName("arguments")?.namedChild(0);
    if (expected) fact.expected = compactText(expected) as string;
    if (rank.negated) fact.negated = true;
    return fact;
  }
  const rank = STRENGTH.get(matcher) ?? { strength: 1 as const };
  const fact: AssertionFact = { line, matcher, strength: rank.strength, tautology: false };
  if (rank.negated) fact.negated = true;
  // JUnit puts an optional message first (JUnit 4) or last (JUnit 5); equality is (expected, actual).
  const operands = values.length >= 3 && values[0]?.type === "string_literal" && rank.strength === 3 ? values.slice(1) : values;
  const [first, second, third] = operands;
  // assertEquals(expected, actual, delta) on doubles/floats (and assertArrayEquals): the delta is its tolerance (checks/tolerance.ts).
  if (third && third.type !== "string_literal" && /^assert(?:Array)?Equals$/.test(matcher)) fact.tolerance = compactText(third) as string;
  if (matcher === "assertThrows" || matcher === "assertThrowsExactly") {
    const type = first?.type === "class_literal" ? (first.namedChild(0)?.text ?? "") : "";
    if (type) fact.expected = type;
    if (type === "Exception" || type === "Throwable" || type === "RuntimeException") fact.strength = 1;
    // The code it runs: assertThrows(E.class, () -> parse("")).
    const subject = second?.type === "lambda_expression" ? thunkSubject(second) : undefined;
    if (subject !== undefined) fact.actual = subject;
    return fact;
  }
  if (rank.strength >= 2 && first && second) {
    fact.expected = compactText(first) as string;
    fact.actual = compactText(second) as string;
    if (rank.strength === 3 && !rank.negated && fact.expected === fact.actual) Object.assign(fact, { strength: 0, tautology: true });
  } else if (first) {
    fact.actual = compactText(first) as string;
    if ((matcher === "assertTrue" && first.type === "true") || (matcher === "assertFalse" && first.type === "false")) Object.assign(fact, { strength: 0, tautology: true });
  }
  return fact;
}

function extractJavaDrafts(path: string, grammar: LoadedGrammar, root: Node, content: string): ExtractedDrafts {
  const tests: TestDraft[] = [];
  const nonTestFunctions: NonTestFunctionFact[] = [];
  const frameworks = new Set<string>();
  if (/\borg\.junit\.jupiter\b/.test(content)) frameworks.add("junit5");
  if (/\borg\.junit\.(Test|Assert|Ignore|\*)\b|\bjunit\.framework\b/.test(content)) frameworks.add("junit4");
  if (/\borg\.assertj\b/.test(content)) frameworks.add("assertj");
  if (/\borg\.testng\b/.test(content)) frameworks.add("testng");

  for (const match of queryCaptures(grammar, "tests", root)) {
    const definition = match.get("definition");
    const name = match.get("name")?.text;
    const body = match.get("body");
    if (!definition || !name || !body) continue;
    const classes = enclosingClasses(definition);
    if (classes === null) continue;
    const line = definition.startPosition.row + 1;
    const bodyHash = hashNode(body);
    const suitePath = classes.map((frame) => frame.name);
    const annotations = annotationsOf(definition);
    const isJUnit3 = (classes[classes.length - 1]?.isJUnit3 ?? false) && /^test/.test(name) && /\bpublic\b/.test(definition.text.slice(0, definition.text.indexOf(name)));
    const isTest = [...annotations.keys()].some((annotation) => TEST_ANNOTATIONS.has(annotation)) || isJUnit3;
    if (!isTest) {
      nonTestFunctions.push({ name, suitePath, line, bodyHash });
      continue;
    }
    const draft: TestDraft = { name, suitePath, line, node: definition, bodyHash, marks: {}, literals: literalsOf(body), body };
    // `@SuppressWarnings("deprecation")` or `@Deprecated` on the test: it exercises deprecated API.
    if (annotations.has("Deprecated") || /\bdeprecation\b/.test(annotations.get("SuppressWarnings")?.text ?? "")) draft.exercisesDeprecated = true;
    const disabling = [{ on: annotations, where: null as string | null }, ...[...classes].reverse().map((frame) => ({ on: annotationsOf(frame.node), where: `class ${frame.name}` }))];
    for (const { on, where } of disabling) {
      // @Disabled / @Ignore always skip; @DisabledOnOs, @DisabledIf…, @EnabledOnOs, @EnabledIf… only under their condition.
      const found = [...on.keys()].find((annotation) => annotation === "Ignore" || annotation.startsWith("Disabled") || /^Enabled(On|If|For|In)/.test(annotation));
      if (!found) continue;
      const reason = firstString(on.get(found));
      const via = `@${found}` + (where ? ` on ${where}` : "");
      const flag = found === "Ignore" || found === "Disabled" ? "skipped" : "conditional";
      if (!draft.marks[flag]) draft.marks[flag] = reason === undefined ? { via } : { via, reason };
      if (flag === "skipped") break;
    }
    const rows = parameterRows(annotations);
    if (rows) {
      draft.eachRows = rows.count;
      if (rows.hashes) draft.eachRowHashes = rows.hashes;
      if (rows.literals) draft.eachRowLiterals = rows.literals;
    }
    tests.push(draft);
  }

  const assertions: AssertionDraft[] = [];
  for (const match of queryCaptures(grammar, "assertions", root)) {
    const node = match.get("assertion");
    const matcher = match.get("matcher")?.text;
    if (!node || !matcher) continue;
    assertions.push({ ...withBoundActual(assertionFact(node, matcher, match.get("args"), node.startPosition.row + 1), node), startIndex: node.startIndex });
  }
  const skips = tests.length > 0 ? assumptionSkips(root, JAVA_SKIP_CALLS, "method_invocation", ["throw_statement"]) : [];
  return {
    tests,
    assertions: withTryChecks(root, assertions, JAVA_TRY),
    skips,
    nonTestFunctions: tests.length > 0 || isJavaTestPath(path) ? nonTestFunctions : [],
    frameworks: [...frameworks],
    skipReach: JAVA_SKIP_REACH,
  };
}

/** The exception a Java branch ends by throwing (a `throw` statement, or a block whose last statement is one), else null. */
function thrownBy(branch: Node | null): Node | null {
  const last = branch?.type === "block" ? namedChildren(branch).at(-1) : branch;
  return last?.type === "throw_statement" ? (namedChildren(last)[0] ?? null) : null;
}

/** The value a `switch` statement or expression tests (its parenthesised condition unwrapped). */
function switchSubject(arm: Node): Node | null {
  const block = arm.parent;
  const condition = block?.type === "switch_block" ? block.parent?.childForFieldName("condition") : null;
  return condition && condition.type === "parenthesized_expression" && condition.namedChildCount === 1 ? condition.namedChild(0) : (condition ?? null);
}

/** True for a `default` label (`default:`, `default ->`): a switch_label without a pattern. */
const isDefaultLabel = (label: Node | undefined): boolean => label?.type === "switch_label" && label.namedChildCount === 0;

/**
 * A `switch` arm that throws: a guard on the switched value. A `default`
 * arm throws for every value the other arms do not take (`default: throw new
 * IllegalArgumentException(...)`, `default -> throw ...`: the negated value,
 * as `if (!(ok)) throw` is); a `case` arm for the values its labels match
 * (`n is 1 | 2`, as the `if (n == 1 || n == 2) throw` it rewrites).
 */
function switchArmGuard(arm: Node): GuardDraft[] {
  const [label, ...rest] = namedChildren(arm);
  const thrown = thrownBy(rest.at(-1) ?? null);
  const subject = switchSubject(arm);
  if (!thrown || !subject || label?.type !== "switch_label") return [];
  if (isDefaultLabel(label)) return [{ condition: subject, action: thrown, isNegated: true }];
  return [{ condition: subject, action: thrown, patterns: namedChildren(label) }];
}

/** Stream terminals that run a callback for the elements left (`.forEach(x -> …)`, `.findFirst().ifPresent(x -> …)`). */
const JAVA_EACH = new Set(["forEach", "ifPresent", "forEachOrdered"]);

/**
 * `xs.stream().filter(x -> bad(x)).findFirst().ifPresent(x -> { throw … })`
 * (or `.forEach`): the loop guard `for (X x : xs) if (bad(x)) throw …` with
 * its condition moved into the filter. The callback must hold nothing but
 * the throw.
 */
function streamFilterGuard(node: Node): GuardDraft[] {
  if (!JAVA_EACH.has(node.childForFieldName("name")?.text ?? "")) return [];
  const callback = node.childForFieldName("arguments")?.namedChild(0);
  const body = callback?.type === "lambda_expression" ? callback.childForFieldName("body") : null;
  const statements = body?.type === "block" ? namedChildren(body).filter((child) => !child.type.endsWith("comment")) : [];
  const thrown = statements.length > 0 && statements.slice(0, -1).every((statement) => statement.type === "local_variable_declaration") ? thrownBy(statements.at(-1) ?? null) : null;
  if (!thrown) return [];
  for (let chain = node.childForFieldName("object"); chain?.type === "method_invocation"; chain = chain.childForFieldName("object")) {
    if (chain.childForFieldName("name")?.text !== "filter") continue;
    const predicate = chain.childForFieldName("arguments")?.namedChild(0);
    const condition = predicate?.type === "lambda_expression" ? predicate.childForFieldName("body") : predicate;
    return condition && condition.type !== "block" ? [{ condition, action: thrown }] : [];
  }
  return [];
}

/** `Integer.parseUnsignedInt(s)`, `Long.parseUnsignedLong(s)` (java.lang: a NumberFormatException on a negative input). */
const JAVA_UNSIGNED_PARSE = /^(?:(?:java\.lang\.)?(?:Integer|Long)\.)?(?:parseUnsignedInt|parseUnsignedLong)$/;

/** `int v = Integer.parseUnsignedInt(s)`: `v` (FunctionFact.unsignedValues); the exception reaches the caller. */
function javaUnsignedValues(node: Node): string[] {
  const name = node.childForFieldName("name");
  const value = node.childForFieldName("value");
  if (name?.type !== "identifier" || value?.type !== "method_invocation") return [];
  const object = value.childForFieldName("object")?.text;
  const callee = `${object ? `${object}.` : ""}${value.childForFieldName("name")?.text ?? ""}`;
  return JAVA_UNSIGNED_PARSE.test(callee) ? [name.text] : [];
}

/** `static final boolean X = false;` fields (a build flavour's source set gives each its own value). */
function javaConstants(node: Node): { name: string; value: Node | null }[] {
  const modifiers = javaModifiers(node);
  if (!modifiers.has("static") || !modifiers.has("final")) return [];
  return node.childrenForFieldName("declarator").flatMap((declarator) => {
    const name = declarator?.childForFieldName("name")?.text;
    return name ? [{ name, value: declarator?.childForFieldName("value") ?? null }] : [];
  });
}

/** A `case` arm's literal labels and what it yields (its statements, or the expression after `->`). */
function switchArmBranch(arm: Node): BranchDraft[] {
  const [label, ...rest] = namedChildren(arm);
  if (!label || label.type !== "switch_label" || isDefaultLabel(label)) return [];
  const result = arm.type === "switch_rule" && rest.length === 1 && rest[0]?.type === "expression_statement" ? (rest[0].namedChild(0) ?? null) : rest;
  return [{ kind: "branch", patterns: namedChildren(label), result }];
}

/** Factories of literal maps: `Map.of(k1, v1, k2, v2)`, Guava `ImmutableMap.of(...)`. */
function mapOfTable(node: Node): BranchDraft[] {
  const object = node.childForFieldName("object")?.text ?? "";
  if (node.childForFieldName("name")?.text !== "of" || !/^(Map|ImmutableMap)$/.test(object)) return [];
  const args = namedChildren(node.childForFieldName("arguments") ?? node);
  if (args.length < 4 || args.length % 2 !== 0) return [];
  const drafts: BranchDraft[] = [];
  for (let i = 0; i + 1 < args.length; i += 2) drafts.push({ kind: "table", patterns: [args[i] as Node], result: args[i + 1] as Node });
  return drafts;
}

/** Java's ways out of a test run: `System.exit(0)`, `Runtime.getRuntime().exit/halt(0)`; shutdown hooks and default uncaught-exception handlers. */
function javaEscape(node: Node): EscapeDraft | null {
  const callee = JAVA_FLOW.callee(node)?.replace(/\s+/g, "") ?? "";
  const first = node.childForFieldName("arguments")?.namedChild(0) ?? null;
  if (/^(System\.exit|Runtime\.getRuntime\(\)\.(exit|halt))$/.test(callee)) return { kind: "exit", code: first };
  if (/(^|\.)(addShutdownHook|setDefaultUncaughtExceptionHandler)$/.test(callee)) return { kind: "hook" };
  return null;
}

/** Precondition calls that throw when their first argument fails: Guava `checkArgument`, `Objects.requireNonNull`, Spring `Assert.notNull`. */
/**
 * `try { n = Integer.parseInt(s); } catch (NumberFormatException e) { throw
 * new E(m, e); }`: the exit of a failed lookup or conversion handled by
 * throwing (GuardFact.handler), as the `if (!s.matches("[0-9]+")) throw new
 * E(m)` it spells the other way. Only a catch of lookup errors ({@link
 * LOOKUP_ERRORS}, each of a multi-catch) whose block ends in a throw of its
 * own is one.
 */
function javaHandlerGuard(node: Node): GuardDraft[] {
  const types = node.descendantsOfType("catch_type")[0];
  const caught = types ? namedChildren(types).map((type) => type.text) : [];
  const tryNode = node.parent?.type === "try_statement" || node.parent?.type === "try_with_resources_statement" ? node.parent : null;
  const tryBody = tryNode?.childForFieldName("body") ?? null;
  const thrown = thrownBy(node.childForFieldName("body"));
  if (!tryBody || !thrown || caught.length === 0 || !catchesOnlyLookupErrors(caught.join("|"), LOOKUP_ERRORS.java)) return [];
  const guarded = namedChildren(tryBody).filter((child) => !child.type.endsWith("comment"));
  return guarded.length > 0 ? [{ condition: guarded[0] as Node, guarded, action: thrown }] : [];
}

/**
 * `opt.orElseThrow(() -> new E(m))`, `orElseThrow(E::new)`, `orElseThrow()`
 * (NoSuchElementException): the exit of an empty Optional (a failed lookup,
 * `Optional.ofNullable(map.get(k))`) as a handled lookup's guard
 * (GuardFact.handler) on the receiver, as the `if (v == null) throw new
 * E(m)` it spells the other way. The supplier's exception is the action.
 */
function orElseThrowGuard(node: Node): GuardDraft[] {
  const receiver = node.childForFieldName("object");
  const supplier = node.childForFieldName("arguments")?.namedChild(0) ?? null;
  if (!receiver) return [];
  if (supplier === null) return [{ condition: receiver, guarded: [receiver], action: "NoSuchElementException" }];
  let action: Node | null = supplier.type === "method_reference" ? supplier : null;
  if (supplier.type === "lambda_expression") {
    const body = supplier.childForFieldName("body");
    const last = body?.type === "block" ? namedChildren(body).at(-1) : null;
    action = body?.type === "block" ? (last?.type === "return_statement" ? (last.namedChild(0) ?? null) : null) : (body ?? null);
  }
  return action ? [{ condition: receiver, guarded: [receiver], action }] : [];
}

/**
 * Calls that throw when their argument fails a check (Guava Preconditions,
 * java.util.Objects, Spring's Assert), each a guard on its first argument.
 */
const JAVA_PRECONDITIONS: ReadonlySet<string> = new Set([
  "checkArgument",
  "checkState",
  "checkNotNull",
  "checkElementIndex",
  "checkPositionIndex",
  "requireNonNull",
  "notNull",
  "isTrue",
  "hasText",
  "state",
]);

/**
 * The preconditions of {@link JAVA_PRECONDITIONS} that return nothing
 * (Guava's checkArgument/checkState, Spring's Assert.notNull/isTrue/hasText/state):
 * one is a guard only as a statement of its own. A call of that name whose
 * value is used is a predicate of the same name that answers a boolean
 * (Spring's StringUtils.hasText, a project's `Strings.hasText`:
 * `this.required = Strings.hasText(msg)`, `if (!Strings.hasText(id))`), and
 * checks nothing by itself. Those that return their argument
 * (requireNonNull, checkNotNull, checkElementIndex) guard wherever they are called.
 */
const JAVA_VOID_PRECONDITIONS: ReadonlySet<string> = new Set(["checkArgument", "checkState", "notNull", "isTrue", "hasText", "state"]);

/** Annotation names that silence a checker: `@SuppressWarnings`, SpotBugs' `@SuppressFBWarnings`. */
const JAVA_SUPPRESSING_ANNOTATION = /^(?:[\w.]+\.)?Suppress(?:FB)?Warnings$/;

/** A Java annotation node as a `suppress-warnings` fact when it names a suppressing annotation. */
function javaSuppression(node: Node): { kind: "suppress-warnings" } | null {
  return JAVA_SUPPRESSING_ANNOTATION.test(node.childForFieldName("name")?.text ?? "") ? { kind: "suppress-warnings" } : null;
}

const JAVA_FLOW: FlowSyntax = {
  throwTypes: new Set(["throw_statement"]),
  returnTypes: new Set(["return_statement"]),
  noopTypes: new Set([";", "empty_statement"]),
  expressionTypes: new Set(["expression_statement"]),
  callTypes: new Set(["method_invocation"]),
  callee: (call) => {
    const name = call.childForFieldName("name")?.text;
    if (!name) return null;
    const object = call.childForFieldName("object")?.text;
    return object ? `${object}.${name}` : name;
  },
};

/** System properties, environment variables and classes only a test run has: surefire's, JUnit's, Gradle's test worker. */
const JAVA_RUNNER_KEY = /^(surefire|failsafe|junit|org\.junit|org\.testng|org\.gradle\.test|org\.mockito)/i;

/** A Java check for the test runner (special_casing): `System.getProperty("surefire.test.class.path")`, `Class.forName("org.junit.Test")`. */
function isJavaRunnerCheck(node: Node): boolean {
  const name = node.childForFieldName("name")?.text ?? "";
  // A stack frame's or class's name compared with a runner's package: `frame.getClassName().startsWith("org.junit.")`.
  const isNameMatch = /^(startsWith|contains|equals|matches)$/.test(name) && /\.(getClassName|getName)\s*\(\s*\)$/.test(node.childForFieldName("object")?.text ?? "");
  if (!isNameMatch && !/^(getProperty|getenv|forName)$/.test(name)) return false;
  const first = literalText(node.childForFieldName("arguments")?.namedChild(0));
  return first !== null && first.startsWith('"') && JAVA_RUNNER_KEY.test(JSON.parse(first) as string);
}

/** Type declarations: their public ones are API, with their public methods. */
const JAVA_TYPE_DECLARATIONS: ReadonlySet<string> = new Set(["class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration"]);

/** The keywords among a declaration's modifiers (`public`, `static`, …), annotations left out. */
function javaModifiers(declaration: Node): Set<string> {
  const modifiers = namedChildren(declaration).find((child) => child.type === "modifiers");
  return new Set((modifiers?.children ?? []).flatMap((child) => (child && !child.isNamed ? [child.type] : [])));
}

/**
 * The public API of a top-level type declaration (JLS §6.6 "Access
 * Control"): the type when it is `public`, and its members that are public
 * too: methods marked `public`, every method of an interface not marked
 * `private`, nested types the same way (`Money.Builder`). Names are
 * `Type.method`.
 */
function javaExports(node: Node, prefix = "", isInterfaceMember = false): ExportDraft[] {
  const name = node.childForFieldName("name")?.text;
  const modifiers = javaModifiers(node);
  const isPublic = modifiers.has("public") || (isInterfaceMember && !modifiers.has("private") && !modifiers.has("protected"));
  if (!JAVA_TYPE_DECLARATIONS.has(node.type) || !name || !isPublic) return [];
  const qualified = `${prefix}${name}`;
  const isInterface = node.type === "interface_declaration" || node.type === "annotation_type_declaration";
  const body = node.childForFieldName("body");
  const members = (body ? namedChildren(body) : []).flatMap((member) => (member.type === "enum_body_declarations" ? namedChildren(member) : [member]));
  const exports: ExportDraft[] = [{ name: qualified, body, line: node.startPosition.row + 1, ownNames: [name] }];
  for (const member of members) {
    if (JAVA_TYPE_DECLARATIONS.has(member.type)) {
      exports.push(...javaExports(member, `${qualified}.`, isInterface));
      continue;
    }
    if (member.type !== "method_declaration") continue;
    const memberModifiers = javaModifiers(member);
    const isPublicMember = memberModifiers.has("public") || (isInterface && !memberModifiers.has("private"));
    const method = member.childForFieldName("name")?.text;
    if (isPublicMember && method) exports.push({ name: `${qualified}.${method}`, body: member.childForFieldName("body"), line: member.startPosition.row + 1, ownNames: [name] });
  }
  return exports;
}

/**
 * Java's code facts (tree-sitter-code.ts): `@SuppressWarnings(...)`
 * annotations, methods and constructors (`Class.method`), and guards: an
 * `if` whose branch ends in `throw` (an `else` that throws guards the
 * negated condition), precondition calls
 * (`Preconditions.checkArgument(x > 0)`, `Objects.requireNonNull(x)`), a
 * `switch` arm that throws, a stream `.filter(…)` whose `forEach`/`ifPresent`
 * throws, and a method's fall-through throw; `Integer.parseUnsignedInt`
 * bindings and `static final boolean` fields;
 * `catch` blocks by what they do with the error, runner checks, and the
 * public API ({@link javaExports}). `assert` statements are no guards:
 * Java runs without `-ea` unless told, so they check nothing in production.
 */
const JAVA_CODE: CodeSyntax = {
  comments: [],
  suppressions: { annotation: javaSuppression, marker_annotation: javaSuppression },
  functions: {
    method_declaration: (node) => ({ name: node.childForFieldName("name")?.text ?? "<anonymous>", body: node.childForFieldName("body") }),
    constructor_declaration: (node) => ({ name: node.childForFieldName("name")?.text ?? "<init>", body: node.childForFieldName("body") }),
  },
  containers: Object.fromEntries(
    ["class_declaration", "interface_declaration", "enum_declaration", "record_declaration"].map((type) => [type, (node: Node) => node.childForFieldName("name")?.text ?? null]),
  ),
  calls: { method_invocation: (node) => node.childForFieldName("name")?.text ?? null },
  guards: {
    if_statement: (node) => {
      const wrapped = node.childForFieldName("condition");
      const condition = wrapped && wrapped.namedChildCount === 1 ? (wrapped.namedChild(0) ?? wrapped) : wrapped;
      if (!condition) return [];
      const guards: GuardDraft[] = [];
      const thrown = thrownBy(node.childForFieldName("consequence"));
      if (thrown) guards.push({ condition, action: thrown });
      const alternative = node.childForFieldName("alternative");
      const thrownElse = alternative && alternative.type !== "if_statement" ? thrownBy(alternative) : null;
      if (thrownElse) guards.push({ condition, action: thrownElse, isNegated: true });
      return guards;
    },
    // No `assert_statement`: Java runs without -ea unless asked, so an `assert` guards nothing in production.
    switch_block_statement_group: switchArmGuard,
    switch_rule: switchArmGuard,
    catch_clause: javaHandlerGuard,
    method_invocation: (node) => {
      const name = node.childForFieldName("name")?.text ?? "";
      const first = node.childForFieldName("arguments")?.namedChild(0);
      if (name === "orElseThrow") return orElseThrowGuard(node);
      if (!JAVA_PRECONDITIONS.has(name) || !first) return streamFilterGuard(node);
      if (JAVA_VOID_PRECONDITIONS.has(name) && node.parent?.type !== "expression_statement") return [];
      const object = node.childForFieldName("object")?.text;
      return [{ condition: first, action: object ? `${object}.${name}` : name }];
    },
  },
  fallthrough: (body) => (body.type === "block" ? thrownBy(body) : null),
  unsignedValues: { variable_declarator: javaUnsignedValues },
  constants: { field_declaration: javaConstants },
  identifierTypes: new Set(["identifier"]),
  flow: JAVA_FLOW,
  catches: {
    catch_clause: (node) => {
      const parameter = namedChildren(node).find((child) => child.type === "catch_formal_parameter");
      const caught = parameter
        ? namedChildren(parameter)
            .find((child) => child.type === "catch_type")
            ?.text.replace(/\s+/g, " ")
        : undefined;
      const guarded = node.parent?.type === "try_statement" || node.parent?.type === "try_with_resources_statement" ? node.parent.childForFieldName("body") : null;
      return { body: node.childForFieldName("body"), errorName: parameter?.childForFieldName("name")?.text ?? null, caught: caught ?? "*", guarded };
    },
  },
  state: {
    declarations: {
      field_declaration: (node) =>
        javaModifiers(node).has("static")
          ? node.descendantsOfType("variable_declarator").flatMap((declarator) => (declarator?.childForFieldName("name") ? [declarator.childForFieldName("name")?.text as string] : []))
          : [],
    },
    updates: { update_expression: counterTarget, assignment_expression: counterTarget },
  },
  literalBranches: {
    if_statement: (node) => {
      const wrapped = node.childForFieldName("condition");
      const condition = wrapped && wrapped.namedChildCount === 1 ? (wrapped.namedChild(0) ?? wrapped) : wrapped;
      return [{ kind: "branch", condition, result: node.childForFieldName("consequence") }];
    },
    ternary_expression: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
    switch_block_statement_group: switchArmBranch,
    switch_rule: switchArmBranch,
    method_invocation: mapOfTable,
  },
  escapes: { method_invocation: javaEscape },
  isScript: (content) => /\bstatic\s+(?:public\s+|final\s+)*void\s+main\s*\(/.test(content),
  runnerChecks: { method_invocation: isJavaRunnerCheck },
  exports: Object.fromEntries([...JAVA_TYPE_DECLARATIONS].map((type) => [type, (node: Node) => javaExports(node)])),
};

/** The Java language module: `.java`, parsed with tree-sitter-java (see the module comment). Never throws for bad content. */
export const java = defineLanguage({
  id: "java",
  extensions: [".java"],
  queries: ["tests", "assertions"],
  isTestPath: isJavaTestPath,
  drafts: ({ path, content }, grammar, root) => extractJavaDrafts(path, grammar, root, content),
  code: JAVA_CODE,
  shadows: JAVA_SHADOWS,
  finish: (facts, { content }) => {
    const suites = facts.parseError === undefined && facts.notAnalyzed === undefined ? javaSuiteLists(content) : [];
    if (suites.length > 0) facts.suiteLists = suites;
    if (facts.parseError === undefined && facts.notAnalyzed === undefined) {
      const applied = javaExtensionsApplied(content);
      if (applied.length > 0) facts.extensionsApplied = applied;
      const conditions = javaExecutionConditions(content);
      if (conditions.length > 0) facts.executionConditions = conditions;
    }
    return facts;
  },
});

/**
 * Java `try` statements for the exception checks written by hand
 * (parsers/tree-sitter-try.ts): `catch (A | B e)` names A and B. JUnit's
 * `fail()` throws an AssertionError (JUnit 5: opentest4j's
 * AssertionFailedError, one), which `catch (Throwable)`, `catch (Error)` and
 * `catch (AssertionError)` catch and `catch (Exception)` does not.
 */
const JAVA_TRY: TrySyntax = {
  tryTypes: new Set(["try_statement", "try_with_resources_statement"]),
  parts(node) {
    const handlers = namedChildren(node)
      .filter((child) => child.type === "catch_clause")
      .map((clause) => {
        const types = clause.descendantsOfType("catch_type")[0];
        return { node: clause, types: types ? namedChildren(types).map((type) => type.text) : [], statements: statementNodes(clause.childForFieldName("body")) };
      });
    return { body: statementNodes(node.childForFieldName("body")), handlers, orElse: [] };
  },
  /** `throw new E(…)`. */
  raisedType: (statement) => (statement.type === "throw_statement" ? createdType(namedChildren(statement)[0]) : null),
  catchesFailure: (types) => types.some((type) => /^(?:java\.lang\.)?(?:Throwable|Error|AssertionError)$|AssertionFailedError$|ComparisonFailure$/.test(type)),
  /** Every assertion of the framework fails as its explicit failure does (the same error type). */
  catchesAssertion(types, fact) {
    return this.catchesFailure(types, fact);
  },
};
