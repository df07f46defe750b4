/**
 * Noticing after the fact that ralph's guard was changed behind its back
 * (issue 10, "The agent cannot switch its guard off"). PreToolUse puts every
 * tool call that would change ralph's control surface to the human, but an
 * agent can still run a script it wrote earlier; so ralph records what it
 * installed and wrote, and every hook call, `ralph status` and `ralph doctor`
 * compares:
 *
 * - ralph's entries in `.claude/settings.json` and `.claude/settings.local.json`
 *   (event -> command) and their `disableAllHooks`;
 * - the git pre-push hook ralph installed (sha256 of its bytes, whether it is
 *   executable) and `core.hooksPath`;
 * - the hook managers' files that hold ralph's pre-push entry (husky,
 *   lefthook, pre-commit, simple-git-hooks: control-surface.ts
 *   HOOK_MANAGER_FILES), their text kept so that only a change to ralph's
 *   entry counts (hook-manager-entries.ts), and, beside a lefthook config
 *   holding it, the lefthook local files that could override it;
 * - each loop's `state.json` and the active mark against ralph's copies
 *   (src/loop/guard-copy.ts, written with every state write).
 *
 * The record is `<git dir>/ralph/guard/record.json`; a repository without
 * one is recorded as it is on the first check (nothing to compare yet).
 * Differences found go to `<git dir>/ralph/guard/pending.json` and stay
 * there, reported on every check, until the user runs `ralph confirm`
 * (accept the files as they are now) or `ralph confirm --restore` (write the
 * loop state and active mark back from the copies); meanwhile a Stop does
 * not count the loop as completed. A change the user allowed when
 * PreToolUse asked is accepted when its PostToolUse arrives
 * ({@link rememberAsked}, {@link acceptAsked}).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";
import { activeCopyPath, guardDir, listStateCopies, readCopy, stateCopyPath } from "../loop/guard-copy.js";
import { listLoopIds, stateFilePath, stateLockPath, statePaths, writeFileAtomic } from "../loop/state.js";
import { withLock } from "../store/lock.js";
import type { LoopId } from "../store/loop-id.js";
import type { Repository } from "../store/repo.js";
import { installedRalphCommands, type Settings } from "./claude-settings.js";
import { describeSettingsChange, holdsRalphEntry, HOOK_MANAGER_FILES, type ControlKind } from "./control-surface.js";
import { describeHookManagerChange, isLefthookLocal } from "./hook-manager-entries.js";
import { hooksDirOf, isExecutable, isRalphGitHook } from "./git-hook-install.js";

/** One difference between what ralph recorded and what is there now. */
export interface GuardChange {
  part: ControlKind;
  /** Repository-relative path (or the git config key) of what changed. */
  path: string;
  /** What changed, for a person: `removes ralph's Stop hook`, `status: running -> completed`. */
  detail: string;
}

/** What a check found: every change waiting for the user's confirmation (none: an empty list). */
export interface GuardReport {
  changes: GuardChange[];
  /** When the first of them was found (ISO 8601), or null. */
  detectedAt: string | null;
  /** True when this check found a change not pending before. */
  fresh: boolean;
}

/** The settings files ralph installs into, repository-relative (Claude Code's, and Codex's, Gemini's and Cursor's: src/hooks/agent-settings.ts). */
const SETTINGS_FILES = [".claude/settings.json", ".claude/settings.local.json", ".codex/hooks.json", ".gemini/settings.json", ".cursor/hooks.json"] as const;

interface GitHookRecord {
  /** `core.hooksPath` as configured, or null. */
  hooks_path: string | null;
  /** Absolute path of the pre-push hook git runs. */
  path: string;
  /** sha256 of ralph's hook script, or null when ralph's hook was not installed. */
  sha256: string | null;
  executable: boolean;
}

interface Record_ {
  version: 1;
  recorded_at: string;
  /** Per settings file: ralph's view of it (its entries and disableAllHooks) as settings JSON, or null when the file did not exist. */
  settings: Record<string, string | null>;
  git_hook: GitHookRecord;
  /**
   * Per hook manager's file holding ralph's entry when recorded (and, beside a lefthook config holding it, each
   * lefthook local file): its text, or null for a local file that did not exist. Absent in records written before
   * ralph watched these files: filled in on the next check, nothing reported.
   */
  managers?: Record<string, string | null>;
  /** Loops whose state the user accepted as gone (a copy is kept to restore from). */
  loops_gone: string[];
}

const recordPath = (repo: Pick<Repository, "ralphDir">): string => join(guardDir(repo.ralphDir), "record.json");
const pendingPath = (repo: Pick<Repository, "ralphDir">): string => join(guardDir(repo.ralphDir), "pending.json");
const askedPath = (repo: Pick<Repository, "ralphDir">, toolUseId: string): string => join(guardDir(repo.ralphDir), "asked", `${toolUseId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 120)}`);

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR", "EISDIR")) return null;
    throw error;
  }
}

function readJson<T>(path: string): T | null {
  const text = readText(path);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

const writeJson = (path: string, value: unknown): void => writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, { durable: false });

/** ralph's view of a settings file: its entries and `disableAllHooks`, as settings JSON text; null when there is no file. */
function settingsView(text: string | null): string | null {
  if (text === null) return null;
  let parsed: unknown;
  try {
    parsed = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return "{}";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "{}";
  const settings = parsed as Settings;
  const commands = installedRalphCommands(settings);
  const hooks: Record<string, unknown> = {};
  for (const [event, command] of [...commands].sort(([a], [b]) => a.localeCompare(b))) hooks[event] = [{ hooks: [{ type: "command", command }] }];
  // The switches that turn ralph's hooks off while its entries stay (control-surface.ts hooksSwitchedOff), kept as they are.
  const given = (settings.hooks ?? {}) as Record<string, unknown>;
  if (given.enabled === false) hooks.enabled = false;
  if (Array.isArray(given.disabled)) {
    const names = given.disabled.filter((n): n is string => typeof n === "string" && n.startsWith("ralph-")).sort();
    if (names.length > 0) hooks.disabled = names;
  }
  const tools = settings.tools as Record<string, unknown> | undefined;
  return JSON.stringify({
    hooks,
    ...(settings.disableAllHooks === true ? { disableAllHooks: true } : {}),
    ...(typeof tools === "object" && tools !== null && tools.enableHooks === false ? { tools: { enableHooks: false } } : {}),
  });
}

function gitHookNow(repo: Pick<Repository, "workTree" | "commonDir" | "config" | "env">): GitHookRecord {
  const path = join(hooksDirOf(repo), "pre-push");
  const text = readText(path);
  const isRalph = text !== null && isRalphGitHook(text);
  return {
    hooks_path: repo.config.get("core.hookspath") ?? null,
    path,
    sha256: isRalph ? createHash("sha256").update(text).digest("hex") : null,
    executable: isRalph && isExecutable(path),
  };
}

/** The hook managers' files to watch now: those holding ralph's entry, plus the lefthook local files beside a lefthook config that does. */
function managersNow(repo: Pick<Repository, "workTree">): Record<string, string | null> {
  const managers: Record<string, string | null> = {};
  const texts = new Map(HOOK_MANAGER_FILES.map((file) => [file, readText(join(repo.workTree, file))] as const));
  for (const [file, text] of texts) if (holdsRalphEntry(text) && !isLefthookLocal(file)) managers[file] = text;
  if (Object.keys(managers).some((file) => /lefthook/.test(file))) {
    for (const [file, text] of texts) if (isLefthookLocal(file)) managers[file] = text;
  }
  return managers;
}

/**
 * The control surface as it is now, as a record. `withManagers: false` leaves out the hook managers' files (about
 * fifteen reads), for a check that compares only the files its record names.
 */
function currentRecord(repo: Repository, loopsGone: string[], withManagers = true): Record_ {
  const settings: Record<string, string | null> = {};
  for (const file of SETTINGS_FILES) settings[file] = settingsView(readText(join(repo.workTree, file)));
  return { version: 1, recorded_at: new Date().toISOString(), settings, git_hook: gitHookNow(repo), ...(withManagers ? { managers: managersNow(repo) } : {}), loops_gone: loopsGone };
}

/** Top-level keys whose values differ between two state texts, as `key: old -> new` for short values. */
function stateDifference(copy: string, now: string): string {
  let a: Record<string, unknown>;
  let b: Record<string, unknown>;
  try {
    a = JSON.parse(copy) as Record<string, unknown>;
    b = JSON.parse(now) as Record<string, unknown>;
  } catch {
    return "its content is no longer what ralph wrote (not valid JSON)";
  }
  if (typeof b !== "object" || b === null) return "its content is no longer what ralph wrote";
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  const shown = keys.slice(0, 4).map((k) => {
    const [x, y] = [JSON.stringify(a[k] ?? null), JSON.stringify(b[k] ?? null)];
    return x.length + y.length <= 80 ? `${k}: ${x} -> ${y}` : k;
  });
  return `changed outside ralph (${shown.join("; ")}${keys.length > 4 ? `; ${keys.length - 4} more` : ""})`;
}

/** The loops' state and the active mark against ralph's copies; a state without a copy gets one (nothing to compare yet). */
function stateChanges(repo: Repository, loopsGone: ReadonlySet<string>): GuardChange[] {
  const changes: GuardChange[] = [];
  const loops = new Set<LoopId>([...listLoopIds(repo.workTree), ...listStateCopies(repo.ralphDir)]);
  for (const loop of loops) {
    const statePath = stateFilePath(repo.workTree, loop);
    const rel = `.aiwg/ralph/loops/${loop}/state.json`;
    const copyPath = stateCopyPath(repo.ralphDir, loop);
    let now = readText(statePath);
    let copy = readCopy(copyPath);
    if (copy === null) {
      if (now !== null) writeFileAtomic(copyPath, now, { durable: false });
      continue;
    }
    if (now === null) {
      if (!loopsGone.has(loop)) changes.push({ part: "ralph-state", path: rel, detail: `the state of loop ${loop} was deleted (ralph keeps a copy to restore)` });
      continue;
    }
    if (now === copy) continue;
    // A state write in progress (state written, copy not yet): compare again under the loop's lock.
    try {
      [now, copy] = withLock(stateLockPath(repo.workTree, loop), () => [readText(statePath), readCopy(copyPath)] as const, { timeoutMs: 2_000 });
    } catch {
      /* the lock is held: compare what was read */
    }
    if (now !== null && copy !== null && now !== copy) changes.push({ part: "ralph-state", path: rel, detail: `the state of loop ${loop} was ${stateDifference(copy, now)}` });
  }
  const activeCopy = readCopy(activeCopyPath(repo.ralphDir));
  const activeNow = readText(statePaths(repo.workTree).active) ?? "";
  if (activeCopy === null) {
    if (activeNow !== "") writeFileAtomic(activeCopyPath(repo.ralphDir), activeNow, { durable: false });
  } else if (activeCopy.trim() !== activeNow.trim()) {
    changes.push({ part: "ralph-state", path: ".aiwg/ralph/active", detail: `the active loop mark was changed outside ralph (${activeCopy.trim() || "none"} -> ${activeNow.trim() || "none"})` });
  }
  return changes;
}

/** Differences in ralph's entries of the hook managers' files recorded (a removed, rewritten or skipped entry; see hook-manager-entries.ts). */
async function managerChanges(repo: Pick<Repository, "workTree">, recorded: Record_): Promise<GuardChange[]> {
  const changes: GuardChange[] = [];
  for (const [file, text] of Object.entries(recorded.managers ?? {})) {
    const detail = await describeHookManagerChange(file, text, readText(join(repo.workTree, file)));
    if (detail) changes.push({ part: "hook-manager", path: file, detail });
  }
  return changes;
}

/** Differences of the hooks part (settings entries, git hook) between a record and now. */
function hookChanges(recorded: Record_, now: Record_): GuardChange[] {
  const changes: GuardChange[] = [];
  for (const file of SETTINGS_FILES) {
    const before = recorded.settings[file] ?? null;
    const after = now.settings[file] ?? null;
    const detail = describeSettingsChange(before, after);
    if (detail) changes.push({ part: "agent-settings", path: file, detail: detail.replace(/^makes the file invalid JSON/, "the file is no longer valid JSON") });
  }
  const hook = recorded.git_hook;
  if (hook.sha256 !== null) {
    const at = now.git_hook;
    if (hook.hooks_path !== at.hooks_path) {
      changes.push({
        part: "git-config",
        path: "core.hooksPath",
        detail: `core.hooksPath changed (${hook.hooks_path ?? "unset"} -> ${at.hooks_path ?? "unset"}): git no longer runs the pre-push hook ralph installed at ${hook.path}`,
      });
    } else if (at.sha256 === null) {
      changes.push({ part: "git-hook", path: hook.path, detail: "the pre-push hook ralph installed was removed or replaced" });
    } else if (at.sha256 !== hook.sha256) {
      changes.push({ part: "git-hook", path: hook.path, detail: "the pre-push hook ralph installed was edited" });
    } else if (hook.executable && !at.executable) {
      changes.push({ part: "git-hook", path: hook.path, detail: "the pre-push hook ralph installed is no longer executable, so git skips it" });
    }
  }
  return changes;
}

const changeKey = (c: GuardChange): string => `${c.part}\u0000${c.path}\u0000${c.detail}`;

interface Pending {
  detected_at: string;
  changes: GuardChange[];
}

/**
 * Compares the control surface with ralph's record and copies. New
 * differences are added to the pending list; the report holds every pending
 * change (reported until `ralph confirm`). A repository never recorded is
 * recorded now. Never throws for unreadable files (they count as changed);
 * rejects only when `.git/ralph` cannot be written.
 */
export async function checkGuard(repo: Repository): Promise<GuardReport> {
  const recorded = readJson<Record_>(recordPath(repo));
  const pending = readJson<Pending>(pendingPath(repo));
  const isRecorded = recorded !== null && recorded.version === 1;
  // Every hook call checks: the managers' files are read only through the record's own list (managerChanges).
  const now = currentRecord(repo, recorded?.loops_gone ?? [], false);
  if (!isRecorded || recorded.managers === undefined) {
    // Never recorded, or recorded before the managers' files were watched: record them as they are, report nothing of them.
    mkdirSync(guardDir(repo.ralphDir), { recursive: true });
    const managers = managersNow(repo);
    writeJson(recordPath(repo), isRecorded ? { ...recorded, managers } : { ...now, managers });
  }
  const found = [...(isRecorded ? [...hookChanges(recorded, now), ...(await managerChanges(repo, recorded))] : []), ...stateChanges(repo, new Set(recorded?.loops_gone ?? []))];
  const known = new Set((pending?.changes ?? []).map(changeKey));
  const fresh = found.filter((c) => !known.has(changeKey(c)));
  if (fresh.length === 0) return { changes: pending?.changes ?? [], detectedAt: pending?.detected_at ?? null, fresh: false };
  const next: Pending = { detected_at: pending?.detected_at ?? new Date().toISOString(), changes: [...(pending?.changes ?? []), ...fresh] };
  writeJson(pendingPath(repo), next);
  return { changes: next.changes, detectedAt: next.detected_at, fresh: true };
}

/**
 * Records the hooks part as it is now (after `ralph install` or
 * `ralph uninstall`, which the user ran): ralph's settings entries, the git
 * hook, core.hooksPath. Pending changes stay pending.
 */
export function recordInstalledHooks(repo: Repository): void {
  const recorded = readJson<Record_>(recordPath(repo));
  mkdirSync(guardDir(repo.ralphDir), { recursive: true });
  writeJson(recordPath(repo), currentRecord(repo, recorded?.loops_gone ?? []));
}

/** What {@link confirmGuard} did. */
export interface GuardConfirmation {
  /** The changes that were pending. */
  changes: GuardChange[];
  /** Repository-relative paths written back from ralph's copies (`restore` only). */
  restored: string[];
}

/**
 * The user's answer to pending changes. `restore: false` accepts the files
 * as they are now as ralph's new record (a deleted state stays deleted, its
 * copy kept); `restore: true` first writes every loop's state and the
 * active mark back from ralph's copies (ralph's hooks are put back by
 * `ralph install`, which the message names). Clears the pending list.
 */
export function confirmGuard(repo: Repository, options: { restore: boolean }): GuardConfirmation {
  const pending = readJson<Pending>(pendingPath(repo));
  const restored: string[] = [];
  const gone: string[] = [];
  for (const loop of listStateCopies(repo.ralphDir)) {
    const copy = readCopy(stateCopyPath(repo.ralphDir, loop));
    const statePath = stateFilePath(repo.workTree, loop);
    const now = readText(statePath);
    if (copy === null || now === copy) continue;
    if (options.restore) {
      writeFileAtomic(statePath, copy);
      restored.push(`.aiwg/ralph/loops/${loop}/state.json`);
    } else if (now === null) gone.push(loop);
    else writeFileAtomic(stateCopyPath(repo.ralphDir, loop), now, { durable: false });
  }
  const activeCopy = readCopy(activeCopyPath(repo.ralphDir));
  const activePath = statePaths(repo.workTree).active;
  const activeNow = readText(activePath) ?? "";
  if (activeCopy !== null && activeCopy.trim() !== activeNow.trim()) {
    if (options.restore) {
      if (activeCopy.trim() === "") rmSync(activePath, { force: true });
      else writeFileAtomic(activePath, activeCopy);
      restored.push(".aiwg/ralph/active");
    } else writeFileAtomic(activeCopyPath(repo.ralphDir), activeNow, { durable: false });
  }
  mkdirSync(guardDir(repo.ralphDir), { recursive: true });
  writeJson(recordPath(repo), currentRecord(repo, options.restore ? [] : gone));
  rmSync(pendingPath(repo), { force: true });
  return { changes: pending?.changes ?? [], restored };
}

/** Notes that PreToolUse asked the user about tool call `toolUseId` changing the control surface. */
export function rememberAsked(repo: Repository, toolUseId: string | undefined): void {
  if (!toolUseId) return;
  mkdirSync(join(guardDir(repo.ralphDir), "asked"), { recursive: true });
  writeFileAtomic(askedPath(repo, toolUseId), `${new Date().toISOString()}\n`, { durable: false });
}

/**
 * At PostToolUse of a call PreToolUse asked about: it ran, so the user
 * allowed it; the surface as it is now becomes ralph's record (pending
 * changes from before stay pending). Returns whether the call was one
 * ralph asked about.
 */
export function acceptAsked(repo: Repository, toolUseId: string | undefined): boolean {
  if (!toolUseId) return false;
  const path = askedPath(repo, toolUseId);
  if (readText(path) === null) return false;
  const recorded = readJson<Record_>(recordPath(repo));
  const gone = new Set(recorded?.loops_gone ?? []);
  for (const loop of listStateCopies(repo.ralphDir)) {
    const now = readText(stateFilePath(repo.workTree, loop));
    if (now === null) gone.add(loop);
    else writeFileAtomic(stateCopyPath(repo.ralphDir, loop), now, { durable: false });
  }
  writeFileAtomic(activeCopyPath(repo.ralphDir), readText(statePaths(repo.workTree).active) ?? "", { durable: false });
  writeJson(recordPath(repo), currentRecord(repo, [...gone]));
  rmSync(path, { force: true });
  return true;
}

/** The message for the user about pending changes (a hook's `systemMessage`, `ralph status`, `ralph doctor`). */
export function describeGuardReport(report: GuardReport): string | null {
  if (report.changes.length === 0) return null;
  return [
    `ralph's guard was changed outside ralph${report.detectedAt ? ` (first noticed ${report.detectedAt})` : ""}:`,
    ...report.changes.map((c) => `- ${c.path}: ${c.detail}`),
    "No loop counts as completed until you decide: 'ralph confirm' keeps things as they are now; 'ralph confirm --restore' writes the loop state back from ralph's copy under .git/ralph/guard; 'ralph install --claude' (or --git-hooks) puts ralph's hooks back.",
  ].join("\n");
}
