/**
 * Where a run-time skip reaches, for the tree-sitter languages (issue 9,
 * "disabling through indirection"). A language module finds skip calls
 * (`t.Skip()`, `pytest.skip()`, `self.skipTest()`, `markTestSkipped()`,
 * `skip`, an always-false `assumeTrue(false)`); this module decides which
 * tests each one takes out and whether only under a condition:
 *
 * - inside a test: that test; conditional when the call sits under an `if`,
 *   a `switch`/`match` arm, a loop, a `try`, a ternary or `&&`/`||`, or
 *   after an early-return guard (`if !isWindows { return }; t.Skip()`);
 * - inside a setup function (`setUp`, `@Before`, `[SetUp]`, an autouse
 *   fixture, `TestMain`, a `before` block): every test of its scope;
 * - inside a fixture (pytest): every test that takes the fixture as a
 *   parameter;
 * - inside any other function: every test that calls it (by name, one
 *   call level, and helpers calling skipping helpers to a fixed point), conditional
 *   when the helper's skip or the call site is.
 *
 * Grammar differences are data: the node types below cover the seven
 * grammars, and a language names its setups and fixtures through
 * {@link SkipProviderKind}.
 */

import type { Node } from "web-tree-sitter";

/** What a function holding a skip is to the tests of its file. */
export type SkipProviderKind =
  /** Runs before every test whose declaration lies inside `scope` (a class or group node), or every test of the file when null. */
  | { kind: "setup"; scope: Node | null; label: string }
  /** A pytest fixture: runs for every test that names it as a parameter. */
  | { kind: "fixture"; name: string }
  /** A helper: runs for every test that calls it by `name`. */
  | { kind: "helper"; name: string };

/** Statements and expressions under which code runs only sometimes, across the grammars. */
const CONDITIONAL_TYPES: ReadonlySet<string> = new Set([
  // Go, Java, C#, PHP, Python, JS-like
  "if_statement",
  "else_clause",
  "elif_clause",
  "else_if_clause",
  "conditional_expression",
  "ternary_expression",
  "expression_switch_statement",
  "type_switch_statement",
  "select_statement",
  "expression_case",
  "type_case",
  "default_case",
  "communication_case",
  "switch_statement",
  "switch_expression",
  "switch_block_statement_group",
  "switch_rule",
  "switch_section",
  "case_statement",
  "default_statement",
  "for_statement",
  "enhanced_for_statement",
  "foreach_statement",
  "for_in_statement",
  "while_statement",
  "do_statement",
  "try_statement",
  "catch_clause",
  "except_clause",
  "finally_clause",
  "match_statement",
  "case_clause",
  "boolean_operator",
  // Rust
  "if_expression",
  "match_expression",
  "match_arm",
  "for_expression",
  "while_expression",
  "loop_expression",
  "if_let_expression",
  // Ruby
  "if",
  "unless",
  "if_modifier",
  "unless_modifier",
  "case",
  "when",
  "while",
  "until",
  "for",
  "while_modifier",
  "until_modifier",
  "rescue",
  "begin",
  "conditional",
]);

/** Statements that can leave a function before what follows them runs. */
const LEAVING_TYPES: readonly string[] = ["return_statement", "return", "return_expression", "throw_statement", "raise_statement"];

/** Node types of a function, method, closure or block body a skip can sit in, across the grammars. */
export const FUNCTION_TYPES: ReadonlySet<string> = new Set([
  "function_declaration",
  "method_declaration",
  "func_literal",
  "function_definition",
  "function_item",
  "closure_expression",
  "constructor_declaration",
  "local_function_statement",
  "lambda_expression",
  "anonymous_function",
  "arrow_function",
  "method",
  "singleton_method",
  "lambda",
  "anonymous_function_creation_expression",
]);

/** True when two nodes are the same node of one tree: the same extent and type (web-tree-sitter hands out a new object per visit). */
export function isSame(a: Node, b: Node): boolean {
  return a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
}

/** True when `node` (the statement before a skip) is an `if` holding a return or throw: an early-return guard. */
function isEarlyReturnGuard(node: Node): boolean {
  if (!CONDITIONAL_TYPES.has(node.type)) return false;
  return node.descendantsOfType(LEAVING_TYPES as string[]).length > 0;
}

/**
 * True when `node` runs only under a condition within `container` (a test's
 * declaration, or the function holding the skip): a conditional construct
 * lies between them (its condition excepted: the condition always runs), or
 * an early-return guard precedes it in an enclosing statement list.
 */
export function isConditionalWithin(node: Node, container: Node): boolean {
  let child = node;
  for (let current = node.parent; current && !isSame(current, container); current = current.parent) {
    if (CONDITIONAL_TYPES.has(current.type)) {
      const condition = current.childForFieldName("condition") ?? current.childForFieldName("value");
      if (!condition || !isSame(condition, child)) return true;
    }
    for (let sibling = child.previousNamedSibling; sibling; sibling = sibling.previousNamedSibling) {
      if (isEarlyReturnGuard(sibling)) return true;
    }
    child = current;
  }
  return false;
}

/**
 * Errors a runtime raises when a name, a module or a class it is asked for
 * does not exist: Ruby's NameError (an undefined constant) and LoadError (a
 * `require` that finds nothing), Python's ImportError and
 * ModuleNotFoundError, Java's ClassNotFoundException, NoClassDefFoundError
 * and UnsatisfiedLinkError (a native library).
 */
const MISSING_FEATURE_ERROR = /^(?:NameError|LoadError|ImportError|ModuleNotFoundError|ClassNotFoundException|NoClassDefFoundError|UnsatisfiedLinkError)$/;

/** The short names of the classes a handler catches (Ruby `rescue A, B`, Python `except (A, B) as e`, Java `catch (A | B e)`); empty for a handler of everything. */
function caughtClasses(handler: Node): string[] {
  let types: Node | null = null;
  if (handler.type === "rescue") types = handler.childForFieldName("exceptions");
  else if (handler.type === "except_clause") {
    types = handler.namedChildren.find((child) => child !== null && child.type !== "block" && !child.type.endsWith("comment")) ?? null;
    if (types?.type === "as_pattern") types = types.namedChild(0);
  } else if (handler.type === "catch_clause")
    types = handler.namedChildren.find((child) => child?.type === "catch_formal_parameter")?.namedChildren.find((child) => child?.type === "catch_type") ?? null;
  if (!types) return [];
  const names = /^(?:exceptions|tuple|catch_type)$/.test(types.type) ? types.namedChildren.filter((child): child is Node => child !== null) : [types];
  return names.map((name) => name.text.replace(/^.*(?:\.|::)/, ""));
}

/** The statements a handler guards: the `try` block before it (Python, Java), or what its `begin`/`def` runs before the `rescue` (Ruby). */
function guardedStatements(handler: Node): Node[] {
  const owner = handler.parent;
  if (!owner) return [];
  if (handler.type === "rescue") {
    const statements: Node[] = [];
    for (const child of owner.namedChildren) {
      if (!child || isSame(child, handler)) break;
      if (!child.type.endsWith("comment")) statements.push(child);
    }
    return statements;
  }
  const body = owner.type === "try_statement" ? owner.childForFieldName("body") : null;
  return body ? body.namedChildren.filter((child): child is Node => child !== null && !child.type.endsWith("comment")) : [];
}

/**
 * True when `statement` only asks whether a feature exists: a bare constant
 * or name (`Ractor`, `Foo::Bar`, `numpy.linalg`), `require "x"` (Ruby), an
 * `import`/`from … import` (Python), `Class.forName("x")` (Java).
 */
function isProbe(statement: Node): boolean {
  const inner = statement.type === "expression_statement" ? statement.namedChild(0) : statement;
  if (!inner) return false;
  if (/^(?:constant|scope_resolution|identifier|attribute|import_statement|import_from_statement)$/.test(inner.type)) return true;
  if (inner.type === "call" && inner.childForFieldName("method")?.text === "require" && !inner.childForFieldName("receiver")) return true;
  return inner.type === "method_invocation" && /^(?:Class\.forName|System\.loadLibrary)$/.test(`${inner.childForFieldName("object")?.text ?? ""}.${inner.childForFieldName("name")?.text ?? ""}`);
}

/**
 * The condition a skip in the body (`child`) of handler `handler` runs
 * under when that handler catches only the errors of a missing feature
 * ({@link MISSING_FEATURE_ERROR}) around statements that only probe for it
 * ({@link isProbe}): `begin Ractor rescue NameError; skip("no Ractor") end`,
 * `try: import numpy except ImportError: pytest.skip()`, `try {
 * Class.forName("javax.X"); } catch (ClassNotFoundException e) { abort(); }`.
 * Such a skip fires where the runtime lacks the feature, so its condition
 * reads `!available(<probe>)` (checks/skip-condition.ts: an environment's
 * dependency). Undefined for any other node: a handler of every error, or
 * one around the code under test (`begin; run; rescue NameError; skip;
 * end` hides a bug), is no probe.
 */
function probeCondition(handler: Node, child: Node): string | undefined {
  if (!/^(?:rescue|except_clause|catch_clause)$/.test(handler.type)) return undefined;
  const body =
    handler.type === "rescue" ? handler.childForFieldName("body") : handler.type === "catch_clause" ? handler.childForFieldName("body") : handler.namedChildren.find((part) => part?.type === "block");
  if (!body || !isSame(body, child)) return undefined;
  const caught = caughtClasses(handler);
  if (caught.length === 0 || !caught.every((name) => MISSING_FEATURE_ERROR.test(name))) return undefined;
  const probes = guardedStatements(handler);
  if (probes.length === 0 || !probes.every(isProbe)) return undefined;
  return `!available(${probes.map((probe) => probe.text.replace(/\s+/g, " ")).join("; ")})`;
}

/**
 * The source text of the condition that `node` runs under within
 * `container` (see {@link isConditionalWithin}): the nearest enclosing
 * conditional's condition, negated as `!(…)` for Ruby's `unless`, or the
 * condition of an early-return guard before it (negated: the skip runs when
 * the guard does not fire). Undefined when none is readable.
 */
export function conditionWithin(node: Node, container: Node): string | undefined {
  let child = node;
  for (let current = node.parent; current && !isSame(current, container); current = current.parent) {
    const probe = probeCondition(current, child);
    if (probe !== undefined) return probe;
    if (CONDITIONAL_TYPES.has(current.type)) {
      const condition = current.childForFieldName("condition") ?? current.childForFieldName("value");
      if (condition && !isSame(condition, child)) return /^unless/.test(current.type) ? `!(${condition.text})` : condition.text;
    }
    for (let sibling = child.previousNamedSibling; sibling; sibling = sibling.previousNamedSibling) {
      const condition = isEarlyReturnGuard(sibling) ? sibling.childForFieldName("condition") : null;
      if (condition) return `!(${condition.text})`;
    }
    child = current;
  }
  return undefined;
}

/** Node types of a branch with a `condition` field whose other arms are its `alternative` children (`elif`, `else`, `elsif`, `else if`). */
const BRANCH_TYPES: ReadonlySet<string> = new Set(["if_statement", "if_expression", "elif_clause", "else_if_clause", "if", "elsif", "unless", "if_modifier", "unless_modifier"]);

/**
 * Statements that end a loop's iteration or the loop, across the grammars
 * (Ruby's `next` and `break` are bare node types, Rust's are expressions).
 * A `return` is left to the early-return reading (AssertionFact.gated and
 * unreachable): `if v == nil { return }` in a test is a guard of another kind.
 */
const EXIT_TYPES: ReadonlySet<string> = new Set(["continue_statement", "break_statement", "next", "break", "continue_expression", "break_expression"]);

/** Conditionals whose consequence may end in an exit, with no `else` of their own read (an `elif`/`else` arm is a branch, not a guard). */
const GUARD_TYPES: ReadonlySet<string> = new Set(["if_statement", "if", "if_expression", "unless", "if_modifier", "unless_modifier"]);

/** True when `statement` (unwrapped from an expression statement) is an exit ({@link EXIT_TYPES}), or a block whose last statement is one. */
function endsInExit(statement: Node | null): boolean {
  let node = statement;
  while (node && node.type === "expression_statement") node = node.namedChild(0);
  if (!node) return false;
  if (EXIT_TYPES.has(node.type)) return true;
  const last = node.namedChildren.filter((child): child is Node => child !== null && !child.type.endsWith("comment")).pop();
  return last !== undefined && !GUARD_TYPES.has(node.type) && !isSame(last, node) && /block|body|then|compound|statement_list/.test(node.type) && endsInExit(last);
}

/**
 * The condition under which the statements after `statement` run, when
 * `statement` is a guard that leaves a loop's run early (`if c: continue`,
 * `if (c) break;`, `if c { continue }`, Ruby's `next if c` / `next unless c`):
 * the guard's condition negated (`negate`; an `unless` guard's as written),
 * as `textOf` gives it. Undefined for any other statement. Statements after
 * `if stem in XFAIL: assertRaises(…); continue` run only for the other
 * rows, so their checks do not cover the rows the guard carved out.
 */
function guardCondition(statement: Node, textOf: (condition: Node) => string, negate: (text: string) => string): string | undefined {
  let node: Node | null = statement;
  while (node && node.type === "expression_statement") node = node.namedChild(0);
  if (!node || !GUARD_TYPES.has(node.type)) return undefined;
  const condition = node.childForFieldName("condition");
  const consequence = node.childForFieldName("consequence") ?? node.childForFieldName("body");
  if (!condition || !endsInExit(consequence)) return undefined;
  return node.type.startsWith("unless") ? textOf(condition) : negate(textOf(condition));
}

/**
 * The conditions of the branches holding `node` up to the first ancestor
 * `isContainer` accepts (a test's declaration, a helper's function),
 * outermost first (AssertionFact.conditions): an arm's condition as
 * canonical text from `textOf`, an `else`/`elif` arm's with the negation
 * (`negate`) of its branch's condition and of each `elif` before it, Ruby's
 * `unless` negated; and the negated condition of each guard that leaves
 * a loop's run before it in a statement list holding it ({@link guardCondition}:
 * `if c: continue`, `if (c) break;`, `next if c`). Loops, `match` and
 * `switch` arms add none.
 */
export function branchConditionsWithin(node: Node, isContainer: (candidate: Node) => boolean, textOf: (condition: Node) => string, negate: (text: string) => string): string[] {
  const conditions: string[] = [];
  let child = node;
  for (let current = node.parent; current && !isContainer(current); current = current.parent) {
    const condition = BRANCH_TYPES.has(current.type) ? current.childForFieldName("condition") : null;
    if (condition && !isSame(condition, child)) {
      const isUnless = current.type.startsWith("unless");
      const alternatives = current.childrenForFieldName("alternative").filter((alternative): alternative is Node => alternative !== null);
      const arm = alternatives.findIndex((alternative) => isSame(alternative, child));
      const text = textOf(condition);
      if (arm === -1) conditions.push(isUnless ? negate(text) : text);
      else {
        // An `else` (or a later `elif`) of a flat chain runs when every condition before it failed.
        for (const earlier of alternatives.slice(0, arm).reverse()) {
          const other = earlier.childForFieldName("condition");
          if (other) conditions.push(negate(textOf(other)));
        }
        conditions.push(isUnless ? text : negate(text));
      }
    }
    for (let sibling = child.previousNamedSibling; sibling; sibling = sibling.previousNamedSibling) {
      const guard = guardCondition(sibling, textOf, negate);
      if (guard !== undefined) conditions.push(guard);
    }
    child = current;
  }
  return conditions.reverse();
}

/**
 * The conditions of the Go `switch` arms holding `node` up to `container`
 * (not included), outermost first: a `case v:` arm of `switch x` runs when
 * `x == v` (several values: `x == a || x == b`), a `default:` arm when
 * every single-valued case failed (`x != v` for each). `textOf` makes
 * canonical text of a comparison written `x==v` (or of a tagless `switch
 * { case c: }` arm's `c`); `negate` negates one. A switch with a
 * `fallthrough` adds none (an arm may be entered from the one before);
 * branchConditionsWithin reads the `if` arms; a type switch adds none.
 */
export function switchArmConditions(node: Node, container: Node, textOf: (comparison: string) => string, negate: (text: string) => string): string[] {
  const conditions: string[] = [];
  for (let current: Node | null = node; current && !isSame(current, container); current = current.parent) {
    const statement = current.parent;
    if (!statement || statement.type !== "expression_switch_statement" || (current.type !== "expression_case" && current.type !== "default_case")) continue;
    // An arm entered by `fallthrough` from the one before runs under that arm's condition too: none is read.
    if (statement.descendantsOfType("fallthrough_statement").length > 0) continue;
    const subject = statement.childForFieldName("value");
    const valuesOf = (arm: Node): Node[] => (arm.childForFieldName("value")?.namedChildren ?? []).filter((value): value is Node => value !== null);
    // `switch x { case a: }` compares x with a; a tagless `switch { case c: }` runs an arm when c holds.
    const armCondition = (value: Node): string => (subject ? textOf(`${subject.text}==${value.text}`) : textOf(value.text));
    if (current.type === "expression_case") {
      const values = valuesOf(current);
      if (values.length > 0) conditions.push(values.map(armCondition).join("||"));
      continue;
    }
    for (const arm of statement.namedChildren) {
      if (arm?.type !== "expression_case") continue;
      for (const value of valuesOf(arm)) conditions.push(negate(armCondition(value)));
    }
  }
  return conditions.reverse();
}

/** The nearest function-like node (of `types`) holding `node` (not `node` itself), or null at the top level. */
export function enclosingFunction(node: Node, types: ReadonlySet<string> = FUNCTION_TYPES): Node | null {
  for (let current = node.parent; current; current = current.parent) if (types.has(current.type)) return current;
  return null;
}

/** Call node types, across the grammars. */
const CALL_TYPES: readonly string[] = [
  "call_expression",
  "call",
  "method_invocation",
  "invocation_expression",
  "function_call_expression",
  "member_call_expression",
  "scoped_call_expression",
  "macro_invocation",
];

/** A callee naming a function of this file or class: `helper`, `self.helper`, `this.helper`, `$this->helper`, `static::helper`. */
const OWN_CALLEE = /^(?:(?:self|this|\$this|cls|static|parent|super|Self)\s*(?:\.|->|::)\s*)?([A-Za-z_]\w*[?!]?)$/;

/**
 * The called name of a call node when it calls a function of the file or
 * its class (`helper(t)`, `self.helper()`, `$this->helper()`), or null for
 * calls on other objects and packages (`t.Run`, `os.Exit`), which name no
 * helper of this file.
 */
export function calledName(call: Node): string | null {
  const name = call.childForFieldName("name") ?? call.childForFieldName("method");
  let text: string;
  if (name && call.type !== "call_expression") {
    const receiver = call.childForFieldName("object") ?? call.childForFieldName("receiver") ?? call.childForFieldName("scope");
    text = receiver ? `${receiver.text}.${name.text}` : name.text;
  } else {
    const callee = call.childForFieldName("function") ?? call.childForFieldName("macro") ?? call.namedChild(0);
    if (!callee) return null;
    text = callee.text;
  }
  const match = OWN_CALLEE.exec(text.replace(/\s+/g, ""));
  return match ? (match[1] as string) : null;
}

/** Every call of the file to an own function (see {@link calledName}), as [name, start index] pairs, in one pass. */
export function allOwnCalls(root: Node): [string, number][] {
  const calls: [string, number][] = [];
  for (const call of root.descendantsOfType(CALL_TYPES as string[])) {
    if (!call) continue;
    const name = calledName(call);
    if (name !== null) calls.push([name, call.startIndex]);
  }
  return calls;
}

/**
 * The calls inside `body` by called name, each with the first call node.
 * Ruby's bare method calls (`skip_on_windows` as a statement, no parentheses)
 * are identifiers, and count as calls when `bareNames` is true.
 */
export function callsIn(body: Node, bareNames = false): Map<string, Node> {
  const calls = new Map<string, Node>();
  for (const call of body.descendantsOfType(CALL_TYPES as string[])) {
    if (!call) continue;
    const name = calledName(call);
    if (name !== null && !calls.has(name)) calls.set(name, call);
  }
  if (bareNames) {
    for (const identifier of body.descendantsOfType("identifier")) {
      if (!identifier || identifier.parent?.type === "call" || calls.has(identifier.text)) continue;
      const parent = identifier.parent;
      // A statement of its own (`skip_on_windows`), or the body of a modifier (`skip_on_windows if ci?`).
      if (
        parent &&
        (parent.type === "body_statement" || parent.type === "then" || parent.type === "if_modifier" || parent.type === "unless_modifier" || parent.type === "do_block" || parent.type === "block_body")
      ) {
        calls.set(identifier.text, identifier);
      }
    }
  }
  return calls;
}
