/**
 * minitest's `assert_silent { … }` is `assert_output("", "") { … }`
 * (Minitest::Assertions#assert_silent: "Fails if the block outputs
 * anything to stderr or stdout"), and so is the `must_be_silent`
 * expectation (checks/normalise.ts SILENT_MATCHER): rubyzip ef5af4f185
 * rewrote one as the other, read as a weakening before. Dropping the check
 * is still an assertion_removal.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const file = (check: string): string =>
  `require "minitest/autorun"\nrequire "zip"\n\nclass ZipFileTest < Minitest::Test\n  def test_count_entries\n    ${check}\n    assert_equal 3, Zip::File.count("a.zip")\n  end\nend\n`;
const output = "assert_output('', '') do\n      Zip::File.open('a.zip')\n    end";
const silent = "assert_silent do\n      Zip::File.open('a.zip')\n    end";
const expectation = "_ { Zip::File.open('a.zip') }.must_be_silent";

const cases: RuleCase[] = [
  { name: "assert_output('', '') -> assert_silent (rubyzip ef5af4f185)", changes: [change("test/file_test.rb", file(output), file(silent))], findings: [] },
  { name: "assert_silent -> assert_output('', '')", changes: [change("test/file_test.rb", file(silent), file(output))], findings: [] },
  { name: "assert_output('', '') -> must_be_silent", changes: [change("test/file_test.rb", file(output), file(expectation))], findings: [] },
  {
    name: "cheat: assert_output('', '') dropped",
    changes: [change("test/file_test.rb", file(output), file("Zip::File.open('a.zip')"))],
    findings: ['assertion_removal/high test/file_test.rb "ZipFileTest > test_count_entries"'],
  },
];

describe("assert_silent is assert_output('', '')", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});
