/**
 * `ralph tests [REV] [--loop ID] [--json]`: the test cases ralph sees at a
 * revision (default WORKTREE), in the files the project's test runner
 * collects (src/usecases/tests.ts lists them; this command prints them).
 */
import * as z from "zod/mini";
import { resolveRev } from "../../store/rev.js";
import { listTests, type TestListing, type TestRow } from "../../usecases/tests.js";
import { commandProgress } from "../progress.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { commandLoop, openStore } from "./shared.js";

export type { TestRow } from "../../usecases/tests.js";

const Options = z.strictObject({ loop: z.optional(stringOption), json: z.optional(z.boolean()) });

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "tests");
  const store = openStore(ctx);
  const loop = commandLoop(store, options.loop, "checkpoints");
  const rev = resolveRev(store, args[0] ?? "WORKTREE", loop, true);
  // Progress on stderr while it is a terminal: the first run parses every test file (later ones hit the facts cache).
  const progress = commandProgress(ctx);
  try {
    return render(await listTests(store, rev, progress));
  } finally {
    progress.done();
  }
}

/** The listing as `--json` and text output. */
function render(listing: TestListing): CommandOutput {
  const { tests: rows, unparsable, notCollected } = listing;
  const declared = (r: TestRow): string => (r.declared_in ? `  (declared at ${r.declared_in.file}:${r.declared_in.line})` : "");
  const flagText = (r: TestRow): string => r.flags.map((flag) => (flag === "conditional" && r.conditional_via ? `conditional: ${r.conditional_via}` : flag)).join(", ");
  const lines = rows.map((r) => `${r.file}:${r.line}  ${r.id}${r.flags.length ? `  [${flagText(r)}]` : ""}${declared(r)}`);
  lines.push(`${rows.length} test case${rows.length === 1 ? "" : "s"} in ${new Set(rows.map((r) => r.file)).size} files at ${listing.label}`);
  for (const u of unparsable) lines.push(`not analysed: ${u.file}: ${u.reason}`);
  if (notCollected.length > 0) {
    const by = [...new Set(notCollected.map((n) => n.by))].join("; ");
    lines.push(`${notCollected.length} test-like file${notCollected.length === 1 ? "" : "s"} left out by the runner config (${by}), not counted`);
  }
  return { json: { rev: listing.rev, tests: rows, unparsable, not_collected: notCollected }, text: lines.join("\n") };
}
