/**
 * The Codex, Gemini and Cursor adapters on their own (src/hooks/{codex,gemini,cursor}.ts):
 * fixture payloads become the agent-neutral events the use cases take, and
 * verdicts become each protocol's answers (docs/agents.md); Gemini's
 * `replace` preview; the agents' settings files are part of ralph's guard.
 * End to end through the built CLI: an agent editing its own settings to
 * drop ralph's entries is stopped.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { controlKindOf, describeSettingsChange } from "../../src/hooks/control-surface.js";
import { codexAdapter, patchFileChanges } from "../../src/hooks/codex.js";
import { cursorAdapter } from "../../src/hooks/cursor.js";
import { geminiAdapter, previewReplace } from "../../src/hooks/gemini.js";
import { addAgentHooks } from "../../src/hooks/agent-settings.js";
import type { ToolCall, Verdict } from "../../src/usecases/types.js";
import { fixturePayload } from "../helpers/agent-fixtures.js";
import { ralphEnv, runRalph } from "../helpers/cli.js";
import { git, makeRepo } from "../helpers/git.js";
import { spawnSync } from "node:child_process";

const deny: Verdict = { decision: "deny", reason: "no", why: "w" };
const ask: Verdict = { decision: "ask", reason: "the user decides", why: "w" };
const block: Verdict = { decision: "block", reason: "fix it", why: "w" };
const context: Verdict = { decision: "context", context: "facts", why: "w" };
const allow: Verdict = { decision: "allow", why: "w" };

describe("Codex adapter", () => {
  const dir = mkdtempSync(join(tmpdir(), "ralph-codex-"));
  writeFileSync(join(dir, "a.ts"), "one\ntwo\n");
  writeFileSync(join(dir, "old.ts"), "x\n");

  it("reads the fixture payloads into events, with transcript_path null and apply_patch as file edits", () => {
    const stop = codexAdapter.parse(fixturePayload("codex", "stop", { cwd: dir, message: "done" }), undefined);
    expect(codexAdapter.eventOf(stop, dir)).toEqual({ type: "stop", stop: { transcriptPath: undefined, stopHookActive: false, lastAssistantMessage: "done" } });
    const patch = "*** Begin Patch\n*** Update File: a.ts\n@@\n one\n-two\n+2\n*** Update File: old.ts\n*** Move to: new.ts\n@@\n-x\n+y\n*** Add File: b.ts\n+b\n*** End Patch";
    const pre = codexAdapter.parse(fixturePayload("codex", "pre-tool-use.apply-patch", { cwd: dir, patch }), undefined);
    const event = codexAdapter.eventOf(pre, "/elsewhere");
    expect(event.type).toBe("before-tool");
    const call = (event as { call: ToolCall }).call;
    expect(call).toMatchObject({ kind: "edit", tool: "apply_patch", id: "call_patch_1" });
    const after = call.files.map((f) => [f.path, f.preview?.(null)]);
    expect(after).toEqual([
      [`${dir}/a.ts`, { ok: true, after: "one\n2\n" }],
      [`${dir}/old.ts`, { ok: true, after: null }],
      [`${dir}/new.ts`, { ok: true, after: "y\n" }],
      [`${dir}/b.ts`, { ok: true, after: "b\n" }],
    ]);
  });

  it("judges an apply_patch heredoc in Bash as the patch, from its cd directory", () => {
    const command = `cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: c.ts\n+c\n*** End Patch\nEOF`;
    const pre = codexAdapter.parse(fixturePayload("codex", "pre-tool-use.bash", { cwd: dir, command }), undefined);
    const call = (codexAdapter.eventOf(pre, dir) as { call: ToolCall }).call;
    expect(call.kind).toBe("edit");
    expect(call.files.map((f) => f.path)).toEqual([`${dir}/sub/c.ts`]);
  });

  it("gives no preview for a patch that does not apply, and no file for one that does not parse", () => {
    const failing = patchFileChanges("*** Begin Patch\n*** Update File: a.ts\n@@\n-missing\n+x\n*** End Patch", dir);
    expect(failing.map((f) => f.preview?.(null))).toEqual([{ ok: false, why: expect.stringContaining("does not apply") }]);
    expect(patchFileChanges("not a patch", dir)).toEqual([]);
  });

  it.each<[string, Verdict, Record<string, unknown>]>([
    ["PreToolUse", deny, { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } }],
    ["PostToolUse", block, { decision: "block", reason: "fix it" }],
    ["Stop", block, { decision: "block", reason: "fix it" }],
    ["SessionStart", context, { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "facts" } }],
    ["Stop", { ...allow, userMessage: "ralph: the loop waits" }, { systemMessage: "ralph: the loop waits" }],
    ["Stop", allow, {}],
  ])("%s %j", (event, verdict, expected) => {
    expect(codexAdapter.outputOf({ event, sessionId: "s", toolUseId: undefined, toolName: undefined, raw: {} }, verdict)).toEqual(expected);
  });

  it("turns an ask into a deny that says the user decides (Codex rejects ask)", () => {
    const out = codexAdapter.outputOf({ event: "PreToolUse", sessionId: "s", toolUseId: undefined, toolName: undefined, raw: {} }, ask) as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain("the user decides");
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain("cannot ask the user");
  });
});

describe("Gemini adapter", () => {
  it.each<[Record<string, unknown>, string | null, { ok: boolean; after?: string | null }]>([
    [{ old_string: "b", new_string: "c" }, "a\nb\n", { ok: true, after: "a\nc\n" }],
    [{ old_string: "a", new_string: "z" }, "a a", { ok: false }],
    [{ old_string: "a", new_string: "z", expected_replacements: 2 }, "a a", { ok: true, after: "z z" }],
    [{ old_string: "", new_string: "new" }, null, { ok: true, after: "new" }],
    [{ old_string: "", new_string: "new" }, "exists", { ok: false }],
    [{ old_string: "x", new_string: "y" }, null, { ok: false }],
    [{ old_string: "missing", new_string: "y" }, "abc", { ok: false }],
  ])("previewReplace(%j, %j)", (input, before, expected) => {
    expect(previewReplace(input, before)).toMatchObject(expected);
  });

  it("maps the tools of the fixtures to kinds and files", () => {
    const write = geminiAdapter.parse(fixturePayload("gemini", "before-tool.write-file", { cwd: "/r", home: "/h", file: "/r/a.ts", content: "x" }), undefined);
    const call = (geminiAdapter.eventOf(write, "/r") as { call: ToolCall }).call;
    expect(call).toMatchObject({ kind: "write", tool: "write_file" });
    expect(call.files[0]?.preview?.(null)).toEqual({ ok: true, after: "x" });
    const shell = geminiAdapter.parse(fixturePayload("gemini", "before-tool.run-shell-command", { cwd: "/r", home: "/h", command: "ls", description: "list" }), undefined);
    expect((geminiAdapter.eventOf(shell, "/r") as { call: ToolCall }).call).toMatchObject({ kind: "shell", command: "ls" });
    const agent = geminiAdapter.parse(fixturePayload("gemini", "after-agent", { cwd: "/r", home: "/h", prompt: "p", message: "m" }), undefined);
    expect(geminiAdapter.eventOf(agent, "/r")).toEqual({ type: "stop", stop: { transcriptPath: undefined, stopHookActive: false, lastAssistantMessage: "m" } });
  });

  it.each<[string, Verdict, Record<string, unknown>]>([
    ["BeforeTool", deny, { decision: "deny", reason: "no" }],
    ["AfterTool", block, { decision: "deny", reason: "fix it" }],
    ["AfterAgent", block, { decision: "deny", reason: "fix it" }],
    ["BeforeAgent", context, { hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "facts" } }],
    ["AfterAgent", allow, {}],
  ])("%s %j", (event, verdict, expected) => {
    expect(geminiAdapter.outputOf({ event, sessionId: "s", toolUseId: undefined, toolName: undefined, raw: {} }, verdict)).toEqual(expected);
  });

  it("uses GEMINI_PROJECT_DIR first", () => {
    const project = mkdtempSync(join(tmpdir(), "ralph-gemini-"));
    const other = mkdtempSync(join(tmpdir(), "ralph-gemini-cwd-"));
    const payload = geminiAdapter.parse({ cwd: other }, "SessionStart");
    expect(geminiAdapter.directories(payload, other, { GEMINI_PROJECT_DIR: project })).toEqual([project, other]);
  });
});

describe("Cursor adapter", () => {
  it("reads conversation_id, workspace_roots, afterFileEdit's file and stop's status", () => {
    const root = mkdtempSync(join(tmpdir(), "ralph-cursor-"));
    const edit = cursorAdapter.parse(fixturePayload("cursor", "after-file-edit", { cwd: root, file: `${root}/a.ts`, old: "a", new: "b" }), undefined);
    expect(edit.sessionId).toBe("cursor-conv-5d21");
    expect(cursorAdapter.directories(edit, "/nonexistent", {})).toEqual([root]);
    expect(cursorAdapter.eventOf(edit, root)).toEqual({ type: "after-tool", call: { kind: "edit", tool: "edit", files: [{ path: `${root}/a.ts` }] } });
    const stop = cursorAdapter.parse(fixturePayload("cursor", "stop", { cwd: root }, { loop_count: 2 }), undefined);
    expect(cursorAdapter.eventOf(stop, root)).toEqual({ type: "stop", stop: { transcriptPath: undefined, stopHookActive: true } });
    const aborted = cursorAdapter.parse(fixturePayload("cursor", "stop", { cwd: root }, { status: "aborted" }), undefined);
    expect(cursorAdapter.eventOf(aborted, root)).toEqual({ type: "checkpoint", label: "stop aborted" });
  });

  it.each<[string, Record<string, unknown>, Verdict, Record<string, unknown>]>([
    ["beforeShellExecution", {}, deny, { permission: "deny", user_message: "no", agent_message: "no" }],
    ["beforeShellExecution", {}, ask, { permission: "ask", user_message: "the user decides", agent_message: "the user decides" }],
    ["beforeShellExecution", {}, allow, {}],
    ["beforeSubmitPrompt", {}, context, { continue: true }],
    ["stop", { status: "completed" }, block, { followup_message: "fix it" }],
    ["stop", { status: "error" }, block, {}],
    ["afterFileEdit", {}, block, {}],
  ])("%s %j %j", (event, raw, verdict, expected) => {
    expect(cursorAdapter.outputOf({ event, sessionId: "c", toolUseId: undefined, toolName: undefined, raw }, verdict)).toEqual(expected);
  });
});

describe("the agents' settings files are part of ralph's guard", () => {
  it.each([".codex/hooks.json", ".gemini/settings.json", ".cursor/hooks.json", ".claude/settings.json"])("%s is agent settings", (path) => {
    expect(controlKindOf(path)).toBe("agent-settings");
  });

  it("sees ralph's entries removed from Cursor's flat shape and Codex's grouped one", () => {
    for (const agent of ["cursor", "codex"] as const) {
      const installed = JSON.stringify(addAgentHooks(agent, {}, "/n", "/c"));
      const edited = JSON.parse(installed) as { hooks: Record<string, unknown> };
      delete edited.hooks[agent === "cursor" ? "stop" : "Stop"];
      expect(describeSettingsChange(installed, JSON.stringify(edited))).toContain("removes ralph's");
      expect(describeSettingsChange(installed, installed)).toBeNull();
    }
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["hooks.disabled naming ralph's entry", { hooks: { disabled: ["ralph-BeforeTool"] } }, /hooks\.disabled" naming ralph-BeforeTool/],
    ["hooks.enabled false", { hooks: { enabled: false } }, /hooks\.enabled/],
    ["tools.enableHooks false", { tools: { enableHooks: false } }, /tools\.enableHooks/],
  ])("Gemini: an edit that keeps ralph's entries but sets %s switches the guard off", (_name, extra, pattern) => {
    const installed = addAgentHooks("gemini", {}, "/n", "/c") as { hooks: Record<string, unknown> };
    const edited = { ...installed, ...extra, hooks: { ...installed.hooks, ...((extra.hooks as Record<string, unknown>) ?? {}) } };
    expect(describeSettingsChange(JSON.stringify(installed), JSON.stringify(edited))).toMatch(pattern);
    expect(describeSettingsChange(JSON.stringify(installed), JSON.stringify({ ...installed, hooks: { ...installed.hooks, disabled: ["someone-else"] } }))).toBeNull();
  });

  it("Codex: an apply_patch that drops ralph's Stop entry from .codex/hooks.json is denied, saying the user decides", () => {
    const root = makeRepo({ "README.md": "# x\n" });
    expect(runRalph(root, ["install", "--codex"]).status).toBe(0);
    const file = join(root, ".codex", "hooks.json");
    const text = readFileSync(file, "utf8");
    const settings = JSON.parse(text) as { hooks: Record<string, unknown> };
    const command = (settings.hooks.PreToolUse as Array<{ hooks: Array<{ command: string }> }>)[0]!.hooks[0]!.command;
    delete settings.hooks.Stop;
    const patch = [
      "*** Begin Patch",
      "*** Delete File: .codex/hooks.json",
      "*** Add File: .codex/hooks.json",
      ...JSON.stringify(settings, null, 2)
        .split("\n")
        .map((l) => `+${l}`),
      "*** End Patch",
    ].join("\n");
    const payload = fixturePayload("codex", "pre-tool-use.apply-patch", { cwd: root, patch });
    const result = spawnSync(command, { shell: true, cwd: root, input: JSON.stringify(payload), encoding: "utf8", env: ralphEnv });
    expect(result.status, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(answer.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain("Stop");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("Codex: the PostToolUse checkpoint of a patch that moves a file holds the new path and not the old one", () => {
    const root = makeRepo({ "src/old.ts": "export const a = 1;\n", "README.md": "# x\n" });
    expect(runRalph(root, ["install", "--codex"]).status).toBe(0);
    const settings = JSON.parse(readFileSync(join(root, ".codex", "hooks.json"), "utf8")) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    const command = (event: string): string => settings.hooks[event]![0]!.hooks[0]!.command;
    const run = (event: string, fixture: string, values: Record<string, string>): Record<string, unknown> => {
      const result = spawnSync(command(event), { shell: true, cwd: root, input: JSON.stringify(fixturePayload("codex", fixture, { cwd: root, ...values })), encoding: "utf8", env: ralphEnv });
      expect(result.status, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    run("SessionStart", "session-start", {});
    const patch = "*** Begin Patch\n*** Update File: src/old.ts\n*** Move to: src/new.ts\n@@\n-export const a = 1;\n+export const a = 2;\n*** End Patch";
    expect(run("PreToolUse", "pre-tool-use.apply-patch", { patch })).toEqual({});
    writeFileSync(join(root, "src/new.ts"), "export const a = 2;\n");
    rmSync(join(root, "src/old.ts"));
    expect(run("PostToolUse", "post-tool-use.apply-patch", { patch, file: "src/new.ts" })).toEqual({});
    const log = readFileSync(join(root, ".aiwg/ralph/loops/codex-019a6f2e-codex-session/hook-log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { event: string; checkpoint?: string });
    const post = log.find((e) => e.event === "PostToolUse");
    expect(post?.checkpoint).toMatch(/^[0-9a-f]{40}$/);
    const files = git(root, ["ls-tree", "-r", "--name-only", post!.checkpoint!]).split("\n");
    expect(files).toContain("src/new.ts");
    expect(files).not.toContain("src/old.ts");
  });
});

// Found by helper "breaker" (2026-12-02): these passed silently (exit 0, "{}", nothing on stderr).
describe("a payload missing the fields its event needs", () => {
  it.each([
    ["codex", "PreToolUse", "{}", "session_id, tool_name"],
    ["gemini", "BeforeTool", "{}", "session_id, tool_name"],
    ["cursor", "beforeShellExecution", "{}", "conversation_id, command"],
    ["claude", "PreToolUse", "{}", "session_id, tool_name"],
    ["claude", "Stop", '{"session_id":5}', "session_id"],
  ] as const)("%s %s with %s fails open with one line on stderr naming what was missing", (agent, event, input, named) => {
    const root = makeRepo({ "a.txt": "a\n" });
    const result = runRalph(root, ["hook", agent, event], { env: { RALPH_NO_DAEMON: "1" }, input });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe("{}");
    const lines = result.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toEqual([`ralph: hook ${agent} ${event}: the payload has no ${named} (${named.includes(",") ? "non-empty strings" : "a non-empty string"} expected); allowing`]);
  });
});
