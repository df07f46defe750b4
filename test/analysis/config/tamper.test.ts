/**
 * test_config_tamper, rule by rule, through analyzeChanges: every row is a
 * config file before and after. `flags` rows must produce exactly one
 * test_config_tamper finding whose evidence.setting matches and whose
 * severity is as given; `passes` rows are look-alikes (tests added, config
 * strengthened, unrelated edits) that must produce none.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";

interface Row {
  name: string;
  path: string;
  before: string | null;
  after: string | null;
}

interface FlagRow extends Row {
  setting: RegExp;
  severity?: "critical" | "medium";
  line?: number;
}

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}): string => `${JSON.stringify({ name: "shop", version: "1.0.0", scripts, ...extra }, null, 2)}\n`;

const vitest = (test: string): string => `import { defineConfig } from "vitest/config";\n\nexport default defineConfig({\n  test: ${test},\n});\n`;
const jest = (body: string): string => `/** @type {import('jest').Config} */\nmodule.exports = ${body};\n`;
const workflow = (steps: string, job = ""): string => `name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n${job}    steps:\n      - uses: actions/checkout@v4\n${steps}`;
const gitlab = (job: string): string => `stages: [test]\nunit:\n  stage: test\n${job}`;
/** Per-variant test jobs (`job: run`), each on its own runtime, as a workflow. */
const perVariantJobs = (jobs: Record<string, string>, env = ""): string =>
  `on: push\n${env}jobs:\n${Object.entries(jobs)
    .map(
      ([name, run]) =>
        `  ${name}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/setup-java@v4\n        with:\n          distribution: ${name}\n      - name: Build\n        run: ${run}\n`,
    )
    .join("\n")}`;
/** One job over a matrix of the variants, running `run`. */
const matrixJob = (variants: readonly string[], run: string, env = ""): string =>
  `on: push\n${env}jobs:\n  build:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix:\n        distribution: [${variants.join(", ")}]\n    steps:\n      - uses: actions/setup-java@v4\n        with:\n          distribution: \${{ matrix.distribution }}\n      - name: Build\n        run: ${run}\n`;
const MVN_ENV = "env:\n  MVN_CMD: ./mvnw --no-transfer-progress -B\n";

const FLAGS: FlagRow[] = [
  {
    name: "a test script removed while the script calling it still calls it",
    path: "package.json",
    before: JSON.stringify({ scripts: { unit: "uvu . .test.js$", "test:coverage": "c8 pnpm unit" } }, null, 2),
    after: JSON.stringify({ scripts: { "test:coverage": "c8 pnpm unit" } }, null, 2),
    setting: /scripts\.unit/,
  },
  // Per-variant jobs consolidated into a matrix job: each old job is compared with it (the sweep of jwtk/jjwt 39ad690299).
  {
    name: "per-distribution jobs consolidated into a matrix job whose build skips the tests",
    path: ".github/workflows/ci.yml",
    before: perVariantJobs({ temurin: "./mvnw -B verify", zulu: "./mvnw -B verify" }),
    after: matrixJob(["temurin", "zulu"], "./mvnw -B verify -DskipTests"),
    setting: /^job "build" step "Build"/,
  },
  {
    name: "a test step spelled through a workflow env variable gains -DskipTests",
    path: ".github/workflows/ci.yml",
    before: perVariantJobs({ temurin: "${{env.MVN_CMD}} verify" }, MVN_ENV),
    after: perVariantJobs({ temurin: "${{ env.MVN_CMD }} verify -DskipTests" }, MVN_ENV),
    setting: /^job "temurin" step "Build"/,
  },
  {
    name: "per-variant pytest jobs consolidated into a matrix job that deselects tests",
    path: ".github/workflows/ci.yml",
    before: perVariantJobs({ py311: "pytest tests", py312: "pytest tests" }),
    after: matrixJob(["py311", "py312"], "pytest tests -k 'not slow'"),
    setting: /^job "build" step "Build"/,
  },
  {
    name: "two jobs folded into one plain job: the second is removed",
    path: ".github/workflows/ci.yml",
    before: perVariantJobs({ temurin: "./mvnw -B verify", zulu: "./mvnw -B verify -Pzulu" }),
    after: perVariantJobs({ build: "./mvnw -B verify" }),
    setting: /^jobs\.zulu$/,
  },
  // package.json scripts
  { name: "|| true appended", path: "package.json", before: pkg({ test: "vitest run" }), after: pkg({ test: "vitest run || true" }), setting: /^scripts\.test$/, line: 5 },
  { name: "|| exit 0 appended", path: "package.json", before: pkg({ test: "jest" }), after: pkg({ test: "jest || exit 0" }), setting: /^scripts\.test$/ },
  { name: "echo instead of the runner", path: "package.json", before: pkg({ test: "vitest run" }), after: pkg({ test: 'echo "tests pass"' }), setting: /^scripts\.test$/ },
  { name: "--passWithNoTests added", path: "package.json", before: pkg({ test: "jest" }), after: pkg({ test: "jest --passWithNoTests" }), setting: /^scripts\.test$/ },
  { name: "narrowed to one file", path: "package.json", before: pkg({ test: "vitest run" }), after: pkg({ test: "vitest run test/cart.test.ts" }), setting: /^scripts\.test$/ },
  { name: "-t name filter added", path: "package.json", before: pkg({ test: "vitest run" }), after: pkg({ test: "vitest run -t parser" }), setting: /^scripts\.test$/ },
  { name: "test:e2e runner dropped", path: "package.json", before: pkg({ test: "vitest run && playwright test" }), after: pkg({ test: "vitest run" }), setting: /^scripts\.test$/ },
  {
    name: "test handed to a new script that echoes",
    path: "package.json",
    before: pkg({ test: "vitest run" }),
    after: pkg({ test: "npm run test:ci", "test:ci": "echo skipped" }),
    setting: /^scripts\.test$/,
  },
  {
    name: "npm test -- filter through a called script",
    path: "package.json",
    before: pkg({ test: "npm run test:unit", "test:unit": "vitest run" }),
    after: pkg({ test: "npm run test:unit -- cart", "test:unit": "vitest run" }),
    setting: /^scripts\.test$/,
  },
  { name: "e2e runner dropped while unit runner stays", path: "package.json", before: pkg({ test: "vitest run && cypress run" }), after: pkg({ test: "vitest run" }), setting: /^scripts\.test$/ },
  {
    name: "jest through node gains a filter",
    path: "package.json",
    before: pkg({ test: "node --experimental-vm-modules node_modules/.bin/jest" }),
    after: pkg({ test: "node --experimental-vm-modules node_modules/.bin/jest -t fast" }),
    setting: /^scripts\.test$/,
  },
  {
    name: "integration script removed beside a unit script",
    path: "package.json",
    before: pkg({ "test:unit": "vitest run test/unit", "test:integration": "vitest run test/integration" }),
    after: pkg({ "test:unit": "vitest run test/unit", "test:smoke": "vitest run test/unit/smoke.test.ts" }),
    setting: /^scripts\.test:integration$/,
  },
  {
    name: "test:unit script removed",
    path: "package.json",
    before: pkg({ test: "npm run test:unit", "test:unit": "vitest run" }),
    after: pkg({ test: "npm run test:unit" }),
    setting: /^scripts\.test:unit$/,
  },
  { name: "testPathIgnorePatterns via CLI", path: "package.json", before: pkg({ test: "jest --ci" }), after: pkg({ test: "jest --ci --testPathIgnorePatterns=cart" }), setting: /^scripts\.test$/ },
  {
    name: "c8 threshold lowered",
    path: "package.json",
    before: pkg({ test: "c8 --check-coverage --lines 90 vitest run" }),
    after: pkg({ test: "c8 --check-coverage --lines 70 vitest run" }),
    setting: /^scripts\.test$/,
    severity: "medium",
  },
  { name: "pipe to tee masks the status", path: "package.json", before: pkg({ test: "vitest run" }), after: pkg({ test: "vitest run | tee test.log" }), setting: /^scripts\.test$/ },
  {
    name: "package.json jest testPathIgnorePatterns",
    path: "package.json",
    before: pkg({ test: "jest" }, { jest: { testEnvironment: "node" } }),
    after: pkg({ test: "jest" }, { jest: { testEnvironment: "node", testPathIgnorePatterns: ["/node_modules/", "cart"] } }),
    setting: /^jest\.testPathIgnorePatterns/,
  },
  {
    name: "package.json jest coverageThreshold lowered",
    path: "package.json",
    before: pkg({ test: "jest" }, { jest: { coverageThreshold: { global: { lines: 90 } } } }),
    after: pkg({ test: "jest" }, { jest: { coverageThreshold: { global: { lines: 60 } } } }),
    setting: /^jest\.coverageThreshold\.global\.lines$/,
    severity: "medium",
  },
  {
    name: "package.json nyc check-coverage lowered",
    path: "package.json",
    before: pkg({ test: "nyc mocha" }, { nyc: { "check-coverage": true, branches: 80 } }),
    after: pkg({ test: "nyc mocha" }, { nyc: { "check-coverage": true, branches: 50 } }),
    setting: /^nyc\.branches$/,
    severity: "medium",
  },
  // vitest / vite / jest config files
  {
    name: "vitest exclude added",
    path: "vitest.config.ts",
    before: vitest(`{ include: ["test/**/*.test.ts"] }`),
    after: vitest(`{ include: ["test/**/*.test.ts"], exclude: ["test/cart.test.ts"] }`),
    setting: /^test\.exclude$/,
    line: 4,
  },
  {
    name: "vitest exclude beside configDefaults",
    path: "vitest.config.mts",
    before: vitest(`{}`),
    after: vitest(`{ exclude: [...configDefaults.exclude, "test/slow/**"] }`),
    setting: /^test\.exclude$/,
  },
  {
    name: "vitest include narrowed",
    path: "vitest.config.ts",
    before: vitest(`{ include: ["test/**/*.test.ts"] }`),
    after: vitest(`{ include: ["test/unit/**/*.test.ts"] }`),
    setting: /^test\.include$/,
  },
  {
    name: "vitest include set to one file",
    path: "vitest.config.js",
    before: vitest(`{ environment: "node" }`),
    after: vitest(`{ environment: "node", include: ["test/passing.test.js"] }`),
    setting: /^test\.include$/,
  },
  { name: "vitest passWithNoTests", path: "vitest.config.ts", before: vitest(`{ globals: true }`), after: vitest(`{ globals: true, passWithNoTests: true }`), setting: /^test\.passWithNoTests$/ },
  { name: "vitest testNamePattern", path: "vitest.config.ts", before: vitest(`{}`), after: vitest(`{ testNamePattern: "^(?!.*slow)" }`), setting: /^test\.testNamePattern$/ },
  {
    name: "vitest thresholds lowered",
    path: "vitest.config.ts",
    before: vitest(`{ coverage: { thresholds: { lines: 90, branches: 80 } } }`),
    after: vitest(`{ coverage: { thresholds: { lines: 50, branches: 80 } } }`),
    setting: /^test\.coverage\.thresholds\.lines$/,
    severity: "medium",
  },
  {
    name: "vitest thresholds removed",
    path: "vitest.config.ts",
    before: vitest(`{ coverage: { thresholds: { 100: true } } }`).replace("100: true", "lines: 95"),
    after: vitest(`{ coverage: {} }`),
    setting: /thresholds\.lines$/,
    severity: "medium",
  },
  {
    name: "vite.config test block exclude via const",
    path: "vite.config.ts",
    before: `export default { plugins: [], test: { include: ["src/**/*.spec.ts"] } };\n`,
    after: `const skipped = ["src/cart.spec.ts"];\nexport default { plugins: [], test: { include: ["src/**/*.spec.ts"], exclude: skipped } };\n`,
    setting: /^test\.exclude$/,
  },
  {
    name: "jest testPathIgnorePatterns added",
    path: "jest.config.js",
    before: jest(`{ testEnvironment: "node" }`),
    after: jest(`{ testEnvironment: "node", testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/cart"] }`),
    setting: /^testPathIgnorePatterns/,
  },
  {
    name: "jest testMatch narrowed",
    path: "jest.config.ts",
    before: `export default { testMatch: ["**/*.test.ts"] };\n`,
    after: `export default { testMatch: ["**/math.test.ts"] };\n`,
    setting: /^testMatch$/,
  },
  { name: "jest roots narrowed", path: "jest.config.cjs", before: jest(`{ roots: ["<rootDir>/src", "<rootDir>/test"] }`), after: jest(`{ roots: ["<rootDir>/src"] }`), setting: /^roots$/ },
  {
    name: "jest coverageThreshold lowered",
    path: "jest.config.js",
    before: jest(`{ coverageThreshold: { global: { branches: 80, lines: 80 } } }`),
    after: jest(`{ coverageThreshold: { global: { branches: 40, lines: 80 } } }`),
    setting: /^coverageThreshold\.global\.branches$/,
    severity: "medium",
  },
  { name: "mocharc grep added", path: ".mocharc.yml", before: "spec: test/**/*.spec.js\n", after: "spec: test/**/*.spec.js\ngrep: fast\n", setting: /^grep$/ },
  { name: ".c8rc lines lowered", path: ".c8rc.json", before: `{ "check-coverage": true, "lines": 95 }\n`, after: `{ "check-coverage": true, "lines": 80 }\n`, setting: /^lines$/, severity: "medium" },
  {
    name: ".nycrc check-coverage turned off",
    path: ".nycrc",
    before: `{ "check-coverage": true, "functions": 90 }\n`,
    after: `{ "check-coverage": false, "functions": 90 }\n`,
    setting: /^coverage thresholds$/,
    severity: "medium",
  },
  // pytest and coverage.py
  { name: "pytest.ini --ignore in addopts", path: "pytest.ini", before: "[pytest]\naddopts = -q\n", after: "[pytest]\naddopts = -q --ignore=tests/test_amount.py\n", setting: /addopts/, line: 2 },
  { name: "pytest.ini -k not", path: "pytest.ini", before: "[pytest]\naddopts = -ra\n", after: '[pytest]\naddopts = -ra -k "not slow_parse"\n', setting: /addopts/ },
  {
    name: "setup.cfg --deselect",
    path: "setup.cfg",
    before: "[metadata]\nname = x\n\n[tool:pytest]\naddopts = -q\n",
    after: "[metadata]\nname = x\n\n[tool:pytest]\naddopts = -q\n  --deselect tests/test_a.py::test_b\n",
    setting: /addopts/,
  },
  { name: "tox.ini testpaths narrowed", path: "tox.ini", before: "[pytest]\ntestpaths = tests\n", after: "[pytest]\ntestpaths = tests/unit\n", setting: /testpaths/ },
  { name: "tox ignore_outcome", path: "tox.ini", before: "[testenv]\ncommands = pytest\n", after: "[testenv]\ncommands = pytest\nignore_outcome = true\n", setting: /ignore_outcome/ },
  {
    name: "CI tox env from the matrix replaced by a lint env",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: tox -e ${{ matrix.tox_env }}\n"),
    after: workflow("      - run: tox -e lint\n"),
    setting: /tox|-e/,
  },
  {
    name: "pytest narrowed under uvx",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: pytest tests\n"),
    after: workflow("      - run: uvx --with pytest-xdist pytest tests/unit\n"),
    setting: /pytest|tests/,
  },
  { name: "tox command exit code ignored", path: "tox.ini", before: "[testenv]\ncommands =\n    pytest tests\n", after: "[testenv]\ncommands =\n    - pytest tests\n", setting: /commands/ },
  // A continued command (a line ending in a backslash) given the ignore-exit-code prefix on its first line.
  {
    name: "tox continued command exit code ignored",
    path: "tox.ini",
    before: "[testenv]\ncommands =\n    python -m pytest \\\n        --doctest-modules \\\n        {posargs:tests}\n",
    after: "[testenv]\ncommands =\n    - python -m pytest \\\n        --doctest-modules \\\n        {posargs:tests}\n",
    setting: /commands/,
  },
  {
    name: "pyproject addopts --ignore",
    path: "pyproject.toml",
    before: `[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n`,
    after: `[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q --ignore=tests/test_slow.py"\n`,
    setting: /tool\.pytest\.ini_options\.addopts/,
    line: 5,
  },
  {
    name: "pyproject [tool.pytest] (pytest 9 native TOML) addopts -k",
    path: "pyproject.toml",
    before: `[tool.pytest]\nstrict = true\naddopts = ["-ra"]\n`,
    after: `[tool.pytest]\nstrict = true\naddopts = ["-ra", "-k", "not test_rounding"]\n`,
    setting: /tool\.pytest\.addopts/,
    line: 3,
  },
  {
    name: "pyproject addopts array -k",
    path: "pyproject.toml",
    before: `[tool.pytest.ini_options]\naddopts = [\n  "-q",\n]\n`,
    after: `[tool.pytest.ini_options]\naddopts = [\n  "-q",\n  "-k", "not test_rounding",\n]\n`,
    setting: /addopts/,
  },
  {
    name: "pyproject fail_under lowered",
    path: "pyproject.toml",
    before: `[tool.coverage.report]\nfail_under = 90\nshow_missing = true\n`,
    after: `[tool.coverage.report]\nfail_under = 70\nshow_missing = true\n`,
    setting: /fail_under/,
    severity: "medium",
    line: 2,
  },
  {
    name: "pyproject --cov-fail-under lowered",
    path: "pyproject.toml",
    before: `[tool.pytest.ini_options]\naddopts = "--cov=app --cov-fail-under=85"\n`,
    after: `[tool.pytest.ini_options]\naddopts = "--cov=app --cov-fail-under=40"\n`,
    setting: /addopts/,
    severity: "medium",
  },
  {
    name: ".coveragerc fail_under lowered",
    path: ".coveragerc",
    before: "[run]\nbranch = True\n\n[report]\nfail_under = 80\n",
    after: "[run]\nbranch = True\n\n[report]\nfail_under = 10\n",
    setting: /fail_under/,
    severity: "medium",
    line: 5,
  },
  {
    name: "setup.cfg coverage:report fail_under removed",
    path: "setup.cfg",
    before: "[coverage:report]\nfail_under = 80\n",
    after: "[coverage:report]\nshow_missing = true\n",
    setting: /fail_under/,
    severity: "medium",
  },
  { name: "conftest collect_ignore", path: "tests/conftest.py", before: "import pytest\n", after: 'import pytest\n\ncollect_ignore = ["test_amount.py"]\n', setting: /^collect_ignore$/, line: 3 },
  {
    name: "conftest collect_ignore_glob append",
    path: "conftest.py",
    before: "collect_ignore_glob = []\n",
    after: "collect_ignore_glob = []\ncollect_ignore_glob.append('tests/slow_*.py')\n",
    setting: /^collect_ignore$/,
  },
  {
    name: "conftest makereport forces passed",
    path: "conftest.py",
    before: "import pytest\n",
    after: 'import pytest\n\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    rep = outcome.get_result()\n    rep.outcome = "passed"\n',
    setting: /pytest_runtest_makereport/,
    line: 7,
  },
  { name: "conftest sys.exit(0) at import", path: "tests/conftest.py", before: "import sys\n", after: "import sys\nsys.exit(0)\n", setting: /sys\.exit/ },
  { name: "conftest deselects every item", path: "conftest.py", before: "", after: "def pytest_collection_modifyitems(config, items):\n    items.clear()\n", setting: /pytest_collection_modifyitems/ },
  { name: "conftest pyfunc_call skips the body", path: "conftest.py", before: "", after: "def pytest_pyfunc_call(pyfuncitem):\n    return True\n", setting: /pytest_pyfunc_call/ },
  { name: "conftest patches time", path: "conftest.py", before: "import time\n", after: "import time\ntime.sleep = lambda s: None\n", setting: /patches/ },
  {
    name: "pyproject tox 4 commands narrowed",
    path: "pyproject.toml",
    before: `[tool.tox.env_run_base]\ncommands = [["pytest", "-v", { replace = "posargs", default = ["tests"], extend = true }]]\n`,
    after: `[tool.tox.env_run_base]\ncommands = [["pytest", "-v", "-k", "not slow", { replace = "posargs", default = ["tests"], extend = true }]]\n`,
    setting: /tox \[testenv\] commands/,
    line: 2,
  },
  {
    name: "pyproject legacy_tox_ini ignore_outcome",
    path: "pyproject.toml",
    before: `[tool.tox]\nlegacy_tox_ini = """\n[testenv]\ncommands = pytest\n"""\n`,
    after: `[tool.tox]\nlegacy_tox_ini = """\n[testenv]\ncommands = pytest\nignore_outcome = true\n"""\n`,
    setting: /ignore_outcome/,
  },
  // Makefile
  { name: "make test narrowed to one file", path: "Makefile", before: "test:\n\tpytest tests/\n", after: "test:\n\tpytest tests/test_format.py\n", setting: /target "test"/, line: 2 },
  { name: "make test || true", path: "Makefile", before: "test:\n\tgo test ./...\n", after: "test:\n\tgo test ./... || true\n", setting: /target "test"/ },
  {
    name: "make test - prefix",
    path: "Makefile",
    before: "test:\n\t$(PYTEST) tests\n\nPYTEST = python -m pytest\n",
    after: "test:\n\t-$(PYTEST) tests\n\nPYTEST = python -m pytest\n",
    setting: /target "test"/,
  },
  {
    name: "make test through a variable",
    path: "Makefile",
    before: "PYTEST_ARGS = tests\ntest:\n\tpytest $(PYTEST_ARGS)\n",
    after: "PYTEST_ARGS = tests -k 'not slow'\ntest:\n\tpytest $(PYTEST_ARGS)\n",
    setting: /target "test"/,
  },
  {
    name: "make test loses its phpunit prerequisite",
    path: "Makefile",
    before: "phpunit:\n\t@vendor/bin/phpunit\n\nphpstan:\n\t@vendor/bin/phpstan analyze\n\ntest: phpunit phpstan\n",
    after: "phpunit:\n\t@vendor/bin/phpunit\n\nphpstan:\n\t@vendor/bin/phpstan analyze\n\ntest: phpstan\n",
    setting: /target "test"/,
  },
  {
    name: "make test's pytest prerequisite renamed to a recipe that runs nothing",
    path: "Makefile",
    before: "pyunit:\n\tpytest tests\n\ntest: pyunit\n",
    after: "pyunit:\n\techo skipped\n\ntest: pyunit\n",
    setting: /target "test"/,
  },
  // Runner renames conserve runs, not names: a removed runner whose tests no other entry runs is still removed.
  {
    name: "tox environment removed while a renamed one runs other tests",
    path: "tox.ini",
    before: "[testenv]\ncommands = pytest tests/unit\n\n[testenv:py312-integration]\ncommands = pytest tests/integration\n",
    after: "[testenv]\ncommands = pytest tests/unit\n\n[testenv:3.12-smoke]\ncommands = pytest tests/unit/test_smoke.py\n",
    setting: /testenv:py312-integration/,
  },
  {
    name: "cargo toolchain job replaced by a build-only job",
    path: ".github/workflows/ci.yml",
    before: "on: push\njobs:\n  os_tests:\n    runs-on: x\n    steps:\n      - run: cargo +${{ matrix.channel }} test --all\n",
    after: "on: push\njobs:\n  msrv:\n    runs-on: x\n    steps:\n      - run: cargo +1.61 hack check --feature-powerset\n",
    setting: /^jobs\.os_tests$/,
  },
  {
    name: "gitlab test job renamed and allowed to fail",
    path: ".gitlab-ci.yml",
    before: "stages: [test]\nunit:\n  script:\n    - cargo +stable test\n",
    after: "stages: [test]\ntest:stable:\n  script:\n    - rustup run stable cargo test\n  allow_failure: true\n",
    setting: /^test:stable\.allow_failure$/,
  },
  { name: "make test target removed", path: "Makefile", before: "build:\n\tgo build ./...\ntest:\n\tgo test ./...\n", after: "build:\n\tgo build ./...\n", setting: /target "test"/ },
  { name: "make test -run added", path: "GNUmakefile", before: ".PHONY: test\ntest:\n\tgo test ./...\n", after: ".PHONY: test\ntest:\n\tgo test -run TestParse ./...\n", setting: /target "test"/ },
  // GitHub Actions
  {
    name: "step continue-on-error",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: npm test\n"),
    after: workflow("      - run: npm test\n        continue-on-error: true\n"),
    setting: /continue-on-error$/,
    line: 9,
  },
  {
    name: "job continue-on-error",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: pytest\n"),
    after: workflow("      - run: pytest\n", "    continue-on-error: true\n"),
    setting: /^jobs\.test\.continue-on-error$/,
  },
  {
    name: "step || true",
    path: ".github/workflows/test.yaml",
    before: workflow("      - name: Run tests\n        run: npm test\n"),
    after: workflow("      - name: Run tests\n        run: npm test || true\n"),
    setting: /Run tests/,
  },
  { name: "test step removed", path: ".github/workflows/ci.yml", before: workflow("      - run: npm ci\n      - run: npm test\n"), after: workflow("      - run: npm ci\n"), setting: /steps\[2\]/ },
  {
    name: "step if: false",
    path: ".github/workflows/ci.yml",
    before: workflow("      - name: Tests\n        run: cargo test\n"),
    after: workflow("      - name: Tests\n        if: false\n        run: cargo test\n"),
    setting: /\.if$/,
  },
  {
    name: "job if: ${{ false }}",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: go test ./...\n"),
    after: workflow("      - run: go test ./...\n", "    if: ${{ false }}\n"),
    setting: /^jobs\.test\.if$/,
  },
  {
    name: "multi-line run narrowed",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: |\n          npm ci\n          npx vitest run\n"),
    after: workflow("      - run: |\n          npm ci\n          npx vitest run test/unit\n"),
    setting: /job "test"/,
  },
  {
    name: "test job removed",
    path: ".github/workflows/ci.yml",
    before: `on: push\njobs:\n  lint:\n    runs-on: x\n    steps:\n      - run: npm run lint\n  test:\n    runs-on: x\n    steps:\n      - run: npm test\n`,
    after: `on: push\njobs:\n  lint:\n    runs-on: x\n    steps:\n      - run: npm run lint\n`,
    setting: /^jobs\.test$/,
  },
  { name: "workflow deleted", path: ".github/workflows/test.yml", before: workflow("      - run: npm test\n"), after: null, setting: /^jobs\.test$/ },
  {
    name: "renamed test job gets continue-on-error",
    path: ".github/workflows/ci.yml",
    before: "on: push\njobs:\n  build:\n    runs-on: x\n    steps:\n      - run: pytest\n",
    after: "on: push\njobs:\n  tests:\n    runs-on: x\n    continue-on-error: true\n    steps:\n      - run: pytest\n",
    setting: /^jobs\.tests\.continue-on-error$/,
    line: 5,
  },
  {
    name: "workflow runs only on demand",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: npm test\n"),
    after: workflow("      - run: npm test\n").replace("on: [push]", "on: workflow_dispatch"),
    setting: /^on$/,
    line: 2,
  },
  // GitLab CI
  {
    name: "allow_failure on exit code 1",
    path: ".gitlab-ci.yml",
    before: gitlab("  script:\n    - pytest\n"),
    after: gitlab("  script:\n    - pytest\n  allow_failure:\n    exit_codes: [1, 137]\n"),
    setting: /allow_failure/,
  },
  {
    name: "allow_failure added",
    path: ".gitlab-ci.yml",
    before: gitlab("  script:\n    - pytest\n"),
    after: gitlab("  script:\n    - pytest\n  allow_failure: true\n"),
    setting: /allow_failure/,
    line: 6,
  },
  {
    name: "gitlab || true",
    path: ".gitlab-ci.yml",
    before: gitlab("  script:\n    - npm ci\n    - npm test\n"),
    after: gitlab("  script:\n    - npm ci\n    - npm test || true\n"),
    setting: /script/,
  },
  {
    name: "gitlab test job removed",
    path: ".gitlab-ci.yml",
    before: gitlab("  script:\n    - go test ./...\n") + "build:\n  script:\n    - go build\n",
    after: "stages: [test]\nbuild:\n  script:\n    - go build\n",
    setting: /^unit$/,
  },
  { name: "gitlab when: manual", path: ".gitlab-ci.yml", before: gitlab("  script:\n    - pytest\n"), after: gitlab("  script:\n    - pytest\n  when: manual\n"), setting: /when/ },
  { name: "gitlab rules never", path: ".gitlab-ci.yml", before: gitlab("  script:\n    - pytest\n"), after: gitlab("  script:\n    - pytest\n  rules:\n    - when: never\n"), setting: /rules/ },
  {
    name: "gitlab allow_failure through extends",
    path: ".gitlab-ci.yml",
    before: ".base:\n  image: node\nunit:\n  extends: .base\n  script: [npm test]\n",
    after: ".base:\n  image: node\n  allow_failure: true\nunit:\n  extends: .base\n  script: [npm test]\n",
    setting: /allow_failure/,
  },
];

const PASSES: Row[] = [
  {
    name: "a uvu script removed as the script calling it runs node:test through better-node-test (sweep of ai/nanoid 7b6241af)",
    path: "package.json",
    before: JSON.stringify({ scripts: { unit: "uvu . .test.js$", "test:coverage": "c8 pnpm unit", "test:lint": "eslint .", test: "pnpm run /^test:/" } }, null, 2),
    after: JSON.stringify({ scripts: { "test:coverage": "c8 pnpm bnt", "test:lint": "eslint .", test: "pnpm run /^test:/" } }, null, 2),
  },
  {
    name: "a CI step's pnpm script replaced by the node:test runner's binary (pnpm bnt, pnpm borp)",
    path: ".github/workflows/test.yml",
    before: "on: push\njobs:\n  short:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pnpm install\n      - name: Run unit tests\n        run: pnpm unit\n",
    after: "on: push\njobs:\n  short:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pnpm install\n      - name: Run unit tests\n        run: pnpm bnt\n",
  },
  {
    name: "per-distribution jobs consolidated into a matrix job running the same build",
    path: ".github/workflows/ci.yml",
    before: perVariantJobs({ oracle: "${{env.MVN_CMD}} verify -Possrh", temurin: "${{env.MVN_CMD}} verify -Possrh", zulu: "${{env.MVN_CMD}} verify -Possrh" }, MVN_ENV),
    after: matrixJob(["oracle", "temurin", "zulu"], "${{env.MVN_CMD}} verify -Possrh -Dtest.jdk.version=${{ matrix.java-version }}", MVN_ENV),
  },
  {
    name: "per-variant pytest jobs consolidated into a matrix job",
    path: ".github/workflows/ci.yml",
    before: perVariantJobs({ py311: "pytest tests", py312: "pytest tests" }),
    after: matrixJob(["py311", "py312"], "pytest tests"),
  },
  // Sweeps of hashicorp/golang-lru 8d433cc52 and khellang/Scrutor f5e12d973, dc7c9595a: reported critical test_config_tamper.
  {
    name: "go test of the current package widened to every package (./...)",
    path: ".github/workflows/ci.yml",
    before: workflow("      - name: build and test\n        run: |\n          go test -timeout=60s -race\n          go build -race\n"),
    after: workflow("      - name: build and test\n        run: |\n          go test -timeout=60s -race ./...\n          go build -race ./...\n"),
  },
  {
    name: "dotnet test wrapped in dotnet-coverage collect, the step renamed",
    path: ".github/workflows/build.yml",
    before: workflow("      - name: Test\n        run: dotnet test --coverage --coverage-output-format cobertura\n"),
    after: workflow(
      '      - name: Install dotnet-coverage\n        run: dotnet tool install -g dotnet-coverage\n      - name: Test with coverage\n        run: dotnet-coverage collect --output coverage.cobertura.xml --output-format cobertura "dotnet test"\n',
    ),
  },
  {
    name: "dotnet test coverage options changed (an option's value is no project)",
    path: ".github/workflows/build.yml",
    before: workflow('      - name: Test\n        run: dotnet test --collect:"XPlat Code Coverage"\n'),
    after: workflow("      - name: Test\n        run: dotnet test --coverage --coverage-output-format cobertura\n"),
  },
  { name: "script gains a runner", path: "package.json", before: pkg({ test: "vitest run" }), after: pkg({ test: "vitest run && playwright test" }) },
  { name: "script loses a file filter", path: "package.json", before: pkg({ test: "vitest run test/unit" }), after: pkg({ test: "vitest run" }) },
  { name: "reporter and coverage flags", path: "package.json", before: pkg({ test: "vitest run" }), after: pkg({ test: "vitest run --coverage --reporter verbose" }) },
  { name: "|| true on a non-test script", path: "package.json", before: pkg({ test: "vitest run", lint: "eslint ." }), after: pkg({ test: "vitest run", lint: "eslint . || true" }) },
  { name: "placeholder test script replaced by a runner", path: "package.json", before: pkg({ test: 'echo "Error: no test specified" && exit 1' }), after: pkg({ test: "vitest run" }) },
  { name: "version bump", path: "package.json", before: pkg({ test: "jest" }), after: pkg({ test: "jest" }).replace("1.0.0", "1.1.0") },
  { name: "c8 threshold raised", path: "package.json", before: pkg({ test: "c8 --check-coverage --lines 80 vitest run" }), after: pkg({ test: "c8 --check-coverage --lines 90 vitest run" }) },
  {
    name: "|| true inside a test:watch that never ran a runner",
    path: "package.json",
    before: pkg({ "test:setup": "node scripts/setup.js" }),
    after: pkg({ "test:setup": "node scripts/setup.js || true" }),
  },
  { name: "vitest include widened", path: "vitest.config.ts", before: vitest(`{ include: ["test/unit/**/*.test.ts"] }`), after: vitest(`{ include: ["test/**/*.test.ts"] }`) },
  { name: "vitest exclude removed", path: "vitest.config.ts", before: vitest(`{ exclude: ["test/cart.test.ts"] }`), after: vitest(`{}`) },
  { name: "vitest exclude of node_modules and dist", path: "vitest.config.ts", before: vitest(`{}`), after: vitest(`{ exclude: ["**/node_modules/**", "dist/**", ...configDefaults.exclude] }`) },
  {
    name: "vitest thresholds raised",
    path: "vitest.config.ts",
    before: vitest(`{ coverage: { thresholds: { lines: 80 } } }`),
    after: vitest(`{ coverage: { thresholds: { lines: 90, branches: 70 } } }`),
  },
  { name: "vitest environment change", path: "vitest.config.ts", before: vitest(`{ environment: "node" }`), after: vitest(`{ environment: "jsdom", testTimeout: 20_000 }`) },
  { name: "vitest include added as a glob", path: "vitest.config.ts", before: vitest(`{}`), after: vitest(`{ include: ["test/**/*.test.ts"] }`) },
  { name: "jest testMatch widened", path: "jest.config.js", before: jest(`{ testMatch: ["**/unit/**/*.test.js"] }`), after: jest(`{ testMatch: ["**/*.test.js"] }`) },
  { name: "jest roots widened", path: "jest.config.js", before: jest(`{ roots: ["<rootDir>/src"] }`), after: jest(`{ roots: ["<rootDir>"] }`) },
  { name: "pytest addopts gains -v", path: "pytest.ini", before: "[pytest]\naddopts = -q\n", after: "[pytest]\naddopts = -q -v --strict-markers\n" },
  { name: "pytest --ignore removed", path: "pytest.ini", before: "[pytest]\naddopts = --ignore=tests/slow\n", after: "[pytest]\naddopts =\n" },
  { name: "pytest testpaths widened", path: "pyproject.toml", before: `[tool.pytest.ini_options]\ntestpaths = ["tests/unit"]\n`, after: `[tool.pytest.ini_options]\ntestpaths = ["tests"]\n` },
  {
    name: "pyproject dependency added",
    path: "pyproject.toml",
    before: `[project]\nname = "x"\ndependencies = [\n  "httpx",\n]\n`,
    after: `[project]\nname = "x"\ndependencies = [\n  "httpx",\n  "rich>=13",\n]\n`,
  },
  { name: "fail_under raised", path: ".coveragerc", before: "[report]\nfail_under = 80\n", after: "[report]\nfail_under = 90\n" },
  { name: "conftest gains a fixture", path: "tests/conftest.py", before: "import pytest\n", after: "import pytest\n\n@pytest.fixture\ndef client():\n    return make_client()\n" },
  { name: "conftest mentions collect_ignore in a string", path: "conftest.py", before: "", after: "NOTE = 'collect_ignore = [\"x.py\"] is not used here'\n" },
  { name: "conftest sys.exit inside a function", path: "conftest.py", before: "", after: "import sys\n\ndef helper():\n    sys.exit(0)\n" },
  { name: "conftest makereport that only reads", path: "conftest.py", before: "", after: "def pytest_runtest_makereport(item, call):\n    if call.excinfo:\n        item.failed = True\n" },
  {
    name: "make test's static-analysis prerequisites merged (phpunit kept)",
    path: "Makefile",
    before:
      "phpunit:\n\t@vendor/bin/phpunit\n\nphpstan-analyze-src:\n\t@vendor/bin/phpstan analyze src\n\nphpstan-analyze-tests:\n\t@vendor/bin/phpstan analyze tests\n\ntest: phpunit phpstan-analyze-src phpstan-analyze-tests\n",
    after: "phpunit:\n\t@vendor/bin/phpunit\n\nphpstan-analyze:\n\t@vendor/bin/phpstan analyze\n\ntest: phpunit phpstan-analyze\n",
  },
  {
    name: "make test's dockerized static-analysis prerequisites merged (sweep of vlucas/phpdotenv f1f4ca5707)",
    path: "Makefile",
    before:
      "phpunit:\n\t@docker run -it -w /data --entrypoint vendor/bin/phpunit --rm php:8.2-cli\n\nphpstan-analyze-src:\n\t@docker run -it -w /data --entrypoint vendor/bin/phpstan --rm php:8.2-cli analyze src\n\nphpstan-analyze-tests:\n\t@docker run -it -w /data --entrypoint vendor/bin/phpstan --rm php:8.2-cli analyze tests\n\ntest: phpunit phpstan-analyze-src phpstan-analyze-tests\n",
    after:
      "phpunit:\n\t@docker run -it -w /data --entrypoint vendor/bin/phpunit --rm php:8.3-cli\n\nphpstan-analyze:\n\t@docker run -it -w /data --entrypoint vendor/bin/phpstan --rm php:8.3-cli analyze\n\ntest: phpunit phpstan-analyze\n",
  },
  { name: "make lint-tests through npx dropped", path: "Makefile", before: "lint-tests:\n\tnpx eslint test\n\ntest: lint-tests\n\tnpm test\n", after: "test:\n\tnpm test\n" },
  { name: "make test's go test prerequisite renamed", path: "Makefile", before: "gotest:\n\tgo test ./...\n\ntest: gotest\n", after: "go-test:\n\tgo test ./...\n\ntest: go-test\n" },
  {
    name: "make lint-tests prerequisite dropped (golangci-lint on the tests)",
    path: "Makefile",
    before: "lint-tests:\n\tgolangci-lint run ./tests/...\n\ntest: lint-tests\n\tgo test ./...\n",
    after: "test:\n\tgo test ./...\n",
  },
  { name: "make test widened", path: "Makefile", before: "test:\n\tpytest tests/unit\n", after: "test:\n\tpytest tests\n" },
  { name: "make build target || true", path: "Makefile", before: "build:\n\tnpm run build\ntest:\n\tnpm test\n", after: "build:\n\tnpm run build || true\ntest:\n\tnpm test\n" },
  { name: "make test gains -v", path: "Makefile", before: "test:\n\tgo test ./...\n", after: "test:\n\tgo test -v -race ./...\n" },
  {
    name: "continue-on-error on a non-test step",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: npm test\n      - uses: codecov/codecov-action@v4\n"),
    after: workflow("      - run: npm test\n      - uses: codecov/codecov-action@v4\n        continue-on-error: true\n"),
  },
  {
    name: "test step moved to another job",
    path: ".github/workflows/ci.yml",
    before: `on: push\njobs:\n  test:\n    runs-on: x\n    steps:\n      - run: npm test\n`,
    after: `on: push\njobs:\n  unit:\n    runs-on: x\n    steps:\n      - run: npm test\n`,
  },
  {
    name: "test step renamed",
    path: ".github/workflows/ci.yml",
    before: workflow("      - name: Test\n        run: npm test\n"),
    after: workflow("      - name: Unit tests\n        run: npm test\n"),
  },
  {
    name: "push trigger narrowed to branches, pull_request added",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: npm test\n"),
    after: workflow("      - run: npm test\n").replace("on: [push]", "on:\n  push:\n    branches: [main]\n  pull_request:\n  workflow_dispatch:"),
  },
  {
    name: "gitlab rules that run on merge requests",
    path: ".gitlab-ci.yml",
    before: gitlab("  script:\n    - pytest\n"),
    after: gitlab("  script:\n    - pytest\n  rules:\n    - if: $CI_PIPELINE_SOURCE == 'merge_request_event'\n    - when: never\n"),
  },
  {
    name: "matrix added",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: npm test\n"),
    after: workflow("      - run: npm test\n", "    strategy:\n      matrix:\n        node: [20, 22]\n"),
  },
  { name: "continue-on-error removed", path: ".github/workflows/ci.yml", before: workflow("      - run: npm test\n        continue-on-error: true\n"), after: workflow("      - run: npm test\n") },
  { name: "gitlab job gains a test command", path: ".gitlab-ci.yml", before: gitlab("  script:\n    - pytest\n"), after: gitlab("  script:\n    - pytest\n    - pytest --doctest-modules src\n") },
  { name: "gitlab allow_failure on a lint job", path: ".gitlab-ci.yml", before: "lint:\n  script:\n    - ruff check .\n", after: "lint:\n  script:\n    - ruff check .\n  allow_failure: true\n" },
  { name: "test script handed to another test script", path: "package.json", before: pkg({ test: "vitest run" }), after: pkg({ test: "npm run test:ci", "test:ci": "vitest run --reporter=junit" }) },
  { name: "go test -tags added", path: "Makefile", before: "test:\n\tgo test ./...\n", after: "test:\n\tgo test -tags integration ./...\n" },
  {
    name: "gitlab allow_failure for OOM kills only",
    path: ".gitlab-ci.yml",
    before: gitlab("  script:\n    - pytest\n"),
    after: gitlab("  script:\n    - pytest\n  allow_failure:\n    exit_codes: [137]\n"),
  },
  { name: "conftest ignores setup.py and docs", path: "conftest.py", before: "", after: 'collect_ignore = ["setup.py", "docs/conf.py"]\n' },
  {
    name: "test job renamed",
    path: ".github/workflows/ci.yml",
    before: "on: push\njobs:\n  build:\n    runs-on: x\n    steps:\n      - run: tox -e py312\n",
    after: "on: push\njobs:\n  test:\n    runs-on: x\n    steps:\n      - name: Test\n        run: tox -e py312\n",
  },
  {
    name: "tox lint environment removed",
    path: "tox.ini",
    before: "[testenv]\ncommands = pytest\n\n[testenv:lint]\ncommands = flake8 src\n\n[testenv:pep8]\ncommands = py.test --pep8\n",
    after: "[testenv]\ncommands = pytest\n",
  },
  {
    name: "tox command behind a substitution with a factor line",
    path: "tox.ini",
    before: "[testenv]\ncommands = pytest {posargs:testing/}\n",
    after: "[testenv]\ncommands =\n  {env:_TOX_CMD:pytest} {posargs:testing/}\n  coverage: coverage report -m\n",
  },
  {
    name: "pytest paths renamed with their files",
    path: "tox.ini",
    before: "[testenv]\ncommands = pytest pluggy test_pluggy\n",
    after: "[testenv]\ncommands = pytest pluggy.py testing/test_pluggy.py\n",
  },
  // scrapy/w3lib c44e4b6af3: a continuation line starting with `--cov=…` is an argument of the command above it, not tox's `-` prefix.
  {
    name: "tox continued command gains an option on a continuation line",
    path: "tox.ini",
    before: "[testenv]\ncommands =\n    python -m pytest \\\n        --doctest-modules \\\n        --cov=w3lib --cov-report=xml \\\n        {posargs:w3lib tests}\n",
    after: "[testenv]\ncommands =\n    python -m pytest \\\n        --doctest-modules \\\n        --cov=w3lib --cov-report=xml -n auto \\\n        {posargs:w3lib tests}\n",
  },
  { name: "norecursedirs of hidden folders", path: "tox.ini", before: "[pytest]\nnorecursedirs = build\n", after: "[pytest]\nnorecursedirs = build .hg .env* .tox\n" },
  { name: "jest replaced by vitest", path: "package.json", before: pkg({ test: "xo && jest" }), after: pkg({ test: "xo && vitest run" }) },
  {
    name: "two vitest runs merged into one",
    path: "package.json",
    before: pkg({ test: "pnpm lint && vitest --run typecheck && vitest run" }),
    after: pkg({ test: "pnpm lint && vitest run --typecheck" }),
  },
  {
    name: "CI step moves from yarn jest to pnpm vitest",
    path: ".github/workflows/ci.yml",
    before: workflow("      - name: Test\n        run: yarn jest\n"),
    after: workflow("      - run: pnpm install\n      - run: pnpm vitest --coverage\n"),
  },
  // pytest-dev/iniconfig 6bc5528789 (sweep): each cell's `py3X` named through the matrix -> tox's interpreter env `py`.
  {
    name: "CI tox env from the matrix replaced by the interpreter's env",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: tox -e ${{ matrix.tox_env }}\n"),
    after: workflow("      - run: tox -e py\n"),
  },
  // mahmoud/boltons b34c5342 (sweep): the same tox run under a launcher that provides tox (uvx is `uv tool run`).
  {
    name: "CI tox run wrapped in uvx",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: tox -e ${{ matrix.tox }}\n"),
    after: workflow("      - run: uvx --with tox-uv tox -e ${{ matrix.tox }}\n"),
  },
  { name: "CI pytest run under uv tool run", path: ".github/workflows/ci.yml", before: workflow("      - run: pytest tests\n"), after: workflow("      - run: uv tool run pytest tests\n") },
  {
    name: "CI pytest run under pipx run",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: pytest tests\n"),
    after: workflow("      - run: pipx run --spec pytest==8.3 pytest tests\n"),
  },
  {
    name: "CI command with an expression",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: tox run -e ${{ matrix.tox || format('py{0}', matrix.python) }}\n"),
    after: workflow("      - run: uv run --locked tox run -e ${{ matrix.tox || format('py{0}', matrix.python) }}\n"),
  },
  { name: "make test replaced by the runner it ran", path: "tox.ini", before: "[testenv]\ncommands = make test\n", after: "[testenv]\ncommands = {env:TEST_RUNNER:pytest} {posargs}\n" },
  {
    name: "tox 4 subcommand and a changed matrix expression",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: tox -e ${{ matrix.tox }}\n"),
    after: workflow("      - run: uv run --locked --group dev tox run -e ${{ matrix.tox || format('py{0}', matrix.python) }}\n"),
  },
  {
    name: "tox installs a built wheel",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: tox -e ${{ matrix.tox_env }}\n"),
    after: workflow("      - run: tox run -e ${{ matrix.tox_env }} --installpkg dist/*.whl\n"),
  },
  {
    name: "tox environments renamed with their commands",
    path: "tox.ini",
    before:
      "[tox]\nenv_list = py31{0-4}-tests, pypy3-tests\n\n[testenv:pypy3-tests]\ncommands = pytest tests/test_core.py\n\n[testenv:py31{0,4}-tests]\ncommands = coverage run -m pytest {posargs:-n auto}\n",
    after:
      "[tox]\nenv_list = 3.1{0-4}-tests, pypy3.11-tests\n\n[testenv:pypy3.11-tests]\ncommands = pytest tests/test_core.py\n\n[testenv:3.1{0,4}-tests]\ncommands = coverage run -m pytest {posargs:-n auto}\n",
  },
  {
    name: "tox environment dropped whose command another environment runs",
    path: "tox.ini",
    before: "[testenv]\ncommands = pytest tests\n\n[testenv:py38]\ncommands = pytest tests\n",
    after: "[testenv]\ncommands = pytest tests\n",
  },
  { name: "pyproject tox env renamed", path: "pyproject.toml", before: `[tool.tox.env.py39]\ncommands = [["pytest", "tests"]]\n`, after: `[tool.tox.env."3.13"]\ncommands = [["pytest", "tests"]]\n` },
  {
    name: "test job renamed and its toolchain chosen by rustup default",
    path: ".github/workflows/ci.yml",
    before: "on: push\njobs:\n  os_tests:\n    runs-on: x\n    steps:\n      - name: Tests\n        run: cargo +${{ matrix.channel }} test --all\n",
    after: "on: push\njobs:\n  test:\n    runs-on: x\n    steps:\n      - run: rustup default ${{ matrix.channel }}\n      - run: cargo test --all\n",
  },
  {
    name: "separate test crate folded into the root crate's cargo hack run",
    path: ".github/workflows/ci.yml",
    before: workflow("      - run: |\n          cargo test --verbose --manifest-path tests/Cargo.toml\n          cargo test --verbose --manifest-path tests/Cargo.toml --features std\n"),
    after: workflow("      - run: cargo hack test --feature-powerset\n"),
  },
  {
    name: "gitlab test job renamed with a rustup toolchain",
    path: ".gitlab-ci.yml",
    before: "stages: [test]\nunit:\n  script:\n    - cargo +stable test\n",
    after: "stages: [test]\ntest:stable:\n  script:\n    - rustup run stable cargo test\n",
  },
  { name: "go test step moved to a pinned toolchain", path: ".github/workflows/ci.yml", before: workflow("      - run: go test ./...\n"), after: workflow("      - run: go1.22.4 test ./...\n") },
  {
    name: "pnpm regex script selector",
    path: "package.json",
    before: pkg({ test: "vitest --coverage", "test:ci": "vitest" }),
    after: pkg({ test: "pnpm run '/^test:.*/'", "test:types": "tsc --noEmit", "test:spec": "vitest" }),
  },
  { name: "jest run through node for ESM", path: "package.json", before: pkg({ test: "jest" }), after: pkg({ test: "yarn node --experimental-vm-modules $(yarn bin jest)" }) },
  {
    name: "a build step named Test Build beside the test step",
    path: ".github/workflows/ci.yml",
    before: workflow("      - name: Test Build\n        run: yarn build\n      - name: Test Default\n        run: yarn test:ci\n"),
    after: workflow("      - run: pnpm build\n      - run: pnpm test:spec\n"),
  },
  {
    name: "test script renamed",
    path: "package.json",
    before: pkg({ test: "vitest run", "test:ci": "vitest run --reporter=junit" }),
    after: pkg({ test: "vitest run", "test:junit": "vitest run --reporter=junit" }),
  },
  {
    name: "watch scripts dropped in a migration",
    path: "package.json",
    before: pkg({ test: "jest", "test:dev": "jest --watch --no-coverage", "test:watch": "vitest watch" }),
    after: pkg({ test: "vitest run" }),
  },
  { name: "config under fixtures is someone else's", path: "test/fixtures/app/package.json", before: pkg({ test: "jest" }), after: pkg({ test: "jest || true" }) },
];

describe("test_config_tamper must flag", () => {
  it.each(FLAGS.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    const analysis = await analyzeChanges([{ path: row.path, before: row.before, after: row.after }]);
    const findings = analysis.findings.filter((finding) => finding.type === "test_config_tamper");
    expect(analysis.not_analyzed).toEqual([]);
    expect(findings, JSON.stringify(analysis.findings, null, 2)).toHaveLength(1);
    const [finding] = findings;
    expect(finding?.file).toBe(row.path);
    expect(finding?.severity).toBe(row.severity ?? "critical");
    expect(String(finding?.evidence?.setting)).toMatch(row.setting);
    expect(finding?.evidence).toHaveProperty("before");
    expect(finding?.evidence).toHaveProperty("after");
    if (row.line !== undefined) expect(finding?.line).toBe(row.line);
    expect(analysis.verdict).toBe(row.severity === "medium" ? "WARN" : "BLOCK");
  });
});

describe("test_config_tamper look-alikes must pass", () => {
  it.each(PASSES.map((row) => [row.name, row] as const))("%s", async (_name, row) => {
    const analysis = await analyzeChanges([{ path: row.path, before: row.before, after: row.after }]);
    expect(analysis.findings, JSON.stringify(analysis.findings, null, 2)).toEqual([]);
    expect(analysis.not_analyzed).toEqual([]);
    expect(analysis.verdict).toBe("PASS");
  });
});

describe("workflows changed together", () => {
  const job = (name: string, run: string): string => `on: push\njobs:\n  ${name}:\n    runs-on: x\n    steps:\n      - run: ${run}\n`;

  it("a test job moved to a new workflow file is not removed", async () => {
    const analysis = await analyzeChanges([
      { path: ".github/workflows/main.yml", before: job("test", "pytest") + "  lint:\n    runs-on: x\n    steps:\n      - run: ruff check\n", after: job("lint", "ruff check") },
      { path: ".github/workflows/test.yml", before: null, after: job("tests", "python -m pytest -q") },
    ]);
    expect(analysis.findings).toEqual([]);
  });

  // Found sweeping iamkun/dayjs's history (d97dba6, check.yml's job now calls the new lint-test.yml).
  it("a test job whose steps moved into a reusable workflow it now calls (added in the same change) is not a removal", async () => {
    const before = `on: push\njobs:\n  check:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: Run tests\n        run: npm test\n`;
    const after = `on: push\njobs:\n  check:\n    uses: ./.github/workflows/lint-test.yml\n    secrets: inherit\n`;
    const reusable = `on:\n  workflow_call:\njobs:\n  lint-test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n`;
    const analysis = await analyzeChanges([
      { path: ".github/workflows/check.yml", before, after },
      { path: ".github/workflows/lint-test.yml", before: null, after: reusable },
    ]);
    expect(analysis.findings).toEqual([]);
    // The same call, while the called workflow runs no tests: the step is gone.
    const hollow = await analyzeChanges([
      { path: ".github/workflows/check.yml", before, after },
      { path: ".github/workflows/lint-test.yml", before: null, after: reusable.replace("npm test", "npm run lint") },
    ]);
    expect(hollow.findings.map((finding) => [finding.file, finding.evidence?.setting])).toEqual([[".github/workflows/check.yml", "jobs.check.steps[1]"]]);
  });

  it("a test job removed while another workflow runs something else is reported", async () => {
    const analysis = await analyzeChanges([
      { path: ".github/workflows/main.yml", before: job("test", "pytest"), after: job("lint", "ruff check") },
      { path: ".github/workflows/docs.yml", before: null, after: job("docs", "mkdocs build") },
    ]);
    expect(analysis.findings.map((finding) => [finding.file, finding.evidence?.setting])).toEqual([[".github/workflows/main.yml", "jobs.test"]]);
  });
});

describe("tox settings moved between tox.ini and pyproject.toml", () => {
  const toxIni = "[tox]\nenvlist = py312\n\n[testenv]\ncommands = pytest -v --tb=short {posargs}\n";
  const pyproject = (commands: string): string => `[project]\nname = "x"\n\n[tool.tox.env_run_base]\ncommands = [${commands}]\n`;

  it("is not a removal when the environment reappears in pyproject.toml", async () => {
    const analysis = await analyzeChanges([
      { path: "tox.ini", before: toxIni, after: null },
      { path: "pyproject.toml", before: '[project]\nname = "x"\n', after: pyproject('["pytest", "-v", "--tb=short", { replace = "posargs", default = [], extend = true }]') },
    ]);
    expect(analysis.findings).toEqual([]);
  });

  it("is judged where it went", async () => {
    const analysis = await analyzeChanges([
      { path: "tox.ini", before: toxIni, after: null },
      { path: "pyproject.toml", before: '[project]\nname = "x"\n', after: pyproject('["pytest", "tests/test_ok.py"]') },
    ]);
    expect(analysis.findings.map((finding) => [finding.file, finding.evidence?.setting])).toEqual([["tox.ini", "tox [testenv] commands"]]);
  });
});

describe("a tox environment removed", () => {
  it("names its commands one per line, the blank first line of a multi-line value left out (iniconfig 5f617e30ac)", async () => {
    const analysis = await analyzeChanges([{ path: "tox.ini", before: "[tox]\nenvlist=py311\n\n[testenv]\ncommands=\n  pytest {posargs}\n  coverage report\n", after: null }]);
    expect(analysis.findings.map((finding) => finding.message)).toEqual(['tox.ini: tox environment [testenv] that ran "pytest {posargs}; coverage report" was removed']);
  });
});

describe("a task runner replaced by another beside it", () => {
  const makefile = "test:\n\tgo test ./...\n\ntest-race:\n\tgo test -race ./...\n\ncheck: test-race vet\n\nvet:\n\tgo vet ./...\n";
  const justfile = (test: string): string => `check: test lint\n\ntest:\n    ${test}\n\nlint:\n    go vet ./...\n`;
  const settings = (findings: readonly { file: string; evidence?: Record<string, unknown> }[]): unknown[] => findings.map((finding) => [finding.file, finding.evidence?.setting]);

  it("is no removal when the justfile's recipes run the Makefile's tests", async () => {
    const analysis = await analyzeChanges([
      { path: "Makefile", before: makefile, after: null },
      { path: "justfile", before: null, after: justfile("go test -shuffle on -race -v ./...") },
    ]);
    expect(analysis.findings).toEqual([]);
  });

  it("is judged against the same-named recipe, and a target no recipe takes over is removed", async () => {
    const analysis = await analyzeChanges([
      { path: "Makefile", before: makefile, after: null },
      { path: "justfile", before: null, after: justfile("go build ./...") },
    ]);
    expect(settings(analysis.findings)).toEqual([
      ["Makefile", 'make target "test" (now just recipe "test")'],
      ["Makefile", 'make target "test-race"'],
      ["Makefile", 'make target "check" (now just recipe "check")'],
    ]);
  });

  it("is no removal when a justfile is replaced by a Makefile that runs its tests", async () => {
    const analysis = await analyzeChanges([
      { path: "pkg/justfile", before: justfile("go test ./..."), after: null },
      { path: "pkg/Makefile", before: null, after: makefile },
    ]);
    expect(analysis.findings).toEqual([]);
  });

  it("is reported when the Makefile replacing a justfile only echoes", async () => {
    const analysis = await analyzeChanges([
      { path: "justfile", before: justfile("pytest tests"), after: null },
      { path: "Makefile", before: null, after: "test:\n\techo ok\n" },
    ]);
    expect(settings(analysis.findings)).toEqual([["justfile", 'just recipe "test" (now make target "test")']]);
  });

  it("is a removal when the runner beside it sits in another folder", async () => {
    const analysis = await analyzeChanges([
      { path: "Makefile", before: makefile, after: null },
      { path: "tools/justfile", before: null, after: justfile("go test -race ./...") },
    ]);
    expect(analysis.findings.map((finding) => finding.evidence?.setting)).toEqual(['make target "test"', 'make target "test-race"', 'make target "check"']);
  });
});

describe("unreadable config files", () => {
  it.each([
    ["package.json", '{ "scripts": { "test": "jest" } }', '{ "scripts": { "test": '],
    [".github/workflows/ci.yml", "jobs:\n  t:\n    steps: []\n", "jobs:\n  t:\n    steps: [\n"],
    ["pyproject.toml", '[tool.pytest.ini_options]\naddopts = "-q"\n', '[tool.pytest.ini_options]\naddopts = "-q\n'],
    ["vitest.config.ts", vitest("{}"), "export default defineConfig({ test: { "],
    ["package.json", '{ "scripts": { "test": "jest" } }', `{ "scripts": { "test": "jest" }, "x": "${"a".repeat(2 * 1024 * 1024)}" }`],
    [".gitlab-ci.yml", "unit:\n  script: [pytest]\n", "unit:\n  script: [pytest]\n\u0000"],
  ])("%s is listed in not_analyzed, never thrown", async (path, before, after) => {
    const analysis = await analyzeChanges([{ path, before, after }]);
    expect(analysis.findings.filter((finding) => finding.type === "test_config_tamper")).toEqual([]);
    expect(analysis.not_analyzed.map((entry) => entry.path)).toContain(path);
  });
});
