/**
 * ralph's analysis layer: file contents in, facts and findings out. It never
 * touches git or the file system for repository data, so every behaviour is
 * testable on plain strings (DESIGN.md "Analysis: facts, then findings").
 *
 * Start-up cost: importing this module loads no parser; a language's parser
 * is imported the first time one of its files is extracted.
 */

import { RalphError } from "../errors.js";
import { compareFacts, type FactsPair } from "./compare.js";
import { renameWitness } from "./title-renames.js";
import { droppedCargoFeatures, droppedDependencies, droppedTargets, isMsBuildPath } from "./dropped-dependencies.js";
import { detectConfigTamper, isConfigPath, supportAfterChange } from "./config/index.js";
import { detectCoverageRegression, isCoverageSummaryPath } from "./coverage.js";
import { detectStoredExpectationEdits, isStoredExpectationPath } from "./stored-expectations.js";
import { screenContent } from "./content.js";
import { filesLeavingDiscovery, hasOwnRunner, TestDiscovery, type Collection, type TreeReader } from "./discovery.js";
import { markDoubledChecks } from "./doubles.js";
import { deprecatedNames, deprecationNotices } from "./deprecations.js";
import { emptyFacts, hasUsableFacts, type FileFacts } from "./facts.js";
import { linkImportedHelpers, loadHelperCallers } from "./imported-helpers.js";
import { linkRowTypes } from "./row-types.js";
import { linkDefinedTests, loadDefinerCallers } from "./defined-tests.js";
import { EMPTY_CLASS_CONTEXT, loadClassContext, type UnchangedFiles } from "./inheritance.js";
import { extensionSkipFindings, indirectSkipFindings, suiteListFindings } from "./indirection.js";
import { emptiedGlobFindings } from "./emptied-globs.js";
import { customSkipAttributeFindings } from "./custom-skip-attributes.js";
import { loadExercisingTests } from "./exercising.js";
import { loadEntryOnlyModules } from "./reach.js";
import { loadNeighbourCode } from "./neighbours.js";
import { LANGUAGES, extensionOf, languageForPath } from "./languages/index.js";
import { tsconfigFindings } from "./rules/index.js";
import { isUnderTestDirectory, type CollectionRules } from "./languages/language.js";
import type { AllowRule, Analysis, AnalysisStats, FileChange, Finding, NotAnalyzed } from "./types.js";
import { nullableErrorScopes, supportChanges } from "./support.js";
import { applyAllowRules, decideVerdict, sortFindings } from "./verdict.js";

export type { AllowRule, Analysis, AnalysisStats, FileChange, Finding, FindingType, NotAnalyzed, Severity, Verdict } from "./types.js";
export type { FileFacts, TestCase, TestFlag, TestFlags } from "./facts.js";
export type { UnchangedFiles } from "./inheritance.js";
export { resolveTestsAcross } from "./inheritance.js";
export { EXTRACTOR_VERSION } from "./facts.js";
export { saveParserCodeCache } from "./parsers/babel.js";
export { codeCacheDirOf, setCodeCacheDir } from "./parsers/code-cache.js";
export type { LanguageId, LanguageModule } from "./languages/index.js";
export type { CollectionRules } from "./languages/language.js";
export type { Collection, TreeReader } from "./discovery.js";
export { hasOwnRunner, TestDiscovery } from "./discovery.js";
export { getLanguage, languageForPath } from "./languages/index.js";

/** Options of {@link analyzeChanges}. */
export interface AnalyzeOptions {
  /** Rules from `Ralph-Allow` trailers and config; matching findings stay in the output, marked allowed. */
  allow?: readonly AllowRule[];
  /** Percentage points a coverage-summary.json metric may fall before it is a coverage_regression (default 0.5). */
  coverageTolerancePercent?: number;
  /** Facts kept between runs; a hit skips parsing (see {@link FactsCache}). */
  facts?: FactsCache;
  /**
   * The diff's unchanged files, read on demand, so tests a changed class
   * inherits from an unchanged file (or an unchanged subclass inherits from a
   * changed one) are judged (inheritance.ts). Without it, inheritance is
   * resolved among the changed files only. special_casing also reads the
   * unchanged tests that exercise a changed module from it (exercising.ts),
   * when that module gained a literal branch.
   */
  unchanged?: UnchangedFiles;
  /**
   * The two trees the changes are between. With them, which files hold
   * tests follows the test runners' configs (discovery.ts): a side whose
   * file the runner does not collect counts no tests, and an untouched test
   * file that a config change takes out of discovery is judged too
   * (test_disabled, naming its tests). Without them (a single edit), the
   * languages' naming conventions decide.
   */
  trees?: { before: TreeReader; after: TreeReader };
  /** Called as each changed file has been judged, with how many of `changes.length` are done (a progress line). Must not throw. */
  onFile?: (done: number, total: number) => void;
}

/**
 * The findings without the assertion findings of tests that a test_disabled
 * finding already reports: a test that no longer runs (a helper's `t.Errorf`
 * now `t.Skipf`) also lost the checks it ran, and one finding says so.
 */
function withoutDisabledTestsChecks(findings: readonly Finding[]): Finding[] {
  const key = (finding: Finding): string => `${finding.file}\u0000${finding.test ?? ""}`;
  const disabled = new Set(findings.filter((finding) => finding.type === "test_disabled" && finding.test).map(key));
  if (disabled.size === 0) return [...findings];
  return findings.filter((finding) => !((finding.type === "assertion_removal" || finding.type === "assertion_weakening") && finding.test && disabled.has(key(finding))));
}

/**
 * Facts the caller keeps between runs, so an unchanged file is never parsed
 * twice. analysis never touches the file system: the caller (src/loop)
 * decides where entries live and keys them by the content's blob oid, the
 * path (it decides the language and whether a file is a test file) and
 * {@link EXTRACTOR_VERSION}.
 */
export interface FactsCache {
  /** Facts extracted earlier for this path and content (and `variant`: the collection rules they were extracted with, as JSON), or undefined. */
  get(path: string, content: string, variant?: string): FileFacts | undefined;
  /** Remembers freshly extracted facts for this path and content (and `variant`). */
  set(path: string, content: string, facts: FileFacts, variant?: string): void;
}

/**
 * Is this path one ralph analyses? A language's file (by extension, through
 * the language registry), a test configuration file (runner configs,
 * package.json, pytest/tox/coverage settings, Makefiles, CI pipelines), a
 * coverage-summary.json, a stored expectation (snapshots, golden files:
 * stored-expectations.ts) or an MSBuild file (the build targets a change
 * drops: dropped-dependencies.ts). Loads no parser.
 */
export function isAnalyzable(path: string): boolean {
  return languageForPath(path) !== null || isConfigPath(path) || isCoverageSummaryPath(path) || isStoredExpectationPath(path) || isMsBuildPath(path);
}

/** `compute`, run on the first call and remembered: for inputs few changes need (the manifests' stated support). */
function lazily<T>(compute: () => T): () => T {
  let value: { of: T } | null = null;
  return () => (value ??= { of: compute() }).of;
}

/**
 * Facts of one file. Binary content, files over 2 MB and minified non-test
 * files come back with `notAnalyzed` set and no tests; unparsable files with
 * `parseError`. The language's parser is imported on first use. `rules` are
 * what the runner's config says about collecting this file's tests
 * ({@link TestDiscovery.collection}); without them the conventions hold.
 * Checks of a double the test made are marked (doubles.ts markDoubledChecks).
 * @throws RalphError E_USAGE when no language handles the path (check {@link isAnalyzable} first).
 */
export async function extractFacts(path: string, content: string, rules?: CollectionRules): Promise<FileFacts> {
  const language = languageForPath(path);
  if (!language) {
    const known = LANGUAGES.flatMap((candidate) => candidate.extensions);
    throw new RalphError("E_USAGE", `cannot analyse ${path}: no language handles "${extensionOf(path) || "(no extension)"}" files`, {
      data: { path, known_extensions: known },
    });
  }
  const isTestPath = language.isTestPath(path) || rules?.testModule === true;
  const problem = screenContent(path, content, isTestPath);
  if (problem !== null) return emptyFacts(language.id, isTestPath, { notAnalyzed: problem });
  const facts = rules ? await language.extract(path, content, rules) : await language.extract(path, content);
  if (!facts.isTestFile && hasUsableFacts(facts)) {
    const deprecations = deprecationNotices(language.id, content);
    if (deprecations.length > 0) facts.code = { ...facts.code, deprecations };
    const deprecated = deprecations.length > 0 ? deprecatedNames(language.id, content) : [];
    if (deprecated.length > 0) facts.code = { ...facts.code, deprecatedNames: deprecated };
  }
  return markDoubledChecks(facts, content);
}

/**
 * A tree with the changes' `side` laid over it: a changed path reads as
 * that side's content (absent when null), so discovery reads the configs
 * the changes compare even when the caller's tree is older or newer.
 */
function withChanges(tree: TreeReader, changes: readonly FileChange[], side: "before" | "after"): TreeReader {
  const changed = new Map(changes.map((change) => [change.path, change[side]]));
  const folderOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf("/")));
  const isBelow = (dir: string, path: string): boolean => dir === "" || path.startsWith(`${dir}/`);
  return {
    read: (path) => (changed.has(path) ? (changed.get(path) ?? null) : tree.read(path)),
    fileNames(dir) {
      const names = new Set(tree.fileNames(dir));
      for (const [path, content] of changed) {
        if (folderOf(path) !== dir) continue;
        const name = path.slice(path.lastIndexOf("/") + 1);
        if (content === null) names.delete(name);
        else names.add(name);
      }
      return [...names];
    },
    walk(dir) {
      const paths = new Set(tree.walk(dir));
      for (const [path, content] of changed) {
        if (!isBelow(dir, path)) continue;
        if (content === null) paths.delete(path);
        else paths.add(path);
      }
      return [...paths].sort();
    },
  };
}

/** Extensions of languages ralph has no analyzer for yet, whose test files are worth naming in `not_analyzed`. */
const UNSUPPORTED_SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([".py", ".go", ".rs", ".java", ".kt", ".kts", ".rb", ".php", ".cs", ".swift", ".scala", ".ex", ".exs", ".c", ".cc", ".cpp"]);

/** `test_x.py`, `x_test.go`, `XTest.java`, `XTests.cs`, `x_spec.rb`, `x.test.*`, or under a test directory. */
function looksLikeTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const stem = name.includes(".") ? name.slice(0, name.indexOf(".")) : name;
  return isUnderTestDirectory(path) || /^tests?_/i.test(stem) || /[._-](test|tests|spec)$/i.test(stem) || /[a-z0-9](Test|Tests|Spec)$/.test(stem) || /\.(test|spec)\./i.test(name);
}

/**
 * FactsPair.notCollected for the two sides' collections (null for an absent
 * side), or undefined when both sides are collected or unknown, or the file
 * uses a framework with its own runner (Playwright, Cypress, node:test, …),
 * which the vitest/jest/mocha configs do not decide for.
 *
 * A file that existed before and that the config's include patterns did not
 * reach then (collected: false, not excluded) is judged by the naming
 * conventions, as without a config: another config or runner may well run
 * it (a NestJS `test/jest-e2e.json` beside a package.json `jest` rooted at
 * `src`, karma beside jest), and nothing in the change took it out of
 * discovery. Files an exclusion pattern leaves out (fixtures) stay out.
 */
function notCollectedSides(before: Collection | null, after: Collection | null, frameworks: readonly string[]): FactsPair["notCollected"] {
  if (hasOwnRunner(frameworks)) return undefined;
  if (before?.collected === false && !before.excluded && (after === null || (after.collected === false && !after.excluded))) return undefined;
  const sides: NonNullable<FactsPair["notCollected"]> = {};
  if (before?.collected === false) sides.before = before.by ?? "the runner config";
  if (after?.collected === false) sides.after = after.by ?? "the runner config";
  return sides.before === undefined && sides.after === undefined ? undefined : sides;
}

function problemOf(facts: FileFacts): string {
  return facts.parseError !== undefined ? `parse error: ${facts.parseError}` : (facts.notAnalyzed ?? "not analysed");
}

/**
 * Compares the changed files and returns findings (allowed ones included,
 * most severe first), the verdict, stats and the files that could not be
 * analysed. Files of unsupported languages are skipped; those that look like
 * tests are listed in `not_analyzed` so their absence from the findings is
 * visible. Never throws for bad file content.
 */
export async function analyzeChanges(changes: readonly FileChange[], options: AnalyzeOptions = {}): Promise<Analysis> {
  const stats: AnalysisStats = {
    files_changed: changes.length,
    files_analyzed: 0,
    tests_before: 0,
    tests_after: 0,
    assertions_before: 0,
    assertions_after: 0,
  };
  const notAnalyzed: NotAnalyzed[] = [];
  const pairs: FactsPair[] = [];

  const extract = async (path: string, content: string, rules?: CollectionRules): Promise<FileFacts> => {
    const variant = rules ? JSON.stringify(rules) : undefined;
    const cached = options.facts?.get(path, content, variant);
    if (cached) return cached;
    const facts = await extractFacts(path, content, rules);
    options.facts?.set(path, content, facts, variant);
    return facts;
  };
  const trees = options.trees ? { before: withChanges(options.trees.before, changes, "before"), after: withChanges(options.trees.after, changes, "after") } : null;
  const discovery = trees ? { before: new TestDiscovery(trees.before), after: new TestDiscovery(trees.after) } : null;
  const unknown: Collection = { collected: null };

  for (const [index, change] of changes.entries()) {
    options.onFile?.(index, changes.length);
    if (languageForPath(change.path) === null) {
      const extension = extensionOf(change.path);
      if (UNSUPPORTED_SOURCE_EXTENSIONS.has(extension) && looksLikeTestPath(change.path)) {
        notAnalyzed.push({ path: change.path, reason: `no analyzer for ${extension} files yet; its tests were not checked` });
      }
      continue;
    }
    const [collectedBefore, collectedAfter] = discovery ? await Promise.all([discovery.before.collection(change.path), discovery.after.collection(change.path)]) : [unknown, unknown];
    const [before, after] = await Promise.all([
      change.before === null ? null : extract(change.path, change.before, collectedBefore.rules),
      change.after === null ? null : extract(change.path, change.after, collectedAfter.rules),
    ]);
    const pair: FactsPair = { path: change.path, before, after };
    const frameworks = [...(before?.frameworks ?? []), ...(after?.frameworks ?? [])];
    const notCollected = notCollectedSides(before && collectedBefore, after && collectedAfter, frameworks);
    if (notCollected) pair.notCollected = notCollected;
    else if (before && collectedBefore.collected === false && !hasOwnRunner(frameworks)) pair.byConventions = true;
    pairs.push(pair);

    const problems: string[] = [];
    if (before && !hasUsableFacts(before)) problems.push(`before: ${problemOf(before)}`);
    if (after && !hasUsableFacts(after)) problems.push(`after: ${problemOf(after)}`);
    if (problems.length > 0) notAnalyzed.push({ path: change.path, reason: problems.join("; ") });
    else stats.files_analyzed++;

    if (before && hasUsableFacts(before) && !notCollected?.before) {
      stats.tests_before += before.tests.length;
      stats.assertions_before += before.assertions;
    }
    if (after && hasUsableFacts(after) && !notCollected?.after) {
      stats.tests_after += after.tests.length;
      stats.assertions_after += after.assertions;
    }
  }

  // Untouched test files that a config change took out of discovery: judged with the same content on both sides.
  if (trees && discovery) {
    const losses = await filesLeavingDiscovery(
      { discovery: discovery.before, tree: trees.before },
      { discovery: discovery.after, tree: trees.after },
      changes.map((change) => change.path),
    );
    for (const loss of losses) {
      const content = trees.after.read(loss.path);
      if (content === null) continue;
      const facts = await extract(loss.path, content, (await discovery.before.collection(loss.path)).rules);
      if (!hasUsableFacts(facts) || facts.tests.length === 0 || hasOwnRunner(facts.frameworks)) continue;
      pairs.push({ path: loss.path, before: facts, after: facts, notCollected: { after: loss.by }, isUnchanged: true });
    }
  }

  // Config files, coverage summaries and stored expectations are judged as whole files, beside the facts.
  const testsLeaving =
    trees && discovery
      ? async (dir: string): Promise<string[] | null> => {
          let known = false;
          const leaving: string[] = [];
          for (const path of trees.after.walk(dir)) {
            if (languageForPath(path)?.id !== "javascript") continue;
            const was = await discovery.before.collection(path);
            if (was.collected !== true) continue;
            known = true;
            if ((await discovery.after.collection(path)).collected === false) leaving.push(path);
          }
          // Test files gone from the after tree are judged as deletions; one collected before that is still there decides.
          return known ? leaving : null;
        }
      : undefined;
  const config = await detectConfigTamper(changes, trees ? (path) => trees.after.read(path) : undefined, trees ?? undefined, testsLeaving);
  const coverage = detectCoverageRegression(changes, options.coverageTolerancePercent);
  const stored = detectStoredExpectationEdits(changes);
  stats.files_analyzed += stored.analyzed.length;
  for (const result of [config, coverage]) {
    notAnalyzed.push(...result.notAnalyzed);
    // A JS config module was already counted with its facts.
    stats.files_analyzed += result.analyzed.filter((path) => languageForPath(path) === null).length;
  }

  // Unchanged files are alike in both trees: the before side's discovery gives their collection rules.
  const extractUnchanged = async (path: string, content: string): Promise<FileFacts> => extract(path, content, discovery ? (await discovery.before.collection(path)).rules : undefined);
  // Unchanged tests defined through a changed file's test definer that now defines them differently are judged with the change.
  if (options.unchanged)
    pairs.push(
      ...(await loadDefinerCallers(pairs, options.unchanged, extractUnchanged, (path, language) => languageForPath(path)?.id === language && (languageForPath(path)?.isTestPath(path) ?? false))),
    );
  // Calls of project functions that define tests (a spec helper's `deprecated "x" do`) become tests where the function is a definer.
  await linkDefinedTests(pairs, options.unchanged, extractUnchanged);
  // Unchanged tests calling a changed module's helper that now checks differently are judged with the change.
  if (options.unchanged) pairs.push(...(await loadHelperCallers(pairs, options.unchanged, extractUnchanged, (path) => languageForPath(path)?.isTestPath(path) ?? false)));
  // Tests' calls of helpers imported from other modules (changed, or unchanged and read from the tree) become helper checks.
  await linkImportedHelpers(pairs, options.unchanged, extractUnchanged);
  // Table loops over rows of a struct another file of the package declares read that struct's columns.
  await linkRowTypes(pairs, options.unchanged, extractUnchanged);
  const context = options.unchanged ? await loadClassContext(pairs, options.unchanged, extractUnchanged) : EMPTY_CLASS_CONTEXT;
  // Skips of changed helpers, TestMains and conftest fixtures that reach tests in unchanged files (indirection.ts).
  const indirect = options.unchanged ? await indirectSkipFindings(pairs, options.unchanged, extractUnchanged) : [];
  // Test classes dropped from a JUnit suite list the build runs.
  if (trees)
    indirect.push(
      ...(await suiteListFindings(
        pairs,
        (path) => trees.after.read(path),
        () => trees.after.walk(""),
        extractUnchanged,
      )),
    );
  // JUnit 5 ExecutionConditions that disable tests by name, newly applied to test classes.
  if (trees)
    indirect.push(
      ...(await extensionSkipFindings(
        pairs,
        (path) => trees.after.read(path),
        () => trees.after.walk(""),
        extractUnchanged,
      )),
    );
  // Tests marked with a custom attribute that always skips (an xUnit FactAttribute setting Skip, a @Disabled meta-annotation).
  if (trees) indirect.push(...customSkipAttributeFindings(changes, trees));
  // Case globs of test code edited to find no file of the tree: the loops over them check nothing.
  if (trees) indirect.push(...(await emptiedGlobFindings(changes, trees)));
  // Unchanged tests that exercise a changed module, read only when one gained a literal branch (special_casing).
  const exercising = options.unchanged ? await loadExercisingTests(pairs, options.unchanged, extractUnchanged) : undefined;
  // Changed modules that gained a success exit and that only program entry points import (harness-escape).
  const entryOnly = trees ? loadEntryOnlyModules(pairs, trees.after) : undefined;
  // Unchanged collaborators of changed product files that lost a guard: the guard may live on in what they now call.
  const neighbours = trees ? await loadNeighbourCode(pairs, trees.after, new Set(changes.map((change) => change.path)), extractUnchanged) : [];
  const findings = sortFindings(
    applyAllowRules(
      withoutDisabledTestsChecks([
        ...compareFacts(
          pairs,
          changes.map((change) => change.path),
          context,
          {
            exercising,
            entryOnly,
            support: supportChanges(changes),
            neighbours,
            stated: lazily(() =>
              trees
                ? supportAfterChange(changes, (path) => trees.after.read(path), trees.after.fileNames(""))
                : supportAfterChange(changes, (path) => changes.find((change) => change.path === path)?.after ?? null),
            ),
            nullableErrors: nullableErrorScopes(changes),
            droppedDependencies: droppedDependencies(changes),
            droppedTargets: droppedTargets(changes),
            droppedFeatures: droppedCargoFeatures(changes),
            renames: renameWitness(changes.filter((change) => !(languageForPath(change.path)?.isTestPath(change.path) ?? false))),
          },
        ),
        ...indirect,
        ...tsconfigFindings(changes),
        ...config.findings,
        ...coverage.findings,
        ...stored.findings,
      ]),
      options.allow ?? [],
    ),
  );
  return { verdict: decideVerdict(findings), findings, stats, not_analyzed: notAnalyzed };
}
