/**
 * Which agent session owns a loop (issue 10, "Ownership"): only the owner's
 * Stop runs the loop's check and can be blocked; any other session (a
 * second terminal, a session started for something else) is let go
 * without touching the loop. The owner is bound, first that applies:
 * 1. `ralph start --session ID` (source `start`);
 * 2. a `ralph start` the agent ran through its Bash tool: the PreToolUse
 *    hook of that call carries the session id (hooks reference, "Common
 *    input fields": `session_id`), records it as a claim
 *    (`.aiwg/ralph/owner-claim.json`, good for {@link OWNER_CLAIM_TTL_MS}),
 *    and the `ralph start` that follows takes it (source `bash`);
 * 3. the session that submits the next prompt in the project
 *    (UserPromptSubmit, source `prompt`);
 * 4. the first session to stop (src/loop/stop.ts, source `stop`), the
 *    fallback when none of the above happened.
 * A bound owner is changed only by `ralph start` again (a resume).
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";
import type { LoopId } from "../store/loop-id.js";
import { ensureStateRoot, readState, statePaths, updateState, writeFileAtomic, type OwnerSource } from "./state.js";

/** How long a PreToolUse claim waits for its `ralph start`, in ms (the Bash tool's longest timeout, 10 min). */
export const OWNER_CLAIM_TTL_MS = 10 * 60 * 1000;

/** Longest session id kept, in characters (Claude Code's are UUIDs). */
export const MAX_SESSION_ID_LENGTH = 200;

/** A session id as given, trimmed; null when empty, too long or holding control characters. */
export function cleanSessionId(id: string | undefined | null): string | null {
  const trimmed = (id ?? "").trim();
  if (trimmed === "" || trimmed.length > MAX_SESSION_ID_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) return null;
  return trimmed;
}

function claimPath(workTree: string): string {
  return join(statePaths(workTree).root, "owner-claim.json");
}

/** Records that `sessionId` is about to run `ralph start` (PreToolUse of its Bash call). Best effort: never throws. */
export function recordOwnerClaim(workTree: string, sessionId: string | undefined, nowMs = Date.now()): boolean {
  const session = cleanSessionId(sessionId);
  if (!session) return false;
  try {
    ensureStateRoot(workTree);
    writeFileAtomic(claimPath(workTree), `${JSON.stringify({ session_id: session, claimed_at: new Date(nowMs).toISOString() })}\n`, { durable: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * Takes (reads and removes) the claim left by a PreToolUse hook: the
 * session id, or null when there is none, it is older than
 * {@link OWNER_CLAIM_TTL_MS}, or unreadable.
 */
export function takeOwnerClaim(workTree: string, nowMs = Date.now()): string | null {
  const path = claimPath(workTree);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return null;
    raw = null;
  }
  rmSync(path, { force: true });
  const claim = raw as { session_id?: unknown; claimed_at?: unknown } | null;
  const at = typeof claim?.claimed_at === "string" ? Date.parse(claim.claimed_at) : Number.NaN;
  if (!Number.isFinite(at) || nowMs - at > OWNER_CLAIM_TTL_MS || at - nowMs > 60_000) return null;
  return cleanSessionId(typeof claim?.session_id === "string" ? claim.session_id : null);
}

/**
 * Binds `sessionId` as the owner of `loop` when the loop is running and has
 * none yet (UserPromptSubmit). Best effort: a state problem leaves the
 * loop as it was.
 * @returns true when this call bound it.
 */
export function bindOwnerIfUnowned(workTree: string, loop: LoopId, sessionId: string | undefined, source: OwnerSource): boolean {
  const session = cleanSessionId(sessionId);
  if (!session) return false;
  try {
    const current = readState(workTree, loop);
    if (!current || current.owner_session_id !== null || (current.status !== "running" && current.status !== "completing")) return false;
    return updateState(
      workTree,
      loop,
      (s) => {
        if (s.owner_session_id !== null) return { result: false };
        s.owner_session_id = session;
        s.owner_source = source;
        return { result: true };
      },
      { lockTimeoutMs: 2_000 },
    ).result;
  } catch {
    return false;
  }
}

/** How a status line names the way the owner was bound. */
export function describeOwnerSource(source: OwnerSource | null): string {
  switch (source) {
    case "start":
      return "bound by ralph start --session";
    case "bash":
      return "the session that ran ralph start";
    case "prompt":
      return "the session that submitted the next prompt";
    case "stop":
      return "the first session to stop";
    default:
      return "how it was bound is not recorded";
  }
}
