/**
 * `ralph status [--loop ID] [--json]`: a loop's state (status, iteration,
 * last check, owner, counters), and any change to ralph's guard made
 * outside ralph (src/hooks/guard-record.ts; JSON `guard_changes`), which
 * keeps the loop from completing until `ralph confirm`. A state that cannot
 * be read is a user-fixable error (exit 2); when ralph's copy can restore
 * it, the message says so.
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { loadLoop } from "../../loop/lifecycle.js";
import { orderedIterations, sparkline } from "../../loop/report.js";
import { describeOwnerSource } from "../../loop/owner.js";
import { pendingGateEvents } from "../../loop/recovery.js";
import { readActiveLoop } from "../../loop/state.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore, shortOid } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "status");
  const store = openStore(ctx);
  const workTree = store.repo.workTree;
  const { checkGuard, describeGuardReport } = await import("../../hooks/guard-record.js");
  const guard = await checkGuard(store.repo);
  let loop;
  let state;
  try {
    loop = commandLoop(store, options.loop, "state");
    state = loadLoop(workTree, loop);
  } catch (error) {
    if (guard.changes.length > 0 && error instanceof RalphError) {
      throw new RalphError(
        error.code,
        `${error.message} (ralph's guard: ${guard.changes.length} change(s) made outside ralph; 'ralph confirm --restore' writes the loop state back from ralph's copy)`,
        { data: error.data, cause: error },
      );
    }
    throw error;
  }
  const active = readActiveLoop(workTree) === loop;
  const last = state.progress.completion_checks.at(-1) ?? null;
  const lines = [
    `loop ${state.loop_id}: ${state.status}${state.status_reason ? ` (${state.status_reason})` : ""}${active ? ", active" : ""}`,
    `task: ${state.task}`,
    `completion: ${state.completion_criteria}`,
    `iteration ${state.iteration}/${state.configuration.max_iterations}, ${state.blocks} stop block(s) in a row`,
    `baseline ${shortOid(store.readLoopRef(loop, "baseline"))}, head ${shortOid(store.readLoopRef(loop, "head"))}`,
  ];
  const scores = orderedIterations(state).map((r) => r.quality_score);
  if (scores.length > 0) lines.push(`quality ${sparkline(scores)}  first ${scores[0]}, last ${scores.at(-1)}, highest ${Math.max(...scores)} (0-100)`);
  if (last)
    lines.push(
      `last check: iteration ${last.iteration} ${last.passed ? "passed" : last.timed_out ? "timed out" : `failed (exit ${last.exit_code ?? "signal"})`} in ${last.duration_ms} ms at ${last.checked_at}`,
    );
  if (state.best_iteration)
    lines.push(
      `best: iteration ${state.best_iteration.iteration} at ${state.best_iteration.quality_score}${state.selected_iteration !== null ? `; selected: iteration ${state.selected_iteration}` : " (ralph select --best restores it)"}`,
    );
  lines.push(`reinforcement ${state.reinforcement_level}${state.plateau_detected ? ", plateau" : ""}${state.stuck_loop_detected ? ", stuck loop detected" : ""}`);
  const open = state.regression_events.filter((e) => e.recovery_outcome === "retrying" || e.recovery_outcome === "pending" || (e.recovery_outcome === "escalated" && e.human_decision === null));
  if (state.regression_events.length > 0) lines.push(`regressions: ${state.regression_events.length} (${open.length} open), recovery attempts ${state.recovery_attempts}`);
  const pending = pendingGateEvents(state);
  if (pending.length > 0) {
    lines.push(`waiting for a human: ${pending.map((e) => `${e.event_id} ${e.regression_type} (${e.severity}) at iteration ${e.iteration}`).join("; ")}`);
    lines.push("decide with: ralph approve (keep) | ralph reject (restore the last good checkpoint) | ralph abort");
  }
  lines.push(
    state.owner_session_id
      ? `owner session: ${state.owner_session_id} (${describeOwnerSource(state.owner_source)}); other sessions' stops are let go`
      : "owner session: none yet (the session that submits the next prompt here, or else the first to stop, becomes it; 'ralph start --session ID' names it)",
  );
  const guardMessage = describeGuardReport(guard);
  if (guardMessage) lines.push(guardMessage);
  return {
    json: {
      ...state,
      active,
      guard_changes: guard.changes,
      pending_decisions: pending.map((e) => e.event_id),
      refs: { baseline: store.readLoopRef(loop, "baseline"), head: store.readLoopRef(loop, "head"), best: store.readLoopRef(loop, "best") },
    },
    text: lines.join("\n"),
  };
}
