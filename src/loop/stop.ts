/**
 * The Stop hook's decision (issue 4, "Behaviour per event: Stop"; the
 * persistent loop of reference/persistent-loop-stop-hook.zh.md): while the
 * active loop's completion command fails, the agent's stop is blocked with
 * the tail of the failing output and the reinforcement text; safety valves
 * always let it stop.
 *
 * Order of the rules (each allow carries its `why`):
 * 1. no repository, no active loop, no or unreadable state: allow;
 * 2. the loop is not running (completed, failed, aborted, paused, crashed): allow;
 * 3. a live cancel signal (`ralph cancel`, 30 s TTL): allow (loop aborted);
 * 4. no session id (an empty id never owns a loop), or another session owns
 *    the loop: allow, the loop untouched; with no owner bound yet
 *    (src/loop/owner.ts: `ralph start --session`, the session that ran
 *    `ralph start`, the next prompt), the first session to stop binds;
 * 5. state stale (last_updated more than 2 h ago): allow, loop marked
 *    crashed (`ralph start` resumes it); past `timeout_minutes`: allow, failed;
 * 6. context use >= 95%; the last turn ended on a 401/403 (authentication)
 *    or on a 429/529 (rate limit, usage limit, overload: blocking only
 *    spins, as oh-my-claudecode's persistent-mode found, its issue #777);
 *    background tasks still running (the payload's `background_tasks`
 *    with a `running` entry, Claude Code 2.1.145+, else the transcript):
 *    allow. The last turn is `last_assistant_message` when the transcript
 *    does not have it yet (Claude Code writes the transcript in batches;
 *    hooks reference, "Stop input"), else the transcript's last entry;
 * 7. iteration checkpoint + completion command (bounded by
 *    `completion_timeout_ms`): pass: loop completed, allow;
 * 8. fail: max_iterations reached (auto-extend by 10 up to 200 when
 *    configured, else loop failed): allow; the same tree at the last two
 *    blocks and now (3 stops in a row without a change): allow;
 * 9. a stop with `stop_hook_active: true` (Claude Code is already
 *    continuing because of a Stop block) after `loop.max_consecutive_blocks`
 *    blocks in that chain: allow, the loop stays running and the user is
 *    told (Claude Code itself ends the turn after 8 consecutive blocks,
 *    hooks reference "Stop input"; ralph decides before it does);
 * 10. otherwise block, counting consecutive blocks, the chain's blocks and
 *    their trees. A stop with `stop_hook_active` false or absent starts a
 *    new chain.
 */
import { DEFAULT_CONFIG } from "../config/schema.js";
import { RalphError } from "../errors.js";
import { debug } from "../log.js";
import { EMPTY_RUNTIME_ENV, type RuntimeEnv } from "../runtime-env.js";
import { CheckpointStore } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import { applyIterationLimit, beginIteration, cancelLoop, finishIteration, isoOf, liveCancelSignal } from "./lifecycle.js";
import { describeEvaluation, type LoopSettings } from "./evaluate.js";
import { loadLoopSettings } from "./settings.js";
import { buildBlockReason } from "./reinforcement.js";
import { describeGate } from "./recovery.js";
import { isTerminal, readActiveLoop, readState, transition, updateState, type LoopState } from "./state.js";
import { classifyTurnEnd, readTranscriptSignals, type TranscriptSignals, type TurnEnd } from "./transcript.js";

/** What the Stop hook hands in (from Claude Code's Stop payload; every field may be missing). */
export interface StopInput {
  /** The hook's working directory: any folder inside the repository. */
  cwd: string;
  /** The run's environment (src/runtime-env.ts): git's variables, RALPH_LOOP, the lock wait, the context window override; default none set. */
  env?: RuntimeEnv;
  /** `session_id` of the payload; empty or undefined never owns a loop. */
  sessionId: string | undefined;
  /** `transcript_path` of the payload: the session's JSONL transcript. */
  transcriptPath: string | undefined;
  /** `stop_hook_active` of the payload: true when Claude Code is already continuing because of a Stop block (one chain); false or undefined starts a new chain. */
  stopHookActive: boolean | undefined;
  /** `last_assistant_message` of the payload: the text of the turn that just ended (newer than the transcript when it lags). */
  lastAssistantMessage?: string | undefined;
  /** `background_tasks` of the payload (Claude Code 2.1.145+): in-flight shells, subagents, workflows; undefined when not sent. */
  backgroundTasks?: readonly BackgroundTask[] | undefined;
  /** The clock, ms since the epoch (tests); default Date.now(). */
  nowMs?: number;
  /** The loop engine's tuning (config); default the reference guide's values. */
  settings?: LoopSettings;
}

/**
 * One `background_tasks` entry of a Stop payload (hooks reference, "Stop
 * input": `id`, `type` shell | subagent | workflow | …, `status`, and
 * per-type fields). Only `status: "running"` counts as running; an unknown
 * status does not hold the stop (warpdotdev/claude-code-warp#85 reads it
 * the same way).
 */
export type BackgroundTask = { readonly id?: unknown; readonly type?: unknown; readonly status?: unknown; readonly [field: string]: unknown };

/**
 * The decision: `allow` lets the agent stop (`loop` is the active loop or
 * null), `block` keeps it working with `reason` (sent to the model, at most
 * 10,000 characters). `why` is a one-line explanation for logs.
 */
export type StopDecision = { action: "allow"; why: string; loop: string | null; message?: string } | { action: "block"; reason: string; why: string; loop: string };

/** State older than this is a zombie, in ms (persistent-loop-stop-hook guide: STALE_STATE_THRESHOLD_MS = 2 h). */
export const STALE_STATE_MS = 2 * 60 * 60 * 1000;
/** Context use at or above this fraction always lets the agent stop (safety valve 1). */
export const CONTEXT_LIMIT_FRACTION = 0.95;
/** Consecutive stops on one unchanged tree after which the stop is allowed (no progress). */
export const NO_PROGRESS_STOPS = 3;
/** Blocks within one `stop_hook_active` chain after which the stop is allowed (`loop.max_consecutive_blocks`); below Claude Code's own cap of 8. */
export const DEFAULT_MAX_CONSECUTIVE_BLOCKS = DEFAULT_CONFIG.loop.max_consecutive_blocks;

/** How the turn that just ended ended: `last_assistant_message` when the transcript lags behind it, else the transcript's last entry. */
function latestTurnEnd(transcript: TranscriptSignals | null, lastMessage: string | undefined): TurnEnd | null {
  const message = lastMessage?.trim() ?? "";
  if (message !== "" && (transcript === null || (transcript.lastAssistantText ?? "").trim() !== message)) return classifyTurnEnd(message);
  if (!transcript) return null;
  if (transcript.authFailure) return { kind: "auth", status: transcript.authStatus ?? 401 };
  if (transcript.rateLimited) return { kind: "rate_limit", status: transcript.rateLimitStatus ?? 429 };
  return null;
}

/** Ids (or types) of the payload's running background tasks; null when the payload did not say. */
function runningPayloadTasks(tasks: readonly BackgroundTask[] | undefined): string[] | null {
  if (!Array.isArray(tasks)) return null;
  return tasks.filter((t) => typeof t === "object" && t !== null && t.status === "running").map((t, i) => (typeof t.id === "string" ? t.id : typeof t.type === "string" ? t.type : `#${i + 1}`));
}

/** Clears the block counters of a state (after an allow). */
function clearBlocks(s: LoopState): void {
  s.blocks = 0;
  s.chain_blocks = 0;
  s.last_block_tree_oids = [];
}

function allow(why: string, loop: string | null): StopDecision {
  return { action: "allow", why, loop };
}

/** Resets the consecutive-block counters after an allow (best effort: a lock or state problem is not the hook's failure). */
function endBlockChain(workTree: string, loop: LoopId, why: string, mutate?: (s: LoopState) => void): void {
  try {
    updateState(workTree, loop, (s) => {
      clearBlocks(s);
      s.metrics.last_allow = why;
      mutate?.(s);
      return { result: null };
    });
  } catch {
    /* the decision stands without the bookkeeping */
  }
}

/** The Stop hook's decision for the active loop of the repository at cwd (allow when there is none). Never throws for user state problems: returns allow with `why`. */
export async function decideStop(input: StopInput): Promise<StopDecision> {
  const nowMs = input.nowMs ?? Date.now();
  let store: CheckpointStore;
  try {
    store = CheckpointStore.open(input.cwd, input.env ?? EMPTY_RUNTIME_ENV);
  } catch (error) {
    return allow(`no repository at ${input.cwd}: ${(error as Error).message}`, null);
  }
  const workTree = store.repo.workTree;
  let loop: LoopId | null;
  try {
    loop = readActiveLoop(workTree);
  } catch (error) {
    return allow(`cannot read the active loop mark: ${(error as Error).message}`, null);
  }
  if (!loop) return allow("no active loop", null);
  try {
    return await decideForLoop(store, loop, input, nowMs);
  } catch (error) {
    if (error instanceof RalphError && error.code === "E_CONFIG") {
      // The loop cannot be judged with a broken aiwg.yml: the session ends and the user is told what to fix.
      return { action: "allow", why: `loop ${loop}: ${error.message}`, loop, message: `${error.message} (the loop's stop check did not run)` };
    }
    if (error instanceof RalphError && error.code !== "E_INTERNAL") return allow(`loop ${loop}: ${error.message}`, loop);
    throw error;
  }
}

async function decideForLoop(store: CheckpointStore, loop: LoopId, input: StopInput, nowMs: number): Promise<StopDecision> {
  const startedMs = performance.now();
  const workTree = store.repo.workTree;
  const state = readState(workTree, loop);
  if (!state) return allow(`the active mark names loop ${loop}, which has no state`, loop);
  const settings = input.settings ?? (await loadLoopSettings(workTree, store.repo.env.vars)).settings;
  if (state.status !== "running" && state.status !== "completing") {
    const gate = describeGate(state);
    // At the human gate the session ends, and the user is told why (Claude Code shows `systemMessage`).
    if (gate) return { action: "allow", why: `loop ${loop} is paused for a human decision`, loop, message: gate };
    return allow(`loop ${loop} is ${state.status}${state.status_reason ? ` (${state.status_reason})` : ""}`, loop);
  }
  if (liveCancelSignal(workTree, loop, nowMs) !== null) {
    if (!isTerminal(state.status)) cancelLoop(workTree, loop, nowMs, { writeSignal: false });
    return allow(`loop ${loop} was cancelled (cancel signal less than 30 s old)`, loop);
  }
  const session = input.sessionId?.trim() ?? "";
  if (session === "") return allow(`no session id: a session without one never owns loop ${loop}`, loop);
  if (state.owner_session_id !== null && state.owner_session_id !== session) {
    return allow(`session ${session} does not own loop ${loop} (owner: ${state.owner_session_id}); 'ralph start' again to hand it over`, loop);
  }
  const idleMs = nowMs - Date.parse(state.last_updated);
  if (idleMs > STALE_STATE_MS) {
    const why = `loop ${loop} is stale: last updated ${Math.round(idleMs / 60_000)} min ago (over 2 h); marked crashed, 'ralph start' resumes it`;
    updateState(workTree, loop, (s) => {
      if (s.status === "running" || s.status === "completing") transition(s, "crashed", "stale: no update for over 2 h", isoOf(nowMs));
      return { result: null };
    });
    return allow(why, loop);
  }
  const timeoutMinutes = state.configuration.timeout_minutes;
  if (timeoutMinutes !== null && nowMs - Date.parse(state.started_at) > timeoutMinutes * 60_000) {
    updateState(workTree, loop, (s) => {
      if (s.status === "running") transition(s, "failed", `timeout_minutes (${timeoutMinutes}) passed`, isoOf(nowMs));
      return { result: null };
    });
    return allow(`loop ${loop} ran past its timeout of ${timeoutMinutes} min; marked failed`, loop);
  }
  const transcript = readTranscriptSignals(input.transcriptPath, undefined, store.repo.env.contextWindowTokens);
  if (transcript?.contextFraction !== null && transcript !== null && transcript.contextFraction >= CONTEXT_LIMIT_FRACTION) {
    const why = `context ${Math.round(transcript.contextFraction * 100)}% full (${transcript.contextTokens} of ${transcript.contextWindowTokens} tokens): at 95% the stop is always allowed`;
    endBlockChain(workTree, loop, why);
    return allow(why, loop);
  }
  const turnEnd = latestTurnEnd(transcript, input.lastAssistantMessage);
  if (turnEnd?.kind === "auth") {
    const why = `the last turn ended on an authentication failure (${turnEnd.status}): continuing cannot succeed`;
    endBlockChain(workTree, loop, why);
    return allow(why, loop);
  }
  if (turnEnd?.kind === "rate_limit") {
    const why = `the last turn ended on ${turnEnd.status === 529 ? "an API overload (529)" : "a rate limit (429)"}: blocking would only spin; the loop stays running and the next prompt continues it`;
    endBlockChain(workTree, loop, why);
    return allow(why, loop);
  }
  const running = runningPayloadTasks(input.backgroundTasks) ?? transcript?.backgroundTasks ?? [];
  if (running.length > 0) {
    // The agent is waiting on its own background work; Claude Code starts a new turn when it ends (hooks reference).
    const ids = running;
    const why = `${ids.length} background task(s) still running (${ids.slice(0, 5).join(", ")}): the agent waits for them; the next stop checks again`;
    endBlockChain(workTree, loop, why);
    return allow(why, loop);
  }
  const begun = beginIteration(workTree, loop, nowMs, (s) => {
    if (s.owner_session_id === null) {
      // The fallback (src/loop/owner.ts): nothing bound an owner before this stop.
      s.owner_session_id = session;
      s.owner_source = "stop";
    }
  });
  if ("refused" in begun) return allow(begun.refused, loop);
  const outcome = await finishIteration(
    { store, loop, nowMs, stage: "stop", settings, sessionOutputTokens: transcript?.outputTokens ?? null },
    begun.iteration,
    (s, check, overtaken, evaluation): StopDecision => {
      const max = s.configuration.max_iterations;
      if (overtaken) {
        clearBlocks(s);
        return allow(`loop ${loop} became ${s.status} during the completion check${s.status_reason ? ` (${s.status_reason})` : ""}`, loop);
      }
      if (s.status === "paused") {
        // PDARE escalated: the session ends and a human decides (ralph approve | reject | abort).
        clearBlocks(s);
        return { action: "allow", why: `loop ${loop} paused for a human decision at iteration ${check.iteration}`, loop, message: evaluation.recovery?.message ?? s.status_reason ?? "" };
      }
      if (check.passed && s.status === "completed") {
        clearBlocks(s);
        return allow(`completion command passed at iteration ${check.iteration}: loop completed`, loop);
      }
      const limit = applyIterationLimit(s, check.checked_at);
      if (limit === "exhausted") {
        clearBlocks(s);
        return allow(`max_iterations (${max}) reached without the completion command passing: loop failed`, loop);
      }
      const tree = check.tree_oid;
      const previous = s.last_block_tree_oids;
      const unchangedBlocks = tree === null ? 0 : countTrailing(previous, tree);
      if (tree !== null && unchangedBlocks >= NO_PROGRESS_STOPS - 1) {
        clearBlocks(s);
        s.metrics.no_progress_allows = (typeof s.metrics.no_progress_allows === "number" ? s.metrics.no_progress_allows : 0) + 1;
        return allow(`no progress: the work tree (${tree.slice(0, 12)}) is unchanged across ${NO_PROGRESS_STOPS} stops in a row`, loop);
      }
      const maxChain = settings.maxConsecutiveBlocks ?? DEFAULT_MAX_CONSECUTIVE_BLOCKS;
      if (input.stopHookActive === true && s.chain_blocks >= maxChain) {
        const why = `${s.chain_blocks} consecutive blocks in one stop_hook_active chain (loop.max_consecutive_blocks ${maxChain}): the stop is let through before Claude Code's own cap of 8; the loop stays running`;
        clearBlocks(s);
        s.metrics.last_allow = why;
        const message = `ralph let this turn end after ${maxChain} consecutive blocks (loop.max_consecutive_blocks); loop ${loop} is still running at iteration ${check.iteration}/${max} and not done (${evaluation.heldBack ? "BLOCK findings against the baseline remain" : "its completion command fails"}): send a prompt to continue, or 'ralph cancel'.`;
        return { action: "allow", why, loop, message };
      }
      s.chain_blocks = input.stopHookActive === true ? s.chain_blocks + 1 : 1;
      s.blocks += 1;
      s.last_block_tree_oids = [...previous, tree ?? ""].slice(-NO_PROGRESS_STOPS);
      s.metrics.total_blocks = (typeof s.metrics.total_blocks === "number" ? s.metrics.total_blocks : 0) + 1;
      const level = s.reinforcement_level;
      const extended = limit === "extended" ? `; max_iterations auto-extended to ${s.configuration.max_iterations}` : "";
      return {
        action: "block",
        reason: "",
        why: `${evaluation.heldBack ? "completion command passed but BLOCK findings against the baseline remain" : `completion command failed (${check.timed_out ? "timed out" : `exit ${check.exit_code ?? "signal"}`})`} at iteration ${check.iteration}/${s.configuration.max_iterations}; block ${s.blocks} in a row, ${level}${extended}`,
        loop,
      };
    },
  );
  const t = outcome.timings;
  debug(
    () =>
      `stop ${loop}: checkpoint ${t.checkpointMs.toFixed(1)} ms, completion check ${t.checkMs.toFixed(1)} ms, evaluation ${t.evaluateMs.toFixed(1)} ms, record ${t.recordMs.toFixed(1)} ms, total ${(performance.now() - startedMs).toFixed(1)} ms`,
  );
  const decision = outcome.settled;
  if (decision.action === "allow") return decision;
  const after = outcome.state;
  const reason = buildBlockReason(
    {
      loop,
      iteration: outcome.check.iteration,
      maxIterations: after.configuration.max_iterations,
      task: after.task,
      completionCommand: after.completion_criteria,
      exitCode: outcome.check.exit_code,
      timedOut: outcome.check.timed_out,
      timeoutMs: after.configuration.completion_timeout_ms,
      unchangedBlocks: Math.max(0, countTrailing(after.last_block_tree_oids.slice(0, -1), outcome.check.tree_oid ?? "")),
      ...(settings.templates ? { templates: settings.templates } : {}),
    },
    outcome.run.output,
    after.reinforcement_level,
    describeEvaluation(after, outcome.check.iteration, outcome.evaluation),
  );
  return { ...decision, reason };
}

/** How many entries at the end of `list` equal `value`. */
function countTrailing(list: readonly string[], value: string): number {
  let n = 0;
  for (let i = list.length - 1; i >= 0 && list[i] === value; i--) n++;
  return n;
}
