/**
 * Test discovery from runner configs: which files vitest, jest, mocha and
 * pytest collect, read from inline config files, as a table of trees and
 * the answer for each path (`yes` collected, `no` left out, `?` unknown: the
 * naming conventions apply); then the pytest name rules handed to the
 * Python extractor, and how a config change is seen between two trees.
 */
import { describe, expect, it } from "vitest";
import { filesLeavingDiscovery, TestDiscovery, type TreeReader } from "../../src/analysis/discovery.js";
import { extractFacts } from "../../src/analysis/index.js";
import { treeOf } from "../helpers/trees.js";

interface DiscoveryCase {
  name: string;
  files: Record<string, string>;
  /** path -> "yes" | "no" | "?" */
  expect: Record<string, "yes" | "no" | "?">;
}

const CASES: DiscoveryCase[] = [
  {
    name: "no runner config: unknown everywhere",
    files: { "package.json": `{ "name": "x", "scripts": { "test": "vitest" } }` },
    expect: { "test/a.test.ts": "?", "src/a.ts": "?", "tests/test_a.py": "?" },
  },
  {
    name: "vitest defaults when the config sets no files",
    files: { "vitest.config.ts": `import { defineConfig } from "vitest/config";\nexport default defineConfig({ test: { globals: true } });` },
    expect: { "src/a.test.ts": "yes", "test/a.spec.mjs": "yes", "test/helpers.ts": "no", "node_modules/x/a.test.js": "no", "e2e/login.cy.ts": "no" },
  },
  {
    name: "vitest include, exclude with configDefaults, dir",
    files: {
      "vitest.config.mts": `import { configDefaults, defineConfig } from "vitest/config";\nexport default defineConfig({ test: { dir: "packages", include: ["**/*.check.ts"], exclude: [...configDefaults.exclude, "**/fixtures/**"] } });`,
    },
    expect: { "packages/a/b.check.ts": "yes", "packages/a/b.test.ts": "no", "packages/fixtures/b.check.ts": "no", "src/b.check.ts": "no", "packages/node_modules/b.check.ts": "no" },
  },
  {
    name: "vitest includeSource collects in-source tests",
    files: { "vite.config.ts": `export default { test: { includeSource: ["src/**/*.ts"] } };` },
    expect: { "src/math.ts": "yes", "lib/math.ts": "no", "lib/math.test.ts": "yes" },
  },
  {
    name: "a vite config without a test block is the app's, not vitest's",
    files: { "vite.config.ts": `export default { plugins: [] };`, "jest.config.js": `module.exports = { testMatch: ["**/*.spec.js"] };` },
    expect: { "a.spec.js": "yes", "a.test.js": "no" },
  },
  {
    name: "vitest projects and computed includes are unknown",
    files: {
      "vitest.config.ts": `export default { test: { projects: ["packages/*"] } };`,
      "packages/b/vitest.config.ts": `export default { test: { include: globs() } };`,
      "packages/c/vitest.config.ts": `export default { test: { include: ["src/**/*.test.ts"] } };`,
    },
    expect: { "test/a.test.ts": "?", "packages/b/a.test.ts": "?", "packages/c/src/a.test.ts": "yes", "packages/c/test/a.test.ts": "no" },
  },
  {
    name: "jest defaults: __tests__ and .test/.spec files",
    files: { "jest.config.js": `module.exports = { testEnvironment: "node" };` },
    expect: { "src/__tests__/a.ts": "yes", "test/a.test.js": "yes", "test/a.spec.cts": "yes", "test/helpers.js": "no", "node_modules/p/a.test.js": "no" },
  },
  {
    name: "jest in package.json: roots and testRegex (dayjs)",
    files: { "package.json": JSON.stringify({ jest: { roots: ["test"], testRegex: "test/(.*?/)?.*test.js$" } }) },
    expect: { "test/a.test.js": "yes", "test/locale/b.test.js": "yes", "test/browser.spec.js": "no", "test/__mocks__/dayjs.js": "no", "src/a.test.js": "no" },
  },
  {
    name: "jest testMatch with <rootDir>, negation and testPathIgnorePatterns",
    files: {
      "jest.config.ts": `export default { rootDir: "src", testMatch: ["<rootDir>/**/*.test.ts", "!**/*.slow.test.ts"], testPathIgnorePatterns: ["/node_modules/", "<rootDir>/fixtures/"] };`,
    },
    expect: { "src/a.test.ts": "yes", "src/a.slow.test.ts": "no", "src/fixtures/a.test.ts": "no", "test/a.test.ts": "no" },
  },
  {
    name: "jest moduleFileExtensions and a relative testMatch (matched against the absolute path: nothing)",
    files: {
      "packages/p/jest.config.json": JSON.stringify({ moduleFileExtensions: ["js"], testMatch: ["**/*.test.*"] }),
      "packages/q/jest.config.json": JSON.stringify({ testMatch: ["src/**/*.test.js"] }),
    },
    expect: { "packages/p/a.test.js": "yes", "packages/p/a.test.ts": "no", "packages/q/src/a.test.js": "no" },
  },
  {
    name: "jest projects and a computed rootDir are unknown",
    files: {
      "jest.config.js": `module.exports = { projects: ["<rootDir>/a"] };`,
      "b/jest.config.js": `module.exports = { rootDir: path.join(__dirname, "src") };`,
      "c/jest.config.js": `module.exports = { rootDir: __dirname, testMatch: ["**/*.spec.js"] };`,
    },
    expect: { "a/x.test.js": "?", "b/x.test.js": "?", "c/x.spec.js": "yes", "c/x.test.js": "no" },
  },
  {
    name: "a spread of a config the file does not show, or an unknown jest preset, is unknown; ts-jest presets keep jest's file defaults",
    files: {
      "a/jest.config.js": `const base = require("../jest.base");\nmodule.exports = { ...base, testEnvironment: "node" };`,
      "b/vitest.config.ts": `import shared from "../shared";\nexport default { test: { ...shared.test, globals: true } };`,
      "c/jest.config.js": `module.exports = { preset: "jest-expo" };`,
      "d/jest.config.js": `module.exports = { preset: "ts-jest/presets/default-esm" };`,
      "e/.mocharc.cjs": `module.exports = { ...require("./base.cjs"), spec: ["test/**/*.js"] };`,
    },
    expect: { "a/x.test.js": "?", "b/x.test.ts": "?", "c/x.test.js": "?", "d/x.test.ts": "yes", "d/helper.ts": "no", "e/test/a.js": "?" },
  },
  {
    name: "mocha spec: a folder (recursive or not), a glob, ignore",
    files: {
      ".mocharc.yml": "spec: test/unit\nrecursive: false\n",
      "pkg/.mocharc.json": JSON.stringify({ spec: ["test/**/*.spec.ts"], ignore: ["test/fixtures/**"] }),
      "deep/.mocharc.cjs": `module.exports = { spec: "spec", recursive: true, extension: ["ts"] };`,
    },
    expect: {
      "test/unit/a.js": "yes",
      "test/unit/nested/a.js": "no",
      "test/unit/a.ts": "no",
      "test/a.test.js": "no",
      "pkg/test/x/a.spec.ts": "yes",
      "pkg/test/fixtures/a.spec.ts": "no",
      "deep/spec/x/y.ts": "yes",
      "deep/spec/x/y.js": "no",
    },
  },
  {
    name: "mocha without spec leaves the files to the command line",
    files: { ".mocharc.json": `{ "require": "ts-node/register" }` },
    expect: { "test/a.js": "?" },
  },
  {
    name: "two JS runners in one folder collect the union",
    files: { "vitest.config.ts": `export default { test: { include: ["src/**/*.test.ts"] } };`, ".mocharc.json": `{ "spec": "test/**/*.js" }` },
    expect: { "src/a.test.ts": "yes", "test/a.js": "yes", "test/a.test.ts": "no" },
  },
  {
    name: "a config that cannot be read makes its folder unknown",
    files: { "jest.config.js": "module.exports = {", "package.json": "{ not json" },
    expect: { "test/a.test.js": "?" },
  },
  {
    name: "pytest.ini testpaths, python_files, norecursedirs",
    files: { "pytest.ini": "[pytest]\ntestpaths = tests integration/test_smoke.py\npython_files = check_*.py test_*.py\nnorecursedirs = data\n" },
    expect: {
      "tests/check_a.py": "yes",
      "tests/test_a.py": "yes",
      "tests/a_test.py": "no",
      "tests/data/test_a.py": "no",
      "tests/.hidden/test_a.py": "yes",
      "src/test_a.py": "no",
      "integration/test_smoke.py": "yes",
      "src/a.ts": "?",
    },
  },
  {
    name: "pytest defaults under a config that sets testpaths only",
    files: { "pyproject.toml": `[tool.pytest.ini_options]\ntestpaths = ["tests"]\n` },
    expect: { "tests/test_a.py": "yes", "tests/a_test.py": "yes", "tests/helpers.py": "no", "tests/build/test_a.py": "no", "tests/.venv/test_a.py": "no", "test_root.py": "no" },
  },
  {
    name: "pytest settings in setup.cfg and tox.ini; pytest.ini wins in its folder",
    files: {
      "a/setup.cfg": "[tool:pytest]\npython_files = *_spec.py\n",
      "b/tox.ini": "[tox]\nenvlist = py3\n[pytest]\npython_files = t_*.py\n",
      "b/setup.cfg": "[tool:pytest]\npython_files = s_*.py\n",
      "c/pytest.ini": "[pytest]\n",
      "c/pyproject.toml": `[tool.pytest.ini_options]\npython_files = ["x_*.py"]\n`,
      "d/pyproject.toml": `[project]\nname = "d"\n`,
    },
    expect: { "a/x_spec.py": "yes", "a/test_x.py": "no", "b/t_x.py": "yes", "b/s_x.py": "no", "c/x_a.py": "?", "c/test_a.py": "?", "d/test_a.py": "?" },
  },
];

describe("test discovery from runner configs", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const discovery = new TestDiscovery(treeOf(c.files));
    const answers: Record<string, string> = {};
    for (const path of Object.keys(c.expect)) {
      const { collected } = await discovery.collection(path);
      answers[path] = collected === null ? "?" : collected ? "yes" : "no";
    }
    expect(answers).toEqual(c.expect);
  });

  it("names the config that decided", async () => {
    const discovery = new TestDiscovery(treeOf({ "package.json": JSON.stringify({ jest: { testRegex: "\\.t\\.js$" } }) }));
    expect(await discovery.collection("a.js")).toEqual({ collected: false, by: `jest testRegex (package.json "jest")`, excluded: false });
    expect(await discovery.collection("a.t.js")).toEqual({ collected: true, by: `jest testRegex (package.json "jest")` });
  });

  it.each([
    ["vitest exclude", { "vitest.config.ts": `export default { test: { exclude: ["**/fixtures/**"] } };` }, "test/fixtures/a.test.ts", "test/e2e.ts"],
    ["jest testPathIgnorePatterns", { "jest.config.js": `module.exports = { roots: ["<rootDir>/src"], testPathIgnorePatterns: ["/legacy/"] };` }, "src/legacy/a.test.js", "test/a.e2e-spec.js"],
    ["mocha ignore", { ".mocharc.json": `{ "spec": "test/**/*.spec.js", "ignore": "test/skip/**" }` }, "test/skip/a.spec.js", "e2e/a.spec.js"],
    ["pytest norecursedirs", { "pytest.ini": "[pytest]\ntestpaths = tests\nnorecursedirs = data\n" }, "tests/data/test_a.py", "integration/test_a.py"],
  ] as const)("tells an exclusion (%s) from a path the include patterns do not reach", async (_name, files, excludedPath, outsidePath) => {
    const discovery = new TestDiscovery(treeOf(files));
    expect(await discovery.collection(excludedPath)).toMatchObject({ collected: false, excluded: true });
    expect(await discovery.collection(outsidePath)).toMatchObject({ collected: false, excluded: false });
  });

  it('reads pytest 9\'s native [tool.pytest] table in pyproject.toml as it reads [tool.pytest.ini_options] (attrs: testpaths = ["tests"] leaves bench/ out)', async () => {
    const discovery = new TestDiscovery(treeOf({ "pyproject.toml": `[project]\nname = "attrs"\n\n[tool.pytest]\nstrict = true\ntestpaths = ["tests"]\naddopts = ["-ra"]\n` }));
    expect(await discovery.collection("tests/test_make.py")).toMatchObject({ collected: true });
    expect(await discovery.collection("bench/test_benchmarks.py")).toMatchObject({ collected: false, excluded: false });
  });

  it("hands pytest's class and function patterns to the extractor, and marks modules collected by python_files", async () => {
    const discovery = new TestDiscovery(treeOf({ "setup.cfg": "[tool:pytest]\npython_files = check_*.py\npython_classes = Check\npython_functions = check_* test\n" }));
    expect((await discovery.collection("tests/check_a.py")).rules).toEqual({ testModule: true, classPatterns: ["Check"], functionPatterns: ["check_*", "test"] });
    const defaults = new TestDiscovery(treeOf({ "pytest.ini": "[pytest]\ntestpaths = tests\n" }));
    expect((await defaults.collection("tests/test_a.py")).rules).toBeUndefined();
  });

  it("reads each folder's configs once, however many files it answers for", async () => {
    const files = { "jest.config.js": `module.exports = { testMatch: ["**/*.test.js"] };` };
    const reads: string[] = [];
    const tree = treeOf(files);
    const counting: TreeReader = { ...tree, read: (path) => (reads.push(path), tree.read(path)) };
    const discovery = new TestDiscovery(counting);
    for (let i = 0; i < 50; i++) await discovery.collection(`src/deep/d${i % 5}/f${i}.test.js`);
    expect(reads).toEqual(["jest.config.js"]);
  });
});

describe("files leaving discovery between two trees", () => {
  const tests = { "test/a.test.ts": "it('a', () => {});", "test/b.test.ts": "it('b', () => {});", "test/slow/c.test.ts": "it('c', () => {});" };

  it("lists the untouched files a narrowed include no longer collects", async () => {
    const before = treeOf({ ...tests, "vitest.config.ts": `export default { test: { include: ["test/**/*.test.ts"] } };` });
    const after = treeOf({ ...tests, "vitest.config.ts": `export default { test: { include: ["test/*.test.ts"] } };` });
    const losses = await filesLeavingDiscovery({ discovery: new TestDiscovery(before), tree: before }, { discovery: new TestDiscovery(after), tree: after }, ["vitest.config.ts"]);
    expect(losses).toEqual([{ path: "test/slow/c.test.ts", by: "vitest (vitest.config.ts)" }]);
  });

  it("walks nothing when the changed config collects the same files", async () => {
    const before = treeOf({ ...tests, "package.json": JSON.stringify({ version: "1.0.0", jest: { testMatch: ["**/*.test.ts"] } }) });
    const after = treeOf({ ...tests, "package.json": JSON.stringify({ version: "1.1.0", jest: { testMatch: ["**/*.test.ts"] } }) });
    const walked: string[] = [];
    const watched: TreeReader = { ...after, walk: (dir) => (walked.push(dir), after.walk(dir)) };
    const losses = await filesLeavingDiscovery({ discovery: new TestDiscovery(before), tree: before }, { discovery: new TestDiscovery(watched), tree: watched }, ["package.json"]);
    expect(losses).toEqual([]);
    expect(walked).toEqual([]);
  });
});

describe("the Python extractor under pytest's collection rules", () => {
  const source = [
    "class CheckMath:",
    "    def check_adds(self):",
    "        assert add(1, 2) == 3",
    "    def test_subs(self):",
    "        assert sub(2, 1) == 1",
    "",
    "class TestOld:",
    "    def check_x(self):",
    "        assert x()",
    "",
    "def check_top():",
    "    assert top() == 1",
    "",
    "def helper():",
    "    return 1",
    "",
  ].join("\n");

  it("collects the python_classes and python_functions names of a python_files module", async () => {
    const facts = await extractFacts("tests/check_math.py", source, { testModule: true, classPatterns: ["Check"], functionPatterns: ["check_*"] });
    expect(facts.tests.map((test) => test.id)).toEqual(["CheckMath > check_adds", "check_top"]);
    expect(facts.isTestFile).toBe(true);
  });

  it("keeps pytest's defaults without rules (check_*.py is not a test module)", async () => {
    expect((await extractFacts("tests/check_math.py", source)).tests).toEqual([]);
    // Defaults: `test*` functions in `Test*` classes; CheckMath is no test class and check_* no test name.
    expect((await extractFacts("tests/test_math.py", source)).tests.map((test) => test.id)).toEqual([]);
  });
});
