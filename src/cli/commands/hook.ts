/**
 * `ralph hook AGENT [EVENT] [ARGS…]`: an agent's hook. It follows the
 * agent's protocol instead of ralph's exit codes (DESIGN.md "The command
 * line"). Codex CLI, Gemini CLI and Cursor go through their adapters
 * (./agent-hook.ts, src/hooks/{codex,gemini,cursor}.ts, docs/agents.md).
 * For Claude Code (hooks reference, code.claude.com/docs/en/hooks,
 * "Exit code output" and "JSON output"): exactly one JSON object on stdout,
 * diagnostics on stderr, exit 0. Exit 2 would block the action and any other
 * non-zero exit lets it go ahead, so ralph never relies on either: an
 * objection is a JSON decision, and an internal error fails open on purpose
 * (exit 0, `{}`, one line on stderr, a log line with decision "error").
 *
 * For git (`ralph hook git pre-push REMOTE URL`, githooks(5) "pre-push"):
 * git speaks through the exit status and stderr, so ralph prints nothing on
 * stdout, a short report on stderr, and exits 1 when a pushed update is
 * judged BLOCK (git then aborts the push), 0 otherwise. See
 * {@link runGitPrePush} for its fail-open cases.
 *
 * main.ts routes `hook` here before loading cac or any other command, so a
 * hook call loads only what its event needs.
 */
import type { Readable } from "node:stream";
import { toRalphError } from "../../errors.js";
import { claudeRequiredFields, normalizePayload } from "../../hooks/claude-payload.js";
import { INSTALL_TAG } from "../../hooks/claude-settings.js";
import { readHookInput } from "../../hooks/stdin.js";
import { isBlockingSeverity } from "../../analysis/rules/registry.js";
import type { CommandContext, CommandOutput } from "../context.js";
import { homeOf, type RuntimeEnv } from "../../runtime-env.js";

/** What a hook call needs from its surroundings, read once at the boundary (src/cli/run.ts) and injected. */
export interface HookIo {
  cwd: string;
  /** The run's environment, parsed (src/runtime-env.ts). */
  env: RuntimeEnv;
  stdin: Readable;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stderr is a terminal (colours in the git hook's report); default false. */
  stderrIsTTY?: boolean;
  /** When the calling process started, ms since the epoch; default this process's `performance.timeOrigin` (src/cli/run.ts CliIo). */
  processStartMs?: number;
}

/** Agents with a hook protocol ralph speaks (codex, gemini, cursor: ./agent-hook.ts). */
const AGENTS = ["claude", "codex", "gemini", "cursor", "git"] as const;

/** The adapter of an agent other than Claude Code, loaded only for its own calls. */
async function loadAdapter(agent: string): Promise<import("../../hooks/agent-adapter.js").AgentAdapter | null> {
  switch (agent) {
    case "codex":
      return (await import("../../hooks/codex.js")).codexAdapter;
    case "gemini":
      return (await import("../../hooks/gemini.js")).geminiAdapter;
    case "cursor":
      return (await import("../../hooks/cursor.js")).cursorAdapter;
    default:
      return null;
  }
}

/** Whole-process time so far, ms: from `processStartMs` (the calling process's start) to now. */
const elapsedMs = (processStartMs: number = performance.timeOrigin): number => Math.round((performance.timeOrigin + performance.now() - processStartMs) * 10) / 10;

/**
 * Runs one hook call and returns the exit code: always 0 for Claude Code
 * (exactly one JSON object on stdout); for git, {@link runGitPrePush}'s.
 */
export async function runHookCommand(args: readonly string[], io: HookIo): Promise<number> {
  if (args[0] === "git") return runGitHook(args.slice(1), io);
  const positional = args.filter((arg) => arg !== INSTALL_TAG && !arg.startsWith("--"));
  const agent = positional[0] ?? "";
  const eventArg = positional[1];
  let printed = false;
  const answer = (output: Record<string, unknown>): void => {
    if (printed) return;
    printed = true;
    io.stdout(`${JSON.stringify(output)}\n`);
  };
  if (!(AGENTS as readonly string[]).includes(agent)) {
    io.stderr(`ralph: hook: unknown agent ${JSON.stringify(agent)} (known: ${AGENTS.join(", ")}); allowing\n`);
    answer({});
    return 0;
  }
  const adapter = await loadAdapter(agent);
  if (adapter) {
    const { runAgentHook } = await import("./agent-hook.js");
    return runAgentHook(adapter, eventArg, io);
  }
  const input = await readHookInput(io.stdin);
  let raw: unknown = null;
  let parseProblem: string | null = null;
  if (input.text.trim() === "") parseProblem = `no payload on stdin (${input.endedBy})`;
  else {
    try {
      raw = JSON.parse(input.text);
    } catch (error) {
      parseProblem = `the payload is not JSON (${input.sizeBytes} bytes, ${input.endedBy}): ${(error as Error).message.split("\n")[0]}`;
    }
    if (parseProblem === null && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
      parseProblem = `the payload is ${Array.isArray(raw) ? "an array" : raw === null ? "null" : `a ${typeof raw}`}, not a JSON object`;
    }
  }
  const payload = normalizePayload(raw, eventArg, homeOf(io.env.git));
  const event = payload.event ?? "(unknown)";
  const { isClaudeEvent } = await import("../../hooks/claude-payload.js");
  if (parseProblem === null && !isClaudeEvent(payload.event)) {
    parseProblem = `${JSON.stringify(payload.event ?? null)} is not a Claude Code hook event ralph answers`;
  }
  if (parseProblem === null) {
    const { missingFields, missingFieldsProblem } = await import("../../hooks/agent-adapter.js");
    parseProblem = missingFieldsProblem(missingFields(raw as Record<string, unknown>, claudeRequiredFields(event)));
  }
  if (io.env.vars.RALPH_HOOK_DRY_RUN === "1") {
    io.stderr(`ralph: hook claude ${event}: answered (dry run${parseProblem ? `; ${parseProblem}` : ""})\n`);
    answer({});
    return 0;
  }
  const { appendHookLog } = await import("../../hooks/hook-log.js");
  const { guardLoopId } = await import("../../hooks/loop-binding.js");
  const log = (workTree: string | null, loop: string | null, entry: Omit<Parameters<typeof appendHookLog>[2], "ts" | "agent" | "event" | "duration_ms">): void => {
    if (!workTree) return;
    try {
      appendHookLog(workTree, loop ?? guardLoopId(payload.sessionId), { ts: new Date().toISOString(), agent, event, duration_ms: elapsedMs(io.processStartMs), ...entry });
    } catch (error) {
      io.stderr(`ralph: hook: could not write the hook log: ${(error as Error).message}\n`);
    }
  };
  const findWorkTree = async (): Promise<string | null> => {
    const [{ openRepository }, { callDirectories }] = await Promise.all([import("../../store/repo.js"), import("../../hooks/claude.js")]);
    for (const dir of callDirectories(payload, io.cwd, io.env.vars)) {
      try {
        return openRepository(dir, io.env).workTree;
      } catch {
        /* the next candidate */
      }
    }
    return null;
  };
  if (parseProblem) {
    io.stderr(`ralph: hook claude ${event}: ${parseProblem}; allowing\n`);
    answer({});
    log(await findWorkTree(), null, { loop: guardLoopId(payload.sessionId), iteration: null, decision: "error", findings: ["E_BAD_PAYLOAD"], why: parseProblem });
    return 0;
  }
  try {
    const { answerClaudeEvent } = await import("../../hooks/claude.js");
    const result = await answerClaudeEvent(payload, io.cwd, io.env, io.stderr);
    answer(result.output);
    log(result.workTree, result.loop, {
      loop: result.loop ?? guardLoopId(payload.sessionId),
      iteration: result.iteration,
      decision: result.decision,
      ...(payload.toolName ? { tool: payload.toolName } : {}),
      ...(payload.toolUseId ? { tool_use_id: payload.toolUseId } : {}),
      ...(result.checkpoint ? { checkpoint: result.checkpoint } : {}),
      ...(result.findings && result.findings.length > 0 ? { findings: result.findings } : {}),
      why: result.why,
    });
  } catch (thrown) {
    const error = toRalphError(thrown);
    io.stderr(`ralph: hook claude ${event} failed open: ${error.message}\n`);
    if (io.env.vars.RALPH_DEBUG && thrown instanceof Error && thrown.stack) io.stderr(`${thrown.stack}\n`);
    answer({});
    log(await findWorkTree(), null, { loop: guardLoopId(payload.sessionId), iteration: null, decision: "error", findings: [error.code], why: error.message });
  }
  return 0;
}

/** How long the git hook waits for the next stdin byte: git writes every line, then closes the pipe. */
const GIT_STDIN_IDLE_MS = 10_000;

/** `ralph hook git EVENT ARGS…`: only `pre-push` exists; any other event exits 0 with a note. */
async function runGitHook(args: readonly string[], io: HookIo): Promise<number> {
  const event = args[0] ?? "";
  if (event !== "pre-push") {
    io.stderr(`ralph: hook git: unknown event ${JSON.stringify(event)} (known: pre-push); allowing\n`);
    return 0;
  }
  return runGitPrePush(args.slice(1), io);
}

/**
 * `ralph hook git pre-push REMOTE URL` (githooks(5) "pre-push"): reads the
 * update lines on stdin, judges each update (src/hooks/git-pre-push.ts) with
 * the config's allow rules and detection policy, prints per update
 * `<remote ref>: <VERDICT>  <n> findings` and the findings on stderr
 * (coloured only when stderr is a terminal), nothing on stdout.
 *
 * Returns 1 when any update is BLOCK (git aborts the push), else 0. It fails
 * open (0, one line on stderr) when it cannot judge: outside a repository or
 * in a bare one, and on any internal error, because a broken hook must not
 * wedge every push. Malformed stdin lines are ignored with a note. An
 * invalid aiwg.yml does not open the gate: the push is judged with the
 * default policy and a warning.
 */
export async function runGitPrePush(args: readonly string[], io: HookIo): Promise<number> {
  const remote = args[0] ?? "";
  const url = args[1] ?? remote;
  try {
    const input = await readHookInput(io.stdin, GIT_STDIN_IDLE_MS);
    const { parsePushLines, judgePush, realPushGit } = await import("../../hooks/git-pre-push.js");
    const { updates, problems } = parsePushLines(input.text);
    for (const p of problems) io.stderr(`ralph: pre-push: ignoring stdin line ${p.line} (${p.why}): ${JSON.stringify(p.text.slice(0, 200))}\n`);
    if (updates.length === 0) {
      io.stderr("ralph: pre-push: nothing to check\n");
      return 0;
    }
    const { CheckpointStore } = await import("../../store/checkpoint-store.js");
    let store: InstanceType<typeof CheckpointStore>;
    try {
      store = CheckpointStore.open(io.cwd, io.env);
    } catch (thrown) {
      io.stderr(`ralph: pre-push: not checked: ${toRalphError(thrown).message}\n`);
      return 0;
    }
    const { configJudgeOptions } = await import("../../loop/settings.js");
    let options: Awaited<ReturnType<typeof configJudgeOptions>> = {};
    try {
      options = await configJudgeOptions(store.repo.workTree, io.env.vars);
    } catch (thrown) {
      io.stderr(`ralph: pre-push: ${toRalphError(thrown).message}; judging with the default policy\n`);
    }
    const outcome = await judgePush(store, remote, url, updates, realPushGit(store.repo.workTree, io.env.vars), options);
    const { colourEnabled, renderJudgementText } = await import("../reporters/findings.js");
    const colour = colourEnabled(io.env.vars, io.stderrIsTTY === true);
    const lines: string[] = [];
    const ralphRefs = outcome.updates.filter((o) => o.choice.kind === "skip" && o.choice.reason === "ralph-refs");
    if (ralphRefs.length > 1) lines.push(`ralph: pre-push ${remote}: ${ralphRefs.length} refs/ralph/* refs: PASS  ${SKIP_NOTES["ralph-refs"]}`);
    if (ralphRefs.length > 0 && ralphRefs.length < outcome.updates.length) {
      // Only a push naming refs/ralph/* or every ref (git push --mirror) carries them beside branches.
      lines.push(`ralph: pre-push ${remote}: note: this push also sends loop checkpoints (refs/ralph/*), as git push --mirror does; ralph push sends only those`);
    }
    for (const o of outcome.updates) {
      if (ralphRefs.length > 1 && ralphRefs.includes(o)) continue;
      // `git push origin bad:refs/heads/main` pushes a local ref to another remote name: say both.
      const local = o.update.localRef;
      const ref = local === o.update.remoteRef || local === "(delete)" ? o.update.remoteRef : `${local} -> ${o.update.remoteRef}`;
      if (o.judgement === null) {
        const why = o.choice.kind === "root" ? "a new history: nothing on the remote to compare with" : o.choice.kind === "skip" ? SKIP_NOTES[o.choice.reason] : "";
        lines.push(`ralph: pre-push ${remote}: ${ref}: PASS  ${why}`);
        continue;
      }
      const n = o.judgement.findings.length;
      lines.push(`ralph: pre-push ${remote}: ${ref}: ${o.verdict}  ${n} finding${n === 1 ? "" : "s"}`);
      if (n > 0 || o.verdict !== "PASS") {
        const text = renderJudgementText(o.judgement, o.judgement.from.slice(0, 12), o.update.localRef, { colour });
        lines.push(...text.split("\n").map((line) => (line === "" ? "" : `  ${line}`)));
      }
    }
    if (outcome.blocked) {
      const types = [...new Set(outcome.updates.flatMap((o) => (o.judgement?.findings ?? []).filter((f) => !f.allowed && isBlockingSeverity(f.severity)).map((f) => f.type)))];
      const trailers = types.map((t) => `--trailer 'Ralph-Allow: ${t} <why>'`).join(" ");
      lines.push(
        "ralph: push refused: a pushed change deletes, disables or weakens tests or bypasses validation.",
        `ralph: if it is intended, say so in the pushed commit and push again: git commit --amend --no-edit ${trailers}`,
      );
    }
    io.stderr(`${lines.join("\n")}\n`);
    // The installed script asks for a distinct refusal status, so it can tell a refusal from ralph failing (which it lets through).
    const blockExit = Number(io.env.vars.RALPH_PRE_PUSH_BLOCK_EXIT);
    return outcome.blocked ? (Number.isInteger(blockExit) && blockExit > 1 && blockExit < 126 ? blockExit : 1) : 0;
  } catch (thrown) {
    const error = toRalphError(thrown);
    io.stderr(`ralph: pre-push: not checked, failed open: ${error.message}\n`);
    if (io.env.vars.RALPH_DEBUG && thrown instanceof Error && thrown.stack) io.stderr(`${thrown.stack}\n`);
    return 0;
  }
}

const SKIP_NOTES = {
  deletion: "deleted on the remote: nothing to judge",
  unchanged: "already on the remote",
  "nothing-new": "no commit that the remote's tracking refs lack",
  "not-a-commit": "not a commit: nothing to judge",
  "ralph-refs": "ralph's checkpoints (refs/ralph/): shared as they are, not judged",
} as const;

/** The command-table entry (for `ralph --help`); main.ts normally routes hook calls to {@link runHookCommand} before cac runs. */
export async function run(ctx: CommandContext, args: string[]): Promise<CommandOutput> {
  let out = "";
  const code = await runHookCommand(args, { cwd: ctx.cwd, env: ctx.env, stdin: ctx.stdin, stdout: (text) => (out += text), stderr: ctx.stderr, stderrIsTTY: ctx.stderrIsTTY });
  // git's hook answers with its exit status alone (nothing on stdout).
  if (args[0] === "git") return { json: { exit_code: code }, text: "", exitCode: code === 1 ? 1 : 0 };
  return { json: JSON.parse(out) as unknown, text: out.trimEnd() };
}
