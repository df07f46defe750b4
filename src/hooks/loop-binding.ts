/**
 * Which loop a Claude Code session's checkpoints go to. SessionStart and
 * UserPromptSubmit bind the session: to the repository's active loop (the
 * marker `.aiwg/ralph/active` that `ralph start` writes, as src/loop/stop.ts
 * reads it), else to a per-session guard loop `claude-<session>` that
 * checkpoints and judges but never blocks Stop. The binding is kept in
 * `.aiwg/ralph/sessions/<guard id>.json` (written atomically) so later
 * events of the session use the same loop without deciding again.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";
import { isLoopId, MAX_LOOP_ID_LENGTH, type LoopId } from "../store/loop-id.js";
import { STATE_DIR } from "../store/snapshot.js";

/** A session's loop, and whether it is the session's own guard loop. */
export interface SessionBinding {
  loop: LoopId;
  isGuard: boolean;
  sessionId: string | null;
}

/**
 * The guard loop id of a session: `claude-` + the session id with every
 * character outside `A-Za-z0-9._-` replaced by `-`, runs of `.` collapsed,
 * cut to the loop id length limit; `claude-no-session` without an id.
 */
export function guardLoopId(sessionId: string | undefined): LoopId {
  const cleaned = (sessionId ?? "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/\.{2,}/g, ".")
    .replace(/^[-.]+/, "");
  let id = `claude-${cleaned === "" ? "no-session" : cleaned}`.slice(0, MAX_LOOP_ID_LENGTH);
  id = id.replace(/(\.lock)+$/i, "").replace(/[.]+$/, "");
  return (isLoopId(id) ? id : "claude-no-session") as LoopId;
}

/** The active loop of the repository (`ralph start`'s marker), or null. */
export function readActiveLoop(workTree: string): LoopId | null {
  try {
    const raw = readFileSync(join(workTree, STATE_DIR, "active"), "utf8").trim();
    return raw !== "" && isLoopId(raw) ? raw : null;
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return null;
    throw error;
  }
}

function bindingPath(workTree: string, sessionId: string | undefined): string {
  return join(workTree, STATE_DIR, "sessions", `${guardLoopId(sessionId)}.json`);
}

/** Binds a session to the active loop, else its guard loop, and records the binding. */
export function bindSession(workTree: string, sessionId: string | undefined): SessionBinding {
  const active = readActiveLoop(workTree);
  const binding: SessionBinding = { loop: active ?? guardLoopId(sessionId), isGuard: active === null, sessionId: sessionId ?? null };
  const path = bindingPath(workTree, sessionId);
  mkdirSync(join(path, ".."), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ session_id: binding.sessionId, loop: binding.loop, guard: binding.isGuard, bound_at: new Date().toISOString() })}\n`);
  renameSync(temp, path);
  return binding;
}

/** The session's recorded loop; binds it first when nothing is recorded (a session that began before `ralph install`). */
export function resolveSessionLoop(workTree: string, sessionId: string | undefined): SessionBinding {
  try {
    const raw = JSON.parse(readFileSync(bindingPath(workTree, sessionId), "utf8")) as { loop?: unknown; guard?: unknown };
    if (typeof raw.loop === "string" && isLoopId(raw.loop)) return { loop: raw.loop, isGuard: raw.guard === true, sessionId: sessionId ?? null };
  } catch (error) {
    if (!isErrno(error, "ENOENT", "ENOTDIR") && !(error instanceof SyntaxError)) throw error;
  }
  return bindSession(workTree, sessionId);
}

/** Facts of a loop's `state.json` that hooks show or log, when the loop engine wrote one. */
export interface LoopFacts {
  iteration: number | null;
  task: string | null;
  completionCommand: string | null;
  maxIterations: number | null;
}

/** Reads what it can of `.aiwg/ralph/loops/<loop>/state.json`; every field null when absent or unreadable. */
export function readLoopFacts(workTree: string, loop: string): LoopFacts {
  const none: LoopFacts = { iteration: null, task: null, completionCommand: null, maxIterations: null };
  let state: Record<string, unknown>;
  try {
    state = JSON.parse(readFileSync(join(workTree, STATE_DIR, "loops", loop, "state.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return none;
  }
  const num = (...keys: string[]): number | null => {
    for (const key of keys) if (typeof state[key] === "number") return state[key] as number;
    return null;
  };
  const text = (...keys: string[]): string | null => {
    for (const key of keys) if (typeof state[key] === "string") return state[key] as string;
    return null;
  };
  return {
    iteration: num("iteration", "current_iteration"),
    task: text("task", "prompt"),
    completionCommand: text("completion_command", "completionCommand", "completion"),
    maxIterations: num("max_iterations", "maxIterations"),
  };
}
