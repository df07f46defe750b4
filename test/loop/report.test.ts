/**
 * The progress report's rules and documents on hand-built states:
 * trajectory and diminishing-returns tables, best vs final (the reference
 * guide's 60, 85, 83, 80), totals, performance targets, the sparkline and
 * report.md (escaping, the empty loop).
 */
import { describe, expect, it } from "vitest";
import {
  buildAnalytics,
  classifyTrajectory,
  EMPTY_HOOK_LOG,
  escapeMarkdown,
  findOptimalIteration,
  formatDuration,
  hasDiminishingReturns,
  renderReportMarkdown,
  selectBestCandidate,
  sparkline,
  type HookLogSummary,
  type QualityTrajectory,
} from "../../src/loop/report.js";
import { IterationRecordSchema, newState, RecoveryRecordSchema, RegressionEventSchema, type IterationRecord, type LoopState } from "../../src/loop/state.js";
import { parseLoopId } from "../../src/store/loop-id.js";

const NOW = "2025-03-01T12:00:00.000Z";

function record(iteration: number, quality: number, extra: Record<string, unknown> = {}): IterationRecord {
  return IterationRecordSchema.parse({ iteration, quality_score: quality, ...extra });
}

function stateWith(scores: readonly number[], extra: (state: LoopState) => void = () => {}): LoopState {
  const state = newState({ loop_id: parseLoopId("ralph-report-test"), task: "Improve code quality", completion_criteria: "npm test", nowIso: "2025-03-01T10:00:00.000Z" });
  state.iteration_history = scores.map((q, i) => record(i + 1, q, { verification_status: "passed", duration_ms: 1000 * (i + 1), tokens: 100, cost_usd: 0.01 }));
  state.iteration = scores.length;
  extra(state);
  return state;
}

describe("classifyTrajectory (deltas beyond ±tolerance are rises or falls)", () => {
  const table: [number[], number, QualityTrajectory][] = [
    [[], 2, "stable"],
    [[50], 2, "stable"],
    [[50, 51, 49, 50], 2, "stable"],
    [[50, 52, 50, 52], 2, "stable"], // exactly ±2 is flat
    [[50, 53], 2, "improving"],
    [[40, 50, 60, 61], 2, "improving"], // a flat step does not break improving
    [[90, 80, 79, 70], 2, "declining"],
    [[60, 85, 83, 80], 2, "fluctuating"], // the reference guide's loop: +25 then -3
    [[60, 85, 83, 80], 3, "improving"], // with tolerance 3 the -3 is flat
    [[70, 60, 80], 0, "fluctuating"],
    [[70, 70, 70], 0, "stable"],
  ];
  it.each(table)("%j with tolerance %d is %s", (scores, tolerance, expected) => {
    expect(classifyTrajectory(scores, tolerance)).toBe(expected);
  });
});

describe("hasDiminishingReturns (last N deltas each < minGain after a gain >= minGain)", () => {
  const table: [number[], { window: number; minGainPoints: number } | undefined, boolean][] = [
    [[], undefined, false],
    [[60, 85, 83, 80], undefined, false], // only two deltas after the gain
    [[60, 85, 83, 80, 81], undefined, true],
    [[60, 85, 83, 80], { window: 2, minGainPoints: 5 }, true],
    [[60, 61, 62, 63, 64], undefined, false], // never gained: a plateau, not diminishing returns
    [[60, 70, 72, 74, 80], undefined, false], // the last delta is a gain again
    [[60, 70, 74, 78, 82], undefined, true], // 4-point steps are below 5
    [[60, 70, 50, 40, 30], undefined, true], // falls count as no gain
    [[60, 65, 66, 67, 68], undefined, true], // exactly 5 is a gain
    [[60, 64, 65, 66, 67], undefined, false], // 4 is not
  ];
  it.each(table)("%j (%j) -> %s", (scores, rule, expected) => {
    expect(hasDiminishingReturns(scores, rule)).toBe(expected);
  });
});

describe("best iteration", () => {
  it("optimal: highest quality; ties go to the earliest verified, else the earliest", () => {
    expect(findOptimalIteration([])).toBeNull();
    expect(findOptimalIteration([record(1, 60), record(2, 85), record(3, 85)])?.iteration).toBe(2);
    expect(findOptimalIteration([record(1, 85), record(2, 85, { verification_status: "passed" }), record(3, 85, { verification_status: "passed" })])?.iteration).toBe(2);
    expect(findOptimalIteration([record(3, 70), record(1, 90), record(2, 90)])?.iteration).toBe(1);
  });

  it("select --best candidate: >= threshold, verified first, highest, earliest", () => {
    const records = [record(1, 95), record(2, 80, { verification_status: "passed" }), record(3, 80, { verification_status: "passed" }), record(4, 60)];
    expect(selectBestCandidate(records)).toEqual({ iteration: 2, quality_score: 80, verified: true });
    expect(selectBestCandidate(records, 90)).toEqual({ iteration: 1, quality_score: 95, verified: false });
    expect(selectBestCandidate(records, 99)).toBeNull();
  });
});

describe("buildAnalytics", () => {
  it("rounds best_vs_final to one decimal (83.3 - 66.7 is 16.6, not 16.599999999999994)", () => {
    const a = buildAnalytics(stateWith([66.7, 83.3, 66.7]), EMPTY_HOOK_LOG, { nowIso: NOW });
    expect(a.best_vs_final).toBe(16.6);
  });

  it("60, 85, 83, 80: optimal 2, final 4, best_vs_final 5, fluctuating", () => {
    const state = stateWith([60, 85, 83, 80], (s) => {
      s.selected_iteration = 2;
      (s.iteration_history[0] as IterationRecord).verification_status = "failed";
    });
    const a = buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW });
    expect(a).toMatchObject({
      format: "ralph-analytics/1",
      generated_at: NOW,
      loop_id: "ralph-report-test",
      task: "Improve code quality",
      status: "running",
      ended_at: null,
      optimal_iteration: 2,
      optimal_quality: 85,
      final_iteration: 4,
      final_quality: 80,
      selected_iteration: 2,
      best_vs_final: 5,
      net_change: 20,
      quality_trajectory: "fluctuating",
      diminishing_returns: false,
      select_best_candidate: { iteration: 2, quality_score: 85, verified: true },
    });
    expect(a.iterations.map((it) => [it.iteration, it.quality_score, it.quality_delta])).toEqual([
      [1, 60, null],
      [2, 85, 25],
      [3, 83, -2],
      [4, 80, -3],
    ]);
    expect(a.iterations[0]).toEqual({
      iteration: 1,
      quality_score: 60,
      quality_delta: null,
      duration_ms: 1000,
      tokens: 100,
      cost_usd: 0.01,
      verification_status: "failed",
      regression_detected: false,
      findings: { block: 0, warn: 0, types: [] },
    });
    expect(a.totals).toMatchObject({ iterations: 4, verified_iterations: 3, duration_ms: 10_000, tokens: 400 });
    expect(a.totals.cost_usd).toBeCloseTo(0.04);
  });

  it("keeps a recorded quality_delta, orders iterations and keeps the last record of a repeated number", () => {
    const state = stateWith([], (s) => {
      s.iteration_history = [record(2, 70, { quality_delta: 7 }), record(1, 50), record(2, 75, { quality_delta: 25 })];
    });
    const a = buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW });
    expect(a.iterations.map((it) => [it.iteration, it.quality_score, it.quality_delta])).toEqual([
      [1, 50, null],
      [2, 75, 25],
    ]);
  });

  it("counts regressions by type, severity and outcome, recoveries by outcome, and human decisions", () => {
    const state = stateWith([60, 40, 70], (s) => {
      s.regression_events = [
        RegressionEventSchema.parse({
          event_id: "reg-001",
          iteration: 2,
          regression_type: "test_deletion",
          severity: "critical",
          recovery_outcome: "rejected",
          human_gate_invoked: true,
          human_decision: "reject",
        }),
        RegressionEventSchema.parse({
          event_id: "reg-002",
          iteration: 3,
          regression_type: "test_deletion",
          severity: "critical",
          recovery_outcome: "approved",
          human_gate_invoked: true,
          human_decision: "approve",
        }),
        RegressionEventSchema.parse({ event_id: "reg-003", iteration: 3, regression_type: "validation_bypass", severity: "high", recovery_outcome: "recovered" }),
      ];
      s.recovery_history = [recovery("rec-001", "reg-003", "recovered")];
    });
    const a = buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW });
    expect(a.totals.regressions).toEqual({
      total: 3,
      by_type: { test_deletion: 2, validation_bypass: 1 },
      by_severity: { critical: 2, high: 1 },
      by_outcome: { rejected: 1, approved: 1, recovered: 1 },
    });
    expect(a.totals.recoveries).toEqual({ total: 1, by_outcome: { recovered: 1 } });
    expect(a.totals.human_decisions).toEqual({ approve: 1, reject: 1, abort: 0 });
    // 1 approval of 2 decisions: a 50% false-positive rate, from the events (the state measured none).
    expect(a.performance.targets.find((t) => t.metric === "false_positive_rate")).toEqual({
      metric: "false_positive_rate",
      value: 50,
      target: 5,
      unit: "percent",
      met: false,
      source: "regression-events",
    });
  });

  it("performance: persistence_metrics first, else the hook log; each target met when strictly below", () => {
    const hooks: HookLogSummary = {
      events: [{ event: "PreToolUse", calls: 10, p50_ms: 80, p95_ms: 120, p99_ms: 130, max_ms: 130, total_ms: 900 } as never],
      overall: { calls: 12, p95_ms: 480, p99_ms: 1000 },
      hook_share_percent: 3.2,
    };
    const state = stateWith([80], (s) => {
      s.persistence_metrics.integration_overhead_percentage = 12.5;
    });
    const a = buildAnalytics(state, hooks, { nowIso: NOW });
    expect(a.performance.targets).toEqual([
      { metric: "detection_latency_p95_ms", value: 480, target: 500, unit: "ms", met: true, source: "hook-log" },
      { metric: "detection_latency_p99_ms", value: 1000, target: 1000, unit: "ms", met: false, source: "hook-log" },
      { metric: "integration_overhead_percentage", value: 12.5, target: 10, unit: "percent", met: false, source: "state" },
      { metric: "false_positive_rate", value: null, target: 5, unit: "percent", met: null, source: null },
    ]);
    expect(a.performance.hook_calls).toBe(12);
    expect(a.performance.hook_events).toEqual([{ event: "PreToolUse", calls: 10, p50_ms: 80, p95_ms: 120, p99_ms: 130, max_ms: 130 }]);
    expect(a.performance.all_measured_met).toBe(false);
    expect(buildAnalytics(stateWith([80]), EMPTY_HOOK_LOG, { nowIso: NOW }).performance.all_measured_met).toBeNull();
  });

  it("a loop with no iterations: nulls, stable, no candidate", () => {
    const a = buildAnalytics(stateWith([]), EMPTY_HOOK_LOG, { nowIso: NOW });
    expect(a).toMatchObject({
      iterations: [],
      optimal_iteration: null,
      final_iteration: null,
      best_vs_final: null,
      quality_trajectory: "stable",
      diminishing_returns: false,
      select_best_candidate: null,
    });
    expect(a.totals).toMatchObject({ iterations: 0, duration_ms: null, tokens: null, cost_usd: null });
  });

  it("the threshold decides the select --best candidate", () => {
    const state = stateWith([60, 65]);
    expect(buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW }).select_best_candidate).toBeNull();
    expect(buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW, qualityThreshold: 60 }).select_best_candidate).toEqual({ iteration: 2, quality_score: 65, verified: true });
  });
});

function recovery(attempt: string, event: string, outcome: "recovered" | "escalated") {
  return RecoveryRecordSchema.parse({
    attempt_id: attempt,
    event_id: event,
    iteration: 3,
    started_at: NOW,
    steps: {
      PAUSE: { executed_at: NOW, actions: ["blocked Edit of src/a.ts"], checkpoint_ref: "refs/ralph/x/head" },
      DIAGNOSE: { executed_at: NOW, diagnosis: "guard removed to pass a test", root_cause: "reward_hacking", confidence: 0.8 },
      ADAPT: { executed_at: NOW, strategy: "block_and_escalate", message: "Restore the guard <now> & fix the code | not the test" },
      RETRY: { executed_at: NOW, attempt: 1, max_retries: 3 },
      ESCALATE: null,
    },
    outcome,
  });
}

describe("sparkline", () => {
  it.each([
    [[], ""],
    [[0, 12, 13, 25, 50, 75, 87.5, 100], "▁▁▂▃▅▇██"],
    [[60, 85, 83, 80], "▅▇▇▇"],
    [[-5, 150], "▁█"],
  ])("%j -> %s (fixed 0-100 scale)", (scores, expected) => {
    expect(sparkline(scores)).toBe(expected);
  });

  it("buckets long runs into maxWidth characters (mean per bucket)", () => {
    const scores = Array.from({ length: 200 }, (_, i) => (i < 100 ? 0 : 100));
    const line = sparkline(scores, 20);
    expect([...line]).toHaveLength(20);
    expect(line).toBe("▁".repeat(10) + "█".repeat(10));
  });
});

describe("report.md", () => {
  it("says what the loop was asked, how it ended, best vs final and what select --best restores", () => {
    const state = stateWith([60, 85, 83, 80], (s) => {
      s.status = "completed";
      s.completed_at = "2025-03-01T11:00:00.000Z";
      s.regression_events = [
        RegressionEventSchema.parse({ event_id: "reg-001", iteration: 3, regression_type: "test_deletion", severity: "critical", recovery_outcome: "escalated", human_gate_invoked: true }),
      ];
      s.recovery_history = [recovery("rec-001", "reg-001", "escalated")];
      s.reinforcement_history = [{ timestamp: NOW, iteration: 3, from_level: "MINIMAL", to_level: "STANDARD", reason: "iteration 3" }];
    });
    const md = renderReportMarkdown(buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW }), state);
    expect(md).toMatch(/^# ralph report: ralph-report-test\n/);
    expect(md).toContain("It is **completed** after 4 iterations");
    expect(md).toContain("the best was 85 at iteration 2, 5 points above the final iteration 4");
    expect(md).toContain("`ralph select --best` would restore iteration 2 (quality 85, verified)");
    expect(md).toContain("![quality per iteration](quality.svg)");
    expect(md).toContain("| 2 | 85 | +25 | passed | no | - | 2.0 s | 100 | $0.0100 | best |");
    expect(md).toContain("| reg-001 | 3 | test\\_deletion | critical | escalated | waiting |");
    expect(md).toContain("- **Diagnose**: guard removed to pass a test; root cause reward\\_hacking, confidence 80%");
    expect(md).toContain("Restore the guard &lt;now&gt; &amp; fix the code \\| not the test");
    expect(md).toContain("| 3 | MINIMAL | STANDARD | iteration 3 |");
    expect(md).toContain("| Detection latency p95 | not measured | < 500 ms | - | - |");
    for (const heading of ["## Iterations", "## Regressions", "## Recoveries (PDARE)", "## Reinforcement", "## Performance against targets"]) expect(md).toContain(heading);
  });

  it("a final iteration that ties an earlier best says so (the earlier one is what select --best restores)", () => {
    const state = stateWith([60, 100, 90, 100]);
    const md = renderReportMarkdown(buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW }), state);
    expect(md).toContain("the final iteration (#4) ties the best score, first reached at iteration 2.");
    expect(md).toContain("would restore iteration 2 (quality 100, verified)");
    const same = stateWith([60, 100]);
    expect(renderReportMarkdown(buildAnalytics(same, EMPTY_HOOK_LOG, { nowIso: NOW }), same)).toContain("and the final iteration (#2) was also the best.");
  });

  it("a loop with no iteration says so and has no chart", () => {
    const state = stateWith([]);
    const md = renderReportMarkdown(buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW }), state);
    expect(md).toContain("no iteration has ended yet, so there is no quality to report");
    expect(md).not.toContain("quality.svg");
  });

  it("escapes the task: HTML specials and Markdown punctuation", () => {
    expect(escapeMarkdown('fix <b>bold</b> & "quote" | *star* `tick`\nnext')).toBe('fix &lt;b&gt;bold&lt;/b&gt; &amp; "quote" \\| \\*star\\* \\`tick\\` next');
    const state = stateWith([80], (s) => {
      s.task = 'Make <script>alert("x")</script> & more';
    });
    const md = renderReportMarkdown(buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW }), state);
    expect(md).not.toContain("<script>");
    expect(md).toContain('“Make &lt;script&gt;alert("x")&lt;/script&gt; &amp; more”');
  });

  it.each([
    [null, "-"],
    [850, "850 ms"],
    [12_345, "12.3 s"],
    [245_000, "4 min 05 s"],
    [7_380_000, "2 h 03 min"],
  ])("formatDuration(%j) = %s", (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
  });
});

describe("report.md and the chart tell the truth (issue 10)", () => {
  it("says tokens were not measured instead of 'It used 0 tokens'", () => {
    const zero = stateWith([50, 60], (s) => {
      for (const r of s.iteration_history) r.tokens = 0;
    });
    const md = renderReportMarkdown(buildAnalytics(zero, EMPTY_HOOK_LOG, { nowIso: NOW }), zero);
    expect(md).not.toMatch(/\b0 (output )?tokens/);
    expect(md).toContain("Tokens were not measured");
    const none = stateWith([50, 60], (s) => {
      for (const r of s.iteration_history) r.tokens = null;
    });
    expect(renderReportMarkdown(buildAnalytics(none, EMPTY_HOOK_LOG, { nowIso: NOW }), none)).toContain("Tokens were not measured");
    const some = stateWith([50, 60], (s) => {
      (s.iteration_history[1] as IterationRecord).tokens = null;
    });
    expect(renderReportMarkdown(buildAnalytics(some, EMPTY_HOOK_LOG, { nowIso: NOW }), some)).toContain("100 output tokens (measured in 1 of 2 iterations)");
  });

  it("an iteration the regressions table lists (a hook recorded it) is a regression in the iterations table and on the chart", () => {
    const state = stateWith([50, 60, 55], (s) => {
      s.regression_events = [RegressionEventSchema.parse({ event_id: "reg-001", iteration: 2, regression_type: "test_deletion", severity: "critical", recovery_outcome: "recovered" })];
    });
    const analytics = buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: NOW });
    expect(analytics.iterations.map((it) => it.regression_detected)).toEqual([false, true, false]);
    const md = renderReportMarkdown(analytics, state);
    const row = md.split("\n").find((line) => /^\| 2 \|/.test(line));
    expect(row).toContain("**yes**");
  });
});
