/**
 * Python test classes across files: which classes pytest collects in which
 * module, and the test methods each collects through its whole MRO, wherever
 * they are declared. Works on facts only (facts.ts ClassScope), so it runs
 * both inside one file's extraction (python.ts: bases defined in the same
 * file) and over a tree (analysis/inheritance.ts: bases imported from other
 * files).
 *
 * The rules are pytest's (docs: "Conventions for Python test discovery",
 * https://docs.pytest.org/en/stable/explanation/goodpractices.html#conventions-for-python-test-discovery;
 * "Changing standard (Python) test discovery",
 * https://docs.pytest.org/en/stable/example/pythoncollection.html; source:
 * `_pytest/python.py` PyCollector.collect / Class.collect and
 * `_pytest/unittest.py`):
 *
 * - Modules: `test_*.py` or `*_test.py` (python_files). A module collects
 *   every name bound in its namespace, so a `Test*` class imported into it is
 *   collected there again (the `collect_imported_tests` ini option, default
 *   true, pytest 8.4+).
 * - Classes: names starting with `Test` (python_classes), "without an
 *   `__init__` method" (nor `__new__`); `unittest.TestCase` subclasses
 *   "regardless of the name" (and whatever their `__init__`); `__test__ =
 *   False` on the class or a base stops collection, `__test__ = True` collects
 *   a class whatever its name; abstract classes (`inspect.isabstract`) are
 *   not collected.
 * - Methods: `test*` (python_functions) from the class's `__dict__` and then
 *   each base's in MRO order; a name seen in a subclass hides the base's
 *   (an override, or `test_x = None`). Inherited items come first
 *   (reverse-MRO order).
 * - Marks: the method's own, then the class's and every base's (pytest 7.2+:
 *   "marks are now inherited according to the full MRO"; `@unittest.skip`
 *   sets an attribute every subclass inherits), then enclosing classes',
 *   then the collecting module's `pytestmark`.
 *
 * The project's python_files / python_classes / python_functions settings
 * come with each file's facts (`FileFacts.collection`, from its pytest
 * config; analysis/discovery.ts); without them the defaults hold.
 *
 * Not modelled: `collect_imported_tests = false`, test functions
 * imported into another module, a class body that binds a base's method
 * under another name.
 */

import { noFlags, TEST_FLAG_ORDER, type ClassFact, type FileFacts, type ImportFact, type MarkFact, type MethodFact, type TestCase, type TestFlag, type TestFlags } from "../facts.js";
import { matchesPrefixOrGlob } from "./collection.js";

/** Files pytest collects by default: `test_*.py` and `*_test.py` (unittest's `test*.py` too). */
const COLLECTED_FILE = /^(test.*|.*_test)\.py$/i;

/** True for files pytest/unittest collect tests from (default python_files). */
export function isPythonCollectedFile(path: string): boolean {
  return COLLECTED_FILE.test(path.slice(path.lastIndexOf("/") + 1));
}

/** pytest's default python_classes prefix. */
const TEST_CLASS_PREFIX = "Test";

/** True when pytest collects the file as a test module: its config's python_files (FileFacts.collection) or the default names. */
function isCollectedModule(path: string, facts: FileFacts | undefined): boolean {
  return facts?.collection?.testModule === true || isPythonCollectedFile(path);
}

/**
 * Names worth resolving when imported into a test module, since pytest may
 * collect them there again: `Test*` classes, and unittest cases by their
 * usual names (`*Test`, `*Tests`, `*TestCase`).
 */
export function isTestClassName(name: string): boolean {
  return name.startsWith(TEST_CLASS_PREFIX) || /(?:Test|Tests|TestCase)$/.test(name);
}

/**
 * A base class outside the files resolved, taken for `unittest.TestCase` (or
 * a subclass of it: Django's, `IsolatedAsyncioTestCase`, a project's
 * `BaseTest`) when its name says so.
 */
const UNITTEST_BASE = /TestCase\b|\bTestCase|Test\b/;

/** An abstract-base-class marker among a class's bases or metaclass. */
const ABC_MARKER = /(?:^|\.)(?:ABC|ABCMeta)$/;

/** A class of one file. */
interface ClassRef {
  path: string;
  fact: ClassFact;
}

/** What a name means in a module: a class of the tree, a module (by dotted spec, relative to `from`), or something outside the tree. */
type Binding = { kind: "class"; ref: ClassRef } | { kind: "module"; spec: string; from: string } | { kind: "external"; text: string };

/** One entry of a linearised MRO: a class of the tree, or a base outside it (by its text). */
type MroEntry = { ref: ClassRef } | { external: string };

/** The Python files of a tree by file name, so imports can be resolved to paths. */
export class PythonModuleIndex {
  private readonly byName = new Map<string, string[]>();
  private readonly all = new Set<string>();

  /** `paths`: repo-relative paths; only `.py` ones are kept. */
  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      if (!path.endsWith(".py")) continue;
      this.all.add(path);
      const name = path.slice(path.lastIndexOf("/") + 1);
      const list = this.byName.get(name);
      if (list) list.push(path);
      else this.byName.set(name, [path]);
    }
  }

  /** True when the tree has this file. */
  has(path: string): boolean {
    return this.all.has(path);
  }

  /**
   * The file a module spec names when imported from `fromPath`: a relative
   * spec (`.x`, `..pkg.mod`, `.`) from the importer's package; an absolute one
   * (`pkg.mod`) as any file ending in `pkg/mod.py` or `pkg/mod/__init__.py`,
   * the one sharing the most leading folders with the importer (the import
   * root is not known: pytest's rootdir-relative `sys.path` entries make
   * `test_pkg.test_x` importable from `tests/`). Null when none exists.
   */
  resolve(fromPath: string, spec: string): string | null {
    const dots = /^\.*/.exec(spec)?.[0].length ?? 0;
    const parts = spec
      .slice(dots)
      .split(".")
      .filter((part) => part !== "");
    if (dots > 0) {
      const dir = fromPath.split("/").slice(0, -1);
      const base = dir.slice(0, Math.max(0, dir.length - (dots - 1)));
      if (dots - 1 > dir.length) return null;
      const stem = [...base, ...parts].join("/");
      const candidates = parts.length === 0 ? [`${stem}${stem ? "/" : ""}__init__.py`] : [`${stem}.py`, `${stem}/__init__.py`];
      return candidates.find((candidate) => this.all.has(candidate)) ?? null;
    }
    if (parts.length === 0) return null;
    const last = parts[parts.length - 1] as string;
    const suffixes = [`${parts.join("/")}.py`, `${parts.join("/")}/__init__.py`];
    const found = [...(this.byName.get(`${last}.py`) ?? []), ...(this.byName.get("__init__.py") ?? [])].filter((path) => suffixes.some((suffix) => path === suffix || path.endsWith(`/${suffix}`)));
    if (found.length === 0) return null;
    const fromDirs = fromPath.split("/").slice(0, -1);
    const shared = (path: string): number => {
      const dirs = path.split("/");
      let count = 0;
      while (count < fromDirs.length && dirs[count] === fromDirs[count]) count++;
      return count;
    };
    return found.sort((a, b) => shared(b) - shared(a) || a.length - b.length)[0] as string;
  }
}

/** Options of {@link resolvePythonTests}. */
export interface PythonResolveOptions {
  /** Every path of the tree, to resolve imports to files; default: the files given. */
  index?: PythonModuleIndex;
  /** Filled with files of the index that a lookup needed but that are not among the files given (load them and resolve again). */
  missing?: Set<string>;
}

/**
 * A test case's flags from marks in precedence order (the first mark of each
 * flag wins; the reason is that of the first flag, in TEST_FLAG_ORDER, whose mark
 * has one), as tree-sitter.ts builds them for a single declaration.
 */
function withMarks(test: TestCase, marks: readonly MarkFact[]): TestCase {
  const winners = new Map<TestFlag, MarkFact>();
  for (const mark of marks) if (!winners.has(mark.flag)) winners.set(mark.flag, mark);
  const flags: TestFlags = noFlags();
  const flagVia: Partial<Record<TestFlag, string>> = {};
  let skipReason: string | undefined;
  if (winners.has("skipped")) winners.delete("conditional");
  for (const flag of TEST_FLAG_ORDER) {
    const mark = winners.get(flag);
    if (!mark) continue;
    flags[flag] = true;
    flagVia[flag] = mark.via;
    if (mark.reason !== undefined && skipReason === undefined && flag !== "focused") skipReason = mark.reason;
  }
  const { flagVia: _via, skipReason: _reason, ...rest } = test;
  const result: TestCase = { ...rest, flags };
  if (Object.keys(flagVia).length > 0) result.flagVia = flagVia;
  if (skipReason !== undefined) result.skipReason = skipReason;
  return result;
}

/**
 * Resolves class-based tests over a set of Python files' facts. Returns, for
 * every given file that has a ClassScope and is a collected module, its full
 * test list: its module-level test functions (from `facts.tests`) and every
 * test its classes collect (own, inherited, or of a `Test*` class imported
 * into it), ordered by the line of the function, class or import. Inherited
 * and imported tests carry `declaredAt`. Lookups that need a file of the
 * index not given are recorded in `options.missing` and treated as outside
 * the tree.
 */
export function resolvePythonTests(files: ReadonlyMap<string, FileFacts>, options: PythonResolveOptions = {}): Map<string, TestCase[]> {
  const index = options.index ?? new PythonModuleIndex(files.keys());
  const resolver = new Resolver(files, index, options.missing ?? new Set());
  const result = new Map<string, TestCase[]>();
  for (const [path, facts] of files) {
    if (!facts.classScope || !isCollectedModule(path, facts)) continue;
    result.set(path, resolver.testsOf(path, facts));
  }
  return result;
}

/**
 * The files of the index that resolving `files` would need and that are not
 * given (base classes, re-exports, star imports, imported test classes):
 * the lookups of {@link resolvePythonTests} without building any test case.
 */
export function missingPythonFiles(files: ReadonlyMap<string, FileFacts>, index: PythonModuleIndex): Set<string> {
  const missing = new Set<string>();
  const resolver = new Resolver(files, index, missing);
  for (const [path, facts] of files) {
    const scope = facts.classScope;
    if (!scope) continue;
    for (const fact of scope.classes) resolver.mro({ path, fact });
    if (!isCollectedModule(path, facts)) continue;
    for (const fact of scope.imports) {
      for (const bound of fact.names) {
        if (bound.imported === "*") resolver.lookup(path, "*", null);
        else if (bound.imported !== null && isTestClassName(bound.local)) resolver.lookup(path, bound.local, null);
      }
    }
  }
  return missing;
}

class Resolver {
  private readonly mros = new Map<string, MroEntry[]>();
  private readonly linearising = new Set<string>();

  constructor(
    private readonly files: ReadonlyMap<string, FileFacts>,
    private readonly index: PythonModuleIndex,
    private readonly missing: Set<string>,
  ) {}

  /** The scope of a file, or null (recording it as missing when the tree has it). */
  private scopeOf(path: string) {
    const facts = this.files.get(path);
    if (!facts) {
      if (this.index.has(path)) this.missing.add(path);
      return null;
    }
    return facts.classScope ?? null;
  }

  /** A module spec (relative to `from`) as a file, or null. */
  private moduleFile(from: string, spec: string): string | null {
    return this.index.resolve(from, spec);
  }

  /**
   * What `name` means at module level in `path` just before `line` (the last
   * binding by a class statement or an import above it; without `line`, the
   * module's final binding), following `from m import *`. Null when unknown.
   */
  lookup(path: string, name: string, line: number | null, depth = 0): Binding | null {
    if (depth > 12) return null;
    const scope = this.scopeOf(path);
    if (!scope) return null;
    let best: { line: number; binding: () => Binding | null } | null = null;
    const consider = (at: number, binding: () => Binding | null): void => {
      if (line !== null && at >= line) return;
      if (!best || at >= best.line) best = { line: at, binding };
    };
    for (const fact of scope.classes) {
      if (fact.suitePath.length === 1 && fact.suitePath[0] === name) consider(fact.line, () => ({ kind: "class", ref: { path, fact } }));
    }
    for (const fact of scope.imports) {
      for (const bound of fact.names) {
        if (bound.local !== name) continue;
        consider(fact.line ?? 0, () => this.importBinding(path, fact, bound.imported, depth));
      }
    }
    const found = best as { line: number; binding: () => Binding | null } | null;
    if (found) return found.binding();
    for (const fact of [...scope.imports].reverse()) {
      if (!fact.names.some((bound) => bound.imported === "*")) continue;
      if (line !== null && (fact.line ?? 0) >= line) continue;
      const file = this.moduleFile(path, fact.source);
      const binding = file ? this.lookup(file, name, null, depth + 1) : null;
      if (binding) return binding;
    }
    return null;
  }

  /** The binding an import gives a name (`imported` null: a whole module). */
  private importBinding(path: string, fact: ImportFact, imported: string | null, depth: number): Binding | null {
    if (imported === null) {
      // `import a.b` binds `a`; `import a.b as m` binds `a.b`.
      const spec = fact.isAlias ? fact.source : (fact.source.split(".")[0] as string);
      return { kind: "module", spec, from: path };
    }
    const file = this.moduleFile(path, fact.source);
    if (file) {
      const inModule = this.lookup(file, imported, null, depth + 1);
      if (inModule) return inModule;
    }
    const submodule = joinSpec(fact.source, imported);
    if (this.moduleFile(path, submodule)) return { kind: "module", spec: submodule, from: path };
    return { kind: "external", text: `${fact.source}.${imported}` };
  }

  /** A base-class expression (`Base`, `mod.Base`, `a.b.Base`) of a class in `path` at `line`. */
  resolveBase(path: string, expression: string, line: number): Binding {
    const parts = expression.split(".");
    let binding = /^[A-Za-z_]\w*$/.test(parts[0] ?? "") ? this.lookup(path, parts[0] as string, line) : null;
    for (const part of parts.slice(1)) {
      if (!binding) break;
      if (binding.kind === "module") {
        const file = this.moduleFile(binding.from, binding.spec);
        const inModule = file ? this.lookup(file, part, null) : null;
        const submodule = joinSpec(binding.spec, part);
        binding = inModule ?? (this.moduleFile(binding.from, submodule) ? { kind: "module", spec: submodule, from: binding.from } : null);
      } else if (binding.kind === "class") {
        const { path: owner, fact } = binding.ref;
        const nested = this.scopeOf(owner)?.classes.find((candidate) => sameNames(candidate.suitePath, [...fact.suitePath, part]));
        binding = nested ? { kind: "class", ref: { path: owner, fact: nested } } : null;
      } else binding = null;
    }
    return binding && binding.kind === "class" ? binding : { kind: "external", text: expression };
  }

  /** C3 linearisation of a class (Python's MRO); a base outside the tree is a leaf. Falls back to depth-first order when C3 fails. */
  mro(ref: ClassRef): MroEntry[] {
    const key = refKey(ref);
    const cached = this.mros.get(key);
    if (cached) return cached;
    if (this.linearising.has(key)) return [{ ref }];
    this.linearising.add(key);
    const bases: MroEntry[] = ref.fact.bases.map((expression) => {
      const binding = this.resolveBase(ref.path, expression, ref.fact.line);
      return binding.kind === "class" ? { ref: binding.ref } : { external: expression };
    });
    const sequences = [...bases.map((base) => ("ref" in base ? this.mro(base.ref) : [base])), bases].map((list) => [...list]);
    const merged: MroEntry[] = [{ ref }];
    let isConsistent = true;
    while (sequences.some((list) => list.length > 0)) {
      const head = sequences.map((list) => list[0]).find((candidate) => candidate && !sequences.some((list) => list.slice(1).some((entry) => sameEntry(entry, candidate))));
      if (!head) {
        isConsistent = false;
        break;
      }
      merged.push(head);
      for (const list of sequences) if (list[0] && sameEntry(list[0], head)) list.shift();
    }
    let result = merged;
    if (!isConsistent) {
      result = [{ ref }];
      for (const base of bases) for (const entry of "ref" in base ? this.mro(base.ref) : [base]) if (!result.some((seen) => sameEntry(seen, entry))) result.push(entry);
    }
    this.linearising.delete(key);
    this.mros.set(key, result);
    return result;
  }

  /** True when a class is abstract: an ABC whose MRO leaves an `@abstractmethod` not overridden. */
  private isAbstract(mro: readonly MroEntry[]): boolean {
    const classes = mro.flatMap((entry) => ("ref" in entry ? [entry.ref.fact] : []));
    const isAbc = mro.some((entry) => ("external" in entry ? ABC_MARKER.test(entry.external) : ABC_MARKER.test(entry.ref.fact.metaclass ?? "")));
    if (!isAbc) return false;
    const names = new Set(classes.flatMap((fact) => fact.abstractMethods ?? []));
    return [...names].some((name) => classes.find((fact) => fact.members.includes(name))?.abstractMethods?.includes(name) ?? false);
  }

  /** Whether pytest collects a class bound as `name` (see the module comment), and whether as a unittest case. */
  collectability(ref: ClassRef, name: string): { isCollected: boolean; mro: MroEntry[] } {
    const mro = this.mro(ref);
    const classes = mro.flatMap((entry) => ("ref" in entry ? [entry.ref.fact] : []));
    const testAttribute = classes.find((fact) => fact.testAttribute !== undefined)?.testAttribute;
    if (testAttribute === false || this.isAbstract(mro)) return { isCollected: false, mro };
    const isUnittest = mro.some((entry) => "external" in entry && UNITTEST_BASE.test(entry.external));
    if (isUnittest) return { isCollected: true, mro };
    const isNamed = matchesPrefixOrGlob(name, this.files.get(ref.path)?.collection?.classPatterns ?? [TEST_CLASS_PREFIX]) || testAttribute === true;
    const hasConstructor = classes.some((fact) => fact.members.includes("__init__") || fact.members.includes("__new__"));
    return { isCollected: isNamed && !hasConstructor, mro };
  }

  /**
   * The tests a class collects when bound as `suitePath` (its last entry the
   * binding name) in module `collectingPath`: the test methods of its MRO,
   * the subclass's hiding the base's, inherited first; and its nested test
   * classes. `outerMarks` are the marks of enclosing classes; `site` the
   * line of the class (or import) in the collecting module; `isOwn` false
   * when the class is reached through a base or an import.
   */
  collectClass(
    ref: ClassRef,
    suitePath: string[],
    collectingPath: string,
    outerMarks: readonly MarkFact[],
    site: { line: number; reach: "inherited" | "imported" | null; isRepeat: boolean },
  ): TestCase[] {
    const { isCollected, mro } = this.collectability(ref, suitePath[suitePath.length - 1] as string);
    if (!isCollected) return [];
    const classMarks = [...mro.flatMap((entry) => ("ref" in entry ? entry.ref.fact.marks : [])), ...outerMarks];
    const seen = new Set<string>();
    const groups: TestCase[][] = [];
    for (const entry of mro) {
      if (!("ref" in entry)) continue;
      const declaring = entry.ref;
      const methods = new Map<string, MethodFact>(declaring.fact.methods.map((method) => [method.test.name, method]));
      const group: TestCase[] = [];
      for (const member of declaring.fact.members) {
        if (seen.has(member)) continue;
        seen.add(member);
        const method = methods.get(member);
        if (method) {
          group.push(this.instance(method, declaring, suitePath, collectingPath, [...method.marks, ...classMarks], site, sameRef(declaring, ref)));
          continue;
        }
        const nested = this.scopeOf(declaring.path)?.classes.find((candidate) => sameNames(candidate.suitePath, [...declaring.fact.suitePath, member]));
        if (!nested) continue;
        const nestedSite = sameRef(declaring, ref) ? site : { ...site, reach: site.reach ?? "inherited" };
        group.push(...this.collectClass({ path: declaring.path, fact: nested }, [...suitePath, member], collectingPath, classMarks, nestedSite));
      }
      groups.push(group);
    }
    return groups.reverse().flat();
  }

  /** One collected test: the method's test case under the collecting class's suite path, with the marks that apply there. */
  private instance(
    method: MethodFact,
    declaring: ClassRef,
    suitePath: string[],
    collectingPath: string,
    marks: readonly MarkFact[],
    site: { line: number; reach: "inherited" | "imported" | null; isRepeat: boolean },
    isDeclaredHere: boolean,
  ): TestCase {
    const moduleMarks = this.files.get(collectingPath)?.classScope?.marks ?? [];
    const test = withMarks({ ...method.test, id: [...suitePath, method.test.name].join(" > "), suitePath }, [...marks, ...moduleMarks]);
    const reach = site.reach ?? (isDeclaredHere ? null : "inherited");
    if (reach === null) return test;
    test.line = site.line;
    test.declaredAt = { file: declaring.path, suitePath: declaring.fact.suitePath, line: method.test.line, reach };
    if (site.isRepeat) test.declaredAt.isRepeat = true;
    return test;
  }

  /** A collected module's tests (see {@link resolvePythonTests}). */
  testsOf(path: string, facts: FileFacts): TestCase[] {
    const scope = facts.classScope;
    if (!scope) return facts.tests;
    const entries: { line: number; tests: TestCase[] }[] = facts.tests.filter((test) => test.suitePath.length === 0).map((test) => ({ line: test.line, tests: [test] }));
    // Classes defined here: the module's final binding of each top-level name.
    for (const fact of scope.classes) {
      if (fact.suitePath.length !== 1) continue;
      const name = fact.suitePath[0] as string;
      const binding = this.lookup(path, name, null);
      if (binding?.kind !== "class" || binding.ref.fact !== fact) continue;
      entries.push({ line: fact.line, tests: this.collectClass({ path, fact }, [name], path, [], { line: fact.line, reach: null, isRepeat: false }) });
    }
    // Test classes imported here, which pytest collects again in this module.
    const imported = new Set<string>();
    for (const fact of scope.imports) {
      const names = fact.names.flatMap((bound) => (bound.imported === "*" ? this.starNames(path, fact) : bound.imported !== null && isTestClassName(bound.local) ? [bound.local] : []));
      for (const name of names) {
        if (imported.has(name)) continue;
        const binding = this.lookup(path, name, null);
        if (binding?.kind !== "class" || binding.ref.path === path) continue;
        imported.add(name);
        const home = binding.ref;
        const isRepeat = isCollectedModule(home.path, this.files.get(home.path)) && home.fact.suitePath.length === 1 && this.collectability(home, home.fact.suitePath[0] as string).isCollected;
        entries.push({ line: fact.line ?? 0, tests: this.collectClass(home, [name], path, [], { line: fact.line ?? 0, reach: "imported", isRepeat }) });
      }
    }
    return entries.sort((a, b) => a.line - b.line).flatMap((entry) => entry.tests);
  }

  /** Test class names a `from m import *` brings in: m's top-level classes with a test-class name. */
  private starNames(path: string, fact: ImportFact): string[] {
    const file = this.moduleFile(path, fact.source);
    const scope = file ? this.scopeOf(file) : null;
    return (scope?.classes ?? []).filter((candidate) => candidate.suitePath.length === 1 && isTestClassName(candidate.suitePath[0] as string)).map((candidate) => candidate.suitePath[0] as string);
  }
}

/** `pkg` + `mod` -> `pkg.mod`; `.` + `mod` -> `.mod`. */
function joinSpec(spec: string, part: string): string {
  return /^\.+$/.test(spec) ? `${spec}${part}` : `${spec}.${part}`;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, index) => name === b[index]);
}

function refKey(ref: ClassRef): string {
  return `${ref.path}\u0000${ref.fact.suitePath.join(".")}\u0000${ref.fact.line}`;
}

function sameRef(a: ClassRef, b: ClassRef): boolean {
  return a.path === b.path && a.fact === b.fact;
}

function sameEntry(a: MroEntry, b: MroEntry): boolean {
  if ("ref" in a && "ref" in b) return sameRef(a.ref, b.ref);
  return "external" in a && "external" in b && a.external === b.external;
}
