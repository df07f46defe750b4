/** Which calls go through the warm process and what environment travels (src/daemon/routing.ts). */
import { describe, expect, it } from "vitest";
import { allowedEnv, isTruthyEnv, needsFullEnv, routeOf, startsDaemon } from "../../src/daemon/routing.js";

describe("routeOf", () => {
  const env = { PATH: "/usr/bin" };
  it.each([
    [["checkpoint"], "warm"],
    [["check", "--json"], "warm"],
    [["status"], "warm"],
    [["hook", "claude", "PreToolUse"], "warm"],
    [["hook", "claude", "Stop"], "warm"],
    [["hook", "git", "pre-push", "origin", "url"], "cold"],
    [["--version"], "cold"],
    [["-v"], "cold"],
    [[], "cold"],
    [["checkpoint", "--help"], "cold"],
    [["install", "--claude"], "cold"],
    [["revert", "HEAD"], "cold"],
    [["daemon", "status"], "cold"],
    [["doctor"], "cold"],
    [["demo"], "cold"],
  ] as const)("%j is %s", (argv, route) => {
    expect(routeOf(argv, env, "linux")).toBe(route);
  });

  it.each([
    [{ RALPH_NO_DAEMON: "1" }],
    [{ CI: "true" }],
    [{ CI: "1" }],
    [{ GIT_DIR: "/x/.git" }],
    [{ GIT_WORK_TREE: "/x" }],
    [{ GIT_INDEX_FILE: "/x/index" }],
    [{ GIT_OBJECT_DIRECTORY: "/x/objects" }],
  ])("%j routes everything cold", (extra) => {
    expect(routeOf(["checkpoint"], { ...env, ...extra }, "linux")).toBe("cold");
    expect(routeOf(["hook", "claude", "PostToolUse"], { ...env, ...extra }, "linux")).toBe("cold");
  });

  it("an empty CI or RALPH_NO_DAEMON=0 does not switch it off; Windows always runs in-process", () => {
    expect(routeOf(["checkpoint"], { CI: "", RALPH_NO_DAEMON: "0" }, "linux")).toBe("warm");
    expect(routeOf(["checkpoint"], {}, "win32")).toBe("cold");
  });
});

describe("what starts a warm process", () => {
  it("hooks, checkpoint, check and iterate do; read-only views do not", () => {
    expect(startsDaemon(["hook", "claude", "PostToolUse"])).toBe(true);
    expect(startsDaemon(["checkpoint"])).toBe(true);
    expect(startsDaemon(["check"])).toBe(true);
    expect(startsDaemon(["status"])).toBe(false);
    expect(startsDaemon(["log"])).toBe(false);
  });
});

describe("the environment a request carries", () => {
  it("keeps what ralph reads and drops the rest", () => {
    const env = {
      RALPH_LOOP: "l1",
      RALPH_PRETOOL_DECISION: "ask",
      CLAUDE_PROJECT_DIR: "/p",
      GIT_CONFIG_GLOBAL: "/dev/null",
      CI: "",
      HOME: "/home/u",
      PATH: "/bin",
      XDG_CONFIG_HOME: "/c",
      LC_ALL: "C",
      AWS_SECRET_ACCESS_KEY: "secret",
      GITHUB_TOKEN: "token",
      NPM_CONFIG_USERCONFIG: "/n",
      UNDEFINED: undefined,
    };
    expect(allowedEnv(env)).toEqual({
      RALPH_LOOP: "l1",
      RALPH_PRETOOL_DECISION: "ask",
      CLAUDE_PROJECT_DIR: "/p",
      GIT_CONFIG_GLOBAL: "/dev/null",
      CI: "",
      HOME: "/home/u",
      PATH: "/bin",
      XDG_CONFIG_HOME: "/c",
      LC_ALL: "C",
    });
  });

  it("the Stop hook and iterate, which run the completion command, carry the whole environment", () => {
    expect(needsFullEnv(["hook", "claude", "Stop"])).toBe(true);
    expect(needsFullEnv(["hook", "claude", "SubagentStop"])).toBe(true);
    expect(needsFullEnv(["iterate"])).toBe(true);
    expect(needsFullEnv(["hook", "claude", "PreToolUse"])).toBe(false);
    expect(needsFullEnv(["checkpoint"])).toBe(false);
  });
});

describe("RALPH_NO_DAEMON spellings", () => {
  it.each(["1", "true", "TRUE", "yes", "Yes", "on", "ON", " true "])('%j runs in-process (breaker defect 10: only "1" did)', (value) => {
    expect(isTruthyEnv(value)).toBe(true);
    expect(routeOf(["checkpoint"], { RALPH_NO_DAEMON: value }, "linux")).toBe("cold");
  });

  it.each(["0", "false", "FALSE", "no", "off", "Off", "", "   "])("%j leaves the warm process on", (value) => {
    expect(isTruthyEnv(value)).toBe(false);
    expect(routeOf(["checkpoint"], { RALPH_NO_DAEMON: value }, "linux")).toBe("warm");
  });

  it("unset is off", () => {
    expect(isTruthyEnv(undefined)).toBe(false);
  });
});
