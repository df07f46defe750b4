/**
 * Test steps of one runner merged into one step (sweep of rust-lang/log
 * 5fcb50eccd: ten `cargo test --verbose --features X` steps ->
 * `cargo hack test --feature-powerset --lib --exclude-features …`): each
 * removed step is compared with the step that now makes its runs, so only
 * what that step really narrows is reported (there: `--lib`, which leaves
 * the integration tests and doctests out), not ten removed steps. A step
 * whose feature set the merged step does not turn on, or whose option
 * selects runs the merged step does not make (`--ignored`, `-tags`,
 * `--release`, `--config`), is still removed, and the merged step's
 * continue-on-error and `if` are judged as a partner's. cargo-hack's and
 * nextest's value options are no test filters.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";

type StepText = string | { run: string; continueOnError: true };
const workflow = (steps: StepText[]): string =>
  `name: CI\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n${steps
    .map((step) => (typeof step === "string" ? `      - run: ${step}\n` : `      - run: ${step.run}\n        continue-on-error: true\n`))
    .join("")}`;

const CARGO = '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\nstd = []\nserde = []\nkv = []\n';

async function messagesOf(before: StepText[], after: StepText[], extra: { path: string; content: string }[] = []): Promise<string[]> {
  const analysis = await analyzeChanges([
    { path: ".github/workflows/ci.yml", before: workflow(before), after: workflow(after) },
    ...extra.map((file) => ({ path: file.path, before: file.content, after: file.content })),
  ]);
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => finding.message);
}

const PER_FEATURE = [
  "cargo test --verbose",
  "cargo test --verbose --no-default-features",
  "cargo test --verbose --features std,serde",
  "cargo test --verbose --features kv",
  'cargo test --verbose --features "kv std"',
];
const cargo = [{ path: "Cargo.toml", content: CARGO }];

describe("test steps of one runner merged into one step", () => {
  it("look-alike: per-feature cargo test steps merged into cargo hack --feature-powerset", async () => {
    expect(await messagesOf(PER_FEATURE, ["cargo install cargo-hack", "cargo hack test --feature-powerset --exclude-features max_level_off"], cargo)).toEqual([]);
  });

  it("look-alike: per-feature cargo nextest steps merged into one --all-features run", async () => {
    expect(await messagesOf(["cargo nextest run --features std", "cargo nextest run --features serde"], ["cargo nextest run --all-features --retries 2 --test-threads 4"], cargo)).toEqual([]);
  });

  it("look-alike: cargo test steps merged into one that turns every feature they did on", async () => {
    expect(await messagesOf(["cargo test --features std", "cargo test --features serde"], ["cargo test --features std,serde"], cargo)).toEqual([]);
  });

  it("look-alike: pytest steps of two folders merged into one run of their parent", async () => {
    expect(await messagesOf(["pytest tests/unit", "pytest tests/integration"], ["pytest tests"])).toEqual([]);
  });

  it("cheat: the merged step selects only the library's unit tests (--lib): one narrowing, not a removal per step", async () => {
    const messages = await messagesOf(PER_FEATURE, ["cargo hack test --feature-powerset --lib --exclude-features max_level_off"], cargo);
    expect(messages.length).toBeGreaterThan(0);
    expect(messages.every((message) => message.includes('"--lib"'))).toBe(true);
    expect(messages.some((message) => message.includes("was removed"))).toBe(false);
  });

  it("cheat: per-feature steps merged into a run of the default features only", async () => {
    const messages = await messagesOf(["cargo test", "cargo test --features serde", "cargo test --features kv"], ["cargo test"], cargo);
    expect(messages.filter((message) => message.includes("was removed"))).toHaveLength(2);
  });

  const goMod = [{ path: "go.mod", content: "module example.com/x\n\ngo 1.22\n" }];
  const dropped: [string, StepText[], StepText[], { path: string; content: string }[]][] = [
    ["the no-default-features step, an --all-features step kept", ["cargo test --all-features", "cargo test --no-default-features"], ["cargo test --all-features"], cargo],
    ["the -- --ignored step", ["cargo test", "cargo test -- --ignored"], ["cargo test"], cargo],
    ["the nextest --run-ignored only step", ["cargo nextest run", "cargo nextest run --run-ignored only"], ["cargo nextest run"], cargo],
    ["the --release step", ["cargo test", "cargo test --release"], ["cargo test"], cargo],
    ["a step of a feature the powerset excludes", ["cargo test --features std", "cargo test --features serde"], ["cargo hack test --feature-powerset --exclude-features std"], cargo],
    ["the go -tags integration step", ["go test ./...", "go test -tags integration ./..."], ["go test ./..."], goMod],
    ["the pytest --runslow step", ["pytest", "pytest --runslow"], ["pytest"], []],
    ["the vitest e2e config step", ["npx vitest run", "npx vitest run --config vitest.e2e.config.ts"], ["npx vitest run"], []],
    [
      "steps merged into one with continue-on-error",
      [{ run: "cargo test --features kv", continueOnError: true }, "cargo test --features serde", "cargo test"],
      [{ run: "cargo test --all-features", continueOnError: true }],
      cargo,
    ],
  ];
  for (const [name, before, after, extra] of dropped) {
    it(`cheat: ${name} dropped beside a step of the same runner`, async () => {
      expect((await messagesOf(before, after, extra)).length).toBeGreaterThan(0);
    });
  }

  it("cheat: a pytest step merged into a run of the other folder only", async () => {
    const messages = await messagesOf(["pytest tests/unit", "pytest tests/integration"], ["pytest tests/unit"]);
    expect(messages.length).toBeGreaterThan(0);
  });
});
