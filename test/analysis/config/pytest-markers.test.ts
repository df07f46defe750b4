/**
 * pytest `-m "not x"` in addopts (issue 9): excluding a marker registered in
 * the same change deselects no existing test, so it is no tamper; excluding
 * a marker that existed before still is.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";

const ini = (addopts: string, markers: string[]): string => `[pytest]\naddopts = ${addopts}\n${markers.length > 0 ? `markers =\n${markers.map((m) => `    ${m}`).join("\n")}\n` : ""}`;
const toml = (addopts: string, markers: string[]): string => `[tool.pytest.ini_options]\naddopts = "${addopts}"\nmarkers = [${markers.map((m) => `"${m}"`).join(", ")}]\n`;

describe("pytest markers excluded by -m", () => {
  it.each([
    ["pytest.ini", ini("-q", []), ini(`-q -m "not gpu"`, ["gpu: needs a GPU"])],
    ["pyproject.toml", toml("-q", []), toml("-q -m 'not gpu and not slow'", ["gpu: needs a GPU", "slow: takes minutes"])],
  ])("a new marker excluded in %s is no finding", async (path, before, after) => {
    expect((await analyzeChanges([{ path, before, after }])).findings).toEqual([]);
  });

  it.each([
    ["an existing marker excluded", ini("-q", ["slow: takes minutes"]), ini(`-q -m "not slow"`, ["slow: takes minutes"])],
    ["a new marker excluded with an existing one", ini("-q", ["slow: takes minutes"]), ini(`-q -m "not slow and not gpu"`, ["slow: takes minutes", "gpu: needs a GPU"])],
    ["a new marker selected (only its tests run)", ini("-q", []), ini(`-q -m gpu`, ["gpu: needs a GPU"])],
  ])("flags %s", async (_name, before, after) => {
    const findings = (await analyzeChanges([{ path: "pytest.ini", before, after }])).findings;
    expect(findings.map((finding) => finding.type)).toEqual(["test_config_tamper"]);
  });
});
