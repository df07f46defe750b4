/**
 * `ralph revert TARGET [--loop ID] [--dry-run] [--force] [--json]`: restore
 * the work tree to a checkpoint. The undo line (the pre-revert checkpoint)
 * is printed only when the revert changed a file; unsaved edits it
 * overwrites (changed since the loop's last checkpoint) are named with the
 * checkpoint that keeps them (docs/decisions/0002-revert-overwrite-rule.md).
 * JSON: `loop`, `target`, `pre_revert`, `restored`, `dry_run`, `written`,
 * `removed`, `skipped`, `overwritten` (`preRevert`/`dryRun` kept one release).
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { resolveRev } from "../../store/rev.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore, shortOid } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  dryRun: z.optional(z.boolean()),
  force: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "revert");
  const store = openStore(ctx);
  const loop = commandLoop(store, options.loop, "checkpoints");
  // Resolve the target before the pre-revert checkpoint moves @head.
  const target = resolveRev(store, args[0] as string, loop);
  if (target.kind !== "commit") throw new RalphError("E_USAGE", "revert needs a checkpoint or commit, not WORKTREE");
  const result = store.revert(target, { loop, dryRun: options.dryRun ?? false, force: options.force ?? false });
  const lines: string[] = [];
  const verb = result.dryRun ? "would" : "did";
  lines.push(`${result.dryRun ? "dry run: " : ""}restoring ${target.label} (${shortOid(target.oid)}) in loop ${loop}`);
  for (const p of result.written) lines.push(`  ${result.dryRun ? "would write " : "wrote  "} ${p}`);
  for (const p of result.removed) lines.push(`  ${result.dryRun ? "would remove" : "removed"} ${p}`);
  for (const s of result.skipped) lines.push(`  skipped ${s.path}: ${s.reason}`);
  if (result.written.length === 0 && result.removed.length === 0) lines.push("  nothing to change: the work tree already matches");
  else {
    const n = result.written.length + result.removed.length;
    lines.push(`${verb === "would" ? "would change" : "changed"} ${n} ${n === 1 ? "path" : "paths"}`);
  }
  // An undo only when the revert changed something: a pre-revert checkpoint of a tree already at the target is the target itself.
  const changed = result.written.length + result.removed.length > 0;
  if (result.overwritten.length > 0) {
    // Unsaved edits (made since the loop's last checkpoint) are overwritten, never silently (docs/decisions/0002).
    const n = result.overwritten.length;
    const shown = result.overwritten.slice(0, 5).join(", ") + (n > 5 ? ` and ${n - 5} more` : "");
    const kept = result.preRevert ? `; it is kept in checkpoint ${shortOid(result.preRevert)}` : "; the pre-revert checkpoint will keep them";
    lines.push(
      `${result.dryRun ? "would overwrite" : "overwrote"} ${n} unsaved ${n === 1 ? "edit" : "edits"} made since the loop's last checkpoint (${shown})${n === 1 ? kept : kept.replace("it is", "they are")}`,
    );
  }
  if (result.preRevert && changed && result.preRevert !== target.oid)
    lines.push(`the state before this revert is checkpoint ${shortOid(result.preRevert)}; undo with: ralph revert ${result.preRevert} --loop ${loop}`);
  return {
    json: {
      loop,
      target: result.target,
      pre_revert: result.preRevert,
      restored: result.restored,
      dry_run: result.dryRun,
      // Deprecated camelCase spellings, kept for one release (README: JSON keys are snake_case).
      preRevert: result.preRevert,
      dryRun: result.dryRun,
      written: result.written,
      removed: result.removed,
      skipped: result.skipped,
      overwritten: result.overwritten,
    },
    text: lines.join("\n"),
  };
}
