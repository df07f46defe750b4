/**
 * WorkTreeWatcher (src/store/dirty-paths.ts) on real temporary repositories with
 * the real watcher: what take() hands out, and each case where it must say
 * "full" instead (first take, git's index, .gitignore, a burst, a failed start,
 * after close). The agreement of dirty-path snapshots with full scans is
 * test/store/watcher-differential.test.ts.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkTreeWatcher, type DirtyPaths, type WorkTreeWatcherOptions } from "../../src/store/dirty-paths.js";
import { git, makeRepo, makeTempDir } from "../helpers/git.js";

const watchers: WorkTreeWatcher[] = [];
afterEach(async () => {
  while (watchers.length > 0) await (watchers.pop() as WorkTreeWatcher).close();
});

async function watch(root: string, options: WorkTreeWatcherOptions = {}): Promise<WorkTreeWatcher> {
  const w = new WorkTreeWatcher(options);
  watchers.push(w);
  await w.start(root);
  return w;
}

function paths(d: DirtyPaths): string[] {
  if (d.kind !== "paths") throw new Error(`expected paths, got full: ${d.reason}`);
  return [...d.paths].sort();
}

describe("WorkTreeWatcher", () => {
  it("says full on the first take, then hands out the changed paths relative to the work tree", async () => {
    const root = makeRepo({ "src/a.ts": "a\n", "src/b.ts": "b\n", "README.md": "r\n" });
    const w = await watch(root);
    const first = await w.take();
    expect(first).toEqual({ kind: "full", reason: "the watcher started since the last scan" });
    const before = Date.now();
    expect(paths(await w.take())).toEqual([]);
    writeFileSync(join(root, "src/a.ts"), "a2\n");
    renameSync(join(root, "README.md"), join(root, "README.txt"));
    rmSync(join(root, "src/b.ts"));
    const d = await w.take();
    expect(paths(d)).toEqual(["README.md", "README.txt", "src/a.ts", "src/b.ts"]);
    expect(d.kind === "paths" && d.sinceMs).toBeGreaterThanOrEqual(before);
    // Handed over: the next set starts empty.
    expect(paths(await w.take())).toEqual([]);
  });

  it("sees files in folders created inside a new folder before the watcher could watch it", async () => {
    const root = makeRepo({ "x.txt": "x\n" });
    const w = await watch(root);
    await w.take();
    mkdirSync(join(root, "a/b/c"), { recursive: true });
    writeFileSync(join(root, "a/b/c/f.txt"), "1\n");
    expect(paths(await w.take())).toContain("a");
    writeFileSync(join(root, "a/b/c/f.txt"), "2\n");
    expect(paths(await w.take())).toContain("a/b/c/f.txt");
  });

  it("says full when git's index changes (git add, checkout, reset)", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const w = await watch(root);
    await w.take();
    writeFileSync(join(root, "new.txt"), "n\n");
    git(root, ["add", "new.txt"]);
    const d = await w.take();
    expect(d.kind).toBe("full");
    expect(d.kind === "full" && d.reason).toMatch(/index/);
    expect(paths(await w.take())).toEqual([]);
  });

  it("says full when a .gitignore changes", async () => {
    const root = makeRepo({ "a.txt": "a\n", "sub/.gitignore": "*.log\n" });
    const w = await watch(root);
    await w.take();
    writeFileSync(join(root, "sub/.gitignore"), "*.tmp\n");
    expect(await w.take()).toEqual({ kind: "full", reason: "sub/.gitignore changed" });
  });

  it("says full after a burst of more paths than maxPaths (a queue overflow would go unreported)", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const w = await watch(root, { maxPaths: 10 });
    await w.take();
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `f${i}.txt`), `${i}\n`);
    expect(await w.take()).toEqual({ kind: "full", reason: "more than 10 paths changed" });
  });

  it("says full when it could not start, and after close", async () => {
    const missing = join(makeTempDir(), "gone");
    const broken = await watch(missing);
    const d = await broken.take();
    expect(d.kind === "full" && d.reason).toMatch(/^the file watcher could not start: /);
    expect(broken.brokenBecause).toBe(d.kind === "full" ? d.reason : "");
    const root = makeRepo({ "a.txt": "a\n" });
    const w = await watch(root);
    await w.take();
    await w.close();
    expect(await w.take()).toEqual({ kind: "full", reason: "the watcher is closed" });
  });

  it("says full once no full scan happened for trustMs", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const w = await watch(root, { trustMs: 1 });
    await w.take();
    await new Promise((r) => setTimeout(r, 5));
    expect(await w.take()).toEqual({ kind: "full", reason: "no full scan for 1 ms" });
  });
});
