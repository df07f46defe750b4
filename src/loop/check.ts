/**
 * Judging a change: the store gives the trees and blobs of two revisions,
 * the analysis gives findings. Used by `ralph check`, `ralph diff`, the
 * demo and (later) the hooks and the loop engine.
 */
import { analyzeChanges, isAnalyzable, type AllowRule, type Analysis, type FileChange, type FindingType, type Severity, type UnchangedFiles } from "../analysis/index.js";
import { decideVerdict, sortFindings } from "../analysis/verdict.js";
import { FINDING_TYPES } from "../analysis/types.js";
import type { LoopId } from "../store/loop-id.js";
import { readState } from "./state.js";
import { debug } from "../log.js";
import type { CheckpointStore, ResolvedRev } from "../store/checkpoint-store.js";
import { parseCommit } from "../store/odb.js";
import { parseTrailers, trailerValues } from "../store/trailers.js";
import type { TreeChange } from "../store/tree-diff.js";
import { treeFiles, type TreeFiles } from "../store/tree-files.js";
import { openFactsCache, type DiskFactsCache } from "./facts-cache.js";

/** The JSON shape of `ralph check --format json` (DESIGN.md), plus the changed files. */
export interface Judgement extends Analysis {
  from: string;
  to: string;
  stats: Analysis["stats"] & { duration_ms: number };
  /** Files changed between the two sides (store view; every path, analysable or not). */
  changes: TreeChange[];
  /** What the user should know about the judgement itself: `Ralph-Allow` trailers that were ignored (a misspelt type). */
  warnings: string[];
}

/**
 * Parses one `Ralph-Allow: <type> [path=<path or glob>] <reason>` trailer
 * value (DESIGN.md: `Ralph-Allow: <type> <reason>`; the optional `path=`
 * narrows the allowance to files matching it, as a config allow rule can).
 * Returns null when the type is unknown.
 */
export function parseAllowTrailer(value: string): AllowRule | null {
  const m = /^(\S+)\s*(?:path=(\S+)\s*)?(.*)$/.exec(value.trim());
  if (!m) return null;
  const type = m[1] as string;
  if (type !== "*" && !FINDING_TYPES.includes(type as FindingType)) return null;
  const rule: AllowRule = { type: type as FindingType | "*", reason: (m[3] as string) || "(no reason given)" };
  if (m[2] !== undefined) rule.path = m[2];
  return rule;
}

/**
 * `Ralph-Allow` rules from the commits being judged: those reachable from
 * `toOid` and not reachable from `fromOid` (nor, when `fromOid` is a
 * checkpoint, from the user's HEAD it recorded in `Ralph-Head`). The walk
 * stops at those boundaries and at commits older than them (committer time,
 * as git's own date-ordered walks do), and after `maxCommits`. A trailer
 * whose type is not a finding type is skipped and described in `ignored`.
 */
export function collectAllowRules(store: CheckpointStore, fromOid: string, toOid: string | null, maxCommits = 500, ignored: string[] = []): AllowRule[] {
  const rules: AllowRule[] = [];
  if (!toOid) return rules;
  const readCommit = (oid: string) => {
    const obj = store.odb.tryRead(oid);
    return obj && obj.type === "commit" ? parseCommit(obj.content) : null;
  };
  const boundary = new Set<string>([fromOid]);
  let boundaryTime = Number.POSITIVE_INFINITY;
  const from = readCommit(fromOid);
  if (from) {
    boundaryTime = from.committer.timestamp;
    const recordedHead = parseTrailers(from.message).find((t) => t.key === "Ralph-Head")?.value;
    const head = recordedHead && /^[0-9a-f]{40}$/.test(recordedHead) ? readCommit(recordedHead) : null;
    if (head && recordedHead) {
      boundary.add(recordedHead);
      boundaryTime = Math.min(boundaryTime, head.committer.timestamp);
    }
  }
  const queue = [toOid];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < maxCommits) {
    const oid = queue.shift() as string;
    if (seen.has(oid) || boundary.has(oid)) continue;
    seen.add(oid);
    const commit = readCommit(oid);
    if (!commit || commit.committer.timestamp < boundaryTime) continue;
    for (const value of trailerValues(parseTrailers(commit.message), "Ralph-Allow")) {
      const rule = parseAllowTrailer(value);
      if (rule) rules.push(rule);
      else {
        const type = value.trim().split(/\s+/)[0] ?? "";
        ignored.push(`Ralph-Allow: ${value.trim()} (commit ${oid.slice(0, 12)}) was ignored: "${type}" is not a finding type; use one of ${FINDING_TYPES.join(", ")} or *`);
      }
    }
    queue.push(...commit.parents);
  }
  return rules;
}

/**
 * Where the commits being judged end for a "to" commit: a checkpoint stands
 * for the work tree on top of the user's HEAD it recorded (`Ralph-Head`), so
 * the walk for `Ralph-Allow` trailers starts there (checkpoints never carry
 * them); any other commit is its own end.
 */
function judgedUserCommit(store: CheckpointStore, oid: string): string | null {
  const obj = store.odb.tryRead(oid);
  if (!obj || obj.type !== "commit") return oid;
  const recorded = parseTrailers(parseCommit(obj.content).message).find((t) => t.key === "Ralph-Head")?.value;
  if (recorded === undefined) return oid;
  return /^[0-9a-f]{40}$/.test(recorded) ? recorded : null;
}

function hasNul(buffer: Buffer): boolean {
  return buffer.subarray(0, 8000).includes(0);
}

/**
 * The files a diff left alone, read from the "from" tree's reader on demand
 * (the analysis asks only when a changed file's test classes may inherit
 * across files): a path the diff touched reads as absent; `read` returns
 * null for submodules, symlinks and binary blobs, as {@link TreeFiles} does.
 * Sharing the reader judgeChange hands to test discovery reads each tree
 * object once for both.
 */
export function unchangedFilesOf(tree: TreeFiles, changes: readonly TreeChange[]): UnchangedFiles {
  const changed = new Set(changes.map((change) => change.path));
  return {
    paths: () => tree.walk("").filter((path) => !changed.has(path)),
    read: (path) => (changed.has(path) ? null : tree.read(path)),
  };
}

/**
 * The files of the user's HEAD commit, less `changedPaths`, read on demand
 * ({@link unchangedFilesOf}): what a judgement of one edit (the PreToolUse
 * hook) reads the unchanged tests from, so special_casing sees the tests
 * that exercise the edited module; their facts come from the facts cache.
 * Undefined when HEAD names no readable commit (an unborn branch).
 */
export function headUnchangedFiles(store: CheckpointStore, changedPaths: readonly string[]): UnchangedFiles | undefined {
  const head = store.readRef("HEAD");
  const object = head ? store.odb.tryRead(head) : null;
  if (!object || object.type !== "commit") return undefined;
  const changed = new Set(changedPaths);
  const tree = treeFiles(store.odb, parseCommit(object.content).tree);
  return {
    paths: () => tree.walk("").filter((path) => !changed.has(path)),
    read: (path) => (changed.has(path) ? null : tree.read(path)),
  };
}

/**
 * The project's detection policy (aiwg.yml `agent_persistence.detection`):
 * which finding types are reported and their severities. `mode: off`
 * reports nothing; the other modes report `patterns` (the reference guide
 * names no difference between minimal, standard and aggressive that a
 * deterministic detector could honour, so they behave alike).
 */
export interface DetectionPolicy {
  mode: "off" | "minimal" | "standard" | "aggressive";
  /** Finding types reported; others are dropped. */
  patterns: readonly FindingType[];
  /** Severity per finding type, over the built-in ones. */
  severity: Partial<Record<FindingType, Severity>>;
}

/** Applies a {@link DetectionPolicy} to an analysis: drops unreported types, overrides severities, re-sorts and re-decides the verdict. Pure. */
export function applyDetectionPolicy(analysis: Analysis, policy: DetectionPolicy): Analysis {
  const reported = policy.mode === "off" ? new Set<string>() : new Set<string>(policy.patterns);
  const findings = sortFindings(analysis.findings.filter((f) => reported.has(f.type)).map((f) => (policy.severity[f.type] ? { ...f, severity: policy.severity[f.type] as Severity } : f)));
  return { ...analysis, findings, verdict: decideVerdict(findings) };
}

/** Allow rules a loop's human approvals added (state `allow_rules`; `ralph approve`); [] when the loop has no readable state. */
export function loopAllowRules(workTree: string, loop: LoopId): AllowRule[] {
  try {
    return (readState(workTree, loop)?.allow_rules ?? []) as AllowRule[];
  } catch {
    return [];
  }
}

/** Options of {@link judgeChange}. */
export interface JudgeOptions {
  /** A progress line for the snapshot and the judging (src/cli/progress.ts); default none (hooks). */
  progress?: { tick(label: string, done: number, total?: number): void; done(): void };
  /** Allow rules beyond the `Ralph-Allow` trailers of the judged commits (config, human approvals). */
  allow?: AllowRule[];
  /** The project's detection policy; default: every type at its built-in severity. */
  policy?: DetectionPolicy;
  /** The facts cache; default: the repository's `.git/ralph/facts/`; null turns caching off. */
  factsCache?: DiskFactsCache | null;
}

/**
 * Compares two revisions (the `to` side may be the live work tree) and
 * returns findings, verdict and stats. Which files hold tests follows each
 * tree's test-runner configs (analysis/discovery.ts). Facts of files seen
 * before come from the facts cache (src/loop/facts-cache.ts); new ones are
 * added to it.
 * @throws RalphError from the store (E_CORRUPT, E_UNREADABLE…).
 */
export async function judgeChange(store: CheckpointStore, from: Extract<ResolvedRev, { kind: "commit" }>, to: ResolvedRev, options: JudgeOptions = {}): Promise<Judgement> {
  const started = performance.now();
  const progress = options.progress;
  const toTree = to.kind === "worktree" ? store.snapshot(progress ? { onProgress: (seen) => progress.tick("reading the work tree: files", seen) } : {}).treeOid : to.treeOid;
  const snapshotted = performance.now();
  const changes = store.diff(from.treeOid, toTree);
  const diffed = performance.now();
  const fileChanges: FileChange[] = [];
  const binary: { path: string; reason: string }[] = [];
  for (const c of changes) {
    if (!isAnalyzable(c.path)) continue;
    const read = (oid: string | null, mode: string | null): string | null => {
      if (!oid || mode === "160000" || mode === "120000") return null;
      const content = store.odb.read(oid).content;
      if (hasNul(content)) {
        binary.push({ path: c.path, reason: "binary content" });
        return null;
      }
      return content.toString("utf8");
    };
    const before = read(c.oldOid, c.oldMode);
    const after = read(c.newOid, c.newMode);
    if (before === null && after === null) continue;
    fileChanges.push({ path: c.path, before, after });
  }
  const read = performance.now();
  const headForAllow = to.kind === "worktree" ? store.readRef("HEAD") : judgedUserCommit(store, to.oid);
  const warnings: string[] = [];
  const allow = [...(options.allow ?? []), ...collectAllowRules(store, from.oid, headForAllow, 500, warnings)];
  const factsCache = options.factsCache === undefined ? openFactsCache(store.repo.ralphDir) : options.factsCache;
  // Both trees, so test discovery follows the runners' configs on each side.
  const trees = { before: treeFiles(store.odb, from.treeOid), after: treeFiles(store.odb, toTree) };
  const unchanged = unchangedFilesOf(trees.before, changes);
  const onFile = progress ? { onFile: (done: number, total: number) => progress.tick("judging changed files", done, total) } : {};
  let raw: Awaited<ReturnType<typeof analyzeChanges>>;
  try {
    raw = await analyzeChanges(fileChanges, factsCache ? { allow, facts: factsCache, unchanged, trees, ...onFile } : { allow, unchanged, trees, ...onFile });
  } finally {
    progress?.done();
  }
  const analysis = options.policy ? applyDetectionPolicy(raw, options.policy) : raw;
  factsCache?.flush();
  const analysed = performance.now();
  debug(
    () =>
      `judge: ${changes.length} changes, ${fileChanges.length} files read; snapshot ${(snapshotted - started).toFixed(1)} ms, diff ${(diffed - snapshotted).toFixed(1)}, ` +
      `read ${(read - diffed).toFixed(1)}, allow rules + analysis ${(analysed - read).toFixed(1)}` +
      (factsCache ? ` (facts cache: ${factsCache.stats.hits} hits, ${factsCache.stats.misses} misses)` : ""),
  );
  return {
    ...analysis,
    stats: { ...analysis.stats, files_changed: changes.length, duration_ms: Math.round(performance.now() - started) },
    not_analyzed: [...analysis.not_analyzed, ...binary],
    from: from.oid,
    to: to.kind === "worktree" ? "WORKTREE" : to.oid,
    changes,
    warnings,
  };
}
