/**
 * The loop lifecycle shared by the shell commands and the Stop hook
 * (issue 5, "Lifecycle": both call the same functions): start (or resume),
 * end an iteration (iteration checkpoint, completion command, record),
 * cancel, and find the loop a command acts on.
 *
 * Locks: the state lock (state.ts) is held only for read-modify-write
 * steps, never while the completion command runs; the store takes its own
 * lock for checkpoints. An iteration marks the loop `completing` before the
 * command runs and settles it after, so a process killed in between leaves
 * a loop that the next stop or `ralph start` recognises and resumes.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { isErrno, RalphError } from "../errors.js";
import type { CheckpointStore } from "../store/checkpoint-store.js";
import { parseLoopId, type LoopId } from "../store/loop-id.js";
import {
  CHECK_TAIL_IN_STATE_CHARS,
  clearActiveLoop,
  createState,
  DEFAULT_CONFIGURATION,
  HARD_MAX_ITERATIONS,
  isTerminal,
  loopDir,
  newState,
  readActiveLoop,
  readState,
  setActiveLoop,
  transition,
  updateState,
  writeFileAtomic,
  writeLoopDocument,
  type CompletionCheck,
  type LoopState,
  type MetricsSnapshot,
  type OwnerSource,
} from "./state.js";
import { runCompletionCommand, type CommandRun } from "./command.js";
import { resolveLoop } from "./resolve-loop.js";
import { applyEvaluation, captureBaselineMetrics, DEFAULT_LOOP_SETTINGS, describeEvaluation, evaluateIteration, type AppliedEvaluation, type LoopSettings } from "./evaluate.js";
import { tailOf } from "./reinforcement.js";

export { KILL_GRACE_MS, MAX_CAPTURE_CHARS, runCompletionCommand, type CommandRun } from "./command.js";

/** How long a cancel signal stays live, in ms (persistent-loop-stop-hook guide: CANCEL_SIGNAL_TTL_MS). */
export const CANCEL_SIGNAL_TTL_MS = 30_000;
/** A `completing` loop older than its check timeout plus this margin was interrupted (its process died), in ms. */
export const INTERRUPTED_CHECK_MARGIN_MS = 30_000;
/** Iterations added by one auto-extension (persistent-loop-stop-hook guide: +10). */
export const AUTO_EXTEND_STEP = 10;

/** ISO-8601 time of `ms` since the epoch. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * A loop id from a task: `ralph-<slug>-<8 hex>` (reference guide's
 * `loop_id` format). The slug is the task lowercased, accents dropped
 * (ü -> u), runs of other characters as `-`, at most 40 characters; `loop`
 * when nothing is left.
 */
export function makeLoopId(task: string, random: () => string = () => randomBytes(4).toString("hex")): LoopId {
  const slug =
    task
      .toLowerCase()
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "") || "loop";
  return parseLoopId(`ralph-${slug}-${random()}`);
}

/** What {@link startLoop} needs. */
export interface StartRequest {
  /** Called during the baseline checkpoint's walk (files looked at, files hashed), for a progress line; default none. */
  onProgress?: (filesSeen: number, filesHashed: number) => void;
  task: string;
  completion: string;
  /** Default {@link DEFAULT_CONFIGURATION}.max_iterations (20). */
  maxIterations?: number;
  /** A chosen loop id (validated); default {@link makeLoopId}. */
  id?: string;
  completionTimeoutMs?: number;
  autoExtend?: boolean;
  /** The loop's quality command (its last output line is the score 0-100); default none (ralph's formula). */
  quality?: string | null;
  /** The agent session that owns the loop and how it is known (src/loop/owner.ts); default none: the next prompt or the first stop binds one. */
  owner?: { sessionId: string; source: OwnerSource } | null;
  nowMs?: number;
}

/** What {@link startLoop} did. */
export interface StartResult {
  state: LoopState;
  /** True when an existing active, paused or crashed loop was resumed instead of a new one created. */
  resumed: boolean;
  /** The baseline checkpoint (`refs/ralph/<loop>/baseline`). */
  baseline: string | null;
}

/**
 * True when a `completing` loop's check has no live process any more: the
 * process that began it (`metrics.check_pid`, on this host) is gone, or the
 * check is older than its timeout plus {@link INTERRUPTED_CHECK_MARGIN_MS}
 * (a pid from another host, or none recorded).
 */
export function wasInterrupted(state: LoopState, nowMs: number): boolean {
  if (state.status !== "completing") return false;
  const pid = state.metrics.check_pid;
  if (typeof pid === "number" && state.metrics.check_host === hostname() && !isPidAlive(pid)) return true;
  const since = nowMs - Date.parse(state.last_updated);
  return !(since <= state.configuration.completion_timeout_ms + INTERRUPTED_CHECK_MARGIN_MS);
}

function isPidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !isErrno(error, "ESRCH");
  }
}

/**
 * `ralph start`: resumes the loop when one is active (same task or the same
 * `--id`), or when `--id` names a paused or crashed loop, keeping its
 * iteration count (persistent-loop-stop-hook guide, "Crash 恢复"); else
 * creates a loop: state, baseline checkpoint, active mark.
 * @throws RalphError E_USAGE when another loop is active, or `--id` names a finished loop; E_LOCKED; store errors.
 */
export function startLoop(store: CheckpointStore, request: StartRequest): StartResult {
  const workTree = store.repo.workTree;
  const nowMs = request.nowMs ?? Date.now();
  const now = isoOf(nowMs);
  const explicit = request.id === undefined ? undefined : parseLoopId(request.id);
  const active = readActiveLoop(workTree);
  let candidate: LoopId | null = explicit ?? null;
  if (active) {
    const activeState = safeRead(workTree, active);
    if (activeState && !isTerminal(activeState.status)) {
      if (explicit === undefined ? activeState.task === request.task : explicit === active) candidate = active;
      else {
        throw new RalphError("E_USAGE", `loop ${active} ("${activeState.task}") is still ${activeState.status} here; resume it with 'ralph start --id ${active} …' or end it with 'ralph cancel'`, {
          data: { loop: active, status: activeState.status },
        });
      }
    }
  }
  if (candidate) {
    const existing = readState(workTree, candidate);
    if (existing) {
      if (isTerminal(existing.status)) {
        throw new RalphError("E_USAGE", `loop ${candidate} is ${existing.status}; start a new loop (another --id) instead`, {
          data: { loop: candidate, status: existing.status },
        });
      }
      const { state } = updateState(workTree, candidate, (s) => {
        if (s.status === "completing" && !wasInterrupted(s, nowMs)) {
          throw new RalphError(
            "E_LOCKED",
            `loop ${candidate} is running the completion check of iteration ${s.iteration + 1} (process ${String(s.metrics.check_pid ?? "?")}); wait for it to end, or stop that process first`,
            {
              data: { loop: candidate, status: s.status, pid: s.metrics.check_pid ?? null },
            },
          );
        }
        if (s.status !== "running") transition(s, "running", `resumed by ralph start (was ${s.status})`, now);
        s.owner_session_id = request.owner?.sessionId ?? null;
        s.owner_source = request.owner?.source ?? null;
        s.blocks = 0;
        s.chain_blocks = 0;
        s.last_block_tree_oids = [];
        s.cancel_requested_at = null;
        s.last_updated = now;
        s.metrics.resumes = (typeof s.metrics.resumes === "number" ? s.metrics.resumes : 0) + 1;
        return { result: null };
      });
      setActiveLoop(workTree, candidate);
      removeCancelSignal(workTree, candidate);
      return { state, resumed: true, baseline: store.readLoopRef(candidate, "baseline") };
    }
  }
  const loop = explicit ?? makeLoopId(request.task);
  const state = newState({
    loop_id: loop,
    task: request.task,
    completion_criteria: request.completion,
    nowIso: now,
    configuration: {
      max_iterations: request.maxIterations ?? DEFAULT_CONFIGURATION.max_iterations,
      completion_timeout_ms: request.completionTimeoutMs ?? DEFAULT_CONFIGURATION.completion_timeout_ms,
      auto_extend: request.autoExtend ?? DEFAULT_CONFIGURATION.auto_extend,
    },
  });
  state.quality_command = request.quality ?? null;
  state.owner_session_id = request.owner?.sessionId ?? null;
  state.owner_source = request.owner?.source ?? null;
  createState(workTree, state);
  const baseline = store.checkpoint({ loop, kind: "baseline", message: `baseline: ${oneLine(request.task)}` }, request.onProgress ? { onProgress: request.onProgress } : {});
  updateState(workTree, loop, (s) => {
    s.metrics.baseline_checkpoint = baseline.oid;
    s.metrics.baseline_tree = baseline.treeOid;
    return { result: null };
  });
  setActiveLoop(workTree, loop);
  removeCancelSignal(workTree, loop);
  return { state: readState(workTree, loop) ?? state, resumed: false, baseline: store.readLoopRef(loop, "baseline") ?? baseline.oid };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}

function safeRead(workTree: string, loop: LoopId): LoopState | null {
  try {
    return readState(workTree, loop);
  } catch {
    return null;
  }
}

/**
 * The loop a state command acts on: src/loop/resolve-loop.ts's rule for a
 * command that needs a loop state, with `envLoop` (the run's `RALPH_LOOP`,
 * src/runtime-env.ts `loop`) and the loops' checkpoints from `store` when given.
 * @throws RalphError E_BAD_LOOP_ID; E_UNKNOWN_LOOP when there is no loop state at all.
 */
export function resolveLoopId(workTree: string, explicit?: string, envLoop?: string, store?: CheckpointStore): LoopId {
  return resolveLoop({ workTree, explicit, envLoop, need: "state", ...(store ? { store } : {}) }).loop;
}

/**
 * Reads a loop's state.
 * @throws RalphError E_UNKNOWN_LOOP when it has none; E_BAD_STATE.
 */
export function loadLoop(workTree: string, loop: LoopId): LoopState {
  const state = readState(workTree, loop);
  if (!state) throw new RalphError("E_UNKNOWN_LOOP", `loop ${loop} has no state in this repository; see 'ralph loops'`, { data: { loop } });
  return state;
}

function cancelSignalPath(workTree: string, loop: LoopId): string {
  return join(loopDir(workTree, loop), "cancel-signal.json");
}

function removeCancelSignal(workTree: string, loop: LoopId): void {
  try {
    unlinkSync(cancelSignalPath(workTree, loop));
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw error;
  }
}

/**
 * The time of a live cancel signal (written by `ralph cancel` less than
 * {@link CANCEL_SIGNAL_TTL_MS} ago), in ms since the epoch, or null.
 */
export function liveCancelSignal(workTree: string, loop: LoopId, nowMs: number): number | null {
  let requestedMs: number;
  try {
    requestedMs = Number((JSON.parse(readFileSync(cancelSignalPath(workTree, loop), "utf8")) as { requested_at_ms?: unknown }).requested_at_ms);
  } catch {
    return null;
  }
  if (!Number.isFinite(requestedMs)) return null;
  const age = nowMs - requestedMs;
  return age >= 0 && age < CANCEL_SIGNAL_TTL_MS ? requestedMs : null;
}

/** What {@link cancelLoop} did. */
export interface CancelResult {
  loop: LoopId;
  /** The status before the cancel. */
  previous: string;
  state: LoopState | null;
  /** False when the loop had already ended (nothing changed but the signal). */
  changed: boolean;
}

/**
 * `ralph cancel`: writes the cancel signal (a file the Stop hook honours for
 * {@link CANCEL_SIGNAL_TTL_MS}; it needs no lock, so it lands even while a
 * check holds the loop), then marks the loop `aborted` and clears the
 * active mark. `writeSignal: false` applies a signal already there (it is
 * not renewed).
 * @throws RalphError E_UNKNOWN_LOOP, E_LOCKED.
 */
export function cancelLoop(workTree: string, loop: LoopId, nowMs = Date.now(), options: { writeSignal?: boolean } = {}): CancelResult {
  if (options.writeSignal ?? true) {
    writeFileAtomic(cancelSignalPath(workTree, loop), `${JSON.stringify({ requested_at: isoOf(nowMs), requested_at_ms: nowMs, pid: process.pid })}\n`);
  }
  let previous = "unknown";
  let changed = false;
  let state: LoopState | null = null;
  try {
    state = updateState(workTree, loop, (s) => {
      previous = s.status;
      s.cancel_requested_at = isoOf(nowMs);
      if (!isTerminal(s.status)) {
        transition(s, "aborted", "cancelled by ralph cancel", isoOf(nowMs));
        changed = true;
      }
      return { result: null };
    }).state;
  } catch (error) {
    // A corrupt state still gets cancelled through the signal and the active mark.
    if (!(error instanceof RalphError && error.code === "E_BAD_STATE")) throw error;
    changed = true;
  }
  clearActiveLoop(workTree, loop);
  return { loop, previous, state, changed };
}

/** Context of one end of iteration. */
export interface IterationContext {
  store: CheckpointStore;
  loop: LoopId;
  nowMs: number;
  /** Extra environment for the completion command. */
  env?: NodeJS.ProcessEnv;
  /** The loop engine's tuning (config); default the reference guide's values. */
  settings?: LoopSettings;
  /** Who ends the iteration: the Stop hook or `ralph iterate` (recorded in recovery steps). */
  stage?: "stop" | "iterate";
  /** Main-chain output tokens of the agent session so far (the Stop hook's transcript), for the iteration's `tokens`. */
  sessionOutputTokens?: number | null;
}

/**
 * Sets an iteration's `tokens` from the session's cumulative output tokens
 * (the transcript's main chain since its last compaction): the growth since
 * the previous stop, or the whole count when it shrank (a compaction or a
 * new session). Output tokens only: input is mostly re-read context.
 */
function recordIterationTokens(state: LoopState, record: { tokens: number | null }, sessionOutputTokens: number | null): void {
  if (sessionOutputTokens === null) return;
  const previous = typeof state.metrics.session_output_tokens === "number" ? state.metrics.session_output_tokens : null;
  record.tokens = previous !== null && sessionOutputTokens >= previous ? sessionOutputTokens - previous : sessionOutputTokens;
  state.metrics.session_output_tokens = sessionOutputTokens;
}

/** Samples of detection latency kept in `metrics.detection_latencies_ms` for the percentiles. */
const LATENCY_SAMPLES = 200;

/** Appends a detection latency (ms) and refreshes `persistence_metrics` p95/p99 (nearest rank over the last {@link LATENCY_SAMPLES}). */
function recordDetectionLatency(state: LoopState, ms: number): void {
  const previous = Array.isArray(state.metrics.detection_latencies_ms) ? (state.metrics.detection_latencies_ms as unknown[]).filter((n): n is number => typeof n === "number") : [];
  const samples = [...previous, Math.round(ms)].slice(-LATENCY_SAMPLES);
  state.metrics.detection_latencies_ms = samples;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  state.persistence_metrics.detection_latency_p95_ms = rank(95);
  state.persistence_metrics.detection_latency_p99_ms = rank(99);
}

/** The state after the check was recorded, and what was recorded. */
export interface IterationOutcome {
  state: LoopState;
  check: CompletionCheck;
  run: CommandRun;
  /** The full output tail kept in `iterations/NNNN.json`. */
  outputTail: string;
  /** True when the loop left `completing` meanwhile (e.g. `ralph cancel`): the check was recorded, the status kept. */
  overtaken: boolean;
  /** Where the time went, in ms: the iteration checkpoint, the completion command, the evaluation (metrics, findings, quality), recording the result. */
  timings: { checkpointMs: number; checkMs: number; evaluateMs: number; recordMs: number };
}

/**
 * Marks the loop `completing` for iteration `iteration + 1` (under the
 * lock). Returns the iteration number, or a reason string when the loop is
 * not in a state to end an iteration.
 * @throws RalphError E_UNKNOWN_LOOP, E_BAD_STATE, E_LOCKED.
 */
export function beginIteration(workTree: string, loop: LoopId, nowMs: number, mutate?: (state: LoopState) => void): { iteration: number; state: LoopState } | { refused: string; state: LoopState } {
  const { state, result } = updateState<number | string>(workTree, loop, (s) => {
    if (wasInterrupted(s, nowMs)) transition(s, "running", "the previous completion check was interrupted", isoOf(nowMs));
    if (s.status === "completing")
      return { result: `loop ${loop} is running the completion check of iteration ${s.iteration + 1} in process ${String(s.metrics.check_pid ?? "?")}; wait for it to end`, changed: false };
    if (s.status !== "running") return { result: `loop ${loop} is ${s.status}${s.status_reason ? ` (${s.status_reason})` : ""}`, changed: false };
    mutate?.(s);
    const iteration = s.iteration + 1;
    transition(s, "completing", `completion check of iteration ${iteration}`, isoOf(nowMs));
    s.metrics.check_pid = process.pid;
    s.metrics.check_host = hostname();
    return { result: iteration };
  });
  return typeof result === "number" ? { iteration: result, state } : { refused: result, state };
}

/**
 * Ends iteration `iteration` (after {@link beginIteration}): iteration
 * checkpoint (`refs/ralph/<loop>/iterations/NNNN`), the completion command,
 * then under the lock: the check appended to `progress.completion_checks`,
 * `iteration` set, status `completed` (check passed; active mark cleared)
 * or back to `running`, and `settle` applied to the state for the caller's
 * own decision. Writes `iterations/NNNN.json`.
 * @throws RalphError from the store (the loop is put back to `running` first).
 */
export async function finishIteration<T>(
  ctx: IterationContext,
  iteration: number,
  settle: (state: LoopState, check: CompletionCheck, overtaken: boolean, evaluation: AppliedEvaluation) => T,
): Promise<IterationOutcome & { settled: T; evaluation: AppliedEvaluation | null }> {
  const workTree = ctx.store.repo.workTree;
  const current = loadLoop(workTree, ctx.loop);
  const checkpointStarted = performance.now();
  let checkpoint;
  try {
    checkpoint = ctx.store.checkpoint({ loop: ctx.loop, kind: "iteration", iteration, message: `iteration ${iteration}: ${oneLine(current.task)}` });
  } catch (error) {
    updateState(workTree, ctx.loop, (s) => {
      if (s.status === "completing") transition(s, "running", `iteration checkpoint failed: ${(error as Error).message}`, isoOf(Date.now()));
      return { result: null };
    });
    throw error;
  }
  const checkpointMs = performance.now() - checkpointStarted;
  const run =
    current.completion_criteria.trim() === ""
      ? { exitCode: null, signal: null, timedOut: false, durationMs: 0, output: "ralph: this loop has no completion command" }
      : await runCompletionCommand(current.completion_criteria, {
          cwd: workTree,
          timeoutMs: current.configuration.completion_timeout_ms,
          env: { ...ctx.store.repo.env.vars, RALPH_LOOP: ctx.loop, RALPH_ITERATION: String(iteration), ...ctx.env },
        });
  const endMs = ctx.nowMs + run.durationMs;
  const passed = run.exitCode === 0 && !run.timedOut;
  const settings = ctx.settings ?? DEFAULT_LOOP_SETTINGS;
  const previousEnd = current.iteration_history[current.iteration_history.length - 1]?.ended_at ?? current.started_at;
  const evaluateStarted = performance.now();
  const evaluation = await evaluateIteration({
    store: ctx.store,
    loop: ctx.loop,
    state: current,
    iteration,
    checkpoint,
    run,
    passed,
    startedIso: previousEnd,
    endedIso: isoOf(endMs),
    settings,
    ...(ctx.env ? { env: ctx.env } : {}),
  });
  const evaluateMs = performance.now() - evaluateStarted;
  const outputTail = tailOf(run.output, 200, 10_000);
  const check: CompletionCheck = {
    iteration,
    passed,
    exit_code: run.exitCode,
    timed_out: run.timedOut,
    duration_ms: Math.round(run.durationMs),
    checked_at: isoOf(endMs),
    tree_oid: checkpoint.treeOid,
    checkpoint_oid: checkpoint.oid,
    output_tail: tailOf(run.output, 20, CHECK_TAIL_IN_STATE_CHARS),
  };
  let overtaken = false;
  let applied: AppliedEvaluation | null = null;
  const recordStarted = performance.now();
  const { state, result } = updateState(workTree, ctx.loop, (s) => {
    s.progress.completion_checks.push(check);
    s.metrics.checks_run = (typeof s.metrics.checks_run === "number" ? s.metrics.checks_run : 0) + 1;
    s.metrics.last_check_duration_ms = check.duration_ms;
    recordDetectionLatency(s, evaluation.detectionMs);
    recordIterationTokens(s, evaluation.record, ctx.sessionOutputTokens ?? null);
    if (s.status !== "completing") {
      overtaken = true;
      applied = applyEvaluation(s, evaluation, { passed, nowIso: isoOf(endMs), stage: ctx.stage ?? "iterate" }, settings);
      return { result: settle(s, check, true, applied) };
    }
    s.iteration = Math.max(s.iteration, iteration);
    transition(s, "running", passed ? `completion command passed at iteration ${iteration}` : `completion command failed at iteration ${iteration}`, isoOf(endMs));
    applied = applyEvaluation(s, evaluation, { passed, nowIso: isoOf(endMs), stage: ctx.stage ?? "iterate" }, settings);
    if (passed && !applied.heldBack && (s.status as LoopState["status"]) === "running") transition(s, "completed", `completion command passed at iteration ${iteration}`, isoOf(endMs));
    return { result: settle(s, check, false, applied) };
  });
  if (isTerminal(state.status)) clearActiveLoop(workTree, ctx.loop);
  writeLoopDocument(workTree, ctx.loop, `iterations/${String(iteration).padStart(4, "0")}.json`, {
    loop_id: ctx.loop,
    iteration,
    ended_at: check.checked_at,
    checkpoint: { ref: `refs/ralph/${ctx.loop}/iterations/${String(iteration).padStart(4, "0")}`, oid: checkpoint.oid, tree_oid: checkpoint.treeOid, changed: checkpoint.changed },
    completion_check: { ...check, output_tail: outputTail },
    quality: { score: evaluation.record.quality_score, source: evaluation.record.quality_source, breakdown: evaluation.record.quality_breakdown },
    metrics: evaluation.record.metrics_snapshot,
    findings_vs_baseline: (evaluation.blockingVsBaseline ?? []).map((f) => ({ type: f.type, severity: f.severity, file: f.file, line: f.line ?? null, message: f.message })),
    regressions: (applied as AppliedEvaluation | null)?.recovery?.events.map((e) => e.event_id) ?? [],
    status_after: state.status,
  });
  const timings = { checkpointMs, checkMs: run.durationMs, evaluateMs, recordMs: performance.now() - recordStarted };
  return { state, check, run, outputTail, overtaken, timings, settled: result, evaluation: applied as AppliedEvaluation | null };
}

/**
 * Applies the max-iterations rule after a failed check (mutates `state`):
 * when `iteration >= max_iterations`, either auto-extends by
 * {@link AUTO_EXTEND_STEP} (when `auto_extend`, up to
 * {@link HARD_MAX_ITERATIONS}) or marks the loop `failed`.
 * Returns "extended", "exhausted" or "ok".
 */
export function applyIterationLimit(state: LoopState, nowIso: string): "extended" | "exhausted" | "ok" {
  const config = state.configuration;
  if (state.iteration < config.max_iterations) return "ok";
  if (config.auto_extend && config.max_iterations < HARD_MAX_ITERATIONS) {
    config.max_iterations = Math.min(HARD_MAX_ITERATIONS, config.max_iterations + AUTO_EXTEND_STEP);
    state.metrics.auto_extensions = (typeof state.metrics.auto_extensions === "number" ? state.metrics.auto_extensions : 0) + 1;
    return "extended";
  }
  transition(state, "failed", `max_iterations (${config.max_iterations}) reached without the completion command passing`, nowIso);
  return "exhausted";
}

/** What `ralph iterate` reports. */
export interface IterateResult {
  loop: LoopId;
  iteration: number;
  /** True when a shell loop stops: the loop is over (completed, failed or aborted) or paused for a human decision. */
  done: boolean;
  /** ralph's evaluation of the iteration as facts (quality, findings against the baseline, recovery); may be empty. */
  evaluation: string;
  status: LoopState["status"];
  passed: boolean;
  check: CompletionCheck;
  outputTail: string;
  why: string;
}

/**
 * `ralph iterate`: ends one iteration of a shell-driven loop
 * (`while :; do agent; ralph iterate || break; done`): checkpoint, check,
 * record, then the iteration limit.
 * @throws RalphError E_USAGE when the loop is not running (already over); E_UNKNOWN_LOOP; E_BAD_STATE; E_LOCKED.
 */
export async function iterateLoop(store: CheckpointStore, loop: LoopId, nowMs = Date.now(), settings?: LoopSettings): Promise<IterateResult> {
  const workTree = store.repo.workTree;
  if (liveCancelSignal(workTree, loop, nowMs) !== null) {
    const cancelled = loadLoop(workTree, loop);
    if (!isTerminal(cancelled.status)) cancelLoop(workTree, loop, nowMs, { writeSignal: false });
  }
  const begun = beginIteration(workTree, loop, nowMs);
  if ("refused" in begun) {
    throw new RalphError("E_USAGE", `${begun.refused}: nothing to iterate`, { data: { loop, status: begun.state.status, done: isTerminal(begun.state.status) } });
  }
  const outcome = await finishIteration({ store, loop, nowMs, stage: "iterate", ...(settings ? { settings } : {}) }, begun.iteration, (state, check, overtaken) => {
    if (overtaken || state.status !== "running") return state.status_reason ?? state.status;
    const limit = applyIterationLimit(state, check.checked_at);
    if (limit === "extended") return `max_iterations reached; auto-extended to ${state.configuration.max_iterations}`;
    if (limit === "exhausted") return state.status_reason ?? "max_iterations reached";
    const of = `iteration ${check.iteration} of ${state.configuration.max_iterations}`;
    if (check.passed) return `completion command passed, but BLOCK findings against the baseline remain; ${of}`;
    if (check.exit_code === 127) return `the shell did not find the completion command (exit 127): check \`${state.completion_criteria}\`; ${of}`;
    return `completion command failed; ${of}`;
  });
  if (isTerminal(outcome.state.status)) clearActiveLoop(workTree, loop);
  return {
    loop,
    iteration: begun.iteration,
    done: isTerminal(outcome.state.status) || outcome.state.status === "paused",
    evaluation: describeEvaluation(outcome.state, begun.iteration, outcome.evaluation),
    status: outcome.state.status,
    passed: outcome.check.passed,
    check: outcome.check,
    outputTail: outcome.outputTail,
    why: outcome.settled,
  };
}

/**
 * Measures the baseline metrics of a loop whose state has none yet (a new
 * loop, or one created before metrics existed) and records them:
 * `test_count` from ralph's analysis of the baseline tree, and the
 * configured metric commands run in the work tree.
 * @returns the loop's baseline metrics (measured now or already recorded), or null without a baseline checkpoint.
 */
export async function ensureBaselineMetrics(store: CheckpointStore, loop: LoopId, settings: LoopSettings = DEFAULT_LOOP_SETTINGS, nowMs = Date.now()): Promise<MetricsSnapshot | null> {
  const workTree = store.repo.workTree;
  const existing = loadLoop(workTree, loop).baseline_metrics;
  if (existing) return existing;
  const baseline = store.readLoopRef(loop, "baseline");
  if (!baseline) return null;
  const metrics = await captureBaselineMetrics(store, baseline, isoOf(nowMs), settings.metrics);
  const { state } = updateState(workTree, loop, (s) => {
    if (s.baseline_metrics !== null) return { result: null, changed: false };
    s.baseline_metrics = metrics;
    return { result: null };
  });
  return state.baseline_metrics;
}
