/**
 * C#: xUnit (`[Fact]`, `[Theory]` + `[InlineData]`, `Skip = "..."`; xBehave's
 * and LightBDD's `[Scenario]`), NUnit
 * (`[Test]`, `[TestCase]`, `[Ignore]`, `[Explicit]`), MSTest
 * (`[TestMethod]`, `[DataTestMethod]` + `[DataRow]`, `[Ignore]`), and
 * assertions (`Assert.*`, `CollectionAssert.*`, `StringAssert.*`, NUnit
 * `Assert.That(x, Is...)`, FluentAssertions `x.Should().Be(y)`), from
 * tree-sitter-c-sharp with the one flat query grammars/csharp/facts.scm. Test ids are the
 * enclosing class names and the method name (namespaces left out, so a
 * namespace move is not a rename).
 */

import { assumptionSkips, CSHARP_SKIP_CALLS } from "./assumption-skips.js";
import {
  type AssertionDraft,
  compactText,
  type ExtractedDrafts,
  hashNode,
  hashRow,
  literalsOf,
  type LoadedGrammar,
  namedChildren,
  type Node,
  queryCaptures,
  type SkipReach,
  stringValue,
  type TestDraft,
  thunkSubject,
  withBoundActual,
} from "../parsers/tree-sitter.js";
import { counterTarget, type BranchDraft, type CodeSyntax, type EscapeDraft, type ExportDraft, type FlowSyntax, type GuardDraft } from "../parsers/tree-sitter-code.js";
import type { AssertionFact, NonTestFunctionFact } from "../facts.js";
import { isUnderTestDirectory } from "./language.js";
import { defineLanguage } from "./define-language.js";
import { catchesOnlyLookupErrors, LOOKUP_ERRORS } from "./lookup-errors.js";
import { createdType, statementNodes, withTryChecks, type TrySyntax } from "../parsers/tree-sitter-try.js";
import { CSHARP_SHADOWS } from "./shadow-tables.js";

/** `*Tests.cs`, `*Test.cs`, a `*.Tests`/`*.UnitTests` project folder, or under a test directory. */
export function isCSharpTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const folders = path.split("/").slice(0, -1);
  return isUnderTestDirectory(path) || /Tests?\.cs$/.test(name) || folders.some((folder) => /\.(\w*Tests?|Specs?)$/i.test(folder));
}

/**
 * Attributes that declare a test method; custom xUnit attributes ending in
 * Fact/Theory count too. `Scenario` is xBehave.net's and its fork
 * LambdaTale's (an xUnit FactAttribute whose body's `"step".x(() => …)`
 * lambdas hold the checks) and LightBDD's.
 */
const TEST_ATTRIBUTES: ReadonlySet<string> = new Set(["Fact", "Theory", "Test", "TestCase", "TestCaseSource", "TestMethod", "DataTestMethod", "Property", "Scenario"]);

/** Row attributes of parametrised tests. */
const ROW_ATTRIBUTES: ReadonlySet<string> = new Set(["InlineData", "TestCase", "DataRow"]);

/** Data sources whose rows are not literal here. */
const OPAQUE_SOURCES: ReadonlySet<string> = new Set(["MemberData", "ClassData", "TestCaseSource", "DynamicData", "ValueSource"]);

/** Assertion method (or FluentAssertions matcher) -> strength; unknown ones count as truthiness checks. */
const STRENGTH: ReadonlyMap<string, { strength: 0 | 1 | 2 | 3; negated?: boolean }> = new Map([
  ["Equal", { strength: 3 }],
  ["StrictEqual", { strength: 3 }],
  ["Equivalent", { strength: 3 }],
  ["Same", { strength: 3 }],
  ["Null", { strength: 3 }],
  ["AreEqual", { strength: 3 }],
  ["AreSame", { strength: 3 }],
  ["AreEquivalent", { strength: 3 }],
  ["IsNull", { strength: 3 }],
  ["Be", { strength: 3 }],
  ["BeEquivalentTo", { strength: 3 }],
  ["BeSameAs", { strength: 3 }],
  ["BeNull", { strength: 3 }],
  ["ThrowExactly", { strength: 3 }],
  ["ThrowsExactly", { strength: 3 }],
  ["Throws", { strength: 2 }],
  ["ThrowsAsync", { strength: 2 }],
  ["ThrowsException", { strength: 2 }],
  ["ThrowsExceptionAsync", { strength: 2 }],
  ["Throw", { strength: 2 }],
  ["ThrowAsync", { strength: 2 }],
  ["Contains", { strength: 2 }],
  ["Contain", { strength: 2 }],
  ["Single", { strength: 2 }],
  ["IsType", { strength: 2 }],
  ["IsAssignableFrom", { strength: 2 }],
  ["IsInstanceOf", { strength: 2 }],
  ["IsInstanceOfType", { strength: 2 }],
  ["BeOfType", { strength: 2 }],
  ["InRange", { strength: 2 }],
  ["Matches", { strength: 2 }],
  ["StartsWith", { strength: 2 }],
  ["EndsWith", { strength: 2 }],
  ["StartWith", { strength: 2 }],
  ["EndWith", { strength: 2 }],
  ["HaveCount", { strength: 2 }],
  ["Match", { strength: 2 }],
  ["BeGreaterThan", { strength: 2 }],
  ["BeLessThan", { strength: 2 }],
  ["BeGreaterThanOrEqualTo", { strength: 2 }],
  ["BeLessThanOrEqualTo", { strength: 2 }],
  ["Greater", { strength: 2 }],
  ["Less", { strength: 2 }],
  ["NotEqual", { strength: 2, negated: true }],
  ["AreNotEqual", { strength: 2, negated: true }],
  ["NotBe", { strength: 2, negated: true }],
  ["DoesNotContain", { strength: 2, negated: true }],
  ["NotContain", { strength: 2, negated: true }],
  ["ThrowsAny", { strength: 1 }],
  ["ThrowsAnyAsync", { strength: 1 }],
  ["True", { strength: 1 }],
  ["IsTrue", { strength: 1 }],
  ["BeTrue", { strength: 1 }],
  ["False", { strength: 1, negated: true }],
  ["IsFalse", { strength: 1, negated: true }],
  ["BeFalse", { strength: 1, negated: true }],
  ["NotNull", { strength: 1, negated: true }],
  ["IsNotNull", { strength: 1, negated: true }],
  ["NotBeNull", { strength: 1, negated: true }],
  ["Empty", { strength: 1 }],
  ["NotEmpty", { strength: 1, negated: true }],
  ["IsEmpty", { strength: 1 }],
  ["IsNotEmpty", { strength: 1, negated: true }],
  ["BeEmpty", { strength: 1 }],
  ["NotBeEmpty", { strength: 1, negated: true }],
  ["NotThrow", { strength: 1 }],
  ["DoesNotThrow", { strength: 1 }],
  ["Pass", { strength: 0 }],
  ["Fail", { strength: 1 }],
]);

/** Exception types too broad to pin a failure down. */
const BROAD_EXCEPTIONS: ReadonlySet<string> = new Set(["Exception", "System.Exception", "SystemException"]);

interface Attribute {
  name: string;
  node: Node;
  args: Node[];
}

/**
 * A property's, indexer's or event's accessor as a function, named as the
 * CLR names it (ECMA-335 §II.17, §II.18: `get_Name`, `set_Name`, `init`
 * as `set_Name`, `add_Name`, `remove_Name`; an indexer's `get_Item`), so a
 * guard in a getter belongs to it and goes with the property
 * (FluentValidation 77efb3b8 removed `CascadeMode { get { … throw … } }`,
 * read as a guard of module code removed).
 */
function csharpAccessor(node: Node): { name: string; body: Node | null } | null {
  const owner = node.parent?.type === "accessor_list" ? node.parent.parent : null;
  if (!owner) return null;
  const name = owner.type === "indexer_declaration" ? "Item" : (owner.childForFieldName("name")?.text ?? namedChildren(owner).find((child) => child.type === "variable_declaration")?.text);
  const keyword = node.children.find((child) => child !== null && /^(?:get|set|init|add|remove)$/.test(child.type))?.type;
  if (!name || !keyword) return null;
  const body = node.childForFieldName("body") ?? namedChildren(node).find((child) => child.type === "block" || child.type === "arrow_expression_clause") ?? null;
  return { name: `${keyword === "init" ? "set" : keyword}_${name}`, body };
}

/** The attributes of a declaration, with `Attribute` suffixes and namespaces dropped from their names. */
/** Attributes of a method that runs before the tests of its class: NUnit, MSTest. */
const SETUP_ATTRIBUTES: ReadonlySet<string> = new Set(["SetUp", "OneTimeSetUp", "TestInitialize", "ClassInitialize"]);

/** A skip in a `[SetUp]`/`[TestInitialize]` method or a constructor (xUnit builds the class per test) reaches every test of its class; in another method, the tests calling it. */
const CSHARP_SKIP_REACH: SkipReach = {
  classify(fn) {
    const name = fn.childForFieldName("name")?.text;
    if (!name) return null;
    const cls = fn.parent?.type === "declaration_list" ? fn.parent.parent : null;
    if (fn.type === "constructor_declaration") return { kind: "setup", scope: cls, label: `constructor ${name}()` };
    if (fn.type !== "method_declaration") return null;
    const setup = attributesOf(fn).find((attribute) => SETUP_ATTRIBUTES.has(attribute.name));
    if (setup) return { kind: "setup", scope: cls, label: `[${setup.name}] ${name}()` };
    return { kind: "helper", name };
  },
  functionTypes: new Set(["method_declaration", "constructor_declaration", "local_function_statement"]),
};

function attributesOf(declaration: Node): Attribute[] {
  const attributes: Attribute[] = [];
  for (const list of namedChildren(declaration)) {
    if (list.type !== "attribute_list") continue;
    for (const attribute of namedChildren(list)) {
      if (attribute.type !== "attribute") continue;
      const raw = attribute.childForFieldName("name")?.text ?? namedChildren(attribute)[0]?.text ?? "";
      const name = (raw.split(".").pop() ?? "").replace(/Attribute$/, "");
      const argumentList = namedChildren(attribute).find((child) => child.type === "attribute_argument_list");
      attributes.push({ name, node: attribute, args: argumentList ? namedChildren(argumentList) : [] });
    }
  }
  return attributes;
}

/**
 * The classes a test or its fixture declares it tests (TestCase.covers):
 * NUnit `[TestOf(typeof(X))]` and `[TestFixture(TestOf = typeof(X))]`, by short name.
 */
function testOf(attributes: readonly Attribute[]): string[] {
  const types: Node[] = [];
  for (const attribute of attributes) {
    if (attribute.name === "TestOf") types.push(...attribute.args.flatMap((arg) => namedChildren(arg)));
    const named = attribute.name === "TestFixture" ? namedArgument(attribute, "TestOf") : undefined;
    if (named) types.push(named);
  }
  return types.flatMap((node) => {
    const match = /^typeof\((?:[\w.]+\.)?(\w+)(?:<.*>)?\)$/.exec(node.text.replace(/\s+/g, ""));
    return match ? [match[1] as string] : [];
  });
}

/** A named attribute argument (`Skip = "why"`), or undefined. */
function namedArgument(attribute: Attribute, name: string): Node | undefined {
  for (const arg of attribute.args) {
    const equals = namedChildren(arg).find((child) => child.type === "name_equals");
    if (equals && namedChildren(equals)[0]?.text === name) return namedChildren(arg).find((child) => child.type !== "name_equals");
    const colon = namedChildren(arg).find((child) => child.type === "name_colon");
    if (colon && namedChildren(colon)[0]?.text === name) return namedChildren(arg).find((child) => child.type !== "name_colon");
  }
  return undefined;
}

function isTestAttribute(name: string): boolean {
  return TEST_ATTRIBUTES.has(name) || /(Fact|Theory)$/.test(name);
}

/** The classes enclosing a method, outermost first; null inside a local function or lambda. */
function enclosingClasses(method: Node): Node[] | null {
  const classes: Node[] = [];
  for (let node = method.parent; node; node = node.parent) {
    if (node.type === "class_declaration" || node.type === "struct_declaration" || node.type === "record_declaration") classes.unshift(node);
    else if (node.type === "local_function_statement" || node.type === "lambda_expression" || node.type === "block") return null;
  }
  return classes;
}

/** The skip an attribute set applies: xUnit `Skip = "..."`, `[Ignore]`, `[Explicit]`. */
function skipOf(attributes: readonly Attribute[], where: string | null): { via: string; reason?: string } | null {
  for (const attribute of attributes) {
    const skip = isTestAttribute(attribute.name) ? namedArgument(attribute, "Skip") : undefined;
    const isIgnore = attribute.name === "Ignore" || attribute.name === "Explicit";
    if (!skip && !isIgnore) continue;
    const via = (skip ? `[${attribute.name}(Skip = ...)]` : `[${attribute.name}]`) + (where ? ` on ${where}` : "");
    const reasonNode = skip ?? attribute.args[0];
    const reason = stringValue(reasonNode?.type === "attribute_argument" ? namedChildren(reasonNode)[0] : reasonNode);
    return reason === null ? { via } : { via, reason };
  }
  return null;
}

/** The first argument expression of an argument list (C# wraps each in an `argument` node). */
function argumentValues(args: Node | undefined): Node[] {
  if (!args) return [];
  return namedChildren(args).map((arg) => (arg.type === "argument" ? (namedChildren(arg).find((child) => child.type !== "name_colon") ?? arg) : arg));
}

/** Static classes whose methods assert. */
const ASSERT_CLASSES: ReadonlySet<string> = new Set(["Assert", "ClassicAssert", "CollectionAssert", "StringAssert", "FileAssert", "DirectoryAssert"]);

/**
 * The parts of an invocation that asserts: `Assert.X(...)` (object "Assert"),
 * FluentAssertions `actual.Should().X(...)` (object "Should"), or, in a file
 * that uses Shouldly (`usesShouldly`), `actual.ShouldX(...)` and
 * `Should.X(...)` (object "Should"); null for any other invocation.
 */
function assertionCall(invocation: Node, usesShouldly: boolean): { object: string; matcher: Node; args: Node | undefined; actual: Node | undefined } | null {
  const fn = invocation.childForFieldName("function");
  const matcher = fn?.childForFieldName("name");
  const target = fn?.childForFieldName("expression");
  if (fn?.type !== "member_access_expression" || !matcher || !target) return null;
  const args = invocation.childForFieldName("arguments") ?? undefined;
  if (target.type === "identifier" && ASSERT_CLASSES.has(target.text)) return { object: target.text, matcher, args, actual: undefined };
  // Shouldly: `Should.Throw<T>(() => …)`, and `actual.ShouldBe(expected)` read as FluentAssertions' `actual.Should().Be(expected)`.
  if (usesShouldly && target.type === "identifier" && target.text === "Should") return { object: "Should", matcher, args, actual: undefined };
  if (usesShouldly && SHOULDLY_MATCHER.test(matcherName(matcher))) return { object: "Should", matcher, args, actual: target };
  // Shouldly imported by a global using (C# 10 `global using Shouldly;` in another file, `<Using Include="Shouldly" />` in the
  // project): its own matcher names still assert, a project's `ShouldRetry` does not.
  if (!usesShouldly && SHOULDLY_OWN_MATCHER.test(matcherName(matcher))) return { object: "Should", matcher, args, actual: target };
  if (target.type !== "invocation_expression") return null;
  const should = target.childForFieldName("function");
  if (should?.type !== "member_access_expression" || should.childForFieldName("name")?.text !== "Should") return null;
  return { object: "Should", matcher, args, actual: should.childForFieldName("expression") ?? undefined };
}

/** A Shouldly extension method (`ShouldBe`, `ShouldNotBeNull`, `ShouldBeGreaterThan`): "Should" and a capital. */
const SHOULDLY_MATCHER = /^Should[A-Z]\w*$/;

/** Shouldly's own matchers (`ShouldBe`, `ShouldNotBeNull`, `ShouldContain`, `ShouldThrow`, `ShouldMatchApproved`, …), told from a project's `ShouldRetry` without `using Shouldly`. */
const SHOULDLY_OWN_MATCHER = /^Should(?:Not)?(?:Be|Contain|Throw|StartWith|EndWith|Match|AllBe|HaveSingleItem|HaveFlag|SatisfyAllConditions|CompleteIn)(?:[A-Z]\w*)?$/;

/** A matcher's name without its type arguments (`Throws<T>` -> `Throws`). */
function matcherName(matcherNode: Node): string {
  return matcherNode.type === "generic_name" ? (namedChildren(matcherNode)[0]?.text ?? "") : matcherNode.text;
}

/**
 * An `Assert.X(...)` call, a FluentAssertions `.Should().X(...)` or a
 * Shouldly `actual.ShouldX(...)` / `Should.X(...)` as an AssertionFact
 * (Shouldly's `ShouldBe` is read as FluentAssertions' `Should().Be`, the
 * same relation and strength).
 */
function assertionFact(matcherNode: Node, object: string, args: Node | undefined, actualNode: Node | undefined, line: number): AssertionFact {
  const written = matcherName(matcherNode);
  const isShouldly = object === "Should" && SHOULDLY_MATCHER.test(written);
  const name = isShouldly ? written.slice("Should".length) : written;
  const typeArgument =
    matcherNode.type === "generic_name"
      ? namedChildren(matcherNode)
          .find((child) => child.type === "type_argument_list")
          ?.text.replace(/^<|>$/g, "")
      : undefined;
  const values = argumentValues(args);
  const isFluent = object === "Should";
  const rank = STRENGTH.get(name) ?? { strength: 1 as const };
  const fact: AssertionFact = { line, matcher: isFluent && actualNode ? `Should().${name}` : `${object}.${name}`, strength: rank.strength, tautology: rank.strength === 0 };
  if (rank.negated) fact.negated = true;
  if (/^Throw/.test(name)) {
    if (typeArgument) fact.expected = typeArgument;
    if (typeArgument && BROAD_EXCEPTIONS.has(typeArgument)) fact.strength = 1;
    // The code it runs: Assert.Throws<E>(() => Parse("")) (a parameter name may come first), or FluentAssertions' act.Should().Throw<E>().
    const thunk = isFluent ? undefined : [...values].reverse().find((value) => value.type === "lambda_expression");
    const subject = thunk ? thunkSubject(thunk) : actualNode ? compactText(actualNode) : undefined;
    if (subject !== undefined) fact.actual = subject;
    return fact;
  }
  if (isFluent) {
    if (actualNode) fact.actual = compactText(actualNode) as string;
    if (values[0]) fact.expected = compactText(values[0]) as string;
  } else if (name === "That" && values.length >= 2) {
    // NUnit constraint model: Assert.That(actual, Is.EqualTo(expected))
    const constraint = values[1] as Node;
    const text = constraint.text;
    fact.matcher = `Assert.That(${text.replace(/\(.*$/s, "")})`;
    fact.strength = /EqualTo|SameAs|Is\.Null\b|EquivalentTo/.test(text) ? 3 : /Contains|Has\.|InstanceOf|GreaterThan|LessThan|InRange|StartsWith|EndsWith|Matches|Throws/.test(text) ? 2 : 1;
    if (/\bNot\b/.test(text)) fact.negated = true;
    fact.actual = compactText(values[0]) as string;
    const expected = constraint.type === "invocation_expression" ? argumentValues(constraint.childForFieldName("arguments") ?? undefined)[0] : undefined;
    if (expected) fact.expected = compactText(expected) as string;
  } else if (rank.strength >= 2 && values[0] && values[1]) {
    fact.expected = compactText(values[0]) as string;
    fact.actual = compactText(values[1]) as string;
    // xUnit Assert.Equal(a, b, precision | tolerance), MSTest/NUnit Assert.AreEqual(a, b, delta): the tolerance (checks/tolerance.ts).
    if (values[2] && !rank.negated && (name === "Equal" || name === "AreEqual")) fact.tolerance = compactText(values[2]) as string;
  } else if (values[0]) {
    fact.actual = compactText(values[0]) as string;
  }
  const isConstantTrue = (name === "True" || name === "IsTrue") && values[0]?.type === "boolean_literal" && values[0].text === "true";
  const isSelfEqual = rank.strength === 3 && !rank.negated && fact.expected !== undefined && fact.expected === fact.actual;
  if (isConstantTrue || isSelfEqual) Object.assign(fact, { strength: 0, tautology: true });
  return fact;
}

/**
 * True for an async assertion (`Assert.ThrowsAsync<T>(…)`, FluentAssertions
 * `.Should().ThrowAsync<T>()`, NUnit `Assert.ThatAsync`, MSTest
 * `ThrowsExceptionAsync`) whose Task nobody awaits or returns: it is a
 * statement of its own, so the test ends before it settles and its failure
 * is never observed (xUnit analyzer xUnit2021).
 */
function isUnawaitedAsyncAssertion(node: Node, matcher: string): boolean {
  if (!/Async$/.test(matcher)) return false;
  let outer: Node = node;
  for (let parent = outer.parent; parent && (parent.type === "member_access_expression" || parent.type === "invocation_expression"); parent = parent.parent) outer = parent;
  return outer.parent?.type === "expression_statement";
}

function extractCSharpDrafts(path: string, grammar: LoadedGrammar, root: Node, content: string): ExtractedDrafts {
  const tests: TestDraft[] = [];
  const nonTestFunctions: NonTestFunctionFact[] = [];
  const frameworks = new Set<string>();
  if (/\busing\s+Xunit\b/.test(content)) frameworks.add("xunit");
  if (/\busing\s+NUnit\b/.test(content)) frameworks.add("nunit");
  if (/\busing\s+Microsoft\.VisualStudio\.TestTools\b/.test(content)) frameworks.add("mstest");
  if (/\busing\s+FluentAssertions\b/.test(content)) frameworks.add("fluentassertions");

  const matches = queryCaptures(grammar, "facts", root);
  for (const match of matches) {
    const definition = match.get("definition");
    const name = definition?.childForFieldName("name")?.text;
    if (!definition || !name) continue;
    const classes = enclosingClasses(definition);
    if (classes === null) continue;
    const body = definition.childForFieldName("body") ?? namedChildren(definition).find((child) => child.type === "arrow_expression_clause" || child.type === "block") ?? null;
    const line = definition.startPosition.row + 1;
    const bodyHash = hashNode(body);
    const suitePath = classes.map((node) => node.childForFieldName("name")?.text ?? "");
    const attributes = attributesOf(definition);
    if (!attributes.some((attribute) => isTestAttribute(attribute.name))) {
      nonTestFunctions.push({ name, suitePath, line, bodyHash });
      continue;
    }
    const draft: TestDraft = { name, suitePath, line, node: definition, bodyHash, marks: {}, literals: body ? literalsOf(body) : [], body };
    const covers = [attributes, ...classes.map((node) => attributesOf(node))].flatMap(testOf);
    if (covers.length > 0) draft.covers = covers;
    const skip = skipOf(attributes, null) ?? classes.map((node) => skipOf(attributesOf(node), `class ${node.childForFieldName("name")?.text ?? ""}`)).find((found) => found !== null) ?? null;
    // xUnit v3 `Skip = "…", SkipWhen/SkipUnless = nameof(…)` and NUnit `[Platform(…)]` skip only under their condition.
    const condition = attributes.find(
      (attribute) => attribute.name === "Platform" || (isTestAttribute(attribute.name) && (namedArgument(attribute, "SkipWhen") || namedArgument(attribute, "SkipUnless"))),
    );
    if (skip && condition && isTestAttribute(condition.name)) draft.marks.conditional = skip;
    else if (skip) draft.marks.skipped = skip;
    else if (condition) draft.marks.conditional = { via: `[${condition.name}(...)]` };
    const rows = attributes.filter((attribute) => ROW_ATTRIBUTES.has(attribute.name));
    if (attributes.some((attribute) => OPAQUE_SOURCES.has(attribute.name))) draft.eachRows = null;
    else if (rows.length > 0) {
      draft.eachRows = rows.length;
      draft.eachRowHashes = rows.map((row) => hashRow(row.node));
      draft.eachRowLiterals = rows.map((row) => literalsOf(row.node));
    }
    tests.push(draft);
  }

  const assertions: AssertionDraft[] = [];
  const usesShouldly = /\busing\s+(?:static\s+)?Shouldly\b/.test(content);
  for (const match of matches) {
    const node = match.get("call");
    const call = node ? assertionCall(node, usesShouldly) : null;
    if (!node || !call) continue;
    const fact = withBoundActual(assertionFact(call.matcher, call.object, call.args, call.actual, node.startPosition.row + 1), node);
    if (isUnawaitedAsyncAssertion(node, matcherName(call.matcher))) fact.unreachable = true;
    assertions.push({ ...fact, startIndex: node.startIndex });
  }
  const skips = tests.length > 0 ? assumptionSkips(root, CSHARP_SKIP_CALLS, "invocation_expression", ["throw_statement", "throw_expression"]) : [];
  return {
    tests,
    assertions: withTryChecks(root, assertions, CSHARP_TRY),
    skips,
    nonTestFunctions: tests.length > 0 || isCSharpTestPath(path) ? nonTestFunctions : [],
    frameworks: [...frameworks],
    skipReach: CSHARP_SKIP_REACH,
  };
}

/** The exception a C# branch ends by throwing (a `throw` statement, or a block whose last statement is one), else null. */
function csharpThrownBy(branch: Node | null): Node | null {
  const last = branch?.type === "block" ? namedChildren(branch).at(-1) : branch;
  if (last?.type === "throw_statement") return namedChildren(last)[0] ?? null;
  // A throw helper (`ThrowHelper.ThrowArgumentNullException(nameof(x))`, .NET's idiom for keeping throws out of hot methods) throws for its caller.
  const call = last?.type === "expression_statement" ? last.namedChild(0) : null;
  const callee = call?.type === "invocation_expression" ? call.childForFieldName("function") : null;
  const name = callee?.type === "member_access_expression" ? callee.childForFieldName("name")?.text : callee?.text;
  return call && name !== undefined && /^Throw(?!If)[A-Z]\w*$/.test(name) ? call : null;
}

/**
 * A throw expression as a guard: `x ?? throw new E()` fires when `x` is null
 * (the negated value, as the `if (x == null) throw` it rewrites); `c ? v :
 * throw new E()` when `c` is false, `c ? throw new E() : v` when it holds.
 */
function csharpThrowExpressionGuard(node: Node): GuardDraft[] {
  const thrownOf = (side: Node | null): Node | null => (side?.type === "throw_expression" ? (namedChildren(side)[0] ?? null) : null);
  if (node.type === "conditional_expression") {
    const condition = node.childForFieldName("condition");
    const whenTrue = thrownOf(node.childForFieldName("consequence"));
    const whenFalse = thrownOf(node.childForFieldName("alternative"));
    if (!condition) return [];
    return [...(whenTrue ? [{ condition, action: whenTrue }] : []), ...(whenFalse ? [{ condition, action: whenFalse, isNegated: true }] : [])];
  }
  const left = node.childForFieldName("left");
  const thrown = thrownOf(node.childForFieldName("right"));
  const operator = node.childForFieldName("operator")?.text ?? node.children.find((child) => child !== null && !child.isNamed)?.text;
  return left && thrown && operator === "??" ? [{ condition: left, action: thrown, isNullTest: true }] : [];
}

/** The value a `switch` statement tests, for a section of its body. */
const csharpSwitchSubject = (section: Node): Node | null => (section.parent?.type === "switch_body" ? (section.parent.parent?.childForFieldName("value") ?? null) : null);

/**
 * A switch section or switch-expression arm that throws: a guard on the
 * switched value. A `default:` / `_ =>` arm throws for every value the
 * others do not take (the negated value, as the `if (!(key is int)) throw`
 * it often replaces); a `case > 2:` / `> 2 => throw …` arm for the values
 * its patterns match (`n is >2`, as the `if (n > 2) throw` it rewrites).
 */
function csharpSwitchGuard(node: Node): GuardDraft[] {
  if (node.type === "switch_section") {
    const children = namedChildren(node);
    const thrown = csharpThrownBy(children.at(-1) ?? null);
    const subject = csharpSwitchSubject(node);
    if (!thrown || !subject) return [];
    if (children.some((child) => child.type === "default_switch_label")) return [{ condition: subject, action: thrown, isNegated: true }];
    const patterns = children.filter((child) => child.type === "case_switch_label" || child.type === "case_pattern_switch_label").flatMap(namedChildren);
    return patterns.length > 0 ? [{ condition: subject, action: thrown, patterns }] : [];
  }
  const parts = namedChildren(node);
  const value = parts.at(-1);
  const subject = node.parent?.type === "switch_expression" ? namedChildren(node.parent)[0] : undefined;
  const thrown = value?.type === "throw_expression" ? namedChildren(value)[0] : undefined;
  if (!thrown || !subject) return [];
  if (parts[0]?.type === "discard") return [{ condition: subject, action: thrown, isNegated: true }];
  return [{ condition: subject, action: thrown, patterns: parts.slice(0, -1) }];
}

/**
 * The predicate of a LINQ filter the loop runs over (`xs.Where(x => bad(x))` -> `bad(x)`,
 * `.Where(IsBad)` -> `IsBad`), through the calls chained after it (`.Select(…)`, `.ToList()`), or null.
 */
function csharpFilterPredicate(chain: Node | null): Node | null {
  let current = chain;
  while (current?.type === "invocation_expression") {
    const callee = current.childForFieldName("function");
    if (callee?.type === "member_access_expression" && callee.childForFieldName("name")?.text === "Where") {
      const argument = namedChildren(current.childForFieldName("arguments") ?? current)[0]?.namedChild(0) ?? null;
      if (argument?.type !== "lambda_expression") return argument;
      const body = argument.childForFieldName("body");
      if (body?.type !== "block") return body;
      const statements = namedChildren(body);
      return statements.length === 1 && statements[0]?.type === "return_statement" ? (statements[0].namedChild(0) ?? null) : null;
    }
    current = callee?.type === "member_access_expression" ? callee.childForFieldName("expression") : null;
  }
  return null;
}

/**
 * `foreach (var x in xs.Where(x => bad(x))) throw …`: the loop guard
 * `foreach (var x in xs) { if (bad(x)) throw … }` with its condition moved
 * into the filter. The body must hold nothing but the throw (after local
 * declarations).
 */
function csharpLoopGuard(node: Node): GuardDraft[] {
  const predicate = csharpFilterPredicate(node.childForFieldName("right"));
  const body = node.childForFieldName("body");
  const statements = body?.type === "block" ? namedChildren(body).filter((child) => child.type !== "comment") : body ? [body] : [];
  if (!predicate || statements.length === 0 || !statements.slice(0, -1).every((statement) => statement.type === "local_declaration_statement")) return [];
  const thrown = csharpThrownBy(statements.at(-1) ?? null);
  return thrown ? [{ condition: predicate, action: thrown }] : [];
}

/**
 * `try { v = table[key]; } catch (KeyNotFoundException) { throw new E(m); }`:
 * the exit of a failed lookup or conversion handled by throwing
 * (GuardFact.handler), as the `if (!table.ContainsKey(key)) throw new E(m)`
 * it spells the other way. Only a catch of lookup errors ({@link
 * LOOKUP_ERRORS}) whose block ends in a throw of its own is one.
 */
function csharpHandlerGuard(node: Node): GuardDraft[] {
  const declaration = namedChildren(node).find((child) => child.type === "catch_declaration");
  const caught = declaration ? (declaration.childForFieldName("type") ?? namedChildren(declaration)[0])?.text : undefined;
  const tryBody = node.parent?.type === "try_statement" ? node.parent.childForFieldName("body") : null;
  const thrown = csharpThrownBy(node.childForFieldName("body"));
  if (!tryBody || !thrown || caught === undefined || !catchesOnlyLookupErrors(caught, LOOKUP_ERRORS.csharp)) return [];
  const guarded = namedChildren(tryBody).filter((child) => child.type !== "comment");
  return guarded.length > 0 ? [{ condition: guarded[0] as Node, guarded, action: thrown }] : [];
}

/** Parses and conversions into an unsigned type (.NET: they throw OverflowException on a negative input). */
const CSHARP_UNSIGNED_PARSE = /^(?:(?:System\.)?(?:uint|ulong|ushort|byte|UInt16|UInt32|UInt64|Byte)\.Parse|(?:System\.)?Convert\.To(?:UInt16|UInt32|UInt64|Byte))$/;

/** `uint v = uint.Parse(s)`, `var v = Convert.ToUInt32(s)`: `v` (FunctionFact.unsignedValues); the exception reaches the caller. */
function csharpUnsignedValues(node: Node): string[] {
  const [name, clause] = namedChildren(node);
  const value = clause?.type === "equals_value_clause" ? clause.namedChild(0) : null;
  const callee = value?.type === "invocation_expression" ? value.childForFieldName("function")?.text.replace(/\s+/g, "") : undefined;
  return name?.type === "identifier" && callee !== undefined && CSHARP_UNSIGNED_PARSE.test(callee) ? [name.text] : [];
}

/** `const bool X = false;` and `static readonly bool X = false;` fields (each `#if` branch its own declaration). */
function csharpConstants(node: Node): { name: string; value: Node | null }[] {
  const modifiers = csharpModifiers(node);
  if (!modifiers.has("const") && !(modifiers.has("static") && modifiers.has("readonly"))) return [];
  return node.descendantsOfType("variable_declarator").flatMap((declarator) => {
    const [name, clause] = declarator ? namedChildren(declarator) : [];
    return name?.type === "identifier" ? [{ name: name.text, value: clause?.type === "equals_value_clause" ? clause.namedChild(0) : null }] : [];
  });
}

/** A switch section's constant labels and statements, or a switch-expression arm's constant pattern and value. */
function csharpSwitchBranch(node: Node): BranchDraft[] {
  const children = namedChildren(node);
  if (node.type === "switch_section") {
    const labels = children.filter((child) => child.type === "case_switch_label");
    if (labels.length === 0) return [];
    const patterns = labels.flatMap((label) => namedChildren(label)).map((pattern) => (pattern.type === "constant_pattern" ? (pattern.namedChild(0) ?? pattern) : pattern));
    return [{ kind: "branch", patterns, result: children.filter((child) => !child.type.endsWith("switch_label")) }];
  }
  const [pattern, value] = children;
  if (pattern?.type !== "constant_pattern" || !value) return [];
  return [{ kind: "branch", patterns: [pattern.namedChild(0) ?? pattern], result: value }];
}

/** A dictionary key as its literal parts: a tuple key `(19.99m, 19m)` gives each element, any other key itself. */
function keyParts(key: Node): Node[] {
  const inner = key.type === "argument" && key.namedChildCount === 1 ? (key.namedChild(0) ?? key) : key;
  if (inner.type !== "tuple_expression") return [inner];
  return namedChildren(inner).map((element) => (element.type === "argument" && element.namedChildCount === 1 ? (element.namedChild(0) ?? element) : element));
}

/**
 * Entries of a collection initializer of a `new` (a literal lookup table):
 * `new Dictionary<K, V> { ["a"] = 1 }`, `new() { [(19.99m, 19m)] = 23.80m }`,
 * `{ { "a", 1 } }`. Each entry's key parts are its patterns.
 */
function csharpInitializerTable(node: Node): BranchDraft[] {
  if (!/object_creation_expression$/.test(node.parent?.type ?? "")) return [];
  const drafts: BranchDraft[] = [];
  for (const entry of namedChildren(node)) {
    if (entry.type === "assignment_expression") {
      const left = entry.childForFieldName("left");
      const right = entry.childForFieldName("right");
      if (!left || !right || !left.text.trimStart().startsWith("[")) continue;
      const list = namedChildren(left).find((child) => child.type === "bracketed_argument_list") ?? left;
      drafts.push({ kind: "table", patterns: namedChildren(list).flatMap(keyParts), result: right });
    } else if (entry.type === "initializer_expression") {
      const [key, value] = namedChildren(entry);
      if (key && value && entry.namedChildCount === 2) drafts.push({ kind: "table", patterns: keyParts(key), result: value });
    }
  }
  return drafts;
}

/** C#'s ways out of a test run: `Environment.Exit(0)`, `Application.Exit()`; handlers of unhandled exceptions and process exit. */
function csharpEscape(node: Node): EscapeDraft | null {
  if (node.type === "invocation_expression") {
    const callee = node.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
    const first = node.childForFieldName("arguments")?.namedChild(0) ?? null;
    if (/^(System\.)?Environment\.(Exit|FailFast)$/.test(callee)) return { kind: "exit", code: callee.endsWith("FailFast") ? "1" : first };
    return null;
  }
  const left = node.childForFieldName("left")?.text.replace(/\s+/g, "") ?? "";
  const operator = node.childForFieldName("operator")?.text ?? node.child(1)?.text;
  if (/(^|\.)(UnhandledException|ProcessExit)$/.test(left) && operator === "+=") return { kind: "hook" };
  if (/(^|\.)Environment\.ExitCode$/.test(left) && operator === "=") return { kind: "exit_code", code: node.childForFieldName("right") };
  return null;
}

/** A preprocessor directive's text as written: `#pragma warning disable CS0168`. */
function directiveText(node: Node): string {
  return `#${node.text.replace(/^#/, "").replace(/\s+/g, " ").trim()}`;
}

/**
 * C#'s code facts (tree-sitter-code.ts): `#pragma warning disable`,
 * `#nullable disable`, `[SuppressMessage(...)]` attributes, and the
 * null-forgiving postfix `!` (a cast, kind `null-forgiving`); methods and
 * constructors (`Class.Method`), and guards: an `if` whose branch ends in
 * `throw` (an `else` that throws guards the negated condition),
 * `ArgumentNullException.ThrowIfNull(x)`-style calls, a switch section or
 * arm that throws, a `foreach` over `.Where(…)` that throws, and a method's
 * fall-through throw; `uint.Parse`-style bindings, `const bool` fields;
 * `catch` blocks by what they do with the error, and the public API
 * ({@link csharpExports}).
 */
const CSHARP_FLOW: FlowSyntax = {
  throwTypes: new Set(["throw_statement", "throw_expression"]),
  returnTypes: new Set(["return_statement"]),
  noopTypes: new Set(["empty_statement"]),
  expressionTypes: new Set(["expression_statement"]),
  callTypes: new Set(["invocation_expression"]),
  callee: (call) => call.childForFieldName("function")?.text ?? null,
};

/** Type declarations: their public ones are API, with their public methods. */
const CSHARP_TYPE_DECLARATIONS: ReadonlySet<string> = new Set([
  "class_declaration",
  "struct_declaration",
  "interface_declaration",
  "enum_declaration",
  "record_declaration",
  "record_struct_declaration",
  "delegate_declaration",
]);

/** The modifier keywords of a declaration (`public`, `static`, `partial`, …). */
function csharpModifiers(declaration: Node): Set<string> {
  return new Set(namedChildren(declaration).flatMap((child) => (child.type === "modifier" ? [child.text] : [])));
}

/**
 * The public API one top-level node declares (C# reference, "Access
 * modifiers": a type without one is `internal`, a member `private`, an
 * interface member `public`): `public` types, their `public` methods and
 * properties (`Money.Parse`, `Money.Amount`), the `protected` ones of a type
 * that is neither sealed nor static, and public nested types, in a namespace block or after a
 * file-scoped namespace too; a `partial` type's name is left to its other
 * parts.
 */
function csharpExports(node: Node, prefix = "", isInterfaceMember = false): ExportDraft[] {
  if (node.type === "namespace_declaration" || node.type === "file_scoped_namespace_declaration") {
    const body = node.childForFieldName("body");
    const members = body && body.type === "declaration_list" ? namedChildren(body) : namedChildren(node);
    return members.flatMap((member) => csharpExports(member));
  }
  const name = node.childForFieldName("name")?.text;
  const modifiers = csharpModifiers(node);
  const isPublic = modifiers.has("public") || (isInterfaceMember && !modifiers.has("private") && !modifiers.has("protected") && !modifiers.has("internal"));
  if (!CSHARP_TYPE_DECLARATIONS.has(node.type) || !name || !isPublic) return [];
  const qualified = `${prefix}${name}`;
  const isInterface = node.type === "interface_declaration";
  const body = node.childForFieldName("body");
  // A `partial` type is declared across files: deleting one part does not remove the type, only its members.
  const exports: ExportDraft[] = modifiers.has("partial") ? [] : [{ name: qualified, body, line: node.startPosition.row + 1, ownNames: [name] }];
  for (const member of body?.type === "declaration_list" ? namedChildren(body) : []) {
    if (CSHARP_TYPE_DECLARATIONS.has(member.type)) {
      exports.push(...csharpExports(member, `${qualified}.`, isInterface));
      continue;
    }
    if (member.type !== "method_declaration" && member.type !== "property_declaration") continue;
    const memberModifiers = csharpModifiers(member);
    // A protected member of a type others may derive from is API too: the hook a subclass overrides (FluentValidation
    // f8b95575 removed `protected virtual void EnsureInstanceNotNull`, overridden by the tests' validators).
    const isInherited = memberModifiers.has("protected") && !memberModifiers.has("private") && !modifiers.has("sealed") && !modifiers.has("static");
    const isPublicMember = memberModifiers.has("public") || isInherited || (isInterface && !memberModifiers.has("private") && !memberModifiers.has("protected") && !memberModifiers.has("internal"));
    const method = member.childForFieldName("name")?.text;
    const memberBody = member.childForFieldName("body") ?? namedChildren(member).find((child) => child.type === "accessor_list" || child.type === "arrow_expression_clause") ?? null;
    if (isPublicMember && method) exports.push({ name: `${qualified}.${method}`, body: memberBody, line: member.startPosition.row + 1, ownNames: [name] });
  }
  return exports;
}

/** Assembly and type names only a .NET test run loads: the test frameworks' and the test host's. */
const CSHARP_RUNNER_ASSEMBLY = /^(?:xunit|nunit|testhost|MSTest|Microsoft\.VisualStudio\.(?:TestPlatform|QualityTools|TestTools)|Microsoft\.TestPlatform)/i;

/** A C# check for the test runner (special_casing): a loaded assembly's name compared with `"xunit"`, `Type.GetType("NUnit.Framework.Assert")`. */
function isCSharpRunnerCheck(node: Node): boolean {
  const callee = node.childForFieldName("function");
  // `a.FullName.StartsWith`, `a.FullName?.StartsWith` (a conditional access), `GetType`.
  const method = /(\w+)\s*$/.exec(callee?.text ?? "")?.[1] ?? "";
  if (!/^(StartsWith|Contains|Equals|GetType|Load|GetEnvironmentVariable)$/.test(method)) return false;
  const argument = node.childForFieldName("arguments")?.namedChild(0);
  const literal = (argument?.type === "argument" ? argument.namedChild(0) : argument)?.text ?? "";
  const value = /^@?"(.*)"$/.exec(literal)?.[1];
  return value !== undefined && CSHARP_RUNNER_ASSEMBLY.test(value);
}

const CSHARP_CODE: CodeSyntax = {
  runnerChecks: { invocation_expression: isCSharpRunnerCheck },
  comments: [],
  suppressions: {
    // tree-sitter-c-sharp 0.20 leaves the `#` out of a directive's node.
    pragma_directive: (node) => (/^#?\s*pragma\s+warning\s+disable\b/.test(node.text) ? { kind: "pragma-warning-disable", text: directiveText(node) } : null),
    nullable_directive: (node) => (/\bdisable\b/.test(node.text) ? { kind: "nullable-disable", text: directiveText(node) } : null),
    attribute: (node) => {
      const name = node.childForFieldName("name")?.text ?? namedChildren(node)[0]?.text ?? "";
      return /(^|\.)SuppressMessage(Attribute)?$/.test(name) ? { kind: "suppress-message" } : null;
    },
    postfix_unary_expression: (node) => (node.child(node.childCount - 1)?.type === "!" ? { kind: "null-forgiving" } : null),
  },
  functions: {
    method_declaration: (node) => ({ name: node.childForFieldName("name")?.text ?? "<anonymous>", body: node.childForFieldName("body") }),
    constructor_declaration: (node) => (isExtensionBlock(node) ? null : { name: node.childForFieldName("name")?.text ?? "<init>", body: node.childForFieldName("body") }),
    // A member of a C# 14 extension block, which the grammar reads as a local function of the block.
    local_function_statement: (node) => (isExtensionBlock(node.parent?.parent ?? null) ? { name: node.childForFieldName("name")?.text ?? "<anonymous>", body: node.childForFieldName("body") } : null),
    accessor_declaration: csharpAccessor,
    // `public int Size => items.Count;`: the getter, written as the property's expression body.
    property_declaration: (node) => {
      const body = namedChildren(node).find((child) => child.type === "arrow_expression_clause");
      const name = node.childForFieldName("name")?.text;
      return body && name ? { name: `get_${name}`, body } : null;
    },
  },
  containers: Object.fromEntries(
    ["class_declaration", "struct_declaration", "record_declaration", "interface_declaration"].map((type) => [type, (node: Node) => node.childForFieldName("name")?.text ?? null]),
  ),
  calls: {
    invocation_expression: (node) => {
      const callee = node.childForFieldName("function");
      if (callee?.type === "identifier") return callee.text;
      if (callee?.type === "member_access_expression") return callee.childForFieldName("name")?.text ?? null;
      return null;
    },
  },
  guards: {
    if_statement: (node) => {
      const condition = node.childForFieldName("condition");
      if (!condition) return [];
      const guards: GuardDraft[] = [];
      const thrown = csharpThrownBy(node.childForFieldName("consequence"));
      if (thrown) guards.push({ condition, action: thrown });
      const alternative = node.childForFieldName("alternative");
      const thrownElse = alternative && alternative.type !== "if_statement" ? csharpThrownBy(alternative) : null;
      if (thrownElse) guards.push({ condition, action: thrownElse, isNegated: true });
      return guards;
    },
    invocation_expression: (node) => {
      const callee = node.childForFieldName("function");
      const name = callee?.type === "member_access_expression" ? (callee.childForFieldName("name")?.text ?? "") : "";
      const first = node.childForFieldName("arguments")?.namedChild(0);
      // `token.ThrowIfCancellationRequested()` checks its receiver (an instance method, and the extensions named after it).
      const receiver = callee?.type === "member_access_expression" ? callee.childForFieldName("expression") : null;
      const checked = name === "ThrowIfCancellationRequested" || !first ? receiver : first;
      return /^ThrowIf/.test(name) && checked && callee ? [{ condition: checked, action: callee }] : [];
    },
    catch_clause: csharpHandlerGuard,
    binary_expression: csharpThrowExpressionGuard,
    conditional_expression: csharpThrowExpressionGuard,
    switch_section: csharpSwitchGuard,
    switch_expression_arm: csharpSwitchGuard,
    for_each_statement: csharpLoopGuard,
  },
  fallthrough: (body) => (body.type === "block" ? csharpThrownBy(body) : null),
  unsignedValues: { variable_declarator: csharpUnsignedValues },
  constants: { field_declaration: csharpConstants },
  identifierTypes: new Set(["identifier"]),
  flow: CSHARP_FLOW,
  catches: {
    catch_clause: (node) => {
      const declaration = namedChildren(node).find((child) => child.type === "catch_declaration");
      const caught = declaration ? (declaration.childForFieldName("type") ?? namedChildren(declaration)[0])?.text : undefined;
      const guarded = node.parent?.type === "try_statement" ? node.parent.childForFieldName("body") : null;
      return { body: node.childForFieldName("body"), errorName: declaration?.childForFieldName("name")?.text ?? null, caught: caught ?? "*", guarded };
    },
  },
  state: {
    declarations: {
      field_declaration: (node) =>
        csharpModifiers(node).has("static")
          ? node
              .descendantsOfType("variable_declarator")
              .flatMap((declarator) => (declarator ? [(declarator.childForFieldName("name") ?? declarator.namedChild(0))?.text ?? ""] : []))
              .filter((name) => name !== "")
          : [],
    },
    updates: { postfix_unary_expression: counterTarget, prefix_unary_expression: counterTarget, assignment_expression: counterTarget },
  },
  literalBranches: {
    if_statement: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
    conditional_expression: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
    switch_section: csharpSwitchBranch,
    switch_expression_arm: csharpSwitchBranch,
    initializer_expression: csharpInitializerTable,
  },
  escapes: { invocation_expression: csharpEscape, assignment_expression: csharpEscape },
  isScript: (content) => /\bstatic\s+(?:async\s+)?(?:void|int|Task(?:<int>)?)\s+Main\s*\(/.test(content),
  exports: Object.fromEntries(["namespace_declaration", "file_scoped_namespace_declaration", ...CSHARP_TYPE_DECLARATIONS].map((type) => [type, (node: Node) => csharpExports(node)])),
};

/**
 * True for a C# 14 extension block (`extension(CancellationToken token) { public void ThrowIfX(…) { … } }` in a
 * static class), which tree-sitter-c-sharp 0.20 reads as a constructor named `extension` whose members are local
 * functions: a constructor is named after its class, so one named `extension` in a class of another name is none.
 */
function isExtensionBlock(node: Node | null): boolean {
  if (node?.type !== "constructor_declaration" || node.childForFieldName("name")?.text !== "extension") return false;
  const owner = node.parent?.type === "declaration_list" ? node.parent.parent : null;
  return owner !== null && owner !== undefined && owner.childForFieldName("name")?.text !== "extension";
}

/** The C# language module: `.cs`, parsed with tree-sitter-c-sharp (see the module comment). Never throws for bad content. */
export const csharp = defineLanguage({
  id: "csharp",
  extensions: [".cs"],
  queries: ["facts"],
  isTestPath: isCSharpTestPath,
  drafts: ({ path, content }, grammar, root) => extractCSharpDrafts(path, grammar, root, content),
  code: CSHARP_CODE,
  shadows: CSHARP_SHADOWS,
});

/**
 * C# `try` statements for the exception checks written by hand
 * (parsers/tree-sitter-try.ts). xUnit's `Assert.Fail`, NUnit's and MSTest's
 * failures throw exceptions deriving from `System.Exception`, which a bare
 * `catch` or `catch (Exception)` catches.
 */
const CSHARP_TRY: TrySyntax = {
  tryTypes: new Set(["try_statement"]),
  parts(node) {
    const handlers = namedChildren(node)
      .filter((child) => child.type === "catch_clause")
      .map((clause) => {
        const type = namedChildren(clause)
          .find((child) => child.type === "catch_declaration")
          ?.childForFieldName("type");
        return { node: clause, types: type ? [type.text] : [], statements: statementNodes(clause.childForFieldName("body")) };
      });
    return { body: statementNodes(node.childForFieldName("body")), handlers, orElse: [] };
  },
  /** `throw new E(…)`. */
  raisedType: (statement) => (statement.type === "throw_statement" ? createdType(namedChildren(statement)[0]) : null),
  catchesFailure: (types) => types.length === 0 || types.some((type) => /^(?:System\.)?Exception$|(?:Xunit|Assert\w*|Assertion|Fail|True|False|Equal)Exception$/.test(type)),
  /** Every assertion of the framework fails as its explicit failure does (the same error type). */
  catchesAssertion(types, fact) {
    return this.catchesFailure(types, fact);
  },
};
