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
import { linesOf, parseJsonOutput, runRalph, type RunResult } from "../helpers/cli.js";
import { git, makeRepo, makeTempDir } from "../helpers/git.js";

const FAILING = "test -f done.txt || { echo 'FAIL: done.txt is missing'; exit 1; }";

function hook(cwd: string, event: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Record<string, unknown> {
  const result: RunResult = runRalph(cwd, ["hook", "claude", event], { input: JSON.stringify({ hook_event_name: event, ...payload }), env });
  expect(result.status, result.stderr).toBe(0);
  expect(linesOf(result.stdout)).toHaveLength(1);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

function startLoop(repo: string, extra: string[] = []): string {
  const r = runRalph(repo, ["start", "create done.txt", "--completion", FAILING, "--json", ...extra]);
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
  it("a Stop whose payload cwd moved into a nested repository judges the project (the hook process's cwd)", () => {
    const { project, nested } = projectWithNestedRepo();
    startLoop(project);
    const answer = hook(project, "Stop", { session_id: "s1", cwd: nested, stop_hook_active: false }, { CLAUDE_PROJECT_DIR: undefined });
    expect(answer.decision).toBe("block");
    expect(String(answer.reason)).toContain("done.txt is missing");
  });

  it("CLAUDE_PROJECT_DIR wins over a hook process started inside the nested repository", () => {
    const { project, nested } = projectWithNestedRepo();
    startLoop(project);
    const answer = hook(nested, "Stop", { session_id: "s1", cwd: nested, stop_hook_active: false }, { CLAUDE_PROJECT_DIR: project });
    expect(answer.decision).toBe("block");
  });

  it("falls back to the payload cwd when neither the project dir nor the process cwd is a repository", () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    startLoop(repo);
    const outside = makeTempDir();
    const answer = hook(outside, "Stop", { session_id: "s1", cwd: repo, stop_hook_active: false }, { CLAUDE_PROJECT_DIR: undefined });
    expect(answer.decision).toBe("block");
  });
});

describe("transcript_path", () => {
  it("expands ~/ to the home directory (an auth failure there lets the stop through)", () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    const loop = startLoop(repo);
    const home = makeTempDir();
    mkdirSync(join(home, ".claude", "projects"), { recursive: true });
    const entry = { type: "assistant", isSidechain: false, isApiErrorMessage: true, apiErrorStatus: 401, error: "authentication_failed", message: { model: "<synthetic>", role: "assistant", content: [{ type: "text", text: "Please run /login · API Error: 401" }] } };
    writeFileSync(join(home, ".claude", "projects", "t.jsonl"), `${JSON.stringify(entry)}\n`);
    const answer = hook(repo, "Stop", { session_id: "s1", cwd: repo, transcript_path: "~/.claude/projects/t.jsonl", stop_hook_active: false }, { HOME: home });
    expect(answer.decision).toBeUndefined();
    expect(stateOf(repo, loop).metrics).toMatchObject({ last_allow: expect.stringContaining("authentication failure") });
  });
});

/** refs/ralph/* and the loop's state file, to show a hook call left the loop untouched. */
function loopSnapshot(repo: string, loop: string): string {
  return `${git(repo, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/ralph/"])}\n${readFileSync(join(repo, ".aiwg", "ralph", "loops", loop, "state.json"), "utf8")}`;
}

function owner(repo: string): { owner_session_id: string | null; owner_source: string | null; text: string } {
  const json = runRalph(repo, ["status", "--json"]);
  expect(json.status, json.stderr).toBe(0);
  const text = runRalph(repo, ["status"]).stdout;
  return { ...parseJsonOutput<{ owner_session_id: string | null; owner_source: string | null }>(json), text };
}

describe("the loop's owner session", () => {
  it("ralph start --session binds it; another session's stop is let go without touching the loop", () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    const loop = startLoop(repo, ["--session", "intended-session"]);
    expect(owner(repo)).toMatchObject({ owner_session_id: "intended-session", owner_source: "start", text: expect.stringContaining("owner session: intended-session (bound by ralph start --session)") });
    const before = loopSnapshot(repo, loop);
    // A second terminal (or a subagent's session) stops first.
    expect(hook(repo, "Stop", { session_id: "second-terminal", cwd: repo, stop_hook_active: false })).toEqual({});
    expect(loopSnapshot(repo, loop)).toBe(before);
    expect(hook(repo, "Stop", { session_id: "intended-session", cwd: repo, stop_hook_active: false }).decision).toBe("block");
  });

  it.each([
    ["ralph start 'create done.txt' --completion 'exit 1'"],
    ["cd sub && npx ralph start 'create done.txt' --completion 'exit 1'"],
    ["RALPH_DEBUG= node /opt/ralph/dist/cli.js --json start 'create done.txt' --completion 'exit 1'"],
  ])("a ralph start the agent runs through Bash binds the agent's session: %s", (command) => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    expect(hook(repo, "PreToolUse", { session_id: "agent-session", cwd: repo, tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" })).toEqual({});
    // The Bash tool then runs it (here: the CLI directly, as the tool would).
    const loop = startLoop(repo);
    expect(owner(repo)).toMatchObject({ owner_session_id: "agent-session", owner_source: "bash" });
    const before = loopSnapshot(repo, loop);
    expect(hook(repo, "Stop", { session_id: "someone-else", cwd: repo, stop_hook_active: false })).toEqual({});
    expect(loopSnapshot(repo, loop)).toBe(before);
    expect(hook(repo, "Stop", { session_id: "agent-session", cwd: repo, stop_hook_active: false }).decision).toBe("block");
  });

  it("a Bash command that only mentions ralph start binds nobody", () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    hook(repo, "PreToolUse", { session_id: "agent-session", cwd: repo, tool_name: "Bash", tool_input: { command: "grep -rn 'ralph start' README.md" } });
    startLoop(repo);
    expect(owner(repo).owner_session_id).toBeNull();
  });

  it("without either, the session that submits the next prompt in the project binds it, and a later one does not take it", () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    const loop = startLoop(repo);
    expect(owner(repo)).toMatchObject({ owner_session_id: null, text: expect.stringContaining("owner session: none yet") });
    hook(repo, "SessionStart", { session_id: "opened-only", cwd: repo, source: "startup" });
    expect(owner(repo).owner_session_id).toBeNull();
    hook(repo, "UserPromptSubmit", { session_id: "prompting-session", cwd: repo, prompt: "go on with the task" });
    expect(owner(repo)).toMatchObject({ owner_session_id: "prompting-session", owner_source: "prompt" });
    hook(repo, "UserPromptSubmit", { session_id: "later-session", cwd: repo, prompt: "hello" });
    expect(owner(repo).owner_session_id).toBe("prompting-session");
    const before = loopSnapshot(repo, loop);
    expect(hook(repo, "Stop", { session_id: "later-session", cwd: repo, stop_hook_active: false })).toEqual({});
    expect(loopSnapshot(repo, loop)).toBe(before);
  });

  it("falls back to the first session to stop", () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    startLoop(repo);
    expect(hook(repo, "Stop", { session_id: "first-to-stop", cwd: repo, stop_hook_active: false }).decision).toBe("block");
    expect(owner(repo)).toMatchObject({ owner_session_id: "first-to-stop", owner_source: "stop" });
  });
});
