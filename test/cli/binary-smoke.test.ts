/**
 * Every command once through the built binary (dist/cli.js as a real
 * process, `npm run build` first): the other CLI, store and loop test files
 * run commands in-process (runCli), so this file is what shows the bundle
 * starts, finds its chunks and grammars, and maps results to exit codes (0
 * ok, 1 a BLOCK verdict, 2 a user-fixable error with one `ralph: ` line on
 * stderr and the `{"error": …}` object on stdout with --json). The demo runs
 * the binary in test/cli/demo.test.ts, the shell loop in test/loop/cli.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IN_PROCESS_VERSION, linesOf, parseJsonOutput, runRalph, type RunResult } from "../helpers/cli.js";
import { fsck, git, makeRepo, makeTempDir, writeFiles } from "../helpers/git.js";

const OID = /^[0-9a-f]{40}$/;

const TESTS = 'import { test, expect } from "vitest";\ntest("adds", () => { expect(1 + 1).toBe(2); });\ntest("subtracts", () => { expect(2 - 1).toBe(1); });\n';
const ONE_TEST = 'import { test, expect } from "vitest";\ntest("adds", () => { expect(1 + 1).toBe(2); });\n';

/** Asserts exit 0 and returns the parsed --json stdout. */
function okJson<T>(result: RunResult, what: string): T {
  expect(result.status, `${what}: ${result.stderr}`).toBe(0);
  return parseJsonOutput<T>(result);
}

/** Asserts the error shape of a --json run: `exit`, one `ralph: ` line on stderr, `{"error": {code}}` on stdout. */
function expectError(result: RunResult, exit: number, code: string): void {
  expect(result.status, result.stderr).toBe(exit);
  expect(linesOf(result.stderr)).toHaveLength(1);
  expect(result.stderr).toMatch(/^ralph: \S/);
  expect(parseJsonOutput<{ error: { code: string } }>(result).error.code).toBe(code);
}

describe("the built binary", () => {
  it("--version (the fast path), --help, an unknown command (exit 2) and a directory outside any repository (exit 2)", () => {
    const dir = makeTempDir();
    const version = runRalph(dir, ["--version"]);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout).toBe(`${IN_PROCESS_VERSION}\n`);
    const help = runRalph(dir, ["--help"]);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toContain("Usage:");
    expect(help.stderr).toBe("");
    expectError(runRalph(dir, ["frobnicate", "--json"]), 2, "E_USAGE");
    expectError(runRalph(dir, ["checkpoint", "--json"]), 2, "E_NOT_A_REPO");
  });

  it("checkpoint, log, loops, diff, check (exit 1 on BLOCK), tests, revert, config, gc and stats", () => {
    const root = makeRepo({ "src/a.js": "export const a = 1;\n", "test/a.test.js": TESTS });
    const made = okJson<{ oid: string; changed: boolean }>(runRalph(root, ["checkpoint", "--loop", "smoke", "--json"]), "checkpoint");
    expect(made.oid).toMatch(OID);
    expect(git(root, ["rev-parse", "refs/ralph/smoke/head"]).trim()).toBe(made.oid);
    expect(okJson<{ oid: string }[]>(runRalph(root, ["log", "--loop", "smoke", "--json"]), "log").map((e) => e.oid)).toEqual([made.oid]);
    expect(okJson<{ loop: string }[]>(runRalph(root, ["loops", "--json"]), "loops").map((l) => l.loop)).toEqual(["smoke"]);

    writeFiles(root, { "test/a.test.js": ONE_TEST });
    const diff = okJson<{ files: { path: string; status: string }[] }>(runRalph(root, ["diff", "@baseline", "--loop", "smoke", "--json"]), "diff");
    expect(diff.files).toEqual([expect.objectContaining({ path: "test/a.test.js", status: "M" })]);
    const check = runRalph(root, ["check", "--loop", "smoke", "--json"]);
    expect(check.status, check.stderr).toBe(1);
    expect(parseJsonOutput<{ verdict: string; findings: { type: string }[] }>(check)).toMatchObject({ verdict: "BLOCK", findings: [expect.objectContaining({ type: "test_deletion" })] });
    expect(okJson<{ tests: { id: string }[] }>(runRalph(root, ["tests", "--json"]), "tests").tests.map((t) => t.id)).toEqual(["adds"]);

    const revert = okJson<{ preRevert: string; restored: string }>(runRalph(root, ["revert", "@baseline", "--loop", "smoke", "--json"]), "revert");
    expect(revert.preRevert).toMatch(OID);
    expect(readFileSync(join(root, "test/a.test.js"), "utf8")).toBe(TESTS);
    expect(runRalph(root, ["check", "--loop", "smoke"]).status).toBe(0);

    const config = okJson<{ sources: Record<string, string> }>(runRalph(root, ["config", "--json"], { env: { RALPH_AUTO_REVERT: "1" } }), "config");
    expect(config.sources["recovery.auto_revert"]).toBe("env:RALPH_AUTO_REVERT");
    // The test environment dates commits 2026-01-01, so the loop is old enough for gc; a dry run deletes nothing.
    const refsBefore = git(root, ["for-each-ref", "refs/ralph"]);
    expect(okJson<{ loops: { loop: string }[] }>(runRalph(root, ["gc", "--dry-run", "--json"]), "gc").loops.map((l) => l.loop)).toEqual(["smoke"]);
    expect(git(root, ["for-each-ref", "refs/ralph"])).toBe(refsBefore);
    expect(runRalph(root, ["stats"]).status).toBe(0);
    fsck(root);
  });

  it("push and fetch against a bare remote", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const remote = join(makeTempDir("ralph-remote-"), "remote.git");
    git(root, ["init", "-q", "--bare", remote]);
    git(root, ["remote", "add", "origin", remote]);
    expect(runRalph(root, ["checkpoint", "--loop", "shared"]).status).toBe(0);
    const pushed = okJson<{ updated: string[] }>(runRalph(root, ["push", "--json"]), "push");
    expect(pushed.updated.sort()).toEqual(["refs/ralph/shared/baseline", "refs/ralph/shared/head"]);
    const clone = makeRepo({ "b.txt": "b\n" });
    git(clone, ["remote", "add", "origin", remote]);
    okJson(runRalph(clone, ["fetch", "--json"]), "fetch");
    expect(git(clone, ["rev-parse", "refs/ralph/shared/head"]).trim()).toBe(git(root, ["rev-parse", "refs/ralph/shared/head"]).trim());
  });

  it("install, a hook call of each kind, doctor and uninstall", () => {
    const root = makeRepo({ "a.txt": "a\n", ".claude/settings.json": '{ "model": "the user\'s own setting" }\n' });
    expect(runRalph(root, ["install", "--claude", "--git-hooks"]).status).toBe(0);
    // The installed hooks name this bundle; doctor runs each one as a process and says they answer.
    const settings = readFileSync(join(root, ".claude", "settings.json"), "utf8");
    expect(settings).toContain("cli.js");
    const doctor = runRalph(root, ["doctor", "--json"]);
    expect(doctor.status, `${doctor.stdout}\n${doctor.stderr}`).toBe(0);
    const session = runRalph(root, ["hook", "claude", "SessionStart"], { input: JSON.stringify({ hook_event_name: "SessionStart", session_id: "s1", cwd: root, source: "startup" }) });
    expect(session.status, session.stderr).toBe(0);
    expect(parseJsonOutput(session)).toBeTypeOf("object");
    // git's pre-push with nothing to push: exit 0.
    const prePush = runRalph(root, ["hook", "git", "pre-push", "origin", "/nowhere"], { input: "" });
    expect(prePush.status, prePush.stderr).toBe(0);
    expect(runRalph(root, ["uninstall"]).status).toBe(0);
    const kept = readFileSync(join(root, ".claude", "settings.json"), "utf8");
    expect(kept).not.toContain("cli.js");
    expect(kept).toContain("the user's own setting");
  });

  it("the loop commands: start, status, iterate, select, report, resume, approve, reject, abort, confirm and cancel", () => {
    const root = makeRepo({ "a.txt": "a\n", "quality.txt": "70\n" });
    const started = okJson<{ loop: string; status: string }>(runRalph(root, ["start", "Smoke", "--completion", "false", "--quality", "cat quality.txt", "--id", "smoke", "--json"]), "start");
    expect(started).toMatchObject({ loop: "smoke", status: "running" });
    expect(okJson<{ status: string; iteration: number }>(runRalph(root, ["status", "--json"]), "status")).toMatchObject({ status: "running", iteration: 0 });
    expect(okJson<{ iteration: number; done: boolean }>(runRalph(root, ["iterate", "--json"]), "iterate")).toMatchObject({ iteration: 1, done: false });
    expect(okJson<{ iteration: number }>(runRalph(root, ["select", "--best", "--dry-run", "--json"]), "select")).toMatchObject({ iteration: 1 });
    expect(runRalph(root, ["report", "--loop", "smoke"]).status).toBe(0);
    // ralph's guard was not changed outside ralph: nothing to confirm.
    expect(okJson<{ changes: unknown[]; restore: boolean }>(runRalph(root, ["confirm", "--json"]), "confirm")).toEqual({ changes: [], restored: [], restore: false });
    // No gate pending and nothing crashed: the gate commands refuse with a user-fixable error.
    for (const command of ["resume", "approve", "reject"]) {
      const r = runRalph(root, [command, "--json"]);
      expect(r.status, `${command}: ${r.stderr}`).toBe(2);
      expect(linesOf(r.stderr), command).toHaveLength(1);
    }
    expect(okJson<{ status: string }>(runRalph(root, ["abort", "--json"]), "abort")).toMatchObject({ status: "aborted" });
    expect(okJson<{ cancelled: boolean }>(runRalph(root, ["cancel", "--loop", "smoke", "--json"]), "cancel")).toMatchObject({ cancelled: false });
  });
});
