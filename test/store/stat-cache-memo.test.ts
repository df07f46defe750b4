/**
 * loadStatCache's in-memory copy (what a warm process keeps): a file read
 * before is decoded once, a rewritten file is read again, and every load
 * hands out its own anchor.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadStatCache, saveStatCache, StatCacheBuilder } from "../../src/store/stat-cache.js";
import { makeTempDir } from "../helpers/git.js";

const OID_A = "a".repeat(40);
const OID_B = "b".repeat(40);

function save(path: string, oid: string, scanStartMs: number): void {
  const builder = new StatCacheBuilder(scanStartMs);
  builder.add("src/a.ts", "100644", oid, 1, 0o100644, 10, 1000, 1000, 42);
  builder.anchor = { ref: "refs/ralph/l/head", oid };
  saveStatCache(path, builder);
}

describe("stat cache memo", () => {
  it("returns what the file holds after every rewrite, and equal content for an unchanged file", () => {
    const dir = makeTempDir();
    const path = join(dir, "stat-cache");
    save(path, OID_A, 5000);
    const first = loadStatCache(path);
    const again = loadStatCache(path);
    expect(again.oidAt(again.find("src/a.ts"))).toBe(OID_A);
    expect(again.scanStartMs).toBe(first.scanStartMs);
    save(path, OID_B, 6000);
    const rewritten = loadStatCache(path);
    expect(rewritten.oidAt(rewritten.find("src/a.ts"))).toBe(OID_B);
    expect(rewritten.anchor).toEqual({ ref: "refs/ralph/l/head", oid: OID_B });
    rmSync(path);
    expect(loadStatCache(path).size).toBe(0);
    writeFileSync(path, "not a cache");
    expect(loadStatCache(path).size).toBe(0);
  });

  it("a load's anchor is its own: changing it does not change the next load's", () => {
    const dir = makeTempDir();
    const path = join(dir, "stat-cache");
    save(path, OID_A, 5000);
    const first = loadStatCache(path);
    first.anchor = { ref: "refs/ralph/other/head", oid: OID_B };
    const second = loadStatCache(path);
    expect(second.anchor).toEqual({ ref: "refs/ralph/l/head", oid: OID_A });
    second.anchor.oid = OID_B;
    expect(loadStatCache(path).anchor.oid).toBe(OID_A);
  });
});

describe("stat cache memo: same identity, other bytes", () => {
  it("a cache rewritten in place at the same size with its mtime put back is read again (the checksum differs)", async () => {
    const { readFileSync, statSync, utimesSync } = await import("node:fs");
    const dir = makeTempDir();
    const path = join(dir, "stat-cache");
    save(path, OID_A, 5000);
    const before = statSync(path);
    expect(loadStatCache(path).anchor.oid).toBe(OID_A);
    // Another cache of the same size written into the same inode (what a reused inode number looks like), mtime restored.
    const other = join(dir, "other");
    save(other, OID_B, 5000);
    const bytes = readFileSync(other);
    expect(bytes.length).toBe(before.size);
    writeFileSync(path, bytes);
    utimesSync(path, before.atime, before.mtime);
    expect(statSync(path).ino).toBe(before.ino);
    const reread = loadStatCache(path);
    expect(reread.anchor.oid).toBe(OID_B);
    expect(reread.oidAt(reread.find("src/a.ts"))).toBe(OID_B);
  });
});
