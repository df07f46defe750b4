/**
 * Small pieces several commands share: opening the store at the command's
 * cwd, the loop a command acts on, short oids, dates.
 */
import { resolveLoop, type LoopNeed } from "../../loop/resolve-loop.js";
import { CheckpointStore } from "../../store/checkpoint-store.js";
import type { LoopId } from "../../store/loop-id.js";
import type { CommandContext } from "../context.js";

/** Opens the checkpoint store of the repository containing ctx.cwd under the run's environment (E_NOT_A_REPO / E_BARE_REPO otherwise). */
export function openStore(ctx: CommandContext): CheckpointStore {
  return CheckpointStore.open(ctx.cwd, ctx.env);
}

/**
 * The loop a command acts on: `--loop`, else `$RALPH_LOOP`, else the active
 * loop, else the loop with the latest activity, else `default` (`need`
 * "checkpoints") or E_UNKNOWN_LOOP (`need` "state"): the one rule of
 * src/loop/resolve-loop.ts.
 * @throws RalphError E_BAD_LOOP_ID, E_UNKNOWN_LOOP.
 */
export function commandLoop(store: CheckpointStore, explicit: string | undefined, need: LoopNeed): LoopId {
  return resolveLoop({ workTree: store.repo.workTree, store, explicit, envLoop: store.repo.env.loop, need }).loop;
}

/** The first 12 hex digits of an oid. */
export function shortOid(oid: string | null | undefined): string {
  return oid ? oid.slice(0, 12) : "-";
}

/** An ISO-8601 UTC time (seconds precision) from seconds since the epoch. */
export function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
