/** `ralph checkpoint [-m MSG] [--loop ID] [--kind KIND] [--iteration N] [--json]`: store the work tree as a checkpoint. */
import * as z from "zod/mini";
import { CHECKPOINT_KINDS } from "../../store/trailers.js";
import { commandProgress } from "../progress.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, positiveIntOption, stringOption } from "../options.js";
import { commandLoop, openStore } from "./shared.js";

const Options = z.strictObject({
  message: z.optional(stringOption),
  m: z.optional(stringOption),
  loop: z.optional(stringOption),
  kind: z._default(z.enum(CHECKPOINT_KINDS), "manual"),
  iteration: z.optional(positiveIntOption),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "checkpoint");
  const store = openStore(ctx);
  const loop = commandLoop(store, options.loop, "checkpoints");
  // Progress on stderr while it is a terminal: the first checkpoint of a large tree reads every file.
  const progress = commandProgress(ctx);
  let result: ReturnType<typeof store.checkpoint>;
  try {
    result = store.checkpoint(
      {
        loop,
        kind: options.kind,
        message: options.message ?? options.m,
        iteration: options.iteration,
      },
      { onProgress: (seen, hashed) => progress.tick(`checkpoint: files read (${hashed} new)`, seen) },
    );
  } finally {
    progress.done();
  }
  for (const s of result.skipped) ctx.stderr(`ralph: warning: skipped ${s.path} (${s.sizeBytes} bytes, over the size cap)\n`);
  return {
    json: {
      oid: result.oid,
      changed: result.changed,
      loop: result.loop,
      kind: result.kind,
      tree: result.treeOid,
      ref: `refs/ralph/${result.loop}/head`,
      skipped: result.skipped,
      // snake_case; the camelCase keys are kept one release (README: JSON keys are snake_case).
      stats: {
        files_statted: result.stats.filesStatted,
        files_hashed: result.stats.filesHashed,
        dirs_read: result.stats.dirsRead,
        duration_ms: Math.round(result.stats.durationMs * 10) / 10,
        ...result.stats,
        durationMs: Math.round(result.stats.durationMs * 10) / 10,
      },
    },
    text: result.changed ? result.oid : "unchanged",
  };
}
