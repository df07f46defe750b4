/**
 * How a warm process (src/daemon/server.ts, docs/decisions/0003-warm-process.md)
 * hands its file watcher's dirty paths (src/store/dirty-paths.ts) to the
 * snapshots of one request, without process globals: the request's
 * {@link RuntimeEnv.warmScan} carries a {@link WarmScan}, every store opened
 * with that environment sees it through `repo.env`, and `snapshotWorkTree`
 * asks it for the dirty set of its scan.
 *
 * Correctness never rests on the watcher: a scan without a set, or with a
 * set the stat cache cannot be combined with (snapshot.ts useDirtySet), is a
 * full scan; the set is handed to one snapshot only (a later snapshot of the
 * same request may follow writes of the request itself, which the set does
 * not hold), and a set not consumed is carried into the next request's.
 */
import type { DirtyPaths } from "./dirty-paths.js";
import type { DirtyPathSet } from "./snapshot.js";

/** The per-request link between a warm process's watcher and the snapshots of that request. */
export interface WarmScan {
  /**
   * The dirty set for the snapshot of the work tree `workTree` (the
   * repository's root, as `Repository.workTree` has it) about to start, or
   * undefined (scan in full): always undefined for another work tree (a
   * nested repository the request's cwd lies in). The first call of a
   * request for the watched work tree hands the set out; later calls
   * return undefined.
   */
  takeDirty(workTree: string): DirtyPathSet | undefined;
  /**
   * Tells the warm process that the on-disk stat cache of `workTree` now
   * stands for a scan that began at `scanStartMs` (ms since the epoch): it
   * was saved, or confirmed unchanged (snapshot.ts commitStatCache).
   */
  persisted(workTree: string, scanStartMs: number): void;
  /**
   * Whether a hook that names the files its tool wrote may checkpoint only
   * those (the fast path, checkpoint-store.ts checkpointPaths): false when
   * the warm process's watcher saw other changes since the last scan, so
   * the whole work tree is checkpointed (through the dirty set). Undefined
   * (a cold process): true, as before.
   */
  readonly namedPathsSuffice?: boolean;
}

/** More carried paths than this and the next snapshot scans in full (the watcher's own limit: dirty-paths.ts maxPaths). */
export const MAX_CARRIED_PATHS = 4096;

/**
 * The dirty paths a warm process owes to its next snapshot: the union of
 * the watcher's takes since the stat cache was last persisted by a scan
 * that began after the latest take, or "full" when one of them was. Pure
 * bookkeeping (no watcher, no file system), so its rules are unit-tested on
 * their own (test/store/warm-scan.test.ts).
 */
export class DirtySetLedger {
  /** @param workTree the watched work tree's root (real path): sets are handed only to snapshots of it. */
  constructor(readonly workTree: string) {}

  /** The owed set: "none" (nothing owed beyond the next take), "full", or the carried union. */
  private owed: DirtyPathSet | "none" | "full" = "full";
  /** When the latest take was made, ms since the epoch (0 before the first). */
  private lastTakeMs = 0;

  /**
   * Adds a take of the watcher made at `takenMs` (ms since the epoch, read
   * right after the take resolved) and returns the request's {@link WarmScan}.
   */
  add(take: DirtyPaths, takenMs: number): WarmScan {
    this.lastTakeMs = takenMs;
    if (take.kind === "full") this.owed = "full";
    else if (this.owed === "none") this.owed = { paths: new Set(take.paths), sinceMs: take.sinceMs };
    else if (this.owed !== "full") {
      const paths = new Set(this.owed.paths);
      for (const path of take.paths) paths.add(path);
      this.owed = paths.size > MAX_CARRIED_PATHS ? "full" : { paths, sinceMs: this.owed.sinceMs };
    }
    let handed = false;
    return {
      takeDirty: (workTree) => {
        if (handed || workTree !== this.workTree) return undefined;
        handed = true;
        const owed = this.owed;
        return typeof owed === "string" ? undefined : owed;
      },
      persisted: (workTree, scanStartMs) => {
        if (workTree === this.workTree) this.persisted(scanStartMs);
      },
    };
  }

  /** The on-disk stat cache stands for a scan begun at `scanStartMs`: what the takes up to then held is no longer owed. */
  persisted(scanStartMs: number): void {
    if (this.lastTakeMs > 0 && scanStartMs >= this.lastTakeMs) this.owed = "none";
  }

  /** What is owed now (for tests and `ralph daemon status`): "none", "full" or the number of carried paths. */
  get owedPaths(): "none" | "full" | number {
    return typeof this.owed === "string" ? this.owed : this.owed.paths.size;
  }
}
