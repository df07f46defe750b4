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

// A cold review's cheats: the declared subject removed, but the deleted test's checks read code of the change that survives.
const R_BUILDER = '<?php\nnamespace Diff\\Output;\n\nfinal class UnifiedBuilder\n{\n    public function build(array $lines): string\n    {\n        return implode("\\n", $lines);\n    }\n}\n';
const R_DIFFER = "<?php\nnamespace Diff;\n\nfinal class Differ\n{\n    public function diff(string $a, string $b): string\n    {\n        return $a . $b;\n    }\n}\n";
const rPhpTest = (header: string, body: string): string =>
  `<?php\nnamespace Diff\\Output;\n\nuse PHPUnit\\Framework\\Attributes\\CoversClass;\nuse PHPUnit\\Framework\\TestCase;\nuse Diff\\Differ;\n\n${header}\nfinal class UnifiedBuilderTest extends TestCase\n{\n${body}}\n`;
const R_BUILD_BODY = "    public function testBuildJoinsLines(): void\n    {\n        $this->assertSame(\"a\\nb\", (new UnifiedBuilder())->build(['a', 'b']));\n    }\n";
const R_DIFFER_BODY = "    public function testDiffConcatenates(): void\n    {\n        $this->assertSame('ab', (new Differ())->diff('a', 'b'));\n    }\n";
const R_T = "tests/Output/UnifiedBuilderTest.php";
const rCrit = (path: string, test: string): string => `test_deletion/critical ${path} "${test}"`;

const reviewCheats: RuleCase[] = [
  {
    name: "php: covers a removed class, but its checks call only the surviving Differ",
    changes: [
      change("src/Output/UnifiedBuilder.php", R_BUILDER, null),
      change("src/Differ.php", R_DIFFER, R_DIFFER.replace("return $a . $b;", "return $a . '' . $b;")),
      change(R_T, rPhpTest("#[CoversClass(UnifiedBuilder::class)]", R_DIFFER_BODY), null),
    ],
    findings: ["feature_removal/medium src/Output/UnifiedBuilder.php", rCrit(R_T, "UnifiedBuilderTest > testDiffConcatenates")],
  },
  {
    name: "c#: [TestOf] of a removed class, the deleted test asserting only the surviving Formatter",
    changes: [
      change("src/LegacyFormatter.cs", "public sealed class LegacyFormatter\n{\n    public string Format(string s) => s;\n}\n", null),
      change(
        "src/Formatter.cs",
        "public sealed class Formatter\n{\n    public string Format(string s) => s;\n}\n",
        "public sealed class Formatter\n{\n    public string Format(string s) => s.Trim();\n}\n",
      ),
      change(
        "tests/LegacyFormatterTests.cs",
        'using NUnit.Framework;\n\n[TestFixture, TestOf(typeof(LegacyFormatter))]\npublic class LegacyFormatterTests\n{\n    [Test]\n    public void KeepsSpaces()\n    {\n        Assert.That(new Formatter().Format(" a "), Is.EqualTo(" a "));\n    }\n}\n',
        null,
      ),
    ],
    findings: ["feature_removal/medium src/LegacyFormatter.cs", rCrit("tests/LegacyFormatterTests.cs", "LegacyFormatterTests > KeepsSpaces")],
  },
  {
    name: "php: a test file with @coversDefaultClass of a removed class: one test of it, one of the surviving Differ (made failing by the change)",
    changes: [
      change("src/Output/UnifiedBuilder.php", R_BUILDER, null),
      change("src/Differ.php", R_DIFFER, R_DIFFER.replace("return $a . $b;", "return $b . $a;")),
      change(R_T, rPhpTest("/**\n * @coversDefaultClass \\Diff\\Output\\UnifiedBuilder\n */", R_BUILD_BODY + "\n" + R_DIFFER_BODY), null),
    ],
    // a whole test file deleted is one file-level finding; the file held a test of surviving code, so it stays critical
    findings: ["feature_removal/medium src/Output/UnifiedBuilder.php", `test_deletion/critical ${R_T}`],
  },
];

describe("a test declaring the code it covers, deleted with that code", () => {
  it.each(reviewCheats)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
