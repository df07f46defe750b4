/**
 * Writing a stored tree back into the work tree.
 *
 * Only paths that differ between the current snapshot and the target are
 * touched (an unchanged file keeps its mtime). Files added since (and not
 * ignored) are removed, then emptied folders are pruned; ignored files and
 * gitlinks (submodules, nested repositories) are never touched. Every path
 * is validated first: no absolute paths, no `..` or `.git` components, no
 * write through a symlink, nothing outside the work tree root. Files are
 * written to a temp file under ralph's folder in `.git` (`tempDir`, so a
 * killed restore leaves nothing in the work tree) and renamed into place.
 * When that rename crosses file systems (EXDEV: the file's folder is another
 * mount), the temporary is written beside the file instead, after a marker
 * in `tempDir` names it: a snapshot leaves a marked temporary out and the
 * next ralph call that takes the lock removes it ({@link removeRestoreTemps}),
 * so a killed restore still leaves nothing a checkpoint stores. An existing
 * file keeps its permission bits (only the exec bit follows the target), a
 * recreated one gets the bits recorded in the checkpoint's `Ralph-Mode`
 * trailers, else git's default (0666/0777 minus umask).
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  constants as fsConstants,
  lstatSync,
  openSync,
  type Stats,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { decodePath, encodePath, fsPath } from "./path-bytes.js";
import { dirname, join } from "node:path";
import { RalphError, isErrno, withErrorPath } from "../errors.js";
import type { ObjectDatabase } from "./odb.js";
import type { TreeChange } from "./tree-diff.js";

/** What a restore did, or would do with `dryRun`. Paths are '/'-separated, relative to the work tree. */
export interface RestoreOutcome {
  written: string[];
  removed: string[];
  /** Paths left alone, with why (ignored file in the way, gitlink, folder with ignored content). */
  skipped: { path: string; reason: string }[];
}

/** Options of {@link applyRestore}. */
export interface RestoreOptions {
  /** Permission bits to give recreated files, from the target's Ralph-Mode trailers: path -> perm (e.g. 0o600). */
  perms?: ReadonlyMap<string, number>;
  dryRun?: boolean;
  /** Folder for temporaries (created when missing), on the work tree's file system: `.git/ralph/tmp`. Default: the file's own folder. */
  tempDir?: string;
  /**
   * Called with a path's current lstat right before an existing file or
   * symlink is removed or overwritten, so the caller can store it first when
   * it changed since the snapshot the changes came from (a concurrent writer).
   */
  beforeChange?: (path: string, st: Stats) => Stats | void;
  /**
   * Called after an existing regular file was removed or replaced, with a
   * read-only descriptor on the old file (opened before {@link beforeChange})
   * and the lstat `beforeChange` settled on (what the caller has stored): a
   * writer that had the old file open may have written to it after that last
   * look, and only this descriptor still reaches those bytes. The caller
   * closes nothing; `applyRestore` closes the descriptor after the call.
   */
  afterChange?: (path: string, fd: number, settled: Stats) => void;
}

/** A read-only descriptor on the regular file at `abs` (no symlink followed), or null when it cannot be opened. */
function holdOldFile(abs: string, st: Stats | null | undefined): number | null {
  if (!st || !st.isFile()) return null;
  try {
    return openSync(fsPath(abs), fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  } catch {
    return null; // unreadable or gone: beforeChange's own read decides
  }
}

/**
 * Calls afterChange for a held old file (only when the change happened:
 * `settled` is undefined when beforeChange threw) and closes it; never throws
 * for the close.
 */
function releaseOldFile(options: RestoreOptions, path: string, fd: number | null, settled: Stats | undefined): void {
  if (fd === null) return;
  try {
    if (settled) options.afterChange?.(path, fd, settled);
  } finally {
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
  }
}

/**
 * Rejects a tree path that could escape the work tree or reach into `.git`.
 * @throws RalphError E_UNSAFE_PATH
 */
export function assertSafePath(path: string): void {
  const bad = (why: string): never => {
    throw new RalphError("E_UNSAFE_PATH", `refusing to restore ${JSON.stringify(path)}: ${why}; the checkpoint may be corrupt or crafted`, {
      data: { path },
    });
  };
  if (path === "" || path.startsWith("/") || path.includes("\0")) bad("not a relative path");
  for (const part of path.split("/")) {
    if (part === "" || part === "." || part === "..") bad(`it has a '${part}' component`);
    if (part.toLowerCase() === ".git") bad("it writes into .git");
  }
}

/** lstat that returns undefined for a missing path (or a missing parent). */
function lstatOrNull(path: string): Stats | undefined {
  try {
    return lstatSync(fsPath(path), { throwIfNoEntry: false });
  } catch (error) {
    if (isErrno(error, "ENOTDIR")) return undefined;
    throw error;
  }
}

/** Removes empty folders from `dir` upward, stopping at the work tree root. */
function pruneEmptyParents(root: string, rel: string): void {
  for (let d = dirname(rel); d !== "." && d !== ""; d = dirname(d)) {
    try {
      rmdirSync(fsPath(join(root, d)));
    } catch {
      return; // not empty (ignored or other files), or already gone
    }
  }
}

/**
 * Ensures every ancestor folder of `rel` is a real folder inside the root,
 * creating missing ones. Returns a reason string when it cannot.
 */
function prepareParents(root: string, rel: string, dryRun: boolean): string | null {
  const parts = rel.split("/");
  let current = root;
  for (let i = 0; i < parts.length - 1; i++) {
    current = join(current, parts[i] as string);
    const st = lstatOrNull(current);
    if (!st) {
      if (!dryRun) mkdirSync(fsPath(current));
      continue;
    }
    if (st.isSymbolicLink()) return `its folder ${parts.slice(0, i + 1).join("/")} is a symlink (ralph never writes through symlinks)`;
    if (!st.isDirectory()) return `${parts.slice(0, i + 1).join("/")} is a file that is not part of the snapshot (ignored?)`;
  }
  return null;
}

/**
 * The file-system calls of a restore that tests replace to inject errors a
 * test machine cannot produce at will (EXDEV across mounts, ENOSPC) or moments
 * they cannot hit by timing (a write between two calls). Only the rename of a
 * temporary into place and the removal of a work tree file go through it.
 */
export const restoreFileSystem: { rename: (from: string | Buffer, to: string | Buffer) => void; unlink: (path: string | Buffer) => void } = {
  rename: (from, to) => renameSync(from, to),
  unlink: (path) => unlinkSync(path),
};

/** Prefix of every restore temporary's name: `.ralph-tmp-<12 hex>`. */
const TEMP_PREFIX = ".ralph-tmp-";
/** Suffix of a marker in the temp folder naming a temporary written beside its target (its content: the temporary's absolute path bytes). */
const MARKER_SUFFIX = ".pending";

/** The folder under ralph's folder in `.git` (`<git dir>/ralph`) where restores write their temporaries. */
export function restoreTempDirOf(ralphDir: string): string {
  return join(ralphDir, "tmp");
}

/** The temporaries (absolute path bytes) that markers in `tempDir` name, each checked to end in the marker's own temporary name. */
function markedTemps(tempDir: string): Buffer[] {
  let names: string[];
  try {
    names = readdirSync(tempDir);
  } catch {
    return []; // no temp folder: no restore ever ran, or nothing to do
  }
  const out: Buffer[] = [];
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX) || !name.endsWith(MARKER_SUFFIX)) continue;
    try {
      const temp = readFileSync(join(tempDir, name));
      // Only ever a file the restore named itself: the marker's own temporary name.
      const own = Buffer.from(`/${name.slice(0, -MARKER_SUFFIX.length)}`);
      if (temp.length > own.length && temp.subarray(temp.length - own.length).equals(own)) out.push(temp);
    } catch {
      /* removed meanwhile */
    }
  }
  return out;
}

/**
 * Removes what a killed restore left: every file in `tempDir`, and each
 * temporary beside a work tree file that a marker there names. Call it
 * holding the work tree's lock (no restore is running then). Never throws.
 */
export function removeRestoreTemps(tempDir: string): void {
  for (const temp of markedTemps(tempDir)) {
    try {
      unlinkSync(temp);
    } catch {
      /* never written, or already gone */
    }
  }
  let names: string[];
  try {
    names = readdirSync(tempDir);
  } catch {
    return;
  }
  for (const name of names) {
    try {
      unlinkSync(join(tempDir, name));
    } catch {
      /* gone, or not ours to remove */
    }
  }
}

/**
 * The work tree paths ('/'-separated, relative to `root`) of temporaries a
 * killed restore left beside their targets, as markers in `tempDir` name
 * them: a snapshot leaves them out until {@link removeRestoreTemps} runs.
 */
export function pendingRestoreTemps(tempDir: string, root: string): Set<string> {
  const out = new Set<string>();
  const prefix = Buffer.from(`${root}/`);
  for (const temp of markedTemps(tempDir)) {
    if (temp.length > prefix.length && temp.subarray(0, prefix.length).equals(prefix)) out.add(decodePath(temp, prefix.length));
  }
  return out;
}

/**
 * Where one restore puts its temporaries: in `tempDir` (on `.git`'s file
 * system), or beside the target, marked, for a target folder on another
 * file system (learned from the first EXDEV on that device, so each later
 * file there is written once).
 */
class TempPlacer {
  private readonly crossDevice = new Set<number>();

  constructor(private readonly tempDir: string | undefined) {}

  /** Creates a temporary with `create` and renames it over `abs`. */
  replace(abs: string, create: (temp: string) => void): void {
    const name = `${TEMP_PREFIX}${randomBytes(6).toString("hex")}`;
    const tempDir = this.tempDir;
    if (tempDir === undefined) return this.beside(abs, name, create, null);
    const dev = this.crossDevice.size === 0 ? -1 : statSync(fsPath(dirname(abs))).dev;
    if (!this.crossDevice.has(dev)) {
      mkdirSync(tempDir, { recursive: true });
      const temp = join(tempDir, name);
      try {
        // Named by its target in any error: the temporary is ralph's, the file (and its folder) the user's.
        withErrorPath(
          abs,
          () => {
            create(temp);
            restoreFileSystem.rename(temp, fsPath(abs));
          },
          true,
        );
        return;
      } catch (error) {
        try {
          unlinkSync(temp);
        } catch {
          /* never created */
        }
        if (!isErrno(error, "EXDEV")) throw error;
        this.crossDevice.add(statSync(fsPath(dirname(abs))).dev);
      }
    }
    this.beside(abs, name, create, join(tempDir, `${name}${MARKER_SUFFIX}`));
  }

  /** Writes the temporary in `abs`'s own folder (after `marker`, when given, names it) and renames it into place. */
  private beside(abs: string, name: string, create: (temp: string) => void, marker: string | null): void {
    const temp = join(dirname(abs), name);
    if (marker !== null) writeFileSync(marker, encodePath(temp));
    try {
      withErrorPath(
        abs,
        () => {
          create(temp);
          restoreFileSystem.rename(fsPath(temp), fsPath(abs));
        },
        true,
      );
    } catch (error) {
      try {
        unlinkSync(fsPath(temp));
      } catch {
        /* never created */
      }
      throw error;
    } finally {
      if (marker !== null) unlinkSync(marker);
    }
  }
}

function writeAtomically(abs: string, content: Buffer, perm: number, temps: TempPlacer): void {
  temps.replace(abs, (temp) => {
    writeFileSync(fsPath(temp), content, { mode: perm });
    chmodSync(fsPath(temp), perm); // the umask narrowed writeFileSync's mode
  });
}

function symlinkAtomically(abs: string, target: Buffer, temps: TempPlacer): void {
  temps.replace(abs, (temp) => symlinkSync(target, fsPath(temp)));
}

/**
 * Applies the changes that turn the current snapshot into the target
 * (`changes` = diffTrees(current, target)): D entries are removed, A/M/T
 * entries written.
 * @throws RalphError E_UNSAFE_PATH before touching anything when a path is unsafe.
 */
export function applyRestore(root: string, odb: ObjectDatabase, changes: readonly TreeChange[], options: RestoreOptions = {}): RestoreOutcome {
  const dryRun = options.dryRun ?? false;
  const outcome: RestoreOutcome = { written: [], removed: [], skipped: [] };
  for (const c of changes) assertSafePath(c.path);
  const umask = process.umask();
  const temps = new TempPlacer(options.tempDir);

  // 1. Removals, deepest first, so a folder that becomes a file is emptied first.
  const removals = changes.filter((c) => c.status === "D").sort((a, b) => b.path.split("/").length - a.path.split("/").length);
  for (const c of removals) {
    if (c.oldMode === "160000") {
      outcome.skipped.push({ path: c.path, reason: "gitlink (submodule or nested repository): never touched" });
      continue;
    }
    const abs = join(root, c.path);
    const st = lstatOrNull(abs);
    if (st && st.isDirectory()) {
      outcome.skipped.push({ path: c.path, reason: "is now a folder" });
      continue;
    }
    if (!dryRun && st) {
      const held = options.afterChange ? holdOldFile(abs, st) : null;
      let settled: Stats | undefined;
      try {
        settled = options.beforeChange?.(c.path, st) ?? st;
        restoreFileSystem.unlink(fsPath(abs));
      } finally {
        releaseOldFile(options, c.path, held, settled);
      }
      pruneEmptyParents(root, c.path);
    }
    outcome.removed.push(c.path);
  }

  // 2. Writes.
  const removed = new Set(outcome.removed);
  for (const c of changes) {
    if (c.status === "D") continue;
    if (c.newMode === "160000") {
      outcome.skipped.push({ path: c.path, reason: "gitlink (submodule or nested repository): never touched" });
      continue;
    }
    const abs = join(root, c.path);
    const blocked = prepareParents(root, c.path, dryRun);
    if (blocked) {
      outcome.skipped.push({ path: c.path, reason: blocked });
      continue;
    }
    const st = lstatOrNull(abs);
    if (st && c.status === "A" && !removed.has(c.path)) {
      // Present on disk but not in the current snapshot: ignored or over the size cap. Never touched.
      if (st.isDirectory()) outcome.skipped.push({ path: c.path, reason: "a folder with ignored content is in the way" });
      else outcome.skipped.push({ path: c.path, reason: "an ignored file is in the way" });
      continue;
    }
    if (st && st.isDirectory()) {
      outcome.skipped.push({ path: c.path, reason: "a folder with ignored content is in the way" });
      continue;
    }
    if (dryRun) {
      outcome.written.push(c.path);
      continue;
    }
    const obj = odb.read(c.newOid as string);
    // As late as possible: a writer that changed the file since the snapshot is caught up to this moment.
    const current = st ? lstatOrNull(abs) : undefined;
    const held = options.afterChange ? holdOldFile(abs, current) : null;
    let settled: Stats | undefined;
    try {
      settled = current ? (options.beforeChange?.(c.path, current) ?? current) : undefined;
      writeEntry(abs, c, obj.content, st, options, umask, temps);
    } finally {
      releaseOldFile(options, c.path, held, settled);
    }
    outcome.written.push(c.path);
  }
  return outcome;
}

/** Writes one A/M/T entry over `abs` (a symlink, a file's permission bits only, or a whole file). */
function writeEntry(abs: string, c: TreeChange, content: Buffer, st: Stats | undefined, options: RestoreOptions, umask: number, temps: TempPlacer): void {
  {
    const obj = { content };
    if (c.newMode === "120000") {
      symlinkAtomically(abs, obj.content, temps);
    } else {
      const wantExec = c.newMode === "100755";
      let perm: number;
      if (st && st.isFile()) {
        perm = st.mode & 0o7777;
        if (wantExec && !(perm & 0o100)) perm |= (perm & 0o444) >> 2;
        if (!wantExec) perm &= ~0o111;
      } else {
        perm = options.perms?.get(c.path) ?? (wantExec ? 0o777 : 0o666) & ~umask;
      }
      if (c.status === "T" && c.oldOid === c.newOid && st && st.isFile()) chmodSync(fsPath(abs), perm);
      else writeAtomically(abs, obj.content, perm, temps);
    }
  }
}
