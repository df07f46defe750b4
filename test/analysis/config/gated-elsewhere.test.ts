/**
 * A test job removed while another workflow of the tree still makes its
 * runs (config/ci.ts gatedElsewhere; sweep of mikel/mail 9a7e2bf499, "Drop
 * unused GH Action workflow"): adhoc.yml ran `bundle exec rake spec` on
 * pushes and pull requests to the feature branch `feature/parse_lf`, and
 * test.yml, unchanged, runs `bundle exec rake spec` on master. A job that
 * ran only for named branches, whose runs another workflow makes on other
 * branches, gated only those branches: low, not critical. When the other
 * workflow runs them on every branch the removed job ran for, nothing is
 * lost: no finding. The removed job's runs must all be made there (the
 * same runner, every option given again, command.ts coversRuns); a job
 * that ran on every branch, or whose runs are made nowhere else, or are
 * made only on demand, stays critical.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { changesBetween, treeOf } from "../../helpers/trees.js";

const job = (run: string, extra = ""): string => `jobs:\n  ruby:\n    runs-on: ubuntu-latest\n${extra}    steps:\n      - uses: actions/checkout@v4\n      - run: ${run}\n`;
const on = (trigger: string): string => `name: CI\non:\n${trigger}\n`;
const branches = (names: string[]): string => `  push:\n    branches: [ ${names.join(", ")} ]\n  pull_request:\n    branches: [ ${names.join(", ")} ]`;

const ADHOC = on(`  workflow_dispatch:\n${branches(["feature/parse_lf"])}`) + job("bundle exec rake spec");
const MASTER = on(`  workflow_dispatch:\n${branches(["master"])}`) + job("bundle exec rake spec");

/** The critical, high and low findings of deleting `removed` from a tree that keeps `kept` unchanged. */
async function findingsOf(removed: string, kept: Record<string, string>): Promise<string[]> {
  const before = { ".github/workflows/adhoc.yml": removed, ...kept, Rakefile: "task :spec\n" };
  const after = { ...kept, Rakefile: "task :spec\n" };
  const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) } });
  return analysis.findings.map((finding) => `${finding.type}/${finding.severity} ${finding.file}`);
}

describe("a removed test job whose runs another workflow makes", () => {
  it("a feature branch's workflow removed, the same runs made on master by an unchanged workflow: low", async () => {
    expect(await findingsOf(ADHOC, { ".github/workflows/test.yml": MASTER })).toEqual(["test_config_tamper/low .github/workflows/adhoc.yml"]);
  });

  it("the other workflow runs them on every branch: no finding", async () => {
    expect(await findingsOf(ADHOC, { ".github/workflows/test.yml": on("  push:\n  pull_request:") + job("bundle exec rake spec") })).toEqual([]);
  });

  it("the other workflow runs them on the same branch: no finding", async () => {
    expect(await findingsOf(ADHOC, { ".github/workflows/test.yml": on(branches(["master", "feature/parse_lf"])) + job("bundle exec rake spec") })).toEqual([]);
  });

  it("the removed job ran on every branch, the other only on master: critical", async () => {
    expect(await findingsOf(on("  push:\n  pull_request:") + job("bundle exec rake spec"), { ".github/workflows/test.yml": MASTER })).toEqual([
      "test_config_tamper/critical .github/workflows/adhoc.yml",
    ]);
  });

  it("the other workflow runs another selection of the runner: critical", async () => {
    const integration = on(`  workflow_dispatch:\n${branches(["release"])}`) + job("bundle exec rspec spec/integration");
    expect(await findingsOf(integration, { ".github/workflows/test.yml": on(branches(["master"])) + job("bundle exec rspec spec/unit") })).toEqual([
      "test_config_tamper/critical .github/workflows/adhoc.yml",
    ]);
  });

  it("the other workflow runs them only on demand: critical", async () => {
    expect(await findingsOf(ADHOC, { ".github/workflows/test.yml": on("  workflow_dispatch:") + job("bundle exec rake spec") })).toEqual(["test_config_tamper/critical .github/workflows/adhoc.yml"]);
  });

  it("the other workflow's step is continue-on-error on some matrix cells only: low", async () => {
    const matrix = MASTER.replace("      - run: bundle exec rake spec\n", "      - run: bundle exec rake spec\n        continue-on-error: ${{ matrix.ruby == 'truffleruby-head' }}\n");
    expect(await findingsOf(ADHOC, { ".github/workflows/test.yml": matrix })).toEqual(["test_config_tamper/low .github/workflows/adhoc.yml"]);
  });

  it("the other workflow matches the feature branch by a glob: no finding", async () => {
    expect(await findingsOf(ADHOC, { ".github/workflows/test.yml": on(branches(["'feature/**'", "master"])) + job("bundle exec rake spec") })).toEqual([]);
  });

  // A cold review's cheats: the other workflow does not really make the runs, or the removed job gated an integration branch.
  const MAIN_CI = on(branches(["main"])) + job("bundle exec rake spec");
  const CRITICAL = ["test_config_tamper/critical .github/workflows/adhoc.yml"];
  it.each([
    ["only on release tags", on("  push:\n    tags: [ 'v*' ]") + job("bundle exec rake spec")],
    ["only when docs change (paths)", on("  push:\n    paths: [ 'docs/**' ]\n  pull_request:\n    paths: [ 'docs/**' ]") + job("bundle exec rake spec")],
    ["its job with continue-on-error", on("  push:\n  pull_request:") + job("bundle exec rake spec", "    continue-on-error: true\n")],
    ["its job under if: false", on("  push:\n  pull_request:") + job("bundle exec rake spec", "    if: false\n")],
    ["its job only on workflow_dispatch by if", on("  push:\n  pull_request:") + job("bundle exec rake spec", "    if: github.event_name == 'workflow_dispatch'\n")],
    [
      "its step with continue-on-error",
      on("  push:\n  pull_request:") +
        "jobs:\n  ruby:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: bundle exec rake spec\n        continue-on-error: true\n",
    ],
    ["its step ending in || true", on("  push:\n  pull_request:") + job("bundle exec rake spec || true")],
    [
      "only on labeled pull requests and a path nobody changes",
      on("  pull_request:\n    types: [ labeled ]\n  push:\n    branches: [ main ]\n    paths: [ 'never/**' ]") + job("bundle exec rake spec"),
    ],
    ["on every branch but main (branches-ignore)", on("  push:\n    branches-ignore: [ main ]\n  pull_request:\n    branches-ignore: [ main ]") + job("bundle exec rake spec")],
    [
      "in another folder (working-directory)",
      on("  push:\n  pull_request:") +
        "jobs:\n  ruby:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: bundle exec rake spec\n        working-directory: gems/legacy\n",
    ],
    ["only on develop, while the removed job gated main", on(branches(["develop"])) + job("bundle exec rake spec")],
  ])("the other workflow runs the specs %s: critical", async (_name, other) => {
    expect(await findingsOf(MAIN_CI, { ".github/workflows/other.yml": other })).toEqual(CRITICAL);
  });

  it("no other workflow: critical", async () => {
    expect(await findingsOf(ADHOC, {})).toEqual(["test_config_tamper/critical .github/workflows/adhoc.yml"]);
  });
});
