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
    ["unittest.TestCase subclasses whatever their name", "import unittest\nclass CartChecks(unittest.TestCase):\n    def test_total(self):\n        self.assertEqual(1, 1)\n", ["CartChecks > test_total"]],
    ["nested Test classes", "class TestA:\n    class TestB:\n        def test_c(self):\n            pass\n", ["TestA > TestB > test_c"]],
    ["functions nested in a test are not tests", "def test_a():\n    def test_inner():\n        pass\n", ["test_a"]],
    ["async tests", "async def test_io():\n    assert await f() == 1\n", ["test_io"]],
    [
      "test methods inherited from a mixin in the same file, once per collecting class",
      "import unittest\nclass Shared:\n    def test_a(self):\n        assert f()\nclass TestX(Shared, unittest.TestCase):\n    pass\nclass TestY(Shared):\n    def test_a(self):\n        pass\n",
      ["TestY > test_a", "TestX > test_a"],
    ],
  ])("%s", async (_title, source, ids) => {
    expect((await testsOf(source)).map((test) => test.id)).toEqual(ids);
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
    ["@pytest.mark.skipif", "import sys, pytest\n@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')\ndef test_a():\n    pass\n", "skipped", "@pytest.mark.skipif", "posix only"],
    ["@pytest.mark.xfail", "@pytest.mark.xfail\ndef test_a():\n    pass\n", "failing", "@pytest.mark.xfail", undefined],
    ["@unittest.skip on the class", "import unittest\n@unittest.skip('broken')\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n", "skipped", "@unittest.skip on class T", "broken"],
    ["@unittest.expectedFailure", "import unittest\nclass T(unittest.TestCase):\n    @unittest.expectedFailure\n    def test_a(self):\n        pass\n", "failing", "@unittest.expectedFailure", undefined],
    ["pytest.skip() in the body", "import pytest\ndef test_a():\n    pytest.skip('no db')\n    assert f()\n", "skipped", "pytest.skip()", "no db"],
    ["self.skipTest() in the body", "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.skipTest('later')\n", "skipped", "self.skipTest()", "later"],
    ["module pytestmark", "import pytest\npytestmark = pytest.mark.skip(reason='all')\ndef test_a():\n    pass\n", "skipped", "@pytest.mark.skip on pytestmark", "all"],
    ["class pytestmark", "import pytest\nclass TestA:\n    pytestmark = [pytest.mark.xfail(reason='bug')]\n    def test_a(self):\n        pass\n", "failing", "@pytest.mark.xfail on pytestmark of class TestA", "bug"],
  ] as const)("%s", async (_title, source, flag, via, reason) => {
    const [test] = await testsOf(source);
    expect(test?.flags[flag]).toBe(true);
    expect(test?.flagVia?.[flag]).toBe(via);
    expect(test?.skipReason).toBe(reason);
  });

  it("a test without markers has no flags", async () => {
    const [test] = await testsOf("import pytest\n@pytest.mark.slow\ndef test_a():\n    pytest.raises(ValueError)\n");
    expect(test?.flags).toEqual({ skipped: false, focused: false, todo: false, failing: false });
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
    ["a Test class renamed so pytest skips it", "class TestCart:\n    def test_total(self):\n        assert f() == 1\n", "class CartChecks:\n    def test_total(self):\n        assert f() == 1\n", [["test_disabled", "TestCart > test_total"]]],
    ["test_x -> x with a new body is a deletion", "def test_total():\n    assert f() == 1\n", "def total():\n    return f()\n", [["test_deletion", "test_total"]]],
  ])("%s", async (_title, before, after, expected) => {
    const analysis = await analyzeChanges([{ path: "tests/test_cart.py", before, after }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });
});
