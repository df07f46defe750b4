/**
 * `ralph iterate [--loop ID] [--json]`: end one iteration of a shell-driven
 * loop: iteration checkpoint, completion command, record.
 *
 * Exit codes (DESIGN.md's contract: 1 is only for findings): 0 while the
 * loop goes on (`done: false`: the completion command failed and
 * iterations remain), 2 once it is over: the check just passed
 * (`completed`), the iteration limit was reached (`failed`), the loop is
 * paused for a human decision (`ralph approve | reject | abort`), or the
 * loop is not running (cancelled, already completed). So
 * `while :; do agent; ralph iterate || break; done` runs the agent until
 * the loop is over; `ralph status` (or the one stderr line) says how it
 * ended.
 *
 * A loop whose guard was changed outside ralph (src/hooks/guard-record.ts:
 * ralph's hooks, core.hooksPath, the loop state) is held, as the Stop hook
 * holds it: no checkpoint, no completion command, the loop stays as it is
 * and cannot complete until the user runs `ralph confirm`; iterate says so
 * on stderr and exits 2 (`held: "guard"` in the JSON), so the shell loop
 * stops and waits for the user.
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { iterateLoop, loadLoop } from "../../loop/lifecycle.js";

import { tailOf } from "../../loop/reinforcement.js";
import { loadLoopSettings } from "../../loop/settings.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "iterate");
  const store = openStore(ctx);
  const loop = commandLoop(store, options.loop, "state");
  const { settings } = await loadLoopSettings(store.repo.workTree, ctx.env.vars);
  const { checkGuard, describeGuardReport } = await import("../../hooks/guard-record.js");
  const guard = await checkGuard(store.repo);
  const guardMessage = describeGuardReport(guard);
  if (guardMessage !== null) {
    ctx.stderr(`ralph: ${guardMessage}\n`);
    const state = loadLoop(store.repo.workTree, loop);
    throw new RalphError("E_USAGE", `loop ${loop} is held: ralph's guard was changed outside ralph (${guard.changes.length} change(s)); the loop waits for 'ralph confirm'`, {
      data: { loop, iteration: state.iteration, done: true, held: "guard", status: state.status, guard_changes: guard.changes },
    });
  }
  const result = await iterateLoop(store, loop, Date.now(), settings);
  const summary = {
    loop: result.loop,
    iteration: result.iteration,
    done: result.done,
    status: result.status,
    passed: result.passed,
    exit_code: result.check.exit_code,
    timed_out: result.check.timed_out,
    duration_ms: result.check.duration_ms,
    checkpoint: result.check.checkpoint_oid,
    why: result.why,
    evaluation: result.evaluation,
  };
  if (result.done && result.status !== "paused") {
    // The loop is over: its report (reference guide, "Loop Completion Flow").
    const { writeFinalReport } = await import("../../hooks/hook-log.js");
    const report = await writeFinalReport(store.repo.workTree, loop, settings.progress.qualityThreshold);
    if (report) ctx.stderr(`report: ${report}\n`);
  }
  if (result.done) {
    // The loop is over: exit 2 so `ralph iterate || break` ends a shell loop.
    if (result.evaluation !== "") ctx.stderr(`${result.evaluation}\n`);
    throw new RalphError("E_USAGE", `loop ${result.loop} is ${result.status} at iteration ${result.iteration}: ${result.why}`, { data: summary });
  }
  const tail = tailOf(result.outputTail, 40, 6_000);
  if (tail !== "") ctx.stderr(`${tail}\n`);
  if (result.evaluation !== "") ctx.stderr(`${result.evaluation}\n`);
  return {
    json: { ...summary, output_tail: result.outputTail },
    text: `iteration ${result.iteration}: ${result.passed ? "completion command passed, but BLOCK findings against the baseline remain" : `completion command ${result.check.timed_out ? "timed out" : `failed (exit ${result.check.exit_code ?? "signal"})`}`}; keep going (${result.why})`,
  };
}
