/** Which calls go through the warm process and what environment travels (src/daemon/routing.ts). */
import { describe, expect, it } from "vitest";
import { allowedEnv, isTruthyEnv, namedFilesOf, needsFullEnv, routeOf, startsDaemon, takesDirtySet } from "../../src/daemon/routing.js";

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

describe("which requests take the watcher's dirty set first", () => {
  const payload = (o: object): Buffer => Buffer.from(JSON.stringify(o));
  it("commands that snapshot the work tree take it; iterate and the rest do not", () => {
    for (const c of ["checkpoint", "check", "status", "diff", "tests"]) expect(takesDirtySet([c], Buffer.alloc(0))).toBe(true);
    for (const c of ["iterate", "log", "loops", "stats"]) expect(takesDirtySet([c], Buffer.alloc(0))).toBe(false);
  });
  it("hooks: not PreToolUse, Stop, SubagentStop, a file tool's PostToolUse or a payload that is not JSON", () => {
    expect(takesDirtySet(["hook", "claude", "PostToolUse"], payload({ tool_name: "Bash" }))).toBe(true);
    expect(takesDirtySet(["hook", "claude"], payload({ hook_event_name: "PostToolUse", tool_name: "Bash" }))).toBe(true);
    expect(takesDirtySet(["hook", "claude", "PostToolUse"], payload({ tool_name: "Edit" }))).toBe(false);
    expect(takesDirtySet(["hook", "claude", "PostToolUse"], payload({ tool_name: "Write" }))).toBe(false);
    expect(takesDirtySet(["hook", "claude", "SessionStart"], payload({}))).toBe(true);
    for (const e of ["PreToolUse", "Stop", "SubagentStop"]) expect(takesDirtySet(["hook", "claude", e], payload({ tool_name: "Bash" }))).toBe(false);
    expect(takesDirtySet(["hook", "claude"], payload({ hook_event_name: "Stop" }))).toBe(false);
    expect(takesDirtySet(["hook", "claude", "PostToolUse"], Buffer.from("not json"))).toBe(false);
    expect(takesDirtySet(["hook", "git", "pre-push"], Buffer.alloc(0))).toBe(false);
  });
});

describe("the files a file tool's PostToolUse names", () => {
  const payload = (o: object): Buffer => Buffer.from(JSON.stringify(o));
  it("Write, Edit, MultiEdit and NotebookEdit after the tool; nothing for other tools, events or payloads", () => {
    expect(namedFilesOf(["hook", "claude", "PostToolUse"], payload({ tool_name: "Edit", tool_input: { file_path: "/w/a.ts" }, cwd: "/w" }))).toEqual({ files: ["/w/a.ts"], cwd: "/w" });
    expect(namedFilesOf(["hook", "claude"], payload({ hook_event_name: "PostToolUse", tool_name: "NotebookEdit", tool_input: { notebook_path: "n.ipynb" } }))).toEqual({
      files: ["n.ipynb"],
      cwd: undefined,
    });
    expect(namedFilesOf(["hook", "claude", "PostToolUse"], payload({ tool_name: "Bash", tool_input: { command: "ls" } }))).toBeNull();
    expect(namedFilesOf(["hook", "claude", "PreToolUse"], payload({ tool_name: "Edit", tool_input: { file_path: "/w/a.ts" } }))).toBeNull();
    expect(namedFilesOf(["hook", "claude", "PostToolUse"], payload({ tool_name: "Write", tool_input: {} }))).toBeNull();
    expect(namedFilesOf(["hook", "claude", "PostToolUse"], Buffer.from("{bad"))).toBeNull();
    expect(namedFilesOf(["checkpoint"], Buffer.alloc(0))).toBeNull();
  });
});
