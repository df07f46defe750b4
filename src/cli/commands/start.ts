/**
 * `ralph start TASK --completion CMD [--max-iterations N] [--id ID] [--completion-timeout MS] [--auto-extend] [--json]`:
 * create a loop (state, baseline checkpoint, active mark), or resume the
 * active / crashed one (src/loop/lifecycle.ts startLoop). A resumed loop
 * keeps its own --completion, --max-iterations, --completion-timeout and
 * --quality: given values that differ are named in a warning on stderr
 * (and JSON `warnings`) with how to apply them (cancel, start anew).
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { ensureBaselineMetrics, startLoop } from "../../loop/lifecycle.js";
import { loadLoopSettings } from "../../loop/settings.js";
import { parseLoopId } from "../../store/loop-id.js";
import { HARD_MAX_ITERATIONS, type MetricsSnapshot } from "../../loop/state.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { numberOption, parseOptions, stringOption } from "../options.js";
import { openStore, shortOid } from "./shared.js";

const Options = z.strictObject({
  completion: z.optional(stringOption),
  quality: z.optional(stringOption),
  maxIterations: z.optional(numberOption({ integer: true, min: 1, max: HARD_MAX_ITERATIONS })),
  id: z.optional(stringOption),
  completionTimeout: z.optional(numberOption({ integer: true, min: 100 })),
  autoExtend: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "start");
  const task = (args[0] ?? "").trim();
  if (task === "") throw new RalphError("E_USAGE", "the task is empty: usage 'ralph start TASK --completion CMD'", { data: { command: "start" } });
  const store = openStore(ctx);
  const { settings, loaded } = await loadLoopSettings(store.repo.workTree);
  const loopConfig = loaded.config.loop;
  const completion = options.completion ?? loopConfig.completion_command ?? "";
  if (completion.trim() === "") {
    throw new RalphError("E_USAGE", "no completion command: pass --completion CMD (or set agent_persistence.loop.completion_command in aiwg.yml)", { data: { command: "start" } });
  }
  const result = startLoop(store, {
    task,
    completion,
    maxIterations: options.maxIterations ?? loopConfig.max_iterations,
    id: options.id,
    completionTimeoutMs: options.completionTimeout ?? loopConfig.completion_timeout_ms,
    autoExtend: options.autoExtend ?? loopConfig.auto_extend,
    quality: options.quality ?? loopConfig.quality_command,
  });
  const baselineMetrics = await ensureBaselineMetrics(store, parseLoopId(result.state.loop_id), settings);
  const s = result.state;
  // A resumed loop keeps its own settings: say which of the given ones were not applied, and how to apply them.
  const kept: string[] = [];
  if (result.resumed) {
    if (options.completion !== undefined && options.completion !== s.completion_criteria) kept.push(`--completion ${JSON.stringify(s.completion_criteria)} (not ${JSON.stringify(options.completion)})`);
    if (options.maxIterations !== undefined && options.maxIterations !== s.configuration.max_iterations) kept.push(`--max-iterations ${s.configuration.max_iterations} (not ${options.maxIterations})`);
    if (options.completionTimeout !== undefined && options.completionTimeout !== s.configuration.completion_timeout_ms) kept.push(`--completion-timeout ${s.configuration.completion_timeout_ms} ms (not ${options.completionTimeout})`);
    if (options.quality !== undefined && options.quality !== s.quality_command) kept.push(`--quality ${JSON.stringify(s.quality_command)} (not ${JSON.stringify(options.quality)})`);
  }
  const warnings = kept.length === 0 ? [] : [`loop ${s.loop_id} was resumed with its own settings: ${kept.join(", ")}; to use the new ones, end it with 'ralph cancel' and run 'ralph start' again with another --id`];
  for (const warning of warnings) ctx.stderr(`ralph: warning: ${warning}\n`);
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
      baseline_metrics: baselineMetrics,
      quality_command: s.quality_command,
      state_path: `.aiwg/ralph/loops/${s.loop_id}/state.json`,
      warnings,
    },
    text: [
      `${verb} (baseline ${shortOid(result.baseline)}, max ${s.configuration.max_iterations} iterations)`,
      `completion: ${s.completion_criteria}`,
      ...(s.quality_command ? [`quality: ${s.quality_command}`] : []),
      ...(baselineMetrics ? [`baseline metrics: ${describeMetrics(baselineMetrics)}`] : []),
    ].join("\n"),
  };
}

/** `test_count 42, coverage 81.2%, …` for the metrics that were measured. */
function describeMetrics(m: MetricsSnapshot): string {
  const parts = [
    m.test_count !== null ? `${m.test_count} tests` : null,
    m.assertion_count !== null ? `${m.assertion_count} assertions` : null,
    m.coverage_percentage !== null ? `coverage ${m.coverage_percentage}%` : null,
    m.typescript_errors !== null ? `${m.typescript_errors} TypeScript errors` : null,
    m.lint_errors !== null ? `${m.lint_errors} lint errors` : null,
  ].filter((p): p is string => p !== null);
  return parts.join(", ") || "none measured";
}
