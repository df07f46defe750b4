/**
 * Codex's apply_patch format (src/hooks/apply-patch.ts), on strings: the
 * grammar of codex-rs/apply-patch/src/parser.rs, the chunk application of
 * codex-rs/apply-patch/src/lib.rs, and malformed patches that must fail open
 * (a result saying why, never an exception).
 */
import { describe, expect, it } from "vitest";
import { applyChunks, extractShellPatch, parsePatch, previewPatch, type PatchHunk } from "../../src/hooks/apply-patch.js";

const wrap = (body: string): string => `*** Begin Patch\n${body}\n*** End Patch`;

/** Parses, asserting success. */
function hunksOf(text: string): PatchHunk[] {
  const parsed = parsePatch(text);
  if (!parsed.ok) throw new Error(`not parsed: ${parsed.why}`);
  return parsed.hunks;
}

/** Applies a one-file patch to `before` (the file at path `f`), returning the file's content after. */
function afterUpdate(before: string, body: string): string | null | { why: string } {
  const parsed = parsePatch(wrap(body));
  if (!parsed.ok) return { why: parsed.why };
  const preview = previewPatch(parsed.hunks, (path) => (path === "f" ? before : null));
  if (!preview.ok) return { why: preview.why };
  return preview.files.find((f) => f.path === "f")?.after ?? null;
}

describe("parsePatch", () => {
  it("reads every section kind in order", () => {
    const hunks = hunksOf(
      wrap(
        [
          "*** Add File: path/add.py",
          "+abc",
          "+def",
          "*** Delete File: path/delete.py",
          "*** Update File: path/update.py",
          "*** Move to: path/update2.py",
          "@@ def f():",
          "-    pass",
          "+    return 123",
        ].join("\n"),
      ),
    );
    expect(hunks).toEqual([
      { kind: "add", path: "path/add.py", contents: "abc\ndef\n" },
      { kind: "delete", path: "path/delete.py" },
      {
        kind: "update",
        path: "path/update.py",
        movePath: "path/update2.py",
        chunks: [{ context: "def f():", oldLines: ["    pass"], newLines: ["    return 123"], isEndOfFile: false }],
      },
    ]);
  });

  it("accepts an update whose first chunk has no @@ line, an update followed by an add, and the End of File marker", () => {
    expect(hunksOf(wrap("*** Update File: a.py\n import foo\n+bar"))).toEqual([
      { kind: "update", path: "a.py", movePath: null, chunks: [{ context: null, oldLines: ["import foo"], newLines: ["import foo", "bar"], isEndOfFile: false }] },
    ]);
    expect(hunksOf(wrap("*** Update File: a.py\n@@\n+line\n*** Add File: b.py\n+content")).map((h) => h.kind)).toEqual(["update", "add"]);
    const [eof] = hunksOf(wrap("*** Update File: t.txt\n@@\n-last\n+LAST\n*** End of File"));
    expect(eof).toMatchObject({ chunks: [{ oldLines: ["last"], newLines: ["LAST"], isEndOfFile: true }] });
  });

  it("splits chunks at @@ lines; an empty line inside a chunk is an empty context line, as in Codex", () => {
    const [hunk] = hunksOf(wrap("*** Update File: m.txt\n@@\n foo\n-bar\n+BAR\n\n@@ baz\n-qux\n+QUX"));
    expect(hunk).toMatchObject({
      chunks: [
        { context: null, oldLines: ["foo", "bar", ""], newLines: ["foo", "BAR", ""] },
        { context: "baz", oldLines: ["qux"], newLines: ["QUX"] },
      ],
    });
  });

  it("skips blank lines between an update's header and its first chunk", () => {
    const [hunk] = hunksOf(wrap("*** Update File: m.txt\n\n@@\n-a\n+b"));
    expect(hunk).toMatchObject({ chunks: [{ oldLines: ["a"], newLines: ["b"] }] });
  });

  it("is lenient where Codex is: padded markers, CRLF, a heredoc wrapper, an empty patch", () => {
    expect(hunksOf("  *** Begin Patch  \n  *** Add File: foo\n+hi\n *** End Patch ")).toEqual([{ kind: "add", path: "foo", contents: "hi\n" }]);
    expect(hunksOf("*** Begin Patch\r\n*** Add File: foo\r\n+hi\r\n*** End Patch\r\n")).toEqual([{ kind: "add", path: "foo", contents: "hi\n" }]);
    expect(hunksOf("<<'EOF'\n*** Begin Patch\n*** Delete File: x\n*** End Patch\nEOF\n")).toEqual([{ kind: "delete", path: "x" }]);
    expect(hunksOf("*** Begin Patch\n*** End Patch")).toEqual([]);
  });

  it.each([
    ["no begin marker", "bad", "Begin Patch"],
    ["no end marker", "*** Begin Patch\n*** Add File: a\n+x", "End Patch"],
    ["an empty update", wrap("*** Update File: test.py"), "no chunk"],
    ["an unknown header", wrap("*** Frobnicate File: a"), "not a section header"],
    ["a stray line in a chunk", wrap("*** Update File: a\n@@\n?what"), "unexpected line"],
    ["a second chunk without @@", wrap("*** Update File: a\n@@\n-x\n+y\n*** End of File\n-z"), "@@"],
    ["an End of File marker alone", wrap("*** Update File: a\n@@\n*** End of File"), "no lines"],
    ["nothing at all", "", "Begin Patch"],
  ])("fails open on %s", (_name, text, why) => {
    const parsed = parsePatch(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.why).toContain(why);
  });
});

describe("applyChunks and previewPatch", () => {
  it.each<[string, string, string, string]>([
    ["replaces a line after context", "foo\nbar\n", "*** Update File: f\n@@\n foo\n-bar\n+baz", "foo\nbaz\n"],
    ["applies chunks in order", "foo\nbar\nbaz\nqux\n", "*** Update File: f\n@@\n foo\n-bar\n+BAR\n@@\n baz\n-qux\n+QUX", "foo\nBAR\nbaz\nQUX\n"],
    ["interleaves changes and appends at the end", "a\nb\nc\nd\ne\nf\n", "*** Update File: f\n@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File", "a\nB\nc\nd\nE\nf\ng\n"],
    [
      "appends a chunk without old lines at the end",
      "line1\nline2\nline3\n",
      "*** Update File: f\n@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement",
      "line1\nline2-replacement\nafter-context\nsecond-line\n",
    ],
    ["adds a final newline", "no newline at end", "*** Update File: f\n@@\n-no newline at end\n+first line\n+second line", "first line\nsecond line\n"],
    ["deletes lines only", "line1\nline2\nline3\n", "*** Update File: f\n@@\n line1\n-line2\n line3", "line1\nline3\n"],
    [
      "uses @@ context to pick the right place",
      "def a():\n    pass\ndef b():\n    pass\n",
      "*** Update File: f\n@@ def b():\n-    pass\n+    return 1",
      "def a():\n    pass\ndef b():\n    return 1\n",
    ],
    ["matches ignoring trailing and surrounding whitespace", "  foo  \nbar\t\n", "*** Update File: f\n@@\n-foo\n-bar\n+x", "x\n"],
    [
      "matches typographic dashes to ASCII",
      "import asyncio  # local \u2013 avoids top\u2011level dep\n",
      "*** Update File: f\n@@\n-import asyncio  # local - avoids top-level dep\n+import asyncio  # HELLO",
      "import asyncio  # HELLO\n",
    ],
    ["keeps CRLF line ends", "a\r\nb\r\n", "*** Update File: f\n@@\n a\n-b\n+c", "a\r\nc\r\n"],
    ["looks for End of File chunks at the end", "x\ny\nx\n", "*** Update File: f\n@@\n-x\n+z\n*** End of File", "x\ny\nz\n"],
  ])("%s", (_name, before, body, expected) => {
    expect(afterUpdate(before, body)).toBe(expected);
  });

  it.each([
    ["missing context", "foo\nbar\n", "*** Update File: f\n@@ nonexistent\n-bar\n+baz", "context"],
    ["missing old lines", "foo\nbar\n", "*** Update File: f\n@@\n-nonexistent\n+replacement", "not found"],
  ])("fails open on %s", (_name, before, body, why) => {
    const result = afterUpdate(before, body);
    expect(result).toMatchObject({ why: expect.stringContaining(why) });
  });

  it("adds, deletes and moves, with each file's content before and after", () => {
    const files: Record<string, string> = { "old/name.txt": "from\n", "gone.txt": "bye\n", "dup.txt": "old\n" };
    const hunks = hunksOf(
      wrap(["*** Update File: old/name.txt", "*** Move to: renamed/dir/name.txt", "@@", "-from", "+new", "*** Delete File: gone.txt", "*** Add File: dup.txt", "+fresh"].join("\n")),
    );
    const preview = previewPatch(hunks, (path) => files[path] ?? null);
    expect(preview).toEqual({
      ok: true,
      files: [
        { path: "old/name.txt", before: "from\n", after: null },
        { path: "renamed/dir/name.txt", before: null, after: "new\n" },
        { path: "gone.txt", before: "bye\n", after: null },
        { path: "dup.txt", before: "old\n", after: "fresh\n" },
      ],
    });
  });

  it("lets a later section see an earlier one's result", () => {
    const hunks = hunksOf(wrap("*** Add File: a.txt\n+one\n*** Update File: a.txt\n@@\n-one\n+two"));
    expect(previewPatch(hunks, () => null)).toEqual({ ok: true, files: [{ path: "a.txt", before: null, after: "two\n" }] });
  });

  it.each([
    ["a delete of a missing file", "*** Delete File: nope.txt", "does not exist"],
    ["an update of a missing file", "*** Update File: nope.txt\n@@\n-a\n+b", "does not exist"],
  ])("fails open on %s", (_name, body, why) => {
    const preview = previewPatch(hunksOf(wrap(body)), () => null);
    expect(preview).toMatchObject({ ok: false, why: expect.stringContaining(why) });
  });

  it("fails open when a file cannot be read", () => {
    const preview = previewPatch(hunksOf(wrap("*** Delete File: dir")), () => {
      throw new Error("EISDIR");
    });
    expect(preview).toMatchObject({ ok: false, why: expect.stringContaining("EISDIR") });
  });

  it("applyChunks with no chunk leaves the text with a final newline", () => {
    expect(applyChunks("a", [])).toEqual({ ok: true, after: "a\n" });
  });
});

describe("extractShellPatch", () => {
  const patch = "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch";
  it.each<[string, { patch: string; workdir: string | null } | null]>([
    [`apply_patch <<'EOF'\n${patch}\nEOF\n`, { patch, workdir: null }],
    [`applypatch <<"PATCH"\n${patch}\nPATCH`, { patch, workdir: null }],
    [`cd sub/dir && apply_patch <<'EOF'\n${patch}\nEOF`, { patch, workdir: "sub/dir" }],
    [`cd 'my dir' && apply_patch <<EOF\n${patch}\nEOF`, { patch, workdir: "my dir" }],
    [`echo hi; apply_patch <<'EOF'\n${patch}\nEOF`, null],
    [`apply_patch <<'EOF'\n${patch}\nEOF\necho done`, null],
    ["git status", null],
  ])("%j", (command, expected) => {
    expect(extractShellPatch(command)).toEqual(expected);
  });
});
