/**
 * The fixture-tree runner shared by the analysis tests: a scenario is a
 * folder with `before/`, `after/` and `expected.json` (verdict, allow rules,
 * and findings that list only the fields they pin down; the number of
 * findings must match exactly). The changed files are handed to
 * analyzeChanges as the store would hand them over, and so are the files
 * identical on both sides (read on demand, for tests inherited across files).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { expect } from "vitest";
import { z } from "zod";
import { analyzeChanges, type Analysis, type FileChange, type Finding, type TreeReader, type UnchangedFiles } from "../../src/analysis/index.js";

const FINDING_TYPES = [
  "test_deletion",
  "test_disabled",
  "assertion_removal",
  "assertion_weakening",
  "expectation_changed",
  "validation_bypass",
  "special_casing",
  "test_config_tamper",
  "coverage_regression",
  "feature_removal",
] as const;

/** The shape of a scenario's expected.json. */
export const expectedSchema = z.strictObject({
  summary: z.string(),
  source: z.string(),
  allow: z.array(z.strictObject({ type: z.enum([...FINDING_TYPES, "*"]), reason: z.string(), path: z.string().optional() })),
  verdict: z.enum(["PASS", "WARN", "BLOCK"]),
  findings: z.array(
    z.strictObject({
      type: z.enum(FINDING_TYPES),
      file: z.string(),
      severity: z.enum(["critical", "high", "medium", "low"]).optional(),
      test: z.string().optional(),
      allowed: z.boolean().optional(),
    }),
  ),
});

/** Every file under `root` (dot-folders included), as sorted '/'-separated paths relative to it. */
export function listFiles(root: string): string[] {
  if (!existsSync(root)) return [];
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const full = join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(relative(root, full).split("\\").join("/"));
    }
  };
  walk(root);
  return files.sort();
}

/** The changed files between two folders (null = absent on that side). */
export function diffFolders(beforeRoot: string, afterRoot: string): FileChange[] {
  const paths = [...new Set([...listFiles(beforeRoot), ...listFiles(afterRoot)])].sort();
  const read = (root: string, path: string): string | null => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : null);
  return paths.map((path) => ({ path, before: read(beforeRoot, path), after: read(afterRoot, path) })).filter((change) => change.before !== change.after);
}

/** The files present and identical in both folders, as analyzeChanges' `unchanged` option (judgeChange reads them from the store). */
export function unchangedInFolders(beforeRoot: string, afterRoot: string): UnchangedFiles {
  const after = new Set(listFiles(afterRoot));
  const same = listFiles(beforeRoot).filter((path) => after.has(path) && readFileSync(join(beforeRoot, path), "utf8") === readFileSync(join(afterRoot, path), "utf8"));
  return { paths: () => same, read: (path) => (same.includes(path) ? readFileSync(join(beforeRoot, path), "utf8") : null) };
}

/** A folder as analyzeChanges' `trees` reader (what judgeChange builds from a stored tree): files by '/'-separated path relative to `root`. */
export function folderTree(root: string): TreeReader {
  const files = listFiles(root);
  const under = (dir: string): string[] => (dir === "" ? files : files.filter((path) => path.startsWith(`${dir.replace(/\/$/, "")}/`)));
  return {
    read: (path) => (files.includes(path) ? readFileSync(join(root, path), "utf8") : null),
    fileNames: (dir) =>
      under(dir)
        .filter((path) => !path.slice(dir === "" ? 0 : dir.replace(/\/$/, "").length + 1).includes("/"))
        .map((path) => path.slice(path.lastIndexOf("/") + 1)),
    walk: (dir) => under(dir),
  };
}

/** The scenario folders (those holding an expected.json) directly under `dir`, sorted; [] when it does not exist. */
export function scenariosIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, "expected.json")))
    .sort();
}

/** Reads a scenario's expected.json. */
export function expectedOf(dir: string): z.infer<typeof expectedSchema> {
  return expectedSchema.parse(JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")));
}

function project(finding: Finding, keys: readonly string[]): Record<string, unknown> {
  const record = finding as unknown as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, record[key]]));
}

/**
 * Runs one scenario folder and asserts its verdict and findings (matched one
 * to one by the fields each expected finding names). Returns the analysis
 * for further checks.
 */
export async function runScenario(dir: string): Promise<Analysis> {
  const expected = expectedOf(dir);
  const changes = diffFolders(join(dir, "before"), join(dir, "after"));
  expect(changes.length).toBeGreaterThan(0);
  const analysis = await analyzeChanges(changes, { allow: expected.allow, unchanged: unchangedInFolders(join(dir, "before"), join(dir, "after")) });
  expect(analysis.verdict).toBe(expected.verdict);
  expect(analysis.findings, JSON.stringify(analysis.findings, null, 2)).toHaveLength(expected.findings.length);
  const remaining = [...analysis.findings];
  for (const wanted of expected.findings) {
    const keys = Object.keys(wanted);
    const index = remaining.findIndex((finding) => JSON.stringify(project(finding, keys)) === JSON.stringify(project(wanted as unknown as Finding, keys)));
    expect(index, `no finding matches ${JSON.stringify(wanted)} in ${JSON.stringify(analysis.findings)}`).not.toBe(-1);
    remaining.splice(index, 1);
  }
  return analysis;
}
