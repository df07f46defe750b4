/**
 * Tree-level test resolution: a test class collects test methods its bases
 * declare, possibly in another file (pytest collects `class
 * TestTimestampSigner(TestSigner)` with every `test*` method of TestSigner,
 * imported from test_signer.py). Facts are per file (cached by blob oid), so
 * this step runs after extraction, over the facts of the files involved:
 * {@link resolveTestsAcross} turns per-file facts into each file's full
 * test list, and {@link loadClassContext} finds, for a diff, the unchanged
 * files the changed ones inherit from or are inherited by, reading only
 * those.
 *
 * Python only for now (languages/python-classes.ts holds pytest's rules).
 * JUnit and NUnit/xUnit also run test methods inherited from a base class;
 * their extractors do not record classes yet.
 */

import type { FileFacts, TestCase } from "./facts.js";
import { hasUsableFacts } from "./facts.js";
import { languageForPath } from "./languages/index.js";
import { missingPythonFiles, PythonModuleIndex, resolvePythonTests } from "./languages/python-classes.js";

/**
 * The files of a diff that did not change, read on demand: the caller owns
 * the store (analysis never touches git). `paths` lists every file present
 * and identical on both sides; `read` returns one's text, or null when it
 * cannot be read as text (binary, a submodule, a symlink).
 */
export interface UnchangedFiles {
  paths(): Iterable<string>;
  read(path: string): string | null;
}

/** Unchanged files' facts that the changed files' tests depend on, and the unchanged paths (to resolve imports). */
export interface ClassContext {
  /** Facts of unchanged files holding base classes of changed files' tests, or subclasses of changed files' classes. */
  files: ReadonlyMap<string, FileFacts>;
  /** Every unchanged path of the languages that resolve across files (`.py`). */
  paths: readonly string[];
}

/** No unchanged files: resolution sees the changed files only. */
export const EMPTY_CLASS_CONTEXT: ClassContext = { files: new Map(), paths: [] };

/**
 * Each file's tests resolved across `files`: for a file whose language
 * resolves inheritance (Python) and that records classes, its full test list
 * (see python-classes.ts resolvePythonTests); other files are absent from
 * the result (their `facts.tests` stand). `paths` lists every path of the
 * tree (default: the files given), so an import can name a file not given;
 * such files are added to `missing` when it is passed.
 */
export function resolveTestsAcross(files: ReadonlyMap<string, FileFacts>, paths?: Iterable<string>, missing?: Set<string>): Map<string, TestCase[]> {
  const python = new Map<string, FileFacts>();
  for (const [path, facts] of files) if (facts.language === "python" && hasUsableFacts(facts)) python.set(path, facts);
  if (python.size === 0) return new Map();
  const index = new PythonModuleIndex(paths ?? files.keys());
  return resolvePythonTests(python, missing ? { index, missing } : { index });
}

/** A changed file's facts on each side, as compare.ts pairs them. */
interface ChangedFacts {
  path: string;
  before: FileFacts | null;
  after: FileFacts | null;
}

/** The name a module is imported by: its file stem, or its package folder for `__init__.py`. */
function moduleKey(path: string): string {
  const parts = path.split("/");
  const name = parts[parts.length - 1] as string;
  return name === "__init__.py" ? (parts[parts.length - 2] ?? "") : name.replace(/\.py$/, "");
}

/** True when a side's facts take part in class resolution. */
function hasClasses(facts: FileFacts | null): boolean {
  return facts !== null && hasUsableFacts(facts) && facts.classScope !== undefined;
}

/** A side's ClassScope without its test methods' bodies: what a subclass elsewhere sees of it. */
function classShape(facts: FileFacts | null): string {
  const scope = facts?.classScope;
  if (!scope) return "";
  return JSON.stringify({ ...scope, classes: scope.classes.map((fact) => ({ ...fact, methods: fact.methods.map((method) => method.test.name) })) });
}

/** True when the side's file does not collect every class that declares test methods (a mixin or base only subclasses run). */
function hasUncollectedTestClass(facts: FileFacts | null): boolean {
  const scope = facts?.classScope;
  if (!facts || !scope) return false;
  return scope.classes.some(
    (fact) =>
      fact.methods.length > 0 &&
      !facts.tests.some((test) => !test.declaredAt && test.suitePath.length === fact.suitePath.length && test.suitePath.every((name, index) => name === fact.suitePath[index])),
  );
}

/**
 * True when a changed file's change may change what classes in other files
 * collect from it, so its importers must be judged too: its classes' bases,
 * marks, members or test method names changed; or only method bodies or
 * flags changed but some class with test methods is not collected in the
 * file itself (then only its subclasses elsewhere run them). A body edit of
 * a class its own module collects is judged there, once.
 */
function reachesImporters(change: ChangedFacts): boolean {
  if (JSON.stringify(change.before?.classScope) === JSON.stringify(change.after?.classScope)) return false;
  if (classShape(change.before) !== classShape(change.after)) return true;
  return hasUncollectedTestClass(change.before) || hasUncollectedTestClass(change.after);
}

/**
 * The unchanged files a diff's class-based tests depend on (see the module
 * comment). Nothing is read unless a changed Python file records classes.
 * Then:
 * - importers: when a changed file's change reaches its subclasses elsewhere
 *   ({@link reachesImporters}), every unchanged Python test file whose text
 *   names that module (a word match on the file stem, or the package folder
 *   of an `__init__.py`) is extracted, and kept transitively, so an
 *   unchanged subclass of a changed base is judged;
 * - bases: resolution is run on both sides and every unchanged file a lookup
 *   needed (a base class, a re-export, a star import) is extracted, until
 *   nothing more is needed.
 * `extract` is the caller's cached extractor.
 */
export async function loadClassContext(changes: readonly ChangedFacts[], unchanged: UnchangedFiles, extract: (path: string, content: string) => Promise<FileFacts>): Promise<ClassContext> {
  const seeds = changes.filter((change) => change.path.endsWith(".py") && (hasClasses(change.before) || hasClasses(change.after)));
  if (seeds.length === 0) return EMPTY_CLASS_CONTEXT;
  const changedPaths = new Set(changes.map((change) => change.path));
  const paths = [...unchanged.paths()].filter((path) => path.endsWith(".py") && !changedPaths.has(path));
  const files = new Map<string, FileFacts>();
  const texts = new Map<string, string | null>();
  const textOf = (path: string): string | null => {
    if (!texts.has(path)) texts.set(path, unchanged.read(path));
    return texts.get(path) ?? null;
  };
  const load = async (path: string): Promise<boolean> => {
    if (files.has(path)) return false;
    const text = textOf(path);
    if (text === null) return false;
    files.set(path, await extract(path, text));
    return true;
  };

  // Importers of changed classes, transitively.
  const candidates = paths.filter((path) => languageForPath(path)?.isTestPath(path) ?? false);
  let keys = new Set(seeds.filter(reachesImporters).map((change) => moduleKey(change.path)));
  const usedKeys = new Set<string>();
  while (keys.size > 0) {
    for (const key of keys) usedKeys.add(key);
    const pattern = new RegExp(`\\b(?:${[...keys].map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})\\b`);
    const next = new Set<string>();
    for (const path of candidates) {
      if (files.has(path)) continue;
      const text = textOf(path);
      if (text === null || !pattern.test(text)) continue;
      await load(path);
      const key = moduleKey(path);
      if (!usedKeys.has(key)) next.add(key);
    }
    keys = next;
  }

  // Bases (and what they import), on both sides, until resolution needs no more files.
  const loadable = new Set(paths);
  for (let round = 0; round < 16; round++) {
    const missing = new Set<string>();
    for (const side of ["before", "after"] as const) {
      const sideFiles = new Map<string, FileFacts>(files);
      const sidePaths = [...paths];
      for (const change of changes) {
        const facts = change[side];
        if (!facts) continue;
        sidePaths.push(change.path);
        sideFiles.set(change.path, facts);
      }
      const python = new Map([...sideFiles].filter(([, facts]) => facts.language === "python" && hasUsableFacts(facts)));
      for (const path of missingPythonFiles(python, new PythonModuleIndex(sidePaths))) missing.add(path);
    }
    let isLoaded = false;
    for (const path of missing) if (loadable.has(path) && (await load(path))) isLoaded = true;
    if (!isLoaded) break;
  }
  return { files, paths };
}
