/**
 * Evaluation of an ended iteration (reference guide, "Post-Iteration
 * Flow"; DESIGN.md "Loop engine"): metrics of its tree, findings against
 * the baseline and against the previous iteration, the quality score, the
 * error signature and the changed files. Runs outside the state lock (it
 * reads git objects and may run commands); the caller records the result
 * under the lock with {@link applyEvaluation}.
 */
import type { AllowRule, Finding } from "../analysis/index.js";
import { isBlockingSeverity } from "../analysis/rules/registry.js";
import type { CheckpointStore } from "../store/checkpoint-store.js";
import { loopRefName, iterationRef } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import { runCompletionCommand, type CommandRun } from "./command.js";
import { judgeChange, type DetectionPolicy } from "./check.js";
import { countTestsAtTree, countTestsDelta, DEFAULT_METRICS_SETTINGS, measureCommandMetrics, type MetricsSettings } from "./metrics.js";
import { DEFAULT_PROGRESS_SETTINGS, errorSignature, recordIteration, type ProgressSettings, type ProgressSignals } from "./progress.js";
import { computeQuality, parseQualityOutput } from "./quality.js";
import { applyRecovery, DEFAULT_RECOVERY_SETTINGS, markRecovered, regressionsByType, type RecoveryOutcome, type RecoverySettings, type RegressionFinding } from "./recovery.js";
import type { ReinforcementLevel } from "./reinforcement.js";
import { MetricsSnapshotSchema, type IterationRecord, type LoopState, type MetricsSnapshot } from "./state.js";

/** Everything the loop engine is tuned by (config `agent_persistence`, else the reference guide's defaults). */
export interface LoopSettings {
  progress: ProgressSettings;
  recovery: RecoverySettings;
  metrics: MetricsSettings;
  /** Limit of a `--quality` command run, in ms. */
  qualityTimeoutMs: number;
  /** Allow rules of the config (`detection.allow`), beyond trailers and the loop's approvals. */
  allow: AllowRule[];
  /** The config's detection policy; null: every type at its built-in severity. */
  policy: DetectionPolicy | null;
  /** Blocks within one `stop_hook_active` chain before the stop is let through (`loop.max_consecutive_blocks`); default src/loop/stop.ts DEFAULT_MAX_CONSECUTIVE_BLOCKS. */
  maxConsecutiveBlocks?: number;
  /** The user's reinforcement templates per level (`reinforcement.templates_dir`); absent levels use the built-in text. */
  templates?: Partial<Record<ReinforcementLevel, string>>;
}

/** The reference guide's defaults. */
export const DEFAULT_LOOP_SETTINGS: LoopSettings = {
  progress: DEFAULT_PROGRESS_SETTINGS,
  recovery: DEFAULT_RECOVERY_SETTINGS,
  metrics: DEFAULT_METRICS_SETTINGS,
  qualityTimeoutMs: 60_000,
  allow: [],
  policy: null,
};

/** The result of {@link evaluateIteration}, recorded by {@link applyEvaluation}. */
export interface Evaluation {
  /** The iteration's record (its `quality_delta` is filled when recorded). */
  record: IterationRecord;
  /** Baseline metrics measured now because the state had none (null: the state's are kept). */
  baselineMetrics: MetricsSnapshot | null;
  /** Critical/high findings against the last good iteration (see {@link lastGoodIteration}) whose type is still open against the baseline, grouped by type. */
  regressions: RegressionFinding[];
  /** Types of the unallowed critical/high findings against the baseline. */
  openTypes: Set<string>;
  /** Unallowed critical/high findings against the baseline (null: the judgement failed). */
  blockingVsBaseline: Finding[] | null;
  /** Time spent judging (both judgements), ms. */
  detectionMs: number;
}

const isBlocking = (f: Finding): boolean => !f.allowed && isBlockingSeverity(f.severity);

function commitRev(store: CheckpointStore, oid: string, label: string): { kind: "commit"; oid: string; treeOid: string; label: string } {
  return { kind: "commit", oid, treeOid: store.readCheckpoint(oid).treeOid, label };
}

/** Context of {@link evaluateIteration}. */
export interface EvaluationContext {
  store: CheckpointStore;
  loop: LoopId;
  /** The state before this iteration is recorded. */
  state: LoopState;
  iteration: number;
  checkpoint: { oid: string; treeOid: string };
  run: CommandRun;
  passed: boolean;
  startedIso: string | null;
  endedIso: string;
  settings: LoopSettings;
  env?: NodeJS.ProcessEnv;
}

/**
 * Measures and judges an ended iteration (see the module doc). Never throws
 * for analysis problems: a failed judgement leaves findings unmeasured
 * (`blockingVsBaseline` null) with the reason in the metrics' `errors`.
 */
export async function evaluateIteration(ctx: EvaluationContext): Promise<Evaluation> {
  const { store, loop, state, iteration } = ctx;
  const workTree = store.repo.workTree;
  const baselineOid = store.readLoopRef(loop, "baseline");
  const metrics = MetricsSnapshotSchema.parse({ captured_at: ctx.endedIso });
  let baselineMetrics: MetricsSnapshot | null = null;
  let baseline = state.baseline_metrics;
  if (baseline === null && baselineOid) {
    baselineMetrics = await captureBaselineMetrics(store, baselineOid, ctx.endedIso, { ...ctx.settings.metrics, coverage: null, typescript: null, lint: null });
    baseline = baselineMetrics;
  }
  const detectStarted = performance.now();
  let blockingVsBaseline: Finding[] | null = null;
  let warnVsBaseline = 0;
  let regressions: RegressionFinding[] = [];
  const openTypes = new Set<string>();
  const judgeOptions = { allow: [...ctx.settings.allow, ...(state.allow_rules as AllowRule[])], ...(ctx.settings.policy ? { policy: ctx.settings.policy } : {}) };
  const current = commitRev(store, ctx.checkpoint.oid, `iteration ${iteration}`);
  if (baselineOid) {
    try {
      const vsBaseline = await judgeChange(store, commitRev(store, baselineOid, "@baseline"), current, judgeOptions);
      blockingVsBaseline = vsBaseline.findings.filter(isBlocking);
      warnVsBaseline = vsBaseline.findings.filter((f) => !f.allowed && !isBlocking(f)).length;
      for (const f of blockingVsBaseline) openTypes.add(f.type);
      const lastGood = lastGoodIteration(state, iteration);
      const previousOid = lastGood?.checkpoint_oid ?? baselineOid;
      const previousLabel = lastGood ? `iteration ${lastGood.iteration}` : "@baseline";
      const vsPrevious = previousOid === baselineOid ? vsBaseline : await judgeChange(store, commitRev(store, previousOid, previousLabel), current, judgeOptions);
      // Only what is still wrong against the baseline is a regression: a test added during the loop and removed again is not.
      regressions = regressionsByType(vsPrevious.findings.filter(isBlocking), { iteration, compared_with: previousLabel }).filter((r) => openTypes.has(r.regression_type));
      if (baseline?.test_count !== null && baseline?.test_count !== undefined) {
        const delta = await countTestsDelta(store, store.readCheckpoint(baselineOid).treeOid, ctx.checkpoint.treeOid);
        metrics.test_count = baseline.test_count + delta.tests;
        if (baseline.assertion_count !== null) metrics.assertion_count = baseline.assertion_count + delta.assertions;
      }
    } catch (error) {
      metrics.errors.findings = `judgement failed: ${(error as Error).message.split("\n")[0]}`;
    }
  } else metrics.errors.findings = "the loop has no baseline checkpoint";
  const detectionMs = performance.now() - detectStarted;
  await measureCommandMetrics(workTree, ctx.settings.metrics, metrics, { ...store.repo.env.vars, RALPH_LOOP: loop, RALPH_ITERATION: String(iteration), ...ctx.env });
  let quality = computeQuality({ completionPassed: ctx.passed, blockingFindings: blockingVsBaseline?.length ?? null, metrics, baseline });
  let source: IterationRecord["quality_source"] = "default";
  if (state.quality_command) {
    const run = await runCompletionCommand(state.quality_command, {
      cwd: workTree,
      timeoutMs: ctx.settings.qualityTimeoutMs,
      env: { ...store.repo.env.vars, RALPH_LOOP: loop, RALPH_ITERATION: String(iteration), ...ctx.env },
    });
    const parsed = run.timedOut ? { error: `the quality command timed out after ${ctx.settings.qualityTimeoutMs} ms` } : parseQualityOutput(run.output);
    if ("score" in parsed) {
      quality = { score: parsed.score, breakdown: { command: { weight: 100, earned: parsed.score, measured: true, detail: `\`${state.quality_command}\`` } } };
      source = "command";
    } else metrics.errors.quality = `${parsed.error}; the default formula was used`;
  }
  const previousTree = state.iteration_history[state.iteration_history.length - 1]?.tree_oid ?? (baselineOid ? store.readCheckpoint(baselineOid).treeOid : null);
  const artifacts = previousTree
    ? store
        .diff(previousTree, ctx.checkpoint.treeOid)
        .slice(0, 200)
        .map((c) => ({ path: c.path, hash: c.newOid }))
    : [];
  const record: IterationRecord = {
    iteration,
    started_at: ctx.startedIso,
    ended_at: ctx.endedIso,
    duration_ms: ctx.startedIso ? Math.max(0, Date.parse(ctx.endedIso) - Date.parse(ctx.startedIso)) : null,
    snapshot_path: loopRefName(loop, iterationRef(iteration)),
    checkpoint_oid: ctx.checkpoint.oid,
    tree_oid: ctx.checkpoint.treeOid,
    quality_score: quality.score,
    quality_delta: null,
    quality_source: source,
    quality_breakdown: quality.breakdown,
    metrics_snapshot: metrics,
    verification_status: ctx.passed ? "passed" : "failed",
    regression_detected: regressions.length > 0,
    findings: {
      block: blockingVsBaseline?.length ?? 0,
      warn: warnVsBaseline,
      types: [...openTypes].sort(),
    },
    error_signature: ctx.passed ? null : errorSignature(ctx.run.output),
    artifacts,
    tokens: null,
    cost_usd: null,
  };
  return { record, baselineMetrics, regressions, openTypes, blockingVsBaseline, detectionMs };
}

/**
 * The iteration new regressions are judged against: the latest earlier one
 * with no unallowed BLOCK finding against the baseline (null: the
 * baseline). So a regression that still stands, or comes back after a
 * `ralph reject`, is found again (and spends another retry) instead of
 * hiding behind an iteration that already had it.
 */
function lastGoodIteration(state: LoopState, iteration: number): IterationRecord | null {
  for (let i = state.iteration_history.length - 1; i >= 0; i--) {
    const r = state.iteration_history[i];
    if (r && r.iteration < iteration && r.checkpoint_oid && r.findings.block === 0) return r;
  }
  return null;
}

/**
 * Metrics of the baseline checkpoint: ralph's test count over the whole
 * tree, then the configured commands (run in the work tree, which is the
 * baseline's tree when called from `ralph start`).
 */
export async function captureBaselineMetrics(store: CheckpointStore, baselineOid: string, nowIso: string, settings: MetricsSettings = DEFAULT_METRICS_SETTINGS): Promise<MetricsSnapshot> {
  const metrics = MetricsSnapshotSchema.parse({ captured_at: nowIso });
  try {
    const counted = await countTestsAtTree(store, store.readCheckpoint(baselineOid).treeOid);
    metrics.test_count = counted.tests;
    metrics.assertion_count = counted.assertions;
  } catch (error) {
    metrics.errors.test_count = `test count failed: ${(error as Error).message.split("\n")[0]}`;
  }
  await measureCommandMetrics(store.repo.workTree, settings, metrics, store.repo.env.vars);
  return metrics;
}

/** What {@link applyEvaluation} decided. */
export interface AppliedEvaluation {
  signals: ProgressSignals;
  recovery: RecoveryOutcome | null;
  recovered: string[];
  /** True when the completion command passed but unallowed BLOCK findings against the baseline keep the loop from completing. */
  heldBack: boolean;
}

/**
 * Records an evaluation in the state (under the caller's lock; mutates
 * `state`): baseline metrics when newly measured, the iteration record
 * (delta, best, plateau, stuck, reinforcement), regressions that are gone
 * marked recovered, and PDARE on new regressions and, at every iteration
 * that is still stuck, on the stuck loop (each one spends a retry).
 */
export function applyEvaluation(state: LoopState, evaluation: Evaluation, context: { passed: boolean; nowIso: string; stage: "stop" | "iterate" }, settings: LoopSettings): AppliedEvaluation {
  if (evaluation.baselineMetrics && state.baseline_metrics === null) state.baseline_metrics = evaluation.baselineMetrics;
  const signals = recordIteration(state, evaluation.record, settings.progress, context.nowIso);
  const recovered = markRecovered(state, evaluation.openTypes, signals.stuck);
  const regressions = [...evaluation.regressions];
  if (signals.stuck) {
    regressions.push({
      regression_type: "stuck_loop",
      severity: "high",
      details: {
        iteration: evaluation.record.iteration,
        error_signature: evaluation.record.error_signature,
        findings: [{ message: `the same error ${3} iterations in a row: ${evaluation.record.error_signature ?? ""}`.slice(0, 300) }],
      },
    });
  }
  const heldBack = context.passed && (evaluation.blockingVsBaseline?.length ?? 0) > 0;
  const recovery =
    regressions.length > 0
      ? applyRecovery(
          state,
          regressions,
          { iteration: evaluation.record.iteration, completionPassed: context.passed, checkpointRef: evaluation.record.snapshot_path, nowIso: context.nowIso, stage: context.stage },
          settings.recovery,
        )
      : null;
  return { signals, recovery, recovered, heldBack };
}

/**
 * The evaluation as facts for the agent (a Stop block's reason, `ralph
 * iterate`'s output): quality and its change, the findings against the
 * baseline that keep the task from counting as done, and the recovery
 * protocol's message. Empty when there is nothing to say.
 */
export function describeEvaluation(state: LoopState, iteration: number, applied: AppliedEvaluation | null): string {
  const record = state.iteration_history.find((r) => r.iteration === iteration);
  if (!record) return "";
  const lines: string[] = [];
  const delta = record.quality_delta === null ? "" : ` (${record.quality_delta >= 0 ? "+" : ""}${record.quality_delta} since the previous iteration)`;
  const best = state.best_iteration ? `; best so far: iteration ${state.best_iteration.iteration} at ${state.best_iteration.quality_score}` : "";
  lines.push(`ralph's evaluation of iteration ${iteration}: quality ${record.quality_score}/100${delta}${best}.`);
  if (record.findings.block > 0) {
    lines.push(
      `${applied?.heldBack ? "The completion command passed, but the" : "The"} change against the baseline has ${record.findings.block} unallowed BLOCK finding(s) (${record.findings.types.join(", ")}); the task does not count as done while they stand.`,
    );
  }
  if (applied?.recovered.length) lines.push(`Recovered: ${applied.recovered.join(", ")} (the findings are gone).`);
  if (applied?.recovery) lines.push(applied.recovery.message);
  const problems = Object.entries(record.metrics_snapshot.errors);
  if (problems.length > 0) lines.push(`Not measured this iteration: ${problems.map(([metric, why]) => `${metric}: ${why}`).join("; ")}.`);
  if (applied?.signals.plateau) lines.push("Quality has moved less than the plateau threshold for 3 iterations in a row.");
  if (applied?.signals.stuck) lines.push(`The same error has come back 3 iterations in a row: ${record.error_signature ?? ""}`.slice(0, 400));
  return lines.join("\n");
}
