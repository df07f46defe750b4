/**
 * Loop state: `.aiwg/ralph/loops/<loop_id>/state.json` (DESIGN.md "Loop
 * engine"; the loop-state v2 fields of reference/agent-persistence-integration.txt,
 * "State Extension Schema Integration", plus the counters the Stop hook
 * needs). Validated with zod/mini: the Stop hook is a fresh process, and
 * zod/mini loads in a fraction of classic zod's time.
 *
 * Every object is a loose object: fields this version does not know (issue
 * 5's persistence extension: `baseline_metrics`, `iteration_history`, …)
 * are kept through a read-modify-write. Every field but `loop_id` has a
 * default, so a state written by an older version, or by hand with only the
 * reference guide's fields, still loads.
 *
 * Writes are atomic (temp file, fsync, rename, fsync of the folder) and
 * made under a lock file per loop (`state.lock`, src/store/lock.ts); before
 * each write the previous valid content is kept as `state.json.bak`. A
 * state file that is not valid JSON or fails the schema is reported with its
 * path (E_BAD_STATE, a user-fixable error: exit 2) and left untouched.
 */
import { randomBytes } from "node:crypto";
import { closeSync, copyFileSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import * as z from "zod/mini";
import { isErrno, RalphError } from "../errors.js";
import { withLock } from "../store/lock.js";
import { isLoopId, parseLoopId, type LoopId } from "../store/loop-id.js";
import { activeCopyPath, keepCopy, ralphDirOfWorkTree, stateCopyPath } from "./guard-copy.js";
import { REINFORCEMENT_LEVELS } from "./reinforcement.js";

/** The state format this version writes. */
export const STATE_VERSION = "2.0.0";

/** Loop statuses (reference guide, loop-state v2). */
export const LOOP_STATUSES = ["running", "paused", "completing", "completed", "failed", "aborted", "crashed"] as const;
/** A loop status. */
export type LoopStatus = (typeof LOOP_STATUSES)[number];

/**
 * The legal status transitions, from -> allowed targets. `completing` is the
 * span of one completion check (the Stop hook or `ralph iterate`); a check
 * that fails returns the loop to `running`. `crashed` and `paused` loops
 * resume to `running` (`ralph start`). `completed`, `failed` and `aborted`
 * are terminal: a new loop is started instead.
 */
export const STATUS_TRANSITIONS: Readonly<Record<LoopStatus, readonly LoopStatus[]>> = {
  running: ["paused", "completing", "completed", "failed", "aborted", "crashed"],
  paused: ["running", "failed", "aborted", "crashed"],
  completing: ["running", "completed", "failed", "aborted", "crashed"],
  crashed: ["running", "failed", "aborted"],
  completed: [],
  failed: [],
  aborted: [],
};

/** Statuses after which nothing more happens to a loop. */
export const TERMINAL_STATUSES: readonly LoopStatus[] = ["completed", "failed", "aborted"];

/** True when a loop may go from `from` to `to` (see {@link STATUS_TRANSITIONS}). A status never "transitions" to itself. */
export function canTransition(from: LoopStatus, to: LoopStatus): boolean {
  return STATUS_TRANSITIONS[from].includes(to);
}

/** True for completed, failed and aborted. */
export function isTerminal(status: LoopStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * Moves `state` to `to` (mutates it) and records why.
 * @throws RalphError E_USAGE naming both statuses when the transition is not in {@link STATUS_TRANSITIONS}.
 */
export function transition(state: LoopState, to: LoopStatus, reason: string, nowIso: string): void {
  if (!canTransition(state.status, to)) {
    throw new RalphError("E_USAGE", `loop ${state.loop_id} is ${state.status}; it cannot become ${to}`, {
      data: { loop: state.loop_id, from: state.status, to },
    });
  }
  state.status = to;
  state.status_reason = reason;
  state.last_updated = nowIso;
  if (isTerminal(to)) state.completed_at = nowIso;
}

const count = z.int().check(z.gte(0));
const isoTime = z.string().check(z.minLength(1));

/** One run of the completion command, as recorded in `progress.completion_checks`. */
export const CompletionCheckSchema = z.looseObject({
  /** The iteration the check ended (1-based). */
  iteration: count,
  passed: z.boolean(),
  /** Exit code, or null when killed by a signal or on timeout. */
  exit_code: z._default(z.nullable(z.int()), null),
  timed_out: z._default(z.boolean(), false),
  duration_ms: z._default(z.number(), 0),
  checked_at: isoTime,
  /** Tree and checkpoint commit the check ran on (git oids), when a checkpoint was written. */
  tree_oid: z._default(z.nullable(z.string()), null),
  checkpoint_oid: z._default(z.nullable(z.string()), null),
  /** The last lines of the command's output (at most {@link CHECK_TAIL_IN_STATE_CHARS} characters). */
  output_tail: z._default(z.string(), ""),
});
/** A recorded completion check. */
export type CompletionCheck = z.output<typeof CompletionCheckSchema>;

/** Output kept per check in state.json, in characters (the full tail goes to `iterations/NNNN.json`). */
export const CHECK_TAIL_IN_STATE_CHARS = 1_000;

/** Defaults of `configuration`. */
export const DEFAULT_CONFIGURATION = {
  /** Stop-hook blocks before the loop gives up (issue 4: `--max-iterations`, default 20). */
  max_iterations: 20,
  /** Wall-clock limit of the loop in minutes, from `started_at`; null: none. */
  timeout_minutes: null as number | null,
  /** Limit of one completion check, in ms: shorter than the Stop hook's own timeout. */
  completion_timeout_ms: 60_000,
  /** At max_iterations, extend by 10 (up to {@link HARD_MAX_ITERATIONS}) instead of stopping. */
  auto_extend: false,
};

/** The hard cap that auto-extension never passes (persistent-loop-stop-hook: strict-mode cap 200). */
export const HARD_MAX_ITERATIONS = 200;

const ConfigurationSchema = z.looseObject({
  max_iterations: z._default(z.int().check(z.gte(1), z.lte(HARD_MAX_ITERATIONS)), DEFAULT_CONFIGURATION.max_iterations),
  timeout_minutes: z._default(z.nullable(z.number().check(z.gt(0))), DEFAULT_CONFIGURATION.timeout_minutes),
  completion_timeout_ms: z._default(z.int().check(z.gte(100)), DEFAULT_CONFIGURATION.completion_timeout_ms),
  auto_extend: z._default(z.boolean(), DEFAULT_CONFIGURATION.auto_extend),
});

const ReinforcementLevelSchema = z.enum(REINFORCEMENT_LEVELS);

const percent = z.number().check(z.gte(0), z.lte(100));
const nullableNumber = z._default(z.nullable(z.number()), null);

/**
 * Metrics of one tree (reference guide, "Loop Initialization Flow": the
 * baseline's test_count, coverage_percentage, typescript_errors,
 * lint_errors). null: not measured (no command configured, or it failed:
 * see `errors`). `test_count` comes from ralph's own analysis (no test run).
 */
export const MetricsSnapshotSchema = z.looseObject({
  /** When the metrics were taken (ISO-8601). */
  captured_at: z._default(isoTime, "1970-01-01T00:00:00.000Z"),
  test_count: nullableNumber,
  /** Assertions in the tests ralph counted. */
  assertion_count: nullableNumber,
  /** Line coverage, percent 0-100. */
  coverage_percentage: nullableNumber,
  typescript_errors: nullableNumber,
  lint_errors: nullableNumber,
  /** Why a configured metric is null: metric name -> one line. */
  errors: z._default(z.record(z.string(), z.string()), () => ({})),
});
/** Metrics of one tree. */
export type MetricsSnapshot = z.output<typeof MetricsSnapshotSchema>;

/** One component of the default quality score: points earned of `weight` (after redistribution), and whether it was measured. */
export const QualityComponentSchema = z.looseObject({
  weight: z.number(),
  earned: z.number(),
  measured: z.boolean(),
  detail: z._default(z.string(), ""),
});

/** Where an iteration's quality score came from: ralph's formula, or the loop's `--quality` command. */
export const QUALITY_SOURCES = ["default", "command"] as const;

/**
 * One ended iteration (reference guide, "Post-Iteration Flow" and
 * "State Extension Schema Integration": `iteration_history[]`).
 * `snapshot_path` is the iteration's checkpoint ref
 * (`refs/ralph/<loop>/iterations/NNNN`), `artifacts[].hash` a blob oid.
 */
export const IterationRecordSchema = z.looseObject({
  iteration: z.int().check(z.gte(1)),
  started_at: z._default(z.nullable(isoTime), null),
  ended_at: z._default(isoTime, "1970-01-01T00:00:00.000Z"),
  /** Wall-clock length of the iteration (previous end to this end), ms; null for the first when unknown. */
  duration_ms: nullableNumber,
  snapshot_path: z._default(z.string(), ""),
  checkpoint_oid: z._default(z.nullable(z.string()), null),
  tree_oid: z._default(z.nullable(z.string()), null),
  /** 0-100. */
  quality_score: percent,
  /** Points against the previous iteration (null for the first). */
  quality_delta: nullableNumber,
  quality_source: z._default(z.enum(QUALITY_SOURCES), "default"),
  /** component name -> points (default formula: completion, findings, tests, coverage). */
  quality_breakdown: z._default(z.record(z.string(), QualityComponentSchema), () => ({})),
  metrics_snapshot: z._default(MetricsSnapshotSchema, () => MetricsSnapshotSchema.parse({})),
  /** "passed" when the completion command passed on this tree. */
  verification_status: z._default(z.enum(["passed", "failed", "unknown"]), "unknown"),
  regression_detected: z._default(z.boolean(), false),
  /** Unallowed findings against the baseline, by verdict, and their types. */
  findings: z._default(z.looseObject({ block: z._default(count, 0), warn: z._default(count, 0), types: z._default(z.array(z.string()), () => []) }), () => ({ block: 0, warn: 0, types: [] })),
  /** The completion failure's normalised text (numbers, paths, hex stripped), for stuck-loop detection; null when it passed. */
  error_signature: z._default(z.nullable(z.string()), null),
  /** Files changed in this iteration (against the previous iteration), with their blob oids (null: deleted). */
  artifacts: z._default(z.array(z.looseObject({ path: z._default(z.string(), ""), hash: z._default(z.nullable(z.string()), null) })), () => []),
  /** Usage the transcript reported for this iteration, when the Stop hook had one. */
  tokens: nullableNumber,
  cost_usd: nullableNumber,
});
/** One ended iteration. */
export type IterationRecord = z.output<typeof IterationRecordSchema>;

/** The best iteration so far (reference guide "best_iteration"). `snapshot_path` is a ref name. */
export const BestIterationSchema = z.looseObject({
  iteration: z.int().check(z.gte(1)),
  quality_score: percent,
  snapshot_path: z._default(z.string(), ""),
  checkpoint_oid: z._default(z.nullable(z.string()), null),
  selection_reason: z._default(z.string(), ""),
  verified: z._default(z.boolean(), false),
});
/** The best iteration so far. */
export type BestIteration = z.output<typeof BestIterationSchema>;

/** What became of a regression. */
export const RECOVERY_OUTCOMES = ["pending", "retrying", "recovered", "escalated", "approved", "rejected", "aborted", "retries_exhausted"] as const;
/** A human's answer at the gate (`ralph approve | reject | abort`). */
export const HUMAN_DECISIONS = ["approve", "reject", "abort"] as const;
/** Finding severities (DESIGN.md "Analysis"). */
export const SEVERITIES = ["critical", "high", "medium", "low"] as const;

/** One regression (reference guide, "Regression Detection Flow": `regression_record`). */
export const RegressionEventSchema = z.looseObject({
  /** `reg-001`, `reg-002`, … in order. */
  event_id: z.string(),
  timestamp: z._default(isoTime, "1970-01-01T00:00:00.000Z"),
  iteration: count,
  /** A finding type (test_deletion, …) or a loop pattern (stuck_loop, test_count_drop). */
  regression_type: z.string(),
  severity: z.enum(SEVERITIES),
  details: z._default(z.record(z.string(), z.unknown()), () => ({})),
  recovery_protocol_invoked: z._default(z.boolean(), false),
  recovery_outcome: z._default(z.enum(RECOVERY_OUTCOMES), "pending"),
  human_gate_invoked: z._default(z.boolean(), false),
  human_decision: z._default(z.nullable(z.enum(HUMAN_DECISIONS)), null),
  decided_at: z._default(z.nullable(isoTime), null),
});
/** One regression. */
export type RegressionEvent = z.output<typeof RegressionEventSchema>;

/** A reinforcement level change (reference guide, Example 1). */
export const ReinforcementChangeSchema = z.looseObject({
  timestamp: isoTime,
  iteration: count,
  from_level: ReinforcementLevelSchema,
  to_level: ReinforcementLevelSchema,
  reason: z.string(),
});

const stepTime = z.looseObject({ executed_at: isoTime });
/** One run of the recovery protocol (PDARE: Pause, Diagnose, Adapt, Retry, Escalate), reference guide "Regression Detection Flow". */
export const RecoveryRecordSchema = z.looseObject({
  attempt_id: z.string(),
  event_id: z.string(),
  iteration: count,
  started_at: isoTime,
  steps: z.looseObject({
    /** The pause: the checkpoint that keeps the regressed tree, and what was stopped. */
    PAUSE: z.extend(stepTime, { actions: z.array(z.string()), checkpoint_ref: z._default(z.nullable(z.string()), null) }),
    DIAGNOSE: z.extend(stepTime, { diagnosis: z.string(), root_cause: z.string(), confidence: z.number().check(z.gte(0), z.lte(1)) }),
    ADAPT: z.extend(stepTime, { strategy: z.string(), message: z.string() }),
    RETRY: z._default(z.nullable(z.extend(stepTime, { attempt: count, max_retries: count })), null),
    ESCALATE: z._default(z.nullable(z.extend(stepTime, { gate_type: z.string(), reason: z.string(), message: z.string() })), null),
  }),
  outcome: z.enum(RECOVERY_OUTCOMES),
});
/** One run of the recovery protocol. */
export type RecoveryRecord = z.output<typeof RecoveryRecordSchema>;

/** Detection and overhead figures (reference guide, "Performance Targets"); null until measured. */
export const PersistenceMetricsSchema = z.looseObject({
  detection_latency_p95_ms: nullableNumber,
  detection_latency_p99_ms: nullableNumber,
  /** Hook and analysis time as a percentage (0-100) of the loop's wall-clock time. */
  integration_overhead_percentage: nullableNumber,
  /** Regressions a human approved (overrode) as a percentage (0-100) of the regressions decided. */
  false_positive_rate: nullableNumber,
});

/** How a loop's owner session was bound (see {@link LoopStateSchema}). */
export const OWNER_SOURCES = ["start", "bash", "prompt", "stop"] as const;
/** One of {@link OWNER_SOURCES}. */
export type OwnerSource = (typeof OWNER_SOURCES)[number];

/**
 * The state of one loop. Reference-guide fields keep their snake_case names;
 * ralph's own: `owner_session_id` (the agent session whose Stop hook drives
 * the loop; null until one is bound), `owner_source` (how it was bound:
 * `start` for `ralph start --session`, `bash` for a `ralph start` the
 * agent ran through its Bash tool, `prompt` for the next prompt submitted
 * in the project, `stop` for the first session to stop, the fallback),
 * `blocks` (consecutive Stop blocks), `chain_blocks` (blocks within the
 * current `stop_hook_active` chain of Claude Code: reset when a stop
 * arrives with it false), `last_block_tree_oids` (tree oids of the last blocks,
 * newest last, at most 3), `cancel_requested_at`, `status_reason`.
 */
export const LoopStateSchema = z.looseObject({
  version: z._default(z.string(), STATE_VERSION),
  loop_id: z.string().check(z.refine(isLoopId, "not a valid loop id")),
  status: z._default(z.enum(LOOP_STATUSES), "running"),
  /** Iterations ended so far (the next one is iteration + 1). */
  iteration: z._default(count, 0),
  task: z._default(z.string(), ""),
  /** The completion command: the loop is done when it exits 0. */
  completion_criteria: z._default(z.string(), ""),
  started_at: z._default(isoTime, "1970-01-01T00:00:00.000Z"),
  last_updated: z._default(isoTime, "1970-01-01T00:00:00.000Z"),
  completed_at: z._default(z.nullable(isoTime), null),
  configuration: z._default(ConfigurationSchema, () => ({ ...DEFAULT_CONFIGURATION })),
  progress: z._default(z.looseObject({ completion_checks: z._default(z.array(CompletionCheckSchema), () => []) }), () => ({ completion_checks: [] })),
  metrics: z._default(z.record(z.string(), z.unknown()), () => ({})),
  owner_session_id: z._default(z.nullable(z.string()), null),
  owner_source: z._default(z.nullable(z.enum(OWNER_SOURCES)), null),
  blocks: z._default(count, 0),
  chain_blocks: z._default(count, 0),
  last_block_tree_oids: z._default(z.array(z.string()), () => []),
  cancel_requested_at: z._default(z.nullable(isoTime), null),
  status_reason: z._default(z.nullable(z.string()), null),
  // The persistence extension (reference guide, "State Extension Schema Integration").
  baseline_metrics: z._default(z.nullable(MetricsSnapshotSchema), null),
  /** The loop's own quality command (`ralph start --quality`): its last output line is the score 0-100. */
  quality_command: z._default(z.nullable(z.string()), null),
  detection_enabled: z._default(z.boolean(), true),
  iteration_history: z._default(z.array(IterationRecordSchema), () => []),
  best_iteration: z._default(z.nullable(BestIterationSchema), null),
  /** The iteration `ralph select --best` restored, or null. */
  selected_iteration: z._default(z.nullable(z.int()), null),
  regression_events: z._default(z.array(RegressionEventSchema), () => []),
  reinforcement_level: z._default(ReinforcementLevelSchema, "MINIMAL"),
  reinforcement_history: z._default(z.array(ReinforcementChangeSchema), () => []),
  recovery_attempts: z._default(count, 0),
  recovery_history: z._default(z.array(RecoveryRecordSchema), () => []),
  recovery_in_progress: z._default(z.boolean(), false),
  stuck_loop_detected: z._default(z.boolean(), false),
  /** Iterations whose quality moved less than the plateau threshold, in a row (3 triggers AGGRESSIVE). */
  plateau_detected: z._default(z.boolean(), false),
  persistence_metrics: z._default(PersistenceMetricsSchema, () => PersistenceMetricsSchema.parse({})),
  completion_report_path: z._default(z.nullable(z.string()), null),
  /**
   * Allow rules the loop's judgements use beyond `Ralph-Allow` trailers:
   * `ralph approve` adds one per approved finding's type and file (same
   * meaning as the trailer, src/loop/check.ts).
   */
  allow_rules: z._default(z.array(z.looseObject({ type: z.string(), reason: z.string(), path: z.optional(z.string()) })), () => []),
});
/** A loop's state (output of {@link LoopStateSchema}: defaults applied). */
export type LoopState = z.output<typeof LoopStateSchema>;

/**
 * Maps a pre-2.0 state (the persistent-loop-stop-hook guide's `ralph.json`:
 * `active`, `max_iterations`, `created_at`, `last_checked_at`,
 * `session_id`) onto v2 names; a v2 object passes unchanged.
 */
export function migrateLegacyState(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const r = { ...(raw as Record<string, unknown>) };
  if (typeof r.version === "string" && r.version.startsWith("2.")) return r;
  if (r.configuration === undefined && typeof r.max_iterations === "number") r.configuration = { max_iterations: r.max_iterations };
  if (r.started_at === undefined && typeof r.created_at === "string") r.started_at = r.created_at;
  if (r.last_updated === undefined && typeof r.last_checked_at === "string") r.last_updated = r.last_checked_at;
  if (r.status === undefined && typeof r.active === "boolean") r.status = r.active ? "running" : "aborted";
  if (r.owner_session_id === undefined && typeof r.session_id === "string" && r.session_id !== "") r.owner_session_id = r.session_id;
  for (const key of ["max_iterations", "created_at", "last_checked_at", "active", "session_id"]) delete r[key];
  r.version = STATE_VERSION;
  return r;
}

/** Paths of ralph's loop state under a work tree. */
export interface StatePaths {
  /** `<workTree>/.aiwg/ralph` */
  root: string;
  /** `<root>/active`: holds the active loop's id. */
  active: string;
  /** `<root>/loops` */
  loops: string;
}

/** The state folder layout of the repository whose work tree is `workTree`. */
export function statePaths(workTree: string): StatePaths {
  const root = join(workTree, ".aiwg", "ralph");
  return { root, active: join(root, "active"), loops: join(root, "loops") };
}

/** `<workTree>/.aiwg/ralph/loops/<loop>`: the loop id is validated by its type. */
export function loopDir(workTree: string, loop: LoopId): string {
  return join(statePaths(workTree).loops, loop);
}

/** `…/loops/<loop>/state.json` */
export function stateFilePath(workTree: string, loop: LoopId): string {
  return join(loopDir(workTree, loop), "state.json");
}

/** `…/loops/<loop>/state.lock`: the lock every state update holds. */
export function stateLockPath(workTree: string, loop: LoopId): string {
  return join(loopDir(workTree, loop), "state.lock");
}

/** Creates `.aiwg/ralph/` with a `.gitignore` of `*`, so the folder never shows in `git status`. */
export function ensureStateRoot(workTree: string): StatePaths {
  const paths = statePaths(workTree);
  mkdirSync(paths.loops, { recursive: true });
  const ignore = join(paths.root, ".gitignore");
  try {
    if (readFileSync(ignore, "utf8") === "*\n") return paths;
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw error;
  }
  writeFileAtomic(ignore, "*\n");
  return paths;
}

/**
 * Writes `content` to `path` atomically: a temp file beside it, fsync,
 * rename over `path`, fsync of the folder. A reader (or a kill -9 at any
 * moment) sees the old content or the new, never a mix.
 */
export function writeFileAtomic(path: string, content: string, options: { durable?: boolean } = {}): void {
  const durable = options.durable ?? true;
  mkdirSync(dirname(path), { recursive: true });
  const temp = tempPathFor(path);
  const fd = openSync(temp, "w", 0o644);
  try {
    const buffer = Buffer.from(content, "utf8");
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      /* already gone */
    }
    throw error;
  }
  if (durable) fsyncFolder(dirname(path));
}

function tempPathFor(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
}

/** Removes temp files (`<name>.<pid>.<hex>.tmp`) left in `dir` by processes that died mid-write. */
function removeOrphanTemps(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /\.(\d+)\.[0-9a-f]{8}\.tmp$/.exec(name);
    if (!m || isProcessAlive(Number(m[1]))) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      /* gone already */
    }
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* already gone */
  }
}

function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return !isErrno(error, "ESRCH");
  }
}

function fsyncFolder(dir: string): void {
  try {
    const dirFd = openSync(dir, "r");
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  } catch {
    /* some filesystems refuse fsync on a folder; the rename is still atomic */
  }
}

/**
 * Parses state text.
 * @throws RalphError E_BAD_STATE (exit 2: the user restores the backup) naming `path` and the backup.
 */
export function parseStateText(text: string, path: string): LoopState {
  const fail = (why: string): never => {
    throw new RalphError("E_BAD_STATE", `loop state ${path} is corrupt (${why}); the last good copy is ${path}.bak: restore it or remove the folder`, {
      data: { path, backup: `${path}.bak` },
    });
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return fail(`not JSON: ${(error as Error).message.split("\n")[0]}`);
  }
  const result = LoopStateSchema.safeParse(migrateLegacyState(raw));
  if (!result.success) {
    const issue = result.error.issues[0];
    return fail(`${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
  }
  return result.data;
}

/**
 * Reads a loop's state; null when the loop has no state file.
 * @throws RalphError E_BAD_STATE for a file that is not valid state.
 */
export function readState(workTree: string, loop: LoopId): LoopState | null {
  const path = stateFilePath(workTree, loop);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return null;
    throw new RalphError("E_UNREADABLE", `cannot read ${path}: ${(error as Error).message}`, { data: { path }, cause: error });
  }
  return parseStateText(text, path);
}

/** Serialises a state as written to disk: the current version, two-space JSON, a final newline. */
export function serializeState(state: LoopState): string {
  return `${JSON.stringify({ ...state, version: STATE_VERSION }, null, 2)}\n`;
}

/**
 * Writes a state (atomically), keeping the previous file as
 * `state.json.bak` when `hasValidPrevious` (the caller parsed it): the old
 * file is hard-linked to the backup name, so keeping it costs no copy and
 * no fsync. Call under the loop's lock ({@link updateState} does).
 */
export function writeState(workTree: string, state: LoopState, hasValidPrevious = false): void {
  const path = stateFilePath(workTree, parseLoopId(state.loop_id));
  if (hasValidPrevious) {
    const temp = tempPathFor(`${path}.bak`);
    try {
      linkSync(path, temp);
      renameSync(temp, `${path}.bak`);
      // rename(2) does nothing when both names already link the same file (a writer killed after
      // its backup and before its write): the temp name is then still there.
      unlinkQuietly(temp);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        /* not created */
      }
      if (!isErrno(error, "ENOENT", "EPERM", "EXDEV", "ENOTSUP", "EOPNOTSUPP")) throw error;
      copyFileSync(path, `${path}.bak`); // a filesystem without hard links
    }
  }
  const text = serializeState(state);
  writeFileAtomic(path, text);
  keepGuardCopy(workTree, (ralphDir) => stateCopyPath(ralphDir, parseLoopId(state.loop_id)), text);
}

/** Keeps ralph's copy of a state file or the active mark under the git dir (src/loop/guard-copy.ts); nothing outside a repository. */
function keepGuardCopy(workTree: string, pathIn: (ralphDir: string) => string, content: string): void {
  const ralphDir = ralphDirOfWorkTree(workTree);
  if (ralphDir) keepCopy(pathIn(ralphDir), content, (path, text) => writeFileAtomic(path, text, { durable: false }));
}

/** Options of {@link updateState} and {@link createState}. */
export interface StateLockOptions {
  /** How long to wait for the loop's lock, in ms (default: the store's lock default). */
  lockTimeoutMs?: number;
}

/**
 * Read-modify-write of a loop's state under its lock: `fn` receives the
 * current state (a copy it may mutate) and returns a result; the state is
 * written when `fn` returns without throwing and `changed` is not false.
 * @throws RalphError E_UNKNOWN_LOOP when the loop has no state; E_BAD_STATE; E_LOCKED; whatever `fn` throws.
 */
export function updateState<T>(workTree: string, loop: LoopId, fn: (state: LoopState) => { result: T; changed?: boolean }, options: StateLockOptions = {}): { state: LoopState; result: T } {
  return withLock(
    stateLockPath(workTree, loop),
    () => {
      const path = stateFilePath(workTree, loop);
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch (error) {
        if (isErrno(error, "ENOENT")) throw new RalphError("E_UNKNOWN_LOOP", `loop ${loop} has no state (${path}); start it with 'ralph start'`, { data: { loop, path } });
        throw error;
      }
      const state = parseStateText(text, path);
      removeOrphanTemps(dirname(path));
      const { result, changed } = fn(state);
      if (changed !== false) writeState(workTree, state, true);
      return { state, result };
    },
    options.lockTimeoutMs === undefined ? {} : { timeoutMs: options.lockTimeoutMs },
  );
}

/**
 * Writes a new loop's state (under its lock). Refuses to overwrite an
 * existing, valid state.
 * @throws RalphError E_USAGE when the loop already has a state; E_LOCKED.
 */
export function createState(workTree: string, state: LoopState, options: StateLockOptions = {}): void {
  const loop = parseLoopId(state.loop_id);
  ensureStateRoot(workTree);
  withLock(
    stateLockPath(workTree, loop),
    () => {
      const path = stateFilePath(workTree, loop);
      let previous: string | null = null;
      try {
        previous = readFileSync(path, "utf8");
      } catch (error) {
        if (!isErrno(error, "ENOENT")) throw error;
      }
      if (previous !== null) {
        throw new RalphError("E_USAGE", `loop ${loop} already exists (${path}); choose another --id`, { data: { loop, path } });
      }
      writeState(workTree, state, false);
    },
    options.lockTimeoutMs === undefined ? {} : { timeoutMs: options.lockTimeoutMs },
  );
}

/** A fresh v2 state with every default applied. */
export function newState(fields: { loop_id: LoopId; task: string; completion_criteria: string; nowIso: string; configuration?: Partial<typeof DEFAULT_CONFIGURATION> }): LoopState {
  return LoopStateSchema.parse({
    version: STATE_VERSION,
    loop_id: fields.loop_id,
    status: "running",
    iteration: 0,
    task: fields.task,
    completion_criteria: fields.completion_criteria,
    started_at: fields.nowIso,
    last_updated: fields.nowIso,
    configuration: { ...DEFAULT_CONFIGURATION, ...fields.configuration },
  });
}

/** The active loop's id (from `.aiwg/ralph/active`), or null when none is marked or the mark is not a valid id. */
export function readActiveLoop(workTree: string): LoopId | null {
  let text: string;
  try {
    text = readFileSync(statePaths(workTree).active, "utf8").trim();
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return null;
    throw error;
  }
  return isLoopId(text) ? (text as LoopId) : null;
}

/** Marks `loop` as the repository's active loop (atomic write of `.aiwg/ralph/active`). */
export function setActiveLoop(workTree: string, loop: LoopId): void {
  ensureStateRoot(workTree);
  writeFileAtomic(statePaths(workTree).active, `${loop}\n`);
  keepGuardCopy(workTree, activeCopyPath, `${loop}\n`);
}

/** Removes the active mark when it names `loop` (another loop's mark is left alone). */
export function clearActiveLoop(workTree: string, loop: LoopId): void {
  const path = statePaths(workTree).active;
  if (readActiveLoop(workTree) !== loop) return;
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw error;
  }
  keepGuardCopy(workTree, activeCopyPath, "");
}

/** Ids of every loop with a state folder, unsorted; folders that are not loop ids are skipped. */
export function listLoopIds(workTree: string): LoopId[] {
  try {
    return readdirSync(statePaths(workTree).loops).filter(isLoopId) as LoopId[];
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
    throw error;
  }
}

/** Writes a JSON document beside the state (e.g. `iterations/0003.json`) atomically; not fsynced (a record, not the state). */
export function writeLoopDocument(workTree: string, loop: LoopId, relativePath: string, value: unknown): string {
  const path = join(loopDir(workTree, loop), relativePath);
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, { durable: false });
  return path;
}
