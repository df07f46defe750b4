/**
 * Codex CLI's `apply_patch` edit format, parsed and applied in memory so a
 * PreToolUse hook can judge each file's content after the edit before the
 * edit lands. Codex sends the patch text as `tool_input.command` with
 * `tool_name: "apply_patch"` (openai/codex codex-rs/core tools handler
 * `pre_tool_use_payload`: `{"command": <patch>}`; docs/agents.md).
 *
 * The grammar is the one Codex documents in codex-rs/apply-patch/src/parser.rs:
 *
 *   start: "*** Begin Patch" LF hunk+ "*** End Patch" LF?
 *   hunk: add | delete | update
 *   add:    "*** Add File: " path LF ("+" line LF)*
 *   delete: "*** Delete File: " path LF
 *   update: "*** Update File: " path LF ("*** Move to: " path LF)? chunk+
 *   chunk:  ("@@" | "@@ " context) LF (" " | "+" | "-" line LF)+ ("*** End of File" LF)?
 *
 * with Codex's leniencies: markers may carry surrounding whitespace, the
 * first chunk of an update may omit its `@@` line, blank lines between chunks
 * are skipped, an empty line inside a chunk is an empty context line, and the
 * whole patch may sit inside a `<<'EOF'` … `EOF` heredoc wrapper.
 *
 * Applying a chunk follows codex-rs/apply-patch/src/lib.rs
 * (`derive_new_contents_from_chunks`, `compute_replacements`) and
 * seek_sequence.rs: a chunk's `@@ context` line is looked for from the
 * current position, then its old lines; each search tries an exact match,
 * then ignoring trailing whitespace, then ignoring surrounding whitespace,
 * then with typographic dashes, quotes and spaces folded to ASCII; an
 * `*** End of File` chunk is looked for at the end first; a chunk without old
 * lines is appended at the end; the result always ends with a newline.
 * A file with CRLF line ends is matched on its LF form and written back with
 * CRLF (Codex keeps a file's line ends).
 *
 * Everything fails open: a patch ralph cannot parse or apply gives
 * `{ok: false, why}`, never an exception, and the caller judges nothing
 * before the edit (the PostToolUse checkpoint still sees what landed).
 */

/** One `@@` chunk of an `*** Update File:` section. */
export interface PatchChunk {
  /** The `@@ <context>` line's text (a line the chunk's lines come after), or null for a bare `@@`. */
  context: string | null;
  /** The lines the chunk replaces (context and `-` lines), without their one-character prefix. */
  oldLines: string[];
  /** The lines that replace them (context and `+` lines). */
  newLines: string[];
  /** True when the chunk ended with `*** End of File`: its old lines are at the end of the file. */
  isEndOfFile: boolean;
}

/** One file section of a patch. Paths are as written (relative to the call's cwd, or absolute). */
export type PatchHunk = { kind: "add"; path: string; contents: string } | { kind: "delete"; path: string } | { kind: "update"; path: string; movePath: string | null; chunks: PatchChunk[] };

/** A parsed patch, or why it is not one (with the 1-based line of the patch text where known). */
export type PatchParse = { ok: true; hunks: PatchHunk[] } | { ok: false; why: string; line?: number };

/**
 * What the patch does to one file. `before` is the file's content now (null:
 * absent), `after` its content once the patch has been applied (null: the
 * patch deletes it, or moves it away).
 */
export interface PatchFileEffect {
  path: string;
  before: string | null;
  after: string | null;
}

/** The effect of a whole patch, or why it cannot be known (the patch would fail in Codex, or ralph cannot read it). */
export type PatchPreview = { ok: true; files: PatchFileEffect[] } | { ok: false; why: string };

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARKER = "*** End of File";

/** Splits like Rust's `str::lines`: on `\n`, dropping one `\r` before it and a final empty line. */
function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

/** The lines between the Begin and End markers, unwrapping a `<<EOF` heredoc once. */
function patchBody(lines: string[]): { body: string[]; offset: number } | { why: string } {
  const bounded = (ls: string[]): boolean => ls.length >= 2 && ls[0]!.trim() === BEGIN && ls[ls.length - 1]!.trim() === END;
  if (bounded(lines)) return { body: lines.slice(1, -1), offset: 2 };
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (lines.length >= 4 && (first === "<<EOF" || first === "<<'EOF'" || first === '<<"EOF"') && last !== undefined && last.endsWith("EOF")) {
    const inner = lines.slice(1, -1);
    if (bounded(inner)) return { body: inner.slice(1, -1), offset: 3 };
  }
  if (lines.length === 0 || lines[0]!.trim() !== BEGIN) return { why: "the first line of the patch must be '*** Begin Patch'" };
  return { why: "the last line of the patch must be '*** End Patch'" };
}

type ChunkParse = { ok: true; chunk: PatchChunk; used: number } | { ok: false; why: string; line: number };

/** Parses one chunk from the start of `lines`; `firstChunk` allows the `@@` line to be missing. */
function parseChunk(lines: string[], lineNumber: number, firstChunk: boolean): ChunkParse {
  let start = 0;
  let context: string | null = null;
  if (lines[0] === "@@") start = 1;
  else if (lines[0]!.startsWith("@@ ")) {
    context = lines[0]!.slice(3);
    start = 1;
  } else if (!firstChunk) return { ok: false, why: `expected a chunk to start with an @@ line, got '${lines[0]}'`, line: lineNumber };
  if (start >= lines.length) return { ok: false, why: "a chunk has no lines", line: lineNumber + 1 };
  const chunk: PatchChunk = { context, oldLines: [], newLines: [], isEndOfFile: false };
  let used = 0;
  for (const line of lines.slice(start)) {
    if (line === EOF_MARKER) {
      if (used === 0) return { ok: false, why: "a chunk has no lines", line: lineNumber + 1 };
      chunk.isEndOfFile = true;
      used += 1;
      break;
    }
    const mark = line[0];
    if (mark === undefined) {
      chunk.oldLines.push("");
      chunk.newLines.push("");
    } else if (mark === " ") {
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (mark === "+") chunk.newLines.push(line.slice(1));
    else if (mark === "-") chunk.oldLines.push(line.slice(1));
    else {
      if (used === 0) return { ok: false, why: `unexpected line in a chunk: '${line}' (each line starts with ' ', '+' or '-')`, line: lineNumber + 1 };
      break; // the next chunk's @@, or the next section
    }
    used += 1;
  }
  return { ok: true, chunk, used: used + start };
}

/**
 * Parses patch text (the grammar in the module doc). Never throws.
 * @returns the file sections in patch order, or why the text is not a patch.
 */
export function parsePatch(text: string): PatchParse {
  const bounds = patchBody(splitLines(text.trim()));
  if ("why" in bounds) return { ok: false, why: bounds.why, line: 1 };
  const lines = bounds.body;
  const hunks: PatchHunk[] = [];
  let i = 0;
  while (i < lines.length) {
    const lineNumber = i + bounds.offset;
    const header = lines[i]!.trim();
    if (header === "") {
      i += 1; // blank lines between sections
      continue;
    }
    if (header.startsWith(ADD)) {
      let contents = "";
      i += 1;
      while (i < lines.length && lines[i]!.startsWith("+")) {
        contents += `${lines[i]!.slice(1)}\n`;
        i += 1;
      }
      hunks.push({ kind: "add", path: header.slice(ADD.length), contents });
      continue;
    }
    if (header.startsWith(DELETE)) {
      hunks.push({ kind: "delete", path: header.slice(DELETE.length) });
      i += 1;
      continue;
    }
    if (header.startsWith(UPDATE)) {
      const path = header.slice(UPDATE.length);
      i += 1;
      let movePath: string | null = null;
      if (i < lines.length && lines[i]!.startsWith(MOVE)) {
        movePath = lines[i]!.slice(MOVE.length);
        i += 1;
      }
      const chunks: PatchChunk[] = [];
      while (i < lines.length) {
        if (lines[i]!.trim() === "") {
          i += 1;
          continue;
        }
        if (lines[i]!.startsWith("*")) break;
        const parsed = parseChunk(lines.slice(i), i + bounds.offset, chunks.length === 0);
        if (!parsed.ok) return parsed;
        chunks.push(parsed.chunk);
        i += parsed.used;
      }
      if (chunks.length === 0) return { ok: false, why: `the update of '${path}' has no chunk`, line: lineNumber };
      hunks.push({ kind: "update", path, movePath, chunks });
      continue;
    }
    return { ok: false, why: `'${header}' is not a section header (*** Add File:, *** Delete File:, *** Update File:)`, line: lineNumber };
  }
  return { ok: true, hunks };
}

/** Typographic dashes, quotes and spaces as their ASCII forms (seek_sequence.rs, last pass). */
function foldPunctuation(line: string): string {
  return line
    .trim()
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u2018-\u201B]/g, "'")
    .replace(/[\u201C-\u201F]/g, '"')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

const COMPARISONS: ReadonlyArray<(line: string) => string> = [(l) => l, (l) => l.trimEnd(), (l) => l.trim(), foldPunctuation];

/** The index of `pattern` in `lines` at or after `start` (at the end first when `atEnd`), or -1. */
function seekSequence(lines: readonly string[], pattern: readonly string[], start: number, atEnd: boolean): number {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return -1;
  const from = atEnd ? lines.length - pattern.length : start;
  const last = lines.length - pattern.length;
  for (const norm of COMPARISONS) {
    for (let i = from; i <= last; i += 1) {
      let same = true;
      for (let j = 0; j < pattern.length && same; j += 1) same = norm(lines[i + j]!) === norm(pattern[j]!);
      if (same) return i;
    }
  }
  return -1;
}

/**
 * A file's content after an `*** Update File:` section's chunks, given its
 * content now; or why the chunks do not apply (Codex would fail the call).
 */
export function applyChunks(original: string, chunks: readonly PatchChunk[]): { ok: true; after: string } | { ok: false; why: string } {
  const crlf = original.includes("\r\n");
  const lines = (crlf ? original.replace(/\r\n/g, "\n") : original).split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const replacements: Array<{ start: number; length: number; lines: string[] }> = [];
  let index = 0;
  for (const chunk of chunks) {
    if (chunk.context !== null) {
      const at = seekSequence(lines, [chunk.context], index, false);
      if (at < 0) return { ok: false, why: `context '${chunk.context}' not found` };
      index = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      const at = lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
      replacements.push({ start: at, length: 0, lines: chunk.newLines });
      continue;
    }
    let pattern = chunk.oldLines;
    let replacement = chunk.newLines;
    let at = seekSequence(lines, pattern, index, chunk.isEndOfFile);
    if (at < 0 && pattern[pattern.length - 1] === "") {
      // A trailing empty line stands for the file's final newline: retry without it.
      pattern = pattern.slice(0, -1);
      if (replacement[replacement.length - 1] === "") replacement = replacement.slice(0, -1);
      at = seekSequence(lines, pattern, index, chunk.isEndOfFile);
    }
    if (at < 0) return { ok: false, why: `expected lines not found: ${JSON.stringify(chunk.oldLines.slice(0, 3).join("\n"))}` };
    replacements.push({ start: at, length: pattern.length, lines: replacement });
    index = at + pattern.length;
  }
  replacements.sort((a, b) => a.start - b.start);
  for (const r of [...replacements].reverse()) lines.splice(r.start, r.length, ...r.lines);
  if (lines[lines.length - 1] !== "") lines.push("");
  const after = lines.join("\n");
  return { ok: true, after: crlf ? after.replace(/\n/g, "\r\n") : after };
}

/**
 * Applies a parsed patch in memory, section by section in patch order (a
 * later section sees an earlier one's result, as when Codex applies them).
 * `readFile(path)` gives a file's content now, null when it does not exist;
 * it is called with the paths as written in the patch.
 * Codex's rules: an add overwrites; a delete or update of a missing file
 * fails; a move writes the new content to the destination and removes the
 * source.
 * @returns one effect per path the patch touches, in first-touch order;
 *   `{ok: false, why}` when the patch does not apply or `readFile` throws
 *   (its error is caught and becomes `why: "cannot read <path>: …"`).
 * @throws only what is not a read error: an error thrown while applying the
 *   chunks (a bug) is rethrown as it is.
 */
export function previewPatch(hunks: readonly PatchHunk[], readFile: (path: string) => string | null): PatchPreview {
  const now = new Map<string, string | null>();
  const original = new Map<string, string | null>();
  const read = (path: string): string | null => {
    if (!now.has(path)) {
      let content: string | null;
      try {
        content = readFile(path);
      } catch (error) {
        throw new PatchReadError(`cannot read ${path}: ${(error as Error).message}`);
      }
      now.set(path, content);
      original.set(path, content);
    }
    return now.get(path) ?? null;
  };
  try {
    for (const hunk of hunks) {
      if (hunk.kind === "add") {
        read(hunk.path);
        now.set(hunk.path, hunk.contents);
      } else if (hunk.kind === "delete") {
        if (read(hunk.path) === null) return { ok: false, why: `cannot delete ${hunk.path}: it does not exist` };
        now.set(hunk.path, null);
      } else {
        const current = read(hunk.path);
        if (current === null) return { ok: false, why: `cannot update ${hunk.path}: it does not exist` };
        const applied = applyChunks(current, hunk.chunks);
        if (!applied.ok) return { ok: false, why: `${hunk.path}: ${applied.why}` };
        if (hunk.movePath !== null && hunk.movePath !== hunk.path) {
          read(hunk.movePath);
          now.set(hunk.movePath, applied.after);
          now.set(hunk.path, null);
        } else now.set(hunk.path, applied.after);
      }
    }
  } catch (error) {
    if (error instanceof PatchReadError) return { ok: false, why: error.message };
    throw error;
  }
  const files: PatchFileEffect[] = [];
  for (const [path, after] of now) files.push({ path, before: original.get(path) ?? null, after });
  return { ok: true, files };
}

class PatchReadError extends Error {}

/**
 * The patch text of a shell command that runs Codex's patch tool through a
 * heredoc, in the two forms Codex itself recognises
 * (codex-rs/apply-patch/src/lib.rs `extract_apply_patch_from_bash`):
 * `apply_patch <<'EOF' … EOF` and `cd <dir> && apply_patch <<'EOF' … EOF`
 * (`applypatch` too), as the whole command. Returns the patch and the `cd`
 * directory (null without one), or null when the command is not that.
 */
export function extractShellPatch(command: string): { patch: string; workdir: string | null } | null {
  const match = /^\s*(?:cd\s+('[^']*'|"[^"]*"|[^\s;&|'"]+)\s*&&\s*)?(?:apply_patch|applypatch)\s*<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2[ \t]*\n([\s\S]*?)\n\3[ \t]*\n?\s*$/.exec(command);
  if (!match) return null;
  const dir = match[1];
  const workdir = dir === undefined ? null : /^['"]/.test(dir) ? dir.slice(1, -1) : dir;
  return { patch: match[4]!, workdir };
}
