/**
 * A task runner replaced by another (a Makefile deleted and a justfile
 * written beside it, or the other way): a test target removed from one is
 * not gone when the other runner's file in the same folder, after the
 * change, has a recipe that takes it over. The recipe of the same name is
 * its successor and is judged against it (narrowed, masked, running nothing:
 * `test: go build ./...` in the justfile); without one, any recipe that runs
 * at least the same tests takes it over (make's `test-race` folded into
 * just's `test: go test -race -shuffle on ./...`). Only when none does is the
 * target removed.
 */

import { compareAnalyses, type CommandAnalysis, type CommandScope } from "./command.js";
import type { TamperNote } from "./finding.js";

/** One recipe's commands (its dependencies' included) and their analysis. */
export interface RunnerRecipe {
  text: string;
  analysis: CommandAnalysis;
}

/** The recipes of another task runner's file beside a changed one, after the change. */
export interface TaskRunnerRecipes {
  /** How its recipes are named in messages: `just recipe`, `make target`. */
  label: string;
  /** Its recipe names, in file order. */
  names: readonly string[];
  /** A recipe by name, its dependencies' commands included; null when there is none. */
  recipe(name: string): RunnerRecipe | null;
}

/**
 * What becomes of a test target `name` (its commands `old`, its place
 * `setting`) removed from its runner's file, given the other runner's
 * recipes beside it: null when no recipe takes it over (it was removed), no
 * notes when one runs at least its tests, or the notes of its same-named
 * successor when that one runs fewer.
 */
export function takenOverNotes(old: RunnerRecipe, name: string, setting: string, successor: TaskRunnerRecipes | null, scope?: CommandScope): TamperNote[] | null {
  if (successor === null) return null;
  const same = successor.recipe(name);
  if (same !== null) return compareAnalyses(old.analysis, same.analysis, old.text, same.text, `${setting} (now ${successor.label} "${name}")`, null, scope);
  const isRunElsewhere = successor.names.some((candidate) => {
    const recipe = successor.recipe(candidate);
    return recipe !== null && recipe.analysis.invocations.length > 0 && compareAnalyses(old.analysis, recipe.analysis, old.text, recipe.text, setting, null, scope).length === 0;
  });
  return isRunElsewhere ? [] : null;
}
