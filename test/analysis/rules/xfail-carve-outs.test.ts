/**
 * An expected-failure carve-out removed as the feature lands (issue 9,
 * class xfail-carve-out-removed; sweep of hukkinen/tomli 9eb2125ef4). A
 * table test that checked some rows fail (`if stem in XFAIL: with
 * assertRaises(E): loads(s); continue`) before checking every other row's
 * answer loses the carve-out: those rows now go through the general path
 * and expect an answer from the same call. That is an expectation changed
 * (medium, nothing when the code under test changed too), never an
 * assertion removal. The carve-out's check dropped with its `continue` kept
 * (the rows now checked for nothing), or the general path no longer
 * checking that call's answer, stays a removal. One table per language;
 * PHPUnit's `expectException` covers a whole test, so it has no row
 * carve-out to remove. Go's `if err == nil { t.Errorf }` carve-out is the
 * throws check of the call `err` was bound to (go-error-expected.test.ts),
 * judged as the other languages' are.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, summarize } from "./table.js";

interface CarveOutCase {
  lang: string;
  path: string;
  test: string;
  /** The test with the carve-out (before). */
  before: string;
  /** The carve-out removed: every row expects an answer. */
  removed: string;
  /** The cheat: the carve-out's check dropped, its early `continue`/`next` kept. */
  rowsSkipped: string;
  /** The cheat: the carve-out removed and the general path's check of the call's answer gone with it. */
  answerUnchecked: string;
  /** What removing the carve-out gives, when not the expectation change. */
  removedFindings?: string[];
}

const PY = (body: string): string =>
  `import unittest\n\nimport tomllib\n\n\nclass TestData(unittest.TestCase):\n    def test_valid(self):\n        for valid, expected in zip(FILES, EXPECTED):\n            with self.subTest(msg=valid.stem):\n                toml_str = valid.read_text()\n${body}`;
const PY_CARVE =
  '                if valid.stem in {"no-seconds", "common-34"}:\n                    with self.assertRaises(tomllib.TOMLDecodeError):\n                        tomllib.loads(toml_str)\n                    continue\n';
const PY_GENERAL = "                actual = tomllib.loads(toml_str)\n                actual = convert(actual)\n                self.assertEqual(actual, expected)\n";

const PYTEST = (body: string): string => `import pytest\n\nfrom toml import ParseError, parse\n\n\ndef test_valid():\n    for name, src, want in CASES:\n${body}`;
const PYTEST_CARVE = "        if name in XFAIL:\n            with pytest.raises(ParseError):\n                parse(src)\n            continue\n";
const PYTEST_GENERAL = "        assert parse(src) == want\n";

const JS = (body: string): string => `import { parse, ParseError } from "../src/index.js";\n\ntest("valid documents", () => {\n  for (const c of cases) {\n${body}  }\n});\n`;
const JS_CARVE = "    if (XFAIL.has(c.name)) {\n      expect(() => parse(c.src)).toThrow(ParseError);\n      continue;\n    }\n";
const JS_GENERAL = "    const got = parse(c.src);\n    expect(got).toEqual(c.want);\n";

const JAVA = (body: string): string =>
  `package toml;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass ValidTest {\n    @Test\n    void valid() {\n        for (Case c : CASES) {\n${body}        }\n    }\n}\n`;
const JAVA_CARVE = "            if (XFAIL.contains(c.name)) {\n                assertThrows(ParseException.class, () -> Parser.parse(c.src));\n                continue;\n            }\n";
const JAVA_GENERAL = "            assertEquals(c.want, Parser.parse(c.src));\n";

const CS = (body: string): string =>
  `using Xunit;\n\npublic class ValidTest\n{\n    [Fact]\n    public void Valid()\n    {\n        foreach (var (name, src, want) in Cases)\n        {\n${body}        }\n    }\n}\n`;
const CS_CARVE = "            if (Xfail.Contains(name))\n            {\n                Assert.Throws<FormatException>(() => Parser.Parse(src));\n                continue;\n            }\n";
const CS_GENERAL = "            Assert.Equal(want, Parser.Parse(src));\n";

const RB = (body: string): string => `require "minitest/autorun"\n\nclass ValidTest < Minitest::Test\n  def test_valid\n    CASES.each do |name, src, want|\n${body}    end\n  end\nend\n`;
const RB_CARVE = "      if XFAIL.include?(name)\n        assert_raises(Toml::ParseError) { Toml.parse(src) }\n        next\n      end\n";
const RB_GENERAL = "      assert_equal want, Toml.parse(src)\n";

const GO = (body: string): string => `package toml\n\nimport "testing"\n\nfunc TestValid(t *testing.T) {\n\tfor _, tc := range cases {\n${body}\t}\n}\n`;
const GO_CARVE = '\t\tif xfail[tc.name] {\n\t\t\t_, err := Parse(tc.src)\n\t\t\tif err == nil {\n\t\t\t\tt.Errorf("%s: want an error", tc.name)\n\t\t\t}\n\t\t\tcontinue\n\t\t}\n';
const GO_GENERAL = '\t\tgot, err := Parse(tc.src)\n\t\tif err != nil {\n\t\t\tt.Fatal(err)\n\t\t}\n\t\tif got != tc.want {\n\t\t\tt.Errorf("%s: got %v", tc.name, got)\n\t\t}\n';

const RS = (body: string): string => `use toml::parse;\n\n#[test]\nfn valid() {\n    for (name, src, want) in CASES {\n${body}    }\n}\n`;
const RS_CARVE = "        if XFAIL.contains(&name) {\n            assert!(parse(src).is_err());\n            continue;\n        }\n";
const RS_GENERAL = "        assert_eq!(parse(src).unwrap(), want);\n";

const cases: CarveOutCase[] = [
  {
    lang: "go",
    path: "valid_test.go",
    test: "TestValid",
    before: GO(GO_CARVE + GO_GENERAL),
    removed: GO(GO_GENERAL),
    rowsSkipped: GO("\t\tif xfail[tc.name] {\n\t\t\tcontinue\n\t\t}\n" + GO_GENERAL),
    answerUnchecked: GO("\t\t_, err := Parse(tc.src)\n\t\tif err != nil {\n\t\t\tt.Fatal(err)\n\t\t}\n"),
  },
  {
    lang: "rust",
    path: "tests/valid.rs",
    test: "valid",
    before: RS(RS_CARVE + RS_GENERAL),
    removed: RS(RS_GENERAL),
    rowsSkipped: RS("        if XFAIL.contains(&name) {\n            continue;\n        }\n" + RS_GENERAL),
    answerUnchecked: RS("        let _ = parse(src);\n        assert!(!want.is_empty());\n"),
  },
  {
    lang: "python (unittest)",
    path: "tests/test_data.py",
    test: "TestData > test_valid",
    before: PY(PY_CARVE + PY_GENERAL),
    removed: PY(PY_GENERAL),
    rowsSkipped: PY('                if valid.stem in {"no-seconds", "common-34"}:\n                    continue\n' + PY_GENERAL),
    answerUnchecked: PY("                actual = tomllib.loads(toml_str)\n                self.assertIsNotNone(expected)\n"),
  },
  {
    lang: "python (pytest)",
    path: "tests/test_valid.py",
    test: "test_valid",
    before: PYTEST(PYTEST_CARVE + PYTEST_GENERAL),
    removed: PYTEST(PYTEST_GENERAL),
    rowsSkipped: PYTEST("        if name in XFAIL:\n            continue\n" + PYTEST_GENERAL),
    answerUnchecked: PYTEST("        parse(src)\n        assert want\n"),
  },
  {
    lang: "javascript (jest)",
    path: "test/valid.test.js",
    test: "valid documents",
    before: JS(JS_CARVE + JS_GENERAL),
    removed: JS(JS_GENERAL),
    rowsSkipped: JS("    if (XFAIL.has(c.name)) continue;\n" + JS_GENERAL),
    answerUnchecked: JS("    parse(c.src);\n    expect(c.want).toBeDefined();\n"),
  },
  {
    lang: "java (junit 5)",
    path: "src/test/java/toml/ValidTest.java",
    test: "ValidTest > valid",
    before: JAVA(JAVA_CARVE + JAVA_GENERAL),
    removed: JAVA(JAVA_GENERAL),
    rowsSkipped: JAVA("            if (XFAIL.contains(c.name)) continue;\n" + JAVA_GENERAL),
    answerUnchecked: JAVA("            Parser.parse(c.src);\n            assertNotNull(c.want);\n"),
  },
  {
    lang: "c# (xunit)",
    path: "tests/ValidTest.cs",
    test: "ValidTest > Valid",
    before: CS(CS_CARVE + CS_GENERAL),
    removed: CS(CS_GENERAL),
    rowsSkipped: CS("            if (Xfail.Contains(name)) continue;\n" + CS_GENERAL),
    answerUnchecked: CS("            Parser.Parse(src);\n            Assert.NotNull(want);\n"),
  },
  {
    lang: "ruby (minitest)",
    path: "test/valid_test.rb",
    test: "ValidTest > test_valid",
    before: RB(RB_CARVE + RB_GENERAL),
    removed: RB(RB_GENERAL),
    rowsSkipped: RB("      next if XFAIL.include?(name)\n" + RB_GENERAL),
    answerUnchecked: RB("      Toml.parse(src)\n      refute_nil want\n"),
  },
];

describe.each(cases)("an expected-failure carve-out removed ($lang)", (one) => {
  it("reads the rows after the carve-out as run under its guard's negation (AssertionFact.conditions)", async () => {
    const facts = await extractFacts(one.path, one.before);
    const conditions = facts.tests[0]?.assertionsDetail?.map((fact) => fact.conditions ?? []) ?? [];
    expect(conditions.length).toBeGreaterThanOrEqual(2);
    const [carved, ...general] = conditions;
    expect(carved).toHaveLength(1);
    for (const each of general) expect(each).toEqual([expect.stringMatching(/^!/)]);
  });

  it("the carve-out removed: the rows now expect an answer, an expectation change", async () => {
    await expectFindings({ name: "removed", changes: [change(one.path, one.before, one.removed)], findings: one.removedFindings ?? [`expectation_changed/medium ${one.path} "${one.test}"`] });
  });

  it("the carve-out's check dropped with its early exit kept is still a removal", async () => {
    await expectFindings({ name: "rows skipped", changes: [change(one.path, one.before, one.rowsSkipped)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });

  it("the carve-out removed while the general path stops checking the call's answer is still a removal", async () => {
    const analysis = await analyzeChanges([change(one.path, one.before, one.answerUnchecked)]);
    expect(analysis.findings.map(summarize)).toContain(`assertion_removal/high ${one.path} "${one.test}"`);
  });
});

describe("an expected-failure carve-out removed with the code that refused those rows", () => {
  it("is no finding when the code under test changed too (tomli 9eb2125ef4)", async () => {
    const parser = (pattern: string): string => `import re\n\nTIME_RE = re.compile(r"${pattern}")\n\n\ndef loads(s):\n    return TIME_RE.match(s)\n`;
    await expectFindings({
      name: "with the fix",
      changes: [change("tests/test_data.py", cases[0]?.before ?? "", cases[0]?.removed ?? ""), change("tomllib/__init__.py", parser("\\d\\d:\\d\\d:\\d\\d"), parser("\\d\\d:\\d\\d(:\\d\\d)?"))],
      findings: [],
    });
  });
});
