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
 * @throws RalphError E_USAGE when it is not a JSON object (ralph never overwrites a file it cannot read).
 */
export function readSettingsFile(path: string): Settings | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return null;
    throw error;
  }
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
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
