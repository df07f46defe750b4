/**
 * The facts cache: facts extracted from a file are kept under
 * `.git/ralph/facts/`, keyed by the file's blob oid, its path (the path
 * decides the language and whether a file is a test file) and
 * EXTRACTOR_VERSION, so an unchanged file is never parsed twice, and a hook
 * call whose files were all seen before loads no parser at all.
 *
 * Layout: one JSON file per entry, `facts/<2 hex>/<38 hex>.json`, named by
 * sha1(version, path, blob oid); written to a temporary name and renamed, so
 * two hook processes at once never see a half-written entry. A missing,
 * corrupt or mismatching entry is a miss, never an error.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXTRACTOR_VERSION, type FactsCache, type FileFacts } from "../analysis/index.js";
import { debug } from "../log.js";

/** The git blob oid of a text as git stores it (its UTF-8 bytes); the same oid the store read it from when it was valid UTF-8. */
export function blobOidOfText(content: string): string {
  const bytes = Buffer.from(content, "utf8");
  return createHash("sha1").update(`blob ${bytes.length}\u0000`).update(bytes).digest("hex");
}

/** What one entry file holds; `path`, `oid` and `version` are checked on read. */
interface Entry {
  version: number;
  path: string;
  oid: string;
  facts: FileFacts;
}

/** Counts of one run, for logs and measurements. */
export interface FactsCacheStats {
  hits: number;
  misses: number;
  writes: number;
}

/** A {@link FactsCache} on disk under a repository's `.git/ralph/facts/`. Writes are buffered until {@link DiskFactsCache.flush}. */
export class DiskFactsCache implements FactsCache {
  readonly stats: FactsCacheStats = { hits: 0, misses: 0, writes: 0 };
  private readonly pending = new Map<string, Entry>();

  /** `dir` is the cache folder, e.g. `<git dir>/ralph/facts`. */
  constructor(readonly dir: string) {}

  private locate(path: string, oid: string): { key: string; file: string } {
    const key = createHash("sha1").update(`${EXTRACTOR_VERSION}\u0000${path}\u0000${oid}`).digest("hex");
    return { key, file: join(this.dir, key.slice(0, 2), `${key.slice(2)}.json`) };
  }

  /** Cached facts for this path and content, or undefined. */
  get(path: string, content: string): FileFacts | undefined {
    const oid = blobOidOfText(content);
    const { key, file } = this.locate(path, oid);
    const pending = this.pending.get(key);
    if (pending) return pending.facts;
    try {
      const entry = JSON.parse(readFileSync(file, "utf8")) as Entry;
      if (entry.version === EXTRACTOR_VERSION && entry.path === path && entry.oid === oid && entry.facts) {
        this.stats.hits++;
        return entry.facts;
      }
    } catch {
      // missing or unreadable: a miss
    }
    this.stats.misses++;
    return undefined;
  }

  /** Remembers facts for this path and content; written by {@link DiskFactsCache.flush}. */
  set(path: string, content: string, facts: FileFacts): void {
    const oid = blobOidOfText(content);
    this.pending.set(this.locate(path, oid).key, { version: EXTRACTOR_VERSION, path, oid, facts });
  }

  /**
   * Writes the buffered entries (temporary file, then rename). Failures (a
   * read-only repository, a full disk) are logged with RALPH_DEBUG and
   * otherwise ignored: the cache only saves time.
   */
  flush(): void {
    for (const [key, entry] of this.pending) {
      const { file } = this.locate(entry.path, entry.oid);
      try {
        mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true });
        const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
        writeFileSync(temporary, JSON.stringify(entry));
        renameSync(temporary, file);
        this.stats.writes++;
      } catch (error) {
        debug(() => `facts cache: cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.pending.clear();
  }
}

/** The facts cache of a repository whose ralph folder is `ralphDir` (`<git dir>/ralph`). */
export function openFactsCache(ralphDir: string): DiskFactsCache {
  return new DiskFactsCache(join(ralphDir, "facts"));
}
