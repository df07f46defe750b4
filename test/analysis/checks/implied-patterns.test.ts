/**
 * checks/patterns.ts impliesPattern and the regex literals of canonical
 * text (checks/normalise.ts splitArguments): a message pattern merged into
 * one that holds its literal text (dry-rb/dry-types 4d7db5b4), and a regex
 * literal with a comma read as one argument.
 */
import { describe, expect, it } from "vitest";
import { splitArguments } from "../../../src/analysis/checks/normalise.js";
import { impliesPattern } from "../../../src/analysis/checks/patterns.js";

describe("impliesPattern", () => {
  it.each([
    ["/2, \\[1\\]/", "/[1]/"],
    ["/2, \\[1\\]/", "/[2]/"],
    ["/^line 2, offset 1: bad$/", "/offset 1/"],
    ['"line 2, offset 1"', "/offset 1/"],
    ["/Wrong ID SIZE/", "/wrong id size/i"],
  ])("%s implies %s", (stronger, weaker) => {
    expect(impliesPattern(stronger, weaker)).toBe(true);
  });

  it.each([
    ["/line 2|offset 1/", "/offset 1/"], // an alternation needs only one side
    ["/2, \\[3\\]/", "/[1]/"],
    ["/offset \\d/", "/offset 1/"],
    ["/wrong id size/i", "/wrong id size/"], // case-insensitive accepts what the exact one refuses
    ["/offset 1/", '"offset 1"'], // a string message may be compared whole
    ["/a.*b/", "/a.b/"],
  ])("%s does not imply %s", (stronger, weaker) => {
    expect(impliesPattern(stronger, weaker)).toBe(false);
  });
});

describe("splitArguments", () => {
  it("reads a regex literal with a comma as one argument, a division as none", () => {
    expect(splitArguments("E,/line 2, offset 1/")).toEqual(["E", "/line 2, offset 1/"]);
    expect(splitArguments("/[,]/,x")).toEqual(["/[,]/", "x"]);
    expect(splitArguments("a/b,c")).toEqual(["a/b", "c"]);
  });
});
