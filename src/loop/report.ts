/**
 * The loop's progress report (reference/agent-persistence-integration.txt,
 * "Loop Completion Flow" step 2, "Generate Progress Report": total
 * iterations, quality trajectory, regression events, recovery attempts,
 * best vs final iteration, cost metrics; "Performance Targets"; DESIGN.md
 * "Loop engine": `analytics/analytics.json` and `analytics/report.md`).
 *
 * Pure functions: a {@link LoopState} plus an already summarised hook log
 * in, data or text out. Nothing here reads or writes files; the command
 * (`src/cli/commands/report.ts`) does. The hook log is summarised by the
 * caller with `summarizeHookLog` (src/hooks/hook-log.ts), since `loop/`
 * never imports `hooks/` (DESIGN.md "The layers").
 *
 * Units: durations in ms, quality in points 0-100, percentages 0-100, cost in USD.
 */
import { DEFAULT_QUALITY_THRESHOLD, selectBest } from "./progress.js";
import { computeQuality } from "./quality.js";
import type { IterationRecord, LoopState, LoopStatus, RecoveryRecord, RegressionEvent } from "./state.js";

/** The quality threshold of best-output selection (reference guide "best_output_selection.quality_threshold", DESIGN.md "Best output"). */
export { DEFAULT_QUALITY_THRESHOLD };

/** Points within which a delta counts as flat for {@link classifyTrajectory}. */
export const DEFAULT_TRAJECTORY_TOLERANCE = 2;

/**
 * {@link hasDiminishingReturns} defaults: the last 3 deltas each below 5
 * points, after a gain of at least 5 points (the plateau rule of DESIGN.md
 * "Loop engine": "last 3 deltas < 5%", on a 0-100 scale).
 */
export const DEFAULT_DIMINISHING_RETURNS = { window: 3, minGainPoints: 5 } as const;

/**
 * The reference guide's performance targets ("Performance Targets", from
 * NFR-AP-001..003): each value must be strictly below its target.
 */
export const PERFORMANCE_TARGETS = {
  detection_latency_p95_ms: 500,
  detection_latency_p99_ms: 1000,
  integration_overhead_percentage: 10,
  false_positive_rate: 5,
} as const;

/** A performance metric name (a key of {@link PERFORMANCE_TARGETS}). */
export type PerformanceMetric = keyof typeof PERFORMANCE_TARGETS;

/** How quality moved over the loop; see {@link classifyTrajectory}. */
export type QualityTrajectory = "improving" | "stable" | "declining" | "fluctuating";

/**
 * Hook latency of one event, in ms: the shape of `EventLatency` from
 * src/hooks/hook-log.ts (`summarizeHookLog`), which satisfies it.
 */
export interface HookEventLatency {
  event: string;
  calls: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** The hook log as the report needs it; built by the caller from `hook-log.jsonl`. */
export interface HookLogSummary {
  /** Per event, in order of first appearance (`summarizeHookLog`). */
  events: readonly HookEventLatency[];
  /** Over every call (whole hook process, ms), or null when nothing was logged. */
  overall: { calls: number; p95_ms: number; p99_ms: number } | null;
  /** Time inside hooks as a percent (0-100) of the span of the log (`hookSharePercent`); null with fewer than 2 calls. */
  hook_share_percent: number | null;
}

/** A hook log with nothing in it. */
export const EMPTY_HOOK_LOG: HookLogSummary = { events: [], overall: null, hook_share_percent: null };

/** One iteration as reported: the fields of `iteration_history[]` a reader compares. */
export interface IterationAnalytics {
  iteration: number;
  /** 0-100. */
  quality_score: number;
  /** Points against the previous iteration: the recorded delta, else computed from the previous record; null for the first. */
  quality_delta: number | null;
  duration_ms: number | null;
  tokens: number | null;
  cost_usd: number | null;
  verification_status: "passed" | "failed" | "unknown";
  regression_detected: boolean;
  findings: { block: number; warn: number; types: string[] };
}

/** One performance figure against its target. */
export interface PerformanceTarget {
  metric: PerformanceMetric;
  /** The measured value (ms or percent 0-100), null when not measured. */
  value: number | null;
  /** The value must be strictly below this. */
  target: number;
  unit: "ms" | "percent";
  /** `value < target`; null when not measured. */
  met: boolean | null;
  /**
   * Where the value came from: `state` (`persistence_metrics`), `hook-log`
   * (the whole hook process over every logged call: an upper bound of
   * detection latency), `regression-events` (human approvals over
   * decisions), or null when not measured.
   */
  source: "state" | "hook-log" | "regression-events" | null;
}

/** What `ralph select --best` would restore, by DESIGN.md's rule (see {@link selectBestCandidate}). */
export interface BestCandidate {
  iteration: number;
  quality_score: number;
  verified: boolean;
}

/**
 * `analytics/analytics.json` (reference guide "analytics.json: Iteration
 * analytics", "Loop Completion Flow"). Keys are snake_case like state.json.
 */
export interface LoopAnalytics {
  /** The format of this document. */
  format: "ralph-analytics/1";
  generated_at: string;
  loop_id: string;
  task: string;
  completion_criteria: string;
  status: LoopStatus;
  status_reason: string | null;
  started_at: string;
  /** `completed_at` of the state: null while the loop is not terminal. */
  ended_at: string | null;
  /** Quality threshold of best-output selection, points 0-100. */
  quality_threshold: number;
  /** The loop's starting point ({@link baselineQuality}); null when it has no baseline metrics or is scored by a command. */
  baseline: BaselineAnalytics | null;
  iterations: IterationAnalytics[];
  /** Highest quality; ties go to the earliest verified iteration, else the earliest. Null without iterations. */
  optimal_iteration: number | null;
  optimal_quality: number | null;
  /** The last ended iteration. */
  final_iteration: number | null;
  final_quality: number | null;
  /** `state.selected_iteration`: what `ralph select --best` restored, or null. */
  selected_iteration: number | null;
  /** `state.best_iteration.iteration`: the loop's own best tracker, or null. */
  tracked_best_iteration: number | null;
  /** What `ralph select --best` would restore now; null when no iteration reaches the threshold. */
  select_best_candidate: BestCandidate | null;
  /** optimal_quality - final_quality, points (>= 0); null without iterations. */
  best_vs_final: number | null;
  /** final_quality - first iteration's quality, points; null without iterations. */
  net_change: number | null;
  quality_trajectory: QualityTrajectory;
  diminishing_returns: boolean;
  /** The parameters the two rules above used. */
  rules: { trajectory_tolerance_points: number; diminishing_returns_window: number; diminishing_returns_min_gain_points: number };
  totals: {
    iterations: number;
    verified_iterations: number;
    /** Sums over iterations that recorded the figure; null when none did. */
    duration_ms: number | null;
    tokens: number | null;
    cost_usd: number | null;
    regressions: { total: number; by_type: Record<string, number>; by_severity: Record<string, number>; by_outcome: Record<string, number> };
    recoveries: { total: number; by_outcome: Record<string, number> };
    /** Answers at the human gate (`ralph approve | reject | abort`). */
    human_decisions: { approve: number; reject: number; abort: number };
    reinforcement_changes: number;
    reinforcement_level: string;
  };
  performance: {
    hook_calls: number;
    /** Per hook event, ms (whole hook process). */
    hook_events: HookEventLatency[];
    hook_share_percent: number | null;
    targets: PerformanceTarget[];
    /** True when every measured target is met; null when none is measured. */
    all_measured_met: boolean | null;
  };
}

/** The loop's starting point as the chart plots it (see {@link baselineQuality}). */
export interface BaselineAnalytics {
  /** 0-100. */
  quality_score: number;
  /** `recorded`: the baseline metrics carry a `quality_score`; `computed`: ralph's formula on the baseline metrics. */
  source: "recorded" | "computed";
  test_count: number | null;
  coverage_percentage: number | null;
}

/**
 * The baseline's quality, 0-100: a `quality_score` recorded with the
 * baseline metrics, else the default formula (src/loop/quality.ts) applied
 * to the baseline metrics the way an iteration's are: the tree compared with
 * the baseline (itself: no finding, test count and coverage equal), and the
 * completion command counted as not passed, since the loop starts because
 * the task is not done (an iteration that changes nothing scores the same).
 * Null without baseline metrics, or for a loop scored by its `--quality`
 * command, which never ran on the baseline (ralph's formula would not
 * compare with its scores).
 */
export function baselineQuality(state: LoopState): BaselineAnalytics | null {
  const metrics = state.baseline_metrics;
  if (!metrics) return null;
  const recorded = (metrics as Record<string, unknown>).quality_score;
  const base = { test_count: metrics.test_count, coverage_percentage: metrics.coverage_percentage };
  if (typeof recorded === "number" && Number.isFinite(recorded)) return { quality_score: Math.min(100, Math.max(0, recorded)), source: "recorded", ...base };
  if (state.quality_command) return null;
  const score = computeQuality({ completionPassed: false, blockingFindings: 0, metrics, baseline: metrics }).score;
  return { quality_score: score, source: "computed", ...base };
}

/** Options of {@link buildAnalytics}. */
export interface AnalyticsOptions {
  /** ISO-8601 time written as `generated_at`. */
  nowIso: string;
  /** Points 0-100; default {@link DEFAULT_QUALITY_THRESHOLD}. */
  qualityThreshold?: number;
  /** Points; default {@link DEFAULT_TRAJECTORY_TOLERANCE}. */
  trajectoryTolerance?: number;
  /** Default {@link DEFAULT_DIMINISHING_RETURNS}. */
  diminishingReturns?: { window: number; minGainPoints: number };
}

/** The iteration records of a state in iteration order; a number recorded twice keeps its last record. */
export function orderedIterations(state: LoopState): IterationRecord[] {
  const byNumber = new Map<number, IterationRecord>();
  for (const record of state.iteration_history) byNumber.set(record.iteration, record);
  return [...byNumber.values()].sort((a, b) => a.iteration - b.iteration);
}

/** Differences of consecutive scores (points): `scores[i+1] - scores[i]`; empty for fewer than 2 scores. */
export function qualityDeltas(scores: readonly number[]): number[] {
  return scores.slice(1).map((score, i) => score - (scores[i] as number));
}

/**
 * The quality trajectory of a loop from its scores in iteration order.
 *
 * Rule: take the deltas of consecutive scores; a delta above `+tolerance`
 * is a rise, below `-tolerance` a fall, anything within `±tolerance`
 * (inclusive) is flat. Then
 *
 * | rises | falls | trajectory  |
 * |-------|-------|-------------|
 * | none  | none  | stable      | (also 0 or 1 score)
 * | some  | none  | improving   |
 * | none  | some  | declining   |
 * | some  | some  | fluctuating |
 *
 * So 60, 85, 83, 80 (deltas +25, -2, -3; tolerance 2) is fluctuating: it
 * rose and then fell by more than the tolerance. The rule looks at the
 * whole run; the report gives best vs final and the net change beside it.
 * @param scores quality scores 0-100 in iteration order.
 * @param tolerance points; default {@link DEFAULT_TRAJECTORY_TOLERANCE}.
 */
export function classifyTrajectory(scores: readonly number[], tolerance: number = DEFAULT_TRAJECTORY_TOLERANCE): QualityTrajectory {
  let rises = 0;
  let falls = 0;
  for (const delta of qualityDeltas(scores)) {
    if (delta > tolerance) rises++;
    else if (delta < -tolerance) falls++;
  }
  if (rises > 0 && falls > 0) return "fluctuating";
  if (rises > 0) return "improving";
  if (falls > 0) return "declining";
  return "stable";
}

/**
 * Diminishing returns: the loop gained, then stopped gaining.
 *
 * Rule: with the deltas of consecutive scores, true when (a) each of the
 * last `window` deltas is below `minGainPoints` (signed: a fall counts as
 * no gain), and (b) some delta before those is at least `minGainPoints`.
 * Fewer than `window + 1` deltas: false. Defaults (window 3, 5 points) are
 * DESIGN.md's plateau rule; so 60, 85, 83, 80 is false (only two small
 * deltas after the gain) and 60, 85, 83, 80, 81 is true.
 * @param scores quality scores 0-100 in iteration order.
 */
export function hasDiminishingReturns(scores: readonly number[], rule: { window: number; minGainPoints: number } = DEFAULT_DIMINISHING_RETURNS): boolean {
  const deltas = qualityDeltas(scores);
  if (rule.window < 1 || deltas.length < rule.window + 1) return false;
  const recent = deltas.slice(-rule.window);
  const before = deltas.slice(0, -rule.window);
  return recent.every((d) => d < rule.minGainPoints) && before.some((d) => d >= rule.minGainPoints);
}

/**
 * The optimal iteration: the highest quality; among equals, the earliest
 * verified (`verification_status` "passed"), else the earliest. Null for none.
 */
export function findOptimalIteration(records: readonly IterationRecord[]): IterationRecord | null {
  let best: IterationRecord | null = null;
  for (const record of [...records].sort((a, b) => a.iteration - b.iteration)) {
    if (best === null || record.quality_score > best.quality_score) best = record;
    else if (record.quality_score === best.quality_score && record.verification_status === "passed" && best.verification_status !== "passed") best = record;
  }
  return best;
}

/**
 * What `ralph select --best` restores, by DESIGN.md "Best output" and the
 * reference guide's "Best Output Selection Algorithm": iterations with
 * quality >= `threshold`; the verified ones if any is; the highest score;
 * among equals the earliest. Null when none reaches the threshold.
 */
export function selectBestCandidate(records: readonly IterationRecord[], threshold: number = DEFAULT_QUALITY_THRESHOLD, requireVerification = false): BestCandidate | null {
  const chosen = selectBest(records, { qualityThreshold: threshold, requireVerification });
  return chosen ? { iteration: chosen.record.iteration, quality_score: chosen.record.quality_score, verified: chosen.record.verification_status === "passed" } : null;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

function targetRow(metric: PerformanceMetric, value: number | null, source: PerformanceTarget["source"]): PerformanceTarget {
  const target = PERFORMANCE_TARGETS[metric];
  return {
    metric,
    value,
    target,
    unit: metric.endsWith("_ms") ? "ms" : "percent",
    met: value === null ? null : value < target,
    source: value === null ? null : source,
  };
}

/**
 * The performance rows: `persistence_metrics` when the loop measured a
 * figure, else the best stand-in: detection latency from the hook log
 * (whole hook process over every call), overhead from the hook log's share
 * of its own span, false positives as approvals over human decisions.
 */
export function performanceTargets(state: LoopState, hooks: HookLogSummary): PerformanceTarget[] {
  const pm = state.persistence_metrics;
  const decided = state.regression_events.filter((e) => e.human_decision !== null);
  const approved = decided.filter((e) => e.human_decision === "approve").length;
  const pick = (metric: PerformanceMetric, own: number | null, fallback: number | null, fallbackSource: PerformanceTarget["source"]): PerformanceTarget =>
    own !== null ? targetRow(metric, own, "state") : targetRow(metric, fallback, fallbackSource);
  return [
    pick("detection_latency_p95_ms", pm.detection_latency_p95_ms, hooks.overall?.p95_ms ?? null, "hook-log"),
    pick("detection_latency_p99_ms", pm.detection_latency_p99_ms, hooks.overall?.p99_ms ?? null, "hook-log"),
    pick("integration_overhead_percentage", pm.integration_overhead_percentage, hooks.hook_share_percent, "hook-log"),
    pick("false_positive_rate", pm.false_positive_rate, decided.length > 0 ? Math.round((approved / decided.length) * 1000) / 10 : null, "regression-events"),
  ];
}

/** Builds `analytics.json` from a state and its summarised hook log; see {@link LoopAnalytics} for every field. */
export function buildAnalytics(state: LoopState, hooks: HookLogSummary, options: AnalyticsOptions): LoopAnalytics {
  const threshold = options.qualityThreshold ?? DEFAULT_QUALITY_THRESHOLD;
  const tolerance = options.trajectoryTolerance ?? DEFAULT_TRAJECTORY_TOLERANCE;
  const diminishing = options.diminishingReturns ?? DEFAULT_DIMINISHING_RETURNS;
  const records = orderedIterations(state);
  const scores = records.map((r) => r.quality_score);
  // An iteration had a regression when its stop found one or a hook recorded one during it (the regressions table lists both).
  const eventIterations = new Set(state.regression_events.map((e) => e.iteration));
  const iterations: IterationAnalytics[] = records.map((r, i) => ({
    iteration: r.iteration,
    quality_score: r.quality_score,
    quality_delta: r.quality_delta ?? (i === 0 ? null : r.quality_score - (records[i - 1] as IterationRecord).quality_score),
    duration_ms: r.duration_ms,
    tokens: r.tokens,
    cost_usd: r.cost_usd,
    verification_status: r.verification_status,
    regression_detected: r.regression_detected || eventIterations.has(r.iteration),
    findings: { block: r.findings.block, warn: r.findings.warn, types: [...r.findings.types] },
  }));
  const optimal = findOptimalIteration(records);
  const final = records.at(-1) ?? null;
  const first = records[0] ?? null;
  const events = state.regression_events;
  const targets = performanceTargets(state, hooks);
  const measured = targets.filter((t) => t.met !== null);
  const decisions = { approve: 0, reject: 0, abort: 0 };
  for (const e of events) if (e.human_decision !== null) decisions[e.human_decision]++;
  return {
    format: "ralph-analytics/1",
    generated_at: options.nowIso,
    loop_id: state.loop_id,
    task: state.task,
    completion_criteria: state.completion_criteria,
    status: state.status,
    status_reason: state.status_reason,
    started_at: state.started_at,
    ended_at: state.completed_at,
    quality_threshold: threshold,
    baseline: baselineQuality(state),
    iterations,
    optimal_iteration: optimal?.iteration ?? null,
    optimal_quality: optimal?.quality_score ?? null,
    final_iteration: final?.iteration ?? null,
    final_quality: final?.quality_score ?? null,
    selected_iteration: state.selected_iteration,
    tracked_best_iteration: state.best_iteration?.iteration ?? null,
    select_best_candidate: selectBestCandidate(records, threshold),
    best_vs_final: optimal && final ? Math.round((optimal.quality_score - final.quality_score) * 10) / 10 : null,
    net_change: first && final ? final.quality_score - first.quality_score : null,
    quality_trajectory: classifyTrajectory(scores, tolerance),
    diminishing_returns: hasDiminishingReturns(scores, diminishing),
    rules: { trajectory_tolerance_points: tolerance, diminishing_returns_window: diminishing.window, diminishing_returns_min_gain_points: diminishing.minGainPoints },
    totals: {
      iterations: records.length,
      verified_iterations: records.filter((r) => r.verification_status === "passed").length,
      duration_ms: sumOrNull(records.map((r) => r.duration_ms)),
      tokens: sumOrNull(records.map((r) => r.tokens)),
      cost_usd: sumOrNull(records.map((r) => r.cost_usd)),
      regressions: {
        total: events.length,
        by_type: countBy(events, (e) => e.regression_type),
        by_severity: countBy(events, (e) => e.severity),
        by_outcome: countBy(events, (e) => e.recovery_outcome),
      },
      recoveries: { total: state.recovery_history.length, by_outcome: countBy(state.recovery_history, (r) => r.outcome) },
      human_decisions: decisions,
      reinforcement_changes: state.reinforcement_history.length,
      reinforcement_level: state.reinforcement_level,
    },
    performance: {
      hook_calls: hooks.overall?.calls ?? hooks.events.reduce((sum, e) => sum + e.calls, 0),
      hook_events: hooks.events.map((e) => ({ event: e.event, calls: e.calls, p50_ms: e.p50_ms, p95_ms: e.p95_ms, p99_ms: e.p99_ms, max_ms: e.max_ms })),
      hook_share_percent: hooks.hook_share_percent,
      targets,
      all_measured_met: measured.length === 0 ? null : measured.every((t) => t.met === true),
    },
  };
}

const SPARK_BARS = "▁▂▃▄▅▆▇█";

/**
 * A terminal sparkline of quality scores (0-100) on a fixed 0-100 scale,
 * so two loops' lines compare: 0-12.4 → ▁ … 87.5-100 → █. More scores than
 * `maxWidth` (default 60) are bucketed: each character is the mean of its
 * bucket. Empty string for no scores.
 */
export function sparkline(scores: readonly number[], maxWidth = 60): string {
  if (scores.length === 0) return "";
  const width = Math.max(1, Math.min(scores.length, maxWidth));
  let out = "";
  for (let i = 0; i < width; i++) {
    const from = Math.floor((i * scores.length) / width);
    const to = Math.max(from + 1, Math.floor(((i + 1) * scores.length) / width));
    const bucket = scores.slice(from, to);
    const mean = bucket.reduce((a, b) => a + b, 0) / bucket.length;
    const clamped = Math.min(100, Math.max(0, mean));
    out += SPARK_BARS[Math.min(SPARK_BARS.length - 1, Math.floor((clamped / 100) * SPARK_BARS.length))];
  }
  return out;
}

// ---------------------------------------------------------------- report.md

/** Markdown-safe inline text: one line, HTML specials as entities, Markdown punctuation backslash-escaped. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_[\]|#!~])/g, "\\$1");
}

function code(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line === "") return "(none)";
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = line.startsWith("`") || line.endsWith("`") ? " " : "";
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** A duration in ms as people read it: `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`. */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "-";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const totalS = Math.round(s);
  if (totalS < 3600) return `${Math.floor(totalS / 60)} min ${String(totalS % 60).padStart(2, "0")} s`;
  const totalMin = Math.round(totalS / 60);
  return `${Math.floor(totalMin / 60)} h ${String(totalMin % 60).padStart(2, "0")} min`;
}

function usd(value: number | null): string {
  if (value === null) return "-";
  return `$${value < 1 ? value.toFixed(4) : value.toFixed(2)}`;
}

function signed(n: number | null): string {
  if (n === null) return "-";
  const r = Math.round(n * 10) / 10;
  return r > 0 ? `+${r}` : r < 0 ? `−${-r}` : "0";
}

function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ("l" | "r")[]): string {
  const sep = header.map((_, i) => ((align?.[i] ?? "l") === "r" ? "---:" : "---"));
  return [header, sep, ...rows].map((row) => `| ${row.join(" | ")} |`).join("\n");
}

function listCounts(counts: Record<string, number>): string {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.map(([k, n]) => `${n} ${k.replace(/_/g, " ")}`).join(", ");
}

const METRIC_LABEL: Record<PerformanceMetric, string> = {
  detection_latency_p95_ms: "Detection latency p95",
  detection_latency_p99_ms: "Detection latency p99",
  integration_overhead_percentage: "Integration overhead",
  false_positive_rate: "False-positive rate",
};

function metricValue(t: PerformanceTarget): string {
  if (t.value === null) return "not measured";
  return t.unit === "ms" ? `${t.value} ms` : `${t.value}%`;
}

/** The summary paragraph of report.md (also the first thing `ralph report` says, in plain words). */
export function summarize(a: LoopAnalytics): string {
  const parts: string[] = [];
  const task = a.task.trim() === "" ? "an unnamed task" : `“${escapeMarkdown(a.task)}”`;
  const command = a.completion_criteria.trim() === "" ? "" : ` (done when ${code(a.completion_criteria)} exits 0)`;
  const how = `${a.status}${a.status_reason ? ` (${escapeMarkdown(a.status_reason)})` : ""}`;
  parts.push(`Loop ${code(a.loop_id)} was asked to work on ${task}${command}.`);
  if (a.iterations.length === 0) {
    parts.push(`It is **${how}** and no iteration has ended yet, so there is no quality to report.`);
    return parts.join(" ");
  }
  const span = a.ended_at ? `, from ${a.started_at} to ${a.ended_at}` : `, started ${a.started_at}`;
  parts.push(`It is **${how}** after ${plural(a.iterations.length, "iteration")}${span}.`);
  const firstQ = a.iterations[0]?.quality_score;
  if (a.iterations.length === 1) parts.push(`Its one iteration (#${a.final_iteration}) scored ${a.final_quality}.`);
  else if (a.best_vs_final === 0 && a.optimal_iteration === a.final_iteration)
    parts.push(`Quality went from ${firstQ} to ${a.final_quality}, and the final iteration (#${a.final_iteration}) was also the best.`);
  else if (a.best_vs_final === 0)
    parts.push(`Quality went from ${firstQ} to ${a.final_quality}; the final iteration (#${a.final_iteration}) ties the best score, first reached at iteration ${a.optimal_iteration}.`);
  else
    parts.push(
      `Quality went from ${firstQ} to ${a.final_quality}; the best was ${a.optimal_quality} at iteration ${a.optimal_iteration}, ${plural(a.best_vs_final ?? 0, "point")} above the final iteration ${a.final_iteration}.`,
    );
  if (a.iterations.length > 1) {
    parts.push(`The trajectory was ${a.quality_trajectory}${a.diminishing_returns ? ", with diminishing returns at the end" : ""}.`);
  }
  const candidate = a.select_best_candidate;
  if (candidate) {
    const same = candidate.iteration === a.final_iteration ? ", the tree the loop ended with" : "";
    parts.push(`${code("ralph select --best")} would restore iteration ${candidate.iteration} (quality ${candidate.quality_score}, ${candidate.verified ? "verified" : "not verified"}${same}).`);
  } else {
    parts.push(`No iteration reached the quality threshold of ${a.quality_threshold}, so ${code("ralph select --best")} has nothing to restore.`);
  }
  if (a.selected_iteration !== null) parts.push(`Iteration ${a.selected_iteration} has been selected and restored.`);
  const r = a.totals.regressions;
  if (r.total === 0) parts.push("No regression was detected.");
  else parts.push(`${plural(r.total, "regression")} detected (${listCounts(r.by_type)}); outcomes: ${listCounts(r.by_outcome)}.`);
  const cost: string[] = [];
  // No agent turn emits 0 output tokens: a total of 0 (or none) means the transcripts gave no usage, not a free loop.
  const measuredTokens = a.iterations.filter((it) => it.tokens !== null && it.tokens > 0).length;
  if (a.totals.tokens !== null && a.totals.tokens > 0)
    cost.push(`${a.totals.tokens.toLocaleString("en-US")} output tokens${measuredTokens < a.iterations.length ? ` (measured in ${measuredTokens} of ${a.iterations.length} iterations)` : ""}`);
  if (a.totals.cost_usd !== null) cost.push(usd(a.totals.cost_usd));
  if (a.totals.duration_ms !== null) cost.push(`${formatDuration(a.totals.duration_ms)} of iteration time`);
  if (cost.length > 0) parts.push(`It used ${cost.join(", ")}.`);
  if (a.iterations.length > 0 && measuredTokens === 0) parts.push("Tokens were not measured (no transcript usage reached the Stop hook).");
  return parts.join(" ");
}

function pdareLines(record: RecoveryRecord): string[] {
  const s = record.steps;
  const lines = [
    `- **Pause**: ${s.PAUSE.actions.length > 0 ? escapeMarkdown(s.PAUSE.actions.join("; ")) : "no action recorded"}${s.PAUSE.checkpoint_ref && !s.PAUSE.actions.some((a) => a.includes(s.PAUSE.checkpoint_ref as string)) ? ` (kept at ${code(s.PAUSE.checkpoint_ref)})` : ""}`,
    `- **Diagnose**: ${escapeMarkdown(s.DIAGNOSE.diagnosis)}; root cause ${escapeMarkdown(s.DIAGNOSE.root_cause)}, confidence ${Math.round(s.DIAGNOSE.confidence * 100)}%`,
    `- **Adapt**: ${escapeMarkdown(s.ADAPT.strategy)}: ${escapeMarkdown(s.ADAPT.message)}`,
    `- **Retry**: ${s.RETRY ? `attempt ${s.RETRY.attempt} of ${s.RETRY.max_retries}` : "none"}`,
    `- **Escalate**: ${s.ESCALATE ? `${escapeMarkdown(s.ESCALATE.gate_type)} gate: ${escapeMarkdown(s.ESCALATE.reason)}` : "no"}`,
  ];
  return lines;
}

function regressionRow(e: RegressionEvent): string[] {
  return [
    escapeMarkdown(e.event_id),
    String(e.iteration),
    escapeMarkdown(e.regression_type),
    e.severity,
    e.recovery_outcome.replace(/_/g, " "),
    e.human_gate_invoked ? (e.human_decision ?? "waiting") : "not asked",
  ];
}

/**
 * `analytics/report.md`: summary paragraph, the chart (`quality.svg`
 * beside it), iterations, regressions and what became of them, recoveries
 * (PDARE steps), reinforcement changes, performance against targets.
 * Every piece of state text is escaped ({@link escapeMarkdown}).
 * @param state the state the analytics were built from (for the recovery and reinforcement records).
 */
export function renderReportMarkdown(a: LoopAnalytics, state: LoopState, options: { chartFile?: string } = {}): string {
  const out: string[] = [];
  out.push(`# ralph report: ${escapeMarkdown(a.loop_id)}`, "");
  out.push(summarize(a), "");
  if (a.iterations.length > 0) out.push(`![quality per iteration](${options.chartFile ?? "quality.svg"})`, "");

  out.push("## Iterations", "");
  if (a.iterations.length === 0) out.push("No iteration has ended yet.", "");
  else {
    const rows = a.iterations.map((it) => {
      const notes: string[] = [];
      if (it.iteration === a.optimal_iteration) notes.push("best");
      if (it.iteration === a.final_iteration) notes.push("final");
      if (it.iteration === a.selected_iteration) notes.push("selected");
      if (it.quality_score < a.quality_threshold) notes.push("below threshold");
      const findings =
        it.findings.block + it.findings.warn === 0
          ? "-"
          : `${it.findings.block} block, ${it.findings.warn} warn${it.findings.types.length > 0 ? ` (${escapeMarkdown(it.findings.types.join(", "))})` : ""}`;
      return [
        String(it.iteration),
        String(it.quality_score),
        signed(it.quality_delta),
        it.verification_status,
        it.regression_detected ? "**yes**" : "no",
        findings,
        formatDuration(it.duration_ms),
        it.tokens === null ? "-" : it.tokens.toLocaleString("en-US"),
        usd(it.cost_usd),
        notes.join(", "),
      ];
    });
    out.push(table(["#", "quality", "Δ", "verification", "regression", "findings", "duration", "tokens", "cost", "note"], rows, ["r", "r", "r", "l", "l", "l", "r", "r", "r", "l"]), "");
    out.push(
      `Trajectory: **${a.quality_trajectory}** (deltas beyond ±${a.rules.trajectory_tolerance_points} points count as a rise or fall). ` +
        `Diminishing returns: **${a.diminishing_returns ? "yes" : "no"}** (the last ${a.rules.diminishing_returns_window} deltas each below ${a.rules.diminishing_returns_min_gain_points} points after a gain of at least that).`,
      "",
    );
  }

  out.push("## Regressions", "");
  if (state.regression_events.length === 0) out.push("None detected.", "");
  else out.push(table(["event", "iteration", "type", "severity", "outcome", "human decision"], state.regression_events.map(regressionRow), ["l", "r", "l", "l", "l", "l"]), "");

  out.push("## Recoveries (PDARE)", "");
  if (state.recovery_history.length === 0) out.push("None ran.", "");
  for (const record of state.recovery_history) {
    out.push(`### ${escapeMarkdown(record.attempt_id)}: ${escapeMarkdown(record.event_id)}, iteration ${record.iteration}, ${record.outcome.replace(/_/g, " ")}`, "");
    out.push(...pdareLines(record), "");
  }

  out.push("## Reinforcement", "");
  if (state.reinforcement_history.length === 0) out.push(`No change; the level stayed ${state.reinforcement_level}.`, "");
  else
    out.push(
      table(
        ["iteration", "from", "to", "reason"],
        state.reinforcement_history.map((c) => [String(c.iteration), c.from_level, c.to_level, escapeMarkdown(c.reason)]),
        ["r", "l", "l", "l"],
      ),
      "",
    );

  out.push("## Performance against targets", "");
  out.push(
    table(
      ["metric", "value", "target", "met", "source"],
      a.performance.targets.map((t) => [METRIC_LABEL[t.metric], metricValue(t), `< ${t.target}${t.unit === "ms" ? " ms" : "%"}`, t.met === null ? "-" : t.met ? "yes" : "**no**", t.source ?? "-"]),
      ["l", "r", "r", "l", "l"],
    ),
    "",
  );
  const fromHookLog = a.performance.targets.some((t) => t.source === "hook-log");
  out.push(
    `Targets from the reference guide's Performance Targets (NFR-AP-001..003); each value must be below its target.${
      fromHookLog ? " Source `hook-log`: the whole hook process (Node start-up included) over every logged call, an upper bound of detection latency." : ""
    }`,
    "",
  );
  if (a.performance.hook_events.length > 0) {
    out.push(
      table(
        ["hook event", "calls", "p50 ms", "p95 ms", "p99 ms", "max ms"],
        a.performance.hook_events.map((e) => [escapeMarkdown(e.event), String(e.calls), String(e.p50_ms), String(e.p95_ms), String(e.p99_ms), String(e.max_ms)]),
        ["l", "r", "r", "r", "r", "r"],
      ),
      "",
    );
  } else out.push("No hook call was logged.", "");
  out.push(`_Generated ${a.generated_at} by \`ralph report\`._`, "");
  return out.join("\n");
}
