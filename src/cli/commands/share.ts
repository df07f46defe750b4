/**
 * `ralph push [REMOTE] [--force] [--prune] [--json]` and `ralph fetch
 * [REMOTE] [--force] [--prune] [--json]`: move every loop (`refs/ralph/*`)
 * to or from one remote (src/store/loop-sharing.ts). REMOTE defaults to
 * `origin`, else the only remote. An ordinary `git push` never carries
 * these refs; `git push --mirror` does (every ref), which the text output
 * reminds. A ref whose update is not a fast-forward is kept as it is on the
 * receiving side and listed (exit 0 with a warning); `--force` overwrites
 * it. git's own stderr (hook output, the remote's messages) is passed on
 * to stderr. JSON: {@link SyncResult}.
 *
 * Exit 0, or 2 when git cannot reach the remote or the remote is unknown.
 */
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import type { Repository } from "../../store/repo.js";
import type { CommandContext, CommandOutput } from "../context.js";
import type { CommandModule } from "../program.js";
import { parseOptions } from "../options.js";
import { openStore } from "./shared.js";

const Options = z.strictObject({
  force: z.optional(z.boolean()),
  prune: z.optional(z.boolean()),
  json: z.optional(z.boolean()),
});

/** The remote a push or fetch uses: the one named, else `origin`, else the only configured remote. @throws RalphError E_USAGE otherwise. */
export function defaultRemote(repo: Pick<Repository, "config">, named: string | undefined): string {
  if (named !== undefined && named !== "") return named;
  const remotes = new Set<string>();
  for (const key of repo.config.keys()) {
    const m = /^remote\.(.+)\.url$/.exec(key);
    if (m) remotes.add(m[1] as string);
  }
  if (remotes.has("origin")) return "origin";
  if (remotes.size === 1) return [...remotes][0] as string;
  throw new RalphError(
    "E_USAGE",
    remotes.size === 0 ? "this repository has no remote: name one (ralph push URL) or add one with git remote add" : `name the remote: ${[...remotes].sort().join(", ")}`,
    {
      data: { remotes: [...remotes] },
    },
  );
}

function command(direction: "push" | "fetch"): CommandModule {
  return {
    async run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
      const options = parseOptions(Options, raw, direction);
      const store = openStore(ctx);
      const remote = defaultRemote(store.repo, args[0]);
      const { syncLoopRefs } = await import("../../store/loop-sharing.js");
      const { gitStderr, ...result } = syncLoopRefs(store.repo.workTree, direction, remote, { force: options.force === true, prune: options.prune === true, env: ctx.env.vars });
      // What git said (pre-push hooks' lines, ralph's guard among them; the remote's messages) reaches the user as a plain git push shows it.
      if (gitStderr.trim() !== "") ctx.stderr(gitStderr.endsWith("\n") ? gitStderr : `${gitStderr}\n`);
      const verb = direction === "push" ? `pushed to ${remote}` : `fetched from ${remote}`;
      const lines = [
        `ralph: ${result.updated.length} loop ref(s) ${verb}, ${result.upToDate} already up to date`,
        ...result.updated.map((ref) => `  ${ref}`),
        ...result.rejected.map((r) => `ralph: warning: ${r.ref} not ${direction === "push" ? "pushed" : "fetched"}: ${r.reason}`),
      ];
      if (direction === "push") lines.push("ralph: note: an ordinary git push never sends refs/ralph/*; git push --mirror sends them all");
      for (const r of result.rejected) ctx.stderr(`ralph: warning: ${r.ref} not ${direction === "push" ? "pushed" : "fetched"}: ${r.reason}\n`);
      return { json: result, text: lines.filter((l) => !l.startsWith("ralph: warning:")).join("\n") };
    },
  };
}

/** `ralph push`. */
export const push = command("push");
/** `ralph fetch`. */
export const fetch = command("fetch");
