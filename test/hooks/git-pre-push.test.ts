/**
 * The git pre-push hook (githooks(5) "pre-push"): the stdin parser and the
 * base choice on strings and fakes, the installed script, and real pushes
 * to a bare repository where git itself runs the hook that
 * `ralph install --git-hooks` wrote.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseBase, parsePushLines, type PushGit, type PushUpdate } from "../../src/hooks/git-pre-push.js";
import { gitHookScript, hookCommandPaths, hooksDirOf, isRalphGitHook } from "../../src/hooks/git-hook-install.js";
import { parseRuntimeEnv } from "../../src/runtime-env.js";
import { parseJsonOutput, ralphEnv, runRalphInProcess } from "../helpers/cli.js";
import { commitAll, git, gitEnv, makeRepo, makeTempDir, writeFiles } from "../helpers/git.js";

const Z = "0".repeat(40);
const A = "a".repeat(40);
const B = "b".repeat(40);
const C = "c".repeat(40);
const D = "d".repeat(40);

describe("parsePushLines (unit)", () => {
  const table: [name: string, input: string, updates: PushUpdate[], problemLines: number[]][] = [
    ["empty stdin", "", [], []],
    ["one update", `refs/heads/main ${A} refs/heads/main ${B}\n`, [{ localRef: "refs/heads/main", localOid: A, remoteRef: "refs/heads/main", remoteOid: B }], []],
    [
      "a deletion and a new ref, CRLF and blank lines tolerated",
      `(delete) ${Z} refs/heads/old ${C}\r\n\nrefs/heads/x ${A.toUpperCase()} refs/heads/y ${Z}\n`,
      [
        { localRef: "(delete)", localOid: Z, remoteRef: "refs/heads/old", remoteOid: C },
        { localRef: "refs/heads/x", localOid: A, remoteRef: "refs/heads/y", remoteOid: Z },
      ],
      [],
    ],
    ["SHA-256 object names", `HEAD~ ${"e".repeat(64)} refs/heads/m ${"0".repeat(64)}`, [{ localRef: "HEAD~", localOid: "e".repeat(64), remoteRef: "refs/heads/m", remoteOid: "0".repeat(64) }], []],
    [
      "bad lines are reported, good ones kept",
      `garbage\nrefs/heads/a ${A} refs/heads/a\nrefs/heads/a nothex refs/heads/a ${B}\nrefs/heads/a ${A} refs/heads/a ${B}`,
      [{ localRef: "refs/heads/a", localOid: A, remoteRef: "refs/heads/a", remoteOid: B }],
      [1, 2, 3],
    ],
  ];
  for (const [name, input, updates, problemLines] of table) {
    it(name, () => {
      const parsed = parsePushLines(input);
      expect(parsed.updates).toEqual(updates);
      expect(parsed.problems.map((p) => p.line)).toEqual(problemLines);
    });
  }
});

describe("chooseBase (unit)", () => {
  /** A fake repository: known commits, and rev-list answers per (commit, remote). */
  function fakeGit(known: string[], fresh: Record<string, { oid: string; parents: string[] }[]>, calls: string[] = []): PushGit {
    return {
      peelToCommit: (oid) => (known.includes(oid) ? oid : null),
      newCommits: (commit, scope) => {
        const key = scope === null ? "*" : typeof scope === "string" ? scope : `except ${scope.exceptLocalRef}`;
        calls.push(`${commit} ${scope === null ? "(all remotes)" : key}`);
        return fresh[`${commit} ${key}`] ?? [];
      },
    };
  }
  const update = (localOid: string, remoteOid: string): PushUpdate => ({ localRef: "refs/heads/x", localOid, remoteRef: "refs/heads/x", remoteOid });

  it("a deletion is skipped; a commit the remote already has is skipped", () => {
    expect(chooseBase(update(Z, A), "origin", "url", fakeGit([A], {}))).toEqual({ kind: "skip", reason: "deletion" });
    expect(chooseBase(update(A, A), "origin", "url", fakeGit([A], {}))).toEqual({ kind: "skip", reason: "unchanged" });
    expect(chooseBase(update(D, A), "origin", "url", fakeGit([A], {}))).toEqual({ kind: "skip", reason: "not-a-commit" });
  });

  it("an update of an existing ref whose old commit we have: base is the remote oid (no rev-list)", () => {
    const calls: string[] = [];
    expect(chooseBase(update(B, A), "origin", "url", fakeGit([A, B], {}, calls))).toEqual({ kind: "base", base: A, to: B, via: "remote-oid" });
    expect(calls).toEqual([]);
  });

  it("a new ref: the first parent of the oldest commit no tracking ref of the remote has", () => {
    const git = fakeGit([A, B, C], {
      [`${C} origin`]: [
        { oid: B, parents: [A] },
        { oid: C, parents: [B] },
      ],
    });
    expect(chooseBase(update(C, Z), "origin", "url", git)).toEqual({ kind: "base", base: A, to: C, via: "remote-tracking" });
  });

  it("an unfetched remote oid falls back to the tracking refs; a URL push uses every remote's", () => {
    const calls: string[] = [];
    const git = fakeGit([A, C], { [`${C} *`]: [{ oid: C, parents: [A] }] }, calls);
    expect(chooseBase(update(C, D), "/srv/r.git", "/srv/r.git", git)).toEqual({ kind: "base", base: A, to: C, via: "remote-tracking" });
    expect(calls).toEqual([`${C} (all remotes)`]);
  });

  it("nothing new: skip; a root found in every scope: a new history (PASS)", () => {
    expect(chooseBase(update(C, Z), "origin", "url", fakeGit([C], {}))).toEqual({ kind: "skip", reason: "nothing-new" });
    const rootOnly = [
      { oid: B, parents: [] },
      { oid: C, parents: [B] },
    ];
    const everywhere = { [`${C} origin`]: rootOnly, [`${C} *`]: rootOnly, [`${C} except refs/heads/x`]: rootOnly };
    expect(chooseBase(update(C, Z), "origin", "url", fakeGit([C], everywhere))).toEqual({ kind: "root", to: C });
  });

  it("a remote with no tracking refs (a fork, a push by URL): other remotes' refs, then the other local branches and tags", () => {
    // Found by a break session: a fork never fetched made every push "a new history" (PASS).
    const calls: string[] = [];
    const whole = [
      { oid: A, parents: [] },
      { oid: B, parents: [A] },
      { oid: C, parents: [B] },
    ];
    const git = fakeGit([A, B, C], { [`${C} fork`]: whole, [`${C} *`]: [{ oid: C, parents: [B] }] }, calls);
    expect(chooseBase(update(C, Z), "fork", "url", git)).toEqual({ kind: "base", base: B, to: C, via: "remote-tracking" });
    expect(calls).toEqual([`${C} fork`, `${C} (all remotes)`]);
    const local = fakeGit([A, B, C], { [`${C} *`]: whole, [`${C} except refs/heads/x`]: [{ oid: C, parents: [B] }] });
    expect(chooseBase(update(C, Z), "/srv/r.git", "/srv/r.git", local)).toEqual({ kind: "base", base: B, to: C, via: "local-refs" });
  });
});

describe("the installed script (unit)", () => {
  it("is tagged, names node and cli (shell-quoted), and the tag is recognised", () => {
    const script = gitHookScript("/opt/my node/node", '/a "b"/$x/cli.js');
    expect(script.startsWith("#!/bin/sh\n")).toBe(true);
    expect(isRalphGitHook(script)).toBe(true);
    expect(isRalphGitHook("#!/bin/sh\nexec husky\n")).toBe(false);
    expect(hookCommandPaths(script)).toEqual({ node: "/opt/my node/node", cli: '/a "b"/$x/cli.js' });
  });

  it("hooksDirOf: core.hooksPath absolute, relative to the work tree, ~/ (the run's HOME); else <common dir>/hooks", () => {
    const env = parseRuntimeEnv({ HOME: "/home/someone" });
    const repo = (hooksPath?: string) => ({ workTree: "/w", commonDir: "/w/.git", env, config: new Map(hooksPath === undefined ? [] : [["core.hookspath", hooksPath]]) });
    expect(hooksDirOf(repo())).toBe("/w/.git/hooks");
    expect(hooksDirOf(repo(".githooks"))).toBe("/w/.githooks");
    expect(hooksDirOf(repo("/etc/hooks"))).toBe("/etc/hooks");
    expect(hooksDirOf(repo("~/hooks"))).toBe("/home/someone/hooks");
  });
});

const TESTS_BEFORE = `import { expect, it } from "vitest";
it("adds numbers", () => {
  expect(1 + 1).toBe(2);
});
it("keeps the sign", () => {
  expect(-1 * 1).toBe(-1);
});
`;
const TESTS_AFTER = `import { expect, it } from "vitest";
it("adds numbers", () => {
  expect(1 + 1).toBe(2);
});
`;

/** A clone-like work tree with a bare remote `origin` that already has `main`; ralph's git hook installed (in-process: the hook runs the built binary). */
async function makePushSetup(options: { install?: boolean; hooksPath?: string } = {}): Promise<{ root: string; remote: string }> {
  const root = makeRepo({ "test/math.test.ts": TESTS_BEFORE, "src/math.ts": "export const add = (a: number, b: number) => a + b;\n" });
  const remote = join(makeTempDir("ralph-remote-"), "remote.git");
  git(root, ["init", "-q", "--bare", remote]);
  git(root, ["remote", "add", "origin", remote]);
  git(root, ["push", "-q", "origin", "main"]);
  if (options.hooksPath) git(root, ["config", "core.hooksPath", options.hooksPath]);
  if (options.install ?? true) {
    const installed = await runRalphInProcess(root, ["install", "--git-hooks"]);
    expect(installed.status, installed.stderr).toBe(0);
  }
  return { root, remote };
}

/** `git push` as a user runs it; git runs the pre-push hook. */
function push(root: string, args: string[]) {
  const result = spawnSync("git", ["push", ...args], { cwd: root, env: ralphEnv, encoding: "utf8", timeout: 60_000 });
  return { status: result.status, stderr: result.stderr ?? "", stdout: result.stdout ?? "" };
}

function remoteRef(remote: string, ref: string): string | null {
  const result = spawnSync("git", ["--git-dir", remote, "rev-parse", "--verify", "--quiet", ref], { env: ralphEnv, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : null;
}

describe("git push through the installed hook (real git)", () => {
  it("the refusal's trailer hint runs as printed without opening an editor (--no-edit), and the amended push goes through", async () => {
    const { root, remote } = await makePushSetup();
    writeFiles(root, { "test/math.test.ts": TESTS_AFTER });
    commitAll(root, "simplify the tests");
    const refused = push(root, ["origin", "main"]);
    expect(refused.status).not.toBe(0);
    const hint = /push again: (git commit --amend .*)$/m.exec(refused.stderr)?.[1];
    expect(hint).toContain("--no-edit");
    // An editor that fails: the hint must not need one.
    execFileSync("sh", ["-c", (hint as string).replaceAll("<why>", "the sign case moved")], { cwd: root, env: { ...gitEnv, GIT_EDITOR: "false", EDITOR: "false" }, stdio: "pipe" });
    expect(git(root, ["log", "-1", "--format=%B"])).toContain("Ralph-Allow: test_deletion the sign case moved");
    const allowed = push(root, ["origin", "main"]);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(remoteRef(remote, "refs/heads/main")).toBe(git(root, ["rev-parse", "HEAD"]).trim());
  });

  it("refuses a push that deletes a test; the same change with a Ralph-Allow trailer goes through", async () => {
    const { root, remote } = await makePushSetup();
    const before = remoteRef(remote, "refs/heads/main");
    writeFiles(root, { "test/math.test.ts": TESTS_AFTER });
    commitAll(root, "simplify the tests");
    const refused = push(root, ["origin", "main"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("refs/heads/main: BLOCK  1 finding");
    expect(refused.stderr).toContain("keeps the sign");
    expect(refused.stderr).toContain("test_deletion");
    expect(refused.stdout).toBe("");
    expect(remoteRef(remote, "refs/heads/main")).toBe(before);

    git(root, ["commit", "-q", "--amend", "-m", "simplify the tests\n\nRalph-Allow: test_deletion the sign case moved to the property tests"]);
    const allowed = push(root, ["origin", "main"]);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain("refs/heads/main: WARN  1 finding");
    expect(remoteRef(remote, "refs/heads/main")).toBe(git(root, ["rev-parse", "HEAD"]).trim());
  });

  it("judges a new branch against the remote's history; a harmless new branch and a branch deletion pass", async () => {
    const { root, remote } = await makePushSetup();
    git(root, ["checkout", "-q", "-b", "feature"]);
    writeFiles(root, { "src/math.ts": "export const add = (a: number, b: number) => b + a;\n" });
    commitAll(root, "harmless");
    writeFiles(root, { "test/math.test.ts": TESTS_AFTER });
    commitAll(root, "drop a test");
    const refused = push(root, ["origin", "feature"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("refs/heads/feature: BLOCK");
    expect(remoteRef(remote, "refs/heads/feature")).toBeNull();

    const ok = push(root, ["origin", "feature~1:refs/heads/harmless"]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).toContain("refs/heads/harmless: PASS");
    const deleted = push(root, ["origin", "--delete", "harmless"]);
    expect(deleted.status, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain("refs/heads/harmless: PASS  deleted on the remote");
    expect(remoteRef(remote, "refs/heads/harmless")).toBeNull();
  });

  it("a fork that was never fetched, and a push by URL from a repository with no tracking refs, are judged (not 'a new history')", async () => {
    const { root } = await makePushSetup();
    const fork = join(makeTempDir("ralph-fork-"), "fork.git");
    git(root, ["clone", "-q", "--bare", git(root, ["remote", "get-url", "origin"]).trim(), fork]);
    git(root, ["remote", "add", "fork", fork]);
    git(root, ["checkout", "-q", "-b", "tb"]);
    writeFiles(root, { "test/math.test.ts": TESTS_AFTER });
    commitAll(root, "drop a test");
    const refused = push(root, ["fork", "tb"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("refs/heads/tb: BLOCK");
    expect(remoteRef(fork, "refs/heads/tb")).toBeNull();
    // No remote-tracking refs at all: the other local branches say what the remote has.
    git(root, ["remote", "remove", "origin"]);
    git(root, ["remote", "remove", "fork"]);
    const byUrl = push(root, [fork, "tb"]);
    expect(byUrl.status, byUrl.stderr).not.toBe(0);
    expect(byUrl.stderr).toContain("BLOCK");
  });

  it("a broken ralph install (a module missing) lets the push through with one line, not a stack trace; refs/ralph pushes are not judged", async () => {
    const { root, remote } = await makePushSetup();
    const hookPath = join(root, ".git", "hooks", "pre-push");
    const broken = join(makeTempDir("ralph-broken-"), "cli.js");
    writeFileSync(broken, 'import "./chunks/missing-ABCDEFGH.js";\n');
    writeFileSync(hookPath, readFileSync(hookPath, "utf8").replace(/^ralph_cli=.*$/m, `ralph_cli="${broken}"`));
    writeFiles(root, { "test/math.test.ts": TESTS_AFTER });
    commitAll(root, "simplify the tests");
    const pushed = push(root, ["origin", "main"]);
    expect(pushed.status, pushed.stderr).toBe(0);
    expect(pushed.stderr).toMatch(/ralph: pre-push: not checked: ralph failed \(exit 1\): .*ERR_MODULE_NOT_FOUND|Cannot find module/);
    expect(pushed.stderr).not.toContain("at ");
    // A working install again: sharing ralph's refs is not judged (they hold the caught deletion).
    expect((await runRalphInProcess(root, ["install", "--git-hooks"])).status).toBe(0);
    writeFiles(root, { "test/math.test.ts": TESTS_BEFORE });
    expect((await runRalphInProcess(root, ["checkpoint", "--loop", "l"])).status).toBe(0);
    writeFiles(root, { "test/math.test.ts": TESTS_AFTER });
    expect((await runRalphInProcess(root, ["checkpoint", "--loop", "l"])).status).toBe(0);
    const shared = push(root, ["origin", "refs/ralph/l/head:refs/ralph/l/head"]);
    expect(shared.status, shared.stderr).toBe(0);
    expect(shared.stderr).toContain("refs/ralph/l/head: PASS  ralph's checkpoints (refs/ralph/): shared as they are, not judged");
    expect(remoteRef(remote, "refs/ralph/l/head")).not.toBeNull();
  });

  it("one blocked update refuses the whole push (several refs at once)", async () => {
    const { root, remote } = await makePushSetup();
    const before = remoteRef(remote, "refs/heads/main");
    git(root, ["branch", "good"]);
    writeFiles(root, { "test/math.test.ts": TESTS_AFTER });
    commitAll(root, "drop a test");
    const refused = push(root, ["origin", "good", "main"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/refs\/heads\/good: PASS/);
    expect(refused.stderr).toMatch(/refs\/heads\/main: BLOCK/);
    expect(remoteRef(remote, "refs/heads/good")).toBeNull();
    expect(remoteRef(remote, "refs/heads/main")).toBe(before);
  });

  it("keeps the user's pre-push hook: it runs first with the same args and stdin, its failure blocks, uninstall restores it byte for byte", async () => {
    const { root, remote } = await makePushSetup({ install: false });
    const hook = join(root, ".git", "hooks", "pre-push");
    const log = join(root, ".git", "user-hook.log");
    const userHook = `#!/bin/sh\n# the user's own hook\necho "args: $1 $2" >> "${log}"\ncat >> "${log}"\n[ ! -e "${join(root, ".git", "fail-push")}" ]\n`;
    writeFileSync(hook, userHook);
    chmodSync(hook, 0o750);
    const installed = parseJsonOutput<{ git_hooks: { hook: string; chained: string | null; changed: boolean } }>(await runRalphInProcess(root, ["install", "--git-hooks", "--json"]));
    expect(installed.git_hooks).toEqual({ hook, chained: `${hook}.ralph-chained`, changed: true, manager: "none", evidence: `${hook} is no manager's`, notes: [] });
    const script = readFileSync(hook, "utf8");
    expect(statSync(hook).mode & 0o777).toBe(0o755);
    // Installing again changes nothing and keeps the chained hook.
    const again = parseJsonOutput<{ git_hooks: { chained: string | null; changed: boolean } }>(await runRalphInProcess(root, ["install", "--git-hooks", "--json"]));
    expect(again.git_hooks).toMatchObject({ chained: `${hook}.ralph-chained`, changed: false });
    expect(readFileSync(hook, "utf8")).toBe(script);
    expect(readFileSync(`${hook}.ralph-chained`, "utf8")).toBe(userHook);

    const doctor = parseJsonOutput<{ git_hooks: { status: string } }>(await runRalphInProcess(root, ["doctor", "--json"]));
    expect(doctor.git_hooks.status).toBe("ok");

    const published = remoteRef(remote, "refs/heads/main");
    writeFiles(root, { "src/math.ts": "export const add = (a: number, b: number) => b + a;\n" });
    const head = commitAll(root, "harmless");
    const ok = push(root, ["origin", "main"]);
    expect(ok.status, ok.stderr).toBe(0);
    expect(readFileSync(log, "utf8")).toBe(`args: origin ${remote}\nrefs/heads/main ${head} refs/heads/main ${published}\n`);

    writeFileSync(join(root, ".git", "fail-push"), "");
    writeFiles(root, { "src/math.ts": "export const add = (a: number, b: number) => a + b + 0;\n" });
    commitAll(root, "also harmless");
    const refused = push(root, ["origin", "main"]);
    expect(refused.status).not.toBe(0);
    expect(remoteRef(remote, "refs/heads/main")).toBe(head);

    const removed = parseJsonOutput<{ git_hooks: { removed: boolean; restored: string | null } }>(await runRalphInProcess(root, ["uninstall", "--git-hooks", "--json"]));
    expect(removed.git_hooks).toMatchObject({ removed: true, restored: hook });
    expect(readFileSync(hook, "utf8")).toBe(userHook);
    expect(statSync(hook).mode & 0o777).toBe(0o750);
    expect(existsSync(`${hook}.ralph-chained`)).toBe(false);
  });

  it("uninstall keeps ralph's hook aside when someone edited it, and removes it when nobody did", async () => {
    const { root } = await makePushSetup();
    const hook = join(root, ".git", "hooks", "pre-push");
    expect((await runRalphInProcess(root, ["uninstall", "--git-hooks"])).status).toBe(0);
    expect(existsSync(hook)).toBe(false);
    expect(existsSync(`${hook}.ralph-edited`)).toBe(false);
    expect((await runRalphInProcess(root, ["install", "--git-hooks"])).status).toBe(0);
    writeFileSync(hook, `${readFileSync(hook, "utf8")}echo "my custom addition"\n`);
    const removed = await runRalphInProcess(root, ["uninstall", "--git-hooks"]);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain(`the hook had been edited since install; it is kept at ${hook}.ralph-edited`);
    expect(existsSync(hook)).toBe(false);
    expect(readFileSync(`${hook}.ralph-edited`, "utf8")).toContain('echo "my custom addition"');
  });

  it("honours core.hooksPath (relative to the work tree)", async () => {
    const { root, remote } = await makePushSetup({ hooksPath: ".githooks" });
    expect(isRalphGitHook(readFileSync(join(root, ".githooks", "pre-push"), "utf8"))).toBe(true);
    expect(existsSync(join(root, ".git", "hooks", "pre-push"))).toBe(false);
    const before = remoteRef(remote, "refs/heads/main");
    git(root, ["rm", "-q", "test/math.test.ts"]);
    commitAll(root, "no more tests");
    const refused = push(root, ["origin", "main"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("test/math.test.ts");
    expect(remoteRef(remote, "refs/heads/main")).toBe(before);
    expect((await runRalphInProcess(root, ["uninstall"])).status).toBe(0);
    expect(existsSync(join(root, ".githooks", "pre-push"))).toBe(false);
    // git resolves a relative hooksPath in each work tree: install says so.
    const again = await runRalphInProcess(root, ["install", "--git-hooks"]);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain("ralph: warning: core.hooksPath is relative (.githooks): git resolves it in each work tree");
  });

  it("from a linked worktree (git sets GIT_DIR only) the worktree's aiwg.yml applies: an allow rule lets the push through; an invalid aiwg.yml falls back to the default policy", async () => {
    const { root, remote } = await makePushSetup();
    const linked = join(makeTempDir("ralph-wt-"), "linked");
    git(root, ["worktree", "add", "-q", "-b", "side", linked, "main"]);
    writeFiles(linked, { "test/math.test.ts": TESTS_AFTER, "aiwg.yml": "agent_persistence:\n  detection:\n    allow:\n      - {type: test_deletion, path: 'test/**', reason: suite rewritten}\n" });
    commitAll(linked, "rewrite the suite");
    const allowed = push(linked, ["origin", "side"]);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain("refs/heads/side: WARN");
    expect(allowed.stderr).toContain("suite rewritten");

    writeFiles(linked, { "aiwg.yml": "agent_persistence: [not, a, map\n", "test/math.test.ts": "" });
    commitAll(linked, "empty the suite");
    const refused = push(linked, ["origin", "side"]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("judging with the default policy");
    expect(remoteRef(remote, "refs/heads/side")).toBe(git(linked, ["rev-parse", "HEAD~1"]).trim());
  });

  it("the hook command itself: bad stdin lines are noted, outside a repository it exits 0, nothing on stdout", async () => {
    const { root } = await makePushSetup({ install: false });
    const bad = await runRalphInProcess(root, ["hook", "git", "pre-push", "origin", "url"], { input: "not a push line\n" });
    expect(bad).toMatchObject({ status: 0, stdout: "" });
    expect(bad.stderr).toContain("ignoring stdin line 1");
    const outside = await runRalphInProcess(makeTempDir(), ["hook", "git", "pre-push", "origin", "url"], { input: `refs/heads/main ${A} refs/heads/main ${Z}\n` });
    expect(outside).toMatchObject({ status: 0, stdout: "" });
    expect(outside.stderr).toContain("not checked");
  });
});
