/**
 * The command table and argv dispatch. cac parses; each command's module is
 * imported only when that command runs, so `ralph --version` and hook calls
 * load nothing they do not use.
 */
import { cac, type CAC } from "cac";
import { RalphError } from "../errors.js";
import type { CommandContext, CommandOutput } from "./context.js";
import { normalizeOptions } from "./options.js";

/** A command module: validates its own options and returns data. */
export interface CommandModule {
  run(ctx: CommandContext, args: string[], options: Record<string, unknown>): Promise<CommandOutput>;
}

interface CommandSpec {
  name: string;
  usage: string;
  description: string;
  options: [flags: string, description: string][];
  load: () => Promise<CommandModule>;
}

const JSON_FLAG: [string, string] = ["--json", "Print one JSON object on stdout"];
const LOOP_FLAG: [string, string] = ["--loop <id>", "Loop id (default: $RALPH_LOOP, else the active loop, else the latest activity, else 'default')"];

/** Every command, in help order. */
export const COMMANDS: CommandSpec[] = [
  {
    name: "checkpoint",
    usage: "checkpoint",
    description: "Store the working tree as a checkpoint commit (prints its oid, or 'unchanged')",
    options: [
      ["-m, --message <msg>", "Subject line"],
      LOOP_FLAG,
      ["--kind <kind>", "baseline | iteration | pre-tool | post-tool | pre-revert | manual (default manual)"],
      ["--iteration <n>", "Iteration number (with --kind iteration)"],
      JSON_FLAG,
    ],
    load: () => import("./commands/checkpoint.js"),
  },
  {
    name: "log",
    usage: "log",
    description: "List a loop's checkpoints, newest first",
    options: [LOOP_FLAG, ["--all", "All loops"], ["-n, --limit <n>", "At most n checkpoints per loop"], JSON_FLAG],
    load: () => import("./commands/log.js"),
  },
  {
    name: "loops",
    usage: "loops",
    description: "List the loops in this repository",
    options: [JSON_FLAG],
    load: () => import("./commands/loops.js"),
  },
  {
    name: "diff",
    usage: "diff <from> [to]",
    description: "Files changed between two revisions (to defaults to WORKTREE), and findings",
    options: [LOOP_FLAG, JSON_FLAG],
    load: () => import("./commands/diff.js"),
  },
  {
    name: "check",
    usage: "check",
    description: "Judge a change: deleted tests and other regressions (exit 1 at or above --fail-on)",
    options: [
      ["--from <rev>", "Before side (default: the named loop's baseline, else HEAD)"],
      ["--to <rev>", "After side (default: WORKTREE)"],
      ["--format <format>", "text | json | sarif | github | gitlab (default text; gitlab: a Code Quality report)"],
      ["--fail-on <level>", "block | warn (default block)"],
      LOOP_FLAG,
      JSON_FLAG,
    ],
    load: () => import("./commands/check.js"),
  },
  {
    name: "revert",
    usage: "revert <target>",
    description: "Restore the working tree to a checkpoint (a pre-revert checkpoint is written first)",
    options: [LOOP_FLAG, ["--dry-run", "Show what would change, change nothing"], ["--force", "Allow deleting more than half of the tracked files"], JSON_FLAG],
    load: () => import("./commands/revert.js"),
  },
  {
    name: "tests",
    usage: "tests [rev]",
    description: "List the test cases ralph sees (id, file, line, flags) at a revision (default WORKTREE)",
    options: [LOOP_FLAG, JSON_FLAG],
    load: () => import("./commands/tests.js"),
  },
  {
    name: "config",
    usage: "config",
    description: "The effective project config (aiwg.yml, section agent_persistence) and where each value comes from",
    options: [["--check", "Only validate: exit 2 on an invalid file, 0 otherwise (warnings on stderr)"], JSON_FLAG],
    load: () => import("./commands/config.js"),
  },
  {
    name: "hook",
    usage: "hook <agent> [event] [...args]",
    description:
      "An agent's or git's hook (claude|codex|gemini|cursor EVENT: event JSON on stdin, one JSON decision on stdout in the agent's protocol; git pre-push REMOTE URL: exit 1 refuses the push)",
    options: [],
    load: () => import("./commands/hook.js"),
  },
  {
    name: "install",
    usage: "install",
    description:
      "Install ralph's hooks: --claude merges them into .claude/settings.json (--local: settings.local.json); --codex, --gemini, --cursor into .codex/hooks.json, .gemini/settings.json, .cursor/hooks.json; --git-hooks registers the pre-push guard",
    options: [
      ["--claude", "Claude Code hooks"],
      ["--codex", "Codex CLI hooks (.codex/hooks.json; Codex runs them once the project and the hooks are trusted)"],
      ["--gemini", "Gemini CLI hooks (.gemini/settings.json)"],
      ["--cursor", "Cursor hooks (.cursor/hooks.json)"],
      ["--local", "Write .claude/settings.local.json instead of settings.json (with --git-hooks and lefthook: lefthook-local.yml)"],
      [
        "--git-hooks",
        "git's pre-push guard, registered with the hook manager in charge (husky, lefthook, pre-commit, simple-git-hooks), else the pre-push hook itself (an existing hook is kept and run first)",
      ],
      ["--manager <name>", "With --git-hooks: husky | lefthook | pre-commit | simple-git-hooks | none instead of the detected one"],
      ["--global", "With --git-hooks: allow writing into a core.hooksPath set in the global git config (shared by every repository)"],
      JSON_FLAG,
    ],
    load: () => import("./commands/install.js"),
  },
  {
    name: "uninstall",
    usage: "uninstall",
    description: "Remove exactly the hooks 'ralph install' wrote (default: every agent's and git's), keeping every other hook",
    options: [
      ["--claude", "Only the Claude Code hooks"],
      ["--codex", "Only the Codex CLI hooks"],
      ["--gemini", "Only the Gemini CLI hooks"],
      ["--cursor", "Only the Cursor hooks"],
      ["--local", "Only .claude/settings.local.json"],
      ["--git-hooks", "Only the git pre-push hook (the hook it chained is put back)"],
      JSON_FLAG,
    ],
    load: () => import("./commands/uninstall.js"),
  },
  {
    name: "doctor",
    usage: "doctor",
    description: "Is everything installed and answering? Runs each installed hook with a synthetic payload",
    options: [JSON_FLAG],
    load: () => import("./commands/doctor.js"),
  },
  {
    name: "push",
    usage: "push [remote]",
    description: "Send every loop (refs/ralph/*) to a remote (default origin); an ordinary git push never does, git push --mirror does",
    options: [["--force", "Overwrite remote loop refs that are not fast-forwards"], ["--prune", "Delete remote loop refs this repository no longer has"], JSON_FLAG],
    load: async () => (await import("./commands/share.js")).push,
  },
  {
    name: "fetch",
    usage: "fetch [remote]",
    description: "Get every loop (refs/ralph/*) from a remote (default origin); local loop refs that are not fast-forwards are kept",
    options: [["--force", "Overwrite local loop refs that are not fast-forwards"], ["--prune", "Delete local loop refs the remote no longer has"], JSON_FLAG],
    load: async () => (await import("./commands/share.js")).fetch,
  },
  {
    name: "gc",
    usage: "gc",
    description: "Delete the refs of finished loops older than --older-than (keeping baseline and best unless --all); prune caches of objects nothing references",
    options: [
      ["--older-than <age>", "Age of the newest checkpoint: 30d (default), 12h, 2w (units s m h d w)"],
      ["--all", "Also delete baseline and best"],
      ["--dry-run", "Say what would be deleted, delete nothing"],
      JSON_FLAG,
    ],
    load: () => import("./commands/gc.js"),
  },
  {
    name: "stats",
    usage: "stats",
    description: "Hook latency per event (p50/p95/p99, whole process) from hook-log.jsonl",
    options: [LOOP_FLAG, JSON_FLAG],
    load: () => import("./commands/stats.js"),
  },
  {
    name: "demo",
    usage: "demo",
    description: "The whole job on an embedded sample project: a scripted Claude Code session through ralph's real hooks, select --best, report",
    options: [["--keep", "Keep the sample repository and print its path"], JSON_FLAG],
    load: () => import("./commands/demo.js"),
  },
  {
    name: "start",
    usage: "start <task>",
    description: "Start a loop (baseline checkpoint, active loop), or resume the active or crashed one",
    options: [
      ["--completion <cmd>", "The completion command: the loop is done when it exits 0 (required unless aiwg.yml sets loop.completion_command)"],
      ["--quality <cmd>", "A command whose last output line is the iteration's quality score 0-100 (default: ralph's formula)"],
      ["--max-iterations <n>", "Iterations before the loop gives up (default 20, at most 200)"],
      ["--id <id>", "Loop id (default ralph-<slug of task>-<8 hex>)"],
      ["--completion-timeout <ms>", "Time limit of one completion check in ms (default 60000)"],
      ["--auto-extend", "At max iterations, extend by 10 (up to 200) instead of stopping"],
      ["--session <id>", "The Claude Code session that owns the loop (only its stops are held)"],
      JSON_FLAG,
    ],
    load: () => import("./commands/start.js"),
  },
  {
    name: "status",
    usage: "status",
    description: "A loop's status, iteration, last completion check and counters",
    options: [["--loop <id>", "Loop id (default: $RALPH_LOOP, else the active loop, else the latest activity of a loop with a state)"], JSON_FLAG],
    load: () => import("./commands/status.js"),
  },
  {
    name: "cancel",
    usage: "cancel",
    description: "End a loop: status aborted, and a cancel signal the Stop hook honours for 30 s",
    options: [["--loop <id>", "Loop id (default: $RALPH_LOOP, else the active loop, else the latest activity of a loop with a state)"], JSON_FLAG],
    load: () => import("./commands/cancel.js"),
  },
  {
    name: "iterate",
    usage: "iterate",
    description: "End an iteration of a shell-driven loop: checkpoint, completion command (exit 0: keep going, 2: loop over)",
    options: [["--loop <id>", "Loop id (default: $RALPH_LOOP, else the active loop, else the latest activity of a loop with a state)"], JSON_FLAG],
    load: () => import("./commands/iterate.js"),
  },
  {
    name: "resume",
    usage: "resume",
    description: "A paused (no decision pending) or crashed loop runs on",
    options: [LOOP_FLAG, JSON_FLAG],
    load: () => import("./commands/resume.js"),
  },
  {
    name: "approve",
    usage: "approve",
    description: "Human gate: keep the change that paused the loop; its findings are allowed for the rest of the loop",
    options: [LOOP_FLAG, JSON_FLAG],
    load: async () => (await import("./commands/decide.js")).approve,
  },
  {
    name: "reject",
    usage: "reject",
    description: "Human gate: restore the last good checkpoint (undoable) and let the loop run on",
    options: [LOOP_FLAG, ["--force", "Restore even when it deletes more than half of the tracked files"], JSON_FLAG],
    load: async () => (await import("./commands/decide.js")).reject,
  },
  {
    name: "abort",
    usage: "abort",
    description: "Human gate: end the loop (aborted)",
    options: [LOOP_FLAG, JSON_FLAG],
    load: async () => (await import("./commands/decide.js")).abort,
  },
  {
    name: "confirm",
    usage: "confirm",
    description: "ralph's guard was changed outside ralph (hooks, git hook, loop state): keep it as it is now, or --restore the loop state from ralph's copy",
    options: [["--restore", "Write the loop state and active mark back from ralph's copy under .git/ralph/guard"], JSON_FLAG],
    load: () => import("./commands/confirm.js"),
  },
  {
    name: "select",
    usage: "select",
    description: "--best: restore the best iteration (quality >= threshold, verified first, highest score) and move /best",
    options: [
      ["--best", "Select the best iteration (required)"],
      LOOP_FLAG,
      ["--threshold <n>", "Quality threshold 0-100 (default aiwg.yml best_output_selection.quality_threshold, 70)"],
      ["--dry-run", "Say what would be restored, change nothing"],
      ["--force", "Restore even when it deletes more than half of the tracked files"],
      JSON_FLAG,
    ],
    load: () => import("./commands/select.js"),
  },
  {
    name: "daemon",
    usage: "daemon [action]",
    description: "The work tree's warm process: status (pid, socket, uptime, requests, memory, build) or stop",
    options: [JSON_FLAG],
    load: () => import("./commands/daemon.js"),
  },
  {
    name: "report",
    usage: "report",
    description: "Write the loop's analytics.json, report.md and quality.svg (quality per iteration, best vs final, regressions, targets)",
    options: [LOOP_FLAG, ["--threshold <n>", "Quality threshold 0-100 for best-output selection and the chart (default 70)"], JSON_FLAG],
    load: () => import("./commands/report.js"),
  },
];

/** Flags whose value is a number; every other value-taking flag keeps its text exactly. */
const NUMERIC_FLAGS = new Set(["limit", "n", "iteration"]);

/** Marks a flag value so cac (mri) cannot turn "007" into 7; {@link normalizeOptions} removes the mark. */
export const STRING_MARK = "\u0001";

/** Builds the cac program for the command table. */
export function buildCli(version: string): CAC {
  const cli = cac("ralph");
  for (const spec of COMMANDS) {
    const command = cli.command(spec.usage, spec.description);
    for (const [flags, description] of spec.options) command.option(flags, description);
  }
  cli.help();
  cli.version(version);
  return cli;
}

/**
 * Marks the values of string-valued flags (`--loop 007`, `--message=42`,
 * `-m 1e3`) so they survive cac's number conversion. Flag names come from
 * the command table; arguments after `--` are left alone.
 */
export function protectStringValues(argv: readonly string[]): string[] {
  const valued = new Set<string>();
  for (const spec of COMMANDS) {
    for (const [flags] of spec.options) {
      if (!flags.includes("<")) continue;
      for (const m of flags.matchAll(/--?([\w-]+)/g)) if (!NUMERIC_FLAGS.has(m[1] as string)) valued.add(m[1] as string);
    }
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const m = /^--?([\w-]+)(=(.*))?$/s.exec(token);
    if (m && valued.has(m[1] as string)) {
      if (m[2] !== undefined) out.push(`${token.slice(0, token.indexOf("=") + 1)}${STRING_MARK}${m[3]}`);
      else {
        out.push(token);
        if (i + 1 < argv.length && !(argv[i + 1] as string).startsWith("-")) out.push(`${STRING_MARK}${argv[++i]}`);
      }
      continue;
    }
    out.push(token);
  }
  return out;
}

/**
 * Runs `fn` with `console.info` (where cac prints help and version) writing
 * to `write` instead of the process's stdout, so an in-process run (tests,
 * the warm process) gets its help text on its own stream. Synchronous, so no
 * other run's output can come in between.
 */
function withCacOutput<T>(write: (text: string) => void, fn: () => T): T {
  const original = console.info;
  console.info = (...parts: unknown[]): void => write(`${parts.map(String).join(" ")}\n`);
  try {
    return fn();
  } finally {
    console.info = original;
  }
}

/**
 * Parses argv (without node and script) and runs the matched command.
 * Help and version text (cac's) go to `ctx.stdout`.
 * @throws RalphError E_USAGE for an unknown command; whatever the command throws.
 * @returns the command output, or null when help was printed.
 */
export async function dispatch(argv: string[], ctx: CommandContext, version: string): Promise<{ output: CommandOutput; wantsJson: boolean } | null> {
  const cli = buildCli(version);
  let parsed: ReturnType<typeof cli.parse>;
  try {
    parsed = withCacOutput(ctx.stdout, () => cli.parse(["node", "ralph", ...protectStringValues(argv)], { run: false }));
  } catch (error) {
    throw new RalphError("E_USAGE", `${(error as Error).message}; see 'ralph --help'`, { cause: error });
  }
  if (parsed.options.help || parsed.options.version) return null;
  const name = cli.matchedCommandName;
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec) {
    const given = argv.find((a) => !a.startsWith("-"));
    if (given === undefined) {
      withCacOutput(ctx.stdout, () => cli.outputHelp());
      return null;
    }
    throw new RalphError("E_USAGE", `unknown command '${given}'; see 'ralph --help'`, { data: { command: given } });
  }
  const { help: _help, version: _version, ...options } = parsed.options as Record<string, unknown>;
  const args = parsed.args.map(String);
  const required = (spec.usage.match(/<[^>]+>/g) ?? []).length;
  const allowed = (spec.usage.match(/[<[][^\]>]+[>\]]/g) ?? []).length;
  if (args.length < required) throw new RalphError("E_USAGE", `missing argument: usage 'ralph ${spec.usage}'`, { data: { command: spec.name } });
  if (args.length > allowed) throw new RalphError("E_USAGE", `too many arguments: usage 'ralph ${spec.usage}'`, { data: { command: spec.name } });
  const module = await spec.load();
  const output = await module.run(ctx, args, options);
  const normalized = normalizeOptions(options);
  const wantsJson = normalized.json === true || normalized.format === "json";
  return { output, wantsJson };
}
