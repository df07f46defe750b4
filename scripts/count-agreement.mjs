#!/usr/bin/env node
// Test-count agreement: compares the test cases `ralph tests --json` sees in a
// clone with what the framework's own collector lists, and prints, per file
// where the two differ, both counts; then the totals and their ratio
// (ralph / collector). It is a measuring tool: it exits 0 whatever it finds
// (2 only for bad usage, e.g. a directory that is not a git repository).
//
//   node scripts/count-agreement.mjs <clone-dir> [--collector vitest|jest|pytest|go|cargo|maven|none]
//                                    [--run] [--ralph "node dist/cli.js"] [--json]
//
// <clone-dir> must be a git repository with a work tree (ralph reads WORKTREE).
// For a snapshot without one: copy it, then `git init && git add -A && git commit -m snapshot`.
// The collector must already be runnable in the clone (node_modules installed,
// PYTHONPATH set, crates available...): this script installs nothing.
//
// Collectors (without --collector: one per language ralph found, when its tool runs):
//   vitest  node_modules/.bin/vitest list --json          names `suite > test`, file paths
//   jest    node_modules/.bin/jest --listTests            files only: jest has no per-test listing
//           without running; --run runs `jest --json` and counts its assertionResults
//   pytest  python3 -m pytest --collect-only -q           node ids `path::Class::test[param]`
//   go      go test -list '.*' ./...                      top-level Test*/Fuzz*/Example* names per package
//   cargo   cargo test --lib --tests -- --list --format terse   `name: test` lines (doc tests not counted)
//   maven   mvn -B test (only with --run: it runs the tests) then target/surefire-reports/TEST-*.xml
//   none    no collector: ralph's per-file counts beside a regex estimate of the test declarations
//           in each file, to guide a careful reading (an estimate, not a collector)
//
// Counting: ralph's JSON lists one entry per test declaration (a literal
// `.each`/parametrize table is one entry; its rows are not in the JSON), and
// Go subtests (`TestX > sub`) separately. Collectors list instances, so each
// parametrised instance is folded back onto the declaration it came from:
// pytest `[param]` ids by name, vitest/jest names by matching ralph's name
// template (`%s`, `$var`, `${...}`); the unfolded instance count is shown
// too. Go is compared on top-level functions only (go test -list does not
// list subtests).
//
// The clone is read, never modified (ralph tests writes only objects under the
// clone's .git; collectors may write their usual caches/build output).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const COLLECTOR_NAMES = ["vitest", "jest", "pytest", "go", "cargo", "maven", "none"];
const USAGE = `usage: count-agreement.mjs <clone-dir> [--collector ${COLLECTOR_NAMES.join("|")}] [--run] [--ralph "node dist/cli.js"] [--json]`;
const args = process.argv.slice(2);
let ralph = `node ${join(ROOT, "dist/cli.js")}`;
let asJson = false;
let runTests = false;
let chosen = null;
let clone = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--ralph") ralph = args[++i];
  else if (args[i] === "--json") asJson = true;
  else if (args[i] === "--run") runTests = true;
  else if (args[i] === "--collector") chosen = args[++i];
  else if (args[i].startsWith("--collector=")) chosen = args[i].slice("--collector=".length);
  else if (args[i] === "-h" || args[i] === "--help") {
    console.log(USAGE);
    process.exit(0);
  } else if (args[i].startsWith("-")) {
    console.error(`count-agreement: unknown option ${args[i]}\n${USAGE}`);
    process.exit(2);
  } else clone = resolve(args[i]);
}
if (chosen !== null && !COLLECTOR_NAMES.includes(chosen)) {
  console.error(`count-agreement: unknown collector ${chosen}\n${USAGE}`);
  process.exit(2);
}
if (!clone || !existsSync(join(clone, ".git"))) {
  console.error(`count-agreement: pass the path of a git clone with a work tree (git init && git add -A && git commit a copy of a bare snapshot)\n${USAGE}`);
  process.exit(2);
}

/** Runs a command in the clone; returns { ok, status, stdout, stderr, error }. */
function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { cwd: clone, encoding: "utf8", maxBuffer: 1024 * 1024 * 1024, ...options });
  return { ok: result.status === 0, status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "", error: result.error };
}
const tail = (text, lines = 3) => text.trim().split("\n").slice(-lines).join(" | ");
const toPosix = (path) => path.split(sep).join("/");
const relativeToClone = (path) => toPosix(relative(clone, resolve(clone, path)));

// ---------------------------------------------------------------- ralph's side
const [ralphCommand, ...ralphArgs] = ralph.split(/\s+/);
const ralphRun = run(ralphCommand, [...ralphArgs, "tests", "--json"]);
if (!ralphRun.ok) {
  console.error(`count-agreement: ralph tests failed (exit ${ralphRun.status}): ${tail(ralphRun.stderr || ralphRun.stdout)}`);
  process.exit(2);
}
const ralphOutput = JSON.parse(ralphRun.stdout);
const ralphTests = ralphOutput.tests;
const unparsable = ralphOutput.unparsable ?? [];

const LANGUAGE_OF = [
  [/\.py$/, "python"],
  [/\.go$/, "go"],
  [/\.rs$/, "rust"],
  [/\.(java|kt)$/, "java"],
  [/\.cs$/, "csharp"],
  [/\.rb$/, "ruby"],
  [/\.php$/, "php"],
  [/\.[cm]?[jt]sx?$/, "javascript"],
];
const languageOf = (file) => LANGUAGE_OF.find(([pattern]) => pattern.test(file))?.[1] ?? "other";
const segments = (test) => test.id.split(" > ");

/** The collector to use for a language when none is chosen, or null. */
function defaultCollector(language) {
  if (language === "python") return "pytest";
  if (language === "go") return "go";
  if (language === "rust") return "cargo";
  if (language === "java") return "maven";
  if (language === "javascript") {
    let manifest = {};
    try {
      manifest = JSON.parse(readFileSync(join(clone, "package.json"), "utf8"));
    } catch {
      // no readable package.json: no dependencies to tell the runner by
    }
    const deps = { ...manifest.dependencies, ...manifest.devDependencies };
    if (deps.vitest) return "vitest";
    if (deps.jest) return "jest";
  }
  return null;
}
const LANGUAGE_OF_COLLECTOR = { vitest: "javascript", jest: "javascript", pytest: "python", go: "go", cargo: "rust", maven: "java" };

// ---------------------------------------------------------------- folding
/** A regex for the names a templated test name (`adds %i + %i`, `$a + $b`, `${...}`) expands to. */
function templateRegex(name) {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = escaped
    .replace(/%[sdifjoOcp#%]/g, "[\\s\\S]*?")
    .replace(/\\\$\\\{[^}]*\\\}/g, "[\\s\\S]*?")
    .replace(/\\\$[\w.]+/g, "[\\s\\S]*?");
  return pattern === escaped ? null : new RegExp(`^${pattern}$`);
}

/**
 * Folds one file's collected instance names onto ralph's declarations in that
 * file: an exact name match (a title declared twice is two declarations; a
 * literal title listed more often than declared is a loop's repeat), else a
 * template match (`%s`, `$a`), else, for a name built at run time (`it(name)`
 * in a forEach), a declaration of the same suite that nothing else matched.
 * Returns the folded count (declarations matched + names nothing explains),
 * the names nothing explains and the declarations nothing matched.
 */
function foldNames(collected, declarations) {
  const remaining = new Map();
  for (const name of declarations) remaining.set(name, (remaining.get(name) ?? 0) + 1);
  const literal = new Set(declarations);
  const templates = declarations.map((name, index) => [index, templateRegex(name)]).filter(([, regex]) => regex);
  const matched = new Set(); // declaration indexes
  const loose = [];
  for (const name of collected) {
    if (literal.has(name)) {
      const left = remaining.get(name);
      if (left > 0) {
        remaining.set(name, left - 1);
        const index = declarations.findIndex((declaration, i) => declaration === name && !matched.has(i));
        if (index >= 0) matched.add(index);
      }
      continue;
    }
    const hit = templates.find(([, regex]) => regex.test(name));
    if (hit) matched.add(hit[0]);
    else loose.push(name);
  }
  const suiteOf = (name) => name.split(" > ").slice(0, -1).join(" > ");
  const unexplained = [];
  const foldedBySuite = new Set();
  for (const name of loose) {
    const index = declarations.findIndex((declaration, i) => (!matched.has(i) || foldedBySuite.has(i)) && suiteOf(declaration) === suiteOf(name) && !literal.has(name));
    if (index >= 0 && !matched.has(index)) {
      matched.add(index);
      foldedBySuite.add(index);
    } else if (index >= 0 && foldedBySuite.has(index)) continue;
    else unexplained.push(name);
  }
  const distinctUnexplained = [...new Set(unexplained)];
  return {
    folded: matched.size + distinctUnexplained.length,
    unexplained: distinctUnexplained,
    unmatched: declarations.filter((_, i) => !matched.has(i)),
    foldedBySuite: [...foldedBySuite].map((i) => declarations[i]),
  };
}

// ---------------------------------------------------------------- collectors
// Each returns { error } or { perFile: Map<file, {instances, names[]}>, filesOnly?, note? }.

function nodeBin(name) {
  const bin = join(clone, "node_modules", ".bin", name);
  return existsSync(bin) ? bin : null;
}

function collectVitest() {
  const bin = nodeBin("vitest");
  if (!bin) return { error: "node_modules/.bin/vitest not found (install the clone's dependencies first)" };
  const result = run(bin, ["list", "--json"], { env: { ...process.env, CI: "1", NO_COLOR: "1" } });
  // test files may print on import (a node:test file prints TAP), so take the JSON array on its own lines
  const start = result.stdout.search(/^\[/m);
  const end = result.stdout.search(/^\[\]\s*$/m) === start ? start + 2 : result.stdout.lastIndexOf("\n]") + 2;
  let entries;
  try {
    entries = JSON.parse(result.stdout.slice(start, end));
  } catch {
    return { error: `vitest list --json printed no JSON: ${tail(result.stderr || result.stdout)}` };
  }
  const perFile = new Map();
  for (const entry of entries) {
    const file = relativeToClone(entry.file);
    if (!perFile.has(file)) perFile.set(file, { instances: 0, names: [] });
    perFile.get(file).instances++;
    perFile.get(file).names.push(entry.name);
  }
  return { perFile, note: result.ok ? undefined : `vitest exited ${result.status}: ${tail(result.stderr)}` };
}

function collectJest() {
  const bin = nodeBin("jest");
  if (!bin) return { error: "node_modules/.bin/jest not found (install the clone's dependencies first)" };
  if (!runTests) {
    const result = run(bin, ["--listTests"]);
    if (!result.ok) return { error: `jest --listTests failed: ${tail(result.stderr)}` };
    const perFile = new Map();
    for (const line of result.stdout
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean))
      perFile.set(relativeToClone(line), { instances: null, names: [] });
    return { perFile, filesOnly: true, note: "jest --listTests lists files only: per-test counts are not available from jest without running the tests (pass --run)" };
  }
  const result = run(bin, ["--json", "--silent", "--ci"], { env: { ...process.env, CI: "1" } });
  const start = result.stdout.indexOf("{");
  let report;
  try {
    report = JSON.parse(result.stdout.slice(start));
  } catch {
    return { error: `jest --json printed no JSON: ${tail(result.stderr)}` };
  }
  const perFile = new Map();
  for (const suite of report.testResults ?? []) {
    const file = relativeToClone(suite.name ?? suite.testFilePath);
    const names = (suite.assertionResults ?? []).map((a) => [...(a.ancestorTitles ?? []), a.title].join(" > "));
    perFile.set(file, { instances: names.length, names });
  }
  const failedSuites = (report.testResults ?? []).filter((s) => s.status === "failed" && (s.assertionResults ?? []).length === 0).length;
  return { perFile, note: `ran the tests (jest --json)${failedSuites ? `; ${failedSuites} suites failed to load` : ""}` };
}

function collectPytest() {
  const result = run("python3", ["-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]);
  if (result.error) return { error: `python3 not runnable: ${result.error.message}` };
  const lines = result.stdout.split("\n").map((line) => line.trim());
  const ids = lines.filter((line) => line.includes("::") && !line.startsWith("ERROR"));
  if (ids.length === 0) return { error: tail(result.stdout + result.stderr) || "pytest collected nothing" };
  const perFile = new Map();
  for (const id of ids) {
    const [path, ...rest] = id.split("::");
    const file = relativeToClone(path);
    if (!perFile.has(file)) perFile.set(file, { instances: 0, names: [] });
    perFile.get(file).instances++;
    perFile.get(file).names.push(rest.join(" > ").replace(/\[[\s\S]*\]$/, ""));
  }
  const errors = lines.filter((line) => /^ERROR /.test(line));
  return { perFile, note: errors.length ? `${errors.length} collection errors: ${errors.slice(0, 3).join("; ")}` : undefined };
}

function collectGo() {
  const packages = run("go", ["list", "-f", "{{.ImportPath}}\t{{.Dir}}", "./..."]);
  if (packages.error) return { error: `go is not available: ${packages.error.message}` };
  const dirOf = new Map(
    packages.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split("\t"))
      .map(([path, dir]) => [path, relativeToClone(dir)]),
  );
  const result = run("go", ["test", "-list", ".*", "./..."]);
  const perFile = new Map(); // keyed by package directory: go test -list does not say which file
  let pending = [];
  for (const line of result.stdout.split("\n")) {
    const match = /^(ok|FAIL|\?)\s+(\S+)/.exec(line);
    if (match) {
      const dir = `${dirOf.get(match[2]) ?? match[2]}/`;
      if (pending.length) perFile.set(dir, { instances: pending.length, names: pending });
      pending = [];
    } else if (/^(Test|Fuzz|Example)\w*$/.test(line.trim())) pending.push(line.trim());
  }
  if (perFile.size === 0) return { error: tail(result.stderr) || "go test -list listed nothing" };
  return { perFile, byDirectory: true, note: result.ok ? undefined : `go test exited ${result.status}: ${tail(result.stderr, 2)}` };
}

function collectCargo() {
  const offline = process.env.CARGO_OFFLINE === "1" ? " --offline" : "";
  // one stream, so each `Running <target source>` line precedes the list of that target
  const result = run("sh", ["-c", `cargo test --lib --tests${offline} -- --list --format terse 2>&1`], { env: { ...process.env, CARGO_TERM_COLOR: "never" } });
  if (result.error) return { error: `cargo is not available: ${result.error.message}` };
  const perFile = new Map(); // keyed by the target's root file; ralph's tests are attributed to targets below
  let target = "(unknown target)";
  let count = 0;
  for (const line of result.stdout.split("\n")) {
    const running = /^\s*Running (?:unittests )?(\S+) \(/.exec(line);
    if (running) target = relativeToClone(running[1]);
    else if (line.endsWith(": test")) {
      if (!perFile.has(target)) perFile.set(target, { instances: 0, names: [] });
      perFile.get(target).instances++;
      perFile.get(target).names.push(line.slice(0, -": test".length).split("::").join(" > "));
      count++;
    }
  }
  if (count === 0 && !result.ok) return { error: tail(result.stdout) };
  return { perFile, byTarget: true, note: result.ok ? undefined : `cargo exited ${result.status}: ${tail(result.stdout, 2)}` };
}

function collectMaven() {
  if (!runTests) return { error: "maven has no listing without running the tests: pass --run to run `mvn -B test` and read target/surefire-reports" };
  const result = run("mvn", ["-B", "-q", "test", "-Dmaven.test.failure.ignore=true", ...(process.env.MAVEN_OFFLINE === "1" ? ["-o"] : [])]);
  if (result.error) return { error: `mvn is not available: ${result.error.message}` };
  const reports = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name === ".git") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/^TEST-.*\.xml$/.test(name) && dir.endsWith(`surefire-reports`)) reports.push(path);
    }
  };
  walk(clone);
  if (reports.length === 0) return { error: `no surefire reports: ${tail(result.stdout + result.stderr)}` };
  const javaFiles = new Map(); // class name -> test source file
  for (const test of ralphTests)
    javaFiles.set(
      test.file
        .replace(/^.*\/src\/test\/java\//, "")
        .replace(/\.(java|kt)$/, "")
        .split("/")
        .join("."),
      test.file,
    );
  const perFile = new Map();
  for (const report of reports) {
    for (const match of readFileSync(report, "utf8").matchAll(/<testcase\s+name="([^"]*)"\s+classname="([^"]*)"/g)) {
      const file = javaFiles.get(match[2].replace(/\$.*$/, "")) ?? match[2];
      if (!perFile.has(file)) perFile.set(file, { instances: 0, names: [] });
      perFile.get(file).instances++;
      perFile.get(file).names.push(`${match[2].split(".").pop().split("$").join(" > ")} > ${match[1].replace(/[[(][\s\S]*$/, "")}`);
    }
  }
  return { perFile, note: `ran the tests (${reports.length} surefire reports)` };
}

/** No collector: a regex estimate of declarations per file (a reading aid, not a collector). */
const ESTIMATE = {
  python: /^\s*(?:async\s+)?def\s+test\w*\s*\(/gm,
  go: /^func\s+(?:Test|Fuzz|Example)\w*\s*\(/gm,
  rust: /#\[(?:\w+::)*test\b/g,
  java: /@(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/g,
  csharp: /\[(?:Fact|Theory|Test|TestCase|TestMethod)\b/g,
  javascript: /(?:^|[^.\w$])(?:it|test)(?:\.(?:skip|only|todo|concurrent|each|for))*\s*[(`]/gm,
  ruby: /^\s*(?:it|specify|scenario)\b|^\s*def\s+test_/gm,
  php: /function\s+test\w*\s*\(|@test\b|#\[Test\]/g,
};
function estimateByReading(ralphFiles) {
  // every tracked file of the same languages, so test files ralph found nothing in show up too
  const languages = new Set(ralphFiles.map(languageOf));
  const tracked = run("git", ["ls-files", "-z"])
    .stdout.split("\0")
    .filter((file) => file && languages.has(languageOf(file)));
  const files = [...new Set([...ralphFiles, ...tracked])];
  const perFile = new Map();
  for (const file of files) {
    const pattern = ESTIMATE[languageOf(file)];
    let text = "";
    try {
      text = readFileSync(join(clone, file), "utf8");
    } catch {
      // unreadable (deleted, a broken link): counted as empty
    }
    const count = pattern ? (text.match(pattern) ?? []).length : null;
    if (count !== 0 || ralphFiles.includes(file)) perFile.set(file, { instances: count, names: [] });
  }
  return { perFile, estimate: true, note: "regex estimate per file (no collector run): read the files that differ" };
}

const COLLECT = { vitest: collectVitest, jest: collectJest, pytest: collectPytest, go: collectGo, cargo: collectCargo, maven: collectMaven };

// ---------------------------------------------------------------- compare
/** ralph's tests that a collector key (file, package directory or cargo target) covers. */
function ralphGroups(tests, collected) {
  const groups = new Map();
  const add = (key, test) => {
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(test);
  };
  if (collected.byDirectory) {
    for (const test of tests) add(`${dirname(test.file) === "." ? "." : dirname(test.file)}/`.replace(/^\.\/$/, "./"), test);
    // go list prints the root package's directory as ""
    if (groups.has("./")) {
      groups.set("/", groups.get("./"));
      groups.delete("./");
    }
  } else if (collected.byTarget) {
    // integration tests are their own target; everything else belongs to the library target it is compiled in
    const targets = [...collected.perFile.keys()];
    for (const test of tests) {
      const own = targets.find((target) => target === test.file);
      const crateRoot = own ?? targets.find((target) => /(^|\/)src\/(lib|main)\.rs$/.test(target) && test.file.startsWith(target.replace(/src\/(lib|main)\.rs$/, ""))) ?? test.file;
      add(crateRoot, test);
    }
  } else for (const test of tests) add(test.file, test);
  return groups;
}

function compare(wanted, tests) {
  const files = [...new Set(tests.map((test) => test.file))];
  let collector = wanted;
  let collected = collector === "none" ? estimateByReading(files) : COLLECT[collector]();
  let failure;
  if (collected.error) {
    // the collector does not run here: fall back to the reading estimate, and say so
    failure = `${wanted} not run: ${collected.error}`;
    collector = "none";
    collected = estimateByReading(files);
  }
  const row = { collector, ralph: tests.length, collector_count: null, collector_instances: null, ratio: null, files: [] };
  if (failure) row.error = failure;
  if (collected.note) row.note = collected.note;
  // go test -list (and the reading estimate) see top-level functions, not t.Run subtests
  const counted = collector === "go" || (collector === "none" && tests.every((test) => languageOf(test.file) === "go")) ? tests.filter((test) => !test.id.includes(" > ")) : tests;
  row.ralph = counted.length;
  if (counted.length !== tests.length) row.ralph_subtests = tests.length - counted.length;
  const groups = ralphGroups(counted, collected);
  const keys = [...new Set([...groups.keys(), ...collected.perFile.keys()])].sort();
  let folded = 0;
  let instances = 0;
  for (const key of keys) {
    const mine = groups.get(key) ?? [];
    const theirs = collected.perFile.get(key);
    const entry = { file: key, ralph: mine.length, collector: null, instances: theirs?.instances ?? 0 };
    if (collected.filesOnly || collected.estimate) {
      entry.collector = theirs ? theirs.instances : 0;
      if (collected.filesOnly) entry.listed = Boolean(theirs);
    } else if (theirs) {
      let names = theirs.names;
      let declarations = mine.map((test) => segments(test).join(" > "));
      if (collector === "cargo") {
        // cargo prints module paths from the target root; ralph's ids start at the file's own module
        const short = (name) => name.split(" > ").pop();
        names = names.map(short);
        declarations = declarations.map(short);
      }
      const fold = foldNames(names, declarations);
      entry.collector = fold.folded;
      entry.only_ralph = fold.unmatched;
      entry.only_collector = fold.unexplained;
      if (fold.foldedBySuite.length) entry.folded_run_time_names = fold.foldedBySuite;
    } else entry.collector = 0;
    folded += entry.collector ?? 0;
    instances += entry.instances ?? 0;
    row.files.push(entry);
  }
  if (collected.filesOnly) {
    row.collector_files = collected.perFile.size;
    row.ralph_files = groups.size;
  } else {
    row.collector_count = folded;
    row.collector_instances = instances;
    row.ratio = folded === 0 ? null : Number((row.ralph / folded).toFixed(4));
    if (collected.estimate) row.estimate = true;
  }
  return row;
}

const report = { clone, rev: ralphOutput.rev, ralph_total: ralphTests.length, comparisons: [], unparsable };
const byLanguage = new Map();
for (const test of ralphTests) {
  const language = languageOf(test.file);
  if (!byLanguage.has(language)) byLanguage.set(language, []);
  byLanguage.get(language).push(test);
}
if (chosen && chosen !== "none") {
  report.comparisons.push({ language: LANGUAGE_OF_COLLECTOR[chosen], ...compare(chosen, byLanguage.get(LANGUAGE_OF_COLLECTOR[chosen]) ?? []) });
} else {
  for (const [language, tests] of [...byLanguage].sort()) {
    const collector = chosen === "none" ? "none" : (defaultCollector(language) ?? "none");
    report.comparisons.push({ language, ...compare(collector, tests) });
  }
}

if (asJson) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(`count agreement for ${clone} (ralph tests: ${ralphTests.length})`);
  for (const row of report.comparisons) {
    const label = row.collector === "none" ? "none (regex estimate per file, read to confirm)" : row.collector;
    console.log(`\n${row.language}: collector ${label}`);
    if (row.error) console.log(`  ${row.error}`);
    if (row.note) console.log(`  note: ${row.note}`);
    const differing = row.files.filter((entry) =>
      entry.listed !== undefined
        ? entry.listed !== entry.ralph > 0
        : entry.collector !== entry.ralph || entry.only_collector?.length || entry.only_ralph?.length || entry.folded_run_time_names?.length,
    );
    if (differing.length) {
      console.log(`  files that differ (${differing.length}):`);
      console.log(`  ${"ralph".padStart(6)} ${"coll.".padStart(6)} ${"inst.".padStart(6)}  file`);
      for (const entry of differing) {
        const theirs = row.collector_count === null && !row.estimate ? (entry.listed ? "listed" : "-") : String(entry.collector);
        console.log(`  ${String(entry.ralph).padStart(6)} ${theirs.padStart(6)} ${String(entry.instances ?? "-").padStart(6)}  ${entry.file}`);
        if (entry.only_ralph?.length) console.log(`      only ralph: ${entry.only_ralph.slice(0, 8).join(" | ")}${entry.only_ralph.length > 8 ? " | …" : ""}`);
        if (entry.folded_run_time_names?.length) console.log(`      names built at run time, folded onto: ${entry.folded_run_time_names.slice(0, 8).join(" | ")}`);
        if (entry.only_collector?.length) console.log(`      only collector: ${entry.only_collector.slice(0, 8).join(" | ")}${entry.only_collector.length > 8 ? " | …" : ""}`);
      }
    }
    if (row.collector_count === null && !row.estimate) {
      console.log(`  total: ralph ${row.ralph} tests in ${row.ralph_files} files; collector lists ${row.collector_files} test files (no per-test count)`);
    } else {
      console.log(
        `  total: ralph ${row.ralph}${row.ralph_subtests ? ` (+${row.ralph_subtests} t.Run subtests, not compared)` : ""}, collector ${row.collector_count} declarations (${row.collector_instances} instances), ratio ${row.ratio === null ? "-" : row.ratio.toFixed(3)}${row.estimate ? " (estimate)" : ""}`,
      );
    }
  }
  if (unparsable.length > 0) console.log(`\nnot analysed by ralph: ${unparsable.map((entry) => `${entry.file} (${entry.reason})`).join("; ")}`);
}
process.exit(0);
