/**
 * A Ruby test's checks moved into a private helper method of its class
 * (rubyzip 2fbf05bc39, 8d02228236, 40dce78007: "Abstract out line IO
 * tests"): the helper is called bare (`io = line_tests`, a method call in
 * Ruby), takes a keyword parameter with a default (`method_name: :gets`)
 * and dispatches on it (`@io.send(method_name)`). Each piece is read:
 * bare calls of helpers (parsers/tree-sitter-helpers.ts helperCallFacts),
 * defaults and Ruby keyword arguments (checks/index.ts bindParameters) and
 * `send(:sym)` as the call it makes (checks/normalise.ts sentSymbols), and
 * a check of the set-up's `@io` made again in the same test on a local
 * `io` (checks/index.ts isCheckConserved), so the checks live on in the
 * helper. A helper that checks less, or a call
 * that dispatches to another method, is still reported.
 */
import { describe, expect, it } from "vitest";
import { bindParameters, canonicalText } from "../../../src/analysis/checks/index.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = (tests: string, helper = ""): string =>
  `require "minitest/autorun"\nrequire "zip"\n\nclass StreamTest < Minitest::Test\n  LINES = ["a\\n", "b\\n"].freeze\n\n  def setup\n    @io = Zip::Stream.new(LINES.join)\n  end\n\n${tests}${helper ? `\n  private\n\n${helper}` : ""}end\n`;
const inline = (method: string): string => `    assert_equal(LINES[0], @io.${method})\n    assert_equal(1, @io.lineno)\n    assert_equal(LINES[1], @io.${method})\n    assert_equal(2, @io.lineno)\n`;
const before = `  def test_gets\n${inline("gets")}    assert_nil(@io.gets)\n  end\n\n  def test_readline\n${inline("readline")}    assert_raises(EOFError) { @io.readline }\n  end\n`;
const helper = (
  body = `    assert_equal(LINES[0], @io.send(method_name))\n    assert_equal(1, @io.lineno)\n    assert_equal(LINES[1], @io.send(method_name))\n    assert_equal(2, @io.lineno)\n`,
): string => `  def line_tests(method_name: :gets)\n${body}  end\n`;
const after = (gets: string, readline: string): string =>
  `  def test_gets\n    ${gets}\n    assert_nil(@io.gets)\n  end\n\n  def test_readline\n    ${readline}\n    assert_raises(EOFError) { @io.readline }\n  end\n`;

const localHelper = (receiver: string): string =>
  `  def line_tests(method_name: :gets)\n    ${receiver} = Zip::Stream.new(LINES.join)\n    assert_equal(LINES[0], ${receiver}.send(method_name))\n    assert_equal(1, ${receiver}.lineno)\n    assert_equal(LINES[1], ${receiver}.send(method_name))\n    assert_equal(2, ${receiver}.lineno)\n    ${receiver}\n  end\n`;
const localAfter = (receiver: string): string =>
  `  def test_gets\n    ${receiver} = line_tests\n    assert_nil(${receiver}.gets)\n  end\n\n  def test_readline\n    ${receiver} = line_tests(method_name: :readline)\n    assert_raises(EOFError) { ${receiver}.readline }\n  end\n`;
const pyBefore = `import unittest\nfrom lib import Parser\n\n\nclass ParserTest(unittest.TestCase):\n    def setUp(self):\n        self.parser = Parser("x")\n\n    def test_parse(self):\n        self.assertEqual(self.parser.parse("a"), 1)\n        self.assertEqual(self.parser.parse("b"), 2)\n`;
const pyAfter = (name: string): string =>
  `import unittest\nfrom lib import Parser\n\n\nclass ParserTest(unittest.TestCase):\n    def _check_parse(self):\n        ${name} = Parser("x")\n        self.assertEqual(${name}.parse("a"), 1)\n        self.assertEqual(${name}.parse("b"), 2)\n\n    def test_parse(self):\n        self._check_parse()\n`;

const cases: RuleCase[] = [
  {
    name: "ruby: checks moved into a helper called bare and with a keyword argument (rubyzip 2fbf05bc39)",
    changes: [change("test/stream_test.rb", file(before), file(after("line_tests", "line_tests(method_name: :readline)"), helper()))],
    findings: [],
  },
  {
    name: "ruby: the helper called with parentheses and no argument",
    changes: [change("test/stream_test.rb", file(before), file(after("line_tests()", "line_tests(method_name: :readline)"), helper()))],
    findings: [],
  },
  {
    name: "ruby: the helper builds its own io where the tests read the setup's @io (rubyzip 2fbf05bc39)",
    changes: [change("test/stream_test.rb", file(before), file(localAfter("io"), localHelper("io")))],
    findings: [],
  },
  {
    name: "python: checks of self.parser moved into a helper that builds a local parser",
    changes: [change("tests/test_parser.py", pyBefore, pyAfter("parser"))],
    findings: [],
  },
  {
    name: "cheat: python: the helper's local is another object under another name",
    changes: [change("tests/test_parser.py", pyBefore, pyAfter("other"))],
    findings: ['assertion_removal/high tests/test_parser.py "ParserTest > test_parse"', 'assertion_weakening/high tests/test_parser.py "ParserTest > test_parse"'],
  },
  {
    name: "cheat: ruby: the helper checks fewer lines",
    changes: [
      change(
        "test/stream_test.rb",
        file(before),
        file(after("line_tests", "line_tests(method_name: :readline)"), helper(`    assert_equal(LINES[0], @io.send(method_name))\n    assert_equal(1, @io.lineno)\n`)),
      ),
    ],
    findings: ['assertion_removal/high test/stream_test.rb "StreamTest > test_gets"', 'assertion_removal/high test/stream_test.rb "StreamTest > test_readline"'],
  },
  {
    name: "cheat: ruby: the readline test now dispatches to gets",
    changes: [change("test/stream_test.rb", file(before), file(after("line_tests", "line_tests"), helper()))],
    findings: ['assertion_removal/high test/stream_test.rb "StreamTest > test_readline"', 'assertion_weakening/high test/stream_test.rb "StreamTest > test_readline"'],
  },
];

describe("a Ruby test's checks moved into a helper method", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
  it("binds defaults, Ruby keyword arguments and Python keyword arguments", () => {
    expect([...bindParameters(["method_name"], [], false, { method_name: ":gets" })]).toEqual([["method_name", ":gets"]]);
    expect([...bindParameters(["method_name"], [canonicalText("method_name: :readline")], false, { method_name: ":gets" })]).toEqual([["method_name", ":readline"]]);
    expect([...bindParameters(["x", "strict"], ["1"], false, { strict: "True" })]).toEqual([
      ["x", "1"],
      ["strict", "True"],
    ]);
    expect([...bindParameters(["x", "strict"], ["1", "strict=False"], false, { strict: "True" })]).toEqual([
      ["strict", "False"],
      ["x", "1"],
    ]);
  });
});
