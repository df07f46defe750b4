/**
 * `ralph push`, `ralph fetch` and `ralph gc` against a bare remote with the
 * real git binary: loops travel only through these commands (an ordinary
 * push does not carry them), a ref that is not a fast-forward is kept and
 * reported, the pre-push guard does not judge refs/ralph/*, and gc deletes
 * old loops' refs but baseline and best (unless --all), leaves refs ralph
 * did not write and running loops alone, prunes facts of blobs nothing
 * references any more, and leaves `git fsck` clean.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRefReport } from "../../src/store/loop-sharing.js";
import { withChecksum } from "../../src/checksum.js";
import { parseAgeSec } from "../../src/cli/commands/gc.js";
import { spawnSync } from "node:child_process";
import { parseJsonOutput, ralphEnv, runRalphInProcess } from "../helpers/cli.js";
import { git, makeRepo, makeTempDir } from "../helpers/git.js";

function refsOf(gitDirOrRoot: string, bare = false): Record<string, string> {
  const out = git(gitDirOrRoot, [...(bare ? ["--git-dir", gitDirOrRoot] : []), "for-each-ref", "--format=%(refname) %(objectname)", "refs/ralph/"]);
  return Object.fromEntries(
    out
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(" ") as [string, string]),
  );
}

function setup(): { root: string; remote: string } {
  const root = makeRepo({ "src/a.ts": "export const a = 1;\n" });
  const remote = join(makeTempDir("ralph-remote-"), "remote.git");
  git(root, ["init", "-q", "--bare", remote]);
  git(root, ["remote", "add", "origin", remote]);
  git(root, ["push", "-q", "origin", "main"]);
  return { root, remote };
}

async function checkpoint(root: string, loop: string, args: string[] = []): Promise<string> {
  writeFileSync(join(root, "src", "a.ts"), `export const a = ${Math.random()};\n`);
  // Dated now (ralph honours GIT_COMMITTER_DATE as git does; the test env fixes it in the past): gc judges age by it.
  const result = await runRalphInProcess(root, ["checkpoint", "--loop", loop, "--json", ...args], { env: { GIT_AUTHOR_DATE: undefined, GIT_COMMITTER_DATE: undefined } });
  expect(result.status, result.stderr).toBe(0);
  return parseJsonOutput<{ oid: string }>(result).oid;
}

describe("ralph push / fetch (bare remote, real git)", () => {
  it("moves every loop to and from the remote; an ordinary push does not; the guard does not judge them; non-fast-forwards are kept and reported", async () => {
    const { root, remote } = setup();
    expect((await runRalphInProcess(root, ["install", "--git-hooks"])).status).toBe(0);
    await checkpoint(root, "team-loop", ["--kind", "baseline"]);
    await checkpoint(root, "team-loop");
    git(root, ["push", "-q", "origin", "main"]);
    expect(refsOf(remote, true)).toEqual({});

    const pushed = await runRalphInProcess(root, ["push", "--json"]);
    expect(pushed.status, pushed.stderr).toBe(0);
    const report = parseJsonOutput<{ updated: string[]; rejected: unknown[] }>(pushed);
    expect(report.updated.sort()).toEqual(["refs/ralph/team-loop/baseline", "refs/ralph/team-loop/head"]);
    expect(refsOf(remote, true)).toEqual(refsOf(root));
    // git ran the installed pre-push hook: ralph's refs pass unjudged, in one line.
    expect(pushed.stderr).toContain("ralph: pre-push origin: 2 refs/ralph/* refs: PASS  ralph's checkpoints (refs/ralph/): shared as they are, not judged");
    expect(pushed.stderr).not.toMatch(/BLOCK|finding/);
    expect((await runRalphInProcess(root, ["push"])).stdout).toContain("git push --mirror");

    // A push that names branches and loops together (as --mirror does) says the loops go too.
    await checkpoint(root, "team-loop");
    git(root, ["commit", "-q", "--allow-empty", "-m", "more"]);
    const mixed = spawnSync("git", ["push", "origin", "main", "refs/ralph/*:refs/ralph/*"], { cwd: root, env: ralphEnv, encoding: "utf8" });
    expect(mixed.status, mixed.stderr).toBe(0);
    expect(mixed.stderr).toContain("this push also sends loop checkpoints (refs/ralph/*), as git push --mirror does");
    expect(mixed.stderr).toContain("refs/ralph/team-loop/head: PASS");

    const clone = makeTempDir("ralph-clone-");
    git(clone, ["clone", "-q", "-b", "main", remote, "."]);
    const fetched = await runRalphInProcess(clone, ["fetch", "--json"]);
    expect(fetched.status, fetched.stderr).toBe(0);
    expect(refsOf(clone)).toEqual(refsOf(root));
    expect((await runRalphInProcess(clone, ["loops", "--json"])).stdout).toContain("team-loop");

    // The clone's loop moved on its own (to a commit the remote's head does not descend from): a fetch keeps it, --force takes the remote's.
    const local = git(clone, ["commit-tree", "-m", "elsewhere", git(clone, ["rev-parse", "HEAD^{tree}"]).trim()]).trim();
    git(clone, ["update-ref", "refs/ralph/team-loop/head", local]);
    const kept = await runRalphInProcess(clone, ["fetch", "--json"]);
    expect(kept.status, kept.stderr).toBe(0);
    expect(parseJsonOutput<{ rejected: { ref: string }[] }>(kept).rejected.map((r) => r.ref)).toEqual(["refs/ralph/team-loop/head"]);
    expect(refsOf(clone)["refs/ralph/team-loop/head"]).toBe(local);
    expect((await runRalphInProcess(clone, ["fetch", "--force"])).status).toBe(0);
    expect(refsOf(clone)).toEqual(refsOf(root));
  }, 120_000);

  it("no remote, or an unknown one, is a usage error (exit 2)", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    expect((await runRalphInProcess(root, ["push"])).status).toBe(2);
    expect((await runRalphInProcess(root, ["fetch", "nowhere"])).status).toBe(2);
  });
});

describe("ralph gc (real git)", () => {
  it("deletes old loops' refs but baseline and best, then with --all those too; leaves foreign refs and running loops alone; prunes facts of blobs nothing references; fsck stays clean", async () => {
    const { root } = setup();
    await checkpoint(root, "old-loop", ["--kind", "baseline"]);
    const iteration = await checkpoint(root, "old-loop", ["--kind", "iteration", "--iteration", "1"]);
    git(root, ["update-ref", "refs/ralph/old-loop/best", iteration]);
    await checkpoint(root, "old-loop");
    git(root, ["update-ref", "refs/ralph/handmade/x", git(root, ["rev-parse", "HEAD"]).trim()]);
    writeFileSync(join(root, "src", "a.ts"), "export const a = 2;\n"); // the running loop's baseline does not hold old-loop's head's blob
    const started = await runRalphInProcess(root, ["start", "keep going", "--completion", "true", "--id", "running-loop", "--json"]);
    expect(started.status, started.stderr).toBe(0);
    const facts = join(root, ".git", "ralph", "facts", "ab");
    mkdirSync(facts, { recursive: true });
    writeFileSync(join(facts, `${"c".repeat(38)}.json`), withChecksum(Buffer.from(JSON.stringify({ version: 1, path: "gone.ts", oid: "ab".padEnd(40, "c"), facts: {} }))));
    const blob = git(root, ["rev-parse", "HEAD:src/a.ts"]).trim();
    writeFileSync(join(facts, `${"d".repeat(38)}.json`), withChecksum(Buffer.from(JSON.stringify({ version: 1, path: "src/a.ts", oid: blob, facts: {} }))));

    const young = parseJsonOutput<{ loops: unknown[]; facts_pruned: number }>(await runRalphInProcess(root, ["gc", "--json"]));
    expect(young.loops).toEqual([]);
    expect(young.facts_pruned).toBe(1);
    expect(existsSync(join(facts, `${"d".repeat(38)}.json`))).toBe(true);
    const dry = parseJsonOutput<{ loops: { loop: string }[] }>(await runRalphInProcess(root, ["gc", "--older-than", "0s", "--dry-run", "--json"]));
    expect(dry.loops.map((l) => l.loop)).toEqual(["old-loop"]);
    expect(Object.keys(refsOf(root))).toContain("refs/ralph/old-loop/head");

    // Facts of a blob only the old loop's head reaches go with the head.
    const onlyInHead = git(root, ["rev-parse", "refs/ralph/old-loop/head:src/a.ts"]).trim();
    writeFileSync(join(facts, `${"e".repeat(38)}.json`), JSON.stringify({ version: 1, path: "src/a.ts", oid: onlyInHead, facts: {} }));
    const result = await runRalphInProcess(root, ["gc", "--older-than", "0s", "--json"]);
    expect(result.status, result.stderr).toBe(0);
    const report = parseJsonOutput<{ loops: { loop: string; kept: string[] }[]; skipped: { loop: string; why: string }[]; facts_pruned: number }>(result);
    expect(report.loops).toEqual([expect.objectContaining({ loop: "old-loop", kept: ["refs/ralph/old-loop/baseline", "refs/ralph/old-loop/best"] })]);
    expect(report.skipped.map((s) => s.loop).sort()).toEqual(["handmade", "running-loop"]);
    expect(report.facts_pruned).toBe(1);
    expect(existsSync(join(facts, `${"e".repeat(38)}.json`))).toBe(false);
    expect(existsSync(join(facts, `${"d".repeat(38)}.json`))).toBe(true);
    const left = Object.keys(refsOf(root)).sort();
    expect(left.filter((r) => r.startsWith("refs/ralph/old-loop/"))).toEqual(["refs/ralph/old-loop/baseline", "refs/ralph/old-loop/best"]);
    expect(left).toContain("refs/ralph/handmade/x");
    expect(left).toContain("refs/ralph/running-loop/baseline");
    expect((await runRalphInProcess(root, ["revert", "@best", "--loop", "old-loop", "--dry-run"])).status).toBe(0);

    expect((await runRalphInProcess(root, ["gc", "--older-than", "0s", "--all"])).status).toBe(0);
    expect(Object.keys(refsOf(root)).filter((r) => r.startsWith("refs/ralph/old-loop/"))).toEqual([]);
    git(root, ["fsck", "--no-progress"]);
  }, 120_000);

  it("--older-than takes a number and a unit", async () => {
    expect(parseAgeSec("30d")).toBe(30 * 86_400);
    expect(parseAgeSec("12h")).toBe(12 * 3600);
    expect(parseAgeSec("2w")).toBe(14 * 86_400);
    expect(() => parseAgeSec("30")).toThrow(/unit/);
    expect(() => parseAgeSec("-1d")).toThrow(/unit/);
  });
});

describe("git's per-ref report (unit)", () => {
  it("push --porcelain and fetch -v lines: updated, up to date, rejected", async () => {
    const push = parseRefReport(
      "push",
      "To /r.git\n*\trefs/ralph/a/head:refs/ralph/a/head\t[new reference]\n=\trefs/ralph/a/baseline:refs/ralph/a/baseline\t[up to date]\n!\trefs/ralph/a/best:refs/ralph/a/best\t[rejected] (non-fast-forward)\nDone\n",
    );
    expect(push).toEqual({ updated: ["refs/ralph/a/head"], upToDate: 1, rejected: [{ ref: "refs/ralph/a/best", reason: "non-fast-forward; ralph push --force overwrites it" }] });
    const fetch = parseRefReport(
      "fetch",
      "From /r.git\n = [up to date]      refs/ralph/a/baseline -> refs/ralph/a/baseline\n ! [rejected]        refs/ralph/a/head -> refs/ralph/a/head  (non-fast-forward)\n * [new ref]         refs/ralph/b/head -> refs/ralph/b/head\n   1a2b3c4..5d6e7f8  refs/ralph/c/head -> refs/ralph/c/head\n",
    );
    expect(fetch).toEqual({
      updated: ["refs/ralph/b/head", "refs/ralph/c/head"],
      upToDate: 1,
      rejected: [{ ref: "refs/ralph/a/head", reason: "non-fast-forward; ralph fetch --force overwrites it" }],
    });
  });
});
