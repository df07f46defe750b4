/**
 * Which loop an agent session's checkpoints go to. A session start and a
 * prompt (Claude Code's SessionStart and UserPromptSubmit) bind the session:
 * to the repository's active loop (the
 * mark `ralph start` writes, read through src/loop/state.ts), else to a
 * per-session guard loop `<agent>-<session>` (`claude-<session>`) that
 * checkpoints and judges but never blocks Stop. The binding is kept in
 * `.aiwg/ralph/sessions/<guard id>.json` (written atomically) so later
 * events of the session use the same loop without deciding again.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";
import { renderReinforcement } from "../loop/reinforcement.js";
import { describeGate } from "../loop/recovery.js";
import { resolveLoop } from "../loop/resolve-loop.js";
import { ensureStateRoot, readState } from "../loop/state.js";
import { isLoopId, MAX_LOOP_ID_LENGTH, type LoopId } from "../store/loop-id.js";
import { STATE_DIR } from "../store/snapshot.js";

/** A session's loop, and whether it is the session's own guard loop. */
export interface SessionBinding {
  loop: LoopId;
  isGuard: boolean;
  sessionId: string | null;
}

/**
 * The guard loop id of a session: the agent's id (`claude`), `-`, and the
 * session id with every
 * character outside `A-Za-z0-9._-` replaced by `-`, runs of `.` collapsed,
 * cut to the loop id length limit; `<agent>-no-session` without an id.
 * @param agent the agent's id, a valid loop id prefix (default `claude`).
 */
export function guardLoopId(sessionId: string | undefined, agent = "claude"): LoopId {
  const cleaned = (sessionId ?? "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-.]+/, "");
  let id = `${agent}-${cleaned === "" ? "no-session" : cleaned}`.slice(0, MAX_LOOP_ID_LENGTH);
  id = id.replace(/(\.lock)+$/i, "").replace(/[.]+$/, "");
  return (isLoopId(id) ? id : `${agent}-no-session`) as LoopId;
}

function bindingPath(workTree: string, sessionId: string | undefined, agent: string): string {
  return join(workTree, STATE_DIR, "sessions", `${guardLoopId(sessionId, agent)}.json`);
}

/**
 * Binds a session of `agent` (default `claude`) to the active loop, else its
 * guard loop (src/loop/resolve-loop.ts, steps 3 and 4: a hook names no loop
 * and reads no `$RALPH_LOOP`), and records the binding.
 */
export function bindSession(workTree: string, sessionId: string | undefined, agent = "claude"): SessionBinding {
  const { loop, source } = resolveLoop({ workTree, need: "checkpoints", sessionLoop: guardLoopId(sessionId, agent) });
  const binding: SessionBinding = { loop, isGuard: source === "session", sessionId: sessionId ?? null };
  const path = bindingPath(workTree, sessionId, agent);
  ensureStateRoot(workTree);
  mkdirSync(join(path, ".."), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ session_id: binding.sessionId, loop: binding.loop, guard: binding.isGuard, bound_at: new Date().toISOString() })}\n`);
  renameSync(temp, path);
  return binding;
}

/** The session's recorded loop; binds it first when nothing is recorded (a session that began before `ralph install`). */
export function resolveSessionLoop(workTree: string, sessionId: string | undefined, agent = "claude"): SessionBinding {
  try {
    const raw = JSON.parse(readFileSync(bindingPath(workTree, sessionId, agent), "utf8")) as { loop?: unknown; guard?: unknown };
    if (typeof raw.loop === "string" && isLoopId(raw.loop)) return { loop: raw.loop, isGuard: raw.guard === true, sessionId: sessionId ?? null };
  } catch (error) {
    if (!isErrno(error, "ENOENT", "ENOTDIR") && !(error instanceof SyntaxError)) throw error;
  }
  return bindSession(workTree, sessionId, agent);
}

/** Facts of a loop's state that hooks show or log, when the loop engine keeps one. */
export interface LoopFacts {
  /** Iterations ended so far. */
  iteration: number | null;
  task: string | null;
  completionCommand: string | null;
  maxIterations: number | null;
  /** The reinforcement text of the current level, when the last completion check failed. */
  reinforcement: string | null;
  /** The human gate's text when the loop waits for a decision (src/loop/recovery.ts describeGate), else null. */
  gate: string | null;
}

/** Reads a loop's state through src/loop/state.ts; every field null when the loop has no (readable) state, as a guard loop has none. */
export function readLoopFacts(workTree: string, loop: LoopId): LoopFacts {
  const none: LoopFacts = { iteration: null, task: null, completionCommand: null, maxIterations: null, reinforcement: null, gate: null };
  let state: ReturnType<typeof readState>;
  try {
    state = readState(workTree, loop);
  } catch {
    return none;
  }
  if (!state) return none;
  const checks = state.progress.completion_checks;
  const last = checks[checks.length - 1];
  const reinforcement =
    last && !last.passed
      ? renderReinforcement(state.reinforcement_level, {
          loop,
          iteration: last.iteration,
          maxIterations: state.configuration.max_iterations,
          task: state.task,
          completionCommand: state.completion_criteria,
          exitCode: last.exit_code,
          timedOut: last.timed_out,
          timeoutMs: state.configuration.completion_timeout_ms,
          unchangedBlocks: 0,
        })
      : null;
  return {
    iteration: state.iteration,
    task: state.task || null,
    completionCommand: state.completion_criteria || null,
    maxIterations: state.configuration.max_iterations,
    reinforcement,
    gate: describeGate(state),
  };
}
