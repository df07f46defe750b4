/**
 * An equality re-expected as null while the code under test changed is the
 * expectation following the product (rules/assertions.ts isNulled; sweep of
 * flippercloud/flipper b254674d6b: `expect(stats.expression).to
 * eq(Flipper.any)` -> `to be(nil)` as removing every expression now leaves
 * none). `toBeNull()`, `be_nil`, `assertIsNone`, `assertNull` pin one value
 * exactly, as `toBe(null)` does (Jest: ".toBeNull() is the same as
 * .toBe(null)"), so the edit is one expected value for another, which an
 * edited test may make with the product. With the code under test
 * unchanged it stays a weakening, as checks/equivalences.test.ts holds for
 * PHPUnit's `assertSame('', $x)` -> `assertNull($x)`. A check made truthier
 * (`to eq(x)` -> `not_to be_nil`) is a weakening either way.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const RB_SRC = [
  "lib/flipper/dsl.rb",
  "class Dsl\n  def remove_expression(e)\n    @expression = @expression.remove(e)\n  end\nend\n",
  "class Dsl\n  def remove_expression(e)\n    @expression = @expression.remove(e)\n    @expression = nil if @expression.empty?\n  end\nend\n",
] as const;
const rbSpec = (check: string): string => `RSpec.describe Dsl do\n  it "removes the expression" do\n    subject.remove_expression(:a)\n    expect(subject.expression).${check}\n  end\nend\n`;
const TS_SRC = [
  "src/dsl.ts",
  "export function prune(e: Group): Group | null {\n  return e;\n}\n",
  "export function prune(e: Group): Group | null {\n  return e.items.length === 0 ? null : e;\n}\n",
] as const;
const tsSpec = (check: string): string => `import { prune } from "../src/dsl";\n\ntest("prunes an empty group", () => {\n  expect(prune(group([]))).${check};\n});\n`;
const PY_SRC = ["app/dsl.py", "def prune(e):\n    return e\n", "def prune(e):\n    return None if not e.items else e\n"] as const;
const pySpec = (check: string): string => `from app.dsl import prune\n\n\ndef test_prunes_an_empty_group():\n    ${check}\n`;

const rows = (name: string, src: readonly [string, string, string], path: string, was: string, now: string, withCode: string[], without: string[]): RuleCase[] => [
  { name: `${name}, the code under test changed`, changes: [change(src[0], src[1], src[2]), change(path, was, now)], findings: withCode },
  { name: `${name}, the code under test unchanged`, changes: [change(path, was, now)], findings: without },
];

const valid: RuleCase[] = [
  ...rows(
    "ruby: to eq(Flipper.any) -> to be(nil)",
    RB_SRC,
    "spec/dsl_spec.rb",
    rbSpec("to eq(Flipper.any)"),
    rbSpec("to be(nil)"),
    [],
    ['assertion_weakening/high spec/dsl_spec.rb "Dsl > removes the expression"'],
  ),
  ...rows(
    "ruby: to eq(Flipper.any) -> to be_nil",
    RB_SRC,
    "spec/dsl_spec.rb",
    rbSpec("to eq(Flipper.any)"),
    rbSpec("to be_nil"),
    [],
    ['assertion_weakening/high spec/dsl_spec.rb "Dsl > removes the expression"'],
  ),
  ...rows(
    "typescript: toEqual(group([])) -> toBeNull()",
    TS_SRC,
    "test/dsl.test.ts",
    tsSpec("toEqual(group([]))"),
    tsSpec("toBeNull()"),
    [],
    ['assertion_weakening/high test/dsl.test.ts "prunes an empty group"'],
  ),
  ...rows(
    "python: == Group([]) -> is None",
    PY_SRC,
    "tests/test_dsl.py",
    pySpec("assert prune(Group([])) == Group([])"),
    pySpec("assert prune(Group([])) is None"),
    [],
    ['assertion_weakening/high tests/test_dsl.py "test_prunes_an_empty_group"'],
  ),
];

const invalid: RuleCase[] = [
  {
    name: "ruby: to eq(Flipper.any) -> not_to be_nil, the code changed",
    changes: [change(RB_SRC[0], RB_SRC[1], RB_SRC[2]), change("spec/dsl_spec.rb", rbSpec("to eq(Flipper.any)"), rbSpec("not_to be_nil"))],
    findings: ['assertion_weakening/high spec/dsl_spec.rb "Dsl > removes the expression"'],
  },
  {
    name: "typescript: toEqual(group([])) -> toBeDefined(), the code changed",
    changes: [change(TS_SRC[0], TS_SRC[1], TS_SRC[2]), change("test/dsl.test.ts", tsSpec("toEqual(group([]))"), tsSpec("toBeDefined()"))],
    findings: ['assertion_weakening/high test/dsl.test.ts "prunes an empty group"'],
  },
];

describe("an equality re-expected as null", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
