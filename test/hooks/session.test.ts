/**
 * A scripted Claude Code session through runCli in-process (the entry the
 * built CLI calls; claude-hook.test.ts sends every event to the binary): a small fake agent
 * sends the payload sequence a real session sends (SessionStart,
 * UserPromptSubmit, PreToolUse/PostToolUse around each tool call, Stop,
 * SessionEnd), edits files in between, and obeys the answers: a denied
 * edit is not applied, a blocked tool call is reverted with the command the
 * reason names, a blocked Stop keeps it working.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { linesOf, parseJsonOutput, runRalphInProcess } from "../helpers/cli.js";
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

/** The answers to one tool call: PreToolUse's, and PostToolUse's unless the call was denied. */
interface ToolAnswers {
  pre: Record<string, unknown>;
  post: Record<string, unknown> | null;
}

/** The fake agent: one session in one repository. */
class FakeAgent {
  private toolCount = 0;
  readonly transcript: string;
  constructor(
    readonly root: string,
    readonly sessionId: string,
  ) {
    this.transcript = join(root, ".git", "transcript.jsonl");
    writeFileSync(this.transcript, "");
  }

  /** Sends one event; checks the protocol (exit 0, exactly one JSON object) and returns the answer. */
  async send(event: string, fields: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const payload = { session_id: this.sessionId, transcript_path: this.transcript, cwd: this.root, permission_mode: "default", hook_event_name: event, ...fields };
    const result = await runRalphInProcess(this.root, ["hook", "claude", event], { input: JSON.stringify(payload) });
    expect(result.status, result.stderr).toBe(0);
    expect(linesOf(result.stdout)).toHaveLength(1);
    return parseJsonOutput<Record<string, unknown>>(result);
  }

  /**
   * One tool call as Claude Code makes it: PreToolUse; when not denied,
   * `apply` runs the tool, then PostToolUse. Returns both answers.
   */
  async tool(name: string, input: Record<string, unknown>, apply: () => unknown): Promise<ToolAnswers> {
    const id = `toolu_${++this.toolCount}`;
    const pre = await this.send("PreToolUse", { tool_name: name, tool_input: input, tool_use_id: id });
    const decision = (pre.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision;
    if (decision === "deny" || decision === "ask") return { pre, post: null };
    const response = apply();
    const post = await this.send("PostToolUse", { tool_name: name, tool_input: input, tool_use_id: id, tool_response: response ?? {} });
    return { pre, post };
  }

  /** Applies an Edit the way the tool does. */
  edit(path: string, oldString: string, newString: string): Promise<ToolAnswers> {
    const file = join(this.root, path);
    const input = { file_path: file, old_string: oldString, new_string: newString, replace_all: false };
    return this.tool("Edit", input, () => {
      writeFileSync(file, readFileSync(file, "utf8").replace(oldString, newString));
      return { filePath: file, oldString, newString };
    });
  }

  /** Runs a Bash command the way the tool does. */
  bash(command: string): Promise<ToolAnswers> {
    return this.tool("Bash", { command, description: "run" }, () => {
      const stdout = execFileSync("bash", ["-c", command], { cwd: this.root, env: gitEnv, encoding: "utf8" });
      return { stdout, stderr: "", interrupted: false, isImage: false };
    });
  }
}

describe("a scripted Claude Code session", () => {
  it("denies a test deletion before it lands, catches a sed -i deletion after it lands and reverts it, and stops exactly when the completion command passes", async () => {
    const root = makeRepo({
      "src/math.ts": "export const add = (a: number, b: number) => a - b;\n",
      "test/math.test.ts": MATH_TEST,
      // The completion command: passes once add() really adds (no test runner needed in a temp repo).
      "check.mjs":
        'import { readFileSync } from "node:fs";\nconst ok = readFileSync("src/math.ts", "utf8").includes("a + b");\nconsole.log(ok ? "add works" : "FAIL add(1, 2) returned -1, expected 3");\nprocess.exit(ok ? 0 : 1);\n',
    });
    const started = await runRalphInProcess(root, ["start", "make add() add", "--completion", "node check.mjs", "--id", "fixadd", "--json"]);
    expect(started.status, started.stderr).toBe(0);

    const agent = new FakeAgent(root, "e2e-session");
    const start = await agent.send("SessionStart", { source: "startup", model: "claude" });
    const context = (start.hookSpecificOutput as Record<string, string>).additionalContext as string;
    expect(context).toContain("fixadd");
    expect(context).toContain("node check.mjs");
    await agent.send("UserPromptSubmit", { prompt: "make the tests pass" });

    // 1. The shortcut: delete the failing test with an Edit. Denied; the file is untouched.
    const negatives = 'it("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n';
    const denied = await agent.edit("test/math.test.ts", negatives, "");
    expect((denied.pre.hookSpecificOutput as Record<string, unknown>).permissionDecision).toBe("deny");
    expect(denied.post).toBeNull();
    expect(readFileSync(join(root, "test/math.test.ts"), "utf8")).toBe(MATH_TEST);

    // 2. The same through the shell: allowed (with a pre-tool checkpoint), caught after it lands.
    const sed = await agent.bash("sed -i '/adds negatives/,/^});/d' test/math.test.ts");
    expect(sed.pre).toEqual({});
    expect(readFileSync(join(root, "test/math.test.ts"), "utf8")).not.toContain("adds negatives");
    expect(sed.post).toMatchObject({ decision: "block" });
    const reason = (sed.post as Record<string, string>).reason as string;
    expect(reason).toContain("adds negatives");
    expect(reason).toContain("not the test");
    const revert = /ralph revert ([0-9a-f]{40}) --loop (\S+)/.exec(reason);
    expect(revert).not.toBeNull();
    // The block is recorded as a regression event with its recovery protocol (PDARE) in the loop's state.
    type Recorded = {
      status: string;
      regression_events: { event_id: string; regression_type: string; severity: string; recovery_outcome: string; details: { tool: string; findings: { type: string; test?: string }[] } }[];
      recovery_history: { event_id: string; steps: { PAUSE: unknown; DIAGNOSE: { diagnosis: string }; RETRY: { attempt: number } | null; ESCALATE: unknown } }[];
    };
    const readRecorded = (): Recorded => JSON.parse(readFileSync(join(root, ".aiwg/ralph/loops/fixadd/state.json"), "utf8")) as Recorded;
    let recorded = readRecorded();
    expect(recorded.status).toBe("running");
    expect(recorded.regression_events.at(-1)).toMatchObject({
      regression_type: "test_deletion",
      severity: "critical",
      recovery_outcome: "retrying",
      details: { tool: "Bash", findings: [{ type: "test_deletion", test: "adds negatives" }] },
    });
    const eventId = recorded.regression_events.at(-1)?.event_id;
    expect(recorded.recovery_history.at(-1)).toMatchObject({ event_id: eventId, steps: { DIAGNOSE: { diagnosis: "reward_hacking" }, RETRY: { attempt: 1 }, ESCALATE: null } });
    // The agent obeys: runs the command from the reason.
    const reverted = await runRalphInProcess(root, ["revert", revert![1] as string, "--loop", revert![2] as string]);
    expect(reverted.status, reverted.stderr).toBe(0);
    expect(readFileSync(join(root, "test/math.test.ts"), "utf8")).toBe(MATH_TEST);

    // 3. It tries to stop: the completion command fails, the stop is blocked.
    const firstStop = await agent.send("Stop", { stop_hook_active: false });
    expect(firstStop).toMatchObject({ decision: "block" });
    expect((firstStop.reason as string).length).toBeLessThan(10_000);
    // The restored test is gone from the findings: the regression is recovered.
    recorded = readRecorded();
    expect(recorded.regression_events.find((e) => e.event_id === eventId)?.recovery_outcome).toBe("recovered");

    // 4. The real fix: allowed, nothing blocked.
    const fix = await agent.edit("src/math.ts", "a - b", "a + b");
    expect(fix.pre).toEqual({});
    expect(fix.post).toEqual({});

    // 5. Now the stop is allowed: the completion command passes.
    expect(await agent.send("Stop", { stop_hook_active: true })).toEqual({});
    expect(await agent.send("SessionEnd", { reason: "prompt_input_exit" })).toEqual({});

    const status = parseJsonOutput<{ status?: string; state?: { status?: string } }>(await runRalphInProcess(root, ["status", "--loop", "fixadd", "--json"]));
    expect(JSON.stringify(status)).toContain("completed");
    const log = linesOf(readFileSync(join(root, ".aiwg/ralph/loops/fixadd/hook-log.jsonl"), "utf8")).map((l) => JSON.parse(l) as { event: string; decision: string });
    expect(log.map((e) => `${e.event}:${e.decision}`)).toEqual([
      "SessionStart:context",
      "UserPromptSubmit:context",
      "PreToolUse:deny",
      "PreToolUse:allow",
      "PostToolUse:block",
      "Stop:block",
      "PreToolUse:allow",
      "PostToolUse:allow",
      "Stop:allow",
      "SessionEnd:allow",
    ]);
    expect(fsck(root)).toBe("");
  });
});
