/**
 * What a deleted test depended on, judged against what the change removed
 * (issue 9: tests deleted together with the code they test; DESIGN.md
 * reports those as feature_removal at medium). A test went with its code
 * when every one of its checks depended on a product name the change
 * removed; one check that reads only surviving code keeps the deletion a
 * test_deletion, and a test that names nothing removed is no part of it.
 *
 * Dependencies come from TestCase.checkNames (the names each check reads,
 * locals resolved: parsers/tree-sitter-subjects.ts) or, where a language
 * does not record them (JS/TS), from the names of each check's subject and
 * expected value. Removed names come from the changed product files'
 * declarations, exports and functions (CodeFacts.declared, exports,
 * functions) before and after the change.
 */

import { toChecks, type Check } from "../checks/index.js";
import type { AssertionFact, TestCase } from "../facts.js";
import { isInlineTestedProductCode, isProductCode, usable, type RulePair } from "./context.js";

/** Last segment of a qualified name (`Scanner.containsIgnoreCase`, `Lines::process` -> the method). */
function lastSegment(name: string): string {
  const parts = name.split(/\.|::|#/);
  return parts[parts.length - 1] ?? name;
}

/**
 * The product names the change removed: declared, exported or defined (by
 * last name segment) by a changed product file before the change and by no
 * changed file after it. Empty when some after side exists but is
 * unreadable (nothing is known to be gone).
 */
export function findRemovedNames(pairs: readonly RulePair[]): Set<string> {
  const after = new Set<string>();
  for (const pair of pairs) {
    const facts = usable(pair.after);
    if (pair.after !== null && facts === null) return new Set();
    for (const name of facts?.code?.declared ?? []) after.add(name);
    for (const fact of facts?.code?.exports ?? []) after.add(lastSegment(fact.name));
    for (const fn of facts?.code?.functions ?? []) after.add(lastSegment(fn.name));
    for (const fn of facts?.nonTestFunctions ?? []) after.add(fn.name);
    for (const helper of facts?.assertionHelpers ?? []) after.add(helper.name);
  }
  const removed = new Set<string>();
  for (const pair of pairs) {
    if (!isProductCode(pair) && !isInlineTestedProductCode(pair)) continue;
    // A deleted file that held its own tests (Rust inline `#[cfg(test)]`) stays a test_deletion (see features.ts findRemovedDefinitions).
    if (pair.after === null && !isProductCode(pair)) continue;
    const code = usable(pair.before)?.code;
    if (!code) continue;
    const names = [...(code.declared ?? []), ...(code.exports ?? []).map((fact) => lastSegment(fact.name)), ...(code.functions ?? []).map((fn) => lastSegment(fn.name))];
    for (const name of names) if (name !== "" && name !== "default" && !after.has(name)) removed.add(name);
  }
  return removed;
}

/** Names (identifiers) in a source text. */
function namesOfText(text: string | undefined): string[] {
  return text === undefined ? [] : (text.match(/[A-Za-z_$][\w$]*/g) ?? []).map((name) => name.replace(/^\$/, ""));
}

/** An assertion counts as a check of the test: it can run and it can fail. */
function isRealCheck(fact: AssertionFact): boolean {
  return fact.unreachable !== true && !fact.tautology;
}

/** The names one check reads by its texts alone (subject and expected value), for languages that record no checkNames. */
function namesOfCheck(check: Check): string[] {
  return [...namesOfText(check.subject), ...namesOfText(check.expected), ...namesOfText(check.errorType)];
}

/** How a deleted test's checks stand to the removed code (see {@link removedNamesCheckedBy}). */
export type Dependence = { kind: "removed"; names: string[] } | { kind: "survives" } | { kind: "unknown" };

/**
 * How a deleted test's checks depended on the removed names (`removed`,
 * and `aliases`: further local names that stand for removed code in the
 * test's file, such as imports of removed exports): "removed" with the
 * names when each of its checks depended on one, "survives" when some check
 * depended on none (it checked surviving code), "unknown" when the test has
 * no real check (none that can run and fail).
 */
export function removedNamesCheckedBy(test: TestCase, removed: ReadonlySet<string>, aliases: ReadonlySet<string> = new Set()): Dependence {
  const isRemoved = (name: string): boolean => removed.has(name) || aliases.has(name);
  const facts = test.assertionsDetail ?? [];
  const perCheck: string[][] = [];
  if (test.checkNames && test.checkNames.length === facts.length) {
    facts.forEach((fact, index) => {
      if (isRealCheck(fact)) perCheck.push(test.checkNames?.[index] ?? []);
    });
  } else {
    for (const fact of facts) if (isRealCheck(fact)) for (const check of toChecks(fact)) perCheck.push(namesOfCheck(check));
  }
  if (perCheck.length === 0) return { kind: "unknown" };
  const hits = new Set<string>();
  for (const names of perCheck) {
    const own = names.filter(isRemoved);
    if (own.length === 0) return { kind: "survives" };
    for (const name of own) hits.add(name);
  }
  return { kind: "removed", names: [...hits].sort() };
}

/**
 * The removed names the removed rows of a table test named: for each
 * removed row (1-based, as compare.ts reports them), the names of its
 * elements; null unless at least `lost` removed rows name a removed name
 * (the rows that could no longer compile or run went with that code).
 */
export function removedNamesOfRows(test: TestCase, rows: readonly number[], lost: number, removed: ReadonlySet<string>): string[] | null {
  const elements = test.eachRowElements;
  if (!elements || removed.size === 0 || lost <= 0) return null;
  const hits = new Set<string>();
  let count = 0;
  for (const row of rows) {
    const names = (elements[row - 1] ?? []).flatMap(namesOfText).filter((name) => removed.has(name));
    if (names.length === 0) continue;
    count++;
    for (const name of names) hits.add(name);
  }
  return count >= lost ? [...hits].sort() : null;
}
