/**
 * What each check of a JS/TS test depends on (TestCase.checkNames), as
 * parsers/tree-sitter-subjects.ts computes it for the other languages: the
 * names and plain string literals of the check's statement and of the
 * conditions and loop headers it runs under in the test, closed over the
 * test's own bindings (`const {escapedCommand} = await execaCommand(…)`
 * makes `escapedCommand` stand for `execaCommand`), those its suites set up
 * (`let db; beforeEach(() => { db = open(…); })`) and the file's top-level
 * ones (`const stdioIpc = getStdio(3, 'ipc')`). An ava macro test
 * (`test(title, macro, …data)`) depends on its macro and its data.
 * rules/dependencies.ts reads them to tell a test deleted with the code or
 * input it checked from one that checked surviving code.
 */

import type * as t from "@babel/types";
import { isNameToken, LITERAL_TOKEN, literalToken } from "../dependency-tokens.js";

/** Bindings of one scope: each bound name -> the tokens of its values. */
export type JsBindings = Map<string, Set<string>>;

/** At most this many names are kept per check (sorted), as for the tree-sitter languages. */
const MAX_CHECK_NAMES = 48;

/** At most this many literal tokens are kept per check (sorted), after its names. */
const MAX_CHECK_TOKENS = 24;

/** AST keys that hold no code (positions, comments, types). */
const SKIP_KEYS: ReadonlySet<string> = new Set(["loc", "start", "end", "range", "extra", "leadingComments", "trailingComments", "innerComments", "typeAnnotation", "typeParameters", "returnType"]);

function isNode(value: unknown): value is t.Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** The child nodes of a node, in source order. */
function childrenOf(node: t.Node): t.Node[] {
  const children: t.Node[] = [];
  const record = node as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (SKIP_KEYS.has(key)) continue;
    const value = record[key];
    if (Array.isArray(value)) {
      for (const child of value) if (isNode(child)) children.push(child);
    } else if (isNode(value)) children.push(value);
  }
  return children.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
}

/** Every dependency token under a node: identifier names (property keys and members too) and plain string literals as literal tokens. */
function tokensIn(node: t.Node | null | undefined, into: Set<string> = new Set()): Set<string> {
  if (!node) return into;
  if (node.type === "Identifier" || node.type === "PrivateName") {
    into.add(node.type === "Identifier" ? node.name : `#${node.id.name}`);
    return into;
  }
  if (node.type === "StringLiteral") {
    if (LITERAL_TOKEN.test(node.value)) into.add(literalToken(node.value));
    return into;
  }
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) {
    const value = node.quasis[0]?.value.cooked ?? "";
    if (LITERAL_TOKEN.test(value)) into.add(literalToken(value));
    return into;
  }
  for (const child of childrenOf(node)) tokensIn(child, into);
  return into;
}

/** The names a binding target binds: `x`, `{a, b: c}` -> a, c, `[x, ...rest]`, `obj.prop` -> obj, prop (a mutation of obj). */
function targetNames(node: t.Node | null | undefined, into: Set<string> = new Set()): Set<string> {
  if (!node) return into;
  switch (node.type) {
    case "Identifier":
      into.add(node.name);
      break;
    case "ObjectPattern":
      for (const property of node.properties) targetNames(property.type === "RestElement" ? property.argument : (property.value as t.Node), into);
      break;
    case "ArrayPattern":
      for (const element of node.elements) targetNames(element, into);
      break;
    case "RestElement":
      targetNames(node.argument, into);
      break;
    case "AssignmentPattern":
      targetNames(node.left, into);
      break;
    case "MemberExpression":
      tokensIn(node, into);
      break;
  }
  return into;
}

/** Adds one binding (target names -> value tokens) to `bindings`. */
function bind(bindings: JsBindings, target: t.Node, value: t.Node | null | undefined): void {
  if (!value) return;
  const tokens = tokensIn(value);
  for (const name of targetNames(target)) {
    if (!isNameToken(name) || name === "this") continue;
    const known = bindings.get(name) ?? new Set<string>();
    for (const token of tokens) if (token !== name) known.add(token);
    bindings.set(name, known);
  }
}

/** Every binding under a node: declarators and assignments, at any depth (a test's own locals). */
export function bindingsIn(node: t.Node, into: JsBindings = new Map()): JsBindings {
  const visit = (current: t.Node): void => {
    if (current.type === "VariableDeclarator") bind(into, current.id, current.init);
    else if (current.type === "AssignmentExpression") bind(into, current.left, current.right);
    for (const child of childrenOf(current)) visit(child);
  };
  visit(node);
  return into;
}

/** Hooks that set up a suite's state before its tests. */
const SETUP_HOOKS = /^(beforeEach|beforeAll|before|setup)$/;

/**
 * The state a suite's callback sets up for its tests: its own declarations
 * (`let db = open()`) and the assignments inside its set-up hooks
 * (`beforeEach(() => { db = open(…); })`), not those inside its tests.
 */
export function suiteBindings(callback: t.Node, into: JsBindings = new Map()): JsBindings {
  const body = callback.type === "ArrowFunctionExpression" || callback.type === "FunctionExpression" ? callback.body : null;
  if (body?.type !== "BlockStatement") return into;
  for (const statement of body.body) {
    if (statement.type === "VariableDeclaration") for (const declarator of statement.declarations) bind(into, declarator.id, declarator.init);
    const call = statement.type === "ExpressionStatement" && statement.expression.type === "CallExpression" ? statement.expression : null;
    const callee = call?.callee.type === "Identifier" ? call.callee.name : call?.callee.type === "MemberExpression" && call.callee.object.type === "Identifier" ? call.callee.object.name : null;
    if (call && callee !== null && SETUP_HOOKS.test(callee)) for (const arg of call.arguments) bindingsIn(arg, into);
  }
  return into;
}

/** The file's top-level bindings: each `const`/`let`/`var` declarator (exported or not) -> the tokens of its value. */
export function moduleBindings(program: t.Program): JsBindings {
  const bindings: JsBindings = new Map();
  for (const statement of program.body) {
    const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
    if (declaration?.type === "VariableDeclaration") for (const declarator of declaration.declarations) bind(bindings, declarator.id, declarator.init);
  }
  return bindings;
}

/** Node types that hold a list of statements. */
function isBlock(node: t.Node): boolean {
  return node.type === "BlockStatement" || node.type === "Program" || node.type === "StaticBlock";
}

/** The header parts of a control node: what decides whether or with what the statements inside it run. */
function headersOf(node: t.Node): (t.Node | null | undefined)[] {
  switch (node.type) {
    case "IfStatement":
    case "WhileStatement":
    case "DoWhileStatement":
      return [node.test];
    case "ForStatement":
      return [node.init, node.test, node.update];
    case "ForOfStatement":
    case "ForInStatement":
      return [node.left, node.right];
    case "SwitchStatement":
      return [node.discriminant];
    case "SwitchCase":
      return [node.test];
    case "ConditionalExpression":
      return [node.test];
    default:
      return [];
  }
}

/**
 * The tokens of the statement at `index` within `scope` (a test's
 * function), and of the headers of the control statements around it there:
 * the statement is the child of the innermost block holding the position
 * (or the arrow's expression body).
 */
function statementTokens(scope: t.Node, index: number): Set<string> {
  const tokens = new Set<string>();
  const body = scope.type === "ArrowFunctionExpression" || scope.type === "FunctionExpression" || scope.type === "FunctionDeclaration" ? scope.body : scope;
  let statement: t.Node = body;
  const controls: t.Node[] = [];
  let current: t.Node | undefined = body;
  while (current) {
    const inside: t.Node | undefined = childrenOf(current).find((child) => (child.start ?? 0) <= index && index < (child.end ?? 0));
    if (!inside) break;
    if (isBlock(current)) statement = inside;
    else if (headersOf(current).length > 0 && !headersOf(current).includes(inside)) controls.push(current);
    current = inside;
  }
  tokensIn(statement, tokens);
  for (const control of controls) {
    // Only the controls between the statement and the scope decide whether it runs.
    if ((control.start ?? 0) > (statement.start ?? 0)) continue;
    for (const header of headersOf(control)) tokensIn(header, tokens);
  }
  return tokens;
}

/**
 * The dependency tokens of one check (TestCase.checkNames): `seed` closed
 * over the layers of bindings, innermost first (the test's own, its suites'
 * set-up, the file's top level); only names no binding explains are kept,
 * sorted, names first (at most {@link MAX_CHECK_NAMES}), then literal
 * tokens (at most {@link MAX_CHECK_TOKENS}).
 */
export function closeTokens(seed: Iterable<string>, layers: readonly JsBindings[]): string[] {
  const tokens = new Set(seed);
  const queue = [...tokens];
  while (queue.length > 0 && tokens.size < 4 * MAX_CHECK_NAMES) {
    const name = queue.pop() as string;
    const bound = layers.find((layer) => layer.has(name))?.get(name) ?? [];
    for (const reached of bound) {
      if (tokens.has(reached)) continue;
      tokens.add(reached);
      queue.push(reached);
    }
  }
  const kept = [...tokens].filter((token) => !layers.some((layer) => layer.has(token))).sort();
  return [...kept.filter(isNameToken).slice(0, MAX_CHECK_NAMES), ...kept.filter((token) => !isNameToken(token)).slice(0, MAX_CHECK_TOKENS)];
}

/**
 * The checkNames of a test's checks, one list per check start offset: for a
 * test with a callback, each check's statement ({@link statementTokens})
 * closed over the callback's own bindings and `outer` (its suites' set-up,
 * the file's top level); for an ava macro test, the macro and its data
 * closed over `outer`, the same for every check.
 */
export function checkNamesOfTest(callback: t.Node | null, macro: { name: string; args: readonly t.Node[] } | null, starts: readonly number[], outer: readonly JsBindings[]): string[][] {
  if (callback) {
    const own = bindingsIn(callback);
    return starts.map((start) => closeTokens(statementTokens(callback, start), [own, ...outer]));
  }
  if (!macro) return starts.map(() => []);
  const seed = new Set<string>([macro.name]);
  for (const arg of macro.args) tokensIn(arg, seed);
  const names = closeTokens(seed, outer);
  return starts.map(() => names);
}

/** Call-like node types: what runs code. */
const CALL_TYPES: ReadonlySet<string> = new Set(["CallExpression", "OptionalCallExpression", "NewExpression", "TaggedTemplateExpression"]);

/** Node types that open code run later or maybe not at all: a call inside them is not run by the statement holding them. */
const DEFERRED_TYPES: ReadonlySet<string> = new Set([
  "ArrowFunctionExpression",
  "FunctionExpression",
  "FunctionDeclaration",
  "ClassExpression",
  "ClassDeclaration",
  "ObjectMethod",
  "ConditionalExpression",
  "LogicalExpression",
  "OptionalCallExpression",
  "OptionalMemberExpression",
]);

/**
 * What a test's callback runs at its top level, whatever happens (TestCase.
 * directCalls): `[start, end)` offsets of each top-level statement of its
 * body that is an expression statement or a declaration, and of each call
 * in one (its `await` aside) outside nested functions, conditional and
 * short-circuit branches and optional chains. A promise chain given a
 * `catch` (or a `then` with a rejection handler), and the calls under it,
 * are left out: its rejection fails nothing. A `try` with no `catch` runs
 * its block as the body does. Statements after the first unconditional
 * `return`/`throw` run never and are left out; a compound statement (`if`,
 * `try`, a loop, a block) ends nothing but contributes nothing.
 */
export function unconditionalRuns(callback: t.Node): [number, number][] {
  const body = callback.type === "ArrowFunctionExpression" || callback.type === "FunctionExpression" ? callback.body : callback;
  if (body.type !== "BlockStatement") return body.type === "CallExpression" || body.type === "AwaitExpression" ? runsOf(body) : [];
  return runsOfStatements(body.body);
}

/** {@link unconditionalRuns} of a statement list; a `try` with no `catch` (its `finally` passes the error on) runs its block whatever happens, and a plain block too. */
function runsOfStatements(statements: readonly t.Statement[]): [number, number][] {
  const runs: [number, number][] = [];
  for (const statement of statements) {
    if (statement.type === "ReturnStatement" || statement.type === "ThrowStatement") break;
    if (statement.type === "TryStatement" && !statement.handler) runs.push(...runsOfStatements(statement.block.body));
    else if (statement.type === "BlockStatement") runs.push(...runsOfStatements(statement.body));
    if (statement.type !== "ExpressionStatement" && statement.type !== "VariableDeclaration") continue;
    runs.push([statement.start ?? 0, statement.end ?? 0], ...runsOf(statement));
  }
  return runs;
}

/** The calls `node` runs whatever happens (see {@link unconditionalRuns}), as offsets. */
function runsOf(node: t.Node): [number, number][] {
  const runs: [number, number][] = [];
  const visit = (current: t.Node): void => {
    if (DEFERRED_TYPES.has(current.type)) return;
    // `.catch(f)` and `.then(f, g)` decide what a rejection does; `.then(f)` and `.finally(f)` pass it on.
    const method = current.type === "CallExpression" && current.callee.type === "MemberExpression" && current.callee.property.type === "Identifier" ? current.callee.property.name : null;
    if (method === "catch" || (method === "then" && (current as t.CallExpression).arguments.length >= 2)) return;
    if (current.type === "CallExpression" || current.type === "NewExpression") runs.push([current.start ?? 0, current.end ?? 0]);
    for (const child of childrenOf(current)) visit(child);
  };
  visit(node);
  return runs;
}

/**
 * The start offsets of the calls a test's callback makes outside its
 * assertions (TestCase.callCount, callNames): call and construction nodes in its body that lie in
 * no assertion's statement (the expression statement whose expression, an
 * `await` aside, starts where an assertion at one of `starts` does; an
 * assertion nested in another expression leaves out only the calls that
 * start with it, its own chain).
 */
export function callsOutsideChecks(callback: t.Node, starts: readonly number[]): number[] {
  const body = callback.type === "ArrowFunctionExpression" || callback.type === "FunctionExpression" ? callback.body : callback;
  const startSet = new Set(starts);
  const calls: number[] = [];
  const visit = (node: t.Node): void => {
    if (node.type === "ExpressionStatement") {
      const expression = node.expression.type === "AwaitExpression" ? node.expression.argument : node.expression;
      if (startSet.has(expression.start ?? -1)) return;
    }
    if (CALL_TYPES.has(node.type) && !startSet.has(node.start ?? -1)) calls.push(node.start ?? 0);
    for (const child of childrenOf(node)) visit(child);
  };
  visit(body);
  return calls;
}
