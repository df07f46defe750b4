/**
 * Runs every before/after tree under fixtures/config/ through analyzeChanges
 * and checks the verdict and findings in its expected.json (each expected
 * finding lists only the fields it pins down; the count must match
 * exactly). Four scenarios are copies of shared corpus cases
 * (ci-continue-on-error, js-test-script-or-true, js-vitest-exclude,
 * py-makefile-narrowed); the others are ralph's own, in both directions.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { analyzeChanges, type FileChange, type Finding } from "../../../src/analysis/index.js";

const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../../fixtures/config");

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
      allowed: z.boolean().optional(),
    }),
  ),
});

/** Every file under `root`, dot-folders included, as '/'-separated paths relative to it. */
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
  const read = (root: string, path: string): string | null => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : null);
  return paths.map((path) => ({ path, before: read(beforeRoot, path), after: read(afterRoot, path) })).filter((change) => change.before !== change.after);
}

function project(finding: Finding, keys: readonly string[]): Record<string, unknown> {
  const record = finding as unknown as Record<string, unknown>;
  return Object.fromEntries(keys.map((key) => [key, record[key]]));
}

const scenarios = readdirSync(FIXTURES_DIR).filter((name) => existsSync(join(FIXTURES_DIR, name, "expected.json"))).sort();

describe("config fixture trees", () => {
  it("has the corpus cases and both directions", () => {
    expect(scenarios).toEqual(expect.arrayContaining(["ci-continue-on-error", "js-test-script-or-true", "js-vitest-exclude", "py-makefile-narrowed"]));
    const verdicts = scenarios.map((scenario) => (JSON.parse(readFileSync(join(FIXTURES_DIR, scenario, "expected.json"), "utf8")) as { verdict: string }).verdict);
    expect(new Set(verdicts)).toEqual(new Set(["PASS", "WARN", "BLOCK"]));
  });

  it.each(scenarios)("%s", async (scenario) => {
    const dir = join(FIXTURES_DIR, scenario);
    const expected = expectedSchema.parse(JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")));
    const changes = diffTrees(join(dir, "before"), join(dir, "after"));
    expect(changes.length).toBeGreaterThan(0);

    const analysis = await analyzeChanges(changes, { allow: expected.allow });

    expect(analysis.verdict).toBe(expected.verdict);
    expect(analysis.findings, JSON.stringify(analysis.findings, null, 2)).toHaveLength(expected.findings.length);
    const remaining = [...analysis.findings];
    for (const wanted of expected.findings) {
      const keys = Object.keys(wanted);
      const index = remaining.findIndex((finding) => JSON.stringify(project(finding, keys)) === JSON.stringify(project(wanted as unknown as Finding, keys)));
      expect(index, `no finding matches ${JSON.stringify(wanted)} in ${JSON.stringify(analysis.findings)}`).not.toBe(-1);
      remaining.splice(index, 1);
    }
  });
});
