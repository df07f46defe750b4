/**
 * The entry point (bundled to dist/cli.js): the only place that sets the
 * process exit code. Results go to stdout, diagnostics to stderr; an error
 * is one line on stderr (and, with --json, an `{"error": …}` object on
 * stdout) with the exit code of its class (src/errors.ts).
 */
import { runCli } from "./run.js";

declare const RALPH_VERSION: string;
const version = typeof RALPH_VERSION === "string" ? RALPH_VERSION : "0.0.0-dev";

// A reader that closes the pipe early (`ralph tests | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

process.exitCode = await runCli(
  process.argv.slice(2),
  {
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    stdout: (text: string) => void process.stdout.write(text),
    stderr: (text: string) => void process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    ...(process.stderr.columns ? { stderrColumns: process.stderr.columns } : {}),
    ...(process.argv[1] ? { cliPath: process.argv[1] } : {}),
  },
  version,
);
