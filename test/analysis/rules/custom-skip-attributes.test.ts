/**
 * Issue 9 (skips through indirection, the attribute form): a test marked with
 * a project attribute that always skips it. xUnit FactAttribute subclasses
 * that set Skip unconditionally and JUnit 5 annotations meta-annotated with
 * @Disabled, beside their look-alikes: a Skip set under a condition (a
 * platform check), an attribute that sets only a display name or timeout.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { skippingAttributesOf } from "../../../src/analysis/custom-skip-attributes.js";
import { changesBetween, treeOf, unchangedBetween } from "../../helpers/trees.js";

const CS_TEST = "tests/S.Tests/StoreTests.cs";
const csTest = (attribute: string): string =>
  `using Xunit;\n\nnamespace S.Tests;\n\npublic class StoreTests\n{\n    [${attribute}]\n    public void Rejects()\n    {\n        Assert.Equal(1, Store.Get("x"));\n    }\n\n    [Fact]\n    public void Accepts()\n    {\n        Assert.Equal(2, Store.Get("y"));\n    }\n}\n`;
const csAttribute = (body: string): string => `using Xunit;\n\nnamespace S.Tests;\n\npublic sealed class StableFactAttribute : FactAttribute\n{\n${body}\n}\n`;

const JAVA_TEST = "src/test/java/com/example/StoreTest.java";
const javaTest = (annotation: string): string =>
  `package com.example;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass StoreTest {\n    @Test\n    ${annotation}\n    void rejects() {\n        assertEquals(1, Store.get("x"));\n    }\n}\n`;
const javaAnnotation = (meta: string): string =>
  `package com.example;\n\nimport java.lang.annotation.*;\nimport org.junit.jupiter.api.*;\n\n@Retention(RetentionPolicy.RUNTIME)\n@Target(ElementType.METHOD)\n${meta}\npublic @interface Stable {\n}\n`;

async function blockingOf(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
  const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) }, unchanged: unchangedBetween(before, after) });
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => `${finding.type}/${finding.severity} ${finding.file}`);
}

describe("a custom attribute that always skips", () => {
  const csBefore = { [CS_TEST]: csTest("Fact") };
  it.each([
    ["a constructor setting Skip", '    public StableFactAttribute()\n    {\n        Skip = "flaky on CI";\n    }'],
    ["an override of Skip", '    public override string Skip => "flaky on CI";'],
  ])("C# %s: test_disabled on the test file", async (_, body) => {
    expect(await blockingOf(csBefore, { [CS_TEST]: csTest("StableFact"), "tests/S.Tests/StableFactAttribute.cs": csAttribute(body) })).toEqual([`test_disabled/critical ${CS_TEST}`]);
  });

  it("C#: the attribute already in the tree, newly applied", async () => {
    const tree = { ...csBefore, "tests/S.Tests/StableFactAttribute.cs": csAttribute('    public StableFactAttribute() { Skip = "flaky"; }') };
    expect(await blockingOf(tree, { ...tree, [CS_TEST]: csTest("StableFact") })).toEqual([`test_disabled/critical ${CS_TEST}`]);
  });

  it.each([
    ["a Skip under a platform condition", '    public StableFactAttribute()\n    {\n        if (!OperatingSystem.IsLinux())\n        {\n            Skip = "linux only";\n        }\n    }'],
    ["a Skip under a one-line condition", '    public StableFactAttribute()\n    {\n        if (!OperatingSystem.IsLinux()) Skip = "linux only";\n    }'],
    ["only a display name", '    public StableFactAttribute()\n    {\n        DisplayName = "stable";\n    }'],
  ])("C# %s: no blocking finding", async (_, body) => {
    expect(await blockingOf(csBefore, { [CS_TEST]: csTest("StableFact"), "tests/S.Tests/StableFactAttribute.cs": csAttribute(body) })).toEqual([]);
  });

  const javaBefore = { [JAVA_TEST]: javaTest("") };
  it("Java: an annotation meta-annotated @Disabled: test_disabled on the test file", async () => {
    expect(await blockingOf(javaBefore, { [JAVA_TEST]: javaTest("@Stable"), "src/test/java/com/example/Stable.java": javaAnnotation('@Disabled("flaky")') })).toEqual([
      `test_disabled/critical ${JAVA_TEST}`,
    ]);
  });

  it("Java: an annotation meta-annotated with a tag only: no blocking finding", async () => {
    expect(await blockingOf(javaBefore, { [JAVA_TEST]: javaTest("@Stable"), "src/test/java/com/example/Stable.java": javaAnnotation('@Tag("stable")') })).toEqual([]);
  });

  it("reads the declarations", () => {
    expect(skippingAttributesOf("a.cs", csAttribute('    public StableFactAttribute() : base() { Skip = "x"; }'))).toEqual(["StableFact", "StableFactAttribute"]);
    expect(skippingAttributesOf("Stable.java", javaAnnotation("@Disabled"))).toEqual(["Stable"]);
    expect(skippingAttributesOf("Stable.java", javaAnnotation('@Tag("x")'))).toEqual([]);
  });
});
