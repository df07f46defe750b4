/**
 * In a test that expects an exception for its whole body (PHPUnit
 * `$this->expectException(E::class)`, JUnit 4 `@Test(expected = E.class)`),
 * the test passes only when something throws, so the assertion of its last
 * statement never decides anything: the exception was thrown before it or
 * inside it (its own subject call), or the test fails anyway. Dropping it
 * loses no check (symfony/console cc1dcd4120: `assertInstanceOf(X::class,
 * $app->find('FoO:BaR'))` after `expectException(CommandNotFoundException::
 * class)` became the bare `$app->find('FoO:BaR')`). An assertion before
 * the last statement still runs and is still a check; turning a plain test
 * into one that expects an exception silences its last assertion.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const php = (body: string): string => `<?php\nuse PHPUnit\\Framework\\TestCase;\nclass ApplicationTest extends TestCase {\n  public function testFindAmbiguous(): void {\n${body}  }\n}\n`;
const before = php(
  `    $this->expectException(CommandNotFoundException::class);\n    $this->expectExceptionMessage('Command "FoO:BaR" is ambiguous');\n    $application = new Application();\n    $application->add(new FooLowercaseCommand());\n    $this->assertCount(1, $application->all('foo'));\n    $this->assertInstanceOf(FooLowercaseCommand::class, $application->find('FoO:BaR'));\n`,
);
const after = php(
  `    $application = new Application();\n    $application->add(new FooLowercaseCommand());\n    $this->assertCount(1, $application->all('foo'));\n    $this->expectException(CommandNotFoundException::class);\n    $this->expectExceptionMessage('Command "FoO:BaR" is ambiguous');\n    $application->find('FoO:BaR');\n`,
);

const java = (annotation: string, body: string): string =>
  `import org.junit.Test;\nimport static org.junit.Assert.*;\npublic class ParserTest {\n  ${annotation}\n  public void rejectsEmpty() {\n    Parser p = new Parser();\n${body}  }\n}\n`;

const cases: RuleCase[] = [
  { name: "php: the vacuous last assertion dropped, its call kept", changes: [change("Tests/ApplicationTest.php", before, after)], findings: [] },
  {
    name: "java: JUnit 4 expected=, the vacuous last assertion dropped",
    changes: [
      change(
        "src/test/java/ParserTest.java",
        java("@Test(expected = IllegalArgumentException.class)", `    assertTrue(p.isEmpty());\n    assertNotNull(p.parse(""));\n`),
        java("@Test(expected = IllegalArgumentException.class)", `    assertTrue(p.isEmpty());\n    p.parse("");\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "cheat: php: an assertion before the last statement dropped",
    changes: [change("Tests/ApplicationTest.php", before, after.replace("    $this->assertCount(1, $application->all('foo'));\n", ""))],
    findings: [`assertion_removal/high Tests/ApplicationTest.php "ApplicationTest > testFindAmbiguous"`],
  },
  {
    name: "cheat: php: a plain test made to expect an exception, its last assertion silenced",
    changes: [
      change(
        "Tests/ApplicationTest.php",
        php(`    $application = new Application();\n    $this->assertSame('foo:bar', $application->find('foo:bar')->getName());\n`),
        php(`    $this->expectException(\\Exception::class);\n    $application = new Application();\n    $this->assertSame('foo:bar', $application->find('foo:bar')->getName());\n`),
      ),
    ],
    findings: [`assertion_removal/high Tests/ApplicationTest.php "ApplicationTest > testFindAmbiguous"`],
  },
];

describe("the last assertion of a test that expects an exception", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
