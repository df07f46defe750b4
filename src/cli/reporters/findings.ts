/**
 * Reporters for a judgement: plain text grouped by file, and GitHub
 * Actions workflow commands (docs.github.com "Workflow commands for GitHub
 * Actions": `::error file=…,line=…,title=…::message`). JSON is the
 * judgement object itself.
 */
import { createColors } from "picocolors";
import type { Finding } from "../../analysis/index.js";
import { isBlockingSeverity } from "../../analysis/rules/registry.js";
import type { Judgement } from "../../loop/check.js";

const SEVERITY_ORDER = { critical: 0, high: 1, medium: 2, low: 3 } as const;

/**
 * Whether text output is coloured: NO_COLOR (any non-empty value,
 * no-color.org) turns colour off, FORCE_COLOR (any value but "0" or
 * "false") turns it on, and otherwise only a terminal that is not `dumb`
 * gets colour. picocolors' own default also colours whenever `CI` is set,
 * which puts escape codes into piped and redirected output on CI machines;
 * ralph does not.
 */
export function colourEnabled(env: Readonly<NodeJS.ProcessEnv>, isTTY: boolean): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  return isTTY && env.TERM !== "dumb";
}

type Colours = ReturnType<typeof createColors>;

function paletteOf(pc: Colours) {
  return {
    pc,
    verdict: { BLOCK: (s: string) => pc.bold(pc.red(s)), WARN: pc.yellow, PASS: pc.green } as const,
    severity: { critical: pc.red, high: pc.red, medium: pc.yellow, low: pc.dim } as const,
  };
}

/** The palette without colour (the default: a caller that wants colour passes {@link colourEnabled}'s answer). */
const PLAIN_PALETTE = paletteOf(createColors(false));

/** Options of {@link renderJudgementText}. */
export interface TextRenderOptions {
  /** Colour on or off; default off. Commands pass {@link colourEnabled} for their stdout (a report written to stderr passes stderr's answer). */
  colour?: boolean;
}

function location(f: Finding): string {
  // A deleted test is gone from the after tree: its line is where it was (analysis/types.ts Finding).
  if (f.type === "test_deletion" && f.before_line != null && (f.before_file ?? f.file) === f.file) return `was line ${f.before_line}`;
  const before = f.before_file && f.before_file !== f.file ? `${f.before_file}:${f.before_line ?? "?"} -> ` : f.before_line != null && f.line == null ? `was line ${f.before_line}` : "";
  const after = f.line != null ? `line ${f.line}` : "";
  return [before, after].filter(Boolean).join(" ") || "-";
}

/** The human-readable report: a verdict line, findings grouped by file, then what was not analysed. */
export function renderJudgementText(j: Judgement, fromLabel: string, toLabel: string, options: TextRenderOptions = {}): string {
  const { pc, verdict: VERDICT_COLOUR, severity: SEVERITY_COLOUR } = options.colour === true ? paletteOf(createColors(true)) : PLAIN_PALETTE;
  const lines: string[] = [];
  const active = j.findings.filter((f) => !f.allowed);
  const counts = (["critical", "high", "medium", "low"] as const)
    .map((s) => [s, active.filter((f) => f.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  const testStats =
    j.stats.files_analyzed === 0
      ? j.findings.length > 0
        ? `no test or source file was parsed; the findings come from ${[...new Set(j.findings.map((f) => f.file))].slice(0, 3).join(", ")}`
        : "no test or source file ralph analyses changed"
      : `tests ${j.stats.tests_before} -> ${j.stats.tests_after}, assertions ${j.stats.assertions_before} -> ${j.stats.assertions_after} in the changed files`;
  lines.push(
    `${VERDICT_COLOUR[j.verdict](j.verdict)}  ${fromLabel} -> ${toLabel}: ${plural(j.findings.length, "finding")}${counts.length ? ` (${counts.join(", ")})` : ""}; ` +
      `${plural(j.stats.files_changed, "file")} changed, ${j.stats.files_analyzed} analysed; ${testStats}`,
  );
  for (const warning of j.warnings ?? []) lines.push(`warning: ${warning}`);
  const byFile = new Map<string, Finding[]>();
  for (const f of j.findings) byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  for (const [file, findings] of byFile) {
    lines.push("", pc.bold(file));
    for (const f of findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.line ?? 0) - (b.line ?? 0))) {
      const allowed = f.allowed ? ` [allowed: ${f.allow_reason ?? "by rule"}]` : "";
      lines.push(`  ${SEVERITY_COLOUR[f.severity](f.severity.padEnd(8))} ${f.type.padEnd(20)} ${location(f)}${allowed}`);
      lines.push(`           ${f.message}`);
    }
  }
  if (j.not_analyzed.length > 0) {
    lines.push("", "not analysed:");
    for (const n of j.not_analyzed) lines.push(`  ${n.path}: ${n.reason}`);
  }
  return lines.join("\n");
}

function escapeData(s: string): string {
  return s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** GitHub Actions annotations: error for critical/high, warning for medium, notice for low and allowed findings. */
export function renderJudgementGithub(j: Judgement): string {
  const lines = j.findings.map((f) => {
    const level = f.allowed ? "notice" : isBlockingSeverity(f.severity) ? "error" : f.severity === "medium" ? "warning" : "notice";
    const props = [`file=${escapeProperty(f.file)}`];
    if (f.line != null) props.push(`line=${f.line}`);
    props.push(`title=${escapeProperty(`ralph ${f.type} (${f.severity})`)}`);
    return `::${level} ${props.join(",")}::${escapeData(f.message)}`;
  });
  lines.push(`ralph check: ${j.verdict} (${j.findings.length} finding${j.findings.length === 1 ? "" : "s"})`);
  return lines.join("\n");
}
