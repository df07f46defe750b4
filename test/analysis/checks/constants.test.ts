/**
 * Checks of the test's own constants (checks/constants.ts): an equality
 * built only from literals and names the test file binds to such
 * expressions reads nothing of the product, and when both sides evaluate to
 * one value it is a tautology (sweep of bitflags/bitflags 79225854ca: a
 * test dropping `assert_eq!(AB, 0b0011)` for `const AB: u32 = A | B;` lost
 * nothing). A constant the product defines, a side that calls something,
 * or two values that differ stay checks.
 */
import { describe, expect, it } from "vitest";
import { evaluateConstant, isConstantTautology } from "../../../src/analysis/checks/constants.js";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings } from "../rules/table.js";

describe("evaluateConstant", () => {
  const bound = new Map([
    ["A", "0b0001"],
    ["B", "0b0010"],
    ["AB", "A|B"],
    ["LOOP", "LOOP+1"],
    ["NAME", '"x"'],
  ]);
  const resolve = (name: string): string | undefined => bound.get(name);

  it.each([
    ["0b0011", 3n],
    ["0x1F", 31n],
    ["1_000u32", 1000n],
    ["0o17", 15n],
    ["A|B", 3n],
    ["AB<<2", 12n],
    ["(A+B)*2-1", 5n],
    ["-A", -1n],
    ["A==1", true],
    ['NAME+"y"', "xy"],
  ])("%s = %s", (text, value) => {
    expect(evaluateConstant(text, resolve)).toBe(value);
  });

  it.each([["f(1)"], ["A.bits()"], ["C"], ["LOOP"], ["A/0"], ["[1,2]"], ['"\\n"']])("%s is not a constant", (text) => {
    expect(evaluateConstant(text, resolve)).toBeUndefined();
  });

  it("a tautology needs a resolved name and one value on both sides", () => {
    expect(isConstantTautology("AB", "0b0011", resolve)).toBe(true);
    expect(isConstantTautology("AB", "4", resolve)).toBe(false);
    expect(isConstantTautology("1", "1", resolve)).toBe(false); // no name: the extractor's own tautology rule says so
    expect(isConstantTautology("C", "1", resolve)).toBe(false);
  });
});

describe("checks of the test's own constants are tautologies", () => {
  it.each([
    ["rust", "tests/flags.rs", "const A: u32 = 0b0001;\nconst B: u32 = 0b0010;\nconst AB: u32 = A | B;\n\n#[test]\nfn flags() {\n    assert_eq!(AB, 0b0011);\n    assert_eq!(parse(AB), 3);\n}\n"],
    [
      "go",
      "flags_test.go",
      'package flags\n\nimport "testing"\n\nconst (\n\tA  = 1 << 0\n\tB  = 1 << 1\n\tAB = A | B\n)\n\nfunc TestFlags(t *testing.T) {\n\tif AB != 3 {\n\t\tt.Error("AB")\n\t}\n\tif got := Parse(AB); got != 3 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n',
    ],
    ["python", "tests/test_flags.py", "from flags import parse\n\nA = 0b0001\nB = 0b0010\nAB = A | B\n\n\ndef test_flags():\n    assert AB == 3\n    assert parse(AB) == 3\n"],
  ])("%s", async (_, path, source) => {
    const facts = await extractFacts(path, source);
    expect(facts.tests[0]?.assertionsDetail?.map((fact) => fact.tautology)).toEqual([true, false]);
  });

  it("a constant the product defines is a check (it reads the product)", async () => {
    const facts = await extractFacts("tests/flags.rs", "use flags::AB;\n\n#[test]\nfn flags() {\n    assert_eq!(AB, 0b0011);\n}\n");
    expect(facts.tests[0]?.assertionsDetail?.[0]?.tautology).toBe(false);
  });

  it("a constant bound to a call is a check", async () => {
    const facts = await extractFacts("tests/test_flags.py", "from flags import mask\n\nAB = mask(1, 2)\n\n\ndef test_flags():\n    assert AB == 3\n");
    expect(facts.tests[0]?.assertionsDetail?.[0]?.tautology).toBe(false);
  });

  const RS = (checks: string): string => `use flags::parse;\n\nconst A: u32 = 0b0001;\nconst B: u32 = 0b0010;\n\n#[test]\nfn flags() {\n    assert_eq!(parse(A | B), 3);\n${checks}}\n`;

  it("dropping them loses no check", async () => {
    await expectFindings({ name: "constants dropped", changes: [change("tests/flags.rs", RS("    assert_eq!(A, 1);\n    assert_eq!(B, 0b10);\n"), RS(""))], findings: [] });
  });

  it("dropping a check of the product beside them is still a removal", async () => {
    await expectFindings({
      name: "product check dropped",
      changes: [change("tests/flags.rs", RS("    assert_eq!(A, 1);\n    assert_eq!(parse(B), 2);\n"), RS(""))],
      findings: ['assertion_removal/high tests/flags.rs "flags"'],
    });
  });
});
