/**
 * feature_removal: exported symbols gone from non-test code, and tests
 * deleted together with the code they tested (reported here at medium
 * instead of as test_deletion).
 *
 * An export is not removed when it moved (the same name is newly exported
 * by another changed file) or was renamed (a newly exported symbol has the
 * same declaration hash, or a changed test file stopped importing the old
 * name and started importing a newly exported one). Nor is one of a file
 * that a changed file declares as a private module (Rust's `mod x;`): it
 * was never the package's API.
 */

import { checkedTest, describeCheck, findKeptCover, findReCalledCover, findReExpectedCover, keepsInputs, type Check, type CheckedTest, type Cover } from "../checks/index.js";
import { calleeOf } from "../checks/calls.js";
import { checkLikeness, isSuccessorCheck } from "../checks/likeness.js";
import type { ExportFact, TestCase } from "../facts.js";
import { droppedFeaturesGating, npmPackageOf, type DroppedDependency } from "../dropped-dependencies.js";
import { renamedFrom } from "../product-renames.js";
import type { Finding } from "../types.js";
import { hasCodeUnderTestChanged, isInlineTestedProductCode, isProductCode, isTestPair, resolveImport, usable, type RuleInput, type RulePair } from "./context.js";
import { deprecatedTokenOf, describeRetired, findNewlyDeprecated, findRemovedNames, findRetired, removedNamesCheckedBy, removedNamesOfRows } from "./dependencies.js";
import { deadUnderSupport as skippedFromMinimum, type StatedSupport, type SupportChange } from "../support.js";
import { defineRule, report, rereport } from "./registry.js";
import { checksOnlyRetiredRefusal, retireRefusalChecks } from "./retired-refusals.js";
import { implementedRefusals, isUnsupportedRuntimeRefusal, refusalFates } from "./validation.js";
import { isRejectionCheck } from "../checks/rejection.js";
import { isMetBySupport, runtimeRequirementOf } from "../runtime-requirements.js";
import { RUNTIME_LABELS } from "../config/runtimes.js";
import { acceptRefusedInputs } from "./accepted-refusals.js";
import { flipErrorChecks } from "./flipped-refusals.js";
import { checksDeprecation, retiredDeprecations } from "../deprecations.js";

/** An exported symbol that is gone after the change. */
export interface RemovedExport {
  path: string;
  name: string;
  line: number;
  isFileDeleted: boolean;
}

function exportNames(facts: ExportFact[] | undefined): Set<string> {
  return new Set((facts ?? []).map((fact) => fact.name));
}

/** Names a changed test file imports, per side. */
function importedNames(pair: RulePair, side: "before" | "after"): Set<string> {
  const names = new Set<string>();
  for (const fact of usable(pair[side])?.code?.imports ?? []) for (const name of fact.names) if (name.imported) names.add(name.imported);
  return names;
}

/** Every export that disappeared from a changed non-test file and did not move or get renamed (see the module comment). */
export function findRemovedExports(pairs: readonly RulePair[]): RemovedExport[] {
  // A Rust file with inline `#[cfg(test)]` tests is still the crate's code: its exports count.
  const code = pairs.filter((pair) => isProductCode(pair) || isInlineTestedProductCode(pair));
  const addedNames = new Map<string, string>();
  const addedHashes = new Set<string>();
  for (const pair of code) {
    const after = usable(pair.after)?.code?.exports;
    if (!after) continue;
    const before = exportNames(usable(pair.before)?.code?.exports);
    for (const fact of after) {
      if (before.has(fact.name)) continue;
      addedNames.set(fact.name, pair.path);
      if (fact.hash) addedHashes.add(fact.hash);
    }
  }
  const tests = pairs.filter(isTestPair);
  const isRenamedByTests = (name: string): boolean =>
    tests.some((pair) => {
      const before = importedNames(pair, "before");
      const after = importedNames(pair, "after");
      return before.has(name) && !after.has(name) && [...after].some((candidate) => !before.has(candidate) && addedNames.has(candidate));
    });

  const privateModules = new Set(code.flatMap((pair) => [...(usable(pair.before)?.code?.privateModules ?? []), ...(usable(pair.after)?.code?.privateModules ?? [])]));
  const removed: RemovedExport[] = [];
  for (const pair of code) {
    const beforeExports = usable(pair.before)?.code?.exports;
    if (!beforeExports || privateModules.has(pair.path)) continue;
    if (pair.after !== null && usable(pair.after) === null) continue; // unreadable now: unknown, not removed
    const afterNames = exportNames(usable(pair.after)?.code?.exports);
    for (const fact of beforeExports) {
      if (afterNames.has(fact.name)) continue;
      if (addedNames.has(fact.name)) continue; // moved to another changed file
      if (fact.hash && addedHashes.has(fact.hash)) continue; // renamed, body unchanged
      if (isRenamedByTests(fact.name)) continue; // renamed, tests updated
      removed.push({ path: pair.path, name: fact.name, line: fact.line, isFileDeleted: pair.after === null });
    }
  }
  return removed;
}

/** One feature_removal finding per removed export, and one per deleted module (listing its exports). */
export function featureRemovalFindings(removed: readonly RemovedExport[]): Finding[] {
  const deletedModules = new Map<string, RemovedExport[]>();
  for (const entry of removed) {
    if (!entry.isFileDeleted) continue;
    const list = deletedModules.get(entry.path) ?? [];
    list.push(entry);
    deletedModules.set(entry.path, list);
  }
  const moduleFindings: Finding[] = [...deletedModules].map(([path, entries]) =>
    report(
      featureRemovalRule,
      "moduleDeleted",
      { path, exports: entries.map((entry) => (entry.name === "default" ? "default" : `"${entry.name}"`)).join(", ") },
      {
        file: path,
        line: null,
        before_file: path,
        before_line: entries.length === 1 ? (entries[0] as RemovedExport).line : null,
        evidence: { symbols: entries.map((entry) => entry.name), file_deleted: true },
      },
    ),
  );
  return [
    ...moduleFindings,
    ...removed
      .filter((entry) => !entry.isFileDeleted)
      .map((entry) =>
        report(
          featureRemovalRule,
          "exportRemoved",
          { symbol: entry.name === "default" ? "default export" : `"${entry.name}"`, path: entry.path },
          {
            file: entry.path,
            line: null,
            before_file: entry.path,
            before_line: entry.line,
            evidence: { symbol: entry.name, file_deleted: false },
          },
        ),
      ),
  ];
}

/** The removed exports a deleted test used: its references mapped through its file's imports. */
function removedSymbolsUsedBy(test: TestCase, testPath: string, pair: RulePair, removed: readonly RemovedExport[]): RemovedExport[] {
  const imports = usable(pair.before)?.code?.imports ?? [];
  const references = new Set(test.references ?? []);
  if (references.size === 0) return [];
  const removedPaths = new Set(removed.map((entry) => entry.path));
  const used: RemovedExport[] = [];
  for (const fact of imports) {
    const target = resolveImport(testPath, fact.source, removedPaths);
    if (target === null) continue;
    for (const name of fact.names) {
      if (!references.has(name.local)) continue;
      const hit = removed.find((entry) => entry.path === target && (entry.name === name.imported || (name.imported === null && entry.isFileDeleted)));
      if (hit) used.push(hit);
    }
  }
  return used;
}

/** Names an assertion library binds (`expect`, chai's `assert` and `should`): a package imported under one is a test tool. */
const ASSERTION_BINDINGS: ReadonlySet<string> = new Set(["expect", "assert", "should"]);

/**
 * The dropped packages (dropped-dependencies.ts) a deleted test used: its
 * references (TestCase.references, the import locals its body reads)
 * mapped through its file's imports to the package each names. The file's
 * test frameworks (FileFacts.frameworks) never count, nor a package that
 * binds an assertion API ({@link ASSERTION_BINDINGS}).
 */
function droppedPackagesUsedBy(test: TestCase, pair: RulePair, dropped: readonly DroppedDependency[]): DroppedDependency[] {
  const facts = usable(pair.before);
  const references = new Set(test.references ?? []);
  if (!facts || references.size === 0) return [];
  const frameworks = new Set(facts.frameworks);
  const used = new Map<string, DroppedDependency>();
  for (const fact of facts.code?.imports ?? []) {
    const name = npmPackageOf(fact.source);
    const entry = name === null || frameworks.has(name) ? undefined : dropped.find((candidate) => candidate.name === name);
    // A package that binds an assertion API (`expect` of `expect`, chai's `assert`) is a test tool, not code a test used.
    if (!entry || fact.names.some((binding) => ASSERTION_BINDINGS.has(binding.imported ?? binding.local) || ASSERTION_BINDINGS.has(binding.local))) continue;
    if (fact.names.some((binding) => references.has(binding.local))) used.set(entry.name, entry);
  }
  return [...used.values()];
}

/** The names the change's product files define after it, by short name: their functions, exports and declared names. */
function survivingProductNames(pairs: readonly RulePair[]): Set<string> {
  const names = new Set<string>();
  for (const pair of pairs.filter((candidate) => isProductCode(candidate) || isInlineTestedProductCode(candidate))) {
    const code = usable(pair.after)?.code;
    for (const fn of code?.functions ?? []) names.add(shortName(fn.name));
    for (const fact of code?.exports ?? []) names.add(shortName(fact.name.replace(/::/g, ".")));
    for (const name of code?.declared ?? []) names.add(name);
  }
  return names;
}

/** Last segment of a function's name path (`Scanner.containsIgnoreCase` -> `containsIgnoreCase`). */
function shortName(name: string): string {
  return name.slice(name.lastIndexOf(".") + 1);
}

/**
 * Names of functions and methods (any visibility: a package-private Java
 * method, a Go unexported func) that a changed product file (kept or
 * deleted) defined before the change and that no changed file defines after
 * it, by their last name segment. Unreadable after sides remove nothing.
 */
export function findRemovedDefinitions(pairs: readonly RulePair[]): Set<string> {
  const code = pairs.filter((pair) => isProductCode(pair) || isInlineTestedProductCode(pair));
  const defined = new Set<string>();
  for (const pair of pairs) {
    const after = usable(pair.after);
    if (pair.after !== null && after === null) return new Set(); // unknown after side: nothing is known to be gone
    for (const fn of after?.code?.functions ?? []) defined.add(shortName(fn.name));
    for (const fn of after?.nonTestFunctions ?? []) defined.add(fn.name);
    for (const helper of after?.assertionHelpers ?? []) defined.add(helper.name);
  }
  const removed = new Set<string>();
  // Deleted files count too: a Go package file, a PHP or C# class file deleted with its test file (same package or
  // namespace, so no import names it) took the code those tests checked with it. A deleted file that held its own
  // tests (Rust inline `#[cfg(test)]`) stays a test_deletion, as cross-language.test.ts holds it.
  for (const pair of code.filter((candidate) => candidate.after !== null || isProductCode(candidate))) {
    for (const fn of usable(pair.before)?.code?.functions ?? []) {
      const name = shortName(fn.name);
      if (!defined.has(name)) removed.add(name);
    }
  }
  return removed;
}

/** What became of one deleted test (see {@link reclassifyDeletions}). */
type DeletedTestOutcome = { kind: "with-code"; symbols: string[] } | { kind: "unsupported"; support: SupportChange } | { kind: "lost" };

/** The local names of a test file's imports of removed exports: in its checks they stand for removed code. */
function removedAliases(used: readonly RemovedExport[], pair: RulePair, path: string): Set<string> {
  const aliases = new Set<string>();
  if (used.length === 0) return aliases;
  for (const fact of usable(pair.before)?.code?.imports ?? []) {
    const target = resolveImport(path, fact.source, new Set(used.map((entry) => entry.path)));
    if (target === null) continue;
    for (const name of fact.names) if (used.some((entry) => entry.path === target && (entry.name === name.imported || (name.imported === null && entry.isFileDeleted)))) aliases.add(name.local);
  }
  return aliases;
}

/**
 * What became of one deleted test: deleted with the code it tested (each of its checks
 * depended on removed code: rules/dependencies.ts; or, when it has no real
 * check, it used a removed export or each of its calls reached retired
 * code, TestCase.callNames), or lost (some check read only surviving code,
 * or it used nothing removed).
 */
function deletedTestOutcome(
  test: TestCase,
  path: string,
  pair: RulePair,
  removed: readonly RemovedExport[],
  /** Every product name the change removed: definitions (any visibility) and declared names. */
  removedNames: ReadonlySet<string>,
  /** The names the change's product files define after it (functions, exports, declared names): code that survives. */
  survivingNames: ReadonlySet<string> = new Set(),
): DeletedTestOutcome {
  const used = removedSymbolsUsedBy(test, path, pair, removed);
  const aliases = removedAliases(used, pair, path);
  const dependence = removedNamesCheckedBy(test, removedNames, aliases);
  // A test that declares the code it covers (PHPUnit #[CoversClass], NUnit [TestOf]) tested that code: all of it removed, it
  // went with it, unless one of its checks reads code of the change that survives (then it tested that too).
  const covers = test.covers ?? [];
  if (covers.length > 0 && covers.every((name) => removedNames.has(name)) && !(test.checkNames ?? []).flat().some((name) => survivingNames.has(name))) {
    return { kind: "with-code", symbols: covers.map((name) => `${name} (declared covered)`) };
  }
  if (dependence.kind === "survives") return { kind: "lost" };
  const symbols = used.map((entry) => `${entry.name} (${entry.path})`);
  if (dependence.kind === "removed") {
    const exported = new Set(used.map((entry) => entry.name));
    for (const name of dependence.names) if (!exported.has(name) && !aliases.has(name)) symbols.push(describeRetired(name));
    return { kind: "with-code", symbols };
  }
  if (used.length > 0) return { kind: "with-code", symbols };
  // No check of its own but subtests (a Go `t.Run` over table rows, a JUnit @Nested class): it tested what they test.
  const subtests = (usable(pair.before)?.tests ?? []).filter((candidate) => candidate.id.startsWith(`${test.id} > `));
  if (subtests.length > 0) {
    const outcomes = subtests.map((subtest) => deletedTestOutcome(subtest, path, pair, removed, removedNames, survivingNames));
    if (!outcomes.every((outcome) => outcome.kind === "with-code")) return { kind: "lost" };
    return { kind: "with-code", symbols: [...new Set(outcomes.flatMap((outcome) => (outcome.kind === "with-code" ? outcome.symbols : [])))] };
  }
  // No real check: it guarded that its calls do not throw. Each call reaching retired code went with that code.
  const calls = (test.callNames ?? []).map((names) => names.filter((name) => removedNames.has(name) || aliases.has(name)));
  if (calls.length > 0 && calls.every((names) => names.length > 0)) return { kind: "with-code", symbols: [...new Set(calls.flat())].sort().map(describeRetired) };
  return { kind: "lost" };
}

/**
 * Rewrites test_deletion findings whose deleted tests went with the code
 * they tested into feature_removal at medium (DESIGN.md: tests deleted
 * together with the code they test): each check of the test depended on a
 * product name the change removed (an export, a type, a function or method
 * whatever its visibility, a property, a constant), or, for a test with no
 * real check, it used a removed export. A test with one check on surviving
 * code stays a test_deletion. A test whose version-gated skip holds on
 * every version the change's manifests still support (support.ts: dropped
 * with the support for the version it ran on) stays a test_deletion at low.
 * A whole-file
 * deletion is rewritten only when every one of its tests is; removed rows
 * of a table test are rewritten when the rows lost name removed code
 * (a constant removed with its row).
 */
export function reclassifyDeletions(
  findings: readonly Finding[],
  input: RuleInput,
  removed: readonly RemovedExport[],
  removedDefinitions: ReadonlySet<string> = new Set(),
  removedNames: ReadonlySet<string> = new Set(),
): Finding[] {
  let refusals: ReturnType<typeof implementedRefusals> | null = null; // read once, when a deleted test needs it
  let surviving: Set<string> | null = null;
  let retired: string[] | null = null; // read once, when a deleted test needs it
  const allRemoved = new Set([...removedNames, ...removedDefinitions]);
  const pairByPath = new Map(input.pairs.map((pair) => [pair.path, pair] as const));
  const flags = input.support ? versionFlags(input.pairs) : new Map<string, string>();
  const lostTest = (pair: RulePair, id: string, line: number | null | undefined): TestCase | undefined => {
    const tests = usable(pair.before)?.tests ?? [];
    return tests.find((test) => test.id === id && (line == null || test.line === line)) ?? tests.find((test) => test.id === id);
  };
  return findings.map((finding) => {
    if (finding.type !== "test_deletion" || finding.severity === "low") return finding;
    const path = finding.before_file ?? finding.file;
    const pair = pairByPath.get(path);
    if (!pair) return finding;
    const rows = finding.evidence?.removed_rows;
    if (Array.isArray(rows)) return rowsFinding(finding, pair, rows as number[], allRemoved, input.droppedTargets ?? []);
    const ids: string[] = finding.test !== undefined ? [finding.test] : Array.isArray(finding.evidence?.tests) ? (finding.evidence.tests as string[]) : [];
    if (ids.length === 0) return finding;
    const symbols = new Set<string>();
    const unsupported: SupportChange[] = [];
    for (const id of ids) {
      const test = lostTest(pair, id, ids.length === 1 ? finding.before_line : null);
      if (!test) return finding;
      // The deleted test's checks, read once for the excuses below that need them.
      let checks: Check[] | null = null;
      const checksOf = (): Check[] => (checks ??= checkedTest(path, test, usable(pair.before)).checks);
      const support = input.support ? deadUnderSupport(test, input.support, flags) : null;
      let outcome: DeletedTestOutcome = support
        ? { kind: "unsupported" as const, support }
        : deletedTestOutcome(test, path, pair, removed, allRemoved, (surviving ??= survivingProductNames(input.pairs)));
      // A test of a refusal of runtimes the project no longer supports, deleted with that refusal (the version faked to reach it).
      if (outcome.kind === "lost" && input.stated) {
        const requirement = unsupportedRuntimeRefused(checksOf(), input);
        if (requirement) outcome = { kind: "with-code", symbols: [requirement] };
      }
      // A test of a refusal (`Assert.Throws<NotSupportedException>`) the change retired as the case landed.
      if (outcome.kind === "lost") {
        refusals ??= implementedRefusals(input.pairs);
        if (refusals.length > 0 && checksOnlyRetiredRefusal(checksOf(), refusals)) {
          outcome = { kind: "with-code", symbols: refusals.map((refusal) => `the refusal ${refusal.errorClass}`) };
        }
      }
      // A test of a deprecation the change retired with its deprecated path (deprecations.ts).
      if (outcome.kind === "lost") {
        retired ??= retiredDeprecations(input.pairs);
        if (retired.length > 0 && checksDeprecation(test, checksOf())) {
          outcome = { kind: "with-code", symbols: retired.slice(0, 3).map((notice) => `the deprecation at ${notice}`) };
        }
      }
      // A test of a package the change drops from its manifest, deleted with it: its module could no longer load.
      if (outcome.kind === "lost" && input.droppedDependencies) {
        const used = droppedPackagesUsedBy(test, pair, input.droppedDependencies);
        if (used.length > 0) outcome = { kind: "with-code", symbols: used.map((entry) => `the dependency ${entry.name} (dropped from ${entry.manifest})`) };
      }
      // A test compiled only under a Cargo feature the change takes out of its manifest: it can no longer be built.
      if (outcome.kind === "lost" && input.droppedFeatures) {
        const gates = droppedFeaturesGating(test.flagVia?.conditional, input.droppedFeatures);
        if (gates.length > 0) outcome = { kind: "with-code", symbols: gates.map((entry) => `the Cargo feature ${entry.name} (dropped from ${entry.manifest})`) };
      }
      if (outcome.kind === "lost") return finding;
      if (outcome.kind === "unsupported") unsupported.push(outcome.support);
      else for (const name of outcome.symbols) symbols.add(name);
    }
    const dropped = unsupported[0];
    if (dropped && unsupported.length === ids.length) {
      const requirement = `${dropped.path} ${dropped.afterText ?? dropped.after?.join(".") ?? ""}`.trim();
      return rereport(
        finding,
        featureRemovalRule,
        ids.length === 1 ? "unsupportedTestDeleted" : "unsupportedTestsDeleted",
        { test: ids[0], count: ids.length, path, runtime: dropped.runtime, requirement },
        { evidence: { ...finding.evidence, support: { runtime: dropped.runtime, before: dropped.before, after: dropped.after, manifest: dropped.path } } },
      );
    }
    for (const entry of unsupported) symbols.add(`${entry.runtime} < ${entry.after?.join(".") ?? "?"}`);
    const list = [...symbols].join(", ");
    return rereport(
      finding,
      featureRemovalRule,
      ids.length === 1 ? "testDeletedWithCode" : "testsDeletedWithCode",
      { test: ids[0], count: ids.length, path, list },
      {
        evidence: { ...finding.evidence, removed_symbols: [...symbols], reclassified_from: "test_deletion" },
      },
    );
  });
}

/**
 * `the refusal of Node.js below 10 (package.json: >=10)` when every real
 * check of a deleted test expects an error, one at least by a message that
 * states a runtime requirement, and the project's stated support already
 * meets every such requirement
 * (runtime-requirements.ts) and a product guard raising that message is
 * gone from the change's after side (validation.ts
 * isUnsupportedRuntimeRefusal keeps it from being a bypass); else null.
 */
function unsupportedRuntimeRefused(checks: readonly Check[], input: RuleInput): string | null {
  const real = checks.filter((check) => check.relation !== "helper");
  const stated = input.stated?.();
  if (real.length === 0 || !stated || stated.size === 0) return null;
  if (!real.every(isRejectionCheck)) return null;
  // The message may be checked apart from the error's type (PHPUnit's expectException + expectExceptionMessage).
  const requirements = real.flatMap((check) => runtimeRequirementOf([check.message, check.expected].filter((text) => text !== undefined).join(" ")) ?? []);
  const first = requirements[0];
  if (!first || !requirements.every((requirement) => isMetBySupport(requirement, stated))) return null;
  const isGuardGone = input.pairs.some((pair) => {
    const removed = (usable(pair.before)?.code?.guards ?? []).filter((guard) => isUnsupportedRuntimeRefusal(guard.action, stated));
    const kept = new Set((usable(pair.after)?.code?.guards ?? []).map((guard) => guard.action));
    return removed.some((guard) => !kept.has(guard.action));
  });
  if (!isGuardGone) return null;
  const support = stated.get(first.runtime) as StatedSupport;
  return `the refusal of ${RUNTIME_LABELS[first.runtime]} below ${first.version.join(".")} (${support.path}: ${support.requirement})`;
}

/** Module-level constants bound to a version comparison in the changed product files, either side (CodeFacts.versionFlags). */
function versionFlags(pairs: readonly RulePair[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (const pair of pairs) for (const side of [pair.before, pair.after]) for (const flag of usable(side)?.code?.versionFlags ?? []) if (!flags.has(flag.name)) flags.set(flag.name, flag.condition);
  return flags;
}

/** The support change under which a conditionally skipped test ran on no supported version any more (support.ts), or null. */
function deadUnderSupport(test: TestCase, support: readonly SupportChange[], flags: ReadonlyMap<string, string>): SupportChange | null {
  if (!test.flags.conditional || test.flags.skipped || test.skipCondition === undefined) return null;
  return skippedFromMinimum(test.skipCondition, support, flags);
}

/** A table test's lost-rows finding rewritten as feature_removal when the rows lost named removed code (see {@link removedNamesOfRows}). */
function rowsFinding(finding: Finding, pair: RulePair, rows: readonly number[], removedNames: ReadonlySet<string>, droppedTargets: readonly string[]): Finding {
  const tests = usable(pair.before)?.tests ?? [];
  const targets = droppedTargetsOfRows(
    tests.find((candidate) => candidate.line === finding.before_line),
    rows,
    finding,
    droppedTargets,
  );
  if (targets) {
    return rereport(
      finding,
      featureRemovalRule,
      "rowsOfDroppedTargets",
      { test: finding.test ?? "", count: rows.length, path: pair.path, list: targets.join(", ") },
      { evidence: { ...finding.evidence, dropped_targets: targets, reclassified_from: "test_deletion" } },
    );
  }
  const test = tests.find((candidate) => candidate.line === finding.before_line && candidate.eachRowElements !== undefined);
  const added = typeof finding.evidence?.added_rows === "number" ? finding.evidence.added_rows : 0;
  const names = test ? removedNamesOfRows(test, rows, rows.length - added, removedNames) : null;
  if (!test || !names) return finding;
  const list = names.join(", ");
  return rereport(
    finding,
    featureRemovalRule,
    "rowsDeletedWithCode",
    { test: test.id, count: rows.length - added, path: pair.path, list },
    { evidence: { ...finding.evidence, removed_symbols: names, reclassified_from: "test_deletion" } },
  );
}

/**
 * The dropped build targets (dropped-dependencies.ts droppedTargets) the
 * removed rows (1-based) of a table test name, or null unless each removed
 * row has a string literal that is one (`"net6.0"`, compared lower-case)
 * and no row was added in their place.
 */
function droppedTargetsOfRows(test: TestCase | undefined, rows: readonly number[], finding: Finding, droppedTargets: readonly string[]): string[] | null {
  const literals = test?.eachRowLiterals;
  if (!literals || droppedTargets.length === 0 || rows.length === 0 || (typeof finding.evidence?.added_rows === "number" && finding.evidence.added_rows > 0)) return null;
  const dropped = new Set(droppedTargets);
  const named = new Set<string>();
  for (const row of rows) {
    const hits = (literals[row - 1] ?? []).map((literal) => literal.replace(/^"|"$/g, "").toLowerCase()).filter((value) => dropped.has(value));
    if (hits.length === 0) return null;
    for (const hit of hits) named.add(hit);
  }
  return [...named].sort();
}

/** The new and edited tests of the after side, with their checks: where a lost test's checks may live on. */
function editedAfterTests(input: RuleInput): CheckedTest[] {
  const keptAsIs = new Set(input.matched.filter((test) => test.before.bodyHash === test.after.bodyHash).map((test) => test.after));
  return input.pairs.flatMap((pair) => {
    const after = usable(pair.after);
    return (after?.tests ?? []).filter((test) => !keptAsIs.has(test) && !test.flags.skipped && !test.flags.todo && !test.flags.failing).map((test) => checkedTest(pair.path, test, after));
  });
}

/** The before test a finding names (by id, and by line when it has one) in the pair of its file, with its checks, or null. */
function namedBeforeTest(finding: Finding, pairByPath: ReadonlyMap<string, RulePair>): { path: string; test: TestCase; checked: CheckedTest } | null {
  const path = finding.before_file ?? finding.file;
  const before = usable(pairByPath.get(path)?.before ?? null);
  const test = before?.tests.find((candidate) => candidate.id === finding.test && (finding.before_line == null || candidate.line === finding.before_line));
  return before && test ? { path, test, checked: checkedTest(path, test, before) } : null;
}

/**
 * Where a check lives on with its expected value changed: in a row of a
 * table test (checks/index.ts findReExpectedCover), else on the same call
 * in a plain test (findReCalledCover); null when neither.
 */
function reExpectedCover(check: Check, test: TestCase, pool: readonly CheckedTest[], isCalleeChanged: (check: Check) => boolean): Cover | null {
  return findReExpectedCover(check, test, pool) ?? (isCalleeChanged(check) ? findReCalledCover(check, pool) : null);
}

/**
 * Whether the change rewrote the code a check calls, for a check made again
 * on the same call expecting another value ({@link findReCalledCover}): its
 * callee, by short name, when a changed product file defines it (its body
 * rewritten, added or removed); else (a helper of the tests, code outside
 * the change) some product function of the change rewritten. A comment, a
 * manifest or another function of the callee's file changed is no reason
 * for its expected value to change.
 */
function calleeChanges(pairs: readonly RulePair[]): (check: Check) => boolean {
  const { functions } = refusalFates(pairs);
  const isAnyChanged = [...functions.values()].some((fn) => fn.isChanged);
  return (check) => {
    const name =
      calleeOf(check.subject)
        ?.split(/\.|::|->/)
        .pop() ?? "";
    return functions.get(name)?.isChanged ?? isAnyChanged;
  };
}

/** The checks of a test gone that an assertion_removal names as made nowhere (evidence.removed: line and description), or null when one is not found. */
function removedChecks(finding: Finding, checks: readonly Check[]): Check[] | null {
  const removed = finding.evidence?.removed;
  if (!Array.isArray(removed) || removed.length === 0) return null;
  const lost = removed.map((entry) => {
    const { line, check } = entry as { line?: unknown; check?: unknown };
    return checks.find((candidate) => candidate.line === line && describeCheck(candidate) === check);
  });
  return lost.every((check) => check !== undefined) ? (lost as Check[]) : null;
}

/** The after tests an assertion_removal names as the homes of the checks kept (evidence.conserved_in), as found in `pool`. */
function conservedHomes(finding: Finding, pool: readonly CheckedTest[]): CheckedTest[] {
  const homes = Array.isArray(finding.evidence?.conserved_in) ? (finding.evidence.conserved_in as { file?: unknown; test?: unknown }[]) : [];
  return pool.filter((candidate) => homes.some((home) => home.file === candidate.file && home.test === candidate.test.id));
}

/** The data and fields of a finding rewritten as checks re-expected: the first home, the checks listed (three at most), the re_expected evidence. */
function reExpectedReport(finding: Finding, changed: readonly Cover[]): { data: Record<string, string>; changes: Partial<Finding> } {
  const home = changed[0] as Cover;
  const checks = changed
    .slice(0, 3)
    .map((cover) => describeCheck(cover.check))
    .join("; ");
  return {
    data: { home: home.by.test.id, homePath: home.by.file, checks },
    changes: {
      file: home.by.file,
      line: home.by.test.line,
      evidence: {
        ...finding.evidence,
        re_expected: changed.map((cover) => ({ check: describeCheck(cover.check), test: cover.by.test.id, file: cover.by.file })),
        reclassified_from: finding.type,
      },
    },
  };
}

/**
 * A test_deletion rewritten when each check of its test lives on, as it
 * was or re-expected ({@link reExpectedCover}), and the tests that make
 * them still feed its inputs when one is made on a plain test
 * (checks/index.ts keepsInputs); else the finding as it is.
 */
function reExpectedDeletion(finding: Finding, path: string, test: TestCase, checks: readonly Check[], pool: readonly CheckedTest[], isCalleeChanged: (check: Check) => boolean): Finding {
  const changed: Cover[] = [];
  const kept: Cover[] = [];
  for (const check of checks) {
    const cover = findKeptCover(check, test, path, pool);
    if (cover) {
      kept.push(cover);
      continue;
    }
    const again = reExpectedCover(check, test, pool, isCalleeChanged);
    if (!again) return finding;
    changed.push(again);
  }
  if (changed.length === 0) return finding;
  const isInTable = changed.every((cover) => cover.row !== undefined);
  if (
    !isInTable &&
    !keepsInputs(
      test,
      changed,
      kept.map((cover) => cover.by),
    )
  )
    return finding;
  const { data, changes } = reExpectedReport(finding, changed);
  return rereport(finding, featureRemovalRule, isInTable ? "testMergedReExpected" : "testRetitledReExpected", { test: test.id, path, ...data }, changes);
}

/**
 * An assertion_removal of a test gone rewritten when each check it names
 * as made nowhere (evidence.removed) is made again expecting otherwise
 * ({@link reExpectedCover}) and the tests that keep its checks
 * (evidence.conserved_in) or make them again still feed its inputs
 * (checks/index.ts keepsInputs); else the finding as it is.
 */
function reExpectedRemoval(finding: Finding, path: string, test: TestCase, checks: readonly Check[], pool: readonly CheckedTest[], isCalleeChanged: (check: Check) => boolean): Finding {
  const lost = removedChecks(finding, checks);
  if (!lost) return finding;
  const changed: Cover[] = [];
  for (const check of lost) {
    const cover = reExpectedCover(check, test, pool, isCalleeChanged);
    if (!cover) return finding;
    changed.push(cover);
  }
  if (!keepsInputs(test, changed, conservedHomes(finding, pool))) return finding;
  const { data, changes } = reExpectedReport(finding, changed);
  return rereport(finding, featureRemovalRule, "checksReExpected", { test: test.id, path, kept: checks.length - lost.length, count: checks.length, ...data }, changes);
}

/** True when a finding is one {@link reExpectedDeletions} judges: a test_deletion of one test (no rows), or an assertion_removal of a test gone; not low. */
function isLostTestFinding(finding: Finding): boolean {
  if (finding.severity === "low" || finding.test === undefined) return false;
  if (finding.type === "test_deletion") return !Array.isArray(finding.evidence?.removed_rows);
  return finding.type === "assertion_removal" && finding.evidence?.conserved_in !== undefined;
}

/**
 * Rewrites a test_deletion, or the assertion_removal of a test gone with
 * some of its checks kept, whose checks live on with their expectations
 * changed while the code under test changed too: each check it lost is
 * made again by a new or edited test, in a table row that keeps every
 * input it fed the code (checks/index.ts findReExpectedCover), or on the
 * same call in a plain test, the same callee with every literal it passed
 * still passed and others possibly added, with the same relation and no
 * less strength (findReCalledCover: a test retitled, sweep of
 * sindresorhus/globby 1273541cca), expecting another value. The
 * expectation followed the product change, as an edited test's may
 * (DESIGN.md expectation_changed is no finding then): reported as
 * expectation_changed at medium, since the test was also merged away or
 * retitled. With the code under test unchanged, it stays what it was (a
 * test that re-expects a check is how a failing case is made to pass); a
 * check on another input, a weaker or a negated relation is no cover.
 */
export function reExpectedDeletions(findings: readonly Finding[], input: RuleInput): Finding[] {
  let pool: CheckedTest[] | null = null;
  let isCalleeChanged: ((check: Check) => boolean) | null = null;
  const pairByPath = new Map(input.pairs.map((pair) => [pair.path, pair] as const));
  return findings.map((finding) => {
    if (!isLostTestFinding(finding)) return finding;
    const named = namedBeforeTest(finding, pairByPath);
    if (!named || named.checked.checks.length === 0 || !hasCodeUnderTestChanged(named.path, input.pairs, input.changedPaths)) return finding;
    pool ??= editedAfterTests(input);
    const judge = finding.type === "test_deletion" ? reExpectedDeletion : reExpectedRemoval;
    isCalleeChanged ??= calleeChanges(input.pairs);
    return judge(finding, named.path, named.test, named.checked.checks, pool, isCalleeChanged);
  });
}

/**
 * feature_removal for the removed exports, and the test_deletion findings
 * rewritten as described in {@link reExpectedDeletions} and
 * {@link reclassifyDeletions}.
 */
export function featureFindings(matchFindings: readonly Finding[], input: RuleInput): Finding[] {
  const findings = reExpectedDeletions(matchFindings, input);
  const removed = findRemovedExports(input.pairs);
  const retired = findRetired(input.pairs);
  // A function the change renames (product-renames.ts) lives on under its new name: a test's check of it is no check of
  // removed code, though the old name is gone for the product's callers.
  const renamed = renamedFrom(input.productRenames);
  const removedForTests = renamed.size === 0 ? removed : removed.filter((entry) => !renamed.has(shortName(entry.name.replace(/::/g, "."))));
  const definitions = new Set([...findRemovedDefinitions(input.pairs)].filter((name) => !renamed.has(name)));
  const reclassified = reclassifyDeletions(findings, input, removedForTests, definitions, retired);
  const deprecated = new Set([...retired].filter((token) => token.startsWith("~")));
  return [...reclassifyLostChecksOfRemovedCode(reclassified, input, removedForTests, deprecated), ...featureRemovalFindings(removed)];
}

/** The before test an assertion_removal of a test gone names, with its facts' checks, and the checks it lost (by evidence.removed line), or null. */
function lostChecksOf(finding: Finding, pair: RulePair): { test: TestCase; checks: Check[]; lost: Check[] } | null {
  const removed = finding.evidence?.removed;
  if (!Array.isArray(removed) || removed.length === 0 || finding.test === undefined) return null;
  const facts = usable(pair.before);
  const test = facts?.tests.find((candidate) => candidate.id === finding.test && (finding.before_line == null || candidate.line === finding.before_line));
  if (!facts || !test) return null;
  const lines = new Set(removed.map((entry) => (entry as { line?: unknown }).line).filter((line): line is number => typeof line === "number"));
  const checks = checkedTest(pair.path, test, facts).checks;
  const lost = checks.filter((check) => lines.has(check.line) && check.relation !== "helper");
  return lost.length > 0 && new Set(lost.map((check) => check.line)).size === lines.size ? { test, checks, lost } : null;
}

/** The names a check of `test` depends on: its assertion's TestCase.checkNames (by line), or the names of its texts. */
function namesOfLostCheck(check: Check, test: TestCase): string[] {
  const facts = test.assertionsDetail ?? [];
  const names = facts.flatMap((fact, index) => (fact.line === check.line ? (test.checkNames?.[index] ?? []) : []));
  return names.length > 0 ? names : [...new Set(`${check.subject} ${check.expected ?? ""}`.match(/[A-Za-z_$][\w$]*/g) ?? [])];
}

/** The call a subject starts with (`iter_named(&DEFS)` of `iter_named(&DEFS).filter(…).count()`), or null when it starts with none. */
function baseCall(subject: string): string | null {
  const head = /^[A-Za-z_$][\w$.:]*\(/.exec(subject);
  if (!head) return null;
  let depth = 0;
  for (let i = head[0].length - 1; i < subject.length; i++) {
    if (subject[i] === "(") depth++;
    else if (subject[i] === ")" && --depth === 0) return subject.slice(0, i + 1);
  }
  return null;
}

/**
 * An assertion_removal of a test gone whose checks made nowhere all
 * depended on an export the change removed (not one it moved or renamed:
 * {@link findRemovedExports}) or on another product name it removed (a
 * method, a property, a Ruby `attr_reader`: dependencies.ts
 * findRemovedNames) becomes feature_removal at medium when each
 * of them still has a counterpart after the change: a check alike through
 * the product's change (checks/likeness.ts: the same relation, the subject
 * or the expected value kept, the other adapted; or the same check made on
 * the removed member's successor, isSuccessorCheck: `foul.original_error`
 * -> `foul.cause`, sweep of jnunemaker/httparty 072e681e5e), or, for a value derived
 * from a call (`iter_named(&DEFS).filter(…).count()`), an equality of that
 * call's whole output (`iter_named(&DEFS).collect() == expected`) that
 * itself lives on. Those checks went with the code they checked, as a test
 * deleted with its code does (DESIGN.md judgement call, per check). A lost
 * check of surviving code, or one whose value is checked in no form any
 * more (a whole-sequence equality replaced by `contains` checks), keeps the
 * finding.
 */
export function reclassifyLostChecksOfRemovedCode(
  findings: readonly Finding[],
  input: RuleInput,
  removed: readonly RemovedExport[],
  /** The tokens of the names the change starts to deprecate (dependencies.ts findNewlyDeprecated). */ deprecated: ReadonlySet<string> = findNewlyDeprecated(input.pairs),
): Finding[] {
  if (!findings.some((finding) => finding.type === "assertion_removal" && finding.evidence?.conserved_in !== undefined)) return [...findings];
  // A function the change renames is no removed code (product-renames.ts): its checks are looked for under the new name.
  const renamed = renamedFrom(input.productRenames);
  const names = new Set([...removed.map((entry) => entry.name.slice(entry.name.lastIndexOf(".") + 1)), ...findRemovedNames(input.pairs)].filter((name) => !renamed.has(name)));
  if (names.size === 0 && deprecated.size === 0) return [...findings];
  const pairByPath = new Map(input.pairs.map((pair) => [pair.path, pair] as const));
  let pool: Check[] | null = null;
  const afterChecks = (): Check[] => (pool ??= input.pairs.flatMap((pair) => (usable(pair.after)?.tests ?? []).flatMap((test) => checkedTest(pair.path, test, usable(pair.after)).checks)));
  // Alike through the product's change, or the same check made on the removed member's successor (`original_error` -> `cause`).
  // The successor is a member the product did not declare before (a builtin such as `cause`, or one the change added), made
  // again in a test that took the lost one's checks (evidence.conserved_in), not any test of the change.
  const declaredBefore = new Set(input.pairs.flatMap((pair) => [...(usable(pair.before)?.code?.declared ?? []), ...(usable(pair.before)?.code?.functions ?? []).map((fn) => shortName(fn.name))]));
  const homesOf = (finding: Finding): Check[] => {
    const homes = Array.isArray(finding.evidence?.conserved_in) ? (finding.evidence.conserved_in as { file?: unknown; test?: unknown }[]) : [];
    return homes.flatMap((home) => {
      const facts = usable(pairByPath.get(String(home.file))?.after ?? null);
      return (facts?.tests ?? []).filter((test) => test.id === home.test).flatMap((test) => checkedTest(String(home.file), test, facts).checks);
    });
  };
  const isAdapted = (check: Check, homes: readonly Check[]): boolean =>
    afterChecks().some((after) => checkLikeness(check, after, "none") > 0) || homes.some((after) => isSuccessorCheck(check, after, names, declaredBefore));
  return findings.map((finding) => {
    if (finding.type !== "assertion_removal" || finding.severity === "low" || finding.evidence?.conserved_in === undefined) return finding;
    const path = finding.before_file ?? finding.file;
    const pair = pairByPath.get(path);
    const read = pair ? lostChecksOf(finding, pair) : null;
    if (!read) return finding;
    // Each check made nowhere read a name the change starts to deprecate: the announced feature's checks, dropped as they now warn.
    const deprecatedOf = (check: Check): string[] => namesOfLostCheck(check, read.test).flatMap((name) => deprecatedTokenOf(name, deprecated) ?? []);
    if (deprecated.size > 0 && read.lost.every((check) => deprecatedOf(check).length > 0)) {
      const tokens = [...new Set(read.lost.flatMap(deprecatedOf))].sort();
      return rereport(
        finding,
        featureRemovalRule,
        "lostChecksOfDeprecatedCode",
        { test: finding.test, path, count: read.lost.length, list: tokens.map((token) => token.slice(1)).join(", ") },
        { evidence: { ...finding.evidence, removed_symbols: tokens, reclassified_from: "assertion_removal" } },
      );
    }
    if (names.size === 0) return finding;
    const homes = homesOf(finding);
    const lost = new Set(read.lost);
    // Whole-output equalities that pin a value and live on (kept as they were, or adapted); `all == again`, two
    // computations of one call compared, pins nothing.
    const wholes = read.checks.filter((check) => {
      if (check.relation !== "equal" || check.isNegated || check.strength < 3 || (lost.has(check) && !isAdapted(check, homes))) return false;
      const base = baseCall(check.subject);
      return base !== null && !(check.expectedValue ?? check.expected ?? "").includes(base);
    });
    const hits = new Set<string>();
    for (const check of read.lost) {
      const own = namesOfLostCheck(check, read.test).filter((name) => names.has(name));
      if (own.length === 0) return finding;
      const base = baseCall(check.subject);
      const isImplied = base !== null && wholes.some((whole) => whole !== check && baseCall(whole.subject) === base);
      if (!isAdapted(check, homes) && !isImplied) return finding;
      for (const name of own) hits.add(name);
    }
    return rereport(
      finding,
      featureRemovalRule,
      "lostChecksOfRemovedCode",
      { test: finding.test, path, count: read.lost.length, list: [...hits].sort().join(", ") },
      { evidence: { ...finding.evidence, removed_symbols: [...hits].sort(), reclassified_from: "assertion_removal" } },
    );
  });
}

/**
 * The feature-removal rule (see the module comment): removed exports, and
 * test deletions taken over when the tests went with the code they tested;
 * medium. Its check reads the findings of test matching.
 */
export const featureRemovalRule = defineRule({
  id: "feature-removal",
  type: "feature_removal",
  defaultSeverity: "medium",
  description: "An exported symbol is gone from non-test code, or tests were deleted together with the code they tested.",
  messages: {
    moduleDeleted: "{{path}} was deleted with its exports {{exports}}; none was found in another changed file",
    exportRemoved: "exported {{symbol}} was removed from {{path}}",
    testDeletedWithCode: 'test "{{test}}" was deleted from {{path}} together with the code it tested: {{list}}',
    testsDeletedWithCode: "{{count}} tests of {{path}} were deleted together with the code they tested: {{list}}",
    unsupportedTestDeleted: {
      text: 'test "{{test}}" was deleted from {{path}}; its skip condition holds on every {{runtime}} the change still supports ({{requirement}}), so it ran nowhere any more',
      type: "test_deletion",
      severity: "low",
    },
    unsupportedTestsDeleted: {
      text: "{{count}} tests of {{path}} were deleted; their skip conditions hold on every {{runtime}} the change still supports ({{requirement}}), so they ran nowhere any more",
      type: "test_deletion",
      severity: "low",
    },
    rowsDeletedWithCode: '{{count}} rows of table test "{{test}}" in {{path}} were deleted together with the code they named: {{list}}',
    rowsOfDroppedTargets: '{{count}} rows of table test "{{test}}" in {{path}} were deleted with the build targets they named, which the change no longer builds: {{list}}',
    refusalChecksRetired: 'test "{{test}}" in {{path}} no longer checks the refusal {{refusal}}: the change removed the refusal and now handles the case it refused',
    testMergedReExpected: {
      text: 'test "{{test}}" of {{path}} was merged into "{{home}}" in {{homePath}} with its expectation changed while the code under test changed: {{checks}} is now expected otherwise, its inputs kept in a row',
      type: "expectation_changed",
      severity: "medium",
    },
    testRetitledReExpected: {
      text: 'test "{{test}}" was deleted from {{path}} while the code under test changed; "{{home}}" in {{homePath}} makes its checks again on the same calls, its inputs kept, and expects another value of {{checks}}',
      type: "expectation_changed",
      severity: "medium",
    },
    checksReExpected: {
      text: 'test "{{test}}" in {{path}} is gone while the code under test changed; {{kept}} of its {{count}} checks live on as they were, and "{{home}}" in {{homePath}} makes the rest again on the same calls, its inputs kept, and expects another value of {{checks}}',
      type: "expectation_changed",
      severity: "medium",
    },
    errorChecksFlipped: {
      text: 'test "{{test}}" was deleted from {{path}}; the error it expected is still raised, but the change rewrote what decides it, and {{flipped}} now expects the same call not to raise it',
      type: "expectation_changed",
      severity: "medium",
    },
    refusedInputAccepted: {
      text: 'test "{{test}}" was deleted from {{path}}; it checked that its input is refused, the change makes the code accept it, and {{successor}} now checks what that input gives',
      type: "expectation_changed",
      severity: "medium",
    },
    answeredInputRefused: {
      text: 'test "{{test}}" was deleted from {{path}}; it checked the answer for its input, the change makes the code refuse that input, and {{successor}} now checks the refusal',
      type: "expectation_changed",
      severity: "medium",
    },
    refusedRowsAccepted: {
      text: '{{count}} rows of table test "{{test}}" in {{path}} that expected the refusal {{guard}} were removed; the change redecides that refusal and {{successor}} now checks what it accepts',
      type: "expectation_changed",
      severity: "medium",
    },
    lostChecksOfRemovedCode: 'test "{{test}}" in {{path}} is gone; its checks that live on nowhere ({{count}}) all checked code the change removed: {{list}}',
    lostChecksOfDeprecatedCode: 'test "{{test}}" in {{path}} is gone; its checks that live on nowhere ({{count}}) all checked what the change starts to deprecate: {{list}}',
  },
  check: ({ input, matchFindings }: { input: RuleInput; matchFindings: readonly Finding[] }): Finding[] =>
    acceptRefusedInputs(
      flipErrorChecks(retireRefusalChecks(featureFindings(matchFindings, input), input, featureRemovalRule, "refusalChecksRetired"), input, featureRemovalRule, "errorChecksFlipped"),
      input,
      featureRemovalRule,
      "refusedInputAccepted",
      "refusedRowsAccepted",
      "answeredInputRefused",
    ),
});
