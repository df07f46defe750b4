/**
 * Transcript signals from Claude Code JSONL fixtures (test/loop/fixtures/transcripts):
 * usage deduplicated by message id, sidechains ignored, usage before a
 * compact boundary discarded, a torn last line tolerated, 401/403 endings.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { contextWindowFor, parseTranscript, readTranscriptSignals } from "../../src/loop/transcript.js";
import { makeTempDir } from "../helpers/git.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "transcripts");
const fixture = (name: string) => join(FIXTURES, name);

afterEach(() => {
  delete process.env.RALPH_CONTEXT_WINDOW;
});

describe("readTranscriptSignals", () => {
  it.each([
    // name, context tokens, window, auth, output tokens, messages, bad lines
    ["duplicated-usage.jsonl", 190_006, 200_000, false, 340, 2, 0],
    ["compact-boundary.jsonl", null, 200_000, false, 0, 0, 0],
    ["after-compact.jsonl", 30_003, 200_000, false, 20, 1, 1],
    ["auth-failure.jsonl", 40_105, 200_000, true, 10, 1, 0],
    ["rate-limit.jsonl", null, 200_000, false, 0, 0, 0],
    ["forbidden-then-recovered.jsonl", 250_005, 1_000_000, false, 10, 1, 0],
  ] as const)("%s", (name, contextTokens, window, auth, outputTokens, messages, badLines) => {
    const signals = readTranscriptSignals(fixture(name));
    expect(signals).toMatchObject({ contextTokens, contextWindowTokens: window, authFailure: auth, outputTokens, assistantMessages: messages, badLines });
    if (contextTokens !== null) expect(signals?.contextFraction).toBeCloseTo(contextTokens / window, 6);
  });

  it("reports the 401 status and the context fraction at or over 95% for the duplicated-usage transcript", () => {
    expect(readTranscriptSignals(fixture("auth-failure.jsonl"))?.authStatus).toBe(401);
    expect(readTranscriptSignals(fixture("duplicated-usage.jsonl"))?.contextFraction).toBeGreaterThanOrEqual(0.95);
  });

  it("reads only the tail of a large file and still finds the last usage", () => {
    const dir = makeTempDir();
    const path = join(dir, "big.jsonl");
    const filler = `${JSON.stringify({ type: "user", isSidechain: false, message: { role: "user", content: "x".repeat(1000) } })}\n`;
    const last = `${JSON.stringify({ type: "assistant", isSidechain: false, message: { id: "m", model: "claude-sonnet-4-5", usage: { input_tokens: 1, cache_read_input_tokens: 99_999 } } })}\n`;
    writeFileSync(path, filler.repeat(6000) + last);
    expect(readTranscriptSignals(path, 64 * 1024)?.contextTokens).toBe(100_000);
  });

  it("reads further back when the last 256 KB hold no usage (a huge last tool result)", () => {
    const dir = makeTempDir();
    const path = join(dir, "huge-result.jsonl");
    const usage = `${JSON.stringify({ type: "assistant", isSidechain: false, message: { id: "m1", model: "claude-opus-4-5", usage: { input_tokens: 2, cache_creation_input_tokens: 3, cache_read_input_tokens: 191_000 } } })}\n`;
    const result = `${JSON.stringify({ type: "user", isSidechain: false, message: { role: "user", content: [{ type: "tool_result", content: "y".repeat(600_000) }] } })}\n`;
    writeFileSync(path, usage + result);
    expect(readTranscriptSignals(path)?.contextTokens).toBe(191_005);
    expect(readTranscriptSignals(path, 256 * 1024)?.contextTokens).toBeNull();
  });

  it("gives null for a missing path or file", () => {
    expect(readTranscriptSignals(undefined)).toBeNull();
    expect(readTranscriptSignals("/nonexistent/t.jsonl")).toBeNull();
  });

  it("a new prompt after an auth error means the last turn did not end on it", () => {
    const err = JSON.stringify({ type: "assistant", isApiErrorMessage: true, apiErrorStatus: 403, message: { model: "<synthetic>", content: [{ type: "text", text: "API Error: 403" }] } });
    const prompt = JSON.stringify({ type: "user", message: { role: "user", content: "try again" } });
    expect(parseTranscript(`${err}\n`).authStatus).toBe(403);
    expect(parseTranscript(`${err}\n${prompt}\n`).authFailure).toBe(false);
    const textOnly = JSON.stringify({ type: "assistant", isApiErrorMessage: true, message: { content: [{ type: "text", text: "API Error: 401 Invalid bearer token" }] } });
    expect(parseTranscript(textOnly).authStatus).toBe(401);
  });
});

describe("contextWindowFor", () => {
  it.each([
    ["claude-sonnet-4-5-20250929", null, 200_000],
    ["claude-sonnet-4-5-20250929[1m]", null, 1_000_000],
    ["claude-sonnet-4-5", 230_000, 1_000_000],
    [null, null, 200_000],
  ] as const)("%s with %s tokens -> %s", (model, tokens, window) => {
    expect(contextWindowFor(model, tokens)).toBe(window);
  });

  it("RALPH_CONTEXT_WINDOW overrides", () => {
    expect(contextWindowFor("claude-sonnet-4-5", null, 500_000)).toBe(500_000);
    expect(readTranscriptSignals(fixture("duplicated-usage.jsonl"), undefined, 500_000)?.contextWindowTokens).toBe(500_000);
  });
});

describe("background tasks", () => {
  const line = (o: unknown): string => JSON.stringify(o);
  const toolUse = (id: string, name: string, input: Record<string, unknown>) =>
    line({ type: "assistant", message: { id: `msg_${id}`, content: [{ type: "tool_use", id, name, input }], usage: { input_tokens: 1, output_tokens: 1 } } });
  const toolResult = (id: string, text: string, toolUseResult?: Record<string, unknown>) =>
    line({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: text }] }, ...(toolUseResult ? { toolUseResult } : {}) });

  it("counts background shells and tasks started and not yet finished, from the result texts and toolUseResult fields", () => {
    const text = [
      toolUse("t1", "Bash", { command: "npm run dev", run_in_background: true }),
      toolResult("t1", "Command running in background with ID: bash_1"),
      toolUse("t2", "Bash", { command: "pytest" }),
      toolResult("t2", "Command did not complete within its 120s timeout and was moved to the background (ID: b5d7261fo). Output is being written to: /tmp/x", {
        backgroundTaskId: "b5d7261fo",
        timedOutAfterMs: 120000,
      }),
      toolUse("t3", "Bash", { command: "sleep 9", run_in_background: true }),
      toolResult("t3", "Command running in background with ID: bash_3"),
    ].join("\n");
    expect(parseTranscript(text).backgroundTasks).toEqual(["bash_1", "b5d7261fo", "bash_3"]);
    const finished = [
      text,
      toolUse("t4", "KillShell", { shell_id: "bash_1" }),
      toolResult("t4", "Successfully killed shell: bash_1"),
      toolUse("t5", "BashOutput", { bash_id: "bash_3" }),
      toolResult("t5", "<status>completed</status>\n<exit_code>0</exit_code>"),
      toolUse("t6", "TaskOutput", { task_id: "b5d7261fo" }),
      toolResult("t6", "<retrieval_status>success</retrieval_status>\n<status>failed</status>"),
    ].join("\n");
    expect(parseTranscript(finished).backgroundTasks).toEqual([]);
  });

  it("a task notification that it finished counts; one that says it is running does not", () => {
    const start = [toolUse("t1", "Bash", { command: "make", run_in_background: true }), toolResult("t1", "Command running in background with ID: bq1")].join("\n");
    const still = `${start}\n${toolUse("t2", "BashOutput", { bash_id: "bq1" })}\n${toolResult("t2", "<status>running</status>")}`;
    expect(parseTranscript(still).backgroundTasks).toEqual(["bq1"]);
    const notified = `${start}\n${line({ type: "user", message: { role: "user", content: "<task-notification><task-id>bq1</task-id><status>completed</status></task-notification>" } })}`;
    expect(parseTranscript(notified).backgroundTasks).toEqual([]);
  });
});
