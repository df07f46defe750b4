/**
 * The quality score of an iteration, 0-100 (issue 5, "Quality score";
 * reference guide "Post-Iteration Flow": quality score with its breakdown).
 *
 * Default formula, in points:
 * - completion 50: the completion command passed on the iteration's tree;
 * - findings 20: no unallowed BLOCK finding (critical or high) against the baseline;
 * - tests 15: ralph's test count at or above the baseline's;
 * - coverage 15: line coverage at or above the baseline's (less a 0.5-point tolerance).
 * A component that was not measured (no baseline coverage, no test count)
 * gives its weight to the measured ones in proportion to their weights, so
 * the maximum stays 100. A loop's `--quality` command replaces the formula:
 * the last line of its output is the score.
 */
import type { MetricsSnapshot } from "./state.js";

/** Weights of the default formula's components, in points (sum 100). */
export const QUALITY_WEIGHTS = { completion: 50, findings: 20, tests: 15, coverage: 15 } as const;
/** A component of the default formula. */
export type QualityComponentName = keyof typeof QUALITY_WEIGHTS;

/** Percentage points the coverage may fall below the baseline and still earn its points. */
export const COVERAGE_TOLERANCE_POINTS = 0.5;

/** One component's points: `weight` after redistribution, `earned` of it, and whether it was measured. */
export interface QualityComponent {
  [extra: string]: unknown;
  weight: number;
  earned: number;
  measured: boolean;
  detail: string;
}

/** What the default formula looks at. */
export interface QualityInputs {
  completionPassed: boolean;
  /** Unallowed critical or high findings against the baseline (null: the judgement failed). */
  blockingFindings: number | null;
  metrics: Pick<MetricsSnapshot, "test_count" | "coverage_percentage">;
  baseline: Pick<MetricsSnapshot, "test_count" | "coverage_percentage"> | null;
}

/** A score 0-100 (one decimal) and its components. */
export interface QualityScore {
  score: number;
  breakdown: Record<string, QualityComponent>;
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

/**
 * The default quality score (see the module doc). Pure.
 * @returns score rounded to one decimal, 0-100; components keyed completion | findings | tests | coverage.
 */
export function computeQuality(inputs: QualityInputs): QualityScore {
  const parts: Record<QualityComponentName, { measured: boolean; fraction: number; detail: string }> = {
    completion: { measured: true, fraction: inputs.completionPassed ? 1 : 0, detail: inputs.completionPassed ? "completion command passed" : "completion command failed" },
    findings:
      inputs.blockingFindings === null
        ? { measured: false, fraction: 0, detail: "findings against the baseline could not be computed" }
        : {
            measured: true,
            fraction: inputs.blockingFindings === 0 ? 1 : 0,
            detail: inputs.blockingFindings === 0 ? "no unallowed BLOCK finding against the baseline" : `${inputs.blockingFindings} unallowed BLOCK finding(s) against the baseline`,
          },
    tests: compareMetric(inputs.metrics.test_count, inputs.baseline?.test_count ?? null, 0, "test count"),
    coverage: compareMetric(inputs.metrics.coverage_percentage, inputs.baseline?.coverage_percentage ?? null, COVERAGE_TOLERANCE_POINTS, "coverage"),
  };
  const names = Object.keys(QUALITY_WEIGHTS) as QualityComponentName[];
  const measuredWeight = names.filter((n) => parts[n].measured).reduce((sum, n) => sum + QUALITY_WEIGHTS[n], 0);
  const scale = measuredWeight === 0 ? 0 : 100 / measuredWeight;
  const breakdown: Record<string, QualityComponent> = {};
  let score = 0;
  for (const name of names) {
    const part = parts[name];
    const weight = part.measured ? round1(QUALITY_WEIGHTS[name] * scale) : 0;
    const earned = round1(weight * part.fraction);
    score += QUALITY_WEIGHTS[name] * scale * (part.measured ? part.fraction : 0);
    breakdown[name] = { weight, earned, measured: part.measured, detail: part.detail };
  }
  return { score: Math.min(100, Math.max(0, round1(score))), breakdown };
}

function compareMetric(value: number | null, baseline: number | null, tolerance: number, label: string): { measured: boolean; fraction: number; detail: string } {
  if (value === null || baseline === null) return { measured: false, fraction: 0, detail: `${label} not measured${baseline === null ? " at the baseline" : ""}` };
  const ok = value >= baseline - tolerance;
  return { measured: true, fraction: ok ? 1 : 0, detail: `${label} ${value} ${ok ? ">=" : "<"} baseline ${baseline}` };
}

/**
 * Reads a quality command's output: its last non-empty line must be a
 * number 0-100, optionally followed by `%` (e.g. `85`, `72.5%`).
 * @returns the score, or an error line saying what the output ended with.
 */
export function parseQualityOutput(output: string): { score: number } | { error: string } {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const last = lines[lines.length - 1];
  if (last === undefined) return { error: "the quality command printed nothing; its last line must be a score 0-100" };
  const m = /^(-?\d+(?:\.\d+)?)\s*%?$/.exec(last);
  const value = m ? Number(m[1]) : Number.NaN;
  if (!Number.isFinite(value) || value < 0 || value > 100) {
    return { error: `the quality command's last line is "${last.slice(0, 80)}", not a score 0-100` };
  }
  return { score: round1(value) };
}
