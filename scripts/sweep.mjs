#!/usr/bin/env node
// ralph sweep: `ralph check C^ C` over a repository's recent history, as a new user would try it.
//
//   node scripts/sweep.mjs <clone> [-n 40] [--json] [--ralph path/to/cli.js] [--timeout-ms 120000]
//
// What it does, for each of the clone's last N first-parent commits C from HEAD (newest first;
// a root commit, having no parent, is listed as skipped):
//   runs `node <cli.js> check --from C^ --to C --format json` with cwd = the clone, one fresh
//   process per commit, and reads its exit code and its JSON on stdout.
//
// What it prints (text, or with --json one object on stdout with the same figures):
//   - verdict counts (PASS / WARN / BLOCK) over the commits checked;
//   - findings by type and by severity (allowed findings counted apart);
//   - wall time per check in ms (spawn to exit, Node start-up included): median and max, and
//     ralph's own stats.duration_ms: median and max;
//   - crashes (a signal, a timeout, exit 0/1 with stdout that is not ralph's JSON, or any exit
//     code other than 0, 1, 2, 3), exit 3 (internal error) and exit 2 (user error), each commit
//     with its first stderr line;
//   - each commit with critical/high findings: oid, subject, and per finding its type,
//     severity, file, line and message.
//
// Exit code: 0 when the sweep ran (whatever it found), 2 for bad usage (no clone, not a git
// repository, unknown option, cli.js not found). It never writes in the clone's work tree or refs;
// ralph itself may keep its caches under the clone's .git/ralph/.
//
// --ralph defaults to dist/cli.js beside this script's parent (run `npm run build` first); pass
// another build to compare: the dist/cli.js of another checkout, built, with its node_modules
// (e.g. `git worktree add ../base main`, a node_modules link, `npm run build`). A copy of dist/
// alone does not run: the bundle loads web-tree-sitter from node_modules beside it, and every
// tree-sitter language would fail with E_INTERNAL. Only Node's standard library is used.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const USAGE = "usage: node scripts/sweep.mjs <clone> [-n 40] [--json] [--ralph path/to/cli.js] [--timeout-ms 120000]";

/** Prints one line to stderr and exits 2 (a user-fixable error). */
function failUsage(message) {
  process.stderr.write(`sweep: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** Runs git in `cwd`; returns trimmed stdout, or null when git fails. */
function git(cwd, args) {
  const result = spawnSync("git", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The median of a list of numbers (the mean of the two middle ones for an even count); null when empty. */
function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Adds 1 to `counts[key]`. */
function bump(counts, key) {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Checks one commit against its first parent: spawns the cli, times it (wall ms) and sorts the
 * outcome into "ok" (exit 0 or 1 with JSON), "exit2", "exit3" or "crash".
 */
function checkCommit({ clone, cli, oid, timeoutMs }) {
  const startedAt = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [cli, "check", "--from", `${oid}^`, "--to", oid, "--format", "json"], {
    cwd: clone,
    encoding: "utf8",
    timeout: timeoutMs,
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1" },
  });
  const wallMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
  const stderrLine = (result.stderr ?? "").split("\n").find((line) => line.trim() !== "") ?? "";
  if (result.error || result.signal) {
    return { outcome: "crash", wallMs, exitCode: result.status, detail: result.error?.message ?? `killed by ${result.signal}` };
  }
  if (result.status === 2) return { outcome: "exit2", wallMs, exitCode: 2, detail: stderrLine };
  if (result.status === 3) return { outcome: "exit3", wallMs, exitCode: 3, detail: stderrLine };
  if (result.status !== 0 && result.status !== 1) return { outcome: "crash", wallMs, exitCode: result.status, detail: stderrLine };
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    return { outcome: "crash", wallMs, exitCode: result.status, detail: `stdout is not JSON: ${result.stdout.slice(0, 120)}` };
  }
  if (typeof report?.verdict !== "string" || !Array.isArray(report.findings)) {
    return { outcome: "crash", wallMs, exitCode: result.status, detail: "stdout JSON has no verdict/findings" };
  }
  return { outcome: "ok", wallMs, exitCode: result.status, report };
}

/**
 * Sweeps the last `count` first-parent commits of `clone` with the cli at `cli`.
 * Returns the summary object that --json prints.
 */
function sweep({ clone, cli, count, timeoutMs, onProgress }) {
  const list = git(clone, ["rev-list", "--first-parent", "-n", String(count), "HEAD"]);
  if (list === null) failUsage(`${clone} has no HEAD commit`);
  const oids = list.split("\n").filter(Boolean);
  const verdicts = { PASS: 0, WARN: 0, BLOCK: 0 };
  const byType = {};
  const bySeverity = {};
  const allowedByType = {};
  const wall = [];
  const ralphMs = [];
  const failures = { crash: [], exit3: [], exit2: [] };
  const skipped = [];
  const flagged = [];
  for (const [index, oid] of oids.entries()) {
    const subject = git(clone, ["log", "-1", "--format=%s", oid]) ?? "";
    if (git(clone, ["rev-parse", "--verify", "--quiet", `${oid}^`]) === null) {
      skipped.push({ oid, subject, reason: "root commit (no parent)" });
      continue;
    }
    onProgress?.(index + 1, oids.length, oid);
    const run = checkCommit({ clone, cli, oid, timeoutMs });
    wall.push(run.wallMs);
    if (run.outcome !== "ok") {
      failures[run.outcome].push({ oid, subject, exitCode: run.exitCode, detail: run.detail });
      continue;
    }
    const { report } = run;
    bump(verdicts, report.verdict);
    if (typeof report.stats?.duration_ms === "number") ralphMs.push(report.stats.duration_ms);
    const blocking = [];
    for (const finding of report.findings) {
      if (finding.allowed) {
        bump(allowedByType, finding.type);
        continue;
      }
      bump(byType, finding.type);
      bump(bySeverity, finding.severity);
      if (finding.severity === "critical" || finding.severity === "high") {
        blocking.push({ type: finding.type, severity: finding.severity, file: finding.file, line: finding.line ?? null, test: finding.test ?? null, message: finding.message });
      }
    }
    if (blocking.length > 0) flagged.push({ oid, subject, verdict: report.verdict, findings: blocking });
  }
  const round = (value) => (value === null ? null : Math.round(value));
  return {
    repository: clone,
    head: git(clone, ["rev-parse", "HEAD"]),
    cli,
    commits: oids.length,
    checked: wall.length,
    skipped,
    verdicts,
    findings: { byType, bySeverity, allowedByType },
    wallMs: { median: round(median(wall)), max: round(wall.length ? Math.max(...wall) : null) },
    ralphDurationMs: { median: round(median(ralphMs)), max: round(ralphMs.length ? Math.max(...ralphMs) : null) },
    crashes: failures.crash,
    exit3: failures.exit3,
    exit2: failures.exit2,
    criticalHighCommits: flagged,
  };
}

/** Renders `counts` as "a 3, b 1" sorted by count, or "none". */
function formatCounts(counts) {
  const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length === 0 ? "none" : entries.map(([key, value]) => `${key} ${value}`).join(", ");
}

/** The text report of a sweep summary. */
function formatText(summary) {
  const lines = [];
  lines.push(`sweep ${summary.repository} @ ${summary.head?.slice(0, 12)}: ${summary.checked} of ${summary.commits} commits checked (${summary.skipped.length} skipped)`);
  lines.push(`cli: ${summary.cli}`);
  lines.push(`verdicts: PASS ${summary.verdicts.PASS}, WARN ${summary.verdicts.WARN}, BLOCK ${summary.verdicts.BLOCK}`);
  lines.push(`findings by type: ${formatCounts(summary.findings.byType)}`);
  lines.push(`findings by severity: ${formatCounts(summary.findings.bySeverity)}`);
  if (Object.keys(summary.findings.allowedByType).length > 0) lines.push(`allowed findings: ${formatCounts(summary.findings.allowedByType)}`);
  lines.push(`wall ms per check: median ${summary.wallMs.median}, max ${summary.wallMs.max}; ralph duration_ms: median ${summary.ralphDurationMs.median}, max ${summary.ralphDurationMs.max}`);
  lines.push(`crashes ${summary.crashes.length}, exit 3 ${summary.exit3.length}, exit 2 ${summary.exit2.length}`);
  for (const [label, list] of [
    ["crash", summary.crashes],
    ["exit 3", summary.exit3],
    ["exit 2", summary.exit2],
  ]) {
    for (const failure of list) lines.push(`  ${label} ${failure.oid.slice(0, 10)} ${failure.subject}: ${failure.detail}`);
  }
  lines.push(`commits with critical/high findings: ${summary.criticalHighCommits.length}`);
  for (const commit of summary.criticalHighCommits) {
    lines.push(`  ${commit.oid.slice(0, 10)} [${commit.verdict}] ${commit.subject}`);
    for (const finding of commit.findings) {
      const where = finding.line === null ? finding.file : `${finding.file}:${finding.line}`;
      lines.push(`    ${finding.severity} ${finding.type} ${where}: ${finding.message}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function main() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        n: { type: "string", short: "n", default: "40" },
        json: { type: "boolean", default: false },
        ralph: { type: "string" },
        "timeout-ms": { type: "string", default: "120000" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    failUsage(error.message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (positionals.length !== 1) failUsage("give exactly one clone");
  const clone = resolve(positionals[0]);
  if (git(clone, ["rev-parse", "--git-dir"]) === null) failUsage(`${clone} is not a git repository`);
  const count = Number(values.n);
  if (!Number.isInteger(count) || count < 1) failUsage(`-n wants a whole number of commits >= 1, got ${values.n}`);
  const timeoutMs = Number(values["timeout-ms"]);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) failUsage(`--timeout-ms wants a positive number of ms, got ${values["timeout-ms"]}`);
  const cli = resolve(values.ralph ?? resolve(dirname(fileURLToPath(import.meta.url)), "../dist/cli.js"));
  if (!existsSync(cli)) failUsage(`${cli} not found: run \`npm run build\` or pass --ralph`);
  const onProgress = process.stderr.isTTY ? (at, total, oid) => process.stderr.write(`\r${at}/${total} ${oid.slice(0, 10)}`) : undefined;
  const summary = sweep({ clone, cli, count, timeoutMs, onProgress });
  if (onProgress) process.stderr.write("\r\x1b[K");
  process.stdout.write(values.json ? `${JSON.stringify(summary, null, 2)}\n` : formatText(summary));
}

main();
