/**
 * Rows of a table test that expected a refusal, removed as the change makes
 * the code accept their input (rules/accepted-refusals.ts acceptedRows;
 * sweep of google/go-cmp 391980c4b2: `SortSlices` accepts a compare function
 * as well as a less function, so the TestPanic rows expecting "invalid less
 * function" for `strings.Compare` went and TestOptions gained rows sorting
 * with a compare function). The rows' message is a guard's the change
 * redecided (its condition rewritten, its message reworded) in a function
 * the rows name, and a row added to another table checks what that
 * function now accepts: expectation_changed medium. The same rows removed
 * with the guard kept as it decided, or with nothing accepting the
 * function's input anew, are still lost rows.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

interface Shape {
  lang: string;
  product: [path: string, before: string, redecided: string, kept: string];
  /** The refusal table test file before and after (rows removed, the rest re-expected). */
  refusals: [path: string, before: string, after: string];
  /** The accepting table test file before and after (a row added that sorts with a compare function). */
  accepting: [path: string, before: string, after: string];
  id: string;
}

const goProduct = (condition: string, message: string): string =>
  `package sorts\n\nimport "reflect"\n\nfunc SortSlices(fn interface{}) Option {\n\tvf := reflect.ValueOf(fn)\n\tif ${condition} || vf.IsNil() {\n\t\tpanic("${message}")\n\t}\n\treturn option{fn: vf}\n}\n`;
const goPanics = (rows: string): string =>
  `package sorts\n\nimport (\n\t"strings"\n\t"testing"\n)\n\nfunc TestPanic(t *testing.T) {\n\ttests := []struct {\n\t\tlabel     string\n\t\tfnc       interface{}\n\t\targs      []interface{}\n\t\twantPanic string\n\t}{${rows}}\n\tfor _, tt := range tests {\n\t\tt.Run(tt.label, func(t *testing.T) {\n\t\t\tgot := catchPanic(tt.fnc, tt.args)\n\t\t\tif !strings.Contains(got, tt.wantPanic) {\n\t\t\t\tt.Fatalf("panic: got %s, want %s", got, tt.wantPanic)\n\t\t\t}\n\t\t})\n\t}\n}\n`;
const goRow = (args: string, message: string): string => `{\n\t\tlabel:     "SortSlices",\n\t\tfnc:       SortSlices,\n\t\targs:      args(${args}),\n\t\twantPanic: "${message}",\n\t}, `;
const goOptions = (rows: string): string =>
  `package sorts\n\nimport "testing"\n\nfunc TestOptions(t *testing.T) {\n\ttests := []struct {\n\t\tlabel     string\n\t\tx, y      []int\n\t\topts      []Option\n\t\twantEqual bool\n\t}{${rows}}\n\tfor _, tt := range tests {\n\t\tif got := Equal(tt.x, tt.y, tt.opts...); got != tt.wantEqual {\n\t\t\tt.Errorf("%s: Equal = %v", tt.label, got)\n\t\t}\n\t}\n}\n`;
const goOption = (fn: string): string =>
  `{\n\t\tlabel:     "SortSlices",\n\t\tx:         []int{1, 2},\n\t\ty:         []int{2, 1},\n\t\topts:      []Option{SortSlices(${fn})},\n\t\twantEqual: true,\n\t}, `;

const pyProduct = (condition: string, message: string): string => `def sort_slices(fn):\n    if ${condition}:\n        raise TypeError("${message}")\n    return Option(fn)\n`;
const pyPanics = (rows: string): string =>
  `import pytest\nfrom sorts import sort_slices\n\n\n@pytest.mark.parametrize("fn, message", [${rows}])\ndef test_rejects(fn, message):\n    with pytest.raises(TypeError, match=message):\n        sort_slices(fn)\n`;
const pyOptions = (rows: string): string =>
  `import pytest\nfrom sorts import equal, sort_slices\n\n\n@pytest.mark.parametrize("x, y, fn", [${rows}])\ndef test_sorted_equal(x, y, fn):\n    assert equal(x, y, sort_slices(fn))\n`;

const SHAPES: Shape[] = [
  {
    lang: "go",
    product: [
      "sort.go",
      goProduct("!isLess(vf.Type())", "invalid less function"),
      goProduct("(!isLess(vf.Type()) && !isCompare(vf.Type()))", "invalid less or compare function"),
      goProduct("!isLess(vf.Type())", "invalid less or compare function"),
    ],
    refusals: [
      "panic_test.go",
      goPanics(goRow("strings.Compare", "invalid less function") + goRow("(func(_, _ int) bool)(nil)", "invalid less function") + goRow("nil", "invalid less function")),
      goPanics(goRow("(func(_, _ int) bool)(nil)", "invalid less or compare function") + goRow("nil", "invalid less or compare function")),
    ],
    accepting: [
      "options_test.go",
      goOptions(goOption("func(x, y int) bool { return x < y }")),
      goOptions(goOption("func(x, y int) bool { return x < y }") + goOption("func(x, y int) int { return x - y }")),
    ],
    id: "TestPanic",
  },
  {
    lang: "python",
    product: [
      "sorts.py",
      pyProduct("not is_less(fn)", "invalid less function"),
      pyProduct("not is_less(fn) and not is_compare(fn)", "invalid less or compare function"),
      pyProduct("not is_less(fn)", "invalid less or compare function"),
    ],
    refusals: [
      "tests/test_rejects.py",
      pyPanics(`(cmp_strings, "invalid less function"), (None, "invalid less function"), (42, "invalid less function")`),
      pyPanics(`(None, "invalid less or compare function"), (42, "invalid less or compare function")`),
    ],
    accepting: ["tests/test_options.py", pyOptions(`([1, 2], [2, 1], lambda a, b: a < b)`), pyOptions(`([1, 2], [2, 1], lambda a, b: a < b), ([3, 4], [4, 3], lambda a, b: a - b)`)],
    id: "test_rejects",
  },
];

describe("refusal rows removed as the change accepts their input, a new row checking what it accepts: expectation_changed", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    const [path, before, redecided] = shape.product;
    await expectFindings({
      name: shape.lang,
      changes: [change(path, before, redecided), change(...shape.refusals), change(...shape.accepting)],
      findings: [`expectation_changed/medium ${shape.refusals[0]} "${shape.id}"`],
    });
  });
});

describe("the same rows removed while the refusal decides as it did (message reworded only): still lost", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    const [path, before, , kept] = shape.product;
    await expectFindings({
      name: shape.lang,
      changes: [change(path, before, kept), change(...shape.refusals), change(...shape.accepting)],
      findings: [`test_deletion/critical ${shape.refusals[0]} "${shape.id}"`],
    });
  });
});

describe("the same rows removed with the refusal redecided but nothing checking what it now accepts: still lost", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    const [path, before, redecided] = shape.product;
    await expectFindings({
      name: shape.lang,
      changes: [change(path, before, redecided), change(...shape.refusals)],
      findings: [`test_deletion/critical ${shape.refusals[0]} "${shape.id}"`],
    });
  });
});
