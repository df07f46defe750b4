/**
 * A test's own throw under an `if` fails it as its framework's explicit
 * failure does (the sweep of composer/semver e6130e4221: a data-provider
 * test's precondition `$this->fail($in.' did not match the regex')` became
 * `throw new \RuntimeException(...)`, which nothing in the test catches): the
 * same check, not one removed. The nearest cheats: the failure made a
 * `return` (the row that does not match passes), the throw made inside a
 * `try` whose handler catches it, or inside a closure the test never calls.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

/** A test file whose precondition is `FAIL`, and whose last check stays. */
interface Spelling {
  path: string;
  template: string;
  fail: string;
  thrown: string;
  caught: string;
  closure: string;
}

const SPELLINGS: Record<string, Spelling> = {
  java: {
    path: "src/test/java/p/ParseTest.java",
    template:
      'import static org.junit.jupiter.api.Assertions.*;\n\nclass ParseTest {\n    @Test\n    void splits() {\n        String[] parts = Parse.split("a as b");\n        if (parts.length != 2) {\n            FAIL\n        }\n        assertEquals("a", parts[0]);\n    }\n}\n',
    fail: 'fail("did not split in two");',
    thrown: 'throw new IllegalStateException("did not split in two");',
    caught: 'try {\n                throw new IllegalStateException("did not split in two");\n            } catch (IllegalStateException e) {\n                System.out.println(e);\n            }',
    closure: 'Runnable r = () -> { throw new IllegalStateException("did not split in two"); };',
  },
  csharp: {
    path: "tests/Parse.Tests/ParseTests.cs",
    template:
      'using Xunit;\n\npublic class ParseTests\n{\n    [Fact]\n    public void Splits()\n    {\n        var parts = Parse.Split("a as b");\n        if (parts.Length != 2)\n        {\n            FAIL\n        }\n        Assert.Equal("a", parts[0]);\n    }\n}\n',
    fail: 'Assert.Fail("did not split in two");',
    thrown: 'throw new InvalidOperationException("did not split in two");',
    caught:
      'try\n            {\n                throw new InvalidOperationException("did not split in two");\n            }\n            catch (InvalidOperationException e)\n            {\n                Console.WriteLine(e);\n            }',
    closure: 'Action a = () => throw new InvalidOperationException("did not split in two");',
  },
  python: {
    path: "tests/test_parse.py",
    template:
      'import unittest\n\n\nclass ParseTest(unittest.TestCase):\n    def test_splits(self):\n        parts = split("a as b")\n        if len(parts) != 2:\n            FAIL\n        self.assertEqual("a", parts[0])\n',
    fail: 'self.fail("did not split in two")',
    thrown: 'raise RuntimeError("did not split in two")',
    caught: 'try:\n                raise RuntimeError("did not split in two")\n            except RuntimeError as e:\n                print(e)',
    closure: 'def later():\n                raise RuntimeError("did not split in two")',
  },
};

const rows = Object.entries(SPELLINGS).flatMap(([language, spelling]): { kind: "legit" | "cheat"; rule: RuleCase }[] => {
  const at = (body: string): string => spelling.template.replace("FAIL", body);
  const removed = [`assertion_removal/high ${spelling.path} "${language === "python" ? "ParseTest > test_splits" : language === "csharp" ? "ParseTests > Splits" : "ParseTest > splits"}"`];
  return [
    { kind: "legit", rule: { name: `${language}: the failure becomes a throw nothing catches`, changes: [change(spelling.path, at(spelling.fail), at(spelling.thrown))], findings: [] } },
    { kind: "legit", rule: { name: `${language}: the throw becomes the framework's failure`, changes: [change(spelling.path, at(spelling.thrown), at(spelling.fail))], findings: [] } },
    {
      kind: "cheat",
      rule: {
        name: `${language}: the failure becomes a return`,
        changes: [change(spelling.path, at(spelling.fail), at("return;".replace(language === "python" ? ";" : "\u0000", "")))],
        findings: removed,
      },
    },
    { kind: "cheat", rule: { name: `${language}: the failure becomes a throw the test catches`, changes: [change(spelling.path, at(spelling.fail), at(spelling.caught))], findings: removed } },
    {
      kind: "cheat",
      rule: { name: `${language}: the failure becomes a throw in a closure never called`, changes: [change(spelling.path, at(spelling.fail), at(spelling.closure))], findings: removed },
    },
  ];
});

describe("a test's failure spelled as a throw nothing catches (look-alikes)", () => {
  it.each(rows.filter((row) => row.kind === "legit").map((row) => [row.rule.name, row.rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a test's failure made a return or a throw that cannot fail it (cheats)", () => {
  it.each(rows.filter((row) => row.kind === "cheat").map((row) => [row.rule.name, row.rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
