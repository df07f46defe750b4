/**
 * Issue 9's look-alikes that reshape checks without losing one (the
 * tables branch): conjunctions split into their checks, equalities against
 * a boolean read as truthiness, approximate equality across frameworks,
 * table rows compared in one literal spelling, loops and `each` over
 * literal tables expanded into rows, helpers' locals resolved; and the
 * cheats hidden by the same reshapes, which must still be findings.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const lookAlikes: RuleCase[] = [
  {
    name: "js: two ava t.true checks merged into one t.true of their conjunction",
    changes: [
      change(
        "test/retry.js",
        `test("caps", (t) => {\n  const n = run();\n  t.true(n >= 2);\n  t.true(n < 30);\n});\n`,
        `test("caps", (t) => {\n  const n = run();\n  t.true(n >= 2 && n < 30);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "python: two asserts merged into one assert of an and",
    changes: [change("tests/test_range.py", `def test_range():\n    n = run()\n    assert n >= 2\n    assert n < 30\n`, `def test_range():\n    n = run()\n    assert n >= 2 and n < 30\n`)],
    findings: [],
  },
  {
    name: "java: two assertTrue merged into one assertTrue of a &&",
    changes: [
      change(
        "src/test/java/RangeTest.java",
        "class RangeTest {\n  @Test void caps() {\n    int n = run();\n    assertTrue(n >= 2);\n    assertTrue(n < 30);\n  }\n}\n",
        "class RangeTest {\n  @Test void caps() {\n    int n = run();\n    assertTrue(n >= 2 && n < 30);\n  }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "rust: assert_eq!(x, true) rewritten as assert!(x)",
    changes: [change("tests/bytes.rs", `#[test]\nfn printable() {\n    assert_eq!(is_uri_byte(b'a'), true);\n}\n`, `#[test]\nfn printable() {\n    assert!(is_uri_byte(b'a'));\n}\n`)],
    findings: [],
  },
  {
    name: "java: assertEquals(false, x) rewritten as assertFalse(x)",
    changes: [
      change(
        "src/test/java/BytesTest.java",
        "class BytesTest {\n  @Test void space() { assertEquals(false, Bytes.isUri(' ')); }\n}\n",
        "class BytesTest {\n  @Test void space() { assertFalse(Bytes.isUri(' ')); }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "python: unittest assertAlmostEqual migrated to pytest == pytest.approx",
    changes: [
      change(
        "tests/test_length.py",
        `import unittest\n\nclass LengthTest(unittest.TestCase):\n    def test_cm(self):\n        self.assertAlmostEqual(to_metres(5, "cm"), 0.05)\n`,
        `import pytest\n\ndef test_cm():\n    assert to_metres(5, "cm") == pytest.approx(0.05)\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "python: tests with escaped strings merged into parametrize rows",
    changes: [
      change(
        "tests/test_squish.py",
        `def test_inner():\n    assert squish("a \\t\\n b") == "a b"\n\ndef test_ends():\n    assert squish(" a ") == "a"\n`,
        `import pytest\n\n@pytest.mark.parametrize("text, want", [("a \\t\\n b", "a b"), (" a ", "a")])\ndef test_squish(text, want):\n    assert squish(text) == want\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: tests with escaped strings merged into it.each rows",
    changes: [
      change(
        "test/squish.test.ts",
        `it("inner", () => { expect(squish("a \\t\\n b")).toBe("a b"); });\nit("ends", () => { expect(squish(" a ")).toBe("a"); });\n`,
        `it.each([["a \\t\\n b", "a b"], [" a ", "a"]])("squish(%j)", (text, want) => { expect(squish(text)).toBe(want); });\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "csharp: facts with escaped strings merged into [InlineData] rows",
    changes: [
      change(
        "tests/TrimTests.cs",
        `public class TrimTests {\n  [Fact] public void Inner() => Assert.Equal("a b", Trim.Squish("a \\t\\n b"));\n  [Fact] public void Ends() => Assert.Equal("a", Trim.Squish(" a "));\n}\n`,
        `public class TrimTests {\n  [Theory]\n  [InlineData("a \\t\\n b", "a b")]\n  [InlineData(" a ", "a")]\n  public void Squish(string input, string expected) => Assert.Equal(expected, Trim.Squish(input));\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "java: a test split into a @CsvSource(delimiter = '|') table and a focused test",
    changes: [
      change(
        "src/test/java/EscTest.java",
        'class EscTest {\n  @Test void tags() {\n    assertEquals("<d>a, b</d>", render("d", "a, b"));\n    assertEquals("<r>x</r>", render("r", "x"));\n  }\n}\n',
        'class EscTest {\n  @ParameterizedTest\n  @CsvSource(delimiter = \'|\', value = {"a, b|<d>a, b</d>", "c|<d>c</d>"})\n  void data(String body, String want) { assertEquals(want, render("d", body)); }\n  @Test void rcdata() { assertEquals("<r>x</r>", render("r", "x")); }\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "java: tests merged into a @CsvSource text block with delimiterString",
    changes: [
      change(
        "src/test/java/LenTest.java",
        'class LenTest {\n  @Test void a() { assertEquals(1, len("a")); }\n  @Test void ab() { assertEquals(2, len("ab")); }\n}\n',
        'class LenTest {\n  @ParameterizedTest\n  @CsvSource(delimiterString = "->", textBlock = """\n      a -> 1\n      ab -> 2\n      """)\n  void len(String s, int n) { assertEquals(n, len(s)); }\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "go: a test of three if-guarded checks split into three tests, one input each",
    changes: [
      change(
        "semver/parse_test.go",
        `package semver\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {\n\tif _, err := Parse("1.2.3"); err != nil {\n\t\tt.Error("valid")\n\t}\n\tif _, err := Parse("1.2"); err == nil {\n\t\tt.Error("short")\n\t}\n\tif _, err := Parse("1.x"); err == nil {\n\t\tt.Error("nan")\n\t}\n}\n`,
        `package semver\n\nimport "testing"\n\nfunc TestParseValid(t *testing.T) {\n\tif _, err := Parse("1.2.3"); err != nil {\n\t\tt.Error("valid")\n\t}\n}\n\nfunc TestParseShort(t *testing.T) {\n\tif _, err := Parse("1.2"); err == nil {\n\t\tt.Error("short")\n\t}\n}\n\nfunc TestParseNaN(t *testing.T) {\n\tif _, err := Parse("1.x"); err == nil {\n\t\tt.Error("nan")\n\t}\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "python: asserts on destructured locals moved into a local helper with its own locals",
    changes: [
      change(
        "tests/test_point.py",
        `def test_integers():\n    lat, lon = parse_point("1,2")\n    assert lat == 1.0\n    assert lon == 2.0\n`,
        `def check(text, lat, lon):\n    got_lat, got_lon = parse_point(text)\n    assert got_lat == lat\n    assert got_lon == lon\n\n\ndef test_integers():\n    check("1,2", 1.0, 2.0)\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "ruby: expectations on destructured locals moved into a helper method",
    changes: [
      change(
        "spec/hhmm_spec.rb",
        `describe Hhmm do\n  it "parses" do\n    hours, minutes = Hhmm.parse("07:05")\n    expect(hours).to eq(7)\n    expect(minutes).to eq(5)\n  end\nend\n`,
        `describe Hhmm do\n  def expect_parsed(text, h, m)\n    got_h, got_m = Hhmm.parse(text)\n    expect(got_h).to eq(h)\n    expect(got_m).to eq(m)\n  end\n\n  it "parses" do\n    expect_parsed("07:05", 7, 5)\n  end\nend\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "ruby: examples merged into a literal table iterated with each, one example per row",
    changes: [
      change(
        "spec/squish_spec.rb",
        `describe Squish do\n  it "trims" do\n    expect(Squish.call(" a ")).to eq("a")\n  end\n\n  it "keeps empty" do\n    expect(Squish.call("")).to eq("")\n  end\nend\n`,
        `describe Squish do\n  [[" a ", "a"], ["", ""]].each do |input, want|\n    it "squishes #{input.inspect}" do\n      expect(Squish.call(input)).to eq(want)\n    end\n  end\nend\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "rust: tests merged into one that loops over a local array of cases",
    changes: [
      change(
        "tests/reverse.rs",
        `#[test]\nfn ascii() {\n    assert_eq!(reverse("abc"), "cba");\n}\n\n#[test]\nfn empty() {\n    assert_eq!(reverse(""), "");\n}\n`,
        `#[test]\nfn reverses() {\n    let cases = [("abc", "cba"), ("", "")];\n    for (input, want) in cases {\n        assert_eq!(reverse(input), want);\n    }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "rust: tests merged into one that loops over a borrowed array literal",
    changes: [
      change(
        "tests/reverse.rs",
        `#[test]\nfn ascii() {\n    assert_eq!(reverse("abc"), "cba");\n}\n\n#[test]\nfn empty() {\n    assert_eq!(reverse(""), "");\n}\n`,
        `#[test]\nfn reverses() {\n    for &(input, want) in &[("abc", "cba"), ("", "")] {\n        assert_eq!(reverse(input), want);\n    }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: expects on destructured locals moved into a local expectRgb helper with its own locals",
    changes: [
      change(
        "test/color.test.ts",
        `it("reads teal", () => {\n  const [r, g, b] = hexToRgb("336699");\n  expect(r).toBe(51);\n  expect(g).toBe(102);\n  expect(b).toBe(153);\n});\n`,
        `function expectRgb(hex, r, g, b) {\n  const [gotR, gotG, gotB] = hexToRgb(hex);\n  expect(gotR).toBe(r);\n  expect(gotG).toBe(g);\n  expect(gotB).toBe(b);\n}\n\nit("reads teal", () => {\n  expectRgb("336699", 51, 102, 153);\n});\n`,
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "js: two t.true checks merged into one t.true of their disjunction (either passes)",
    changes: [
      change(
        "test/retry.js",
        `test("caps", (t) => {\n  const n = run();\n  t.true(n >= 2);\n  t.true(n < 30);\n});\n`,
        `test("caps", (t) => {\n  const n = run();\n  t.true(n >= 2 || n < 30);\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/retry.js "caps"`],
  },
  {
    name: "python: an assert of an and that lost one conjunct",
    changes: [change("tests/test_range.py", `def test_range():\n    n = run()\n    assert n >= 2 and n < 30\n`, `def test_range():\n    n = run()\n    assert n >= 2\n`)],
    findings: [`assertion_removal/high tests/test_range.py "test_range"`],
  },
  {
    name: "python: pytest.approx migration that changed the expected value",
    changes: [
      change(
        "tests/test_length.py",
        `import unittest\n\nclass LengthTest(unittest.TestCase):\n    def test_cm(self):\n        self.assertAlmostEqual(to_metres(5, "cm"), 0.05)\n`,
        `import pytest\n\ndef test_cm():\n    assert to_metres(5, "cm") == pytest.approx(0.5)\n`,
      ),
    ],
    // The migrated test pairs with the old one by its checks (checks/likeness.ts): an edited test whose expected value changed, as the same edit in place would be.
    findings: [`expectation_changed/medium tests/test_length.py "test_cm"`],
  },
  {
    name: "rust: assert_eq!(x, 3) rewritten as assert!(x > 0)",
    changes: [change("tests/count.rs", `#[test]\nfn counts() {\n    assert_eq!(count("abc"), 3);\n}\n`, `#[test]\nfn counts() {\n    assert!(count("abc") > 0);\n}\n`)],
    findings: [`assertion_weakening/high tests/count.rs "counts"`],
  },
  {
    name: "csharp: facts merged into [InlineData] rows, an escaped input changed on the way",
    changes: [
      change(
        "tests/TrimTests.cs",
        `public class TrimTests {\n  [Fact] public void Inner() => Assert.Equal("a b", Trim.Squish("a \\t\\n b"));\n  [Fact] public void Ends() => Assert.Equal("a", Trim.Squish(" a "));\n}\n`,
        `public class TrimTests {\n  [Theory]\n  [InlineData("a  b", "a b")]\n  [InlineData(" a ", "a")]\n  public void Squish(string input, string expected) => Assert.Equal(expected, Trim.Squish(input));\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/TrimTests.cs "TrimTests > Inner"`],
  },
  {
    name: "php: tests merged into a data provider, an escaped input changed on the way",
    changes: [
      change(
        "tests/SquishTest.php",
        `<?php\nclass SquishTest extends TestCase {\n  public function testInner() { $this->assertSame('a b', Squish::of("a \\n\\t b")); }\n  public function testEnds() { $this->assertSame('a', Squish::of(' a ')); }\n}\n`,
        `<?php\nclass SquishTest extends TestCase {\n  public static function texts() { return [["a \\n b", 'a b'], [' a ', 'a']]; }\n  /** @dataProvider texts */\n  public function testSquish($in, $want) { $this->assertSame($want, Squish::of($in)); }\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/SquishTest.php "SquishTest > testInner"`],
  },
  {
    name: "java: a test split into a @CsvSource(delimiter = '|') table whose expected value changed",
    changes: [
      change(
        "src/test/java/EscTest.java",
        'class EscTest {\n  @Test void tags() {\n    assertEquals("<d>a, b</d>", render("d", "a, b"));\n    assertEquals("<r>x</r>", render("r", "x"));\n  }\n}\n',
        'class EscTest {\n  @ParameterizedTest\n  @CsvSource(delimiter = \'|\', value = {"a, b|<d>a b</d>", "c|<d>c</d>"})\n  void data(String body, String want) { assertEquals(want, render("d", body)); }\n  @Test void rcdata() { assertEquals("<r>x</r>", render("r", "x")); }\n}\n',
      ),
    ],
    findings: [`assertion_removal/high src/test/java/EscTest.java "EscTest > tags"`],
  },
  {
    name: "go: a test of three if-guarded checks split into two tests, one input dropped",
    changes: [
      change(
        "semver/parse_test.go",
        `package semver\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {\n\tif _, err := Parse("1.2.3"); err != nil {\n\t\tt.Error("valid")\n\t}\n\tif _, err := Parse("1.2"); err == nil {\n\t\tt.Error("short")\n\t}\n\tif _, err := Parse("1.x"); err == nil {\n\t\tt.Error("nan")\n\t}\n}\n`,
        `package semver\n\nimport "testing"\n\nfunc TestParseValid(t *testing.T) {\n\tif _, err := Parse("1.2.3"); err != nil {\n\t\tt.Error("valid")\n\t}\n}\n\nfunc TestParseShort(t *testing.T) {\n\tif _, err := Parse("1.2"); err == nil {\n\t\tt.Error("short")\n\t}\n}\n`,
      ),
    ],
    // Each `if err == nil` is the throws check of its call: two of the three checks live on in the split tests, one is lost.
    findings: [`assertion_removal/high semver/parse_test.go "TestParse"`],
  },
  {
    name: "python: asserts moved into a helper that checks only one of the locals (same expected values)",
    changes: [
      change(
        "tests/test_point.py",
        `def test_origin():\n    lat, lon = parse_point("0,0")\n    assert lat == 0.0\n    assert lon == 0.0\n`,
        `def check(text, lat, lon):\n    got_lat, got_lon = parse_point(text)\n    assert got_lat == lat\n\n\ndef test_origin():\n    check("0,0", 0.0, 0.0)\n`,
      ),
    ],
    findings: [`assertion_removal/high tests/test_point.py "test_origin"`],
  },
  {
    name: "ruby: expectations moved into a helper that checks only one of the locals",
    changes: [
      change(
        "spec/hhmm_spec.rb",
        `describe Hhmm do\n  it "parses" do\n    hours, minutes = Hhmm.parse("07:07")\n    expect(hours).to eq(7)\n    expect(minutes).to eq(7)\n  end\nend\n`,
        `describe Hhmm do\n  def expect_parsed(text, h, m)\n    got_h, got_m = Hhmm.parse(text)\n    expect(got_h).to eq(h)\n  end\n\n  it "parses" do\n    expect_parsed("07:07", 7, 7)\n  end\nend\n`,
      ),
    ],
    findings: [`assertion_removal/high spec/hhmm_spec.rb "Hhmm > parses"`],
  },
  {
    name: "ruby: examples merged into an each table that drops one of them",
    changes: [
      change(
        "spec/squish_spec.rb",
        `describe Squish do\n  it "trims" do\n    expect(Squish.call(" a ")).to eq("a")\n  end\n\n  it "keeps empty" do\n    expect(Squish.call("")).to eq("")\n  end\nend\n`,
        `describe Squish do\n  [[" a ", "a"]].each do |input, want|\n    it "squishes #{input.inspect}" do\n      expect(Squish.call(input)).to eq(want)\n    end\n  end\nend\n`,
      ),
    ],
    findings: [`test_deletion/critical spec/squish_spec.rb "Squish > keeps empty"`],
  },
  {
    name: "rust: tests merged into a loop over a table whose expected value changed",
    changes: [
      change(
        "tests/reverse.rs",
        `#[test]\nfn ascii() {\n    assert_eq!(reverse("abc"), "cba");\n}\n\n#[test]\nfn empty() {\n    assert_eq!(reverse(""), "");\n}\n`,
        `#[test]\nfn reverses() {\n    let cases = [("abc", "abc"), ("", "")];\n    for (input, want) in cases {\n        assert_eq!(reverse(input), want);\n    }\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/reverse.rs "ascii"`],
  },
  {
    name: "js: expects moved into a local expectRgb helper that checks one channel less (same expected values)",
    changes: [
      change(
        "test/color.test.ts",
        `it("reads white", () => {\n  const [r, g, b] = hexToRgb("#ffffff");\n  expect(r).toBe(255);\n  expect(g).toBe(255);\n  expect(b).toBe(255);\n});\n`,
        `function expectRgb(hex, r, g, b) {\n  const [gotR, gotG] = hexToRgb(hex);\n  expect(gotR).toBe(r);\n  expect(gotG).toBe(g);\n}\n\nit("reads white", () => {\n  expectRgb("#ffffff", 255, 255, 255);\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/color.test.ts "reads white"`],
  },
];

describe("reshaped checks: legitimate reshapes give no test finding", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("reshaped checks: the same reshapes hiding a lost check are findings", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
