/** `ralph tests [REV] [--loop ID] [--json]`: the test cases ralph sees at a revision (default WORKTREE). */
import * as z from "zod/mini";
import { extractFacts, languageForPath } from "../../analysis/index.js";
import { resolveRev } from "../../store/rev.js";
import { walkTree } from "../../store/tree-diff.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { parseOptions, stringOption } from "../options.js";
import { openStore } from "./shared.js";

const Options = z.strictObject({ loop: z.optional(stringOption), json: z.optional(z.boolean()) });

/** One row of `ralph tests --json`. */
export interface TestRow {
  id: string;
  file: string;
  line: number;
  flags: string[];
  assertions: number;
}

/** Runs the command; see the module doc. */
export async function run(ctx: CommandContext, args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "tests");
  const store = openStore(ctx);
  const loop = store.resolveLoop(options.loop);
  const rev = resolveRev(store, args[0] ?? "WORKTREE", loop, true);
  const treeOid = rev.kind === "worktree" ? store.snapshot().treeOid : rev.treeOid;
  const rows: TestRow[] = [];
  const unparsable: { file: string; reason: string }[] = [];
  for (const [path, entry] of walkTree(store.odb, treeOid)) {
    // Only files a language extracts tests from (config and coverage files are analysable, but hold no tests).
    if (entry.mode === "160000" || entry.mode === "120000" || languageForPath(path) === null) continue;
    const content = store.odb.read(entry.oid).content;
    if (content.subarray(0, 8000).includes(0)) continue;
    const facts = await extractFacts(path, content.toString("utf8"));
    if (facts.parseError) unparsable.push({ file: path, reason: facts.parseError });
    else if (facts.notAnalyzed && facts.isTestFile) unparsable.push({ file: path, reason: facts.notAnalyzed });
    for (const t of facts.tests) {
      const flags = Object.entries(t.flags)
        .filter(([, on]) => on)
        .map(([name]) => name);
      rows.push({ id: t.id, file: path, line: t.line, flags, assertions: t.assertionCount });
    }
  }
  const lines = rows.map((r) => `${r.file}:${r.line}  ${r.id}${r.flags.length ? `  [${r.flags.join(", ")}]` : ""}`);
  lines.push(`${rows.length} test case${rows.length === 1 ? "" : "s"} in ${new Set(rows.map((r) => r.file)).size} files at ${rev.label}`);
  for (const u of unparsable) lines.push(`not analysed: ${u.file}: ${u.reason}`);
  return { json: { rev: rev.kind === "worktree" ? "WORKTREE" : rev.oid, tests: rows, unparsable }, text: lines.join("\n") };
}
