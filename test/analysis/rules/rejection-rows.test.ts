/**
 * Rejection rows dropped as the feature lands (checks/rejection.ts; sweep of
 * google/go-cmp 391980c4b2): a row of a rejection table (a wanted panic or
 * error) removed while the product code changes and the same input arrives in
 * a table that checks the accepted answer is not a lost test. The same row
 * removed with no product change, or with its input checked nowhere else, is
 * still a test_deletion.
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

const NUM_BEFORE = "def parse(s):\n    return int(s)\n";
const NUM_AFTER = "def parse(s):\n    return float(s) if '.' in s else int(s)\n";

/** A pytest module with an accepted table and a rejection table, from their rows (argnames `s, want` and `rejectNames`). */
function pyTests(accepted: string[], rejected: string[], rejectNames = "s"): string {
  const raises = rejectNames === "s" ? "pytest.raises(ValueError)" : "pytest.raises(exc)";
  return [
    "import pytest\nfrom pkg.num import parse\n\n",
    `@pytest.mark.parametrize("s, want", [${accepted.join(", ")}])\ndef test_parses(s, want):\n    assert parse(s) == want\n\n`,
    `@pytest.mark.parametrize("${rejectNames}", [${rejected.join(", ")}])\ndef test_rejects(${rejectNames}):\n    with ${raises}:\n        parse(s)\n`,
  ].join("");
}

const JS_BEFORE = "export function parse(s) {\n  if (!/^\\d+$/.test(s)) throw new RangeError(`not a number: ${s}`);\n  return Number(s);\n}\n";
const JS_AFTER = "export function parse(s) {\n  if (!/^\\d+(\\.\\d+)?$/.test(s)) throw new RangeError(`not a number: ${s}`);\n  return Number(s);\n}\n";

/** A vitest file with an accepted `it.each` table and a rejection table, rows as written (array rows, or object rows with `objects`). */
function jsTests(accepted: string[], rejected: string[], objects = false): string {
  const params = objects ? ["({ s, want })", "({ s })"] : ["(s, want)", "(s)"];
  return [
    'import { expect, it } from "vitest";\nimport { parse } from "../src/num.js";\n\n',
    `it.each([${accepted.join(", ")}])("parses %s", ${params[0]} => {\n  expect(parse(s)).toBe(want);\n});\n\n`,
    `it.each([${rejected.join(", ")}])("rejects %s", ${params[1]} => {\n  expect(() => parse(s)).toThrow(RangeError);\n});\n`,
  ].join("");
}

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
  {
    name: "python: a rejected parametrize value moves to the accepted table as the code starts accepting it",
    changes: [change("pkg/num.py", NUM_BEFORE, NUM_AFTER), change("tests/test_num.py", pyTests(['("1", 1)'], ['"abc"', '"1.5"']), pyTests(['("1", 1)', '("1.5", 1.5)'], ['"abc"']))],
    findings: [],
  },
  {
    name: "python: a rejection row with its exception argname dropped as the input is accepted",
    changes: [
      change("pkg/num.py", NUM_BEFORE, NUM_AFTER),
      change("tests/test_num.py", pyTests(['("1", 1)'], ['("abc", ValueError)', '("1.5", ValueError)'], "s, exc"), pyTests(['("1", 1)', '("1.5", 1.5)'], ['("abc", ValueError)'], "s, exc")),
    ],
    findings: [],
  },
  {
    name: "js: a rejected it.each row moves to the accepted table as the code starts accepting it",
    changes: [change("src/num.js", JS_BEFORE, JS_AFTER), change("test/num.test.js", jsTests(['["1", 1]'], ['["abc"]', '["1.5"]']), jsTests(['["1", 1]', '["1.5", 1.5]'], ['["abc"]']))],
    findings: [],
  },
  {
    name: "js: a rejected object row moves to the accepted table as the code starts accepting it",
    changes: [
      change("src/num.js", JS_BEFORE, JS_AFTER),
      change("test/num.test.js", jsTests(['{ s: "1", want: 1 }'], ['{ s: "abc" }', '{ s: "1.5" }'], true), jsTests(['{ s: "1", want: 1 }', '{ s: "1.5", want: 1.5 }'], ['{ s: "abc" }'], true)),
    ],
    findings: [],
  },
];

// The refusal redecided (its condition rewritten) and a row accepting a compare function added: the rows' refusal is
// gone with the change, judged as an expectation changed (rejection-rows-accepted.test.ts; go-cmp 391980c4b2 fed
// `strings.Compare` to the removed row and a compare literal to the new one).
const reExpected: RuleCase[] = [
  {
    name: "go: a rejection row removed as its refusal is redecided, an accepted row with another input added",
    changes: [change("sort.go", SORT_BEFORE, SORT_AFTER), change("sort_test.go", goTests([ASC], [CMP_REJECTED, NOT_FUNC]), goTests([ASC, CMP_ACCEPTED.replace("x - y", "y - x")], [NOT_FUNC]))],
    findings: [`expectation_changed/medium sort_test.go "TestPanic"`],
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
    name: "go: a rejection row removed with a product change that keeps its refusal deciding as it did, an accepted row with another input added",
    changes: [
      change("sort.go", SORT_BEFORE, SORT_BEFORE.replace("return s\n", "sortInts(s)\n\treturn s\n")),
      change("sort_test.go", goTests([ASC], [CMP_REJECTED, NOT_FUNC]), goTests([ASC, CMP_ACCEPTED.replace("x - y", "y - x")], [NOT_FUNC])),
    ],
    findings: [`test_deletion/critical sort_test.go "TestPanic"`],
  },
  {
    name: "python: a rejected value removed with no product change, moved to the accepted table",
    changes: [change("tests/test_num.py", pyTests(['("1", 1)'], ['"abc"', '"1.5"']), pyTests(['("1", 1)', '("1.5", 1.5)'], ['"abc"']))],
    findings: [`test_deletion/critical tests/test_num.py "test_rejects"`],
  },
  {
    name: "python: a rejected value removed with a product change, checked nowhere",
    changes: [change("pkg/num.py", NUM_BEFORE, NUM_AFTER), change("tests/test_num.py", pyTests(['("1", 1)'], ['"abc"', '"1.5"']), pyTests(['("1", 1)'], ['"abc"']))],
    findings: [`test_deletion/critical tests/test_num.py "test_rejects"`],
  },
  {
    name: "js: a rejected it.each row removed with no product change, moved to the accepted table",
    changes: [change("test/num.test.js", jsTests(['["1", 1]'], ['["abc"]', '["1.5"]']), jsTests(['["1", 1]', '["1.5", 1.5]'], ['["abc"]']))],
    findings: [`test_deletion/critical test/num.test.js "rejects %s"`],
  },
  {
    name: "js: a rejected it.each row removed with a product change, checked nowhere",
    changes: [change("src/num.js", JS_BEFORE, JS_AFTER), change("test/num.test.js", jsTests(['["1", 1]'], ['["abc"]', '["1.5"]']), jsTests(['["1", 1]'], ['["abc"]']))],
    findings: [`test_deletion/critical test/num.test.js "rejects %s"`],
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

// A row's case rebuilt by a new table from a template (checks/rejection.ts isRebuiltFromTemplate; sweep of tox-dev/filelock 0dfa1b20fb).
const CONF_BEFORE =
  'def read(text):\n    fields = dict(line.split("=", 1) for line in text.splitlines())\n    if fields.get("level") not in ("low", "high"):\n        return None\n    return fields\n';
const CONF_AFTER = 'def read(text):\n    fields = dict(line.split("=", 1) for line in text.splitlines())\n    if "level" not in fields:\n        return None\n    return fields\n';
const confRejects = (rows: string[]): string =>
  `import pytest\n\nfrom conf import read\n\n\n@pytest.mark.parametrize(\n    "text",\n    [\n${rows.map((row) => `        ${row},\n`).join("")}    ],\n)\ndef test_unreadable(text):\n    assert read(text) is None\n`;
const confRows = ['"name=a\\nsize=1"', '"name=a\\nsize=1\\nlevel=huge"', '"size=1\\nlevel=low"'];
const confAccepts = (template: string, values: string): string =>
  `\n\n@pytest.mark.parametrize("level", [${values}])\ndef test_any_level_is_read(level):\n    assert read(${template})["level"] == level\n`;
const CONF_TEMPLATE = 'f"name=b\\nsize=9\\nlevel={level}"';

const templateCases: RuleCase[] = [
  {
    name: "python: a rejection row whose odd word a new table feeds through a template of the same shape, the code now accepting it",
    changes: [
      change("conf.py", CONF_BEFORE, CONF_AFTER),
      change("tests/test_conf.py", confRejects(confRows), confRejects([confRows[0] as string, confRows[2] as string]) + confAccepts(CONF_TEMPLATE, '"medium", "huge"')),
    ],
    findings: [],
  },
];

const templateCheats: RuleCase[] = [
  {
    name: "python: the template fills another word where the row's odd word was",
    changes: [
      change("conf.py", CONF_BEFORE, CONF_AFTER),
      change("tests/test_conf.py", confRejects(confRows), confRejects([confRows[0] as string, confRows[2] as string]) + confAccepts(CONF_TEMPLATE, '"medium"')),
    ],
    findings: [`test_deletion/critical tests/test_conf.py "test_unreadable"`],
  },
  {
    name: "python: the template has another shape (a field left out)",
    changes: [
      change("conf.py", CONF_BEFORE, CONF_AFTER),
      change("tests/test_conf.py", confRejects(confRows), confRejects([confRows[0] as string, confRows[2] as string]) + confAccepts('f"name=b\\nlevel={level}"', '"huge"')),
    ],
    findings: [`test_deletion/critical tests/test_conf.py "test_unreadable"`],
  },
  {
    name: "python: the row's case rebuilt from a template while the product did not change",
    changes: [change("tests/test_conf.py", confRejects(confRows), confRejects([confRows[0] as string, confRows[2] as string]) + confAccepts(CONF_TEMPLATE, '"huge"'))],
    findings: [`test_deletion/critical tests/test_conf.py "test_unreadable"`],
  },
];

describe("a rejection row whose case a new table rebuilds from a template", () => {
  it.each(templateCases.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
  it.each(templateCheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a rejection row removed as its refusal is redecided, a row accepting the function's input added: expectation_changed", () => {
  it.each(reExpected.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
