/**
 * The in-process runner and the built binary agree on the same command
 * lines (the in-process path is what most CLI tests use).
 */
import { describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runRalph, runRalphInProcess, type RunOptions, type RunResult } from "../helpers/cli.js";
import { git, makeRepo } from "../helpers/git.js";

/** `ref oid` lines of every ref under refs/ralph/. */
function ralphRefs(repo: string): string[] {
  return git(repo, ["for-each-ref", "--format=%(refname) %(objectname)", "refs/ralph/"])
    .split("\n")
    .filter((line) => line !== "");
}

/** Runs `args` in two fresh, equal repositories (one per runner) and compares exit code, stdout and stderr, repo paths and timings scrubbed. */
async function expectSame(
  files: Record<string, string>,
  args: string[],
  options: RunOptions = {},
  prepare: (repo: string) => void = () => undefined,
): Promise<{ binary: RunResult; inProcess: RunResult }> {
  const binaryRepo = makeRepo(files);
  const inProcessRepo = makeRepo(files);
  prepare(binaryRepo);
  prepare(inProcessRepo);
  const forRepo = (repo: string): RunOptions => ({ ...options, ...(typeof options.input === "string" ? { input: options.input.replaceAll("REPO", repo) } : {}) });
  const binary = runRalph(binaryRepo, args, forRepo(binaryRepo));
  const inProcess = await runRalphInProcess(inProcessRepo, args, forRepo(inProcessRepo));
  const scrub = (text: string) =>
    text
      .replaceAll(binaryRepo, "REPO")
      .replaceAll(inProcessRepo, "REPO")
      .replace(/"(\w*(?:uration|_ms|Ms))": [\d.]+/g, '"$1": 0');
  expect(inProcess.status, args.join(" ")).toBe(binary.status);
  expect(scrub(inProcess.stdout), args.join(" ")).toBe(scrub(binary.stdout));
  expect(scrub(inProcess.stderr), args.join(" ")).toBe(scrub(binary.stderr));
  // The same commits under refs/ralph/: the same identity, dates and trees (the environment reached the store).
  expect(ralphRefs(inProcessRepo), args.join(" ")).toEqual(ralphRefs(binaryRepo));
  return { binary, inProcess };
}

describe("runRalphInProcess", () => {
  it("gives the binary's stdout, stderr and exit code for a checkpoint, a log and an error", async () => {
    for (const args of [["checkpoint", "--json"], ["log", "--json"], ["revert", "no-such-checkpoint"], ["--version"]]) {
      const binaryRepo = makeRepo({ "a.txt": "a\n" });
      const inProcessRepo = makeRepo({ "a.txt": "a\n" });
      const binary = runRalph(binaryRepo, args);
      const inProcess = await runRalphInProcess(inProcessRepo, args);
      expect(inProcess.status, args.join(" ")).toBe(binary.status);
      const scrub = (text: string) =>
        text
          .replaceAll(binaryRepo, "REPO")
          .replaceAll(inProcessRepo, "REPO")
          .replace(/"(\w*(?:uration|_ms|Ms))": [\d.]+/g, '"$1": 0');
      expect(scrub(inProcess.stdout), args.join(" ")).toBe(scrub(binary.stdout));
      expect(scrub(inProcess.stderr), args.join(" ")).toBe(scrub(binary.stderr));
    }
  });

  it("gives the binary's answer to a Claude Code hook call that checkpoints an edit", async () => {
    const payload = JSON.stringify({ session_id: "s1", hook_event_name: "PostToolUse", cwd: "REPO", tool_name: "Write", tool_use_id: "t1", tool_input: { file_path: "REPO/a.txt", content: "b\n" } });
    const { binary } = await expectSame({ "a.txt": "a\n" }, ["hook", "claude", "PostToolUse"], { input: payload }, (repo) => writeFileSync(join(repo, "a.txt"), "b\n"));
    expect(binary.status).toBe(0);
    expect(JSON.parse(binary.stdout)).toEqual({});
  });

  it("gives the binary's check --json for a deleted test", async () => {
    const files = {
      "package.json": '{"name":"x","type":"module"}\n',
      "src/add.ts": "export const add = (a: number, b: number) => a + b;\n",
      "test/add.test.ts":
        'import { it, expect } from "vitest";\nimport { add } from "../src/add";\nit("adds", () => { expect(add(1, 2)).toBe(3); });\nit("adds zero", () => { expect(add(0, 2)).toBe(2); });\n',
    };
    const { binary } = await expectSame(files, ["check", "--from", "HEAD", "--json"], {}, (repo) =>
      writeFileSync(join(repo, "test", "add.test.ts"), 'import { it, expect } from "vitest";\nimport { add } from "../src/add";\nit("adds", () => { expect(add(1, 2)).toBe(3); });\n'),
    );
    expect(binary.status).toBe(1);
    expect(JSON.parse(binary.stdout)).toMatchObject({ verdict: "BLOCK" });
  });

  it("gives the binary's --json error object and exit code for an unknown revision, and for a GIT_DIR that does not exist", async () => {
    const { binary } = await expectSame({ "a.txt": "a\n" }, ["diff", "no-such-rev", "--json"]);
    expect(binary.status).toBe(2);
    expect(JSON.parse(binary.stdout)).toMatchObject({ error: { code: "E_UNKNOWN_REV" } });
    const outside = await expectSame({}, ["log", "--json"], { env: { GIT_DIR: "/nonexistent-ralph-git-dir" } });
    expect(JSON.parse(outside.binary.stdout)).toMatchObject({ error: { code: "E_NOT_A_REPO" } });
  });
});
