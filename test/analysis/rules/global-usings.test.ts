/**
 * A C# test file whose `using Shouldly;` moved into a global using (C# 10
 * `global using Shouldly;` in another file, or `<Using Include="Shouldly"
 * />` in the project) still asserts with Shouldly (languages/csharp.ts;
 * sweep of AutoMapper/AutoMapper 73ba4003e4: integration tests lost their
 * usings to global usings and were read as having lost their `ShouldBe`
 * checks). The checks really removed are still found.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = (usings: string, check: string): string =>
  `${usings}namespace AutoMapper.IntegrationTests;\n\npublic class ExpandMembersPath\n{\n    [Fact]\n    public void Should_expand_all_members_in_path()\n    {\n        var dto = Map(new Source { Name = "a" });\n        ${check}\n    }\n}\n`;
const USINGS = "using Shouldly;\nusing Xunit;\n\n";

const cases: RuleCase[] = [
  {
    name: "c#: using Shouldly and Xunit moved to global usings",
    changes: [change("src/IntegrationTests/ExpandMembersPath.cs", file(USINGS, 'dto.Name.ShouldBe("a");'), file("", 'dto.Name.ShouldBe("a");'))],
    findings: [],
  },
  {
    name: "c#: the usings moved to global usings and the ShouldBe check dropped",
    changes: [change("src/IntegrationTests/ExpandMembersPath.cs", file(USINGS, 'dto.Name.ShouldBe("a");'), file("", "dto.ShouldNotBeNull();"))],
    findings: ['assertion_weakening/high src/IntegrationTests/ExpandMembersPath.cs "ExpandMembersPath > Should_expand_all_members_in_path"'],
  },
];

describe("C# global usings", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
