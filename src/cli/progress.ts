/**
 * Progress on stderr for work that takes over a second (issue 10, "Reports
 * that tell the truth": the first checkpoint of a large tree, the first
 * `ralph tests`, a long `ralph check`). Shown only when stderr is a
 * terminal: never in a hook (Claude Code and git read the hook's streams),
 * never into a pipe or a file, so `--json` output piped on is untouched.
 *
 * The work is synchronous (the snapshot walk) or awaits parsers, so no timer
 * is relied on: each {@link Progress.tick} checks the clock, prints nothing
 * for the first {@link PROGRESS_DELAY_MS}, then rewrites one line (`\r`,
 * erase to end of line, ECMA-48 `CSI K`) at most every
 * {@link PROGRESS_INTERVAL_MS}; {@link Progress.done} erases it when anything
 * was printed.
 */

/** Work shorter than this shows no progress, ms. */
export const PROGRESS_DELAY_MS = 1_000;
/** At most one redraw per this many ms. */
export const PROGRESS_INTERVAL_MS = 100;

/** A progress line for one piece of work. */
export interface Progress {
  /**
   * Reports `done` units of work (of `total` when known) under `label`
   * (e.g. `checkpoint: files read`). Prints only past the delay and the
   * throttle. Never throws.
   */
  tick(label: string, done: number, total?: number): void;
  /** Erases the line when one was printed. Idempotent. */
  done(): void;
}

/** What {@link createProgress} writes to and decides by (injectable for tests). */
export interface ProgressOptions {
  /** Whether the stream is a terminal; false: every call is a no-op. */
  isTerminal: boolean;
  write: (text: string) => void;
  /** Clock in ms (default `performance.now`). */
  now?: () => number;
  delayMs?: number;
  intervalMs?: number;
  /** Terminal width; the line is cut to fit (default 80). */
  columns?: number;
}

/** A progress line that does nothing (hooks, pipes). */
export const NO_PROGRESS: Progress = { tick: () => undefined, done: () => undefined };

/** A progress line on `options.write`, or {@link NO_PROGRESS} when it is not a terminal. */
export function createProgress(options: ProgressOptions): Progress {
  if (!options.isTerminal) return NO_PROGRESS;
  const now = options.now ?? (() => performance.now());
  const delay = options.delayMs ?? PROGRESS_DELAY_MS;
  const interval = options.intervalMs ?? PROGRESS_INTERVAL_MS;
  const width = Math.max(20, (options.columns ?? 80) - 1);
  const started = now();
  let lastDraw = -Infinity;
  let shown = false;
  const write = (text: string): void => {
    try {
      options.write(text);
    } catch {
      /* a closed terminal: progress is not worth failing for */
    }
  };
  return {
    tick(label, done, total) {
      const t = now();
      if (t - started < delay || t - lastDraw < interval) return;
      lastDraw = t;
      shown = true;
      const count = total === undefined ? `${done}` : `${done}/${total}`;
      const line = `ralph: ${label} ${count}`;
      write(`\r${line.length > width ? line.slice(0, width) : line}\x1b[K`);
    },
    done() {
      if (!shown) return;
      shown = false;
      write("\r\x1b[K");
    },
  };
}

/** The progress line of a CLI command on `stream` (the run's stderr) when it is a terminal (`isTTY`), else nothing. */
export function stderrProgress(stream: { isTTY?: boolean; columns?: number; write(text: string): unknown }): Progress {
  return createProgress({ isTerminal: stream.isTTY === true, write: (text) => void stream.write(text), ...(stream.columns ? { columns: stream.columns } : {}) });
}

/** {@link stderrProgress} on a command's stderr, with the terminal facts its run was given (src/cli/context.ts). */
export function commandProgress(ctx: { stderr: (text: string) => void; stderrIsTTY: boolean; stderrColumns?: number }): Progress {
  return stderrProgress({ isTTY: ctx.stderrIsTTY, write: ctx.stderr, ...(ctx.stderrColumns ? { columns: ctx.stderrColumns } : {}) });
}
