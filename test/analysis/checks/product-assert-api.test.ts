/**
 * A library's own assertion API is product code, not a test framework: `is`
 * exports `assert.array(x)`, imported in its tests as `import is, {assert}
 * from "../source/index.js"` or `{assert as isAssert}` (sindresorhus/is
 * 9bdcd9b57f, cb4ee0e92c). A call of it with a literal is the code under
 * test run on an input, not a tautology, and one added inside
 * `t.throws(() => …)` is the call that check wraps. A name imported from a
 * product module (a relative import resolving outside the test folders and
 * test files) is read as that module's export, whatever it is called; an
 * `expect`/`assert` re-exported by a test helper module stays an
 * assertion, and deleting one stays a finding.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const header = `import test from "ava";\nimport is, {assert} from "../source/index.js";\n`;
const aliased = `import {test} from "node:test";\nimport assert from "node:assert/strict";\nimport is, {assert as isAssert} from "../source/index.js";\n`;

const lookAlikes: RuleCase[] = [
  {
    name: "ava: the product's assert called with literals inside t.throws blocks",
    changes: [
      change(
        "test/test.ts",
        `${header}test("is.any", t => {\n  t.true(is.any(is.string, "a"));\n  t.throws(() => {\n    assert.any(is.string);\n  });\n});\n`,
        `${header}test("is.any", t => {\n  t.true(is.any(is.string, "a"));\n  t.throws(() => {\n    assert.any(is.string);\n  });\n  t.throws(() => {\n    assert.any([]);\n  });\n  t.notThrows(() => {\n    assert.any([is.string], "a");\n  });\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "node:test: the product's assert aliased, called with literals inside doesNotThrow",
    changes: [
      change(
        "test/test.ts",
        `${aliased}test("is.enumCase", () => {\n  assert.ok(is.enumCase("key1", E));\n  assert.doesNotThrow(() => {\n    isAssert.enumCase("key1", E);\n  });\n});\n`,
        `${aliased}test("is.enumCase", () => {\n  assert.ok(is.enumCase("key1", E));\n  assert.doesNotThrow(() => {\n    isAssert.enumCase("key1", E);\n  });\n  assert.doesNotThrow(() => {\n    isAssert.enumCase("zero", F);\n  });\n  assert.throws(() => {\n    isAssert.enumCase(0, F);\n  });\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "mocha: a product module's default export named assert called with a literal",
    changes: [
      change(
        "test/check.test.js",
        `const assertPlus = require("assert");\nconst assert = require("../lib/assert");\ndescribe("assert", () => {\n  it("passes a string", () => {\n    assertPlus.doesNotThrow(() => assert.string("a"));\n  });\n});\n`,
        `const assertPlus = require("assert");\nconst assert = require("../lib/assert");\ndescribe("assert", () => {\n  it("passes a string", () => {\n    assertPlus.doesNotThrow(() => assert.string("a"));\n    assert.string("b");\n  });\n});\n`,
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "an expect re-exported by a test helper module stays an assertion",
    changes: [
      change(
        "test/parse.test.js",
        `import {expect} from "./helpers/expect.js";\nimport {parse} from "../src/parse.js";\nit("parses", () => {\n  expect(parse("1")).toBe(1);\n  expect(parse("2")).toBe(2);\n});\n`,
        `import {expect} from "./helpers/expect.js";\nimport {parse} from "../src/parse.js";\nit("parses", () => {\n  expect(parse("1")).toBe(1);\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/parse.test.js "parses"`],
  },
  {
    name: "a real tautology next to the product's assert is still one",
    changes: [
      change(
        "test/test.ts",
        `import test from "ava";\nimport is, {assert as isAssert} from "../source/index.js";\ntest("is.string", t => {\n  t.true(is.string("a"));\n});\n`,
        `import test from "ava";\nimport is, {assert as isAssert} from "../source/index.js";\ntest("is.string", t => {\n  t.true(true);\n  isAssert.string("a");\n});\n`,
      ),
    ],
    findings: [`assertion_weakening/high test/test.ts "is.string"`],
  },
];

describe("a library's own assertion API is product code", () => {
  it.each(lookAlikes)("look-alike: $name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(cheats)("cheat: $name", async (rule) => {
    await expectFindings(rule);
  });
});
