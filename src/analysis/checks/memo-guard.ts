/**
 * Memoisation guards: `if (template !== null) return template;` at the top
 * of a builder that later sets `template = root`. The early return does not
 * skip the assertions below it for some inputs: they ran on the first call,
 * and every later call returns what they checked. So an assertion after a
 * memo guard is not gated (the helper-early-return rule's look-alike:
 * ralph's own test/cli/errors.test.ts moved an `expect` into a memoised
 * repository template and was reported "now after an early return").
 *
 * Read from source text, the same way in every language: the guard returns
 * a name path (`cache`, `this.#cache`, `self._cache`, `@cache`, `$this->cache`,
 * `Cache.instance`) or a keyed read of one (`cache.get(key)`, `cache[key]`,
 * `cache.get(&key)`), its condition reads that name, and the rest of the
 * function assigns it (`=`, `??=`, `||=`, `:=`) or stores into it (`.set(`,
 * `.insert(`, `[key] =`, `.put(`, `.Store(`, `.store(`).
 */

/** A name path: identifiers joined by `.`, `->`, `::`, with the sigils of Ruby and PHP and JS private names. */
const NAME_PATH = /^[@$#]{0,2}[A-Za-z_][\w]*(?:(?:\.|->|::)[#]?[A-Za-z_]\w*)*$/;
/** A keyed read of a name path: `cache.get(key)`, `cache[key]`, `cache.get(&key)`. */
const KEYED_READ = /^([@$#]{0,2}[A-Za-z_][\w]*(?:(?:\.|->|::)[#]?[A-Za-z_]\w*)*)\s*(?:\.get\s*\([^()]*\)|\[[^\]]+\])$/;

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * True when an early return is a memoisation guard (see the module
 * comment). `condition` is the guard's condition as written, `returned` the
 * returned expression (trimmed, without a trailing `;`), `rest` the text of
 * the function after the guard statement. Pure text; never throws.
 */
export function isMemoGuard(condition: string, returned: string, rest: string): boolean {
  const value = returned
    .trim()
    .replace(/;$/, "")
    .replace(/^\((.*)\)$/s, "$1")
    .trim();
  const keyed = KEYED_READ.exec(value);
  const name = keyed ? (keyed[1] as string) : NAME_PATH.test(value) ? value : null;
  if (name === null) return false;
  const word = `(?<![\\w$@#])${escape(name)}(?![\\w])`;
  if (!new RegExp(word).test(condition)) return false;
  const assigned = new RegExp(`${word}\\s*(?:\\[[^\\]]+\\]\\s*)?(?:=(?![=~>])|\\?\\?=|\\|\\|=|:=)`);
  const stored = new RegExp(`${word}\\s*\\.\\s*(?:set|insert|put|Store|store|setdefault)\\s*\\(`);
  return assigned.test(rest) || stored.test(rest);
}
