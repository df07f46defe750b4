/**
 * The warm per-repository process end to end, through the built CLI and real
 * temporary repositories (run `npm run build` first): start on demand, one
 * per work tree when clients race, a crash or SIGSTOP never blocks a call,
 * another build replaces it, idle and repository-gone exits, the socket's
 * permissions, the refusal of paths outside its work tree, and the switches
 * that keep it off.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { encodeFrame, FrameDecoder } from "../../src/daemon/protocol.js";
import { cliPathForTests, PROJECT_ROOT, ralphEnv, runRalph, runRalphAsync, type RunOptions, type RunResult } from "../helpers/cli.js";
import { makeRepo, makeTempDir } from "../helpers/git.js";

/** Environment of a call that must go through a warm process (the client starts one and waits for it). */
const REQUIRE: NodeJS.ProcessEnv = { RALPH_DAEMON: "require", RALPH_NO_DAEMON: undefined, CI: undefined, RALPH_DAEMON_IDLE_MS: "20000" };
/** Environment of a call that may use a warm process but never waits for one (the default in real use). */
const ON_DEMAND: NodeJS.ProcessEnv = { RALPH_DAEMON: undefined, RALPH_NO_DAEMON: undefined, CI: undefined, RALPH_DAEMON_IDLE_MS: "20000" };

const started: number[] = [];

function info(root: string): { pid: number; socket: string; build: string } | null {
  try {
    return JSON.parse(readFileSync(join(root, ".git", "ralph", "daemon", "daemon.json"), "utf8")) as { pid: number; socket: string; build: string };
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function run(root: string, args: string[], env: NodeJS.ProcessEnv, options: RunOptions = {}): RunResult {
  const result = runRalph(root, args, { ...options, env: { ...env, ...options.env } });
  const daemon = info(root);
  if (daemon) started.push(daemon.pid);
  return result;
}

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
});

describe("start on demand", () => {
  it("the first checkpoint runs in-process and starts a warm process; the next ones are served by it with the same output", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const first = run(root, ["checkpoint"], ON_DEMAND);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    await waitFor(() => info(root) !== null);
    const daemon = info(root)!;
    started.push(daemon.pid);
    const second = run(root, ["checkpoint"], ON_DEMAND);
    expect(second).toMatchObject({ status: 0, stdout: "unchanged\n" });
    const status = run(root, ["daemon", "status", "--json"], ON_DEMAND);
    const parsed = JSON.parse(status.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({ running: true, pid: daemon.pid, socket: daemon.socket, build: daemon.build, requests_served: 1 });
    expect(parsed.rss_bytes as number).toBeGreaterThan(1_000_000);
    expect(parsed.uptime_ms as number).toBeGreaterThanOrEqual(0);
  });

  it("read-only views never start one; RALPH_NO_DAEMON=1 and CI keep it off even for checkpoints", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["status"], ON_DEMAND).status).not.toBeNull();
    expect(run(root, ["checkpoint"], { ...ON_DEMAND, RALPH_NO_DAEMON: "1" }).status).toBe(0);
    expect(run(root, ["checkpoint", "-m", "ci"], { ...ON_DEMAND, CI: "true" }).status).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(join(root, ".git", "ralph", "daemon", "sock"))).toBe(false);
    expect(info(root)).toBeNull();
    // With RALPH_DAEMON=require a call the route keeps cold still runs in-process.
    expect(run(root, ["checkpoint"], { ...REQUIRE, RALPH_NO_DAEMON: "1" })).toMatchObject({ status: 0, stdout: "unchanged\n" });
  });

  it("the folder is 0700 and the socket 0600, both the user's", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0);
    const dir = join(root, ".git", "ralph", "daemon");
    const folder = lstatSync(dir);
    expect(folder.isDirectory()).toBe(true);
    expect(folder.mode & 0o777).toBe(0o700);
    const socket = lstatSync(join(dir, "sock"));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    expect(socket.uid).toBe(process.getuid!());
  });
});

describe("exactly one per work tree", () => {
  it("three servers started at the same moment end with one alive, and racing clients all get served", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const cli = cliPathForTests();
    const env = { ...ralphEnv, ...REQUIRE } as NodeJS.ProcessEnv;
    delete env.RALPH_NO_DAEMON;
    const children = [0, 1, 2].map(() => spawn(process.execPath, [cli, "__daemon", root], { stdio: "ignore", env }));
    for (const child of children) if (child.pid) started.push(child.pid);
    const exits = children.map((child) => new Promise<void>((resolve) => child.once("exit", () => resolve())));
    await waitFor(() => info(root) !== null && children.filter((c) => c.exitCode === null && c.signalCode === null).length === 1);
    const survivor = children.find((c) => c.exitCode === null && c.signalCode === null)!;
    expect(info(root)!.pid).toBe(survivor.pid);
    const results = await Promise.all([0, 1, 2, 3].map((i) => runRalphAsync(root, ["checkpoint", "-m", `c${i}`], { env: REQUIRE })));
    for (const result of results) expect(result.status, result.stderr).toBe(0);
    expect(info(root)!.pid).toBe(survivor.pid);
    survivor.kill("SIGTERM");
    await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, 5000))]);
  });

  it("two clients racing on a repository without a warm process end with one", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const [a, b] = await Promise.all([runRalphAsync(root, ["checkpoint", "-m", "a"], { env: REQUIRE }), runRalphAsync(root, ["checkpoint", "-m", "b"], { env: REQUIRE })]);
    expect(a.status, a.stderr).toBe(0);
    expect(b.status, b.stderr).toBe(0);
    const daemon = info(root)!;
    started.push(daemon.pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // Every other server that was spawned has exited; the recorded one serves.
    const pgrep = spawnSync("pgrep", ["-f", `__daemon ${root}$`], { encoding: "utf8" });
    const pids = pgrep.stdout.split("\n").filter(Boolean).map(Number);
    if (pgrep.status === 0 || pgrep.status === 1) expect(pids).toEqual([daemon.pid]);
    expect(run(root, ["checkpoint"], REQUIRE)).toMatchObject({ status: 0, stdout: "unchanged\n" });
  });
});

describe("never required", () => {
  it("kill -9 leaves a stale socket: the next call runs in-process with the same result, and the one after gets a new warm process", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0);
    const old = info(root)!;
    process.kill(old.pid, "SIGKILL");
    await waitFor(() => !isAlive(old.pid));
    expect(lstatSync(old.socket).isSocket()).toBe(true); // left behind
    writeFileSync(join(root, "b.txt"), "b\n");
    const cold = run(root, ["checkpoint", "--json"], ON_DEMAND);
    expect(cold.status, cold.stderr).toBe(0);
    expect(JSON.parse(cold.stdout)).toMatchObject({ changed: true });
    await waitFor(() => info(root) !== null && info(root)!.pid !== old.pid);
    started.push(info(root)!.pid);
    expect(run(root, ["checkpoint"], REQUIRE)).toMatchObject({ status: 0, stdout: "unchanged\n" });
  });

  it("a warm process that does not answer in time (SIGSTOP) is passed by: the call runs in-process", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0);
    const daemon = info(root)!;
    process.kill(daemon.pid, "SIGSTOP");
    try {
      writeFileSync(join(root, "b.txt"), "b\n");
      const result = run(root, ["checkpoint", "--json"], { ...ON_DEMAND, RALPH_DAEMON_TIMEOUT_MS: "300" });
      expect(result.status, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ changed: true });
      expect(result.durationMs).toBeLessThan(30_000);
    } finally {
      process.kill(daemon.pid, "SIGCONT");
    }
    expect(run(root, ["checkpoint"], REQUIRE)).toMatchObject({ status: 0, stdout: "unchanged\n" });
    expect(info(root)!.pid).toBe(daemon.pid);
  });

  it("a warm process busy with a long Stop hook (its completion command) is passed by: a checkpoint meanwhile runs in-process", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["start", "slow", "--completion", "sleep 4"], REQUIRE).status).toBe(0);
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0); // the warm process is up
    const payload = { session_id: "s1", transcript_path: "", cwd: root, permission_mode: "default", hook_event_name: "Stop", stop_hook_active: false };
    const stop = runRalphAsync(root, ["hook", "claude", "Stop"], { env: REQUIRE, input: JSON.stringify(payload) });
    let stopEnded = 0;
    void stop.then(() => (stopEnded = Date.now()));
    await new Promise((resolve) => setTimeout(resolve, 1000)); // the Stop is running its completion command now
    writeFileSync(join(root, "b.txt"), "b\n");
    const checkpoint = await runRalphAsync(root, ["checkpoint", "--json"], { env: { ...ON_DEMAND, RALPH_DAEMON_TIMEOUT_MS: "300" } });
    const checkpointEnded = Date.now();
    expect(checkpoint.status, checkpoint.stderr).toBe(0);
    expect(JSON.parse(checkpoint.stdout)).toMatchObject({ changed: true });
    const stopped = await stop;
    expect(stopped.status, stopped.stderr).toBe(0);
    expect(JSON.parse(stopped.stdout)).toBeTypeOf("object");
    expect(checkpointEnded).toBeLessThan(stopEnded);
  });

  it("a client of the same build from another install replaces the warm process (a copied or deleted dist/ must not answer for it)", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0);
    const old = info(root)!;
    // Another install of this very build: a copy of the bundle beside its own grammars and node_modules.
    const copy = mkdtempSync(join(tmpdir(), "ralph-install-"));
    try {
      cpSync(dirname(cliPathForTests()), join(copy, "dist"), { recursive: true });
      for (const name of ["grammars", "node_modules", "package.json"]) if (existsSync(join(PROJECT_ROOT, name))) symlinkSync(join(PROJECT_ROOT, name), join(copy, name));
      const cli = join(copy, "dist", "cli.js");
      expect(readFileSync(cli, "utf8")).toContain(old.build);
      const env = { ...ralphEnv, ...REQUIRE } as NodeJS.ProcessEnv;
      delete env.RALPH_NO_DAEMON;
      const spawned = spawnSync(process.execPath, [cli, "checkpoint"], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
      expect(spawned.status, spawned.stderr).toBe(0);
      expect(spawned.stdout).toBe("unchanged\n");
      await waitFor(() => !isAlive(old.pid));
      const now = info(root)!;
      started.push(now.pid);
      expect(now.build).toBe(old.build);
      expect(now.pid).not.toBe(old.pid);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it("a client of another build replaces the warm process (it exits on the hello; the client starts its own)", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0);
    const old = info(root)!;
    // Another build: a copy of the bundle whose build id differs.
    const copy = mkdtempSync(join(tmpdir(), "ralph-build-"));
    try {
      const dist = dirname(cliPathForTests());
      cpSync(dist, join(copy, "dist"), { recursive: true });
      for (const name of ["grammars", "node_modules", "package.json"]) if (existsSync(join(PROJECT_ROOT, name))) symlinkSync(join(PROJECT_ROOT, name), join(copy, name));
      const cli = join(copy, "dist", "cli.js");
      const text = readFileSync(cli, "utf8");
      expect(text).toContain(old.build);
      const other = old.build.replace(/^./, (c) => (c === "0" ? "1" : "0"));
      writeFileSync(cli, text.replaceAll(old.build, other));
      const env = { ...ralphEnv, ...REQUIRE } as NodeJS.ProcessEnv;
      delete env.RALPH_NO_DAEMON;
      const spawned = spawnSync(process.execPath, [cli, "checkpoint"], { cwd: root, env, encoding: "utf8", timeout: 60_000 });
      expect(spawned.status, spawned.stderr).toBe(0);
      expect(spawned.stdout).toBe("unchanged\n");
      await waitFor(() => !isAlive(old.pid));
      const now = info(root)!;
      started.push(now.pid);
      expect(now.build).toBe(other);
      expect(now.pid).not.toBe(old.pid);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});

describe("exits", () => {
  it("after the idle time, removing its socket and record", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["checkpoint"], { ...REQUIRE, RALPH_DAEMON_IDLE_MS: "1500" }).status).toBe(0);
    const daemon = info(root)!;
    await waitFor(() => !isAlive(daemon.pid), 20_000);
    expect(existsSync(daemon.socket)).toBe(false);
    expect(info(root)).toBeNull();
  });

  it("not while a request runs longer than the idle time (a Stop hook's completion command); after it, once idle", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const env = { ...REQUIRE, RALPH_DAEMON_IDLE_MS: "1500" };
    expect(run(root, ["start", "slow", "--completion", "sleep 3"], env).status).toBe(0);
    expect(run(root, ["checkpoint"], env).status).toBe(0);
    const daemon = info(root)!;
    const payload = { session_id: "s1", transcript_path: "", cwd: root, permission_mode: "default", hook_event_name: "Stop", stop_hook_active: false };
    const stopped = run(root, ["hook", "claude", "Stop"], env, { input: JSON.stringify(payload) });
    expect(stopped.status, stopped.stderr).toBe(0);
    expect(isAlive(daemon.pid)).toBe(true);
    expect(existsSync(daemon.socket)).toBe(true);
    await waitFor(() => !isAlive(daemon.pid), 20_000);
  });

  it("when its repository is gone", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0);
    const daemon = info(root)!;
    rmSync(root, { recursive: true, force: true });
    await waitFor(() => !isAlive(daemon.pid), 20_000);
  });

  it("on ralph daemon stop, which waits for it", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0);
    const daemon = info(root)!;
    const stopped = run(root, ["daemon", "stop", "--json"], ON_DEMAND);
    expect(JSON.parse(stopped.stdout)).toMatchObject({ stopped: true, pid: daemon.pid });
    expect(isAlive(daemon.pid)).toBe(false);
    expect(JSON.parse(run(root, ["daemon", "status", "--json"], ON_DEMAND).stdout)).toMatchObject({ running: false });
    expect(JSON.parse(run(root, ["daemon", "stop", "--json"], ON_DEMAND).stdout)).toMatchObject({ stopped: false, running: false });
  });
});

describe("paths", () => {
  it("a git dir whose socket path would not fit sun_path listens under XDG_RUNTIME_DIR in a 0700 folder, recorded in .git/ralph/daemon", () => {
    const base = makeTempDir();
    const root = join(base, "a-rather-long-folder-name-to-push-the-socket-path-over-the-limit-of-sun-path-xxxxxxxxxx");
    spawnSync("mkdir", ["-p", root]);
    spawnSync("git", ["init", "-q", "-b", "main", root]);
    writeFileSync(join(root, "a.txt"), "a\n");
    const runtime = makeTempDir();
    expect(run(root, ["checkpoint"], { ...REQUIRE, XDG_RUNTIME_DIR: runtime }).status).toBe(0);
    const daemon = info(root)!;
    expect(Buffer.byteLength(join(root, ".git", "ralph", "daemon", "sock"))).toBeGreaterThan(100);
    expect(daemon.socket.startsWith(join(runtime, `ralph-${process.getuid!()}`))).toBe(true);
    expect(readFileSync(join(root, ".git", "ralph", "daemon", "socket-path"), "utf8").trim()).toBe(daemon.socket);
    expect(statSync(dirname(daemon.socket)).mode & 0o777).toBe(0o700);
    expect(lstatSync(daemon.socket).mode & 0o777).toBe(0o600);
    // A client with another XDG_RUNTIME_DIR finds the same one through the record.
    expect(run(root, ["checkpoint"], { ...REQUIRE, XDG_RUNTIME_DIR: undefined })).toMatchObject({ status: 0, stdout: "unchanged\n" });
    expect(info(root)!.pid).toBe(daemon.pid);
  });

  it("refuses a request whose cwd lies outside its work tree", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const outside = makeRepo({ "b.txt": "b\n" });
    expect(run(root, ["checkpoint"], REQUIRE).status).toBe(0);
    const daemon = info(root)!;
    const answers = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const socket = createConnection(daemon.socket);
      const decoder = new FrameDecoder();
      const got: Record<string, unknown>[] = [];
      socket.on("connect", () => {
        socket.write(encodeFrame({ type: "hello", protocol: 1, build: daemon.build }));
        socket.write(
          encodeFrame({
            type: "run",
            argv: ["checkpoint"],
            cwd: outside,
            env: {},
            stdinBase64: "",
            stdinOpen: false,
            stdoutIsTTY: false,
            stderrIsTTY: false,
            stderrColumns: 0,
            processStartMs: Date.now(),
            maxQueueMs: 1000,
          }),
        );
      });
      socket.on("data", (chunk: Buffer) => got.push(...(decoder.push(chunk) as Record<string, unknown>[])));
      socket.on("close", () => resolve(got));
      socket.on("error", reject);
    });
    expect(answers.map((a) => a.type)).toEqual(["hello", "refused"]);
    expect(String(answers[1]!.reason)).toContain("outside");
    expect(existsSync(join(outside, ".git", "refs", "ralph"))).toBe(false);
  });
});
