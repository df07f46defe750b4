/**
 * Claude Code's hook protocol: one event payload in, one decision object
 * out (Claude Code hooks reference, code.claude.com/docs/en/hooks).
 *
 * Output per event, as the reference defines it:
 * - PreToolUse: `hookSpecificOutput: {hookEventName: "PreToolUse",
 *   permissionDecision: "allow" | "deny" | "ask", permissionDecisionReason}`.
 *   A deny reason goes to the model, an ask reason to the human. ralph never
 *   answers "allow" (that would skip the user's permission prompt): an
 *   action it does not object to gets `{}` and the normal permission flow.
 * - PostToolUse, Stop, SubagentStop: top-level `decision: "block"` and
 *   `reason` (the tool already ran: the reason is fed back to the model).
 * - SessionStart, UserPromptSubmit, PostToolUse: `hookSpecificOutput.
 *   additionalContext` reaches the model as a system reminder; ralph writes
 *   facts there, never commands.
 * Every reason and context is kept under 10,000 characters (the reference
 * caps injected hook output at 10,000).
 *
 * This module decides; the `ralph hook` command reads stdin, prints, logs
 * and fails open. The analysis, the Bash grammar and the judgement are
 * imported by the events that use them, so SessionStart, Stop and the
 * checkpoint-only events never load a parser (DESIGN.md budgets).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Finding } from "../analysis/index.js";
import { CheckpointStore, type CheckpointResult } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import { resolveRev } from "../store/rev.js";
import { isErrno } from "../errors.js";
import type { BashRisk } from "./bash-risk.js";
import { FILE_EDIT_TOOLS, isClaudeEvent, MUTATING_TOOLS, toolFilePath, type ClaudeEvent, type ClaudePayload } from "./claude-payload.js";
import { previewEdit } from "./edit-preview.js";
import { bindSession, readLoopFacts, resolveSessionLoop, type SessionBinding } from "./loop-binding.js";
import { toRepoPath } from "./paths.js";

/** Longest reason or context ralph sends (the reference caps hook output injected into context at 10,000 characters). */
export const MAX_REASON_CHARS = 9_500;

/** What a handler decided: the JSON to print and what to log. */
export interface ClaudeAnswer {
  /** The one JSON object for stdout. */
  output: Record<string, unknown>;
  /** allow (nothing to object to) | deny | ask | block | context | none. */
  decision: string;
  /** The repository root, when the cwd was inside one. */
  workTree: string | null;
  loop: LoopId | null;
  iteration: number | null;
  checkpoint?: string;
  findings?: string[];
  /** One line for the log. */
  why: string;
}

/** Settings a hook call reads from its environment (kept simple: environment variables). */
export interface ClaudeHookSettings {
  /** What a PreToolUse objection becomes: "deny" (default) or "ask" (`RALPH_PRETOOL_DECISION=ask`). */
  preToolDecision: "deny" | "ask";
  /** Restore a tool call's changes when PostToolUse blocks it (`RALPH_AUTO_REVERT=1`). */
  autoRevert: boolean;
}

/** Reads {@link ClaudeHookSettings} from an environment. */
export function hookSettingsFrom(env: NodeJS.ProcessEnv): ClaudeHookSettings {
  return {
    preToolDecision: env.RALPH_PRETOOL_DECISION === "ask" ? "ask" : "deny",
    autoRevert: env.RALPH_AUTO_REVERT === "1" || env.RALPH_AUTO_REVERT === "true",
  };
}

/** Cuts text to {@link MAX_REASON_CHARS}, saying how much was left out. */
export function clampReason(text: string): string {
  if (text.length <= MAX_REASON_CHARS) return text;
  const note = `\n… (${text.length - MAX_REASON_CHARS + 60} more characters left out; run 'ralph check' for everything)`;
  return text.slice(0, MAX_REASON_CHARS - note.length) + note;
}

/** A PreToolUse permission decision object. */
export function preToolOutput(decision: "allow" | "deny" | "ask", reason: string): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: clampReason(reason) } };
}

/** A top-level block (PostToolUse, Stop, SubagentStop). */
export function blockOutput(reason: string): Record<string, unknown> {
  return { decision: "block", reason: clampReason(reason) };
}

/** Facts for the model as `additionalContext` (SessionStart, UserPromptSubmit, PostToolUse). */
export function contextOutput(event: ClaudeEvent, text: string): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName: event, additionalContext: clampReason(text) } };
}

const isBlocking = (f: Finding): boolean => !f.allowed && (f.severity === "critical" || f.severity === "high");

/** One finding as a line for a reason. */
function findingLine(f: Finding): string {
  const where = `${f.file}${f.line ? `:${f.line}` : ""}`;
  return `- ${f.type} (${f.severity}) ${where}${f.test ? ` "${f.test}"` : ""}: ${f.message}`;
}

const findingKey = (f: Finding): string => `${f.type}\u0000${f.file}\u0000${f.test ?? ""}\u0000${f.message}`;

/** The working directory of the call: the payload's `cwd` when it is a directory, else the process's. */
function callDirectory(payload: ClaudePayload, fallback: string): string {
  if (payload.cwd) {
    try {
      if (statSync(payload.cwd).isDirectory()) return payload.cwd;
    } catch {
      /* a cwd from another machine (or Windows): use ours */
    }
  }
  return fallback;
}

/** Writes the loop's first checkpoint (its baseline) when the loop has none yet. */
function ensureBaseline(store: CheckpointStore, loop: LoopId): CheckpointResult | null {
  if (store.readLoopRef(loop, "head")) return null;
  return store.checkpoint({ loop, kind: "baseline", message: "baseline checkpoint (Claude Code session)" });
}

/** The event handlers' shared inputs. */
interface Call {
  event: ClaudeEvent;
  payload: ClaudePayload;
  store: CheckpointStore;
  cwd: string;
  binding: SessionBinding;
  settings: ClaudeHookSettings;
}

/**
 * Answers one Claude Code hook call. Throws only for internal problems (no
 * repository, a lock held too long, a bug); the caller fails open.
 * @param processCwd the process's own directory, used when the payload has no usable `cwd`.
 */
export async function answerClaudeEvent(payload: ClaudePayload, processCwd: string, settings: ClaudeHookSettings): Promise<ClaudeAnswer> {
  const event = payload.event;
  if (!isClaudeEvent(event)) {
    return { output: {}, decision: "none", workTree: null, loop: null, iteration: null, why: `event ${JSON.stringify(event ?? null)} is not one ralph answers` };
  }
  const cwd = callDirectory(payload, processCwd);
  const store = CheckpointStore.open(cwd);
  const workTree = store.repo.workTree;
  const binding = event === "SessionStart" || event === "UserPromptSubmit" ? bindSession(workTree, payload.sessionId) : resolveSessionLoop(workTree, payload.sessionId);
  const call: Call = { event, payload, store, cwd, binding, settings };
  const partial = await dispatch(call);
  return { ...partial, workTree, loop: binding.loop, iteration: readLoopFacts(workTree, binding.loop).iteration };
}

type Partial = Omit<ClaudeAnswer, "workTree" | "loop" | "iteration">;

function dispatch(call: Call): Promise<Partial> {
  switch (call.event) {
    case "SessionStart":
    case "UserPromptSubmit":
      return onSessionBind(call);
    case "PreToolUse":
      return onPreToolUse(call);
    case "PostToolUse":
      return onPostToolUse(call);
    case "Stop":
      return onStop(call);
    case "SubagentStop":
    case "PreCompact":
    case "SessionEnd":
      return onCheckpointOnly(call);
  }
}

/** SessionStart / UserPromptSubmit: bind (done by the caller), make sure the loop has a baseline, state facts. */
async function onSessionBind(call: Call): Promise<Partial> {
  const { store, binding, event } = call;
  const baseline = ensureBaseline(store, binding.loop);
  const baselineOid = baseline?.oid ?? store.readLoopRef(binding.loop, "baseline");
  const facts = readLoopFacts(store.repo.workTree, binding.loop);
  const lines: string[] = [];
  if (!binding.isGuard) {
    lines.push(`ralph loop ${binding.loop} is active in this repository.`);
    if (facts.task) lines.push(`Task: ${facts.task}`);
    if (facts.iteration !== null) lines.push(`Iterations ended: ${facts.iteration}${facts.maxIterations !== null ? ` of at most ${facts.maxIterations}` : ""}.`);
    if (facts.completionCommand) lines.push(`The loop ends when this command exits 0: ${facts.completionCommand}`);
    if (facts.reinforcement) lines.push(facts.reinforcement);
  } else if (event === "SessionStart") {
    lines.push(`ralph checkpoints this session's file changes on refs/ralph/${binding.loop} (baseline ${baselineOid?.slice(0, 12) ?? "none"}).`);
    lines.push("Edits that delete, disable or weaken tests, tamper with test configuration, or bypass validation are denied before they land.");
  }
  const why = baseline ? `bound to ${binding.loop}; baseline ${baseline.oid.slice(0, 12)}` : `bound to ${binding.loop}`;
  if (lines.length === 0) return { output: {}, decision: "allow", why, ...(baseline ? { checkpoint: baseline.oid } : {}) };
  return { output: contextOutput(event, lines.join("\n")), decision: "context", why, ...(baseline ? { checkpoint: baseline.oid } : {}) };
}

/** Reads a work-tree file as text; null when it does not exist. */
function readWorkFile(workTree: string, rel: string): string | null {
  try {
    return readFileSync(join(workTree, rel), "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR", "EISDIR")) return null;
    throw error;
  }
}

/** The text of a PreToolUse objection to a file edit. */
function denyEditReason(tool: string, rel: string, blocking: Finding[], stats: { tests_before: number; tests_after: number; assertions_before: number; assertions_after: number }): string {
  const lines = [
    `ralph stopped this ${tool} of ${rel} before it was written: it would weaken the test suite.`,
    ...blocking.map(findingLine),
    `Tests in the file: ${stats.tests_before} -> ${stats.tests_after}; assertions: ${stats.assertions_before} -> ${stats.assertions_after}.`,
    "Nothing was changed. Instead, keep the tests and their assertions as they are and change the code under test until they pass.",
    "If the user explicitly wants this test change, ask them; an approved change is recorded with a commit trailer `Ralph-Allow: <type> <reason>`.",
  ];
  return lines.join("\n");
}

/** The text of a PreToolUse objection to a Bash command. */
function denyBashReason(risks: BashRisk[]): string {
  const lines = ["ralph stopped this command before it ran:", ...risks.map((r) => `- ${r.kind}: ${r.detail}`)];
  if (risks.some((r) => r.kind === "hook_bypass")) lines.push("Git hooks run the project's checks; bypassing them hides failures. Run the command without the bypass and fix what the hooks report.");
  if (risks.some((r) => r.kind === "git_push_force")) lines.push("A force push rewrites history others may have; ralph cannot checkpoint a remote. Push without --force, or ask the user.");
  return lines.join("\n");
}

/** Bash risks that are objected to before they run; every other risk gets a pre-tool checkpoint and goes ahead. */
const OBJECTED_BASH_RISKS: ReadonlySet<BashRisk["kind"]> = new Set(["hook_bypass", "git_push_force"]);

async function onPreToolUse(call: Call): Promise<Partial> {
  const { payload, store, binding, settings } = call;
  const tool = payload.toolName ?? "";
  const workTree = store.repo.workTree;
  if (tool === "Bash") {
    const { classifyBash } = await import("./bash-risk.js");
    const command = typeof payload.toolInput.command === "string" ? payload.toolInput.command : "";
    const risks = await classifyBash(command);
    if (risks.length === 0) return { output: {}, decision: "allow", why: "no risk in the command" };
    const objected = risks.filter((r) => OBJECTED_BASH_RISKS.has(r.kind));
    if (objected.length > 0) {
      // A force push goes to the human gate; a hook bypass is denied (or asked, per settings).
      const decision = objected.every((r) => r.kind === "git_push_force") ? "ask" : settings.preToolDecision;
      return { output: preToolOutput(decision, denyBashReason(objected)), decision, findings: objected.map((r) => r.kind), why: objected.map((r) => r.detail).join("; ") };
    }
    ensureBaseline(store, binding.loop);
    const checkpoint = store.checkpoint({ loop: binding.loop, kind: "pre-tool", tool, toolUseId: payload.toolUseId, message: `pre-tool checkpoint (Bash: ${risks.map((r) => r.kind).join(", ")})` });
    return { output: {}, decision: "allow", checkpoint: checkpoint.oid, findings: risks.map((r) => r.kind), why: `risky, checkpointed: ${risks.map((r) => r.detail).join("; ")}` };
  }
  if (!FILE_EDIT_TOOLS.has(tool)) return { output: {}, decision: "allow", why: `${tool || "(no tool)"} changes no file` };
  const filePath = toolFilePath(payload);
  const rel = filePath ? toRepoPath(workTree, filePath, call.cwd) : null;
  if (!rel) return { output: {}, decision: "allow", why: "the file is outside the repository" };
  const before = readWorkFile(workTree, rel);
  const preview = previewEdit(tool, payload.toolInput, before);
  if (!preview.ok) return { output: {}, decision: "allow", why: `not judged: ${preview.why}` };
  const [{ analyzeChanges, isAnalyzable }, { openFactsCache }, { protectedKindOf }] = await Promise.all([
    import("../analysis/index.js"),
    import("../loop/facts-cache.js"),
    import("./protected-paths.js"),
  ]);
  // Risky but allowed (checkpointed first): a protected file the detector cannot judge, or an edit it
  // judges below the deny threshold (WARN, allowed findings, a side it could not analyse).
  let isRisky = !isAnalyzable(rel) && protectedKindOf(rel) !== null;
  if (isAnalyzable(rel)) {
    const facts = openFactsCache(store.repo.ralphDir);
    const analysis = await analyzeChanges([{ path: rel, before, after: preview.after }], { facts });
    facts.flush();
    isRisky = analysis.findings.length > 0 || (analysis.not_analyzed.length > 0 && protectedKindOf(rel) !== null);
    const blocking = analysis.findings.filter(isBlocking);
    if (blocking.length > 0) {
      const decision = settings.preToolDecision;
      return {
        output: preToolOutput(decision, denyEditReason(tool, rel, blocking, analysis.stats)),
        decision,
        findings: blocking.map((f) => f.type),
        why: `${blocking.length} blocking finding(s) in ${rel}`,
      };
    }
  }
  const baseline = ensureBaseline(store, binding.loop);
  if (isRisky && !baseline) {
    const checkpoint = store.checkpoint({ loop: binding.loop, kind: "pre-tool", tool, toolUseId: payload.toolUseId, message: `pre-tool checkpoint (${tool} ${rel})` });
    return { output: {}, decision: "allow", checkpoint: checkpoint.oid, why: `risky edit of ${rel}; checkpointed` };
  }
  return { output: {}, decision: "allow", ...(baseline ? { checkpoint: baseline.oid } : {}), why: "no finding" };
}

/** The checkpoint to restore after a blocked tool call: its pre-tool checkpoint, else the checkpoint before it. */
function restoreTargetFor(store: CheckpointStore, loop: LoopId, toolUseId: string | undefined, postOid: string): string | null {
  const chain = store.log(loop, 64);
  if (toolUseId) {
    for (const c of chain) {
      if (c.kind === "pre-tool" && c.trailers.some((t) => t.key === "Ralph-Tool-Use-Id" && t.value === toolUseId)) return c.oid;
    }
  }
  const post = chain.find((c) => c.oid === postOid);
  return post?.parents[0] ?? null;
}

async function onPostToolUse(call: Call): Promise<Partial> {
  const { payload, store, binding, settings } = call;
  const tool = payload.toolName ?? "";
  if (!MUTATING_TOOLS.has(tool)) return { output: {}, decision: "allow", why: `${tool || "(no tool)"} changes no file` };
  const request = { loop: binding.loop, kind: "post-tool" as const, tool, toolUseId: payload.toolUseId, message: `post-tool checkpoint (${tool})` };
  // The fast path: a file tool names the one file it wrote, so only that file is read again.
  const named = FILE_EDIT_TOOLS.has(tool) ? toolFilePath(payload) : undefined;
  const post = named ? store.checkpointPaths(request, [named]) : store.checkpoint(request);
  if (!post.changed) return { output: {}, decision: "allow", checkpoint: post.oid, why: "the tool changed nothing" };
  const baselineOid = store.readLoopRef(binding.loop, "baseline");
  if (!baselineOid || baselineOid === post.oid) return { output: {}, decision: "allow", checkpoint: post.oid, why: "this checkpoint is the baseline" };
  const from = resolveRev(store, baselineOid, binding.loop);
  if (from.kind !== "commit") return { output: {}, decision: "allow", checkpoint: post.oid, why: "no baseline commit" };
  const { judgeChange } = await import("../loop/check.js");
  const to = { kind: "commit" as const, oid: post.oid, treeOid: post.treeOid, label: post.oid };
  // Ralph-Allow trailers of the user's commits since the baseline apply (judgeChange reads them from the checkpoints' Ralph-Head).
  const judgement = await judgeChange(store, from, to);
  const blocking = judgement.findings.filter(isBlocking);
  if (blocking.length === 0) return { output: {}, decision: "allow", checkpoint: post.oid, why: `verdict ${judgement.verdict}` };
  // Which of them did this tool call bring? Those absent from the judgement of the checkpoint before it.
  const parent = store.readCheckpoint(post.oid).parents[0];
  let standing = new Set<string>();
  if (parent && parent !== baselineOid) {
    const parentRev = resolveRev(store, parent, binding.loop);
    if (parentRev.kind === "commit") standing = new Set((await judgeChange(store, from, parentRev)).findings.filter(isBlocking).map(findingKey));
  }
  const fresh = blocking.filter((f) => !standing.has(findingKey(f)));
  const types = blocking.map((f) => f.type);
  if (fresh.length === 0) {
    const text = [`ralph: ${blocking.length} finding(s) since the loop's baseline are still open (see 'ralph check --loop ${binding.loop}'):`, ...blocking.map(findingLine)].join("\n");
    return { output: contextOutput("PostToolUse", text), decision: "context", checkpoint: post.oid, findings: types, why: "standing findings only" };
  }
  const target = restoreTargetFor(store, binding.loop, payload.toolUseId, post.oid);
  let reverted = false;
  if (settings.autoRevert && target) {
    const targetRev = resolveRev(store, target, binding.loop);
    if (targetRev.kind === "commit") {
      store.revert({ oid: targetRev.oid, treeOid: targetRev.treeOid, label: target.slice(0, 12) }, { loop: binding.loop });
      reverted = true;
    }
  }
  if (!binding.isGuard) await recordRegression(store.repo.workTree, binding.loop, { tool, toolUseId: payload.toolUseId, checkpoint: post.oid, restoreTarget: target, reverted, findings: fresh });
  const lines = [
    `ralph: this ${tool} call weakened the test suite (compared with the loop's baseline):`,
    ...fresh.map(findingLine),
    `Tests in the changed files: ${judgement.stats.tests_before} -> ${judgement.stats.tests_after}; assertions: ${judgement.stats.assertions_before} -> ${judgement.stats.assertions_after}.`,
    reverted
      ? `ralph restored the files to checkpoint ${target} (the state before this call); the change is kept in checkpoint ${post.oid}.`
      : target
        ? `Restore the state before this call with: ralph revert ${target} --loop ${binding.loop}`
        : `See the changes with: ralph diff @baseline --loop ${binding.loop}`,
    "Then fix the code under test, not the test.",
  ];
  return { output: blockOutput(lines.join("\n")), decision: "block", checkpoint: post.oid, findings: types, why: `${fresh.length} new blocking finding(s)${reverted ? "; reverted" : ""}` };
}

/** Regression events kept in a loop's state (`metrics.regressions`), newest last. */
export const MAX_RECORDED_REGRESSIONS = 50;

/**
 * Records a blocked tool call as a regression event in the loop's state
 * (`metrics.regressions`, under the state lock), for the loop engine's
 * recovery and report. Best effort: the block stands without it.
 */
async function recordRegression(
  workTree: string,
  loop: LoopId,
  event: { tool: string; toolUseId: string | undefined; checkpoint: string; restoreTarget: string | null; reverted: boolean; findings: Finding[] },
): Promise<void> {
  try {
    const { updateState } = await import("../loop/state.js");
    updateState(
      workTree,
      loop,
      (state) => {
        const previous = Array.isArray(state.metrics.regressions) ? (state.metrics.regressions as unknown[]) : [];
        const entry = {
          at: new Date().toISOString(),
          iteration: state.iteration + 1,
          source: "PostToolUse",
          tool: event.tool,
          tool_use_id: event.toolUseId ?? null,
          checkpoint: event.checkpoint,
          restore_target: event.restoreTarget,
          reverted: event.reverted,
          findings: event.findings.map((f) => ({ type: f.type, severity: f.severity, file: f.file, line: f.line, ...(f.test ? { test: f.test } : {}) })),
        };
        state.metrics.regressions = [...previous, entry].slice(-MAX_RECORDED_REGRESSIONS);
        return { result: null };
      },
      { lockTimeoutMs: 2_000 },
    );
  } catch (error) {
    process.stderr.write(`ralph: could not record the regression in loop ${loop}'s state: ${(error as Error).message}\n`);
  }
}

async function onStop(call: Call): Promise<Partial> {
  const { payload, store, binding } = call;
  const { decideStop } = await import("../loop/stop.js");
  const decision = await decideStop({ cwd: call.cwd, sessionId: payload.sessionId, transcriptPath: payload.transcriptPath, stopHookActive: payload.stopHookActive });
  let checkpoint: string | undefined;
  if (decision.loop === null) {
    // No active loop: the loop engine wrote nothing; keep the end of the turn in the session's loop.
    checkpoint = store.checkpoint({ loop: binding.loop, kind: "manual", message: "Stop checkpoint (end of turn)" }).oid;
  }
  if (decision.action === "block") return { output: blockOutput(decision.reason), decision: "block", why: decision.why, ...(checkpoint ? { checkpoint } : {}) };
  return { output: {}, decision: "allow", why: decision.why, ...(checkpoint ? { checkpoint } : {}) };
}

/** SubagentStop, PreCompact, SessionEnd: checkpoint, answer nothing. */
async function onCheckpointOnly(call: Call): Promise<Partial> {
  const { store, binding, event, payload } = call;
  const detail = payload.source ? ` ${payload.source}` : "";
  const result = store.checkpoint({ loop: binding.loop, kind: "manual", message: `${event}${detail} checkpoint` });
  return { output: {}, decision: "allow", checkpoint: result.oid, why: result.changed ? "checkpointed" : "unchanged" };
}
