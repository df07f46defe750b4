/**
 * `ralph hook codex|gemini|cursor EVENT`: one hook call of an agent other
 * than Claude Code, through its adapter (src/hooks/agent-adapter.ts). Like
 * Claude Code's path in ./hook.ts: the payload is read from stdin (bounded:
 * src/hooks/stdin.ts), exactly one JSON object goes to stdout, diagnostics
 * to stderr, the exit status is 0, and every internal error fails open (the
 * adapter's "nothing to say" answer, one line on stderr, a log line with
 * decision "error"). An event the adapter does not answer (Claude Code's
 * `PreToolUse` given to Gemini, say) gets the same answer and a note, and
 * so does a payload missing a field the event needs (AgentAdapter.required).
 * `RALPH_HOOK_DRY_RUN=1` (ralph doctor) answers without judging or writing.
 */
import { toRalphError } from "../../errors.js";
import { missingFields, missingFieldsProblem, type AgentAdapter } from "../../hooks/agent-adapter.js";
import { readHookInput } from "../../hooks/stdin.js";
import type { HookIo } from "./hook.js";

/** Whole-process time so far: performance.now() counts from process start. */
const elapsedMs = (): number => Math.round(performance.now() * 10) / 10;

/** Runs one hook call of `adapter`'s agent; always returns 0 (see the module doc). */
export async function runAgentHook(adapter: AgentAdapter, eventArg: string | undefined, io: HookIo): Promise<number> {
  const input = await readHookInput(io.stdin);
  let raw: unknown = null;
  let problem: string | null = null;
  if (input.text.trim() === "") problem = `no payload on stdin (${input.endedBy})`;
  else {
    try {
      raw = JSON.parse(input.text);
    } catch (error) {
      problem = `the payload is not JSON (${input.sizeBytes} bytes, ${input.endedBy}): ${(error as Error).message.split("\n")[0]}`;
    }
    if (problem === null && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
      problem = `the payload is ${Array.isArray(raw) ? "an array" : raw === null ? "null" : `a ${typeof raw}`}, not a JSON object`;
    }
  }
  const payload = adapter.parse(raw, eventArg);
  const event = payload.event ?? "(unknown)";
  let printed = false;
  const answer = (output: Record<string, unknown>): void => {
    if (printed) return;
    printed = true;
    io.stdout(`${JSON.stringify(output)}\n`);
  };
  if (problem === null && !adapter.events.includes(event)) problem = `${JSON.stringify(payload.event ?? null)} is not a ${adapter.name} hook event ralph answers (known: ${adapter.events.join(", ")})`;
  if (problem === null) problem = missingFieldsProblem(missingFields(payload.raw, adapter.required(event)));
  if (io.env.vars.RALPH_HOOK_DRY_RUN === "1") {
    io.stderr(`ralph: hook ${adapter.id} ${event}: answered (dry run${problem ? `; ${problem}` : ""})\n`);
    answer(adapter.allowOutput(payload));
    return 0;
  }
  const [{ appendHookLog }, { guardLoopId }] = await Promise.all([import("../../hooks/hook-log.js"), import("../../hooks/loop-binding.js")]);
  const guard = guardLoopId(payload.sessionId, adapter.id);
  const log = (workTree: string | null, loop: string | null, entry: { iteration: number | null; decision: string; checkpoint?: string; findings?: string[]; why: string }): void => {
    if (!workTree) return;
    try {
      appendHookLog(workTree, loop ?? guard, {
        ts: new Date().toISOString(),
        agent: adapter.id,
        event,
        duration_ms: elapsedMs(),
        loop: loop ?? guard,
        ...(payload.toolName ? { tool: payload.toolName } : {}),
        ...(payload.toolUseId ? { tool_use_id: payload.toolUseId } : {}),
        ...entry,
      });
    } catch (error) {
      io.stderr(`ralph: hook: could not write the hook log: ${(error as Error).message}\n`);
    }
  };
  const findWorkTree = async (): Promise<string | null> => {
    const { openRepository } = await import("../../store/repo.js");
    for (const dir of adapter.directories(payload, io.cwd, io.env.vars)) {
      try {
        return openRepository(dir).workTree;
      } catch {
        /* the next candidate */
      }
    }
    return null;
  };
  if (problem) {
    io.stderr(`ralph: hook ${adapter.id} ${event}: ${problem}; allowing\n`);
    answer(adapter.allowOutput(payload));
    log(await findWorkTree(), null, { iteration: null, decision: "error", findings: ["E_BAD_PAYLOAD"], why: problem });
    return 0;
  }
  try {
    const { answerEvent } = await import("../../usecases/event.js");
    const diagnostics = (text: string): void => io.stderr(text);
    let settings: import("../../usecases/settings.js").HookSettings | undefined;
    if (adapter.restoresBlocked?.(payload)) {
      // The protocol could not deny this change and cannot tell the model now: a blocked change is restored at once.
      const workTree = await findWorkTree();
      if (workTree) {
        const { loadHookSettings } = await import("../../usecases/settings.js");
        settings = { ...(await loadHookSettings(workTree, io.env.vars, diagnostics)), autoRevert: true };
      }
    }
    const verdict = await answerEvent({
      ...(settings ? { settings } : {}),
      agent: { id: adapter.id, name: adapter.name },
      directories: adapter.directories(payload, io.cwd, io.env.vars),
      sessionId: payload.sessionId,
      env: io.env,
      diagnostics,
      event: adapter.eventOf(payload, io.cwd),
    });
    const settled = adapter.settle ? { ...verdict, ...adapter.settle(payload, verdict, diagnostics) } : verdict;
    answer(adapter.outputOf(payload, settled));
    log(verdict.workTree, verdict.loop, {
      iteration: verdict.iteration,
      decision: settled.decision,
      ...(settled.checkpoint ? { checkpoint: settled.checkpoint } : {}),
      ...(settled.findings && settled.findings.length > 0 ? { findings: settled.findings } : {}),
      why: settled.why,
    });
  } catch (thrown) {
    const error = toRalphError(thrown);
    io.stderr(`ralph: hook ${adapter.id} ${event} failed open: ${error.message}\n`);
    if (io.env.debug && thrown instanceof Error && thrown.stack) io.stderr(`${thrown.stack}\n`);
    answer(adapter.allowOutput(payload));
    log(await findWorkTree(), null, { iteration: null, decision: "error", findings: [error.code], why: error.message });
  }
  return 0;
}
