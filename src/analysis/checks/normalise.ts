/**
 * An AssertionFact (facts.ts, one framework's spelling) -> a {@link Check}
 * (subject, relation, expected), the same for every framework: `toMatch("s")`
 * and `assert.ok(s.includes("s"))` are both `contains(s, "s")`;
 * `toBeGreaterThan(0)` and `assert.ok(n > 0)` are `greater(n, 0)`;
 * `assert "x" in y` and `assertIn("x", y)` are `contains(y, "x")`;
 * `expect(() => f()).toThrow(E)` is `throws(f(), E)`. Text is compared in
 * {@link canonicalText} form, so a formatter's spaces, quotes and trailing
 * commas never change a check.
 */

import type { AssertionFact } from "../facts.js";
import { checkStrength, isFalsyMatcher, negatedMatcher, relationOfMatcher, relationOfOperator, type Relation } from "./relations.js";
import { toleranceOf, type Tolerance } from "./tolerance.js";

/** One normalised assertion: what it checks, of what, against what. */
export interface Check {
  /** The value or call under test with its literal arguments, in {@link canonicalText} form ("" when the framework names none, as `pytest.raises` around a block). */
  subject: string;
  relation: Relation;
  /** The expected value in canonical form (for `throws`/`warns`: the error type and message joined, see errorType/message). */
  expected?: string;
  /** For `throws`/`warns`: the error type named (`ValueError`, `RangeError`), canonical. */
  errorType?: string;
  /** For `throws`/`warns`: the message or pattern required (`"bad input"`, `/^x/`, `{code:"E"}`), canonical. */
  message?: string;
  isNegated: boolean;
  /** 0-3 from the shared table (relations.ts RELATION_STRENGTH), 0 for a tautology. */
  strength: 0 | 1 | 2 | 3;
  isTautology: boolean;
  /** False when the assertion can never run (after an unconditional `return`). */
  isReachable: boolean;
  /** 1-based line of the assertion. */
  line: number;
  /**
   * For `helper`: the helper's name.
   */
  helper?: string;
  /** For `helper`: the call as written when `subject` has its plain local arguments written as what they were bound to (AssertionFact.actualValue), canonical. */
  written?: string;
  /** For `equal`: the framework compares with a loose `==` (PHPUnit's `assertEquals`), so values loose-equal to the expected pass too. */
  isLoose?: true;
  /** The local the assertion read when `subject` is the value that local was bound to (AssertionFact.actualValue): `levels` for `levels = n.apply([1, 5]); assert levels == [1, 4]`. */
  local?: string;
  /**
   * The subject and expected value with the reads of a table loop's row
   * written as columns (AssertionFact.rowColumns): `equal(F(row.$0),
   * row.$1)` for `equal(F(test.input), test.expect)`; absent when the
   * assertion reads no row field.
   */
  columns?: { subject: string; expected?: string };
  /** For an approximate equality (`pytest.approx`, `InDelta`, `toBeCloseTo`, `abs(a - b) < e`): the difference it admits (tolerance.ts). */
  tolerance?: Tolerance;
  /** When the subject is a local kept as written: what it was declared with, canonical (AssertionFact.localValue). */
  localValue?: string;
  /** The conditions of the branches it runs in (AssertionFact.conditions, canonical), split into their conjuncts, those true whatever runs and those on a table row's fields (AssertionFact.rowColumns: they select rows) left out; absent when it runs wherever its test does. */
  conditions?: string[];
  /** What a local expected value was bound to (AssertionFact.expectedValue, canonical), when the extractor read it. */
  expectedValue?: string;
  /** For a negated `throws`: the check is of a promise or task ({@link ASYNC_ERROR_MATCHER}: `notThrowsAsync`, `doesNotReject`, `DoesNotThrowAsync`): only an awaited call keeps it (direct-calls.ts). */
  isAsync?: true;
}

/**
 * The character a Unicode or hex escape at `text[start]` (a backslash)
 * spells, and where the escape ends: `\u00E9`, `\u{1F600}`, `\xE9` (the
 * escapes of JS, Python, Ruby, Java, C#, Go, Rust and PHP double-quoted
 * strings). Null for any other escape, and for a quote, a backslash or a
 * control character, which stay escaped. `"caf\u00E9"` and `"café"` are
 * one string.
 */
export function unicodeEscapeAt(text: string, start: number): { char: string; end: number } | null {
  const match = /^\\(?:u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\}|x([0-9a-fA-F]{2}))/.exec(text.slice(start, start + 10));
  if (!match) return null;
  const code = Number.parseInt((match[1] ?? match[2] ?? match[3]) as string, 16);
  if (code < 0x20 || code === 0x22 || code === 0x27 || code === 0x5c || code === 0x60 || (code >= 0x7f && code < 0xa0) || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
  return { char: String.fromCodePoint(code), end: start + match[0].length };
}

/** `body` (a string literal's text between its quotes) with its Unicode and hex escapes written as the characters they spell ({@link unicodeEscapeAt}). */
export function decodeUnicodeEscapes(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== "\\") {
      out += body[i];
      continue;
    }
    const decoded = unicodeEscapeAt(body, i);
    if (decoded) {
      out += decoded.char;
      i = decoded.end - 1;
    } else {
      out += body.slice(i, i + 2);
      i++;
    }
  }
  return out;
}

/**
 * Text with layout dropped: whitespace outside string literals removed,
 * single-quoted strings (and Ruby's `%|…|`, `%q(…)`, `%Q{…}`) double-quoted,
 * interpolations of literals folded into their string (`"#{:a}"`, `` `${1}` ``,
 * `f"{'x'}"`, see {@link foldedInterpolation}), trailing commas before a
 * closing bracket dropped, `await`, a borrow at an argument (`f(&x)`, Rust's
 * needless borrow) and redundant outer parentheses removed. Two spellings a formatter would produce from each other, or that make the
 * same string, are equal.
 */
export function canonicalText(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    const raw = char === "r" || char === "R" || char === "@" ? rawString(text, i) : null;
    if (raw) {
      out += raw.canonical;
      i = raw.end;
      continue;
    }
    const percent = char === "%" ? percentString(text, i, out) : null;
    if (char === '"' || char === "'" || char === "`" || percent !== null) {
      const opener = percent === null ? char : "%";
      const close = percent?.close ?? char;
      const open = percent?.open ?? "";
      const interpolation = interpolationOf(opener, percent, out);
      let j = percent?.bodyStart ?? i + 1;
      let body = "";
      let depth = 0;
      while (j < text.length && !(text[j] === close && depth === 0)) {
        if (text[j] === "\\" && j + 1 < text.length) {
          const decoded = opener === '"' || opener === "`" ? unicodeEscapeAt(text, j) : null;
          if (decoded) {
            body += decoded.char;
            j = decoded.end;
            continue;
          }
          body += opener === "%" && text[j + 1] === close ? close : text.slice(j, j + 2);
          j += 2;
          continue;
        }
        const folded = interpolation === null ? null : foldedInterpolation(text, j, interpolation);
        if (folded) {
          body += opener === '"' ? escapedQuotes(folded.text) : folded.text;
          j = folded.end;
          continue;
        }
        if (open !== "" && text[j] === open) depth++;
        else if (open !== "" && text[j] === close) depth--;
        body += text[j];
        j++;
      }
      out += `"${opener === '"' ? body : escapedQuotes(body.replace(/\\'/g, "'"))}"`;
      i = j + 1;
      continue;
    }
    if (/\s/.test(char)) {
      // Keep one space between two word characters (`not in`, `is not`, `new Foo`), drop the rest.
      const next = text.slice(i).match(/^\s+/)?.[0].length ?? 1;
      const after = text[i + next];
      if (/[\w$]$/.test(out) && after !== undefined && /[\w$]/.test(after)) out += " ";
      i += next;
      continue;
    }
    out += char;
    i++;
  }
  // A borrow at an argument (`check(&state)`, `f(a, &mut b)`) passes the same value the bare name does where both compile
  // (Rust's auto-deref; clippy's needless_borrow drops it): the same call.
  out = out
    .replace(/,([)\]}])/g, "$1")
    .replace(/^await /, "")
    .replace(/([(,])&(?:mut )?(?=[A-Za-z_$])/g, "$1");
  while (out.startsWith("(") && out.endsWith(")") && closingIndex(out, 0) === out.length - 1) out = out.slice(1, -1);
  // Only a separator, a hex/octal/binary prefix or a BigInt call is respelled: the common text skips the scan.
  return /\d_|0[xXoObB]|BigInt\(/.test(out) ? canonicalNumbers(out) : out;
}

/**
 * A number literal outside a string, a regular expression literal, a Ruby
 * `%w[…]`/`%i[…]` word list or a name, or JS `BigInt(n)` of one; those
 * three matched first so their digits stay.
 */
const NUMBER_SPELLING =
  /"(?:[^"\\]|\\.)*"|(?<![\w$)\]])\/(?![/*])(?:[^/\\\n]|\\.)+\/[a-z]*|%[wWiI](?:\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|<[^>]*>)|(?<![\w$.])BigInt\((\d[\d_]*|0[xXoObB][0-9a-fA-F_]+)\)|(?<![\w$.])(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d[\d_]*(?:\.\d[\d_]*)?)/g;

/** A number's decimal value as written (`1_000` -> `1000`, `0x10` -> `16`), or the digits without separators when they are no integer JS's BigInt reads. */
export function decimalOf(digits: string): string {
  const plain = digits.replace(/_/g, "");
  if (!/^0[xXoObB]/.test(plain)) return plain;
  try {
    return BigInt(plain.toLowerCase()).toString();
  } catch {
    return plain;
  }
}

/**
 * Canonical text with each number spelled in decimal (canonicalText's last
 * step): digit separators dropped (`1_000` -> `1000`), hex, octal and
 * binary integers as their value (`0x10`, `0o20`, `0b10000` -> `16`), and
 * JS `BigInt(16)` as the literal `16n` it equals. A suffix after the digits
 * (`n`, `L`, `u32`, `f`) stays as written; digits inside a string, a name
 * or after a `.` (`x.0`) are left alone.
 */
function canonicalNumbers(text: string): string {
  return text.replace(NUMBER_SPELLING, (all: string, bigint: string | undefined, number: string | undefined) => {
    if (bigint !== undefined) return `${decimalOf(bigint)}n`;
    if (number !== undefined && (number.includes("_") || /^0[xXoObB]/.test(number))) return decimalOf(number);
    return all;
  });
}

/**
 * A raw or verbatim string at `text[start]` (its prefix) as the escaped
 * double-quoted string of the same characters, and where it ends: Python
 * and Rust `r"…"`/`r'…'` (backslashes kept as written; in Python a
 * backslash still keeps the quote after it from ending the string), C#
 * `@"…"` (a quote written `""`). Null for anything else: a prefix letter
 * ending a name (`bar"x"`), a triple-quoted string, Rust's `r#"…"#`.
 */
function rawString(text: string, start: number): { canonical: string; end: number } | null {
  const prefix = text[start] as string;
  const quote = text[start + 1];
  if (quote !== '"' && !(quote === "'" && prefix !== "@")) return null;
  if (/[\w$]/.test(text[start - 1] ?? "") || text[start + 2] === quote) return null;
  let body = "";
  let i = start + 2;
  for (; i < text.length; i++) {
    const char = text[i] as string;
    if (prefix === "@" && char === '"' && text[i + 1] === '"') {
      body += '"';
      i++;
      continue;
    }
    if (prefix !== "@" && char === "\\" && text[i + 1] === quote) {
      body += `\\${quote}`;
      i++;
      continue;
    }
    if (char === quote) break;
    body += char;
  }
  if (i >= text.length) return null;
  return { canonical: `"${body.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`, end: i + 1 };
}

/** A string body with each double quote not already escaped escaped, so it can stand between double quotes. */
function escapedQuotes(body: string): string {
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (char === "\\" && i + 1 < body.length) {
      out += body.slice(i, i + 2);
      i++;
    } else out += char === '"' ? '\\"' : char;
  }
  return out;
}

/** True when a canonical expected string is nothing but an interpolation of the value under test, as resolved (`subject`) or as written (`actual`). */
function isOwnRendering(expected: string, subject: string, actual: string | undefined): boolean {
  const inner = soleInterpolation(expected);
  return inner !== null && inner !== "" && (inner === subject || (actual !== undefined && inner === canonicalText(actual)));
}

/** The expression a canonical string interpolates when it is nothing else (`"#{x.inspect}"`, `` `${x}` ``), canonical; null otherwise. A value compared with its own rendering is compared with itself. */
function soleInterpolation(text: string): string | null {
  const inner = /^"[#$]\{(.*)\}"$/s.exec(text)?.[1];
  if (inner === undefined || closingIndex(`{${inner}}`, 0) !== inner.length + 1) return null;
  return canonicalText(inner);
}

/** Closing delimiter of each bracket that can open a Ruby percent string. */
const PERCENT_BRACKETS: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}", "<": ">" };

/**
 * Ruby's percent string at `index` (`%|…|`, `%(…)`, `%q{…}`, `%Q[…]`):
 * where its body starts, its delimiters, and whether it interpolates
 * (`%q` does not); null when the `%` is an operator (it follows a value in
 * `out`, the canonical text so far).
 */
function percentString(text: string, index: number, out: string): { bodyStart: number; open: string; close: string; interpolates: boolean } | null {
  if (out !== "" && !/[(,[{=:;!&|?]$/.test(out)) return null;
  const kind = /^[qQ]/.test(text[index + 1] ?? "") ? (text[index + 1] as string) : "";
  const delimiter = text[index + 1 + kind.length] ?? "";
  if (!/^[|!/^({[<]$/.test(delimiter)) return null;
  const close = PERCENT_BRACKETS[delimiter] ?? delimiter;
  return { bodyStart: index + 2 + kind.length, open: close === delimiter ? "" : delimiter, close, interpolates: kind !== "q" };
}

/** How a string interpolates, from its opener and prefix: Ruby `#{}` in `"…"` and `%…`, JS `${}` in backticks, Python `{}` after `f`, C# `{}` after `$`; null when it does not. */
function interpolationOf(opener: string, percent: { interpolates: boolean } | null, out: string): "#{" | "${" | "{" | null {
  if (opener === "`") return "${";
  if (opener === "%") return percent?.interpolates === true ? "#{" : null;
  if (/(?:^|[^\w$])(?:[fF][rR]?|[rR][fF])$|\$@?$|@\$$/.test(out)) return "{";
  return opener === '"' ? "#{" : null;
}

/**
 * The text an interpolation of a literal at `index` of `text` makes, and
 * where the interpolation ends: `#{:de}` -> `de`, `#{'x'}` -> `x`,
 * `${1}` -> `1`, `#{nil}` -> ``, and (Ruby, Python) an array or hash of
 * literals as written, `#{{:"a"=>[1]}}` -> `{:"a"=>[1]}` (their rendering
 * in the Ruby that wrote it). Null when no interpolation starts there or
 * it interpolates a name or a call: that string depends on a value.
 */
function foldedInterpolation(text: string, index: number, kind: "#{" | "${" | "{"): { text: string; end: number } | null {
  if (!text.startsWith(kind, index) || (kind === "{" && text[index + 1] === "{")) return null;
  const start = index + kind.length;
  let depth = 1;
  let j = start;
  while (j < text.length && depth > 0) {
    const char = text[j] as string;
    if (char === '"' || char === "'") {
      let k = j + 1;
      while (k < text.length && text[k] !== char) k += text[k] === "\\" ? 2 : 1;
      j = k + 1;
      continue;
    }
    if (char === "{") depth++;
    else if (char === "}") depth--;
    j++;
  }
  if (depth !== 0) return null;
  const expression = text.slice(start, j - 1).trim();
  const value = literalRendering(expression, kind);
  return value === null ? null : { text: value, end: j };
}

/** The text a literal renders to inside an interpolation of `kind` (see {@link foldedInterpolation}), or null when it is no literal. */
function literalRendering(expression: string, kind: "#{" | "${" | "{"): string | null {
  if (/^-?\d[\d_]*(?:\.\d+)?$/.test(expression)) return expression.replace(/_/g, "");
  const quoted = /^(["'])((?:[^\\]|\\.)*)\1$/s.exec(expression);
  if (quoted && !/#\{|\$\{/.test(quoted[2] as string)) return quoted[1] === '"' ? (quoted[2] as string).replace(/\\"/g, '"') : (quoted[2] as string).replace(/\\'/g, "'");
  if (kind === "#{" && /^:[A-Za-z_]\w*[?!]?$/.test(expression)) return expression.slice(1);
  if (/^(?:true|false)$/.test(expression)) return expression;
  if (kind === "#{" && expression === "nil") return "";
  if (kind !== "${" && /^[[{]/.test(expression) && isLiteralCollection(expression)) return expression;
  return null;
}

/** True when source text is an array or hash of literals only: strings, numbers, symbols, labels, `true`/`false`/`nil`/`None`, brackets, `,`, `:`, `=>`. */
function isLiteralCollection(expression: string): boolean {
  const bare = expression.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  if (!/^[\s[\]{}(),:=>\w.+\-"?!]*$/.test(bare)) return false;
  return [...bare.matchAll(/[A-Za-z_]\w*[?!]?/g)].every((match) => {
    const before = bare[(match.index ?? 0) - 1] ?? "";
    const after = bare[(match.index ?? 0) + match[0].length] ?? "";
    return (
      /^(?:true|false|nil|None|True|False)$/.test(match[0]) ||
      /\d/.test(before) ||
      (before === ":" && bare[(match.index ?? 0) - 2] !== ":") ||
      (after === ":" && bare[(match.index ?? 0) + match[0].length + 1] !== ":")
    );
  });
}

/** Index of the bracket closing the one at `open` in canonical text (strings skipped), or -1. */
function closingIndex(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '"') {
      i = skipString(text, i);
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** Index of the closing quote of the double-quoted string opening at `start`. */
function skipString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return i;
}

/**
 * Calls `visit` at each index of canonical text that is at its top level
 * (outside string literals and brackets), in order, until it returns true.
 * @returns true when `visit` stopped the scan.
 */
function scanTopLevel(text: string, visit: (index: number, char: string) => boolean | void): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '"') {
      i = skipString(text, i);
      continue;
    }
    // A regex literal (`/line 2, offset 1/` of JS and Ruby) is one atom: where a value starts, a `/` opens one, not a division.
    if (char === "/" && /^$|[(,[=:!&|?{};]$/.test(text.slice(0, i).trimEnd().slice(-1))) {
      const end = regexEnd(text, i);
      if (end !== -1) {
        i = end;
        continue;
      }
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    if (depth === 0 && visit(i, char) === true) return true;
  }
  return false;
}

/** The index of the `/` closing the regex literal opened at `start` (escapes and `[…]` classes read through), or -1 when it does not close on its line. */
function regexEnd(text: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < text.length; i++) {
    const char = text[i] as string;
    if (char === "\\") i++;
    else if (char === "\n") return -1;
    else if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    else if (char === "/" && !inClass) return i;
  }
  return -1;
}

/** Top-level binary comparisons, longest first, that a truthiness assertion may state (`assert.ok(n > 0)`). */
const COMPARISON_OPERATORS = ["===", "!==", "==", "!=", ">=", "<=", ">", "<", " not in ", " in ", " instanceof ", " is not ", " is "] as const;

/**
 * True when canonical text is a conditional expression at its top level,
 * whose value is one of its branches, not a boolean: `c ? x : y` (JS/TS,
 * Java, C#, PHP, Ruby; `?.` and `??` are not it), Python's `x if c else y`,
 * Rust's `if c { x } else { y }`.
 */
export function isConditionalExpression(text: string): boolean {
  if (/^if\b/.test(text) && /\belse\b/.test(text)) return true;
  let question = false;
  return scanTopLevel(text, (i, char) => {
    if (char === "?" && text[i + 1] !== "." && text[i + 1] !== "?" && text[i - 1] !== "?") question = true;
    else if (char === ":" && question && text[i + 1] !== ":" && text[i - 1] !== ":") return true;
    else if (text.startsWith("if", i) && /[\s"')\]}]/.test(text[i - 1] ?? "") && !/[\w$]/.test(text[i + 2] ?? "") && /\belse\b|"else\b/.test(text.slice(i + 2))) return true;
    return false;
  });
}

/**
 * When the `<` at `open` of canonical text opens the type arguments of a
 * call or path, the index of the `>` closing them, else -1: C#/TS/Java
 * `Invoke<bool>(`, Java's witness `Utils.<Boolean>invoke(`, Rust's turbofish
 * `parse::<u8>(` and `Vec::<u8>::new`. The `<` follows a name, `.` or `::`;
 * what it encloses is types only (names, `.`, `,`, `[]`, `?`, `&`, `*`, `|`,
 * nested `<…>`, tuples); the `>` is followed by the call's `(`, a `::`, or,
 * after a `.<`, the method name.
 */
function typeArgumentsEnd(text: string, open: number): number {
  const before = text[open - 1] ?? "";
  if (!/[\w$.:]/.test(before)) return -1;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i] as string;
    if (char === "<") depth++;
    else if (char === ">") {
      depth--;
      if (depth > 0) continue;
      const after = text.slice(i + 1);
      return after.startsWith("(") || after.startsWith("::") || (before === "." && /^[A-Za-z_$]/.test(after)) ? i : -1;
    } else if (!/[\w$.,[\]?:&*|() ]/.test(char)) return -1;
  }
  return -1;
}

/** Splits canonical text at its first top-level comparison operator: `n>0` -> [n, ">", 0]; null when it has none (or when it is a conditional expression, whose comparison is its condition). Type arguments (`Invoke<bool>(x)`, `parse::<u8>(s)`) are no comparison ({@link typeArgumentsEnd}). */
export function splitComparison(text: string): [string, string, string] | null {
  if (isConditionalExpression(text)) return null;
  let split: [string, string, string] | null = null;
  let typeArgumentsUntil = -1;
  scanTopLevel(text, (i) => {
    if (i <= typeArgumentsUntil) return false;
    if (text[i] === "<") {
      typeArgumentsUntil = typeArgumentsEnd(text, i);
      if (typeArgumentsUntil !== -1) return false;
    }
    for (const operator of COMPARISON_OPERATORS) {
      if (!text.startsWith(operator, i)) continue;
      const before = text[i - 1];
      const after = text[i + operator.length];
      // `=>`, `->`, `<=>`, `<<`, `>>` and generics are not comparisons.
      if (operator.length <= 2 && (before === "=" || before === "-" || before === "<" || before === ">" || before === "!" || after === "=" || after === ">" || after === "<")) continue;
      const left = text.slice(0, i).trim();
      const right = text.slice(i + operator.length).trim();
      if (left === "" || right === "") continue;
      split = [left, operator.trim(), right];
      return true;
    }
    return false;
  });
  return split;
}

/** `callee(args)` at the top level of canonical text: [callee, args] (args without the parentheses), or null. */
export function splitCall(text: string): [string, string] | null {
  if (!text.endsWith(")")) return null;
  let depth = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const char = text[i] as string;
    if (char === '"') {
      // walk back over a string
      let j = i - 1;
      while (j >= 0 && !(text[j] === '"' && text[j - 1] !== "\\")) j--;
      i = j;
      continue;
    }
    if (char === ")" || char === "]" || char === "}") depth++;
    else if (char === "(" || char === "[" || char === "{") {
      depth--;
      if (depth === 0) return i === 0 || char !== "(" ? null : [text.slice(0, i), text.slice(i + 1, -1)];
    }
  }
  return null;
}

/** Top-level comma-separated parts of canonical text. */
export function splitArguments(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  scanTopLevel(text, (i, char) => {
    if (char !== ",") return;
    parts.push(text.slice(start, i));
    start = i + 1;
  });
  if (start < text.length) parts.push(text.slice(start));
  return parts;
}

/** Top-level `;`-separated statements of canonical text (a block's body), empty ones dropped. */
export function splitStatements(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  scanTopLevel(text, (i, char) => {
    if (char !== ";") return;
    parts.push(text.slice(start, i));
    start = i + 1;
  });
  parts.push(text.slice(start));
  return parts.filter((part) => part !== "");
}

/**
 * The conjuncts of a boolean expression in canonical text, split at its
 * top-level `&&` (JS/TS, Java, C#, Go, Rust, PHP, Ruby) or `and` (Python,
 * Ruby, PHP): `n>=2&&n<30` -> [`n>=2`, `n<30`]; the text alone when it has
 * none. An assertion that all conjuncts hold makes one check per conjunct.
 */
export function conjuncts(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  const isDisjunction = scanTopLevel(text, (i) => {
    if (i < start) return false; // inside the operator just split at
    if (text.startsWith("||", i) || (text.startsWith("or", i) && isWordOperatorAt(text, i, 2))) return true; // a disjunction binds looser: one check
    let width = 0;
    if (text.startsWith("&&", i)) width = 2;
    else if (text.startsWith("and", i) && isWordOperatorAt(text, i, 3)) width = 3;
    if (width === 0) return false;
    parts.push(text.slice(start, i).trim());
    start = i + width;
    return false;
  });
  if (isDisjunction || parts.length === 0) return [text];
  parts.push(text.slice(start).trim());
  return parts.every((part) => part !== "") ? parts.map(canonicalText) : [text];
}

/** True when the word operator (`and`, `or`) of `width` characters at `index` stands alone: no word character touches it. */
function isWordOperatorAt(text: string, index: number, width: number): boolean {
  const before = text[index - 1];
  const after = text[index + width];
  return before !== undefined && !/[\w$.]/.test(before) && after !== undefined && !/[\w$]/.test(after);
}

/** A callable wrapper around the code under test dropped: `()=>f(1)` -> `f(1)`, `lambda:f(1)` -> `f(1)`, `function(){return f(1)}` -> `f(1)`, `{f(1)}` (a block) -> `f(1)`. */
function unwrapThunk(text: string): string {
  let inner = text
    .replace(/^(?:async)?\(\)(?:=>|->)|^(?:move)?\|\|/, "") // JS/C# `() =>`, Java `() ->`, Rust `|| …`
    .replace(/^lambda:/, "")
    .replace(/^(?:func\(\)|function\(\))\{(?:return )?(.*?);?\}$/s, "$1")
    .replace(/^(?:->|proc|lambda)?\{(?:\|\w*\|)?(.*)\}$/s, "$1");
  if (inner.startsWith("{") && inner.endsWith("}") && closingIndex(inner, 0) === inner.length - 1)
    inner = inner
      .slice(1, -1)
      .replace(/^return /, "")
      .replace(/;$/, "");
  return inner.replace(/^await /, "");
}

/** Matchers whose framework puts the container last and the member first (`assertIn(member, container)`, `assert x in y`). */
const MEMBER_FIRST =
  /^(?:assert (?:not )?in|(?:self\.)?assert(?:Not)?In|assertContains|assertStringContainsString|assertStringContainsStringIgnoringCase|assertArrayHasKey|assertMatchesRegularExpression|assert_includes?)$/;

/** The escapes of string literals in every supported language that stand for one character. */
const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "0": "\0", b: "\b", f: "\f", v: "\v", e: "\u001b", a: "\u0007" };

/**
 * A literal in one spelling whatever produced it: a string as the JSON of
 * its value, escapes decoded, so a check's source token (`"a \t b"`), a
 * tree-sitter row cell (the JSON of the source body, `"a \\t b"`) and a
 * babel row cell (the JSON of the cooked value) of the same string are
 * equal; other literals unchanged. Rows and literals of tests are compared
 * in this form (analysis/checks).
 */
export function literalKey(literal: string): string {
  if (!literal.startsWith('"') || !literal.endsWith('"') || literal.length < 2) return literal;
  let body: string;
  try {
    const parsed: unknown = JSON.parse(literal);
    body = typeof parsed === "string" ? parsed : literal.slice(1, -1);
  } catch {
    body = literal.slice(1, -1);
  }
  const value = body.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (_all, escape: string) => {
    if (escape.startsWith("u") || escape.startsWith("x")) {
      const code = Number.parseInt(escape.replace(/^[ux]\{?|\}$/g, ""), 16);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : escape;
    }
    return ESCAPES[escape] ?? escape;
  });
  return JSON.stringify(value);
}

/** Is the canonical text a plain literal (string, number, boolean, null)? */
export function isLiteralText(text: string): boolean {
  return /^(?:"(?:[^"\\]|\\.)*"|-?\d[\w.]*|true|false|True|False|null|nil|None|undefined)$/.test(text);
}

/** Error-check matchers of a promise or task: ava `notThrowsAsync`, node:assert `doesNotReject`, jest `.resolves`/`.rejects`, NUnit `DoesNotThrowAsync`. */
export const ASYNC_ERROR_MATCHER = /Async\b|[Rr]eject|\bresolves\b/;

/**
 * The check an assertion makes (see the module comment). `fact.message`,
 * when the extractor recorded one (`pytest.raises(E, match=...)`), is the
 * required message of a `throws`/`warns` check.
 */
export function toCheck(fact: AssertionFact): Check {
  const guarded = guardedFailure(fact);
  if (guarded) return toCheck(guarded);
  // xUnit's DoesNotContain(collection, predicate) asserts that no element matches: Empty(collection.Where(predicate)).
  const noMatch = noMatchFact(fact);
  if (noMatch) return toCheck(noMatch);
  // minitest's assert_silent (and the must_be_silent expectation) is assert_output("", "") (Minitest::Assertions#assert_silent).
  if (SILENT_MATCHER.test(fact.matcher)) return toCheck({ ...fact, matcher: "assert_output", actual: '""', expected: '""', strength: 2 });
  let relation = relationOfMatcher(fact.matcher);
  const actual = fact.actualValue ?? fact.actual;
  let subject = actual === undefined ? "" : directCalls(anyMatchForms(sentSymbols(canonicalText(actual))));
  let expected = fact.expected === undefined ? undefined : sentSymbols(canonicalText(fact.expected));
  let isNegated = fact.negated === true;
  // The negation a matcher's name states counts once, whatever the extractor flagged: `assertNotEquals` is equal negated,
  // `assertFalse`/`refute` are the falsy relation (not a negated one), and `assert!(!x)` keeps its `!` in the subject.
  const named = negatedMatcher(fact.matcher);
  if (named) {
    relation = named.relation;
    isNegated = true;
  } else if (isFalsyMatcher(fact.matcher) || isDefinedByNegation(fact.matcher)) isNegated = false;
  else if (relation === "truthy" && isNegated && /^(?:!(?!=)|not )/.test(subject)) isNegated = false;
  let errorType: string | undefined;
  let message = fact.message === undefined ? undefined : canonicalText(fact.message);
  if (MEMBER_FIRST.test(fact.matcher) && expected !== undefined) [subject, expected] = [expected, subject];
  if (fact.matcher.startsWith("helper ")) relation = "helper";
  // A truthiness assertion that states its relation in the expression: assert.ok(s.includes("x")), assert n > 0, assertTrue(a == b).
  const liftStated = (): void => {
    if ((relation === "truthy" || relation === "falsy" || relation === "other" || relation === "type") && expected === undefined && subject !== "") {
      const stated = statedRelation(subject);
      // assertFalse(a == b) states a != b; an emptiness predicate is lifted only where it asserts emptiness (`assertTrue(xs.Any())` stays truthy).
      const negation = (isNegated !== (relation === "falsy")) !== (stated?.isNegated === true);
      if (stated && !(stated.relation === "length" && negation)) {
        relation = stated.relation;
        subject = stated.subject;
        expected = stated.expected;
        isNegated = negation;
      }
    }
  };
  liftStated();
  if (relation === "match" && expected !== undefined && expected.startsWith('"')) relation = "contains";
  const rawExpected = expected;
  const rawSubject = subject;
  if (relation === "equal" && expected !== undefined) {
    expected = approximated(expected);
    subject = approximated(subject);
    const truth = booleanLiteral(expected) ?? (isLiteralText(expected) ? undefined : booleanLiteral(subject));
    if (truth !== undefined) {
      // assert_eq!(x, true) is assert!(x); assertEquals(false, x) is assertFalse(x).
      if (booleanLiteral(expected) === undefined) subject = expected;
      relation = truth ? "truthy" : "falsy";
      expected = undefined;
      if (isNegated) [relation, isNegated] = [relation === "truthy" ? "falsy" : "truthy", false];
      liftStated(); // expect(a.equals(b)).toBe(false) states a != b, as assertFalse(a.equals(b)) does
    }
  }
  [relation, subject, expected] = nullOrSizeCheck(relation, subject, expected, fact.matcher, isNegated);
  if (relation === "throws" || relation === "warns") {
    subject = unwrapThunk(subject);
    if (expected !== undefined) [errorType, message] = errorParts(expected, message);
    expected = [errorType ?? "", message ?? ""].join("|");
    if (expected === "|") expected = undefined;
  }
  // A value compared with itself is a tautology however it is spelled: assertTrue(x.equals(x)) as much as assertEquals(x, x).
  // (Only as written: a subject resolved to its assigned value, `x = F(1); assertEqual(x, F(1))`, compares two objects.)
  const isTautology =
    fact.tautology ||
    (fact.actualValue === undefined && relation === "equal" && !isNegated && expected !== undefined && expected === subject && !isLiteralText(subject) && subject !== "") ||
    (relation === "equal" && !isNegated && expected !== undefined && isOwnRendering(expected, subject, fact.actual));
  const parts: Parameters<typeof checkStrength>[1] = { hasExpected: expected !== undefined, isNegated, isTautology };
  if (errorType !== undefined) parts.errorType = errorType;
  if (message !== undefined) parts.message = message;
  const check: Check = {
    subject,
    relation,
    isNegated,
    strength:
      relation === "other"
        ? isTautology
          ? 0
          : fact.strength
        : relation === "equal" && expected !== undefined && isBooleanExpression(expected)
          ? checkStrength("truthy", parts)
          : checkStrength(relation, parts),
    isTautology,
    isReachable: fact.unreachable !== true,
    line: fact.line,
  };
  if (expected !== undefined) check.expected = expected;
  if (errorType !== undefined) check.errorType = errorType;
  if (message !== undefined) check.message = message;
  if (relation === "helper") check.helper = fact.matcher.slice("helper ".length);
  if (relation === "helper" && fact.actualValue !== undefined && fact.actual !== undefined) check.written = canonicalText(fact.actual);
  if (relation === "throws" && isNegated && ASYNC_ERROR_MATCHER.test(fact.matcher)) check.isAsync = true;
  if (relation === "equal" && LOOSE_EQUALITY.test(fact.matcher)) check.isLoose = true;
  if (fact.actualValue !== undefined && fact.actual !== undefined && /^\$?[A-Za-z_]\w*$/.test(fact.actual)) check.local = fact.actual;
  const columns = fact.rowColumns ? columnsOf(check, fact.rowColumns) : undefined;
  if (columns) check.columns = columns;
  const tolerance = isNegated ? undefined : toleranceOf(fact, relation, relation === "equal" && rawSubject !== subject ? rawSubject : subject, expected, rawExpected);
  if (tolerance !== undefined) check.tolerance = tolerance;
  if (fact.localValue !== undefined && fact.actual !== undefined && subject === canonicalText(fact.actual)) check.localValue = canonicalText(fact.localValue);
  // Conditions as their conjuncts, the ones true whatever runs (`!false` of a helper's `!enc` bound to false) left out.
  // A condition on a field of the table's row (`if tt.wantErr`) selects rows, not the environments the check runs in: the rows judge it.
  const rowColumns = fact.rowColumns;
  const conditions = (fact.conditions ?? [])
    .flatMap((condition) => conjuncts(canonicalText(condition)))
    .filter((condition) => !TRUE_CONDITION.test(condition) && (rowColumns === undefined || withColumns(condition, rowColumns) === condition));
  if (conditions.length > 0) check.conditions = conditions;
  if (fact.expectedValue !== undefined && !MEMBER_FIRST.test(fact.matcher)) check.expectedValue = canonicalText(fact.expectedValue);
  return check;
}

/** A count of matches compared with zero, or a search compared with its miss, in canonical text: what it says about `some`. */
const ANY_MATCH_SUFFIX: readonly [RegExp, boolean][] = [
  [/^\.length(?:>0|>=1|!==0|!=0)$/, true],
  [/^\.length(?:===0|==0|<1)$/, false],
];

/**
 * A test for whether any element matches written as JS's `some` (canonical
 * text in and out): `xs.filter(f).length > 0` (also `>= 1`, `!== 0`) is
 * `xs.some(f)`, `xs.filter(f).length === 0` is `!xs.some(f)`,
 * `xs.findIndex(f) !== -1` and `xs.find(f) !== undefined` are `xs.some(f)`
 * (the same test, as lint rules such as unicorn/prefer-array-some rewrite
 * it: sweep of chalk/wrap-ansi 0ff29cca85). Only a whole subject of that
 * shape is rewritten.
 */
function anyMatchForms(text: string): string {
  const match = /\.(filter|findIndex|find)\(/.exec(text);
  if (!match) return text;
  for (let at = text.indexOf(`.${match[1]}(`); at !== -1; at = text.indexOf(".", at + 1)) {
    const method = /^\.(filter|findIndex|find)\(/.exec(text.slice(at))?.[1];
    if (method === undefined) continue;
    const open = at + method.length + 1;
    const close = closingIndex(text, open);
    if (close === -1) return text;
    const head = `${text.slice(0, at)}.some(${text.slice(open + 1, close)})`;
    const rest = text.slice(close + 1);
    if (method === "filter") for (const [suffix, isAny] of ANY_MATCH_SUFFIX) if (suffix.test(rest)) return isAny ? head : `!${head}`;
    if (method === "findIndex" && /^(?:!==|!=)-1$|^>=0$|^>-1$/.test(rest)) return head;
    if (method === "findIndex" && /^(?:===|==)-1$|^<0$/.test(rest)) return `!${head}`;
    if (method === "find" && /^(?:!==|!=)undefined$/.test(rest)) return head;
    if (method === "find" && /^(?:===|==)undefined$/.test(rest)) return `!${head}`;
  }
  return text;
}

/**
 * Ruby's dynamic dispatch by a literal symbol written as the call it makes
 * (`io.send(:gets)` -> `io.gets`, `x.public_send(:read, 3)` -> `x.read(3)`,
 * Object#send / #public_send / #__send__), so a helper that dispatches on
 * a parameter (`io.send(method_name)` given `method_name: :gets`) checks
 * what the direct call checked. Canonical text in and out.
 */
function sentSymbols(text: string): string {
  if (!text.includes("send(:")) return text;
  return text.replace(/\.(?:public_send|__send__|send)\(:([A-Za-z_]\w*[?!]?)(?:,([^()]*))?\)/g, (_match, name: string, args: string | undefined) =>
    args === undefined ? `.${name}` : `.${name}(${args})`,
  );
}

/** A lambda in canonical or extracted text: `r=>r.Open`, `(a, b) => a < b`, `r => r . Open`. */
const LAMBDA = /^\(?\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*\)?\s*=>/;

/**
 * xUnit's `Assert.DoesNotContain(collection, predicate)` (the predicate
 * overload, https://api.xunit.net: "Verifies that a collection does not
 * contain a given item" matched by the filter) as the emptiness of the
 * matches it states, `Assert.Empty(collection.Where(predicate))`: the
 * check `Assert.False(collection.Where(predicate).Any())` already reads
 * as (sweep of autofac/Autofac f6c1e8bf5c, an analyzer's rewrite). Null
 * for any other fact.
 */
function noMatchFact(fact: AssertionFact): AssertionFact | null {
  if (!/(?:^|\.)DoesNotContain$/.test(fact.matcher) || fact.expected === undefined || fact.actual === undefined || !LAMBDA.test(fact.actual.trim())) return null;
  const rewritten: AssertionFact = { ...fact, matcher: "Assert.Empty", actual: `${fact.expected}.Where(${fact.actual})`, strength: 3 };
  delete rewritten.expected;
  delete rewritten.actualValue;
  return rewritten;
}

/** minitest's assertion that a block writes nothing to stdout or stderr: `assert_silent { … }`, `_ { … }.must_be_silent`. */
const SILENT_MATCHER = /(?:^|[.\s])(?:assert_silent|must_be_silent)$/;

/** The last segment of an explicit failure's matcher: `fail()`, `Assert.Fail()`, `self.fail()`, `pytest.fail()`, `flunk`, `assert.fail()`, `t.fail()`. */
const FAILURE_MATCHER = /(?:^|[.\s])(?:fail|Fail|flunk|unreachable)$/;

/**
 * An explicit failure under a condition, read as the check that the
 * condition does not hold: the fact of a failure (a fail matcher, or a
 * truthiness assertion of `false`) whose innermost condition (its guard,
 * AssertionFact.conditions) is readable, rewritten as a truthiness
 * assertion of the guard's negation (negatedCondition), strength 1, the
 * outer conditions kept; toCheck then lifts the relation the negation
 * states (`if (x !== 1) fail()` is `x === 1`, equal). Go states every
 * check this way (`if got != want { t.Errorf }`); so do hand-written
 * checks in the other languages (sindresorhus/got 4d7e628b1c: `if
 * (!ArrayBuffer.isView(body)) { t.fail(…) }` -> `t.true(ArrayBuffer.isView(body))`).
 * Null for any other fact, for an unguarded failure, and for one whose
 * guard is a handler's (`<the code before it throws or rejects>`: the
 * `try` forms of error-checks.ts) or a table row's field.
 */
function guardedFailure(fact: AssertionFact): AssertionFact | null {
  const conditions = fact.conditions ?? [];
  const guard = conditions.at(-1);
  if (guard === undefined || guard.startsWith("<")) return null;
  const isFailure = FAILURE_MATCHER.test(fact.matcher) || (relationOfMatcher(fact.matcher) === "truthy" && fact.negated !== true && /^(?:false|False|FALSE)$/.test((fact.actual ?? "").trim()));
  if (!isFailure) return null;
  const rewritten: AssertionFact = { line: fact.line, matcher: "assert", strength: 1, tautology: false, actual: negatedCondition(canonicalText(guard)) };
  if (conditions.length > 1) rewritten.conditions = conditions.slice(0, -1);
  if (fact.unreachable) rewritten.unreachable = true;
  if (fact.gated) rewritten.gated = true;
  if (fact.rowColumns) rewritten.rowColumns = fact.rowColumns;
  return rewritten;
}

/** `text` with each field read of `columns` (canonical, as AssertionFact.rowColumns) written as its column; members of other values are left alone. */
function withColumns(text: string, columns: Readonly<Record<string, string>>): string {
  return text.replace(/(?<![\w$.])[A-Za-z_]\w*\.[A-Za-z_]\w*(?![\w$(])/g, (read) => columns[read] ?? read);
}

/** The check's subject and expected value in column form ({@link Check.columns}), or undefined when neither reads a row field. */
function columnsOf(check: Check, columns: Readonly<Record<string, string>>): Check["columns"] {
  const subject = withColumns(check.subject, columns);
  const expected = check.expected === undefined ? undefined : withColumns(check.expected, columns);
  if (subject === check.subject && expected === check.expected) return undefined;
  return expected === undefined ? { subject } : { subject, expected };
}

/**
 * The negation of a branch condition in canonical text (AssertionFact.conditions):
 * one comparison flipped (`a==b` -> `a!=b`, `a!==b` -> `a===b`), a negation
 * dropped (`!x` -> `x`, `!(a&&b)` -> `a&&b`, Python's `not x` -> `x`), one operand negated (`x` ->
 * `!x`, `cfg!(windows)` -> `!cfg!(windows)`), else `!(text)`. So an `else`
 * arm and an `if !=` spelling of the same condition read the same.
 */
export function negatedCondition(text: string): string {
  if (/^!\((.*)\)$/s.test(text) && isBalanced(text.slice(2, -1))) return text.slice(2, -1);
  // Python's and Ruby's `not x` (a word, so no other operator binds looser in one condition's text but `and`/`or`).
  if (/^not\s/.test(text) && !/\s(?:and|or)\s/.test(text) && isBalanced(text.slice(4))) return text.slice(4).trim();
  if (SINGLE_OPERAND.test(text.slice(1)) && text.startsWith("!") && !text.startsWith("!=")) return text.slice(1);
  if (SINGLE_OPERAND.test(text)) return `!${text}`;
  const comparison = /^([^=!<>&|?:()]+(?:\([^()]*\))?[^=!<>&|?:()]*)(===|!==|==|!=)([^=!<>&|?:]+)$/.exec(text);
  if (comparison) {
    const flipped: Record<string, string> = { "===": "!==", "!==": "===", "==": "!=", "!=": "==" };
    return `${comparison[1]}${flipped[comparison[2] as string]}${comparison[3]}`;
  }
  return `!(${text})`;
}

/** One operand: a name, a member chain or a call of one with no nested call (`isWindows`, `cfg!(windows)`, `os.IsWindows()`). */
const SINGLE_OPERAND = /^[\w$.]+[!?]?(?:\([^()]*\))?$/;

/**
 * The index of the bracket that closes the one at `text[open]` in canonical
 * text (strings skipped), or -1 when it is never closed: `closingBracket("[1,[2]]")` is 6.
 */
export function closingBracket(text: string, open = 0): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    if (depth === 0) return i;
  }
  return -1;
}

/** True when the brackets of canonical text pair up (strings skipped). */
function isBalanced(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      continue;
    }
    if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** A branch condition true whatever runs: `true`, `!false`, `not False`. */
const TRUE_CONDITION = /^(?:true|True|!false|!False|!\(false\)|notFalse|not False)$/;

/** Equality matchers that compare with a loose `==` (PHPUnit's `assertEquals`, not `assertSame`): an expected `''` also accepts `null`, `false` and `0`. */
const LOOSE_EQUALITY = /^(?:(?:\$this->|self::|static::)?assertEquals)$/;

/** `null`, `nil`, `None`, `undefined` (any language's spelling of no value). */
function isNullLiteral(text: string): boolean {
  return /^(?:null|nil|None|undefined|NULL)$/.test(text);
}

/**
 * A size read in any language's spelling, as the collection it reads:
 * `xs.length`, `xs.Length`, `xs.Count`, `xs.Count()`, `xs.size`,
 * `xs.size()`, `v.len()`, `b.Len()`, `$xs->count()` -> `xs`; `len(xs)`
 * (Python, Go), `count($xs)`, `\count($xs)`, `sizeof($xs)`, `strlen($s)`
 * (PHP) -> the argument. Null when the text reads no size.
 */
export function sizedCollection(text: string): string | null {
  const member = /^(.+?)(?:\??\.|->)(?:length|Length|Count|count|size|Size|len|Len)(\(\))?$/s.exec(text);
  if (member) {
    const receiver = member[1] as string;
    const name = text.slice(receiver.length).replace(/^\??\.|^->|\(\)$/g, "");
    // Rust's and Go's `len`, PHP's `->count` are methods: only called; `.length`/`.Count`/`.size` are read as properties or called.
    if ((name === "len" || name === "Len") && member[2] === undefined) return null;
    return closingIndex(`(${receiver})`, 0) === receiver.length + 1 ? receiver : null;
  }
  const call = splitCall(text);
  if (!call || !/^(?:len|\\?count|\\?sizeof|\\?strlen|\\?mb_strlen)$/.test(call[0])) return null;
  const args = splitArguments(call[1]);
  if (args.length !== 1) return null;
  const arg = args[0] as string;
  // PHP's builtins read a PHP value (`$xs`, `$this->xs`) or are written `\count`: `count([1, 2])` in JS is the product's own function.
  return call[0] === "len" || call[0].startsWith("\\") || arg.startsWith("$") ? arg : null;
}

/** Matchers that pass only for an empty collection or string (xUnit `Assert.Empty`, PHPUnit `assertEmpty`, RSpec `be_empty`, AssertJ `isEmpty`, NUnit `Is.Empty`, ...): a size of 0. */
const EMPTINESS = /(?:^|[.(\s_])(?:empty|Empty|isEmpty|IsEmpty|assertEmpty|toBeEmpty|be_empty|assert_empty|BeEmpty)\)?$/;

/** Matchers that pass only for a collection of exactly one element, given no predicate (xUnit `Assert.Single`, FluentAssertions `ContainSingle`): a size of 1. */
const SINGLE = /(?:^|\.)(?:Single|ContainSingle)$/;

/**
 * A comparison with null as the null check (`toBe(null)` is `toBeNull()`,
 * `assertEquals(null, x)` is `assertNull(x)`, `eq(nil)` is `be_nil`), and
 * a size as the length check ({@link sizeCheck}); else the check's parts
 * as they are. Returns [relation, subject, expected].
 */
function nullOrSizeCheck(relation: Relation, subject: string, expected: string | undefined, matcher: string, isNegated: boolean): [Relation, string, string | undefined] {
  if (relation === "equal" && expected !== undefined) {
    if (isNullLiteral(subject) && !isNullLiteral(expected)) [subject, expected] = [expected, subject];
    if (isNullLiteral(expected)) return ["nullish", subject, undefined];
  }
  const sized = sizeCheck(relation, subject, expected, matcher, isNegated);
  return sized ? ["length", sized.subject, sized.expected] : [relation, subject, expected];
}

/**
 * The length check an assertion makes, whatever it is spelled
 * (`toHaveLength(1)`, `expect(x.length).toBe(1)`, `assert len(x) == 1`,
 * `assertCount(1, $x)`, `assert_eq!(v.len(), 1)`, `Assert.Single(xs)`,
 * `Assert.Empty(xs)` = a size of 0): the collection and the size, or null
 * when the assertion is not one (a negated emptiness check, `Assert.Single`
 * with a predicate, a size compared with another size stays the equality).
 */
function sizeCheck(relation: Relation, subject: string, expected: string | undefined, matcher: string, isNegated: boolean): { subject: string; expected: string } | null {
  if (relation === "equal" && expected !== undefined) {
    const collection = sizedCollection(subject);
    if (collection !== null) return { subject: collection, expected };
    const other = isLiteralText(subject) ? sizedCollection(expected) : null;
    return other === null ? null : { subject: other, expected: subject };
  }
  if (expected !== undefined || isNegated || subject === "") return null;
  if (relation === "falsy" && EMPTINESS.test(matcher)) return { subject, expected: "0" };
  if (relation === "other" && SINGLE.test(matcher)) return { subject, expected: "1" };
  return null;
}

/**
 * Ruby's reflective calls as the direct call they make: `x.send(:m, a)`,
 * `x.__send__(:m)` and `x.public_send(:m, a)` -> `x.m(a)`, `x.m()`. `send`
 * is how Ruby tests reach a private method; the check is of that method
 * with those arguments, the same check as a direct call of it (after the
 * method is made public, or in the other direction).
 */
function directCalls(text: string): string {
  return text.replace(/\.(?:send|__send__|public_send)\(:([A-Za-z_]\w*[?!=]?)(,|(?=\)))/g, (_all, name: string) => `.${name}(`);
}

/**
 * The error type and message an error check's expected arguments pin
 * (`ValueError`, `RangeError.class`, `typeof(E)`; `"bad"`, `/re/`, an
 * object of fields, see {@link errorFields}), the message the extractor
 * recorded (`match=`) first.
 */
function errorParts(expected: string, recorded: string | undefined): [string | undefined, string | undefined] {
  let errorType: string | undefined;
  let message = recorded;
  for (const part of splitArguments(expected)) {
    const fields = part.startsWith("{") ? errorFields(part) : (validationParts(part) ?? composedErrorParts(part));
    if (fields) {
      errorType ??= fields.errorType;
      message ??= fields.message;
    } else if (/^["/]/.test(part) || part.startsWith("{")) message ??= part;
    else if (/^[\w$.\\:]+$/.test(part)) errorType ??= part.replace(/\.class$/, "").replace(/^typeof\(|\)$/g, "");
  }
  return [errorType, message];
}

/** RSpec matchers of an object's class (rspec-expectations' aliases included): the class they name is the error's type. */
const RSPEC_CLASS_MATCHER = /^(?:an?_instance_of|instance_of|be_an?_instance_of|an?_kind_of|kind_of|be_an?_kind_of|be_an?)\(\s*([\w:]+)\s*\)$/;

/**
 * The parts of an error an RSpec composed matcher given to `raise_error`
 * pins (rspec-expectations, "Composing Matchers"; sweep of
 * dry-rb/dry-types 9562995e: `raise_error(E, msg)` ->
 * `raise_error(an_instance_of(E).and(having_attributes(message: msg, key:
 * :age)))`): the class of `an_instance_of(E)`, `a_kind_of(E)`, `be_a(E)`;
 * the `message:` of `having_attributes(…)` (also
 * `an_object_having_attributes`), each side of `.and(…)` / `&`. Null when
 * the text is no such matcher.
 */
function composedErrorParts(text: string): { errorType?: string; message?: string } | null {
  const sides: string[] = [];
  const split = (matcher: string): void => {
    const and = /^(.*?)\.and\((.*)\)$/s.exec(matcher);
    if (and && isBalanced(and[1] as string) && isBalanced(and[2] as string)) {
      split((and[1] as string).trim());
      split((and[2] as string).trim());
    } else sides.push(matcher.trim());
  };
  split(text);
  const parts: { errorType?: string; message?: string } = {};
  for (const side of sides) {
    const type = RSPEC_CLASS_MATCHER.exec(side)?.[1];
    const attributes = /^(?:an_object_)?having_attributes\((.*)\)$/s.exec(side)?.[1];
    if (type !== undefined) parts.errorType ??= type;
    else if (attributes !== undefined) {
      for (const field of splitArguments(attributes.replace(/^\{|\}$/g, ""))) {
        const message = /^:?message\s*(?::|=>)\s*(.+)$/s.exec(field.trim())?.[1];
        if (message !== undefined) parts.message ??= message.trim();
      }
    } else return null;
  }
  return parts.errorType === undefined && parts.message === undefined ? null : parts;
}

/**
 * The parts of an error a validation function checks (node:assert's
 * `assert.throws(fn, validate)`, nodejs.org/api/assert.html: the function
 * receives the error and returns true when it is the expected one), from
 * its canonical text: `e instanceof T` or `e.name==="T"` pins the type;
 * `strictEqual(e.message, m)` (any equality, either order), `match(e.message,
 * re)`, `e.message===m`, `re.test(e.message)` and `e.message.includes(m)`
 * pin the message. A function that reads its error no way it pins, or one
 * with no parameter (`() => true`), pins nothing: `{}`. Null when the text
 * is no function of one parameter or none.
 */
function validationParts(text: string): { errorType?: string; message?: string } | null {
  const arrow = /^(?:async)?(?:\(([A-Za-z_$][\w$]*)?\)|([A-Za-z_$][\w$]*)|\((\{[^{}]*\})\))=>(.*)$/s.exec(text);
  const fn = arrow ? null : /^(?:async)?function(?:\s+[\w$]+)?\(([A-Za-z_$][\w$]*)?\)\{(.*)\}$/s.exec(text);
  if (!arrow && !fn) return null;
  let param = arrow ? (arrow[1] ?? arrow[2]) : fn?.[1];
  let body = (arrow ? arrow[4] : fn?.[2]) ?? "";
  // A destructured error (`({message: actual}) => …`, `({name, message}) => …`): its fields read as the error's.
  const pattern = arrow?.[3];
  if (pattern !== undefined) {
    param = "$error";
    for (const field of splitArguments(pattern.slice(1, -1))) {
      const [key, alias] = field.includes(":") ? field.split(":") : [field, field];
      if ((key === "message" || key === "name") && alias && /^[A-Za-z_$][\w$]*$/.test(alias))
        body = body.replace(new RegExp(`(?<![\\w$.])${alias.replace(/\$/g, "\\$")}(?![\\w$])`, "g"), `$error.${key}`);
    }
  }
  if (param === undefined) return {};
  // What the function's answer rests on: the statements that assert (they throw when the error is not the one expected) and
  // the conjuncts of what it returns. A comparison whose value is dropped, one in an `if` with `true` returned anyway, or
  // one beside `|| true` decides nothing.
  const isBlock = body.startsWith("{") && closingBracket(body, 0) === body.length - 1;
  const statements = isBlock ? splitStatements(body.slice(1, -1)) : [`return ${body}`];
  const deciding: string[] = [];
  for (const statement of statements) {
    const returned = /^return\s*(.*)$/s.exec(statement)?.[1];
    if (returned !== undefined) {
      if (!scanTopLevel(returned, (i) => returned.startsWith("||", i))) deciding.push(...conjuncts(returned));
    } else if (/^(?:assert(?:\.\w+)?|t\.\w+|expect)\(/.test(statement)) deciding.push(statement);
  }
  const parts: { errorType?: string; message?: string } = {};
  for (const piece of deciding) {
    const found = errorReadIn(param, piece);
    parts.errorType ??= found.errorType;
    parts.message ??= found.message;
  }
  if (parts.errorType === undefined) delete parts.errorType;
  if (parts.message === undefined || parts.message === "") delete parts.message;
  return parts;
}

/** The error type and message one piece of a validation function pins of its error `param` (see {@link validationParts}). */
function errorReadIn(param: string, body: string): { errorType?: string; message?: string } {
  const name = param.replace(/\$/g, "\\$");
  const parts: { errorType?: string; message?: string } = {};
  const type = new RegExp(`(?:^|[^\\w$.])${name} instanceof ([\\w$.]+)|(?:^|[^\\w$.])${name}\\.name===?"([\\w$.]+)"`).exec(body);
  if (type) parts.errorType = type[1] ?? type[2];
  const read = `${param}.message`;
  for (let at = body.indexOf(read); at !== -1 && parts.message === undefined; at = body.indexOf(read, at + 1)) {
    if (/[\w$.]/.test(body[at - 1] ?? "") || /[\w$]/.test(body[at + read.length] ?? "")) continue;
    const before = body.slice(0, at);
    const after = body.slice(at + read.length);
    const call = /(?:strictEqual|deepStrictEqual|equal|deepEqual|is|match|assertEqual)\($/.exec(before);
    if (call) {
      const open = before.length - 1;
      const close = closingBracket(body, open);
      const args = close === -1 ? [] : splitArguments(body.slice(open + 1, close));
      parts.message = args.find((arg) => arg !== read);
    } else if (/^(?:===?)/.test(after)) parts.message = splitArguments(after.replace(/^===?/, "")).at(0);
    else if (/===?$/.test(before)) parts.message = /([^=&|;({,]+)===?$/.exec(before)?.[1];
    else if (/\.test\($/.test(before)) parts.message = /(\/(?:[^/\\]|\\.)+\/[a-z]*)\.test\($/.exec(before)?.[1];
    else if (/^\.includes\(/.test(after)) parts.message = splitArguments(after.slice(".includes(".length, closingBracket(after, ".includes".length))).at(0);
  }
  return parts;
}

/**
 * The parts of an error described by an object (node:assert's
 * `assert.throws(fn, { name: "RangeError", message: /x/ })`): `name` is
 * the error type, `message` the message; an object with other fields
 * (`{ code: "E" }`) is the message requirement as a whole. Null when the
 * text is no object of `key: value` fields.
 */
function errorFields(text: string): { errorType?: string; message?: string } | null {
  if (!text.startsWith("{") || closingIndex(text, 0) !== text.length - 1) return null;
  const fields = new Map<string, string>();
  for (const field of splitArguments(text.slice(1, -1))) {
    // A shorthand property (`{message}`) is the field of that name bound to the local of that name.
    const pair = /^"?([A-Za-z_$][\w$]*)"?:(.+)$/s.exec(field) ?? /^([A-Za-z_$][\w$]*)()$/.exec(field);
    if (!pair) return null;
    fields.set(pair[1] as string, pair[2] === "" ? (pair[1] as string) : (pair[2] as string));
  }
  const parts: { errorType?: string; message?: string } = {};
  const name = fields.get("name");
  if (name !== undefined && /^"[\w$.]+"$/.test(name)) parts.errorType = name.slice(1, -1);
  const others = [...fields.keys()].filter((key) => key !== "name" || parts.errorType === undefined);
  if (others.length === 1 && others[0] === "message") parts.message = fields.get("message") as string;
  else if (others.length > 0) parts.message = text;
  return parts;
}

/**
 * True when a matcher's name states a negation that is its relation
 * (`assertNotNull`, `isNotNull`, `Assert.NotNull`, `assert.NotNil`,
 * `assertIsNotNone`, `isNotEmpty`: the relation `defined`), so an
 * extractor's `negated` flag set from the same word is not a second
 * negation (as {@link isFalsyMatcher} is for `assertFalse`).
 */
function isDefinedByNegation(matcher: string): boolean {
  const segments = matcher
    .replace(/\(.*$/s, "")
    .split(/[.\s]/)
    .filter((part) => part !== "");
  const last = segments.at(-1) ?? "";
  return segments.every((part) => part !== "not") && /not/i.test(last) && relationOfMatcher(matcher) === "defined";
}

/** `true`/`false` (any language's spelling) as a boolean, else undefined. */
function booleanLiteral(text: string): boolean | undefined {
  if (text === "true" || text === "True" || text === "TRUE") return true;
  if (text === "false" || text === "False" || text === "FALSE") return false;
  return undefined;
}

/**
 * True when canonical text is a boolean-valued expression (`!falsy(b)`,
 * `not x`, `a==b`, `a&&b`): an equality against it pins one bit, as much
 * as a truthiness check (`assert_eq!(f(b), !g(b))` weighs as `assert!(f(b))`).
 */
export function isBooleanExpression(text: string): boolean {
  if (isConditionalExpression(text)) return false;
  if ((text.startsWith("!") && !text.startsWith("!=")) || text.startsWith("not ")) return true;
  if (conjuncts(text).length > 1 || /^[^"]*(?:\|\||\bor\b)/.test(text)) return true;
  const comparison = splitComparison(text);
  return comparison !== null && comparison[1] !== "instanceof";
}

/**
 * An emptiness predicate as the collection it asks about: `xs.isEmpty()`
 * (Java, Kotlin), `v.is_empty()` (Rust), `xs.IsEmpty` (C#), `xs.empty?`
 * (Ruby), `empty($x)` (PHP); `xs.Any()` (C#) and `xs.any?` (Ruby) ask the
 * opposite (`isNegated`). Null for any other text.
 */
function emptinessOf(text: string): { subject: string; isNegated: boolean } | null {
  const member = /^(.+?)(?:\??\.|->)(isEmpty\(\)|is_empty\(\)|IsEmpty(?:\(\))?|empty\?|Any\(\)|any\?)$/s.exec(text);
  if (member) {
    const receiver = member[1] as string;
    if (closingIndex(`(${receiver})`, 0) !== receiver.length + 1) return null;
    return { subject: receiver, isNegated: /^(?:Any|any)/.test(member[2] as string) };
  }
  const call = splitCall(text);
  if (call && /^\\?empty$/.test(call[0]) && splitArguments(call[1]).length === 1) return { subject: call[1], isNegated: false };
  return null;
}

/** An approximate-equality wrapper dropped from an expected value: `pytest.approx(0.05)` -> `0.05` (assertAlmostEqual and `== approx` state the same check). */
function approximated(text: string): string {
  const call = splitCall(text);
  if (!call || !/^(?:pytest\.)?approx$/.test(call[0])) return text;
  return splitArguments(call[1])[0] ?? text;
}

/** The relation a boolean expression states: `s.includes("x")` -> contains, `n>0` -> greater, `isinstance(w,T)` -> type, `/re/.test(s)` -> match. */
function statedRelation(text: string): { relation: Relation; subject: string; expected: string; isNegated: boolean } | null {
  let isNegated = false;
  let body = text;
  if (body.startsWith("!") && !body.startsWith("!=")) {
    isNegated = true;
    body = canonicalText(body.slice(1));
  } else if (body.startsWith("not ")) {
    isNegated = true;
    body = canonicalText(body.slice(4));
  }
  const comparison = splitComparison(body);
  if (comparison) {
    const [left, operator, right] = comparison;
    if (operator === "instanceof") return { relation: "type", subject: left, expected: right, isNegated };
    const relation = relationOfOperator(operator);
    if (relation === "other") return null;
    const negatedOperator = operator === "!=" || operator === "!==" || operator === "not in" || operator === "is not";
    if (relation === "contains") return { relation, subject: right, expected: left, isNegated: isNegated !== negatedOperator };
    return { relation, subject: left, expected: right, isNegated: isNegated !== negatedOperator };
  }
  const emptied = emptinessOf(body);
  if (emptied) return { relation: "length", subject: emptied.subject, expected: "0", isNegated: isNegated !== emptied.isNegated };
  const call = splitCall(body);
  if (!call) return null;
  const [callee, args] = call;
  const argList = splitArguments(args);
  // A method call in any language's spelling: `a.equals(b)`, PHP `$a->equals($b)`, Ruby/C++ `A::f`.
  const access = /(\.|->)(\w+\??)$/.exec(callee);
  const method = access?.[2];
  const receiver = access === null ? "" : callee.slice(0, -access[0].length);
  if (method && /^(includes|contains|has|hasOwnProperty|startsWith|endsWith|containsKey|include\?|key\?)$/.test(method) && argList.length === 1) {
    return { relation: method === "hasOwnProperty" || method === "containsKey" ? "partial" : "contains", subject: receiver, expected: argList[0] as string, isNegated };
  }
  if (method === "test" && receiver.startsWith("/") && argList.length === 1) return { relation: "match", subject: argList[0] as string, expected: receiver, isNegated };
  if (/^(?:strings\.(?:Contains|HasPrefix|HasSuffix)|bytes\.Contains|str_contains|in_array|array_key_exists)$/.test(callee) && argList.length === 2) {
    const [a, b] = argList as [string, string];
    return callee === "in_array" || callee === "array_key_exists" ? { relation: "contains", subject: b, expected: a, isNegated } : { relation: "contains", subject: a, expected: b, isNegated };
  }
  if (/^(?:re\.(?:search|match|fullmatch)|preg_match|regexp\.MatchString)$/.test(callee) && argList.length >= 2)
    return { relation: "match", subject: argList[1] as string, expected: argList[0] as string, isNegated };
  if (/^(?:isinstance|is_a)$/.test(callee) && argList.length === 2) return { relation: "type", subject: argList[0] as string, expected: argList[1] as string, isNegated };
  if (/^(?:reflect\.DeepEqual|Objects\.equals|equals|isDeepStrictEqual|util\.isDeepStrictEqual|_\.isEqual|isEqual|cmp\.Equal)$/.test(callee) && argList.length === 2) {
    return { relation: "equal", subject: argList[0] as string, expected: argList[1] as string, isNegated };
  }
  // Java/Kotlin/PHP `equals`, C# `Equals`, Rust `PartialEq::eq`/`ne` (`a.eq(&b)`: the borrow is no part of the value), Ruby `eql?`/`equal?`.
  if (method !== undefined && /^(?:equals|Equals|eq|ne|eql\?|equal\?)$/.test(method) && argList.length === 1) {
    const other = (argList[0] as string).replace(/^&(?:mut )?/, "");
    return { relation: "equal", subject: receiver, expected: other, isNegated: method === "ne" ? !isNegated : isNegated };
  }
  return null;
}
