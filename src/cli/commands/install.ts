/**
 * `ralph install [--claude] [--local] [--git-hooks] [--json]`:
 * - `--claude` merges ralph's hook entries into `.claude/settings.json` (or
 *   `.claude/settings.local.json` with --local) at the repository root,
 *   keeping every other setting and hook. Idempotent: earlier ralph entries
 *   are replaced.
 * - `--git-hooks` writes the repository's pre-push hook
 *   (src/hooks/git-hook-install.ts): a hook already there that is not
 *   ralph's is kept and run first.
 * Each command is the absolute path of this node plus the absolute path of
 * this dist/cli.js, so a moved install fails loudly in `ralph doctor`.
 * JSON: the Claude fields (`installed: "claude"`, `settings`, `node`, `cli`,
 * `events`) when --claude is given, and `git_hooks: {hook, chained,
 * changed}` when --git-hooks is (`installed: "git-hooks"` when alone).
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute } from "node:path";
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { addRalphHooks, HOOK_PLAN } from "../../hooks/claude-settings.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";
import { openStore } from "./shared.js";
import { noteCreatedSettings, readSettingsFile, settingsPathFor, writeSettingsFile } from "../../hooks/settings-file.js";
import type { Repository } from "../../store/repo.js";

const Options = z.strictObject({
  claude: z.optional(z.boolean()),
  local: z.optional(z.boolean()),
  gitHooks: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** The absolute path of the running dist/cli.js. */
export function runningCliPath(): string {
  const script = process.argv[1];
  if (!script) throw new RalphError("E_INTERNAL", "cannot tell where ralph's cli.js is (process.argv[1] is empty)");
  return realpathSync(script);
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "install");
  if (!options.claude && !options.gitHooks) {
    throw new RalphError("E_USAGE", "name what to install: ralph install --claude [--local] and/or --git-hooks", { data: { command: "install" } });
  }
  const repo = openStore(ctx).repo;
  const cli = runningCliPath();
  const json: Record<string, unknown> = {};
  const text: string[] = [];
  if (options.claude) {
    const claude = installClaude(repo, options.local === true, cli);
    Object.assign(json, claude.json);
    text.push(claude.text);
  }
  if (options.gitHooks) {
    const { installGitHook } = await import("../../hooks/git-hook-install.js");
    const git = installGitHook(repo, process.execPath, cli);
    if (!options.claude) Object.assign(json, { installed: "git-hooks", node: process.execPath, cli });
    json.git_hooks = git;
    text.push(
      `ralph: git pre-push hook ${git.changed ? "installed" : "already installed"} in ${git.hook}` +
        (git.chained ? `; your earlier pre-push hook runs first, from ${git.chained}` : ""),
    );
    // git(1) core.hooksPath: a relative path is resolved in each work tree, so linked worktrees do not see this hook.
    const hooksPath = repo.config.get("core.hookspath");
    if (hooksPath && !isAbsolute(hooksPath) && !hooksPath.startsWith("~/")) {
      const warning = `core.hooksPath is relative (${hooksPath}): git resolves it in each work tree, so pushes from linked worktrees skip this hook unless ralph install --git-hooks runs there too (or core.hooksPath is absolute)`;
      json.warnings = [warning];
      ctx.stderr(`ralph: warning: ${warning}\n`);
    }
  }
  // The user installed: what is there now is ralph's record to compare later hook calls against.
  const { recordInstalledHooks } = await import("../../hooks/guard-record.js");
  recordInstalledHooks(repo);
  text.push("Check with: ralph doctor");
  return { json, text: text.join("\n") };
}

function installClaude(repo: Repository, local: boolean, cli: string): { json: Record<string, unknown>; text: string } {
  const path = settingsPathFor(repo.workTree, local);
  const before = readSettingsFile(path);
  const after = addRalphHooks(before ?? {}, process.execPath, cli);
  // A file (and .claude folder) ralph creates is removed again by uninstall once nothing but ralph's entries was in it.
  if (before === null) noteCreatedSettings(repo, path, !existsSync(dirname(path)));
  writeSettingsFile(path, after);
  const events = HOOK_PLAN.map((p) => p.event);
  return {
    json: { installed: "claude", settings: path, node: process.execPath, cli, events },
    text: `ralph: Claude Code hooks installed in ${path} (${events.join(", ")})`,
  };
}
