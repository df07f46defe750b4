/**
 * ralph's one error type. Every failure that reaches the command line is a
 * {@link RalphError}: a stable `code` that tests and scripts match on, the
 * process exit code of its class (DESIGN.md "The command line"), structured
 * `data` for `--json` output, and the underlying `cause`.
 *
 * Exit codes: 1 is reserved for `check`/`pre-push` findings at or above the
 * fail threshold; 2 is a user-fixable error; 3 is an internal error (a bug).
 */

/** Exit code classes of ordinary commands (DESIGN.md). */
export const ExitCode = {
  ok: 0,
  findings: 1,
  usage: 2,
  internal: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * Stable error codes. Each maps to one exit code class in {@link exitCodeOf}.
 * New codes are added here, never reused with another meaning.
 */
export type ErrorCode =
  | "E_USAGE" // bad flags or arguments
  | "E_NOT_A_REPO" // cwd is not inside a git work tree
  | "E_BARE_REPO" // a bare repository has no work tree to checkpoint
  | "E_BAD_LOOP_ID" // a loop id that is not a valid ref component
  | "E_UNKNOWN_REV" // a REV that resolves to nothing
  | "E_UNKNOWN_LOOP" // a loop with no checkpoints
  | "E_LOCKED" // ralph's lock is held by a live process
  | "E_UNREADABLE" // a file in the work tree cannot be read (permissions)
  | "E_RESTORE_REFUSED" // a restore that would delete too much without --force
  | "E_UNSAFE_PATH" // a tree entry that would write outside the work tree
  | "E_CORRUPT" // a stored object or ref is unreadable or malformed
  | "E_BAD_STATE" // a loop's state.json is not valid JSON or fails the schema (the user restores state.json.bak)
  | "E_CONFLICT" // a compare-and-swap on a ref lost after retries
  | "E_CONFIG" // aiwg.yml is not valid YAML or its agent_persistence section fails the schema
  | "E_UNSUPPORTED" // a repository ralph cannot handle (SHA-256 object format)
  | "E_FILESYSTEM" // the file system refused: no space left, read-only, permission denied, a file where a folder must be
  | "E_INTERNAL"; // a bug

const USER_FIXABLE: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "E_USAGE",
  "E_NOT_A_REPO",
  "E_BARE_REPO",
  "E_BAD_LOOP_ID",
  "E_UNKNOWN_REV",
  "E_UNKNOWN_LOOP",
  "E_LOCKED",
  "E_UNREADABLE",
  "E_RESTORE_REFUSED",
  "E_UNSAFE_PATH",
  "E_CONFLICT",
  "E_CONFIG",
  "E_UNSUPPORTED",
  "E_FILESYSTEM",
  "E_CORRUPT",
  "E_BAD_STATE",
]);

/** The exit code class of an error code: 2 for user-fixable, 3 for the rest. */
export function exitCodeOf(code: ErrorCode): ExitCode {
  return USER_FIXABLE.has(code) ? ExitCode.usage : ExitCode.internal;
}

/**
 * An error with a stable code. `message` is one line saying what happened and
 * what to do; `data` carries machine-readable detail (paths, oids, counts).
 */
export class RalphError extends Error {
  readonly code: ErrorCode;
  readonly data: Readonly<Record<string, unknown>>;
  readonly exitCode: ExitCode;

  constructor(code: ErrorCode, message: string, options: { data?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "RalphError";
    this.code = code;
    this.data = options.data ?? {};
    this.exitCode = exitCodeOf(code);
  }
}

/** True when `error` is a {@link RalphError}, optionally with the given code. */
export function isRalphError(error: unknown, code?: ErrorCode): error is RalphError {
  return error instanceof RalphError && (code === undefined || error.code === code);
}

/** True when `error` is a Node system error with the given `code` (e.g. "ENOENT"). */
export function isErrno(error: unknown, ...codes: string[]): error is NodeJS.ErrnoException {
  return typeof error === "object" && error !== null && typeof (error as NodeJS.ErrnoException).code === "string" && codes.includes((error as NodeJS.ErrnoException).code as string);
}

/** System error codes that are the machine's state, not ralph's logic: the user fixes them (a full disk, a read-only mount, permissions, a file in the way). */
const FILE_SYSTEM_ERRNOS: Readonly<Record<string, (path: string) => string>> = {
  ENOSPC: (p) => `no space left on the device holding ${p}; free some space and retry`,
  EDQUOT: (p) => `the disk quota is exhausted for ${p}; free some space and retry`,
  EROFS: (p) => `${p} is on a read-only file system; remount it writable and retry`,
  EACCES: (p) => `permission denied on ${p}; fix its permissions (or its folder's) and retry`,
  EPERM: (p) => `operation not permitted on ${p}; fix its permissions or attributes and retry`,
  ENOTDIR: (p) => `a file is in the way of the folder ${p} (or one above it); move the file away and retry`,
  EEXIST: (p) => `${p} already exists where ralph needs a folder; move it away and retry`,
  EISDIR: (p) => `${p} is a folder where ralph needs a file; move it away and retry`,
  ENAMETOOLONG: (p) => `the path ${p} is too long for the file system; shorten it and retry`,
  EMFILE: () => "too many open files in this process; raise the limit (ulimit -n) and retry",
  ENFILE: () => "too many open files on this system; close some programs and retry",
};

/**
 * Runs `fn`; a system error it throws that names no path (a `write` or
 * `fsync` on a file descriptor, ENOSPC on a full disk) or names one of
 * ralph's own temporaries (`replace`) is given `path`, so the one-line
 * message can say where. Other errors pass through untouched.
 */
export function withErrorPath<T>(path: string, fn: () => T, replace = false): T {
  try {
    return fn();
  } catch (error) {
    if (typeof error === "object" && error !== null && typeof (error as NodeJS.ErrnoException).code === "string" && (replace || (error as NodeJS.ErrnoException).path === undefined)) {
      (error as NodeJS.ErrnoException).path = path;
    }
    throw error;
  }
}

/**
 * A system error (from `fs`) the user can fix, as E_FILESYSTEM naming the
 * path and the fix (`context`, when given, is prepended: what ralph was
 * doing); null for any other error. Covers ENOSPC, EDQUOT, EROFS, EACCES,
 * EPERM, ENOTDIR, EEXIST, EISDIR, ENAMETOOLONG, EMFILE, ENFILE.
 */
export function fileSystemError(error: unknown, context?: string): RalphError | null {
  if (typeof error !== "object" || error === null) return null;
  const { code, path } = error as NodeJS.ErrnoException;
  const describe = code === undefined ? undefined : FILE_SYSTEM_ERRNOS[code];
  if (describe === undefined) return null;
  const shown = typeof path === "string" ? path : Buffer.isBuffer(path) ? (path as Buffer).toString("utf8") : "a file";
  const message = describe(shown);
  return new RalphError("E_FILESYSTEM", context ? `${context}: ${message}` : message, { data: { path: shown, errno: code }, cause: error });
}

/**
 * Wraps anything thrown into a RalphError: RalphErrors pass through, a
 * system error the user can fix becomes E_FILESYSTEM ({@link fileSystemError}),
 * anything else becomes E_INTERNAL with a hint to report it.
 */
export function toRalphError(error: unknown): RalphError {
  if (error instanceof RalphError) return error;
  const fs = fileSystemError(error);
  if (fs !== null) return fs;
  const detail = error instanceof Error ? error.message : String(error);
  return new RalphError("E_INTERNAL", `internal error: ${detail.split("\n")[0]} (this is a bug in ralph; please report it with RALPH_DEBUG=1 output)`, { cause: error });
}
