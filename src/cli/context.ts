/**
 * What every command receives and returns. Commands return data; reporters
 * print; only main.ts sets the exit code (STYLE.md §2).
 */

/** The process facts a command may use; injected so tests run commands in-process. */
export interface CommandContext {
  /** Working directory the command acts on (never process.chdir). */
  cwd: string;
  /** Writes to stdout (results only). */
  stdout: (text: string) => void;
  /** Writes to stderr (diagnostics). */
  stderr: (text: string) => void;
}

/**
 * A command's result: `json` is printed with --json (or --format json),
 * `text` otherwise; `exitCode` 1 only for check findings at or above the
 * fail threshold, 2 for a report that found something the user must fix
 * (`ralph doctor`: an installed hook that does not answer).
 */
export interface CommandOutput {
  json: unknown;
  text: string;
  exitCode?: 0 | 1 | 2;
}
