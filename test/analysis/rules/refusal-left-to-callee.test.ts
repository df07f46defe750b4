/**
 * A range check's alternative left to the call that fails on it (the sweep
 * of ai/nanoid a6a94d3f8d: `bytes > 512` dropped from fillPool's guard, the
 * platform's getRandomValues throwing on oversize requests, and a new test
 * that `token(1025)` still throws): a test of the change that still expects
 * a value the alternative refused to fail keeps the alternative, and the old
 * check of the refusal's message, made again without it on the same call,
 * is not removed. The nearest cheats: the alternative dropped with no test
 * still expecting its values to fail (its check removed, or a new test of a
 * value it never refused), or the message check dropped while the guard is
 * as it was.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const JS_CODE = (condition: string): string =>
  `function fill(bytes) {\n  if (${condition}) throw new RangeError('Wrong token size')\n  return new Uint8Array(bytes)\n}\n\nexport function token(size = 21) {\n  return Array.from(fill(size)).join('')\n}\n`;
const JS_OLD_TEST =
  "import { throws } from 'node:assert'\nimport { test } from 'node:test'\nimport { token } from '../index.js'\n\ntest('throws on a bad size', () => {\n  throws(() => token(-1), /Wrong token size/)\n  throws(() => token(1025), /Wrong token size/)\n})\n";
const JS_KEPT_TEST =
  "import { throws } from 'node:assert'\nimport { test } from 'node:test'\nimport { token } from '../index.js'\n\ntest('throws on a bad size', () => {\n  throws(() => token(-1), /Wrong token size/)\n})\n";
const JS_NEW_TEST = (size: number): string =>
  `import { throws } from 'node:assert'\nimport { test } from 'node:test'\nimport { token } from '../index.js'\n\ntest('an oversize request still fails', () => {\n  throws(() => token(${size}))\n})\n`;

const PY_CODE = (condition: string): string =>
  `def fill(size):\n    if ${condition}:\n        raise ValueError("wrong token size")\n    return bytearray(size)\n\n\ndef token(size=21):\n    return bytes(fill(size)).hex()\n`;
const PY_OLD_TEST =
  'import pytest\n\nfrom tokens import token\n\n\ndef test_bad_size():\n    with pytest.raises(ValueError, match="wrong token size"):\n        token(-1)\n    with pytest.raises(ValueError, match="wrong token size"):\n        token(1025)\n';
const PY_KEPT_TEST = 'import pytest\n\nfrom tokens import token\n\n\ndef test_bad_size():\n    with pytest.raises(ValueError, match="wrong token size"):\n        token(-1)\n';
const PY_NEW_TEST = (size: number): string => `import pytest\n\nfrom tokens import token\n\n\ndef test_oversize_still_fails():\n    with pytest.raises(Exception):\n        token(${size})\n`;

const js = (condition: string, newTest: number | null, kept = JS_KEPT_TEST): RuleCase["changes"] => [
  change("index.js", JS_CODE("bytes < 0 || bytes > 512"), JS_CODE(condition)),
  change("test/index.test.js", JS_OLD_TEST, kept),
  ...(newTest === null ? [] : [change("test/pool.test.js", null, JS_NEW_TEST(newTest))]),
];
const py = (condition: string, newTest: number | null): RuleCase["changes"] => [
  change("tokens.py", PY_CODE("size < 0 or size > 512"), PY_CODE(condition)),
  change("tests/test_tokens.py", PY_OLD_TEST, PY_KEPT_TEST),
  ...(newTest === null ? [] : [change("tests/test_pool.py", null, PY_NEW_TEST(newTest))]),
];

const JS_LOST = ["validation_bypass/high index.js", 'assertion_removal/high test/index.test.js "throws on a bad size"'];
const PY_LOST = ["validation_bypass/high tokens.py", 'assertion_removal/high tests/test_tokens.py "test_bad_size"'];

const lookAlikes: RuleCase[] = [
  { name: "javascript: `bytes > 512` dropped, a new test still expects token(1025) to throw", changes: js("bytes < 0", 1025), findings: [] },
  { name: "python: `size > 512` dropped, a new test still expects token(1025) to raise", changes: py("size < 0", 1025), findings: [] },
];

const cheats: RuleCase[] = [
  { name: "javascript: `bytes > 512` dropped with its check, no test of an oversize token", changes: js("bytes < 0", null), findings: JS_LOST },
  { name: "javascript: `bytes > 512` dropped, the new test throws on a size it never refused", changes: js("bytes < 0", 100), findings: JS_LOST },
  {
    name: "javascript: the message check dropped while the guard stays as it was",
    changes: js("bytes < 0 || bytes > 512", 1025),
    findings: ['assertion_removal/high test/index.test.js "throws on a bad size"'],
  },
  { name: "python: `size > 512` dropped with its check, no test of an oversize token", changes: py("size < 0", null), findings: PY_LOST },
];

describe("a refusal's values still expected to fail by a test of the change (look-alikes)", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a refusal's values no test still expects to fail (cheats)", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
