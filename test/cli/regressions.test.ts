/**
 * Bugs found by trying ralph on real repositories (zod, express, ky), each
 * with the failing input first.
 */
import { execSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { commitAll, git, makeRepo, writeFiles } from "../helpers/git.js";
import { cliPathForTests, parseJsonOutput, ralphEnv, runRalphInProcess } from "../helpers/cli.js";

const TWO_TESTS = 'import { test } from "vitest";\ntest("one", () => {});\ntest("two", () => {});\n';

describe("regressions", () => {
  it("check without --from compares against the loop's baseline, so a committed deletion is caught", async () => {
    const root = makeRepo({ "test/a.test.js": TWO_TESTS });
    expect((await runRalphInProcess(root, ["checkpoint", "-m", "before the agent"])).status).toBe(0);
    writeFiles(root, { "test/a.test.js": 'import { test } from "vitest";\ntest("one", () => {});\n' });
    commitAll(root, "agent: remove flaky test");
    const result = await runRalphInProcess(root, ["check", "--format", "json"]);
    expect(result.status).toBe(1);
    const json = parseJsonOutput<{ verdict: string; findings: { type: string; test?: string }[] }>(result);
    expect(json.verdict).toBe("BLOCK");
    expect(json.findings.map((f) => f.test)).toContain("two");
  });

  it("a Ralph-Allow in the user's commit applies when both sides are checkpoints (it is read through Ralph-Head)", async () => {
    const root = makeRepo({ "test/a.test.js": TWO_TESTS });
    expect((await runRalphInProcess(root, ["checkpoint", "-m", "baseline"])).status).toBe(0);
    writeFiles(root, { "test/a.test.js": 'import { test } from "vitest";\ntest("one", () => {});\n' });
    git(root, ["add", "-A"]);
    git(root, ["commit", "-q", "-m", "drop the obsolete test\n\nRalph-Allow: test_deletion the feature it covered was removed"]);
    expect((await runRalphInProcess(root, ["checkpoint", "-m", "after"])).status).toBe(0);
    const result = await runRalphInProcess(root, ["check", "--from", "@baseline", "--to", "@head", "--format", "json"]);
    const json = parseJsonOutput<{ verdict: string; findings: { type: string; allowed: boolean }[] }>(result);
    expect(json.findings).toEqual([expect.objectContaining({ type: "test_deletion", allowed: true })]);
    expect(json.verdict).toBe("WARN");
    expect(result.status).toBe(0);
  });

  it("check in a repository with no loops compares HEAD with the working tree", async () => {
    const root = makeRepo({ "test/a.test.js": TWO_TESTS });
    writeFiles(root, { "test/a.test.js": 'import { test } from "vitest";\ntest("one", () => {});\n' });
    expect((await runRalphInProcess(root, ["check"])).status).toBe(1);
  });

  it("text output is plain when piped, even with CI set (picocolors alone would colour it); FORCE_COLOR and NO_COLOR still win", async () => {
    const root = makeRepo({ "test/a.test.js": TWO_TESTS });
    writeFiles(root, { "test/a.test.js": 'import { test } from "vitest";\ntest("one", () => {});\n' });
    const ESC = "\u001b[";
    const piped = await runRalphInProcess(root, ["check"], { env: { CI: "true", FORCE_COLOR: undefined, NO_COLOR: undefined } });
    expect(piped.status).toBe(1);
    expect(piped.stdout).toMatch(/^BLOCK {2}HEAD -> WORKTREE/);
    expect(piped.stdout).not.toContain(ESC);
    const forced = await runRalphInProcess(root, ["check"], { env: { FORCE_COLOR: "1", NO_COLOR: undefined } });
    expect(forced.stdout.startsWith(`${ESC}1m${ESC}31mBLOCK`)).toBe(true);
    const both = await runRalphInProcess(root, ["check"], { env: { FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(both.stdout).not.toContain(ESC);
  });

  it("a deleted test's location in text output is where it was ('was line N'), not a line of the new file", async () => {
    const root = makeRepo({ "test/a.test.js": 'import { test } from "vitest";\ntest("one", () => {});\n\n\ntest("keeps the sign", () => {});\n' });
    writeFiles(root, { "test/a.test.js": 'import { test } from "vitest";\ntest("one", () => {});\n' });
    const text = (await runRalphInProcess(root, ["check"])).stdout;
    expect(text).toMatch(/critical test_deletion\s+was line 5\n/);
  });

  it("a Ralph-Allow trailer with a misspelt type is named as ignored, not silently dropped", async () => {
    const root = makeRepo({ "test/a.test.js": TWO_TESTS });
    writeFiles(root, { "test/a.test.js": 'import { test } from "vitest";\ntest("one", () => {});\n' });
    git(root, ["add", "-A"]);
    git(root, ["commit", "-q", "-m", "drop two\n\nRalph-Allow: test_delition obsolete"]);
    const result = await runRalphInProcess(root, ["check", "--from", "HEAD~1", "--to", "HEAD"]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/warning: Ralph-Allow: test_delition obsolete \(commit [0-9a-f]{12}\) was ignored: "test_delition" is not a finding type; use one of test_deletion, /);
    const json = parseJsonOutput<{ warnings: string[] }>(await runRalphInProcess(root, ["check", "--from", "HEAD~1", "--to", "HEAD", "--format", "json"]));
    expect(json.warnings).toHaveLength(1);
  });

  it("an empty --loop is an error, not the default loop", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const result = await runRalphInProcess(root, ["checkpoint", "--loop", "", "--json"]);
    expect(result.status).toBe(2);
    expect(parseJsonOutput<{ error: { code: string } }>(result).error.code).toBe("E_BAD_LOOP_ID");
    expect(git(root, ["for-each-ref", "refs/ralph"])).toBe("");
  });

  it("number-looking flag values are kept as typed (--loop 007, -m 1e3, --from 0313553)", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const head = git(root, ["rev-parse", "HEAD"]).trim();
    expect((await runRalphInProcess(root, ["checkpoint", "--loop", "007", "-m", "1e3"])).status).toBe(0);
    expect(git(root, ["log", "-1", "--format=%s", "refs/ralph/007/head"]).trim()).toBe("1e3");
    // An abbreviated oid made of digits only must not lose its leading zeros.
    const digits = await runRalphInProcess(root, ["check", "--from", head.slice(0, 7), "--loop", "007", "--format", "json"]);
    expect(digits.status).toBe(0);
  });

  it("a refused revert writes no pre-revert checkpoint and moves no ref", async () => {
    const root = makeRepo({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
    execSync("rm a.txt b.txt c.txt", { cwd: root });
    expect((await runRalphInProcess(root, ["checkpoint", "--loop", "wipe"])).status).toBe(0);
    git(root, ["checkout", "--", "."]);
    const head = git(root, ["rev-parse", "refs/ralph/wipe/head"]).trim();
    const refused = await runRalphInProcess(root, ["revert", "@head", "--loop", "wipe", "--json"]);
    expect(refused.status).toBe(2);
    expect(parseJsonOutput<{ error: { code: string } }>(refused).error.code).toBe("E_RESTORE_REFUSED");
    expect(git(root, ["rev-parse", "refs/ralph/wipe/head"]).trim()).toBe(head);
    // The advice in the error works: --force restores the wiped state.
    expect((await runRalphInProcess(root, ["revert", "@head", "--loop", "wipe", "--force"])).status).toBe(0);
    expect(git(root, ["status", "--porcelain"])).toBe(" D a.txt\n D b.txt\n D c.txt\n");
  });

  it("a reader that closes the pipe early is not an error (no stack trace, exit 0)", async () => {
    const root = makeRepo({});
    const many = Array.from({ length: 3000 }, (_, i) => `test("t${i}", () => {});`).join("\n");
    writeFiles(root, { "test/many.test.js": `import { test } from "vitest";\n${many}\n` });
    commitAll(root, "many tests");
    const out = execSync(`node ${JSON.stringify(cliPathForTests())} tests | head -1; echo "status=\${PIPESTATUS[0]}"`, {
      cwd: root,
      env: ralphEnv,
      shell: "/bin/bash",
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(out).toMatch(/status=0\n$/);
  });

  it("names the accepted values of an enum flag", async () => {
    const root = makeRepo({ "a.txt": "a\n" });
    const result = await runRalphInProcess(root, ["check", "--format", "sarif-nope"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/use one of text, json, (sarif, )?github\b/);
  });
});
