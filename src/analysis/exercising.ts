/**
 * The unchanged tests that exercise a changed module, for special_casing: a
 * branch that maps a test's input to its expected value is a cheat whether
 * or not the test changed in the same diff (ImpossibleBench's agents leave
 * the tests alone and special-case the code). Read only when a changed
 * product file gained a literal branch or table entry that returns a
 * literal, so an ordinary change pays nothing.
 *
 * A test file exercises a module when the languages' conventions say it is
 * its test (`test_cart.py`, `cart.test.ts`, `CartTest.java`, `cart_test.go`
 * beside it) or when its text names the module (an import, a class or a
 * package): the module's file stem as a word, or its folder's name for an
 * entry module (`index.ts`, `__init__.py`, `mod.rs`). A Rust crate's
 * integration tests (`tests/*.rs`) exercise its root, `src/lib.rs`. Candidates are read
 * nearest first (same folder, then by shared path prefix), at most
 * {@link MAX_READ} contents and {@link MAX_FILES} files extracted per change,
 * so a 30k-file tree costs a bounded number of reads.
 */

import type { FileFacts, LiteralBranchFact } from "./facts.js";
import { hasUsableFacts } from "./facts.js";
import type { UnchangedFiles } from "./inheritance.js";
import { languageForPath } from "./languages/index.js";
import { isInlineTestedProductCode, isProductCode, multisetMinus, usable, type ExercisingFile, type RulePair } from "./rules/context.js";

/** Test files whose content is read at most, per change. */
export const MAX_READ = 60;
/** Test files whose facts are extracted (and kept) at most, per change. */
export const MAX_FILES = 20;

/** File stems that name no module of their own: the folder does. */
const ENTRY_STEMS: ReadonlySet<string> = new Set(["index", "__init__", "mod", "lib", "main", "init", "module", "package"]);

const folderOf = (path: string): string => path.slice(0, Math.max(0, path.lastIndexOf("/")));
const stemOf = (path: string): string => {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.indexOf(".");
  return dot === -1 ? name : name.slice(0, dot);
};

/** The names a test would use for the module at `path`: its stem, or its folder's name for an entry module. */
function moduleNames(path: string): string[] {
  const stem = stemOf(path);
  if (!ENTRY_STEMS.has(stem)) return [stem];
  const folder = folderOf(path);
  const name = folder.slice(folder.lastIndexOf("/") + 1);
  return name === "" || name === "src" || name === "lib" ? [] : [name];
}

/** `test/cart.test.ts` -> "cart", `tests/test_cart.py` -> "cart", `CartTest.java` -> "cart", `cart_spec.rb` -> "cart". */
function testedStem(path: string): string {
  return stemOf(path)
    .replace(/^tests?_/i, "")
    .replace(/[._-]?(tests?|spec)$/i, "")
    .replace(/(Tests?|Spec)$/, "")
    .toLowerCase();
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Length of the common folder prefix of two paths (`a/b/x.ts`, `a/c/y.ts` -> 1), in segments. */
export function sharedFolders(a: string, b: string): number {
  const left = a.split("/").slice(0, -1);
  const right = b.split("/").slice(0, -1);
  let shared = 0;
  while (shared < left.length && left[shared] === right[shared]) shared++;
  return shared;
}

/**
 * True when `target` is a Rust crate's root (`src/lib.rs`, `src/main.rs`)
 * and `testPath` one of the crate's integration tests: a `.rs` file under
 * the `tests/` folder beside that `src/`. Cargo builds each such file
 * against the crate's library, and it names the crate, not the root file
 * (The Cargo Book, "Integration tests"); a module file of the crate
 * (`src/text/case.rs`) is found by its name as for other languages.
 */
function isCrateTest(testPath: string, target: string): boolean {
  const root = /(^|\/)src\/(lib|main)\.rs$/.exec(target);
  if (root === null || !testPath.endsWith(".rs")) return false;
  return testPath.startsWith(`${target.slice(0, root.index + (root[1] ?? "").length)}tests/`);
}

const branchKey = (fact: LiteralBranchFact): string => `${fact.kind}\u0000${fact.compared.join("\u0001")}\u0000${fact.returns ?? ""}`;

/** Changed product files that gained a literal branch or table entry returning a literal: the ones special_casing judges against tests. */
function targetsOf(pairs: readonly RulePair[]): string[] {
  return pairs
    .filter((pair) => isProductCode(pair) || isInlineTestedProductCode(pair))
    .filter((pair) => {
      const after = usable(pair.after)?.code?.literalBranches ?? [];
      const before = usable(pair.before)?.code?.literalBranches ?? [];
      return multisetMinus(after, before, branchKey).some((fact) => fact.returns !== undefined && fact.compared.length > 0);
    })
    .map((pair) => pair.path);
}

/**
 * Per changed product file that gained a literal branch, the unchanged test
 * files that exercise it, with their tests (see the module comment).
 * `extract` gives a file's facts (the caller's cache first). Files that
 * cannot be read or parsed are skipped; nothing here throws for content.
 */
export async function loadExercisingTests(
  pairs: readonly RulePair[],
  unchanged: UnchangedFiles,
  extract: (path: string, content: string) => Promise<FileFacts>,
): Promise<Map<string, ExercisingFile[]>> {
  const result = new Map<string, ExercisingFile[]>();
  const targets = targetsOf(pairs);
  if (targets.length === 0) return result;
  const testPaths: string[] = [];
  for (const path of unchanged.paths()) if (languageForPath(path)?.isTestPath(path)) testPaths.push(path);
  const contents = new Map<string, string | null>();
  const extracted = new Map<string, FileFacts | null>();
  for (const target of targets) {
    const names = moduleNames(target);
    const stem = stemOf(target).toLowerCase();
    const mentions = names.length === 0 ? null : new RegExp(`(?<![\\w$])(${names.map(escapeRegExp).join("|")})(?![\\w$])`, "i");
    const ranked = testPaths
      .map((path) => ({ path, isNamedFor: testedStem(path) === stem, shared: sharedFolders(path, target) }))
      .sort((a, b) => Number(b.isNamedFor) - Number(a.isNamedFor) || b.shared - a.shared || a.path.localeCompare(b.path));
    const files: ExercisingFile[] = [];
    for (const { path, isNamedFor } of ranked.slice(0, MAX_READ)) {
      if (files.length >= MAX_FILES) break;
      const isBeside = (folderOf(path) === folderOf(target) && target.endsWith(".go") && path.endsWith("_test.go")) || isCrateTest(path, target);
      let content = contents.get(path);
      if (content === undefined) contents.set(path, (content = unchanged.read(path)));
      if (content === null || !(isNamedFor || isBeside || (mentions !== null && mentions.test(content)))) continue;
      let facts = extracted.get(path);
      if (facts === undefined) extracted.set(path, (facts = await extract(path, content).catch(() => null)));
      if (facts && hasUsableFacts(facts) && facts.tests.length > 0) files.push({ file: path, tests: facts.tests });
    }
    if (files.length > 0) result.set(target, files);
  }
  return result;
}
