/**
 * Where a work tree's warm process listens, found with a few `stat`s and no
 * other ralph module (the thin client runs this before it knows whether a
 * warm process answers).
 *
 * Layout, all under the work tree's git dir (`<gitDir>/ralph/daemon/`, mode
 * 0700, owned by the user):
 * - `sock`: the Unix domain socket (mode 0600), when its path fits
 *   `sun_path` (108 bytes on Linux, 104 on macOS, with the NUL: at most
 *   {@link MAX_SOCKET_PATH_BYTES} bytes);
 * - `socket-path`: when it does not fit, the path of the socket actually used,
 *   `$XDG_RUNTIME_DIR/ralph-<uid>/<16 hex of sha1(git dir)>.sock` (else under
 *   /tmp), in a 0700 folder owned by the user; written by the server under the
 *   start lock, read by clients;
 * - `start.lock`: held (O_EXCL, the pid inside) while a server starts;
 * - `daemon.json`: the running server's pid, socket, build and start time.
 */
import { createHash } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";

/** Longest socket path used, in bytes: below both Linux's 108 and macOS's 104-byte sun_path with the NUL. */
export const MAX_SOCKET_PATH_BYTES = 100;

/** A work tree as the client sees it: real paths. */
export interface DaemonLocation {
  /** Root of the work tree. */
  workTree: string;
  /** The work tree's own git dir (`.git`, or `.git/worktrees/<name>` of a linked worktree): one warm process per work tree. */
  gitDir: string;
  /** `<gitDir>/ralph/daemon`. */
  stateDir: string;
  /** `<stateDir>/sock`: the socket's path when it fits. */
  defaultSocketPath: string;
}

function isGitDir(dir: string): boolean {
  try {
    return statSync(join(dir, "HEAD")).isFile();
  } catch {
    return false;
  }
}

/**
 * The work tree containing `cwd` and its git dir, found as git finds them
 * without GIT_DIR (a `.git` folder, or a `.git` file `gitdir: <path>`),
 * walking up; null when there is none (no warm process: run in-process). The
 * caller routes calls with GIT_DIR or GIT_WORK_TREE set in-process, so they
 * are not read here.
 */
export function locateWorkTree(cwd: string): DaemonLocation | null {
  let dir: string;
  try {
    dir = realpathSync(cwd);
  } catch {
    return null;
  }
  for (;;) {
    const dotGit = join(dir, ".git");
    let gitDir: string | null = null;
    try {
      const st = statSync(dotGit);
      if (st.isDirectory()) gitDir = isGitDir(dotGit) ? dotGit : null;
      else {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
        if (m) {
          const target = resolve(dir, m[1] as string);
          gitDir = isGitDir(target) ? realpathSync(target) : null;
        }
      }
    } catch {
      gitDir = null;
    }
    if (gitDir !== null) {
      const stateDir = join(gitDir, "ralph", "daemon");
      return { workTree: dir, gitDir, stateDir, defaultSocketPath: join(stateDir, "sock") };
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Whether `path` fits in sun_path ({@link MAX_SOCKET_PATH_BYTES}). */
export function fitsSunPath(path: string): boolean {
  return Buffer.byteLength(path, "utf8") <= MAX_SOCKET_PATH_BYTES;
}

/**
 * The socket path a client connects to: the default one when it fits, else
 * the one the server recorded in `socket-path`; null when the default does
 * not fit and nothing is recorded (no server has started), or the record is
 * not this git dir's fallback name ({@link fallbackSocketName}): a record
 * copied with the repository (`cp -a`) or edited by hand names another work
 * tree's server, and is taken as no socket.
 */
export function clientSocketPath(location: DaemonLocation): string | null {
  if (fitsSunPath(location.defaultSocketPath)) return location.defaultSocketPath;
  try {
    const recorded = readFileSync(join(location.stateDir, "socket-path"), "utf8").trim();
    return isAbsolute(recorded) && fitsSunPath(recorded) && basename(recorded) === fallbackSocketName(location.gitDir) ? recorded : null;
  } catch {
    return null;
  }
}

/**
 * The short socket path used when the default one does not fit:
 * `<runtime dir>/ralph-<uid>/<16 hex of sha1(gitDir)>.sock`, the runtime dir
 * being `$XDG_RUNTIME_DIR` when set and absolute, else `/tmp`.
 */
export function fallbackSocketPath(gitDir: string, env: NodeJS.ProcessEnv, uid: number): string {
  const runtime = env.XDG_RUNTIME_DIR && isAbsolute(env.XDG_RUNTIME_DIR) ? env.XDG_RUNTIME_DIR : "/tmp";
  return join(runtime, `ralph-${uid}`, fallbackSocketName(gitDir));
}

/** The file name of `gitDir`'s fallback socket: `<16 hex of sha1(gitDir)>.sock` (gitDir a real path). */
export function fallbackSocketName(gitDir: string): string {
  return `${createHash("sha1").update(gitDir).digest("hex").slice(0, 16)}.sock`;
}

/**
 * Makes `dir` (and missing parents) and checks it is a private folder: a real
 * folder (not a symlink), owned by `uid`, mode 0700 (made so when it is ours
 * and looser). Returns null when it is fine, else why not (the caller then
 * does without a warm process).
 */
export function ensurePrivateDir(dir: string, uid: number): string | null {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return `${dir} is not a folder`;
    if (st.uid !== uid) return `${dir} is owned by uid ${st.uid}, not ${uid}`;
    // Ours but looser (made by an older ralph, or another umask): tighten.
    if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
    return null;
  } catch (error) {
    return `cannot make ${dir}: ${(error as Error).message}`;
  }
}

/** Whether the socket file at `path` may be trusted: a socket owned by `uid` in a folder owned by `uid` with no access for others. */
export function isTrustedSocket(path: string, uid: number): boolean {
  try {
    const st = lstatSync(path);
    if (!st.isSocket() || st.uid !== uid) return false;
    const folder = lstatSync(dirname(path));
    return folder.isDirectory() && folder.uid === uid && (folder.mode & 0o077) === 0;
  } catch {
    return false;
  }
}
