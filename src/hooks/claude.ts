/**
 * Claude Code's hook protocol: one event payload in, one decision object
 * out (Claude Code hooks reference, code.claude.com/docs/en/hooks). This
 * module only translates: the payload becomes an agent-neutral event
 * (src/usecases/event.ts), the use cases decide, and their verdict becomes
 * Claude Code's answer.
 *
 * Output per event, as the reference defines it:
 * - PreToolUse: `hookSpecificOutput: {hookEventName: "PreToolUse",
 *   permissionDecision: "allow" | "deny" | "ask", permissionDecisionReason}`.
 *   A deny reason goes to the model, an ask reason to the human. ralph never
 *   answers "allow" (that would skip the user's permission prompt): an
 *   action it does not object to gets `{}` and the normal permission flow.
 * - PostToolUse, Stop, SubagentStop: top-level `decision: "block"` and
 *   `reason` (the tool already ran: the reason is fed back to the model).
 * - SessionStart, UserPromptSubmit, PostToolUse: `hookSpecificOutput.
 *   additionalContext` reaches the model as a system reminder; ralph writes
 *   facts there, never commands.
 * - Any event: `systemMessage` is shown to the user ("Common JSON fields"):
 *   the human gate, a guard changed outside ralph.
 * Every reason and context is kept under 10,000 characters (the reference
 * caps injected hook output at 10,000).
 *
 * The `ralph hook` command reads stdin, prints, logs and fails open. The
 * use cases import the analysis, the Bash grammar and the judgement only
 * for the events that use them, so SessionStart, Stop and the
 * checkpoint-only events never load a parser (DESIGN.md budgets).
 */
import { statSync } from "node:fs";
import type { RuntimeEnv } from "../runtime-env.js";
import type { LoopId } from "../store/loop-id.js";
import type { AgentEvent } from "../usecases/event.js";
import type { Diagnostics, FileChange, ToolCall, ToolKind, Verdict } from "../usecases/types.js";
import { isClaudeEvent, toolFilePath, type ClaudeEvent, type ClaudePayload } from "./claude-payload.js";
import { previewEdit } from "./edit-preview.js";

/** Longest reason or context ralph sends (the reference caps hook output injected into context at 10,000 characters). */
export const MAX_REASON_CHARS = 9_500;

/** What a handler decided: the JSON to print and what to log. */
export interface ClaudeAnswer {
  /** The one JSON object for stdout. */
  output: Record<string, unknown>;
  /** The use cases' decision (src/usecases/types.ts Decision): allow | deny | ask | block | context | gate | guard | none. */
  decision: string;
  /** The repository root, when the cwd was inside one. */
  workTree: string | null;
  loop: LoopId | null;
  iteration: number | null;
  checkpoint?: string;
  findings?: string[];
  /** One line for the log. */
  why: string;
}

/** Cuts text to {@link MAX_REASON_CHARS}, saying how much was left out. */
export function clampReason(text: string): string {
  if (text.length <= MAX_REASON_CHARS) return text;
  const note = `\n… (${text.length - MAX_REASON_CHARS + 60} more characters left out; run 'ralph check' for everything)`;
  return text.slice(0, MAX_REASON_CHARS - note.length) + note;
}

/** A PreToolUse permission decision object. */
export function preToolOutput(decision: "allow" | "deny" | "ask", reason: string): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: clampReason(reason) } };
}

/** A top-level block (PostToolUse, Stop, SubagentStop). */
export function blockOutput(reason: string): Record<string, unknown> {
  return { decision: "block", reason: clampReason(reason) };
}

/** Facts for the model as `additionalContext` (SessionStart, UserPromptSubmit, PostToolUse). */
export function contextOutput(event: ClaudeEvent, text: string): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: clampReason(text) } };
}

const isDirectory = (path: string | undefined): path is string => {
  if (!path) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // a path from another machine (or Windows)
  }
};

/**
 * The directories a hook call may judge, in order: the project
 * (`CLAUDE_PROJECT_DIR`, which Claude Code sets for hook commands: hooks
 * reference, "Reference scripts by path"), the hook process's own working
 * directory (Claude Code starts hooks in the project), then the payload's
 * `cwd`. The payload's `cwd` follows the session's `cd`, into a nested
 * repository or a submodule too, so it is only the last resort: a `cd
 * vendor/lib` must not move the loop's judgement out of the project.
 */
export function callDirectories(payload: Pick<ClaudePayload, "cwd">, processCwd: string, env: Readonly<NodeJS.ProcessEnv>): string[] {
  const dirs = [env.CLAUDE_PROJECT_DIR, processCwd, payload.cwd].filter(isDirectory);
  return [...new Set(dirs)];
}

/**
 * Claude Code tools that change nothing (hooks reference, tool names):
 * allowed while the loop waits at the human gate; every other tool, MCP
 * tools included, is asked.
 */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["Read", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "TodoWrite", "TodoRead", "NotebookRead", "BashOutput", "ExitPlanMode"]);

/** What each Claude Code tool does, for the use cases: Bash runs a command, Write writes a file, the edit tools edit one. */
const TOOL_KINDS: ReadonlyMap<string, ToolKind> = new Map([
  ["Bash", "shell"],
  ["Write", "write"],
  ["Edit", "edit"],
  ["MultiEdit", "edit"],
  ["NotebookEdit", "edit"],
]);

/** The kind of a Claude Code tool (see {@link ToolKind}); unknown and MCP tools are `other`. */
export function claudeToolKind(tool: string): ToolKind {
  return TOOL_KINDS.get(tool) ?? (READ_ONLY_TOOLS.has(tool) ? "read" : "other");
}

/**
 * The tool call of a PreToolUse or PostToolUse payload: Bash's `command`;
 * for Write, Edit, MultiEdit and NotebookEdit the one file they name
 * (`file_path`, `notebook_path`) with its content after the call computed
 * from `tool_input` (src/hooks/edit-preview.ts).
 */
export function claudeToolCall(payload: ClaudePayload): ToolCall {
  const tool = payload.toolName ?? "";
  const kind = claudeToolKind(tool);
  const filePath = kind === "write" || kind === "edit" ? toolFilePath(payload) : undefined;
  const files: FileChange[] = filePath ? [{ path: filePath, preview: (before) => previewEdit(tool, payload.toolInput, before) }] : [];
  const command = kind === "shell" && typeof payload.toolInput.command === "string" ? payload.toolInput.command : undefined;
  return { kind, tool, id: payload.toolUseId, files, ...(command !== undefined ? { command } : {}) };
}

/** The agent-neutral event of a Claude Code event (src/usecases/event.ts). */
export function claudeEventOf(event: ClaudeEvent, payload: ClaudePayload): AgentEvent {
  switch (event) {
    case "SessionStart":
      return { type: "session-start" };
    case "UserPromptSubmit":
      return { type: "prompt" };
    case "PreToolUse":
      return { type: "before-tool", call: claudeToolCall(payload) };
    case "PostToolUse":
      return { type: "after-tool", call: claudeToolCall(payload) };
    case "Stop":
      return {
        type: "stop",
        stop: { transcriptPath: payload.transcriptPath, stopHookActive: payload.stopHookActive, lastAssistantMessage: payload.lastAssistantMessage, backgroundTasks: payload.backgroundTasks },
      };
    case "SubagentStop":
    case "PreCompact":
    case "SessionEnd":
      return { type: "checkpoint", label: `${event}${payload.source ? ` ${payload.source}` : ""}` };
  }
}

/** Claude Code's answer to a verdict of the use cases (see the module doc for the shapes). */
export function claudeOutputOf(event: ClaudeEvent, verdict: Verdict): Record<string, unknown> {
  let output: Record<string, unknown> = {};
  if (verdict.decision === "deny" || verdict.decision === "ask") output = preToolOutput(verdict.decision, verdict.reason ?? "");
  else if (verdict.decision === "block") output = blockOutput(verdict.reason ?? "");
  else if (verdict.decision === "context" && verdict.context !== undefined) output = contextOutput(event, verdict.context);
  return verdict.userMessage !== undefined ? { ...output, systemMessage: clampReason(verdict.userMessage) } : output;
}

/**
 * Answers one Claude Code hook call in the project's repository (see
 * {@link callDirectories}). Throws only for internal problems (no
 * repository, a lock held too long, a bug); the caller fails open.
 * @param processCwd the hook process's own working directory.
 * @param env the run's environment (src/runtime-env.ts): the store opens under it, aiwg.yml's overrides come from it.
 * @param diagnostics where warnings go (stderr).
 */
export async function answerClaudeEvent(payload: ClaudePayload, processCwd: string, env: RuntimeEnv, diagnostics: Diagnostics): Promise<ClaudeAnswer> {
  const event = payload.event;
  if (!isClaudeEvent(event)) {
    return { output: {}, decision: "none", workTree: null, loop: null, iteration: null, why: `event ${JSON.stringify(event ?? null)} is not one ralph answers` };
  }
  const { answerEvent } = await import("../usecases/event.js");
  const verdict = await answerEvent({
    agent: { id: "claude", name: "Claude Code" },
    directories: callDirectories(payload, processCwd, env.vars),
    sessionId: payload.sessionId,
    env,
    diagnostics,
    event: claudeEventOf(event, payload),
  });
  return {
    output: claudeOutputOf(event, verdict),
    decision: verdict.decision,
    workTree: verdict.workTree,
    loop: verdict.loop,
    iteration: verdict.iteration,
    ...(verdict.checkpoint ? { checkpoint: verdict.checkpoint } : {}),
    ...(verdict.findings ? { findings: verdict.findings } : {}),
    why: verdict.why,
  };
}
