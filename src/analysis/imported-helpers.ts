/**
 * Helpers imported from another module (issue 9: "a call to a local or
 * imported helper that asserts contributes the helper's checks"). Facts are
 * per file (cached by content), so a test file only records its calls of
 * imported functions that may assert (TestCase.importedHelperCalls: an ava
 * macro from a shared test module, `const verifyFlags =
 * _verifyFlags(import.meta)`, a helper given `t`); this step, run once per
 * diff after extraction, resolves each call to the module it imports (a
 * changed file's facts of the same side, or an unchanged file read from the
 * tree) and, when that module's function asserts, makes the call one helper
 * check of the test, with the helper beside the file's own helpers, so
 * analysis/checks expands it into the helper's checks instantiated with the
 * call's arguments, as it does for a local helper. One level: a helper's own
 * imported helpers are not followed. When a changed module's helper checks
 * less, the unchanged test files calling it are judged too
 * ({@link loadHelperCallers}): an agent hollows the shared macro, not the tests.
 */

import type { FactsPair } from "./compare.js";
import type { AssertionFact, AssertionHelperFact, FileFacts, ImportedHelperCall, TestCase } from "./facts.js";
import type { UnchangedFiles } from "./inheritance.js";
import { isGatedHelper } from "./parsers/tree-sitter-helpers.js";
import { hasUsableFacts } from "./facts.js";
import { isNeverCheckingCall } from "./checks/index.js";
import { resolveImport } from "./rules/context.js";
import { sharedFolders } from "./exercising.js";

/** Unchanged test files read at most, and kept at most, per diff, when looking for the callers of a changed helper. */
const MAX_READ = 60;
const MAX_FILES = 20;

/** Files whose tests record imported helper calls (JavaScript, TypeScript and Python). */
const CALLER_PATH = /\.(?:[cm]?[jt]sx?|py)$/;

/** Reads a module's facts by path for one side of the diff, or null when it is not there or not known. */
type ModuleFacts = (path: string) => Promise<FileFacts | null>;

/**
 * Replaces, in place, each side's facts of `pairs` whose tests call imported
 * helpers by facts where those calls are helper checks (see the module
 * comment). Facts objects are never mutated (they may be cached): linked
 * sides are copies. `unchanged` lists and reads the files the diff did not
 * touch; without it only the changed files are looked in. Reads an
 * unchanged module at most once.
 */
export async function linkImportedHelpers(pairs: FactsPair[], unchanged: UnchangedFiles | undefined, extract: (path: string, content: string) => Promise<FileFacts>): Promise<void> {
  const calling = (facts: FileFacts | null): boolean => facts?.tests.some((test) => (test.importedHelperCalls?.length ?? 0) > 0) ?? false;
  if (!pairs.some((pair) => calling(pair.before) || calling(pair.after))) return;
  const changedPaths = new Set(pairs.map((pair) => pair.path));
  // Unchanged paths are probed by reading (a tree of 30k files is never listed); each is read at most once.
  const texts = new Map<string, string | null>();
  const textOf = (path: string): string | null => {
    if (!texts.has(path)) texts.set(path, changedPaths.has(path) ? null : (unchanged?.read(path) ?? null));
    return texts.get(path) ?? null;
  };
  const unchangedProbe = { has: (path: string): boolean => textOf(path) !== null, [Symbol.iterator]: (): Iterator<string> => [][Symbol.iterator]() };
  const unchangedFacts = new Map<string, Promise<FileFacts | null>>();
  const readUnchanged = (path: string): Promise<FileFacts | null> => {
    let facts = unchangedFacts.get(path);
    if (!facts) {
      const content = textOf(path);
      facts = content === null ? Promise.resolve(null) : extract(path, content);
      unchangedFacts.set(path, facts);
    }
    return facts;
  };
  for (const side of ["before", "after"] as const) {
    const sideFacts = new Map(pairs.flatMap((pair) => (pair[side] ? [[pair.path, pair[side]] as const] : [])));
    const known = new Set(sideFacts.keys());
    const resolve = (from: string, source: string): string | null => {
      const changed = resolveImport(from, source, known);
      return changed !== null || !unchanged ? changed : resolveImport(from, source, unchangedProbe);
    };
    const moduleFacts: ModuleFacts = async (path) => sideFacts.get(path) ?? (changedPaths.has(path) ? null : readUnchanged(path));
    for (const pair of pairs) {
      const facts = pair[side];
      if (!facts || !calling(facts)) continue;
      pair[side] = await linkedFacts(pair.path, facts, (source) => resolve(pair.path, source), moduleFacts);
    }
  }
}

/** `facts` with its tests' imported helper calls made helper checks; the same object when none resolves to a helper that asserts. */
async function linkedFacts(path: string, facts: FileFacts, resolve: (source: string) => string | null, moduleFacts: ModuleFacts): Promise<FileFacts> {
  const imported = new Map<string, AssertionHelperFact>();
  const helperOf = async (call: ImportedHelperCall): Promise<AssertionHelperFact | null> => {
    const target = resolve(call.source);
    if (target === null || target === path) return null;
    const helper = (await moduleFacts(target))?.assertionHelpers?.find((candidate) => candidate.name === call.name);
    return helper && (helper.assertionsDetail?.length ?? helper.assertions) > 0 ? helper : null;
  };
  let isLinked = false;
  const tests: TestCase[] = [];
  for (const test of facts.tests) {
    const added: AssertionFact[] = [];
    for (const call of test.importedHelperCalls ?? []) {
      const helper = await helperOf(call);
      if (!helper) continue;
      if (!facts.assertionHelpers?.some((own) => own.name === helper.name)) imported.set(helper.name, helper);
      const strength = Math.max(1, ...(helper.assertionsDetail ?? []).map((fact) => fact.strength)) as 1 | 2 | 3;
      const fact: AssertionFact = { line: call.line, matcher: `helper ${helper.name}`, strength, tautology: false, actual: call.actual };
      if (call.actualValue !== undefined) fact.actualValue = call.actualValue;
      if (isGatedHelper(helper)) fact.gated = true;
      // Every assertion of the helper can never fail the test (a discarded ava attempt), or none runs for this call's data: nor can the call.
      if ((helper.assertionsDetail?.length ?? 0) > 0 && isNeverCheckingCall(call.actual, helper)) fact.unreachable = true;
      added.push(fact);
    }
    if (added.length === 0) {
      tests.push(test);
      continue;
    }
    isLinked = true;
    // A call named like a custom assertion (`assertParsed(t, …)`) was counted as one: it is the helper check instead.
    const replaced = (test.assertionsDetail ?? []).filter((fact) => added.some((call) => call.line === fact.line && call.matcher === `helper ${fact.matcher}`));
    const kept = (test.assertionsDetail ?? []).filter((fact) => !replaced.includes(fact));
    tests.push({ ...test, assertionCount: test.assertionCount + added.length - replaced.length, assertionsDetail: [...kept, ...added].sort((a, b) => a.line - b.line) });
  }
  if (!isLinked) return facts;
  return { ...facts, tests, assertionHelpers: [...(facts.assertionHelpers ?? []), ...imported.values()] };
}

/** A helper's checks as one comparable text (lines left out): two sides with the same text check the same. */
function helperText(helper: AssertionHelperFact | undefined): string {
  return JSON.stringify((helper?.assertionsDetail ?? []).map(({ line: _line, ...fact }) => fact));
}

/**
 * The unchanged test files that call a helper of a changed module whose
 * checks changed (fewer, weaker, another text, gone), as pairs whose two
 * sides are the same facts (isUnchanged), for {@link linkImportedHelpers}
 * to link each side against that side's module: a test that still calls the
 * shared macro then loses the checks the macro lost. Candidates are the
 * JS/TS test files whose text names the module's file stem, nearest folder
 * first, at most {@link MAX_READ} read and {@link MAX_FILES} kept; none when
 * no changed helper checks differently, so an ordinary change pays nothing.
 */
export async function loadHelperCallers(
  pairs: readonly FactsPair[],
  unchanged: UnchangedFiles,
  extract: (path: string, content: string) => Promise<FileFacts>,
  isTestPath: (path: string) => boolean,
): Promise<FactsPair[]> {
  const modules = pairs.filter((pair) => {
    const before = pair.before?.assertionHelpers ?? [];
    if (before.length === 0) return false;
    const after = new Map((pair.after?.assertionHelpers ?? []).map((helper) => [helper.name, helper] as const));
    return before.some((helper) => helperText(helper) !== helperText(after.get(helper.name)));
  });
  if (modules.length === 0) return [];
  const changedPaths = new Set(pairs.map((pair) => pair.path));
  const candidates = [...unchanged.paths()].filter((path) => CALLER_PATH.test(path) && !changedPaths.has(path) && isTestPath(path));
  const callers: FactsPair[] = [];
  const seen = new Set<string>();
  for (const module of modules) {
    const stem = module.path.slice(module.path.lastIndexOf("/") + 1).replace(/\..*$/, "");
    const mentions = new RegExp(`(?<![\\w$])${stem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w$])`);
    const ranked = candidates.map((path) => ({ path, shared: sharedFolders(path, module.path) })).sort((a, b) => b.shared - a.shared || a.path.localeCompare(b.path));
    let kept = 0;
    for (const { path } of ranked.slice(0, MAX_READ)) {
      if (kept >= MAX_FILES) break;
      if (seen.has(path)) continue;
      const content = unchanged.read(path);
      if (content === null || !mentions.test(content)) continue;
      const facts = await extract(path, content).catch(() => null);
      if (!facts || !hasUsableFacts(facts)) continue;
      const calls = facts.tests.flatMap((test) => test.importedHelperCalls ?? []);
      if (!calls.some((call) => resolveImport(path, call.source, new Set([module.path])) !== null)) continue;
      seen.add(path);
      kept++;
      callers.push({ path, before: facts, after: facts, isUnchanged: true });
    }
  }
  return callers;
}
