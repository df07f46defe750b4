/**
 * The warm process as the operating system sees it, for `ralph daemon
 * status|stop` when it does not answer on its socket (SIGSTOPped, hung):
 * the pid in `<stateDir>/daemon.json`, trusted only when that process is
 * verifiably this work tree's server (its command line, read from
 * /proc/<pid>/cmdline, is `… __daemon <this work tree>`), so a stale or
 * copied daemon.json never names a process to signal.
 */
import { lstatSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { clientSocketPath, locateWorkTree, type DaemonLocation } from "./location.js";

/** The record a server writes when it listens (src/daemon/server.ts). */
export interface DaemonRecord {
  pid: number;
  /** The socket path it listens on. */
  socket: string;
  work_tree: string;
}

/** daemon.json of `location`, or null when missing or not the expected shape. */
export function readDaemonRecord(location: DaemonLocation): DaemonRecord | null {
  try {
    const parsed = JSON.parse(readFileSync(join(location.stateDir, "daemon.json"), "utf8")) as Partial<DaemonRecord>;
    if (!Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0 || typeof parsed.socket !== "string" || typeof parsed.work_tree !== "string") return null;
    return { pid: parsed.pid as number, socket: parsed.socket, work_tree: parsed.work_tree };
  } catch {
    return null;
  }
}

/** Whether `pid` names a live process (EPERM: alive, another user's). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether process `pid` is the warm process of `location`'s work tree: its
 * /proc/<pid>/cmdline holds `__daemon` followed by a path inside this work
 * tree whose work tree is this one. False where /proc is missing (macOS):
 * then nothing is signalled.
 */
export function isDaemonOf(pid: number, location: DaemonLocation): boolean {
  let args: string[];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  } catch {
    return false;
  }
  const at = args.indexOf("__daemon");
  const target = at >= 0 ? args[at + 1] : undefined;
  if (target === undefined || target === "") return false;
  if (target === location.workTree) return true;
  return locateWorkTree(target)?.workTree === location.workTree;
}

/** A warm process that holds this work tree's record but did not answer: its pid and socket. */
export interface SilentDaemon {
  pid: number;
  socket: string;
}

/**
 * The warm process of `location` when daemon.json names a live process that
 * is verifiably its server ({@link isDaemonOf}) for this work tree; null
 * otherwise (none, dead, another work tree's record, unverifiable).
 */
export function silentDaemon(location: DaemonLocation): SilentDaemon | null {
  const record = readDaemonRecord(location);
  if (record === null || record.work_tree !== location.workTree) return null;
  if (!isAlive(record.pid) || !isDaemonOf(record.pid, location)) return null;
  return { pid: record.pid, socket: record.socket };
}

/**
 * Ends `daemon`: SIGTERM (with SIGCONT, so a stopped process handles it and
 * exits cleanly), then SIGKILL when it is still alive after `graceMs` (ms);
 * then removes its socket (when still a socket at this work tree's socket
 * path) and daemon.json, which a
 * killed process leaves. Resolves with the last signal sent, or null when it
 * could not be ended within `graceMs` after SIGKILL.
 */
export async function endDaemon(daemon: SilentDaemon, location: DaemonLocation, graceMs = 2000): Promise<"SIGTERM" | "SIGKILL" | null> {
  const waitGone = async (ms: number): Promise<boolean> => {
    const deadline = Date.now() + ms;
    while (isAlive(daemon.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    return !isAlive(daemon.pid);
  };
  let signal: "SIGTERM" | "SIGKILL" = "SIGTERM";
  try {
    process.kill(daemon.pid, "SIGTERM");
    process.kill(daemon.pid, "SIGCONT");
  } catch {
    /* gone meanwhile */
  }
  if (!(await waitGone(graceMs))) {
    signal = "SIGKILL";
    try {
      process.kill(daemon.pid, "SIGKILL");
    } catch {
      /* gone meanwhile */
    }
    if (!(await waitGone(graceMs))) return null;
  }
  try {
    // Only this work tree's own socket path, whatever the record says.
    const own = daemon.socket === location.defaultSocketPath || daemon.socket === clientSocketPath(location);
    if (own && lstatSync(daemon.socket).isSocket()) rmSync(daemon.socket, { force: true });
  } catch {
    /* already removed by the server */
  }
  const record = readDaemonRecord(location);
  if (record !== null && record.pid === daemon.pid) rmSync(join(location.stateDir, "daemon.json"), { force: true });
  return signal;
}
