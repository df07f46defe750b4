/**
 * Whole-process hook latency, printed (not asserted: timing depends on the
 * machine). Interleaved, 20 runs each, in one generated repository
 * (RALPH_HOOK_BENCH_FILES files, default 2000), against `node -e 0`
 * measured in the same run: the start-up floor no Node program avoids.
 *
 * Rows: `ralph checkpoint` after an Edit (the full stat scan and commit
 * alone, on another loop); PostToolUse after an Edit of a source file (post-tool checkpoint
 * with the full stat scan + judgement from the baseline); PreToolUse on an
 * Edit of a test file that deletes a test (analysis of the one file, deny);
 * PreToolUse on an Edit of a test file that keeps every test (analysis
 * only); PreToolUse on an Edit that changes an expected value (a medium
 * finding: allowed, with a pre-tool checkpoint first).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { percentile } from "../../src/hooks/hook-log.js";
import { cliPathForTests, ralphEnv } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

const RUNS = 20;
const FILES = Number(process.env.RALPH_HOOK_BENCH_FILES ?? 2000);

function timeMs(args: string[], cwd: string, input = ""): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, env: ralphEnv, input, encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(" ")} failed: ${result.stderr}`);
  return elapsed;
}

const median = (values: number[]): number => percentile([...values].sort((a, b) => a - b), 50);
const p95 = (values: number[]): number => percentile([...values].sort((a, b) => a - b), 95);

describe("hook latency (printed)", () => {
  it(`PostToolUse after an Edit, PreToolUse on an Edit of a test file: median of ${RUNS} minus node -e 0`, { timeout: 600_000 }, () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < FILES; i++) files[`pkg${i % 50}/src/mod${i}.ts`] = `export const v${i} = ${i};\n`;
    files["src/math.ts"] = "export const add = (a: number, b: number) => a + b;\n";
    files["test/math.test.ts"] = 'import { expect, it } from "vitest";\nimport { add } from "../src/math";\n\nit("adds", () => {\n  expect(add(1, 2)).toBe(3);\n});\n\nit("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n';
    const root = makeRepo(files);
    const cli = cliPathForTests();
    const session = { session_id: "bench", transcript_path: "", cwd: root, permission_mode: "default" };
    const send = (event: string, fields: Record<string, unknown>): number => timeMs([cli, "hook", "claude", event], root, JSON.stringify({ ...session, hook_event_name: event, ...fields }));
    send("SessionStart", { source: "startup" });
    const testPath = join(root, "test/math.test.ts");
    const deny = { tool_name: "Edit", tool_input: { file_path: testPath, old_string: 'it("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n', new_string: "" } };
    const keep = { tool_name: "Edit", tool_input: { file_path: testPath, old_string: "toBe(3)", new_string: "toBe(3 )" } };
    const warn = { tool_name: "Edit", tool_input: { file_path: testPath, old_string: "toBe(3)", new_string: "toBe(4)" } };
    const rows: Record<string, number[]> = { "node -e 0": [], "ralph checkpoint after Edit (the scan alone)": [], "PostToolUse after Edit": [], "PreToolUse Edit test (deny)": [], "PreToolUse Edit test (pass)": [], "PreToolUse Edit test (warn, checkpointed)": [] };
    for (let run = 0; run < RUNS; run++) {
      rows["node -e 0"]!.push(timeMs(["-e", "0"], root));
      const src = join(root, "src/math.ts");
      writeFileSync(src, readFileSync(src, "utf8").replace(/\n$/, `\n// ${run}\n`));
      rows["ralph checkpoint after Edit (the scan alone)"]!.push(timeMs([cli, "checkpoint", "--loop", "scan-only"], root));
      writeFileSync(src, readFileSync(src, "utf8").replace(/\n$/, `\n// again ${run}\n`));
      rows["PostToolUse after Edit"]!.push(send("PostToolUse", { tool_name: "Edit", tool_use_id: `t${run}`, tool_input: { file_path: src, old_string: "x", new_string: "y" }, tool_response: {} }));
      rows["PreToolUse Edit test (deny)"]!.push(send("PreToolUse", { ...deny, tool_use_id: `d${run}` }));
      writeFileSync(join(root, `pkg0/src/mod0.ts`), `export const v0 = ${run};\n`);
      rows["PreToolUse Edit test (pass)"]!.push(send("PreToolUse", { ...keep, tool_use_id: `k${run}` }));
      writeFileSync(join(root, `pkg0/src/mod1.ts`), `export const v1 = ${run};\n`);
      rows["PreToolUse Edit test (warn, checkpointed)"]!.push(send("PreToolUse", { ...warn, tool_use_id: `w${run}` }));
    }
    const floor = median(rows["node -e 0"]!);
    const lines = [`hook latency, ${FILES + 2} files, ${RUNS} runs (ms, whole process):`];
    for (const [name, values] of Object.entries(rows)) {
      lines.push(`  ${name.padEnd(46)} median ${median(values).toFixed(0).padStart(5)}  p95 ${p95(values).toFixed(0).padStart(5)}  median above node -e 0: ${(median(values) - floor).toFixed(0)}`);
    }
    console.log(lines.join("\n"));
    expect(rows["PostToolUse after Edit"]).toHaveLength(RUNS);
  });
});
