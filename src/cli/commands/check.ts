/**
 * `ralph check [--from REV] [--to REV] [--format text|json|sarif|github|gitlab] [--fail-on block|warn] [--loop ID]`:
 * (gitlab: GitLab's Code Quality report, ../reporters/gitlab.ts)
 * judge the change between two revisions. Exit 1 when the verdict is at or
 * above --fail-on (BLOCK by default), 0 otherwise.
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { judgeChange } from "../../loop/check.js";
import { judgeOptionsFor } from "../../loop/settings.js";
import { resolveRev } from "../../store/rev.js";
import { commandProgress } from "../progress.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { colourEnabled, renderJudgementGithub, renderJudgementText } from "../reporters/findings.js";
import { renderJudgementSarif } from "../reporters/sarif.js";
import { renderJudgementGitlab } from "../reporters/gitlab.js";
import { commandLoop, openStore } from "./shared.js";

const Options = z.strictObject({
  from: z.optional(stringOption),
  to: z.optional(stringOption),
  format: z._default(z.enum(["text", "json", "sarif", "github", "gitlab"]), "text"),
  failOn: z._default(z.enum(["block", "warn"]), "block"),
  loop: z.optional(stringOption),
  json: z.optional(z.boolean()),
});

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "check");
  const store = openStore(ctx);
  const loop = commandLoop(store, options.loop, "checkpoints");
  // Default "from": the loop's baseline, else HEAD (a repository with no loops, as in CI).
  const fromRev = options.from ?? (store.readLoopRef(loop, "baseline") ? "@baseline" : "HEAD");
  const from = resolveRev(store, fromRev, loop);
  if (from.kind !== "commit") throw new RalphError("E_USAGE", "--from cannot be WORKTREE");
  const to = resolveRev(store, options.to ?? "WORKTREE", loop, true);
  // Progress on stderr while it is a terminal (never in a pipe: src/cli/progress.ts).
  const progress = commandProgress(ctx);
  let judgement: Awaited<ReturnType<typeof judgeChange>>;
  try {
    judgement = await judgeChange(store, from, to, { ...(await judgeOptionsFor(store.repo.workTree, loop, ctx.env.vars)), progress });
  } finally {
    progress.done();
  }
  const failing = judgement.verdict === "BLOCK" || (options.failOn === "warn" && judgement.verdict === "WARN");
  const { changes: _changes, ...json } = judgement;
  const format = options.json ? "json" : options.format;
  const text =
    format === "github"
      ? renderJudgementGithub(judgement)
      : format === "sarif"
        ? renderJudgementSarif(judgement)
        : format === "gitlab"
          ? renderJudgementGitlab(judgement)
          : renderJudgementText(judgement, from.label, to.label, { colour: colourEnabled(ctx.env.vars, ctx.stdoutIsTTY) });
  return { json, text, exitCode: failing ? 1 : 0 };
}
