/**
 * Judging a tool call after it ran: checkpoint what it changed, judge the
 * loop's change since its baseline, and block the call when it brought a
 * blocking finding (its own, not one that was already standing). A blocked
 * call is restored to the state before it when `recovery.auto_revert` is
 * on ({@link restoreTargetFor} chooses the checkpoint), and recorded in the
 * loop's state through PDARE (src/loop/recovery.ts) with the steps that
 * recover from it.
 */
import type { Finding } from "../analysis/index.js";
import type { CheckpointStore } from "../store/checkpoint-store.js";
import type { LoopId } from "../store/loop-id.js";
import { resolveRev } from "../store/rev.js";
import { findingKey, findingLine, isBlocking } from "./findings.js";
import type { HookSettings } from "./settings.js";
import { FILE_KINDS, MUTATING_KINDS, type Diagnostics, type Session, type ToolCall, type Verdict } from "./types.js";

/** How many checkpoints back {@link restoreTargetFor} looks for the call's pre-tool checkpoint. */
const RESTORE_SEARCH_DEPTH = 64;

/**
 * The checkpoint to restore after a blocked tool call: its pre-tool
 * checkpoint (the newest of the loop's last 64 with `Ralph-Tool-Use-Id:
 * <callId>`), else the first parent of the post-tool checkpoint `postOid`;
 * null when neither exists.
 */
export function restoreTargetFor(store: CheckpointStore, loop: LoopId, callId: string | undefined, postOid: string): string | null {
  const chain = store.log(loop, RESTORE_SEARCH_DEPTH);
  if (callId) {
    for (const c of chain) {
      if (c.kind === "pre-tool" && c.trailers.some((t) => t.key === "Ralph-Tool-Use-Id" && t.value === callId)) return c.oid;
    }
  }
  const post = chain.find((c) => c.oid === postOid);
  return post?.parents[0] ?? null;
}

/**
 * Judges `call` after it ran. A call that changes no file (`read`,
 * `other`) is allowed untouched; otherwise a post-tool checkpoint is
 * written (only the named files are read again for a file tool) and the
 * loop's change since its baseline judged: allow when nothing blocks;
 * `context` when only findings that stood before this call remain (the
 * model is reminded, not blocked); `block` when the call brought new ones,
 * with the restore command (or the restore done, with auto revert) and
 * the recovery message.
 * Throws only for internal problems (a lock held too long, a bug): the adapter fails open.
 */
export async function judgeAfterTool(session: Session, call: ToolCall): Promise<Verdict> {
  const { store, binding, settings } = session;
  const tool = call.tool;
  if (!MUTATING_KINDS.has(call.kind)) return { decision: "allow", why: `${tool || "(no tool)"} changes no file` };
  const request = { loop: binding.loop, kind: "post-tool" as const, tool, toolUseId: call.id, message: `post-tool checkpoint (${tool})` };
  // The fast path: a file tool names the files it wrote, so only those are read again.
  // In a warm process whose watcher saw other changes since the last scan, the whole tree (src/store/warm-scan.ts).
  const named = FILE_KINDS.has(call.kind) && store.repo.env.warmScan?.namedPathsSuffice !== false ? call.files.map((f) => f.path) : [];
  const post = named.length > 0 ? store.checkpointPaths(request, named) : store.checkpoint(request);
  if (!post.changed) return { decision: "allow", checkpoint: post.oid, why: "the tool changed nothing" };
  const baselineOid = store.readLoopRef(binding.loop, "baseline");
  if (!baselineOid || baselineOid === post.oid) return { decision: "allow", checkpoint: post.oid, why: "this checkpoint is the baseline" };
  const from = resolveRev(store, baselineOid, binding.loop);
  if (from.kind !== "commit") return { decision: "allow", checkpoint: post.oid, why: "no baseline commit" };
  const { judgeChange, loopAllowRules } = await import("../loop/check.js");
  const to = { kind: "commit" as const, oid: post.oid, treeOid: post.treeOid, label: post.oid };
  // Ralph-Allow trailers of the user's commits since the baseline apply (judgeChange reads them from the checkpoints' Ralph-Head),
  // and so do the config's allow rules and the loop's human approvals.
  const judgeOptions = { allow: [...settings.allow, ...loopAllowRules(store.repo.workTree, binding.loop)], ...(settings.policy ? { policy: settings.policy } : {}) };
  const judgement = await judgeChange(store, from, to, judgeOptions);
  const blocking = judgement.findings.filter(isBlocking);
  if (blocking.length === 0) return { decision: "allow", checkpoint: post.oid, why: `verdict ${judgement.verdict}` };
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
    return { decision: "context", context: text, checkpoint: post.oid, findings: types, why: "standing findings only" };
  }
  const target = restoreTargetFor(store, binding.loop, call.id, post.oid);
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
    : await recordRegression(store.repo.workTree, binding.loop, settings, { tool, callId: call.id, checkpoint: post.oid, restoreTarget: target, reverted, findings: fresh }, session.diagnostics);
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
  return { decision: "block", reason: lines.join("\n"), checkpoint: post.oid, findings: types, why: `${fresh.length} new blocking finding(s)${reverted ? "; reverted" : ""}` };
}

/** A blocked tool call, as {@link recordRegression} records it. */
export interface BlockedCall {
  tool: string;
  callId: string | undefined;
  /** The post-tool checkpoint that holds the call's change (40 hex). */
  checkpoint: string;
  /** The checkpoint that restores the state before the call, or null. */
  restoreTarget: string | null;
  /** True when ralph restored it already (auto revert). */
  reverted: boolean;
  /** The blocking findings the call brought. */
  findings: Finding[];
}

/**
 * Records a blocked tool call in the loop's state through the recovery
 * protocol (src/loop/recovery.ts): one `regression_events` entry per
 * finding type with its PDARE record, each counting a retry (its details'
 * `source` is `PostToolUse`, the stage's name in the state since before
 * other agents). A change ralph restored (auto revert) is recorded as
 * `recovered` at once; one that stands is `retrying` until the iteration
 * ends (where a critical one that still stands escalates). Past
 * `max_retries` either way, the loop goes to the human gate (`paused`).
 * Best effort, under the state lock (2 s): the block stands without it, and
 * `diagnostics` says why.
 * @returns the recovery message for the agent, or null.
 */
export async function recordRegression(workTree: string, loop: LoopId, settings: HookSettings, event: BlockedCall, diagnostics: Diagnostics): Promise<string | null> {
  try {
    const [{ updateState }, { applyRecovery, markEventsRecovered, regressionsByType }] = await Promise.all([import("../loop/state.js"), import("../loop/recovery.js")]);
    const { result } = updateState(
      workTree,
      loop,
      (state) => {
        const regressions = regressionsByType(event.findings, {
          source: "PostToolUse",
          tool: event.tool,
          tool_use_id: event.callId ?? null,
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
          markEventsRecovered(
            state,
            restored.map((e) => e.event_id),
          );
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
    diagnostics(`ralph: could not record the regression in loop ${loop}'s state: ${(error as Error).message}\n`);
    return null;
  }
}
