/**
 * `ralph uninstall [--claude] [--local] [--json]`: removes exactly the hook
 * entries `ralph install` wrote (tagged `--ralph-managed`) from
 * `.claude/settings.json` and `.claude/settings.local.json` (only the one
 * named by --local when given), keeping every other hook and setting.
 */
import * as z from "zod/mini";
import { removeRalphHooks } from "../../hooks/claude-settings.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";
import { openStore } from "./shared.js";
import { readSettingsFile, settingsPathFor, writeSettingsFile } from "../../hooks/settings-file.js";

const Options = z.strictObject({
  claude: z.optional(z.boolean()),
  local: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "uninstall");
  const workTree = openStore(ctx).repo.workTree;
  const paths = options.local === true ? [settingsPathFor(workTree, true)] : [settingsPathFor(workTree, false), settingsPathFor(workTree, true)];
  const files: { settings: string; removed: number }[] = [];
  for (const path of paths) {
    const before = readSettingsFile(path);
    if (before === null) continue;
    const { settings, removed } = removeRalphHooks(before);
    if (removed > 0) writeSettingsFile(path, settings);
    files.push({ settings: path, removed });
  }
  const total = files.reduce((n, f) => n + f.removed, 0);
  return {
    json: { removed: total, files },
    text: total === 0 ? "ralph: no ralph hooks were installed" : files.filter((f) => f.removed > 0).map((f) => `ralph: removed ${f.removed} hook(s) from ${f.settings}`).join("\n"),
  };
}
