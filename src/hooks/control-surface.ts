/**
 * ralph's control surface: the files and refs that decide whether ralph
 * runs at all and how it judges, so an agent changing them switches its own
 * guard off (issue 10, "The agent cannot switch its guard off"):
 *
 * - the agent settings files `.claude/settings.json` and
 *   `.claude/settings.local.json` (ralph's hook entries, and
 *   `disableAllHooks`, which Claude Code reads from either: hooks
 *   reference, "Disable or remove hooks"), and Codex's `.codex/hooks.json`,
 *   Gemini's `.gemini/settings.json`, Cursor's `.cursor/hooks.json`
 *   (ralph's entries: docs/agents.md);
 * - the git hooks that run ralph (`<hooks dir>/pre-push` and the hook it
 *   chains, `pre-push.ralph-chained`) and git's own config file, which holds
 *   `core.hooksPath`;
 * - ralph's config and state: `aiwg.yml`/`aiwg.yaml`, `.aiwg/ralph/`,
 *   `.git/ralph/` and the loop refs `refs/ralph/` (loose refs under
 *   `.git/refs/ralph/`, and `packed-refs`);
 * - the hook managers' files ralph registers its pre-push entry in
 *   (src/hooks/git-hook-managers.ts): husky's `.husky/pre-push` and its
 *   generated `.husky/_` folder, lefthook's configs (`lefthook.yml`,
 *   `lefthook-local.yml`, `.yaml` and dot-prefixed variants, under
 *   `.config/` too: lefthook.dev, "Configuration"), `.pre-commit-config.yaml`
 *   (`.yml`), simple-git-hooks' config (`package.json` key
 *   `simple-git-hooks`, `.simple-git-hooks.json|.cjs|.js|.mjs` and the names
 *   without the dot). Only ralph's entry in them matters: a file that does
 *   not hold it is no part of the surface, and an edit that keeps it is no
 *   change (src/hooks/hook-manager-entries.ts).
 *
 * Paths are repository-relative and `/`-separated (src/hooks/paths.ts). A
 * settings file is judged on its content ({@link describeSettingsChange}):
 * a write that keeps ralph's entries and adds no `disableAllHooks` is not a
 * change to the surface. Cheap: no parser is loaded.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { installedRalphCommands, type Settings } from "./claude-settings.js";

/** What part of the surface a path is. */
export type ControlKind = "agent-settings" | "git-hook" | "hook-manager" | "git-config" | "ralph-config" | "ralph-state" | "ralph-store" | "ralph-refs";

/** Options of {@link controlKindOf}. */
export interface ControlSurfaceOptions {
  /** The repository-relative hooks folder when `core.hooksPath` points inside the work tree (e.g. `.husky`), else null. */
  hooksDir?: string | null;
  /**
   * The work tree, absolute. Given, a hook manager's file counts only while
   * it holds ralph's entry (read from disk now), and `.husky/_` only while
   * `.husky/pre-push` does; not given, they count by their path alone.
   */
  workTree?: string;
}

const clean = (path: string): string =>
  path
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/\/+$/, "");

/** The text every pre-push entry ralph registers with a hook manager holds: the runner it looks up (src/hooks/git-hook-managers.ts). */
export const RALPH_ENTRY_MARK = "/ralph/hooks/pre-push";

/** True when `text` (a file's content, null: no file) holds ralph's hook-manager entry. A substring test, no parser. */
export function holdsRalphEntry(text: string | null): boolean {
  return text !== null && text.includes(RALPH_ENTRY_MARK);
}

/** The hook managers' files ralph may register in, repository-relative (see the module doc). */
export const HOOK_MANAGER_FILES: readonly string[] = [
  ".husky/pre-push",
  ...["lefthook", "lefthook-local"].flatMap((stem) => ["yml", "yaml"].flatMap((ext) => [`${stem}.${ext}`, `.${stem}.${ext}`, `.config/${stem}.${ext}`])),
  ".pre-commit-config.yaml",
  ".pre-commit-config.yml",
  "package.json",
  ...["json", "cjs", "js", "mjs"].flatMap((ext) => [`.simple-git-hooks.${ext}`, `simple-git-hooks.${ext}`]),
];
const MANAGER_FILES = new Set(HOOK_MANAGER_FILES);
/** lefthook's shared configs, which its local files are merged over. */
const LEFTHOOK_SHARED = HOOK_MANAGER_FILES.filter((f) => /(^|\/)\.?lefthook\.ya?ml$/.test(f));

/** husky v9's generated folder (`core.hooksPath`): its `h` runs `.husky/pre-push`, so editing it reaches ralph's entry there. */
const HUSKY_GENERATED = ".husky/_";

function readWorkTreeFile(workTree: string, rel: string): string | null {
  try {
    return readFileSync(join(workTree, rel), "utf8");
  } catch {
    return null;
  }
}

/** True when ralph's entry is in the manager file `rel` now (always true when no work tree is given: judged by path). */
function entryHeld(rel: string, options: ControlSurfaceOptions): boolean {
  return options.workTree === undefined || holdsRalphEntry(readWorkTreeFile(options.workTree, rel));
}

/** The agents' settings files ralph installs into: Claude Code's two, Codex's, Gemini's, Cursor's (src/hooks/agent-settings.ts). */
const AGENT_SETTINGS = /^\.(claude\/settings(\.local)?|codex\/hooks|gemini\/settings|cursor\/hooks)\.json$/;

/**
 * The part of ralph's control surface `path` is, or null. `path` is
 * repository-relative (a path inside a linked worktree's git dir is given as
 * `.git/…` by the caller).
 */
export function controlKindOf(path: string, options: ControlSurfaceOptions = {}): ControlKind | null {
  const p = clean(path);
  if (AGENT_SETTINGS.test(p)) return "agent-settings";
  const hooksDir = options.hooksDir ? clean(options.hooksDir) : null;
  if (/^\.git\/hooks\/pre-push(\.ralph-chained)?$/.test(p)) return "git-hook";
  if (hooksDir && (p === `${hooksDir}/pre-push` || p === `${hooksDir}/pre-push.ralph-chained`)) return "git-hook";
  if (p === ".git/config" || p === ".git/config.worktree") return "git-config";
  if (MANAGER_FILES.has(p)) {
    // A lefthook local file can override the shared config's job by name: it counts while either holds ralph's entry.
    const local = /(^|\/)\.?lefthook-local\.ya?ml$/.test(p);
    const held = entryHeld(p, options) || (local && LEFTHOOK_SHARED.some((shared) => options.workTree !== undefined && entryHeld(shared, options)));
    return held ? "hook-manager" : null;
  }
  if (p === HUSKY_GENERATED || p.startsWith(`${HUSKY_GENERATED}/`)) return entryHeld(".husky/pre-push", options) ? "git-hook" : null;
  if (/^\.git\/ralph(\/|$)/.test(p)) return "ralph-store";
  if (/^\.git\/refs\/ralph(\/|$)/.test(p) || p === ".git/packed-refs" || /^\.git\/logs\/refs\/ralph(\/|$)/.test(p)) return "ralph-refs";
  const name = p.slice(p.lastIndexOf("/") + 1);
  if (name === "aiwg.yml" || name === "aiwg.yaml") return "ralph-config";
  if (/(^|\/)\.aiwg\/ralph(\/|$)/.test(p)) return "ralph-state";
  return null;
}

/**
 * True when `path` is a folder that holds part of the surface, so deleting,
 * moving or changing the mode of it (recursively) reaches the surface:
 * `.claude` (and `.codex`, `.gemini`, `.cursor`), `.git`, `.git/hooks`, `.git/refs`, `.aiwg`, the configured
 * hooks folder. The work tree root itself (`.`, ``) is not counted: a
 * recursive delete of everything is its own risk (recursive_delete).
 */
export function holdsControlSurface(path: string, options: ControlSurfaceOptions = {}): boolean {
  const p = clean(path);
  if (p === "" || p === ".") return false;
  const hooksDir = options.hooksDir ? clean(options.hooksDir) : null;
  const folders = [".claude", ".codex", ".gemini", ".cursor", ".git", ".git/hooks", ".git/refs", ".git/logs", ".git/logs/refs", ".aiwg", ...(hooksDir ? [hooksDir] : [])];
  if (folders.some((folder) => p === folder || p.endsWith(`/${folder}`)) || controlKindOf(p, options) !== null) return true;
  // `.husky`, `.config`: a folder holding a hook manager's file that holds ralph's entry.
  return [...HOOK_MANAGER_FILES, HUSKY_GENERATED].some((file) => file.startsWith(`${p}/`) && controlKindOf(file, options) !== null);
}

/** A person's words for a part of the surface. */
export function describeControlKind(kind: ControlKind): string {
  switch (kind) {
    case "agent-settings":
      return "the agent settings that run ralph's hooks";
    case "git-hook":
      return "the git hook that runs ralph";
    case "hook-manager":
      return "the hook manager's file holding ralph's pre-push entry";
    case "git-config":
      return "git's config (core.hooksPath decides which hooks run)";
    case "ralph-config":
      return "ralph's config";
    case "ralph-state":
      return "the loop's state";
    case "ralph-store":
      return "ralph's private store under .git/ralph";
    case "ralph-refs":
      return "the loop's checkpoint refs";
  }
}

/** Parses settings text; null when it is not a JSON object (Claude Code then ignores the file, ralph's hooks with it). */
function parseSettings(text: string | null): Settings | null | "absent" {
  if (text === null) return "absent";
  if (text.trim() === "") return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Settings) : null;
  } catch {
    return null;
  }
}

/**
 * What a change of a settings file's content would do to ralph's guard, or
 * null when it keeps it: ralph's hook entries (by event and command) removed
 * or rewritten, a switch that turns them off set ({@link hooksSwitchedOff}:
 * `disableAllHooks`, Gemini's `hooks.disabled`…), the file made unreadable while
 * it held ralph's entries. `before`/`after` are the file's text (null: no
 * file). Adding an unrelated permission, hook or key is no change.
 * @returns one line, e.g. `removes ralph's Stop, PreToolUse hooks; sets "disableAllHooks": true`.
 */
export function describeSettingsChange(before: string | null, after: string | null): string | null {
  const old = parseSettings(before);
  const next = parseSettings(after);
  const oldCommands = typeof old === "object" && old !== null ? installedRalphCommands(old) : new Map<string, string>();
  const parts: string[] = [];
  if (next === null) {
    if (oldCommands.size > 0) parts.push(`makes the file invalid JSON, so Claude Code drops ralph's ${[...oldCommands.keys()].join(", ")} hooks`);
    return parts.length > 0 ? parts.join("; ") : null;
  }
  const nextCommands = next === "absent" ? new Map<string, string>() : installedRalphCommands(next);
  const removed = [...oldCommands.keys()].filter((event) => !nextCommands.has(event));
  const rewritten = [...oldCommands.keys()].filter((event) => nextCommands.has(event) && nextCommands.get(event) !== oldCommands.get(event));
  if (next === "absent" && oldCommands.size > 0) parts.push(`deletes the file with ralph's ${removed.join(", ")} hooks`);
  else if (removed.length > 0) parts.push(`removes ralph's ${removed.join(", ")} hook${removed.length === 1 ? "" : "s"}`);
  if (rewritten.length > 0) parts.push(`rewrites ralph's ${rewritten.join(", ")} hook command${rewritten.length === 1 ? "" : "s"}`);
  const wasOff = typeof old === "object" && old !== null ? hooksSwitchedOff(old) : [];
  const isOff = typeof next === "object" ? hooksSwitchedOff(next) : [];
  for (const off of isOff) if (!wasOff.includes(off)) parts.push(`sets ${off}`);
  return parts.length > 0 ? parts.join("; ") : null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The settings in an agent's settings object that switch ralph's hooks off
 * while its entries stay: Claude Code's `disableAllHooks: true` (hooks
 * reference, "Disable or remove hooks"); Gemini CLI's `tools.enableHooks:
 * false`, `hooks.enabled: false`, and ralph's entry names (`ralph-<Event>`)
 * in `hooks.disabled` (docs/hooks/index.md, "Managing hooks").
 * @returns one phrase per switch, e.g. `"disableAllHooks": true, which turns every hook off, ralph's included`.
 */
export function hooksSwitchedOff(settings: Settings): string[] {
  const out: string[] = [];
  if (settings.disableAllHooks === true) out.push('"disableAllHooks": true, which turns every hook off, ralph\'s included');
  const tools = settings.tools;
  const hooks = settings.hooks;
  if (isPlainObject(tools) && tools.enableHooks === false) out.push('"tools.enableHooks": false, which turns Gemini CLI\'s hooks system off');
  if (isPlainObject(hooks) && hooks.enabled === false) out.push('"hooks.enabled": false, which turns Gemini CLI\'s hooks off');
  if (isPlainObject(hooks) && Array.isArray(hooks.disabled)) {
    const names = hooks.disabled.filter((n): n is string => typeof n === "string" && n.startsWith("ralph-")).sort();
    if (names.length > 0) out.push(`"hooks.disabled" naming ${names.join(", ")}, which Gemini CLI then skips`);
  }
  return out;
}
