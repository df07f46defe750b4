/**
 * Read-only parser of git's index file (`.git/index`, the staging area):
 * versions 2, 3 (extended flags) and 4 (prefix-compressed paths), as laid
 * out in git's Documentation/gitformat-index.txt. ralph never writes the
 * index (DESIGN.md "Storage": the user's index is never touched).
 *
 * Extensions are skipped, with three exceptions:
 * - "sdir" (sparse index): directory entries are reported as entries with
 *   mode 0o40000 whose oid is a tree, path without its trailing "/", and
 *   {@link GitIndex.isSparse} is true.
 * - "link" (split index, core.splitIndex): the entries here are only a delta
 *   against a shared index file; reading them alone would be wrong, so this
 *   throws E_CORRUPT with `data.reason` "split-index" and a message naming
 *   the fix (`git update-index --no-split-index`).
 * - any other required (lowercase) extension: E_CORRUPT, reason
 *   "unknown-extension", as git itself refuses such an index.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { RalphError, isErrno } from "../errors.js";
import { decodePath } from "./path-bytes.js";

/**
 * One index entry (gitformat-index "Index entry"). Stat fields are the
 * 32-bit values git recorded (seconds and nanoseconds since the epoch; `size`
 * is the file size truncated to 32 bits).
 */
export interface IndexEntry {
  /** Path relative to the work tree root, "/"-separated, decoded as UTF-8. */
  path: string;
  /** 0o100644, 0o100755, 0o120000 (symlink), 0o160000 (gitlink); 0o40000 for a sparse-index directory. */
  mode: number;
  /** Object id, lowercase hex: a blob, a commit (gitlink) or a tree (sparse directory). */
  oid: string;
  /** 0 normally; 1 (base), 2 (ours), 3 (theirs) during a merge conflict. */
  stage: 0 | 1 | 2 | 3;
  ctimeSec: number;
  ctimeNsec: number;
  mtimeSec: number;
  mtimeNsec: number;
  dev: number;
  ino: number;
  uid: number;
  gid: number;
  /** File size in bytes, truncated to 32 bits. */
  size: number;
  /** The assume-valid ("assume unchanged") flag. */
  assumeValid: boolean;
  /** The skip-worktree flag (sparse checkout, `git update-index --skip-worktree`). */
  skipWorktree: boolean;
  /** The intent-to-add flag (`git add -N`): the path is tracked but has no content staged. */
  intentToAdd: boolean;
}

/** A parsed index: its format version, its entries in stored (path, stage) order. */
export interface GitIndex {
  version: 2 | 3 | 4;
  entries: IndexEntry[];
  /** True when the index is a sparse index ("sdir" extension): some entries are directories (mode 0o40000). */
  isSparse: boolean;
}

/** Size of the fixed part of an on-disk entry up to and including the 16-bit flags. */
const ENTRY_FIXED_BYTES = 62;
const FLAG_ASSUME_VALID = 0x8000;
const FLAG_EXTENDED = 0x4000;
const FLAG_NAME_MASK = 0x0fff;
const XFLAG_SKIP_WORKTREE = 0x4000;
const XFLAG_INTENT_TO_ADD = 0x2000;

/**
 * Reads and parses the index file at `indexPath`. A missing file is an
 * empty index ({ version: 2, entries: [] }); an unreadable one throws
 * E_UNREADABLE; a truncated or corrupt one (bad signature, version,
 * checksum, entry or extension) throws E_CORRUPT naming the path.
 */
export function readGitIndex(indexPath: string): GitIndex {
  let buf: Buffer;
  try {
    buf = readFileSync(indexPath);
  } catch (error) {
    if (isErrno(error, "ENOENT")) return { version: 2, entries: [], isSparse: false };
    throw new RalphError("E_UNREADABLE", `cannot read the git index ${indexPath}: ${(error as Error).message}`, {
      data: { path: indexPath },
      cause: error,
    });
  }
  return parseGitIndex(buf, indexPath);
}

/**
 * Parses index file bytes; `path` only names the file in errors. Verifies
 * the trailing SHA-1 unless it is all zeros (index.skipHash). Same errors as
 * {@link readGitIndex}.
 */
export function parseGitIndex(buf: Buffer, path: string): GitIndex {
  const fail = (reason: string, detail: string): RalphError =>
    new RalphError("E_CORRUPT", `the git index ${path} is corrupt: ${detail}; rebuild it with 'rm ${path} && git reset' (staged changes are lost)`, { data: { path, reason } });
  if (buf.length < 12 + 20 || buf.toString("latin1", 0, 4) !== "DIRC") throw fail("signature", "bad signature or too short");
  const version = buf.readUInt32BE(4);
  if (version !== 2 && version !== 3 && version !== 4) throw fail("version", `unsupported version ${version}`);
  const trailerStart = buf.length - 20;
  const trailer = buf.subarray(trailerStart);
  if (trailer.some((b) => b !== 0)) {
    const actual = createHash("sha1").update(buf.subarray(0, trailerStart)).digest();
    if (!actual.equals(trailer)) throw fail("checksum", "checksum mismatch (truncated or overwritten)");
  }
  const count = buf.readUInt32BE(8);
  const entries: IndexEntry[] = new Array<IndexEntry>(count);
  let pos = 12;
  // Version 4: the previous path's bytes, which the next entry edits.
  let previous = Buffer.allocUnsafe(256);
  let previousLength = 0;
  let emptyPathEntry = -1;
  for (let i = 0; i < count; i++) {
    const start = pos;
    if (start + ENTRY_FIXED_BYTES > trailerStart) throw fail("truncated", `entry ${i} of ${count} is cut short`);
    const flags = buf.readUInt16BE(start + 60);
    let extended = 0;
    pos = start + ENTRY_FIXED_BYTES;
    if (flags & FLAG_EXTENDED) {
      if (version < 3) throw fail("entry", `entry ${i} has extended flags in a version 2 index`);
      if (pos + 2 > trailerStart) throw fail("truncated", `entry ${i} of ${count} is cut short`);
      extended = buf.readUInt16BE(pos);
      pos += 2;
    }
    let entryPath: string;
    if (version === 4) {
      // "offset encoding" varint: bytes to drop from the previous path.
      let byte = buf[pos++] ?? 0x80;
      let strip = byte & 0x7f;
      while (byte & 0x80) {
        if (pos >= trailerStart) throw fail("truncated", `entry ${i} of ${count} is cut short`);
        byte = buf[pos++] as number;
        strip = (strip + 1) * 128 + (byte & 0x7f);
      }
      const nul = buf.indexOf(0, pos);
      if (nul < 0 || nul >= trailerStart || strip > previousLength) throw fail("entry", `entry ${i} has a malformed path`);
      const keep = previousLength - strip;
      const length = keep + (nul - pos);
      if (length > previous.length) {
        const grown = Buffer.allocUnsafe(Math.max(length, previous.length * 2));
        previous.copy(grown, 0, 0, keep);
        previous = grown;
      }
      buf.copy(previous, keep, pos, nul);
      previousLength = length;
      entryPath = decodePath(previous, 0, length);
      pos = nul + 1;
    } else {
      const nameLength = flags & FLAG_NAME_MASK;
      const nul = nameLength < FLAG_NAME_MASK ? pos + nameLength : buf.indexOf(0, pos + FLAG_NAME_MASK);
      if (nul < 0 || nul >= trailerStart || buf[nul] !== 0) throw fail("entry", `entry ${i} has a malformed path`);
      entryPath = decodePath(buf, pos, nul);
      // Pad with 1-8 NULs to a multiple of 8 bytes from the entry's start.
      pos = start + ((nul - start + 8) & ~7);
      if (pos > trailerStart) throw fail("truncated", `entry ${i} of ${count} is cut short`);
    }
    let mode = buf.readUInt32BE(start + 24);
    if ((mode & 0o170000) === 0o040000 && entryPath.endsWith("/")) {
      entryPath = entryPath.slice(0, -1);
      mode = 0o40000;
    }
    // Legal only in a split index (replaced entries have no name); judged after the extensions.
    if (entryPath === "" && emptyPathEntry < 0) emptyPathEntry = i;
    entries[i] = {
      path: entryPath,
      mode,
      oid: buf.toString("hex", start + 40, start + 60),
      stage: ((flags >> 12) & 3) as 0 | 1 | 2 | 3,
      ctimeSec: buf.readUInt32BE(start),
      ctimeNsec: buf.readUInt32BE(start + 4),
      mtimeSec: buf.readUInt32BE(start + 8),
      mtimeNsec: buf.readUInt32BE(start + 12),
      dev: buf.readUInt32BE(start + 16),
      ino: buf.readUInt32BE(start + 20),
      uid: buf.readUInt32BE(start + 28),
      gid: buf.readUInt32BE(start + 32),
      size: buf.readUInt32BE(start + 36),
      assumeValid: (flags & FLAG_ASSUME_VALID) !== 0,
      skipWorktree: (extended & XFLAG_SKIP_WORKTREE) !== 0,
      intentToAdd: (extended & XFLAG_INTENT_TO_ADD) !== 0,
    };
  }
  let isSparse = false;
  while (pos + 8 <= trailerStart) {
    const signature = buf.toString("latin1", pos, pos + 4);
    const size = buf.readUInt32BE(pos + 4);
    if (pos + 8 + size > trailerStart) throw fail("truncated", `extension ${JSON.stringify(signature)} is cut short`);
    if (signature === "link") {
      throw new RalphError("E_CORRUPT", `the git index ${path} is a split index, which ralph does not read; run \`git update-index --no-split-index\``, { data: { path, reason: "split-index" } });
    }
    if (signature === "sdir") {
      isSparse = true;
    } else {
      const first = signature.charCodeAt(0);
      if (first < 0x41 || first > 0x5a) {
        throw new RalphError("E_CORRUPT", `the git index ${path} uses the ${JSON.stringify(signature)} extension, which ralph does not understand`, {
          data: { path, reason: "unknown-extension", extension: signature },
        });
      }
    }
    pos += 8 + size;
  }
  if (pos !== trailerStart) throw fail("truncated", "trailing bytes after the last extension");
  if (emptyPathEntry >= 0) throw fail("entry", `entry ${emptyPathEntry} has an empty path`);
  return { version, entries, isSparse };
}
