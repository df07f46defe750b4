import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRalphError } from "../../src/errors.js";
import { parseGitIndex, readGitIndex, type IndexEntry } from "../../src/store/git-index.js";
import { git, makeRepo, makeTempDir, writeFiles } from "../helpers/git.js";

const indexPath = (root: string): string => join(root, ".git", "index");

/** What git itself reports for every entry: `git ls-files --debug -s`, parsed. */
function gitEntries(root: string): IndexEntry[] {
  const out = git(root, ["-c", "core.quotePath=false", "ls-files", "--debug", "-s"]);
  const lines = out.split("\n");
  const entries: IndexEntry[] = [];
  for (let i = 0; i + 5 < lines.length; i += 6) {
    const head = /^(\d+) ([0-9a-f]{40}) (\d)\t(.*)$/.exec(lines[i] as string);
    const ctime = /ctime: (\d+):(\d+)/.exec(lines[i + 1] as string);
    const mtime = /mtime: (\d+):(\d+)/.exec(lines[i + 2] as string);
    const devIno = /dev: (\d+)\tino: (\d+)/.exec(lines[i + 3] as string);
    const ids = /uid: (\d+)\tgid: (\d+)/.exec(lines[i + 4] as string);
    const sizeFlags = /size: (\d+)\tflags: ([0-9a-f]+)/.exec(lines[i + 5] as string);
    if (!head || !ctime || !mtime || !devIno || !ids || !sizeFlags) throw new Error(`unexpected ls-files output near line ${i}`);
    const flags = parseInt(sizeFlags[2] as string, 16);
    entries.push({
      path: head[4] as string,
      mode: parseInt(head[1] as string, 8),
      oid: head[2] as string,
      stage: Number(head[3]) as 0 | 1 | 2 | 3,
      ctimeSec: Number(ctime[1]),
      ctimeNsec: Number(ctime[2]),
      mtimeSec: Number(mtime[1]),
      mtimeNsec: Number(mtime[2]),
      dev: Number(devIno[1]),
      ino: Number(devIno[2]),
      uid: Number(ids[1]),
      gid: Number(ids[2]),
      size: Number(sizeFlags[1]),
      assumeValid: (flags & 0x8000) !== 0,
      skipWorktree: (flags & 0x40000000) !== 0,
      intentToAdd: (flags & 0x20000000) !== 0,
    });
  }
  return entries;
}

function expectCorrupt(fn: () => unknown, reason?: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(isRalphError(thrown, "E_CORRUPT"), String(thrown)).toBe(true);
  const error = thrown as { message: string; data: Record<string, unknown> };
  expect(typeof error.data.path).toBe("string");
  expect(error.message).toContain(error.data.path as string);
  if (reason !== undefined) expect(error.data.reason).toBe(reason);
}

/** Rewrites the index's trailing SHA-1 after editing its bytes. */
function resealed(bytes: Buffer): Buffer {
  const body = bytes.subarray(0, bytes.length - 20);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

/** A work tree exercising every entry kind: exec bit, symlink, unicode and space paths, a gitlink. */
function makeVariedRepo(): string {
  const root = makeRepo({
    "a.txt": "alpha\n",
    "bin/run.sh": { content: "#!/bin/sh\n", mode: 0o755 },
    link: { symlink: "a.txt" },
    "with space/file name.txt": "spaces\n",
    "unicode/é日本/ü.txt": "unicode\n",
    "unicode/é日本/üb.txt": "prefix sharing\n",
    "unicode/éz.txt": "multibyte prefix\n",
    "dir/sub/deep.txt": "deep\n",
  });
  const commit = git(root, ["rev-parse", "HEAD"]).trim();
  git(root, ["update-index", "--add", "--cacheinfo", `160000,${commit},vendor/sub`]);
  return root;
}

describe("readGitIndex", () => {
  it.each([2, 3, 4] as const)("reads a version %i index exactly as git ls-files --debug does", (version) => {
    const root = makeVariedRepo();
    if (version > 2) {
      writeFiles(root, { "new.txt": "intent\n" });
      git(root, ["add", "-N", "new.txt"]);
      git(root, ["update-index", "--skip-worktree", "dir/sub/deep.txt"]);
    }
    git(root, ["update-index", "--assume-unchanged", "a.txt"]);
    git(root, ["update-index", "--index-version", String(version)]);
    const index = readGitIndex(indexPath(root));
    expect(index.version).toBe(version);
    expect(index.isSparse).toBe(false);
    expect(index.entries).toEqual(gitEntries(root));
    const byPath = new Map(index.entries.map((e) => [e.path, e]));
    expect(byPath.get("bin/run.sh")?.mode).toBe(0o100755);
    expect(byPath.get("link")?.mode).toBe(0o120000);
    expect(byPath.get("vendor/sub")?.mode).toBe(0o160000);
    expect(byPath.get("unicode/é日本/ü.txt")?.mode).toBe(0o100644);
    expect(byPath.get("with space/file name.txt")?.size).toBe(7);
    expect(byPath.get("a.txt")?.assumeValid).toBe(true);
    if (version > 2) {
      expect(byPath.get("new.txt")?.intentToAdd).toBe(true);
      expect(byPath.get("dir/sub/deep.txt")?.skipWorktree).toBe(true);
    }
  });

  it("reads the three stages of a merge conflict", () => {
    const root = makeRepo({ "conflict.txt": "base\n", "other.txt": "x\n" });
    git(root, ["checkout", "-q", "-b", "theirs"]);
    writeFiles(root, { "conflict.txt": "theirs\n" });
    git(root, ["commit", "-qam", "theirs"]);
    git(root, ["checkout", "-q", "main"]);
    writeFiles(root, { "conflict.txt": "ours\n" });
    git(root, ["commit", "-qam", "ours"]);
    expect(() => git(root, ["merge", "-q", "theirs"])).toThrow();
    const index = readGitIndex(indexPath(root));
    expect(index.entries).toEqual(gitEntries(root));
    expect(index.entries.filter((e) => e.path === "conflict.txt").map((e) => e.stage)).toEqual([1, 2, 3]);
    expect(index.entries.find((e) => e.path === "other.txt")?.stage).toBe(0);
  });

  it.each([2, 4] as const)("reads paths longer than the 12-bit name length (version %i)", (version) => {
    const root = makeRepo({ "a.txt": "a\n" });
    const blob = git(root, ["rev-parse", "HEAD:a.txt"]).trim();
    const long = `${"directory/".repeat(500)}file.txt`;
    git(root, ["update-index", "--add", "--cacheinfo", `100644,${blob},${long}`]);
    git(root, ["update-index", "--add", "--cacheinfo", `100644,${blob},${long}2`]);
    git(root, ["update-index", "--index-version", String(version)]);
    const paths = readGitIndex(indexPath(root)).entries.map((e) => e.path);
    expect(paths).toEqual(["a.txt", ...git(root, ["ls-files"]).trim().split("\n").slice(1)]);
    expect(paths).toContain(long);
    expect(paths).toContain(`${long}2`);
  });

  it("reports sparse-index directories as mode 0o40000 entries", () => {
    const root = makeRepo({ "in/a.txt": "a\n", "out/b.txt": "b\n", "out/deeper/c.txt": "c\n", "top.txt": "t\n" });
    git(root, ["sparse-checkout", "init", "--cone", "--sparse-index"]);
    git(root, ["sparse-checkout", "set", "in"]);
    const index = readGitIndex(indexPath(root));
    expect(index.isSparse).toBe(true);
    const dir = index.entries.find((e) => e.path === "out");
    expect(dir).toMatchObject({ mode: 0o40000, oid: git(root, ["rev-parse", "HEAD:out"]).trim(), skipWorktree: true });
    expect(index.entries.map((e) => e.path)).toEqual(["in/a.txt", "out", "top.txt"]);
  });

  it("returns an empty index when the file does not exist", () => {
    expect(readGitIndex(join(makeTempDir(), "index"))).toEqual({ version: 2, entries: [], isSparse: false });
  });

  it("reads an index whose checksum is all zeros (index.skipHash)", () => {
    const root = makeVariedRepo();
    const bytes = readFileSync(indexPath(root));
    bytes.fill(0, bytes.length - 20);
    expect(parseGitIndex(bytes, "index").entries).toEqual(gitEntries(root));
  });

  it("ignores optional extensions (TREE, REUC, UNTR …) and unknown uppercase ones", () => {
    const root = makeVariedRepo();
    git(root, ["-c", "core.untrackedCache=true", "status", "-uall"]);
    const bytes = readFileSync(indexPath(root));
    const withExtension = resealed(Buffer.concat([bytes.subarray(0, bytes.length - 20), Buffer.from("ZZZZ\0\0\0\x03abc", "latin1"), Buffer.alloc(20)]));
    expect(parseGitIndex(withExtension, "index").entries).toEqual(gitEntries(root));
  });

  describe("corrupt and unsupported indexes are E_CORRUPT naming the path", () => {
    const cases: [string, string | undefined, (bytes: Buffer) => Buffer][] = [
      ["truncated", "checksum", (b) => b.subarray(0, Math.floor(b.length / 2))],
      [
        "a flipped byte",
        "checksum",
        (b) => {
          b[100] = (b[100] as number) ^ 1;
          return b;
        },
      ],
      ["too short", "signature", (b) => b.subarray(0, 10)],
      ["a bad signature", "signature", (b) => resealed(Buffer.concat([Buffer.from("DIRX"), b.subarray(4)]))],
      [
        "an unknown version",
        "version",
        (b) => {
          b.writeUInt32BE(5, 4);
          return resealed(b);
        },
      ],
      [
        "more entries claimed than present",
        undefined,
        (b) => {
          b.writeUInt32BE(b.readUInt32BE(8) + 5, 8);
          return resealed(b);
        },
      ],
      ["an unknown required extension", "unknown-extension", (b) => resealed(Buffer.concat([b.subarray(0, b.length - 20), Buffer.from("abcd\0\0\0\0"), Buffer.alloc(20)]))],
      ["an extension cut short", "truncated", (b) => resealed(Buffer.concat([b.subarray(0, b.length - 20), Buffer.from("ZZZZ\0\0\x10\0"), Buffer.alloc(20)]))],
    ];
    it.each(cases)("%s", (_name, reason, damage) => {
      const root = makeVariedRepo();
      writeFileSync(indexPath(root), damage(readFileSync(indexPath(root))));
      expectCorrupt(() => readGitIndex(indexPath(root)), reason);
    });

    it("a split index (core.splitIndex)", () => {
      const root = makeVariedRepo();
      git(root, ["update-index", "--split-index"]);
      expectCorrupt(() => readGitIndex(indexPath(root)), "split-index");
    });
  });

  it("never writes the index", () => {
    const root = makeVariedRepo();
    const before = readFileSync(indexPath(root));
    readGitIndex(indexPath(root));
    expect(readFileSync(indexPath(root)).equals(before)).toBe(true);
  });
});
