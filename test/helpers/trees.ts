/**
 * Inline trees for analysis tests: a map of path -> text as the TreeReader
 * test discovery reads, and the file changes between two such maps.
 */
import type { FileChange, TreeReader, UnchangedFiles } from "../../src/analysis/index.js";

/** A TreeReader over an inline map of '/'-separated path -> text. */
export function treeOf(files: Readonly<Record<string, string>>): TreeReader {
  const paths = Object.keys(files).sort();
  const folderOf = (path: string): string => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
  return {
    read: (path) => files[path] ?? null,
    fileNames: (dir) => paths.filter((path) => folderOf(path) === dir).map((path) => path.slice(path.lastIndexOf("/") + 1)),
    walk: (dir) => paths.filter((path) => dir === "" || path.startsWith(`${dir}/`)),
  };
}

/** The changes from one inline tree to another: every path whose text differs, sorted. */
export function changesBetween(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): FileChange[] {
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return paths.filter((path) => before[path] !== after[path]).map((path) => ({ path, before: before[path] ?? null, after: after[path] ?? null }));
}

/** The files two inline trees share unchanged, as analyzeChanges' `unchanged` option (judgeChange reads them from the "from" tree). */
export function unchangedBetween(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>): UnchangedFiles {
  const same = Object.keys(before).filter((path) => after[path] === before[path]);
  return { paths: () => same, read: (path) => (same.includes(path) ? (before[path] ?? null) : null) };
}
