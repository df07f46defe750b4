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

import { checkedTest } from "../checks/index.js";
import { calledNames } from "../checks/likeness.js";
import type { ExportFact, TestCase } from "../facts.js";
import type { Finding } from "../types.js";
import { isInlineTestedProductCode, isProductCode, isTestPair, resolveImport, usable, type RuleInput, type RulePair } from "./context.js";
import { defineRule, report, rereport } from "./registry.js";
import { checksOnlyRetiredRefusal, implementedRefusals } from "./validation.js";

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

/**
 * The removed definitions (see {@link findRemovedDefinitions}) a deleted
 * test's checks call: each of its checks must call (or end in) one of them,
 * so the test had nothing left to check; empty when a check calls none (it
 * checked code that survives) or the test has no checks.
 */
function removedDefinitionsCheckedBy(test: TestCase, path: string, pair: RulePair, removed: ReadonlySet<string>): string[] {
  if (removed.size === 0) return [];
  const checks = checkedTest(path, test, usable(pair.before)).checks;
  if (checks.length === 0) return [];
  const used = new Set<string>();
  for (const check of checks) {
    const hits = [...calledNames(check.subject)].filter((name) => removed.has(name));
    if (hits.length === 0) return [];
    for (const name of hits) used.add(name);
  }
  return [...used];
}

/**
 * Rewrites test_deletion findings whose deleted tests used an export that
 * was removed in the same change, or whose every check called a function or
 * method the change removed (whatever its visibility), into feature_removal
 * at medium (DESIGN.md: tests deleted together with the code they test). A
 * whole-file deletion is rewritten only when every one of its tests used
 * removed code.
 */
export function reclassifyDeletions(findings: readonly Finding[], input: RuleInput, removed: readonly RemovedExport[], removedDefinitions: ReadonlySet<string> = new Set()): Finding[] {
  const refusals = implementedRefusals(input.pairs);
  if (removed.length === 0 && removedDefinitions.size === 0 && refusals.length === 0) return [...findings];
  const pairByPath = new Map(input.pairs.map((pair) => [pair.path, pair] as const));
  const lostTest = (pair: RulePair, id: string, line: number | null | undefined): TestCase | undefined => {
    const tests = usable(pair.before)?.tests ?? [];
    return tests.find((test) => test.id === id && (line == null || test.line === line)) ?? tests.find((test) => test.id === id);
  };
  return findings.map((finding) => {
    if (finding.type !== "test_deletion" || finding.severity === "low") return finding;
    const path = finding.before_file ?? finding.file;
    const pair = pairByPath.get(path);
    if (!pair) return finding;
    const ids: string[] = finding.test !== undefined ? [finding.test] : Array.isArray(finding.evidence?.tests) ? (finding.evidence.tests as string[]) : [];
    if (ids.length === 0) return finding;
    const symbols = new Set<string>();
    for (const id of ids) {
      const test = lostTest(pair, id, ids.length === 1 ? finding.before_line : null);
      const used = test ? removedSymbolsUsedBy(test, path, pair, removed) : [];
      const called = used.length === 0 && test ? removedDefinitionsCheckedBy(test, path, pair, removedDefinitions) : [];
      // A test of a refusal (`Assert.Throws<NotSupportedException>`) the change retired as the case landed.
      const refused = used.length === 0 && called.length === 0 && test && checksOnlyRetiredRefusal(checkedTest(path, test, usable(pair.before)).checks, refusals) ? refusals : [];
      if (used.length === 0 && called.length === 0 && refused.length === 0) return finding;
      for (const refusal of refused) symbols.add(`the refusal ${refusal.errorClass}`);
      for (const entry of used) symbols.add(`${entry.name} (${entry.path})`);
      for (const name of called) symbols.add(name);
    }
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
 * feature_removal for the removed exports, and the test_deletion findings
 * rewritten as described in {@link reclassifyDeletions}.
 */
export function featureFindings(findings: readonly Finding[], input: RuleInput): Finding[] {
  const removed = findRemovedExports(input.pairs);
  return [...reclassifyDeletions(findings, input, removed, findRemovedDefinitions(input.pairs)), ...featureRemovalFindings(removed)];
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
  },
  check: ({ input, matchFindings }: { input: RuleInput; matchFindings: readonly Finding[] }) => featureFindings(matchFindings, input),
});
