/**
 * The recovery protocol on a regression (reference guide, "Regression
 * Detection Flow": PDARE, Pause, Diagnose, Adapt, Retry, Escalate), as pure
 * functions on the loop state:
 * - PAUSE: the regressed tree is kept (the iteration's checkpoint ref) and
 *   the agent's stop or tool call is answered with the diagnosis;
 * - DIAGNOSE: rule-based root cause with a confidence 0-1 (below);
 * - ADAPT: a strategy and a message to the agent, written as facts;
 * - RETRY: the agent gets another try, at most `max_retries` per
 *   regression type since a human last decided one of that type;
 * - ESCALATE: retries exhausted, or a critical regression (when
 *   `auto_escalate_on_critical`): the loop is `paused` for a human, who
 *   decides with `ralph approve | reject | abort`. A stuck loop is high,
 *   not critical: each iteration that is still stuck spends a retry, so
 *   the agent gets `max_retries` iterations with the decompose strategy
 *   before the gate (the reference guide escalates a stuck loop at once;
 *   in a persistence loop that stops the agent on its third failing try).
 * A regression whose findings are gone at a later iteration is `recovered`.
 *
 * Diagnosis rules (first match):
 * | regression | diagnosis | confidence |
 * |---|---|---|
 * | stuck_loop | cognitive_load | 0.8 |
 * | test_deletion, test_disabled, assertion_removal, assertion_weakening, special_casing, test_config_tamper while the completion command fails | reward_hacking | 0.95 |
 * | the same while it passes | reward_hacking | 0.7 |
 * | validation_bypass | reward_hacking | 0.75 |
 * | expectation_changed | specification_ambiguity | 0.6 |
 * | feature_removal, coverage_regression, test_count_drop | task_complexity | 0.6 |
 * | anything else | task_complexity | 0.4 |
 */
import type { Finding, Severity } from "../analysis/index.js";
import { transition, type LoopState, type RecoveryRecord, type RegressionEvent } from "./state.js";

/** Root causes the diagnosis chooses from (reference guide, "DIAGNOSE"). */
export type Diagnosis = "reward_hacking" | "cognitive_load" | "task_complexity" | "specification_ambiguity";

/** Tuning of the protocol (config `agent_persistence.recovery`). */
export interface RecoverySettings {
  /** Retries per unresolved regression type before the human gate (reference guide: 3). */
  maxRetries: number;
  /** A critical regression goes to the human gate at once (reference guide: true). */
  autoEscalateOnCritical: boolean;
}

/** The reference guide's defaults. */
export const DEFAULT_RECOVERY_SETTINGS: RecoverySettings = { maxRetries: 3, autoEscalateOnCritical: true };

/** A regression found at the end of an iteration, before it becomes an event. */
export interface RegressionFinding {
  regression_type: string;
  severity: Severity;
  details: Record<string, unknown>;
}

const GAMING_TYPES = new Set(["test_deletion", "test_disabled", "assertion_removal", "assertion_weakening", "special_casing", "test_config_tamper"]);
const UNRESOLVED: ReadonlySet<RegressionEvent["recovery_outcome"]> = new Set(["pending", "retrying"]);

/** The root cause of a regression (see the module doc's table). Pure. */
export function diagnose(regression: RegressionFinding, context: { completionPassed: boolean }): { diagnosis: Diagnosis; root_cause: string; confidence: number } {
  const type = regression.regression_type;
  if (type === "stuck_loop") {
    return { diagnosis: "cognitive_load", root_cause: "the same error came back three iterations in a row: the approach is not converging", confidence: 0.8 };
  }
  if (GAMING_TYPES.has(type)) {
    return context.completionPassed
      ? { diagnosis: "reward_hacking", root_cause: `${type} while the completion command passes: the tests were changed instead of (or as well as) the code`, confidence: 0.7 }
      : { diagnosis: "reward_hacking", root_cause: `${type} while the completion command still fails: tests were removed or weakened instead of fixing the code`, confidence: 0.95 };
  }
  if (type === "validation_bypass") return { diagnosis: "reward_hacking", root_cause: "a guard, check or type safety was removed or silenced rather than satisfied", confidence: 0.75 };
  if (type === "expectation_changed") return { diagnosis: "specification_ambiguity", root_cause: "expected values in tests changed while the code under test did not", confidence: 0.6 };
  if (type === "feature_removal" || type === "coverage_regression" || type === "test_count_drop") {
    return { diagnosis: "task_complexity", root_cause: `${type}: working code or its coverage was removed to make progress`, confidence: 0.6 };
  }
  return { diagnosis: "task_complexity", root_cause: `${type} found`, confidence: 0.4 };
}

/** The strategy for a diagnosis and the message the agent gets (facts, not commands). Pure. */
export function adapt(diagnosis: Diagnosis, regression: RegressionFinding): { strategy: string; message: string } {
  const what = describe(regression);
  switch (diagnosis) {
    case "reward_hacking":
      return {
        strategy: "restore_and_fix_code",
        message: `${what}. Removing or weakening tests, checks or validation does not count as progress; ralph compares every iteration with the baseline. The removed parts are in the baseline checkpoint (ralph diff @baseline). The task is met when the original tests pass because the code is right.`,
      };
    case "cognitive_load":
      return {
        strategy: "decompose_task",
        message: `${what}. Repeating the same change has not helped. Splitting the task into smaller steps, re-reading the failing output from its first error, and verifying each step on its own is the way forward.`,
      };
    case "specification_ambiguity":
      return {
        strategy: "request_clarification",
        message: `${what}. The expected behaviour is unclear from the tests alone; the test expectations are the specification unless a person says otherwise.`,
      };
    case "task_complexity":
      return { strategy: "request_simpler_approach", message: `${what}. A smaller change that keeps existing features and coverage is preferred over removing code.` };
  }
}

function describe(regression: RegressionFinding): string {
  const items = Array.isArray(regression.details.findings) ? (regression.details.findings as { message?: unknown }[]) : [];
  const messages = items
    .map((f) => (typeof f.message === "string" ? f.message : ""))
    .filter(Boolean)
    .slice(0, 5);
  return `${regression.regression_type} (${regression.severity})${messages.length ? `: ${messages.join("; ")}` : ""}`;
}

/** What {@link applyRecovery} did. */
export interface RecoveryOutcome {
  events: RegressionEvent[];
  records: RecoveryRecord[];
  /** True when the loop is now paused at the human gate. */
  escalated: boolean;
  /** The text for the agent (retry) or the human (gate): diagnosis, strategy, what to run. */
  message: string;
}

/**
 * Runs PDARE for each regression of `iteration` (mutates `state`): appends
 * a `regression_events` entry (`reg-NNN`) and a `recovery_history` record
 * per regression, counts `recovery_attempts`, and on escalation moves a
 * running loop to `paused` with the gate's reason. `checkpointRef` is the
 * ref that keeps the regressed tree.
 */
export function applyRecovery(
  state: LoopState,
  regressions: readonly RegressionFinding[],
  context: { iteration: number; completionPassed: boolean; checkpointRef: string | null; nowIso: string; stage: "stop" | "iterate" | "tool" },
  settings: RecoverySettings,
): RecoveryOutcome {
  const events: RegressionEvent[] = [];
  const records: RecoveryRecord[] = [];
  const lines: string[] = [];
  let escalated = false;
  for (const regression of regressions) {
    const eventId = `reg-${String(state.regression_events.length + 1).padStart(3, "0")}`;
    const attempt = priorAttempts(state, regression.regression_type) + 1;
    const found = diagnose(regression, context);
    const strategy = adapt(found.diagnosis, regression);
    const critical = regression.severity === "critical" && settings.autoEscalateOnCritical;
    const exhausted = attempt > settings.maxRetries;
    const gate = critical || exhausted;
    const gateReason = critical ? `critical ${regression.regression_type}: escalated at once (auto_escalate_on_critical)` : `retries exhausted (${settings.maxRetries} of ${settings.maxRetries})`;
    const event: RegressionEvent = {
      event_id: eventId,
      timestamp: context.nowIso,
      iteration: context.iteration,
      regression_type: regression.regression_type,
      severity: regression.severity,
      details: regression.details,
      recovery_protocol_invoked: true,
      recovery_outcome: gate ? "escalated" : "retrying",
      human_gate_invoked: gate,
      human_decision: null,
      decided_at: null,
    };
    const record: RecoveryRecord = {
      attempt_id: `rec-${String(state.recovery_history.length + 1).padStart(3, "0")}`,
      event_id: eventId,
      iteration: context.iteration,
      started_at: context.nowIso,
      steps: {
        PAUSE: {
          executed_at: context.nowIso,
          actions: [
            context.checkpointRef ? `kept the regressed tree at ${context.checkpointRef}` : "no checkpoint of the regressed tree",
            context.stage === "stop"
              ? "answered the agent's stop with the diagnosis"
              : context.stage === "tool"
                ? "blocked the tool call (PostToolUse) with the diagnosis"
                : "ended the iteration with the diagnosis",
          ],
          checkpoint_ref: context.checkpointRef,
        },
        DIAGNOSE: { executed_at: context.nowIso, ...found },
        ADAPT: { executed_at: context.nowIso, strategy: gate ? "escalate_to_human_gate" : strategy.strategy, message: strategy.message },
        RETRY: gate ? null : { executed_at: context.nowIso, attempt, max_retries: settings.maxRetries },
        ESCALATE: gate
          ? {
              executed_at: context.nowIso,
              gate_type: "TERMINATE",
              reason: gateReason,
              message: `${eventId}: ${strategy.message} Decide with: ralph approve (keep the change), ralph reject (restore the last good checkpoint), ralph abort (end the loop).`,
            }
          : null,
      },
      outcome: gate ? "escalated" : "retrying",
    };
    state.regression_events.push(event);
    state.recovery_history.push(record);
    state.recovery_attempts += 1;
    events.push(event);
    records.push(record);
    lines.push(
      gate
        ? `${eventId} ${regression.regression_type} (${regression.severity}), diagnosed ${found.diagnosis} (confidence ${found.confidence}): ${gateReason}. ${strategy.message}`
        : `${eventId} ${regression.regression_type} (${regression.severity}), diagnosed ${found.diagnosis} (confidence ${found.confidence}); retry ${attempt} of ${settings.maxRetries}. ${strategy.message}`,
    );
    escalated ||= gate;
  }
  if (regressions.length > 0) state.recovery_in_progress = true;
  if (escalated && state.status === "running") {
    const ids = events
      .filter((e) => e.human_gate_invoked)
      .map((e) => e.event_id)
      .join(", ");
    transition(state, "paused", `awaiting a human decision on ${ids}: ralph approve | reject | abort`, context.nowIso);
  }
  const gateHelp = escalated ? "\nThe loop is paused for a human: ralph approve | ralph reject | ralph abort." : "";
  return { events, records, escalated, message: lines.join("\n") + gateHelp };
}

/**
 * Earlier regressions of `type` since a human last decided one of that
 * type (any outcome: a regression the hook reverted still counts as an
 * attempt), i.e. the retries already spent on it.
 */
export function priorAttempts(state: LoopState, type: string): number {
  const sameType = state.regression_events.filter((e) => e.regression_type === type);
  let lastDecision = -1;
  sameType.forEach((e, i) => {
    if (e.human_decision !== null) lastDecision = i;
  });
  return sameType.length - lastDecision - 1;
}

/**
 * Marks unresolved regressions `recovered` when their type is no longer
 * among `openTypes` (the unallowed findings against the baseline now);
 * clears `recovery_in_progress` when none is left. Mutates `state`.
 * @returns the event ids that recovered.
 */
export function markRecovered(state: LoopState, openTypes: ReadonlySet<string>, stuckNow: boolean): string[] {
  const recovered: string[] = [];
  for (const event of state.regression_events) {
    if (!UNRESOLVED.has(event.recovery_outcome)) continue;
    const stillOpen = event.regression_type === "stuck_loop" ? stuckNow : openTypes.has(event.regression_type);
    if (stillOpen) continue;
    event.recovery_outcome = "recovered";
    recovered.push(event.event_id);
    for (const record of state.recovery_history) if (record.event_id === event.event_id && record.outcome === "retrying") record.outcome = "recovered";
  }
  refreshRecoveryInProgress(state);
  return recovered;
}

/** Regression events waiting for a human decision (escalated, not yet decided). */
export function pendingGateEvents(state: LoopState): RegressionEvent[] {
  return state.regression_events.filter((e) => e.recovery_outcome === "escalated" && e.human_decision === null);
}

/** Marks the given events (and their recovery records) `recovered`: a hook restored the change at once. Mutates `state`. */
export function markEventsRecovered(state: LoopState, eventIds: readonly string[]): void {
  const ids = new Set(eventIds);
  for (const e of state.regression_events) if (ids.has(e.event_id)) e.recovery_outcome = "recovered";
  for (const r of state.recovery_history) if (ids.has(r.event_id)) r.outcome = "recovered";
  refreshRecoveryInProgress(state);
}

/**
 * The human gate's text when the loop waits for a decision (paused with
 * escalated regressions undecided), else null: which regressions, their
 * escalation messages, and the three commands.
 */
export function describeGate(state: LoopState): string | null {
  if (state.status !== "paused") return null;
  const pending = pendingGateEvents(state);
  if (pending.length === 0) return null;
  const lines = [`loop ${state.loop_id} is paused for a human decision on ${pending.map((e) => `${e.event_id} (${e.regression_type}, ${e.severity})`).join(", ")}.`];
  for (const e of pending) {
    const record = state.recovery_history.find((r) => r.event_id === e.event_id);
    if (record?.steps.ESCALATE) lines.push(record.steps.ESCALATE.message);
  }
  lines.push("Decide with: ralph approve (keep the change) | ralph reject (restore the last good checkpoint) | ralph abort (end the loop).");
  return lines.join("\n");
}

/** Sets `recovery_in_progress` from the events: true while any is retrying, pending or waiting at the gate. Mutates `state`. */
export function refreshRecoveryInProgress(state: LoopState): void {
  state.recovery_in_progress = state.regression_events.some((e) => UNRESOLVED.has(e.recovery_outcome) || (e.recovery_outcome === "escalated" && e.human_decision === null));
}

const SEVERITY_RANK = { critical: 0, high: 1, medium: 2, low: 3 } as const;

/**
 * Groups findings into one {@link RegressionFinding} per finding type, with
 * the worst severity of the group and `details` of `context` plus the
 * group's count and its first 20 findings (type, severity, file, line, test, message).
 */
export function regressionsByType(findings: readonly Pick<Finding, "type" | "severity" | "file" | "line" | "test" | "message">[], context: Record<string, unknown>): RegressionFinding[] {
  const byType = new Map<string, (typeof findings)[number][]>();
  for (const f of findings) byType.set(f.type, [...(byType.get(f.type) ?? []), f]);
  return [...byType].map(([type, list]) => ({
    regression_type: type,
    severity: list.reduce<Severity>((worst, f) => (SEVERITY_RANK[f.severity] < SEVERITY_RANK[worst] ? f.severity : worst), list[0]?.severity ?? "high"),
    details: {
      ...context,
      count: list.length,
      findings: list.slice(0, 20).map((f) => ({ type: f.type, severity: f.severity, file: f.file, line: f.line ?? null, test: f.test ?? null, message: f.message })),
    },
  }));
}
