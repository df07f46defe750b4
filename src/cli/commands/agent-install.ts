/**
 * `ralph install --codex | --gemini | --cursor` and the matching uninstall:
 * ralph's entries merged into the agent's project settings file
 * (src/hooks/agent-settings.ts; docs/agents.md for each format), keeping
 * every other setting and hook, idempotent.
 *
 * Restoring: the first install that finds a file keeps its bytes in
 * `<git dir>/ralph/agent-settings/<agent>.orig`; uninstall writes those
 * bytes back when the file without ralph's entries still means the same
 * (nothing else was edited since), else writes the file without ralph's
 * entries. A file install created is deleted once nothing but ralph's
 * entries is in it, and its folder too when install created that and it is
 * empty (src/hooks/settings-file.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { addAgentHooks, AGENT_INSTALLS, agentSettingsPath, installedAgentHooks, isEmptyOfOthers, removeAgentHooks, type InstallAgent } from "../../hooks/agent-settings.js";
import type { Settings } from "../../hooks/claude-settings.js";
import { assertHookSlots, noteCreatedSettings, parseSettingsText, readSettingsFile, removeCreatedSettings, writeSettingsFile, writeSettingsKeepingComments } from "../../hooks/settings-file.js";
import type { Repository } from "../../store/repo.js";

/** What installing for one agent did (its JSON and its lines). */
export interface AgentInstallResult {
  json: { agent: InstallAgent; settings: string; node: string; cli: string; events: string[]; stop_timeout_sec: number; loop_limit?: number; notes: string[] };
  lines: string[];
}

function backupPath(repo: Pick<Repository, "ralphDir">, agent: InstallAgent): string {
  return join(repo.ralphDir, "agent-settings", `${agent}.orig`);
}

/** Gemini CLI reads settings.json with comments (strip-json-comments); Codex and Cursor read plain JSON. */
function readOptions(agent: InstallAgent): { comments: boolean } {
  return { comments: agent === "gemini" };
}

/** How a changed settings file is written: Gemini's keeps its comments (only `hooks` is rewritten). */
function writeFor(agent: InstallAgent): (path: string, settings: Settings) => void {
  return agent === "gemini" ? writeSettingsKeepingComments : writeSettingsFile;
}

/** Deep equality of JSON values (object key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b as object, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** True when a Codex `config.toml` holds an inline `[hooks]` table (or `[[hooks.<Event>]]` arrays). */
export function tomlHasHooksTable(text: string): boolean {
  return /^\s*\[\[?\s*hooks\s*(\.|\])/m.test(text);
}

/** What the user must do beyond the file for each agent to run the hooks (docs/agents.md, "Enabled and trusted"). */
function notesFor(repo: Repository, agent: InstallAgent): string[] {
  if (agent === "codex") {
    const notes = [
      "Codex runs project hooks only in a trusted project and only hooks the user has trusted: open Codex in this repository, run /hooks and trust ralph's entries (again after every reinstall); ralph doctor shows what it can see of this",
    ];
    try {
      if (tomlHasHooksTable(readFileSync(join(repo.workTree, ".codex", "config.toml"), "utf8"))) {
        notes.push(".codex/config.toml has a [hooks] table too: Codex loads both it and .codex/hooks.json (and warns); keep your own hooks in one of them");
      }
    } catch {
      /* no project config.toml */
    }
    return notes;
  }
  if (agent === "gemini") return ['Gemini CLI runs hooks only with its hooks system enabled (/settings, "Enable Hooks System") and, with Trusted Folders on, in a trusted folder'];
  return [];
}

/**
 * Installs ralph's entries for `agent` in the repository's project settings.
 * @param stopTimeoutSec the stop event's timeout (seconds).
 * @param loopLimit Cursor's `loop_limit` for the stop entry.
 * @throws RalphError E_USAGE when the settings file is not a JSON object, or its `hooks` (or one of ralph's events in it) is not the shape install writes into (src/hooks/settings-file.ts assertHookSlots; the file is left as it is).
 */
export function installAgent(repo: Repository, agent: InstallAgent, nodePath: string, cli: string, stopTimeoutSec: number, loopLimit: number): AgentInstallResult {
  const spec = AGENT_INSTALLS[agent];
  const path = agentSettingsPath(repo.workTree, agent);
  const before = readSettingsFile(path, readOptions(agent));
  if (before !== null)
    assertHookSlots(
      path,
      before,
      spec.plan.map((p) => p.event),
    );
  const backup = backupPath(repo, agent);
  if (before === null) noteCreatedSettings(repo, path, !existsSync(dirname(path)));
  else if (!existsSync(backup) && installedAgentHooks(agent, before).length === 0) {
    mkdirSync(dirname(backup), { recursive: true });
    writeFileSync(backup, readFileSync(path));
  }
  const options = { stopTimeoutSec, ...(agent === "cursor" ? { loopLimit } : {}) };
  writeFor(agent)(path, addAgentHooks(agent, before ?? {}, nodePath, cli, options));
  const events = spec.plan.map((p) => p.event);
  const notes = notesFor(repo, agent);
  const limit = agent === "cursor" ? `; stop loop_limit ${loopLimit}` : "";
  return {
    json: { agent, settings: path, node: nodePath, cli, events, stop_timeout_sec: stopTimeoutSec, ...(agent === "cursor" ? { loop_limit: loopLimit } : {}), notes },
    lines: [`ralph: ${spec.name} hooks installed in ${path} (${events.join(", ")}; stop timeout ${stopTimeoutSec} s${limit})`, ...notes.map((n) => `ralph: note: ${n}`)],
  };
}

/** What uninstalling for one agent did. */
export interface AgentUninstallResult {
  settings: string;
  removed: number;
  /** True when the file was deleted (ralph had created it; nothing else was in it). */
  deleted?: boolean;
  /** True when the file's bytes from before install were written back. */
  restored?: boolean;
}

/** Removes ralph's entries for `agent`; null when the agent has no settings file here. */
export function uninstallAgent(repo: Repository, agent: InstallAgent): AgentUninstallResult | null {
  const path = agentSettingsPath(repo.workTree, agent);
  const before = readSettingsFile(path, readOptions(agent));
  if (before === null) return null;
  const { settings, removed } = removeAgentHooks(agent, before);
  if (removed === 0) return { settings: path, removed };
  if (isEmptyOfOthers(agent, settings) && removeCreatedSettings(repo, path)) return { settings: path, removed, deleted: true };
  const backup = backupPath(repo, agent);
  let original: Buffer | null = null;
  try {
    original = readFileSync(backup);
  } catch {
    /* installed before backups were kept, or the file was created by ralph */
  }
  let restored = false;
  if (original !== null) {
    let parsed: Settings | null;
    try {
      parsed = parseSettingsText(backup, original.toString("utf8"), readOptions(agent));
    } catch {
      parsed = null;
    }
    // Compare with what install + uninstall makes of the old content (Cursor's install adds `version: 1`, kept by uninstall).
    if (parsed !== null && sameJson(removeAgentHooks(agent, addAgentHooks(agent, parsed, "node", "cli.js")).settings, settings)) {
      writeFileSync(path, original);
      restored = true;
    }
    rmSync(backup, { force: true });
  }
  if (!restored) writeFor(agent)(path, settings);
  return { settings: path, removed, ...(restored ? { restored: true } : {}) };
}
