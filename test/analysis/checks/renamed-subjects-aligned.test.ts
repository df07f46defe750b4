/**
 * Several subjects of one test renamed at once keep their checks: a
 * refactor that moves counters into objects (`cached.lock_count` ->
 * `cached.lock.count`, `cached.wait_count` -> `cached.cond.wait_count`;
 * tkem/cachetools 86352aed2b) keeps every expected value in order, and
 * one renamed subject now reads as a length (`.count`), so the relation
 * alone would align the checks off by one. Assertions pair by their
 * expected values before their relation (rules/assertions.ts LEVELS). A
 * check really dropped in such a rename is still removed.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const py = (lines: string[]): string =>
  `import unittest\n\nclass CachedTest(unittest.TestCase):\n    def test_condition(self):\n        cached = Conditioned({})\n${lines.map((line) => `        ${line}\n`).join("")}`;
const before = [0, 1, 1].flatMap((key, i) => [
  `self.assertEqual(cached.get(${key}), ${i === 2 ? 2 : i + 1})`,
  `self.assertEqual(cached.lock_count, ${3 * (i + 1)})`,
  `self.assertEqual(cached.wait_count, ${i + 1})`,
  `self.assertEqual(cached.notify_count, ${i === 2 ? 2 : i + 1})`,
]);
const renamed = before.map((line) =>
  line.replace("cached.lock_count", "cached.lock.count").replace("cached.wait_count", "cached.cond.wait_count").replace("cached.notify_count", "cached.cond.notify_count"),
);

const js = (lines: string[]): string => `import {test, expect} from "vitest";\ntest("condition", () => {\n  const cached = conditioned({});\n${lines.map((line) => `  ${line}\n`).join("")}});\n`;
const jsBefore = [0, 1, 1].flatMap((key, i) => [
  `expect(cached.get(${key})).toBe(${i === 2 ? 2 : i + 1});`,
  `expect(cached.lockCount).toBe(${3 * (i + 1)});`,
  `expect(cached.waitCount).toBe(${i + 1});`,
]);
const jsRenamed = jsBefore.map((line) => line.replace("cached.lockCount", "cached.lock.count").replace("cached.waitCount", "cached.cond.waits"));

const cases: RuleCase[] = [
  { name: "python: three counters moved into objects at once", changes: [change("tests/test_cached.py", py(before), py(renamed))], findings: [] },
  { name: "js: two counters moved into objects at once", changes: [change("test/cached.test.js", js(jsBefore), js(jsRenamed))], findings: [] },
  {
    name: "cheat: python: renamed at once, one check dropped",
    changes: [change("tests/test_cached.py", py(before), py(renamed.filter((line) => line !== "self.assertEqual(cached.cond.wait_count, 2)")))],
    findings: [`assertion_removal/high tests/test_cached.py "CachedTest > test_condition"`],
  },
  {
    name: "cheat: js: renamed at once, one check dropped",
    changes: [change("test/cached.test.js", js(jsBefore), js(jsRenamed.filter((line) => line !== "expect(cached.lock.count).toBe(6);")))],
    findings: [`assertion_removal/high test/cached.test.js "condition"`],
  },
];

describe("several subjects of one test renamed at once", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
