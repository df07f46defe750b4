/**
 * The entry point (bundled to dist/cli.js): the only place that sets the
 * process exit code. It is the thin client of the warm per-repository
 * process (src/daemon/): before it loads any command, cac, zod or analysis
 * code it asks the work tree's warm process to run the command line, and
 * runs it in-process through `runCli` when none answers (or the call is one
 * that always runs in-process, src/daemon/routing.ts), with the same result.
 * `ralph __daemon <work tree>` (internal, started by a client) is the warm
 * process itself.
 *
 * Results go to stdout, diagnostics to stderr; an error is one line on
 * stderr (and, with --json, an `{"error": …}` object on stdout) with the
 * exit code of its class (src/errors.ts).
 */
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { runThroughDaemon } from "../daemon/client.js";

declare const RALPH_VERSION: string;
declare const RALPH_BUILD_ID: string;
const version = typeof RALPH_VERSION === "string" ? RALPH_VERSION : "0.0.0-dev";
/** A hash of the bundle (scripts/build.mjs writes it in after bundling); "dev" when run from source. */
const build = typeof RALPH_BUILD_ID === "string" && /^[0-9a-f]+$/.test(RALPH_BUILD_ID) ? RALPH_BUILD_ID : "dev";

const argv = process.argv.slice(2);

if (argv[0] === "__daemon" && argv[1] !== undefined) {
  const { serveThisProcess } = await import("../daemon/server-entry.js");
  await serveThisProcess(argv[1], build, version, fileURLToPath(import.meta.url));
}

// A reader that closes the pipe early (`ralph tests | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
  });
}

const stdout = (text: string): void => void process.stdout.write(text);
const stderr = (text: string): void => void process.stderr.write(text);
const outcome = await runThroughDaemon(
  {
    argv,
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    stdinIsTTY: process.stdin.isTTY === true,
    stdout,
    stderr,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stderrColumns: process.stderr.columns ?? 0,
  },
  { build, cliPath: fileURLToPath(import.meta.url) },
);

if (outcome.kind === "served") process.exitCode = outcome.code;
else {
  const { runCli } = await import("./run.js");
  // A hook payload the client read for the warm process: replayed as it came (the pipe still open, or ended).
  let stdin: Readable = process.stdin;
  if (outcome.stdin !== null) {
    const { bytes, open } = outcome.stdin;
    stdin = open ? new Readable({ read() {} }) : Readable.from(bytes.length === 0 ? [] : [bytes]);
    if (open && bytes.length > 0) stdin.push(bytes);
  }
  process.exitCode = await runCli(
    argv,
    {
      cwd: process.cwd(),
      env: process.env,
      stdin,
      stdout,
      stderr,
      stdoutIsTTY: process.stdout.isTTY === true,
      stderrIsTTY: process.stderr.isTTY === true,
      ...(process.stderr.columns ? { stderrColumns: process.stderr.columns } : {}),
      ...(process.argv[1] ? { cliPath: process.argv[1] } : {}),
    },
    version,
  );
  outcome.startServer?.();
}
