/**
 * Sweep of sinatra/mustermann f807160970 and dc0ea76c2d: an RSpec example
 * with no title (`example { … }`) is named by its body, so editing the body
 * read as deleting the test. Untitled examples pair by their order among the
 * untitled ones of their group; an edit is then judged as any edited test,
 * and an untitled example removed is still a deletion.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

const PATH = "spec/composite_spec.rb";
const spec = (...examples: string[]): string =>
  `describe Composite do\n  subject(:pattern) { Mustermann.new("/a") | Mustermann.new("/b") }\n${examples.map((body) => `  example { ${body} }\n`).join("")}end\n`;
const FIRST = 'should be_eql(Mustermann.new("/a") | Mustermann.new("/b"))';
const SECOND = 'pattern.to_s.should include("/a | /b")';
const THIRD = 'should_not be_eql(Mustermann.new("/c"))';

async function findings(before: string, after: string): Promise<string[]> {
  const analysis = await analyzeChanges([change(PATH, before, after), change("lib/composite.rb", "class Composite; end\n", "class Composite\nend\n")]);
  return analysis.findings.map(summarize).sort();
}

describe("untitled examples pair by their order", () => {
  it("a body edited to an equal-strength check: no blocking finding", async () => {
    const found = await findings(spec(FIRST, SECOND, THIRD), spec(FIRST, 'pattern.to_s.should be == "/a | /b"', THIRD));
    expect(found.filter((line) => /critical|high/.test(line))).toEqual([]);
  });

  it("a body edited to check less: assertion_weakening", async () => {
    const found = await findings(spec(FIRST, SECOND, THIRD), spec(FIRST, "pattern.should be_truthy", THIRD));
    expect(found).toContainEqual(expect.stringMatching(/^assertion_weakening\/high spec\/composite_spec\.rb/));
  });

  it("an untitled example removed: test_deletion", async () => {
    const found = await findings(spec(FIRST, SECOND, THIRD), spec(FIRST, THIRD));
    expect(found).toContainEqual(expect.stringMatching(/^test_deletion\/critical spec\/composite_spec\.rb/));
  });
});
