/**
 * Runner configs ralph did not read before (issue 9): ava `files` (in
 * package.json or ava.config.*), Playwright `testDir`/`testMatch`/`testIgnore`,
 * Cypress `specPattern`/`excludeSpecPattern`. Narrowed or excluded: a
 * test_config_tamper; widened or untouched: nothing.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";

const pkg = (ava: unknown): string => `${JSON.stringify({ name: "shop", scripts: { test: "ava" }, ava }, null, 2)}\n`;
const module = (body: string): string => `export default ${body};\n`;
const playwright = (body: string): string => `import { defineConfig } from "@playwright/test";\nexport default defineConfig(${body});\n`;
const cypress = (body: string): string => `import { defineConfig } from "cypress";\nexport default defineConfig(${body});\n`;

const flags: [string, string, string, string][] = [
  ["ava files narrowed in package.json", "package.json", pkg({ files: ["test/**/*.js"] }), pkg({ files: ["test/cart.js"] })],
  ["ava files gain a ! exclusion", "package.json", pkg({ files: ["test/**/*.js"] }), pkg({ files: ["test/**/*.js", "!test/checkout.js"] })],
  ["ava.config.js files narrowed", "ava.config.js", module(`{ files: ["test/**/*.js"] }`), module(`{ files: ["test/unit/**/*.js"] }`)],
  ["Playwright testIgnore added", "playwright.config.ts", playwright(`{ testDir: "./e2e" }`), playwright(`{ testDir: "./e2e", testIgnore: ["**/checkout.spec.ts"] }`)],
  ["Playwright testMatch narrowed", "playwright.config.ts", playwright(`{ testDir: "./e2e", testMatch: ["**/*.spec.ts"] }`), playwright(`{ testDir: "./e2e", testMatch: ["**/login.spec.ts"] }`)],
  [
    "Cypress excludeSpecPattern added",
    "cypress.config.ts",
    cypress(`{ e2e: { specPattern: "cypress/e2e/**/*.cy.ts" } }`),
    cypress(`{ e2e: { specPattern: "cypress/e2e/**/*.cy.ts", excludeSpecPattern: ["cypress/e2e/pay.cy.ts"] } }`),
  ],
];

const passes: [string, string, string, string][] = [
  ["ava files widened", "package.json", pkg({ files: ["test/unit/**/*.js"] }), pkg({ files: ["test/**/*.js"] })],
  ["ava verbose turned on", "package.json", pkg({ files: ["test/**/*.js"] }), pkg({ files: ["test/**/*.js"], verbose: true })],
  ["Playwright retries changed", "playwright.config.ts", playwright(`{ testDir: "./e2e", retries: 0 }`), playwright(`{ testDir: "./e2e", retries: 2 }`)],
  ["Cypress baseUrl changed", "cypress.config.ts", cypress(`{ e2e: { baseUrl: "http://localhost:3000" } }`), cypress(`{ e2e: { baseUrl: "http://localhost:4000" } }`)],
];

describe("ava, Playwright and Cypress configs", () => {
  it.each(flags)("flags %s", async (_name, path, before, after) => {
    const analysis = await analyzeChanges([{ path, before, after }]);
    expect(analysis.findings.map((finding) => `${finding.type} ${finding.file}`)).toEqual([`test_config_tamper ${path}`]);
  });

  it.each(passes)("passes %s", async (_name, path, before, after) => {
    const analysis = await analyzeChanges([{ path, before, after }]);
    expect(analysis.findings).toEqual([]);
  });
});
