/**
 * Error checks of one call whose message patterns were merged into one
 * pattern that implies each (sweep of dry-rb/dry-types 4d7db5b4:
 * `raise_error(E, /[1]/)` and `raise_error(E, /[2]/)` -> one
 * `raise_error(E, /2, \[1\]/)`, read as a removal). A regex literal that is
 * a plain literal or one character class is implied by a pattern whose
 * literal text holds it (checks/patterns.ts impliesPattern); one the merged
 * pattern no longer holds is an edited message, and an alternation needs
 * only one of its sides.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const rb = (body: string): string => `RSpec.describe Dry::Types::Sum do\n  it "works with two complex types with constraints" do\n${body}  end\nend\n`;
const RB_TWO = "    expect { type.([[1], [2]]) }.to raise_error(Dry::Types::ConstraintError, /[1]/)\n    expect { type.([[1], [2]]) }.to raise_error(Dry::Types::ConstraintError, /[2]/)\n";
const js = (body: string): string => `import { parse } from "../src/parse.js";\n\ntest("reports both offsets", () => {\n${body}});\n`;
const JS_TWO = '  expect(() => parse("a,b")).toThrow(/offset 1/);\n  expect(() => parse("a,b")).toThrow(/line 2/);\n';

const cases: RuleCase[] = [
  {
    name: "ruby: two character-class patterns merged into one exact pattern",
    changes: [change("spec/sum_spec.rb", rb(RB_TWO), rb("    expect { type.([[1], [2]]) }.to raise_error(Dry::Types::ConstraintError, /2, \\[1\\]/)\n"))],
    findings: [],
  },
  {
    name: "javascript: two message fragments merged into one pattern",
    changes: [change("test/parse.test.js", js(JS_TWO), js('  expect(() => parse("a,b")).toThrow(/^line 2, offset 1: unexpected ","$/);\n'))],
    findings: [],
  },
  {
    name: "ruby: the merged pattern no longer holds one of them: that check's message changed (medium, as any edited message)",
    changes: [change("spec/sum_spec.rb", rb(RB_TWO), rb("    expect { type.([[1], [2]]) }.to raise_error(Dry::Types::ConstraintError, /2, \\[3\\]/)\n"))],
    findings: [`expectation_changed/medium spec/sum_spec.rb "Dry::Types::Sum > works with two complex types with constraints"`],
  },
  {
    name: "cheat: javascript: merged into an alternation, which needs only one",
    changes: [change("test/parse.test.js", js(JS_TWO), js('  expect(() => parse("a,b")).toThrow(/line 2|offset 1/);\n'))],
    findings: [`assertion_removal/high test/parse.test.js "reports both offsets"`],
  },
];

describe("error message patterns merged into one that implies each", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
