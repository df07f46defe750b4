/**
 * Findings from before/after sources: a table of changes that must pass
 * without findings, and a table of changes that must produce exactly the
 * listed findings (`type/severity file "test"`).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type FileChange, type Finding } from "../../src/analysis/index.js";
import { linksIssue } from "../../src/analysis/compare.js";
import { changesBetween, treeOf, unchangedBetween } from "../helpers/trees.js";

function summarize(finding: Finding): string {
  return `${finding.type}/${finding.severity} ${finding.file}${finding.test ? ` "${finding.test}"` : ""}`;
}

const CART = `describe("cart", () => {
  it("sums", () => { expect(total([1, 2])).toBe(3); });
  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });
  it("rejects negatives", () => { expect(() => total([-1])).toThrow(); });
});
`;

const change = (path: string, before: string | null, after: string | null): FileChange => ({ path, before, after });
/** CART with `lines` added at the end of its suite. */
const addToCart = (lines: string): string => CART.replace(/\}\);\n$/, `${lines}\n});\n`);
const edit = (source: string, from: string, to: string): string => {
  if (!source.includes(from)) throw new Error(`fixture edit: "${from}" not in source`);
  return source.replace(from, to);
};

interface CompareCase {
  name: string;
  changes: FileChange[];
  findings: string[];
}

const TABLE = `test.each([
  [1, 2, 3],
  [0.1, 0.2, 0.3],
  [-1, 1, 0],
])("add(%d, %d) = %d", (a, b, sum) => { expect(add(a, b)).toBe(sum); });
`;
const TAGGED = 'it.each`\n  a    | b    | sum\n  ${1} | ${2} | ${3}\n  ${0} | ${0} | ${0}\n`("$a + $b", ({ a, b, sum }) => { expect(add(a, b)).toBe(sum); });\n';

/** TABLE with its rows in a module-level const, as a suite table. */
const CONST_TABLE = `const CASES = [
  [1, 2, 3],
  [0.1, 0.2, 0.3],
  [-1, 1, 0],
] as const;
describe.each(CASES)("add(%d, %d) = %d", (a, b, sum) => {
  it("adds", () => { expect(add(a, b)).toBe(sum); });
});
`;
/** TABLE with its rows in a const spread from another const. */
const SPREAD_TABLE = `const BASE = [
  [1, 2, 3],
  [0.1, 0.2, 0.3],
];
const ALL = [...BASE, [-1, 1, 0]];
test.each(ALL)("add(%d, %d) = %d", (a, b, sum) => { expect(add(a, b)).toBe(sum); });
`;

const withoutFindings: CompareCase[] = [
  { name: "nothing changed", changes: [change("test/cart.test.ts", CART, CART)], findings: [] },
  {
    name: "a test added",
    changes: [change("test/cart.test.ts", CART, addToCart(`  it("empty", () => { expect(total([])).toBe(0); });`))],
    findings: [],
  },
  {
    name: "a test's body edited in place",
    changes: [change("test/cart.test.ts", CART, edit(CART, "toBe(0.3)", "toBeCloseTo(0.3)"))],
    findings: [],
  },
  {
    name: "a test moved to another file unchanged",
    changes: [
      change("test/cart.test.ts", CART, edit(CART, `  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });\n`, "")),
      change("test/rounding.test.ts", null, `describe("cart", () => {\n  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });\n});\n`),
    ],
    findings: [],
  },
  {
    name: "a test moved to another file and edited (same id)",
    changes: [
      change("test/cart.test.ts", CART, edit(CART, `  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });\n`, "")),
      change("test/rounding.test.ts", null, `describe("cart", () => {\n  it("rounds", () => { expect(total([0.1, 0.2])).toBeCloseTo(0.3); });\n});\n`),
    ],
    findings: [],
  },
  {
    name: "a test renamed, body reformatted and commented",
    changes: [
      change(
        "test/cart.test.ts",
        CART,
        edit(CART, `it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });`, `it("rounds to whole cents", () => {\n    // floating point\n    expect(total([0.1, 0.2],)).toBe(0.3)\n  });`),
      ),
    ],
    findings: [],
  },
  {
    name: "a test renamed and moved into a new suite in another file",
    changes: [
      change("test/cart.test.ts", CART, edit(CART, `  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });\n`, "")),
      change("test/money.test.ts", null, `describe("money", () => { it("rounds sums", () => { expect(total([0.1, 0.2])).toBe(0.3); }); });`),
    ],
    findings: [],
  },
  {
    name: "a test file renamed",
    changes: [change("test/cart.test.ts", CART, null), change("test/cart.spec.ts", null, CART)],
    findings: [],
  },
  {
    name: "a skip removed",
    changes: [change("test/cart.test.ts", edit(CART, `it("rounds"`, `it.skip("rounds"`), CART)],
    findings: [],
  },
  {
    name: "a test that was already skipped stays skipped",
    changes: [change("test/cart.test.ts", edit(CART, `it("rounds"`, `xit("rounds"`), edit(CART, `it("rounds"`, `it.skip("rounds"`))],
    findings: [],
  },
  {
    name: "a new test that arrives skipped",
    changes: [change("test/cart.test.ts", CART, addToCart(`  it.todo("handles currencies");\n  it.skip("later", () => {});`))],
    findings: [],
  },
  {
    name: "a todo filled in",
    changes: [change("test/cart.test.ts", addToCart(`  it.todo("empty");`), addToCart(`  it("empty", () => { expect(total([])).toBe(0); });`))],
    findings: [],
  },
  {
    name: "a row added to an each table",
    changes: [change("test/add.test.ts", TABLE, edit(TABLE, "[-1, 1, 0],", "[-1, 1, 0],\n  [2, 2, 4],"))],
    findings: [],
  },
  {
    name: "a row of an each table edited (an expectation change, not a lost case)",
    changes: [change("test/add.test.ts", TABLE, edit(TABLE, "[0.1, 0.2, 0.3]", "[0.1, 0.2, 0.30000000000000004]"))],
    findings: [],
  },
  {
    name: "each table rows reordered",
    changes: [change("test/add.test.ts", TABLE, edit(edit(TABLE, "[1, 2, 3],", "[-1, 1, 0],"), "[-1, 1, 0],\n])", "[1, 2, 3],\n])"))],
    findings: [],
  },
  {
    name: "an inline each table moved into a const of the file",
    changes: [change("test/add.test.ts", TABLE, SPREAD_TABLE)],
    findings: [],
  },
  {
    name: "a row added to a const table",
    changes: [change("test/add.test.ts", CONST_TABLE, edit(CONST_TABLE, "[-1, 1, 0],", "[-1, 1, 0],\n  [2, 2, 4],"))],
    findings: [],
  },
  {
    name: "a const table's rows reordered",
    changes: [change("test/add.test.ts", CONST_TABLE, edit(edit(CONST_TABLE, "[1, 2, 3],", "[-1, 1, 0],"), "[-1, 1, 0],\n] as const", "[1, 2, 3],\n] as const"))],
    findings: [],
  },
  {
    name: "a non-test source file changed",
    changes: [change("src/cart.ts", "export const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);", "export const total = (xs: number[]) => xs.reduce((a, b) => a + b);")],
    findings: [],
  },
  {
    name: "an unparsable test file that had no tests before",
    changes: [change("test/helpers.ts", "export const x = 1;", "export const x = ;")],
    findings: [],
  },
  {
    name: "an unparsable test file whose tests all moved elsewhere",
    changes: [change("test/cart.test.ts", CART, 'describe("cart", () => {'), change("test/cart2.test.ts", null, CART)],
    findings: [],
  },
];

const withFindings: CompareCase[] = [
  {
    name: "one test deleted",
    changes: [change("test/cart.test.ts", CART, edit(CART, `  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });\n`, ""))],
    findings: [`test_deletion/critical test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "one deleted while three are added (net count rises)",
    changes: [
      change(
        "test/cart.test.ts",
        CART,
        edit(
          CART,
          `  it("rejects negatives", () => { expect(() => total([-1])).toThrow(); });\n`,
          `  it("a", () => { expect(total([1])).toBe(1); });\n  it("b", () => { expect(total([2])).toBe(2); });\n  it("c", () => { expect(total([3])).toBe(3); });\n`,
        ),
      ),
    ],
    findings: [`test_deletion/critical test/cart.test.ts "cart > rejects negatives"`],
  },
  {
    // Found by ralph's own dogfood check: test/store/pack.test.ts retitled and extended a test in one commit.
    name: "a descriptive title reworded and its body changed: the same test, judged on its assertions",
    changes: [
      change(
        "test/cart.test.ts",
        addToCart(`  it("reads every item after a reload, with and without a base cache", () => { for (const c of [0, 5]) expect(load(c)).toBe(3); });`),
        addToCart(`  it("reads every item after a reload, with and without caches", () => { for (const c of [0, 5]) { expect(load(c)).toBe(3); expect(size(c)).toBe(1); } });`),
      ),
    ],
    findings: [],
  },
  {
    // Sweep of sindresorhus/ky c20d7c78da: "respects total timeout budget" -> "respects totalTimeout budget" as the option got its name.
    name: "a descriptive title naming an identifier for its words (total timeout -> totalTimeout), its body changed: the same test, judged on its assertions (its inputs changed while the code did not)",
    changes: [
      change(
        "test/cart.test.ts",
        addToCart(`  it("afterResponse forced retry respects total timeout budget", () => { expect(retries({ timeout: 100 }) <= 1).toBe(true); });`),
        addToCart(`  it("afterResponse forced retry respects totalTimeout budget", () => { expect(retries({ totalTimeout: 1000 })).toBe(1); });`),
      ),
    ],
    findings: [`expectation_changed/medium test/cart.test.ts "cart > afterResponse forced retry respects totalTimeout budget"`],
  },
  {
    name: "a descriptive title naming an identifier for its words, its checks gone: judged as the same test, assertion_removal",
    changes: [
      change(
        "test/cart.test.ts",
        addToCart(`  it("afterResponse forced retry respects total timeout budget", () => { expect(retries({ timeout: 100 })).toBe(1); });`),
        addToCart(`  it("afterResponse forced retry respects totalTimeout budget", () => { retries({ totalTimeout: 1000 }); });`),
      ),
    ],
    findings: [`assertion_removal/high test/cart.test.ts "cart > afterResponse forced retry respects totalTimeout budget"`],
  },
  {
    // Found by ralph's own dogfood check: test/analysis/fixtures.test.ts moved its expects into runScenario (test/helpers/fixture-trees.ts).
    name: "assertions moved into a helper imported from another changed file: not removed",
    changes: [
      change(
        "test/scenarios.test.ts",
        'it("runs a scenario", () => {\n  const r = run("a");\n  expect(r.verdict).toBe("PASS");\n  expect(r.findings).toEqual([]);\n});\n',
        'import { runScenario } from "./helpers/scenario.js";\nit("runs a scenario", () => {\n  runScenario("a");\n});\n',
      ),
      change(
        "test/helpers/scenario.ts",
        null,
        'import { expect } from "vitest";\nexport function runScenario(name: string): void {\n  const r = run(name);\n  expect(r.verdict).toBe("PASS");\n  expect(r.findings).toEqual([]);\n}\n',
      ),
    ],
    findings: [],
  },
  {
    name: "a helper that holds no assertions does not excuse removed ones",
    changes: [
      change(
        "test/scenarios.test.ts",
        'it("runs a scenario", () => {\n  const r = run("a");\n  expect(r.verdict).toBe("PASS");\n  expect(r.findings).toEqual([]);\n});\n',
        'import { runScenario } from "./helpers/scenario.js";\nit("runs a scenario", () => {\n  runScenario("a");\n});\n',
      ),
      change("test/helpers/scenario.ts", null, "export function runScenario(name: string): void {\n  run(name);\n}\n"),
    ],
    findings: [`assertion_removal/high test/scenarios.test.ts "runs a scenario"`],
  },
  {
    // Found by ralph's own dogfood check: test/analysis/languages/cross-language.test.ts extended a title and its expectation.
    name: "a title extended (the old title is the start of the new one) and its body changed: the same test, judged on its assertions, not a deletion",
    changes: [
      change(
        "test/cart.test.ts",
        addToCart(`  it("deleting the file is a deletion", () => { expect(judge(null)).toEqual(["deletion"]); });`),
        addToCart(`  it("deleting the file is a deletion (and a removal of the code beside it)", () => { const code = ["removal"]; expect(judge(null)).toEqual(["deletion", ...code]); });`),
      ),
    ],
    // Paired, so judged on its assertions: the expected value changed while the code under test did not.
    findings: [`expectation_changed/medium test/cart.test.ts "cart > deleting the file is a deletion (and a removal of the code beside it)"`],
  },
  {
    name: "a title extended while its assertions go: assertion_removal on the same test, not a silent pairing",
    changes: [
      change(
        "test/cart.test.ts",
        addToCart(`  it("rejects negative amounts", () => { expect(() => total([-1])).toThrow(RangeError); });`),
        addToCart(`  it("rejects negative amounts eventually", () => { total([-1]); });`),
      ),
    ],
    findings: [`assertion_removal/high test/cart.test.ts "cart > rejects negative amounts eventually"`],
  },
  {
    // Found sweeping unjs/defu's history (b65f603, "test: add more tests for plain objects").
    name: "a test turned into a suite of the same name, its checks spread over new tests in it: split, not deleted",
    changes: [
      change(
        "test/utils.test.ts",
        `it("isPlainObject", () => {\n  expect(isPlainObject({})).toBe(true);\n  expect(isPlainObject(null)).toBe(false);\n  expect(isPlainObject([])).toBe(false);\n});\n`,
        `describe("isPlainObject", () => {\n  it("plain objects", () => {\n    expect(isPlainObject({})).toBe(true);\n    expect(isPlainObject({ a: 1 })).toBe(true);\n  });\n  it("non plain objects", () => {\n    expect(isPlainObject(null)).toBe(false);\n    expect(isPlainObject([])).toBe(false);\n  });\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "a test split into a suite of the same name that checks less: assertion_removal on the old test",
    changes: [
      change(
        "test/utils.test.ts",
        `it("isPlainObject", () => {\n  expect(isPlainObject({})).toBe(true);\n  expect(isPlainObject(null)).toBe(false);\n  expect(isPlainObject([])).toBe(false);\n});\n`,
        `describe("isPlainObject", () => {\n  it("plain objects", () => {\n    expect(isPlainObject({})).toBe(true);\n  });\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/utils.test.ts "isPlainObject"`],
  },
  {
    name: "a test deleted while a suite of another name is added: still a deletion",
    changes: [
      change(
        "test/utils.test.ts",
        `it("isPlainObject", () => {\n  expect(isPlainObject({})).toBe(true);\n});\n`,
        `describe("isObject", () => {\n  it("plain objects", () => {\n    expect(isObject({})).toBe(true);\n  });\n});\n`,
      ),
    ],
    findings: [`test_deletion/critical test/utils.test.ts "isPlainObject"`],
  },
  {
    // Found sweeping python-attrs/attrs's history (5aa76a4: class TestLtLeGeGt -> TestLtLeGeGtNe, test_in_all edited).
    name: "a suite renamed (its other tests matched by body) and one of its tests edited: the same test, judged on its assertions",
    changes: [
      change(
        "test/cmp.test.ts",
        `describe("lt le ge gt", () => {\n  it("lt", () => { expect(lt(1)(0)).toBe(true); });\n  it("le", () => { expect(le(1)(1)).toBe(true); });\n  it("in all", () => { expect(ALL).toContain(lt); expect(ALL).toContain(le); });\n});\n`,
        `describe("lt le ge gt ne", () => {\n  it("lt", () => { expect(lt(1)(0)).toBe(true); });\n  it("le", () => { expect(le(1)(1)).toBe(true); });\n  it("in all", () => { expect(ALL).toContain(lt); expect(ALL).toContain(le); expect(ALL).toContain(ne); });\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "a suite renamed while one of its tests loses its assertions: assertion_removal, not a silent pairing",
    changes: [
      change(
        "test/cmp.test.ts",
        `describe("lt le", () => {\n  it("lt", () => { expect(lt(1)(0)).toBe(true); });\n  it("le", () => { expect(le(1)(1)).toBe(true); });\n  it("in all", () => { expect(ALL).toContain(lt); expect(ALL).toContain(le); });\n});\n`,
        `describe("lt le ne", () => {\n  it("lt", () => { expect(lt(1)(0)).toBe(true); });\n  it("le", () => { expect(le(1)(1)).toBe(true); });\n  it("in all", () => { ALL.includes(ne); });\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/cmp.test.ts "lt le ne > in all"`],
  },
  {
    name: "a test renamed and its body changed is a deletion",
    changes: [change("test/cart.test.ts", CART, edit(CART, `it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });`, `it("rounding", () => { expect(total([0.1])).toBe(0.1); });`))],
    findings: [`test_deletion/critical test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "a Go test that only prints what it gets, deleted while no code changed: low, it guarded nothing the change touched",
    changes: [
      change(
        "opt/opt_test.go",
        'package opt\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestParse(t *testing.T) {\n\tif Parse("7") != 7 {\n\t\tt.Error("Parse(7)")\n\t}\n}\n\nfunc TestShow(t *testing.T) {\n\tfmt.Println(Parse("12"))\n}\n',
        'package opt\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {\n\tif Parse("7") != 7 {\n\t\tt.Error("Parse(7)")\n\t}\n}\n',
      ),
    ],
    findings: [`test_deletion/low opt/opt_test.go "TestShow"`],
  },
  {
    name: "a Go test that only prints what it gets, deleted while the code it runs changed: critical, the call may panic now",
    changes: [
      change(
        "opt/opt_test.go",
        'package opt\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestParse(t *testing.T) {\n\tif Parse("7") != 7 {\n\t\tt.Error("Parse(7)")\n\t}\n}\n\nfunc TestShow(t *testing.T) {\n\tfmt.Println(Parse("12"))\n}\n',
        'package opt\n\nimport "testing"\n\nfunc TestParse(t *testing.T) {\n\tif Parse("7") != 7 {\n\t\tt.Error("Parse(7)")\n\t}\n}\n',
      ),
      change("opt/opt.go", "package opt\n\nfunc Parse(s string) int {\n\treturn len(s)\n}\n", "package opt\n\nfunc Parse(s string) int {\n\treturn int(s[1] - s[0])\n}\n"),
    ],
    findings: [`test_deletion/critical opt/opt_test.go "TestShow"`],
  },
  {
    name: "a Go test whose only check is an asserting helper, deleted while no code changed: critical, it made a check",
    changes: [
      change(
        "opt/opt_test.go",
        'package opt\n\nimport "testing"\n\nfunc check(t *testing.T, s string, want int) {\n\tif Parse(s) != want {\n\t\tt.Errorf("Parse(%q)", s)\n\t}\n}\n\nfunc TestParse(t *testing.T) {\n\tcheck(t, "7", 7)\n}\n\nfunc TestTwelve(t *testing.T) {\n\tcheck(t, "12", 12)\n}\n',
        'package opt\n\nimport "testing"\n\nfunc check(t *testing.T, s string, want int) {\n\tif Parse(s) != want {\n\t\tt.Errorf("Parse(%q)", s)\n\t}\n}\n\nfunc TestParse(t *testing.T) {\n\tcheck(t, "7", 7)\n}\n',
      ),
    ],
    findings: [`test_deletion/critical opt/opt_test.go "TestTwelve"`],
  },
  {
    name: "a pytest test that only calls, deleted while no code changed: low",
    changes: [
      change(
        "tests/test_parse.py",
        'from hdr.parse import parse_header\n\n\ndef test_two_fields():\n    assert {"a": "1"} == parse_header("a=1")\n\n\ndef test_trailing_separator_tolerated():\n    parse_header("a=1;")\n',
        'from hdr.parse import parse_header\n\n\ndef test_two_fields():\n    assert {"a": "1"} == parse_header("a=1")\n',
      ),
    ],
    findings: [`test_deletion/low tests/test_parse.py "test_trailing_separator_tolerated"`],
  },
  {
    name: "a JS test that only calls, deleted while the module it imports changed: critical",
    changes: [
      change(
        "test/parse.test.js",
        'import { parse } from "../src/parse.js";\nit("parses one field", () => { expect(parse("a=1")).toEqual({ a: "1" }); });\nit("tolerates a trailing separator", () => { parse("a=1;"); });\n',
        'import { parse } from "../src/parse.js";\nit("parses one field", () => { expect(parse("a=1")).toEqual({ a: "1" }); });\n',
      ),
      change(
        "src/parse.js",
        "export const parse = (s) => Object.fromEntries(s.split(';').filter(Boolean).map((p) => p.split('=')));\n",
        "export const parse = (s) => Object.fromEntries(s.split(';').map((p) => { if (!p) throw new Error('empty'); return p.split('='); }));\n",
      ),
    ],
    findings: [`test_deletion/critical test/parse.test.js "tolerates a trailing separator"`],
  },
  {
    name: "a JS test that only calls, deleted while nothing it imports changed: low",
    changes: [
      change(
        "test/parse.test.js",
        'import { parse } from "../src/parse.js";\nit("parses one field", () => { expect(parse("a=1")).toEqual({ a: "1" }); });\nit("tolerates a trailing separator", () => { parse("a=1;"); });\n',
        'import { parse } from "../src/parse.js";\nit("parses one field", () => { expect(parse("a=1")).toEqual({ a: "1" }); });\n',
      ),
      change("src/other.js", "export const other = 1;\n", "export const other = 2;\n"),
    ],
    findings: [`test_deletion/low test/parse.test.js "tolerates a trailing separator"`],
  },
  {
    name: "checks of two fields reordered while both expect new values the changed code gives: the same checks, re-expected",
    changes: [
      change(
        "test/split.test.js",
        'import { split } from "../src/split.js";\nit("splits", () => {\n  const parts = split("a/b,c");\n  expect(parts.last).toBe("a/b,c");\n  expect(parts.first).toBe("");\n});\n',
        'import { split } from "../src/split.js";\nit("splits", () => {\n  const parts = split("a/b,c");\n  expect(parts.first).toBe("a/b");\n  expect(parts.last).toBe("c");\n});\n',
      ),
      change("src/split.js", 'export const split = (s) => ({ first: "", last: s });\n', 'export const split = (s) => ({ first: s.split(",")[0], last: s.split(",")[1] });\n'),
    ],
    findings: [],
  },
  {
    name: "pytest checks of two keys reordered with new expected values, the code changed: the same checks",
    changes: [
      change(
        "tests/test_split.py",
        'from split import split\n\n\ndef test_splits():\n    parts = split("a/b,c")\n    assert parts["last"] == "a/b,c"\n    assert parts["first"] == ""\n',
        'from split import split\n\n\ndef test_splits():\n    parts = split("a/b,c")\n    assert parts["first"] == "a/b"\n    assert parts["last"] == "c"\n',
      ),
      change("split.py", 'def split(s):\n    return {"first": "", "last": s}\n', 'def split(s):\n    first, last = s.split(",")\n    return {"first": first, "last": last}\n'),
    ],
    findings: [],
  },
  {
    name: "checks of two fields reordered and one dropped: the dropped one is removed",
    changes: [
      change(
        "test/split.test.js",
        'import { split } from "../src/split.js";\nit("splits", () => {\n  const parts = split("a/b,c");\n  expect(parts.last).toBe("a/b,c");\n  expect(parts.first).toBe("");\n});\n',
        'import { split } from "../src/split.js";\nit("splits", () => {\n  const parts = split("a/b,c");\n  expect(parts.first).toBe("a/b");\n});\n',
      ),
      change("src/split.js", 'export const split = (s) => ({ first: "", last: s });\n', 'export const split = (s) => ({ first: s.split(",")[0], last: s.split(",")[1] });\n'),
    ],
    findings: [`assertion_removal/high test/split.test.js "splits"`],
  },
  {
    name: "checks of two fields reordered with new expected values while the code did not change: expectation_changed",
    changes: [
      change(
        "test/split.test.js",
        'import { split } from "../src/split.js";\nit("splits", () => {\n  const parts = split("a/b,c");\n  expect(parts.last).toBe("a/b,c");\n  expect(parts.first).toBe("");\n});\n',
        'import { split } from "../src/split.js";\nit("splits", () => {\n  const parts = split("a/b,c");\n  expect(parts.first).toBe("a/b");\n  expect(parts.last).toBe("c");\n});\n',
      ),
    ],
    findings: [`expectation_changed/medium test/split.test.js "splits"`],
  },
  {
    name: "a check-free test retitled with its words inflected anew (ignores -> ignored) and given a check: the same test",
    changes: [
      change(
        "test/cart.test.ts",
        `import { sink } from "../src/sink.js";\n${addToCart(`  it("ignores extra args", () => { sink(1, 2, 3); });`)}`,
        `import { sink } from "../src/sink.js";\n${addToCart(`  it("extra args are ignored", () => { expect(sink("app", 2, 3).name).toBe("app"); });`)}`,
      ),
      change("src/sink.js", "export function sink() {\n  return {};\n}\n", "export function sink(name) {\n  return { name };\n}\n"),
    ],
    findings: [],
  },
  {
    name: "a pytest test retitled with its words inflected anew and given a check: the same test",
    changes: [
      change(
        "tests/test_sink.py",
        "class TestSinkFactory:\n    def test_ignores_args(self):\n        SinkFactory()(1, 2, 3)\n",
        'class TestSinkFactory:\n    def test_extra_args_ignored(self):\n        assert "app" == SinkFactory()("app", 2, 3).name\n',
      ),
    ],
    findings: [],
  },
  {
    name: "a title inflected anew while its assertion goes: assertion_removal, judged as the same test",
    changes: [
      change(
        "test/cart.test.ts",
        addToCart(`  it("rejects negative amounts", () => { expect(() => total([-1])).toThrow(RangeError); });`),
        addToCart(`  it("rejected negative amount", () => { total([-1]); });`),
      ),
    ],
    findings: [`assertion_removal/high test/cart.test.ts "cart > rejected negative amount"`],
  },
  {
    name: "a descriptive title reworded while its assertions go: assertion_removal, judged as the same test",
    changes: [
      change(
        "test/cart.test.ts",
        addToCart(`  it("rejects negative amounts with a range error", () => { expect(() => total([-1])).toThrow(RangeError); });`),
        addToCart(`  it("rejects negative amounts with a range error at once", () => { total([-1]); });`),
      ),
    ],
    findings: [`assertion_removal/high test/cart.test.ts "cart > rejects negative amounts with a range error at once"`],
  },
  {
    name: "duplicate titles match by multiplicity (different bodies)",
    changes: [change("test/dup.test.ts", `it("works", () => { expect(f(1)).toBe(1); });\nit("works", () => { expect(f(2)).toBe(2); });`, `it("works", () => { expect(f(2)).toBe(2); });`)],
    findings: [`test_deletion/critical test/dup.test.ts "works"`],
  },
  {
    name: "an exact duplicate merged away still counts once by multiplicity",
    changes: [change("test/dup.test.ts", `it("works", () => { expect(f(1)).toBe(1); });\nit("works", () => { expect(f(1)).toBe(1); });`, `it("works", () => { expect(f(1)).toBe(1); });`)],
    findings: [`test_deletion/critical test/dup.test.ts "works"`],
  },
  {
    name: "a test file deleted: one finding listing its tests",
    changes: [change("test/cart.test.ts", CART, null)],
    findings: [`test_deletion/critical test/cart.test.ts`],
  },
  {
    name: "a one-test file deleted names the test",
    changes: [change("test/one.test.ts", `it("only", () => { expect(f(1)).toBe(1); });`, null)],
    findings: [`test_deletion/critical test/one.test.ts "only"`],
  },
  {
    name: "a test whose only assertion is a tautology and that runs no code, deleted: it checked nothing (low)",
    changes: [change("test/one.test.ts", `it("only", () => { expect(1).toBe(1); });`, null)],
    findings: [`test_deletion/low test/one.test.ts "only"`],
  },
  {
    name: "a test whose only assertion is a tautology but that runs code, deleted: it still guarded that the code does not throw",
    changes: [change("test/one.test.ts", `it("only", () => { total([1]); expect(true).toBe(true); });`, null)],
    findings: [`test_deletion/critical test/one.test.ts "only"`],
  },
  {
    name: "a test file deleted after some of its tests moved: the rest, one by one",
    changes: [change("test/cart.test.ts", CART, null), change("test/sum.test.ts", null, `describe("cart", () => { it("sums", () => { expect(total([1, 2])).toBe(3); }); });`)],
    findings: [`test_deletion/critical test/cart.test.ts "cart > rejects negatives"`, `test_deletion/critical test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "a row removed from an each table",
    changes: [change("test/add.test.ts", TABLE, edit(TABLE, "  [0.1, 0.2, 0.3],\n", ""))],
    findings: [`test_deletion/critical test/add.test.ts "add(%d, %d) = %d"`],
  },
  {
    name: "a row removed from a module-level const table of describe.each",
    changes: [change("test/add.test.ts", CONST_TABLE, edit(CONST_TABLE, "  [0.1, 0.2, 0.3],\n", ""))],
    findings: [`test_deletion/critical test/add.test.ts "add(%d, %d) = %d > adds"`],
  },
  {
    name: "a row removed from the const a table spreads",
    changes: [change("test/add.test.ts", SPREAD_TABLE, edit(SPREAD_TABLE, "  [0.1, 0.2, 0.3],\n", ""))],
    findings: [`test_deletion/critical test/add.test.ts "add(%d, %d) = %d"`],
  },
  {
    name: "an inline table moved into a const with a row left out",
    changes: [change("test/add.test.ts", TABLE, edit(SPREAD_TABLE, "  [0.1, 0.2, 0.3],\n", ""))],
    findings: [`test_deletion/critical test/add.test.ts "add(%d, %d) = %d"`],
  },
  {
    name: "a row removed from a tagged-template table",
    changes: [change("test/add.test.ts", TAGGED, edit(TAGGED, "  ${0} | ${0} | ${0}\n", ""))],
    findings: [`test_deletion/critical test/add.test.ts "$a + $b"`],
  },
  {
    name: "a todo deleted is low",
    changes: [change("test/cart.test.ts", addToCart(`  it.todo("later");`), CART)],
    findings: [`test_deletion/low test/cart.test.ts "cart > later"`],
  },
  {
    name: "it -> it.skip",
    changes: [change("test/cart.test.ts", CART, edit(CART, `it("rounds"`, `it.skip("rounds"`))],
    findings: [`test_disabled/critical test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "it -> xit",
    changes: [change("test/cart.test.ts", CART, edit(CART, `it("rounds"`, `xit("rounds"`))],
    findings: [`test_disabled/critical test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "describe -> describe.skip disables every test inside",
    changes: [change("test/cart.test.ts", CART, edit(CART, `describe("cart"`, `describe.skip("cart"`))],
    findings: [
      `test_disabled/critical test/cart.test.ts "cart > sums"`,
      `test_disabled/critical test/cart.test.ts "cart > rounds"`,
      `test_disabled/critical test/cart.test.ts "cart > rejects negatives"`,
    ],
  },
  {
    name: "a body replaced by .todo",
    changes: [change("test/cart.test.ts", CART, edit(CART, `it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });`, `it.todo("rounds");`))],
    findings: [`test_disabled/critical test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "marked as expected to fail",
    changes: [change("test/cart.test.ts", CART, edit(CART, `it("rounds"`, `it.fails("rounds"`))],
    findings: [`test_disabled/critical test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "skipped with a linked issue is medium",
    changes: [change("test/cart.test.ts", CART, edit(CART, `  it("rounds"`, `  // float drift, see #412\n  it.skip("rounds"`))],
    findings: [`test_disabled/medium test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "node:test skip option with a URL is medium",
    changes: [
      change(
        "test/n.test.mjs",
        `import test from "node:test";\ntest("a", () => { assert.ok(1); });`,
        `import test from "node:test";\ntest("a", { skip: "https://github.com/acme/app/issues/9" }, () => { assert.ok(1); });`,
      ),
    ],
    findings: [`test_disabled/medium test/n.test.mjs "a"`],
  },
  {
    name: "a run-time skip added inside the body (renamed by hash does not apply: body changed, id kept)",
    changes: [
      change("test/pw.spec.ts", `test("a", async ({ page }) => { await expect(page).toHaveTitle("x"); });`, `test("a", async ({ page }) => { test.skip(); await expect(page).toHaveTitle("x"); });`),
    ],
    findings: [`test_disabled/critical test/pw.spec.ts "a"`],
  },
  {
    name: "renamed and skipped in one step",
    changes: [change("test/cart.test.ts", CART, edit(CART, `it("rounds"`, `it.skip("rounding"`))],
    findings: [`test_disabled/critical test/cart.test.ts "cart > rounding"`],
  },
  {
    name: "it -> it.only is high",
    changes: [change("test/cart.test.ts", CART, edit(CART, `it("rounds"`, `it.only("rounds"`))],
    findings: [`test_disabled/high test/cart.test.ts "cart > rounds"`],
  },
  {
    name: "a new focused test silences the others",
    changes: [change("test/cart.test.ts", CART, addToCart(`  it.only("new", () => { expect(1).toBe(1); });`))],
    findings: [`test_disabled/high test/cart.test.ts "cart > new"`],
  },
  {
    name: "a test file that no longer parses",
    changes: [change("test/cart.test.ts", CART, CART.replace(/\}\);\n$/, ""))],
    findings: [`test_deletion/high test/cart.test.ts`],
  },
  {
    name: "a test file that turned binary",
    changes: [change("test/cart.test.ts", CART, "\u0000\u0001binary")],
    findings: [`test_deletion/high test/cart.test.ts`],
  },
];

describe("comparing facts", () => {
  it.each(withoutFindings.map((c) => [c.name, c] as const))("no finding: %s", async (_name, c) => {
    const analysis = await analyzeChanges(c.changes);
    expect(analysis.findings.map(summarize)).toEqual([]);
    expect(analysis.verdict).toBe("PASS");
  });

  it.each(withFindings.map((c) => [c.name, c] as const))("finding: %s", async (_name, c) => {
    const analysis = await analyzeChanges(c.changes);
    expect(analysis.findings.map(summarize).sort()).toEqual([...c.findings].sort());
  });

  it("writes a one-line message a person understands and points at the before side", async () => {
    const analysis = await analyzeChanges([change("test/cart.test.ts", CART, edit(CART, `  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });\n`, ""))]);
    expect(analysis.findings).toEqual([
      expect.objectContaining({
        message: `test "cart > rounds" was deleted from test/cart.test.ts and not found elsewhere`,
        file: "test/cart.test.ts",
        line: 3,
        before_file: "test/cart.test.ts",
        before_line: 3,
        allowed: false,
      }),
    ]);
  });

  it("lists the lost tests of a deleted file in evidence", async () => {
    const analysis = await analyzeChanges([change("test/cart.test.ts", CART, null)]);
    expect(analysis.findings[0]).toMatchObject({
      line: null,
      message: "test file test/cart.test.ts was deleted with its 3 tests; none of them was found in another changed file",
      evidence: { tests: ["cart > sums", "cart > rounds", "cart > rejects negatives"], test_count: 3 },
    });
  });

  it("says which file could not be parsed and how many tests it had", async () => {
    const analysis = await analyzeChanges([change("test/cart.test.ts", CART, CART.replace(/\}\);\n$/, ""))]);
    expect(analysis.findings[0]?.message).toMatch(/^test\/cart\.test\.ts could not be analysed after the change \(parse error: .+\); its 3 tests from before cannot be accounted for$/);
    expect(analysis.not_analyzed).toEqual([{ path: "test/cart.test.ts", reason: expect.stringMatching(/^after: parse error: /) }]);
  });

  it("explains a disabled test with how it was disabled and where it was", async () => {
    const analysis = await analyzeChanges([change("test/cart.test.ts", CART, edit(CART, `describe("cart"`, `describe.skip("cart"`))]);
    expect(analysis.findings[0]).toMatchObject({
      message: `test "cart > sums" in test/cart.test.ts is now skipped (describe.skip on suite "cart")`,
      before_file: "test/cart.test.ts",
      before_line: 2,
      evidence: { gained: ["skipped"] },
    });
  });

  it("says how many table rows were removed and which", async () => {
    const analysis = await analyzeChanges([change("test/add.test.ts", TABLE, edit(TABLE, "  [0.1, 0.2, 0.3],\n", ""))]);
    expect(analysis.findings[0]).toMatchObject({
      message: `1 of the 3 rows of table test "add(%d, %d) = %d" in test/add.test.ts were removed (3 -> 2 rows)`,
      evidence: { removed_rows: [2], added_rows: 0 },
    });
  });

  it.each([
    ["see #123", true],
    ["https://jira.example.com/browse/APP-1", true],
    ["GH-77", true],
    ["flaky on CI", false],
    ["&#39;quoted&#39;", false],
    [undefined, false],
  ] as const)("linksIssue(%s) is %s", (reason, expected) => {
    expect(linksIssue(reason)).toBe(expected);
  });
});

/**
 * With both trees, which files hold tests follows the runners' configs
 * (analysis/discovery.ts). Each case is a before and an after tree; the
 * changes are the paths whose text differs.
 */
interface DiscoveryCompareCase {
  name: string;
  before: Record<string, string>;
  after: Record<string, string>;
  findings: string[];
}

const VITEST_ALL = `export default { test: { include: ["test/**/*.test.ts"] } };`;
const VITEST_TOP = `export default { test: { include: ["test/*.test.ts"] } };`;
const SLOW = `describe("slow", () => {\n  it("imports", () => { expect(load()).toBe(1); });\n  it("exports", () => { expect(save()).toBe(1); });\n});\n`;
const FIXTURE = `it("is sample input", () => { expect(1).toBe(2); });\n`;

const PYTEST_NAMES = "[tool:pytest]\npython_files = check_*.py\npython_classes = Check\npython_functions = check_\n";
const SHARED = "class Shared:\n    def check_adds(self):\n        assert add(1, 2) == 3\n\n    def check_subs(self):\n        assert sub(2, 1) == 1\n";
const CHECK_MATH = "from tests.base import Shared\n\n\nclass CheckMath(Shared):\n    pass\n";

const NEST_PACKAGE = JSON.stringify({ name: "api", jest: { rootDir: "src", testRegex: ".*\\.spec\\.ts$", moduleFileExtensions: ["js", "json", "ts"] } });
const NEST_E2E = JSON.stringify({ rootDir: ".", testRegex: ".e2e-spec.ts$", moduleFileExtensions: ["js", "json", "ts"] });
const E2E_HEALTH = `  it("/health (GET)", () => {\n    return request(app.getHttpServer()).get("/health").expect(200);\n  });\n`;
const E2E_SPEC = `describe("AppController (e2e)", () => {\n  it("/ (GET)", () => {\n    return request(app.getHttpServer()).get("/").expect(200).expect("Hello World!");\n  });\n${E2E_HEALTH}});\n`;

const discoveryCases: DiscoveryCompareCase[] = [
  {
    name: "an include narrowed so an untouched test file is no longer collected: its tests are named",
    before: { "vitest.config.ts": VITEST_ALL, "test/cart.test.ts": CART, "test/slow/io.test.ts": SLOW },
    after: { "vitest.config.ts": VITEST_TOP, "test/cart.test.ts": CART, "test/slow/io.test.ts": SLOW },
    findings: [`test_config_tamper/critical vitest.config.ts`, `test_disabled/critical test/slow/io.test.ts`],
  },
  {
    name: "a jest testPathIgnorePatterns entry in package.json takes one test file out",
    before: { "package.json": JSON.stringify({ jest: { testEnvironment: "node" } }), "test/legacy/one.test.js": `it("works", () => { expect(f()).toBe(1); });\n` },
    after: {
      "package.json": JSON.stringify({ jest: { testEnvironment: "node", testPathIgnorePatterns: ["/node_modules/", "/legacy/"] } }),
      "test/legacy/one.test.js": `it("works", () => { expect(f()).toBe(1); });\n`,
    },
    findings: [`test_config_tamper/critical package.json`, `test_disabled/critical test/legacy/one.test.js "works"`],
  },
  {
    name: "a test file renamed to a name jest does not collect",
    before: { "jest.config.js": `module.exports = {};`, "test/cart.test.js": CART },
    after: { "jest.config.js": `module.exports = {};`, "test/cart.js": CART },
    findings: [`test_disabled/critical test/cart.js`],
  },
  {
    name: "a test moved into a file the runner leaves out",
    before: { "vitest.config.ts": VITEST_TOP, "test/cart.test.ts": CART },
    after: {
      "vitest.config.ts": VITEST_TOP,
      "test/cart.test.ts": edit(CART, `  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });\n`, ""),
      "test/more/rounding.test.ts": `describe("cart", () => {\n  it("rounds", () => { expect(total([0.1, 0.2])).toBe(0.3); });\n});\n`,
    },
    findings: [`test_disabled/critical test/more/rounding.test.ts "cart > rounds"`],
  },
  {
    name: "tests deleted from a fixture the runner excludes (they never ran)",
    before: { "vitest.config.ts": `export default { test: { exclude: ["**/fixtures/**"] } };`, "test/fixtures/sample.test.ts": FIXTURE, "test/cart.test.ts": CART },
    after: { "vitest.config.ts": `export default { test: { exclude: ["**/fixtures/**"] } };`, "test/cart.test.ts": CART },
    findings: [],
  },
  {
    name: "a test deleted from an e2e spec the unit jest config does not reach (NestJS: rootDir src; test/jest-e2e.json runs it): still a deletion",
    before: { "package.json": NEST_PACKAGE, "test/jest-e2e.json": NEST_E2E, "test/app.e2e-spec.ts": E2E_SPEC },
    after: { "package.json": NEST_PACKAGE, "test/jest-e2e.json": NEST_E2E, "test/app.e2e-spec.ts": edit(E2E_SPEC, E2E_HEALTH, "") },
    findings: [`test_deletion/critical test/app.e2e-spec.ts "AppController (e2e) > /health (GET)"`],
  },
  {
    name: "an e2e spec outside the unit config's reach deleted whole: its tests are deletions",
    before: { "package.json": NEST_PACKAGE, "test/app.e2e-spec.ts": E2E_SPEC },
    after: { "package.json": NEST_PACKAGE },
    findings: [`test_deletion/critical test/app.e2e-spec.ts`],
  },
  {
    name: "an e2e test moved to another spec outside the unit config's reach: a move, not a test leaving discovery",
    before: { "package.json": NEST_PACKAGE, "test/app.e2e-spec.ts": E2E_SPEC },
    after: {
      "package.json": NEST_PACKAGE,
      "test/app.e2e-spec.ts": edit(E2E_SPEC, E2E_HEALTH, ""),
      "test/health.e2e-spec.ts": `describe("AppController (e2e)", () => {\n${E2E_HEALTH}});\n`,
    },
    findings: [],
  },
  {
    name: "a config change that brings more files in",
    before: { "vitest.config.ts": VITEST_TOP, "test/cart.test.ts": CART, "test/slow/io.test.ts": SLOW },
    after: { "vitest.config.ts": VITEST_ALL, "test/cart.test.ts": CART, "test/slow/io.test.ts": SLOW },
    findings: [],
  },
  {
    name: "a config that became computed: the conventions apply (no file leaves discovery); the tamper check flags the include",
    before: { "vitest.config.ts": VITEST_ALL, "test/slow/io.test.ts": SLOW },
    after: { "vitest.config.ts": `export default { test: { include: patterns() } };`, "test/slow/io.test.ts": SLOW },
    findings: [`test_config_tamper/critical vitest.config.ts`],
  },
  {
    name: "a Playwright spec outside vitest's include is run by Playwright: its deleted test is still a deletion",
    before: {
      "vitest.config.ts": `export default { test: { include: ["src/**/*.test.ts"] } };`,
      "e2e/login.spec.ts": `import { test, expect } from "@playwright/test";\ntest("logs in", async ({ page }) => { await expect(page).toHaveTitle("x"); });\ntest("logs out", async ({ page }) => { await expect(page).toHaveTitle("y"); });\n`,
    },
    after: {
      "vitest.config.ts": `export default { test: { include: ["src/**/*.test.ts"] } };`,
      "e2e/login.spec.ts": `import { test, expect } from "@playwright/test";\ntest("logs in", async ({ page }) => { await expect(page).toHaveTitle("x"); });\n`,
    },
    findings: [`test_deletion/critical e2e/login.spec.ts "logs out"`],
  },
  {
    name: "a narrowed jest testMatch does not take Cypress specs (run by Cypress) out",
    before: {
      "jest.config.js": `module.exports = { testMatch: ["**/*.test.js", "**/*.cy.js"] };`,
      "cypress/e2e/home.cy.js": `it("shows the title", () => { cy.visit("/"); cy.get("h1").should("contain", "Home"); });\n`,
    },
    after: {
      "jest.config.js": `module.exports = { testMatch: ["**/*.test.js"] };`,
      "cypress/e2e/home.cy.js": `it("shows the title", () => { cy.visit("/"); cy.get("h1").should("contain", "Home"); });\n`,
    },
    findings: [`test_config_tamper/critical jest.config.js`],
  },
  {
    name: "pytest python_files: a test deleted from a check_*.py module",
    before: { "pytest.ini": "[pytest]\npython_files = check_*.py\n", "tests/check_math.py": "def test_adds():\n    assert add(1, 2) == 3\n\ndef test_subs():\n    assert sub(2, 1) == 1\n" },
    after: { "pytest.ini": "[pytest]\npython_files = check_*.py\n", "tests/check_math.py": "def test_adds():\n    assert add(1, 2) == 3\n" },
    findings: [`test_deletion/critical tests/check_math.py "test_subs"`],
  },
  {
    name: "pytest python_functions: a check_ function renamed out of discovery",
    before: { "setup.cfg": "[tool:pytest]\npython_functions = check_\n", "tests/test_math.py": "def check_adds():\n    assert add(1, 2) == 3\n" },
    after: { "setup.cfg": "[tool:pytest]\npython_functions = check_\n", "tests/test_math.py": "def verify_adds():\n    assert add(1, 2) == 3\n" },
    findings: [`test_disabled/critical tests/test_math.py "check_adds"`],
  },
  {
    name: "pytest python_classes/python_functions: a check_ method deleted from a base class a Check* class inherits from an unchanged module",
    before: { "setup.cfg": PYTEST_NAMES, "tests/base.py": SHARED, "tests/check_math.py": CHECK_MATH },
    after: { "setup.cfg": PYTEST_NAMES, "tests/base.py": SHARED.replace("    def check_subs(self):\n        assert sub(2, 1) == 1\n", ""), "tests/check_math.py": CHECK_MATH },
    findings: [`test_deletion/critical tests/base.py "CheckMath > check_subs"`],
  },
  {
    name: "pytest python_classes: a Check* class that stops inheriting its base's check_ methods",
    before: { "setup.cfg": PYTEST_NAMES, "tests/base.py": SHARED, "tests/check_math.py": CHECK_MATH },
    after: { "setup.cfg": PYTEST_NAMES, "tests/base.py": SHARED, "tests/check_math.py": "class CheckMath:\n    pass\n" },
    findings: [`test_deletion/critical tests/check_math.py "CheckMath > check_adds"`],
  },
];

describe("comparing facts under the runners' discovery", () => {
  it.each(discoveryCases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const analysis = await analyzeChanges(changesBetween(c.before, c.after), { trees: { before: treeOf(c.before), after: treeOf(c.after) }, unchanged: unchangedBetween(c.before, c.after) });
    expect(analysis.findings.map(summarize).sort()).toEqual([...c.findings].sort());
  });

  it("names the tests a file takes out of discovery, the file and the config", async () => {
    const before = { "vitest.config.ts": VITEST_ALL, "test/slow/io.test.ts": SLOW };
    const after = { "vitest.config.ts": VITEST_TOP, "test/slow/io.test.ts": SLOW };
    const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) } });
    expect(analysis.findings.find((finding) => finding.type === "test_disabled")).toMatchObject({
      file: "test/slow/io.test.ts",
      before_file: "test/slow/io.test.ts",
      message: "2 tests no longer run: vitest (vitest.config.ts) no longer collects test/slow/io.test.ts",
      evidence: { tests: ["slow > imports", "slow > exports"], test_count: 2, not_collected_by: "vitest (vitest.config.ts)" },
    });
  });

  it("without the trees, the naming conventions decide as before", async () => {
    const before = { "jest.config.js": `module.exports = {};`, "test/cart.test.js": CART };
    const after = { "jest.config.js": `module.exports = {};`, "test/cart.js": CART };
    expect((await analyzeChanges(changesBetween(before, after))).findings).toEqual([]);
  });
});
