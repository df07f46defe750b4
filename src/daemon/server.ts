/**
 * The warm per-repository process (issue 12, docs/decisions/0003-warm-process.md):
 * one per work tree, listening on a Unix domain socket under
 * `<gitDir>/ralph/daemon/` (src/daemon/location.ts), serving run requests
 * one at a time with the same `runCli` the in-process path runs.
 *
 * Lifecycle:
 * - start: `start.lock` (O_EXCL, the pid inside; a lock whose pid is dead is
 *   removed) serialises starters; bind() is the arbiter: EADDRINUSE with a
 *   socket that answers means another server lives (this one exits), one
 *   that refuses (ECONNREFUSED) is stale and is unlinked under the lock;
 * - exit: after the idle time (RALPH_DAEMON_IDLE_MS, else aiwg.yml
 *   `daemon.idle_ms`, else 10 minutes), when the git dir is gone, when a
 *   client of another build says hello, on `ralph daemon stop`, SIGTERM or
 *   SIGINT. It removes its socket and daemon.json only while they are still
 *   its own.
 *
 * Security: the folder is 0700 and the socket 0600 (umask 0177 around
 * bind), both owned by the user, so only the owner (and root) can connect;
 * Node has no SO_PEERCRED, so the peer's uid is not read from the socket:
 * the file permissions are the check, and clients check the socket's owner
 * before they connect (location.ts isTrustedSocket). A request whose cwd,
 * CLAUDE_PROJECT_DIR or hook payload `cwd` lies outside the work tree is
 * refused; the request's environment is the allow-list of routing.ts.
 */
import { closeSync, existsSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import * as z from "zod/mini";
import { encodeFrame, FrameDecoder, installedBuild, PROTOCOL_VERSION, type RunRequest, type ServerMessage, type StatusMessage } from "./protocol.js";
import { ensurePrivateDir, fallbackSocketPath, fitsSunPath, locateWorkTree, type DaemonLocation } from "./location.js";
import { isAllowedEnvName, namedFilesOf, needsFullEnv, takesDirtySet } from "./routing.js";
import { WorkTreeWatcher } from "../store/dirty-paths.js";
import { DirtySetLedger, type WarmScan } from "../store/warm-scan.js";
import { STATE_DIR } from "../store/snapshot.js";

/** The idle time after which a warm process exits, ms (issue 12: 10 minutes). */
export const DEFAULT_IDLE_MS = 10 * 60 * 1000;

/** How often the server checks that its git dir still exists, ms. */
const REPOSITORY_CHECK_MS = 2000;

/** The least time between two starts of the work tree watcher, ms. */
const WATCHER_RESTART_MS = 60_000;

/** A start lock older than this whose pid cannot be checked is stale, ms. */
const START_LOCK_STALE_MS = 10_000;

/** What {@link serve} needs. */
export interface ServeOptions {
  /** The work tree to serve (any folder inside it). */
  workTree: string;
  /** This bundle's build id (src/cli/entry.ts). */
  build: string;
  /** ralph's version string (runCli's `--version`). */
  version: string;
  /** The idle time, ms; default RALPH_DAEMON_IDLE_MS of {@link env}, else aiwg.yml `daemon.idle_ms`, else {@link DEFAULT_IDLE_MS}. */
  idleMs?: number;
  /** The server's own environment (the allow-listed one its client started it with): RALPH_DAEMON_IDLE_MS, XDG_RUNTIME_DIR. */
  env: NodeJS.ProcessEnv;
  /** The path of the cli.js serving (runCli's `cliPath`). */
  cliPath: string;
  /**
   * Binds one request to the process, for code that still reads the process
   * itself (src/daemon/server-entry.ts: process.env holds the request's
   * environment, writes to process.stdout/stderr go to its client);
   * `end` undoes it. Requests never overlap.
   */
  bindRequest?: (env: Record<string, string>, stdout: (text: string) => void, stderr: (text: string) => void) => { end(): void };
}

const RunRequestSchema = z.strictObject({
  type: z.literal("run"),
  argv: z.array(z.string()),
  cwd: z.string().check(z.minLength(1)),
  env: z.record(z.string(), z.string()),
  stdinBase64: z.string(),
  stdinOpen: z.boolean(),
  stdoutIsTTY: z.boolean(),
  stderrIsTTY: z.boolean(),
  stderrColumns: z.number(),
  processStartMs: z.number(),
  maxQueueMs: z.number().check(z.gte(0)),
});
const HelloSchema = z.strictObject({
  type: z.literal("hello"),
  protocol: z.number(),
  build: z.string(),
  control: z.optional(z.boolean()),
  workTree: z.optional(z.string()),
  gitDir: z.optional(z.string()),
});
const SimpleSchema = z.strictObject({ type: z.enum(["status", "stop"]) });

/** Whether `pid` names a live process (EPERM: alive, someone else's). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes `start.lock` (O_EXCL); a lock left by a dead process is removed first. Returns false when a live starter holds it. */
function takeStartLock(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      let holder: number;
      let ageMs: number;
      try {
        holder = Number(readFileSync(path, "utf8").trim());
        ageMs = Date.now() - statSync(path).mtimeMs;
      } catch {
        continue; // released meanwhile: try again
      }
      if (isAlive(holder) && ageMs < START_LOCK_STALE_MS * 6) return false;
      if (!isAlive(holder) || ageMs > START_LOCK_STALE_MS * 6) rmSync(path, { force: true });
    }
  }
  return false;
}

/** Resolves true when something answers a connect on `path`, false on ECONNREFUSED/ENOENT (a stale or missing socket). */
function probe(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const done = (alive: boolean): void => {
      socket.destroy();
      resolve(alive);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.setTimeout(2000, () => done(true)); // a connect that hangs is a live but busy server
  });
}

/** Binds `server` to `path` with a 0600 socket (umask 0177 around bind). Rejects with the bind error (EADDRINUSE included). */
function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const previous = process.umask(0o177);
    const onError = (error: Error): void => {
      process.umask(previous);
      reject(error);
    };
    server.once("error", onError);
    server.listen(path, () => {
      process.umask(previous);
      server.off("error", onError);
      resolve();
    });
  });
}

/** The socket path this server uses: `<stateDir>/sock` when it fits sun_path, else a recorded short one (location.ts). */
function chooseSocketPath(location: DaemonLocation, uid: number, env: NodeJS.ProcessEnv): string | null {
  if (fitsSunPath(location.defaultSocketPath)) return location.defaultSocketPath;
  const short = fallbackSocketPath(location.gitDir, env, uid);
  if (!fitsSunPath(short)) return null;
  const problem = ensurePrivateDir(join(short, ".."), uid);
  if (problem !== null) return null;
  const record = join(location.stateDir, "socket-path");
  writeFileSync(`${record}.tmp-${process.pid}`, `${short}\n`, { mode: 0o600 });
  renameSync(`${record}.tmp-${process.pid}`, record);
  return short;
}

/** Whether `path` (real) is `root` or inside it. */
function isInside(root: string, path: string): boolean {
  try {
    const real = realpathSync(path);
    return real === root || real.startsWith(root.endsWith(sep) ? root : root + sep);
  } catch {
    return false;
  }
}

/** The idle time: RALPH_DAEMON_IDLE_MS, else aiwg.yml `daemon.idle_ms`, else the default. */
async function resolveIdleMs(workTree: string, env: NodeJS.ProcessEnv): Promise<number> {
  const fromEnv = Number(env.RALPH_DAEMON_IDLE_MS);
  if (env.RALPH_DAEMON_IDLE_MS && Number.isFinite(fromEnv) && fromEnv > 0) return fromEnv;
  try {
    const { loadConfig } = await import("../config/load.js");
    return (await loadConfig(workTree, { env })).config.daemon.idle_ms;
  } catch {
    return DEFAULT_IDLE_MS;
  }
}

/** Whether `path` names an existing folder outside `root` (a path that does not exist names nothing the command could act on). */
function isExistingOutside(root: string, path: string): boolean {
  return existsSync(path) && !isInside(root, path);
}

/**
 * Why a request may not be served here, or null: the folders a command may
 * act on (its cwd, and for hooks CLAUDE_PROJECT_DIR and the payload's `cwd`,
 * the candidates of src/hooks/claude.ts callDirectories) lie inside the work
 * tree. The client then runs the call in-process.
 */
function outsideWorkTree(workTree: string, request: RunRequest, stdin: Buffer): string | null {
  if (!isInside(workTree, request.cwd)) return `cwd ${request.cwd} is outside ${workTree}`;
  if (request.argv[0] !== "hook") return null;
  const project = request.env.CLAUDE_PROJECT_DIR;
  if (project && isExistingOutside(workTree, project)) return `CLAUDE_PROJECT_DIR ${project} is outside ${workTree}`;
  if (stdin.length > 0) {
    try {
      const payload = JSON.parse(stdin.toString("utf8")) as { cwd?: unknown };
      if (typeof payload.cwd === "string" && payload.cwd !== "" && isExistingOutside(workTree, payload.cwd)) return `the payload's cwd ${payload.cwd} is outside ${workTree}`;
    } catch {
      /* not JSON: the hook reports it itself */
    }
  }
  return null;
}

/**
 * Runs the warm process for the work tree containing `options.workTree` until
 * it exits (idle, repository gone, another build, stop). Resolves when it
 * has stopped listening; resolves at once when another server already
 * serves this work tree or this one cannot start (no private folder, the
 * start lock held by a live starter).
 */
export async function serve(options: ServeOptions): Promise<void> {
  const location = locateWorkTree(options.workTree);
  if (location === null) return;
  const uid = process.getuid?.() ?? -1;
  if (ensurePrivateDir(location.stateDir, uid) !== null) return;
  const lockPath = join(location.stateDir, "start.lock");
  if (!takeStartLock(lockPath)) return;
  const server = createServer();
  // Clients may connect as soon as bind() returns: keep their sockets (paused: no byte is lost) until runServer takes them.
  const early: Socket[] = [];
  const keepEarly = (socket: Socket): void => void early.push(socket);
  server.on("connection", keepEarly);
  let socketPath: string | null;
  let socketIno: number;
  try {
    socketPath = chooseSocketPath(location, uid, options.env);
    if (socketPath === null) return;
    try {
      await listen(server, socketPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") return;
      if (await probe(socketPath)) return; // another server answers: it is the one
      rmSync(socketPath, { force: true }); // stale (its server died): ours to replace, under the lock
      await listen(server, socketPath);
    }
    socketIno = statSync(socketPath).ino;
    const info = { pid: process.pid, socket: socketPath, build: options.build, work_tree: location.workTree, started_at: new Date().toISOString() };
    writeFileSync(join(location.stateDir, `daemon.json.tmp-${process.pid}`), `${JSON.stringify(info)}\n`, { mode: 0o600 });
    renameSync(join(location.stateDir, `daemon.json.tmp-${process.pid}`), join(location.stateDir, "daemon.json"));
  } catch {
    server.close();
    return;
  } finally {
    rmSync(lockPath, { force: true });
  }
  await runServer(server, location, socketPath, socketIno, options, () => {
    server.off("connection", keepEarly);
    return early.splice(0);
  });
}

async function runServer(server: Server, location: DaemonLocation, socketPath: string, socketIno: number, options: ServeOptions, takeEarly: () => Socket[]): Promise<void> {
  const idleMs = options.idleMs ?? (await resolveIdleMs(location.workTree, options.env));
  const warm = new WarmServer(server, location, socketPath, socketIno, options, idleMs);
  server.on("connection", (socket: Socket) => warm.accept(socket));
  for (const socket of takeEarly()) warm.accept(socket);
  await warm.stopped;
}

/** A listening warm process: its queue, idle timer and lifecycle (see the module doc). */
class WarmServer {
  private readonly startedMs = Date.now();
  /** This build of this install, as a hello carries it (protocol.ts installedBuild): resolved once, while the install exists. */
  private readonly installed: string;
  /** Connections are taken at once (a client's hello must not wait for the warm-up); requests wait for it. */
  private readonly ready: Promise<(typeof import("../cli/run.js"))["runCli"]>;
  private requestsServed = 0;
  private running = 0;
  private queue: Promise<void> = Promise.resolve();
  private closing = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly repositoryTimer: NodeJS.Timeout;
  private resolveStopped: () => void = () => undefined;
  /** The work tree's watcher (started with the server, closed on exit; replaced when it broke) and what it owes the next snapshot. */
  private watcher: WorkTreeWatcher;
  private watcherReady: Promise<void>;
  private readonly ledger: DirtySetLedger;
  private watcherStartedMs = Date.now();
  /** Resolves once the server stopped listening and the queued requests finished. */
  readonly stopped = new Promise<void>((resolve) => (this.resolveStopped = resolve));

  constructor(
    private readonly server: Server,
    private readonly location: DaemonLocation,
    private readonly socketPath: string,
    private readonly socketIno: number,
    private readonly options: ServeOptions,
    private readonly idleMs: number,
  ) {
    this.installed = installedBuild(options.build, options.cliPath);
    this.ledger = new DirtySetLedger(location.workTree);
    this.watcher = new WorkTreeWatcher({ gitDir: location.gitDir });
    this.watcherReady = this.watcher.start(location.workTree);
    this.ready = import("../cli/run.js").then(async (module) => {
      await preload();
      return module.runCli;
    });
    this.repositoryTimer = setInterval(() => {
      if (!existsSync(join(location.gitDir, "HEAD"))) this.shutdown();
    }, REPOSITORY_CHECK_MS);
    process.once("SIGTERM", () => this.shutdown());
    process.once("SIGINT", () => this.shutdown());
    this.armIdle();
  }

  /** Removes the socket and daemon.json while they are still this server's. */
  private removeOwnFiles(): void {
    try {
      if (statSync(this.socketPath).ino === this.socketIno) unlinkSync(this.socketPath);
    } catch {
      /* gone already, or replaced by another server's */
    }
    const infoPath = join(this.location.stateDir, "daemon.json");
    try {
      if ((JSON.parse(readFileSync(infoPath, "utf8")) as { pid?: unknown }).pid === process.pid) rmSync(infoPath, { force: true });
    } catch {
      /* gone already */
    }
  }

  /** Stops taking requests; the queued ones finish, then {@link stopped} resolves. */
  shutdown(): void {
    if (this.closing) return;
    this.closing = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    clearInterval(this.repositoryTimer);
    // Unlink first, so the next client finds no socket (or a new server's) at once; queued requests still finish.
    this.removeOwnFiles();
    this.server.close();
    void this.queue.then(async () => {
      await this.watcher.close();
      this.resolveStopped();
    });
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    // Idle means no request for idleMs: a request that runs longer (a Stop hook's completion command) is not idleness.
    this.idleTimer = setTimeout(() => (this.running > 0 ? this.armIdle() : this.shutdown()), this.idleMs);
  }

  private status(): StatusMessage {
    return {
      type: "status",
      pid: process.pid,
      socket: this.socketPath,
      workTree: this.location.workTree,
      build: this.options.build,
      uptimeMs: Date.now() - this.startedMs,
      requestsServed: this.requestsServed,
      rssBytes: process.memoryUsage.rss(),
      idleTimeoutMs: this.idleMs,
    };
  }

  /** Serves one connection: a hello, then one status, stop or run request. */
  accept(socket: Socket): void {
    const decoder = new FrameDecoder();
    let greeted = false;
    let control = false;
    socket.on("error", () => socket.destroy());
    socket.on("data", (chunk: Buffer) => {
      let messages: unknown[];
      try {
        messages = decoder.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const message of messages) {
        if (greeted) return this.answer(socket, message, control);
        const hello = HelloSchema.safeParse(message);
        if (!hello.success) return void socket.destroy();
        control = hello.data.control === true;
        const { workTree, gitDir } = this.location;
        // A client of another work tree (a socket-path record copied with the repository): refused, and this server stays.
        if ((hello.data.workTree !== undefined && hello.data.workTree !== workTree) || (hello.data.gitDir !== undefined && hello.data.gitDir !== gitDir)) {
          const reason = `this warm process serves ${workTree}, not ${hello.data.workTree ?? hello.data.gitDir}`;
          socket.end(encodeFrame({ type: "hello", ok: false, build: this.options.build, pid: process.pid, workTree, reason }));
          return;
        }
        // Another build, or this build of another install (a copied or deleted dist/): this process is not the client's.
        // A bare build id is this build of any install (a hand-written hello).
        const sameBuild = (hello.data.build === this.options.build || hello.data.build === this.installed) && hello.data.protocol === PROTOCOL_VERSION;
        const ok = control || (sameBuild && !this.closing);
        socket.write(encodeFrame({ type: "hello", ok, build: this.options.build, pid: process.pid, workTree }));
        if (!ok) {
          socket.end();
          // Another build's client: this process is outdated; it goes, and that client starts the new one.
          if (!sameBuild) this.shutdown();
          return;
        }
        greeted = true;
      }
    });
  }

  /** The request after the hello: status, stop, or a run for the queue. */
  private answer(socket: Socket, message: unknown, control: boolean): void {
    this.armIdle();
    const simple = SimpleSchema.safeParse(message);
    if (simple.success) {
      if (simple.data.type === "status") socket.end(encodeFrame(this.status()));
      else {
        socket.end(encodeFrame({ type: "stopping", pid: process.pid }));
        this.shutdown();
      }
      return;
    }
    const run = RunRequestSchema.safeParse(message);
    if (!run.success || this.closing || control) {
      socket.end(encodeFrame({ type: "refused", reason: this.closing ? "the warm process is exiting" : "malformed request" }));
      return;
    }
    this.enqueue(socket, run.data);
  }

  /**
   * One request at a time per work tree: commands share the store, the stat
   * cache and process.env. A request that would wait longer than its client
   * allows is refused, and the client runs it in-process (beside a long Stop
   * hook's completion command, say, as it would without a warm process; the
   * store's lock serialises them).
   */
  private enqueue(socket: Socket, request: RunRequest): void {
    let state: "queued" | "running" | "refused" = "queued";
    const wait = setTimeout(() => {
      if (state !== "queued") return;
      state = "refused";
      socket.end(encodeFrame({ type: "refused", reason: "busy: another request is running" }));
    }, request.maxQueueMs);
    this.queue = this.queue
      .then(() => {
        clearTimeout(wait);
        if (state !== "queued") return;
        state = "running";
        this.running++;
        return this.runRequest(socket, request).finally(() => this.running--);
      })
      .then(
        () => this.armIdle(),
        () => this.armIdle(),
      );
  }

  /**
   * The request's link to the watcher, or undefined (no take: its snapshots
   * scan in full). A PostToolUse after a file tool skips the take (its
   * barrier costs about 50 ms) and checkpoints only the files it names when
   * the rest of the tree is known clean: nothing owed from earlier takes,
   * and what the watcher saw since the last one lies within those files;
   * otherwise it takes the set and checkpoints the whole tree through it.
   */
  private async warmScanFor(request: RunRequest, stdin: Buffer): Promise<WarmScan | undefined> {
    const named = namedFilesOf(request.argv, stdin);
    if (named === null) return takesDirtySet(request.argv, stdin) ? await this.takeDirtySet() : undefined;
    await this.watcherReady;
    const seen = this.watcher.peek();
    if (seen !== null && this.ledger.owedPaths === "none") {
      const base = named.cwd !== undefined && isAbsolute(named.cwd) ? named.cwd : request.cwd;
      const rels = new Set(named.files.map((f) => relative(this.location.workTree, resolve(base, f)).split(sep).join("/")));
      // ralph's own state folder (the hook log) is never part of a snapshot.
      if ([...seen].every((p) => rels.has(p) || p === STATE_DIR || p.startsWith(`${STATE_DIR}/`))) return undefined;
    }
    return { ...(await this.takeDirtySet()), namedPathsSuffice: false };
  }

  /**
   * Waits for the watcher's dirty set (complete up to this call: its
   * barrier) and returns the request's link to it. A watcher that broke
   * (an error, the watch limit) is replaced by a new one, whose first take
   * is "full": correctness never rests on the watcher.
   */
  private async takeDirtySet(): Promise<WarmScan> {
    await this.watcherReady;
    const broken = this.watcher.brokenBecause;
    const take = await this.watcher.take();
    const scan = this.ledger.add(take, Date.now());
    // At most one restart a minute: a watcher that cannot start (no binary, the watch limit) would otherwise cost a start per request.
    if (broken !== null && !this.closing && Date.now() - this.watcherStartedMs > WATCHER_RESTART_MS) {
      this.watcherStartedMs = Date.now();
      const old = this.watcher;
      this.watcher = new WorkTreeWatcher({ gitDir: this.location.gitDir });
      this.watcherReady = old.close().then(() => this.watcher.start(this.location.workTree));
    }
    return scan;
  }

  /** Runs one request through runCli with its own io, streaming its output to the client. */
  private async runRequest(socket: Socket, request: RunRequest): Promise<void> {
    const send = (message: ServerMessage): void => {
      if (!socket.destroyed) socket.write(encodeFrame(message));
    };
    if (socket.destroyed) return; // the client gave up while queued: it runs the command itself
    const stdinBytes = Buffer.from(request.stdinBase64, "base64");
    const outside = outsideWorkTree(this.location.workTree, request, stdinBytes);
    if (outside !== null) {
      send({ type: "refused", reason: outside });
      socket.end();
      return;
    }
    const runCli = await this.ready;
    const warmScan = await this.warmScanFor(request, stdinBytes);
    send({ type: "started" });
    // Commands that run the user's commands get the whole environment (routing.ts needsFullEnv); the rest only the allow-list.
    const env = needsFullEnv(request.argv) ? request.env : Object.fromEntries(Object.entries(request.env).filter(([name]) => isAllowedEnvName(name)));
    const stdout = (text: string): void => send({ type: "stdout", text });
    const stderr = (text: string): void => send({ type: "stderr", text });
    const binding = this.options.bindRequest?.(env, stdout, stderr);
    let code: number;
    try {
      code = await runCli(request.argv, { ...ioOf(request, stdinBytes), env, stdout, stderr, cliPath: this.options.cliPath, ...(warmScan ? { warmScan } : {}) }, this.options.version);
    } catch (error) {
      stderr(`ralph: internal error in the warm process: ${(error as Error).message}\n`);
      code = 3;
    } finally {
      binding?.end();
    }
    this.requestsServed++;
    send({ type: "exit", code });
    socket.end();
  }
}

/** The request's stdin, terminal facts and start time as runCli's io. */
function ioOf(request: RunRequest, stdinBytes: Buffer): { cwd: string; stdin: Readable; stdoutIsTTY: boolean; stderrIsTTY: boolean; stderrColumns?: number; processStartMs: number } {
  const stdin = request.stdinOpen
    ? new Readable({ read() {} }) // an agent that never closes the pipe: the bytes, then nothing
    : Readable.from(stdinBytes.length === 0 ? [] : [stdinBytes]);
  if (request.stdinOpen && stdinBytes.length > 0) stdin.push(stdinBytes);
  return {
    cwd: request.cwd,
    stdin,
    stdoutIsTTY: request.stdoutIsTTY,
    stderrIsTTY: request.stderrIsTTY,
    ...(request.stderrColumns > 0 ? { stderrColumns: request.stderrColumns } : {}),
    processStartMs: request.processStartMs,
  };
}

/** Loads the modules the served commands use, so their parsers and code are warm before the first request (and a rebuilt dist/ cannot pull chunks from under it). */
async function preload(): Promise<void> {
  await Promise.allSettled([
    import("../cli/program.js"),
    import("../cli/commands/hook.js"),
    import("../hooks/claude.js"),
    import("../cli/commands/checkpoint.js"),
    import("../cli/commands/check.js"),
    import("../cli/commands/status.js"),
    import("../cli/commands/diff.js"),
    import("../cli/commands/log.js"),
    import("../cli/commands/loops.js"),
    import("../cli/commands/tests.js"),
    import("../cli/commands/stats.js"),
    import("../cli/commands/iterate.js"),
  ]);
}
