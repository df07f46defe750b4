/**
 * ralph's git pre-push hook file: where it lives, what it says, installing
 * it next to (in front of) a hook the user already had, and removing it.
 *
 * Where: `core.hooksPath` when set (git-config(1): a relative path is
 * relative to where hooks run, the work tree root; `~/` expanded), else
 * `<common git dir>/hooks`, which linked worktrees share (githooks(5)).
 *
 * What: a POSIX sh script tagged with {@link GIT_HOOK_TAG} that reads stdin
 * once, runs the hook it replaced (kept beside it as
 * `pre-push` + {@link CHAINED_SUFFIX}) with the same arguments and stdin and
 * fails when that fails, then runs `"<node>" "<ralph>/dist/cli.js" hook git
 * pre-push "$@"` with the same stdin. A replaced hook is moved, never
 * rewritten, so uninstalling puts back its exact bytes and mode. A chained
 * sh or bash script runs sourced with `$0` set to the hook's own path, as
 * git ran it: hooks that find their siblings by `$0` (husky's `_/h` runs
 * `../$(basename "$0")`) keep working under the new name.
 *
 * The same script is the runner the hook managers' entries call
 * (src/hooks/git-hook-managers.ts, `<git common dir>/ralph/hooks/pre-push`);
 * its first argument `--pre-commit-env` builds the one update line from
 * pre-commit's PRE_COMMIT_* variables instead of reading stdin, which
 * pre-commit has consumed.
 */
import { accessSync, chmodSync, constants, closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { isErrno, RalphError } from "../errors.js";
import { homeOf } from "../runtime-env.js";
import { expandHome } from "../store/git-config.js";
import type { Repository } from "../store/repo.js";
import { quoteForShell } from "./claude-settings.js";

/** The comment line that marks a pre-push hook as written by `ralph install --git-hooks`. */
export const GIT_HOOK_TAG = "# ralph-managed: pre-push hook written by 'ralph install --git-hooks'";

/** The suffix of the user's own pre-push hook once ralph's takes its place (`pre-push.ralph-chained`). */
export const CHAINED_SUFFIX = ".ralph-chained";

/** The hooks folder git uses for `repo`: core.hooksPath (absolute, `~/` expanded with the run's home, relative to the work tree), else `<commonDir>/hooks`. */
export function hooksDirOf(repo: Pick<Repository, "workTree" | "commonDir" | "config" | "env">): string {
  const configured = repo.config.get("core.hookspath");
  if (configured !== undefined && configured !== "") {
    const expanded = expandHome(configured, homeOf(repo.env.git));
    return isAbsolute(expanded) ? expanded : resolve(repo.workTree, expanded);
  }
  return join(repo.commonDir, "hooks");
}

/**
 * The script ralph installs (mode 0755). `nodePath` and `cliPath` are
 * absolute; they are double-quoted for sh ({@link quoteForShell}). When
 * node or the cli is gone (ralph moved or removed) the script says so and
 * lets the push through: a broken hook must not wedge pushes
 * (`ralph doctor` reports it).
 */
export function gitHookScript(nodePath: string, cliPath: string): string {
  return `#!/bin/sh
${GIT_HOOK_TAG}; 'ralph uninstall --git-hooks' removes it.
# git runs it as: pre-push <remote name> <remote url>, with one line per ref update on stdin
# (githooks(5) "pre-push"). It runs the hook it replaced first (pre-push${CHAINED_SUFFIX}, when there
# is one), with the same arguments and stdin, and fails when that fails; then ralph judges the
# pushed commits and refuses the push (exit 1) when a change deletes or weakens tests.
ralph_node=${quoteForShell(nodePath)}
ralph_cli=${quoteForShell(cliPath)}
if [ "\${1-}" = "--pre-commit-env" ]; then
  # pre-commit reads git's stdin itself and passes the update it checks in PRE_COMMIT_* (its hook_impl.py, run.py).
  ralph_to=\${PRE_COMMIT_TO_REF-}
  if [ -z "$ralph_to" ] && [ -n "\${PRE_COMMIT_LOCAL_BRANCH-}" ]; then ralph_to=$(git rev-parse --verify --quiet "\${PRE_COMMIT_LOCAL_BRANCH}^{commit}" || true); fi
  ralph_stdin=
  if [ -n "$ralph_to" ]; then
    ralph_zero=$(printf '%s' "$ralph_to" | tr '0-9a-f' '0')
    ralph_stdin="\${PRE_COMMIT_LOCAL_BRANCH:-HEAD} $ralph_to \${PRE_COMMIT_REMOTE_BRANCH:-HEAD} \${PRE_COMMIT_FROM_REF:-$ralph_zero}
"
  fi
  set -- "\${PRE_COMMIT_REMOTE_NAME:-ralph-doctor}" "\${PRE_COMMIT_REMOTE_URL:-\${PRE_COMMIT_REMOTE_NAME:-ralph-doctor}}"
else
  ralph_stdin=$(cat; printf x)
  ralph_stdin=\${ralph_stdin%x}
fi
ralph_chained="$(dirname -- "$0")/pre-push${CHAINED_SUFFIX}"
if [ -f "$ralph_chained" ] && [ -x "$ralph_chained" ]; then
  # A sh script runs with $0 = this hook's path: some look themselves up by it (husky's _/h runs ../$(basename "$0")).
  case $(head -n 1 -- "$ralph_chained") in
    '#!/bin/sh'|'#!/usr/bin/env sh'|'#!/bin/dash'|'#!/bin/bash'|'#!/usr/bin/env bash')
      ralph_shell=$(head -n 1 -- "$ralph_chained" | sed 's|^#! *||; s|^/usr/bin/env  *||')
      printf '%s' "$ralph_stdin" | RALPH_CHAINED="$ralph_chained" $ralph_shell -c '. "$RALPH_CHAINED"' "$0" "$@" || exit $? ;;
    *) printf '%s' "$ralph_stdin" | "$ralph_chained" "$@" || exit $? ;;
  esac
fi
if [ ! -x "$ralph_node" ] || [ ! -f "$ralph_cli" ]; then
  echo "ralph: pre-push: not checked: $ralph_node or $ralph_cli is missing (reinstall: ralph install --git-hooks)" >&2
  exit 0
fi
# ralph exits 10 to refuse the push; any other failure of ralph itself (a broken install) lets it through.
ralph_err=$(mktemp 2>/dev/null || echo "/tmp/ralph-pre-push.$$")
printf '%s' "$ralph_stdin" | RALPH_PRE_PUSH_BLOCK_EXIT=10 "$ralph_node" "$ralph_cli" hook git pre-push "$@" 2>"$ralph_err"
ralph_status=$?
case $ralph_status in
  0|10) cat "$ralph_err" >&2 ;;
  *) echo "ralph: pre-push: not checked: ralph failed (exit $ralph_status): $(grep -m1 -E 'Error|error' "$ralph_err" || tail -n 1 "$ralph_err"); run: ralph doctor" >&2 ;;
esac
rm -f "$ralph_err"
[ "$ralph_status" -eq 10 ] && exit 1
exit 0
`;
}

/** True when a hook file's text is ralph's ({@link GIT_HOOK_TAG} on a line of its own start). */
export function isRalphGitHook(text: string): boolean {
  return text.split("\n").some((line) => line.startsWith(GIT_HOOK_TAG));
}

/** node and cli paths of an installed ralph hook script, or null when the script does not name them. */
export function hookCommandPaths(text: string): { node: string; cli: string } | null {
  const value = (name: string): string | null => {
    const m = new RegExp(`^${name}="((?:[^"\\\\]|\\\\.)*)"$`, "m").exec(text);
    return m ? (m[1] as string).replace(/\\(["$`\\])/g, "$1") : null;
  };
  const node = value("ralph_node");
  const cli = value("ralph_cli");
  return node !== null && cli !== null ? { node, cli } : null;
}

/** What is at the pre-push path: nothing, ralph's script, or someone else's hook; and whether a chained hook waits beside it. */
export interface GitHookState {
  /** Absolute path of `<hooks dir>/pre-push`. */
  hook: string;
  /** Absolute path of the chained hook (whether or not it exists). */
  chainedPath: string;
  state: "absent" | "ralph" | "foreign";
  /** Whether `pre-push.ralph-chained` exists. */
  hasChained: boolean;
  /** For ralph's script: the node and cli it runs. */
  command: { node: string; cli: string } | null;
}

function readIfFile(path: string): string | null {
  try {
    const st = lstatSync(path);
    if (st.isDirectory()) return null;
    return readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR", "ELOOP")) return null;
    throw error;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Looks at the repository's pre-push hook without changing anything. @throws Error when a file exists but cannot be read. */
export function inspectGitHook(repo: Pick<Repository, "workTree" | "commonDir" | "config" | "env">): GitHookState {
  const hook = join(hooksDirOf(repo), "pre-push");
  const chainedPath = `${hook}${CHAINED_SUFFIX}`;
  const present = exists(hook);
  const text = present ? readIfFile(hook) : null;
  const state = !present ? "absent" : text !== null && isRalphGitHook(text) ? "ralph" : "foreign";
  return { hook, chainedPath, state, hasChained: exists(chainedPath), command: state === "ralph" && text !== null ? hookCommandPaths(text) : null };
}

/** What {@link installGitHook} did. */
export interface GitHookInstall {
  hook: string;
  /** The user's hook now chained (moved to `pre-push.ralph-chained`), or null when there is none. */
  chained: string | null;
  /** False when the same script was already installed (nothing written). */
  changed: boolean;
}

function writeExecutable(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openSync(temp, "w", 0o755);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(temp, 0o755);
  renameSync(temp, path);
}

/**
 * Installs ralph's pre-push hook. A hook that is not ralph's is moved to
 * `pre-push.ralph-chained` first (kept byte for byte, mode and symlinks
 * included) and run by ralph's script. Installing again rewrites only
 * ralph's script (idempotent).
 * @throws RalphError E_USAGE when a foreign pre-push hook and an earlier
 *   chained hook both exist (ralph will not overwrite either).
 */
export function installGitHook(repo: Pick<Repository, "workTree" | "commonDir" | "config" | "env">, nodePath: string, cliPath: string): GitHookInstall {
  const found = inspectGitHook(repo);
  const script = gitHookScript(nodePath, cliPath);
  if (found.state === "foreign") {
    if (found.hasChained) {
      throw new RalphError(
        "E_USAGE",
        `both ${found.hook} (not ralph's) and ${found.chainedPath} exist; ralph will not overwrite either: merge or remove one, then run ralph install --git-hooks again`,
        { data: { hook: found.hook, chained: found.chainedPath } },
      );
    }
    renameSync(found.hook, found.chainedPath);
    writeExecutable(found.hook, script);
    return { hook: found.hook, chained: found.chainedPath, changed: true };
  }
  const chained = found.hasChained ? found.chainedPath : null;
  if (found.state === "ralph" && readIfFile(found.hook) === script && (lstatSync(found.hook).mode & 0o777) === 0o755) {
    return { hook: found.hook, chained, changed: false };
  }
  writeExecutable(found.hook, script);
  return { hook: found.hook, chained, changed: true };
}

/** What {@link uninstallGitHook} did. */
export interface GitHookRemoval {
  hook: string;
  /** Whether ralph's script was removed. */
  removed: boolean;
  /** The path the user's hook was moved back to, or null. */
  restored: string | null;
  /** Where ralph's script was kept because someone had edited it (`pre-push.ralph-edited`), or null. */
  keptEdited: string | null;
}

/**
 * Removes ralph's pre-push hook (kept as `pre-push.ralph-edited` when its
 * text is not what ralph wrote: someone edited it) and moves the chained
 * hook back in its place (same bytes, same mode). A pre-push hook that is not ralph's is
 * left alone (and a chained hook then too).
 */
export function uninstallGitHook(repo: Pick<Repository, "workTree" | "commonDir" | "config" | "env">): GitHookRemoval {
  const found = inspectGitHook(repo);
  if (found.state === "foreign") return { hook: found.hook, removed: false, restored: null, keptEdited: null };
  const removed = found.state === "ralph";
  let keptEdited: string | null = null;
  if (removed) {
    // A script someone edited after install is moved aside, not deleted: their lines are not ours to drop.
    const text = readIfFile(found.hook);
    const paths = text === null ? null : hookCommandPaths(text);
    if (text !== null && paths !== null && text !== gitHookScript(paths.node, paths.cli)) {
      keptEdited = `${found.hook}.ralph-edited`;
      renameSync(found.hook, keptEdited);
    } else rmSync(found.hook, { force: true });
  }
  if (found.hasChained && !existsSync(found.hook)) {
    renameSync(found.chainedPath, found.hook);
    return { hook: found.hook, removed, restored: found.hook, keptEdited };
  }
  return { hook: found.hook, removed, restored: null, keptEdited };
}

/** True when this process may execute the file at `path` (git runs a hook file only when it is executable: githooks(5)); false when it is absent or not executable. */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
