import { chmodSync, existsSync, utimesSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRalphError } from "../../src/errors.js";
import { CheckpointStore, type CheckpointResult } from "../../src/store/checkpoint-store.js";
import { parseLoopId, type LoopId } from "../../src/store/loop-id.js";
import { resolveRev } from "../../src/store/rev.js";
import { commitAll, fsck, git, makeRepo, makeTempDir, userState, writeFiles } from "../helpers/git.js";

const LOOP = parseLoopId("t");

function checkpoint(root: string, options: { loop?: LoopId; message?: string; sizeCapBytes?: number } = {}): CheckpointResult {
  const store = CheckpointStore.open(root);
  return store.checkpoint({ loop: options.loop ?? LOOP, kind: "manual", message: options.message }, { sizeCapBytes: options.sizeCapBytes });
}

function revert(root: string, rev: string, options: { force?: boolean; dryRun?: boolean } = {}) {
  const store = CheckpointStore.open(root);
  const target = resolveRev(store, rev, LOOP);
  if (target.kind !== "commit") throw new Error("not a commit");
  return store.revert(target, { loop: LOOP, ...options });
}

/** Paths of a checkpoint's tree as native git sees them: "mode path". */
function lsTree(root: string, rev: string): string[] {
  return git(root, ["ls-tree", "-r", "--full-tree", rev])
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split("\t");
      return `${meta?.split(" ")[0]} ${path}`;
    });
}

/** The set of paths git itself would store: tracked plus untracked-not-ignored, via `git status --porcelain -uall` and `git ls-files`. */
function gitView(root: string): string[] {
  const tracked = git(root, ["ls-files", "-z"]).split("\0").filter(Boolean);
  const untracked = git(root, ["status", "--porcelain=v1", "-uall", "-z"])
    .split("\0")
    .filter((l) => l.startsWith("?? "))
    .map((l) => l.slice(3));
  const present = tracked.filter((p) => {
    try {
      lstatSync(join(root, p));
      return true;
    } catch {
      return false;
    }
  });
  return [...new Set([...present, ...untracked])].sort();
}

function treePaths(root: string, rev: string): string[] {
  return lsTree(root, rev)
    .map((l) => l.slice(l.indexOf(" ") + 1))
    .sort();
}

describe("snapshot", () => {
  it("stores tracked and untracked files, leaves HEAD, index and status untouched, and native git reads it", () => {
    const root = makeRepo({ "src/a.ts": "export const a = 1;\n", "README.md": "# r\n", ".gitignore": "dist/\n*.log\n" });
    writeFiles(root, { "notes.txt": "untracked\n", "dist/out.js": "ignored\n", "debug.log": "ignored\n", "src/a.ts": "export const a = 2;\n" });
    git(root, ["add", "README.md"]);
    const before = userState(root);
    const result = checkpoint(root, { message: "first" });
    expect(result.changed).toBe(true);
    expect(userState(root)).toEqual(before);
    expect(existsSync(join(root, ".git", "index.lock"))).toBe(false);
    expect(treePaths(root, result.oid)).toEqual(gitView(root));
    expect(git(root, ["cat-file", "-p", `${result.oid}:src/a.ts`])).toBe("export const a = 2;\n");
    expect(git(root, ["rev-parse", "refs/ralph/t/head"]).trim()).toBe(result.oid);
    expect(git(root, ["rev-parse", "refs/ralph/t/baseline"]).trim()).toBe(result.oid);
    const trailers = git(root, ["log", "-1", "--format=%B", result.oid]);
    const parsed = git(root, ["interpret-trailers", "--parse"], { input: trailers });
    expect(parsed).toContain("Ralph-Loop: t");
    expect(parsed).toContain("Ralph-Kind: manual");
    expect(parsed).toContain(`Ralph-Head: ${git(root, ["rev-parse", "HEAD"]).trim()}`);
    fsck(root);
  });

  it("never includes ralph's own state folder, even when git would not ignore it", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    writeFiles(root, { ".aiwg/ralph/loops/x/state.json": "{}\n", ".aiwg/other.md": "user file\n" });
    const result = checkpoint(root);
    expect(treePaths(root, result.oid)).toEqual([".aiwg/other.md", "a.txt"]);
  });

  it("repeated WORKTREE snapshots after a change agree with each other and with git (no stale cached tree)", () => {
    const root = makeRepo({ "a.txt": "a\n", "dir/b.txt": "b\n", "dir/c.txt": "c\n" });
    checkpoint(root);
    rmSync(join(root, "dir/b.txt"));
    writeFiles(root, { "a.txt": "changed\n" });
    const trees = [1, 2, 3].map(() => CheckpointStore.open(root).snapshot().treeOid);
    expect(new Set(trees).size).toBe(1);
    expect(treePaths(root, trees[0] as string)).toEqual(["a.txt", "dir/c.txt"]);
    expect(git(root, ["cat-file", "-p", `${trees[0]}:a.txt`])).toBe("changed\n");
    // And the next checkpoint after those snapshots stores the same tree.
    expect(checkpoint(root).treeOid).toBe(trees[0]);
    fsck(root);
  });

  it("writes no commit when the tree equals the previous checkpoint", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const first = checkpoint(root);
    const second = checkpoint(root);
    expect(second.changed).toBe(false);
    expect(second.oid).toBe(first.oid);
    writeFiles(root, { "a.txt": "b\n" });
    const third = checkpoint(root);
    expect(third.changed).toBe(true);
    expect(git(root, ["rev-parse", `${third.oid}^`]).trim()).toBe(first.oid);
  });

  it("matches git's untracked set with nested .gitignore, negation, info/exclude and core.excludesFile", () => {
    const root = makeRepo({
      ".gitignore": "*.tmp\nbuild/\n!keep.tmp\n",
      "pkg/.gitignore": "local/\n!important.tmp\ngenerated-*\n",
      "pkg/src/x.ts": "x\n",
    });
    const excludes = join(makeTempDir(), "global-ignore");
    writeFileSync(excludes, "*.swp\n");
    git(root, ["config", "core.excludesFile", excludes]);
    writeFileSync(join(root, ".git", "info", "exclude"), "secret.env\n");
    writeFiles(root, {
      "a.tmp": "1",
      "keep.tmp": "1",
      "build/out.js": "1",
      "pkg/important.tmp": "1",
      "pkg/local/x": "1",
      "pkg/generated-1.ts": "1",
      "pkg/src/y.ts": "1",
      "pkg/src/.z.swp": "1",
      "secret.env": "1",
      "deep/er/still/file.md": "1",
      "with space/ü nïcode ☃.txt": "1",
    });
    const store = CheckpointStore.open(root);
    const snap = store.snapshot();
    expect([...snap.entries.keys()].sort()).toEqual(gitView(root));
    // A second, cached run sees the same set; then a rule change re-classifies.
    expect([...CheckpointStore.open(root).snapshot().entries.keys()].sort()).toEqual(gitView(root));
  });

  it("re-classifies when a .gitignore changes, and sees files added by another process after a checkpoint", () => {
    const root = makeRepo({ ".gitignore": "*.log\n", "a.txt": "a\n" });
    writeFiles(root, { "early.txt": "before\n", "x.log": "log\n" });
    const first = checkpoint(root);
    expect(treePaths(root, first.oid)).toEqual([".gitignore", "a.txt", "early.txt"]);
    // Another process writes a file and changes the rules.
    writeFiles(root, { "late.txt": "after\n", ".gitignore": "*.txt\n" });
    const second = checkpoint(root);
    expect(treePaths(root, second.oid)).toEqual(gitView(root));
    expect(treePaths(root, second.oid)).toContain("x.log");
  });

  it("follows the index between checkpoints: untracking, re-adding, and a deleted tracked-and-ignored file coming back", () => {
    const root = makeRepo({ "a.txt": "a\n", "kept.log": "tracked although ignored\n", ".gitignore": "*.log\nsecret.txt\n" });
    git(root, ["add", "-f", "kept.log"]);
    commitAll(root, "track an ignored file");
    // Make the index older than every scan, so scans trust their cached view of it instead of
    // re-reading it (git commands below may rewrite the index: age it again after each).
    const ageIndex = (): void => {
      const anHourAgo = new Date(Date.now() - 3_600_000);
      utimesSync(join(root, ".git", "index"), anHourAgo, anHourAgo);
    };
    ageIndex();
    const snapshotPaths = (): string[] => [...CheckpointStore.open(root).snapshot().entries.keys()].sort();
    expect(snapshotPaths()).toEqual([".gitignore", "a.txt", "kept.log"]);
    expect(snapshotPaths()).toEqual([".gitignore", "a.txt", "kept.log"]); // now from the cached index view
    // A tracked, ignored file deleted and restored while the index stays the same is tracked all along.
    rmSync(join(root, "kept.log"));
    expect(checkpoint(root).changed).toBe(true);
    expect(treePaths(root, "refs/ralph/t/head")).toEqual([".gitignore", "a.txt"]);
    writeFiles(root, { "kept.log": "tracked although ignored\n" });
    checkpoint(root);
    expect(treePaths(root, "refs/ralph/t/head")).toEqual([".gitignore", "a.txt", "kept.log"]);
    // Untracking an ignored file removes it from the snapshot; tracking it again brings it back.
    writeFiles(root, { "secret.txt": "s\n" });
    git(root, ["add", "-f", "secret.txt"]);
    ageIndex();
    checkpoint(root);
    expect(treePaths(root, "refs/ralph/t/head")).toContain("secret.txt");
    git(root, ["rm", "-q", "--cached", "secret.txt"]);
    ageIndex();
    checkpoint(root);
    expect(treePaths(root, "refs/ralph/t/head")).not.toContain("secret.txt");
    git(root, ["add", "-f", "secret.txt"]);
    ageIndex();
    checkpoint(root);
    expect(treePaths(root, "refs/ralph/t/head")).toContain("secret.txt");
    expect(treePaths(root, "refs/ralph/t/head")).toEqual(gitView(root));
  });

  it("keeps modes: exec bit, symlinks as links (never followed), and records unusual permissions", () => {
    const root = makeRepo({ "run.sh": { content: "#!/bin/sh\n", mode: 0o755 }, "target.txt": "t\n" });
    writeFiles(root, { link: { symlink: "target.txt" }, dangling: { symlink: "/nonexistent/outside" }, secret: { content: "s\n", mode: 0o600 } });
    const result = checkpoint(root);
    const modes = Object.fromEntries(lsTree(root, result.oid).map((l) => [l.slice(l.indexOf(" ") + 1), l.split(" ")[0]]));
    expect(modes).toEqual({ "run.sh": "100755", "target.txt": "100644", link: "120000", dangling: "120000", secret: "100644" });
    expect(git(root, ["cat-file", "-p", `${result.oid}:dangling`])).toBe("/nonexistent/outside");
    expect(git(root, ["log", "-1", "--format=%B", result.oid])).toContain('Ralph-Mode: 0600 "secret"');
  });

  it("records a nested repository and a submodule as gitlinks without entering them", () => {
    const inner = makeRepo({ "inner.txt": "inner\n" });
    const innerHead = git(inner, ["rev-parse", "HEAD"]).trim();
    const root = makeRepo({ "a.txt": "a\n" });
    git(root, ["clone", "-q", inner, "nested"]);
    writeFiles(root, { "nested/uncommitted.txt": "x\n" });
    const result = checkpoint(root);
    expect(lsTree(root, result.oid)).toContain("160000 nested");
    expect(git(root, ["ls-tree", result.oid, "nested"])).toContain(innerHead);
    expect(treePaths(root, result.oid)).not.toContain("nested/inner.txt");
    // The nested repository itself was not modified.
    expect(git(join(root, "nested"), ["status", "--porcelain"])).toBe("?? uncommitted.txt\n");
    fsck(root);
  });

  it("skips files over the size cap and names them in the trailers", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    writeFiles(root, { "big.bin": Buffer.alloc(4096, 1), "small.bin": Buffer.alloc(10, 1) });
    const result = checkpoint(root, { sizeCapBytes: 1024 });
    expect(result.skipped).toEqual([{ path: "big.bin", sizeBytes: 4096 }]);
    expect(treePaths(root, result.oid)).toEqual(["a.txt", "small.bin"]);
    expect(git(root, ["log", "-1", "--format=%B", result.oid])).toContain('Ralph-Skipped: "big.bin" 4096 bytes');
  });

  it("works in an empty repository, from a subdirectory and in a linked worktree", () => {
    const empty = makeRepo({}, { commit: false });
    writeFiles(empty, { "first.txt": "1\n", "sub/dir/file.txt": "2\n" });
    const result = CheckpointStore.open(join(empty, "sub", "dir")).checkpoint({ loop: LOOP, kind: "manual" });
    expect(treePaths(empty, result.oid)).toEqual(["first.txt", "sub/dir/file.txt"]);
    expect(git(empty, ["log", "-1", "--format=%B", result.oid])).toContain("Ralph-Head: none");
    fsck(empty);

    const main = makeRepo({ "m.txt": "main\n" });
    const wt = join(makeTempDir(), "wt");
    git(main, ["worktree", "add", "-q", "-b", "feature", wt]);
    writeFiles(wt, { "w.txt": "worktree only\n" });
    const inWt = CheckpointStore.open(wt).checkpoint({ loop: parseLoopId("wt"), kind: "manual" });
    expect(treePaths(main, inWt.oid)).toEqual(["m.txt", "w.txt"]);
    expect(git(main, ["rev-parse", "refs/ralph/wt/head"]).trim()).toBe(inWt.oid);
    expect(git(wt, ["status", "--porcelain"])).toBe("?? w.txt\n");
    fsck(main);
  });

  it("keeps every checkpoint through git gc --prune=now", () => {
    const root = makeRepo({ "a.txt": "0\n" });
    const oids: string[] = [];
    for (let i = 1; i <= 4; i++) {
      writeFiles(root, { "a.txt": `${i}\n`, [`u${i}.txt`]: "untracked\n" });
      oids.push(checkpoint(root).oid);
    }
    git(root, ["gc", "-q", "--prune=now"]);
    fsck(root);
    for (const oid of oids) expect(git(root, ["cat-file", "-t", oid]).trim()).toBe("commit");
    // The store reads what is now packed (refs and objects).
    const store = CheckpointStore.open(root);
    expect(store.log(LOOP).map((c) => c.oid)).toEqual([...oids].reverse());
    writeFiles(root, { "a.txt": "after gc\n" });
    expect(checkpoint(root).changed).toBe(true);
    fsck(root);
  });
});

describe("restore", () => {
  it("brings back a deleted tracked file and a deleted untracked file, removes added files, and is undoable", () => {
    const root = makeRepo({ "src/a.ts": "a\n", "src/b.ts": "b\n", "keep.txt": "k\n", ".gitignore": "*.log\n" });
    writeFiles(root, { "untracked.txt": "u\n", "ignored.log": "mine\n" });
    const base = checkpoint(root);
    const keepMtime = statSync(join(root, "keep.txt")).mtimeMs;
    unlinkSync(join(root, "src/a.ts"));
    unlinkSync(join(root, "untracked.txt"));
    writeFiles(root, { "added.txt": "new\n", "src/b.ts": "edited after the last checkpoint\n", "other.log": "ignored too\n" });
    const before = userState(root);
    const result = revert(root, "@baseline");
    expect(result.target.oid).toBe(base.oid);
    expect(readFileSync(join(root, "src/a.ts"), "utf8")).toBe("a\n");
    expect(readFileSync(join(root, "untracked.txt"), "utf8")).toBe("u\n");
    expect(readFileSync(join(root, "src/b.ts"), "utf8")).toBe("b\n");
    expect(existsSync(join(root, "added.txt"))).toBe(false);
    expect(readFileSync(join(root, "ignored.log"), "utf8")).toBe("mine\n");
    expect(readFileSync(join(root, "other.log"), "utf8")).toBe("ignored too\n");
    expect(statSync(join(root, "keep.txt")).mtimeMs).toBe(keepMtime);
    expect(git(root, ["rev-parse", "HEAD"]).trim()).toBe(before.head);
    // The user's edit made after the last checkpoint is in the pre-revert checkpoint.
    expect(result.preRevert).not.toBeNull();
    expect(git(root, ["cat-file", "-p", `${result.preRevert}:src/b.ts`])).toBe("edited after the last checkpoint\n");
    expect(git(root, ["log", "-1", "--format=%B", result.preRevert as string])).toContain("Ralph-Kind: pre-revert");
    // Undo the revert.
    revert(root, result.preRevert as string);
    expect(readFileSync(join(root, "src/b.ts"), "utf8")).toBe("edited after the last checkpoint\n");
    expect(existsSync(join(root, "added.txt"))).toBe(true);
    expect(existsSync(join(root, "src/a.ts"))).toBe(false);
    fsck(root);
  });

  it("resolves the target before the pre-revert checkpoint: revert @head undoes an unsaved break", () => {
    const root = makeRepo({ "a.txt": "good\n" });
    checkpoint(root);
    writeFiles(root, { "a.txt": "broken\n" });
    revert(root, "@head");
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("good\n");
  });

  it("turns a symlink into a file and back, and a file into a folder and back", () => {
    const root = makeRepo({ "t.txt": "target\n", x: "x is a file\n" });
    writeFiles(root, { l: { symlink: "t.txt" } });
    const withLink = checkpoint(root).oid;
    rmSync(join(root, "l"));
    writeFiles(root, { l: "now a file\n" });
    rmSync(join(root, "x"));
    writeFiles(root, { "x/inner.txt": "x is a folder\n" });
    const withFile = checkpoint(root).oid;
    revert(root, withLink);
    expect(lstatSync(join(root, "l")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, "l"))).toBe("t.txt");
    expect(readFileSync(join(root, "x"), "utf8")).toBe("x is a file\n");
    revert(root, withFile);
    expect(lstatSync(join(root, "l")).isFile()).toBe(true);
    expect(readFileSync(join(root, "x/inner.txt"), "utf8")).toBe("x is a folder\n");
  });

  it("restores modes exactly: 0600 stays 0600, the exec bit comes back", () => {
    const root = makeRepo({ "run.sh": { content: "#!/bin/sh\necho 1\n", mode: 0o755 } });
    writeFiles(root, { "secret.env": { content: "KEY=1\n", mode: 0o600 } });
    const base = checkpoint(root).oid;
    chmodSync(join(root, "run.sh"), 0o644);
    writeFiles(root, { "run.sh": "#!/bin/sh\necho 2\n" });
    rmSync(join(root, "secret.env"));
    revert(root, base);
    expect(statSync(join(root, "run.sh")).mode & 0o777).toBe(0o755);
    expect(statSync(join(root, "secret.env")).mode & 0o777).toBe(0o600);
    // A surviving 0600 file that changes content keeps 0600.
    writeFiles(root, { "secret.env": "KEY=2\n" });
    chmodSync(join(root, "secret.env"), 0o600);
    revert(root, base);
    expect(statSync(join(root, "secret.env")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(root, "secret.env"), "utf8")).toBe("KEY=1\n");
  });

  it("brings CRLF and mixed line endings back byte for byte, even with core.autocrlf", () => {
    const root = makeRepo({ "win.txt": "a\r\nb\r\n", "mixed.txt": "a\r\nb\nc\r" });
    git(root, ["config", "core.autocrlf", "true"]);
    const base = checkpoint(root).oid;
    writeFiles(root, { "win.txt": "changed\n", "mixed.txt": "changed\n" });
    revert(root, base);
    expect(readFileSync(join(root, "win.txt"))).toEqual(Buffer.from("a\r\nb\r\n"));
    expect(readFileSync(join(root, "mixed.txt"))).toEqual(Buffer.from("a\r\nb\nc\r"));
  });

  it("handles unicode and space-containing paths", () => {
    const root = makeRepo({ "dir with space/ﬁle ü.txt": "1\n", "日本/語.md": "2\n" });
    const base = checkpoint(root).oid;
    rmSync(join(root, "dir with space"), { recursive: true });
    writeFiles(root, { "日本/語.md": "changed\n" });
    revert(root, base);
    expect(readFileSync(join(root, "dir with space/ﬁle ü.txt"), "utf8")).toBe("1\n");
    expect(readFileSync(join(root, "日本/語.md"), "utf8")).toBe("2\n");
  });

  it("refuses to delete more than half of the tracked files without force, and says how many", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const base = checkpoint(root).oid;
    writeFiles(root, { "b.txt": "b\n", "c.txt": "c\n", "d.txt": "d\n" });
    commitAll(root, "three more");
    let error: unknown;
    try {
      revert(root, base);
    } catch (e) {
      error = e;
    }
    expect(isRalphError(error, "E_RESTORE_REFUSED")).toBe(true);
    expect((error as Error).message).toContain("3 of 4 tracked files");
    expect(existsSync(join(root, "b.txt"))).toBe(true);
    revert(root, base, { force: true });
    expect(existsSync(join(root, "b.txt"))).toBe(false);
  });

  it("changes nothing on a dry run", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const base = checkpoint(root).oid;
    writeFiles(root, { "a.txt": "changed\n", "new.txt": "n\n" });
    const mtime = statSync(join(root, "a.txt")).mtimeMs;
    const head = git(root, ["rev-parse", "refs/ralph/t/head"]).trim();
    const result = revert(root, base, { dryRun: true });
    expect(result.written).toEqual(["a.txt"]);
    expect(result.removed).toEqual(["new.txt"]);
    expect(readFileSync(join(root, "a.txt"), "utf8")).toBe("changed\n");
    expect(statSync(join(root, "a.txt")).mtimeMs).toBe(mtime);
    expect(existsSync(join(root, "new.txt"))).toBe(true);
    expect(git(root, ["rev-parse", "refs/ralph/t/head"]).trim()).toBe(head);
  });

  it("never writes through a symlinked folder or outside the work tree", () => {
    const outside = makeTempDir();
    const root = makeRepo({ "d/f.txt": "inside\n" });
    const base = checkpoint(root).oid;
    rmSync(join(root, "d"), { recursive: true });
    symlinkSync(outside, join(root, "d"));
    writeFiles(root, { ".gitignore": "d\n" });
    const result = revert(root, base);
    expect(existsSync(join(outside, "f.txt"))).toBe(false);
    expect(result.skipped.map((s) => s.path)).toContain("d/f.txt");
  });

  it("leaves ignored files alone even when the target has a file at that path", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    writeFiles(root, { "cache.db": "tracked-then\n" });
    const base = checkpoint(root).oid;
    rmSync(join(root, "cache.db"));
    writeFiles(root, { ".gitignore": "cache.db\n" });
    checkpoint(root);
    writeFiles(root, { "cache.db": "the user's ignored file\n" });
    mkdirSync(join(root, "unrelated"), { recursive: true });
    const result = revert(root, base);
    // .gitignore is removed (added since), but the ignored cache.db present when reverting is never overwritten.
    expect(readFileSync(join(root, "cache.db"), "utf8")).toBe("the user's ignored file\n");
    expect(result.skipped.map((s) => s.path)).toContain("cache.db");
  });
});

describe("rev resolution", () => {
  it("resolves @head~N, @baseline, oids, abbreviations and git revisions", () => {
    const root = makeRepo({ "a.txt": "0\n" });
    const first = checkpoint(root).oid;
    writeFiles(root, { "a.txt": "1\n" });
    const second = checkpoint(root).oid;
    const store = CheckpointStore.open(root);
    const oidOf = (rev: string): string => {
      const r = resolveRev(store, rev, LOOP);
      return r.kind === "commit" ? r.oid : "WORKTREE";
    };
    expect(oidOf("@head")).toBe(second);
    expect(oidOf("@head~1")).toBe(first);
    expect(oidOf("@baseline")).toBe(first);
    expect(oidOf(second.slice(0, 10))).toBe(second);
    expect(oidOf("HEAD")).toBe(git(root, ["rev-parse", "HEAD"]).trim());
    expect(oidOf("main")).toBe(git(root, ["rev-parse", "main"]).trim());
    expect(oidOf("refs/ralph/t/head~1")).toBe(first);
    expect(resolveRev(store, "WORKTREE", LOOP, true).kind).toBe("worktree");
    for (const bad of ["@head~5", "nosuch", "@7", "HEAD@{1}", "main..HEAD", ""]) {
      let error: unknown;
      try {
        resolveRev(store, bad, LOOP);
      } catch (e) {
        error = e;
      }
      expect(isRalphError(error, "E_UNKNOWN_REV"), bad).toBe(true);
    }
  });
});
