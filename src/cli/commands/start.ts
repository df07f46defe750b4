/**
 * `ralph start TASK --completion CMD [--max-iterations N] [--id ID] [--completion-timeout MS] [--auto-extend] [--json]`:
 * create a loop (state, baseline checkpoint, active mark), or resume the
 * active / crashed one (src/loop/lifecycle.ts startLoop).
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { startLoop } from "../../loop/lifecycle.js";
import { HARD_MAX_ITERATIONS } from "../../loop/state.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, positiveIntOption, stringOption } from "../options.js";
import { openStore, shortOid } from "./shared.js";

const Options = z.strictObject({
  completion: stringOption,
  maxIterations: z.optional(positiveIntOption.check(z.lte(HARD_MAX_ITERATIONS))),
  id: z.optional(stringOption),
  completionTimeout: z.optional(positiveIntOption.check(z.gte(100))),
  autoExtend: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "start");
  const task = (args[0] ?? "").trim();
  if (task === "") throw new RalphError("E_USAGE", "the task is empty: usage 'ralph start TASK --completion CMD'", { data: { command: "start" } });
  if (options.completion.trim() === "") throw new RalphError("E_USAGE", "bad value for --completion: the command is empty", { data: { command: "start" } });
  const store = openStore(ctx);
  const result = startLoop(store, {
    task,
    completion: options.completion,
    maxIterations: options.maxIterations,
    id: options.id,
    completionTimeoutMs: options.completionTimeout,
    autoExtend: options.autoExtend,
  });
  const s = result.state;
  const verb = result.resumed ? `resumed loop ${s.loop_id} at iteration ${s.iteration}` : `started loop ${s.loop_id}`;
  return {
    json: {
      loop: s.loop_id,
      resumed: result.resumed,
      status: s.status,
      iteration: s.iteration,
      max_iterations: s.configuration.max_iterations,
      task: s.task,
      completion: s.completion_criteria,
      baseline: result.baseline,
      state_path: `.aiwg/ralph/loops/${s.loop_id}/state.json`,
    },
    text: `${verb} (baseline ${shortOid(result.baseline)}, max ${s.configuration.max_iterations} iterations)\ncompletion: ${s.completion_criteria}`,
  };
}
