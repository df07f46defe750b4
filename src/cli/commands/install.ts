/**
 * `ralph install --claude [--local] [--json]`: merges ralph's hook entries
 * into `.claude/settings.json` (or `.claude/settings.local.json` with
 * --local) at the repository root, keeping every other setting and hook.
 * Idempotent: earlier ralph entries are replaced. Each command is the
 * absolute path of this node plus the absolute path of this dist/cli.js, so
 * a moved install fails loudly in `ralph doctor`.
 */
import { realpathSync } from "node:fs";
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { addRalphHooks, HOOK_PLAN } from "../../hooks/claude-settings.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";
import { openStore } from "./shared.js";
import { readSettingsFile, settingsPathFor, writeSettingsFile } from "../../hooks/settings-file.js";

const Options = z.strictObject({
  claude: z.optional(z.boolean()),
  local: z.optional(z.boolean()),
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
  if (!options.claude) throw new RalphError("E_USAGE", "name what to install: ralph install --claude [--local]", { data: { command: "install" } });
  const workTree = openStore(ctx).repo.workTree;
  const path = settingsPathFor(workTree, options.local === true);
  const before = readSettingsFile(path);
  const cli = runningCliPath();
  const after = addRalphHooks(before ?? {}, process.execPath, cli);
  writeSettingsFile(path, after);
  const events = HOOK_PLAN.map((p) => p.event);
  return {
    json: { installed: "claude", settings: path, node: process.execPath, cli, events },
    text: `ralph: Claude Code hooks installed in ${path} (${events.join(", ")})\nCheck them with: ralph doctor`,
  };
}
