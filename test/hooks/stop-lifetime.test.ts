/**
 * The Stop hook's own process lifetime, through the built CLI (issue 10,
 * "The session can be held"): Claude Code waits for the hook process to
 * exit, not for its answer, so a completion command that leaves a
 * background child holding its output must not keep `ralph hook claude
 * Stop` alive. Each case measures the time to the hook process's `exit`
 * event (not the answer's) and checks the child is gone. The Stop hook is
 * the built CLI's process (its lifetime is what is checked); `ralph start`
 * runs in-process. Run `npm run build` first.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPathForTests, ralphEnv, runRalphInProcess } from "../helpers/cli.js";
import { makeRepo, makeTempDir } from "../helpers/git.js";

/** Runs `ralph hook claude Stop` with `payload`; resolves at the process's exit with the time it took and its stdout. */
function stopHook(cwd: string, payload: unknown): Promise<{ exitMs: number; status: number | null; stdout: string; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cliPathForTests(), "hook", "claude", "Stop"], { cwd, env: ralphEnv, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  child.stdin.end(JSON.stringify(payload));
  const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return new Promise((resolve) => {
    child.on("exit", (status) => {
      const exitMs = performance.now() - started;
      clearTimeout(killer);
      // stdout is drained shortly after exit; a grandchild cannot hold it (it never had it).
      child.on("close", () => resolve({ exitMs, status, stdout, stderr }));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitGone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

const CHILD_SECONDS = 40;

// Each command leaves a child that would live CHILD_SECONDS with the command's stdout/stderr open, and records its pid.
const CASES: Array<{ name: string; command: (pidFile: string) => string }> = [
  { name: "a background child in the command's process group (sleep & exit 1)", command: (f) => `sleep ${CHILD_SECONDS} & echo $! > '${f}'; echo FAIL: not done; exit 1` },
  { name: "a setsid child in a session of its own", command: (f) => `setsid sleep ${CHILD_SECONDS} & echo $! > '${f}'; echo FAIL: not done >&2; exit 1` },
  {
    name: "a dev server started by the test script (a node process that writes to the pipe)",
    command: (f) => `node -e 'setInterval(() => console.log("serving"), 200)' & echo $! > '${f}'; sleep 0.3; echo 'FAIL: 1 test failed'; exit 1`,
  },
  { name: "a passing command that leaves a setsid child", command: (f) => `setsid sleep ${CHILD_SECONDS} & echo $! > '${f}'; exit 0` },
  // Neither the group nor the cookie names it (env -i clears RALPH_COMMAND_TOKEN): found through the pipe it holds.
  {
    name: "a setsid child that also cleared its environment (env -i setsid), holding the pipe",
    command: (f) => `env -i "$(command -v setsid)" "$(command -v sleep)" ${CHILD_SECONDS} & echo $! > '${f}'; echo FAIL: not done; exit 1`,
  },
  // Holds no pipe: found by the cookie (a daemon that outlives the check would outlive every later one too).
  { name: "a setsid daemon with its output sent elsewhere", command: (f) => `setsid sleep ${CHILD_SECONDS} >/dev/null 2>&1 & echo $! > '${f}'; exit 1` },
];

describe("the Stop hook process exits once the completion command has", () => {
  for (const c of CASES) {
    it(`exits at once and kills ${c.name}`, async () => {
      const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
      const pidFile = join(makeTempDir(), "child.pid");
      const start = await runRalphInProcess(repo, ["start", "finish the task", "--completion", c.command(pidFile), "--json"]);
      expect(start.status, start.stderr).toBe(0);
      const result = await stopHook(repo, { hook_event_name: "Stop", session_id: "owner", cwd: repo, stop_hook_active: false });
      expect(result.status, result.stderr).toBe(0);
      const answer = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(answer.decision === "block" || Object.keys(answer).length === 0).toBe(true);
      // Node start-up, a checkpoint and the command take about a second; the child would hold the pipe for 40 s.
      expect(result.exitMs).toBeLessThan(15_000);
      expect(existsSync(pidFile)).toBe(true);
      const pid = Number(readFileSync(pidFile, "utf8").trim());
      expect(Number.isInteger(pid) && pid > 1).toBe(true);
      expect(await waitGone(pid, 3_000)).toBe(true);
    }, 60_000);
  }

  it("exits at once after a timed-out command whose setsid child holds the pipe", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    const pidFile = join(makeTempDir(), "child.pid");
    const command = `setsid sleep ${CHILD_SECONDS} & echo $! > '${pidFile}'; sleep ${CHILD_SECONDS}`;
    expect((await runRalphInProcess(repo, ["start", "finish the task", "--completion", command, "--completion-timeout", "1000"])).status).toBe(0);
    const result = await stopHook(repo, { hook_event_name: "Stop", session_id: "owner", cwd: repo, stop_hook_active: false });
    expect((JSON.parse(result.stdout) as { decision?: string }).decision).toBe("block");
    expect(result.exitMs).toBeLessThan(15_000);
    expect(await waitGone(Number(readFileSync(pidFile, "utf8").trim()), 3_000)).toBe(true);
  }, 60_000);
});
