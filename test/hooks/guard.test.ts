/**
 * The agent cannot switch its guard off (issue 10): through the built CLI,
 * in a repository with ralph's Claude Code and git hooks installed and a
 * running loop, every tool call that would change ralph's control surface
 * (its settings entries, `disableAllHooks`, the pre-push hook, the loop
 * state, `.git/ralph`) is put to the human (`ask`, saying what it would
 * change), whether it comes as a file tool or a Bash command; a write that
 * keeps ralph's entries is not. A change made behind ralph's back (a script
 * the agent wrote earlier) is reported by the next hook call, Stop, `ralph
 * status` and `ralph doctor`, and the loop does not complete until the user
 * runs `ralph confirm`. Run `npm run build` first.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeSettingsChange } from "../../src/hooks/control-surface.js";
import { linesOf, parseJsonOutput, runRalph, type RunResult } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

const SESSION = "guard-session";

function installedRepo(completion = "true"): string {
  const root = makeRepo({ "src/math.ts": "export const add = (a: number, b: number) => a + b;\n", "README.md": "# x\n" });
  expect(runRalph(root, ["install", "--claude", "--git-hooks"]).status).toBe(0);
  expect(runRalph(root, ["start", "Keep add working", "--completion", completion, "--id", "work"]).status).toBe(0);
  return root;
}

function hook(root: string, payload: Record<string, unknown>): Record<string, unknown> {
  const full = { session_id: SESSION, transcript_path: "", cwd: root, permission_mode: "default", ...payload };
  const result: RunResult = runRalph(root, ["hook", "claude", String(payload.hook_event_name)], { input: JSON.stringify(full) });
  expect(result.status, result.stderr).toBe(0);
  expect(linesOf(result.stdout)).toHaveLength(1);
  return parseJsonOutput<Record<string, unknown>>(result);
}

const pre = (root: string, tool: string, input: Record<string, unknown>, id = `toolu_${tool}`): Record<string, unknown> =>
  hook(root, { hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: id });

const decisionOf = (answer: Record<string, unknown>): string | undefined => (answer.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision;
const reasonOf = (answer: Record<string, unknown>): string => (answer.hookSpecificOutput as { permissionDecisionReason?: string } | undefined)?.permissionDecisionReason ?? "";

describe("describeSettingsChange (unit)", () => {
  const ralph = (command = "node cli.js hook claude Stop --ralph-managed"): string => JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command }] }] } });
  it.each([
    ["ralph's entries removed", ralph(), "{}", /removes ralph's Stop hook/],
    ["the file deleted", ralph(), null, /deletes the file/],
    ["the command rewritten", ralph(), ralph("true --ralph-managed"), /rewrites ralph's Stop hook command/],
    ["disableAllHooks set", "{}", '{"disableAllHooks": true}', /disableAllHooks/],
    ["made invalid JSON", ralph(), "{ nope", /invalid JSON/],
  ])("%s is a change", (_name, before, after, pattern) => {
    expect(describeSettingsChange(before, after)).toMatch(pattern);
  });

  it.each([
    ["an unrelated permission added", ralph(), JSON.stringify({ ...JSON.parse(ralph()), permissions: { allow: ["Bash(npm test:*)"] } })],
    ["another hook added beside ralph's", ralph(), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "node cli.js hook claude Stop --ralph-managed" }, { type: "command", command: "say done" }] }] } })],
    ["disableAllHooks set to false", ralph(), JSON.stringify({ ...JSON.parse(ralph()), disableAllHooks: false })],
    ["a file without ralph's entries deleted", '{"permissions": {}}', null],
    ["a new file without disableAllHooks", null, '{"permissions": {}}'],
  ])("%s is no change", (_name, before, after) => {
    expect(describeSettingsChange(before, after)).toBeNull();
  });
});

describe("PreToolUse: a tool call that would switch the guard off goes to the human", () => {
  it("file tools: a Write or Edit that drops ralph's hooks, disableAllHooks in settings.local.json, a Write of the pre-push hook or of .git/ralph are asked; a Write keeping ralph's entries is not", () => {
    const root = installedRepo();
    const settingsPath = join(root, ".claude", "settings.json");
    const settings = readFileSync(settingsPath, "utf8");
    const parsed = JSON.parse(settings) as { hooks: Record<string, unknown> };
    const withoutStop = { ...parsed, hooks: { ...parsed.hooks } };
    delete withoutStop.hooks.Stop;
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      ["Write settings.json without ralph's hooks", "Write", { file_path: settingsPath, content: '{ "permissions": {} }\n' }, /removes ralph's .*hooks/],
      ["Write settings.json without the Stop hook", "Write", { file_path: settingsPath, content: JSON.stringify(withoutStop, null, 2) }, /removes ralph's Stop hook/],
      ["Edit that cuts the Stop entry", "Edit", { file_path: settingsPath, old_string: '"Stop"', new_string: '"NotAnEvent"' }, /removes ralph's Stop hook/],
      ["MultiEdit that rewrites a command", "MultiEdit", { file_path: settingsPath, edits: [{ old_string: "hook claude Stop", new_string: "--version; true" }] }, /Stop/],
      ["Write settings.local.json with disableAllHooks", "Write", { file_path: join(root, ".claude", "settings.local.json"), content: '{ "disableAllHooks": true }\n' }, /disableAllHooks/],
      ["Write of the pre-push hook", "Write", { file_path: join(root, ".git", "hooks", "pre-push"), content: "#!/bin/sh\nexit 0\n" }, /git hook that runs ralph/],
      ["Write into .git/ralph", "Write", { file_path: join(root, ".git", "ralph", "guard", "record.json"), content: "{}" }, /\.git\/ralph/],
    ];
    for (const [name, tool, input, pattern] of cases) {
      const answer = pre(root, tool, input);
      expect(decisionOf(answer), name).toBe("ask");
      expect(reasonOf(answer), name).toMatch(pattern);
    }
    // Nothing was written by the hook itself.
    expect(readFileSync(settingsPath, "utf8")).toBe(settings);
    const keeps = { ...parsed, permissions: { allow: ["Bash(npm test:*)"] } };
    expect(pre(root, "Write", { file_path: settingsPath, content: JSON.stringify(keeps, null, 2) })).toEqual({});
    expect(pre(root, "Edit", { file_path: settingsPath, old_string: '"hooks": {', new_string: '"permissions": { "allow": ["Read"] },\n  "hooks": {' })).toEqual({});
  });

  it.each([
    "rm .claude/settings.json",
    "echo {} > .claude/settings.json",
    "rm .git/hooks/pre-push",
    "chmod -x .git/hooks/pre-push",
    "rm -rf .aiwg",
    "node -e \"require('fs').writeFileSync('.claude/settings.json', '{}')\"",
    "git config --unset core.hooksPath",
    "cat > .claude/settings.local.json <<'EOF'\n{\"disableAllHooks\": true}\nEOF",
  ])("Bash %j is asked, saying what it would change", (command) => {
    const root = installedRepo();
    const answer = pre(root, "Bash", { command });
    expect(decisionOf(answer)).toBe("ask");
    expect(reasonOf(answer)).toMatch(/would change how ralph guards this session/);
  });

  it("Bash through an absolute path from a subdirectory is asked too", () => {
    const root = installedRepo();
    const answer = hook(root, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `rm ${root}/.claude/settings.json` }, cwd: join(root, "src"), tool_use_id: "toolu_abs" });
    expect(decisionOf(answer)).toBe("ask");
  });
});

describe("after the fact: a change made behind ralph's back", () => {
  it("is reported by the next hook call, keeps Stop from completing the loop until `ralph confirm`, and shows in status and doctor", () => {
    const root = installedRepo("true");
    // A script the agent wrote earlier drops ralph's Stop hook and marks the loop completed.
    const settingsPath = join(root, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as { hooks: Record<string, unknown> };
    delete settings.hooks.Stop;
    writeFileSync(settingsPath, JSON.stringify(settings));
    const statePath = join(root, ".aiwg", "ralph", "loops", "work", "state.json");
    const original = readFileSync(statePath, "utf8");
    writeFileSync(statePath, original.replace(/"max_iterations": \d+/, '"max_iterations": 200'));

    const next = pre(root, "Read", { file_path: join(root, "README.md") });
    expect(next.systemMessage).toMatch(/ralph's guard was changed outside ralph/);
    expect(next.systemMessage).toContain(".claude/settings.json: removes ralph's Stop hook");
    expect(next.systemMessage).toContain("state of loop work was changed outside ralph");
    // Reported once per new change, not on every tool call…
    expect(pre(root, "Read", { file_path: join(root, "README.md") }).systemMessage).toBeUndefined();
    // …and on every Stop, which does not run the loop's check: the loop is not completed although `true` passes.
    const stop = hook(root, { hook_event_name: "Stop", stop_hook_active: false });
    expect(stop.decision).toBeUndefined();
    expect(stop.systemMessage).toMatch(/ralph confirm/);
    expect(JSON.parse(readFileSync(statePath, "utf8")).status).toBe("running");

    const status = runRalph(root, ["status", "--json"]);
    expect(status.status).toBe(0);
    expect(parseJsonOutput<{ guard_changes: { path: string }[] }>(status).guard_changes.map((c) => c.path)).toEqual([".claude/settings.json", ".aiwg/ralph/loops/work/state.json"]);
    expect(runRalph(root, ["status"]).stdout).toContain("ralph confirm");
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(runRalph(root, ["doctor", "--json"])).guard_changes).toHaveLength(2);

    // The user restores the state from ralph's copy and puts the hooks back; the loop then runs and completes.
    const confirm = runRalph(root, ["confirm", "--restore", "--json"]);
    expect(confirm.status, confirm.stderr).toBe(0);
    expect(parseJsonOutput<{ restored: string[] }>(confirm).restored).toEqual([".aiwg/ralph/loops/work/state.json"]);
    expect(readFileSync(statePath, "utf8")).toBe(original);
    expect(runRalph(root, ["install", "--claude"]).status).toBe(0);
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(runRalph(root, ["status", "--json"])).guard_changes).toEqual([]);
    const after = hook(root, { hook_event_name: "Stop", stop_hook_active: false });
    expect(after.systemMessage).toBeUndefined();
    expect(JSON.parse(readFileSync(statePath, "utf8")).status).toBe("completed");
  });

  it("`ralph iterate` (a shell-driven loop) holds while a change is pending, as Stop does: no check runs, exit 2, the loop completes only after `ralph confirm`", () => {
    const root = installedRepo("true");
    const statePath = join(root, ".aiwg", "ralph", "loops", "work", "state.json");
    const original = readFileSync(statePath, "utf8");
    // A script rewrites the loop's limit and drops ralph's Stop hook behind ralph's back.
    writeFileSync(statePath, original.replace(/"max_iterations": \d+/, '"max_iterations": 200'));
    const settingsPath = join(root, ".claude", "settings.json");
    const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as { hooks: Record<string, unknown> };
    delete settings.hooks.Stop;
    writeFileSync(settingsPath, JSON.stringify(settings));

    for (let attempt = 0; attempt < 2; attempt++) {
      const held = runRalph(root, ["iterate", "--json"]);
      expect(held.status, held.stdout).toBe(2);
      expect(held.stderr).toMatch(/ralph's guard was changed outside ralph/);
      expect(held.stderr).toContain("ralph confirm");
      expect(held.stderr).toContain(".claude/settings.json: removes ralph's Stop hook");
      const data = JSON.parse(held.stdout) as { error: { data: { held: string; status: string; guard_changes: unknown[] } } };
      expect(data.error.data.held).toBe("guard");
      expect(data.error.data.status).toBe("running");
      expect(data.error.data.guard_changes).toHaveLength(2);
      // The completion command (`true`) did not run: the loop is neither completed nor one iteration further.
      const state = JSON.parse(readFileSync(statePath, "utf8")) as { status: string; iteration: number };
      expect(state.status).toBe("running");
      expect(state.iteration).toBe(0);
    }

    expect(runRalph(root, ["confirm", "--restore"]).status).toBe(0);
    expect(readFileSync(statePath, "utf8")).toBe(original);
    const done = runRalph(root, ["iterate", "--json"]);
    expect(done.status).toBe(2);
    expect(done.stderr).not.toMatch(/guard was changed/);
    expect(JSON.parse(readFileSync(statePath, "utf8")).status).toBe("completed");
  });

  it("a deleted loop state (rm -rf .aiwg) and a removed pre-push hook are noticed; status says the copy can restore it", () => {
    const root = installedRepo("false");
    rmSync(join(root, ".aiwg"), { recursive: true, force: true });
    rmSync(join(root, ".git", "hooks", "pre-push"));
    const status = runRalph(root, ["status", "--loop", "work"]);
    expect(status.status).toBe(2);
    expect(status.stderr).toContain("ralph confirm --restore");
    const doctor = parseJsonOutput<{ guard_changes: { detail: string }[] }>(runRalph(root, ["doctor", "--json"]));
    expect(doctor.guard_changes.map((c) => c.detail).join("\n")).toMatch(/pre-push hook ralph installed was removed[\s\S]*state of loop work was deleted[\s\S]*active loop mark/);
    expect(runRalph(root, ["confirm", "--restore"]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(root, ".aiwg", "ralph", "loops", "work", "state.json"), "utf8")).loop_id).toBe("work");
    expect(readFileSync(join(root, ".aiwg", "ralph", "active"), "utf8").trim()).toBe("work");
    expect(runRalph(root, ["status"]).status).toBe(0);
  });

  it("a change the user allowed when PreToolUse asked is accepted at its PostToolUse, not reported; a hook made non-executable is", () => {
    const root = installedRepo("false");
    const local = join(root, ".claude", "settings.local.json");
    expect(decisionOf(pre(root, "Write", { file_path: local, content: '{ "disableAllHooks": true }\n' }, "toolu_allowed"))).toBe("ask");
    writeFileSync(local, '{ "disableAllHooks": true }\n'); // the user said yes: the tool ran
    const post = hook(root, { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: local, content: "" }, tool_response: {}, tool_use_id: "toolu_allowed" });
    expect(post.systemMessage).toBeUndefined();
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(runRalph(root, ["status", "--json"])).guard_changes).toEqual([]);
    chmodSync(join(root, ".git", "hooks", "pre-push"), 0o644);
    expect(pre(root, "Read", { file_path: join(root, "README.md") }).systemMessage).toMatch(/no longer executable/);
    const kept = runRalph(root, ["confirm", "--json"]);
    expect(parseJsonOutput<{ changes: unknown[] }>(kept).changes).toHaveLength(1);
    expect(pre(root, "Read", { file_path: join(root, "README.md") }).systemMessage).toBeUndefined();
  });

  it("ralph's own writes (install, start, Stop, uninstall) are never reported", () => {
    const root = installedRepo("false");
    hook(root, { hook_event_name: "Stop", stop_hook_active: false });
    expect(runRalph(root, ["cancel"]).status).toBe(0);
    expect(runRalph(root, ["start", "Another", "--completion", "false", "--id", "other"]).status).toBe(0);
    expect(runRalph(root, ["uninstall", "--git-hooks"]).status).toBe(0);
    expect(existsSync(join(root, ".git", "hooks", "pre-push"))).toBe(false);
    expect(parseJsonOutput<{ guard_changes: unknown[] }>(runRalph(root, ["status", "--json"])).guard_changes).toEqual([]);
    expect(pre(root, "Read", { file_path: join(root, "README.md") }).systemMessage).toBeUndefined();
  });
});
