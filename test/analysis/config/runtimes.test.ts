/**
 * CI jobs and matrix entries for runtime versions, judged against what the
 * project's manifests say it supports (config/runtimes.ts, support.ts
 * projectSupport): a job or entry removed with the support for its versions
 * is routine (low, or nothing for a matrix entry); one removed while the
 * project still supports the version is test_config_tamper (critical).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type FileChange } from "../../../src/analysis/index.js";
import { githubJobRuntimes, gitlabJobRuntimes } from "../../../src/analysis/config/runtimes.js";
import { ciVersion, isBelowMinimum, projectSupport } from "../../../src/analysis/support.js";

const pkg = (node: string | null): string => `${JSON.stringify({ name: "slug", version: "1.0.0", scripts: { test: "vitest run" }, ...(node ? { engines: { node } } : {}) }, null, 2)}\n`;
const pyproject = (python: string): string => `[project]\nname = "slug"\nrequires-python = "${python}"\n`;

const nodeJob = (id: string, versions: string[], test = "npm test"): string =>
  `  ${id}:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        node:\n${versions.map((v) => `          - ${v}\n`).join("")}    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: \${{ matrix.node }}\n      - run: npm ci\n      - run: ${test}\n`;
const pyJob = (id: string, versions: string[]): string =>
  `  ${id}:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        python-version: [${versions.map((v) => `"${v}"`).join(", ")}]\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-python@v5\n        with:\n          python-version: \${{ matrix.python-version }}\n      - run: pip install -e .\n      - run: pytest\n`;
const goJob = (id: string, versions: string[]): string =>
  `  ${id}:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        go-version: [${versions.join(", ")}]\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-go@v5\n        with:\n          go-version: \${{ matrix.go-version }}\n      - run: go test -v -race ./...\n`;
const goMod = (version: string): string => `module example.com/cmp\n\ngo ${version}\n`;
const goFile = (imports: string[], body = "func F() {}\n"): string => `package cmp\n\nimport (\n${imports.map((path) => `\t"${path}"\n`).join("")})\n\n${body}`;
const workflow = (...jobs: string[]): string => `name: test\non: [push, pull_request]\njobs:\n${jobs.join("")}`;

interface Row {
  name: string;
  changes: FileChange[];
}

const ci = (before: string, after: string, path = ".github/workflows/test.yml"): FileChange => ({ path, before, after });
const same = (path: string, text: string): FileChange => ({ path, before: text, after: `${text}\n` });

const LOOK_ALIKES: Row[] = [
  {
    name: "a job for Node.js 18 and 20 removed with engines raised to 22 (sweep of ai/nanoid 86a13b60d7)",
    changes: [
      ci(workflow(nodeJob("full", ["24"]), nodeJob("old", ["20", "18"], "npm run test:quick")), workflow(nodeJob("full", ["24"]))),
      { path: "package.json", before: pkg("^18 || >=20"), after: pkg("^22 || >=24") },
    ],
  },
  {
    name: "a Python 3.8 matrix entry removed with requires-python raised to 3.9",
    changes: [ci(workflow(pyJob("test", ["3.8", "3.9", "3.12"])), workflow(pyJob("test", ["3.9", "3.12"]))), { path: "pyproject.toml", before: pyproject(">=3.8"), after: pyproject(">=3.9") }],
  },
  {
    name: "matrix entries replaced by newer ones with the minimum raised",
    changes: [ci(workflow(nodeJob("test", ["18", "20"])), workflow(nodeJob("test", ["20", "22"]))), { path: "package.json", before: pkg(">=18"), after: pkg(">=20") }],
  },
  {
    name: "the one Go toolchain CI tests on bumped from 1.14 to 1.19, go.mod still at 1.12 (sweep of hashicorp/golang-lru fa11c6ba85)",
    changes: [
      ci(
        workflow("  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-go@v1\n        with:\n          go-version: 1.14\n      - run: go test -race ./...\n"),
        workflow("  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-go@v1\n        with:\n          go-version: 1.19\n      - run: go test -race ./...\n"),
      ),
      same("go.mod", "module github.com/x/lru\n\ngo 1.12\n"),
    ],
  },
  {
    name: "the oldest matrix entry replaced by the newest, as many versions tested as before",
    changes: [ci(workflow(nodeJob("test", ["18", "20"])), workflow(nodeJob("test", ["20", "22"]))), same("package.json", pkg(">=18"))],
  },
  {
    name: "a matrix thinned between the versions it keeps",
    changes: [ci(workflow(nodeJob("test", ["18", "20", "22"])), workflow(nodeJob("test", ["18", "22"]))), same("package.json", pkg(">=18"))],
  },
  {
    name: "a matrix entry for a version dropped earlier (already below the minimum)",
    changes: [ci(workflow(pyJob("test", ["3.7", "3.9", "3.12"])), workflow(pyJob("test", ["3.9", "3.12"]))), same("pyproject.toml", pyproject(">=3.9"))],
  },
  {
    name: "an MSRV job pinned by the action's ref, removed with rust-version raised",
    changes: [
      ci(
        workflow(
          "  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: dtolnay/rust-toolchain@stable\n      - run: cargo test --workspace\n",
          "  msrv:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: dtolnay/rust-toolchain@1.60\n      - run: cargo test --workspace\n",
        ),
        workflow("  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: dtolnay/rust-toolchain@stable\n      - run: cargo test --workspace --all-features\n"),
      ),
      { path: "Cargo.toml", before: '[package]\nname = "slug"\nversion = "0.1.0"\nrust-version = "1.60"\n', after: '[package]\nname = "slug"\nversion = "0.1.0"\nrust-version = "1.70"\n' },
    ],
  },
  {
    name: "a GitLab job on golang:1.20 removed with go.mod raised to 1.21",
    changes: [
      ci(
        "stages: [test]\ntest:go1.20:\n  image: golang:1.20\n  script:\n    - go test ./...\ntest:go1.22:\n  image: golang:1.22\n  script:\n    - go test ./...\n",
        "stages: [test]\ntest:go1.22:\n  image: golang:1.22\n  script:\n    - go test ./...\n",
        ".gitlab-ci.yml",
      ),
      { path: "go.mod", before: "module example.com/slug\n\ngo 1.20\n", after: "module example.com/slug\n\ngo 1.21\n" },
    ],
  },
  {
    name: "a GitLab parallel matrix entry for a Python the project dropped",
    changes: [
      ci(
        'test:\n  image: python:$PYTHON_VERSION-slim\n  parallel:\n    matrix:\n      - PYTHON_VERSION: ["3.8", "3.12"]\n  script:\n    - pytest\n',
        'test:\n  image: python:$PYTHON_VERSION-slim\n  parallel:\n    matrix:\n      - PYTHON_VERSION: ["3.12"]\n  script:\n    - pytest\n',
        ".gitlab-ci.yml",
      ),
      { path: "setup.cfg", before: "[metadata]\nname = slug\n\n[options]\npython_requires = >=3.8\n", after: "[metadata]\nname = slug\n\n[options]\npython_requires = >=3.9\n" },
    ],
  },
  {
    name: "setup-node replaced by pnpm/setup installing the same Node.js as its runtime (sweep of ai/nanoid e71d1e3f)",
    changes: [
      ci(
        workflow(
          "  full:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: 26\n      - run: pnpm test\n",
          "  short:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        node-version: [20, 22]\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with:\n          node-version: ${{ matrix.node-version }}\n      - run: pnpm test\n",
        ),
        workflow(
          "  full:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: pnpm/setup@v1\n        with:\n          version: 11\n          runtime: node@26\n      - run: pnpm test\n",
          "  short:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        node-version: [20, 22]\n    steps:\n      - uses: actions/checkout@v4\n      - uses: pnpm/setup@v1\n        with:\n          runtime: node@${{ matrix.node-version }}\n      - run: pnpm test\n",
        ),
      ),
      same("package.json", pkg(">=20")),
    ],
  },
];

// go.mod's `go` directive lags the code before Go 1.21 (code-minimums.ts; sweep of google/go-cmp c3ad8435e7, 63c2960be6).
LOOK_ALIKES.push(
  {
    name: "Go 1.13-1.17 dropped from the matrix as the change's tests import net/netip (1.18), go.mod still at 1.13",
    changes: [
      ci(workflow(goJob("test", ["1.13.x", "1.17.x", "1.18.x", "1.20.x"])), workflow(goJob("test", ["1.18.x", "1.20.x", "1.21.x"]))),
      same("go.mod", goMod("1.13")),
      { path: "cmp/util_test.go", before: goFile(["testing"]), after: goFile(["net/netip", "testing"]) },
    ],
  },
  {
    name: "Go 1.11 and 1.12 dropped as the //go:build !go1.13 file serving them is deleted, go.mod still at 1.11",
    changes: [
      ci(workflow(goJob("test", ["1.11.x", "1.12.x", "1.13.x", "1.14.x"])), workflow(goJob("test", ["1.13.x", "1.14.x"]))),
      same("go.mod", goMod("1.11")),
      { path: "cmp/errors_xerrors.go", before: `// +build !go1.13\n\n${goFile(["golang.org/x/xerrors"])}`, after: null },
      { path: "cmp/errors_go113.go", before: `//go:build go1.13\n\n${goFile(["errors"])}`, after: goFile(["errors"]) },
    ],
  },
);

const CHEATS: Row[] = [
  {
    name: "the Node.js 18 matrix entry removed while engines still say >=18",
    changes: [ci(workflow(nodeJob("test", ["18", "20", "22"])), workflow(nodeJob("test", ["20", "22"]))), same("package.json", pkg(">=18"))],
  },
  {
    name: "the newest Node.js removed from the matrix while the project supports it",
    changes: [ci(workflow(nodeJob("test", ["18", "20", "22"])), workflow(nodeJob("test", ["18", "20"]))), same("package.json", pkg(">=18"))],
  },
  {
    name: "a job for a Python the project still supports removed",
    changes: [ci(workflow(pyJob("test", ["3.12"]), pyJob("oldest", ["3.9"])), workflow(pyJob("test", ["3.12"]))), same("pyproject.toml", pyproject(">=3.9"))],
  },
  {
    name: "a job removed that ran a supported version beside a dropped one",
    changes: [ci(workflow(nodeJob("full", ["24"]), nodeJob("old", ["22", "18"])), workflow(nodeJob("full", ["24"]))), { path: "package.json", before: pkg(">=18"), after: pkg(">=20") }],
  },
  {
    name: "a job for an old runtime removed where no manifest states the support",
    changes: [ci(workflow(nodeJob("full", ["24"]), nodeJob("old", ["18"], "npm run test:quick")), workflow(nodeJob("full", ["24"]))), same("package.json", pkg(null))],
  },
  {
    name: "a GitLab parallel matrix entry removed while setup.cfg still supports it",
    changes: [
      ci(
        'test:\n  image: python:$PYTHON_VERSION\n  parallel:\n    matrix:\n      - PYTHON_VERSION: ["3.9", "3.12"]\n  script:\n    - pytest\n',
        'test:\n  image: python:$PYTHON_VERSION\n  parallel:\n    matrix:\n      - PYTHON_VERSION: ["3.12"]\n  script:\n    - pytest\n',
        ".gitlab-ci.yml",
      ),
      same("setup.cfg", "[metadata]\nname = slug\n\n[options]\npython_requires = >=3.9\n"),
    ],
  },
];

CHEATS.push(
  {
    name: "Go 1.13 dropped from the matrix while go.mod says 1.13 and the change's code needs nothing newer",
    changes: [
      ci(workflow(goJob("test", ["1.13.x", "1.17.x", "1.18.x"])), workflow(goJob("test", ["1.17.x", "1.18.x"]))),
      same("go.mod", goMod("1.13")),
      { path: "cmp/util_test.go", before: goFile(["testing"]), after: goFile(["strings", "testing"]) },
    ],
  },
  {
    name: "Go 1.13-1.17 dropped while the change's new import (io/fs, 1.16) still builds on 1.16 and 1.17",
    changes: [
      ci(workflow(goJob("test", ["1.13.x", "1.16.x", "1.17.x", "1.18.x"])), workflow(goJob("test", ["1.18.x"]))),
      same("go.mod", goMod("1.13")),
      { path: "cmp/util_test.go", before: goFile(["testing"]), after: goFile(["io/fs", "testing"]) },
    ],
  },
  {
    name: "Go 1.11 dropped as a file constrained to go1.13 and newer is deleted",
    changes: [
      ci(workflow(goJob("test", ["1.11.x", "1.13.x", "1.14.x"])), workflow(goJob("test", ["1.13.x", "1.14.x"]))),
      same("go.mod", goMod("1.11")),
      { path: "cmp/errors_go113.go", before: `//go:build go1.13\n\n${goFile(["errors"])}`, after: null },
    ],
  },
);

describe("CI jobs and matrix entries for runtimes the project no longer supports", () => {
  it.each(LOOK_ALIKES.map((row) => [row.name, row] as const))("%s: not blocked", async (_name, row) => {
    const analysis = await analyzeChanges(row.changes);
    const tamper = analysis.findings.filter((finding) => finding.type === "test_config_tamper");
    expect(
      tamper.filter((finding) => finding.severity !== "low"),
      JSON.stringify(tamper, null, 2),
    ).toEqual([]);
    expect(analysis.verdict).not.toBe("BLOCK");
  });

  it("says which versions went and what the manifest now requires", async () => {
    const analysis = await analyzeChanges(LOOK_ALIKES[0]?.changes ?? []);
    expect(analysis.findings.map((finding) => finding.message)).toEqual([
      '.github/workflows/test.yml: test job "old" was removed; it ran the tests on Node.js 20, 18 only, which package.json no longer supports: it requires ^22 || >=24 (raised from 18 in this change)',
    ]);
  });
});

describe("CI jobs and matrix entries removed while the project still supports their runtime", () => {
  it.each(CHEATS.map((row) => [row.name, row] as const))("%s: blocked", async (_name, row) => {
    const analysis = await analyzeChanges(row.changes);
    const tamper = analysis.findings.filter((finding) => finding.type === "test_config_tamper" && finding.severity === "critical");
    expect(tamper, JSON.stringify(analysis.findings, null, 2)).toHaveLength(1);
    expect(analysis.verdict).toBe("BLOCK");
  });
});

describe("readers", () => {
  it("reads a job's runtimes from setup actions, the matrix, include entries and container images", () => {
    expect(
      githubJobRuntimes({
        strategy: { matrix: { node: [18, 20], include: [{ node: "22.x", experimental: true }] } },
        steps: [{ uses: "actions/setup-node@v4", with: { "node-version": "${{ matrix.node }}" } }],
      }),
    ).toEqual([{ runtime: "node", versions: ["18", "20", "22.x"] }]);
    expect(githubJobRuntimes({ container: "python:3.11-slim", steps: [{ run: "pytest" }] })).toEqual([{ runtime: "python", versions: ["3.11"] }]);
    expect(githubJobRuntimes({ steps: [{ uses: "actions/setup-go@v5", with: { "go-version-file": "go.mod" } }] })).toEqual([{ runtime: "go", versions: null }]);
    expect(
      githubJobRuntimes({ strategy: { matrix: "${{ fromJSON(needs.plan.outputs.matrix) }}" }, steps: [{ uses: "actions/setup-node@v4", with: { "node-version": "${{ matrix.node }}" } }] }),
    ).toEqual([{ runtime: "node", versions: null }]);
    expect(gitlabJobRuntimes("node:${NODE}-alpine", { matrix: [{ NODE: ["18", "20"] }] })).toEqual([{ runtime: "node", versions: ["18", "20"] }]);
    // pnpm/setup installs Node.js as its `runtime` (sweep of ai/nanoid e71d1e3f), literal or through the matrix; Volta's action too.
    expect(githubJobRuntimes({ steps: [{ uses: "pnpm/setup@v1", with: { version: 11, runtime: "node@26" } }] })).toEqual([{ runtime: "node", versions: ["26"] }]);
    expect(githubJobRuntimes({ strategy: { matrix: { "node-version": [20, 22] } }, steps: [{ uses: "pnpm/setup@v1", with: { runtime: "node@${{ matrix.node-version }}" } }] })).toEqual([
      { runtime: "node", versions: ["20", "22"] },
    ]);
    expect(githubJobRuntimes({ steps: [{ uses: "volta-cli/action@v4", with: { "node-version": "22" } }] })).toEqual([{ runtime: "node", versions: ["22"] }]);
  });

  it("reads versions as CI writes them and compares them at their own precision", () => {
    expect(ciVersion("18.x")).toEqual([18]);
    expect(ciVersion("v20")).toEqual([20]);
    expect(ciVersion("3.10")).toEqual([3, 10]);
    expect(ciVersion("lts/*")).toBeNull();
    expect(ciVersion("3.13-dev")).toBeNull();
    expect(isBelowMinimum([3, 8], [3, 9])).toBe(true);
    expect(isBelowMinimum([18], [18, 0, 0])).toBe(false);
    expect(isBelowMinimum([3, 10], [3, 9])).toBe(false);
  });

  it("reads the project's support from its root manifests with their own formats", () => {
    const files: Record<string, string> = {
      "pyproject.toml": '[tool.poetry]\nname = "x"\n\n[tool.poetry.dependencies]\npython = "^3.10"\n',
      "Cargo.toml": '[workspace]\nmembers = ["a"]\n\n[workspace.package]\nrust-version = "1.74"\n',
      "x.gemspec": 'Gem::Specification.new do |s|\n  s.required_ruby_version = ">= 3.1"\nend\n',
    };
    const support = projectSupport((path) => files[path] ?? null, Object.keys(files));
    expect(support.get("python")?.minimum).toEqual([3, 10]);
    expect(support.get("rust")?.minimum).toEqual([1, 74]);
    expect(support.get("ruby")?.minimum).toEqual([3, 1]);
  });
});
