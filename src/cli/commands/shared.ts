/**
 * Small pieces several commands share: opening the store at the command's
 * cwd, short oids, dates.
 */
import { CheckpointStore } from "../../store/checkpoint-store.js";
import type { CommandContext } from "../context.js";

/** Opens the checkpoint store of the repository containing ctx.cwd under the run's environment (E_NOT_A_REPO / E_BARE_REPO otherwise). */
export function openStore(ctx: CommandContext): CheckpointStore {
  return CheckpointStore.open(ctx.cwd, ctx.env);
}

/** The first 12 hex digits of an oid. */
export function shortOid(oid: string | null | undefined): string {
  return oid ? oid.slice(0, 12) : "-";
}

/** An ISO-8601 UTC time (seconds precision) from seconds since the epoch. */
export function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}
