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
import type { TreeReader } from "../discovery.js";
import { compareVersions, projectSupport, supportChanges, type Runtime, type StatedSupport } from "../support.js";
import type { CommandScope } from "./command.js";
import type { FileChange, Finding, NotAnalyzed } from "../types.js";
import { compareAzurePipeline } from "./azure-pipelines.js";
import { compareGithubWorkflow, compareGitlabCi, workflowRunners } from "./ci.js";
import { notesToFindings, type TamperNote } from "./finding.js";
import { comparePackageJson, compareRunnerConfigFile } from "./js-config.js";
import { compareJustfiles } from "./justfile.js";
import { compareMakefiles } from "./makefile.js";
import { comparePythonConfig } from "./python.js";
import { testTargetsOf } from "./targets.js";

/** What a comparison may know about the rest of the change. */
export interface ConfigContext {
  /** Every changed file of the diff (config or not). */
  changes: readonly FileChange[];
  /** Reads a repo-relative path of the after tree (changes applied), or null when absent; absent when the caller has no tree. */
  read?: (path: string) => string | null;
  /** The after tree (changes applied), to resolve what a test command runs (config/scope.ts); absent when the caller has no tree. */
  tree?: TreeReader;
}

/** The scope of commands that start in the folder of `path` (a Makefile's recipes, a package.json's scripts), or undefined without a tree. */
function scopeAt(path: string, context: ConfigContext): CommandScope | undefined {
  const folder = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  return context.tree ? { tree: context.tree, cwdBefore: folder, cwdAfter: folder } : undefined;
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
 * What the project supports after the change (its root manifests, read from
 * the after tree, or from the changed files without one), each minimum the
 * change raised marked with the one before.
 */
function supportAfter(context: ConfigContext): Map<Runtime, StatedSupport> {
  const support = projectSupport(readerOf(context), context.tree?.fileNames("") ?? context.changes.filter((change) => !change.path.includes("/")).map((change) => change.path));
  for (const raised of supportChanges(context.changes)) {
    const stated = support.get(raised.runtime);
    if (stated && stated.path === raised.path && raised.before !== null && raised.after !== null && compareVersions(raised.after, raised.before) > 0) stated.raisedFrom = raised.before;
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
  { id: "conftest.py", matches: (_path, name) => name === "conftest.py", compare: (_path, before, after) => comparePythonConfig("conftest.py", before, after) },
  {
    id: "justfile",
    matches: (_path, name) => /^(\.?[Jj]ustfile|[\w.-]+\.just)$/.test(name),
    compare: (path, before, after, context) => compareJustfiles(before, after, scopeAt(path, context)),
  },
  { id: "makefile", matches: (_path, name) => /^(GNUmakefile|[Mm]akefile)$|\.mk$/.test(name), compare: (path, before, after, context) => compareMakefiles(before, after, scopeAt(path, context)) },
  {
    id: "github-actions",
    matches: (path) => /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(path),
    compare: async (path, before, after, context) =>
      compareGithubWorkflow(before, after, {
        elsewhere: await runnersOfOtherWorkflows(path, context),
        targets: testTargetsOf(readerOf(context)),
        ...(context.tree ? { tree: context.tree } : {}),
        support: supportAfter(context),
      }),
  },
  {
    id: "azure-pipelines",
    matches: (path, name) => /^azure-pipelines([.-][\w.-]+)?\.ya?ml$/.test(name) || /(^|\/)\.?azure-pipelines\/[^/]+\.ya?ml$/.test(path),
    compare: (_path, before, after, context) =>
      compareAzurePipeline(before, after, { targets: testTargetsOf(readerOf(context)), ...(context.tree ? { tree: context.tree } : {}), support: supportAfter(context) }),
  },
  {
    id: "gitlab-ci",
    matches: (path, name) => name === ".gitlab-ci.yml" || name === ".gitlab-ci.yaml" || /(^|\/)\.gitlab\/ci\/[^/]+\.ya?ml$/.test(path),
    compare: (_path, before, after, context) =>
      compareGitlabCi(before, after, { targets: testTargetsOf(readerOf(context)), ...(context.tree ? { tree: context.tree } : {}), support: supportAfter(context) }),
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
export async function detectConfigTamper(changes: readonly FileChange[], read?: (path: string) => string | null, tree?: TreeReader): Promise<ConfigTamperResult> {
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
      const context: ConfigContext = { changes, ...(read ? { read } : {}), ...(tree ? { tree } : {}) };
      const notes = await kind.compare(change.path, change.before, change.after, context);
      result.findings.push(...notesToFindings(change.path, notes));
      result.analyzed.push(change.path);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result.notAnalyzed.push({ path: change.path, reason: `${kind.id} not read: ${message.split("\n")[0]}` });
    }
  }
  return result;
}
