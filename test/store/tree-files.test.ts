/**
 * treeFiles: a tree's files by path, read from a repository real git wrote
 * (regular files only: folders, symlinks, submodules and binary content read
 * as absent).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ObjectDatabase } from "../../src/store/odb.js";
import { treeFiles } from "../../src/store/tree-files.js";
import { git, makeRepo } from "../helpers/git.js";

describe("treeFiles", () => {
  it("reads files, names a folder's files and walks a folder, as git stored them", () => {
    const root = makeRepo({
      "package.json": `{ "jest": {} }\n`,
      "src/a.ts": "export const a = 1;\n",
      "test/a.test.ts": "it('a', () => {});\n",
      "test/deep/b.test.ts": "it('b', () => {});\n",
      "test/blob.bin": { content: Buffer.from([0, 1, 2]) },
      link: { symlink: "src/a.ts" },
    });
    const tree = git(root, ["rev-parse", "HEAD^{tree}"]).trim();
    const files = treeFiles(new ObjectDatabase(join(root, ".git", "objects")), tree);
    expect(files.read("test/deep/b.test.ts")).toBe("it('b', () => {});\n");
    expect(files.read("test")).toBeNull();
    expect(files.read("test/missing.ts")).toBeNull();
    expect(files.read("nowhere/x.ts")).toBeNull();
    expect(files.read("link")).toBeNull();
    expect(files.read("test/blob.bin")).toBeNull();
    expect([...files.fileNames("")].sort()).toEqual(["package.json"]);
    expect([...files.fileNames("test")].sort()).toEqual(["a.test.ts", "blob.bin"]);
    expect(files.fileNames("nowhere")).toEqual([]);
    expect(files.walk("test")).toEqual(["test/a.test.ts", "test/blob.bin", "test/deep/b.test.ts"]);
    expect(files.walk("")).toEqual(
      git(root, ["ls-files"])
        .trim()
        .split("\n")
        .filter((path) => path !== "link")
        .sort(),
    );
    expect(files.walk("src/a.ts")).toEqual([]);
  });
});
