/**
 * A failure moved out of a callback into a flag (languages/
 * javascript-sentinels.ts; sindresorhus/got 4d7e628b1c): `t.fail(m)` in a
 * hook became `retried = true` there and `t.false(retried, m)` after the
 * call. The check that the flag is still unset is the failure the callback
 * made, so neither direction is a weakening. A flag never set, set by the
 * test itself, or set to an unset value, or a tautology in the failure's
 * place, still is.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const ava = (body: string): string => `import test from "ava";\nimport got from "../src/got.js";\n\ntest("does not retry on POST", async t => {\n${body}\n  t.is(await got.post("x"), "ok");\n});\n`;
const failing = `  await got.post("x", {hooks: {beforeRetry: [() => {\n    t.fail("Retries on POST requests");\n  }]}});`;
const flagged = (set: string, check: string, own = ""): string => `  let retried = false;\n${own}  await got.post("x", {hooks: {beforeRetry: [() => {\n    ${set}\n  }]}});\n  ${check}`;
const nodeTest = (body: string): string =>
  `import test from "node:test";\nimport assert from "node:assert";\nimport {watch} from "../src/watch.js";\n\ntest("never fires", async () => {\n${body}\n  assert.strictEqual(await watch.close(), true);\n});\n`;

const cases: RuleCase[] = [
  {
    name: "ava: t.fail in a hook moved into a flag asserted false after (got 4d7e628b1c)",
    changes: [change("test/retry.js", ava(failing), ava(flagged("retried = true;", 't.false(retried, "Retries on POST requests");')))],
    findings: [],
  },
  { name: "ava: the flag moved back into t.fail", changes: [change("test/retry.js", ava(flagged("retried = true;", 't.false(retried, "Retries on POST requests");')), ava(failing))], findings: [] },
  {
    name: "node:assert: assert.fail in a listener moved into assert.strictEqual(fired, false, m)",
    changes: [
      change(
        "test/watch.test.js",
        nodeTest('  watch.on("change", () => {\n    assert.fail("change fired");\n  });'),
        nodeTest('  let fired = false;\n  watch.on("change", () => {\n    fired = true;\n  });\n  assert.strictEqual(fired, false, "change fired");'),
      ),
    ],
    findings: [],
  },
  {
    name: "cheat: ava: the flag is never set",
    changes: [change("test/retry.js", ava(failing), ava(flagged("got.cancel();", 't.false(retried, "Retries on POST requests");')))],
    findings: ['assertion_weakening/high test/retry.js "does not retry on POST"'],
  },
  {
    name: "cheat: ava: the test resets the flag itself",
    changes: [change("test/retry.js", ava(failing), ava(flagged("retried = true;", 'retried = false;\n  t.false(retried, "Retries on POST requests");')))],
    findings: ['assertion_weakening/high test/retry.js "does not retry on POST"'],
  },
  {
    name: "cheat: ava: the callback sets the flag to false",
    changes: [change("test/retry.js", ava(failing), ava(flagged("retried = false;", 't.false(retried, "Retries on POST requests");')))],
    findings: ['assertion_weakening/high test/retry.js "does not retry on POST"'],
  },
  {
    name: "cheat: ava: the failure replaced by a tautology with its message",
    changes: [change("test/retry.js", ava(failing), ava('  await got.post("x");\n  t.false(false, "Retries on POST requests");'))],
    findings: ['assertion_weakening/high test/retry.js "does not retry on POST"'],
  },
];

describe("a failure moved out of a callback into a flag", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});
