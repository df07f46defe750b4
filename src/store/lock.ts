/**
 * ralph's own inter-process lock: a file created atomically with its full
 * content (written to a temp file, then `link`ed into place, which fails
 * with EEXIST when held), holding the owner's pid, hostname and process
 * start time. A lock whose owner process is gone (same host, pid not
 * alive, or alive with a different start time: pid reuse) is reclaimed;
 * a lock held by a live process is waited for, then reported as E_LOCKED.
 *
 * Reclaiming renames the stale file aside first, so of two processes that
 * both see a stale lock only one removes it.
 */
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { RalphError, isErrno, withErrorPath } from "../errors.js";
import { currentRun } from "../log.js";
import { DEFAULT_LOCK_TIMEOUT_MS } from "../runtime-env.js";

/** What a lock file holds. */
export interface LockOwner {
  pid: number;
  host: string;
  /** Process start time from /proc/<pid>/stat (clock ticks since boot), or null where /proc is absent. */
  start: number | null;
  token: string;
  /** When the lock was taken, ms since the epoch. */
  takenAtMs: number;
}

/** Options of {@link withLock}. */
export interface LockOptions {
  /** How long to wait for a live holder, in ms (default: the run's `RALPH_LOCK_TIMEOUT_MS`, src/log.ts `currentRun`, else 15000). */
  timeoutMs?: number;
}

/** The default wait for a held lock, in ms: the current run's `RALPH_LOCK_TIMEOUT_MS` (src/runtime-env.ts), else 15000. */
export function defaultLockTimeoutMs(): number {
  return currentRun()?.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
}

function processStartTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (starttime) comes after the parenthesised command name, which may contain spaces.
    const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const value = Number(rest[19]);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** True when the process that wrote `owner` is still running (on this host). */
export function isOwnerAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true; // cannot tell: treat as alive
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if (isErrno(error, "ESRCH")) return false;
    // EPERM: exists but not ours.
  }
  if (owner.start === null) return true;
  const start = processStartTime(owner.pid);
  return start === null || start === owner.start;
}

function readOwner(path: string): LockOwner | null {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as LockOwner;
    return typeof parsed.pid === "number" && typeof parsed.token === "string" ? parsed : null;
  } catch {
    return null;
  }
}

function tryAcquire(path: string, owner: LockOwner): boolean {
  const temp = `${path}.${owner.token}.tmp`;
  try {
    withErrorPath(temp, () => writeFileSync(temp, JSON.stringify(owner)));
  } catch (error) {
    try {
      unlinkSync(temp); // a full disk left it empty or partial
    } catch {
      /* never created */
    }
    throw error;
  }
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if (isErrno(error, "EEXIST")) return false;
    throw error;
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      /* already gone */
    }
  }
}

/** Removes `path` if it still holds the stale lock `seen`; returns true when removed. */
function reclaimStale(path: string, seen: LockOwner, myToken: string): boolean {
  const aside = `${path}.stale-${myToken}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return true; // someone else reclaimed it
    throw error;
  }
  const moved = readOwner(aside);
  if (moved && moved.token !== seen.token) {
    // We moved a fresh lock taken after our read: put it back if we can.
    try {
      linkSync(aside, path);
    } catch {
      /* a third process holds it now; the moved owner will find its lock gone at release */
    }
    unlinkSync(aside);
    return false;
  }
  unlinkSync(aside);
  return true;
}

/** An unreadable lock older than this is abandoned, in ms (a checkpoint holds the lock for well under a second). */
const UNREADABLE_LOCK_STALE_MS = 10_000;

function isAbandonedUnreadable(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > UNREADABLE_LOCK_STALE_MS;
  } catch {
    return false; // gone meanwhile: the next attempt takes it
  }
}

/** Moves the file aside and deletes it, so of several processes only one removes it. */
function removeIfUnchanged(path: string): void {
  const aside = `${path}.stale-${randomBytes(6).toString("hex")}`;
  try {
    renameSync(path, aside);
    unlinkSync(aside);
  } catch {
    /* someone else took care of it */
  }
}

/** Temp files of `tryAcquire` older than this were left by killed processes, in ms. */
const LEFTOVER_TEMP_MS = 60_000;

/** Removes `<lock>.<token>.tmp` / `.stale-*` files that killed processes left beside the lock (called while holding it). */
function removeLeftoverTemps(path: string): void {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  try {
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(prefix) || !(name.endsWith(".tmp") || name.includes(".stale-"))) continue;
      const file = join(dir, name);
      try {
        if (Date.now() - statSync(file).mtimeMs > LEFTOVER_TEMP_MS) unlinkSync(file);
      } catch {
        /* gone meanwhile */
      }
    }
  } catch {
    /* the folder is unreadable: nothing to tidy */
  }
}

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the (synchronous) process for `ms` milliseconds without spinning. */
export function sleepMs(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

/**
 * Runs `fn` while holding the lock file at `path` (its folder is created).
 * Synchronous on purpose: ralph's store is synchronous and a hook process
 * does one thing at a time.
 * @throws RalphError E_LOCKED when a live process holds the lock past `timeoutMs`.
 */
export function withLock<T>(path: string, fn: () => T, options: LockOptions = {}): T {
  const timeoutMs = options.timeoutMs ?? defaultLockTimeoutMs();
  mkdirSync(dirname(path), { recursive: true });
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    start: processStartTime(process.pid),
    token: randomBytes(8).toString("hex"),
    takenAtMs: Date.now(),
  };
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  for (;;) {
    owner.takenAtMs = Date.now();
    if (tryAcquire(path, owner)) break;
    const holder = readOwner(path);
    if (holder && !isOwnerAlive(holder)) {
      reclaimStale(path, holder, owner.token);
      continue;
    }
    if (!holder && isAbandonedUnreadable(path)) {
      // A lock file is only ever linked in complete, so unreadable content is foreign or corrupt
      // (e.g. a disk that filled up); once it is older than any live holder would keep it, take it.
      removeIfUnchanged(path);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new RalphError(
        "E_LOCKED",
        holder && holder.host !== hostname()
          ? `lock ${path} is held by process ${holder.pid} on host ${holder.host}, which ralph cannot check from ${hostname()}; if no ralph runs there, delete ${path}`
          : holder
            ? `lock ${path} is held by process ${holder.pid} on ${holder.host}; wait for it to finish or stop it`
            : `lock ${path} exists and is unreadable; remove it if no ralph process is running`,
        { data: { path, pid: holder?.pid ?? null, host: holder?.host ?? null } },
      );
    }
    sleepMs(delay);
    delay = Math.min(delay * 2, 50);
  }
  removeLeftoverTemps(path);
  try {
    return fn();
  } finally {
    const current = readOwner(path);
    if (current && current.token === owner.token) {
      try {
        unlinkSync(path);
      } catch {
        /* already gone */
      }
    }
  }
}
