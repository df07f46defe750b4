/**
 * A second, independent reader of what the store writes: isomorphic-git
 * (ralph's store does not import it at run time — its packed-object path is
 * too slow for a hook, see src/store/pack.ts — but checkpoints must stay
 * readable by it as well as by native git).
 */
import * as fs from "node:fs";
import git from "isomorphic-git";
import { describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { git as nativeGit, makeRepo, writeFiles } from "../helpers/git.js";

describe("checkpoints read by isomorphic-git", () => {
  it("parses commits, trailers, trees, modes and blobs as ralph wrote them, loose and after gc", async () => {
    const root = makeRepo({ "src/a.ts": "export const a = 1;\n", "run.sh": { content: "#!/bin/sh\n", mode: 0o755 } });
    writeFiles(root, { link: { symlink: "src/a.ts" }, "notes/untracked.md": "u\n" });
    const loop = parseLoopId("iso");
    const store = CheckpointStore.open(root);
    const first = store.checkpoint({ loop, kind: "manual", message: "first" });
    writeFiles(root, { "src/a.ts": "export const a = 2;\n" });
    const second = store.checkpoint({ loop, kind: "iteration", iteration: 1, message: "second" });
    for (const pass of ["loose", "packed"]) {
      if (pass === "packed") nativeGit(root, ["gc", "-q", "--prune=now"]);
      const head = await git.resolveRef({ fs, dir: root, ref: "refs/ralph/iso/head" });
      expect(head, pass).toBe(second.oid);
      const log = await git.log({ fs, dir: root, ref: "refs/ralph/iso/head" });
      expect(log.map((c) => c.oid)).toEqual([second.oid, first.oid]);
      expect(log[0]?.commit.message).toContain("Ralph-Kind: iteration\n");
      expect(log[0]?.commit.message).toContain("Ralph-Iteration: 1\n");
      expect(await git.resolveRef({ fs, dir: root, ref: "refs/ralph/iso/iterations/0001" })).toBe(second.oid);
      const files = await git.listFiles({ fs, dir: root, ref: second.oid });
      expect(files.sort()).toEqual(["link", "notes/untracked.md", "run.sh", "src/a.ts"]);
      const { blob } = await git.readBlob({ fs, dir: root, oid: second.oid, filepath: "src/a.ts" });
      expect(Buffer.from(blob).toString("utf8")).toBe("export const a = 2;\n");
      const rootTree = await git.readTree({ fs, dir: root, oid: second.treeOid });
      const modes = Object.fromEntries(rootTree.tree.map((e) => [e.path, e.mode]));
      expect(modes).toMatchObject({ link: "120000", "run.sh": "100755", src: "040000", notes: "040000" });
    }
  });
});
