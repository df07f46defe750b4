/**
 * Runs the built CLI (dist/cli.js) as a real process, the way agents, hooks
 * and CI call it: `cwd` passed explicitly (never process.chdir), the test
 * git environment (no user config), stdout and stderr captured apart.
 *
 * Build first with `npm run build`. Others rebuild /work/main/dist while
 * tests run (the build script deletes dist first), so the tests run a
 * private snapshot of dist (test/helpers/dist-copy.ts): one per test run,
 * made by test/helpers/global-setup.ts and removed when the run ends, or,
 * when dist was not complete as the run started, one per test file made on
 * first use. Set RALPH_TEST_CLI=/path/to/cli.js to run a given bundle
 * instead.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, inject } from "vitest";
import { copyBuiltCli } from "./dist-copy.js";
import { gitEnv } from "./git.js";

/** The repository root of ralph itself. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The bundle that `npm run build` writes. */
export const BUILT_CLI_PATH = join(PROJECT_ROOT, "dist", "cli.js");

let privateRoot: string | null = null;
let cliPath: string | null = null;

/** The cli.js every test runs: RALPH_TEST_CLI, else the run's private copy of dist (test/helpers/global-setup.ts), else a checked private copy made on first use in this file. */
export function cliPathForTests(): string {
  if (cliPath) return cliPath;
  const override = process.env.RALPH_TEST_CLI;
  if (override) return (cliPath = resolve(override));
  const shared = inject("ralphCliPath");
  if (shared) return (cliPath = shared);
  const copy = copyBuiltCli(BUILT_CLI_PATH, PROJECT_ROOT, 30_000);
  if (!copy) throw new Error(`${BUILT_CLI_PATH} is missing or incomplete: run 'npm run build' first`);
  privateRoot = copy.root;
  return (cliPath = copy.cli);
}

afterAll(() => {
  if (privateRoot) rmSync(privateRoot, { recursive: true, force: true });
  privateRoot = null;
  cliPath = null;
});

/** Options of {@link runRalph} and {@link spawnRalph}. */
export interface RunOptions {
  /** Extra environment, merged over {@link ralphEnv}; a key set to undefined is removed. */
  env?: NodeJS.ProcessEnv;
  /** Bytes written to stdin (stdin is closed either way). */
  input?: string | Buffer;
  /** Kill the process (SIGKILL) after this many ms; default 60000. */
  timeoutMs?: number;
  /** Run as this uid/gid (only possible when the test runs as root). */
  uid?: number;
  gid?: number;
}

/** What a finished ralph process left. `status` is null when it was killed by a signal. */
export interface RunResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * Whether this test run drives the built CLI through warm processes
 * (RALPH_TEST_DAEMON=1): {@link runRalph} and {@link spawnRalph} then run
 * with RALPH_DAEMON=require, so every call the client routes warm
 * (src/daemon/routing.ts) is answered by the work tree's warm process (the
 * client starts it and waits for it) or fails with exit 3, never silently
 * in-process; the warm processes exit 15 s after their last request or 2 s
 * after their temporary repository is deleted. Without it (the default) the
 * built CLI runs with RALPH_NO_DAEMON=1: in-process, and no test leaves a
 * warm process behind. Calls with `uid` always run in-process (a socket is
 * its owner's only).
 */
export const TEST_DAEMON_MODE: boolean = process.env.RALPH_TEST_DAEMON === "1";

/** The environment of every ralph process in tests: git's test env, no inherited RALPH_LOOP or CLAUDE_PROJECT_DIR (a test run inside Claude Code), debug off, warm processes per {@link TEST_DAEMON_MODE}. */
export const ralphEnv: NodeJS.ProcessEnv = (() => {
  const env: NodeJS.ProcessEnv = { ...gitEnv, RALPH_DEBUG: "" };
  delete env.RALPH_LOOP;
  delete env.CLAUDE_PROJECT_DIR;
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.RALPH_DAEMON;
  delete env.RALPH_NO_DAEMON;
  if (TEST_DAEMON_MODE) {
    delete env.CI; // CI routes every call in-process (src/daemon/routing.ts)
    env.RALPH_DAEMON = "require";
    env.RALPH_DAEMON_IDLE_MS = "15000";
    env.RALPH_DAEMON_TIMEOUT_MS = "10000";
  } else env.RALPH_NO_DAEMON = "1";
  return env;
})();

function envFor(extra: NodeJS.ProcessEnv | undefined, uid?: number): NodeJS.ProcessEnv {
  const env = { ...ralphEnv };
  if (uid !== undefined) {
    delete env.RALPH_DAEMON;
    env.RALPH_NO_DAEMON = "1";
  }
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs `node dist/cli.js ...args` in `cwd` and waits for it. */
export function runRalph(cwd: string, args: readonly string[], options: RunOptions = {}): RunResult {
  const cli = cliPathForTests();
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env: envFor(options.env, options.uid),
    input: options.input ?? "",
    encoding: "utf8",
    timeout: options.timeoutMs ?? 60_000,
    killSignal: "SIGKILL",
    maxBuffer: 64 * 1024 * 1024,
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  if (result.error && (result.error as NodeJS.ErrnoException).code !== "ETIMEDOUT") throw result.error;
  return {
    status: result.status,
    signal: result.signal,
    stdout: result.stdout ?? "",
    stderr: result.stderr ?? "",
    durationMs: performance.now() - started,
  };
}

/** A running ralph process: the child, and a promise of its result. */
export interface RalphProcess {
  child: ChildProcess;
  done: Promise<RunResult>;
}

/** Starts `node dist/cli.js ...args` in `cwd` without waiting (for concurrency and kill tests). */
export function spawnRalph(cwd: string, args: readonly string[], options: RunOptions = {}): RalphProcess {
  const cli = cliPathForTests();
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args], {
    cwd,
    env: envFor(options.env, options.uid),
    stdio: ["pipe", "pipe", "pipe"],
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
  child.stdin?.on("error", () => {
    /* the child may exit (or be killed) before reading stdin */
  });
  child.stdin?.end(options.input ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const done = new Promise<RunResult>((resolvePromise, reject) => {
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // "close" fires after the process exited (and was reaped) and its pipes drained.
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolvePromise({
        status,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        durationMs: performance.now() - started,
      });
    });
  });
  return { child, done };
}

/** `spawnRalph(...).done`: runs ralph asynchronously and resolves with its result. */
export function runRalphAsync(cwd: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return spawnRalph(cwd, args, options).done;
}

/** Parses stdout as exactly one JSON value (JSON.parse rejects trailing output), with the raw text in the error. */
export function parseJsonOutput<T = unknown>(result: Pick<RunResult, "stdout" | "stderr">): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch (error) {
    throw new Error(`stdout is not exactly one JSON value (${(error as Error).message}):\n${result.stdout}\nstderr:\n${result.stderr}`, { cause: error });
  }
}

/** The lines of a text, without the final newline's empty line. */
export function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A small seeded PRNG (mulberry32) so randomised tests are reproducible. Returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs ralph in this test process through `runCli` (src/cli/run.ts), the
 * same function `dist/cli.js` calls: no process start, no bundle. Use it
 * wherever the process boundary is not what the test checks; keep
 * {@link runRalph} for exit-by-signal, uid, concurrency and a few smoke
 * tests per command against the built binary. The environment is
 * {@link ralphEnv} with `options.env` merged over it, passed as the run's
 * `env` (never written into process.env); `uid`, `gid` and `timeoutMs` are
 * not supported in-process (throws). The run's cli path is the built
 * binary's ({@link cliPathForTests}), so `ralph install` in-process writes
 * hooks that run the binary, as a user's install does.
 */
export async function runRalphInProcess(cwd: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  if (options.uid !== undefined || options.gid !== undefined) throw new Error("runRalphInProcess cannot change uid or gid: use runRalph");
  const { runCli } = await import("../../src/cli/run.js");
  const { Readable } = await import("node:stream");
  const stdout: string[] = [];
  const stderr: string[] = [];
  const started = performance.now();
  const input = options.input ?? "";
  const status = await runCli(
    args,
    {
      cwd,
      env: envFor(options.env),
      stdin: Readable.from(input === "" ? [] : [typeof input === "string" ? Buffer.from(input) : input]),
      stdout: (text) => void stdout.push(text),
      stderr: (text) => void stderr.push(text),
      // What `ralph install` writes into hooks: the built binary, so installed hooks run as they would for a user.
      cliPath: cliPathForTests(),
    },
    IN_PROCESS_VERSION,
  );
  return { status, signal: null, stdout: stdout.join(""), stderr: stderr.join(""), durationMs: performance.now() - started };
}

/** The version string in-process runs report (the bundle's comes from package.json at build time). */
export const IN_PROCESS_VERSION: string = (JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")) as { version: string }).version;
