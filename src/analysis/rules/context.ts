/**
 * What every rule family sees: the changed files with their facts on both
 * sides, the tests compare.ts matched across them, and helpers to tell test
 * code from the code under test by import specifiers. Language-neutral: a
 * rule reads facts, never syntax.
 */

import type { DroppedDependency } from "../dropped-dependencies.js";
import type { ProductRename } from "../product-renames.js";
import { hasUsableFacts, type CodeFacts, type FileFacts, type TestCase } from "../facts.js";
import type { Runtime, StatedSupport, SupportChange } from "../support.js";
import type { NeighbourCode } from "../neighbours.js";

/** One changed path with its facts on each side; null means the file is absent on that side (same shape as compare.ts FactsPair). */
export interface RulePair {
  path: string;
  before: FileFacts | null;
  after: FileFacts | null;
}

/** How a before test found its after partner (compare.ts MatchKind). */
export type TestMatchKind = "unchanged" | "edited" | "moved" | "renamed" | "moved_and_renamed" | "moved_and_edited" | "retitled";

/** A test that survived the change: its before and after sides and how they were matched. */
export interface MatchedTest {
  beforeFile: string;
  before: TestCase;
  afterFile: string;
  after: TestCase;
  match: TestMatchKind;
}

/** Unchanged test files that exercise a changed module (they import or name it), with their tests. */
export interface ExercisingFile {
  file: string;
  tests: readonly TestCase[];
}

/** The input of every rule family. */
export interface RuleInput {
  pairs: readonly RulePair[];
  matched: readonly MatchedTest[];
  /** Per changed product path, the unchanged test files that exercise it (analysis/exercising.ts); absent = only the changed tests are known. */
  exercising?: ReadonlyMap<string, readonly ExercisingFile[]>;
  /** Changed JS/TS product paths that gained a success exit and that only program entry points import (analysis/reach.ts); absent = not known. */
  entryOnly?: ReadonlySet<string>;
  /** Every path the diff changed, including files no language analyses (package.json, lockfiles); absent = only `pairs` are known. */
  changedPaths?: readonly string[];
  /** Runtime minimums the change's manifests raised or lowered (analysis/support.ts); absent = none known. */
  support?: readonly SupportChange[];
  /** What the project supports after the change, by runtime (config/index.ts supportAfterChange), read on first call; absent = not known. */
  stated?: () => ReadonlyMap<Runtime, StatedSupport>;
  /** Unchanged product files that changed product files losing a guard call into (analysis/neighbours.ts); absent = none read. */
  neighbours?: readonly NeighbourCode[];
  /** Folders of the C# projects whose change turned nullable warnings into errors (support.ts nullableErrorScopes); absent = none. */
  nullableErrors?: readonly string[];
  /** Packages the change drops from its npm manifests (dropped-dependencies.ts); absent = none. */
  droppedDependencies?: readonly DroppedDependency[];
  /** .NET target frameworks the change stops building for, lower-case (dropped-dependencies.ts droppedTargets); absent = none. */
  droppedTargets?: readonly string[];
  /** The product functions the change renames (product-renames.ts productRenames, read once in compare.ts); absent = none. */
  productRenames?: readonly ProductRename[];
  /** Cargo features the change takes out of its Cargo.toml files (dropped-dependencies.ts droppedCargoFeatures); absent = none. */
  droppedFeatures?: readonly DroppedDependency[];
}

/** Facts of one side when they are usable (parsed, not skipped), else null. */
export function usable(facts: FileFacts | null): FileFacts | null {
  return facts && hasUsableFacts(facts) ? facts : null;
}

/** True when the changed file is test code on either side (by path or because it declares tests). */
export function isTestPair(pair: RulePair): boolean {
  return (pair.after?.isTestFile ?? false) || (pair.before?.isTestFile ?? false);
}

/** Folders of test data and doubles: code there is material for tests (often deliberately wrong), not the product. */
const TEST_SUPPORT_DIRECTORIES: ReadonlySet<string> = new Set(["fixtures", "fixture", "__fixtures__", "testdata", "test-data", "test_data", "__mocks__", "mocks", "__snapshots__"]);

/** True when a folder of the path holds fixtures, test data or mocks (`fixtures/`, `testdata/`, `__mocks__/`). */
export function isTestSupportPath(path: string): boolean {
  const segments = path.split("/");
  segments.pop();
  return segments.some((segment) => TEST_SUPPORT_DIRECTORIES.has(segment.toLowerCase()));
}

/** Folders of build output and vendored code: nobody edits them by hand, so they say nothing about the change. */
const GENERATED_DIRECTORIES: ReadonlySet<string> = new Set(["dist", "build", "out", "vendor", "node_modules", "coverage", ".next", ".nuxt", ".svelte-kit"]);

/** True when a folder of the path holds build output or vendored code (`dist/`, `vendor/`, `node_modules/`). */
export function isGeneratedPath(path: string): boolean {
  const segments = path.split("/");
  segments.pop();
  return segments.some((segment) => GENERATED_DIRECTORIES.has(segment));
}

/**
 * True when the changed file is product code that the code rules
 * (validation_bypass, special_casing, feature_removal) judge: not test code,
 * not fixtures, test data or mocks, and not build output or vendored code.
 */
export function isProductCode(pair: RulePair): boolean {
  return !isTestPair(pair) && !isTestSupportPath(pair.path) && !isGeneratedPath(pair.path);
}

/**
 * True for a product file with inline tests (Rust) on either side: its code
 * facts are product code, also when the change added or removed all its
 * inline tests.
 */
export function isInlineTestedProductCode(pair: RulePair): boolean {
  const hasInlineTests = pair.after?.hasInlineTests === true || pair.before?.hasInlineTests === true;
  return hasInlineTests && !isTestSupportPath(pair.path) && !isGeneratedPath(pair.path);
}

/** Extensions tried, in order, when an import specifier names no extension. */
const RESOLVE_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".py", ".go", ".rs", ".rb", ".php", ".java", ".cs"];

/** `a/./b/../c` -> `a/c` for '/'-separated relative paths; leading `..` beyond the root are dropped. */
function normalizePath(path: string): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  return out.join("/");
}

function dirnameOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** Candidate file paths for a module path without or with an extension (`./cart.js` may be `cart.ts`). */
function candidatesFor(base: string): string[] {
  const candidates = [base];
  const swapped = base
    .replace(/\.js$/, ".ts")
    .replace(/\.jsx$/, ".tsx")
    .replace(/\.mjs$/, ".mts")
    .replace(/\.cjs$/, ".cts");
  if (swapped !== base) candidates.push(swapped, base.replace(/\.js$/, ".tsx"));
  for (const extension of RESOLVE_EXTENSIONS) candidates.push(`${base}${extension}`, `${base}/index${extension}`);
  return candidates;
}

/**
 * The changed path an import specifier points at, or null. Relative
 * specifiers resolve against the importing file (with TS's `.js` -> `.ts`
 * mapping and `index` files); `@/x`, `~/x`, `#/x` and bare `src/x` try the
 * repository root and `src/`; dotted module names (`app.cart`) match a path
 * ending in `app/cart.<ext>`. Only paths in `known` are returned (a set, or
 * a probe whose `has` reads the tree and which lists nothing).
 */
export function resolveImport(fromPath: string, specifier: string, known: Pick<ReadonlySet<string>, "has"> & Iterable<string>): string | null {
  const bases: string[] = [];
  if (fromPath.endsWith(".py") && /^\.*[A-Za-z_][\w.]*$|^\.+$/.test(specifier)) {
    for (const base of pythonModuleBases(fromPath, specifier)) for (const candidate of [`${base}.py`, `${base}/__init__.py`]) if (known.has(candidate)) return candidate;
  }
  if (specifier.startsWith(".")) {
    bases.push(normalizePath(`${dirnameOf(fromPath)}/${specifier}`));
  } else {
    const rest = specifier.replace(/^[@~#]\//, "");
    bases.push(normalizePath(rest), normalizePath(`src/${rest}`));
  }
  for (const base of bases) for (const candidate of candidatesFor(base)) if (known.has(candidate)) return candidate;
  if (/^[A-Za-z_][\w]*(\.[A-Za-z_]\w*)+$/.test(specifier)) {
    const tail = `/${specifier.replace(/\./g, "/")}`;
    for (const path of known) {
      const stem = path.replace(/\.[^./]+$/, "");
      if (`/${stem}`.endsWith(tail)) return path;
    }
  }
  return null;
}

/**
 * Where a Python module a file imports may live, as paths without `.py`
 * (Python's import system, docs.python.org/3/reference/import.html): a
 * relative module (`.lib`, `..pkg.lib`) from the importing file's package,
 * one folder up per dot after the first; an absolute one (`tests.lib`) from
 * the repository root, from `src/`, and from the importing file's folder
 * (pytest's rootdir-relative `sys.path` insertion puts a test's own folder
 * there, so `from helpers import check` finds `tests/helpers.py`).
 */
function pythonModuleBases(fromPath: string, specifier: string): string[] {
  const dots = /^\.*/.exec(specifier)?.[0].length ?? 0;
  const rest = specifier.slice(dots).replace(/\./g, "/");
  if (dots > 0) {
    let dir = dirnameOf(fromPath);
    for (let up = 1; up < dots; up++) dir = dirnameOf(dir);
    return [normalizePath(rest === "" ? `${dir}/__init__` : `${dir}/${rest}`)];
  }
  const here = dirnameOf(fromPath);
  return [...new Set([rest, `src/${rest}`, here === "" ? rest : `${here}/${rest}`].map(normalizePath))];
}

/** `test/cart.test.ts` -> "cart", `tests/test_cart.py` -> "cart", `cart_test.go` -> "cart", `CartTest.java` -> "cart". */
function testStem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const stem = name.slice(0, name.indexOf(".") === -1 ? name.length : name.indexOf("."));
  return stem
    .replace(/^tests?_/i, "")
    .replace(/[._-]?(test|tests|spec)$/i, "")
    .replace(/(Test|Tests|Spec)$/, "")
    .toLowerCase();
}

function codeStem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.slice(0, name.indexOf(".") === -1 ? name.length : name.indexOf(".")).toLowerCase();
}

/**
 * Did the code under this test file change in the same diff? The code
 * under test is every changed non-test file that the test file imports
 * (specifiers resolved as {@link resolveImport}, on either side), plus a
 * changed non-test file with the test file's stem (`cart.test.ts` ->
 * `cart.ts`), plus any changed non-test file below the folder of an entry
 * module the test imports (an unchanged `../source/index.js` or `../src`
 * re-exports changed files under `source/`; the test file's own folder does
 * not count), plus a changed file whose folders spell a package the test
 * imports by name (`zod/v4` -> `packages/zod/src/v4/...`) or that lies in
 * the folder of that package when the test file lives there too, plus the
 * whole package for `require("..")`-style folder imports. A changed
 * dependency manifest or lockfile counts as a change to the code under test
 * (an upgrade changes what the tests run against). When
 * the test file's language records no imports, any changed non-test file
 * counts, so the answer errs towards "changed" (fewer findings).
 */
export function hasCodeUnderTestChanged(testPath: string, pairs: readonly RulePair[], changedPaths: readonly string[] = []): boolean {
  // A dependency upgrade changes what the tests run against without touching a source file.
  if (changedPaths.some((path) => DEPENDENCY_MANIFEST.test(path))) return true;
  const codePaths = pairs.filter((pair) => !isTestPair(pair)).map((pair) => pair.path);
  if (codePaths.length === 0) return false;
  const testPair = pairs.find((pair) => pair.path === testPath);
  const sides = [testPair?.before ?? null, testPair?.after ?? null].map(usable).filter((facts): facts is FileFacts => facts !== null);
  const imports = sides.flatMap((facts) => facts.code?.imports ?? []);
  const hasImportFacts = sides.some((facts) => facts.code?.imports !== undefined);
  if (!hasImportFacts) return true;
  const known = new Set(codePaths);
  if (imports.some((fact) => resolveImport(testPath, fact.source, known) !== null)) return true;
  const stem = testStem(testPath);
  if (stem !== "" && codePaths.some((path) => codeStem(path) === stem)) return true;
  // An unchanged entry module (`../source/index.js`, `../src`) re-exports changed files below its folder.
  const relative = imports.filter((fact) => fact.source.startsWith("."));
  // `require("..")`, `import "../lib/"`: the package folder itself, whatever changed below it.
  const packageFolders = relative.filter((fact) => /(^|\/)\.\.?\/?$/.test(fact.source) || fact.source.endsWith("/")).map((fact) => normalizePath(`${dirnameOf(testPath)}/${fact.source}`));
  if (packageFolders.some((folder) => codePaths.some((path) => folder === "" || isUnderFolder(path, folder)))) return true;
  const folders = relative
    .map((fact) => entryFolder(normalizePath(`${dirnameOf(testPath)}/${fact.source}`)))
    .filter((folder): folder is string => folder !== null && folder !== "" && !isUnderFolder(testPath, folder));
  if (folders.some((folder) => codePaths.some((path) => isUnderFolder(path, folder)))) return true;
  // A package importing itself by name (`zod/v4` from packages/zod/src/v4/...): every segment of
  // the specifier appears, in order, among the folders of a changed file.
  const bare = imports.map((fact) => fact.source).filter((source) => !source.startsWith(".") && !source.startsWith("node:"));
  if (bare.some((source) => codePaths.some((path) => isSpelledAlong(source, path)))) return true;
  // ... or the test lives inside that package's folder (packages/zod/src/v4/mini/tests imports `zod/mini`).
  const testFolders = testPath.split("/").slice(0, -1);
  return bare.some((source) => {
    const name = source.replace(/^@[^/]+\//, "").split("/")[0] ?? "";
    const index = testFolders.indexOf(name);
    if (name === "" || index === -1) return false;
    const packageFolder = testFolders.slice(0, index + 1).join("/");
    return codePaths.some((path) => isUnderFolder(path, packageFolder));
  });
}

/** True when the specifier's segments (`@scope/` dropped) occur in order among the folders of `path`. */
function isSpelledAlong(specifier: string, path: string): boolean {
  const wanted = specifier
    .replace(/^@[^/]+\//, "")
    .split("/")
    .filter((segment) => segment !== "");
  const folders = path.split("/").slice(0, -1);
  let next = 0;
  for (const folder of folders) if (folder === wanted[next]) next++;
  return wanted.length > 0 && next === wanted.length;
}

/** Dependency manifests and lockfiles of the common ecosystems. */
const DEPENDENCY_MANIFEST =
  /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|requirements[^/]*\.txt|poetry\.lock|uv\.lock|Pipfile\.lock|pyproject\.toml|Cargo\.(toml|lock)|go\.(mod|sum)|Gemfile(\.lock)?|composer\.(json|lock)|pom\.xml|build\.gradle(\.kts)?|packages\.lock\.json|[^/]+\.csproj)$/;

/** Names of a package's entry module or source folder. */
const ENTRY_NAMES = /^(index|main|mod|lib|src|source|entry|public-api|exports|__init__)$/i;

/** The folder an entry-module import stands for (`source/index.js` -> "source", `src` -> "src"), or null for an ordinary module. */
function entryFolder(target: string): string | null {
  const name = target.slice(target.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
  if (!ENTRY_NAMES.test(name)) return null;
  return /^(lib|src|source)$/i.test(name) ? target.replace(/\.[^./]+$/, "") : dirnameOf(target);
}

function isUnderFolder(path: string, folder: string): boolean {
  return path.startsWith(`${folder}/`);
}

/** Removes one occurrence of each of `remove` from a copy of `items` and returns what is left. */
export function multisetMinus<T>(items: readonly T[], remove: readonly T[], keyOf: (item: T) => string = String): T[] {
  const counts = new Map<string, number>();
  for (const item of remove) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  const left: T[] = [];
  for (const item of items) {
    const key = keyOf(item);
    const count = counts.get(key) ?? 0;
    if (count > 0) counts.set(key, count - 1);
    else left.push(item);
  }
  return left;
}

/** A changed product file with usable code facts on both sides (see {@link editedProductCode}). */
export interface EditedProductFile {
  path: string;
  before: CodeFacts;
  after: CodeFacts;
}

/**
 * The changed product files (product code, or product code with inline
 * tests) whose code facts are usable on both sides: what a rule that judges
 * an edit of existing code reads (a new file has nothing to compare with).
 */
export function editedProductCode(input: RuleInput): EditedProductFile[] {
  const out: EditedProductFile[] = [];
  for (const pair of input.pairs) {
    if (!(isProductCode(pair) || isInlineTestedProductCode(pair))) continue;
    const before = usable(pair.before)?.code;
    const after = usable(pair.after)?.code;
    if (before && after) out.push({ path: pair.path, before, after });
  }
  return out;
}
