/**
 * Cursor's hook protocol (docs/agents.md, "Cursor"; cursor.com/docs/agent/hooks):
 * camelCase events with `conversation_id` and `workspace_roots` on every
 * payload; `beforeShellExecution {command, cwd}` answers `{permission:
 * "allow" | "deny" | "ask", user_message, agent_message}`;
 * `beforeSubmitPrompt` answers `{continue}`; `afterFileEdit {file_path,
 * edits}` and `afterShellExecution {command, output}` are fire-and-forget;
 * `stop {status, loop_count}` cannot block, but `{followup_message}` is
 * sent as the next user message, bounded by the entry's `loop_limit`.
 *
 * What follows from that:
 * - a shell command is judged before it runs (deny and ask as Cursor has
 *   them; `agent_message` to the model, `user_message` to the human);
 * - a file edit is checkpointed and judged only after it landed, and a shell
 *   command's effect after it ran; since those answers reach nobody and a
 *   deny was not possible, a change that brings a blocking finding is
 *   restored at once (as `recovery.auto_revert` does; the change stays in
 *   its post-tool checkpoint), and the finding is kept as a notice
 *   (`cursor-notices.json` in the loop's state folder) that reaches the
 *   model with the next stop's follow-up;
 * - a stop continues the loop (`followup_message`) only when its `status` is
 *   `completed`: an aborted or failed run was the user's or the service's
 *   stop, and is only checkpointed. `loop_count` > 0 is the continuation
 *   chain ralph's valves count (Claude Code's `stop_hook_active`).
 * ralph never answers `permission: "allow"` (that would skip Cursor's own
 * approval): a command it does not object to gets `{}`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../usecases/event.js";
import type { EventVerdict, ToolCall, Verdict } from "../usecases/types.js";
import { asObject, clampReason, existingDirectories, stringField, type AgentAdapter, type AgentPayload } from "./agent-adapter.js";
import { loopStateDir } from "./hook-log.js";

/** The Cursor events ralph answers (sessionStart, sessionEnd and preCompact only bind or checkpoint). */
export const CURSOR_EVENTS = ["sessionStart", "beforeSubmitPrompt", "beforeShellExecution", "afterShellExecution", "afterFileEdit", "stop", "sessionEnd", "preCompact"] as const;

/** The tool call of a shell or file-edit event (Cursor names no tool: ralph calls them `shell` and `edit`). */
export function cursorToolCall(payload: AgentPayload): ToolCall {
  const raw = payload.raw;
  if (payload.event === "afterFileEdit") {
    const file = stringField(raw, "file_path");
    return { kind: "edit", tool: "edit", files: file ? [{ path: file }] : [] };
  }
  const command = stringField(raw, "command");
  return { kind: "shell", tool: "shell", files: [], ...(command !== undefined ? { command } : {}) };
}

/** The notices file of a loop (blocking findings of after-the-fact events, waiting for the next stop). */
function noticesPath(workTree: string, loop: string): string {
  return join(loopStateDir(workTree, loop), "cursor-notices.json");
}

function readNotices(path: string): string[] {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Keeps a blocking after-the-fact verdict for the next stop, and adds the
 * kept ones to a completed stop's follow-up (then forgets them). A stop the
 * use cases let through becomes a follow-up when notices wait: the model
 * has not heard about them yet. Best effort: a notice that cannot be kept
 * is said on stderr.
 */
function settleCursor(payload: AgentPayload, verdict: EventVerdict, diagnostics: (text: string) => void): Verdict {
  const path = noticesPath(verdict.workTree, verdict.loop);
  try {
    if ((payload.event === "afterFileEdit" || payload.event === "afterShellExecution") && verdict.decision === "block" && verdict.reason) {
      mkdirSync(loopStateDir(verdict.workTree, verdict.loop), { recursive: true });
      writeFileSync(path, `${JSON.stringify([...readNotices(path), verdict.reason])}\n`);
      return verdict;
    }
    if (payload.event === "stop" && payload.raw.status === "completed") {
      const notices = readNotices(path);
      if (notices.length === 0) return verdict;
      rmSync(path, { force: true });
      const held = ["ralph: while you worked, these changes weakened the test suite:", ...notices].join("\n\n");
      if (verdict.decision === "block") return { ...verdict, reason: `${held}\n\n${verdict.reason ?? ""}` };
      return {
        ...verdict,
        decision: "block",
        reason: `${held}\n\nFix them before you finish: restore the tests and change the code under test instead.`,
        why: `${verdict.why}; ${notices.length} notice(s) from edits`,
      };
    }
  } catch (error) {
    diagnostics(`ralph: could not keep or read Cursor notices in ${path}: ${(error as Error).message}\n`);
  }
  return verdict;
}

/** Cursor's answers (see the module doc). */
function cursorOutputOf(payload: AgentPayload, verdict: Verdict): Record<string, unknown> {
  switch (payload.event) {
    case "beforeShellExecution": {
      if (verdict.decision !== "deny" && verdict.decision !== "ask") return verdict.userMessage ? { user_message: clampReason(verdict.userMessage) } : {};
      const reason = clampReason(verdict.reason ?? "");
      const user = verdict.userMessage ? clampReason(`${verdict.userMessage}\n${reason}`) : reason;
      return { permission: verdict.decision, user_message: user, agent_message: reason };
    }
    case "beforeSubmitPrompt":
      return { continue: true };
    case "stop":
      return verdict.decision === "block" && payload.raw.status === "completed" ? { followup_message: clampReason(verdict.reason ?? "") } : {};
    default:
      return {};
  }
}

/** Cursor's adapter. */
export const cursorAdapter: AgentAdapter = {
  id: "cursor",
  name: "Cursor",
  events: CURSOR_EVENTS,
  required(event) {
    if (event === "beforeShellExecution" || event === "afterShellExecution") return ["conversation_id|session_id", "command"];
    return event === "afterFileEdit" ? ["conversation_id|session_id", "file_path"] : ["conversation_id|session_id"];
  },
  parse(raw, eventArg) {
    const o = asObject(raw);
    return { event: eventArg || stringField(o, "hook_event_name"), sessionId: stringField(o, "conversation_id") ?? stringField(o, "session_id"), toolUseId: undefined, toolName: undefined, raw: o };
  },
  directories(payload, processCwd) {
    const roots = Array.isArray(payload.raw.workspace_roots) ? payload.raw.workspace_roots.filter((r): r is string => typeof r === "string") : [];
    return existingDirectories([...roots, processCwd, stringField(payload.raw, "cwd")]);
  },
  eventOf(payload): AgentEvent {
    const raw = payload.raw;
    switch (payload.event) {
      case "sessionStart":
        return { type: "session-start" };
      case "beforeSubmitPrompt":
        return { type: "prompt" };
      case "beforeShellExecution":
        return { type: "before-tool", call: cursorToolCall(payload) };
      case "afterShellExecution":
      case "afterFileEdit":
        return { type: "after-tool", call: cursorToolCall(payload) };
      case "stop": {
        if (raw.status !== "completed") return { type: "checkpoint", label: `stop ${typeof raw.status === "string" ? raw.status : "(no status)"}` };
        const count = raw.loop_count;
        return { type: "stop", stop: { transcriptPath: undefined, stopHookActive: typeof count === "number" ? count > 0 : undefined } };
      }
      default:
        return { type: "checkpoint", label: payload.event ?? "event" };
    }
  },
  outputOf: cursorOutputOf,
  allowOutput: (payload) => (payload.event === "beforeSubmitPrompt" ? { continue: true } : {}),
  restoresBlocked: (payload) => payload.event === "afterFileEdit" || payload.event === "afterShellExecution",
  settle: settleCursor,
};
