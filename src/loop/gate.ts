/**
 * The human side of the loop engine (reference guide, "Human Gate":
 * Approve, Reject, Abort; "Loop Completion Flow": select best output):
 * - `ralph approve`: keep the change; the regression's findings are
 *   allowed for the rest of the loop (state `allow_rules`); the loop runs on.
 * - `ralph reject`: restore the last good checkpoint (the latest iteration
 *   before the regression with no BLOCK finding against the baseline, else
 *   the baseline) through the store's undoable restore; the loop runs on.
 * - `ralph abort`: end the loop (`aborted`).
 * - `ralph resume`: a paused (with no decision pending), crashed or
 *   interrupted (its check's process died) loop runs on.
 * - `ralph select --best`: restore the best iteration's tree and move
 *   `refs/ralph/<loop>/best` to it.
 * Iteration numbers never go back: a reject restores files, and the next
 * iteration gets the next number (its ref must not overwrite the rejected one).
 */
import { RalphError } from "../errors.js";
import type { CheckpointStore, RevertResult } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import { isoOf, loadLoop, wasInterrupted } from "./lifecycle.js";
import { bestEntry, selectBest, type ProgressSettings } from "./progress.js";
import { pendingGateEvents, refreshRecoveryInProgress } from "./recovery.js";
import { clearActiveLoop, isTerminal, setActiveLoop, transition, updateState, type LoopState, type RegressionEvent } from "./state.js";

/** A human's answer at the gate. */
export type GateDecision = "approve" | "reject" | "abort";

/** What {@link decideGate} did. */
export interface GateResult {
  loop: LoopId;
  decision: GateDecision;
  /** The events decided (empty for an abort with nothing pending). */
  events: string[];
  status: LoopState["status"];
  /** reject: the restore (null otherwise). */
  restore: (RevertResult & { targetLabel: string }) | null;
}

/** The last good checkpoint before `iteration`: the latest earlier iteration with no BLOCK finding against the baseline, else the baseline. */
export function lastGoodCheckpoint(store: CheckpointStore, loop: LoopId, state: LoopState, iteration: number): { oid: string; label: string } | null {
  for (let i = state.iteration_history.length - 1; i >= 0; i--) {
    const r = state.iteration_history[i];
    if (r && r.iteration < iteration && r.checkpoint_oid && r.findings.block === 0 && !r.regression_detected) return { oid: r.checkpoint_oid, label: `iteration ${r.iteration}` };
  }
  const baseline = store.readLoopRef(loop, "baseline");
  return baseline ? { oid: baseline, label: "@baseline" } : null;
}

function updateFalsePositiveRate(state: LoopState): void {
  // Only detector findings can be false positives: a stuck loop is a pattern of the loop, not a finding.
  const decided = state.regression_events.filter((e) => e.regression_type !== "stuck_loop" && (e.human_decision === "approve" || e.human_decision === "reject"));
  if (decided.length === 0) return;
  const approved = decided.filter((e) => e.human_decision === "approve").length;
  state.persistence_metrics.false_positive_rate = Math.round((approved / decided.length) * 1000) / 10;
}

function markDecided(state: LoopState, events: RegressionEvent[], decision: GateDecision, nowIso: string): void {
  const outcome = decision === "approve" ? "approved" : decision === "reject" ? "rejected" : "aborted";
  const ids = new Set(events.map((e) => e.event_id));
  for (const e of state.regression_events) {
    if (!ids.has(e.event_id)) continue;
    e.human_decision = decision;
    e.recovery_outcome = outcome;
    e.decided_at = nowIso;
  }
  for (const r of state.recovery_history) if (ids.has(r.event_id)) r.outcome = outcome;
  refreshRecoveryInProgress(state);
  updateFalsePositiveRate(state);
}

/**
 * Applies a human decision to the loop's pending regressions (see the module doc).
 * @throws RalphError E_USAGE when nothing waits for approve/reject, or the loop is over; E_RESTORE_REFUSED (reject, without `force`); store and state errors.
 */
export function decideGate(store: CheckpointStore, loop: LoopId, decision: GateDecision, options: { nowMs?: number; force?: boolean } = {}): GateResult {
  const workTree = store.repo.workTree;
  const now = isoOf(options.nowMs ?? Date.now());
  const current = loadLoop(workTree, loop);
  const pending = pendingGateEvents(current);
  if (isTerminal(current.status)) throw new RalphError("E_USAGE", `loop ${loop} is ${current.status}: there is nothing to ${decision}`, { data: { loop, status: current.status } });
  if (decision !== "abort" && pending.length === 0) {
    throw new RalphError("E_USAGE", `loop ${loop} has no regression waiting for a decision (status ${current.status}); see 'ralph status'`, { data: { loop, status: current.status } });
  }
  let restore: GateResult["restore"] = null;
  if (decision === "reject") {
    const firstIteration = Math.min(...pending.map((e) => e.iteration));
    const target = lastGoodCheckpoint(store, loop, current, firstIteration);
    if (!target) throw new RalphError("E_UNKNOWN_LOOP", `loop ${loop} has no baseline checkpoint to restore`, { data: { loop } });
    const treeOid = store.readCheckpoint(target.oid).treeOid;
    restore = { ...store.revert({ oid: target.oid, treeOid, label: target.label }, { loop, force: options.force ?? false }), targetLabel: target.label };
  }
  const { state } = updateState(workTree, loop, (s) => {
    const events = pendingGateEvents(s);
    markDecided(s, events, decision, now);
    if (decision === "approve") {
      for (const e of events) {
        const files = new Set(((e.details.findings as { file?: unknown }[] | undefined) ?? []).map((f) => f.file).filter((f): f is string => typeof f === "string"));
        if (files.size === 0) s.allow_rules.push({ type: e.regression_type, reason: `approved by a human at ${e.event_id}` });
        for (const file of files) s.allow_rules.push({ type: e.regression_type, path: file, reason: `approved by a human at ${e.event_id}` });
      }
    }
    if (decision === "reject" && restore) {
      for (const e of s.regression_events) if (events.some((p) => p.event_id === e.event_id)) e.details = { ...e.details, restored_to: restore.targetLabel, pre_revert_checkpoint: restore.preRevert };
    }
    if (decision === "abort") transition(s, "aborted", `aborted by ralph abort${events.length ? ` at ${events.map((e) => e.event_id).join(", ")}` : ""}`, now);
    else if (s.status === "paused") transition(s, "running", `${decision === "approve" ? "approved" : "rejected"} by a human: ${events.map((e) => e.event_id).join(", ")}`, now);
    return { result: null };
  });
  if (decision === "abort") clearActiveLoop(workTree, loop);
  else setActiveLoop(workTree, loop);
  return { loop, decision, events: pending.map((e) => e.event_id), status: state.status, restore };
}

/**
 * `ralph resume`: a paused or crashed loop runs on (and becomes the active loop).
 * @throws RalphError E_USAGE when a regression waits for approve/reject/abort, or the loop is over or already running.
 */
export function resumeLoop(store: CheckpointStore, loop: LoopId, nowMs = Date.now()): LoopState {
  const workTree = store.repo.workTree;
  const { state } = updateState(workTree, loop, (s) => {
    const pending = pendingGateEvents(s);
    if (pending.length > 0) {
      throw new RalphError("E_USAGE", `loop ${loop} waits for a decision on ${pending.map((e) => e.event_id).join(", ")}: run ralph approve, ralph reject or ralph abort`, {
        data: { loop, pending: pending.map((e) => e.event_id) },
      });
    }
    const interrupted = wasInterrupted(s, nowMs);
    if (s.status !== "paused" && s.status !== "crashed" && !interrupted) {
      const hint = s.status === "completing" ? ": its completion check is still running (wait for it)" : "; only a paused, crashed or interrupted loop resumes";
      throw new RalphError("E_USAGE", `loop ${loop} is ${s.status}${hint}`, { data: { loop, status: s.status } });
    }
    transition(s, "running", `resumed by ralph resume (was ${s.status}${interrupted ? ", its check interrupted" : ""})`, isoOf(nowMs));
    s.blocks = 0;
    s.last_block_tree_oids = [];
    s.owner_session_id = null;
    return { result: null };
  });
  setActiveLoop(workTree, loop);
  return state;
}

/** What {@link selectBestIteration} did. */
export interface SelectResult {
  loop: LoopId;
  iteration: number;
  qualityScore: number;
  reason: string;
  checkpoint: string;
  /** null on a dry run. */
  restore: RevertResult | null;
}

/**
 * `ralph select --best`: chooses the best iteration (progress.ts
 * {@link selectBest}), restores its tree into the work tree (pre-revert
 * checkpoint first: undoable with `ralph revert`), moves
 * `refs/ralph/<loop>/best` to its checkpoint and records
 * `selected_iteration` and `best_iteration`.
 * @throws RalphError E_USAGE when no iteration reaches the threshold (the message names the highest score); E_RESTORE_REFUSED without `force`; store errors.
 */
export function selectBestIteration(
  store: CheckpointStore,
  loop: LoopId,
  settings: Pick<ProgressSettings, "qualityThreshold" | "requireVerification">,
  options: { dryRun?: boolean; force?: boolean; nowMs?: number } = {},
): SelectResult {
  const workTree = store.repo.workTree;
  const state = loadLoop(workTree, loop);
  const selection = selectBest(state.iteration_history, settings);
  if (!selection || !selection.record.checkpoint_oid) {
    const top = [...state.iteration_history].sort((a, b) => b.quality_score - a.quality_score)[0];
    throw new RalphError(
      "E_USAGE",
      state.iteration_history.length === 0
        ? `loop ${loop} has no ended iteration yet: nothing to select`
        : `no iteration of loop ${loop} reaches the quality threshold ${settings.qualityThreshold}${settings.requireVerification ? " with a passing completion command" : ""} (highest: iteration ${top?.iteration} at ${top?.quality_score}); pass --threshold N to lower it`,
      { data: { loop, threshold: settings.qualityThreshold, highest: top ? { iteration: top.iteration, quality_score: top.quality_score } : null } },
    );
  }
  const { record, reason } = selection;
  const checkpoint = record.checkpoint_oid as string;
  const label = `iteration ${record.iteration}`;
  if (options.dryRun) {
    return {
      loop,
      iteration: record.iteration,
      qualityScore: record.quality_score,
      reason,
      checkpoint,
      restore: store.revert({ oid: checkpoint, treeOid: store.readCheckpoint(checkpoint).treeOid, label }, { loop, dryRun: true, force: options.force ?? false }),
    };
  }
  const restore = store.revert({ oid: checkpoint, treeOid: store.readCheckpoint(checkpoint).treeOid, label }, { loop, force: options.force ?? false });
  store.setLoopRef(loop, "best", checkpoint);
  updateState(workTree, loop, (s) => {
    s.selected_iteration = record.iteration;
    s.best_iteration = bestEntry(selection);
    s.last_updated = isoOf(options.nowMs ?? Date.now());
    return { result: null };
  });
  return { loop, iteration: record.iteration, qualityScore: record.quality_score, reason, checkpoint, restore };
}
