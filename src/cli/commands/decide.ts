/**
 * `ralph approve | reject | abort [--loop ID] [--force] [--json]`: a
 * human's decision on the regressions that paused a loop (reference guide,
 * "Human Gate"; src/loop/gate.ts): approve keeps the change and allows its
 * findings, reject restores the last good checkpoint, abort ends the loop.
 */
import * as z from "zod/mini";
import { decideGate, type GateDecision } from "../../loop/gate.js";
import type { CommandModule } from "../program.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore, shortOid } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  force: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

async function runDecision(decision: GateDecision, ctx: CommandContext, raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, decision);
  const store = openStore(ctx);
  const loop = commandLoop(store, options.loop, "state");
  const result = decideGate(store, loop, decision, { force: options.force ?? false });
  const lines = [
    `${decision === "approve" ? "approved" : decision === "reject" ? "rejected" : "aborted"}${result.events.length ? ` ${result.events.join(", ")}` : ""} in loop ${loop}: now ${result.status}`,
  ];
  if (result.restore) {
    lines.push(`restored ${result.restore.targetLabel}: ${result.restore.written.length} written, ${result.restore.removed.length} removed`);
    if (result.restore.preRevert) lines.push(`the rejected state is checkpoint ${shortOid(result.restore.preRevert)}; undo with: ralph revert ${result.restore.preRevert} --loop ${loop}`);
  }
  if (decision === "approve") lines.push("the approved findings are allowed for the rest of this loop");
  return {
    json: {
      loop,
      decision,
      events: result.events,
      status: result.status,
      restore: result.restore ? { target: result.restore.targetLabel, pre_revert: result.restore.preRevert, written: result.restore.written, removed: result.restore.removed } : null,
    },
    text: lines.join("\n"),
  };
}

/** `ralph approve`. */
export const approve: CommandModule = { run: (ctx, _args, raw) => runDecision("approve", ctx, raw) };
/** `ralph reject`. */
export const reject: CommandModule = { run: (ctx, _args, raw) => runDecision("reject", ctx, raw) };
/** `ralph abort`. */
export const abort: CommandModule = { run: (ctx, _args, raw) => runDecision("abort", ctx, raw) };
