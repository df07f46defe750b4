/**
 * The loop engine end to end (commands in-process through runCli; a crashed
 * iteration is a real process killed with SIGKILL) on real git repositories: quality per iteration, select --best restoring a tree
 * exactly, the human gate (reject, approve, abort), plateau and stuck-loop
 * triggers, crash resume, and aiwg.yml tuning.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonOutput, runRalphInProcess, spawnRalph } from "../helpers/cli.js";
import { fsck, git, makeRepo, writeFiles } from "../helpers/git.js";

interface State {
  status: string;
  status_reason: string | null;
  iteration: number;
  baseline_metrics: { test_count: number | null } | null;
  iteration_history: {
    iteration: number;
    quality_score: number;
    quality_delta: number | null;
    quality_source: string;
    checkpoint_oid: string;
    tree_oid: string;
    metrics_snapshot: { test_count: number | null };
    verification_status: string;
    findings: { block: number; types: string[] };
  }[];
  best_iteration: { iteration: number } | null;
  selected_iteration: number | null;
  regression_events: { event_id: string; regression_type: string; severity: string; recovery_outcome: string; human_decision: string | null; details: Record<string, unknown> }[];
  recovery_history: { event_id: string; outcome: string; steps: Record<string, unknown> }[];
  reinforcement_level: string;
  reinforcement_history: { iteration: number; to_level: string; reason: string }[];
  stuck_loop_detected: boolean;
  plateau_detected: boolean;
  allow_rules: { type: string; path?: string }[];
  persistence_metrics: { detection_latency_p95_ms: number | null; false_positive_rate: number | null };
}

const readLoopState = (repo: string, loop: string): State => JSON.parse(readFileSync(join(repo, ".aiwg/ralph/loops", loop, "state.json"), "utf8")) as State;

const TESTS = 'import { test, expect } from "vitest";\ntest("adds", () => { expect(1 + 1).toBe(2); });\ntest("subtracts", () => { expect(2 - 1).toBe(1); });\n';
const ONE_TEST = 'import { test, expect } from "vitest";\ntest("adds", () => { expect(1 + 1).toBe(2); });\n';

async function start(repo: string, args: string[]): Promise<string> {
  const result = await runRalphInProcess(repo, ["start", "Improve the code", ...args, "--json"]);
  expect(result.status, result.stderr).toBe(0);
  return parseJsonOutput<{ loop: string }>(result).loop;
}

describe("the loop engine", () => {
  it("quality 60, 85, 83, 80: select --best restores iteration 2's tree exactly and moves /best", async () => {
    const repo = makeRepo({ "src/a.js": "export const v = 0;\n", "test/a.test.js": TESTS, "quality.txt": "0\n" });
    const loop = await start(repo, ["--completion", "false", "--quality", "tail -n 1 quality.txt"]);
    const scores = [60, 85, 83, 80];
    for (const [i, score] of scores.entries()) {
      writeFiles(repo, { "quality.txt": `${score}\n`, "src/a.js": `export const v = ${i + 1};\n` });
      const it = await runRalphInProcess(repo, ["iterate", "--json"]);
      expect(it.status, it.stderr).toBe(0);
    }
    let state = readLoopState(repo, loop);
    expect(state.iteration_history.map((r) => r.quality_score)).toEqual(scores);
    expect(state.iteration_history.map((r) => r.quality_delta)).toEqual([null, 25, -2, -3]);
    expect(state.iteration_history.every((r) => r.quality_source === "command")).toBe(true);
    expect(state.best_iteration?.iteration).toBe(2);
    expect(state.baseline_metrics?.test_count).toBe(2);
    expect(state.persistence_metrics.detection_latency_p95_ms).not.toBeNull();

    // Uncommitted junk after the last iteration is part of what select replaces (and keeps in its pre-revert checkpoint).
    writeFiles(repo, { "scratch.txt": "notes\n" });
    const selected = await runRalphInProcess(repo, ["select", "--best", "--json"]);
    expect(selected.status, selected.stderr).toBe(0);
    const json = parseJsonOutput<{ iteration: number; quality_score: number; checkpoint: string; pre_revert: string }>(selected);
    expect(json).toMatchObject({ iteration: 2, quality_score: 85 });
    const iteration2 = git(repo, ["rev-parse", `refs/ralph/${loop}/iterations/0002`]).trim();
    expect(json.checkpoint).toBe(iteration2);
    expect(git(repo, ["rev-parse", `refs/ralph/${loop}/best`]).trim()).toBe(iteration2);
    // The work tree now is iteration 2's tree, byte for byte: a fresh checkpoint has the same tree oid.
    const check = await runRalphInProcess(repo, ["checkpoint", "--loop", "verify", "--json"]);
    const treeNow = git(repo, ["rev-parse", `${parseJsonOutput<{ oid: string }>(check).oid}^{tree}`]).trim();
    expect(treeNow).toBe(git(repo, ["rev-parse", `${iteration2}^{tree}`]).trim());
    expect(readFileSync(join(repo, "quality.txt"), "utf8")).toBe("85\n");
    // The state before the selection is kept: scratch.txt is in the pre-revert checkpoint.
    expect(git(repo, ["show", `${json.pre_revert}:scratch.txt`])).toBe("notes\n");
    state = readLoopState(repo, loop);
    expect(state.selected_iteration).toBe(2);
    expect(fsck(repo)).toBe("");

    // A threshold no iteration reaches: a usage error that names the highest score.
    const none = await runRalphInProcess(repo, ["select", "--best", "--threshold", "90", "--json"]);
    expect(none.status).toBe(2);
    expect(parseJsonOutput<{ error: { message: string } }>(none).error.message).toContain("iteration 2 at 85");
  });

  it("a deleted test at an iteration's end pauses the loop at the human gate; reject restores the last good checkpoint", async () => {
    const repo = makeRepo({ "src/a.js": "export const v = 0;\n", "test/a.test.js": TESTS });
    const loop = await start(repo, ["--completion", "false"]);
    writeFiles(repo, { "src/a.js": "export const v = 1;\n" });
    expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(0);
    // The agent deletes the failing test.
    writeFiles(repo, { "test/a.test.js": ONE_TEST, "src/a.js": "export const v = 2;\n" });
    const gated = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(gated.status).toBe(2);
    expect(gated.stderr).toContain("reg-001 test_deletion (critical), diagnosed reward_hacking");
    expect(gated.stderr).toContain("ralph approve | ralph reject | ralph abort");
    let state = readLoopState(repo, loop);
    expect(state).toMatchObject({ status: "paused" });
    expect(state.regression_events).toEqual([
      expect.objectContaining({ event_id: "reg-001", regression_type: "test_deletion", severity: "critical", recovery_outcome: "escalated", human_decision: null }),
    ]);
    expect(state.recovery_history[0]?.steps).toMatchObject({ DIAGNOSE: { diagnosis: "reward_hacking" }, ESCALATE: { gate_type: "TERMINATE" } });
    expect(state.iteration_history[1]?.findings).toEqual({ block: 1, warn: 0, types: ["test_deletion"] });
    expect(state.iteration_history[1]?.metrics_snapshot.test_count).toBe(1);
    // While paused, the Stop hook lets the session end and tells the user why (systemMessage).
    const hookCall = async (event: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
      const result = await runRalphInProcess(repo, ["hook", "claude", event], { input: JSON.stringify({ hook_event_name: event, session_id: "s1", cwd: repo, ...extra }) });
      expect(result.status).toBe(0);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    const stop = await hookCall("Stop");
    expect(Object.keys(stop)).toEqual(["systemMessage"]);
    expect(stop.systemMessage).toContain("reg-001 (test_deletion, critical)");
    expect(stop.systemMessage).toContain("ralph approve");
    // A new session is told the loop waits for the user.
    const context = await hookCall("SessionStart", { source: "startup" });
    expect(JSON.stringify(context)).toContain("The loop waits for the user");
    // Every change is put to the user; reading is not; the agent cannot approve its own regression.
    const decision = (answer: Record<string, unknown>): unknown => (answer.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision;
    expect(decision(await hookCall("PreToolUse", { tool_name: "Edit", tool_input: { file_path: `${repo}/src/a.js`, old_string: "2", new_string: "3" } }))).toBe("ask");
    expect(decision(await hookCall("PreToolUse", { tool_name: "mcp__fs__write_file", tool_input: { path: "x" } }))).toBe("ask");
    expect(await hookCall("PreToolUse", { tool_name: "Read", tool_input: { file_path: `${repo}/src/a.js` } })).toEqual({});
    expect(decision(await hookCall("PreToolUse", { tool_name: "Bash", tool_input: { command: "ralph approve" } }))).toBe("deny");
    // resume refuses while a decision is pending.
    const resume = await runRalphInProcess(repo, ["resume", "--json"]);
    expect(resume.status).toBe(2);
    expect(parseJsonOutput<{ error: { message: string } }>(resume).error.message).toContain("reg-001");

    const rejected = await runRalphInProcess(repo, ["reject", "--json"]);
    expect(rejected.status, rejected.stderr).toBe(0);
    expect(parseJsonOutput(rejected)).toMatchObject({ decision: "reject", events: ["reg-001"], status: "running", restore: { target: "iteration 1" } });
    expect(readFileSync(join(repo, "test/a.test.js"), "utf8")).toBe(TESTS);
    expect(readFileSync(join(repo, "src/a.js"), "utf8")).toBe("export const v = 1;\n");
    state = readLoopState(repo, loop);
    expect(state.regression_events[0]).toMatchObject({ human_decision: "reject", recovery_outcome: "rejected", details: { restored_to: "iteration 1" } });
    expect(state.persistence_metrics.false_positive_rate).toBe(0);
    // The loop runs on: the next iteration is number 3 (numbers never go back) and has no finding.
    const next = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(parseJsonOutput(next)).toMatchObject({ iteration: 3, done: false });
    expect(readLoopState(repo, loop).iteration_history.at(-1)?.findings.block).toBe(0);
    // The same deletion again, right after the reject (no clean iteration in between on disk): paused again.
    writeFiles(repo, { "test/a.test.js": ONE_TEST });
    const again = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(again.status).toBe(2);
    expect(readLoopState(repo, loop)).toMatchObject({ status: "paused" });
    expect(readLoopState(repo, loop).regression_events.map((e) => `${e.event_id} ${e.regression_type} ${e.recovery_outcome}`)).toEqual([
      "reg-001 test_deletion rejected",
      "reg-002 test_deletion escalated",
    ]);
    expect(fsck(repo)).toBe("");
  });

  it("after a reject, deleting the test again at once is escalated again (judged against the last good iteration)", async () => {
    const repo = makeRepo({ "test/a.test.js": TESTS });
    const loop = await start(repo, ["--completion", "node -e 'process.exit(1)'"]);
    writeFiles(repo, { "test/a.test.js": ONE_TEST });
    expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(2);
    expect((await runRalphInProcess(repo, ["reject"])).status).toBe(0);
    writeFiles(repo, { "test/a.test.js": ONE_TEST });
    expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(2);
    const state = readLoopState(repo, loop);
    expect(state.status).toBe("paused");
    expect(state.regression_events.map((e) => e.recovery_outcome)).toEqual(["rejected", "escalated"]);
  });

  it("approve keeps the change and allows its findings for the rest of the loop; abort ends it", async () => {
    const repo = makeRepo({ "test/a.test.js": TESTS });
    const loop = await start(repo, ["--completion", "test -f done.txt"]);
    writeFiles(repo, { "test/a.test.js": ONE_TEST });
    expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(2);
    const approved = await runRalphInProcess(repo, ["approve", "--json"]);
    expect(approved.status, approved.stderr).toBe(0);
    let state = readLoopState(repo, loop);
    expect(state.status).toBe("running");
    expect(state.allow_rules).toEqual([expect.objectContaining({ type: "test_deletion", path: "test/a.test.js" })]);
    expect(state.persistence_metrics.false_positive_rate).toBe(100);
    // The approved deletion no longer counts against the baseline: the completion passing completes the loop.
    writeFiles(repo, { "done.txt": "yes\n" });
    const done = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(done.status).toBe(2);
    state = readLoopState(repo, loop);
    expect(state.status).toBe("completed");
    expect(state.iteration_history.at(-1)).toMatchObject({ verification_status: "passed", findings: { block: 0 } });
    expect((await runRalphInProcess(repo, ["abort"])).status).toBe(2); // over already

    const other = makeRepo({ "test/a.test.js": TESTS });
    const second = await start(other, ["--completion", "false"]);
    writeFiles(other, { "test/a.test.js": ONE_TEST });
    await runRalphInProcess(other, ["iterate"]);
    expect((await runRalphInProcess(other, ["abort", "--json"])).status).toBe(0);
    expect(readLoopState(other, second)).toMatchObject({ status: "aborted" });
    expect(readLoopState(other, second).regression_events[0]).toMatchObject({ human_decision: "abort", recovery_outcome: "aborted" });
  });

  it("a passing completion command with a deleted test does not complete the loop", async () => {
    const repo = makeRepo({ "test/a.test.js": TESTS });
    const loop = await start(repo, ["--completion", "true"]);
    writeFiles(repo, { "aiwg.yml": "agent_persistence:\n  recovery:\n    auto_escalate_on_critical: false\n", "test/a.test.js": ONE_TEST });
    const held = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(held.status, held.stderr).toBe(0);
    expect(parseJsonOutput(held)).toMatchObject({ passed: true, done: false, status: "running" });
    expect(held.stderr).toContain("The completion command passed, but the change against the baseline has 1 unallowed BLOCK finding(s) (test_deletion)");
    const state = readLoopState(repo, loop);
    expect(state.regression_events[0]).toMatchObject({ recovery_outcome: "retrying" });
    expect(state.iteration_history[0]?.quality_score).toBeLessThan(100);
  });

  it("the same error three times is a stuck loop: AGGRESSIVE and a stuck_loop regression in retry", async () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const loop = await start(repo, ["--completion", 'echo "Error: cannot find module ./x at $(date +%s%N)"; exit 1']);
    for (let i = 1; i <= 3; i++) {
      writeFiles(repo, { "a.txt": `a${i}\n` });
      expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(0);
    }
    const state = readLoopState(repo, loop);
    expect(state.stuck_loop_detected).toBe(true);
    expect(state.reinforcement_level).toBe("AGGRESSIVE");
    expect(state.reinforcement_history.at(-1)).toMatchObject({ iteration: 3, to_level: "AGGRESSIVE", reason: expect.stringContaining("stuck loop") });
    expect(state.regression_events.at(-1)).toMatchObject({ regression_type: "stuck_loop", severity: "high", recovery_outcome: "retrying" });
    expect(state.recovery_history.at(-1)?.steps).toMatchObject({ DIAGNOSE: { diagnosis: "cognitive_load" }, ADAPT: { strategy: "decompose_task" } });
  });

  it("aiwg.yml tunes the engine: the best-output threshold and the plateau threshold", async () => {
    const repo = makeRepo({
      "aiwg.yml": "agent_persistence:\n  best_output_selection:\n    quality_threshold: 50\n  reinforcement:\n    quality_plateau_threshold: 0.02\n",
      "quality.txt": "0\n",
    });
    const loop = await start(repo, ["--completion", "false", "--quality", "tail -n 1 quality.txt"]);
    for (const score of [40, 55, 56, 57, 58]) {
      writeFiles(repo, { "quality.txt": `${score}\n` });
      await runRalphInProcess(repo, ["iterate"]);
    }
    const state = readLoopState(repo, loop);
    expect(state.best_iteration?.iteration).toBe(5);
    expect(state.plateau_detected).toBe(true);
    const selected = await runRalphInProcess(repo, ["select", "--best", "--dry-run", "--json"]);
    expect(parseJsonOutput(selected)).toMatchObject({ iteration: 5, threshold: 50, dry_run: true });
    expect(readFileSync(join(repo, "quality.txt"), "utf8")).toBe("58\n");
  });

  it("a loop killed during its completion check resumes with ralph start and keeps counting", async () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const loop = await start(repo, ["--completion", "test -f go && exit 1; sleep 5; exit 1", "--id", "crashy"]);
    const child = spawnRalph(repo, ["iterate"]);
    await new Promise((r) => setTimeout(r, 1_500));
    // While the check is live, a second start on the loop is refused (it would run two iterations at once).
    const concurrent = await runRalphInProcess(repo, ["start", "Improve the code", "--completion", "ignored", "--id", "crashy", "--json"]);
    expect(concurrent.status).toBe(2);
    expect(parseJsonOutput<{ error: { code: string; message: string } }>(concurrent).error).toMatchObject({ code: "E_LOCKED", message: expect.stringContaining("wait for it") });
    child.child.kill("SIGKILL");
    await child.done;
    expect(readLoopState(repo, loop).status).toBe("completing");
    writeFiles(repo, { go: "1\n" });
    const resumed = await runRalphInProcess(repo, ["start", "Improve the code", "--completion", "ignored", "--id", "crashy", "--json"]);
    expect(parseJsonOutput(resumed)).toMatchObject({ resumed: true, status: "running" });
    const next = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(next.status, next.stderr).toBe(0);
    expect(parseJsonOutput(next)).toMatchObject({ iteration: 1, done: false });
    expect(readLoopState(repo, loop).iteration_history.map((r) => r.iteration)).toEqual([1]);
    expect(fsck(repo)).toBe("");

    // Killed again: the next `ralph iterate` sees the check's process is gone and goes on at once.
    writeFiles(repo, { go: "" });
    const other = await runRalphInProcess(repo, ["start", "Other", "--completion", "sleep 5; exit 1", "--id", "crashy2"]);
    expect(other.status, other.stderr).toBe(2); // crashy is still the active loop
    await runRalphInProcess(repo, ["cancel", "--loop", "crashy"]);
    await start(repo, ["--completion", "sleep 5; exit 1", "--id", "crashy3"]);
    const second = spawnRalph(repo, ["iterate"]);
    await new Promise((r) => setTimeout(r, 1_500));
    second.child.kill("SIGKILL");
    await second.done;
    expect(readLoopState(repo, "crashy3").status).toBe("completing");
    const resumed2 = await runRalphInProcess(repo, ["resume", "--json"]);
    expect(resumed2.status, resumed2.stderr).toBe(0);
    expect(readLoopState(repo, "crashy3").status).toBe("running");
  });
  it("says what it could not measure, and names a completion command the shell cannot find", async () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    await start(repo, ["--completion", "no-such-command-ralph-test", "--quality", "echo garbage"]);
    const it1 = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(it1.status, it1.stderr).toBe(0);
    expect(it1.stderr).toContain('Not measured this iteration: quality: the quality command\'s last line is "garbage", not a score 0-100; the default formula was used.');
    expect(parseJsonOutput<{ why: string }>(it1).why).toBe("the shell did not find the completion command (exit 127): check `no-such-command-ralph-test`; iteration 1 of 20");
  });
  it("counts unallowed WARN findings against the baseline in the iteration record", async () => {
    const repo = makeRepo({ "src/lib.js": "export function keep() { return 1; }\nexport function drop() { return 2; }\n" });
    const loop = await start(repo, ["--completion", "false"]);
    writeFiles(repo, { "src/lib.js": "export function keep() { return 1; }\n" });
    expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(0);
    const record = readLoopState(repo, loop).iteration_history[0];
    expect(record?.findings).toEqual({ block: 0, warn: 1, types: [] });
  });
  it("an invalid aiwg.yml: the Stop lets the session end and tells the user what to fix", async () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    await start(repo, ["--completion", "false"]);
    writeFiles(repo, { "aiwg.yml": "agent_persistence:\n  recovery:\n    max_retrys: 4\n" });
    const stop = await runRalphInProcess(repo, ["hook", "claude", "Stop"], { input: JSON.stringify({ hook_event_name: "Stop", session_id: "s1", cwd: repo }) });
    expect(stop.status).toBe(0);
    expect(JSON.parse(stop.stdout)).toEqual({ systemMessage: expect.stringContaining("aiwg.yml:3: agent_persistence.recovery.max_retrys") });
  });
});
