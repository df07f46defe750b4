/**
 * node:assert's `assert.throws(fn, validate)` with a validation function
 * checks what the function checks of the error (nodejs.org/api/assert.html
 * "assert.throws(fn[, error][, message])": "If a validation function is
 * provided, it should return true"): `err instanceof TypeError` pins the
 * type, `assert.strictEqual(err.message, m)` / `assert.match(err.message,
 * re)` / `err.message === m` the message. Moving `{message}` into such a
 * function, alone or inside a helper the test defines (sindresorhus/is
 * 13febb6b01: `assertThrowsTypeErrorWithMessage`), keeps the check; a
 * function that pins less (the type only where the message was pinned)
 * is weaker, and one that pins the type where the message was pinned
 * expects something else (as `{message}` -> `{name: "TypeError"}` does).
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const file = (body: string): string =>
  `import {test} from "node:test";\nimport assert from "node:assert/strict";\nimport {parse} from "../src/index.js";\n\ntest("custom message", () => {\n  const message = "Custom error message";\n${body}});\n`;
const before = file(`  assert.throws(() => {\n    parse(undefined, message);\n  }, {message});\n`);

const cases: RuleCase[] = [
  {
    name: "{message} moved into a validation function",
    changes: [
      change(
        "test/parse.test.js",
        before,
        file(`  assert.throws(() => {\n    parse(undefined, message);\n  }, error => {\n    assert.strictEqual(error.message, message);\n    return true;\n  });\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "{message} moved into a helper the test defines, with the type pinned too (is 13febb6b01)",
    changes: [
      change(
        "test/parse.test.js",
        before,
        file(
          `  const assertThrowsTypeErrorWithMessage = assertion => {\n    assert.throws(assertion, error => {\n      assert.ok(error instanceof TypeError);\n      assert.strictEqual(error.message, message);\n      return true;\n    });\n  };\n\n  assertThrowsTypeErrorWithMessage(() => {\n    parse(undefined, message);\n  });\n`,
        ),
      ),
    ],
    findings: [],
  },
  {
    name: "a type moved into a validation function",
    changes: [
      change(
        "test/parse.test.js",
        file(`  assert.throws(() => parse(undefined, message), TypeError);\n`),
        file(`  assert.throws(() => parse(undefined, message), err => {\n    assert.ok(err instanceof TypeError);\n    return true;\n  });\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "{message} compared in the function with ===",
    changes: [change("test/parse.test.js", before, file(`  assert.throws(() => parse(undefined, message), err => err.message === message);\n`))],
    findings: [],
  },
  {
    // The message given up for the type: another check of equal strength, as `{message}` -> `{name: "TypeError"}` is.
    name: "cheat: {message} replaced by a function that checks only the type",
    changes: [change("test/parse.test.js", before, file(`  assert.throws(() => parse(undefined, message), err => err instanceof TypeError);\n`))],
    findings: [`expectation_changed/medium test/parse.test.js "custom message"`],
  },
  {
    name: "cheat: {message} replaced by a function that accepts any error",
    changes: [change("test/parse.test.js", before, file(`  assert.throws(() => parse(undefined, message), () => true);\n`))],
    findings: [`assertion_weakening/high test/parse.test.js "custom message"`],
  },
];

describe("assert.throws with a validation function", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
