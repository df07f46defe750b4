/**
 * What a finished shell command left running. A completion command such as
 * `npm test` may start a dev server, `sleep 30 &` or `setsid …` and exit;
 * the child keeps the command's stdout/stderr pipes open, and a Stop hook
 * that waits for them holds the Claude Code session (issue 10, "The session
 * can be held"). Once the command has exited or timed out, ralph finds its
 * leftovers two ways and kills them:
 * - its process group (the shell runs `detached`, so it leads a group that
 *   its background jobs stay in: `kill(-pgid)`);
 * - an environment cookie: the command runs with `RALPH_COMMAND_TOKEN=<random>`,
 *   which every descendant inherits, so `/proc/<pid>/environ` finds a child
 *   that left the group or the session (`setsid`, a daemonising server),
 *   the way Jenkins' ProcessTreeKiller finds a build's processes by its
 *   `BUILD_ID` cookie (jenkins.io, "ProcessTreeKiller").
 * - the output pipe it holds: the command's stdout and stderr are one FIFO
 *   ralph opened and unlinked before the spawn (src/loop/command.ts), not
 *   libuv's socketpair, whose two ends have unrelated inodes; every process
 *   that inherited the write end shows it in `/proc/<pid>/fd` as the same
 *   link with the same inode, so a child that both left the group and
 *   cleared its environment (`env -i setsid …`) is found too.
 * The `/proc` lookups are Linux's; elsewhere only the group is killed.
 * Either way the caller stops reading the pipe, which is what lets the hook
 * process exit.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";

/** The environment variable that marks a command's descendants. */
export const COMMAND_TOKEN_ENV = "RALPH_COMMAND_TOKEN";

/** A fresh cookie for one command run (16 hex characters). */
export function newCommandToken(): string {
  return randomBytes(8).toString("hex");
}

/** True when process `pid`'s environment holds `RALPH_COMMAND_TOKEN=<token>` (false when unreadable: another user's process, or gone). */
function hasToken(pid: string, token: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(`${COMMAND_TOKEN_ENV}=${token}`);
  } catch {
    return false;
  }
}

/** The output pipe a command's descendants hold: its `/proc/<pid>/fd` link text and inode (see {@link pipeOf}). */
export interface HeldPipe {
  /** The link text, e.g. `/tmp/ralph-cmd-x/out (deleted)` or `pipe:[1234]`. */
  link: string;
  ino: number;
  dev: number;
}

/**
 * The pipe this process reads on file descriptor `fd`, as its holders show
 * it in `/proc/<pid>/fd`; null where there is no `/proc` (not Linux) or the
 * descriptor is unreadable. Never throws.
 */
export function pipeOf(fd: number): HeldPipe | null {
  try {
    const link = readlinkSync(`/proc/self/fd/${fd}`);
    const stat = statSync(`/proc/self/fd/${fd}`);
    return { link, ino: stat.ino, dev: stat.dev };
  } catch {
    return null;
  }
}

/** True when process `pid` holds `pipe` on one of its file descriptors (false when unreadable: another user's, or gone). */
function holdsPipe(pid: string, pipe: HeldPipe): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) !== pipe.link) continue;
      const stat = statSync(`/proc/${pid}/fd/${fd}`);
      if (stat.ino === pipe.ino && stat.dev === pipe.dev) return true;
    } catch {
      /* closed meanwhile */
    }
  }
  return false;
}

/**
 * Pids (other than this process) that carry `token` in their environment
 * or hold `pipe` (the command's output pipe) open; [] where there is no
 * `/proc`. Never throws.
 */
export function findLeftovers(token: string, pipe: HeldPipe | null = null): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const self = String(process.pid);
  const found: number[] = [];
  for (const pid of entries) {
    if (!/^\d+$/.test(pid) || pid === self) continue;
    if (hasToken(pid, token) || (pipe !== null && holdsPipe(pid, pipe))) found.push(Number(pid));
  }
  return found;
}

/**
 * Kills (SIGKILL) what is left of a finished command: its process group
 * `pgid`, then every process {@link findLeftovers} finds by `token` or by
 * `pipe` (null: the cookie only). The command has
 * exited or timed out already, so nothing left is waited for or asked
 * politely. Never throws.
 * @returns the pids killed outside the group (for the log).
 */
export function killLeftovers(pgid: number | undefined, token: string, pipe: HeldPipe | null = null): number[] {
  if (pgid !== undefined) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      /* the group is gone */
    }
  }
  const killed: number[] = [];
  for (const pid of findLeftovers(token, pipe)) {
    try {
      process.kill(pid, "SIGKILL");
      killed.push(pid);
    } catch {
      /* exited meanwhile */
    }
  }
  return killed;
}
