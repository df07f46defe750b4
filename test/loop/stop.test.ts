/**
 * decideStop on real repositories: a Stop sequence that walks through every
 * safety valve (no loop, no session, another session, context >= 95%, an
 * auth failure, no progress, a cancel signal and its TTL, stale state,
 * max_iterations with and without auto-extend, the loop's timeout), blocks
 * with the failing output and reinforcement, an interrupted check, and
 * completion.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readTranscriptSignals } from "../../src/loop/transcript.js";
import { describe, expect, it } from "vitest";
import { cancelLoop, CANCEL_SIGNAL_TTL_MS, startLoop, type StartRequest } from "../../src/loop/lifecycle.js";
import { loopDir, readActiveLoop, readState, updateState } from "../../src/loop/state.js";
import { decideStop, STALE_STATE_MS, type StopDecision, type StopInput } from "../../src/loop/stop.js";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { parseLoopId, type LoopId } from "../../src/store/loop-id.js";
import { git, makeRepo, makeTempDir, writeFiles } from "../helpers/git.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "transcripts");

function setup(request: Partial<StartRequest> = {}): { repo: string; loop: LoopId; stop: (extra?: Partial<StopInput>) => Promise<StopDecision> } {
  const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
  const store = CheckpointStore.open(repo);
  const { state } = startLoop(store, { task: "Create done.txt", completion: "echo checking; test -f done.txt || { echo 'FAIL: done.txt is missing' >&2; exit 3; }", maxIterations: 10, ...request });
  const loop = parseLoopId(state.loop_id);
  const stop = (extra: Partial<StopInput> = {}) => decideStop({ cwd: join(repo, "src"), sessionId: "session-A", transcriptPath: undefined, stopHookActive: false, ...extra });
  return { repo, loop, stop };
}

const state = (repo: string, loop: LoopId) => {
  const s = readState(repo, loop);
  if (!s) throw new Error("no state");
  return s;
};

describe("decideStop without a loop", () => {
  it("allows outside a repository and where no loop is active", async () => {
    const plain = makeTempDir();
    expect(await decideStop({ cwd: plain, sessionId: "s", transcriptPath: undefined, stopHookActive: undefined })).toMatchObject({ action: "allow", loop: null });
    const repo = makeRepo();
    expect(await decideStop({ cwd: repo, sessionId: "s", transcriptPath: undefined, stopHookActive: undefined })).toEqual({ action: "allow", why: "no active loop", loop: null });
  });

  it("allows, with the path in why, when the state is corrupt", async () => {
    const { repo, loop, stop } = setup();
    writeFileSync(join(loopDir(repo, loop), "state.json"), "{");
    const decision = await stop();
    expect(decision.action).toBe("allow");
    expect(decision.why).toContain(join(loopDir(repo, loop), "state.json"));
  });
});

describe("a Stop sequence through every safety valve", () => {
  it("blocks, binds the owner, and lets each valve allow with its why", async () => {
    const { repo, loop, stop } = setup();

    // No session id: never an owner.
    for (const sessionId of [undefined, "", "  "]) expect(await stop({ sessionId })).toMatchObject({ action: "allow", why: expect.stringContaining("no session id") });
    expect(state(repo, loop).owner_session_id).toBeNull();

    // First stop of session A: binds it, checkpoints iteration 1, blocks with the output and MINIMAL text.
    const first = await stop();
    expect(first.action).toBe("block");
    if (first.action !== "block") return;
    expect(first.loop).toBe(loop);
    expect(first.reason).toContain("FAIL: done.txt is missing");
    expect(first.reason).toContain("checking");
    expect(first.reason).toContain("MINIMAL");
    expect(first.reason).toContain("exits 3");
    expect(first.reason.length).toBeLessThanOrEqual(10_000);
    let s = state(repo, loop);
    expect(s).toMatchObject({ owner_session_id: "session-A", iteration: 1, blocks: 1, status: "running" });
    expect(s.progress.completion_checks).toHaveLength(1);
    // Nothing changed since the baseline: the store writes no commit, iterations/0001 names the baseline.
    expect(git(repo, ["rev-parse", `refs/ralph/${loop}/iterations/0001`])).toBe(git(repo, ["rev-parse", `refs/ralph/${loop}/baseline`]));
    expect(existsSync(join(loopDir(repo, loop), "iterations", "0001.json"))).toBe(true);

    // Another session does not own the loop.
    expect(await stop({ sessionId: "session-B" })).toMatchObject({ action: "allow", why: expect.stringContaining("does not own") });
    expect(state(repo, loop).iteration).toBe(1);

    // Context >= 95% and an auth failure always allow, without running the check.
    expect(await stop({ transcriptPath: join(FIXTURES, "duplicated-usage.jsonl") })).toMatchObject({ action: "allow", why: expect.stringContaining("context 95% full") });
    expect(await stop({ transcriptPath: join(FIXTURES, "auth-failure.jsonl") })).toMatchObject({ action: "allow", why: expect.stringContaining("authentication failure (401)") });
    s = state(repo, loop);
    expect(s.iteration).toBe(1);
    expect(s.blocks).toBe(0);
    // Background work still running (the agent waits for it): allowed without a check.
    const background = join(repo, "..", `${loop}-background.jsonl`);
    writeFileSync(
      background,
      [
        JSON.stringify({
          type: "assistant",
          message: { id: "m1", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "npm run build", run_in_background: true } }], usage: { input_tokens: 5, output_tokens: 5 } },
        }),
        JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "Command running in background with ID: bash_7" }] } }),
      ].join("\n"),
    );
    expect(await stop({ transcriptPath: background })).toMatchObject({ action: "allow", why: expect.stringContaining("1 background task(s) still running (bash_7)") });
    expect(state(repo, loop).iteration).toBe(1);
    // A transcript well below the limit changes nothing.
    expect((await stop({ transcriptPath: join(FIXTURES, "after-compact.jsonl") })).action).toBe("block");
    // The iteration's tokens are the session's main-chain output tokens the transcript shows.
    const compacted = readTranscriptSignals(join(FIXTURES, "after-compact.jsonl"));
    expect(compacted?.outputTokens).toBeGreaterThan(0);
    expect(state(repo, loop).iteration_history.at(-1)?.tokens).toBe(compacted?.outputTokens);

    // No progress: the third stop in a row on the same tree is allowed.
    const second = await stop();
    expect(second.action).toBe("block");
    if (second.action === "block") expect(second.reason).toContain("has not changed since the previous stop");
    expect(await stop()).toMatchObject({ action: "allow", why: expect.stringContaining("no progress") });
    expect(state(repo, loop)).toMatchObject({ blocks: 0, last_block_tree_oids: [], status: "running", iteration: 4 });

    // A changed tree blocks again; iteration 5 is AGGRESSIVE.
    writeFiles(repo, { "src/b.ts": "export const b = 2;\n" });
    const fifth = await stop();
    expect(fifth.action).toBe("block");
    if (fifth.action === "block") expect(fifth.reason).toContain("AGGRESSIVE");
    const fifthRef = git(repo, ["rev-parse", `refs/ralph/${loop}/iterations/0005`]).trim();
    expect(git(repo, ["log", "-1", "--format=%(trailers:key=Ralph-Kind,valueonly)%(trailers:key=Ralph-Iteration,valueonly)", fifthRef]).trim()).toBe("iteration\n5");
    expect(git(repo, ["show", `${fifthRef}:src/b.ts`])).toBe("export const b = 2;\n");

    // Completion: the check passes, the loop completes, the active mark goes.
    writeFiles(repo, { "done.txt": "yes\n" });
    expect(await stop()).toMatchObject({ action: "allow", why: expect.stringContaining("loop completed") });
    s = state(repo, loop);
    expect(s).toMatchObject({ status: "completed", iteration: 6 });
    expect(s.completed_at).not.toBeNull();
    expect(readActiveLoop(repo)).toBeNull();
    expect(await stop()).toEqual({ action: "allow", why: "no active loop", loop: null });
    // The store's iteration refs are real commits for every iteration.
    expect(
      git(repo, ["for-each-ref", "--format=%(refname)", `refs/ralph/${loop}/iterations/`])
        .trim()
        .split("\n"),
    ).toHaveLength(6);
  });

  it("honours ralph cancel, a bare cancel signal within its TTL, and ignores an expired one", async () => {
    const { repo, loop, stop } = setup();
    expect((await stop()).action).toBe("block");
    cancelLoop(repo, loop);
    expect(state(repo, loop)).toMatchObject({ status: "aborted", status_reason: "cancelled by ralph cancel" });
    expect(await stop()).toEqual({ action: "allow", why: "no active loop", loop: null });
    expect(state(repo, loop).iteration).toBe(1);

    const other = setup();
    const now = Date.now();
    // A signal that landed without the state being updated (e.g. the state was locked).
    writeFileSync(join(loopDir(other.repo, other.loop), "cancel-signal.json"), JSON.stringify({ requested_at_ms: now - CANCEL_SIGNAL_TTL_MS - 1 }));
    expect((await other.stop({ nowMs: now })).action).toBe("block");
    writeFileSync(join(loopDir(other.repo, other.loop), "cancel-signal.json"), JSON.stringify({ requested_at_ms: now - 1000 }));
    expect(await other.stop({ nowMs: now })).toMatchObject({ action: "allow", why: expect.stringContaining("cancel signal") });
    expect(state(other.repo, other.loop).status).toBe("aborted");
    // Honouring the signal does not renew it.
    expect(JSON.parse(readFileSync(join(loopDir(other.repo, other.loop), "cancel-signal.json"), "utf8")).requested_at_ms).toBe(now - 1000);
  });

  it("marks a stale loop crashed, and ralph start resumes it with its iteration count", async () => {
    const { repo, loop, stop } = setup();
    expect((await stop()).action).toBe("block");
    const later = Date.parse(state(repo, loop).last_updated) + STALE_STATE_MS + 1000;
    expect(await stop({ nowMs: later })).toMatchObject({ action: "allow", why: expect.stringContaining("stale") });
    expect(state(repo, loop).status).toBe("crashed");
    expect(await stop()).toMatchObject({ action: "allow", why: expect.stringContaining("crashed") });
    const resumed = startLoop(CheckpointStore.open(repo), { task: "Create done.txt", completion: "ignored on resume" });
    expect(resumed).toMatchObject({ resumed: true });
    expect(resumed.state).toMatchObject({ loop_id: loop, status: "running", iteration: 1, owner_session_id: null });
    // After a resume, the first session to stop owns the loop again.
    expect((await stop({ sessionId: "session-C" })).action).toBe("block");
    expect(state(repo, loop)).toMatchObject({ owner_session_id: "session-C", iteration: 2 });
  });

  it("stops at max_iterations (loop failed), or auto-extends by 10 up to the cap", async () => {
    const capped = setup({ maxIterations: 2 });
    expect((await capped.stop()).action).toBe("block");
    writeFiles(capped.repo, { "x.txt": "progress\n" });
    expect(await capped.stop()).toMatchObject({ action: "allow", why: expect.stringContaining("max_iterations (2) reached") });
    expect(state(capped.repo, capped.loop)).toMatchObject({ status: "failed", iteration: 2 });

    const extending = setup({ maxIterations: 1, autoExtend: true });
    const decision = await extending.stop();
    expect(decision).toMatchObject({ action: "block", why: expect.stringContaining("auto-extended to 11") });
    expect(state(extending.repo, extending.loop).configuration.max_iterations).toBe(11);
    updateState(extending.repo, extending.loop, (s) => {
      s.configuration.max_iterations = 200;
      s.iteration = 199;
      return { result: null };
    });
    expect(await extending.stop()).toMatchObject({ action: "allow", why: expect.stringContaining("max_iterations (200) reached") });
  });

  it("fails a loop past its timeout_minutes", async () => {
    const { repo, loop, stop } = setup();
    updateState(repo, loop, (s) => {
      s.configuration.timeout_minutes = 1;
      return { result: null };
    });
    expect(await stop({ nowMs: Date.now() + 61_000 })).toMatchObject({ action: "allow", why: expect.stringContaining("timeout of 1 min") });
    expect(state(repo, loop).status).toBe("failed");
  });

  it("blocks with the timeout explained when the completion command runs too long", async () => {
    const { repo, loop, stop } = setup({ completion: "echo started; sleep 20", completionTimeoutMs: 400 });
    const started = performance.now();
    const decision = await stop();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(decision.action).toBe("block");
    if (decision.action === "block") {
      expect(decision.reason).toContain("did not finish within 0 s");
      expect(decision.reason).toContain("started");
    }
    expect(state(repo, loop).progress.completion_checks[0]).toMatchObject({ passed: false, timed_out: true, exit_code: null });
  });

  it("picks up after a check that was interrupted (a Stop process killed mid-check)", async () => {
    const { repo, loop, stop } = setup();
    updateState(repo, loop, (s) => {
      s.status = "completing";
      s.last_updated = new Date(Date.now() - 5 * 60_000).toISOString();
      return { result: null };
    });
    expect((await stop()).action).toBe("block");
    expect(state(repo, loop)).toMatchObject({ status: "running", iteration: 1 });
    // A check still within its time is not trampled by a second Stop.
    updateState(repo, loop, (s) => {
      s.status = "completing";
      s.last_updated = new Date().toISOString();
      return { result: null };
    });
    expect(await stop()).toMatchObject({ action: "allow", why: expect.stringContaining("is running the completion check of iteration 2") });
  });

  it("records nothing about stop_hook_active: its own counters decide", async () => {
    const { repo, loop, stop } = setup();
    expect((await stop({ stopHookActive: true })).action).toBe("block");
    expect((await stop({ stopHookActive: true })).action).toBe("block");
    expect(readFileSync(join(loopDir(repo, loop), "state.json"), "utf8")).not.toContain("stop_hook_active");
    expect(state(repo, loop).blocks).toBe(2);
  });
});
