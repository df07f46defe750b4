/**
 * Rejection rows dropped as the feature lands (checks/rejection.ts; sweep of
 * google/go-cmp 391980c4b2): a row of a rejection table (a wanted panic or
 * error) removed while the product code changes and the same input arrives in
 * a table that checks the accepted answer is not a lost test. The same row
 * removed with no product change, or with its input checked nowhere, or moved
 * only into another rejection table, is still a test_deletion.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const SORT_BEFORE =
  'package p\n\nimport "reflect"\n\nfunc Sort(s []int, less interface{}) []int {\n\tk := reflect.TypeOf(less)\n\tif k == nil || k.Kind() != reflect.Func || k.Out(0).Kind() != reflect.Bool {\n\t\tpanic("invalid less function")\n\t}\n\treturn s\n}\n';
const SORT_AFTER =
  'package p\n\nimport "reflect"\n\nfunc Sort(s []int, less interface{}) []int {\n\tk := reflect.TypeOf(less)\n\tif k == nil || k.Kind() != reflect.Func {\n\t\tpanic("invalid less or compare function")\n\t}\n\tif o := k.Out(0).Kind(); o != reflect.Bool && o != reflect.Int {\n\t\tpanic("invalid less or compare function")\n\t}\n\treturn s\n}\n';

/** A Go test file with a positive table and a panic table, from their rows. */
function goTests(accepted: string[], rejected: string[]): string {
  return [
    'package p\n\nimport (\n\t"reflect"\n\t"testing"\n)\n',
    "func TestSort(t *testing.T) {\n\ttests := []struct {\n\t\tlabel string\n\t\tless  interface{}\n\t\twant  []int\n\t}{",
    ...accepted.map((row) => `\t\t${row},`),
    '\t}\n\tfor _, tt := range tests {\n\t\tif got := Sort([]int{2, 1}, tt.less); !reflect.DeepEqual(got, tt.want) {\n\t\t\tt.Errorf("%s: got %v", tt.label, got)\n\t\t}\n\t}\n}\n',
    "func TestPanic(t *testing.T) {\n\ttests := []struct {\n\t\tlabel     string\n\t\tless      interface{}\n\t\twantPanic string\n\t}{",
    ...rejected.map((row) => `\t\t${row},`),
    '\t}\n\tfor _, tt := range tests {\n\t\tfunc() {\n\t\t\tdefer func() {\n\t\t\t\tif got := recover(); got != tt.wantPanic {\n\t\t\t\t\tt.Errorf("%s: panic %v", tt.label, got)\n\t\t\t\t}\n\t\t\t}()\n\t\t\tSort([]int{2, 1}, tt.less)\n\t\t}()\n\t}\n}\n',
  ].join("\n");
}

const ASC = '{label: "asc", less: func(x, y int) bool { return x < y }, want: []int{1, 2}}';
const CMP_ACCEPTED = '{label: "compare func", less: func(x, y int) int { return x - y }, want: []int{1, 2}}';
const CMP_REJECTED = '{label: "compare func", less: func(x, y int) int { return x - y }, wantPanic: "invalid less function"}';
const NOT_FUNC = '{label: "not a func", less: 5, wantPanic: "invalid less function"}';
const NIL_FUNC = '{label: "nil func", less: nil, wantPanic: "invalid less function"}';

const lookAlikes: RuleCase[] = [
  {
    name: "go: the rejected input moves to an accepted table in a new test file as the code starts accepting it",
    changes: [
      change("sort.go", SORT_BEFORE, SORT_AFTER),
      change("sort_test.go", goTests([ASC], [CMP_REJECTED, NOT_FUNC]), goTests([ASC], [NOT_FUNC]).replaceAll("invalid less function", "invalid less or compare function")),
      change("compare_test.go", null, goTests([CMP_ACCEPTED], []).replace("TestSort(", "TestSortCompare(").replace("TestPanic(", "TestPanicCompare(")),
    ],
    findings: [],
  },
  {
    name: "go: the rejected input accepted while the other rejection rows follow a new message",
    changes: [
      change("sort.go", SORT_BEFORE, SORT_AFTER),
      change(
        "sort_test.go",
        goTests([ASC], [CMP_REJECTED, NOT_FUNC, NIL_FUNC]),
        goTests(
          [ASC, CMP_ACCEPTED],
          [NOT_FUNC, NIL_FUNC].map((row) => row.replace("invalid less function", "invalid less or compare function")),
        ),
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "go: a rejection row removed with no product change, its input moved to the accepted table",
    changes: [change("sort_test.go", goTests([ASC], [CMP_REJECTED, NOT_FUNC]), goTests([ASC, CMP_ACCEPTED], [NOT_FUNC]))],
    findings: [`test_deletion/critical sort_test.go "TestPanic"`],
  },
  {
    name: "go: a rejection row removed with a product change, its input checked nowhere",
    changes: [change("sort.go", SORT_BEFORE, SORT_AFTER), change("sort_test.go", goTests([ASC], [CMP_REJECTED, NOT_FUNC]), goTests([ASC], [NOT_FUNC]))],
    findings: [`test_deletion/critical sort_test.go "TestPanic"`],
  },
  {
    name: "go: a rejection row removed with a product change, an accepted row with another input added",
    changes: [change("sort.go", SORT_BEFORE, SORT_AFTER), change("sort_test.go", goTests([ASC], [CMP_REJECTED, NOT_FUNC]), goTests([ASC, CMP_ACCEPTED.replace("x - y", "y - x")], [NOT_FUNC]))],
    findings: [`test_deletion/critical sort_test.go "TestPanic"`],
  },
];

describe("rejection rows dropped as the code starts accepting their input: not lost", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("rejection rows dropped while their input is not accepted elsewhere: test_deletion", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
