/**
 * `ralph start TASK --completion CMD [--max-iterations N] [--id ID] [--completion-timeout MS] [--auto-extend] [--session ID] [--json]`:
 * create a loop (state, baseline checkpoint, active mark), or resume the
 * active / crashed one (src/loop/lifecycle.ts startLoop). A completion
 * limit the installed Claude Code Stop hook's timeout does not cover is
 * refused (exit 2) before anything is written. A resumed loop
 * keeps its own --completion, --max-iterations, --completion-timeout and
 * --quality: given values that differ are named in a warning on stderr
 * (and JSON `warnings`) with how to apply them (cancel, start anew).
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { ensureBaselineMetrics, startLoop } from "../../loop/lifecycle.js";
import { relative } from "node:path";
import type { RalphConfig, ReadonlyConfig } from "../../config/schema.js";
import { installedStopTimeoutSec } from "../../hooks/claude-settings.js";
import { readSettingsFile, settingsPathFor } from "../../hooks/settings-file.js";
import { cleanSessionId, MAX_SESSION_ID_LENGTH, takeOwnerClaim } from "../../loop/owner.js";
import { loadLoopSettings, STOP_OVERHEAD_MS, stopHookBudgetMs } from "../../loop/settings.js";
import type { OwnerSource } from "../../loop/state.js";
import { parseLoopId } from "../../store/loop-id.js";
import { HARD_MAX_ITERATIONS, type MetricsSnapshot } from "../../loop/state.js";
import { commandProgress } from "../progress.js";
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
  session: z.optional(stringOption),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "start");
  const task = (args[0] ?? "").trim();
  if (task === "") throw new RalphError("E_USAGE", "the task is empty: usage 'ralph start TASK --completion CMD'", { data: { command: "start" } });
  const store = openStore(ctx);
  const { settings, loaded } = await loadLoopSettings(store.repo.workTree, ctx.env.vars);
  const loopConfig = loaded.config.loop;
  const completion = options.completion ?? loopConfig.completion_command ?? "";
  if (completion.trim() === "") {
    throw new RalphError("E_USAGE", "no completion command: pass --completion CMD (or set agent_persistence.loop.completion_command in aiwg.yml)", { data: { command: "start" } });
  }
  const completionTimeoutMs = options.completionTimeout ?? loopConfig.completion_timeout_ms;
  const quality = options.quality ?? loopConfig.quality_command;
  refuseBeyondStopHook(store.repo.workTree, loaded.config, completionTimeoutMs, quality, options.completionTimeout !== undefined);
  const owner = ownerFor(store.repo.workTree, options.session);
  // Progress on stderr while it is a terminal: the baseline of a large tree reads every file.
  const progress = commandProgress(ctx);
  let result: ReturnType<typeof startLoop>;
  try {
    result = startLoop(store, {
      onProgress: (seen, hashed) => progress.tick(`baseline checkpoint: files read (${hashed} new)`, seen),
      task,
      completion,
      maxIterations: options.maxIterations ?? loopConfig.max_iterations,
      id: options.id,
      completionTimeoutMs,
      autoExtend: options.autoExtend ?? loopConfig.auto_extend,
      quality,
      owner,
    });
  } finally {
    progress.done();
  }
  const baselineMetrics = await ensureBaselineMetrics(store, parseLoopId(result.state.loop_id), settings);
  const s = result.state;
  // A resumed loop keeps its own settings: say which of the given ones were not applied, and how to apply them.
  const kept: string[] = [];
  if (result.resumed) {
    if (options.completion !== undefined && options.completion !== s.completion_criteria)
      kept.push(`--completion ${JSON.stringify(s.completion_criteria)} (not ${JSON.stringify(options.completion)})`);
    if (options.maxIterations !== undefined && options.maxIterations !== s.configuration.max_iterations) kept.push(`--max-iterations ${s.configuration.max_iterations} (not ${options.maxIterations})`);
    if (options.completionTimeout !== undefined && options.completionTimeout !== s.configuration.completion_timeout_ms)
      kept.push(`--completion-timeout ${s.configuration.completion_timeout_ms} ms (not ${options.completionTimeout})`);
    if (options.quality !== undefined && options.quality !== s.quality_command) kept.push(`--quality ${JSON.stringify(s.quality_command)} (not ${JSON.stringify(options.quality)})`);
  }
  const warnings =
    kept.length === 0 ? [] : [`loop ${s.loop_id} was resumed with its own settings: ${kept.join(", ")}; to use the new ones, end it with 'ralph cancel' and run 'ralph start' again with another --id`];
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
      owner_session_id: s.owner_session_id,
      owner_source: s.owner_source,
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

/**
 * The loop's owner session: `--session ID` (validated), else the claim a
 * PreToolUse hook left when the agent ran this `ralph start` through its
 * Bash tool (src/loop/owner.ts), else none.
 * @throws RalphError E_USAGE for an empty, overlong or control-character id.
 */
function ownerFor(workTree: string, session: string | undefined): { sessionId: string; source: OwnerSource } | null {
  if (session !== undefined) {
    const id = cleanSessionId(session);
    if (!id)
      throw new RalphError("E_USAGE", `--session needs a Claude Code session id (1-${MAX_SESSION_ID_LENGTH} printable characters), got ${JSON.stringify(session.slice(0, 40))}`, {
        data: { command: "start" },
      });
    return { sessionId: id, source: "start" };
  }
  const claimed = takeOwnerClaim(workTree);
  return claimed ? { sessionId: claimed, source: "bash" } : null;
}

/**
 * Refuses a completion limit that the installed Claude Code Stop hook does
 * not cover: Claude Code kills the hook at its `timeout` (hooks reference),
 * mid-check, and the loop would never see its command finish. Checked
 * against ralph's Stop entries in `.claude/settings.json` and
 * `.claude/settings.local.json` (the shorter wins); nothing to check when
 * neither has one (a shell-driven loop).
 * @throws RalphError E_USAGE naming the installed timeout, the largest limit that fits, and `ralph install --claude`.
 */
function refuseBeyondStopHook(workTree: string, config: ReadonlyConfig | RalphConfig, completionTimeoutMs: number, quality: string | null, fromFlag: boolean): void {
  let installedSec: number | null = null;
  let where = "";
  for (const local of [false, true]) {
    const path = settingsPathFor(workTree, local);
    let settings;
    try {
      settings = readSettingsFile(path);
    } catch {
      continue; // an unreadable settings file is doctor's to report
    }
    const sec = settings ? installedStopTimeoutSec(settings) : null;
    if (sec !== null && (installedSec === null || sec < installedSec)) {
      installedSec = sec;
      where = relative(workTree, path);
    }
  }
  if (installedSec === null) return;
  const neededMs = stopHookBudgetMs(config, completionTimeoutMs, quality);
  if (neededMs <= installedSec * 1000) return;
  const fitsMs = installedSec * 1000 - (neededMs - completionTimeoutMs);
  const given = fromFlag ? `--completion-timeout ${completionTimeoutMs}` : `loop.completion_timeout_ms ${completionTimeoutMs}`;
  throw new RalphError(
    "E_USAGE",
    `${given} ms does not fit the Stop hook's timeout of ${installedSec} s in ${where} (a stop needs ${Math.ceil(neededMs / 1000)} s with the other commands and ${STOP_OVERHEAD_MS / 1000} s for ralph): Claude Code would kill the hook mid-check; ${fitsMs >= 100 ? `use at most ${fitsMs} ms, or ` : ""}set agent_persistence.loop.completion_timeout_ms in aiwg.yml and run 'ralph install --claude' again, which sizes the hook timeout to cover it`,
    { data: { command: "start", completion_timeout_ms: completionTimeoutMs, stop_timeout_sec: installedSec, settings: where } },
  );
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
