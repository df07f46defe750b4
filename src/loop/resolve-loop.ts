/**
 * The one rule for which loop a command or hook acts on (docs/design.md,
 * "Which loop"). Every command with `--loop` and the hooks' session
 * binding (src/hooks/loop-binding.ts) resolve through {@link resolveLoop}:
 *
 * 1. the loop named (`--loop ID`);
 * 2. `$RALPH_LOOP` (ralph sets it for the completion, quality and metric
 *    commands it runs, so a `ralph check` inside one judges its loop);
 * 3. the active loop: the mark `ralph start` writes (kept when the loop
 *    completes or fails, removed when it is aborted);
 * 4. for a hook: the session's own guard loop (a session never writes into
 *    a loop nobody started for it);
 * 5. the loop with the latest activity: the later of its newest
 *    checkpoint's commit time and its state's `last_updated` (ties: by
 *    name); a command that needs a loop state looks only at loops that have
 *    one (a session's guard loop has checkpoints and no state);
 * 6. none: `default` for a command that reads or writes checkpoints (the
 *    first `ralph checkpoint` creates it); E_UNKNOWN_LOOP for one that needs
 *    a loop state.
 *
 * Before this module, the checkpoint commands (`checkpoint`, `log`,
 * `diff`, `check`, `revert`, `tests`) skipped step 3 and ranked step 5 by
 * checkpoints alone, while the state commands (`status`, `iterate`,
 * `cancel`, `report`, …) took the active loop and ranked by state alone: a
 * Claude Code session's guard loop with a newer checkpoint made `ralph
 * check` judge that loop while `ralph status` showed the loop the user had
 * started.
 */
import { RalphError } from "../errors.js";
import type { LoopSummary } from "../store/checkpoint-store.js";
import { DEFAULT_LOOP_ID, parseLoopId, type LoopId } from "../store/loop-id.js";
import { listLoopIds, readActiveLoop, readState } from "./state.js";

/** Which step of the rule chose the loop (see the module doc). */
export type LoopSource = "option" | "env" | "active" | "session" | "latest" | "default";

/** What a command needs of its loop: checkpoints (any loop, `default` when there is none) or a loop state (E_UNKNOWN_LOOP when there is none). */
export type LoopNeed = "checkpoints" | "state";

/** The question {@link resolveLoop} answers. */
export interface LoopQuery {
  workTree: string;
  /** The loops that have checkpoints (CheckpointStore.listLoops); step 5 reads their head times. Omitted: only loop states count. */
  store?: { listLoops(): LoopSummary[] };
  /** `--loop ID`, when given. */
  explicit?: string | undefined;
  /** `$RALPH_LOOP` of the caller's environment ("" or undefined: unset). */
  envLoop?: string | undefined;
  need: LoopNeed;
  /** A hook's session loop (its guard loop), used when no loop is active (step 4). */
  sessionLoop?: LoopId | undefined;
}

/** The loop chosen and the step that chose it. */
export interface LoopResolution {
  loop: LoopId;
  source: LoopSource;
}

/** A loop's latest activity, ms since the epoch (see step 5 of the module doc). */
interface Activity {
  loop: LoopId;
  ms: number;
}

/**
 * Resolves the loop of `query` by the rule of the module doc.
 * @throws RalphError E_BAD_LOOP_ID for a malformed `--loop` or `$RALPH_LOOP`;
 *   E_UNKNOWN_LOOP when `need` is "state" and no loop has a state (a state
 *   that cannot be read counts as none).
 */
export function resolveLoop(query: LoopQuery): LoopResolution {
  if (query.explicit !== undefined) return { loop: parseLoopId(query.explicit), source: "option" };
  if (query.envLoop) return { loop: parseLoopId(query.envLoop), source: "env" };
  const active = readActiveLoop(query.workTree);
  if (active) return { loop: active, source: "active" };
  if (query.sessionLoop) return { loop: query.sessionLoop, source: "session" };
  const latest = latestActivity(query);
  if (latest) return { loop: latest.loop, source: "latest" };
  if (query.need === "checkpoints") return { loop: DEFAULT_LOOP_ID, source: "default" };
  throw new RalphError("E_UNKNOWN_LOOP", "no loop in this repository; start one with 'ralph start TASK --completion CMD'", { data: {} });
}

/** The loop with the latest activity among those `query.need` admits, or null. */
function latestActivity(query: LoopQuery): Activity | null {
  const byLoop = new Map<LoopId, number>();
  const note = (loop: LoopId, ms: number): void => {
    if (!Number.isNaN(ms)) byLoop.set(loop, Math.max(byLoop.get(loop) ?? Number.NEGATIVE_INFINITY, ms));
  };
  const withState = new Set<LoopId>();
  for (const loop of listLoopIds(query.workTree)) {
    let state;
    try {
      state = readState(query.workTree, loop);
    } catch {
      continue; // an unreadable state is not a loop a command can act on
    }
    if (!state) continue;
    withState.add(loop);
    note(loop, Date.parse(state.last_updated));
  }
  for (const summary of query.store?.listLoops() ?? []) {
    if (query.need === "state" && !withState.has(summary.loop)) continue;
    note(summary.loop, summary.updatedSec * 1000);
  }
  let best: Activity | null = null;
  for (const [loop, ms] of byLoop) {
    if (best === null || ms > best.ms || (ms === best.ms && loop.localeCompare(best.loop) < 0)) best = { loop, ms };
  }
  return best;
}
