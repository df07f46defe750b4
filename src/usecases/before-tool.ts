/**
 * Judging a tool call before it runs: deny, ask or allow, with reasons.
 *
 * Order of the rules (each answer carries its `why`):
 * 1. shell: a command that starts a loop (`ralph start`) records the
 *    session's claim to own it; the command is read with the Bash grammar
 *    (src/hooks/bash-risk.ts): the agent deciding its own gate or writing
 *    ralph's state is denied; a change of ralph's control surface (its
 *    hooks, git's hooksPath, its store and refs) is asked;
 * 2. while the loop waits at the human gate (PDARE escalate), every call
 *    but a `read` is asked;
 * 3. shell: no risk: allow; a hook bypass is denied (or asked, per
 *    `hooks.pre_tool_decision`), a force push asked; other risks get a
 *    pre-tool checkpoint and go ahead;
 * 4. file changes: files outside the repository are not judged; a change of
 *    the control surface (agent settings, a hook manager's entry, the
 *    pre-push hook) is asked, judged on the content it would leave; a write
 *    to aiwg.yml or `.aiwg/ralph/` is asked; the files' content after the
 *    call is analysed against their content now, with the unchanged tests of
 *    HEAD, and blocking findings are denied (or asked); a risky call that is
 *    allowed (a protected file the detector cannot judge, findings below the
 *    deny threshold) gets a pre-tool checkpoint first when it has a baseline
 *    already.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Finding } from "../analysis/index.js";
import { isErrno } from "../errors.js";
import type { BashContext, BashRisk } from "../hooks/bash-risk.js";
import { toRepoPath } from "../hooks/paths.js";
import type { CheckpointStore } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import { findingLine, isBlocking } from "./findings.js";
import { ensureBaseline } from "./session.js";
import type { FileChange, Session, ToolCall, Verdict } from "./types.js";

/** Reads a work-tree file as text; null when it does not exist. */
function readWorkFile(workTree: string, rel: string): string | null {
  try {
    return readFileSync(join(workTree, rel), "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR", "EISDIR")) return null;
    throw error;
  }
}

/** The text of an objection to a file change. */
function denyEditReason(tool: string, rels: readonly string[], blocking: Finding[], stats: { tests_before: number; tests_after: number; assertions_before: number; assertions_after: number }): string {
  const lines = [
    `ralph stopped this ${tool} of ${rels.join(", ")} before it was written: it would weaken the test suite.`,
    ...blocking.map(findingLine),
    `Tests in the file${rels.length === 1 ? "" : "s"}: ${stats.tests_before} -> ${stats.tests_after}; assertions: ${stats.assertions_before} -> ${stats.assertions_after}.`,
    "Nothing was changed. Instead, keep the tests and their assertions as they are and change the code under test until they pass.",
    "If the user explicitly wants this test change, ask them; an approved change is recorded with a commit trailer `Ralph-Allow: <type> <reason>`.",
  ];
  return lines.join("\n");
}

/** The text of an objection to a shell command. */
function denyBashReason(risks: BashRisk[]): string {
  const lines = ["ralph stopped this command before it ran:", ...risks.map((r) => `- ${r.kind}: ${r.detail}`)];
  if (risks.some((r) => r.kind === "hook_bypass")) lines.push("Git hooks run the project's checks; bypassing them hides failures. Run the command without the bypass and fix what the hooks report.");
  if (risks.some((r) => r.kind === "git_push_force")) lines.push("A force push rewrites history others may have; ralph cannot checkpoint a remote. Push without --force, or ask the user.");
  if (risks.some((r) => r.kind === "self_approval")) {
    lines.push(
      "Approving, rejecting, aborting, resuming or cancelling a loop, Ralph-Allow trailers and ralph's refs are the human's decisions, not the agent's. Tell the user what you want decided and why.",
    );
  }
  if (risks.some((r) => r.kind === "ralph_state_write"))
    lines.push("aiwg.yml and .aiwg/ralph/ are ralph's own config and state; only ralph and the user change them. Ask the user if a setting should change.");
  return lines.join("\n");
}

/** Shell risks that are objected to before they run; every other risk gets a pre-tool checkpoint and goes ahead. */
const OBJECTED_BASH_RISKS: ReadonlySet<BashRisk["kind"]> = new Set(["hook_bypass", "git_push_force", "self_approval", "ralph_state_write"]);

/** A path the agent named inside the repository's git dir (per-worktree or common, which lie outside a linked worktree) as `.git/…`, else null. */
function gitDirPath(store: CheckpointStore, rawPath: string, cwd: string): string | null {
  for (const dir of [store.repo.gitDir, store.repo.commonDir]) {
    const inside = toRepoPath(dir, rawPath, cwd);
    if (inside !== null) return `.git/${inside}`;
  }
  return null;
}

/** Where a shell command runs, for the control-surface paths (src/hooks/bash-risk.ts): the call's directory, the git dirs, core.hooksPath when it lies in the work tree. */
async function bashContextOf(session: Session): Promise<BashContext> {
  const { hooksDirOf } = await import("../hooks/git-hook-install.js");
  const repo = session.store.repo;
  const hooksDir = toRepoPath(repo.workTree, hooksDirOf(repo));
  return { workTree: repo.workTree, cwd: session.cwd, gitDirs: [repo.gitDir, repo.commonDir], hooksDir };
}

/**
 * The answer to a tool call that would change ralph's control surface:
 * `ask`, with what it would change, so the human decides; the call's id is
 * remembered, so its after-tool judgement (it ran: the user allowed it)
 * accepts the change instead of reporting it as tampering.
 */
async function askGuardChange(session: Session, call: ToolCall, changes: string[], what: string): Promise<Verdict> {
  const reason = [
    `ralph: this ${what} would change how ralph guards this session:`,
    ...changes.map((c) => `- ${c}`),
    "Allow it only if you want this change; ralph would then no longer check what it switched off.",
  ].join("\n");
  try {
    const { rememberAsked } = await import("../hooks/guard-record.js");
    rememberAsked(session.store.repo, call.id);
  } catch (error) {
    session.diagnostics(`ralph: could not note the question about ${call.id ?? "this call"}: ${(error as Error).message}\n`);
  }
  return { decision: "ask", reason, findings: ["guard_tamper"], why: changes.join("; ") };
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

/**
 * Judges `call` before it runs (see the module doc for the rules).
 * Throws only for internal problems (a lock held too long, an unreadable
 * object, a bug): the adapter fails open.
 */
export async function judgeBeforeTool(session: Session, call: ToolCall): Promise<Verdict> {
  const { store, binding } = session;
  const workTree = store.repo.workTree;
  let bashRisks: BashRisk[] | null = null;
  if (call.kind === "shell") {
    const command = call.command ?? "";
    const { runsRalphStart } = await import("../hooks/ralph-start.js");
    if (runsRalphStart(command)) {
      // The agent starts a loop itself: the `ralph start` that follows binds this session as its owner (src/loop/owner.ts).
      const { recordOwnerClaim } = await import("../loop/owner.js");
      recordOwnerClaim(workTree, session.sessionId);
    }
    const { classifyBash } = await import("../hooks/bash-risk.js");
    bashRisks = await classifyBash(command, 0, await bashContextOf(session));
    // The agent deciding its own gate is denied before anything else, the gate included.
    const selfApproval = bashRisks.filter((r) => r.kind === "self_approval" || r.kind === "ralph_state_write");
    if (selfApproval.length > 0) {
      return { decision: "deny", reason: denyBashReason(selfApproval), findings: selfApproval.map((r) => r.kind), why: selfApproval.map((r) => r.detail).join("; ") };
    }
    // Switching ralph's guard off (its hooks, git's hooksPath, its store and refs) goes to the human.
    const tamper = bashRisks.filter((r) => r.kind === "guard_tamper");
    if (tamper.length > 0)
      return askGuardChange(
        session,
        call,
        tamper.map((r) => r.detail),
        "command",
      );
  }
  if (!binding.isGuard && call.kind !== "read") {
    const gate = await humanGateReason(workTree, binding.loop);
    // The loop waits for a human (PDARE escalate): every change goes to the human, who sees why.
    if (gate) return { decision: "ask", reason: gate, why: "the loop waits at the human gate" };
  }
  if (bashRisks !== null) return judgeShellRisks(session, call, bashRisks);
  if (call.kind !== "edit" && call.kind !== "write" && call.kind !== "delete") return { decision: "allow", why: `${call.tool || "(no tool)"} changes no file` };
  return judgeFileChanges(session, call);
}

/** Rule 3 of the module doc: what the shell command's risks lead to. */
function judgeShellRisks(session: Session, call: ToolCall, risks: BashRisk[]): Verdict {
  if (risks.length === 0) return { decision: "allow", why: "no risk in the command" };
  const objected = risks.filter((r) => OBJECTED_BASH_RISKS.has(r.kind));
  if (objected.length > 0) {
    // A force push goes to the human gate; a hook bypass is denied (or asked, per settings).
    const decision = objected.every((r) => r.kind === "git_push_force") ? "ask" : session.settings.preToolDecision;
    return { decision, reason: denyBashReason(objected), findings: objected.map((r) => r.kind), why: objected.map((r) => r.detail).join("; ") };
  }
  const { store, binding } = session;
  ensureBaseline(session, binding.loop);
  const checkpoint = store.checkpoint({
    loop: binding.loop,
    kind: "pre-tool",
    tool: call.tool,
    toolUseId: call.id,
    message: `pre-tool checkpoint (${call.tool}: ${risks.map((r) => r.kind).join(", ")})`,
  });
  return { decision: "allow", checkpoint: checkpoint.oid, findings: risks.map((r) => r.kind), why: `risky, checkpointed: ${risks.map((r) => r.detail).join("; ")}` };
}

/** A changed file inside the repository: its repository path and what the call does to it. */
interface RepoFile {
  rel: string;
  change: FileChange;
}

/** The content a file change leaves, or why it cannot be known. */
function previewOf(change: FileChange, before: string | null): ReturnType<NonNullable<FileChange["preview"]>> {
  return change.preview ? change.preview(before) : { ok: false, why: "the content after the call is not known before it runs" };
}

/** Rule 4 of the module doc: the call's file changes. */
async function judgeFileChanges(session: Session, call: ToolCall): Promise<Verdict> {
  const { store, binding, settings } = session;
  const workTree = store.repo.workTree;
  const files: RepoFile[] = [];
  for (const change of call.files) {
    const rel = gitDirPath(store, change.path, session.cwd) ?? toRepoPath(workTree, change.path, session.cwd);
    if (rel !== null) files.push({ rel, change });
  }
  if (files.length === 0) return { decision: "allow", why: "the file is outside the repository" };
  const controlChanges = await controlSurfaceChanges(session, call, files);
  if (controlChanges.length > 0) return askGuardChange(session, call, controlChanges, call.tool);
  const { isRalphStatePath } = await import("../hooks/protected-paths.js");
  const stateFiles = files.filter((f) => isRalphStatePath(f.rel)).map((f) => f.rel);
  if (stateFiles.length > 0) {
    const reason = `${stateFiles.join(", ")} ${stateFiles.length === 1 ? "is" : "are"} ralph's own config or state: it sets how this session is judged and when the loop stops, so the user decides this ${call.tool}.`;
    return { decision: "ask", reason, findings: ["ralph_state_write"], why: `${call.tool} of ${stateFiles.join(", ")}` };
  }
  const previews: { rel: string; before: string | null; after: string | null }[] = [];
  let notJudged: string | null = null;
  for (const { rel, change } of files) {
    const before = readWorkFile(workTree, rel);
    const preview = previewOf(change, before);
    if (preview.ok) previews.push({ rel, before, after: preview.after });
    else notJudged ??= preview.why;
  }
  if (previews.length === 0) return { decision: "allow", why: `not judged: ${notJudged ?? "nothing to judge"}` };
  const [{ analyzeChanges, isAnalyzable }, { openFactsCache }, { protectedKindOf }, { applyDetectionPolicy, headUnchangedFiles, loopAllowRules }] = await Promise.all([
    import("../analysis/index.js"),
    import("../loop/facts-cache.js"),
    import("../hooks/protected-paths.js"),
    import("../loop/check.js"),
  ]);
  // Risky but allowed (checkpointed first): a protected file the detector cannot judge, or an edit it
  // judges below the deny threshold (WARN, allowed findings, a side it could not analyse).
  let isRisky = previews.some((p) => !isAnalyzable(p.rel) && protectedKindOf(p.rel) !== null);
  const analyzable = previews.filter((p) => isAnalyzable(p.rel));
  const rels = previews.map((p) => p.rel);
  if (analyzable.length > 0) {
    const facts = openFactsCache(store.repo.ralphDir);
    // The unchanged tests of HEAD (facts from the cache) judge a product edit too: special_casing against the tests that exercise it.
    const unchanged = headUnchangedFiles(
      store,
      analyzable.map((p) => p.rel),
    );
    const allow = [...settings.allow, ...loopAllowRules(workTree, binding.loop)];
    const changes = analyzable.map((p) => ({ path: p.rel, before: p.before, after: p.after }));
    const raw = await analyzeChanges(changes, unchanged ? { facts, allow, unchanged } : { facts, allow });
    const analysis = settings.policy ? applyDetectionPolicy(raw, settings.policy) : raw;
    facts.flush();
    isRisky ||= analysis.findings.length > 0 || (analysis.not_analyzed.length > 0 && analyzable.some((p) => protectedKindOf(p.rel) !== null));
    const blocking = analysis.findings.filter(isBlocking);
    if (blocking.length > 0) {
      const judged = analyzable.map((p) => p.rel);
      return {
        decision: settings.preToolDecision,
        reason: denyEditReason(call.tool, judged, blocking, analysis.stats),
        findings: blocking.map((f) => f.type),
        why: `${blocking.length} blocking finding(s) in ${judged.join(", ")}`,
      };
    }
  }
  const baseline = ensureBaseline(session, binding.loop);
  if (isRisky && !baseline) {
    const checkpoint = store.checkpoint({ loop: binding.loop, kind: "pre-tool", tool: call.tool, toolUseId: call.id, message: `pre-tool checkpoint (${call.tool} ${rels.join(", ")})` });
    return { decision: "allow", checkpoint: checkpoint.oid, why: `risky edit of ${rels.join(", ")}; checkpointed` };
  }
  return { decision: "allow", ...(baseline ? { checkpoint: baseline.oid } : {}), why: "no finding" };
}

/** What the call's file changes would change of ralph's control surface (src/hooks/control-surface.ts), one line each; empty when nothing. */
async function controlSurfaceChanges(session: Session, call: ToolCall, files: readonly RepoFile[]): Promise<string[]> {
  const workTree = session.store.repo.workTree;
  const { controlKindOf, describeControlKind, describeSettingsChange } = await import("../hooks/control-surface.js");
  const hooksDir = (await bashContextOf(session)).hooksDir ?? null;
  const changes: string[] = [];
  for (const { rel, change } of files) {
    // With the work tree, a hook manager's file is part of the surface only while it holds ralph's entry.
    const control = controlKindOf(rel, { hooksDir, workTree });
    if (control === "agent-settings") {
      // Judged on the content it would leave: an unrelated permission added keeps ralph's entries, and is fine.
      const current = readWorkFile(workTree, rel);
      const result = previewOf(change, current);
      const described = result.ok ? describeSettingsChange(current, result.after) : null;
      if (described) changes.push(`${call.tool} of ${rel} ${described}`);
    } else if (control === "hook-manager") {
      // Judged on ralph's entry in the content it would leave: a job of your own added beside it is fine.
      const { describeHookManagerChange } = await import("../hooks/hook-manager-entries.js");
      const current = readWorkFile(workTree, rel);
      const result = previewOf(change, current);
      // An edit that cannot be previewed (its old_string is not there) fails in the tool too: nothing changes.
      const described = result.ok ? await describeHookManagerChange(rel, current, result.after) : null;
      if (described) changes.push(`${call.tool} of ${rel} ${described}`);
    } else if (control !== null && control !== "ralph-config" && control !== "ralph-state") {
      changes.push(`${call.tool} of ${rel} (${describeControlKind(control)})`);
    }
  }
  return changes;
}
