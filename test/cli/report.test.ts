/**
 * `ralph report` (in-process, runCli) on a real repository with a loop
 * state written by hand: the three files exist (atomically written, SVG
 * well-formed), analytics.json parses and matches --json,
 * `completion_report_path` is recorded, the text summary has the sparkline;
 * a loop with no iteration still gets a report; an unknown loop is exit 2.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendHookLog } from "../../src/hooks/hook-log.js";
import { ensureStateRoot, IterationRecordSchema, newState, readState, RegressionEventSchema, writeState } from "../../src/loop/state.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { parseJsonOutput, runRalphInProcess } from "../helpers/cli.js";
import { git, makeRepo } from "../helpers/git.js";
import { parseXml } from "../helpers/xml.js";

interface ReportJson {
  loop_id: string;
  optimal_iteration: number | null;
  final_iteration: number | null;
  best_vs_final: number | null;
  quality_trajectory: string;
  iterations: unknown[];
  performance: { hook_calls: number; hook_events: { event: string; calls: number }[]; targets: { metric: string; value: number | null; met: boolean | null; source: string | null }[] };
  paths: { analytics: string; report: string; chart: string };
  completion_report_path: string;
}

function writeLoop(repo: string, id: string, scores: number[], task = 'Fix <all> & "every" test'): void {
  const loop = parseLoopId(id);
  ensureStateRoot(repo);
  const state = newState({ loop_id: loop, task, completion_criteria: "npm test", nowIso: "2025-03-01T10:00:00.000Z" });
  state.iteration = scores.length;
  state.iteration_history = scores.map((q, i) =>
    IterationRecordSchema.parse({
      iteration: i + 1,
      quality_score: q,
      verification_status: q >= 80 ? "passed" : "failed",
      regression_detected: i === 2,
      duration_ms: 30_000,
      snapshot_path: `refs/ralph/${id}/iterations/${String(i + 1).padStart(4, "0")}`,
    }),
  );
  if (scores.length >= 3) {
    state.regression_events = [
      RegressionEventSchema.parse({
        event_id: "reg-001",
        iteration: 3,
        regression_type: "test_deletion",
        severity: "critical",
        recovery_outcome: "rejected",
        human_gate_invoked: true,
        human_decision: "reject",
      }),
    ];
  }
  writeState(repo, state);
}

describe("ralph report", () => {
  it("writes analytics.json, report.md and quality.svg and records completion_report_path", async () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const id = "ralph-report-cli";
    writeLoop(repo, id, [60, 85, 83, 80]);
    for (const [i, ms] of [120, 180, 240].entries()) {
      appendHookLog(repo, id, { ts: new Date(Date.UTC(2025, 2, 1, 10, i)).toISOString(), agent: "claude", event: "PreToolUse", loop: id, iteration: 1, decision: "allow", duration_ms: ms });
    }

    const result = await runRalphInProcess(repo, ["report", "--loop", id, "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = parseJsonOutput<ReportJson>(result);
    expect(json).toMatchObject({ loop_id: id, optimal_iteration: 2, final_iteration: 4, best_vs_final: 5, quality_trajectory: "fluctuating" });
    const dir = join(repo, ".aiwg", "ralph", "loops", id, "analytics");
    expect(json.paths).toEqual({ analytics: join(dir, "analytics.json"), report: join(dir, "report.md"), chart: join(dir, "quality.svg") });
    for (const path of Object.values(json.paths)) expect(existsSync(path), path).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(["analytics.json", "quality.svg", "report.md"]); // no temp files left

    const analytics = JSON.parse(readFileSync(json.paths.analytics, "utf8")) as ReportJson;
    const { paths: _paths, completion_report_path: _crp, ...fromJson } = json;
    expect(analytics).toEqual(fromJson);
    expect(analytics.performance.hook_calls).toBe(3);
    expect(analytics.performance.hook_events).toMatchObject([{ event: "PreToolUse", calls: 3 }]);
    expect(analytics.performance.targets[0]).toMatchObject({ metric: "detection_latency_p95_ms", value: 240, met: true, source: "hook-log" });

    const svg = readFileSync(json.paths.chart, "utf8");
    expect(() => parseXml(svg)).not.toThrow();
    expect(svg).toContain("Fix &lt;all&gt; &amp; &quot;every&quot; test");

    const md = readFileSync(json.paths.report, "utf8");
    expect(md).toContain("![quality per iteration](quality.svg)");
    expect(md).toContain("`ralph select --best` would restore iteration 2");
    expect(md).toContain("| reg-001 | 3 | test\\_deletion | critical | rejected | reject |");

    const expectedPath = `.aiwg/ralph/loops/${id}/analytics/report.md`;
    expect(json.completion_report_path).toBe(expectedPath);
    expect(readState(repo, parseLoopId(id))?.completion_report_path).toBe(expectedPath);
    expect(git(repo, ["status", "--porcelain"])).toBe("");
  });

  it("text output: a summary with the sparkline and the paths; the loop is found without --loop", async () => {
    const repo = makeRepo();
    writeLoop(repo, "ralph-text", [60, 85, 83, 80]);
    const result = await runRalphInProcess(repo, ["report"]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("loop ralph-text: running, 4 iteration(s)");
    expect(result.stdout).toContain("quality ▅▇▇▇  60 -> 80 (best 85 at #2, final 80 at #4: 5 point(s) below best)");
    expect(result.stdout).toContain("ralph select --best would restore #2 (85, verified)");
    expect(result.stdout).toContain("wrote .aiwg/ralph/loops/ralph-text/analytics/report.md");
    expect(result.stderr).toBe("");
    expect((await runRalphInProcess(repo, ["status", "--loop", "ralph-text"])).stdout).toContain("quality ▅▇▇▇  first 60, last 80, highest 85 (0-100)");
    writeLoop(repo, "ralph-tie", [60, 100, 90, 100]);
    expect((await runRalphInProcess(repo, ["report", "--loop", "ralph-tie"])).stdout).toContain("60 -> 100 (final #4 ties the best, first reached at #2)");
  });

  it("a loop with no iteration still gets a report that says so", async () => {
    const repo = makeRepo();
    writeLoop(repo, "ralph-empty", []);
    const result = await runRalphInProcess(repo, ["report", "--loop", "ralph-empty", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const json = parseJsonOutput<ReportJson>(result);
    expect(json).toMatchObject({ iterations: [], optimal_iteration: null, final_iteration: null, best_vs_final: null });
    expect(readFileSync(json.paths.report, "utf8")).toContain("no iteration has ended yet");
    expect(() => parseXml(readFileSync(json.paths.chart, "utf8"))).not.toThrow();
    expect((await runRalphInProcess(repo, ["report", "--loop", "ralph-empty"])).stdout).toContain("no iteration has ended yet");
  });

  it("--threshold moves the select --best candidate; bad values and unknown loops are exit 2", async () => {
    const repo = makeRepo();
    writeLoop(repo, "ralph-threshold", [60, 85, 83, 80]);
    const high = parseJsonOutput<{ select_best_candidate: unknown; quality_threshold: number }>(await runRalphInProcess(repo, ["report", "--threshold", "90", "--json"]));
    expect(high).toMatchObject({ quality_threshold: 90, select_best_candidate: null });
    expect((await runRalphInProcess(repo, ["report", "--threshold", "101"])).status).toBe(2);
    const unknown = await runRalphInProcess(repo, ["report", "--loop", "nope", "--json"]);
    expect(unknown.status).toBe(2);
    expect(parseJsonOutput<{ error: { code: string } }>(unknown).error.code).toBe("E_UNKNOWN_LOOP");
  });
});
