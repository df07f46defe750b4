/**
 * The removed guard a validation_bypass names is the one that went: when a
 * function holds several guards with the same action (three Guava
 * `checkArgument` calls, three `throw new RangeError`, three `raise
 * ValueError`) and the first is deleted, the kept ones pair with themselves
 * before looser equivalences are tried, so the message quotes the deleted
 * condition, not the last one (found sweeping square/javapoet 3956097, where
 * the finding quoted a guard still in the file).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change } from "./table.js";

interface Case {
  language: string;
  path: string;
  before: string;
  /** The first guard's line, which the after side drops. */
  removed: string;
  /** Text of the removed condition that the message must quote. */
  quoted: string;
  /** Text of a kept condition that the message must not quote. */
  kept: string;
}

const CASES: Case[] = [
  {
    language: "java",
    path: "src/main/java/shop/Builder.java",
    removed: '    checkArgument(name != null, "name == null");\n',
    quoted: "name != null",
    kept: "size >= 0",
    before: `package shop;

import static com.google.common.base.Preconditions.checkArgument;

class Builder {
  Object build(String name, int count, int size) {
    checkArgument(name != null, "name == null");
    checkArgument(count > 0, "count <= 0");
    checkArgument(size >= 0, "size < 0");
    return new Object();
  }
}
`,
  },
  {
    language: "typescript",
    path: "src/builder.ts",
    removed: '  if (name === undefined) throw new RangeError("no name");\n',
    quoted: "name === undefined",
    kept: "size < 0",
    before: `export function build(name: string | undefined, count: number, size: number): object {
  if (name === undefined) throw new RangeError("no name");
  if (count <= 0) throw new RangeError("no count");
  if (size < 0) throw new RangeError("bad size");
  return { name, count, size };
}
`,
  },
  {
    language: "python",
    path: "src/shop/builder.py",
    removed: '    if name is None:\n        raise ValueError("no name")\n',
    quoted: "name is None",
    kept: "size < 0",
    before: `def build(name, count, size):
    if name is None:
        raise ValueError("no name")
    if count <= 0:
        raise ValueError("no count")
    if size < 0:
        raise ValueError("bad size")
    return (name, count, size)
`,
  },
];

describe("a removed guard among guards of one action is the one named", () => {
  for (const testCase of CASES) {
    it(`${testCase.language}: the first of three guards deleted`, async () => {
      expect(testCase.before.includes(testCase.removed)).toBe(true);
      const after = testCase.before.replace(testCase.removed, "");
      const { findings } = await analyzeChanges([change(testCase.path, testCase.before, after)]);
      const bypasses = findings.filter((finding) => finding.type === "validation_bypass");
      expect(bypasses).toHaveLength(1);
      // Conditions are compared without spaces: how a message spaces code is display's business.
      const message = (bypasses[0]?.message ?? "").replace(/\s+/g, "");
      expect(message).toContain(testCase.quoted.replace(/\s+/g, ""));
      expect(message).not.toContain(testCase.kept.replace(/\s+/g, ""));
    });
  }
});
