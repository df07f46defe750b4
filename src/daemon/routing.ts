/**
 * Which command lines go through the warm process, and which environment
 * variables travel with them (docs/decisions/0003-warm-process.md). Loaded
 * by the thin client: Node's modules only.
 */

/**
 * Commands served warm. Chosen by what the warm process saves them (start-up,
 * stat cache, parsed grammars and facts): the Claude Code hooks, the
 * checkpoint, check and the read-only views an agent polls. Left cold on
 * purpose: `--version` and help (nothing to save), `hook git` (git's
 * pre-push sets GIT_DIR and runs once per push), commands that install,
 * spawn ralph itself or are interactive setup (install, uninstall, doctor,
 * demo, start, config), restores (revert, select, reject: rare, and they
 * rewrite the tree under the user's eyes) and `daemon` itself.
 */
export const WARM_COMMANDS: ReadonlySet<string> = new Set(["checkpoint", "check", "status", "diff", "log", "loops", "tests", "stats", "iterate"]);

/** Commands whose first call starts a warm process when none answers (the ones an agent repeats). */
export const STARTING_COMMANDS: ReadonlySet<string> = new Set(["checkpoint", "check", "iterate"]);

/**
 * Environment variables that locate another repository than the one found
 * from the working directory, or change which index or objects git sees
 * (git(1) "ENVIRONMENT"): with any of them set the call runs in-process.
 */
export const REPOSITORY_ENV = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_CEILING_DIRECTORIES",
] as const;

/**
 * The environment a request carries: what ralph reads and what the commands
 * it runs for the user (the completion, quality and metrics commands) need to
 * find their tools. Names: `RALPH_*`, `CLAUDE_*` (CLAUDE_PROJECT_DIR and the
 * session variables), `GIT_*` (config and author variables; the ones in
 * {@link REPOSITORY_ENV} never get here), and CI, HOME, USER, LOGNAME, PATH,
 * SHELL, TERM, COLORTERM, NO_COLOR, FORCE_COLOR, LANG, LANGUAGE, LC_*, TZ,
 * TMPDIR, XDG_CONFIG_HOME, XDG_RUNTIME_DIR. The warm process reads nothing
 * else; a command that needs more of the user's environment than this
 * (a completion command reading JAVA_HOME) is why {@link FULL_ENV_COMMANDS}
 * carry the whole environment.
 */
export function isAllowedEnvName(name: string): boolean {
  return /^(RALPH_|CLAUDE_|GIT_|LC_)/.test(name) || ALLOWED_NAMES.has(name);
}

const ALLOWED_NAMES = new Set([
  "CI",
  "HOME",
  "USER",
  "LOGNAME",
  "PATH",
  "SHELL",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "XDG_RUNTIME_DIR",
]);

/** The allow-listed part of `env` ({@link isAllowedEnvName}), values defined. */
export function allowedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && isAllowedEnvName(name)) out[name] = value;
  return out;
}

/**
 * Whether the command line runs user commands (the completion command of the
 * Stop hook and `iterate`): those carry the whole environment, so the command
 * sees exactly what it would see in-process.
 */
export function needsFullEnv(argv: readonly string[]): boolean {
  if (argv[0] === "iterate") return true;
  return argv[0] === "hook" && argv.slice(1).some((a) => a === "Stop" || a === "SubagentStop");
}

/**
 * Whether an on/off environment value is on: `1`, `true`, `yes` or `on`,
 * case-insensitive, surrounding blanks ignored. Unset, empty, `0`, `false`,
 * `no`, `off` and anything else are off (RALPH_NO_DAEMON).
 */
export function isTruthyEnv(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

/** How a command line is served: `warm` through the warm process when one answers, `cold` always in-process. */
export type Route = "warm" | "cold";

/**
 * The route of one call. Cold when: RALPH_NO_DAEMON on ({@link isTruthyEnv}: 1, true, yes, on), CI set (any value but
 * empty), a repository-locating git variable set ({@link REPOSITORY_ENV}),
 * Windows, a help or version request, or a command outside
 * {@link WARM_COMMANDS} and `hook claude`.
 */
export function routeOf(argv: readonly string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Route {
  if (isTruthyEnv(env.RALPH_NO_DAEMON) || (env.CI !== undefined && env.CI !== "") || platform === "win32") return "cold";
  if (REPOSITORY_ENV.some((name) => env[name] !== undefined && env[name] !== "")) return "cold";
  if (argv.some((a) => a === "--help" || a === "-h" || a === "--version" || a === "-v")) return "cold";
  const command = argv[0];
  if (command === "hook") return argv[1] === "claude" ? "warm" : "cold";
  return command !== undefined && WARM_COMMANDS.has(command) ? "warm" : "cold";
}

/** Whether a cold call of this command line should start a warm process for the next one. */
export function startsDaemon(argv: readonly string[]): boolean {
  const command = argv[0];
  return command === "hook" ? argv[1] === "claude" : command !== undefined && STARTING_COMMANDS.has(command);
}

/** Claude Code's file tools: PostToolUse re-reads only the files their payload names (src/usecases/after-tool.ts checkpointPaths). */
const NAMED_FILE_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);

/**
 * Whether the warm process should take its watcher's dirty set (a barrier
 * write and its event: about 50 ms, src/store/dirty-paths.ts) before
 * serving this request, because the request is about to snapshot the work
 * tree with nothing else of its own written first: `checkpoint`, `check`,
 * `status`, `diff`, `tests`, and Claude Code hooks other than PreToolUse
 * (which checkpoints only a risky call: that one scans in full), Stop and
 * SubagentStop (they may run the completion command, which writes files,
 * before their checkpoint), and PostToolUse after a file tool (it takes the
 * named-file fast path). `iterate` runs the agent between its checkpoints:
 * never. A request served without a take scans in full; the watcher keeps
 * collecting for the next take, so nothing is lost either way.
 * @param stdin the request's stdin bytes (a hook's JSON payload)
 */
export function takesDirtySet(argv: readonly string[], stdin: Buffer): boolean {
  const command = argv[0];
  if (command === "checkpoint" || command === "check" || command === "status" || command === "diff" || command === "tests") return true;
  if (command !== "hook" || argv[1] !== "claude") return false;
  let payload: { hook_event_name?: unknown; tool_name?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(stdin.toString("utf8"));
    if (parsed !== null && typeof parsed === "object") payload = parsed as typeof payload;
  } catch {
    return false; // not JSON: the hook answers without a snapshot
  }
  // As the hook reads it: the command line's EVENT argument, else the payload's hook_event_name (src/hooks/agent-adapter.ts).
  const event = argv[2] !== undefined && argv[2] !== "" ? argv[2] : typeof payload.hook_event_name === "string" ? payload.hook_event_name : undefined;
  if (event === undefined || event === "PreToolUse" || event === "Stop" || event === "SubagentStop") return false;
  if (event === "PostToolUse") return !(typeof payload.tool_name === "string" && NAMED_FILE_TOOLS.has(payload.tool_name));
  return true;
}

/**
 * The files a Claude Code PostToolUse payload of a file tool (Write, Edit,
 * MultiEdit, NotebookEdit) names (`tool_input.file_path`,
 * `tool_input.notebook_path`, as written: absolute or relative to the
 * payload's cwd), or null for any other request: the ones the hook
 * re-reads on its named-file fast path (src/usecases/after-tool.ts).
 * @param stdin the request's stdin bytes (the hook's JSON payload)
 */
export function namedFilesOf(argv: readonly string[], stdin: Buffer): { files: string[]; cwd: string | undefined } | null {
  if (argv[0] !== "hook" || argv[1] !== "claude") return null;
  let payload: { hook_event_name?: unknown; tool_name?: unknown; tool_input?: { file_path?: unknown; notebook_path?: unknown }; cwd?: unknown };
  try {
    payload = JSON.parse(stdin.toString("utf8")) as typeof payload;
  } catch {
    return null;
  }
  if (payload === null || typeof payload !== "object") return null;
  const event = argv[2] !== undefined && argv[2] !== "" ? argv[2] : payload.hook_event_name;
  if (event !== "PostToolUse" || typeof payload.tool_name !== "string" || !NAMED_FILE_TOOLS.has(payload.tool_name)) return null;
  const input = payload.tool_input ?? {};
  const files = [input.file_path, input.notebook_path].filter((f): f is string => typeof f === "string" && f !== "");
  return files.length === 0 ? null : { files, cwd: typeof payload.cwd === "string" ? payload.cwd : undefined };
}
