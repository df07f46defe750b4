/**
 * The stat cache: what ralph learned about each path the last time it
 * looked, so an unchanged file is never read again. Kept per work tree at
 * `<gitDir>/ralph/stat-cache` and written atomically (temp file + rename);
 * a missing, foreign-version or corrupt cache is simply a cold start.
 *
 * An entry is trusted only when the file's lstat (mode, size, mtime, ctime,
 * inode) is identical and its mtime and ctime are older than the scan that
 * recorded it by more than {@link RACY_WINDOW_MS}: a file changed within the
 * same file-system clock tick as the scan could otherwise look unchanged
 * (git's "racy git" problem, Documentation/technical/racy-git.txt).
 * Folders are cached the same way: an unchanged folder stat means an
 * unchanged list of names, so it is not read again (the idea of git's
 * untracked cache).
 *
 * Every oid in the cache is reachable: the cache is persisted only by a
 * snapshot that became a checkpoint commit, or seeded from git's own index,
 * so `git gc` cannot prune what it points at while the checkpoint refs
 * exist.
 *
 * The file is columnar so that loading 30k entries allocates a handful of
 * arrays, not 30k objects: a JSON header line, then little-endian Float64
 * columns (per file: st_mode, size, mtimeMs, ctimeMs, ino; per folder:
 * mtimeMs, ctimeMs, ino), byte columns of git modes and path flags, and one block
 * of NUL-separated strings (paths, oids, rule keys, child names) in UTF-8
 * with path bytes that are not UTF-8 kept as they are (path-bytes.ts). Paths
 * never contain NUL (git forbids it). The file ends with the SHA-1 of all
 * that (checksum.ts): a cache whose checksum fails is a cold start, so one
 * changed digit cannot put a wrong oid into a checkpoint.
 */
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CHECKSUM_BYTES, verifiedBody, withChecksum } from "../checksum.js";
import { decodePath, encodePath } from "./path-bytes.js";

/** Margin for file-system timestamp granularity (a coarse kernel clock), in ms. */
export const RACY_WINDOW_MS = 20;

const FORMAT = "ralph-stat-cache";
const VERSION = 5; // 5: PathFlag.gitlinkMoved

/** Per-path flags: where the path came from, so an unchanged index need not be parsed again. */
export const PathFlag = {
  /** Listed in git's index. */
  tracked: 1,
  /** Tracked but not in the snapshot (deleted from disk, replaced by a folder, over the size cap): no oid. */
  absent: 2,
  /** Tracked with skip-worktree (sparse checkout): git's oid and mode stand for it. */
  skipWorktree: 4,
  /** A tracked submodule (gitlink in the index). */
  gitlink: 8,
  /**
   * A tracked submodule recorded at something other than the index's commit
   * (its repository's HEAD moved, or a file replaced it): the recorded oid is
   * not the index's, so the index is read for it when it is needed.
   */
  gitlinkMoved: 16,
} as const;
const FILE_NUMS = 5;
/** One character per child: kind (f d l o) x ignored x tracked, 16 combinations. */
const CHILD_FLAG = "abcdefghijklmnop";
const CHILD_KINDS = ["f", "d", "l", "o"] as const;
const DIR_NUMS = 3;

/** git modes as stored in the byte column. */
const GIT_MODES = ["100644", "100755", "120000", "160000"] as const;
/** A file entry's git mode. */
export type GitFileMode = (typeof GIT_MODES)[number];

/** A child of a cached folder. kind: f file, d folder, l symlink, o other (fifo, socket…). */
export interface CachedChild {
  name: string;
  kind: "f" | "d" | "l" | "o";
  ignored: boolean;
  /** Tracked by git's index as it was when listed (valid while the index is unchanged: {@link StatCache.indexKey}). */
  tracked: boolean;
}

/** A folder as last listed. */
export interface CachedDir {
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
  /** Hash of the ignore sources that apply here (ancestors' and its own .gitignore stats); ignored flags are valid only while it is equal. */
  rulesKey: string;
  /** The folder holds a `.git`: a nested repository, recorded as a gitlink. */
  isRepo: boolean;
  children: CachedChild[];
}

/** Read side: the cache as loaded. Lookups by path; stats live in a Float64Array. */
export class StatCache {
  /** When the scan that produced this cache started, ms since the epoch (0 for an empty cache). */
  readonly scanStartMs: number;
  /** Folder -> tree oid of the last committed snapshot ('' = root). */
  readonly trees: Map<string, string>;
  /** The stat of `.git/index` when this cache was made ("" when unknown); equal means the tracked flags still hold. */
  readonly indexKey: string;
  /**
   * The checkpoint commit that keeps this cache's oids reachable, and the ref
   * it was written to ("" when the oids came only from git's index). If the
   * ref no longer leads to that commit, `git gc` may have pruned them.
   */
  anchor: { ref: string; oid: string } = { ref: "", oid: "" };
  readonly dirs: Map<string, CachedDir>;
  private readonly paths: string[];
  private readonly oids: string[];
  private readonly modes: Uint8Array;
  private readonly flags: Uint8Array;
  private readonly nums: Float64Array;
  private index: Map<string, number> | null = null;

  constructor(
    scanStartMs: number,
    indexKey: string,
    paths: string[],
    oids: string[],
    modes: Uint8Array,
    flags: Uint8Array,
    nums: Float64Array,
    dirs: Map<string, CachedDir>,
    trees: Map<string, string>,
  ) {
    this.scanStartMs = scanStartMs;
    this.indexKey = indexKey;
    this.paths = paths;
    this.oids = oids;
    this.modes = modes;
    this.flags = flags;
    this.nums = nums;
    this.dirs = dirs;
    this.trees = trees;
  }

  /** This cache without anything that names an object (oids, trees, the index view): what is left when its anchor is gone. */
  withoutObjects(): StatCache {
    return new StatCache(this.scanStartMs, "", [], [], new Uint8Array(0), new Uint8Array(0), new Float64Array(0), this.dirs, new Map());
  }

  /**
   * Another handle on the same loaded cache: the columns (never written after
   * loading) and the path index are shared, the mutable {@link anchor} is
   * this handle's own. What a warm process hands out for a cache file it
   * already decoded (see {@link loadStatCache}).
   */
  reuse(): StatCache {
    const copy = new StatCache(this.scanStartMs, this.indexKey, this.paths, this.oids, this.modes, this.flags, this.nums, this.dirs, this.trees);
    copy.anchor = { ...this.anchor };
    this.find(""); // builds the path index once, for every handle
    copy.index = this.index;
    return copy;
  }

  /** An empty cache (a cold start). */
  static empty(): StatCache {
    return new StatCache(0, "", [], [], new Uint8Array(0), new Uint8Array(0), new Float64Array(0), new Map(), new Map());
  }

  /** Number of path entries. */
  get size(): number {
    return this.paths.length;
  }

  /** The slot of `path`, or -1. */
  find(path: string): number {
    if (this.index === null) {
      this.index = new Map();
      for (let i = 0; i < this.paths.length; i++) this.index.set(this.paths[i] as string, i);
    }
    return this.index.get(path) ?? -1;
  }

  /** The path recorded at a slot. */
  pathAt(slot: number): string {
    return this.paths[slot] as string;
  }

  /** The oid recorded at a slot. */
  oidAt(slot: number): string {
    return this.oids[slot] as string;
  }

  /** The {@link PathFlag} bits recorded at a slot. */
  flagsAt(slot: number): number {
    return this.flags[slot] as number;
  }

  /** The git mode recorded at a slot. */
  gitModeAt(slot: number): GitFileMode {
    return GIT_MODES[this.modes[slot] as number] as GitFileMode;
  }

  /** The st_mode (file type and permission bits) recorded at a slot; 0 for entries with no stat of their own. */
  stModeAt(slot: number): number {
    return this.nums[slot * FILE_NUMS] as number;
  }

  /**
   * Copies the entry at `slot` into `builder` as it is (path, oid, git mode,
   * flags and stat): a path known unchanged without looking at it (a file
   * watcher saw no event for it, src/store/dirty-paths.ts).
   */
  copyTo(slot: number, builder: StatCacheBuilder): void {
    const o = slot * FILE_NUMS;
    const n = this.nums;
    builder.addSlot(
      this.paths[slot] as string,
      this.modes[slot] as number,
      this.oids[slot] as string,
      this.flags[slot] as number,
      n[o] as number,
      n[o + 1] as number,
      n[o + 2] as number,
      n[o + 3] as number,
      n[o + 4] as number,
    );
  }

  /**
   * True when the stat at `slot` equals the given one and is not racily
   * clean (mtime and ctime older than this cache's scan by more than
   * {@link RACY_WINDOW_MS}).
   */
  isFresh(slot: number, mode: number, size: number, mtimeMs: number, ctimeMs: number, ino: number): boolean {
    const o = slot * FILE_NUMS;
    const n = this.nums;
    const limit = this.scanStartMs - RACY_WINDOW_MS;
    return n[o] === mode && n[o + 1] === size && n[o + 2] === mtimeMs && n[o + 3] === ctimeMs && n[o + 4] === ino && mtimeMs < limit && ctimeMs < limit;
  }
}

/** Write side: collects the entries of a new scan. */
export class StatCacheBuilder {
  readonly scanStartMs: number;
  /** See {@link StatCache.indexKey}. */
  indexKey = "";
  /** See {@link StatCache.anchor}. */
  anchor: { ref: string; oid: string } = { ref: "", oid: "" };
  readonly dirs = new Map<string, CachedDir>();
  trees = new Map<string, string>();
  private readonly paths: string[] = [];
  private readonly oids: string[] = [];
  private readonly modes: number[] = [];
  private readonly flags: number[] = [];
  private readonly nums: number[] = [];

  constructor(scanStartMs: number) {
    this.scanStartMs = scanStartMs;
  }

  /**
   * Records a path; stat fields are 0 for entries with no stat of their own
   * (gitlinks, sparse entries, absent tracked paths): those are never fresh.
   * `flags` are {@link PathFlag} bits.
   */
  add(path: string, gitMode: GitFileMode, oid: string, flags: number, mode: number, size: number, mtimeMs: number, ctimeMs: number, ino: number): void {
    this.paths.push(path);
    this.oids.push(oid);
    this.modes.push(GIT_MODES.indexOf(gitMode));
    this.flags.push(flags);
    this.nums.push(mode, size, mtimeMs, ctimeMs, ino);
  }

  /** {@link add} with the git mode as its index in the byte column (what {@link StatCache.copyTo} has at hand). */
  addSlot(path: string, modeIndex: number, oid: string, flags: number, mode: number, size: number, mtimeMs: number, ctimeMs: number, ino: number): void {
    this.paths.push(path);
    this.oids.push(oid);
    this.modes.push(modeIndex);
    this.flags.push(flags);
    this.nums.push(mode, size, mtimeMs, ctimeMs, ino);
  }

  /**
   * The lstat recorded for `path` by this scan (mode, size in bytes, mtime
   * and ctime in ms, inode), or undefined when the path has none (not
   * recorded, a gitlink, sparse or absent entry, or a new object of an
   * unanchored snapshot).
   */
  statOf(path: string): { mode: number; size: number; mtimeMs: number; ctimeMs: number; ino: number } | undefined {
    if (this.slots === null || this.slots.size !== this.paths.length) {
      this.slots = new Map();
      for (let i = 0; i < this.paths.length; i++) this.slots.set(this.paths[i] as string, i);
    }
    const slot = this.slots.get(path);
    if (slot === undefined) return undefined;
    const n = this.nums;
    const o = slot * FILE_NUMS;
    if (n[o] === 0 && n[o + 4] === 0) return undefined;
    return { mode: n[o] as number, size: n[o + 1] as number, mtimeMs: n[o + 2] as number, ctimeMs: n[o + 3] as number, ino: n[o + 4] as number };
  }

  private slots: Map<string, number> | null = null;

  /** Serialises the cache (see the module doc for the layout). */
  encode(): Buffer {
    const strings: string[] = [];
    const dirNums: number[] = [];
    const dirFlags: number[] = [];
    for (const p of this.paths) strings.push(p);
    for (const o of this.oids) strings.push(o);
    for (const [path, d] of this.dirs) {
      strings.push(
        path,
        d.rulesKey,
        d.children.map((c) => c.name).join("/"),
        d.children.map((c) => CHILD_FLAG[(c.kind === "f" ? 0 : c.kind === "d" ? 4 : c.kind === "l" ? 8 : 12) + (c.ignored ? 1 : 0) + (c.tracked ? 2 : 0)]).join(""),
      );
      dirNums.push(d.mtimeMs, d.ctimeMs, d.ino);
      dirFlags.push(d.isRepo ? 1 : 0);
    }
    for (const [path, oid] of this.trees) strings.push(path, oid);
    const header = {
      format: FORMAT,
      version: VERSION,
      scanStartMs: this.scanStartMs,
      indexKey: this.indexKey,
      anchorRef: this.anchor.ref,
      anchorOid: this.anchor.oid,
      files: this.paths.length,
      dirs: this.dirs.size,
      trees: this.trees.size,
    };
    const headerBytes = Buffer.from(`${JSON.stringify(header)}\n`);
    const pad = (8 - (headerBytes.length % 8)) % 8;
    return withChecksum(
      Buffer.concat([
        headerBytes,
        Buffer.alloc(pad, 0x20),
        Buffer.from(new Float64Array(this.nums).buffer),
        Buffer.from(new Float64Array(dirNums).buffer),
        Buffer.from(Uint8Array.from(this.modes)),
        Buffer.from(Uint8Array.from(this.flags)),
        Buffer.from(Uint8Array.from(dirFlags)),
        encodePath(strings.join("\0")),
      ]),
    );
  }
}

/**
 * The last cache file each path decoded to, keyed by the file's identity
 * (device, inode, size, mtime, ctime) and its trailing SHA-1: the cache is
 * written by temp file and rename, so a new write is a new inode or, when
 * the inode number is reused within one clock tick at the same size, a new
 * checksum; an equal key means the same bytes. A warm process (src/daemon/) decodes each cache file once; a
 * one-shot process never hits it.
 */
const decoded = new Map<string, { key: string; cache: StatCache }>();

/** Loads the cache at `path`; any problem (absent, other version, corrupt) gives an empty cache. */
export function loadStatCache(path: string): StatCache {
  let buf: Buffer;
  let key: string;
  let fd: number | null = null;
  try {
    // fstat of the open file: the key describes exactly the bytes read.
    fd = openSync(path, "r");
    const st = fstatSync(fd, { bigint: true });
    // The file's identity and its trailing checksum (the SHA-1 of its body, checksum.ts): an inode reused by the next
    // write within one coarse kernel clock tick, at the same size, still has another checksum.
    const trailer = Buffer.alloc(CHECKSUM_BYTES);
    const size = Number(st.size);
    if (size >= CHECKSUM_BYTES) readSync(fd, trailer, 0, CHECKSUM_BYTES, size - CHECKSUM_BYTES);
    key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${trailer.toString("hex")}`;
    const known = decoded.get(path);
    if (known !== undefined && known.key === key) return known.cache.reuse();
    buf = readFileSync(fd);
  } catch {
    decoded.delete(path);
    return StatCache.empty();
  } finally {
    if (fd !== null) closeSync(fd);
  }
  try {
    const cache = decodeStatCache(buf);
    decoded.set(path, { key, cache: cache.reuse() });
    return cache;
  } catch {
    decoded.delete(path);
    return StatCache.empty();
  }
}

/** Decodes a serialised cache. Throws on any inconsistency, a failed checksum first (callers treat that as a cold start). */
export function decodeStatCache(file: Buffer): StatCache {
  const buf = verifiedBody(file);
  if (buf === null) throw new Error("stat cache checksum mismatch");
  const nl = buf.indexOf(0x0a);
  const header = JSON.parse(buf.subarray(0, nl).toString("utf8")) as Record<string, number | string>;
  if (header.format !== FORMAT || header.version !== VERSION) throw new Error("foreign stat cache");
  const files = Number(header.files);
  const dirCount = Number(header.dirs);
  const treeCount = Number(header.trees);
  let pos = nl + 1;
  pos += (8 - (pos % 8)) % 8;
  const take = (bytes: number): Buffer => {
    if (pos + bytes > buf.length) throw new Error("truncated stat cache");
    const out = buf.subarray(pos, pos + bytes);
    pos += bytes;
    return out;
  };
  const copy = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
  const nums = new Float64Array(copy(take(files * FILE_NUMS * 8)));
  const dirNums = new Float64Array(copy(take(dirCount * DIR_NUMS * 8)));
  const modes = new Uint8Array(copy(take(files)));
  const flags = new Uint8Array(copy(take(files)));
  const dirFlags = take(dirCount);
  const strings = decodePath(buf, pos).split("\0");
  if (strings.length !== (files > 0 || dirCount > 0 || treeCount > 0 ? files * 2 + dirCount * 4 + treeCount * 2 : 1)) throw new Error("bad string table");
  const paths = strings.slice(0, files);
  const oids = strings.slice(files, files * 2);
  let s = files * 2;
  const dirs = new Map<string, CachedDir>();
  for (let d = 0; d < dirCount; d++) {
    const path = strings[s++] as string;
    const rulesKey = strings[s++] as string;
    const names = strings[s++] as string;
    const flags = strings[s++] as string;
    const children: CachedChild[] = [];
    if (flags.length > 0) {
      const list = names.split("/");
      for (let c = 0; c < flags.length; c++) {
        const bits = CHILD_FLAG.indexOf(flags[c] as string);
        if (bits < 0) throw new Error("bad child flag");
        children.push({ name: list[c] as string, kind: CHILD_KINDS[bits >> 2] as CachedChild["kind"], ignored: (bits & 1) === 1, tracked: (bits & 2) === 2 });
      }
    }
    dirs.set(path, {
      mtimeMs: dirNums[d * DIR_NUMS] as number,
      ctimeMs: dirNums[d * DIR_NUMS + 1] as number,
      ino: dirNums[d * DIR_NUMS + 2] as number,
      rulesKey,
      isRepo: dirFlags[d] === 1,
      children,
    });
  }
  const trees = new Map<string, string>();
  for (let t = 0; t < treeCount; t++) trees.set(strings[s++] as string, strings[s++] as string);
  const cache = new StatCache(Number(header.scanStartMs), String(header.indexKey ?? ""), paths, oids, modes, flags, nums, dirs, trees);
  cache.anchor = { ref: String(header.anchorRef ?? ""), oid: String(header.anchorOid ?? "") };
  return cache;
}

/** A `stat-cache.<hex>.tmp` older than this was left by a killed process (a save takes milliseconds), in ms. */
const STALE_TEMP_MS = 60_000;

/**
 * Writes a cache atomically (temp file in the same folder, then rename),
 * and removes temp files of killed saves (older than a minute).
 */
export function saveStatCache(path: string, builder: StatCacheBuilder): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temp, builder.encode());
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  removeStaleTemps(path);
}

function removeStaleTemps(path: string): void {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > STALE_TEMP_MS) rmSync(join(dir, name), { force: true });
    } catch {
      /* removed meanwhile */
    }
  }
}
