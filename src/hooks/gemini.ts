/**
 * Gemini CLI's hook protocol (docs/agents.md, "Gemini CLI";
 * google-gemini/gemini-cli docs/hooks/reference.md): its own event names
 * (BeforeTool, AfterTool, BeforeAgent, AfterAgent, SessionStart,
 * PreCompress, SessionEnd; Claude Code's names are not Gemini events and get
 * no answer), tools `run_shell_command {command}`, `write_file {file_path,
 * content}`, `replace {file_path, old_string, new_string,
 * expected_replacements?}`.
 *
 * Answers ("Common output fields"):
 * - BeforeTool: `decision: "deny"` with `reason` (the tool does not run, the
 *   reason reaches the model as the tool's error). Gemini's reference has no
 *   `ask`, so what ralph would ask the human is denied with the reason saying
 *   the user decides.
 * - AfterTool: `decision: "deny"` with `reason` replaces the tool result the
 *   model sees (the change has landed; the reason says how to restore it);
 *   `hookSpecificOutput.additionalContext` adds facts to the result.
 * - AfterAgent: `decision: "deny"` rejects the turn's response and retries
 *   with `reason` as the next prompt; the retry carries `stop_hook_active`.
 * - SessionStart, BeforeAgent: `hookSpecificOutput.additionalContext`.
 * - `systemMessage`: shown to the user.
 * The project directory is `GEMINI_PROJECT_DIR`, which Gemini sets for hook
 * commands (docs/hooks/index.md, "Environment variables").
 */
import type { AgentEvent } from "../usecases/event.js";
import type { EditPreview, FileChange, ToolCall, ToolKind, Verdict } from "../usecases/types.js";
import { askAsDeny, asObject, clampReason, existingDirectories, objectField, stringField, type AgentAdapter, type AgentPayload } from "./agent-adapter.js";

/** The Gemini events ralph answers. */
export const GEMINI_EVENTS = ["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "PreCompress", "SessionEnd"] as const;

/** Gemini's built-in tools that change nothing (docs/hooks/index.md, "Available tool names"). */
const READ_ONLY: ReadonlySet<string> = new Set(["read_file", "read_many_files", "list_directory", "glob", "search_file_content", "google_web_search", "web_fetch", "write_todos", "save_memory"]);

const KINDS: ReadonlyMap<string, ToolKind> = new Map([
  ["run_shell_command", "shell"],
  ["write_file", "write"],
  ["replace", "edit"],
]);

/** The kind of a Gemini tool; MCP and unknown tools are `other`. */
export function geminiToolKind(tool: string): ToolKind {
  return KINDS.get(tool) ?? (READ_ONLY.has(tool) ? "read" : "other");
}

/**
 * A `replace` call's content after it runs (docs/tools/file-system.md,
 * "replace"): an empty `old_string` creates a file that does not exist;
 * otherwise `old_string` must occur exactly `expected_replacements` times
 * (default 1), and every occurrence is replaced. Gemini may correct an
 * `old_string` that does not match with the model's help; ralph does not
 * guess that correction, so such a call is not judged before it runs (its
 * after-tool checkpoint is).
 */
export function previewReplace(input: Record<string, unknown>, before: string | null): EditPreview {
  const oldString = input.old_string;
  const newString = input.new_string;
  if (typeof oldString !== "string" || typeof newString !== "string") return { ok: false, why: "old_string or new_string missing" };
  if (oldString === "") return before === null ? { ok: true, after: newString } : { ok: false, why: "empty old_string on an existing file (the tool will fail)" };
  if (before === null) return { ok: false, why: "the file does not exist (the tool will fail)" };
  const expected = typeof input.expected_replacements === "number" && Number.isInteger(input.expected_replacements) && input.expected_replacements > 0 ? input.expected_replacements : 1;
  const parts = before.split(oldString);
  const found = parts.length - 1;
  if (found !== expected) return { ok: false, why: `old_string found ${found} time(s), expected ${expected}` };
  return { ok: true, after: parts.join(newString) };
}

/** The tool call of a BeforeTool or AfterTool payload. */
export function geminiToolCall(payload: AgentPayload): ToolCall {
  const tool = payload.toolName ?? "";
  const kind = geminiToolKind(tool);
  const input = objectField(payload.raw, "tool_input");
  const filePath = typeof input.file_path === "string" && input.file_path !== "" ? input.file_path : undefined;
  let files: FileChange[] = [];
  if (kind === "write" && filePath) {
    files = [{ path: filePath, preview: (): EditPreview => (typeof input.content === "string" ? { ok: true, after: input.content } : { ok: false, why: "content missing" }) }];
  } else if (kind === "edit" && filePath) files = [{ path: filePath, preview: (before) => previewReplace(input, before) }];
  const command = kind === "shell" && typeof input.command === "string" ? input.command : undefined;
  return { kind, tool, id: payload.toolUseId, files, ...(command !== undefined ? { command } : {}) };
}

/** Gemini's answers (see the module doc). */
function geminiOutputOf(payload: AgentPayload, verdict: Verdict): Record<string, unknown> {
  const event = payload.event ?? "";
  let output: Record<string, unknown> = {};
  const reason = verdict.reason ?? "";
  if (event === "BeforeTool" && (verdict.decision === "deny" || verdict.decision === "ask")) {
    output = { decision: "deny", reason: clampReason(verdict.decision === "ask" ? askAsDeny("Gemini CLI", reason) : reason) };
  } else if (verdict.decision === "block" && (event === "AfterTool" || event === "AfterAgent")) {
    output = { decision: "deny", reason: clampReason(reason) };
  } else if (verdict.decision === "context" && verdict.context !== undefined && (event === "SessionStart" || event === "BeforeAgent" || event === "AfterTool")) {
    output = { hookSpecificOutput: { hookEventName: event, additionalContext: clampReason(verdict.context) } };
  }
  return verdict.userMessage !== undefined ? { ...output, systemMessage: clampReason(verdict.userMessage) } : output;
}

/** Gemini CLI's adapter. */
export const geminiAdapter: AgentAdapter = {
  id: "gemini",
  name: "Gemini CLI",
  events: GEMINI_EVENTS,
  required(event) {
    return event === "BeforeTool" || event === "AfterTool" ? ["session_id", "tool_name"] : ["session_id"];
  },
  parse(raw, eventArg) {
    const o = asObject(raw);
    // Gemini sends no tool call id; the log keys on the tool name.
    return { event: eventArg || stringField(o, "hook_event_name"), sessionId: stringField(o, "session_id"), toolUseId: stringField(o, "tool_use_id"), toolName: stringField(o, "tool_name"), raw: o };
  },
  directories(payload, processCwd, env) {
    return existingDirectories([env.GEMINI_PROJECT_DIR, processCwd, stringField(payload.raw, "cwd")]);
  },
  eventOf(payload): AgentEvent {
    const raw = payload.raw;
    switch (payload.event) {
      case "SessionStart":
        return { type: "session-start" };
      case "BeforeAgent":
        return { type: "prompt" };
      case "BeforeTool":
        return { type: "before-tool", call: geminiToolCall(payload) };
      case "AfterTool":
        return { type: "after-tool", call: geminiToolCall(payload) };
      case "AfterAgent": {
        const active = raw.stop_hook_active;
        const response = raw.prompt_response;
        return {
          type: "stop",
          stop: { transcriptPath: undefined, stopHookActive: typeof active === "boolean" ? active : undefined, lastAssistantMessage: typeof response === "string" ? response : undefined },
        };
      }
      default: {
        const detail = stringField(raw, "trigger") ?? stringField(raw, "reason");
        return { type: "checkpoint", label: `${payload.event ?? "event"}${detail ? ` ${detail}` : ""}` };
      }
    }
  },
  outputOf: geminiOutputOf,
  allowOutput: () => ({}),
};
