/**
 * Listing the test cases ralph sees at a revision: in the files the
 * project's test runner collects (its config's include/exclude patterns
 * when they can be read statically, else the naming conventions), with
 * test methods inherited from base classes or brought by imported test
 * classes resolved across files. `ralph tests` prints it.
 */
import { extractFacts, hasOwnRunner, languageForPath, resolveTestsAcross, TestDiscovery, type FileFacts } from "../analysis/index.js";
import { debug } from "../log.js";
import { openFactsCache } from "../loop/facts-cache.js";
import type { CheckpointStore, ResolvedRev } from "../store/checkpoint-store.js";
import { walkTree } from "../store/tree-diff.js";
import { treeFiles } from "../store/tree-files.js";

/**
 * A test case as the runner collects it.
 * `file` is the file that collects it (pytest's node id path) and `line` is
 * in that file. A test method a class inherits from a base class, or that
 * an imported test class brings (pytest collects it again in the importing
 * module), has `declared_in`: the file, line and class of the method.
 * `flags` lists `conditional` (not `skipped`) for a test skipped only under
 * a condition (`skipif(...)`, `if GOOS == "windows" { t.Skip() }`), with
 * the construct in `conditional_via`.
 */
export interface TestRow {
  id: string;
  file: string;
  line: number;
  flags: string[];
  assertions: number;
  conditional_via?: string;
  declared_in?: { file: string; line: number; class: string };
}

/** What {@link listTests} found at a revision. */
export interface TestListing {
  /** The revision's label (`WORKTREE`, an oid, `@baseline`…) as resolved. */
  label: string;
  /** `WORKTREE`, or the commit's oid. */
  rev: string;
  tests: TestRow[];
  /** Collected files ralph could not read tests from, with why. */
  unparsable: { file: string; reason: string }[];
  /** Test-like files the runner's config leaves out (never run), with the config that does. */
  notCollected: { file: string; by: string }[];
}

/** Where {@link listTests} reports its progress: the work tree's files read, then the test files read (`done` of `total`). */
export interface TestListingProgress {
  tick(label: string, done: number, total?: number): void;
}

/**
 * Lists the test cases at `rev` (the work tree is snapshotted first, so its
 * files are read through the stat cache). Facts come from the facts cache
 * when ralph has seen a file; new ones are added to it unless the tree has
 * so many files that they would push out everything a check keeps there.
 * @throws RalphError from the store (E_LOCKED, E_UNREADABLE) only.
 */
export async function listTests(store: CheckpointStore, rev: ResolvedRev, progress: TestListingProgress): Promise<TestListing> {
  const treeOid = rev.kind === "worktree" ? store.snapshot({ onProgress: (seen) => progress.tick("reading the work tree: files", seen) }).treeOid : rev.treeOid;
  const rows: TestRow[] = [];
  const unparsable: { file: string; reason: string }[] = [];
  const files = new Map<string, FileFacts>();
  const paths: string[] = [];
  const notCollected: { file: string; by: string }[] = [];
  const uncollected = new Set<string>();
  const discovery = new TestDiscovery(treeFiles(store.odb, treeOid));
  // Only files a language extracts tests from (config and coverage files are analysable, but hold no tests).
  const candidates: { path: string; oid: string; language: NonNullable<ReturnType<typeof languageForPath>> }[] = [];
  for (const [path, entry] of walkTree(store.odb, treeOid)) {
    paths.push(path);
    const language = languageForPath(path);
    if (entry.mode !== "160000" && entry.mode !== "120000" && language !== null) candidates.push({ path, oid: entry.oid, language });
  }
  // Facts come from the facts cache when ralph has seen the file; new ones are added to it unless the tree has so many
  // files that they would push out everything a check keeps there (then it is only read).
  const cache = openFactsCache(store.repo.ralphDir);
  const writesCache = candidates.length <= cache.maxEntries / 2;
  for (const [index, { path, oid, language }] of candidates.entries()) {
    progress.tick("reading test files", index, candidates.length);
    const collection = await discovery.collection(path);
    const content = store.odb.read(oid).content;
    if (content.subarray(0, 8000).includes(0)) continue;
    const text = content.toString("utf8");
    const variant = collection.rules ? JSON.stringify(collection.rules) : undefined;
    let facts = cache.get(path, text, variant);
    if (!facts) {
      facts = await extractFacts(path, text, collection.rules);
      if (writesCache) cache.set(path, text, facts, variant);
    }
    // Kept even when the runner leaves the file out: its classes can still be bases of collected ones.
    files.set(path, facts);
    if (collection.collected === false && !hasOwnRunner(facts.frameworks)) {
      // The runner's config leaves it out: its tests never run. Named when it declares tests or the conventions would count it.
      uncollected.add(path);
      if (facts.tests.length > 0 || language.isTestPath(path)) notCollected.push({ file: path, by: collection.by ?? "the runner config" });
      continue;
    }
    if (facts.parseError) unparsable.push({ file: path, reason: facts.parseError });
    else if (facts.notAnalyzed && facts.isTestFile) unparsable.push({ file: path, reason: facts.notAnalyzed });
  }
  cache.flush();
  debug(() => `tests: ${candidates.length} files; facts cache ${cache.stats.hits} hits, ${cache.stats.misses} misses, ${cache.stats.writes} written`);
  // Test methods inherited from (or classes imported from) other files.
  const resolved = resolveTestsAcross(files, paths);
  for (const [path, facts] of files) {
    if (uncollected.has(path)) continue;
    for (const t of resolved.get(path) ?? facts.tests) {
      const flags = Object.entries(t.flags)
        .filter(([, on]) => on)
        .map(([name]) => name);
      const row: TestRow = { id: t.id, file: path, line: t.line, flags, assertions: t.assertionCount };
      if (t.flags.conditional && t.flagVia?.conditional) row.conditional_via = t.flagVia.conditional;
      if (t.declaredAt) row.declared_in = { file: t.declaredAt.file, line: t.declaredAt.line, class: t.declaredAt.suitePath.join(" > ") };
      rows.push(row);
    }
  }
  return { label: rev.label, rev: rev.kind === "worktree" ? "WORKTREE" : rev.oid, tests: rows, unparsable, notCollected };
}
