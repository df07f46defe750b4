/**
 * What a test command runs in a tree (issue 9: a CI test command's scope
 * narrowed while tests are left outside it). A runner invocation and the
 * folder it starts in are resolved against the after tree into the units
 * the runner would test there:
 *
 * - `dotnet test`: test projects. A solution (`.sln` `Project(...)` lines,
 *   `.slnx` `<Project Path>`, a `.slnf` filter's `solution.projects`), a
 *   project file, or a folder holding exactly one of them (none named: the
 *   start folder), as the dotnet CLI picks it (learn.microsoft.com, "dotnet
 *   test": PROJECT | SOLUTION | DIRECTORY). A project counts when it is a
 *   test project (a test SDK or framework package, `IsTestProject`, or C#
 *   test files below it).
 * - `go test`: packages with `_test.go` files, by pattern (`./...`, `./a/...`,
 *   `./a`, `.`, import paths under the module's path; `go help packages`:
 *   `testdata`, `vendor`, `.`/`_` folders and nested modules are left out).
 * - `cargo test`: workspace members with tests (`tests/*.rs`, or `#[test]` /
 *   `#[cfg(test)]` in their sources), by `-p`, `--workspace`, `--exclude`, or
 *   the package (virtual manifest: `default-members`, else every member) of
 *   the start folder (doc.rust-lang.org/cargo, "Package Selection").
 * - `pytest`: the files pytest collects (`python_files`, default
 *   `test_*.py` / `*_test.py`) below the paths named, else `testpaths`, else
 *   the start folder; `--ignore` paths left out; `norecursedirs` defaults.
 * - JS runners and npm scripts: JS/TS test files (the naming conventions)
 *   below the start folder that a positional word selects: a path or glob
 *   covering the file, or (vitest, jest and scripts, which filter by path)
 *   a word the path contains.
 * - `mvn`: modules with `src/test` files, from `<modules>` (nested), by
 *   `-pl` (paths, `:artifactId`, `!`/`-` exclusions) or `-N`.
 *
 * Anything it cannot read for certain (a variable, `-am`, an unknown
 * package, a missing solution) resolves to null, and the callers keep the
 * textual comparison. Reads only through the {@link TreeReader}; never throws.
 */

import type { TreeReader } from "../discovery.js";
import { languageForPath } from "../languages/index.js";
import { fnmatchToRegExp } from "../languages/collection.js";
import { parseToml, type TomlValue } from "./ini.js";
import { readPytestCollection } from "./python.js";

/** The parts of a runner invocation scope resolution reads (config/command.ts RunnerInvocation). */
export interface ScopedInvocation {
  runner: string;
  family: string;
  positional: readonly string[];
  options: ReadonlyMap<string, readonly (string | true)[]>;
}

/** What one invocation tests in a tree: the kind of unit, and the units (repo-relative paths). */
export interface TestScope {
  /** `test project`, `test package`, `crate`, `test file`, `module`. */
  unit: string;
  units: ReadonlySet<string>;
}

/** `a` and `b` joined and normalised ('/'-separated, `.` and `..` resolved); null when it climbs above the root or is absolute. */
export function joinRelative(a: string, b: string): string | null {
  if (b.startsWith("/") || /^[A-Za-z]:[\\/]/.test(b)) return null;
  const parts: string[] = [];
  for (const part of `${a}/${b.replace(/\\/g, "/")}`.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join("/");
}

const dirOf = (path: string): string => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");
const nameOf = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
const isBelow = (dir: string, path: string): boolean => dir === "" || path === dir || path.startsWith(`${dir}/`);
/** A word ralph cannot read statically: a variable, an expression, a command substitution. */
const isOpaque = (word: string): boolean => /[$`]/.test(word);

/** tree.walk, once per tree and folder. */
const walks = new WeakMap<TreeReader, Map<string, readonly string[]>>();
function walk(tree: TreeReader, dir: string): readonly string[] {
  let cache = walks.get(tree);
  if (!cache) {
    cache = new Map();
    walks.set(tree, cache);
  }
  let found = cache.get(dir);
  if (!found) {
    found = tree.walk(dir);
    cache.set(dir, found);
  }
  return found;
}

/** Folders nobody's test runner descends into. */
const VENDORED = /(^|\/)(node_modules|\.git|vendor|bower_components)(\/|$)/;

/**
 * The units `invocation`, started in folder `cwd` ("" is the root), tests in
 * `tree`; null when ralph cannot tell for certain.
 */
export function resolveScope(invocation: ScopedInvocation, cwd: string, tree: TreeReader): TestScope | null {
  try {
    if (invocation.positional.some(isOpaque)) return null;
    switch (invocation.family) {
      case "dotnet":
        return dotnetScope(invocation, cwd, tree);
      case "go":
        return goScope(invocation, cwd, tree);
      case "cargo":
        return cargoScope(invocation, cwd, tree);
      case "pytest":
        return pytestScope(invocation, cwd, tree);
      case "maven":
        return mavenScope(invocation, cwd, tree);
      case "js":
      case "mocha":
      case "node":
      case "script":
        return invocation.runner === "make" || invocation.runner.startsWith("just ") || invocation.runner.startsWith("composer ") ? null : jsScope(invocation, cwd, tree);
      default:
        return null;
    }
  } catch {
    return null;
  }
}

// ---- dotnet -------------------------------------------------------------------------------------------------------

const PROJECT_FILE = /\.(cs|fs|vb)proj$/i;
const SOLUTION_FILE = /\.sln[xf]?$/i;
/** A project file that references a test SDK or framework, or says it is a test project. */
const TEST_PROJECT_CONTENT = /Microsoft\.NET\.Test\.Sdk|MSTest\.Sdk|<IsTestProject>\s*true|"(xunit|xunit\.v3|NUnit|MSTest\.TestFramework|TUnit|Microsoft\.Testing\.Platform)"/i;
const CSHARP_TEST_ATTRIBUTE = /\[(Fact|Theory|Test|TestCase|TestMethod|DataTestMethod)\b/;

/** The projects a solution file lists, as repo-relative paths; null when it cannot be read. */
export function solutionProjects(path: string, text: string): string[] | null {
  const base = dirOf(path);
  const resolve = (project: string): string | null => joinRelative(base, project);
  if (/\.slnf$/i.test(path)) {
    const parsed = JSON.parse(text) as { solution?: { path?: unknown; projects?: unknown } };
    const projects = parsed.solution?.projects;
    const solution = parsed.solution?.path;
    if (!Array.isArray(projects) || typeof solution !== "string") return null;
    const root = dirOf(joinRelative(base, solution) ?? "");
    return projects.filter((entry): entry is string => typeof entry === "string").flatMap((entry) => joinRelative(root, entry) ?? []);
  }
  const found = /\.slnx$/i.test(path)
    ? [...text.matchAll(/<Project\s+[^>]*Path\s*=\s*"([^"]+)"/g)].map((match) => match[1] as string)
    : [...text.matchAll(/^\s*Project\("\{[^}]*\}"\)\s*=\s*"[^"]*"\s*,\s*"([^"]+)"/gm)].map((match) => match[1] as string);
  return found.filter((entry) => PROJECT_FILE.test(entry)).flatMap((entry) => resolve(entry) ?? []);
}

/** True when a project file is a test project: its content says so, or C# test files with test attributes sit below it. */
function isTestProject(path: string, tree: TreeReader): boolean {
  const text = tree.read(path);
  if (text === null) return false;
  if (TEST_PROJECT_CONTENT.test(text)) return true;
  const folder = dirOf(path);
  return walk(tree, folder)
    .filter((file) => /\.(cs|fs|vb)$/.test(file) && !VENDORED.test(file) && !/(^|\/)(bin|obj)\//.test(file))
    .slice(0, 200)
    .some((file) => CSHARP_TEST_ATTRIBUTE.test(tree.read(file) ?? ""));
}

function dotnetScope(invocation: ScopedInvocation, cwd: string, tree: TreeReader): TestScope | null {
  if (invocation.positional.length > 1) return null;
  const named = invocation.positional[0];
  if (named !== undefined && /\.(dll|exe)$/i.test(named)) return null;
  const target = named === undefined ? cwd : joinRelative(cwd, named);
  if (target === null) return null;
  let file: string;
  if (PROJECT_FILE.test(target) || SOLUTION_FILE.test(target)) file = target;
  else {
    const names = tree.fileNames(target);
    const candidates = names.filter((name) => PROJECT_FILE.test(name) || /\.slnx?$/i.test(name));
    if (candidates.length !== 1) return null; // none, or several: the dotnet CLI stops with an error
    file = target === "" ? (candidates[0] as string) : `${target}/${candidates[0] as string}`;
  }
  const text = tree.read(file);
  if (text === null) return null;
  const projects = SOLUTION_FILE.test(file) ? solutionProjects(file, text) : [file];
  if (projects === null) return null;
  return { unit: "test project", units: new Set(projects.filter((project) => isTestProject(project, tree))) };
}

// ---- go -----------------------------------------------------------------------------------------------------------

/** The folder of the go.mod at or above `dir`, and its module path; null when there is none. */
function goModule(dir: string, tree: TreeReader): { root: string; path: string | null } | null {
  for (let current: string | null = dir; current !== null; current = current === "" ? null : dirOf(current)) {
    const text = tree.read(current === "" ? "go.mod" : `${current}/go.mod`);
    if (text !== null) return { root: current, path: /^module\s+"?([^\s"]+)"?/m.exec(text)?.[1] ?? null };
  }
  return null;
}

function goScope(invocation: ScopedInvocation, cwd: string, tree: TreeReader): TestScope | null {
  const module = goModule(cwd, tree);
  if (!module) return null;
  const files = walk(tree, module.root);
  const nested = new Set(files.filter((file) => nameOf(file) === "go.mod" && dirOf(file) !== module.root).map(dirOf));
  const skipped = (dir: string): boolean => {
    const inside = module.root === "" ? dir : dir.slice(module.root.length + 1);
    if (inside.split("/").some((part) => part === "testdata" || part === "vendor" || part.startsWith(".") || part.startsWith("_"))) return true;
    return [...nested].some((root) => isBelow(root, dir));
  };
  const packages = new Set(
    files
      .filter((file) => file.endsWith("_test.go"))
      .map(dirOf)
      .filter((dir) => !skipped(dir)),
  );
  const patterns = invocation.positional.length === 0 ? ["."] : invocation.positional;
  const selected = new Set<string>();
  for (const pattern of patterns) {
    const recursive = pattern === "..." || pattern.endsWith("/...");
    const stem = recursive ? pattern.replace(/\/?\.\.\.$/, "") : pattern;
    let base: string | null;
    if (stem === "" || stem === "." || stem === ".." || stem.startsWith("./") || stem.startsWith("../")) base = joinRelative(cwd, stem || ".");
    else if (module.path !== null && (stem === module.path || stem.startsWith(`${module.path}/`))) base = joinRelative(module.root, stem.slice(module.path.length).replace(/^\//, "") || ".");
    else return null; // the standard library or another module
    if (base === null || base.includes("...")) return null;
    for (const dir of packages) if (recursive ? isBelow(base, dir) : dir === base) selected.add(dir);
  }
  return { unit: "test package", units: selected };
}

// ---- cargo --------------------------------------------------------------------------------------------------------

type TomlTable = { [key: string]: TomlValue };
const table = (value: TomlValue | undefined): TomlTable | null => (value !== undefined && typeof value === "object" && !Array.isArray(value) ? value : null);
const strings = (value: TomlValue | undefined): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

function readCargo(path: string, tree: TreeReader): TomlTable | null {
  const text = tree.read(path);
  return text === null ? null : parseToml(text).root;
}

/** A glob of workspace `members` expanded over the tree's folders holding a Cargo.toml. */
function expandMembers(root: string, patterns: readonly string[], tree: TreeReader): string[] {
  const manifests = walk(tree, root)
    .filter((file) => nameOf(file) === "Cargo.toml" && !VENDORED.test(file))
    .map(dirOf);
  return patterns.flatMap((pattern) => {
    const full = joinRelative(root, pattern);
    if (full === null) return [];
    if (!/[*?[]/.test(full)) return [full];
    const regex = fnmatchToRegExp(full);
    return manifests.filter((dir) => regex.test(dir) && !dir.slice(full.indexOf("*")).includes("/"));
  });
}

/** True when a crate's folder has integration tests or unit tests in its sources. */
function crateHasTests(dir: string, tree: TreeReader): boolean {
  const files = walk(tree, dir).filter((file) => file.endsWith(".rs") && !/(^|\/)target\//.test(file));
  if (files.some((file) => isBelow(dir === "" ? "tests" : `${dir}/tests`, file))) return true;
  return files.slice(0, 400).some((file) => /#\[(cfg\(test\)|test\]|[\w:]+::test\b)/.test(tree.read(file) ?? ""));
}

function cargoScope(invocation: ScopedInvocation, cwd: string, tree: TreeReader): TestScope | null {
  const manifestPath = invocation.options.get("--manifest-path")?.[0];
  let start = cwd;
  if (typeof manifestPath === "string") {
    const resolved = joinRelative(cwd, manifestPath);
    if (resolved === null) return null;
    start = dirOf(resolved);
  }
  // The nearest manifest, and the workspace above it (or itself).
  let nearest: string | null = null;
  for (let dir: string | null = start; dir !== null; dir = dir === "" ? null : dirOf(dir)) {
    if (tree.read(dir === "" ? "Cargo.toml" : `${dir}/Cargo.toml`) !== null) {
      nearest = dir;
      break;
    }
  }
  if (nearest === null) return null;
  let root: string | null = null;
  for (let dir: string | null = nearest; dir !== null; dir = dir === "" ? null : dirOf(dir)) {
    const manifest = readCargo(dir === "" ? "Cargo.toml" : `${dir}/Cargo.toml`, tree);
    if (manifest && table(manifest.workspace)) {
      root = dir;
      break;
    }
  }
  const manifestOf = (dir: string): TomlTable | null => readCargo(dir === "" ? "Cargo.toml" : `${dir}/Cargo.toml`, tree);
  const packageName = (dir: string): string | null => {
    const name = table(manifestOf(dir)?.package)?.name;
    return typeof name === "string" ? name : null;
  };
  let members: string[];
  let defaults: string[];
  if (root === null) {
    members = [nearest];
    defaults = [nearest];
  } else {
    const workspace = table(manifestOf(root)?.workspace) as TomlTable;
    const excluded = new Set(expandMembers(root, strings(workspace.exclude), tree));
    members = [...new Set([...(packageName(root) !== null ? [root] : []), ...expandMembers(root, strings(workspace.members), tree)])].filter((dir) => !excluded.has(dir));
    const defaultMembers = workspace["default-members"] !== undefined ? expandMembers(root, strings(workspace["default-members"]), tree) : null;
    defaults = nearest !== root ? [nearest] : (defaultMembers ?? (packageName(root) !== null ? [root] : members));
  }
  const byName = new Map<string, string>();
  for (const dir of members) {
    const name = packageName(dir);
    if (name !== null) byName.set(name, dir);
  }
  const pick = (spec: string): string[] | null => {
    const name = spec.replace(/@.*$/, "");
    if (/[*?[]/.test(name)) {
      const regex = fnmatchToRegExp(name);
      return [...byName].filter(([candidate]) => regex.test(candidate)).map(([, dir]) => dir);
    }
    const dir = byName.get(name);
    return dir === undefined ? null : [dir];
  };
  const specs = (name: string): string[] => (invocation.options.get(name) ?? []).flatMap((value) => (value === true ? [] : value.split(",")));
  let chosen: string[];
  const packages = specs("-p");
  if (invocation.options.has("--workspace")) chosen = members;
  else if (packages.length > 0) {
    chosen = [];
    for (const spec of packages) {
      const found = pick(spec);
      if (found === null) return null;
      chosen.push(...found);
    }
  } else chosen = defaults;
  for (const spec of specs("--exclude")) {
    const found = pick(spec) ?? [];
    chosen = chosen.filter((dir) => !found.includes(dir));
  }
  return { unit: "crate", units: new Set(chosen.filter((dir) => crateHasTests(dir, tree))) };
}

// ---- pytest -------------------------------------------------------------------------------------------------------

const PYTEST_CONFIGS = [
  ["pytest.ini", "pytest.ini"],
  ["pyproject.toml", "pyproject.toml"],
  ["tox.ini", "tox.ini"],
  ["setup.cfg", "setup.cfg"],
] as const;
const NORECURSE_DEFAULTS = ["*.egg", ".*", "_darcs", "build", "CVS", "dist", "node_modules", "venv", "{arch}"];

function pytestScope(invocation: ScopedInvocation, cwd: string, tree: TreeReader): TestScope | null {
  if (invocation.options.has("--pyargs") || invocation.options.has("--doctest-modules") || invocation.options.has("--doctest-glob")) return null;
  if (invocation.options.has("-c") || invocation.options.has("--rootdir") || invocation.options.has("--confcutdir")) return null;
  // The first config file of the start folder that configures pytest (pytest's own search order).
  let settings: ReturnType<typeof readPytestCollection> = null;
  for (const [name, kind] of PYTEST_CONFIGS) {
    const text = tree.read(cwd === "" ? name : `${cwd}/${name}`);
    if (text === null) continue;
    settings = readPytestCollection(kind, text);
    if (settings) break;
  }
  const filePatterns = (settings?.pythonFiles ?? ["test_*.py", "*_test.py"]).map(fnmatchToRegExp);
  const norecurse = (settings?.norecursedirs ?? NORECURSE_DEFAULTS).map(fnmatchToRegExp);
  const named = invocation.positional.map((word) => word.replace(/::.*$/, ""));
  const roots = named.length > 0 ? named : (settings?.testpaths ?? ["."]);
  if (roots.some((root) => /[*?[]/.test(root))) return null;
  const ignored = (invocation.options.get("--ignore") ?? []).flatMap((value) => (value === true ? [] : (joinRelative(cwd, value) ?? [])));
  const ignoredGlobs = (invocation.options.get("--ignore-glob") ?? []).flatMap((value) => (value === true ? [] : [fnmatchToRegExp(value)]));
  const units = new Set<string>();
  for (const root of roots) {
    const base = joinRelative(cwd, root);
    if (base === null) return null;
    if (base.endsWith(".py")) {
      if (tree.read(base) !== null) units.add(base); // a file named on the command line is collected whatever its name
      continue;
    }
    for (const file of walk(tree, base)) {
      if (!file.endsWith(".py") || ignored.some((path) => isBelow(path, file)) || ignoredGlobs.some((glob) => glob.test(file))) continue;
      const folders = file
        .slice(base === "" ? 0 : base.length + 1)
        .split("/")
        .slice(0, -1);
      if (folders.some((folder) => norecurse.some((pattern) => pattern.test(folder)))) continue;
      if (filePatterns.some((pattern) => pattern.test(nameOf(file)))) units.add(file);
    }
  }
  return { unit: "test file", units };
}

// ---- JavaScript runners and scripts -------------------------------------------------------------------------------

function jsScope(invocation: ScopedInvocation, cwd: string, tree: TreeReader): TestScope | null {
  const files = walk(tree, cwd).filter((file) => !VENDORED.test(file) && languageForPath(file)?.id === "javascript" && languageForPath(file)?.isTestPath(file) === true);
  const words = invocation.positional;
  // vitest and jest filter by the path (a substring, or a regex for jest); a script passes its words to some runner that may.
  const filtersByPath = invocation.runner === "vitest" || invocation.runner === "jest" || invocation.family === "script";
  const selects = (file: string): boolean => {
    const relative = cwd === "" ? file : file.slice(cwd.length + 1);
    return words.some((word) => {
      const path = word.replace(/^\.\//, "").replace(/\/+$/, "");
      if (path === "" || path === ".") return true;
      if (/[*?{[]/.test(path)) return globMatches(path, relative);
      if (isBelow(path, relative)) return true;
      return filtersByPath && relative.includes(path);
    });
  };
  return { unit: "test file", units: new Set(words.length === 0 ? files : files.filter(selects)) };
}

/** A glob (`**`, `*`, `?`, `{a,b}`) matching a path or a folder above it. */
function globMatches(glob: string, path: string): boolean {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*" && glob[i + 1] === "*") {
      source += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "{") source += "(?:";
    else if (char === "}") source += ")";
    else if (char === ",") source += "|";
    else source += char.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  try {
    const regex = new RegExp(`^${source}(?:/.*)?$`);
    return regex.test(path);
  } catch {
    return false;
  }
}

// ---- maven --------------------------------------------------------------------------------------------------------

/** A pom's `<modules>` entries (profiles included) and its own artifactId (the parent's left out). */
function readPom(text: string): { modules: string[]; artifactId: string | null } {
  const modules = [...text.matchAll(/<module>\s*([^<\s]+)\s*<\/module>/g)].map((match) => match[1] as string);
  const own = text.replace(/<parent>[\s\S]*?<\/parent>/, "").replace(/<(dependencies|dependencyManagement|build|plugins|profiles)>[\s\S]*?<\/\1>/g, "");
  return { modules, artifactId: /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(own)?.[1] ?? null };
}

function mavenScope(invocation: ScopedInvocation, cwd: string, tree: TreeReader): TestScope | null {
  if (invocation.options.has("-am") || invocation.options.has("-amd") || invocation.options.has("-rf")) return null;
  const file = invocation.options.get("-f")?.[0];
  let rootPom = cwd === "" ? "pom.xml" : `${cwd}/pom.xml`;
  if (typeof file === "string") {
    const resolved = joinRelative(cwd, file);
    if (resolved === null) return null;
    rootPom = resolved.endsWith(".xml") ? resolved : resolved === "" ? "pom.xml" : `${resolved}/pom.xml`;
  }
  const rootText = tree.read(rootPom);
  if (rootText === null) return null;
  const root = dirOf(rootPom);
  const modules = new Map<string, string | null>(); // folder -> artifactId
  const visit = (dir: string, text: string, depth: number): void => {
    const pom = readPom(text);
    modules.set(dir, pom.artifactId);
    if (depth > 6 || invocation.options.has("-N")) return;
    for (const module of pom.modules) {
      const child = joinRelative(dir, module.replace(/\/pom\.xml$/, ""));
      if (child === null || modules.has(child)) continue;
      const childText = tree.read(child === "" ? "pom.xml" : `${child}/pom.xml`);
      if (childText !== null) visit(child, childText, depth + 1);
    }
  };
  visit(root, rootText, 0);
  let chosen = [...modules.keys()];
  const entries = (invocation.options.get("-pl") ?? []).flatMap((value) => (value === true ? [] : value.split(",")));
  if (entries.length > 0) {
    const find = (entry: string): string | null => {
      if (entry.includes(":")) {
        const artifact = entry.slice(entry.lastIndexOf(":") + 1);
        return [...modules].find(([, id]) => id === artifact)?.[0] ?? null;
      }
      const dir = joinRelative(root, entry);
      return dir !== null && modules.has(dir) ? dir : null;
    };
    const included = entries.filter((entry) => !/^[!-]/.test(entry));
    const excluded = entries.filter((entry) => /^[!-]/.test(entry)).map((entry) => entry.slice(1));
    const picked: string[] = [];
    for (const entry of included) {
      const dir = find(entry);
      if (dir === null) return null;
      picked.push(dir);
    }
    chosen = included.length > 0 ? picked : chosen;
    for (const entry of excluded) {
      const dir = find(entry);
      if (dir === null) return null;
      chosen = chosen.filter((candidate) => candidate !== dir);
    }
  }
  const hasTests = (dir: string): boolean => walk(tree, dir === "" ? "src/test" : `${dir}/src/test`).length > 0;
  return { unit: "module", units: new Set(chosen.filter(hasTests)) };
}
