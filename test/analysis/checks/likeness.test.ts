/**
 * Tests alike by their checks (src/analysis/checks/likeness.ts, compare.ts
 * pass 8): a test moved and renamed, or retitled past what the title passes
 * see, whose checks keep either their subject (the expectation follows a
 * product change) or their expected value (the subject follows a product
 * rename), is the same test, judged as edited; a renamed test that checks
 * less, or checks other things, is still a deletion.
 */
import { describe, expect, it } from "vitest";
import { areSubjectsRelated, checkLikeness, pairAlikeTests, testLikeness } from "../../../src/analysis/checks/likeness.js";
import type { Check } from "../../../src/analysis/checks/index.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const check = (subject: string, relation: Check["relation"], expected?: string, extra: Partial<Check> = {}): Check => ({
  subject,
  relation,
  ...(expected === undefined ? {} : { expected }),
  isNegated: false,
  strength: 3,
  isTautology: false,
  isReachable: true,
  line: 1,
  ...extra,
});

describe("areSubjectsRelated", () => {
  it.each([
    ["new Converter().toC(212)", "converter.toC(212)", true],
    ["remaining({timeout:1000},400)", "remaining({totalTimeout:1000},400)", true],
    ["Upload.mode(stream:false)", "Upload.mode", true],
    ["Cached.get_typedclassmethod(0)", "Cached.get_typed(0)", true],
    ['ParseDur("1s")', 'ParseDuration("1s")', true],
    ["gcd(12,18)", "gcdx::gcd(12,18)", true],
    ["parse(x)", "format(y)", false],
    ['parse("1")', 'format("2")', false],
    ["size()", "count(1)", false],
  ])("%s ~ %s: %s", (before, after, related) => {
    expect(areSubjectsRelated(before, after)).toBe(related);
  });
});

describe("checkLikeness", () => {
  it("is highest for the same check", () => {
    expect(checkLikeness(check("f(1)", "equal", "2"), check("f(1)", "equal", "2"))).toBe(4);
  });
  it("keeps the subject and lets the expectation follow the product", () => {
    expect(checkLikeness(check('parse("a=b")', "equal", '"error"'), check('parse("a=b")', "equal", '["a","b"]'))).toBe(2);
  });
  it("keeps the expectation and lets the subject follow a rename", () => {
    expect(checkLikeness(check("old.toC(212)", "equal", "100"), check("c.toC(212)", "equal", "100"))).toBe(2);
  });
  it("is 0 when subject and expectation both changed", () => {
    expect(checkLikeness(check("mode(true)", "equal", ":a"), check("mode(false)", "equal", ":b"))).toBe(0);
  });
  it("is 0 across relations or negations", () => {
    expect(checkLikeness(check("f(1)", "equal", "2"), check("f(1)", "truthy"))).toBe(0);
    expect(checkLikeness(check("f(1)", "equal", "2"), check("f(1)", "equal", "2", { isNegated: true }))).toBe(0);
  });
  it("is 0 for tautologies", () => {
    expect(checkLikeness(check("1", "equal", "1", { isTautology: true }), check("1", "equal", "1", { isTautology: true }))).toBe(0);
  });
});

describe("testLikeness and pairAlikeTests", () => {
  it("needs every before check matched and no fewer checks after", () => {
    expect(testLikeness([check("f(1)", "equal", "2"), check("f(2)", "equal", "3")], [check("f(1)", "equal", "2")])).toBe(0);
    expect(testLikeness([check("f(1)", "equal", "2")], [check("g(1)", "equal", "2"), check("g(2)", "equal", "9")])).toBeGreaterThan(0);
    expect(testLikeness([], [check("f(1)", "equal", "2")])).toBe(0);
  });
  it("pairs as many tests as it can when titles and options swapped (a default flipped)", () => {
    const before = [
      { checks: [check("Upload.mode", "equal", ":stream")], file: "s.rb", suite: "Upload" },
      { checks: [check("Upload.mode(stream:false)", "equal", ":buffer")], file: "s.rb", suite: "Upload" },
    ];
    const after = [
      { checks: [check("Upload.mode", "equal", ":buffer")], file: "s.rb", suite: "Upload" },
      { checks: [check("Upload.mode(stream:true)", "equal", ":stream")], file: "s.rb", suite: "Upload" },
    ];
    expect(pairAlikeTests(before, after)).toHaveLength(2);
  });
});

const lookAlikes: RuleCase[] = [
  {
    name: "go: a test moved to another file and renamed with the function it calls",
    changes: [
      change("dur.go", "package p\n\nfunc ParseDur(s string) int { return len(s) }\n", "package p\n\nfunc ParseDuration(s string) int { return len(s) }\n"),
      change(
        "dur_test.go",
        'package p\n\nimport "testing"\n\nfunc TestLen(t *testing.T) {\n\tif Len("ab") != 2 {\n\t\tt.Errorf("len")\n\t}\n}\n\nfunc TestParseDur(t *testing.T) {\n\tif got := ParseDur("1s"); got != 2 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n',
        'package p\n\nimport "testing"\n\nfunc TestLen(t *testing.T) {\n\tif Len("ab") != 2 {\n\t\tt.Errorf("len")\n\t}\n}\n',
      ),
      change("duration_test.go", null, 'package p\n\nimport "testing"\n\nfunc TestDuration(t *testing.T) {\n\tif got := ParseDuration("1s"); got != 2 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n'),
    ],
    findings: [],
  },
  {
    name: "csharp: a test moved to a new class, its receiver adapted",
    changes: [
      change(
        "tests/ConverterTests.cs",
        "public class ConverterTests {\n  [Fact] public void Freezing() { Assert.Equal(32.0, Converter.ToF(0)); }\n  [Fact] public void Boiling() { Assert.Equal(100.0, new Converter().ToC(212)); }\n}\n",
        "public class ConverterTests {\n  [Fact] public void Freezing() { Assert.Equal(32.0, Converter.ToF(0)); }\n}\n",
      ),
      change(
        "tests/CelsiusTests.cs",
        null,
        "public class CelsiusTests {\n  private readonly Converter converter = new Converter();\n  [Fact] public void BoilingPoint() { Assert.Equal(100.0, converter.ToC(212)); }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "php: a test renamed, its method renamed with the product's",
    changes: [
      change(
        "src/Slug.php",
        "<?php\nclass Slug { public static function make(string $s): string { return strtolower($s); } }\n",
        "<?php\nclass Slug { public static function slugify(string $s): string { return strtolower($s); } }\n",
      ),
      change(
        "tests/SlugTest.php",
        "<?php\nclass SlugTest extends TestCase {\n  public function testMake(): void { $this->assertSame('ab', Slug::make('AB')); }\n}\n",
        "<?php\nclass SlugTest extends TestCase {\n  public function testSlugifyLowers(): void { $this->assertSame('ab', Slug::slugify('AB')); }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "js: a retitled test whose expectation follows the product change",
    changes: [
      change("src/sep.ts", 'export const delimiter = ":";\n', 'export const delimiter = process.platform === "win32" ? ";" : ":";\n'),
      change(
        "test/sep.test.ts",
        'import { delimiter } from "../src/sep";\ndescribe("constants", () => {\n  it("delimiter should equal colon", () => { expect(delimiter).toBe(":"); });\n});\n',
        'import { delimiter } from "../src/sep";\ndescribe("constants", () => {\n  it("delimiter", () => { expect(delimiter).toBe(process.platform === "win32" ? ";" : ":"); });\n});\n',
      ),
    ],
    findings: [],
  },
];

/** An expected literal inside the subject changed: the expectation changed, no check was removed. */
const expectationInSubject: RuleCase[] = [
  {
    name: 'js: isRalphError(e, "E_CORRUPT") -> "E_BAD_STATE" in a retitled table test',
    changes: [
      change(
        "test/state.test.ts",
        'import { isRalphError, parse } from "../src/state";\ndescribe("State", () => {\n  it.each([["a bad id", "x"]])("reports %s as E_CORRUPT (exit 3) naming the file", (_n, text) => {\n    try {\n      parse(text);\n    } catch (error) {\n      expect(isRalphError(error, "E_CORRUPT")).toBe(true);\n      expect(error.exitCode).toBe(3);\n    }\n  });\n});\n',
        'import { isRalphError, parse } from "../src/state";\ndescribe("State", () => {\n  it.each([["a bad id", "x"]])("reports %s as E_BAD_STATE (exit 2) naming the file", (_n, text) => {\n    try {\n      parse(text);\n    } catch (error) {\n      expect(isRalphError(error, "E_BAD_STATE")).toBe(true);\n      expect(error.exitCode).toBe(2);\n    }\n  });\n});\n',
      ),
    ],
    findings: [`expectation_changed/medium test/state.test.ts "State > reports %s as E_BAD_STATE (exit 2) naming the file"`],
  },
];

const cheats: RuleCase[] = [
  {
    name: "python: a test moved and renamed that checks less (equality -> truthiness)",
    changes: [
      change("tests/test_a.py", "def test_keep():\n    assert f(0) == 0\n\n\ndef test_parse_total():\n    assert parse_total('3') == 3\n", "def test_keep():\n    assert f(0) == 0\n"),
      change("tests/test_b.py", null, "def test_total():\n    assert parse_total('3')\n"),
    ],
    findings: [`test_deletion/critical tests/test_a.py "test_parse_total"`],
  },
  {
    name: "java: a test renamed whose subject and expectation both changed (another check)",
    changes: [
      change(
        "src/test/java/ModeTest.java",
        'class ModeTest {\n  @Test void keep() { assertEquals(1, one()); }\n  @Test void streamsWhenAsked() { assertEquals("stream", Upload.mode(true)); }\n}\n',
        'class ModeTest {\n  @Test void keep() { assertEquals(1, one()); }\n  @Test void buffersOtherwise() { assertEquals("buffer", Upload.mode(false)); }\n}\n',
      ),
    ],
    findings: [`test_deletion/critical src/test/java/ModeTest.java "ModeTest > streamsWhenAsked"`],
  },
  {
    name: "ruby: two tests renamed into one that keeps only one of their checks",
    changes: [
      change(
        "spec/mode_spec.rb",
        'RSpec.describe Mode do\n  it "streams" do\n    expect(Mode.get(1)).to eq(:stream)\n  end\n\n  it "buffers" do\n    expect(Mode.get(2)).to eq(:buffer)\n  end\nend\n',
        'RSpec.describe Mode do\n  it "picks a mode" do\n    expect(Mode.pick(1)).to eq(:stream)\n  end\nend\n',
      ),
    ],
    findings: [`test_deletion/critical spec/mode_spec.rb "Mode > buffers"`],
  },
];

describe("tests alike by their checks: moves and renames that follow the product", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("an expected literal inside the subject is an expectation, not a check", () => {
  it.each(expectationInSubject.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("tests alike by their checks: renames that lose a check stay caught", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
