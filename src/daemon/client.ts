/**
 * The client side of the warm process: try the work tree's socket, and say
 * "run it in-process" on anything short of a served answer (issue 12,
 * "Never required"): no socket, a socket not owned by the user, a refused
 * connection (a stale socket: a server is started, which replaces it), a
 * hello of another build (that server exits; a new one is started), no
 * hello within the timeout, a request the server refuses.
 *
 * Loaded by the thin entry (src/cli/entry.ts) before anything else, so it
 * imports Node's modules and the small protocol, location, routing and
 * stdin modules only.
 */
import { spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { createConnection, type Socket } from "node:net";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { readHookInput } from "../hooks/stdin.js";
import { encodeFrame, FrameDecoder, installedBuild, MAX_FRAME_BYTES, PROTOCOL_VERSION, runFrameBytes, type ClientMessage, type RunRequest, type StatusMessage } from "./protocol.js";
import { clientSocketPath, isTrustedSocket, locateWorkTree, type DaemonLocation } from "./location.js";
import { allowedEnv, needsFullEnv, routeOf, startsDaemon } from "./routing.js";

/** How long a client waits for the connect and the server's hello before running in-process, ms (RALPH_DAEMON_TIMEOUT_MS overrides). */
export const DEFAULT_HELLO_TIMEOUT_MS = 1000;

/**
 * Largest hook payload sent to the warm process, bytes: above it the call
 * runs in-process, where the payload is parsed once instead of being
 * base64-encoded, framed, sent and decoded first (a 20 MB payload: 1.0-2.2 s
 * warm against 0.4 s in-process, load about 8; an agent's payloads are KBs).
 */
export const MAX_WARM_STDIN_BYTES = 4 * 1024 * 1024;

/** A start lock younger than this means a server is starting: no second spawn, ms. */
const STARTING_MS = 10_000;

/** The process facts a client call uses (the real process's in dist/cli.js; a test's own). */
export interface ClientIo {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: Readable;
  stdinIsTTY: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stderrColumns: number;
}

/** Stdin the client already read (a hook payload) and must hand to the in-process run. */
export interface ConsumedStdin {
  bytes: Buffer;
  /** The pipe was still open when reading stopped (a complete JSON object arrived, or the idle deadline passed). */
  open: boolean;
}

/** The outcome of {@link runThroughDaemon}: served (the exit code), or cold (run in-process, with the stdin already read, if any). */
export type DaemonOutcome =
  | { kind: "served"; code: number }
  | {
      kind: "cold";
      reason: string;
      stdin: ConsumedStdin | null;
      /** Starts a server for the next call: the caller runs it after its in-process run, so the start does not compete with it. */
      startServer: (() => void) | null;
    };

/** What the entry needs to start a server: this bundle's path and build id. */
export interface ClientBuild {
  /** The build id (a hash of the bundle); "dev" outside a build, where no server is started. */
  build: string;
  /** Absolute path of dist/cli.js, which `__daemon <workTree>` turns into a server. */
  cliPath: string;
}

function timeoutOf(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.RALPH_DAEMON_TIMEOUT_MS);
  return env.RALPH_DAEMON_TIMEOUT_MS && Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_HELLO_TIMEOUT_MS;
}

/** A connection with its frame reader: `next()` resolves with the next message, or null when the connection ended or failed. */
interface Connection {
  socket: Socket;
  next(timeoutMs?: number): Promise<Record<string, unknown> | null>;
  send(message: ClientMessage): void;
  close(): void;
}

function connect(path: string, timeoutMs: number): Promise<Connection | null> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const decoder = new FrameDecoder();
    const inbox: Record<string, unknown>[] = [];
    const waiters: ((message: Record<string, unknown> | null) => void)[] = [];
    let ended = false;
    const finish = (): void => {
      ended = true;
      for (const waiter of waiters.splice(0)) waiter(null);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve({
        socket,
        next: (waitMs) =>
          new Promise((resolveNext) => {
            const queued = inbox.shift();
            if (queued) return resolveNext(queued);
            if (ended) return resolveNext(null);
            let timeout: NodeJS.Timeout | undefined;
            const waiter = (message: Record<string, unknown> | null): void => {
              if (timeout) clearTimeout(timeout);
              resolveNext(message);
            };
            waiters.push(waiter);
            if (waitMs !== undefined) {
              timeout = setTimeout(() => {
                waiters.splice(waiters.indexOf(waiter), 1);
                resolveNext(null);
              }, waitMs);
            }
          }),
        send: (message) => void socket.write(encodeFrame(message)),
        close: () => socket.destroy(),
      });
    });
    socket.on("data", (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = decoder.push(chunk);
      } catch {
        socket.destroy();
        return finish();
      }
      for (const message of messages) {
        const waiter = waiters.shift();
        if (waiter) waiter(message as Record<string, unknown>);
        else inbox.push(message as Record<string, unknown>);
      }
    });
    socket.on("error", () => {
      clearTimeout(timer);
      resolve(null);
      finish();
    });
    socket.on("close", finish);
  });
}

/** Connects and exchanges hellos. null: nothing answered in time, another build answered (that server exits), or another work tree's server answered. */
async function greet(path: string, location: DaemonLocation, build: string, timeoutMs: number, control = false): Promise<{ connection: Connection | null; why: string }> {
  const started = Date.now();
  const connection = await connect(path, timeoutMs);
  if (connection === null) return { connection: null, why: "no connection" };
  connection.send({ type: "hello", protocol: PROTOCOL_VERSION, build, ...(control ? { control: true } : {}), workTree: location.workTree, gitDir: location.gitDir });
  const hello = await connection.next(Math.max(1, timeoutMs - (Date.now() - started)));
  if (hello === null || hello.type !== "hello") {
    connection.close();
    return { connection: null, why: hello === null ? "no hello in time" : "not a hello" };
  }
  if (typeof hello.workTree === "string" && hello.workTree !== location.workTree) {
    connection.close();
    return { connection: null, why: `${OTHER_WORK_TREE} (${hello.workTree})` };
  }
  if (hello.ok !== true) {
    connection.close();
    return { connection: null, why: typeof hello.reason === "string" ? `${OTHER_WORK_TREE}: ${hello.reason}` : `another build (${String(hello.build)})` };
  }
  return { connection, why: "" };
}

/** How {@link greet} says the socket is another work tree's server. */
const OTHER_WORK_TREE = "another work tree's warm process";

/**
 * Starts a server for `location` in the background: `node <cliPath> __daemon
 * <workTree>`, detached (its own session), stdio closed, unreferenced, with
 * the allow-listed environment; never waits for it. Skipped while a start
 * lock younger than 10 s shows another start under way.
 */
export function startDaemon(location: DaemonLocation, client: ClientBuild, env: NodeJS.ProcessEnv): void {
  try {
    if (Date.now() - statSync(join(location.stateDir, "start.lock")).mtimeMs < STARTING_MS) return;
  } catch {
    /* no start under way */
  }
  try {
    const child = spawn(process.execPath, [client.cliPath, "__daemon", location.workTree], {
      detached: true,
      stdio: "ignore",
      cwd: "/",
      env: allowedEnv(env),
    });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    /* no server this time: the call runs in-process anyway */
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isWarmCapable(client: ClientBuild): boolean {
  return client.build !== "dev" && existsSync(client.cliPath);
}

/**
 * Runs `io.argv` through the work tree's warm process when one answers.
 * Never throws and never waits for a server to start, except with the test
 * knob RALPH_DAEMON=require (test/helpers/cli.ts): then a missing server is
 * started and waited for (up to 15 s), and a call it cannot serve is an
 * error (exit 3) instead of an in-process run, so a suite run in that mode
 * proves the warm path answered.
 */
export async function runThroughDaemon(io: ClientIo, client: ClientBuild): Promise<DaemonOutcome> {
  let startServer: (() => void) | null = null;
  const cold = (reason: string, stdin: ConsumedStdin | null = null): DaemonOutcome => ({ kind: "cold", reason, stdin, startServer });
  if (routeOf(io.argv, io.env) === "cold") return cold("cold route");
  if (!isWarmCapable(client)) return cold("not a built bundle");
  // A hook acts on CLAUDE_PROJECT_DIR first when it is a folder (src/hooks/claude.ts callDirectories): its warm process is that work tree's.
  const project = io.argv[0] === "hook" ? io.env.CLAUDE_PROJECT_DIR : undefined;
  const location = locateWorkTree(project && isDirectory(project) ? project : io.cwd);
  if (location === null) return cold("not inside a work tree");
  const required = io.env.RALPH_DAEMON === "require";
  const timeoutMs = timeoutOf(io.env);
  const uid = process.getuid?.() ?? -1;
  let lastStartMs = 0;
  const start = (): void => {
    if (required) {
      if (Date.now() - lastStartMs < 3000) return; // one start at a time; the spawned server needs a moment to take its lock
      lastStartMs = Date.now();
      startDaemon(location, client, io.env);
    } else if (startsDaemon(io.argv)) startServer = () => startDaemon(location, client, io.env);
  };
  let greeted: Connection | null = null;
  let why: string;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const path = clientSocketPath(location);
    if (path !== null && isTrustedSocket(path, uid)) {
      const result = await greet(path, location, installedBuild(client.build, client.cliPath), timeoutMs);
      greeted = result.connection;
      why = result.why;
    } else why = path === null ? "no socket recorded" : "no trusted socket";
    if (greeted !== null) break;
    // ENOENT, ECONNREFUSED (stale: the new server replaces it under its lock), another build (it is exiting).
    if (why !== "no hello in time") start();
    if (!required || Date.now() > deadline) return required ? requiredFailure(io, why) : cold(why);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Only hooks read stdin; the bytes go with the request (and to the in-process run if it comes to that).
  let stdin: ConsumedStdin | null = null;
  if (io.argv[0] === "hook" && !io.stdinIsTTY) {
    const input = await readHookInput(io.stdin);
    stdin = { bytes: Buffer.from(input.text, "utf8"), open: input.endedBy !== "eof" };
  }
  const env = needsFullEnv(io.argv) ? Object.fromEntries(Object.entries(io.env).filter((e): e is [string, string] => e[1] !== undefined)) : allowedEnv(io.env);
  // RALPH_DAEMON=require (tests) waits its turn however long; otherwise a warm process busy for longer than the timeout is passed by.
  const request = runRequestOf(io, env, stdin, required ? 600_000 : timeoutMs);
  const unsent = sendRun(greeted, request, stdin);
  if (unsent !== null) {
    greeted.close();
    return required ? requiredFailure(io, unsent) : cold(unsent, stdin);
  }
  let started = false;
  for (;;) {
    const message = await greeted.next();
    if (message === null) break;
    if (message.type === "started") started = true;
    else if (message.type === "stdout" && typeof message.text === "string") io.stdout(message.text);
    else if (message.type === "stderr" && typeof message.text === "string") io.stderr(message.text);
    else if (message.type === "exit" && typeof message.code === "number") {
      greeted.close();
      return { kind: "served", code: message.code };
    } else if (message.type === "refused") {
      greeted.close();
      return required ? requiredFailure(io, `refused: ${String(message.reason)}`) : cold(`refused: ${String(message.reason)}`, stdin);
    }
  }
  greeted.close();
  if (!started) return required ? requiredFailure(io, "connection lost before the request ran") : cold("connection lost before the request ran", stdin);
  // It ran, partly: running it again in-process could repeat what it did. Say so; hooks fail open as always.
  io.stderr("ralph: the warm process ended during the command; run it again (RALPH_NO_DAEMON=1 runs without it)\n");
  if (io.argv[0] === "hook") {
    io.stdout("{}\n");
    return { kind: "served", code: 0 };
  }
  return { kind: "served", code: 3 };
}

/** The run request of `io`'s call, its stdin left out (see {@link sendRun}); `maxQueueMs` in ms. */
function runRequestOf(io: ClientIo, env: Record<string, string>, stdin: ConsumedStdin | null, maxQueueMs: number): RunRequest {
  return {
    type: "run",
    argv: [...io.argv],
    cwd: io.cwd,
    env,
    stdinBase64: "",
    stdinOpen: stdin?.open ?? false,
    stdoutIsTTY: io.stdoutIsTTY,
    stderrIsTTY: io.stderrIsTTY,
    stderrColumns: io.stderrColumns,
    processStartMs: performance.timeOrigin,
    maxQueueMs,
  };
}

/**
 * Sends `request` with `stdin` base64-encoded in it; returns null when sent,
 * else why not (the call then runs in-process): a hook payload over
 * {@link MAX_WARM_STDIN_BYTES}, or a frame over {@link MAX_FRAME_BYTES},
 * decided by size before any encoding (base64 makes 4 bytes of 3), or the
 * write failing. Never throws.
 */
function sendRun(connection: Connection, request: RunRequest, stdin: ConsumedStdin | null): string | null {
  if (stdin !== null && stdin.bytes.length > MAX_WARM_STDIN_BYTES) return `a hook payload of ${stdin.bytes.length} bytes runs faster in-process`;
  const frameBytes = runFrameBytes(request, stdin?.bytes.length ?? 0);
  if (frameBytes > MAX_FRAME_BYTES) return `request of ${frameBytes} bytes exceeds the ${MAX_FRAME_BYTES}-byte frame`;
  try {
    connection.send(stdin ? { ...request, stdinBase64: stdin.bytes.toString("base64") } : request);
    return null;
  } catch (error) {
    return `cannot send the request: ${(error as Error).message}`;
  }
}

function requiredFailure(io: ClientIo, why: string): DaemonOutcome {
  io.stderr(`ralph: RALPH_DAEMON=require: the warm process did not serve this call (${why})\n`);
  return { kind: "served", code: 3 };
}

/**
 * A server's answer to a status or stop request (`ralph daemon status|stop`),
 * or null when none answers within `timeoutMs` (ms) — or the one answering
 * serves another work tree (a copied socket-path record): that one is never
 * reported or stopped from here.
 */
export async function queryDaemon(cwd: string, build: string, request: "status" | "stop", timeoutMs = 2000): Promise<StatusMessage | { type: "stopping"; pid: number } | null> {
  const location = locateWorkTree(cwd);
  if (location === null) return null;
  const path = clientSocketPath(location);
  if (path === null || !isTrustedSocket(path, process.getuid?.() ?? -1)) return null;
  // A control hello: status and stop work across builds (a status must not end an outdated server).
  const { connection } = await greet(path, location, build, timeoutMs, true);
  if (connection === null) return null;
  connection.send({ type: request });
  const answer = await connection.next(timeoutMs);
  connection.close();
  if (answer === null) return null;
  if (answer.type === "status" && answer.workTree !== location.workTree) return null;
  return answer as unknown as StatusMessage | { type: "stopping"; pid: number };
}

/** The location helpers the `daemon` command needs, re-exported so it imports one module. */
export { locateWorkTree, clientSocketPath };
