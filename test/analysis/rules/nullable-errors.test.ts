/**
 * A check that passed a bare `null` to a framework call, dropped as the
 * change turns nullable warnings into errors in the test project (the sweep
 * of JoshClose/CsvHelper 7dbb3fe710: `<Nullable>enable</Nullable>` and
 * `<WarningsAsErrors>nullable</WarningsAsErrors>`, and
 * `Assert.Throws<NotSupportedException>(() => cmConverter.ConvertFromString(null))`
 * on a System.ComponentModel converter gone): the line no longer compiles and
 * checked the framework, so its removal is reported at medium. The nearest
 * cheats: the same project change covering the removal of a check of the
 * project's own code (with or without a null), or the framework check
 * dropped while nullable warnings stay warnings.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const CSPROJ = (extra: string): string => `<Project Sdk="Microsoft.NET.Sdk">\n\t<PropertyGroup>\n\t\t<TargetFramework>net8.0</TargetFramework>\n${extra}\t</PropertyGroup>\n</Project>\n`;
const STRICT = "\t\t<Nullable>enable</Nullable>\n\t\t<WarningsAsErrors>nullable</WarningsAsErrors>\n";
const CHECKS = [
  "Assert.Throws<NotSupportedException>(() => cmConverter.ConvertFromString(null));",
  "Assert.Throws<TypeConverterException>(() => converter.ConvertFromString(null, CultureInfo.CurrentCulture));",
  'Assert.Throws<TypeConverterException>(() => converter.ConvertFromString("blah", CultureInfo.CurrentCulture));',
];
const TEST = (checks: readonly string[]): string =>
  `using System;\nusing System.Globalization;\nusing Xunit;\n\npublic class ConverterTests\n{\n    [Fact]\n    public void CompatibilityTest()\n    {\n        var converter = new DateTimeConverter();\n        var cmConverter = new System.ComponentModel.DateTimeConverter();\n\n        ${checks.join("\n        ")}\n    }\n}\n`;

const rows = (dropped: number, project: string): RuleCase["changes"] => [
  change("tests/Csv.Tests/Csv.Tests.csproj", CSPROJ(""), CSPROJ(project)),
  change("tests/Csv.Tests/ConverterTests.cs", TEST(CHECKS), TEST(CHECKS.filter((_, index) => index !== dropped))),
];
const REMOVED = 'assertion_removal/high tests/Csv.Tests/ConverterTests.cs "ConverterTests > CompatibilityTest"';

const lookAlikes: RuleCase[] = [
  {
    name: "csharp: the framework's null check dropped as nullable warnings become errors",
    changes: rows(0, STRICT),
    findings: ['assertion_removal/medium tests/Csv.Tests/ConverterTests.cs "ConverterTests > CompatibilityTest"'],
  },
];

const cheats: RuleCase[] = [
  { name: "csharp: the project's own null check dropped under the same project change", changes: rows(1, STRICT), findings: [REMOVED] },
  { name: "csharp: the project's own check of a bad string dropped under the same project change", changes: rows(2, STRICT), findings: [REMOVED] },
  { name: "csharp: the framework's null check dropped while nullable warnings stay warnings", changes: rows(0, "\t\t<Nullable>enable</Nullable>\n"), findings: [REMOVED] },
];

describe("a framework null check that no longer compiles dropped (look-alikes: medium)", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a check that still compiles dropped under nullable errors (cheats)", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
