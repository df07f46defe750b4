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
import { lstatSync, readdirSync, readFileSync, readlinkSync, writeFileSync, type Dirent, type Stats } from "node:fs";
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
import { loadStatCache, StatCache, RACY_WINDOW_MS, saveStatCache, StatCacheBuilder, type CachedChild, type CachedDir, PathFlag, type GitFileMode } from "./stat-cache.js";

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
  /**
   * The paths a file watcher saw change (src/store/dirty-paths.ts): only
   * these are looked at, everything else is taken from the stat cache. Used
   * only when the cache can stand for the rest (see {@link Snapshot.scan});
   * otherwise the scan is a full one, with the same result.
   */
  dirty?: DirtyPathSet;
}

/**
 * Paths that may differ from what the stat cache recorded, relative to the
 * work tree and '/'-separated (a folder stands for everything under it), and
 * when the watcher began collecting them, in ms since the epoch: a stat cache
 * whose scan began before that may miss changes the set no longer holds.
 */
export interface DirtyPathSet {
  paths: ReadonlySet<string>;
  sinceMs: number;
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
  /** "dirty" when only the dirty set was looked at; "full" otherwise, with the reason a given dirty set was not used. */
  scan: { kind: "dirty" } | { kind: "full"; reason: string | undefined };
  /**
   * When this scan found the persisted stat cache exactly right (nothing
   * learned, the same entries): that cache's scan start, ms since the epoch,
   * so {@link commitStatCache} can note it still held at this scan's start
   * without rewriting it; else null.
   */
  confirmedBaseMs: number | null;
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
  if (!snapshot.cacheDirty) {
    if (snapshot.confirmedBaseMs !== null && writeConfirmation(statCachePath(repo), snapshot.confirmedBaseMs, snapshot.cache.scanStartMs))
      repo.env.warmScan?.persisted(repo.workTree, snapshot.cache.scanStartMs);
    return;
  }
  try {
    saveStatCache(statCachePath(repo), snapshot.cache);
    repo.env.warmScan?.persisted(repo.workTree, snapshot.cache.scanStartMs);
  } catch (error) {
    // A cache is an optimisation: failing to save it must not fail the checkpoint.
    debug(() => `could not save stat cache: ${(error as Error).message}`);
  }
}

/**
 * Notes that the stat cache written by the scan that began at `baseMs` was
 * found exactly right by a scan that began at `confirmedMs` (ms since the
 * epoch), in a small file beside it: a dirty set collected since then may
 * be applied to it (see {@link DirtyPathSet.sinceMs}) without rewriting the
 * whole cache after every no-op checkpoint.
 */
function writeConfirmation(cachePath: string, baseMs: number, confirmedMs: number): boolean {
  try {
    writeFileSync(`${cachePath}.confirmed`, `${baseMs} ${confirmedMs}\n`);
    return true;
  } catch (error) {
    debug(() => `could not note the stat cache as confirmed: ${(error as Error).message}`);
    return false;
  }
}

/** The latest time the cache that began at `baseMs` is known to have held: its confirmation when it names this cache, else `baseMs`. */
function confirmedSince(cachePath: string, baseMs: number): number {
  try {
    const [base, confirmed] = readFileSync(`${cachePath}.confirmed`, "utf8").trim().split(" ").map(Number);
    return base === baseMs && confirmed !== undefined && confirmed > baseMs ? confirmed : baseMs;
  } catch {
    return baseMs;
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
  if (options.dirty === undefined) {
    // In a warm process: the watcher's dirty set, handed to the first snapshot of the request (src/store/warm-scan.ts).
    const dirty = repo.env.warmScan?.takeDirty(repo.workTree);
    if (dirty !== undefined) options = { ...options, dirty };
  }
  try {
    return snapshotTrustingCaches(repo, odb, options);
  } catch (error) {
    if (!(error instanceof MissingCachedObject)) throw error;
    // A cache named an object the repository does not have (pruned, or a cache written wrong): never
    // commit a tree that names it. Look at every file afresh, trusting neither the stat cache nor the index.
    warn(`the stat cache names object ${error.oid.slice(0, 12)}, which is missing: snapshotting without caches`);
    return snapshotOnce(repo, odb, { ...options, dirty: undefined }, false);
  }
}

/** A snapshot that trusts the stat cache; a dirty set the cache turns out not to cover gives a full scan. */
function snapshotTrustingCaches(repo: Repository, odb: ObjectDatabase, options: SnapshotOptions): Snapshot {
  if (options.dirty === undefined) return snapshotOnce(repo, odb, options, true);
  try {
    return snapshotOnce(repo, odb, options, true);
  } catch (error) {
    if (!(error instanceof DirtySetUnusable)) throw error;
    debug(() => `dirty-path snapshot abandoned (${error.message}): scanning in full`);
    const full = snapshotOnce(repo, odb, { ...options, dirty: undefined }, true);
    return { ...full, scan: { kind: "full", reason: error.message } };
  }
}

/** Thrown inside a snapshot when a tree would name an oid taken from a cache that the object database lacks. */
class MissingCachedObject extends Error {
  constructor(readonly oid: string) {
    super(`object ${oid} from the stat cache is missing`);
  }
}

/** Thrown inside a dirty-path snapshot when the stat cache cannot stand for a clean folder (it has no listing of it): scan in full. */
class DirtySetUnusable extends Error {}

/** Everything a scan keeps between its steps; the steps are the methods of {@link WorkTreeScan}. */
class WorkTreeScan {
  readonly started = performance.now();
  readonly scanStartMs = Date.now();
  readonly root: string;
  readonly sizeCap: number;
  readonly old: StatCache;
  readonly cache: StatCacheBuilder;
  readonly entries = new Map<string, SnapshotEntry>();
  readonly trackedPaths = new Set<string>();
  readonly skipped: Snapshot["skipped"] = [];
  readonly unusualModes: Snapshot["unusualModes"] = [];
  readonly stats = { filesStatted: 0, filesHashed: 0, dirsRead: 0, durationMs: 0 };
  readonly plainPerm: number;
  readonly execPerm: number;
  readonly anchored: boolean;
  readonly collectIgnored: boolean;
  /** Blobs hashed by this scan: they exist. Any other oid a new tree names came from a cache and is checked. */
  readonly hashedNow = new Set<string>();
  /** Temporaries a killed restore left beside files on another file system: never stored (the next locked call removes them). */
  readonly restoreTemps: Set<string>;
  readonly ignoredPaths = new Set<string>();
  /** Folders whose tree must be re-encoded: ancestors of any path added, changed or removed since the cache. */
  readonly changedFolders = new Set<string>();
  readonly seenOld: Uint8Array;
  /** Entries recalled by a fresh read or the index rather than the cache: the cache is worth saving. */
  learned = 0;
  reusedFromCache = false;
  // Tracked paths (readTracked).
  readonly indexPath: string;
  indexMtimeMs = 0;
  sameIndex = false;
  tracked = new Map<string, TrackedPath>();
  indexGitlinks: Map<string, string> | null = null;
  seedFromIndex = false;
  // Ignore rules.
  readonly globals: { layers: IgnoreLayer[]; files: string[] };
  readonly ignoreCase: boolean;
  readonly realFolders = new Map<string, boolean>([["", true]]);
  /** With a usable dirty set: the paths it names; null for a full scan. */
  dirtyPaths: ReadonlySet<string> | null = null;
  /** Why the scan is a full one although a dirty set was given (undefined when none was, or it was used). */
  fullReason: string | undefined;
  /** Folder -> whether it or a folder above it is in the dirty set (everything under it is looked at). */
  readonly underDirty = new Map<string, boolean>();
  /** Proper ancestors of the dirty paths: folders walked (their listing may have changed). */
  readonly dirtyAncestors = new Set<string>();

  constructor(
    readonly repo: Repository,
    readonly odb: ObjectDatabase,
    readonly options: SnapshotOptions,
    readonly trustCaches: boolean,
  ) {
    this.root = repo.workTree;
    this.sizeCap = options.sizeCapBytes ?? DEFAULT_SIZE_CAP_BYTES;
    this.old = trustCaches ? trustedCache(repo, odb, loadStatCache(statCachePath(repo))) : StatCache.empty();
    this.cache = new StatCacheBuilder(this.scanStartMs);
    this.cache.anchor = this.old.anchor;
    this.seenOld = new Uint8Array(this.old.size);
    const umask = process.umask();
    this.plainPerm = 0o666 & ~umask;
    this.execPerm = 0o777 & ~umask;
    this.anchored = options.anchored ?? true;
    this.collectIgnored = options.collectIgnored ?? false;
    this.restoreTemps = pendingRestoreTemps(restoreTempDirOf(repo.ralphDir), this.root);
    this.indexPath = join(repo.gitDir, "index");
    this.globals = globalLayers(repo.commonDir, repo.config, repo.env.git);
    this.ignoreCase = isIgnoreCase(repo.config);
  }

  /** The steps of a scan, in order. */
  run(): Snapshot {
    this.readTracked();
    const globalKey = this.globalRulesKey();
    this.useDirtySet(globalKey);
    this.scanTracked();
    this.walk("", lstatSync(this.root), [], globalKey, this.dirtyPaths === null);
    const treeOid = this.writeTrees();
    const { stats } = this;
    stats.durationMs = performance.now() - this.started;
    debug(
      () =>
        `snapshot (${this.dirtyPaths === null ? "full" : `${this.dirtyPaths.size} dirty paths`}): ${this.entries.size} entries, ${stats.filesStatted} statted, ${stats.filesHashed} hashed, ${stats.dirsRead} folders read, ${stats.durationMs.toFixed(1)} ms`,
    );
    const sameEntries = this.changedFolders.size === 0 && this.old.trees.get("") !== undefined;
    // Worth saving when something new was learned: a file recalled by a fresh read or the index, a folder listing, or new trees.
    const cacheDirty = this.learned > 0 || stats.dirsRead > 0 || (this.anchored && !sameEntries);
    const { entries, trackedPaths, ignoredPaths, skipped, unusualModes, cache } = this;
    const scan = this.dirtyPaths === null ? { kind: "full" as const, reason: this.fullReason } : { kind: "dirty" as const };
    const confirmedBaseMs = !cacheDirty && sameEntries && this.trustCaches && this.old.size > 0 ? this.old.scanStartMs : null;
    return { treeOid, entries, trackedPaths, ignoredPaths, skipped, unusualModes, stats, cache, cacheDirty, scan, confirmedBaseMs };
  }

  /**
   * Tracked paths: from git's index (stage 0, or the first stage of a
   * conflict), or, while the index file is unchanged since the last scan
   * (and was not racy then), from the stat cache.
   */
  readTracked(): void {
    const { old } = this;
    const indexStat = lstatSync(this.indexPath, { throwIfNoEntry: false });
    this.indexMtimeMs = indexStat?.mtimeMs ?? 0;
    const indexKey = indexStat ? `${indexStat.size}:${indexStat.mtimeMs}:${indexStat.ctimeMs}:${indexStat.ino}` : "none";
    this.cache.indexKey = indexKey;
    this.sameIndex = old.indexKey === indexKey && this.indexMtimeMs < old.scanStartMs - RACY_WINDOW_MS;
    if (this.sameIndex) {
      for (let slot = 0; slot < old.size; slot++) {
        const flags = old.flagsAt(slot);
        if (!(flags & PathFlag.tracked)) continue;
        const mode = flags & PathFlag.gitlink ? 0o160000 : parseInt(old.gitModeAt(slot), 8);
        this.tracked.set(old.pathAt(slot), {
          mode,
          oid: old.oidAt(slot),
          skipWorktree: (flags & PathFlag.skipWorktree) !== 0,
          index: undefined,
          moved: (flags & PathFlag.gitlinkMoved) !== 0,
        });
      }
    } else {
      for (const e of readGitIndex(this.indexPath).entries) {
        if (this.tracked.has(e.path) || e.mode === 0o40000) continue; // later conflict stages; sparse-index folders (left out)
        this.tracked.set(e.path, { mode: e.mode, oid: e.oid, skipWorktree: e.skipWorktree, index: e });
      }
    }
    // Only needed (and only read) when the index was parsed: its stat data is what seeds unknown files.
    this.seedFromIndex = this.trustCaches && !this.sameIndex && canSeedFromIndex(this.repo, this.tracked);
  }

  /** The index's commit of a gitlink whose recorded oid is another (read from the index at most once per scan). */
  indexOidOf(path: string, t: TrackedPath): string {
    if (t.moved !== true) return t.oid;
    this.indexGitlinks ??= new Map(
      readGitIndex(this.indexPath)
        .entries.filter((e) => e.mode === 0o160000)
        .map((e) => [e.path, e.oid]),
    );
    return this.indexGitlinks.get(path) ?? t.oid;
  }

  /** The rules key of the global ignore sources (core.excludesFile, info/exclude) and the case setting. */
  globalRulesKey(): string {
    const files = this.globals.files.map((f) => {
      const st = lstatSync(f, { throwIfNoEntry: false });
      return st ? `${f}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}` : `${f}:-`;
    });
    return sha1(`ignorecase=${this.ignoreCase}|${files.join("|")}`);
  }

  /**
   * Takes the dirty set of the options when the stat cache can stand for
   * every path outside it: the cache is trusted, its scan began after the
   * set did, the index and the ignore rules at the root are as the cache
   * saw them, and no ignored paths are asked for. Otherwise the scan is a
   * full one and {@link fullReason} says why.
   */
  useDirtySet(globalKey: string): void {
    const dirty = this.options.dirty;
    if (dirty === undefined) return;
    const { old } = this;
    const rootKey = this.rulesKeyOf("", globalKey)?.key;
    const reason = !this.trustCaches
      ? "the caches are not trusted"
      : old.trees.get("") === undefined
        ? "the stat cache has no trees"
        : confirmedSince(statCachePath(this.repo), old.scanStartMs) < dirty.sinceMs
          ? "the stat cache is older than the dirty set"
          : !this.sameIndex
            ? "git's index changed"
            : rootKey === undefined || old.dirs.get("")?.rulesKey !== rootKey
              ? "the ignore rules changed"
              : this.collectIgnored || (this.options.keepIgnored?.size ?? 0) > 0 || this.restoreTemps.size > 0
                ? "ignored paths are needed"
                : dirty.paths.has("")
                  ? "the dirty set names the whole work tree"
                  : null;
    if (reason !== null) {
      this.fullReason = reason;
      return;
    }
    this.dirtyPaths = dirty.paths;
    for (const path of dirty.paths) {
      for (let p = path; ;) {
        const slash = p.lastIndexOf("/");
        p = slash < 0 ? "" : p.slice(0, slash);
        if (this.dirtyAncestors.has(p)) break;
        this.dirtyAncestors.add(p);
        if (p === "") break;
      }
    }
  }

  /** Whether `path` must be looked at: a full scan, or it or a folder above it is in the dirty set. */
  isDirty(path: string): boolean {
    const dirty = this.dirtyPaths;
    if (dirty === null || dirty.has(path)) return true;
    const slash = path.lastIndexOf("/");
    return slash >= 0 && this.isFolderDirty(path.slice(0, slash));
  }

  private isFolderDirty(folder: string): boolean {
    let known = this.underDirty.get(folder);
    if (known === undefined) {
      const slash = folder.lastIndexOf("/");
      known = (this.dirtyPaths as ReadonlySet<string>).has(folder) || (slash >= 0 && this.isFolderDirty(folder.slice(0, slash)));
      this.underDirty.set(folder, known);
    }
    return known;
  }

  verify(oid: string): void {
    if (!this.hashedNow.has(oid) && !this.odb.has(oid)) throw new MissingCachedObject(oid);
  }

  markDirty(path: string): void {
    for (let p = path; ;) {
      const slash = p.lastIndexOf("/");
      p = slash < 0 ? "" : p.slice(0, slash);
      if (this.changedFolders.has(p)) return;
      this.changedFolders.add(p);
      if (p === "") return;
    }
  }

  /** Notes a tracked path that is not in the snapshot, so the next scan knows it is tracked without reading the index. */
  recordAbsent(path: string): void {
    const slot = this.old.find(path);
    if (slot >= 0) {
      this.seenOld[slot] = 1;
      if (!(this.old.flagsAt(slot) & PathFlag.absent)) this.markDirty(path);
    }
    const t = this.tracked.get(path);
    // An absent gitlink stays one (with its index commit unknown to the cache: marked moved).
    const gitlink = t !== undefined && t.mode === 0o160000 ? PathFlag.gitlink | PathFlag.gitlinkMoved : 0;
    this.cache.add(path, "100644", "", PathFlag.tracked | PathFlag.absent | gitlink, 0, 0, 0, 0, 0);
  }

  /** Records an entry (in the snapshot and the new cache) and marks its folders dirty when it differs from the cached one. */
  record(path: string, gitMode: GitFileMode, oid: string, st: Stats | null, slot = this.old.find(path), isNewObject = false): void {
    const { old, cache } = this;
    this.entries.set(path, { mode: gitMode, oid });
    const t = this.tracked.get(path);
    let flags = t === undefined ? 0 : PathFlag.tracked | (t.skipWorktree ? PathFlag.skipWorktree : 0) | (t.mode === 0o160000 ? PathFlag.gitlink : 0);
    if (t !== undefined && t.mode === 0o160000 && (gitMode !== "160000" || oid !== this.indexOidOf(path, t))) flags |= PathFlag.gitlinkMoved;
    if (slot >= 0) this.seenOld[slot] = 1;
    if (slot < 0 || old.oidAt(slot) !== oid || old.gitModeAt(slot) !== gitMode || old.flagsAt(slot) & PathFlag.absent) this.markDirty(path);
    if (isNewObject && !this.anchored) {
      // No commit anchors this blob, so its oid is not kept; the path (and whether git tracks it) is.
      cache.add(path, gitMode, "", flags, 0, 0, 0, 0, 0);
      return;
    }
    const known = st === null ? slot >= 0 && old.oidAt(slot) === oid && old.gitModeAt(slot) === gitMode : slot >= 0 && this.reusedFromCache;
    if (!known) this.learned++;
    if (st) cache.add(path, gitMode, oid, flags, st.mode, st.size, st.mtimeMs, st.ctimeMs, st.ino);
    else cache.add(path, gitMode, oid, flags, 0, 0, 0, 0, 0);
  }

  /**
   * Takes a path outside the dirty set as the stat cache has it, without
   * looking at it; false when the cache cannot stand for it (no entry, no
   * oid, or a tracked path that was absent: those are looked at).
   */
  copyEntry(path: string): boolean {
    const { old } = this;
    const slot = old.find(path);
    if (slot < 0) return false;
    const flags = old.flagsAt(slot);
    const oid = old.oidAt(slot);
    if (oid === "" || flags & PathFlag.absent || this.seenOld[slot] === 1) return false;
    const gitMode = old.gitModeAt(slot);
    this.seenOld[slot] = 1;
    this.entries.set(path, { mode: gitMode, oid });
    old.copyTo(slot, this.cache);
    if (flags & PathFlag.tracked) this.trackedPaths.add(path);
    const stMode = old.stModeAt(slot);
    if (stMode !== 0) this.noteUnusualMode(path, gitMode, stMode);
    return true;
  }

  noteUnusualMode(path: string, gitMode: GitFileMode, stMode: number): void {
    if (gitMode === "120000" || gitMode === "160000") return;
    if ((stMode & 0o777) !== (gitMode === "100755" ? this.execPerm : this.plainPerm)) {
      this.unusualModes.push({ path, perm: (stMode & 0o777).toString(8).padStart(4, "0") });
    }
  }

  /** Hashes (or recalls) one regular file or symlink; returns false when it vanished or was skipped. */
  addFile(path: string, st: Stats, indexEntry: IndexEntry | undefined): boolean {
    const gitMode = gitModeOf(st);
    if (gitMode === null) return false; // fifo, socket, device: git ignores them too
    // Over the cap whatever knows its oid (the stat cache, git's index after `git add`): the cap is the same for every source.
    if (st.size > this.sizeCap) {
      this.skipped.push({ path, sizeBytes: st.size });
      return false;
    }
    const slot = this.old.find(path);
    const recalled = this.recallOid(path, gitMode, st, slot, indexEntry);
    if (recalled === null) return false;
    this.record(path, gitMode, recalled.oid, st, slot, recalled.isNewObject);
    this.noteUnusualMode(path, gitMode, st.mode);
    return true;
  }

  /** The oid of a file: from the stat cache when fresh, from git's index when its stat matches, else read and hashed; null when it vanished. */
  recallOid(path: string, gitMode: GitFileMode, st: Stats, slot: number, indexEntry: IndexEntry | undefined): { oid: string; isNewObject: boolean } | null {
    const { old } = this;
    this.reusedFromCache = false;
    if (slot >= 0 && old.gitModeAt(slot) === gitMode && old.isFresh(slot, st.mode, st.size, st.mtimeMs, st.ctimeMs, st.ino)) {
      this.reusedFromCache = true;
      return { oid: old.oidAt(slot), isNewObject: false };
    }
    if (
      indexEntry !== undefined &&
      this.seedFromIndex &&
      indexEntry.mode === (gitMode === "100644" ? 0o100644 : gitMode === "100755" ? 0o100755 : 0o120000) &&
      indexEntry.mtimeSec * 1000 + indexEntry.mtimeNsec / 1e6 === st.mtimeMs &&
      indexEntry.ctimeSec * 1000 + indexEntry.ctimeNsec / 1e6 === st.ctimeMs &&
      indexEntry.size === st.size % 2 ** 32 &&
      indexEntry.ino === st.ino % 2 ** 32 &&
      st.mtimeMs < this.indexMtimeMs
    ) {
      return { oid: indexEntry.oid, isNewObject: false };
    }
    let content: Buffer;
    try {
      const abs = fsPath(this.root + "/" + path);
      content = gitMode === "120000" ? readlinkSync(abs, { encoding: "buffer" }) : readFileSync(abs);
    } catch (error) {
      if (isErrno(error, "ENOENT", "ENOTDIR")) return null; // vanished mid-snapshot
      if (isErrno(error, "EACCES", "EPERM")) throw unreadableFile(path, error);
      throw error;
    }
    const oid = this.odb.write("blob", content);
    this.hashedNow.add(oid);
    this.stats.filesHashed++;
    return { oid, isNewObject: true };
  }

  /**
   * Whether a folder is a real one all the way up: a path whose folder (or a
   * folder above) is a symlink or a file is not in the work tree, as git sees
   * it (dir.c has_symlink_leading_path): lstat alone would follow the symlink
   * and read from wherever it points.
   */
  isRealFolder(dir: string): boolean {
    let known = this.realFolders.get(dir);
    if (known !== undefined) return known;
    const slash = dir.lastIndexOf("/");
    known = this.isRealFolder(slash < 0 ? "" : dir.slice(0, slash)) && ((lstatPath(this.root, dir)?.mode ?? 0) & S_IFMT) === S_IFDIR;
    this.realFolders.set(dir, known);
    return known;
  }

  isBeyondSymlink(path: string): boolean {
    const slash = path.lastIndexOf("/");
    return slash >= 0 && !this.isRealFolder(path.slice(0, slash));
  }

  /** Phase A: every tracked path (outside a dirty set, as the stat cache has it). */
  scanTracked(): void {
    const progress = this.options.onProgress;
    for (const [path, e] of this.tracked) {
      if (isExcludedPath(path)) {
        this.recordAbsent(path);
        continue;
      }
      if (e.skipWorktree) {
        // Sparse checkout: absent from disk by design; keep git's view.
        this.record(path, e.mode.toString(8) as GitFileMode, e.oid, null);
        this.trackedPaths.add(path);
        continue;
      }
      if (e.mode === 0o160000) {
        this.scanSubmodule(path, e);
        continue;
      }
      if (!this.isDirty(path) && this.copyEntry(path)) continue;
      const st = this.isBeyondSymlink(path) ? undefined : lstatPath(this.root, path);
      this.stats.filesStatted++;
      if (st && (st.mode & S_IFMT) !== S_IFDIR && this.addFile(path, st, e.index)) this.trackedPaths.add(path);
      else this.recordAbsent(path); // deleted, replaced by a folder (the walk sees it), vanished or over the size cap
      progress?.(this.stats.filesStatted, this.stats.filesHashed);
    }
  }

  /**
   * A submodule: its folder's HEAD (the index's commit while it is not
   * checked out); gone when the folder is, and what is there instead when a
   * symlink or file replaced the folder (as git add -A sees it).
   */
  scanSubmodule(path: string, e: TrackedPath): void {
    const st = this.isBeyondSymlink(path) ? undefined : lstatPath(this.root, path);
    if (st && (st.mode & S_IFMT) === S_IFDIR) {
      this.record(path, "160000", nestedRepositoryHead(join(this.root, path)) ?? this.indexOidOf(path, e), null);
      this.trackedPaths.add(path);
    } else if (st && this.addFile(path, st, undefined)) this.trackedPaths.add(path);
    else this.recordAbsent(path);
  }

  /** A folder's listing: the cached one while the folder's stat is unchanged (and was not racy), else read. null when it is gone. */
  listDir(rel: string, st: Stats, rulesKey: string): { dir: CachedDir | null; fresh: boolean } {
    const { old } = this;
    const prev = old.dirs.get(rel);
    const fresh =
      prev !== undefined &&
      prev.mtimeMs === st.mtimeMs &&
      prev.ctimeMs === st.ctimeMs &&
      prev.ino === st.ino &&
      st.mtimeMs < old.scanStartMs - RACY_WINDOW_MS &&
      st.ctimeMs < old.scanStartMs - RACY_WINDOW_MS;
    if (fresh) return { dir: { ...prev, rulesKey }, fresh: prev.rulesKey === rulesKey };
    this.stats.dirsRead++;
    const children: CachedChild[] = [];
    let isRepo = false;
    let listing: Dirent<Buffer>[];
    try {
      listing = readdirSync(rel === "" ? this.root : fsPath(join(this.root, rel)), { withFileTypes: true, encoding: "buffer" });
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
  }

  /**
   * The rules key of a folder: its parent's plus its own .gitignore's stat,
   * with that stat (undefined without a .gitignore); null when the folder
   * became a file mid-snapshot.
   */
  rulesKeyOf(rel: string, parentKey: string): { key: string; ignoreFile: string; ist: Stats | undefined } | null {
    const ignoreFile = rel === "" ? join(this.root, ".gitignore") : join(this.root, rel, ".gitignore");
    let ist: Stats | undefined;
    try {
      ist = lstatSync(fsPath(ignoreFile), { throwIfNoEntry: false });
    } catch (error) {
      if (isErrno(error, "ENOTDIR")) return null;
      if (isErrno(error, "EACCES", "EPERM")) throw unreadableFolder(rel, error);
      throw error;
    }
    const key = ist ? sha1(`${parentKey}|${ist.size}:${ist.mtimeMs}:${ist.ctimeMs}:${ist.ino}`) : parentKey;
    return { key, ignoreFile, ist };
  }

  /**
   * Phase B: untracked files, walking folders that are not ignored. With a
   * dirty set, `allDirty` says this folder is in it (or under one that is):
   * else only its children in or above the dirty set are looked at and the
   * rest is taken from the stat cache.
   */
  walk(rel: string, st: Stats, lazy: LazyLayer[], parentKey: string, allDirty: boolean): void {
    const rules = this.rulesKeyOf(rel, parentKey);
    if (rules === null) return; // the folder became a file mid-snapshot
    const { key: rulesKey, ignoreFile, ist } = rules;
    const { dir, fresh } = this.listDir(rel, st, rulesKey);
    if (dir === null) return; // deleted mid-snapshot: nothing of it is stored
    this.cache.dirs.set(rel, dir);
    if (rel !== "" && dir.isRepo) {
      // A nested repository is recorded as a gitlink to its HEAD and never entered.
      const head = nestedRepositoryHead(join(this.root, rel));
      if (head) this.record(rel, "160000", head, null);
      return;
    }
    const layers = ist ? [...lazy, { base: rel, file: ignoreFile, layer: undefined } as LazyLayer] : lazy;
    const folder: WalkedFolder = { rel, rulesKey, layers, resolved: null, fresh, trustTracked: fresh && this.sameIndex, allDirty };
    for (const child of dir.children) this.visitChild(folder, dir, child);
  }

  /** One child of a walked folder: classified (ignored, tracked), then walked, hashed or taken from the cache. */
  visitChild(folder: WalkedFolder, dir: CachedDir, child: CachedChild): void {
    const { rel } = folder;
    // Fast path: an unchanged folder, same rules, same index: a tracked or ignored file needs nothing here.
    if (folder.trustTracked && child.kind !== "d" && (child.tracked || child.ignored)) {
      if (this.collectIgnored && child.ignored) this.ignoredPaths.add(rel === "" ? child.name : `${rel}/${child.name}`);
      return;
    }
    if (child.kind === "o") return;
    const path = rel === "" ? child.name : `${rel}/${child.name}`;
    if (path === STATE_DIR || (this.restoreTemps.size > 0 && this.restoreTemps.has(path))) return;
    if (!folder.fresh) {
      folder.resolved ??= resolveLayers(folder.layers, this.globals.layers, this.ignoreCase);
      child.ignored = isIgnored(folder.resolved, path, child.kind === "d");
    }
    const trackedEntry = folder.trustTracked && child.kind !== "d" ? undefined : this.tracked.get(path);
    child.tracked = trackedEntry !== undefined;
    if (!child.ignored && this.options.keepIgnored?.has(path)) {
      child.ignored = true;
      dir.rulesKey = `kept:${folder.rulesKey}`; // not what the rules say: the next scan classifies this folder again
    }
    if (child.ignored) {
      if (this.collectIgnored) this.ignoredPaths.add(path);
      return;
    }
    const dirty = folder.allDirty || this.dirtyPaths === null || this.dirtyPaths.has(path);
    if (child.kind === "d") {
      if (trackedEntry?.mode === 0o160000) return; // a tracked submodule: handled in phase A
      if (!dirty && !this.dirtyAncestors.has(path)) return this.copyFolder(path);
      const cst = lstatPath(this.root, path);
      if (cst && (cst.mode & S_IFMT) === S_IFDIR) this.walk(path, cst, folder.layers, folder.rulesKey, dirty);
    } else if (!trackedEntry) {
      if (!dirty && this.copyEntry(path)) return;
      const fst = lstatPath(this.root, path);
      this.stats.filesStatted++;
      if (fst && (fst.mode & S_IFMT) !== S_IFDIR) this.addFile(path, fst, undefined);
      this.options.onProgress?.(this.stats.filesStatted, this.stats.filesHashed);
    }
  }

  /**
   * A folder outside the dirty set and above none of it: its listing and
   * its untracked entries as the stat cache has them (tracked ones were
   * taken in phase A). An untracked file the cache has no oid for (over the
   * size cap, hashed by an unanchored scan) is looked at.
   * @throws DirtySetUnusable when the cache has no listing of a folder in it
   */
  copyFolder(rel: string): void {
    const dir = this.old.dirs.get(rel);
    if (dir === undefined) throw new DirtySetUnusable(`the stat cache has no listing of ${rel}/`);
    this.cache.dirs.set(rel, dir);
    if (dir.isRepo) {
      if (!this.copyEntry(rel)) throw new DirtySetUnusable(`the stat cache has no commit for the nested repository ${rel}/`);
      return;
    }
    for (const child of dir.children) {
      if (child.ignored || child.tracked || child.kind === "o") continue;
      const path = `${rel}/${child.name}`;
      if (path === STATE_DIR) continue;
      if (child.kind === "d") this.copyFolder(path);
      else if (!this.copyEntry(path)) {
        const fst = lstatPath(this.root, path);
        this.stats.filesStatted++;
        if (fst && (fst.mode & S_IFMT) !== S_IFDIR) this.addFile(path, fst, undefined);
      }
    }
  }

  /**
   * Trees, bottom-up; only trees not known from the last committed snapshot
   * are written. When every entry equals the last snapshot's, its trees are
   * reused as they are.
   */
  writeTrees(): string {
    const { old, cache, changedFolders } = this;
    for (let slot = 0; slot < old.size; slot++) if (this.seenOld[slot] === 0) this.markDirty(old.pathAt(slot));
    const verify = (oid: string): void => this.verify(oid);
    const oldRoot = old.trees.get("");
    if (changedFolders.size === 0 && oldRoot !== undefined) {
      verify(oldRoot);
      cache.trees = old.trees;
      return oldRoot;
    }
    if (this.anchored) {
      const incremental = buildChangedTrees(this.entries, this.odb, old.trees, changedFolders, verify);
      if (incremental !== null) {
        cache.trees = incremental.trees;
        return incremental.treeOid;
      }
      return buildTrees(this.entries, this.odb, old.trees, cache.trees, changedFolders, verify);
    }
    const treeOid = buildChangedTrees(this.entries, this.odb, old.trees, changedFolders, verify)?.treeOid ?? buildTrees(this.entries, this.odb, old.trees, new Map(), changedFolders, verify);
    // The cached trees must describe the cached entries: drop the folders that changed (their
    // new trees are not anchored by any commit); the clean ones are still valid and anchored.
    cache.trees = new Map(old.trees);
    for (const folder of changedFolders) cache.trees.delete(folder);
    return treeOid;
  }
}

/** A folder being walked: what its children share. */
interface WalkedFolder {
  rel: string;
  rulesKey: string;
  layers: LazyLayer[];
  /** The ignore layers, resolved when a child must be classified. */
  resolved: IgnoreLayer[] | null;
  /** The listing is the cached one and the rules are the same: the children's ignored flags hold. */
  fresh: boolean;
  /** Also the index is the same: the children's tracked flags hold. */
  trustTracked: boolean;
  /** In a dirty-path scan: this folder is in the dirty set or under one that is. */
  allDirty: boolean;
}

/** Paths never part of a snapshot: anything in a `.git` and ralph's state folder. */
function isExcludedPath(path: string): boolean {
  return path.includes(".git") || path.startsWith(STATE_DIR)
    ? path === STATE_DIR || path.startsWith(`${STATE_DIR}/`) || path === ".git" || path.startsWith(".git/") || path.includes("/.git/") || path.endsWith("/.git")
    : false;
}

function snapshotOnce(repo: Repository, odb: ObjectDatabase, options: SnapshotOptions, trustCaches: boolean): Snapshot {
  return new WorkTreeScan(repo, odb, options, trustCaches).run();
}

/** The folder holding `path` ('' for the root's entries). */
function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? "" : path.slice(0, slash);
}

/**
 * The trees of `entries` when only the folders in `changed` (every
 * ancestor of a path added, changed or removed since the trees in `known`
 * were built, the root included) can differ: the other folders keep their
 * known oids without being grouped or encoded again, so the work is one
 * cheap pass over the paths plus the changed folders, not a walk that
 * splits every path. Returns null (build every tree: {@link buildTrees})
 * when `known` cannot stand for the unchanged folders: no root, or a
 * folder with entries or known subfolders that is neither known nor
 * changed.
 * @param verify as for {@link buildTrees}: every blob oid a written tree
 *   names and every known subtree oid it takes as it is
 * @returns the root tree oid and folder -> tree oid of every folder ('' = root)
 */
export function buildChangedTrees(
  entries: ReadonlyMap<string, SnapshotEntry>,
  odb: ObjectDatabase,
  known: ReadonlyMap<string, string>,
  changed: ReadonlySet<string>,
  verify: (oid: string) => void = () => undefined,
): { treeOid: string; trees: Map<string, string> } | null {
  if (!known.has("") || !changed.has("")) return null;
  const files = new Map<string, TreeEntry[]>();
  for (const [path, e] of entries) {
    const parent = parentOf(path);
    if (changed.has(parent)) {
      let list = files.get(parent);
      if (list === undefined) files.set(parent, (list = []));
      list.push({ mode: e.mode, name: parent === "" ? path : path.slice(parent.length + 1), oid: e.oid });
    } else if (!known.has(parent)) return null;
  }
  // The subfolders of each changed folder: the known ones (an unchanged one still exists as it was) and the changed ones.
  const subfolders = new Map<string, Set<string>>();
  const addSub = (folder: string): void => {
    const parent = parentOf(folder);
    let set = subfolders.get(parent);
    if (set === undefined) subfolders.set(parent, (set = new Set()));
    set.add(folder);
  };
  for (const folder of known.keys()) {
    if (folder === "") continue;
    const parent = parentOf(folder);
    if (!known.has(parent) && !changed.has(parent)) return null;
    if (changed.has(parent)) addSub(folder);
  }
  for (const folder of changed) if (folder !== "") addSub(folder);
  const trees = new Map(known);
  // Deepest first: a changed folder's changed subfolders are built before it.
  const order = [...changed].sort((a, b) => (b === "" ? -1 : b.split("/").length) - (a === "" ? -1 : a.split("/").length));
  for (const folder of order) {
    const list: TreeEntry[] = [...(files.get(folder) ?? [])];
    for (const f of list) if (f.mode !== "160000") verify(f.oid);
    for (const sub of subfolders.get(folder) ?? []) {
      const oid = trees.get(sub);
      if (oid === undefined) continue; // a changed subfolder that is now empty: git keeps no empty trees
      if (!changed.has(sub)) verify(oid);
      list.push({ mode: "40000", name: folder === "" ? sub : sub.slice(folder.length + 1), oid });
    }
    if (list.length === 0 && folder !== "") {
      trees.delete(folder);
      continue;
    }
    const content = encodeTree(list);
    const oid = ObjectDatabase.hash("tree", content);
    if (known.get(folder) !== oid) odb.write("tree", content);
    trees.set(folder, oid);
  }
  return { treeOid: trees.get("") as string, trees };
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
