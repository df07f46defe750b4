/**
 * The shape every agent adapter but Claude Code's has (Codex CLI, Gemini CLI,
 * Cursor: src/hooks/{codex,gemini,cursor}.ts): the agent's payload in, an
 * agent-neutral event for the use cases (src/usecases/event.ts), the
 * verdict out in the agent's answer format. `ralph hook <agent> EVENT`
 * (src/cli/commands/hook.ts) reads stdin, calls the adapter, prints, logs
 * and fails open; the adapter decides nothing itself.
 *
 * The agent is always the one the installed command names: an adapter never
 * looks at environment variables to find out which agent called it.
 */
import { statSync } from "node:fs";
import type { AgentEvent } from "../usecases/event.js";
import type { EventVerdict, Verdict } from "../usecases/types.js";
import { normalizeSlashes } from "./paths.js";

/** A payload as the adapters read it: the event and session, and the raw object for the rest. */
export interface AgentPayload {
  /** The event: the command line's EVENT argument, else the payload's `hook_event_name`. */
  event: string | undefined;
  /** The agent's session id (Cursor: `conversation_id`). */
  sessionId: string | undefined;
  /** The tool call's id, when the agent sends one (for the log). */
  toolUseId: string | undefined;
  /** The tool's name, when the event is about a tool call (for the log). */
  toolName: string | undefined;
  /** The payload object (an empty object when stdin was not one). */
  raw: Record<string, unknown>;
}

/** One agent's translation (see the module doc). */
export interface AgentAdapter {
  /** The agent's id: `ralph hook <id>`, the guard loop prefix (`codex-<session>`), the log's `agent`. */
  id: string;
  /** The agent's name in checkpoint messages and diagnostics. */
  name: string;
  /** The events ralph answers, as the agent names them. */
  events: readonly string[];
  /** Reads a parsed payload; `eventArg` (from the command line) wins over the payload's own event name. */
  parse(raw: unknown, eventArg: string | undefined): AgentPayload;
  /** The directories the call may be judged in, in order (src/usecases/session.ts openSession). */
  directories(payload: AgentPayload, processCwd: string, env: NodeJS.ProcessEnv): string[];
  /** The agent-neutral event of one of {@link events}; `processCwd` is the hook process's directory (relative paths without a payload `cwd`). */
  eventOf(payload: AgentPayload, processCwd: string): AgentEvent;
  /** The agent's answer to a verdict. */
  outputOf(payload: AgentPayload, verdict: Verdict): Record<string, unknown>;
  /**
   * Optional: true for an event whose change the protocol can neither stop
   * nor report to the model while it matters (Cursor's afterFileEdit and
   * afterShellExecution): a change the use cases block is then restored at
   * once, as `recovery.auto_revert` does, since a deny was not possible.
   */
  restoresBlocked?(payload: AgentPayload): boolean;
  /**
   * Optional: adjusts the verdict with what the adapter keeps between calls,
   * for a protocol that cannot answer an event when it happens (Cursor's
   * fire-and-forget after-edit events reach the model at the next stop).
   */
  settle?(payload: AgentPayload, verdict: EventVerdict, diagnostics: (text: string) => void): Verdict;
  /**
   * The payload fields one event needs to be judged (the session id, and the
   * tool or command of a tool event): each a non-empty string. A payload
   * missing one fails open with one stderr line naming it (./agent-hook.ts).
   */
  required(event: string): readonly string[];
  /** What the adapter prints when ralph has nothing to say (a dry run, a failure it fails open on, an event it does not answer). */
  allowOutput(payload: AgentPayload): Record<string, unknown>;
}

/** Longest reason or context ralph sends an agent (the same limit as Claude Code's: src/hooks/claude.ts). */
export { clampReason, MAX_REASON_CHARS } from "./claude.js";

/** A string field of a payload object, or undefined when absent, empty or not a string. */
export function stringField(o: Record<string, unknown>, key: string): string | undefined {
  const value = o[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** An object field, or an empty object. */
export function objectField(o: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = o[key];
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * The `fields` of a payload object that are absent, empty or not strings, in
 * order; an alternative spelling goes as `"a|b"` (either one will do, the
 * first is named).
 */
export function missingFields(o: Record<string, unknown>, fields: readonly string[]): string[] {
  return fields.filter((field) => field.split("|").every((key) => stringField(o, key) === undefined)).map((field) => field.split("|")[0]!);
}

/** The one-line problem of a payload missing `missing` fields (see {@link missingFields}), or null when none is. */
export function missingFieldsProblem(missing: readonly string[]): string | null {
  return missing.length === 0 ? null : `the payload has no ${missing.join(", ")} (${missing.length === 1 ? "a non-empty string" : "non-empty strings"} expected)`;
}

/** The payload as an object (anything else: an empty one). */
export function asObject(raw: unknown): Record<string, unknown> {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}

/** Existing directories among `candidates`, `/`-separated, in order, without repeats. */
export function existingDirectories(candidates: ReadonlyArray<string | undefined>): string[] {
  const out: string[] = [];
  for (const dir of candidates) {
    if (!dir) continue;
    try {
      if (!statSync(dir).isDirectory()) continue;
    } catch {
      continue; // a path from another machine
    }
    const normalized = normalizeSlashes(dir);
    if (!out.includes(normalized)) out.push(normalized);
  }
  return out;
}

/**
 * The text of an objection the agent's protocol cannot put to the human
 * (Codex's PreToolUse rejects `ask`; Gemini documents no `ask`): ralph denies
 * the call and the model is told the user must decide.
 */
export function askAsDeny(agentName: string, reason: string): string {
  return `${reason}\n${agentName} hooks cannot ask the user, so ralph stopped this call: tell the user what you want to do and why, and let them decide or do it themselves.`;
}
