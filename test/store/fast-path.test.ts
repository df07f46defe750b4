/**
 * The checkpoint fast path (re-read only the paths a tool named) must store
 * exactly the tree a full snapshot would, whenever nothing else changed.
 */
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { fsck, git, makeRepo, writeFiles } from "../helpers/git.js";

const LOOP = parseLoopId("fast");

describe("checkpointPaths", () => {
  it("stores what a full snapshot would, edit by edit", () => {
    const root = makeRepo({ ".gitignore": "dist/\n*.log\n", "src/a.ts": "a\n", "src/deep/b.ts": "b\n", "README.md": "r\n" });
    git(root, ["clone", "-q", makeRepo({ "n.txt": "n\n" }), "vendor/nested"]);
    const store = () => CheckpointStore.open(root);
    store().checkpoint({ loop: LOOP, kind: "manual" });
    const steps: [string, () => void, string][] = [
      ["modify a tracked file", () => writeFileSync(join(root, "src/a.ts"), "a2\n"), "src/a.ts"],
      ["create a file in a new folder", () => writeFiles(root, { "src/new/c.ts": "c\n" }), "src/new/c.ts"],
      ["delete a tracked file (its folder empties)", () => rmSync(join(root, "src/deep/b.ts")), "src/deep/b.ts"],
      ["an ignored new file is left out", () => writeFiles(root, { "dist/out.js": "x\n" }), "dist/out.js"],
      ["an ignored-by-pattern file is left out", () => writeFiles(root, { "debug.log": "x\n" }), "debug.log"],
      ["a file inside a nested repository is left out", () => writeFiles(root, { "vendor/nested/x.txt": "x\n" }), "vendor/nested/x.txt"],
      ["exec bit", () => chmodSync(join(root, "src/a.ts"), 0o755), "src/a.ts"],
      ["a symlink", () => symlinkSync("src/a.ts", join(root, "link")), "link"],
      [
        "a file where a folder was (deep) via absolute path",
        () => {
          rmSync(join(root, "src/new"), { recursive: true });
          writeFiles(root, { "src/new": "now a file\n" });
        },
        "src/new",
      ],
      ["a 0600 file", () => writeFiles(root, { "secret.env": { content: "k\n", mode: 0o600 } }), "secret.env"],
      ["a path outside the work tree: a full scan decides", () => writeFiles(root, { "other.txt": "picked up by the full scan\n" }), "/etc/hostname"],
    ];
    for (const [what, act, path] of steps) {
      act();
      const fast = store().checkpointPaths({ loop: LOOP, kind: "post-tool", tool: "Edit" }, [path.startsWith("/") ? path : path === "src/new" ? join(root, path) : path]);
      const full = store().snapshot();
      expect(fast.treeOid, what).toBe(full.treeOid);
    }
    expect(git(root, ["log", "-1", "--format=%B", "refs/ralph/fast/head"])).toContain('Ralph-Mode: 0600 "secret.env"');
    fsck(root);
  });

  it("keeps the head's notes for paths it did not re-read, and falls back to a full scan for a folder", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    writeFiles(root, { "secret.env": { content: "k\n", mode: 0o600 } });
    const store = () => CheckpointStore.open(root);
    store().checkpoint({ loop: LOOP, kind: "manual" });
    writeFileSync(join(root, "a.txt"), "changed\n");
    store().checkpointPaths({ loop: LOOP, kind: "post-tool" }, ["a.txt"]);
    expect(git(root, ["log", "-1", "--format=%B", "refs/ralph/fast/head"])).toContain('Ralph-Mode: 0600 "secret.env"');
    // A path that is now a folder: the full scan stores it (and anything else that changed).
    mkdirSync(join(root, "dir"));
    writeFiles(root, { "dir/x.txt": "x\n", "other.txt": "changed elsewhere\n" });
    const result = store().checkpointPaths({ loop: LOOP, kind: "post-tool" }, ["dir"]);
    expect(result.treeOid).toBe(store().snapshot().treeOid);
  });

  it("takes only the named paths: other changes wait for the next full checkpoint", () => {
    const root = makeRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const store = () => CheckpointStore.open(root);
    store().checkpoint({ loop: LOOP, kind: "manual" });
    writeFiles(root, { "a.txt": "a2\n", "b.txt": "b2\n" });
    const fast = store().checkpointPaths({ loop: LOOP, kind: "post-tool" }, ["a.txt"]);
    expect(git(root, ["show", `${fast.oid}:a.txt`])).toBe("a2\n");
    expect(git(root, ["show", `${fast.oid}:b.txt`])).toBe("b\n");
    const full = store().checkpoint({ loop: LOOP, kind: "manual" });
    expect(git(root, ["show", `${full.oid}:b.txt`])).toBe("b2\n");
    expect(git(root, ["rev-parse", `${full.oid}^`]).trim()).toBe(fast.oid);
  });
  it("after a revert the head is the restored tree, so the next fast-path checkpoint matches a full snapshot", () => {
    // Found by the demo: a restore left head at the pre-revert tree, and the next Edit's checkpoint kept the reverted change.
    const root = makeRepo({ "test/a.test.js": "test('x', () => {});\n", "src/a.js": "a\n" });
    const store = () => CheckpointStore.open(root);
    const before = store().checkpoint({ loop: LOOP, kind: "pre-tool" });
    writeFiles(root, { "test/a.test.js": "test.skip('x', () => {});\n" });
    const bad = store().checkpoint({ loop: LOOP, kind: "post-tool" });
    const restored = store().revert({ oid: before.oid, treeOid: before.treeOid, label: "before" }, { loop: LOOP });
    expect(restored.written).toEqual(["test/a.test.js"]);
    const head = store().readLoopRef(LOOP, "head") as string;
    expect(git(root, ["rev-parse", `${head}^{tree}`]).trim()).toBe(before.treeOid);
    expect(git(root, ["log", "-1", "--format=%(trailers:key=Ralph-Restore,valueonly)", head]).trim()).toBe(before.oid);
    expect(git(root, ["rev-parse", `${head}^`]).trim()).toBe(bad.oid);
    writeFiles(root, { "src/a.js": "a2\n" });
    const fast = store().checkpointPaths({ loop: LOOP, kind: "post-tool", tool: "Edit" }, ["src/a.js"]);
    expect(fast.treeOid).toBe(store().snapshot().treeOid);
    expect(git(root, ["show", `${fast.oid}:test/a.test.js`])).toBe("test('x', () => {});\n");
    // A dry run moves nothing.
    const headBefore = store().readLoopRef(LOOP, "head");
    store().revert({ oid: bad.oid, treeOid: bad.treeOid, label: "bad" }, { loop: LOOP, dryRun: true });
    expect(store().readLoopRef(LOOP, "head")).toBe(headBefore);
    expect(fsck(root)).toBe("");
  });
});
