/**
 * A number spelled another way is the same number (checks/normalise.ts
 * canonicalNumber; sindresorhus/is faf700367e: `t.true(is.truthy(1n))` and
 * `t.true(is.truthy(BigInt(1)))` were one check twice, and dropping the
 * second lost nothing). Digit separators (`1_000`), hex, octal and binary
 * integers (`0x10`, `0o20`, `0b10000`) and JS `BigInt(16)` read as their
 * decimal value; a suffix (`16n`, `16L`, `16u32`) stays, and so does every
 * digit inside a string or a name.
 */
import { describe, expect, it } from "vitest";
import { canonicalText } from "../../../src/analysis/checks/normalise.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

describe("canonical text of numbers", () => {
  it.each([
    ["f(1_000_000)", "f(1000000)"],
    ["f(0x10)", "f(16)"],
    ["f(0XfF)", "f(255)"],
    ["f(0o20)", "f(16)"],
    ["f(0b1_0000)", "f(16)"],
    ["is.truthy(BigInt(1))", "is.truthy(1n)"],
    ["is.truthy(BigInt(0x10))", "is.truthy(16n)"],
    ["f(0xFFu8)", "f(255u8)"],
    ["f(1_000.5)", "f(1000.5)"],
  ])("%s is %s", (spelled, plain) => {
    expect(canonicalText(spelled)).toBe(canonicalText(plain));
  });

  it.each([
    ['f("0x10")', 'f("16")'],
    ["f(a0x10)", "f(a16)"],
    ["f(x.0x10)", "f(x.16)"],
    ["is.truthy(BigInt(1))", "is.truthy(1)"],
    ["f(0x10)", "f(0x11)"],
  ])("%s is not %s", (spelled, other) => {
    expect(canonicalText(spelled)).not.toBe(canonicalText(other));
  });
});

const header = `import test from "ava";\nimport is from "../source/index.js";\n`;

const cases: RuleCase[] = [
  {
    name: "ava: a duplicate check spelled with BigInt(1) removed beside 1n",
    changes: [
      change(
        "test/test.ts",
        `${header}test("is.truthy", t => {\n  t.true(is.truthy(1n));\n  t.true(is.truthy(BigInt(1)));\n});\n`,
        `${header}test("is.truthy", t => {\n  t.true(is.truthy(1n));\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "java: an expected value rewritten from hex to decimal",
    changes: [
      change(
        "src/test/java/FlagsTest.java",
        `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass FlagsTest {\n  @Test\n  void masks() {\n    assertEquals(0xFF, Flags.mask(8));\n  }\n}\n`,
        `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass FlagsTest {\n  @Test\n  void masks() {\n    assertEquals(255, Flags.mask(8));\n  }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "python: digit separators added to an expected value",
    changes: [change("tests/test_size.py", `def test_parse():\n    assert parse("1M") == 1000000\n`, `def test_parse():\n    assert parse("1M") == 1_000_000\n`)],
    findings: [],
  },
  {
    name: "cheat: the check of another value removed beside 1n",
    changes: [
      change(
        "test/test.ts",
        `${header}test("is.truthy", t => {\n  t.true(is.truthy(1n));\n  t.true(is.truthy(BigInt(2)));\n});\n`,
        `${header}test("is.truthy", t => {\n  t.true(is.truthy(1n));\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/test.ts "is.truthy"`],
  },
  {
    name: "cheat: an expected value changed while its spelling changed",
    changes: [change("tests/test_size.py", `def test_parse():\n    assert parse("1M") == 1000000\n`, `def test_parse():\n    assert parse("1M") == 1_000_001\n`)],
    findings: [`expectation_changed/medium tests/test_size.py "test_parse"`],
  },
];

describe("a number spelled another way in a test", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
