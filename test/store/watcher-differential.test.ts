/**
 * Differential test of the dirty-path snapshot (src/store/dirty-paths.ts feeding
 * snapshotWorkTree's `dirty` option): a seeded sequence of edits (creates in new
 * nested folders, rewrites, same-size rewrites, renames of files and folders,
 * deletes of files and whole folders, chmod, symlinks, ignored files,
 * .gitignore edits, git add and commit) with a checkpoint fed by a real
 * WorkTreeWatcher after each step; its tree must equal a full scan's. The test
 * also requires that most steps did go through the dirty set, so it cannot pass
 * by always falling back to a full scan.
 * Longer runs: `RALPH_WATCH_SEEDS=1,2,3 RALPH_WATCH_STEPS=200 npx vitest run test/store/watcher-differential.test.ts`.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkTreeWatcher, type DirtyPaths } from "../../src/store/dirty-paths.js";
import { ObjectDatabase } from "../../src/store/odb.js";
import { openRepository } from "../../src/store/repo.js";
import { commitStatCache, snapshotWorkTree, statCachePath, type DirtyPathSet, type Snapshot } from "../../src/store/snapshot.js";
import type { Repository } from "../../src/store/repo.js";
import { seededRandom } from "../helpers/cli.js";
import { randomEdit } from "../helpers/random-edits.js";
import { fsck, git, makeRepo } from "../helpers/git.js";

const SEEDS = (process.env.RALPH_WATCH_SEEDS ?? "1").split(",").map(Number);
const STEPS = Number(process.env.RALPH_WATCH_STEPS ?? "40");

const watchers: WorkTreeWatcher[] = [];
afterEach(async () => {
  while (watchers.length > 0) await (watchers.pop() as WorkTreeWatcher).close();
});

/** A full scan that trusts no cache: the stat cache is moved aside for it (so a wrong entry cannot agree with itself) and put back. */
function coldScan(repo: Repository, odb: ObjectDatabase): Snapshot {
  const path = statCachePath(repo);
  const saved = readFileSync(path);
  rmSync(path);
  try {
    return snapshotWorkTree(repo, odb, { anchored: false });
  } finally {
    writeFileSync(path, saved);
  }
}

function dirtyOption(dirty: DirtyPaths): DirtyPathSet | undefined {
  return dirty.kind === "paths" ? { paths: dirty.paths, sinceMs: dirty.sinceMs } : undefined;
}

describe("dirty-path snapshots fed by a file watcher", () => {
  for (const seed of SEEDS) {
    it(`equal a full scan after every random edit (seed ${seed}, ${STEPS} steps)`, async () => {
      const files: Record<string, string> = { ".gitignore": "*.log\nbuild/\n" };
      for (let i = 0; i < 30; i++) files[`d${i % 4}/s${i % 3}/f${i}.txt`] = `file ${i}\n`;
      const root = makeRepo(files);
      const watcher = new WorkTreeWatcher();
      watchers.push(watcher);
      await watcher.start(root);
      const repo = openRepository(root);
      const odb = new ObjectDatabase(join(repo.commonDir, "objects"));
      const rand = seededRandom(seed);
      let dirtyScans = 0;
      const done: string[] = [];
      for (let step = 0; step < STEPS; step++) {
        done.push(randomEdit(root, rand, step));
        const dirty = await watcher.take();
        const watched = snapshotWorkTree(repo, odb, { dirty: dirtyOption(dirty) });
        commitStatCache(repo, watched);
        if (watched.scan.kind === "dirty") dirtyScans++;
        const full = coldScan(repo, odb);
        expect(watched.treeOid, `seed ${seed} step ${step} (${watched.scan.kind}): ${done.slice(-3).join("; ")}`).toBe(full.treeOid);
      }
      // Most steps go through the dirty set (full scans come from git add, commits and .gitignore edits).
      expect(dirtyScans).toBeGreaterThan(STEPS / 3);
      expect(existsSync(join(root, ".git", "ralph"))).toBe(true);
      fsck(root);
    }, 120_000);
  }
});

describe("snapshotWorkTree with a dirty set", () => {
  it("uses it only when the stat cache can stand for the rest, and says why not otherwise", async () => {
    const root = makeRepo({ "a.txt": "a\n", "src/b.txt": "b\n" });
    // An index written within the racy window of a scan is read again by the next one: let it age.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const repo = openRepository(root);
    const odb = new ObjectDatabase(join(repo.commonDir, "objects"));
    const sinceMs = Date.now();
    const base = snapshotWorkTree(repo, odb);
    commitStatCache(repo, base);
    writeFileSync(join(root, "src/b.txt"), "b2\n");
    const used = snapshotWorkTree(repo, odb, { dirty: { paths: new Set(["src/b.txt"]), sinceMs } });
    expect(used.scan).toEqual({ kind: "dirty" });
    expect(used.stats.filesStatted).toBe(1);
    expect(used.treeOid).toBe(coldScan(repo, odb).treeOid);
    const cases: [DirtyPathSet, string][] = [
      [{ paths: new Set(["src/b.txt"]), sinceMs: Date.now() + 60_000 }, "the stat cache is older than the dirty set"],
      [{ paths: new Set([""]), sinceMs }, "the dirty set names the whole work tree"],
    ];
    for (const [dirty, reason] of cases) {
      const snap = snapshotWorkTree(repo, odb, { dirty });
      expect(snap.scan).toEqual({ kind: "full", reason });
      expect(snap.treeOid).toBe(used.treeOid);
    }
    expect(snapshotWorkTree(repo, odb, { dirty: { paths: new Set(), sinceMs }, collectIgnored: true }).scan).toEqual({ kind: "full", reason: "ignored paths are needed" });
    git(root, ["add", "-A"]);
    expect(snapshotWorkTree(repo, odb, { dirty: { paths: new Set(), sinceMs } }).scan).toEqual({ kind: "full", reason: "git's index changed" });
  });
});
