/**
 * `ralph hook AGENT [EVENT] [ARGS…]`: an agent's hook. It follows the
 * agent's protocol instead of ralph's exit codes (DESIGN.md "The command
 * line"). For Claude Code (hooks reference, code.claude.com/docs/en/hooks,
 * "Exit code output" and "JSON output"): exactly one JSON object on stdout,
 * diagnostics on stderr, exit 0. Exit 2 would block the action and any other
 * non-zero exit lets it go ahead, so ralph never relies on either: an
 * objection is a JSON decision, and an internal error fails open on purpose
 * (exit 0, `{}`, one line on stderr, a log line with decision "error").
 *
 * main.ts routes `hook` here before loading cac or any other command, so a
 * hook call loads only what its event needs.
 */
import type { Readable } from "node:stream";
import { toRalphError } from "../../errors.js";
import { normalizePayload } from "../../hooks/claude-payload.js";
import { INSTALL_TAG } from "../../hooks/claude-settings.js";
import { readHookInput } from "../../hooks/stdin.js";
import type { CommandContext, CommandOutput } from "../context.js";

/** What a hook process needs from its surroundings (injected for tests). */
export interface HookIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: Readable;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}


/** Agents with a hook protocol ralph speaks. */
const AGENTS = ["claude"] as const;

/** Whole-process time so far: performance.now() counts from process start. */
const elapsedMs = (): number => Math.round(performance.now() * 10) / 10;

/**
 * Runs one hook call and returns the exit code (always 0 for Claude Code).
 * Prints exactly one JSON object on stdout.
 */
export async function runHookCommand(args: readonly string[], io: HookIo): Promise<number> {
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
  }
  const payload = normalizePayload(raw, eventArg);
  const event = payload.event ?? "(unknown)";
  if (io.env.RALPH_HOOK_DRY_RUN === "1") {
    io.stderr(`ralph: hook claude ${event}: answered (dry run${parseProblem ? `; ${parseProblem}` : ""})\n`);
    answer({});
    return 0;
  }
  const { appendHookLog } = await import("../../hooks/hook-log.js");
  const { guardLoopId } = await import("../../hooks/loop-binding.js");
  const log = (workTree: string | null, loop: string | null, entry: Omit<Parameters<typeof appendHookLog>[2], "ts" | "agent" | "event" | "duration_ms">): void => {
    if (!workTree) return;
    try {
      appendHookLog(workTree, loop ?? guardLoopId(payload.sessionId), { ts: new Date().toISOString(), agent, event, duration_ms: elapsedMs(), ...entry });
    } catch (error) {
      io.stderr(`ralph: hook: could not write the hook log: ${(error as Error).message}\n`);
    }
  };
  const findWorkTree = async (): Promise<string | null> => {
    try {
      const { openRepository } = await import("../../store/repo.js");
      return openRepository(payload.cwd ?? io.cwd).workTree;
    } catch {
      try {
        const { openRepository } = await import("../../store/repo.js");
        return openRepository(io.cwd).workTree;
      } catch {
        return null;
      }
    }
  };
  if (parseProblem) {
    io.stderr(`ralph: hook claude ${event}: ${parseProblem}; allowing\n`);
    answer({});
    log(await findWorkTree(), null, { loop: guardLoopId(payload.sessionId), iteration: null, decision: "error", findings: ["E_BAD_PAYLOAD"], why: parseProblem });
    return 0;
  }
  try {
    const { answerClaudeEvent } = await import("../../hooks/claude.js");
    const result = await answerClaudeEvent(payload, io.cwd, io.env);
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
    if (io.env.RALPH_DEBUG && thrown instanceof Error && thrown.stack) io.stderr(`${thrown.stack}\n`);
    answer({});
    log(await findWorkTree(), null, { loop: guardLoopId(payload.sessionId), iteration: null, decision: "error", findings: [error.code], why: error.message });
  }
  return 0;
}

/** The command-table entry (for `ralph --help`); main.ts normally routes hook calls to {@link runHookCommand} before cac runs. */
export async function run(ctx: CommandContext, args: string[]): Promise<CommandOutput> {
  let out = "";
  await runHookCommand(args, { cwd: ctx.cwd, env: process.env, stdin: process.stdin, stdout: (text) => (out += text), stderr: ctx.stderr });
  return { json: JSON.parse(out) as unknown, text: out.trimEnd() };
}
