/**
 * Issue 9: equal checks written differently are one check, across
 * frameworks. A size is a size however it is read (`toHaveLength(1)`,
 * `expect(x.length).toBe(1)`, `assert len(x) == 1`, `assertCount(1, $x)`,
 * `assert_eq!(v.len(), 1)`, `Assert.Single(xs)`, and an emptiness check
 * is a size of 0); a comparison with null is the null check; a matcher
 * object (NUnit `Is.EqualTo`, Hamcrest `equalTo`) has the relation of its
 * matcher; PHPUnit's loose `assertEquals('', $x)` already passed for null,
 * so `assertNull($x)` checks at least as much (not so for `assertSame`);
 * an expected string that interpolates literals (`"#{{:a=>1}}"`,
 * `` `${1}` ``, `f"{'x'}"`) is the string they make.
 * The nearest cheats (another size, a weaker check, a strict comparison
 * replaced) stay findings.
 */
import { describe, expect, it } from "vitest";
import { canonicalText, toCheck, type Check } from "../../../src/analysis/checks/index.js";
import { sizedCollection } from "../../../src/analysis/checks/normalise.js";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

/** The checks of the first test of a file, as extracted from source. */
async function checksIn(path: string, source: string): Promise<string[]> {
  const facts = await extractFacts(path, source);
  return (facts.tests[0]?.assertionsDetail ?? []).map(toCheck).map(shape);
}

const shape = (check: Check): string =>
  `${check.isNegated ? "not " : ""}${check.relation}(${[check.subject, check.expected].filter((part) => part !== undefined && part !== "").join(", ")})/${check.strength}`;

const cs = (body: string): string => `using Xunit;\npublic class ListTests {\n  [Fact]\n  public void Adds() {\n${body}\n  }\n}\n`;
const js = (body: string): string => `import { expect, it } from "vitest";\nimport assert from "node:assert";\nit("adds", () => {\n${body}\n});\n`;
const py = (body: string): string => `import unittest\n\nclass ListTest(unittest.TestCase):\n    def test_adds(self):\n${body}\n`;
const php = (body: string): string => `<?php\nuse PHPUnit\\Framework\\TestCase;\nfinal class ListTest extends TestCase {\n  public function testAdds(): void {\n${body}\n  }\n}\n`;
const rs = (body: string): string => `#[test]\nfn adds() {\n${body}\n}\n`;
const go = (body: string): string => `package list\n\nimport "testing"\n\nfunc TestAdds(t *testing.T) {\n${body}\n}\n`;
const rspec = (body: string): string => `describe "list" do\n  it "adds" do\n${body}\n  end\nend\n`;
const minitest = (body: string): string => `require "minitest/autorun"\nclass ListTest < Minitest::Test\n  def test_adds\n${body}\n  end\nend\n`;
const java = (body: string): string => `class ListTest {\n  @Test void adds() {\n${body}\n  }\n}\n`;

describe("equivalent checks: a size is one check however it is read", () => {
  it.each([
    ["xUnit Assert.Equal of a Count", "tests/ListTests.cs", cs("Assert.Equal(1, xs.Count);"), "length(xs, 1)/3"],
    ["xUnit Assert.Single", "tests/ListTests.cs", cs("Assert.Single(xs);"), "length(xs, 1)/3"],
    ["xUnit Assert.Single with a predicate is no size", "tests/ListTests.cs", cs("Assert.Single(xs, x => x == 1);"), "other(x=>x==1, xs)/2"],
    ["xUnit Assert.Empty", "tests/ListTests.cs", cs("Assert.Empty(xs);"), "length(xs, 0)/3"],
    ["xUnit Assert.False(xs.Any())", "tests/ListTests.cs", cs("Assert.False(xs.Any());"), "length(xs, 0)/3"],
    ["xUnit Assert.True(xs.Any()) stays a truthiness check", "tests/ListTests.cs", cs("Assert.True(xs.Any());"), "truthy(xs.Any())/1"],
    ["LINQ Count()", "tests/ListTests.cs", cs("Assert.Equal(2, xs.Count());"), "length(xs, 2)/3"],
    ["NUnit Has.Count.EqualTo", "tests/ListTests.cs", cs("Assert.That(xs, Has.Count.EqualTo(1));"), "length(xs, 1)/3"],
    ["NUnit Is.Empty", "tests/ListTests.cs", cs("Assert.That(xs, Is.Empty);"), "length(xs, 0)/3"],
    ["NUnit Is.Not.Empty is no size", "tests/ListTests.cs", cs("Assert.That(xs, Is.Not.Empty);"), "not falsy(xs)/1"],
    ["FluentAssertions HaveCount", "tests/ListTests.cs", cs("xs.Should().HaveCount(1);"), "length(xs, 1)/3"],
    ["FluentAssertions ContainSingle", "tests/ListTests.cs", cs("xs.Should().ContainSingle();"), "length(xs, 1)/3"],
    ["jest toHaveLength", "test/list.test.ts", js("expect(xs).toHaveLength(1);"), "length(xs, 1)/3"],
    ["jest length toBe", "test/list.test.ts", js("expect(xs.length).toBe(1);"), "length(xs, 1)/3"],
    ["node:assert length", "test/list.test.ts", js("assert.strictEqual(xs.length, 0);"), "length(xs, 0)/3"],
    ["a Map's size", "test/list.test.ts", js("expect(m.size).toBe(2);"), "length(m, 2)/3"],
    ["chai empty", "test/list.test.ts", js("expect(xs).to.be.empty;"), "length(xs, 0)/3"],
    ["unittest assertEqual of len", "tests/test_list.py", py("        self.assertEqual(len(xs), 1)"), "length(xs, 1)/3"],
    ["pytest assert with the size on the right", "tests/test_list.py", "def test_adds():\n    assert 1 == len(xs)\n", "length(xs, 1)/3"],
    ["pytest assert not xs stays falsy (None passes it)", "tests/test_list.py", "def test_adds():\n    assert not xs\n", "not truthy(xs)/1"],
    ["PHPUnit assertCount", "tests/ListTest.php", php("$this->assertCount(1, $xs);"), "length($xs, 1)/3"],
    ["PHPUnit assertSame of count()", "tests/ListTest.php", php("$this->assertSame(1, \\count($xs));"), "length($xs, 1)/3"],
    ["PHPUnit assertEmpty", "tests/ListTest.php", php("$this->assertEmpty($xs);"), "length($xs, 0)/3"],
    ["Rust len()", "tests/list.rs", rs("    assert_eq!(v.len(), 1);"), "length(v, 1)/3"],
    ["Rust is_empty()", "tests/list.rs", rs("    assert!(v.is_empty());"), "length(v, 0)/3"],
    ["Rust !is_empty() is no size", "tests/list.rs", rs("    assert!(!v.is_empty());"), "truthy(!v.is_empty())/1"],
    ["Go if len() != n", "list_test.go", go(`\tif len(xs) != 1 {\n\t\tt.Fatalf("len %d", len(xs))\n\t}`), "length(xs, 1)/3"],
    ["testify Len", "list_test.go", go("\trequire.Len(t, xs, 1)"), "length(xs, 1)/3"],
    ["testify Empty", "list_test.go", go("\tassert.Empty(t, xs)"), "length(xs, 0)/3"],
    ["RSpec size eq", "spec/list_spec.rb", rspec("    expect(xs.size).to eq 1"), "length(xs, 1)/3"],
    ["RSpec have(n).items", "spec/list_spec.rb", rspec("    expect(xs).to have(1).items"), "length(xs, 1)/3"],
    ["RSpec be_empty", "spec/list_spec.rb", rspec("    expect(xs).to be_empty"), "length(xs, 0)/3"],
    ["RSpec empty? be true", "spec/list_spec.rb", rspec("    expect(xs.empty?).to be true"), "length(xs, 0)/3"],
    ["minitest assert_empty", "test/list_test.rb", minitest("    assert_empty xs"), "length(xs, 0)/3"],
    ["JUnit size()", "src/test/java/ListTest.java", java("assertEquals(1, xs.size());"), "length(xs, 1)/3"],
    ["AssertJ hasSize", "src/test/java/ListTest.java", java("assertThat(xs).hasSize(1);"), "length(xs, 1)/3"],
    ["AssertJ isEmpty", "src/test/java/ListTest.java", java("assertThat(xs).isEmpty();"), "length(xs, 0)/3"],
    ["JUnit assertTrue(isEmpty())", "src/test/java/ListTest.java", java("assertTrue(xs.isEmpty());"), "length(xs, 0)/3"],
    ["Hamcrest hasSize", "src/test/java/ListTest.java", java("assertThat(xs, hasSize(1));"), "length(xs, 1)/3"],
  ])("%s", async (_name, path, source, expected) => {
    expect(await checksIn(path, source)).toEqual([expected]);
  });

  it.each([
    ["xs.length", "xs"],
    ["f(a).Count", "f(a)"],
    ["$this->items->count()", "$this->items"],
    ["len(xs)", "xs"],
    ["\\count($xs)", "$xs"],
    ["v.len()", "v"],
    ["a?.length", "a"],
    ["count($xs)", "$xs"],
    ["sizeof($this->rows)", "$this->rows"],
  ])("sizedCollection(%s) is %s", (text, collection) => {
    expect(sizedCollection(text)).toBe(collection);
  });

  it.each(["xs.count(x)", "v.len", "f(xs.length)", "count($xs,COUNT_RECURSIVE)", "length", "count([1, 2])", "strlen(name)"])("sizedCollection(%s) is null", (text) => {
    expect(sizedCollection(text)).toBeNull();
  });
});

describe("equivalent checks: null, matcher objects", () => {
  it.each([
    ["jest toBe(null) is toBeNull()", "test/list.test.ts", js("expect(x).toBe(null);"), "nullish(x)/2"],
    ["jest toBeNull", "test/list.test.ts", js("expect(x).toBeNull();"), "nullish(x)/2"],
    ["unittest assertEqual(x, None)", "tests/test_list.py", py("        self.assertEqual(x, None)"), "nullish(x)/2"],
    ["RSpec eq(nil)", "spec/list_spec.rb", rspec("    expect(x).to eq(nil)"), "nullish(x)/2"],
    ["JUnit assertEquals(null, x)", "src/test/java/ListTest.java", java("assertEquals(null, x);"), "nullish(x)/2"],
    ["NUnit Is.EqualTo", "tests/ListTests.cs", cs("Assert.That(x, Is.EqualTo(1));"), "equal(x, 1)/3"],
    ["NUnit Is.Not.EqualTo", "tests/ListTests.cs", cs("Assert.That(x, Is.Not.EqualTo(1));"), "not equal(x, 1)/1"],
    ["NUnit Is.Null", "tests/ListTests.cs", cs("Assert.That(x, Is.Null);"), "nullish(x)/2"],
    ["Hamcrest equalTo", "src/test/java/ListTest.java", java("assertThat(x, equalTo(1));"), "equal(x, 1)/3"],
    ["Hamcrest is", "src/test/java/ListTest.java", java("assertThat(x, is(1));"), "equal(x, 1)/3"],
    ["Hamcrest nullValue", "src/test/java/ListTest.java", java("assertThat(x, nullValue());"), "nullish(x)/2"],
  ])("%s", async (_name, path, source, expected) => {
    expect(await checksIn(path, source)).toEqual([expected]);
  });
});

describe("equivalent checks: a string that interpolates literals is the string they make", () => {
  it.each([
    ["a Ruby percent string of a hash literal", `%|#<F @map=#{{:"de-AT"=>[:"de-DE"]}} @d=[:en]>|`, `'#<F @map={:"de-AT"=>[:"de-DE"]} @d=[:en]>'`],
    ["Ruby symbols, numbers, strings and nil", `"a#{:b}c#{1}d#{'e'}#{nil}"`, `"abc1de"`],
    ["Ruby %Q with brackets", `%Q[a #{"q"}]`, `"a q"`],
    ["Ruby %q does not interpolate", `%q(a #{1} (b))`, `'a #{1} (b)'`],
    ["a JS template literal", "`x${1}y${'z'}`", `"x1yz"`],
    ["a Python f-string", `f"{1} {'x'}"`, `f"1 x"`],
    ["a C# interpolated string", `$"n={1}"`, `$"n=1"`],
    ["quotes escaped once however the literal was quoted", `'a""b'`, `"a\\"\\"b"`],
  ])("%s", (_name, text, same) => {
    expect(canonicalText(text)).toBe(canonicalText(same));
  });

  it.each([
    ["a name", "`x${n}y`", `"xy"`],
    ["an array holding a name", `"#{[x]}"`, `"[x]"`],
    ["a modulo, not a percent string", `x %(y)`, `"y"`],
    ["a plain Python string's braces", `"{1}"`, `"1"`],
  ])("%s is not folded", (_name, text, other) => {
    expect(canonicalText(text)).not.toBe(canonicalText(other));
  });
});

const rbInspectTest = (expected: string): string =>
  `require "minitest/autorun"\n\nclass FallbacksTest < Minitest::Test\n  def setup\n    @fallbacks = Fallbacks.new([:en], {:"de-AT" => [:"de-DE"]})\n  end\n\n  def test_inspect\n    assert_equal(${expected}, @fallbacks.inspect)\n  end\nend\n`;
const jsRenderTest = (expected: string): string =>
  `import { expect, it } from "vitest";\nimport { render } from "../src/render.js";\n\nit("renders", () => {\n  const html = render({ n: 1 });\n  expect(html).toBe(${expected});\n});\n`;

const csTest = (assertion: string): string =>
  `using Xunit;\n\npublic class EventLogTests\n{\n    [Fact]\n    public void Records_One_Property()\n    {\n        var log = new EventLog();\n        log.Write("Value", 42);\n        ${assertion}\n        Assert.Equal(42, log.Properties["Value"]);\n    }\n}\n`;
const phpTest = (assertion: string): string =>
  `<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class LinkTest extends TestCase\n{\n    public function testUnsafeLink(): void\n    {\n        $renderer = new LinkRenderer();\n        ${assertion}\n    }\n}\n`;
const jsTest = (assertion: string): string =>
  `import { expect, it } from "vitest";\nimport { split } from "../src/split.js";\n\nit("splits", () => {\n  const parts = split("a,b");\n  ${assertion}\n});\n`;
const rsTest = (assertion: string): string => `use crate::split;\n\n#[test]\nfn splits_nothing() {\n    let parts = split("");\n    ${assertion}\n}\n`;
const javaTest = (assertion: string): string =>
  `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\nclass SplitTest {\n  @Test\n  void splitsNothing() {\n    List<String> parts = Split.of("");\n    ${assertion}\n  }\n}\n`;
const goTest = (assertion: string): string => `package split\n\nimport "testing"\n\nfunc TestSplit(t *testing.T) {\n\tparts := Split("a,b")\n\t${assertion}\n}\n`;
const rbTest = (assertion: string): string => `require "minitest/autorun"\n\nclass SplitTest < Minitest::Test\n  def test_splits_nothing\n    parts = Split.of("")\n    ${assertion}\n  end\nend\n`;
const nunitTest = (assertion: string): string =>
  `using NUnit.Framework;\n\npublic class ParserTests\n{\n    [Test]\n    public void ParsesOne()\n    {\n        var value = Parser.Parse("1");\n        ${assertion}\n    }\n}\n`;

const lookAlikes: RuleCase[] = [
  {
    name: "c#: Assert.Equal(1, xs.Count) -> Assert.Single(xs) (xUnit2013)",
    changes: [change("tests/EventLogTests.cs", csTest("Assert.Equal(1, log.Properties.Count);"), csTest("Assert.Single(log.Properties);"))],
    findings: [],
  },
  {
    name: "c#: Assert.Equal(0, xs.Count) -> Assert.Empty(xs)",
    changes: [change("tests/EventLogTests.cs", csTest("Assert.Equal(0, log.Errors.Count);"), csTest("Assert.Empty(log.Errors);"))],
    findings: [],
  },
  {
    name: "c#: Assert.AreEqual(1, x) -> Assert.That(x, Is.EqualTo(1)) (NUnit constraint model)",
    changes: [change("tests/ParserTests.cs", nunitTest("Assert.AreEqual(1, value);"), nunitTest("Assert.That(value, Is.EqualTo(1));"))],
    findings: [],
  },
  {
    name: "js: expect(x.length).toBe(2) -> expect(x).toHaveLength(2) (jest/prefer-to-have-length)",
    changes: [change("test/split.test.ts", jsTest("expect(parts.length).toBe(2);"), jsTest("expect(parts).toHaveLength(2);"))],
    findings: [],
  },
  {
    name: "js: toBe(null) -> toBeNull() (jest/prefer-to-be)",
    changes: [change("test/split.test.ts", jsTest("expect(parts.rest).toBe(null);"), jsTest("expect(parts.rest).toBeNull();"))],
    findings: [],
  },
  {
    name: "rust: assert_eq!(v.len(), 0) -> assert!(v.is_empty()) (clippy len_zero)",
    changes: [change("tests/split.rs", rsTest("assert_eq!(parts.len(), 0);"), rsTest("assert!(parts.is_empty());"))],
    findings: [],
  },
  {
    name: "java: assertEquals(0, xs.size()) -> assertTrue(xs.isEmpty())",
    changes: [change("src/test/java/SplitTest.java", javaTest("assertEquals(0, parts.size());"), javaTest("assertTrue(parts.isEmpty());"))],
    findings: [],
  },
  {
    name: "go: if len(x) != 2 { t.Fatalf } -> require.Len(t, x, 2)",
    changes: [change("split_test.go", goTest(`if len(parts) != 2 {\n\t\tt.Fatalf("got %d parts", len(parts))\n\t}`), goTest("require.Len(t, parts, 2)"))],
    findings: [],
  },
  {
    name: "ruby: assert_equal 0, xs.size -> assert_empty xs (rubocop Minitest/AssertEmpty)",
    changes: [change("test/split_test.rb", rbTest("assert_equal 0, parts.size"), rbTest("assert_empty parts"))],
    findings: [],
  },
  {
    name: "php: assertEquals(1, count($x)) -> assertCount(1, $x)",
    changes: [change("tests/LinkTest.php", phpTest("$this->assertEquals(1, count($renderer->links()));"), phpTest("$this->assertCount(1, $renderer->links());"))],
    findings: [],
  },
  {
    name: "php: loose assertEquals('', $x) -> assertNull($x) (null == '' under PHPUnit's ==)",
    changes: [change("tests/LinkTest.php", phpTest("$this->assertEquals('', $renderer->href('javascript:x'));"), phpTest("$this->assertNull($renderer->href('javascript:x'));"))],
    findings: [],
  },
  {
    name: "php: loose assertEquals(0, $x) -> assertNull($x) is no weakening either (0 == null)",
    changes: [change("tests/LinkTest.php", phpTest("$this->assertEquals(0, $renderer->width('javascript:x'));"), phpTest("$this->assertNull($renderer->width('javascript:x'));"))],
    findings: [],
  },
  {
    name: "ruby: an expected string interpolates the hash literal it spelled (Ruby 3.4's Hash#inspect)",
    changes: [
      change("test/fallbacks_test.rb", rbInspectTest(`'#<Fallbacks @map={:"de-AT"=>[:"de-DE"]} @defaults=[:en]>'`), rbInspectTest(`%|#<Fallbacks @map=#{{:"de-AT"=>[:"de-DE"]}} @defaults=[:en]>|`)),
    ],
    findings: [],
  },
  {
    name: "js: an expected string written as a template literal of constants",
    changes: [change("test/render.test.ts", jsRenderTest(`"<b>1</b>"`), jsRenderTest("`<b>${1}</b>`"))],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    // The same expectation change as toHaveLength(2) -> toHaveLength(1): expectation_changed, compared as checks, not as text.
    name: "c#: Assert.Equal(2, xs.Count) -> Assert.Single(xs) expects another size",
    changes: [change("tests/EventLogTests.cs", csTest("Assert.Equal(2, log.Properties.Count);"), csTest("Assert.Single(log.Properties);"))],
    findings: [`expectation_changed/medium tests/EventLogTests.cs "EventLogTests > Records_One_Property"`],
  },
  {
    name: "c#: Assert.Equal(1, xs.Count) -> Assert.NotEmpty(xs) checks less",
    changes: [change("tests/EventLogTests.cs", csTest("Assert.Equal(1, log.Properties.Count);"), csTest("Assert.NotEmpty(log.Properties);"))],
    findings: [`assertion_weakening/high tests/EventLogTests.cs "EventLogTests > Records_One_Property"`],
  },
  {
    name: "c#: Assert.Empty(xs) -> Assert.NotNull(xs) checks less",
    changes: [change("tests/EventLogTests.cs", csTest("Assert.Empty(log.Errors);"), csTest("Assert.NotNull(log.Errors);"))],
    findings: [`assertion_weakening/high tests/EventLogTests.cs "EventLogTests > Records_One_Property"`],
  },
  {
    name: "js: toHaveLength(2) -> toBeTruthy() checks less",
    changes: [change("test/split.test.ts", jsTest("expect(parts).toHaveLength(2);"), jsTest("expect(parts).toBeTruthy();"))],
    findings: [`assertion_weakening/high test/split.test.ts "splits"`],
  },
  {
    name: "js: expect(x.length).toBe(2) -> toHaveLength(1) expects another size",
    changes: [change("test/split.test.ts", jsTest("expect(parts.length).toBe(2);"), jsTest("expect(parts).toHaveLength(1);"))],
    findings: [`expectation_changed/medium test/split.test.ts "splits"`],
  },
  {
    name: "rust: assert_eq!(v.len(), 2) -> assert!(!v.is_empty()) checks less",
    changes: [change("tests/split.rs", rsTest("assert_eq!(parts.len(), 2);"), rsTest("assert!(!parts.is_empty());"))],
    findings: [`assertion_weakening/high tests/split.rs "splits_nothing"`],
  },
  {
    name: "php: strict assertSame('', $x) -> assertNull($x) expects another value",
    changes: [change("tests/LinkTest.php", phpTest("$this->assertSame('', $renderer->href('javascript:x'));"), phpTest("$this->assertNull($renderer->href('javascript:x'));"))],
    findings: [`assertion_weakening/high tests/LinkTest.php "LinkTest > testUnsafeLink"`],
  },
  {
    name: "php: loose assertEquals('#', $x) -> assertNull($x): '#' is not == null",
    changes: [change("tests/LinkTest.php", phpTest("$this->assertEquals('#', $renderer->href('javascript:x'));"), phpTest("$this->assertNull($renderer->href('javascript:x'));"))],
    findings: [`assertion_weakening/high tests/LinkTest.php "LinkTest > testUnsafeLink"`],
  },
  {
    name: "php: loose assertEquals('', $x) -> assertNotNull($x) checks less",
    changes: [change("tests/LinkTest.php", phpTest("$this->assertEquals('', $renderer->href('javascript:x'));"), phpTest("$this->assertNotNull($renderer->href('javascript:x'));"))],
    findings: [`assertion_weakening/high tests/LinkTest.php "LinkTest > testUnsafeLink"`],
  },
  {
    name: "c#: NUnit Is.EqualTo(1) -> Is.Not.Null checks less",
    changes: [change("tests/ParserTests.cs", nunitTest("Assert.That(value, Is.EqualTo(1));"), nunitTest("Assert.That(value, Is.Not.Null);"))],
    findings: [`assertion_weakening/high tests/ParserTests.cs "ParserTests > ParsesOne"`],
  },
  {
    name: "ruby: the interpolated literal is another value than the one spelled",
    changes: [
      change("test/fallbacks_test.rb", rbInspectTest(`'#<Fallbacks @map={:"de-AT"=>[:"de-DE"]} @defaults=[:en]>'`), rbInspectTest(`%|#<Fallbacks @map=#{{:"de-AT"=>[:"fr-FR"]}} @defaults=[:en]>|`)),
    ],
    findings: [`expectation_changed/medium test/fallbacks_test.rb "FallbacksTest > test_inspect"`],
  },
  {
    name: "ruby: the expected string interpolates the value under test itself",
    changes: [change("test/fallbacks_test.rb", rbInspectTest(`'#<Fallbacks @map={:"de-AT"=>[:"de-DE"]} @defaults=[:en]>'`), rbInspectTest(`"#{@fallbacks.inspect}"`))],
    findings: [`assertion_weakening/high test/fallbacks_test.rb "FallbacksTest > test_inspect"`],
  },
  {
    name: "js: the expected template literal interpolates the value under test",
    changes: [change("test/render.test.ts", jsRenderTest(`"<b>1</b>"`), jsRenderTest("`${html}`"))],
    findings: [`assertion_weakening/high test/render.test.ts "renders"`],
  },
];

describe("equivalent checks: legitimate rewrites give no test finding", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("equivalent checks: the nearest cheats are still findings", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
