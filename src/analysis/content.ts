/**
 * Cheap checks on a file's text before any parser sees it: binary content,
 * files over the size limit, minified bundles. Each returns a one-line
 * reason or null; none of them throws.
 */

/** Files larger than this many bytes (UTF-8) are not parsed. */
export const MAX_ANALYZED_BYTES = 2 * 1024 * 1024;

/** How many leading characters are inspected for binary content (git's own window). */
const BINARY_WINDOW_CHARS = 8000;

/** A non-test file whose average line is longer than this, over at least MINIFIED_MIN_CHARS, is taken as minified. */
const MINIFIED_AVERAGE_LINE_CHARS = 300;
const MINIFIED_MIN_CHARS = 4096;

/**
 * True when the text looks binary: a NUL character in the first 8000
 * characters (git's heuristic), or more than 10% U+FFFD replacement
 * characters there (bytes that were not valid UTF-8).
 */
export function isBinaryText(content: string): boolean {
  const window = content.length > BINARY_WINDOW_CHARS ? content.slice(0, BINARY_WINDOW_CHARS) : content;
  if (window.includes("\u0000")) return true;
  let replacements = 0;
  for (let i = 0; i < window.length; i++) if (window.charCodeAt(i) === 0xfffd) replacements++;
  return window.length > 0 && replacements / window.length > 0.1;
}

/** Size of the text in UTF-8 bytes. */
export function utf8SizeBytes(content: string): number {
  return Buffer.byteLength(content, "utf8");
}

/** True when the text is over {@link MAX_ANALYZED_BYTES} in UTF-8. */
export function isOverSizeLimit(content: string): boolean {
  if (content.length > MAX_ANALYZED_BYTES) return true; // every char is at least one byte
  if (content.length * 3 <= MAX_ANALYZED_BYTES) return false; // every UTF-16 unit is at most three bytes
  return utf8SizeBytes(content) > MAX_ANALYZED_BYTES;
}

/**
 * True when the file is a minified bundle: `.min.` in its name, or long
 * text whose average line is over 300 characters. Callers skip this check
 * for test files, whose long lines are usually inline data, not minification.
 */
export function isMinified(path: string, content: string): boolean {
  if (/\.min\.[^/]+$/i.test(path)) return true;
  if (content.length < MINIFIED_MIN_CHARS) return false;
  let lines = 1;
  for (let i = content.indexOf("\n"); i !== -1; i = content.indexOf("\n", i + 1)) lines++;
  return content.length / lines > MINIFIED_AVERAGE_LINE_CHARS;
}

/**
 * Why this content should not be parsed, or null when it should. `isTestPath`
 * turns off the minified heuristic (a test file is never a bundle).
 */
export function screenContent(path: string, content: string, isTestPath: boolean): string | null {
  if (isBinaryText(content)) return "binary content";
  if (isOverSizeLimit(content)) {
    const sizeMb = (utf8SizeBytes(content) / (1024 * 1024)).toFixed(1);
    return `larger than 2 MB (${sizeMb} MB)`;
  }
  if (!isTestPath && isMinified(path, content)) return "minified";
  return null;
}
