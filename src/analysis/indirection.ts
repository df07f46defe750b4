/**
 * Skips that reach tests in other files (issue 9, "disabling through
 * indirection"): a changed file whose skip providers changed (a Go helper
 * of the package whose `t.Errorf` became `t.Skipf`, a `TestMain` that no
 * longer calls `m.Run()`, a conftest.py fixture or autouse fixture that now
 * skips) takes out tests in files the change never touched. Facts are per
 * file, so this step runs after extraction: for each such file it reads the
 * unchanged files the provider reaches (Go: the `_test.go` files of its
 * folder, its package; a conftest.py: the test files below its folder),
 * and reports each of their tests that runs before and no longer does
 * (test_disabled, naming the test and the provider), or that was skipped
 * only under a condition and now always is. Findings sit in the changed
 * file (the provider's or the suite's: what the change did and where to
 * revert it); the test's own file is in the message and evidence.test_file.
 *
 * In-file reach (a helper and its callers in one file) is resolved by the
 * extractors (parsers/skip-reach.ts); this module only crosses files.
 */

import { linksIssue, type FactsPair } from "./compare.js";
import { hasUsableFacts, type FileFacts, type SkipProviderFact, type TestCase } from "./facts.js";
import type { UnchangedFiles } from "./inheritance.js";
import { languageForPath } from "./languages/index.js";
import { defaultSeverityOf } from "./rules/registry.js";
import type { Finding } from "./types.js";

/** The folder of a path ("" at the root). */
function folderOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
}

/** The providers of a side as one comparable string (order kept: extraction order is stable). */
function shapeOf(facts: FileFacts | null): string {
  return JSON.stringify(facts && hasUsableFacts(facts) ? (facts.skipProviders ?? []) : []);
}

/** The unchanged files a changed file's providers reach, or null when they reach no other file. */
function reachOf(path: string, paths: readonly string[]): string[] | null {
  const folder = folderOf(path);
  if (path.endsWith("_test.go")) return paths.filter((candidate) => candidate.endsWith("_test.go") && folderOf(candidate) === folder);
  if (path === "conftest.py" || path.endsWith("/conftest.py")) {
    return paths.filter((candidate) => candidate.endsWith(".py") && (folder === "" || candidate.startsWith(`${folder}/`)) && (languageForPath(candidate)?.isTestPath(candidate) ?? false));
  }
  return null;
}

/** The strongest provider of `providers` that reaches `test`: a skip before a conditional skip. */
function reachingProvider(test: TestCase, providers: readonly SkipProviderFact[]): SkipProviderFact | null {
  const calls = new Set(test.calls ?? []);
  const reaching = providers.filter((provider) => (provider.flag === "skipped" || provider.flag === "conditional") && (provider.kind === "setup" || calls.has(provider.name)));
  return reaching.find((provider) => provider.flag === "skipped") ?? reaching[0] ?? null;
}

/** How a provider reaches a test, for messages. */
function describeProvider(provider: SkipProviderFact, file: string): string {
  if (provider.kind === "helper") return `${provider.name}() in ${file} now calls ${provider.via}`;
  if (provider.kind === "fixture") return `its fixture ${provider.name} in ${file} now calls ${provider.via}`;
  return provider.name === "TestMain" ? `${file}: ${provider.via}` : `${provider.name} in ${file} now calls ${provider.via}`;
}

/**
 * test_disabled findings for unchanged tests that a changed file's skip
 * providers now take out. `extract` gives an unchanged file's facts (the
 * facts cache first). Reads only the files a changed provider reaches.
 */
export async function indirectSkipFindings(pairs: readonly FactsPair[], unchanged: UnchangedFiles, extract: (path: string, content: string) => Promise<FileFacts>): Promise<Finding[]> {
  const seeds = pairs.filter((pair) => !pair.isUnchanged && shapeOf(pair.before) !== shapeOf(pair.after));
  if (seeds.length === 0) return [];
  const changed = new Set(pairs.map((pair) => pair.path));
  const paths = [...unchanged.paths()].filter((path) => !changed.has(path));
  const findings: Finding[] = [];
  for (const seed of seeds) {
    const reach = reachOf(seed.path, paths);
    if (!reach || reach.length === 0) continue;
    const before = seed.before?.skipProviders ?? [];
    const after = seed.after?.skipProviders ?? [];
    for (const path of reach) {
      const text = unchanged.read(path);
      if (text === null) continue;
      const facts = await extract(path, text);
      if (!hasUsableFacts(facts)) continue;
      for (const test of facts.tests) {
        if (test.flags.skipped || test.flags.todo) continue;
        const now = reachingProvider(test, after);
        if (!now) continue;
        const was = reachingProvider(test, before);
        const isGained = now.flag === "skipped" ? was?.flag !== "skipped" && !test.flags.skipped : was === null && !test.flags.conditional;
        if (!isGained) continue;
        const isTracked = linksIssue(now.reason);
        const words = now.flag === "skipped" ? "skipped" : "skipped under a condition";
        // Reported where the change is (the provider's file, the one to revert), naming the test and its file.
        findings.push({
          type: "test_disabled",
          severity: isTracked ? "medium" : "critical",
          file: seed.path,
          line: null,
          test: test.id,
          message: `test "${test.id}" in ${path} is now ${words}: ${describeProvider(now, seed.path)}${isTracked ? "; the reason links an issue" : ""}`,
          evidence: {
            gained: [now.flag],
            via: { [now.flag]: `${now.name} (${seed.path}): ${now.via}` },
            provider_file: seed.path,
            provider: now.name,
            test_file: path,
            test_line: test.line,
            ...(now.reason === undefined ? {} : { reason: now.reason }),
          },
          allowed: false,
        });
      }
    }
  }
  return findings;
}

/** Class names Maven surefire's default includes run whatever the suites say: `Test*`, `*Test`, `*Tests`, `*TestCase`. */
const SUREFIRE_DEFAULT = /^Test|Tests?$|TestCase$/;

/**
 * test_disabled findings for test classes dropped from a JUnit suite list
 * (`@Suite.SuiteClasses`, `@SelectClasses`) while their file stays: the
 * build that runs the suite no longer runs them. Not reported when the
 * class moved to another suite of the change, was deleted (judged as a
 * deletion), or is one surefire's default includes still run and no build
 * file (`pom.xml`, `build.gradle(.kts)`) names the suite. `read` reads the
 * after tree (changes applied); `listPaths` lists its files, called only
 * when a changed file had a suite list.
 */
export async function suiteListFindings(
  pairs: readonly FactsPair[],
  read: (path: string) => string | null,
  listPaths: () => readonly string[],
  extract: (path: string, content: string) => Promise<FileFacts>,
): Promise<Finding[]> {
  const seeds = pairs.filter((pair) => (pair.before?.suiteLists?.length ?? 0) > 0);
  if (seeds.length === 0) return [];
  const paths = listPaths();
  const listedAfter = new Set(pairs.flatMap((pair) => (pair.after?.suiteLists ?? []).flatMap((suite) => suite.classes)));
  const buildText = ["pom.xml", "build.gradle", "build.gradle.kts"].map((name) => read(name) ?? "").join("\n");
  const findings: Finding[] = [];
  for (const seed of seeds) {
    for (const suite of seed.before?.suiteLists ?? []) {
      const now = seed.after?.suiteLists?.find((candidate) => candidate.suite === suite.suite);
      if (!now) continue;
      for (const name of suite.classes.filter((cls) => !now.classes.includes(cls) && !listedAfter.has(cls))) {
        if (SUREFIRE_DEFAULT.test(name) && !new RegExp(`\\b${suite.suite}\\b`).test(buildText)) continue;
        const path = paths.find((candidate) => candidate === `${name}.java` || candidate.endsWith(`/${name}.java`));
        const text = path === undefined ? null : read(path);
        if (path === undefined || text === null) continue;
        const facts = await extract(path, text);
        const tests = hasUsableFacts(facts) ? facts.tests.filter((test) => test.suitePath[0] === name && !test.flags.skipped) : [];
        const base = `class ${name} was dropped from @${now.annotation} of suite ${suite.suite} in ${seed.path}, which the build runs`;
        // Reported where the change is (the suite's list, the line to revert), naming the test and its file.
        const evidence = { gained: ["out_of_suite"], suite: suite.suite, suite_file: seed.path, class: name, test_file: path };
        if (tests.length === 0) {
          findings.push({ type: "test_disabled", severity: defaultSeverityOf("test_disabled"), file: seed.path, line: now.line, message: `the tests of ${base}`, evidence, allowed: false });
          continue;
        }
        for (const test of tests) {
          findings.push({
            type: "test_disabled",
            severity: defaultSeverityOf("test_disabled"),
            file: seed.path,
            line: now.line,
            test: test.id,
            message: `test "${test.id}" in ${path} no longer runs: ${base}`,
            evidence: { ...evidence, test_line: test.line },
            allowed: false,
          });
        }
      }
    }
  }
  return findings;
}

/** The ExecutionConditions of a file's facts that decide by the test's identity, by name. */
function identityConditions(facts: FileFacts | null): Map<string, { line: number }> {
  return new Map((facts?.executionConditions ?? []).filter((condition) => condition.byIdentity).map((condition) => [condition.name, { line: condition.line }]));
}

/**
 * JUnit 5 ExecutionConditions that pick tests to disable by their identity
 * (languages/java-suites.ts javaExecutionConditions) and that the change
 * newly puts in front of existing tests: a test class that gains
 * `@ExtendWith(X.class)` of such a condition (declared in a changed file or
 * found as `X.java` in the tree), or a condition applied somewhere already
 * that the change turns into one. test_disabled (critical) on the file whose
 * change does it. A condition that reads only the environment is a
 * conditional skip, no finding; a class new in the change has no tests to
 * lose.
 */
export async function extensionSkipFindings(
  pairs: readonly FactsPair[],
  read: (path: string) => string | null,
  listPaths: () => readonly string[],
  extract: (path: string, content: string) => Promise<FileFacts>,
): Promise<Finding[]> {
  const changedConditions = new Map<string, { path: string; line: number }>();
  for (const pair of pairs) for (const [name, { line }] of identityConditions(pair.after)) changedConditions.set(name, { path: pair.path, line });
  const gaining = pairs.filter((pair) => pair.before !== null && (pair.after?.extensionsApplied ?? []).some((name) => !(pair.before?.extensionsApplied ?? []).includes(name)));
  const turned = [...changedConditions].filter(([name, { path }]) => !identityConditions(pairs.find((pair) => pair.path === path)?.before ?? null).has(name));
  if (gaining.length === 0 && turned.length === 0) return [];
  let paths: readonly string[] | null = null;
  const findCondition = async (name: string): Promise<{ path: string; line: number } | null> => {
    const changed = changedConditions.get(name);
    if (changed) return changed;
    paths ??= listPaths();
    const path = paths.find((candidate) => candidate === `${name}.java` || candidate.endsWith(`/${name}.java`));
    const text = path === undefined ? null : read(path);
    if (path === undefined || text === null) return null;
    const condition = identityConditions(await extract(path, text)).get(name);
    return condition ? { path, line: condition.line } : null;
  };
  const findings: Finding[] = [];
  const reported = new Set<string>();
  for (const pair of gaining) {
    for (const name of (pair.after?.extensionsApplied ?? []).filter((applied) => !(pair.before?.extensionsApplied ?? []).includes(applied))) {
      const condition = await findCondition(name);
      if (!condition) continue;
      reported.add(name);
      const text = read(pair.path) ?? "";
      const at = text.search(new RegExp(`\\b${name}\\s*\\.\\s*class\\b|\\b${name}\\b`));
      findings.push({
        type: "test_disabled",
        severity: defaultSeverityOf("test_disabled"),
        file: pair.path,
        line: at === -1 ? 1 : text.slice(0, at).split("\n").length,
        message: `${pair.path} now applies ${name} (${condition.path}), an ExecutionCondition that disables tests by their name or identity: the tests it picks no longer run`,
        evidence: { gained: ["extension_condition"], extension: name, condition_file: condition.path },
        allowed: false,
      });
    }
  }
  for (const [name, { path, line }] of turned) {
    if (reported.has(name)) continue;
    paths ??= listPaths();
    const appliers = paths.filter((candidate) => candidate.endsWith(".java") && candidate !== path && new RegExp(`\\b${name}\\s*\\.\\s*class\\b`).test(read(candidate) ?? ""));
    if (appliers.length === 0) continue;
    findings.push({
      type: "test_disabled",
      severity: defaultSeverityOf("test_disabled"),
      file: path,
      line,
      message: `${name} in ${path} now disables tests by their name or identity, and ${appliers.length === 1 ? appliers[0] : `${appliers.length} test files`} apply it: the tests it picks no longer run`,
      evidence: { gained: ["extension_condition"], extension: name, applied_in: appliers },
      allowed: false,
    });
  }
  return findings;
}
