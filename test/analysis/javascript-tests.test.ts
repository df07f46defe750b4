/**
 * Extraction of JS/TS test cases: one table per concern, inline sources.
 * Each test case is summarised as `id [flags]`, so a row reads like the
 * runner's own listing.
 */
import { describe, expect, it } from "vitest";
import { extractFacts, type FileFacts, type TestCase } from "../../src/analysis/index.js";

/** `suite > title [skipped,focused]` for a test case. */
function summarize(test: TestCase): string {
  const flags = (["skipped", "conditional", "focused", "todo", "failing"] as const).filter((flag) => test.flags[flag]);
  return flags.length > 0 ? `${test.id} [${flags.join(",")}]` : test.id;
}

async function listTests(source: string, path = "test/sample.test.ts"): Promise<string[]> {
  const facts = await extractFacts(path, source);
  expect(facts.parseError).toBeUndefined();
  return facts.tests.map(summarize);
}

interface ExtractionCase {
  name: string;
  source: string;
  tests: string[];
  path?: string;
}

const jestAndVitest: ExtractionCase[] = [
  {
    name: "nested describe/it/test keep their suite path",
    source: `describe("parser", () => { it("a", () => {}); describe("errors", () => { test("b", () => {}); }); });`,
    tests: ["parser > a", "parser > errors > b"],
  },
  {
    name: ".skip, xit, xtest, xdescribe skip",
    source: `it.skip("a", () => {}); test.skip("b", () => {}); xit("c", () => {}); xtest("d", () => {}); xdescribe("s", () => { it("e", () => {}); });`,
    tests: ["a [skipped]", "b [skipped]", "c [skipped]", "d [skipped]", "s > e [skipped]"],
  },
  {
    name: ".only, fit, fdescribe, describe.only focus",
    source: `it.only("a", () => {}); fit("b", () => {}); fdescribe("s", () => { it("c", () => {}); }); describe.only("t", () => { it("d", () => {}); });`,
    tests: ["a [focused]", "b [focused]", "s > c [focused]", "t > d [focused]"],
  },
  {
    name: ".todo without a body",
    source: `it.todo("later"); test.todo("also later");`,
    tests: ["later [todo]", "also later [todo]"],
  },
  {
    name: ".fails and .failing expect failure",
    source: `test.fails("a", () => {}); it.failing("b", () => {});`,
    tests: ["a [failing]", "b [failing]"],
  },
  {
    name: "skipIf and runIf skip conditionally",
    source: `test.skipIf(process.env.CI)("a", () => {}); test.runIf(isLinux)("b", () => {}); describe.skipIf(x)("s", () => { it("c", () => {}); });`,
    tests: ["a [conditional]", "b [conditional]", "s > c [conditional]"],
  },
  {
    name: "each forms are one test case with the title template",
    source: [
      `test.each([[1, 2], [3, 4]])("adds %i", (a, b) => {});`,
      'it.each`a | b\n${1} | ${2}`("table $a", ({ a, b }) => {});',
      `describe.each([1, 2])("suite %s", (n) => { it("works", () => {}); });`,
      `test.concurrent.skip.each([1])("c %s", () => {});`,
      `it.only.each([1])("o %s", () => {});`,
      `test.for([1, 2, 3])("for %i", () => {});`,
    ].join("\n"),
    tests: ["adds %i", "table $a", "suite %s > works", "c %s [skipped]", "o %s [focused]", "for %i"],
  },
  {
    name: "a conditional test function: both branches declare, a skip in one branch is conditional",
    source: [
      `(expect.addEqualityTesters ? describe : describe.skip)("with testers", () => { test("passes", () => {}); });`,
      `(process.env.CI ? it.skip : it)("slow", () => {});`,
      `(a ? test : test)("plain", () => {});`,
      `(a ? describe : it)("mixed kinds", () => {});`,
      `(a ? foo : describe)("not a test", () => {});`,
    ].join("\n"),
    tests: ["with testers > passes [conditional]", "slow [conditional]", "plain"],
  },
  {
    name: "neutral modifiers do not flag",
    source: `test.concurrent("a", async () => {}); describe.sequential("s", () => { it.concurrent("b", () => {}); }); describe.shuffle("t", () => { it("c", () => {}); });`,
    tests: ["a", "s > b", "t > c"],
  },
  {
    name: "Vitest options and context skip",
    source: [
      `test("a", { skip: true }, () => {});`,
      `test("b", { skip: false, timeout: 10 }, () => {});`,
      `test("c", (ctx) => { ctx.skip(); });`,
      `test("d", ({ skip }) => { skip(); });`,
      `test("e", { only: true }, () => {});`,
      `test("f", () => {}, 1000);`,
    ].join("\n"),
    tests: ["a [skipped]", "b", "c [skipped]", "d [skipped]", "e [focused]", "f"],
  },
  {
    name: "titles: templates, concatenation, expressions",
    source: [
      "it(`plain template`, () => {});",
      "it(`adds ${a} and ${b}`, () => {});",
      `it("con" + 'cat', () => {});`,
      `describe(Parser.name, () => { it(TITLE, () => {}); });`,
      `describe(MyClass, () => { it(util.format("x %s", 1), () => {}); });`,
    ].join("\n"),
    tests: ["plain template", "adds ${a} and ${b}", "concat", "Parser.name > TITLE", 'MyClass > util.format("x %s", 1)'],
  },
  {
    name: "tests inside loops and conditionals are found once",
    source: `describe("s", () => { for (const c of cases) { it(\`handles \${c}\`, () => {}); } if (x) { test("cond", () => {}); } });`,
    tests: ["s > handles ${c}", "s > cond"],
  },
  {
    name: "in-source Vitest tests",
    path: "src/math.ts",
    source: `export const add = (a: number, b: number) => a + b;\nif (import.meta.vitest) { const { it, expect } = import.meta.vitest; it("adds", () => { expect(add(1, 2)).toBe(3); }); }`,
    tests: ["adds"],
  },
];

const mochaAndJasmine: ExtractionCase[] = [
  {
    name: "context, specify, TDD suite/test",
    source: `describe("a", () => { context("when x", () => { specify("b", () => {}); }); }); suite("tdd", () => { test("c", function () {}); });`,
    tests: ["a > when x > b", "tdd > c"],
  },
  {
    name: "a pending mocha test has no body",
    source: `describe("s", () => { it("will do"); });`,
    tests: ["s > will do [todo]"],
  },
  {
    name: "this.skip() in a test and in a before hook",
    source: `describe("s", function () { it("a", function () { this.skip(); }); });\ndescribe("t", function () { before(function () { if (!db) this.skip(); }); it("b", function () {}); });`,
    tests: ["s > a [skipped]", "t > b [conditional]"],
  },
  {
    name: "xcontext, xspecify",
    source: `xcontext("c", () => { it("a", () => {}); }); xspecify("b", () => {});`,
    tests: ["c > a [skipped]", "b [skipped]"],
  },
  {
    name: "Jasmine pending() inside a spec",
    source: `describe("s", () => { it("a", () => { pending("not yet"); }); it("b", () => {}); });`,
    tests: ["s > a [skipped]", "s > b"],
  },
];

const nodeTest: ExtractionCase[] = [
  {
    name: "options objects",
    source: [
      `import { test, describe, it } from "node:test";`,
      `test("a", { skip: true }, () => {});`,
      `test("b", { skip: "flaky" }, () => {});`,
      `test("c", { todo: true }, () => {});`,
      `test("d", { skip: false }, () => {});`,
      `test("e", { concurrency: 2 }, async () => {});`,
      `describe("s", () => { it("f", { only: true }, () => {}); });`,
      `test("g", { todo: "later" });`,
    ].join("\n"),
    tests: ["a [skipped]", "b [skipped]", "c [todo]", "d", "e", "s > f [focused]", "g [todo]"],
  },
  {
    name: "t.skip(), t.todo() and named-function tests",
    source: `import test from "node:test";\ntest("a", (t) => { t.skip("later"); });\ntest("b", (t) => { t.todo(); });\ntest(function named() {});`,
    tests: ["a [skipped]", "b [todo]", "named"],
  },
  {
    name: "subtests through the context",
    source: `import test from "node:test";\ntest("parent", async (t) => { await t.test("child", () => {}); await t.test("other", (t2) => { t2.skip(); }); });`,
    tests: ["parent", "parent > child", "parent > other [skipped]"],
  },
];

const playwrightAndCypress: ExtractionCase[] = [
  {
    name: "Playwright describe forms",
    source: [
      `import { test, expect } from "@playwright/test";`,
      `test.describe("login", () => { test("ok", async ({ page }) => {}); });`,
      `test.describe.serial("flow", () => { test("one", async () => {}); });`,
      `test.describe.skip("off", () => { test("two", async () => {}); });`,
      `test.describe.only("f", () => { test("three", async () => {}); });`,
      `test.describe.configure({ mode: "serial" });`,
      `test.beforeEach(async ({ page }) => {});`,
    ].join("\n"),
    tests: ["login > ok", "flow > one", "off > two [skipped]", "f > three [focused]"],
  },
  {
    name: "Playwright run-time skip, fixme and fail",
    source: [
      `import { test } from "@playwright/test";`,
      `test("a", async ({ page }) => { test.skip(); });`,
      `test("b", async ({ browserName }) => { test.skip(browserName === "webkit", "no webkit"); });`,
      `test.fixme("c", async () => {});`,
      `test("d", async () => { test.fail(); });`,
      `test("e", async () => { await test.step("inner", async () => {}); });`,
      `test.describe("group", () => { test.skip(({ browserName }) => browserName === "firefox", "ff"); test("f", async () => {}); test("g", async () => {}); });`,
    ].join("\n"),
    tests: ["a [skipped]", "b [conditional]", "c [skipped]", "d [failing]", "e", "group > f [conditional]", "group > g [conditional]"],
  },
  {
    name: "a file-level Playwright skip reaches every test",
    source: `import { test } from "@playwright/test";\ntest.skip(process.platform === "win32", "posix only");\ntest("a", async () => {});`,
    tests: ["a [conditional]"],
  },
  {
    name: "Cypress specs",
    path: "cypress/e2e/login.cy.ts",
    source: `describe("login", () => { context("valid", () => { it("logs in", () => { cy.visit("/"); }); }); specify("logs out", () => {}); });`,
    tests: ["login > valid > logs in", "login > logs out"],
  },
];

const notTests: ExtractionCase[] = [
  {
    name: "method calls named like test functions",
    source: `const ok = /x/.test(s); iterator.it(); suite.add("bench", () => {}); obj.describe("x", () => {}); test.describe.configure({});`,
    tests: [],
  },
  {
    name: "run-time skip outside any test",
    source: `function helper() { this.skip(); pending(); }`,
    tests: [],
  },
];

describe("extracting JS/TS tests", () => {
  describe.each([
    ["Jest and Vitest", jestAndVitest],
    ["Mocha and Jasmine", mochaAndJasmine],
    ["node:test", nodeTest],
    ["Playwright and Cypress", playwrightAndCypress],
    ["calls that are not tests", notTests],
  ] as const)("%s", (_group, cases) => {
    it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      expect(await listTests(c.source, c.path)).toEqual(c.tests);
    });
  });

  it("records lines, each rows, and why a test is flagged", async () => {
    const source = [
      `describe("total", () => {`,
      `  // flaky, see #123`,
      `  it.skip("rounds", () => {});`,
      '  it.each`a | b\n${1} | ${2}\n${3} | ${4}`("row $a", () => {});',
      `  describe.skip("inner", () => { it("x", () => {}); });`,
      `  test.each(rows)("dynamic %s", () => {});`,
      `});`,
    ].join("\n");
    const facts = await extractFacts("test/total.test.ts", source);
    const [rounds, row, inner, dynamic] = facts.tests;
    expect(rounds).toMatchObject({ id: "total > rounds", line: 3, flagVia: { skipped: "it.skip" }, skipReason: "flaky, see #123" });
    expect(row).toMatchObject({ id: "total > row $a", eachRows: 2 });
    expect(row?.eachRowHashes).toHaveLength(2);
    expect(row?.eachRowHashes?.[0]).not.toBe(row?.eachRowHashes?.[1]);
    expect(row?.flagVia).toBeUndefined();
    expect(inner?.flagVia).toEqual({ skipped: 'describe.skip on suite "inner"' });
    expect(dynamic?.eachRows).toBeNull();
  });

  describe("rows of .each tables held in a const of the file", () => {
    /** `id rows=N` for each test of the source (rows=- when the test is no table, rows=? when the table is not literal). */
    async function rowsOf(source: string): Promise<string[]> {
      const facts = await extractFacts("test/rows.test.ts", source);
      expect(facts.parseError).toBeUndefined();
      return facts.tests.map((test) => `${test.id} rows=${test.eachRows === undefined ? "-" : (test.eachRows ?? "?")}`);
    }

    it.each([
      {
        name: "a module-level const array",
        source: `const cases = [[1, 2], [3, 4]];
test.each(cases)("adds %i", () => {});`,
        rows: ["adds %i rows=2"],
      },
      {
        name: "as const and satisfies",
        source: `const A = [[1], [2], [3]] as const;
const B = [{ a: 1 }] satisfies Row[];
it.each(A)("a %i", () => {});
it.each(B)("b $a", () => {});`,
        rows: ["a %i rows=3", "b $a rows=1"],
      },
      {
        name: "an exported const of objects",
        source: `export const TABLE = [{ a: 1 }, { a: 2 }];
describe.each(TABLE)("suite $a", () => { it("works", () => {}); });`,
        rows: ["suite $a > works rows=2"],
      },
      {
        name: "spread from another const, inline or in a const",
        source: `const BASE = [[1], [2]];
const ALL = [...BASE, [3]];
test.each(ALL)("all %i", () => {});
test.each([...BASE, [4], [5]])("more %i", () => {});`,
        rows: ["all %i rows=3", "more %i rows=4"],
      },
      {
        name: "a const inside the enclosing suite",
        source: `describe("s", () => {
  const cases = [[1], [2]];
  test.each(cases)("t %i", () => {});
});`,
        rows: ["s > t %i rows=2"],
      },
      {
        name: "a let that is never reassigned",
        source: `let cases = [[1], [2]];
test.each(cases)("t %i", () => {});`,
        rows: ["t %i rows=2"],
      },
      {
        name: "describe.each around it.each multiplies the rows",
        source: `const A = [1, 2, 3];
describe.each(A)("s %i", () => { it.each([[1], [2]])("t %i", () => {}); it("plain", () => {}); });`,
        rows: ["s %i > t %i rows=6", "s %i > plain rows=3"],
      },
    ])("counts the rows of $name", async ({ source, rows }) => {
      expect(await rowsOf(source)).toEqual(rows);
    });

    it.each([
      {
        name: "a table imported from another module",
        source: `import { cases } from "./cases";
test.each(cases)("t %i", () => {});`,
      },
      {
        name: "a required table",
        source: `const { cases } = require("./cases");
test.each(cases)("t %i", () => {});`,
      },
      {
        name: "a let that is reassigned",
        source: `let cases = [[1]];
if (wide) cases = [[1], [2]];
test.each(cases)("t %i", () => {});`,
      },
      {
        name: "a const array pushed to",
        source: `const cases = [[1]];
cases.push([2]);
test.each(cases)("t %i", () => {});`,
      },
      {
        name: "a const array with an element assigned",
        source: `const cases = [[1]];
cases[1] = [2];
test.each(cases)("t %i", () => {});`,
      },
      {
        name: "a computed table",
        source: `const cases = [1, 2].map((n) => [n]);
test.each(cases)("t %i", () => {});`,
      },
      {
        name: "a spread of an unknown array",
        source: `const cases = [...more, [1]];
test.each(cases)("t %i", () => {});`,
      },
      {
        name: "a parameter shadowing a const",
        source: `const cases = [[1]];
function suite(cases) { test.each(cases)("t %i", () => {}); }`,
      },
      { name: "a name declared nowhere", source: `test.each(globalCases)("t %i", () => {});` },
    ])("keeps $name opaque", async ({ source }) => {
      expect(await rowsOf(source)).toEqual(["t %i rows=?"]);
    });

    it("hashes a const table's rows and the test body like the same inline table", async () => {
      const inline = await extractFacts("test/a.test.ts", `test.each([[1, 2], [3, 4]])("adds %i", (a, b) => { expect(a).toBe(b); });`);
      const named = await extractFacts(
        "test/a.test.ts",
        `const CASES = [
  [1, 2],
  [3, 4],
] as const;
test.each(CASES)("adds %i", (a, b) => { expect(a).toBe(b); });`,
      );
      expect(named.tests[0]?.eachRowHashes).toEqual(inline.tests[0]?.eachRowHashes);
      expect(named.tests[0]?.bodyHash).toBe(inline.tests[0]?.bodyHash);
    });
  });

  it("records skip reasons from options, arguments and trailing comments", async () => {
    const source = [
      `import test from "node:test";`,
      `test("a", { skip: "see https://example.com/issues/4" }, () => {});`,
      `test("b", (t) => { t.skip("blocked by #77"); });`,
      `it.skip("c", () => {}); // GH-12`,
    ].join("\n");
    const facts = await extractFacts("test/reasons.test.mjs", source);
    expect(facts.tests.map((test) => test.skipReason)).toEqual(["see https://example.com/issues/4", "blocked by #77", "GH-12"]);
  });

  it("records frameworks from imports, requires and cy usage", async () => {
    const source = `import { test } from "vitest";\nconst { expect } = require("chai");\nimport x from "@playwright/test/reporter";\nit("a", () => { cy.get("a"); });`;
    const facts = await extractFacts("test/x.test.js", source);
    expect(facts.frameworks).toEqual(["chai", "cypress", "playwright", "vitest"]);
  });
});

describe("deciding what is a test file", () => {
  it.each([
    { path: "test/parser.test.ts", source: "", isTestFile: true },
    { path: "src/parser.spec.js", source: "", isTestFile: true },
    { path: "src/__tests__/parser.ts", source: "", isTestFile: true },
    { path: "tests/helpers.ts", source: "export const x = 1;", isTestFile: true },
    { path: "packages/a/e2e/login.ts", source: "", isTestFile: true },
    { path: "cypress/support/commands.js", source: "", isTestFile: true },
    { path: "web/login.cy.ts", source: "", isTestFile: true },
    { path: "src/parser.ts", source: "export function parse() { return /x/.test('x'); }", isTestFile: false },
    { path: "src/contest.ts", source: "export const contest = 1;", isTestFile: false },
    { path: "src/inline.ts", source: `it("inline", () => {});`, isTestFile: true },
  ])("$path -> $isTestFile", async ({ path, source, isTestFile }) => {
    const facts: FileFacts = await extractFacts(path, source);
    expect(facts.isTestFile).toBe(isTestFile);
  });
});
