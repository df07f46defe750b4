/**
 * The small pure pieces of the Claude Code hooks, as tables: payload paths,
 * edit previews, the stdin reader's deadlines, guard loop ids, percentiles,
 * reason clamping.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { clampReason, MAX_REASON_CHARS } from "../../src/hooks/claude.js";
import { normalizePayload } from "../../src/hooks/claude-payload.js";
import { previewEdit } from "../../src/hooks/edit-preview.js";
import { hookSharePercent, percentile, summarizeHookLog } from "../../src/hooks/hook-log.js";
import { guardLoopId } from "../../src/hooks/loop-binding.js";
import { normalizeSlashes, toRepoPath } from "../../src/hooks/paths.js";
import { readHookInput } from "../../src/hooks/stdin.js";
import { isLoopId } from "../../src/store/loop-id.js";

describe("toRepoPath", () => {
  it.each([
    ["/repo", "/repo/src/a.ts", "/repo", "src/a.ts"],
    ["/repo", "src/a.ts", "/repo/pkg", "pkg/src/a.ts"],
    ["/repo", "../a.ts", "/repo/pkg", "a.ts"],
    ["/repo", "C:\\repo\\src\\a.ts", "/repo", null],
    ["C:/repo", "C:\\repo\\test\\a.test.ts", "C:/repo", "test/a.test.ts"],
    ["C:/repo", "c:\\repo\\test\\a.test.ts", "C:/repo", "test/a.test.ts"],
    ["/repo", "/repository/a.ts", "/repo", null],
    ["/repo", "/repo/../etc/passwd", "/repo", null],
    ["/repo", "/repo", "/repo", null],
    ["/repo", "/repo//src/./a.ts", "/repo", "src/a.ts"],
  ])("%s + %s (cwd %s) -> %s", (root, path, cwd, expected) => {
    expect(toRepoPath(root, path, cwd)).toBe(expected);
  });

  it("normalizes payload paths", () => {
    expect(normalizeSlashes("C:\\a\\\\b")).toBe("C:/a/b");
    const payload = normalizePayload({ cwd: "C:\\r", transcript_path: "C:\\t.jsonl", tool_input: { file_path: "C:\\r\\a.ts", command: "a\\b" } }, "PreToolUse");
    expect(payload).toMatchObject({ event: "PreToolUse", cwd: "C:/r", transcriptPath: "C:/t.jsonl", toolInput: { file_path: "C:/r/a.ts", command: "a\\b" } });
  });

  it("treats every field as optional and of unknown type", () => {
    for (const raw of [null, 42, "x", [], {}, { session_id: 5, tool_input: "nope", stop_hook_active: "yes" }]) {
      const payload = normalizePayload(raw);
      expect(payload.sessionId).toBeUndefined();
      expect(payload.toolInput).toEqual({});
      expect(payload.stopHookActive).toBeUndefined();
    }
  });
});

describe("previewEdit", () => {
  const before = "a\nb\na\n";
  it.each<[string, Record<string, unknown>, string | null, string | null]>([
    ["Write", { content: "x" }, before, "x"],
    ["Write", { content: "new" }, null, "new"],
    ["Edit", { old_string: "b", new_string: "c" }, before, "a\nc\na\n"],
    ["Edit", { old_string: "a", new_string: "z", replace_all: true }, before, "z\nb\nz\n"],
    ["Edit", { old_string: "a", new_string: "z" }, before, null],
    ["Edit", { old_string: "missing", new_string: "z" }, before, null],
    ["Edit", { old_string: "", new_string: "fresh" }, null, "fresh"],
    ["Edit", { old_string: "b", new_string: "$&$1" }, before, "a\n$&$1\na\n"],
    [
      "MultiEdit",
      {
        edits: [
          { old_string: "b", new_string: "c" },
          { old_string: "c", new_string: "d" },
        ],
      },
      before,
      "a\nd\na\n",
    ],
    [
      "MultiEdit",
      {
        edits: [
          { old_string: "b", new_string: "c" },
          { old_string: "zzz", new_string: "d" },
        ],
      },
      before,
      null,
    ],
    ["MultiEdit", { edits: "no" }, before, null],
    ["Read", {}, before, null],
  ])("%s %j", (tool, input, content, expected) => {
    const preview = previewEdit(tool, input, content);
    if (expected === null) expect(preview.ok).toBe(false);
    else expect(preview).toEqual({ ok: true, after: expected });
  });

  it("NotebookEdit replaces, inserts and deletes cells", () => {
    const notebook = JSON.stringify({ cells: [{ id: "c1", cell_type: "code", source: ["print(1)\n"] }], nbformat: 4 });
    const parse = (p: ReturnType<typeof previewEdit>) => (p.ok ? (JSON.parse(p.after as string) as { cells: { id?: string; source: string[] }[] }) : null);
    expect(parse(previewEdit("NotebookEdit", { cell_id: "c1", new_source: "print(2)\n" }, notebook))?.cells[0]?.source).toEqual(["print(2)\n"]);
    expect(parse(previewEdit("NotebookEdit", { cell_id: "c1", new_source: "x", edit_mode: "insert" }, notebook))?.cells).toHaveLength(2);
    expect(parse(previewEdit("NotebookEdit", { cell_id: "c1", edit_mode: "delete" }, notebook))?.cells).toHaveLength(0);
    expect(previewEdit("NotebookEdit", { cell_id: "nope", new_source: "x" }, notebook).ok).toBe(false);
  });
});

describe("readHookInput", () => {
  it("returns at EOF", async () => {
    const stream = new PassThrough();
    stream.end('{"a":1}');
    expect(await readHookInput(stream, 5_000)).toMatchObject({ text: '{"a":1}' });
  });

  it("returns as soon as a complete object arrived, stream still open", async () => {
    const stream = new PassThrough();
    const reading = readHookInput(stream, 60_000);
    stream.write('{"a":');
    stream.write('{"b":"}"}}');
    expect(await reading).toMatchObject({ text: '{"a":{"b":"}"}}', endedBy: "json" });
  });

  it("returns after the idle deadline with a partial object", async () => {
    const stream = new PassThrough();
    const reading = readHookInput(stream, 100);
    stream.write('{"a":');
    expect(await reading).toMatchObject({ text: '{"a":', endedBy: "idle" });
  });
});

describe("guardLoopId", () => {
  it.each([
    ["abc-123", "claude-abc-123"],
    ["3f2a1b4c-0d9e-4f8a-b1c2-d3e4f5a6b7c8", "claude-3f2a1b4c-0d9e-4f8a-b1c2-d3e4f5a6b7c8"],
    ["a/b\\c:d", "claude-a-b-c-d"],
    ["..evil..lock", "claude-evil.lock".replace(/\.lock$/, "")],
    [undefined, "claude-no-session"],
    ["", "claude-no-session"],
    ["x".repeat(300), `claude-${"x".repeat(93)}`],
  ])("%j -> %s", (session, expected) => {
    const id = guardLoopId(session);
    expect(id).toBe(expected);
    expect(isLoopId(id)).toBe(true);
  });
});

describe("hook log statistics", () => {
  it("nearest-rank percentiles", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(values, 50), percentile(values, 95), percentile(values, 99), percentile([], 50)]).toEqual([50, 95, 99, 0]);
  });

  it("share of time in hooks: busy time over the span of the calls", () => {
    const at = (iso: string, duration_ms: number) => ({ ts: iso, agent: "claude", event: "PreToolUse", loop: "l", iteration: null, decision: "allow", duration_ms });
    expect(hookSharePercent([at("2026-01-01T00:00:01.000Z", 100), at("2026-01-01T00:00:01.900Z", 100)])).toBe(20);
    expect(hookSharePercent([at("2026-01-01T00:00:01.000Z", 100)])).toBeNull();
  });

  it("groups by event and counts decisions", () => {
    const entry = (event: string, duration_ms: number, decision: string) => ({ ts: "", agent: "claude", event, loop: "l", iteration: null, decision, duration_ms });
    const summary = summarizeHookLog([entry("PreToolUse", 10, "allow"), entry("PreToolUse", 30, "deny"), entry("Stop", 5, "allow")]);
    expect(summary).toEqual([
      { event: "PreToolUse", calls: 2, p50_ms: 10, p95_ms: 30, p99_ms: 30, max_ms: 30, total_ms: 40, decisions: { allow: 1, deny: 1 } },
      { event: "Stop", calls: 1, p50_ms: 5, p95_ms: 5, p99_ms: 5, max_ms: 5, total_ms: 5, decisions: { allow: 1 } },
    ]);
  });
});

describe("clampReason", () => {
  it("keeps reasons under 10,000 characters and says what was cut", () => {
    const long = clampReason("x".repeat(50_000));
    expect(long.length).toBeLessThanOrEqual(MAX_REASON_CHARS);
    expect(long).toContain("more characters left out");
    expect(clampReason("short")).toBe("short");
  });
});
