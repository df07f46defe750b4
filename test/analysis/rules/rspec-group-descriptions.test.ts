/**
 * An RSpec group described by a class and a string (`describe
 * Addressable::URI, "when created with a non-string authority"`) is named
 * as RSpec names it, both parts joined (rspec-core's description; a
 * `#method` joined with no space). With only the class, every such group
 * of a spec file shared one name and their tests one id, so deleting an
 * exact duplicate group read as deleting a test "not found elsewhere"
 * (sweep of sporkmonger/addressable 01053b2), and one test of a context
 * could pair with another context's test of the same title. An exact
 * duplicate group removed is still a deletion by multiplicity: the
 * groups' own setup may differ.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "spec/addressable/uri_spec.rb";
const group = (context: string, body: string): string => `describe Addressable::URI, "${context}" do\n  it "should raise an error" do\n${body}  end\nend\n`;
const RAISES = "    expect { Addressable::URI.new(authority: 42) }.to raise_error(TypeError)\n";
const spec = (...groups: string[]): string => `require "addressable/uri"\n\n${groups.join("\n")}`;

const cases: RuleCase[] = [
  {
    // Same id and body, yet the group's own setup (`let`, `before`) may differ: still a deletion, judged by multiplicity.
    name: "an exact duplicate group removed while its twin stays: a deletion by multiplicity",
    changes: [
      change(
        file,
        spec(group("when created with a non-string authority", RAISES), group("when created with a non-string authority", RAISES)),
        spec(group("when created with a non-string authority", RAISES)),
      ),
    ],
    findings: [`test_deletion/critical ${file} "Addressable::URI when created with a non-string authority > should raise an error"`],
  },
  {
    name: "cheat: the test of another context removed, a same-titled test of another context kept",
    changes: [
      change(
        file,
        spec(group("when created with a non-string authority", RAISES), group("when created with a non-string path", "    expect { Addressable::URI.new(path: 42) }.to raise_error(TypeError)\n")),
        spec(group("when created with a non-string authority", RAISES)),
      ),
    ],
    findings: [`test_deletion/critical ${file} "Addressable::URI when created with a non-string path > should raise an error"`],
  },
];

describe("RSpec groups described by a class and a string", () => {
  it("names the group with both parts, a #method joined with no space", async () => {
    const facts = await extractFacts(
      file,
      `describe Addressable::URI, "when parsed" do\n  it "works" do\n    expect(1).to eq(1)\n  end\nend\ndescribe Addressable::URI, "#normalize" do\n  it "works" do\n    expect(1).to eq(1)\n  end\nend\n`,
    );
    expect(facts.tests.map((test) => test.id)).toEqual(["Addressable::URI when parsed > works", "Addressable::URI#normalize > works"]);
  });

  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
