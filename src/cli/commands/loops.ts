/** `ralph loops [--json]`: the loops of this repository, most recently updated first. */
import * as z from "zod/mini";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";
import { isoTime, openStore, shortOid } from "./shared.js";

const Options = z.strictObject({ json: z.optional(z.boolean()) });

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  parseOptions(Options, raw, "loops");
  const store = openStore(ctx);
  const loops = store.listLoops().map((l) => ({
    loop: l.loop,
    head: l.head,
    baseline: l.baseline,
    best: l.best,
    iterations: l.iterations,
    updated: isoTime(l.updatedSec),
  }));
  const header = `${"LOOP".padEnd(28)} ${"HEAD".padEnd(12)} ${"BASELINE".padEnd(12)} ${"BEST".padEnd(12)} ITER  UPDATED`;
  const rows = loops.map(
    (l) => `${l.loop.padEnd(28)} ${shortOid(l.head).padEnd(12)} ${shortOid(l.baseline).padEnd(12)} ${shortOid(l.best).padEnd(12)} ${String(l.iterations).padStart(4)}  ${l.updated}`,
  );
  return { json: loops, text: loops.length === 0 ? "no loops yet: run 'ralph checkpoint'" : [header, ...rows].join("\n") };
}
