/**
 * Sweep of sindresorhus/ky 3419113b48: a range check (`t.true(n >= 0 && n
 * <= 1)`, two bounds) replaced by an exact check inside it (`t.is(n, 1)`)
 * read as one bound removed. An equality to a number inside a bound states
 * the bound; one outside it, or at the edge of a strict bound, does not.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

const ava = (check: string): string => `import test from "ava";\nimport { count } from "../source/index.js";\n\ntest("bounds", t => {\n\tconst n = count();\n\t${check}\n});\n`;
const pytest = (check: string): string => `from pkg import count\n\n\ndef test_bounds():\n    n = count()\n    ${check}\n`;

async function blocking(path: string, before: string, after: string): Promise<string[]> {
  const analysis = await analyzeChanges([change(path, before, after)]);
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map(summarize);
}

describe("a bound met by an equality of the same subject", () => {
  it.each([
    ["ava: a range narrowed to a value in it", "test/a.ts", ava("t.true(n >= 0 && n <= 1);"), ava("t.is(n, 1);")],
    ["ava: a lower bound made exact", "test/a.ts", ava("t.true(n > 0);"), ava("t.is(n, 3);")],
    ["pytest: a range narrowed to a value in it", "tests/test_a.py", pytest("assert n >= 0 and n <= 1"), pytest("assert n == 1")],
  ])("%s: no blocking finding", async (_, path, before, after) => {
    expect(await blocking(path, before, after)).toEqual([]);
  });

  it.each([
    ["ava: an exact value outside the range", "test/a.ts", ava("t.true(n >= 0 && n <= 1);"), ava("t.is(n, 5);")],
    ["ava: the edge of a strict bound", "test/a.ts", ava("t.true(n < 9 && n > 1);"), ava("t.is(n, 1);")],
    ["pytest: an exact value outside the range", "tests/test_a.py", pytest("assert n >= 0 and n <= 1"), pytest("assert n == 5")],
  ])("%s: still blocks", async (_, path, before, after) => {
    expect((await blocking(path, before, after)).length).toBeGreaterThan(0);
  });
});
