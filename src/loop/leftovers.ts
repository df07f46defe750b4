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
 * The pipes themselves cannot name their holder: Node's child stdio are
 * socketpairs (libuv), whose two ends have unrelated inodes in
 * `/proc/<pid>/fd`, so a process that both left the group and cleared its
 * environment (`env -i setsid …`) is not found. The `/proc` lookup is
 * Linux's; elsewhere only the group is killed. Either way the caller stops
 * reading the pipes, which is what lets the hook process exit.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

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

/** Pids (other than this process) that carry `token` in their environment; [] where there is no `/proc`. */
export function findLeftovers(token: string): number[] {
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
    if (hasToken(pid, token)) found.push(Number(pid));
  }
  return found;
}

/**
 * Kills (SIGKILL) what is left of a finished command: its process group
 * `pgid`, then every process {@link findLeftovers} finds. The command has
 * exited or timed out already, so nothing left is waited for or asked
 * politely. Never throws.
 * @returns the pids killed outside the group (for the log).
 */
export function killLeftovers(pgid: number | undefined, token: string): number[] {
  if (pgid !== undefined) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      /* the group is gone */
    }
  }
  const killed: number[] = [];
  for (const pid of findLeftovers(token)) {
    try {
      process.kill(pid, "SIGKILL");
      killed.push(pid);
    } catch {
      /* exited meanwhile */
    }
  }
  return killed;
}
