/**
 * The stat cache: what ralph learned about each file the last time it
 * looked, so an unchanged file is never read again. Kept per work tree at
 * `<gitDir>/ralph/stat-cache` and written atomically (temp file + rename);
 * a missing, foreign-version or corrupt cache is simply a cold start.
 *
 * An entry is trusted only when the file's lstat (mode, size, mtime, ctime,
 * inode) is identical and its mtime is older than the scan that recorded it
 * by more than {@link RACY_WINDOW_MS}: a file changed within the same
 * file-system clock tick as the scan could otherwise look unchanged (git's
 * "racy git" problem, Documentation/technical/racy-git.txt). Directories are
 * cached the same way: an unchanged directory stat means an unchanged list
 * of names, so it is not read again (git's untracked cache idea).
 *
 * Format (version 1): a header line `ralph-stat-cache 1 <scanStartMs>\n`,
 * then NUL-separated fields: `F` records (path, git mode, oid, size,
 * mtimeMs, ctimeMs, ino, st_mode), `D` records (path, mtimeMs, ctimeMs, ino,
 * rulesKey, isRepo 0/1, child count, then per child: name, kind f|d|l|o,
 * ignored 0/1) and `T` records (folder path, tree oid of the last committed
 * snapshot). Paths never contain NUL (git forbids it), so NUL is a safe
 * separator.
 *
 * Every oid in the cache is reachable: blob and tree oids are recorded only
 * by a snapshot that became a checkpoint commit, or seeded from git's own
 * index, so `git gc` cannot prune what the cache points at while the
 * checkpoint refs exist.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { randomBytes } from "node:crypto";

/** Margin for file-system timestamp granularity (coarse kernel clock), in ms. */
export const RACY_WINDOW_MS = 20;

/** The stat fields compared to decide that a file or folder is unchanged. */
export interface StatKey {
  mode: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** A file (or symlink, or gitlink) as last seen: its stat and its git mode and blob oid. */
export interface CachedFile extends StatKey {
  /** git mode as text: "100644", "100755", "120000", "160000". */
  gitMode: string;
  oid: string;
}

/** A child in a cached directory listing. kind: f file, d directory, l symlink, o other. */
export interface CachedChild {
  name: string;
  kind: "f" | "d" | "l" | "o";
  ignored: boolean;
}

/** A directory as last listed. */
export interface CachedDir {
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** Hash of the ignore sources that apply to this folder (ancestors' and its own .gitignore stats); ignored flags are valid only while it is equal. */
  rulesKey: string;
  /** The directory holds a `.git`: a nested repository, recorded as a gitlink. */
  isRepo: boolean;
  children: CachedChild[];
}

/** The whole cache. */
export interface StatCache {
  /** When the scan that produced this cache started, ms since the epoch. */
  scanStartMs: number;
  files: Map<string, CachedFile>;
  dirs: Map<string, CachedDir>;
  /** Tree oid of each folder ('' = root) in the last committed snapshot. */
  trees: Map<string, string>;
}

const MAGIC = "ralph-stat-cache 1";

/** An empty cache (a cold start). */
export function emptyStatCache(): StatCache {
  return { scanStartMs: 0, files: new Map(), dirs: new Map(), trees: new Map() };
}

/** True when a cached stat still describes the file and is not racily clean. */
export function isStatFresh(cached: StatKey, current: StatKey, scanStartMs: number): boolean {
  return (
    cached.mtimeMs === current.mtimeMs &&
    cached.ctimeMs === current.ctimeMs &&
    cached.size === current.size &&
    cached.ino === current.ino &&
    cached.mode === current.mode &&
    current.mtimeMs < scanStartMs - RACY_WINDOW_MS &&
    current.ctimeMs < scanStartMs - RACY_WINDOW_MS
  );
}

/** Loads the cache at `path`; any problem (absent, other version, corrupt) gives an empty cache. */
export function loadStatCache(path: string): StatCache {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return emptyStatCache();
  }
  try {
    return parseStatCache(text);
  } catch {
    return emptyStatCache();
  }
}

function parseStatCache(text: string): StatCache {
  const nl = text.indexOf("\n");
  const header = text.slice(0, nl).split(" ");
  if (nl < 0 || `${header[0]} ${header[1]}` !== MAGIC) return emptyStatCache();
  const cache: StatCache = {
    scanStartMs: Number(header[2]),
    files: new Map(),
    dirs: new Map(),
    trees: new Map(),
  };
  const t = text.slice(nl + 1).split("\0");
  let i = 0;
  while (i < t.length - 1) {
    const tag = t[i++];
    if (tag === "F") {
      const path = t[i++] as string;
      const gitMode = t[i++] as string;
      const oid = t[i++] as string;
      const size = Number(t[i++]);
      const mtimeMs = Number(t[i++]);
      const ctimeMs = Number(t[i++]);
      const ino = Number(t[i++]);
      const mode = Number(t[i++]);
      cache.files.set(path, { gitMode, oid, size, mtimeMs, ctimeMs, ino, mode });
    } else if (tag === "D") {
      const path = t[i++] as string;
      const mtimeMs = Number(t[i++]);
      const ctimeMs = Number(t[i++]);
      const ino = Number(t[i++]);
      const rulesKey = t[i++] as string;
      const isRepo = t[i++] === "1";
      const count = Number(t[i++]);
      const children: CachedChild[] = [];
      for (let c = 0; c < count; c++) {
        const name = t[i++] as string;
        const kind = t[i++] as CachedChild["kind"];
        const ignored = t[i++] === "1";
        children.push({ name, kind, ignored });
      }
      cache.dirs.set(path, { mtimeMs, ctimeMs, ino, rulesKey, isRepo, children });
    } else if (tag === "T") {
      const path = t[i++] as string;
      cache.trees.set(path, t[i++] as string);
    } else {
      throw new Error(`bad stat cache record ${tag}`);
    }
  }
  return cache;
}

/** Writes the cache atomically (temp file in the same folder, then rename). */
export function saveStatCache(path: string, cache: StatCache): void {
  const parts: string[] = [`${MAGIC} ${cache.scanStartMs}\n`];
  for (const [p, f] of cache.files) {
    parts.push("F", p, f.gitMode, f.oid, String(f.size), String(f.mtimeMs), String(f.ctimeMs), String(f.ino), String(f.mode));
  }
  for (const [p, d] of cache.dirs) {
    parts.push("D", p, String(d.mtimeMs), String(d.ctimeMs), String(d.ino), d.rulesKey, d.isRepo ? "1" : "0", String(d.children.length));
    for (const c of d.children) parts.push(c.name, c.kind, c.ignored ? "1" : "0");
  }
  for (const [p, oid] of cache.trees) parts.push("T", p, oid);
  parts.push("");
  // The header ends in "\n"; the records are joined by NUL.
  const body = parts[0] + parts.slice(1).join("\0");
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  writeFileSync(temp, body, "utf8");
  renameSync(temp, path);
}
