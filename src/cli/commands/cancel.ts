/**
 * `ralph cancel [--loop ID] [--json]`: end a loop: a cancel signal the Stop
 * hook honours for 30 s, status `aborted`, active mark cleared.
 */
import * as z from "zod/mini";
import { cancelLoop } from "../../loop/lifecycle.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "cancel");
  const store = openStore(ctx);
  const workTree = store.repo.workTree;
  const loop = commandLoop(store, options.loop, "state");
  const result = cancelLoop(workTree, loop);
  const status = result.state?.status ?? "aborted";
  return {
    json: { loop, cancelled: result.changed, previous_status: result.previous, status },
    text: result.changed ? `cancelled loop ${loop} (was ${result.previous})` : `loop ${loop} was already ${result.previous}; cancel signal set`,
  };
}
