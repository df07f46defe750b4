/**
 * The whole CLI as one function: argv and the process facts in, output
 * through callbacks, the exit code out. `dist/cli.js` (main.ts) calls it with
 * the real process; tests and the warm per-repository process call it with
 * their own streams, so one code path serves all three.
 */
import type { Readable } from "node:stream";
import { ExitCode, toRalphError } from "../errors.js";
import { withRun } from "../log.js";
import { parseRuntimeEnv, type RuntimeEnv } from "../runtime-env.js";
import type { WarmScan } from "../store/warm-scan.js";

/**
 * The process facts one CLI run may use, read once at the boundary.
 * Nothing below `runCli` reads `process.env`, `process.cwd()` or the
 * standard streams; it uses these.
 */
export interface CliIo {
  /** Directory the command acts on (never process.chdir). */
  cwd: string;
  /** The run's environment (RALPH_*, CI, GIT_*, HOME, PATH, TERM, …), parsed once here (src/runtime-env.ts); children ralph spawns get this one. */
  env: NodeJS.ProcessEnv;
  /** Standard input (hook payloads, the pre-push ref lines). */
  stdin: Readable;
  /** Writes to stdout (results only). */
  stdout: (text: string) => void;
  /** Writes to stderr (diagnostics, progress). */
  stderr: (text: string) => void;
  /** Whether stdout is a terminal (colours in text reports); default false. */
  stdoutIsTTY?: boolean;
  /** Whether stderr is a terminal (progress lines, the git hook's colours); default false. */
  stderrIsTTY?: boolean;
  /** stderr's width in columns when it is a terminal. */
  stderrColumns?: number;
  /**
   * When the calling process started, ms since the epoch (its
   * `performance.timeOrigin`); default this process's. The hook log's
   * whole-process durations count from it, so a call a warm process answers
   * reports the client's time, not the warm process's age.
   */
  processStartMs?: number;
  /**
   * The path of the cli.js that answers (main.ts: its own script, `argv[1]`):
   * what `ralph install` writes into hooks (resolved to its real path) and
   * `ralph demo` runs. Undefined when there is none (those commands then fail with E_INTERNAL).
   */
  cliPath?: string;
  /**
   * The warm process's link to its work tree watcher for this run
   * (src/daemon/server.ts, src/store/warm-scan.ts); the run's snapshots take
   * their dirty set from it. Undefined in a cold process.
   */
  warmScan?: WarmScan;
}

/**
 * Runs one ralph command line (`argv` without the node and script paths)
 * and returns its exit code (src/errors.ts `ExitCode`). Never throws: an
 * error becomes one line on stderr (and, with --json, an `{"error": …}`
 * object on stdout) and its class's exit code; a hook call fails open
 * (exit 0 and `{}` for an agent; git hooks speak through the exit code).
 */
export async function runCli(argv: readonly string[], io: CliIo, version: string): Promise<number> {
  const parsed = parseRuntimeEnv(io.env);
  const env = io.warmScan === undefined ? parsed : { ...parsed, warmScan: io.warmScan };
  return withRun({ stderr: io.stderr, env }, () => runParsed(argv, io, env, version));
}

async function runParsed(argv: readonly string[], io: CliIo, env: RuntimeEnv, version: string): Promise<number> {
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    io.stdout(`${version}\n`);
    return ExitCode.ok;
  }
  // Agent hooks follow the agent's protocol (one JSON object, exit 0, fail open; git's pre-push: exit 1 to refuse) and load
  // only what their event needs: no cac, no command table (src/cli/commands/hook.ts).
  if (argv[0] === "hook" && !argv.includes("--help") && !argv.includes("-h")) {
    try {
      const { runHookCommand } = await import("./commands/hook.js");
      return await runHookCommand(argv.slice(1), {
        cwd: io.cwd,
        env,
        stdin: io.stdin,
        stdout: io.stdout,
        stderr: io.stderr,
        stderrIsTTY: io.stderrIsTTY === true,
        ...(io.processStartMs !== undefined ? { processStartMs: io.processStartMs } : {}),
      });
    } catch (error) {
      io.stderr(`ralph: hook failed open: ${error instanceof Error ? error.message : String(error)}\n`);
      if (argv[1] !== "git") io.stdout("{}\n");
      return ExitCode.ok;
    }
  }
  const wantsJsonErrors = argv.includes("--json") || argv.includes("--format=json") || argv.join(" ").includes("--format json");
  try {
    const { dispatch } = await import("./program.js");
    const ctx = {
      cwd: io.cwd,
      env,
      stdin: io.stdin,
      stdout: io.stdout,
      stderr: io.stderr,
      stdoutIsTTY: io.stdoutIsTTY === true,
      stderrIsTTY: io.stderrIsTTY === true,
      ...(io.stderrColumns !== undefined ? { stderrColumns: io.stderrColumns } : {}),
      ...(io.cliPath !== undefined ? { cliPath: io.cliPath } : {}),
    };
    const result = await dispatch([...argv], ctx, version);
    if (result === null) return ExitCode.ok;
    const { output, wantsJson } = result;
    if (wantsJson) io.stdout(`${JSON.stringify(output.json, null, 2)}\n`);
    else if (output.text !== "") io.stdout(output.text.endsWith("\n") ? output.text : `${output.text}\n`);
    return output.exitCode ?? ExitCode.ok;
  } catch (thrown) {
    const error = toRalphError(thrown);
    io.stderr(`ralph: ${error.message}\n`);
    if (error.code === "E_INTERNAL" && io.env.RALPH_DEBUG && thrown instanceof Error && thrown.stack) {
      io.stderr(`${thrown.stack}\n`);
    }
    if (wantsJsonErrors) {
      io.stdout(`${JSON.stringify({ error: { code: error.code, message: error.message, data: error.data } }, null, 2)}\n`);
    }
    return error.exitCode;
  }
}
