/**
 * Defects found by trying main cold (helper "breaker", 2026-12-02), each as
 * the failing input a fix must make pass. Through the built CLI (run
 * `npm run build` first) and real temporary repositories; see
 * /work/notes/breaker.md for the commands and expected/actual outputs.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runRalph, type RunResult } from "../helpers/cli.js";
import { makeRepo, makeTempDir } from "../helpers/git.js";

/** A call that must go through a warm process (the client starts one and waits for it). */
const REQUIRE: NodeJS.ProcessEnv = { RALPH_DAEMON: "require", RALPH_NO_DAEMON: undefined, CI: undefined, RALPH_DAEMON_IDLE_MS: "20000" };
/** A call that may use a warm process, as in real use. */
const ON_DEMAND: NodeJS.ProcessEnv = { RALPH_DAEMON: undefined, RALPH_NO_DAEMON: undefined, CI: undefined, RALPH_DAEMON_IDLE_MS: "20000" };

const started: number[] = [];

function daemonPid(root: string): number | null {
  try {
    return (JSON.parse(readFileSync(join(root, ".git", "ralph", "daemon", "daemon.json"), "utf8")) as { pid: number }).pid;
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

afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGCONT");
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
});

function stderrLines(result: RunResult): string[] {
  return result.stderr.split("\n").filter((line) => line.trim() !== "");
}

describe("warm process: a huge hook payload", () => {
  it("a Claude Code hook payload over the 64 MiB frame (after base64) fails open with one stderr line, as in-process, instead of a RangeError stack and exit 1", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(runRalph(root, ["checkpoint"], { env: REQUIRE }).status).toBe(0);
    const pid = daemonPid(root);
    expect(pid).not.toBeNull();
    started.push(pid!);
    const payload = Buffer.alloc(52_000_000, "a");
    const cold = runRalph(root, ["hook", "claude", "PreToolUse"], { env: { RALPH_NO_DAEMON: "1" }, input: payload });
    expect(cold.status).toBe(0);
    expect(cold.stdout.trim()).toBe("{}");
    const warm = runRalph(root, ["hook", "claude", "PreToolUse"], { env: ON_DEMAND, input: payload });
    expect(warm.status, warm.stderr.slice(0, 400)).toBe(0);
    expect(warm.stdout.trim()).toBe("{}");
    expect(stderrLines(warm)).toHaveLength(1);
  });
});

describe("warm process: ralph daemon stop on a process that does not answer", () => {
  it("a SIGSTOPped warm process (its pid in daemon.json, alive) is not reported as 'running: false' and is stopped by ralph daemon stop", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect(runRalph(root, ["checkpoint"], { env: REQUIRE }).status).toBe(0);
    const pid = daemonPid(root)!;
    started.push(pid);
    process.kill(pid, "SIGSTOP");
    const status = runRalph(root, ["daemon", "status", "--json"], { env: ON_DEMAND });
    const parsed = JSON.parse(status.stdout) as { running: boolean; pid?: number };
    // Actual: {"running": false} although process `pid` holds the socket.
    expect(parsed.running === true || parsed.pid === pid).toBe(true);
    const stop = runRalph(root, ["daemon", "stop", "--json"], { env: ON_DEMAND });
    expect(stop.status).toBe(0);
    process.kill(pid, "SIGCONT");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Actual: stop printed {"stopped": false, "running": false} and the process serves on after SIGCONT.
    expect(isAlive(pid)).toBe(false);
  });
});

describe("warm process: a copied repository whose socket path is the recorded fallback", () => {
  it("ralph daemon status and stop in a copy (cp -a) of a long-path repository answer for the copy, not for the original's warm process", () => {
    const base = makeTempDir();
    const runtime = makeTempDir();
    const long = "a-rather-long-folder-name-to-push-the-socket-path-over-the-limit-of-sun-path-xxxxxxxxxx";
    const root = join(base, "orig", long);
    mkdirSync(root, { recursive: true });
    spawnSync("git", ["init", "-q", "-b", "main", root]);
    writeFileSync(join(root, "a.txt"), "a\n");
    expect(runRalph(root, ["checkpoint"], { env: { ...REQUIRE, XDG_RUNTIME_DIR: runtime } }).status).toBe(0);
    const pid = daemonPid(root)!;
    started.push(pid);
    const copy = join(base, "copy", long);
    cpSync(root, copy, { recursive: true });
    const status = JSON.parse(runRalph(copy, ["daemon", "status", "--json"], { env: { ...ON_DEMAND, XDG_RUNTIME_DIR: runtime } }).stdout) as { running: boolean; work_tree: string };
    // Actual: {"running": true, "pid": <the original's>, "work_tree": "<the original>"}.
    expect(status.running === false || status.work_tree === copy).toBe(true);
    runRalph(copy, ["daemon", "stop", "--json"], { env: { ...ON_DEMAND, XDG_RUNTIME_DIR: runtime } });
    // Actual: the original's warm process is stopped.
    expect(isAlive(pid)).toBe(true);
  });
});
