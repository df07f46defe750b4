/**
 * The environment variables ralph reads, parsed once at the process
 * boundary (`runCli`, src/cli/run.ts) into one typed object that is passed
 * down. Nothing else under src/ reads `process.env`: a warm process serves
 * many runs, each with its own environment (test/boundary/process-globals.test.ts).
 *
 * ralph's own knobs:
 * - `RALPH_DEBUG`: debug lines on stderr when set to anything but "" or "0" (src/log.ts). Default off.
 * - `RALPH_LOOP`: the loop a command acts on when `--loop` is not given (a loop id). Default: unset.
 * - `RALPH_LOCK_TIMEOUT_MS`: how long to wait for a held lock, in ms; a non-negative integer. Default 15000.
 * - `RALPH_FSYNC`: "0", "off" or "false" skip the fsyncs of a checkpoint (like git's `core.fsync=none`). Default on.
 * - `RALPH_CONTEXT_WINDOW`: the agent's context window in tokens; a positive integer overrides the model's. Default: by model.
 * - `RALPH_WASM_TIERUP`: "1" keeps V8's wasm tier-up for tree-sitter grammars (src/analysis/parsers/tree-sitter.ts). Default Liftoff only.
 *
 * git's variables ralph honours as git does (git(1) "ENVIRONMENT VARIABLES", git-config(1) "ENVIRONMENT"):
 * `GIT_DIR`, `GIT_WORK_TREE`, `GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_SYSTEM`, `GIT_CONFIG_GLOBAL`, `XDG_CONFIG_HOME`, `HOME`,
 * and for the identity and date of checkpoint commits (git-commit-tree(1)) `GIT_AUTHOR_NAME`, `GIT_AUTHOR_EMAIL`,
 * `GIT_AUTHOR_DATE`, `GIT_COMMITTER_NAME`, `GIT_COMMITTER_EMAIL`, `GIT_COMMITTER_DATE`.
 *
 * Everything else (aiwg.yml's `RALPH_*` overrides in src/config/load.ts, `CLAUDE_PROJECT_DIR`, `NO_COLOR`,
 * `FORCE_COLOR`, `TERM`, `RALPH_HOOK_DRY_RUN`, `RALPH_PRE_PUSH_BLOCK_EXIT`, and what children inherit) is read from
 * {@link RuntimeEnv.vars}, the run's whole environment.
 */
import { userInfo } from "node:os";
import type { WarmScan } from "./store/warm-scan.js";

/** The git environment of one run: where the repository is, which config files count, who commits. */
export interface GitEnvironment {
  /** `GIT_DIR`: the git directory, relative to the cwd or absolute; unset or "" when git should discover it. */
  dir: string | undefined;
  /** `GIT_WORK_TREE`: the work tree root with `GIT_DIR`; unset or "" otherwise. */
  workTree: string | undefined;
  /** False when `GIT_CONFIG_NOSYSTEM` is set to a true value (anything but "", "0" or "false"). */
  readSystemConfig: boolean;
  /** `GIT_CONFIG_SYSTEM`: the system config file; default /etc/gitconfig. */
  systemConfig: string;
  /** `GIT_CONFIG_GLOBAL`: the one global config file instead of ~/.gitconfig and $XDG_CONFIG_HOME/git/config. */
  globalConfig: string | undefined;
  /** `XDG_CONFIG_HOME` when set and not ""; else `$HOME/.config` is used. */
  xdgConfigHome: string | undefined;
  /** `HOME`: the home directory for `~/` in config paths; unset falls back to the passwd entry's. */
  home: string | undefined;
  /** `GIT_AUTHOR_NAME`, `GIT_AUTHOR_EMAIL`, `GIT_AUTHOR_DATE` (raw date text, parsed by src/store/git-date.ts). */
  author: IdentityOverride;
  /** `GIT_COMMITTER_NAME`, `GIT_COMMITTER_EMAIL`, `GIT_COMMITTER_DATE`. */
  committer: IdentityOverride;
}

/** A commit identity's environment overrides; undefined (or "") fields fall back to user.name/user.email and now. */
export interface IdentityOverride {
  name: string | undefined;
  email: string | undefined;
  /** The date as written in the variable (git's internal format, ISO 8601 or RFC 2822). */
  date: string | undefined;
}

/** One run's parsed environment (see the module docstring for each variable, its unit and default). */
export interface RuntimeEnv {
  /** The run's whole environment, read-only: for children ralph spawns and the variables listed above as read from it. */
  vars: Readonly<NodeJS.ProcessEnv>;
  /** `RALPH_DEBUG`: debug lines on stderr. */
  debug: boolean;
  /** `RALPH_LOOP` when set and not "": the default loop id (not validated here; parseLoopId at use). */
  loop: string | undefined;
  /** `RALPH_LOCK_TIMEOUT_MS`: wait for a held lock, in ms (default 15000). */
  lockTimeoutMs: number;
  /** `RALPH_FSYNC`: whether checkpoints fsync objects and refs (default true). */
  fsync: boolean;
  /** `RALPH_CONTEXT_WINDOW`: the context window override in tokens, or null (use the model's). */
  contextWindowTokens: number | null;
  /** `RALPH_WASM_TIERUP` = "1": keep V8's wasm tier-up (default false: Liftoff only). */
  wasmTierUp: boolean;
  /** git's variables. */
  git: GitEnvironment;
  /**
   * Not a variable: in a warm process, the request's link to the work tree
   * watcher (src/store/warm-scan.ts), set by `runCli` from `CliIo.warmScan`;
   * the snapshots of the run take their dirty set from it. Undefined in a
   * cold process (every snapshot lstats the whole work tree).
   */
  warmScan?: WarmScan;
}

/**
 * The home directory for `~/` and the global config files: `HOME` when
 * set, else the passwd entry's (os.userInfo; os.homedir would read the
 * process's HOME), else "/" when there is none.
 */
export function homeOf(git: Pick<GitEnvironment, "home">): string {
  if (git.home !== undefined && git.home !== "") return git.home;
  try {
    return userInfo().homedir;
  } catch {
    return "/";
  }
}

/** The lock wait when `RALPH_LOCK_TIMEOUT_MS` is unset or invalid, in ms. */
export const DEFAULT_LOCK_TIMEOUT_MS = 15_000;

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value);

/** `RALPH_DEBUG`'s rule: on for any value but unset, "" and "0". */
export function isDebugValue(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0";
}

/**
 * Parses the variables ralph reads from `vars` (a run's environment; the
 * caller reads the real one, once). Never throws: an invalid knob takes its
 * default, as before. `vars` is copied, so later changes to it do not leak in.
 */
export function parseRuntimeEnv(vars: Readonly<NodeJS.ProcessEnv>): RuntimeEnv {
  const copy: NodeJS.ProcessEnv = { ...vars };
  const lockRaw = copy.RALPH_LOCK_TIMEOUT_MS;
  const lockValue = lockRaw === undefined || lockRaw === "" ? Number.NaN : Number(lockRaw);
  const fsyncRaw = (copy.RALPH_FSYNC ?? "").toLowerCase();
  const window = Number(copy.RALPH_CONTEXT_WINDOW);
  const noSystem = copy.GIT_CONFIG_NOSYSTEM;
  return {
    vars: Object.freeze(copy),
    debug: isDebugValue(copy.RALPH_DEBUG),
    loop: nonEmpty(copy.RALPH_LOOP),
    lockTimeoutMs: Number.isInteger(lockValue) && lockValue >= 0 ? lockValue : DEFAULT_LOCK_TIMEOUT_MS,
    fsync: fsyncRaw !== "0" && fsyncRaw !== "off" && fsyncRaw !== "false",
    contextWindowTokens: Number.isInteger(window) && window > 0 ? window : null,
    wasmTierUp: copy.RALPH_WASM_TIERUP === "1",
    git: {
      dir: nonEmpty(copy.GIT_DIR),
      workTree: nonEmpty(copy.GIT_WORK_TREE),
      readSystemConfig: !noSystem || noSystem === "0" || noSystem === "false",
      systemConfig: copy.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig",
      globalConfig: copy.GIT_CONFIG_GLOBAL,
      xdgConfigHome: nonEmpty(copy.XDG_CONFIG_HOME),
      home: copy.HOME,
      author: { name: nonEmpty(copy.GIT_AUTHOR_NAME), email: nonEmpty(copy.GIT_AUTHOR_EMAIL), date: nonEmpty(copy.GIT_AUTHOR_DATE) },
      committer: { name: nonEmpty(copy.GIT_COMMITTER_NAME), email: nonEmpty(copy.GIT_COMMITTER_EMAIL), date: nonEmpty(copy.GIT_COMMITTER_DATE) },
    },
  };
}

/**
 * The environment of a library call made outside any CLI run (a script or a
 * test calling the store directly): no variables set, so every knob has its
 * default and git's config comes from the standard files.
 */
export const EMPTY_RUNTIME_ENV: RuntimeEnv = parseRuntimeEnv({});
