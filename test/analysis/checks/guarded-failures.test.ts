/**
 * An explicit failure under a condition checks that the condition does not
 * hold (checks/normalise.ts guardedFailure): `if (!ArrayBuffer.isView(body))
 * { t.fail("…"); return; }` is `t.true(ArrayBuffer.isView(body))`, and
 * `if (x !== 1) assert.fail()` is `assert.strictEqual(x, 1)` (the guard's
 * relation lifted). Go writes every check this way; the other languages'
 * explicit failures (`fail()`, `Assert.Fail()`, `self.fail()`,
 * `pytest.fail()`, `flunk`, `$this->fail()`, `assert False`) under an
 * `if` read the same. So rewriting one form into the other
 * (sindresorhus/got 4d7e628b1c) is no weakening, while a guard made
 * weaker, or a failure left without its guard's check, still is.
 */
import { describe, expect, it } from "vitest";
import { toCheck, type Check } from "../../../src/analysis/checks/index.js";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const shape = (check: Check): string =>
  `${check.isNegated ? "not " : ""}${check.relation}(${[check.subject, check.expected].filter((part) => part !== undefined && part !== "").join(", ")})/${check.strength}${check.conditions ? ` if ${check.conditions.join(" && ")}` : ""}`;

async function checksIn(path: string, source: string): Promise<string[]> {
  const facts = await extractFacts(path, source);
  return (facts.tests[0]?.assertionsDetail ?? []).map(toCheck).map(shape);
}

const ava = (body: string): string => `import test from "ava";\nimport {get} from "../src/get.js";\n\ntest("gets", async t => {\n  const body = await get();\n${body}\n});\n`;
const py = (body: string): string => `import pytest\nfrom lib import get\n\n\ndef test_gets():\n    body = get()\n${body}\n`;
const java = (body: string): string =>
  `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass GetTest {\n  @Test void gets() {\n    Object body = Client.get();\n${body}\n  }\n}\n`;
const cs = (body: string): string => `using Xunit;\npublic class GetTests {\n  [Fact]\n  public void Gets() {\n    var body = Client.Get();\n${body}\n  }\n}\n`;
const rb = (body: string): string => `require "minitest/autorun"\nclass GetTest < Minitest::Test\n  def test_gets\n    body = Client.get\n${body}\n  end\nend\n`;
const php = (body: string): string =>
  `<?php\nuse PHPUnit\\Framework\\TestCase;\nfinal class GetTest extends TestCase {\n  public function testGets(): void {\n    $body = Client::get();\n${body}\n  }\n}\n`;

describe("an explicit failure under a condition is a check of the condition's negation", () => {
  it.each([
    ["ava t.fail under if (!x)", "test/get.js", ava('  if (!ArrayBuffer.isView(body)) {\n    t.fail("not a view");\n    return;\n  }'), ["truthy(ArrayBuffer.isView(body))/1"]],
    [
      "node:assert fail under a comparison, lifted",
      "test/get.js",
      ava('  if (body.length !== 2) {\n    assert.fail("bad length");\n  }').replace('import test from "ava";', 'import test from "ava";\nimport assert from "node:assert";'),
      ["length(body, 2)/3"],
    ],
    ["pytest.fail under if not", "tests/test_get.py", py('    if not isinstance(body, bytes):\n        pytest.fail("not bytes")'), ["type(body, bytes)/2"]],
    ["JUnit fail() under if", "src/test/java/GetTest.java", java('    if (body == null) {\n      fail("no body");\n    }'), ["not nullish(body)/1"]],
    ["xUnit Assert.Fail under if", "tests/GetTests.cs", cs('    if (body == null) Assert.Fail("no body");'), ["not nullish(body)/1"]],
    ["minitest flunk unless", "test/get_test.rb", rb('    flunk "empty" unless body.size == 2'), ["length(body, 2)/3"]],
    ["PHPUnit fail under if", "tests/GetTest.php", php("    if ($body !== 'ok') {\n      $this->fail('not ok');\n    }"), ['equal($body, "ok")/3']],
    ["an unguarded failure stays a failure", "test/get.js", ava('  t.fail("never");'), ['other("never")/3']],
    [
      "an outer condition stays the check's condition",
      "test/get.js",
      ava('  if (process.platform === "win32") {\n    if (!body) {\n      t.fail("none");\n    }\n  }'),
      ['truthy(body)/1 if process.platform==="win32"'],
    ],
  ])("%s", async (_name, path, source, expected) => expect(await checksIn(path, source)).toEqual(expected));
});

const avaFile = (body: string): string => `import test from "ava";\nimport {get} from "../src/get.js";\n\ntest("returns a view", async t => {\n  const body = await get();\n${body}\n});\n`;
const product = (kind: string): string => `export async function get() {\n  return new ${kind}(2);\n}\n`;
const cases: RuleCase[] = [
  {
    name: "js: a guarded t.fail rewritten as t.true of its condition (got 4d7e628b1c)",
    changes: [
      change("src/get.js", product("Uint8Array"), product("Uint8Array")),
      change(
        "test/get.js",
        avaFile('  if (!ArrayBuffer.isView(body)) {\n    t.fail("not a view");\n    return;\n  }\n  t.is(body.length, 2);'),
        avaFile("  t.true(ArrayBuffer.isView(body));\n  t.is(body.length, 2);"),
      ),
    ],
    findings: [],
  },
  {
    name: "js: t.true rewritten as a guarded t.fail",
    changes: [
      change(
        "test/get.js",
        avaFile("  t.true(ArrayBuffer.isView(body));\n  t.is(body.length, 2);"),
        avaFile('  if (!ArrayBuffer.isView(body)) {\n    t.fail("not a view");\n  }\n  t.is(body.length, 2);'),
      ),
    ],
    findings: [],
  },
  {
    name: "cheat: js: an exact check rewritten as a guarded failure of a weaker condition",
    changes: [change("test/get.js", avaFile("  t.is(body.length, 2);"), avaFile('  if (body.length === 0) {\n    t.fail("empty");\n  }'))],
    findings: ['assertion_weakening/high test/get.js "returns a view"'],
  },
  {
    name: "cheat: python: a guarded pytest.fail dropped",
    changes: [change("tests/test_get.py", py('    if not isinstance(body, bytes):\n        pytest.fail("not bytes")\n    assert len(body) == 2'), py("    assert len(body) == 2"))],
    findings: ['assertion_removal/high tests/test_get.py "test_gets"'],
  },
];

describe("guarded failures in changes", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});
