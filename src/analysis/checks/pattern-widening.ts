/**
 * A match pattern made more permissive (issue 9, class regex-widened):
 * `/\A\d{8}T\d{6}Z-[0-9a-f]{12}\z/` -> `/\d{8}T\d{6}/`, `'/^[0-9A-F]{7}$/'`
 * -> `'/^\w+$/'`. The after pattern is judged wider only when that is
 * certain: both patterns parse as a plain sequence of atoms (a literal, an
 * escape, a character class, `.`, or a group kept as written, each with a
 * quantifier), no top-level alternation, the same flags; and the after atoms
 * match a contiguous run of the before atoms one by one, each admitting at
 * least the strings the before one admits (a wider character set, a wider
 * repeat count, the same group), with an anchor kept only where the before
 * pattern had it. A concatenation of wider parts is wider, an anchor dropped
 * or atoms dropped from an unanchored end admit more; anything the parser
 * does not know (lookarounds, backreferences, possessive repeats, Unicode
 * classes) is unknown, and unknown is no finding. Character sets are compared
 * over ASCII, with one more member standing for every other character.
 */

/** Characters 0-127, and 128 for "any other character". */
const UNIVERSE = 129;

/** One atom of a pattern: the characters it admits (null for a group, compared by its text) and how often it repeats. */
interface Atom {
  chars: ReadonlySet<number> | null;
  text: string;
  min: number;
  max: number;
}

/** A pattern read as atoms between optional start and end anchors. */
interface Sequence {
  start: boolean;
  end: boolean;
  atoms: Atom[];
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const DIGITS = new Set(range(48, 57));
const WORD = new Set([...range(48, 57), ...range(65, 90), ...range(97, 122), 95]);
const SPACE = new Set([9, 10, 11, 12, 13, 32]);
const ALL = new Set(range(0, UNIVERSE - 1));
const complement = (set: ReadonlySet<number>): Set<number> => new Set([...ALL].filter((char) => !set.has(char)));

/** The set an escape `\x` stands for (a class, or the literal character), or null when unknown (`\p{…}`, a backreference, `\b`). */
function escapeSet(char: string): Set<number> | null {
  switch (char) {
    case "d":
      return new Set(DIGITS);
    case "D":
      return complement(DIGITS);
    case "w":
      return new Set(WORD);
    case "W":
      return complement(WORD);
    case "s":
      return new Set(SPACE);
    case "S":
      return complement(SPACE);
    case "h":
      return new Set([...DIGITS, ...range(65, 70), ...range(97, 102)]); // Ruby's hex digit
    case "t":
      return new Set([9]);
    case "n":
      return new Set([10]);
    case "r":
      return new Set([13]);
    default:
      return /[A-Za-z0-9]/.test(char) ? null : new Set([char.charCodeAt(0) < 128 ? char.charCodeAt(0) : 128]);
  }
}

/** A character class `[…]` starting at `index`: its set and where it ends, or null when unknown. */
function bracketClass(body: string, index: number): { set: Set<number>; end: number } | null {
  let i = index + 1;
  const negated = body[i] === "^";
  if (negated) i++;
  const set = new Set<number>();
  let first = true;
  while (i < body.length && (body[i] !== "]" || first)) {
    first = false;
    let from: Set<number> | null;
    let code = -1;
    if (body[i] === "\\") {
      from = escapeSet(body[i + 1] ?? "");
      if (!from) return null;
      if (from.size === 1) code = [...from][0] as number;
      i += 2;
    } else if (body[i] === "[")
      return null; // POSIX classes, nested sets
    else {
      code = body.charCodeAt(i) < 128 ? body.charCodeAt(i) : 128;
      from = new Set([code]);
      i++;
    }
    if (body[i] === "-" && body[i + 1] !== "]" && body[i + 1] !== undefined && code !== -1 && code < 128 && body[i + 1] !== "\\") {
      const to = body.charCodeAt(i + 1);
      if (to < code || to >= 128) return null;
      for (const char of range(code, to)) set.add(char);
      i += 2;
      continue;
    }
    for (const char of from) set.add(char);
  }
  if (body[i] !== "]") return null;
  return { set: negated ? complement(set) : set, end: i + 1 };
}

/** A quantifier at `index`: its bounds and where it ends (none: once), or null when unknown (a possessive repeat). */
function quantifier(body: string, index: number): { min: number; max: number; end: number } | null {
  let bounds: [number, number] = [1, 1];
  let end = index;
  const char = body[index];
  if (char === "*") [bounds, end] = [[0, Infinity], index + 1];
  else if (char === "+") [bounds, end] = [[1, Infinity], index + 1];
  else if (char === "?") [bounds, end] = [[0, 1], index + 1];
  else if (char === "{") {
    const match = /^\{(\d+)(?:(,)(\d*))?\}/.exec(body.slice(index));
    if (match) {
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === "" ? Infinity : Number(match[3]);
      [bounds, end] = [[min, max], index + match[0].length];
    }
  }
  if (end > index && body[end] === "+") return null;
  if (end > index && body[end] === "?") end++; // lazy: the same strings match
  return { min: bounds[0], max: bounds[1], end };
}

/** The end of a group `(…)` starting at `index`, or -1; a lookaround or a named group with a backreference is unknown. */
function groupEnd(body: string, index: number): number {
  if (/^\(\?[=!<]/.test(body.slice(index)) && !/^\(\?<[A-Za-z]/.test(body.slice(index))) return -1;
  let depth = 0;
  for (let i = index; i < body.length; i++) {
    if (body[i] === "\\") {
      i++;
      continue;
    }
    if (body[i] === "(") depth++;
    else if (body[i] === ")") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** A pattern body as a {@link Sequence}, or null when it holds something this reader does not know. */
function sequenceOf(body: string): Sequence | null {
  const sequence: Sequence = { start: false, end: false, atoms: [] };
  let i = 0;
  if (body.startsWith("^")) [sequence.start, i] = [true, 1];
  else if (body.startsWith("\\A")) [sequence.start, i] = [true, 2];
  let stop = body.length;
  if (/(?<!\\)\$$/.test(body)) [sequence.end, stop] = [true, body.length - 1];
  else if (/\\[zZ]$/.test(body) && !/\\\\[zZ]$/.test(body)) [sequence.end, stop] = [true, body.length - 2];
  while (i < stop) {
    const char = body[i] as string;
    let chars: Set<number> | null;
    let next: number;
    if (char === "|" || char === "^" || char === "$" || char === ")") return null;
    if (char === "\\") {
      chars = escapeSet(body[i + 1] ?? "");
      if (!chars) return null;
      next = i + 2;
    } else if (char === "[") {
      const parsed = bracketClass(body, i);
      if (!parsed) return null;
      [chars, next] = [parsed.set, parsed.end];
    } else if (char === "(") {
      next = groupEnd(body, i);
      if (next === -1 || next > stop) return null;
      chars = null;
    } else if (char === ".") [chars, next] = [complement(new Set([10])), i + 1];
    else if (char === "*" || char === "+" || char === "?" || char === "{") return null;
    else [chars, next] = [new Set([char.charCodeAt(0) < 128 ? char.charCodeAt(0) : 128]), i + 1];
    const repeat = quantifier(body, next);
    if (!repeat || repeat.end > stop) return null;
    sequence.atoms.push({ chars, text: body.slice(i, next), min: repeat.min, max: repeat.max });
    i = repeat.end;
  }
  return sequence;
}

/** A regex literal in canonical text: `/…/flags`, or a PHP string holding one (`"/…/i"`, `"#…#"`): its body and flags; null for other text. */
export function patternOf(text: string | undefined): { body: string; flags: string } | null {
  if (text === undefined) return null;
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (literal) return { body: literal[1] as string, flags: literal[2] as string };
  const quoted = /^"([/#~])(.*)\1([a-zA-Z]*)"$/s.exec(text);
  return quoted ? { body: (quoted[2] as string).replace(/\\\\/g, "\\"), flags: quoted[3] as string } : null;
}

/** -1: `after` admits fewer or other strings; 0: the same; 1: strictly more (see the module doc). */
function atomOrder(before: Atom, after: Atom): -1 | 0 | 1 {
  if (after.min > before.min || after.max < before.max) return -1;
  const repeatWider = after.min < before.min || after.max > before.max;
  if (before.chars === null || after.chars === null) return before.text === after.text && before.chars === after.chars ? (repeatWider ? 1 : 0) : -1;
  for (const char of before.chars) if (!after.chars.has(char)) return -1;
  return after.chars.size > before.chars.size || repeatWider ? 1 : 0;
}

/**
 * True when the pattern `after` certainly matches every string `before`
 * matches and more (see the module doc): both read by {@link patternOf}.
 */
export function isPatternWidened(beforeText: string, afterText: string): boolean {
  const [was, now] = [patternOf(beforeText), patternOf(afterText)];
  if (!was || !now || was.flags !== now.flags || was.body === now.body) return false;
  const [before, after] = [sequenceOf(was.body), sequenceOf(now.body)];
  if (!before || !after || after.atoms.length === 0 || after.atoms.length > before.atoms.length) return false;
  for (let offset = 0; offset + after.atoms.length <= before.atoms.length; offset++) {
    const startsAt = offset === 0;
    const endsAt = offset + after.atoms.length === before.atoms.length;
    // An anchor after only where the before pattern had it, at that end of the run.
    if ((after.start && !(before.start && startsAt)) || (after.end && !(before.end && endsAt))) continue;
    const orders = after.atoms.map((atom, i) => atomOrder(before.atoms[offset + i] as Atom, atom));
    if (orders.some((order) => order === -1)) continue;
    const dropped = after.atoms.length < before.atoms.length || (before.start && !after.start) || (before.end && !after.end);
    if (dropped || orders.some((order) => order === 1)) return true;
  }
  return false;
}
