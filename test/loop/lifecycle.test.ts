/**
 * The lifecycle functions the commands and the Stop hook share: loop ids
 * from tasks, which loop a command acts on, a cancel that lands while a
 * completion check runs, iterate and the cancel signal, resume keeping the
 * iteration count, a legacy state resumed and rewritten as v2.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cancelLoop, iterateLoop, makeLoopId, resolveLoopId, startLoop } from "../../src/loop/lifecycle.js";
import { createState, loopDir, newState, readState, STATE_VERSION, stateFilePath } from "../../src/loop/state.js";
import { decideStop } from "../../src/loop/stop.js";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { git, makeRepo } from "../helpers/git.js";

afterEach(() => {
  delete process.env.RALPH_LOOP;
});

describe("makeLoopId", () => {
  it.each([
    ["Fix all TypeScript errors", "ralph-fix-all-typescript-errors-0badcafe"],
    ["  Überprüfe die Tests!  ", "ralph-uberprufe-die-tests-0badcafe"],
    ["日本語", "ralph-loop-0badcafe"],
    ["a".repeat(80), `ralph-${"a".repeat(40)}-0badcafe`],
    ["x -- y", "ralph-x-y-0badcafe"],
  ])("%j -> %s", (task, id) => {
    expect(makeLoopId(task, () => "0badcafe")).toBe(id);
  });

  it("makes ids of the reference guide's form by default", () => {
    expect(makeLoopId("Fix tests")).toMatch(/^ralph-fix-tests-[0-9a-f]{8}$/);
  });
});

describe("resolveLoopId", () => {
  it("takes --loop, then $RALPH_LOOP, then the active loop, then the last updated state", () => {
    const repo = makeRepo();
    expect(() => resolveLoopId(repo)).toThrow(expect.objectContaining({ code: "E_UNKNOWN_LOOP" }));
    createState(repo, newState({ loop_id: parseLoopId("older"), task: "t", completion_criteria: "true", nowIso: "2026-01-01T00:00:00.000Z" }));
    createState(repo, newState({ loop_id: parseLoopId("newer"), task: "t", completion_criteria: "true", nowIso: "2026-01-02T00:00:00.000Z" }));
    expect(resolveLoopId(repo)).toBe("newer");
    const { state } = startLoop(CheckpointStore.open(repo), { task: "active one", completion: "true", id: "active" });
    expect(state.loop_id).toBe("active");
    expect(resolveLoopId(repo)).toBe("active");
    expect(resolveLoopId(repo, undefined, "older")).toBe("older");
    expect(resolveLoopId(repo, "newer", "older")).toBe("newer");
    expect(() => resolveLoopId(repo, "a/b")).toThrow(expect.objectContaining({ code: "E_BAD_LOOP_ID" }));
  });
});

describe("cancel and the completion check", () => {
  it("a cancel during a Stop's completion check wins: the check is recorded, the stop allowed, the loop stays aborted", async () => {
    const repo = makeRepo();
    const store = CheckpointStore.open(repo);
    const { state } = startLoop(store, { task: "slow", completion: "sleep 1; exit 1" });
    const loop = parseLoopId(state.loop_id);
    const pending = decideStop({ cwd: repo, sessionId: "s", transcriptPath: undefined, stopHookActive: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(readState(repo, loop)?.status).toBe("completing");
    cancelLoop(repo, loop);
    expect(await pending).toMatchObject({ action: "allow", why: expect.stringContaining("became aborted during the completion check") });
    const after = readState(repo, loop);
    expect(after).toMatchObject({ status: "aborted", iteration: 0 });
    expect(after?.progress.completion_checks).toHaveLength(1);
  });

  it("ralph iterate honours a live cancel signal", async () => {
    const repo = makeRepo();
    const store = CheckpointStore.open(repo);
    const loop = parseLoopId(startLoop(store, { task: "t", completion: "false" }).state.loop_id);
    writeFileSync(join(loopDir(repo, loop), "cancel-signal.json"), JSON.stringify({ requested_at_ms: Date.now() }));
    await expect(iterateLoop(store, loop)).rejects.toMatchObject({ code: "E_USAGE", data: expect.objectContaining({ done: true, status: "aborted" }) });
  });
});

describe("resume", () => {
  it("keeps the iteration count and baseline, and rewrites a legacy state as v2", async () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const store = CheckpointStore.open(repo);
    const first = startLoop(store, { task: "resume me", completion: "false", id: "legacy" });
    const baseline = first.baseline;
    // Replace the state with an old-format file, as an earlier tool would have left it, marked crashed by age.
    writeFileSync(
      stateFilePath(repo, parseLoopId("legacy")),
      JSON.stringify({
        loop_id: "legacy",
        session_id: "old-session",
        active: true,
        iteration: 37,
        max_iterations: 50,
        created_at: "2026-01-01T00:00:00.000Z",
        last_checked_at: "2026-01-01T01:00:00.000Z",
        task: "resume me",
        completion_criteria: "false",
      }),
    );
    const resumed = startLoop(store, { task: "resume me", completion: "false", id: "legacy" });
    expect(resumed).toMatchObject({ resumed: true, baseline });
    expect(resumed.state).toMatchObject({ iteration: 37, owner_session_id: null, configuration: expect.objectContaining({ max_iterations: 50 }) });
    const onDisk = JSON.parse(readFileSync(stateFilePath(repo, parseLoopId("legacy")), "utf8"));
    expect(onDisk.version).toBe(STATE_VERSION);
    expect(onDisk).not.toHaveProperty("session_id");
    const next = await iterateLoop(store, parseLoopId("legacy"));
    expect(next).toMatchObject({ iteration: 38, done: false });
    expect(git(repo, ["rev-parse", "refs/ralph/legacy/iterations/0038"]).trim()).toMatch(/^[0-9a-f]{40}$/);
  });

  it("refuses to resume a finished loop", () => {
    const repo = makeRepo();
    const store = CheckpointStore.open(repo);
    startLoop(store, { task: "t", completion: "true", id: "done-loop" });
    cancelLoop(repo, parseLoopId("done-loop"));
    expect(() => startLoop(store, { task: "t", completion: "true", id: "done-loop" })).toThrow(expect.objectContaining({ code: "E_USAGE" }));
    // Without --id a new loop starts.
    expect(startLoop(store, { task: "t", completion: "true" }).state.loop_id).toMatch(/^ralph-t-[0-9a-f]{8}$/);
  });
});
