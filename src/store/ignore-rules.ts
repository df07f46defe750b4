/**
 * gitignore rules in git's precedence (gitignore(5) "PATTERN FORMAT" and
 * dir.c): per-directory `.gitignore` files from the deepest directory up to
 * the root, then `$GIT_COMMON_DIR/info/exclude`, then `core.excludesFile`
 * (default `$XDG_CONFIG_HOME/git/ignore`). The first source whose patterns
 * match a path decides (within a source, the last matching pattern wins,
 * which the `ignore` package implements). A path inside an ignored
 * directory is never re-included: callers do not descend into ignored
 * directories.
 */
import ignore, { type Ignore } from "ignore";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";
import { decodePath, fsPath } from "./path-bytes.js";
import { homeOf, type GitEnvironment } from "../runtime-env.js";
import { defaultExcludesFile, expandHome, isTrue, type GitConfig } from "./git-config.js";

/** One source of patterns: its directory relative to the work tree root ('' = root) and its matcher. */
export interface IgnoreLayer {
  readonly base: string;
  readonly matcher: Ignore;
}

/**
 * Reads a pattern file, or null when it does not exist. Throws for other
 * I/O errors. Bytes that are not UTF-8 are escaped as paths are
 * (path-bytes.ts), so a pattern matches the same bytes in a name.
 */
export function readPatternFile(path: string): string | null {
  try {
    return decodePath(readFileSync(fsPath(path)));
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR", "EISDIR")) return null;
    throw error;
  }
}

/**
 * Whether patterns match case-insensitively: git's `core.ignorecase`
 * (git-config(1); false unless set, and `git init` sets it only on
 * case-insensitive file systems). The `ignore` package's own default is
 * case-insensitive, which is not git's on Linux.
 */
export function isIgnoreCase(config: GitConfig): boolean {
  const value = config.get("core.ignorecase");
  return value !== undefined && isTrue(value);
}

/** Builds a layer from the text of one pattern file rooted at `base`; `ignoreCase` from {@link isIgnoreCase}. */
export function makeLayer(base: string, text: string, ignoreCase: boolean): IgnoreLayer {
  return { base, matcher: ignore({ allowRelativePaths: true, ignorecase: ignoreCase }).add(text) };
}

/**
 * The repository-wide layers (lowest precedence first is NOT the order used
 * here: returned deepest-precedence-first, ready to be placed under the
 * per-directory layers): info/exclude, then the global excludes file.
 * Also returns the files read, so a caller can fingerprint them.
 */
export function globalLayers(commonDir: string, config: GitConfig, env: GitEnvironment): { layers: IgnoreLayer[]; files: string[] } {
  const layers: IgnoreLayer[] = [];
  const files: string[] = [];
  const exclude = join(commonDir, "info", "exclude");
  const configured = config.get("core.excludesfile");
  const globalFile = configured ? expandHome(configured, homeOf(env)) : defaultExcludesFile(env);
  for (const file of [exclude, globalFile]) {
    files.push(file);
    const text = readPatternFile(file);
    if (text !== null && text.trim() !== "") layers.push(makeLayer("", text, isIgnoreCase(config)));
  }
  return { layers, files };
}

/**
 * Decides whether `path` (relative to the work tree root, '/'-separated) is
 * ignored, given the layers that apply to its directory ordered from highest
 * precedence (deepest .gitignore) to lowest (global excludes).
 */
export function isIgnored(layers: readonly IgnoreLayer[], path: string, isDirectory: boolean): boolean {
  for (const layer of layers) {
    const rel = layer.base === "" ? path : path.slice(layer.base.length + 1);
    const result = layer.matcher.test(isDirectory ? `${rel}/` : rel);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}
