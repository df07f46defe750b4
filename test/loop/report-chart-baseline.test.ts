/**
 * The chart plots the loop's baseline (issue 10, "Reports that tell the
 * truth": "the baseline is not plotted"): a diamond at x "baseline" before
 * the first iteration, joined to it by a dashed line, labelled with its
 * score and explained in the legend only when drawn. Its score is the one
 * recorded with the baseline metrics, else ralph's formula on those metrics
 * the way an iteration is scored; a loop scored by its `--quality` command
 * has no baseline score to plot.
 */
import { describe, expect, it } from "vitest";
import { renderAnalyticsChart, renderQualityChart, type ChartPoint } from "../../src/loop/report-chart.js";
import { baselineQuality, buildAnalytics, EMPTY_HOOK_LOG } from "../../src/loop/report.js";
import { computeQuality } from "../../src/loop/quality.js";
import { IterationRecordSchema, MetricsSnapshotSchema, newState, type LoopState } from "../../src/loop/state.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { allElements, parseXml, type XmlElement } from "../helpers/xml.js";

const texts = (root: XmlElement): string[] =>
  allElements(root)
    .filter((e) => e.name === "text")
    .map((e) => e.text);
const diamonds = (root: XmlElement): XmlElement[] => allElements(root).filter((e) => e.name === "polygon" && e.attributes.stroke === "#6b7280");
const POINTS: ChartPoint[] = [
  { iteration: 1, quality: 50, regression: false },
  { iteration: 2, quality: 85, regression: false },
  { iteration: 3, quality: 80, regression: false },
];

function stateWith(scores: number[], baseline: Record<string, unknown> | null, extra: (s: LoopState) => void = () => {}): LoopState {
  const state = newState({ loop_id: parseLoopId("ralph-baseline"), task: "Fix the parser", completion_criteria: "npm test", nowIso: "2025-03-01T10:00:00.000Z" });
  state.iteration_history = scores.map((q, i) => IterationRecordSchema.parse({ iteration: i + 1, quality_score: q }));
  state.iteration = scores.length;
  state.baseline_metrics = baseline === null ? null : MetricsSnapshotSchema.parse(baseline);
  extra(state);
  return state;
}

describe("the chart's baseline", () => {
  it("is a diamond at x 'baseline' left of iteration 1, joined to it by a dashed line, labelled with its score and in the legend", () => {
    const root = parseXml(renderQualityChart({ loopId: "l", task: "t", points: POINTS, bestIteration: 2, finalIteration: 3, baseline: 41.2 }));
    const [diamond, ...more] = diamonds(root);
    expect(diamond).toBeDefined();
    // One on the plot, one in the legend.
    expect(more).toHaveLength(1);
    const t = texts(root);
    expect(t).toContain("baseline: 41.2");
    expect(t).toContain("baseline"); // the x tick and the legend
    expect(t.filter((x) => x === "baseline")).toHaveLength(2);
    const xs = (diamond?.attributes.points ?? "").split(" ").map((p) => Number(p.split(",")[0]));
    const bx = (Math.min(...xs) + Math.max(...xs)) / 2;
    const connector = allElements(root).find((e) => e.name === "line" && e.attributes["stroke-dasharray"] === "3 3");
    expect(connector).toBeDefined();
    expect(Number(connector?.attributes.x1)).toBeCloseTo(bx, 0);
    // It sits left of iteration 1's x tick.
    const polyline = allElements(root).find((e) => e.name === "polyline");
    const firstX = Number(polyline?.attributes.points?.split(" ")[0]?.split(",")[0]);
    expect(bx).toBeLessThan(firstX);
    expect(Number(connector?.attributes.x2)).toBeCloseTo(firstX, 0);
  });

  it("is not drawn, nor in the legend, without a baseline score", () => {
    for (const baseline of [undefined, null]) {
      const svg = renderQualityChart({ loopId: "l", task: "t", points: POINTS, bestIteration: 2, finalIteration: 3, baseline });
      expect(diamonds(parseXml(svg))).toHaveLength(0);
      expect(svg).not.toContain(">baseline");
    }
  });

  it("is plotted before any iteration has ended, beside the 'no iterations yet' note", () => {
    const root = parseXml(renderQualityChart({ loopId: "l", task: "t", points: [], bestIteration: null, finalIteration: null, baseline: 50 }));
    expect(diamonds(root)).toHaveLength(2);
    expect(texts(root)).toEqual(expect.arrayContaining(["no iterations yet", "baseline: 50"]));
  });
});

describe("the baseline's score (analytics.baseline)", () => {
  it("without a recorded score: ralph's formula on the baseline metrics, compared with themselves, completion not passed", () => {
    const metrics = { test_count: 21, assertion_count: 40, coverage_percentage: 80 };
    const state = stateWith([50, 85], metrics);
    const expected = computeQuality({ completionPassed: false, blockingFindings: 0, metrics: MetricsSnapshotSchema.parse(metrics), baseline: MetricsSnapshotSchema.parse(metrics) }).score;
    expect(expected).toBe(50);
    expect(baselineQuality(state)).toEqual({ quality_score: expected, source: "computed", test_count: 21, coverage_percentage: 80 });
    const a = buildAnalytics(state, EMPTY_HOOK_LOG, { nowIso: "2025-03-01T12:00:00.000Z" });
    expect(a.baseline?.quality_score).toBe(50);
    expect(renderAnalyticsChart(a)).toContain("baseline: 50");
  });

  it("without coverage the weights are redistributed as for an iteration (findings and tests of 85 points)", () => {
    expect(baselineQuality(stateWith([], { test_count: 3 }))?.quality_score).toBe(
      computeQuality({ completionPassed: false, blockingFindings: 0, metrics: MetricsSnapshotSchema.parse({ test_count: 3 }), baseline: MetricsSnapshotSchema.parse({ test_count: 3 }) }).score,
    );
  });

  it("a score recorded with the baseline metrics is used as it is", () => {
    expect(baselineQuality(stateWith([60], { test_count: 3, quality_score: 37.5 }))).toMatchObject({ quality_score: 37.5, source: "recorded" });
  });

  it("none without baseline metrics, or for a loop scored by its quality command (which never ran on the baseline)", () => {
    expect(baselineQuality(stateWith([60], null))).toBeNull();
    const commandScored = stateWith([60], { test_count: 3 }, (s) => {
      s.quality_command = "node quality.mjs";
    });
    expect(baselineQuality(commandScored)).toBeNull();
    expect(renderAnalyticsChart(buildAnalytics(commandScored, EMPTY_HOOK_LOG, { nowIso: "2025-03-01T12:00:00.000Z" }))).not.toContain(">baseline");
  });
});
