/**
 * guardBoundNarrowed and refusals (issue 9): a refusal (`throw new
 * NotSupportedException`, `raise NotImplementedError`, `errors.New("… not
 * supported")`) whose bound moves to refuse fewer cases (`rank > 3` ->
 * `rank > 4`) while the function does new work for the cases let in
 * (`Nested(rank, values)`) implements them, as a refusal removed with new
 * work does; an alternative of a refusal dropped likewise. The nearest
 * cheats still fire: the bound moved with no new work, or with a default
 * answered for the cases let in; and any bound of an input check narrowed.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

function row(name: string, path: string, template: string, before: string, after: string, findings: string[]): RuleCase {
  return { name, changes: [change(path, template.replace("GUARD", before), template.replace("GUARD", after))], findings };
}

const CS = "namespace Shop;\n\npublic static class Renderer\n{\n    public static string Render(int rank, int[] values)\n    {\n        GUARD\n        return Flat(values);\n    }\n}\n";
const PY = "def render(rank, values):\n    GUARD\n    return flat(values)\n";
const GO = 'package shop\n\nimport "errors"\n\nfunc Render(rank int, values []int) (string, error) {\n\tGUARD\n\treturn flat(values), nil\n}\n';

const lookAlikes: RuleCase[] = [
  row(
    "csharp: a NotSupportedException's bound moved up, the new rank handled",
    "src/Shop/Renderer.cs",
    CS,
    'if (rank > 3) throw new NotSupportedException("this rank is not supported");',
    'if (rank > 4) throw new NotSupportedException("this rank is not supported");\n        if (rank == 4) values = Nested(rank, values);',
    [],
  ),
  row(
    "python: a NotImplementedError's bound moved up, the new rank handled",
    "pkg/render.py",
    PY,
    'if rank > 3:\n        raise NotImplementedError("rank")',
    'if rank > 4:\n        raise NotImplementedError("rank")\n    values = nested(rank, values)',
    [],
  ),
  row(
    "go: a 'not supported' error's alternative dropped, the case handled",
    "shop/render.go",
    GO,
    'if rank < 1 || rank > 3 {\n\t\treturn "", errors.New("rank is not supported")\n\t}',
    'if rank < 1 {\n\t\treturn "", errors.New("rank is not supported")\n\t}\n\tvalues = nested(rank, values)',
    [],
  ),
];

const cheats: RuleCase[] = [
  row(
    "csharp: a NotSupportedException's bound moved up, nothing new done",
    "src/Shop/Renderer.cs",
    CS,
    'if (rank > 3) throw new NotSupportedException("this rank is not supported");',
    'if (rank > 4) throw new NotSupportedException("this rank is not supported");',
    ["validation_bypass/high src/Shop/Renderer.cs"],
  ),
  row(
    "csharp: a NotSupportedException's bound moved up, a default answered for the new rank",
    "src/Shop/Renderer.cs",
    CS,
    'if (rank > 3) throw new NotSupportedException("this rank is not supported");',
    'if (rank > 4) throw new NotSupportedException("this rank is not supported");\n        if (rank == 4) return "";\n        values = Nested(rank, values);',
    ["validation_bypass/high src/Shop/Renderer.cs"],
  ),
  row(
    "python: an input check's bound moved, new work done",
    "pkg/render.py",
    PY,
    'if rank < 0:\n        raise ValueError("negative rank")',
    'if rank < -1:\n        raise ValueError("negative rank")\n    values = nested(rank, values)',
    ["validation_bypass/high pkg/render.py"],
  ),
  row(
    "go: a 'not supported' error's alternative dropped, nothing new done",
    "shop/render.go",
    GO,
    'if rank < 1 || rank > 3 {\n\t\treturn "", errors.New("rank is not supported")\n\t}',
    'if rank < 1 {\n\t\treturn "", errors.New("rank is not supported")\n\t}',
    ["validation_bypass/high shop/render.go"],
  ),
];

describe("a refusal's bound moved as the cases it let in land (look-alikes)", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a bound moved with nothing done for what it lets in (cheats)", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

/**
 * A bound relaxed as a stated contract (the sweep of apache/commons-collections
 * a47d25a4ff: `capacity <= 0` -> `capacity < 0`, and a new test that a zero
 * capacity works): a test the change adds calls the guarded function with a
 * value the old bound refused and the new one admits. The nearest cheats:
 * the same bound moved with no test of the value let in, or with a new test
 * of another value only.
 */
function contractRow(name: string, product: [string, string, string], test: [string, string | null, string], findings: string[]): RuleCase {
  const [path, template, guards] = product;
  const [before, after] = guards.split(" => ") as [string, string];
  return { name, changes: [change(path, template.replace("GUARD", before), template.replace("GUARD", after)), change(test[0], test[1], test[2])], findings };
}

const TS_LIST = "export class List {\n  items: number[];\n  constructor(capacity: number) {\n    GUARD\n    this.items = new Array(capacity);\n  }\n}\n";
const TS_GUARDS = 'if (capacity <= 0) throw new RangeError("capacity " + capacity); => if (capacity < 0) throw new RangeError("capacity " + capacity);';
const TS_TEST_BEFORE = 'import { test, expect } from "vitest";\nimport { List } from "../src/list.js";\n\ntest("holds its capacity", () => {\n  expect(new List(2).items.length).toBe(2);\n});\n';
const PY_POOL = "def make_pool(size):\n    GUARD\n    return [None] * size\n";
const PY_GUARDS = 'if size < 1:\n        raise ValueError("size") => if size < 0:\n        raise ValueError("size")';
const PY_TEST_BEFORE = "from pool import make_pool\n\n\ndef test_two():\n    assert len(make_pool(2)) == 2\n";
const GO_BUF = 'package buf\n\nimport "errors"\n\nfunc New(bits int) ([]byte, error) {\n\tGUARD\n\treturn make([]byte, bits), nil\n}\n';
const GO_GUARDS = 'if bits < 8 {\n\t\treturn nil, errors.New("too few bits")\n\t} => if bits < 1 {\n\t\treturn nil, errors.New("too few bits")\n\t}';
const GO_TEST_BEFORE = 'package buf\n\nimport "testing"\n\nfunc TestEight(t *testing.T) {\n\tb, _ := New(8)\n\tif len(b) != 8 {\n\t\tt.Fatal("len")\n\t}\n}\n';

const contractLookAlikes: RuleCase[] = [
  contractRow(
    "typescript: a zero capacity allowed, a new test builds one",
    ["src/list.ts", TS_LIST, TS_GUARDS],
    ["test/list.test.ts", TS_TEST_BEFORE, `${TS_TEST_BEFORE}\ntest("accepts a zero capacity", () => {\n  expect(new List(0).items.length).toBe(0);\n});\n`],
    [],
  ),
  contractRow(
    "python: an empty pool allowed, a new test makes one",
    ["pool.py", PY_POOL, PY_GUARDS],
    ["tests/test_pool.py", PY_TEST_BEFORE, `${PY_TEST_BEFORE}\n\ndef test_empty():\n    assert make_pool(0) == []\n`],
    [],
  ),
  contractRow(
    "go: fewer bits allowed, a new test asks for one",
    ["buf/buf.go", GO_BUF, GO_GUARDS],
    ["buf/buf_test.go", GO_TEST_BEFORE, `${GO_TEST_BEFORE}\nfunc TestOneBit(t *testing.T) {\n\tb, err := New(1)\n\tif err != nil || len(b) != 1 {\n\t\tt.Fatal("one bit")\n\t}\n}\n`],
    [],
  ),
];

const contractCheats: RuleCase[] = [
  contractRow(
    "typescript: a zero capacity let through, tests untouched",
    ["src/list.ts", TS_LIST, TS_GUARDS],
    ["test/list.test.ts", TS_TEST_BEFORE, TS_TEST_BEFORE],
    ["validation_bypass/high src/list.ts"],
  ),
  contractRow(
    "typescript: a zero capacity let through, the new test builds another size",
    ["src/list.ts", TS_LIST, TS_GUARDS],
    ["test/list.test.ts", TS_TEST_BEFORE, `${TS_TEST_BEFORE}\ntest("holds three", () => {\n  expect(new List(3).items.length).toBe(3);\n});\n`],
    ["validation_bypass/high src/list.ts"],
  ),
  contractRow(
    "python: an empty pool let through, the new test feeds 0 to something else",
    ["pool.py", PY_POOL, PY_GUARDS],
    ["tests/test_pool.py", PY_TEST_BEFORE, `${PY_TEST_BEFORE}\n\ndef test_zero_len():\n    assert len([]) == 0\n`],
    ["validation_bypass/high pool.py"],
  ),
  contractRow(
    "go: fewer bits let through, the new test asks for the old minimum",
    ["buf/buf.go", GO_BUF, GO_GUARDS],
    ["buf/buf_test.go", GO_TEST_BEFORE, `${GO_TEST_BEFORE}\nfunc TestSixteen(t *testing.T) {\n\tb, _ := New(16)\n\tif len(b) != 16 {\n\t\tt.Fatal("len")\n\t}\n}\n`],
    ["validation_bypass/high buf/buf.go"],
  ),
];

describe("a bound relaxed with a new test of the value it lets in (look-alikes)", () => {
  it.each(contractLookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a bound relaxed with no test of the value it lets in (cheats)", () => {
  it.each(contractCheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
