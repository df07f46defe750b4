/**
 * The error contract of the command line (DESIGN.md "The command line"): a
 * user-fixable error exits 2, an internal error 3; the error is ONE line on
 * stderr starting `ralph: `; stdout is empty without --json and holds exactly
 * one `{"error": {code, message, data}}` object with it. Also: unreadable
 * files, and files that vanish while a snapshot runs. Commands run in-process
 * (runCli); the unreadable-file cases run the built binary as another uid
 * (test/cli/binary-smoke.test.ts checks the binary's exit codes).
 */
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { linesOf, parseJsonOutput, runRalph, runRalphInProcess, type RunResult } from "../helpers/cli.js";
import { copyRepo, fsck, git, gitEnv, makeRepo, makeTempDir, userState, writeFiles } from "../helpers/git.js";

interface ErrorJson {
  error: { code: string; message: string; data: Record<string, unknown> };
}

/** Asserts the one-line-on-stderr, nothing-on-stdout shape of an error run without --json. */
function expectPlainError(result: RunResult, exitCode: number): void {
  expect(result.status, result.stderr).toBe(exitCode);
  expect(result.stdout).toBe("");
  const lines = linesOf(result.stderr);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^ralph: \S/);
  expect(result.stderr.endsWith("\n")).toBe(true);
}

/** Asserts the --json error shape and returns the parsed error. */
function expectJsonError(result: RunResult, exitCode: number, code: string): ErrorJson["error"] {
  expect(result.status, result.stderr).toBe(exitCode);
  const lines = linesOf(result.stderr);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^ralph: \S/);
  const parsed = parseJsonOutput<ErrorJson>(result);
  expect(Object.keys(parsed)).toEqual(["error"]);
  expect(parsed.error.code).toBe(code);
  expect(typeof parsed.error.message).toBe("string");
  expect(parsed.error.message).not.toContain("\n");
  expect(`ralph: ${parsed.error.message}`).toBe(lines[0]);
  expect(parsed.error.data).toBeTypeOf("object");
  expect(parsed.error.data).not.toBeNull();
  return parsed.error;
}

/** Outside any test's clean-up (afterEach would remove it): the template lives until the process ends. */
let template: string | null = null;

/** The "repo" place, built once per file: a repository with one checkpoint in loop `l`. */
async function repoTemplate(): Promise<string> {
  if (template !== null) return template;
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ralph-errors-template-")));
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["config", "core.autocrlf", "false"]);
  writeFiles(root, { "a.txt": "a\n", "src/b.ts": "export const b = 1;\n" });
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "-m", "initial"]);
  const made = await runRalphInProcess(root, ["checkpoint", "--loop", "l"]);
  expect(made.status, made.stderr).toBe(0);
  return (template = root);
}

afterAll(() => {
  if (template !== null) rmSync(template, { recursive: true, force: true });
  template = null;
});

type Place = "repo" | "no-repo" | "bare" | "bare-subdir" | "bad-config" | "sha256";

/** Where a case runs: a repo with one checkpoint in loop `l`, a plain folder, a bare repository, or a repo whose aiwg.yml fails the schema. */
async function placeFor(place: Place): Promise<string> {
  switch (place) {
    case "repo":
      return copyRepo(await repoTemplate());
    case "no-repo":
      return makeTempDir("ralph-norepo-");
    case "bad-config":
      return makeRepo({ "aiwg.yml": "agent_persistence:\n  recovery:\n    max_retrys: 4\n" });
    case "bare": {
      const dir = makeTempDir("ralph-bare-");
      git(dir, ["init", "-q", "--bare", "-b", "main"]);
      return dir;
    }
    case "sha256": {
      const dir = makeTempDir("ralph-sha256-");
      git(dir, ["init", "-q", "-b", "main", "--object-format=sha256"]);
      writeFiles(dir, { "a.txt": "a\n" });
      git(dir, ["add", "-A"]);
      git(dir, ["commit", "-q", "-m", "one"]);
      return dir;
    }
    case "bare-subdir": {
      const dir = makeTempDir("ralph-bare-");
      git(dir, ["init", "-q", "--bare", "-b", "main"]);
      return join(dir, "refs");
    }
  }
}

interface ErrorCase {
  name: string;
  place: Place;
  args: string[];
  exit: 2 | 3;
  code: string;
}

const CASES: ErrorCase[] = [
  { name: "not a git repository (checkpoint)", place: "no-repo", args: ["checkpoint"], exit: 2, code: "E_NOT_A_REPO" },
  { name: "not a git repository (log)", place: "no-repo", args: ["log"], exit: 2, code: "E_NOT_A_REPO" },
  { name: "not a git repository (check)", place: "no-repo", args: ["check"], exit: 2, code: "E_NOT_A_REPO" },
  { name: "a bare repository", place: "bare", args: ["checkpoint"], exit: 2, code: "E_BARE_REPO" },
  { name: "inside a bare repository's refs folder", place: "bare-subdir", args: ["log"], exit: 2, code: "E_BARE_REPO" },
  { name: "a SHA-256 repository (checkpoint)", place: "sha256", args: ["checkpoint"], exit: 2, code: "E_UNSUPPORTED" },
  { name: "a SHA-256 repository (check)", place: "sha256", args: ["check", "--from", "HEAD"], exit: 2, code: "E_UNSUPPORTED" },
  { name: "unknown REV (revert)", place: "repo", args: ["revert", "nosuchref"], exit: 2, code: "E_UNKNOWN_REV" },
  { name: "unknown REV (diff)", place: "repo", args: ["diff", "nosuchref"], exit: 2, code: "E_UNKNOWN_REV" },
  { name: "unknown REV (check --from)", place: "repo", args: ["check", "--from", "nosuchref"], exit: 2, code: "E_UNKNOWN_REV" },
  { name: "unknown REV (tests)", place: "repo", args: ["tests", "nosuchref"], exit: 2, code: "E_UNKNOWN_REV" },
  { name: "REV past the start of the loop", place: "repo", args: ["diff", "@head~5", "--loop", "l"], exit: 2, code: "E_UNKNOWN_REV" },
  { name: "an iteration that does not exist", place: "repo", args: ["diff", "@7", "--loop", "l"], exit: 2, code: "E_UNKNOWN_REV" },
  { name: "@head of a loop with no checkpoints", place: "repo", args: ["revert", "@head", "--loop", "empty"], exit: 2, code: "E_UNKNOWN_REV" },
  { name: "unsupported gitrevisions syntax", place: "repo", args: ["diff", "HEAD@{1}"], exit: 2, code: "E_UNKNOWN_REV" },
  { name: "malformed loop id ../x", place: "repo", args: ["checkpoint", "--loop", "../x"], exit: 2, code: "E_BAD_LOOP_ID" },
  { name: "malformed loop id 'a b'", place: "repo", args: ["checkpoint", "--loop", "a b"], exit: 2, code: "E_BAD_LOOP_ID" },
  { name: "malformed loop id a/b", place: "repo", args: ["checkpoint", "--loop", "a/b"], exit: 2, code: "E_BAD_LOOP_ID" },
  { name: "malformed loop id x.lock", place: "repo", args: ["checkpoint", "--loop", "x.lock"], exit: 2, code: "E_BAD_LOOP_ID" },
  { name: "malformed loop id .hidden", place: "repo", args: ["log", "--loop", ".hidden"], exit: 2, code: "E_BAD_LOOP_ID" },
  { name: "malformed loop id a..b", place: "repo", args: ["revert", "@head", "--loop", "a..b"], exit: 2, code: "E_BAD_LOOP_ID" },
  { name: "unknown option", place: "repo", args: ["checkpoint", "--bogus"], exit: 2, code: "E_USAGE" },
  { name: "unknown option on log", place: "repo", args: ["log", "--frobnicate", "3"], exit: 2, code: "E_USAGE" },
  { name: "unknown command", place: "repo", args: ["frobnicate"], exit: 2, code: "E_USAGE" },
  { name: "unknown command outside a repo", place: "no-repo", args: ["frobnicate"], exit: 2, code: "E_USAGE" },
  { name: "missing argument (revert)", place: "repo", args: ["revert"], exit: 2, code: "E_USAGE" },
  { name: "missing argument (diff)", place: "repo", args: ["diff"], exit: 2, code: "E_USAGE" },
  { name: "too many arguments", place: "repo", args: ["loops", "extra"], exit: 2, code: "E_USAGE" },
  { name: "bad --format", place: "repo", args: ["check", "--format", "sarif-nope"], exit: 2, code: "E_USAGE" },
  { name: "bad --fail-on", place: "repo", args: ["check", "--fail-on", "never"], exit: 2, code: "E_USAGE" },
  { name: "bad --kind", place: "repo", args: ["checkpoint", "--kind", "bogus"], exit: 2, code: "E_USAGE" },
  { name: "--loop without a value", place: "repo", args: ["checkpoint", "--loop"], exit: 2, code: "E_USAGE" },
  { name: "WORKTREE as --from", place: "repo", args: ["check", "--from", "WORKTREE"], exit: 2, code: "E_USAGE" },
  { name: "WORKTREE as diff FROM", place: "repo", args: ["diff", "WORKTREE"], exit: 2, code: "E_USAGE" },
  { name: "WORKTREE as revert target", place: "repo", args: ["revert", "WORKTREE"], exit: 2, code: "E_USAGE" },
  { name: "an aiwg.yml that fails the schema (config)", place: "bad-config", args: ["config"], exit: 2, code: "E_CONFIG" },
  { name: "an aiwg.yml that fails the schema (config --check)", place: "bad-config", args: ["config", "--check"], exit: 2, code: "E_CONFIG" },
  { name: "not a git repository (config)", place: "no-repo", args: ["config"], exit: 2, code: "E_NOT_A_REPO" },
];

describe("error contract: argv -> exit code and error code", () => {
  it.each(CASES)("$name: exit $exit, $code", async ({ place, args, exit, code }) => {
    const cwd = await placeFor(place);
    const before = place === "repo" ? userState(cwd) : null;
    expectPlainError(await runRalphInProcess(cwd, args), exit);
    expectJsonError(await runRalphInProcess(cwd, [...args, "--json"]), exit, code);
    if (before) expect(userState(cwd)).toEqual(before);
  });

  it("a malformed loop id writes no ref and no folder", async () => {
    const root = await placeFor("repo");
    for (const loop of ["../x", "a b", "a/b"]) expectJsonError(await runRalphInProcess(root, ["checkpoint", "--loop", loop, "--json"]), 2, "E_BAD_LOOP_ID");
    expect(git(root, ["for-each-ref", "--format=%(refname)", "refs/ralph"]).trim().split("\n")).toEqual(["refs/ralph/l/baseline", "refs/ralph/l/head"]);
    const gitDir = git(root, ["rev-parse", "--absolute-git-dir"]).trim();
    expect(readdirSync(join(gitDir, "refs", "ralph")).sort()).toEqual(["l"]);
    expect(readdirSync(join(gitDir, "refs")).sort()).toEqual(["heads", "ralph", "tags"]);
  });

  it("the error data names the offending input", async () => {
    const root = await placeFor("repo");
    expect(expectJsonError(await runRalphInProcess(root, ["revert", "nosuchref", "--json"]), 2, "E_UNKNOWN_REV").data).toMatchObject({ rev: "nosuchref" });
    expect(expectJsonError(await runRalphInProcess(root, ["checkpoint", "--loop", "../x", "--json"]), 2, "E_BAD_LOOP_ID").data).toMatchObject({ loop: "../x" });
  });

  it("--format json also gets the error as JSON on stdout", async () => {
    const root = await placeFor("repo");
    expectJsonError(await runRalphInProcess(root, ["check", "--from", "nosuchref", "--format", "json"]), 2, "E_UNKNOWN_REV");
    expectJsonError(await runRalphInProcess(root, ["check", "--from", "nosuchref", "--format=json"]), 2, "E_UNKNOWN_REV");
  });

  it("--help and --version succeed with output on stdout only", async () => {
    const dir = makeTempDir();
    for (const args of [["--help"], ["checkpoint", "--help"], ["--version"]]) {
      const r = await runRalphInProcess(dir, args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout.length).toBeGreaterThan(0);
    }
    expect((await runRalphInProcess(dir, ["--version"])).stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });
});

/**
 * How to make a file unreadable to ralph. chmod 000 does not stop root, so
 * when the tests run as root ralph runs as `nobody` (65534) on a repository
 * chowned to it; the set-up checks that reads really fail before relying on it.
 */
function unreadableSetup(): { uid?: number; gid?: number } | null {
  const isRoot = process.getuid?.() === 0;
  const probeDir = makeTempDir("ralph-perm-");
  const probe = join(probeDir, "probe");
  writeFileSync(probe, "x");
  chmodSync(probe, 0o000);
  if (!isRoot) {
    try {
      readFileSync(probe);
      return null; // some other capability lets us read: cannot test here
    } catch {
      return {};
    }
  }
  chmodSync(probeDir, 0o755);
  chownSync(probeDir, 65534, 65534);
  chownSync(probe, 65534, 65534);
  const cat = spawnSync("cat", [probe], { uid: 65534, gid: 65534 });
  if (cat.error || cat.status === 0) return null;
  return { uid: 65534, gid: 65534 };
}

function chownTree(path: string, uid: number, gid: number): void {
  chownSync(path, uid, gid);
  if (lstatSync(path).isDirectory()) for (const name of readdirSync(path)) chownTree(join(path, name), uid, gid);
}

/** A repo ralph can write to as `as` (chowned when ralph runs as another uid). */
function repoFor(as: { uid?: number; gid?: number }, files: Record<string, string>): string {
  const root = makeRepo(files);
  if (as.uid !== undefined) {
    chmodSync(root, 0o755);
    chownTree(root, as.uid, as.gid ?? as.uid);
  }
  return root;
}

/** git as root on a repository owned by another uid: allow it explicitly. */
function gitAny(root: string, args: string[]): string {
  return git(root, ["-c", "safe.directory=*", ...args]);
}

describe("files that cannot be read", () => {
  it("a tracked file with mode 000: exit 2, E_UNREADABLE naming the path, nothing stored", (ctx) => {
    const as = unreadableSetup();
    if (!as) {
      console.log("unreadable-file case skipped: this user can read a mode-000 file and cannot run ralph as another uid");
      ctx.skip();
      return;
    }
    const root = repoFor(as, { "a.txt": "a\n", "secret.txt": "s\n" });
    chmodSync(join(root, "secret.txt"), 0o000);
    expectPlainError(runRalph(root, ["checkpoint", "--loop", "p"], as), 2);
    const error = expectJsonError(runRalph(root, ["checkpoint", "--loop", "p", "--json"], as), 2, "E_UNREADABLE");
    expect(error.data).toMatchObject({ path: "secret.txt" });
    expect(gitAny(root, ["for-each-ref", "refs/ralph"])).toBe("");
    // Readable again: the checkpoint goes through.
    chmodSync(join(root, "secret.txt"), 0o644);
    const ok = runRalph(root, ["checkpoint", "--loop", "p"], as);
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^[0-9a-f]{40}\n$/);
    expect(gitAny(root, ["show", `${ok.stdout.trim()}:secret.txt`])).toBe("s\n");
  });

  it("an untracked file with mode 000: exit 2, E_UNREADABLE", (ctx) => {
    const as = unreadableSetup();
    if (!as) {
      ctx.skip();
      return;
    }
    const root = repoFor(as, { "a.txt": "a\n" });
    writeFiles(root, { "new.txt": "n\n" });
    if (as.uid !== undefined) chownSync(join(root, "new.txt"), as.uid, as.gid ?? as.uid);
    chmodSync(join(root, "new.txt"), 0o000);
    const error = expectJsonError(runRalph(root, ["checkpoint", "--json"], as), 2, "E_UNREADABLE");
    expect(error.data).toMatchObject({ path: "new.txt" });
  });

  it("an ignored file with mode 000 is never read: the checkpoint succeeds", (ctx) => {
    const as = unreadableSetup();
    if (!as) {
      ctx.skip();
      return;
    }
    const root = repoFor(as, { "a.txt": "a\n", ".gitignore": "*.key\n" });
    writeFiles(root, { "private.key": "k\n" });
    if (as.uid !== undefined) chownSync(join(root, "private.key"), as.uid, as.gid ?? as.uid);
    chmodSync(join(root, "private.key"), 0o000);
    const r = runRalph(root, ["checkpoint"], as);
    expect(r.status, r.stderr).toBe(0);
    expect(gitAny(root, ["ls-tree", "-r", "--name-only", r.stdout.trim()]).trim().split("\n")).toEqual([".gitignore", "a.txt"]);
  });
});

describe("files that vanish", () => {
  it("a path in git's index but deleted from disk is simply absent from the checkpoint", async () => {
    const root = makeRepo({ "a.txt": "a\n", "gone.txt": "g\n", "dir/gone.ts": "x\n", "dir/stay.ts": "y\n" });
    rmSync(join(root, "gone.txt"));
    rmSync(join(root, "dir", "gone.ts"));
    const before = userState(root);
    const r = await runRalphInProcess(root, ["checkpoint", "--json"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const out = parseJsonOutput<{ oid: string; changed: boolean }>(r);
    expect(out.changed).toBe(true);
    expect(git(root, ["ls-tree", "-r", "--name-only", out.oid]).trim().split("\n")).toEqual(["a.txt", "dir/stay.ts"]);
    expect(userState(root)).toEqual(before); // the index still lists them: ralph did not touch it
    fsck(root);
  });

  it("a tracked folder deleted from disk is absent, and so is a tracked file replaced by a folder's contents", async () => {
    const root = makeRepo({ "a.txt": "a\n", "d/x.txt": "x\n", f: "file\n" });
    rmSync(join(root, "d"), { recursive: true });
    rmSync(join(root, "f"));
    writeFiles(root, { "f/inner.txt": "inner\n" });
    const r = await runRalphInProcess(root, ["checkpoint"]);
    expect(r.status, r.stderr).toBe(0);
    expect(git(root, ["ls-tree", "-r", "--name-only", r.stdout.trim()]).trim().split("\n")).toEqual(["a.txt", "f/inner.txt"]);
    fsck(root);
  });
});

/** A child process that keeps creating and deleting files and folders under `churn/` for `ms`. */
function startChurn(root: string, ms: number): { stop: () => Promise<void> } {
  const script = `
    const fs = require("fs"), path = require("path");
    const root = process.argv[1], end = Date.now() + Number(process.argv[2]);
    for (let i = 0; Date.now() < end; i++) {
      const d = path.join(root, "churn", "d" + (i % 5), "sub" + (i % 3));
      fs.mkdirSync(d, { recursive: true });
      for (let k = 0; k < 5; k++) fs.writeFileSync(path.join(d, "f" + k + ".txt"), String(i));
      fs.rmSync(path.join(root, "churn", "d" + ((i + 2) % 5)), { recursive: true, force: true });
    }`;
  const child = spawn(process.execPath, ["-e", script, root, String(ms)], { stdio: "ignore", env: gitEnv });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  return {
    stop: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

describe("fixed bugs (their failing inputs first)", () => {
  it("an unreadable folder is a user-fixable E_UNREADABLE (exit 2), not an internal error (exit 3)", (ctx) => {
    const as = unreadableSetup();
    if (!as) {
      ctx.skip();
      return;
    }
    const root = repoFor(as, { "a.txt": "a\n" });
    writeFiles(root, { "priv/p.txt": "p\n" });
    if (as.uid !== undefined) chownTree(join(root, "priv"), as.uid, as.gid ?? as.uid);
    chmodSync(join(root, "priv"), 0o000);
    try {
      const r = runRalph(root, ["checkpoint", "--json"], as);
      expectJsonError(r, 2, "E_UNREADABLE");
    } finally {
      chmodSync(join(root, "priv"), 0o755);
    }
  });

  it("folders deleted while a snapshot walks them never make a checkpoint fail", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const churn = startChurn(root, 30_000);
    const failures: string[] = [];
    try {
      for (let i = 0; i < 30; i++) {
        const r = await runRalphInProcess(root, ["checkpoint", "--loop", "churn"]);
        if (r.status !== 0) failures.push(`run ${i}: exit ${r.status}: ${r.stderr.trim()}`);
      }
    } finally {
      await churn.stop();
    }
    expect(failures).toEqual([]);
    fsck(root);
  });
});
