/**
 * A helper the test file defines is read as that helper even when its name
 * looks like a framework assertion (parsers/tree-sitter.ts; sweep of
 * symfony/yaml 1ceefd25a0: `$this->assertEquals($expected, $actual)` ->
 * `$this->assertSameData($expected, $actual)`, a private method doing
 * `assertEquals` and `assertSame(var_export(…))`, was read as a one-argument
 * `assertSameData` matcher and reported weaker). The call stands for the
 * helper's checks. A helper of that name that checks less is still a
 * weakening.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const php = (check: string, helper: string): string =>
  `<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nclass ParserTest extends TestCase\n{\n    public function testTopLevelNumber()\n    {\n        $data = $this->parser->parse('5');\n        $expected = 5;\n        ${check}\n    }\n${helper}}\n`;
const SAME_DATA =
  "\n    private function assertSameData($expected, $actual)\n    {\n        $this->assertEquals($expected, $actual);\n        $this->assertSame(var_export($expected, true), var_export($actual, true));\n    }\n";
const WEAK_DATA = "\n    private function assertSameData($expected, $actual)\n    {\n        $this->assertNotNull($actual);\n    }\n";

const py = (check: string, helper: string): string =>
  `import unittest\n\n${helper}\nclass ParserTest(unittest.TestCase):\n    def test_top_level_number(self):\n        data = parse("5")\n        ${check}\n`;
const PY_SAME = "def assert_same_data(expected, actual):\n    assert expected == actual\n    assert repr(expected) == repr(actual)\n\n";
const PY_WEAK = "def assert_same_data(expected, actual):\n    assert actual is not None\n\n";

const cases: RuleCase[] = [
  {
    name: "php: assertEquals -> a test class's own assertSameData that makes it and more",
    changes: [change("Tests/ParserTest.php", php("$this->assertEquals($expected, $data);", ""), php("$this->assertSameData($expected, $data);", SAME_DATA))],
    findings: [],
  },
  {
    name: "python: assert == -> a module's own assert_same_data that makes it and more",
    changes: [change("tests/test_parser.py", py("assert data == 5", ""), py("assert_same_data(5, data)", PY_SAME))],
    findings: [],
  },
  {
    name: "php: assertEquals -> an assertSameData that only checks not null",
    changes: [change("Tests/ParserTest.php", php("$this->assertEquals($expected, $data);", ""), php("$this->assertSameData($expected, $data);", WEAK_DATA))],
    findings: ['assertion_weakening/high Tests/ParserTest.php "ParserTest > testTopLevelNumber"'],
  },
  {
    name: "python: assert == -> an assert_same_data that only checks not None",
    changes: [change("tests/test_parser.py", py("assert data == 5", ""), py("assert_same_data(5, data)", PY_WEAK))],
    findings: ['assertion_weakening/high tests/test_parser.py "ParserTest > test_top_level_number"'],
  },
];

describe("a file's own helper named like an assertion", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
