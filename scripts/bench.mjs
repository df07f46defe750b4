#!/usr/bin/env node
// ralph benchmark: checkpoint and check cost next to native git on the same tree.
//
//   npm run bench                              generated repos of 1k, 10k, 30k files
//   npm run bench -- --sizes 1000,10000 --runs 7
//   npm run bench -- /path/to/repo             a real repository (only it, unless --sizes is given)
//   npm run bench -- --json                    the same figures as one JSON object on stdout
//   options: --runs N (default 5)  --sizes a,b,c  --fresh (regenerate cached repos)
//            --no-build (skip `npm run build`, use dist/cli.js as it is)
//            --cli FILE (measure another ralph build, e.g. a release; implies --no-build)  --help
//            --large (add a generated 100k-file repository: slow, ~2 min to generate once)
//            --no-daemon (only the cold column)
//
// Two columns for ralph: "ralph" runs every call in-process (RALPH_NO_DAEMON=1: the first call, CI, a
// pre-push); "daemon" runs the same rows again, each call served by the work tree's warm process
// (src/daemon/; RALPH_DAEMON=require), started by the first call of that pass and stopped after it, its
// resident size printed under the table. The daemon pass skips the cold row (it deletes the socket's folder)
// and the fsync-off row; its native side is measured again, interleaved the same way.
//
// What is measured, per repository, each row with fresh processes, N runs, the
// two sides interleaved run by run (wall time from spawn to exit):
//   cold checkpoint   `ralph checkpoint --loop <fresh id> --json` with <git-dir>/ralph/ (the stat
//                     cache) deleted first                      vs  GIT_INDEX_FILE=<fresh tmp>
//                     git add -A && git write-tree && git commit-tree <tree> -p <prev> && git update-ref
//   warm checkpoint   the same after 10 tracked files were modified and 1 file added, on a loop whose
//                     stat cache exists                        vs  the same pipeline, tmp index kept
//   no-op checkpoint  nothing changed since the last one       vs  the same pipeline, tmp index kept
//                     (git still writes a commit here; ralph writes none)
//   check             `ralph check --from <rev> --to WORKTREE --format json` on a 5-file change (and a
//                     20-file one: up to 9 more test files and 10 sources edited) that
//                     deletes one test case from a *.test.ts   vs  git diff --stat <rev>
//   check (20, unparsed)  the 20-file check with ralph's facts cache deleted before each run, so
//                     every changed file is parsed (what a change ralph has not seen costs)
//   check (20, commits)   the 20-file change committed: `ralph check --from <rev> --to <commit>`
//                     (no work tree scan)                       vs  git diff --stat <rev> <commit>
// plus `node -e 0` and `git --version`: the start-up floor of one ralph call / one git call.
// Sanity checks beside the rows: ralph's `changed` flag, ralph's tree == native's tree on run 1,
// and a test_deletion finding from check.
//
// Reading the ratio (ralph median / native median): 1.00× means ralph tracks native git; ralph
// is a single Node process while native spawns 4 small git processes, so on small trees the ratio
// is dominated by Node start-up. The last column (ralph median minus `node -e 0`) is ralph's own work.
//
// Safety: the benchmark never runs anything that writes in a repository you pass. It copies it to
// /tmp/ralph-bench/path-<name>-<pid> (`cp -a`, .git included), measures the copy, and deletes the
// copy (after Ctrl-C: at the start of the next run). Generated repositories are cached in
// /tmp/ralph-bench/<size>/repo (keyed by the generator version), measured there, restored in place
// after each run and checked before the next (scripts/bench/workcopy.mjs).
//
// Duration of the default run (3 sizes × 5 runs) on 2 cores (Xeon VM, node -e 0 ≈ 80 ms): about
// 1 minute with the ralph of 2026-11-30 and the repositories cached; the first run also generates
// them (~30 s once, ~420 MB in /tmp/ralph-bench). Most of it is ralph's own time (60 timed + 3
// untimed calls), so it moves with ralph. `--sizes 1000,10000` takes ~15 s.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureGeneratedRepo, isolatedGitEnv } from "./bench/generate.mjs";
import { describeFailure, runOrThrow, runTimed, summarize } from "./bench/proc.mjs";
import { renderHeader, renderLegend, renderRepo } from "./bench/report.mjs";
import { copyRepo, repoFacts, restoreGeneratedRepo } from "./bench/workcopy.mjs";
import { measureRepo, mergeDaemonRows } from "./bench/workload.mjs";

const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_CLI_PATH = join(PROJECT_ROOT, "dist", "cli.js");
const CACHE_ROOT = join(os.tmpdir(), "ralph-bench");
const DEFAULT_SIZES = [1000, 10_000, 30_000];

/** Identity for the commits both sides write, so a machine without git user config works too. */
const IDENTITY_ENV = {
  GIT_AUTHOR_NAME: "ralph bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "ralph bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};

const log = (line) => process.stderr.write(`${line}\n`);

function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    // The header comment of this file is the help.
    const lines = readFileSync(fileURLToPath(import.meta.url), "utf8")
      .split("\n")
      .slice(1);
    process.stdout.write(
      lines
        .slice(
          0,
          lines.findIndex((l) => !l.startsWith("//")),
        )
        .map((l) => l.slice(3))
        .join("\n") + "\n",
    );
    return 0;
  }
  const startMs = performance.now();
  const baseEnv = { ...process.env, ...IDENTITY_ENV, NO_COLOR: "1", RALPH_DEBUG: "" };
  // Validate every path before anything else, so a typo fails in a second, not after the generated repos.
  const targets = [...options.sizes.map((size) => ({ kind: "generated", size })), ...options.paths.map((path) => ({ kind: "path", top: findMainWorkTree(path, baseEnv) }))];
  if (options.build) buildRalph(options.cliPath);

  const machine = machineFacts(options.cliPath);
  const floor = measureFloor(Math.max(options.runs, 10), baseEnv);
  const result = { generatedAt: new Date().toISOString(), machine, runs: options.runs, floor, repos: [] };
  if (!options.json) process.stdout.write(renderHeader(result) + "\n");

  for (const target of targets) {
    const repo = target.kind === "generated" ? benchGenerated(target.size, options, baseEnv) : benchPath(target.top, options, baseEnv);
    result.repos.push(repo);
    if (!options.json) process.stdout.write(renderRepo(repo, floor) + "\n");
  }
  result.totalMs = Math.round(performance.now() - startMs);
  if (options.json) process.stdout.write(JSON.stringify(result, null, 2) + "\n");
  else process.stdout.write(renderLegend(result.totalMs) + "\n");
  return 0;
}

// ---------------------------------------------------------------------------
// Options, build, machine facts.

function parseOptions(argv) {
  const usage = "usage: node scripts/bench.mjs [--runs N] [--sizes 1000,10000] [--json] [--fresh] [--no-build] [--cli FILE] [PATH…]";
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        runs: { type: "string" },
        sizes: { type: "string" },
        json: { type: "boolean", default: false },
        fresh: { type: "boolean", default: false },
        "no-build": { type: "boolean", default: false },
        cli: { type: "string" },
        large: { type: "boolean", default: false },
        "no-daemon": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    fail(`${error.message}\n${usage}`);
  }
  const { values, positionals } = parsed;
  const runs = values.runs === undefined ? 5 : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 1000) fail(`--runs must be a whole number from 1 to 1000, got ${JSON.stringify(values.runs)}`);
  let sizes = positionals.length > 0 ? [] : [...DEFAULT_SIZES];
  if (values.sizes !== undefined) {
    sizes = values.sizes.split(",").map((s) => Number(s.trim().replace(/_/g, "").replace(/k$/i, "000")));
    if (sizes.some((n) => !Number.isInteger(n) || n < 10 || n > 1_000_000)) fail(`--sizes must list file counts from 10 to 1000000, like 1000,10000; got ${JSON.stringify(values.sizes)}`);
  }
  if (values.large && !sizes.includes(100_000)) sizes.push(100_000);
  const cliPath = values.cli === undefined ? DEFAULT_CLI_PATH : resolve(values.cli);
  const build = !values["no-build"] && values.cli === undefined;
  return { runs, sizes, paths: positionals, json: values.json, fresh: values.fresh, build, cliPath, help: values.help, daemon: !values["no-daemon"] };
}

/** `npm run build`; on failure one line on stderr, and the ralph rows will carry the error. */
function buildRalph(cliPath) {
  log("building ralph (npm run build) …");
  const result = runTimed("npm", ["run", "--silent", "build"], { cwd: PROJECT_ROOT, env: process.env });
  if (result.status !== 0) log(`bench: npm run build failed (${describeFailure(result)})`);
  if (!existsSync(cliPath)) log(`bench: ${cliPath} is missing; measuring native git only, every ralph row will show the error`);
}

function machineFacts(cliPath) {
  const cpus = os.cpus();
  let ralphVersion = "?";
  try {
    ralphVersion = JSON.parse(readFileSync(join(PROJECT_ROOT, "package.json"), "utf8")).version;
  } catch {
    // no readable package.json: the version stays "?"
  }
  return {
    node: process.version,
    git: runOrThrow("git", ["--version"])
      .trim()
      .replace(/^git version /, ""),
    cpus: cpus.length,
    cpuModel: (cpus[0]?.model ?? "unknown").replace(/\s+/g, " ").trim(),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    memoryGb: Math.round(os.totalmem() / 1e9),
    ralphVersion: cliPath === DEFAULT_CLI_PATH ? ralphVersion : "(--cli)",
    cli: cliPath,
    cliPresent: existsSync(cliPath),
  };
}

/** `node -e 0` and `git --version`, interleaved: what one process start costs on this machine. */
function measureFloor(runs, env) {
  const node = [];
  const git = [];
  for (let i = 0; i < runs; i++) {
    node.push(runTimed(process.execPath, ["-e", "0"], { env }).durationMs);
    git.push(runTimed("git", ["--version"], { env }).durationMs);
  }
  return { node: summarize(node), git: summarize(git) };
}

// ---------------------------------------------------------------------------
// Targets.

function benchGenerated(size, options, baseEnv) {
  const env = { ...baseEnv, ...isolatedGitEnv };
  const startMs = performance.now();
  let generated = ensureGeneratedRepo(CACHE_ROOT, size, { fresh: options.fresh, log });
  // The rows edit files and write refs in the cached repository: check it is as generated (restore it if a
  // killed run left it dirty, regenerate it if that fails), measure, restore it again.
  let state = generated.generatedMs === null ? restoreGeneratedRepo(generated.path, generated.stamp, env) : "generated";
  if (state === "broken") {
    log(`bench: ${generated.path} cannot be restored; regenerating it`);
    generated = ensureGeneratedRepo(CACHE_ROOT, size, { fresh: true, log });
    state = "generated";
  }
  const { path: root, stamp } = generated;
  const preparedMs = Math.round(performance.now() - startMs);
  const facts = { ...repoFacts(root, env), ignoredFiles: stamp.ignoredFiles };
  log(`measuring ${size} files (${root}) …`);
  let rows = measureRepo({ root, env, cliPath: options.cliPath, runs: options.runs, log });
  restoreGeneratedRepo(root, stamp, env);
  let rssBytes = null;
  if (options.daemon) {
    log(`measuring ${size} files through the warm process …`);
    const daemonRows = measureRepo({ root, env, cliPath: options.cliPath, runs: options.runs, log, mode: "daemon" });
    restoreGeneratedRepo(root, stamp, env);
    rssBytes = daemonRows.rssBytes ?? null;
    rows = mergeDaemonRows(rows, daemonRows);
  }
  return {
    daemonRssBytes: rssBytes,
    name: `generated ${size} files`,
    kind: "generated",
    path: root,
    workCopy: state,
    preparedMs,
    facts,
    rows,
  };
}

/** The top of the working tree that holds `path`; fails unless its .git is a folder we can copy whole. */
function findMainWorkTree(path, env) {
  const given = resolve(path);
  if (!existsSync(given)) fail(`${given} does not exist`);
  const top = gitOrFail(given, ["rev-parse", "--show-toplevel"], env, `${given} is not inside a git working tree`);
  let gitDirIsFolder = false;
  try {
    gitDirIsFolder = statSync(join(top, ".git")).isDirectory();
  } catch {
    // no .git at the top: not a folder either
  }
  if (!gitDirIsFolder) fail(`${top}: .git is not a folder (a linked worktree or submodule); pass the main working tree`);
  return top;
}

function benchPath(top, options, baseEnv) {
  removeStaleCopies();
  const copy = join(CACHE_ROOT, `path-${basename(top).replace(/[^\w.-]/g, "_")}-${process.pid}`);
  try {
    log(`copying ${top} to ${copy} (the original is never written) …`);
    const startMs = performance.now();
    copyRepo(top, copy, baseEnv);
    const preparedMs = Math.round(performance.now() - startMs);
    const facts = repoFacts(copy, baseEnv);
    log(`measuring ${copy} …`);
    let rows = measureRepo({ root: copy, env: baseEnv, cliPath: options.cliPath, runs: options.runs, log });
    let rssBytes = null;
    if (options.daemon) {
      // A fresh copy: the cold pass edited this one.
      rmSync(copy, { recursive: true, force: true });
      copyRepo(top, copy, baseEnv);
      log(`measuring ${copy} through the warm process …`);
      const daemonRows = measureRepo({ root: copy, env: baseEnv, cliPath: options.cliPath, runs: options.runs, log, mode: "daemon" });
      rssBytes = daemonRows.rssBytes ?? null;
      rows = mergeDaemonRows(rows, daemonRows);
    }
    return {
      daemonRssBytes: rssBytes,
      name: `path ${top}`,
      kind: "path",
      path: top,
      copy,
      workCopy: "copied",
      preparedMs,
      facts,
      rows,
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Removes copies left by runs that were killed (Ctrl-C ends the benchmark at
 * once: it runs synchronously, so a signal handler would only run at the end).
 * A copy whose process still runs belongs to a concurrent benchmark and stays.
 */
function removeStaleCopies() {
  let names;
  try {
    names = readdirSync(CACHE_ROOT);
  } catch {
    return;
  }
  for (const name of names) {
    const match = /^path-.*-(\d+)$/.exec(name);
    if (!match || isProcessAlive(Number(match[1]))) continue;
    rmSync(join(CACHE_ROOT, name), { recursive: true, force: true });
  }
}

function isProcessAlive(pid) {
  try {
    process.kill(pid, 0); // signal 0: existence check only
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

function gitOrFail(cwd, args, env, message) {
  const result = runTimed("git", args, { cwd, env });
  if (result.status !== 0) fail(`${message} (${describeFailure(result)})`);
  return result.stdout.trim();
}

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

process.exitCode = main();
