/**
 * A test that declares what it covers, deleted with that code
 * (rules/features.ts deletedTestOutcome, TestCase.covers; sweep of
 * sebastianbergmann/diff c1b3f6800c): PHPUnit's `#[CoversClass(X::class)]`,
 * `#[CoversFunction('f')]`, `@covers X` and `@coversDefaultClass X`, and
 * NUnit's `[TestOf(typeof(X))]`, say which code a test exercises. When the
 * change removes every class or function a deleted test declares it
 * covers, the test went with that code (feature_removal medium), even if
 * its checks read only what a data provider fed it (an integration test of
 * the removed builder's expected diffs). A test that declares a class
 * still there, or one removed and one kept, stays a test_deletion.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const BUILDER = '<?php\nnamespace Diff\\Output;\n\nfinal class UnifiedBuilder\n{\n    public function build(array $lines): string\n    {\n        return implode("\\n", $lines);\n    }\n}\n';
const DIFFER = "<?php\nnamespace Diff;\n\nfinal class Differ\n{\n    public function diff(string $a, string $b): string\n    {\n        return $a . $b;\n    }\n}\n";

/** A PHPUnit integration test whose checks read only the provider's rows, with `header` above the class. */
const integrationTest = (header: string): string =>
  `<?php\nnamespace Diff\\Output;\n\nuse PHPUnit\\Framework\\Attributes\\CoversClass;\nuse PHPUnit\\Framework\\Attributes\\DataProvider;\nuse PHPUnit\\Framework\\TestCase;\n\n${header}\nfinal class UnifiedBuilderIntegrationTest extends TestCase\n{\n    public static function provideDiffs(): array\n    {\n        return [['@@ -1 +1 @@', 'a', 'b'], ['@@ -1,2 +1,2 @@', 'a', 'c']];\n    }\n\n    #[DataProvider('provideDiffs')]\n    public function testDiffApplies(string $diff, string $from, string $to): void\n    {\n        $this->assertNotSame('', $diff);\n        $this->assertStringStartsWith('@@', $diff);\n    }\n}\n`;

const NUNIT_TEST =
  'using NUnit.Framework;\n\n[TestFixture, TestOf(typeof(LegacyFormatter))]\npublic class LegacyFormatterFixtureTests\n{\n    [TestCase("a")]\n    [TestCase("b")]\n    public void FixturesAreWellFormed(string fixture)\n    {\n        Assert.That(fixture, Is.Not.Empty);\n    }\n}\n';

const deleted = (path: string, text: string) => change(path, text, null);

const valid: RuleCase[] = [
  {
    name: "php: #[CoversClass] of a deleted class, the test file deleted with it",
    changes: [deleted("src/Output/UnifiedBuilder.php", BUILDER), deleted("tests/Output/Integration/UnifiedBuilderIntegrationTest.php", integrationTest("#[CoversClass(UnifiedBuilder::class)]"))],
    findings: [
      "feature_removal/medium src/Output/UnifiedBuilder.php",
      `feature_removal/medium tests/Output/Integration/UnifiedBuilderIntegrationTest.php "UnifiedBuilderIntegrationTest > testDiffApplies"`,
    ],
  },
  {
    name: "php: @covers in the class docblock",
    changes: [
      deleted("src/Output/UnifiedBuilder.php", BUILDER),
      deleted("tests/Output/Integration/UnifiedBuilderIntegrationTest.php", integrationTest("/**\n * @covers \\Diff\\Output\\UnifiedBuilder\n */")),
    ],
    findings: [
      "feature_removal/medium src/Output/UnifiedBuilder.php",
      `feature_removal/medium tests/Output/Integration/UnifiedBuilderIntegrationTest.php "UnifiedBuilderIntegrationTest > testDiffApplies"`,
    ],
  },
  {
    name: "php: @coversDefaultClass in the class docblock",
    changes: [
      deleted("src/Output/UnifiedBuilder.php", BUILDER),
      deleted("tests/Output/Integration/UnifiedBuilderIntegrationTest.php", integrationTest("/**\n * @coversDefaultClass \\Diff\\Output\\UnifiedBuilder\n */")),
    ],
    findings: [
      "feature_removal/medium src/Output/UnifiedBuilder.php",
      `feature_removal/medium tests/Output/Integration/UnifiedBuilderIntegrationTest.php "UnifiedBuilderIntegrationTest > testDiffApplies"`,
    ],
  },
  {
    name: "c#: NUnit [TestOf(typeof(X))] of a deleted class",
    changes: [deleted("src/LegacyFormatter.cs", "public sealed class LegacyFormatter\n{\n    public string Format(string s) => s;\n}\n"), deleted("tests/LegacyFormatterFixtureTests.cs", NUNIT_TEST)],
    findings: ["feature_removal/medium src/LegacyFormatter.cs", `feature_removal/medium tests/LegacyFormatterFixtureTests.cs "LegacyFormatterFixtureTests > FixturesAreWellFormed"`],
  },
];

const invalid: RuleCase[] = [
  {
    name: "php: #[CoversClass] of a class that is still there",
    changes: [deleted("tests/Output/Integration/UnifiedBuilderIntegrationTest.php", integrationTest("#[CoversClass(UnifiedBuilder::class)]"))],
    findings: [`test_deletion/critical tests/Output/Integration/UnifiedBuilderIntegrationTest.php "UnifiedBuilderIntegrationTest > testDiffApplies"`],
  },
  {
    name: "php: covers a removed class and a kept one",
    changes: [
      deleted("src/Output/UnifiedBuilder.php", BUILDER),
      change("src/Differ.php", DIFFER, DIFFER),
      deleted("tests/Output/Integration/UnifiedBuilderIntegrationTest.php", integrationTest("#[CoversClass(UnifiedBuilder::class)]\n#[CoversClass(\\Diff\\Differ::class)]")),
    ],
    findings: [
      "feature_removal/medium src/Output/UnifiedBuilder.php",
      `test_deletion/critical tests/Output/Integration/UnifiedBuilderIntegrationTest.php "UnifiedBuilderIntegrationTest > testDiffApplies"`,
    ],
  },
  {
    name: "php: a test without a covers declaration deleted beside a deleted class",
    changes: [deleted("src/Output/UnifiedBuilder.php", BUILDER), deleted("tests/Output/Integration/UnifiedBuilderIntegrationTest.php", integrationTest(""))],
    findings: [
      "feature_removal/medium src/Output/UnifiedBuilder.php",
      `test_deletion/critical tests/Output/Integration/UnifiedBuilderIntegrationTest.php "UnifiedBuilderIntegrationTest > testDiffApplies"`,
    ],
  },
  {
    name: "c#: NUnit [TestOf] of a class that is still there",
    changes: [deleted("tests/LegacyFormatterFixtureTests.cs", NUNIT_TEST)],
    findings: [`test_deletion/critical tests/LegacyFormatterFixtureTests.cs "LegacyFormatterFixtureTests > FixturesAreWellFormed"`],
  },
];

describe("a test declaring the code it covers, deleted with that code", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
