/**
 * Loop state: schema round-trip, legacy and partial states, the status
 * transition table (every pair), corrupt files reported with their path and
 * the last good copy kept, `.aiwg/ralph/.gitignore`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRalphError } from "../../src/errors.js";
import {
  canTransition,
  createState,
  ensureStateRoot,
  LOOP_STATUSES,
  LoopStateSchema,
  newState,
  parseStateText,
  readState,
  STATE_VERSION,
  stateFilePath,
  STATUS_TRANSITIONS,
  transition,
  updateState,
  type LoopStatus,
} from "../../src/loop/state.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { git, makeRepo, writeFiles } from "../helpers/git.js";

const LOOP = parseLoopId("ralph-fix-tests-a1b2c3d4");
const NOW = "2026-02-02T21:00:00.000Z";

function fresh() {
  return newState({ loop_id: LOOP, task: "Fix all TypeScript errors", completion_criteria: "npx tsc --noEmit", nowIso: NOW });
}

describe("LoopStateSchema", () => {
  it("round-trips a state written by ralph, keeping fields it does not know", () => {
    const repo = makeRepo();
    const state = fresh();
    (state as Record<string, unknown>).custom_extension = { captured_at: NOW, test_count: 150 };
    state.progress.completion_checks.push({ iteration: 1, passed: false, exit_code: 2, timed_out: false, duration_ms: 12, checked_at: NOW, tree_oid: null, checkpoint_oid: null, output_tail: "x" });
    createState(repo, state);
    const read = readState(repo, LOOP);
    expect(read).toEqual(state);
    expect((read as Record<string, unknown>).custom_extension).toEqual({ captured_at: NOW, test_count: 150 });
    expect(JSON.parse(readFileSync(stateFilePath(repo, LOOP), "utf8")).version).toBe(STATE_VERSION);
  });

  it("loads the reference guide's example with only its fields, defaults filled in", () => {
    const state = LoopStateSchema.parse({
      version: "2.0.0",
      loop_id: "ralph-fix-tests-a1b2c3d4",
      status: "running",
      iteration: 7,
      task: "Fix all TypeScript errors",
      completion_criteria: "npx tsc --noEmit passes",
      started_at: "2026-02-02T21:00:00Z",
      last_updated: "2026-02-02T21:15:00Z",
      configuration: { max_iterations: 200, timeout_minutes: 60 },
      best_iteration: { iteration: 2, quality_score: 85 },
      reinforcement_level: "AGGRESSIVE",
    });
    expect(state.configuration).toEqual({ max_iterations: 200, timeout_minutes: 60, completion_timeout_ms: 60_000, auto_extend: false });
    expect(state.blocks).toBe(0);
    expect(state.owner_session_id).toBeNull();
    expect(state.progress.completion_checks).toEqual([]);
    expect(state.reinforcement_level).toBe("AGGRESSIVE");
  });

  it("loads a pre-2.0 ralph.json (active, max_iterations, created_at, session_id)", () => {
    const text = JSON.stringify({ loop_id: "my-bugfix-task", session_id: "s-1", active: true, iteration: 3, max_iterations: 50, created_at: NOW, last_checked_at: "2026-02-02T21:15:00.000Z" });
    const state = parseStateText(text, "/x/state.json");
    expect(state).toMatchObject({ version: STATE_VERSION, status: "running", iteration: 3, started_at: NOW, last_updated: "2026-02-02T21:15:00.000Z", owner_session_id: "s-1" });
    expect(state.configuration.max_iterations).toBe(50);
    expect(state).not.toHaveProperty("active");
  });

  it.each([
    ["not JSON", '{"loop_id": "a"'],
    ["a bad status", JSON.stringify({ loop_id: "a", status: "sleeping" })],
    ["a bad loop id", JSON.stringify({ loop_id: "../etc" })],
    ["a negative iteration", JSON.stringify({ loop_id: "a", iteration: -1 })],
    ["max_iterations over the hard cap", JSON.stringify({ loop_id: "a", configuration: { max_iterations: 201 } })],
  ])("reports %s as E_BAD_STATE (exit 2) naming the file", (_name, text) => {
    try {
      parseStateText(text, "/repo/.aiwg/ralph/loops/a/state.json");
      expect.unreachable();
    } catch (error) {
      expect(isRalphError(error, "E_BAD_STATE")).toBe(true);
      expect((error as { exitCode?: number }).exitCode).toBe(2);
      expect((error as Error).message).toContain("/repo/.aiwg/ralph/loops/a/state.json");
      expect((error as Error).message).not.toContain("\n");
    }
  });
});

describe("status transitions", () => {
  const pairs: [LoopStatus, LoopStatus][] = LOOP_STATUSES.flatMap((from) => LOOP_STATUSES.map((to) => [from, to] as [LoopStatus, LoopStatus]));
  const legal = new Set([
    "running>paused",
    "running>completing",
    "running>completed",
    "running>failed",
    "running>aborted",
    "running>crashed",
    "paused>running",
    "paused>failed",
    "paused>aborted",
    "paused>crashed",
    "completing>running",
    "completing>completed",
    "completing>failed",
    "completing>aborted",
    "completing>crashed",
    "crashed>running",
    "crashed>failed",
    "crashed>aborted",
  ]);

  it.each(pairs)("%s -> %s", (from, to) => {
    const expected = legal.has(`${from}>${to}`);
    expect(canTransition(from, to)).toBe(expected);
    const state = fresh();
    state.status = from;
    if (expected) {
      transition(state, to, "test", "2026-02-02T22:00:00.000Z");
      expect(state.status).toBe(to);
      expect(state.status_reason).toBe("test");
      expect(state.completed_at).toBe(["completed", "failed", "aborted"].includes(to) ? "2026-02-02T22:00:00.000Z" : null);
    } else {
      expect(() => transition(state, to, "test", NOW)).toThrow(expect.objectContaining({ code: "E_USAGE" }));
      expect(state.status).toBe(from);
    }
  });

  it("has terminal statuses with no way out", () => {
    for (const status of ["completed", "failed", "aborted"] as const) expect(STATUS_TRANSITIONS[status]).toEqual([]);
  });
});

describe("state files", () => {
  it("keeps the previous valid content as state.json.bak and leaves a corrupt file untouched", () => {
    const repo = makeRepo();
    createState(repo, fresh());
    updateState(repo, LOOP, (s) => {
      s.iteration = 1;
      return { result: null };
    });
    const path = stateFilePath(repo, LOOP);
    expect(JSON.parse(readFileSync(`${path}.bak`, "utf8")).iteration).toBe(0);
    expect(JSON.parse(readFileSync(path, "utf8")).iteration).toBe(1);
    writeFileSync(path, "{ torn");
    expect(() => readState(repo, LOOP)).toThrow(expect.objectContaining({ code: "E_BAD_STATE", exitCode: 2, data: expect.objectContaining({ path, backup: `${path}.bak` }) }));
    expect(() => updateState(repo, LOOP, () => ({ result: null }))).toThrow(expect.objectContaining({ code: "E_BAD_STATE" }));
    expect(readFileSync(path, "utf8")).toBe("{ torn");
    expect(JSON.parse(readFileSync(`${path}.bak`, "utf8")).iteration).toBe(0);
  });

  it("does not write when the update says nothing changed, and refuses to create a loop twice", () => {
    const repo = makeRepo();
    createState(repo, fresh());
    const path = stateFilePath(repo, LOOP);
    const before = readFileSync(path, "utf8");
    updateState(repo, LOOP, () => ({ result: null, changed: false }));
    expect(readFileSync(path, "utf8")).toBe(before);
    expect(existsSync(`${path}.bak`)).toBe(false);
    expect(() => createState(repo, fresh())).toThrow(expect.objectContaining({ code: "E_USAGE" }));
    expect(() => updateState(repo, parseLoopId("other"), () => ({ result: null }))).toThrow(expect.objectContaining({ code: "E_UNKNOWN_LOOP" }));
  });

  it("never shows .aiwg/ralph in git status", () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    ensureStateRoot(repo);
    createState(repo, fresh());
    writeFiles(repo, { "b.txt": "b\n" });
    expect(readFileSync(join(repo, ".aiwg", "ralph", ".gitignore"), "utf8")).toBe("*\n");
    expect(git(repo, ["status", "--porcelain", "--untracked-files=all"])).toBe("?? b.txt\n");
  });
});
