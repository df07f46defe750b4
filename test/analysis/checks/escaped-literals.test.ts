/**
 * A string spelled with Unicode or hex escapes is the string they spell
 * (checks/normalise.ts unicodeEscapeAt, decodeUnicodeEscapes; sweep of
 * flippercloud/flipper 8771b719f1: `normalize_feature_name('café')` became
 * `normalize_feature_name("caf\u00E9")` in the test that replaced it, read
 * as another input). Escapes of a quote, a backslash or a control
 * character stay as written, and single-quoted strings, which Ruby and PHP
 * do not unescape, are left alone.
 */
import { describe, expect, it } from "vitest";
import { canonicalText } from "../../../src/analysis/checks/normalise.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

describe("canonical text of escaped strings", () => {
  it.each([
    ['"caf\\u00E9"', "'café'"],
    ['"\\u65B0\\u6A5F\\u80FD"', '"新機能"'],
    ['"\\u{1F600}"', '"😀"'],
    ['"caf\\xE9"', '"café"'],
    ["`caf\\u00E9`", '"café"'],
  ])("%s is %s", (escaped, plain) => {
    expect(canonicalText(escaped)).toBe(canonicalText(plain));
  });

  it.each([
    ['"a\\u0022b"', '"a\\"b"'],
    ['"a\\u005Cb"', '"a\\\\b"'],
    ['"a\\u000Ab"', '"a\\nb"'],
    ["'caf\\u00E9'", "'café'"],
  ])("%s is not %s", (escaped, other) => {
    expect(canonicalText(escaped)).not.toBe(canonicalText(other));
  });
});

const UTIL = [
  "lib/flipper/ui/util.rb",
  "module Util\n  def self.normalize(name)\n    I18n.transliterate(name).strip\n  end\nend\n",
  "module Util\n  def self.normalize(name)\n    name.gsub(/[\\u200B-\\u200D]/, '').strip\n  end\nend\n",
] as const;
const spec = (body: string): string => `RSpec.describe Util do\n${body}end\n`;

const cases: RuleCase[] = [
  {
    name: "ruby: an expected string respelled with escapes is the same check",
    changes: [
      change(
        "spec/util_spec.rb",
        spec("  it \"keeps accents\" do\n    expect(Util.normalize('café')).to eq('café')\n  end\n"),
        spec('  it "keeps accents" do\n    expect(Util.normalize("caf\\u00E9")).to eq("caf\\u00E9")\n  end\n'),
      ),
    ],
    findings: [],
  },
  {
    name: "ruby: a test retitled and re-expected on the same input, respelled with escapes, as the code changed",
    changes: [
      change(UTIL[0], UTIL[1], UTIL[2]),
      change(
        "spec/util_spec.rb",
        spec("  it \"transliterates accents\" do\n    expect(Util.normalize('café')).to eq('cafe')\n  end\n"),
        spec('  it "keeps accented characters" do\n    expect(Util.normalize("caf\\u00E9")).to eq("caf\\u00E9")\n  end\n'),
      ),
    ],
    // Paired as one test edited (the only test of its file), its expectation following the code: no finding.
    findings: [],
  },
  {
    name: "ruby: the same retitle with another input is still a deletion",
    changes: [
      change(UTIL[0], UTIL[1], UTIL[2]),
      change(
        "spec/util_spec.rb",
        spec("  it \"transliterates accents\" do\n    expect(Util.normalize('café')).to eq('cafe')\n  end\n"),
        spec('  it "keeps accented characters" do\n    expect(Util.normalize("na\\u00EFve")).to eq("na\\u00EFve")\n  end\n'),
      ),
    ],
    findings: ['test_deletion/critical spec/util_spec.rb "Util > transliterates accents"'],
  },
];

describe("checks of escaped strings", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
