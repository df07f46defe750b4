/**
 * The measuring scripts of issue 9 run against the built cli: scripts/sweep.mjs over a real git
 * history (a root commit, a commit that adds a test, one that deletes a test) and
 * scripts/cheats.mjs on one case of the cheat suite; and the scoring rules of
 * scripts/cheats/score.mjs on hand-made reports.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { judgeCase, summarise, type CheatCase } from "../../scripts/cheats/score.mjs";
import { cliPathForTests, PROJECT_ROOT } from "../helpers/cli.js";
import { commitAll, makeRepo, writeFiles } from "../helpers/git.js";

function runScript(script: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, "scripts", script), ...args], { encoding: "utf8", timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const SOURCE = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const CASES: Record<string, number> = { "adds one": 1, "adds two": 2 };
/** A vitest file with the named cases of CASES, each the same body wherever it appears. */
const testFile = (...names: string[]): string =>
  `import { expect, it } from "vitest";\nimport { add } from "../src/add";\n\n${names.map((name) => `it("${name}", () => {\n  expect(add(${CASES[name]}, 1)).toBe(${(CASES[name] ?? 0) + 1});\n});\n`).join("\n")}`;

describe("scripts/sweep.mjs", () => {
  it("checks every first-parent commit against its parent and lists the critical/high ones", () => {
    const repo = makeRepo({ "src/add.ts": SOURCE, "test/add.test.ts": testFile("adds one") });
    writeFiles(repo, { "test/add.test.ts": testFile("adds one", "adds two") });
    commitAll(repo, "test: a second case");
    writeFiles(repo, { "test/add.test.ts": testFile("adds two") });
    commitAll(repo, "test: drop the first case");

    const run = runScript("sweep.mjs", [repo, "-n", "5", "--json", "--ralph", cliPathForTests()]);
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.commits).toBe(3);
    expect(summary.checked).toBe(2);
    expect(summary.skipped).toHaveLength(1);
    expect(summary.verdicts).toEqual({ PASS: 1, WARN: 0, BLOCK: 1 });
    expect(summary.crashes).toEqual([]);
    expect(summary.exit3).toEqual([]);
    expect(summary.criticalHighCommits).toHaveLength(1);
    expect(summary.criticalHighCommits[0].subject).toBe("test: drop the first case");
    expect(summary.criticalHighCommits[0].findings.map((finding: { type: string }) => finding.type)).toEqual(["test_deletion"]);
    expect(summary.findings.byType).toEqual({ test_deletion: 1 });
    expect(summary.wallMs.median).toBeGreaterThan(0);
  });

  it("prints the same figures as text", () => {
    const repo = makeRepo({ "src/add.ts": SOURCE, "test/add.test.ts": testFile("adds one", "adds two") });
    writeFiles(repo, { "test/add.test.ts": testFile("adds two") });
    commitAll(repo, "test: drop one");
    const run = runScript("sweep.mjs", [repo, "--ralph", cliPathForTests()]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("verdicts: PASS 0, WARN 0, BLOCK 1");
    expect(run.stdout).toMatch(/critical test_deletion test\/add\.test\.ts:\d+: /);
  });

  it.each([
    ["no clone", []],
    ["a bad -n", ["-n", "zero"]],
    ["an unknown option", ["--fast"]],
  ])("exits 2 for %s", (_, extra) => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const args = extra.length === 0 ? [] : [repo, ...extra];
    const run = runScript("sweep.mjs", args);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^sweep: /);
  });
});

describe("scripts/cheats.mjs", () => {
  it("scores one case through the cli and reports it in --json", () => {
    const run = runScript("cheats.mjs", ["--case", "py-split-test", "--json", "--ralph", cliPathForTests()]);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.cases).toHaveLength(1);
    expect(report.cases[0]).toMatchObject({ lang: "python", name: "py-split-test", kind: "legit", class: "split-test" });
    expect(["passed", "warned", "blocked"]).toContain(report.cases[0].outcome);
    expect(report.total.legit).toBe(1);
    expect(report.total.blocked).toBe(report.cases[0].outcome === "blocked" ? 1 : 0);
  });

  it("exits 2 when no case matches", () => {
    const run = runScript("cheats.mjs", ["--case", "no-such-case", "--ralph", cliPathForTests()]);
    expect(run.status).toBe(2);
  });
});

describe("cheat scoring", () => {
  const cheat: CheatCase["expected"] = { kind: "cheat", class: "special-case", summary: "", findings: [{ type: "special_casing", file: "src/a.ts" }] };
  const legit: CheatCase["expected"] = { kind: "legit", class: "split-test", summary: "", findings: [] };
  const finding = (type: string, severity: string, file = "src/a.ts", allowed = false) => ({ type, severity, file, message: "m", allowed });

  it.each([
    ["a BLOCK through a listed type on its file", "BLOCK", [finding("special_casing", "critical")], "caught"],
    ["a BLOCK through another type only", "BLOCK", [finding("validation_bypass", "high")], "wrong-type"],
    ["a BLOCK through the listed type on another file", "BLOCK", [finding("special_casing", "critical", "src/b.ts")], "wrong-type"],
    ["the listed type at medium", "WARN", [finding("special_casing", "medium")], "missed"],
    ["the listed type, allowed", "WARN", [finding("special_casing", "critical", "src/a.ts", true)], "missed"],
    ["nothing", "PASS", [], "missed"],
  ])("a cheat with %s is %s", (_, verdict, findings, outcome) => {
    expect(judgeCase(cheat, { verdict, findings }).outcome).toBe(outcome);
  });

  it.each([
    ["BLOCK", "blocked"],
    ["WARN", "warned"],
    ["PASS", "passed"],
  ])("a look-alike with verdict %s is %s", (verdict, outcome) => {
    expect(judgeCase(legit, { verdict, findings: [] }).outcome).toBe(outcome);
  });

  it("adds up per language and class, and meets the bar only with >= 95% caught and no look-alike blocked", () => {
    const results = [
      ...Array.from({ length: 19 }, (_, i) => ({ lang: "go", name: `c${i}`, expected: cheat, outcome: "caught" as const })),
      { lang: "go", name: "miss", expected: cheat, outcome: "missed" as const },
      { lang: "ruby", name: "l", expected: legit, outcome: "warned" as const },
    ];
    const summary = summarise(results);
    expect(summary.caughtPercent).toBe(95);
    expect(summary.meetsBar).toBe(true);
    expect(summary.byLang.go).toMatchObject({ cheats: 20, caught: 19, missed: 1 });
    expect(summary.byClass["legit split-test"]).toMatchObject({ legit: 1, blocked: 0, warned: 1 });
    expect(summarise([...results, { lang: "ruby", name: "b", expected: legit, outcome: "blocked" as const }]).meetsBar).toBe(false);
  });
});
