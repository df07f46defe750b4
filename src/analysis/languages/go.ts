/**
 * Go: `func TestXxx(t *testing.T)` and `FuzzXxx(f *testing.F)` tests in
 * `_test.go` files, `t.Run("name", ...)` subtests, table tests (rows of the
 * composite literal a test ranges over), `t.Skip*` calls, build constraints
 * that exclude the file from a default `go test`, and assertions (`t.Error*`
 * and `t.Fatal*` under the condition that guards them, testify
 * `assert.*`/`require.*`), from tree-sitter-go with grammars/go/*.scm.
 */

import { isConditionalWithin } from "../parsers/skip-reach.js";
import {
  compactText,
  hashNode,
  hashRow,
  literalsOf,
  namedChildren,
  normalizedText,
  queryCaptures,
  stringValue,
  type AssertionDraft,
  type ExtractedDrafts,
  type LoadedGrammar,
  type Node,
  type SkipDraft,
  type SkipReach,
  type TestDraft,
} from "../parsers/tree-sitter.js";
import { counterTarget, literalText, MODE_ENV_VARS, type BranchDraft, type CatchDraft, type CodeSyntax, type EscapeDraft, type FlowSyntax, type GuardDraft } from "../parsers/tree-sitter-code.js";
import type { AssertionFact, NonTestFunctionFact, RunEscapeFact } from "../facts.js";
import { defineLanguage } from "./define-language.js";
import { goImports, goLibraryAssertions, importsGotestTools } from "./go-libraries.js";

/** `go test` compiles tests only from `_test.go` files. */
export function isGoTestPath(path: string): boolean {
  return path.endsWith("_test.go");
}

/** `TestXxx` where Xxx does not start with a lower-case letter (the `go test` rule), or `Test` alone. */
const TEST_NAME = /^Test($|[^\p{Ll}])/u;
const FUZZ_NAME = /^Fuzz($|[^\p{Ll}])/u;
/** `func ExampleXxx()` (testing package "Examples"): run by `go test` only when its body has an `// Output:` or `// Unordered output:` comment. */
const EXAMPLE_NAME = /^Example($|[^\p{Ll}])/u;
const EXAMPLE_OUTPUT = /\/\/\s*(Unordered output|Output):/i;

/** Parameter types of tests, fuzz tests and helpers that receive a testing value. */
const TESTING_PARAMETER = /(\w+)\s+\*?testing\.(T|B|F|TB)\b/g;

/**
 * Tags `go test` may satisfy on some machine: operating systems,
 * architectures, toolchains, cgo and go1.N release tags. A build constraint
 * over only these is a platform choice, not a disabled file; any other tag
 * (`ignore`, `integration`, `e2e`) is off unless passed with `-tags`.
 */
const PLATFORM_TAGS: ReadonlySet<string> = new Set([
  "aix",
  "android",
  "darwin",
  "dragonfly",
  "freebsd",
  "hurd",
  "illumos",
  "ios",
  "js",
  "linux",
  "nacl",
  "netbsd",
  "openbsd",
  "plan9",
  "solaris",
  "wasip1",
  "windows",
  "zos",
  "unix",
  "386",
  "amd64",
  "amd64p32",
  "arm",
  "armbe",
  "arm64",
  "arm64be",
  "loong64",
  "mips",
  "mipsle",
  "mips64",
  "mips64le",
  "mips64p32",
  "mips64p32le",
  "ppc",
  "ppc64",
  "ppc64le",
  "riscv",
  "riscv64",
  "s390",
  "s390x",
  "sparc",
  "sparc64",
  "wasm",
  "cgo",
  "gc",
  "gccgo",
]);

function isPlatformTag(tag: string): boolean {
  return PLATFORM_TAGS.has(tag) || /^go1\.\d+$/.test(tag);
}

type Expr = { tag: string } | { not: Expr } | { and: [Expr, Expr] } | { or: [Expr, Expr] };

/** Parses a `//go:build` expression (`!`, `&&`, `||`, parentheses); null when malformed. */
function parseBuildExpression(text: string): Expr | null {
  const tokens = text.match(/\(|\)|!|&&|\|\||[\w.]+/g) ?? [];
  let position = 0;
  const parseOr = (): Expr | null => {
    let left = parseAnd();
    while (left && tokens[position] === "||") {
      position++;
      const right = parseAnd();
      left = right ? { or: [left, right] } : null;
    }
    return left;
  };
  const parseAnd = (): Expr | null => {
    let left = parseUnary();
    while (left && tokens[position] === "&&") {
      position++;
      const right = parseUnary();
      left = right ? { and: [left, right] } : null;
    }
    return left;
  };
  const parseUnary = (): Expr | null => {
    const token = tokens[position++];
    if (token === "!") {
      const operand = parseUnary();
      return operand ? { not: operand } : null;
    }
    if (token === "(") {
      const inner = parseOr();
      return tokens[position++] === ")" ? inner : null;
    }
    return token !== undefined && /^[\w.]+$/.test(token) ? { tag: token } : null;
  };
  const expression = parseOr();
  return expression && position === tokens.length ? expression : null;
}

/** `// +build a,b c` lines -> one expression (lines AND, spaces OR, commas AND). */
function plusBuildExpression(lines: readonly string[]): string {
  return lines
    .map(
      (line) =>
        "(" +
        line
          .trim()
          .split(/\s+/)
          .map((term) => "(" + term.split(",").join(" && ") + ")")
          .join(" || ") +
        ")",
    )
    .join(" && ");
}

function evaluate(expression: Expr, value: (tag: string) => boolean): boolean {
  if ("tag" in expression) return value(expression.tag);
  if ("not" in expression) return !evaluate(expression.not, value);
  if ("and" in expression) return evaluate(expression.and[0], value) && evaluate(expression.and[1], value);
  return evaluate(expression.or[0], value) || evaluate(expression.or[1], value);
}

function tagsOf(expression: Expr, into: Set<string>): Set<string> {
  if ("tag" in expression) into.add(expression.tag);
  else if ("not" in expression) tagsOf(expression.not, into);
  else for (const part of "and" in expression ? expression.and : expression.or) tagsOf(part, into);
  return into;
}

/**
 * The build constraint of a Go file when it keeps the file out of a default
 * `go test` on every platform (custom tags off, platform tags any way), as
 * written; null when the file builds somewhere without `-tags`.
 */
export function excludingBuildConstraint(content: string): string | null {
  const header = content.slice(0, Math.max(0, content.search(/^package\s/m))) || "";
  const goBuild = /^\/\/go:build\s+(.+)$/m.exec(header);
  const plusLines = [...header.matchAll(/^\/\/\s*\+build\s+(.+)$/gm)].map((match) => match[1] as string);
  const text = goBuild ? (goBuild[1] as string).trim() : plusLines.length > 0 ? plusBuildExpression(plusLines) : null;
  if (text === null) return null;
  const expression = parseBuildExpression(text);
  if (!expression) return null;
  const platform = [...tagsOf(expression, new Set())].filter(isPlatformTag).slice(0, 12);
  for (let mask = 0; mask < 1 << platform.length; mask++) {
    const isOn = (tag: string): boolean => {
      const index = platform.indexOf(tag);
      return index !== -1 && (mask & (1 << index)) !== 0;
    };
    if (evaluate(expression, isOn)) return null;
  }
  return goBuild ? `//go:build ${text}` : `// +build ${plusLines.join(" / ")}`;
}

/** Methods of testing.T/B/F that report a failure. */
const TESTING_FAILURES: ReadonlySet<string> = new Set(["Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow"]);

/**
 * testify assert/require functions -> strength, negation, and whether the
 * expected value comes before the actual one (`Regexp(t, rx, str)`,
 * `InDelta(t, expected, actual, delta)`, `IsType(t, expectedType, object)`,
 * as testify's assert package declares them); unknown ones count as
 * truthiness checks.
 */
const TESTIFY: ReadonlyMap<string, { strength: 1 | 2 | 3; negated?: boolean; expectedFirst?: boolean }> = new Map([
  ["Equal", { strength: 3, expectedFirst: true }],
  ["Equalf", { strength: 3, expectedFirst: true }],
  ["EqualValues", { strength: 3, expectedFirst: true }],
  ["Exactly", { strength: 3, expectedFirst: true }],
  ["JSONEq", { strength: 3, expectedFirst: true }],
  ["YAMLEq", { strength: 3, expectedFirst: true }],
  ["Same", { strength: 3, expectedFirst: true }],
  ["ElementsMatch", { strength: 3, expectedFirst: true }],
  ["EqualError", { strength: 3 }],
  ["Nil", { strength: 3 }],
  ["ErrorIs", { strength: 3 }],
  ["PanicsWithValue", { strength: 3, expectedFirst: true }],
  ["PanicsWithError", { strength: 3, expectedFirst: true }],
  ["ErrorContains", { strength: 2 }],
  ["ErrorAs", { strength: 2 }],
  ["Contains", { strength: 2 }],
  ["Subset", { strength: 2 }],
  ["Len", { strength: 2 }],
  ["Greater", { strength: 2 }],
  ["GreaterOrEqual", { strength: 2 }],
  ["Less", { strength: 2 }],
  ["LessOrEqual", { strength: 2 }],
  ["IsType", { strength: 2, expectedFirst: true }],
  ["Regexp", { strength: 2, expectedFirst: true }],
  ["Implements", { strength: 2, expectedFirst: true }],
  ["InDelta", { strength: 2, expectedFirst: true }],
  ["InEpsilon", { strength: 2, expectedFirst: true }],
  ["WithinDuration", { strength: 2, expectedFirst: true }],
  ["Panics", { strength: 2 }],
  ["NotEqual", { strength: 2, negated: true }],
  ["NotContains", { strength: 2, negated: true }],
  ["NotSame", { strength: 2, negated: true }],
  ["NotErrorIs", { strength: 2, negated: true }],
  ["NotRegexp", { strength: 2, negated: true, expectedFirst: true }],
  ["True", { strength: 1 }],
  ["False", { strength: 1, negated: true }],
  ["NotNil", { strength: 1, negated: true }],
  ["NoError", { strength: 1 }],
  ["Error", { strength: 1 }],
  ["Empty", { strength: 1 }],
  ["NotEmpty", { strength: 1, negated: true }],
  ["Zero", { strength: 1 }],
  ["NotZero", { strength: 1, negated: true }],
  ["NotPanics", { strength: 1 }],
  ["Condition", { strength: 1 }],
  ["Eventually", { strength: 1 }],
  ["Fail", { strength: 1 }],
  ["FailNow", { strength: 1 }],
]);

/** The `if` whose consequence holds this call, with no function literal in between. */
function guardingIf(call: Node): Node | null {
  let node: Node | null = call.parent;
  while (node) {
    if (node.type === "func_literal" || node.type === "function_declaration") return null;
    if (node.type === "if_statement") return node;
    node = node.parent;
  }
  return null;
}

/**
 * The expression a local name of an `if` condition was bound to just before
 * it: the `if`'s own initializer (`if got := Sum(in); got != want`) or a
 * `got := Sum(in)` / `got, err := Parse(s)` among the few statements before
 * the `if` in its block; the name itself when neither binds it. So the
 * check's subject is the call under test with its arguments (analysis/checks).
 */
function boundValue(ifStatement: Node, node: Node | null): string | undefined {
  const text = compactText(node);
  if (!node || node.type !== "identifier") return text;
  const valueIn = (declaration: Node | null | undefined): string | undefined => {
    if (!declaration || (declaration.type !== "short_var_declaration" && declaration.type !== "assignment_statement")) return undefined;
    const names = namedChildren(declaration.childForFieldName("left") ?? declaration).map((child) => child.text);
    const values = namedChildren(declaration.childForFieldName("right") ?? declaration);
    const index = names.indexOf(node.text);
    if (index === -1) return undefined;
    return compactText(values.length === names.length ? values[index] : values[0]);
  };
  const own = valueIn(ifStatement.childForFieldName("initializer"));
  if (own !== undefined) return own;
  // The `if`'s block first, then the blocks holding it (a check in an `if runtime.GOOS == …` arm reads the local bound above the arm), up to its function.
  for (let statement: Node | null = ifStatement; statement; statement = enclosingStatement(statement)) {
    let previous = statement.previousNamedSibling;
    for (let steps = 0; previous && steps < 4; steps++, previous = previous.previousNamedSibling) {
      const value = valueIn(previous);
      if (value !== undefined) return value;
    }
    const initializer = statement !== ifStatement && statement.type === "if_statement" ? valueIn(statement.childForFieldName("initializer")) : undefined;
    if (initializer !== undefined) return initializer;
  }
  return text;
}

/** The expression `declaration` (`v, err := f(x)`, `v = g(x)`) binds `name` to, or undefined when it binds no such name. */
function bindingOf(declaration: Node | null | undefined, name: string): string | undefined {
  if (!declaration || (declaration.type !== "short_var_declaration" && declaration.type !== "assignment_statement")) return undefined;
  const names = namedChildren(declaration.childForFieldName("left") ?? declaration).map((child) => child.text);
  const values = namedChildren(declaration.childForFieldName("right") ?? declaration);
  const index = names.indexOf(name);
  if (index === -1) return undefined;
  return compactText(values.length === names.length ? values[index] : values[0]);
}

/**
 * The expression the local `name` read by the statement holding `node` was
 * last bound to in its function: the nearest `name := f(x)` / `v, name :=
 * f(x)` / `name = g(x)` before that statement in its block or an enclosing
 * block (or an enclosing `if`'s initializer), not looking past the function
 * literal or declaration holding it. Undefined when nothing binds it there.
 * A library assertion of a local (`c.Assert(v, qt.DeepEquals, want)` after
 * `v, err := ToBoolSliceE(in)`) then checks the call under test, as a
 * `t.Errorf` guard does ({@link boundValue}).
 */
function localBinding(node: Node, name: string): string | undefined {
  let statement: Node | null = node;
  while (statement?.parent) {
    const parent: Node = statement.parent;
    if (parent.type === "if_statement" && statement !== parent.childForFieldName("initializer")) {
      const own = bindingOf(parent.childForFieldName("initializer"), name);
      if (own !== undefined) return own;
    }
    if (parent.type === "block" || parent.type === "statement_list") {
      for (let previous = statement.previousNamedSibling; previous; previous = previous.previousNamedSibling) {
        const value = bindingOf(previous, name);
        if (value !== undefined) return value;
      }
    }
    if (parent.type === "func_literal" || parent.type === "function_declaration" || parent.type === "method_declaration") return undefined;
    statement = parent;
  }
  return undefined;
}

/**
 * Library assertions (testify, quicktest, Gomega, is, gotest.tools) of a
 * plain local get the value it was bound to ({@link localBinding}) as their
 * `actualValue`, so `v, err := f(x); c.Assert(v, qt.DeepEquals, want)`
 * checks `f(x)` (analysis/checks). An assertion comparing two plain
 * locals is left as written.
 */
function bindLibraryLocals(root: Node, assertions: AssertionDraft[]): void {
  for (const assertion of assertions) {
    if (assertion.actualValue !== undefined || assertion.actual === undefined || !/^[A-Za-z_]\w*$/.test(assertion.actual)) continue;
    if (assertion.matcher.startsWith("if ") || assertion.matcher.startsWith("helper ")) continue;
    // Two locals compared with each other (`assert.NotEqual(t, o, r)`) stay as written, as the `r == o` they may have replaced.
    if (assertion.expected !== undefined && /^[A-Za-z_]\w*$/.test(assertion.expected) && !/^(?:nil|true|false)$/.test(assertion.expected)) continue;
    const node = root.descendantForIndex(assertion.startIndex);
    if (!node) continue;
    const value = localBinding(node, assertion.actual);
    if (value !== undefined && value !== assertion.actual) assertion.actualValue = value;
  }
}

/** The statement whose block holds `statement` (an `if`, `for` or `switch` arm's statement list), or null at a function's body. */
function enclosingStatement(statement: Node): Node | null {
  for (let node = statement.parent; node; node = node.parent) {
    if (node.type === "func_literal" || node.type === "function_declaration" || node.type === "method_declaration") return null;
    if (node.type !== "block" && node.type !== "statement_list" && (node.parent?.type === "block" || node.parent?.type === "statement_list")) return node;
  }
  return null;
}

/**
 * The disjuncts of a Go condition, parentheses dropped: `err != nil || got
 * != want` -> [`err != nil`, `got != want`]; the condition alone when it is
 * no top-level `||`. A failure reported when any disjunct holds states that
 * none holds: one check per disjunct, as the separate `if`s it may have
 * replaced (the `&&` of an asserted conjunction splits the same way,
 * analysis/checks conjunctFacts).
 */
function disjunctsOf(condition: Node): Node[] {
  let node = condition;
  while (node.type === "parenthesized_expression" && node.namedChildCount === 1) node = node.namedChild(0) as Node;
  if (node.type !== "binary_expression" || (node.childForFieldName("operator")?.text ?? node.child(1)?.text) !== "||") return [condition];
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  return left && right ? [...disjunctsOf(left), ...disjunctsOf(right)] : [condition];
}

/** The equality check a comparison call states (`reflect.DeepEqual(got, want)`, `cmp.Diff(want, got)`): its two arguments, the first's bound value read. */
function equalityFact(guard: Node, base: { line: number; matcher: string; tautology: boolean }, call: Node): AssertionFact {
  const fact: AssertionFact = { ...base, strength: 3, matcher: `if !equal ${base.matcher}` };
  const args = namedChildren(call.childForFieldName("arguments") ?? call);
  if (args.length === 2) {
    const actual = compactText(args[0]);
    const value = boundValue(guard, args[0] as Node);
    const expected = compactText(args[1]);
    if (actual !== undefined) fact.actual = actual;
    if (value !== undefined && value !== actual) fact.actualValue = value;
    if (expected !== undefined) fact.expected = expected;
  }
  return fact;
}

/** The `cmp.Diff(…)` call `node` is, or that the local `node` names was bound to by the `if`'s initializer or a statement just before it; null otherwise. */
function diffCall(guard: Node, node: Node | null): Node | null {
  const isDiff = (candidate: Node | null | undefined): boolean =>
    candidate?.type === "call_expression" &&
    /^(?:\w+\.)?Diff$/.test(candidate.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "") &&
    namedChildren(candidate.childForFieldName("arguments") ?? candidate).length >= 2;
  if (!node) return null;
  if (isDiff(node)) return node;
  if (node.type !== "identifier") return null;
  const declarations = [guard.childForFieldName("initializer"), guard.previousNamedSibling];
  for (const declaration of declarations) {
    if (declaration?.type !== "short_var_declaration" && declaration?.type !== "assignment_statement") continue;
    const names = namedChildren(declaration.childForFieldName("left") ?? declaration);
    const values = namedChildren(declaration.childForFieldName("right") ?? declaration);
    const index = names.findIndex((name) => name.text === node.text);
    if (index !== -1 && isDiff(values[index])) return values[index] as Node;
  }
  return null;
}

/** Local names Go code gives errors: `err`, `err2`, `errClose`, `parseErr`, `wantErr` is no local of the call but reads so too. */
const GO_ERROR_NAME = /^(?:err(?:[A-Z0-9]\w*)?|\w*Err(?:or)?\d*)$/;

/** True when a condition is `false`, or a conjunction (`&&`) one of whose operands is, parentheses read through. */
function isNeverTrue(condition: Node): boolean {
  if (condition.type === "parenthesized_expression") return namedChildren(condition).some(isNeverTrue);
  if (condition.type === "false") return true;
  if (condition.type !== "binary_expression" || (condition.childForFieldName("operator")?.text ?? condition.child(1)?.text) !== "&&") return false;
  return [condition.childForFieldName("left"), condition.childForFieldName("right")].some((side) => side !== null && isNeverTrue(side));
}

/** `t.Errorf(...)` as AssertionFacts, judged by the condition of the `if` that guards it: one per disjunct of the condition ({@link disjunctsOf}). */
function testingCallFacts(call: Node, object: string, matcher: string, line: number): AssertionFact[] {
  const guard = guardingIf(call);
  const condition = guard?.childForFieldName("condition");
  if (!guard || !condition) return [{ line, matcher: `${object}.${matcher}`, tautology: false, strength: 1 }];
  return disjunctsOf(condition).map((disjunct) => testingCallFact(guard, disjunct, object, matcher, line));
}

/** `t.Errorf(...)` as an AssertionFact, judged by one condition (or disjunct of the condition) of the `if` that guards it. */
function testingCallFact(guard: Node, condition: Node, object: string, matcher: string, line: number): AssertionFact {
  const base = { line, matcher: `${object}.${matcher}`, tautology: false };
  if (condition.type === "false" || condition.type === "true") {
    return { ...base, strength: 0, tautology: condition.type === "false", actual: condition.text };
  }
  // `if err == nil && false { t.Errorf(…) }`: a conjunction with a false operand never holds, so the test never fails here.
  if (isNeverTrue(condition)) return { ...base, strength: 0, tautology: true, actual: compactText(condition) ?? condition.text };
  if (condition.type === "binary_expression") {
    const operator = condition.childForFieldName("operator")?.text ?? condition.child(1)?.text ?? "";
    const left = condition.childForFieldName("left");
    const right = condition.childForFieldName("right");
    const isNilCheck = left?.type === "nil" || right?.type === "nil";
    // go-cmp's `cmp.Diff(want, got) != ""` (or `diff := cmp.Diff(…); diff != ""`) is the equality `!cmp.Equal(want, got)` states.
    const diff = operator === "!=" ? (right?.text === '""' ? diffCall(guard, left) : left?.text === '""' ? diffCall(guard, right) : null) : null;
    if (diff) return equalityFact(guard, base, diff);
    if (!isNilCheck && (operator === "!=" || operator === "==")) {
      const fact: AssertionFact = { ...base, strength: operator === "!=" ? 3 : 2, matcher: `if ${operator} ${base.matcher}` };
      const actual = compactText(left);
      const expected = compactText(right);
      if (actual !== undefined) fact.actual = actual;
      const value = left ? boundValue(guard, left) : undefined;
      if (value !== undefined && value !== actual) fact.actualValue = value;
      if (expected !== undefined) fact.expected = expected;
      if (operator === "==") fact.negated = true;
      // `id1 != id2` with both locals bound to calls: what each side computes (AssertionFact.comparedValues).
      if (left?.type === "identifier" && right?.type === "identifier") {
        const sides = [localBinding(guard, left.text), localBinding(guard, right.text)];
        if (sides.every((side) => side !== undefined && /\)$/.test(side))) fact.comparedValues = sides as [string, string];
      }
      if (actual !== undefined && actual === expected) {
        fact.strength = 0;
        fact.tautology = operator === "==";
      }
      return fact;
    }
    // `if secs < 0 { t.Error(…) }` requires `secs >= 0` of its operands (checks/relations.ts reads the matcher's operator as
    // the condition that fails the test, its complement the relation required).
    if (["<", ">", "<=", ">="].includes(operator)) {
      const fact: AssertionFact = { ...base, strength: 2, matcher: `if ${operator} ${base.matcher}` };
      const actual = compactText(left);
      const expected = compactText(right);
      if (actual !== undefined) fact.actual = actual;
      if (expected !== undefined) fact.expected = expected;
      return fact;
    }
    // `_, err := Parse("x"); if err == nil { t.Errorf(…) }`: the value must not be nil, the error of the call it was bound to
    // (testify's `assert.Error(t, err)`, `assert.NotNil(t, v)`), a negated equality with nil as `if x == y` is.
    const unset = isNilCheck && operator === "==" ? (left?.type === "nil" ? right : left) : null;
    if (unset && unset.type !== "nil") {
      // An error named as Go names them (`err`, `parseErr`, `errClose`) is the call's failure: `if err == nil` expects the call to
      // fail, a throws check of it (checks/relations.ts), as `assert.Error(t, err)` is.
      const isError = unset.type === "identifier" && GO_ERROR_NAME.test(unset.text);
      const fact: AssertionFact = isError
        ? { ...base, strength: 1, matcher: `if err == nil ${base.matcher}` }
        : { ...base, strength: 2, matcher: `if == ${base.matcher}`, negated: true, expected: "nil" };
      const actual = compactText(unset);
      if (actual !== undefined) fact.actual = actual;
      const value = unset.type === "identifier" ? boundValue(guard, unset) : undefined;
      if (value !== undefined && value !== actual) fact.actualValue = value;
      return fact;
    }
    const fact: AssertionFact = { ...base, strength: 1, matcher: `if ${base.matcher}` };
    // `v, err := NewVersion(s); if err != nil { t.Errorf(…) }`: the call whose error it checks (AssertionFact.errorOf).
    const checked = isNilCheck && operator === "!=" ? (left?.type === "nil" ? right : left) : null;
    const call = checked?.type === "identifier" ? boundValue(guard, checked) : undefined;
    if (call !== undefined && call !== checked?.text && /\)$/.test(call)) fact.errorOf = call;
    return fact;
  }
  // `errors.Is(err, target)` is the identity of an error or one it wraps: testify's ErrorIs, an exact check (strength 3).
  if (condition.type === "unary_expression" && /^!\s*(reflect\.DeepEqual|cmp\.Equal|bytes\.Equal|slices\.Equal|maps\.Equal|errors\.Is)\b/.test(condition.text)) {
    const call = namedChildren(condition)[0];
    return call ? equalityFact(guard, base, call) : { ...base, strength: 3, matcher: `if !equal ${base.matcher}` };
  }
  // `if !IsZero(v) { t.Error(…) }` checks IsZero(v); `if Has(v) { t.Error(…) }` checks that Has(v) is false: the subject is named, so
  // a check of a function the change removed is known as one (rules/features.ts), whatever the weak relation.
  const fact: AssertionFact = { ...base, strength: 1, matcher: `if ${base.matcher}` };
  const negatedCall = condition.type === "unary_expression" && condition.text.trimStart().startsWith("!") ? namedChildren(condition)[0] : undefined;
  const subject = negatedCall?.type === "call_expression" ? negatedCall : condition.type === "call_expression" ? condition : undefined;
  const actual = subject ? compactText(subject) : undefined;
  if (actual !== undefined) fact.actual = actual;
  return fact;
}

/** `assert.Equal(t, want, got)` (or a suite's `s.Equal(want, got)`, with `skipped` 0) as an AssertionFact. */
function testifyFact(object: string, matcher: string, args: Node | undefined, line: number, skipped = 1): AssertionFact {
  const rank = TESTIFY.get(matcher) ?? TESTIFY.get(matcher.replace(/f$/, "")) ?? { strength: 1 as const };
  // assert.Equal(t, want, got) skips the t argument; suite methods (s.Equal(want, got)) have none.
  const [first, second, third] = args ? namedChildren(args).slice(skipped) : [];
  const fact: AssertionFact = { line, matcher: `${object}.${matcher}`, strength: rank.strength, tautology: false };
  if (rank.negated) fact.negated = true;
  // InDelta(t, want, got, delta) / InEpsilon(t, want, got, epsilon): the tolerance (checks/tolerance.ts).
  if (third && /^In(?:Delta|Epsilon)/.test(matcher)) fact.tolerance = compactText(third) as string;
  if (first && second && rank.strength >= 2) {
    const [expected, actual] = rank.expectedFirst ? [first, second] : [second, first];
    fact.expected = compactText(expected) as string;
    fact.actual = compactText(actual) as string;
    if (!rank.negated && rank.strength === 3 && fact.expected === fact.actual) {
      fact.strength = 0;
      fact.tautology = true;
    }
  } else if (first) {
    fact.actual = compactText(first) as string;
    if ((matcher === "True" && first.type === "true") || (matcher === "False" && first.type === "false") || (matcher === "Nil" && first.type === "nil")) {
      fact.strength = 0;
      fact.tautology = true;
    }
  }
  return fact;
}

/** The rows of a composite literal table: slice elements, or map values. */
function tableRows(literal: Node): Node[] | null {
  const body = literal.childForFieldName("body");
  if (literal.type !== "composite_literal" || !body) return null;
  const type = literal.childForFieldName("type")?.type ?? "";
  if (!["slice_type", "array_type", "map_type", "implicit_length_array_type"].includes(type)) return null;
  return namedChildren(body);
}

/** The elements of one table row as normalised text: the fields of a `{...}` row (keyed ones with their key), or the row itself. */
function rowElements(row: Node): string[] {
  const value = row.type === "literal_element" && row.namedChildCount === 1 ? (row.namedChild(0) ?? row) : row;
  const body = value.type === "literal_value" ? value : value.type === "composite_literal" ? value.childForFieldName("body") : null;
  const elements = body ? namedChildren(body).filter((child) => child.type !== "comment") : [row];
  return elements.map((element) => normalizedText(element));
}

/** The composite literal a `for ... range X` loop of a test ranges over, resolving X to a local `X := []T{...}` / `var X = ...`. */
function rangedTable(loop: Node, scope: Node): Node | null {
  const clause = namedChildren(loop).find((child) => child.type === "range_clause");
  const right = clause?.childForFieldName("right");
  if (!right) return null;
  if (right.type === "composite_literal") return right;
  return right.type === "identifier" ? localLiteral(right.text, loop.startIndex, scope) : null;
}

/** The composite literal the local `name` of `scope` is bound to before `before` (`tests := []T{...}`, `var tests = ...`), or null. */
function localLiteral(name: string, before: number, scope: Node): Node | null {
  let found: Node | null = null;
  const visit = (node: Node): void => {
    if (found || node.startIndex >= before) return;
    if (node.type === "short_var_declaration" || node.type === "var_spec" || node.type === "assignment_statement") {
      const left = node.childForFieldName("left") ?? node.childForFieldName("name");
      const value = node.childForFieldName("right") ?? node.childForFieldName("value");
      const names = left ? (left.type === "expression_list" ? namedChildren(left) : [left]) : [];
      const values = value ? (value.type === "expression_list" ? namedChildren(value) : [value]) : [];
      const index = names.findIndex((candidate) => candidate.text === name);
      const candidate = index === -1 ? undefined : values[index];
      if (candidate?.type === "composite_literal") found = candidate;
      return;
    }
    for (const child of namedChildren(node)) visit(child);
  };
  visit(scope);
  return found;
}

/** The parameter names of a Go function's parameter list, in order (`(t *testing.T, a, b int)` -> t, a, b). */
function goParameterNames(parameters: Node | null): string[] {
  if (!parameters) return [];
  return namedChildren(parameters).flatMap((declaration) =>
    declaration
      .childrenForFieldName("name")
      .filter((name): name is Node => name !== null)
      .map((name) => name.text),
  );
}

/** The type node of the parameter `name` of a function declaration or literal, or null. */
function parameterType(fn: Node, name: string): Node | null {
  for (const declaration of namedChildren(fn.childForFieldName("parameters") ?? fn)) {
    if (declaration.type !== "parameter_declaration") continue;
    if (declaration.childrenForFieldName("name").some((node) => node?.text === name)) return declaration.childForFieldName("type");
  }
  return null;
}

/** True when `fn`'s body has a `for ... range <name>` loop. */
function rangesOver(fn: Node, name: string): boolean {
  return descendantsOfType(fn, "range_clause").some((clause) => clause.childForFieldName("right")?.text === name);
}

/**
 * The literal table a test hands to a runner of its file: a call
 * `runSliceTests(t, testCases, cast.ToBoolSlice, cast.ToBoolSliceE)` of a
 * function declared in the file that ranges over the parameter the table
 * (a composite literal, or a local bound to one before the call) is passed
 * as. Such a test's rows are that table's (TestCase.eachRowLiterals): the
 * runner checks each of them (sweep of spf13/cast 4e7df044b1). Null when
 * the test calls no such runner with a literal table.
 */
function runnerTable(body: Node, functions: ReadonlyMap<string, Node>): Node | null {
  for (const call of descendantsOfType(body, "call_expression")) {
    const callee = call.childForFieldName("function");
    const runner = callee?.type === "identifier" ? functions.get(callee.text) : undefined;
    if (!runner) continue;
    const params = goParameterNames(runner.childForFieldName("parameters"));
    const args = namedChildren(call.childForFieldName("arguments") ?? call);
    for (const [index, arg] of args.entries()) {
      const param = params[index];
      if (param === undefined || !rangesOver(runner, param)) continue;
      const table = arg.type === "composite_literal" ? arg : arg.type === "identifier" ? localLiteral(arg.text, call.startIndex, body) : null;
      if (table && tableRows(table)) return table;
    }
  }
  return null;
}

/** The field names of a struct type, in order (`a, b int` gives two; an embedded field its type's name). */
function structFields(struct: Node): string[] {
  const list = namedChildren(struct).find((child) => child.type === "field_declaration_list");
  return namedChildren(list ?? struct)
    .filter((field) => field.type === "field_declaration")
    .flatMap((field) => {
      const names = field.childrenForFieldName("name").filter((name): name is Node => name !== null);
      return names.length > 0 ? names.map((name) => name.text) : [(field.childForFieldName("type")?.text ?? "").replace(/^\*/, "").replace(/^.*\./, "")];
    });
}

/** The struct type of a table's rows: the element (or map value) type of `[]struct{...}`, `[]T`, `map[K]T` with `type T struct{...}` in the file; null otherwise. */
function rowStruct(tableType: Node | null, structs: ReadonlyMap<string, Node>): Node | null {
  if (!tableType) return null;
  const element = tableType.type === "map_type" ? tableType.childForFieldName("value") : tableType.childForFieldName("element");
  if (!element) return null;
  if (element.type === "struct_type") return element;
  return element.type === "type_identifier" ? (structs.get(element.text) ?? null) : null;
}

/**
 * Row columns of the assertions inside the file's table loops
 * (AssertionFact.rowColumns): a `for _, test := range tests` over a table of
 * struct rows (a literal, a local bound to one, or a parameter of a
 * runner, `testCases []testCase`) maps each `test.<field>` to `row.$<n>`,
 * the field's position in the row type. An inner loop's reads are added to
 * the outer's.
 */
function bindRowColumns(root: Node, assertions: AssertionDraft[]): Map<string, Node> {
  const structs = new Map<string, Node>();
  for (const spec of descendantsOfType(root, "type_spec")) {
    const name = spec.childForFieldName("name")?.text;
    const type = spec.childForFieldName("type");
    if (name && type?.type === "struct_type") structs.set(name, type);
  }
  for (const loop of descendantsOfType(root, "for_statement")) {
    const clause = namedChildren(loop).find((child) => child.type === "range_clause");
    const left = clause?.childForFieldName("left");
    const names = left ? namedChildren(left) : [];
    const right = clause?.childForFieldName("right");
    const row = names.length === 2 ? names[1] : undefined;
    if (!clause || !right || row?.type !== "identifier") continue;
    let fn: Node | null = loop.parent;
    while (fn && fn.type !== "function_declaration" && fn.type !== "func_literal" && fn.type !== "method_declaration") fn = fn.parent;
    const table = right.type === "composite_literal" ? right : right.type === "identifier" && fn ? localLiteral(right.text, loop.startIndex, fn) : null;
    const tableType = table ? table.childForFieldName("type") : right.type === "identifier" && fn ? parameterType(fn, right.text) : null;
    const struct = rowStruct(tableType, structs);
    const element = tableType?.type === "map_type" ? tableType.childForFieldName("value") : tableType?.childForFieldName("element");
    if (!struct && element?.type === "type_identifier") {
      // Declared in another file of the package: its columns are read there (row-types.ts).
      for (const assertion of assertions) {
        if (assertion.startIndex >= loop.startIndex && assertion.startIndex < loop.endIndex && assertion.rowType === undefined) assertion.rowType = { row: row.text, type: element.text };
      }
      continue;
    }
    if (!struct) continue;
    const columns = rowColumnsOf(row.text, structFields(struct));
    for (const assertion of assertions) {
      if (assertion.startIndex < loop.startIndex || assertion.startIndex >= loop.endIndex) continue;
      assertion.rowColumns = { ...columns, ...assertion.rowColumns };
    }
  }
  return structs;
}

/** The columns of a loop's row `row` over struct rows with `fields` (AssertionFact.rowColumns): `row.<field>` -> `row.$<position>`. */
export function rowColumnsOf(row: string, fields: readonly string[]): Record<string, string> {
  const columns: Record<string, string> = {};
  fields.forEach((field, index) => {
    if (field !== "") columns[`${row}.${field}`] = `row.$${index}`;
  });
  return columns;
}

/**
 * The name an external test package (`package cast_test`) qualifies its
 * package under test by: the import whose name (its alias, or the last
 * element of its path, a `/vN` major version skipped) is the package's
 * name without `_test`. Undefined for an internal test package or when the
 * file does not import its package (ExtractedDrafts.selfQualifier).
 */
export function goSelfQualifier(root: Node): string | undefined {
  const clause = namedChildren(root).find((child) => child.type === "package_clause");
  const own = /^(\w+)_test$/.exec(namedChildren(clause ?? root).find((child) => child.type === "package_identifier")?.text ?? "")?.[1];
  if (own === undefined) return undefined;
  return [...goImports(root).values()].includes(own) ? own : undefined;
}

/**
 * What a `TestMain(m *testing.M)` of the file does to the package's tests:
 * a TestMain that never calls `m.Run()` runs none of them (it exits, with 0
 * when it falls off its end); one that calls it only under a condition (or
 * after an early return) runs them only then. Null when there is no
 * TestMain or it always runs them.
 */
function testMainSkip(root: Node): { flag: "skipped" | "conditional"; via: string } | null {
  for (const fn of descendantsOfType(root, "function_declaration")) {
    if (fn.childForFieldName("name")?.text !== "TestMain" || fn.parent?.type !== "source_file") continue;
    const param = /^\(\s*(\w+)\s+\*\s*testing\.M\s*\)$/.exec(fn.childForFieldName("parameters")?.text ?? "");
    const body = fn.childForFieldName("body");
    if (!param || !body) continue;
    const run = descendantsOfType(body, "call_expression").find((call) => call.childForFieldName("function")?.text === `${param[1]}.Run`);
    if (!run) return { flag: "skipped", via: `TestMain never calls ${param[1]}.Run()` };
    if (isConditionalWithin(run, fn)) return { flag: "conditional", via: `TestMain calls ${param[1]}.Run() only under a condition` };
  }
  return null;
}

/**
 * Exits of a `TestMain(m *testing.M)` that report success whatever the
 * tests did: `os.Exit(0)` (after `m.Run()`, whose status it drops, or
 * before it). The testing package's contract is `os.Exit(m.Run())` or a
 * plain return (Go 1.15+ then exits with m.Run's status).
 */
function testMainEscapes(root: Node): RunEscapeFact[] {
  const found: RunEscapeFact[] = [];
  for (const fn of descendantsOfType(root, "function_declaration")) {
    if (fn.childForFieldName("name")?.text !== "TestMain" || fn.parent?.type !== "source_file") continue;
    if (!/^\(\s*\w+\s+\*\s*testing\.M\s*\)$/.test(fn.childForFieldName("parameters")?.text ?? "")) continue;
    for (const call of descendantsOfType(fn, "call_expression")) {
      if (call.childForFieldName("function")?.text.replace(/\s+/g, "") !== "os.Exit") continue;
      const args = call.childForFieldName("arguments");
      const first = args ? namedChildren(args)[0] : undefined;
      if (!first || !/^0+$|^0[xX]0+$/.test(first.text)) continue;
      found.push({ line: call.startPosition.row + 1, function: "TestMain", text: call.text.replace(/\s+/g, " ").slice(0, 200) });
    }
  }
  return found;
}

function descendantsOfType(node: Node, type: string): Node[] {
  return node.descendantsOfType(type).filter((child): child is Node => child !== null);
}

function extractGoDrafts(path: string, grammar: LoadedGrammar, root: Node, content: string): ExtractedDrafts {
  const tests: TestDraft[] = [];
  const nonTestFunctions: NonTestFunctionFact[] = [];
  // `go test ./...` skips vendor/ (module dependencies), and testdata/ holds no packages.
  const isTestFile = isGoTestPath(path) && !/(^|\/)(vendor|testdata)\//.test(path);
  const constraint = isTestFile ? excludingBuildConstraint(content) : null;
  const testingNames = new Set([...content.matchAll(TESTING_PARAMETER)].map((match) => match[1] as string));
  const matches = queryCaptures(grammar, "tests", root);
  const functions = new Map<string, Node>();
  for (const fn of descendantsOfType(root, "function_declaration")) {
    const fnName = fn.childForFieldName("name")?.text;
    if (fnName && fn.parent?.type === "source_file") functions.set(fnName, fn);
  }

  for (const match of matches) {
    const definition = match.get("definition");
    const name = match.get("name")?.text;
    const body = match.get("body");
    const params = match.get("params")?.text ?? "";
    if (!definition || !name || !body) continue;
    const line = definition.startPosition.row + 1;
    const bodyHash = hashNode(body);
    const isExample = EXAMPLE_NAME.test(name) && /^\(\s*\)$/.test(params) && EXAMPLE_OUTPUT.test(body.text);
    const isTest = isTestFile && ((TEST_NAME.test(name) && /\*\s*testing\.T\b/.test(params)) || (FUZZ_NAME.test(name) && /\*\s*testing\.F\b/.test(params)) || isExample);
    if (!isTest) {
      if (isTestFile) nonTestFunctions.push({ name, suitePath: [], line, bodyHash });
      continue;
    }
    const draft: TestDraft = { name, suitePath: [], line, node: definition, bodyHash, marks: {}, literals: literalsOf(body), body };
    if (constraint) draft.marks.skipped = { via: constraint, reason: constraint };
    const loop = descendantsOfType(body, "for_statement").find((candidate) => rangedTable(candidate, body) !== null);
    const table = (loop ? rangedTable(loop, body) : null) ?? runnerTable(body, functions);
    const rows = table ? tableRows(table) : null;
    if (rows) {
      draft.eachRows = rows.length;
      draft.eachRowHashes = rows.map(hashRow);
      draft.eachRowLiterals = rows.map(literalsOf);
      draft.eachRowElements = rows.map(rowElements);
    }
    tests.push(draft);
  }

  // testify suites: Test* methods of a type that embeds suite.Suite, run by suite.Run(t, new(T)).
  const suiteReceivers = new Set<string>();
  const isSuiteFile = isTestFile && /"github\.com\/stretchr\/testify\/suite"/.test(content);
  for (const match of matches) {
    const method = match.get("method");
    const name = match.get("name")?.text;
    const body = match.get("body");
    const receiver = match.get("receiver");
    if (!isSuiteFile || !method || !name || !body || !receiver) continue;
    const declaration = namedChildren(receiver)[0];
    const receiverName = declaration?.childForFieldName("name")?.text;
    const typeName = declaration?.childForFieldName("type")?.text.replace(/^\*/, "") ?? "";
    const line = method.startPosition.row + 1;
    if (!TEST_NAME.test(name) || !typeName) {
      nonTestFunctions.push({ name, suitePath: [typeName], line, bodyHash: hashNode(body) });
      continue;
    }
    if (receiverName) suiteReceivers.add(receiverName);
    tests.push({ name, suitePath: [typeName], line, node: method, bodyHash: hashNode(body), marks: {}, literals: literalsOf(body), body });
  }
  tests.sort((a, b) => a.node.startIndex - b.node.startIndex);

  const skips: SkipDraft[] = [];
  const subtests: TestDraft[] = [];
  for (const match of matches) {
    const call = match.get("call");
    const object = match.get("object")?.text;
    const method = match.get("method")?.text;
    if (!call || !object || !method || !testingNames.has(object)) continue;
    const args = match.get("args");
    const [first, second] = args ? namedChildren(args) : [];
    if (method === "Run") {
      const title = stringValue(first);
      if (title === null || second?.type !== "func_literal") continue;
      const parent = [...tests, ...subtests]
        .filter((draft) => draft.node.startIndex <= call.startIndex && call.endIndex <= draft.node.endIndex)
        .sort((a, b) => b.node.startIndex - a.node.startIndex)[0];
      if (!parent) continue;
      const body = second.childForFieldName("body");
      const draft: TestDraft = {
        name: title,
        suitePath: [...parent.suitePath, parent.name],
        line: call.startPosition.row + 1,
        node: call,
        bodyHash: hashNode(body),
        marks: { ...parent.marks },
        literals: body ? literalsOf(body) : [],
        body,
      };
      subtests.push(draft);
      continue;
    }
    const reason = stringValue(first);
    const skip: SkipDraft = { startIndex: call.startIndex, flag: "skipped", via: `${object}.${method}()`, node: call };
    if (reason !== null) skip.reason = reason;
    skips.push(skip);
  }
  const allTests = [...tests, ...subtests].sort((a, b) => a.node.startIndex - b.node.startIndex);
  const main = isTestFile ? testMainSkip(root) : null;
  if (main) for (const draft of allTests) if (!draft.marks[main.flag]) draft.marks[main.flag] = { via: main.via };

  const assertions: AssertionDraft[] = [];
  const checkGuards = new Map<number, number>();
  const frameworks: string[] = isTestFile ? ["testing"] : [];
  const imports = goImports(root);
  const usesGotestTools = importsGotestTools(imports);
  for (const match of queryCaptures(grammar, "assertions", root)) {
    const object = match.get("object")?.text ?? "";
    const matcher = match.get("matcher")?.text ?? "";
    const node = match.get("call") ?? match.get("suite_chain");
    if (!node) continue;
    const line = node.startPosition.row + 1;
    let fact: AssertionFact;
    if (!match.has("suite_chain") && testingNames.has(object) && TESTING_FAILURES.has(matcher)) {
      for (const part of testingCallFacts(node, object, matcher, line)) assertions.push({ ...part, startIndex: node.startIndex });
      const guard = guardingIf(node);
      if (guard) checkGuards.set(node.startIndex, guard.startIndex);
      continue;
    }
    if (match.has("suite_chain")) {
      if (!suiteReceivers.has(object)) continue;
      fact = testifyFact(object, matcher, match.get("args"), line, 0);
      frameworks.push("testify");
    } else if ((object === "assert" && !usesGotestTools) || object === "require") {
      fact = testifyFact(object, matcher, match.get("args"), line);
      frameworks.push("testify");
    } else if (suiteReceivers.has(object) && TESTIFY.has(matcher)) {
      // s.Equal(want, got) inside a suite method: testify's assertions without the t argument
      fact = testifyFact(object, matcher, match.get("args"), line, 0);
      frameworks.push("testify");
    } else {
      continue;
    }
    assertions.push({ ...fact, startIndex: node.startIndex });
  }
  const libraries = goLibraryAssertions(root, content, imports);
  if (libraries.assertions.length > 0) {
    assertions.push(...libraries.assertions);
    assertions.sort((a, b) => a.startIndex - b.startIndex);
  }
  frameworks.push(...libraries.frameworks);
  bindLibraryLocals(root, assertions);
  const structs = bindRowColumns(root, assertions);
  const drafts: ExtractedDrafts = { tests: allTests, assertions, skips, nonTestFunctions, frameworks, skipReach: GO_SKIP_REACH, checkGuards };
  if (isTestFile && structs.size > 0) drafts.rowStructs = Object.fromEntries([...structs].map(([name, struct]) => [name, structFields(struct)]));
  const qualifier = isTestFile ? goSelfQualifier(root) : undefined;
  if (qualifier !== undefined) drafts.selfQualifier = qualifier;
  if (main) drafts.skipProviders = [{ kind: "setup", name: "TestMain", flag: main.flag, via: main.via }];
  const escapes = isTestFile ? testMainEscapes(root) : [];
  if (escapes.length > 0) drafts.runEscapes = escapes;
  return drafts;
}

/** Go: a function of the package that skips reaches the tests calling it, in this file or another of the package (TestCase.calls). */
const GO_SKIP_REACH: SkipReach = {
  classify(fn) {
    const name = fn.childForFieldName("name")?.text;
    return name ? { kind: "helper", name } : null;
  },
  functionTypes: new Set(["function_declaration", "method_declaration"]),
  recordsCalls: "called-names",
};

/** Callees whose result is an error value: `errors.New`, `fmt.Errorf`, `pkg.Wrap`, `NewValidationError`, `status.Error`. */
const GO_ERROR_CALL = /(^|\.)(New|Errorf|Wrapf?|WithMessagef?|WithStack|Join)$|Err|Error/;

/** True when a returned Go expression is an error (not `nil`): `err`, `ErrX`, `fmt.Errorf(...)`, `&ParseError{...}`. */
function isGoError(node: Node): boolean {
  switch (node.type) {
    case "identifier":
      return /^err|Err|Error$/.test(node.text);
    case "selector_expression":
      return /^Err|Error$/.test(node.childForFieldName("field")?.text ?? "");
    case "call_expression":
      return GO_ERROR_CALL.test(node.childForFieldName("function")?.text ?? "");
    case "unary_expression":
    case "composite_literal": {
      const inner = node.type === "unary_expression" ? node.childForFieldName("operand") : node;
      return /Err|Error/.test(inner?.childForFieldName("type")?.text ?? "");
    }
    default:
      return false;
  }
}

/** Go function nodes, whose `result` field says what a `return` inside them returns. */
const GO_FUNCTIONS: ReadonlySet<string> = new Set(["function_declaration", "method_declaration", "func_literal"]);

/**
 * True when the function around `node` may return an error: its results
 * name `error` (or a type named like one, `*ParseError`), or are not
 * written (a bare func literal). A value named like an error returned from
 * a function of other results (`slog.LevelError` from a `slog.Leveler`) is
 * no error.
 */
function returnsGoError(node: Node): boolean {
  let fn: Node | null = node.parent;
  while (fn && !GO_FUNCTIONS.has(fn.type)) fn = fn.parent;
  const result = fn?.childForFieldName("result");
  return !result || /\berror\b|Err|Error/.test(result.text);
}

/** The error a Go block ends with: the last value of a final `return` when it is an error (of a function that returns one), or a final `panic(...)`. */
function goErrorExit(block: Node | null): Node | null {
  const last = block ? namedChildren(block).at(-1) : undefined;
  if (!last) return null;
  if (last.type === "return_statement") {
    if (!returnsGoError(last)) return null;
    const values = namedChildren(last)[0];
    const error = values?.type === "expression_list" ? namedChildren(values).at(-1) : values;
    return error && isGoError(error) ? error : null;
  }
  const call = last.type === "expression_statement" ? last.namedChild(0) : null;
  return call?.type === "call_expression" && call.childForFieldName("function")?.text === "panic" ? call : null;
}

/**
 * A `case` of a `switch` that returns an error or panics: a guard. In a
 * tagless `switch { case n > 2: … }` the case's expressions are the
 * condition (as the `if` it rewrites); in `switch x { case 1, 2: … }` and a
 * type switch, the switched value matched against the case's labels; a
 * `default:` guards the switched value's other values (the negated value,
 * as in C# and Java).
 */
function goCaseGuards(node: Node): GuardDraft[] {
  const action = goErrorExit(node);
  const subject = node.parent?.childForFieldName("value") ?? null;
  if (!action) return [];
  if (node.type === "default_case") return subject ? [{ condition: subject, action, isNegated: true }] : [];
  const labels = node.type === "type_case" ? node.childrenForFieldName("type").filter((label): label is Node => label?.isNamed === true) : namedChildren(node.childForFieldName("value") ?? node);
  if (subject) return labels.length > 0 ? [{ condition: subject, action, patterns: labels }] : [];
  const value = node.childForFieldName("value");
  return value ? [{ condition: value, action }] : [];
}

/** Unsigned parses of strconv (The Go standard library, strconv.ParseUint): a negative input is an error. */
const GO_UNSIGNED_PARSE = /^(?:strconv\.)?ParseUint$/;

/** `v, err := strconv.ParseUint(…)` (or `=`) with the error kept: `v` (FunctionFact.unsignedValues). `v, _ :=` drops the rejection. */
function goUnsignedValues(node: Node): string[] {
  const left = namedChildren(node.childForFieldName("left") ?? node);
  const right = namedChildren(node.childForFieldName("right") ?? node);
  const call = right.length === 1 && right[0]?.type === "call_expression" ? right[0] : null;
  const callee = call?.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
  const [value, error] = left;
  if (!GO_UNSIGNED_PARSE.test(callee) || left.length !== 2 || value?.type !== "identifier" || error?.type !== "identifier" || error.text === "_") return [];
  return [value.text];
}

/** A `const` spec's names with their values (`const a, b = false, true`). */
function goConstants(node: Node): { name: string; value: Node | null }[] {
  const list = node.childForFieldName("value");
  const values = list ? namedChildren(list) : [];
  const names = node.childrenForFieldName("name").filter((name): name is Node => name?.type === "identifier");
  return names.map((name, index) => ({ name: name.text, value: values[index] ?? null }));
}

/**
 * Go's error-handling sites (Effective Go, "Errors": a function reports
 * failure as its last result): `v, err := f()` / `err = f()` keeps the
 * error for a check, `_ = f()` / `v, _ := f()` discards it. Keyed by the
 * callee, so `err := f()` turned into `_ = f()` pairs up (the `if err != nil`
 * guard it fed goes with it).
 */
function goErrorSite(node: Node): CatchDraft | null {
  const left = node.childForFieldName("left");
  const right = node.childForFieldName("right");
  const values = right ? namedChildren(right) : [];
  const call = values.length === 1 && values[0]?.type === "call_expression" ? values[0] : null;
  const last = left ? namedChildren(left).at(-1) : undefined;
  if (!call || last?.type !== "identifier") return null;
  const subject = call.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
  if (last.text === "_") return { body: null, errorName: null, subject, behaviour: "swallows" };
  return /^err/i.test(last.text) ? { body: null, errorName: last.text, subject, behaviour: "handles" } : null;
}

/**
 * A deferred `recover()` (Effective Go, "Recover"): `defer func() { if r :=
 * recover(); r != nil { … } }()` catches every panic of its function. Its
 * handler is the `if`'s block, the recovered value its error name (`r`): a
 * handler that turns it into the function's error (`err = fmt.Errorf("%v",
 * r)`) or panics again handles it; one that sets a default answer swallows
 * it, as a catch-all that returns a default does elsewhere.
 */
function goRecoverSite(node: Node): CatchDraft | null {
  const call = node.namedChild(0);
  const literal = call?.type === "call_expression" ? call.childForFieldName("function") : null;
  if (literal?.type !== "func_literal") return null;
  const body = literal.childForFieldName("body");
  for (const statement of body ? namedChildren(body) : []) {
    if (statement.type !== "if_statement") continue;
    const initializer = statement.childForFieldName("initializer");
    const condition = statement.childForFieldName("condition");
    const recovered =
      initializer?.type === "short_var_declaration" && /^recover\(\s*\)$/.test(initializer.childForFieldName("right")?.text.trim() ?? "")
        ? initializer.childForFieldName("left")?.text.trim()
        : undefined;
    const inline = condition?.text.replace(/\s+/g, "") === "recover()!=nil";
    if (!recovered && !inline) continue;
    const handler = statement.childForFieldName("consequence");
    const text = handler?.text ?? "";
    // Neither the recovered value nor an error result is touched, and nothing panics again: the panic becomes an ordinary answer.
    const keepsFailure = (recovered !== undefined && new RegExp(`\\b${recovered}\\b`).test(text)) || /\b(?:err\w*|e)\s*=[^=]|\bpanic\s*\(|\blog\.Fatal|\bos\.Exit/.test(text);
    // It guards what its function runs after it: the statements that follow the defer in its block.
    const following: Node[] = [];
    for (let next = node.nextNamedSibling; next; next = next.nextNamedSibling) following.push(next);
    const site: CatchDraft = { body: handler, errorName: recovered ?? null, caught: "*", guarded: following };
    if (!keepsFailure && handler && namedChildren(handler).length > 0) site.behaviour = "swallows";
    return site;
  }
  return null;
}

/** Literal branches: an `if` returning a literal, a `case` of literals, a map literal's entries (two or more). */
const GO_BRANCHES: Readonly<Record<string, (node: Node) => BranchDraft[]>> = {
  if_statement: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
  expression_case: (node) => {
    const value = node.childForFieldName("value");
    return value ? [{ kind: "branch", patterns: namedChildren(value), result: namedChildren(node).filter((child) => child.id !== value.id) }] : [];
  },
  composite_literal: (node) => {
    if (node.childForFieldName("type")?.type !== "map_type") return [];
    const entries = namedChildren(node.childForFieldName("body") ?? node).filter((child) => child.type === "keyed_element");
    if (entries.length < 2 || entries.length > 500) return [];
    return entries.flatMap((entry) => {
      const [key, value] = namedChildren(entry).map((part) => (part.type === "literal_element" ? (part.namedChild(0) ?? part) : part));
      return key && value ? [{ kind: "table" as const, patterns: [key], result: value }] : [];
    });
  },
};

/** Go's way out of a test run: `os.Exit(0)`, `syscall.Exit(0)`. */
function goEscape(node: Node): EscapeDraft | null {
  const callee = node.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
  return /^(os|syscall|unix)\.Exit$/.test(callee) ? { kind: "exit", code: node.childForFieldName("arguments")?.namedChild(0) ?? null } : null;
}

const GO_FLOW: FlowSyntax = {
  throwTypes: new Set(),
  returnTypes: new Set(["return_statement"]),
  noopTypes: new Set(["empty_statement"]),
  expressionTypes: new Set(["expression_statement"]),
  callTypes: new Set(["call_expression"]),
  callee: (call) => call.childForFieldName("function")?.text ?? null,
};

const isExportedName = (name: string | undefined): name is string => name !== undefined && /^\p{Lu}/u.test(name);

/**
 * A Go check for the test runner (special_casing): `testing.Testing()`,
 * `flag.Lookup("test.v")`, `strings.HasSuffix(os.Args[0], ".test")`,
 * `os.Getenv("APP_ENV") == "test"`.
 */
function isGoRunnerCheck(node: Node): boolean {
  if (node.type === "binary_expression") {
    const sides = [node.childForFieldName("left"), node.childForFieldName("right")];
    const env = sides.find((side) => side?.type === "call_expression" && /^os\.(Getenv|LookupEnv)$/.test(side.childForFieldName("function")?.text ?? ""));
    const variable = literalText(env?.childForFieldName("arguments")?.namedChild(0));
    return sides.some((side) => literalText(side) === '"test"') && variable !== null && MODE_ENV_VARS.has(JSON.parse(variable) as string);
  }
  const callee = node.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
  if (callee === "testing.Testing") return true;
  const first = literalText(node.childForFieldName("arguments")?.namedChild(0));
  if (callee === "flag.Lookup" && first !== null && first.startsWith('"test.')) return true;
  return /^strings\.(HasSuffix|Contains)$/.test(callee) && /\bos\.Args\b/.test(node.text) && /"\.test"/.test(node.text);
}

/** True when a Go function's results include the `error` type (`error`, `(T, error)`, `(n int, err error)`). */
function goReturnsError(node: Node): boolean {
  const result = node.childForFieldName("result");
  if (!result) return false;
  if (result.type === "type_identifier") return result.text === "error";
  return result.descendantsOfType("type_identifier").some((type) => type?.text === "error" && type.parent?.type !== "qualified_type");
}

/**
 * Go's code facts (tree-sitter-code.ts): `//nolint[:x]` and staticcheck's
 * `//lint:ignore` / `//lint:file-ignore` comments, functions and methods
 * (`Type.Method`), and guards: an `if` or `case` whose block ends by
 * returning an error (`if err != nil { return nil, err }`) or panicking, and
 * a function's fall-through error return; `strconv.ParseUint` bindings and
 * boolean `const`s (a build tag's variant).
 */
const GO_CODE: CodeSyntax = {
  comments: [
    { kind: "nolint", pattern: /\/\/\s*nolint\b/ },
    { kind: "lint-ignore", pattern: /\/\/\s*lint:(?:file-)?ignore\b/ },
  ],
  functions: {
    function_declaration: (node) => ({ name: node.childForFieldName("name")?.text ?? "<anonymous>", body: node.childForFieldName("body"), returnsError: goReturnsError(node) }),
    method_declaration: (node) => {
      const receiver = node.childForFieldName("receiver")?.descendantsOfType("type_identifier")[0]?.text;
      const name = node.childForFieldName("name")?.text ?? "<anonymous>";
      return { name: receiver ? `${receiver}.${name}` : name, body: node.childForFieldName("body"), returnsError: goReturnsError(node) };
    },
  },
  calls: {
    call_expression: (node) => {
      const callee = node.childForFieldName("function");
      if (callee?.type === "identifier") return callee.text;
      if (callee?.type === "selector_expression") return callee.childForFieldName("field")?.text ?? null;
      return null;
    },
  },
  guards: {
    if_statement: (node) => {
      const condition = node.childForFieldName("condition");
      const action = goErrorExit(node.childForFieldName("consequence"));
      return condition && action ? [{ condition, action }] : [];
    },
    expression_case: goCaseGuards,
    type_case: goCaseGuards,
    default_case: goCaseGuards,
  },
  fallthrough: goErrorExit,
  unsignedValues: { short_var_declaration: goUnsignedValues, assignment_statement: goUnsignedValues },
  constants: { const_spec: goConstants },
  identifierTypes: new Set(["identifier"]),
  flow: GO_FLOW,
  catches: { assignment_statement: goErrorSite, short_var_declaration: goErrorSite, defer_statement: goRecoverSite },
  literalBranches: GO_BRANCHES,
  state: {
    declarations: {
      var_declaration: (node, isModuleLevel) =>
        isModuleLevel ? node.descendantsOfType("var_spec").flatMap((spec) => (spec?.childrenForFieldName("name") ?? []).flatMap((name) => (name ? [name.text] : []))) : [],
    },
    updates: { inc_statement: counterTarget, dec_statement: counterTarget, assignment_statement: counterTarget },
  },
  escapes: { call_expression: goEscape },
  isScript: (content) => /^package\s+main\b/m.test(content),
  runnerChecks: { call_expression: isGoRunnerCheck, binary_expression: isGoRunnerCheck },
  // Capitalised top-level functions and types of a library package (not `package main`): the package's API.
  exports: {
    function_declaration: (node, context) => {
      const name = node.childForFieldName("name")?.text;
      return isExportedName(name) && !/^package\s+main\b/m.test(context.content) ? [{ name, body: node.childForFieldName("body") }] : [];
    },
    type_declaration: (node, context) => {
      if (/^package\s+main\b/m.test(context.content)) return [];
      return namedChildren(node).flatMap((spec) => {
        const name = spec.childForFieldName("name")?.text;
        return isExportedName(name) ? [{ name, body: spec.childForFieldName("type") }] : [];
      });
    },
  },
};

/** The Go language module: `.go`, parsed with tree-sitter-go (see the module comment). Never throws for bad content. */
export const go = defineLanguage({
  id: "go",
  extensions: [".go"],
  queries: ["tests", "assertions"],
  isTestPath: isGoTestPath,
  drafts: ({ path, content }, grammar, root) => extractGoDrafts(path, grammar, root, content),
  code: GO_CODE,
});
