/**
 * `ralph select --best [--loop ID] [--threshold N] [--dry-run] [--force] [--json]`:
 * restore the best iteration (quality >= threshold, verified first, highest
 * score; src/loop/progress.ts selectBest) into the work tree, after a
 * pre-revert checkpoint, and move `refs/ralph/<loop>/best` to it.
 * The threshold defaults to `best_output_selection.quality_threshold` (70).
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { selectBestIteration } from "../../loop/gate.js";
import { loadLoopSettings } from "../../loop/settings.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { numberOption, parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore, shortOid } from "./shared.js";

const Options = z.strictObject({
  best: z.optional(z.boolean()),
  loop: z.optional(stringOption),
  threshold: z.optional(numberOption({ min: 0, max: 100 })),
  dryRun: z.optional(z.boolean()),
  force: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "select");
  if (!options.best) throw new RalphError("E_USAGE", "select needs --best (the only selection ralph makes): ralph select --best", { data: { command: "select" } });
  const store = openStore(ctx);
  const workTree = store.repo.workTree;
  const loop = commandLoop(store, options.loop, "state");
  const { settings } = await loadLoopSettings(workTree, ctx.env.vars);
  const threshold = options.threshold ?? settings.progress.qualityThreshold;
  const result = selectBestIteration(
    store,
    loop,
    { qualityThreshold: threshold, requireVerification: settings.progress.requireVerification },
    { dryRun: options.dryRun ?? false, force: options.force ?? false },
  );
  const restore = result.restore;
  const changed = restore ? restore.written.length + restore.removed.length : 0;
  const lines = [
    `${options.dryRun ? "would select" : "selected"} iteration ${result.iteration} of loop ${loop} (quality ${result.qualityScore}, threshold ${threshold}): ${result.reason}`,
    options.dryRun
      ? `would change ${changed} ${changed === 1 ? "path" : "paths"}`
      : `restored its tree (${changed} ${changed === 1 ? "path" : "paths"} changed); refs/ralph/${loop}/best -> ${shortOid(result.checkpoint)}`,
  ];
  if (restore?.preRevert) lines.push(`the state before this is checkpoint ${shortOid(restore.preRevert)}; undo with: ralph revert ${restore.preRevert} --loop ${loop}`);
  return {
    json: {
      loop,
      iteration: result.iteration,
      quality_score: result.qualityScore,
      threshold,
      reason: result.reason,
      checkpoint: result.checkpoint,
      dry_run: options.dryRun ?? false,
      pre_revert: restore?.preRevert ?? null,
      written: restore?.written ?? [],
      removed: restore?.removed ?? [],
    },
    text: lines.join("\n"),
  };
}
