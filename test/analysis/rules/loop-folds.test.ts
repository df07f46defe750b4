/**
 * Assertions folded into a loop over a literal collection (the sweep of
 * composer/semver 4b9538fd51: two `assertTrue($constraint->matches($mock))`
 * of two mocks became one inside `foreach (array('A', 'B') as $class)`): one
 * check in such a loop is as many checks as the collection has values. The
 * nearest cheats: the loop goes over fewer values than the checks it
 * replaced, over a collection that is not literal (its size unknown), or
 * checks under a condition the removed checks did not have.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

interface Spelling {
  path: string;
  test: string;
  /** The test file with `BODY` for the test's statements. */
  template: string;
  /** Two checks of two values. */
  two: string;
  /** One check in a loop over a literal collection of `VALUES`. */
  loop: (values: string) => string;
  /** One check in a loop over a collection a call returns. */
  computed: string;
  /** One check under an `if` in the loop. */
  gated: string;
  values: [string, string];
}

const SPELLINGS: Record<string, Spelling> = {
  java: {
    path: "src/test/java/p/ParseTest.java",
    test: "ParseTest > parsesEach",
    template: "import static org.junit.jupiter.api.Assertions.*;\n\nclass ParseTest {\n    @Test\n    void parsesEach() {\n        BODY\n    }\n}\n",
    two: 'assertTrue(Parse.ok(Parse.read("a")));\n        assertTrue(Parse.ok(Parse.read("b")));',
    loop: (values) => `for (String s : List.of(${values})) {\n            assertTrue(Parse.ok(Parse.read(s)));\n        }`,
    computed: "for (String s : Parse.samples()) {\n            assertTrue(Parse.ok(Parse.read(s)));\n        }",
    gated: 'for (String s : List.of("a", "b")) {\n            if (s.length() > 3) {\n                assertTrue(Parse.ok(Parse.read(s)));\n            }\n        }',
    values: ['"a"', '"b"'],
  },
  csharp: {
    path: "tests/P.Tests/ParseTests.cs",
    test: "ParseTests > ParsesEach",
    template: "using Xunit;\n\npublic class ParseTests\n{\n    [Fact]\n    public void ParsesEach()\n    {\n        BODY\n    }\n}\n",
    two: 'Assert.True(Parse.Ok(Parse.Read("a")));\n        Assert.True(Parse.Ok(Parse.Read("b")));',
    loop: (values) => `var inputs = new[] { ${values} };\n        foreach (var s in inputs)\n        {\n            Assert.True(Parse.Ok(Parse.Read(s)));\n        }`,
    computed: "foreach (var s in Parse.Samples())\n        {\n            Assert.True(Parse.Ok(Parse.Read(s)));\n        }",
    gated: 'foreach (var s in new[] { "a", "b" })\n        {\n            if (s.Length > 3)\n            {\n                Assert.True(Parse.Ok(Parse.Read(s)));\n            }\n        }',
    values: ['"a"', '"b"'],
  },
  python: {
    path: "tests/test_parse.py",
    test: "ParseTest > test_parses_each",
    template: "import unittest\n\n\nclass ParseTest(unittest.TestCase):\n    def test_parses_each(self):\n        BODY\n",
    two: 'self.assertTrue(ok(read("a")))\n        self.assertTrue(ok(read("b")))',
    loop: (values) => `for s in [${values}]:\n            self.assertTrue(ok(read(s)))`,
    computed: "for s in samples():\n            self.assertTrue(ok(read(s)))",
    gated: 'for s in ["a", "b"]:\n            if len(s) > 3:\n                self.assertTrue(ok(read(s)))',
    values: ['"a"', '"b"'],
  },
  rust: {
    path: "tests/parse.rs",
    test: "parses_each",
    template: "use parse::*;\n\n#[test]\nfn parses_each() {\n    BODY\n}\n",
    two: 'assert!(ok(read("a")));\n    assert!(ok(read("b")));',
    loop: (values) => `for s in [${values}] {\n        assert!(ok(read(s)));\n    }`,
    computed: "for s in samples() {\n        assert!(ok(read(s)));\n    }",
    gated: 'for s in ["a", "b"] {\n        if s.len() > 3 {\n            assert!(ok(read(s)));\n        }\n    }',
    values: ['"a"', '"b"'],
  },
};

const rows = Object.entries(SPELLINGS).flatMap(([language, spelling]): { kind: "legit" | "cheat"; rule: RuleCase }[] => {
  const at = (body: string): string => spelling.template.replace("BODY", body);
  const removed = [`assertion_removal/high ${spelling.path} "${spelling.test}"`];
  const folded = (body: string, findings: string[], name: string): RuleCase => ({ name: `${language}: ${name}`, changes: [change(spelling.path, at(spelling.two), at(body))], findings });
  // Rust reads a loop over a literal array as the test's table of rows (tree-sitter.ts loopTableRows), which judges
  // the rows by other rules: a loop over fewer values, or under a condition, is not flagged there yet (left as found).
  const tableRead = language === "rust";
  return [
    { kind: "legit", rule: folded(spelling.loop(spelling.values.join(", ")), [], "two checks folded into a loop over the two values") },
    ...(tableRead ? [] : [{ kind: "cheat" as const, rule: folded(spelling.loop(spelling.values[1]), removed, "two checks folded into a loop over one of the values") }]),
    { kind: "cheat", rule: folded(spelling.computed, removed, "two checks folded into a loop over a computed collection") },
    // The check kept under the condition is a weakening too (rules/assertions.ts gainedConditions): it no longer runs otherwise.
    ...(tableRead
      ? []
      : [{ kind: "cheat" as const, rule: folded(spelling.gated, [...removed, `assertion_weakening/high ${spelling.path} "${spelling.test}"`], "two checks folded into a loop, under a condition") }]),
  ];
});

describe("checks folded into a loop over a literal collection (look-alikes)", () => {
  it.each(rows.filter((row) => row.kind === "legit").map((row) => [row.rule.name, row.rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("checks folded into a loop that runs them fewer times, or maybe never (cheats)", () => {
  it.each(rows.filter((row) => row.kind === "cheat").map((row) => [row.rule.name, row.rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
