/**
 * Runs every before/after tree under fixtures/languages/<lang>/ of the
 * tree-sitter languages through analyzeChanges and checks the verdict and the
 * findings in expected.json (each expected finding lists only the fields it
 * pins down; the number of findings must match exactly). The scenarios are
 * copies of the shared corpus cases for these languages.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { analyzeChanges, type FileChange, type Finding } from "../../../src/analysis/index.js";
import { TREE_SITTER_LANGUAGES } from "./cases.js";

const FIXTURES_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../fixtures/languages");

const FINDING_TYPES = [
  "test_deletion", "test_disabled", "assertion_removal", "assertion_weakening", "expectation_changed",
  "validation_bypass", "special_casing", "test_config_tamper", "coverage_regression", "feature_removal",
] as const;

const expectedSchema = z.strictObject({
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

/** Every file under `root`, as '/'-separated paths relative to it. */
function listFiles(root: string): string[] {
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

/** The changed files between two trees, as the store would hand them over. */
function diffTrees(beforeRoot: string, afterRoot: string): FileChange[] {
  const paths = [...new Set([...listFiles(beforeRoot), ...listFiles(afterRoot)])].sort();
  const read = (root: string, path: string): string | null =>
    existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : null;
  return paths
    .map((path) => ({ path, before: read(beforeRoot, path), after: read(afterRoot, path) }))
    .filter((change) => change.before !== change.after);
}

/** A finding reduced to the fields an expected entry names. */
function project(finding: Finding, keys: readonly string[]): Record<string, unknown> {
  const record = finding as unknown as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, record[key]]));
}

const scenarios = TREE_SITTER_LANGUAGES.flatMap((language) => {
  const dir = join(FIXTURES_ROOT, language);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, "expected.json")))
    .sort()
    .map((name) => `${language}/${name}`);
});

describe("tree-sitter language fixture trees", () => {
  it("has scenarios to run", () => {
    expect(scenarios.length).toBeGreaterThan(0);
  });

  it.each(scenarios)("%s", async (scenario) => {
    const dir = join(FIXTURES_ROOT, scenario);
    const expected = expectedSchema.parse(JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")));
    const changes = diffTrees(join(dir, "before"), join(dir, "after"));
    expect(changes.length).toBeGreaterThan(0);

    const analysis = await analyzeChanges(changes, { allow: expected.allow });

    expect(analysis.not_analyzed).toEqual([]);
    expect(analysis.verdict).toBe(expected.verdict);
    expect(analysis.findings).toHaveLength(expected.findings.length);
    const remaining = [...analysis.findings];
    for (const wanted of expected.findings) {
      const keys = Object.keys(wanted);
      const index = remaining.findIndex((finding) => JSON.stringify(project(finding, keys)) === JSON.stringify(project(wanted as unknown as Finding, keys)));
      expect(index, `no finding matches ${JSON.stringify(wanted)} in ${JSON.stringify(analysis.findings)}`).not.toBe(-1);
      remaining.splice(index, 1);
    }
  });
});
