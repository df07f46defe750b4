// The text report: machine facts, one table per repository, the legend. (--json prints the result object as it is.)
import { NATIVE_OPS } from "./workload.mjs";

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const cell = (summary) => (summary ? `${fmt(summary.medianMs)} (${fmt(summary.minMs)}–${fmt(summary.maxMs)})` : "error");

/** The header: machine facts, settings and the start-up floor. */
export function renderHeader({ machine, runs, floor }) {
  const lines = [
    `ralph bench — node ${machine.node}, git ${machine.git}, ${machine.cpus} CPU (${machine.cpuModel}), ${machine.platform}, ${machine.memoryGb} GB RAM`,
    `ralph ${machine.ralphVersion} at ${machine.cli}${machine.cliPresent ? "" : " (missing: ralph rows will fail)"}`,
    `${runs} runs per row, fresh processes; figures in ms: median (min–max)${runs < 5 ? "; fewer than 5 runs: indicative only" : ""}`,
    `floor: node -e 0     ${cell(floor.node)}   every ralph call pays this start-up`,
    `       git --version ${cell(floor.git)}   one git process; a native checkpoint spawns 4, a diff 1`,
  ];
  return lines.join("\n");
}

/** One repository's table, with per-row errors and notes under the row, then what "native" means per row. */
export function renderRepo(repo, floor) {
  const f = repo.facts;
  const lines = [
    "",
    `== ${repo.name} — ${repo.kind === "path" ? `measured on a throwaway copy, ${repo.copy}` : repo.path}`,
    `   ${f.trackedFiles} tracked + ${f.untrackedFiles} untracked files, ${(f.trackedBytes / 1e6).toFixed(1)} MB tracked` +
      (f.ignoredFiles != null ? `, ${f.ignoredFiles} ignored files on disk` : "") +
      (f.head ? `; HEAD ${f.head.slice(0, 12)}` : "") +
      `; repository ${repo.workCopy} in ${(repo.preparedMs / 1000).toFixed(1)} s`,
  ];
  const withDaemon = repo.rows.some((row) => "daemon" in row);
  const header = ["row", "ralph", "native", "ratio", "ralph − node -e 0", ...(withDaemon ? ["daemon", "daemon ratio", "daemon − node -e 0"] : [])];
  const body = repo.rows.map((row) => [
    row.label,
    cell(row.ralph),
    cell(row.native),
    row.ratio != null ? `${row.ratio.toFixed(2)}×` : "–",
    row.ralph && floor.node ? fmt(row.ralph.medianMs - floor.node.medianMs) : "–",
    ...(withDaemon
      ? "daemon" in row
        ? [cell(row.daemon), row.daemonRatio != null ? `${row.daemonRatio.toFixed(2)}×` : "–", row.daemon && floor.node ? fmt(row.daemon.medianMs - floor.node.medianMs) : "–"]
        : ["–", "–", "–"]
      : []),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells) => "   " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("   ");
  lines.push(line(header));
  repo.rows.forEach((row, i) => {
    lines.push(line(body[i]));
    if (row.ralphError) lines.push(`      ralph error: ${row.ralphError}`);
    if (row.nativeError) lines.push(`      native error: ${row.nativeError}`);
    if (row.daemonError) lines.push(`      daemon error: ${row.daemonError}`);
    for (const note of row.notes) lines.push(`      ${note}`);
  });
  if (repo.daemonRssBytes != null) lines.push(`   warm process resident size after the daemon rows: ${(repo.daemonRssBytes / 1024 / 1024).toFixed(0)} MiB`);
  if (withDaemon) lines.push("   daemon ratio = daemon median / the daemon pass's own native median");
  lines.push("   native =");
  for (const row of repo.rows) lines.push(`     ${row.label.padEnd(widths[0])}  ${NATIVE_OPS[row.id]}`);
  return lines.join("\n");
}

/** How to read the ratios, printed once after the tables. */
export function renderLegend(totalMs) {
  return [
    "",
    "ratio = ralph median / native median: 1.00× tracks native git, below 1 is faster. ralph is one Node",
    "process; native is 1-4 git processes, so on small trees the ratio is mostly Node start-up (see the",
    "last column: ralph's time above `node -e 0`). Budget (DESIGN.md): checkpoint cost tracks native",
    "git on the same tree; a check of 1-20 files well under 500 ms including start-up.",
    `total bench time ${(totalMs / 1000).toFixed(0)} s`,
  ].join("\n");
}
