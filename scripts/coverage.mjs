#!/usr/bin/env node
/**
 * `npm run coverage`: runs the test suite (or the test files given as
 * arguments) with V8 coverage of src/ and prints line and branch coverage
 * per layer (src/store, src/analysis, src/loop, src/hooks, src/cli,
 * src/config, and the files directly in src/), in percent 0-100 with the
 * covered and total counts.
 *
 * Coverage comes from vitest's V8 provider (@vitest/coverage-v8): the same
 * V8 counters c8 reads, mapped through vite's source maps to the TypeScript
 * lines. c8 alone cannot map them: it reads src/*.ts from disk and applies
 * offsets of the code vitest transformed (errors.ts came out 79% covered by
 * c8 and 28% by the provider after one test file). Only code that runs in the
 * test processes counts: tests that spawn the built dist/cli.js add nothing,
 * which is why most command tests run in-process (runRalphInProcess).
 *
 * Writes coverage/coverage-summary.json (istanbul json-summary). Exits with
 * vitest's exit code when tests fail (the table is printed either way, if a
 * summary was written).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const REPORT_DIR = join(ROOT, "coverage");
const SUMMARY = join(REPORT_DIR, "coverage-summary.json");
const LAYERS = ["src/store", "src/analysis", "src/loop", "src/hooks", "src/cli", "src/config"];

rmSync(SUMMARY, { force: true });
const vitest = spawnSync(
  process.execPath,
  [
    join(ROOT, "node_modules", "vitest", "vitest.mjs"),
    "run",
    "--coverage.enabled",
    "--coverage.provider=v8",
    "--coverage.include=src/**/*.ts",
    "--coverage.reporter=json-summary",
    "--coverage.reporter=text-summary",
    "--coverage.reportOnFailure",
    `--coverage.reportsDirectory=${REPORT_DIR}`,
    ...process.argv.slice(2),
  ],
  { cwd: ROOT, stdio: "inherit" },
);
if (!existsSync(SUMMARY)) {
  console.error(`coverage: vitest wrote no ${relative(ROOT, SUMMARY)} (exit ${vitest.status ?? vitest.signal}); nothing to report`);
  process.exit(vitest.status || 1);
}

/** @type {Record<string, { lines: { total: number; covered: number }; branches: { total: number; covered: number } }>} */
const summary = JSON.parse(readFileSync(SUMMARY, "utf8"));
const rows = new Map([...LAYERS, "src (top level)"].map((layer) => [layer, { files: 0, lines: [0, 0], branches: [0, 0] }]));
for (const [file, counts] of Object.entries(summary)) {
  if (file === "total") continue;
  const rel = relative(ROOT, file).split(sep).join("/");
  const layer = LAYERS.find((l) => rel.startsWith(`${l}/`)) ?? (rel.startsWith("src/") ? "src (top level)" : null);
  if (layer === null) continue;
  const row = rows.get(layer);
  row.files++;
  row.lines[0] += counts.lines.covered;
  row.lines[1] += counts.lines.total;
  row.branches[0] += counts.branches.covered;
  row.branches[1] += counts.branches.total;
}
const pct = ([covered, total]) => (total === 0 ? "-" : `${((100 * covered) / total).toFixed(1)}%`);
const cell = (pair) => `${pct(pair).padStart(6)} (${pair[0]}/${pair[1]})`;
const total = { files: 0, lines: [0, 0], branches: [0, 0] };
console.log(`\n${"layer".padEnd(17)} ${"files".padStart(5)}  ${"lines".padEnd(22)} branches`);
for (const [layer, row] of rows) {
  console.log(`${layer.padEnd(17)} ${String(row.files).padStart(5)}  ${cell(row.lines).padEnd(22)} ${cell(row.branches)}`);
  total.files += row.files;
  for (const key of ["lines", "branches"]) for (const i of [0, 1]) total[key][i] += row[key][i];
}
console.log(`${"all of src".padEnd(17)} ${String(total.files).padStart(5)}  ${cell(total.lines).padEnd(22)} ${cell(total.branches)}`);
process.exit(vitest.status ?? 1);
