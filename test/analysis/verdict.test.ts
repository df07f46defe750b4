/**
 * Allow rules and the verdict: tables over hand-made findings, so the rules
 * are checked apart from extraction.
 */
import { describe, expect, it } from "vitest";
import type { AllowRule, Finding, Severity } from "../../src/analysis/index.js";
import { applyAllowRules, decideVerdict, findAllowRule, isPathCovered, sortFindings } from "../../src/analysis/verdict.js";

function finding(severity: Severity, overrides: Partial<Finding> = {}): Finding {
  return {
    type: "test_deletion",
    severity,
    file: "test/a.test.ts",
    line: 1,
    message: "m",
    allowed: false,
    ...overrides,
  };
}

describe("decideVerdict", () => {
  it.each([
    { name: "no findings", findings: [], verdict: "PASS" },
    { name: "only low", findings: [finding("low")], verdict: "PASS" },
    { name: "a medium", findings: [finding("low"), finding("medium")], verdict: "WARN" },
    { name: "a high", findings: [finding("medium"), finding("high")], verdict: "BLOCK" },
    { name: "a critical", findings: [finding("critical")], verdict: "BLOCK" },
    { name: "an allowed critical", findings: [finding("critical", { allowed: true })], verdict: "WARN" },
    { name: "an allowed low", findings: [finding("low", { allowed: true })], verdict: "WARN" },
    { name: "an allowed critical beside an open high", findings: [finding("critical", { allowed: true }), finding("high")], verdict: "BLOCK" },
  ] as const)("$name -> $verdict", ({ findings, verdict }) => {
    expect(decideVerdict(findings)).toBe(verdict);
  });
});

describe("allow rules", () => {
  it.each([
    { name: "same type", rule: { type: "test_deletion", reason: "r" }, allowed: true },
    { name: "wildcard type", rule: { type: "*", reason: "r" }, allowed: true },
    { name: "other type", rule: { type: "test_disabled", reason: "r" }, allowed: false },
    { name: "same path", rule: { type: "*", reason: "r", path: "test/a.test.ts" }, allowed: true },
    { name: "containing directory", rule: { type: "*", reason: "r", path: "test" }, allowed: true },
    { name: "containing directory with slash", rule: { type: "*", reason: "r", path: "./test/" }, allowed: true },
    { name: "a directory prefix that is not a directory", rule: { type: "*", reason: "r", path: "tes" }, allowed: false },
    { name: "glob", rule: { type: "*", reason: "r", path: "**/*.test.ts" }, allowed: true },
    { name: "glob that stays in one segment", rule: { type: "*", reason: "r", path: "*.test.ts" }, allowed: false },
    { name: "other path", rule: { type: "*", reason: "r", path: "src" }, allowed: false },
  ] as const satisfies readonly { name: string; rule: AllowRule; allowed: boolean }[])("$name -> $allowed", ({ rule, allowed }) => {
    const [result] = applyAllowRules([finding("critical")], [rule]);
    expect(result?.allowed).toBe(allowed);
    expect(result?.allow_reason).toBe(allowed ? "r" : undefined);
  });

  it("matches a rule's path against the before side of a moved finding", () => {
    const moved = finding("critical", { file: "test/new.test.ts", before_file: "legacy/old.test.ts" });
    expect(findAllowRule(moved, [{ type: "*", reason: "legacy cleanup", path: "legacy" }])?.reason).toBe("legacy cleanup");
  });

  it("uses the first matching rule and keeps every finding", () => {
    const rules: AllowRule[] = [
      { type: "test_disabled", reason: "not this one" },
      { type: "test_deletion", reason: "first" },
      { type: "*", reason: "second" },
    ];
    const result = applyAllowRules([finding("critical"), finding("high", { type: "feature_removal" })], rules);
    expect(result.map((f) => [f.type, f.allowed, f.allow_reason])).toEqual([
      ["test_deletion", true, "first"],
      ["feature_removal", true, "second"],
    ]);
  });

  it.each([
    ["src/**", "src/a/b.ts", true],
    ["src/*.ts", "src/a/b.ts", false],
    ["src/?.ts", "src/a.ts", true],
    ["test/cart.test.ts", "test/cart.test.ts", true],
    ["a.b", "aXb", false],
  ] as const)("isPathCovered(%s, %s) is %s", (rulePath, file, expected) => {
    expect(isPathCovered(rulePath, file)).toBe(expected);
  });
});

describe("sortFindings", () => {
  it("puts the most severe first, then orders by file and line", () => {
    const sorted = sortFindings([finding("low", { file: "a" }), finding("critical", { file: "b", line: 9 }), finding("critical", { file: "b", line: 2 }), finding("high", { file: "a" })]);
    expect(sorted.map((f) => `${f.severity}:${f.file}:${f.line}`)).toEqual(["critical:b:2", "critical:b:9", "high:a:1", "low:a:1"]);
  });
});
