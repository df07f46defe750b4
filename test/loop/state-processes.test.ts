/**
 * Loop state across processes: a writer killed (SIGKILL) at random moments
 * always leaves a state file that is valid JSON and valid state, old or new;
 * two processes incrementing a counter under the lock lose no update.
 *
 * The child is src/loop/state.ts itself, bundled with esbuild into a small
 * script, so the test exercises the real code in real processes.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createState, newState, parseStateText, stateFilePath } from "../../src/loop/state.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { seededRandom } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

const STATE_MODULE = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/loop/state.ts");
const LOOP = parseLoopId("ralph-counter-0000beef");
let childScript = "";

let childDir = "";

beforeAll(() => {
  // Not makeTempDir: its folders are removed after each test, and the script serves every test here.
  childDir = mkdtempSync(join(tmpdir(), "ralph-state-child-"));
  const entry = join(childDir, "child.ts");
  writeFileSync(
    entry,
    `import { updateState } from ${JSON.stringify(STATE_MODULE)};
const [mode, workTree, loop, countText] = process.argv.slice(2);
const padding = "x".repeat(256 * 1024);
const bump = () => updateState(workTree, loop as never, (s) => {
  s.metrics.n = (typeof s.metrics.n === "number" ? s.metrics.n : 0) + 1;
  s.metrics.padding = padding.slice(0, 1024 + ((s.metrics.n as number) % 7) * 37 * 1024);
  return { result: null };
}, { lockTimeoutMs: 60000 });
if (mode === "forever") { bump(); process.stdout.write("ready\\n", () => { for (;;) bump(); }); }
else { for (let i = 0; i < Number(countText); i++) bump(); }
`,
  );
  childScript = join(childDir, "child.mjs");
  buildSync({ entryPoints: [entry], outfile: childScript, bundle: true, platform: "node", format: "esm", target: "node20", logLevel: "error" });
});

afterAll(() => {
  if (childDir) rmSync(childDir, { recursive: true, force: true });
});

function counterOf(workTree: string): number {
  const state = parseStateText(readFileSync(stateFilePath(workTree, LOOP), "utf8"), "state.json");
  return typeof state.metrics.n === "number" ? state.metrics.n : 0;
}

describe("state written by other processes", () => {
  it("survives SIGKILL at random moments: always valid, old or new, never going back", async () => {
    const repo = makeRepo();
    createState(repo, newState({ loop_id: LOOP, task: "count", completion_criteria: "true", nowIso: new Date().toISOString() }));
    const random = seededRandom(4242);
    let last = 0;
    for (let round = 0; round < 12; round++) {
      const child = spawn(process.execPath, [childScript, "forever", repo, LOOP], { stdio: ["ignore", "pipe", "ignore"] });
      // Kill at a random moment after the writer is up (a loaded machine may take long to start node).
      await new Promise((r) => child.stdout?.once("data", r));
      await new Promise((r) => setTimeout(r, Math.floor(random() * 150)));
      child.kill("SIGKILL");
      await new Promise((r) => child.on("close", r));
      const text = readFileSync(stateFilePath(repo, LOOP), "utf8");
      expect(() => JSON.parse(text)).not.toThrow();
      const n = counterOf(repo);
      expect(n).toBeGreaterThanOrEqual(last);
      last = n;
    }
    expect(last).toBeGreaterThan(0);
    // The lock a killed writer left behind is reclaimed: a later update goes through.
    const result = spawnSync(process.execPath, [childScript, "count", repo, LOOP, "1"], { encoding: "utf8", timeout: 30_000 });
    expect(result.status).toBe(0);
    expect(counterOf(repo)).toBe(last + 1);
    // Temp files of the killed writers are gone; the backup is the previous valid state.
    expect(readdirSync(dirname(stateFilePath(repo, LOOP))).filter((name) => name.startsWith("state.json") && name.endsWith(".tmp"))).toEqual([]);
    expect(parseStateText(readFileSync(`${stateFilePath(repo, LOOP)}.bak`, "utf8"), "bak").metrics.n).toBe(last);
  });

  it("loses no update when concurrent processes increment under the lock", async () => {
    const repo = makeRepo();
    createState(repo, newState({ loop_id: LOOP, task: "count", completion_criteria: "true", nowIso: new Date().toISOString() }));
    const run = () =>
      new Promise<number | null>((resolvePromise) => {
        const child = spawn(process.execPath, [childScript, "count", repo, LOOP, "60"], { stdio: "ignore" });
        child.on("close", (code) => resolvePromise(code));
      });
    const codes = await Promise.all([run(), run(), run()]);
    expect(codes).toEqual([0, 0, 0]);
    expect(counterOf(repo)).toBe(180);
  });
});
