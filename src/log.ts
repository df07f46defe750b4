/**
 * The stderr logger. stdout carries results only (STYLE.md §5); everything a
 * person or a debugging session needs goes here. `debug` costs one boolean
 * test when off: pass a function to defer building the message.
 *
 * Enabled by `RALPH_DEBUG=1` (or any non-empty value other than "0").
 * Log ids, counts, paths and durations, never file contents or prompts.
 */

const isDebugOn = (): boolean => {
  const v = process.env.RALPH_DEBUG;
  return v !== undefined && v !== "" && v !== "0";
};

/** Writes one line to stderr when RALPH_DEBUG is set; `message` may be a thunk. */
export function debug(message: string | (() => string)): void {
  if (!isDebugOn()) return;
  process.stderr.write(`ralph: debug: ${typeof message === "function" ? message() : message}\n`);
}

/** Writes one warning line to stderr. */
export function warn(message: string): void {
  process.stderr.write(`ralph: warning: ${message}\n`);
}

/** Writes one informational line to stderr (progress, not results). */
export function info(message: string): void {
  process.stderr.write(`ralph: ${message}\n`);
}
