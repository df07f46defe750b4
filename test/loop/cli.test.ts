/**
 * The loop commands (in-process, runCli; the README's shell loop runs the
 * built binary): start -> iterate … ->
 * completed with the documented exit codes, the shell loop of the README,
 * status and cancel (--json shapes), resume, usage errors.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPathForTests, parseJsonOutput, ralphEnv, runRalphInProcess } from "../helpers/cli.js";
import { git, makeRepo, writeFiles } from "../helpers/git.js";

interface StartJson {
  loop: string;
  resumed: boolean;
  status: string;
  iteration: number;
  max_iterations: number;
  baseline: string;
}

describe("ralph start / iterate / status / cancel", () => {
  it("start -> iterate (keep going, exit 0) -> iterate (completed, exit 2)", async () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const start = await runRalphInProcess(repo, ["start", "Make done.txt", "--completion", "test -f done.txt || { echo missing done.txt; exit 1; }", "--max-iterations", "5", "--json"]);
    expect(start.status, start.stderr).toBe(0);
    const started = parseJsonOutput<StartJson>(start);
    expect(started).toMatchObject({ resumed: false, status: "running", iteration: 0, max_iterations: 5 });
    expect(started.loop).toMatch(/^ralph-make-done-txt-[0-9a-f]{8}$/);
    expect(git(repo, ["rev-parse", `refs/ralph/${started.loop}/baseline`]).trim()).toBe(started.baseline);
    expect(readFileSync(join(repo, ".aiwg", "ralph", "active"), "utf8").trim()).toBe(started.loop);
    expect(git(repo, ["status", "--porcelain"])).toBe("");

    const first = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(first.status, first.stderr).toBe(0);
    expect(parseJsonOutput(first)).toMatchObject({ loop: started.loop, iteration: 1, done: false, status: "running", passed: false, exit_code: 1 });
    expect(first.stderr).toContain("missing done.txt");

    writeFiles(repo, { "done.txt": "ok\n" });
    const second = await runRalphInProcess(repo, ["iterate"]);
    expect(second.status).toBe(2);
    expect(second.stderr).toContain("completed at iteration 2");
    expect(git(repo, ["rev-parse", `refs/ralph/${started.loop}/iterations/0002`]).trim()).toMatch(/^[0-9a-f]{40}$/);
    expect(git(repo, ["show", `refs/ralph/${started.loop}/iterations/0002:done.txt`])).toBe("ok\n");

    const status = await runRalphInProcess(repo, ["status", "--json"]);
    expect(status.status).toBe(0);
    const json = parseJsonOutput<{ status: string; iteration: number; active: boolean; progress: { completion_checks: { passed: boolean }[] } }>(status);
    expect(json).toMatchObject({ status: "completed", iteration: 2, active: false });
    expect(json.progress.completion_checks.map((c) => c.passed)).toEqual([false, true]);
    expect(existsSync(join(repo, ".aiwg", "ralph", "loops", started.loop, "iterations", "0002.json"))).toBe(true);
    // Nothing left to iterate.
    expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(2);
  });

  it("drives the README's shell loop to completion", async () => {
    const repo = makeRepo({ "n.txt": "0\n" });
    expect((await runRalphInProcess(repo, ["start", "Count to 3", "--completion", "test $(cat n.txt) -ge 3", "--id", "count"])).status).toBe(0);
    const agent = "echo $(( $(cat n.txt) + 1 )) > n.txt";
    const script = `n=0; while :; do ${agent}; n=$((n+1)); "${process.execPath}" "${cliPathForTests()}" iterate >/dev/null 2>&1 || break; done; echo $n`;
    const run = spawnSync("/bin/sh", ["-c", script], { cwd: repo, env: ralphEnv, encoding: "utf8", timeout: 60_000 });
    expect(run.stdout.trim()).toBe("3");
    expect(parseJsonOutput(await runRalphInProcess(repo, ["status", "--json", "--loop", "count"]))).toMatchObject({ status: "completed", iteration: 3 });
  });

  it("stops a shell loop at max iterations with the loop failed", async () => {
    const repo = makeRepo();
    expect((await runRalphInProcess(repo, ["start", "Never", "--completion", "false", "--max-iterations", "2", "--id", "never"])).status).toBe(0);
    expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(0);
    const last = await runRalphInProcess(repo, ["iterate", "--json"]);
    expect(last.status).toBe(2);
    expect(parseJsonOutput<{ error: { data: { done: boolean; status: string } } }>(last).error.data).toMatchObject({ done: true, status: "failed" });
  });

  it("resumes the active loop on a second start, and refuses another task while it runs", async () => {
    const repo = makeRepo();
    const first = parseJsonOutput<StartJson>(await runRalphInProcess(repo, ["start", "Task one", "--completion", "false", "--json"]));
    expect((await runRalphInProcess(repo, ["iterate"])).status).toBe(0);
    const again = await runRalphInProcess(repo, ["start", "Task one", "--completion", "false", "--json"]);
    expect(parseJsonOutput<StartJson>(again)).toMatchObject({ loop: first.loop, resumed: true, iteration: 1 });
    const other = await runRalphInProcess(repo, ["start", "Task two", "--completion", "true"]);
    expect(other.status).toBe(2);
    expect(other.stderr).toContain(first.loop);
  });

  it("cancel aborts the loop and clears the active mark", async () => {
    const repo = makeRepo();
    const { loop } = parseJsonOutput<StartJson>(await runRalphInProcess(repo, ["start", "Cancel me", "--completion", "false", "--json"]));
    const cancel = await runRalphInProcess(repo, ["cancel", "--json"]);
    expect(cancel.status).toBe(0);
    expect(parseJsonOutput(cancel)).toEqual({ loop, cancelled: true, previous_status: "running", status: "aborted" });
    expect(existsSync(join(repo, ".aiwg", "ralph", "active"))).toBe(false);
    expect(parseJsonOutput(await runRalphInProcess(repo, ["status", "--json", "--loop", loop]))).toMatchObject({ status: "aborted", active: false });
    expect((await runRalphInProcess(repo, ["iterate", "--loop", loop])).status).toBe(2);
    // A second cancel changes nothing.
    expect(parseJsonOutput(await runRalphInProcess(repo, ["cancel", "--loop", loop, "--json"]))).toMatchObject({ cancelled: false, previous_status: "aborted" });
  });

  it.each([
    [["start", "Task"], "E_USAGE"],
    [["start", "Task", "--completion", "true", "--max-iterations", "0"], "E_USAGE"],
    [["start", "Task", "--completion", "true", "--max-iterations", "201"], "E_USAGE"],
    [["start", "Task", "--completion", "true", "--id", "../x"], "E_BAD_LOOP_ID"],
    [["status"], "E_UNKNOWN_LOOP"],
    [["iterate"], "E_UNKNOWN_LOOP"],
    [["cancel", "--loop", "nope"], "E_UNKNOWN_LOOP"],
  ])("%j fails with %s (exit 2)", async (args, code) => {
    const repo = makeRepo();
    const run = await runRalphInProcess(repo, [...args, "--json"]);
    expect(run.status).toBe(2);
    expect(parseJsonOutput<{ error: { code: string } }>(run).error.code).toBe(code);
  });

  it("start on an active loop warns that its own --completion and --max-iterations were kept, and says how to change them", async () => {
    const repo = makeRepo();
    expect((await runRalphInProcess(repo, ["start", "Same task", "--completion", "false", "--max-iterations", "5"])).status).toBe(0);
    const again = await runRalphInProcess(repo, ["start", "Same task", "--completion", "true", "--max-iterations", "9", "--json"]);
    expect(again.status).toBe(0);
    const json = parseJsonOutput<{ resumed: boolean; completion: string; max_iterations: number; warnings: string[] }>(again);
    expect(json).toMatchObject({ resumed: true, completion: "false", max_iterations: 5 });
    expect(json.warnings).toHaveLength(1);
    expect(again.stderr).toMatch(/warning: .*--completion "false" \(not "true"\).*--max-iterations 5 \(not 9\).*ralph cancel/);
    const same = await runRalphInProcess(repo, ["start", "Same task", "--completion", "false", "--json"]);
    expect(parseJsonOutput<{ warnings: string[] }>(same).warnings).toEqual([]);
  });

  it("reports a corrupt state with its path, as a user-fixable error (exit 2, E_BAD_STATE: the README promises 2 for an unreadable file)", async () => {
    const repo = makeRepo();
    await runRalphInProcess(repo, ["start", "Corrupt", "--completion", "false", "--id", "corrupt"]);
    writeFiles(repo, { ".aiwg/ralph/loops/corrupt/state.json": "{ nope" });
    const json = await runRalphInProcess(repo, ["status", "--json"]);
    expect(json.status).toBe(2);
    expect(parseJsonOutput<{ error: { code: string } }>(json).error.code).toBe("E_BAD_STATE");
    const run = await runRalphInProcess(repo, ["status"]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain(join(".aiwg", "ralph", "loops", "corrupt", "state.json"));
  });
});
