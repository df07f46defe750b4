/**
 * Java extraction tables: JUnit 3/4/5 test methods, disabling annotations on
 * methods and classes, parameterized sources, and assertion strengths for
 * JUnit, AssertJ and Hamcrest.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import type { TestCase } from "../../../src/analysis/facts.js";

async function testsOf(classBody: string, classHeader = "class CalcTest"): Promise<TestCase[]> {
  const facts = await extractFacts("src/test/java/CalcTest.java", `import org.junit.jupiter.api.*;\n\n${classHeader} {\n${classBody}}\n`);
  expect(facts.parseError).toBeUndefined();
  return facts.tests;
}

describe("java: which methods are tests", () => {
  it.each([
    ["@Test", "@Test void adds() {}\n", "class CalcTest", ["CalcTest > adds"]],
    ["@org.junit.Test", "@org.junit.Test public void adds() {}\n", "public class CalcTest", ["CalcTest > adds"]],
    ["@ParameterizedTest and @RepeatedTest", "@ParameterizedTest @ValueSource(ints = {1}) void p(int x) {}\n@RepeatedTest(3) void r() {}\n", "class CalcTest", ["CalcTest > p", "CalcTest > r"]],
    ["helpers and @BeforeEach are not tests", "@BeforeEach void setUp() {}\nprivate int helper() { return 1; }\n", "class CalcTest", []],
    ["@Nested classes", "@Nested class Small {\n@Test void zero() {}\n}\n", "class CalcTest", ["CalcTest > Small > zero"]],
    ["JUnit 3 public test* methods", "public void testAdds() {}\npublic void helper() {}\nprivate void testHidden() {}\n", "public class CalcTest extends TestCase", ["CalcTest > testAdds"]],
  ])("%s", async (_title, body, header, ids) => {
    expect((await testsOf(body, header)).map((test) => test.id)).toEqual(ids);
  });
});

describe("java: flags and rows", () => {
  it.each([
    ["@Disabled", '@Test @Disabled("flaky") void a() {}\n', "class CalcTest", "@Disabled", "flaky"],
    ["@Ignore", "@Test @Ignore void a() {}\n", "class CalcTest", "@Ignore", undefined],
    ["@Disabled on the class", "@Test void a() {}\n", '@Disabled("later") class CalcTest', "@Disabled on class CalcTest", "later"],
  ])("%s", async (_title, body, header, via, reason) => {
    const [test] = await testsOf(body, header);
    expect(test?.flags.skipped).toBe(true);
    expect(test?.flagVia?.skipped).toBe(via);
    expect(test?.skipReason).toBe(reason);
  });

  it("@DisabledOnOs skips only under its condition", async () => {
    const [test] = await testsOf("@Test @DisabledOnOs(OS.WINDOWS) void a() {}\n", "class CalcTest");
    expect(test?.flags).toMatchObject({ skipped: false, conditional: true });
    expect(test?.flagVia?.conditional).toBe("@DisabledOnOs");
  });

  it.each([
    ["@ValueSource", "@ParameterizedTest @ValueSource(ints = {1, 2, 3}) void p(int x) {}\n", 3],
    ["@CsvSource", '@ParameterizedTest @CsvSource({"a, 1", "b, 2"}) void p(String s, int x) {}\n', 2],
    ["@MethodSource is not a literal table", '@ParameterizedTest @MethodSource("cases") void p(int x) {}\n', null],
  ])("%s", async (_title, body, rows) => {
    const [test] = await testsOf(body);
    expect(test?.eachRows).toBe(rows);
  });
});

describe("java: assertions", () => {
  it.each([
    ["assertEquals", "assertEquals(3, Calc.add(1, 2));", { matcher: "assertEquals", strength: 3, expected: "3", actual: "Calc . add ( 1 , 2 )" }],
    ["Assertions.assertEquals with a message", 'Assertions.assertEquals(3, x, "sum");', { strength: 3, expected: "3", actual: "x" }],
    ["assertTrue", "assertTrue(ok());", { matcher: "assertTrue", strength: 1 }],
    ["assertTrue(true) is a tautology", "assertTrue(true);", { strength: 0, tautology: true }],
    ["assertEquals(1, 1) is a tautology", "assertEquals(1, 1);", { strength: 0, tautology: true }],
    ["assertThrows(specific)", "assertThrows(IllegalArgumentException.class, () -> f());", { strength: 2, expected: "IllegalArgumentException" }],
    ["assertThrows(Exception) is weak", "assertThrows(Exception.class, () -> f());", { strength: 1 }],
    ["AssertJ isEqualTo", "assertThat(x).isEqualTo(3);", { matcher: "assertThat.isEqualTo", strength: 3, expected: "3", actual: "x" }],
    ["AssertJ isNotNull", "assertThat(x).isNotNull();", { matcher: "assertThat.isNotNull", strength: 1 }],
    ["AssertJ contains", "assertThat(list).contains(1);", { strength: 2 }],
    ["Hamcrest is", "assertThat(x, is(3));", { matcher: "assertThat(is)", strength: 3 }],
  ])("%s", async (_title, statement, expected) => {
    const [test] = await testsOf(`@Test void a() {\n    ${statement}\n}\n`);
    expect(test?.assertionCount).toBe(1);
    expect(test?.assertionsDetail?.[0]).toMatchObject(expected);
  });
});

describe("java: removing @Test", () => {
  it.each([
    ["@Test removed: test_disabled", "void adds() {\n    assertEquals(3, add(1, 2));\n}\n", [["test_disabled", "CalcTest > adds"]]],
    ["method removed: test_deletion", "", [["test_deletion", "CalcTest > adds"]]],
  ])("%s", async (_title, after, expected) => {
    const wrap = (body: string) => `class CalcTest {\n${body}}\n`;
    const before = wrap("@Test\nvoid adds() {\n    assertEquals(3, add(1, 2));\n}\n");
    const analysis = await analyzeChanges([{ path: "src/test/java/CalcTest.java", before, after: wrap(after) }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });
});
