/** The ini, TOML, JSON-with-lines and conftest line readers the config detectors stand on. */
import { describe, expect, it } from "vitest";
import { parseIni, parseToml } from "../../../src/analysis/config/ini.js";
import { parseJsonWithLines } from "../../../src/analysis/config/json.js";
import { pythonLines } from "../../../src/analysis/config/python.js";
import { readStaticConfig } from "../../../src/analysis/config/static-value.js";

describe("parseIni", () => {
  it("reads sections, both separators, continuation lines and comments", () => {
    const ini = parseIni("[tool:pytest]\naddopts = -q\n  --strict-markers\n# note\ntestpaths: tests\n\n[coverage:report]\nfail_under = 80 ; inline\n");
    expect(ini.get("tool:pytest")?.get("addopts")).toEqual({ value: "-q\n--strict-markers", line: 2 });
    expect(ini.get("tool:pytest")?.get("testpaths")?.value).toBe("tests");
    expect(ini.get("coverage:report")?.get("fail_under")).toEqual({ value: "80", line: 8 });
  });
});

describe("parseToml", () => {
  it("reads the pyproject subset with lines", () => {
    const doc = parseToml(`# top
[project]
name = "x"
authors = [{ name = "A", email = "a@b.c" }]

[tool.pytest.ini_options]
addopts = """
  -ra
  --strict-markers"""
testpaths = [
  "tests",  # main
  'integration',
]
minversion = 7.0
xfail_strict = true

[[tool.mypy.overrides]]
module = "a.*"

[tool.coverage.report]
fail_under = 9_0
exclude_lines = ['pragma: no cover']
`);
    const pytest = (doc.root.tool as Record<string, Record<string, Record<string, unknown>>>).pytest?.ini_options;
    expect(pytest).toEqual({ addopts: "  -ra\n  --strict-markers", testpaths: ["tests", "integration"], minversion: 7, xfail_strict: true });
    expect(doc.lines.get("tool.pytest.ini_options.testpaths")).toBe(10);
    expect((doc.root.tool as Record<string, Record<string, Record<string, unknown>>>).coverage?.report?.fail_under).toBe(90);
    expect(doc.lines.get("tool.coverage.report.fail_under")).toBe(21);
  });

  it("stays linear on a large file", () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `[tool.t${i}]\nkey = "value ${i}"\nlist = [1, 2, 3]\n`).join("\n");
    const started = performance.now();
    const doc = parseToml(text);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(doc.lines.get("tool.t19999.list")).toBe(20_000 * 4 - 1);
    expect((doc.root.tool as Record<string, Record<string, unknown>>).t19999).toEqual({ key: "value 19999", list: [1, 2, 3] });
  });

  it("throws with a line on broken text", () => {
    expect(() => parseToml('[a]\nb = "open\n')).toThrow(/line 2/);
  });
});

describe("parseJsonWithLines", () => {
  it("accepts comments and trailing commas and records key lines", () => {
    const config = parseJsonWithLines('{\n  // c\n  "scripts": {\n    "test": "jest",\n  },\n}\n');
    expect(config.value).toEqual({ scripts: { test: "jest" } });
    expect(config.lines.get("scripts.test")).toBe(4);
  });
});

describe("pythonLines", () => {
  it("joins bracketed lines, blanks strings and drops comments", () => {
    const lines = pythonLines('x = [\n  "a#b",  # c\n]\ndef f():\n    s = """\n#not\n"""\n');
    expect(lines.map((line) => [line.line, line.indent, line.code, line.strings])).toEqual([
      [1, 0, 'x = [   "",   ]', ["a#b"]],
      [4, 0, "def f():", []],
      [5, 4, 's = """"""', ["\n#not\n"]],
    ]);
  });
});

describe("readStaticConfig", () => {
  it("evaluates defineConfig, consts, spreads, mergeConfig and arrow configs", async () => {
    const config = await readStaticConfig(
      "vitest.config.ts",
      `import { defineConfig, mergeConfig, configDefaults } from "vitest/config";
import base from "./vite.config";
const shared = { include: ["test/**/*.test.ts"] as string[] };
export default mergeConfig(base, defineConfig(() => ({
  test: { ...shared, exclude: [...configDefaults.exclude, "e2e/**"], retry: -1 },
})));
`,
    );
    expect("error" in config).toBe(false);
    if ("error" in config) return;
    expect(config.value).toEqual({ test: { include: ["test/**/*.test.ts"], exclude: ["...«configDefaults.exclude»", "e2e/**"], retry: -1 } });
    expect(config.lines.get("test.exclude")).toBe(5);
  });

  it("reads module.exports and reports a module with no export", async () => {
    const cjs = await readStaticConfig("jest.config.js", "module.exports = { roots: ['<rootDir>/src'] };\n");
    expect(cjs).toMatchObject({ value: { roots: ["<rootDir>/src"] } });
    expect(await readStaticConfig("jest.config.js", "const a = 1;\n")).toEqual({ error: "no default export" });
  });
});
