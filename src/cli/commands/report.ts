/**
 * `ralph report [--loop ID] [--threshold N] [--json]`: the loop's progress
 * report (reference/agent-persistence-integration.txt "Loop Completion
 * Flow", step 2): writes `.aiwg/ralph/loops/<loop>/analytics/analytics.json`,
 * `report.md` and `quality.svg`, records `completion_report_path` in the
 * state, and prints a short summary with a sparkline of quality (or, with
 * --json, the analytics object plus `paths`). A loop with no ended
 * iteration still gets a report that says so.
 */
import { relative } from "node:path";
import * as z from "zod/mini";
import { readHookLog, summarizeForReport } from "../../hooks/hook-log.js";
import { loadLoop } from "../../loop/lifecycle.js";
import { formatDuration, sparkline, type LoopAnalytics } from "../../loop/report.js";
import { loadLoopSettings } from "../../loop/settings.js";
import { writeLoopReport } from "../../loop/report-writer.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { numberOption, parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  threshold: z.optional(numberOption({ min: 0, max: 100 })),
  json: z.optional(z.boolean()),
});

function summaryLines(a: LoopAnalytics): string[] {
  const lines = [`loop ${a.loop_id}: ${a.status}${a.status_reason ? ` (${a.status_reason})` : ""}, ${a.iterations.length} iteration(s)`];
  if (a.iterations.length === 0) {
    lines.push("no iteration has ended yet: nothing to chart");
  } else {
    const scores = a.iterations.map((it) => it.quality_score);
    const bestPart =
      a.best_vs_final !== 0
        ? `best ${a.optimal_quality} at #${a.optimal_iteration}, final ${a.final_quality} at #${a.final_iteration}: ${a.best_vs_final} point(s) below best`
        : a.optimal_iteration === a.final_iteration
          ? `final #${a.final_iteration} is the best`
          : `final #${a.final_iteration} ties the best, first reached at #${a.optimal_iteration}`;
    lines.push(`quality ${sparkline(scores)}  ${scores[0]} -> ${a.final_quality} (${bestPart})`);
    lines.push(`trajectory ${a.quality_trajectory}${a.diminishing_returns ? ", diminishing returns" : ""}`);
    const c = a.select_best_candidate;
    lines.push(
      c
        ? `ralph select --best would restore #${c.iteration} (${c.quality_score}, ${c.verified ? "verified" : "not verified"})`
        : `no iteration reached the threshold ${a.quality_threshold}: nothing for ralph select --best`,
    );
  }
  const r = a.totals.regressions;
  const outcomes = Object.entries(r.by_outcome)
    .map(([k, n]) => `${n} ${k.replace(/_/g, " ")}`)
    .join(", ");
  lines.push(`regressions ${r.total}${r.total > 0 ? ` (${outcomes})` : ""}, recoveries ${a.totals.recoveries.total}`);
  const perf = a.performance.targets
    .map((t) => `${t.metric.replace(/_ms$|_percentage$/, "").replace(/_/g, " ")} ${t.value === null ? "n/a" : `${t.value}${t.unit === "ms" ? " ms" : "%"} ${t.met ? "ok" : "MISSED"}`}`)
    .join("; ");
  lines.push(`targets: ${perf}`);
  const overhead = a.performance.targets.find((t) => t.metric === "integration_overhead_percentage");
  if (overhead && overhead.met === false && overhead.source === "hook-log") {
    // The figure is the hooks' share of the hook log's span: with no agent thinking time between hook calls it is near 100%.
    lines.push(
      "  integration overhead: the hooks' share of the time between the first and last hook call; a session with little agent time between calls (a scripted one, like ralph demo's) makes it high without any hook being slow",
    );
  }
  if (a.totals.duration_ms !== null) lines.push(`iteration time ${formatDuration(a.totals.duration_ms)}`);
  return lines;
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "report");
  const store = openStore(ctx);
  const workTree = store.repo.workTree;
  const loop = commandLoop(store, options.loop, "state");
  loadLoop(workTree, loop); // E_UNKNOWN_LOOP with its hint before any file is written
  const hooks = summarizeForReport(readHookLog(workTree, loop));
  const threshold = options.threshold ?? (await loadLoopSettings(workTree, ctx.env.vars)).settings.progress.qualityThreshold;
  const written = writeLoopReport(workTree, loop, hooks, { nowIso: new Date().toISOString(), qualityThreshold: threshold });
  const shown = (path: string): string => relative(ctx.cwd, path) || path;
  const text = [...summaryLines(written.analytics), `wrote ${shown(written.paths.report)}`, `      ${shown(written.paths.analytics)}`, `      ${shown(written.paths.chart)}`].join("\n");
  return {
    json: { ...written.analytics, paths: written.paths, completion_report_path: written.completionReportPath },
    text,
  };
}
