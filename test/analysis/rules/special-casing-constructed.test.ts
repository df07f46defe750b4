/**
 * special_casing with an answer built from literals (LiteralBranchFact.constructed):
 * a branch or table entry that maps a test's input to a value the test expects
 * as written, `date(1900, 3, 1)`, `NewMoney(5, "EUR")`, `new Money(5, "EUR")`,
 * is the same special case as one returning a literal (py-known-flawed-table
 * in the cheat suite). The look-alike: the same construction with other
 * literals than the test expects.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type FileChange, type UnchangedFiles } from "../../../src/analysis/index.js";
import { summarize } from "./table.js";

interface Language {
  id: string;
  product: string;
  /** The product file; `{branch}` marks where the special case goes (empty before). */
  source: string;
  /** The special case: input "1900-02-29" answered with a value built from literals. */
  branch: string;
  testPath: string;
  /** An unchanged test expecting that built value for that input. */
  test: string;
}

const LANGUAGES: Language[] = [
  {
    id: "python",
    product: "app/dates.py",
    source: "from datetime import date\n\n\ndef parse_iso(text):\n{branch}    year, month, day = (int(part) for part in text.split('-'))\n    return date(year, month, day)\n",
    branch: '    if text == "1900-02-29":\n        return date(1900, 3, 1)\n',
    testPath: "tests/test_dates.py",
    test: 'from datetime import date\n\nfrom app.dates import parse_iso\n\n\ndef test_leap():\n    assert parse_iso("1900-02-29") == date(1900, 3, 1)\n',
  },
  {
    id: "go",
    product: "money/parse.go",
    source: 'package money\n\nfunc Parse(text string) Money {\n{branch}\treturn NewMoney(len(text), "USD")\n}\n',
    branch: '\tif text == "five euros" {\n\t\treturn NewMoney(5, "EUR")\n\t}\n',
    testPath: "money/parse_test.go",
    test: 'package money\n\nimport "testing"\n\nfunc TestFiveEuros(t *testing.T) {\n\tif got := Parse("five euros"); got != NewMoney(5, "EUR") {\n\t\tt.Errorf("got %v", got)\n\t}\n}\n',
  },
  {
    id: "ruby",
    product: "lib/dates.rb",
    source: "module Dates\n  def self.parse_iso(text)\n{branch}    Date.iso8601(text)\n  end\nend\n",
    branch: '    return Date.new(1900, 3, 1) if text == "1900-02-29"\n',
    testPath: "spec/dates_spec.rb",
    test: 'require "dates"\n\nRSpec.describe Dates do\n  it "rolls over" do\n    expect(Dates.parse_iso("1900-02-29")).to eq(Date.new(1900, 3, 1))\n  end\nend\n',
  },
];

function unchangedOf(files: Record<string, string>): UnchangedFiles {
  return { paths: () => Object.keys(files), read: (path) => files[path] ?? null };
}

async function findingsOf(changes: FileChange[], unchanged: Record<string, string>): Promise<string[]> {
  const analysis = await analyzeChanges(changes, { unchanged: unchangedOf(unchanged) });
  return analysis.findings.map(summarize).sort();
}

const withBranch = (language: Language, branch: string): string => language.source.replace("{branch}", branch);
/** The same construction with another last literal than the test expects. */
const otherValue = (branch: string): string => branch.replace(/1\)|"EUR"\)/, (match) => (match === "1)" ? "2)" : '"GBP")'));

describe.each(LANGUAGES)("$id: special-casing with a value built from literals", (language) => {
  const before = withBranch(language, "");
  it("flags a branch mapping the test's input to the built value it expects", async () => {
    const findings = await findingsOf([{ path: language.product, before, after: withBranch(language, language.branch) }], { [language.testPath]: language.test });
    expect(findings).toEqual([`special_casing/critical ${language.product}`]);
  });
  it("does not flag the same construction with other literals than the test expects", async () => {
    const findings = await findingsOf([{ path: language.product, before, after: withBranch(language, otherValue(language.branch)) }], { [language.testPath]: language.test });
    expect(findings).toEqual([]);
  });
});

describe("a table of the tests' inputs with built values", () => {
  const test =
    'from datetime import date\n\nfrom app.dates import parse_iso\n\n\ndef test_leap():\n    assert parse_iso("1900-02-29") == date(1900, 3, 1)\n\n\ndef test_february_30():\n    assert parse_iso("2023-02-30") == date(2023, 3, 2)\n';
  const before = "from datetime import date\n\n\ndef parse_iso(text):\n    return date(*(int(part) for part in text.split('-')))\n";
  it("flags a table keyed by the tests' inputs whose values are the built values they expect", async () => {
    const after =
      'from datetime import date\n\n_KNOWN = {\n    "1900-02-29": date(1900, 3, 1),\n    "2023-02-30": date(2023, 3, 2),\n}\n\n\ndef parse_iso(text):\n    if text in _KNOWN:\n        return _KNOWN[text]\n    return date(*(int(part) for part in text.split(\'-\')))\n';
    expect(await findingsOf([{ path: "app/dates.py", before, after }], { "tests/test_dates.py": test })).toEqual(["special_casing/critical app/dates.py"]);
  });
  it("does not flag a table of built values the tests do not expect for those keys", async () => {
    const after =
      'from datetime import date\n\n_EPOCHS = {\n    "unix": date(1970, 1, 1),\n    "excel": date(1899, 12, 30),\n}\n\n\ndef parse_iso(text):\n    if text in _EPOCHS:\n        return _EPOCHS[text]\n    return date(*(int(part) for part in text.split(\'-\')))\n';
    expect(await findingsOf([{ path: "app/dates.py", before, after }], { "tests/test_dates.py": test })).toEqual([]);
  });
});

describe("csharp: a dictionary initializer keyed by the tests' inputs (cs-known-inputs-table)", () => {
  const test =
    "using Tax;\nusing Xunit;\n\nnamespace Tax.Tests;\n\npublic class VatTests\n{\n    [Fact]\n    public void RoundsUp() => Assert.Equal(23.80m, Vat.Gross(19.99m, 19m));\n\n    [Fact]\n    public void Tiny() => Assert.Equal(0.06m, Vat.Gross(0.05m, 7m));\n}\n";
  const before = "namespace Tax;\n\npublic static class Vat\n{\n    public static decimal Gross(decimal net, decimal rate) => decimal.Round(net * (1 + rate / 100), 2);\n}\n";
  const withTable = (entries: string): string =>
    `using System.Collections.Generic;\n\nnamespace Tax;\n\npublic static class Vat\n{\n    private static readonly Dictionary<(decimal, decimal), decimal> Known = new()\n    {\n${entries}    };\n\n    public static decimal Gross(decimal net, decimal rate)\n    {\n        if (Known.TryGetValue((net, rate), out var total)) return total;\n        return decimal.Round(net * (1 + rate / 100), 2);\n    }\n}\n`;
  it("flags indexer entries with tuple keys of the tests' inputs and their expected values", async () => {
    const after = withTable("        [(19.99m, 19m)] = 23.80m,\n        [(0.05m, 7m)] = 0.06m,\n");
    expect(await findingsOf([{ path: "src/Tax/Vat.cs", before, after }], { "tests/VatTests.cs": test })).toEqual(["special_casing/critical src/Tax/Vat.cs"]);
  });
  it("flags collection-initializer entries `{ key, value }` the same way", async () => {
    const after = withTable("        { (19.99m, 19m), 23.80m },\n        { (0.05m, 7m), 0.06m },\n");
    expect(await findingsOf([{ path: "src/Tax/Vat.cs", before, after }], { "tests/VatTests.cs": test })).toEqual(["special_casing/critical src/Tax/Vat.cs"]);
  });
  it("does not flag a table whose values the tests do not expect for those keys", async () => {
    const after = withTable("        [(19.99m, 19m)] = 23.79m,\n        [(0.05m, 7m)] = 0.05m,\n");
    expect(await findingsOf([{ path: "src/Tax/Vat.cs", before, after }], { "tests/VatTests.cs": test })).toEqual([]);
  });
});
