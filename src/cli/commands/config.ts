/**
 * `ralph config [--check] [--json]`: the effective project config (aiwg.yml,
 * section agent_persistence) with the source of every value. Text: one
 * `path = value  (source)` line per leaf, a blank line between sections,
 * warnings on stderr. JSON: `{config, sources, warnings, file}`. An invalid
 * file is E_CONFIG (exit 2) through the ordinary error path; `--check` prints
 * only a verdict line (and the warnings) instead of every value.
 */
import * as z from "zod/mini";
import { flattenConfig, loadConfig, type LoadedConfig } from "../../config/load.js";
import { openRepository } from "../../store/repo.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";

const Options = z.strictObject({
  check: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** `reinforcement.quality_plateau_threshold = 0.05  (aiwg.yml:12)` lines, a blank line between top-level sections. */
export function renderConfigText(loaded: Omit<LoadedConfig, "warnings">): string {
  const lines: string[] = [loaded.file === null ? "# no aiwg.yml: every value is a default" : `# ${loaded.file}, section agent_persistence`];
  let section: string | null = null;
  for (const [path, value] of flattenConfig(loaded.config)) {
    const top = path.split(/[.[]/)[0] as string;
    if (section !== null && top !== section) lines.push("");
    section = top;
    lines.push(`${path} = ${JSON.stringify(value)}  (${loaded.sources[path] ?? "default"})`);
  }
  return lines.join("\n");
}

/** `ralph: warning: aiwg.yml:12: agent_persistence.<path>: <message>` (for stderr; no file:line for env and file-level warnings). */
function warningLine(loaded: LoadedConfig, warning: LoadedConfig["warnings"][number]): string {
  const where = warning.line === null ? "" : `${fileName(loaded)}:${warning.line}: `;
  return `ralph: warning: ${where}${warning.path === "" ? "" : `agent_persistence.${warning.path}: `}${warning.message}\n`;
}

/** The config file's base name (aiwg.yml or aiwg.yaml), or null when there is none. */
function fileName(loaded: Pick<LoadedConfig, "file">): string | null {
  return loaded.file === null ? null : (loaded.file.split(/[\\/]/).pop() as string);
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "config");
  const repo = openRepository(ctx.cwd, ctx.env);
  const loaded = await loadConfig(repo.workTree, { env: ctx.env.vars });
  if (options.json !== true) for (const warning of loaded.warnings) ctx.stderr(warningLine(loaded, warning));
  const json = { config: loaded.config, sources: loaded.sources, warnings: loaded.warnings, file: loaded.file };
  if (options.check === true) {
    const name = fileName(loaded);
    const verdict =
      name === null ? "no aiwg.yml: every value is a default" : `${name}: valid${loaded.warnings.length > 0 ? ` (${loaded.warnings.length} warning${loaded.warnings.length === 1 ? "" : "s"})` : ""}`;
    return { json, text: verdict };
  }
  return { json, text: renderConfigText(loaded) };
}
