/**
 * Reading and writing Claude Code settings files for install, uninstall and
 * doctor: JSON with every unknown key kept, written atomically (temp file,
 * fsync, rename) with a trailing newline.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
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
