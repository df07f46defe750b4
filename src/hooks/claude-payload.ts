/**
 * Claude Code hook payloads, normalised. Every hook receives one JSON object
 * on stdin with the common fields `session_id`, `transcript_path`, `cwd`,
 * `permission_mode` and `hook_event_name`, plus per-event fields (Claude
 * Code hooks reference, code.claude.com/docs/en/hooks, "Hook input"):
 * PreToolUse `tool_name`, `tool_input`, `tool_use_id`; PostToolUse also
 * `tool_response`; Stop/SubagentStop `stop_hook_active`,
 * `last_assistant_message` (the text of the turn that ended) and, from
 * Claude Code 2.1.145, `background_tasks` (in-flight shells, subagents and
 * workflows, each with a `status`); SessionStart
 * `source`; UserPromptSubmit `prompt`; PreCompact `trigger`; SessionEnd
 * `reason`. Every field is treated as optional and of unknown type (issue 4),
 * and paths are normalised to `/`; a `transcript_path` starting with `~/`
 * is expanded to the home directory (the shell would have; Node does not).
 */
import { EMPTY_RUNTIME_ENV, homeOf } from "../runtime-env.js";
import { normalizeSlashes } from "./paths.js";

/** The Claude Code hook events ralph answers. */
export const CLAUDE_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop", "PreCompact", "SessionEnd"] as const;

/**
 * The payload fields a Claude Code event needs to be judged, each a
 * non-empty string: `session_id`, and `tool_name` for PreToolUse and
 * PostToolUse (the common and tool fields of code.claude.com/docs/en/hooks).
 */
export function claudeRequiredFields(event: string): readonly string[] {
  return event === "PreToolUse" || event === "PostToolUse" ? ["session_id", "tool_name"] : ["session_id"];
}

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
  /** Stop/SubagentStop `last_assistant_message`, as sent (may be empty). */
  lastAssistantMessage: string | undefined;
  /** Stop/SubagentStop `background_tasks`: its object entries, or undefined when the field is absent or not an array. */
  backgroundTasks: Array<Record<string, unknown>> | undefined;
  /** UserPromptSubmit `prompt`. */
  prompt: string | undefined;
  /** SessionStart `source`, PreCompact `trigger`, SessionEnd `reason`. */
  source: string | undefined;
}

const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);
const PATH_FIELDS = ["file_path", "notebook_path", "path"] as const;

/** `~/x` -> `<home>/x` (and `~` alone -> home); any other path unchanged. */
export function expandHome(path: string | undefined, home: string): string | undefined {
  if (path === undefined) return undefined;
  if (path === "~") return normalizeSlashes(home);
  return path.startsWith("~/") ? `${normalizeSlashes(home).replace(/\/$/, "")}/${path.slice(2)}` : path;
}

/**
 * Normalises a parsed payload (any JSON value). `eventArg` (from
 * `ralph hook claude EVENT`) wins over `hook_event_name`; `home` expands a
 * `~/` transcript path (the run's HOME, src/runtime-env.ts `homeOf`; default the passwd entry's).
 */
export function normalizePayload(raw: unknown, eventArg?: string, home: string = homeOf(EMPTY_RUNTIME_ENV.git)): ClaudePayload {
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
    transcriptPath: expandHome(path(o.transcript_path), home),
    cwd: path(o.cwd),
    toolName: str(o.tool_name),
    toolInput: input,
    toolResponse: o.tool_response,
    toolUseId: str(o.tool_use_id),
    stopHookActive: typeof o.stop_hook_active === "boolean" ? o.stop_hook_active : undefined,
    lastAssistantMessage: typeof o.last_assistant_message === "string" ? o.last_assistant_message : undefined,
    backgroundTasks: Array.isArray(o.background_tasks) ? o.background_tasks.filter((t): t is Record<string, unknown> => typeof t === "object" && t !== null && !Array.isArray(t)) : undefined,
    prompt: str(o.prompt),
    source: str(o.source) ?? str(o.trigger) ?? str(o.reason),
  };
}

/** The file a file tool names (`file_path`, or `notebook_path` for NotebookEdit), normalised to `/`. */
export function toolFilePath(payload: ClaudePayload): string | undefined {
  return str(payload.toolInput.file_path) ?? str(payload.toolInput.notebook_path);
}
