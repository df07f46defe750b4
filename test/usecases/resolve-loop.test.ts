/**
 * The one loop resolver (src/loop/resolve-loop.ts): its order of steps, how
 * it ranks loops by their latest activity, and the bug it fixes — the
 * checkpoint commands and the state commands picking different loops when
 * a session's guard loop had the newest checkpoint.
 */
import { describe, expect, it } from "vitest";
import { startLoop } from "../../src/loop/lifecycle.js";
import { resolveLoop } from "../../src/loop/resolve-loop.js";
import { createState, newState } from "../../src/loop/state.js";
import { CheckpointStore, type LoopSummary } from "../../src/store/checkpoint-store.js";
import { parseLoopId, type LoopId } from "../../src/store/loop-id.js";
import { parseJsonOutput, runRalphInProcess } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

/** A store stand-in whose loops have heads at the given times (seconds since the epoch). */
const storeWith = (heads: Record<string, number>): { listLoops(): LoopSummary[] } => ({
  listLoops: () => Object.entries(heads).map(([loop, updatedSec]) => ({ loop: loop as LoopId, head: "0".repeat(40), baseline: null, best: null, iterations: 0, updatedSec })),
});

const stateAt = (repo: string, loop: string, iso: string): void => {
  createState(repo, newState({ loop_id: parseLoopId(loop), task: "t", completion_criteria: "true", nowIso: iso }));
};

describe("resolveLoop", () => {
  it("takes --loop, then $RALPH_LOOP, then the active loop, then a hook's session loop, then the latest activity", () => {
    const repo = makeRepo();
    const store = CheckpointStore.open(repo);
    startLoop(store, { task: "the started one", completion: "true", id: "started" });
    const base = { workTree: repo, store, need: "checkpoints" as const };
    expect(resolveLoop({ ...base, explicit: "named", envLoop: "from-env" })).toEqual({ loop: "named", source: "option" });
    expect(resolveLoop({ ...base, envLoop: "from-env" })).toEqual({ loop: "from-env", source: "env" });
    expect(resolveLoop({ ...base, envLoop: "", sessionLoop: "acme-s" as LoopId })).toEqual({ loop: "started", source: "active" });
    const fresh = makeRepo();
    expect(resolveLoop({ workTree: fresh, need: "checkpoints", sessionLoop: "acme-s" as LoopId })).toEqual({ loop: "acme-s", source: "session" });
    expect(() => resolveLoop({ ...base, explicit: "a/b" })).toThrow(expect.objectContaining({ code: "E_BAD_LOOP_ID" }));
  });

  it("with nothing to choose from: default for a checkpoint command, E_UNKNOWN_LOOP for a state command", () => {
    const repo = makeRepo();
    expect(resolveLoop({ workTree: repo, store: storeWith({}), need: "checkpoints" })).toEqual({ loop: "default", source: "default" });
    expect(() => resolveLoop({ workTree: repo, store: storeWith({}), need: "state" })).toThrow(expect.objectContaining({ code: "E_UNKNOWN_LOOP" }));
  });

  it("ranks by the later of the newest checkpoint and the state's last update; a state command sees only loops with a state", () => {
    const repo = makeRepo();
    stateAt(repo, "stateful", "2026-01-02T00:00:00.000Z");
    const day1 = Date.parse("2026-01-01T00:00:00Z") / 1000;
    const day3 = Date.parse("2026-01-03T00:00:00Z") / 1000;
    // A loop with only checkpoints (a session's guard loop) is the latest: checkpoint commands take it, state commands cannot.
    const store = storeWith({ stateful: day1, "claude-s": day3 });
    expect(resolveLoop({ workTree: repo, store, need: "checkpoints" })).toEqual({ loop: "claude-s", source: "latest" });
    expect(resolveLoop({ workTree: repo, store, need: "state" })).toEqual({ loop: "stateful", source: "latest" });
    // A newer checkpoint of a loop with a state counts for it too.
    stateAt(repo, "other", "2026-01-02T12:00:00.000Z");
    expect(resolveLoop({ workTree: repo, store: storeWith({ stateful: day3, other: day1 }), need: "state" }).loop).toBe("stateful");
    expect(resolveLoop({ workTree: repo, store: storeWith({ stateful: day1, other: day1 }), need: "state" }).loop).toBe("other");
  });

  it("breaks a tie by name", () => {
    const repo = makeRepo();
    expect(resolveLoop({ workTree: repo, store: storeWith({ b: 100, a: 100, c: 99 }), need: "checkpoints" }).loop).toBe("a");
  });
});

describe("every command resolves the same loop", () => {
  it("after ralph start, a newer checkpoint in another loop does not move log, check or status off the started loop", async () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    expect((await runRalphInProcess(repo, ["start", "the task", "--completion", "true", "--id", "started"])).status).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a later second for the other loop's head
    expect((await runRalphInProcess(repo, ["checkpoint", "--loop", "claude-other", "-m", "elsewhere"])).status).toBe(0);
    const log = parseJsonOutput<{ loop: string }[]>(await runRalphInProcess(repo, ["log", "--json"]));
    expect([...new Set(log.map((l) => l.loop))]).toEqual(["started"]);
    const baseline = CheckpointStore.open(repo).readLoopRef(parseLoopId("started"), "baseline");
    expect(parseJsonOutput<{ from: string }>(await runRalphInProcess(repo, ["check", "--json"])).from).toBe(baseline);
    const status = parseJsonOutput<{ loop_id?: string; loop?: string }>(await runRalphInProcess(repo, ["status", "--json"]));
    expect(status.loop_id ?? status.loop).toBe("started");
  });
});
