// The four measured rows on one repository work copy, ralph beside native git.
//
// Every row interleaves the two sides run by run (ralph first on odd runs,
// native first on even runs), so both see the same tree and the same page cache
// and drift in machine load hits both alike. A side that fails stops its own
// runs for that row and records one line (exit code + stderr tail); the other
// side and the other rows go on.
//
// Edits only ever go to regular files and real folders inside the work copy
// (lstat, never through a symlink: a copied repository's absolute symlinks
// still point at the original).
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeFailure, runOrThrow, runTimed, summarize } from "./proc.mjs";

/** What each row's native figure is, printed beside the table. */
export const NATIVE_OPS = {
  cold: "GIT_INDEX_FILE=<fresh tmp> git add -A; git write-tree; git commit-tree -p <prev>; git update-ref",
  warm: "same pipeline, tmp index kept from the previous run (10 files modified + 1 added since)",
  warmNoFsync: "the warm row again with RALPH_FSYNC=0 on ralph's side: the difference of the two ralph medians is what fsyncing a checkpoint's objects and refs costs",
  noop: "same pipeline, tmp index kept, nothing changed (git still writes a commit; ralph writes none)",
  check: "GIT_INDEX_FILE=<tmp> git diff --stat <rev> (ralph also parses and compares test facts)",
  check20: "the same, on a 20-file change (1 test case deleted, up to 9 other test files and 10 sources edited)",
  check20cold: "the same 20-file change with ralph's facts cache deleted before each run: every file is parsed (a change ralph has not seen)",
  check20commits: "git diff --stat <rev> <commit>: the 20-file change committed, ralph check --from <rev> --to <commit> (no work tree scan)",
};

const ROW_LABELS = {
  cold: "cold checkpoint",
  warm: "warm checkpoint",
  warmNoFsync: "warm, fsync off",
  noop: "no-op checkpoint",
  check: "check (5 files)",
  check20: "check (20 files)",
  check20cold: "check (20, unparsed)",
  check20commits: "check (20, commits)",
};

/** The ref native commits go to; the work copy is throwaway, so are the refs. */
const NATIVE_REF = "refs/bench/native";

/**
 * Measures all rows on `repo`, a throwaway work copy (its HEAD and index are
 * never touched either way).
 * @param {{ root: string, env: object, cliPath: string, runs: number, log: (line: string) => void }} repo
 */
export function measureRepo({ root, env, cliPath, runs, log, mode = "cold" }) {
  const gitDir = join(root, ".git");
  // cold: every ralph call in-process (RALPH_NO_DAEMON=1). daemon: every ralph call served by the work tree's warm
  // process (RALPH_DAEMON=require: started by the first call and waited for; a call it does not serve fails the row).
  const modeEnv = { ...env };
  delete modeEnv.CI;
  delete modeEnv.RALPH_DAEMON;
  delete modeEnv.RALPH_NO_DAEMON;
  if (mode === "daemon") Object.assign(modeEnv, { RALPH_DAEMON: "require", RALPH_DAEMON_IDLE_MS: "600000" });
  else modeEnv.RALPH_NO_DAEMON = "1";
  const ctx = {
    root,
    gitDir,
    env: modeEnv,
    cliPath,
    runs,
    log,
    nativeIndex: join(gitDir, "bench-native.index"),
    nativePrev: runTimed("git", ["rev-parse", "--verify", "-q", "HEAD"], { cwd: root, env }).stdout.trim() || null, // null: unborn branch
    files: listEditableFiles(root, env),
  };
  // ralph never snapshots its own state folder; keep native git from seeing it too, so both snapshot the same tree.
  const excludePath = join(gitDir, "info", "exclude");
  mkdirSync(join(gitDir, "info"), { recursive: true });
  if (!(existsSync(excludePath) && readFileSync(excludePath, "utf8").split("\n").includes("/.aiwg/"))) writeFileSync(excludePath, "\n/.aiwg/\n", { flag: "a" });

  const rows = [];
  const measureCheck20 = (c) => measureCheck(c, "check20", 20);
  const rowsToMeasure = [
    ["cold", measureCold],
    ["warm", measureWarm],
    ["warmNoFsync", (c) => measureWarm(c, "warmNoFsync", { RALPH_FSYNC: "0" })],
    ["noop", measureNoop],
    ["check", measureCheck],
    ["check20", measureCheck20],
    ["check20cold", measureCheckColdFacts],
    ["check20commits", measureCheckCommits],
  ];
  // The cold row deletes <git dir>/ralph (the warm process's socket with it); fsync off is a cold-path figure.
  const skipped = mode === "daemon" ? new Set(["cold", "warmNoFsync"]) : new Set();
  for (const [id, measure] of rowsToMeasure) {
    if (skipped.has(id)) continue;
    try {
      rows.push(measure(ctx));
    } catch (error) {
      // A setup step failed (e.g. the untimed snapshot `check` starts from): report the row, keep going.
      const message = `row not measured: ${error.message}`;
      rows.push({ ...emptyRow(id), ralphError: message, nativeError: message });
    }
  }
  if (mode === "daemon") {
    // The warm process's resident size after the rows (issue 12's memory goal), then stop it.
    const status = runTimed(process.execPath, [cliPath, "daemon", "status", "--json"], { cwd: root, env: modeEnv });
    try {
      rows.rssBytes = JSON.parse(status.stdout).rss_bytes ?? null;
    } catch {
      rows.rssBytes = null;
    }
    runTimed(process.execPath, [cliPath, "daemon", "stop"], { cwd: root, env: modeEnv });
  }
  return rows;
}

/**
 * The daemon pass's ralph figures beside the cold pass's rows: `daemon`,
 * `daemonError` and `daemonRatio` (daemon median / the daemon pass's native
 * median) on each row both passes measured.
 */
export function mergeDaemonRows(coldRows, daemonRows) {
  for (const row of coldRows) {
    const warm = daemonRows.find((r) => r.id === row.id);
    if (!warm) continue;
    row.daemon = warm.ralph;
    row.daemonError = warm.ralphError;
    row.daemonNative = warm.native;
    row.daemonRatio = warm.ratio;
  }
  return coldRows;
}

// ---------------------------------------------------------------------------
// Rows.

function measureCold(ctx) {
  return measureRow(ctx, "cold", {
    before: () => {},
    ralph: (run) => {
      rmSync(join(ctx.gitDir, "ralph"), { recursive: true, force: true }); // no stat cache
      return ralphCheckpoint(ctx, `bench-cold-${run}`);
    },
    native: () => {
      rmSync(ctx.nativeIndex, { force: true }); // no index: every file is hashed
      return nativeCheckpoint(ctx);
    },
  });
}

function measureWarm(ctx, id = "warm", ralphEnv = {}) {
  const loop = "bench-warm";
  return measureRow(ctx, id, {
    prime: () => {
      // An untimed checkpoint on each side fills ralph's stat cache and git's tmp index.
      const ralph = ralphCheckpoint(ctx, loop, ralphEnv);
      const native = nativeCheckpoint(ctx);
      return { ralph, native };
    },
    before: (run) => editForWarmRun(ctx, id === "warm" ? run : run + 1000),
    ralph: () => ralphCheckpoint(ctx, loop, ralphEnv),
    native: () => nativeCheckpoint(ctx),
  });
}

function measureNoop(ctx) {
  return measureRow(ctx, "noop", {
    before: () => {},
    ralph: () => ralphCheckpoint(ctx, "bench-warm"),
    native: () => nativeCheckpoint(ctx),
  });
}

function measureCheck(ctx, id = "check", files = 5) {
  // `from` is a snapshot of the tree as it is now (earlier edits included), then a `files`-file change on top.
  const testEdit = findTestCaseToDelete(ctx);
  const fromOid = nativeCheckpoint(ctx).commit;
  const changed = applyCheckChange(ctx, testEdit, files);
  const row = measureRow(ctx, id, {
    before: () => {},
    ralph: () => ralphCheck(ctx, fromOid),
    native: () => nativeDiffStat(ctx, [fromOid]),
  });
  row.notes.unshift(`change: ${changed.join(", ")}`);
  ctx.lastCheck = { fromOid, changed };
  return row;
}

/** The check20 row again, with the facts cache deleted before each ralph run (the V8 code cache is kept: it is per repository, not per change). */
function measureCheckColdFacts(ctx) {
  if (!ctx.lastCheck) throw new Error("the 20-file check row did not run");
  const { fromOid } = ctx.lastCheck;
  return measureRow(ctx, "check20cold", {
    before: () => {},
    ralph: () => {
      rmSync(join(ctx.gitDir, "ralph", "facts"), { recursive: true, force: true });
      return ralphCheck(ctx, fromOid);
    },
    native: () => nativeDiffStat(ctx, [fromOid]),
  });
}

/** The 20-file change committed (natively, untimed): a check between two commits reads no work tree. */
function measureCheckCommits(ctx) {
  if (!ctx.lastCheck) throw new Error("the 20-file check row did not run");
  const { fromOid } = ctx.lastCheck;
  const toOid = nativeCheckpoint(ctx).commit;
  return measureRow(ctx, "check20commits", {
    before: () => {},
    ralph: () => ralphCheck(ctx, fromOid, toOid),
    native: () => nativeDiffStat(ctx, [fromOid, toOid]),
  });
}

/** `git diff --stat <revs…>` with the bench's private index, timed. */
function nativeDiffStat(ctx, revs) {
  const env = { ...ctx.env, GIT_INDEX_FILE: ctx.nativeIndex };
  const result = runTimed("git", ["diff", "--stat", ...revs], { cwd: ctx.root, env });
  if (result.status !== 0) throw new SideError(describeFailure(result));
  return { durationMs: result.durationMs };
}

function emptyRow(id) {
  return { id, label: ROW_LABELS[id], nativeOp: NATIVE_OPS[id], ralph: null, ralphError: null, native: null, nativeError: null, ratio: null, notes: [] };
}

/**
 * The shared loop of a row: optional untimed prime, then `runs` interleaved runs,
 * each after `before(run)`. A side returns `{ durationMs, ... }`, or `{ error }`
 * (ralph's failures) or throws SideError (git's failures): that side stops for the row.
 */
function measureRow(ctx, id, { prime, before, ralph, native }) {
  const row = emptyRow(id);
  const samples = { ralph: [], native: [] };
  const errors = { ralph: null, native: null };
  const results = { ralph: [], native: [] };
  const sides = { ralph, native };

  if (prime) {
    try {
      const primed = prime();
      if (primed.ralph.error) errors.ralph = `untimed first checkpoint: ${primed.ralph.error}`;
    } catch (error) {
      if (!(error instanceof SideError)) throw error;
      errors.native = `untimed first checkpoint: ${error.message}`;
    }
  }

  for (let run = 1; run <= ctx.runs; run++) {
    before(run);
    const order = run % 2 === 1 ? ["ralph", "native"] : ["native", "ralph"];
    for (const side of order) {
      if (errors[side]) continue;
      try {
        const result = sides[side](run);
        if (result.error) {
          errors[side] = `${result.error}${samples[side].length > 0 ? ` (after ${samples[side].length} good run(s))` : ""}`;
          continue;
        }
        samples[side].push(result.durationMs);
        results[side].push(result);
      } catch (error) {
        if (!(error instanceof SideError)) throw error;
        errors[side] = error.message;
      }
    }
    ctx.log(`  ${id} ${run}/${ctx.runs}`);
  }

  row.ralph = errors.ralph ? null : summarize(samples.ralph);
  row.ralphError = errors.ralph;
  row.native = errors.native ? null : summarize(samples.native);
  row.nativeError = errors.native;
  if (row.ralph && row.native) row.ratio = Math.round((row.ralph.medianMs / row.native.medianMs) * 100) / 100;
  row.notes.push(...sanityNotes(ctx, id, results));
  return row;
}

/** Checks what the runs reported: ralph's `changed` flag, ralph's tree vs native's tree, check's findings. */
function sanityNotes(ctx, id, results) {
  const notes = [];
  const ralphRuns = results.ralph;
  if (id === "cold" || id === "warm" || id === "warmNoFsync" || id === "noop") {
    const expectChanged = id !== "noop";
    const wrong = ralphRuns.filter((r) => r.changed !== expectChanged).length;
    if (wrong > 0) notes.push(`WARNING: ${wrong} ralph run(s) reported changed=${!expectChanged}, expected ${expectChanged}`);
  }
  if ((id === "cold" || id === "warm" || id === "warmNoFsync") && ralphRuns.length > 0 && results.native.length > 0) {
    // Run 1 of each side saw the same tree: the snapshots must be identical.
    const ralphTree = treeOf(ctx, ralphRuns[0].oid);
    const nativeTree = results.native[0].tree;
    if (ralphTree === nativeTree) notes.push(`run 1 trees identical (${nativeTree.slice(0, 12)})`);
    else notes.push(`WARNING: run 1 trees differ: ralph ${String(ralphTree).slice(0, 12)} vs native ${nativeTree.slice(0, 12)}; ${describeTreeDiff(ctx, ralphTree, nativeTree)}`);
  }
  if (id.startsWith("check") && ralphRuns.length > 0) {
    const { verdict, findings } = ralphRuns[0].report;
    const byType = {};
    for (const finding of findings) byType[finding.type] = (byType[finding.type] ?? 0) + 1;
    const summary =
      Object.entries(byType)
        .map(([type, n]) => `${type} ${n}`)
        .join(", ") || "none";
    notes.push(`ralph verdict ${verdict}, findings: ${summary}`);
    if (!byType.test_deletion) notes.push("WARNING: expected a test_deletion finding for the deleted test case");
  }
  return notes;
}

// ---------------------------------------------------------------------------
// The two sides.

/** Thrown by a side for a failure that ends that side's runs in the row (not the benchmark). */
class SideError extends Error {}

/**
 * `ralph checkpoint --loop <loop> -m bench --json`, timed. Returns `{ durationMs, oid, changed }`
 * or `{ error }` with a one-line description.
 */
function ralphCheckpoint(ctx, loop, extraEnv = {}) {
  const result = runTimed(process.execPath, [ctx.cliPath, "checkpoint", "--loop", loop, "-m", "bench", "--json"], { cwd: ctx.root, env: { ...ctx.env, ...extraEnv } });
  if (result.status !== 0) return { error: `ralph checkpoint ${describeFailure(result)}` };
  let parsed;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    return { error: `ralph checkpoint exit 0 but --json output is not one JSON object: ${JSON.stringify(result.stdout.slice(0, 120))}` };
  }
  if (typeof parsed !== "object" || parsed === null || typeof parsed.changed !== "boolean") {
    return { error: `ralph checkpoint --json output lacks "changed": ${JSON.stringify(result.stdout.slice(0, 120))}` };
  }
  return { durationMs: result.durationMs, oid: parsed.oid, changed: parsed.changed };
}

/** `ralph check --from <oid> --to <to> --format json` (default WORKTREE), timed; exit 0 (pass) and 1 (findings) are both fine. */
function ralphCheck(ctx, fromOid, to = "WORKTREE") {
  const result = runTimed(process.execPath, [ctx.cliPath, "check", "--from", fromOid, "--to", to, "--format", "json"], { cwd: ctx.root, env: ctx.env });
  if (result.status !== 0 && result.status !== 1) return { error: `ralph check ${describeFailure(result)}` };
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    return { error: `ralph check ${describeFailure(result)} (stdout is not JSON: ${JSON.stringify(result.stdout.slice(0, 80))})` };
  }
  if (!Array.isArray(report?.findings)) return { error: `ralph check output lacks a findings array: ${JSON.stringify(result.stdout.slice(0, 120))}` };
  return { durationMs: result.durationMs, report };
}

/**
 * The native plumbing a checkpoint is compared with, as four fresh git
 * processes timed together: add -A into a private index, write-tree,
 * commit-tree on the previous native commit, update-ref.
 */
function nativeCheckpoint(ctx) {
  const env = { ...ctx.env, GIT_INDEX_FILE: ctx.nativeIndex };
  const step = (args) => {
    const result = runTimed("git", args, { cwd: ctx.root, env });
    if (result.status !== 0) throw new SideError(`git ${args[0]} ${describeFailure(result)}`);
    return result.stdout.trim();
  };
  const startMs = performance.now();
  step(["add", "-A"]);
  const tree = step(["write-tree"]);
  const commit = step(["commit-tree", tree, ...(ctx.nativePrev ? ["-p", ctx.nativePrev] : []), "-m", "x"]);
  step(["update-ref", NATIVE_REF, commit]);
  const durationMs = performance.now() - startMs;
  ctx.nativePrev = commit;
  return { durationMs, tree, commit };
}

function treeOf(ctx, commitOid) {
  if (typeof commitOid !== "string" || !/^[0-9a-f]{40,64}$/.test(commitOid)) return `(no oid in ralph's output: ${JSON.stringify(commitOid)})`;
  const result = runTimed("git", ["rev-parse", `${commitOid}^{tree}`], { cwd: ctx.root, env: ctx.env });
  return result.status === 0 ? result.stdout.trim() : `(unreadable: ${describeFailure(result)})`;
}

function describeTreeDiff(ctx, a, b) {
  const result = runTimed("git", ["diff-tree", "-r", "--name-status", a, b], { cwd: ctx.root, env: ctx.env });
  if (result.status !== 0) return "cannot diff them";
  const lines = result.stdout.trim().split("\n").filter(Boolean);
  return `${lines.length} path(s) differ, e.g. ${lines
    .slice(0, 3)
    .map((l) => l.replace("\t", " "))
    .join("; ")}`;
}

// ---------------------------------------------------------------------------
// Edits to the work copy.

const COMMENT_PREFIX = [
  [/\.(py|rb|sh|bash|zsh|ya?ml|toml|r|pl|ex|exs|nix|mk|cfg|ini|conf)$|(^|\/)(Makefile|Dockerfile)$/i, "# "],
  [/\.(md|html?|xml|svg|vue)$/i, "<!-- ", " -->"],
  [/\.(css|scss|less)$/i, "/* ", " */"],
  [/\.(sql|lua|hs)$/i, "-- "],
];

/** Appends a line that is a comment in the file's language (or an export in TypeScript/JavaScript). */
function appendEdit(ctx, path, tag) {
  const abs = join(ctx.root, path);
  let line;
  if (/\.(ts|tsx|js|jsx|mjs|cjs|mts|cts)$/.test(path) && !/\.d\.ts$/.test(path)) line = `export const ralphBench_${tag.replace(/\W/g, "_")} = 1;`;
  else {
    const match = COMMENT_PREFIX.find(([re]) => re.test(path));
    line = match ? `${match[1]}ralph-bench ${tag}${match[2] ?? ""}` : `// ralph-bench ${tag}`;
  }
  const content = readFileSync(abs);
  const separator = content.length > 0 && content[content.length - 1] !== 0x0a ? "\n" : "";
  writeFileSync(abs, Buffer.concat([content, Buffer.from(`${separator}${line}\n`)]));
}

/** Run `run` of the warm row: 10 tracked files modified (different ones each run), 1 new file. */
function editForWarmRun(ctx, run) {
  const { sources } = ctx.files;
  for (let k = 0; k < 10; k++) {
    const index = (Math.floor(((k + 0.5) * sources.length) / 10) + run) % sources.length;
    appendEdit(ctx, sources[index], `warm ${run}.${k}`);
  }
  writeFileSync(join(ctx.root, `${newFileFolder(ctx)}ralph-bench-new-${run}.ts`), `export const added${run} = ${run};\n`);
}

/** Where the bench adds files: `src/` when it is a real folder, else the root. */
function newFileFolder(ctx) {
  return lstatOrNull(join(ctx.root, "src"))?.isDirectory() ? "src/" : "";
}

function lstatOrNull(path) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * Picks a test file with a removable `it(`/`test(` block. If the repository
 * has none, writes one (before `from` is snapshotted, so deleting from it is a
 * real test deletion). Returns `{ path, start, end }` (0-based line range to delete).
 */
function findTestCaseToDelete(ctx) {
  for (const path of ctx.files.tests) {
    const range = findTestBlock(readFileSync(join(ctx.root, path), "utf8"));
    if (range) return { path, ...range };
  }
  const path = `${newFileFolder(ctx)}ralph-bench.test.ts`;
  const cases = [1, 2, 3].map((n) => `  it("keeps case ${n}", () => {\n    expect(${n} + ${n}).toBe(${2 * n});\n  });\n`).join("\n");
  const text = `import { describe, it, expect } from "vitest";\n\ndescribe("ralph bench", () => {\n${cases}});\n`;
  writeFileSync(join(ctx.root, path), text);
  return { path, ...findTestBlock(text) };
}

/** The line range of the first `it(`/`test(` block closed by `<same indent>});`. */
function findTestBlock(text) {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(it|test)\s*\(\s*["'`]/.exec(lines[i]);
    if (!open) continue;
    const close = lines.findIndex((line, j) => j > i && line === `${open[1]}});`);
    if (close > i) return { start: i, end: close };
  }
  return null;
}

/**
 * A check row's change: one test case deleted, then (for more than 5 files)
 * up to 9 other test files edited (so the parser runs on them), the rest
 * sources. Returns the changed paths.
 */
function applyCheckChange(ctx, testEdit, files = 5) {
  const abs = join(ctx.root, testEdit.path);
  const lines = readFileSync(abs, "utf8").split("\n");
  lines.splice(testEdit.start, testEdit.end - testEdit.start + 1);
  writeFileSync(abs, lines.join("\n"));
  const changed = [`${testEdit.path} (-1 test)`];
  const { sources, tests } = ctx.files;
  if (files > 5) {
    for (const path of tests.filter((p) => p !== testEdit.path).slice(0, Math.min(9, files - 5))) {
      appendEdit(ctx, path, "check test");
      changed.push(path);
    }
  }
  const edited = new Set(changed);
  for (let k = 0; changed.length < files && k < 4 * sources.length; k++) {
    // The first four spread over the quarters of the list (the 5-file row as before); more step through it.
    const index = k < 4 ? Math.floor(((k + 0.25) * sources.length) / 4) + 7 : k * 37 + 11;
    const path = sources[index % sources.length];
    if (edited.has(path)) continue;
    edited.add(path);
    appendEdit(ctx, path, `check ${k}`);
    changed.push(path);
  }
  return changed;
}

/**
 * Tracked files the bench may edit: `sources` (code under 100 KB, tests
 * excluded; in a repository with little code, other text files that take a
 * comment) and `tests` (`*.test.ts` first, then other JS/TS test files, for the check row).
 */
function listEditableFiles(root, env) {
  const all = runOrThrow("git", ["ls-files", "-z"], { cwd: root, env }).split("\0").filter(Boolean);
  const isTest = (p) => /\.(test|spec)\.[cm]?[jt]sx?$/.test(p);
  const isGitControl = (p) => /(^|\/)\.git\w*$/.test(p); // .gitignore & co. change what is scanned: never edit them
  const isCode = (p) => /\.([cm]?[jt]sx?|py|go|rs|java|kt|rb|c|h|cc|cpp|hpp|cs|swift|php|scala|sh)$/.test(p) && !/\.d\.ts$/.test(p);
  const isSmallFile = (p) => {
    const stat = lstatOrNull(join(root, p)); // a symlink is not a file to edit
    return stat !== null && stat.isFile() && stat.size < 100 * 1024;
  };
  const hasNoComments = (p) => /\.(json|lock)$/.test(p); // an appended line would make them invalid, and package.json is analysed
  let sources = all.filter((p) => isCode(p) && !isTest(p) && isSmallFile(p));
  if (sources.length < 14) sources = all.filter((p) => !isTest(p) && !isGitControl(p) && !hasNoComments(p) && isSmallFile(p));
  if (sources.length === 0) sources = all.filter((p) => !isGitControl(p) && isSmallFile(p));
  if (sources.length === 0) throw new Error("no tracked file under 100 KB to edit in this repository");
  const tests = all.filter((p) => /\.test\.[cm]?tsx?$/.test(p) && isSmallFile(p)).concat(all.filter((p) => /\.(test|spec)\.[cm]?jsx?$|\.spec\.[cm]?tsx?$/.test(p) && isSmallFile(p)));
  return { sources, tests };
}
