/**
 * `ralph gc`'s pruning of ralph's caches under `<git dir>/ralph/`: the
 * facts cache (`facts/<2 hex>/<38 hex>.json`, each naming the blob `oid`
 * its facts came from, src/loop/facts-cache.ts) loses the entries whose
 * blob nothing references any more (the caller decides: no ref, reflog or
 * index reaches it, or the object database no longer has it). An
 * unreadable entry, or one failing its checksum, is removed too (the cache treats it as a miss anyway).
 */
import { readdirSync, readFileSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { verifiedBody } from "../checksum.js";
import { isErrno } from "../errors.js";

/** The blob oid a facts entry names, or null for an entry that is unreadable or fails its checksum (src/checksum.ts). */
function entryOid(path: string): string | null {
  try {
    const body = verifiedBody(readFileSync(path));
    if (body === null) return null;
    const oid = (JSON.parse(body.toString("utf8")) as { oid?: unknown }).oid;
    return typeof oid === "string" && /^[0-9a-f]{40}$/.test(oid) ? oid : null;
  } catch {
    return null;
  }
}

/** The blob oids the facts cache holds entries for (to ask git which of them are still referenced). */
export function factsCacheOids(ralphDir: string): Set<string> {
  const out = new Set<string>();
  const root = join(ralphDir, "facts");
  let folders: string[];
  try {
    folders = readdirSync(root);
  } catch {
    return out;
  }
  for (const folder of folders) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    let files: string[];
    try {
      files = readdirSync(join(root, folder));
    } catch {
      continue;
    }
    for (const file of files) {
      const oid = file.endsWith(".json") ? entryOid(join(root, folder, file)) : null;
      if (oid) out.add(oid);
    }
  }
  return out;
}

/** Removes facts entries whose blob `keep` denies; returns how many were removed. Never throws for a missing cache. */
export function pruneFactsCache(ralphDir: string, keep: (oid: string) => boolean): number {
  const root = join(ralphDir, "facts");
  let removed = 0;
  let folders: string[];
  try {
    folders = readdirSync(root);
  } catch (error) {
    if (isErrno(error, "ENOENT", "ENOTDIR")) return 0;
    throw error;
  }
  for (const folder of folders) {
    if (!/^[0-9a-f]{2}$/.test(folder)) continue;
    const dir = join(root, folder);
    let files: string[];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    let left = files.length;
    for (const file of files) {
      if (!file.endsWith(".json")) continue;
      const path = join(dir, file);
      const oid = entryOid(path);
      if (oid !== null && keep(oid)) continue;
      try {
        unlinkSync(path);
        removed++;
        left--;
      } catch {
        /* removed meanwhile */
      }
    }
    if (left === 0) {
      try {
        rmdirSync(dir);
      } catch {
        /* a hook wrote an entry meanwhile */
      }
    }
  }
  return removed;
}
