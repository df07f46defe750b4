/**
 * The checkpoint store: every working-tree state a commit under
 * `refs/ralph/<loop>/…` (DESIGN.md "Storage").
 *
 * Refs of a loop: `head` (newest checkpoint; tool-call checkpoints live in
 * its first-parent chain), `baseline` (set with the loop's first
 * checkpoint), `best`, `iterations/<NNNN>`. A checkpoint commit's first
 * parent is the loop's previous checkpoint; its message is a subject plus
 * trailers (`Ralph-Loop`, `Ralph-Kind`, `Ralph-Iteration`, `Ralph-Tool`,
 * `Ralph-Head`, `Ralph-Quality`, `Ralph-Verdict`, and ralph's own
 * `Ralph-Tool-Use-Id`, `Ralph-Skipped`, `Ralph-Mode`).
 *
 * Objects are written first and the ref moved last, by compare-and-swap,
 * under ralph's lock for the work tree: a SIGKILL at any moment leaves refs
 * pointing at complete commits. HEAD, branches, the index and the stash are
 * never touched.
 */
import { join } from "node:path";
import { fstatSync, lstatSync, readFileSync, readlinkSync, readSync, type Stats } from "node:fs";
import { fileSystemError, isErrno, RalphError } from "../errors.js";
import { debug } from "../log.js";
import { withLock } from "./lock.js";
import { isLoopId, type LoopId } from "./loop-id.js";
import { encodeCommit, ObjectDatabase, parseCommit, parseTree, type GitObject } from "./odb.js";
import { compareAndSwapRef, listRefs, resolveRef, type RefLocation } from "./refs.js";
import { openRepository, type Repository } from "./repo.js";
import { EMPTY_RUNTIME_ENV, type RuntimeEnv } from "../runtime-env.js";
import { applyRestore, removeRestoreTemps, restoreTempDirOf, type RestoreOutcome } from "./restore.js";
import { commitStatCache, DEFAULT_SIZE_CAP_BYTES, readUserHead, snapshotWorkTree, type Snapshot, type SnapshotOptions } from "./snapshot.js";
import { formatMessage, parseTrailers, subjectOf, trailerValue, trailerValues, type CheckpointKind, type Trailer } from "./trailers.js";
import { diffTrees, flattenTree, type TreeChange } from "./tree-diff.js";
import { fsPath } from "./path-bytes.js";
import { planPathEdits } from "./path-snapshot.js";
import { editTree } from "./tree-edit.js";
import { commitIdentity } from "./git-date.js";

/** The path in a `Ralph-Skipped`-style trailer value (a JSON string first), or null when it is malformed. */
function parseQuotedPath(pattern: RegExp, value: string): string | null {
  const m = pattern.exec(value);
  if (!m) return null;
  try {
    const path = JSON.parse(m[1] as string) as unknown;
    return typeof path === "string" ? path : null;
  } catch {
    return null;
  }
}

/**
 * The paths ignored before a restore that stay ignored after it: all but
 * those the target tree holds (at or below them), which the restore wrote.
 */
function protectedIgnored(odb: ObjectDatabase, ignored: ReadonlySet<string>, targetTree: string): Set<string> {
  if (ignored.size === 0) return new Set();
  const inTarget = new Set<string>();
  for (const path of flattenTree(odb, targetTree).keys()) {
    for (let p = path; ;) {
      if (inTarget.has(p)) break;
      inTarget.add(p);
      const slash = p.lastIndexOf("/");
      if (slash < 0) break;
      p = p.slice(0, slash);
    }
  }
  return new Set([...ignored].filter((p) => !inTarget.has(p)));
}

/** The entry at `path` in a tree (files and symlinks; null when absent or a folder). */
function entryAt(odb: ObjectDatabase, treeOid: string, path: string): { mode: string; oid: string } | null {
  let oid = treeOid;
  const parts = path.split("/");
  for (let i = 0; i < parts.length; i++) {
    const obj = odb.tryRead(oid);
    if (obj === null || obj.type !== "tree") return null;
    const entry = parseTree(obj.content).find((e) => e.name === parts[i]);
    if (!entry) return null;
    if (i === parts.length - 1) return entry.mode === "40000" ? null : entry;
    if (entry.mode !== "40000") return null;
    oid = entry.oid;
  }
  return null;
}

/** How many follow-up checkpoints a restore writes for one file that keeps changing before it gives up on it. */
const MAX_FOLLOW_UPS = 20;

/** The ref namespace of all loops. */
export const REF_PREFIX = "refs/ralph/";

/** Named refs of a loop. */
export type LoopRef = "head" | "baseline" | "best" | `iterations/${string}`;

/** `refs/ralph/<loop>/<which>`; the loop id is validated by its type. */
export function loopRefName(loop: LoopId, which: LoopRef): string {
  return `${REF_PREFIX}${loop}/${which}`;
}

/** The ref of iteration `n` (1-based): `iterations/0001`. */
export function iterationRef(n: number): LoopRef {
  return `iterations/${String(n).padStart(4, "0")}`;
}

/** What to record with a checkpoint. */
export interface CheckpointRequest {
  loop: LoopId;
  kind: CheckpointKind;
  /** Subject line (default: "<kind> checkpoint"). */
  message?: string;
  iteration?: number;
  tool?: string;
  toolUseId?: string;
  /** Quality score 0-100. */
  quality?: number;
  verdict?: "PASS" | "WARN" | "BLOCK";
  /** Further trailers, appended as given. */
  trailers?: Trailer[];
}

/** The outcome of {@link CheckpointStore.checkpoint}. */
export interface CheckpointResult {
  loop: LoopId;
  kind: CheckpointKind;
  /** True when a new commit was written; false when the tree equals the loop's head ("unchanged"). */
  changed: boolean;
  /** The loop's head after the call: the new commit, or the unchanged previous one (null only if the loop is empty and nothing could be stored). */
  oid: string;
  treeOid: string;
  /** Paths over the size cap that were not stored. */
  skipped: { path: string; sizeBytes: number }[];
  stats: Snapshot["stats"];
}

/** What a checkpoint commit is made of: a written tree and what the snapshot left out or noted. */
export type StoredTree = Pick<Snapshot, "treeOid" | "skipped" | "unusualModes" | "stats">;

/** A parsed checkpoint commit. */
export interface Checkpoint {
  oid: string;
  treeOid: string;
  parents: string[];
  /** Committer time, seconds since the epoch. */
  timeSec: number;
  subject: string;
  message: string;
  trailers: Trailer[];
  loop: string | undefined;
  kind: string | undefined;
  iteration: number | undefined;
}

/** One loop of the repository, for `ralph loops`. */
export interface LoopSummary {
  loop: LoopId;
  head: string;
  baseline: string | null;
  best: string | null;
  iterations: number;
  /** Committer time of the head commit, seconds since the epoch. */
  updatedSec: number;
}

/** A resolved revision: a commit and its tree, or the live work tree. */
export type ResolvedRev = { kind: "commit"; oid: string; treeOid: string; label: string } | { kind: "worktree"; label: "WORKTREE" };

/** Options of {@link CheckpointStore.revert}. */
export interface RevertOptions {
  loop: LoopId;
  dryRun?: boolean;
  /** Allow a restore that deletes more than half of the tracked files, or overwrites another loop's work. */
  force?: boolean;
  /** The size cap of the snapshots before and after the restore, in bytes (default {@link DEFAULT_SIZE_CAP_BYTES}), as for checkpoints. */
  sizeCapBytes?: number;
}

/** The outcome of a revert. */
export interface RevertResult extends RestoreOutcome {
  target: { oid: string; label: string };
  /** The pre-revert checkpoint holding the state before the restore (the loop head when nothing had changed); null on a dry run. */
  preRevert: string | null;
  /**
   * The checkpoint of the work tree after the restore (kind manual, trailer
   * `Ralph-Restore: <target oid>`), now the loop's head; the pre-revert
   * checkpoint when the restore changed nothing; null on a dry run.
   */
  restored: string | null;
  dryRun: boolean;
  /** Paths the restore overwrote (or would) that changed since the loop's last checkpoint: their state is in `preRevert`. */
  overwritten: string[];
}

function signature(repo: Repository): { name: string; email: string } {
  return {
    name: repo.config.get("user.name") ?? "ralph",
    email: repo.config.get("user.email") ?? "ralph@localhost",
  };
}

/** The checkpoint store of one repository. Synchronous: a hook process does one thing at a time. */
export class CheckpointStore {
  readonly repo: Repository;
  readonly odb: ObjectDatabase;
  private readonly refs: RefLocation;

  constructor(repo: Repository) {
    this.repo = repo;
    this.odb = new ObjectDatabase(join(repo.commonDir, "objects"), { fsync: repo.env.fsync });
    this.refs = { gitDir: repo.gitDir, commonDir: repo.commonDir, fsync: repo.env.fsync };
  }

  /**
   * Opens the store of the repository containing `cwd` under the run's
   * environment `env` (git's variables, `RALPH_LOOP`, `RALPH_FSYNC`,
   * `RALPH_LOCK_TIMEOUT_MS`; default none set).
   * @throws RalphError E_NOT_A_REPO, E_BARE_REPO
   */
  static open(cwd: string, env: RuntimeEnv = EMPTY_RUNTIME_ENV): CheckpointStore {
    return new CheckpointStore(openRepository(cwd, env));
  }

  /** The oid a loop ref points at, or null. */
  readLoopRef(loop: LoopId, which: LoopRef): string | null {
    return resolveRef(this.refs, loopRefName(loop, which));
  }

  /** Resolves any ref name (e.g. `refs/heads/main`, `HEAD`) to an oid, or null. */
  readRef(name: string): string | null {
    return resolveRef(this.refs, name);
  }

  /** Lists refs below a prefix, name -> oid. */
  listRefs(prefix: string): Map<string, string> {
    return listRefs(this.refs, prefix);
  }

  /** Reads a raw object; throws E_CORRUPT when it is missing. */
  readObject(oid: string): GitObject {
    return this.odb.read(oid);
  }

  /** Parses a checkpoint (or any) commit. @throws RalphError E_UNKNOWN_REV when `oid` is not a commit. */
  readCheckpoint(oid: string): Checkpoint {
    const obj = this.odb.tryRead(oid);
    if (!obj || obj.type !== "commit") {
      throw new RalphError("E_UNKNOWN_REV", `${oid} is not a commit in this repository`, { data: { oid } });
    }
    const commit = parseCommit(obj.content);
    const trailers = parseTrailers(commit.message);
    const iteration = trailerValue(trailers, "Ralph-Iteration");
    return {
      oid,
      treeOid: commit.tree,
      parents: commit.parents,
      timeSec: commit.committer.timestamp,
      subject: subjectOf(commit.message),
      message: commit.message,
      trailers,
      loop: trailerValue(trailers, "Ralph-Loop"),
      kind: trailerValue(trailers, "Ralph-Kind"),
      iteration: iteration === undefined ? undefined : Number(iteration),
    };
  }

  /**
   * The commit a loop's head ref points at.
   * @throws RalphError E_CORRUPT naming the ref and how to recover when the object is missing or not a commit.
   */
  private readHeadCommit(headRef: string, oid: string): Checkpoint {
    const obj = this.odb.tryRead(oid);
    if (obj === null || obj.type !== "commit") {
      throw new RalphError(
        "E_CORRUPT",
        `${headRef} points at ${oid}, which is ${obj === null ? "missing from the repository" : `a ${obj.type}, not a commit`}; restore the object from a clone, or delete the ref with 'git update-ref -d ${headRef}' (the loop's next checkpoint then starts a new chain)`,
        { data: { ref: headRef, oid } },
      );
    }
    return this.readCheckpoint(oid);
  }

  /** Every loop with a head ref, newest first. */
  listLoops(): LoopSummary[] {
    const refs = this.listRefs(REF_PREFIX);
    const byLoop = new Map<string, Map<string, string>>();
    for (const [name, oid] of refs) {
      const rest = name.slice(REF_PREFIX.length);
      const slash = rest.indexOf("/");
      if (slash < 0) continue;
      const loop = rest.slice(0, slash);
      if (!isLoopId(loop)) continue;
      let m = byLoop.get(loop);
      if (!m) byLoop.set(loop, (m = new Map()));
      m.set(rest.slice(slash + 1), oid);
    }
    const out: LoopSummary[] = [];
    for (const [loop, m] of byLoop) {
      const head = m.get("head");
      if (!head) continue;
      let updatedSec: number;
      try {
        updatedSec = this.readCheckpoint(head).timeSec;
      } catch {
        updatedSec = 0;
      }
      out.push({
        loop: loop as LoopId,
        head,
        baseline: m.get("baseline") ?? null,
        best: m.get("best") ?? null,
        iterations: [...m.keys()].filter((k) => k.startsWith("iterations/")).length,
        updatedSec,
      });
    }
    return out.sort((a, b) => b.updatedSec - a.updatedSec || a.loop.localeCompare(b.loop));
  }

  /**
   * Snapshots the work tree into objects without writing a commit (for
   * `--to WORKTREE`). What it learned about unchanged files is kept in the
   * stat cache; the objects it wrote are not (no commit anchors them).
   */
  snapshot(options: SnapshotOptions = {}): Snapshot {
    const snap = snapshotWorkTree(this.repo, this.odb, { ...options, anchored: false });
    commitStatCache(this.repo, snap);
    return snap;
  }

  /** Path of ralph's lock for this work tree. */
  private lockPath(): string {
    return join(this.repo.ralphDir, "locks", "checkpoint.lock");
  }

  /** Runs `fn` holding the checkpoint lock, waiting at most the run's `RALPH_LOCK_TIMEOUT_MS` for another holder. */
  private locked<T>(fn: () => T): T {
    return withLock(this.lockPath(), fn, { timeoutMs: this.repo.env.lockTimeoutMs });
  }

  /**
   * Writes a checkpoint of the work tree to the loop (no commit when the
   * tree equals the loop's head). The first checkpoint of a loop also sets
   * its `baseline`; an `iteration` checkpoint with `iteration` set also sets
   * `iterations/NNNN`.
   * @throws RalphError E_LOCKED, E_UNREADABLE, E_CONFLICT
   */
  checkpoint(request: CheckpointRequest, options: SnapshotOptions = {}): CheckpointResult {
    return this.locked(() => {
      removeRestoreTemps(this.restoreTempDir());
      const snap = snapshotWorkTree(this.repo, this.odb, options);
      return this.checkpointLocked(request, snap, (anchor) => commitStatCache(this.repo, snap, anchor));
    });
  }

  /**
   * Commits `tree` to the loop unless it equals the head's tree; `onStored`
   * runs with the commit that now holds it (to persist the stat cache).
   */
  private checkpointLocked(request: CheckpointRequest, snap: StoredTree, onStored: (anchor: { ref: string; oid: string }) => void): CheckpointResult {
    const headRef = loopRefName(request.loop, "head");
    for (let attempt = 0; attempt < 5; attempt++) {
      const previous = resolveRef(this.refs, headRef);
      if (previous) {
        const prevTree = this.readHeadCommit(headRef, previous).treeOid;
        if (prevTree === snap.treeOid) {
          this.setIterationRef(request, previous);
          onStored({ ref: headRef, oid: previous });
          return { loop: request.loop, kind: request.kind, changed: false, oid: previous, treeOid: snap.treeOid, skipped: snap.skipped, stats: snap.stats };
        }
      }
      const oid = this.writeCommit(request, snap, previous);
      this.odb.syncWritten(); // every object the commit names is on disk before a ref names it
      if (compareAndSwapRef(this.refs, headRef, oid, previous)) {
        if (!previous) compareAndSwapRef(this.refs, loopRefName(request.loop, "baseline"), oid, resolveRef(this.refs, loopRefName(request.loop, "baseline")));
        this.setIterationRef(request, oid);
        onStored({ ref: headRef, oid });
        debug(() => `checkpoint ${oid} on ${headRef} (${request.kind})`);
        return { loop: request.loop, kind: request.kind, changed: true, oid, treeOid: snap.treeOid, skipped: snap.skipped, stats: snap.stats };
      }
      debug(() => `lost the race on ${headRef}, retrying`);
    }
    throw new RalphError("E_CONFLICT", `could not update ${headRef}: another process kept moving it; retry`, { data: { ref: headRef } });
  }

  /**
   * The fast path after a tool that names the files it wrote (Claude Code's
   * Write/Edit): re-reads only `paths` and takes everything else from the
   * loop's head checkpoint, editing its tree along those paths. Cost follows
   * the number of paths, not the repository. Other changes made since the
   * head (by anything else) are picked up by the next full checkpoint.
   * Falls back to a full checkpoint when the loop has no head yet, or a path
   * is now a folder or is not a work tree path (outside it, in `.git` or in
   * ralph's state folder). Paths are relative to the work tree root or
   * absolute; a new file git would ignore is left out, as a full snapshot would.
   * @throws RalphError E_LOCKED, E_UNREADABLE, E_CONFLICT
   */
  checkpointPaths(request: CheckpointRequest, paths: readonly string[], options: SnapshotOptions = {}): CheckpointResult {
    return this.locked(() => {
      removeRestoreTemps(this.restoreTempDir());
      const started = performance.now();
      const head = this.readLoopRef(request.loop, "head");
      const full = (): CheckpointResult => {
        const snap = snapshotWorkTree(this.repo, this.odb, options);
        return this.checkpointLocked(request, snap, (anchor) => commitStatCache(this.repo, snap, anchor));
      };
      if (head === null) return full();
      const parent = this.readCheckpoint(head);
      const plan = planPathEdits(this.repo, this.odb, parent, paths, options.sizeCapBytes ?? DEFAULT_SIZE_CAP_BYTES);
      if (plan === null) return full();
      const treeOid = editTree(this.odb, parent.treeOid, plan.edits);
      const stats = { filesStatted: plan.edits.size, filesHashed: plan.hashed, dirsRead: 0, durationMs: performance.now() - started };
      return this.checkpointLocked(request, { treeOid, skipped: plan.skipped, unusualModes: plan.unusualModes, stats }, () => {
        /* the stat cache stays as it was: its anchor is an ancestor of the new head, so it remains valid */
      });
    });
  }

  private setIterationRef(request: CheckpointRequest, oid: string): void {
    if (request.kind !== "iteration" || request.iteration === undefined) return;
    const name = loopRefName(request.loop, iterationRef(request.iteration));
    compareAndSwapRef(this.refs, name, oid, resolveRef(this.refs, name));
  }

  /**
   * Points a loop ref (`best`, `baseline`, `iterations/NNNN`) at a commit.
   * @throws RalphError E_CONFLICT when the ref moved meanwhile.
   */
  setLoopRef(loop: LoopId, which: LoopRef, oid: string): void {
    this.locked(() => {
      const name = loopRefName(loop, which);
      if (!compareAndSwapRef(this.refs, name, oid, resolveRef(this.refs, name))) {
        throw new RalphError("E_CONFLICT", `could not update ${name}: it moved meanwhile; retry`, { data: { ref: name } });
      }
    });
  }

  private writeCommit(request: CheckpointRequest, snap: StoredTree, parent: string | null): string {
    const userHead = readUserHead(this.repo);
    const trailers: Trailer[] = [
      { key: "Ralph-Loop", value: request.loop },
      { key: "Ralph-Kind", value: request.kind },
    ];
    if (request.iteration !== undefined) trailers.push({ key: "Ralph-Iteration", value: String(request.iteration) });
    if (request.tool !== undefined) trailers.push({ key: "Ralph-Tool", value: request.tool });
    if (request.toolUseId !== undefined) trailers.push({ key: "Ralph-Tool-Use-Id", value: request.toolUseId });
    trailers.push({ key: "Ralph-Head", value: userHead ?? "none" });
    if (request.quality !== undefined) trailers.push({ key: "Ralph-Quality", value: String(request.quality) });
    if (request.verdict !== undefined) trailers.push({ key: "Ralph-Verdict", value: request.verdict });
    for (const s of snap.skipped) trailers.push({ key: "Ralph-Skipped", value: `${JSON.stringify(s.path)} ${s.sizeBytes} bytes over the size cap` });
    for (const m of snap.unusualModes.slice(0, 500)) trailers.push({ key: "Ralph-Mode", value: `${m.perm} ${JSON.stringify(m.path)}` });
    trailers.push(...(request.trailers ?? []));
    const now = new Date();
    const who = signature(this.repo);
    const git = this.repo.env.git;
    const content = encodeCommit({
      tree: snap.treeOid,
      parents: parent ? [parent] : [],
      author: commitIdentity(git.author, who, now, "GIT_AUTHOR_DATE"),
      committer: commitIdentity(git.committer, who, now, "GIT_COMMITTER_DATE"),
      extraHeaders: [],
      message: formatMessage(request.message ?? `${request.kind} checkpoint`, trailers),
    });
    return this.odb.write("commit", content);
  }

  /** The first-parent chain of a loop's head, newest first, at most `limit` entries. */
  log(loop: LoopId, limit = Number.POSITIVE_INFINITY): Checkpoint[] {
    const out: Checkpoint[] = [];
    let oid = this.readLoopRef(loop, "head");
    const seen = new Set<string>();
    while (oid && out.length < limit && !seen.has(oid)) {
      seen.add(oid);
      const c = this.readCheckpoint(oid);
      out.push(c);
      oid = c.parents[0] ?? null;
    }
    return out;
  }

  /** Files changed between two trees (null = empty tree). */
  diff(fromTree: string | null, toTree: string | null): TreeChange[] {
    return diffTrees(this.odb, fromTree, toTree);
  }

  /**
   * Restores the work tree to `target` (already resolved: resolve the
   * target BEFORE calling, so `@head` means the state before this call).
   * Writes a `pre-revert` checkpoint first, so the restore can be undone,
   * and a checkpoint of the restored work tree after (the new head).
   * Paths the target skipped as over the size cap are left as they are; a
   * file that changes while the restore runs is stored in a follow-up
   * `pre-revert` checkpoint before it is overwritten; what was ignored
   * before stays out of the restored checkpoint.
   * @throws RalphError E_RESTORE_REFUSED when more than half of the tracked
   *   files would be deleted, or another loop's work since this loop's last
   *   checkpoint would be overwritten, and `force` is not set;
   *   E_FILESYSTEM when the file system stops the restore part-way (naming
   *   the pre-revert checkpoint); E_UNSAFE_PATH; E_LOCKED.
   */
  revert(target: { oid: string; treeOid: string; label: string }, options: RevertOptions): RevertResult {
    return this.locked(() => {
      const dryRun = options.dryRun ?? false;
      const force = options.force ?? false;
      if (!dryRun) removeRestoreTemps(this.restoreTempDir());
      let preRevert: string | null = null;
      const snap = snapshotWorkTree(this.repo, this.odb, { anchored: !dryRun, collectIgnored: true, sizeCapBytes: options.sizeCapBytes });
      const targetCommit = this.readCheckpoint(target.oid);
      // A path the target skipped (over the size cap) is not known to it: left as it is, never deleted.
      const targetSkipped = new Set<string>();
      for (const value of trailerValues(targetCommit.trailers, "Ralph-Skipped")) {
        const path = parseQuotedPath(/^(".*") \d+ bytes/, value);
        if (path !== null) targetSkipped.add(path);
      }
      const leftAlone: RestoreOutcome["skipped"] = [];
      const changes = this.diff(snap.treeOid, target.treeOid).filter((c) => {
        if (!targetSkipped.has(c.path)) return true;
        leftAlone.push({ path: c.path, reason: "over the size cap when the target was stored: left as it is" });
        return false;
      });
      const trackedPaths = snap.trackedPaths;
      const deletedTracked = changes.filter((c) => c.status === "D" && trackedPaths.has(c.path)).length;
      if (!force && trackedPaths.size > 0 && deletedTracked * 2 > trackedPaths.size) {
        // Refused before anything is written: no pre-revert checkpoint, no moved ref.
        throw new RalphError("E_RESTORE_REFUSED", `restoring ${target.label} would delete ${deletedTracked} of ${trackedPaths.size} tracked files; pass --force if that is what you want`, {
          data: { deleted: deletedTracked, tracked: trackedPaths.size },
        });
      }
      const overwritten = this.editsSinceHead(options.loop, snap, changes, target.label, force);
      if (dryRun) commitStatCache(this.repo, snap);
      else {
        const message = `pre-revert checkpoint (restoring ${target.label})`;
        preRevert = this.checkpointLocked({ loop: options.loop, kind: "pre-revert", message }, snap, (anchor) => commitStatCache(this.repo, snap, anchor)).oid;
      }
      const perms = new Map<string, number>();
      for (const value of trailerValues(targetCommit.trailers, "Ralph-Mode")) {
        const m = /^([0-7]{3,4}) (".*")$/.exec(value);
        if (m) perms.set(JSON.parse(m[2] as string) as string, parseInt(m[1] as string, 8));
      }
      let outcome: RestoreOutcome;
      try {
        outcome = applyRestore(this.repo.workTree, this.odb, changes, {
          perms,
          dryRun,
          tempDir: this.restoreTempDir(),
          ...(dryRun ? {} : concurrentWriteHooks(this.storeConcurrentWrites(options.loop, snap))),
        });
      } catch (error) {
        const fsError = fileSystemError(error);
        if (fsError === null || preRevert === null) throw error;
        throw new RalphError(
          "E_FILESYSTEM",
          `${fsError.message}; the restore stopped part-way, and checkpoint ${preRevert.slice(0, 12)} holds the work tree from before it ('ralph revert ${preRevert.slice(0, 12)} --loop ${options.loop} --force' brings it back)`,
          { data: { ...fsError.data, preRevert }, cause: error },
        );
      }
      outcome.skipped.push(...leftAlone);
      let restored: string | null = null;
      if (!dryRun) {
        // The restored work tree becomes the loop's head, so the head tree is the work tree again (the fast path
        // edits the head's tree along the paths a tool names; a stale head would bring reverted files back).
        // What was ignored before the restore stays out of it, even where the target's ignore rules lack the rule.
        const after = snapshotWorkTree(this.repo, this.odb, {
          anchored: true,
          sizeCapBytes: options.sizeCapBytes,
          keepIgnored: protectedIgnored(this.odb, snap.ignoredPaths, target.treeOid),
        });
        restored = this.checkpointLocked({ loop: options.loop, kind: "manual", message: `restored ${target.label}`, trailers: [{ key: "Ralph-Restore", value: target.oid }] }, after, (anchor) =>
          commitStatCache(this.repo, after, anchor),
        ).oid;
      }
      return { ...outcome, target: { oid: target.oid, label: target.label }, preRevert, restored, dryRun, overwritten };
    });
  }

  /** Where a restore writes its temporaries: under `.git/ralph/`, so a killed restore leaves nothing in the work tree. */
  private restoreTempDir(): string {
    return restoreTempDirOf(this.repo.ralphDir);
  }

  /**
   * The paths a restore would overwrite that changed since the loop's last
   * checkpoint (they survive in the pre-revert checkpoint). Refuses, unless
   * `force`, when one of them holds another loop's work: its current
   * content is what another loop's head checkpoint has there and this
   * loop's head does not. (Edits nobody checkpointed cannot be told apart
   * from this loop's own unsaved ones, which a revert to `@head` exists to
   * undo: they are listed in the result, not refused.)
   * @throws RalphError E_RESTORE_REFUSED listing another loop's paths.
   */
  private editsSinceHead(loop: LoopId, snap: Snapshot, changes: readonly TreeChange[], label: string, force: boolean): string[] {
    const headRef = loopRefName(loop, "head");
    const head = resolveRef(this.refs, headRef);
    if (head === null) return [];
    const headTree = this.readHeadCommit(headRef, head).treeOid;
    if (headTree === snap.treeOid) return [];
    const since = new Set(this.diff(headTree, snap.treeOid).map((c) => c.path));
    const touched = [...new Set(changes.filter((c) => since.has(c.path)).map((c) => c.path))];
    if (touched.length === 0 || force) return touched;
    const others: { loop: LoopId; tree: string }[] = [];
    for (const summary of this.listLoops()) {
      if (summary.loop === loop) continue;
      const obj = this.odb.tryRead(summary.head);
      if (obj?.type === "commit") others.push({ loop: summary.loop, tree: parseCommit(obj.content).tree });
    }
    const foreign: { path: string; loop: LoopId }[] = [];
    for (const path of touched) {
      const current = snap.entries.get(path);
      if (current === undefined) continue;
      const owner = others.find((o) => {
        const theirs = entryAt(this.odb, o.tree, path);
        return theirs !== null && theirs.oid === current.oid && theirs.mode === current.mode;
      });
      if (owner) foreign.push({ path, loop: owner.loop });
    }
    if (foreign.length === 0) return touched;
    const shown =
      foreign
        .slice(0, 5)
        .map((f) => `${JSON.stringify(f.path)} (loop ${f.loop})`)
        .join(", ") + (foreign.length > 5 ? ` and ${foreign.length - 5} more` : "");
    throw new RalphError(
      "E_RESTORE_REFUSED",
      `restoring ${label} would overwrite ${foreign.length} path(s) holding another loop's work since loop ${loop}'s last checkpoint: ${shown}; pass --force if that is what you want`,
      { data: { loop, paths: foreign.map((f) => f.path), loops: [...new Set(foreign.map((f) => f.loop))] } },
    );
  }

  /**
   * The restore's guard against a concurrent writer: `before` gets a file's
   * lstat right before the restore overwrites or removes it; when it differs
   * from what the pre-revert snapshot saw, its current content goes into a
   * follow-up `pre-revert` checkpoint, again until the file holds still, and
   * `before` returns the lstat it settled on. `after` gets a descriptor on the
   * old file once it was replaced: bytes a writer that had it open wrote after
   * that last look reach only the old inode, and go into one more follow-up.
   * @throws RalphError E_RESTORE_REFUSED when the file never holds still
   *   within MAX_FOLLOW_UPS follow-ups (before the overwrite only).
   */
  private storeConcurrentWrites(loop: LoopId, snap: Snapshot): { before: (path: string, st: Stats) => Stats; after: (path: string, fd: number, settled: Stats) => void } {
    let tree = snap.treeOid;
    const same = (a: { mode: number; size: number; mtimeMs: number; ctimeMs: number; ino: number }, b: Stats): boolean =>
      a.mode === b.mode && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
    const store = (path: string, content: Buffer, st: Stats, why: string): void => {
      const mode = st.isSymbolicLink() ? "120000" : st.mode & 0o100 ? "100755" : "100644";
      tree = editTree(this.odb, tree, new Map([[path, { mode, oid: this.odb.write("blob", content) }]]));
      const stats = { filesStatted: 1, filesHashed: 1, dirsRead: 0, durationMs: 0 };
      this.checkpointLocked({ loop, kind: "pre-revert", message: `pre-revert follow-up: ${path} ${why}` }, { treeOid: tree, skipped: snap.skipped, unusualModes: snap.unusualModes, stats }, () => {
        /* the stat cache stays anchored at the pre-revert checkpoint, an ancestor of this one */
      });
    };
    const before = (path: string, first: Stats): Stats => {
      const seen = snap.cache.statOf(path);
      if (seen === undefined || same(seen, first)) return first;
      const abs = fsPath(join(this.repo.workTree, path));
      // Store what is there, then look again: a writer that went on while the follow-up was committed is
      // stored again, until the file holds still (the restore then overwrites it at once).
      let st: Stats = first;
      for (let round = 0; ; round++) {
        if (round === MAX_FOLLOW_UPS) {
          throw new RalphError(
            "E_RESTORE_REFUSED",
            `${path} kept changing while the restore ran (${MAX_FOLLOW_UPS} follow-up checkpoints); the restore stopped part-way: stop the process writing it and run the revert again`,
            { data: { path } },
          );
        }
        let content: Buffer;
        try {
          content = st.isSymbolicLink() ? readlinkSync(abs, { encoding: "buffer" }) : readFileSync(abs);
        } catch (error) {
          if (isErrno(error, "ENOENT", "ENOTDIR")) return st; // gone meanwhile: nothing left to lose
          throw error;
        }
        store(path, content, st, "changed during the restore");
        const now = lstatSync(abs, { throwIfNoEntry: false });
        if (now === undefined || same(st, now)) return st;
        st = now;
      }
    };
    // The old inode's ctime moves when it is unlinked or renamed over, and its inode number is the held one:
    // only its size and mtime say whether someone wrote to it after the last look.
    const wroteTo = (a: Stats, b: Stats): boolean => a.size !== b.size || a.mtimeMs !== b.mtimeMs;
    const after = (path: string, fd: number, settled: Stats): void => {
      let last = settled;
      for (let round = 0; round < MAX_FOLLOW_UPS; round++) {
        const now = fstatSync(fd);
        if (!wroteTo(last, now)) return;
        const content = readAll(fd, now.size);
        store(path, content, now, "was written while the restore replaced it (the bytes the old file held)");
        last = now;
      }
      debug(`revert: ${path}'s old file was still being written after ${MAX_FOLLOW_UPS} follow-ups; stopped following it`);
    };
    return { before, after };
  }
}

/** RestoreOptions' two hooks from {@link CheckpointStore}'s guard against concurrent writers. */
function concurrentWriteHooks(guard: { before: (path: string, st: Stats) => Stats; after: (path: string, fd: number, settled: Stats) => void }): {
  beforeChange: (path: string, st: Stats) => Stats;
  afterChange: (path: string, fd: number, settled: Stats) => void;
} {
  return { beforeChange: guard.before, afterChange: guard.after };
}

/** The whole content of an open file from offset 0, at least `size` bytes when it has them (reads until EOF). */
function readAll(fd: number, size: number): Buffer {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(size - position, 64 * 1024));
    const n = readSync(fd, chunk, 0, chunk.length, position);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    position += n;
  }
  return Buffer.concat(chunks);
}
