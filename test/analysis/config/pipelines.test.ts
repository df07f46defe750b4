/**
 * justfiles (config/justfile.ts) and Azure Pipelines (config/azure-pipelines.ts)
 * through analyzeChanges: the rules of Makefiles and GitHub workflows, in
 * their syntax. `flags` rows must produce one critical test_config_tamper
 * finding; `passes` rows none that blocks.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type FileChange } from "../../../src/analysis/index.js";
import { pipelineAsWorkflow } from "../../../src/analysis/config/azure-pipelines.js";

const azure = (steps: string, job = "", matrix = ""): string =>
  `trigger:\n  - main\njobs:\n  - job: test\n    pool:\n      vmImage: ubuntu-latest\n${matrix}${job}    steps:\n      - checkout: self\n${steps}`;
const pyMatrix = (versions: string[]): string => `    strategy:\n      matrix:\n${versions.map((v) => `        py${v.replace(".", "")}:\n          python.version: "${v}"\n`).join("")}`;
const pySteps = "      - task: UsePythonVersion@0\n        inputs:\n          versionSpec: $(python.version)\n      - script: pytest\n        displayName: Run tests\n";

interface Row {
  name: string;
  changes: FileChange[];
}
const file = (path: string, before: string | null, after: string | null): FileChange => ({ path, before, after });

const FLAGS: Row[] = [
  { name: "justfile: recipe narrowed to one crate", changes: [file("justfile", "test:\n    cargo test --workspace\n", "test:\n    cargo test -p core\n")] },
  { name: "justfile: recipe's runner masked with || true", changes: [file("justfile", "default: test\n\ntest:\n    pytest tests\n", "default: test\n\ntest:\n    pytest tests || true\n")] },
  { name: "justfile: '-' prefix ignores the runner's failures", changes: [file("justfile", "check:\n    @go test ./...\n", "check:\n    -go test ./...\n")] },
  { name: "justfile: test recipe removed", changes: [file("Justfile", "build:\n    cargo build\n\ntest:\n    cargo test\n", "build:\n    cargo build\n")] },
  { name: "justfile: recipe's dependency narrowed", changes: [file("justfile", "ci: unit\n\nunit:\n    vitest run\n", "ci: unit\n\nunit:\n    vitest run src/parse.test.ts\n")] },
  { name: "justfile: variable interpolated into the runner", changes: [file("justfile", 'ARGS := ""\n\ntest:\n    pytest {{ARGS}}\n', 'ARGS := "-k not_slow"\n\ntest:\n    pytest {{ARGS}}\n')] },
  { name: "azure: script masked with || true", changes: [file("azure-pipelines.yml", azure("      - script: pytest\n"), azure("      - script: pytest || true\n"))] },
  { name: "azure: step continueOnError", changes: [file("azure-pipelines.yml", azure("      - script: npm test\n"), azure("      - script: npm test\n        continueOnError: true\n"))] },
  { name: "azure: step condition false", changes: [file("azure-pipelines.yml", azure("      - bash: go test ./...\n"), azure("      - bash: go test ./...\n        condition: false\n"))] },
  {
    name: "azure: DotNetCoreCLI test task gains a filter",
    changes: [
      file(
        "azure-pipelines.yml",
        azure("      - task: DotNetCoreCLI@2\n        inputs:\n          command: test\n          projects: Scan.sln\n          arguments: -c Release /p:CI=true\n"),
        azure("      - task: DotNetCoreCLI@2\n        inputs:\n          command: test\n          projects: Scan.sln\n          arguments: -c Release -p:CI=true --filter Category!=Db\n"),
      ),
    ],
  },
  {
    name: "azure: Maven task narrowed to one module",
    changes: [
      file(
        "azure-pipelines.yml",
        azure("      - task: Maven@4\n        inputs:\n          goals: test\n          options: -B\n"),
        azure("      - task: Maven@4\n        inputs:\n          goals: test\n          options: -B -pl core\n"),
      ),
    ],
  },
  {
    name: "azure: test job removed from a stage",
    changes: [
      file(
        ".azure-pipelines/ci.yml",
        "stages:\n  - stage: build\n    jobs:\n      - job: unit\n        steps:\n          - script: npm run build\n          - script: npm run test:unit\n",
        "stages:\n  - stage: build\n    jobs:\n      - job: unit\n        steps:\n          - script: npm run build\n",
      ),
    ],
  },
  {
    name: "azure: a matrix cell for a supported Python removed",
    changes: [
      file("azure-pipelines.yml", azure(pySteps, "", pyMatrix(["3.9", "3.12"])), azure(pySteps, "", pyMatrix(["3.12"]))),
      file("pyproject.toml", '[project]\nname = "x"\nrequires-python = ">=3.9"\n', '[project]\nname = "x"\nrequires-python = ">=3.9"\nversion = "1"\n'),
    ],
  },
];

const PASSES: Row[] = [
  { name: "justfile: recipe renamed", changes: [file("justfile", "test:\n    cargo test --workspace\n", "test-all:\n    cargo test --workspace\n")] },
  { name: "justfile: lint recipe changed", changes: [file("justfile", "test:\n    pytest\n\nlint:\n    ruff check .\n", "test:\n    pytest\n\nlint:\n    ruff check src tests\n")] },
  { name: "justfile: option respelled", changes: [file("justfile", "test:\n    cargo test --all --package core\n", "test:\n    cargo test --workspace -p core\n")] },
  {
    name: "azure: DotNetCoreCLI test arguments respelled (/p: is -p:)",
    changes: [
      file(
        "azure-pipelines.yml",
        azure("      - task: DotNetCoreCLI@2\n        inputs:\n          command: test\n          projects: tests/Scan.Tests/Scan.Tests.csproj\n          arguments: -c Release /p:CI=true\n"),
        azure(
          "      - task: DotNetCoreCLI@2\n        inputs:\n          command: test\n          projects: tests/Scan.Tests/Scan.Tests.csproj\n          arguments: --configuration Release -p:CI=true -p:TestTfmsInParallel=false\n",
        ),
      ),
    ],
  },
  {
    name: "azure: a matrix cell for a Python dropped with requires-python raised",
    changes: [
      file("azure-pipelines.yml", azure(pySteps, "", pyMatrix(["3.8", "3.12"])), azure(pySteps, "", pyMatrix(["3.12"]))),
      file("pyproject.toml", '[project]\nname = "x"\nrequires-python = ">=3.8"\n', '[project]\nname = "x"\nrequires-python = ">=3.9"\n'),
    ],
  },
  { name: "azure: step given a display name", changes: [file("azure-pipelines.yml", azure("      - script: pytest\n"), azure("      - script: pytest\n        displayName: Run tests\n"))] },
];

describe("justfiles and Azure Pipelines must flag", () => {
  it.each(FLAGS.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    const analysis = await analyzeChanges(row.changes);
    const findings = analysis.findings.filter((finding) => finding.type === "test_config_tamper" && finding.severity === "critical");
    expect(analysis.not_analyzed).toEqual([]);
    expect(findings, JSON.stringify(analysis.findings, null, 2)).toHaveLength(1);
    expect(analysis.verdict).toBe("BLOCK");
  });
});

describe("justfiles and Azure Pipelines look-alikes must pass", () => {
  it.each(PASSES.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    const analysis = await analyzeChanges(row.changes);
    expect(analysis.not_analyzed).toEqual([]);
    expect(analysis.verdict, JSON.stringify(analysis.findings, null, 2)).not.toBe("BLOCK");
  });
});

describe("pipelineAsWorkflow", () => {
  it("reads stages, jobs, tasks and matrix variables into a workflow's shape", () => {
    const workflow = pipelineAsWorkflow({
      value: {
        stages: [
          {
            stage: "ci",
            jobs: [
              {
                job: "py",
                strategy: { matrix: { py39: { "python.version": "3.9" } } },
                steps: [
                  { task: "UsePythonVersion@0", inputs: { versionSpec: "$(python.version)" } },
                  { script: "pytest", workingDirectory: "$(Build.SourcesDirectory)/pkg" },
                ],
              },
            ],
          },
        ],
      },
      lines: new Map(),
    });
    expect(workflow.value).toEqual({
      on: ["push"],
      jobs: {
        "ci.py": {
          strategy: { matrix: { include: [{ "python.version": "3.9" }] } },
          steps: [
            { uses: "actions/setup-python@azure", with: { "python-version": "${{ matrix.python.version }}" } },
            { run: "pytest", "working-directory": "pkg" },
          ],
        },
      },
    });
  });
});
