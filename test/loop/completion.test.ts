/**
 * runCompletionCommand: pass, fail with output, timeout that kills the whole
 * process group (a grandchild too), output kept to its end, the loop's
 * environment, a command that cannot start, and a child that left the
 * group and cleared its environment, found through the pipe it holds.
 */
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_CAPTURE_CHARS, runCompletionCommand } from "../../src/loop/lifecycle.js";
import { makeTempDir } from "../helpers/git.js";

/** True while `pid` runs; a zombie (killed, waiting for a parent that may never reap it) is not running. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

describe("runCompletionCommand", () => {
  it.each([
    ["true", 0, ""],
    ["echo out; echo err >&2; exit 7", 7, "out\nerr\n"],
    ["exit 1", 1, ""],
  ] as const)("%s -> exit %s", async (command, exitCode, output) => {
    const run = await runCompletionCommand(command, { cwd: makeTempDir(), timeoutMs: 10_000 });
    expect(run).toMatchObject({ exitCode, timedOut: false, output });
  });

  it("runs in cwd with the given environment", async () => {
    const dir = makeTempDir();
    const run = await runCompletionCommand('pwd; echo "$RALPH_LOOP"', { cwd: dir, timeoutMs: 10_000, env: { RALPH_LOOP: "loop-1" } });
    expect(run.output).toBe(`${dir}\nloop-1\n`);
  });

  it("kills the whole process group on timeout, grandchildren included", async () => {
    const dir = makeTempDir();
    const started = performance.now();
    const run = await runCompletionCommand("sleep 30 & echo $! > child.pid; echo waiting; wait", { cwd: dir, timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(run).toMatchObject({ exitCode: null, timedOut: true });
    expect(run.output).toContain("waiting");
    const grandchild = Number(readFileSync(join(dir, "child.pid"), "utf8"));
    await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(grandchild)).toBe(false);
  });

  it("SIGKILLs a command that ignores SIGTERM", async () => {
    const run = await runCompletionCommand("trap '' TERM; sleep 30", { cwd: makeTempDir(), timeoutMs: 200 });
    expect(run.timedOut).toBe(true);
    expect(run.durationMs).toBeLessThan(6_000);
  });

  it("keeps the end of a long output", async () => {
    const run = await runCompletionCommand("i=0; while [ $i -lt 20000 ]; do echo line $i; i=$((i+1)); done", { cwd: makeTempDir(), timeoutMs: 20_000 });
    expect(run.exitCode).toBe(0);
    expect(run.output.length).toBeLessThanOrEqual(MAX_CAPTURE_CHARS);
    expect(run.output.endsWith("line 19999\n")).toBe(true);
  });

  it("kills a child that left the group and cleared its environment (env -i setsid) through the output pipe it holds, and leaves no FIFO behind", async () => {
    const dir = makeTempDir();
    const before = readdirSync(tmpdir()).filter((n) => n.startsWith("ralph-cmd-")).length;
    const started = performance.now();
    const command = `env -i "$(command -v setsid)" "$(command -v sleep)" 40 & echo $! > child.pid; echo 'FAIL: 1 test' >&2; exit 1`;
    const run = await runCompletionCommand(command, { cwd: dir, timeoutMs: 20_000 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(run).toMatchObject({ exitCode: 1, timedOut: false, output: "FAIL: 1 test\n" });
    const child = Number(readFileSync(join(dir, "child.pid"), "utf8"));
    // Neither its group nor its environment names it: only the pipe does.
    await new Promise((r) => setTimeout(r, 100));
    expect(isAlive(child)).toBe(false);
    expect(readdirSync(tmpdir()).filter((n) => n.startsWith("ralph-cmd-")).length).toBeLessThanOrEqual(before);
  });

  it("a child holding the pipe that writes after the command exited neither holds the run nor outlives it", async () => {
    const dir = makeTempDir();
    const command = `(env -i "$(command -v setsid)" sh -c 'while :; do echo tick; sleep 0.05; done' &) ; echo $$ > shell.pid; echo done`;
    const started = performance.now();
    const run = await runCompletionCommand(command, { cwd: dir, timeoutMs: 20_000 });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(run.exitCode).toBe(0);
    expect(run.output.startsWith("done\n") || run.output.includes("done\n")).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    const ticking = readdirSync("/proc")
      .filter((pid) => /^\d+$/.test(pid))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "latin1").includes("while :; do echo tick") && isAlive(Number(pid));
        } catch {
          return false;
        }
      });
    expect(ticking).toEqual([]);
  });

  it("reports a command that is not found as a failure, not an exception", async () => {
    const run = await runCompletionCommand("definitely-not-a-command-ralph", { cwd: makeTempDir(), timeoutMs: 10_000 });
    expect(run.exitCode).toBe(127);
    expect(run.output).toMatch(/not found/);
  });
});
