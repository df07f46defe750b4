/**
 * A shared assertion helper whose checked call gains an argument it passes
 * on (sweep of symfony/string 912a09f6, 87fdbf8c, 9dcea429: data-provider
 * test methods of the abstract `AbstractAsciiTestCase`, read as helpers of
 * the concrete test classes, gained a `bool $cut = true` parameter passed
 * to `truncate($length, $ellipsis, $cut)`: "1 of the 1 checks of the
 * shared assertion helper testTruncate was removed", 8 high). The same
 * relation and expected value of the same call fed one more input is no
 * check lost; a check dropped from the helper, or fed the expected value
 * through the new argument, still is.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "Tests/AbstractAsciiTestCase.php";
const php = (signature: string, call: string, extra = ""): string =>
  `<?php\nnamespace Symfony\\Component\\String\\Tests;\n\nuse PHPUnit\\Framework\\TestCase;\n\nabstract class AbstractAsciiTestCase extends TestCase\n{\n    /**\n     * @dataProvider provideTruncate\n     */\n    public function testTruncate(${signature})\n    {\n        $instance = static::createFromString($origin)->${call};\n\n        $this->assertEquals(static::createFromString($expected), $instance);\n${extra}    }\n\n    public static function provideTruncate(): array\n    {\n        return [\n            ['foo', 'foobar', 3, ''],\n        ];\n    }\n}\n`;
const BEFORE = php("string $expected, string $origin, int $length, string $ellipsis", "truncate($length, $ellipsis)");
const js = (body: string): string =>
  `import test from "ava";\nimport { parse } from "../src/parse.js";\n\nfunction check(t, input, expected, options) {\n${body}}\n\ntest("parses", (t) => {\n  check(t, "1", 1, {});\n});\n`;

const cases: RuleCase[] = [
  {
    name: "cheat: java: the appended argument passes the expected value in",
    changes: [
      change(
        "src/test/java/p/Checks.java",
        "package p;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\npublic final class Checks {\n  public static void assertParses(final int expected, final String input) {\n    assertEquals(expected, P.parse(input));\n  }\n}\n",
        "package p;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\npublic final class Checks {\n  public static void assertParses(final int expected, final String input) {\n    assertEquals(expected, P.parse(input, expected));\n  }\n}\n",
      ),
    ],
    findings: [`assertion_removal/high src/test/java/p/Checks.java`],
  },
  {
    name: "php: an abstract base's data-provider test passes a new parameter on",
    changes: [change(file, BEFORE, php("string $expected, string $origin, int $length, string $ellipsis, bool $cut = true", "truncate($length, $ellipsis, $cut)"))],
    findings: [],
  },
  {
    name: "javascript: a helper passes its options on to the call it checks",
    changes: [change("test/parse.test.js", js("  t.is(parse(input), expected);\n"), js("  t.is(parse(input, options), expected);\n"))],
    findings: [],
  },
  {
    name: "cheat: php: the base's check dropped",
    changes: [
      change(file, php("string $expected, string $origin, int $length, string $ellipsis", "truncate($length, $ellipsis)", "        $this->assertSame($length, $instance->length());\n"), BEFORE),
    ],
    findings: [`assertion_removal/high ${file}`],
  },
  {
    name: "cheat: javascript: the helper's equality weakened to truthiness on the way",
    changes: [change("test/parse.test.js", js("  t.is(parse(input), expected);\n"), js("  t.truthy(parse(input, options));\n"))],
    findings: [`assertion_weakening/high test/parse.test.js "check (assertion helper)"`],
  },
];

describe("a helper's checked call fed one more argument", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
