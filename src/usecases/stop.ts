/**
 * The stop decision of an agent session: the loop engine's rules
 * (src/loop/stop.ts decideStop, already agent-neutral) plus what a hook
 * adds around them: a session outside any active loop keeps the end of its
 * turn as a checkpoint in its own loop, and a loop that is over gets its
 * final report written once.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { BackgroundTask } from "../loop/stop.js";
import type { LoopId } from "../store/loop-id.js";
import type { Session, Verdict } from "./types.js";

/** What the agent says about the stop (every field may be missing; see src/loop/stop.ts StopInput). */
export interface StopFacts {
  /** The session's transcript (JSONL), when the agent keeps one ralph can read. */
  transcriptPath: string | undefined;
  /** True when the agent is already continuing because of a stop block (one chain); false or undefined starts a new chain. */
  stopHookActive: boolean | undefined;
  /** The text of the turn that just ended. */
  lastAssistantMessage?: string | undefined;
  /** In-flight background work (shells, subagents), when the agent reports it. */
  backgroundTasks?: readonly BackgroundTask[] | undefined;
}

/** Writes the loop's report when it is over (completed, failed or aborted) and has no report written since it ended. */
async function reportIfOver(workTree: string, loop: LoopId): Promise<void> {
  const { readState, isTerminal } = await import("../loop/state.js");
  let state;
  try {
    state = readState(workTree, loop);
  } catch {
    return;
  }
  if (!state || !isTerminal(state.status)) return;
  if (state.completion_report_path !== null && state.completed_at !== null) {
    try {
      // A report written after the loop ended is the final one already.
      if (statSync(join(workTree, state.completion_report_path)).mtimeMs >= Date.parse(state.completed_at)) return;
    } catch {
      /* missing: write it */
    }
  }
  const { writeFinalReport } = await import("../hooks/hook-log.js");
  await writeFinalReport(workTree, loop);
}

/**
 * Decides whether the agent may stop: `block` with the reason (the
 * completion command's failing output and the reinforcement text) while
 * the active loop's completion command fails and no safety valve applies;
 * `gate` (allowed, `userMessage` for the user) when the loop waits for the
 * human or cannot be judged; else `allow`. With no active loop the end of
 * the turn is checkpointed in the session's loop.
 */
export async function decideSessionStop(session: Session, facts: StopFacts): Promise<Verdict> {
  const { store, binding } = session;
  const { decideStop } = await import("../loop/stop.js");
  const decision = await decideStop({
    cwd: session.cwd,
    env: store.repo.env,
    sessionId: session.sessionId,
    transcriptPath: facts.transcriptPath,
    stopHookActive: facts.stopHookActive,
    lastAssistantMessage: facts.lastAssistantMessage,
    backgroundTasks: facts.backgroundTasks,
  });
  let checkpoint: string | undefined;
  if (decision.loop === null) {
    // No active loop: the loop engine wrote nothing; keep the end of the turn in the session's loop.
    checkpoint = store.checkpoint({ loop: binding.loop, kind: "manual", message: "Stop checkpoint (end of turn)" }).oid;
  }
  const written = checkpoint ? { checkpoint } : {};
  if (decision.action === "block") return { decision: "block", reason: decision.reason, why: decision.why, ...written };
  if (decision.loop !== null) await reportIfOver(store.repo.workTree, decision.loop as LoopId);
  if (decision.message) return { decision: "gate", userMessage: `ralph: ${decision.message}`, why: decision.why, ...written };
  return { decision: "allow", why: decision.why, ...written };
}
