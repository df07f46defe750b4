/**
 * ralph's entries in Claude Code's settings (`.claude/settings.json`, or
 * `.claude/settings.local.json` for one person). The format is the hooks
 * reference's (code.claude.com/docs/en/hooks, "Configuration"):
 *
 *   { "hooks": { "<Event>": [ { "matcher": "<tool regex>", "hooks": [
 *       { "type": "command", "command": "…", "timeout": <seconds> } ] } ] } }
 *
 * `matcher` applies to tool events only. Every command ralph writes ends in
 * {@link INSTALL_TAG}, so removing ralph's entries removes exactly those and
 * keeps every other hook; installing twice replaces them (idempotent).
 */
import type { ClaudeEvent } from "./claude-payload.js";

/** The argument that marks a hook command as written by `ralph install` (ignored by `ralph hook`). */
export const INSTALL_TAG = "--ralph-managed";

/** The tools whose calls ralph checks and checkpoints. */
export const TOOL_MATCHER = "Bash|Write|Edit|MultiEdit|NotebookEdit";

/** The Stop hook's timeout when the configured stop needs less, in seconds. */
export const MIN_STOP_TIMEOUT_SEC = 600;

/** One event's entry: matcher (tool events only) and timeout in seconds. */
export interface HookPlan {
  event: ClaudeEvent;
  matcher?: string;
  timeoutSec: number;
}

/**
 * What ralph installs. Timeouts are explicit: Stop runs the loop's
 * completion command under its own, shorter timeout; `ralph install` raises
 * the Stop timeout above {@link MIN_STOP_TIMEOUT_SEC} when the configured
 * stop needs more (src/loop/settings.ts stopHookBudgetMs).
 */
export const HOOK_PLAN: readonly HookPlan[] = [
  { event: "SessionStart", timeoutSec: 30 },
  { event: "UserPromptSubmit", timeoutSec: 30 },
  { event: "PreToolUse", matcher: TOOL_MATCHER, timeoutSec: 30 },
  { event: "PostToolUse", matcher: TOOL_MATCHER, timeoutSec: 60 },
  { event: "Stop", timeoutSec: MIN_STOP_TIMEOUT_SEC },
  { event: "SubagentStop", timeoutSec: 60 },
  { event: "PreCompact", timeoutSec: 60 },
  { event: "SessionEnd", timeoutSec: 30 },
];

/** Double-quotes a path for the shell that runs hook commands (`"`, `$`, backquote escaped). */
export function quoteForShell(path: string): string {
  return `"${path.replace(/(["$`])/g, "\\$1")}"`;
}

/** The command line of one event: absolute node, absolute dist/cli.js, `hook claude <Event>`, the tag. */
export function hookCommand(nodePath: string, cliPath: string, event: ClaudeEvent): string {
  return `${quoteForShell(nodePath)} ${quoteForShell(cliPath)} hook claude ${event} ${INSTALL_TAG}`;
}

/** A settings object as read from JSON. */
export type Settings = Record<string, unknown>;

interface HookGroup {
  matcher?: string;
  hooks: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

/** True when a hook entry was written by ralph. */
export function isRalphHook(hook: unknown): boolean {
  return typeof hook === "object" && hook !== null && typeof (hook as { command?: unknown }).command === "string" && (hook as { command: string }).command.split(/\s+/).includes(INSTALL_TAG);
}

/** Removes ralph's hook entries; groups, events and `hooks` left empty by the removal go too. Returns the new settings and how many entries were removed. */
export function removeRalphHooks(settings: Settings): { settings: Settings; removed: number } {
  const hooks = settings.hooks;
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) return { settings, removed: 0 };
  let removed = 0;
  const nextHooks: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) {
      nextHooks[event] = groups;
      continue;
    }
    const nextGroups: unknown[] = [];
    for (const group of groups) {
      if (typeof group !== "object" || group === null || !Array.isArray((group as HookGroup).hooks)) {
        nextGroups.push(group);
        continue;
      }
      const kept = (group as HookGroup).hooks.filter((hook) => !isRalphHook(hook));
      removed += (group as HookGroup).hooks.length - kept.length;
      if (kept.length > 0 || (group as HookGroup).hooks.length === 0) nextGroups.push({ ...(group as HookGroup), hooks: kept });
    }
    if (nextGroups.length > 0 || groups.length === 0) nextHooks[event] = nextGroups;
  }
  const next: Settings = { ...settings };
  if (Object.keys(nextHooks).length > 0 || Object.keys(hooks).length === 0) next.hooks = nextHooks;
  else delete next.hooks;
  return { settings: next, removed };
}

/**
 * Adds ralph's entries (after removing any earlier ones), keeping every
 * other key and hook. `stopTimeoutSec` (default and floor
 * {@link MIN_STOP_TIMEOUT_SEC}) is the Stop entry's timeout, in seconds.
 */
export function addRalphHooks(settings: Settings, nodePath: string, cliPath: string, options: { stopTimeoutSec?: number } = {}): Settings {
  const base = removeRalphHooks(settings).settings;
  const hooks = typeof base.hooks === "object" && base.hooks !== null && !Array.isArray(base.hooks) ? { ...(base.hooks as Record<string, unknown>) } : {};
  for (const plan of HOOK_PLAN) {
    const groups = Array.isArray(hooks[plan.event]) ? [...(hooks[plan.event] as unknown[])] : [];
    groups.push({
      ...(plan.matcher ? { matcher: plan.matcher } : {}),
      hooks: [
        {
          type: "command",
          command: hookCommand(nodePath, cliPath, plan.event),
          timeout: plan.event === "Stop" ? Math.max(MIN_STOP_TIMEOUT_SEC, Math.ceil(options.stopTimeoutSec ?? 0)) : plan.timeoutSec,
        },
      ],
    });
    hooks[plan.event] = groups;
  }
  return { ...base, hooks };
}

/**
 * ralph's installed command per event in a settings object: in Claude
 * Code's groups (`{matcher, hooks: [...]}`, also Codex's and Gemini's
 * shape) and in Cursor's flat entries (`[{command, …}]` per event).
 */
export function installedRalphCommands(settings: Settings): Map<string, string> {
  const out = new Map<string, string>();
  const hooks = settings.hooks;
  if (typeof hooks !== "object" || hooks === null) return out;
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const inner = Array.isArray((group as HookGroup | null)?.hooks) ? (group as HookGroup).hooks : [group];
      for (const hook of inner) if (isRalphHook(hook)) out.set(event, (hook as { command: string }).command);
    }
  }
  return out;
}

/**
 * The `timeout` of ralph's Stop entry in a settings object, in seconds
 * (Claude Code's default of 600 for a command hook when the entry has none:
 * hooks reference, "timeout"); null when ralph's
 * Stop hook is not installed there. With several, the shortest.
 */
export function installedStopTimeoutSec(settings: Settings): number | null {
  const groups = (settings.hooks as Record<string, unknown> | undefined)?.Stop;
  if (!Array.isArray(groups)) return null;
  let shortest: number | null = null;
  for (const group of groups) {
    for (const hook of (group as HookGroup | null)?.hooks ?? []) {
      if (!isRalphHook(hook)) continue;
      const timeout = (hook as { timeout?: unknown }).timeout;
      const sec = typeof timeout === "number" && timeout > 0 ? timeout : 600;
      shortest = shortest === null ? sec : Math.min(shortest, sec);
    }
  }
  return shortest;
}
