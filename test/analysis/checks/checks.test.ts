/**
 * The check model on strings: each framework's spelling of an assertion
 * normalises to one check (subject, relation, expected) with the strength of
 * the one table; coverage says which checks an after check conserves, and
 * which it does not (valid/invalid per shape).
 */
import { describe, expect, it } from "vitest";
import { canonicalText, coverage, toCheck, unify, type Check } from "../../../src/analysis/checks/index.js";
import { extractFacts } from "../../../src/analysis/index.js";
import type { AssertionFact } from "../../../src/analysis/facts.js";

/** The checks of the first test of a file, as extracted from source. */
async function checksIn(path: string, source: string): Promise<Check[]> {
  const facts = await extractFacts(path, source);
  return (facts.tests[0]?.assertionsDetail ?? []).map(toCheck);
}

const shape = (check: Check): string =>
  `${check.isNegated ? "not " : ""}${check.relation}(${[check.subject, check.expected].filter((part) => part !== undefined && part !== "").join(", ")})/${check.strength}`;

describe("checks: one check per assertion, whatever the framework", () => {
  it.each([
    // Jest/Vitest expect
    ["expect toBe", "test/a.test.ts", `it("a", () => { expect(f(1)).toBe(2); });`, "equal(f(1), 2)/3"],
    ["expect toEqual with a trailing comma", "test/a.test.ts", `it("a", () => { expect(f(1)).toEqual({ a: 1, }); });`, "equal(f(1), {a:1})/3"],
    ["expect toMatch with a string is containment", "test/a.test.ts", `it("a", () => { expect(s).toMatch("hi"); });`, `contains(s, "hi")/2`],
    ["expect toMatch with a pattern", "test/a.test.ts", `it("a", () => { expect(s).toMatch(/h+/); });`, "match(s, /h+/)/2"],
    ["expect toBeGreaterThan", "test/a.test.ts", `it("a", () => { expect(n).toBeGreaterThan(0); });`, "greater(n, 0)/2"],
    ["expect toThrow with a type", "test/a.test.ts", `it("a", () => { expect(() => f(-1)).toThrow(RangeError); });`, "throws(f(-1), RangeError|)/2"],
    ["expect not.toBe", "test/a.test.ts", `it("a", () => { expect(f(1)).not.toBe(2); });`, "not equal(f(1), 2)/1"],
    ["expect toBeTruthy", "test/a.test.ts", `it("a", () => { expect(f(1)).toBeTruthy(); });`, "truthy(f(1))/1"],
    // node:assert
    ["assert.equal", "test/a.test.ts", `import assert from "node:assert";\nit("a", () => { assert.equal(f(1), 2); });`, "equal(f(1), 2)/3"],
    ["assert.ok(s.includes(x)) is containment", "test/a.test.ts", `import assert from "node:assert";\nit("a", () => { assert.ok(s.includes("hi")); });`, `contains(s, "hi")/2`],
    ["assert.ok(n > 0) is an order", "test/a.test.ts", `import assert from "node:assert";\nit("a", () => { assert.ok(n > 0); });`, "greater(n, 0)/2"],
    ["assert.deepStrictEqual", "test/a.test.ts", `import assert from "node:assert";\nit("a", () => { assert.deepStrictEqual(f(), [1, 2]); });`, "equal(f(), [1,2])/3"],
    // chai
    ["chai expect().to.deep.equal", "test/a.test.ts", `import { expect } from "chai";\nit("a", () => { expect(f()).to.deep.equal([1]); });`, "equal(f(), [1])/3"],
    ["chai expect().to.include", "test/a.test.ts", `import { expect } from "chai";\nit("a", () => { expect(f()).to.include("x"); });`, `contains(f(), "x")/2`],
    // ava
    ["ava t.is", "test/a.test.ts", `import test from "ava";\ntest("a", (t) => { t.is(f(1), 2); });`, "equal(f(1), 2)/3"],
    // pytest / unittest
    ["pytest assert ==", "tests/test_a.py", "def test_a():\n    assert f(1) == 2\n", "equal(f(1), 2)/3"],
    ["pytest assert in: the container is the subject", "tests/test_a.py", "def test_a():\n    assert 'x' in f()\n", `contains(f(), "x")/2`],
    ["pytest assert >", "tests/test_a.py", "def test_a():\n    assert f() > 0\n", "greater(f(), 0)/2"],
    ["pytest assert isinstance", "tests/test_a.py", "def test_a():\n    assert isinstance(f(), int)\n", "type(f(), int)/2"],
    [
      "pytest.raises with match (the with block's code is its subject)",
      "tests/test_a.py",
      "import pytest\ndef test_a():\n    with pytest.raises(ValueError, match='bad'):\n        f()\n",
      `throws(f(), ValueError|"bad")/3`,
    ],
    ["unittest assertEqual", "tests/test_a.py", "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(f(1), 2)\n", "equal(f(1), 2)/3"],
    [
      "unittest assertIn: the container is the subject",
      "tests/test_a.py",
      "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertIn('x', f())\n",
      `contains(f(), "x")/2`,
    ],
    [
      "unittest assertTrue(a == b) states an equality",
      "tests/test_a.py",
      "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertTrue(f(1) == 2)\n",
      "equal(f(1), 2)/3",
    ],
    // Go
    ["go if != t.Errorf", "a_test.go", `package a\nimport "testing"\nfunc TestA(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Errorf("bad")\n\t}\n}\n`, "equal(Sum(1,2), 3)/3"],
    ["testify assert.Equal", "a_test.go", `package a\nimport "testing"\nfunc TestA(t *testing.T) {\n\tassert.Equal(t, 3, Sum(1, 2))\n}\n`, "equal(Sum(1,2), 3)/3"],
    ["testify assert.Contains", "a_test.go", `package a\nimport "testing"\nfunc TestA(t *testing.T) {\n\tassert.Contains(t, Name(), "x")\n}\n`, `contains(Name(), "x")/2`],
    // JUnit / AssertJ
    ["JUnit assertEquals", "src/test/java/ATest.java", "class ATest {\n  @Test void a() { assertEquals(3, sum(1, 2)); }\n}\n", "equal(sum(1,2), 3)/3"],
    ["AssertJ isEqualTo", "src/test/java/ATest.java", "class ATest {\n  @Test void a() { assertThat(sum(1, 2)).isEqualTo(3); }\n}\n", "equal(sum(1,2), 3)/3"],
    ["JUnit assertTrue", "src/test/java/ATest.java", "class ATest {\n  @Test void a() { assertTrue(ok()); }\n}\n", "truthy(ok())/1"],
    // xUnit
    ["xUnit Assert.Equal", "tests/ATests.cs", "public class ATests {\n  [Fact] public void A() { Assert.Equal(3, Sum(1, 2)); }\n}\n", "equal(Sum(1,2), 3)/3"],
    // RSpec / minitest
    ["RSpec eq", "spec/a_spec.rb", "describe 'a' do\n  it 'sums' do\n    expect(sum(1, 2)).to eq(3)\n  end\nend\n", "equal(sum(1,2), 3)/3"],
    // A conditional expected value is a value, not a comparison (found sweeping unjs/pathe 43241f6: `a === b ? x : y` was read as a boolean)
    ["expect toBe a ternary", "test/a.test.ts", `it("a", () => { expect(sep).toBe(os === "win32" ? ";" : ":"); });`, `equal(sep, os==="win32"?";":":")/3`],
    ["assert.equal a ternary", "test/a.test.ts", `import assert from "node:assert";\nit("a", () => { assert.equal(sep, a && b ? ";" : ":"); });`, `equal(sep, a&&b?";":":")/3`],
    ["pytest assert == a conditional expression", "tests/test_a.py", "def test_a():\n    assert sep == (';' if os == 'nt' else ':')\n", `equal(sep, ";"if os=="nt"else":")/3`],
    ["RSpec eq a ternary", "spec/a_spec.rb", "describe 'a' do\n  it 'seps' do\n    expect(sep).to eq(os == 'win' ? ';' : ':')\n  end\nend\n", `equal(sep, os=="win"?";":":")/3`],
    ["Rust assert_eq! an if expression", "tests/a.rs", "#[test]\nfn a() {\n    assert_eq!(sep(), if cfg!(windows) { ';' } else { ':' });\n}\n", `equal(sep(), if cfg!(windows){";"}else{":"})/3`],
    // PHPUnit
    ["PHPUnit assertSame", "tests/ATest.php", "<?php\nclass ATest extends TestCase {\n  public function testA() { $this->assertSame(3, sum(1, 2)); }\n}\n", "equal(sum(1,2), 3)/3"],
  ])("%s", async (_name, path, source, expected) => {
    const checks = await checksIn(path, source);
    expect(checks.map(shape)).toEqual([expected]);
  });
});

/** The checks of every assertion of the first test of a file. */
async function allChecksIn(path: string, source: string): Promise<string[]> {
  return (await checksIn(path, source)).map(shape);
}

// The negation a matcher's name states counts once (found sweeping apache/commons-text 8479d98d97:
// assertFalse(a.equals(b)) -> assertNotEquals(a, b) was read as equal/3 -> other/2), and a value
// compared with itself is a tautology whichever way it is spelled (commons-text 9988a06737).
describe("checks: negated spellings of an inequality are one check in every language", () => {
  it.each([
    ["JUnit", "src/test/java/ATest.java", "class ATest {\n  @Test void a() { assertFalse(a.equals(b)); assertNotEquals(b, a); assertThat(a).isNotEqualTo(b); }\n}\n"],
    [
      "unittest",
      "tests/test_a.py",
      "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertFalse(a == b)\n        self.assertNotEqual(a, b)\n        assert not a == b\n        assert a != b\n",
    ],
    [
      "node:assert and expect",
      "test/a.test.ts",
      "import assert from 'node:assert';\nit('a', () => { assert.ok(!a.equals(b)); assert.notEqual(a, b); assert.notDeepStrictEqual(a, b); expect(a.equals(b)).toBeFalsy(); expect(a.equals(b)).toBe(false); expect(a).not.toEqual(b); });",
    ],
    [
      "PHPUnit",
      "tests/ATest.php",
      "<?php\nclass ATest extends TestCase {\n  public function testA() { $this->assertFalse($a->equals($b)); $this->assertNotEquals($b, $a); $this->assertNotSame($b, $a); }\n}\n",
    ],
    [
      "xUnit/NUnit",
      "Tests/ATests.cs",
      "public class ATests {\n  [Fact] public void A() { Assert.False(a.Equals(b)); Assert.NotEqual(b, a); Assert.AreNotEqual(b, a); Assert.IsFalse(a.Equals(b)); }\n}\n",
    ],
    ["Rust", "src/lib.rs", "#[cfg(test)]\nmod tests {\n  #[test]\n  fn a() { assert!(!a.eq(&b)); assert_ne!(a, b); assert!(a != b); assert!(a.ne(&b)); }\n}\n"],
    ["minitest", "test/a_test.rb", "class ATest < Minitest::Test\n  def test_a\n    refute a == b\n    refute_equal b, a\n  end\nend\n"],
    ["testify and if", "a_test.go", 'package a\nimport "testing"\nfunc TestA(t *testing.T) {\n  assert.NotEqual(t, b, a)\n  assert.False(t, a == b)\n  if a == b { t.Errorf("x") }\n}\n'],
  ])("%s", async (_name, path, source) => {
    const shapes = await allChecksIn(path, source);
    expect(shapes.length).toBeGreaterThan(1);
    for (const found of shapes) expect(found).toMatch(/^not equal\((a, b|b, a|\$a, \$b)\)\/1$/);
  });

  it.each([
    ["JUnit", "src/test/java/ATest.java", "class ATest {\n  @Test void a() { assertTrue(one.equals(one)); assertEquals(one, one); }\n}\n"],
    ["unittest", "tests/test_a.py", "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertTrue(one == one)\n        self.assertEqual(one, one)\n"],
    ["xUnit", "Tests/ATests.cs", "public class ATests {\n  [Fact] public void A() { Assert.True(one.Equals(one)); Assert.Equal(one, one); }\n}\n"],
  ])("%s: a self-comparison is a tautology either way", async (_name, path, source) => {
    expect(await allChecksIn(path, source)).toEqual(["equal(one, one)/0", "equal(one, one)/0"]);
  });
});

const fact = (matcher: string, actual?: string, expected?: string, extra: Partial<AssertionFact> = {}): AssertionFact => ({
  line: 1,
  matcher,
  strength: 2,
  tautology: false,
  ...(actual === undefined ? {} : { actual }),
  ...(expected === undefined ? {} : { expected }),
  ...extra,
});

describe("checks: coverage (valid: the after check conserves the before one)", () => {
  it.each([
    ["the same check reformatted", fact("toEqual", "f( 1 )", "{ a: 1, }"), fact("assert.deepEqual", "f(1)", "{a:1}")],
    ["an equality covers a containment of the same subject", fact("toContain", "f()", '"x"'), fact("toBe", "f()", '"xy"')],
    ["an equality covers a truthiness check", fact("assert.ok", "f()"), fact("assertEqual", "f()", "1")],
    ["an order stated two ways", fact("toBeGreaterThan", "n", "0"), fact("assert.ok", "n > 0")],
    ["a throws naming type and message covers one naming the type", fact("toThrow", "() => f()", "RangeError"), fact("assert.throws", "() => f()", 'RangeError, "bad"')],
    ["pytest.warns(W, match=M) covers the isinstance check", fact("assert isinstance", "isinstance(w[0].message, UserWarning)"), fact("pytest.warns", undefined, "UserWarning", { message: '"old"' })],
    ["pytest.warns(W, match=M) covers the message check", fact("assert in", '"old"', "str(w[0].message)"), fact("pytest.warns", undefined, "UserWarning", { message: '"old"' })],
    ["an equality with its operands swapped", fact("assertEquals", "x", "y"), fact("assertEquals", "y", "x")],
    [
      "an inequality stated by the receiver, asserted with the operands swapped",
      fact("assertFalse", "results.equals(other)", undefined, { negated: true }),
      fact("assertNotEquals", "other", "results", { negated: true }),
    ],
    ["toHaveBeenCalledWith covered by a deepEqual of the recorded arguments", fact("toHaveBeenCalledWith", "fn", "1"), fact("assert.deepEqual", "fn.mock.calls[0].arguments", "[1]")],
  ])("%s", (_name, before, after) => {
    expect(coverage(toCheck(before), toCheck(after), "none")).not.toBeNull();
  });
});

describe("checks: coverage (invalid: the after check checks less or something else)", () => {
  it.each([
    ["truthiness does not cover an equality", fact("toBe", "f()", "1"), fact("toBeTruthy", "f()")],
    ["another subject", fact("toBe", "f(1)", "2"), fact("toBe", "f(2)", "2")],
    ["another expected value", fact("toBe", "f(1)", "2"), fact("toBe", "f(1)", "3")],
    ["swapped operands, one of them another value", fact("assertEquals", "x", "y"), fact("assertEquals", "y", "z")],
    ["a negated check does not cover the positive one", fact("toBe", "f(1)", "2"), fact("not.toBe", "f(1)", "3", { negated: true })],
    ["a throws without the message does not cover one with it", fact("toThrow", "() => f()", '"bad"'), fact("toThrow", "() => f()")],
    ["a broad error does not cover a specific one", fact("raises", undefined, "ValueError"), fact("raises", undefined, "Exception")],
    ["a tautology covers nothing", fact("toBe", "true", "true"), fact("toBe", "true", "true", { tautology: true })],
    ["pytest.warns without match does not cover the message check", fact("assert in", '"old"', "str(w[0].message)"), fact("pytest.warns", undefined, "UserWarning")],
  ])("%s", (_name, before, after) => {
    expect(coverage(toCheck(before), toCheck(after), "none")).toBeNull();
  });
});

describe("checks: table names bind to one row's literals", () => {
  it.each([
    ["positional names", "add(a,b)", "add(1,2)", { a: "1", b: "2" }],
    ["member chains (Go tt.want)", "Add(tt.a,tt.b)", "Add(1,1)", { "tt.a": "1", "tt.b": "1" }],
    ["a name bound twice must bind the same value", "f(a,a)", "f(1,2)", null],
    ["a call is code, not a value", "f(g(x))", "f(1)", null],
    ["a name binds an array of literals", "sum(xs)", "sum([1,2])", { xs: "[1,2]" }],
  ])("%s", (_name, pattern, text, expected) => {
    const bound = unify(pattern, text, true);
    expect(bound === null ? null : Object.fromEntries(bound)).toEqual(expected);
  });

  it("canonical text drops layout, quotes and trailing commas but keeps words apart", () => {
    expect(canonicalText("f( 'a',\n  [1, 2,],\n)")).toBe('f("a",[1,2])');
    expect(canonicalText("x not in y")).toBe("x not in y");
  });
});
