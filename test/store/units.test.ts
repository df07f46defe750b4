import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isRalphError } from "../../src/errors.js";
import { parseGitConfig } from "../../src/store/git-config.js";
import { isLoopId, parseLoopId } from "../../src/store/loop-id.js";
import { formatMessage, parseTrailers, trailerValue } from "../../src/store/trailers.js";
import { git, makeRepo } from "../helpers/git.js";

describe("loop ids", () => {
  const valid = ["default", "ralph-fix-tests-1a2b3c4d", "claude-0b6c2f3e-5d3e-4c1a-9f00-123456789abc", "a", "A.b_c-9"];
  const invalid = ["", "../x", "a/b", "a b", "a..b", "x.lock", "x.", "-x", ".x", "a\nb", "a\u0000b", "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "a@{1}", "x".repeat(101)];
  for (const id of valid) it(`accepts ${JSON.stringify(id)}`, () => expect(parseLoopId(id)).toBe(id));
  for (const id of invalid) {
    it(`rejects ${JSON.stringify(id)}`, () => {
      expect(isLoopId(id)).toBe(false);
      let error: unknown;
      try {
        parseLoopId(id);
      } catch (e) {
        error = e;
      }
      expect(isRalphError(error, "E_BAD_LOOP_ID")).toBe(true);
    });
  }
  it("every accepted id is a valid git ref component", () => {
    const root = makeRepo();
    for (const id of valid) expect(() => git(root, ["check-ref-format", `refs/ralph/${id}/head`])).not.toThrow();
  });
});

describe("trailers", () => {
  it("round-trips through git interpret-trailers", () => {
    const root = makeRepo();
    const message = formatMessage("a subject\nwith a newline", [
      { key: "Ralph-Loop", value: "l" },
      { key: "Ralph-Skipped", value: '"a b.bin" 10 bytes' },
    ]);
    expect(message.split("\n")[0]).toBe("a subject with a newline");
    const parsed = git(root, ["interpret-trailers", "--parse"], { input: message });
    expect(parsed).toBe('Ralph-Loop: l\nRalph-Skipped: "a b.bin" 10 bytes\n');
    expect(parseTrailers(message)).toEqual([
      { key: "Ralph-Loop", value: "l" },
      { key: "Ralph-Skipped", value: '"a b.bin" 10 bytes' },
    ]);
  });

  it("finds the trailer block only in the last paragraph", () => {
    expect(parseTrailers("subject\n\nbody: not a trailer\nmore text\n")).toEqual([]);
    expect(parseTrailers("subject only\n")).toEqual([]);
    const t = parseTrailers("fix\n\nexplain\n\nRalph-Allow: test_deletion obsolete feature\n  continued\nSigned-off-by: A <a@b>\n");
    expect(trailerValue(t, "ralph-allow")).toBe("test_deletion obsolete feature continued");
  });
});

describe("git config reader", () => {
  it("parses sections, subsections, quoting, escapes, comments and booleans", () => {
    const out = new Map<string, string>();
    parseGitConfig(
      [
        "[core]",
        "\texcludesFile = ~/ignore # comment",
        "\tautocrlf",
        '[remote "origin"]',
        '\turl = "https://x/y.git" ; trailing',
        "[user]",
        '  name = "A \\"quoted\\" name"',
        "[Core] bare = false",
      ].join("\n"),
      "/tmp/config",
      out,
    );
    expect(out.get("core.excludesfile")).toBe("~/ignore");
    expect(out.get("core.autocrlf")).toBe("true");
    expect(out.get("remote.origin.url")).toBe("https://x/y.git");
    expect(out.get("user.name")).toBe('A "quoted" name');
    expect(out.get("core.bare")).toBe("false");
  });
});

describe("stat cache freshness (racy git)", () => {
  it("trusts an entry only when its stat is identical and older than the scan by the racy window", async () => {
    const { StatCacheBuilder, decodeStatCache, RACY_WINDOW_MS } = await import("../../src/store/stat-cache.js");
    const scanStartMs = 1_000_000;
    const builder = new StatCacheBuilder(scanStartMs);
    const old = scanStartMs - RACY_WINDOW_MS - 1;
    const racy = scanStartMs - RACY_WINDOW_MS + 1;
    builder.add("old.txt", "100644", "a".repeat(40), 1, 0o100644, 10, old, old, 7);
    builder.add("racy.txt", "100644", "b".repeat(40), 1, 0o100644, 10, racy, old, 8);
    builder.add("racy-ctime.txt", "100644", "c".repeat(40), 1, 0o100644, 10, old, racy, 9);
    const cache = decodeStatCache(builder.encode());
    const slot = (p: string): number => cache.find(p);
    expect(cache.isFresh(slot("old.txt"), 0o100644, 10, old, old, 7)).toBe(true);
    expect(cache.isFresh(slot("old.txt"), 0o100644, 11, old, old, 7)).toBe(false); // size
    expect(cache.isFresh(slot("old.txt"), 0o100755, 10, old, old, 7)).toBe(false); // mode
    expect(cache.isFresh(slot("old.txt"), 0o100644, 10, old, old, 8)).toBe(false); // inode
    expect(cache.isFresh(slot("old.txt"), 0o100644, 10, old + 1, old, 7)).toBe(false); // mtime
    expect(cache.isFresh(slot("racy.txt"), 0o100644, 10, racy, old, 8)).toBe(false);
    expect(cache.isFresh(slot("racy-ctime.txt"), 0o100644, 10, old, racy, 9)).toBe(false);
    expect(cache.oidAt(slot("old.txt"))).toBe("a".repeat(40));
    expect(cache.find("missing")).toBe(-1);
  });

  it("treats a corrupt or foreign cache file as a cold start", async () => {
    const { decodeStatCache, loadStatCache } = await import("../../src/store/stat-cache.js");
    expect(() => decodeStatCache(Buffer.from('{"format":"ralph-stat-cache","version":3,"files":5,"dirs":0,"trees":0,"scanStartMs":1}\n'))).toThrow();
    expect(loadStatCache("/nonexistent/stat-cache").size).toBe(0);
  });
});

describe("ralph's lock", () => {
  it("reclaims a lock file with unreadable content once it is old, and waits for a fresh one", async () => {
    const { withLock } = await import("../../src/store/lock.js");
    const { mkdtempSync, writeFileSync, utimesSync, existsSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "ralph-lock-"));
    const path = join(dir, "checkpoint.lock");
    writeFileSync(path, "");
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    expect(withLock(path, () => "ran", { timeoutMs: 1000 })).toBe("ran");
    expect(existsSync(path)).toBe(false);
    writeFileSync(path, "garbage");
    let error: unknown;
    try {
      withLock(path, () => "ran", { timeoutMs: 200 });
    } catch (e) {
      error = e;
    }
    expect(isRalphError(error, "E_LOCKED")).toBe(true);
    expect(existsSync(path)).toBe(true);
  });
});

describe("ralph's lock leftovers", () => {
  it("removes temp files that killed processes left beside the lock, once they are old", async () => {
    const { withLock } = await import("../../src/store/lock.js");
    const { mkdtempSync, writeFileSync, utimesSync, existsSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "ralph-lock-"));
    const path = join(dir, "checkpoint.lock");
    const oldTemp = join(dir, "checkpoint.lock.0123456789abcdef.tmp");
    const freshTemp = join(dir, "checkpoint.lock.fedcba9876543210.tmp");
    writeFileSync(oldTemp, "{}");
    writeFileSync(freshTemp, "{}");
    const old = new Date(Date.now() - 120_000);
    utimesSync(oldTemp, old, old);
    withLock(path, () => undefined);
    expect(existsSync(oldTemp)).toBe(false);
    expect(existsSync(freshTemp)).toBe(true);
  });
});
