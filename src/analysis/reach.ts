/**
 * Which changed modules only a program's entry points load, for the
 * harness-escape rule: a module that ends the process with success is an
 * escape when a test run can reach it, and part of a program when only the
 * program's own entry points import it (a warm server's entry that
 * `src/cli/main.ts` loads with `await import("../daemon/server-entry.js")`,
 * a worker file a `bin/` script forks). Read only when a changed JS/TS
 * product file gained a success exit outside an entry-point path, so an
 * ordinary change pays nothing.
 *
 * A file imports a module when one of its static or dynamic import
 * specifiers (`import … from "…"`, `export … from "…"`, `import("…")`,
 * `require("…")`, `new URL("…", import.meta.url)`) is relative and resolves
 * to the module's path with its extension swapped the way TypeScript and
 * bundlers do (`./x.js` → `x.ts`, `./x` → `x.ts`, `x/index.ts`). The module
 * is entry-only when at least one file imports it and every file that does
 * is an entry-point path (harness-escape.ts isEntryPointPath) and no test
 * file; a module nobody imports stays judged (ralph cannot tell how it is
 * loaded). At most {@link MAX_SCANNED} files are read; past that nothing is
 * entry-only.
 */

import { posix } from "node:path";
import type { TreeReader } from "./discovery.js";
import { languageForPath } from "./languages/index.js";
import { isProductCode, type RulePair } from "./rules/context.js";
import { isEntryPointPath, newSuccessExits } from "./rules/harness-escape.js";

/** JS/TS files read at most per change when looking for importers. */
export const MAX_SCANNED = 20_000;

/** Extensions of the modules resolved here (JS and TS in their module flavours). */
const SCRIPT_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/** Specifiers of static and dynamic imports, re-exports, require() and `new URL(…, import.meta.url)`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bnew\s+URL\s*\(\s*)(["'`])(\.{1,2}\/[^"'`\n]*)\1/g;

/** A module path without its script extension, the key both sides of a resolution meet on. */
const moduleKey = (path: string): string => path.replace(SCRIPT_FILE, "");

/** The text with its block and line comments blanked (a specifier quoted in a comment imports nothing). */
const withoutComments = (text: string): string => text.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:\\"'`])\/\/[^\n]*/gm, "$1");

/**
 * The modules a file's relative specifiers name, as {@link moduleKey}s
 * (both `dir/x` and `dir/x/index`, since `./x` may be either).
 */
export function importedModuleKeys(file: string, text: string): Set<string> {
  const keys = new Set<string>();
  const dir = posix.dirname(file);
  for (const match of withoutComments(text).matchAll(SPECIFIER)) {
    const resolved = posix.normalize(posix.join(dir, match[2] as string));
    if (resolved.startsWith("../")) continue;
    const key = moduleKey(resolved);
    keys.add(key);
    keys.add(`${key}/index`);
  }
  return keys;
}

/**
 * The changed JS/TS product files that gained a success exit and are
 * imported only by entry-point files of `tree` (the after tree, changes
 * applied); see the module comment. Never throws for content: an unreadable
 * file imports nothing.
 */
export function loadEntryOnlyModules(pairs: readonly RulePair[], tree: TreeReader): Set<string> {
  const targets = new Map<string, string>();
  for (const pair of pairs) {
    if (!SCRIPT_FILE.test(pair.path) || !isProductCode(pair) || isEntryPointPath(pair.path) || newSuccessExits(pair).length === 0) continue;
    targets.set(moduleKey(pair.path), pair.path);
  }
  const result = new Set<string>();
  if (targets.size === 0) return result;
  const files = tree.walk("").filter((path) => SCRIPT_FILE.test(path) && !path.split("/").includes("node_modules"));
  if (files.length > MAX_SCANNED) return result;
  const importers = new Map<string, string[]>();
  for (const file of files) {
    const text = tree.read(file);
    if (text === null) continue;
    for (const key of importedModuleKeys(file, text)) {
      const target = targets.get(key);
      if (target === undefined || target === file) continue;
      const list = importers.get(target);
      if (list) list.push(file);
      else importers.set(target, [file]);
    }
  }
  for (const [target, from] of importers) {
    if (from.every((file) => isEntryPointPath(file) && !(languageForPath(file)?.isTestPath(file) ?? false))) result.add(target);
  }
  return result;
}
