/**
 * Conditions made constant: a guard whose condition can no longer be true
 * (`if err != nil && false {`, `if (x < 0 && false) throw`, `if False and
 * bad:`), or whose `else` branch raises under a condition that is always
 * true (`if (ok || true) {…} else { throw … }`), looks like a guard and
 * never fires. validation.ts asks {@link isNeverFiring} so such a guard
 * keeps no guard of before alive, and reports the lost guard with
 * {@link madeConstantFinding} when the function now holds its constant twin.
 *
 * Works on the guard's normalised condition text (facts.ts GuardFact), the
 * same in every language: `&&`/`and` and `||`/`or` at the top level, the
 * literals `true`/`True`, `false`/`False`/`0`/`nil`/`null`/`None`.
 */

import type { GuardFact } from "../facts.js";
import type { Finding } from "../types.js";
import { report } from "./registry.js";
import { validationRule } from "./validation.js";

/** Rule id (evidence.rule). The finding is validation.ts's `guardMadeConstant` message: the guard is as good as removed. */
export const CONSTANT_CONDITION_RULE = "guard_made_constant";

const FALSE_WORDS: ReadonlySet<string> = new Set(["false", "False", "FALSE", "0", "nil", "null", "None", "undefined", "!true", "!1", "not True", "not true"]);
const TRUE_WORDS: ReadonlySet<string> = new Set(["true", "True", "TRUE", "1", "!false", "!0", "not False", "not false"]);

/** Splits a condition at top-level occurrences of an operator (`&&`/`and` or `||`/`or`), outside brackets and strings. */
export function splitTopLevel(text: string, symbol: "&&" | "||"): string[] {
  const word = symbol === "&&" ? "and" : "or";
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote !== null) {
      if (char === "\\") i++;
      else if (char === quote) quote = null;
      continue;
    }
    if (char === '"' || char === "'" || char === "`") quote = char;
    else if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    else if (depth === 0 && text.startsWith(symbol, i)) {
      parts.push(text.slice(start, i));
      start = i + symbol.length;
      i += symbol.length - 1;
    } else if (depth === 0 && text.startsWith(word, i) && /[\s)]/.test(text[i - 1] ?? "") && /[\s(]/.test(text[i + word.length] ?? "")) {
      parts.push(text.slice(start, i));
      start = i + word.length;
      i += word.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

/** Drops one pair of parentheses around the whole text. */
export function unwrapParentheses(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith("(") || !trimmed.endsWith(")")) return trimmed;
  let depth = 0;
  for (let i = 0; i < trimmed.length; i++) {
    if (trimmed[i] === "(") depth++;
    else if (trimmed[i] === ")") depth--;
    if (depth === 0 && i < trimmed.length - 1) return trimmed;
  }
  return trimmed.slice(1, -1).trim();
}

/** The constant value of a condition text, or null when it depends on something. */
export function constantValue(condition: string): boolean | null {
  const text = unwrapParentheses(condition);
  if (FALSE_WORDS.has(text)) return false;
  if (TRUE_WORDS.has(text)) return true;
  const negation = /^(?:!|not\b\s*)([\s\S]+)$/.exec(text);
  if (negation && unwrapParentheses(negation[1] as string) !== (negation[1] as string).trim()) {
    const inner = constantValue(negation[1] as string);
    return inner === null ? null : !inner;
  }
  const alternatives = splitTopLevel(text, "||");
  if (alternatives.length > 1) {
    const values = alternatives.map(constantValue);
    if (values.includes(true)) return true;
    return values.every((value) => value === false) ? false : null;
  }
  const conjuncts = splitTopLevel(text, "&&");
  if (conjuncts.length > 1) {
    const values = conjuncts.map(constantValue);
    if (values.includes(false)) return false;
    return values.every((value) => value === true) ? true : null;
  }
  return null;
}

/** True when the guard can never fire: its condition is constantly false (an `else` guard's `!(…)` included). */
export function isNeverFiring(guard: GuardFact): boolean {
  return constantValue(guard.condition) === false;
}

/** The finding for a guard of before whose function now holds it with a constant condition (`now`). */
export function madeConstantFinding(path: string, fn: string, was: GuardFact, now: GuardFact): Finding {
  return report(
    validationRule,
    "guardMadeConstant",
    { condition: was.condition, action: was.action, where: fn === "" ? "module code" : `${fn}()`, path, now: now.condition },
    {
      file: path,
      line: now.line,
      before_file: path,
      before_line: was.line,
      evidence: { rule: CONSTANT_CONDITION_RULE, function: fn, condition_before: was.condition, condition_after: now.condition, action: was.action },
    },
  );
}
