/**
 * Row columns across the files of a Go package (issue 9; sweep of
 * spf13/cast 633e5d09b7, whose runner `runMapTests(t, testCases []testCase,
 * ...)` ranges over rows of a `testCase` struct declared in another test
 * file): an assertion in a loop over rows of a struct type its file does not
 * declare (AssertionFact.rowType) gets the columns of that type's fields
 * (AssertionFact.rowColumns) from a file of the same directory and side
 * that declares it (FileFacts.rowStructs): a changed one, or one of the
 * tree the change left alone.
 */

import { dirname } from "node:path";
import type { FactsPair } from "./compare.js";
import type { AssertionFact, FileFacts } from "./facts.js";
import type { UnchangedFiles } from "./inheritance.js";
import { rowColumnsOf } from "./languages/go.js";

/** The assertion with the columns of its row type added, or itself when the type is not known. */
function withRowType(fact: AssertionFact, structs: ReadonlyMap<string, readonly string[]>): AssertionFact {
  const fields = fact.rowType ? structs.get(fact.rowType.type) : undefined;
  if (!fact.rowType || !fields) return fact;
  return { ...fact, rowColumns: { ...rowColumnsOf(fact.rowType.row, fields), ...fact.rowColumns } };
}

/** A copy of `facts` whose assertions and helpers' assertions have their row types' columns (facts are never mutated: they may be cached). */
function linkFacts(facts: FileFacts, structs: ReadonlyMap<string, readonly string[]>): FileFacts {
  const link = (list: AssertionFact[] | undefined): AssertionFact[] | undefined => list?.map((fact) => withRowType(fact, structs));
  const linked: FileFacts = {
    ...facts,
    tests: facts.tests.map((test) => {
      const detail = link(test.assertionsDetail);
      return detail ? { ...test, assertionsDetail: detail } : test;
    }),
  };
  if (facts.assertionHelpers) {
    linked.assertionHelpers = facts.assertionHelpers.map((helper) => {
      const detail = link(helper.assertionsDetail);
      return detail ? { ...helper, assertionsDetail: detail } : helper;
    });
  }
  return linked;
}

/** True when some assertion of the facts waits for its row type's columns. */
function hasRowTypes(facts: FileFacts): boolean {
  const waits = (list: readonly AssertionFact[] | undefined): boolean => list?.some((fact) => fact.rowType !== undefined && fact.rowColumns === undefined) ?? false;
  return facts.tests.some((test) => waits(test.assertionsDetail)) || (facts.assertionHelpers ?? []).some((helper) => waits(helper.assertionsDetail));
}

/** Adds the struct types of `structs` (FileFacts.rowStructs) to the ones known in `directory`. */
function addStructs(byDirectory: Map<string, Map<string, readonly string[]>>, directory: string, structs: Readonly<Record<string, string[]>> | undefined): void {
  if (!structs) return;
  const known = byDirectory.get(directory) ?? new Map<string, readonly string[]>();
  for (const [name, fields] of Object.entries(structs)) if (!known.has(name)) known.set(name, fields);
  byDirectory.set(directory, known);
}

/**
 * Replaces, in place, each side's facts of `pairs` that read rows of a
 * struct declared in another file of their directory by facts with those
 * rows' columns. The change's files are looked in first; `unchanged` (the
 * tree's other files, both sides alike) only for a directory whose facts
 * still wait, its Go test files read with `extract`.
 */
export async function linkRowTypes(pairs: FactsPair[], unchanged?: UnchangedFiles, extract?: (path: string, content: string) => Promise<FileFacts>): Promise<void> {
  const waiting = new Set(pairs.filter((pair) => [pair.before, pair.after].some((facts) => facts && hasRowTypes(facts))).map((pair) => dirname(pair.path)));
  if (waiting.size === 0) return;
  const fromTree = new Map<string, Map<string, readonly string[]>>();
  if (unchanged && extract) {
    const changed = new Set(pairs.map((pair) => pair.path));
    for (const path of unchanged.paths()) {
      if (changed.has(path) || !path.endsWith("_test.go") || !waiting.has(dirname(path))) continue;
      const content = unchanged.read(path);
      if (content !== null) addStructs(fromTree, dirname(path), (await extract(path, content)).rowStructs);
    }
  }
  for (const side of ["before", "after"] as const) {
    const byDirectory = new Map<string, Map<string, readonly string[]>>();
    for (const pair of pairs) addStructs(byDirectory, dirname(pair.path), pair[side]?.rowStructs);
    for (const [directory, structs] of fromTree) addStructs(byDirectory, directory, Object.fromEntries(structs) as Record<string, string[]>);
    for (const pair of pairs) {
      const facts = pair[side];
      const structs = byDirectory.get(dirname(pair.path));
      if (facts && structs && hasRowTypes(facts)) pair[side] = linkFacts(facts, structs);
    }
  }
}
