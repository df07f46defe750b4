/**
 * The run's environment, parsed once (src/runtime-env.ts), and what the
 * store does with it: git's variables as git reads them, ralph's knobs
 * with their defaults, and checkpoint commits dated and signed as
 * git-commit-tree(1) does.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { commandLoop } from "../../src/cli/commands/shared.js";
import { parseGitDate } from "../../src/store/git-date.js";
import { openRepository } from "../../src/store/repo.js";
import { DEFAULT_LOCK_TIMEOUT_MS, EMPTY_RUNTIME_ENV, homeOf, parseRuntimeEnv } from "../../src/runtime-env.js";
import { git, makeRepo, makeTempDir } from "../helpers/git.js";

describe("parseRuntimeEnv", () => {
  it("the lock wait defaults to 15 s when RALPH_LOCK_TIMEOUT_MS is unset (test/store/robustness sets it to wait less)", () => {
    expect(DEFAULT_LOCK_TIMEOUT_MS).toBe(15_000);
    expect(parseRuntimeEnv({}).lockTimeoutMs).toBe(15_000);
  });

  it("reads each knob with its unit and default, and an invalid value takes the default", () => {
    expect(EMPTY_RUNTIME_ENV).toMatchObject({ debug: false, loop: undefined, lockTimeoutMs: DEFAULT_LOCK_TIMEOUT_MS, fsync: true, contextWindowTokens: null, wasmTierUp: false });
    const env = parseRuntimeEnv({ RALPH_DEBUG: "1", RALPH_LOOP: "l1", RALPH_LOCK_TIMEOUT_MS: "250", RALPH_FSYNC: "Off", RALPH_CONTEXT_WINDOW: "500000", RALPH_WASM_TIERUP: "1" });
    expect(env).toMatchObject({ debug: true, loop: "l1", lockTimeoutMs: 250, fsync: false, contextWindowTokens: 500_000, wasmTierUp: true });
    expect(parseRuntimeEnv({ RALPH_DEBUG: "0", RALPH_LOCK_TIMEOUT_MS: "-1", RALPH_CONTEXT_WINDOW: "1.5", RALPH_FSYNC: "yes", RALPH_LOOP: "" })).toMatchObject({
      debug: false,
      loop: undefined,
      lockTimeoutMs: DEFAULT_LOCK_TIMEOUT_MS,
      contextWindowTokens: null,
      fsync: true,
    });
    expect(parseRuntimeEnv({ RALPH_LOCK_TIMEOUT_MS: "0" }).lockTimeoutMs).toBe(0);
  });

  it("copies the environment: a later change to the caller's object does not reach the run", () => {
    const vars: NodeJS.ProcessEnv = { RALPH_LOOP: "first" };
    const env = parseRuntimeEnv(vars);
    vars.RALPH_LOOP = "second";
    vars.PATH = "/changed";
    expect(env.loop).toBe("first");
    expect(env.vars.PATH).toBeUndefined();
    expect(Object.isFrozen(env.vars)).toBe(true);
  });

  it("reads git's variables as git does (GIT_CONFIG_NOSYSTEM true values, empty XDG_CONFIG_HOME ignored, HOME else the passwd home)", () => {
    expect(parseRuntimeEnv({ GIT_CONFIG_NOSYSTEM: "1" }).git.readSystemConfig).toBe(false);
    expect(parseRuntimeEnv({ GIT_CONFIG_NOSYSTEM: "false" }).git.readSystemConfig).toBe(true);
    expect(parseRuntimeEnv({}).git).toMatchObject({ readSystemConfig: true, systemConfig: "/etc/gitconfig", globalConfig: undefined, xdgConfigHome: undefined });
    expect(parseRuntimeEnv({ XDG_CONFIG_HOME: "" }).git.xdgConfigHome).toBeUndefined();
    expect(homeOf(parseRuntimeEnv({ HOME: "/home/u" }).git)).toBe("/home/u");
    expect(homeOf(parseRuntimeEnv({}).git)).toMatch(/^\//);
  });
});

describe("git's date formats (git-commit-tree(1) DATE FORMATS)", () => {
  it.each([
    ["1700000000 +0100", 1_700_000_000, "+0100"],
    ["@1700000000", 1_700_000_000, "+0000"],
    ["2026-01-01T00:00:00Z", 1_767_225_600, "+0000"],
    ["2026-01-01 02:30:00 +02:30", 1_767_225_600, "+0230"],
    ["2026-01-01T00:00:00.123-0500", 1_767_243_600, "-0500"],
    ["Thu, 01 Jan 2026 01:00:00 +0100", 1_767_225_600, "+0100"],
  ] as const)("%s", (text, timestamp, timezone) => {
    expect(parseGitDate(text)).toEqual({ timestamp, timezone });
  });

  it("refuses what is none of them", () => {
    for (const text of ["yesterday", "2026-13-01T00:00:00Z", "", "12:00"]) expect(parseGitDate(text), text).toBeNull();
  });
});

describe("the store under a run's environment", () => {
  it("dates and signs checkpoint commits from GIT_AUTHOR_*/GIT_COMMITTER_*, else user.name/user.email and now", () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const env = parseRuntimeEnv({
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "An Author",
      GIT_AUTHOR_EMAIL: "author@example.invalid",
      GIT_AUTHOR_DATE: "1700000000 +0100",
      GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
    });
    const oid = CheckpointStore.open(repo, env).checkpoint({ loop: "default" as never, kind: "manual" }).oid;
    const header = git(repo, ["cat-file", "commit", oid]);
    expect(header).toContain("author An Author <author@example.invalid> 1700000000 +0100\n");
    expect(header).toContain("committer ralph <ralph@localhost> 1767225600 +0000\n");
    const before = Math.floor(Date.now() / 1000);
    writeFileSync(join(repo, "a.txt"), "b\n");
    const plain = CheckpointStore.open(repo, parseRuntimeEnv({ GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" })).checkpoint({ loop: "default" as never, kind: "manual" }).oid;
    const committed = Number(/^committer ralph <ralph@localhost> (\d+) /m.exec(git(repo, ["cat-file", "commit", plain]))?.[1]);
    expect(committed).toBeGreaterThanOrEqual(before);
  });

  it("refuses an unparseable GIT_COMMITTER_DATE with a usage error naming it", () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const store = CheckpointStore.open(repo, parseRuntimeEnv({ GIT_COMMITTER_DATE: "yesterday" }));
    expect(() => store.checkpoint({ loop: "default" as never, kind: "manual" })).toThrow(expect.objectContaining({ code: "E_USAGE", message: expect.stringContaining("GIT_COMMITTER_DATE") }));
  });

  it("takes RALPH_LOOP and the global config from the run's environment, not the process's", () => {
    const repo = makeRepo({ "a.txt": "a\n" });
    const home = makeTempDir();
    writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = From Home\n\temail = home@example.invalid\n");
    const env = parseRuntimeEnv({ HOME: home, GIT_CONFIG_NOSYSTEM: "1", RALPH_LOOP: "env-loop" });
    const store = CheckpointStore.open(repo, env);
    expect(commandLoop(store, undefined, "checkpoints")).toBe("env-loop");
    expect(commandLoop(store, "named", "checkpoints")).toBe("named");
    expect(store.repo.config.get("user.name")).toBe("From Home");
    expect(commandLoop(CheckpointStore.open(repo, EMPTY_RUNTIME_ENV), undefined, "checkpoints")).toBe("default");
    const xdg = makeTempDir();
    mkdirSync(join(xdg, "git"));
    writeFileSync(join(xdg, "git", "config"), "[user]\n\tname = From XDG\n");
    expect(openRepository(repo, parseRuntimeEnv({ HOME: makeTempDir(), XDG_CONFIG_HOME: xdg, GIT_CONFIG_NOSYSTEM: "1" })).config.get("user.name")).toBe("From XDG");
  });

  it("GIT_DIR that does not exist is E_NOT_A_REPO, as git says 'not a git repository'", () => {
    const dir = makeTempDir();
    expect(() => openRepository(dir, parseRuntimeEnv({ GIT_DIR: join(dir, "missing.git") }))).toThrow(expect.objectContaining({ code: "E_NOT_A_REPO" }));
  });
});
