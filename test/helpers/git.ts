/**
 * Builds real git repositories for tests with the real `git` binary
 * (STYLE.md §9): fixed author and dates, branch `main`, no global config,
 * `cwd` passed everywhere, removed after each test.
 */
import { execFileSync, type ExecFileSyncOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/** Environment for every git call in tests: no user or system config, fixed identity and dates. */
export const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.invalid",
  GIT_COMMITTER_NAME: "Test Committer",
  GIT_COMMITTER_EMAIL: "committer@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  XDG_CONFIG_HOME: "/nonexistent-ralph-test",
  RALPH_DEBUG: "",
};

/** A file in an inline repo description: text, or an object for modes and symlinks. */
export type FileSpec = string | Buffer | { content: string | Buffer; mode?: number } | { symlink: string };

/** Runs git in `cwd` and returns its stdout (utf8, trailing newline kept). Throws on non-zero exit. */
export function git(cwd: string, args: string[], options: ExecFileSyncOptions = {}): string {
  return execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"], ...options }) as string;
}

/** Writes files (paths relative to `root`, `/`-separated) creating parent folders. */
export function writeFiles(root: string, files: Record<string, FileSpec>): void {
  for (const [path, spec] of Object.entries(files)) {
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    rmSync(abs, { force: true, recursive: true });
    if (typeof spec === "object" && !Buffer.isBuffer(spec) && "symlink" in spec) {
      symlinkSync(spec.symlink, abs);
    } else if (typeof spec === "object" && !Buffer.isBuffer(spec)) {
      writeFileSync(abs, spec.content);
      if (spec.mode !== undefined) chmodSync(abs, spec.mode);
    } else {
      writeFileSync(abs, spec);
    }
  }
}

const created: string[] = [];
afterEach(() => {
  while (created.length > 0) rmSync(created.pop() as string, { recursive: true, force: true });
});

/** A fresh empty directory under the OS temp dir, removed after the current test. */
export function makeTempDir(prefix = "ralph-test-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/**
 * A copy of the repository (or any folder) at `template` in a fresh temporary
 * folder, removed after the current test: for a fixture built once per file
 * (beforeAll) and used fresh by each test. Symlinks are copied as links. The
 * copy's index is refreshed (`git update-index --refresh`) so the new inodes
 * and times do not make a later `git status` rewrite it (userState compares
 * the index bytes). Returns the copy's root.
 */
export function copyRepo(template: string): string {
  const root = makeTempDir();
  cpSync(template, root, { recursive: true, verbatimSymlinks: true });
  if (existsSync(join(root, ".git", "index"))) {
    try {
      git(root, ["update-index", "-q", "--refresh"]);
    } catch {
      /* exit 1 lists files that differ from the index: the refresh of the others is done */
    }
  }
  return root;
}

/**
 * Creates a repository: `git init -b main`, writes `files`, and when
 * `commit` is true (default) adds and commits them as "initial".
 * Returns the work tree root.
 */
export function makeRepo(files: Record<string, FileSpec> = {}, options: { commit?: boolean } = {}): string {
  const root = makeTempDir();
  git(root, ["init", "-q", "-b", "main"]);
  // `git config core.autocrlf false` without a git process of its own (one fewer spawn per repository).
  appendFileSync(join(root, ".git", "config"), "[core]\n\tautocrlf = false\n");
  writeFiles(root, files);
  if (options.commit ?? true) {
    git(root, ["add", "-A"]);
    git(root, ["commit", "-q", "--allow-empty", "-m", "initial"]);
  }
  return root;
}

/** `git add -A && git commit` with a message; returns the new HEAD oid. */
export function commitAll(root: string, message: string): string {
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "--allow-empty", "-m", message]);
  return git(root, ["rev-parse", "HEAD"]).trim();
}

/**
 * A private copy of the repository's index (`.git/index`) for git commands
 * that must not touch the user's, or a path to a fresh empty one when the
 * repository has none. The copy keeps the index file's mtime: git's racy-git
 * check compares each entry's mtime with the index file's (whole seconds
 * unless git is built with USE_NSEC; Documentation/technical/racy-git.txt),
 * so a copy with a fresh mtime makes a file rewritten at the same size within
 * the second of the last `git add` look unchanged to git. Returns the copy's
 * absolute path.
 */
export function privateIndexCopy(root: string): string {
  const index = join(makeTempDir("ralph-index-"), "index");
  const real = join(git(root, ["rev-parse", "--absolute-git-dir"]).trim(), "index");
  if (existsSync(real)) {
    copyFileSync(real, index);
    const st = lstatSync(real);
    utimesSync(index, st.atime, st.mtime);
  }
  return index;
}

/**
 * git's own tree (oid, 40 hex) of the work tree as `git add -A` would stage it
 * into a private copy of the index ({@link privateIndexCopy}), with
 * core.autocrlf and core.safecrlf off: what a checkpoint of the work tree must
 * equal. The user's index is not touched. Throws when git fails.
 */
export function gitWorkTreeTree(root: string): string {
  const env = { ...gitEnv, GIT_INDEX_FILE: privateIndexCopy(root) };
  git(root, ["-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "add", "-A"], { env });
  return git(root, ["write-tree"], { env }).trim();
}

/** `git fsck --full --strict` output; throws if git reports an error. */
export function fsck(root: string): string {
  return git(root, ["fsck", "--full", "--strict", "--no-dangling"]);
}

/** Everything that must not move when ralph checkpoints: HEAD, the index file bytes, status. */
export function userState(root: string): { head: string; status: string; index: string } {
  let head: string;
  try {
    head = git(root, ["rev-parse", "HEAD"]).trim();
  } catch {
    head = "(no commits)";
  }
  const gitDir = git(root, ["rev-parse", "--absolute-git-dir"]).trim();
  let index: string;
  try {
    index = createHash("sha1")
      .update(readFileSync(join(gitDir, "index")))
      .digest("hex");
  } catch {
    index = "(no index)";
  }
  return { head, status: git(root, ["status", "--porcelain=v1", "-uall", "--ignored"]), index };
}
