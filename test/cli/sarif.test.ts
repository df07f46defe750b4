/**
 * `--format sarif` against the published SARIF 2.1.0 schema
 * (test/fixtures/sarif-2.1.0.schema.json: the OASIS errata01 schema from
 * oasis-tcs/sarif-spec, sarif-2.1/schema/sarif-schema-2.1.0.json), validated
 * with ajv: the reporter on an in-memory judgement, and the CLI (in-process,
 * runCli) on a real repository.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../src/analysis/index.js";
import { SARIF_RULES, judgementToSarif, renderJudgementSarif, sarifLevel } from "../../src/cli/reporters/sarif.js";
import type { Judgement } from "../../src/loop/check.js";
import { runRalphInProcess } from "../helpers/cli.js";
import { commitAll, makeRepo, writeFiles } from "../helpers/git.js";

const SCHEMA_PATH = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/sarif-2.1.0.schema.json");

/**
 * The schema is draft-04 (`id`, draft-04 `$schema`); ajv 8 speaks draft-07
 * and later. Its keywords are the same in both drafts (no boolean
 * exclusiveMinimum), so only the root id keyword is renamed.
 */
function compileSarifValidator() {
  const { id, $schema: _draft, ...schema } = JSON.parse(readFileSync(SCHEMA_PATH, "utf8")) as Record<string, unknown>;
  expect(JSON.stringify(schema)).not.toMatch(/"exclusiveM(in|ax)imum":\s*(true|false)/);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile({ ...schema, $id: String(id) });
}

const validate = compileSarifValidator();

function expectValid(log: unknown): void {
  const ok = validate(log);
  expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
  expect(ok).toBe(true);
}

const TEST_BEFORE = `import { expect, it } from "vitest";
it("adds", async () => { expect(1 + 1).toBe(2); });
it("subtracts", async () => { expect(2 - 1).toBe(1); });
`;

async function sampleJudgement(): Promise<Judgement> {
  const analysis = await analyzeChanges(
    [
      { path: "test/math dir/math.test.ts", before: TEST_BEFORE, after: TEST_BEFORE.replace(/it\("subtracts".*\n/, "") },
      { path: "package.json", before: '{ "scripts": { "test": "vitest run" } }', after: '{ "scripts": { "test": "vitest run || true" } }' },
      { path: "coverage/coverage-summary.json", before: '{"total":{"lines":{"pct":90}}}', after: '{"total":{"lines":{"pct":80}}}' },
    ],
    { allow: [{ type: "coverage_regression", reason: "dropped the legacy exporter" }] },
  );
  return { ...analysis, from: "a".repeat(40), to: "WORKTREE", stats: { ...analysis.stats, duration_ms: 5 }, changes: [], warnings: [] };
}

describe("the SARIF reporter", () => {
  it("writes a log the 2.1.0 schema accepts, with one result per finding", async () => {
    const judgement = await sampleJudgement();
    const log = judgementToSarif(judgement, "1.2.3") as {
      runs: { tool: { driver: { name: string; rules: { id: string; defaultConfiguration: { level: string } }[] } }; results: Record<string, unknown>[] }[];
    };
    expectValid(log);
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    expect(run.tool.driver.name).toBe("ralph");
    expect(run.tool.driver.rules.map((rule) => rule.id)).toEqual(SARIF_RULES.map((rule) => rule.type));
    expect(run.tool.driver.rules.find((rule) => rule.id === "coverage_regression")?.defaultConfiguration.level).toBe("warning");
    expect(run.results).toHaveLength(judgement.findings.length);

    const deletion = run.results.find((result) => result.ruleId === "test_deletion");
    expect(deletion).toMatchObject({
      level: "error",
      locations: [{ physicalLocation: { artifactLocation: { uri: "test/math%20dir/math.test.ts" }, region: { startLine: 3 } } }],
      properties: { severity: "critical", test: "subtracts" },
    });
    expect(deletion).not.toHaveProperty("suppressions");

    const tamper = run.results.find((result) => result.ruleId === "test_config_tamper");
    expect(tamper).toMatchObject({ level: "error", ruleIndex: SARIF_RULES.findIndex((rule) => rule.type === "test_config_tamper") });

    const coverage = run.results.find((result) => result.ruleId === "coverage_regression");
    expect(coverage).toMatchObject({ level: "warning", suppressions: [{ kind: "external", status: "accepted", justification: "dropped the legacy exporter" }] });
    expect((coverage?.locations as { physicalLocation: Record<string, unknown> }[])[0]?.physicalLocation).not.toHaveProperty("region");
  });

  it("writes a valid log with no results", async () => {
    const analysis = await analyzeChanges([]);
    expectValid(JSON.parse(renderJudgementSarif({ ...analysis, from: "b".repeat(40), to: "c".repeat(40), stats: { ...analysis.stats, duration_ms: 1 }, changes: [], warnings: [] })));
  });

  it.each([
    ["critical", "error"],
    ["high", "error"],
    ["medium", "warning"],
    ["low", "note"],
  ] as const)("maps %s to %s", async (severity, level) => {
    expect(sarifLevel(severity)).toBe(level);
  });

  it("rejects what the schema rejects (the validator is live)", async () => {
    expect(validate({ version: "2.1.0", runs: [{ tool: { driver: {} } }] })).toBe(false);
    expect(validate({ version: "2.0.0", runs: [] })).toBe(false);
  });
});

describe("ralph check --format sarif", () => {
  it("prints a schema-valid log for a real change and exits 1 on BLOCK", async () => {
    const root = makeRepo({
      "package.json": '{\n  "name": "x",\n  "scripts": {\n    "test": "vitest run"\n  }\n}\n',
      "test/a.test.ts": TEST_BEFORE,
      // A second test file, so narrowing the script to test/a.test.ts leaves tests out (a command that still runs every test narrows nothing).
      "test/b.test.ts": TEST_BEFORE,
      ".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n",
    });
    writeFiles(root, {
      "package.json": '{\n  "name": "x",\n  "scripts": {\n    "test": "vitest run test/a.test.ts"\n  }\n}\n',
      ".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n        continue-on-error: true\n",
    });
    commitAll(root, "narrow the tests");

    const result = await runRalphInProcess(root, ["check", "--from", "HEAD~1", "--to", "HEAD", "--format", "sarif"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(1);
    const log = JSON.parse(result.stdout) as {
      runs: { results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[] }[]; properties: { verdict: string } }[];
    };
    expectValid(log);
    const results = log.runs[0]?.results ?? [];
    expect(log.runs[0]?.properties.verdict).toBe("BLOCK");
    expect(results.map((r) => [r.ruleId, r.locations[0]?.physicalLocation.artifactLocation.uri, r.locations[0]?.physicalLocation.region?.startLine]).sort()).toEqual([
      ["test_config_tamper", ".github/workflows/ci.yml", 7],
      ["test_config_tamper", "package.json", 4],
    ]);
  });
});
