#!/usr/bin/env node
// Whole-process Claude Code hook latency, next to `node -e 0` in the same run
// (the floor no Node program avoids). Interleaved, N runs each (default 20), in
// a generated repository of --files files (default 2000):
//   ralph checkpoint after an Edit      the full stat scan and commit alone
//   PostToolUse after an Edit           post-tool checkpoint (fast path: the named file) + judgement
//   PreToolUse, Edit deleting a test    analysis of the one file, deny
//   PreToolUse, Edit keeping the tests  analysis of the one file, no checkpoint
//   Stop, completion `false` (blocked)  after `ralph start`: iteration checkpoint, `sh -c false`,
//                                       evaluation (two judgements, test count, quality), block reason
// Each row is measured in two modes, interleaved call by call on the same repository:
//   cold    RALPH_NO_DAEMON=1: every call a fresh in-process run (the first call, CI, a pre-push)
//   daemon  through the work tree's warm process (src/daemon/), started before the rows and
//           stopped after; its resident size is printed at the end
// Usage: npm run bench:hooks [-- --files 10000 --runs 20 --cli dist/cli.js --no-daemon]
// (Timings belong in benchmarks, never in tests.)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { files: { type: "string", default: "2000" }, runs: { type: "string", default: "20" }, cli: { type: "string" }, "no-daemon": { type: "boolean", default: false } },
});
const FILES = Number(values.files);
const RUNS = Number(values.runs);
const cli = resolve(values.cli ?? join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli.js"));
const env = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
  RALPH_DEBUG: "",
};
delete env.CI;
delete env.RALPH_DAEMON;
delete env.RALPH_NO_DAEMON;
/** The two modes' environments: cold never touches a warm process; daemon must be served by one (RALPH_DAEMON=require fails otherwise). */
const MODES = values["no-daemon"]
  ? { cold: { ...env, RALPH_NO_DAEMON: "1" } }
  : { cold: { ...env, RALPH_NO_DAEMON: "1" }, daemon: { ...env, RALPH_DAEMON: "require", RALPH_DAEMON_IDLE_MS: "600000" } };

const root = mkdtempSync(join(tmpdir(), "ralph-bench-hooks-"));
try {
  const write = (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (let i = 0; i < FILES; i++) write(`pkg${i % 50}/src/mod${i}.ts`, `export const v${i} = ${i};\n`);
  write("src/math.ts", "export const add = (a: number, b: number) => a + b;\n");
  const MATH_TEST =
    'import { expect, it } from "vitest";\nimport { add } from "../src/math";\n\nit("adds", () => {\n  expect(add(1, 2)).toBe(3);\n});\n\nit("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n';
  write("test/math.test.ts", MATH_TEST);
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root, env });
  execFileSync("git", ["add", "-A"], { cwd: root, env });
  execFileSync("git", ["commit", "-q", "-m", "init"], { cwd: root, env });

  const timeMs = (args, input = "", mode = "cold") => {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, env: MODES[mode], input, encoding: "utf8" });
    const elapsed = performance.now() - started;
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed (exit ${r.status}): ${r.stderr}`);
    return elapsed;
  };
  const session = { session_id: "bench", transcript_path: "", cwd: root, permission_mode: "default" };
  const send = (event, fields, mode) => timeMs([cli, "hook", "claude", event], JSON.stringify({ ...session, hook_event_name: event, ...fields }), mode);
  send("SessionStart", { source: "startup" });
  // Start the warm process (untimed): the first daemon-mode call starts it and waits for it.
  if (MODES.daemon) send("SessionStart", { source: "startup" }, "daemon");
  const modes = Object.keys(MODES);
  const testPath = join(root, "test/math.test.ts");
  const src = join(root, "src/math.ts");
  const deny = { tool_name: "Edit", tool_input: { file_path: testPath, old_string: 'it("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n', new_string: "" } };
  const keep = { tool_name: "Edit", tool_input: { file_path: testPath, old_string: "toBe(3)", new_string: "toBe(3 )" } };
  const NAMES = [
    "ralph checkpoint after an Edit (full scan)",
    "PostToolUse after an Edit",
    "PreToolUse, Edit deleting a test (deny)",
    "PreToolUse, Edit keeping the tests",
    "Stop, completion `false` (blocked)",
  ];
  const floorRuns = [];
  const rows = Object.fromEntries(NAMES.map((name) => [name, Object.fromEntries(modes.map((m) => [m, []]))]));
  for (let run = 0; run < RUNS; run++) {
    floorRuns.push(timeMs(["-e", "0"]));
    // Alternate which mode goes first, so drift in load hits both alike.
    for (const mode of run % 2 === 0 ? modes : [...modes].reverse()) {
      writeFileSync(src, readFileSync(src, "utf8").replace(/\n$/, `\n// ${mode} ${run}\n`));
      rows[NAMES[0]][mode].push(timeMs([cli, "checkpoint", "--loop", "scan-only"], "", mode));
      writeFileSync(src, readFileSync(src, "utf8").replace(/\n$/, `\n// again ${mode} ${run}\n`));
      rows[NAMES[1]][mode].push(send("PostToolUse", { tool_name: "Edit", tool_use_id: `t${mode}${run}`, tool_input: { file_path: src, old_string: "x", new_string: "y" }, tool_response: {} }, mode));
      rows[NAMES[2]][mode].push(send("PreToolUse", { ...deny, tool_use_id: `d${mode}${run}` }, mode));
      rows[NAMES[3]][mode].push(send("PreToolUse", { ...keep, tool_use_id: `k${mode}${run}` }, mode));
    }
  }
  // The loop's Stop, measured after the rows above so they run without a loop.
  timeMs([cli, "start", "bench", "--completion", "false", "--max-iterations", "200"]);
  for (let run = 0; run < RUNS; run++) {
    for (const mode of run % 2 === 0 ? modes : [...modes].reverse()) {
      writeFileSync(src, readFileSync(src, "utf8").replace(/\n$/, `\n// stop ${mode} ${run}\n`));
      rows[NAMES[4]][mode].push(send("Stop", { stop_hook_active: run > 0 || mode !== modes[0] }, mode));
    }
  }
  let rssBytes = null;
  if (MODES.daemon) {
    const status = spawnSync(process.execPath, [cli, "daemon", "status", "--json"], { cwd: root, env: MODES.daemon, encoding: "utf8" });
    try {
      rssBytes = JSON.parse(status.stdout).rss_bytes ?? null;
    } catch {
      rssBytes = null; // no warm process answered: the size is not reported
    }
    spawnSync(process.execPath, [cli, "daemon", "stop"], { cwd: root, env: MODES.daemon, encoding: "utf8" });
  }
  const pct = (list, p) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  };
  const floor = pct(floorRuns, 50);
  const load = (await import("node:os")).loadavg()[0].toFixed(1);
  console.log(`hook latency: ${FILES + 2} files, ${RUNS} runs, node ${process.version}, load average ${load} (ms, whole process)`);
  console.log(`  ${"node -e 0".padEnd(44)} median ${floor.toFixed(0).padStart(5)}  p95 ${pct(floorRuns, 95).toFixed(0).padStart(5)}`);
  for (const [name, byMode] of Object.entries(rows)) {
    const cells = modes.map(
      (mode) =>
        `${mode.padStart(6)}: median ${pct(byMode[mode], 50).toFixed(0).padStart(5)}  p95 ${pct(byMode[mode], 95).toFixed(0).padStart(5)}  above node -e 0 ${(pct(byMode[mode], 50) - floor).toFixed(0).padStart(5)}`,
    );
    console.log(`  ${name.padEnd(44)} ${cells.join("   ")}`);
  }
  if (rssBytes !== null) console.log(`  warm process resident size after the rows: ${(rssBytes / 1024 / 1024).toFixed(0)} MiB`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
