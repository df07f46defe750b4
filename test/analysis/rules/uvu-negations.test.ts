/**
 * uvu negates an assertion with a `.not` segment (uvu/assert: `is.not(a,
 * b)`, `assert.not.equal(a, b)`, `assert.is.not(a, b)`, `assert.not.ok(x)`):
 * it was read as the positive assertion with its second argument dropped,
 * so a migration to node:assert's `notEqual(a, b)` read as "strength 3 ->
 * 1" (sweep of ai/nanoid 7b6241af), and a flip of `is` to `is.not` went
 * unseen.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "test/index.test.js";
const uvu = (imports: string, body: string): string =>
  `import { test } from "uvu";\n${imports}\nimport { nanoid } from "../index.js";\n\ntest("prevents collision", () => {\n  const id1 = nanoid();\n  const id2 = nanoid();\n${body}});\n\ntest.run();\n`;
const node = (body: string): string =>
  `import { test } from "node:test";\nimport { equal, notEqual, ok } from "node:assert";\nimport { nanoid } from "../index.js";\n\ntest("prevents collision", () => {\n  const id1 = nanoid();\n  const id2 = nanoid();\n${body}});\n`;

const cases: RuleCase[] = [
  { name: "is.not -> node:assert notEqual", changes: [change(file, uvu('import { is } from "uvu/assert";', "  is.not(id1, id2);\n"), node("  notEqual(id1, id2);\n"))], findings: [] },
  { name: "assert.not.equal -> notEqual", changes: [change(file, uvu('import * as assert from "uvu/assert";', "  assert.not.equal(id1, id2);\n"), node("  notEqual(id1, id2);\n"))], findings: [] },
  { name: "assert.is.not -> notEqual", changes: [change(file, uvu('import * as assert from "uvu/assert";', "  assert.is.not(id1, id2);\n"), node("  notEqual(id1, id2);\n"))], findings: [] },
  {
    name: "cheat: is flipped to is.not",
    changes: [change(file, uvu('import { is } from "uvu/assert";', "  is(id1.length, 21);\n"), uvu('import { is } from "uvu/assert";', "  is.not(id1.length, 21);\n"))],
    findings: [`assertion_weakening/high ${file} "prevents collision"`],
  },
  {
    name: "cheat: is.not dropped in the migration",
    changes: [change(file, uvu('import { is } from "uvu/assert";', "  is.not(id1, id2);\n  is(id1.length, 21);\n"), node("  equal(id1.length, 21);\n"))],
    findings: [`assertion_removal/high ${file} "prevents collision"`],
  },
];

describe("uvu's .not negations", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
