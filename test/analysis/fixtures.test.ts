/**
 * Runs every before/after tree under fixtures/languages/javascript/ through
 * analyzeChanges and checks the verdict and the findings in expected.json
 * (test/helpers/fixture-trees.ts). Several scenarios are copies of the shared
 * corpus cases.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runScenario, scenariosIn } from "../helpers/fixture-trees.js";

const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../fixtures/languages/javascript");
const scenarios = scenariosIn(FIXTURES_DIR);

describe("fixture trees", () => {
  it("has scenarios to run", () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(10);
  });

  it.each(scenarios)("%s", async (scenario) => {
    await runScenario(join(FIXTURES_DIR, scenario));
  });
});
