/**
 * Reports that tell the truth (issue 10, "Reports that tell the truth"):
 * each line a command prints says what happened, with the failing input of
 * each item first. Commands run in-process (runCli).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderJudgementText } from "../../src/cli/reporters/findings.js";
import type { Judgement } from "../../src/loop/check.js";
import { parseJsonOutput, PROJECT_ROOT, runRalphInProcess } from "../helpers/cli.js";
import { makeRepo, writeFiles } from "../helpers/git.js";

function judgement(overrides: Partial<Judgement>): Judgement {
  return {
    verdict: "BLOCK",
    from: "a".repeat(40),
    to: "WORKTREE",
    findings: [],
    stats: { files_changed: 1, files_analyzed: 0, tests_before: 0, tests_after: 0, assertions_before: 0, assertions_after: 0, duration_ms: 3 },
    not_analyzed: [],
    changes: [],
    warnings: [],
    ...overrides,
  };
}

describe("the check summary line", () => {
  it("does not say 'no test or source file ralph analyses changed' next to a finding; it names where the findings come from", async () => {
    const text = renderJudgementText(
      judgement({
        findings: [{ type: "test_config_tamper", severity: "critical", file: ".github/workflows/ci.yml", message: "the test step was removed", allowed: false } as Judgement["findings"][number]],
      }),
      "HEAD",
      "WORKTREE",
      { colour: false },
    );
    const first = text.split("\n")[0] as string;
    expect(first).not.toContain("ralph analyses changed");
    expect(first).toContain("the findings come from .github/workflows/ci.yml");
    expect(renderJudgementText(judgement({ verdict: "PASS" }), "HEAD", "WORKTREE", { colour: false })).toContain("no test or source file ralph analyses changed");
  });
});

describe("ralph revert", () => {
  it("a revert of an unchanged tree prints no undo (it would point at the target itself); one that changes files prints an undo to another checkpoint", async () => {
    const root = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    expect((await runRalphInProcess(root, ["checkpoint", "-m", "one"])).status).toBe(0);
    const same = await runRalphInProcess(root, ["revert", "@head"]);
    expect(same.status, same.stderr).toBe(0);
    expect(same.stdout).toContain("nothing to change");
    expect(same.stdout).not.toContain("undo with");
    writeFiles(root, { "src/a.ts": "export const a = 2;\n" });
    const changed = await runRalphInProcess(root, ["revert", "@head", "--json"]);
    const json = parseJsonOutput<{ target: { oid: string }; pre_revert: string; dry_run: boolean; preRevert: string }>(changed);
    expect(json.pre_revert).not.toBe(json.target.oid);
    expect(json.dry_run).toBe(false);
    expect(json.preRevert).toBe(json.pre_revert); // the old spelling, kept one release
    writeFiles(root, { "src/a.ts": "export const a = 3;\n" });
    expect((await runRalphInProcess(root, ["revert", "@head~1"])).stdout).toMatch(/undo with: ralph revert [0-9a-f]{40}/);
  });
});

describe("ralph revert lists the unsaved edits it overwrites", () => {
  it("paths changed since the loop's last checkpoint are named in the text and in --json `overwritten`, with the checkpoint that keeps them", async () => {
    const root = makeRepo({ "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 1;\n" });
    expect((await runRalphInProcess(root, ["checkpoint", "-m", "one", "--loop", "w"])).status).toBe(0);
    writeFiles(root, { "src/a.ts": "export const a = 2; // unsaved\n" });
    const dry = await runRalphInProcess(root, ["revert", "@head", "--loop", "w", "--dry-run", "--json"]);
    expect(dry.status, dry.stderr).toBe(0);
    expect(parseJsonOutput<{ overwritten: string[] }>(dry).overwritten).toEqual(["src/a.ts"]);
    const text = await runRalphInProcess(root, ["revert", "@head", "--loop", "w"]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/overwrote 1 unsaved edit made since the loop's last checkpoint \(src\/a\.ts\); it is kept in checkpoint [0-9a-f]{12}/);
    writeFiles(root, { "src/b.ts": "export const b = 2; // unsaved\n" });
    const json = parseJsonOutput<{ overwritten: string[]; pre_revert: string }>(await runRalphInProcess(root, ["revert", "@head", "--loop", "w", "--json"]));
    expect(json.overwritten).toEqual(["src/b.ts"]);
  });
});

describe("ralph start's baseline metrics and ralph tests share one discovery", () => {
  it("an ava project with its tests in test.js at the root (p-limit's layout) counts the same tests in both", async () => {
    const root = makeRepo({
      "package.json": '{ "name": "p", "type": "module", "scripts": { "test": "xo && ava" }, "devDependencies": { "ava": "^5.0.0" } }\n',
      "index.js": "export default function pLimit() { return (fn) => Promise.resolve(fn()); }\n",
      "test.js": [
        "import test from 'ava';",
        "import pLimit from './index.js';",
        "",
        "test('concurrency: 1', async t => {",
        "\tt.is(await pLimit(1)(() => 1), 1);",
        "});",
        "",
        "test('non-promise returning function', async t => {",
        "\tt.is(await pLimit(1)(() => null), null);",
        "\tt.true(true);",
        "});",
        "",
      ].join("\n"),
    });
    const start = await runRalphInProcess(root, ["start", "Keep p-limit working", "--completion", "true", "--json"]);
    expect(start.status, start.stderr).toBe(0);
    const metrics = parseJsonOutput<{ baseline_metrics: { test_count: number; assertion_count: number } }>(start).baseline_metrics;
    const listed = parseJsonOutput<{ tests: { assertions: number }[] }>(await runRalphInProcess(root, ["tests", "@baseline", "--json"])).tests;
    expect(listed).toHaveLength(2);
    expect(metrics.test_count).toBe(listed.length);
    expect(metrics.assertion_count).toBe(3);
  });
});

describe("the README", () => {
  const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
  it("points only at files a clone has (the design is docs/design.md, not ../shared/DESIGN.md)", async () => {
    expect(readme).not.toContain("../shared");
    const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)\s]+)\)/g)].map((m) => m[1] as string);
    expect(links).toContain("docs/design.md");
    for (const link of links) expect(existsSync(join(PROJECT_ROOT, link.split("#")[0] as string)), link).toBe(true);
  });

  it("documents the stop_hook_active rule: the loop goes on, consecutive blocks in one chain are capped by loop.max_consecutive_blocks below Claude Code's 8", async () => {
    expect(readme).toContain("stop_hook_active");
    expect(readme).toContain("max_consecutive_blocks");
    expect(readme).toMatch(/\b8\b[^\n]*consecutive|consecutive[^\n]*\b8\b/);
  });

  it("gives the trailer hint with --no-edit, and says what npm ci's install-scripts warning means and how long the tests take", async () => {
    for (const hint of readme.matchAll(/git commit --amend[^\n`']*/g)) expect(hint[0]).toContain("--no-edit");
    expect(readme).toMatch(/npm ci` may warn that the install scripts of three\s+dependencies/);
    for (const name of ["esbuild", "tree-sitter-bash", "@parcel/watcher"]) expect(readme).toContain(`\`${name}\``);
    expect(readme).toMatch(/vitest takes about 3\s+minutes on two cores/);
  });
});

describe("--json keys are snake_case in every command", () => {
  /** camelCase keys kept one release beside their snake_case names (README: JSON keys are snake_case). */
  const DEPRECATED: Record<string, string> = {
    preRevert: "pre_revert",
    dryRun: "dry_run",
    userHead: "user_head",
    oldMode: "old_mode",
    newMode: "new_mode",
    oldOid: "old_oid",
    newOid: "new_oid",
    keptEdited: "kept_edited",
    filesStatted: "files_statted",
    filesHashed: "files_hashed",
    dirsRead: "dirs_read",
    durationMs: "duration_ms",
  };
  /** Keys that are not snake_case and not a deprecated alias with its twin beside it (event names like `PreToolUse` are data). */
  function badKeys(value: unknown, path: string, out: string[]): string[] {
    if (Array.isArray(value)) value.forEach((v) => badKeys(v, `${path}[]`, out));
    else if (typeof value === "object" && value !== null) {
      for (const [key, v] of Object.entries(value)) {
        // Dotted config paths (`detection.mode`) are data whose segments are snake_case too.
        const isSnake = /^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(key) || /^[A-Z][A-Za-z]+$/.test(key);
        const twin = DEPRECATED[key];
        if (!isSnake && !(twin !== undefined && twin in value)) out.push(`${path}.${key}`);
        badKeys(v, `${path}.${key}`, out);
      }
    }
    return out;
  }

  it("checkpoint, log, loops, diff, check, revert, tests, config, start, status, stats, doctor, report, install, uninstall, confirm, cancel", async () => {
    const root = makeRepo({ "test/a.test.js": 'import { test, expect } from "vitest";\ntest("a", () => { expect(1).toBe(1); });\n', "src/a.js": "export const a = 1;\n" });
    const commands: string[][] = [
      ["start", "Keep a", "--completion", "false", "--id", "l"],
      ["install", "--claude", "--git-hooks"],
      ["checkpoint", "-m", "one"],
      ["log"],
      ["loops"],
      ["diff", "@baseline"],
      ["revert", "@head", "--dry-run"],
      ["tests"],
      ["config"],
      ["status"],
      ["stats"],
      ["doctor"],
      ["report"],
      ["confirm"],
      ["uninstall"],
      ["cancel"],
    ];
    const found: string[] = [];
    for (const command of commands) {
      if (command[0] === "diff") writeFiles(root, { "src/a.js": "export const a = 2;\n" });
      const run = await runRalphInProcess(root, [...command, "--json"]);
      badKeys(parseJsonOutput(run), command.join(" "), found);
    }
    badKeys(parseJsonOutput(await runRalphInProcess(root, ["check", "--format", "json"])), "check", found);
    expect(found).toEqual([]);
  });
});

describe("ralph status on a corrupt state file", () => {
  it("exits 2 (an unreadable file the user can fix, as the README says), naming the file, not 3", async () => {
    const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
    expect((await runRalphInProcess(repo, ["start", "the task", "--completion", "false", "--id", "work"])).status).toBe(0);
    const statePath = join(repo, ".aiwg", "ralph", "loops", "work", "state.json");
    writeFileSync(statePath, '{"loop_id": "work", "status": ');
    const status = await runRalphInProcess(repo, ["status", "--loop", "work"]);
    expect(status.status, status.stderr).toBe(2);
    expect(status.stderr).toContain("state.json");
  });
});
