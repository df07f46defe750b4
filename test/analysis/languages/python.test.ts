/**
 * Python extraction tables: which functions pytest/unittest collect, the
 * flags markers and runtime calls set, parametrize rows, and the strength
 * of each assertion.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import type { TestCase } from "../../../src/analysis/facts.js";

async function testsOf(source: string, path = "tests/test_x.py"): Promise<TestCase[]> {
  const facts = await extractFacts(path, source);
  expect(facts.parseError).toBeUndefined();
  return facts.tests;
}

describe("python: which tests are collected", () => {
  it.each([
    ["a module-level test function", "def test_a():\n    assert 1\n", ["test_a"]],
    ["helpers and fixtures are not tests", "import pytest\n@pytest.fixture\ndef thing():\n    return 1\ndef helper():\n    pass\n", []],
    ["methods of a Test* class", "class TestCart:\n    def test_total(self):\n        assert 1\n    def helper(self):\n        pass\n", ["TestCart > test_total"]],
    ["methods of a class not named Test* are not collected", "class Cart:\n    def test_total(self):\n        assert 1\n", []],
    [
      "unittest.TestCase subclasses whatever their name",
      "import unittest\nclass CartChecks(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(1, 1)\n",
      ["CartChecks > test_total"],
    ],
    ["nested Test classes", "class TestA:\n    class TestB:\n        def test_c(self):\n            pass\n", ["TestA > TestB > test_c"]],
    ["functions nested in a test are not tests", "def test_a():\n    def test_inner():\n        pass\n", ["test_a"]],
    ["async tests", "async def test_io():\n    assert await f() == 1\n", ["test_io"]],
    [
      "test methods inherited from a mixin in the same file, once per collecting class",
      "import unittest\nclass Shared:\n    def test_a(self):\n        assert f()\nclass TestX(Shared, unittest.TestCase):\n    pass\nclass TestY(Shared):\n    def test_a(self):\n        pass\n",
      ["TestX > test_a", "TestY > test_a"],
    ],
    ["a class with __init__ is not collected (pytest warns)", "class TestA:\n    def __init__(self):\n        pass\n    def test_a(self):\n        pass\n", []],
    ["a base's __init__ stops a subclass too", "class Base:\n    def __init__(self):\n        pass\nclass TestA(Base):\n    def test_a(self):\n        pass\n", []],
    [
      "a unittest case is collected whatever its __init__",
      "import unittest\nclass TestA(unittest.TestCase):\n    def __init__(self, name):\n        super().__init__(name)\n    def test_a(self):\n        pass\n",
      ["TestA > test_a"],
    ],
    ["__test__ = False on the class", "class TestA:\n    __test__ = False\n    def test_a(self):\n        pass\n", []],
    ["__test__ = False on a base stops the subclass", "class Base:\n    __test__ = False\n    def test_a(self):\n        pass\nclass TestA(Base):\n    pass\n", []],
    ["__test__ = True on a subclass undoes its base's False", "class Base:\n    __test__ = False\n    def test_a(self):\n        pass\nclass TestA(Base):\n    __test__ = True\n", ["TestA > test_a"]],
    ["__test__ = True collects a class whatever its name", "class Checks:\n    __test__ = True\n    def test_a(self):\n        pass\n", ["Checks > test_a"]],
    [
      "a subclass's method overrides the base's",
      "class TestA:\n    def test_a(self):\n        assert 1\nclass TestB(TestA):\n    def test_a(self):\n        assert 2\n",
      ["TestA > test_a", "TestB > test_a"],
    ],
    [
      "test_x = None in a subclass hides the inherited test",
      "class TestA:\n    def test_a(self):\n        pass\n    def test_b(self):\n        pass\nclass TestB(TestA):\n    test_a = None\n",
      ["TestA > test_a", "TestA > test_b", "TestB > test_b"],
    ],
    ["a method defined twice is collected once (the last def)", "class TestA:\n    def test_a(self):\n        assert 1\n    def test_a(self):\n        assert 2\n", ["TestA > test_a"]],
    [
      "an abstract base is not collected, its concrete subclass is",
      "import abc\nclass TestBase(abc.ABC):\n    @abc.abstractmethod\n    def make(self):\n        pass\n    def test_a(self):\n        assert self.make()\nclass TestImpl(TestBase):\n    def make(self):\n        return 1\n",
      ["TestImpl > test_a"],
    ],
    [
      "inherited tests come before the subclass's own (reverse MRO)",
      "class Shared:\n    def test_s(self):\n        pass\nclass TestA(Shared):\n    def test_a(self):\n        pass\n",
      ["TestA > test_s", "TestA > test_a"],
    ],
    ["a base imported from another file is not resolved by the file alone", "from tests.test_base import TestBase\nclass TestA(TestBase):\n    def test_a(self):\n        pass\n", ["TestA > test_a"]],
  ])("%s", async (_title, source, ids) => {
    expect((await testsOf(source)).map((test) => test.id)).toEqual(ids);
  });

  it("an inherited test names where its method is declared; its line is the class's", async () => {
    const tests = await testsOf("class Shared:\n    def test_s(self):\n        pass\nclass TestA(Shared):\n    pass\n");
    expect(tests).toMatchObject([{ id: "TestA > test_s", line: 4, declaredAt: { file: "tests/test_x.py", suitePath: ["Shared"], line: 2, reach: "inherited" } }]);
  });

  it.each([
    ["tests/test_cart.py", true],
    ["tests/cart_test.py", true],
    ["src/cart.py", false],
    ["tests/helpers.py", false],
  ])("%s collects tests: %s", async (path, isCollected) => {
    expect((await testsOf("def test_a():\n    pass\n", path)).length).toBe(isCollected ? 1 : 0);
  });
});

describe("python: flags", () => {
  it.each([
    ["@pytest.mark.skip", "@pytest.mark.skip(reason='later')\ndef test_a():\n    pass\n", "skipped", "@pytest.mark.skip", "later"],
    ["@pytest.mark.skipif", "import sys, pytest\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')\ndef test_a():\n    pass\n", "conditional", "@pytest.mark.skipif", "posix only"],
    ["@pytest.mark.xfail", "@pytest.mark.xfail\ndef test_a():\n    pass\n", "failing", "@pytest.mark.xfail", undefined],
    ["@unittest.skip on the class", "import unittest\n@unittest.skip('broken')\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n", "skipped", "@unittest.skip on class T", "broken"],
    [
      "@unittest.expectedFailure",
      "import unittest\nclass T(unittest.TestCase):\n    @unittest.expectedFailure\n    def test_a(self):\n        pass\n",
      "failing",
      "@unittest.expectedFailure",
      undefined,
    ],
    ["pytest.skip() in the body", "import pytest\ndef test_a():\n    pytest.skip('no db')\n    assert f()\n", "skipped", "pytest.skip()", "no db"],
    ["self.skipTest() in the body", "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.skipTest('later')\n", "skipped", "self.skipTest()", "later"],
    ["module pytestmark", "import pytest\npytestmark = pytest.mark.skip(reason='all')\ndef test_a():\n    pass\n", "skipped", "@pytest.mark.skip on pytestmark", "all"],
    [
      "class pytestmark",
      "import pytest\nclass TestA:\n    pytestmark = [pytest.mark.xfail(reason='bug')]\n    def test_a(self):\n        pass\n",
      "failing",
      "@pytest.mark.xfail on pytestmark of class TestA",
      "bug",
    ],
  ] as const)("%s", async (_title, source, flag, via, reason) => {
    const [test] = await testsOf(source);
    expect(test?.flags[flag]).toBe(true);
    expect(test?.flagVia?.[flag]).toBe(via);
    expect(test?.skipReason).toBe(reason);
  });

  it("a test without markers has no flags", async () => {
    const [test] = await testsOf("import pytest\n@pytest.mark.slow\ndef test_a():\n    pytest.raises(ValueError)\n");
    expect(test?.flags).toEqual({ skipped: false, conditional: false, focused: false, todo: false, failing: false });
  });
});

describe("python: class facts for cross-file resolution", () => {
  it("records each class's bases as written, marks, members and test methods, and the file's imports", async () => {
    const source = [
      "import unittest",
      "import pytest",
      "import tests.base as base, helpers",
      "from .mixins import (SignerTests as Shared, Other)",
      "from ..common import *",
      "pytestmark = pytest.mark.slow",
      "@pytest.mark.skip(reason='flaky')",
      "class TestA(Shared, base.Mixin, metaclass=Meta):",
      "    __test__ = True",
      "    value = 1",
      "    @pytest.mark.xfail",
      "    def test_a(self):",
      "        pytest.skip('later')",
      "    def helper(self):",
      "        pass",
      "    class TestInner:",
      "        def test_i(self):",
      "            pass",
      "",
    ].join("\n");
    const facts = await extractFacts("tests/test_a.py", source);
    const scope = facts.classScope;
    expect(scope?.imports).toEqual([
      { source: "unittest", names: [{ imported: null, local: "unittest" }], line: 1 },
      { source: "pytest", names: [{ imported: null, local: "pytest" }], line: 2 },
      { source: "tests.base", names: [{ imported: null, local: "base" }], line: 3, isAlias: true },
      { source: "helpers", names: [{ imported: null, local: "helpers" }], line: 3 },
      {
        source: ".mixins",
        names: [
          { imported: "SignerTests", local: "Shared" },
          { imported: "Other", local: "Other" },
        ],
        line: 4,
      },
      { source: "..common", names: [{ imported: "*", local: "*" }], line: 5 },
    ]);
    expect(scope?.marks).toEqual([]);
    const [outer, inner] = scope?.classes ?? [];
    expect(outer).toMatchObject({
      suitePath: ["TestA"],
      line: 8,
      bases: ["Shared", "base.Mixin"],
      metaclass: "Meta",
      marks: [{ flag: "skipped", via: "@pytest.mark.skip on class TestA", reason: "flaky" }],
      members: ["__test__", "value", "test_a", "helper", "TestInner"],
      testAttribute: true,
    });
    expect(outer?.methods.map((method) => [method.test.name, method.marks])).toEqual([
      [
        "test_a",
        [
          { flag: "skipped", via: "pytest.skip()", reason: "later" },
          { flag: "failing", via: "@pytest.mark.xfail" },
        ],
      ],
    ]);
    expect(inner).toMatchObject({ suitePath: ["TestA", "TestInner"], bases: [], members: ["test_i"] });
  });

  it("records the module's pytestmark for the tests its classes collect", async () => {
    const facts = await extractFacts("tests/test_a.py", "import pytest\npytestmark = [pytest.mark.xfail(reason='bug')]\nclass TestA:\n    def test_a(self):\n        pass\n");
    expect(facts.classScope?.marks).toEqual([{ flag: "failing", via: "@pytest.mark.xfail on pytestmark", reason: "bug" }]);
    expect(facts.tests[0]?.flagVia).toEqual({ failing: "@pytest.mark.xfail on pytestmark" });
  });

  it.each([
    ["a test file with only functions", "tests/test_a.py", "def test_a():\n    pass\n", false],
    ["a test file importing a Test class (pytest collects it there again)", "tests/test_a.py", "from tests.test_b import TestB\n", true],
    ["a helper module under tests/ with a base class", "tests/base.py", "class Base:\n    pass\n", true],
    ["product code without test methods", "src/app.py", "class App(Base):\n    pass\n", false],
    ["product code shipping a test mixin", "src/app/testing.py", "class AppTests:\n    def test_app(self):\n        pass\n", true],
  ])("%s: records classes %s", async (_title, path, source, isRecorded) => {
    expect((await extractFacts(path, source)).classScope !== undefined).toBe(isRecorded);
  });
});

describe("python: parametrize rows", () => {
  it.each([
    ["a literal list", "@pytest.mark.parametrize('a,b', [(1, 2), (3, 4), (5, 6)])\ndef test_a(a, b):\n    pass\n", 3],
    ["stacked decorators multiply", "@pytest.mark.parametrize('a', [1, 2])\n@pytest.mark.parametrize('b', [3, 4, 5])\ndef test_a(a, b):\n    pass\n", 6],
    ["a table that is not a literal", "@pytest.mark.parametrize('a', CASES)\ndef test_a(a):\n    pass\n", null],
  ])("%s", async (_title, source, rows) => {
    const [test] = await testsOf(`import pytest\n${source}`);
    expect(test?.eachRows).toBe(rows);
  });

  it("a row removed from a surviving parametrized test is a test_deletion", async () => {
    const before = "import pytest\n@pytest.mark.parametrize('a,b', [(1, 2), (3, 4)])\ndef test_a(a, b):\n    assert f(a) == b\n";
    const after = "import pytest\n@pytest.mark.parametrize('a,b', [(1, 2)])\ndef test_a(a, b):\n    assert f(a) == b\n";
    const analysis = await analyzeChanges([{ path: "tests/test_a.py", before, after }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual([["test_deletion", "test_a"]]);
  });

  it.each([
    ["a row that gains marks=pytest.mark.skip", "[(1, 2), pytest.param(3, 4, marks=pytest.mark.skip)]", [["test_deletion", "test_a"]]],
    ["a row that gains marks=[pytest.mark.xfail]", "[(1, 2), pytest.param(3, 4, marks=[pytest.mark.xfail(reason='bug')])]", [["test_deletion", "test_a"]]],
    ["a row wrapped in pytest.param with an id only", "[(1, 2), pytest.param(3, 4, id='three')]", []],
  ])("%s", async (_title, rows, expected) => {
    const file = (table: string) => `import pytest\n@pytest.mark.parametrize('a,b', ${table})\ndef test_a(a, b):\n    assert f(a) == b\n`;
    const analysis = await analyzeChanges([{ path: "tests/test_a.py", before: file("[(1, 2), (3, 4)]"), after: file(rows) }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });

  it.each([
    ["every merged case survives as a row: nothing", "[(2, 4), (3, 9)]", []],
    ["one merged case has no row: a test_deletion", "[(2, 4)]", [["test_deletion", "test_cube"]]],
  ])("merging tests into a parametrized test: %s", async (_title, rows, expected) => {
    const before = "def test_square():\n    assert f(2) == 4\n\ndef test_cube():\n    assert f(3) == 9\n";
    const after = `import pytest\n@pytest.mark.parametrize('x, y', ${rows})\ndef test_f(x, y):\n    assert f(x) == y\n`;
    const analysis = await analyzeChanges([{ path: "tests/test_f.py", before, after }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });
});

describe("python: assertions", () => {
  it.each([
    ["assert a == b", "assert f(1) == 2", { matcher: "assert ==", strength: 3, actual: "f ( 1 )", expected: "2" }],
    ["assert a", "assert f(1)", { matcher: "assert", strength: 1, actual: "f ( 1 )" }],
    ["assert True is a tautology", "assert True", { matcher: "assert", strength: 0, tautology: true }],
    ["assert a in b", "assert 1 in f()", { matcher: "assert in", strength: 2 }],
    ["assert a != b", "assert f() != 1", { matcher: "assert !=", strength: 2, negated: true }],
    ["assert not a", "assert not f()", { matcher: "assert not", strength: 1, negated: true }],
    ["assert x == x is a tautology", "assert x == x", { strength: 0, tautology: true }],
    ["a parenthesized assert (Black's layout) is the same assert", "assert (\n            f(1)\n            == 2\n        )", { matcher: "assert ==", strength: 3, actual: "f ( 1 )", expected: "2" }],
    ["self.assertEqual", "self.assertEqual(f(), 2)", { matcher: "assertEqual", strength: 3, actual: "f ( )", expected: "2" }],
    ["self.assertTrue", "self.assertTrue(f())", { matcher: "assertTrue", strength: 1 }],
    ["self.assertTrue(True) is a tautology", "self.assertTrue(True)", { strength: 0, tautology: true }],
    ["self.assertIn", "self.assertIn(1, f())", { matcher: "assertIn", strength: 2 }],
    ["pytest.raises(ValueError)", "with pytest.raises(ValueError):\n        f()", { matcher: "pytest.raises", strength: 2, expected: "ValueError" }],
    ["pytest.raises(Exception) is weak", "with pytest.raises(Exception):\n        f()", { matcher: "pytest.raises", strength: 1, expected: "Exception" }],
    ["pytest.raises(ValueError, match=...)", "with pytest.raises(ValueError, match='empty'):\n        f()", { strength: 3 }],
    ["self.assertRaises(Exception) is weak", "self.assertRaises(Exception, f)", { matcher: "assertRaises", strength: 1 }],
  ])("%s", async (_title, statement, expected) => {
    const [test] = await testsOf(`import pytest\nclass TestA:\n    def test_a(self):\n        ${statement}\n`);
    expect(test?.assertionCount).toBe(1);
    expect(test?.assertionsDetail?.[0]).toMatchObject(expected);
  });

  it("counts every assertion of the file, and none in helpers for the tests", async () => {
    const facts = await extractFacts("tests/test_a.py", "def helper():\n    assert 1\n\ndef test_a():\n    assert 1\n    assert 2\n");
    expect(facts.assertions).toBe(3);
    expect(facts.tests[0]?.assertionCount).toBe(2);
  });
});

describe("python: renames out of discovery", () => {
  it.each([
    ["test_x -> x", "def test_total():\n    assert f() == 1\n", "def total():\n    assert f() == 1\n", [["test_disabled", "test_total"]]],
    [
      "a Test class renamed so pytest skips it",
      "class TestCart:\n    def test_total(self):\n        assert f() == 1\n",
      "class CartChecks:\n    def test_total(self):\n        assert f() == 1\n",
      [["test_disabled", "TestCart > test_total"]],
    ],
    ["test_x -> x with a new body is a deletion", "def test_total():\n    assert f() == 1\n", "def total():\n    return f()\n", [["test_deletion", "test_total"]]],
  ])("%s", async (_title, before, after, expected) => {
    const analysis = await analyzeChanges([{ path: "tests/test_cart.py", before, after }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });
});
