/**
 * justfiles (just.systems/man): recipes compared like Makefile targets. A
 * recipe runs tests when its own lines run a test runner (its dependencies
 * are judged as recipes of their own); a CI step's `just <recipe>` is
 * followed into it (config/targets.ts), so the recipe is where its tests
 * are narrowed, masked or removed.
 *
 * Read: `name arg='x': dep1 dep2` headers (`@` quiet prefix, `[attribute]`
 * lines skipped), indented body lines (`@` and `-` prefixes: `-` ignores the
 * line's exit status), `name := "value"` assignments interpolated as
 * `{{name}}`. Shebang recipes are read line by line like the others.
 */

import { analyzeCommand, compareAnalyses, isTestTargetName, type CommandAnalysis, type CommandScope } from "./command.js";
import type { TamperNote } from "./finding.js";
import { takenOverNotes, type TaskRunnerRecipes } from "./successor.js";

/** One recipe: its dependencies, its body lines (prefixes stripped), the lines whose errors are ignored, and its header's line. */
interface JustRecipe {
  dependencies: string[];
  lines: string[];
  ignored: string[];
  line: number;
}

/** A parsed justfile: recipes by name and the string assignments. */
interface Justfile {
  recipes: Map<string, JustRecipe>;
  variables: Map<string, string>;
}

/** Reads a justfile; never throws (lines it cannot read are skipped). */
export function parseJustfile(text: string): Justfile {
  const recipes = new Map<string, JustRecipe>();
  const variables = new Map<string, string>();
  let current: JustRecipe | null = null;
  text.split(/\r?\n/).forEach((raw, index) => {
    const assignment = /^(?:export\s+)?([A-Za-z_][\w-]*)\s*:=\s*(?:"([^"]*)"|'([^']*)')\s*$/.exec(raw);
    if (assignment) {
      variables.set(assignment[1] as string, (assignment[2] ?? assignment[3]) as string);
      current = null;
      return;
    }
    const header = /^@?([A-Za-z_][\w-]*)((?:\s+[^:=]*)?):(?!=)(.*)$/.exec(raw);
    if (header) {
      const dependencies = (header[3] as string)
        .replace(/#.*$/, "")
        .split(/\s+/)
        .map((word) => word.replace(/^\(|\)$/g, ""))
        .filter((word) => /^[A-Za-z_][\w-]*$/.test(word));
      current = { dependencies, lines: [], ignored: [], line: index + 1 };
      recipes.set(header[1] as string, current);
      return;
    }
    if (current !== null && /^\s+\S/.test(raw)) {
      const body = raw.trim();
      if (body.startsWith("#!") || body.startsWith("#")) return;
      const prefix = /^[@-]*/.exec(body)?.[0] ?? "";
      const command = body.slice(prefix.length);
      current.lines.push(command);
      if (prefix.includes("-")) current.ignored.push(command);
    } else if (raw.trim() !== "" && !raw.trimStart().startsWith("#") && !raw.trimStart().startsWith("[")) {
      current = null;
    }
  });
  return { recipes, variables };
}

/** `{{ name }}` replaced by the assignment's value; unknown names kept. */
function interpolate(text: string, variables: ReadonlyMap<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g, (whole, name: string) => variables.get(name) ?? whole);
}

/**
 * A recipe's own commands and their analysis. Its dependencies are recipes
 * of their own, compared on their own, so a dependency narrowed is reported
 * once, where it is written.
 */
function recipeOf(justfile: Justfile, name: string): { text: string; analysis: CommandAnalysis; ignored: string[]; line: number | null } {
  const recipe = justfile.recipes.get(name);
  if (!recipe) return { text: "", analysis: analyzeCommand(""), ignored: [], line: null };
  const text = recipe.lines.map((line) => interpolate(line, justfile.variables)).join("\n");
  const ignored = recipe.ignored.map((line) => interpolate(line, justfile.variables)).filter((line) => analyzeCommand(line).invocations.length > 0);
  return { text, analysis: analyzeCommand(text), ignored, line: recipe.line };
}

/** A recipe's own lines after its dependencies' (followed 3 levels deep, each recipe once), interpolated. */
function linesWithDependencies(justfile: Justfile, name: string, seen: Set<string>, depth: number): string[] {
  const recipe = justfile.recipes.get(name);
  if (!recipe || seen.has(name) || depth > 3) return [];
  seen.add(name);
  const dependencies = recipe.dependencies.flatMap((dependency) => linesWithDependencies(justfile, dependency, seen, depth + 1));
  return [...dependencies, ...recipe.lines.map((line) => interpolate(line, justfile.variables))];
}

/** A justfile's recipes as the recipes another runner's removed targets may have moved to (config/successor.ts), dependencies' lines included. */
export function justRecipesOf(text: string): TaskRunnerRecipes {
  const justfile = parseJustfile(text);
  return {
    label: "just recipe",
    names: [...justfile.recipes.keys()],
    recipe: (name) => {
      if (!justfile.recipes.has(name)) return null;
      const recipeText = linesWithDependencies(justfile, name, new Set(), 0).join("\n");
      return { text: recipeText, analysis: analyzeCommand(recipeText) };
    },
  };
}

/**
 * Notes for every recipe that ran tests and now runs fewer, ignores their
 * errors (`-` prefix), or is gone. `scope` judges the runs in the after tree
 * (both starts: the justfile's folder, where just runs recipes). `successor`
 * is another task runner's file beside it after the change (a Makefile): a
 * removed recipe it takes over is judged there (config/successor.ts).
 */
export function compareJustfiles(before: string | null, after: string | null, scope?: CommandScope, successor: TaskRunnerRecipes | null = null): TamperNote[] {
  const was = parseJustfile(before ?? "");
  const now = parseJustfile(after ?? "");
  const notes: TamperNote[] = [];
  for (const name of was.recipes.keys()) {
    const old = recipeOf(was, name);
    if (old.analysis.invocations.length === 0) continue;
    const setting = `just recipe "${name}"`;
    if (!now.recipes.has(name)) {
      // Renamed: a new recipe running the same commands.
      const renamed = [...now.recipes.keys()].some((candidate) => !was.recipes.has(candidate) && recipeOf(now, candidate).text.trim() === old.text.trim());
      const takenOver = renamed || !isTestTargetName(name) ? [] : takenOverNotes(old, name, setting, successor, scope);
      if (takenOver !== null) notes.push(...takenOver);
      else notes.push({ setting, line: null, message: `just recipe "${name}" that ran the tests was removed`, before: old.text, after: null });
      continue;
    }
    const next = recipeOf(now, name);
    const newlyIgnored = next.ignored.filter((command) => !old.ignored.includes(command));
    if (newlyIgnored.length > 0) {
      notes.push({
        setting,
        line: next.line,
        message: `just recipe "${name}" now ignores the exit status of ${newlyIgnored.map((command) => `"${command}"`).join(", ")} ("-" prefix)`,
        before: old.text,
        after: next.text,
        detail: { ignored_errors: newlyIgnored },
      });
    }
    if (next.text !== old.text) notes.push(...compareAnalyses(old.analysis, next.analysis, old.text, next.text, setting, next.line, scope));
  }
  return notes;
}
