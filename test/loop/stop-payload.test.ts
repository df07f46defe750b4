/**
 * What Claude Code's Stop payload carries today (issue 10, "What Claude Code
 * sends today"), through decideStop on real repositories:
 * `last_assistant_message` (the auth valve and the latest turn when the
 * transcript lags), rate limits and overload (429/529), `background_tasks`,
 * and the `stop_hook_active` chain limit (`loop.max_consecutive_blocks`).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LOOP_SETTINGS } from "../../src/loop/evaluate.js";
import { startLoop } from "../../src/loop/lifecycle.js";
import { readState } from "../../src/loop/state.js";
import { decideStop, DEFAULT_MAX_CONSECUTIVE_BLOCKS, type StopInput } from "../../src/loop/stop.js";
import { classifyTurnEnd, parseTranscript } from "../../src/loop/transcript.js";
import { CheckpointStore } from "../../src/store/checkpoint-store.js";
import { parseLoopId } from "../../src/store/loop-id.js";
import { makeRepo, makeTempDir } from "../helpers/git.js";

function setup() {
  const repo = makeRepo({ "src/a.ts": "export const a = 1;\n" });
  const { state } = startLoop(CheckpointStore.open(repo), { task: "Create done.txt", completion: "test -f done.txt || { echo 'FAIL: done.txt is missing'; exit 1; }", maxIterations: 50 });
  const loop = parseLoopId(state.loop_id);
  let edits = 0;
  const stop = (extra: Partial<StopInput> = {}) => {
    // A new tree at every stop, so the no-progress valve never decides here.
    writeFileSync(join(repo, "src", "a.ts"), `export const a = ${++edits};\n`);
    return decideStop({ cwd: repo, sessionId: "owner", transcriptPath: undefined, stopHookActive: false, ...extra });
  };
  return { repo, loop, stop };
}

/** A transcript file of JSONL lines. */
function transcript(lines: unknown[]): string {
  const path = join(makeTempDir(), "t.jsonl");
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return path;
}

const assistantText = (text: string, id = "msg_1") => ({
  type: "assistant",
  isSidechain: false,
  message: { id, model: "claude-sonnet-4-5", role: "assistant", content: [{ type: "text", text }], usage: { input_tokens: 10, output_tokens: 5 } },
});
const apiError = (status: number, text: string, error?: string) => ({
  type: "assistant",
  isSidechain: false,
  isApiErrorMessage: true,
  apiErrorStatus: status,
  ...(error ? { error } : {}),
  message: { model: "<synthetic>", role: "assistant", content: [{ type: "text", text }] },
});

describe("classifyTurnEnd: the text of a turn that ended on an API error", () => {
  it.each([
    ['API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}} · Please run /login', "auth", 401],
    ["Invalid API key · Please run /login", "auth", 401],
    ["OAuth token has expired. Please obtain a new token or refresh your existing token.", "auth", 401],
    ['API Error: 403 {"type":"error","error":{"type":"permission_error"}}', "auth", 403],
    ['API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}', "rate_limit", 429],
    ["API Error: Request rejected (429) · this may be a temporary capacity issue", "rate_limit", 429],
    ['API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', "rate_limit", 529],
    ["Claude AI usage limit reached|1767225600", "rate_limit", 429],
    ["5-hour limit reached ∙ resets 4am", "rate_limit", 429],
  ] as const)("%s -> %s %d", (text, kind, status) => {
    expect(classifyTurnEnd(text)).toEqual({ kind, status });
  });

  it.each(["I fixed the failing test; the rate limiter now returns 429 after 10 requests.", "Done: the login page now says 'Please run /login again' when the session expires.", ""])(
    "an ordinary turn is not an API error: %s",
    (text) => {
      expect(classifyTurnEnd(text)).toBeNull();
    },
  );
});

describe("parseTranscript: rate limits and the last assistant text", () => {
  it("reports a 429 and a 529 entry as a rate limit, not an auth failure", () => {
    for (const status of [429, 529]) {
      const signals = parseTranscript([assistantText("working"), apiError(status, `API Error: ${status} busy`, status === 429 ? "rate_limit" : undefined)].map((l) => JSON.stringify(l)).join("\n"));
      expect(signals).toMatchObject({ authFailure: false, rateLimited: true, rateLimitStatus: status });
    }
  });

  it("keeps the last main-chain assistant text", () => {
    expect(parseTranscript([assistantText("first", "m1"), assistantText("second", "m2")].map((l) => JSON.stringify(l)).join("\n")).lastAssistantText).toBe("second");
  });
});

describe("decideStop and last_assistant_message", () => {
  it.each(["API Error: 401 · Please run /login", "OAuth token has expired. Please obtain a new token or refresh your existing token.", "API Error: 403 forbidden"])(
    "lets the stop through on an auth failure the transcript does not have yet: %s",
    async (message) => {
      const { stop } = setup();
      const path = transcript([{ type: "user", message: { role: "user", content: "go" } }, assistantText("Running the tests.")]);
      const decision = await stop({ transcriptPath: path, lastAssistantMessage: message });
      expect(decision).toMatchObject({ action: "allow", why: expect.stringContaining("authentication failure") });
    },
  );

  it("takes the newer turn over a lagging transcript that ended on an auth failure", async () => {
    const { stop } = setup();
    const path = transcript([apiError(401, "Please run /login · API Error: 401", "authentication_failed")]);
    expect((await stop({ transcriptPath: path })).action).toBe("allow");
    // The session logged in again and worked on: the message is the latest turn, the transcript has not caught up.
    expect((await stop({ transcriptPath: path, lastAssistantMessage: "I created most of the files." })).action).toBe("block");
  });
});

describe("decideStop on rate limits and overload", () => {
  it.each([
    ["a transcript 429 entry", { transcript: [apiError(429, "API Error: 429 rate limited", "rate_limit")] }],
    ["a transcript 529 entry", { transcript: [apiError(529, "API Error: 529 Overloaded")] }],
    ["a 529 in last_assistant_message", { message: 'API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' }],
    ["a usage limit in last_assistant_message", { message: "Claude AI usage limit reached|1767225600" }],
  ] as const)("lets the stop through, with the reason, on %s", async (_name, input) => {
    const { repo, loop, stop } = setup();
    const extra: Partial<StopInput> = {};
    if ("transcript" in input) extra.transcriptPath = transcript([assistantText("working"), ...input.transcript]);
    if ("message" in input) extra.lastAssistantMessage = input.message;
    const decision = await stop(extra);
    expect(decision).toMatchObject({ action: "allow", why: expect.stringMatching(/rate limit|overload/) });
    // The loop keeps running: the next prompt continues it.
    expect(readState(repo, loop)?.status).toBe("running");
    expect(readState(repo, loop)?.metrics.last_allow).toMatch(/rate limit|overload/);
  });
});

describe("decideStop and background_tasks", () => {
  it("lets the stop through while a background task runs, and blocks when none does", async () => {
    const { stop } = setup();
    const running = await stop({ backgroundTasks: [{ id: "b7", type: "shell", status: "running", command: "npm run dev" }] });
    expect(running).toMatchObject({ action: "allow", why: expect.stringContaining("b7") });
    expect((await stop({ backgroundTasks: [{ id: "b7", type: "shell", status: "completed" }] })).action).toBe("block");
    expect((await stop({ backgroundTasks: [] })).action).toBe("block");
  });
});

describe("decideStop and the stop_hook_active chain", () => {
  it("defaults to a limit below Claude Code's own cap of 8 consecutive blocks", () => {
    expect(DEFAULT_MAX_CONSECUTIVE_BLOCKS).toBeGreaterThanOrEqual(1);
    expect(DEFAULT_MAX_CONSECUTIVE_BLOCKS).toBeLessThan(8);
  });

  it("allows after max_consecutive_blocks blocks in one chain, keeps the loop running, and counts a new chain from 1", async () => {
    const { repo, loop, stop } = setup();
    const settings = { ...DEFAULT_LOOP_SETTINGS, maxConsecutiveBlocks: 3 };
    expect((await stop({ stopHookActive: false, settings })).action).toBe("block");
    expect((await stop({ stopHookActive: true, settings })).action).toBe("block");
    expect((await stop({ stopHookActive: true, settings })).action).toBe("block");
    const fourth = await stop({ stopHookActive: true, settings });
    expect(fourth).toMatchObject({ action: "allow", why: expect.stringContaining("3 consecutive blocks"), message: expect.stringContaining("still running") });
    const s = readState(repo, loop);
    expect(s?.status).toBe("running");
    expect(s?.chain_blocks).toBe(0);
    // The user's next prompt starts a new chain (stop_hook_active false): blocked again.
    expect((await stop({ stopHookActive: false, settings })).action).toBe("block");
    expect(readState(repo, loop)?.chain_blocks).toBe(1);
  });

  it("a stop without stop_hook_active (older Claude Code) starts a new chain each time", async () => {
    const { stop } = setup();
    const settings = { ...DEFAULT_LOOP_SETTINGS, maxConsecutiveBlocks: 1 };
    for (let i = 0; i < 3; i++) expect((await stop({ stopHookActive: undefined, settings })).action).toBe("block");
  });
});
