import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codeCacheFileFor, loadWithCodeCache, setCodeCacheDir } from "../../src/analysis/parsers/code-cache.js";

// Within one process V8's in-memory compilation cache answers a second compile of the same source,
// so every test here compiles a source of its own; test/cli/commands.test.ts checks the cache across processes.
let serial = 0;
const libSource = () => `'use strict';\nfunction twice(x) { return x * 2; }\nexports.twice = twice;\nexports.file = __filename;\nexports.serial = ${serial++};\n`;

describe("loadWithCodeCache", () => {
  let dir: string;
  let file: string;
  let cacheDir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ralph-code-cache-"));
    file = join(dir, "lib.js");
    cacheDir = join(dir, "cache");
    writeFileSync(file, libSource());
    setCodeCacheDir(cacheDir);
  });
  afterEach(() => {
    setCodeCacheDir(null);
    rmSync(dir, { recursive: true, force: true });
  });

  it("evaluates the file as CommonJS and writes its cache once, where codeCacheFileFor says", () => {
    const first = loadWithCodeCache<{ twice: (x: number) => number; file: string }>(file, "lib");
    expect(first.exports.twice(21)).toBe(42);
    expect(first.exports.file).toBe(file);
    expect(first.fromCache).toBe(false);
    first.save();
    first.save(); // once is enough
    expect(readdirSync(cacheDir).map((name) => join(cacheDir, name))).toEqual([codeCacheFileFor(file, "lib")]);
    expect(codeCacheFileFor(file, "lib")).toMatch(/lib-[0-9a-f]{16}\.bin$/);
  });

  it("ignores a corrupt cache file, evaluates the file anyway and replaces the cache", () => {
    const cacheFile = codeCacheFileFor(file, "lib") as string;
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(cacheFile, "not a code cache");
    const loaded = loadWithCodeCache<{ twice: (x: number) => number }>(file, "lib");
    expect(loaded.fromCache).toBe(false);
    expect(loaded.exports.twice(1)).toBe(2);
    loaded.save();
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(readFileSync(cacheFile, "utf8")).not.toBe("not a code cache");
  });

  it("names the cache after the file's size and mtime, and drops the cache of the file's earlier version", () => {
    loadWithCodeCache(file, "lib").save();
    const before = codeCacheFileFor(file, "lib");
    writeFileSync(file, `${libSource()}// grown\n`);
    utimesSync(file, new Date(2030, 0, 1), new Date(2030, 0, 1));
    expect(codeCacheFileFor(file, "lib")).not.toBe(before);
    const changed = loadWithCodeCache<{ twice: (x: number) => number }>(file, "lib");
    expect(changed.fromCache).toBe(false);
    expect(changed.exports.twice(3)).toBe(6);
    changed.save();
    expect(readdirSync(cacheDir).map((name) => join(cacheDir, name))).toEqual([codeCacheFileFor(file, "lib")]);
  });

  it("reads and writes nothing when no cache folder is set", () => {
    setCodeCacheDir(null);
    expect(codeCacheFileFor(file, "lib")).toBeNull();
    const loaded = loadWithCodeCache<{ twice: (x: number) => number }>(file, "lib");
    loaded.save();
    expect(loaded.exports.twice(5)).toBe(10);
    expect(() => readdirSync(cacheDir)).toThrow();
  });
});
