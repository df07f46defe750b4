/**
 * The CI snippets of the README and the composite action (action.yml) run
 * as written on a repository with a base and a head commit: each `ralph
 * check` line of the GitHub and GitLab jobs, with the CI variables set to
 * the base commit, and the action's check step with its inputs. A head that
 * deletes a test fails the job (exit 1) with a github annotation, a SARIF
 * result and a GitLab Code Quality issue; a harmless head passes.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cliPathForTests, PROJECT_ROOT, ralphEnv } from "../helpers/cli.js";
import { git, makeRepo } from "../helpers/git.js";

const README = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
const ciSection = README.slice(README.indexOf("\n## CI\n"), README.indexOf("\n## ", README.indexOf("\n## CI\n") + 5));
const yamlBlocks = [...ciSection.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string);

const TESTS = `import { expect, it } from "vitest";
it("adds numbers", () => {
  expect(1 + 1).toBe(2);
});
it("keeps the sign", () => {
  expect(-1 * 1).toBe(-1);
});
`;

/** A repository whose HEAD is `head` over a base commit; returns the root and the base oid. */
function baseAndHead(deleteTest: boolean): { root: string; base: string } {
  const root = makeRepo({ "test/math.test.ts": TESTS, "src/math.ts": "export const add = (a: number, b: number) => a + b;\n" });
  const base = git(root, ["rev-parse", "HEAD"]).trim();
  if (deleteTest) writeFileSync(join(root, "test", "math.test.ts"), TESTS.replace(/it\("keeps the sign"[\s\S]*?\n\}\);\n/, ""));
  else writeFileSync(join(root, "src", "math.ts"), "export const add = (a: number, b: number): number => a + b;\n");
  git(root, ["commit", "-q", "-am", "head"]);
  return { root, base };
}

/** Runs shell text with `ralph` being the built CLI, in `root`. */
function sh(root: string, script: string, env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync("bash", ["-c", `set -e\nralph() { node ${JSON.stringify(cliPathForTests())} "$@"; }\n${script}`], {
    cwd: root,
    env: { ...ralphEnv, ...env },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function checkLines(script: string[]): string[] {
  return script.filter((line) => /^ralph check /.test(line));
}

describe("the README's CI snippets and action.yml, run as written", () => {
  it("finds a GitHub workflow, the action's use and a GitLab job in the README", () => {
    expect(yamlBlocks).toHaveLength(3);
  });

  for (const deleteTest of [true, false]) {
    it(`GitHub workflow: ${deleteTest ? "a deleted test fails the job with an annotation and a SARIF result" : "a harmless change passes"}`, () => {
      const { root, base } = baseAndHead(deleteTest);
      const workflow = parse(yamlBlocks[0] as string) as { jobs: { ralph: { steps: { run?: string; with?: Record<string, unknown> }[] } } };
      const steps = workflow.jobs.ralph.steps;
      expect(steps[0]?.with).toEqual({ "fetch-depth": 0 });
      const lines = checkLines(steps.flatMap((s) => (s.run ? [s.run] : []))).map((line) => line.replaceAll("${{ github.event.pull_request.base.sha }}", base));
      expect(lines).toHaveLength(2);
      const sarifRun = sh(root, lines[0] as string);
      expect(sarifRun.status, sarifRun.stderr).toBe(0);
      const sarif = JSON.parse(readFileSync(join(root, "ralph.sarif"), "utf8")) as { runs: { results: { ruleId: string }[] }[] };
      expect(sarif.runs[0]?.results.map((r) => r.ruleId)).toEqual(deleteTest ? ["test_deletion"] : []);
      const annotate = sh(root, lines[1] as string);
      expect(annotate.status, annotate.stderr).toBe(deleteTest ? 1 : 0);
      if (deleteTest) expect(annotate.stdout).toMatch(/^::error file=test\/math\.test\.ts,line=\d+/m);
      else expect(annotate.stdout).not.toContain("::error");
    });

    it(`GitLab job: ${deleteTest ? "a deleted test fails the job and writes a Code Quality issue" : "a harmless change passes with an empty report"}`, () => {
      const { root, base } = baseAndHead(deleteTest);
      const job = (parse(yamlBlocks[2] as string) as { ralph: { script: string[]; variables: Record<string, unknown>; artifacts: { reports: { codequality: string } } } }).ralph;
      expect(job.variables.GIT_DEPTH).toBe(0);
      const lines = checkLines(job.script);
      expect(lines).toHaveLength(2);
      const env = { CI_MERGE_REQUEST_DIFF_BASE_SHA: base };
      expect(sh(root, lines[0] as string, env).status).toBe(0);
      const report = JSON.parse(readFileSync(join(root, job.artifacts.reports.codequality), "utf8")) as {
        check_name: string;
        severity: string;
        fingerprint: string;
        location: { path: string; lines: { begin: number } };
      }[];
      if (deleteTest) {
        expect(report).toEqual([
          {
            description: expect.stringContaining("keeps the sign"),
            check_name: "ralph/test_deletion",
            fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/),
            severity: "blocker",
            location: { path: "test/math.test.ts", lines: { begin: expect.any(Number) } },
          },
        ]);
      } else expect(report).toEqual([]);
      expect(sh(root, lines[1] as string, env).status).toBe(deleteTest ? 1 : 0);
    });
  }

  it("action.yml: its check step with the inputs' defaults fails on a deleted test and writes ralph.sarif", () => {
    const { root, base } = baseAndHead(true);
    const action = parse(readFileSync(join(PROJECT_ROOT, "action.yml"), "utf8")) as { runs: { using: string; steps: { name?: string; run?: string }[] }; inputs: Record<string, { default: string }> };
    expect(action.runs.using).toBe("composite");
    const step = action.runs.steps.find((s) => s.name === "ralph check");
    const result = sh(root, step?.run as string, { GITHUB_ACTION_PATH: dirname(dirname(cliPathForTests())), RALPH_BASE: base, RALPH_FAIL_ON: action.inputs["fail-on"]?.default });
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^::error file=test\/math\.test\.ts/m);
    expect(readFileSync(join(root, "ralph.sarif"), "utf8")).toContain('"ruleId": "test_deletion"');
    expect(yamlBlocks[1]).toMatch(/uses: OWNER\/ralph@main/);
  });
});
