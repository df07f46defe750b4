/**
 * Go assertion libraries beyond `testing` and testify (issue 9: every
 * framework's assertions become checks; sweep of spf13/cast 4e7df044b1,
 * whose quicktest tests showed no check at all, so a test moved into a
 * generic runner read as deleted and a removed assertion went unseen):
 *
 * - quicktest v1 (github.com/frankban/quicktest, pkg.go.dev "Checker"):
 *   `c.Assert(got, qt.Equals, want)`, `c.Check(...)` on a `qt.New(t)`, and
 *   the top-level `qt.Assert(t, got, qt.DeepEquals, want)`; `qt.Not(checker)`
 *   negates;
 * - quicktest v2 (github.com/go-quicktest/qt): `qt.Assert(t, qt.Equals(got,
 *   want))`, `qt.Check(t, qt.IsNil(err))`, `qt.Not(qt.IsNil(err))`;
 * - Gomega (github.com/onsi/gomega, "Making Assertions"): `Expect(x).To(M)`,
 *   `g.Expect(x).NotTo(M)`, `Ω(x).Should(M)`, `ShouldNot`, `ToNot`;
 *   `Not(M)` negates;
 * - matryer/is (github.com/matryer/is): `is.Equal(got, want)`,
 *   `is.NoErr(err)`, `is.True(cond)` on an `is.New(t)`;
 * - gotest.tools (gotest.tools/v3/assert, "assert"): `assert.Equal(t, got,
 *   want)`, `assert.DeepEqual(t, got, want)`, `assert.NilError(t, err)`,
 *   `assert.Error(t, err, msg)`, `assert.ErrorContains(t, err, sub)`,
 *   `assert.Assert(t, cond)`, `assert.Check(t, cond)` (its `assert` shadows
 *   testify's, so go.ts asks {@link importsGotestTools} first).
 *
 * Each call becomes an AssertionFact whose matcher names the library's
 * checker (`qt.DeepEquals`, `gomega.HaveLen`, `is.Equal`, `assert.DeepEqual`)
 * so checks/relations.ts reads its relation; the strength is the library's
 * own (an equality 3, a containment or size 2, a truthiness or nil-error 1).
 */

import type { AssertionFact } from "../facts.js";
import { compactText, namedChildren, stringValue, type AssertionDraft, type Node } from "../parsers/tree-sitter.js";

/** A checker of a library: its strength, whether it reads an expected value, and the name relations.ts knows it by when the library's differs. */
interface Checker {
  strength: 1 | 2 | 3;
  takesExpected: boolean;
  /** The matcher name checks/relations.ts reads (default: the checker's own). */
  as?: string;
  /** True when the checker states a negation of its relation (`IsNotNil`, `IsFalse`). */
  negated?: true;
}

const eq: Checker = { strength: 3, takesExpected: true };
const part: Checker = { strength: 2, takesExpected: true };

/** quicktest checkers (v1 and v2 share their names). */
const QUICKTEST: ReadonlyMap<string, Checker> = new Map([
  ["Equals", eq],
  ["DeepEquals", eq],
  ["CmpEquals", eq],
  ["ContentEquals", eq],
  ["JSONEquals", eq],
  ["CodecEquals", eq],
  ["ErrorIs", eq],
  ["ErrorAs", part],
  ["ErrorMatches", part],
  ["PanicMatches", part],
  ["Matches", part],
  ["HasLen", part],
  ["Contains", part],
  ["StringContains", part],
  ["SliceContains", part],
  ["MapContains", part],
  ["Any", part],
  ["All", part],
  ["SliceAny", part],
  ["SliceAll", part],
  ["IsNil", { strength: 3, takesExpected: false }],
  ["IsNotNil", { strength: 1, takesExpected: false }],
  ["IsTrue", { strength: 1, takesExpected: false }],
  ["IsFalse", { strength: 1, takesExpected: false }],
  ["Satisfies", { strength: 1, takesExpected: true }],
]);

/** Gomega matchers. */
const GOMEGA: ReadonlyMap<string, Checker> = new Map([
  ["Equal", eq],
  ["BeEquivalentTo", eq],
  ["BeIdenticalTo", eq],
  ["BeComparableTo", eq],
  ["ConsistOf", eq],
  ["MatchError", part],
  ["HaveLen", part],
  ["ContainSubstring", part],
  ["ContainElement", part],
  ["ContainElements", part],
  ["HaveKey", part],
  ["HaveKeyWithValue", part],
  ["HavePrefix", part],
  ["HaveSuffix", part],
  ["MatchRegexp", part],
  ["BeNumerically", part],
  ["HaveField", part],
  ["BeAssignableToTypeOf", part],
  ["PanicWith", part],
  ["BeNil", { strength: 3, takesExpected: false }],
  ["BeEmpty", { strength: 1, takesExpected: false }],
  ["BeZero", { strength: 1, takesExpected: false }],
  ["BeTrue", { strength: 1, takesExpected: false }],
  ["BeFalse", { strength: 1, takesExpected: false }],
  ["Succeed", { strength: 1, takesExpected: false }],
  ["HaveOccurred", { strength: 1, takesExpected: false }],
  ["Panic", { strength: 2, takesExpected: false, as: "Panics" }],
]);

/** matryer/is methods: (got, want) for Equal. */
const IS: ReadonlyMap<string, Checker> = new Map([
  ["Equal", eq],
  ["NoErr", { strength: 1, takesExpected: false }],
  ["True", { strength: 1, takesExpected: false }],
  ["Fail", { strength: 1, takesExpected: false }],
]);

/** gotest.tools assert functions after `t`: (got, want) for the comparisons. */
const GOTEST_TOOLS: ReadonlyMap<string, Checker> = new Map([
  ["Equal", eq],
  ["DeepEqual", eq],
  ["Error", { strength: 3, takesExpected: true, as: "EqualError" }],
  ["ErrorIs", eq],
  ["ErrorContains", part],
  ["ErrorType", part],
  ["NilError", { strength: 1, takesExpected: false }],
  ["Assert", { strength: 1, takesExpected: false, as: "True" }],
  ["Check", { strength: 1, takesExpected: false, as: "True" }],
]);

/**
 * The file's imports: each import path -> the local name it is used under
 * (its alias, `.` for a dot import, else the path's last segment that is no
 * major-version suffix: `gotest.tools/v3/assert` -> `assert`), as the Go
 * spec's "Import declarations" name them.
 */
export function goImports(root: Node): Map<string, string> {
  const imports = new Map<string, string>();
  for (const spec of root.descendantsOfType("import_spec")) {
    if (!spec) continue;
    const path = stringValue(spec.childForFieldName("path")) ?? "";
    const alias = spec.childForFieldName("name")?.text;
    const name =
      alias ??
      path
        .split("/")
        .filter((segment) => !/^v\d+$/.test(segment))
        .pop();
    if (path !== "" && name) imports.set(path, name);
  }
  return imports;
}

/** The local name a file imports one of `paths` under ({@link goImports}), or null when it imports none of them. */
function importName(imports: ReadonlyMap<string, string>, paths: RegExp): string | null {
  for (const [path, name] of imports) if (paths.test(path)) return name;
  return null;
}

/** gotest.tools' assert package (gotest.tools/assert, gotest.tools/v3/assert). */
const GOTEST_TOOLS_PATH = /^gotest\.tools(?:\/v\d+)?\/assert$/;

/** True when the file's `assert` is gotest.tools' ({@link goImports}), not testify's. */
export function importsGotestTools(imports: ReadonlyMap<string, string>): boolean {
  return importName(imports, GOTEST_TOOLS_PATH) !== null;
}

/** The fact of one library assertion: `matcher` its display name, `got` its subject, `want` its expected value. */
function libraryFact(matcher: string, checker: Checker, got: Node | undefined, want: Node | undefined, negated: boolean, line: number): AssertionFact {
  const fact: AssertionFact = { line, matcher, strength: checker.strength, tautology: false };
  if (negated !== (checker.negated === true)) fact.negated = true;
  if (got) fact.actual = compactText(got) as string;
  if (want && checker.takesExpected) fact.expected = compactText(want) as string;
  if (!fact.negated && checker.strength === 3 && fact.expected !== undefined && fact.expected === fact.actual) {
    fact.strength = 0;
    fact.tautology = true;
  }
  return fact;
}

/** `pkg.Name` or `Name` (a dot import) -> Name, when `pkg` is `alias`; null otherwise. */
function memberOf(node: Node | null | undefined, alias: string): string | null {
  if (!node) return null;
  if (node.type === "identifier") return alias === "." ? node.text : null;
  if (node.type !== "selector_expression") return null;
  const operand = node.childForFieldName("operand");
  return operand?.text === alias ? (node.childForFieldName("field")?.text ?? null) : null;
}

/** A checker expression: `qt.Equals`, `qt.CmpEquals(opts)`, `qt.Not(qt.IsNil)`, or (v2) `qt.Equals(got, want)`: its name, negation, and its call's arguments. */
function checkerOf(node: Node | undefined, alias: string): { name: string; negated: boolean; args: Node[] } | null {
  let negated = false;
  let current = node;
  for (let depth = 0; current && depth < 3; depth++) {
    const callee = current.type === "call_expression" ? current.childForFieldName("function") : current;
    const name = memberOf(callee, alias);
    if (name === null) return null;
    const args = current.type === "call_expression" ? namedChildren(current.childForFieldName("arguments") ?? current) : [];
    if (name !== "Not") return { name, negated, args };
    negated = !negated;
    current = args[0];
  }
  return null;
}

/** quicktest calls: v1 `c.Assert(got, qt.X, want)` / `qt.Assert(t, got, qt.X, want)`, v2 `qt.Assert(t, qt.X(got, want))`. */
function quicktestFact(call: Node, alias: string): AssertionFact | null {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression") return null;
  const method = callee.childForFieldName("field")?.text;
  if (method !== "Assert" && method !== "Check") return null;
  const args = namedChildren(call.childForFieldName("arguments") ?? call);
  const isTopLevel = callee.childForFieldName("operand")?.text === alias;
  const rest = isTopLevel ? args.slice(1) : args;
  const line = call.startPosition.row + 1;
  // v2: the one argument after t is the checker call holding its operands.
  if (isTopLevel && rest.length === 1) {
    const checker = checkerOf(rest[0], alias);
    const known = checker ? QUICKTEST.get(checker.name) : undefined;
    if (!checker || !known) return null;
    return libraryFact(`qt.${known.as ?? checker.name}`, known, checker.args[0], checker.args[1], checker.negated, line);
  }
  const checker = checkerOf(rest[1], alias);
  const known = checker ? QUICKTEST.get(checker.name) : undefined;
  if (!checker || !known) return null;
  return libraryFact(`qt.${known.as ?? checker.name}`, known, rest[0], rest[2], checker.negated, line);
}

/** The Gomega entry points whose result takes `.To(...)`: Expect, Ω, and their polling forms. */
const GOMEGA_SUBJECT = /^(?:Expect|Ω|Eventually|Consistently|ExpectWithOffset|EventuallyWithOffset)$/;

/** `Expect(x).To(M(...))`, `g.Expect(x).NotTo(Not(M))`, `Ω(x).ShouldNot(M)`. */
function gomegaFact(call: Node, alias: string): AssertionFact | null {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression") return null;
  const verb = callee.childForFieldName("field")?.text ?? "";
  if (!/^(?:To|ToNot|NotTo|Should|ShouldNot)$/.test(verb)) return null;
  const subject = callee.childForFieldName("operand");
  if (subject?.type !== "call_expression") return null;
  const entry = subject.childForFieldName("function");
  const entryName = entry?.type === "selector_expression" ? entry.childForFieldName("field")?.text : entry?.text;
  if (!entryName || !GOMEGA_SUBJECT.test(entryName)) return null;
  const [matcher] = namedChildren(call.childForFieldName("arguments") ?? call);
  // Matchers are called unqualified after a dot import, or as gomega.Equal / a local alias.
  const checker = checkerOf(matcher, alias) ?? (alias === "." ? null : checkerOf(matcher, "."));
  const known = checker ? GOMEGA.get(checker.name) : undefined;
  if (!checker || !known) return null;
  const [got] = namedChildren(subject.childForFieldName("arguments") ?? subject);
  const isNegatedVerb = verb === "ToNot" || verb === "NotTo" || verb === "ShouldNot";
  return libraryFact(`gomega.${known.as ?? checker.name}`, known, got, checker.args[0], checker.negated !== isNegatedVerb, call.startPosition.row + 1);
}

/** `is.Equal(got, want)` on a local bound to `is.New(t)` (`receivers`). */
function isFact(call: Node, receivers: ReadonlySet<string>): AssertionFact | null {
  const callee = call.childForFieldName("function");
  if (callee?.type !== "selector_expression" || !receivers.has(callee.childForFieldName("operand")?.text ?? "")) return null;
  const method = callee.childForFieldName("field")?.text ?? "";
  const known = IS.get(method);
  if (!known) return null;
  const [got, want] = namedChildren(call.childForFieldName("arguments") ?? call);
  return libraryFact(`is.${known.as ?? method}`, known, got, want, false, call.startPosition.row + 1);
}

/** `assert.DeepEqual(t, got, want)` of gotest.tools (`alias` its package name). */
function gotestToolsFact(call: Node, alias: string): AssertionFact | null {
  const name = memberOf(call.childForFieldName("function"), alias);
  const known = name ? GOTEST_TOOLS.get(name) : undefined;
  if (!name || !known) return null;
  const [, got, want] = namedChildren(call.childForFieldName("arguments") ?? call);
  return libraryFact(`assert.${known.as ?? name}`, known, got, want, false, call.startPosition.row + 1);
}

/**
 * The assertions of the libraries this module reads (see the module
 * comment) among a file's calls, each at its call's start. Only libraries
 * the file imports are read.
 */
export function goLibraryAssertions(root: Node, content: string, imports: ReadonlyMap<string, string>): { assertions: AssertionDraft[]; frameworks: string[] } {
  const quicktest = importName(imports, /^(?:github\.com\/frankban\/quicktest|github\.com\/go-quicktest\/qt)$/);
  const gomega = importName(imports, /^github\.com\/onsi\/gomega$/);
  const is = importName(imports, /^github\.com\/matryer\/is$/);
  const gotestTools = importName(imports, GOTEST_TOOLS_PATH);
  const frameworks: string[] = [];
  if (quicktest) frameworks.push("quicktest");
  if (gomega) frameworks.push("gomega");
  if (is) frameworks.push("is");
  if (gotestTools) frameworks.push("gotest.tools");
  if (frameworks.length === 0) return { assertions: [], frameworks };
  const isReceivers = new Set(is ? [...content.matchAll(new RegExp(`(\\w+)\\s*:?=\\s*${is}\\.New(?:Relaxed)?\\(`, "g"))].map((match) => match[1] as string) : []);
  const assertions: AssertionDraft[] = [];
  for (const call of root.descendantsOfType("call_expression")) {
    if (!call) continue;
    const fact =
      (quicktest ? quicktestFact(call, quicktest) : null) ??
      (gomega ? gomegaFact(call, gomega) : null) ??
      (isReceivers.size > 0 ? isFact(call, isReceivers) : null) ??
      (gotestTools ? gotestToolsFact(call, gotestTools) : null);
    if (fact) assertions.push({ ...fact, startIndex: call.startIndex });
  }
  return { assertions, frameworks };
}
