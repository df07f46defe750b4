/**
 * A failure moved out of a callback into a flag (sindresorhus/got
 * 4d7e628b1c):
 *
 *   hooks: { beforeRetry: [() => { t.fail("Retries on POST requests"); }] }
 * ->
 *   let retried = false;
 *   hooks: { beforeRetry: [() => { retried = true; }] }
 *   …
 *   t.false(retried, "Retries on POST requests");
 *
 * The assertion that the flag is still unset checks what the failure in the
 * callback checked: that the callback never ran. {@link sentinelFailure}
 * reads it as that failure (matcher `t.fail`, its message as the subject,
 * strength 3), so the rewrite either way is no weakening, while a flag the
 * test itself sets, one it never sets, or one set to something unset stays
 * the plain check it is.
 */

import type * as t from "@babel/types";
import type { AssertionFact } from "../facts.js";
import { assertsUnset, UNSET_VALUE } from "../checks/error-checks.js";
import { normalizedSource, walk } from "./javascript-source.js";

/** A value a flag starts unset with (`void 0` too; no initialiser counts as undefined). */
const isUnset = (text: string): boolean => UNSET_VALUE.test(text) || text === "void 0";

/**
 * True when `name` is a sentinel of the test `callback`: declared in its
 * own body (not in a nested function) unset, and assigned only inside
 * functions the test passes on, each time a value that is not unset.
 */
function isSentinel(callback: t.Node, name: string, content: string): boolean {
  const body = (callback as t.Function).body;
  if (!body) return false;
  // The nodes of the test's own body, outside the functions it passes on.
  const own = new Set<t.Node>();
  walk(body, (node) => void own.add(node), true);
  let declared = false;
  let isSetInCallback = false;
  let isOtherwiseWritten = false;
  walk(body, (node) => {
    const isNested = !own.has(node);
    if (node.type === "VariableDeclarator" && node.id.type === "Identifier" && node.id.name === name) {
      if (isNested || (node.init && !isUnset(normalizedSource(content, node.init)))) isOtherwiseWritten = true;
      else declared = true;
    }
    if (node.type === "AssignmentExpression" && node.left.type === "Identifier" && node.left.name === name) {
      if (isNested && node.operator === "=" && !isUnset(normalizedSource(content, node.right))) isSetInCallback = true;
      else isOtherwiseWritten = true;
    }
    if (node.type === "UpdateExpression" && node.argument.type === "Identifier" && node.argument.name === name) isOtherwiseWritten = true;
  });
  return declared && isSetInCallback && !isOtherwiseWritten;
}

/**
 * The failure a check of a sentinel flag stands for (see the module
 * comment), or null: `fact` must assert that a local of the test `callback`
 * is still unset, the local a sentinel there. The failure's subject is the
 * assertion's message (its last argument, a string literal), as `t.fail(m)`
 * reads.
 */
export function sentinelFailure(fact: AssertionFact, call: t.CallExpression, callback: t.Node | null, content: string): AssertionFact | null {
  if (!callback || fact.actual === undefined || !/^[A-Za-z_$][\w$]*$/.test(fact.actual) || !assertsUnset(fact)) return null;
  if (!isSentinel(callback, fact.actual, content)) return null;
  const last = call.arguments.at(-1);
  const failure: AssertionFact = { line: fact.line, matcher: "t.fail", strength: 3, tautology: false };
  if (call.arguments.length >= 2 && last && (last.type === "StringLiteral" || last.type === "TemplateLiteral")) failure.actual = normalizedSource(content, last);
  if (fact.conditions) failure.conditions = fact.conditions;
  return failure;
}
