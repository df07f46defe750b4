/**
 * Go extraction tables: which functions `go test` runs, subtests and table
 * rows, skips and build constraints, and assertion strengths.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import type { TestCase } from "../../../src/analysis/facts.js";
import { excludingBuildConstraint } from "../../../src/analysis/languages/go.js";

async function testsOf(body: string, path = "calc/calc_test.go", header = ""): Promise<TestCase[]> {
  const facts = await extractFacts(path, `${header}package calc\n\nimport "testing"\n\n${body}`);
  expect(facts.parseError).toBeUndefined();
  return facts.tests;
}

describe("go: which tests run", () => {
  it.each([
    ["TestXxx(t *testing.T)", "func TestAdd(t *testing.T) {}\n", ["TestAdd"]],
    ["Test alone and Test_underscore", "func Test(t *testing.T) {}\nfunc Test_add(t *testing.T) {}\n", ["Test", "Test_add"]],
    ["Testadd (lower case after Test) is not a test", "func Testadd(t *testing.T) {}\n", []],
    ["TestMain and benchmarks are not tests", "func TestMain(m *testing.M) {}\nfunc BenchmarkAdd(b *testing.B) {}\n", []],
    ["fuzz tests", "func FuzzAdd(f *testing.F) {}\n", ["FuzzAdd"]],
    ["helpers are not tests", "func helper(t *testing.T) {}\n", []],
    // testing package: "Example functions without output comments are compiled but not executed."
    [
      "examples with an output comment run; without one they only compile",
      "func ExampleAdd() {\n\tfmt.Println(Add(1, 2))\n\t// Output: 3\n}\nfunc ExampleCalc_Sub() {\n\t// Unordered output:\n\t// 1\n}\nfunc ExampleNoOutput() {\n\tAdd(1, 2)\n}\nfunc Examplelower() {\n\t// Output: x\n}\n",
      ["ExampleAdd", "ExampleCalc_Sub"],
    ],
    [
      "literal t.Run subtests, nested",
      'func TestAdd(t *testing.T) {\n\tt.Run("small", func(t *testing.T) {\n\t\tt.Run("zero", func(t *testing.T) {})\n\t})\n}\n',
      ["TestAdd", "TestAdd > small", "TestAdd > small > zero"],
    ],
  ])("%s", async (_title, body, ids) => {
    expect((await testsOf(body)).map((test) => test.id)).toEqual(ids);
  });

  it.each(["calc/calc.go", "vendor/example.com/calc/calc_test.go", "calc/testdata/x_test.go"])("%s declares no tests", async (path) => {
    expect(await testsOf("func TestAdd(t *testing.T) {}\n", path)).toEqual([]);
  });
});

describe("go: table tests", () => {
  const table = (rows: string) =>
    `func TestAdd(t *testing.T) {\n\ttests := []struct{ a, want int }{\n${rows}\t}\n\tfor _, tc := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\tif got := Add(tc.a); got != tc.want {\n\t\t\t\tt.Errorf("got %d", got)\n\t\t\t}\n\t\t})\n\t}\n}\n`;

  it("counts the rows of the ranged table", async () => {
    const [test] = await testsOf(table("\t\t{1, 2},\n\t\t{2, 3},\n\t\t{a: 3, want: 4},\n"));
    expect(test?.eachRows).toBe(3);
  });

  it.each([
    ["a row removed is a test_deletion", "\t\t{1, 2},\n", [["test_deletion", "TestAdd"]]],
    ["a row added finds nothing", "\t\t{1, 2},\n\t\t{2, 3},\n\t\t{5, 6},\n", []],
  ])("%s", async (_title, rows, expected) => {
    const wrap = (body: string) => `package calc\n\nimport "testing"\n\n${body}`;
    const analysis = await analyzeChanges([{ path: "calc_test.go", before: wrap(table("\t\t{1, 2},\n\t\t{2, 3},\n")), after: wrap(table(rows)) }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });
});

describe("go: skips and build constraints", () => {
  it.each([
    ["t.Skip", '\tt.Skip("flaky")\n', "t.Skip()", "flaky"],
    ["t.Skipf", '\tt.Skipf("needs %s", "db")\n', "t.Skipf()", "needs %s"],
    ["t.SkipNow", "\tt.SkipNow()\n", "t.SkipNow()", undefined],
  ])("%s", async (_title, statement, via, reason) => {
    const [test] = await testsOf(`func TestAdd(t *testing.T) {\n${statement}}\n`);
    expect(test?.flags.skipped).toBe(true);
    expect(test?.flagVia?.skipped).toBe(via);
    expect(test?.skipReason).toBe(reason);
  });

  it("a skip under an if is conditional", async () => {
    const [test] = await testsOf("func TestAdd(t *testing.T) {\n\tif testing.Short() {\n\t\tt.Skip()\n\t}\n}\n");
    expect(test?.flags).toMatchObject({ skipped: false, conditional: true });
    expect(test?.flagVia?.conditional).toBe("t.Skip()");
  });

  it("a skip in a test reaches its subtests declared after it", async () => {
    const tests = await testsOf('func TestAdd(t *testing.T) {\n\tt.Skip()\n\tt.Run("a", func(t *testing.T) {})\n}\n');
    expect(tests.map((test) => test.flags.skipped)).toEqual([true, true]);
  });

  it.each([
    ["//go:build ignore", "//go:build ignore"],
    ["//go:build integration", "//go:build integration"],
    ["//go:build integration && linux", "//go:build integration && linux"],
    ["// +build ignore", "// +build ignore"],
    ["//go:build linux", null],
    ["//go:build !windows", null],
    ["//go:build linux || darwin", null],
    ["//go:build go1.21", null],
    ["//go:build !integration", null],
  ])("%s excludes the file: %j", (line, expected) => {
    expect(excludingBuildConstraint(`${line}\n\npackage calc\n`)).toBe(expected);
  });

  it("a build constraint added to a test file disables its tests", async () => {
    const body = 'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1) != 2 {\n\t\tt.Error("x")\n\t}\n}\n';
    const analysis = await analyzeChanges([{ path: "calc_test.go", before: body, after: `//go:build ignore\n\n${body}` }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.severity, finding.test])).toEqual([["test_disabled", "critical", "TestAdd"]]);
  });
});

describe("go: assertions", () => {
  it.each([
    ["if got != want { t.Errorf }", '\tif got := Add(1); got != 2 {\n\t\tt.Errorf("got %d", got)\n\t}\n', { matcher: "if != t.Errorf", strength: 3, actual: "got", expected: "2" }],
    ["if err != nil { t.Fatal }", "\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n", { matcher: "if t.Fatal", strength: 1 }],
    ["if !reflect.DeepEqual", "\tif !reflect.DeepEqual(a, b) {\n\t\tt.Error(a)\n\t}\n", { strength: 3 }],
    ["an unguarded t.Fail", "\tt.Fail()\n", { matcher: "t.Fail", strength: 1 }],
    ["assert.Equal", "\tassert.Equal(t, 2, Add(1))\n", { matcher: "assert.Equal", strength: 3, expected: "2", actual: "Add ( 1 )" }],
    ["require.NoError", "\trequire.NoError(t, err)\n", { matcher: "require.NoError", strength: 1 }],
    ["assert.Contains", '\tassert.Contains(t, s, "x")\n', { strength: 2 }],
    // testify's assert package: Regexp(t, rx, str), InDelta(t, expected, actual, delta), IsType(t, expectedType, object) state the expected value first.
    ["assert.Regexp: the string is checked", "\tassert.Regexp(t, `^a+$`, Name(1))\n", { strength: 2, expected: "`^a+$`", actual: "Name ( 1 )" }],
    ["assert.NotRegexp: the string is checked", '\tassert.NotRegexp(t, "^b", Name(1))\n', { strength: 2, negated: true, expected: '"^b"', actual: "Name ( 1 )" }],
    ["assert.InDelta: the actual value is checked", "\tassert.InDelta(t, 2.5, Mean(xs), 0.01)\n", { strength: 2, expected: "2.5", actual: "Mean ( xs )", tolerance: "0.01" }],
    ["assert.IsType: the object is checked", "\tassert.IsType(t, &Err{}, Parse(s))\n", { strength: 2, expected: "& Err { }", actual: "Parse ( s )" }],
    ["assert.True(t, true) is a tautology", "\tassert.True(t, true)\n", { strength: 0, tautology: true }],
    ["assert.Equal(t, x, x) is a tautology", "\tassert.Equal(t, x, x)\n", { strength: 0, tautology: true }],
  ])("%s", async (_title, statement, expected) => {
    const [test] = await testsOf(`func TestAdd(t *testing.T) {\n${statement}}\n`);
    expect(test?.assertionCount).toBe(1);
    expect(test?.assertionsDetail?.[0]).toMatchObject(expected);
  });

  it("if err != nil || got != want { t.Errorf } is two checks, one per disjunct, as two ifs would be", async () => {
    const [test] = await testsOf('func TestParse(t *testing.T) {\n\tgot, err := Parse("7")\n\tif err != nil || got != 7 {\n\t\tt.Errorf("got %d, %v", got, err)\n\t}\n}\n');
    expect(test?.assertionCount).toBe(2);
    expect(test?.assertionsDetail).toMatchObject([
      { matcher: "if t.Errorf", strength: 1 },
      { matcher: "if != t.Errorf", strength: 3, actual: "got", actualValue: 'Parse ( "7" )', expected: "7" },
    ]);
  });

  it("a negated disjunction guard is one check: !(a || b) states that one of them holds", async () => {
    const [test] = await testsOf('func TestParse(t *testing.T) {\n\tif !(a || b) {\n\t\tt.Error("x")\n\t}\n}\n');
    expect(test?.assertionCount).toBe(1);
  });

  it("err.Error() is not an assertion", async () => {
    const [test] = await testsOf("func TestAdd(t *testing.T) {\n\t_ = err.Error()\n}\n");
    expect(test?.assertionCount).toBe(0);
  });
});

describe("go: testify suites", () => {
  const suiteFile = (methods: string) =>
    `package calc\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/suite"\n)\n\ntype CalcSuite struct{ suite.Suite }\n\n${methods}\nfunc TestCalc(t *testing.T) { suite.Run(t, new(CalcSuite)) }\n`;

  it("sees Test* methods of a suite with their assertions", async () => {
    const facts = await extractFacts("calc_test.go", suiteFile("func (s *CalcSuite) TestAdd() {\n\ts.Equal(2, Add(1, 1))\n\ts.Require().NoError(err)\n}\n\nfunc (s *CalcSuite) SetupTest() {}\n"));
    expect(facts.tests.map((test) => test.id)).toEqual(["CalcSuite > TestAdd", "TestCalc"]);
    expect(facts.tests[0]?.assertionsDetail).toMatchObject([
      { matcher: "s.Equal", strength: 3, expected: "2", actual: "Add ( 1 , 1 )" },
      { matcher: "s.NoError", strength: 1 },
    ]);
  });

  it("deleting a suite method is a test_deletion", async () => {
    const method = "func (s *CalcSuite) TestAdd() {\n\ts.Equal(2, Add(1, 1))\n}\n";
    const analysis = await analyzeChanges([{ path: "calc_test.go", before: suiteFile(method), after: suiteFile("") }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual([["test_deletion", "CalcSuite > TestAdd"]]);
  });
});

describe("go: renames out of discovery", () => {
  it.each([
    ["TestX -> testX", "testAdd", [["test_disabled", "TestAdd"]]],
    ["TestX -> TestY keeps running", "TestSum", []],
  ])("%s", async (_title, newName, expected) => {
    const file = (name: string) => `package calc\n\nimport "testing"\n\nfunc ${name}(t *testing.T) {\n\tif Add(1) != 2 {\n\t\tt.Error("x")\n\t}\n}\n`;
    const analysis = await analyzeChanges([{ path: "calc_test.go", before: file("TestAdd"), after: file(newName) }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });
});

describe("go: an error check handed to a Must wrapper that panics on the error", () => {
  const parse = 'func NewVersion(s string) (*Version, error) {\n\tif s == "" {\n\t\treturn nil, errors.New("empty")\n\t}\n\treturn &Version{s}, nil\n}\n';
  const product = (must: string): string =>
    `package semver\n\nimport "errors"\n\ntype Version struct{ s string }\n\n${parse}\n${must}\nfunc (v *Version) Equal(o *Version) bool {\n\tif v == nil || o == nil {\n\t\treturn v == o\n\t}\n\treturn v.s == o.s\n}\n`;
  const panics = "func MustParse(s string) *Version {\n\tv, err := NewVersion(s)\n\tif err != nil {\n\t\tpanic(err)\n\t}\n\treturn v\n}\n";
  const swallows = "func MustParse(s string) *Version {\n\tv, err := NewVersion(s)\n\tif err != nil {\n\t\treturn nil\n\t}\n\treturn v\n}\n";
  const before =
    'package semver\n\nimport "testing"\n\nfunc TestEqual(t *testing.T) {\n\tfor _, tc := range []struct {\n\t\tv1, v2 string\n\t\twant   bool\n\t}{\n\t\t{"1.2.3", "1.2.3", true},\n\t} {\n\t\tv1, err := NewVersion(tc.v1)\n\t\tif err != nil {\n\t\t\tt.Errorf("parse: %v", err)\n\t\t}\n\t\tv2, err := NewVersion(tc.v2)\n\t\tif err != nil {\n\t\t\tt.Errorf("parse: %v", err)\n\t\t}\n\t\tif v1.Equal(v2) != tc.want {\n\t\t\tt.Errorf("Equal")\n\t\t}\n\t}\n}\n';
  const viaMust =
    'package semver\n\nimport "testing"\n\nfunc TestEqual(t *testing.T) {\n\tfor _, tc := range []struct {\n\t\tv1, v2 *Version\n\t\twant   bool\n\t}{\n\t\t{MustParse("1.2.3"), MustParse("1.2.3"), true},\n\t\t{nil, nil, true},\n\t} {\n\t\tif tc.v1.Equal(tc.v2) != tc.want {\n\t\t\tt.Errorf("Equal")\n\t\t}\n\t}\n}\n';
  const discarded = before.replace(
    /v1, err := NewVersion\(tc.v1\)\n\t\tif err != nil \{\n\t\t\tt.Errorf\("parse: %v", err\)\n\t\t\}\n\t\tv2, err := NewVersion\(tc.v2\)\n\t\tif err != nil \{\n\t\t\tt.Errorf\("parse: %v", err\)\n\t\t\}/,
    "v1, _ := NewVersion(tc.v1)\n\t\tv2, _ := NewVersion(tc.v2)",
  );
  const findings = async (test: string, must: string): Promise<string[]> =>
    (
      await analyzeChanges([
        { path: "version_test.go", before, after: test },
        { path: "version.go", before: product(""), after: product(must) },
      ])
    ).findings.map((finding) => `${finding.type}/${finding.severity}`);

  it("rows built with a wrapper that panics on the parse error check it still: no finding", async () => {
    expect(discarded).not.toBe(before);
    expect(await findings(viaMust, panics)).toEqual([]);
  });

  it("a wrapper that swallows the error checks nothing: the error checks are removed", async () => {
    expect(await findings(viaMust, swallows)).toEqual(["assertion_removal/high"]);
  });

  it("the error discarded while the test still calls the parser: removed", async () => {
    expect(await findings(discarded, panics)).toEqual(["assertion_removal/high"]);
  });
});

describe("go: a check that two results of one function are equal, the function made stateful", () => {
  const product = (body: string): string => `package tid\n\n${body}`;
  const pure = "func Next(seed int) int {\n\treturn seed * 7\n}\n";
  const counting = "var calls int\n\nfunc Next(seed int) int {\n\tcalls++\n\treturn seed*7 + calls\n}\n";
  const other = "func Next(seed int) int {\n\treturn seed * 8\n}\n";
  const test = (extra: string): string =>
    `package tid\n\nimport "testing"\n\nfunc TestNext(t *testing.T) {\n\tif Next(2) == 0 {\n\t\tt.Errorf("zero")\n\t}\n\ta := Next(3)\n\tb := Next(3)\n\tc := 0\n\t_ = c\n\tc++\n\tc++\n\tc++\n${extra}}\n`;
  const same = '\tif a != b {\n\t\tt.Errorf("expected the same, got %d and %d", a, b)\n\t}\n';
  const findings = async (after: string): Promise<string[]> =>
    (
      await analyzeChanges([
        { path: "tid_test.go", before: test(same), after: test("") },
        { path: "tid.go", before: product(pure), after: product(after) },
      ])
    ).findings.map((finding) => `${finding.type}/${finding.severity}`);

  it("the function now updates state: the check went with the behaviour (feature_removal, medium)", async () => {
    expect(await findings(counting)).toEqual(["feature_removal/medium"]);
  });

  it("the function stays pure: the check is removed", async () => {
    expect(await findings(other)).toEqual(["assertion_removal/high"]);
  });
});
