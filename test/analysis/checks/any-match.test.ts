/**
 * A test for whether any element matches is one check however it is
 * written (checks/normalise.ts anyMatchForms): `xs.filter(f).length > 0`
 * is `xs.some(f)` (chalk/wrap-ansi 0ff29cca85: a lint rule rewrote one as
 * the other, read as a weakening before), and so are `findIndex(f) !== -1`
 * and `find(f) !== undefined`; `length === 0` is its negation. A count
 * compared with another number stays a count. Left: the `0` of `> 0` still
 * reads as an input the test stopped using, a medium notice.
 */
import { describe, expect, it } from "vitest";
import { toCheck, type Check } from "../../../src/analysis/checks/index.js";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const shape = (check: Check): string =>
  `${check.isNegated ? "not " : ""}${check.relation}(${[check.subject, check.expected].filter((part) => part !== undefined && part !== "").join(", ")})/${check.strength}`;
const ava = (body: string): string => `import test from "ava";\nimport wrap from "../index.js";\n\ntest("wraps", t => {\n  const lines = wrap("abc", 2).split("\\n");\n${body}\n});\n`;
async function checksIn(source: string): Promise<string[]> {
  const facts = await extractFacts("test/wrap.js", source);
  return (facts.tests[0]?.assertionsDetail ?? []).map(toCheck).map(shape);
}

describe("any-match forms", () => {
  it.each([
    ["filter(f).length > 0", "  t.true(lines.filter(line => line.length > 5).length > 0);", ["truthy(lines.some(line=>line.length>5))/1"]],
    ["some(f)", "  t.true(lines.some(line => line.length > 5));", ["truthy(lines.some(line=>line.length>5))/1"]],
    ["findIndex(f) !== -1", "  t.true(lines.findIndex(line => line.length > 5) !== -1);", ["truthy(lines.some(line=>line.length>5))/1"]],
    ["find(f) !== undefined", "  t.true(lines.find(line => line.length > 5) !== undefined);", ["truthy(lines.some(line=>line.length>5))/1"]],
    ["filter(f).length === 0 is the negation", "  t.true(lines.filter(line => line.length > 5).length === 0);", ["truthy(!lines.some(line=>line.length>5))/1"]],
    ["a count compared with 2 stays a count", "  t.true(lines.filter(line => line.length > 5).length === 2);", ["length(lines.filter(line=>line.length>5), 2)/3"]],
  ])("%s", async (_name, body, expected) => expect(await checksIn(ava(body))).toEqual(expected));

  const cases: RuleCase[] = [
    // The same check; the literal 0 the comparison held is still read as an input the test stopped using (a notice).
    {
      name: "filter(f).length > 0 -> some(f) (wrap-ansi 0ff29cca85)",
      changes: [change("test/wrap.js", ava("  t.true(lines.filter(line => line.length > 5).length > 0);"), ava("  t.true(lines.some(line => line.length > 5));"))],
      findings: ['expectation_changed/medium test/wrap.js "wraps"'],
    },
    {
      name: "cheat: a count of 2 -> some(f)",
      changes: [change("test/wrap.js", ava("  t.true(lines.filter(line => line.length > 5).length === 2);"), ava("  t.true(lines.some(line => line.length > 5));"))],
      findings: ['assertion_weakening/high test/wrap.js "wraps"'],
    },
  ];
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});
