/**
 * Writes a loop's report files (DESIGN.md "Loop engine": `analytics/`
 * beside `state.json`; reference/agent-persistence-integration.txt "Loop
 * Completion Flow" step 2 and its state update
 * `state.completion_report_path = report_path`).
 *
 * Under the loop's state lock: build the analytics from the locked state,
 * write `analytics.json`, `report.md` and `quality.svg` (each atomically:
 * temp file and rename), then record `completion_report_path` in the state.
 * The hook log is passed in already summarised (loop/ never imports hooks/).
 */
import { join, relative, sep } from "node:path";
import type { LoopId } from "../store/loop-id.js";
import { renderAnalyticsChart } from "./report-chart.js";
import { buildAnalytics, renderReportMarkdown, type HookLogSummary, type LoopAnalytics } from "./report.js";
import { loopDir, updateState, writeFileAtomic, writeLoopDocument, type StateLockOptions } from "./state.js";

/** The folder of the report files, relative to the loop folder. */
export const ANALYTICS_DIR = "analytics";

/** Absolute paths of the three report files. */
export interface ReportPaths {
  analytics: string;
  report: string;
  chart: string;
}

/** What {@link writeLoopReport} wrote. */
export interface WrittenReport {
  analytics: LoopAnalytics;
  paths: ReportPaths;
  /** `completion_report_path` as recorded in the state: report.md relative to the work tree, `/`-separated. */
  completionReportPath: string;
}

/** Where a loop's report files go (absolute paths). */
export function reportPaths(workTree: string, loop: LoopId): ReportPaths {
  const dir = join(loopDir(workTree, loop), ANALYTICS_DIR);
  return { analytics: join(dir, "analytics.json"), report: join(dir, "report.md"), chart: join(dir, "quality.svg") };
}

/**
 * Builds and writes the report of `loop` and records its path in the state.
 * @param options.nowIso the report's `generated_at`; options.qualityThreshold points 0-100 (default 70).
 * @throws RalphError E_UNKNOWN_LOOP, E_BAD_STATE, E_LOCKED (from updateState).
 */
export function writeLoopReport(workTree: string, loop: LoopId, hooks: HookLogSummary, options: { nowIso: string; qualityThreshold?: number } & StateLockOptions): WrittenReport {
  const paths = reportPaths(workTree, loop);
  const completionReportPath = relative(workTree, paths.report).split(sep).join("/");
  const { result } = updateState(
    workTree,
    loop,
    (state) => {
      const analytics = buildAnalytics(state, hooks, {
        nowIso: options.nowIso,
        ...(options.qualityThreshold === undefined ? {} : { qualityThreshold: options.qualityThreshold }),
      });
      writeLoopDocument(workTree, loop, `${ANALYTICS_DIR}/analytics.json`, analytics);
      writeFileAtomic(paths.chart, renderAnalyticsChart(analytics), { durable: false });
      writeFileAtomic(paths.report, renderReportMarkdown(analytics, state, { chartFile: "quality.svg" }), { durable: false });
      const changed = state.completion_report_path !== completionReportPath;
      state.completion_report_path = completionReportPath;
      return { result: analytics, changed };
    },
    options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs },
  );
  return { analytics: result, paths, completionReportPath };
}
