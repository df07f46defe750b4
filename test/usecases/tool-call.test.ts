/**
 * The use cases with agent-neutral inputs (no agent payloads): a tool call
 * judged before it runs and after it ran, a session's start and stop, and
 * the test listing, each on a real temporary repository.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { judgeAfterTool } from "../../src/usecases/after-tool.js";
import { judgeBeforeTool } from "../../src/usecases/before-tool.js";
import { answerEvent, type AgentEvent } from "../../src/usecases/event.js";
import { openSession, startTurn } from "../../src/usecases/session.js";
import { hookSettingsFrom, type HookSettings } from "../../src/usecases/settings.js";
import { listTests } from "../../src/usecases/tests.js";
import type { FileChange, Session, ToolCall } from "../../src/usecases/types.js";
import { resolveRev } from "../../src/store/rev.js";
import { parseRuntimeEnv } from "../../src/runtime-env.js";
import { gitEnv, makeRepo } from "../helpers/git.js";

/** The run's environment in these tests: git's test identity and dates, no user config. */
const env = parseRuntimeEnv(gitEnv);

const TEST_FILE = "test/sum.test.ts";
const TWO_TESTS = `import { expect, it } from "vitest";
import { sum } from "../src/sum";

it("adds two numbers", () => {
  expect(sum(1, 2)).toBe(3);
});

it("adds negative numbers", () => {
  expect(sum(-1, -2)).toBe(-3);
});
`;
const ONE_TEST = `import { expect, it } from "vitest";
import { sum } from "../src/sum";

it("adds two numbers", () => {
  expect(sum(1, 2)).toBe(3);
});
`;

function project(): string {
  return makeRepo({ "src/sum.ts": "export const sum = (a: number, b: number): number => a + b;\n", [TEST_FILE]: TWO_TESTS });
}

/** A session of a made-up agent "acme" in `workTree`, bound at its start (a guard session: no loop is active). */
async function session(workTree: string, settings: HookSettings = hookSettingsFrom(null), diagnostics: string[] = []): Promise<Session> {
  return openSession({ agent: { id: "acme", name: "Acme Agent" }, directories: [workTree], sessionId: "s-1", bind: true, env, diagnostics: (t) => diagnostics.push(t), settings });
}

/** {@link session}, started: its loop has a baseline checkpoint. */
async function started(workTree: string, settings?: HookSettings): Promise<Session> {
  const s = await session(workTree, settings);
  await startTurn(s, "start");
  return s;
}

/** A file change whose content after the call is `after` (null: deleted). */
const writes = (path: string, after: string | null): FileChange => ({ path, preview: () => ({ ok: true, after }) });

const editCall = (files: FileChange[], tool = "patch"): ToolCall => ({ kind: "edit", tool, id: "call-1", files });

describe("judging a tool call before it runs", () => {
  it("denies an edit that deletes a test, naming the file and the finding; nothing is written", async () => {
    const repo = project();
    const verdict = await judgeBeforeTool(await session(repo), editCall([writes(join(repo, TEST_FILE), ONE_TEST)]));
    expect(verdict.decision).toBe("deny");
    expect(verdict.findings).toEqual(["test_deletion"]);
    expect(verdict.reason).toContain(`ralph stopped this patch of ${TEST_FILE} before it was written`);
    expect(verdict.reason).toContain("adds negative numbers");
    expect(readFileSync(join(repo, TEST_FILE), "utf8")).toBe(TWO_TESTS);
  });

  it("asks instead of denying when the settings say so (hooks.pre_tool_decision: ask)", async () => {
    const repo = project();
    const settings = { ...hookSettingsFrom(null), preToolDecision: "ask" as const };
    const verdict = await judgeBeforeTool(await session(repo, settings), editCall([writes(TEST_FILE, ONE_TEST)]));
    expect(verdict.decision).toBe("ask");
  });

  it("denies a delete of a test file (a preview whose content after is null)", async () => {
    const repo = project();
    const verdict = await judgeBeforeTool(await session(repo), { kind: "delete", tool: "rm", files: [writes(TEST_FILE, null)] });
    expect(verdict.decision).toBe("deny");
    expect(verdict.findings).toContain("test_deletion");
  });

  it("allows a rename that keeps every test (a delete and a write in one call are judged together)", async () => {
    const repo = project();
    const verdict = await judgeBeforeTool(await session(repo), editCall([writes(TEST_FILE, null), writes("test/addition.test.ts", TWO_TESTS)]));
    expect(verdict.decision).toBe("allow");
  });

  it("judges every file of a multi-file call: one weakened file among several is denied", async () => {
    const repo = project();
    const verdict = await judgeBeforeTool(await session(repo), editCall([writes("src/other.ts", "export const x = 1;\n"), writes(TEST_FILE, ONE_TEST)]));
    expect(verdict.decision).toBe("deny");
    expect(verdict.reason).toContain(`of src/other.ts, ${TEST_FILE} before it was written`);
    expect(verdict.reason).toContain("Tests in the files:");
  });

  it("allows a file outside the repository and a change whose content cannot be known before it runs", async () => {
    const repo = project();
    const s = await session(repo);
    expect(await judgeBeforeTool(s, editCall([writes("/nonexistent-ralph-dir/x.test.ts", "")]))).toMatchObject({ decision: "allow", why: "the file is outside the repository" });
    const unknown = await judgeBeforeTool(s, editCall([{ path: TEST_FILE }]));
    expect(unknown.decision).toBe("allow");
    expect(unknown.why).toMatch(/^not judged: /);
  });

  it("asks before a write to ralph's own config", async () => {
    const repo = project();
    const verdict = await judgeBeforeTool(await session(repo), { kind: "write", tool: "write", files: [writes("aiwg.yml", "agent_persistence: {}\n")] });
    expect(verdict).toMatchObject({ decision: "ask", findings: ["ralph_state_write"] });
  });

  it("denies a shell command that bypasses the git hooks, asks about a force push, and allows a plain one", async () => {
    const repo = project();
    const s = await session(repo);
    const shell = (command: string): ToolCall => ({ kind: "shell", tool: "shell", files: [], command });
    expect(await judgeBeforeTool(s, shell("git commit --no-verify -m x"))).toMatchObject({ decision: "deny", findings: ["hook_bypass"] });
    expect(await judgeBeforeTool(s, shell("git push --force origin main"))).toMatchObject({ decision: "ask", findings: ["git_push_force"] });
    expect(await judgeBeforeTool(s, shell("ls -la"))).toMatchObject({ decision: "allow", why: "no risk in the command" });
  });

  it("allows a read or an unknown tool outside the human gate without judging files", async () => {
    const repo = project();
    const s = await session(repo);
    expect(await judgeBeforeTool(s, { kind: "read", tool: "view", files: [] })).toMatchObject({ decision: "allow", why: "view changes no file" });
    expect(await judgeBeforeTool(s, { kind: "other", tool: "", files: [] })).toMatchObject({ decision: "allow", why: "(no tool) changes no file" });
  });
});

describe("judging a tool call after it ran", () => {
  it("blocks a write that deleted a test, with the command that restores the state before it", async () => {
    const repo = project();
    const s = await started(repo);
    const baseline = s.store.readLoopRef(s.binding.loop, "baseline");
    expect(baseline).not.toBeNull();
    writeFileSync(join(repo, TEST_FILE), ONE_TEST);
    const verdict = await judgeAfterTool(s, editCall([{ path: join(repo, TEST_FILE) }], "write_file"));
    expect(verdict.decision).toBe("block");
    expect(verdict.findings).toEqual(["test_deletion"]);
    expect(verdict.reason).toContain("this write_file call weakened the test suite");
    expect(verdict.reason).toContain(`ralph revert ${baseline} --loop acme-s-1`);
    expect(readFileSync(join(repo, TEST_FILE), "utf8")).toBe(ONE_TEST);
  });

  it("restores the files itself with auto revert on", async () => {
    const repo = project();
    const s = await started(repo, { ...hookSettingsFrom(null), autoRevert: true });
    rmSync(join(repo, TEST_FILE));
    const verdict = await judgeAfterTool(s, { kind: "shell", tool: "shell", files: [], command: `rm ${TEST_FILE}` });
    expect(verdict.decision).toBe("block");
    expect(verdict.reason).toContain("ralph restored the files to checkpoint");
    expect(readFileSync(join(repo, TEST_FILE), "utf8")).toBe(TWO_TESTS);
  });

  it("checkpoints a harmless change and allows it; a call that changes no file is not checkpointed", async () => {
    const repo = project();
    const s = await started(repo);
    writeFileSync(join(repo, "src/extra.ts"), "export const extra = 2;\n");
    const verdict = await judgeAfterTool(s, { kind: "write", tool: "write", files: [{ path: "src/extra.ts" }] });
    expect(verdict.decision).toBe("allow");
    expect(verdict.checkpoint).toBe(s.store.readLoopRef(s.binding.loop, "head"));
    expect(await judgeAfterTool(s, { kind: "read", tool: "view", files: [] })).toEqual({ decision: "allow", why: "view changes no file" });
  });
});

describe("a session, end to end through answerEvent", () => {
  const ask = (repo: string, event: AgentEvent) =>
    answerEvent({ agent: { id: "acme", name: "Acme Agent" }, directories: ["/nonexistent-ralph-dir", repo], sessionId: "s-2", env, diagnostics: () => {}, settings: hookSettingsFrom(null), event });

  it("binds a guard session to the agent's own guard loop, with a baseline named after the agent", async () => {
    const repo = project();
    const verdict = await ask(repo, { type: "session-start" });
    expect(verdict).toMatchObject({ decision: "context", workTree: repo, loop: "acme-s-2", iteration: null });
    expect(verdict.context).toContain("ralph checkpoints this session's file changes on refs/ralph/acme-s-2");
    const session2 = await session(repo);
    expect(session2.store.log("acme-s-2" as never, 1)[0]?.subject).toBe("baseline checkpoint (Acme Agent session)");
  });

  it("lets a guard session stop and keeps the end of its turn as a checkpoint", async () => {
    const repo = project();
    await ask(repo, { type: "session-start" });
    writeFileSync(join(repo, "notes.md"), "done\n");
    const verdict = await ask(repo, { type: "stop", stop: { transcriptPath: undefined, stopHookActive: false } });
    expect(verdict.decision).toBe("allow");
    expect(verdict.checkpoint).toMatch(/^[0-9a-f]{40}$/);
  });

  it("a checkpoint-only event writes a checkpoint named by its label", async () => {
    const repo = project();
    await ask(repo, { type: "session-start" });
    writeFileSync(join(repo, "notes.md"), "more\n");
    const verdict = await ask(repo, { type: "checkpoint", label: "compaction" });
    expect(verdict).toMatchObject({ decision: "allow", why: "checkpointed" });
  });
});

describe("listing tests", () => {
  it("lists the test cases of the work tree with their files and lines", async () => {
    const repo = project();
    const s = await session(repo);
    const listing = await listTests(s.store, resolveRev(s.store, "WORKTREE", s.binding.loop, true), { tick: () => {} });
    expect(listing.rev).toBe("WORKTREE");
    expect(listing.tests.map((t) => [t.file, t.line, t.id])).toEqual([
      [TEST_FILE, 4, "adds two numbers"],
      [TEST_FILE, 8, "adds negative numbers"],
    ]);
    expect(listing.unparsable).toEqual([]);
  });
});
