/**
 * Cross-checks made over more inputs (issue 9, class
 * cross-check-split-and-generalized; sweep of rust-itertools/itertools
 * 6128bee39a). A cross-check compares two computations over one input
 * (`assert_eq!(array_windows::<2>(&vec4), pair_windows(&vec4).map(|(a, b)|
 * [a, b]).collect())`): what it states is that the two agree, whatever the
 * input. Moved into a helper that makes the same comparison over its
 * parameter (`fn internal(slice: &[i32]) { assert_eq!(array_windows::<2>(slice),
 * pair_windows(slice).map(Into::<[_; 2]>::into).collect()) }`, called for
 * every prefix of a range), it is the same check on more inputs.
 *
 * Two checks are the same cross-check when, with the input both sides
 * share (an argument of a call on each side, or the receiver both method
 * chains start from) written as one placeholder and each function-valued argument (a
 * closure, an arrow function, a lambda, a path to a function such as
 * `Into::into` or `Array.from`: the adapter between the two output
 * shapes) as another, their two sides are the same, in either order. The
 * new check's input must be a value the code computes or receives (it
 * names a variable and is computed, not a bare name): a cross-check moved
 * onto a literal input (`&[]`) checks one case, not the general one.
 */

import type { CheckedTest } from "./index.js";
import { closingBracket, splitArguments, type Check } from "./normalise.js";

/** Built-in conversions passed as functions by their bare name: Python's (`map(list, pairs)`) and JavaScript's global constructors (`xs.map(String)`). */
const BUILTIN_FUNCTIONS: ReadonlySet<string> = new Set([
  "list",
  "tuple",
  "str",
  "int",
  "float",
  "dict",
  "set",
  "frozenset",
  "bytes",
  "bool",
  "sorted",
  "reversed",
  "repr",
  "String",
  "Number",
  "Boolean",
  "BigInt",
]);

/** An argument that is a function: a Rust closure, an arrow function, a Python lambda, a path or member naming a function (`Into::<[_; 2]>::into`, `From::from`, `Array.from`, `str::to_string`), a built-in conversion by name ({@link BUILTIN_FUNCTIONS}). */
function isFunctionValue(argument: string): boolean {
  const text = argument.trim();
  if (BUILTIN_FUNCTIONS.has(text)) return true;
  if (/^(?:move\s*)?\|[^|]*\|/.test(text) || /^lambda\b/.test(text) || /^(?:async\s*)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>/.test(text)) return true;
  return /^(?:[A-Za-z_][\w]*(?:::<[^()]*>)?::)+[a-z_]\w*$/.test(text) || /^[A-Z][\w$]*\.[a-z][\w$]*$/.test(text);
}

/**
 * The calls of `text` not inside another call's arguments, in order: the
 * offsets of their parentheses and their arguments, trimmed. A call's
 * parentheses follow a name, a turbofish's `>`, a `)`, a `]` or a macro's
 * `!`; other parentheses (`(0..i).collect()`) are looked into.
 */
function outerCalls(text: string): { open: number; close: number; args: string[] }[] {
  const calls: { open: number; close: number; args: string[] }[] = [];
  for (let at = text.indexOf("("); at !== -1; at = text.indexOf("(", at + 1)) {
    const close = closingBracket(text, at);
    if (close === -1) break;
    if (!/[\w$>)\]!]$/.test(text.slice(0, at))) continue;
    const inner = text.slice(at + 1, close);
    calls.push({ open: at, close, args: inner.trim() === "" ? [] : splitArguments(inner).map((argument) => argument.trim()) });
    at = close;
  }
  return calls;
}

/** The arguments of every call in `text`, outer calls first, as written (canonical). */
function callArguments(text: string): string[] {
  return outerCalls(text).flatMap((call) => call.args.flatMap((argument) => [argument, ...callArguments(argument)]));
}

/** True when an input names a variable (a name that is neither a type, a macro nor a callee): `&vec4`, `slice`, `&(0..i).collect::<Vec<_>>()`. */
function namesVariable(input: string): boolean {
  return /(?:^|[^\w$.:])[a-z_][\w$]*\b(?![!(]|::|\s*\()/.test(input.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""'));
}

/** `text` with each call argument in `inputs` written `$` and each function-valued argument `F`, the rest kept; references (`&x`, `&mut x`) read as the value. */
function skeleton(text: string, inputs: ReadonlySet<string>): string {
  let out = "";
  let last = 0;
  for (const call of outerCalls(text)) {
    const args = call.args.map((argument) => (inputs.has(argument) ? "$" : isFunctionValue(argument) ? "F" : skeleton(argument, inputs)));
    out += `${text.slice(last, call.open)}(${args.join(",")})`;
    last = call.close + 1;
  }
  return (out + text.slice(last)).replace(/&(?:mut\s+)?\$/g, "$");
}

/** The plain name a method chain starts from (`vec4` in `vec4.iter().copied()`). */
const RECEIVER_ROOT = /^([a-z_][\w$]*)\./;

/** The two sides of a cross-check with their shared input written `$`, or null when `check` compares no two computations over one input. */
function crossCheckSides(check: Check): { sides: [string, string]; inputs: string[] } | null {
  if (check.relation !== "equal" || check.isNegated || check.isTautology || !check.isReachable || check.expected === undefined) return null;
  const [left, right] = [check.subject, check.expected];
  if (!left.includes("(") || !right.includes("(")) return null;
  const rightArgs = new Set(callArguments(right).map((argument) => argument.replace(/^&(?:mut\s+)?/, "")));
  const inputs = [...new Set(callArguments(left).map((argument) => argument.replace(/^&(?:mut\s+)?/, "")))].filter(
    (argument) => rightArgs.has(argument) && !isFunctionValue(argument) && namesVariable(argument),
  );
  // A receiver both chains start from is an input too (`xs.iter().fast()` against `xs.iter().slow()`).
  const root = RECEIVER_ROOT.exec(left)?.[1];
  const isSharedRoot = root !== undefined && RECEIVER_ROOT.exec(right)?.[1] === root && namesVariable(root);
  if (isSharedRoot) inputs.push(root);
  if (inputs.length === 0) return null;
  const shared = new Set(inputs.flatMap((input) => [input, `&${input}`, `&mut ${input}`]));
  const rooted = (text: string): string => (isSharedRoot ? text.replace(RECEIVER_ROOT, "$$.") : text);
  const sides: [string, string] = [skeleton(rooted(left), shared), skeleton(rooted(right), shared)];
  // Both sides must still differ as computations: `f($)` against `f($)` compares nothing.
  return sides[0] === sides[1] ? null : { sides, inputs };
}

/**
 * The after check (of the tests in `pool`, in order) that makes the
 * cross-check `check` over a variable input, or null: the same two
 * computations with the shared input and the adapters read as
 * placeholders, in either order, the new check as strong or stronger and
 * its input another than the old one (the same input is findCover's). A
 * helper's check is read as each call instantiates it (CheckedTest.helperCalls):
 * `internal(&[])` makes the comparison over one literal input whatever the
 * helper's parameter is called. The new input must be computed and name a
 * variable (`&(0..i).collect::<Vec<_>>()`, `list(range(n))`): a bare name
 * may be a helper's parameter read uninstantiated (a JS arrow helper nested
 * in its test is not instantiated) or a local holding one literal, so it
 * covers nothing.
 */
export function findCrossCheckCover(check: Check, pool: readonly CheckedTest[]): Check | null {
  const was = crossCheckSides(check);
  if (was === null) return null;
  const key = (sides: readonly [string, string]): string => [...sides].sort().join("\u0000");
  const wanted = key(was.sides);
  const isCover = (candidate: Check): boolean => {
    if (candidate.strength < check.strength) return false;
    const now = crossCheckSides(candidate);
    // The new input is computed (`&(0..i).collect()`, `list(range(n))`): a bare name may be a helper's own parameter,
    // read uninstantiated where its test nests it, or a local holding one literal.
    if (now === null || !now.inputs.some((input) => !/^[A-Za-z_$][\w$]*$/.test(input))) return false;
    return !now.inputs.every((input) => was.inputs.includes(input)) && key(now.sides) === wanted;
  };
  for (const test of pool) {
    const parts = [...(test.helperCalls?.values() ?? [])].flatMap((call) => call.parts);
    const found = parts.find(isCover) ?? test.checks.find(isCover);
    if (found) return found;
  }
  return null;
}
