/**
 * Progress rules of the loop engine, pure functions on the loop state
 * (reference guide, "Post-Iteration Flow", "Stuck Loop Detection Flow",
 * "Best Output Selection Algorithm", "Pre-Iteration Flow"):
 * - the iteration record appended with its quality delta;
 * - the best iteration: quality at or above the threshold (70), verified
 *   (completion passed) first, highest score, earliest on a tie;
 * - plateau: the last 3 deltas each smaller than the threshold (5 points
 *   on the 0-100 scale, `quality_plateau_threshold` 0.05 x 100);
 * - stuck loop: the same normalised error in the last 3 iterations
 *   (`stuck_loop_detected` says whether the loop is stuck now);
 * - the reinforcement level: thresholds by iteration (3 STANDARD, 5
 *   AGGRESSIVE), AGGRESSIVE on a plateau or a stuck loop; every change
 *   recorded in `reinforcement_history`.
 */
import type { ReinforcementLevel } from "./reinforcement.js";
import type { BestIteration, IterationRecord, LoopState } from "./state.js";

/** Quality at or above which an iteration may be selected as best, percent 0-100 (reference guide: 70). */
export const DEFAULT_QUALITY_THRESHOLD = 70;
/** A plateau is this many deltas in a row under the threshold. */
export const PLATEAU_WINDOW = 3;
/** Quality delta under which an iteration counts towards a plateau, as a fraction of the 0-100 scale (reference guide: 0.05). */
export const DEFAULT_PLATEAU_THRESHOLD = 0.05;
/** The same error this many iterations in a row is a stuck loop. */
export const STUCK_WINDOW = 3;

/** Iteration thresholds of the reinforcement level (reference guide: iteration_3 STANDARD, iteration_5 AGGRESSIVE). */
export const DEFAULT_ESCALATION_THRESHOLDS: ReadonlyArray<{ iteration: number; level: ReinforcementLevel }> = [
  { iteration: 3, level: "STANDARD" },
  { iteration: 5, level: "AGGRESSIVE" },
];

/** What the progress rules are tuned by (config `agent_persistence.reinforcement` and `best_output_selection`). */
export interface ProgressSettings {
  qualityThreshold: number;
  requireVerification: boolean;
  /** Fraction 0-1 of the 0-100 scale. */
  plateauThreshold: number;
  defaultLevel: ReinforcementLevel;
  escalationThresholds: ReadonlyArray<{ iteration: number; level: ReinforcementLevel }>;
}

/** The reference guide's defaults. */
export const DEFAULT_PROGRESS_SETTINGS: ProgressSettings = {
  qualityThreshold: DEFAULT_QUALITY_THRESHOLD,
  requireVerification: false,
  plateauThreshold: DEFAULT_PLATEAU_THRESHOLD,
  defaultLevel: "MINIMAL",
  escalationThresholds: DEFAULT_ESCALATION_THRESHOLDS,
};

const LEVEL_RANK: Record<ReinforcementLevel, number> = { MINIMAL: 0, STANDARD: 1, AGGRESSIVE: 2 };

/**
 * The normalised text of a failure, so that "the same error" survives
 * changing numbers, durations, paths, oids and timestamps: ANSI colour
 * removed; the lines that name an error (error, fail, exception, panic,
 * assert, expected, traceback) or else the last 5 lines; hex ids, numbers
 * and absolute paths replaced; whitespace collapsed; at most 300 characters.
 * null for empty output.
 */
export function errorSignature(output: string): string | null {
  const lines = output
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (lines.length === 0) return null;
  const named = lines.filter((l) => /\b(error|errors|fail|failed|failure|exception|panic|assert\w*|expected|traceback)\b/i.test(l));
  const chosen = (named.length > 0 ? named : lines).slice(-5);
  const text = chosen
    .join(" | ")
    .replace(/\b[0-9a-f]{7,40}\b/gi, "H")
    .replace(/(?:\/[\w.@-]+){2,}/g, "P")
    .replace(/\d+(?:\.\d+)?/g, "N")
    .replace(/\s+/g, " ")
    .trim();
  return text.slice(0, 300);
}

/** Quality points under which a delta counts towards a plateau (threshold fraction x 100). */
export function plateauPoints(settings: Pick<ProgressSettings, "plateauThreshold">): number {
  return settings.plateauThreshold * 100;
}

/** True when the last {@link PLATEAU_WINDOW} deltas of `history` each moved less than the threshold (needs that many deltas). */
export function isPlateau(history: readonly IterationRecord[], settings: Pick<ProgressSettings, "plateauThreshold">): boolean {
  const deltas = history.slice(-PLATEAU_WINDOW).map((r) => r.quality_delta);
  if (deltas.length < PLATEAU_WINDOW || deltas.some((d) => d === null)) return false;
  return deltas.every((d) => Math.abs(d as number) < plateauPoints(settings));
}

/** True when the last {@link STUCK_WINDOW} iterations failed with the same error signature. */
export function isStuck(history: readonly IterationRecord[]): boolean {
  const last = history.slice(-STUCK_WINDOW);
  if (last.length < STUCK_WINDOW) return false;
  const first = last[0]?.error_signature ?? null;
  return first !== null && last.every((r) => r.verification_status !== "passed" && r.error_signature === first);
}

/**
 * Best output selection (reference guide, "Best Output Selection
 * Algorithm"): iterations at or above `threshold`; among them the verified
 * ones (completion passed) when there are any (only those when
 * `requireVerification`); the highest score; the earliest on a tie.
 * @returns the chosen record and why, or null when none qualifies.
 */
export function selectBest(history: readonly IterationRecord[], settings: Pick<ProgressSettings, "qualityThreshold" | "requireVerification">): { record: IterationRecord; reason: string } | null {
  const acceptable = history.filter((r) => r.quality_score >= settings.qualityThreshold);
  const verified = acceptable.filter((r) => r.verification_status === "passed");
  const candidates = verified.length > 0 || settings.requireVerification ? verified : acceptable;
  let best: IterationRecord | null = null;
  for (const r of candidates) if (best === null || r.quality_score > best.quality_score) best = r;
  if (best === null) return null;
  const final = history[history.length - 1];
  // Verified candidates come first: when a higher unverified score was passed over, say so.
  const higherUnverified = acceptable.some((r) => r.quality_score > (best as IterationRecord).quality_score);
  const what = higherUnverified ? `highest verified quality (${best.quality_score})` : `highest quality (${best.quality_score})${best.verification_status === "passed" ? ", verified" : ""}`;
  const reason =
    final && best.iteration === final.iteration
      ? `${what} at the final iteration ${best.iteration}`
      : `${what} at iteration ${best.iteration}; the final iteration ${final?.iteration ?? "?"} scored ${final?.quality_score ?? "?"}`;
  return { record: best, reason };
}

/** The {@link BestIteration} entry for a selected record. */
export function bestEntry(selection: { record: IterationRecord; reason: string }): BestIteration {
  return {
    iteration: selection.record.iteration,
    quality_score: selection.record.quality_score,
    snapshot_path: selection.record.snapshot_path,
    checkpoint_oid: selection.record.checkpoint_oid,
    selection_reason: selection.reason,
    verified: selection.record.verification_status === "passed",
  };
}

/** The level an iteration's thresholds give (highest threshold at or below `iteration`, never below the default level). */
export function levelForIteration(iteration: number, settings: Pick<ProgressSettings, "defaultLevel" | "escalationThresholds">): ReinforcementLevel {
  let level = settings.defaultLevel;
  for (const t of settings.escalationThresholds) if (iteration >= t.iteration && LEVEL_RANK[t.level] > LEVEL_RANK[level]) level = t.level;
  return level;
}

/** What {@link recordIteration} found. */
export interface ProgressSignals {
  plateau: boolean;
  stuck: boolean;
  /** The level after this iteration, and whether it changed. */
  level: ReinforcementLevel;
  levelChanged: boolean;
  /** True when this iteration became the best. */
  newBest: boolean;
}

/**
 * Appends `record` to `state.iteration_history` (replacing a record of the
 * same iteration), fills its `quality_delta` from the previous record, and
 * updates `best_iteration`, `plateau_detected`, `stuck_loop_detected`,
 * `reinforcement_level` and `reinforcement_history`. Mutates `state`.
 */
export function recordIteration(state: LoopState, record: IterationRecord, settings: ProgressSettings, nowIso: string): ProgressSignals {
  const history = state.iteration_history.filter((r) => r.iteration !== record.iteration && r.iteration < record.iteration);
  const previous = history[history.length - 1];
  record.quality_delta = previous ? Math.round((record.quality_score - previous.quality_score) * 10) / 10 : null;
  history.push(record);
  state.iteration_history = history;
  const selection = selectBest(history, settings);
  const before = state.best_iteration?.iteration ?? null;
  state.best_iteration = selection ? bestEntry(selection) : null;
  const plateau = isPlateau(history, settings);
  const stuck = isStuck(history);
  state.plateau_detected = plateau;
  state.stuck_loop_detected = stuck;
  const byIteration = levelForIteration(record.iteration, settings);
  const level: ReinforcementLevel = plateau || stuck ? "AGGRESSIVE" : byIteration;
  const from = state.reinforcement_level;
  const levelChanged = level !== from;
  if (levelChanged) {
    const reasons: string[] = [];
    if (byIteration === level) reasons.push(`iteration ${record.iteration} threshold`);
    if (plateau) reasons.push(`quality plateau (last ${PLATEAU_WINDOW} deltas under ${plateauPoints(settings)} points)`);
    if (stuck) reasons.push(`stuck loop (the same error ${STUCK_WINDOW} iterations in a row)`);
    state.reinforcement_history.push({ timestamp: nowIso, iteration: record.iteration, from_level: from, to_level: level, reason: reasons.join(" + ") || "level reset" });
    state.reinforcement_level = level;
  }
  return { plateau, stuck, level, levelChanged, newBest: state.best_iteration !== null && state.best_iteration.iteration === record.iteration && before !== record.iteration };
}
