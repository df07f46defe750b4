/**
 * Finding the repository: the work tree root, the per-worktree git dir and
 * the common git dir (gitrepository-layout(5)). Handles a plain `.git`
 * folder, a `.git` file (`gitdir: …`, linked worktrees and submodules) with
 * its `commondir`, `GIT_DIR`/`GIT_WORK_TREE` from the environment (git sets
 * them for hooks), and being run from a subdirectory.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { decodePath, fsPath } from "./path-bytes.js";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { RalphError, isErrno } from "../errors.js";
import { EMPTY_RUNTIME_ENV, type RuntimeEnv } from "../runtime-env.js";
import { isTrue, readGitConfig, type GitConfig } from "./git-config.js";
import { resolveRef } from "./refs.js";

/** A located repository. All paths are absolute and real (symlinks resolved). */
export interface Repository {
  /** Root of the work tree. */
  readonly workTree: string;
  /** The git dir of this work tree (`.git`, or `.git/worktrees/<name>` for a linked worktree). */
  readonly gitDir: string;
  /** The shared git dir: objects and refs live here. Equal to gitDir outside linked worktrees. */
  readonly commonDir: string;
  /** ralph's private folder for this work tree: `<gitDir>/ralph` (stat cache, locks). */
  readonly ralphDir: string;
  /** The cwd relative to workTree, '/'-separated, '' at the root. */
  readonly prefix: string;
  /** The effective git configuration (see git-config.ts). */
  readonly config: GitConfig;
  /** The environment of the run that opened it (src/runtime-env.ts): git's variables and ralph's knobs. */
  readonly env: RuntimeEnv;
}

function isGitDir(dir: string): boolean {
  return existsSync(join(dir, "HEAD")) && (existsSync(join(dir, "objects")) || existsSync(join(dir, "commondir")));
}

/**
 * The git dir a `.git` file (`gitdir: <path>`, linked worktrees and
 * submodules) points at, resolved; null when unreadable or malformed. The
 * path is read as bytes (git writes a submodule's path as it is, UTF-8 or
 * not) and escaped losslessly (path-bytes.ts), as `dotGit` may be.
 */
export function readGitFile(dotGit: string): string | null {
  let text: string;
  try {
    text = decodePath(readFileSync(fsPath(dotGit)));
  } catch {
    return null;
  }
  const m = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return m ? resolve(dirname(dotGit), m[1] as string) : null;
}

/** The common dir of a git dir: where its `commondir` file points (linked worktrees), else the git dir itself. */
export function commonDirOf(gitDir: string): string {
  try {
    const rel = decodePath(readFileSync(fsPath(join(gitDir, "commondir")))).trim();
    const common = resolve(gitDir, rel);
    const real = realpathSync(fsPath(common), { encoding: "buffer" });
    return decodePath(real);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return gitDir;
    throw error;
  }
}

/**
 * The HEAD commit of the repository whose work tree is `absDir` (a
 * submodule or a nested repository, with a `.git` folder or file), or null
 * when it has none or cannot be read. Never enters its work tree.
 */
export function nestedRepositoryHead(absDir: string): string | null {
  try {
    const dotGit = join(absDir, ".git");
    const gitDir = statSync(fsPath(dotGit)).isFile() ? readGitFile(dotGit) : dotGit;
    if (gitDir === null) return null;
    return resolveRef({ gitDir, commonDir: commonDirOf(gitDir) }, "HEAD");
  } catch {
    return null;
  }
}

function toPosix(p: string): string {
  return sep === "/" ? p : p.split(sep).join("/");
}

/** `GIT_DIR` or `GIT_WORK_TREE` resolved against `start`; E_NOT_A_REPO naming the variable when it does not exist (git: "not a git repository"). */
function realpathFromEnv(start: string, value: string, variable: "GIT_DIR" | "GIT_WORK_TREE"): string {
  const path = resolve(start, value);
  try {
    return realpathSync(path);
  } catch (error) {
    throw new RalphError("E_NOT_A_REPO", `not a git repository: ${variable}=${value} (${path}) does not exist; fix or unset ${variable}`, { data: { path, variable }, cause: error });
  }
}

/**
 * Locates the repository containing `cwd`, as git does under the run's
 * environment `env` (`GIT_DIR`, `GIT_WORK_TREE`, the config files; default
 * none set). The repository keeps `env` for what the store does later.
 * @throws RalphError E_NOT_A_REPO when no git repository contains `cwd`;
 *   E_BARE_REPO when it is a bare repository (no work tree to checkpoint);
 *   E_UNSUPPORTED for a SHA-256 repository (`extensions.objectFormat`).
 */
export function openRepository(cwd: string, env: RuntimeEnv = EMPTY_RUNTIME_ENV): Repository {
  let start: string;
  try {
    start = realpathSync(cwd);
  } catch (error) {
    throw new RalphError("E_NOT_A_REPO", `cannot open ${cwd}: it does not exist; run ralph inside a git work tree`, { cause: error });
  }
  const envGitDir = env.git.dir;
  let workTree: string | null = null;
  let gitDir: string | null = null;
  if (envGitDir) {
    gitDir = realpathFromEnv(start, envGitDir, "GIT_DIR");
    const envWorkTree = env.git.workTree;
    if (envWorkTree) workTree = realpathFromEnv(start, envWorkTree, "GIT_WORK_TREE");
  } else {
    for (let dir = start; ; dir = dirname(dir)) {
      const dotGit = join(dir, ".git");
      let isDir = false;
      let exists: boolean;
      try {
        const st = statSync(dotGit);
        exists = true;
        isDir = st.isDirectory();
      } catch {
        exists = false;
      }
      if (exists && isDir && isGitDir(dotGit)) {
        workTree = dir;
        gitDir = dotGit;
        break;
      }
      if (exists && !isDir) {
        const target = readGitFile(dotGit);
        if (target && isGitDir(target)) {
          workTree = dir;
          gitDir = realpathSync(target);
          break;
        }
      }
      if (isGitDir(dir) && (dir.endsWith(".git") || isBareConfig(dir))) {
        throw new RalphError("E_BARE_REPO", `${dir} is a bare repository: ralph needs a work tree; run it inside a clone or worktree`, {
          data: { path: dir },
        });
      }
      if (dirname(dir) === dir) break;
    }
  }
  if (!gitDir || !isGitDir(gitDir)) {
    throw new RalphError("E_NOT_A_REPO", `not a git repository (or any parent up to /): ${start}; run ralph inside a git work tree`, {
      data: { path: start },
    });
  }
  const commonDir = commonDirOf(gitDir);
  const config = readGitConfig(commonDir, gitDir, env.git);
  const objectFormat = config.get("extensions.objectformat")?.toLowerCase();
  if (objectFormat !== undefined && objectFormat !== "sha1") {
    // gitrepository-layout(5) extensions.objectFormat: ralph's object store reads and writes SHA-1 objects only.
    throw new RalphError("E_UNSUPPORTED", `${gitDir} uses the ${objectFormat} object format; ralph supports SHA-1 repositories only`, {
      data: { path: gitDir, object_format: objectFormat },
    });
  }
  if (!workTree) {
    const configured = config.get("core.worktree");
    if (configured) workTree = realpathSync(resolve(gitDir, configured));
    else if (isTrue(config.get("core.bare"))) {
      throw new RalphError("E_BARE_REPO", `${gitDir} is a bare repository: ralph needs a work tree; run it inside a clone or worktree`, {
        data: { path: gitDir },
      });
    } else if (envGitDir) {
      // git(1) GIT_DIR: with neither GIT_WORK_TREE nor core.worktree, the current directory is the top
      // of the work tree. git runs hooks this way from linked worktrees (GIT_DIR=.git/worktrees/<name>,
      // cwd = the worktree root), where dirname(gitDir) would be .git/worktrees.
      workTree = start;
    } else workTree = dirname(gitDir);
  }
  const rel = relative(workTree, start);
  const prefix = rel === "" || rel.startsWith("..") || isAbsolute(rel) ? "" : toPosix(rel);
  return { workTree, gitDir, commonDir, ralphDir: join(gitDir, "ralph"), prefix, config, env };
}

function isBareConfig(dir: string): boolean {
  try {
    return /^\s*bare\s*=\s*true\s*$/im.test(readFileSync(join(dir, "config"), "utf8"));
  } catch {
    return false;
  }
}
