/**
 * Risk of a Bash command, read with a real shell parser (tree-sitter-bash,
 * pinned in grammars/manifest.json): pipelines, lists, subshells, command
 * and process substitutions, redirections, heredocs, prefix assignments and
 * `export`, and the strings given to `bash -c`/`sh -c`/`eval` are all walked
 * as the shell would see them. A word is judged by its role: `--no-verify`
 * inside a commit message is an argument of `-m`, not an option, so it is
 * not a bypass (issue 4, "PreToolUse").
 */
import type { Node } from "web-tree-sitter";
import { loadGrammar, parseWithTreeSitter } from "../analysis/parsers/tree-sitter.js";
import { controlKindOf, describeControlKind, holdsControlSurface, type ControlSurfaceOptions } from "./control-surface.js";
import { toRepoPath } from "./paths.js";
import { isRalphStatePath, protectedKindOf } from "./protected-paths.js";
import { ralphSubcommand } from "./ralph-start.js";

/** The kinds of risk ralph recognises in a command. */
export type BashRiskKind =
  | "recursive_delete"
  | "git_rm"
  | "git_reset_hard"
  | "git_discard_changes"
  | "git_clean"
  | "git_stash_drop"
  | "git_push_force"
  | "hook_bypass"
  | "test_file_write"
  | "test_file_delete"
  | "self_approval"
  | "ralph_state_write"
  | "guard_tamper"
  | "unparsed";

/** One risk found in a command. */
export interface BashRisk {
  kind: BashRiskKind;
  /** What was seen, for a person: `git reset --hard`, `HUSKY=0`, `sed -i on test/a.test.ts`. */
  detail: string;
  /** The protected path written or deleted, for test_file_*, ralph_state_write and guard_tamper risks. */
  path?: string;
}

/**
 * Where a command runs, so its paths can be put against ralph's control
 * surface (src/hooks/control-surface.ts): relative words are taken from
 * `cwd`, absolute ones made relative to `workTree`; a path inside `gitDir`
 * (a linked worktree's git dir lies outside its work tree) reads as `.git/…`.
 * Without it, every path is read as relative to the repository root.
 */
export interface BashContext extends ControlSurfaceOptions {
  workTree: string;
  cwd: string;
  /** The repository's git dirs (per-worktree and common), absolute. */
  gitDirs?: readonly string[];
}

/** A simple command as the shell would run it: prefix assignments, the command name and its words (quotes removed). */
interface SimpleCommand {
  assignments: Map<string, string>;
  name: string;
  args: string[];
  /** Files written by redirections attached to this command (`>`, `>>`, `&>`, `>|`, `<>`). */
  writes: string[];
  /** Heredoc bodies fed to this command. */
  heredocs: string[];
}

/** Variables whose assignment turns a git hook manager off. */
const HOOK_BYPASS_ENV: ReadonlyMap<string, (value: string) => boolean> = new Map([
  ["HUSKY", (v) => v === "0" || v.toLowerCase() === "false"],
  ["HUSKY_SKIP_HOOKS", (v) => v !== "" && v !== "0"],
  ["SKIP_SIMPLE_GIT_HOOKS", (v) => v !== "" && v !== "0"],
  ["LEFTHOOK", (v) => v === "0" || v.toLowerCase() === "false"],
]);

/** Commands that run their arguments as another command. */
const WRAPPERS: ReadonlySet<string> = new Set(["sudo", "env", "nohup", "time", "command", "exec", "nice", "timeout", "xargs", "stdbuf", "doas"]);
const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "zsh", "dash", "ksh"]);
const WRITE_REDIRECTS: ReadonlySet<string> = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

/** The literal text of a word-like node, quotes removed; expansions are kept as written. */
function wordText(node: Node): string {
  switch (node.type) {
    case "raw_string":
      return node.text.slice(1, -1);
    case "ansi_c_string":
      return node.text.slice(2, -1);
    case "string":
      return node.text.replace(/^\$?"/, "").replace(/"$/, "");
    case "concatenation":
      return node.namedChildren.map((child) => (child ? wordText(child) : "")).join("");
    case "word":
      return node.text.replace(/\\(.)/g, "$1");
    default:
      return node.text;
  }
}

/** The path of an executable without its directory: `/usr/bin/git` -> `git`. */
const baseName = (name: string): string => name.slice(name.lastIndexOf("/") + 1);

/** Collects the simple commands of a parsed script, in source order, with the scripts nested in substitutions. */
function collectCommands(root: Node): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  const exported = new Map<string, string>();
  const visit = (node: Node, redirects: { writes: string[]; heredocs: string[] }): void => {
    if (node.type === "redirected_statement") {
      const writes: string[] = [...redirects.writes];
      const heredocs: string[] = [...redirects.heredocs];
      for (const redirect of node.childrenForFieldName("redirect")) {
        if (!redirect) continue;
        if (redirect.type === "file_redirect") {
          const op = redirect.children.find((c) => c && !c.isNamed)?.text ?? "";
          const destination = redirect.childForFieldName("destination");
          if (destination && WRITE_REDIRECTS.has(op)) writes.push(wordText(destination));
        } else if (redirect.type === "heredoc_redirect") {
          const body = redirect.namedChildren.find((c) => c?.type === "heredoc_body");
          if (body) heredocs.push(body.text);
          // `cat <<EOF > file`: the write sits inside the heredoc_redirect.
          for (const child of redirect.namedChildren) {
            if (child?.type === "file_redirect") {
              const destination = child.childForFieldName("destination");
              if (destination) writes.push(wordText(destination));
            }
          }
        } else if (redirect.type === "herestring_redirect") {
          const value = redirect.namedChildren[0];
          if (value) heredocs.push(wordText(value));
        }
      }
      const body = node.childForFieldName("body");
      if (body) visit(body, { writes, heredocs });
      else if (writes.length > 0) out.push({ assignments: new Map(), name: "", args: [], writes, heredocs });
      return;
    }
    if (node.type === "command") {
      const assignments = new Map(exported);
      let name = "";
      const args: string[] = [];
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === "variable_assignment") {
          const key = child.childForFieldName("name")?.text ?? "";
          const value = child.childForFieldName("value");
          assignments.set(key, value ? wordText(value) : "");
        } else if (child.type === "command_name") {
          name = wordText(child.namedChildren[0] ?? child);
        } else if (child.type === "file_redirect" || child.type === "heredoc_redirect" || child.type === "herestring_redirect") {
          continue;
        } else {
          args.push(wordText(child));
        }
        // Substitutions inside words run too.
        for (const nested of child.descendantsOfType(["command_substitution", "process_substitution"])) {
          if (nested) for (const inner of nested.namedChildren) if (inner) visit(inner, { writes: [], heredocs: [] });
        }
      }
      out.push({ assignments, name, args, writes: redirects.writes, heredocs: redirects.heredocs });
      return;
    }
    if (node.type === "declaration_command") {
      // `export HUSKY=0` affects every later command of the script.
      const isExport = node.children[0]?.text === "export" || node.children[0]?.text === "declare";
      for (const child of node.namedChildren) {
        if (child?.type !== "variable_assignment") continue;
        const key = child.childForFieldName("name")?.text ?? "";
        const value = child.childForFieldName("value");
        if (isExport) exported.set(key, value ? wordText(value) : "");
        out.push({ assignments: new Map([[key, value ? wordText(value) : ""]]), name: "", args: [], writes: [], heredocs: [] });
      }
      return;
    }
    if (node.type === "variable_assignment") {
      // A bare `HUSKY=0` line sets a shell variable that exported children do not see unless exported; still a declared intent.
      const key = node.childForFieldName("name")?.text ?? "";
      const value = node.childForFieldName("value");
      out.push({ assignments: new Map([[key, value ? wordText(value) : ""]]), name: "", args: [], writes: [], heredocs: [] });
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child, redirects);
  };
  visit(root, { writes: [], heredocs: [] });
  return out;
}

/** Splits `-abc` short-option clusters; long options and words pass through. */
function isShortCluster(arg: string): boolean {
  return /^-[A-Za-z]+$/.test(arg);
}

/** Git subcommand and its arguments after git's global options (`-c k=v`, `-C dir`, `--git-dir=…`, `--no-pager`…); the `-c` values are returned too. */
function splitGit(args: string[]): { sub: string; rest: string[]; configs: string[] } {
  const configs: string[] = [];
  let i = 0;
  while (i < args.length) {
    const arg = args[i] as string;
    if (arg === "-c" || arg === "-C" || arg === "--git-dir" || arg === "--work-tree" || arg === "--namespace" || arg === "--exec-path") {
      if (arg === "-c" && args[i + 1] !== undefined) configs.push(args[i + 1] as string);
      i += 2;
      continue;
    }
    if (arg.startsWith("-c") && arg.length > 2 && !arg.startsWith("--")) {
      configs.push(arg.slice(2));
      i++;
      continue;
    }
    if (arg.startsWith("--config-env=")) {
      configs.push(arg.slice("--config-env=".length));
      i++;
      continue;
    }
    if (arg.startsWith("-")) {
      i++;
      continue;
    }
    break;
  }
  return { sub: args[i] ?? "", rest: args.slice(i + 1), configs };
}

/** Options of git subcommands that take the next word as their value (so that word is never read as an option). */
const GIT_VALUE_OPTIONS: ReadonlySet<string> = new Set([
  "-m",
  "--message",
  "-F",
  "--file",
  "-C",
  "--reuse-message",
  "-c",
  "--reedit-message",
  "-t",
  "--template",
  "--author",
  "--date",
  "--trailer",
  "--cleanup",
  "--fixup",
  "--squash",
  "-s",
  "--strategy",
  "-X",
  "--strategy-option",
  "-o",
  "--push-option",
  "--repo",
  "--receive-pack",
  "--exec",
  "--onto",
]);
/** Short options of `git commit` that take a value: a cluster stops at the first of them. */
const COMMIT_VALUE_SHORTS = new Set(["m", "F", "C", "c", "t"]);

/** The option words of a git subcommand's arguments (values of value-taking options skipped), and the words after `--`. */
function gitOptions(rest: string[]): { options: string[]; positionals: string[]; dashDash: string[] | null } {
  const options: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (arg === "--") return { options, positionals, dashDash: rest.slice(i + 1) };
    if (GIT_VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith("-")) options.push(arg);
    else positionals.push(arg);
  }
  return { options, positionals, dashDash: null };
}

/** True when an option list has `long`, or a short cluster containing `short` before any value-taking letter. */
function hasFlag(options: string[], long: string[], short?: string): boolean {
  for (const option of options) {
    const name = option.includes("=") ? option.slice(0, option.indexOf("=")) : option;
    if (long.includes(name)) return true;
    if (short && isShortCluster(option)) {
      for (const letter of option.slice(1)) {
        if (letter === short) return true;
        if (COMMIT_VALUE_SHORTS.has(letter)) break;
      }
    }
  }
  return false;
}

function classifyGit(command: SimpleCommand, risks: BashRisk[], context: BashContext | null): void {
  const { sub, rest, configs } = splitGit(command.args);
  for (const config of configs) {
    if (/^core\.hookspath\b/i.test(config)) risks.push({ kind: "hook_bypass", detail: `git -c ${config}` });
  }
  const { options, positionals, dashDash } = gitOptions(rest);
  const paths = [...positionals, ...(dashDash ?? [])];
  switch (sub) {
    case "rm":
      risks.push({ kind: "git_rm", detail: `git rm ${rest.join(" ")}`.trim() });
      for (const path of paths) pushWriteRisk(risks, path, `git rm ${path}`, "test_file_delete", context);
      break;
    case "reset":
      if (hasFlag(options, ["--hard"])) risks.push({ kind: "git_reset_hard", detail: "git reset --hard" });
      break;
    case "checkout":
      if (dashDash !== null || hasFlag(options, ["--force"], "f") || positionals.includes(".")) {
        risks.push({ kind: "git_discard_changes", detail: `git checkout ${rest.join(" ")}`.trim() });
      }
      break;
    case "restore": {
      const stagedOnly = hasFlag(options, ["--staged"], "S") && !hasFlag(options, ["--worktree"], "W");
      if (!stagedOnly && paths.length > 0) risks.push({ kind: "git_discard_changes", detail: `git restore ${rest.join(" ")}`.trim() });
      break;
    }
    case "clean":
      if (!hasFlag(options, ["--dry-run"], "n")) risks.push({ kind: "git_clean", detail: `git clean ${options.join(" ")}`.trim() });
      break;
    case "stash":
      if (positionals[0] === "drop" || positionals[0] === "clear") risks.push({ kind: "git_stash_drop", detail: `git stash ${positionals[0]}` });
      break;
    case "push":
      if (hasFlag(options, ["--force", "--force-with-lease", "--force-if-includes", "--mirror"], "f") || positionals.slice(1).some((p) => p.startsWith("+"))) {
        risks.push({ kind: "git_push_force", detail: `git push ${rest.join(" ")}`.trim() });
      }
      break;
    case "config":
      if (positionals.some((p) => /^core\.hookspath$/i.test(p)) && !hasFlag(options, ["--get", "--get-all", "--list", "--unset", "--unset-all"], "l")) {
        risks.push({ kind: "hook_bypass", detail: `git config ${rest.join(" ")}`.trim() });
      } else if (positionals.some((p) => /^core\.hookspath$/i.test(p)) && hasFlag(options, ["--unset", "--unset-all"])) {
        // Unsetting it moves git back to .git/hooks: the hook ralph installed where it pointed stops running.
        risks.push({ kind: "guard_tamper", detail: `git config ${rest.join(" ")} (git's config: core.hooksPath decides which hooks run)`.trim() });
      }
      if (positionals[0] === "unset" && positionals.slice(1).some((p) => /^core\.hookspath$/i.test(p))) {
        risks.push({ kind: "guard_tamper", detail: `git config ${rest.join(" ")} (git's config: core.hooksPath decides which hooks run)`.trim() });
      }
      break;
    default:
      break;
  }
  if (["commit", "merge", "tag", "notes"].includes(sub) && rest.some((arg) => /(^|\n)\s*Ralph-Allow\s*:/im.test(arg))) {
    risks.push({ kind: "self_approval", detail: `git ${sub} with a Ralph-Allow trailer` });
  }
  if ((sub === "update-ref" || sub === "symbolic-ref" || sub === "branch" || sub === "tag") && rest.some((arg) => arg.startsWith("refs/ralph/"))) {
    risks.push({ kind: "self_approval", detail: `git ${sub} on refs/ralph/` });
  }
  if (["commit", "push", "merge", "am", "rebase", "cherry-pick", "revert", "pull"].includes(sub)) {
    if (hasFlag(options, ["--no-verify"], sub === "commit" ? "n" : undefined)) risks.push({ kind: "hook_bypass", detail: `git ${sub} --no-verify` });
  }
}

/** What a command does to a path: writes it, or deletes, moves or re-modes it (which reaches what a folder holds). */
type PathEffect = "write" | "delete";

/** The repository-relative form of a command's path word (see {@link BashContext}). */
function repoPathOf(path: string, context: BashContext | null): string {
  if (!context) return path;
  for (const dir of context.gitDirs ?? []) {
    const inside = toRepoPath(dir, path, context.cwd);
    if (inside !== null) return `.git/${inside}`;
  }
  return toRepoPath(context.workTree, path, context.cwd) ?? path;
}

/**
 * The risk of writing (or deleting) `path`: ralph's own state and config
 * (`.aiwg/ralph/`, `aiwg.yml`) are `ralph_state_write`; the rest of ralph's
 * control surface (agent settings, the git hook, git's config, `.git/ralph`,
 * `refs/ralph`, and for a delete any folder holding them) `guard_tamper`;
 * test files and test configuration `test_file_write` / `test_file_delete`;
 * else null.
 */
function writeRisk(path: string, detail: string, kind: "test_file_write" | "test_file_delete", context: BashContext | null, effect: PathEffect): BashRisk | null {
  const rel = repoPathOf(path, context);
  if (isRalphStatePath(rel)) return { kind: "ralph_state_write", detail, path: rel };
  const control = controlKindOf(rel, context ?? {});
  if (control) return { kind: "guard_tamper", detail: `${detail} (${describeControlKind(control)})`, path: rel };
  if (effect === "delete" && holdsControlSurface(rel, context ?? {})) return { kind: "guard_tamper", detail: `${detail} (a folder holding ralph's hooks, config or state)`, path: rel };
  return protectedKindOf(rel) ? { kind, detail, path: rel } : null;
}

function pushWriteRisk(
  risks: BashRisk[],
  path: string,
  detail: string,
  kind: "test_file_write" | "test_file_delete",
  context: BashContext | null = null,
  effect: PathEffect = kind === "test_file_delete" ? "delete" : "write",
): void {
  const risk = writeRisk(path, detail, kind, context, effect);
  if (risk) risks.push(risk);
}

/** ralph subcommands that decide the human gate, end a loop, accept a change to ralph's guard or remove its hooks: the human's, never the agent's. */
const HUMAN_ONLY_SUBCOMMANDS: ReadonlySet<string> = new Set(["approve", "reject", "abort", "resume", "cancel", "confirm", "uninstall"]);

/** Files named by a command's positional words (options skipped). */
const positionalWords = (args: string[]): string[] => args.filter((arg) => !arg.startsWith("-"));

/** Code given to an interpreter that writes (or deletes) something: a write verb anywhere in it. */
function codeWrites(code: string): boolean {
  return (
    /\bopen\s*\([^)]*,\s*['"][^'"]*[wax+]/.test(code) ||
    /\b(write|writeFile\w*|write_text|write_bytes|unlink\w*|remove|rmtree|rename\w*|replace|truncate\w*|rmSync|rm|rmdir\w*|appendFile\w*|copyFile\w*|copy\w*|cpSync|chmod\w*|symlink\w*|move)\s*\(/.test(
      code,
    ) ||
    /\bprint\b.*>>/.test(code)
  );
}

/**
 * The path an interpreter's code writes, when it names one of ralph's
 * control surface (any quoted literal: `.git/hooks/pre-push` has no
 * extension) or a test file (a quoted literal with an extension) next to a
 * write verb; null otherwise.
 */
function codeWritesProtected(code: string, context: BashContext | null): { path: string; kind: "test_file_write" | "guard_tamper" | "ralph_state_write" } | null {
  if (!codeWrites(code)) return null;
  for (const m of code.matchAll(/["'`]([^"'`\s]+)["'`]/g)) {
    const rel = repoPathOf(m[1] as string, context);
    if (isRalphStatePath(rel)) return { path: rel, kind: "ralph_state_write" };
    if (controlKindOf(rel, context ?? {}) || holdsControlSurface(rel, context ?? {})) return { path: rel, kind: "guard_tamper" };
  }
  for (const m of code.matchAll(/["'`]([^"'`\s]+\.[A-Za-z0-9]+)["'`]/g)) {
    const path = m[1] as string;
    if (protectedKindOf(path)) return { path, kind: "test_file_write" };
  }
  return null;
}

/** Classifies one simple command, appending what it finds. `depth` bounds `bash -c` nesting. */
async function classifyCommand(command: SimpleCommand, risks: BashRisk[], depth: number, context: BashContext | null): Promise<void> {
  for (const [key, value] of command.assignments) {
    const isBypass = HOOK_BYPASS_ENV.get(key);
    if (isBypass?.(value)) risks.push({ kind: "hook_bypass", detail: `${key}=${value}` });
  }
  for (const target of command.writes) {
    pushWriteRisk(risks, target, `redirection into ${target}`, "test_file_write", context);
  }
  let name = baseName(command.name);
  let args = command.args;
  // Unwrap `sudo`, `env X=1`, `timeout 5`, `xargs` and friends.
  for (let guard = 0; WRAPPERS.has(name) && guard < 5; guard++) {
    let i = 0;
    while (i < args.length && (args[i]!.startsWith("-") || (name === "env" && args[i]!.includes("=")) || (name === "timeout" && /^\d/.test(args[i]!)))) {
      const arg = args[i] as string;
      if (name === "env" && arg.includes("=") && !arg.startsWith("-")) {
        const key = arg.slice(0, arg.indexOf("="));
        const isBypass = HOOK_BYPASS_ENV.get(key);
        if (isBypass?.(arg.slice(arg.indexOf("=") + 1))) risks.push({ kind: "hook_bypass", detail: arg });
      }
      i++;
    }
    name = baseName(args[i] ?? "");
    args = args.slice(i + 1);
  }
  if (SHELLS.has(name) || name === "eval") {
    const index = name === "eval" ? -1 : args.findIndex((arg) => /^-[a-z]*c[a-z]*$/.test(arg));
    const script = name === "eval" ? args.join(" ") : index >= 0 ? args[index + 1] : undefined;
    if (script !== undefined && depth < 3) risks.push(...(await classifyScript(script, depth + 1, context)));
    for (const body of command.heredocs) if (depth < 3) risks.push(...(await classifyScript(body, depth + 1, context)));
    return;
  }
  const ralphCommand = ralphSubcommand(name, args);
  if (ralphCommand !== null && HUMAN_ONLY_SUBCOMMANDS.has(ralphCommand)) risks.push({ kind: "self_approval", detail: `ralph ${ralphCommand}` });
  switch (name) {
    case "git":
      classifyGit({ ...command, args }, risks, context);
      break;
    case "rm": {
      const options = args.filter((arg) => arg.startsWith("-") && arg !== "-");
      const recursive = options.some((o) => o === "--recursive" || (isShortCluster(o) && /[rR]/.test(o)));
      if (recursive) risks.push({ kind: "recursive_delete", detail: `rm ${args.join(" ")}`.trim() });
      for (const path of positionalWords(args)) pushWriteRisk(risks, path, `rm ${path}`, "test_file_delete", context);
      break;
    }
    case "sed":
    case "perl":
    case "ruby": {
      const inPlace = args.some((arg) => arg === "--in-place" || arg.startsWith("--in-place=") || /^-[a-zA-Z]*i/.test(arg));
      if (!inPlace) break;
      const hasScriptOption = args.some((arg) => arg === "-e" || arg === "--expression" || arg === "-f" || arg === "--file");
      const words: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const arg = args[i] as string;
        if (arg === "-e" || arg === "--expression" || arg === "-f" || arg === "--file") {
          i++;
          continue;
        }
        if (arg.startsWith("-")) {
          // BSD sed: `-i ''` takes the empty suffix as its own word.
          if (/^-[a-zA-Z]*i$/.test(arg) && args[i + 1] === "") i++;
          continue;
        }
        words.push(arg);
      }
      const files = hasScriptOption ? words : words.slice(1);
      for (const file of files) pushWriteRisk(risks, file, `${name} -i on ${file}`, "test_file_write", context);
      break;
    }
    case "tee":
    case "truncate":
    case "cp":
    case "mv":
    case "install":
    case "dd": {
      const words = name === "dd" ? args.filter((a) => a.startsWith("of=")).map((a) => a.slice(3)) : positionalWords(args);
      const targets = name === "cp" || name === "mv" || name === "install" ? words.slice(-1) : words;
      for (const file of targets) pushWriteRisk(risks, file, `${name} into ${file}`, "test_file_write", context);
      if (name === "mv") for (const file of words.slice(0, -1)) pushWriteRisk(risks, file, `mv ${file} away`, "test_file_delete", context);
      break;
    }
    case "rmdir":
    case "unlink":
    case "shred":
      for (const path of positionalWords(args)) pushWriteRisk(risks, path, `${name} ${path}`, "test_file_delete", context);
      break;
    case "chmod":
    case "chown":
    case "chgrp":
    case "chattr":
    case "setfacl": {
      // The first word is the mode or owner (`chmod -x f`: a `-x` mode reads as an option), the rest are files;
      // a changed mode of a hook file turns it off as surely as deleting it (git skips a hook that is not executable).
      const words = positionalWords(args);
      const files = args.some((a) => /^-[rwxXst]+$/.test(a) || a.startsWith("--reference")) ? words : words.slice(1);
      for (const file of files) pushWriteRisk(risks, file, `${name} ${file}`, "test_file_write", context, "delete");
      break;
    }
    case "ln": {
      const words = positionalWords(args);
      const target = words.length > 1 ? words[words.length - 1] : undefined;
      if (target !== undefined) pushWriteRisk(risks, target, `ln over ${target}`, "test_file_write", context);
      break;
    }
    default: {
      if (/^(python[\d.]*|node|deno|bun|ruby|perl|php)$/.test(name)) {
        const index = args.findIndex((arg) => arg === "-c" || arg === "-e" || arg === "--eval" || arg === "-r");
        const codes = [...(index >= 0 && args[index + 1] !== undefined ? [args[index + 1] as string] : []), ...command.heredocs];
        for (const code of codes) {
          const hit = codeWritesProtected(code, context);
          if (hit)
            risks.push({
              kind: hit.kind,
              detail: `${name} code writing ${hit.path}${hit.kind === "guard_tamper" ? ` (${describeControlKind(controlKindOf(hit.path, context ?? {}) ?? "ralph-store")})` : ""}`,
              path: hit.path,
            });
        }
      }
    }
  }
}

/**
 * Classifies a shell script (the Bash tool's `command`); `context` (where it runs) lets
 * absolute and cwd-relative paths be put against ralph's control surface. A script the
 * grammar cannot read at all yields one `unparsed` risk, so the caller can
 * still checkpoint before it runs.
 */
export async function classifyBash(script: string, depth = 0, context: BashContext | null = null): Promise<BashRisk[]> {
  return classifyScript(script, depth, context);
}

async function classifyScript(script: string, depth: number, context: BashContext | null): Promise<BashRisk[]> {
  if (script.trim() === "") return [];
  const grammar = await loadGrammar("bash", []);
  const parsed = parseWithTreeSitter(grammar, script);
  if (!parsed.ok) return [{ kind: "unparsed", detail: parsed.error }];
  const risks: BashRisk[] = [];
  try {
    for (const command of collectCommands(parsed.tree.rootNode)) await classifyCommand(command, risks, depth, context);
  } finally {
    parsed.tree.delete();
  }
  const seen = new Set<string>();
  return risks.filter((risk) => {
    const key = `${risk.kind}\u0000${risk.detail}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
