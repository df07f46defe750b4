/**
 * Reinforcement: the text that keeps an agent on its task when its Stop is
 * blocked (DESIGN.md "Loop engine"; reference guide "pre_iteration":
 * MINIMAL for iterations 1-2, STANDARD 3-4, AGGRESSIVE 5+). Written as
 * facts the model can act on (issue 4: `additionalContext` and reasons are
 * facts, not commands): what failed, what must not be done and why ralph
 * will see it, what to try next. The block message also pre-empts the usual
 * rationalisations (persistent-loop-stop-hook guide, "Block 消息设计").
 */

import { DEFAULT_PROGRESS_SETTINGS, levelForIteration } from "./progress.js";

/** Reinforcement levels, weakest first. */
export const REINFORCEMENT_LEVELS = ["MINIMAL", "STANDARD", "AGGRESSIVE"] as const;
/** A reinforcement level. */
export type ReinforcementLevel = (typeof REINFORCEMENT_LEVELS)[number];

/**
 * The level for an iteration number (1-based) under the reference guide's
 * default thresholds: 1-2 MINIMAL, 3-4 STANDARD, 5+ AGGRESSIVE; a plateau
 * forces AGGRESSIVE. The loop engine applies the configured thresholds
 * with progress.ts `levelForIteration` (the same rule).
 */
export function reinforcementLevel(iteration: number, options: { plateau?: boolean } = {}): ReinforcementLevel {
  return options.plateau ? "AGGRESSIVE" : levelForIteration(iteration, DEFAULT_PROGRESS_SETTINGS);
}

/** What a template is filled with. */
export interface ReinforcementContext {
  loop: string;
  /** The iteration that just ended (1-based). */
  iteration: number;
  maxIterations: number;
  task: string;
  completionCommand: string;
  /** Exit code of the failed check, or null (signal / timeout). */
  exitCode: number | null;
  timedOut: boolean;
  /** The check's time limit, in ms. */
  timeoutMs: number;
  /** Consecutive blocks with an unchanged work tree before this one. */
  unchangedBlocks: number;
  /** The user's templates (aiwg.yml `reinforcement.templates_dir`), replacing the built-in text of their levels. */
  templates?: Partial<Record<ReinforcementLevel, string>>;
}

/** The templates, one per level; `{name}` placeholders are filled from {@link ReinforcementContext}. */
export const REINFORCEMENT_TEMPLATES: Readonly<Record<ReinforcementLevel, string>> = {
  MINIMAL: [
    "The task is not done: the completion command `{completion}` {failure}.",
    "Its output ends with the lines above. Fix the cause in the code and stop again; ralph runs the command at every stop.",
    "Tests and checks stay as they are: ralph compares every checkpoint with the baseline and reports deleted, skipped or weakened tests.",
  ].join("\n"),
  STANDARD: [
    "The task is still not done after {iteration} iterations: `{completion}` {failure}.",
    "- Read the failure above and find its cause before changing code; re-run the command yourself to confirm a fix.",
    "- Deleting, skipping or loosening a test, or editing the test configuration to pass, is detected against the baseline and will not count as done.",
    '- Completion means the command exits 0 with the original task\'s requirements met: "{task}".',
    "- A partial fix with caveats, or a plan for a follow-up, is not completion.",
  ].join("\n"),
  AGGRESSIVE: [
    "Iteration {iteration} of {max}: `{completion}` {failure}. The approach so far has not worked.",
    "- Step back: list what the failure says, what you changed in the last iterations, and why it did not help.",
    "- Try a different approach than the one repeated so far; make the smallest change that the output points at.",
    "- Tests, assertions, skips, test configuration and validation are compared with the baseline at every stop: removing or weakening them is reported as reward hacking and does not end the loop.",
    '- Done means `{completion}` exits 0 and the task is met: "{task}". Claiming completion with caveats does not end the loop.',
  ].join("\n"),
};

function describeFailure(ctx: ReinforcementContext): string {
  if (ctx.timedOut) return `did not finish within ${Math.round(ctx.timeoutMs / 1000)} s and was stopped`;
  if (ctx.exitCode === null) return "was killed by a signal";
  // POSIX sh: 127 command not found, 126 found but not executable.
  if (ctx.exitCode === 127) return "exits 127: the shell did not find the command (check its spelling and PATH)";
  if (ctx.exitCode === 126) return "exits 126: the command is not executable";
  return `exits ${ctx.exitCode}`;
}

/**
 * The reinforcement text of a level, filled in: the user's template for
 * the level when `ctx.templates` has one, else the built-in one. Placeholders:
 * `{completion}`, `{failure}`, `{iteration}`, `{max}`, `{task}`, `{loop}`;
 * an unknown one is left as written.
 */
export function renderReinforcement(level: ReinforcementLevel, ctx: ReinforcementContext): string {
  const values: Record<string, string> = {
    completion: ctx.completionCommand,
    failure: describeFailure(ctx),
    iteration: String(ctx.iteration),
    max: String(ctx.maxIterations),
    task: ctx.task,
    loop: ctx.loop,
  };
  return (ctx.templates?.[level] ?? REINFORCEMENT_TEMPLATES[level]).replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole).replace(/\n+$/, "");
}

/**
 * The most a Stop reason may hold, in characters: what the Claude Code hook
 * sends without cutting (src/hooks/claude.ts MAX_REASON_CHARS, under the
 * hooks reference's 10,000-character cap on injected output).
 */
export const MAX_REASON_CHARS = 9_500;
/** Of a longer task, how much the reinforcement text quotes where a template says `{task}` (the header quotes it whole, room permitting), in characters. */
export const TASK_IN_TEMPLATE_CHARS = 300;
/** Output lines quoted in a reason. */
export const OUTPUT_TAIL_LINES = 40;

/**
 * The last `maxLines` lines of `output`, at most `maxChars` characters
 * (cut at the front, marked with "…").
 */
export function tailOf(output: string, maxLines = OUTPUT_TAIL_LINES, maxChars = 6_000): string {
  const lines = output.replace(/\r\n?/g, "\n").replace(/\n+$/, "").split("\n");
  let tail = lines.slice(-maxLines).join("\n");
  if (tail.length > maxChars) tail = `…${tail.slice(tail.length - maxChars + 1)}`;
  return tail;
}

/** The first characters of `task` that fit `room` with a note of what was cut (at least a few words, whatever the room). */
function clipTask(task: string, room: number, where: string): string {
  const total = task.length.toLocaleString("en-US");
  const noteOf = (shown: number) => `… (task cut: ${shown} of ${total} characters shown; ${where})`;
  const shown = Math.max(80, room - noteOf(task.length).length);
  return `${task.slice(0, shown).trimEnd()}${noteOf(shown)}`;
}

/**
 * The reason of a Stop block: a header (`[RALPH LOOP n/max]`, the task),
 * the tail of the failing output, ralph's evaluation of the iteration
 * (quality, findings against the baseline, recovery; at most 3,000
 * characters), the reinforcement of the level, and a note when the work
 * tree is unchanged since earlier blocks; always at most
 * {@link MAX_REASON_CHARS} characters. Budgeted so what the agent acts on
 * survives a long task (issue 10: a 20,000-character task was the whole
 * reason): the instructions and the evaluation are kept whole, the output
 * gets up to 6,000 characters of its last lines, and the task gets what is
 * left (cut with a note); a template's `{task}` quotes at most
 * {@link TASK_IN_TEMPLATE_CHARS} of it.
 */
export function buildBlockReason(ctx: ReinforcementContext, output: string, level: ReinforcementLevel, evaluation = ""): string {
  const task = ctx.task;
  const templateTask = task.length <= TASK_IN_TEMPLATE_CHARS ? task : clipTask(task, TASK_IN_TEMPLATE_CHARS, "quoted at the top");
  const headerOf = (quotedTask: string) => `[RALPH LOOP ${ctx.loop} · iteration ${ctx.iteration}/${ctx.maxIterations} · ${level}] Task: ${quotedTask}`;
  const unchanged =
    ctx.unchangedBlocks > 0
      ? `\nThe work tree has not changed since the previous stop (${ctx.unchangedBlocks} time${ctx.unchangedBlocks === 1 ? "" : "s"} in a row); at the third stop in a row on an unchanged tree ralph lets the session end with the loop unfinished.`
      : "";
  const body = `${evaluation ? `${evaluation.slice(0, 3_000)}\n\n` : ""}${renderReinforcement(level, { ...ctx, task: templateTask })}${unchanged}`;
  const frame = (header: string, quoted: string) => `${header}\n\nOutput of \`${ctx.completionCommand}\` (last lines):\n${quoted}\n\n${body}`;
  const taskFloor = Math.min(task.length, TASK_IN_TEMPLATE_CHARS);
  const tail = tailOf(output, OUTPUT_TAIL_LINES, Math.max(500, Math.min(6_000, MAX_REASON_CHARS - frame(headerOf(""), "").length - taskFloor - 100)));
  const quoted = tail === "" ? "(the command printed nothing)" : tail;
  const room = MAX_REASON_CHARS - frame(headerOf(""), quoted).length;
  const reason = frame(headerOf(task.length <= room ? task : clipTask(task, room, "'ralph status --json' shows all of it")), quoted);
  return reason.length <= MAX_REASON_CHARS ? reason : `${reason.slice(0, MAX_REASON_CHARS - 1)}…`;
}
/** The template file names of a templates folder: `MINIMAL.md`, `STANDARD.md`, `AGGRESSIVE.md`. */
export const TEMPLATE_FILE_NAMES: Readonly<Record<ReinforcementLevel, string>> = { MINIMAL: "MINIMAL.md", STANDARD: "STANDARD.md", AGGRESSIVE: "AGGRESSIVE.md" };
