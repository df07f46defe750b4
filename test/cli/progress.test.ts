/**
 * Progress on stderr for long work (issue 10, "Reports that tell the
 * truth"): shown only when stderr is a terminal, after a second, throttled,
 * erased at the end; nothing at all into a pipe. The TTY decision is
 * injected (`isTerminal`, a fake stream), so both paths run without a
 * pseudo-terminal; the built CLI, whose stderr is a pipe here, writes
 * nothing for a checkpoint, `ralph tests` or `ralph check` of a large tree.
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createProgress, NO_PROGRESS, PROGRESS_DELAY_MS, stderrProgress } from "../../src/cli/progress.js";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { runRalph } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 0;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

describe("createProgress", () => {
  it("terminal: nothing for the first second, then one line rewritten in place, throttled, erased at the end", () => {
    const clock = fakeClock();
    const out: string[] = [];
    const progress = createProgress({ isTerminal: true, write: (t) => out.push(t), now: clock.now, intervalMs: 100 });
    progress.tick("checkpoint: files read", 10);
    clock.advance(PROGRESS_DELAY_MS - 1);
    progress.tick("checkpoint: files read", 500);
    expect(out).toEqual([]);
    clock.advance(1);
    progress.tick("checkpoint: files read", 600);
    expect(out).toEqual(["\rralph: checkpoint: files read 600\x1b[K"]);
    clock.advance(50);
    progress.tick("checkpoint: files read", 700); // throttled
    expect(out).toHaveLength(1);
    clock.advance(50);
    progress.tick("judging changed files", 3, 20);
    expect(out.at(-1)).toBe("\rralph: judging changed files 3/20\x1b[K");
    progress.done();
    expect(out.at(-1)).toBe("\r\x1b[K");
    progress.done();
    expect(out).toHaveLength(3);
  });

  it("terminal: work done within the second prints nothing, not even the erase", () => {
    const clock = fakeClock();
    const out: string[] = [];
    const progress = createProgress({ isTerminal: true, write: (t) => out.push(t), now: clock.now });
    for (let i = 0; i < 1000; i++) progress.tick("files", i);
    clock.advance(900);
    progress.done();
    expect(out).toEqual([]);
  });

  it("terminal: a long label is cut to the terminal's width", () => {
    const clock = fakeClock();
    const out: string[] = [];
    const progress = createProgress({ isTerminal: true, write: (t) => out.push(t), now: clock.now, columns: 30 });
    clock.advance(2_000);
    progress.tick("a very long label that would wrap the terminal line", 1);
    expect(out[0]?.replace("\r", "").replace("\x1b[K", "").length).toBe(29);
  });

  it("pipe: nothing is ever written, however long the work", () => {
    const clock = fakeClock();
    const out: string[] = [];
    const progress = createProgress({ isTerminal: false, write: (t) => out.push(t), now: clock.now });
    expect(progress).toBe(NO_PROGRESS);
    for (let i = 0; i < 100; i++) {
      clock.advance(1_000);
      progress.tick("files", i);
    }
    progress.done();
    expect(out).toEqual([]);
  });

  it("stderrProgress decides by the stream's isTTY", () => {
    const written: string[] = [];
    const stream = (isTTY: boolean | undefined) => ({ isTTY, write: (t: string) => written.push(t) });
    expect(stderrProgress(stream(undefined))).toBe(NO_PROGRESS);
    expect(stderrProgress(stream(false))).toBe(NO_PROGRESS);
    expect(stderrProgress(stream(true))).not.toBe(NO_PROGRESS);
  });
});

/** A repository of `count` small files in folders of 100. */
function largeRepo(count: number): string {
  const root = makeRepo({ "src/a.test.ts": "import { it, expect } from 'vitest';\nit('adds', () => expect(1 + 1).toBe(2));\n" });
  for (let i = 0; i < count; i++) {
    const dir = join(root, "lib", `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${i}.ts`), `export const v${i} = ${i};\n`);
  }
  return root;
}

describe("the snapshot walk reports its progress", () => {
  it("onProgress sees every file, in increasing counts, with the files hashed", () => {
    const root = largeRepo(250);
    const seen: Array<[number, number]> = [];
    CheckpointStore.open(root).snapshot({ onProgress: (files, hashed) => seen.push([files, hashed]) });
    expect(seen.length).toBeGreaterThanOrEqual(251);
    for (let i = 1; i < seen.length; i++) expect((seen[i] as [number, number])[0]).toBeGreaterThan((seen[i - 1] as [number, number])[0]);
    expect(seen.at(-1)?.[1]).toBeGreaterThanOrEqual(250); // the untracked files are read; the committed one may come from the index
  });
});

describe("through the built CLI with stderr piped, nothing goes to stderr", () => {
  it("ralph start (the baseline of a large tree), checkpoint, tests --json and check --json", () => {
    const root = largeRepo(1_200);
    for (const args of [
      ["start", "finish", "--completion", "true", "--json"],
      ["checkpoint", "--json"],
      ["tests", "--json"],
      ["check", "--json"],
    ]) {
      const result = runRalph(root, args);
      expect([0, 1], `${args.join(" ")}: ${result.stderr}`).toContain(result.status);
      expect(result.stderr, args.join(" ")).toBe("");
      expect(result.stdout).not.toContain("\r");
    }
  }, 120_000);
});
