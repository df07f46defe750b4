/**
 * Runs every before/after tree under fixtures/languages/<lang>/ of the
 * tree-sitter languages through analyzeChanges and checks the verdict and the
 * findings in expected.json (test/helpers/fixture-trees.ts); every file must
 * be analysed. The scenarios are copies of the shared corpus cases for these
 * languages.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runScenario, scenariosIn } from "../../helpers/fixture-trees.js";
import { TREE_SITTER_LANGUAGES } from "./cases.js";

const FIXTURES_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../fixtures/languages");
const scenarios = TREE_SITTER_LANGUAGES.flatMap((language) => scenariosIn(join(FIXTURES_ROOT, language)).map((name) => `${language}/${name}`));

describe("tree-sitter language fixture trees", () => {
  it("has scenarios to run", () => {
    expect(scenarios.length).toBeGreaterThan(0);
  });

  it.each(scenarios)("%s", async (scenario) => {
    const analysis = await runScenario(join(FIXTURES_ROOT, scenario));
    expect(analysis.not_analyzed).toEqual([]);
  });
});
