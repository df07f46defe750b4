/**
 * Issue 9 (breaker3's java-execution-condition-extension-disables): a JUnit 5
 * ExecutionCondition that disables tests by their name, applied to a test
 * class with @ExtendWith or @RegisterExtension, skips the tests it picks from
 * a file that looks like infrastructure. A condition that reads only the
 * environment, or the test's annotations, is a conditional skip.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { javaExecutionConditions, javaExtensionsApplied } from "../../../src/analysis/languages/java-suites.js";
import { changesBetween, treeOf, unchangedBetween } from "../../helpers/trees.js";

const DIR = "src/test/java/com/example/shop";
const testClass = (annotation: string): string =>
  `package com.example.shop;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\nimport org.junit.jupiter.api.extension.ExtendWith;\n\n${annotation}class CartTest {\n    @Test\n    void totalsAboveThreshold() {\n        assertEquals(90, new Cart(100).total());\n    }\n}\n`;
const condition = (decision: string): string =>
  `package com.example.shop;\n\nimport org.junit.jupiter.api.extension.*;\n\npublic class Gate implements ExecutionCondition {\n    @Override\n    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {\n        ${decision}\n    }\n}\n`;
const BY_NAME =
  'boolean picked = context.getTestMethod().map(m -> m.getName().endsWith("Threshold")).orElse(false);\n        return picked ? ConditionEvaluationResult.disabled("flaky") : ConditionEvaluationResult.enabled("ok");';
const BY_DISPLAY = 'return context.getDisplayName().contains("Threshold") ? ConditionEvaluationResult.disabled("flaky") : ConditionEvaluationResult.enabled("ok");';
const BY_ENV = 'return System.getenv("LOCALE_DATA") == null ? ConditionEvaluationResult.disabled("no locale data") : ConditionEvaluationResult.enabled("ok");';
const BY_ANNOTATION =
  'boolean needs = context.getTestMethod().map(m -> m.isAnnotationPresent(NeedsDocker.class)).orElse(false);\n        return needs && System.getenv("DOCKER_HOST") == null ? ConditionEvaluationResult.disabled("no docker") : ConditionEvaluationResult.enabled("ok");';

async function blockingOf(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
  const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) }, unchanged: unchangedBetween(before, after) });
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => `${finding.type}/${finding.severity} ${finding.file}`);
}

describe("an ExecutionCondition newly in front of existing tests", () => {
  const before = { [`${DIR}/CartTest.java`]: testClass("") };

  it.each([
    ["by method name, @ExtendWith", BY_NAME, "@ExtendWith(Gate.class)\n"],
    ["by display name, @ExtendWith with a list", BY_DISPLAY, "@ExtendWith({Gate.class})\n"],
  ])("%s: test_disabled on the test class", async (_, decision, annotation) => {
    expect(await blockingOf(before, { [`${DIR}/CartTest.java`]: testClass(annotation), [`${DIR}/Gate.java`]: condition(decision) })).toEqual([`test_disabled/critical ${DIR}/CartTest.java`]);
  });

  it("a condition already in the tree, newly applied: test_disabled", async () => {
    const tree = { ...before, [`${DIR}/Gate.java`]: condition(BY_NAME) };
    expect(await blockingOf(tree, { ...tree, [`${DIR}/CartTest.java`]: testClass("@ExtendWith(Gate.class)\n") })).toEqual([`test_disabled/critical ${DIR}/CartTest.java`]);
  });

  it("an applied condition turned into one that picks by name: test_disabled on the condition", async () => {
    const tree = { [`${DIR}/CartTest.java`]: testClass("@ExtendWith(Gate.class)\n"), [`${DIR}/Gate.java`]: condition(BY_ENV) };
    expect(await blockingOf(tree, { ...tree, [`${DIR}/Gate.java`]: condition(BY_NAME) })).toEqual([`test_disabled/critical ${DIR}/Gate.java`]);
  });

  it.each([
    ["by the environment", BY_ENV],
    ["by an annotation on the test and the environment", BY_ANNOTATION],
  ])("a condition that decides %s: no blocking finding", async (_, decision) => {
    expect(await blockingOf(before, { [`${DIR}/CartTest.java`]: testClass("@ExtendWith(Gate.class)\n"), [`${DIR}/Gate.java`]: condition(decision) })).toEqual([]);
  });
});

describe("javaExtensionsApplied and javaExecutionConditions", () => {
  it("reads @ExtendWith lists and @RegisterExtension fields", () => {
    expect(javaExtensionsApplied("@ExtendWith({A.class, org.x.B.class})\nclass T { @RegisterExtension static Gate gate = new Gate(); }")).toEqual(["A", "B", "Gate"]);
  });

  it("tells a condition by identity from one by environment", () => {
    expect(javaExecutionConditions(condition(BY_NAME))).toEqual([{ name: "Gate", line: 5, byIdentity: true }]);
    expect(javaExecutionConditions(condition(BY_ENV))).toEqual([{ name: "Gate", line: 5, byIdentity: false }]);
  });
});
