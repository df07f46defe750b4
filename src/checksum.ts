/**
 * Checksummed cache files: a body followed by the 20-byte SHA-1 of the body
 * (as git's index ends with the SHA-1 of its content, gitformat-index(5)).
 * Every cache ralph keeps under `.git/ralph/` (the stat cache, the facts
 * cache entries, the parsers' V8 code cache) is written with
 * {@link withChecksum} and read with {@link verifiedBody}: a file torn,
 * truncated or edited by hand fails the check and is treated as a miss, so
 * a cache can cost time but never hand a wrong answer (a wrong blob oid
 * would put a missing object into a checkpoint).
 */
import { createHash } from "node:crypto";

/** Length of the trailing checksum, in bytes (SHA-1). */
export const CHECKSUM_BYTES = 20;

/** `body` followed by its SHA-1. */
export function withChecksum(body: Buffer): Buffer {
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

/** The body of a file written by {@link withChecksum}, or null when it is too short or its checksum does not match. */
export function verifiedBody(file: Buffer): Buffer | null {
  if (file.length < CHECKSUM_BYTES) return null;
  const body = file.subarray(0, file.length - CHECKSUM_BYTES);
  const sum = createHash("sha1").update(body).digest();
  return sum.equals(file.subarray(file.length - CHECKSUM_BYTES)) ? body : null;
}
