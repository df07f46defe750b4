/**
 * `ralph confirm [--restore] [--json]`: the user's answer when ralph's guard
 * was changed outside ralph (src/hooks/guard-record.ts): ralph's hook
 * entries in the agent settings, the git pre-push hook or core.hooksPath,
 * a loop's state or the active mark. Until it runs, every hook call, Stop,
 * `ralph status` and `ralph doctor` report the change and no loop counts as
 * completed. Plain `confirm` keeps the files as they are now (ralph records
 * them); `--restore` first writes the loop state and the active mark back
 * from ralph's copy under `.git/ralph/guard/`. Hooks are put back with
 * `ralph install`. The agent's Bash tool is denied this command
 * (src/hooks/bash-risk.ts: a human's decision).
 *
 * JSON: `{ changes: [{part, path, detail}], restored: [path], restore: boolean }`.
 */
import * as z from "zod/mini";
import { confirmGuard } from "../../hooks/guard-record.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions } from "../options.js";
import { openStore } from "./shared.js";

const Options = z.strictObject({
  restore: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "confirm");
  const repo = openStore(ctx).repo;
  const restore = options.restore ?? false;
  const result = confirmGuard(repo, { restore });
  const lines: string[] = [];
  if (result.changes.length === 0) lines.push("ralph: no change to ralph's guard was waiting for a confirmation");
  else {
    lines.push(`ralph: ${restore ? "restoring after" : "keeping"} ${result.changes.length} change(s) to ralph's guard:`);
    for (const change of result.changes) lines.push(`- ${change.path}: ${change.detail}`);
  }
  for (const path of result.restored) lines.push(`restored ${path} from ralph's copy`);
  const hooksChanged = result.changes.some((c) => c.part === "agent-settings" || c.part === "git-hook" || c.part === "git-config");
  if (hooksChanged)
    lines.push(restore ? "put ralph's hooks back with: ralph install --claude (and --git-hooks)" : "ralph's hooks stay as they are now; reinstall with: ralph install --claude (and --git-hooks)");
  return { json: { changes: result.changes, restored: result.restored, restore }, text: lines.join("\n") };
}
