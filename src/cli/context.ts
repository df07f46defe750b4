/**
 * What every command receives and returns. Commands return data; reporters
 * print; only main.ts sets the exit code (STYLE.md §2).
 */
import type { Readable } from "node:stream";
import type { RuntimeEnv } from "../runtime-env.js";

/**
 * The process facts a command may use, read once at the boundary
 * (`runCli`, src/cli/run.ts) and injected, so commands run in-process, in
 * tests and in a warm process serving many runs. No command reads
 * `process.env`, `process.cwd()` or the standard streams.
 */
export interface CommandContext {
  /** Working directory the command acts on (never process.chdir). */
  cwd: string;
  /** The run's environment, parsed (src/runtime-env.ts); `env.vars` is the whole of it, for children. */
  env: RuntimeEnv;
  /** Standard input. */
  stdin: Readable;
  /** Writes to stdout (results only). */
  stdout: (text: string) => void;
  /** Writes to stderr (diagnostics). */
  stderr: (text: string) => void;
  /** Whether stdout is a terminal (colours in text reports). */
  stdoutIsTTY: boolean;
  /** Whether stderr is a terminal (progress lines). */
  stderrIsTTY: boolean;
  /** stderr's width in columns when it is a terminal, else undefined. */
  stderrColumns?: number;
  /** The absolute path of the cli.js that answers (src/cli/run.ts `CliIo.cliPath`), for what installs or runs ralph. */
  cliPath?: string;
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
