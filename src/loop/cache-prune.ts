/**
 * `ralph gc`'s pruning of ralph's caches under `<git dir>/ralph/`: the
 * facts cache (`facts/<2 hex>/<38 hex>.json`, each naming the blob `oid`
 * its facts came from, src/loop/facts-cache.ts) loses the entries whose
 * blob the object database no longer has (git's gc pruned it: nothing
 * referenced it). An unreadable entry is removed too (the cache treats it
 * as a miss anyway).
 */
import { readdirSync, readFileSync, rmdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { isErrno } from "../errors.js";

/** Removes facts entries whose blob `hasObject` denies; returns how many were removed. Never throws for a missing cache. */
export function pruneFactsCache(ralphDir: string, hasObject: (oid: string) => boolean): number {
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
      let oid: unknown = null;
      try {
        oid = (JSON.parse(readFileSync(path, "utf8")) as { oid?: unknown }).oid;
      } catch {
        oid = null;
      }
      if (typeof oid === "string" && /^[0-9a-f]{40}$/.test(oid) && hasObject(oid)) continue;
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
