/**
 * The paths of a work tree that may have changed since the last look, fed
 * by a file watcher (`@parcel/watcher`, chosen by measurement:
 * docs/decisions/0004-watcher.md), so a checkpoint `lstat`s only those.
 *
 * Correctness never rests on the watcher: whenever the set could be
 * incomplete, {@link WorkTreeWatcher.take} answers `{ kind: "full" }` and the
 * caller scans the whole work tree. It does so before the watcher is ready,
 * after a watcher error, when a burst of changes exceeds
 * {@link WorkTreeWatcherOptions.maxPaths} (a queue overflow, IN_Q_OVERFLOW,
 * is dropped silently by every inotify watcher measured, so a burst that
 * large is taken as a possible one), when git's HEAD, index or info files
 * change (a checkout or rebase rewrites many files), when a `.gitignore`
 * changes (which untracked files count is decided again), when a barrier
 * write is not seen in time, and every {@link WorkTreeWatcherOptions.trustMs}
 * at the latest.
 *
 * A barrier makes the set complete up to the moment `take()` is called: it
 * writes a file into ralph's folder in the git dir and waits for its event;
 * inotify delivers one file descriptor's events in order, so every change
 * made before the call has been seen once the barrier's event arrives.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync, type Dirent } from "node:fs";
import { join, relative, sep } from "node:path";
import { debug } from "../log.js";

/**
 * What changed since the last {@link WorkTreeWatcher.take}: a set of paths
 * relative to the work tree, '/'-separated (a path names a file, a symlink
 * or a folder that was created, modified, chmod'ed, renamed or deleted; a
 * folder stands for everything under it too), or "full" with the reason the
 * set cannot be trusted. `sinceMs` (ms since the epoch) is when the set
 * began: the previous take. A stat cache written by a scan that began before
 * then may miss changes handed out earlier (snapshot.ts checks it).
 */
export type DirtyPaths = { kind: "paths"; paths: Set<string>; sinceMs: number } | { kind: "full"; reason: string };

/** One subscription of the watcher library: what `@parcel/watcher`'s subscribe returns. */
interface Subscription {
  unsubscribe(): Promise<void>;
}
type WatchEvent = { path: string; type: "create" | "update" | "delete" };
type Subscribe = (dir: string, fn: (err: Error | null, events: WatchEvent[]) => unknown, opts?: { ignore?: string[] }) => Promise<Subscription>;

/** Options of {@link WorkTreeWatcher}. */
export interface WorkTreeWatcherOptions {
  /** The work tree's git dir (default `<workTree>/.git`); its HEAD, index and info/ are watched, its barrier file lives in `<gitDir>/ralph/`. */
  gitDir?: string;
  /** More dirty paths than this since the last take and take() says "full" (default 4096). */
  maxPaths?: number;
  /** Longest time between full scans, in ms (default 600000, 10 minutes); 0 never forces one. */
  trustMs?: number;
  /** How long take() waits for the barrier's event, in ms (default 2000). */
  barrierTimeoutMs?: number;
  /** More watched subtrees added for new nested folders than this and the watcher gives up (take() says "full", default 64). */
  maxSubtrees?: number;
}

/** Folders inside a git dir whose churn says nothing about the work tree (objects, reflogs, refs, hooks, ralph's own state but its barrier). */
const GIT_NOISE = ["objects", "logs", "refs", "hooks", "lfs", "rr-cache", "worktrees"];
/** A git dir file whose change means many work tree files may have been rewritten, or the ignore rules changed. */
const GIT_SIGNALS = /^(HEAD|index|info(\/.*)?|MERGE_HEAD|ORIG_HEAD|CHERRY_PICK_HEAD|REBASE_HEAD|modules(\/.*)?|sparse-checkout)$/;
const BARRIER_PREFIX = "watch-barrier-";

/**
 * Watches one work tree and hands out the paths that changed since the
 * last {@link take}. Use: `const w = new WorkTreeWatcher(); await
 * w.start(workTree); … const dirty = await w.take(); … await w.close()`.
 * Never throws from start() or take(): a failure makes take() say "full".
 */
export class WorkTreeWatcher {
  private readonly options: Required<Omit<WorkTreeWatcherOptions, "gitDir">> & { gitDir: string | undefined };
  private workTree = "";
  private gitDir = "";
  private subscriptions: Subscription[] = [];
  private pendingSubtrees: Promise<void>[] = [];
  private subtrees = 0;
  private paths = new Set<string>();
  /** Why the current set cannot be trusted; null while it can. */
  private fullReason: string | null = "the watcher is not started";
  /** Why the watcher can never be trusted again (an error, too many subtrees); take() says full until a new start. */
  private brokenReason: string | null = null;
  private lastFullMs = 0;
  /** When the current set began (the last take), ms since the epoch. */
  private sinceMs = 0;
  private barrierSeq = 0;
  private barrierWaiters = new Map<string, () => void>();
  private closed = false;

  constructor(options: WorkTreeWatcherOptions = {}) {
    this.options = {
      gitDir: options.gitDir,
      maxPaths: options.maxPaths ?? 4096,
      trustMs: options.trustMs ?? 600_000,
      barrierTimeoutMs: options.barrierTimeoutMs ?? 2000,
      maxSubtrees: options.maxSubtrees ?? 64,
    };
  }

  /**
   * Starts watching `workTree` (an absolute, real path) and resolves once
   * the watcher is ready: changes from then on are seen. Never rejects; when
   * the watcher cannot start (no binary for this platform, the inotify
   * watch limit, /proc/sys/fs/inotify/max_user_watches, reached), every
   * take() says "full" with the reason.
   */
  async start(workTree: string): Promise<void> {
    this.workTree = workTree;
    this.gitDir = this.options.gitDir ?? join(workTree, ".git");
    this.closed = false;
    try {
      const subscribe = await loadSubscribe();
      // Not recursive: a git dir that is not there is an error, not a folder to make.
      if (!existsSync(join(this.gitDir, "ralph"))) mkdirSync(join(this.gitDir, "ralph"));
      removeStaleBarriers(join(this.gitDir, "ralph"));
      const gitInside = isInside(workTree, this.gitDir);
      const noise = GIT_NOISE.map((d) => join(this.gitDir, d));
      this.subscriptions.push(await subscribe(workTree, (err, events) => this.onEvents(err, events), { ignore: noise }));
      if (!gitInside) this.subscriptions.push(await subscribe(this.gitDir, (err, events) => this.onEvents(err, events), { ignore: noise }));
      const headroom = watchHeadroom();
      if (headroom !== null && headroom < 0.1) this.brokenReason = `inotify watches are ${Math.round((1 - headroom) * 100)}% used (raise fs.inotify.max_user_watches)`;
    } catch (error) {
      this.brokenReason = `the file watcher could not start: ${(error as Error).message}`;
    }
    // Whatever happened before the watcher was ready is unknown: the first take is a full scan.
    this.fullReason = "the watcher started since the last scan";
  }

  /**
   * The paths changed since the last take (or "full"), complete up to this
   * call: waits for a barrier write's event first. The set is handed over
   * and a new one begins; a "full" answer also begins a new one, so the
   * caller's full scan is the new baseline.
   */
  async take(): Promise<DirtyPaths> {
    if (this.closed) return { kind: "full", reason: "the watcher is closed" };
    if (this.brokenReason === null && this.subscriptions.length > 0) {
      const seen = await this.barrier();
      if (!seen) this.fullReason ??= `the watcher did not report a barrier write within ${this.options.barrierTimeoutMs} ms`;
      while (this.pendingSubtrees.length > 0) await Promise.all(this.pendingSubtrees.splice(0));
    }
    const now = Date.now();
    const reason = this.brokenReason ?? this.fullReason ?? (this.options.trustMs > 0 && now - this.lastFullMs > this.options.trustMs ? `no full scan for ${this.options.trustMs} ms` : null);
    const paths = this.paths;
    const sinceMs = this.sinceMs;
    this.paths = new Set();
    this.sinceMs = now;
    this.fullReason = null;
    if (reason !== null) {
      this.lastFullMs = now;
      return { kind: "full", reason };
    }
    return { kind: "paths", paths, sinceMs };
  }

  /**
   * The paths seen since the last take, without waiting for a barrier (so
   * the events of the last moments, about the debounce's 50 ms, may be
   * missing), or null when the next take would say "full" anyway (not
   * started, broken, closed, the first take, the trust horizon passed).
   * Takes nothing: the next {@link take} still hands these paths out.
   */
  peek(): ReadonlySet<string> | null {
    if (this.closed || this.brokenReason !== null || this.fullReason !== null || this.subscriptions.length === 0) return null;
    if (this.options.trustMs > 0 && Date.now() - this.lastFullMs > this.options.trustMs) return null;
    return this.paths;
  }

  /**
   * Why this watcher can no longer be trusted at all (a failed start, a
   * watcher error, too many new folder trees, the watch limit nearly
   * reached), or null: while it is set every take() says "full", and the
   * owner should close it and start a new one.
   */
  get brokenBecause(): string | null {
    return this.brokenReason;
  }

  /** Stops watching; later takes say "full". */
  async close(): Promise<void> {
    this.closed = true;
    const subs = this.subscriptions.splice(0);
    await Promise.all(subs.map((s) => s.unsubscribe().catch(() => undefined)));
    for (const resolve of this.barrierWaiters.values()) resolve();
    this.barrierWaiters.clear();
  }

  private onEvents(err: Error | null, events: WatchEvent[]): void {
    if (err) {
      this.brokenReason = `the file watcher failed: ${err.message}`;
      debug(() => this.brokenReason ?? "");
      return;
    }
    for (const e of events) this.onEvent(e);
    if (this.fullReason === null && this.paths.size > this.options.maxPaths) {
      this.fullReason = `more than ${this.options.maxPaths} paths changed`;
    }
    if (this.fullReason !== null) this.paths.clear();
  }

  private onEvent(e: WatchEvent): void {
    const inGit = isInside(this.gitDir, e.path);
    if (inGit) {
      const rel = relative(this.gitDir, e.path).split(sep).join("/");
      if (rel.startsWith(`ralph/${BARRIER_PREFIX}`)) {
        this.barrierWaiters.get(rel.slice("ralph/".length))?.();
        return;
      }
      if (GIT_SIGNALS.test(rel)) this.fullReason ??= `git's ${rel} changed`;
      return;
    }
    const rel = relative(this.workTree, e.path).split(sep).join("/");
    if (rel === "" || rel.startsWith("../")) return;
    if (rel === ".gitignore" || rel.endsWith("/.gitignore")) {
      this.fullReason ??= `${rel} changed`;
      return;
    }
    if (/(^|\/)\.git(\/|$)/.test(rel)) {
      // A nested repository's or submodule's git dir: its HEAD is the gitlink's oid. The folder holding it is dirty.
      this.add(rel.slice(0, rel.search(/(^|\/)\.git(\/|$)/)));
      return;
    }
    this.add(rel);
    if (e.type === "create") this.watchNewSubtree(e.path, rel);
  }

  private add(rel: string): void {
    if (this.fullReason === null) this.paths.add(rel);
  }

  /**
   * A new folder that already holds folders: the watcher added a watch for
   * the folder on its create event, but folders made inside it before that
   * are not watched (inotify is not recursive). A subscription of its own
   * covers them; the folder is marked dirty again once that is ready.
   */
  private watchNewSubtree(abs: string, rel: string): void {
    let listing: Dirent[];
    try {
      listing = readdirSync(abs, { withFileTypes: true });
    } catch {
      return; // not a folder, or gone again
    }
    if (!listing.some((d) => d.isDirectory())) return;
    if (++this.subtrees > this.options.maxSubtrees) {
      this.brokenReason = `more than ${this.options.maxSubtrees} nested folder trees were created while watching (restart the watcher)`;
      return;
    }
    const pending = loadSubscribe()
      .then((subscribe) => subscribe(abs, (err, events) => this.onEvents(err, events)))
      .then((sub) => {
        if (this.closed) return sub.unsubscribe();
        this.subscriptions.push(sub);
        this.add(rel);
      })
      .catch((error: Error) => {
        this.brokenReason = `could not watch new folder ${rel}: ${error.message}`;
      });
    this.pendingSubtrees.push(pending);
  }

  /** Writes a barrier file and resolves true once its event arrived, false after the timeout. */
  private async barrier(): Promise<boolean> {
    const name = `${BARRIER_PREFIX}${process.pid}-${++this.barrierSeq}`;
    const file = join(this.gitDir, "ralph", name);
    let timer: NodeJS.Timeout | undefined;
    const seen = new Promise<boolean>((resolve) => {
      this.barrierWaiters.set(name, () => resolve(true));
      timer = setTimeout(() => resolve(false), this.options.barrierTimeoutMs);
    });
    try {
      writeFileSync(file, "");
    } catch (error) {
      this.barrierWaiters.delete(name);
      clearTimeout(timer);
      this.fullReason ??= `could not write the watcher's barrier file: ${(error as Error).message}`;
      return false;
    }
    const ok = await seen;
    clearTimeout(timer);
    this.barrierWaiters.delete(name);
    rmSync(file, { force: true });
    // Events of one batch reach their callbacks one after another: let the rest of the barrier's batch land.
    await new Promise((resolve) => setImmediate(resolve));
    return ok;
  }
}

let subscribeFn: Promise<Subscribe> | null = null;
/** The watcher library, loaded on first use (a process that never watches never loads its binary). */
function loadSubscribe(): Promise<Subscribe> {
  subscribeFn ??= import("@parcel/watcher").then((m) => (m.default?.subscribe ?? m.subscribe) as Subscribe);
  return subscribeFn;
}

function isInside(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function removeStaleBarriers(dir: string): void {
  try {
    for (const name of readdirSync(dir)) if (name.startsWith(BARRIER_PREFIX)) rmSync(join(dir, name), { force: true });
  } catch {
    /* nothing to remove */
  }
}

/**
 * The share of this user's inotify watches still free (0-1), counting the
 * watches this process holds against /proc/sys/user/max_inotify_watches;
 * null where that cannot be read (not Linux).
 */
export function watchHeadroom(): number | null {
  try {
    const limit = Number(readFileSync("/proc/sys/user/max_inotify_watches", "utf8"));
    let used = 0;
    for (const fd of readdirSync("/proc/self/fd")) {
      let link: string;
      try {
        link = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        continue;
      }
      if (!link.includes("inotify")) continue;
      for (const line of readFileSync(`/proc/self/fdinfo/${fd}`, "utf8").split("\n")) if (line.startsWith("inotify wd:")) used++;
    }
    return limit > 0 ? 1 - used / limit : null;
  } catch {
    return null;
  }
}
