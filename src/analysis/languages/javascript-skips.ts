/**
 * Skips that reach a JS/TS test through indirection (DESIGN.md test_disabled,
 * issue 9 "disabling through indirection"): a top-level helper the test (or
 * a hook of its suite) calls that skips (`function requireDb(ctx) { if (!db)
 * ctx.skip() }`, Playwright `test.skip()` in a helper), and whether a skip
 * is conditional: reached only through an `if`, a `?:`, `&&`/`||`, a
 * `switch` case, a loop, a `try`/`catch`, or after an early-return guard in
 * the same function. javascript.ts applies what this module finds to the
 * tests; this module only reads Babel ASTs.
 */

import type * as t from "@babel/types";

/** A top-level function of the file that skips the test calling it. */
export interface SkippingHelper {
  /** The skip call as written, e.g. `ctx.skip()`, `test.skip()`, `requireNetwork()` (a helper calling a helper). */
  via: string;
  /** True when the helper skips only under a condition. */
  isConditional: boolean;
  /** The reason string of the skip call, when it has one. */
  reason?: string;
}

/** Node types that make what is below them run only sometimes. */
const CONDITIONAL_TYPES: ReadonlySet<string> = new Set([
  "IfStatement",
  "ConditionalExpression",
  "LogicalExpression",
  "SwitchCase",
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
  "WhileStatement",
  "DoWhileStatement",
  "TryStatement",
  "CatchClause",
  "OptionalCallExpression",
]);

function isFunction(node: t.Node): node is t.Function {
  return node.type === "FunctionDeclaration" || node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression" || node.type === "ObjectMethod" || node.type === "ClassMethod";
}

/** True when a statement can leave the function early: it holds a `return` or `throw` (not inside a nested function). */
function canLeaveEarly(node: t.Node): boolean {
  let found = false;
  const visit = (current: t.Node): void => {
    if (found) return;
    if (current.type === "ReturnStatement" || current.type === "ThrowStatement") {
      found = true;
      return;
    }
    if (isFunction(current)) return;
    forEachChild(current, visit);
  };
  visit(node);
  return found;
}

/** Calls `fn` on each child node of `node` (Babel's own keys, positions and comments left out). */
export function forEachChild(node: t.Node, fn: (child: t.Node) => void): void {
  for (const [key, value] of Object.entries(node) as [string, unknown][]) {
    if (key === "loc" || key === "leadingComments" || key === "trailingComments" || key === "innerComments" || key === "extra") continue;
    if (Array.isArray(value)) {
      for (const child of value) if (isAstNode(child)) fn(child);
    } else if (isAstNode(value)) {
      fn(value);
    }
  }
}

function isAstNode(value: unknown): value is t.Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/**
 * The conditions of the branches holding `node` between it and `stop` (a
 * test's or helper's function, itself in `ancestors`; the whole chain when
 * absent), outermost first (AssertionFact.conditions): an `if` or `?:`
 * consequent's test as `textOf` gives it, an alternate's negated (`negate`),
 * the right side of `a && b` under `a` and of `a || b` under `a` negated,
 * and a statement after a guard that leaves a loop's run early (`if (c)
 * continue;`, `if (c) { …; break; }`) under the guard's test negated. `ancestors`
 * runs outermost first with the node's parent last. Loops, `switch` and
 * `try` add none: they are not two arms of one condition.
 */
export function branchConditions(ancestors: readonly t.Node[], node: t.Node, stop: t.Node | null, textOf: (condition: t.Node) => string, negate: (text: string) => string): string[] {
  const conditions: string[] = [];
  let child: t.Node = node;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const ancestor = ancestors[i] as t.Node;
    if (ancestor === stop) break;
    if ((ancestor.type === "IfStatement" || ancestor.type === "ConditionalExpression") && ancestor.test !== child) {
      const text = textOf(ancestor.test);
      conditions.push(ancestor.alternate === child ? negate(text) : text);
    } else if (ancestor.type === "LogicalExpression" && ancestor.right === child && (ancestor.operator === "&&" || ancestor.operator === "||")) {
      const text = textOf(ancestor.left);
      conditions.push(ancestor.operator === "||" ? negate(text) : text);
    } else if (ancestor.type === "BlockStatement" || ancestor.type === "SwitchCase") {
      // A guard that leaves a loop's run early (`if (c) continue;`, `if (c) { …; break; }`) before it: the rest runs when
      // it does not fire. A `return` is left to the early-return reading (AssertionFact.unreachable).
      const statements = ancestor.type === "BlockStatement" ? ancestor.body : ancestor.consequent;
      for (let at = statements.indexOf(child as t.Statement) - 1; at >= 0; at--) {
        const statement = statements[at] as t.Statement;
        if (statement.type === "IfStatement" && endsInExit(statement.consequent)) conditions.push(negate(textOf(statement.test)));
      }
    }
    child = ancestor;
  }
  return conditions.reverse();
}

/** True when `statement` is a `continue` or `break`, or a block whose last statement is one. */
function endsInExit(statement: t.Statement): boolean {
  if (statement.type === "ContinueStatement" || statement.type === "BreakStatement") return true;
  const last = statement.type === "BlockStatement" ? statement.body[statement.body.length - 1] : undefined;
  return last !== undefined && endsInExit(last);
}

/**
 * True when the node at the end of `ancestors` (outermost first, the node's
 * parent last) runs only under a condition within its nearest enclosing
 * function: a conditional construct lies between them, or a statement before
 * it in an enclosing block is an `if` that can return or throw (`if (!isWin)
 * return; t.skip()`). `node` is the node itself.
 */
export function isConditionalWithinFunction(ancestors: readonly t.Node[], node: t.Node): boolean {
  let child: t.Node = node;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const ancestor = ancestors[i] as t.Node;
    if (isFunction(ancestor)) return false;
    if (CONDITIONAL_TYPES.has(ancestor.type)) {
      // The test of an `if`/`?:` and the left side of `&&` always run; the branches do not.
      const isTest = (ancestor.type === "IfStatement" || ancestor.type === "ConditionalExpression") && ancestor.test === child;
      const isLeft = ancestor.type === "LogicalExpression" && ancestor.left === child;
      if (!isTest && !isLeft) return true;
    }
    if (ancestor.type === "BlockStatement" || ancestor.type === "Program") {
      const start = child.start ?? 0;
      for (const statement of ancestor.body) {
        if ((statement.end ?? 0) > start) break;
        if (statement.type === "IfStatement" && canLeaveEarly(statement)) return true;
      }
    }
    child = ancestor;
  }
  return false;
}

/** Parameter names of a function (identifiers and destructured names). */
function parameterNames(fn: t.Function): Set<string> {
  const names = new Set<string>();
  const add = (pattern: t.Node): void => {
    if (pattern.type === "Identifier") names.add(pattern.name);
    else if (pattern.type === "AssignmentPattern") add(pattern.left);
    else if (pattern.type === "ObjectPattern") for (const property of pattern.properties) add(property.type === "ObjectProperty" ? (property.value as t.Node) : property.argument);
    else if (pattern.type === "ArrayPattern") for (const element of pattern.elements) if (element) add(element);
  };
  for (const param of fn.params) add(param);
  return names;
}

/** The top-level functions of a program by name: `function f`, `const f = () => …` / `function () …`, exported or not. */
function topLevelFunctions(program: t.Program): Map<string, t.Function> {
  const functions = new Map<string, t.Function>();
  for (const outer of program.body) {
    const statement = outer.type === "ExportNamedDeclaration" || outer.type === "ExportDefaultDeclaration" ? outer.declaration : outer;
    if (!statement) continue;
    if (statement.type === "FunctionDeclaration" && statement.id) functions.set(statement.id.name, statement);
    if (statement.type === "VariableDeclaration") {
      for (const declarator of statement.declarations) {
        const init = declarator.init;
        if (declarator.id.type === "Identifier" && (init?.type === "ArrowFunctionExpression" || init?.type === "FunctionExpression")) functions.set(declarator.id.name, init);
      }
    }
  }
  return functions;
}

/** Callee text of a call as `a.b.c`, or null for anything but identifiers and plain members. */
function calleeText(callee: t.Node): string | null {
  if (callee.type === "Identifier") return callee.name;
  if (callee.type === "ThisExpression") return "this";
  if (callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier") {
    const object = calleeText(callee.object);
    return object === null ? null : `${object}.${callee.property.name}`;
  }
  return null;
}

/**
 * The skip a call makes inside a helper with parameters `params`, or null:
 * `<param>.skip()` (a test context passed in: `ctx.skip()`, `t.skip()`),
 * `this.skip()` (Mocha), `test.skip()` / `test.skip(cond, reason)`
 * (Playwright, where a literal `true` condition always skips and any other
 * condition is a condition), or a call of a helper already known to skip.
 */
function skipOfCall(call: t.CallExpression, params: ReadonlySet<string>, known: ReadonlyMap<string, SkippingHelper>): SkippingHelper | null {
  const text = calleeText(call.callee);
  if (text === null) return null;
  const reasonArg = call.arguments.find((arg) => arg.type === "StringLiteral");
  const reason = reasonArg?.type === "StringLiteral" ? { reason: reasonArg.value } : {};
  const parts = text.split(".");
  if (parts.length === 2 && parts[1] === "skip" && (params.has(parts[0] as string) || parts[0] === "this")) return { via: `${text}()`, isConditional: false, ...reason };
  if (parts.length === 2 && parts[1] === "skip" && parts[0] === "test") {
    const first = call.arguments[0];
    const isConditional = first !== undefined && first.type !== "StringLiteral" && !(first.type === "BooleanLiteral" && first.value);
    return { via: `${text}()`, isConditional, ...reason };
  }
  const helper = parts.length === 1 ? known.get(text) : undefined;
  return helper ? { via: `${text}() (${helper.via})`, isConditional: helper.isConditional } : null;
}

/** The first skip of a helper's body (not inside a nested function), with its conditionality. */
function firstSkipOf(fn: t.Function, known: ReadonlyMap<string, SkippingHelper>): SkippingHelper | null {
  const params = parameterNames(fn);
  const ancestors: t.Node[] = [];
  let found: SkippingHelper | null = null;
  const visit = (node: t.Node): void => {
    if (found) return;
    if (node !== fn && isFunction(node)) return;
    if (node.type === "CallExpression") {
      const skip = skipOfCall(node, params, known);
      if (skip) {
        found = skip.isConditional || isConditionalWithinFunction(ancestors, node) ? { ...skip, isConditional: true } : skip;
        return;
      }
    }
    ancestors.push(node);
    forEachChild(node, visit);
    ancestors.pop();
  };
  visit(fn);
  return found;
}

/**
 * The top-level functions of a program that skip the test that calls them,
 * by name. A helper calling a skipping helper skips too (resolved to a fixed
 * point, so a chain of helpers of any depth is followed).
 */
export function findSkippingHelpers(program: t.Program): Map<string, SkippingHelper> {
  const functions = topLevelFunctions(program);
  const helpers = new Map<string, SkippingHelper>();
  for (let round = 0; round < 4; round++) {
    let isChanged = false;
    for (const [name, fn] of functions) {
      if (helpers.has(name)) continue;
      const skip = firstSkipOf(fn, helpers);
      if (skip) {
        helpers.set(name, skip);
        isChanged = true;
      }
    }
    if (!isChanged) break;
  }
  return helpers;
}
