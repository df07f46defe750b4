/**
 * The language registry, and the start-up rule: nothing imported statically
 * from src/analysis/index.ts may load @babel/parser.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isRalphError } from "../../src/errors.js";
import { getLanguage, isAnalyzable, languageForPath } from "../../src/analysis/index.js";
import { LANGUAGES, extensionOf } from "../../src/analysis/languages/index.js";

const ANALYSIS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/analysis");

describe("the language registry", () => {
  it.each([
    ["test/a.test.ts", true],
    ["src/App.TSX", true],
    ["lib/x.mjs", true],
    ["lib/x.cjs", true],
    ["types/x.d.mts", true],
    ["src/a.kt", false],
    ["Makefile", true], // a test configuration file (src/analysis/config)
    ["docs/Makefile.txt", false],
    [".eslintrc", false],
  ] as const)("isAnalyzable(%s) is %s", (path, expected) => {
    expect(isAnalyzable(path)).toBe(expected);
  });

  it("maps every registered extension to its module, with no extension claimed twice", () => {
    const extensions = LANGUAGES.flatMap((language) => language.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    for (const language of LANGUAGES) {
      for (const extension of language.extensions) expect(languageForPath(`x/y${extension}`)?.id).toBe(language.id);
    }
  });

  it.each([
    ["a/b.test.ts", ".ts"],
    ["a.b/c", ""],
    [".gitignore", ""],
    ["x.JS", ".js"],
  ])("extensionOf(%s) is %j", (path, expected) => {
    expect(extensionOf(path)).toBe(expected);
  });

  it("finds a language by id and names the known ones for an unknown id", () => {
    expect(getLanguage("javascript").extensions).toContain(".tsx");
    let caught: unknown;
    try {
      getLanguage("cobol");
    } catch (error) {
      caught = error;
    }
    expect(isRalphError(caught, "E_USAGE")).toBe(true);
    expect((caught as Error).message).toContain("javascript");
    expect(isRalphError(caught) && caught.data.known).toEqual(LANGUAGES.map((language) => language.id));
  });
});

describe("start-up cost", () => {
  /** Static `import ... from "./x.js"` targets of a module (type-only imports are erased, so skipped). */
  function staticImports(file: string): string[] {
    const source = readFileSync(file, "utf8");
    const targets: string[] = [];
    for (const match of source.matchAll(/^(import|export)\s+(?!type\b)[^;]*?\sfrom\s+"([^"]+)";/gms)) {
      targets.push(match[2] as string);
    }
    return targets;
  }

  it("loads @babel/parser only through a dynamic import", () => {
    const seen = new Set<string>();
    const queue = [resolve(ANALYSIS_DIR, "index.ts")];
    const packages = new Set<string>();
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const target of staticImports(file)) {
        if (target.startsWith(".")) queue.push(resolve(dirname(file), target.replace(/\.js$/, ".ts")));
        else packages.add(target);
      }
    }
    expect(seen.size).toBeGreaterThan(5); // the walk really followed the graph
    expect([...packages].filter((name) => !name.startsWith("node:")).sort()).toEqual([]); // Node built-ins only
    expect(readFileSync(resolve(ANALYSIS_DIR, "parsers/babel.ts"), "utf8")).toContain('import("@babel/parser")');
  });
});
