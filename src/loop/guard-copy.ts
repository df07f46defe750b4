/**
 * ralph's own copy of the loop state, kept under the git dir where the
 * agent's edits of the work tree do not reach it by accident:
 * `<git dir>/ralph/guard/state/<loop>.json` (the bytes of the last
 * `state.json` ralph wrote) and `<git dir>/ralph/guard/active` (the active
 * mark ralph last wrote; empty when it cleared it). Written beside every
 * state write (src/loop/state.ts), so a state that differs from its copy, or
 * is gone while its copy is there, was changed by something other than
 * ralph; src/hooks/guard-record.ts reports that and restores from here
 * (issue 10, "The agent cannot switch its guard off").
 *
 * The copies are records, not the state: written atomically but not
 * fsynced, and a failure to write one never fails the state write.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";
import { readGitFile } from "../store/repo.js";
import { isLoopId, type LoopId } from "../store/loop-id.js";
import { info } from "../log.js";

/** `<git dir>/ralph` of the work tree at `workTree` (a `.git` folder, or the folder a `.git` file points at); null when there is neither. */
export function ralphDirOfWorkTree(workTree: string): string | null {
  const dotGit = join(workTree, ".git");
  try {
    if (lstatSync(dotGit).isDirectory()) return join(dotGit, "ralph");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return null;
    throw error;
  }
  const gitDir = readGitFile(dotGit);
  return gitDir ? join(gitDir, "ralph") : null;
}

/** The folder of the copies: `<ralph dir>/guard`. */
export function guardDir(ralphDir: string): string {
  return join(ralphDir, "guard");
}

/** `<ralph dir>/guard/state/<loop>.json` */
export function stateCopyPath(ralphDir: string, loop: LoopId): string {
  return join(guardDir(ralphDir), "state", `${loop}.json`);
}

/** `<ralph dir>/guard/active` */
export function activeCopyPath(ralphDir: string): string {
  return join(guardDir(ralphDir), "active");
}

/** The copy's bytes as text, or null when there is none. */
export function readCopy(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return null;
    throw error;
  }
}

/** Loops that have a state copy. */
export function listStateCopies(ralphDir: string): LoopId[] {
  try {
    return readdirSync(join(guardDir(ralphDir), "state"))
      .filter((name) => name.endsWith(".json"))
      .map((name) => name.slice(0, -5))
      .filter(isLoopId) as LoopId[];
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
    throw error;
  }
}

/**
 * Keeps `content` as the copy at `path`, best effort (stderr says when it
 * could not): the state write it follows has happened either way.
 * @param write the atomic writer (src/loop/state.ts passes its own, so this module imports nothing above it).
 */
export function keepCopy(path: string, content: string, write: (path: string, content: string) => void): void {
  try {
    write(path, content);
  } catch (error) {
    info(`could not keep the copy ${path}: ${(error as Error).message}`);
  }
}
