/**
 * Assertion counting per test: each row is a test body (with an optional
 * prelude of imports) and the number of assertions ralph must see in it.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../src/analysis/index.js";

interface AssertionCase {
  name: string;
  body: string;
  count: number;
  prelude?: string;
  /** The test callback's parameter list, e.g. "t" or "{ page }". */
  params?: string;
}

const cases: AssertionCase[] = [
  { name: "expect matcher", body: `expect(a).toBe(1);`, count: 1 },
  { name: "not, resolves, rejects", body: `expect(a).not.toBe(1); await expect(p).resolves.toEqual(2); await expect(q).rejects.toThrow();`, count: 3 },
  { name: "Playwright await expect", body: `await expect(page).toHaveTitle(/x/); await expect(page.locator("a")).toBeVisible();`, count: 2, params: "{ page }" },
  { name: "expect.soft and expect.poll", body: `expect.soft(a).toBe(1); await expect.poll(() => a).toBe(1);`, count: 2 },
  { name: "expect.assertions and hasAssertions", body: `expect.assertions(2); expect.hasAssertions();`, count: 2 },
  { name: "asymmetric matchers are part of one assertion", body: `expect(x).toEqual({ id: expect.any(Number), name: expect.stringContaining("a") });`, count: 1 },
  { name: "expect inside a throw check counts both", body: `expect(() => { expect(a).toBe(1); }).toThrow();`, count: 2 },
  { name: "expectTypeOf", body: `expectTypeOf(x).toEqualTypeOf<string>();`, count: 1 },
  { name: "node assert: call and methods", body: `assert(x); assert.equal(a, b); assert.strict.deepEqual(a, b); assert.throws(() => f());`, count: 4 },
  { name: "named assert imports", body: `equal(a, 1); deepStrictEqual(b, 2);`, count: 2, prelude: `import { equal, deepStrictEqual } from "node:assert/strict";` },
  { name: "renamed expect import", body: `check(a).toBe(1);`, count: 1, prelude: `import { expect as check } from "vitest";` },
  { name: "required assert", body: `ok(a); strict.equal(a, 1);`, count: 2, prelude: `const { ok } = require("assert");\nconst strict = require("node:assert/strict");` },
  { name: "chai expect and assert", body: `expect(x).to.equal(1); expect(y).to.be.true; assert.isTrue(z);`, count: 3, prelude: `import { expect, assert } from "chai";` },
  { name: "chai should", body: `x.should.equal(1); y.should.be.true; should.exist(z); should.not.exist(w);`, count: 4 },
  { name: "ava/tap/node:test context methods", body: `t.is(a, 1); t.deepEqual(b, 2); t.true(c); t.assert.equal(d, 4); t.plan(4);`, count: 5, params: "t" },
  { name: "context methods that are not assertions", body: `t.log("x"); t.teardown(() => {}); t.pass();`, count: 0, params: "t" },
  { name: "sinon.assert", body: `sinon.assert.calledOnce(spy); sinon.assert.calledWith(spy, 1);`, count: 2 },
  { name: "Cypress should and and", body: `cy.get("a").should("be.visible").and("contain", "x"); cy.url().should("include", "/home");`, count: 3 },
  { name: "assertion helpers by name", body: `expectValid(x); assertType<string>(y); assertNever(z);`, count: 3 },
  { name: "calls that do not assert", body: `const e = expect(x); console.log(e); /x/.test(s); list.and(1); expected(1); asserted(2);`, count: 0 },
];

describe("counting assertions in a test", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const source = `${c.prelude ?? ""}\nit("t", async (${c.params ?? ""}) => {\n${c.body}\n});\n`;
    const facts = await extractFacts("test/count.test.ts", source);
    expect(facts.parseError).toBeUndefined();
    expect(facts.tests).toHaveLength(1);
    expect(facts.tests[0]?.assertionCount).toBe(c.count);
  });

  it("attributes assertions to the innermost test and counts hooks and helpers only in the file total", async () => {
    const source = [
      `import test from "node:test";`,
      `function check(x) { assert.ok(x); }`,
      `beforeEach(() => { expect(db).toBeDefined(); });`,
      `test("parent", async (t) => {`,
      `  t.assert.ok(1);`,
      `  await t.test("child", (c) => { c.assert.equal(1, 1); c.assert.equal(2, 2); });`,
      `});`,
    ].join("\n");
    const facts = await extractFacts("test/nested.test.mjs", source);
    expect(facts.tests.map((test) => [test.id, test.assertionCount])).toEqual([
      ["parent", 1],
      ["parent > child", 2],
    ]);
    expect(facts.assertions).toBe(5);
  });
});
