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
import type { AllowRule, Finding } from "../analysis/index.js";
import { isBlockingSeverity } from "../analysis/rules/registry.js";
import type { RalphConfig, ReadonlyConfig } from "../config/schema.js";
import type { DetectionPolicy } from "../loop/check.js";
import { configAllowRules, detectionPolicyFrom } from "../loop/settings.js";
import { CheckpointStore, type CheckpointResult } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import { resolveRev } from "../store/rev.js";
import { isErrno } from "../errors.js";
import type { BashContext, BashRisk } from "./bash-risk.js";
import { FILE_EDIT_TOOLS, isClaudeEvent, MUTATING_TOOLS, toolFilePath, type ClaudeEvent, type ClaudePayload } from "./claude-payload.js";
import { previewEdit } from "./edit-preview.js";
import { bindSession, readLoopFacts, resolveSessionLoop, type SessionBinding } from "./loop-binding.js";
import { toRepoPath } from "./paths.js";
import { info } from "../log.js";
import type { RuntimeEnv } from "../runtime-env.js";

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

/**
 * Settings of a hook call: the project's `aiwg.yml` (`agent_persistence`,
 * src/config), with the environment overrides `RALPH_PRETOOL_DECISION` and
 * `RALPH_AUTO_REVERT` applied by the config loader.
 */
export interface ClaudeHookSettings {
  /** What a PreToolUse objection becomes: "deny" (default) or "ask" (`hooks.pre_tool_decision`). */
  preToolDecision: "deny" | "ask";
  /** Restore a tool call's changes when PostToolUse blocks it (`recovery.auto_revert`). */
  autoRevert: boolean;
  /** Allow rules of `detection.allow`, applied to every judgement like `Ralph-Allow` trailers. */
  allow: AllowRule[];
  /** PDARE tuning (`recovery.max_retries`, `recovery.auto_escalate_on_critical`). */
  recovery: { maxRetries: number; autoEscalateOnCritical: boolean };
  /** The detection policy (`detection.mode`, `patterns_enabled`, `severity`); null: built-in. */
  policy: DetectionPolicy | null;
}

/** {@link ClaudeHookSettings} from a loaded config (defaults when null). */
export function hookSettingsFrom(config: ReadonlyConfig | RalphConfig | null): ClaudeHookSettings {
  return {
    preToolDecision: config?.hooks.pre_tool_decision ?? "deny",
    autoRevert: config?.recovery.auto_revert ?? false,
    allow: config ? configAllowRules(config) : [],
    recovery: { maxRetries: config?.recovery.max_retries ?? 3, autoEscalateOnCritical: config?.recovery.auto_escalate_on_critical ?? true },
    policy: config ? detectionPolicyFrom(config) : null,
  };
}

/**
 * Loads the settings of the repository at `workTree`. An invalid aiwg.yml
 * does not turn protection off: the defaults apply and stderr says why.
 */
export async function loadHookSettings(workTree: string, env: Readonly<NodeJS.ProcessEnv>): Promise<ClaudeHookSettings> {
  const { loadConfig } = await import("../config/load.js");
  try {
    return hookSettingsFrom((await loadConfig(workTree, { env })).config);
  } catch (error) {
    info(`${(error as Error).message}; the hook uses the default settings`);
    return hookSettingsFrom(null);
  }
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

const isBlocking = (f: Finding): boolean => !f.allowed && isBlockingSeverity(f.severity);

/** One finding as a line for a reason. */
function findingLine(f: Finding): string {
  const where = `${f.file}${f.line ? `:${f.line}` : ""}`;
  return `- ${f.type} (${f.severity}) ${where}${f.test ? ` "${f.test}"` : ""}: ${f.message}`;
}

const findingKey = (f: Finding): string => `${f.type}\u0000${f.file}\u0000${f.test ?? ""}\u0000${f.message}`;

const isDirectory = (path: string | undefined): path is string => {
  if (!path) return false;
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // a path from another machine (or Windows)
  }
};

/**
 * The directories a hook call may judge, in order: the project
 * (`CLAUDE_PROJECT_DIR`, which Claude Code sets for hook commands: hooks
 * reference, "Reference scripts by path"), the hook process's own working
 * directory (Claude Code starts hooks in the project), then the payload's
 * `cwd`. The payload's `cwd` follows the session's `cd`, into a nested
 * repository or a submodule too, so it is only the last resort: a `cd
 * vendor/lib` must not move the loop's judgement out of the project.
 */
export function callDirectories(payload: Pick<ClaudePayload, "cwd">, processCwd: string, env: Readonly<NodeJS.ProcessEnv>): string[] {
  const dirs = [env.CLAUDE_PROJECT_DIR, processCwd, payload.cwd].filter(isDirectory);
  return [...new Set(dirs)];
}

/** The first of {@link callDirectories} inside a git repository, opened; throws the last one's error when none is. */
function openProjectStore(payload: ClaudePayload, processCwd: string, env: RuntimeEnv): { store: CheckpointStore; cwd: string } {
  let failure: unknown = new Error(`no directory to judge (process cwd ${processCwd})`);
  for (const dir of callDirectories(payload, processCwd, env.vars)) {
    try {
      return { store: CheckpointStore.open(dir, env), cwd: dir };
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
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
 * Answers one Claude Code hook call in the project's repository (see
 * {@link callDirectories}). Throws only for internal problems (no
 * repository, a lock held too long, a bug); the caller fails open.
 * @param processCwd the hook process's own working directory.
 * @param env the run's environment (src/runtime-env.ts): the store opens under it, aiwg.yml's overrides come from it.
 */
export async function answerClaudeEvent(payload: ClaudePayload, processCwd: string, env: RuntimeEnv): Promise<ClaudeAnswer> {
  const event = payload.event;
  if (!isClaudeEvent(event)) {
    return { output: {}, decision: "none", workTree: null, loop: null, iteration: null, why: `event ${JSON.stringify(event ?? null)} is not one ralph answers` };
  }
  const { store, cwd } = openProjectStore(payload, processCwd, env);
  const workTree = store.repo.workTree;
  const binding = event === "SessionStart" || event === "UserPromptSubmit" ? bindSession(workTree, payload.sessionId) : resolveSessionLoop(workTree, payload.sessionId);
  const settings = await loadHookSettings(workTree, env.vars);
  const call: Call = { event, payload, store, cwd, binding, settings };
  const guard = await checkGuardSurface(call);
  // A loop whose guard was changed behind ralph's back does not complete until the user confirms: the Stop is let
  // through (the agent cannot settle it), the loop's check does not run, and the user is told why.
  const partial = guard && event === "Stop" && !binding.isGuard
    ? { output: {}, decision: "guard", why: `ralph's guard was changed outside ralph (${guard.changes.length} change(s)); the loop waits for 'ralph confirm'` }
    : await dispatch(call);
  const output = guard && (guard.fresh || event === "Stop" || event === "SessionStart" || event === "UserPromptSubmit") ? withSystemMessage(partial.output, guard.message) : partial.output;
  return { ...partial, output, workTree, loop: binding.loop, iteration: readLoopFacts(workTree, binding.loop).iteration };
}

/** Adds a `systemMessage` (shown to the user: hooks reference, "Common JSON fields") to an answer, after any it has. */
function withSystemMessage(output: Record<string, unknown>, message: string): Record<string, unknown> {
  const existing = typeof output.systemMessage === "string" ? `${output.systemMessage}\n` : "";
  return { ...output, systemMessage: clampReason(`${existing}ralph: ${message}`) };
}

/**
 * Compares ralph's control surface with its record (src/hooks/guard-record.ts):
 * the PostToolUse of a call PreToolUse asked the user about accepts the
 * surface as it is; otherwise every change waiting for `ralph confirm` is
 * returned with its message, `fresh` when this call found a new one. Fails
 * open (stderr) when the record cannot be read or written.
 */
async function checkGuardSurface(call: Call): Promise<{ message: string; fresh: boolean; changes: unknown[] } | null> {
  try {
    const { acceptAsked, checkGuard, describeGuardReport } = await import("./guard-record.js");
    if (call.event === "PostToolUse" && acceptAsked(call.store.repo, call.payload.toolUseId)) return null;
    const report = await checkGuard(call.store.repo);
    const message = describeGuardReport(report);
    return message ? { message, fresh: report.fresh, changes: report.changes } : null;
  } catch (error) {
    info(`could not check ralph's guard: ${(error as Error).message}`);
    return null;
  }
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
  if (event === "UserPromptSubmit" && !binding.isGuard) {
    // The session that submits the next prompt in the project owns a loop nobody owns yet (src/loop/owner.ts).
    const { bindOwnerIfUnowned } = await import("../loop/owner.js");
    bindOwnerIfUnowned(store.repo.workTree, binding.loop, call.payload.sessionId, "prompt");
  }
  const baseline = ensureBaseline(store, binding.loop);
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
  if (risks.some((r) => r.kind === "self_approval")) {
    lines.push("Approving, rejecting, aborting, resuming or cancelling a loop, Ralph-Allow trailers and ralph's refs are the human's decisions, not the agent's. Tell the user what you want decided and why.");
  }
  if (risks.some((r) => r.kind === "ralph_state_write")) lines.push("aiwg.yml and .aiwg/ralph/ are ralph's own config and state; only ralph and the user change them. Ask the user if a setting should change.");
  return lines.join("\n");
}

/**
 * Claude Code tools that change nothing (hooks reference, tool names):
 * allowed while the loop waits at the human gate; every other tool, MCP
 * tools included, is asked.
 */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["Read", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "TodoWrite", "TodoRead", "NotebookRead", "BashOutput", "ExitPlanMode"]);

/** Bash risks that are objected to before they run; every other risk gets a pre-tool checkpoint and goes ahead. */
const OBJECTED_BASH_RISKS: ReadonlySet<BashRisk["kind"]> = new Set(["hook_bypass", "git_push_force", "self_approval", "ralph_state_write"]);

async function onPreToolUse(call: Call): Promise<Partial> {
  const { payload, store, binding, settings } = call;
  const tool = payload.toolName ?? "";
  const workTree = store.repo.workTree;
  let bashRisks: BashRisk[] | null = null;
  if (tool === "Bash") {
    const command = typeof payload.toolInput.command === "string" ? payload.toolInput.command : "";
    const { runsRalphStart } = await import("./ralph-start.js");
    if (runsRalphStart(command)) {
      // The agent starts a loop itself: the `ralph start` that follows binds this session as its owner (src/loop/owner.ts).
      const { recordOwnerClaim } = await import("../loop/owner.js");
      recordOwnerClaim(workTree, payload.sessionId);
    }
    const { classifyBash } = await import("./bash-risk.js");
    bashRisks = await classifyBash(typeof payload.toolInput.command === "string" ? payload.toolInput.command : "", 0, await bashContextOf(call));
    // The agent deciding its own gate is denied before anything else, the gate included.
    const selfApproval = bashRisks.filter((r) => r.kind === "self_approval" || r.kind === "ralph_state_write");
    if (selfApproval.length > 0) {
      return { output: preToolOutput("deny", denyBashReason(selfApproval)), decision: "deny", findings: selfApproval.map((r) => r.kind), why: selfApproval.map((r) => r.detail).join("; ") };
    }
    // Switching ralph's guard off (its hooks, git's hooksPath, its store and refs) goes to the human.
    const tamper = bashRisks.filter((r) => r.kind === "guard_tamper");
    if (tamper.length > 0) return askGuardChange(call, tamper.map((r) => r.detail), "command");
  }
  if (!binding.isGuard && !READ_ONLY_TOOLS.has(tool)) {
    const gate = await humanGateReason(workTree, binding.loop);
    // The loop waits for a human (PDARE escalate): every change goes to the human, who sees why (hooks reference: "ask").
    if (gate) return { output: preToolOutput("ask", gate), decision: "ask", why: "the loop waits at the human gate" };
  }
  if (bashRisks !== null) {
    const risks = bashRisks;
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
  const gitDirRel = filePath ? gitDirPath(store, filePath, call.cwd) : null;
  const rel = gitDirRel ?? (filePath ? toRepoPath(workTree, filePath, call.cwd) : null);
  if (!rel) return { output: {}, decision: "allow", why: "the file is outside the repository" };
  const { controlKindOf, describeControlKind, describeSettingsChange } = await import("./control-surface.js");
  // With the work tree, a hook manager's file is part of the surface only while it holds ralph's entry.
  const control = controlKindOf(rel, { hooksDir: (await bashContextOf(call)).hooksDir ?? null, workTree });
  if (control === "agent-settings") {
    // Judged on the content it would leave: an unrelated permission added keeps ralph's entries, and is fine.
    const current = readWorkFile(workTree, rel);
    const result = previewEdit(tool, payload.toolInput, current);
    const change = result.ok ? describeSettingsChange(current, result.after) : null;
    if (change) return askGuardChange(call, [`${tool} of ${rel} ${change}`], tool);
  } else if (control === "hook-manager") {
    // Judged on ralph's entry in the content it would leave: a job of your own added beside it is fine.
    const { describeHookManagerChange } = await import("./hook-manager-entries.js");
    const current = readWorkFile(workTree, rel);
    const result = previewEdit(tool, payload.toolInput, current);
    // An edit that cannot be previewed (its old_string is not there) fails in the tool too: nothing changes.
    const change = result.ok ? await describeHookManagerChange(rel, current, result.after) : null;
    if (change) return askGuardChange(call, [`${tool} of ${rel} ${change}`], tool);
  } else if (control !== null && control !== "ralph-config" && control !== "ralph-state") {
    return askGuardChange(call, [`${tool} of ${rel} (${describeControlKind(control)})`], tool);
  }
  const { isRalphStatePath } = await import("./protected-paths.js");
  if (isRalphStatePath(rel)) {
    const reason = `${rel} is ralph's own config or state: it sets how this session is judged and when the loop stops, so the user decides this ${tool}.`;
    return { output: preToolOutput("ask", reason), decision: "ask", findings: ["ralph_state_write"], why: `${tool} of ${rel}` };
  }
  const before = readWorkFile(workTree, rel);
  const preview = previewEdit(tool, payload.toolInput, before);
  if (!preview.ok) return { output: {}, decision: "allow", why: `not judged: ${preview.why}` };
  const [{ analyzeChanges, isAnalyzable }, { openFactsCache }, { protectedKindOf }, { applyDetectionPolicy, headUnchangedFiles, loopAllowRules }] = await Promise.all([
    import("../analysis/index.js"),
    import("../loop/facts-cache.js"),
    import("./protected-paths.js"),
    import("../loop/check.js"),
  ]);
  // Risky but allowed (checkpointed first): a protected file the detector cannot judge, or an edit it
  // judges below the deny threshold (WARN, allowed findings, a side it could not analyse).
  let isRisky = !isAnalyzable(rel) && protectedKindOf(rel) !== null;
  if (isAnalyzable(rel)) {
    const facts = openFactsCache(store.repo.ralphDir);
    // The unchanged tests of HEAD (facts from the cache) judge a product edit too: special_casing against the tests that exercise it.
    const unchanged = headUnchangedFiles(store, [rel]);
    const allow = [...settings.allow, ...loopAllowRules(workTree, binding.loop)];
    const raw = await analyzeChanges([{ path: rel, before, after: preview.after }], unchanged ? { facts, allow, unchanged } : { facts, allow });
    const analysis = settings.policy ? applyDetectionPolicy(raw, settings.policy) : raw;
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

/** A payload path inside the repository's git dir (per-worktree or common, which lie outside a linked worktree) as `.git/…`, else null. */
function gitDirPath(store: CheckpointStore, rawPath: string, cwd: string): string | null {
  for (const dir of [store.repo.gitDir, store.repo.commonDir]) {
    const inside = toRepoPath(dir, rawPath, cwd);
    if (inside !== null) return `.git/${inside}`;
  }
  return null;
}

/** Where a Bash call runs, for the control-surface paths (src/hooks/bash-risk.ts): the call's directory, the git dirs, core.hooksPath when it lies in the work tree. */
async function bashContextOf(call: Call): Promise<BashContext> {
  const { hooksDirOf } = await import("./git-hook-install.js");
  const repo = call.store.repo;
  const hooksDir = toRepoPath(repo.workTree, hooksDirOf(repo));
  return { workTree: repo.workTree, cwd: call.cwd, gitDirs: [repo.gitDir, repo.commonDir], hooksDir };
}

/**
 * PreToolUse's answer to a tool call that would change ralph's control
 * surface: `ask`, with what it would change, so the human decides; the
 * call's id is remembered, so its PostToolUse (it ran: the user allowed it)
 * accepts the change instead of reporting it as tampering.
 */
async function askGuardChange(call: Call, changes: string[], what: string): Promise<Partial> {
  const reason = [
    `ralph: this ${what} would change how ralph guards this session:`,
    ...changes.map((c) => `- ${c}`),
    "Allow it only if you want this change; ralph would then no longer check what it switched off.",
  ].join("\n");
  try {
    const { rememberAsked } = await import("./guard-record.js");
    rememberAsked(call.store.repo, call.payload.toolUseId);
  } catch (error) {
    info(`could not note the question about ${call.payload.toolUseId ?? "this call"}: ${(error as Error).message}`);
  }
  return { output: preToolOutput("ask", reason), decision: "ask", findings: ["guard_tamper"], why: changes.join("; ") };
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

/** The human gate's text when `loop` is paused with regressions waiting for a decision, else null. */
async function humanGateReason(workTree: string, loop: LoopId): Promise<string | null> {
  const [{ readState }, { describeGate }] = await Promise.all([import("../loop/state.js"), import("../loop/recovery.js")]);
  let state;
  try {
    state = readState(workTree, loop);
  } catch {
    return null;
  }
  const gate = state ? describeGate(state) : null;
  return gate ? `ralph ${gate}\nAllow this call only if it is fine while the loop waits.` : null;
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
  const { judgeChange, loopAllowRules } = await import("../loop/check.js");
  const to = { kind: "commit" as const, oid: post.oid, treeOid: post.treeOid, label: post.oid };
  // Ralph-Allow trailers of the user's commits since the baseline apply (judgeChange reads them from the checkpoints' Ralph-Head),
  // and so do the config's allow rules and the loop's human approvals.
  const judgeOptions = { allow: [...settings.allow, ...loopAllowRules(store.repo.workTree, binding.loop)], ...(settings.policy ? { policy: settings.policy } : {}) };
  const judgement = await judgeChange(store, from, to, judgeOptions);
  const blocking = judgement.findings.filter(isBlocking);
  if (blocking.length === 0) return { output: {}, decision: "allow", checkpoint: post.oid, why: `verdict ${judgement.verdict}` };
  // Which of them did this tool call bring? Those absent from the judgement of the checkpoint before it.
  const parent = store.readCheckpoint(post.oid).parents[0];
  let standing = new Set<string>();
  if (parent && parent !== baselineOid) {
    const parentRev = resolveRev(store, parent, binding.loop);
    if (parentRev.kind === "commit") standing = new Set((await judgeChange(store, from, parentRev, judgeOptions)).findings.filter(isBlocking).map(findingKey));
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
  const recovery = binding.isGuard
    ? null
    : await recordRegression(store.repo.workTree, binding.loop, settings, { tool, toolUseId: payload.toolUseId, checkpoint: post.oid, restoreTarget: target, reverted, findings: fresh });
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
    ...(recovery ? [recovery] : []),
  ];
  return { output: blockOutput(lines.join("\n")), decision: "block", checkpoint: post.oid, findings: types, why: `${fresh.length} new blocking finding(s)${reverted ? "; reverted" : ""}` };
}

/**
 * Records a blocked tool call in the loop's state through the recovery
 * protocol (src/loop/recovery.ts): one `regression_events` entry per
 * finding type with its PDARE record, each counting a retry. A change the
 * hook restored (auto revert) is recorded as `recovered` at once; one that
 * stands is `retrying` until the iteration ends (where a critical one that
 * still stands escalates). Past `max_retries` either way, the loop goes to
 * the human gate (`paused`).
 * Best effort, under the state lock: the block stands without it.
 * @returns the recovery message for the agent, or null.
 */
async function recordRegression(
  workTree: string,
  loop: LoopId,
  settings: ClaudeHookSettings,
  event: { tool: string; toolUseId: string | undefined; checkpoint: string; restoreTarget: string | null; reverted: boolean; findings: Finding[] },
): Promise<string | null> {
  try {
    const [{ updateState }, { applyRecovery, markEventsRecovered, regressionsByType }] = await Promise.all([import("../loop/state.js"), import("../loop/recovery.js")]);
    const { result } = updateState(
      workTree,
      loop,
      (state) => {
        const regressions = regressionsByType(event.findings, {
          source: "PostToolUse",
          tool: event.tool,
          tool_use_id: event.toolUseId ?? null,
          checkpoint: event.checkpoint,
          restore_target: event.restoreTarget,
          reverted: event.reverted,
        });
        const nowIso = new Date().toISOString();
        const context = { iteration: state.iteration + 1, completionPassed: false, checkpointRef: event.checkpoint, nowIso, stage: "tool" as const };
        if (event.reverted) {
          // Restored already: nothing stands, so a critical finding alone does not call the human; repeated
          // attempts still spend retries, and past max_retries the loop goes to the human gate.
          const outcome = applyRecovery(state, regressions, context, { ...settings.recovery, autoEscalateOnCritical: false });
          const restored = outcome.events.filter((e) => e.recovery_outcome === "retrying");
          markEventsRecovered(state, restored.map((e) => e.event_id));
          const notes = restored.map((e) => `${e.event_id} ${e.regression_type}: restored by ralph (attempt recorded; recovered).`);
          return { result: outcome.escalated ? `${notes.join("\n")}\n${outcome.message}`.trim() : notes.join("\n") };
        }
        // Standing: the agent gets its retry (the block's reason says how to restore). A critical regression
        // that still stands when the iteration ends goes to the human gate then (src/loop/evaluate.ts).
        return { result: applyRecovery(state, regressions, context, { ...settings.recovery, autoEscalateOnCritical: false }).message };
      },
      { lockTimeoutMs: 2_000 },
    );
    return result || null;
  } catch (error) {
    info(`could not record the regression in loop ${loop}'s state: ${(error as Error).message}`);
    return null;
  }
}

/** Writes the loop's report when it is over (completed, failed or aborted) and has no report written since it ended. */
async function reportIfOver(workTree: string, loop: LoopId): Promise<void> {
  const { readState, isTerminal } = await import("../loop/state.js");
  let state;
  try {
    state = readState(workTree, loop);
  } catch {
    return;
  }
  if (!state || !isTerminal(state.status)) return;
  if (state.completion_report_path !== null && state.completed_at !== null) {
    try {
      // A report written after the loop ended is the final one already.
      if (statSync(join(workTree, state.completion_report_path)).mtimeMs >= Date.parse(state.completed_at)) return;
    } catch {
      /* missing: write it */
    }
  }
  const { writeFinalReport } = await import("./hook-log.js");
  await writeFinalReport(workTree, loop);
}

async function onStop(call: Call): Promise<Partial> {
  const { payload, store, binding } = call;
  const { decideStop } = await import("../loop/stop.js");
  const decision = await decideStop({
    cwd: call.cwd,
    env: store.repo.env,
    sessionId: payload.sessionId,
    transcriptPath: payload.transcriptPath,
    stopHookActive: payload.stopHookActive,
    lastAssistantMessage: payload.lastAssistantMessage,
    backgroundTasks: payload.backgroundTasks,
  });
  let checkpoint: string | undefined;
  if (decision.loop === null) {
    // No active loop: the loop engine wrote nothing; keep the end of the turn in the session's loop.
    checkpoint = store.checkpoint({ loop: binding.loop, kind: "manual", message: "Stop checkpoint (end of turn)" }).oid;
  }
  if (decision.action === "block") return { output: blockOutput(decision.reason), decision: "block", why: decision.why, ...(checkpoint ? { checkpoint } : {}) };
  if (decision.loop !== null) await reportIfOver(store.repo.workTree, decision.loop as LoopId);
  // An allow with a message (the human gate): Claude Code shows `systemMessage` to the user (hooks reference, "Common JSON fields").
  const output = decision.message ? { systemMessage: clampReason(`ralph: ${decision.message}`) } : {};
  return { output, decision: decision.message ? "gate" : "allow", why: decision.why, ...(checkpoint ? { checkpoint } : {}) };
}

/** SubagentStop, PreCompact, SessionEnd: checkpoint, answer nothing. */
async function onCheckpointOnly(call: Call): Promise<Partial> {
  const { store, binding, event, payload } = call;
  const detail = payload.source ? ` ${payload.source}` : "";
  const result = store.checkpoint({ loop: binding.loop, kind: "manual", message: `${event}${detail} checkpoint` });
  return { output: {}, decision: "allow", checkpoint: result.oid, why: result.changed ? "checkpointed" : "unchanged" };
}
