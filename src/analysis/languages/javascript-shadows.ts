/**
 * JS/TS assertion shadows (analysis/assertion-shadows.ts): a built-in jest /
 * vitest matcher replaced through `expect.extend({ toBeCloseTo(received,
 * expected) { … } })` (jestjs.io/docs/expect#expectextendmatchers: a
 * matcher returns `{ pass, message }`, and an extended name replaces the
 * built-in one for every test the setup file runs before), and a node:assert
 * or chai assert function reassigned (`assert.equal = () => {}`).
 */

import type * as t from "@babel/types";
import { judgeShadow, type ShadowFailureSyntax } from "../assertion-shadows.js";
import type { AssertionShadowFact } from "../facts.js";
import { WALK_SKIP_KEYS } from "./javascript-source.js";

/** The matchers jest's and vitest's `expect` has built in (jestjs.io/docs/expect, vitest.dev/api/expect). */
const BUILT_IN_MATCHERS: ReadonlySet<string> = new Set([
  "toBe",
  "toEqual",
  "toStrictEqual",
  "toBeCloseTo",
  "toBeDefined",
  "toBeUndefined",
  "toBeNull",
  "toBeNaN",
  "toBeTruthy",
  "toBeFalsy",
  "toBeGreaterThan",
  "toBeGreaterThanOrEqual",
  "toBeLessThan",
  "toBeLessThanOrEqual",
  "toBeInstanceOf",
  "toBeTypeOf",
  "toBeOneOf",
  "toContain",
  "toContainEqual",
  "toHaveLength",
  "toHaveProperty",
  "toMatch",
  "toMatchObject",
  "toMatchSnapshot",
  "toMatchInlineSnapshot",
  "toMatchFileSnapshot",
  "toThrow",
  "toThrowError",
  "toThrowErrorMatchingSnapshot",
  "toThrowErrorMatchingInlineSnapshot",
  "toHaveBeenCalled",
  "toHaveBeenCalledTimes",
  "toHaveBeenCalledWith",
  "toHaveBeenLastCalledWith",
  "toHaveBeenNthCalledWith",
  "toHaveBeenCalledOnce",
  "toHaveBeenCalledExactlyOnceWith",
  "toHaveReturned",
  "toHaveReturnedTimes",
  "toHaveReturnedWith",
  "toHaveLastReturnedWith",
  "toHaveNthReturnedWith",
  "toSatisfy",
]);

/** node:assert's and chai's assert functions, by the objects they are reached through. */
const ASSERT_OBJECTS: ReadonlySet<string> = new Set(["assert", "strict", "expect"]);

/** A failure inside a matcher or assert function: a throw, the matcher's `pass` (a property or a binding), a delegation to `this.equals`/`expect`/`assert`. */
const JS_FAILURE: ShadowFailureSyntax = { failure: /\bthrow\b|\bpass\s*(:|=(?!=))|\bthis\.equals\s*\(|\bexpect\s*\(|\bassert\w*\s*[.(]/g };

/** Cheap test for the shapes this module reads. */
const GATE = /\.extend\s*\(|\bassert\.\w+\s*=(?!=)|\bexpect\.\w+\s*=(?!=)/;

/** True for a Babel node among an AST object's values (an object with a string `type`). */
function isNodeLike(value: unknown): value is t.Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

type FunctionLike = t.ObjectMethod | t.FunctionExpression | t.ArrowFunctionExpression;

function isFunctionLike(node: t.Node | null | undefined): node is FunctionLike {
  return node?.type === "ObjectMethod" || node?.type === "FunctionExpression" || node?.type === "ArrowFunctionExpression";
}

function keyName(key: t.Node, computed: boolean): string | null {
  if (!computed && key.type === "Identifier") return key.name;
  if (key.type === "StringLiteral") return key.value;
  return null;
}

/** A parameter's name as written (`received`, `...args` as `args`, a default's left side); destructured parameters have none. */
function parameterName(node: t.Node): string {
  if (node.type === "Identifier") return node.name;
  if (node.type === "AssignmentPattern") return parameterName(node.left);
  if (node.type === "RestElement") return parameterName(node.argument);
  if (node.type === "TSParameterProperty") return parameterName(node.parameter);
  return "";
}

/** Locals bound to an assert function before it is replaced (`const original = assert.deepStrictEqual`): a call of one delegates to the real assertion. */
const SAVED_ORIGINAL = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:assert|strict|expect)\s*\.\s*\w+\s*(?:[;\n]|\.bind\b)/g;

/** {@link JS_FAILURE} with calls of the file's saved originals ({@link SAVED_ORIGINAL}) as failure sites too. */
function failureSyntaxOf(content: string): ShadowFailureSyntax {
  const saved = [...content.matchAll(SAVED_ORIGINAL)].map((match) => (match[1] as string).replace(/\$/g, "\\$"));
  if (saved.length === 0) return JS_FAILURE;
  return { failure: new RegExp(`${JS_FAILURE.failure.source}|(?<![\\w$.])(${saved.join("|")})\\s*(\\.\\s*(call|apply)\\s*)?\\(`, "g") };
}

function shadowOf(name: string, fn: FunctionLike, content: string, syntax: ShadowFailureSyntax): AssertionShadowFact {
  const body = content.slice(fn.body.start ?? 0, fn.body.end ?? 0);
  const verdict = judgeShadow(body, fn.params.map(parameterName), syntax);
  return { name, line: fn.loc?.start.line ?? 1, ...verdict };
}

/** The object an `expect.extend(...)` call extends, or null. */
function extendedMatchers(node: t.CallExpression): t.ObjectExpression | null {
  const callee = node.callee;
  if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier" || callee.property.name !== "extend") return null;
  if (callee.object.type !== "Identifier" || callee.object.name !== "expect") return null;
  const argument = node.arguments[0];
  return argument?.type === "ObjectExpression" ? argument : null;
}

/**
 * The assertion shadows of a parsed JS/TS file (see the module comment), in
 * source order; none unless the text holds `.extend(` or an assignment to
 * `assert.x` / `expect.x`. Never throws.
 */
export function javascriptShadows(ast: t.File, content: string): AssertionShadowFact[] {
  if (!GATE.test(content)) return [];
  const found: AssertionShadowFact[] = [];
  const syntax = failureSyntaxOf(content);
  const visit = (node: t.Node): void => {
    if (node.type === "CallExpression") {
      for (const property of extendedMatchers(node)?.properties ?? []) {
        if (property.type === "SpreadElement") continue;
        const name = keyName(property.key, property.computed);
        if (name === null || !BUILT_IN_MATCHERS.has(name)) continue;
        const fn = property.type === "ObjectMethod" ? property : property.value;
        if (isFunctionLike(fn)) found.push(shadowOf(name, fn, content, syntax));
      }
    }
    if (node.type === "AssignmentExpression" && node.operator === "=" && node.left.type === "MemberExpression" && node.left.object.type === "Identifier") {
      const name = keyName(node.left.property, node.left.computed);
      if (name !== null && ASSERT_OBJECTS.has(node.left.object.name) && isFunctionLike(node.right)) found.push(shadowOf(`${node.left.object.name}.${name}`, node.right, content, syntax));
    }
    for (const [key, value] of Object.entries(node)) {
      if (WALK_SKIP_KEYS.has(key)) continue;
      if (Array.isArray(value)) {
        for (const item of value) if (isNodeLike(item)) visit(item);
      } else if (isNodeLike(value)) visit(value);
    }
  };
  visit(ast.program);
  return found;
}
