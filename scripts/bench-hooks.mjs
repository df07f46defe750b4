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
// Usage: npm run bench:hooks [-- --files 10000 --runs 20 --cli dist/cli.js]
// (Timings belong in benchmarks, never in tests.)
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { files: { type: "string", default: "2000" }, runs: { type: "string", default: "20" }, cli: { type: "string" } },
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

const root = mkdtempSync(join(tmpdir(), "ralph-bench-hooks-"));
try {
  const write = (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (let i = 0; i < FILES; i++) write(`pkg${i % 50}/src/mod${i}.ts`, `export const v${i} = ${i};\n`);
  write("src/math.ts", "export const add = (a: number, b: number) => a + b;\n");
  const MATH_TEST = 'import { expect, it } from "vitest";\nimport { add } from "../src/math";\n\nit("adds", () => {\n  expect(add(1, 2)).toBe(3);\n});\n\nit("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n';
  write("test/math.test.ts", MATH_TEST);
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root, env });
  execFileSync("git", ["add", "-A"], { cwd: root, env });
  execFileSync("git", ["commit", "-q", "-m", "init"], { cwd: root, env });

  const timeMs = (args, input = "") => {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, env, input, encoding: "utf8" });
    const elapsed = performance.now() - started;
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed (exit ${r.status}): ${r.stderr}`);
    return elapsed;
  };
  const session = { session_id: "bench", transcript_path: "", cwd: root, permission_mode: "default" };
  const send = (event, fields) => timeMs([cli, "hook", "claude", event], JSON.stringify({ ...session, hook_event_name: event, ...fields }));
  send("SessionStart", { source: "startup" });
  const testPath = join(root, "test/math.test.ts");
  const src = join(root, "src/math.ts");
  const deny = { tool_name: "Edit", tool_input: { file_path: testPath, old_string: 'it("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n', new_string: "" } };
  const keep = { tool_name: "Edit", tool_input: { file_path: testPath, old_string: "toBe(3)", new_string: "toBe(3 )" } };
  const rows = { "node -e 0": [], "ralph checkpoint after an Edit (full scan)": [], "PostToolUse after an Edit": [], "PreToolUse, Edit deleting a test (deny)": [], "PreToolUse, Edit keeping the tests": [] };
  for (let run = 0; run < RUNS; run++) {
    rows["node -e 0"].push(timeMs(["-e", "0"]));
    writeFileSync(src, readFileSync(src, "utf8").replace(/\n$/, `\n// ${run}\n`));
    rows["ralph checkpoint after an Edit (full scan)"].push(timeMs([cli, "checkpoint", "--loop", "scan-only"]));
    writeFileSync(src, readFileSync(src, "utf8").replace(/\n$/, `\n// again ${run}\n`));
    rows["PostToolUse after an Edit"].push(send("PostToolUse", { tool_name: "Edit", tool_use_id: `t${run}`, tool_input: { file_path: src, old_string: "x", new_string: "y" }, tool_response: {} }));
    rows["PreToolUse, Edit deleting a test (deny)"].push(send("PreToolUse", { ...deny, tool_use_id: `d${run}` }));
    rows["PreToolUse, Edit keeping the tests"].push(send("PreToolUse", { ...keep, tool_use_id: `k${run}` }));
  }
  // The loop's Stop, measured after the rows above so they run without a loop.
  timeMs([cli, "start", "bench", "--completion", "false", "--max-iterations", "200"]);
  rows["Stop, completion `false` (blocked)"] = [];
  for (let run = 0; run < RUNS; run++) {
    writeFileSync(src, readFileSync(src, "utf8").replace(/\n$/, `\n// stop ${run}\n`));
    rows["Stop, completion `false` (blocked)"].push(send("Stop", { stop_hook_active: run > 0 }));
  }
  const pct = (list, p) => {
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  };
  const floor = pct(rows["node -e 0"], 50);
  console.log(`hook latency: ${FILES + 2} files, ${RUNS} runs, node ${process.version} (ms, whole process)`);
  for (const [name, list] of Object.entries(rows)) {
    console.log(`  ${name.padEnd(44)} median ${pct(list, 50).toFixed(0).padStart(5)}  p95 ${pct(list, 95).toFixed(0).padStart(5)}  above node -e 0: ${(pct(list, 50) - floor).toFixed(0).padStart(5)}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
