/**
 * The same call made again: two checks' subjects that call one function
 * with the first one's literal inputs still passed (arguments possibly
 * added). rules/flipped-refusals.ts asks it of an error check flipped with
 * its fix; rules/features.ts (through index.ts findReCalledCover) of a check
 * made again with another expected value after a product change.
 */

/**
 * The callee of a call's canonical text (`meow({…});` -> `meow`, `new
 * Parser(x)` -> `Parser`; a thunk's block or body read through: `{meow(…);}`,
 * `()=>f(1)`), or null when it is no call.
 */
export function calleeOf(subject: string): string | null {
  const body = subject.replace(/^(?:async\s*)?(?:\(\)\s*(?:=>|->)\s*)?\{?\s*(?:return\s*)?(?:await\s*)?/, "");
  const match = /^(?:new\s*)?([\w$.:\\>-]+)\(/.exec(body);
  return match ? (match[1] as string) : null;
}

/** The string and number literals of a canonical text, as a multiset (text -> count). */
function literalCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"|(?<![\w$.])-?\d+(?:\.\d+)?(?![\w$])/g)) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  return counts;
}

/** True when `now` calls the same function as `was` and still passes every literal `was` passed (others may be added). */
export function isSameCall(was: string, now: string): boolean {
  const callee = calleeOf(was);
  if (callee === null || callee !== calleeOf(now)) return false;
  const kept = literalCounts(now);
  return [...literalCounts(was)].every(([literal, count]) => (kept.get(literal) ?? 0) >= count);
}
