/**
 * Defects found by trying main cold (helper "breaker", 2026-12-02), each as
 * the failing input a fix must make pass. Through the built CLI (run
 * `npm run build` first) and real temporary repositories; see
 * /work/notes/breaker.md for the commands and expected/actual outputs.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runRalph, type RunResult } from "../helpers/cli.js";
import { makeRepo } from "../helpers/git.js";

function stderrLines(result: RunResult): string[] {
  return result.stderr.split("\n").filter((line) => line.trim() !== "");
}

const FILES = { codex: ".codex/hooks.json", gemini: ".gemini/settings.json", cursor: ".cursor/hooks.json" } as const;

describe("agent install: never drops what it does not understand", () => {
  it.each([
    ["codex", '{"hooks":{"Stop":"x"}}'],
    ["gemini", '{"hooks":{"AfterAgent":{"not":"an array"}}}'],
    ["codex", '{"hooks":[]}'],
    ["cursor", '{"version":1,"hooks":[]}'],
  ] as const)("%s with %s: install refuses (exit 2, file untouched) as for other malformed files, or install + uninstall gives the bytes back", (agent, content) => {
    const root = makeRepo({ "a.txt": "a\n" });
    const path = join(root, FILES[agent]);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, content);
    const install = runRalph(root, ["install", `--${agent}`]);
    if (install.status === 2) {
      expect(readFileSync(path, "utf8")).toBe(content);
      return;
    }
    expect(install.status, install.stderr).toBe(0);
    expect(runRalph(root, ["uninstall", `--${agent}`]).status).toBe(0);
    // Actual (codex Stop:"x"): install replaced "x" with ralph's array; uninstall leaves {"hooks":{}}-less "{}".
    expect(readFileSync(path, "utf8")).toBe(content);
  });

  it("gemini: a settings.json with comments (Gemini CLI reads it through strip-json-comments) is installed into, not refused as invalid JSON", () => {
    const root = makeRepo({ "a.txt": "a\n" });
    mkdirSync(join(root, ".gemini"));
    writeFileSync(join(root, ".gemini", "settings.json"), '{\n  // the team theme\n  "theme": "GitHub"\n}\n');
    const install = runRalph(root, ["install", "--gemini"]);
    // Actual: exit 2, "is not valid JSON (Unexpected token '/' ...); fix it first".
    expect(install.status, install.stderr).toBe(0);
    expect(readFileSync(join(root, ".gemini", "settings.json"), "utf8")).toContain('"theme"');
  });
});

describe("agent hooks: a payload missing its fields", () => {
  it.each([
    ["codex", "PreToolUse"],
    ["gemini", "BeforeTool"],
    ["cursor", "beforeShellExecution"],
    ["claude", "PreToolUse"],
  ] as const)("%s %s with {} fails open with one line on stderr saying what was missing", (agent, event) => {
    const root = makeRepo({ "a.txt": "a\n" });
    const result = runRalph(root, ["hook", agent, event], { env: { RALPH_NO_DAEMON: "1" }, input: "{}" });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe("{}");
    // Actual: nothing on stderr (a malformed payload is indistinguishable from a harmless one).
    expect(stderrLines(result)).toHaveLength(1);
  });
});
