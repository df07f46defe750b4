/**
 * The tree-sitter languages are declared with defineLanguage
 * (src/analysis/languages/define-language.ts): each module carries its
 * declaration, whose query files sit beside its grammar in grammars/<id>/,
 * and its extract is the shared pipeline (a parse failure is facts, not a throw).
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../../src/analysis/languages/index.js";
import type { DefinedLanguage } from "../../../src/analysis/languages/define-language.js";

const TREE_SITTER = LANGUAGES.filter((language): language is (typeof LANGUAGES)[number] & DefinedLanguage<string> => "definition" in language);

describe("defineLanguage", () => {
  it("declares the seven tree-sitter languages", () => {
    expect(TREE_SITTER.map((language) => language.id).sort()).toEqual(["csharp", "go", "java", "php", "python", "ruby", "rust"]);
  });

  it.each(TREE_SITTER.map((language) => [language.id, language] as const))("%s: its queries sit beside its grammar, its module is its declaration", (id, language) => {
    const { definition } = language;
    expect(definition.id).toBe(id);
    expect(language.extensions).toEqual(definition.extensions);
    expect(language.isTestPath).toBe(definition.isTestPath);
    expect(definition.queries.length).toBeGreaterThan(0);
    for (const query of definition.queries) expect(existsSync(new URL(`../../../grammars/${id}/${query}.scm`, import.meta.url))).toBe(true);
    expect(Object.keys(definition.code).length).toBeGreaterThan(0);
  });

  it.each(TREE_SITTER.map((language) => [language.id, language] as const))("%s: extract reads a file and never throws on nonsense", async (_id, language) => {
    const facts = await language.extract(`src/x${language.extensions[0]}`, "\u0000 ((( }}} <<<");
    expect(facts.language).toBe(language.id);
    expect(Array.isArray(facts.tests)).toBe(true);
  });
});
