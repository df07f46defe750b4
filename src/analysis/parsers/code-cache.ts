/**
 * A V8 code cache for the parsers' JavaScript, so that a fresh ralph process
 * (every hook call is one) does not compile @babel/parser's functions again.
 *
 * Why: a short-lived process parses a handful of files, and the first parse
 * of a file pays for compiling every parser function it reaches (lazy
 * compilation) on top of running them in the interpreter. Node 22 offers
 * `module.enableCompileCache()`; Node 20, ralph's floor, has no compile cache
 * for modules at all, but `vm.Script` takes and produces V8 code caches
 * (`cachedData`, `createCachedData()`). A self-contained CommonJS file (no
 * `require` of its own, as `@babel/parser/lib/index.js` is) can be compiled
 * that way with its Node module wrapper.
 *
 * The cache is made after the process has parsed (createCachedData then
 * holds the bytecode of every function compiled so far, not just the top
 * level), written once, and reused until V8 rejects it (another Node
 * version or V8 flags) or the file changes (its size and mtime are in the
 * cache name: V8 itself only checks the source length). It lives in the
 * repository's `.git/ralph/v8-cache/`, never in a shared temporary folder:
 * a code cache is trusted code.
 *
 * Measured on 40 TypeScript files (20 tests, 20 sources) of the bench
 * repository, whole-process CPU, median of 9 fresh processes: 379 ms without
 * the cache, 356 ms with it. Most of a cold parse is the interpreter running
 * before V8 tiers up, which no code cache removes.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
import { debug } from "../../log.js";
import { verifiedBody, withChecksum } from "../../checksum.js";

let cacheDir: string | null = null;

/**
 * Where code caches are read and written from now on in this process (null:
 * none). Set by whoever knows the repository. Note that within one process
 * V8's own in-memory compilation cache answers a second compile of the same
 * source before any cache file is consulted.
 */
export function setCodeCacheDir(dir: string | null): void {
  cacheDir = dir;
}

/** The cache file of `file` under the current cache folder (null when none is set): named by `cacheName`, the file's size and mtime, and the Node version and architecture. */
export function codeCacheFileFor(file: string, cacheName: string): string | null {
  if (cacheDir === null) return null;
  const st = statSync(file);
  const identity = createHash("sha1").update(`${file}\u0000${st.size}\u0000${st.mtimeMs}\u0000${process.version}\u0000${process.arch}`).digest("hex").slice(0, 16);
  return join(cacheDir, `${cacheName}-${identity}.bin`);
}

/** The folder of the code caches of a repository, under its ralph folder (e.g. `.git/ralph`). */
export function codeCacheDirOf(ralphDir: string): string {
  return join(ralphDir, "v8-cache");
}

/** A module loaded by {@link loadWithCodeCache}. */
export interface CachedModule<T> {
  exports: T;
  /** Whether V8 took its compiled code from a cache file this time. */
  fromCache: boolean;
  /** Writes the code cache if none was used this time (no-op otherwise, and after the first call); never throws. */
  save(): void;
}

/**
 * Loads the CommonJS file `file` (which must not call `require` for other
 * modules) through `vm.Script`, with the code cache of `cacheName` when one
 * fits. Throws what reading or evaluating the file throws.
 */
export function loadWithCodeCache<T>(file: string, cacheName: string): CachedModule<T> {
  const source = readFileSync(file, "utf8");
  const cacheFile = codeCacheFileFor(file, cacheName);
  let cachedData: Buffer | undefined;
  if (cacheFile !== null) {
    try {
      cachedData = verifiedBody(readFileSync(cacheFile)) ?? undefined;
      if (cachedData === undefined) debug(() => `code cache ${cacheFile} fails its checksum: rebuilding it`);
    } catch {
      cachedData = undefined; // no cache yet
    }
  }
  // The Node CommonJS wrapper, so that the file sees `exports`, `module`… as it would under require().
  const wrapper = `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
  const script = new Script(wrapper, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const accepted = cachedData !== undefined && !script.cachedDataRejected;
  if (cachedData !== undefined) debug(() => (accepted ? `code cache ${cacheFile} used` : `code cache ${cacheFile} rejected by V8: rebuilding it`));
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  let saved = accepted || cacheFile === null;
  return {
    exports: module.exports,
    fromCache: accepted,
    save() {
      if (saved || cacheFile === null) return;
      saved = true;
      try {
        const data = script.createCachedData();
        mkdirSync(dirname(cacheFile), { recursive: true });
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temporary, withChecksum(data));
        renameSync(temporary, cacheFile);
        // Caches of earlier versions of the file (or of Node) are dead weight now.
        for (const name of readdirSync(dirname(cacheFile))) {
          if (name.startsWith(`${cacheName}-`) && name.endsWith(".bin") && join(dirname(cacheFile), name) !== cacheFile) rmSync(join(dirname(cacheFile), name), { force: true });
        }
        debug(() => `code cache ${cacheFile} written (${data.length} bytes)`);
      } catch (error) {
        debug(() => `code cache ${cacheFile} not written: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}
