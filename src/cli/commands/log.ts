/** `ralph log [--loop ID] [--all] [-n N] [--json]`: a loop's checkpoints, newest first. */
import * as z from "zod/mini";
import type { Checkpoint, CheckpointStore } from "../../store/checkpoint-store.js";
import { REF_PREFIX } from "../../store/checkpoint-store.js";
import type { LoopId } from "../../store/loop-id.js";
import { trailerValue } from "../../store/trailers.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, positiveIntOption, stringOption } from "../options.js";
import { commandLoop, isoTime, openStore, shortOid } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  all: z.optional(z.boolean()),
  limit: z.optional(positiveIntOption),
  n: z.optional(positiveIntOption),
  json: z.optional(z.boolean()),
});

/** One row of `ralph log --json`. */
export interface LogEntry {
  oid: string;
  loop: string;
  kind: string | null;
  iteration: number | null;
  subject: string;
  time: string;
  tool: string | null;
  /** The user's HEAD when the checkpoint was written (`Ralph-Head`), or null. */
  user_head: string | null;
  /** @deprecated the same as `user_head`, kept one release (README: JSON keys are snake_case). */
  userHead: string | null;
  /** Loop refs pointing here: head, baseline, best, iterations/NNNN. */
  refs: string[];
}

function entriesOf(store: CheckpointStore, loop: LoopId, limit: number): LogEntry[] {
  const refsAt = new Map<string, string[]>();
  for (const [name, oid] of store.listRefs(`${REF_PREFIX}${loop}/`)) {
    const short = name.slice(`${REF_PREFIX}${loop}/`.length);
    refsAt.set(oid, [...(refsAt.get(oid) ?? []), short]);
  }
  return store.log(loop, limit).map((c: Checkpoint) => {
    const head = trailerValue(c.trailers, "Ralph-Head");
    return {
      oid: c.oid,
      loop,
      kind: c.kind ?? null,
      iteration: c.iteration ?? null,
      subject: c.subject,
      time: isoTime(c.timeSec),
      tool: trailerValue(c.trailers, "Ralph-Tool") ?? null,
      user_head: head && head !== "none" ? head : null,
      userHead: head && head !== "none" ? head : null,
      refs: refsAt.get(c.oid) ?? [],
    };
  });
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "log");
  const store = openStore(ctx);
  const limit = options.limit ?? options.n ?? Number.POSITIVE_INFINITY;
  const loops = options.all ? store.listLoops().map((l) => l.loop) : [commandLoop(store, options.loop, "checkpoints")];
  const entries = loops.flatMap((loop) => entriesOf(store, loop, limit));
  const lines: string[] = [];
  let lastLoop = "";
  for (const e of entries) {
    if (options.all && e.loop !== lastLoop) {
      if (lines.length > 0) lines.push("");
      lines.push(`loop ${e.loop}`);
      lastLoop = e.loop;
    }
    const refs = e.refs.length > 0 ? ` (${e.refs.join(", ")})` : "";
    lines.push(`${shortOid(e.oid)}  ${e.time}  ${(e.kind ?? "?").padEnd(10)}  ${e.subject}${refs}`);
  }
  if (entries.length === 0) lines.push(options.all ? "no loops yet: run 'ralph checkpoint'" : `no checkpoints in loop ${loops[0]}: run 'ralph checkpoint'`);
  return { json: entries, text: lines.join("\n") };
}
