/**
 * The task-runner targets of a project that run tests whatever their names
 * (issue 9: `make richtest || true` in CI where the target runs the tests):
 * root Makefile targets, justfile recipes, package.json scripts and
 * composer.json scripts whose recipe calls a test runner. CI comparisons (ci.ts) follow a step's `make
 * X` / `just X` / `npm run X` one level through these, so masking or
 * removing such a step is judged like one that names its runner.
 */

import { runsTests, type TestTargets } from "./command.js";
import { parseMakefile } from "./makefile.js";

const MAKEFILES = ["Makefile", "makefile", "GNUmakefile"] as const;
const JUSTFILES = ["justfile", "Justfile", ".justfile"] as const;

/** Recipe names of a justfile with their (indented) lines joined; `name arg: deps` headers, `@` prefixes dropped. */
function justRecipes(text: string): Map<string, string> {
  const recipes = new Map<string, string>();
  let current: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    const header = /^@?([A-Za-z_][\w-]*)(?:\s+[^:=]*)?:(?!=)/.exec(line);
    if (header) {
      current = header[1] as string;
      recipes.set(current, "");
    } else if (current !== null && /^\s+\S/.test(line)) {
      recipes.set(current, `${recipes.get(current) ?? ""}\n${line.trim().replace(/^[@-]+/, "")}`);
    } else if (line.trim() !== "" && !line.trimStart().startsWith("#")) {
      current = null;
    }
  }
  return recipes;
}

/** package.json scripts by name; an unreadable file has none. */
function packageScripts(text: string): Map<string, string> {
  try {
    const parsed = JSON.parse(text) as { scripts?: Record<string, unknown> };
    return new Map(Object.entries(parsed.scripts ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  } catch {
    return new Map();
  }
}

/**
 * composer.json scripts by name, each as its command lines (a script is a
 * string or a list of them; getcomposer.org/doc/articles/scripts.md); an
 * unreadable file has none.
 */
function composerScripts(text: string): Map<string, string[]> {
  try {
    const parsed = JSON.parse(text) as { scripts?: Record<string, unknown> };
    const scripts = new Map<string, string[]>();
    for (const [name, value] of Object.entries(parsed.scripts ?? {})) {
      const lines = typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((line): line is string => typeof line === "string") : [];
      if (lines.length > 0) scripts.set(name, lines);
    }
    return scripts;
  } catch {
    return new Map();
  }
}

/**
 * The composer scripts that run a test runner: through their own lines
 * (`@php vendor/bin/phpunit` read as `php vendor/bin/phpunit`) or a script
 * they reference (`@phpunit`, `@composer run phpunit`), 3 levels deep.
 */
function composerTestScripts(text: string): Set<string> {
  const scripts = composerScripts(text);
  const runs = (name: string, depth: number): boolean => {
    const lines = scripts.get(name);
    if (!lines || depth > 3) return false;
    return lines.some((line) => {
      const reference = /^@([\w:.-]+)(?:\s|$)/.exec(line.trim());
      if (reference && reference[1] !== "php" && reference[1] !== "composer" && reference[1] !== "putenv") return runs(reference[1] as string, depth + 1);
      return runsTests(line.trim().replace(/^@(php|composer)\s+/, (_, tool: string) => (tool === "php" ? "" : "composer ")));
    });
  };
  return new Set([...scripts.keys()].filter((name) => runs(name, 0)));
}

/**
 * The root task files' targets whose recipes run a test runner, read
 * through `read` (a repo-relative path -> its text, or null when absent).
 * A make target counts through its own recipe and its prerequisites'.
 * Never throws.
 */
export function testTargetsOf(read: (path: string) => string | null): TestTargets {
  const make = new Set<string>();
  const just = new Set<string>();
  const scripts = new Set<string>();
  for (const name of MAKEFILES) {
    const text = read(name);
    if (text === null) continue;
    const makefile = parseMakefile(text);
    const runs = (target: string, depth: number): boolean => {
      const rule = makefile.rules.get(target);
      if (!rule || depth > 3) return false;
      return runsTests(rule.recipe.map((entry) => entry.text.replace(/^[@+\-\s]*/, "")).join("\n"), makefile.variables) || rule.prerequisites.some((prerequisite) => runs(prerequisite, depth + 1));
    };
    for (const target of makefile.rules.keys()) if (runs(target, 0)) make.add(target);
    break;
  }
  for (const name of JUSTFILES) {
    const text = read(name);
    if (text === null) continue;
    for (const [recipe, body] of justRecipes(text)) if (runsTests(body)) just.add(recipe);
    break;
  }
  const manifest = read("package.json");
  if (manifest !== null) for (const [name, command] of packageScripts(manifest)) if (runsTests(command)) scripts.add(name);
  const composer = read("composer.json");
  return { make, just, scripts, composer: composer === null ? new Set() : composerTestScripts(composer) };
}
