/**
 * `ralph uninstall [--claude] [--local] [--codex] [--gemini] [--cursor] [--git-hooks] [--json]`: removes
 * exactly what `ralph install` wrote, keeping everything else.
 * - Claude Code (`--claude`): the hook entries tagged `--ralph-managed` in
 *   `.claude/settings.json` and `.claude/settings.local.json` (only the one
 *   named by --local when given).
 * - Codex, Gemini, Cursor (`--codex`, `--gemini`, `--cursor`): ralph's entries
 *   in `.codex/hooks.json`, `.gemini/settings.json`, `.cursor/hooks.json`; the
 *   file's bytes from before install come back when nothing else changed in
 *   it (./agent-install.ts).
 * - git (`--git-hooks`): ralph's pre-push hook; the hook it chained
 *   (`pre-push.ralph-chained`) is moved back, same bytes and mode. A
 *   pre-push hook that is not ralph's is left alone. A hook manager's file
 *   ralph registered in goes back to its bytes from before install (or
 *   loses only ralph's entry when edited since): ./git-hooks.ts.
 * A settings file `ralph install` created (there was none) is deleted when
 * nothing but ralph's entries was in it, and the `.claude` folder install
 * created with it when that is empty then.
 * With no flag, all of them. JSON: `removed` (agent entries plus 1 for a
 * removed git hook), `files` (per agent settings file; `deleted: true` when
 * the file went, `restored: true` when its old bytes came back) and, when git hooks
 * were looked at, `git_hooks: {hook, removed, restored, manager,
 * manager_files: {restored, edited}}`.
 */
import * as z from "zod/mini";
import { INSTALL_AGENTS } from "../../hooks/agent-settings.js";
import { removeRalphHooks } from "../../hooks/claude-settings.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";
import { openStore } from "./shared.js";
import { readSettingsFile, removeCreatedSettings, settingsPathFor, writeSettingsFile } from "../../hooks/settings-file.js";

const Options = z.strictObject({
  claude: z.optional(z.boolean()),
  local: z.optional(z.boolean()),
  gitHooks: z.optional(z.boolean()),
  codex: z.optional(z.boolean()),
  gemini: z.optional(z.boolean()),
  cursor: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "uninstall");
  const repo = openStore(ctx).repo;
  const workTree = repo.workTree;
  const agents = INSTALL_AGENTS.filter((agent) => options[agent] === true);
  const none = options.claude !== true && options.local !== true && options.gitHooks !== true && agents.length === 0;
  const doClaude = none || options.claude === true || options.local === true;
  const doGit = none || options.gitHooks === true;
  const doAgents = none ? [...INSTALL_AGENTS] : agents;
  const paths = !doClaude ? [] : options.local === true ? [settingsPathFor(workTree, true)] : [settingsPathFor(workTree, false), settingsPathFor(workTree, true)];
  const files: { settings: string; removed: number; deleted?: boolean; restored?: boolean }[] = [];
  for (const path of paths) {
    const before = readSettingsFile(path);
    if (before === null) continue;
    const { settings, removed } = removeRalphHooks(before);
    // A file ralph created that holds nothing else now goes, and the .claude folder ralph created with it when empty.
    const deleted = removed > 0 && Object.keys(settings).length === 0 && removeCreatedSettings(repo, path);
    if (removed > 0 && !deleted) writeSettingsFile(path, settings);
    files.push({ settings: path, removed, ...(deleted ? { deleted: true } : {}) });
  }
  if (doAgents.length > 0) {
    const { uninstallAgent } = await import("./agent-install.js");
    for (const agent of doAgents) {
      const result = uninstallAgent(repo, agent);
      if (result) files.push(result);
    }
  }
  const note = (f: (typeof files)[number]): string =>
    f.deleted ? " (ralph had created it; nothing else was in it, so it is deleted)" : f.restored ? " (its content from before install is back)" : "";
  const lines = files.filter((f) => f.removed > 0).map((f) => `ralph: removed ${f.removed} hook(s) from ${f.settings}${note(f)}`);
  let total = files.reduce((n, f) => n + f.removed, 0);
  const json: Record<string, unknown> = { removed: total, files };
  if (doGit) {
    const { uninstallGitHooks } = await import("./git-hooks.js");
    const git = await uninstallGitHooks(repo);
    json.git_hooks = git.json;
    lines.push(...git.lines);
    total += git.removed;
    json.removed = total;
  }
  const { recordInstalledHooks } = await import("../../hooks/guard-record.js");
  recordInstalledHooks(repo);
  return { json, text: lines.length === 0 ? "ralph: no ralph hooks were installed" : lines.join("\n") };
}
