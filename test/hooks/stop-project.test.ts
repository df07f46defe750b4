/**
 * Which repository a Claude Code hook judges, and whose session the loop
 * is, through the built CLI (issue 10, "What Claude Code sends today" and
 * "Ownership"): the project (`CLAUDE_PROJECT_DIR`, else the hook process's
 * cwd), not the payload's `cwd` when the session moved into a nested
 * repository or submodule; `transcript_path` with `~/`; the owner bound by
 * `ralph start --session`, by a `ralph start` the agent ran through Bash,
 * or by the next prompt; an unrelated session let go untouched.
 * Run `npm run build` first.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { linesOf, parseJsonOutput, runRalph, runRalphInProcess, type RunResult } from "../helpers/cli.js";
import { git, makeRepo, makeTempDir } from "../helpers/git.js";

const FAILING = "test -f done.txt || { echo 'FAIL: done.txt is missing'; exit 1; }";

/** One hook call in-process (`binary`: through the built CLI, as Claude Code calls it) in `cwd`; its one JSON answer. */
async function hook(cwd: string, event: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv = {}, binary = false): Promise<Record<string, unknown>> {
  const options = { input: JSON.stringify({ hook_event_name: event, ...payload }), env };
  const result: RunResult = binary ? runRalph(cwd, ["hook", "claude", event], options) : await runRalphInProcess(cwd, ["hook", "claude", event], options);
  expect(result.status, result.stderr).toBe(0);
  expect(linesOf(result.stdout)).toHaveLength(1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

async function startLoop(repo: string, extra: string[] = []): Promise<string> {
  const r = await runRalphInProcess(repo, ["start", "create done.txt", "--completion", FAILING, "--json", ...extra]);
  expect(r.status, r.stderr).toBe(0);
  return parseJsonOutput<{ loop: string }>(r).loop;
}

function stateOf(repo: string, loop: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(repo, ".aiwg", "ralph", "loops", loop, "state.json"), "utf8")) as Record<string, unknown>;
}

/** A project with a nested repository at vendor/lib (a clone, as a submodule's work tree is). */
function projectWithNestedRepo(): { project: string; nested: string } {
  const project = makeRepo({ "src/a.ts": "export const a = 1;\n" });
  const nested = join(project, "vendor", "lib");
  mkdirSync(nested, { recursive: true });
  git(nested, ["init", "-q", "-b", "main"]);
  writeFileSync(join(nested, "index.js"), "module.exports = 1;\n");
  git(nested, ["add", "-A"]);
  git(nested, ["commit", "-q", "-m", "lib"]);
  return { project, nested };
}

describe("the repository a hook judges is the project's", () => {
  it("a Stop whose payload cwd moved into a nested repository judges the project (the hook process's cwd)", async () => {
    const { project, nested } = projectWithNestedRepo();
    await startLoop(project);
    // The built binary's own process cwd, as Claude Code starts it (in-process runs get the cwd as a parameter).
    const answer = await hook(project, "Stop", { session_id: "s1", cwd: nested, stop_hook_active: false }, { CLAUDE_PROJECT_DIR: undefined }, true);
    expect(answer.decision).toBe("block");
    expect(String(answer.reason)).toContain("done.txt is missing");
  });

  it("CLAUDE_PROJECT_DIR wins over a hook process started inside the nested repository", async () => {
    const { project, nested } = projectWithNestedRepo();
    await startLoop(project);
    const answer = await hook(nested, "Stop", { session_id: "s1", cwd: nested, stop_hook_active: false }, { CLAUDE_PROJECT_DIR: project });
    expect(answer.decision).toBe("block");
  });

  it("falls back to the payload cwd when neither the project dir nor the process cwd is a repository", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    await startLoop(repo);
    const outside = makeTempDir();
    const answer = await hook(outside, "Stop", { session_id: "s1", cwd: repo, stop_hook_active: false }, { CLAUDE_PROJECT_DIR: undefined });
    expect(answer.decision).toBe("block");
  });
});

describe("transcript_path", () => {
  it("expands ~/ to the home directory (an auth failure there lets the stop through)", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    const loop = await startLoop(repo);
    const home = makeTempDir();
    mkdirSync(join(home, ".claude", "projects"), { recursive: true });
    const entry = {
      type: "assistant",
      isSidechain: false,
      isApiErrorMessage: true,
      apiErrorStatus: 401,
      error: "authentication_failed",
      message: { model: "<synthetic>", role: "assistant", content: [{ type: "text", text: "Please run /login · API Error: 401" }] },
    };
    writeFileSync(join(home, ".claude", "projects", "t.jsonl"), `${JSON.stringify(entry)}\n`);
    const answer = await hook(repo, "Stop", { session_id: "s1", cwd: repo, transcript_path: "~/.claude/projects/t.jsonl", stop_hook_active: false }, { HOME: home });
    expect(answer.decision).toBeUndefined();
    expect(stateOf(repo, loop).metrics).toMatchObject({ last_allow: expect.stringContaining("authentication failure") });
  });
});

/** refs/ralph/* and the loop's state file, to show a hook call left the loop untouched. */
function loopSnapshot(repo: string, loop: string): string {
  return `${git(repo, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/ralph/"])}\n${readFileSync(join(repo, ".aiwg", "ralph", "loops", loop, "state.json"), "utf8")}`;
}

async function owner(repo: string): Promise<{ owner_session_id: string | null; owner_source: string | null; text: string }> {
  const json = await runRalphInProcess(repo, ["status", "--json"]);
  expect(json.status, json.stderr).toBe(0);
  const text = (await runRalphInProcess(repo, ["status"])).stdout;
  return { ...parseJsonOutput<{ owner_session_id: string | null; owner_source: string | null }>(json), text };
}

describe("the loop's owner session", () => {
  it("ralph start --session binds it; another session's stop is let go without touching the loop", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    const loop = await startLoop(repo, ["--session", "intended-session"]);
    expect(await owner(repo)).toMatchObject({
      owner_session_id: "intended-session",
      owner_source: "start",
      text: expect.stringContaining("owner session: intended-session (bound by ralph start --session)"),
    });
    const before = loopSnapshot(repo, loop);
    // A second terminal (or a subagent's session) stops first.
    expect(await hook(repo, "Stop", { session_id: "second-terminal", cwd: repo, stop_hook_active: false })).toEqual({});
    expect(loopSnapshot(repo, loop)).toBe(before);
    expect((await hook(repo, "Stop", { session_id: "intended-session", cwd: repo, stop_hook_active: false })).decision).toBe("block");
  });

  it.each([
    ["ralph start 'create done.txt' --completion 'exit 1'"],
    ["cd sub && npx ralph start 'create done.txt' --completion 'exit 1'"],
    ["RALPH_DEBUG= node /opt/ralph/dist/cli.js --json start 'create done.txt' --completion 'exit 1'"],
  ])("a ralph start the agent runs through Bash binds the agent's session: %s", async (command) => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    expect(await hook(repo, "PreToolUse", { session_id: "agent-session", cwd: repo, tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" })).toEqual({});
    // The Bash tool then runs it (here: the CLI directly, as the tool would).
    const loop = await startLoop(repo);
    expect(await owner(repo)).toMatchObject({ owner_session_id: "agent-session", owner_source: "bash" });
    const before = loopSnapshot(repo, loop);
    expect(await hook(repo, "Stop", { session_id: "someone-else", cwd: repo, stop_hook_active: false })).toEqual({});
    expect(loopSnapshot(repo, loop)).toBe(before);
    expect((await hook(repo, "Stop", { session_id: "agent-session", cwd: repo, stop_hook_active: false })).decision).toBe("block");
  });

  it("a Bash command that only mentions ralph start binds nobody", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    await hook(repo, "PreToolUse", { session_id: "agent-session", cwd: repo, tool_name: "Bash", tool_input: { command: "grep -rn 'ralph start' README.md" } });
    await startLoop(repo);
    expect((await owner(repo)).owner_session_id).toBeNull();
  });

  it("without either, the session that submits the next prompt in the project binds it, and a later one does not take it", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    const loop = await startLoop(repo);
    expect(await owner(repo)).toMatchObject({ owner_session_id: null, text: expect.stringContaining("owner session: none yet") });
    await hook(repo, "SessionStart", { session_id: "opened-only", cwd: repo, source: "startup" });
    expect((await owner(repo)).owner_session_id).toBeNull();
    await hook(repo, "UserPromptSubmit", { session_id: "prompting-session", cwd: repo, prompt: "go on with the task" });
    expect(await owner(repo)).toMatchObject({ owner_session_id: "prompting-session", owner_source: "prompt" });
    await hook(repo, "UserPromptSubmit", { session_id: "later-session", cwd: repo, prompt: "hello" });
    expect((await owner(repo)).owner_session_id).toBe("prompting-session");
    const before = loopSnapshot(repo, loop);
    expect(await hook(repo, "Stop", { session_id: "later-session", cwd: repo, stop_hook_active: false })).toEqual({});
    expect(loopSnapshot(repo, loop)).toBe(before);
  });

  it("falls back to the first session to stop", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    await startLoop(repo);
    expect((await hook(repo, "Stop", { session_id: "first-to-stop", cwd: repo, stop_hook_active: false })).decision).toBe("block");
    expect(await owner(repo)).toMatchObject({ owner_session_id: "first-to-stop", owner_source: "stop" });
  });
});
