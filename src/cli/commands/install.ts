/**
 * `ralph install [--claude] [--local] [--codex] [--gemini] [--cursor] [--git-hooks] [--json]`:
 * - `--claude` merges ralph's hook entries into `.claude/settings.json` (or
 *   `.claude/settings.local.json` with --local) at the repository root,
 *   keeping every other setting and hook. Idempotent: earlier ralph entries
 *   are replaced.
 * - `--codex`, `--gemini`, `--cursor` merge ralph's entries into
 *   `.codex/hooks.json`, `.gemini/settings.json`, `.cursor/hooks.json` the
 *   same way (./agent-install.ts; docs/agents.md for each format and what
 *   the agent needs besides the file: Codex's trust, Gemini's switch).
 * - `--git-hooks` registers ralph's pre-push guard with the hook manager
 *   in charge (husky, lefthook, pre-commit, simple-git-hooks; `--manager
 *   NAME` overrides the detection, `--local` picks lefthook-local.yml), or
 *   writes the repository's pre-push hook when there is none
 *   (src/hooks/git-hook-install.ts): a hook already there that is not
 *   ralph's is kept and run first. A core.hooksPath from the global config
 *   is written into only with `--global` (./git-hooks.ts).
 * Each command is the absolute path of this node plus the absolute path of
 * this dist/cli.js, so a moved install fails loudly in `ralph doctor`.
 * The Stop entry's timeout covers the configured stop (the completion
 * command of aiwg.yml or of the active loop, whichever is longer, with the
 * quality and metric commands: src/loop/settings.ts stopHookBudgetMs), 600 s
 * at the least.
 * JSON: the Claude fields (`installed: "claude"`, `settings`, `node`, `cli`,
 * `events`, `stop_timeout_sec`) when --claude is given, and `git_hooks: {manager, evidence,
 * hook, changed, notes, …}` when --git-hooks is (`installed: "git-hooks"`
 * when alone; `chained` without a manager, `file` and `runner` with one),
 * and `agents: {<agent>: {settings, events, stop_timeout_sec, loop_limit?,
 * notes}}` for the agents (`installed: "<agent>"` when nothing else set it).
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname } from "node:path";
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { INSTALL_AGENTS } from "../../hooks/agent-settings.js";
import { addRalphHooks, HOOK_PLAN, MIN_STOP_TIMEOUT_SEC } from "../../hooks/claude-settings.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { openStore } from "./shared.js";
import { assertHookSlots, noteCreatedSettings, readSettingsFile, settingsPathFor, writeSettingsFile } from "../../hooks/settings-file.js";
import type { Repository } from "../../store/repo.js";

const Options = z.strictObject({
  claude: z.optional(z.boolean()),
  local: z.optional(z.boolean()),
  gitHooks: z.optional(z.boolean()),
  codex: z.optional(z.boolean()),
  gemini: z.optional(z.boolean()),
  cursor: z.optional(z.boolean()),
  manager: z.optional(stringOption),
  global: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/**
 * The real absolute path of the dist/cli.js that answers this run (`ctx.cliPath`, set by main.ts).
 * @throws RalphError E_INTERNAL when the run was given none; the file system's error when it is gone.
 */
export function runningCliPath(ctx: Pick<CommandContext, "cliPath">): string {
  if (!ctx.cliPath) throw new RalphError("E_INTERNAL", "cannot tell where ralph's cli.js is (the run was started without a cli path)");
  return realpathSync(ctx.cliPath);
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "install");
  const agents = INSTALL_AGENTS.filter((agent) => options[agent] === true);
  if (!options.claude && !options.gitHooks && agents.length === 0) {
    throw new RalphError("E_USAGE", "name what to install: ralph install --claude [--local], --codex, --gemini, --cursor and/or --git-hooks", { data: { command: "install" } });
  }
  const repo = openStore(ctx).repo;
  const cli = runningCliPath(ctx);
  const json: Record<string, unknown> = {};
  const text: string[] = [];
  if (options.claude) {
    const claude = installClaude(repo, options.local === true, cli, await stopTimeoutSecFor(repo.workTree, repo.env.vars));
    Object.assign(json, claude.json);
    text.push(claude.text);
  }
  if (agents.length > 0) {
    const { installAgent } = await import("./agent-install.js");
    const stopSec = await stopTimeoutSecFor(repo.workTree, repo.env.vars);
    const loopLimit = await maxIterationsFor(repo.workTree, repo.env.vars);
    const installedAgents: Record<string, unknown> = {};
    for (const agent of agents) {
      const result = installAgent(repo, agent, process.execPath, cli, stopSec, loopLimit);
      installedAgents[agent] = result.json;
      text.push(...result.lines);
    }
    json.agents = installedAgents;
    if (json.installed === undefined) Object.assign(json, { installed: agents[0], node: process.execPath, cli });
  }
  if (options.gitHooks) {
    const { installGitHooks } = await import("./git-hooks.js");
    const git = await installGitHooks(repo, process.execPath, cli, { manager: options.manager, local: options.local === true, global: options.global === true });
    if (json.installed === undefined) Object.assign(json, { installed: "git-hooks", node: process.execPath, cli });
    json.git_hooks = git.json;
    text.push(...git.lines);
    if (git.warnings.length > 0) json.warnings = git.warnings;
    for (const warning of git.warnings) ctx.stderr(`ralph: warning: ${warning}\n`);
  }
  // The user installed: what is there now is ralph's record to compare later hook calls against.
  const { recordInstalledHooks } = await import("../../hooks/guard-record.js");
  recordInstalledHooks(repo);
  text.push("Check with: ralph doctor");
  return { json, text: text.join("\n") };
}

/**
 * The Stop timeout the configured stop needs, in seconds: the longer of
 * `loop.completion_timeout_ms` and the active loop's completion limit, with
 * the quality and metric commands and ralph's overhead. `env` is the run's, for aiwg.yml's overrides.
 * @throws RalphError E_CONFIG for an invalid aiwg.yml.
 */
async function stopTimeoutSecFor(workTree: string, env: Readonly<NodeJS.ProcessEnv>): Promise<number> {
  const [{ loadConfig }, { stopHookBudgetMs }, { readActiveLoop, readState }] = await Promise.all([import("../../config/load.js"), import("../../loop/settings.js"), import("../../loop/state.js")]);
  const { config } = await loadConfig(workTree, { env });
  let completionMs = config.loop.completion_timeout_ms;
  let quality = config.loop.quality_command;
  try {
    const active = readActiveLoop(workTree);
    const state = active ? readState(workTree, active) : null;
    if (state) {
      completionMs = Math.max(completionMs, state.configuration.completion_timeout_ms);
      quality = state.quality_command ?? quality;
    }
  } catch {
    /* an unreadable loop state: size for the config */
  }
  return Math.max(MIN_STOP_TIMEOUT_SEC, Math.ceil(stopHookBudgetMs(config, completionMs, quality) / 1000));
}

/**
 * The most iterations the configured loop may run: the active loop's
 * `max_iterations` when it has a state, else `loop.max_iterations` of
 * aiwg.yml (Cursor's stop `loop_limit`, so Cursor does not end a loop before
 * ralph's own limits do).
 * @throws RalphError E_CONFIG for an invalid aiwg.yml.
 */
async function maxIterationsFor(workTree: string, env: Readonly<NodeJS.ProcessEnv>): Promise<number> {
  const [{ loadConfig }, { readActiveLoop, readState }] = await Promise.all([import("../../config/load.js"), import("../../loop/state.js")]);
  const { config } = await loadConfig(workTree, { env });
  try {
    const active = readActiveLoop(workTree);
    const state = active ? readState(workTree, active) : null;
    if (state) return Math.max(config.loop.max_iterations, state.configuration.max_iterations);
  } catch {
    /* an unreadable loop state: size for the config */
  }
  return config.loop.max_iterations;
}

function installClaude(repo: Repository, local: boolean, cli: string, stopTimeoutSec: number): { json: Record<string, unknown>; text: string } {
  const path = settingsPathFor(repo.workTree, local);
  const before = readSettingsFile(path);
  if (before !== null)
    assertHookSlots(
      path,
      before,
      HOOK_PLAN.map((p) => p.event),
    );
  const after = addRalphHooks(before ?? {}, process.execPath, cli, { stopTimeoutSec });
  // A file (and .claude folder) ralph creates is removed again by uninstall once nothing but ralph's entries was in it.
  if (before === null) noteCreatedSettings(repo, path, !existsSync(dirname(path)));
  writeSettingsFile(path, after);
  const events = HOOK_PLAN.map((p) => p.event);
  return {
    json: { installed: "claude", settings: path, node: process.execPath, cli, events, stop_timeout_sec: stopTimeoutSec },
    text: `ralph: Claude Code hooks installed in ${path} (${events.join(", ")}; Stop timeout ${stopTimeoutSec} s)`,
  };
}
