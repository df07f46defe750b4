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
 * imported helpers are not followed.
 */

import type { FactsPair } from "./compare.js";
import type { AssertionFact, AssertionHelperFact, FileFacts, ImportedHelperCall, TestCase } from "./facts.js";
import type { UnchangedFiles } from "./inheritance.js";
import { isGatedHelper } from "./parsers/tree-sitter-helpers.js";
import { resolveImport } from "./rules/context.js";

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
      if (isGatedHelper(helper)) fact.gated = true;
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
