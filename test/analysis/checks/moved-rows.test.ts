/**
 * Issue 9, rows moved between tables as the product changes its contract
 * (sweep of serilog/serilog 0e316b7cb0: rows a feature flag accepted move
 * to the table of malformed input as the grammar gets stricter): a removed
 * row whose literals reappear in one row of another table checking the same
 * code is still fed to it, now for another answer, when the change edits the
 * product. The same move with the product untouched, a row dropped for good,
 * or a row moved to a table of other code stays a lost row.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const csTests = (accepted: string[], malformed: string[]): string =>
  `using Xunit;\n\npublic class TemplateParserTests\n{\n    [Theory]\n${accepted.map((row) => `    [InlineData("${row}")]\n`).join("")}    public void DottedNamesAreAccepted(string template)\n    {\n        var token = Assert.IsType<PropertyToken>(new TemplateParser().Parse(template));\n        Assert.Equal(template.Trim('{', '}'), token.Name);\n    }\n\n    [Theory]\n${malformed.map((row) => `    [InlineData("${row}")]\n`).join("")}    public void AMalformedTagIsText(string template)\n    {\n        Assert.Equal(new TextToken(template), new TemplateParser().Parse(template));\n    }\n}\n`;
const csParser = (pattern: string): string =>
  `using System.Text.RegularExpressions;\n\npublic sealed class TemplateParser\n{\n    private static readonly Regex Name = new(@"${pattern}");\n\n    public Token Parse(string template)\n    {\n        var match = Name.Match(template);\n        return match.Success ? new PropertyToken(match.Groups[1].Value) : new TextToken(template);\n    }\n}\n`;
const LOOSE = "^\\{([A-Za-z0-9_.]+)\\}$";
const STRICT = "^\\{([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*)\\}$";

const pyTests = (valid: string[], invalid: string[]): string =>
  `import pytest\n\nfrom slugs import slug\n\n\n@pytest.mark.parametrize("text", [${valid.map((row) => `"${row}"`).join(", ")}])\ndef test_slug_keeps(text):\n    assert slug(text) == text\n\n\n@pytest.mark.parametrize("text", [${invalid.map((row) => `"${row}"`).join(", ")}])\ndef test_slug_rejects(text):\n    with pytest.raises(ValueError):\n        slug(text)\n`;
const pySlug = (allowed: string): string => `import re\n\n\ndef slug(text):\n    if not re.fullmatch(r"${allowed}", text):\n        raise ValueError(text)\n    return text\n`;

const jsTests = (valid: string[], invalid: string[]): string =>
  `import { expect, it } from "vitest";\nimport { isHandle } from "../src/handle.js";\n\nit.each([${valid.map((row) => `"${row}"`).join(", ")}])("accepts %s", (handle) => {\n  expect(isHandle(handle)).toBe(true);\n});\n\nit.each([${invalid.map((row) => `"${row}"`).join(", ")}])("rejects %s", (handle) => {\n  expect(isHandle(handle)).toBe(false);\n});\n`;
const jsHandle = (pattern: string): string => `export function isHandle(text) {\n  return /${pattern}/.test(text);\n}\n`;

const lookAlikes: RuleCase[] = [
  {
    name: "c#: accepted [InlineData] rows move to the malformed-input theory as the grammar gets stricter",
    changes: [
      change("tests/TemplateParserTests.cs", csTests(["{a.b}", "{.a}", "{a..b}"], ["{0 x}"]), csTests(["{a.b}"], ["{0 x}", "{.a}", "{a..b}"])),
      change("src/TemplateParser.cs", csParser(LOOSE), csParser(STRICT)),
    ],
    findings: [],
  },
  {
    name: "python: a parametrize row moves from the accepted table to the rejected one as the product narrows",
    changes: [change("tests/test_slugs.py", pyTests(["abc", "a-b", "a_b"], ["a b"]), pyTests(["abc", "a-b"], ["a b", "a_b"])), change("slugs.py", pySlug("[a-z_-]+"), pySlug("[a-z-]+"))],
    findings: [],
  },
  {
    name: "js: an it.each row moves from the rejected table to the accepted one as the product widens",
    changes: [
      change("test/handle.test.js", jsTests(["ann", "bob"], ["ann.b", "-x"]), jsTests(["ann", "bob", "ann.b"], ["-x"])),
      change("src/handle.js", jsHandle("^[a-z]+$"), jsHandle("^[a-z][a-z.]*$")),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "c#: the same rows moved while the product is untouched",
    changes: [change("tests/TemplateParserTests.cs", csTests(["{a.b}", "{.a}", "{a..b}"], ["{0 x}"]), csTests(["{a.b}"], ["{0 x}", "{.a}", "{a..b}"]))],
    findings: [`test_deletion/critical tests/TemplateParserTests.cs "TemplateParserTests > DottedNamesAreAccepted"`],
  },
  {
    name: "c#: rows dropped for good as the product changes",
    changes: [
      change("tests/TemplateParserTests.cs", csTests(["{a.b}", "{.a}", "{a..b}"], ["{0 x}"]), csTests(["{a.b}"], ["{0 x}"])),
      change("src/TemplateParser.cs", csParser(LOOSE), csParser(STRICT)),
    ],
    findings: [`test_deletion/critical tests/TemplateParserTests.cs "TemplateParserTests > DottedNamesAreAccepted"`],
  },
  {
    name: "python: a row moved to the rejected table while the product is untouched",
    changes: [change("tests/test_slugs.py", pyTests(["abc", "a-b", "a_b"], ["a b"]), pyTests(["abc", "a-b"], ["a b", "a_b"]))],
    findings: [`test_deletion/critical tests/test_slugs.py "test_slug_keeps"`],
  },
  {
    name: "js: a row moved to a table of other code",
    changes: [
      change(
        "test/handle.test.js",
        jsTests(["ann", "bob"], ["ann.b", "-x"]),
        jsTests(["ann", "bob"], ["-x"]).replace(`import { isHandle } from "../src/handle.js";`, `import { isHandle, isTag } from "../src/handle.js";`) +
          `\nit.each(["ann.b"])("tags %s", (tag) => {\n  expect(isTag(tag)).toBe(true);\n});\n`,
      ),
      change("src/handle.js", jsHandle("^[a-z]+$"), `${jsHandle("^[a-z]+$")}\nexport function isTag(text) {\n  return text.includes(".");\n}\n`),
    ],
    findings: [`test_deletion/critical test/handle.test.js "rejects %s"`],
  },
];

describe("moved rows: a row moved to another table of the same code as the product changes is no lost row", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("moved rows: the same moves hiding a lost row are findings", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
