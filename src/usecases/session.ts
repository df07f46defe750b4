/**
 * Use cases of an agent session as a whole: opening it in the project's
 * repository, binding it to a loop (the active loop, else the session's own
 * guard loop: src/hooks/loop-binding.ts), the facts a session start or a
 * prompt tells the model, and the checkpoint-only events (a subagent's
 * stop, a compaction, the session's end).
 */
import type { RuntimeEnv } from "../runtime-env.js";
import { CheckpointStore, type CheckpointResult } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import { bindSession, readLoopFacts, resolveSessionLoop } from "../hooks/loop-binding.js";
import { loadHookSettings, type HookSettings } from "./settings.js";
import type { Diagnostics, Session, Verdict } from "./types.js";

/** Which agent a session belongs to. */
export interface AgentRef {
  /** Short id (`claude`, `codex`): the prefix of the session's guard loop (`claude-<session>`). */
  id: string;
  /** Its name in checkpoint messages (`Claude Code`). */
  name: string;
}

/** What {@link openSession} needs. */
export interface SessionRequest {
  agent: AgentRef;
  /**
   * Directories the call may be judged in, in order of preference (the
   * adapter knows which its agent means: the project directory first, the
   * payload's cwd last); the first inside a git work tree is used.
   */
  directories: readonly string[];
  sessionId: string | undefined;
  /** True for the events that (re)bind the session to a loop (a session start, a prompt); else its recorded binding is used. */
  bind: boolean;
  /** The run's environment (src/runtime-env.ts): the store opens under it; `vars` holds the config loader's overrides. */
  env: RuntimeEnv;
  diagnostics: Diagnostics;
  /** Settings to use instead of loading aiwg.yml (tests, a warm process). */
  settings?: HookSettings;
}

/**
 * Opens the session in the first of `request.directories` inside a git
 * work tree, binds or resolves its loop, and loads the settings.
 * @throws the last directory's error (RalphError E_NOT_A_REPO, E_BARE_REPO) when none is in a repository.
 */
export async function openSession(request: SessionRequest): Promise<Session> {
  let failure: unknown = new Error(`no directory to judge (tried ${request.directories.length})`);
  let opened: { store: CheckpointStore; cwd: string } | null = null;
  for (const dir of request.directories) {
    try {
      opened = { store: CheckpointStore.open(dir, request.env), cwd: dir };
      break;
    } catch (error) {
      failure = error;
    }
  }
  if (!opened) throw failure;
  const workTree = opened.store.repo.workTree;
  const binding = request.bind ? bindSession(workTree, request.sessionId, request.agent.id) : resolveSessionLoop(workTree, request.sessionId, request.agent.id);
  const settings = request.settings ?? (await loadHookSettings(workTree, request.env.vars, request.diagnostics));
  return { ...opened, binding, sessionId: request.sessionId, settings, agentName: request.agent.name, diagnostics: request.diagnostics };
}

/** Writes the loop's first checkpoint (its baseline) when the loop has none yet; null when it has one. */
export function ensureBaseline(session: Pick<Session, "store" | "agentName">, loop: LoopId): CheckpointResult | null {
  if (session.store.readLoopRef(loop, "head")) return null;
  return session.store.checkpoint({ loop, kind: "baseline", message: `baseline checkpoint (${session.agentName} session)` });
}

/**
 * A session start or a prompt: makes sure the loop has a baseline and says
 * what the model should know. A prompt in a loop nobody owns yet binds the
 * session as its owner (src/loop/owner.ts). A loop session hears its task,
 * iterations, completion command and the human gate or reinforcement; a
 * guard session hears at its start what ralph checkpoints and denies.
 * @param event `start` (the agent's session start) or `prompt` (a prompt submitted).
 */
export async function startTurn(session: Session, event: "start" | "prompt"): Promise<Verdict> {
  const { store, binding } = session;
  if (event === "prompt" && !binding.isGuard) {
    const { bindOwnerIfUnowned } = await import("../loop/owner.js");
    bindOwnerIfUnowned(store.repo.workTree, binding.loop, session.sessionId, "prompt");
  }
  const baseline = ensureBaseline(session, binding.loop);
  const baselineOid = baseline?.oid ?? store.readLoopRef(binding.loop, "baseline");
  const facts = readLoopFacts(store.repo.workTree, binding.loop);
  const lines: string[] = [];
  if (!binding.isGuard) {
    lines.push(`ralph loop ${binding.loop} is active in this repository.`);
    if (facts.task) lines.push(`Task: ${facts.task}`);
    if (facts.iteration !== null) lines.push(`Iterations ended: ${facts.iteration}${facts.maxIterations !== null ? ` of at most ${facts.maxIterations}` : ""}.`);
    if (facts.completionCommand) lines.push(`The loop ends when this command exits 0: ${facts.completionCommand}`);
    if (facts.gate) lines.push(`The loop waits for the user: ${facts.gate} Until then every change is put to the user.`);
    else if (facts.reinforcement) lines.push(facts.reinforcement);
  } else if (event === "start") {
    lines.push(`ralph checkpoints this session's file changes on refs/ralph/${binding.loop} (baseline ${baselineOid?.slice(0, 12) ?? "none"}).`);
    lines.push("Edits that delete, disable or weaken tests, tamper with test configuration, or bypass validation are denied before they land.");
  }
  const why = baseline ? `bound to ${binding.loop}; baseline ${baseline.oid.slice(0, 12)}` : `bound to ${binding.loop}`;
  const checkpoint = baseline ? { checkpoint: baseline.oid } : {};
  if (lines.length === 0) return { decision: "allow", why, ...checkpoint };
  return { decision: "context", context: lines.join("\n"), why, ...checkpoint };
}

/**
 * An event that only checkpoints (a subagent's stop, a compaction, the end
 * of the session): writes a `manual` checkpoint named `<label> checkpoint`
 * and answers nothing.
 */
export function checkpointEvent(session: Session, label: string): Verdict {
  const result = session.store.checkpoint({ loop: session.binding.loop, kind: "manual", message: `${label} checkpoint` });
  return { decision: "allow", checkpoint: result.oid, why: result.changed ? "checkpointed" : "unchanged" };
}
