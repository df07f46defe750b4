/**
 * An error check flipped together with the fix of the code that raises the
 * error (rules/flipped-refusals.ts; the sweep of sindresorhus/meow
 * c3bf62bf28: a test pinned that a valid `default` was refused, and the fix
 * inverted the validator, the test now expecting no error on the same
 * call). The shapes: ava, the test deleted and a new one expecting
 * `t.notThrows` on the same call; Jest `toThrow` -> `not.toThrow` in place;
 * JUnit `assertThrows` -> `assertDoesNotThrow`; RSpec `raise_error` ->
 * `not_to raise_error`; pytest `raises` deleted with a new test of the
 * call's value. Each is expectation_changed (medium). The nearest cheats
 * keep their findings: the same flip while the product is as it was, while
 * another function changed, or with the refusal removed.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

interface Shape {
  id: string;
  source: string;
  test: string;
  /** The product with `{{cond}}` where the refusal's condition goes, and `{{other}}` where an unrelated function's body goes. */
  product: string;
  /** The condition refusing a valid default (the bug), and the fixed one. */
  buggy: string;
  fixed: string;
  /** The product with the refusal removed. */
  removed: string;
  before: string;
  after: string;
  /** The findings before the flip is recognised, as `type/severity` (what the cheats keep). */
  unexplained: string;
}

const SHAPES: Shape[] = [
  {
    id: "ava: the test deleted, a new test expects t.notThrows on the same call",
    source: "source/options.js",
    test: "test/choices.js",
    product:
      "export const validate = options => {\n\tconst {choices, fallback} = options;\n\tif ({{cond}}) {\n\t\tthrow new Error(`Each value of the option \\`default\\` must exist within the option \\`choices\\`. Invalid flag: ${options.name}`);\n\t}\n\n\treturn options;\n};\n\nexport const describeOption = options => {{other}};\n",
    buggy: "fallback !== undefined && choices.includes(fallback)",
    fixed: "fallback !== undefined && !choices.includes(fallback)",
    removed: "export const validate = options => options;\n\nexport const describeOption = options => `--${options.name}`;\n",
    before:
      "import test from 'ava';\nimport {validate} from '../source/options.js';\n\ntest('default must only include valid choices', t => {\n\tt.throws(() => {\n\t\tvalidate({name: 'number', choices: [1, 2, 3], fallback: 1});\n\t}, {message: 'Each value of the option `default` must exist within the option `choices`. Invalid flag: number'});\n});\n",
    after:
      "import test from 'ava';\nimport {validate} from '../source/options.js';\n\ntest('success when the default is one of the choices', t => {\n\tt.notThrows(() => {\n\t\tvalidate({name: 'number', choices: [1, 2, 3], fallback: 1});\n\t});\n});\n\ntest('throws when the default is not one of the choices', t => {\n\tt.throws(() => {\n\t\tvalidate({name: 'string', choices: ['dog', 'cat'], fallback: 'unicorn'});\n\t}, {message: 'Each value of the option `default` must exist within the option `choices`. Invalid flag: string'});\n});\n",
    unexplained: "test_deletion/critical",
  },
  {
    id: "Jest: toThrow flipped to not.toThrow in place",
    source: "src/options.ts",
    test: "test/options.test.ts",
    product:
      "export function validate(options: { name: string; choices: number[]; fallback?: number }) {\n  const { choices, fallback } = options;\n  if ({{cond}}) throw new RangeError(`the default of ${options.name} must be one of its choices`);\n  return options;\n}\n\nexport function describeOption(options: { name: string }) {\n  return {{other}};\n}\n",
    buggy: "fallback !== undefined && choices.includes(fallback)",
    fixed: "fallback !== undefined && !choices.includes(fallback)",
    removed:
      "export function validate(options: { name: string; choices: number[]; fallback?: number }) {\n  return options;\n}\n\nexport function describeOption(options: { name: string }) {\n  return `--${options.name}`;\n}\n",
    before:
      "import { validate } from '../src/options';\n\nit('checks the default against the choices', () => {\n  expect(() => validate({ name: 'n', choices: [1, 2], fallback: 1 })).toThrow('the default of n must be one of its choices');\n});\n",
    after:
      "import { validate } from '../src/options';\n\nit('checks the default against the choices', () => {\n  expect(() => validate({ name: 'n', choices: [1, 2], fallback: 1 })).not.toThrow();\n});\n",
    unexplained: "assertion_weakening/high",
  },
  {
    id: "JUnit: assertThrows flipped to assertDoesNotThrow in place",
    source: "src/main/java/opts/Validator.java",
    test: "src/test/java/opts/ValidatorTest.java",
    product:
      'package opts;\n\nimport java.util.List;\n\npublic final class Validator {\n  public static void validate(String name, List<Integer> choices, Integer fallback) {\n    if ({{cond}}) {\n      throw new InvalidDefaultException("the default of " + name + " must be one of its choices");\n    }\n  }\n\n  public static String describe(String name) {\n    return {{other}};\n  }\n}\n',
    buggy: "fallback != null && choices.contains(fallback)",
    fixed: "fallback != null && !choices.contains(fallback)",
    removed:
      'package opts;\n\nimport java.util.List;\n\npublic final class Validator {\n  public static void validate(String name, List<Integer> choices, Integer fallback) {\n  }\n\n  public static String describe(String name) {\n    return "--" + name;\n  }\n}\n',
    before:
      'package opts;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport java.util.List;\nimport org.junit.jupiter.api.Test;\n\nclass ValidatorTest {\n  @Test\n  void checksTheDefaultAgainstTheChoices() {\n    assertThrows(InvalidDefaultException.class, () -> Validator.validate("n", List.of(1, 2), 1));\n  }\n}\n',
    after:
      'package opts;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport java.util.List;\nimport org.junit.jupiter.api.Test;\n\nclass ValidatorTest {\n  @Test\n  void checksTheDefaultAgainstTheChoices() {\n    assertDoesNotThrow(() -> Validator.validate("n", List.of(1, 2), 1));\n  }\n}\n',
    unexplained: "assertion_weakening/high",
  },
  {
    id: "RSpec: raise_error flipped to not_to raise_error in place",
    source: "lib/opts/validator.rb",
    test: "spec/validator_spec.rb",
    product:
      'module Opts\n  class InvalidDefault < StandardError; end\n\n  module Validator\n    def self.validate(name, choices, fallback)\n      raise InvalidDefault, "the default of #{name} must be one of its choices" if {{cond}}\n      true\n    end\n\n    def self.describe(name)\n      {{other}}\n    end\n  end\nend\n',
    buggy: "fallback && choices.include?(fallback)",
    fixed: "fallback && !choices.include?(fallback)",
    removed:
      'module Opts\n  class InvalidDefault < StandardError; end\n\n  module Validator\n    def self.validate(name, choices, fallback)\n      true\n    end\n\n    def self.describe(name)\n      "--#{name}"\n    end\n  end\nend\n',
    before:
      'require "opts/validator"\n\nRSpec.describe Opts::Validator do\n  it "checks the default against the choices" do\n    expect { Opts::Validator.validate("n", [1, 2], 1) }.to raise_error(Opts::InvalidDefault, "the default of n must be one of its choices")\n  end\nend\n',
    after:
      'require "opts/validator"\n\nRSpec.describe Opts::Validator do\n  it "checks the default against the choices" do\n    expect { Opts::Validator.validate("n", [1, 2], 1) }.not_to raise_error\n  end\nend\n',
    unexplained: "assertion_weakening/high",
  },
];

/** `other` texts of the unrelated function: as it was, and rewritten (the product changed elsewhere). */
const OTHER: Record<string, [string, string]> = {
  "source/options.js": ["`--${options.name}`", "`--${options.name.toLowerCase()}`"],
  "src/options.ts": ["`--${options.name}`", "`--${options.name.toLowerCase()}`"],
  "src/main/java/opts/Validator.java": ['"--" + name', '"--" + name.toLowerCase()'],
  "lib/opts/validator.rb": ['"--#{name}"', '"--#{name.downcase}"'],
};

/** The findings, as `type/severity`, of the test's flip with the product going from `productBefore` to `productAfter` (null: unchanged). */
async function flip(shape: Shape, productBefore: string, productAfter: string | null): Promise<string[]> {
  const changes = [change(shape.test, shape.before, shape.after)];
  if (productAfter !== null) changes.push(change(shape.source, productBefore, productAfter));
  const analysis = await analyzeChanges(changes);
  return analysis.findings
    .filter((finding) => finding.file === shape.test)
    .map(summarize)
    .map((finding) => finding.split(" ")[0] as string);
}

const productOf = (shape: Shape, cond: string, other: 0 | 1): string => shape.product.replace("{{cond}}", () => cond).replace("{{other}}", () => (OTHER[shape.source] as [string, string])[other]);

describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("an error check flipped with the fix: %s", (_, shape) => {
  it("the refusal's condition fixed in the same change: expectation_changed (medium)", async () => {
    expect(await flip(shape, productOf(shape, shape.buggy, 0), productOf(shape, shape.fixed, 0))).toEqual(["expectation_changed/medium"]);
  });

  it("the product as it was: the flip keeps its finding", async () => {
    expect(await flip(shape, productOf(shape, shape.buggy, 0), null)).toEqual([shape.unexplained]);
  });

  it("only another function of the product changed: the flip keeps its finding", async () => {
    expect(await flip(shape, productOf(shape, shape.buggy, 0), productOf(shape, shape.buggy, 1))).toEqual([shape.unexplained]);
  });

  it("the refusal removed: the flip keeps its finding", async () => {
    expect(await flip(shape, productOf(shape, shape.buggy, 0), shape.removed)).toEqual([shape.unexplained]);
  });
});
