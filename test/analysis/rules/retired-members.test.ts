/**
 * A deleted test whose checks read members the removed code defined by
 * name (the sweep of sindresorhus/execa ade74bfe0c: a mixin copied
 * `['then', 'catch', 'finally']` onto the subprocess with
 * `Reflect.defineProperty`; the test of their descriptors went with the
 * mixin): each member read depends on the string literal that named it, and
 * that literal is retired with the code, so the deletion is a feature_removal
 * at medium. The nearest cheats: the mixin kept and the test deleted, or one
 * check of the test reading surviving code: a critical test_deletion.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const MIXIN =
  "export const merge = (target, promise) => {\n  for (const property of ['then', 'catch', 'finally']) {\n    Reflect.defineProperty(target, property, { value: promise[property].bind(promise), enumerable: false });\n  }\n  return target;\n};\n";
const ASSIGN = "export const merge = (target, promise) => Object.assign(promise, { target });\n";
const JS_TEST = (extra = ""): string =>
  `import test from 'ava';\nimport {merge} from '../source/merge.js';\n\ntest('promise methods are not enumerable', t => {\n  const descriptors = Object.getOwnPropertyDescriptors(merge({}, Promise.resolve(1)));\n  t.false(descriptors.then.enumerable);\n  t.false(descriptors.catch.enumerable);${extra}\n});\n\ntest('merges', t => {\n  t.truthy(merge({}, Promise.resolve(1)));\n});\n`;
const JS_AFTER = "import test from 'ava';\nimport {merge} from '../source/merge.js';\n\ntest('merges', t => {\n  t.truthy(merge({}, Promise.resolve(1)));\n});\n";

const PY_MIXIN = 'def merge(target, promise):\n    for name in ("then", "catch"):\n        setattr(target, name, getattr(promise, name))\n    return target\n';
const PY_ASSIGN = "def merge(target, promise):\n    promise.target = target\n    return promise\n";
const PY_TEST = (extra = ""): string =>
  `from merge import merge\n\n\ndef test_methods_copied():\n    merged = merge(Target(), make_promise())\n    assert merged.then is not None\n    assert merged.catch is not None${extra}\n\n\ndef test_merges():\n    assert merge(Target(), make_promise())\n`;
const PY_AFTER = "from merge import merge\n\n\ndef test_merges():\n    assert merge(Target(), make_promise())\n";

const lookAlikes: RuleCase[] = [
  {
    name: "javascript: the test of the mixin's descriptors deleted with the mixin",
    changes: [change("source/merge.js", MIXIN, ASSIGN), change("test/merge.js", JS_TEST(), JS_AFTER)],
    findings: ['feature_removal/medium test/merge.js "promise methods are not enumerable"'],
  },
  {
    name: "python: the test of the copied methods deleted with the setattr loop",
    changes: [change("merge.py", PY_MIXIN, PY_ASSIGN), change("tests/test_merge.py", PY_TEST(), PY_AFTER)],
    findings: ['feature_removal/medium tests/test_merge.py "test_methods_copied"'],
  },
];

const cheats: RuleCase[] = [
  {
    name: "javascript: the test deleted while the mixin stays",
    changes: [change("source/merge.js", MIXIN, `${MIXIN}// merged\n`), change("test/merge.js", JS_TEST(), JS_AFTER)],
    findings: ['test_deletion/critical test/merge.js "promise methods are not enumerable"'],
  },
  {
    name: "javascript: the deleted test also checked a surviving member",
    changes: [change("source/merge.js", MIXIN, ASSIGN), change("test/merge.js", JS_TEST("\n  t.is(typeof descriptors.constructor, 'undefined');"), JS_AFTER)],
    findings: ['test_deletion/critical test/merge.js "promise methods are not enumerable"'],
  },
  {
    name: "python: the test deleted while the setattr loop stays",
    changes: [change("merge.py", PY_MIXIN, `${PY_MIXIN}# merged\n`), change("tests/test_merge.py", PY_TEST(), PY_AFTER)],
    findings: ['test_deletion/critical tests/test_merge.py "test_methods_copied"'],
  },
];

describe("a test of members the removed code named deleted with it (look-alikes)", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a test of members that survive deleted (cheats)", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
