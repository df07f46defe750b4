/**
 * Synchronous reader for git packfiles: `.idx` (v1 and v2) lookups done by
 * binary search straight in the index Buffer, `.pack` entries read with
 * positioned reads of only the bytes they need, OFS_DELTA / REF_DELTA
 * resolution with a bounded LRU cache of delta bases.
 *
 * Formats: git's Documentation/gitformat-pack.txt ("pack-*.pack files",
 * "Original (version 1) pack-*.idx files", "Version 2 pack-*.idx files")
 * and the delta encoding in the same page ("Deltified representation").
 *
 * Deliberately not read: multi-pack-index, commit-graph, `.rev` and
 * `.bitmap` files. They are accelerators; every pack has its own `.idx`,
 * which is all a lookup needs. SHA-1 repositories only.
 *
 * Why not isomorphic-git's packed path: it reads each whole `.pack` into
 * memory, SHA-1-verifies the whole pack on first use, and builds a Map of
 * every oid from the `.idx`. Here a lookup costs a binary search and a read
 * costs one or two `pread`s plus a synchronous inflate.
 */
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { RalphError, isErrno } from "../errors.js";
import { debug, warn } from "../log.js";
import type { GitObject, ObjectType } from "./odb.js";

/** Pack entry type codes (gitformat-pack "Object types"). 5 is reserved, 0 invalid. */
export const PackEntryType = {
  commit: 1,
  tree: 2,
  blob: 3,
  tag: 4,
  ofsDelta: 6,
  refDelta: 7,
} as const;
/** One of the {@link PackEntryType} codes. */
export type PackEntryType = (typeof PackEntryType)[keyof typeof PackEntryType];

const OBJECT_TYPE_BY_CODE: readonly (ObjectType | undefined)[] = [undefined, "commit", "tree", "blob", "tag"];

/**
 * The decoded header of one pack entry (gitformat-pack "pack-*.pack files").
 * `size` is the inflated size of the entry's own data in bytes: the object's
 * size for a whole object, the delta's size for a delta.
 */
export interface PackEntryHeader {
  /** Pack offset of the entry's first header byte. */
  offset: number;
  type: PackEntryType;
  /** Inflated size of the entry data in bytes. */
  size: number;
  /** Pack offset where the zlib stream starts (just after the header). */
  dataOffset: number;
  /** OFS_DELTA only: pack offset of the base entry. */
  baseOffset?: number;
  /** REF_DELTA only: the base object's id, lowercase hex. */
  baseOid?: string;
}

/** Tuning knobs of a pack reader; the defaults suit a short-lived CLI process. */
export interface PackReadOptions {
  /**
   * Upper bound, in bytes, of the delta base cache shared by the packs of
   * one object database (git's core.deltaBaseCacheLimit defaults to 96 MiB).
   * Default 64 MiB. 0 disables the cache.
   */
  deltaBaseCacheBytes?: number;
  /**
   * The longest delta chain followed before the read fails with E_CORRUPT
   * (a REF_DELTA cycle would otherwise never end). git writes chains of at
   * most 4095 (pack.depth is capped there). Default 10000.
   */
  maxDeltaDepth?: number;
  /**
   * Upper bound, in bytes, of the cache of pack windows (aligned
   * {@link PACK_WINDOW_BYTES} reads) shared by the packs of one object
   * database. Default 32 MiB.
   */
  packWindowCacheBytes?: number;
}

/** Default of {@link PackReadOptions.deltaBaseCacheBytes}. */
export const DEFAULT_DELTA_BASE_CACHE_BYTES = 64 * 1024 * 1024;
/** Default of {@link PackReadOptions.packWindowCacheBytes}. */
export const DEFAULT_PACK_WINDOW_CACHE_BYTES = 32 * 1024 * 1024;
/** Default of {@link PackReadOptions.maxDeltaDepth}. */
export const DEFAULT_MAX_DELTA_DEPTH = 10_000;

/**
 * Thrown by {@link PackFile} when its `.pack` (or `.idx`) vanished from disk
 * before it was opened: `git gc` or `git repack -d` removed it. The object
 * database catches it, rescans the pack directory and retries once.
 */
export class PackMissingError extends Error {
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(`pack file ${path} disappeared`, { cause });
    this.name = "PackMissingError";
    this.path = path;
  }
}

const corrupt = (message: string, data: Record<string, unknown>, cause?: unknown): RalphError => new RalphError("E_CORRUPT", message, { data, cause });

const HEX_OID = /^[0-9a-f]{40}$/;

/** 20 raw bytes of a 40-hex oid; throws E_INTERNAL for anything else (a caller bug). */
export function oidToBytes(oid: string): Buffer {
  if (!HEX_OID.test(oid)) {
    throw new RalphError("E_INTERNAL", `invalid object id ${JSON.stringify(oid)}`, { data: { oid } });
  }
  return Buffer.from(oid, "hex");
}

// ---------------------------------------------------------------------------
// .idx

const IDX_V2_MAGIC = 0xff744f63; // "\377tOc"
const FANOUT_BYTES = 256 * 4;

/**
 * One `pack-*.idx` file (version 1 or 2), held as a Buffer and searched in
 * place: the fan-out table narrows a lookup to the oids sharing the first
 * byte, then a binary search runs on the sorted 20-byte names. 64-bit
 * offsets (packs over 2 GiB) come from the v2 large-offset table.
 *
 * Throws E_CORRUPT (naming the file) for a bad magic, version or size.
 */
export class PackIndex {
  /** Path of the `.idx` file. */
  readonly path: string;
  /** 1 or 2. */
  readonly version: 1 | 2;
  /** Number of objects in the pack. */
  readonly count: number;
  /** The pack checksum recorded in the index trailer (equals the `.pack` trailer). */
  readonly packChecksum: Buffer;
  private readonly buf: Buffer;
  private readonly fanoutStart: number;
  /** Byte position of the first oid, and the distance between two oids. */
  private readonly oidStart: number;
  private readonly oidStride: number;
  private readonly offsetStart: number;
  private readonly largeOffsetStart: number;
  /** Entries in the v2 64-bit offset table (packs over 2 GiB, or `git index-pack --index-version=2,<limit>`). */
  readonly largeOffsetCount: number;

  /** Parses an index already in memory; `path` is only used in errors. */
  constructor(path: string, buf: Buffer) {
    this.path = path;
    this.buf = buf;
    const bad = (why: string): RalphError => corrupt(`pack index ${path} is corrupt: ${why}`, { path });
    if (buf.length < FANOUT_BYTES + 40) throw bad("too short");
    if (buf.readUInt32BE(0) === IDX_V2_MAGIC) {
      const version = buf.readUInt32BE(4);
      if (version !== 2) throw bad(`unsupported version ${version}`);
      this.version = 2;
      this.fanoutStart = 8;
    } else {
      this.version = 1;
      this.fanoutStart = 0;
    }
    let previous = 0;
    for (let i = 0; i < 256; i++) {
      const n = buf.readUInt32BE(this.fanoutStart + i * 4);
      if (n < previous) throw bad("fan-out table is not monotonic");
      previous = n;
    }
    this.count = previous;
    const n = this.count;
    if (this.version === 2) {
      this.oidStart = 8 + FANOUT_BYTES;
      this.oidStride = 20;
      this.offsetStart = this.oidStart + 24 * n; // after names and CRC32s
      this.largeOffsetStart = this.offsetStart + 4 * n;
      const minimum = this.largeOffsetStart + 40;
      if (buf.length < minimum || (buf.length - minimum) % 8 !== 0) throw bad("size does not match object count");
      this.largeOffsetCount = (buf.length - minimum) / 8;
    } else {
      this.oidStart = FANOUT_BYTES + 4;
      this.oidStride = 24;
      this.offsetStart = FANOUT_BYTES;
      this.largeOffsetStart = 0;
      this.largeOffsetCount = 0;
      if (buf.length !== FANOUT_BYTES + 24 * n + 40) throw bad("size does not match object count");
    }
    this.packChecksum = buf.subarray(buf.length - 40, buf.length - 20);
  }

  /** Reads and parses an `.idx` file. ENOENT propagates as a Node error. */
  static fromFile(path: string): PackIndex {
    return new PackIndex(path, readFileSync(path));
  }

  /** Position (0..count-1) of `oid` (20 raw bytes) in the sorted name table, or -1. */
  indexOf(oid: Buffer): number {
    const buf = this.buf;
    const first = oid[0] as number;
    let lo = first === 0 ? 0 : buf.readUInt32BE(this.fanoutStart + (first - 1) * 4);
    let hi = buf.readUInt32BE(this.fanoutStart + first * 4);
    // Compare as five big-endian 32-bit words: cheaper than Buffer#compare
    // with ranges, whose argument checks dominate at this size.
    const k0 = oid.readUInt32BE(0);
    const k1 = oid.readUInt32BE(4);
    const k2 = oid.readUInt32BE(8);
    const k3 = oid.readUInt32BE(12);
    const k4 = oid.readUInt32BE(16);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.oidStart + mid * this.oidStride;
      let word = buf.readUInt32BE(at);
      let key = k0;
      if (word === key) {
        word = buf.readUInt32BE(at + 4);
        key = k1;
        if (word === key) {
          word = buf.readUInt32BE(at + 8);
          key = k2;
          if (word === key) {
            word = buf.readUInt32BE(at + 12);
            key = k3;
            if (word === key) {
              word = buf.readUInt32BE(at + 16);
              key = k4;
              if (word === key) return mid;
            }
          }
        }
      }
      if (word < key) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** Pack offset of `oid` (20 raw bytes), or -1 when the pack lacks it. */
  findOffset(oid: Buffer): number {
    const i = this.indexOf(oid);
    return i < 0 ? -1 : this.offsetAt(i);
  }

  /** The oid at position `i` of the sorted name table, lowercase hex. */
  oidAt(i: number): string {
    const at = this.oidStart + i * this.oidStride;
    return this.buf.toString("hex", at, at + 20);
  }

  /** Pack offset of the object at position `i`; 64-bit offsets resolved. */
  offsetAt(i: number): number {
    if (this.version === 1) return this.buf.readUInt32BE(this.offsetStart + i * 24);
    const small = this.buf.readUInt32BE(this.offsetStart + i * 4);
    if ((small & 0x80000000) === 0) return small;
    const slot = small & 0x7fffffff;
    if (slot >= this.largeOffsetCount) {
      throw corrupt(`pack index ${this.path} is corrupt: large offset ${slot} out of range`, { path: this.path });
    }
    const large = this.buf.readBigUInt64BE(this.largeOffsetStart + slot * 8);
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw corrupt(`pack index ${this.path} has an offset beyond 2^53`, { path: this.path });
    }
    return Number(large);
  }

  /**
   * Appends to `out` every oid (hex) in this index that starts with the hex
   * `prefix` (1 to 40 lowercase hex characters).
   */
  collectPrefix(prefix: string, out: string[]): void {
    const low = Buffer.from(prefix.padEnd(40, "0"), "hex");
    const first = low[0] as number;
    let lo = first === 0 ? 0 : this.buf.readUInt32BE(this.fanoutStart + (first - 1) * 4);
    let hi = this.buf.readUInt32BE(this.fanoutStart + first * 4);
    const end = hi;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.oidStart + mid * this.oidStride;
      // compare(): the entry at `at` against `low`; negative when the entry sorts first.
      if (this.buf.compare(low, 0, 20, at, at + 20) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < end; i++) {
      const oid = this.oidAt(i);
      if (!oid.startsWith(prefix)) break;
      out.push(oid);
    }
  }
}

// ---------------------------------------------------------------------------
// Deltas

/**
 * Copies `size` bytes from `source[from…]` to `target[to…]`. Deltas are
 * mostly short instructions, and Buffer#copy costs about a microsecond of
 * argument checking per call in Node 20 (it dominated applyDelta): short
 * runs (under 32 bytes) are copied byte by byte, long ones with
 * TypedArray#set from a plain view (Buffer#subarray is slow too).
 */
function copyBytes(source: Uint8Array, from: number, target: Uint8Array, to: number, size: number): void {
  if (size < 32) {
    for (let i = 0; i < size; i++) target[to + i] = source[from + i] as number;
  } else {
    target.set(new Uint8Array(source.buffer, source.byteOffset + from, size), to);
  }
}

/**
 * Applies a git delta (gitformat-pack "Deltified representation") to `base`.
 * Throws E_CORRUPT when the delta's base size differs from `base.length`,
 * an instruction reads outside the base or the delta, the reserved opcode 0
 * appears, or the result size differs from the one the delta declares.
 */
export function applyDelta(base: Buffer, delta: Buffer): Buffer {
  let pos = 0;
  const readSize = (): number => {
    let value = 0;
    let scale = 1;
    let byte: number;
    do {
      if (pos >= delta.length) throw corrupt("delta is truncated in its header", {});
      byte = delta[pos++] as number;
      value += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte & 0x80);
    return value;
  };
  const baseSize = readSize();
  if (baseSize !== base.length) {
    throw corrupt(`delta expects a ${baseSize}-byte base, the base has ${base.length} bytes`, {});
  }
  const resultSize = readSize();
  const out = Buffer.allocUnsafe(resultSize);
  let outPos = 0;
  const length = delta.length;
  while (pos < length) {
    const op = delta[pos++] as number;
    if (op & 0x80) {
      let copyOffset = 0;
      let copySize = 0;
      if (op & 0x01) copyOffset = delta[pos++] as number;
      if (op & 0x02) copyOffset |= (delta[pos++] as number) << 8;
      if (op & 0x04) copyOffset |= (delta[pos++] as number) << 16;
      if (op & 0x08) copyOffset += (delta[pos++] as number) * 0x1000000;
      if (op & 0x10) copySize = delta[pos++] as number;
      if (op & 0x20) copySize |= (delta[pos++] as number) << 8;
      if (op & 0x40) copySize |= (delta[pos++] as number) << 16;
      if (copySize === 0) copySize = 0x10000;
      if (pos > length || copyOffset + copySize > base.length || outPos + copySize > resultSize) {
        throw corrupt("delta copy instruction is out of bounds", {});
      }
      copyBytes(base, copyOffset, out, outPos, copySize);
      outPos += copySize;
    } else if (op !== 0) {
      if (pos + op > length || outPos + op > resultSize) throw corrupt("delta insert instruction is out of bounds", {});
      copyBytes(delta, pos, out, outPos, op);
      pos += op;
      outPos += op;
    } else {
      throw corrupt("delta uses the reserved opcode 0", {});
    }
  }
  if (outPos !== resultSize) throw corrupt(`delta produced ${outPos} bytes, declared ${resultSize}`, {});
  return out;
}

/**
 * A least-recently-used map from numeric keys to values, bounded by the
 * total byte size of its values (`sizeOf`). A value larger than
 * `maxEntryFraction` of the budget is not kept. Keys are
 * `packId * 2^40 + pack offset` ({@link packKey}), so one cache serves all
 * the packs of an object database and {@link dropPack} can forget one.
 */
export class ByteBudgetCache<V> {
  /** Budget in bytes. */
  readonly limitBytes: number;
  private usedBytes = 0;
  private readonly map = new Map<number, V>();
  private readonly sizeOf: (value: V) => number;
  private readonly maxEntryBytes: number;

  constructor(limitBytes: number, sizeOf: (value: V) => number, maxEntryFraction = 1) {
    this.limitBytes = limitBytes;
    this.sizeOf = sizeOf;
    this.maxEntryBytes = limitBytes * maxEntryFraction;
  }

  /** Bytes currently held. */
  get sizeBytes(): number {
    return this.usedBytes;
  }

  /** The cached value for a key, marking it most recently used. */
  get(key: number): V | undefined {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
    }
    return hit;
  }

  /** Stores a value, evicting least recently used entries past the budget. */
  set(key: number, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.maxEntryBytes || this.map.has(key)) return;
    this.map.set(key, value);
    this.usedBytes += size;
    if (this.usedBytes <= this.limitBytes) return;
    for (const [oldKey, old] of this.map) {
      if (this.usedBytes <= this.limitBytes) break;
      this.map.delete(oldKey);
      this.usedBytes -= this.sizeOf(old);
    }
  }

  /** Drops every entry whose key belongs to pack number `packId`. */
  dropPack(packId: number): void {
    for (const [key, value] of this.map) {
      if (Math.floor(key / PACK_KEY_SCALE) === packId) {
        this.map.delete(key);
        this.usedBytes -= this.sizeOf(value);
      }
    }
  }
}

/**
 * The delta base cache: resolved objects keyed by (pack, offset), so that
 * objects deltified against the same base (or along the same chain) inflate
 * and apply each base once. Objects larger than a quarter of the budget are
 * not kept. Also hands out the pack ids used in its keys.
 */
export class DeltaBaseCache extends ByteBudgetCache<GitObject> {
  private packIds = 0;

  constructor(limitBytes: number) {
    super(limitBytes, (object) => object.content.length, 1 / 4);
  }

  /** A fresh small integer naming one pack in this cache's keys. */
  allocatePackId(): number {
    return ++this.packIds;
  }
}

/** The cache key of a pack offset: see {@link ByteBudgetCache}. */
export function packKey(packId: number, offset: number): number {
  return packId * PACK_KEY_SCALE + offset;
}

/**
 * Cache keys are packId * 2^40 + offset: exact in a double for packs under
 * 1 TiB and up to 8191 packs seen by one object database.
 */
const PACK_KEY_SCALE = 2 ** 40;

/**
 * Resolves a REF_DELTA base that is not in the same pack: another pack, a
 * loose object or an alternate. `depth` is the delta depth so far, to be
 * carried into the lookup so cross-pack cycles still hit the depth limit.
 */
export type ResolveExternalBase = (oid: string, depth: number) => GitObject | null;

// ---------------------------------------------------------------------------
// .pack

/**
 * Pack bytes are read in aligned windows of this size and kept in a shared
 * LRU ({@link PackReadOptions.packWindowCacheBytes}): the entries of a delta
 * chain, and the trees of one commit, sit close together, so one read serves
 * many entries. (git mmaps windows of up to 1 GiB; we pay a copy, so smaller.)
 */
export const PACK_WINDOW_BYTES = 16 * 1024;
/** Bytes read at an entry that straddles a window boundary: header + most small objects. */
const FIRST_READ_BYTES = 8192;
/** The longest entry header: a 64-bit size varint and a 20-byte base oid or an offset varint. */
const MAX_HEADER_BYTES = 64;

/** An upper bound of the deflated size of `n` bytes for any zlib compressor (zlib's conservative deflateBound + slack). */
function deflateBound(n: number): number {
  return n + Math.ceil(n / 8) + Math.ceil(n / 64) + 64;
}

/**
 * One `.pack` with its `.idx`. The index is loaded on first lookup, the pack
 * file opened on first read and kept open until {@link close}; reads use
 * `fs.readSync` at an offset, never the whole file.
 */
export class PackFile {
  /** Path of the `.pack` file. */
  readonly packPath: string;
  /** Path of the `.idx` file. */
  readonly idxPath: string;
  /** Modification time of the `.pack` when the directory was scanned (ms); newer packs are searched first. */
  readonly mtimeMs: number;
  /** Small integer naming this pack in delta-cache keys. */
  readonly id: number;
  private loadedIndex: PackIndex | null = null;
  private indexError: RalphError | null = null;
  private readonly windows: ByteBudgetCache<Buffer>;
  private fd = -1;
  /** Offset just past the last entry: the file size minus the 20-byte trailer. */
  private dataEnd = 0;

  /**
   * `id` comes from {@link DeltaBaseCache.allocatePackId} of the cache this
   * pack's reads use; `windows` is the (shared) cache of pack windows, by
   * default a private one of 16 windows.
   */
  constructor(packPath: string, idxPath: string, mtimeMs: number, id: number, windows: ByteBudgetCache<Buffer> = new ByteBudgetCache<Buffer>(16 * PACK_WINDOW_BYTES, (b) => b.length)) {
    this.packPath = packPath;
    this.idxPath = idxPath;
    this.mtimeMs = mtimeMs;
    this.id = id;
    this.windows = windows;
  }

  /** True once the index was found malformed; such a pack is skipped by lookups. */
  get isBroken(): boolean {
    return this.indexError !== null;
  }

  /**
   * The pack's index, read on first use. Throws {@link PackMissingError} if
   * it vanished, E_CORRUPT if malformed (remembered: the file is not re-read).
   */
  get index(): PackIndex {
    if (this.loadedIndex === null) {
      if (this.indexError !== null) throw this.indexError;
      try {
        this.loadedIndex = PackIndex.fromFile(this.idxPath);
      } catch (error) {
        if (isErrno(error, "ENOENT")) throw new PackMissingError(this.idxPath, error);
        if (error instanceof RalphError) this.indexError = error;
        throw error;
      }
    }
    return this.loadedIndex;
  }

  /** Opens the pack file and checks its header and trailer against the index (no full checksum). */
  private open(): void {
    if (this.fd >= 0) return;
    const index = this.index;
    let fd: number;
    try {
      fd = openSync(this.packPath, "r");
    } catch (error) {
      if (isErrno(error, "ENOENT")) throw new PackMissingError(this.packPath, error);
      throw error;
    }
    try {
      const size = fstatSync(fd).size;
      const head = Buffer.alloc(12);
      const trailer = Buffer.alloc(20);
      if (size < 32 || readSync(fd, head, 0, 12, 0) !== 12 || readSync(fd, trailer, 0, 20, size - 20) !== 20) {
        throw corrupt(`pack ${this.packPath} is truncated`, { path: this.packPath });
      }
      const version = head.readUInt32BE(4);
      if (head.toString("latin1", 0, 4) !== "PACK" || (version !== 2 && version !== 3)) {
        throw corrupt(`pack ${this.packPath} has a bad header`, { path: this.packPath });
      }
      if (head.readUInt32BE(8) !== index.count || !trailer.equals(index.packChecksum)) {
        throw corrupt(`pack ${this.packPath} does not match its index ${this.idxPath}`, { path: this.packPath });
      }
      this.dataEnd = size - 20;
      this.fd = fd;
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }

  /** Closes the pack file if open. The object stays usable: a later read reopens it. */
  close(): void {
    if (this.fd >= 0) {
      closeSync(this.fd);
      this.fd = -1;
    }
  }

  /** Reads up to `length` bytes at `position` (fewer only at the end of the data). */
  private readAt(position: number, length: number): Buffer {
    // Closed meanwhile (a rescan dropped it while a delta chain was being resolved): reopen.
    if (this.fd < 0) this.open();
    const want = Math.max(0, Math.min(length, this.dataEnd - position));
    const buf = Buffer.allocUnsafe(want);
    let done = 0;
    while (done < want) {
      const n = readSync(this.fd, buf, done, want - done, position + done);
      if (n === 0) break;
      done += n;
    }
    return done === want ? buf : buf.subarray(0, done);
  }

  /**
   * Bytes covering [position, position + length): the cached window holding
   * them, or a direct read of at least {@link FIRST_READ_BYTES} when they
   * straddle a window boundary. `start` is the pack offset of `buf[0]`.
   */
  private bytesAt(position: number, length: number): { buf: Buffer; start: number } {
    const windowStart = position - (position % PACK_WINDOW_BYTES);
    if (position + length <= windowStart + PACK_WINDOW_BYTES) {
      const key = packKey(this.id, windowStart);
      let window = this.windows.get(key);
      if (window === undefined) {
        window = this.readAt(windowStart, PACK_WINDOW_BYTES);
        this.windows.set(key, window);
      }
      return { buf: window, start: windowStart };
    }
    return { buf: this.readAt(position, Math.max(length, FIRST_READ_BYTES)), start: position };
  }

  /**
   * Decodes the entry header at `offset` (gitformat-pack "size encoding" and
   * "offset encoding"). Returns the header and the bytes read so far
   * (`chunk`, whose first byte is at pack offset `chunkStart`), which usually
   * hold the whole compressed entry.
   */
  readEntry(offset: number): { header: PackEntryHeader; chunk: Buffer; chunkStart: number } {
    this.open();
    if (!Number.isSafeInteger(offset) || offset < 12 || offset >= this.dataEnd) {
      throw corrupt(`pack ${this.packPath}: entry offset ${offset} is out of range`, { path: this.packPath, offset });
    }
    const { buf: chunk, start: chunkStart } = this.bytesAt(offset, Math.min(MAX_HEADER_BYTES, this.dataEnd - offset));
    const bad = (): RalphError => corrupt(`pack ${this.packPath}: entry header at offset ${offset} is malformed`, { path: this.packPath, offset });
    let pos = offset - chunkStart;
    const next = (): number => {
      if (pos >= chunk.length) throw bad();
      return chunk[pos++] as number;
    };
    let byte = next();
    const type = (byte >> 4) & 7;
    let size = byte & 0x0f;
    let scale = 16;
    while (byte & 0x80) {
      byte = next();
      size += (byte & 0x7f) * scale;
      scale *= 128;
      if (scale > 2 ** 63) throw bad();
    }
    const header: PackEntryHeader = { offset, type: type as PackEntryType, size, dataOffset: 0 };
    if (type === PackEntryType.ofsDelta) {
      byte = next();
      let distance = byte & 0x7f;
      while (byte & 0x80) {
        byte = next();
        distance = (distance + 1) * 128 + (byte & 0x7f);
      }
      if (distance <= 0 || distance > offset - 12) throw bad();
      header.baseOffset = offset - distance;
    } else if (type === PackEntryType.refDelta) {
      if (pos + 20 > chunk.length) throw bad();
      header.baseOid = chunk.toString("hex", pos, pos + 20);
      pos += 20;
    } else if (type < 1 || type > 4) {
      throw corrupt(`pack ${this.packPath}: entry at offset ${offset} has invalid type ${type}`, {
        path: this.packPath,
        offset,
      });
    }
    header.dataOffset = chunkStart + pos;
    return { header, chunk, chunkStart };
  }

  /**
   * Inflates an entry's data: first from the bytes {@link readEntry} already
   * read, else from a read sized by the deflate bound of the declared size,
   * growing while zlib reports the stream truncated. Node's `inflateSync`
   * stops at the end of the zlib stream and ignores trailing bytes, so
   * reading past the entry is harmless; a stream cut short throws
   * Z_BUF_ERROR ("unexpected end of file"). Throws E_CORRUPT when the data
   * does not inflate or inflates to another size than the header declares.
   */
  inflateEntry(entry: { header: PackEntryHeader; chunk: Buffer; chunkStart: number }): Buffer {
    const { header } = entry;
    const remaining = this.dataEnd - header.dataOffset;
    let input = entry.chunk.subarray(header.dataOffset - entry.chunkStart);
    let want = Math.min(deflateBound(header.size), remaining);
    // Trees and deltas (mostly binary ids) seldom deflate below half their
    // size: when the bytes at hand are fewer than that, the stream most
    // likely runs past them, so read what the entry may need up front rather
    // than inflate a stream that will be cut short.
    if (input.length < want && input.length * 2 < header.size) input = this.readAt(header.dataOffset, want);
    for (;;) {
      try {
        // chunkSize one past the expected size: a single exact output
        // buffer (pooled when small) instead of 16 KiB chunks per call.
        const out = inflateSync(input, { maxOutputLength: Math.max(1, header.size), chunkSize: Math.max(64, header.size + 1) });
        if (out.length !== header.size) {
          throw corrupt(`pack ${this.packPath}: entry at offset ${header.offset} inflates to ${out.length} bytes, header says ${header.size}`, { path: this.packPath, offset: header.offset });
        }
        return out;
      } catch (error) {
        if (error instanceof RalphError) throw error;
        const truncated = isErrno(error, "Z_BUF_ERROR");
        if (truncated && input.length < remaining) {
          // Past the deflate bound only for streams zlib did not write
          // (e.g. many empty stored blocks): keep doubling.
          if (want <= input.length) want = Math.min(input.length * 2, remaining);
          input = this.readAt(header.dataOffset, want);
          continue;
        }
        throw corrupt(`pack ${this.packPath}: entry at offset ${header.offset} does not inflate (${(error as Error).message})`, { path: this.packPath, offset: header.offset }, error);
      }
    }
  }

  /**
   * Reads the object whose entry starts at `offset`, following its delta
   * chain. Bases met on the way are cached in `cache`; a REF_DELTA base not
   * in this pack comes from `resolveExternal`. `depth` counts deltas already
   * followed by the caller. The returned content may be the cached copy:
   * read-only. Throws E_CORRUPT for a malformed entry, a chain longer than
   * `maxDepth` or a missing base.
   */
  readObjectAt(offset: number, options: { cache: DeltaBaseCache; maxDepth: number; depth: number; resolveExternal: ResolveExternalBase }): GitObject {
    const { cache, maxDepth } = options;
    const chain: { header: PackEntryHeader; chunk: Buffer; chunkStart: number }[] = [];
    let base: GitObject | undefined;
    let at = offset;
    for (;;) {
      const cacheKey = packKey(this.id, at);
      base = cache.get(cacheKey);
      if (base !== undefined) break;
      if (options.depth + chain.length > maxDepth) {
        throw corrupt(`pack ${this.packPath}: delta chain at offset ${offset} is deeper than ${maxDepth}`, {
          path: this.packPath,
          offset,
          maxDepth,
        });
      }
      const entry = this.readEntry(at);
      const { header } = entry;
      const type = OBJECT_TYPE_BY_CODE[header.type];
      if (type !== undefined) {
        base = { type, content: this.inflateEntry(entry) };
        if (chain.length > 0) cache.set(cacheKey, base);
        break;
      }
      chain.push(entry);
      if (header.baseOffset !== undefined) {
        at = header.baseOffset;
        continue;
      }
      const baseOid = header.baseOid as string;
      const local = this.index.findOffset(Buffer.from(baseOid, "hex"));
      if (local >= 0) {
        at = local;
        continue;
      }
      const external = options.resolveExternal(baseOid, options.depth + chain.length);
      if (external === null) {
        throw corrupt(`pack ${this.packPath}: delta base ${baseOid} of the entry at offset ${at} is missing`, {
          path: this.packPath,
          offset: at,
          oid: baseOid,
        });
      }
      base = external;
      break;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const entry = chain[i] as { header: PackEntryHeader; chunk: Buffer; chunkStart: number };
      let content: Buffer;
      try {
        content = applyDelta(base.content, this.inflateEntry(entry));
      } catch (error) {
        if (error instanceof RalphError && error.data.path === undefined) {
          throw corrupt(`pack ${this.packPath}: entry at offset ${entry.header.offset}: ${error.message}`, { path: this.packPath, offset: entry.header.offset }, error);
        }
        throw error;
      }
      base = { type: base.type, content };
      if (i > 0) cache.set(packKey(this.id, entry.header.offset), base);
    }
    return base;
  }
}

// ---------------------------------------------------------------------------
// objects/pack

/**
 * The packs of one `objects/pack` directory. Scans lazily, keeps the most
 * recently hit pack first (successive reads tend to hit the same pack), and
 * rescans on demand to pick up packs that `git gc` / `git repack` / a fetch
 * added, dropping the ones they removed.
 */
export class PackDirectory {
  /** The `objects/pack` directory. */
  readonly dir: string;
  private packs: PackFile[] = [];
  private scanned = false;
  private readonly cache: DeltaBaseCache;
  private readonly windows: ByteBudgetCache<Buffer>;

  /** `cache` and `windows` are shared with the other pack directories of the object database. */
  constructor(dir: string, cache: DeltaBaseCache, windows: ByteBudgetCache<Buffer>) {
    this.dir = dir;
    this.cache = cache;
    this.windows = windows;
  }

  /** The current packs, scanning the directory on first use. */
  list(): readonly PackFile[] {
    if (!this.scanned) this.rescan();
    return this.packs;
  }

  /**
   * Re-reads the directory listing: new `pack-*.idx` files with their
   * `.pack` are added (newest first), vanished ones closed and dropped.
   * Returns true when the set of packs changed. A missing directory is an
   * empty set.
   */
  rescan(): boolean {
    this.scanned = true;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      if (!isErrno(error, "ENOENT", "ENOTDIR")) throw error;
      names = [];
    }
    const present = new Set(names);
    const known = new Map(this.packs.map((p) => [p.idxPath, p]));
    const next: PackFile[] = [];
    let changed = false;
    for (const name of names) {
      if (!name.startsWith("pack-") || !name.endsWith(".idx")) continue;
      const packName = `${name.slice(0, -4)}.pack`;
      if (!present.has(packName)) continue;
      const idxPath = join(this.dir, name);
      const existing = known.get(idxPath);
      if (existing !== undefined) {
        known.delete(idxPath);
        next.push(existing);
        continue;
      }
      const packPath = join(this.dir, packName);
      const stat = statSync(packPath, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      next.push(new PackFile(packPath, idxPath, stat.mtimeMs, this.cache.allocatePackId(), this.windows));
      changed = true;
    }
    for (const gone of known.values()) {
      gone.close();
      this.cache.dropPack(gone.id);
      this.windows.dropPack(gone.id);
      changed = true;
    }
    if (changed) {
      next.sort((a, b) => b.mtimeMs - a.mtimeMs);
      this.packs = next;
      debug(() => `odb: ${this.packs.length} pack(s) in ${this.dir}`);
    }
    return changed;
  }

  /**
   * The pack holding `oid` (20 raw bytes) and the entry offset, or null.
   * A pack whose index vanished or is corrupt is skipped (with a warning for
   * a corrupt one, as git does); the next rescan settles it.
   */
  find(oid: Buffer): { pack: PackFile; offset: number } | null {
    const packs = this.list();
    for (let i = 0; i < packs.length; i++) {
      const pack = packs[i] as PackFile;
      if (pack.isBroken) continue;
      let offset: number;
      try {
        offset = pack.index.findOffset(oid);
      } catch (error) {
        if (error instanceof PackMissingError) continue;
        if (error instanceof RalphError && error.code === "E_CORRUPT") {
          warn(error.message);
          continue;
        }
        throw error;
      }
      if (offset < 0) continue;
      if (i > 0) {
        // Move to front: the next object most likely lives in the same pack.
        this.packs = [pack, ...packs.slice(0, i), ...packs.slice(i + 1)];
      }
      return { pack, offset };
    }
    return null;
  }

  /** Closes every open pack file. */
  close(): void {
    for (const pack of this.packs) pack.close();
  }
}
