#!/usr/bin/env node
// Test-count agreement: compares the test cases `ralph tests --json` sees in a
// clone with what the framework's own collector lists, where this machine can
// run it, and prints per language: ralph's count, the collector's count, their
// ratio, and the tests only one side has (to investigate every gap).
//
//   node scripts/count-agreement.mjs <clone> [--ralph "node dist/cli.js"] [--json]
//
// Collectors (each used when the clone has tests of that kind and the tool runs):
//   pytest   python3 -m pytest --collect-only -q   (parametrised ids folded into one declaration)
//   cargo    cargo test --all-targets -- --list --format terse   (doc tests excluded: ralph does not see them)
//   go       go test -list . ./...                  (Test* and Fuzz* names)
// Languages without a runnable collector are listed with ralph's count and
// per-file counts, to be checked by reading.
//
// ralph compares declarations: a parametrised test is one case (its rows are
// checked separately), so the collector side is folded the same way.
// The clone is read, never modified by this script (ralph tests writes only
// objects under the clone's .git). Never point it at a repository you did not clone for this.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
let ralph = `node ${join(ROOT, "dist/cli.js")}`;
let asJson = false;
let clone = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--ralph") ralph = args[++i];
  else if (args[i] === "--json") asJson = true;
  else if (args[i] === "-h" || args[i] === "--help") {
    console.log('usage: count-agreement.mjs <clone> [--ralph "node dist/cli.js"] [--json]');
    process.exit(0);
  } else clone = resolve(args[i]);
}
if (!clone || !existsSync(join(clone, ".git"))) {
  console.error("count-agreement: pass the path of a git clone");
  process.exit(2);
}

/** Runs a command in the clone; returns { ok, stdout, stderr }. */
function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { cwd: clone, encoding: "utf8", maxBuffer: 512 * 1024 * 1024, timeout: 30 * 60_000, ...options });
  return { ok: result.status === 0, status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "", error: result.error };
}

const LANGUAGE_OF = [
  [/\.py$/, "python"], [/\.go$/, "go"], [/\.rs$/, "rust"], [/\.java$/, "java"], [/\.cs$/, "csharp"],
  [/\.rb$/, "ruby"], [/\.php$/, "php"], [/\.[cm]?[jt]sx?$/, "javascript"],
];
const languageOf = (file) => LANGUAGE_OF.find(([pattern]) => pattern.test(file))?.[1] ?? "other";

// ralph's side
const [ralphCommand, ...ralphArgs] = ralph.split(/\s+/);
const ralphRun = run(ralphCommand, [...ralphArgs, "tests", "--json"], { env: { ...process.env, RALPH_WASM_TIERUP: "1" } });
if (!ralphRun.ok) {
  console.error(`count-agreement: ralph tests failed (exit ${ralphRun.status}): ${ralphRun.stderr.trim().split("\n").slice(-3).join(" | ")}`);
  process.exit(1);
}
const ralphTests = JSON.parse(ralphRun.stdout).tests;
const unparsable = JSON.parse(ralphRun.stdout).unparsable ?? [];
const byLanguage = new Map();
for (const test of ralphTests) {
  const language = languageOf(test.file);
  if (!byLanguage.has(language)) byLanguage.set(language, []);
  byLanguage.get(language).push(test);
}

/** Multiset difference of two key lists: keys in `a` not matched in `b`. */
function minus(a, b) {
  const counts = new Map();
  for (const key of b) counts.set(key, (counts.get(key) ?? 0) + 1);
  const left = [];
  for (const key of a) {
    const count = counts.get(key) ?? 0;
    if (count > 0) counts.set(key, count - 1);
    else left.push(key);
  }
  return left;
}

/** pytest: node ids `path::Class::test[param]` folded to `path::Class::test`. */
function collectPytest() {
  const result = run("python3", ["-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]);
  const ids = result.stdout.split("\n").filter((line) => line.includes("::")).map((line) => line.trim());
  if (ids.length === 0) return { error: (result.stdout + result.stderr).trim().split("\n").slice(-3).join(" | ") || "pytest collected nothing" };
  const folded = [...new Set(ids.map((id) => id.replace(/\[.*\]$/, "")))];
  const errors = result.stdout.split("\n").filter((line) => /^ERROR /.test(line) || /errors? during collection/.test(line));
  return { keys: folded, instances: ids.length, note: errors.length ? `${errors.length} collection error lines` : undefined };
}

/** cargo: `path::to::name: test` lines of every target except doc tests, keyed by the test's last name segment. */
function collectCargo() {
  const result = run("cargo", ["test", "--all-targets", "--quiet", ...(process.env.CARGO_OFFLINE === "1" ? ["--offline"] : []), "--", "--list", "--format", "terse"], { env: { ...process.env, CARGO_TERM_COLOR: "never" } });
  const lines = result.stdout.split("\n").filter((line) => line.endsWith(": test"));
  if (!result.ok && lines.length === 0) return { error: result.stderr.trim().split("\n").slice(-3).join(" | ") };
  return { keys: lines.map((line) => line.slice(0, -": test".length).split("::").pop()) };
}

/** go: `go test -list .` names (Test*, Fuzz*) of every package. */
function collectGo() {
  const result = run("go", ["test", "-list", ".", "./..."]);
  if (result.error) return { error: `go is not available: ${result.error.message}` };
  const names = result.stdout.split("\n").map((line) => line.trim()).filter((line) => /^(Test|Fuzz)/.test(line));
  if (!result.ok && names.length === 0) return { error: result.stderr.trim().split("\n").slice(-3).join(" | ") };
  return { keys: names };
}

const COLLECTORS = {
  python: { name: "pytest --collect-only", collect: collectPytest, keyOf: (test) => `${test.file}::${test.id.split(" > ").join("::")}` },
  rust: { name: "cargo test -- --list", collect: collectCargo, keyOf: (test) => test.id.split(" > ").pop() },
  go: { name: "go test -list", collect: collectGo, keyOf: (test) => test.id.split(" > ")[0], topLevelOnly: true },
};

const report = { clone, languages: [], unparsable };
for (const [language, tests] of [...byLanguage].sort()) {
  const collector = COLLECTORS[language];
  const row = { language, ralph: tests.length, collector: null, ratio: null, only_ralph: [], only_collector: [] };
  if (collector) {
    const counted = collector.topLevelOnly ? tests.filter((test) => !test.id.includes(" > ")) : tests;
    row.ralph = counted.length;
    const collected = collector.collect();
    row.collector_name = collector.name;
    if (collected.error) row.collector_error = collected.error;
    else {
      row.collector = collected.keys.length;
      if (collected.instances !== undefined) row.collector_instances = collected.instances;
      if (collected.note) row.note = collected.note;
      row.ratio = row.collector === 0 ? null : Number((row.ralph / row.collector).toFixed(4));
      const ralphKeys = counted.map(collector.keyOf);
      row.only_ralph = minus(ralphKeys, collected.keys);
      row.only_collector = minus(collected.keys, ralphKeys);
    }
  } else {
    row.collector_name = "none on this machine: check by reading";
    const perFile = new Map();
    for (const test of tests) perFile.set(test.file, (perFile.get(test.file) ?? 0) + 1);
    row.files = Object.fromEntries([...perFile].sort());
  }
  report.languages.push(row);
}

if (asJson) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(`count agreement for ${clone}`);
  console.log("language    ralph  collector  ratio   collector");
  for (const row of report.languages) {
    console.log(
      `${row.language.padEnd(10)} ${String(row.ralph).padStart(6)} ${String(row.collector ?? "-").padStart(10)} ${row.ratio === null ? "     -" : row.ratio.toFixed(3).padStart(6)}   ${row.collector_name}${row.collector_error ? ` (failed: ${row.collector_error})` : ""}${row.collector_instances ? ` (${row.collector_instances} instances before folding parameters)` : ""}`,
    );
    const show = (label, keys) => {
      if (keys.length === 0) return;
      console.log(`  only ${label} (${keys.length}): ${keys.slice(0, 15).join(", ")}${keys.length > 15 ? ", …" : ""}`);
    };
    show("ralph", row.only_ralph);
    show("collector", row.only_collector);
  }
  if (unparsable.length > 0) console.log(`not analysed by ralph: ${unparsable.map((entry) => `${entry.file} (${entry.reason})`).join("; ")}`);
}
