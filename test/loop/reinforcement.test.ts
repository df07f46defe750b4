/** Reinforcement levels per iteration, the templates filled in, and block reasons within 10,000 characters. */
import { describe, expect, it } from "vitest";
import { MAX_REASON_CHARS as HOOK_REASON_CHARS } from "../../src/hooks/claude.js";
import { buildBlockReason, MAX_REASON_CHARS, reinforcementLevel, renderReinforcement, tailOf, type ReinforcementContext } from "../../src/loop/reinforcement.js";
import { loadLoopSettings } from "../../src/loop/settings.js";
import { makeRepo } from "../helpers/git.js";

const CTX: ReinforcementContext = {
  loop: "ralph-fix-a1b2c3d4",
  iteration: 1,
  maxIterations: 20,
  task: "Fix the parser",
  completionCommand: "npm test",
  exitCode: 1,
  timedOut: false,
  timeoutMs: 60_000,
  unchangedBlocks: 0,
};

describe("reinforcementLevel", () => {
  it.each([
    [1, false, "MINIMAL"],
    [2, false, "MINIMAL"],
    [3, false, "STANDARD"],
    [4, false, "STANDARD"],
    [5, false, "AGGRESSIVE"],
    [50, false, "AGGRESSIVE"],
    [1, true, "AGGRESSIVE"],
  ] as const)("iteration %s (plateau %s) -> %s", (iteration, plateau, level) => {
    expect(reinforcementLevel(iteration, { plateau })).toBe(level);
  });
});

describe("renderReinforcement", () => {
  it.each(["MINIMAL", "STANDARD", "AGGRESSIVE"] as const)("%s says what failed and what is checked, with no placeholder left", (level) => {
    const text = renderReinforcement(level, { ...CTX, iteration: 5, unchangedBlocks: 1 });
    expect(text).toContain("`npm test` exits 1");
    expect(text).toMatch(/test/i);
    expect(text).not.toMatch(/\{\w+\}/);
  });

  it("describes a timeout", () => {
    expect(renderReinforcement("AGGRESSIVE", { ...CTX, timedOut: true, exitCode: null })).toContain("did not finish within 60 s");
  });
});

describe("buildBlockReason", () => {
  it("quotes the last 40 lines of the output", () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
    const reason = buildBlockReason(CTX, output, "MINIMAL");
    expect(reason).toContain("[RALPH LOOP ralph-fix-a1b2c3d4 · iteration 1/20 · MINIMAL]");
    expect(reason).toContain("line 61\n");
    expect(reason).toContain("line 100");
    expect(reason).not.toContain("line 60\n");
  });

  it("stays within 10,000 characters however long the output and task", () => {
    const output = `${"E".repeat(50_000)}\n`.repeat(60);
    const reason = buildBlockReason({ ...CTX, task: "t".repeat(3000) }, output, "AGGRESSIVE");
    expect(reason.length).toBeLessThanOrEqual(MAX_REASON_CHARS);
    expect(reason).toContain("Tests, assertions, skips");
  });

  it.each(["MINIMAL", "STANDARD", "AGGRESSIVE"] as const)("%s notes an unchanged work tree", (level) => {
    expect(buildBlockReason({ ...CTX, unchangedBlocks: 2 }, "x", level)).toContain("has not changed since the previous stop (2 times in a row)");
    expect(buildBlockReason(CTX, "x", level)).not.toContain("has not changed");
  });

  // Issue 10: with a 20,000-character task the reason was the task alone, the failing output and the instructions cut.
  it.each(["MINIMAL", "STANDARD", "AGGRESSIVE"] as const)("%s keeps the instructions and the output's last lines before a 20,000-character task", (level) => {
    const task = `BEGIN ${"spec ".repeat(4_000)}END`;
    const output = `${Array.from({ length: 60 }, (_, i) => `progress ${i}`).join("\n")}\nFAIL test/a.test.ts > adds: expected 3, got -1\n`;
    const reason = buildBlockReason({ ...CTX, task }, output, level, "Evaluation: quality 40 -> 45.");
    // Within what the Claude Code hook sends unclamped (src/hooks/claude.ts clampReason), so nothing is cut after this.
    expect(reason.length).toBeLessThanOrEqual(HOOK_REASON_CHARS);
    expect(reason).toContain("FAIL test/a.test.ts > adds: expected 3, got -1");
    expect(reason).toContain("progress 59");
    expect(reason).toContain(
      renderReinforcement(level, { ...CTX, task: "" })
        .split("\n")[0]
        ?.slice(0, 30),
    );
    expect(reason).toContain("Evaluation: quality 40 -> 45.");
    expect(reason).toContain("BEGIN spec spec");
    expect(reason).not.toContain("END");
    expect(reason).toMatch(/task cut: \d+ of 20,\d{3} characters shown/);
  });

  it("quotes a task that fits whole, as written", () => {
    const task = "Make add() handle negative numbers. ".repeat(40);
    expect(buildBlockReason({ ...CTX, task }, "FAIL", "STANDARD")).toContain(task.trim());
  });

  it("says when the command printed nothing", () => {
    expect(buildBlockReason(CTX, "", "MINIMAL")).toContain("(the command printed nothing)");
  });
});

describe("tailOf", () => {
  it("keeps the last lines, cut at the front with a mark", () => {
    expect(tailOf("a\nb\nc\n", 2)).toBe("b\nc");
    expect(tailOf("abcdef", 40, 4)).toBe("…def");
    expect(tailOf("a\r\nb\r\n", 5)).toBe("a\nb");
  });
});

describe("user templates (aiwg.yml reinforcement.templates_dir)", () => {
  const ctx: ReinforcementContext = { loop: "l", iteration: 3, maxIterations: 9, task: "Fix it", completionCommand: "npm test", exitCode: 1, timedOut: false, timeoutMs: 60_000, unchangedBlocks: 0 };

  it("a level's template replaces the built-in text, with the same placeholders; other levels keep theirs", () => {
    const templates = { STANDARD: "Iteration {iteration}/{max}: `{completion}` {failure}. Ask {nobody}." };
    expect(renderReinforcement("STANDARD", { ...ctx, templates })).toBe("Iteration 3/9: `npm test` exits 1. Ask {nobody}.");
    expect(renderReinforcement("MINIMAL", { ...ctx, templates })).toBe(renderReinforcement("MINIMAL", ctx));
  });

  it("loadLoopSettings reads MINIMAL.md / STANDARD.md / AGGRESSIVE.md from the folder; an empty file counts as missing", async () => {
    const repo = makeRepo({
      "aiwg.yml": "agent_persistence:\n  reinforcement:\n    templates_dir: .ralph-templates\n",
      ".ralph-templates/AGGRESSIVE.md": "Stop and think about {task}.\n\n",
      ".ralph-templates/MINIMAL.md": "  \n",
    });
    const { settings } = await loadLoopSettings(repo);
    expect(settings.templates).toEqual({ AGGRESSIVE: "Stop and think about {task}." });
    expect(renderReinforcement("AGGRESSIVE", { ...ctx, templates: settings.templates ?? {} })).toBe("Stop and think about Fix it.");
  });
});
