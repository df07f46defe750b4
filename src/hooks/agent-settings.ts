/**
 * ralph's entries in the hook settings of Codex CLI, Gemini CLI and Cursor
 * (docs/agents.md has each format with its source):
 *
 * - Codex `.codex/hooks.json` and Gemini `.gemini/settings.json` use Claude
 *   Code's grouped shape, `{hooks: {<Event>: [{matcher?, hooks: [{type:
 *   "command", command, timeout}]}]}}`; Codex's `timeout` is in seconds,
 *   Gemini's in milliseconds, and a Gemini entry carries a `name` (what
 *   `/hooks disable` takes).
 * - Cursor `.cursor/hooks.json` is `{version: 1, hooks: {<event>: [{command,
 *   timeout, loop_limit?}]}}`, `timeout` in seconds, `loop_limit` on the
 *   `stop` entry.
 *
 * Every command is the absolute node, the absolute dist/cli.js, `hook
 * <agent> <Event>` and {@link INSTALL_TAG}, so removing ralph's entries
 * removes exactly those and keeps every other hook and setting; installing
 * twice replaces them (idempotent).
 */
import { join } from "node:path";
import { INSTALL_TAG, isRalphHook, quoteForShell, removeRalphHooks, type Settings } from "./claude-settings.js";

/** The agents `ralph install --codex | --gemini | --cursor` writes settings for. */
export const INSTALL_AGENTS = ["codex", "gemini", "cursor"] as const;

/** One of {@link INSTALL_AGENTS}. */
export type InstallAgent = (typeof INSTALL_AGENTS)[number];

/** One event's entry: its matcher (tool events only) and timeout in seconds (converted to the agent's unit when written). */
export interface AgentHookPlan {
  event: string;
  matcher?: string;
  timeoutSec: number;
  /** The Stop-like event: its timeout covers the configured stop (at least {@link MIN_AGENT_STOP_TIMEOUT_SEC}). */
  isStop?: boolean;
}

/** The stop event's timeout when the configured stop needs less, in seconds (Codex's own default is 600). */
export const MIN_AGENT_STOP_TIMEOUT_SEC = 600;

/** How one agent's settings file looks and what ralph installs in it. */
export interface AgentInstallSpec {
  agent: InstallAgent;
  /** The agent's name for people. */
  name: string;
  /** The settings file, repository-relative. */
  file: string;
  /** `grouped`: Claude Code's `{matcher, hooks: [...]}` groups; `flat`: Cursor's `[{command, …}]` per event. */
  shape: "grouped" | "flat";
  /** What one `timeout` unit is, in ms (Codex and Cursor: seconds; Gemini: milliseconds). */
  timeoutUnitMs: number;
  plan: readonly AgentHookPlan[];
}

/** Codex CLI's tools whose calls ralph judges and checkpoints: the PreToolUse/PostToolUse matcher, a regex anchored so an MCP tool named like one does not match. */
export const CODEX_TOOL_MATCHER = "^(Bash|apply_patch)$";
/** Gemini CLI's tools whose calls ralph judges and checkpoints (shell, whole-file write, string replace): the BeforeTool/AfterTool matcher, a regex anchored so an MCP tool named like one does not match. */
export const GEMINI_TOOL_MATCHER = "^(run_shell_command|write_file|replace)$";

/** What each agent gets (docs/agents.md: the events each protocol has). */
export const AGENT_INSTALLS: Readonly<Record<InstallAgent, AgentInstallSpec>> = {
  codex: {
    agent: "codex",
    name: "Codex CLI",
    file: ".codex/hooks.json",
    shape: "grouped",
    timeoutUnitMs: 1000,
    plan: [
      { event: "SessionStart", timeoutSec: 30 },
      { event: "UserPromptSubmit", timeoutSec: 30 },
      { event: "PreToolUse", matcher: CODEX_TOOL_MATCHER, timeoutSec: 30 },
      { event: "PostToolUse", matcher: CODEX_TOOL_MATCHER, timeoutSec: 60 },
      { event: "Stop", timeoutSec: MIN_AGENT_STOP_TIMEOUT_SEC, isStop: true },
    ],
  },
  gemini: {
    agent: "gemini",
    name: "Gemini CLI",
    file: ".gemini/settings.json",
    shape: "grouped",
    timeoutUnitMs: 1,
    plan: [
      { event: "SessionStart", timeoutSec: 30 },
      { event: "BeforeAgent", timeoutSec: 30 },
      { event: "BeforeTool", matcher: GEMINI_TOOL_MATCHER, timeoutSec: 30 },
      { event: "AfterTool", matcher: GEMINI_TOOL_MATCHER, timeoutSec: 60 },
      { event: "AfterAgent", timeoutSec: MIN_AGENT_STOP_TIMEOUT_SEC, isStop: true },
      { event: "PreCompress", timeoutSec: 60 },
      { event: "SessionEnd", timeoutSec: 30 },
    ],
  },
  cursor: {
    agent: "cursor",
    name: "Cursor",
    file: ".cursor/hooks.json",
    shape: "flat",
    timeoutUnitMs: 1000,
    plan: [
      { event: "beforeSubmitPrompt", timeoutSec: 30 },
      { event: "beforeShellExecution", timeoutSec: 30 },
      { event: "afterShellExecution", timeoutSec: 60 },
      { event: "afterFileEdit", timeoutSec: 60 },
      { event: "stop", timeoutSec: MIN_AGENT_STOP_TIMEOUT_SEC, isStop: true },
    ],
  },
};

/** The absolute path of an agent's settings file in a work tree. */
export function agentSettingsPath(workTree: string, agent: InstallAgent): string {
  return join(workTree, ...AGENT_INSTALLS[agent].file.split("/"));
}

/** The command line of one event: absolute node, absolute dist/cli.js, `hook <agent> <Event>`, the tag. */
export function agentHookCommand(nodePath: string, cliPath: string, agent: InstallAgent, event: string): string {
  return `${quoteForShell(nodePath)} ${quoteForShell(cliPath)} hook ${agent} ${event} ${INSTALL_TAG}`;
}

/** Options of {@link addAgentHooks}. */
export interface AddAgentHooksOptions {
  /** The stop event's timeout in seconds (raised to {@link MIN_AGENT_STOP_TIMEOUT_SEC}). */
  stopTimeoutSec?: number;
  /** Cursor: the stop entry's `loop_limit` (follow-ups Cursor allows in a row). */
  loopLimit?: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Removes ralph's entries from a Cursor-shaped file; events left empty by the removal go, and so does a `hooks` object left empty. */
function removeFlat(settings: Settings): { settings: Settings; removed: number } {
  const hooks = settings.hooks;
  if (!isObject(hooks)) return { settings, removed: 0 };
  let removed = 0;
  const next: Record<string, unknown> = {};
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) {
      next[event] = entries;
      continue;
    }
    const kept = entries.filter((entry) => !isRalphHook(entry));
    removed += entries.length - kept.length;
    if (kept.length > 0 || entries.length === 0) next[event] = kept;
  }
  const out: Settings = { ...settings };
  if (Object.keys(next).length > 0 || Object.keys(hooks).length === 0) out.hooks = next;
  else delete out.hooks;
  return { settings: out, removed };
}

/**
 * Removes ralph's entries from an agent's settings, keeping everything else.
 * @returns the new settings and how many entries were removed.
 */
export function removeAgentHooks(agent: InstallAgent, settings: Settings): { settings: Settings; removed: number } {
  return AGENT_INSTALLS[agent].shape === "flat" ? removeFlat(settings) : removeRalphHooks(settings);
}

/**
 * True when nothing but what `ralph install` adds is left in settings it
 * created: no key at all, or (Cursor) only `version` with no hooks.
 */
export function isEmptyOfOthers(agent: InstallAgent, settings: Settings): boolean {
  const keys = Object.keys(settings).filter((key) => !(agent === "cursor" && key === "version"));
  return keys.length === 0;
}

/**
 * Adds ralph's entries (after removing any earlier ones), keeping every
 * other key and hook. Timeouts are written in the agent's unit.
 */
export function addAgentHooks(agent: InstallAgent, settings: Settings, nodePath: string, cliPath: string, options: AddAgentHooksOptions = {}): Settings {
  const spec = AGENT_INSTALLS[agent];
  const base = removeAgentHooks(agent, settings).settings;
  const hooks: Record<string, unknown> = isObject(base.hooks) ? { ...base.hooks } : {};
  for (const plan of spec.plan) {
    const sec = plan.isStop ? Math.max(MIN_AGENT_STOP_TIMEOUT_SEC, Math.ceil(options.stopTimeoutSec ?? 0)) : plan.timeoutSec;
    const timeout = Math.round((sec * 1000) / spec.timeoutUnitMs);
    const command = agentHookCommand(nodePath, cliPath, agent, plan.event);
    const entries = Array.isArray(hooks[plan.event]) ? [...(hooks[plan.event] as unknown[])] : [];
    if (spec.shape === "flat") {
      entries.push({ command, timeout, ...(plan.isStop && options.loopLimit !== undefined ? { loop_limit: options.loopLimit } : {}) });
    } else {
      const hook = agent === "gemini" ? { name: `ralph-${plan.event}`, type: "command", command, timeout } : { type: "command", command, timeout };
      entries.push({ ...(plan.matcher ? { matcher: plan.matcher } : {}), hooks: [hook] });
    }
    hooks[plan.event] = entries;
  }
  return { ...(spec.shape === "flat" ? { version: 1 } : {}), ...base, hooks };
}

/** One installed ralph entry: its event, command, and place in the file (Codex keys its trust state by group and handler index). */
export interface InstalledAgentHook {
  event: string;
  command: string;
  /** The index of the entry's group (grouped shape) or of the entry (flat shape) in the event's array. */
  groupIndex: number;
  /** The index of the entry in its group's `hooks` (0 for the flat shape). */
  handlerIndex: number;
}

/** ralph's installed entries in an agent's settings, in file order. */
export function installedAgentHooks(agent: InstallAgent, settings: Settings): InstalledAgentHook[] {
  const hooks = settings.hooks;
  if (!isObject(hooks)) return [];
  const out: InstalledAgentHook[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, groupIndex) => {
      if (AGENT_INSTALLS[agent].shape === "flat") {
        if (isRalphHook(entry)) out.push({ event, command: (entry as { command: string }).command, groupIndex, handlerIndex: 0 });
        return;
      }
      const inner = isObject(entry) && Array.isArray(entry.hooks) ? entry.hooks : [];
      inner.forEach((hook, handlerIndex) => {
        if (isRalphHook(hook)) out.push({ event, command: (hook as { command: string }).command, groupIndex, handlerIndex });
      });
    });
  }
  return out;
}
