/**
 * The conservation of checks, end to end on before/after sources: the
 * legitimate reshapes of tests (merges into tables, splits, helpers,
 * framework migrations, moves with an identifier adapted, formatting) give
 * no test finding, in each language where the shape has an idiom; the
 * matching cheats (a check really gone under the same reshape) are flagged.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const lookAlikes: RuleCase[] = [
  {
    name: "js: two tests merged into one it.each table",
    changes: [
      change(
        "test/add.test.ts",
        `it("adds ones", () => { expect(add(1, 1)).toBe(2); });\nit("adds twos", () => { expect(add(2, 2)).toBe(4); });\n`,
        `it.each([\n  [1, 1, 2],\n  [2, 2, 4],\n])("add(%i, %i) = %i", (a, b, sum) => { expect(add(a, b)).toBe(sum); });\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: one test split into two focused tests",
    changes: [
      change(
        "test/parse.test.ts",
        `it("parses numbers", () => {\n  expect(parse("1")).toBe(1);\n  expect(parse("1.5")).toBe(1.5);\n});\n`,
        `it("parses integers", () => { expect(parse("1")).toBe(1); });\nit("parses decimals", () => { expect(parse("1.5")).toBe(1.5); });\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: two tests merged into one that asserts everything they did",
    changes: [
      change(
        "test/parse.test.ts",
        `it("parses integers", () => { expect(parse("1")).toBe(1); });\nit("parses decimals", () => { expect(parse("1.5")).toBe(1.5); });\n`,
        `it("parses numbers", () => {\n  expect(parse("1")).toBe(1);\n  expect(parse("1.5")).toBe(1.5);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: jest matchers migrated to node:assert in the same test",
    changes: [
      change(
        "test/log.test.ts",
        `it("logs the message", () => {\n  const s = format("hi");\n  expect(s).toMatch("hi");\n  expect(s.length).toBeGreaterThan(0);\n});\n`,
        `import assert from "node:assert/strict";\nit("logs the message", () => {\n  const s = format("hi");\n  assert.ok(s.includes("hi"));\n  assert.ok(s.length > 0);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: toHaveBeenCalledWith migrated to node:test mock calls",
    changes: [
      change(
        "test/notify.test.ts",
        `it("notifies once", () => {\n  const fn = vi.fn();\n  notify(fn);\n  expect(fn).toHaveBeenCalledWith(1);\n});\n`,
        `import assert from "node:assert/strict";\nimport { mock } from "node:test";\nit("notifies once", () => {\n  const fn = mock.fn();\n  notify(fn);\n  assert.equal(fn.mock.callCount(), 1);\n  assert.deepEqual(fn.mock.calls[0].arguments, [1]);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: a mocked process.exit + toHaveBeenCalled migrated to assert.throws(fn, { code })",
    changes: [
      change(
        "test/cli.test.ts",
        `it("rejects a bad flag", () => {\n  const exit = vi.spyOn(process, "exit");\n  run(["--bad"]);\n  expect(exit).toHaveBeenCalled();\n});\n`,
        `import assert from "node:assert/strict";\nit("rejects a bad flag", () => {\n  assert.throws(() => run(["--bad"]), { code: "E_USAGE" });\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: a test moved to another file, its title kept and one identifier adapted",
    changes: [
      change(
        "test/cart.test.ts",
        `describe("cart", () => {\n  it("sums the line totals", () => { expect(cart.total([1, 2])).toBe(3); });\n  it("keeps", () => { expect(1 + x).toBe(2); });\n});\n`,
        `describe("cart", () => {\n  it("keeps", () => { expect(1 + x).toBe(2); });\n});\n`,
      ),
      change("test/money.test.ts", null, `describe("money", () => {\n  it("sums the line totals", () => { expect(total([1, 2])).toBe(3); });\n});\n`),
    ],
    findings: [],
  },
  {
    name: "js: assertions moved into a local check helper",
    changes: [
      change(
        "test/f.test.ts",
        `it("doubles", () => {\n  expect(f(1)).toBe(2);\n  expect(f(2)).toBe(4);\n});\n`,
        `function check(n, want) {\n  expect(f(n)).toBe(want);\n}\nit("doubles", () => {\n  check(1, 2);\n  check(2, 4);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: test.each with a printf title against describe + forEach over the same rows",
    changes: [
      change(
        "test/run.test.ts",
        `test.each(["npm", "pnpm"])("works via %s", (name) => { expect(run(name)).toBe(0); });\n`,
        `describe("works", () => {\n  ["npm", "pnpm"].forEach((name) => {\n    test(\`via \${name}\`, () => { expect(run(name)).toBe(0); });\n  });\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: test.each over object rows with a $name title against a describe per row",
    changes: [
      change(
        "test/run.test.ts",
        `test.each([{ tool: "npm", code: 0 }, { tool: "pnpm", code: 0 }])("runs $tool", ({ tool, code }) => { expect(run(tool)).toBe(code); });\n`,
        `describe("runs", () => {\n  it("npm", () => { expect(run("npm")).toBe(0); });\n  it("pnpm", () => { expect(run("pnpm")).toBe(0); });\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "python: two tests merged into one parametrize",
    changes: [
      change(
        "tests/test_f.py",
        "def test_square():\n    assert f(2) == 4\n\ndef test_cube():\n    assert f(3) == 9\n",
        "import pytest\n\n@pytest.mark.parametrize('x, y', [(2, 4), (3, 9)])\ndef test_f(x, y):\n    assert f(x) == y\n",
      ),
    ],
    findings: [],
  },
  {
    name: "python: one test split into two",
    changes: [
      change(
        "tests/test_parse.py",
        "def test_parse():\n    assert parse('1') == 1\n    assert parse('x') is None\n",
        "def test_parse_number():\n    assert parse('1') == 1\n\ndef test_parse_garbage():\n    assert parse('x') is None\n",
      ),
    ],
    findings: [],
  },
  {
    name: "js: an assertion moved from a helper into a helper it calls",
    changes: [
      change(
        "test/f.test.ts",
        `function place() {\n  const made = make();\n  expect(made.status).toBe(0);\n  return made.dir;\n}\nit("works", () => {\n  const dir = place();\n  expect(run(dir)).toBe(1);\n});\n`,
        `function template() {\n  const made = make();\n  expect(made.status).toBe(0);\n  return made.dir;\n}\nfunction place() {\n  return copy(template());\n}\nit("works", () => {\n  const dir = place();\n  expect(run(dir)).toBe(1);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "python: assertions moved into a local check helper",
    changes: [change("tests/test_f.py", "def test_f():\n    assert f(1) == 2\n    assert f(2) == 4\n", "def check(x, y):\n    assert f(x) == y\n\ndef test_f():\n    check(1, 2)\n    check(2, 4)\n")],
    findings: [],
  },
  {
    name: "python: isinstance + message check replaced by pytest.warns(match=)",
    changes: [
      change(
        "tests/test_warn.py",
        "import warnings\n\ndef test_warns():\n    with warnings.catch_warnings(record=True) as w:\n        old()\n    assert isinstance(w[0].message, UserWarning)\n    assert 'deprecated' in str(w[0].message)\n",
        "import pytest\n\ndef test_warns():\n    with pytest.warns(UserWarning, match='deprecated'):\n        old()\n",
      ),
    ],
    findings: [],
  },
  {
    name: "python: a formatter adds trailing commas inside an expected value",
    changes: [change("tests/test_f.py", "def test_f():\n    assert f() == [1, 2]\n", "def test_f():\n    assert f() == [\n        1,\n        2,\n    ]\n")],
    findings: [],
  },
  {
    name: "go: two tests merged into one table test",
    changes: [
      change(
        "add_test.go",
        `package add\n\nimport "testing"\n\nfunc TestAddOnes(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Error("1+1")\n\t}\n}\n\nfunc TestAddTwos(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Error("2+2")\n\t}\n}\n`,
        `package add\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\ttests := []struct{ a, b, want int }{\n\t\t{1, 1, 2},\n\t\t{2, 2, 4},\n\t}\n\tfor _, tt := range tests {\n\t\tif Add(tt.a, tt.b) != tt.want {\n\t\t\tt.Errorf("%d+%d", tt.a, tt.b)\n\t\t}\n\t}\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "go: tests with got := f(…) merged into a table test with if got := …; got != tt.want",
    changes: [
      change(
        "parse_test.go",
        `package p\n\nimport "testing"\n\nfunc TestParseOne(t *testing.T) {\n\tgot := Parse("1")\n\tif got != 1 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n\nfunc TestParseTwo(t *testing.T) {\n\tgot := Parse("2")\n\tif !reflect.DeepEqual(got, 2) {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n`,
        `package p\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {\n\tfor _, tt := range []struct {\n\t\tin   string\n\t\twant int\n\t}{{"1", 1}, {"2", 2}} {\n\t\tif got := Parse(tt.in); got != tt.want {\n\t\t\tt.Errorf("got %d", got)\n\t\t}\n\t}\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "go: assertions moved into a helper taking t",
    changes: [
      change(
        "sum_test.go",
        `package sum\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Errorf("bad")\n\t}\n}\n`,
        `package sum\n\nimport "testing"\n\nfunc checkSum(t *testing.T, a, b, want int) {\n\tt.Helper()\n\tif Sum(a, b) != want {\n\t\tt.Errorf("bad")\n\t}\n}\n\nfunc TestSum(t *testing.T) {\n\tcheckSum(t, 1, 2, 3)\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "java: two JUnit tests merged into one asserting everything",
    changes: [
      change(
        "src/test/java/AddTest.java",
        "class AddTest {\n  @Test void addsOnes() { assertEquals(2, add(1, 1)); }\n  @Test void addsTwos() { assertEquals(4, add(2, 2)); }\n}\n",
        "class AddTest {\n  @Test void adds() {\n    assertEquals(2, add(1, 1));\n    assertEquals(4, add(2, 2));\n  }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "php: two tests merged into one @dataProvider test",
    changes: [
      change(
        "tests/AddTest.php",
        "<?php\nclass AddTest extends TestCase {\n  public function testOnes() { $this->assertSame(2, add(1, 1)); }\n  public function testTwos() { $this->assertSame(4, add(2, 2)); }\n}\n",
        "<?php\nclass AddTest extends TestCase {\n  public static function cases() { return [[1, 1, 2], [2, 2, 4]]; }\n  /** @dataProvider cases */\n  public function testAdd($a, $b, $sum) { $this->assertSame($sum, add($a, $b)); }\n}\n",
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "js: tests merged into it.each, one of them left without a row",
    changes: [
      change(
        "test/add.test.ts",
        `it("adds ones", () => { expect(add(1, 1)).toBe(2); });\nit("adds twos", () => { expect(add(2, 2)).toBe(4); });\n`,
        `it.each([\n  [1, 1, 2],\n])("add(%i, %i) = %i", (a, b, sum) => { expect(add(a, b)).toBe(sum); });\n`,
      ),
    ],
    findings: [`test_deletion/critical test/add.test.ts "adds twos"`],
  },
  {
    name: "js: a test split in two, one check dropped on the way",
    changes: [
      change(
        "test/parse.test.ts",
        `it("parses numbers", () => {\n  expect(parse("1")).toBe(1);\n  expect(parse("1.5")).toBe(1.5);\n  expect(parse("-2")).toBe(-2);\n});\n`,
        `it("parses integers", () => { expect(parse("1")).toBe(1); });\nit("parses decimals", () => { expect(parse("1.5")).toBe(1.5); });\n`,
      ),
    ],
    findings: [`assertion_removal/high test/parse.test.ts "parses numbers"`],
  },
  {
    name: "js: a migration that weakens toBe into assert.ok",
    changes: [
      change(
        "test/log.test.ts",
        `it("formats", () => {\n  expect(format("hi")).toBe("[hi]");\n});\n`,
        `import assert from "node:assert/strict";\nit("formats", () => {\n  assert.ok(format("hi"));\n});\n`,
      ),
    ],
    findings: [`assertion_weakening/high test/log.test.ts "formats"`],
  },
  {
    name: "js: moved into a local helper, one call left out",
    changes: [
      change(
        "test/f.test.ts",
        `it("doubles", () => {\n  expect(f(1)).toBe(2);\n  expect(f(2)).toBe(4);\n});\n`,
        `function check(n, want) {\n  expect(f(n)).toBe(want);\n}\nit("doubles", () => {\n  check(1, 2);\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/f.test.ts "doubles"`],
  },
  {
    name: "js: a local helper call that asserts deleted",
    changes: [
      change(
        "test/f.test.ts",
        `function check(n, want) {\n  expect(f(n)).toBe(want);\n}\nit("doubles", () => {\n  check(1, 2);\n  check(2, 4);\n});\n`,
        `function check(n, want) {\n  expect(f(n)).toBe(want);\n}\nit("doubles", () => {\n  check(1, 2);\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/f.test.ts "doubles"`],
  },
  {
    name: "js: a table test renamed and one of its rows dropped",
    changes: [
      change(
        "test/add.test.ts",
        `it.each([\n  [1, 1, 2],\n  [2, 2, 4],\n])("add(%i, %i) = %i", (a, b, sum) => { expect(add(a, b)).toBe(sum); });\n`,
        `it.each([\n  [1, 1, 2],\n])("adds %i and %i", (a, b, sum) => { expect(add(a, b)).toBe(sum); });\n`,
      ),
    ],
    // Paired with its renamed self by its checks (checks/likeness.ts): the row dropped is a test case deleted.
    findings: [`test_deletion/critical test/add.test.ts "adds %i and %i"`],
  },
  {
    name: "js: a table unrolled into plain tests, one row left out",
    changes: [
      change(
        "test/run.test.ts",
        `test.each([{ tool: "npm", code: 0 }, { tool: "pnpm", code: 0 }])("runs $tool", ({ tool, code }) => { expect(run(tool)).toBe(code); });\n`,
        `describe("runs", () => {\n  it("npm", () => { expect(run("npm")).toBe(0); });\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/run.test.ts "runs $tool"`],
  },
  {
    name: "python: tests merged into one parametrize, one row gone",
    changes: [
      change(
        "tests/test_f.py",
        "def test_square():\n    assert f(2) == 4\n\ndef test_cube():\n    assert f(3) == 9\n",
        "import pytest\n\n@pytest.mark.parametrize('x, y', [(2, 4)])\ndef test_f(x, y):\n    assert f(x) == y\n",
      ),
    ],
    findings: [`test_deletion/critical tests/test_f.py "test_cube"`],
  },
  {
    name: "python: a split that drops a check",
    changes: [change("tests/test_parse.py", "def test_parse():\n    assert parse('1') == 1\n    assert parse('x') is None\n", "def test_parse_number():\n    assert parse('1') == 1\n")],
    findings: [`assertion_removal/high tests/test_parse.py "test_parse"`],
  },
  {
    name: "python: moved into a helper, one call left out",
    changes: [change("tests/test_f.py", "def test_f():\n    assert f(1) == 2\n    assert f(2) == 4\n", "def check(x, y):\n    assert f(x) == y\n\ndef test_f():\n    check(1, 2)\n")],
    findings: [`assertion_removal/high tests/test_f.py "test_f"`],
  },
  {
    name: "python: pytest.warns without the message the old check required",
    changes: [
      change(
        "tests/test_warn.py",
        "import warnings\n\ndef test_warns():\n    with warnings.catch_warnings(record=True) as w:\n        old()\n    assert isinstance(w[0].message, UserWarning)\n    assert 'deprecated' in str(w[0].message)\n",
        "import pytest\n\ndef test_warns():\n    with pytest.warns(UserWarning):\n        old()\n",
      ),
    ],
    findings: [`assertion_removal/high tests/test_warn.py "test_warns"`],
  },
  {
    name: "go: a helper call that asserts deleted from a test",
    changes: [
      change(
        "sum_test.go",
        `package sum\n\nimport "testing"\n\nfunc checkSum(t *testing.T, a, b, want int) {\n\tt.Helper()\n\tif Sum(a, b) != want {\n\t\tt.Errorf("bad")\n\t}\n}\n\nfunc TestSum(t *testing.T) {\n\tcheckSum(t, 1, 2, 3)\n\tcheckSum(t, 2, 2, 4)\n}\n`,
        `package sum\n\nimport "testing"\n\nfunc checkSum(t *testing.T, a, b, want int) {\n\tt.Helper()\n\tif Sum(a, b) != want {\n\t\tt.Errorf("bad")\n\t}\n}\n\nfunc TestSum(t *testing.T) {\n\tcheckSum(t, 1, 2, 3)\n}\n`,
      ),
    ],
    findings: [`assertion_removal/high sum_test.go "TestSum"`],
  },
  {
    name: "go: tests merged into a table test, one case missing",
    changes: [
      change(
        "add_test.go",
        `package add\n\nimport "testing"\n\nfunc TestAddOnes(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Error("1+1")\n\t}\n}\n\nfunc TestAddTwos(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Error("2+2")\n\t}\n}\n`,
        `package add\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\ttests := []struct{ a, b, want int }{\n\t\t{1, 1, 2},\n\t}\n\tfor _, tt := range tests {\n\t\tif Add(tt.a, tt.b) != tt.want {\n\t\t\tt.Errorf("%d+%d", tt.a, tt.b)\n\t\t}\n\t}\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical add_test.go "TestAddTwos"`],
  },
  {
    name: "go: two tests with got := f(…) and the same check text, one deleted",
    changes: [
      change(
        "parse_test.go",
        `package p\n\nimport "testing"\n\nfunc TestParseOne(t *testing.T) {\n\tgot := Parse("1")\n\tif got != 1 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n\nfunc TestParseTwo(t *testing.T) {\n\tgot := Parse("2")\n\tif got != 1 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n`,
        `package p\n\nimport "testing"\n\nfunc TestParseOne(t *testing.T) {\n\tgot := Parse("1")\n\tif got != 1 {\n\t\tt.Errorf("bad: got %d", got)\n\t}\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical parse_test.go "TestParseTwo"`],
  },
  {
    name: "java: two tests merged into one that drops a check",
    changes: [
      change(
        "src/test/java/AddTest.java",
        "class AddTest {\n  @Test void addsOnes() { assertEquals(2, add(1, 1)); }\n  @Test void addsTwos() { assertEquals(4, add(2, 2)); assertEquals(6, add(3, 3)); }\n}\n",
        "class AddTest {\n  @Test void adds() {\n    assertEquals(2, add(1, 1));\n    assertEquals(4, add(2, 2));\n  }\n}\n",
      ),
    ],
    findings: [`assertion_removal/high src/test/java/AddTest.java "AddTest > addsTwos"`],
  },
];

describe("conservation of checks: legitimate reshapes of tests", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("conservation of checks: the same reshapes hiding a lost check", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
