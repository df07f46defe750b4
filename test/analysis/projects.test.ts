/**
 * vitest `test.projects` and jest `projects` written inline: a file is
 * collected when any project collects it (issue 9, runner configs). A
 * project added collects more and is no finding; a project removed takes
 * its files' tests out of discovery.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, TestDiscovery } from "../../src/analysis/index.js";
import { changesBetween, treeOf } from "../helpers/trees.js";

const TEST = `import { expect, it } from "vitest";\nit("adds", () => { expect(1 + 1).toBe(2); });\n`;
const vitestProjects = (projects: string): string => `import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { projects: [${projects}] } });\n`;
const UNIT = `{ test: { name: "unit", include: ["src/**/*.test.ts"] } }`;
const E2E = `{ extends: true, test: { name: "e2e", include: ["e2e/**/*.test.ts"], environment: "node" } }`;
const jestProjects = (projects: string): string => `module.exports = { projects: [${projects}] };\n`;
const JEST_UNIT = `{ displayName: "unit", testMatch: ["<rootDir>/src/**/*.test.js"] }`;
const JEST_E2E = `{ displayName: "e2e", testMatch: ["<rootDir>/e2e/**/*.test.js"] }`;

async function summaries(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
  const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) } });
  return analysis.findings.map((finding) => `${finding.type}/${finding.severity} ${finding.file}${finding.test ? ` "${finding.test}"` : ""}`);
}

describe("runner projects", () => {
  it("collects a file when any vitest project collects it", async () => {
    const discovery = new TestDiscovery(treeOf({ "vitest.config.ts": vitestProjects(`${UNIT}, ${E2E}`), "src/a.test.ts": TEST, "e2e/b.test.ts": TEST, "scripts/c.test.ts": TEST }));
    expect((await discovery.collection("src/a.test.ts")).collected).toBe(true);
    expect((await discovery.collection("e2e/b.test.ts")).collected).toBe(true);
    expect((await discovery.collection("scripts/c.test.ts")).collected).toBe(false);
  });

  it("a vitest project added is no finding", async () => {
    const files = { "src/a.test.ts": TEST, "e2e/b.test.ts": TEST };
    expect(await summaries({ ...files, "vitest.config.ts": vitestProjects(UNIT) }, { ...files, "vitest.config.ts": vitestProjects(`${UNIT}, ${E2E}`) })).toEqual([]);
  });

  it("a vitest project removed takes its tests out", async () => {
    const files = { "src/a.test.ts": TEST, "e2e/b.test.ts": TEST };
    expect(await summaries({ ...files, "vitest.config.ts": vitestProjects(`${UNIT}, ${E2E}`) }, { ...files, "vitest.config.ts": vitestProjects(UNIT) })).toContain(
      'test_disabled/critical e2e/b.test.ts "adds"',
    );
  });

  it("a jest project added is no finding; one removed takes its tests out", async () => {
    const test = `test("adds", () => { expect(1 + 1).toBe(2); });\n`;
    const files = { "src/a.test.js": test, "e2e/b.test.js": test };
    expect(await summaries({ ...files, "jest.config.js": jestProjects(JEST_UNIT) }, { ...files, "jest.config.js": jestProjects(`${JEST_UNIT}, ${JEST_E2E}`) })).toEqual([]);
    expect(await summaries({ ...files, "jest.config.js": jestProjects(`${JEST_UNIT}, ${JEST_E2E}`) }, { ...files, "jest.config.js": jestProjects(JEST_UNIT) })).toContain(
      'test_disabled/critical e2e/b.test.js "adds"',
    );
  });
});
