// The tests' private index copies (test/helpers/git.ts privateIndexCopy, gitWorkTreeTree) keep git's
// racy-git check working. A copy with a fresh mtime made git trust a stale entry: src/add.js rewritten at
// the same size within the second of the last `git add` looked unchanged, so git's tree (the expected
// value) was the old one while ralph's checkpoint was right (test/store/hazards.test.ts "one hex digit",
// failing about 1 run in 3 on a quiet machine).
import { lstatSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git, gitEnv, gitWorkTreeTree, makeRepo, privateIndexCopy } from "../helpers/git.js";

describe("a private index copy", () => {
  it("keeps the index file's mtime, to the nanosecond git can see, and its bytes", () => {
    const root = makeRepo({ "f.txt": "aaaa\n" });
    const real = join(root, ".git", "index");
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(real, past, past);
    const copy = privateIndexCopy(root);
    expect(lstatSync(copy).mtimeMs).toBe(lstatSync(real).mtimeMs);
    expect(git(root, ["ls-files", "-s"], { env: { ...gitEnv, GIT_INDEX_FILE: copy } })).toBe(git(root, ["ls-files", "-s"]));
  });

  it("is an empty index when the repository has none, and git's tree then hashes every file", () => {
    const root = makeRepo({ "f.txt": "aaaa\n" }, { commit: false });
    writeFileSync(join(root, "f.txt"), "bbbb\n");
    const tree = gitWorkTreeTree(root);
    expect(git(root, ["ls-tree", tree])).toContain(git(root, ["hash-object", "f.txt"]).trim());
  });

  it("sees a same-size rewrite: git's tree holds the file's new content", () => {
    const root = makeRepo({ "f.txt": "aaaa\n" });
    writeFileSync(join(root, "f.txt"), "bbbb\n");
    const tree = gitWorkTreeTree(root);
    expect(git(root, ["ls-tree", tree]).trim()).toBe(`100644 blob ${git(root, ["hash-object", "f.txt"]).trim()}\tf.txt`);
    expect(git(root, ["diff", "--stat"]), "the user's index is not touched").toContain("f.txt");
  });
});
