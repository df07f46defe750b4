/**
 * A CI step's `make`/`just`/npm-script target followed one level (issue 9):
 * `make richtest || true` where the target runs the tests is masked like
 * `pytest || true`; a target that runs no tests stays out of it.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type Finding } from "../../../src/analysis/index.js";
import { testTargetsOf } from "../../../src/analysis/config/targets.js";
import { changesBetween, treeOf } from "../../helpers/trees.js";

const workflow = (run: string): string => `name: ci\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: ${run}\n`;
const gitlab = (script: string): string => `stages: [build]\nbuild:\n  stage: build\n  script:\n    - ${script}\n`;

const MAKEFILE = "richtest:\n\tpytest -q tests\n\nlint:\n\truff check .\n\nall: richtest\n";
const JUSTFILE = "verify:\n    cargo test --workspace\n\nfmt:\n    cargo fmt\n";
const PACKAGE = `${JSON.stringify({ name: "shop", scripts: { verify: "vitest run", build: "tsc" } }, null, 2)}\n`;
const COMPOSER = `${JSON.stringify({ name: "acme/csv", scripts: { phpunit: "php vendor/bin/phpunit --coverage-text", check: ["@phpstan", "@phpunit"], phpstan: "phpstan analyse", "test-all": ["@php vendor/bin/phpunit"] } }, null, 2)}\n`;

async function findingsOf(before: Record<string, string>, after: Record<string, string>): Promise<Finding[]> {
  const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) } });
  return analysis.findings;
}

describe("CI targets followed one level", () => {
  it("reads which make targets, just recipes and npm scripts run tests", () => {
    const files: Record<string, string> = { Makefile: MAKEFILE, justfile: JUSTFILE, "package.json": PACKAGE };
    const targets = testTargetsOf((path) => files[path] ?? null);
    expect([...targets.make].sort()).toEqual(["all", "richtest"]);
    expect([...targets.just]).toEqual(["verify"]);
    expect([...targets.scripts]).toEqual(["verify"]);
  });

  it("reads which composer scripts run tests, through @references and @php (getcomposer.org scripts)", () => {
    const targets = testTargetsOf((path) => (path === "composer.json" ? COMPOSER : null));
    expect([...(targets.composer ?? [])].sort()).toEqual(["check", "phpunit", "test-all"]);
  });

  const PHP_JOB = (steps: string): string =>
    `name: ci\non: [push]\njobs:\n  linux_tests:\n    runs-on: ubuntu-22.04\n    strategy:\n      matrix:\n        php: ['8.2', '8.3', '8.4', '8.5']\n    steps:\n      - uses: actions/checkout@v4\n${steps}`;
  const WITH = "      - name: Run Unit tests with coverage\n        run: composer phpunit\n";
  const WITHOUT = "      - name: Run Unit tests without coverage\n        run: vendor/bin/phpunit --no-coverage\n        if: ${{ matrix.php == '8.5' }}\n";
  const GATED = "        if: ${{ matrix.php != '8.5' }}\n";

  it("passes two test steps under complementary conditions merged into one that runs everywhere (sweep of thephpleague/csv 583f7f66f)", async () => {
    const base = { "composer.json": COMPOSER };
    const findings = await findingsOf({ ...base, ".github/workflows/build.yml": PHP_JOB(WITH + GATED + WITHOUT) }, { ...base, ".github/workflows/build.yml": PHP_JOB(WITH) });
    expect(findings).toEqual([]);
  });

  it("flags the step for the other cells removed while the remaining one keeps its condition", async () => {
    const base = { "composer.json": COMPOSER };
    const findings = await findingsOf({ ...base, ".github/workflows/build.yml": PHP_JOB(WITH + GATED + WITHOUT) }, { ...base, ".github/workflows/build.yml": PHP_JOB(WITH + GATED) });
    expect(findings.map((finding) => `${finding.type}/${finding.severity} ${finding.file}`)).toEqual(["test_config_tamper/critical .github/workflows/build.yml"]);
  });

  it("flags composer check || true, check calling @phpunit", async () => {
    const base = { "composer.json": COMPOSER };
    const findings = await findingsOf({ ...base, ".github/workflows/ci.yml": workflow("composer check") }, { ...base, ".github/workflows/ci.yml": workflow("composer check || true") });
    expect(findings.map((finding) => `${finding.type}/${finding.severity} ${finding.file}`)).toEqual(["test_config_tamper/critical .github/workflows/ci.yml"]);
  });

  it.each([
    ["make richtest || true (GitHub)", ".github/workflows/ci.yml", workflow("make richtest"), workflow("make richtest || true")],
    ["make all || true, all depending on the test target", ".github/workflows/ci.yml", workflow("make all"), workflow("make all || true")],
    ["just verify || true", ".github/workflows/ci.yml", workflow("just verify"), workflow("just verify || true")],
    ["npm run verify || true", ".github/workflows/ci.yml", workflow("npm run verify"), workflow("npm run verify || true")],
    ["make richtest || true (GitLab)", ".gitlab-ci.yml", gitlab("make richtest"), gitlab("make richtest || true")],
    ["the make step replaced by echo", ".github/workflows/ci.yml", workflow("make richtest"), workflow("echo ok")],
  ])("flags %s", async (_name, path, before, after) => {
    const base = { Makefile: MAKEFILE, justfile: JUSTFILE, "package.json": PACKAGE };
    const findings = await findingsOf({ ...base, [path]: before }, { ...base, [path]: after });
    expect(findings.map((finding) => `${finding.type}/${finding.severity} ${finding.file}`)).toEqual([`test_config_tamper/critical ${path}`]);
  });

  it.each([
    ["make lint || true: the target runs no tests", workflow("make lint"), workflow("make lint || true")],
    ["npm run build || true", workflow("npm run build"), workflow("npm run build || true")],
    ["just fmt || true", workflow("just fmt"), workflow("just fmt || true")],
  ])("passes %s", async (_name, before, after) => {
    const base = { Makefile: MAKEFILE, justfile: JUSTFILE, "package.json": PACKAGE };
    const findings = await findingsOf({ ...base, ".github/workflows/ci.yml": before }, { ...base, ".github/workflows/ci.yml": after });
    expect(findings).toEqual([]);
  });

  it("follows a Makefile changed in the same diff without trees", async () => {
    const analysis = await analyzeChanges([
      { path: "Makefile", before: null, after: MAKEFILE },
      { path: ".github/workflows/ci.yml", before: workflow("make richtest"), after: workflow("make richtest || true") },
    ]);
    expect(analysis.findings.map((finding) => finding.file)).toContain(".github/workflows/ci.yml");
  });
});
