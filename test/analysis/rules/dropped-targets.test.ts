/**
 * Table rows of a build target the change stops building for
 * (dropped-dependencies.ts droppedTargets, rules/features.ts rowsFinding):
 * FakeItEasy ffe32a33fa took netstandard2.0, netstandard2.1 and net6.0 out
 * of its `<TargetFrameworks>`, and the API approval rows
 * `[InlineData("FakeItEasy", "net6.0")]` went with them: feature_removal at
 * medium. Rows of a target still built, rows removed with no target
 * dropped, or a removed row that names no dropped target stay test_deletion.
 */
import { describe, expect, it } from "vitest";
import { droppedTargets, targetFrameworks } from "../../../src/analysis/dropped-dependencies.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const csproj = (targets: string): string => `<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFrameworks>${targets}</TargetFrameworks>\n  </PropertyGroup>\n</Project>\n`;
const approval = (rows: string[]): string =>
  `using Xunit;\n\nnamespace Acme.Tests.Approval\n{\n    public class ApiApproval\n    {\n        [Theory]\n${rows.map((row) => `        [InlineData("Acme", "${row}")]\n`).join("")}        public void ApproveApi(string project, string framework)\n        {\n            Assert.Equal(Approved.Read(project, framework), Api.Generate(project, framework));\n        }\n    }\n}\n`;
const all = ["net462", "netstandard2.0", "net6.0", "net8.0"];
const testPath = "tests/Acme.Tests.Approval/ApiApproval.cs";

const cases: RuleCase[] = [
  {
    name: "csharp: rows of target frameworks the csproj drops (FakeItEasy ffe32a33fa)",
    changes: [change("src/Acme/Acme.csproj", csproj(all.join(";")), csproj("net462;net8.0")), change(testPath, approval(all), approval(["net462", "net8.0"]))],
    findings: [`feature_removal/medium ${testPath} "ApiApproval > ApproveApi"`],
  },
  {
    name: "csharp: a target dropped with its props file deleted",
    changes: [
      change("src/Acme/Acme.csproj", csproj("net462;net8.0"), csproj("net462;net8.0")),
      change("profiles/net6.0.props", `<Project>\n  <PropertyGroup>\n    <TargetFramework>net6.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n`, null),
      change(testPath, approval(["net462", "net6.0", "net8.0"]), approval(["net462", "net8.0"])),
    ],
    findings: [`feature_removal/medium ${testPath} "ApiApproval > ApproveApi"`],
  },
  {
    name: "cheat: csharp: rows of a target still built",
    changes: [change("src/Acme/Acme.csproj", csproj(all.join(";")), csproj("net462;net6.0;net8.0")), change(testPath, approval(all), approval(["net462", "net8.0"]))],
    findings: [`test_deletion/critical ${testPath} "ApiApproval > ApproveApi"`],
  },
  {
    name: "cheat: csharp: a removed row of a target still built beside one of a dropped target",
    changes: [change("src/Acme/Acme.csproj", csproj(all.join(";")), csproj("net462;netstandard2.0;net8.0")), change(testPath, approval(all), approval(["net462", "netstandard2.0"]))],
    findings: [`test_deletion/critical ${testPath} "ApiApproval > ApproveApi"`],
  },
  {
    name: "cheat: csharp: rows removed with no target dropped",
    changes: [change(testPath, approval(all), approval(["net462", "net8.0"]))],
    findings: [`test_deletion/critical ${testPath} "ApiApproval > ApproveApi"`],
  },
];

describe("rows of a build target the change drops", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
  it("reads project-defined target properties and TargetFramework conditions", () => {
    const props = `<Project><PropertyGroup><LibraryTargetFrameworks>net462;netstandard2.1</LibraryTargetFrameworks><FakeTargetFrameworks>$(LibraryTargetFrameworks)</FakeTargetFrameworks></PropertyGroup><PropertyGroup Condition="'$(TargetFramework)' == 'netstandard2.0'" /></Project>`;
    expect([...targetFrameworks(props)].sort()).toEqual(["net462", "netstandard2.0", "netstandard2.1"]);
  });
  it("reads TargetFramework and TargetFrameworks, lower-case", () => {
    expect([...targetFrameworks(`<TargetFrameworks>net462; NetStandard2.0 ;$(Extra)</TargetFrameworks><TargetFramework Condition="x">net8.0</TargetFramework>`)]).toEqual([
      "net462",
      "netstandard2.0",
      "net8.0",
    ]);
    expect(droppedTargets([change("a.csproj", csproj("net6.0;net8.0"), csproj("net8.0")), change("b.csproj", csproj("net7.0"), csproj("net6.0"))])).toEqual(["net7.0"]);
  });
});
