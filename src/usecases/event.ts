/**
 * One agent hook call, end to end and agent-neutral: open the session in
 * the project's repository, bind or resolve its loop, load the settings,
 * compare ralph's guard with its record, run the event's use case, and add
 * what the user must hear about the guard. An adapter (src/hooks/claude.ts)
 * turns its agent's payload into an {@link AgentEvent} and the
 * {@link EventVerdict} into its agent's answer; nothing else.
 *
 * The guard (src/hooks/guard-record.ts): a change of ralph's control
 * surface made outside ralph is shown to the user (`userMessage`) when this
 * call found it, and at every session start, prompt and stop while it
 * waits for `ralph confirm`; meanwhile a stop of a loop session is let
 * through (`guard`) without running the loop's check, so the loop does not
 * complete. The after-tool call of a call the user was asked about accepts
 * the surface as it is (the call ran: the user said yes).
 */
import { readLoopFacts } from "../hooks/loop-binding.js";
import { judgeAfterTool } from "./after-tool.js";
import { judgeBeforeTool } from "./before-tool.js";
import { checkpointEvent, openSession, startTurn, type SessionRequest } from "./session.js";
import { decideSessionStop, type StopFacts } from "./stop.js";
import type { EventVerdict, Session, ToolCall, Verdict } from "./types.js";

/**
 * The events a session goes through, in the agent's order:
 * - `session-start`: the session begins (or resumes): binds it to a loop;
 * - `prompt`: the user submitted a prompt: binds it again (a loop started
 *   since is picked up) and may make the session the loop's owner;
 * - `before-tool` / `after-tool`: a tool call before it runs / after it ran;
 * - `stop`: the agent is about to end its turn;
 * - `checkpoint`: anything else worth a checkpoint (a subagent's stop, a
 *   compaction, the session's end); `label` names it in the message.
 */
export type AgentEvent =
  | { type: "session-start" }
  | { type: "prompt" }
  | { type: "before-tool"; call: ToolCall }
  | { type: "after-tool"; call: ToolCall }
  | { type: "stop"; stop: StopFacts }
  | { type: "checkpoint"; label: string };

/** A hook call: the session it belongs to and its event. */
export interface EventRequest extends Omit<SessionRequest, "bind"> {
  event: AgentEvent;
}

/** The guard's news for this call: the message for the user, whether this call found it, how many changes wait. */
interface GuardNotice {
  message: string;
  fresh: boolean;
  changes: number;
}

/**
 * Compares ralph's control surface with its record: the after-tool call
 * of a call the user was asked about accepts the surface as it is;
 * otherwise every change waiting for `ralph confirm` is returned with its
 * message. Fails open (a diagnostic line) when the record cannot be read
 * or written.
 */
async function checkGuardSurface(session: Session, event: AgentEvent): Promise<GuardNotice | null> {
  try {
    const { acceptAsked, checkGuard, describeGuardReport } = await import("../hooks/guard-record.js");
    if (event.type === "after-tool" && acceptAsked(session.store.repo, event.call.id)) return null;
    const report = await checkGuard(session.store.repo);
    const message = describeGuardReport(report);
    return message ? { message, fresh: report.fresh, changes: report.changes.length } : null;
  } catch (error) {
    session.diagnostics(`ralph: could not check ralph's guard: ${(error as Error).message}\n`);
    return null;
  }
}

/** Runs the event's use case. */
function dispatch(session: Session, event: AgentEvent): Promise<Verdict> | Verdict {
  switch (event.type) {
    case "session-start":
      return startTurn(session, "start");
    case "prompt":
      return startTurn(session, "prompt");
    case "before-tool":
      return judgeBeforeTool(session, event.call);
    case "after-tool":
      return judgeAfterTool(session, event.call);
    case "stop":
      return decideSessionStop(session, event.stop);
    case "checkpoint":
      return checkpointEvent(session, event.label);
  }
}

/**
 * Answers one hook call (see the module doc). Throws only for internal
 * problems (no repository among the directories, a lock held too long, a
 * bug): the adapter fails open.
 */
export async function answerEvent(request: EventRequest): Promise<EventVerdict> {
  const { event } = request;
  const binds = event.type === "session-start" || event.type === "prompt";
  const session = await openSession({ ...request, bind: binds });
  const { binding } = session;
  const guard = await checkGuardSurface(session, event);
  const verdict: Verdict =
    guard && event.type === "stop" && !binding.isGuard
      ? { decision: "guard", why: `ralph's guard was changed outside ralph (${guard.changes} change(s)); the loop waits for 'ralph confirm'` }
      : await dispatch(session, event);
  const tellUser = guard && (guard.fresh || binds || event.type === "stop");
  const userMessage = tellUser ? [verdict.userMessage, `ralph: ${guard.message}`].filter((m) => m !== undefined).join("\n") : verdict.userMessage;
  const workTree = session.store.repo.workTree;
  return { ...verdict, ...(userMessage !== undefined ? { userMessage } : {}), workTree, loop: binding.loop, iteration: readLoopFacts(workTree, binding.loop).iteration };
}
