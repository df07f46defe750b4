/**
 * The object database of one repository, read and written synchronously:
 * loose objects (`objects/xx/yyyy…`, zlib-deflated "<type> <size>\0<content>"),
 * packs (./pack.ts) and `objects/info/alternates`. Plus encoders and parsers
 * of the two object formats the checkpoint store builds: trees and commits.
 *
 * Formats: git's Documentation/gitformat-pack.txt (packs),
 * Documentation/gitrepository-layout.txt ("objects", "objects/info/alternates"),
 * Documentation/git-hash-object.txt and git's object-file.c (loose objects),
 * Documentation/gitformat-signature.txt and commit.c (commit headers).
 *
 * Not used: multi-pack-index, commit-graph, the "virtual" empty tree that git
 * pretends exists (write it like any other tree), GIT_ALTERNATE_OBJECT_DIRECTORIES,
 * core.sharedRepository permissions, SHA-256 repositories.
 */
import { createHash, randomBytes } from "node:crypto";
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { deflateSync, inflateSync } from "node:zlib";
import { RalphError, isErrno, withErrorPath } from "../errors.js";
import { debug, warn } from "../log.js";
import { decodePath, encodePath } from "./path-bytes.js";
import {
  ByteBudgetCache,
  DEFAULT_DELTA_BASE_CACHE_BYTES,
  DEFAULT_MAX_DELTA_DEPTH,
  DEFAULT_PACK_WINDOW_CACHE_BYTES,
  DeltaBaseCache,
  PackDirectory,
  PackMissingError,
  oidToBytes,
  type PackReadOptions,
} from "./pack.js";

/** The four object types of git (gitformat-pack "Object types"). */
export type ObjectType = "blob" | "tree" | "commit" | "tag";

/**
 * An object's type and content (without the "<type> <size>\0" header).
 * `content` may be shared with the reader's delta base cache: treat it as
 * read-only.
 */
export interface GitObject {
  type: ObjectType;
  content: Buffer;
}

/** Options of an {@link ObjectDatabase}: the pack reader's cache budget and delta depth limit. */
export type ObjectDatabaseOptions = PackReadOptions & {
  /** Whether {@link ObjectDatabase.syncWritten} fsyncs (src/runtime-env.ts `fsync`, `RALPH_FSYNC`); default true. */
  fsync?: boolean;
};

const OBJECT_TYPES: ReadonlySet<string> = new Set<ObjectType>(["blob", "tree", "commit", "tag"]);
const HEX_OID = /^[0-9a-f]{40}$/;
/** Alternates may chain; git stops following them past this depth. */
const MAX_ALTERNATE_DEPTH = 5;
/** git's core.looseCompression default: Z_BEST_SPEED. */
const LOOSE_COMPRESSION_LEVEL = 1;

interface ObjectSource {
  objectsDir: string;
  packs: PackDirectory;
}

const corrupt = (message: string, data: Record<string, unknown>, cause?: unknown): RalphError => new RalphError("E_CORRUPT", message, { data, cause });

/**
 * Loose and packed objects of one repository: the objects directory of the
 * *common* git dir (so linked worktrees share it) plus everything its
 * `objects/info/alternates` names, recursively up to depth 5 as git does.
 *
 * Lookups search packs first (a binary search in memory), then loose
 * objects, then rescan the pack directories once (a concurrent `git gc` may
 * have packed the object meanwhile). Writes go to the repository's own
 * objects directory only. Holds pack file descriptors open: call
 * {@link close} when done in a long-lived process.
 */
export class ObjectDatabase {
  /** The repository's own objects directory (absolute). */
  readonly objectsDir: string;
  private readonly cache: DeltaBaseCache;
  private readonly windows: ByteBudgetCache<Buffer>;
  private readonly maxDeltaDepth: number;
  private loadedSources: ObjectSource[] | null = null;
  private readonly freshenedPacks = new Set<string>();
  /** Loose objects written (or met half-written by a concurrent writer) since the last {@link syncWritten}, and their folders. */
  private unsynced: string[] = [];
  private unsyncedDirs = new Set<string>();
  /** Whether {@link syncWritten} fsyncs: yes unless `RALPH_FSYNC` is "0", "off" or "false" (like git's `core.fsync=none`). */
  readonly fsync: boolean;

  /**
   * `objectsDir` is `<common git dir>/objects`. Nothing is read until the
   * first lookup; a missing directory behaves as an empty database for reads.
   */
  constructor(objectsDir: string, options: ObjectDatabaseOptions = {}) {
    this.objectsDir = resolve(objectsDir);
    this.fsync = options.fsync ?? true;
    this.cache = new DeltaBaseCache(options.deltaBaseCacheBytes ?? DEFAULT_DELTA_BASE_CACHE_BYTES);
    this.windows = new ByteBudgetCache<Buffer>(options.packWindowCacheBytes ?? DEFAULT_PACK_WINDOW_CACHE_BYTES, (b) => b.length);
    this.maxDeltaDepth = options.maxDeltaDepth ?? DEFAULT_MAX_DELTA_DEPTH;
  }

  /** SHA-1 of "<type> <length>\0<content>", lowercase hex: the object id git gives this content. */
  static hash(type: ObjectType, content: Buffer): string {
    return createHash("sha1").update(`${type} ${content.length}\0`, "latin1").update(content).digest("hex");
  }

  /**
   * Reads an object, or returns null when no source has it (after one
   * rescan of the pack directories). Throws RalphError E_CORRUPT for a
   * loose object that does not inflate, has a bad header or hashes to
   * another id, and for a malformed pack entry or delta chain;
   * E_INTERNAL for an `oid` that is not 40 lowercase hex digits.
   */
  tryRead(oid: string): GitObject | null {
    return this.readAtDepth(oid, 0);
  }

  /** As {@link tryRead}, but a missing object throws E_CORRUPT "object <oid> is missing". */
  read(oid: string): GitObject {
    const found = this.tryRead(oid);
    if (found === null) throw corrupt(`object ${oid} is missing`, { oid });
    return found;
  }

  /** True when a loose or packed copy of the object exists in any source (rescanning packs once before saying no). */
  has(oid: string): boolean {
    const raw = oidToBytes(oid);
    if (this.findPacked(raw) !== null || this.findLoose(oid) !== null) return true;
    return this.rescanPacks() && this.findPacked(raw) !== null;
  }

  /**
   * Stores an object as a loose object and returns its id. If the object
   * already exists (loose or packed, here or in an alternate) it is only
   * "freshened" (mtime set to now, as git does, so a concurrent
   * `git gc --prune` keeps it) and nothing is written.
   *
   * Crash and race safety: the deflated bytes go to `objects/xx/tmp_obj_*`
   * (the name `git prune` cleans up), created 0444, and are hard-linked to
   * the final name only once complete (rename where hard links are not
   * supported). A concurrent writer of the same object meets EEXIST, which
   * is success: both wrote the same bytes. So the final path never holds a
   * partial object, whatever moment a SIGKILL lands. Not fsynced here:
   * {@link syncWritten} flushes every object written since, in one batch,
   * before a ref may name them.
   */
  write(type: ObjectType, content: Buffer): string {
    if (!OBJECT_TYPES.has(type)) {
      throw new RalphError("E_INTERNAL", `invalid object type ${JSON.stringify(type)}`, { data: { type } });
    }
    const header = Buffer.from(`${type} ${content.length}\0`, "latin1");
    const oid = createHash("sha1").update(header).update(content).digest("hex");
    if (this.freshen(oid)) return oid;
    const dir = join(this.objectsDir, oid.slice(0, 2));
    const finalPath = join(dir, oid.slice(2));
    if (mkdirSync(dir, { recursive: true }) !== undefined) this.unsyncedDirs.add(this.objectsDir);
    this.unsynced.push(finalPath);
    this.unsyncedDirs.add(dir);
    const data = deflateSync(Buffer.concat([header, content]), { level: LOOSE_COMPRESSION_LEVEL });
    const tmpPath = join(dir, `tmp_obj_${randomBytes(6).toString("hex")}`);
    const fd = openSync(tmpPath, "wx", 0o444);
    try {
      let written = 0;
      withErrorPath(tmpPath, () => {
        while (written < data.length) written += writeSync(fd, data, written, data.length - written);
      });
    } catch (error) {
      closeSync(fd);
      unlinkSync(tmpPath);
      throw error;
    }
    closeSync(fd);
    try {
      linkSync(tmpPath, finalPath);
    } catch (error) {
      if (!isErrno(error, "EEXIST")) {
        // No hard links here (some network and FUSE file systems): rename,
        // which atomically replaces an identical copy if one raced in.
        renameSync(tmpPath, finalPath);
        return oid;
      }
    }
    unlinkSync(tmpPath);
    return oid;
  }

  /**
   * Makes every loose object written since the last call durable: fsyncs
   * each object file, then each `objects/xx` folder that gained a name (and
   * `objects/` when a folder was created), so a power loss cannot leave a
   * ref naming an object that never reached the disk. Call it once per
   * checkpoint, before the ref moves (one batch: the kernel writes all the
   * files back before the first flush waits). Cost: see `npm run bench`.
   * @throws the fsync's system error (EIO, ENOSPC): the ref must not move then.
   */
  syncWritten(): void {
    if (!this.fsync) {
      this.unsynced = [];
      this.unsyncedDirs = new Set();
      return;
    }
    const files = this.unsynced;
    const dirs = [...this.unsyncedDirs].sort((a, b) => b.length - a.length); // objects/xx before objects/
    this.unsynced = [];
    this.unsyncedDirs = new Set();
    for (const path of [...files, ...dirs]) {
      let fd: number;
      try {
        fd = openSync(path, "r");
      } catch (error) {
        if (isErrno(error, "ENOENT")) continue; // packed and pruned meanwhile by git gc: durable in its pack
        throw error;
      }
      try {
        withErrorPath(path, () => fsyncSync(fd));
      } finally {
        closeSync(fd);
      }
    }
  }

  /**
   * Every object id, loose or packed in any source, that starts with the
   * hex `prefix` (4 to 40 hex digits, case-insensitive), sorted. More than
   * one result means the prefix is ambiguous. Throws E_UNKNOWN_REV for a
   * prefix that is not 4-40 hex digits.
   */
  expandPrefix(prefix: string): string[] {
    const lower = prefix.toLowerCase();
    if (!/^[0-9a-f]{4,40}$/.test(lower)) {
      throw new RalphError("E_UNKNOWN_REV", `${JSON.stringify(prefix)} is not an object name prefix (4-40 hex digits)`, {
        data: { prefix },
      });
    }
    this.rescanPacks();
    const found: string[] = [];
    for (const source of this.sources()) {
      for (const pack of source.packs.list()) {
        try {
          pack.index.collectPrefix(lower, found);
        } catch (error) {
          if (!(error instanceof PackMissingError) && !(error instanceof RalphError && error.code === "E_CORRUPT")) {
            throw error;
          }
        }
      }
      const fanDir = lower.slice(0, 2);
      let names: string[] = [];
      try {
        names = readdirSync(join(source.objectsDir, fanDir));
      } catch (error) {
        if (!isErrno(error, "ENOENT", "ENOTDIR")) throw error;
      }
      for (const name of names) {
        const oid = fanDir + name;
        if (name.length === 38 && HEX_OID.test(oid) && oid.startsWith(lower)) found.push(oid);
      }
    }
    return [...new Set(found)].sort();
  }

  /** Closes the pack files this database holds open. Reads after this reopen them. */
  close(): void {
    for (const source of this.loadedSources ?? []) source.packs.close();
  }

  // -------------------------------------------------------------------------

  private sources(): ObjectSource[] {
    if (this.loadedSources === null) {
      const seen = new Set<string>();
      const sources: ObjectSource[] = [];
      const add = (dir: string, depth: number): void => {
        let key = dir;
        try {
          key = realpathSync(dir);
        } catch (error) {
          if (depth > 0) {
            warn(`object directory ${dir} does not exist; check objects/info/alternates`);
            return;
          }
        }
        if (seen.has(key)) return;
        seen.add(key);
        sources.push({ objectsDir: dir, packs: new PackDirectory(join(dir, "pack"), this.cache, this.windows) });
        const alternates = readAlternates(dir);
        if (alternates.length > 0 && depth >= MAX_ALTERNATE_DEPTH) {
          warn(`${dir}: ignoring alternate object stores, nesting too deep`);
          return;
        }
        for (const alternate of alternates) add(alternate, depth + 1);
      };
      add(this.objectsDir, 0);
      this.loadedSources = sources;
      debug(() => `odb: ${sources.length} object source(s) for ${this.objectsDir}`);
    }
    return this.loadedSources;
  }

  private readAtDepth(oid: string, depth: number): GitObject | null {
    const raw = oidToBytes(oid);
    for (let attempt = 0; ; attempt++) {
      try {
        const packed = this.findPacked(raw);
        if (packed !== null) {
          return packed.pack.readObjectAt(packed.offset, {
            cache: this.cache,
            maxDepth: this.maxDeltaDepth,
            depth,
            resolveExternal: (baseOid, baseDepth) => this.readAtDepth(baseOid, baseDepth),
          });
        }
        for (const source of this.sources()) {
          const loose = readLooseObject(source.objectsDir, oid);
          if (loose !== null) return loose;
        }
        if (attempt > 0 || !this.rescanPacks()) return null;
      } catch (error) {
        if (!(error instanceof PackMissingError)) throw error;
        // git gc removed a pack between our directory scan and this read.
        if (attempt > 0) throw corrupt(`object ${oid}: ${error.message} while reading`, { oid, path: error.path }, error);
        debug(() => `odb: ${error.path} vanished; rescanning`);
        this.rescanPacks();
      }
    }
  }

  private findPacked(raw: Buffer): ReturnType<PackDirectory["find"]> {
    for (const source of this.sources()) {
      const hit = source.packs.find(raw);
      if (hit !== null) return hit;
    }
    return null;
  }

  /** Path of a loose copy of `oid` in any source, or null. */
  private findLoose(oid: string): string | null {
    for (const source of this.sources()) {
      const path = join(source.objectsDir, oid.slice(0, 2), oid.slice(2));
      if (statSync(path, { throwIfNoEntry: false }) !== undefined) return path;
    }
    return null;
  }

  /** Rescans every pack directory; true when any changed. */
  private rescanPacks(): boolean {
    let changed = false;
    for (const source of this.sources()) changed = source.packs.rescan() || changed;
    return changed;
  }

  /**
   * True when the object exists and its file's mtime could be set to now
   * (git's freshen_packed_object / freshen_loose_object): an object that
   * exists only where we cannot touch it is written again locally.
   */
  private freshen(oid: string): boolean {
    const raw = oidToBytes(oid);
    const now = new Date();
    const packed = this.findPacked(raw);
    if (packed !== null) {
      if (this.freshenedPacks.has(packed.pack.packPath)) return true;
      try {
        utimesSync(packed.pack.packPath, now, now);
        this.freshenedPacks.add(packed.pack.packPath);
        return true;
      } catch {
        // fall through: a loose copy or a local write will do
      }
    }
    for (const source of this.sources()) {
      try {
        utimesSync(join(source.objectsDir, oid.slice(0, 2), oid.slice(2)), now, now);
        return true;
      } catch {
        // absent or not ours: try the next source
      }
    }
    return false;
  }
}

/**
 * Reads one loose object file, or null if absent. Verifies zlib, header and
 * that the content hashes to `oid`; anything else is E_CORRUPT naming the path.
 */
function readLooseObject(objectsDir: string, oid: string): GitObject | null {
  const path = join(objectsDir, oid.slice(0, 2), oid.slice(2));
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return null;
    throw corrupt(`loose object ${path} cannot be read: ${(error as Error).message}`, { oid, path }, error);
  }
  let raw: Buffer;
  try {
    raw = inflateSync(file);
  } catch (error) {
    throw corrupt(`loose object ${path} is corrupt (${(error as Error).message})`, { oid, path }, error);
  }
  const nul = raw.indexOf(0);
  const header = nul > 0 && nul < 32 ? raw.toString("latin1", 0, nul) : "";
  const match = /^(blob|tree|commit|tag) (0|[1-9][0-9]*)$/.exec(header);
  if (match === null || Number(match[2]) !== raw.length - nul - 1) {
    throw corrupt(`loose object ${path} has a malformed header`, { oid, path });
  }
  const actual = createHash("sha1").update(raw).digest("hex");
  if (actual !== oid) throw corrupt(`loose object ${path} hashes to ${actual}`, { oid, path, actual });
  return { type: match[1] as ObjectType, content: raw.subarray(nul + 1) };
}

/**
 * The object directories listed in `<objectsDir>/info/alternates`
 * (gitrepository-layout "objects/info/alternates"): one per line, `#`
 * comments and blank lines skipped, C-quoted when starting with `"`,
 * relative paths resolved against `objectsDir`.
 */
function readAlternates(objectsDir: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(objectsDir, "info", "alternates"), "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return [];
    throw error;
  }
  const dirs: string[] = [];
  for (const rawLine of text.split("\n")) {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    if (line === "" || line.startsWith("#")) continue;
    const path = line.startsWith('"') ? unquoteC(line) : line;
    dirs.push(isAbsolute(path) ? path : resolve(objectsDir, path));
  }
  return dirs;
}

/** Undoes git's C-style path quoting ("a\tb\303\251" -> bytes). */
function unquoteC(quoted: string): string {
  const bytes: number[] = [];
  const escapes: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '"': 34, "\\": 92 };
  const body = Buffer.from(quoted.slice(1, quoted.lastIndexOf('"')), "utf8");
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as number;
    if (c !== 92) {
      bytes.push(c);
      continue;
    }
    const next = String.fromCharCode(body[i + 1] ?? 0);
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.toString("latin1", i + 1, i + 4), 8) & 0xff);
      i += 3;
    } else {
      bytes.push(escapes[next] ?? (body[i + 1] as number));
      i += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

// ---------------------------------------------------------------------------
// Trees

/**
 * One entry of a tree object. `mode` is the octal mode as git stores it:
 * "100644" file, "100755" executable, "120000" symlink, "160000" gitlink
 * (submodule commit), "40000" tree; very old trees may hold "100664" or
 * "040000", which {@link encodeTree} canonicalizes. `name` is the entry name
 * as path-bytes.ts decodes it: UTF-8, with bytes that are not valid UTF-8
 * escaped losslessly, so `encodeTree(parseTree(raw))` gives `raw` back.
 */
export interface TreeEntry {
  mode: string;
  name: string;
  /** Object id of the blob, tree or (gitlink) commit, lowercase hex. */
  oid: string;
}

/** True for a tree entry mode that denotes a subtree ("40000"; also the legacy "040000"). */
export function isTreeMode(mode: string): boolean {
  return (parseInt(mode, 8) & 0o170000) === 0o040000;
}

/**
 * Parses a tree object's content: a sequence of "<octal mode> <name>\0<20-byte
 * oid>" (git's tree.c / fsck.c; there is no gitformat page). Entries come
 * back in stored order. Throws E_CORRUPT for a truncated or malformed entry.
 */
export function parseTree(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  const length = content.length;
  let pos = 0;
  while (pos < length) {
    // Byte loops instead of Buffer#indexOf: names and modes are short, and
    // the call overhead dominates on trees of thousands of entries.
    let space = pos;
    while (space < length && space - pos <= 6 && content[space] !== 0x20) {
      const c = content[space] as number;
      if (c < 0x30 || c > 0x37) throw corrupt(`malformed tree entry mode at byte ${pos}`, { offset: pos });
      space++;
    }
    if (space >= length || content[space] !== 0x20 || space === pos) {
      throw corrupt(`malformed tree entry at byte ${pos}`, { offset: pos });
    }
    let nul = space + 1;
    while (nul < length && content[nul] !== 0) nul++;
    if (nul + 21 > length) throw corrupt(`malformed tree entry at byte ${pos}`, { offset: pos });
    entries.push({
      mode: content.toString("latin1", pos, space),
      name: decodePath(content, space + 1, nul),
      oid: content.toString("hex", nul + 1, nul + 21),
    });
    pos = nul + 21;
  }
  return entries;
}

/** git's canon_mode (cache.h): regular files become 100644/100755, the rest keep only their type. */
function canonicalMode(mode: string, name: string): string {
  const value = /^[0-7]{1,7}$/.test(mode) ? parseInt(mode, 8) : -1;
  switch (value & 0o170000) {
    case 0o100000:
      return value & 0o100 ? "100755" : "100644";
    case 0o120000:
      return "120000";
    case 0o040000:
      return "40000";
    case 0o160000:
      return "160000";
    default:
      throw new RalphError("E_INTERNAL", `tree entry ${JSON.stringify(name)} has invalid mode ${JSON.stringify(mode)}`, {
        data: { name, mode },
      });
  }
}

/**
 * Encodes tree entries as a git tree object's content, in git's canonical
 * order: names compared bytewise, a subtree compared as if its name ended
 * in "/" (git's base_name_compare). Modes are canonicalized ("40000",
 * "100644", "100755", "120000", "160000"). The input order does not matter.
 *
 * Throws E_UNSAFE_PATH for a name that is empty, ".", "..", ".git" (any
 * case) or contains "/" or NUL (git fsck rejects all of them, and a restore
 * must never write them), and E_INTERNAL for a bad oid, a bad mode or two
 * entries with the same name.
 */
export function encodeTree(entries: readonly TreeEntry[]): Buffer {
  const prepared = entries.map((entry) => {
    const nameBytes = encodePath(entry.name);
    const lower = entry.name.toLowerCase();
    if (nameBytes.length === 0 || nameBytes.includes(0x2f) || nameBytes.includes(0) || lower === "." || lower === ".." || lower === ".git") {
      throw new RalphError("E_UNSAFE_PATH", `tree entry name ${JSON.stringify(entry.name)} is not allowed`, {
        data: { name: entry.name },
      });
    }
    if (!HEX_OID.test(entry.oid)) {
      throw new RalphError("E_INTERNAL", `tree entry ${JSON.stringify(entry.name)} has invalid oid ${JSON.stringify(entry.oid)}`, {
        data: { name: entry.name, oid: entry.oid },
      });
    }
    const mode = canonicalMode(entry.mode, entry.name);
    const sortKey = mode === "40000" ? Buffer.concat([nameBytes, Buffer.from("/")]) : nameBytes;
    return { mode, name: entry.name, nameBytes, oid: entry.oid, sortKey };
  });
  prepared.sort((a, b) => Buffer.compare(a.sortKey, b.sortKey));
  let size = 0;
  for (let i = 0; i < prepared.length; i++) {
    const entry = prepared[i] as (typeof prepared)[number];
    // Equal names sort next to each other unless a file "a" and a tree "a"
    // are split by names like "a.b"; compare against the few neighbours
    // that can collide.
    for (let j = i + 1; j < prepared.length; j++) {
      const other = prepared[j] as (typeof prepared)[number];
      if (other.nameBytes.equals(entry.nameBytes)) {
        throw new RalphError("E_INTERNAL", `tree has two entries named ${JSON.stringify(entry.name)}`, {
          data: { name: entry.name },
        });
      }
      if (!other.nameBytes.subarray(0, entry.nameBytes.length).equals(entry.nameBytes)) break;
    }
    size += entry.mode.length + 1 + entry.nameBytes.length + 1 + 20;
  }
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const entry of prepared) {
    pos += out.write(entry.mode, pos, "latin1");
    out[pos++] = 0x20;
    pos += entry.nameBytes.copy(out, pos);
    out[pos++] = 0;
    pos += out.write(entry.oid, pos, "hex");
  }
  return out;
}

// ---------------------------------------------------------------------------
// Commits

/**
 * An author or committer line: "Name <email> <seconds since epoch> <±hhmm>"
 * (git's ident.c; Documentation/date-formats.txt "Git internal format").
 */
export interface Signature {
  name: string;
  email: string;
  /** Seconds since the Unix epoch. */
  timestamp: number;
  /** UTC offset as git writes it: "+0100", "-0530". */
  timezone: string;
}

/**
 * A commit object's fields. `extraHeaders` are the headers after
 * `committer` (e.g. "encoding", "gpgsig", "mergetag") in stored order, a
 * multi-line value joined with "\n". `message` is everything after the blank
 * line that ends the headers, verbatim (git's own commits end it with "\n").
 * Text is decoded as UTF-8; a commit with another "encoding" header is not
 * re-encoded.
 */
export interface Commit {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  extraHeaders: [key: string, value: string][];
  message: string;
}

function parseSignature(value: string, field: string): Signature {
  const lt = value.indexOf("<");
  const gt = value.indexOf(">", lt + 1);
  const tail = lt < 0 || gt < 0 ? null : /^ (\d+) ([+-]\d{4})$/.exec(value.slice(gt + 1));
  if (tail === null) throw corrupt(`commit has a malformed ${field} line`, { field });
  return {
    name: value.slice(0, lt > 0 && value[lt - 1] === " " ? lt - 1 : lt),
    email: value.slice(lt + 1, gt),
    timestamp: Number(tail[1]),
    timezone: tail[2] as string,
  };
}

/**
 * Parses a commit object's content (git's commit.c parse_commit_buffer; the
 * header layout in Documentation/gitformat-signature.txt). Throws E_CORRUPT
 * without exactly one tree, author and committer, or with a malformed
 * header, oid or signature.
 */
export function parseCommit(content: Buffer): Commit {
  const text = content.toString("utf8");
  const end = text.indexOf("\n\n");
  const headerText = end < 0 ? text.replace(/\n$/, "") : text.slice(0, end);
  const message = end < 0 ? "" : text.slice(end + 2);
  const headers: [string, string][] = [];
  for (const line of headerText.split("\n")) {
    if (line.startsWith(" ") && headers.length > 0) {
      const last = headers[headers.length - 1] as [string, string];
      last[1] += `\n${line.slice(1)}`;
      continue;
    }
    const space = line.indexOf(" ");
    if (space <= 0) throw corrupt(`commit has a malformed header line ${JSON.stringify(line.slice(0, 40))}`, {});
    headers.push([line.slice(0, space), line.slice(space + 1)]);
  }
  let tree: string | undefined;
  const parents: string[] = [];
  let author: Signature | undefined;
  let committer: Signature | undefined;
  const extraHeaders: [string, string][] = [];
  for (const [key, value] of headers) {
    if (key === "tree" && tree === undefined && parents.length === 0 && author === undefined) {
      if (!HEX_OID.test(value)) throw corrupt("commit has a malformed tree line", {});
      tree = value;
    } else if (key === "parent" && tree !== undefined && author === undefined) {
      if (!HEX_OID.test(value)) throw corrupt("commit has a malformed parent line", {});
      parents.push(value);
    } else if (key === "author" && tree !== undefined && author === undefined) {
      author = parseSignature(value, "author");
    } else if (key === "committer" && author !== undefined && committer === undefined) {
      committer = parseSignature(value, "committer");
    } else if (committer !== undefined) {
      extraHeaders.push([key, value]);
    } else {
      throw corrupt(`commit has an unexpected ${JSON.stringify(key)} header`, { header: key });
    }
  }
  if (tree === undefined || author === undefined || committer === undefined) {
    throw corrupt("commit lacks a tree, author or committer", {});
  }
  return { tree, parents, author, committer, extraHeaders, message };
}

function formatSignature(signature: Signature, field: string): string {
  const { name, email, timestamp, timezone } = signature;
  if (/[<>\n]/.test(name) || /[<>\n]/.test(email)) {
    throw new RalphError("E_USAGE", `${field} identity ${JSON.stringify(`${name} <${email}>`)} contains "<", ">" or a newline`, {
      data: { field, name, email },
    });
  }
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || !/^[+-]\d{4}$/.test(timezone)) {
    throw new RalphError("E_INTERNAL", `${field} date ${timestamp} ${timezone} is not git's internal format`, {
      data: { field, timestamp, timezone },
    });
  }
  return `${name} <${email}> ${timestamp} ${timezone}`;
}

/**
 * Encodes a commit object's content: "tree", "parent"s, "author",
 * "committer", the extra headers (continuation lines prefixed by a space),
 * a blank line and the message verbatim; byte-identical to what
 * `git commit-tree` writes for the same fields. Throws E_USAGE for an
 * identity containing "<", ">" or a newline, E_INTERNAL for a bad oid,
 * date or header key.
 */
export function encodeCommit(commit: Commit): Buffer {
  const lines: string[] = [];
  const oid = (value: string, field: string): string => {
    if (!HEX_OID.test(value)) {
      throw new RalphError("E_INTERNAL", `commit ${field} ${JSON.stringify(value)} is not an object id`, { data: { field } });
    }
    return value;
  };
  lines.push(`tree ${oid(commit.tree, "tree")}`);
  for (const parent of commit.parents) lines.push(`parent ${oid(parent, "parent")}`);
  lines.push(`author ${formatSignature(commit.author, "author")}`);
  lines.push(`committer ${formatSignature(commit.committer, "committer")}`);
  for (const [key, value] of commit.extraHeaders) {
    if (!/^[^\s]+$/.test(key)) {
      throw new RalphError("E_INTERNAL", `commit header key ${JSON.stringify(key)} is invalid`, { data: { key } });
    }
    lines.push(`${key} ${value.split("\n").join("\n ")}`);
  }
  return Buffer.from(`${lines.join("\n")}\n\n${commit.message}`, "utf8");
}
