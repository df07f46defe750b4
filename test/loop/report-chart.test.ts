/**
 * quality.svg: well-formed XML (parsed by test/helpers/xml.ts), escaped
 * text, self-contained, readable with 0, 1, 4 and 200 iterations.
 */
import { describe, expect, it } from "vitest";
import { escapeXml, renderQualityChart, xTicks, type ChartPoint, type QualityChartInput } from "../../src/loop/report-chart.js";
import { allElements, parseXml, type XmlElement } from "../helpers/xml.js";

function chart(points: ChartPoint[], extra: Partial<QualityChartInput> = {}): string {
  return renderQualityChart({ loopId: "ralph-chart", task: "Improve quality", points, bestIteration: null, finalIteration: points.at(-1)?.iteration ?? null, ...extra });
}

const texts = (root: XmlElement): string[] =>
  allElements(root)
    .filter((e) => e.name === "text")
    .map((e) => e.text);

function checkSelfContained(svg: string, root: XmlElement): void {
  expect(root.name).toBe("svg");
  expect(root.attributes.xmlns).toBe("http://www.w3.org/2000/svg");
  expect(root.attributes.viewBox).toMatch(/^0 0 \d+ \d+$/);
  const names = new Set(allElements(root).map((e) => e.name));
  for (const forbidden of ["script", "image", "foreignObject", "style", "a", "use"]) expect(names.has(forbidden)).toBe(false);
  expect(svg).not.toMatch(/href|url\(|@import|@font-face/);
  // Every coordinate stays inside the canvas.
  const [, , w, h] = (root.attributes.viewBox as string).split(" ").map(Number) as [number, number, number, number];
  for (const e of allElements(root)) {
    for (const [keys, size] of [
      [["x", "x1", "x2", "cx"], w],
      [["y", "y1", "y2", "cy"], h],
    ] as const) {
      for (const key of keys) {
        if (e.attributes[key] === undefined) continue;
        expect(Number(e.attributes[key])).toBeGreaterThanOrEqual(0);
        expect(Number(e.attributes[key])).toBeLessThanOrEqual(size);
      }
    }
    for (const value of Object.values(e.attributes)) expect(value).not.toMatch(/NaN|Infinity|undefined/);
  }
}

describe("the XML check itself", () => {
  it.each([
    ["<a><b></a></b>", /closes/],
    ["<a>x & y</a>", /bare '&'/],
    ['<a t="1 < 2"/>', /'<'/],
    ["<a>", /unclosed/],
    ["<a/><b/>", /second root/],
    ['<a t="1" t="2"/>', /duplicate/],
    ["<a>&nbsp;</a>", /unknown entity/],
  ])("rejects %s", (xml, message) => {
    expect(() => parseXml(xml)).toThrow(message);
  });

  it("accepts and decodes a well-formed document", () => {
    const root = parseXml('<?xml version="1.0"?>\n<a k="&quot;&#x41;"><b>x &amp; &lt;y&gt;</b><c/></a>\n');
    expect(root.attributes.k).toBe('"A');
    expect(root.children.map((c) => c.name)).toEqual(["b", "c"]);
    expect(root.children[0]?.text).toBe("x & <y>");
  });
});

describe("renderQualityChart", () => {
  it("4 iterations: title, axis labels, gridlines 0-100, threshold, best, final and regression marked", () => {
    const svg = chart(
      [
        { iteration: 1, quality: 60, regression: false },
        { iteration: 2, quality: 85, regression: false },
        { iteration: 3, quality: 83, regression: true },
        { iteration: 4, quality: 80, regression: false },
      ],
      { bestIteration: 2, finalIteration: 4, threshold: 75 },
    );
    expect(svg.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')).toBe(true);
    const root = parseXml(svg);
    checkSelfContained(svg, root);
    const t = texts(root);
    expect(t).toEqual(expect.arrayContaining(["Quality per iteration: ralph-chart", "Improve quality", "quality (0-100)", "iteration", "0", "25", "50", "75", "100", "1", "2", "3", "4"]));
    expect(t).toContain("best #2: 85");
    expect(t).toContain("final #4: 80");
    expect(t).toContain("threshold 75");
    expect(
      allElements(root).filter(
        (e) => e.name === "line" && e.attributes["stroke-dasharray"] !== undefined && e.attributes.x1 !== e.attributes.x2 && Number(e.attributes.x2) - Number(e.attributes.x1) > 100,
      ),
    ).toHaveLength(1);
    expect(allElements(root).filter((e) => e.name === "circle" && e.attributes.fill === "#dc2626")).toHaveLength(2); // iteration 3, and the legend
    const polyline = allElements(root).find((e) => e.name === "polyline");
    expect(polyline?.attributes.points?.split(" ")).toHaveLength(4);
  });

  it("escapes the loop id and task: <&>\"' survive as text, never as markup", () => {
    const task = `Fix <script>alert("x")</script> & 'more' ]]> <!-- -->`;
    const svg = chart([{ iteration: 1, quality: 50, regression: false }], { task, loopId: "ralph-a" });
    expect(svg).not.toContain("<script");
    expect(svg).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;more&apos;");
    const root = parseXml(svg);
    expect(texts(root)).toContain(task);
    expect(escapeXml(`<&>"'`)).toBe("&lt;&amp;&gt;&quot;&apos;");
  });

  it("drops control characters XML 1.0 cannot carry, and shortens a long task", () => {
    const svg = chart([{ iteration: 1, quality: 50, regression: false }], { task: `a\u0001b ${"x".repeat(300)}` });
    const root = parseXml(svg);
    const subtitle = texts(root)[1] as string;
    expect(subtitle.startsWith("ab x")).toBe(true);
    expect(subtitle.length).toBeLessThanOrEqual(96);
    expect(subtitle.endsWith("…")).toBe(true);
  });

  it("1 iteration: one centred point, best = final label, no polyline", () => {
    const svg = chart([{ iteration: 1, quality: 55, regression: false }], { bestIteration: 1, finalIteration: 1 });
    const root = parseXml(svg);
    checkSelfContained(svg, root);
    expect(allElements(root).some((e) => e.name === "polyline")).toBe(false);
    expect(texts(root)).toContain("best = final #1: 55");
    const dot = allElements(root).find((e) => e.name === "circle" && e.attributes.fill === "#2563eb");
    expect(Number(dot?.attributes.cx)).toBeCloseTo((64 + 760 - 92) / 2);
  });

  it("200 iterations: a line of 200 points, at most ~14 x labels, no per-point dots, regressions still marked", () => {
    const points = Array.from({ length: 200 }, (_, i) => ({ iteration: i + 1, quality: (i * 37) % 101, regression: i % 50 === 49 }));
    const svg = chart(points, { bestIteration: 100, finalIteration: 200 });
    const root = parseXml(svg);
    checkSelfContained(svg, root);
    expect(
      allElements(root)
        .find((e) => e.name === "polyline")
        ?.attributes.points?.split(" "),
    ).toHaveLength(200);
    const xLabels = texts(root).filter((t) => /^\d+$/.test(t) && !["0", "25", "50", "75", "100"].includes(t));
    expect(xLabels.length).toBeLessThanOrEqual(14);
    expect(xLabels).toEqual(expect.arrayContaining(["1", "200"]));
    expect(allElements(root).filter((e) => e.name === "circle" && e.attributes.fill === "#2563eb")).toHaveLength(0);
    expect(allElements(root).filter((e) => e.name === "circle" && e.attributes.fill === "#dc2626")).toHaveLength(4 + 1);
  });

  it("no iterations: axes and a note", () => {
    const svg = chart([]);
    const root = parseXml(svg);
    checkSelfContained(svg, root);
    expect(texts(root)).toContain("no iterations yet");
  });

  it("best and final labels never overlap, even on neighbouring points at 100", () => {
    const points = Array.from({ length: 30 }, (_, i) => ({ iteration: i + 1, quality: i >= 27 ? 100 : 50, regression: false }));
    const root = parseXml(chart(points, { bestIteration: 29, finalIteration: 30 }));
    const boxes = allElements(root)
      .filter((e) => e.name === "rect" && e.attributes.rx !== undefined)
      .map((e) => ({ x: Number(e.attributes.x), y: Number(e.attributes.y), w: Number(e.attributes.width), h: Number(e.attributes.height) }));
    expect(boxes).toHaveLength(2);
    const [a, b] = boxes as [(typeof boxes)[0], (typeof boxes)[0]];
    const overlap = a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    expect(overlap).toBe(false);
  });
});

describe("xTicks", () => {
  it.each([
    [1, 1, [1]],
    [1, 4, [1, 2, 3, 4]],
    [1, 30, [1, 5, 10, 15, 20, 25, 30]],
    [1, 200, [1, 20, 40, 60, 80, 100, 120, 140, 160, 180, 200]],
    [3, 9, [3, 4, 5, 6, 7, 8, 9]],
  ])("%d..%d -> %j", (min, max, expected) => {
    expect(xTicks(min, max)).toEqual(expected);
  });
});

describe("the legend explains only what is drawn (issue 10)", () => {
  it("no regression marker in the legend when no point is a regression; present when one is", () => {
    const base = { loopId: "l", task: "t", bestIteration: 2, finalIteration: 2 };
    const clean = renderQualityChart({
      ...base,
      points: [
        { iteration: 1, quality: 40, regression: false },
        { iteration: 2, quality: 60, regression: false },
      ],
    });
    expect(clean).not.toContain(">regression<");
    const withRegression = renderQualityChart({
      ...base,
      points: [
        { iteration: 1, quality: 40, regression: true },
        { iteration: 2, quality: 60, regression: false },
      ],
    });
    expect(withRegression).toContain(">regression<");
    expect(renderQualityChart({ ...base, bestIteration: null, finalIteration: null, points: [] })).not.toMatch(/>(best|final)</);
  });
});
