/**
 * A test file moved into a folder that names its area, its titles losing the
 * prefix that named the old file: `test/aliases.js` "aliases - accepts one"
 * -> `test/flags/aliases.js` "accepts one" (sweep of sindresorhus/meow
 * 7b9e7395cc: 26 critical test_deletion, "deleted, not found elsewhere").
 * With the checks kept (reworded: a local for the call) the move loses
 * nothing; the nearest cheats (the moved test losing its assertion, a
 * prefix-dropped title in a file of another name) still block. What kept
 * the swept commit blocked is `t.deepEqual(flags, {...})` -> `t.like(flags,
 * {...})`, a partial match, which is weaker and still reported.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

const JS_HEAD = 'import test from "ava";\nimport meow from "../source/index.js";\n\n';
const JS_HEAD_MOVED = 'import test from "ava";\nimport meow from "../../source/index.js";\n\n';
const jsTest = (title: string, body: string): string => `test("${title}", (t) => {\n${body}});\n\n`;
const JS_ONE = '\tt.deepEqual(meow({ argv: ["--foo=baz"], flags: { fooBar: { type: "string", aliases: ["foo"] } } }).flags, { fooBar: "baz" });\n';
const JS_TWO = '\tt.deepEqual(meow({ argv: ["--foo=baz", "--bar=qux"], flags: { fooBar: { type: "string", aliases: ["foo", "bar"] } } }).flags.fooBar, ["baz", "qux"]);\n';
const JS_ONE_EDITED = '\tconst cli = meow({ argv: ["--foo=baz"], flags: { fooBar: { type: "string", aliases: ["foo"] } } });\n\tt.deepEqual(cli.flags, { fooBar: "baz" });\n';

const PY_BEFORE =
  'from app import parse\n\n\ndef test_aliases_accepts_one():\n    assert parse(["--foo=baz"]).foo_bar == "baz"\n\n\ndef test_aliases_accepts_many():\n    assert parse(["--foo=a", "--bar=b"]).foo_bar == ["a", "b"]\n';
const PY_AFTER =
  'from app import parse\n\n\ndef test_accepts_one():\n    flags = parse(["--foo=baz"])\n    assert flags.foo_bar == "baz"\n\n\ndef test_accepts_many():\n    assert parse(["--foo=a", "--bar=b"]).foo_bar == ["a", "b"]\n';

describe("a test file moved into a folder, titles losing the prefix that named it", () => {
  it("javascript: pairs the tests (no finding)", async () => {
    await expectFindings({
      name: "js moved",
      changes: [
        change("test/aliases.js", JS_HEAD + jsTest("aliases - accepts one", JS_ONE) + jsTest("aliases - accepts many", JS_TWO), null),
        change("test/flags/aliases.js", null, JS_HEAD_MOVED + jsTest("accepts one", JS_ONE_EDITED) + jsTest("accepts many", JS_TWO)),
      ],
      findings: [],
    });
  });

  it("python: pairs the tests (no finding)", async () => {
    await expectFindings({ name: "py moved", changes: [change("tests/test_aliases.py", PY_BEFORE, null), change("tests/flags/test_aliases.py", null, PY_AFTER)], findings: [] });
  });

  it("the moved test that loses its assertion is still reported (a deletion: nothing checks what it checked)", async () => {
    await expectFindings({
      name: "js moved, assertion dropped",
      changes: [
        change("test/aliases.js", JS_HEAD + jsTest("aliases - accepts one", JS_ONE) + jsTest("aliases - accepts many", JS_TWO), null),
        change("test/flags/aliases.js", null, JS_HEAD_MOVED + jsTest("accepts one", '\tmeow({ argv: ["--foo=baz"] });\n\tt.pass();\n') + jsTest("accepts many", JS_TWO)),
      ],
      findings: ['test_deletion/critical test/aliases.js "aliases - accepts one"'],
    });
  });

  it("a prefix-dropped title in a file of another name pairs nothing (deletion)", async () => {
    await expectFindings({
      name: "js other file",
      changes: [
        change("test/aliases.js", JS_HEAD + jsTest("aliases - accepts one", JS_ONE) + jsTest("aliases - accepts many", JS_TWO), null),
        change("test/flags/choices.js", null, JS_HEAD_MOVED + jsTest("accepts one", "\tt.true(meow({ argv: [] }).flags.ok);\n") + jsTest("accepts many", JS_TWO)),
      ],
      findings: ['test_deletion/critical test/aliases.js "aliases - accepts one"'],
    });
  });
});
