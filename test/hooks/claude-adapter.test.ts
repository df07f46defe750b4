/**
 * The Claude Code adapter only translates: its tools become agent-neutral
 * tool calls, its events agent-neutral events, and verdicts its answers
 * (hooks reference shapes). Unit tests on values; no repository.
 */
import { describe, expect, it } from "vitest";
import { normalizePayload } from "../../src/hooks/claude-payload.js";
import { claudeEventOf, claudeOutputOf, claudeToolCall, claudeToolKind, MAX_REASON_CHARS } from "../../src/hooks/claude.js";

describe("Claude Code tools as tool calls", () => {
  it.each([
    ["Bash", "shell"],
    ["Write", "write"],
    ["Edit", "edit"],
    ["MultiEdit", "edit"],
    ["NotebookEdit", "edit"],
    ["Read", "read"],
    ["Grep", "read"],
    ["Task", "other"],
    ["mcp__db__query", "other"],
    ["toString", "other"],
    ["", "other"],
  ])("%s is %s", (tool, kind) => {
    expect(claudeToolKind(tool)).toBe(kind);
  });

  it("an Edit names its file and previews its content after the edit", () => {
    const call = claudeToolCall(normalizePayload({ tool_name: "Edit", tool_use_id: "t1", tool_input: { file_path: "C:\\p\\a.ts", old_string: "1", new_string: "2" } }));
    expect(call).toMatchObject({ kind: "edit", tool: "Edit", id: "t1" });
    expect(call.files.map((f) => f.path)).toEqual(["C:/p/a.ts"]);
    expect(call.files[0]?.preview?.("x = 1")).toEqual({ ok: true, after: "x = 2" });
    expect(call.files[0]?.preview?.("x = 3")).toMatchObject({ ok: false });
  });

  it("a Bash call carries its command and no files; an edit without a path names none", () => {
    expect(claudeToolCall(normalizePayload({ tool_name: "Bash", tool_input: { command: "ls" } }))).toEqual({ kind: "shell", tool: "Bash", id: undefined, files: [], command: "ls" });
    expect(claudeToolCall(normalizePayload({ tool_name: "Write", tool_input: { content: "x" } })).files).toEqual([]);
  });
});

describe("Claude Code events as agent events", () => {
  it("maps each event", () => {
    const payload = normalizePayload({ stop_hook_active: true, last_assistant_message: "done", transcript_path: "/t.jsonl", source: "compact" });
    expect(claudeEventOf("SessionStart", payload)).toEqual({ type: "session-start" });
    expect(claudeEventOf("UserPromptSubmit", payload)).toEqual({ type: "prompt" });
    expect(claudeEventOf("Stop", payload)).toEqual({ type: "stop", stop: { transcriptPath: "/t.jsonl", stopHookActive: true, lastAssistantMessage: "done", backgroundTasks: undefined } });
    expect(claudeEventOf("PreCompact", payload)).toEqual({ type: "checkpoint", label: "PreCompact compact" });
    expect(claudeEventOf("SessionEnd", normalizePayload({}))).toEqual({ type: "checkpoint", label: "SessionEnd" });
    expect(claudeEventOf("PreToolUse", normalizePayload({ tool_name: "Read" }))).toMatchObject({ type: "before-tool", call: { kind: "read" } });
  });
});

describe("verdicts as Claude Code answers", () => {
  it("deny and ask are PreToolUse permission decisions; block is a top-level block; context is additionalContext", () => {
    expect(claudeOutputOf("PreToolUse", { decision: "deny", reason: "no", why: "" })).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" },
    });
    expect(claudeOutputOf("PreToolUse", { decision: "ask", reason: "you?", why: "" })).toMatchObject({ hookSpecificOutput: { permissionDecision: "ask" } });
    expect(claudeOutputOf("PostToolUse", { decision: "block", reason: "weakened", why: "" })).toEqual({ decision: "block", reason: "weakened" });
    expect(claudeOutputOf("SessionStart", { decision: "context", context: "facts", why: "" })).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "facts" } });
    expect(claudeOutputOf("PreToolUse", { decision: "allow", why: "" })).toEqual({});
  });

  it("a message for the user is a systemMessage beside any answer, cut to the limit", () => {
    expect(claudeOutputOf("Stop", { decision: "gate", userMessage: "ralph: waits", why: "" })).toEqual({ systemMessage: "ralph: waits" });
    const long = claudeOutputOf("Stop", { decision: "block", reason: "r", userMessage: "x".repeat(20_000), why: "" });
    expect(long.decision).toBe("block");
    expect(String(long.systemMessage).length).toBeLessThanOrEqual(MAX_REASON_CHARS);
  });
});
