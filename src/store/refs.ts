/**
 * Reading and updating refs, per gitrepository-layout(5) and
 * git-pack-refs(1): loose ref files (`<oid>\n` or `ref: <name>\n`) under the
 * git dir, then `packed-refs` (`<oid> <name>` lines, `^<oid>` peel lines,
 * `#` header). HEAD and `refs/worktree/*`, `refs/bisect/*` are per-worktree
 * (in the worktree's git dir); everything else is shared (the common dir).
 *
 * Updates follow git's own locking protocol: create `<ref>.lock` exclusively,
 * write the new value, fsync, rename over the ref, then fsync the ref's
 * folder so the rename itself is durable. Callers serialise their
 * own read-compare-write with ralph's loop lock; the `.lock` file also keeps
 * native git (e.g. `git pack-refs`) from racing the write.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { RalphError, isErrno, isRalphError, withErrorPath } from "../errors.js";
import { warn } from "../log.js";
import { sleepMs } from "./lock.js";
import { fsPath } from "./path-bytes.js";

const OID_RE = /^[0-9a-f]{40}$/;

/**
 * Where refs are read from: the per-worktree git dir and the common dir.
 * Either may hold path bytes that are not UTF-8 (a nested repository in a
 * folder so named), escaped as path-bytes.ts does; reads pass them as bytes.
 */
export interface RefLocation {
  gitDir: string;
  commonDir: string;
  /** Whether ref writes fsync the ref and its folder (src/runtime-env.ts `fsync`, `RALPH_FSYNC`); default true. */
  fsync?: boolean;
}

function isPerWorktree(name: string): boolean {
  return name === "HEAD" || name.startsWith("refs/worktree/") || name.startsWith("refs/bisect/") || !name.startsWith("refs/");
}

function refFile(loc: RefLocation, name: string): string {
  return join(isPerWorktree(name) ? loc.gitDir : loc.commonDir, name);
}

/** Parses `packed-refs` into name -> oid (peel lines ignored). */
export function readPackedRefs(commonDir: string): Map<string, string> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(fsPath(join(commonDir, "packed-refs")), "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return out;
    throw error;
  }
  for (const line of text.split("\n")) {
    if (line.length < 42 || line.startsWith("#") || line.startsWith("^")) continue;
    const oid = line.slice(0, 40);
    if (OID_RE.test(oid) && line[40] === " ") out.set(line.slice(41).trim(), oid);
  }
  return out;
}

/** The raw content of one ref: an oid, a symbolic target, or null when absent. */
export function readRawRef(loc: RefLocation, name: string): { oid: string } | { symref: string } | null {
  let text: string | null = null;
  try {
    text = readFileSync(fsPath(refFile(loc, name)), "utf8").trim();
  } catch (error) {
    if (!isErrno(error, "ENOENT", "ENOTDIR", "EISDIR")) throw error;
  }
  if (text !== null && text !== "") {
    if (text.startsWith("ref:")) return { symref: text.slice(4).trim() };
    if (OID_RE.test(text)) return { oid: text };
    throw new RalphError("E_CORRUPT", `ref ${name} holds ${JSON.stringify(text.slice(0, 60))}, not an object id; repair or delete it`, {
      data: { ref: name },
    });
  }
  if (isPerWorktree(name) && name !== "HEAD" && !name.startsWith("refs/")) return null;
  const packed = readPackedRefs(loc.commonDir).get(name);
  return packed ? { oid: packed } : null;
}

/** Resolves a ref name (following symbolic refs, at most 5 deep) to an oid, or null. */
export function resolveRef(loc: RefLocation, name: string): string | null {
  let current = name;
  for (let depth = 0; depth < 5; depth++) {
    const raw = readRawRef(loc, current);
    if (raw === null) return null;
    if ("oid" in raw) return raw.oid;
    current = raw.symref;
  }
  throw new RalphError("E_CORRUPT", `symbolic ref ${name} is nested too deep (a loop?)`, { data: { ref: name } });
}

/** The branch HEAD points at (`refs/heads/main`), or null when HEAD is detached. */
export function readHeadTarget(loc: RefLocation): string | null {
  const raw = readRawRef(loc, "HEAD");
  return raw && "symref" in raw ? raw.symref : null;
}

/**
 * Lists refs under a prefix (e.g. `refs/ralph/`), loose refs overriding
 * packed ones. Returns name -> oid, symbolic refs resolved. A ref whose file
 * holds no object id (garbage text) is left out with a warning, so one
 * damaged ref does not hide the others; reading it by name still fails
 * with E_CORRUPT naming it.
 */
export function listRefs(loc: RefLocation, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, oid] of readPackedRefs(loc.commonDir)) if (name.startsWith(prefix)) out.set(name, oid);
  const base = prefix.endsWith("/") ? prefix.slice(0, -1) : dirname(prefix);
  const walk = (rel: string): void => {
    let entries;
    try {
      entries = readdirSync(join(loc.commonDir, rel), { withFileTypes: true });
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) return;
      throw error;
    }
    for (const e of entries) {
      const name = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(name);
      else if (e.isFile() && !e.name.endsWith(".lock") && name.startsWith(prefix)) {
        let oid: string | null = null;
        try {
          oid = resolveRef(loc, name);
        } catch (error) {
          if (!isRalphError(error, "E_CORRUPT")) throw error;
          warn(error.message);
          out.delete(name);
        }
        if (oid) out.set(name, oid);
      }
    }
  };
  walk(base);
  return out;
}

/** A `<ref>.lock` older than this is left over from a killed process (git holds them for microseconds), in ms. */
const STALE_REF_LOCK_MS = 2_000;

function openRefLock(lockPath: string, name: string): number {
  const deadline = Date.now() + 2 * STALE_REF_LOCK_MS;
  for (;;) {
    try {
      return openSync(lockPath, "wx", 0o644);
    } catch (error) {
      if (!isErrno(error, "EEXIST")) throw error;
    }
    let ageMs: number;
    try {
      ageMs = Date.now() - statSync(lockPath).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if (ageMs > STALE_REF_LOCK_MS) {
      try {
        unlinkSync(lockPath);
      } catch {
        /* someone else removed it */
      }
      continue;
    }
    if (Date.now() > deadline) {
      throw new RalphError("E_LOCKED", `${lockPath} exists: another git process is updating ${name}; retry, or remove the file if none runs`, {
        data: { path: lockPath, ref: name },
      });
    }
    sleepMs(5);
  }
}

/** fsyncs a folder, so a rename into it survives a power loss. */
function syncFolder(dir: string, fsync: boolean): void {
  if (!fsync) return;
  const fd = openSync(dir, "r");
  try {
    withErrorPath(dir, () => fsyncSync(fd));
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses a ref name below an existing ref (`refs/ralph/x/head` while
 * `refs/ralph/x` is a ref, loose or packed): git keeps refs as files, so one
 * name cannot be both a ref and a folder of refs (git's "D/F conflict").
 * @throws RalphError E_BAD_LOOP_ID naming the ref in the way and how to remove it.
 */
function assertNoRefAbove(loc: RefLocation, name: string): void {
  const parts = name.split("/");
  const packed = readPackedRefs(loc.commonDir);
  for (let i = 2; i < parts.length; i++) {
    const above = parts.slice(0, i).join("/");
    let isFile: boolean;
    try {
      isFile = statSync(refFile(loc, above)).isFile();
    } catch {
      isFile = false;
    }
    if (isFile || packed.has(above)) {
      throw new RalphError("E_BAD_LOOP_ID", `cannot create ${name}: ${above} already exists as a ref; use another loop id, or delete it with 'git update-ref -d ${above}' if it is not yours`, {
        data: { ref: name, conflict: above },
      });
    }
  }
}

/**
 * Writes `newOid` to ref `name` if its current value is `expectedOid`
 * (null: the ref must not exist). Uses git's `<ref>.lock` protocol.
 * @returns true on success, false when the current value differs (lost the race).
 * @throws RalphError E_LOCKED when git's `<ref>.lock` is held by someone else.
 */
export function compareAndSwapRef(loc: RefLocation, name: string, newOid: string, expectedOid: string | null): boolean {
  if (!OID_RE.test(newOid)) throw new RalphError("E_INTERNAL", `refusing to write ${JSON.stringify(newOid)} to ${name}: not an oid`);
  const file = refFile(loc, name);
  assertNoRefAbove(loc, name);
  mkdirSync(dirname(file), { recursive: true });
  const lockPath = `${file}.lock`;
  let fd = openRefLock(lockPath, name);
  let renamed = false;
  try {
    const raw = readRawRef(loc, name);
    const current = raw && "oid" in raw ? raw.oid : null;
    if (current !== expectedOid) return false;
    const lockFd = fd;
    withErrorPath(lockPath, () => {
      writeSync(lockFd, `${newOid}\n`);
      if (loc.fsync !== false) fsyncSync(lockFd);
    });
    closeSync(fd);
    fd = -1;
    renameSync(lockPath, file);
    renamed = true;
    syncFolder(dirname(file), loc.fsync !== false);
    return true;
  } finally {
    if (fd !== -1) closeSync(fd);
    if (!renamed) {
      try {
        unlinkSync(lockPath);
      } catch {
        /* already gone */
      }
    }
  }
}
