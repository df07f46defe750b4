/**
 * The entry point (bundled to dist/cli.js): the only place that sets the
 * process exit code. Results go to stdout, diagnostics to stderr; an error
 * is one line on stderr (and, with --json, an `{"error": …}` object on
 * stdout) with the exit code of its class (src/errors.ts).
 */
import { ExitCode, toRalphError } from "../errors.js";

declare const RALPH_VERSION: string;
const version = typeof RALPH_VERSION === "string" ? RALPH_VERSION : "0.0.0-dev";

async function main(argv: string[]): Promise<number> {
  // The fastest path: `ralph --version` loads nothing else.
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v")) {
    process.stdout.write(`${version}\n`);
    return ExitCode.ok;
  }
  // Agent hooks follow the agent's protocol (one JSON object, exit 0, fail open; git's pre-push: exit 1 to refuse) and load
  // only what their event needs: no cac, no command table (src/cli/commands/hook.ts).
  if (argv[0] === "hook" && !argv.includes("--help") && !argv.includes("-h")) {
    try {
      const { runHookCommand } = await import("./commands/hook.js");
      return await runHookCommand(argv.slice(1), {
        cwd: process.cwd(),
        env: process.env,
        stdin: process.stdin,
        stdout: (text: string) => process.stdout.write(text),
        stderr: (text: string) => process.stderr.write(text),
        stderrIsTTY: process.stderr.isTTY === true,
      });
    } catch (error) {
      process.stderr.write(`ralph: hook failed open: ${error instanceof Error ? error.message : String(error)}\n`);
      // git hooks speak through the exit status alone; agents expect one JSON object.
      if (argv[1] !== "git") process.stdout.write("{}\n");
      return ExitCode.ok;
    }
  }
  const wantsJsonErrors = argv.includes("--json") || argv.includes("--format=json") || argv.join(" ").includes("--format json");
  try {
    const { dispatch } = await import("./program.js");
    const ctx = {
      cwd: process.cwd(),
      stdout: (text: string) => process.stdout.write(text),
      stderr: (text: string) => process.stderr.write(text),
    };
    const result = await dispatch(argv, ctx, version);
    if (result === null) return ExitCode.ok;
    const { output, wantsJson } = result;
    if (wantsJson) process.stdout.write(`${JSON.stringify(output.json, null, 2)}\n`);
    else if (output.text !== "") process.stdout.write(output.text.endsWith("\n") ? output.text : `${output.text}\n`);
    return output.exitCode ?? ExitCode.ok;
  } catch (thrown) {
    const error = toRalphError(thrown);
    process.stderr.write(`ralph: ${error.message}\n`);
    if (error.code === "E_INTERNAL" && process.env.RALPH_DEBUG && thrown instanceof Error && thrown.stack) {
      process.stderr.write(`${thrown.stack}\n`);
    }
    if (wantsJsonErrors) {
      process.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message, data: error.data } }, null, 2)}\n`);
    }
    return error.exitCode;
  }
}

// A reader that closes the pipe early (`ralph tests | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

process.exitCode = await main(process.argv.slice(2));
