/**
 * Exact checks relaxed without giving up what they pinned, read by
 * rules/assertions.ts, which reports such a weakening at medium.
 *
 * An exact expected string relaxed to an anchored pattern that still
 * accepts it (`t.is(message, "spawnSync node ETIMEDOUT")` ->
 * `t.regex(message, /^spawnSync .*node(?:\.[A-Za-z]+)? ETIMEDOUT$/)`, the
 * sweep of sindresorhus/execa e7717338a3): the check now also accepts
 * values the old one refused (a platform's spelling), so it is weaker, but
 * it still pins where the value starts or ends and most of its text. Read
 * by rules/assertions.ts, which reports such a weakening at medium. A
 * fragment anywhere (`/ETIMEDOUT/`), a pattern that accepts almost
 * anything (`/^.*$/`, `/^s/`) or one that refuses the old value is no
 * such relaxation.
 */

import { splitArguments } from "./normalise.js";

/** Least share of the old value's characters a relaxing pattern states literally. */
const MIN_LITERAL_SHARE = 0.5;

/** The text of a quoted string literal in any language's canonical spelling (`"a b"`, `'a b'`, r"a", b'a'); null for anything else. */
export function stringLiteralText(text: string): string | null {
  const match = /^[rRbBuUfF]{0,2}(["'`])([\s\S]*)\1$/.exec(text.trim());
  if (!match) return null;
  const quote = match[1] as string;
  const body = match[2] as string;
  if (body.includes(quote) && !body.includes(`\\${quote}`)) return null;
  return body
    .replace(/\\(["'`\\])/g, "$1")
    .replace(/\\n/g, "\n")
    .replace(/\\t/g, "\t");
}

/**
 * A pattern as written, its delimiters and flags taken off: `/re/i` (JS,
 * Ruby), a string holding `/re/` or `#re#` (PHP), a plain or raw string
 * (Python, Go, Java, C#); null when `text` is neither.
 */
function patternSource(text: string): { source: string; flags: string } | null {
  const trimmed = text.trim();
  const literal = /^\/([\s\S]*)\/([a-z]*)$/.exec(trimmed);
  if (literal) return { source: literal[1] as string, flags: literal[2] as string };
  const string = stringLiteralText(trimmed);
  if (string === null) return null;
  const delimited = /^([/#~!@%])([\s\S]*)\1([a-zA-Z]*)$/.exec(string);
  return delimited ? { source: delimited[2] as string, flags: delimited[3] as string } : { source: string, flags: "" };
}

/**
 * The literal runs of a pattern, in order (`^spawnSync .*node(?:\.x)?
 * ETIMEDOUT$` -> "spawnSync ", "node", " ETIMEDOUT"): text outside
 * classes, groups' syntax, escapes of classes (`\d`, `\s`) and what a
 * quantifier makes optional or repeated.
 */
function literalRuns(source: string): string[] {
  const runs: string[] = [];
  let current = "";
  let depth = 0;
  const flush = (): void => {
    if (current !== "") runs.push(current);
    current = "";
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (char === "\\") {
      const next = source[i + 1] ?? "";
      i++;
      if (/[dDwWsSbBAzZGhHRXkpPQE0-9]/.test(next)) flush();
      else if (depth === 0) current += next === "n" ? "\n" : next === "t" ? "\t" : next;
      continue;
    }
    if (char === "[") {
      flush();
      while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
      continue;
    }
    if (char === "(") {
      flush();
      depth++;
      if (source[i + 1] === "?") while (i + 1 < source.length && !/[:=!>)]/.test(source[i + 1] as string)) i++;
      if (source[i + 1] === ":" || source[i + 1] === "=" || source[i + 1] === "!" || source[i + 1] === ">") i++;
      continue;
    }
    if (char === ")") {
      flush();
      depth = Math.max(0, depth - 1);
      // A group made optional or repeated states none of its text for sure; its runs were flushed as stated (depth > 0 keeps none).
      continue;
    }
    if ("*+?{".includes(char)) {
      // The quantified atom is not stated: drop the run's last character.
      current = current.slice(0, -1);
      flush();
      if (char === "{") while (i < source.length && source[i] !== "}") i++;
      continue;
    }
    if ("^$.|".includes(char)) {
      flush();
      continue;
    }
    if (depth === 0) current += char;
  }
  flush();
  return runs;
}

/** A pattern source in JavaScript's dialect (`\A` `\z` `\Z` anchors, Python's `(?P<name>…)`), as a RegExp; null when it does not compile. */
function compiled(source: string, flags: string): RegExp | null {
  const js = source
    .replace(/\\A/g, "^")
    .replace(/\\[zZ]/g, "$")
    .replace(/\(\?P</g, "(?<")
    .replace(/\(\?P=(\w+)\)/g, "\\k<$1>");
  try {
    return new RegExp(js, [...new Set(flags.replace(/[^imsu]/g, ""))].join(""));
  } catch {
    return null;
  }
}

/**
 * True when `pattern` (an assertion's expected pattern, as canonical text)
 * relaxes the exact expected string `exact` (canonical text of a string
 * literal) without giving it up: the pattern is anchored at its start or
 * end (`^`, `\A`, `$`, `\z`), matches the old value, and states literally
 * at least half of its characters, in order. Whitespace is compared left
 * out on both sides (canonical text drops it inside JS regex literals).
 */
export function isAnchoredRelaxation(exact: string, pattern: string): boolean {
  const value = stringLiteralText(exact);
  const parsed = patternSource(pattern);
  if (value === null || parsed === null || value.length === 0) return false;
  const strip = (text: string): string => text.replace(/\s+/g, "");
  const source = strip(parsed.source);
  const isAnchored = /^(?:\^|\\A)/.test(source) || /(?:[^\\]\$|\\[zZ])$/.test(source);
  if (!isAnchored) return false;
  const regex = compiled(source, parsed.flags);
  const old = strip(value);
  if (!regex || !regex.test(old)) return false;
  let from = 0;
  let stated = 0;
  for (const run of literalRuns(source)) {
    const at = old.indexOf(run, from);
    if (at === -1) continue;
    stated += run.length;
    from = at + run.length;
  }
  return stated >= MIN_LITERAL_SHARE * old.length;
}

/**
 * The entries of an object or hash literal in canonical text (`{foo:true,
 * bar:[1, 2]}`, Ruby `{foo: true}` / `{"foo" => true}` / `{:foo=>true}`,
 * a shorthand `{importMeta}`), key -> value text, keys unquoted; null when
 * `text` is no literal of plain entries (a spread, a computed key).
 */
function objectEntries(text: string): Map<string, string> | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) return null;
  const entries = new Map<string, string>();
  const body = trimmed.slice(1, -1).trim();
  if (body === "") return entries;
  for (const part of splitArguments(body)) {
    const entry = part.trim();
    if (entry === "" || entry.startsWith("...") || entry.startsWith("**")) return null;
    const arrow = /^(:?["']?[\w$-]+["']?)\s*=>\s*([\s\S]+)$/.exec(entry);
    const colon = /^(["']?[\w$-]+["']?)\s*:\s*([\s\S]+)$/.exec(entry);
    const match = arrow ?? colon;
    if (match) entries.set((match[1] as string).replace(/^:|["']/g, ""), (match[2] as string).trim());
    else if (/^[\w$]+$/.test(entry)) entries.set(entry, entry);
    else return null;
  }
  return entries;
}

/**
 * True when `partial` (the expected value of a check that the subject has
 * at least these fields: ava's `t.like`, Jest's `toMatchObject`, RSpec's
 * `include`) states every entry of `exact` (the expected value of an
 * equality check) with the same value: the check now also accepts extra
 * fields (`t.deepEqual(flags, {foo: true, bar: true})` -> `t.like(flags,
 * {foo: true, bar: true})`, the sweep of sindresorhus/meow 7b9e7395cc), and
 * still pins every field the old one did. One entry dropped or changed is
 * no such relaxation.
 */
export function isPartialKeepingEveryField(exact: string, partial: string): boolean {
  const was = objectEntries(exact);
  const now = objectEntries(partial);
  if (!was || !now || was.size === 0) return false;
  return [...was].every(([key, value]) => now.get(key) === value);
}

/** The elements of an array literal in canonical text (`["a","b"]`), or null. */
function arrayElements(text: string): string[] | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[") || !trimmed.endsWith("]")) return null;
  const body = trimmed.slice(1, -1).trim();
  return body === "" ? [] : splitArguments(body).map((part) => part.trim());
}

/**
 * The value a partial check's expected literal states at `path` (a member
 * path in canonical text: `.flags.meow`, `["--"]`, `.at(0)`, `[0]`), or
 * null when the literal does not state it (`{flags: {meow: "dog"}}` at
 * `.flags.meow` -> `"dog"`).
 */
export function statedAt(expected: string, path: string): string | null {
  let value = expected.trim();
  let rest = path;
  while (rest !== "") {
    const member = /^(?:\??\.([\w$]+)(?![\w$(])|\[("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\])/.exec(rest);
    const index = /^(?:\.at\((\d+)\)|\[(\d+)\])/.exec(rest);
    if (member) {
      const key = member[1] ?? (member[2] as string).slice(1, -1);
      const entries = objectEntries(value);
      const next = entries?.get(key);
      if (next === undefined) return null;
      value = next;
      rest = rest.slice(member[0].length);
    } else if (index) {
      const elements = arrayElements(value);
      const next = elements?.[Number(index[1] ?? index[2])];
      if (next === undefined) return null;
      value = next;
      rest = rest.slice(index[0].length);
    } else return null;
  }
  return value;
}

/**
 * True when every text `stronger` matches (an error message pattern or
 * exact string, as canonical text) is matched by `weaker` too, read from
 * their literal text (sweep of dry-rb/dry-types 4d7db5b4: `raise_error(E,
 * /[1]/)` and `raise_error(E, /[2]/)` on the same call merged into one
 * `raise_error(E, /2, \[1\]/)`): `weaker` is a plain literal, or one
 * character class of plain characters, and a literal run of `stronger`
 * (with no alternation, no flag `stronger` lacks) holds that literal or one
 * of those characters. Anything else is not known to be implied: false.
 */
export function impliesPattern(stronger: string, weaker: string): boolean {
  // Only a regex literal is a search for its text in every framework; a string message is compared whole by some (RSpec's).
  if (!/^\/[\s\S]*\/[a-z]*$/.test(weaker.trim())) return false;
  const weak = patternSource(weaker);
  const isRegex = /^\/[\s\S]*\/[a-z]*$/.test(stronger.trim());
  const strong = isRegex ? patternSource(stronger) : { source: stringLiteralText(stronger.trim()) ?? "", flags: "" };
  if (!strong || !weak || strong.source === "" || (isRegex && /\|/.test(strong.source.replace(/\\./g, ""))) || [...strong.flags].some((flag) => flag !== "i" && !weak.flags.includes(flag)))
    return false;
  const fold = (text: string): string => (weak.flags.includes("i") ? text.toLowerCase() : text);
  const runs = (isRegex ? literalRuns(strong.source) : [strong.source]).map(fold);
  if (strong.flags.includes("i") && !weak.flags.includes("i")) return false;
  const klass = /^\[([^\]\\^-]+)\]$/.exec(weak.source);
  if (klass) return [...(klass[1] as string)].some((char) => runs.some((run) => run.includes(fold(char))));
  const plain = literalRuns(weak.source);
  return plain.length === 1 && plain[0] === weak.source.replace(/\\(.)/g, "$1") && runs.some((run) => run.includes(fold(plain[0] as string)));
}
