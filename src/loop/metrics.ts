/**
 * Metrics of a tree for the loop engine (reference guide, "Loop
 * Initialization Flow": test_count, coverage_percentage,
 * typescript_errors, lint_errors):
 * - `test_count` and `assertion_count` from ralph's own analysis, no test
 *   run: the test cases of every file a language reads, as its runner
 *   collects it (the discovery `ralph tests` uses: runner configs, ava's
 *   root `test.js`, Rust tests beside the code). The baseline counts the
 *   whole tree (facts cache: each blob is parsed once per extractor
 *   version); an iteration adds the difference over the changed files only.
 * - `coverage_percentage`: total line coverage of a c8/istanbul/jest/vitest
 *   json-summary, after running the configured coverage command (if any).
 * - `typescript_errors`, `lint_errors`: the configured commands' error
 *   counts (tsc's `error TS####` lines; eslint's `✖ N problems (E errors`
 *   summary, else its `error` lines; otherwise lines containing `error`).
 * Every command runs with a timeout; a failure leaves the metric null with
 * the reason in `errors`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { extractFacts, hasOwnRunner, languageForPath, TestDiscovery } from "../analysis/index.js";
import { readCoverageTotals } from "../analysis/coverage.js";
import type { CheckpointStore } from "../store/checkpoint-store.js";
import { walkTree } from "../store/tree-diff.js";
import { treeFiles } from "../store/tree-files.js";
import { openFactsCache, type DiskFactsCache } from "./facts-cache.js";
import { runCompletionCommand } from "./command.js";
import type { MetricsSnapshot } from "./state.js";

/** A metric command: what to run and its limit in ms. */
export interface MetricCommand {
  command: string;
  timeoutMs: number;
}

/** Which metrics to take beyond the test count (config `agent_persistence.metrics`). */
export interface MetricsSettings {
  coverage: { command: string | null; summaryPath: string; timeoutMs: number } | null;
  typescript: MetricCommand | null;
  lint: MetricCommand | null;
}

/** No commands; the coverage summary at its usual place is read when it exists. */
export const DEFAULT_METRICS_SETTINGS: MetricsSettings = {
  coverage: { command: null, summaryPath: "coverage/coverage-summary.json", timeoutMs: 300_000 },
  typescript: null,
  lint: null,
};

/**
 * Test cases and assertions one blob holds as its runner collects it: the
 * file's runner rules from the tree's {@link TestDiscovery} (the same
 * discovery `ralph tests` uses, so an ava `test.js` at the root, or a
 * runner config's own patterns, count the same in both); a file the runner
 * config leaves out counts 0 unless its framework runs itself. Binary and
 * unreadable files count 0. Facts come from (and go to) the facts cache
 * under the same key `ralph tests` uses.
 */
export async function countCollectedTests(store: CheckpointStore, discovery: TestDiscovery, path: string, oid: string, cache: DiskFactsCache | null): Promise<{ tests: number; assertions: number }> {
  if (languageForPath(path) === null) return { tests: 0, assertions: 0 };
  const collection = await discovery.collection(path);
  const content = store.odb.read(oid).content;
  if (content.subarray(0, 8000).includes(0)) return { tests: 0, assertions: 0 };
  const text = content.toString("utf8");
  const variant = collection.rules ? JSON.stringify(collection.rules) : undefined;
  let facts = cache?.get(path, text, variant);
  if (!facts) {
    facts = await extractFacts(path, text, collection.rules);
    cache?.set(path, text, facts, variant);
  }
  if (collection.collected === false && !hasOwnRunner(facts.frameworks)) return { tests: 0, assertions: 0 };
  return { tests: facts.tests.length, assertions: facts.tests.length > 0 ? facts.assertions : 0 };
}

const isFileEntry = (mode: string | null | undefined): boolean => mode !== "160000" && mode !== "120000";

/**
 * Test cases and assertions in a whole tree (see {@link countCollectedTests} for which files count).
 * @throws RalphError from the store (E_CORRUPT).
 */
export async function countTestsAtTree(store: CheckpointStore, treeOid: string): Promise<{ tests: number; assertions: number }> {
  const cache = openFactsCache(store.repo.ralphDir);
  const discovery = new TestDiscovery(treeFiles(store.odb, treeOid));
  let tests = 0;
  let assertions = 0;
  for (const [path, entry] of walkTree(store.odb, treeOid)) {
    if (!isFileEntry(entry.mode)) continue;
    const n = await countCollectedTests(store, discovery, path, entry.oid, cache);
    tests += n.tests;
    assertions += n.assertions;
  }
  cache.flush();
  return { tests, assertions };
}

/**
 * The change in test cases and assertions from one tree to another, over
 * the changed files only (so `count(to) = count(from) + delta` while the
 * runner configs do not change), each side judged by its own tree's discovery.
 */
export async function countTestsDelta(store: CheckpointStore, fromTree: string, toTree: string): Promise<{ tests: number; assertions: number }> {
  const cache = openFactsCache(store.repo.ralphDir);
  const fromDiscovery = new TestDiscovery(treeFiles(store.odb, fromTree));
  const toDiscovery = new TestDiscovery(treeFiles(store.odb, toTree));
  let tests = 0;
  let assertions = 0;
  for (const c of store.diff(fromTree, toTree)) {
    if (languageForPath(c.path) === null) continue;
    if (c.oldOid && isFileEntry(c.oldMode)) {
      const n = await countCollectedTests(store, fromDiscovery, c.path, c.oldOid, cache);
      tests -= n.tests;
      assertions -= n.assertions;
    }
    if (c.newOid && isFileEntry(c.newMode)) {
      const n = await countCollectedTests(store, toDiscovery, c.path, c.newOid, cache);
      tests += n.tests;
      assertions += n.assertions;
    }
  }
  cache.flush();
  return { tests, assertions };
}

/** Error count of a tsc run: `error TS1234` occurrences. */
export function countTypescriptErrors(output: string): number {
  return (output.match(/\berror TS\d+\b/g) ?? []).length;
}

/** Error count of a lint run: eslint's `✖ N problems (E errors, W warnings)` summary, else lines with an `error` word. */
export function countLintErrors(output: string): number {
  const summary = /\u2716\s+\d+\s+problems?\s+\((\d+)\s+errors?/.exec(output);
  if (summary) return Number(summary[1]);
  return output.split(/\r?\n/).filter((l) => /\berror\b/i.test(l)).length;
}

/** Total line coverage (percent 0-100) of the json-summary at `path` (absolute), or an error line. */
export function readCoveragePercent(path: string): { value: number } | { error: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return { error: `no coverage summary at ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  try {
    const totals = readCoverageTotals(text);
    const value = totals.lines ?? totals.statements;
    return value === undefined ? { error: `${path} has no line or statement total` } : { value };
  } catch (error) {
    return { error: `${path} is not a coverage summary: ${(error as Error).message}` };
  }
}

/**
 * Runs the configured metric commands in the work tree and reads the
 * coverage summary; fills coverage_percentage, typescript_errors and
 * lint_errors of `into` (mutated), with failures in `into.errors`.
 * Never throws for a failing command. `env` is the commands' whole
 * environment (the run's, src/runtime-env.ts `vars`, plus any extra).
 */
export async function measureCommandMetrics(workTree: string, settings: MetricsSettings, into: MetricsSnapshot, env: NodeJS.ProcessEnv): Promise<void> {
  if (settings.coverage) {
    const { command, summaryPath, timeoutMs } = settings.coverage;
    let ran = true;
    if (command) {
      const run = await runCompletionCommand(command, { cwd: workTree, timeoutMs, env });
      if (run.timedOut || run.exitCode === null) {
        into.errors.coverage_percentage = `coverage command ${run.timedOut ? `timed out after ${timeoutMs} ms` : "was killed"}`;
        ran = false;
      }
    }
    if (ran) {
      const read = readCoveragePercent(join(workTree, summaryPath));
      if ("value" in read) into.coverage_percentage = read.value;
      else if (command) into.errors.coverage_percentage = read.error;
    }
  }
  for (const [key, spec, count] of [
    ["typescript_errors", settings.typescript, countTypescriptErrors],
    ["lint_errors", settings.lint, countLintErrors],
  ] as const) {
    if (!spec) continue;
    const run = await runCompletionCommand(spec.command, { cwd: workTree, timeoutMs: spec.timeoutMs, env });
    if (run.timedOut || run.exitCode === null) into.errors[key] = `\`${spec.command}\` ${run.timedOut ? `timed out after ${spec.timeoutMs} ms` : "could not run"}`;
    else into[key] = count(run.output);
  }
}
