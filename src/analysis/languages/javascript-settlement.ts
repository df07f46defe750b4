/**
 * When a JS/TS test's assertion can decide the test (jestjs.io/docs/asynchronous,
 * vitest.dev/api/expect#resolves): an async assertion nobody awaits or returns
 * (`expect(p).rejects.toThrow()` as a bare statement) settles after the test
 * has ended and cannot fail it; an assertion inside a `.catch(cb)` or
 * `.then(_, cb)` callback runs only when the code rejects, so a resolving
 * call passes the test without checking anything, unless the test counts its
 * assertions (`expect.assertions(n)`, `expect.hasAssertions()`; a `catch`
 * block is read the same way by checks/error-checks.ts); and an assertion inside a callback of a
 * test whose body calls its `done` before its last statement runs, if at all,
 * after the test has ended.
 */

import type * as t from "@babel/types";

/** How an assertion can decide its test: always, only when the code under test rejects or throws, or never. */
export type Settlement = "settles" | "on-rejection" | "after-end";

const isFunction = (node: t.Node | undefined): node is t.ArrowFunctionExpression | t.FunctionExpression | t.FunctionDeclaration =>
  node?.type === "ArrowFunctionExpression" || node?.type === "FunctionExpression" || node?.type === "FunctionDeclaration";

/** The member names of a callee chain, outermost last (`expect(p).rejects.toThrow` -> expect, rejects, toThrow). */
function chainNames(node: t.Node): string[] {
  const names: string[] = [];
  let current: t.Node = node;
  for (;;) {
    if (current.type === "CallExpression") current = current.callee;
    else if (current.type === "MemberExpression" && !current.computed && current.property.type === "Identifier") {
      names.unshift(current.property.name);
      current = current.object;
    } else break;
  }
  if (current.type === "Identifier") names.unshift(current.name);
  return names;
}

const ASYNC_MODIFIERS: ReadonlySet<string> = new Set(["rejects", "resolves"]);

/** Assertion counting that makes a resolving call fail the test (jest expect.assertions / hasAssertions). */
const COUNTS_ASSERTIONS = /\bexpect\s*\.\s*(assertions|hasAssertions)\s*\(/;

/**
 * The settlement of the assertion `node` (the outermost call of its chain)
 * inside the test function `test`, with `ancestors` the nodes from the root
 * down to `node`'s parent (or down to `node`) and `content` the file's text.
 * Pure; never throws.
 */
export function settlementOf(node: t.CallExpression, ancestors: readonly t.Node[], test: t.Node | null, content: string): Settlement {
  const path = ancestors[ancestors.length - 1] === node ? ancestors.slice(0, -1) : ancestors;
  const testIndex = test === null ? -1 : path.lastIndexOf(test);
  if (testIndex === -1) return "settles";
  const testText = content.slice(test?.start ?? 0, test?.end ?? 0);
  // The assertion may be the chain's `expect(p)`: climb to the chain's outermost call (`expect(p).rejects.toThrow()`).
  let outer: t.Node = node;
  let at = path.length - 1;
  for (; at > testIndex; at -= 1) {
    const parent = path[at] as t.Node;
    if ((parent.type === "MemberExpression" && parent.object === outer) || (parent.type === "CallExpression" && parent.callee === outer)) outer = parent;
    else break;
  }
  if (chainNames(outer).some((name) => ASYNC_MODIFIERS.has(name)) && path[at]?.type === "ExpressionStatement") return "after-end";
  if (isEarlyDone(test, path, testIndex)) return "after-end";
  if (COUNTS_ASSERTIONS.test(testText)) return "settles";
  for (let index = path.length - 1; index > testIndex; index -= 1) {
    const here = path[index] as t.Node;
    const parent = path[index - 1];
    if (isFunction(here) && parent?.type === "CallExpression" && parent.callee.type === "MemberExpression" && parent.callee.property.type === "Identifier") {
      const method = parent.callee.property.name;
      if ((method === "catch" && parent.arguments[0] === here) || (method === "then" && parent.arguments[1] === here)) return "on-rejection";
    }
  }
  return "settles";
}

/**
 * True when the assertion sits in a function nested in the test function
 * (a callback it registers) and the test's body calls its first parameter
 * (`done`) as a statement of its own before its last statement: what the
 * statements after that call trigger runs after the test has ended.
 */
function isEarlyDone(test: t.Node | null, path: readonly t.Node[], testIndex: number): boolean {
  if (!isFunction(test ?? undefined) || test === null || !isFunction(test)) return false;
  const done = test.params[0];
  if (done?.type !== "Identifier" || test.body.type !== "BlockStatement") return false;
  if (!path.slice(testIndex + 1).some((node) => isFunction(node))) return false;
  const statements = test.body.body;
  const doneAt = statements.findIndex(
    (statement) =>
      statement.type === "ExpressionStatement" && statement.expression.type === "CallExpression" && statement.expression.callee.type === "Identifier" && statement.expression.callee.name === done.name,
  );
  return doneAt !== -1 && doneAt < statements.length - 1;
}
