/**
 * `ralph gc [--older-than 30d] [--all] [--dry-run] [--json]`: deletes the
 * refs of loops ralph created (their commits carry `Ralph-Loop: <loop>`)
 * whose newest checkpoint is older than `--older-than` (a number and a unit:
 * `s`, `m`, `h`, `d`, `w`; default 30d), keeping each loop's `baseline` and
 * `best` unless `--all`. A loop that is still running (its state is not
 * terminal) and refs under refs/ralph/ that ralph did not write are left
 * alone. Then it prunes `.git/ralph/facts/` of entries for blobs nothing
 * references any more (no ref, reflog entry or the index reaches them:
 * src/store/loop-sharing.ts reachableAmong). The commits stay until git's
 * own gc prunes what nothing references. JSON: `{loops: [{loop, deleted, kept}], skipped:
 * [{loop, why}], facts_pruned}`.
 *
 * Exit 0, or 2 for a bad --older-than.
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { openStore } from "./shared.js";

const Options = z.strictObject({
  olderThan: z.optional(stringOption),
  all: z.optional(z.boolean()),
  dryRun: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

const UNIT_SEC: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 7 * 86_400 };

/** `30d` -> seconds. @throws RalphError E_USAGE for anything but a non-negative integer and one of s, m, h, d, w. */
export function parseAgeSec(text: string): number {
  const m = /^(\d+)([smhdw])$/.exec(text.trim());
  if (!m) throw new RalphError("E_USAGE", `--older-than ${JSON.stringify(text)}: give a number and a unit, e.g. 30d, 12h, 2w (units s, m, h, d, w)`, { data: { olderThan: text } });
  return Number(m[1]) * (UNIT_SEC[m[2] as string] as number);
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "gc");
  const ageSec = parseAgeSec(options.olderThan ?? "30d");
  const store = openStore(ctx);
  const { listLoopRefs, deleteRefs } = await import("../../store/loop-sharing.js");
  const { readState, isTerminal } = await import("../../loop/state.js");
  const { parseLoopId } = await import("../../store/loop-id.js");
  const nowSec = Math.floor(Date.now() / 1000);
  const loops: { loop: string; deleted: string[]; kept: string[] }[] = [];
  const skipped: { loop: string; why: string }[] = [];
  const toDelete = new Map<string, string>();
  for (const entry of listLoopRefs(store)) {
    if (!entry.isRalphLoop) {
      skipped.push({ loop: entry.loop, why: "not written by ralph (no Ralph-Loop trailer naming it)" });
      continue;
    }
    if (nowSec - entry.updatedSec < ageSec) continue;
    let state: ReturnType<typeof readState> | null;
    try {
      state = readState(store.repo.workTree, parseLoopId(entry.loop));
    } catch {
      state = null; // an unreadable state says nothing about running
    }
    if (state !== null && !isTerminal(state.status)) {
      skipped.push({ loop: entry.loop, why: `still ${state.status}` });
      continue;
    }
    const deleted: string[] = [];
    const kept: string[] = [];
    for (const [which, oid] of entry.refs) {
      const name = `refs/ralph/${entry.loop}/${which}`;
      if (!options.all && (which === "baseline" || which === "best")) kept.push(name);
      else {
        deleted.push(name);
        toDelete.set(name, oid);
      }
    }
    if (deleted.length > 0) loops.push({ loop: entry.loop, deleted, kept });
  }
  if (!options.dryRun) deleteRefs(store.repo.workTree, toDelete, ctx.env.vars);
  const { factsCacheOids, pruneFactsCache } = await import("../../loop/cache-prune.js");
  const { reachableAmong } = await import("../../store/loop-sharing.js");
  // After the deletes: facts of blobs only the deleted loops reached go now, not when git's gc prunes the blobs.
  const referenced = await reachableAmong(store.repo.workTree, factsCacheOids(store.repo.ralphDir), ctx.env.vars);
  const factsPruned = options.dryRun ? 0 : pruneFactsCache(store.repo.ralphDir, (oid) => referenced.has(oid));
  const verb = options.dryRun ? "would delete" : "deleted";
  const lines = [
    ...loops.map((l) => `ralph: ${l.loop}: ${verb} ${l.deleted.length} ref(s)${l.kept.length > 0 ? `, kept ${l.kept.map((k) => k.slice(k.lastIndexOf("/") + 1)).join(" and ")}` : ""}`),
    ...skipped.map((s) => `ralph: ${s.loop}: left alone: ${s.why}`),
    `ralph: gc: ${loops.length} loop(s) older than ${options.olderThan ?? "30d"} ${options.dryRun ? "would be cleaned" : "cleaned"}; ${factsPruned} cached facts entr${factsPruned === 1 ? "y" : "ies"} of objects nothing references removed`,
  ];
  return { json: { loops, skipped, facts_pruned: factsPruned, dry_run: options.dryRun === true }, text: lines.join("\n") };
}
