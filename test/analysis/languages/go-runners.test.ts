/**
 * Go table tests rewritten over one shared runner (issue 9; sweep of
 * spf13/cast 4e7df044b1: `runSliceTests[T](t, testCases, cast.ToBoolSlice,
 * cast.ToBoolSliceE)`): library assertions of a local check the value it
 * was bound to, an external test package's qualifier of its package is
 * dropped, a test handing its literal table to a runner that ranges over it
 * has that table's rows, and row fields read under other names
 * (`test.expect`, `testCase.expected`) are the same columns.
 */
import { describe, expect, it } from "vitest";
import { toCheck } from "../../../src/analysis/checks/index.js";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";

const QT = `\tqt "github.com/frankban/quicktest"`;
const file = (pkg: string, imports: string, body: string): string => `package ${pkg}\n\nimport (\n\t"testing"\n${imports}\n)\n\n${body}`;

/** `relation(subject, expected)` of each check of the file's first test. */
async function checks(source: string): Promise<string[]> {
  const facts = await extractFacts("cast_test.go", source);
  return (facts.tests[0]?.assertionsDetail ?? []).map(toCheck).map((check) => `${check.isNegated ? "not " : ""}${check.relation}(${check.subject}, ${check.expected ?? ""})`);
}

describe("go: library assertions of a local check what it was bound to", () => {
  it.each([
    ["quicktest after v, err :=", QT, "\tc := qt.New(t)\n\tv, err := ToIntE(in)\n\tc.Assert(err, qt.IsNil)\n\tc.Assert(v, qt.Equals, 1)", ["nullish(ToIntE(in), )", "equal(ToIntE(in), 1)"]],
    ["quicktest after a reassignment", QT, "\tc := qt.New(t)\n\tv, _ := ToIntE(in)\n\tv = ToInt(in)\n\tc.Assert(v, qt.Equals, 1)", ["equal(ToInt(in), 1)"]],
    ["testify in a nested block", `\t"github.com/stretchr/testify/assert"`, "\tgot := Sum(2)\n\tif ok {\n\t\tassert.Equal(t, 4, got)\n\t}", ["equal(Sum(2), 4)"]],
    ["a local bound in another function is not seen", QT, "\tc := qt.New(t)\n\tc.Assert(v, qt.Equals, 1)", ["equal(v, 1)"]],
  ])("%s", async (_title, imports, body, expected) => {
    expect(await checks(file("cast", imports, `func TestX(t *testing.T) {\n${body}\n}\n`))).toEqual(expected);
  });
});

describe("go: an external test package reads its package's names unqualified", () => {
  it.each([
    ["package cast_test importing .../cast", "cast_test", `${QT}\n\t"github.com/spf13/cast"`, "equal(ToInt(1), 1)"],
    ["an aliased import of the package", "cast_test", `${QT}\n\tcast "github.com/spf13/cast/v2"`, "equal(ToInt(1), 1)"],
    ["an internal test package keeps the qualifier", "cast", `${QT}\n\t"github.com/spf13/cast"`, "equal(cast.ToInt(1), 1)"],
    ["another package's qualifier stays", "other_test", `${QT}\n\t"github.com/spf13/cast"`, "equal(cast.ToInt(1), 1)"],
  ])("%s", async (_title, pkg, imports, expected) => {
    const body = "func TestX(t *testing.T) {\n\tc := qt.New(t)\n\tc.Assert(cast.ToInt(1), qt.Equals, 1)\n}\n";
    expect(await checks(file(pkg, imports, body))).toEqual([expected]);
  });
});

const RUNNER = `type testCase struct {
\tinput    any
\texpected any
\tisErr    bool
}

func runTests[T any](t *testing.T, testCases []testCase, to func(i any) T, toErr func(i any) (T, error)) {
\tfor _, testCase := range testCases {
\t\tt.Run("", func(t *testing.T) {
\t\t\tc := qt.New(t)
\t\t\tc.Assert(to(testCase.input), qt.DeepEquals, testCase.expected)
\t\t\tv, err := toErr(testCase.input)
\t\t\tif testCase.isErr {
\t\t\t\tc.Assert(err, qt.IsNotNil)
\t\t\t} else {
\t\t\t\tc.Assert(err, qt.IsNil)
\t\t\t\tc.Assert(v, qt.DeepEquals, testCase.expected)
\t\t\t}
\t\t})
\t}
}
`;

const runnerTest = (rows: string): string => `func TestInt(t *testing.T) {\n\ttestCases := []testCase{\n${rows}\t}\n\n\trunTests(t, testCases, cast.ToInt, cast.ToIntE)\n}\n`;

const ROWS = '\t\t{1, 1, false},\n\t\t{"2", 2, false},\n\t\t{"x", 0, true},\n';

const perTypeTest = (rows: string): string => `func TestToIntE(t *testing.T) {
\tc := qt.New(t)
\ttests := []struct {
\t\tinput  interface{}
\t\texpect int
\t\tiserr  bool
\t}{
${rows}\t}
\tfor _, test := range tests {
\t\tv, err := ToIntE(test.input)
\t\tif test.iserr {
\t\t\tc.Assert(err, qt.IsNotNil)
\t\t\tcontinue
\t\t}
\t\tc.Assert(err, qt.IsNil)
\t\tc.Assert(v, qt.DeepEquals, test.expect)
\t\tc.Assert(ToInt(test.input), qt.DeepEquals, test.expect)
\t}
}
`;

describe("go: a test handing its table to a runner", () => {
  it("has the table's rows when the runner ranges over that parameter", async () => {
    const facts = await extractFacts("cast_test.go", file("cast_test", `${QT}\n\t"github.com/spf13/cast"`, `${RUNNER}\n${runnerTest(ROWS)}`));
    expect(facts.tests.find((test) => test.name === "TestInt")?.eachRowLiterals).toEqual([
      ["1", "1", "false"],
      ['"2"', "2", "false"],
      ['"x"', "0", "true"],
    ]);
  });

  it("has no rows when the runner does not range over it", async () => {
    const runner = "func runTests(t *testing.T, testCases []testCase, to func(i any) int, toErr func(i any) (int, error)) {\n\tc := qt.New(t)\n\tc.Assert(to(1), qt.Equals, 1)\n}\n";
    const facts = await extractFacts("cast_test.go", file("cast_test", `${QT}\n\t"github.com/spf13/cast"`, `type testCase struct{ input any }\n\n${runner}\n${runnerTest(ROWS)}`));
    expect(facts.tests.find((test) => test.name === "TestInt")?.eachRowLiterals).toBeUndefined();
  });

  it("conserves a per-type table test moved into the runner with every row", async () => {
    const analysis = await analyzeChanges([
      { path: "cast_test.go", before: file("cast", QT, perTypeTest(ROWS)), after: file("cast_test", `${QT}\n\t"github.com/spf13/cast"`, `${RUNNER}\n${runnerTest(ROWS)}`) },
    ]);
    expect(analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high")).toEqual([]);
  });

  it("still reports a row dropped in the move", async () => {
    const analysis = await analyzeChanges([
      {
        path: "cast_test.go",
        before: file("cast", QT, perTypeTest(ROWS)),
        after: file("cast_test", `${QT}\n\t"github.com/spf13/cast"`, `${RUNNER}\n${runnerTest('\t\t{1, 1, false},\n\t\t{"x", 0, true},\n')}`),
      },
    ]);
    expect(analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => finding.type)).not.toEqual([]);
  });

  it("still reports a runner that no longer checks the value", async () => {
    const weak = RUNNER.replace("\t\t\t\tc.Assert(v, qt.DeepEquals, testCase.expected)\n", "").replace("\t\t\tc.Assert(to(testCase.input), qt.DeepEquals, testCase.expected)\n", "");
    const analysis = await analyzeChanges([
      { path: "cast_test.go", before: file("cast", QT, perTypeTest(ROWS)), after: file("cast_test", `${QT}\n\t"github.com/spf13/cast"`, `${weak}\n${runnerTest(ROWS)}`) },
    ]);
    expect(analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => finding.type)).not.toEqual([]);
  });
});

describe("go: a runner over rows of a struct another file of the package declares", () => {
  const typeFile = file("cast_test", "", "type testCase struct {\n\tinput    any\n\texpected any\n\tisErr    bool\n}\n").replace('import (\n\t"testing"\n\n)\n\n', "");
  const runnerFile = (rows: string): string => file("cast_test", `${QT}\n\t"github.com/spf13/cast"`, `${RUNNER.replace(/^type testCase struct \{[^}]*\}\n\n/, "")}\n${runnerTest(rows)}`);
  const highs = async (rows: string): Promise<string[]> => {
    const analysis = await analyzeChanges([
      { path: "cast_test.go", before: file("cast", QT, perTypeTest(ROWS)), after: runnerFile(rows) },
      { path: "types_test.go", before: null, after: typeFile },
    ]);
    return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => finding.type);
  };

  it("reads the row columns from the file declaring the struct", async () => {
    expect(await highs(ROWS)).toEqual([]);
  });

  it("still reports a row dropped in the move", async () => {
    expect(await highs('\t\t{1, 1, false},\n\t\t{"2", 2, false},\n')).not.toEqual([]);
  });

  const highsWithTree = async (rows: string): Promise<string[]> => {
    const tree: Record<string, string> = { "types_test.go": typeFile, "cast.go": "package cast\n" };
    const analysis = await analyzeChanges([{ path: "cast_test.go", before: file("cast", QT, perTypeTest(ROWS)), after: runnerFile(rows) }], {
      unchanged: { paths: () => Object.keys(tree), read: (path) => tree[path] ?? null },
    });
    return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => finding.type);
  };

  it("reads them from an unchanged file of the tree", async () => {
    expect(await highsWithTree(ROWS)).toEqual([]);
  });

  it("still reports a row dropped when the struct is in an unchanged file", async () => {
    expect(await highsWithTree('\t\t{1, 1, false},\n\t\t{"2", 2, false},\n')).not.toEqual([]);
  });
});
