/**
 * analyzeChanges end to end on inline changes: allow rules, stats,
 * not_analyzed, and files of other languages.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type FileChange } from "../../src/analysis/index.js";

const BEFORE = `import { describe, expect, it } from "vitest";
describe("slug", () => {
  it("lowercases", () => { expect(slug("A")).toBe("a"); });
  it("trims", () => { expect(slug(" a ")).toBe("a"); expect(slug("")).toBe(""); });
});
`;
const AFTER = BEFORE.replace(`  it("trims", () => { expect(slug(" a ")).toBe("a"); expect(slug("")).toBe(""); });\n`, "");

describe("analyzeChanges", () => {
  it("blocks an unallowed deletion and warns once it is allowed, keeping the finding", async () => {
    const changes: FileChange[] = [{ path: "test/slug.test.ts", before: BEFORE, after: AFTER }];
    const open = await analyzeChanges(changes);
    expect(open.verdict).toBe("BLOCK");

    const allowed = await analyzeChanges(changes, { allow: [{ type: "test_deletion", reason: "trimming moved to the parser" }] });
    expect(allowed.verdict).toBe("WARN");
    expect(allowed.findings).toEqual([expect.objectContaining({ type: "test_deletion", test: "slug > trims", allowed: true, allow_reason: "trimming moved to the parser" })]);
  });

  it("does not allow a finding whose path the rule does not cover", async () => {
    const analysis = await analyzeChanges([{ path: "test/slug.test.ts", before: BEFORE, after: AFTER }], {
      allow: [{ type: "test_deletion", reason: "r", path: "test/other.test.ts" }],
    });
    expect(analysis.verdict).toBe("BLOCK");
    expect(analysis.findings[0]?.allowed).toBe(false);
  });

  it("sums tests and assertions over the analysed changed files", async () => {
    const analysis = await analyzeChanges([
      { path: "test/slug.test.ts", before: BEFORE, after: AFTER },
      { path: "src/slug.ts", before: "export const slug = (s: string) => s;", after: "export const slug = (s: string) => s.trim();" },
      { path: "README.md", before: "a", after: "b" },
      { path: "test/new.test.js", before: null, after: `it("x", () => { assert(1); assert.ok(2); });` },
    ]);
    expect(analysis.stats).toEqual({
      files_changed: 4,
      files_analyzed: 3,
      tests_before: 2,
      tests_after: 2,
      assertions_before: 3,
      assertions_after: 3,
    });
  });

  it("lists binary, huge, minified and unparsable files in not_analyzed without throwing", async () => {
    const analysis = await analyzeChanges([
      { path: "assets/logo.js", before: null, after: "\u0000\u0001\u0002" },
      { path: "dist/app.min.js", before: "var a=1;", after: "var a=2;" },
      { path: "test/huge.test.js", before: null, after: "x".repeat(2 * 1024 * 1024 + 10) },
      { path: "src/broken.ts", before: "export const a = 1;", after: "export const a = ;" },
    ]);
    expect(analysis.not_analyzed).toEqual([
      { path: "assets/logo.js", reason: "after: binary content" },
      { path: "dist/app.min.js", reason: "before: minified; after: minified" },
      { path: "test/huge.test.js", reason: "after: larger than 2 MB (2.0 MB)" },
      { path: "src/broken.ts", reason: expect.stringMatching(/^after: parse error: Unexpected token \(1:17\)$/) },
    ]);
    expect(analysis.verdict).toBe("PASS");
    expect(analysis.stats.files_analyzed).toBe(0);
  });

  it("names test files of languages it cannot analyse yet, and ignores other files", async () => {
    const analysis = await analyzeChanges([
      { path: "tests/CartTest.kt", before: "class CartTest", after: null },
      { path: "Tests/CartTests.swift", before: "import XCTest", after: "import XCTest\n" },
      { path: "src/Cart.kt", before: "val a = 1", after: "val a = 2" },
      { path: "docs/testing.md", before: "a", after: "b" },
    ]);
    expect(analysis.not_analyzed.map((entry) => entry.path)).toEqual(["tests/CartTest.kt", "Tests/CartTests.swift"]);
    expect(analysis.not_analyzed[0]?.reason).toBe("no analyzer for .kt files yet; its tests were not checked");
  });

  it("returns an empty PASS for no changes", async () => {
    const analysis = await analyzeChanges([]);
    expect(analysis).toEqual({
      verdict: "PASS",
      findings: [],
      stats: { files_changed: 0, files_analyzed: 0, tests_before: 0, tests_after: 0, assertions_before: 0, assertions_after: 0 },
      not_analyzed: [],
    });
  });
});
