/**
 * Test discovery: which files the project's test runner collects, read from
 * the runner's own configuration, so that `ralph tests` and `ralph check`
 * count the tests that really run:
 *
 * - vitest (`vitest.config.*`, or a `vite.config.*` with a `test` block):
 *   `test.include` (default `**\/*.{test,spec}.?(c|m)[jt]s?(x)`),
 *   `test.exclude` (default `**\/node_modules/**`, `**\/.git/**`; a spread of
 *   `configDefaults.exclude` reads as those), `test.includeSource`,
 *   `test.dir`, `root` (vitest 4 docs, "Config": include, exclude, dir).
 * - jest (`jest.config.*`, or package.json `"jest"`): `testMatch` (default
 *   `**\/__tests__/**\/*.?([mc])[jt]s?(x)`, `**\/?(*.)+(spec|test).?([mc])[jt]s?(x)`)
 *   or `testRegex`, `testPathIgnorePatterns` (default `/node_modules/`),
 *   `modulePathIgnorePatterns`, `roots`, `rootDir`, `moduleFileExtensions`;
 *   globs and regexes are matched against the absolute path, as jest's
 *   SearchSource does.
 * - mocha (`.mocharc.*`, or package.json `"mocha"`), when it sets `spec`:
 *   files, folders (with `extension`, `recursive`) and globs; `ignore`.
 * - pytest (pytest.ini, pyproject.toml `[tool.pytest.ini_options]`, tox.ini
 *   `[pytest]`, setup.cfg `[tool:pytest]`, first found in that order):
 *   `testpaths`, `norecursedirs`, `python_files`; `python_classes` and
 *   `python_functions` are handed to the Python extractor as
 *   {@link CollectionRules}.
 *
 * A file is governed by the configs of the nearest folder above it that has
 * one (JS/TS files by JS runner configs, `.py` files by pytest's). Several
 * JS runners configured in one folder collect the union of their files.
 * When that folder's config cannot be read statically (a computed value, a
 * `projects`/workspace setup, a parse error), or sets nothing about files,
 * or no folder has one, the answer is "unknown" and the languages' naming
 * conventions apply, as they did before. Configs are read once per tree and
 * folder, never per file. A file that uses a framework with its own runner
 * (Playwright Test, Cypress, node:test, …; {@link hasOwnRunner}) is not
 * vitest's, jest's or mocha's to leave out: callers keep the conventions
 * for it. Nor is a file the include patterns simply do not reach, when no
 * exclusion names it ({@link Collection.excluded}): ralph check judges its
 * tests by the conventions (an e2e config or another runner may run it);
 * only `ralph tests` leaves it out of the list.
 */

import type picomatch from "picomatch";
import { readConfig } from "./config/js-config.js";
import { readPytestCollection, type PytestCollectionSettings } from "./config/python.js";
import { getPath, OPAQUE_SPREAD_KEY, type StaticValue } from "./config/static-value.js";
import { fnmatchToRegExp, type CollectionRules } from "./languages/collection.js";
import { languageForPath } from "./languages/index.js";

/**
 * Read access to one tree (a commit's or the work tree's), by
 * '/'-separated repo-relative paths. Implementations should be cheap to
 * call repeatedly (the store's memoises tree objects per folder).
 */
export interface TreeReader {
  /** The text of the file at `path`, or null when there is none (absent, a folder, binary, a submodule). */
  read(path: string): string | null;
  /** Names of the files (not folders) directly in `dir` ("" is the root). */
  fileNames(dir: string): readonly string[];
  /** Paths of every file below `dir` ("" is the whole tree), at any depth. */
  walk(dir: string): readonly string[];
}

/** What the runner does with one file. */
export interface Collection {
  /** true: the runner collects its tests; false: it does not; null: no readable config says (the naming conventions apply). */
  collected: boolean | null;
  /** The config that decided, for messages: `jest testMatch (package.json "jest")`. */
  by?: string;
  /**
   * With `collected: false`: true when an exclusion pattern leaves the file
   * out (the project says it holds no tests of its runner: fixtures, vendored
   * code); false when the include patterns just do not reach it (another
   * runner or config, e.g. an e2e jest config, may still run it).
   */
  excluded?: boolean;
  /** Collection rules for the extractor (pytest names), for collected files and others of the runner's folder alike (a base class lives in a module pytest does not collect); absent when the conventions hold. */
  rules?: CollectionRules;
}

/** Which configs govern a file: JS/TS files by JS runners, `.py` files by pytest. */
type Family = "javascript" | "python";

/** One runner configured in a folder, with its file test. */
interface Runner {
  /** `jest (package.json "jest")`, for messages. */
  label: string;
  /** True when the runner collects this repo-relative path (always a path under the scope's folder). */
  collects(path: string): boolean;
  /**
   * True when the config leaves this path out by an explicit exclusion
   * (vitest `exclude`, jest `testPathIgnorePatterns`/`modulePathIgnorePatterns`,
   * mocha `ignore`, pytest `norecursedirs`, their defaults included), as
   * opposed to a path its include patterns simply do not reach.
   */
  excludes(path: string): boolean;
  /** Rules for the extractor of a file under this runner's folder; `isCollected` says whether the runner collects it (a module pytest does not collect still declares base classes with the configured names). */
  rules?(path: string, isCollected: boolean): CollectionRules | undefined;
}

/** The configs of one folder for one family. */
interface Scope {
  dir: string;
  /** The runners; null when discovery is unknown here (the conventions apply). */
  runners: Runner[] | null;
  /** What the configs say about files, as JSON: equal fingerprints collect the same files. */
  fingerprint: string;
}

/** picomatch's compiler; the package is loaded on first use, so importing analysis loads no package (test/analysis/registry.test.ts). */
type Picomatch = typeof picomatch;

let picomatchLoaded: Promise<Picomatch> | null = null;

/** picomatch, imported once. */
function loadPicomatch(): Promise<Picomatch> {
  picomatchLoaded ??= import("picomatch").then((module) => module.default);
  return picomatchLoaded;
}

/** Jest presets known to leave testMatch, testRegex, roots and the ignore patterns at jest's defaults (ts-jest's transforms); another preset may set them. */
const FILE_NEUTRAL_JEST_PRESET = /^(?:ts-jest(?:\/.*)?|@shelf\/jest-mongodb|@shelf\/jest-dynamodb)$/;

/** The absolute folder jest's patterns are matched under: where the repository root stands in for the real one. */
const ABSOLUTE_ROOT = "/repo";

const VITEST_DEFAULT_INCLUDE = ["**/*.{test,spec}.?(c|m)[jt]s?(x)"];
const VITEST_DEFAULT_EXCLUDE = ["**/node_modules/**", "**/.git/**"];
const JEST_DEFAULT_TEST_MATCH = ["**/__tests__/**/*.?([mc])[jt]s?(x)", "**/?(*.)+(spec|test).?([mc])[jt]s?(x)"];
const JEST_DEFAULT_IGNORE = ["/node_modules/"];
const MOCHA_DEFAULT_EXTENSIONS = ["js", "cjs", "mjs"];
const PYTEST_DEFAULT_FILES = ["test_*.py", "*_test.py"];
const PYTEST_DEFAULT_NORECURSE = ["*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}"];

const VITEST_CONFIG = /^vitest(?:\.[\w-]+)?\.config\.(?:[cm]?[jt]s)$/;
const VITE_CONFIG = /^vite(?:\.[\w-]+)?\.config\.(?:[cm]?[jt]s)$/;
const VITEST_WORKSPACE = /^vitest\.(?:workspace|projects)\.(?:[cm]?[jt]s|json)$/;
const JEST_CONFIG = /^jest\.config\.(?:[cm]?[jt]s|json)$/;
const MOCHARC = /^\.mocharc(?:\.(?:[cm]?js|json|jsonc|ya?ml))?$/;
const PYTEST_CONFIGS = ["pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"] as const;

/**
 * Test frameworks that come with their own runner (Playwright Test, Cypress,
 * node:test, ava, tap, bun, uvu), as FileFacts.frameworks names them. A file
 * that uses one is run by that runner, not by vitest, jest or mocha, so
 * their configs do not decide for it (the conventions do).
 */
const OWN_RUNNER_FRAMEWORKS: ReadonlySet<string> = new Set(["playwright", "cypress", "node:test", "ava", "tap", "bun", "uvu"]);

/** True when the file's frameworks (FileFacts.frameworks) include one with its own runner (see {@link OWN_RUNNER_FRAMEWORKS}). */
export function hasOwnRunner(frameworks: readonly string[]): boolean {
  return frameworks.some((framework) => OWN_RUNNER_FRAMEWORKS.has(framework));
}

/** True when a file of this name can change which files a runner collects (runner configs, package.json, pytest settings). */
export function isDiscoveryConfigName(name: string): boolean {
  return (
    VITEST_CONFIG.test(name) ||
    VITE_CONFIG.test(name) ||
    VITEST_WORKSPACE.test(name) ||
    JEST_CONFIG.test(name) ||
    MOCHARC.test(name) ||
    name === "package.json" ||
    (PYTEST_CONFIGS as readonly string[]).includes(name)
  );
}

/** A value read statically, as a list of strings; "opaque" when part of it is computed; undefined when absent. */
function stringList(value: StaticValue | undefined): string[] | "opaque" | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const strings: string[] = [];
  for (const item of items) {
    if (typeof item !== "string" || item.includes("«")) return "opaque";
    strings.push(item);
  }
  return strings;
}

/** A vitest include/exclude list, with spreads of vitest's own defaults (`...configDefaults.exclude`) read as those defaults. */
function vitestList(value: StaticValue | undefined, defaults: readonly string[]): string[] | "opaque" | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const expanded = items.flatMap((item) => (typeof item === "string" && /^(?:\.\.\.)?«(?:configDefaults\.(?:exclude|include)|defaultExclude|defaultInclude)»$/.test(item) ? [...defaults] : [item]));
  return stringList(expanded);
}

/** `a` and `b` joined and normalised ('/'-separated, `.` and `..` resolved); null when it climbs above the repository or is absolute. */
export function joinPath(a: string, b: string): string | null {
  if (b.startsWith("/")) return null;
  const parts: string[] = [];
  for (const part of `${a}/${b}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

/** `path` relative to `dir` when it lies below it, else null ("" is the root). */
function relativeTo(dir: string, path: string): string | null {
  if (dir === "") return path;
  return path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : null;
}

/**
 * A matcher for a list of globs with jest's semantics (jest-util
 * globsToMatcher): a path is kept when a positive glob matches it and no
 * negated glob (`!…`) rules it out; a list of only negated globs keeps
 * everything they do not rule out.
 */
function globListMatcher(picomatch: Picomatch, globs: readonly string[], dot: boolean): (path: string) => boolean {
  const matchers = globs.map((glob) => {
    const isMatch = picomatch(glob, { dot }, true);
    return { isMatch, negated: Boolean(isMatch.state?.negated || isMatch.state?.negatedExtglob) };
  });
  const negatives = matchers.filter((matcher) => matcher.negated).length;
  return (path) => {
    let kept: boolean | undefined;
    for (const { isMatch, negated } of matchers) {
      const matched = isMatch(path);
      if (!matched && negated) kept = false;
      else if (matched && !negated) kept = true;
    }
    return negatives === matchers.length ? kept !== false : kept === true;
  };
}

function stripDotSlash(pattern: string): string {
  return pattern.replace(/^(?:\.\/)+/, "");
}

type StaticObject = { [key: string]: StaticValue };

function isStaticObject(value: StaticValue | undefined): value is StaticObject {
  return value !== null && value !== undefined && typeof value === "object" && !Array.isArray(value);
}

/**
 * One runner for several projects: a file is collected when any project
 * collects it (vitest `test.projects`, jest `projects`), and excluded when
 * no project collects it and one excludes it.
 */
function unionRunner(label: string, runners: readonly Runner[]): Runner {
  return {
    label,
    collects: (path) => runners.some((runner) => runner.collects(path)),
    excludes: (path) => !runners.some((runner) => runner.collects(path)) && runners.some((runner) => runner.excludes(path)),
  };
}

/**
 * vitest `test.projects` written inline (`[{ test: { name, include } }, { extends: true, test: {...} }]`):
 * the union of the projects' runners. A project with `extends: true` starts
 * from the root config's settings. A project named by a path or glob (a
 * folder or a config file elsewhere) is not read: the whole config is then
 * left to the conventions.
 */
function vitestProjectsRunner(picomatch: Picomatch, label: string, dir: string, config: StaticValue, projects: StaticValue): Runner | string {
  if (!Array.isArray(projects) || projects.length === 0 || !projects.every(isStaticObject)) return `${label} defines projects`;
  const rootTest = isStaticObject(config) && isStaticObject(config.test) ? config.test : {};
  const { projects: _projects, workspace: _workspace, ...inherited } = rootTest;
  const runners: Runner[] = [];
  for (const [index, project] of (projects as StaticObject[]).entries()) {
    const own = isStaticObject(project.test) ? project.test : {};
    const test = project.extends === true ? { ...inherited, ...own } : own;
    const name = typeof own.name === "string" ? own.name : String(index + 1);
    const runner = vitestRunner(picomatch, `${label} project ${name}`, dir, { ...project, test });
    if (typeof runner === "string") return runner;
    runners.push(runner);
  }
  return unionRunner(`vitest projects (${label})`, runners);
}

/** The vitest runner of a config, or why it cannot be read. */
function vitestRunner(picomatch: Picomatch, label: string, dir: string, config: StaticValue): Runner | string {
  const projects = getPath(config, "test.projects") ?? getPath(config, "test.workspace");
  if (projects !== undefined) return vitestProjectsRunner(picomatch, label, dir, config, projects);
  if (getPath(config, OPAQUE_SPREAD_KEY) !== undefined || getPath(config, `test.${OPAQUE_SPREAD_KEY}`) !== undefined) return `${label} spreads a config it does not show`;
  const rootValue = getPath(config, "test.root") ?? getPath(config, "root");
  const root = stringList(rootValue) ?? [];
  const dirValue = getPath(config, "test.dir");
  const testDir = stringList(dirValue) ?? [];
  const include = vitestList(getPath(config, "test.include"), VITEST_DEFAULT_INCLUDE) ?? VITEST_DEFAULT_INCLUDE;
  const exclude = vitestList(getPath(config, "test.exclude"), VITEST_DEFAULT_EXCLUDE) ?? VITEST_DEFAULT_EXCLUDE;
  const includeSource = vitestList(getPath(config, "test.includeSource"), []) ?? [];
  if (root === "opaque" || testDir === "opaque" || include === "opaque" || exclude === "opaque" || includeSource === "opaque") return `${label} computes its files`;
  const rootDir = joinPath(dir, root[0] ?? ".");
  const base = rootDir === null ? null : joinPath(rootDir, testDir[0] ?? ".");
  if (base === null || [...include, ...exclude, ...includeSource].some((glob) => glob.startsWith("../") || glob.startsWith("/"))) return `${label} reaches outside its folder`;
  const isIncluded = picomatch([...include, ...includeSource].map(stripDotSlash), { dot: true });
  const isExcluded = exclude.length > 0 ? picomatch(exclude.map(stripDotSlash), { dot: true }) : () => false;
  return {
    label: `vitest (${label})`,
    collects(path) {
      const relative = relativeTo(base, path);
      return relative !== null && isIncluded(relative) && !isExcluded(relative);
    },
    excludes(path) {
      const relative = relativeTo(base, path);
      return relative !== null && isExcluded(relative);
    },
  };
}

/** The jest runner of a config object, or why it cannot be read. */
function jestRunner(picomatch: Picomatch, label: string, dir: string, config: StaticValue): Runner | string {
  const projects = getPath(config, "projects");
  if (projects !== undefined) {
    // Inline project configs run together: a file is collected when any project collects it. Paths to project folders are not read.
    if (!Array.isArray(projects) || projects.length === 0 || !projects.every(isStaticObject)) return `${label} defines projects`;
    const runners: Runner[] = [];
    for (const [index, project] of (projects as StaticObject[]).entries()) {
      const name = typeof project.displayName === "string" ? project.displayName : String(index + 1);
      const runner = jestRunner(picomatch, `${label} project ${name}`, dir, project);
      if (typeof runner === "string") return runner;
      runners.push(runner);
    }
    return unionRunner(`jest projects (${label})`, runners);
  }
  if (getPath(config, OPAQUE_SPREAD_KEY) !== undefined) return `${label} spreads a config it does not show`;
  const preset = getPath(config, "preset");
  if (preset !== undefined && !(typeof preset === "string" && FILE_NEUTRAL_JEST_PRESET.test(preset))) return `${label} takes settings from preset ${JSON.stringify(preset)}`;
  const rootDirValue = getPath(config, "rootDir");
  let rootDir: string | null = dir;
  if (rootDirValue !== undefined) {
    if (rootDirValue === "«__dirname»") rootDir = dir;
    else {
      const value = stringList(rootDirValue);
      if (value === "opaque" || value === undefined || value.length !== 1) return `${label} computes its rootDir`;
      rootDir = joinPath(dir, value[0] as string);
    }
  }
  if (rootDir === null) return `${label} reaches outside its folder`;
  const absoluteRoot = rootDir === "" ? ABSOLUTE_ROOT : `${ABSOLUTE_ROOT}/${rootDir}`;
  const withRoot = (pattern: string): string => pattern.replace(/<rootDir>/g, absoluteRoot);
  const lists = {
    roots: stringList(getPath(config, "roots")) ?? ["<rootDir>"],
    testRegex: stringList(getPath(config, "testRegex")),
    testMatch: stringList(getPath(config, "testMatch")) ?? JEST_DEFAULT_TEST_MATCH,
    ignore: stringList(getPath(config, "testPathIgnorePatterns")) ?? JEST_DEFAULT_IGNORE,
    moduleIgnore: stringList(getPath(config, "modulePathIgnorePatterns")) ?? [],
    extensions: stringList(getPath(config, "moduleFileExtensions")),
  };
  if (Object.values(lists).some((list) => list === "opaque")) return `${label} computes its files`;
  const { roots, testRegex, testMatch, ignore, moduleIgnore, extensions } = lists as { [K in keyof typeof lists]: Exclude<(typeof lists)[K], "opaque"> };
  const absoluteRoots = roots.map((root) => {
    const replaced = withRoot(root).replace(/\/+$/, "");
    return replaced.startsWith("/") ? replaced : `${absoluteRoot}/${stripDotSlash(replaced)}`.replace(/\/+$/, "");
  });
  let regexes: RegExp[];
  let ignoreRegex: RegExp | null;
  try {
    regexes = (testRegex ?? []).map((source) => new RegExp(source));
    const ignores = [...ignore, ...moduleIgnore].map(withRoot);
    ignoreRegex = ignores.length > 0 ? new RegExp(ignores.join("|")) : null;
  } catch {
    return `${label} has a pattern jest cannot compile`;
  }
  const matchesGlobs = testRegex === undefined && testMatch.length > 0 ? globListMatcher(picomatch, testMatch.map(withRoot), true) : () => true;
  const setting = testRegex !== undefined ? "testRegex" : "testMatch";
  return {
    label: `jest ${setting} (${label})`,
    collects(path) {
      const absolute = `${ABSOLUTE_ROOT}/${path}`;
      if (!absoluteRoots.some((root) => absolute.startsWith(`${root}/`))) return false;
      if (extensions && !extensions.includes(path.slice(path.lastIndexOf(".") + 1))) return false;
      if (regexes.length > 0 && !regexes.some((regex) => regex.test(absolute))) return false;
      if (!matchesGlobs(absolute)) return false;
      return ignoreRegex === null || !ignoreRegex.test(absolute);
    },
    excludes(path) {
      return ignoreRegex !== null && ignoreRegex.test(`${ABSOLUTE_ROOT}/${path}`);
    },
  };
}

/** The mocha runner of a config (when it sets `spec`), or why it cannot be read. */
function mochaRunner(picomatch: Picomatch, label: string, dir: string, config: StaticValue, tree: TreeReader): Runner | string {
  if (getPath(config, OPAQUE_SPREAD_KEY) !== undefined) return `${label} spreads a config it does not show`;
  const spec = stringList(getPath(config, "spec"));
  if (spec === undefined) return `${label} leaves its spec files to the command line`;
  const ignore = stringList(getPath(config, "ignore") ?? getPath(config, "exclude")) ?? [];
  const extensionList = stringList(getPath(config, "extension")) ?? MOCHA_DEFAULT_EXTENSIONS;
  if (spec === "opaque" || ignore === "opaque" || extensionList === "opaque") return `${label} computes its files`;
  const extensions = extensionList.map((extension) => extension.replace(/^\./, ""));
  const isRecursive = getPath(config, "recursive") === true;
  const tests = spec.map((entry): ((relative: string) => boolean) => {
    const pattern = stripDotSlash(entry).replace(/\/+$/, "");
    if (picomatch.scan(pattern).isGlob) return picomatch(pattern);
    const target = joinPath(dir, pattern);
    if (target !== null && tree.read(target) !== null) return (relative) => relative === pattern;
    // A folder: its files with a spec extension, nested ones only with `recursive`.
    return (relative) => {
      const inside = pattern === "" ? relative : relative.startsWith(`${pattern}/`) ? relative.slice(pattern.length + 1) : null;
      return inside !== null && (isRecursive || !inside.includes("/")) && extensions.some((extension) => inside.endsWith(`.${extension}`));
    };
  });
  const isIgnored = ignore.length > 0 ? picomatch(ignore.map(stripDotSlash)) : () => false;
  return {
    label: `mocha spec (${label})`,
    collects(path) {
      const relative = relativeTo(dir, path);
      return relative !== null && tests.some((test) => test(relative)) && !isIgnored(relative);
    },
    excludes(path) {
      const relative = relativeTo(dir, path);
      return relative !== null && isIgnored(relative);
    },
  };
}

/** pytest's runner for one config file's settings (pytest docs: testpaths, norecursedirs, python_files). */
function pytestRunner(picomatch: Picomatch, label: string, dir: string, settings: PytestCollectionSettings): Runner {
  const files = (settings.pythonFiles ?? PYTEST_DEFAULT_FILES).map((pattern) => ({ pattern, regex: fnmatchToRegExp(pattern) }));
  const norecurse = (settings.norecursedirs ?? PYTEST_DEFAULT_NORECURSE).map(fnmatchToRegExp);
  const testpaths = settings.testpaths?.map((entry) => stripDotSlash(entry).replace(/\/+$/, ""));
  /** fnmatch_ex: a pattern without '/' is matched against the name, one with '/' against the path's end. */
  const isTestModule = (relative: string): boolean => {
    const name = relative.slice(relative.lastIndexOf("/") + 1);
    return files.some(({ pattern, regex }) => (pattern.includes("/") ? fnmatchToRegExp(`*/${pattern}`).test(`/${relative}`) : regex.test(name)));
  };
  const rules: CollectionRules = {};
  if (settings.pythonClasses) rules.classPatterns = settings.pythonClasses;
  if (settings.pythonFunctions) rules.functionPatterns = settings.pythonFunctions;
  return {
    label: `pytest (${label})`,
    collects(path) {
      const relative = relativeTo(dir, path);
      if (relative === null) return false;
      let start = "";
      if (testpaths) {
        const entry = testpaths.find(
          (testpath) =>
            testpath === "" ||
            testpath === relative ||
            relative.startsWith(`${testpath}/`) ||
            (picomatch.scan(testpath).isGlob && ancestorsOf(relative).some((ancestor) => picomatch(testpath)(ancestor))),
        );
        if (entry === undefined) return false;
        // A module named as an argument is collected whatever its name.
        if (entry === relative) return true;
        start = picomatch.scan(entry).isGlob ? (ancestorsOf(relative).find((ancestor) => picomatch(entry)(ancestor)) ?? "") : entry;
      }
      const below = start === "" ? relative : relative.slice(start.length + 1);
      const folders = below.split("/").slice(0, -1);
      if (folders.some((folder) => norecurse.some((regex) => regex.test(folder)))) return false;
      return isTestModule(relative);
    },
    excludes(path) {
      const relative = relativeTo(dir, path);
      return (
        relative !== null &&
        relative
          .split("/")
          .slice(0, -1)
          .some((folder) => norecurse.some((regex) => regex.test(folder)))
      );
    },
    rules(path, isCollected) {
      const own: CollectionRules = { ...rules };
      const relative = relativeTo(dir, path) ?? path;
      if (isCollected && (settings.pythonFiles || testpaths?.includes(relative))) own.testModule = true;
      return Object.keys(own).length > 0 ? own : undefined;
    },
  };
}

/** `a/b/c.py` -> `a`, `a/b`, `a/b/c.py`. */
function ancestorsOf(relative: string): string[] {
  const parts = relative.split("/");
  return parts.map((_, index) => parts.slice(0, index + 1).join("/"));
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** The folder above `dir`, or null for the root. */
function parentOf(dir: string): string | null {
  return dir === "" ? null : folderOf(dir);
}

/**
 * Which files the runners of one tree collect (see the module comment).
 * Configs are read lazily, once per folder; every answer for the same
 * folder comes from the same read.
 */
export class TestDiscovery {
  private readonly scopes = new Map<string, Promise<Scope | null>>();
  private readonly nearest = new Map<string, Promise<Scope | null>>();

  constructor(private readonly tree: TreeReader) {}

  /** What the runner does with the file at `path` (the file need not exist in this tree). */
  async collection(path: string): Promise<Collection> {
    const language = languageForPath(path)?.id;
    if (language !== "javascript" && language !== "python") return { collected: null };
    const scope = await this.nearestScope(folderOf(path), language);
    if (!scope?.runners) return { collected: null };
    const runner = scope.runners.find((candidate) => candidate.collects(path));
    if (!runner) {
      const by = scope.runners.map((candidate) => candidate.label).join(" and ");
      const rules = scope.runners.map((candidate) => candidate.rules?.(path, false)).find((found) => found !== undefined);
      const excluded = scope.runners.some((candidate) => candidate.excludes(path));
      return rules ? { collected: false, by, excluded, rules } : { collected: false, by, excluded };
    }
    const rules = runner.rules?.(path, true);
    return rules ? { collected: true, by: runner.label, rules } : { collected: true, by: runner.label };
  }

  /**
   * What the configs in `dir` say about files, as a string: equal for two
   * trees when their configs there collect the same files; "" when the
   * folder configures no runner of the family.
   */
  async fingerprint(dir: string, family: Family): Promise<string> {
    return (await this.scopeAt(dir, family))?.fingerprint ?? "";
  }

  private nearestScope(dir: string, family: Family): Promise<Scope | null> {
    const key = `${family}\u0000${dir}`;
    let found = this.nearest.get(key);
    if (!found) {
      found = this.scopeAt(dir, family).then((scope) => {
        const parent = parentOf(dir);
        return scope ?? (parent === null ? null : this.nearestScope(parent, family));
      });
      this.nearest.set(key, found);
    }
    return found;
  }

  private scopeAt(dir: string, family: Family): Promise<Scope | null> {
    const key = `${family}\u0000${dir}`;
    let scope = this.scopes.get(key);
    if (!scope) {
      scope = loadPicomatch().then((picomatch) => (family === "javascript" ? this.readJavaScriptScope(picomatch, dir) : this.readPythonScope(picomatch, dir)));
      this.scopes.set(key, scope);
    }
    return scope;
  }

  private pathIn(dir: string, name: string): string {
    return dir === "" ? name : `${dir}/${name}`;
  }

  /** The JS runner configs of one folder; null when it has none. */
  private async readJavaScriptScope(picomatch: Picomatch, dir: string): Promise<Scope | null> {
    const names = this.tree.fileNames(dir);
    const runners: (Runner | string)[] = [];
    const facts: unknown[] = [];
    const read = async (name: string): Promise<StaticValue | string> => {
      const text = this.tree.read(this.pathIn(dir, name));
      if (text === null) return `${name} cannot be read`;
      try {
        return (await readConfig(name === ".mocharc" ? ".mocharc.json" : name, text)).value;
      } catch (error) {
        return `${name} cannot be read: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`;
      }
    };
    const workspace = names.find((name) => VITEST_WORKSPACE.test(name));
    if (workspace) runners.push(`${workspace} defines projects`);
    const vitestName = names.filter((name) => VITEST_CONFIG.test(name)).sort()[0];
    const viteNames = vitestName ? [] : names.filter((name) => VITE_CONFIG.test(name)).sort();
    for (const name of vitestName ? [vitestName] : viteNames.slice(0, 1)) {
      const config = await read(name);
      // A vite config without a `test` block configures the app, not vitest.
      if (typeof config !== "string" && name !== vitestName && getPath(config, "test") === undefined) continue;
      if (typeof config === "string" && name !== vitestName) continue;
      facts.push([
        "vitest",
        name,
        typeof config === "string" ? config : pick(config, ["root", "test.root", "test.dir", "test.include", "test.exclude", "test.includeSource", "test.projects", "test.workspace"]),
      ]);
      runners.push(typeof config === "string" ? config : vitestRunner(picomatch, name, dir, config));
    }
    const packageJson = names.includes("package.json") ? await read("package.json") : null;
    const packageKey = (key: string): StaticValue | undefined => (packageJson !== null && typeof packageJson !== "string" ? getPath(packageJson, key) : undefined);
    const jestName = names.filter((name) => JEST_CONFIG.test(name)).sort()[0];
    const jestConfig = jestName ? await read(jestName) : packageKey("jest");
    if (jestConfig !== undefined) {
      const label = jestName ?? `package.json "jest"`;
      facts.push([
        "jest",
        label,
        typeof jestConfig === "string" && jestName
          ? jestConfig
          : pick(jestConfig, ["rootDir", "roots", "testMatch", "testRegex", "testPathIgnorePatterns", "modulePathIgnorePatterns", "moduleFileExtensions", "projects"]),
      ]);
      runners.push(typeof jestConfig === "string" && jestName ? jestConfig : jestRunner(picomatch, label, dir, jestConfig));
    }
    const mochaName = names.filter((name) => MOCHARC.test(name)).sort()[0];
    const mochaConfig = mochaName ? await read(mochaName) : packageKey("mocha");
    if (mochaConfig !== undefined) {
      const label = mochaName ?? `package.json "mocha"`;
      facts.push(["mocha", label, typeof mochaConfig === "string" && mochaName ? mochaConfig : pick(mochaConfig, ["spec", "ignore", "exclude", "extension", "recursive"])]);
      runners.push(typeof mochaConfig === "string" && mochaName ? mochaConfig : mochaRunner(picomatch, label, dir, mochaConfig, this.tree));
    }
    if (runners.length === 0) return null;
    const known = runners.filter((runner): runner is Runner => typeof runner !== "string");
    return { dir, runners: known.length === runners.length ? known : null, fingerprint: JSON.stringify(facts) };
  }

  /** The pytest config of one folder (the first of pytest.ini, .pytest.ini, pyproject.toml, tox.ini, setup.cfg that configures pytest); null when none does. */
  private readPythonScope(picomatch: Picomatch, dir: string): Scope | null {
    const names = this.tree.fileNames(dir);
    for (const name of PYTEST_CONFIGS) {
      if (!names.includes(name)) continue;
      const text = this.tree.read(this.pathIn(dir, name));
      if (text === null) continue;
      let settings: PytestCollectionSettings | null;
      try {
        settings = readPytestCollection(name === ".pytest.ini" ? "pytest.ini" : name, text);
      } catch {
        return { dir, runners: null, fingerprint: JSON.stringify(["pytest", name, "unreadable"]) };
      }
      if (settings === null) continue;
      const fingerprint = JSON.stringify(["pytest", name, settings]);
      // A config that sets nothing about collection keeps pytest's defaults, which the conventions follow.
      return { dir, runners: Object.keys(settings).length === 0 ? null : [pytestRunner(picomatch, name, dir, settings)], fingerprint };
    }
    return null;
  }
}

/** The given dotted paths of a config value, for fingerprints. */
function pick(config: StaticValue | string | undefined, paths: readonly string[]): unknown {
  if (config === undefined || typeof config === "string") return config ?? null;
  return paths.map((path) => [path, getPath(config, path) ?? null]);
}

/** A test file the runner collected before a change and no longer does after it, with what decides on each side. */
export interface DiscoveryLoss {
  path: string;
  /** The config that leaves it out after the change: `jest testMatch (jest.config.js)`. */
  by: string;
}

/**
 * Files that leave discovery between two trees: for every changed path that
 * is a discovery config (a runner config, package.json, a pytest settings
 * file) whose folder's settings differ, the files below that folder that
 * the runner collected before (or the conventions counted: unknown) and
 * does not collect after. Files in `changedPaths` are left out: the caller
 * judges those with their own before and after sides. Only JS/TS and
 * Python files are considered.
 */
export async function filesLeavingDiscovery(
  before: { discovery: TestDiscovery; tree: TreeReader },
  after: { discovery: TestDiscovery; tree: TreeReader },
  changedPaths: readonly string[],
): Promise<DiscoveryLoss[]> {
  const folders = new Set<string>();
  for (const path of changedPaths) {
    if (!isDiscoveryConfigName(path.slice(path.lastIndexOf("/") + 1))) continue;
    const dir = folderOf(path);
    const family: Family = /\.(?:toml|ini|cfg)$/.test(path) ? "python" : "javascript";
    if ((await before.discovery.fingerprint(dir, family)) !== (await after.discovery.fingerprint(dir, family))) folders.add(dir);
  }
  // The outermost folders only: a nested one is walked with its parent.
  const roots = [...folders].filter((dir) => ![...folders].some((other) => other !== dir && (other === "" || dir.startsWith(`${other}/`))));
  const changed = new Set(changedPaths);
  const losses: DiscoveryLoss[] = [];
  for (const dir of roots.sort()) {
    for (const path of after.tree.walk(dir)) {
      if (changed.has(path)) continue;
      const language = languageForPath(path)?.id;
      if (language !== "javascript" && language !== "python") continue;
      const now = await after.discovery.collection(path);
      if (now.collected !== false) continue;
      const was = await before.discovery.collection(path);
      if (was.collected === false) continue;
      losses.push({ path, by: now.by ?? "the runner config" });
    }
  }
  return losses;
}
