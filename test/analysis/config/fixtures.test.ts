/**
 * Runs every before/after tree under fixtures/config/ through analyzeChanges
 * and checks the verdict and findings in its expected.json
 * (test/helpers/fixture-trees.ts). Four scenarios are copies of shared corpus
 * cases (ci-continue-on-error, js-test-script-or-true, js-vitest-exclude,
 * py-makefile-narrowed); the others are ralph's own, in both directions.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expectedOf, runScenario, scenariosIn } from "../../helpers/fixture-trees.js";

const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../../fixtures/config");
const scenarios = scenariosIn(FIXTURES_DIR);

describe("config fixture trees", () => {
  it("has the corpus cases and both directions", () => {
    expect(scenarios).toEqual(expect.arrayContaining(["ci-continue-on-error", "js-test-script-or-true", "js-vitest-exclude", "py-makefile-narrowed"]));
    const verdicts = scenarios.map((scenario) => expectedOf(join(FIXTURES_DIR, scenario)).verdict);
    expect(new Set(verdicts)).toEqual(new Set(["PASS", "WARN", "BLOCK"]));
  });

  it.each(scenarios)("%s", async (scenario) => {
    await runScenario(join(FIXTURES_DIR, scenario));
  });
});
