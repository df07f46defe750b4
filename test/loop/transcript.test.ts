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
    process.env.RALPH_CONTEXT_WINDOW = "500000";
    expect(contextWindowFor("claude-sonnet-4-5", null)).toBe(500_000);
  });
});
