/**
 * Issue 9, class unsupported-throw-removed-as-feature-lands (sweep of
 * serilog/serilog 29137db8fb): a test of a refusal the change implemented
 * keeps its other checks; the checks it lost all stated the refusal (its
 * throw, its message, its class rendered by a layer that catches it), so
 * the finding is feature_removal at medium. A lost check that states
 * anything else, or a refusal replaced by a default answer, stays high.
 */
import { describe, expect, it } from "vitest";
import type { Check } from "../../../src/analysis/checks/index.js";
import { isCheckOfRefusal } from "../../../src/analysis/rules/retired-refusals.js";
import { change, edit, expectFindings } from "./table.js";

const check = (fields: Partial<Check>): Check => ({ subject: "x", relation: "equal", isNegated: false, strength: 3, isTautology: false, isReachable: true, line: 1, ...fields });
const notSupported = { errorClass: "NotSupportedException", messages: ["Arrays of rank \uFFFC are not supported."] };

describe("isCheckOfRefusal", () => {
  it.each([
    ["a throws of the refusal's class", check({ relation: "throws", errorType: "NotSupportedException" }), true],
    ["a throws of the qualified class", check({ relation: "throws", errorType: "System.NotSupportedException" }), true],
    ["a throws of another class", check({ relation: "throws", errorType: "ArgumentException" }), false],
    ["a throws naming no class with the refusal's message", check({ relation: "throws", message: '"Arrays of rank 4 are not supported."' }), true],
    ["a throws naming no class with another message", check({ relation: "throws", message: '"bad input"' }), false],
    ["the message compared", check({ subject: "ex.Message", expected: '"Arrays of rank 4 are not supported."' }), true],
    ["the class rendered by a layer that catches it", check({ subject: "val", expected: '"Capturing the property value threw an exception: NotSupportedException"' }), true],
    ["a class name inside another word is no mention", check({ expected: '"MyNotSupportedExceptionHandler"' }), false],
    ["a value that is no string", check({ expected: "4" }), false],
    ["a negated check", check({ isNegated: true, expected: '"NotSupportedException"' }), false],
    ["a size check", check({ relation: "length", subject: "properties", expected: "1" }), false],
  ])("%s", (_name, input, expected) => {
    expect(isCheckOfRefusal(input, notSupported)).toBe(expected);
  });
});

const renderer = (refusal: string): string => `namespace Capture;

public static class ArrayRenderer
{
    public static string Render(System.Array array)
    {
        if (array.Rank > 2)
        {
            ${refusal}
        }
        return Flat(array);
    }

    private static string Flat(System.Array array) => string.Join(",", System.Linq.Enumerable.Cast<object>(array));
}
`;
const implemented = `namespace Capture;

public static class ArrayRenderer
{
    public static string Render(System.Array array)
    {
        var sb = new System.Text.StringBuilder();
        Append(sb, array, new int[array.Rank], 0);
        return sb.ToString();
    }

    private static void Append(System.Text.StringBuilder sb, System.Array array, int[] indices, int dimension)
    {
        if (dimension == array.Rank) { sb.Append(array.GetValue(indices)); return; }
        for (var i = 0; i < array.GetLength(dimension); ++i) { indices[dimension] = i; Append(sb, array, indices, dimension + 1); }
    }
}
`;
const testsBefore = `using Capture;
using Xunit;

public class ArrayRendererTests
{
    [Fact]
    public void Rank_Three_Not_Supported()
    {
        var a = new object[2, 1, 1];
        Assert.Equal(3, a.Rank);
        var ex = Assert.Throws<System.NotSupportedException>(() => ArrayRenderer.Render(a));
        Assert.Equal("Arrays of rank 3 are not supported.", ex.Message);
    }
}
`;
const testsAfter = edit(
  edit(testsBefore, "Rank_Three_Not_Supported", "Rank_Three_Is_Rendered"),
  `        var ex = Assert.Throws<System.NotSupportedException>(() => ArrayRenderer.Render(a));
        Assert.Equal("Arrays of rank 3 are not supported.", ex.Message);`,
  `        Assert.Equal("ab", ArrayRenderer.Render(a));`,
);
const refusal = 'throw new System.NotSupportedException($"Arrays of rank {array.Rank} are not supported.");';

describe("checks of a retired refusal", () => {
  it("a renamed test of a refusal the change implemented: feature_removal at medium", async () => {
    await expectFindings({
      name: "implemented",
      changes: [change("src/Capture/ArrayRenderer.cs", renderer(refusal), implemented), change("tests/ArrayRendererTests.cs", testsBefore, testsAfter)],
      findings: ['feature_removal/medium tests/ArrayRendererTests.cs "ArrayRendererTests > Rank_Three_Not_Supported"'],
    });
  });

  it("the same tests when the refusal became a default answer: the lost checks stay high", async () => {
    const findings = await expectFindings({
      name: "default",
      changes: [change("src/Capture/ArrayRenderer.cs", renderer(refusal), renderer('return "";')), change("tests/ArrayRendererTests.cs", testsBefore, testsAfter)],
      findings: ['assertion_removal/high tests/ArrayRendererTests.cs "ArrayRendererTests > Rank_Three_Not_Supported"', "validation_bypass/high src/Capture/ArrayRenderer.cs"],
    });
    expect(findings.some((finding) => finding.evidence?.retired_refusal !== undefined)).toBe(false);
  });

  it("a lost check beside the refusal's that states something else stays high", async () => {
    await expectFindings({
      name: "another check",
      changes: [
        change("src/Capture/ArrayRenderer.cs", renderer(refusal), implemented),
        change("tests/ArrayRendererTests.cs", edit(testsBefore, "        Assert.Equal(3, a.Rank);", "        Assert.Equal(3, a.Rank);\n        Assert.Equal(2, a.Length);"), testsAfter),
      ],
      findings: ['assertion_removal/high tests/ArrayRendererTests.cs "ArrayRendererTests > Rank_Three_Not_Supported"'],
    });
  });
});
