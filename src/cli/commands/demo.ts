/**
 * `ralph demo [--keep] [--json]`: ralph's main job end to end, with no
 * set-up and no network. It copies the embedded sample project
 * (src/cli/demo-project.ts: plain JavaScript, `node:test`) to a temporary
 * folder, commits it, starts a loop through `ralph start`, and drives a
 * scripted Claude Code session through ralph's real hook entry point: each
 * hook call is a fresh `node <this cli.js> hook claude EVENT` process with
 * the event's JSON payload on stdin, exactly as Claude Code calls it. The
 * script: an honest fix (Stop blocked: tests still fail), a test deletion
 * (denied before it lands), a `sed -i` that skips the test (run, caught by
 * PostToolUse, restored), a second honest fix (the quality peak), a
 * "refactor" that breaks a passing test (worse, and the last iteration),
 * then `ralph select --best`, `ralph report` and native git reading it all.
 *
 * Everything printed is ralph's own answer (hook decisions and reasons,
 * quality scores from the loop's state, command output). When ralph does not
 * answer as scripted, the demo says which step failed, keeps the folder and
 * fails with E_INTERNAL (exit 3): `npm run demo` doubles as an end-to-end check.
 * Needs the `git` binary (the sample's first commit, and the native reads).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import * as z from "zod/mini";
import { RalphError } from "../../errors.js";
import { loadLoop } from "../../loop/lifecycle.js";
import type { LoopState } from "../../loop/state.js";
import { parseLoopId } from "../../store/loop-id.js";
import type { CommandContext, CommandOutput } from "../context.js";
import {
  DELETE_DISCOUNT_TEST,
  DEMO_COMPLETION_COMMAND,
  DEMO_DISCOUNT_TEST,
  DEMO_FILES,
  DEMO_IGNORED_FILES,
  DEMO_QUALITY_COMMAND,
  DEMO_TASK,
  FIX_DISCOUNT,
  FIX_TAX,
  SIMPLIFY_ROUNDING,
  skipDiscountTestCommand,
  type DemoEdit,
} from "../demo-project.js";
import { parseOptions } from "../options.js";
import { runningCliPath } from "./install.js";

const Options = z.strictObject({ keep: z.optional(z.boolean()), json: z.optional(z.boolean()) });

const LOOP = "demo";
const SESSION_ID = "ralph-demo-session";
/** The loop's iteration limit: the third Stop ends the loop, so the worse iteration is the last one. */
const MAX_ITERATIONS = 3;
/** A hook call that takes longer than this is a failure of the demo (Claude Code's own default is 60 s). */
const HOOK_TIMEOUT_MS = 60_000;

/** One step of the demo, as printed (`lines`) and as data (`--json`). */
interface DemoStep {
  id: string;
  title: string;
  lines: string[];
  data: Record<string, unknown>;
}

/** One hook call: the event, what was sent, ralph's answer and its log line. */
interface HookCall {
  event: string;
  answer: Record<string, unknown>;
  /** The hook log's line for this call (decision, why, checkpoint), when one was written. */
  log: Record<string, unknown> | null;
  durationMs: number;
}

function writeAll(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** git with a neutral identity and config, so the demo works on a machine with no git set-up; `base` is {@link childEnv}'s. */
function git(base: NodeJS.ProcessEnv, root: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): string {
  try {
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...base,
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_AUTHOR_NAME: "Demo Developer",
        GIT_AUTHOR_EMAIL: "dev@acme.invalid",
        GIT_COMMITTER_NAME: "Demo Developer",
        GIT_COMMITTER_EMAIL: "dev@acme.invalid",
        ...extraEnv,
      },
    });
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === "ENOENT") throw new RalphError("E_USAGE", "the demo needs the git binary on PATH; install git and retry", { cause: error });
    throw new RalphError("E_INTERNAL", `git ${args.join(" ")} failed in the demo: ${(err.stderr ?? err.message).trim().split("\n")[0]}`, { cause: error });
  }
}

/** The environment of the demo's child processes: no repository, loop or test-runner context leaking in from the caller. */
function childEnv(vars: Readonly<NodeJS.ProcessEnv>): NodeJS.ProcessEnv {
  const env = { ...vars };
  for (const key of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "RALPH_LOOP", "RALPH_PRETOOL_DECISION", "RALPH_HOOK_DRY_RUN", "RALPH_AUTO_REVERT", "NODE_TEST_CONTEXT"])
    delete env[key];
  return env;
}

/**
 * A line cut to at most `width` characters at a word boundary, with `…`
 * where it was cut (a word longer than the line is cut inside it).
 */
export function clipLine(line: string, width: number): string {
  if (line.length <= width) return line;
  const room = line.slice(0, width - 1);
  const space = room.search(/\s+\S*$/);
  return `${(space > width / 2 ? room.slice(0, space) : room).trimEnd()}…`;
}

/** The first `n` non-empty lines of a text, each cut to `width` characters at a word boundary. */
function firstLines(text: string, n: number, width = 150): string[] {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(0, n)
    .map((l) => clipLine(l, width));
}

/** A shell word, quoted when it needs it. */
const shellWord = (a: string): string => (/^[\w@~./=:-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`);

/** A tool call's two hook calls: PreToolUse, and PostToolUse when the tool ran (null when it was denied or asked). */
interface ToolCall {
  pre: HookCall;
  post: HookCall | null;
}

/** One iteration's quality as the loop's state records it. */
interface IterationScore {
  iteration: number;
  score: number;
  verification: string;
  checkpoint: string | null;
  ref: string;
}

type Dispatch = typeof import("../program.js").dispatch;

/**
 * The demo's running state and the calls every step makes: printing a step
 * and its lines, failing the demo (`expect`) or noting a wrong answer
 * (`flag`), ralph commands in-process, and hook calls as Claude Code makes
 * them. `keep` turns true when the folder must stay for the user to look at.
 */
class DemoSession {
  readonly steps: DemoStep[] = [];
  /** Answers that were wrong but did not stop the script: printed where they happen, and the demo fails at the end. */
  readonly problems: string[] = [];
  readonly loopId = parseLoopId(LOOP);
  keep: boolean;
  private current: DemoStep | null = null;
  private toolCount = 0;
  /** The environment of the demo's children (hooks, git, the sample's commands): auto_revert comes from the sample's aiwg.yml, as in a user's project; the environment must not override it. */
  readonly childEnv: NodeJS.ProcessEnv;
  readonly transcript: string;
  private readonly hookLogPath: string;

  constructor(
    private readonly ctx: CommandContext,
    readonly asJson: boolean,
    readonly root: string,
    private readonly cli: string,
    private readonly dispatch: Dispatch,
    keep: boolean,
  ) {
    this.keep = keep;
    this.childEnv = childEnv(ctx.env.vars);
    this.transcript = join(root, ".git", "demo-transcript.jsonl");
    this.hookLogPath = join(root, ".aiwg", "ralph", "loops", LOOP, "hook-log.jsonl");
  }

  /** Starts a step: prints its title (text mode streams, so a long step shows progress). */
  step(id: string, title: string): DemoStep {
    this.current = { id, title, lines: [], data: {} };
    this.steps.push(this.current);
    if (!this.asJson) this.ctx.stdout(`\n== ${title}\n`);
    return this.current;
  }

  /** Prints lines under the current step and records them in it. */
  say(...lines: string[]): void {
    this.current?.lines.push(...lines);
    if (!this.asJson) for (const line of lines) this.ctx.stdout(`${line}\n`);
  }

  /** Writes text to stdout in text mode only (the closing lines). */
  print(text: string): void {
    if (!this.asJson) this.ctx.stdout(text);
  }

  /** A scripted step that did not behave: the demo fails (E_INTERNAL, exit 3) and keeps the folder to look at. */
  expect(ok: boolean, what: string): void {
    if (ok) return;
    this.keep = true;
    throw new RalphError("E_INTERNAL", `demo failed at "${this.current?.title ?? "set-up"}": ${what} (the sample repository is kept at ${this.root})`, {
      data: { repository: this.root, steps: this.steps },
    });
  }

  /** A wrong answer the script can go on from: said now, failed at the end. */
  flag(what: string): void {
    this.problems.push(`${this.current?.title ?? "set-up"}: ${what}`);
    this.say(`WRONG  ${what}`);
  }

  /** A ralph command in-process, through the same dispatch as the command line; a thrown error fails the demo. */
  async ralph(argv: string[]): Promise<{ exitCode: number; text: string; json: unknown }> {
    let streamed = "";
    const sub = { ...this.ctx, cwd: this.root, stdout: (t: string) => void (streamed += t), stderr: (t: string) => void (streamed += t), stdoutIsTTY: false, stderrIsTTY: false };
    this.say(`$ ralph ${argv.map(shellWord).join(" ")}`);
    try {
      const result = await this.dispatch(argv, sub, "demo");
      const text = `${streamed}${result?.output.text ?? ""}`.trimEnd();
      this.say(...text.split("\n").map((l) => `  ${l}`));
      return { exitCode: result?.output.exitCode ?? 0, text, json: result?.output.json ?? null };
    } catch (error) {
      const code = error instanceof RalphError ? error.code : "E_INTERNAL";
      this.say(`  ralph: ${(error as Error).message} (${code})`);
      this.expect(false, `ralph ${argv[0]} failed: ${(error as Error).message}`);
      throw error;
    }
  }

  private hookLogLines(): string[] {
    return existsSync(this.hookLogPath)
      ? readFileSync(this.hookLogPath, "utf8")
          .split("\n")
          .filter((l) => l !== "")
      : [];
  }

  /** One hook call as Claude Code makes it: a fresh process, the payload on stdin, one JSON object back. */
  hook(event: string, fields: Record<string, unknown> = {}): HookCall {
    const payload = { session_id: SESSION_ID, transcript_path: this.transcript, cwd: this.root, permission_mode: "default", hook_event_name: event, ...fields };
    const logBefore = this.hookLogLines().length;
    const started = performance.now();
    const result = spawnSync(process.execPath, [this.cli, "hook", "claude", event], {
      cwd: this.root,
      env: this.childEnv,
      input: JSON.stringify(payload),
      encoding: "utf8",
      timeout: HOOK_TIMEOUT_MS,
      killSignal: "SIGKILL",
    });
    const durationMs = performance.now() - started;
    const stderr = (result.stderr ?? "").trim();
    this.expect(
      result.error === undefined && result.status === 0,
      `ralph hook claude ${event} exited ${result.status ?? result.signal ?? result.error?.message}${stderr ? `: ${stderr.split("\n")[0]}` : ""}`,
    );
    const answer = singleJsonObject(result.stdout ?? "");
    this.expect(answer !== null, `ralph hook claude ${event} did not print exactly one JSON object: ${JSON.stringify(result.stdout)}`);
    this.expect(!stderr.includes("failed open"), `ralph hook claude ${event} failed open: ${stderr.split("\n")[0]}`);
    const newLog = this.hookLogLines().slice(logBefore);
    const log = newLog.length > 0 ? (JSON.parse(newLog[newLog.length - 1] as string) as Record<string, unknown>) : null;
    return { event, answer: answer as Record<string, unknown>, log, durationMs };
  }

  /** A tool call: PreToolUse; unless denied (or asked), `apply` runs the tool, then PostToolUse. */
  tool(name: string, input: Record<string, unknown>, apply: () => Record<string, unknown>): ToolCall {
    const id = `toolu_demo_${String(++this.toolCount).padStart(2, "0")}`;
    const pre = this.hook("PreToolUse", { tool_name: name, tool_input: input, tool_use_id: id });
    const decision = permissionDecision(pre.answer);
    if (decision === "deny" || decision === "ask") return { pre, post: null };
    const response = apply();
    const post = this.hook("PostToolUse", { tool_name: name, tool_input: input, tool_use_id: id, tool_response: response });
    return { pre, post };
  }

  /** Claude Code's Edit tool: one exact replacement in one file. */
  edit(e: DemoEdit): ToolCall {
    const file = join(this.root, e.path);
    const input = { file_path: file, old_string: e.oldString, new_string: e.newString, replace_all: false };
    return this.tool("Edit", input, () => {
      const before = readFileSync(file, "utf8");
      this.expect(before.includes(e.oldString), `the scripted Edit of ${e.path} no longer matches the sample`);
      writeFileSync(file, before.replace(e.oldString, e.newString));
      return { filePath: file, oldString: e.oldString, newString: e.newString };
    });
  }

  /** Claude Code's Bash tool: the command runs in the project folder. */
  bash(command: string): ToolCall {
    return this.tool("Bash", { command, description: "skip the failing discount test" }, () => {
      const ran = spawnSync("sh", ["-c", command], { cwd: this.root, env: this.childEnv, encoding: "utf8" });
      this.expect(ran.status === 0, `the agent's command failed: ${(ran.stderr ?? ran.error?.message ?? "").trim().split("\n")[0]}`);
      this.expect(this.read(DELETE_DISCOUNT_TEST.path).includes(`test.skip("${DEMO_DISCOUNT_TEST}"`), `the agent's command did not skip the test: ${command}`);
      return { stdout: ran.stdout, stderr: ran.stderr, interrupted: false, isImage: false };
    });
  }

  /** The loop's state as stored now. */
  state(): LoopState {
    return loadLoop(this.root, this.loopId);
  }

  /** A file of the sample, as text. */
  read(path: string): string {
    return readFileSync(join(this.root, path), "utf8");
  }

  /** git in the sample repository. */
  git(args: string[], extraEnv: NodeJS.ProcessEnv = {}): string {
    return git(this.childEnv, this.root, args, extraEnv);
  }

  /** The work tree's tree as native git sees it (ignored files and ralph's own state left out), through a throwaway index. */
  workTreeTree(): string {
    const index = join(this.root, ".git", "demo-index");
    try {
      this.git(["add", "-A", "--", "."], { GIT_INDEX_FILE: index });
      return this.git(["write-tree"], { GIT_INDEX_FILE: index }).trim();
    } finally {
      rmSync(index, { force: true });
    }
  }

  /** The tree id of a revision. */
  treeOf(rev: string): string {
    return this.git(["rev-parse", `${rev}^{tree}`]).trim();
  }
}

/** A hook's stdout parsed as exactly one JSON object on one line, or null when it is anything else. */
function singleJsonObject(stdout: string): Record<string, unknown> | null {
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  if (lines.length !== 1) return null;
  try {
    const answer: unknown = JSON.parse(lines[0] as string);
    return answer !== null && typeof answer === "object" && !Array.isArray(answer) ? (answer as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** A hook answer as one short line: `{} (no objection)` or its JSON cut to 100 characters. */
function answerText(call: HookCall): string {
  return Object.keys(call.answer).length === 0 ? "{} (no objection)" : JSON.stringify(call.answer).slice(0, 100);
}

/** The `hookSpecificOutput` field of a hook answer, as a string ("" when absent). */
function specificField(answer: Record<string, unknown>, field: string): string {
  return String((answer.hookSpecificOutput as Record<string, unknown> | undefined)?.[field] ?? "");
}

/** An honest edit: PreToolUse and PostToolUse must both let it through and say nothing; the checkpoint is the work tree. */
function honestEdit(d: DemoSession, e: DemoEdit): void {
  d.say(`agent  Edit ${e.path}: ${e.intent}`);
  const { pre, post } = d.edit(e);
  d.expect(permissionDecision(pre.answer) === null, `PreToolUse objected to an honest edit: ${JSON.stringify(pre.answer)}`);
  d.expect(post !== null && post.answer.decision !== "block", `PostToolUse blocked an honest edit: ${JSON.stringify(post?.answer)}`);
  const after = post as HookCall;
  const context = specificField(after.answer, "additionalContext");
  d.say(`ralph  PreToolUse ${answerText(pre)}; PostToolUse ${context === "" ? answerText(after) : "additionalContext:"}`);
  if (context !== "") {
    d.say(...firstLines(context, 3).map((l) => `         | ${l}`));
    d.flag(`PostToolUse answered an honest edit of ${e.path} with findings ("${firstLines(context, 1)[0] ?? ""}")`);
  }
  const checkpoint = typeof after.log?.checkpoint === "string" ? after.log.checkpoint : null;
  if (!checkpoint) return;
  const stored = d.treeOf(checkpoint);
  const actual = d.workTreeTree();
  if (stored !== actual) {
    const differing = d.git(["diff", "--name-only", stored, actual]).trim().split("\n").join(", ");
    d.flag(`PostToolUse's checkpoint ${checkpoint.slice(0, 12)} is not the work tree (tree ${stored.slice(0, 12)} != ${actual.slice(0, 12)}; differs in ${differing})`);
  }
}

/** The agent tries to stop: ralph ends the iteration (checkpoint, completion command, quality); `expected` is the scripted answer. */
function stop(d: DemoSession, iteration: number, expected: "block" | "allow"): HookCall {
  d.say("agent  Stop (the agent thinks it is done)");
  const call = d.hook("Stop", { stop_hook_active: iteration > 1 });
  const s = d.state();
  const record = s.iteration_history.find((r) => r.iteration === iteration);
  d.expect(record !== undefined, `no iteration ${iteration} in the loop's state after the Stop`);
  const r = record as NonNullable<typeof record>;
  const check = s.progress.completion_checks.find((c) => c.iteration === iteration);
  if (call.answer.decision === "block") {
    d.say(`ralph  Stop blocked (decision "block"); lines of the reason sent back to the agent:`);
    d.say(...reasonHighlights(String(call.answer.reason ?? "")).map((l) => `         | ${l}`));
  } else {
    d.say(`ralph  Stop allowed (${JSON.stringify(call.answer)}); why, from the hook log: ${String(call.log?.why ?? "(no log line)")}`);
  }
  d.expect(
    (call.answer.decision === "block" ? "block" : "allow") === expected,
    `the Stop of iteration ${iteration} was expected to ${expected}, ralph answered ${JSON.stringify(call.answer).slice(0, 200)}`,
  );
  d.say(
    `       iteration ${iteration}: ${DEMO_COMPLETION_COMMAND} ${check?.passed ? "passed" : `failed (exit ${check?.exit_code ?? "?"})`}; quality ${r.quality_score}/100 (${r.quality_source}); loop ${s.status}`,
  );
  return call;
}

/** Step 1: the sample committed, its baseline quality (3 of 6 tests pass: 50). Returns HEAD and that score. */
function showSample(d: DemoSession): { headBefore: string; baselineScore: number } {
  const sampleStep = d.step("sample", "1. The sample project: acme-invoice (JavaScript, node:test), committed; 3 of its 6 tests fail");
  d.git(["init", "-q", "-b", "main"]);
  writeAll(d.root, DEMO_FILES);
  d.git(["add", "-A"]);
  d.git(["commit", "-q", "-m", "acme-invoice 1.4.0"]);
  writeAll(d.root, DEMO_IGNORED_FILES);
  writeFileSync(d.transcript, "");
  const headBefore = d.git(["rev-parse", "HEAD"]).trim();
  const baselineQuality = spawnSync(process.execPath, ["scripts/quality.mjs"], { cwd: d.root, env: d.childEnv, encoding: "utf8" });
  const baselineLines = baselineQuality.stdout.trim().split("\n");
  d.say(`  ${d.root}`, `$ ${DEMO_QUALITY_COMMAND}`, ...baselineLines.map((l) => `  ${l}`));
  const baselineScore = Number(baselineLines.at(-1));
  d.expect(baselineQuality.status === 0 && baselineScore === 50, `the sample's quality script printed ${JSON.stringify(baselineQuality.stdout)} (expected 3 of 6 tests passing: 50)`);
  Object.assign(sampleStep.data, { repository: d.root, head: headBefore, baseline_quality: baselineScore });
  return { headBefore, baselineScore };
}

/** Step 2: `ralph start` with the sample's tests as the completion command and its quality script. */
async function startLoop(d: DemoSession): Promise<void> {
  d.step("start", "2. ralph start: a loop with the sample's tests as the completion command");
  d.say(
    `Quality: ralph's default score gives every failing iteration the same points (the completion command is 50 of 100),`,
    `so this loop scores each iteration with ${DEMO_QUALITY_COMMAND}: the share of the sample's tests that pass.`,
    `A passing completion command ends the loop, so the peak here is a better-but-failing iteration, and`,
    `--max-iterations ${MAX_ITERATIONS} makes the worse iteration after it the last one.`,
  );
  const started = await d.ralph(["start", DEMO_TASK, "--completion", DEMO_COMPLETION_COMMAND, "--quality", DEMO_QUALITY_COMMAND, "--max-iterations", String(MAX_ITERATIONS), "--id", LOOP]);
  d.expect(started.exitCode === 0 && d.state().status === "running", "ralph start did not leave a running loop");
}

/** Step 3: SessionStart and UserPromptSubmit; ralph must add the loop's facts to the agent's context. */
function startSession(d: DemoSession): void {
  const sessionStep = d.step("session", "3. A Claude Code session starts: ralph binds it to the loop and tells the agent so");
  const sessionStart = d.hook("SessionStart", { source: "startup", model: "claude-demo" });
  const context = specificField(sessionStart.answer, "additionalContext");
  d.expect(context.includes(`loop ${LOOP}`) && context.includes(DEMO_COMPLETION_COMMAND), `SessionStart added no loop context: ${JSON.stringify(sessionStart.answer)}`);
  d.say("agent  SessionStart", "ralph  additionalContext:", ...firstLines(context, 4).map((l) => `         | ${l}`));
  const prompt = d.hook("UserPromptSubmit", { prompt: DEMO_TASK });
  d.say(`agent  UserPromptSubmit "${DEMO_TASK}"`, `ralph  ${prompt.answer.hookSpecificOutput ? "additionalContext again (the same loop facts)" : answerText(prompt)}`);
  sessionStep.data = { context };
}

/** Step 5, first shortcut: an Edit deleting a test; PreToolUse must deny it and the file stays as it was. */
function denyTestDeletion(d: DemoSession): Record<string, unknown> {
  const testPath = DELETE_DISCOUNT_TEST.path;
  const testBefore = d.read(testPath);
  d.say(`agent  Edit ${testPath}: ${DELETE_DISCOUNT_TEST.intent}`);
  const deletion = d.edit(DELETE_DISCOUNT_TEST);
  const denyDecision = permissionDecision(deletion.pre.answer);
  const denyReason = specificField(deletion.pre.answer, "permissionDecisionReason");
  d.say(`ralph  PreToolUse permissionDecision "${denyDecision ?? "(none)"}":`, ...firstLines(denyReason, 3).map((l) => `         | ${l}`));
  d.expect(denyDecision === "deny", `PreToolUse did not deny the deletion of "${DEMO_DISCOUNT_TEST}": ${JSON.stringify(deletion.pre.answer).slice(0, 300)}`);
  d.expect(d.read(testPath) === testBefore, `${testPath} changed although the Edit was denied`);
  d.say(`demo   Claude Code does not run a denied tool: ${testPath} is unchanged`);
  return { decision: denyDecision, reason: denyReason, file_unchanged: true };
}

/**
 * Step 5, second shortcut: a `sed -i` that skips the test runs; PostToolUse
 * must block it, auto revert must restore the file, the skipped version stays
 * in a checkpoint, and the loop's state records the regression.
 */
function revertSkippedTest(d: DemoSession): Record<string, unknown> {
  const testPath = DELETE_DISCOUNT_TEST.path;
  const testBefore = d.read(testPath);
  const command = skipDiscountTestCommand(process.platform);
  d.say(`agent  Bash: ${command}`);
  const skip = d.bash(command);
  d.expect(permissionDecision(skip.pre.answer) === null, `PreToolUse refused the sed command before it ran: ${JSON.stringify(skip.pre.answer).slice(0, 300)}`);
  d.say(
    `ralph  PreToolUse ${answerText(skip.pre)}${skip.pre.log?.checkpoint ? `, after a pre-tool checkpoint ${String(skip.pre.log.checkpoint).slice(0, 12)} (${String(skip.pre.log.why ?? "risky")})` : ""}`,
  );
  const post = skip.post as HookCall;
  const blockReason = String(post.answer.reason ?? "");
  d.say(`demo   the command ran: ${testPath} had test.skip("${DEMO_DISCOUNT_TEST}", ...) when PostToolUse was called`);
  d.say(`ralph  PostToolUse decision "${String(post.answer.decision ?? "(none)")}":`, ...firstLines(blockReason, 6).map((l) => `         | ${l}`));
  d.expect(post.answer.decision === "block" && blockReason.includes(DEMO_DISCOUNT_TEST), `PostToolUse did not block the skipped test: ${JSON.stringify(post.answer).slice(0, 300)}`);
  const restored = d.read(testPath) === testBefore;
  d.expect(restored, `${testPath} was not restored after the blocked command (auto_revert in aiwg.yml / RALPH_AUTO_REVERT=1)`);
  const skipCheckpoint = typeof post.log?.checkpoint === "string" ? post.log.checkpoint : null;
  const skippedThere = skipCheckpoint ? d.git(["show", `${skipCheckpoint}:${testPath}`]).includes(`test.skip("${DEMO_DISCOUNT_TEST}"`) : false;
  d.say(`demo   ${testPath} is back, byte for byte${skippedThere ? `; the skipped version is kept in checkpoint ${String(skipCheckpoint).slice(0, 12)}` : ""}`);
  const event = d
    .state()
    .regression_events.filter((e) => e.details.source === "PostToolUse" && e.details.tool === "Bash")
    .at(-1);
  const restoreTarget = typeof event?.details.restore_target === "string" ? event.details.restore_target : null;
  d.expect(
    event !== undefined && event.details.reverted === true && restoreTarget !== null,
    `the loop's state records no reverted regression for the Bash call: ${JSON.stringify(event ?? null).slice(0, 200)}`,
  );
  d.say(
    `demo   the loop's state records it (recovery protocol): ${event?.event_id} ${event?.regression_type} (${event?.severity}), outcome ${event?.recovery_outcome}, restored to ${String(restoreTarget).slice(0, 12)}`,
  );
  if (d.workTreeTree() !== d.treeOf(restoreTarget as string)) d.flag(`after the auto revert the work tree is not the tree of checkpoint ${String(restoreTarget).slice(0, 12)}`);
  return {
    command,
    regression_event: event?.event_id ?? null,
    recovery_outcome: event?.recovery_outcome ?? null,
    pre: skip.pre.answer,
    post_decision: post.answer.decision,
    reason: blockReason,
    reverted: restored,
    kept_in_checkpoint: skippedThere ? skipCheckpoint : null,
  };
}

/** Steps 4-6: the three iterations and the session's end. */
function runIterations(d: DemoSession): void {
  const iteration1Step = d.step("iteration-1", "4. Iteration 1: an honest fix; the tests still fail, so ralph blocks the stop");
  honestEdit(d, FIX_TAX);
  iteration1Step.data = { stop: stop(d, 1, "block").answer };

  const iteration2Step = d.step("iteration-2", "5. Iteration 2: two shortcuts caught, then an honest fix");
  const deny = denyTestDeletion(d);
  const bash = revertSkippedTest(d);
  honestEdit(d, FIX_DISCOUNT);
  iteration2Step.data = { deny, bash, stop: stop(d, 2, "block").answer };

  const iteration3Step = d.step("iteration-3", `6. Iteration 3: a "refactor" breaks a passing test; the iteration limit (${MAX_ITERATIONS}) ends the loop`);
  honestEdit(d, SIMPLIFY_ROUNDING);
  const stop3 = stop(d, 3, "allow");
  const end = d.hook("SessionEnd", { reason: "prompt_input_exit" });
  d.say(`agent  SessionEnd`, `ralph  ${answerText(end)}`);
  iteration3Step.data = { stop: stop3.answer };
}

/** The loop's quality per iteration, its peak and its last; the script needs a peak before a worse final iteration. */
function qualitySequence(d: DemoSession): { scores: IterationScore[]; peak: IterationScore; last: IterationScore | undefined } {
  const scores = d.state().iteration_history.map((r) => ({ iteration: r.iteration, score: r.quality_score, verification: r.verification_status, checkpoint: r.checkpoint_oid, ref: r.snapshot_path }));
  const peak = scores.reduce((best, r) => (r.score > best.score ? r : best), scores[0] ?? { iteration: 0, score: -1, verification: "", checkpoint: null, ref: "" });
  const last = scores[scores.length - 1];
  d.expect(
    scores.length === MAX_ITERATIONS && last !== undefined && peak.iteration !== last.iteration && last.score < peak.score,
    `the quality sequence ${scores.map((s) => s.score).join(" -> ")} has no peak before a worse final iteration`,
  );
  return { scores, peak, last };
}

/** Step 7: `ralph select --best` must restore the peak iteration's exact tree. Returns the step's data. */
async function selectBest(d: DemoSession, baselineScore: number, quality: ReturnType<typeof qualitySequence>): Promise<Record<string, unknown>> {
  const { scores, peak, last } = quality;
  const selectStep = d.step("select", "7. ralph select --best: the peak comes back");
  d.say(`quality per iteration: baseline ${baselineScore} -> ${scores.map((s) => `#${s.iteration} ${s.score}`).join(" -> ")}; peak #${peak.iteration}, final #${last?.iteration} is worse`);
  const selected = await d.ralph(["select", "--best", "--loop", LOOP]);
  const chosen = selected.json as { iteration?: number; quality_score?: number; checkpoint?: string } | null;
  d.expect(selected.exitCode === 0 && chosen?.iteration === peak.iteration, `select --best chose iteration ${chosen?.iteration}, not the peak ${peak.iteration}`);
  const iterationTree = d.treeOf(peak.ref);
  const selectedTree = d.workTreeTree();
  const treeMatches = iterationTree === selectedTree;
  d.say(`demo   work tree ${selectedTree.slice(0, 12)} ${treeMatches ? "=" : "!="} ${peak.ref}^{tree} ${iterationTree.slice(0, 12)} (git write-tree through a temporary index)`);
  d.expect(treeMatches, `the work tree after select --best is not iteration ${peak.iteration}'s tree`);
  const rounding = d.read(SIMPLIFY_ROUNDING.path).includes(SIMPLIFY_ROUNDING.oldString);
  d.expect(rounding, `${SIMPLIFY_ROUNDING.path} does not have the rounding of iteration ${peak.iteration} back`);
  d.say(`demo   ${SIMPLIFY_ROUNDING.path} rounds half away from zero again; both honest fixes are in src/invoice.js`);
  selectStep.data = {
    iteration: chosen?.iteration,
    quality_score: chosen?.quality_score,
    checkpoint: chosen?.checkpoint,
    tree: iterationTree,
    work_tree_tree: selectedTree,
    tree_matches: treeMatches,
  };
  return selectStep.data;
}

/** Step 8: `ralph report` must write its markdown report, chart and analytics. Returns their paths. */
async function writeReport(d: DemoSession): Promise<{ report_md: string; quality_svg: string; analytics_json: string }> {
  const reportStep = d.step("report", "8. ralph report: analytics, a markdown report and a quality chart");
  const report = await d.ralph(["report", "--loop", LOOP]);
  const paths = ((report.json as { paths?: Record<string, string> } | null)?.paths ?? {}) as Record<string, string>;
  const files = { report_md: paths.report ?? "", quality_svg: paths.chart ?? "", analytics_json: paths.analytics ?? "" };
  d.expect(report.exitCode === 0 && Object.values(files).every((p) => p !== "" && existsSync(p)), `ralph report did not write its files: ${JSON.stringify(paths)}`);
  reportStep.data = { ...files };
  return files;
}

/** Step 9: native git reads ralph's refs, `git fsck --strict` is clean, and the user's HEAD has not moved. */
function readWithGit(d: DemoSession, headBefore: string): void {
  const gitStep = d.step("git", "9. Native git reads everything ralph stored");
  const nativeLog = d
    .git(["log", "--oneline", `refs/ralph/${LOOP}/head`])
    .trimEnd()
    .split("\n");
  d.say(`$ git log --oneline refs/ralph/${LOOP}/head | head`, ...nativeLog.slice(0, 10).map((l) => `  ${l}`));
  if (nativeLog.length > 10) d.say(`  … ${nativeLog.length - 10} more`);
  const fsck = d.git(["fsck", "--full", "--strict", "--no-dangling"]).trim();
  d.say("$ git fsck --full --strict --no-dangling", `  ${fsck === "" ? "(clean)" : fsck}`);
  d.expect(fsck === "", `git fsck reported: ${fsck.split("\n")[0]}`);
  const headAfter = d.git(["rev-parse", "HEAD"]).trim();
  const status = d.git(["status", "--short"]).trimEnd();
  d.say(
    `  HEAD is still ${headAfter.slice(0, 12)} (ralph never moves it); git status --short: ${
      status === ""
        ? "(clean)"
        : status
            .split("\n")
            .map((l) => l.trim())
            .join(", ")
    }`,
  );
  d.expect(headAfter === headBefore, "the user's HEAD moved");
  gitStep.data = { log: nativeLog, fsck: "clean", head_unchanged: true };
}

/** Runs the command; see the module doc. Throws E_INTERNAL (exit 3) when ralph does not answer as scripted, E_USAGE without git. */
export async function run(ctx: CommandContext, _args: string[], raw: Record<string, unknown>): Promise<CommandOutput> {
  const options = parseOptions(Options, raw, "demo");
  const startedMs = performance.now();
  const { dispatch } = await import("../program.js");
  const cli = runningCliPath(ctx);
  const root = realpathSync(mkdtempSync(join(tmpdir(), "ralph-demo-")));
  const d = new DemoSession(ctx, options.json ?? false, root, cli, dispatch, options.keep ?? false);
  try {
    const { headBefore, baselineScore } = showSample(d);
    await startLoop(d);
    startSession(d);
    runIterations(d);
    const quality = qualitySequence(d);
    const selected = await selectBest(d, baselineScore, quality);
    const files = await writeReport(d);
    readWithGit(d, headBefore);

    const { scores, peak, last } = quality;
    const durationMs = Math.round(performance.now() - startedMs);
    const result = {
      ok: d.problems.length === 0,
      duration_ms: durationMs,
      repository: options.keep || d.problems.length > 0 ? root : null,
      loop: LOOP,
      problems: d.problems,
      steps: d.steps,
      quality: { baseline: baselineScore, iterations: scores.map(({ iteration, score, verification }) => ({ iteration, score, verification })), peak: peak.iteration, final: last?.iteration ?? null },
      selected,
      report: files,
      fsck: "clean",
    };
    if (d.problems.length > 0) {
      d.keep = true;
      d.print(`\nThe script ran to the end, but ralph answered wrongly ${d.problems.length} time(s) (marked WRONG above).\n`);
      throw new RalphError("E_INTERNAL", `demo failed: ${d.problems.join("; ")} (the sample repository is kept at ${root})`, { data: result });
    }
    const closing = [
      "",
      `demo passed in ${(durationMs / 1000).toFixed(1)} s: a deleted test denied, a skipped test reverted, the best iteration (#${peak.iteration}, ${peak.score}) restored.`,
      options.keep
        ? `The sample repository is kept at ${root}; the report is ${files.report_md} (chart: ${relative(root, files.quality_svg)}).`
        : `The report was ${relative(root, files.report_md)} in the sample repository, now removed; run 'ralph demo --keep' (npm run demo -- --keep) to keep it.`,
    ];
    d.print(`${closing.join("\n")}\n`);
    return { json: result, text: "" };
  } finally {
    if (!d.keep) rmSync(root, { recursive: true, force: true });
  }
}

/** A PreToolUse answer's `permissionDecision`, or null when ralph did not state one (no objection). */
function permissionDecision(answer: Record<string, unknown>): string | null {
  const specific = answer.hookSpecificOutput as Record<string, unknown> | undefined;
  return typeof specific?.permissionDecision === "string" ? specific.permissionDecision : null;
}

/** The lines of a Stop block's reason worth showing: its header, the test summary of the output tail, and ralph's evaluation. */
function reasonHighlights(reason: string): string[] {
  const lines = reason.split("\n");
  const picked = lines.filter((l, i) => i === 0 || /^# (tests|pass|fail) \d+$/.test(l) || l.startsWith("ralph's evaluation") || l.startsWith("The task is not done"));
  return picked.map((l) => (l.length > 150 ? `${l.slice(0, 149)}…` : l));
}
