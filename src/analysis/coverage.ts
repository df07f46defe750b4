/**
 * coverage_regression: a c8/istanbul `coverage-summary.json` (the
 * json-summary reporter) present on both sides whose total percentages went
 * down by more than a tolerance (DESIGN.md: medium).
 */

import { defaultSeverityOf } from "./rules/registry.js";
import type { FileChange, Finding, NotAnalyzed } from "./types.js";

/** The metrics of a json-summary `total` entry, in report order. */
export const COVERAGE_METRICS = ["lines", "statements", "branches", "functions"] as const;

/** One of {@link COVERAGE_METRICS}. */
export type CoverageMetric = (typeof COVERAGE_METRICS)[number];

/** Percentage points a metric may drop before it is a regression, unless the caller says otherwise. */
export const DEFAULT_COVERAGE_TOLERANCE_PERCENT = 0.5;

/** True for the json-summary file of c8, nyc, jest or vitest (`coverage/coverage-summary.json`, anywhere). */
export function isCoverageSummaryPath(path: string): boolean {
  return /(^|\/)coverage-summary\.json$/.test(path) && !/(^|\/)node_modules\//.test(path);
}

/**
 * The total percentage of each metric in a json-summary file. Metrics whose
 * `pct` is missing or not a number (istanbul writes "Unknown" when nothing
 * was counted) are left out.
 * @throws Error when the text is not JSON or has no `total` object.
 */
export function readCoverageTotals(text: string): Partial<Record<CoverageMetric, number>> {
  const parsed = JSON.parse(text) as unknown;
  const total = typeof parsed === "object" && parsed !== null ? (parsed as { total?: unknown }).total : undefined;
  if (typeof total !== "object" || total === null) throw new Error('no "total" entry');
  const totals: Partial<Record<CoverageMetric, number>> = {};
  for (const metric of COVERAGE_METRICS) {
    const pct = (total as Record<string, { pct?: unknown } | undefined>)[metric]?.pct;
    if (typeof pct === "number" && Number.isFinite(pct)) totals[metric] = pct;
  }
  return totals;
}

/** The result of {@link detectCoverageRegression}. */
export interface CoverageResult {
  findings: Finding[];
  notAnalyzed: NotAnalyzed[];
  /** Paths of the summaries that were compared. */
  analyzed: string[];
}

const round = (value: number): number => Math.round(value * 100) / 100;

/**
 * One medium coverage_regression finding per summary file whose metrics
 * fell more than `tolerancePercent` percentage points; its evidence has
 * every metric's before, after and change. Summaries present on one side
 * only are not judged. Never throws: an unreadable summary is listed in
 * `notAnalyzed`.
 */
export function detectCoverageRegression(changes: readonly FileChange[], tolerancePercent = DEFAULT_COVERAGE_TOLERANCE_PERCENT): CoverageResult {
  const result: CoverageResult = { findings: [], notAnalyzed: [], analyzed: [] };
  for (const change of changes) {
    if (!isCoverageSummaryPath(change.path) || change.before === null || change.after === null) continue;
    let before: Partial<Record<CoverageMetric, number>>;
    let after: Partial<Record<CoverageMetric, number>>;
    try {
      before = readCoverageTotals(change.before);
      after = readCoverageTotals(change.after);
    } catch (error) {
      result.notAnalyzed.push({ path: change.path, reason: `coverage summary not read: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    result.analyzed.push(change.path);
    const metrics: Record<string, { before: number; after: number; change: number }> = {};
    const dropped: string[] = [];
    for (const metric of COVERAGE_METRICS) {
      const was = before[metric];
      const now = after[metric];
      if (was === undefined || now === undefined) continue;
      const delta = round(now - was);
      metrics[metric] = { before: was, after: now, change: delta };
      if (was - now > tolerancePercent) dropped.push(`${metric} ${was}% -> ${now}%`);
    }
    if (dropped.length === 0) continue;
    result.findings.push({
      type: "coverage_regression",
      severity: defaultSeverityOf("coverage_regression"),
      file: change.path,
      line: null,
      message: `coverage fell below the baseline by more than ${tolerancePercent} percentage points: ${dropped.join(", ")}`,
      evidence: { metrics, tolerance_percent: tolerancePercent },
      allowed: false,
    });
  }
  return result;
}
