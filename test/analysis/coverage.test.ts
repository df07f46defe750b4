/** coverage_regression from c8/istanbul json-summary files, through analyzeChanges and directly. */
import { describe, expect, it } from "vitest";
import { DEFAULT_COVERAGE_TOLERANCE_PERCENT, detectCoverageRegression, isCoverageSummaryPath, readCoverageTotals } from "../../src/analysis/coverage.js";
import { analyzeChanges } from "../../src/analysis/index.js";

type Pcts = Partial<Record<"lines" | "statements" | "branches" | "functions", number | "Unknown">>;

const summary = (pcts: Pcts): string =>
  JSON.stringify({
    total: Object.fromEntries(Object.entries(pcts).map(([metric, pct]) => [metric, { total: 100, covered: typeof pct === "number" ? pct : 0, skipped: 0, pct }])),
    "/repo/src/a.ts": { lines: { total: 10, covered: 9, skipped: 0, pct: 90 } },
  });

const PATH = "coverage/coverage-summary.json";
const BASE: Pcts = { lines: 90, statements: 89.5, branches: 80, functions: 100 };

describe("coverage_regression", () => {
  it.each([
    ["lines down 5 points", { ...BASE, lines: 85 }, ["lines"]],
    ["branches down 0.51 points", { ...BASE, branches: 79.49 }, ["branches"]],
    ["two metrics down", { ...BASE, lines: 70, functions: 90 }, ["lines", "functions"]],
  ] as const)("flags %s", async (_name, after, metrics) => {
    const analysis = await analyzeChanges([{ path: PATH, before: summary(BASE), after: summary(after) }]);
    expect(analysis.verdict).toBe("WARN");
    expect(analysis.findings).toHaveLength(1);
    const [finding] = analysis.findings;
    expect(finding).toMatchObject({ type: "coverage_regression", severity: "medium", file: PATH, line: null });
    for (const metric of metrics) expect(finding?.message).toContain(metric);
    expect(finding?.evidence).toMatchObject({ tolerance_percent: DEFAULT_COVERAGE_TOLERANCE_PERCENT });
    expect((finding?.evidence?.metrics as Record<string, { before: number }>).lines?.before).toBe(90);
  });

  it.each([
    ["unchanged but for a file entry", BASE],
    ["within the tolerance", { ...BASE, lines: 89.6, branches: 79.5 }],
    ["coverage up", { lines: 95, statements: 95, branches: 95, functions: 100 }],
    ["a metric turned Unknown", { ...BASE, branches: "Unknown" }],
  ] as const)("passes %s", async (_name, after) => {
    const before = summary(BASE);
    const changed = summary(after) === before ? before.replace('"pct":90}', '"pct":91}') : summary(after);
    const analysis = await analyzeChanges([{ path: PATH, before, after: changed }]);
    expect(analysis.findings).toEqual([]);
    expect(analysis.verdict).toBe("PASS");
  });

  it("takes the tolerance from the options", async () => {
    const changes = [{ path: PATH, before: summary(BASE), after: summary({ ...BASE, lines: 88 }) }];
    expect((await analyzeChanges(changes, { coverageTolerancePercent: 3 })).findings).toEqual([]);
    expect((await analyzeChanges(changes, { coverageTolerancePercent: 0 })).findings).toHaveLength(1);
  });

  it("judges only summaries present on both sides", () => {
    expect(
      detectCoverageRegression([
        { path: PATH, before: null, after: summary(BASE) },
        { path: PATH, before: summary(BASE), after: null },
      ]).findings,
    ).toEqual([]);
  });

  it("lists an unreadable summary in not_analyzed without throwing", async () => {
    const analysis = await analyzeChanges([{ path: PATH, before: summary(BASE), after: "{ not json" }]);
    expect(analysis.findings).toEqual([]);
    expect(analysis.not_analyzed).toEqual([{ path: PATH, reason: expect.stringMatching(/^coverage summary not read/) }]);
  });

  it.each([
    ["coverage/coverage-summary.json", true],
    ["packages/a/coverage/coverage-summary.json", true],
    ["coverage/coverage-final.json", false],
    ["node_modules/x/coverage/coverage-summary.json", false],
  ] as const)("isCoverageSummaryPath(%s) is %s", (path, expected) => {
    expect(isCoverageSummaryPath(path)).toBe(expected);
  });

  it("reads totals and skips non-numeric percentages", () => {
    expect(readCoverageTotals(summary({ lines: 50, branches: "Unknown" }))).toEqual({ lines: 50 });
    expect(() => readCoverageTotals("{}")).toThrow(/total/);
  });
});
