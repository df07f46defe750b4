/** `ralph diff FROM [TO] [--loop ID] [--json]`: files changed between two revisions (TO defaults to WORKTREE), and findings. */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { judgeChange } from "../../loop/check.js";
import { judgeOptionsFor } from "../../loop/settings.js";
import { resolveRev } from "../../store/rev.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { colourEnabled, renderJudgementText } from "../reporters/findings.js";
import { commandLoop, openStore } from "./shared.js";

const Options = z.strictObject({ loop: z.optional(stringOption), json: z.optional(z.boolean()) });

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "diff");
  const store = openStore(ctx);
  const loop = commandLoop(store, options.loop, "checkpoints");
  const from = resolveRev(store, args[0] as string, loop);
  if (from.kind !== "commit") throw new RalphError("E_USAGE", "FROM cannot be WORKTREE");
  const to = resolveRev(store, args[1] ?? "WORKTREE", loop, true);
  const j = await judgeChange(store, from, to, await judgeOptionsFor(store.repo.workTree, loop, ctx.env.vars));
  // snake_case; the camelCase keys are kept one release (README: JSON keys are snake_case).
  const files = j.changes.map((c) => ({
    path: c.path,
    status: c.status,
    old_mode: c.oldMode,
    new_mode: c.newMode,
    old_oid: c.oldOid,
    new_oid: c.newOid,
    oldMode: c.oldMode,
    newMode: c.newMode,
    oldOid: c.oldOid,
    newOid: c.newOid,
  }));
  const lines = files.map((f) => `${f.status}  ${f.path}${f.status === "T" ? `  (${f.oldMode} -> ${f.newMode})` : ""}`);
  if (files.length === 0) lines.push("no changes");
  lines.push("", renderJudgementText(j, from.label, to.label, { colour: colourEnabled(ctx.env.vars, ctx.stdoutIsTTY) }));
  return {
    json: { from: j.from, to: j.to, files, verdict: j.verdict, findings: j.findings, stats: j.stats, not_analyzed: j.not_analyzed },
    text: lines.join("\n"),
  };
}
