/**
 * Paths are bytes in git (a tree entry name or an index path is any byte
 * string without NUL and '/'), but ralph carries paths as JavaScript
 * strings. This module maps bytes to strings losslessly, the way Python's
 * `surrogateescape` error handler does (PEP 383): valid UTF-8 decodes as
 * usual, and every byte that is not part of a valid UTF-8 sequence becomes
 * the lone low surrogate U+DC80 + (byte - 0x80). No valid UTF-8 text
 * decodes to a lone surrogate, so the mapping is one-to-one and
 * {@link encodePath} gives back the exact bytes. A name like `caf\xe9.txt`
 * (Latin-1) survives readdir -> tree -> restore unchanged.
 *
 * File-system calls take {@link fsPath}: the plain string when it holds no
 * escaped byte (the common case, no copy), else the bytes as a Buffer.
 */

/** Lone low surrogates in U+DC80..U+DCFF: escaped bytes. The `u` flag makes a surrogate pair one code point, so only lone ones match. */
const ESCAPED = /[\uDC80-\uDCFF]/u;

/** True when `path` holds bytes that are not valid UTF-8 (escaped by {@link decodePath}). */
export function hasEscapedBytes(path: string): boolean {
  return ESCAPED.test(path);
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none (RFC 3629 table 3-7). */
function sequenceLength(buf: Uint8Array, i: number, end: number): number {
  const b0 = buf[i] as number;
  const cont = (j: number, lo = 0x80, hi = 0xbf): boolean => j < end && (buf[j] as number) >= lo && (buf[j] as number) <= hi;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf; // ED A0..BF would encode a surrogate: not valid UTF-8
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/**
 * Decodes path bytes `buf[start, end)` to a string: UTF-8, with every byte
 * outside a valid sequence mapped to U+DC80 + (byte - 0x80).
 */
export function decodePath(buf: Buffer, start = 0, end = buf.length): string {
  const text = buf.toString("utf8", start, end);
  if (!text.includes("\uFFFD")) return text;
  // A replacement character: either a real U+FFFD (EF BF BD) or invalid bytes. Decode by hand.
  let out = "";
  let runStart = start;
  let i = start;
  while (i < end) {
    const n = sequenceLength(buf, i, end);
    if (n > 0) {
      i += n;
      continue;
    }
    out += buf.toString("utf8", runStart, i) + String.fromCharCode(0xdc00 + (buf[i] as number));
    i++;
    runStart = i;
  }
  return out + buf.toString("utf8", runStart, end);
}

/** The exact bytes of a path decoded by {@link decodePath}. */
export function encodePath(path: string): Buffer {
  if (!ESCAPED.test(path)) return Buffer.from(path, "utf8");
  const parts: Buffer[] = [];
  let run = "";
  for (const ch of path) {
    const cp = ch.codePointAt(0) as number;
    if (cp >= 0xdc80 && cp <= 0xdcff) {
      if (run !== "") parts.push(Buffer.from(run, "utf8"));
      run = "";
      parts.push(Buffer.of(cp - 0xdc00));
    } else run += ch;
  }
  if (run !== "") parts.push(Buffer.from(run, "utf8"));
  return Buffer.concat(parts);
}

/** A path as the `fs` functions take it: the string itself, or its bytes when it holds escaped bytes. */
export function fsPath(path: string): string | Buffer {
  return ESCAPED.test(path) ? encodePath(path) : path;
}
