/**
 * A test deleted with the member it read: a JS/TS class field, accessor or
 * constructor parameter property, a Python instance attribute assigned
 * on `self`, or a Ruby instance variable (read by `instance_variable_get(:@x)`),
 * that the change removes (languages/javascript-source.ts
 * declaredJavaScriptNames, parsers/tree-sitter-subjects.ts declaredNames,
 * rules/dependencies.ts findRemovedNames). sindresorhus/got d4ebbfe954
 * turned `private readonly _init` into `readonly #init`, and the test that
 * read `(options as any)._init.length` went with it: feature_removal at
 * medium, as for a removed method. A member still declared after the
 * change, or a deleted test that also checked surviving code, stays a
 * test_deletion.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const tsOptions = (field: string, body: string): string =>
  `export class Options {\n  ${field}: object[] = [];\n  merge(options: object): void {\n    ${body}\n  }\n  get size(): number {\n    return 1;\n  }\n}\n`;
const tsBefore = tsOptions("private readonly _init", "this._init.push(options);");
const tsAfter = tsOptions("readonly #init", "this.#init.push(options);");
const tsTests = (extra: string): string =>
  `import test from "ava";\nimport {Options} from "../source/options.js";\n\ntest("merges", t => {\n  const options = new Options();\n  options.merge({a: 1});\n  t.is(options.size, 1);\n});\n${extra}`;
const tsInitTest = `\ntest("does not append to internal _init", t => {\n  const options = new Options();\n  const {length} = (options as any)._init;\n  options.merge({});\n  t.is((options as any)._init.length, length + 1);\n});\n`;
const tsMixedTest = `\ntest("does not append to internal _init", t => {\n  const options = new Options();\n  options.merge({});\n  t.is((options as any)._init.length, 1);\n  t.is(options.size, 1);\n});\n`;

const jsClient = (param: string): string => `export class Client {\n  constructor(${param}) {\n    this.url = "x";\n  }\n  get(key) {\n    return key;\n  }\n}\n`;
const tsClient = (param: string): string => `export class Client {\n  constructor(${param}) {}\n  get(key: string): string {\n    return key;\n  }\n}\n`;
const tsClientTests = (extra: string): string =>
  `import {expect, test} from "vitest";\nimport {Client} from "../src/client.js";\n\ntest("gets", () => {\n  expect(new Client(new Map()).get("a")).toBe("a");\n});\n${extra}`;
const tsCacheTest = `\ntest("starts with an empty cache", () => {\n  expect(new Client(new Map()).cache.size).toBe(0);\n});\n`;

const pyCache = (init: string): string => `class Store:\n    def __init__(self):\n${init}        self.name = "s"\n\n    def get(self, key):\n        return key\n`;
const pyTests = (extra: string): string => `from lib.store import Store\n\n\ndef test_get():\n    assert Store().get("a") == "a"\n${extra}`;
const pyCacheTest = `\n\ndef test_cache_starts_empty():\n    assert Store()._cache == {}\n`;

const rbCode = (kept: boolean): string =>
  `class CentralDirectory\n  def read(io)\n    ${kept ? "@" : ""}version_needed = io.read(2)\n    @size = io.read(4)\n  end\n\n  def size\n    @size\n  end\nend\n`;
const rbTest = (extra: string): string =>
  `require "minitest/autorun"\nclass CdTest < Minitest::Test\n  def test_read\n    cd = CentralDirectory.new\n    cd.read(io)\n    assert_equal(4, cd.size)\n${extra}  end\nend\n`;
const rbIvarCheck = "    assert_equal(45, cd.instance_variable_get(:@version_needed))\n";

const cases: RuleCase[] = [
  {
    name: "ts: a private field turned into a #private one, its test reading (x as any)._init deleted (got d4ebbfe954)",
    changes: [change("source/options.ts", tsBefore, tsAfter), change("test/options.ts", tsTests(tsInitTest), tsTests(""))],
    findings: ['feature_removal/medium test/options.ts "does not append to internal _init"'],
  },
  {
    name: "ts: a constructor parameter property removed, its test deleted",
    changes: [
      change("src/client.ts", tsClient("private readonly cache: Map<string, string>"), tsClient("_cache: Map<string, string>")),
      change("test/client.test.ts", tsClientTests(tsCacheTest), tsClientTests("")),
    ],
    findings: ['feature_removal/medium test/client.test.ts "starts with an empty cache"'],
  },
  {
    name: "js: a field the constructor assigns on this removed, its test deleted",
    changes: [
      change("src/client.js", jsClient("url"), jsClient("url").replace('    this.url = "x";\n', "")),
      change(
        "test/client.test.js",
        `import {expect, test} from "vitest";\nimport {Client} from "../src/client.js";\n\ntest("gets", () => {\n  expect(new Client().get("a")).toBe("a");\n});\n\ntest("has a url", () => {\n  expect(new Client().url).toBe("x");\n});\n`,
        `import {expect, test} from "vitest";\nimport {Client} from "../src/client.js";\n\ntest("gets", () => {\n  expect(new Client().get("a")).toBe("a");\n});\n`,
      ),
    ],
    findings: ['feature_removal/medium test/client.test.js "has a url"'],
  },
  {
    name: "cheat: js: the field is still assigned on this, its test deleted",
    changes: [
      change("src/client.js", jsClient("url"), jsClient("url").replace("return key;", "return key + this.url;")),
      change(
        "test/client.test.js",
        `import {expect, test} from "vitest";\nimport {Client} from "../src/client.js";\n\ntest("gets", () => {\n  expect(new Client().get("a")).toBe("a");\n});\n\ntest("has a url", () => {\n  expect(new Client().url).toBe("x");\n});\n`,
        `import {expect, test} from "vitest";\nimport {Client} from "../src/client.js";\n\ntest("gets", () => {\n  expect(new Client().get("a")).toBe("a");\n});\n`,
      ),
    ],
    findings: ['test_deletion/critical test/client.test.js "has a url"'],
  },
  {
    name: "python: an instance attribute no longer assigned on self, its test deleted",
    changes: [change("src/lib/store.py", pyCache("        self._cache = {}\n"), pyCache("")), change("tests/test_store.py", pyTests(pyCacheTest), pyTests(""))],
    findings: ['feature_removal/medium tests/test_store.py "test_cache_starts_empty"'],
  },
  {
    name: "ruby: an instance variable no longer kept, its check through instance_variable_get dropped (rubyzip 73b44550f8)",
    changes: [change("lib/zip/central_directory.rb", rbCode(true), rbCode(false)), change("test/central_directory_test.rb", rbTest(rbIvarCheck), rbTest(""))],
    findings: ['feature_removal/medium test/central_directory_test.rb "CdTest > test_read"'],
  },
  {
    name: "ruby: an instance variable of a multiple assignment no longer kept (rubyzip 73b44550f8)",
    changes: [
      change(
        "lib/zip/central_directory.rb",
        rbCode(true).replace("@version_needed = io.read(2)", "_, @version_needed = io.read(2)"),
        rbCode(false).replace("version_needed = io.read(2)", "_, _version_needed = io.read(2)"),
      ),
      change("test/central_directory_test.rb", rbTest(rbIvarCheck), rbTest("")),
    ],
    findings: ['feature_removal/medium test/central_directory_test.rb "CdTest > test_read"'],
  },
  {
    name: "cheat: ruby: the instance variable is still kept, its check dropped",
    changes: [change("lib/zip/central_directory.rb", rbCode(true), `${rbCode(true)}\n`), change("test/central_directory_test.rb", rbTest(rbIvarCheck), rbTest(""))],
    findings: ['assertion_removal/high test/central_directory_test.rb "CdTest > test_read"'],
  },
  {
    name: "cheat: ts: the field survives, its test deleted",
    changes: [
      change("source/options.ts", tsBefore, tsBefore.replace("get size(): number {\n    return 1;", "get size(): number {\n    return this._init.length;")),
      change("test/options.ts", tsTests(tsInitTest), tsTests("")),
    ],
    findings: ['test_deletion/critical test/options.ts "does not append to internal _init"'],
  },
  {
    name: "cheat: ts: the deleted test also checked a member that survives",
    changes: [change("source/options.ts", tsBefore, tsAfter), change("test/options.ts", tsTests(tsMixedTest), tsTests(""))],
    findings: ['test_deletion/critical test/options.ts "does not append to internal _init"'],
  },
  {
    name: "cheat: python: the attribute still assigned in another method, its test deleted",
    changes: [
      change("src/lib/store.py", pyCache("        self._cache = {}\n"), `${pyCache("")}\n    def reset(self):\n        self._cache = {}\n`),
      change("tests/test_store.py", pyTests(pyCacheTest), pyTests("")),
    ],
    findings: ['test_deletion/critical tests/test_store.py "test_cache_starts_empty"'],
  },
];

describe("a test deleted with the member it read", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("declared names", () => {
  it("js/ts: classes, members, #private names, parameter properties, module bindings, interfaces, types and enums", async () => {
    const source = `export class A {\n  #secret = 1;\n  reset() { this.count = 0; this.#n = 1; const f = function () { this.inner = 2; }; }\n  static defaults = {};\n  constructor(private readonly cache: Map<string, string>, plain: number) {}\n  get size() { return 1; }\n  run() { const inner = 1; return inner; }\n  ["computed"]() {}\n}\nconst B = class { field = 1; };\nexport function make() { let local = 2; return local; }\nexport interface Options { isStream?: boolean; merge(): void }\ntype Alias = string;\nenum Mode { Fast, "slow-mode" }\n`;
    const facts = await extractFacts("src/a.ts", source);
    expect(facts.code?.declared).toEqual([
      "#n",
      "#secret",
      "A",
      "Alias",
      "B",
      "Fast",
      "Mode",
      "Options",
      "cache",
      "count",
      "defaults",
      "field",
      "isStream",
      "make",
      "merge",
      "reset",
      "run",
      "size",
      "slow-mode",
    ]);
  });
  it("python: attributes assigned on self in methods, not on other objects or in functions", async () => {
    const source = `class Store:\n    limit = 3\n\n    def __init__(self, other):\n        self._cache = {}\n        other.name = "x"\n\n    @property\n    def size(self):\n        self._size = 1\n        return 1\n\n\ndef helper(self):\n    self.loose = 1\n`;
    const facts = await extractFacts("src/store.py", source);
    expect(facts.code?.declared).toEqual(expect.arrayContaining(["Store", "_cache", "_size", "limit", "size"]));
    expect(facts.code?.declared).not.toContain("name");
    expect(facts.code?.declared).not.toContain("loose");
  });
});
