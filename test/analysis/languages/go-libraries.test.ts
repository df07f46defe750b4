/**
 * Go assertion libraries read as checks (issue 9; sweep of spf13/cast
 * 4e7df044b1, whose quicktest tests showed no check): quicktest v1 and v2,
 * Gomega, matryer/is and gotest.tools, each with its relation, negation and
 * expected value, and only when the file imports the library.
 */
import { describe, expect, it } from "vitest";
import { toCheck } from "../../../src/analysis/checks/index.js";
import { extractFacts } from "../../../src/analysis/index.js";

const test = (imports: string, body: string): string => `package cast\n\nimport (\n\t"testing"\n${imports}\n)\n\nfunc TestX(t *testing.T) {\n${body}\n}\n`;

/** `[not ]relation(subject, expected)/strength` of each check of the file's test. */
async function checks(source: string): Promise<string[]> {
  const facts = await extractFacts("cast_test.go", source);
  return (facts.tests[0]?.assertionsDetail ?? []).map(toCheck).map((check) => `${check.isNegated ? "not " : ""}${check.relation}(${check.subject}, ${check.expected ?? ""})/${check.strength}`);
}

describe("Go assertion libraries", () => {
  it.each([
    ["quicktest v1 Equals", `\tqt "github.com/frankban/quicktest"`, '\tc := qt.New(t)\n\tc.Assert(Trim("1.0"), qt.Equals, "1")', ['equal(Trim("1.0"), "1")/3']],
    ["quicktest v1 DeepEquals by Check", `\tqt "github.com/frankban/quicktest"`, "\tc := qt.New(t)\n\tc.Check(v, qt.DeepEquals, []int{1})", ["equal(v, []int{1})/3"]],
    ["quicktest v1 IsNil", `\tqt "github.com/frankban/quicktest"`, "\tc := qt.New(t)\n\tc.Assert(err, qt.IsNil)", ["nullish(err, )/2"]],
    ["quicktest v1 Not(IsNil)", `\tqt "github.com/frankban/quicktest"`, "\tc := qt.New(t)\n\tc.Assert(err, qt.Not(qt.IsNil))", ["not nullish(err, )/1"]],
    ["quicktest v1 HasLen", `\tqt "github.com/frankban/quicktest"`, "\tc := qt.New(t)\n\tc.Assert(xs, qt.HasLen, 2)", ["length(xs, 2)/3"]],
    ["quicktest v1 CmpEquals with options", `\tqt "github.com/frankban/quicktest"`, "\tc := qt.New(t)\n\tc.Assert(v, qt.CmpEquals(opts), want)", ["equal(v, want)/3"]],
    ["quicktest v1 top-level Assert", `\tqt "github.com/frankban/quicktest"`, "\tqt.Assert(t, v, qt.Equals, 3)", ["equal(v, 3)/3"]],
    ["quicktest v2 Equals", `\t"github.com/go-quicktest/qt"`, "\tqt.Assert(t, qt.Equals(v, 3))", ["equal(v, 3)/3"]],
    ["quicktest v2 Not(IsNil)", `\t"github.com/go-quicktest/qt"`, "\tqt.Check(t, qt.Not(qt.IsNil(err)))", ["not nullish(err, )/1"]],
    ["Gomega Expect To Equal", `\t. "github.com/onsi/gomega"`, "\tg := NewWithT(t)\n\tg.Expect(v).To(Equal(3))", ["equal(v, 3)/3"]],
    ["Gomega NotTo HaveOccurred", `\t. "github.com/onsi/gomega"`, "\tg := NewWithT(t)\n\tg.Expect(err).NotTo(HaveOccurred())", ["not defined(err, )/1"]],
    ["Gomega HaveLen qualified", `\t"github.com/onsi/gomega"`, "\tg := gomega.NewWithT(t)\n\tg.Expect(xs).To(gomega.HaveLen(2))", ["length(xs, 2)/3"]],
    ["Gomega Not(Equal)", `\t. "github.com/onsi/gomega"`, "\tg := NewWithT(t)\n\tg.Expect(v).To(Not(Equal(3)))", ["not equal(v, 3)/1"]],
    ["matryer/is Equal", `\t"github.com/matryer/is"`, '\tis := is.New(t)\n\tis.Equal(Trim("1.0"), "1")', ['equal(Trim("1.0"), "1")/3']],
    ["matryer/is NoErr", `\t"github.com/matryer/is"`, "\tis := is.New(t)\n\tis.NoErr(err)", ["defined(err, )/1"]],
    ["gotest.tools DeepEqual (got first)", `\t"gotest.tools/v3/assert"`, "\tassert.DeepEqual(t, got, []int{1})", ["equal(got, []int{1})/3"]],
    ["gotest.tools Error pins the message", `\t"gotest.tools/v3/assert"`, '\tassert.Error(t, err, "bad input")', ['throws(err, |"bad input")/2']],
    ["testify is read as before", `\t"github.com/stretchr/testify/assert"`, "\tassert.Equal(t, 3, v)", ["equal(v, 3)/3"]],
    ["a quicktest tautology", `\tqt "github.com/frankban/quicktest"`, "\tc := qt.New(t)\n\tc.Assert(v, qt.Equals, v)", ["equal(v, v)/0"]],
    [
      "go-cmp Diff compared with the empty string",
      `\t"github.com/google/go-cmp/cmp"`,
      '\tif diff := cmp.Diff(want, Values(in)); diff != "" {\n\t\tt.Errorf("mismatch: %s", diff)\n\t}',
      ["equal(want, Values(in))/3"],
    ],
    ["go-cmp Diff inline", `\t"github.com/google/go-cmp/cmp"`, '\tif cmp.Diff(want, got) != "" {\n\t\tt.Error("mismatch")\n\t}', ["equal(want, got)/3"]],
    ["!reflect.DeepEqual as before", `\t"reflect"`, "\tif !reflect.DeepEqual(got, want) {\n\t\tt.Error(got)\n\t}", ["equal(got, want)/3"]],
    // backoff a78d3804c2: `err.Error() != "error (3)"` -> `!errors.Is(err, context.Canceled)` is no weakening; testify's ErrorIs is as strong.
    [
      "!errors.Is: the identity of the error or one it wraps, as testify ErrorIs",
      `\t"errors"`,
      '\tif !errors.Is(err, context.Canceled) {\n\t\tt.Errorf("unexpected error: %s", err)\n\t}',
      ["equal(err, context.Canceled)/3"],
    ],
    ["errors.Is asserted false stays a weak check", `\t"errors"`, '\tif errors.Is(err, context.Canceled) {\n\t\tt.Error("canceled")\n\t}', ["other(errors.Is(err,context.Canceled), )/1"]],
    ["no import: a method named Assert is no check", "", "\tc := New(t)\n\tc.Assert(v, qt.Equals, 3)", []],
  ])("%s", async (_name, imports, body, expected) => {
    expect(await checks(test(imports, body))).toEqual(expected);
  });
});
