/**
 * What a test runner's configuration says about collecting tests from one
 * file, beyond a language's naming conventions, and pytest's way of matching
 * names against such settings.
 */

/**
 * Collection settings for one file from the runner's config (pytest
 * `python_files`, `testpaths`, `python_classes`, `python_functions`). An
 * absent field keeps the language's conventions. Plain JSON, so it can be
 * part of a facts-cache key.
 */
export interface CollectionRules {
  /** The runner collects this file as a test module whatever its name (pytest `python_files`, or a `testpaths` entry naming it). */
  testModule?: boolean;
  /** Class name prefixes or globs whose classes are collected (pytest `python_classes`; default `Test`). */
  classPatterns?: string[];
  /** Function and method name prefixes or globs collected as tests (pytest `python_functions`; default `test`). */
  functionPatterns?: string[];
}

/**
 * Python's `fnmatch` as a RegExp: `*` any run of characters (`/` included),
 * `?` one character, `[seq]` / `[!seq]` a set; everything else literal.
 */
export function fnmatchToRegExp(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else if (char === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end === -1) source += "\\[";
      else {
        const set = pattern.slice(i + 1, end).replace(/\\/g, "\\\\");
        source += set.startsWith("!") ? `[^${set.slice(1)}]` : `[${set}]`;
        i = end;
      }
    } else source += char.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s");
}

/**
 * pytest's test for `python_classes`/`python_functions` (pytest's
 * `_matches_prefix_or_glob_option`): the name starts with one of the
 * patterns, or matches one that holds a glob character (`*`, `?`, `[`).
 */
export function matchesPrefixOrGlob(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => name.startsWith(pattern) || (/[*?[]/.test(pattern) && fnmatchToRegExp(pattern).test(name)));
}
