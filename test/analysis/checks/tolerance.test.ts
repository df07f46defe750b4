/**
 * Tolerances of approximate equalities (checks/tolerance.ts, issue 9 "tolerance widened"): every
 * framework's spelling read as one absolute/relative tolerance, and a widened one judged weaker.
 */
import { describe, expect, it } from "vitest";
import type { AssertionFact } from "../../../src/analysis/facts.js";
import { coverage, toCheck } from "../../../src/analysis/checks/index.js";
import { isLooser, isToleranceWidened, numberOf } from "../../../src/analysis/checks/tolerance.js";

const fact = (matcher: string, actual: string, expected: string | undefined, tolerance?: string): AssertionFact => {
  const made: AssertionFact = { line: 1, matcher, strength: 3, tautology: false, actual };
  if (expected !== undefined) made.expected = expected;
  if (tolerance !== undefined) made.tolerance = tolerance;
  return made;
};

describe("tolerance of one assertion", () => {
  it.each([
    ["pytest.approx rel", fact("assert ==", "f(1)", "pytest.approx(0.05, rel=1e-9)"), { abs: 1e-12, rel: 1e-9 }],
    ["pytest.approx abs", fact("assert ==", "f(1)", "pytest.approx(1896.20, abs=0.01)"), { abs: 0.01, rel: 1e-6 }],
    ["pytest.approx defaults", fact("assert ==", "f(1)", "approx(2.5)"), { abs: 1e-12, rel: 1e-6 }],
    ["testify InDelta", fact("assert.InDelta", "2.1", "sd", "1e-5"), { abs: 1e-5 }],
    ["testify InEpsilon", fact("require.InEpsilon", "2.1", "sd", "0.01"), { rel: 0.01 }],
    ["JUnit assertEquals delta", fact("assertEquals", "f()", "0.07", "1e-12"), { abs: 1e-12 }],
    ["PHPUnit assertEqualsWithDelta", fact("assertEqualsWithDelta", "f()", "0.07", "0.00001"), { abs: 0.00001 }],
    ["minitest assert_in_delta default", fact("assert_in_delta", "f", "1.5", undefined), { abs: 0.001 }],
    ["xUnit precision", fact("Assert.Equal", "f()", "1.5", "6"), { abs: 5e-7 }],
    ["xUnit tolerance", fact("Assert.Equal", "f()", "1.5", "0.01"), { abs: 0.01 }],
    ["toBeCloseTo default", fact("toBeCloseTo", "f()", "1.5"), { abs: 0.005 }],
    ["toBeCloseTo negative digits", fact("toBeCloseTo", "f()", "1.5", "-2"), { abs: 50 }],
    ["Rust hand-written epsilon", fact("assert!", "(f(1) - 0.2).abs() < 1e-6", undefined), { abs: 1e-6 }],
    ["Python hand-written epsilon", fact("assert", "abs(f(1) - 0.2) <= 0.001", undefined), { abs: 0.001 }],
    ["math.isclose", fact("assert", "math.isclose(f(1), 0.2, rel_tol=1e-3)", undefined), { abs: 0, rel: 1e-3 }],
  ])("%s", (_, assertion, tolerance) => {
    expect(toCheck(assertion).tolerance).toEqual(tolerance);
  });

  it("has none for an exact equality, a name as delta, or a plain order check", () => {
    expect(toCheck(fact("assertEquals", "f()", "1")).tolerance).toBeUndefined();
    expect(toCheck(fact("assert.InDelta", "2.1", "sd", "eps")).tolerance).toEqual({});
    expect(toCheck(fact("assert", "elapsed < 750", undefined)).tolerance).toBeUndefined();
    expect(toCheck(fact("assert", "f(1) - 2 < 0.5", undefined)).tolerance).toBeUndefined();
  });

  it("reads numbers as each language writes them", () => {
    expect(numberOf("1e-6f")).toBe(1e-6);
    expect(numberOf("0.000_01")).toBe(0.00001);
    expect(numberOf("0.01m")).toBe(0.01);
    expect(numberOf("eps")).toBeUndefined();
  });
});

describe("a widened tolerance", () => {
  it.each([
    ["InDelta 1e-5 -> 0.2", fact("assert.InDelta", "2.1", "sd", "1e-5"), fact("assert.InDelta", "2.1", "sd", "0.2"), true],
    ["InDelta 1e-5 -> 1e-6", fact("assert.InDelta", "2.1", "sd", "1e-5"), fact("assert.InDelta", "2.1", "sd", "1e-6"), false],
    ["toBeCloseTo 2 -> -2 digits", fact("toBeCloseTo", "f()", "343.9", "2"), fact("toBeCloseTo", "f()", "343.9", "-2"), true],
    ["toBeCloseTo 2 -> 4 digits", fact("toBeCloseTo", "f()", "343.9", "2"), fact("toBeCloseTo", "f()", "343.9", "4"), false],
    ["xUnit precision 6 -> 0", fact("Assert.Equal", "f()", "42.1", "6"), fact("Assert.Equal", "f()", "42.1", "0"), true],
    ["xUnit precision 6 -> 8", fact("Assert.Equal", "f()", "42.1", "6"), fact("Assert.Equal", "f()", "42.1", "8"), false],
    ["approx rel 1e-9 -> 0.05", fact("assert ==", "f(1)", "pytest.approx(0.05, rel=1e-9)"), fact("assert ==", "f(1)", "pytest.approx(0.05, rel=0.05)"), true],
    ["approx abs 0.01 -> 1e-4", fact("assert ==", "f(1)", "pytest.approx(1896.2, abs=0.01)"), fact("assert ==", "f(1)", "pytest.approx(1896.2, abs=1e-4)"), false],
    ["epsilon 1e-6 -> 0.05", fact("assert!", "(f(1) - 0.2).abs() < 1e-6", undefined), fact("assert!", "(f(1) - 0.2).abs() < 0.05", undefined), true],
    ["delta as a name", fact("assert.InDelta", "2.1", "sd", "1e-5"), fact("assert.InDelta", "2.1", "sd", "tolerance"), false],
  ])("%s: %s", (_, before, after, widened) => {
    expect(isToleranceWidened(toCheck(before), toCheck(after))).toBe(widened);
    expect(coverage(toCheck(before), toCheck(after), false) === null).toBe(widened || toCheck(before).expected !== toCheck(after).expected);
  });

  it("compares unlike parts only where both sides state them", () => {
    expect(isLooser({ rel: 1e-9 }, { abs: 0.01 })).toBe(false);
    expect(isLooser({ abs: 1e-3, rel: 1e-6 }, { abs: 1e-9, rel: 1e-6 }, 1000)).toBe(false);
    expect(isLooser(undefined, { abs: 5 })).toBe(false);
  });
});
