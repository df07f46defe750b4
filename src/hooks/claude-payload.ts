/**
 * Claude Code hook payloads, normalised. Every hook receives one JSON object
 * on stdin with the common fields `session_id`, `transcript_path`, `cwd`,
 * `permission_mode` and `hook_event_name`, plus per-event fields (Claude
 * Code hooks reference, code.claude.com/docs/en/hooks, "Hook input"):
 * PreToolUse `tool_name`, `tool_input`, `tool_use_id`; PostToolUse also
 * `tool_response`; Stop/SubagentStop `stop_hook_active`; SessionStart
 * `source`; UserPromptSubmit `prompt`; PreCompact `trigger`; SessionEnd
 * `reason`. Every field is treated as optional and of unknown type (issue 4),
 * and paths are normalised to `/`.
 */
import { normalizeSlashes } from "./paths.js";

/** The Claude Code hook events ralph answers. */
export const CLAUDE_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
] as const;

/** One of {@link CLAUDE_EVENTS}. */
export type ClaudeEvent = (typeof CLAUDE_EVENTS)[number];

/** True when `name` is an event ralph answers. */
export function isClaudeEvent(name: unknown): name is ClaudeEvent {
  return typeof name === "string" && (CLAUDE_EVENTS as readonly string[]).includes(name);
}

/** A payload after normalisation; absent or mistyped fields are undefined. */
export interface ClaudePayload {
  /** The event: the command line's EVENT argument, else `hook_event_name`. */
  event: string | undefined;
  sessionId: string | undefined;
  transcriptPath: string | undefined;
  cwd: string | undefined;
  toolName: string | undefined;
  /** `tool_input` with path fields (`file_path`, `notebook_path`, `path`) normalised to `/`. */
  toolInput: Record<string, unknown>;
  /** `tool_response` as sent (PostToolUse only), or undefined. */
  toolResponse: unknown;
  toolUseId: string | undefined;
  stopHookActive: boolean | undefined;
  /** SessionStart `source`, PreCompact `trigger`, SessionEnd `reason`. */
  source: string | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const PATH_FIELDS = ["file_path", "notebook_path", "path"] as const;

/**
 * Normalises a parsed payload (any JSON value). `eventArg` (from
 * `ralph hook claude EVENT`) wins over `hook_event_name`.
 */
export function normalizePayload(raw: unknown, eventArg?: string): ClaudePayload {
  const o = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  const input = typeof o.tool_input === "object" && o.tool_input !== null && !Array.isArray(o.tool_input) ? { ...(o.tool_input as Record<string, unknown>) } : {};
  for (const field of PATH_FIELDS) {
    const value = input[field];
    if (typeof value === "string") input[field] = normalizeSlashes(value);
  }
  const path = (value: unknown): string | undefined => {
    const s = str(value);
    return s === undefined ? undefined : normalizeSlashes(s);
  };
  return {
    event: str(eventArg) ?? str(o.hook_event_name),
    sessionId: str(o.session_id),
    transcriptPath: path(o.transcript_path),
    cwd: path(o.cwd),
    toolName: str(o.tool_name),
    toolInput: input,
    toolResponse: o.tool_response,
    toolUseId: str(o.tool_use_id),
    stopHookActive: typeof o.stop_hook_active === "boolean" ? o.stop_hook_active : undefined,
    source: str(o.source) ?? str(o.trigger) ?? str(o.reason),
  };
}

/** The file a file tool names (`file_path`, or `notebook_path` for NotebookEdit), normalised to `/`. */
export function toolFilePath(payload: ClaudePayload): string | undefined {
  return str(payload.toolInput.file_path) ?? str(payload.toolInput.notebook_path);
}

/** Tools that change files: each call is checkpointed after it runs. */
export const MUTATING_TOOLS: ReadonlySet<string> = new Set(["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit"]);

/** Tools whose effect on one named file ralph can compute before it runs. */
export const FILE_EDIT_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
