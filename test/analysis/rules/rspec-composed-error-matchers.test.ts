/**
 * An RSpec composed matcher given to `raise_error` pins the error's class
 * and message as `raise_error(E, msg)` does (checks/normalise.ts
 * composedErrorParts; sweep of dry-rb/dry-types 9562995e: `raise_error(E,
 * msg)` -> `raise_error(an_instance_of(E).and(having_attributes(message:
 * msg, key: :age)))`, read as weaker, 3 high). Dropping the message from
 * the composed matcher still checks less.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "spec/dry/types/schema_spec.rb";
const MESSAGE = `'"oops" (String) has invalid type for :age'`;
const spec = (matcher: string): string =>
  `RSpec.describe Dry::Types::Schema do\n  it "raises on invalid input" do\n    expect {\n      schema.(name: "Jane", age: "oops")\n    }.to raise_error(\n      ${matcher}\n    )\n  end\nend\n`;

const cases: RuleCase[] = [
  {
    name: "raise_error(E, msg) -> an_instance_of(E).and(having_attributes(message: msg, key: :age))",
    changes: [change(file, spec(`Dry::Types::SchemaError, ${MESSAGE}`), spec(`an_instance_of(Dry::Types::SchemaError).and(having_attributes(message: ${MESSAGE}, key: :age, value: "oops"))`))],
    findings: [],
  },
  {
    name: "raise_error(E, msg) -> a_kind_of(E) & having_attributes(message:)",
    changes: [change(file, spec(`Dry::Types::SchemaError, ${MESSAGE}`), spec(`a_kind_of(Dry::Types::SchemaError).and(having_attributes(message: ${MESSAGE}))`))],
    findings: [],
  },
  {
    name: "cheat: the message dropped from the composed matcher",
    changes: [change(file, spec(`Dry::Types::SchemaError, ${MESSAGE}`), spec(`an_instance_of(Dry::Types::SchemaError).and(having_attributes(key: :age))`))],
    findings: [`assertion_weakening/high ${file} "Dry::Types::Schema > raises on invalid input"`],
  },
];

describe("RSpec composed matchers inside raise_error", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
