/**
 * assertion_removal, assertion_weakening and expectation_changed: a table of
 * changes that must flag and a table of look-alikes that must not, plus the
 * pairing of assertions in order and the matcher strength ranking.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts, type FileChange } from "../../../src/analysis/index.js";
import type { AssertionFact } from "../../../src/analysis/facts.js";
import { matcherStrength } from "../../../src/analysis/languages/javascript.js";
import { pairAssertions } from "../../../src/analysis/rules/assertions.js";
import { change, edit, expectFindings, type RuleCase } from "./table.js";

const TEST = "test/cart.test.ts";
const CART_TEST = `import { describe, expect, it } from "vitest";
import { total, parse } from "../src/cart";

describe("cart", () => {
  it("sums", () => {
    const items = [{ price: 2.5, qty: 2 }, { price: 1, qty: 3 }];
    expect(total(items)).toBe(8);
    expect(total([])).toEqual(0);
  });
  it("parses", async () => {
    await expect(parse("{")).rejects.toThrow(SyntaxError);
    expect(() => total(null)).toThrow("items required");
  });
});
`;
const SRC = `export function total(items) { return items.reduce((sum, i) => sum + i.price * i.qty, 0); }\n`;
const testOnly = (after: string): FileChange[] => [change(TEST, CART_TEST, after)];

const mustFlag: RuleCase[] = [
  { name: "toBe -> toBeDefined", changes: testOnly(edit(CART_TEST, "toBe(8)", "toBeDefined()")), findings: [`assertion_weakening/high ${TEST} "cart > sums"`] },
  { name: "toEqual -> toMatchObject", changes: testOnly(edit(CART_TEST, "toEqual(0)", "toMatchObject({})")), findings: [`assertion_weakening/high ${TEST} "cart > sums"`] },
  {
    name: "toBe(8) -> toBeGreaterThanOrEqual(0) (now also accepts the failure)",
    changes: testOnly(edit(CART_TEST, "toBe(8)", "toBeGreaterThanOrEqual(0)")),
    findings: [`assertion_weakening/high ${TEST} "cart > sums"`],
  },
  { name: 'toThrow("msg") -> toThrow()', changes: testOnly(edit(CART_TEST, 'toThrow("items required")', "toThrow()")), findings: [`assertion_weakening/high ${TEST} "cart > parses"`] },
  {
    name: ".rejects.toThrow(SyntaxError) -> .rejects.toThrow()",
    changes: testOnly(edit(CART_TEST, "toThrow(SyntaxError)", "toThrow()")),
    findings: [`assertion_weakening/high ${TEST} "cart > parses"`],
  },
  { name: "toBe(8) -> .not.toBe(0)", changes: testOnly(edit(CART_TEST, "toBe(8)", "not.toBe(0)")), findings: [`assertion_weakening/high ${TEST} "cart > sums"`] },
  { name: "toBe(8) -> toBeTruthy()", changes: testOnly(edit(CART_TEST, "toBe(8)", "toBeTruthy()")), findings: [`assertion_weakening/high ${TEST} "cart > sums"`] },
  {
    name: "a tautology added next to the real assertions",
    changes: testOnly(edit(CART_TEST, "expect(total([])).toEqual(0);", "expect(total([])).toEqual(0);\n    expect(true).toBe(true);")),
    findings: [`assertion_weakening/high ${TEST} "cart > sums"`],
  },
  {
    name: "an assertion replaced by expect(x).toBe(x)",
    changes: testOnly(edit(CART_TEST, "expect(total(items)).toBe(8);", "expect(items).toBe(items);")),
    findings: [`assertion_weakening/high ${TEST} "cart > sums"`],
  },
  {
    name: "an assertion replaced by expect(1).toEqual(1)",
    changes: testOnly(edit(CART_TEST, "expect(total([])).toEqual(0);", "expect(1).toEqual(1);")),
    findings: [`assertion_weakening/high ${TEST} "cart > sums"`],
  },
  {
    name: "field checks replaced by a weak check of the whole value",
    changes: [
      change(
        "test/issue.test.ts",
        `it("reports", () => {\n  const result = parse("x");\n  expect(result.issue.code).toBe("invalid");\n  expect(result.issue.path).toEqual([]);\n});\n`,
        `it("reports", () => {\n  const result = parse("x");\n  expect(result.issue).toBeDefined();\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/issue.test.ts "reports"`, `assertion_weakening/high test/issue.test.ts "reports"`],
  },
  {
    name: "supertest: a status expectation dropped",
    changes: [
      change(
        "test/res.test.js",
        `const request = require("supertest");\nit("redirects", () => request(app).get("/").expect("Location", "/home").expect(302));\n`,
        `const request = require("supertest");\nit("redirects", () => request(app).get("/").expect("Location", "/home"));\n`,
      ),
    ],
    findings: [`assertion_removal/high test/res.test.js "redirects"`],
  },
  { name: "an assertion removed", changes: testOnly(edit(CART_TEST, "    expect(total([])).toEqual(0);\n", "")), findings: [`assertion_removal/high ${TEST} "cart > sums"`] },
  {
    name: "a body commented out",
    changes: testOnly(edit(CART_TEST, "    expect(total(items)).toBe(8);\n    expect(total([])).toEqual(0);", "    // expect(total(items)).toBe(8);\n    // expect(total([])).toEqual(0);")),
    findings: [`assertion_removal/high ${TEST} "cart > sums"`],
  },
  {
    name: "an early return before the assertions",
    changes: testOnly(edit(CART_TEST, "    expect(total(items)).toBe(8);", "    return;\n    expect(total(items)).toBe(8);")),
    findings: [`assertion_removal/high ${TEST} "cart > sums"`],
  },
  { name: "the expected literal changed, code unchanged", changes: testOnly(edit(CART_TEST, "toBe(8)", "toBe(8.5)")), findings: [`expectation_changed/medium ${TEST} "cart > sums"`] },
  {
    name: "the expected literal changed while an unrelated source file changed",
    changes: [change(TEST, CART_TEST, edit(CART_TEST, "toBe(8)", "toBe(9)")), change("src/logger.ts", "export const level = 1;\n", "export const level = 2;\n")],
    findings: [`expectation_changed/medium ${TEST} "cart > sums"`],
  },
  { name: "a setup input changed, code unchanged", changes: testOnly(edit(CART_TEST, "price: 2.5, qty: 2", "price: 2.5, qty: 4")), findings: [`expectation_changed/medium ${TEST} "cart > sums"`] },
  {
    name: "node:assert strictEqual -> ok",
    changes: [
      change(
        "test/a.test.js",
        `const assert = require("node:assert");\nconst { add } = require("../src/add");\ntest("adds", () => { assert.strictEqual(add(1, 2), 3); });\n`,
        `const assert = require("node:assert");\nconst { add } = require("../src/add");\ntest("adds", () => { assert.ok(add(1, 2)); });\n`,
      ),
    ],
    findings: [`assertion_weakening/high test/a.test.js "adds"`],
  },
  {
    name: "chai expect(x).to.equal(3) -> expect(x).to.exist",
    changes: [
      change(
        "test/a.spec.js",
        `const { expect } = require("chai");\nit("adds", () => { expect(add(1, 2)).to.equal(3); });\n`,
        `const { expect } = require("chai");\nit("adds", () => { expect(add(1, 2)).to.exist; });\n`,
      ),
    ],
    findings: [`assertion_weakening/high test/a.spec.js "adds"`],
  },
  {
    name: "ava t.is -> t.pass() (t.pass checks nothing: the assertion is gone)",
    changes: [change("test/a.test.js", `import test from "ava";\ntest("adds", (t) => { t.is(add(1, 2), 3); });\n`, `import test from "ava";\ntest("adds", (t) => { t.pass(); });\n`)],
    findings: [`assertion_removal/high test/a.test.js "adds"`],
  },
];

const mustNotFlag: RuleCase[] = [
  { name: "toBeTruthy -> toBe(true) (strengthened)", changes: [change(TEST, edit(CART_TEST, "toBe(8)", "toBeTruthy()"), CART_TEST)], findings: [] },
  { name: ".not.toBe(0) -> toBe(8) (strengthened)", changes: [change(TEST, edit(CART_TEST, "toBe(8)", "not.toBe(0)"), CART_TEST)], findings: [] },
  { name: "toThrow() -> toThrow(SyntaxError)", changes: [change(TEST, edit(CART_TEST, "toThrow(SyntaxError)", "toThrow()"), CART_TEST)], findings: [] },
  { name: "toBe(0.3) -> toBeCloseTo(0.3)", changes: testOnly(edit(CART_TEST, "toBe(8)", "toBeCloseTo(8)")), findings: [] },
  {
    name: "a weak assertion added in the middle does not shift the pairing",
    changes: testOnly(edit(CART_TEST, "    expect(total(items)).toBe(8);", "    expect(items).toBeDefined();\n    expect(total(items)).toBe(8);")),
    findings: [],
  },
  { name: "a tautology removed", changes: [change(TEST, edit(CART_TEST, "toEqual(0);", "toEqual(0);\n    expect(true).toBe(true);"), CART_TEST)], findings: [] },
  {
    name: "assertions reordered",
    changes: testOnly(edit(CART_TEST, "    expect(total(items)).toBe(8);\n    expect(total([])).toEqual(0);", "    expect(total([])).toEqual(0);\n    expect(total(items)).toBe(8);")),
    findings: [],
  },
  {
    name: "the expected literal changed together with the imported code under test",
    changes: [change(TEST, CART_TEST, edit(CART_TEST, "toBe(8)", "toBe(8.5)")), change("src/cart.ts", SRC, SRC.replace("0);", "0) + 0.5;"))],
    findings: [],
  },
  {
    name: "the expected literal changed together with code reached through an index file (same stem)",
    changes: [
      change(TEST, edit(CART_TEST, "../src/cart", "../src"), edit(edit(CART_TEST, "../src/cart", "../src"), "toBe(8)", "toBe(8.5)")),
      change("src/cart.ts", SRC, SRC.replace("0);", "0) + 0.5;")),
    ],
    findings: [],
  },
  {
    name: "a return inside a nested helper is not an early return",
    changes: testOnly(edit(CART_TEST, "    expect(total(items)).toBe(8);", "    const first = () => { return items[0]; };\n    expect(first()).toBeDefined();\n    expect(total(items)).toBe(8);")),
    findings: [],
  },
  {
    name: "a returned promise at the end of the body",
    changes: testOnly(edit(CART_TEST, "    expect(total([])).toEqual(0);\n", "    expect(total([])).toEqual(0);\n    return Promise.resolve();\n")),
    findings: [],
  },
  {
    name: "the expected literal changed while code below an imported entry module changed",
    changes: [
      change(TEST, edit(CART_TEST, "../src/cart", "../src/index.js"), edit(edit(CART_TEST, "../src/cart", "../src/index.js"), "toBe(8)", "toBe(8.5)")),
      change("src/core/money.ts", "export const cents = 100;\n", "export const cents = 1000;\n"),
    ],
    findings: [],
  },
  {
    name: "the expected literal changed together with the package the test imports by name",
    changes: [
      change("packages/kit/tests/cart.test.ts", edit(CART_TEST, "../src/cart", "kit/cart"), edit(edit(CART_TEST, "../src/cart", "kit/cart"), "toBe(8)", "toBe(8.5)")),
      change("packages/kit/src/cart/total.ts", SRC, SRC.replace("0);", "0) + 0.5;")),
    ],
    findings: [],
  },
  {
    name: "the expected literal changed together with a dependency upgrade",
    changes: [change(TEST, CART_TEST, edit(CART_TEST, "toBe(8)", "toBe(8.5)")), change("package.json", '{"dependencies":{"money":"1.0.0"}}', '{"dependencies":{"money":"2.0.0"}}')],
    findings: [],
  },
  {
    name: "the expected literal changed together with the package required as a folder",
    changes: [
      change(
        "test/app.test.js",
        `const app = require("..");\nit("greets", () => { expect(app.greet()).toBe("hi"); });\n`,
        `const app = require("..");\nit("greets", () => { expect(app.greet()).toBe("hello"); });\n`,
      ),
      change("lib/greet.js", "exports.greet = () => 'hi';\n", "exports.greet = () => 'hello';\n"),
    ],
    findings: [],
  },
  {
    name: "supertest expectations changed together with the response code",
    changes: [
      change(
        "test/res.test.js",
        `const request = require("supertest");\nconst app = require("../lib/app");\nit("redirects", () => request(app).get("/").expect("Location", "/home").expect(302));\n`,
        `const request = require("supertest");\nconst app = require("../lib/app");\nit("redirects", () => request(app).get("/").expect("Location", "/start").expect(302));\n`,
      ),
      change("lib/app.js", "module.exports = (req, res) => res.redirect('/home');\n", "module.exports = (req, res) => res.redirect('/start');\n"),
    ],
    findings: [],
  },
  {
    name: "a value check replaced by a check that it now throws (behaviour changed, not weakened)",
    changes: testOnly(edit(CART_TEST, "expect(total(items)).toBe(8);", 'expect(() => total(items)).toThrow("empty cart");')),
    findings: [],
  },
  {
    name: "a module path in a dynamic import is not an input",
    changes: [change(TEST, CART_TEST, edit(CART_TEST, "    const items =", '    const { total: t } = await import("../src/cart.js");\n    const items ='))],
    findings: [],
  },
  {
    name: "field checks replaced by one check of the whole value",
    changes: [
      change(
        "test/issue.test.ts",
        `it("reports", () => {\n  const result = parse("x");\n  expect(result.ok).toBe(false);\n  expect(result.issue.code).toBe("invalid");\n  expect(result.issue.path).toEqual([]);\n});\n`,
        `it("reports", () => {\n  const result = parse("x");\n  expect(result.ok).toBe(false);\n  expect(result.issue).toMatchInlineSnapshot(\`{ code: "invalid", path: [], matches: [0, 1] }\`);\n});\n`,
      ),
    ],
    findings: [],
  },
  { name: "a test renamed without edits", changes: testOnly(edit(CART_TEST, 'it("sums"', 'it("sums prices"')), findings: [] },
  // A relation moved into the assertion API, operands in the framework's order (apache/commons-text 8479d98d97, 9988a06737).
  ...(
    [
      [
        "JUnit assertFalse(a.equals(b)) -> assertNotEquals(a, b)",
        "src/test/java/RTest.java",
        "class RTest {\n  @Test void differs() { Results r = new Results(1); Results o = new Results(2); CHECK; }\n}\n",
        "assertFalse(r.equals(o))",
        "assertNotEquals(r, o)",
      ],
      [
        "JUnit assertTrue(x.equals(x)) -> assertEquals(x, x)",
        "src/test/java/RTest.java",
        "class RTest {\n  @Test void reflexive() { Results r = new Results(1); CHECK; }\n}\n",
        "assertTrue(r.equals(r))",
        "assertEquals(r, r)",
      ],
      [
        "unittest assertFalse(a == b) -> assertNotEqual(b, a)",
        "tests/test_r.py",
        "import unittest\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.r = R(1)\n        self.o = R(2)\n\n    def test_differs(self):\n        CHECK\n",
        "self.assertFalse(self.r == self.o)",
        "self.assertNotEqual(self.o, self.r)",
      ],
      [
        "xUnit Assert.False(a.Equals(b)) -> Assert.NotEqual(b, a)",
        "Tests/RTests.cs",
        "public class RTests {\n  [Fact] public void Differs() { var r = new R(1); var o = new R(2); CHECK; }\n}\n",
        "Assert.False(r.Equals(o))",
        "Assert.NotEqual(o, r)",
      ],
      [
        "PHPUnit assertFalse($a->equals($b)) -> assertNotEquals($b, $a)",
        "tests/RTest.php",
        "<?php\nclass RTest extends TestCase {\n  public function testDiffers() { $r = new R(1); $o = new R(2); CHECK; }\n}\n",
        "$this->assertFalse($r->equals($o))",
        "$this->assertNotEquals($o, $r)",
      ],
      [
        "Rust assert!(!a.eq(&b)) -> assert_ne!(a, b)",
        "tests/r.rs",
        "#[test]\nfn differs() {\n    let r = R::new(1);\n    let o = R::new(2);\n    CHECK;\n}\n",
        "assert!(!r.eq(&o))",
        "assert_ne!(r, o)",
      ],
      [
        "minitest refute a == b -> refute_equal b, a",
        "test/r_test.rb",
        "class RTest < Minitest::Test\n  def test_differs\n    r = R.new(1)\n    o = R.new(2)\n    CHECK\n  end\nend\n",
        "refute r == o",
        "refute_equal o, r",
      ],
      [
        "testify assert.False(a == b) -> assert.NotEqual(b, a)",
        "r_test.go",
        'package r\nimport "testing"\nfunc TestDiffers(t *testing.T) {\n\tr := New(1)\n\to := New(2)\n\tCHECK\n}\n',
        "assert.False(t, r == o)",
        "assert.NotEqual(t, o, r)",
      ],
    ] as const
  ).map(([name, path, template, was, now]): RuleCase => ({ name, changes: [change(path, template.replace("CHECK", was), template.replace("CHECK", now))], findings: [] })),
];

describe("assertion rules", () => {
  it.each(mustFlag.map((c) => [c.name, c] as const))("flags: %s", async (_, c) => {
    await expectFindings(c);
  });

  it.each(mustNotFlag.map((c) => [c.name, c] as const))("does not flag: %s", async (_, c) => {
    await expectFindings(c);
  });

  it("says when assertions were commented out or sit behind an early return", async () => {
    const commented = await expectFindings(mustFlag.find((c) => c.name === "a body commented out") as RuleCase);
    expect(commented[0]?.evidence).toMatchObject({ commented_out: 2 });
    const early = await expectFindings(mustFlag.find((c) => c.name === "an early return before the assertions") as RuleCase);
    expect(early[0]?.evidence).toMatchObject({ early_return: true });
  });
});

describe("assertion details of JS/TS tests", () => {
  it("fill matcher, strength, actual and expected for every counted assertion", async () => {
    const facts = await extractFacts(TEST, CART_TEST);
    const [sums, parses] = facts.tests;
    expect(sums?.assertionsDetail).toEqual([
      { line: 7, matcher: "toBe", strength: 3, tautology: false, actual: "total(items)", expected: "8" },
      { line: 8, matcher: "toEqual", strength: 3, tautology: false, actual: "total([])", expected: "0" },
    ]);
    expect(parses?.assertionsDetail?.map((fact) => [fact.matcher, fact.strength, fact.expected])).toEqual([
      ["rejects.toThrow", 2, "SyntaxError"],
      ["toThrow", 2, '"items required"'],
    ]);
    expect(sums?.inputLiterals).toEqual(["2.5", "2", "1", "3"]);
    expect(sums?.references).toEqual(["total"]);
  });

  // p-retry 81608ce107 (sweep): `t.is(delays[0], 100)` read its index `0` as an input, so three element checks folded into
  // `t.deepEqual(delays, [100, 200, 400])` reported "inputs changed (0, 1, 2 no longer used)".
  it("reads an element or field index as no input the test feeds", async () => {
    const facts = await extractFacts(
      "test/delays.test.js",
      "import test from 'ava';\nimport {run} from './index.js';\n\ntest('delays', async t => {\n\tconst delays = await run(3);\n\tt.is(delays[0], 100);\n\tt.is(delays?.[1], 200);\n\tt.is(delays['last'], 400);\n});\n",
    );
    expect(facts.tests[0]?.inputLiterals).toEqual(["3"]);
    const folded = await analyzeChanges([
      {
        path: "test/delays.test.js",
        before:
          "import test from 'ava';\nimport {run} from './index.js';\n\ntest('delays', async t => {\n\tconst delays = await run(3);\n\tt.is(delays[0], 100);\n\tt.is(delays[1], 200);\n\tt.is(delays[2], 400);\n});\n",
        after: "import test from 'ava';\nimport {run} from './index.js';\n\ntest('delays', async t => {\n\tconst delays = await run(3);\n\tt.deepEqual(delays, [100, 200, 400]);\n});\n",
      },
    ]);
    expect(folded.findings).toEqual([]);
  });

  it.each([
    ["toBe", 1, false, 3],
    ["toStrictEqual", 1, false, 3],
    ["toMatchObject", 1, false, 2],
    ["toContain", 1, false, 2],
    ["toBeTruthy", 0, false, 1],
    ["toBeDefined", 0, false, 1],
    ["toThrow", 0, false, 1],
    ["toThrow", 1, false, 2],
    ["toHaveProperty", 1, false, 1],
    ["toHaveProperty", 2, false, 2],
    ["toBe", 1, true, 1],
    ["someCustomMatcher", 1, false, 2],
  ] as const)("matcherStrength(%s, %d args, negated %s) = %d", (matcher, args, isNegated, strength) => {
    expect(matcherStrength(matcher, args, isNegated)).toBe(strength);
  });
});

describe("pairing assertions in order", () => {
  const fact = (matcher: string, actual: string, expected?: string): AssertionFact => ({
    line: 1,
    matcher,
    strength: 3,
    tautology: false,
    actual,
    ...(expected === undefined ? {} : { expected }),
  });

  it("keeps identical assertions paired when one is added in the middle", () => {
    const before = [fact("toBe", "a", "1"), fact("toBe", "b", "2")];
    const after = [fact("toBe", "a", "1"), fact("toBeDefined", "c"), fact("toBe", "b", "2")];
    expect(pairAssertions(before, after)).toEqual({
      pairs: [
        [0, 0],
        [1, 2],
      ],
      removed: [],
      added: [1],
    });
  });

  it("pairs an edited assertion with its old self by the value under test", () => {
    const before = [fact("toBe", "a", "1"), fact("toBe", "b", "2")];
    const after = [fact("toBe", "b", "3")];
    expect(pairAssertions(before, after)).toEqual({ pairs: [[1, 0]], removed: [0], added: [] });
  });

  it("pairs what is left positionally", () => {
    const before = [fact("toBe", "a", "1")];
    const after = [fact("toBe", "true", "true")];
    expect(pairAssertions(before, after)).toEqual({ pairs: [[0, 0]], removed: [], added: [] });
  });
});

describe("FluentAssertions checks normalise by their matcher (`Should().Be` is equal, not truthy)", () => {
  const HEAD =
    "using System;\nusing System.Threading.Tasks;\nusing FluentAssertions;\nusing Xunit;\n\npublic class CancellationSpecs\n{\n    [Fact]\n    public async Task I_can_cancel_it()\n    {\n        var task = Cmd.ExecuteAsync(cts.Token);\n";
  const XUNIT = `${HEAD}        var ex = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => task);\n        ex.CancellationToken.Should().Be(cts.Token);\n    }\n}\n`;
  const FLUENT = `${HEAD}        var act = async () => await task;\n        (await act.Should().ThrowAsync<OperationCanceledException>())\n            .Which.CancellationToken.Should()\n            .Be(cts.Token);\n    }\n}\n`;

  it("xUnit ThrowsAnyAsync + a check of the exception -> FluentAssertions ThrowAsync().Which (sweep of Tyrrrz/CliWrap d671b081d): no finding", async () => {
    await expectFindings({ name: "fluent", changes: [change("Tests/CancellationSpecs.cs", XUNIT, FLUENT)], findings: [] });
  });

  it("the exception's check dropped on the way is still an assertion_removal", async () => {
    const dropped = `${HEAD}        var act = async () => await task;\n        await act.Should().ThrowAsync<OperationCanceledException>();\n    }\n}\n`;
    await expectFindings({
      name: "dropped",
      changes: [change("Tests/CancellationSpecs.cs", XUNIT, dropped)],
      findings: ['assertion_removal/high Tests/CancellationSpecs.cs "CancellationSpecs > I_can_cancel_it"'],
    });
  });

  it("Should().Be(5) -> Should().BeGreaterThan(0) is a weakening", async () => {
    const test = (line: string): string => `${HEAD}        Calc.Add(2, 3).${line};\n    }\n}\n`;
    await expectFindings({
      name: "weaker",
      changes: [change("Tests/CancellationSpecs.cs", test("Should().Be(5)"), test("Should().BeGreaterThan(0)"))],
      findings: ['assertion_weakening/high Tests/CancellationSpecs.cs "CancellationSpecs > I_can_cancel_it"'],
    });
  });
});

describe("ava t.plan(n): a count of the assertions that must run, not a tautology", () => {
  const AVA = (body: string): string => `import test from "ava";\nimport { lines } from "../src/lines.js";\n\ntest("prints one line at a time", async (t) => {\n${body}});\n`;
  const LOOP = '\tfor await (const line of lines("a\\nb")) {\n\t\tt.is(line, "a");\n\t\tbreak;\n\t}\n';

  it("t.plan(1) added before a conditional assertion (sweep of sindresorhus/execa 04b4454631): no finding", async () => {
    await expectFindings({ name: "plan", changes: [change("test/lines.js", AVA(LOOP), AVA(`\tt.plan(1);\n${LOOP}`))], findings: [] });
  });

  it("the assertion replaced by t.plan(1) and t.pass() still checks less", async () => {
    await expectFindings({
      name: "plan instead",
      changes: [change("test/lines.js", AVA(LOOP), AVA('\tt.plan(1);\n\tfor await (const line of lines("a\\nb")) {\n\t\tt.pass();\n\t\tbreak;\n\t}\n'))],
      findings: ['assertion_weakening/high test/lines.js "prints one line at a time"'],
    });
  });
});

describe("a duplicated check: one copy removed while the other is kept or re-expected", () => {
  const AVA = (body: string): string => `import test from "ava";\nimport camelCase from "./index.js";\n\ntest("camelCase with pascalCase option", (t) => {\n${body}});\n`;
  const TWICE =
    "\tt.is(camelCase('foo-bar', {pascalCase: true}), 'FooBar');\n\tt.is(camelCase('__foo__bar__', {pascalCase: true}), 'FooBar');\n\tt.is(camelCase('__foo__bar__', {pascalCase: true}), 'FooBar');\n";

  it("the copy dropped as the kept one follows the product (sweep of sindresorhus/camelcase 79b9a644a7) loses no check", async () => {
    const after = "\tt.is(camelCase('foo-bar', {pascalCase: true}), 'FooBar');\n\tt.is(camelCase('__foo__bar__', {pascalCase: true}), '__FooBar');\n";
    const findings = await expectFindings({
      name: "dup",
      changes: [change("test.js", AVA(TWICE), AVA(after)), change("index.js", "export default (s) => s;\n", "export default (s) => s.trim();\n")],
      findings: [],
    });
    expect(findings).toEqual([]);
  });

  it("a duplicate dropped alone loses no check", async () => {
    const after = "\tt.is(camelCase('foo-bar', {pascalCase: true}), 'FooBar');\n\tt.is(camelCase('__foo__bar__', {pascalCase: true}), 'FooBar');\n";
    await expectFindings({ name: "dup alone", changes: [change("test.js", AVA(TWICE), AVA(after))], findings: [] });
  });

  it("both copies dropped is still an assertion_removal", async () => {
    const after = "\tt.is(camelCase('foo-bar', {pascalCase: true}), 'FooBar');\n";
    await expectFindings({ name: "both", changes: [change("test.js", AVA(TWICE), AVA(after))], findings: ['assertion_removal/high test.js "camelCase with pascalCase option"'] });
  });
});
