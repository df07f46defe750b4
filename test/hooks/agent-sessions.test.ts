/**
 * One scripted session per agent, like the Claude Code one
 * (test/hooks/session.test.ts): `ralph install --<agent>` writes the
 * agent's settings, and a fake agent runs the installed commands through a
 * shell, as the agent does, with payloads built from the agent's fixtures
 * (test/fixtures/agents/). It obeys the answers: a denied edit is not
 * applied, a blocked shell edit is reverted with the command the reason
 * names, a blocked stop keeps it working. Each session: a test deletion
 * stopped before it lands (where the protocol allows: Codex's apply_patch,
 * Gemini's replace; Cursor reports edits only after they land, so the
 * deletion is caught then, restored at once, and reaches the model with the
 * stop's follow-up), a `sed -i` deletion caught after it lands, and the loop
 * continuing until the completion command passes, within the agent's
 * limits (Cursor's `loop_limit`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INSTALL_TAG } from "../../src/hooks/claude-settings.js";
import { fixturePayload, type FixtureAgent } from "../helpers/agent-fixtures.js";
import { linesOf, parseJsonOutput, ralphEnv, runRalph } from "../helpers/cli.js";
import { fsck, gitEnv, makeRepo } from "../helpers/git.js";

const MATH_TEST = [
  'import { expect, it } from "vitest";',
  'import { add } from "../src/math";',
  "",
  'it("adds", () => {',
  "  expect(add(1, 2)).toBe(3);",
  "});",
  "",
  'it("adds negatives", () => {',
  "  expect(add(-1, -2)).toBe(-3);",
  "});",
  "",
].join("\n");

const NEGATIVES = 'it("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n';
const SED_DELETE = "sed -i '/adds negatives/,/^});/d' test/math.test.ts";

/** A repository with a failing completion command (add() subtracts) and a loop started on it. */
function loopRepo(agent: FixtureAgent): string {
  const root = makeRepo({
    "src/math.ts": "export const add = (a: number, b: number) => a - b;\n",
    "test/math.test.ts": MATH_TEST,
    "check.mjs":
      'import { readFileSync } from "node:fs";\nconst ok = readFileSync("src/math.ts", "utf8").includes("a + b");\nconsole.log(ok ? "add works" : "FAIL add(1, 2) returned -1, expected 3");\nprocess.exit(ok ? 0 : 1);\n',
  });
  const installed = runRalph(root, ["install", `--${agent}`, "--json"]);
  expect(installed.status, installed.stderr).toBe(0);
  const started = runRalph(root, ["start", "make add() add", "--completion", "node check.mjs", "--id", "fixadd", "--json"]);
  expect(started.status, started.stderr).toBe(0);
  return root;
}

/** The installed command of each event in an agent's settings file. */
function installedCommands(root: string, file: string): Map<string, { command: string; entry: Record<string, unknown> }> {
  const settings = JSON.parse(readFileSync(join(root, file), "utf8")) as { hooks: Record<string, Array<Record<string, unknown>>> };
  const out = new Map<string, { command: string; entry: Record<string, unknown> }>();
  for (const [event, entries] of Object.entries(settings.hooks)) {
    for (const entry of entries) {
      const hooks = Array.isArray(entry.hooks) ? (entry.hooks as Array<Record<string, unknown>>) : [entry];
      for (const hook of hooks) if (typeof hook.command === "string" && hook.command.includes(INSTALL_TAG)) out.set(event, { command: hook.command, entry: hook });
    }
  }
  return out;
}

/** The fake agent: runs the installed hook commands through a shell with a fixture payload on stdin. */
class FakeAgent {
  readonly commands: Map<string, { command: string; entry: Record<string, unknown> }>;
  readonly events: string[] = [];
  constructor(
    readonly agent: FixtureAgent,
    readonly root: string,
    file: string,
    readonly env: NodeJS.ProcessEnv = {},
  ) {
    this.commands = installedCommands(root, file);
  }

  /** Sends one event; checks the protocol (exit 0, exactly one JSON object on stdout) and returns the answer. */
  send(event: string, fixture: string, values: Record<string, string> = {}, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const installed = this.commands.get(event);
    expect(installed, `ralph's ${event} entry`).toBeDefined();
    const payload = fixturePayload(this.agent, fixture, { cwd: this.root, home: this.root, prompt: "make the tests pass", ...values }, overrides);
    const result = spawnSync(installed!.command, { shell: true, cwd: this.root, input: JSON.stringify(payload), encoding: "utf8", env: { ...ralphEnv, ...this.env }, timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(linesOf(result.stdout)).toHaveLength(1);
    this.events.push(event);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  }

  /** Runs a shell command in the repository the way the agent's shell tool does. */
  shell(command: string): string {
    return execFileSync("bash", ["-c", command], { cwd: this.root, env: gitEnv, encoding: "utf8" });
  }
}

const readTest = (root: string): string => readFileSync(join(root, "test/math.test.ts"), "utf8");

/** The `ralph revert <oid> --loop <loop>` a block reason names, run as the agent would; the test file is back. */
function obeyRevert(root: string, reason: string): void {
  const revert = /ralph revert ([0-9a-f]{40}) --loop (\S+)/.exec(reason);
  expect(revert, reason).not.toBeNull();
  const reverted = runRalph(root, ["revert", revert![1]!, "--loop", revert![2]!]);
  expect(reverted.status, reverted.stderr).toBe(0);
  expect(readTest(root)).toBe(MATH_TEST);
}

/** The loop's status and hook log once the session is over. */
function finalState(root: string): { status: string; log: string[] } {
  const state = JSON.parse(readFileSync(join(root, ".aiwg/ralph/loops/fixadd/state.json"), "utf8")) as { status: string };
  const log = linesOf(readFileSync(join(root, ".aiwg/ralph/loops/fixadd/hook-log.jsonl"), "utf8")).map((l) => {
    const e = JSON.parse(l) as { agent: string; event: string; decision: string };
    return `${e.agent} ${e.event}:${e.decision}`;
  });
  return { status: state.status, log };
}

describe("scripted agent sessions through the installed hooks (built CLI)", () => {
  it("Codex CLI: apply_patch deleting a test is denied before it lands, a sed -i deletion is blocked after, Stop continues until the completion command passes", () => {
    const root = loopRepo("codex");
    const agent = new FakeAgent("codex", root, ".codex/hooks.json");
    const start = agent.send("SessionStart", "session-start");
    expect((start.hookSpecificOutput as Record<string, string>).additionalContext).toContain("node check.mjs");
    agent.send("UserPromptSubmit", "user-prompt-submit");

    // 1. The test deletion as Codex writes it: an apply_patch Update File. Denied; the file is untouched.
    const deletion = [
      "*** Begin Patch",
      "*** Update File: test/math.test.ts",
      "@@",
      ' it("adds", () => {',
      "   expect(add(1, 2)).toBe(3);",
      " });",
      "-",
      ...NEGATIVES.trimEnd()
        .split("\n")
        .map((l) => `-${l}`),
      "*** End Patch",
    ].join("\n");
    const denied = agent.send("PreToolUse", "pre-tool-use.apply-patch", { patch: deletion });
    expect(denied.hookSpecificOutput).toMatchObject({ hookEventName: "PreToolUse", permissionDecision: "deny" });
    expect((denied.hookSpecificOutput as Record<string, string>).permissionDecisionReason).toContain("test_deletion");
    expect(readTest(root)).toBe(MATH_TEST);

    // 2. The same through the shell: allowed, caught after it lands.
    expect(agent.send("PreToolUse", "pre-tool-use.bash", { command: SED_DELETE })).toEqual({});
    agent.shell(SED_DELETE);
    expect(readTest(root)).not.toContain("adds negatives");
    const post = agent.send("PostToolUse", "post-tool-use.bash", { command: SED_DELETE, output: "" });
    expect(post).toMatchObject({ decision: "block" });
    obeyRevert(root, post.reason as string);

    // 3. It tries to stop: the completion command fails; Codex continues with the reason as the next prompt.
    const firstStop = agent.send("Stop", "stop", { message: "I think it's done." });
    expect(firstStop).toMatchObject({ decision: "block" });
    expect(firstStop.reason as string).toContain("FAIL add(1, 2)");

    // 4. The real fix, as a patch: allowed before and after.
    const fix = "*** Begin Patch\n*** Update File: src/math.ts\n@@\n-export const add = (a: number, b: number) => a - b;\n+export const add = (a: number, b: number) => a + b;\n*** End Patch";
    expect(agent.send("PreToolUse", "pre-tool-use.apply-patch", { patch: fix })).toEqual({});
    writeFileSync(join(root, "src/math.ts"), "export const add = (a: number, b: number) => a + b;\n");
    expect(agent.send("PostToolUse", "post-tool-use.apply-patch", { patch: fix, file: "src/math.ts" })).toEqual({});

    // 5. The stop that follows the block (stop_hook_active) passes: the loop is completed; Codex gets {}.
    expect(agent.send("Stop", "stop", { message: "Fixed add()." }, { stop_hook_active: true })).toEqual({});
    const final = finalState(root);
    expect(final.status).toBe("completed");
    expect(final.log).toEqual([
      "codex SessionStart:context",
      "codex UserPromptSubmit:context",
      "codex PreToolUse:deny",
      "codex PreToolUse:allow",
      "codex PostToolUse:block",
      "codex Stop:block",
      "codex PreToolUse:allow",
      "codex PostToolUse:allow",
      "codex Stop:allow",
    ]);
    expect(fsck(root)).toBe("");
  });

  it("Gemini CLI: a replace deleting a test is denied, a run_shell_command deletion is caught after it lands, AfterAgent retries until the completion command passes", () => {
    const root = loopRepo("gemini");
    const agent = new FakeAgent("gemini", root, ".gemini/settings.json", { GEMINI_PROJECT_DIR: root, CLAUDE_PROJECT_DIR: root });
    const start = agent.send("SessionStart", "session-start");
    expect((start.hookSpecificOutput as Record<string, string>).additionalContext).toContain("fixadd");
    agent.send("BeforeAgent", "before-agent");

    const file = join(root, "test/math.test.ts");
    const denied = agent.send("BeforeTool", "before-tool.replace", { file, old: `\n${NEGATIVES}`, new: "" });
    expect(denied).toMatchObject({ decision: "deny" });
    expect(denied.reason as string).toContain("test_deletion");
    expect(readTest(root)).toBe(MATH_TEST);

    expect(agent.send("BeforeTool", "before-tool.run-shell-command", { command: SED_DELETE, description: "remove a test" })).toEqual({});
    agent.shell(SED_DELETE);
    const after = agent.send("AfterTool", "after-tool.run-shell-command", { command: SED_DELETE, description: "remove a test", output: "" });
    // Gemini: a deny after the tool replaces its result with the reason the model reads.
    expect(after).toMatchObject({ decision: "deny" });
    obeyRevert(root, after.reason as string);

    const retry = agent.send("AfterAgent", "after-agent", { message: "Done, I think." });
    expect(retry).toMatchObject({ decision: "deny" });
    expect(retry.reason as string).toContain("FAIL add(1, 2)");

    const math = join(root, "src/math.ts");
    const values = { file: math, old: "a - b", new: "a + b" };
    expect(agent.send("BeforeTool", "before-tool.replace", values)).toEqual({});
    writeFileSync(math, "export const add = (a: number, b: number) => a + b;\n");
    expect(agent.send("AfterTool", "after-tool.replace", values)).toEqual({});
    expect(agent.send("AfterAgent", "after-agent", { message: "Fixed add()." }, { stop_hook_active: true })).toEqual({});
    expect(agent.send("SessionEnd", "session-end")).toEqual({});

    // Claude Code's event names are not Gemini events: no answer but {}, and nothing judged.
    const claudeName = spawnSync(agent.commands.get("BeforeTool")!.command.replace(" BeforeTool ", " PreToolUse "), { shell: true, cwd: root, input: "{}", encoding: "utf8", env: ralphEnv });
    expect(claudeName.stdout.trim()).toBe("{}");
    expect(claudeName.stderr).toContain("not a Gemini CLI hook event");

    const final = finalState(root);
    expect(final.status).toBe("completed");
    expect(final.log).toEqual([
      "gemini SessionStart:context",
      "gemini BeforeAgent:context",
      "gemini BeforeTool:deny",
      "gemini BeforeTool:allow",
      "gemini AfterTool:block",
      "gemini AfterAgent:block",
      "gemini BeforeTool:allow",
      "gemini AfterTool:allow",
      "gemini AfterAgent:allow",
      "gemini SessionEnd:allow",
    ]);
    expect(fsck(root)).toBe("");
  });

  it("Cursor: a hook bypass is denied before it runs; edits and shell edits are judged after they land, restored, and reach the model with the stop's follow-up, within loop_limit", () => {
    const root = loopRepo("cursor");
    const agent = new FakeAgent("cursor", root, ".cursor/hooks.json");
    const loopLimit = agent.commands.get("stop")!.entry.loop_limit as number;
    expect(loopLimit).toBeGreaterThanOrEqual(3);
    expect(agent.send("beforeSubmitPrompt", "before-submit-prompt")).toEqual({ continue: true });

    // A hook bypass is denied before it runs (agent_message for the model, user_message for the human).
    const bypass = agent.send("beforeShellExecution", "before-shell-execution", { command: "git commit --no-verify -m wip" });
    expect(bypass).toMatchObject({ permission: "deny" });
    expect(bypass.agent_message as string).toContain("hook_bypass");

    // 1. Cursor's agent deletes the test with its edit tool: Cursor reports it after it landed, when a deny is
    // no longer possible, so ralph restores the file at once (the deletion is kept in its checkpoint).
    const file = join(root, "test/math.test.ts");
    writeFileSync(file, MATH_TEST.replace(`\n${NEGATIVES}`, ""));
    expect(agent.send("afterFileEdit", "after-file-edit", { file, old: `\n${NEGATIVES}`, new: "" })).toEqual({});
    expect(readTest(root)).toBe(MATH_TEST);

    // 2. The first stop: the follow-up tells the model about the deletion and the failing check.
    const first = agent.send("stop", "stop", {}, { loop_count: 0 });
    expect(Object.keys(first)).toEqual(["followup_message"]);
    const followup = first.followup_message as string;
    expect(followup).toContain("adds negatives");
    expect(followup).toContain("ralph restored the files");
    expect(followup).toContain("FAIL add(1, 2)");

    // 3. A sed -i deletion through the shell: allowed before, caught after it ran, restored, reported at the next stop.
    expect(agent.send("beforeShellExecution", "before-shell-execution", { command: SED_DELETE })).toEqual({});
    agent.shell(SED_DELETE);
    expect(readTest(root)).not.toContain("adds negatives");
    expect(agent.send("afterShellExecution", "after-shell-execution", { command: SED_DELETE, output: "" })).toEqual({});
    expect(readTest(root)).toBe(MATH_TEST);
    const second = agent.send("stop", "stop", {}, { loop_count: 1 });
    expect(second.followup_message as string).toContain("test_deletion");
    expect(second.followup_message as string).toContain("FAIL add(1, 2)");

    // 4. The real fix; the third stop passes and Cursor gets no follow-up: three stops, within loop_limit.
    const math = join(root, "src/math.ts");
    writeFileSync(math, "export const add = (a: number, b: number) => a + b;\n");
    expect(agent.send("afterFileEdit", "after-file-edit", { file: math, old: "a - b", new: "a + b" })).toEqual({});
    expect(agent.send("stop", "stop", {}, { loop_count: 2 })).toEqual({});
    expect(agent.events.filter((e) => e === "stop").length).toBeLessThanOrEqual(loopLimit);

    // An aborted run is the user's stop: checkpointed, never continued.
    expect(agent.send("stop", "stop", {}, { status: "aborted", loop_count: 0 })).toEqual({});

    const final = finalState(root);
    expect(final.status).toBe("completed");
    expect(final.log).toEqual([
      "cursor beforeSubmitPrompt:context",
      "cursor beforeShellExecution:deny",
      "cursor afterFileEdit:block",
      "cursor stop:block",
      "cursor beforeShellExecution:allow",
      "cursor afterShellExecution:block",
      "cursor stop:block",
      "cursor afterFileEdit:allow",
      "cursor stop:allow",
      "cursor stop:allow",
    ]);
    expect(parseJsonOutput<{ ok: boolean }>(runRalph(root, ["doctor", "--json"])).ok).toBe(true);
    expect(fsck(root)).toBe("");
  });
});
