/**
 * test_config_tamper: the files that decide which tests run and what counts
 * as passing (runner configs, package.json scripts, pytest/tox/coverage
 * settings, conftest.py, Makefiles, justfiles, CI pipelines), compared before and after.
 * Each kind of file is one entry of {@link CONFIG_KINDS}: a path test and a
 * comparison that returns notes, which become findings here.
 *
 * Nothing heavy is imported until a config file changed: the YAML parser and
 * @babel/parser load on first use.
 */

import { isBinaryText, isOverSizeLimit } from "../content.js";
import { defaultSeverityOf } from "../rules/registry.js";
import { languageForPath } from "../languages/index.js";
import { compareVersions, projectSupport, supportChanges, type Runtime, type StatedSupport } from "../support.js";
import { goCodeMinimum } from "../code-minimums.js";
import type { CommandScope } from "./command.js";
import type { FileChange, Finding, NotAnalyzed } from "../types.js";
import { compareAzurePipeline } from "./azure-pipelines.js";
import { compareGithubWorkflow, compareGitlabCi, workflowGate, workflowRunners, type WorkflowGate } from "./ci.js";
import { notesToFindings, show, type TamperNote } from "./finding.js";
import { comparePackageJson, compareRunnerConfigFile } from "./js-config.js";
import { compareJustfiles, justRecipesOf } from "./justfile.js";
import { compareMakefiles, makeTargetsOf } from "./makefile.js";
import type { TaskRunnerRecipes } from "./successor.js";
import { comparePythonConfig } from "./python.js";
import { compareCargoToml, compareCsproj, compareGradle, comparePhpunitXml, comparePom, compareRspecFile, compareRspecHelper, type ChangeTrees } from "./runner-files.js";
import { testTargetsOf } from "./targets.js";

/** What a comparison may know about the rest of the change. */
export interface ConfigContext {
  /** Every changed file of the diff (config or not). */
  changes: readonly FileChange[];
  /** Reads a repo-relative path of the after tree (changes applied), or null when absent; absent when the caller has no tree. */
  read?: (path: string) => string | null;
  /** Both trees (changes applied on the after side): exclusions are judged by the existing tests they leave out, and test commands resolved (config/scope.ts) in the after tree; absent when the caller has none. */
  trees?: ChangeTrees;
}

/** The scope of commands that start in the folder of `path` (a Makefile's recipes, a package.json's scripts), or undefined without a tree. */
function scopeAt(path: string, context: ConfigContext): CommandScope | undefined {
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  return context.trees ? { tree: context.trees.after, cwdBefore: folder, cwdAfter: folder } : undefined;
}

/** One kind of config file: its id, which paths it owns, and how two versions compare. */
export interface ConfigKind {
  readonly id: string;
  matches(path: string, name: string): boolean;
  compare(path: string, before: string | null, after: string | null, context: ConfigContext): TamperNote[] | Promise<TamperNote[]>;
}

/** The after side of `name` in the same folder as `path`, when it changed in this diff; otherwise null. */
function siblingAfter(path: string, name: string, context: ConfigContext): string | null {
  const folder = path.slice(0, path.lastIndexOf("/") + 1);
  return context.changes.find((change) => change.path === `${folder}${name}`)?.after ?? null;
}

/** The after tree's reader of a context, or one over the changed files alone when the caller has no tree. */
function readerOf(context: ConfigContext): (path: string) => string | null {
  return context.read ?? ((path) => context.changes.find((change) => change.path === path)?.after ?? null);
}

/**
 * The first of `names` beside `path` in the after tree (or among the changed
 * files without one), read as task-runner recipes by `read`: the runner a
 * removed Makefile target or justfile recipe may have moved to.
 */
function successorBeside(path: string, names: readonly string[], read: (text: string) => TaskRunnerRecipes, context: ConfigContext): TaskRunnerRecipes | null {
  const folder = path.slice(0, path.lastIndexOf("/") + 1);
  const reader = readerOf(context);
  for (const name of names) {
    const text = reader(`${folder}${name}`);
    if (text !== null) return read(text);
  }
  return null;
}

/** The context's trees, or ones made of the changed files alone when the caller has none. */
function treesOf(context: ConfigContext): ChangeTrees {
  if (context.trees) return context.trees;
  const side = (which: "before" | "after") => ({
    read: (path: string) => context.changes.find((change) => change.path === path)?.[which] ?? null,
    fileNames: (dir: string) =>
      context.changes
        .filter((change) => change[which] !== null && change.path.slice(0, Math.max(0, change.path.lastIndexOf("/"))) === dir)
        .map((change) => change.path.slice(change.path.lastIndexOf("/") + 1)),
    walk: (dir: string) => context.changes.filter((change) => change[which] !== null && (dir === "" || change.path.startsWith(`${dir}/`))).map((change) => change.path),
  });
  return { before: side("before"), after: side("after") };
}

/** The files of a tree below a config file's folder, as paths relative to it (only with a whole tree: the changed files alone would miss the others). */
function filesBelow(path: string, tree: ChangeTrees["before"]): string[] {
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  return tree.walk(folder).map((file) => (folder === "" ? file : file.slice(folder.length + 1)));
}

/** What the project supports after the change, read from the context's after tree or its changed files ({@link supportAfterChange}). */
function supportAfter(context: ConfigContext): Map<Runtime, StatedSupport> {
  return supportAfterChange(context.changes, readerOf(context), context.trees?.after.fileNames(""));
}

/**
 * What the project supports after `changes`: its root manifests read by
 * `read` (the after tree; `rootNames` its root's file names, else the
 * changed files at the root), each minimum the change raised marked with
 * the one before, and Go's raised to what the change's own code needs
 * (code-minimums.ts). CI runtime cells and runtime-requirement guards
 * (runtime-requirements.ts) are judged against it.
 */
export function supportAfterChange(changes: readonly FileChange[], read: (path: string) => string | null, rootNames?: readonly string[]): Map<Runtime, StatedSupport> {
  const support = projectSupport(read, rootNames ?? changes.filter((change) => !change.path.includes("/")).map((change) => change.path));
  for (const raised of supportChanges(changes)) {
    const stated = support.get(raised.runtime);
    if (stated && stated.path === raised.path && raised.before !== null && raised.after !== null && compareVersions(raised.after, raised.before) > 0) stated.raisedFrom = raised.before;
  }
  // The code the change adds or deletes may need more than the manifest says (code-minimums.ts: go.mod's `go` lags).
  const go = support.get("go");
  const needed = go ? goCodeMinimum(changes) : null;
  if (go && needed && compareVersions(needed.minimum, go.minimum) > 0) {
    support.set("go", { ...go, requirement: `${go.requirement}; the change's code needs Go ${needed.minimum.join(".")}: ${needed.reason}`, minimum: needed.minimum });
  }
  return support;
}

/** Runners of the other changed workflow files (after side); files that do not parse contribute none. */
async function runnersOfOtherWorkflows(path: string, context: ConfigContext): Promise<Set<string>> {
  const runners = new Set<string>();
  for (const change of context.changes) {
    if (change.path === path || change.after === null || configKindOf(change.path)?.id !== "github-actions") continue;
    try {
      for (const runner of await workflowRunners(change.after)) runners.add(runner);
    } catch {
      // judged (and reported) on its own
    }
  }
  return runners;
}

/** The gates of each after tree, read once however many workflow files the change touches (each has a context of its own). */
const gatesByTree = new WeakMap<object, Promise<WorkflowGate[]>>();

/** The gates ({@link workflowGate}) of the after tree's workflow files, changed or not; none without a tree. Unreadable files gate nothing. */
async function treeWorkflowGates(context: ConfigContext): Promise<WorkflowGate[]> {
  const tree = context.trees?.after;
  if (!tree) return [];
  const targets = testTargetsOf(readerOf(context));
  const gates: WorkflowGate[] = [];
  for (const path of tree.walk(".github/workflows")) {
    const text = !/\.ya?ml$/.test(path) || path.slice(".github/workflows/".length).includes("/") ? null : tree.read(path);
    if (text === null) continue;
    try {
      gates.push(await workflowGate(path, text, targets));
    } catch {
      // judged (and reported) on its own when changed; an unreadable unchanged file gates nothing
    }
  }
  return gates;
}

/** The gates of the after tree's workflow files other than `path` (see {@link treeWorkflowGates}). */
async function otherWorkflowGates(path: string, context: ConfigContext): Promise<WorkflowGate[]> {
  const tree = context.trees?.after;
  if (!tree) return [];
  let gates = gatesByTree.get(tree);
  if (!gates) {
    gates = treeWorkflowGates(context);
    gatesByTree.set(tree, gates);
  }
  return (await gates).filter((gate) => gate.path !== path);
}

/** The names make and just look for in a folder, in their lookup order. */
const MAKEFILE_NAMES = ["GNUmakefile", "makefile", "Makefile"] as const;
const JUSTFILE_NAMES = ["justfile", "Justfile", ".justfile"] as const;

const JS_EXT = "\\.(?:[cm]?[jt]s)";
const VITEST_CONFIG = new RegExp(`^(vitest|vite)(\\.[\\w-]+)?\\.config${JS_EXT}$|^vitest\\.config\\.[\\w-]+${JS_EXT}$`);
const JEST_CONFIG = new RegExp(`^jest(\\.[\\w-]+)?\\.config(${JS_EXT}|\\.json)$`);

/** Every config file kind ralph reads, in lookup order. */
export const CONFIG_KINDS: readonly ConfigKind[] = [
  { id: "package.json", matches: (_path, name) => name === "package.json", compare: (path, before, after, context) => comparePackageJson(before, after, scopeAt(path, context)) },
  {
    id: "vitest-config",
    matches: (_path, name) => VITEST_CONFIG.test(name),
    compare: (path, before, after) => compareRunnerConfigFile("vitest", path, before, after),
  },
  {
    id: "jest-config",
    matches: (_path, name) => JEST_CONFIG.test(name),
    compare: (path, before, after) => compareRunnerConfigFile("jest", path, before, after),
  },
  {
    id: "mocharc",
    matches: (_path, name) => /^\.mocharc(\.(?:[cm]?js|json|jsonc|ya?ml))?$/.test(name),
    compare: (path, before, after) => compareRunnerConfigFile("mocha", /\.mocharc$/.test(path) ? `${path}.json` : path, before, after),
  },
  {
    id: "c8rc",
    matches: (_path, name) => /^\.c8rc(\.json|\.ya?ml)?$/.test(name),
    compare: (path, before, after) => compareRunnerConfigFile("c8", path, before, after),
  },
  {
    id: "nycrc",
    matches: (_path, name) => /^\.nycrc(\.json|\.ya?ml)?$|^nyc\.config\.c?js$/.test(name),
    compare: (path, before, after) => compareRunnerConfigFile("nyc", path, before, after),
  },
  {
    id: "ava-config",
    matches: (_path, name) => /^ava\.config\.[cm]?js$/.test(name),
    compare: (path, before, after) => compareRunnerConfigFile("ava", path, before, after),
  },
  {
    id: "playwright-config",
    matches: (_path, name) => new RegExp(`^playwright(\\.[\\w-]+)?\\.config${JS_EXT}$`).test(name),
    compare: (path, before, after) => compareRunnerConfigFile("playwright", path, before, after),
  },
  {
    id: "cypress-config",
    matches: (_path, name) => new RegExp(`^cypress\\.config${JS_EXT}$`).test(name),
    compare: (path, before, after) => compareRunnerConfigFile("cypress", path, before, after),
  },
  { id: "pytest.ini", matches: (_path, name) => name === "pytest.ini", compare: (_path, before, after) => comparePythonConfig("pytest.ini", before, after) },
  {
    id: "tox.ini",
    matches: (_path, name) => name === "tox.ini",
    compare: (path, before, after, context) => comparePythonConfig("tox.ini", before, after, siblingAfter(path, "pyproject.toml", context)),
  },
  { id: "setup.cfg", matches: (_path, name) => name === "setup.cfg", compare: (_path, before, after) => comparePythonConfig("setup.cfg", before, after) },
  {
    id: "pyproject.toml",
    matches: (_path, name) => name === "pyproject.toml",
    compare: (path, before, after, context) => comparePythonConfig("pyproject.toml", before, after, siblingAfter(path, "tox.ini", context)),
  },
  { id: ".coveragerc", matches: (_path, name) => name === ".coveragerc", compare: (_path, before, after) => comparePythonConfig(".coveragerc", before, after) },
  {
    id: "conftest.py",
    matches: (_path, name) => name === "conftest.py",
    compare: (path, before, after, context) => comparePythonConfig("conftest.py", before, after, null, context.trees ? filesBelow(path, context.trees.before) : undefined),
  },
  {
    id: "justfile",
    matches: (_path, name) => /^(\.?[Jj]ustfile|[\w.-]+\.just)$/.test(name),
    compare: (path, before, after, context) => compareJustfiles(before, after, scopeAt(path, context), successorBeside(path, MAKEFILE_NAMES, makeTargetsOf, context)),
  },
  {
    id: "makefile",
    matches: (_path, name) => /^(GNUmakefile|[Mm]akefile)$|\.mk$/.test(name),
    compare: (path, before, after, context) => compareMakefiles(before, after, scopeAt(path, context), successorBeside(path, JUSTFILE_NAMES, justRecipesOf, context)),
  },
  { id: "cargo", matches: (_path, name) => name === "Cargo.toml", compare: (path, before, after, context) => compareCargoToml(path, before, after, treesOf(context)) },
  { id: "maven-pom", matches: (_path, name) => name === "pom.xml", compare: (path, before, after, context) => comparePom(path, before, after, treesOf(context)) },
  { id: "gradle", matches: (_path, name) => name === "build.gradle" || name === "build.gradle.kts", compare: (path, before, after, context) => compareGradle(path, before, after, treesOf(context)) },
  { id: "csproj", matches: (_path, name) => name.endsWith(".csproj"), compare: (path, before, after, context) => compareCsproj(path, before, after, treesOf(context)) },
  { id: "rspec", matches: (_path, name) => name === ".rspec" || name === ".rspec-local", compare: (path, before, after, context) => compareRspecFile(path, before, after, treesOf(context)) },
  {
    id: "rspec-helper",
    matches: (path, name) => (name === "spec_helper.rb" || name === "rails_helper.rb") && /(^|\/)spec\/[^/]+$/.test(path),
    compare: (path, before, after, context) => compareRspecHelper(path, before, after, treesOf(context)),
  },
  {
    id: "phpunit-xml",
    matches: (_path, name) => name === "phpunit.xml" || name === "phpunit.xml.dist" || name === "phpunit.dist.xml",
    compare: (path, before, after, context) => comparePhpunitXml(path, before, after, treesOf(context)),
  },
  {
    id: "github-actions",
    matches: (path) => /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(path),
    compare: async (path, before, after, context) =>
      compareGithubWorkflow(before, after, {
        elsewhere: await runnersOfOtherWorkflows(path, context),
        gates: await otherWorkflowGates(path, context),
        targets: testTargetsOf(readerOf(context)),
        ...(context.trees ? { tree: context.trees.after } : {}),
        support: supportAfter(context),
      }),
  },
  {
    id: "azure-pipelines",
    matches: (path, name) => /^azure-pipelines([.-][\w.-]+)?\.ya?ml$/.test(name) || /(^|\/)\.?azure-pipelines\/[^/]+\.ya?ml$/.test(path),
    compare: (_path, before, after, context) =>
      compareAzurePipeline(before, after, { targets: testTargetsOf(readerOf(context)), ...(context.trees ? { tree: context.trees.after } : {}), support: supportAfter(context) }),
  },
  {
    id: "gitlab-ci",
    matches: (path, name) => name === ".gitlab-ci.yml" || name === ".gitlab-ci.yaml" || /(^|\/)\.gitlab\/ci\/[^/]+\.ya?ml$/.test(path),
    compare: (_path, before, after, context) =>
      compareGitlabCi(before, after, { targets: testTargetsOf(readerOf(context)), ...(context.trees ? { tree: context.trees.after } : {}), support: supportAfter(context) }),
  },
];

/** Folders whose config files configure someone else's project (dependencies, test fixtures), not this one's tests. */
const FOREIGN_SEGMENT = /(^|\/)(node_modules|vendor|fixtures|__fixtures__|testdata|test-fixtures|third_party)\//;

/** The config kind that owns this '/'-separated path, or null. Cheap: no parsing. */
export function configKindOf(path: string): ConfigKind | null {
  if (FOREIGN_SEGMENT.test(path)) return null;
  const name = path.slice(path.lastIndexOf("/") + 1);
  return CONFIG_KINDS.find((kind) => kind.matches(path, name)) ?? null;
}

/** True when the path is a test configuration file ralph compares for test_config_tamper. */
export function isConfigPath(path: string): boolean {
  return configKindOf(path) !== null;
}

/**
 * The test files below a folder ("" is the root) that the JS runners
 * collected before the change and do not after it (discovery.ts), or null
 * when discovery cannot tell there (no readable config collected any file
 * before).
 */
export type TestsLeaving = (dir: string) => Promise<string[] | null>;

/** Config kinds whose file settings discovery.ts reads, so their exclusions can be judged by the files that leave the run. */
const JS_DISCOVERY_KINDS: ReadonlySet<string> = new Set(["package.json", "vitest-config", "jest-config", "mocharc"]);

/** A note about exclusion patterns added (runner-settings.ts), not yet judged by the files they leave out. */
function isBareExclusion(note: TamperNote): boolean {
  return note.detail !== undefined && "excluded_added" in note.detail && !("excluded_tests" in note.detail);
}

/** The result of {@link detectConfigTamper}. */
export interface ConfigTamperResult {
  findings: Finding[];
  /** Config files that could not be read on one side (malformed JSON/YAML/TOML, an unparsable config module). */
  notAnalyzed: NotAnalyzed[];
  /** Paths of the changed config files that were compared. */
  analyzed: string[];
}

/**
 * test_config_tamper findings for the changed config files among `changes`
 * (other paths are ignored). Never throws for bad content: a file that
 * cannot be read is listed in `notAnalyzed` instead. `read` reads the after
 * tree's files; `tree` is that tree, for resolving what test commands run.
 */
export async function detectConfigTamper(changes: readonly FileChange[], read?: (path: string) => string | null, trees?: ChangeTrees, testsLeaving?: TestsLeaving): Promise<ConfigTamperResult> {
  const result: ConfigTamperResult = { findings: [], notAnalyzed: [], analyzed: [] };
  for (const change of changes) {
    const kind = configKindOf(change.path);
    if (!kind || change.before === change.after) continue;
    const problem = [change.before, change.after]
      .map((text) => (text === null ? null : isBinaryText(text) ? "binary content" : isOverSizeLimit(text) ? "larger than 2 MB" : null))
      .find((reason) => reason !== null);
    if (problem) {
      result.notAnalyzed.push({ path: change.path, reason: `${kind.id} not read: ${problem}` });
      continue;
    }
    try {
      const context: ConfigContext = { changes, ...(read ? { read } : {}), ...(trees ? { trees } : {}) };
      let notes = await kind.compare(change.path, change.before, change.after, context);
      if (testsLeaving && JS_DISCOVERY_KINDS.has(kind.id) && notes.some(isBareExclusion)) {
        // An added exclusion that no test collected before falls under (a fixtures folder) leaves nothing out.
        const leaving = await testsLeaving(change.path.slice(0, Math.max(0, change.path.lastIndexOf("/"))));
        if (leaving !== null && leaving.length === 0) notes = notes.filter((note) => !isBareExclusion(note));
      }
      result.findings.push(...notesToFindings(change.path, notes));
      result.analyzed.push(change.path);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result.notAnalyzed.push({ path: change.path, reason: `${kind.id} not read: ${message.split("\n")[0]}` });
    }
  }
  if (trees) result.findings.push(...(await taggedIntoExistingExclusion(changes, trees)));
  return result;
}

/** Runner configs that can exclude tags, by the language of the tests they govern, relative to a project folder. */
const TAG_CONFIGS: Readonly<Record<string, readonly string[]>> = {
  java: ["build.gradle", "build.gradle.kts", "pom.xml"],
  ruby: [".rspec", "spec/spec_helper.rb", "spec/rails_helper.rb"],
  php: ["phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml"],
};

/**
 * test_disabled for existing tests of changed test files that gain a tag an
 * unchanged runner config already excludes (`@Tag("slow")` under Gradle's
 * `excludeTags 'slow'`): the config is read as it stands, on both sides, so
 * only tags gained in this change count. Configs that changed are judged by
 * their own comparison.
 */
async function taggedIntoExistingExclusion(changes: readonly FileChange[], trees: ChangeTrees): Promise<Finding[]> {
  const changed = new Set(changes.map((change) => change.path));
  const configs = new Set<string>();
  for (const change of changes) {
    if (change.before === null || change.after === null) continue;
    const language = languageForPath(change.path);
    const names = language ? TAG_CONFIGS[language.id] : undefined;
    if (!names || !language?.isTestPath(change.path)) continue;
    for (let dir = change.path.slice(0, Math.max(0, change.path.lastIndexOf("/"))); ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf("/")))) {
      for (const name of names) {
        const path = dir === "" ? name : `${dir}/${name}`;
        if (!changed.has(path) && trees.after.read(path) !== null) configs.add(path);
      }
      if (dir === "") break;
    }
  }
  const findings: Finding[] = [];
  for (const path of configs) {
    const kind = configKindOf(path);
    const text = trees.after.read(path);
    if (!kind || text === null) continue;
    let notes: TamperNote[];
    try {
      notes = await kind.compare(path, text, text, { changes, trees });
    } catch {
      continue;
    }
    for (const note of notes) {
      const tagged = note.detail?.tagged_tests;
      if (!Array.isArray(tagged)) continue;
      for (const entry of tagged as string[]) {
        const file = entry.replace(/ \(.*\)$/, "");
        findings.push({
          type: "test_disabled",
          severity: defaultSeverityOf("test_disabled"),
          file,
          line: null,
          message: `${entry} gains the tag ${show(note.detail?.excluded_tag)}, which ${path} excludes (${note.setting}): the test no longer runs`,
          evidence: { config: path, setting: note.setting, tag: note.detail?.excluded_tag ?? null },
          allowed: false,
        });
      }
    }
  }
  return findings;
}
