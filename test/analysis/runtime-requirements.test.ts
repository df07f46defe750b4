/** Runtime requirements stated by messages (runtime-requirements.ts), met or not by a project's stated support. */
import { describe, expect, it } from "vitest";
import { isMetBySupport, runtimeRequirementOf } from "../../src/analysis/runtime-requirements.js";
import type { Runtime, StatedSupport } from "../../src/analysis/support.js";

describe("runtimeRequirementOf", () => {
  it.each([
    ["Node.js v10 or higher is required for regex lookbehinds", "node", [10]],
    ["/Node\\.js v10 or higher/", "node", [10]],
    ["This feature requires Python 3.8+", "python", [3, 8]],
    ["PHP >= 8.1 is required", "php", [8, 1]],
    ["Ruby 2.7 and later only", "ruby", [2, 7]],
    ["needs Go 1.18", "go", [1, 18]],
  ])("%s", (message, runtime, version) => {
    expect(runtimeRequirementOf(message)).toEqual({ runtime, version });
  });
  it("reads nothing from messages that name no runtime requirement", () => {
    expect(runtimeRequirementOf("invalid less function")).toBeNull();
    expect(runtimeRequirementOf("version 10 or higher of the schema is required")).toBeNull();
    expect(runtimeRequirementOf("Python objects are not supported")).toBeNull();
  });
});

describe("isMetBySupport", () => {
  const stated = new Map<Runtime, StatedSupport>([["node", { runtime: "node", path: "package.json", requirement: ">=10", minimum: [10] }]]);
  it("holds when the stated minimum is at or above the requirement", () => {
    expect(isMetBySupport({ runtime: "node", version: [10] }, stated)).toBe(true);
    expect(isMetBySupport({ runtime: "node", version: [8, 10] }, stated)).toBe(true);
  });
  it("fails for a higher requirement or a runtime the manifests do not state", () => {
    expect(isMetBySupport({ runtime: "node", version: [12] }, stated)).toBe(false);
    expect(isMetBySupport({ runtime: "python", version: [3, 8] }, stated)).toBe(false);
  });
});
