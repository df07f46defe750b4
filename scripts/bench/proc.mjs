// Running and timing fresh processes, and summarising samples.
import { spawnSync } from "node:child_process";

/** A single process run must not hang the benchmark. */
const RUN_TIMEOUT_MS = 5 * 60_000;

/**
 * Runs one process to completion and measures its wall time (spawn to exit,
 * as a hook caller sees it).
 * @returns {{ durationMs: number, status: number | null, signal: string | null, stdout: string, stderr: string, error?: Error }}
 */
export function runTimed(command, args, { cwd, env } = {}) {
  const startMs = performance.now();
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", maxBuffer: 256 << 20, timeout: RUN_TIMEOUT_MS });
  const durationMs = performance.now() - startMs;
  return { durationMs, status: result.status, signal: result.signal, stdout: result.stdout ?? "", stderr: result.stderr ?? "", error: result.error };
}

/** Runs a process and returns its stdout; throws a one-line error if it fails. */
export function runOrThrow(command, args, options = {}) {
  const result = runTimed(command, args, options);
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${describeFailure(result)}`);
  return result.stdout;
}

/**
 * One line explaining a failed run: exit code (or signal / spawn error) and the
 * most telling stderr line: never Node's stack frames, an error's property
 * dump or the version footer.
 */
export function describeFailure(result) {
  if (result.error && result.status === null && !result.signal) return `could not start: ${result.error.message}`;
  const how = result.signal ? `killed by ${result.signal}${result.error ? " (timeout)" : ""}` : `exit ${result.status}`;
  const lines = (result.stderr || result.stdout || "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("at ") && !/^Node\.js v\d/.test(line));
  // Best first: a tool's own error line (esbuild's `✘ [ERROR] …`, `error: …`), then the last thrown `…Error: …`, then the tail.
  const toolError = lines.find((line) => /\[ERROR\]|^(\w+: )?error:/i.test(line));
  const thrown = lines.filter((line) => /^[A-Za-z]*(Error|Exception)\b/.test(line)).pop();
  const tail = toolError ?? thrown ?? lines.slice(-2).join(" | ");
  return `${how}${tail ? `: ${tail.length > 220 ? `${tail.slice(0, 217)}...` : tail}` : ""}`;
}

/** Median, min and max of durations in ms (rounded to 0.1 ms), plus the raw samples. */
export function summarize(samplesMs) {
  if (samplesMs.length === 0) return null;
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const round = (ms) => Math.round(ms * 10) / 10;
  return { medianMs: round(median), minMs: round(sorted[0]), maxMs: round(sorted[sorted.length - 1]), runs: sorted.length, samplesMs: samplesMs.map(round) };
}
