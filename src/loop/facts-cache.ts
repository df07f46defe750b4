/**
 * The facts cache: facts extracted from a file are kept under
 * `.git/ralph/facts/`, keyed by the file's blob oid, its path (the path
 * decides the language and whether a file is a test file),
 * EXTRACTOR_VERSION (a build-time hash of the extractor sources, scripts/facts-hash.mjs) and, when the runner's config sets them, the collection
 * rules the facts were extracted with (a variant), so an unchanged file is never parsed twice, and a hook
 * call whose files were all seen before loads no parser at all.
 *
 * Layout: one JSON file per entry, `facts/<2 hex>/<38 hex>.json`, named by
 * sha1(version, path, blob oid[, variant]); written to a temporary name and renamed, so
 * two hook processes at once never see a half-written entry. A missing,
 * corrupt or mismatching entry is a miss, never an error. Every edit an
 * agent makes adds entries, so the cache is pruned now and then (see
 * {@link DiskFactsCache.prune}): the least recently written entries go first.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codeCacheDirOf, EXTRACTOR_VERSION, type FactsCache, type FileFacts, saveParserCodeCache, setCodeCacheDir } from "../analysis/index.js";
import { debug } from "../log.js";
import { verifiedBody, withChecksum } from "../checksum.js";

/** The git blob oid of a text as git stores it (its UTF-8 bytes); the same oid the store read it from when it was valid UTF-8. */
export function blobOidOfText(content: string): string {
  const bytes = Buffer.from(content, "utf8");
  return createHash("sha1").update(`blob ${bytes.length}\u0000`).update(bytes).digest("hex");
}

/** What one entry file holds; `path`, `oid`, `version` and `variant` are checked on read. */
interface Entry {
  version: string;
  path: string;
  oid: string;
  /** The collection rules (JSON) the facts were extracted with; absent for the naming conventions. */
  variant?: string;
  facts: FileFacts;
}

/** Counts of one run, for logs and measurements. */
export interface FactsCacheStats {
  hits: number;
  misses: number;
  writes: number;
}

/** Limits of a {@link DiskFactsCache}. */
export interface FactsCacheLimits {
  /** Entries kept at most; pruning removes the oldest down to 80% of this. Default 4000 (tens of MB). */
  maxEntries: number;
  /** Prune after one flush in this many (on average, at random), so a hook call rarely pays for the folder scan. Default 50. */
  pruneEvery: number;
}

const DEFAULT_LIMITS: FactsCacheLimits = { maxEntries: 4000, pruneEvery: 50 };

/** A {@link FactsCache} on disk under a repository's `.git/ralph/facts/`. Writes are buffered until {@link DiskFactsCache.flush}. */
export class DiskFactsCache implements FactsCache {
  readonly stats: FactsCacheStats = { hits: 0, misses: 0, writes: 0 };
  private readonly pending = new Map<string, Entry>();
  private readonly limits: FactsCacheLimits;

  /** How many entries the cache keeps at most (pruning starts above it). */
  get maxEntries(): number {
    return this.limits.maxEntries;
  }

  /** `dir` is the cache folder, e.g. `<git dir>/ralph/facts`. */
  constructor(
    readonly dir: string,
    limits: Partial<FactsCacheLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  private locate(path: string, oid: string, variant?: string): { key: string; file: string } {
    const key = createHash("sha1")
      .update(`${EXTRACTOR_VERSION}\u0000${path}\u0000${oid}${variant === undefined ? "" : `\u0000${variant}`}`)
      .digest("hex");
    return { key, file: join(this.dir, key.slice(0, 2), `${key.slice(2)}.json`) };
  }

  /** Cached facts for this path and content (and collection-rules variant), or undefined. */
  get(path: string, content: string, variant?: string): FileFacts | undefined {
    const oid = blobOidOfText(content);
    const { key, file } = this.locate(path, oid, variant);
    const pending = this.pending.get(key);
    if (pending) return pending.facts;
    try {
      const body = verifiedBody(readFileSync(file));
      const entry = body === null ? undefined : (JSON.parse(body.toString("utf8")) as Entry);
      if (entry !== undefined && entry.version === EXTRACTOR_VERSION && entry.path === path && entry.oid === oid && entry.variant === variant && entry.facts) {
        this.stats.hits++;
        return entry.facts;
      }
    } catch {
      // missing, unreadable or failing its checksum: a miss
    }
    this.stats.misses++;
    return undefined;
  }

  /** Remembers facts for this path and content (and collection-rules variant); written by {@link DiskFactsCache.flush}. */
  set(path: string, content: string, facts: FileFacts, variant?: string): void {
    const oid = blobOidOfText(content);
    const entry: Entry = variant === undefined ? { version: EXTRACTOR_VERSION, path, oid, facts } : { version: EXTRACTOR_VERSION, path, oid, variant, facts };
    this.pending.set(this.locate(path, oid, variant).key, entry);
  }

  /**
   * Writes the buffered entries (temporary file, then rename), and the
   * parsers' V8 code cache when this process made one. Failures (a
   * read-only repository, a full disk) are logged with RALPH_DEBUG and
   * otherwise ignored: the cache only saves time.
   */
  flush(): void {
    saveParserCodeCache();
    for (const [key, entry] of this.pending) {
      const { file } = this.locate(entry.path, entry.oid, entry.variant);
      try {
        mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true });
        const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
        writeFileSync(temporary, withChecksum(Buffer.from(JSON.stringify(entry))));
        renameSync(temporary, file);
        this.stats.writes++;
      } catch (error) {
        debug(() => `facts cache: cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const hasWritten = this.pending.size > 0;
    this.pending.clear();
    if (hasWritten && Math.random() * this.limits.pruneEvery < 1) this.prune();
  }

  /**
   * Removes the least recently written entries when there are more than
   * `maxEntries`, down to 80% of it. Returns how many were removed. Entries
   * another process removes meanwhile are skipped; nothing here throws.
   */
  prune(): number {
    const entries: { file: string; mtimeMs: number }[] = [];
    let buckets: string[];
    try {
      buckets = readdirSync(this.dir);
    } catch {
      return 0;
    }
    for (const bucket of buckets) {
      let names: string[];
      try {
        names = readdirSync(join(this.dir, bucket));
      } catch {
        continue;
      }
      for (const name of names) {
        const file = join(this.dir, bucket, name);
        try {
          entries.push({ file, mtimeMs: statSync(file).mtimeMs });
        } catch {
          // gone meanwhile
        }
      }
    }
    if (entries.length <= this.limits.maxEntries) return 0;
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
    const excess = entries.length - Math.floor(this.limits.maxEntries * 0.8);
    for (const { file } of entries.slice(0, excess)) rmSync(file, { force: true });
    debug(() => `facts cache: pruned ${excess} of ${entries.length} entries`);
    return excess;
  }
}

/** The facts cache of a repository whose ralph folder is `ralphDir` (`<git dir>/ralph`). */
export function openFactsCache(ralphDir: string): DiskFactsCache {
  // The parsers' V8 code cache sits beside the facts (src/analysis/parsers/code-cache.ts); flush() writes it.
  setCodeCacheDir(codeCacheDirOf(ralphDir));
  return new DiskFactsCache(join(ralphDir, "facts"));
}
