/**
 * `ralph hook claude` through the built CLI, as Claude Code runs it: one
 * JSON payload on stdin (fixtures/hooks, shapes from the hooks reference),
 * exactly one JSON object on stdout, exit 0, a hook-log line per call.
 * Run `npm run build` first.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPathForTests, linesOf, parseJsonOutput, ralphEnv, runRalph, runRalphAsync, runRalphInProcess, type RunOptions, type RunResult } from "../helpers/cli.js";
import { fsck, git, makeRepo } from "../helpers/git.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "fixtures", "hooks");

const MATH_TEST = [
  'import { expect, it } from "vitest";',
  'import { add } from "../src/math";',
  "",
  'it("adds", () => {',
  "  expect(add(1, 2)).toBe(3);",
  "});",
  "",
  'it("adds negatives", () => {',
  "  expect(add(-1, -2)).toBe(-3);",
  "});",
  "",
].join("\n");

function sampleRepo(): string {
  return makeRepo({
    "src/math.ts": "export const add = (a: number, b: number) => a + b;\n",
    "test/math.test.ts": MATH_TEST,
    "notes.ipynb": `${JSON.stringify({ cells: [{ id: "c1", cell_type: "code", metadata: {}, source: ["print(1)\n"], outputs: [], execution_count: null }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`,
    "package.json": '{ "name": "sample", "scripts": { "test": "vitest run" } }\n',
  });
}

/** A fixture payload with `{{ROOT}}` replaced. */
function fixture(name: string, root: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8").replaceAll("{{ROOT}}", root)) as Record<string, unknown>;
}

/** The command line of one hook call, and its options: the payload on stdin (closed after). */
function hookCall(payload: unknown, options: { env?: NodeJS.ProcessEnv; raw?: string }): [string[], RunOptions] {
  const event = typeof payload === "object" && payload !== null ? String((payload as Record<string, unknown>).hook_event_name ?? "") : "";
  return [["hook", "claude", ...(event ? [event] : [])], { input: options.raw ?? JSON.stringify(payload), ...(options.env ? { env: options.env } : {}) }];
}

/** Runs one hook call in-process (runCli, as dist/cli.js does). */
function hook(root: string, payload: unknown, options: { env?: NodeJS.ProcessEnv; raw?: string } = {}): Promise<RunResult> {
  return runRalphInProcess(root, ...hookCall(payload, options));
}

/** Runs one hook call through the built binary, as Claude Code does. */
function hookBinary(root: string, payload: unknown, options: { env?: NodeJS.ProcessEnv; raw?: string } = {}): RunResult {
  return runRalph(root, ...hookCall(payload, options));
}

/** The one JSON object a hook printed, after checking the protocol: exit 0, one line, an object. */
function answerOf(result: RunResult): Record<string, unknown> {
  expect(result.status, result.stderr).toBe(0);
  expect(linesOf(result.stdout)).toHaveLength(1);
  const value = parseJsonOutput<Record<string, unknown>>(result);
  expect(typeof value === "object" && value !== null && !Array.isArray(value)).toBe(true);
  return value;
}

function hookLog(root: string, loop = "claude-fixture-session"): Record<string, unknown>[] {
  const path = join(root, ".aiwg", "ralph", "loops", loop, "hook-log.jsonl");
  if (!existsSync(path)) return [];
  return linesOf(readFileSync(path, "utf8")).map((line) => JSON.parse(line) as Record<string, unknown>);
}

const ALL_FIXTURES = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -5))
  .sort();

describe("ralph hook claude: every event and tool shape", () => {
  it.each(ALL_FIXTURES.map((name) => [name]))("%s answers one JSON object, exit 0, and logs one line", async (name) => {
    const root = sampleRepo();
    await hook(root, fixture("session-start", root));
    const payload = fixture(name, root);
    // The post-tool fixtures describe a change that happened: make it happen.
    if (name.startsWith("post-write")) writeFileSync(join(root, "src/extra.ts"), "export const extra = 1;\n");
    if (name.startsWith("post-edit")) writeFileSync(join(root, "src/math.ts"), "export const add = (a: number, b: number) => b + a;\n");
    const before = hookLog(root).length;
    const answer = answerOf(await hook(root, payload));
    const log = hookLog(root);
    expect(log).toHaveLength(before + 1);
    const last = log[log.length - 1] as Record<string, unknown>;
    expect(last).toMatchObject({ agent: "claude", event: payload.hook_event_name, loop: "claude-fixture-session" });
    expect(typeof last.duration_ms).toBe("number");
    // None of these harmless calls objects to anything.
    expect(JSON.stringify(answer)).not.toMatch(/"deny"|"block"/);
    if (name.startsWith("post-edit") || name.startsWith("post-write")) expect(last.checkpoint).toMatch(/^[0-9a-f]{40}$/);
    // ralph's state folder never shows in the user's `git status`.
    expect(git(root, ["status", "--porcelain", "--untracked-files=all"])).not.toContain(".aiwg");
    expect(fsck(root)).toBe("");
  });

  it("the built binary answers every event Claude Code sends (one fixture each), as the in-process runs do", () => {
    const root = sampleRepo();
    writeFileSync(join(root, "src/math.ts"), "export const add = (a: number, b: number) => b + a;\n");
    const events = new Map<string, string>();
    for (const name of ALL_FIXTURES) events.set(String(fixture(name, root).hook_event_name), events.get(String(fixture(name, root).hook_event_name)) ?? name);
    for (const name of ["session-start", ...[...events.values()].filter((n) => n !== "session-start")]) {
      const before = hookLog(root).length;
      const answer = answerOf(hookBinary(root, fixture(name, root)));
      expect(JSON.stringify(answer), name).not.toMatch(/"deny"|"block"/);
      expect(hookLog(root), name).toHaveLength(before + 1);
      expect(hookLog(root).at(-1), name).toMatchObject({ agent: "claude", event: fixture(name, root).hook_event_name, loop: "claude-fixture-session" });
    }
    expect(events.size).toBeGreaterThanOrEqual(8);
    expect(fsck(root)).toBe("");
  });

  it("PreToolUse answers deny with hookSpecificOutput when an Edit deletes a test (RALPH_PRETOOL_DECISION=ask asks instead)", async () => {
    const root = sampleRepo();
    const payload = {
      ...fixture("pre-edit", root),
      tool_input: { file_path: `${root}/test/math.test.ts`, old_string: 'it("adds negatives", () => {\n  expect(add(-1, -2)).toBe(-3);\n});\n', new_string: "" },
    };
    const denied = answerOf(await hook(root, payload));
    expect(denied).toMatchObject({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" } });
    const reason = (denied.hookSpecificOutput as Record<string, string>).permissionDecisionReason as string;
    expect(reason).toContain("adds negatives");
    expect(reason).toContain("test_deletion");
    expect(reason.length).toBeLessThan(10_000);
    expect(readFileSync(join(root, "test/math.test.ts"), "utf8")).toBe(MATH_TEST);
    const asked = answerOf(await hook(root, payload, { env: { RALPH_PRETOOL_DECISION: "ask" } }));
    expect(asked).toMatchObject({ hookSpecificOutput: { permissionDecision: "ask" } });
  });

  it("PreToolUse denies a product edit that special-cases an unchanged test's input (the tests of HEAD judge it), and allows an honest one", async () => {
    const root = sampleRepo();
    const special = {
      ...fixture("pre-edit", root),
      tool_input: {
        file_path: `${root}/src/math.ts`,
        old_string: "export const add = (a: number, b: number) => a + b;\n",
        new_string: "export const add = (a: number, b: number) => {\n  if (b === -2) return -3;\n  return a + b;\n};\n",
      },
    };
    const denied = answerOf(await hook(root, special));
    expect(denied).toMatchObject({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" } });
    expect((denied.hookSpecificOutput as Record<string, string>).permissionDecisionReason).toContain("special_casing");
    const honest = { ...special, tool_input: { ...special.tool_input, new_string: "export const add = (a: number, b: number) => {\n  if (b === -2) return a - 2;\n  return a + b;\n};\n" } };
    expect(JSON.stringify(answerOf(await hook(root, honest)))).not.toMatch(/"deny"/);
  });

  it("PreToolUse denies a hook bypass but not a commit message that mentions one", async () => {
    const root = sampleRepo();
    const bypass = answerOf(await hook(root, { ...fixture("pre-bash", root), tool_input: { command: "git commit --no-verify -m wip" } }));
    expect(bypass).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    const mention = answerOf(await hook(root, { ...fixture("pre-bash", root), tool_input: { command: "git commit -m 'explain why --no-verify is banned'" } }));
    expect(mention).toEqual({});
  });

  it("PreToolUse denies the agent deciding its own human gate or rewriting ralph's state; an Edit of aiwg.yml goes to the human", async () => {
    const root = sampleRepo();
    for (const command of ["ralph approve", "npx ralph cancel", "git commit -m x -m 'Ralph-Allow: test_deletion obsolete'", "echo '{}' > .aiwg/ralph/loops/l/state.json"]) {
      const answer = answerOf(await hook(root, { ...fixture("pre-bash", root), tool_input: { command } }));
      expect(answer, command).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
      expect((answer.hookSpecificOutput as Record<string, string>).permissionDecisionReason).toMatch(/human|ralph's own/);
    }
    expect(answerOf(await hook(root, { ...fixture("pre-bash", root), tool_input: { command: "ralph status" } }))).toEqual({});
    const edit = answerOf(await hook(root, { ...fixture("pre-edit", root), tool_input: { file_path: `${root}/aiwg.yml`, old_string: "", new_string: "agent_persistence:\n  enabled: false\n" } }));
    expect(edit).toMatchObject({ hookSpecificOutput: { permissionDecision: "ask" } });
    expect((edit.hookSpecificOutput as Record<string, string>).permissionDecisionReason).toContain("aiwg.yml");
  });

  it("a risky Bash command gets a pre-tool checkpoint carrying the tool trailers", async () => {
    const root = sampleRepo();
    await hook(root, fixture("session-start", root));
    writeFileSync(join(root, "src/math.ts"), "export const add = (a: number, b: number) => a + b + 0;\n");
    const answer = answerOf(await hook(root, { ...fixture("pre-bash", root), tool_input: { command: "git reset --hard" }, tool_use_id: "toolu_reset" }));
    expect(answer).toEqual({});
    const message = git(root, ["log", "-1", "--format=%B", "refs/ralph/claude-fixture-session/head"]);
    expect(message).toContain("Ralph-Kind: pre-tool");
    expect(message).toContain("Ralph-Tool: Bash");
    expect(message).toContain("Ralph-Tool-Use-Id: toolu_reset");
  });
});

describe("ralph hook claude: PostToolUse judgement", () => {
  it("blocks a Bash call that deleted a test, naming the pre-tool checkpoint; RALPH_AUTO_REVERT=1 restores it at once", async () => {
    const root = sampleRepo();
    await hook(root, fixture("session-start", root));
    const command = "sed -i '/adds negatives/,/^});/d' test/math.test.ts";
    const pre = { ...fixture("pre-bash", root), tool_input: { command }, tool_use_id: "toolu_sed" };
    expect(answerOf(await hook(root, pre))).toEqual({});
    const preTool = git(root, ["rev-parse", "refs/ralph/claude-fixture-session/head"]).trim();
    execFileSync("bash", ["-c", command], { cwd: root });
    const post = { ...fixture("post-bash", root), tool_input: { command }, tool_use_id: "toolu_sed" };
    const blocked = answerOf(await hook(root, post, { env: { RALPH_AUTO_REVERT: "1" } }));
    expect(blocked).toMatchObject({ decision: "block" });
    expect(blocked.reason).toContain(`restored the files to checkpoint ${preTool}`);
    expect(readFileSync(join(root, "test/math.test.ts"), "utf8")).toBe(MATH_TEST);
    expect(hookLog(root).at(-1)).toMatchObject({ event: "PostToolUse", decision: "block", findings: ["test_deletion"] });
    // The state before the restore stays reachable (the post-tool checkpoint; the pre-revert one equals it, so none is written),
    // and the head is the restored work tree (so the next fast-path checkpoint starts from what is on disk).
    expect(git(root, ["show", "refs/ralph/claude-fixture-session/head^:test/math.test.ts"])).not.toContain("adds negatives");
    expect(git(root, ["rev-parse", "refs/ralph/claude-fixture-session/head^{tree}"]).trim()).toBe(git(root, ["rev-parse", `${preTool}^{tree}`]).trim());
    expect(git(root, ["log", "-1", "--format=%(trailers:key=Ralph-Restore,valueonly)", "refs/ralph/claude-fixture-session/head"]).trim()).toBe(preTool);
  });

  it("a later unrelated change is not blocked for a finding that is already open; the finding is stated as context", async () => {
    const root = sampleRepo();
    await hook(root, fixture("session-start", root));
    writeFileSync(join(root, "test/math.test.ts"), MATH_TEST.replace('it("adds negatives"', 'it.skip("adds negatives"'));
    // The payloads name the files the tools wrote, as Claude Code's do (PostToolUse re-reads only that file).
    const edit = fixture("post-edit", root);
    const skipEdit = { ...edit, tool_use_id: "toolu_skip", tool_input: { ...(edit.tool_input as object), file_path: join(root, "test/math.test.ts") } };
    expect(answerOf(await hook(root, skipEdit))).toMatchObject({ decision: "block" });
    writeFileSync(join(root, "src/other.ts"), "export const other = 1;\n");
    const write = fixture("post-write", root);
    const later = answerOf(await hook(root, { ...write, tool_use_id: "toolu_other", tool_input: { ...(write.tool_input as object), file_path: join(root, "src/other.ts") } }));
    expect(later).toMatchObject({ hookSpecificOutput: { hookEventName: "PostToolUse" } });
    expect((later.hookSpecificOutput as Record<string, string>).additionalContext).toContain("test_disabled");
  });
});

describe("ralph hook claude: bad input fails open", () => {
  it.each([
    ["garbage", "this is not json at all"],
    ["truncated JSON", '{"session_id":"x","hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/a'],
    ["an array", "[1,2,3]"],
    ["empty stdin", ""],
  ])("%s: {} on stdout, exit 0, one line on stderr", async (_name, raw) => {
    const root = sampleRepo();
    const result = await runRalphInProcess(root, ["hook", "claude", "PreToolUse"], { input: raw });
    expect(answerOf(result)).toEqual({});
    expect(linesOf(result.stderr).length).toBeLessThanOrEqual(1);
  });

  it("garbage is logged as an error", async () => {
    const root = sampleRepo();
    await runRalphInProcess(root, ["hook", "claude", "PreToolUse"], { input: "{nope" });
    const log = hookLog(root, "claude-no-session");
    expect(log.at(-1)).toMatchObject({ decision: "error", findings: ["E_BAD_PAYLOAD"] });
  });

  it("JSON that is not an object, and an event ralph does not answer, are bad input too: {}, one stderr line, an error log line", async () => {
    const root = sampleRepo();
    for (const [args, input, why] of [
      [["PreToolUse"], "[]", "an array, not a JSON object"],
      [["PreToolUse"], "null", "null, not a JSON object"],
      [[], JSON.stringify({ hook_event_name: "Bogus", cwd: root }), '"Bogus" is not a Claude Code hook event'],
    ] as const) {
      const result = await runRalphInProcess(root, ["hook", "claude", ...args], { input });
      expect(result.status).toBe(0);
      expect(result.stdout).toBe("{}\n");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain(why);
      expect(hookLog(root, "claude-no-session").at(-1)).toMatchObject({ decision: "error", findings: ["E_BAD_PAYLOAD"] });
    }
  });

  it("outside a git repository: {} and exit 0", async () => {
    const result = await runRalphInProcess("/", ["hook", "claude", "PostToolUse"], {
      input: JSON.stringify({ session_id: "s-outside", hook_event_name: "PostToolUse", cwd: "/", tool_name: "Bash", tool_input: { command: "ls" } }),
    });
    expect(answerOf(result)).toEqual({});
    expect(result.stderr).toMatch(/failed open/);
  });

  it("an unknown agent or event: {} and exit 0", async () => {
    const root = sampleRepo();
    expect(answerOf(await runRalphInProcess(root, ["hook", "nobody", "X"], { input: "{}" }))).toEqual({});
    expect(answerOf(await runRalphInProcess(root, ["hook", "claude", "Notification"], { input: '{"hook_event_name":"Notification"}' }))).toEqual({});
  });
});

/** Spawns a hook whose stdin is written but never closed. */
function hookWithOpenStdin(root: string, text: string): Promise<RunResult & { stdinStillOpen: boolean }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cliPathForTests(), "hook", "claude"], { cwd: root, env: ralphEnv, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on("error", () => {});
  child.stdin.write(text);
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  return new Promise((resolve) => {
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, durationMs: performance.now() - started, stdinStillOpen: !child.stdin.writableEnded });
    });
  });
}

describe("ralph hook claude: stdin that is never closed", () => {
  it("a complete payload is answered without waiting for EOF", async () => {
    const root = sampleRepo();
    const result = await hookWithOpenStdin(root, JSON.stringify(fixture("pre-edit", root)));
    expect(result.stdinStillOpen).toBe(true);
    expect(answerOf(result)).toEqual({});
  });

  it("a partial payload is answered after the idle deadline, failing open", async () => {
    const root = sampleRepo();
    const result = await hookWithOpenStdin(root, '{"hook_event_name":"PreToolUse","tool_name":');
    expect(answerOf(result)).toEqual({});
    expect(result.durationMs).toBeGreaterThan(1_400);
    expect(result.stderr).toMatch(/idle/);
  });
});

describe("ralph hook claude: sizes, paths, concurrency", () => {
  it("a 5 MB Write is judged (or skipped as too large) and answered", async () => {
    const root = sampleRepo();
    const content = `export const big = [\n${"  1,\n".repeat(1_300_000)}];\n`;
    expect(content.length).toBeGreaterThan(5_000_000);
    const answer = answerOf(await hook(root, { ...fixture("pre-write", root), tool_input: { file_path: `${root}/src/big.ts`, content } }));
    expect(answer).toEqual({});
    writeFileSync(join(root, "src/big.ts"), content);
    expect(answerOf(await hook(root, { ...fixture("post-write", root), tool_input: { file_path: `${root}/src/big.ts`, content } }))).toEqual({});
  });

  it("Windows-style paths (backslashes) name the same file", async () => {
    const root = sampleRepo();
    const windowsRoot = root.replaceAll("/", "\\");
    const payload = {
      ...fixture("pre-edit", root),
      cwd: windowsRoot,
      tool_input: { file_path: `${windowsRoot}\\test\\math.test.ts`, old_string: "toBe(3)", new_string: "toBeDefined()" },
    };
    const answer = answerOf(await hook(root, payload));
    expect(answer).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
  });

  it("two PostToolUse hooks at once both checkpoint; refs and objects stay sound", async () => {
    const root = sampleRepo();
    await hook(root, fixture("session-start", root));
    writeFileSync(join(root, "src/a.ts"), "export const a = 1;\n");
    writeFileSync(join(root, "src/b.ts"), "export const b = 2;\n");
    const payloads = ["a", "b"].map((name, i) => ({ ...fixture("post-write", root), tool_use_id: `toolu_par_${i}`, tool_input: { file_path: `${root}/src/${name}.ts`, content: "x" } }));
    const results = await Promise.all(payloads.map((p) => runRalphAsync(root, ["hook", "claude", "PostToolUse"], { input: JSON.stringify(p) })));
    for (const result of results) expect(answerOf(result)).toEqual({});
    const log = hookLog(root).filter((e) => e.event === "PostToolUse");
    expect(log).toHaveLength(2);
    const tree = git(root, ["ls-tree", "-r", "--name-only", "refs/ralph/claude-fixture-session/head"]);
    expect(tree).toContain("src/a.ts");
    expect(tree).toContain("src/b.ts");
    expect(fsck(root)).toBe("");
  });
});

describe("ralph stats", () => {
  it("prints p50/p95/p99 per event from the hook log", async () => {
    const root = sampleRepo();
    for (const name of ["session-start", "pre-bash", "pre-bash", "stop"]) await hook(root, fixture(name, root));
    const stats = parseJsonOutput<{ calls: number; events: { event: string; calls: number; p50_ms: number; p95_ms: number; p99_ms: number }[] }>(await runRalphInProcess(root, ["stats", "--json"]));
    expect(stats.calls).toBe(4);
    expect(stats.events.map((e) => [e.event, e.calls])).toEqual([
      ["SessionStart", 1],
      ["PreToolUse", 2],
      ["Stop", 1],
    ]);
    for (const e of stats.events) expect(e.p50_ms).toBeLessThanOrEqual(e.p99_ms);
    expect((await runRalphInProcess(root, ["stats"])).stdout).toMatch(/p95 ms/);
  });
});
