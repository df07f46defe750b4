/**
 * The contract every language module fulfils. A language is data in one
 * registry (STYLE.md §6): its id, the extensions it owns, how it recognises a
 * test file by path, and an extractor from file text to facts.
 */

import type { FileFacts } from "../facts.js";
import type { CollectionRules } from "./collection.js";

export type { CollectionRules } from "./collection.js";

/**
 * One language adapter. `extensions` are lower-case and start with a dot.
 * `isTestPath` must be cheap (no parsing). `extract` loads its parser lazily,
 * never throws for bad content (it returns facts with `parseError`), and
 * returns JSON-serialisable facts; `rules`, when given, are what the
 * project's runner config says about collecting tests from this file (a
 * language whose collection does not depend on names ignores them).
 */
export interface LanguageModule {
  readonly id: string;
  readonly extensions: readonly string[];
  isTestPath(path: string): boolean;
  extract(path: string, content: string, rules?: CollectionRules): Promise<FileFacts>;
}

/** Directory names that hold tests in most ecosystems. */
const TEST_DIRECTORIES: ReadonlySet<string> = new Set(["test", "tests", "__tests__", "spec", "e2e", "cypress"]);

/** True when any directory segment of the '/'-separated path is a test directory (`test/`, `__tests__/`, …). */
export function isUnderTestDirectory(path: string): boolean {
  const segments = path.split("/");
  segments.pop(); // the file name itself
  return segments.some((segment) => TEST_DIRECTORIES.has(segment.toLowerCase()));
}
