/**
 * Codex CLI's hook protocol (docs/agents.md, "Codex CLI"; openai/codex
 * codex-rs/hooks): payloads like Claude Code's plus `model` and `turn_id`,
 * `transcript_path` possibly null; shell calls as `Bash {command}`, file
 * edits as `apply_patch {command: <patch>}`.
 *
 * Answers (codex-rs/hooks/src/engine/output_parser.rs):
 * - PreToolUse: a deny is `hookSpecificOutput.permissionDecision: "deny"`
 *   with `permissionDecisionReason`. Codex rejects `"ask"` (the hook counts
 *   as failed and the call goes ahead), so what ralph would ask the human is
 *   denied with the reason saying the user decides (src/hooks/agent-adapter.ts
 *   askAsDeny).
 * - PostToolUse and Stop: `decision: "block"` with `reason`; Codex continues
 *   a blocked Stop with the reason as the next prompt and has no cap on
 *   blocks, so ralph's own valves (src/loop/stop.ts) end the chain.
 * - SessionStart, UserPromptSubmit, PostToolUse: `hookSpecificOutput.
 *   additionalContext`; any event: `systemMessage` for the user.
 * - Nothing to say: `{}` (Codex reads non-JSON Stop output as a failed hook).
 *
 * An `apply_patch` call is judged file by file on the content each file has
 * after the patch (src/hooks/apply-patch.ts), relative paths resolved
 * against the payload's `cwd` as Codex does. So is a `Bash` call whose whole
 * command is an `apply_patch <<'EOF'` heredoc (Codex applies those itself).
 * Codex's transcript is its own rollout format, so it is not read (the
 * context-use valve reads Claude Code transcripts only).
 */
import { readFileSync } from "node:fs";
import { isErrno } from "../errors.js";
import type { AgentEvent } from "../usecases/event.js";
import type { EditPreview, FileChange, ToolCall, Verdict } from "../usecases/types.js";
import { askAsDeny, asObject, clampReason, existingDirectories, objectField, stringField, type AgentAdapter, type AgentPayload } from "./agent-adapter.js";
import { extractShellPatch, parsePatch, previewPatch } from "./apply-patch.js";
import { isAbsolutePath, normalizeSlashes } from "./paths.js";

/** The Codex events ralph answers (SubagentStop, PreCompact and PostCompact only checkpoint). */
export const CODEX_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop", "PreCompact", "PostCompact"] as const;

/** Resolves a patch path against the call's directory, `/`-separated. */
function resolveAgainst(cwd: string, path: string): string {
  const p = normalizeSlashes(path);
  return isAbsolutePath(p) ? p : `${normalizeSlashes(cwd).replace(/\/$/, "")}/${p}`;
}

/** Reads a file for the patch preview; null when it does not exist. */
function readForPatch(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return null;
    throw error;
  }
}

/**
 * The files a patch changes, each with its content after the whole patch
 * (sections applied in order, so a file two sections touch is judged on the
 * result of both). A patch that does not parse gives no file; one that does
 * not apply gives its files with a preview saying why (Codex would apply
 * none of it: nothing is judged before the call).
 * @param cwd the directory relative patch paths resolve from.
 */
export function patchFileChanges(patch: string, cwd: string): FileChange[] {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return [];
  const resolved = parsed.hunks.map((h) =>
    h.kind === "update" ? { ...h, path: resolveAgainst(cwd, h.path), movePath: h.movePath === null ? null : resolveAgainst(cwd, h.movePath) } : { ...h, path: resolveAgainst(cwd, h.path) },
  );
  const preview = previewPatch(resolved, readForPatch);
  if (!preview.ok) {
    const failed: EditPreview = { ok: false, why: `the patch does not apply: ${preview.why}` };
    const paths = [...new Set(resolved.flatMap((h) => (h.kind === "update" && h.movePath ? [h.path, h.movePath] : [h.path])))];
    return paths.map((path) => ({ path, preview: () => failed }));
  }
  return preview.files.map((file) => ({ path: file.path, preview: (): EditPreview => ({ ok: true, after: file.after }) }));
}

/** The tool call of a PreToolUse or PostToolUse payload (see the module doc). */
export function codexToolCall(payload: AgentPayload, processCwd: string): ToolCall {
  const raw = payload.raw;
  const tool = payload.toolName ?? "";
  const input = objectField(raw, "tool_input");
  const command = typeof input.command === "string" ? input.command : undefined;
  const cwd = stringField(raw, "cwd") ?? processCwd;
  if (tool === "apply_patch") return { kind: "edit", tool, id: payload.toolUseId, files: command === undefined ? [] : patchFileChanges(command, cwd) };
  if (tool === "Bash") {
    const shellPatch = command === undefined ? null : extractShellPatch(command);
    if (shellPatch) {
      const dir = shellPatch.workdir === null ? cwd : resolveAgainst(cwd, shellPatch.workdir);
      return { kind: "edit", tool: "apply_patch", id: payload.toolUseId, files: patchFileChanges(shellPatch.patch, dir) };
    }
    return { kind: "shell", tool, id: payload.toolUseId, files: [], ...(command !== undefined ? { command } : {}) };
  }
  // MCP tools (mcp__server__tool) and anything else: not judged, asked at the human gate.
  return { kind: "other", tool, id: payload.toolUseId, files: [] };
}

/** Codex's Claude-like answers (see the module doc). */
function codexOutputOf(payload: AgentPayload, verdict: Verdict): Record<string, unknown> {
  const event = payload.event ?? "";
  let output: Record<string, unknown> = {};
  const reason = verdict.reason ?? "";
  if (event === "PreToolUse" && (verdict.decision === "deny" || verdict.decision === "ask")) {
    const text = verdict.decision === "ask" ? askAsDeny("Codex", reason) : reason;
    output = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: clampReason(text) } };
  } else if (verdict.decision === "block" && (event === "PostToolUse" || event === "Stop" || event === "SubagentStop")) {
    output = { decision: "block", reason: clampReason(reason) };
  } else if (verdict.decision === "context" && verdict.context !== undefined && (event === "SessionStart" || event === "UserPromptSubmit" || event === "PostToolUse" || event === "PreToolUse")) {
    output = { hookSpecificOutput: { hookEventName: event, additionalContext: clampReason(verdict.context) } };
  }
  return verdict.userMessage !== undefined ? { ...output, systemMessage: clampReason(verdict.userMessage) } : output;
}

/** Codex CLI's adapter. */
export const codexAdapter: AgentAdapter = {
  id: "codex",
  name: "Codex CLI",
  events: CODEX_EVENTS,
  required(event) {
    return event === "PreToolUse" || event === "PostToolUse" ? ["session_id", "tool_name"] : ["session_id"];
  },
  parse(raw, eventArg) {
    const o = asObject(raw);
    return { event: eventArg || stringField(o, "hook_event_name"), sessionId: stringField(o, "session_id"), toolUseId: stringField(o, "tool_use_id"), toolName: stringField(o, "tool_name"), raw: o };
  },
  directories(payload, processCwd) {
    // Codex starts a hook in the session's directory, the payload's cwd too.
    return existingDirectories([processCwd, stringField(payload.raw, "cwd")]);
  },
  eventOf(payload, processCwd): AgentEvent {
    const raw = payload.raw;
    switch (payload.event) {
      case "SessionStart":
        return { type: "session-start" };
      case "UserPromptSubmit":
        return { type: "prompt" };
      case "PreToolUse":
        return { type: "before-tool", call: codexToolCall(payload, processCwd) };
      case "PostToolUse":
        return { type: "after-tool", call: codexToolCall(payload, processCwd) };
      case "Stop": {
        const active = raw.stop_hook_active;
        const last = raw.last_assistant_message;
        return {
          type: "stop",
          stop: { transcriptPath: undefined, stopHookActive: typeof active === "boolean" ? active : undefined, lastAssistantMessage: typeof last === "string" ? last : undefined },
        };
      }
      default:
        return {
          type: "checkpoint",
          label: `${payload.event ?? "event"}${(stringField(raw, "source") ?? stringField(raw, "trigger")) ? ` ${stringField(raw, "source") ?? stringField(raw, "trigger")}` : ""}`,
        };
    }
  },
  outputOf: codexOutputOf,
  allowOutput: () => ({}),
};
