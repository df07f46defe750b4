/**
 * Whether a Bash command the agent is about to run starts a ralph loop
 * (`ralph start …`, `npx ralph start …`, `node …/ralph/dist/cli.js start …`),
 * so the PreToolUse hook can record the agent's session as the loop's owner
 * (src/loop/owner.ts). A light reading of the command: it is split into
 * simple commands at `;`, `&`, `|`, newlines, parentheses and backquotes,
 * quotes are removed from words, leading `NAME=value` assignments and
 * `exec`/`command`/`time`/`env` are skipped, and options before the
 * subcommand are skipped, the same shapes src/hooks/bash-risk.ts reads for
 * ralph's own subcommands. A `ralph start` inside quotes (`grep 'ralph
 * start'`) is a word, not a command, and does not count. A wrong guess only
 * leaves a claim that a `ralph start` within 10 minutes would take.
 */

/** Words of a simple command, quotes removed (no expansion). */
function wordsOf(segment: string): string[] {
  const words: string[] = [];
  for (const m of segment.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? "");
  return words;
}

/** Splits a command line into simple commands, keeping quoted text whole. */
function simpleCommands(command: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote) {
      current += c;
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < command.length) current += command[++i];
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (";&|\n()`".includes(c)) {
      out.push(current);
      current = "";
    } else current += c;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

/**
 * The ralph subcommand a simple command runs, or null: `ralph X`, `npx|pnpx|bunx ralph X`,
 * `pnpm|yarn exec ralph X`, `node …/ralph/dist/cli.js X` (options skipped; `name` may be a path).
 * The one reading of "this command runs ralph" for the PreToolUse hook's owner claim and for
 * src/hooks/bash-risk.ts's human-only subcommands.
 */
export function ralphSubcommand(name: string, args: readonly string[]): string | null {
  const positional = args.filter((a) => !a.startsWith("-"));
  const base = name.split("/").pop() ?? name;
  if (base === "ralph") return positional[0] ?? null;
  if ((base === "npx" || base === "pnpx" || base === "bunx") && positional[0] === "ralph") return positional[1] ?? null;
  if ((base === "pnpm" || base === "yarn") && positional[0] === "exec" && positional[1] === "ralph") return positional[2] ?? null;
  if (base === "node" && positional[0] !== undefined && /(^|\/)(ralph(\/dist)?\/cli\.js|ralph)$/.test(positional[0])) return positional[1] ?? null;
  return null;
}

const PREFIX_WORDS: ReadonlySet<string> = new Set(["exec", "command", "time", "env", "nohup"]);

/** True when one of the command's simple commands runs `ralph start`. Pure. */
export function runsRalphStart(command: string): boolean {
  for (const segment of simpleCommands(command)) {
    let words = wordsOf(segment);
    while (words.length > 0 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] as string) || PREFIX_WORDS.has(words[0] as string))) words = words.slice(1);
    const [name, ...args] = words;
    if (name === undefined) continue;
    const sub = ralphSubcommand(name, args);
    if (sub === "start") return true;
  }
  return false;
}
