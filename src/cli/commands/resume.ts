/** `ralph resume [--loop ID] [--json]`: a paused (no decision pending) or crashed loop runs on and becomes the active loop. */
import * as z from "zod/mini";
import { resumeLoop } from "../../loop/gate.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "resume");
  const store = openStore(ctx);
  const loop = commandLoop(store, options.loop, "state");
  const state = resumeLoop(store, loop);
  return { json: { loop, status: state.status, iteration: state.iteration }, text: `resumed loop ${loop} at iteration ${state.iteration}` };
}
