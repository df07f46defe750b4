/**
 * Running a loop's shell commands (completion, quality and metric
 * commands): `/bin/sh -c` in the work tree, in its own process group, with
 * a timeout that kills the whole group, output captured from the end. When
 * the command has exited (or timed out), what it left running is killed and
 * its pipes are no longer read (src/loop/leftovers.ts), so a background
 * child never keeps the hook process alive.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { COMMAND_TOKEN_ENV, killLeftovers, newCommandToken } from "./leftovers.js";

/** The outcome of one completion command run. */
export interface CommandRun {
  /** Exit code, or null when killed (signal or timeout). */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  /** The end of stdout and stderr, interleaved as they arrived (at most {@link MAX_CAPTURE_CHARS}). */
  output: string;
}

/** How much command output is kept, in characters (the end of it). */
export const MAX_CAPTURE_CHARS = 64 * 1024;
/** After SIGTERM to a timed-out check's process group, how long before SIGKILL, in ms. */
export const KILL_GRACE_MS = 2_000;
/** After the shell exits, how long its pipes may take to reach end-of-file before ralph stops reading them, in ms. */
export const PIPE_DRAIN_MS = 200;

/**
 * Runs a completion command with `/bin/sh -c` in `cwd`, in its own process
 * group, stdin closed, with {@link COMMAND_TOKEN_ENV} set to a fresh cookie.
 * On timeout the whole group gets SIGTERM, then SIGKILL after
 * {@link KILL_GRACE_MS}. Resolves (never rejects) once the shell has exited
 * and its pipes drained, or {@link PIPE_DRAIN_MS} after it exited: then
 * whatever is left of the command (its group, processes carrying the
 * cookie) is SIGKILLed and the pipes are closed, so
 * nothing the command started outlives the run or holds this process.
 */
export function runCompletionCommand(command: string, options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<CommandRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    let output = "";
    const append = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      if (output.length > MAX_CAPTURE_CHARS * 2) output = output.slice(output.length - MAX_CAPTURE_CHARS);
    };
    const token = newCommandToken();
    let child: ChildProcess;
    try {
      child = spawn("/bin/sh", ["-c", command], {
        cwd: options.cwd,
        env: { ...process.env, ...options.env, [COMMAND_TOKEN_ENV]: token },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
    } catch (error) {
      resolve({ exitCode: null, signal: null, timedOut: false, durationMs: performance.now() - started, output: `ralph: cannot run the command: ${(error as Error).message}` });
      return;
    }
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        /* the group is gone */
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    }, options.timeoutMs);
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    let settled = false;
    const finish = (exitCode: number | null, signal: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      // Anything left of the command: its group, a setsid child (by its cookie); then stop reading.
      killLeftovers(child.pid, token);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const text = output.length > MAX_CAPTURE_CHARS ? output.slice(output.length - MAX_CAPTURE_CHARS) : output;
      resolve({ exitCode: timedOut ? null : exitCode, signal, timedOut, durationMs: performance.now() - started, output: text });
    };
    child.on("error", (error) => {
      append(Buffer.from(`ralph: cannot run the command: ${error.message}\n`));
      finish(null, null);
    });
    child.on("exit", (code, signal) => {
      // Give the pipes a moment to drain; a grandchild holding them open is not waited for.
      const drain = setTimeout(() => finish(code, signal), PIPE_DRAIN_MS);
      child.on("close", () => {
        clearTimeout(drain);
        finish(code, signal);
      });
    });
  });
}

