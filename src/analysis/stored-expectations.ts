/**
 * Stored expectations: the expected output a test compares with, kept in a
 * file of its own instead of the test's code (Jest/Vitest `__snapshots__/*.snap`,
 * insta `snapshots/*.snap`, syrupy `__snapshots__/*.ambr`, Verify
 * `*.verified.*`, ApprovalTests `*.approved.*`, Go `testdata/*.golden`,
 * golden case folders such as `tests/cases/`). Rewriting one to what the
 * code prints is the same move as rewriting an expected literal: DESIGN.md's
 * expectation_changed, "the expected literal of a surviving assertion
 * changed ... while the code under test did not". So a stored expectation
 * edited in a change that touches no product code is an expectation_changed
 * at its default severity (medium); regenerated beside a product change, it
 * is the normal workflow and no finding.
 *
 * Measured on the swept repositories' histories (200 first-parent commits of
 * each of 44): 28 commits edit such files, 24 of them with product code; the
 * 4 without are serilog's public-API approval file re-approved on its own,
 * legitimate, which is why this stays at medium (a warning) and never blocks.
 */

import { languageForPath } from "./languages/index.js";
import { isTestSupportPath } from "./rules/context.js";
import { defaultSeverityOf } from "./rules/registry.js";
import type { FileChange, Finding } from "./types.js";

/** Folders whose files are expected outputs of tests, by name (case-insensitive). */
const EXPECTATION_FOLDERS = /^(?:__snapshots__|snapshots|golden|goldens|expected|expectations|approved|baselines|cases)$/i;

/** File names that mark an expected output wherever it sits: `.golden`, Verify's `.verified.`, ApprovalTests' `.approved.`, `.expected.`, `.ambr`. */
const EXPECTATION_NAME = /\.(?:golden|ambr)$|\.(?:verified|approved|expected)\.[^/.]+$|\.snap$/i;

/** Folders that hold test material (their golden-case subfolders count): `test`, `tests`, `spec`, `testdata`, `__tests__`, `fixtures`. */
const TEST_FOLDERS = /^(?:tests?|specs?|testdata|test_data|__tests__|fixtures?)$/i;

/**
 * True for a file that stores a test's expected output ({@link
 * EXPECTATION_NAME} anywhere, or any file in a {@link EXPECTATION_FOLDERS}
 * folder that sits in a test folder or is `__snapshots__`/`snapshots`), and
 * is no source file of a language ralph reads.
 */
export function isStoredExpectationPath(path: string): boolean {
  if (languageForPath(path) !== null) return false;
  const segments = path.split("/");
  const name = segments.pop() ?? "";
  if (EXPECTATION_NAME.test(name) && !/\.received\./i.test(name)) return true;
  const folder = segments.findIndex((segment) => EXPECTATION_FOLDERS.test(segment));
  if (folder === -1) return false;
  const own = segments[folder] as string;
  return /^(?:__snapshots__|snapshots)$/i.test(own) || segments.slice(0, folder).some((segment) => TEST_FOLDERS.test(segment));
}

/** True when the change is product code: a language's file that is no test file, test material or generated output. */
function isProductChange(change: FileChange): boolean {
  const language = languageForPath(change.path);
  return language !== null && !language.isTestPath(change.path) && !isTestSupportPath(change.path);
}

/** Lines of `after` not in `before` and of `before` not in `after`, as multisets. */
function lineDelta(before: string, after: string): { added: number; removed: number } {
  const counts = new Map<string, number>();
  for (const line of before.split("\n")) counts.set(line, (counts.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of after.split("\n")) {
    const left = counts.get(line) ?? 0;
    if (left > 0) counts.set(line, left - 1);
    else added++;
  }
  let removed = 0;
  for (const left of counts.values()) removed += left;
  return { added, removed };
}

/** What {@link detectStoredExpectationEdits} returns: its findings and the stored expectations it read. */
export interface StoredExpectationResult {
  findings: Finding[];
  analyzed: string[];
}

/**
 * expectation_changed findings (medium) for the stored expectations
 * ({@link isStoredExpectationPath}) among `changes` whose text changed in
 * place, when no product code changed with them. Added and deleted files
 * are left alone (a new snapshot records a new test; an obsolete one goes
 * with its test, judged as a deletion there). Never throws.
 */
export function detectStoredExpectationEdits(changes: readonly FileChange[]): StoredExpectationResult {
  const result: StoredExpectationResult = { findings: [], analyzed: [] };
  const stored = changes.filter((change) => isStoredExpectationPath(change.path));
  if (stored.length === 0) return result;
  result.analyzed.push(...stored.map((change) => change.path));
  if (changes.some(isProductChange)) return result;
  for (const change of stored) {
    if (change.before === null || change.after === null || change.before === change.after) continue;
    const { added, removed } = lineDelta(change.before, change.after);
    result.findings.push({
      type: "expectation_changed",
      severity: defaultSeverityOf("expectation_changed"),
      file: change.path,
      line: null,
      message: `${change.path}, an expected output the tests compare with, was rewritten (${added} lines added, ${removed} removed) while no product code changed: the expectation moved to the output, not the output to the expectation`,
      evidence: { rule: "stored_expectation", lines_added: added, lines_removed: removed },
      allowed: false,
    });
  }
  return result;
}
