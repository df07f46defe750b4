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
    changes: [change("test/retry.js", `test("caps", (t) => {\n  const n = run();\n  t.true(n >= 2);\n  t.true(n < 30);\n});\n`, `test("caps", (t) => {\n  const n = run();\n  t.true(n >= 2 && n < 30);\n});\n`)],
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
];

const cheats: RuleCase[] = [
  {
    name: "js: two t.true checks merged into one t.true of their disjunction (either passes)",
    changes: [change("test/retry.js", `test("caps", (t) => {\n  const n = run();\n  t.true(n >= 2);\n  t.true(n < 30);\n});\n`, `test("caps", (t) => {\n  const n = run();\n  t.true(n >= 2 || n < 30);\n});\n`)],
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
    findings: [`test_deletion/critical tests/test_length.py "LengthTest > test_cm"`],
  },
  {
    name: "rust: assert_eq!(x, 3) rewritten as assert!(x > 0)",
    changes: [change("tests/count.rs", `#[test]\nfn counts() {\n    assert_eq!(count("abc"), 3);\n}\n`, `#[test]\nfn counts() {\n    assert!(count("abc") > 0);\n}\n`)],
    findings: [`assertion_weakening/high tests/count.rs "counts"`],
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
