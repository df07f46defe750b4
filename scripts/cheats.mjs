#!/usr/bin/env node
// ralph cheat suite score: how many of the cheats in fixtures/cheats/ a ralph build catches with the
// right finding type, and how many legitimate look-alikes it blocks (issue 9's bar: >= 95% caught,
// none blocked).
//
//   node scripts/cheats.mjs [--json] [--ralph path/to/cli.js] [--lang python] [--case NAME] [-v]
//
// Each case is fixtures/cheats/<lang>/<case>/{before,after,expected.json}; expected.json has the
// fixtures/languages/* fields plus `kind` ("cheat" | "legit") and `class` (the cheat class, or the
// legitimate change it resembles). For a cheat, `findings` lists the findings that count as
// catching it (type, and file when given): it is caught when the verdict is BLOCK and one of them
// is reported at critical or high severity (scripts/cheats/score.mjs).
//
// How a case runs: a fresh git repository under the OS temp folder gets `before/` as one commit and
// `after/` as the next (fixed author and dates), and `node <cli.js> check --from HEAD~1 --to HEAD
// --format json` runs in it, so the build is judged as a user's CI would run it (unchanged files
// are read from the tree). The repositories are deleted afterwards.
//
// Output: per language and per class the cheats caught / wrong type / missed and the legit cases
// blocked / warned, the total and whether the bar is met, then every miss and every blocked legit
// case (with -v, every case). --json prints one object with the same figures and every case.
// Exit code: 0 when it ran (whatever the score), 2 for bad usage, 3 when ralph crashed on a case
// (exit 3, a signal, or stdout that is not its JSON).
//
// --ralph defaults to dist/cli.js beside this script's parent (run `npm run build` first).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { CAUGHT_PERCENT_BAR, judgeCase, listCases, summarise } from "./cheats/score.mjs";

const USAGE = "usage: node scripts/cheats.mjs [--json] [--ralph path/to/cli.js] [--lang LANG] [--case NAME] [-v]";
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SUITE = join(REPO_ROOT, "fixtures/cheats");
const GIT_ENV = {
  GIT_AUTHOR_NAME: "cheat suite",
  GIT_AUTHOR_EMAIL: "cheats@example.invalid",
  GIT_COMMITTER_NAME: "cheat suite",
  GIT_COMMITTER_EMAIL: "cheats@example.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

function failUsage(message) {
  process.stderr.write(`cheats: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** Runs git in `cwd` with the fixed identity; throws an Error with git's stderr when it fails. */
function git(cwd, args) {
  const result = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV } });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** Replaces the work tree of `repo` (all but .git) with a copy of `source`, then commits it. */
function commitTree(repo, source, message) {
  for (const entry of readdirSync(repo)) if (entry !== ".git") rmSync(join(repo, entry), { recursive: true, force: true });
  if (existsSync(source)) cpSync(source, repo, { recursive: true });
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "--allow-empty", "--no-verify", "-m", message]);
}

/**
 * Runs one case through the cli in a fresh repository. Returns `{ report }` with ralph's JSON, or
 * `{ crash }` with a one-line reason when ralph exited 2 or 3, was killed, or printed no JSON.
 */
function runCase(cli, testCase, scratch) {
  const repo = join(scratch, `${testCase.lang}-${testCase.name}`);
  git(scratch, ["init", "-q", "-b", "main", repo]);
  try {
    commitTree(repo, join(testCase.dir, "before"), "before");
    commitTree(repo, join(testCase.dir, "after"), "after");
    const result = spawnSync(process.execPath, [cli, "check", "--from", "HEAD~1", "--to", "HEAD", "--format", "json"], {
      cwd: repo,
      encoding: "utf8",
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
      // One throwaway repository per case: no warm process (it would start one per case and write under
      // .git/ralph while the repository is removed: ENOTEMPTY under load).
      env: { ...process.env, NO_COLOR: "1", RALPH_NO_DAEMON: "1" },
    });
    const firstErr = (result.stderr ?? "").split("\n").find((line) => line.trim() !== "") ?? "";
    if (result.error || result.signal) return { crash: result.error?.message ?? `killed by ${result.signal}` };
    if (result.status !== 0 && result.status !== 1) return { crash: `exit ${result.status}: ${firstErr}` };
    try {
      return { report: JSON.parse(result.stdout) };
    } catch {
      return { crash: `stdout is not JSON: ${result.stdout.slice(0, 120)}` };
    }
  } finally {
    rmSync(repo, { recursive: true, force: true, maxRetries: 5 });
  }
}

function formatTally(tally) {
  const cheats = tally.cheats === 0 ? "" : `cheats ${tally.caught}/${tally.cheats} caught (${tally.wrongType} wrong type, ${tally.missed} missed)`;
  const legit = tally.legit === 0 ? "" : `legit ${tally.legit - tally.blocked}/${tally.legit} not blocked (${tally.blocked} blocked, ${tally.warned} warned)`;
  return [cheats, legit].filter(Boolean).join("; ");
}

function formatText(summary, results, verbose) {
  const lines = [];
  lines.push("by language:");
  for (const [lang, tally] of Object.entries(summary.byLang)) lines.push(`  ${lang.padEnd(11)} ${formatTally(tally)}`);
  lines.push("by class:");
  for (const [name, tally] of Object.entries(summary.byClass).sort()) lines.push(`  ${name.padEnd(44)} ${formatTally(tally)}`);
  lines.push(`total: ${formatTally(summary.total)}`);
  lines.push(`caught ${summary.caughtPercent.toFixed(1)}% (bar ${CAUGHT_PERCENT_BAR}%), legit blocked ${summary.total.blocked} (bar 0): ${summary.meetsBar ? "bar met" : "bar not met"}`);
  const shown = results.filter((result) => verbose || ["missed", "wrong-type", "blocked", "crash"].includes(result.outcome));
  if (shown.length > 0) lines.push(verbose ? "cases:" : "misses, wrong types, blocked legit cases and crashes:");
  for (const result of shown) {
    lines.push(`  ${result.outcome.padEnd(10)} ${result.lang}/${result.name} [${result.expected.kind} ${result.expected.class}] verdict ${result.verdict ?? "-"}`);
    if (result.crash) lines.push(`      ${result.crash}`);
    for (const finding of result.blocking ?? []) lines.push(`      ${finding.severity} ${finding.type} ${finding.file}: ${finding.message}`);
  }
  return `${lines.join("\n")}\n`;
}

function main() {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        json: { type: "boolean", default: false },
        ralph: { type: "string" },
        lang: { type: "string" },
        case: { type: "string" },
        verbose: { type: "boolean", short: "v", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    failUsage(error.message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const cli = resolve(values.ralph ?? join(REPO_ROOT, "dist/cli.js"));
  if (!existsSync(cli)) failUsage(`${cli} not found: run \`npm run build\` or pass --ralph`);
  const cases = listCases(SUITE).filter((testCase) => (!values.lang || testCase.lang === values.lang) && (!values.case || testCase.name === values.case));
  if (cases.length === 0) failUsage("no case matches");
  const scratch = mkdtempSync(join(tmpdir(), "ralph-cheats-"));
  const results = [];
  let crashed = false;
  try {
    for (const testCase of cases) {
      const run = runCase(cli, testCase, scratch);
      if (run.crash) {
        crashed = true;
        const outcome = testCase.expected.kind === "cheat" ? "missed" : "passed";
        results.push({ lang: testCase.lang, name: testCase.name, expected: testCase.expected, outcome, crash: run.crash, verdict: null, blocking: [] });
        continue;
      }
      const judged = judgeCase(testCase.expected, run.report);
      results.push({ lang: testCase.lang, name: testCase.name, expected: testCase.expected, verdict: run.report.verdict, ...judged });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const summary = summarise(results);
  if (values.json) {
    const cases = results.map(({ expected, ...rest }) => ({ ...rest, kind: expected.kind, class: expected.class, summary: expected.summary }));
    process.stdout.write(`${JSON.stringify({ cli, ...summary, bar: CAUGHT_PERCENT_BAR, cases }, null, 2)}\n`);
  } else {
    process.stdout.write(formatText(summary, results, values.verbose));
  }
  if (crashed) process.exitCode = 3;
}

main();
