/**
 * A whole-value equality replaced by a size check (checks/coverage.ts isSizeInsteadOfContents, issue 9
 * "length instead of contents"), in each language's spelling, and the look-alikes that stay apart.
 */
import { describe, expect, it } from "vitest";
import type { AssertionFact } from "../../../src/analysis/facts.js";
import { coverage, toCheck } from "../../../src/analysis/checks/index.js";
import { isSizeInsteadOfContents } from "../../../src/analysis/checks/coverage.js";

const fact = (matcher: string, actual: string, expected?: string): AssertionFact => {
  const made: AssertionFact = { line: 1, matcher, strength: 3, tautology: false, actual };
  if (expected !== undefined) made.expected = expected;
  return made;
};

describe("size instead of contents", () => {
  it.each([
    ["Python len == len", fact("assert ==", "parse_rows(s)", "expected"), fact("assert ==", "len(rows)", "len(expected)")],
    ["Python lengths of rows", fact("assert ==", "parse_rows(s)", "expected"), fact("assert ==", "[len(r) for r in rows]", "[len(r) for r in expected]")],
    ["Go len != len", fact("if !equal t.Errorf", "drain(h)", "want"), fact("if != t.Errorf", "len(got)", "len(want)")],
    ["Java size() == size()", fact("assertEquals", "Sentences.split(s)", "expected"), fact("assertEquals", "Sentences.split(s).size()", "expected.size()")],
    ["PHP assertCount", fact("assertEquals", "DotEnv::parse(s)", "['A' => '1']"), fact("assertCount", "DotEnv::parse(s)", "1")],
    ["JS toHaveLength", fact("toEqual", "parse(s)", "[1, 2]"), fact("toHaveLength", "parse(s)", "2")],
  ])("%s", (_, before, after) => {
    expect(isSizeInsteadOfContents(toCheck(before), toCheck(after))).toBe(true);
    expect(coverage(toCheck(before), toCheck(after), false)).toBeNull();
  });

  it.each([
    ["a count respelled", fact("assertEquals", "count($x)", "2"), fact("assertCount", "$x", "2")],
    ["a number compared before", fact("assertEquals", "f()", "3"), fact("assertEquals", "f().size()", "3")],
    ["contents kept", fact("assertEquals", "f()", "expected"), fact("assertEquals", "f()", "expected")],
    ["a negated equality", fact("assertNotEquals", "f()", "expected"), fact("assertCount", "f()", "2")],
    // An empty literal states only the size 0 (sweep of tox-dev/filelock bb16d39662: `attempts == []` -> `len(attempts) == 1`).
    ["Python an empty list expected", fact("assert ==", "attempts", "[]"), fact("assert ==", "len(attempts)", "1")],
    ["PHP an empty array expected", fact("assertSame", "$x", "[]"), fact("assertCount", "$x", "0")],
    ["Rust an empty vec expected", fact("assert_eq!", "v", "vec![]"), fact("assert_eq!", "v.len()", "2")],
  ])("not for %s", (_, before, after) => {
    expect(isSizeInsteadOfContents(toCheck(before), toCheck(after))).toBe(false);
  });
});
