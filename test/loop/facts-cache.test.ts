/**
 * The facts cache under .git/ralph/facts: keyed by blob oid, path and
 * extractor version; misses never throw; analyzeChanges parses nothing that
 * is cached; `ralph check` fills it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { analyzeChanges, type FileFacts } from "../../src/analysis/index.js";
import { DiskFactsCache, blobOidOfText } from "../../src/loop/facts-cache.js";
import { runRalphInProcess } from "../helpers/cli.js";
import { commitAll, makeRepo, makeTempDir, writeFiles } from "../helpers/git.js";

const FACTS: FileFacts = { language: "javascript", isTestFile: true, tests: [], assertions: 0, frameworks: [], recoveredErrorCount: 0 };
const TEST = `import { expect, it } from "vitest";\nit("adds", () => { expect(1 + 1).toBe(2); });\n`;

describe("DiskFactsCache", () => {
  it("computes git's blob oid", async () => {
    const dir = makeRepo({ "a.txt": "héllo\n" });
    expect(blobOidOfText("héllo\n")).toBe(execFileSync("git", ["hash-object", "a.txt"], { cwd: dir, encoding: "utf8" }).trim());
  });

  it("returns what was flushed, for the same path and content only", async () => {
    const dir = join(makeTempDir(), "facts");
    const cache = new DiskFactsCache(dir);
    expect(cache.get("test/a.test.ts", TEST)).toBeUndefined();
    cache.set("test/a.test.ts", TEST, FACTS);
    expect(cache.get("test/a.test.ts", TEST)).toEqual(FACTS); // pending entries answer before the flush
    cache.flush();
    expect(cache.stats.writes).toBe(1);

    const reopened = new DiskFactsCache(dir);
    expect(reopened.get("test/a.test.ts", TEST)).toEqual(FACTS);
    expect(reopened.get("src/a.ts", TEST)).toBeUndefined(); // the path decides language and test-ness
    expect(reopened.get("test/a.test.ts", `${TEST}\n`)).toBeUndefined();
    expect(reopened.stats).toEqual({ hits: 1, misses: 2, writes: 0 });
  });

  it("keeps facts extracted under a runner's collection rules apart (a variant of the key)", async () => {
    const dir = join(makeTempDir(), "facts");
    const cache = new DiskFactsCache(dir);
    const withRules: FileFacts = { ...FACTS, language: "python" };
    const variant = JSON.stringify({ testModule: true });
    cache.set("tests/check_a.py", TEST, FACTS);
    cache.set("tests/check_a.py", TEST, withRules, variant);
    cache.flush();
    const reopened = new DiskFactsCache(dir);
    expect(reopened.get("tests/check_a.py", TEST)).toEqual(FACTS);
    expect(reopened.get("tests/check_a.py", TEST, variant)).toEqual(withRules);
    expect(reopened.get("tests/check_a.py", TEST, JSON.stringify({ testModule: true, classPatterns: ["Check"] }))).toBeUndefined();
  });

  it("treats a corrupt entry as a miss and never throws when it cannot write", async () => {
    const dir = join(makeTempDir(), "facts");
    const cache = new DiskFactsCache(dir);
    cache.set("a.test.ts", TEST, FACTS);
    cache.flush();
    const [bucket] = readdirSync(dir);
    const [file] = readdirSync(join(dir, bucket as string));
    writeFileSync(join(dir, bucket as string, file as string), "{ truncated");
    expect(new DiskFactsCache(dir).get("a.test.ts", TEST)).toBeUndefined();

    const blocked = join(makeTempDir(), "file");
    writeFileSync(blocked, "not a folder");
    const unwritable = new DiskFactsCache(join(blocked, "facts"));
    unwritable.set("a.test.ts", TEST, FACTS);
    expect(() => unwritable.flush()).not.toThrow();
    expect(unwritable.stats.writes).toBe(0);
  });

  it("prunes the oldest entries beyond its limit", async () => {
    const dir = join(makeTempDir(), "facts");
    const cache = new DiskFactsCache(dir, { maxEntries: 10, pruneEvery: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 12; i++) cache.set(`test/f${i}.test.ts`, TEST, FACTS);
    cache.flush();
    const old = new Date(Date.now() - 60_000);
    for (const bucket of readdirSync(dir)) for (const name of readdirSync(join(dir, bucket))) utimesSync(join(dir, bucket, name), old, old);
    cache.set("test/fresh.test.ts", TEST, FACTS);
    cache.flush();
    expect(cache.prune()).toBe(13 - 8);
    const reopened = new DiskFactsCache(dir);
    expect(reopened.get("test/fresh.test.ts", TEST)).toEqual(FACTS);
    expect(cache.prune()).toBe(0);
  });

  it("serves analyzeChanges: a cached file is not parsed again", async () => {
    const cache = new DiskFactsCache(join(makeTempDir(), "facts"));
    const changes = [{ path: "test/a.test.ts", before: TEST, after: TEST.replace("adds", "sums") }];
    const first = await analyzeChanges(changes, { facts: cache });
    cache.flush();
    expect(cache.stats).toMatchObject({ hits: 0, misses: 2, writes: 2 });
    const second = await analyzeChanges(changes, { facts: cache });
    expect(cache.stats.hits).toBe(2);
    expect(second).toEqual(first);

    // Planted facts prove the parser is skipped: a cached "no tests" wins over the real content.
    const planted = new DiskFactsCache(join(makeTempDir(), "facts"));
    planted.set("test/a.test.ts", TEST, FACTS);
    const analysis = await analyzeChanges([{ path: "test/a.test.ts", before: TEST, after: null }], { facts: planted });
    expect(analysis.stats.tests_before).toBe(0);
  });
});

describe("ralph check and the facts cache", () => {
  it("fills .git/ralph/facts and gives the same answer from it", async () => {
    const root = makeRepo({ "test/a.test.ts": TEST });
    writeFiles(root, { "test/a.test.ts": TEST.replace(/it\("adds".*\n/, "") });
    commitAll(root, "drop a test");
    const first = await runRalphInProcess(root, ["check", "--from", "HEAD~1", "--to", "HEAD", "--format", "json"]);
    expect(existsSync(join(root, ".git", "ralph", "facts"))).toBe(true);
    const second = await runRalphInProcess(root, ["check", "--from", "HEAD~1", "--to", "HEAD", "--format", "json"]);
    const strip = (stdout: string) => ({ ...JSON.parse(stdout), stats: { ...JSON.parse(stdout).stats, duration_ms: 0 } });
    expect(first.status).toBe(1);
    expect(strip(second.stdout)).toEqual(strip(first.stdout));
  });
});
