/**
 * C# extraction tables: xUnit, NUnit and MSTest test methods, skips on
 * methods and classes, data rows, and assertion strengths (Assert.*, NUnit
 * constraints, FluentAssertions).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import type { TestCase } from "../../../src/analysis/facts.js";

async function testsOf(classBody: string, classHeader = "public class CalcTests", usings = ""): Promise<TestCase[]> {
  const facts = await extractFacts("tests/CalcTests.cs", `using Xunit;\n${usings}\nnamespace Calc.Tests {\n${classHeader}\n{\n${classBody}}\n}\n`);
  expect(facts.parseError).toBeUndefined();
  return facts.tests;
}

describe("csharp: which methods are tests", () => {
  it.each([
    ["xUnit [Fact] and [Theory]", "[Fact] public void A() {}\n[Theory] [InlineData(1)] public void B(int x) {}\n", ["CalcTests > A", "CalcTests > B"]],
    ["NUnit [Test] and [TestCase]", "[Test] public void A() {}\n[TestCase(1)] public void B(int x) {}\n", ["CalcTests > A", "CalcTests > B"]],
    ["MSTest [TestMethod]", "[TestMethod] public void A() {}\n", ["CalcTests > A"]],
    ["[FactAttribute] and a custom [SkippableFact]", "[FactAttribute] public void A() {}\n[SkippableFact] public void B() {}\n", ["CalcTests > A", "CalcTests > B"]],
    ["helpers and setup are not tests", "[SetUp] public void Init() {}\nprivate int Helper() => 1;\n", []],
    ["nested classes", "public class Inner\n{\n[Fact] public void A() {}\n}\n", ["CalcTests > Inner > A"]],
    ["an expression-bodied test", "[Fact] public void A() => Assert.True(true);\n", ["CalcTests > A"]],
  ])("%s", async (_title, body, ids) => {
    expect((await testsOf(body)).map((test) => test.id)).toEqual(ids);
  });
});

describe("csharp: flags and rows", () => {
  it.each([
    ["[Fact(Skip = ...)]", '[Fact(Skip = "flaky")] public void A() {}\n', "public class CalcTests", "[Fact(Skip = ...)]", "flaky"],
    ["[Theory(Skip = ...)]", '[Theory(Skip = "later")] [InlineData(1)] public void A(int x) {}\n', "public class CalcTests", "[Theory(Skip = ...)]", "later"],
    ["NUnit [Ignore(reason)]", '[Test, Ignore("broken")] public void A() {}\n', "public class CalcTests", "[Ignore]", "broken"],
    ["MSTest [Ignore]", "[TestMethod]\n[Ignore]\npublic void A() {}\n", "public class CalcTests", "[Ignore]", undefined],
    ["[Ignore] on the class", "[Test] public void A() {}\n", '[Ignore("all")]\npublic class CalcTests', "[Ignore] on class CalcTests", "all"],
  ])("%s", async (_title, body, header, via, reason) => {
    const [test] = await testsOf(body, header);
    expect(test?.flags.skipped).toBe(true);
    expect(test?.flagVia?.skipped).toBe(via);
    expect(test?.skipReason).toBe(reason);
  });

  it.each([
    ["[InlineData] rows", "[Theory]\n[InlineData(1, 2)]\n[InlineData(3, 4)]\npublic void A(int x, int y) {}\n", 2],
    ["[TestCase] rows", "[TestCase(1)]\n[TestCase(2)]\n[TestCase(3)]\npublic void A(int x) {}\n", 3],
    ["[DataRow] rows", "[DataTestMethod]\n[DataRow(1)]\npublic void A(int x) {}\n", 1],
    ["[MemberData] is not a literal table", "[Theory]\n[MemberData(nameof(Cases))]\npublic void A(int x) {}\n", null],
  ])("%s", async (_title, body, rows) => {
    const [test] = await testsOf(body);
    expect(test?.eachRows).toBe(rows);
  });

  it("an [InlineData] row removed is a test_deletion", async () => {
    const file = (rows: string) => `public class CalcTests\n{\n[Theory]\n${rows}public void A(int x) { Assert.Equal(x, F(x)); }\n}\n`;
    const analysis = await analyzeChanges([{ path: "tests/CalcTests.cs", before: file("[InlineData(1)]\n[InlineData(2)]\n"), after: file("[InlineData(1)]\n") }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual([["test_deletion", "CalcTests > A"]]);
  });
});

describe("csharp: assertions", () => {
  it.each([
    ["Assert.Equal", "Assert.Equal(3, Calc.Add(1, 2));", { matcher: "Assert.Equal", strength: 3, expected: "3", actual: "Calc . Add ( 1 , 2 )" }],
    ["Assert.True", "Assert.True(ok);", { matcher: "Assert.True", strength: 1 }],
    ["Assert.True(true) is a tautology", "Assert.True(true);", { strength: 0, tautology: true }],
    ["Assert.Throws<T>", "Assert.Throws<OverflowException>(() => F());", { matcher: "Assert.Throws", strength: 2, expected: "OverflowException" }],
    ["Assert.Throws<Exception> is weak", "Assert.Throws<Exception>(() => F());", { strength: 1 }],
    ["NUnit Assert.AreEqual", "Assert.AreEqual(3, x);", { strength: 3, expected: "3" }],
    ["NUnit Assert.That(x, Is.EqualTo(3))", "Assert.That(x, Is.EqualTo(3));", { strength: 3, expected: "3", actual: "x" }],
    ["NUnit Assert.That(x, Is.Not.Null)", "Assert.That(x, Is.Not.Null);", { strength: 1, negated: true }],
    ["FluentAssertions Be", "x.Should().Be(3);", { matcher: "Should().Be", strength: 3, expected: "3", actual: "x" }],
    ["FluentAssertions NotBeNull", "x.Should().NotBeNull();", { strength: 1 }],
  ])("%s", async (_title, statement, expected) => {
    const [test] = await testsOf(`[Fact]\npublic void A()\n{\n    ${statement}\n}\n`);
    expect(test?.assertionCount).toBe(1);
    expect(test?.assertionsDetail?.[0]).toMatchObject(expected);
  });
});

describe("csharp: Shouldly assertions (in a file that uses Shouldly)", () => {
  it.each([
    ["Shouldly ShouldBe", "config.Items.Count.ShouldBe(2);", { matcher: "Should().Be", strength: 3, expected: "2", actual: "config . Items . Count" }],
    ["Shouldly ShouldBeGreaterThanOrEqualTo", "elapsed.ShouldBeGreaterThanOrEqualTo(750);", { matcher: "Should().BeGreaterThanOrEqualTo", strength: 2, expected: "750", actual: "elapsed" }],
    ["Shouldly ShouldBeLessThan", "timer.ElapsedMilliseconds.ShouldBeLessThan(750);", { matcher: "Should().BeLessThan", strength: 2, expected: "750" }],
    ["Shouldly ShouldNotBeNull", "x.ShouldNotBeNull();", { matcher: "Should().NotBeNull", strength: 1, negated: true }],
    ["Shouldly ShouldContain", 'names.ShouldContain("a");', { matcher: "Should().Contain", strength: 2, expected: '"a"', actual: "names" }],
    ["Shouldly Should.Throw<T>", "Should.Throw<ArgumentException>(() => F());", { matcher: "Should.Throw", strength: 2, expected: "ArgumentException" }],
  ])("%s", async (_title, statement, expected) => {
    const [test] = await testsOf(`[Fact]\npublic void A()\n{\n    ${statement}\n}\n`, "public class CalcTests", "using Shouldly;\n");
    expect(test?.assertionCount).toBe(1);
    expect(test?.assertionsDetail?.[0]).toMatchObject(expected);
  });

  it("a method named Should… is no assertion in a file that does not use Shouldly", async () => {
    const [test] = await testsOf(`[Fact]\npublic void A()\n{\n    policy.ShouldRetry(3);\n}\n`);
    expect(test?.assertionCount).toBe(0);
  });
});
