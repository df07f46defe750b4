/**
 * The working tree as a git tree: tracked files (from `.git/index`) plus
 * untracked files git would not ignore, exactly the set
 * `git status --porcelain -uall` reports, with modes 100644/100755,
 * symlinks as 120000 (never followed), submodules and nested repositories
 * as 160000 gitlinks (never entered), ralph's state folder `.aiwg/ralph/`
 * excluded and files over a size cap skipped and reported.
 *
 * Cost grows with the change, not the repository: the stat cache
 * (stat-cache.ts) answers for unchanged files and unchanged folders, git's
 * index seeds it on a cold start, and only tree objects that do not exist
 * yet are written. Nothing here touches HEAD, branches, the index or any
 * lock of git's: it reads `.git/index` and writes objects only.
 */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync, type Dirent, type Stats } from "node:fs";
import { join } from "node:path";
import { RalphError, isErrno } from "../errors.js";
import { debug, warn } from "../log.js";
import { isTrue } from "./git-config.js";
import { readGitIndex, type IndexEntry } from "./git-index.js";
import { globalLayers, isIgnoreCase, isIgnored, makeLayer, readPatternFile, type IgnoreLayer } from "./ignore-rules.js";
import { encodeTree, ObjectDatabase, parseCommit, type TreeEntry } from "./odb.js";
import { decodePath, fsPath } from "./path-bytes.js";
import { readRawRef, resolveRef } from "./refs.js";
import { nestedRepositoryHead, type Repository } from "./repo.js";
import { pendingRestoreTemps, restoreTempDirOf } from "./restore.js";
import {
  loadStatCache,
  StatCache,
  RACY_WINDOW_MS,
  saveStatCache,
  StatCacheBuilder,
  type CachedChild,
  type CachedDir,
  PathFlag,
  type GitFileMode,
} from "./stat-cache.js";

/** Default size cap: files larger than this are skipped (not stored), in bytes (50 MiB). */
export const DEFAULT_SIZE_CAP_BYTES = 50 * 1024 * 1024;

/** ralph's state folder, relative to the work tree root; never part of a snapshot. */
export const STATE_DIR = ".aiwg/ralph";

/** One path of a snapshot: git mode ("100644" | "100755" | "120000" | "160000") and object id. */
export interface SnapshotEntry {
  mode: string;
  oid: string;
}

/** Options of {@link snapshotWorkTree}. */
export interface SnapshotOptions {
  /** Files larger than this many bytes that would have to be read are skipped (default {@link DEFAULT_SIZE_CAP_BYTES}). */
  sizeCapBytes?: number;
  /**
   * Whether a commit will reference this snapshot (default true). When
   * false (a `--to WORKTREE` comparison), blobs and trees hashed now are
   * left out of the stat cache, since nothing keeps `git gc` from pruning
   * them; everything already anchored is still cached.
   */
  anchored?: boolean;
  /** Collect the ignored paths the walk met into {@link Snapshot.ignoredPaths} (default false). */
  collectIgnored?: boolean;
  /**
   * Paths to treat as ignored even where the ignore rules no longer say so
   * (what was ignored before a restore stays out of the checkpoint of its
   * result, though the restored `.gitignore` may lack the rule).
   */
  keepIgnored?: ReadonlySet<string>;
  /**
   * Called after each file is looked at, with the files looked at and the
   * files read and hashed so far (for a progress line: src/cli/progress.ts).
   * Must be cheap and must not throw; the walk is synchronous.
   */
  onProgress?: (filesSeen: number, filesHashed: number) => void;
}

/** What {@link snapshotWorkTree} found and wrote. */
export interface Snapshot {
  /** The root tree oid (written to the object database with every subtree and blob). */
  treeOid: string;
  /** Every path in the tree, '/'-separated, with its mode and oid. */
  entries: Map<string, SnapshotEntry>;
  /** Paths tracked by git's index that are present in the snapshot. */
  trackedPaths: Set<string>;
  /**
   * With `collectIgnored`: every ignored path the walk met, the outermost
   * one of an ignored folder (its contents are not listed); else empty.
   */
  ignoredPaths: Set<string>;
  /** Files skipped because they exceed the size cap. */
  skipped: { path: string; sizeBytes: number }[];
  /** Files whose permission bits are not what git would recreate (e.g. 0600), as octal text. */
  unusualModes: { path: string; perm: string }[];
  /** Counters for diagnostics and benchmarks. */
  stats: { filesStatted: number; filesHashed: number; dirsRead: number; durationMs: number };
  /** The updated stat cache; persist it with {@link commitStatCache} only once a commit references this tree. */
  cache: StatCacheBuilder;
  /** False when nothing was learned since the last persisted cache (no file hashed, no folder read, same tree): saving can be skipped. */
  cacheDirty: boolean;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

function gitModeOf(st: Stats): GitFileMode | null {
  const type = st.mode & S_IFMT;
  if (type === S_IFLNK) return "120000";
  if (type === S_IFREG) return st.mode & 0o100 ? "100755" : "100644";
  return null;
}

/** The path of the stat cache of a repository. */
export function statCachePath(repo: Repository): string {
  return join(repo.ralphDir, "stat-cache");
}

/**
 * Persists the cache of a snapshot. `anchor` is the checkpoint commit that
 * now references the snapshot's tree (and the ref it was written to); omit it
 * for a snapshot no commit references (its new objects were left out of the
 * cache, and the previous anchor still covers the rest).
 */
export function commitStatCache(repo: Repository, snapshot: Snapshot, anchor?: { ref: string; oid: string }): void {
  if (anchor !== undefined && (anchor.ref !== snapshot.cache.anchor.ref || anchor.oid !== snapshot.cache.anchor.oid)) {
    snapshot.cache.anchor = anchor;
    snapshot.cacheDirty = true;
  }
  if (!snapshot.cacheDirty) return;
  try {
    saveStatCache(statCachePath(repo), snapshot.cache);
  } catch (error) {
    // A cache is an optimisation: failing to save it must not fail the checkpoint.
    debug(() => `could not save stat cache: ${(error as Error).message}`);
  }
}

/** How many first parents back from its ref an anchor may be and still count as reachable. */
const ANCHOR_SEARCH_DEPTH = 200;

/**
 * The cache as far as it can be trusted: when its anchor commit is no longer
 * reachable from the ref it was written to (the loop was deleted, the ref
 * rewritten), `git gc` may have pruned the objects it names, so only the
 * folder listings are kept and every file is looked at afresh.
 */
function trustedCache(repo: Repository, odb: ObjectDatabase, cache: StatCache): StatCache {
  const { ref, oid } = cache.anchor;
  if (oid === "") return cache;
  let current: string | null;
  try {
    current = resolveRef({ gitDir: repo.gitDir, commonDir: repo.commonDir }, ref);
    for (let depth = 0; current !== null && current !== oid && depth < ANCHOR_SEARCH_DEPTH; depth++) {
      const obj = odb.tryRead(current);
      current = obj && obj.type === "commit" ? (parseCommit(obj.content).parents[0] ?? null) : null;
    }
  } catch {
    current = null;
  }
  if (current === oid) return cache;
  debug(() => `stat cache anchor ${oid.slice(0, 12)} is no longer on ${ref}: re-reading files`);
  const dropped = cache.withoutObjects();
  dropped.anchor = { ref: "", oid: "" };
  return dropped;
}


/** Whether index oids can stand for worktree bytes: not when git converts content (autocrlf, attributes filters/eol). */
function canSeedFromIndex(repo: Repository, tracked: ReadonlyMap<string, unknown>): boolean {
  const autocrlf = repo.config.get("core.autocrlf");
  if (autocrlf !== undefined && (isTrue(autocrlf) || autocrlf.toLowerCase() === "input")) return false;
  const converting = /\b(filter|eol|text|crlf|ident|working-tree-encoding)\b/;
  const attributeFiles = [join(repo.commonDir, "info", "attributes")];
  const configured = repo.config.get("core.attributesfile");
  if (configured) attributeFiles.push(configured);
  for (const path of tracked.keys()) if (path === ".gitattributes" || path.endsWith("/.gitattributes")) attributeFiles.push(join(repo.workTree, path));
  for (const file of attributeFiles) {
    const text = readPatternFile(file);
    if (text !== null && converting.test(text)) return false;
  }
  return true;
}

/** A path git tracks: its index mode and oid, and the full index entry when the index was read this time. */
interface TrackedPath {
  mode: number;
  oid: string;
  skipWorktree: boolean;
  /** The index entry (stat data for seeding); undefined when the tracked set came from the stat cache. */
  index: IndexEntry | undefined;
  /** For a gitlink from the stat cache: whether `oid` is the last recorded one rather than the index's ({@link PathFlag.gitlinkMoved}). */
  moved?: boolean;
}

/** An ignore layer whose pattern file is read only when a path must actually be classified. */
interface LazyLayer {
  base: string;
  file: string;
  layer: IgnoreLayer | null | undefined;
}

function resolveLayers(lazy: readonly LazyLayer[], globals: readonly IgnoreLayer[], ignoreCase: boolean): IgnoreLayer[] {
  const out: IgnoreLayer[] = [];
  for (let i = lazy.length - 1; i >= 0; i--) {
    const l = lazy[i] as LazyLayer;
    if (l.layer === undefined) {
      const text = readPatternFile(l.file);
      l.layer = text === null || text.trim() === "" ? null : makeLayer(l.base, text, ignoreCase);
    }
    if (l.layer) out.push(l.layer);
  }
  return out.concat(globals);
}

/**
 * lstat of a work tree path; undefined when it is gone (or a parent became a
 * file) mid-snapshot. A folder on the way that cannot be searched is E_UNREADABLE.
 */
function lstatPath(root: string, path: string): Stats | undefined {
  try {
    return lstatSync(fsPath(root + "/" + path), { throwIfNoEntry: false });
  } catch (error) {
    if (isErrno(error, "ENOTDIR", "ENOENT")) return undefined;
    if (isErrno(error, "EACCES", "EPERM")) throw unreadableFolder(path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "", error);
    throw error;
  }
}

/** The error for a file that exists but cannot be read: user-fixable (git add fails on it too). */
export function unreadableFile(path: string, cause: unknown): RalphError {
  return new RalphError("E_UNREADABLE", `cannot read ${path}: permission denied; fix its permissions or add it to .gitignore`, {
    data: { path },
    cause,
  });
}

/** The error for a folder git could not list either: user-fixable. */
function unreadableFolder(rel: string, cause: unknown): RalphError {
  const shown = rel === "" ? "the work tree root" : `${rel}/`;
  return new RalphError("E_UNREADABLE", `cannot read folder ${shown}: permission denied; fix its permissions or add it to .gitignore`, {
    data: { path: rel },
    cause,
  });
}

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/**
 * Snapshots the work tree of `repo` into `odb` and returns its tree.
 * @throws RalphError E_UNREADABLE when a file exists but cannot be read
 *   (permissions); E_CORRUPT when `.git/index` is malformed.
 */
export function snapshotWorkTree(repo: Repository, odb: ObjectDatabase, options: SnapshotOptions = {}): Snapshot {
  try {
    return snapshotOnce(repo, odb, options, true);
  } catch (error) {
    if (!(error instanceof MissingCachedObject)) throw error;
    // A cache named an object the repository does not have (pruned, or a cache written wrong): never
    // commit a tree that names it. Look at every file afresh, trusting neither the stat cache nor the index.
    warn(`the stat cache names object ${error.oid.slice(0, 12)}, which is missing: snapshotting without caches`);
    return snapshotOnce(repo, odb, options, false);
  }
}

/** Thrown inside a snapshot when a tree would name an oid taken from a cache that the object database lacks. */
class MissingCachedObject extends Error {
  constructor(readonly oid: string) {
    super(`object ${oid} from the stat cache is missing`);
  }
}

function snapshotOnce(repo: Repository, odb: ObjectDatabase, options: SnapshotOptions, trustCaches: boolean): Snapshot {
  const started = performance.now();
  const scanStartMs = Date.now();
  const sizeCap = options.sizeCapBytes ?? DEFAULT_SIZE_CAP_BYTES;
  const root = repo.workTree;
  const old = trustCaches ? trustedCache(repo, odb, loadStatCache(statCachePath(repo))) : StatCache.empty();
  const cache = new StatCacheBuilder(scanStartMs);
  cache.anchor = old.anchor;
  const entries = new Map<string, SnapshotEntry>();
  const trackedPaths = new Set<string>();
  const skipped: Snapshot["skipped"] = [];
  const unusualModes: Snapshot["unusualModes"] = [];
  const stats = { filesStatted: 0, filesHashed: 0, dirsRead: 0, durationMs: 0 };
  const progress = options.onProgress;
  const umask = process.umask();
  const plainPerm = 0o666 & ~umask;
  const execPerm = 0o777 & ~umask;

  // Tracked paths: from git's index (stage 0, or the first stage of a conflict), or, while the
  // index file is unchanged since the last scan (and was not racy then), from the stat cache.
  const indexPath = join(repo.gitDir, "index");
  const indexStat = lstatSync(indexPath, { throwIfNoEntry: false });
  const indexMtimeMs = indexStat?.mtimeMs ?? 0;
  const indexKey = indexStat ? `${indexStat.size}:${indexStat.mtimeMs}:${indexStat.ctimeMs}:${indexStat.ino}` : "none";
  cache.indexKey = indexKey;
  const sameIndex = old.indexKey === indexKey && indexMtimeMs < old.scanStartMs - RACY_WINDOW_MS;
  const tracked = new Map<string, TrackedPath>();
  if (sameIndex) {
    for (let slot = 0; slot < old.size; slot++) {
      const flags = old.flagsAt(slot);
      if (!(flags & PathFlag.tracked)) continue;
      const mode = flags & PathFlag.gitlink ? 0o160000 : parseInt(old.gitModeAt(slot), 8);
      tracked.set(old.pathAt(slot), { mode, oid: old.oidAt(slot), skipWorktree: (flags & PathFlag.skipWorktree) !== 0, index: undefined, moved: (flags & PathFlag.gitlinkMoved) !== 0 });
    }
  } else {
    for (const e of readGitIndex(indexPath).entries) {
      if (tracked.has(e.path) || e.mode === 0o40000) continue; // later conflict stages; sparse-index folders (left out)
      tracked.set(e.path, { mode: e.mode, oid: e.oid, skipWorktree: e.skipWorktree, index: e });
    }
  }
  // The index's commit of a gitlink whose recorded oid is another (read from the index at most once per scan).
  let indexGitlinks: Map<string, string> | null = null;
  const indexOidOf = (path: string, t: TrackedPath): string => {
    if (t.moved !== true) return t.oid;
    indexGitlinks ??= new Map(readGitIndex(indexPath).entries.filter((e) => e.mode === 0o160000).map((e) => [e.path, e.oid]));
    return indexGitlinks.get(path) ?? t.oid;
  };
  // Only needed (and only read) when the index was parsed: its stat data is what seeds unknown files.
  const seedFromIndex = trustCaches && !sameIndex && canSeedFromIndex(repo, tracked);

  const isExcludedPath = (path: string): boolean =>
    path.includes(".git") || path.startsWith(STATE_DIR)
      ? path === STATE_DIR || path.startsWith(`${STATE_DIR}/`) || path === ".git" || path.startsWith(".git/") || path.includes("/.git/") || path.endsWith("/.git")
      : false;

  const anchored = options.anchored ?? true;
  /** Blobs hashed by this scan: they exist. Any other oid a new tree names came from a cache and is checked. */
  const hashedNow = new Set<string>();
  const verify = (oid: string): void => {
    if (!hashedNow.has(oid) && !odb.has(oid)) throw new MissingCachedObject(oid);
  };
  const collectIgnored = options.collectIgnored ?? false;
  const keepIgnored = options.keepIgnored;
  // Temporaries a killed restore left beside files on another file system: never stored (the next locked call removes them).
  const restoreTemps = pendingRestoreTemps(restoreTempDirOf(repo.ralphDir), root);
  const ignoredPaths = new Set<string>();
  let learned = 0;
  let reusedFromCache = false;
  // Folders whose tree must be re-encoded: ancestors of any path added, changed or removed since the cache.
  const dirty = new Set<string>();
  const seenOld = new Uint8Array(old.size);
  const markDirty = (path: string): void => {
    for (let p = path; ; ) {
      const slash = p.lastIndexOf("/");
      p = slash < 0 ? "" : p.slice(0, slash);
      if (dirty.has(p)) return;
      dirty.add(p);
      if (p === "") return;
    }
  };
  /** Notes a tracked path that is not in the snapshot, so the next scan knows it is tracked without reading the index. */
  const recordAbsent = (path: string): void => {
    const slot = old.find(path);
    if (slot >= 0) {
      seenOld[slot] = 1;
      if (!(old.flagsAt(slot) & PathFlag.absent)) markDirty(path);
    }
    const t = tracked.get(path);
    // An absent gitlink stays one (with its index commit unknown to the cache: marked moved).
    const gitlink = t !== undefined && t.mode === 0o160000 ? PathFlag.gitlink | PathFlag.gitlinkMoved : 0;
    cache.add(path, "100644", "", PathFlag.tracked | PathFlag.absent | gitlink, 0, 0, 0, 0, 0);
  };
  /** Records an entry (in the snapshot and the new cache) and marks its folders dirty when it differs from the cached one. */
  const record = (path: string, gitMode: GitFileMode, oid: string, st: Stats | null, slot = old.find(path), isNewObject = false): void => {
    entries.set(path, { mode: gitMode, oid });
    const t = tracked.get(path);
    let flags = t === undefined ? 0 : PathFlag.tracked | (t.skipWorktree ? PathFlag.skipWorktree : 0) | (t.mode === 0o160000 ? PathFlag.gitlink : 0);
    if (t !== undefined && t.mode === 0o160000 && (gitMode !== "160000" || oid !== indexOidOf(path, t))) flags |= PathFlag.gitlinkMoved;
    if (slot >= 0) seenOld[slot] = 1;
    if (slot < 0 || old.oidAt(slot) !== oid || old.gitModeAt(slot) !== gitMode || old.flagsAt(slot) & PathFlag.absent) markDirty(path);
    if (isNewObject && !anchored) {
      // No commit anchors this blob, so its oid is not kept; the path (and whether git tracks it) is.
      cache.add(path, gitMode, "", flags, 0, 0, 0, 0, 0);
      return;
    }
    const known = st === null ? slot >= 0 && old.oidAt(slot) === oid && old.gitModeAt(slot) === gitMode : slot >= 0 && reusedFromCache;
    if (!known) learned++;
    if (st) cache.add(path, gitMode, oid, flags, st.mode, st.size, st.mtimeMs, st.ctimeMs, st.ino);
    else cache.add(path, gitMode, oid, flags, 0, 0, 0, 0, 0);
  };

  /** Hashes (or recalls) one regular file or symlink; returns false when it vanished or was skipped. */
  const addFile = (path: string, st: Stats, indexEntry: IndexEntry | undefined): boolean => {
    const gitMode = gitModeOf(st);
    if (gitMode === null) return false; // fifo, socket, device: git ignores them too
    // Over the cap whatever knows its oid (the stat cache, git's index after `git add`): the cap is the same for every source.
    if (st.size > sizeCap) {
      skipped.push({ path, sizeBytes: st.size });
      return false;
    }
    const slot = old.find(path);
    let oid: string;
    let isNewObject = false;
    reusedFromCache = false;
    if (slot >= 0 && old.gitModeAt(slot) === gitMode && old.isFresh(slot, st.mode, st.size, st.mtimeMs, st.ctimeMs, st.ino)) {
      oid = old.oidAt(slot);
      reusedFromCache = true;
    } else if (
      indexEntry !== undefined &&
      seedFromIndex &&
      indexEntry.mode === (gitMode === "100644" ? 0o100644 : gitMode === "100755" ? 0o100755 : 0o120000) &&
      indexEntry.mtimeSec * 1000 + indexEntry.mtimeNsec / 1e6 === st.mtimeMs &&
      indexEntry.ctimeSec * 1000 + indexEntry.ctimeNsec / 1e6 === st.ctimeMs &&
      indexEntry.size === st.size % 2 ** 32 &&
      indexEntry.ino === st.ino % 2 ** 32 &&
      st.mtimeMs < indexMtimeMs
    ) {
      oid = indexEntry.oid;
    } else {
      let content: Buffer;
      try {
        const abs = fsPath(root + "/" + path);
        content = gitMode === "120000" ? readlinkSync(abs, { encoding: "buffer" }) : readFileSync(abs);
      } catch (error) {
        if (isErrno(error, "ENOENT", "ENOTDIR")) return false; // vanished mid-snapshot
        if (isErrno(error, "EACCES", "EPERM")) throw unreadableFile(path, error);
        throw error;
      }
      oid = odb.write("blob", content);
      hashedNow.add(oid);
      stats.filesHashed++;
      isNewObject = true;
    }
    record(path, gitMode, oid, st, slot, isNewObject);
    if (gitMode !== "120000" && (st.mode & 0o777) !== (gitMode === "100755" ? execPerm : plainPerm)) {
      unusualModes.push({ path, perm: (st.mode & 0o777).toString(8).padStart(4, "0") });
    }
    return true;
  };

  // A path whose folder (or a folder above) is a symlink or a file is not in the work tree, as git sees it
  // (dir.c has_symlink_leading_path): lstat alone would follow the symlink and read from wherever it points.
  const realFolders = new Map<string, boolean>([["", true]]);
  const isRealFolder = (dir: string): boolean => {
    let known = realFolders.get(dir);
    if (known !== undefined) return known;
    const slash = dir.lastIndexOf("/");
    known = isRealFolder(slash < 0 ? "" : dir.slice(0, slash)) && ((lstatPath(root, dir)?.mode ?? 0) & S_IFMT) === S_IFDIR;
    realFolders.set(dir, known);
    return known;
  };
  const isBeyondSymlink = (path: string): boolean => {
    const slash = path.lastIndexOf("/");
    return slash >= 0 && !isRealFolder(path.slice(0, slash));
  };

  // Phase A: every tracked path.
  for (const [path, e] of tracked) {
    if (isExcludedPath(path)) {
      recordAbsent(path);
      continue;
    }
    if (e.skipWorktree) {
      // Sparse checkout: absent from disk by design; keep git's view.
      record(path, e.mode.toString(8) as GitFileMode, e.oid, null);
      trackedPaths.add(path);
      continue;
    }
    if (e.mode === 0o160000) {
      // A submodule: its folder's HEAD (the index's commit while it is not checked out); gone when the folder
      // is, and what is there instead when a symlink or file replaced the folder (as git add -A sees it).
      const st = isBeyondSymlink(path) ? undefined : lstatPath(root, path);
      if (st && (st.mode & S_IFMT) === S_IFDIR) {
        record(path, "160000", nestedRepositoryHead(join(root, path)) ?? indexOidOf(path, e), null);
        trackedPaths.add(path);
      } else if (st && addFile(path, st, undefined)) trackedPaths.add(path);
      else recordAbsent(path);
      continue;
    }
    const st = isBeyondSymlink(path) ? undefined : lstatPath(root, path);
    stats.filesStatted++;
    if (st && (st.mode & S_IFMT) !== S_IFDIR && addFile(path, st, e.index)) trackedPaths.add(path);
    else recordAbsent(path); // deleted, replaced by a folder (the walk sees it), vanished or over the size cap
    progress?.(stats.filesStatted, stats.filesHashed);
  }

  // Phase B: untracked files, walking folders that are not ignored.
  const globals = globalLayers(repo.commonDir, repo.config, repo.env.git);
  const ignoreCase = isIgnoreCase(repo.config);
  const globalKey = sha1(
    `ignorecase=${ignoreCase}|` +
    globals.files
      .map((f) => {
        const st = lstatSync(f, { throwIfNoEntry: false });
        return st ? `${f}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : `${f}:-`;
      })
      .join("|"),
  );

  const listDir = (rel: string, st: Stats, rulesKey: string): { dir: CachedDir | null; fresh: boolean } => {
    const prev = old.dirs.get(rel);
    const fresh =
      prev !== undefined &&
      prev.mtimeMs === st.mtimeMs &&
      prev.ctimeMs === st.ctimeMs &&
      prev.ino === st.ino &&
      st.mtimeMs < old.scanStartMs - RACY_WINDOW_MS &&
      st.ctimeMs < old.scanStartMs - RACY_WINDOW_MS;
    if (fresh) return { dir: { ...prev, rulesKey }, fresh: prev.rulesKey === rulesKey };
    stats.dirsRead++;
    const children: CachedChild[] = [];
    let isRepo = false;
    let listing: Dirent<Buffer>[];
    try {
      listing = readdirSync(rel === "" ? root : fsPath(join(root, rel)), { withFileTypes: true, encoding: "buffer" });
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) return { dir: null, fresh: false }; // deleted mid-snapshot
      if (isErrno(error, "EACCES", "EPERM")) throw unreadableFolder(rel, error);
      throw error;
    }
    for (const d of listing) {
      const name = decodePath(d.name);
      if (name === ".git") {
        isRepo = true;
        continue;
      }
      const kind = d.isDirectory() ? "d" : d.isFile() ? "f" : d.isSymbolicLink() ? "l" : "o";
      children.push({ name, kind, ignored: false, tracked: false });
    }
    return { dir: { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, rulesKey, isRepo, children }, fresh: false };
  };

  const walk = (rel: string, st: Stats, lazy: LazyLayer[], parentKey: string): void => {
    // The rules key of this folder: its parent's plus its own .gitignore's stat.
    const ignoreFile = rel === "" ? join(root, ".gitignore") : join(root, rel, ".gitignore");
    let ist: Stats | undefined;
    try {
      ist = lstatSync(fsPath(ignoreFile), { throwIfNoEntry: false });
    } catch (error) {
      if (isErrno(error, "ENOTDIR")) return; // the folder became a file mid-snapshot
      if (isErrno(error, "EACCES", "EPERM")) throw unreadableFolder(rel, error);
      throw error;
    }
    const rulesKey = ist ? sha1(`${parentKey}|${ist.size}:${ist.mtimeMs}:${ist.ctimeMs}:${ist.ino}`) : parentKey;
    const { dir, fresh } = listDir(rel, st, rulesKey);
    if (dir === null) return; // deleted mid-snapshot: nothing of it is stored
    cache.dirs.set(rel, dir);
    if (rel !== "" && dir.isRepo) {
      // A nested repository is recorded as a gitlink to its HEAD and never entered.
      const head = nestedRepositoryHead(join(root, rel));
      if (head) record(rel, "160000", head, null);
      return;
    }
    const layers = ist ? [...lazy, { base: rel, file: ignoreFile, layer: undefined } as LazyLayer] : lazy;
    let resolved: IgnoreLayer[] | null = null;
    const trustTracked = fresh && sameIndex;
    for (const child of dir.children) {
      // Fast path: an unchanged folder, same rules, same index: a tracked or ignored file needs nothing here.
      if (trustTracked && child.kind !== "d" && (child.tracked || child.ignored)) {
        if (collectIgnored && child.ignored) ignoredPaths.add(rel === "" ? child.name : `${rel}/${child.name}`);
        continue;
      }
      if (child.kind === "o") continue;
      const path = rel === "" ? child.name : `${rel}/${child.name}`;
      if (path === STATE_DIR || (restoreTemps.size > 0 && restoreTemps.has(path))) continue;
      if (!fresh) {
        resolved ??= resolveLayers(layers, globals.layers, ignoreCase);
        child.ignored = isIgnored(resolved, path, child.kind === "d");
      }
      const trackedEntry = trustTracked && child.kind !== "d" ? undefined : tracked.get(path);
      child.tracked = trackedEntry !== undefined;
      if (!child.ignored && keepIgnored?.has(path)) {
        child.ignored = true;
        dir.rulesKey = `kept:${rulesKey}`; // not what the rules say: the next scan classifies this folder again
      }
      if (child.ignored) {
        if (collectIgnored) ignoredPaths.add(path);
        continue;
      }
      if (child.kind === "d") {
        if (trackedEntry?.mode === 0o160000) continue; // a tracked submodule: handled in phase A
        const cst = lstatPath(root, path);
        if (cst && (cst.mode & S_IFMT) === S_IFDIR) walk(path, cst, layers, rulesKey);
      } else if (!trackedEntry) {
        const fst = lstatPath(root, path);
        stats.filesStatted++;
        if (fst && (fst.mode & S_IFMT) !== S_IFDIR) addFile(path, fst, undefined);
        progress?.(stats.filesStatted, stats.filesHashed);
      }
    }
  };
  const rootStat = lstatSync(root);
  walk("", rootStat, [], globalKey);

  // Trees, bottom-up; only trees not known from the last committed snapshot are written.
  // When every entry equals the last snapshot's, its trees are reused as they are.
  for (let slot = 0; slot < old.size; slot++) if (seenOld[slot] === 0) markDirty(old.pathAt(slot));
  let treeOid: string;
  const oldRoot = old.trees.get("");
  const sameEntries = dirty.size === 0 && oldRoot !== undefined;
  if (sameEntries) {
    treeOid = oldRoot;
    verify(treeOid);
    cache.trees = old.trees;
  } else if (anchored) {
    treeOid = buildTrees(entries, odb, old.trees, cache.trees, dirty, verify);
  } else {
    treeOid = buildTrees(entries, odb, old.trees, new Map(), dirty, verify);
    // The cached trees must describe the cached entries: drop the folders that changed (their
    // new trees are not anchored by any commit); the clean ones are still valid and anchored.
    cache.trees = new Map(old.trees);
    for (const folder of dirty) cache.trees.delete(folder);
  }
  stats.durationMs = performance.now() - started;
  debug(
    () =>
      `snapshot: ${entries.size} entries, ${stats.filesStatted} statted, ${stats.filesHashed} hashed, ${stats.dirsRead} folders read, ${stats.durationMs.toFixed(1)} ms`,
  );
  // Worth saving when something new was learned: a file recalled by a fresh read or the index, a folder listing, or new trees.
  const cacheDirty = learned > 0 || stats.dirsRead > 0 || (anchored && !sameEntries);
  return { treeOid, entries, trackedPaths, ignoredPaths, skipped, unusualModes, stats, cache, cacheDirty };
}

/**
 * Builds and writes the tree objects for a flat path -> entry map.
 * @param known folder -> tree oid known to exist (skip writing when equal)
 * @param out receives folder -> tree oid for every folder ('' = root)
 * @param dirty when given, folders not in it whose oid is `known` are taken
 *   as they are, without encoding them again (their content did not change)
 * @param verify called with every blob oid a written tree names and every
 *   known subtree oid it takes as it is (not gitlinks, which name commits of
 *   another repository); it throws to stop when one is missing
 * @returns the root tree oid
 */
export function buildTrees(
  entries: ReadonlyMap<string, SnapshotEntry>,
  odb: ObjectDatabase,
  known: ReadonlyMap<string, string> = new Map(),
  out: Map<string, string> = new Map(),
  dirty: ReadonlySet<string> | null = null,
  verify: (oid: string) => void = () => undefined,
): string {
  interface Folder {
    files: TreeEntry[];
    folders: Map<string, Folder>;
  }
  const rootFolder: Folder = { files: [], folders: new Map() };
  for (const [path, e] of entries) {
    const parts = path.split("/");
    let folder = rootFolder;
    for (let i = 0; i < parts.length - 1; i++) {
      const name = parts[i] as string;
      let next = folder.folders.get(name);
      if (!next) {
        next = { files: [], folders: new Map() };
        folder.folders.set(name, next);
      }
      folder = next;
    }
    folder.files.push({ mode: e.mode, name: parts[parts.length - 1] as string, oid: e.oid });
  }
  const reuse = (folder: Folder, path: string, oid: string): void => {
    out.set(path, oid);
    for (const [name, sub] of folder.folders) {
      const subPath = path === "" ? name : `${path}/${name}`;
      const subOid = known.get(subPath);
      if (subOid === undefined) write(sub, subPath);
      else reuse(sub, subPath, subOid);
    }
  };
  const write = (folder: Folder, path: string): string => {
    const cached = known.get(path);
    if (dirty !== null && cached !== undefined && !dirty.has(path)) {
      verify(cached);
      reuse(folder, path, cached);
      return cached;
    }
    for (const f of folder.files) if (f.mode !== "160000") verify(f.oid);
    const list: TreeEntry[] = [...folder.files];
    for (const [name, sub] of folder.folders) {
      list.push({ mode: "40000", name, oid: write(sub, path === "" ? name : `${path}/${name}`) });
    }
    const content = encodeTree(list);
    const oid = ObjectDatabase.hash("tree", content);
    if (known.get(path) !== oid) odb.write("tree", content);
    out.set(path, oid);
    return oid;
  };
  return write(rootFolder, "");
}

/** Reads the raw value of HEAD for the Ralph-Head trailer: the commit oid, or null in a repository with no commits. */
export function readUserHead(repo: Repository): string | null {
  const loc = { gitDir: repo.gitDir, commonDir: repo.commonDir };
  const raw = readRawRef(loc, "HEAD");
  if (raw === null) return null;
  return "oid" in raw ? raw.oid : resolveRef(loc, raw.symref);
}
