/**
 * `ralph demo --json --keep` (in-process, runCli): the scripted Claude Code
 * session runs through real hook processes of the built binary, and the
 * sequence is ralph's real one: the test deletion denied (file untouched),
 * the `sed -i` skip blocked after it landed and reverted, a quality peak
 * that is not the last iteration, `select --best` restoring the peak's exact
 * tree, the report's files written, `git fsck` clean, and no wrong answer on
 * the way. A failed demo exits 3 with the same object under `error.data`, so
 * every assertion still reads it.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseJsonOutput, runRalphInProcess } from "../helpers/cli.js";
import { fsck, git, makeRepo } from "../helpers/git.js";

interface DemoStep {
  id: string;
  title: string;
  lines: string[];
  data: Record<string, unknown>;
}

interface DemoResult {
  ok: boolean;
  repository: string | null;
  loop: string;
  problems: string[];
  steps: DemoStep[];
  quality: { baseline: number; iterations: { iteration: number; score: number; verification: string }[]; peak: number; final: number };
  selected: { iteration: number; quality_score: number; checkpoint: string; tree: string; work_tree_tree: string; tree_matches: boolean };
  report: { report_md: string; quality_svg: string; analytics_json: string };
  fsck: string;
}

let kept: string | null = null;
afterEach(() => {
  if (kept) rmSync(kept, { recursive: true, force: true });
  kept = null;
});

describe("ralph demo", () => {
  it("drives a scripted session through the real hooks: deny, Bash skip reverted, peak then worse, select --best restores the peak, report, fsck clean", async () => {
    const cwd = makeRepo({ "README.md": "anywhere\n" }); // the demo makes its own folder; where it runs does not matter
    const run = await runRalphInProcess(cwd, ["demo", "--json", "--keep"]);
    const parsed = parseJsonOutput<DemoResult | { error: { code: string; message: string; data: DemoResult } }>(run);
    const result = "error" in parsed ? parsed.error.data : parsed;
    kept = result.repository;
    expect(result.repository, run.stderr).not.toBeNull();
    const root = result.repository as string;
    const step = (id: string): DemoStep => {
      const found = result.steps.find((s) => s.id === id);
      expect(found, `step ${id}`).toBeDefined();
      return found as DemoStep;
    };

    expect(result.steps.map((s) => s.id)).toEqual(["sample", "start", "session", "iteration-1", "iteration-2", "iteration-3", "select", "report", "git"]);
    // a. the session gets the loop's facts.
    expect(step("session").data.context).toContain("ralph loop demo is active");
    // b. iteration 1: the Stop is blocked (the tests still fail).
    expect(step("iteration-1").data.stop).toMatchObject({ decision: "block" });
    // c. iteration 2: the deletion denied before it lands; the sed skip caught after it lands and reverted.
    const second = step("iteration-2").data as {
      deny: { decision: string; reason: string; file_unchanged: boolean };
      bash: { pre: Record<string, unknown>; post_decision: string; reason: string; reverted: boolean; kept_in_checkpoint: string | null };
      stop: Record<string, unknown>;
    };
    expect(second.deny).toMatchObject({ decision: "deny", file_unchanged: true });
    expect(second.deny.reason).toContain("test_deletion");
    expect(second.bash.pre).toEqual({});
    expect(second.bash).toMatchObject({ post_decision: "block", reverted: true });
    expect(second.bash.reason).toContain("test_disabled");
    expect(git(root, ["show", `${second.bash.kept_in_checkpoint}:test/invoice.test.js`])).toContain('test.skip("applies a discount after tax"');
    expect(second.stop).toMatchObject({ decision: "block" });
    // The third Stop is allowed: the iteration limit ends the loop.
    expect(step("iteration-3").data.stop).toEqual({});

    // Quality from the loop's state: a peak (above the selection threshold 70) that is not the last iteration.
    const scores = result.quality.iterations.map((i) => i.score);
    expect(result.quality.baseline).toBe(50);
    expect(scores).toEqual([66.7, 83.3, 66.7]);
    expect(result.quality.peak).toBe(2);
    expect(result.quality.final).toBe(3);
    const state = JSON.parse(readFileSync(join(root, ".aiwg/ralph/loops/demo/state.json"), "utf8")) as {
      status: string;
      iteration_history: { iteration: number; quality_score: number }[];
      selected_iteration: number | null;
    };
    expect(state.iteration_history.map((r) => r.quality_score)).toEqual(scores);
    expect(state.status).toBe("failed");

    // d. select --best picked the peak, and the work tree is its checkpoint's tree.
    expect(result.selected).toMatchObject({ iteration: 2, quality_score: 83.3, tree_matches: true });
    expect(state.selected_iteration).toBe(2);
    expect(git(root, ["rev-parse", "refs/ralph/demo/iterations/0002^{tree}"]).trim()).toBe(result.selected.tree);
    expect(git(root, ["rev-parse", "refs/ralph/demo/best"]).trim()).toBe(result.selected.checkpoint);
    expect(readFileSync(join(root, "src/money.js"), "utf8")).toContain("Math.sign(amount)");

    // e. the report's files; f. native git reads it all.
    for (const path of Object.values(result.report)) expect(existsSync(path), path).toBe(true);
    expect(readFileSync(result.report.quality_svg, "utf8")).toContain("<svg");
    expect(fsck(root)).toBe("");

    // No wrong answer on the way (a wrong one is marked WRONG in the text output and fails the demo with exit 3).
    expect(result.problems).toEqual([]);
    expect(run.status, run.stderr).toBe(0);
    expect(result.ok).toBe(true);
  });
});

describe("the demo's text tells the truth (issue 10)", () => {
  it.each([
    ["the quick brown fox jumps", 12, "the quick…"],
    ["short", 12, "short"],
    ["averyveryverylongwordwithoutspaces", 10, "averyvery…"],
    ["exactly ten", 11, "exactly ten"],
  ])("clipLine(%j, %d) is %j: cut at a word boundary", async (line, width, clipped) => {
    const { clipLine } = await import("../../src/cli/commands/demo.js");
    expect(clipLine(line, width)).toBe(clipped);
    expect(clipLine(line, width).length).toBeLessThanOrEqual(width);
  });

  it("prints no '1 paths' and explains a missed integration overhead (the scripted session has no agent thinking time)", async () => {
    const run = await runRalphInProcess(makeRepo({ "README.md": "anywhere\n" }), ["demo"]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/\b1 paths\b/);
    if (/integration overhead \d+(\.\d+)?% MISSED/.test(run.stdout)) expect(run.stdout).toContain("a session with little agent time between calls");
  });
});
