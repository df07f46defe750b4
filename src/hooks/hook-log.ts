/**
 * `.aiwg/ralph/loops/<loop>/hook-log.jsonl`: one line per hook call
 * (DESIGN.md "Loop engine"). Each line is written with O_APPEND in a single
 * write(2), so hooks running in parallel never interleave partial lines;
 * a reader skips any line it cannot parse.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync, constants } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";
import { ensureStateRoot } from "../loop/state.js";
import type { HookLogSummary } from "../loop/report.js";
import type { LoopId } from "../store/loop-id.js";
import { STATE_DIR } from "../store/snapshot.js";
import { info } from "../log.js";

/** One hook call. */
export interface HookLogEntry {
  /** ISO time the call ended. */
  ts: string;
  agent: string;
  event: string;
  loop: string;
  iteration: number | null;
  /** What was answered: allow | deny | ask | block | context | error | none. */
  decision: string;
  /** Whole call, from process start to the answer. */
  duration_ms: number;
  tool?: string;
  tool_use_id?: string;
  /** Checkpoint written by this call. */
  checkpoint?: string;
  /** Finding types behind a deny or block, or the error code of a failed call. */
  findings?: string[];
  why?: string;
}

/** The folder of a loop's state files. */
export function loopStateDir(workTree: string, loop: LoopId | string): string {
  return join(workTree, STATE_DIR, "loops", loop);
}

/** Appends one entry as one line (a single O_APPEND write); creates the state folder (ignored by git) on first use. */
export function appendHookLog(workTree: string, loop: LoopId | string, entry: HookLogEntry): void {
  const dir = loopStateDir(workTree, loop);
  if (!existsSync(dir)) {
    ensureStateRoot(workTree); // `.aiwg/ralph/.gitignore`: the state folder never shows in `git status`
    mkdirSync(dir, { recursive: true });
  }
  const fd = openSync(join(dir, "hook-log.jsonl"), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o644);
  try {
    writeSync(fd, `${JSON.stringify(entry)}\n`);
  } finally {
    closeSync(fd);
  }
}

/** The entries of one loop's log (unparsable lines skipped); empty when there is none. */
export function readHookLog(workTree: string, loop: string): HookLogEntry[] {
  let text: string;
  try {
    text = readFileSync(join(loopStateDir(workTree, loop), "hook-log.jsonl"), "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
    throw error;
  }
  const out: HookLogEntry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const entry = JSON.parse(line) as HookLogEntry;
      if (typeof entry.event === "string" && typeof entry.duration_ms === "number") out.push(entry);
    } catch {
      /* a torn or foreign line: skipped */
    }
  }
  return out;
}

/** Loops that have a state folder. */
export function listLoggedLoops(workTree: string): string[] {
  try {
    return readdirSync(join(workTree, STATE_DIR, "loops")).sort();
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
    throw error;
  }
}

/** Nearest-rank percentile (p in 0-100) of already sorted values; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** Latency of one event. */
export interface EventLatency {
  event: string;
  calls: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  total_ms: number;
  /** Calls per decision. */
  decisions: Record<string, number>;
}

/** p50/p95/p99 per event, events in order of first appearance. */
export function summarizeHookLog(entries: readonly HookLogEntry[]): EventLatency[] {
  const byEvent = new Map<string, HookLogEntry[]>();
  for (const entry of entries) {
    let list = byEvent.get(entry.event);
    if (!list) byEvent.set(entry.event, (list = []));
    list.push(entry);
  }
  const round = (n: number): number => Math.round(n * 10) / 10;
  return [...byEvent].map(([event, list]) => {
    const sorted = list.map((e) => e.duration_ms).sort((a, b) => a - b);
    const decisions: Record<string, number> = {};
    for (const e of list) decisions[e.decision] = (decisions[e.decision] ?? 0) + 1;
    return {
      event,
      calls: list.length,
      p50_ms: round(percentile(sorted, 50)),
      p95_ms: round(percentile(sorted, 95)),
      p99_ms: round(percentile(sorted, 99)),
      max_ms: round(sorted[sorted.length - 1] ?? 0),
      total_ms: round(sorted.reduce((a, b) => a + b, 0)),
      decisions,
    };
  });
}

/**
 * Share of a loop's wall time spent inside hooks, in percent: the summed
 * hook durations over the span from the first call's start to the last
 * call's end; null with fewer than two calls.
 */
export function hookSharePercent(entries: readonly HookLogEntry[]): number | null {
  if (entries.length < 2) return null;
  const ends = entries.map((e) => Date.parse(e.ts)).filter((t) => Number.isFinite(t));
  if (ends.length !== entries.length) return null;
  const start = Math.min(...entries.map((e, i) => (ends[i] as number) - e.duration_ms));
  const spanMs = Math.max(...ends) - start;
  if (spanMs <= 0) return null;
  const busyMs = entries.reduce((sum, e) => sum + e.duration_ms, 0);
  return Math.round(Math.min(100, (busyMs / spanMs) * 100) * 10) / 10;
}

/**
 * Summarises hook-log entries for the loop report (src/loop/report.ts
 * `HookLogSummary`): latency per event, over all calls, and the share of
 * the loop's time spent in hooks (percent 0-100).
 */
export function summarizeForReport(entries: readonly HookLogEntry[]): HookLogSummary {
  const overall = summarizeHookLog(entries.map((e) => ({ ...e, event: "all" })))[0];
  return {
    events: summarizeHookLog(entries),
    overall: overall ? { calls: overall.calls, p95_ms: overall.p95_ms, p99_ms: overall.p99_ms } : null,
    hook_share_percent: hookSharePercent(entries),
  };
}

/**
 * Writes a loop's report (reference guide, "Loop Completion Flow":
 * generate the progress report when the loop ends) with its hook log.
 * Best effort: returns the report.md path, or null with the problem on
 * stderr; a loop's end never fails over its report.
 */
export async function writeFinalReport(workTree: string, loop: LoopId, qualityThreshold?: number): Promise<string | null> {
  try {
    const { writeLoopReport } = await import("../loop/report-writer.js");
    const written = writeLoopReport(workTree, loop, summarizeForReport(readHookLog(workTree, loop)), {
      nowIso: new Date().toISOString(),
      ...(qualityThreshold === undefined ? {} : { qualityThreshold }),
    });
    return written.paths.report;
  } catch (error) {
    info(`could not write the report of loop ${loop}: ${(error as Error).message}`);
    return null;
  }
}
