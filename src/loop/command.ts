/**
 * Running a loop's shell commands (completion, quality and metric
 * commands): `/bin/sh -c` in the work tree, in its own process group, with
 * a timeout that kills the whole group, output captured from the end. When
 * the command has exited (or timed out), what it left running is killed and
 * its pipes are no longer read (src/loop/leftovers.ts), so a background
 * child never keeps the hook process alive.
 *
 * The command's stdout and stderr are one FIFO (made with `mkfifo`, opened
 * at both ends and unlinked before the spawn): a real pipe whose inode every
 * descendant holding it shows in `/proc/<pid>/fd`, which libuv's socketpair
 * stdio does not give. Where `mkfifo` fails, ordinary `pipe` stdio is used.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { COMMAND_TOKEN_ENV, killLeftovers, newCommandToken, pipeOf, type HeldPipe } from "./leftovers.js";

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

/** A FIFO opened at both ends and already unlinked: the command writes `writeFd`, ralph reads `reader`. */
interface OutputFifo {
  writeFd: number;
  reader: Readable;
  /** What its holders show in `/proc/<pid>/fd` (null off Linux). */
  pipe: HeldPipe | null;
}

/**
 * Makes the command's output pipe: `mkfifo` in a fresh temp folder, the
 * read end opened non-blocking (so the open does not wait for a writer),
 * then the write end, then the name removed. Null when any step fails (no
 * `mkfifo`, a read-only temp folder); nothing is left behind either way.
 */
function openOutputFifo(): OutputFifo | null {
  let dir: string | null = null;
  let readFd: number | null = null;
  let writeFd: number | null = null;
  try {
    dir = mkdtempSync(join(tmpdir(), "ralph-cmd-"));
    const path = join(dir, "out");
    const made = spawnSync("mkfifo", ["-m", "600", path], { stdio: "ignore", timeout: 5_000 });
    if (made.error || made.status !== 0) return null;
    readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    writeFd = openSync(path, constants.O_WRONLY);
    // Unlinked first, so the link read is the one every holder shows (`… (deleted)`).
    rmSync(dir, { recursive: true, force: true });
    dir = null;
    const pipe = pipeOf(readFd);
    const reader = new Socket({ fd: readFd, readable: true, writable: false });
    readFd = null; // the socket owns it now
    const fifo: OutputFifo = { writeFd, reader, pipe };
    writeFd = null;
    return fifo;
  } catch {
    return null;
  } finally {
    if (readFd !== null) closeSync(readFd);
    if (writeFd !== null) closeSync(writeFd);
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs a completion command with `/bin/sh -c` in `cwd`, in its own process
 * group, stdin closed, in the environment `env` (the whole of it: callers
 * pass the run's, src/runtime-env.ts `vars`, plus their own variables;
 * default empty, sh's default PATH) with {@link COMMAND_TOKEN_ENV} set to a fresh cookie,
 * stdout and stderr on one FIFO ({@link openOutputFifo}).
 * On timeout the whole group gets SIGTERM, then SIGKILL after
 * {@link KILL_GRACE_MS}. Resolves (never rejects) once the shell has exited
 * and its pipes drained, or {@link PIPE_DRAIN_MS} after it exited: then
 * whatever is left of the command (its group, processes carrying the
 * cookie, processes holding its output pipe) is SIGKILLed and the pipe is
 * closed, so nothing the command started outlives the run or holds this
 * process.
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
    const fifo = openOutputFifo();
    let child: ChildProcess;
    try {
      child = spawn("/bin/sh", ["-c", command], {
        cwd: options.cwd,
        env: { ...(options.env ?? {}), [COMMAND_TOKEN_ENV]: token },
        stdio: fifo ? ["ignore", fifo.writeFd, fifo.writeFd] : ["ignore", "pipe", "pipe"],
        detached: true,
      });
    } catch (error) {
      if (fifo) {
        closeSync(fifo.writeFd);
        fifo.reader.destroy();
      }
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
    // The child has its copy of the write end; ralph keeps only the read end, so end-of-file comes when the last holder exits.
    if (fifo) closeSync(fifo.writeFd);
    const streams: Readable[] = fifo ? [fifo.reader] : [child.stdout, child.stderr].filter((s): s is Readable => s !== null);
    for (const stream of streams) {
      stream.on("data", append);
      stream.on("error", () => undefined);
    }
    let settled = false;
    const finish = (exitCode: number | null, signal: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      // Anything left of the command: its group, a setsid child (by its cookie or the pipe it holds); then stop reading.
      killLeftovers(child.pid, token, fifo?.pipe ?? null);
      for (const stream of streams) stream.destroy();
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
      const drained = (): void => {
        clearTimeout(drain);
        finish(code, signal);
      };
      if (fifo) {
        if (fifo.reader.readableEnded) drained();
        else fifo.reader.on("end", drained).on("close", drained);
      } else child.on("close", drained);
    });
  });
}
