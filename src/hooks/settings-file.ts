/**
 * Reading and writing Claude Code settings files for install, uninstall and
 * doctor: JSON with every unknown key kept, written atomically (temp file,
 * fsync, rename) with a trailing newline.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { isErrno, RalphError } from "../errors.js";
import type { Settings } from "./claude-settings.js";

/** `.claude/settings.json`, or `.claude/settings.local.json` when `local`. */
export function settingsPathFor(workTree: string, local: boolean): string {
  return join(workTree, ".claude", local ? "settings.local.json" : "settings.json");
}

/**
 * The settings in a file; null when the file does not exist.
 * @param options.comments read JSON with comments (Gemini CLI's settings.json).
 * @throws RalphError E_USAGE when it is not a JSON object (ralph never overwrites a file it cannot read).
 */
export function readSettingsFile(path: string, options: { comments?: boolean } = {}): Settings | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return null;
    throw error;
  }
  return parseSettingsText(path, text, options);
}

/**
 * The settings in a file's text (`{}` for blank text); `comments` strips
 * `//` and `/* *\/` comments first, as Gemini CLI does ({@link stripJsonComments}).
 * @throws RalphError E_USAGE when it is not a JSON object.
 */
export function parseSettingsText(path: string, text: string, options: { comments?: boolean } = {}): Settings {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(options.comments === true ? stripJsonComments(text) : text);
  } catch (error) {
    throw new RalphError("E_USAGE", `${path} is not valid JSON (${(error as Error).message}); fix it first, ralph will not overwrite it`, { data: { path }, cause: error });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new RalphError("E_USAGE", `${path} does not hold a JSON object; fix it first, ralph will not overwrite it`, { data: { path } });
  }
  return parsed as Settings;
}

/** Writes settings atomically. */
export function writeSettingsFile(path: string, settings: Settings): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, "w", 0o644);
  try {
    writeSync(fd, `${JSON.stringify(settings, null, 2)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** `<git dir>/ralph/created-settings.json`: the settings files `ralph install` created, repository-relative, with whether it created their folder. */
function createdListPath(repo: { ralphDir: string }): string {
  return join(repo.ralphDir, "created-settings.json");
}

type CreatedList = Record<string, { created_dir: boolean }>;

function readCreatedList(repo: { ralphDir: string }): CreatedList {
  try {
    const value = JSON.parse(readFileSync(createdListPath(repo), "utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as CreatedList) : {};
  } catch {
    return {};
  }
}

/** Notes that `ralph install` is creating the settings file at `path` (and its folder when `createdDir`). */
export function noteCreatedSettings(repo: { workTree: string; ralphDir: string }, path: string, createdDir: boolean): void {
  const list = readCreatedList(repo);
  list[relative(repo.workTree, path).split("\\").join("/")] = { created_dir: createdDir };
  mkdirSync(repo.ralphDir, { recursive: true });
  writeFileSync(createdListPath(repo), `${JSON.stringify(list, null, 2)}\n`);
}

/**
 * Deletes the settings file at `path` when `ralph install` created it (and
 * its `.claude` folder when install created that too and it is empty now);
 * the caller has found nothing but ralph's entries in it. Returns whether the
 * file was deleted; a file ralph did not create is left for the caller to write.
 */
export function removeCreatedSettings(repo: { workTree: string; ralphDir: string }, path: string): boolean {
  const list = readCreatedList(repo);
  const key = relative(repo.workTree, path).split("\\").join("/");
  const entry = list[key];
  if (!entry) return false;
  rmSync(path, { force: true });
  if (entry.created_dir) {
    try {
      if (readdirSync(dirname(path)).length === 0) rmdirSync(dirname(path));
    } catch {
      /* already gone, or not empty: keep it */
    }
  }
  delete list[key];
  writeFileSync(createdListPath(repo), `${JSON.stringify(list, null, 2)}\n`);
  return true;
}

/** A JSON value shown in one line of an error message: at most 60 characters. */
function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Refuses settings whose `hooks` install would have to replace: a `hooks`
 * that is not an object, or one of ralph's `events` whose value is not an
 * array. The agent cannot read such a value as hooks either, and ralph
 * cannot know what it meant, so install stops instead of dropping it (the
 * same as for a file that is not JSON); every other key and event is kept
 * untouched by install, whatever it holds.
 * @param path the settings file, for the message.
 * @param events the events ralph writes entries for.
 * @throws RalphError E_USAGE naming the file, the key and its value.
 */
export function assertHookSlots(path: string, settings: Settings, events: readonly string[]): void {
  const hooks = settings.hooks;
  if (hooks === undefined) return;
  const refuse = (where: string, value: unknown, want: string): never => {
    throw new RalphError("E_USAGE", `${path}: ${where} is ${shortJson(value)}, not ${want}; fix or remove it first, ralph will not overwrite it`, {
      data: { path, key: where, value },
    });
  };
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) refuse('"hooks"', hooks, "an object of events");
  const table = hooks as Record<string, unknown>;
  for (const event of events) {
    if (Object.hasOwn(table, event) && !Array.isArray(table[event])) refuse(`"hooks"."${event}"`, table[event], "an array of hook entries");
  }
}

/**
 * The text with every `//` line comment and `/* *\/` block comment replaced
 * by spaces (line breaks kept), so offsets and line numbers stay as they
 * were; strings are left alone. This is what Gemini CLI does before
 * `JSON.parse` (packages/cli/src/config/settings.ts runs the file through
 * `strip-json-comments` with its defaults, so trailing commas stay errors).
 * An unterminated block comment is blanked to the end.
 */
export function stripJsonComments(text: string): string {
  let out = "";
  let i = 0;
  const blank = (part: string): string => part.replace(/[^\r\n]/g, " ");
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      let j = text.indexOf("\n", i);
      if (j === -1) j = text.length;
      if (text[j - 1] === "\r") j -= 1;
      out += blank(text.slice(i, j));
      i = j;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const j = end === -1 ? text.length : end + 2;
      out += blank(text.slice(i, j));
      i = j;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** Where a top-level member is in (comment-stripped) JSON text: its key's first quote, its value's span, and the span to cut to remove it with one comma. */
interface MemberSpan {
  keyStart: number;
  valueStart: number;
  valueEnd: number;
  cutStart: number;
  cutEnd: number;
}

/** The end (exclusive) of the JSON value starting at `i` in valid JSON text. */
function valueEnd(text: string, i: number): number {
  if (text[i] === '"') {
    let j = i + 1;
    while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
    return j + 1;
  }
  if (text[i] === "{" || text[i] === "[") {
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      const c = text[j];
      if (c === '"') j = valueEnd(text, j) - 1;
      else if (c === "{" || c === "[") depth += 1;
      else if (c === "}" || c === "]") {
        depth -= 1;
        if (depth === 0) return j + 1;
      }
    }
    return j;
  }
  let j = i;
  while (j < text.length && !/[\s,}\]]/.test(text[j]!)) j += 1;
  return j;
}

/** The top-level members of a JSON object's valid (comment-stripped) text, by key, and the offset of its closing brace. */
function topLevelMembers(text: string): { members: Map<string, MemberSpan>; close: number } {
  const skip = (j: number): number => {
    while (j < text.length && /\s/.test(text[j]!)) j += 1;
    return j;
  };
  const members = new Map<string, MemberSpan>();
  let i = skip(text.indexOf("{") + 1);
  let previousEnd = -1;
  while (text[i] === '"') {
    const keyEnd = valueEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueStart = skip(skip(keyEnd) + 1);
    const end = valueEnd(text, valueStart);
    const after = skip(end);
    const span = { keyStart: i, valueStart, valueEnd: end, cutStart: i, cutEnd: after };
    if (text[after] === ",") span.cutEnd = skip(after + 1);
    else if (previousEnd !== -1) span.cutStart = previousEnd;
    members.set(key, span);
    previousEnd = end;
    i = text[after] === "," ? skip(after + 1) : after;
  }
  return { members, close: i };
}

/**
 * Writes settings whose only change from the file's current text is the
 * top-level `hooks` value, keeping the text's comments and formatting: the
 * `hooks` value is replaced (or added before the closing brace, or removed
 * with its comma). A file with no comment is written by
 * {@link writeSettingsFile} as usual.
 * @throws RalphError E_USAGE when a comment sits inside `hooks` (it cannot be kept; the file is left as it is).
 */
export function writeSettingsKeepingComments(path: string, settings: Settings): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    text = "";
  }
  const stripped = stripJsonComments(text);
  if (stripped === text || text.trim() === "") {
    writeSettingsFile(path, settings);
    return;
  }
  const { members, close } = topLevelMembers(stripped);
  const hooks = members.get("hooks");
  if (hooks && stripped.slice(hooks.keyStart, hooks.valueEnd) !== text.slice(hooks.keyStart, hooks.valueEnd)) {
    throw new RalphError("E_USAGE", `${path} has comments inside "hooks", which ralph cannot keep when it rewrites them; move them out of "hooks" and retry`, { data: { path } });
  }
  const lineStart = text.lastIndexOf("\n", (hooks?.keyStart ?? close) - 1) + 1;
  const indentMatch = /^[ \t]*/.exec(text.slice(lineStart));
  const outer = hooks ? (indentMatch?.[0] ?? "") : "";
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const value = (settings.hooks === undefined ? "" : JSON.stringify(settings.hooks, null, 2)).split("\n").join(`${eol}${outer}`);
  let next: string;
  if (hooks && settings.hooks !== undefined) next = text.slice(0, hooks.valueStart) + value + text.slice(hooks.valueEnd);
  else if (hooks) next = text.slice(0, hooks.cutStart) + text.slice(hooks.cutEnd);
  else if (settings.hooks !== undefined) {
    const before = stripped.slice(0, close).trimEnd();
    const comma = before.endsWith("{") ? "" : ",";
    const cut = before.length;
    const nested = value.split(eol).join(`${eol}  `);
    next = `${text.slice(0, cut)}${comma}${text.slice(cut, close).trimEnd()}${eol}  "hooks": ${nested}${eol}${text.slice(close)}`;
  } else next = text;
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, next);
  renameSync(temp, path);
}
