/**
 * When one check covers another (issue 9, "conservation of checks"): a
 * check before the change is conserved when some check after it is equal
 * or stronger on the same subject. "Stronger" follows the one strength
 * table (relations.ts): an equality covers a containment, a match, an order
 * or a truthiness check of the same subject; a `throws` naming the type and
 * message covers one naming either; a `pytest.warns(W, match=M)` covers the
 * `isinstance(w, W)` and the message check it replaced; a
 * `toHaveBeenCalledWith(a)` is covered by a `deepEqual(calls, [a])` of the
 * recorded calls. An approximate equality covers another only when its
 * tolerance admits no more (tolerance.ts): a widened delta is a weaker check.
 *
 * A table test's check (`expect(add(a, b)).toBe(sum)` over rows) covers a
 * check of literals (`expect(add(1, 2)).toBe(3)`) when the table's names
 * bind to those literals and one row holds them all ({@link unify}).
 */

import { canonicalText, isLiteralText, literalKey, type Check } from "./normalise.js";
import type { Relation } from "./relations.js";
import { isToleranceWidened } from "./tolerance.js";
import { impliedByWhole } from "./implied.js";
import { impliesPattern } from "./patterns.js";

/** Names of a pattern bound to the canonical text of values (`a` -> `1`). */
export type Bindings = ReadonlyMap<string, string>;

/** Relations that a non-negated equality (or snapshot) of the same subject implies. */
const IMPLIED_BY_EQUALITY: ReadonlySet<Relation> = new Set(["equal", "partial", "contains", "match", "greater", "less", "type", "length", "truthy", "falsy", "nullish", "defined", "other"]);

/** How each language reads the message of a caught error: `e.getMessage()`, `$e->getMessage()`, `ex.Message`, `e.message`, `str(e)`, `e.args[0]`, `e.to_s`. */
const ERROR_MESSAGE = /(?:[.>]getMessage\(\)|\.[Mm]essage|^str\([\w.]+\)|\.args\[0\]|\.to_s)$/;

/** Expected values that PHPUnit's loose assertEquals finds equal to null (its scalar comparator: `'' == null`, `0 == null`, `false == null`; not `'0'`, not `[]`). */
const LOOSELY_NULL: ReadonlySet<string> = new Set(['""', "0", "0.0", "false"]);

/** Relations that a containment, partial match or pattern of the same subject implies: existence. */
const IMPLIED_BY_PARTS: ReadonlySet<Relation> = new Set(["truthy", "defined"]);

/** Tokens of canonical text: strings, numbers, names, and single punctuation characters. */
export function tokenize(text: string): string[] {
  return text.match(/"(?:[^"\\]|\\.)*"|\/(?:[^/\\\n]|\\.)+\/[a-z]*|-?\d[\w.]*|[A-Za-z_$][\w$]*[!?]?|\s+|./gs)?.filter((token) => !/^\s+$/.test(token)) ?? [];
}

/** Literal tokens of canonical text in {@link literalKey} form, as rows are compared (strings as the JSON of their value, numbers as written). */
export function literalTokens(text: string): string[] {
  return tokenize(text)
    .filter((token) => isLiteralText(token) && token !== "undefined")
    .map(literalKey);
}

/** True when a name a table binds starts at `index`: a plain identifier (not a keyword), not a member name. */
function isBindableStart(tokens: readonly string[], index: number): boolean {
  const token = tokens[index] as string;
  if (!/^[A-Za-z_$][\w$]*$/.test(token) || /^(true|false|null|nil|None|True|False|undefined|new|this|self|not|in|is|and|or|return|lambda|func|function)$/.test(token)) return false;
  const previous = tokens[index - 1];
  return previous !== "." && previous !== ":" && previous !== ">";
}

/**
 * End (exclusive) of the name starting at `index`: the identifier and its
 * member chain (`tt.want`, `case.input`, `$row->a`), or -1 when the chain is
 * called (`tt.fn(`): a call is code, not a table's value.
 */
function nameEnd(tokens: readonly string[], index: number): number {
  let end = index + 1;
  while ((tokens[end] === "." || (tokens[end] === "-" && tokens[end + 1] === ">")) && /^[A-Za-z_$][\w$]*$/.test(tokens[end + (tokens[end] === "." ? 1 : 2)] ?? "")) end += tokens[end] === "." ? 2 : 3;
  return tokens[end] === "(" ? -1 : end;
}

/** End (exclusive) of a value starting at `start` in `tokens`: one literal (with a sign), or a balanced bracket group of literals; -1 when there is none. */
function valueEnd(tokens: readonly string[], start: number): number {
  const first = tokens[start];
  if (first === undefined) return -1;
  if (isLiteralText(first)) return start + 1;
  if (first === "-" && tokens[start + 1] !== undefined && isLiteralText(tokens[start + 1] as string)) return start + 2;
  if (first !== "[" && first !== "{" && first !== "(") return -1;
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === "[" || token === "{" || token === "(") depth++;
    else if (token === "]" || token === "}" || token === ")") {
      depth--;
      if (depth === 0) return i + 1;
    } else if (!isLiteralText(token) && token !== "," && token !== ":" && token !== "-" && !/^[A-Za-z_$][\w$]*$/.test(token)) return -1;
  }
  return -1;
}

/**
 * Index of the `)` that closes a run of trailing arguments starting at the
 * `,` at `index` when each of them is a bindable name (`, fill)` in
 * `pad(text, width, fill)`), or -1. A call that passes fewer arguments
 * (`pad("7", 3)`) leaves those parameters at their defaults, which a table
 * merging such calls writes out in its rows: the rest of the call and the
 * expected value still bind to one row (isInRow), so a row that changed an
 * input or an expected value is still no cover, and a call that passed an
 * argument the table's call no longer takes never matches.
 */
function defaultedArgumentsEnd(tokens: readonly string[], index: number): number {
  let at = index;
  while (tokens[at] === ",") {
    if (!isBindableStart(tokens, at + 1)) return -1;
    const end = nameEnd(tokens, at + 1);
    if (end === -1) return -1;
    at = end;
  }
  return tokens[at] === ")" && at > index ? at : -1;
}

/**
 * Matches `pattern` (an after check's text) against `text` (a before
 * check's), letting the pattern's bindable names stand for literal values
 * when `canBind`; returns the bindings (empty for an exact match), or null.
 * A name bound twice must stand for the same value. Trailing arguments of a
 * pattern's call that the text's call leaves out match nothing
 * ({@link defaultedArgumentsEnd}: the parameters' defaults).
 */
export function unify(pattern: string, text: string, canBind: boolean, bindings: Map<string, string> = new Map()): Map<string, string> | null {
  if (pattern === text) return bindings;
  if (!canBind) return null;
  const p = tokenize(pattern);
  const t = tokenize(text);
  if (p.length > 120 || t.length > 200) return null;
  const step = (i: number, j: number, bound: Map<string, string>): Map<string, string> | null => {
    if (i === p.length) return j === t.length ? bound : null;
    if (j >= t.length) return null;
    const token = p[i] as string;
    // Trailing arguments the text's call leaves out: the parameters' defaults, written out in the table's rows.
    const defaulted = token === "," && t[j] === ")" ? defaultedArgumentsEnd(p, i) : -1;
    if (defaulted !== -1) return step(defaulted, j, bound);
    const end = isBindableStart(p, i) ? nameEnd(p, i) : -1;
    if (end !== -1) {
      const name = p.slice(i, end).join("");
      const existing = bound.get(name);
      if (existing !== undefined) {
        const value = tokenize(existing);
        if (value.every((part, k) => t[j + k] === part)) return step(end, j + value.length, bound);
      }
      // The name itself, unbound (both sides read the same variable).
      if (p.slice(i, end).every((part, k) => t[j + k] === part)) {
        const same = step(end, j + (end - i), bound);
        if (same) return same;
      }
      if (existing !== undefined) return null;
      const valueStop = valueEnd(t, j);
      if (valueStop === -1) return null;
      const next = new Map(bound);
      next.set(name, t.slice(j, valueStop).join(""));
      return step(end, valueStop, next);
    }
    return token === t[j] ? step(i + 1, j + 1, bound) : null;
  };
  return step(0, 0, bindings);
}

/**
 * True unless a name bound to a value is one of the row's named values
 * (TestCase.eachRowElements: `level: 9`, a Go field `in: "x"` for `tc.in`)
 * holding other literals: the value must come from the cell of that name,
 * not from anywhere in the row. Names the row does not name, and rows
 * without named values (`elements` undefined), are not judged here.
 */
export function isInNamedCells(bindings: Bindings, elements: readonly string[] | undefined): boolean {
  if (!elements) return true;
  for (const [name, value] of bindings) {
    const own = name.replace(/^\$/, "").split(".").pop() ?? name;
    const cell = elements.find((element) => element.startsWith(`${own}: `));
    if (cell === undefined) continue;
    const want = literalTokens(canonicalText(value)).sort();
    const have = literalTokens(canonicalText(cell.slice(own.length + 2))).sort();
    if (want.length !== have.length || want.some((literal, index) => literal !== have[index])) return false;
  }
  return true;
}

/** True when every literal of the bound values is in `row` (as a multiset). */
export function isInRow(bindings: Bindings, row: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const literal of row) left.set(literalKey(canonicalText(literal)), (left.get(literalKey(canonicalText(literal))) ?? 0) + 1);
  for (const value of bindings.values()) {
    for (const literal of literalTokens(value)) {
      const count = left.get(literal) ?? 0;
      if (count === 0) return false;
      left.set(literal, count - 1);
    }
  }
  return true;
}

/**
 * Which side's names may stand for the other side's literals: `none` (an
 * exact match), `after` (the after check belongs to a table test whose
 * names bind to the before check's literals: a merge into a table) or
 * `before` (the before check is a table test's, its names bind to the after
 * check's literals: a table unrolled into plain tests). The caller checks
 * that the bound literals come from one row.
 */
export type BindingSide = "none" | "after" | "before";

/**
 * Bindings under which `after` checks at least what `before` checks, or
 * null (see {@link BindingSide}; `true` = "after", `false` = "none").
 */
export function coverage(before: Check, after: Check, side: BindingSide | boolean): Map<string, string> | null {
  const asWritten = coverageAsWritten(before, after, side);
  if (asWritten || !before.columns || !after.columns) return asWritten;
  // Two table loops that name their row and its fields differently (`test.expect`, `testCase.expected`) read the same columns.
  return coverageAsWritten({ ...before, ...before.columns }, { ...after, ...after.columns }, side);
}

/** {@link coverage} of the checks as written (their row reads not taken as columns). */
function coverageAsWritten(before: Check, after: Check, side: BindingSide | boolean): Map<string, string> | null {
  const bindSide: BindingSide = side === true ? "after" : side === false ? "none" : side;
  if (after.isTautology || !after.isReachable) return null;
  // An approximate equality that admits more than the before one checks less (tolerance.ts): `InDelta(…, 1e-5)` -> `0.2`.
  if (isToleranceWidened(before, after)) return null;
  // It must run wherever the before check did: a check kept only in another branch (`if !isWindows`) covers nothing on Windows.
  // (A table's branches read its rows, `if tt.wantErr`: judged by the rows, not here.)
  if (bindSide !== "after" && !(after.conditions ?? []).every((condition) => (before.conditions ?? []).includes(condition))) return null;
  const match = (afterText: string, beforeText: string, bound: Map<string, string> = new Map()): Map<string, string> | null =>
    bindSide === "before" ? unify(beforeText, afterText, true, bound) : unify(afterText, beforeText, bindSide === "after", bound);
  const subjectBindings = (): Map<string, string> | null => match(after.subject, before.subject);
  // An expected value read from a local (`$expected = 5; assertEquals($expected, $x)`) is also the value it was bound to.
  const expectedBindings = (bound: Map<string, string>): Map<string, string> | null => {
    if (before.expected === undefined) return bound;
    if (after.expected === undefined) return null;
    const [was, now] = [before.expectedValue ?? before.expected, after.expectedValue ?? after.expected];
    return match(after.expected, before.expected, new Map(bound)) ?? (was !== before.expected || now !== after.expected ? match(now, was, bound) : null);
  };

  // An equality of the whole value to a literal that holds the part the before check read, and agrees (checks/implied.ts).
  if (bindSide === "none" && after.subject !== before.subject && impliedByWhole(before, after) === true) return new Map();
  // The same relation: as strong, with the same expected value (a changed value is an expectation change, judged elsewhere).
  if (after.relation === before.relation && after.isNegated === before.isNegated) {
    if (before.relation === "throws" || before.relation === "warns") return errorCoverage(before, after, match);
    if (after.strength < before.strength) return null;
    const bound = subjectBindings();
    const same = bound && expectedBindings(bound);
    if (same || before.relation !== "equal" || before.expected === undefined || after.expected === undefined) return same;
    // Equality is symmetric: `a.equals(b)` and `assertNotEquals(a, b)` (JUnit's unexpected-first order) are one check.
    const swapped = match(after.expected, before.subject);
    return swapped && match(after.subject, before.expected, swapped);
  }
  if (after.isNegated || before.isNegated) return null;
  // A loose equality to a value `==` to null already passed for null: PHPUnit's assertEquals('', $x) -> assertNull($x) narrows it.
  if (after.relation === "nullish" && before.relation === "equal" && before.isLoose === true && before.expected !== undefined && LOOSELY_NULL.has(before.expected)) return subjectBindings();
  // A stronger relation on the same subject.
  if ((after.relation === "equal" || after.relation === "snapshot") && IMPLIED_BY_EQUALITY.has(before.relation) && after.strength >= before.strength) {
    return subjectBindings();
  }

  if ((after.relation === "contains" || after.relation === "partial" || after.relation === "match") && after.expected !== undefined && IMPLIED_BY_PARTS.has(before.relation)) return subjectBindings();
  if ((after.relation === "contains" || after.relation === "match") && (before.relation === "contains" || before.relation === "match") && after.strength >= before.strength) {
    const bound = subjectBindings();
    return bound && expectedBindings(bound);
  }
  // An error or warning check that names what a hand-written capture inspected: pytest.warns(W, match=M) for isinstance(w, W) + M in str(w).
  if ((after.relation === "throws" || after.relation === "warns") && before.relation === "type" && after.errorType !== undefined && before.expected !== undefined) {
    return match(after.errorType, before.expected);
  }
  if ((after.relation === "throws" || after.relation === "warns") && (before.relation === "contains" || before.relation === "match") && after.message !== undefined && before.expected !== undefined) {
    return match(after.message, before.expected);
  }
  // The message a handler read from what it caught, now required by the error check: assertSame($m, $e->getMessage()) ~ expectExceptionMessage($m).
  if (
    (after.relation === "throws" || after.relation === "warns") &&
    before.relation === "equal" &&
    after.message !== undefined &&
    before.expected !== undefined &&
    ERROR_MESSAGE.test(before.subject)
  ) {
    return match(after.message, before.expected);
  }
  // A mock's calls recorded and compared: toHaveBeenCalledWith(a) ~ deepEqual(fn.mock.calls[0].arguments, [a]); toHaveBeenCalled ~ a call count.
  if (before.relation === "called") {
    if (before.expected !== undefined && after.relation === "equal" && after.expected !== undefined) return match(after.expected, `[${before.expected}]`) ?? match(after.expected, before.expected);
    if (before.expected === undefined && (after.relation === "equal" || after.relation === "greater" || after.relation === "length") && /call/i.test(after.subject)) return new Map();
    if (before.expected === undefined && after.relation === "throws" && after.strength >= 2) return new Map();
  }
  return null;
}

/**
 * `throws`/`warns` coverage: the same subject (or none named, or only a
 * local's name on either side), and each part
 * the before check pinned pinned the same after. A negated check ("no
 * warning", "does not throw") is covered the other way round: each part the
 * after check pins narrows what it forbids, so the after check may pin only
 * what the before one pinned (no `DeprecationWarning` does not cover no
 * warning at all).
 */
function errorCoverage(before: Check, after: Check, match: (afterText: string, beforeText: string, bound?: Map<string, string>) => Map<string, string> | null): Map<string, string> | null {
  let bound: Map<string, string> | null = new Map();
  // A subject that is one bare name is a local holding the code (`act`, `task`) that could not be read back: it names no code to compare.
  const namesCode = (subject: string): boolean => subject !== "" && !/^\$?[A-Za-z_]\w*$/.test(subject);
  if (namesCode(before.subject) && namesCode(after.subject)) bound = match(after.subject, before.subject);
  if (!bound) return null;
  if (before.isNegated) {
    if (after.errorType !== undefined) bound = before.errorType === undefined ? null : match(after.errorType, before.errorType, bound);
    if (bound && after.message !== undefined) bound = before.message === undefined ? null : match(after.message, before.message, bound);
    return bound;
  }
  if (before.errorType !== undefined && before.strength >= 2) {
    if (after.errorType === undefined) return null;
    bound = match(after.errorType, before.errorType, bound);
    if (!bound) return null;
  }
  if (before.message !== undefined) {
    if (after.message === undefined) return null;
    // A message pattern the after one implies (`/[1]/` by `/2, \[1\]/`): every message the after check accepts, it accepts.
    const matched: Map<string, string> | null = match(after.message, before.message, bound);
    bound = matched ?? (impliesPattern(after.message, before.message) ? bound : null);
  }
  return bound;
}

/** Text that reads a size: `len(x)`, `count($x)`, `x.size()`, `x.len()`, `x.length`, `x.Count`, `[len(r) for r in x]`, `xs.map(r => r.length)`. */
const SIZE_TEXT = /(?:^|[^\w.$])(?:len|count|sizeof)\(|\.(?:size|len|count|length|Count)\(\)|\.(?:length|Length|Count|size)\b/;

/** Empty collection and string literals of the languages (canonical text): an equality with one states a size of 0. */
const EMPTY_LITERAL = /^(?:\[\]|\(\)|\{\}|""|vec!\[\]|Vec::new\(\)|array\(\)|set\(\)|list\(\)|dict\(\))$/;

/** True when canonical `text` is an empty collection or string literal (`[]`, `{}`, `""`, `vec![]`, `array()`, `set()`). */
export function isEmptyLiteral(text: string): boolean {
  return EMPTY_LITERAL.test(text);
}

/**
 * True when `after` compares only sizes where `before` compared a whole
 * value (issue 9, "length instead of contents"): `assert rows == expected`
 * -> `assert len(rows) == len(expected)`, `assertEquals(expected, xs)` ->
 * `assertEquals(expected.size(), xs.size())`, `assertEquals([...], $x)` ->
 * `assertCount(2, $x)`. The before check is a non-negated equality whose
 * sides read no size and whose expected value is no number (a count
 * compared before is a size already); the after check is a length check,
 * or an equality whose both sides read a size. A size never covers the
 * contents (see IMPLIED_BY_EQUALITY: equality implies a size, not back);
 * an equality with an empty literal ({@link isEmptyLiteral}: `attempts ==
 * []`) states only the size 0, so a size check in its place is no loss.
 * Nor is a size that leaves out the element the before check read
 * ({@link isElementSizedAway}): that is another expectation.
 */
export function isSizeInsteadOfContents(before: Check, after: Check): boolean {
  if (before.relation !== "equal" || before.isNegated || before.expected === undefined || after.isNegated) return false;
  if (isEmptyLiteral(before.expected)) return false;
  if (isElementSizedAway(before, after)) return false;
  if (SIZE_TEXT.test(before.subject) || SIZE_TEXT.test(before.expected) || /^-?\d[\d_.]*$/.test(before.expected) || /^-?\d[\d_.]*$/.test(before.subject)) return false;
  if (after.relation === "length") return true;
  return after.relation === "equal" && after.expected !== undefined && SIZE_TEXT.test(after.subject) && SIZE_TEXT.test(after.expected);
}

/** An element of a collection read at a literal index: `.get(1)`, `[1]`, `.eq(1)`, `.item(1)`, `.nth(1)`, `.at(1)`, `.ElementAt(1)`, `->item(1)`. */
const INDEXED_ELEMENT = /^(?:\.|->)(?:get|eq|item|nth|at|ElementAt|elementAt)\((\d+)\)|^\[(\d+)\]/;

/**
 * True when `after` states a size of a collection that leaves out the
 * element `before` read from it at a literal index (sweep of jhy/jsoup
 * ccd90e9cfc): `assertEquals("two", doc.select("p").get(1).text())` ->
 * `assertEquals(1, doc.select("p").size())`, `assert items[2].name == "c"`
 * -> `assert len(items) == 2`. The element is asserted gone, so the old
 * check would now fail: an expectation changed, not the contents given up
 * for their size. A size that still holds the element is the weaker check.
 */
export function isElementSizedAway(before: Check, after: Check): boolean {
  if (after.relation !== "length" || after.isNegated || after.expected === undefined || !/^\d+$/.test(after.expected) || after.subject === "") return false;
  if (!before.subject.startsWith(after.subject)) return false;
  const index = INDEXED_ELEMENT.exec(before.subject.slice(after.subject.length));
  if (!index) return false;
  return Number(index[1] ?? index[2]) >= Number(after.expected);
}
