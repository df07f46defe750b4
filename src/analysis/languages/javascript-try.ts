/**
 * JS/TS `try` statements as the language-neutral shapes of
 * analysis/checks/error-checks.ts, so an exception check written by hand
 * (`let threw = false; try { f(); } catch (e) { threw = true; }
 * expect(threw).toBe(true)`, or `try { f(); assert.fail(); } catch (e) {
 * expect(e).toBeInstanceOf(E) }`) is read as the `throws` check it is.
 *
 * A JS `catch` catches everything, the failure of `assert.fail()` included:
 * a fail form is a check only when its handler asserts on what it caught,
 * and it names the error's type when the handler does.
 * A handler that rethrows what is not an instance of a type (`if (!(e
 * instanceof RangeError)) throw e;` first), or asserts that what it caught
 * is one (`expect(e).toBeInstanceOf(RangeError)`), names that type.
 */

import type * as t from "@babel/types";
import { RAISE_FAILURE, withTryErrorChecks, type PlacedFact, type TryShape, type TryStatement } from "../checks/error-checks.js";
import { toCheck } from "../checks/normalise.js";
import { normalizedSource } from "./javascript-source.js";
import { forEachChild } from "./javascript-skips.js";

/** Explicit failures that are not counted as assertions elsewhere: vitest `expect.unreachable()`, chai `expect.fail()`, jasmine/jest `fail()`. */
const UNCOUNTED_FAILURE = /^(?:expect\.(?:unreachable|fail)|fail)\(/;

/** A throw of a new error (`throw new Error("should have thrown")`, `throw Error(…)`): its type. */
const NEW_ERROR = /^throw\s+(?:new\s+)?([A-Z][\w$.]*)\s*\(/;

/** The expression a statement evaluates: an expression statement's, a declaration's initialiser, an assignment's right side. */
function valueOf(statement: t.Statement): t.Node | null {
  if (statement.type === "ExpressionStatement") {
    const expression = statement.expression;
    return expression.type === "AssignmentExpression" ? expression.right : expression;
  }
  if (statement.type === "VariableDeclaration") return statement.declarations.length === 1 ? (statement.declarations[0]?.init ?? null) : null;
  return null;
}

/** A statement as a {@link TryStatement}. */
function statementOf(statement: t.Statement, content: string): TryStatement {
  const start = statement.start ?? 0;
  const end = statement.end ?? start;
  const shaped: TryStatement = { start, end, text: content.slice(start, end).replace(/\s+/g, " ").trim() };
  const value = valueOf(statement);
  if (value) shaped.code = normalizedSource(content, value);
  return shaped;
}

/** The type a handler lets through, when its first statement rethrows everything else: `if (!(e instanceof T)) throw e;`. */
function rethrowGuardType(handler: t.CatchClause): string[] {
  const first = handler.body.body[0];
  const param = handler.param?.type === "Identifier" ? handler.param.name : null;
  if (!param || first?.type !== "IfStatement") return [];
  const test = first.test;
  const thrown = first.consequent.type === "BlockStatement" ? first.consequent.body[0] : first.consequent;
  if (thrown?.type !== "ThrowStatement" || thrown.argument.type !== "Identifier" || thrown.argument.name !== param) return [];
  const inner = test.type === "UnaryExpression" && test.operator === "!" ? test.argument : null;
  if (inner?.type !== "BinaryExpression" || inner.operator !== "instanceof" || inner.left.type !== "Identifier" || inner.left.name !== param) return [];
  return inner.right.type === "Identifier" ? [inner.right.name] : [];
}

/** The types a handler's own assertions require of what it caught (`expect(e).toBeInstanceOf(RangeError)`, `assert.ok(e instanceof RangeError)`). */
function assertedTypes(handler: t.CatchClause, facts: readonly PlacedFact[]): string[] {
  const param = handler.param?.type === "Identifier" ? handler.param.name : null;
  if (!param) return [];
  return facts.flatMap(({ fact, start }) => {
    if (start < (handler.start ?? 0) || start >= (handler.end ?? 0)) return [];
    const check = toCheck(fact);
    return check.relation === "type" && !check.isNegated && check.subject === param && check.expected !== undefined ? [check.expected] : [];
  });
}

/** The `try` statements under `root` as shapes, each with the statements of the block holding it; a handler names the type it rethrows all but ({@link rethrowGuardType}) or the one its assertions require ({@link assertedTypes}). */
function tryShapes(root: t.Node, content: string, facts: readonly PlacedFact[]): TryShape[] {
  const shapes: TryShape[] = [];
  const visit = (node: t.Node, parent: t.Node | null): void => {
    if (node.type === "TryStatement" && node.handler) {
      const siblings = parent?.type === "BlockStatement" || parent?.type === "Program" ? parent.body : [];
      const index = siblings.indexOf(node);
      const handler = node.handler;
      shapes.push({
        body: node.block.body.map((statement) => statementOf(statement, content)),
        orElse: [],
        handlers: [
          {
            types: [...new Set([...rethrowGuardType(handler), ...assertedTypes(handler, facts)])],
            start: handler.start ?? 0,
            end: handler.end ?? 0,
            statements: handler.body.body.map((statement) => statementOf(statement, content)),
          },
        ],
        before: index === -1 ? [] : siblings.slice(0, index).map((statement) => statementOf(statement, content)),
        after: index === -1 ? [] : siblings.slice(index + 1).map((statement) => statementOf(statement, content)),
      });
    }
    forEachChild(node, (child) => visit(child, node));
  };
  visit(root, null);
  return shapes;
}

/**
 * A test's assertions (as the JS extractor records them: fact and start)
 * with its hand-written exception checks read as `throws` checks; an
 * uncounted explicit failure (`expect.unreachable()`, `fail()`) ending a
 * guarded block is counted as the failure it is first, and so is a throw of
 * a new error there when the handler requires another type of what it
 * caught (a JS handler catches the throw too: any other assertion of it
 * holds of the thrown error as well).
 */
export function withJavaScriptTryChecks(callback: t.Node, content: string, assertions: readonly PlacedFact[]): PlacedFact[] {
  const shapes = tryShapes(callback, content, assertions);
  if (shapes.length === 0) return [...assertions];
  const placed = [...assertions];
  for (const shape of shapes) {
    const last = shape.body.at(-1);
    if (!last || placed.some((fact) => fact.start >= last.start && fact.start < last.end)) continue;
    const line = content.slice(0, last.start).split("\n").length;
    const raised = NEW_ERROR.exec(last.text)?.[1];
    // A throw ending the guarded block fails the test as `fail()` does, unless the handler catches it (any JS handler does).
    // The handler catches the throw too, so it is a check only where the handler requires another type of what it caught
    // (`expect(e).toBeInstanceOf(TypeError)`): an assertion of anything else holds of the thrown error as well.
    const named = shape.handlers.flatMap((handler) => handler.types);
    if (raised !== undefined && named.length > 0 && !named.some((type) => type === raised || type === "Error")) {
      placed.push({ fact: { line, matcher: RAISE_FAILURE, expected: raised, strength: 1, tautology: false }, start: last.start });
    } else if (raised !== undefined) continue;
    else if (UNCOUNTED_FAILURE.test(last.text)) placed.push({ fact: { line, matcher: last.text.slice(0, last.text.indexOf("(")), strength: 1, tautology: false }, start: last.start });
  }
  placed.sort((a, b) => a.start - b.start);
  // A handler that names no type swallows the failure too; one that names a type rethrows the failure or fails on it.
  const countsAssertions = /\bexpect\s*\.\s*(assertions|hasAssertions)\s*\(/.test(content.slice(callback.start ?? 0, callback.end ?? 0));
  return withTryErrorChecks(shapes, placed, { catchesFailure: (types) => types.length === 0, countsAssertions }).filter(({ fact }) => fact.matcher !== RAISE_FAILURE);
}
