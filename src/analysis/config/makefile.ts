/**
 * Makefiles: the recipes of test targets (`test`, `check`, `test-unit`, …)
 * compared command by command, with simple variables (`PYTEST = pytest -q`)
 * expanded, `-` prefixes (ignore errors) and `.IGNORE` noticed.
 */

import { analyzeCommand, compareAnalyses, isTestTargetName, type CommandAnalysis, type CommandScope } from "./command.js";
import type { TamperNote } from "./finding.js";
import { takenOverNotes, type TaskRunnerRecipes } from "./successor.js";

/** One rule of a Makefile: its recipe lines (without the tab) and where it starts. */
interface MakeRule {
  line: number;
  prerequisites: string[];
  recipe: { text: string; line: number }[];
}

/** The rules and variables of a Makefile. */
export interface Makefile {
  rules: Map<string, MakeRule>;
  variables: Map<string, string>;
  /** Targets listed under `.IGNORE:` (all targets when it has none). */
  ignoreErrors: Set<string> | "all" | null;
}

/** Reads rules, recipes (tab-indented, `\` continued) and `NAME = value` variables. Never throws. */
export function parseMakefile(text: string): Makefile {
  const rules = new Map<string, MakeRule>();
  const variables = new Map<string, string>();
  let ignoreErrors: Set<string> | "all" | null = null;
  const physical = text.split(/\r?\n/);
  let current: MakeRule[] = [];
  for (let i = 0; i < physical.length; i++) {
    let line = physical[i] as string;
    const start = i + 1;
    while (line.endsWith("\\") && i + 1 < physical.length) line = `${line.slice(0, -1)} ${(physical[++i] as string).trim()}`;
    if (line.startsWith("\t")) {
      const recipe = line.slice(1).trim();
      if (recipe !== "" && !recipe.startsWith("#")) for (const rule of current) rule.recipe.push({ text: recipe, line: start });
      continue;
    }
    const trimmed = line.replace(/(^|\s)#.*$/, "").trim();
    if (trimmed === "") continue;
    const assignment = /^(?:export\s+|override\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*(\?=|:=|::=|\+=|=|!=)\s*(.*)$/.exec(trimmed);
    if (assignment && !/^[^=]*:[^=]/.test(trimmed.split(/[?:+!]?=/)[0] ?? "")) {
      const [, name, operator, value] = assignment as unknown as [string, string, string, string];
      if (operator === "+=") variables.set(name, `${variables.get(name) ?? ""} ${value}`.trim());
      else if (operator !== "?=" || !variables.has(name)) variables.set(name, value);
      current = [];
      continue;
    }
    const rule = /^([^:=]+?)\s*::?\s*([^=]*)$/.exec(trimmed);
    if (rule) {
      const targets = (rule[1] as string).split(/\s+/).filter(Boolean);
      const [prerequisites, inlineRecipe] = (rule[2] as string).split(";", 2) as [string, string | undefined];
      current = [];
      for (const target of targets) {
        if (target === ".IGNORE") {
          const listed = prerequisites.split(/\s+/).filter(Boolean);
          ignoreErrors = listed.length === 0 ? "all" : new Set(listed);
          continue;
        }
        if (target.startsWith(".")) continue;
        const entry: MakeRule = rules.get(target) ?? { line: start, prerequisites: [], recipe: [] };
        entry.prerequisites.push(...prerequisites.split(/\s+/).filter(Boolean));
        if (inlineRecipe?.trim()) entry.recipe.push({ text: inlineRecipe.trim(), line: start });
        rules.set(target, entry);
        current.push(entry);
      }
      continue;
    }
    current = [];
  }
  return { rules, variables, ignoreErrors };
}

/** A recipe line without make's `@`, `-` and `+` prefixes, and whether `-` (ignore errors) was one of them. */
function stripPrefixes(text: string): { command: string; isIgnoringErrors: boolean } {
  const match = /^[@+\-\s]*/.exec(text) as RegExpExecArray;
  return { command: text.slice(match[0].length), isIgnoringErrors: match[0].includes("-") };
}

/**
 * What a rule's prerequisites run before its recipe (make runs them first):
 * a prerequisite whose own recipe runs tests contributes that recipe's
 * commands, one level deep (`test: phpunit phpstan` with `phpunit:
 * vendor/bin/phpunit` runs phpunit, whatever the prerequisite is called, so
 * renaming or merging the other prerequisites changes nothing); one named
 * like a test target whose recipe runs no known runner contributes
 * `make <name>` (`test: test-unit test-e2e`), unless its recipe only runs
 * static analysis ({@link isStaticAnalysis}).
 */
function prerequisiteRuns(makefile: Makefile, rule: MakeRule): string[] {
  return rule.prerequisites.flatMap((name) => {
    const prerequisite = makefile.rules.get(name);
    if (!prerequisite) return [];
    const commands = prerequisite.recipe.map((entry) => stripPrefixes(entry.text).command);
    if (analyzeCommand(commands.join("\n"), makefile.variables).invocations.length > 0) return commands;
    return isTestTargetName(name) && !commands.every(isStaticAnalysis) ? [`make ${name}`] : [];
  });
}

/** Programs that analyse code without running tests (linters, type checkers, formatters), by their base name. */
const STATIC_ANALYSIS_TOOLS: ReadonlySet<string> = new Set([
  "phpstan",
  "psalm",
  "psalm.phar",
  "phpcs",
  "phpcbf",
  "php-cs-fixer",
  "phpmd",
  "rector",
  "eslint",
  "tsc",
  "prettier",
  "biome",
  "mypy",
  "pyright",
  "ruff",
  "flake8",
  "pylint",
  "black",
  "isort",
  "rubocop",
  "standardrb",
  "golangci-lint",
  "gofmt",
  "staticcheck",
  "clippy-driver",
]);

/** Programs that run another program named among their words: containers, package runners, environment wrappers. */
const LAUNCHERS: ReadonlySet<string> = new Set([
  "docker",
  "podman",
  "docker-compose",
  "npx",
  "pnpx",
  "pnpm",
  "yarn",
  "bunx",
  "bundle",
  "poetry",
  "uv",
  "pipenv",
  "hatch",
  "pdm",
  "php",
  "env",
  "nix-shell",
]);

/** Shell builtins that run nothing: `echo skipped`, `true`, `:`. */
const NO_OP_PROGRAMS: ReadonlySet<string> = new Set(["echo", "printf", "true", ":", "exit"]);

/**
 * True for a recipe line that runs no tests: a static analysis tool
 * ({@link STATIC_ANALYSIS_TOOLS}, `go vet`, `cargo clippy`, `cargo fmt`) or
 * a builtin that does nothing ({@link NO_OP_PROGRAMS}), also when a launcher
 * runs it ({@link LAUNCHERS}: `docker run --entrypoint vendor/bin/phpstan`): a prerequisite made
 * of such lines runs no tests, whatever its name (`phpstan-analyze-tests`
 * analyses the tests' code).
 */
function isStaticAnalysis(command: string): boolean {
  const words = command.trim().split(/\s+/);
  const program = (words[0] ?? "").replace(/^.*\//, "");
  if (STATIC_ANALYSIS_TOOLS.has(program) || NO_OP_PROGRAMS.has(program)) return true;
  // A launcher running one (`docker run --entrypoint vendor/bin/phpstan img`, `npx eslint`, `bundle exec rubocop`): the line runs no
  // test runner (the caller found none), so a static analysis tool among its words is what it runs.
  if (LAUNCHERS.has(program)) return words.slice(1).some((word) => STATIC_ANALYSIS_TOOLS.has(word.replace(/^--entrypoint=/, "").replace(/^.*\//, "")));
  return (program === "go" && words[1] === "vet") || (program === "cargo" && (words[1] === "clippy" || words[1] === "fmt"));
}

/** The whole recipe of a target as one command list, its analysis, and the test lines whose errors are ignored. */
function recipeOf(makefile: Makefile, target: string): { text: string; analysis: CommandAnalysis; ignored: string[]; line: number | null } {
  const rule = makefile.rules.get(target);
  if (!rule) return { text: "", analysis: analyzeCommand(""), ignored: [], line: null };
  const isIgnoredTarget = makefile.ignoreErrors === "all" || (makefile.ignoreErrors instanceof Set && makefile.ignoreErrors.has(target));
  const commands: string[] = [];
  const ignored: string[] = [];
  for (const entry of rule.recipe) {
    const { command, isIgnoringErrors } = stripPrefixes(entry.text);
    commands.push(command);
    if ((isIgnoringErrors || isIgnoredTarget) && analyzeCommand(command, makefile.variables).invocations.length > 0) ignored.push(command);
  }
  const text = [...prerequisiteRuns(makefile, rule), ...commands].join("\n");
  return { text, analysis: analyzeCommand(text, makefile.variables), ignored, line: rule.recipe[0]?.line ?? rule.line };
}

/** A Makefile's targets as the recipes another runner's removed targets may have moved to (config/successor.ts), prerequisites' runs included. */
export function makeTargetsOf(text: string): TaskRunnerRecipes {
  const makefile = parseMakefile(text);
  return {
    label: "make target",
    names: [...makefile.rules.keys()],
    recipe: (name) => (makefile.rules.has(name) ? recipeOf(makefile, name) : null),
  };
}

/**
 * Notes for every test target whose recipe now runs fewer tests, ignores
 * their errors, or is gone. `scope` (the after tree, both starts the
 * Makefile's folder) lets a recipe's runs be judged by what they test there.
 * `successor` is another task runner's file beside it after the change (a
 * justfile): a removed target it takes over is judged there (config/successor.ts).
 */
export function compareMakefiles(before: string | null, after: string | null, scope?: CommandScope, successor: TaskRunnerRecipes | null = null): TamperNote[] {
  const was = parseMakefile(before ?? "");
  const now = parseMakefile(after ?? "");
  const notes: TamperNote[] = [];
  for (const target of was.rules.keys()) {
    if (!isTestTargetName(target)) continue;
    const old = recipeOf(was, target);
    if (old.analysis.invocations.length === 0) continue;
    const setting = `make target "${target}"`;
    if (!now.rules.has(target)) {
      const takenOver = takenOverNotes(old, target, setting, successor, scope);
      if (takenOver !== null) {
        notes.push(...takenOver);
        continue;
      }
      notes.push({ setting, line: null, message: `make target "${target}" that ran the tests was removed`, before: old.text, after: null });
      continue;
    }
    const next = recipeOf(now, target);
    const newlyIgnored = next.ignored.filter((command) => !old.ignored.includes(command));
    if (newlyIgnored.length > 0) {
      notes.push({
        setting,
        line: next.line,
        message: `make target "${target}" now ignores the exit status of ${newlyIgnored.map((c) => `"${c}"`).join(", ")} ("-" prefix or .IGNORE)`,
        before: old.text,
        after: next.text,
        detail: { ignored_errors: newlyIgnored },
      });
    }
    notes.push(...compareAnalyses(old.analysis, next.analysis, old.text, next.text, setting, next.line, scope));
  }
  return notes;
}
