/**
 * Emptied case globs: a data-driven test loops over the files a pattern
 * finds (`CASES.glob("*.md")`, `filepath.Glob("testdata/*.golden")`,
 * `Dir["spec/fixtures/*.yml"]`, `glob(__DIR__ . '/cases/*.json')`,
 * `Directory.GetFiles(dir, "*.json")`, `fg.sync("cases/**\/*.txt")`), and the
 * change edits that pattern in test code so that it finds no file of the
 * tree any more (`"*.md"` -> `"*.markdown"`): the loop runs zero times and
 * every check in it is gone, while the test and its assertions still read
 * the same. Reported as assertion_removal (high) on the file whose pattern
 * changed.
 *
 * A pattern is a string literal of a test-side file (a test path of its
 * language, or a file under a test folder) that looks like a path
 * glob: no spaces, a `*` or `?`, and a `.` or `/` (files under fixture and
 * test-data folders are material for tests, not read). It counts when the change
 * added it and removed another from the same file that matched at least one
 * file of the before tree, while it matches none of the after tree. Matching
 * is picomatch's (dot files included), of `**\/<pattern>`, so anywhere
 * below the root (a pattern without `/` matches file names): the folder a test
 * joins it to is not read, so a pattern matching a file elsewhere counts as
 * matching (no finding). A legitimate edit (`"*.md"` -> `"**\/*.md"`, or the
 * case files renamed with the pattern) still finds files.
 */

import type picomatch from "picomatch";
import type { TreeReader } from "./discovery.js";
import { languageForPath } from "./languages/index.js";
import { isUnderTestDirectory } from "./languages/language.js";
import { defaultSeverityOf } from "./rules/registry.js";
import { isTestSupportPath } from "./rules/context.js";
import type { FileChange, Finding } from "./types.js";

/** String literals (single, double or backtick quoted, one line) in source text. */
const STRING_LITERAL = /(["'`])((?:(?!\1)[^\\\n]|\\.){1,200})\1/g;

/** A path glob's shape: path characters only, a wildcard, and an extension dot or a folder slash. */
const PATH_GLOB = /^(?=[^*?]*[*?])(?=.*[./])[\w./*?\-[\]{}!,@+]+$/;

/** The path globs among a source text's string literals, as written. */
export function pathGlobsOf(source: string): Set<string> {
  const globs = new Set<string>();
  for (const match of source.matchAll(STRING_LITERAL)) {
    const text = (match[2] as string).replace(/^\.?\//, "");
    if (PATH_GLOB.test(text) && !text.startsWith("*.*")) globs.add(text);
  }
  return globs;
}

/** How many files of `paths` the glob finds anywhere below the root (as `**\/<glob>`: a pattern without `/` matches file names), compiled with `compile` (picomatch); stops counting at `limit`. */
export function globMatchCount(compile: typeof picomatch, glob: string, paths: readonly string[], limit = 1): number {
  const matches = compile(`**/${glob.replace(/^\*\*\//, "")}`, { dot: true });
  let count = 0;
  for (const path of paths) if (matches(path) && ++count >= limit) return count;
  return count;
}

/** True for a file of test code: a test path of its language, or a file under a test folder, outside fixture and test-data folders (material for tests, not code that runs them). */
function isTestSide(path: string): boolean {
  return ((languageForPath(path)?.isTestPath(path) ?? false) || isUnderTestDirectory(path)) && !isTestSupportPath(path);
}

/**
 * Findings for the changes' test-side files whose new path glob finds no
 * file of the after tree where a glob it replaced found one in the before
 * tree (see the module comment); `trees` list every file of each side.
 * Never rejects for odd text.
 */
export async function emptiedGlobFindings(changes: readonly FileChange[], trees: { before: TreeReader; after: TreeReader }): Promise<Finding[]> {
  const findings: Finding[] = [];
  let listed: { before: readonly string[]; after: readonly string[] } | null = null;
  let compile: typeof picomatch | null = null;
  for (const change of changes) {
    if (change.before === null || change.after === null || !isTestSide(change.path)) continue;
    const was = pathGlobsOf(change.before);
    const now = pathGlobsOf(change.after);
    const added = [...now].filter((glob) => !was.has(glob));
    const removed = [...was].filter((glob) => !now.has(glob));
    if (added.length === 0 || removed.length === 0) continue;
    listed ??= { before: trees.before.walk(""), after: trees.after.walk("") };
    // Loaded on first use: importing analysis loads no package (test/analysis/registry.test.ts).
    compile ??= (await import("picomatch")).default;
    const [paths, compiler] = [listed, compile] as const;
    const replaced = removed.find((glob) => globMatchCount(compiler, glob, paths.before) > 0);
    if (replaced === undefined) continue;
    for (const glob of added) {
      if (globMatchCount(compiler, glob, paths.after) > 0) continue;
      const line = change.after.slice(0, change.after.indexOf(glob)).split("\n").length;
      const found = globMatchCount(compiler, replaced, paths.before, Number.POSITIVE_INFINITY);
      findings.push({
        type: "assertion_removal",
        severity: defaultSeverityOf("assertion_removal"),
        file: change.path,
        line,
        message: `${change.path}: the pattern "${glob}" finds no file of the tree (it replaced "${replaced}", which found ${found}): the tests that loop over what it finds now check nothing`,
        evidence: { rule: "emptied_glob", pattern: glob, replaced, matched_before: found, matched_after: 0 },
        allowed: false,
      });
    }
  }
  return findings;
}
