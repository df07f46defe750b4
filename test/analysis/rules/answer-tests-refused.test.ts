/**
 * A test of an answer deleted as the code starts refusing its input (issue
 * 9, class answer-test-refused; sweep of expressjs/body-parser 2322e111cc:
 * "should return null for an invalid limit" expected `normalizeOptions({
 * limit: 'invalid' }).limit` to be null; the fix throws `option limit
 * "invalid" is invalid`, and "should throw an error for an invalid string
 * limit" checks that refusal for the same input). The mirror of a refusal
 * test deleted as its input is accepted (refused-inputs.test.ts): an
 * expectation_changed at medium. The same deletion with the product
 * untouched, with the refusal checked for another input, or with the new
 * test expecting another error than the one the change added, stays a
 * test_deletion. One table per language.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

interface RefusedCase {
  lang: string;
  testPath: string;
  codePath: string;
  deleted: string;
  /** Test file before: the answer test. */
  before: string;
  /** Test file after: the answer test replaced by a test of the refusal of the same input. */
  after: string;
  /** The same replacement checking another input. */
  otherInput: string;
  /** Product before and after: the refusal added. */
  codeBefore: string;
  codeAfter: string;
  /** Product after with a refusal of another message and class than the new test expects. */
  codeOther: string;
}

const cases: RefusedCase[] = [
  {
    lang: "javascript",
    testPath: "test/utils.js",
    codePath: "lib/utils.js",
    deleted: "limit > returns null for an invalid limit",
    before:
      "const assert = require('node:assert')\nconst { normalize } = require('../lib/utils')\n\ndescribe('limit', () => {\n  it('returns null for an invalid limit', () => {\n    const result = normalize({ limit: 'invalid' })\n    assert.strictEqual(result.limit, null)\n  })\n})\n",
    after:
      "const assert = require('node:assert')\nconst { normalize } = require('../lib/utils')\n\ndescribe('limit', () => {\n  it('throws for an invalid limit', () => {\n    assert.throws(() => normalize({ limit: 'invalid' }), /option limit \"invalid\" is invalid/)\n  })\n})\n",
    otherInput:
      "const assert = require('node:assert')\nconst { normalize } = require('../lib/utils')\n\ndescribe('limit', () => {\n  it('throws for a NaN limit', () => {\n    assert.throws(() => normalize({ limit: NaN }), /option limit \"NaN\" is invalid/)\n  })\n})\n",
    codeBefore: "function normalize (options) {\n  var limit = parse(options.limit)\n  return { limit: limit }\n}\n\nmodule.exports = { normalize }\n",
    codeAfter:
      'function normalize (options) {\n  var limit = parse(options.limit)\n  if (limit === null) {\n    throw new TypeError(`option limit "${String(options.limit)}" is invalid`)\n  }\n  return { limit: limit }\n}\n\nmodule.exports = { normalize }\n',
    codeOther:
      "function normalize (options) {\n  var limit = parse(options.limit)\n  if (limit === null) {\n    throw new RangeError('out of range')\n  }\n  return { limit: limit }\n}\n\nmodule.exports = { normalize }\n",
  },
  {
    lang: "python",
    testPath: "tests/test_size.py",
    codePath: "size/__init__.py",
    deleted: "test_invalid_size_is_none",
    before: 'from size import parse_size\n\n\ndef test_invalid_size_is_none():\n    assert parse_size("big") is None\n',
    after: 'import pytest\n\nfrom size import parse_size\n\n\ndef test_invalid_size_raises():\n    with pytest.raises(ValueError, match="invalid size: big"):\n        parse_size("big")\n',
    otherInput: 'import pytest\n\nfrom size import parse_size\n\n\ndef test_negative_size_raises():\n    with pytest.raises(ValueError, match="invalid size: -1"):\n        parse_size("-1")\n',
    codeBefore: "def parse_size(text):\n    if not text.isdigit():\n        return None\n    return int(text)\n",
    codeAfter: 'def parse_size(text):\n    if not text.isdigit():\n        raise ValueError(f"invalid size: {text}")\n    return int(text)\n',
    codeOther: 'def parse_size(text):\n    if not text.isdigit():\n        raise KeyError("no such unit")\n    return int(text)\n',
  },
  {
    lang: "java",
    testPath: "src/test/java/size/SizeTest.java",
    codePath: "src/main/java/size/Size.java",
    deleted: "SizeTest > invalidSizeIsNull",
    before:
      'package size;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass SizeTest {\n    @Test\n    void invalidSizeIsNull() {\n        assertNull(Size.parse("big"));\n    }\n}\n',
    after:
      'package size;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass SizeTest {\n    @Test\n    void invalidSizeThrows() {\n        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Size.parse("big"));\n        assertEquals("invalid size: big", e.getMessage());\n    }\n}\n',
    otherInput:
      'package size;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass SizeTest {\n    @Test\n    void negativeSizeThrows() {\n        assertThrows(IllegalArgumentException.class, () -> Size.parse("-1"));\n    }\n}\n',
    codeBefore:
      'package size;\n\npublic class Size {\n    public static Integer parse(String text) {\n        if (!text.matches("\\\\d+")) {\n            return null;\n        }\n        return Integer.valueOf(text);\n    }\n}\n',
    codeAfter:
      'package size;\n\npublic class Size {\n    public static Integer parse(String text) {\n        if (!text.matches("\\\\d+")) {\n            throw new IllegalArgumentException("invalid size: " + text);\n        }\n        return Integer.valueOf(text);\n    }\n}\n',
    codeOther:
      'package size;\n\npublic class Size {\n    public static Integer parse(String text) {\n        if (!text.matches("\\\\d+")) {\n            throw new IllegalStateException("closed");\n        }\n        return Integer.valueOf(text);\n    }\n}\n',
  },
  {
    lang: "ruby",
    testPath: "test/size_test.rb",
    codePath: "lib/size.rb",
    deleted: "SizeTest > test_invalid_size_is_nil",
    before: 'require "minitest/autorun"\nrequire "size"\n\nclass SizeTest < Minitest::Test\n  def test_invalid_size_is_nil\n    assert_nil Size.parse("big")\n  end\nend\n',
    after:
      'require "minitest/autorun"\nrequire "size"\n\nclass SizeTest < Minitest::Test\n  def test_invalid_size_raises\n    error = assert_raises(ArgumentError) { Size.parse("big") }\n    assert_equal "invalid size: big", error.message\n  end\nend\n',
    otherInput: 'require "minitest/autorun"\nrequire "size"\n\nclass SizeTest < Minitest::Test\n  def test_negative_size_raises\n    assert_raises(ArgumentError) { Size.parse("-1") }\n  end\nend\n',
    codeBefore: "module Size\n  def self.parse(text)\n    return nil unless text.match?(/\\A\\d+\\z/)\n    Integer(text)\n  end\nend\n",
    codeAfter: 'module Size\n  def self.parse(text)\n    raise ArgumentError, "invalid size: #{text}" unless text.match?(/\\A\\d+\\z/)\n    Integer(text)\n  end\nend\n',
    codeOther: 'module Size\n  def self.parse(text)\n    raise IOError, "closed" unless text.match?(/\\A\\d+\\z/)\n    Integer(text)\n  end\nend\n',
  },
];

const deletion = (one: RefusedCase): string => `test_deletion/critical ${one.testPath} "${one.deleted}"`;

describe.each(cases)("an answer test deleted as the code starts refusing its input ($lang)", (one) => {
  const run = (rule: Omit<RuleCase, "name">): Promise<unknown> => expectFindings({ name: one.lang, ...rule });

  it("the refusal added and checked for the same input: an expectation change", async () => {
    await run({
      changes: [change(one.testPath, one.before, one.after), change(one.codePath, one.codeBefore, one.codeAfter)],
      findings: [`expectation_changed/medium ${one.testPath} "${one.deleted}"`],
    });
  });

  it("the product untouched is still a deletion", async () => {
    await run({ changes: [change(one.testPath, one.before, one.after)], findings: [deletion(one)] });
  });

  it("the refusal checked for another input is still a deletion", async () => {
    await run({ changes: [change(one.testPath, one.before, one.otherInput), change(one.codePath, one.codeBefore, one.codeAfter)], findings: [deletion(one)] });
  });

  it("a refusal of another error than the new test expects is still a deletion", async () => {
    await run({ changes: [change(one.testPath, one.before, one.after), change(one.codePath, one.codeBefore, one.codeOther)], findings: [deletion(one)] });
  });
});
