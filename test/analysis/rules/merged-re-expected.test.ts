/**
 * A test merged into a table test with its expected value changed
 * (rules/features.ts reExpectedDeletions, checks/index.ts
 * findReExpectedCover): when the code under test changed too, the
 * expectation followed it, as an edited test's may, and the deleted test is
 * an expectation_changed at medium; a row must keep every input the old test
 * fed the code, in values other than the expected one. With the code under
 * test unchanged, or with an input changed in the row, it stays a critical
 * test_deletion.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const PY_BEFORE = "def clamp(level, low, high):\n    return max(low, min(high, level))\n";
const PY_AFTER = "def clamp(level, low, high):\n    if level > high:\n        return high - 1\n    return max(low, level)\n";
const PY_TEST_BEFORE = "from pkg.levels import clamp\n\n\ndef test_inside():\n    assert clamp(3, 1, 6) == 3\n\n\ndef test_clamped_high():\n    result = clamp(9, 2, 4)\n    assert result == 4\n";
const pyTestAfter = (row: string): string =>
  `import pytest\n\nfrom pkg.levels import clamp\n\n\n@pytest.mark.parametrize(\n    "level, low, high, expected",\n    [\n        (3, 1, 6, 3),\n        ${row},\n    ],\n)\ndef test_clamp(level, low, high, expected):\n    assert clamp(level, low, high) == expected\n`;

const JS_BEFORE = "export const clamp = (level, low, high) => Math.max(low, Math.min(high, level));\n";
const JS_AFTER = "export const clamp = (level, low, high) => (level > high ? high - 1 : Math.max(low, level));\n";
const JS_TEST_BEFORE =
  "import {clamp} from '../src/levels.js';\n\ntest('inside', () => {\n\texpect(clamp(3, 1, 6)).toBe(3);\n});\n\ntest('clamped high', () => {\n\texpect(clamp(9, 2, 4)).toBe(4);\n});\n";
const jsTestAfter = (row: string): string =>
  `import {clamp} from '../src/levels.js';\n\ntest.each([\n\t[3, 1, 6, 3],\n\t${row},\n])('clamp(%d, %d, %d) = %d', (level, low, high, expected) => {\n\texpect(clamp(level, low, high)).toBe(expected);\n});\n`;

const lookAlikes: RuleCase[] = [
  {
    name: "python: merged into parametrize, the row keeps the inputs and expects what the changed code returns",
    changes: [change("pkg/levels.py", PY_BEFORE, PY_AFTER), change("tests/test_levels.py", PY_TEST_BEFORE, pyTestAfter("(9, 2, 4, 3)"))],
    findings: [`expectation_changed/medium tests/test_levels.py "test_clamped_high"`],
  },
  {
    name: "js: merged into test.each, the row keeps the inputs and expects what the changed code returns",
    changes: [change("src/levels.js", JS_BEFORE, JS_AFTER), change("test/levels.test.js", JS_TEST_BEFORE, jsTestAfter("[9, 2, 4, 3]"))],
    findings: [`expectation_changed/medium test/levels.test.js "clamped high"`],
  },
];

const cheats: RuleCase[] = [
  {
    name: "python: the same merge while the code under test is unchanged",
    changes: [change("tests/test_levels.py", PY_TEST_BEFORE, pyTestAfter("(9, 2, 4, 3)"))],
    findings: [`test_deletion/critical tests/test_levels.py "test_clamped_high"`],
  },
  {
    name: "python: the code changed, but the row feeds another bound (high 5, not 4)",
    changes: [change("pkg/levels.py", PY_BEFORE, PY_AFTER), change("tests/test_levels.py", PY_TEST_BEFORE, pyTestAfter("(9, 2, 5, 4)"))],
    findings: [`test_deletion/critical tests/test_levels.py "test_clamped_high"`],
  },
  {
    name: "js: the same merge while the code under test is unchanged",
    changes: [change("test/levels.test.js", JS_TEST_BEFORE, jsTestAfter("[9, 2, 4, 3]"))],
    findings: [`test_deletion/critical test/levels.test.js "clamped high"`],
  },
  {
    name: "js: the code changed, but the new expected value stands where an input was (the level 9 dropped)",
    changes: [change("src/levels.js", JS_BEFORE, JS_AFTER), change("test/levels.test.js", JS_TEST_BEFORE, jsTestAfter("[4, 2, 4, 9]"))],
    findings: [`test_deletion/critical test/levels.test.js "clamped high"`],
  },
];

describe("merged with the expectation changed while the code under test changed: expectation_changed at medium", () => {
  for (const rule of lookAlikes) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("merged with the expectation changed otherwise: still a deletion", () => {
  for (const rule of cheats) it(rule.name, async () => void (await expectFindings(rule)));
});
