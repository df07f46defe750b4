/**
 * `ralph stats [--loop ID] [--json]`: hook latency per event (p50, p95,
 * p99, max, in ms over the whole hook process) from the loops'
 * `hook-log.jsonl`, and each loop's share of time spent in hooks; every
 * loop with a log unless --loop names one.
 */
import * as z from "zod/mini";
import { hookSharePercent, listLoggedLoops, readHookLog, summarizeHookLog, type EventLatency, type HookLogEntry } from "../../hooks/hook-log.js";
import { parseLoopId } from "../../store/loop-id.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { openStore } from "./shared.js";

const Options = z.strictObject({
  loop: z.optional(stringOption),
  json: z.optional(z.boolean()),
});

function table(rows: EventLatency[]): string {
  const header = ["event", "calls", "p50 ms", "p95 ms", "p99 ms", "max ms"];
  const body = rows.map((r) => [r.event, String(r.calls), String(r.p50_ms), String(r.p95_ms), String(r.p99_ms), String(r.max_ms)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  return [header, ...body].map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join("  ")).join("\n");
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "stats");
  const workTree = openStore(ctx).repo.workTree;
  const loops = options.loop !== undefined ? [parseLoopId(options.loop)] : listLoggedLoops(workTree);
  const all: HookLogEntry[] = [];
  const perLoop = loops
    .map((loop) => {
      const entries = readHookLog(workTree, loop);
      all.push(...entries);
      return { loop, calls: entries.length, hook_share_percent: hookSharePercent(entries), events: summarizeHookLog(entries) };
    })
    .filter((l) => l.calls > 0);
  const events = summarizeHookLog(all);
  const shares = perLoop.filter((l) => l.hook_share_percent !== null).map((l) => `${l.loop} ${l.hook_share_percent}%`);
  const text =
    all.length === 0
      ? "ralph: no hook calls logged yet"
      : `${table(events)}\n(${all.length} calls in ${perLoop.length} loop(s); whole hook process, ms)${shares.length > 0 ? `\ntime in hooks (share of each loop's span from first to last call): ${shares.join(", ")}` : ""}`;
  return { json: { calls: all.length, events, loops: perLoop }, text };
}
