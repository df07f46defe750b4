/**
 * A reader for the few git configuration values the store needs
 * (core.excludesFile, core.autocrlf, core.bare, core.worktree,
 * extensions.worktreeConfig), from the files git reads, in git's order:
 * system (`/etc/gitconfig`, skipped with GIT_CONFIG_NOSYSTEM), global
 * (`$GIT_CONFIG_GLOBAL`, else `$XDG_CONFIG_HOME/git/config` then
 * `~/.gitconfig`), the repository's `config`, and `config.worktree` when
 * `extensions.worktreeConfig` is on. Later files win. Unconditional
 * `[include] path = …` is followed (relative to the including file, `~/`
 * expanded, depth ≤ 10); conditional `includeIf` sections are not evaluated.
 *
 * Syntax per git-config(1) "CONFIGURATION FILE": sections `[name]` and
 * `[name "subsection"]`, `key = value`, `#`/`;` comments, double quotes,
 * backslash escapes (`\n \t \b \" \\`) and line continuation.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isErrno } from "../errors.js";
import { EMPTY_RUNTIME_ENV, homeOf, type GitEnvironment } from "../runtime-env.js";

/** Config values keyed by lowercase `section.key` (subsection kept verbatim: `section.sub.key`); last value wins. */
export type GitConfig = ReadonlyMap<string, string>;

/**
 * Parses one config file's text into `out` (mutated), following includes
 * (`~/` in an include path is `home`, default the passwd entry's home).
 * Never throws for bad syntax: a malformed line is skipped, as a tolerant reader.
 */
export function parseGitConfig(text: string, filePath: string, out: Map<string, string>, depth = 0, home: string = homeOf(EMPTY_RUNTIME_ENV.git)): void {
  let section = "";
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] as string;
    // Line continuation: a trailing backslash joins the next line.
    while (/(^|[^\\])(\\\\)*\\$/.test(line) && i + 1 < lines.length) line = line.slice(0, -1) + lines[++i];
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith(";")) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(trimmed);
    if (header) {
      const name = (header[1] as string).toLowerCase();
      section = header[2] === undefined ? name : `${name}.${header[2].replace(/\\(.)/g, "$1")}`;
      line = (header[3] as string).trim();
      if (line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    }
    const kv = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/.exec(line);
    if (!kv || section === "") continue;
    const key = `${section}.${(kv[1] as string).toLowerCase()}`;
    const value = kv[2] === undefined ? "true" : parseValue(kv[2]);
    out.set(key, value);
    if (key === "include.path" && depth < 10) {
      const target = expandHome(value, home);
      readConfigFile(resolve(dirname(filePath), target), out, home, depth + 1);
    }
  }
}

function parseValue(raw: string): string {
  let out = "";
  let quoted = false;
  let pendingSpace = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '"') {
      quoted = !quoted;
      continue;
    }
    if (c === "\\" && i + 1 < raw.length) {
      const n = raw[++i] as string;
      out += pendingSpace + (n === "n" ? "\n" : n === "t" ? "\t" : n === "b" ? "\b" : n);
      pendingSpace = "";
      continue;
    }
    if (!quoted && (c === "#" || c === ";")) break;
    if (!quoted && (c === " " || c === "\t")) {
      if (out !== "") pendingSpace += c;
      continue;
    }
    out += pendingSpace + c;
    pendingSpace = "";
  }
  return out;
}

/** Expands a leading `~/` to `home` (src/runtime-env.ts `homeOf`), as git does for path values. */
export function expandHome(path: string, home: string): string {
  return path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

function readConfigFile(path: string, out: Map<string, string>, home: string, depth = 0): void {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR", "EACCES", "EISDIR")) return;
    throw error;
  }
  parseGitConfig(text, path, out, depth, home);
}

/**
 * Reads the effective configuration for a repository.
 * @param commonDir the repository's common git dir (holds `config`)
 * @param gitDir the per-worktree git dir (holds `config.worktree`)
 * @param env the run's git variables (which system and global files count, the home directory)
 */
export function readGitConfig(commonDir: string, gitDir: string = commonDir, env: GitEnvironment = EMPTY_RUNTIME_ENV.git): GitConfig {
  const out = new Map<string, string>();
  const home = homeOf(env);
  if (env.readSystemConfig) readConfigFile(env.systemConfig, out, home);
  if (env.globalConfig !== undefined) {
    readConfigFile(env.globalConfig, out, home);
  } else {
    readConfigFile(join(env.xdgConfigHome ?? join(home, ".config"), "git", "config"), out, home);
    readConfigFile(join(home, ".gitconfig"), out, home);
  }
  readConfigFile(join(commonDir, "config"), out, home);
  if (isTrue(out.get("extensions.worktreeconfig"))) readConfigFile(join(gitDir, "config.worktree"), out, home);
  return out;
}

/** git's boolean parsing: true/yes/on/1 (and a bare key) are true. */
export function isTrue(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.toLowerCase();
  return v === "true" || v === "yes" || v === "on" || v === "1";
}

/** The default global excludes file git uses when core.excludesFile is unset: `$XDG_CONFIG_HOME/git/ignore` or `~/.config/git/ignore`. */
export function defaultExcludesFile(env: GitEnvironment): string {
  return join(env.xdgConfigHome ?? join(homeOf(env), ".config"), "git", "ignore");
}

/**
 * The repository's own configuration only (`<commonDir>/config`, and
 * `<gitDir>/config.worktree` when extensions.worktreeConfig is on): what
 * `git config --local` and `--worktree` see, without the system and global
 * files. Used to tell a repository's own setting from one shared by every
 * repository of the user (a global core.hooksPath).
 */
export function readRepoGitConfig(commonDir: string, gitDir: string = commonDir, env: GitEnvironment = EMPTY_RUNTIME_ENV.git): GitConfig {
  const out = new Map<string, string>();
  const home = homeOf(env); // only an include's `~/` needs it
  readConfigFile(join(commonDir, "config"), out, home);
  if (isTrue(out.get("extensions.worktreeconfig"))) readConfigFile(join(gitDir, "config.worktree"), out, home);
  return out;
}
