/**
 * Stored expectations (snapshots, golden and approval files) rewritten while
 * no product code changed: DESIGN's expectation_changed, at medium (issue 9;
 * breaker3's snapshot-edited cheats in five languages).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../src/analysis/index.js";
import { isStoredExpectationPath } from "../../src/analysis/stored-expectations.js";

describe("isStoredExpectationPath", () => {
  it.each([
    ["test/__snapshots__/badge.test.js.snap", true],
    ["src/snapshots/tomlfmt__tests__renders.snap", true],
    ["tests/__snapshots__/test_render.ambr", true],
    ["tablefmt/testdata/cities.golden", true],
    ["tests/Invoices.Tests/RendererTests.RendersTwoLines.verified.txt", true],
    ["test/Serilog.ApprovalTests/Serilog.approved.txt", true],
    ["tests/cases/inline.html", true],
    ["tests/Invoices.Tests/RendererTests.RendersTwoLines.received.txt", false],
    ["docs/cases/inline.html", false],
    ["src/cases/handler.py", false],
    ["tests/cases/test_inline.py", false],
    ["testdata/input.json", false],
  ])("%s: %s", (path, expected) => {
    expect(isStoredExpectationPath(path)).toBe(expected);
  });
});

describe("a stored expectation rewritten", () => {
  const snap = (value: string): string => `// Jest Snapshot v1\n\nexports[\`badge 1\`] = \`"${value}"\`;\n`;
  const summary = async (changes: Parameters<typeof analyzeChanges>[0]) => (await analyzeChanges(changes)).findings.map((finding) => `${finding.type}/${finding.severity} ${finding.file}`);

  it("with no product code changed: expectation_changed, medium", async () => {
    expect(await summary([{ path: "test/__snapshots__/badge.test.js.snap", before: snap("&lt;b&gt;"), after: snap("<b>") }])).toEqual([
      "expectation_changed/medium test/__snapshots__/badge.test.js.snap",
    ]);
  });

  it("regenerated beside a product change: nothing", async () => {
    expect(
      await summary([
        { path: "src/badge.js", before: "export const badge = (s) => s;\n", after: "export const badge = (s) => s.trim();\n" },
        { path: "test/__snapshots__/badge.test.js.snap", before: snap("a "), after: snap("a") },
      ]),
    ).toEqual([]);
  });

  it("added or deleted: nothing (a new test's snapshot, an obsolete one)", async () => {
    expect(await summary([{ path: "test/__snapshots__/new.test.js.snap", before: null, after: snap("x") }])).toEqual([]);
    expect(await summary([{ path: "test/__snapshots__/old.test.js.snap", before: snap("x"), after: null }])).toEqual([]);
  });
});
