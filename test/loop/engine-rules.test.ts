/**
 * The loop engine's rules on plain values: quality score, error signature,
 * plateau, stuck loop, best selection, reinforcement level, PDARE
 * (diagnosis, retry counting, escalation, recovery), and the reference
 * guide's own example documents against the state schema.
 */
import { describe, expect, it } from "vitest";
import { computeQuality, parseQualityOutput } from "../../src/loop/quality.js";
import { DEFAULT_PROGRESS_SETTINGS, errorSignature, isPlateau, isStuck, levelForIteration, recordIteration, selectBest } from "../../src/loop/progress.js";
import { applyRecovery, diagnose, markRecovered, pendingGateEvents, priorAttempts, type RegressionFinding } from "../../src/loop/recovery.js";
import { IterationRecordSchema, LoopStateSchema, newState, type IterationRecord, type LoopState } from "../../src/loop/state.js";
import { parseLoopId } from "../../src/store/loop-id.js";

const NOW = "2026-02-02T21:00:00.000Z";

function record(iteration: number, quality: number, fields: Partial<IterationRecord> = {}): IterationRecord {
  return IterationRecordSchema.parse({
    iteration,
    quality_score: quality,
    ended_at: NOW,
    snapshot_path: `refs/ralph/l/iterations/${String(iteration).padStart(4, "0")}`,
    checkpoint_oid: `${iteration}`.padStart(40, "0"),
    ...fields,
  });
}

function loopState(): LoopState {
  return newState({ loop_id: parseLoopId("ralph-fix-tests-a1b2c3d4"), task: "Fix all tests", completion_criteria: "npm test", nowIso: NOW });
}

describe("quality score (default formula)", () => {
  const cases: { name: string; inputs: Parameters<typeof computeQuality>[0]; score: number }[] = [
    {
      name: "everything measured and met",
      inputs: { completionPassed: true, blockingFindings: 0, metrics: { test_count: 10, coverage_percentage: 80 }, baseline: { test_count: 10, coverage_percentage: 80 } },
      score: 100,
    },
    {
      name: "completion failing only",
      inputs: { completionPassed: false, blockingFindings: 0, metrics: { test_count: 10, coverage_percentage: 80 }, baseline: { test_count: 10, coverage_percentage: 80 } },
      score: 50,
    },
    {
      name: "a BLOCK finding against the baseline",
      inputs: { completionPassed: true, blockingFindings: 2, metrics: { test_count: 10, coverage_percentage: 80 }, baseline: { test_count: 10, coverage_percentage: 80 } },
      score: 80,
    },
    {
      name: "fewer tests than the baseline",
      inputs: { completionPassed: true, blockingFindings: 0, metrics: { test_count: 9, coverage_percentage: 80 }, baseline: { test_count: 10, coverage_percentage: 80 } },
      score: 85,
    },
    {
      name: "coverage within the 0.5-point tolerance",
      inputs: { completionPassed: true, blockingFindings: 0, metrics: { test_count: 10, coverage_percentage: 79.6 }, baseline: { test_count: 10, coverage_percentage: 80 } },
      score: 100,
    },
    {
      name: "coverage below the tolerance",
      inputs: { completionPassed: true, blockingFindings: 0, metrics: { test_count: 10, coverage_percentage: 79 }, baseline: { test_count: 10, coverage_percentage: 80 } },
      score: 85,
    },
    // Coverage unmeasured: its 15 points go to the others in proportion (50, 20, 15 of 85 -> 58.8, 23.5, 17.6).
    {
      name: "coverage not measured: failing completion only",
      inputs: { completionPassed: false, blockingFindings: 0, metrics: { test_count: 10, coverage_percentage: null }, baseline: { test_count: 10, coverage_percentage: null } },
      score: 41.2,
    },
    {
      name: "coverage not measured: all met",
      inputs: { completionPassed: true, blockingFindings: 0, metrics: { test_count: 10, coverage_percentage: null }, baseline: { test_count: 10, coverage_percentage: null } },
      score: 100,
    },
    { name: "only completion measured", inputs: { completionPassed: true, blockingFindings: null, metrics: { test_count: null, coverage_percentage: null }, baseline: null }, score: 100 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const q = computeQuality(c.inputs);
      expect(q.score).toBe(c.score);
      const earned = Object.values(q.breakdown).reduce((sum, part) => sum + part.earned, 0);
      expect(Math.abs(earned - q.score)).toBeLessThan(0.3);
      const weights = Object.values(q.breakdown).reduce((sum, part) => sum + part.weight, 0);
      expect(Math.abs(weights - 100)).toBeLessThan(0.3);
    });
  }

  it("keeps the breakdown with what was and was not measured", () => {
    const q = computeQuality({ completionPassed: false, blockingFindings: 1, metrics: { test_count: 8, coverage_percentage: null }, baseline: { test_count: 10, coverage_percentage: null } });
    expect(q.breakdown.coverage).toMatchObject({ measured: false, weight: 0, earned: 0 });
    expect(q.breakdown.tests).toMatchObject({ measured: true, earned: 0, detail: "test count 8 < baseline 10" });
    expect(q.breakdown.findings?.detail).toContain("1 unallowed BLOCK");
    expect(q.score).toBe(0);
  });

  it("reads a quality command's last line", () => {
    expect(parseQualityOutput("running checks\n85\n")).toEqual({ score: 85 });
    expect(parseQualityOutput("72.5%")).toEqual({ score: 72.5 });
    expect(parseQualityOutput("")).toMatchObject({ error: expect.stringContaining("printed nothing") });
    expect(parseQualityOutput("score: 85")).toMatchObject({ error: expect.stringContaining('"score: 85"') });
    expect(parseQualityOutput("101")).toMatchObject({ error: expect.stringContaining("not a score 0-100") });
  });
});

describe("progress rules", () => {
  it("an error signature survives changing numbers, paths, durations and oids", () => {
    const a = errorSignature("\u001b[31mFAIL\u001b[39m test/a.test.ts > adds (12 ms)\nAssertionError: expected 3 to be 4\n    at /home/u/p/src/a.ts:10:5\n");
    const b = errorSignature("FAIL test/a.test.ts > adds (40 ms)\nAssertionError: expected 7 to be 9\n    at /tmp/x/p/src/a.ts:11:9\n");
    expect(a).not.toBeNull();
    expect(a).toBe(b);
    expect(errorSignature("TypeError: x is not a function")).not.toBe(a);
    expect(errorSignature("")).toBeNull();
  });

  it("plateau: the last three deltas each under 5 points", () => {
    const withDeltas = (deltas: (number | null)[]) => deltas.map((d, i) => record(i + 1, 50, { quality_delta: d }));
    expect(isPlateau(withDeltas([null, 2, -3, 4]), DEFAULT_PROGRESS_SETTINGS)).toBe(true);
    expect(isPlateau(withDeltas([null, 2, -5, 4]), DEFAULT_PROGRESS_SETTINGS)).toBe(false);
    expect(isPlateau(withDeltas([null, 2, 3]), DEFAULT_PROGRESS_SETTINGS)).toBe(false);
    expect(isPlateau(withDeltas([null, 8, 9, 9]), { plateauThreshold: 0.1 })).toBe(true);
  });

  it("stuck: the same error three failing iterations in a row", () => {
    const failing = (n: number, sig: string | null) => record(n, 40, { verification_status: "failed", error_signature: sig });
    expect(isStuck([failing(1, "E"), failing(2, "E"), failing(3, "E")])).toBe(true);
    expect(isStuck([failing(1, "E"), failing(2, "F"), failing(3, "E")])).toBe(false);
    expect(isStuck([failing(1, "E"), failing(2, "E")])).toBe(false);
    expect(isStuck([failing(1, null), failing(2, null), failing(3, null)])).toBe(false);
  });

  it("best: at or above the threshold, verified first, highest, earliest on a tie", () => {
    const h = [record(1, 60), record(2, 85), record(3, 83), record(4, 80)];
    expect(selectBest(h, { qualityThreshold: 70, requireVerification: false })?.record.iteration).toBe(2);
    expect(selectBest(h, { qualityThreshold: 90, requireVerification: false })).toBeNull();
    const verified = [record(1, 95), record(2, 80, { verification_status: "passed" }), record(3, 90)];
    expect(selectBest(verified, { qualityThreshold: 70, requireVerification: false })?.record.iteration).toBe(2);
    expect(selectBest([record(1, 95)], { qualityThreshold: 70, requireVerification: true })).toBeNull();
    expect(selectBest([record(1, 85), record(2, 85)], { qualityThreshold: 70, requireVerification: false })?.record.iteration).toBe(1);
    expect(selectBest(h, { qualityThreshold: 70, requireVerification: false })?.reason).toContain("the final iteration 4 scored 80");
    // A higher unverified score passed over is said so.
    expect(selectBest(verified, { qualityThreshold: 70, requireVerification: false })?.reason).toBe("highest verified quality (80) at iteration 2; the final iteration 3 scored 90");
  });

  it("reinforcement level by iteration thresholds, never below the default", () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => levelForIteration(n, DEFAULT_PROGRESS_SETTINGS))).toEqual(["MINIMAL", "MINIMAL", "STANDARD", "STANDARD", "AGGRESSIVE", "AGGRESSIVE"]);
    expect(levelForIteration(1, { defaultLevel: "STANDARD", escalationThresholds: [{ iteration: 2, level: "MINIMAL" }] })).toBe("STANDARD");
  });

  it("recording iterations 60, 85, 83, 80 fills deltas, keeps 2 as best and escalates reinforcement with reasons", () => {
    const state = loopState();
    const signals = [60, 85, 83, 80].map((q, i) => recordIteration(state, record(i + 1, q), DEFAULT_PROGRESS_SETTINGS, NOW));
    expect(state.iteration_history.map((r) => r.quality_delta)).toEqual([null, 25, -2, -3]);
    expect(state.best_iteration).toMatchObject({ iteration: 2, quality_score: 85, snapshot_path: "refs/ralph/l/iterations/0002" });
    expect(signals.map((s) => s.newBest)).toEqual([false, true, false, false]);
    expect(state.reinforcement_history).toEqual([{ timestamp: NOW, iteration: 3, from_level: "MINIMAL", to_level: "STANDARD", reason: "iteration 3 threshold" }]);
    // A fifth iteration within 5 points: three small deltas in a row is a plateau, AGGRESSIVE with both reasons.
    const fifth = recordIteration(state, record(5, 81), DEFAULT_PROGRESS_SETTINGS, NOW);
    expect(fifth).toMatchObject({ plateau: true, level: "AGGRESSIVE", levelChanged: true });
    expect(state.plateau_detected).toBe(true);
    expect(state.reinforcement_history.at(-1)?.reason).toBe("iteration 5 threshold + quality plateau (last 3 deltas under 5 points)");
  });
});

describe("PDARE", () => {
  const regression = (type: string, severity: RegressionFinding["severity"]): RegressionFinding => ({
    regression_type: type,
    severity,
    details: { findings: [{ message: `${type} in test/a.test.ts` }] },
  });
  const ctx = (iteration: number) => ({ iteration, completionPassed: false, checkpointRef: `refs/ralph/l/iterations/${iteration}`, nowIso: NOW, stage: "iterate" as const });
  const settings = { maxRetries: 3, autoEscalateOnCritical: true };

  it("diagnoses by rule with a confidence", () => {
    expect(diagnose(regression("test_deletion", "critical"), { completionPassed: false })).toMatchObject({ diagnosis: "reward_hacking", confidence: 0.95 });
    expect(diagnose(regression("test_deletion", "critical"), { completionPassed: true })).toMatchObject({ diagnosis: "reward_hacking", confidence: 0.7 });
    expect(diagnose(regression("stuck_loop", "high"), { completionPassed: false })).toMatchObject({ diagnosis: "cognitive_load" });
    expect(diagnose(regression("expectation_changed", "medium"), { completionPassed: false })).toMatchObject({ diagnosis: "specification_ambiguity" });
    expect(diagnose(regression("feature_removal", "medium"), { completionPassed: false })).toMatchObject({ diagnosis: "task_complexity" });
  });

  it("retries a high regression three times, then escalates to the human gate", () => {
    const state = loopState();
    for (let i = 1; i <= 3; i++) {
      const out = applyRecovery(state, [regression("assertion_weakening", "high")], ctx(i), settings);
      expect(out.escalated).toBe(false);
      expect(out.records[0]?.steps.RETRY).toMatchObject({ attempt: i, max_retries: 3 });
      expect(out.message).toContain(`retry ${i} of 3`);
    }
    expect(state.status).toBe("running");
    const fourth = applyRecovery(state, [regression("assertion_weakening", "high")], ctx(4), settings);
    expect(fourth.escalated).toBe(true);
    expect(fourth.records[0]?.steps).toMatchObject({ RETRY: null, ESCALATE: { gate_type: "TERMINATE", reason: "retries exhausted (3 of 3)" }, ADAPT: { strategy: "escalate_to_human_gate" } });
    expect(state).toMatchObject({ status: "paused", recovery_attempts: 4, recovery_in_progress: true });
    expect(state.status_reason).toContain("reg-004");
    expect(state.regression_events.map((e) => e.event_id)).toEqual(["reg-001", "reg-002", "reg-003", "reg-004"]);
    expect(pendingGateEvents(state).map((e) => e.event_id)).toEqual(["reg-004"]);
  });

  it("escalates a critical regression at once, and not when auto_escalate_on_critical is off", () => {
    const state = loopState();
    expect(applyRecovery(state, [regression("test_deletion", "critical")], ctx(1), settings)).toMatchObject({ escalated: true });
    expect(state.regression_events[0]).toMatchObject({ human_gate_invoked: true, recovery_outcome: "escalated", human_decision: null });
    const other = loopState();
    expect(applyRecovery(other, [regression("test_deletion", "critical")], ctx(1), { ...settings, autoEscalateOnCritical: false })).toMatchObject({ escalated: false });
    expect(other.status).toBe("running");
  });

  it("a regression whose findings are gone is recovered; a human decision resets the retry count", () => {
    const state = loopState();
    applyRecovery(state, [regression("assertion_removal", "high")], ctx(1), settings);
    applyRecovery(state, [regression("assertion_removal", "high")], ctx(2), settings);
    expect(priorAttempts(state, "assertion_removal")).toBe(2);
    expect(markRecovered(state, new Set(["assertion_removal"]), false)).toEqual([]);
    expect(markRecovered(state, new Set(), false)).toEqual(["reg-001", "reg-002"]);
    expect(state.recovery_in_progress).toBe(false);
    expect(state.recovery_history.map((r) => r.outcome)).toEqual(["recovered", "recovered"]);
    const decided = state.regression_events[1];
    if (decided) decided.human_decision = "approve";
    expect(priorAttempts(state, "assertion_removal")).toBe(0);
  });
});

describe("the reference guide's documents validate", () => {
  it("its State Extension example (standard fields plus the persistence extension)", () => {
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
      baseline_metrics: { captured_at: "2026-02-02T21:00:00Z", test_count: 150, coverage_percentage: 85, typescript_errors: 12 },
      iteration_history: [
        { iteration: 1, quality_score: 60, artifacts: [] },
        { iteration: 2, quality_score: 85, artifacts: [] },
        { iteration: 7, quality_score: 70, regression_detected: true, artifacts: [] },
      ],
      best_iteration: { iteration: 2, quality_score: 85, snapshot_path: ".aiwg/ralph/loops/ralph-fix-tests-a1b2c3d4/iterations/iteration-002.json", selection_reason: "Highest quality score (85%)" },
      regression_events: [{ event_id: "reg-001", iteration: 7, regression_type: "test_deletion", severity: "critical", human_decision: "reject" }],
      reinforcement_level: "AGGRESSIVE",
      recovery_attempts: 1,
      detection_enabled: true,
    });
    expect(state.baseline_metrics).toMatchObject({ test_count: 150, coverage_percentage: 85, typescript_errors: 12, lint_errors: null });
    expect(state.iteration_history.map((r) => r.quality_score)).toEqual([60, 85, 70]);
    expect(state.best_iteration?.iteration).toBe(2);
    expect(state.regression_events[0]).toMatchObject({ human_decision: "reject", recovery_outcome: "pending" });
  });

  it("its regression record and reinforcement change (Examples 1 and 2)", () => {
    const state = LoopStateSchema.parse({
      loop_id: "ralph-fix-tests-a1b2c3d4",
      regression_events: [
        {
          event_id: "reg-001",
          timestamp: "2026-02-02T21:15:05Z",
          iteration: 7,
          regression_type: "test_deletion",
          severity: "critical",
          details: { baseline_value: 150, current_value: 148, diff: { deleted_tests: ["test/unit/auth/login.test.ts: should validate email format"] } },
          recovery_protocol_invoked: true,
          recovery_outcome: "escalated",
          human_gate_invoked: true,
          human_decision: "reject",
        },
      ],
      reinforcement_history: [{ timestamp: "2026-02-02T21:10:05Z", iteration: 5, from_level: "STANDARD", to_level: "AGGRESSIVE", reason: "Iteration 5 threshold + repeated error pattern" }],
    });
    expect(state.regression_events[0]?.details).toMatchObject({ baseline_value: 150 });
    expect(state.reinforcement_history[0]?.to_level).toBe("AGGRESSIVE");
  });

  it("rejects what the schema forbids, naming the field", () => {
    const bad = LoopStateSchema.safeParse({ loop_id: "ralph-x-a1b2c3d4", iteration_history: [{ iteration: 1, quality_score: 130 }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["iteration_history", 0, "quality_score"]);
  });
});
