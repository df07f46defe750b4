/**
 * `ralph install --git-hooks` beside a hook manager: which one is in charge
 * of the repository's pre-push hook, and registering ralph through it
 * instead of writing `.git/hooks/pre-push` (which the manager owns and
 * rewrites).
 *
 * Each manager's own convention, from its documentation and source:
 * - husky v9 (`husky/index.js`): `core.hooksPath` is `.husky/_`, whose
 *   `pre-push` sources `_/h`, which runs `.husky/pre-push` with `sh -e`,
 *   the git arguments and git's stdin. ralph adds a block at the top of
 *   `.husky/pre-push` (first, so nothing reads stdin before it; it hands
 *   the same stdin on to the lines after it) and never touches `.husky/_`.
 * - lefthook: its hook file calls `lefthook`; the config (`lefthook.yml`,
 *   `.lefthook.yml`, `lefthook.yaml`, `.lefthook.yaml`, `.config/lefthook.yml`;
 *   `lefthook-local.yml` when asked) gets a `pre-push` job named `ralph`
 *   with `use_stdin: true` (lefthook.dev configuration/use_stdin). lefthook
 *   gives a job the git arguments only as the `{1}` `{2}` templates,
 *   pasted into the command unquoted; ralph's job single-quotes them.
 * - pre-commit: its hook file holds `# ID:` (resources/hook-tmpl). It
 *   reads stdin itself and hands a hook the first update it would check in
 *   `PRE_COMMIT_FROM_REF`, `PRE_COMMIT_TO_REF`, `PRE_COMMIT_LOCAL_BRANCH`,
 *   `PRE_COMMIT_REMOTE_BRANCH`, `PRE_COMMIT_REMOTE_NAME`,
 *   `PRE_COMMIT_REMOTE_URL` (commands/hook_impl.py `_pre_push_ns`,
 *   commands/run.py); ralph adds a `repo: local` hook with
 *   `stages: [pre-push]` (`push` before pre-commit 3.2), `language: system`,
 *   `pass_filenames: false`, `always_run: true`, `verbose: true` (its
 *   verdict line shows on a pass too), whose runner rebuilds that
 *   one update line from the variables. Other refs of the same push are
 *   not seen: pre-commit does not pass them on.
 * - simple-git-hooks: its config (`package.json` key `simple-git-hooks`,
 *   or `.simple-git-hooks.json` / `simple-git-hooks.json`) maps a hook to
 *   a command it writes into `.git/hooks/<hook>` after its own prelude;
 *   ralph's block goes before the user's command, and the hook is only
 *   rewritten when `npx simple-git-hooks` runs again (a note says so).
 *   A JavaScript config file is not edited (ralph cannot merge into code):
 *   the error shows the command to add.
 * - none: src/hooks/git-hook-install.ts writes the hook file itself.
 *
 * What the managers run: a config file is usually committed and shared, so
 * the registered command names no path of this machine. It looks up
 * `<git common dir>/ralph/hooks/pre-push` (the runner: the same script as
 * the unmanaged hook, {@link gitHookScript}, holding this machine's node
 * and cli paths) and, in a clone where ralph is not installed, says so on
 * stderr and lets the push through.
 *
 * Exact undo: every file ralph edits is recorded in
 * `<git common dir>/ralph/hooks/installed.json` with its bytes before and
 * after. Uninstall puts the bytes back (deletes a file ralph created) when
 * nobody changed the file since; otherwise it removes ralph's entry only.
 */
import { chmodSync, existsSync, lstatSync, readFileSync, rmSync, statSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { basename, dirname, join, normalize } from "node:path";
import { isErrno, RalphError } from "../errors.js";
import { writeFileAtomic } from "../loop/state.js";
import type { Repository } from "../store/repo.js";
import { gitHookScript, hooksDirOf } from "./git-hook-install.js";

/** The hook managers ralph registers through; `none` is ralph's own hook file. */
export const HOOK_MANAGERS = ["husky", "lefthook", "pre-commit", "simple-git-hooks", "none"] as const;
/** One of {@link HOOK_MANAGERS}. */
export type HookManager = (typeof HOOK_MANAGERS)[number];

type Repo = Pick<Repository, "workTree" | "commonDir" | "config" | "env">;

/** Which manager is in charge of pre-push, and the sign that says so. */
export interface ManagerDetection {
  manager: HookManager;
  /** The sign: `core.hooksPath=.husky/_`, `<hooks dir>/pre-push calls lefthook`, `lefthook.yml exists`… */
  evidence: string;
  /** The folder git runs hooks from ({@link hooksDirOf}). */
  hooksDir: string;
  /** Whether the manager's own pre-push hook file is in that folder (else its install must run: see {@link managerNotes}). */
  hookInstalled: boolean;
}

const LEFTHOOK_CONFIGS = ["lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml", ".config/lefthook.yml", ".config/lefthook.yaml"];
const LEFTHOOK_OTHER_FORMATS = ["lefthook.toml", ".lefthook.toml", "lefthook.json", ".lefthook.json"];
const PRE_COMMIT_CONFIGS = [".pre-commit-config.yaml", ".pre-commit-config.yml"];
const SIMPLE_GIT_HOOKS_JS = [".simple-git-hooks.cjs", ".simple-git-hooks.js", ".simple-git-hooks.mjs", "simple-git-hooks.cjs", "simple-git-hooks.js", "simple-git-hooks.mjs"];
const SIMPLE_GIT_HOOKS_JSON = [".simple-git-hooks.json", "simple-git-hooks.json"];

function readText(path: string): string | null {
  try {
    if (lstatSync(path).isDirectory()) return null;
    return readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR", "ELOOP")) return null;
    throw error;
  }
}

/** The manager a hook file's text belongs to, or null (ralph's own script, a hand-written hook). */
export function managerOfHookText(text: string): Exclude<HookManager, "none" | "husky"> | null {
  if (/^# ID: [0-9a-f]+$/m.test(text) && /pre-commit/.test(text)) return "pre-commit";
  if (/SKIP_SIMPLE_GIT_HOOKS/.test(text)) return "simple-git-hooks";
  if (/\blefthook\b/.test(text)) return "lefthook";
  return null;
}

function isHuskyHooksPath(value: string | undefined): boolean {
  if (value === undefined || value === "") return false;
  return /(^|\/)\.husky\/_$/.test(normalize(value).replace(/\/+$/, ""));
}

function packageJsonHasSimpleGitHooks(workTree: string): boolean {
  const text = readText(join(workTree, "package.json"));
  if (text === null) return false;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === "object" && parsed !== null && "simple-git-hooks" in parsed;
  } catch {
    return false;
  }
}

/**
 * Finds the manager in charge of pre-push, in this order: husky v9
 * (`core.hooksPath` ends in `.husky/_`); the manager whose hook file is
 * `<hooks dir>/pre-push`; when there is no pre-push hook, the manager
 * whose hook file is `pre-commit` or `commit-msg`, then the one whose
 * config file exists (lefthook, pre-commit, simple-git-hooks). A pre-push
 * hook that no manager wrote means `none` (ralph chains it). Never writes.
 */
export function detectHookManager(repo: Repo): ManagerDetection {
  const hooksDir = hooksDirOf(repo);
  const hooksPath = repo.config.get("core.hookspath");
  const prePush = readText(join(hooksDir, "pre-push"));
  if (isHuskyHooksPath(hooksPath)) {
    return { manager: "husky", evidence: `core.hooksPath=${hooksPath}`, hooksDir, hookInstalled: prePush !== null && /\/h"/.test(prePush) };
  }
  if (prePush !== null) {
    const owner = managerOfHookText(prePush);
    return owner
      ? { manager: owner, evidence: `${join(hooksDir, "pre-push")} is ${owner}'s`, hooksDir, hookInstalled: true }
      : { manager: "none", evidence: `${join(hooksDir, "pre-push")} is no manager's`, hooksDir, hookInstalled: false };
  }
  for (const hook of ["pre-commit", "commit-msg"]) {
    const text = readText(join(hooksDir, hook));
    const owner = text === null ? null : managerOfHookText(text);
    if (owner) return { manager: owner, evidence: `${join(hooksDir, hook)} is ${owner}'s`, hooksDir, hookInstalled: false };
  }
  const has = (names: string[]): string | undefined => names.find((name) => existsSync(join(repo.workTree, name)));
  const lefthook = has([...LEFTHOOK_CONFIGS, ...LEFTHOOK_OTHER_FORMATS]);
  if (lefthook) return { manager: "lefthook", evidence: `${lefthook} exists`, hooksDir, hookInstalled: false };
  const preCommit = has(PRE_COMMIT_CONFIGS);
  if (preCommit) return { manager: "pre-commit", evidence: `${preCommit} exists`, hooksDir, hookInstalled: false };
  const simple = has([...SIMPLE_GIT_HOOKS_JSON, ...SIMPLE_GIT_HOOKS_JS]) ?? (packageJsonHasSimpleGitHooks(repo.workTree) ? "package.json#simple-git-hooks" : undefined);
  if (simple) return { manager: "simple-git-hooks", evidence: `${simple} exists`, hooksDir, hookInstalled: false };
  return { manager: "none", evidence: "no hook manager found", hooksDir, hookInstalled: false };
}

/** `<common dir>/ralph/hooks/pre-push`: the script every manager entry runs. */
export function runnerPathOf(repo: Pick<Repository, "commonDir">): string {
  return join(repo.commonDir, "ralph", "hooks", "pre-push");
}

function recordPathOf(repo: Pick<Repository, "commonDir">): string {
  return join(repo.commonDir, "ralph", "hooks", "installed.json");
}

/** The line a manager's entry starts with: finds the runner in this clone, whatever machine. */
const LOOKUP = `ralph_hook="$(git rev-parse --git-common-dir)/ralph/hooks/pre-push"`;
const NOT_INSTALLED = `echo "ralph: pre-push: not checked: ralph is not installed in this clone (run: ralph install --git-hooks)" >&2`;

/** The first and last lines of ralph's block in a shell hook file (husky, simple-git-hooks). */
export const BLOCK_BEGIN = "# >>> ralph-managed pre-push guard ('ralph uninstall --git-hooks' removes it; keep it first: it reads git's ref lines and hands them on)";
export const BLOCK_END = "# <<< ralph-managed pre-push guard";

/**
 * ralph's block for a shell hook that git's stdin and arguments reach
 * (husky's `.husky/pre-push`, a simple-git-hooks command): it saves stdin,
 * runs the runner with it and the arguments, exits 1 when ralph refuses the
 * push, and otherwise reopens the saved stdin so the lines after it read
 * the same ref lines. Safe under `sh -e`.
 */
export function shellBlock(): string {
  return [
    BLOCK_BEGIN,
    `ralph_in=$(mktemp) && cat >"$ralph_in"`,
    LOOKUP,
    `if [ -x "$ralph_hook" ]; then "$ralph_hook" "$@" <"$ralph_in" || { rm -f "$ralph_in"; exit 1; }; else ${NOT_INSTALLED}; fi`,
    `exec <"$ralph_in"; rm -f "$ralph_in"`,
    BLOCK_END,
  ].join("\n");
}

/** The lefthook job's `run`: lefthook pastes `{1}` `{2}` (remote name and URL) into it unquoted, hence the single quotes. */
export function lefthookRun(): string {
  return `${LOOKUP}; if [ -x "$ralph_hook" ]; then "$ralph_hook" '{1}' '{2}'; else ${NOT_INSTALLED}; fi`;
}

/** The pre-commit hook's `entry` (split by shlex, run without a shell): the runner rebuilds the update line from PRE_COMMIT_*. */
export function preCommitEntry(): string {
  return `sh -c '${LOOKUP}; if [ -x "$ralph_hook" ]; then exec "$ralph_hook" --pre-commit-env; fi; ${NOT_INSTALLED}'`;
}

/** The job name (lefthook) and hook id (pre-commit) ralph registers. */
export const ENTRY_ID = "ralph-pre-push";

/** One file ralph changed: its bytes before (null: ralph created it) and after, and its mode before. */
interface FileEdit {
  path: string;
  before: string | null;
  after: string;
  mode: number | null;
}

interface InstallRecord {
  manager: HookManager;
  edits: FileEdit[];
}

function readRecord(repo: Pick<Repository, "commonDir">): InstallRecord | null {
  const text = readText(recordPathOf(repo));
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as InstallRecord;
    return Array.isArray(parsed.edits) ? parsed : null;
  } catch {
    return null;
  }
}

/** What {@link installThroughManager} did. */
export interface ManagerInstall {
  manager: HookManager;
  evidence: string;
  /** The config or hook file that now holds ralph's entry. */
  file: string;
  /** The runner script the entry calls. */
  runner: string;
  /** False when everything was already in place (nothing written). */
  changed: boolean;
  /** What the user must still do (the manager's install or re-run), one sentence each. */
  notes: string[];
}

/** Options of {@link installThroughManager}. */
export interface ManagerInstallOptions {
  /** lefthook: write `lefthook-local.yml` (not committed) instead of the shared config. */
  local?: boolean;
  /** pre-commit's version (`3.0.4`), to choose the stage name; null when unknown (the current name). */
  preCommitVersion?: string | null;
}

/** The sentences telling the user what the manager still needs before git runs ralph's entry. */
export function managerNotes(detection: ManagerDetection): string[] {
  if (detection.manager === "simple-git-hooks") return ["simple-git-hooks writes .git/hooks/pre-push only when it runs: run npx simple-git-hooks now (and after every change to its config)"];
  const staged = detection.manager === "pre-commit" ? ["pre-commit runs only when its config has no unstaged change: git add .pre-commit-config.yaml (commit it to guard the team's pushes too)"] : [];
  if (detection.hookInstalled) return staged;
  switch (detection.manager) {
    case "husky":
      return ["husky's own hook files are missing from .husky/_: run npx husky"];
    case "lefthook":
      return ["lefthook's pre-push hook is not installed: run npx lefthook install"];
    case "pre-commit":
      return ["pre-commit's pre-push hook is not installed: run pre-commit install --hook-type pre-push", ...staged];
    default:
      return [];
  }
}

/** `pre-push`, or `push` for pre-commit before 3.2 (which only knew that stage name). */
export function preCommitStage(version: string | null | undefined): string {
  const m = /^(\d+)\.(\d+)/.exec(version ?? "");
  if (!m) return "pre-push";
  const [major, minor] = [Number(m[1]), Number(m[2])];
  return major < 3 || (major === 3 && minor < 2) ? "push" : "pre-push";
}

/** The installed pre-commit's version (`pre-commit --version`, run with the run's environment `env`), or null when it is not on its PATH. */
export function findPreCommitVersion(cwd: string, env: Readonly<NodeJS.ProcessEnv>): string | null {
  const result = spawnSync("pre-commit", ["--version"], { cwd, env, encoding: "utf8", timeout: 20_000 });
  if (result.error || result.status !== 0) return null;
  return /(\d+\.\d+(?:\.\d+)?)/.exec(result.stdout)?.[1] ?? null;
}

async function loadYaml(): Promise<typeof import("yaml")> {
  const mod = await import("yaml");
  // Bundled as CommonJS, the named exports may only exist on `default` (as in src/config/load.ts).
  const cjs = mod as typeof import("yaml") & { default?: typeof import("yaml") };
  return typeof cjs.parseDocument === "function" ? cjs : (cjs.default as typeof import("yaml"));
}

/** The file's text with ralph's entry added (unchanged when it is there), for the manager's config format. */
type Editor = (text: string | null) => Promise<string>;

function prependBlock(text: string | null): string {
  const block = shellBlock();
  if (text === null || text.trim() === "") return `${block}\n`;
  const begin = text.indexOf(BLOCK_BEGIN);
  const end = begin === -1 ? -1 : text.indexOf(BLOCK_END, begin);
  // Installed before: the block is replaced where it stands (after a shebang), so a second install changes nothing.
  if (end !== -1) return `${text.slice(0, begin)}${block}${text.slice(end + BLOCK_END.length)}`;
  // A shebang stays the first line.
  if (text.startsWith("#!")) {
    const nl = text.indexOf("\n");
    const first = nl === -1 ? `${text}\n` : text.slice(0, nl + 1);
    return `${first}${block}\n${nl === -1 ? "" : text.slice(nl + 1)}`;
  }
  return `${block}\n${text}`;
}

/** The text without ralph's block (and the newline after it); unchanged when there is none. */
export function removeBlock(text: string): string {
  const begin = text.indexOf(BLOCK_BEGIN);
  if (begin === -1) return text;
  const endAt = text.indexOf(BLOCK_END, begin);
  if (endAt === -1) return text;
  let end = endAt + BLOCK_END.length;
  if (text[end] === "\n") end++;
  return text.slice(0, begin) + text.slice(end);
}

async function editLefthook(text: string | null): Promise<string> {
  const { parseDocument, isMap, isSeq, YAMLMap, YAMLSeq } = await loadYaml();
  const doc = parseDocument(text ?? "");
  if (doc.errors.length > 0) throw new RalphError("E_USAGE", `the lefthook config is not valid YAML (${doc.errors[0]?.message.split("\n")[0]}); fix it first, ralph will not overwrite it`);
  if (doc.contents === null) doc.contents = new YAMLMap() as never;
  if (!isMap(doc.contents)) throw new RalphError("E_USAGE", "the lefthook config is not a YAML mapping; fix it first");
  const job = { name: ENTRY_ID, run: lefthookRun(), use_stdin: true };
  const hook = doc.get("pre-push");
  if (!isMap(hook)) {
    doc.set("pre-push", doc.createNode({ jobs: [job] }));
    return doc.toString();
  }
  const commands = hook.get("commands");
  if (isMap(commands)) {
    // The older `commands:` map: ralph's command is one more key (lefthook runs them in file order).
    const existing = commands.get(ENTRY_ID, true);
    if (isMap(existing) && existing.get("run") === job.run && existing.get("use_stdin") === true) return text ?? doc.toString();
    commands.set(ENTRY_ID, doc.createNode({ run: job.run, use_stdin: true }));
    return doc.toString();
  }
  let jobs = hook.get("jobs");
  if (!isSeq(jobs)) {
    jobs = new YAMLSeq();
    hook.set("jobs", jobs);
  }
  const seq = jobs as InstanceType<typeof YAMLSeq>;
  const index = seq.items.findIndex((item) => isMap(item) && item.get("name") === ENTRY_ID);
  if (index !== -1) {
    const item = seq.items[index] as InstanceType<typeof YAMLMap>;
    if (item.get("run") === job.run && item.get("use_stdin") === true) return text ?? doc.toString();
    seq.items.splice(index, 1);
  }
  seq.items.unshift(doc.createNode(job));
  return doc.toString();
}

/** A node's source range as the yaml package records it: [start, value end, node end]. */
type Range = [number, number, number] | null | undefined;

/**
 * `text` without the whole lines from `start` to `end` (source offsets),
 * when those lines hold nothing else: only indentation or a sequence
 * dash before `start`, nothing but a comment after `end`. Null otherwise
 * (a flow collection on one line): the caller re-serialises instead.
 */
function spliceLines(text: string, start: number, end: number): string | null {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  if (!/^[ \t]*(?:-[ \t]+)*$/.test(text.slice(lineStart, start))) return null;
  // A block node's range ends after its last line's newline.
  const nl = text.indexOf("\n", text[end - 1] === "\n" ? end - 1 : end);
  const lineEnd = nl === -1 ? text.length : nl + 1;
  if (!/^[ \t]*(?:#.*)?\r?\n?$/.test(text.slice(end, lineEnd))) return null;
  return text.slice(0, lineStart) + text.slice(lineEnd);
}

/** The span of a map pair (key start to value end) or a node (start to value end), or null without ranges. */
function spanOf(first: { range?: Range } | null | undefined, last: { range?: Range } | null | undefined): [number, number] | null {
  const a = first?.range;
  const b = last?.range;
  return a && b ? [a[0], b[1]] : null;
}

/**
 * Removes ralph's lefthook job (or `commands:` entry) as text, so the rest
 * of the file keeps its bytes; `pre-push` goes too when ralph's entry was
 * all it held. Falls back to re-serialising when the entry is not on lines
 * of its own.
 */
async function removeLefthook(text: string): Promise<string> {
  const { parseDocument, isMap, isSeq, isPair, isScalar } = await loadYaml();
  const doc = parseDocument(text);
  if (!isMap(doc.contents)) return text;
  const hookPair = doc.contents.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === "pre-push");
  const hook = hookPair?.value;
  if (!hookPair || !isMap(hook)) return text;
  let span: [number, number] | null = null;
  const commands = hook.get("commands");
  const jobs = hook.get("jobs");
  if (isMap(commands)) {
    const pair = commands.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === ENTRY_ID);
    if (pair) span = commands.items.length === 1 && hook.items.length === 1 ? spanOf(hookPair.key as never, hook) : spanOf(pair.key as never, pair.value as never);
  }
  if (span === null && isSeq(jobs)) {
    const item = jobs.items.find((i) => isMap(i) && (i.get("name") as unknown) === ENTRY_ID);
    if (item) span = jobs.items.length === 1 && hook.items.length === 1 ? spanOf(hookPair.key as never, hook) : spanOf(item as never, item as never);
  }
  if (span === null) return text;
  const spliced = spliceLines(text, span[0], span[1]);
  if (spliced !== null) return spliced;
  if (isMap(commands)) commands.delete(ENTRY_ID);
  if (isSeq(jobs)) jobs.items = jobs.items.filter((i) => !(isMap(i) && (i.get("name") as unknown) === ENTRY_ID));
  return doc.toString();
}

/**
 * Removes ralph's pre-commit hook as text (the whole `repo: local` item
 * when ralph's hook was its only one), the rest of the file keeping its
 * bytes; re-serialises when that is not possible (flow style, or it would
 * leave `repos:` empty).
 */
async function removePreCommit(text: string): Promise<string> {
  const { parseDocument, isMap, isSeq } = await loadYaml();
  const doc = parseDocument(text);
  const repos = doc.get("repos");
  if (!isSeq(repos)) return text;
  for (const repo of repos.items) {
    if (!isMap(repo) || repo.get("repo") !== "local") continue;
    const hooks = repo.get("hooks");
    if (!isSeq(hooks)) continue;
    const item = hooks.items.find((i) => isMap(i) && i.get("id") === ENTRY_ID);
    if (!item) continue;
    const whole = hooks.items.length === 1;
    if (whole && repos.items.length === 1) break;
    const span = whole ? spanOf(repo as never, repo as never) : spanOf(item as never, item as never);
    const spliced = span ? spliceLines(text, span[0], span[1]) : null;
    if (spliced !== null) return spliced;
    break;
  }
  repos.items = repos.items.filter((repo) => {
    if (!isMap(repo) || repo.get("repo") !== "local") return true;
    const hooks = repo.get("hooks");
    if (!isSeq(hooks)) return true;
    hooks.items = hooks.items.filter((item) => !(isMap(item) && item.get("id") === ENTRY_ID));
    return hooks.items.length > 0;
  });
  return doc.toString();
}

function preCommitEditor(stage: string): Editor {
  return async (text) => {
    const { parseDocument, isMap, isSeq, YAMLMap } = await loadYaml();
    const doc = parseDocument(text ?? "");
    if (doc.errors.length > 0) throw new RalphError("E_USAGE", `the pre-commit config is not valid YAML (${doc.errors[0]?.message.split("\n")[0]}); fix it first, ralph will not overwrite it`);
    if (doc.contents === null) doc.contents = new YAMLMap() as never;
    if (!isMap(doc.contents)) throw new RalphError("E_USAGE", "the pre-commit config is not a YAML mapping; fix it first");
    const hook = { id: ENTRY_ID, name: "ralph pre-push guard", entry: preCommitEntry(), language: "system", stages: [stage], pass_filenames: false, always_run: true, verbose: true };
    let repos = doc.get("repos");
    if (!isSeq(repos)) {
      doc.set("repos", doc.createNode([]));
      repos = doc.get("repos");
    }
    const seq = repos as { items: unknown[] };
    for (const repo of seq.items) {
      if (!isMap(repo) || repo.get("repo") !== "local") continue;
      const hooks = repo.get("hooks");
      if (!isSeq(hooks)) continue;
      const index = hooks.items.findIndex((item) => isMap(item) && item.get("id") === ENTRY_ID);
      if (index === -1) continue;
      const current = (hooks.items[index] as { toJSON(): unknown }).toJSON();
      if (JSON.stringify(current) === JSON.stringify(hook)) return text ?? doc.toString();
      hooks.items[index] = doc.createNode(hook);
      return doc.toString();
    }
    // First, so it runs before hooks that may take long.
    seq.items.unshift(doc.createNode({ repo: "local", hooks: [hook] }));
    return doc.toString();
  };
}

function jsonIndentOf(text: string): string | number {
  const m = /^[{[]\r?\n([ \t]+)/.exec(text);
  return m ? (m[1] as string) : 2;
}

/** Adds ralph's block before the pre-push command in a simple-git-hooks JSON object (`key` null: the whole file is the config). */
function simpleGitHooksEditor(key: string | null, path: string): Editor {
  return async (text) => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text ?? "{}") as Record<string, unknown>;
    } catch (error) {
      throw new RalphError("E_USAGE", `${path} is not valid JSON (${(error as Error).message}); fix it first, ralph will not overwrite it`, { data: { path } });
    }
    const config = (key === null ? parsed : parsed[key]) as Record<string, unknown> | undefined;
    if (typeof config !== "object" || config === null || Array.isArray(config))
      throw new RalphError("E_USAGE", `${path}: the simple-git-hooks config is not an object; fix it first`, { data: { path } });
    const block = shellBlock();
    const current = typeof config["pre-push"] === "string" ? (config["pre-push"] as string) : null;
    if (current !== null && current.startsWith(`${block}\n`)) return text as string;
    const rest = current === null ? "" : removeBlock(current);
    config["pre-push"] = rest === "" ? block : `${block}\n${rest}`;
    const trailing = text !== null && text.endsWith("\n") ? "\n" : text === null ? "\n" : "";
    return `${JSON.stringify(parsed, null, text === null ? 2 : jsonIndentOf(text))}${trailing}`;
  };
}

function removeSimpleGitHooks(key: string | null, text: string): string {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const config = (key === null ? parsed : parsed[key]) as Record<string, unknown> | undefined;
  if (typeof config !== "object" || config === null || typeof config["pre-push"] !== "string") return text;
  const rest = removeBlock(config["pre-push"] as string).replace(/^\n/, "");
  if (rest === "") delete config["pre-push"];
  else config["pre-push"] = rest;
  return `${JSON.stringify(parsed, null, jsonIndentOf(text))}${text.endsWith("\n") ? "\n" : ""}`;
}

/** Where a manager's entry goes and how it is added. */
interface Target {
  path: string;
  add: Editor;
}

/** `text` (the file at `path`) without ralph's entry, for `manager`'s format. */
async function removeEntry(manager: HookManager, path: string, text: string): Promise<string> {
  switch (manager) {
    case "husky":
      return removeBlock(text);
    case "lefthook":
      return removeLefthook(text);
    case "pre-commit":
      return removePreCommit(text);
    case "simple-git-hooks":
      return removeSimpleGitHooks(basename(path) === "package.json" ? "simple-git-hooks" : null, text);
    case "none":
      return text;
  }
}

function targetFor(repo: Repo, detection: ManagerDetection, options: ManagerInstallOptions): Target {
  const work = (name: string): string => join(repo.workTree, name);
  switch (detection.manager) {
    case "husky": {
      // husky's h runs "$(dirname "$(dirname "$0")")/<hook>": the folder above .husky/_.
      const path = join(dirname(detection.hooksDir), "pre-push");
      return { path, add: async (text) => prependBlock(text) };
    }
    case "lefthook": {
      const other = LEFTHOOK_OTHER_FORMATS.find((name) => existsSync(work(name)));
      const main = LEFTHOOK_CONFIGS.find((name) => existsSync(work(name)));
      if (other && !main) {
        throw new RalphError("E_USAGE", `lefthook's config is ${other}, which ralph does not edit; add a pre-push job named ${ENTRY_ID} with use_stdin: true and run: ${lefthookRun()}`, {
          data: { path: work(other), run: lefthookRun() },
        });
      }
      const name = options.local ? (existsSync(work(".lefthook-local.yml")) ? ".lefthook-local.yml" : "lefthook-local.yml") : (main ?? "lefthook.yml");
      return { path: work(name), add: editLefthook };
    }
    case "pre-commit": {
      const name = PRE_COMMIT_CONFIGS.find((n) => existsSync(work(n))) ?? ".pre-commit-config.yaml";
      return { path: work(name), add: preCommitEditor(preCommitStage(options.preCommitVersion)) };
    }
    case "simple-git-hooks": {
      const js = SIMPLE_GIT_HOOKS_JS.find((n) => existsSync(work(n)));
      if (js) {
        throw new RalphError(
          "E_USAGE",
          `simple-git-hooks reads ${js}, which ralph does not edit (it is code); put these lines first in its "pre-push" command, then run npx simple-git-hooks:\n${shellBlock()}`,
          {
            data: { path: work(js), command: shellBlock() },
          },
        );
      }
      const json = SIMPLE_GIT_HOOKS_JSON.find((n) => existsSync(work(n)));
      if (json) return { path: work(json), add: simpleGitHooksEditor(null, work(json)) };
      const path = work("package.json");
      return { path, add: simpleGitHooksEditor("simple-git-hooks", path) };
    }
    case "none":
      throw new RalphError("E_INTERNAL", "targetFor: the unmanaged hook is written by git-hook-install.ts");
  }
}

function modeOf(path: string): number | null {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return null;
  }
}

function writeKeepingMode(path: string, text: string, mode: number | null): void {
  writeFileAtomic(path, text);
  if (mode !== null) chmodSync(path, mode);
}

/**
 * Registers ralph with the manager `detection` names (not `none`): writes
 * the runner for this machine's `nodePath` and `cliPath`, and adds ralph's
 * entry to the manager's file, keeping everything else in it. Idempotent:
 * a second run with the same paths writes nothing.
 * @throws RalphError E_USAGE when the manager's config cannot be edited (not
 *   valid JSON/YAML, or a format ralph does not write: the message names
 *   the entry to add by hand).
 */
export async function installThroughManager(repo: Repo, detection: ManagerDetection, nodePath: string, cliPath: string, options: ManagerInstallOptions = {}): Promise<ManagerInstall> {
  const target = targetFor(repo, detection, options);
  const runner = runnerPathOf(repo);
  const script = gitHookScript(nodePath, cliPath);
  let changed = false;
  if (readText(runner) !== script || (modeOf(runner) ?? 0) !== 0o755) {
    writeKeepingMode(runner, script, 0o755);
    changed = true;
  }
  const before = readText(target.path);
  const after = await target.add(before);
  const record = readRecord(repo) ?? { manager: detection.manager, edits: [] };
  if (after !== before) {
    writeKeepingMode(target.path, after, modeOf(target.path));
    changed = true;
    const earlier = record.edits.find((e) => e.path === target.path);
    // A file edited again keeps its first "before": uninstall goes back to what the user had.
    if (earlier) earlier.after = after;
    else record.edits.push({ path: target.path, before, after, mode: before === null ? null : modeOf(target.path) });
    record.manager = detection.manager;
    writeFileAtomic(recordPathOf(repo), `${JSON.stringify(record, null, 2)}\n`);
  }
  return { manager: detection.manager, evidence: detection.evidence, file: target.path, runner, changed, notes: managerNotes(detection) };
}

/** What {@link uninstallThroughManager} did. */
export interface ManagerRemoval {
  manager: HookManager | null;
  /** Files put back as they were before install (or deleted, when ralph created them). */
  restored: string[];
  /** Files edited since install, from which only ralph's entry was removed. */
  edited: string[];
  /** Whether the runner script was removed. */
  removedRunner: boolean;
}

/**
 * Removes what {@link installThroughManager} added: each recorded file goes
 * back to its exact bytes (and mode) from before, or is deleted when ralph
 * created it, if nobody changed it since; a file changed since only loses
 * ralph's entry. Then the runner and the record go. A repository without a
 * record is left alone.
 */
export async function uninstallThroughManager(repo: Repo): Promise<ManagerRemoval> {
  const record = readRecord(repo);
  const runner = runnerPathOf(repo);
  const removedRunner = existsSync(runner);
  if (record === null) {
    rmSync(runner, { force: true });
    return { manager: null, restored: [], edited: [], removedRunner };
  }
  const restored: string[] = [];
  const edited: string[] = [];
  for (const edit of record.edits) {
    const current = readText(edit.path);
    if (current === null) continue;
    if (current === edit.after) {
      if (edit.before === null) rmSync(edit.path, { force: true });
      else writeKeepingMode(edit.path, edit.before, edit.mode);
      restored.push(edit.path);
      continue;
    }
    const without = await removeEntry(record.manager, edit.path, current);
    if (without !== current) {
      writeKeepingMode(edit.path, without, modeOf(edit.path));
      edited.push(edit.path);
    }
  }
  rmSync(runner, { force: true });
  rmSync(recordPathOf(repo), { force: true });
  return { manager: record.manager, restored, edited, removedRunner };
}

/** ralph's entry as registered in the manager's file, or null when the file does not hold it. */
export function registeredEntry(repo: Repo, detection: ManagerDetection): { file: string; command: string } | null {
  if (detection.manager === "none") return null;
  let target: Target;
  try {
    target = targetFor(repo, detection, {});
  } catch {
    return null;
  }
  const candidates = detection.manager === "lefthook" ? [target.path, join(repo.workTree, "lefthook-local.yml"), join(repo.workTree, ".lefthook-local.yml")] : [target.path];
  const needle = detection.manager === "lefthook" ? "ralph/hooks/pre-push" : detection.manager === "pre-commit" ? ENTRY_ID : BLOCK_BEGIN;
  for (const file of candidates) {
    const text = readText(file);
    if (text !== null && text.includes(needle)) {
      const command = detection.manager === "lefthook" ? lefthookRun() : detection.manager === "pre-commit" ? preCommitEntry() : shellBlock();
      return { file, command };
    }
  }
  return null;
}
