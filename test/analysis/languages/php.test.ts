/**
 * PHP extraction tables: which methods PHPUnit runs, skips and incomplete
 * tests, data provider rows, and assertion strengths.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import type { TestCase } from "../../../src/analysis/facts.js";

const wrap = (body: string, header = "final class CartTest extends TestCase") => `<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\n${header}\n{\n${body}}\n`;

async function testsOf(body: string, header?: string): Promise<TestCase[]> {
  const facts = await extractFacts("tests/CartTest.php", wrap(body, header));
  expect(facts.parseError).toBeUndefined();
  return facts.tests;
}

describe("php: which methods are tests", () => {
  it.each([
    ["test* methods", "public function testTotal(): void {}\npublic function helper(): void {}\n", undefined, ["CartTest > testTotal"]],
    ["@test docblocks", "/**\n * @test\n */\npublic function totals(): void {}\n", undefined, ["CartTest > totals"]],
    ["#[Test] attributes", "#[Test]\npublic function totals(): void {}\n", undefined, ["CartTest > totals"]],
    ["private test* methods are not run", "private function testHidden(): void {}\n", undefined, []],
    ["abstract test cases are not run", "public function testA(): void {}\n", "abstract class BaseTest extends TestCase", []],
    ["classes that are not test cases", "public function testA(): void {}\n", "final class Cart", []],
  ])("%s", async (_title, body, header, ids) => {
    expect((await testsOf(body, header)).map((test) => test.id)).toEqual(ids);
  });

  it("a vendored dependency's tests are not the project's", async () => {
    const facts = await extractFacts("tools/vendor/acme/lib/tests/CartTest.php", wrap("public function testTotal(): void {}\n"));
    expect(facts.tests).toEqual([]);
  });
});

describe("php: flags and rows", () => {
  it.each([
    ["markTestSkipped", "$this->markTestSkipped('later');", "skipped", "markTestSkipped()", "later"],
    ["self::markTestSkipped", "self::markTestSkipped();", "skipped", "markTestSkipped()", undefined],
    ["markTestIncomplete", "$this->markTestIncomplete('wip');", "todo", "markTestIncomplete()", "wip"],
  ] as const)("%s", async (_title, statement, flag, via, reason) => {
    const [test] = await testsOf(`public function testA(): void\n{\n    ${statement}\n}\n`);
    expect(test?.flags[flag]).toBe(true);
    expect(test?.flagVia?.[flag]).toBe(via);
    expect(test?.skipReason).toBe(reason);
  });

  it.each([
    ["@dataProvider returning an array", "/** @dataProvider cases */\npublic function testA($x): void {}\npublic static function cases(): array { return [[1], [2], [3]]; }\n", 3],
    ["#[DataProvider] with yields", "#[DataProvider('cases')]\npublic function testA($x): void {}\npublic static function cases(): iterable { yield [1]; yield [2]; }\n", 2],
    ["a provider that is not a literal", "/** @dataProvider cases */\npublic function testA($x): void {}\npublic static function cases(): array { return load(); }\n", null],
  ])("%s", async (_title, body, rows) => {
    const [test] = await testsOf(body);
    expect(test?.eachRows).toBe(rows);
  });

  it("a data provider row of double-quoted strings removed is a test_deletion (their literals are the row: tree-sitter-php's encapsed_string)", async () => {
    const body = (rows: string) => `/** @dataProvider cases */\npublic function testA($x): void { $this->assertSame($x, f($x)); }\npublic static function cases(): array { return [${rows}]; }\n`;
    const analysis = await analyzeChanges([{ path: "tests/CartTest.php", before: wrap(body(`["eur"], ["usd"]`)), after: wrap(body(`["usd"], ["eur"]`)) }]);
    expect(analysis.findings).toEqual([]);
    const removed = await analyzeChanges([{ path: "tests/CartTest.php", before: wrap(body(`["eur"], ["usd"]`)), after: wrap(body(`["eur"]`)) }]);
    expect(removed.findings.map((finding) => [finding.type, finding.test])).toEqual([["test_deletion", "CartTest > testA"]]);
  });

  it("a data provider row removed is a test_deletion", async () => {
    const body = (rows: string) => `/** @dataProvider cases */\npublic function testA($x): void { $this->assertSame($x, f($x)); }\npublic static function cases(): array { return [${rows}]; }\n`;
    const analysis = await analyzeChanges([{ path: "tests/CartTest.php", before: wrap(body("[1], [2]")), after: wrap(body("[1]")) }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual([["test_deletion", "CartTest > testA"]]);
  });
});

describe("php: assertions", () => {
  it.each([
    ["assertSame", "$this->assertSame(500, $cart->total());", { matcher: "assertSame", strength: 3, expected: "500", actual: "$cart -> total ( )" }],
    ["self::assertEquals", "self::assertEquals(500, $total);", { matcher: "assertEquals", strength: 3 }],
    ["assertTrue", "$this->assertTrue($cart->isEmpty());", { matcher: "assertTrue", strength: 1 }],
    ["assertTrue(true) is a tautology", "$this->assertTrue(true);", { strength: 0, tautology: true }],
    ["assertContains", "$this->assertContains(1, $list);", { strength: 2 }],
    ["two equal double-quoted literals are a tautology", `$this->assertSame("ok", "ok");`, { strength: 0, tautology: true }],
    ["expectException(specific)", "$this->expectException(InvalidArgumentException::class);", { strength: 2, expected: "InvalidArgumentException" }],
    ["expectException(Exception) is weak", "$this->expectException(\\Exception::class);", { strength: 1 }],
  ])("%s", async (_title, statement, expected) => {
    const [test] = await testsOf(`public function testA(): void\n{\n    ${statement}\n}\n`);
    expect(test?.assertionCount).toBe(1);
    expect(test?.assertionsDetail?.[0]).toMatchObject(expected);
  });
});
