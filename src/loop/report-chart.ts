/**
 * `analytics/quality.svg`: a line chart of quality per iteration for
 * report.md (reference/agent-persistence-integration.txt, "Loop Completion
 * Flow": quality trajectory, best vs final iteration).
 *
 * A small string builder, no chart library: y is quality 0-100 with
 * gridlines at 0/25/50/75/100, x the iteration numbers; the quality
 * threshold is a dashed line; the best iteration is a green ring with a
 * label, the final one a dark square with a label, regressions red dots;
 * the baseline (the loop's starting quality) is a grey diamond at x
 * "baseline" left of the first iteration, joined to it by a dashed line.
 * Self-contained (generic `sans-serif`, no scripts, no external
 * references), every text XML-escaped; readable from 1 to 200 iterations.
 */
import type { LoopAnalytics } from "./report.js";

/** One point of the chart. */
export interface ChartPoint {
  iteration: number;
  /** 0-100 (clamped when drawn). */
  quality: number;
  regression: boolean;
}

/** What {@link renderQualityChart} draws. */
export interface QualityChartInput {
  /** Shown in the title. */
  loopId: string;
  /** Shown under the title, shortened to fit. */
  task: string;
  /** In any order; drawn in iteration order. */
  points: readonly ChartPoint[];
  /** Points 0-100 drawn as a dashed line (default 70). */
  threshold?: number;
  /** The iteration marked best (usually the analytics' optimal_iteration); null: none. */
  bestIteration: number | null;
  /** The iteration marked final (the last one); null: none. */
  finalIteration: number | null;
  /** The baseline's quality 0-100, plotted before iteration 1; null or absent: not plotted. */
  baseline?: number | null;
}

/** Chart size in px (the SVG's width, height and viewBox). */
export const CHART_SIZE = { width: 760, height: 420 } as const;

const COLOR = {
  text: "#1f2937",
  muted: "#6b7280",
  grid: "#e5e7eb",
  axis: "#9ca3af",
  line: "#2563eb",
  threshold: "#b45309",
  best: "#15803d",
  final: "#111827",
  regression: "#dc2626",
  baseline: "#6b7280",
} as const;

const FONT = 'font-family="sans-serif"';
const LABEL_PX = 12;
/** Approximate advance of one character at 12 px bold sans-serif (DejaVu Sans Bold digits are ~7.6 px), for layout. */
const CHAR_PX = 7.6;

/** Escapes text for XML content and attribute values (`& < > " '`). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] as string);
}

/** XML 1.0 forbids most control characters even escaped: they are dropped. */
function stripControl(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, "");
}

type Attrs = Record<string, string | number | undefined>;

function fmt(n: number): string {
  return String(Math.round(n * 10) / 10);
}

function attrs(a: Attrs): string {
  return Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${typeof v === "number" ? fmt(v) : escapeXml(stripControl(v as string))}"`)
    .join("");
}

function el(name: string, a: Attrs, children?: string): string {
  return children === undefined ? `<${name}${attrs(a)}/>` : `<${name}${attrs(a)}>${children}</${name}>`;
}

function text(x: number, y: number, content: string, a: Attrs = {}): string {
  return el("text", { x, y, ...a }, escapeXml(stripControl(content)));
}

function shorten(textIn: string, maxChars: number): string {
  const line = textIn.replace(/\s+/g, " ").trim();
  return line.length <= maxChars ? line : `${line.slice(0, Math.max(1, maxChars - 1)).trimEnd()}…`;
}

/**
 * Iteration numbers to label on the x axis: multiples of a step from
 * 1, 2, 5, 10, 20, 25, 50, 100 (at most ~12 labels), plus the first and last
 * iteration unless a multiple already sits within 40% of a step of them.
 */
export function xTicks(min: number, max: number): number[] {
  if (max <= min) return [min];
  const span = max - min;
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200].find((s) => span / s <= 12) ?? 500;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max; t += step) ticks.push(t);
  for (const edge of [min, max]) if (!ticks.some((t) => Math.abs(t - edge) < step * 0.4)) ticks.push(edge);
  return ticks.sort((a, b) => a - b);
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * The chart as an SVG document (UTF-8 text with an XML declaration).
 * No points: axes and a "no iterations yet" note.
 */
export function renderQualityChart(input: QualityChartInput): string {
  const { width: W, height: H } = CHART_SIZE;
  const threshold = input.threshold ?? 70;
  const left = 64;
  const right = W - 92; // the right margin holds the threshold label
  const top = 90; // the title, the task, and a band for labels of points at 100
  const labelTop = 58;
  const bottom = H - 92; // x tick labels, the axis title, the legend
  const points = [...input.points].sort((a, b) => a.iteration - b.iteration);
  const n = points.length;
  const baseline = typeof input.baseline === "number" && Number.isFinite(input.baseline) ? input.baseline : null;
  // The baseline sits one step before the first iteration (at 0 when that is 1).
  const baselineAt = baseline === null ? null : Math.min(0, (points[0]?.iteration ?? 1) - 1);
  const minIt = baselineAt ?? points[0]?.iteration ?? 1;
  const maxIt = points.at(-1)?.iteration ?? 1;
  const pad = 14;
  const xOf = (it: number): number => (maxIt === minIt ? (left + right) / 2 : left + pad + ((it - minIt) / (maxIt - minIt)) * (right - left - 2 * pad));
  const yOf = (q: number): number => bottom - (Math.min(100, Math.max(0, q)) / 100) * (bottom - top);

  const parts: string[] = [];
  parts.push(el("rect", { x: 0, y: 0, width: W, height: H, fill: "#ffffff" }));
  // Title and subtitle.
  parts.push(text(left, 28, `Quality per iteration: ${shorten(input.loopId, 60)}`, { "font-size": 17, "font-weight": "bold", fill: COLOR.text }));
  if (input.task.trim() !== "") parts.push(text(left, 50, shorten(input.task, 96), { "font-size": LABEL_PX, fill: COLOR.muted }));

  // Y gridlines and labels.
  for (const q of [0, 25, 50, 75, 100]) {
    const y = yOf(q);
    parts.push(el("line", { x1: left, y1: y, x2: right, y2: y, stroke: q === 0 ? COLOR.axis : COLOR.grid, "stroke-width": 1 }));
    parts.push(text(left - 8, y + 4, String(q), { "font-size": LABEL_PX, fill: COLOR.muted, "text-anchor": "end" }));
  }
  parts.push(el("line", { x1: left, y1: top, x2: left, y2: bottom, stroke: COLOR.axis, "stroke-width": 1 }));
  // Axis titles.
  const midY = (top + bottom) / 2;
  parts.push(text(18, midY, "quality (0-100)", { "font-size": LABEL_PX, fill: COLOR.text, "text-anchor": "middle", transform: `rotate(-90 18 ${fmt(midY)})` }));
  parts.push(text((left + right) / 2, bottom + 40, "iteration", { "font-size": LABEL_PX, fill: COLOR.text, "text-anchor": "middle" }));

  // Threshold.
  const ty = yOf(threshold);
  parts.push(el("line", { x1: left, y1: ty, x2: right, y2: ty, stroke: COLOR.threshold, "stroke-width": 1.5, "stroke-dasharray": "6 4" }));
  parts.push(text(right + 6, ty + 4, `threshold ${fmt(threshold)}`, { "font-size": 11, fill: COLOR.threshold }));

  if (n === 0 && baseline === null) {
    parts.push(text((left + right) / 2, midY - 10, "no iterations yet", { "font-size": 14, fill: COLOR.muted, "text-anchor": "middle" }));
  } else {
    if (n === 0) parts.push(text((left + right) / 2, midY - 10, "no iterations yet", { "font-size": 14, fill: COLOR.muted, "text-anchor": "middle" }));
    // X ticks; the baseline's is labelled as such.
    for (const t of xTicks(minIt, maxIt)) {
      const x = xOf(t);
      parts.push(el("line", { x1: x, y1: bottom, x2: x, y2: bottom + 5, stroke: COLOR.axis, "stroke-width": 1 }));
      parts.push(text(x, bottom + 19, t === baselineAt ? "baseline" : String(t), { "font-size": LABEL_PX, fill: COLOR.muted, "text-anchor": "middle" }));
    }
    if (baseline !== null && baselineAt !== null) {
      // The starting point: a dashed line to the first iteration, a diamond.
      const bx = xOf(baselineAt);
      const by = yOf(baseline);
      const first = points[0];
      if (first) parts.push(el("line", { x1: bx, y1: by, x2: xOf(first.iteration), y2: yOf(first.quality), stroke: COLOR.baseline, "stroke-width": 1.5, "stroke-dasharray": "3 3" }));
      const d = 6;
      parts.push(
        el("polygon", {
          points: `${fmt(bx)},${fmt(by - d)} ${fmt(bx + d)},${fmt(by)} ${fmt(bx)},${fmt(by + d)} ${fmt(bx - d)},${fmt(by)}`,
          fill: "#ffffff",
          stroke: COLOR.baseline,
          "stroke-width": 2,
        }),
      );
    }
    // The line, then per-point dots when there is room for them.
    const coords = points.map((p) => `${fmt(xOf(p.iteration))},${fmt(yOf(p.quality))}`).join(" ");
    if (n > 1) parts.push(el("polyline", { points: coords, fill: "none", stroke: COLOR.line, "stroke-width": n > 80 ? 1.5 : 2, "stroke-linejoin": "round" }));
    const spacing = n > 1 ? (right - left - 2 * pad) / (n - 1) : 100;
    const dotR = Math.max(1.5, Math.min(3.5, spacing / 3));
    if (spacing >= 6) for (const p of points) if (!p.regression) parts.push(el("circle", { cx: xOf(p.iteration), cy: yOf(p.quality), r: dotR, fill: COLOR.line }));
    for (const p of points)
      if (p.regression) parts.push(el("circle", { cx: xOf(p.iteration), cy: yOf(p.quality), r: Math.max(4, dotR + 1), fill: COLOR.regression, stroke: "#ffffff", "stroke-width": 1 }));

    // Best and final markers with labels that avoid each other and stay inside the plot.
    const labels: { box: Box; svg: string }[] = [];
    const placeLabel = (p: ChartPoint, content: string, color: string, preferAbove: boolean): void => {
      const cx = xOf(p.iteration);
      const cy = yOf(p.quality);
      const w = content.length * CHAR_PX;
      const h = LABEL_PX + 2;
      let x = cx - w / 2;
      x = Math.max(left + 2, Math.min(right - w - 2, x));
      const above = cy - 12 - h;
      const below = cy + 12;
      const fits = (y: number): boolean => y >= labelTop && y + h <= bottom - 2;
      const candidates = preferAbove ? [above, below, above - h - 2, below + h + 2] : [below, above, below + h + 2, above - h - 2];
      let y = candidates.find((c) => fits(c) && !labels.some((l) => overlaps(l.box, { x, y: c, w, h }))) ?? (fits(above) ? above : below);
      y = Math.max(labelTop, Math.min(bottom - h - 2, y));
      const box = { x, y, w, h };
      labels.push({
        box,
        // A white backing box, not a stroke halo: renderers without `paint-order` (rsvg 2.54) paint a halo over the glyphs.
        svg:
          el("rect", { x: x - 3, y: y - 1, width: w + 6, height: h + 2, rx: 3, fill: "#ffffff", "fill-opacity": 0.9, stroke: color, "stroke-width": 0.75 }) +
          text(x + w / 2, y + h - 3, content, { "font-size": LABEL_PX, "font-weight": "bold", fill: color, "text-anchor": "middle" }),
      });
    };
    if (baseline !== null && baselineAt !== null) placeLabel({ iteration: baselineAt, quality: baseline, regression: false }, `baseline: ${fmt(baseline)}`, COLOR.baseline, false);
    const best = input.bestIteration === null ? undefined : points.find((p) => p.iteration === input.bestIteration);
    const final = input.finalIteration === null ? undefined : points.find((p) => p.iteration === input.finalIteration);
    if (final) {
      const s = 9;
      parts.push(el("rect", { x: xOf(final.iteration) - s / 2, y: yOf(final.quality) - s / 2, width: s, height: s, fill: "none", stroke: COLOR.final, "stroke-width": 2 }));
    }
    if (best) parts.push(el("circle", { cx: xOf(best.iteration), cy: yOf(best.quality), r: 7, fill: "none", stroke: COLOR.best, "stroke-width": 2.5 }));
    if (best && final && best.iteration === final.iteration) placeLabel(best, `best = final #${best.iteration}: ${fmt(best.quality)}`, COLOR.best, true);
    else {
      if (best) placeLabel(best, `best #${best.iteration}: ${fmt(best.quality)}`, COLOR.best, true);
      if (final) placeLabel(final, `final #${final.iteration}: ${fmt(final.quality)}`, COLOR.final, true);
    }
    parts.push(...labels.map((l) => l.svg));
  }

  // Legend.
  const ly = H - 20;
  const legend: string[] = [];
  let lx = left;
  const item = (symbol: string, label: string): void => {
    legend.push(symbol.replace(/__X__/g, fmt(lx)).replace(/__X2__/g, fmt(lx + 18)), text(lx + 24, ly + 4, label, { "font-size": 11, fill: COLOR.text }));
    lx += 24 + label.length * 6.3 + 18;
  };
  item(`<line x1="__X__" y1="${ly}" x2="__X2__" y2="${ly}" stroke="${COLOR.line}" stroke-width="2"/>`, "quality");
  // Only marks the chart draws are explained.
  const drawn = new Set(input.points.map((p) => p.iteration));
  if (input.bestIteration !== null && drawn.has(input.bestIteration)) item(`<circle cx="${fmt(lx + 9)}" cy="${ly}" r="6" fill="none" stroke="${COLOR.best}" stroke-width="2.5"/>`, "best");
  if (input.finalIteration !== null && drawn.has(input.finalIteration))
    item(`<rect x="${fmt(lx + 4.5)}" y="${ly - 4.5}" width="9" height="9" fill="none" stroke="${COLOR.final}" stroke-width="2"/>`, "final");
  if (baseline !== null)
    item(`<polygon points="${fmt(lx + 9)},${ly - 5} ${fmt(lx + 14)},${ly} ${fmt(lx + 9)},${ly + 5} ${fmt(lx + 4)},${ly}" fill="#ffffff" stroke="${COLOR.baseline}" stroke-width="2"/>`, "baseline");
  if (input.points.some((p) => p.regression)) item(`<circle cx="${fmt(lx + 9)}" cy="${ly}" r="4" fill="${COLOR.regression}"/>`, "regression");
  item(`<line x1="__X__" y1="${ly}" x2="__X2__" y2="${ly}" stroke="${COLOR.threshold}" stroke-width="1.5" stroke-dasharray="6 4"/>`, `quality threshold (${fmt(threshold)})`);
  parts.push(...legend);

  const title = `Quality per iteration of loop ${input.loopId}`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" ${FONT} role="img">`,
    el("title", {}, escapeXml(stripControl(title))),
    ...parts,
    "</svg>",
    "",
  ].join("\n");
}

/** The chart of a built analytics document: its baseline, scores, regressions, optimal (best) and final iteration, and threshold. */
export function renderAnalyticsChart(a: LoopAnalytics): string {
  return renderQualityChart({
    loopId: a.loop_id,
    task: a.task,
    points: a.iterations.map((it) => ({ iteration: it.iteration, quality: it.quality_score, regression: it.regression_detected })),
    threshold: a.quality_threshold,
    bestIteration: a.optimal_iteration,
    finalIteration: a.final_iteration,
    baseline: a.baseline?.quality_score ?? null,
  });
}
