/** A match pattern made more permissive (checks/pattern-widening.ts, issue 9 class regex-widened), and patterns left alone. */
import { describe, expect, it } from "vitest";
import { isPatternWidened } from "../../../src/analysis/checks/pattern-widening.js";

describe("a widened pattern", () => {
  it.each([
    ["anchors dropped", "/^abc$/", "/abc/"],
    ["one anchor dropped", "/\\Aid-\\d+\\z/", "/id-\\d+\\z/"],
    ["a suffix dropped from an unanchored end", "/\\A\\d{8}T\\d{6}Z-[0-9a-f]{12}\\z/", "/\\d{8}T\\d{6}/"],
    ["a class widened", '"/^[0-9A-F]{7}$/"', '"/^\\w+$/"'],
    ["a literal replaced by a class", "/^v1\\.2$/", "/^v\\d\\.\\d$/"],
    ["a wildcard for a literal", "/^ab-c$/", "/^ab.c$/"],
    ["a repeat widened", "/^x{3}$/", "/^x+$/"],
    ["a group kept, an anchor dropped", "/^(ab)+c$/", "/(ab)+c$/"],
  ])("%s", (_, before, after) => {
    expect(isPatternWidened(before, after)).toBe(true);
  });

  it.each([
    ["tightened", '"/[0-9a-f]+/"', '"/^[0-9a-f]{40}$/"'],
    ["the same", "/^abc$/", "/^abc$/"],
    ["respelled the same", "/^[0-9]+$/", "/^\\d+$/"],
    ["another literal", "/^abc$/", "/^abd$/"],
    ["an alternation", "/^a$/", "/^a|b$/"],
    ["a lookahead", "/^(?=a)ab$/", "/^(?=a)a/"],
    ["flags changed", "/^abc$/", "/abc/i"],
    ["a plain string (no regex literal)", '"abc"', '"ab"'],
    ["an anchor added", "/abc/", "/^abc/"],
    ["a possessive repeat", "/^a++$/", "/a++/"],
  ])("not when %s", (_, before, after) => {
    expect(isPatternWidened(before, after)).toBe(false);
  });
});
