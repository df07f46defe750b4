/**
 * A "does not throw" check made a direct call of the same code: an
 * uncaught error fails a test in every framework, so `t.notThrows(() =>
 * parse("x"))` and a plain `parse("x")` statement at the test's top level
 * check one thing (globby c2eb272520: `t.notThrowsAsync(async () => {…})`
 * → `await isGitIgnored({cwd, suppressErrors: true})`). The call must be
 * the same code with the same arguments, run unconditionally, outside any
 * handler and outside a callback: a call moved under a `try`, a `rescue`,
 * an `if`, into a function never called, or given another input checks
 * nothing of the kind, and the removal stays a finding.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const lookAlikes: RuleCase[] = [
  {
    name: "ava: t.notThrows(() => parse(x)) -> parse(x)",
    changes: [
      change(
        "test/parse.js",
        `import test from "ava";\nimport {parse} from "../index.js";\ntest("parses quietly", t => {\n  t.notThrows(() => parse("a,b"));\n  t.is(parse("a").length, 1);\n});\n`,
        `import test from "ava";\nimport {parse} from "../index.js";\ntest("parses quietly", t => {\n  parse("a,b");\n  t.is(parse("a").length, 1);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "ava: await t.notThrowsAsync(async () => {…}) -> its statements awaited directly",
    changes: [
      change(
        "test/load.js",
        `import test from "ava";\nimport {load} from "../index.js";\ntest("loads", async t => {\n  await t.notThrowsAsync(async () => {\n    const value = await load({cwd: "x", quiet: true});\n    t.is(typeof value, "object");\n  });\n});\n`,
        `import test from "ava";\nimport {load} from "../index.js";\ntest("loads", async t => {\n  const value = await load({cwd: "x", quiet: true});\n  t.is(typeof value, "object");\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "jest: expect(() => f()).not.toThrow() -> f()",
    changes: [
      change(
        "test/parse.test.ts",
        `import {parse} from "../src/parse";\nit("parses quietly", () => {\n  expect(() => parse("a,b")).not.toThrow();\n  expect(parse("a")).toEqual(["a"]);\n});\n`,
        `import {parse} from "../src/parse";\nit("parses quietly", () => {\n  parse("a,b");\n  expect(parse("a")).toEqual(["a"]);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "node:assert: assert.doesNotThrow(() => f()) -> const r = f()",
    changes: [
      change(
        "test/parse.test.js",
        `import assert from "node:assert/strict";\nimport test from "node:test";\nimport {parse} from "../index.js";\ntest("parses quietly", () => {\n  assert.doesNotThrow(() => parse("a,b"));\n  assert.equal(parse("a").length, 1);\n});\n`,
        `import assert from "node:assert/strict";\nimport test from "node:test";\nimport {parse} from "../index.js";\ntest("parses quietly", () => {\n  const rows = parse("a,b");\n  assert.equal(parse("a").length, 1);\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "junit 5: assertDoesNotThrow(() -> p.parse(x)) -> p.parse(x)",
    changes: [
      change(
        "src/test/java/ParserTest.java",
        `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parsesQuietly() {\n    Parser p = new Parser();\n    assertDoesNotThrow(() -> p.parse("a,b"));\n    assertEquals(1, p.parse("a").size());\n  }\n}\n`,
        `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parsesQuietly() {\n    Parser p = new Parser();\n    p.parse("a,b");\n    assertEquals(1, p.parse("a").size());\n  }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "nunit: Assert.DoesNotThrow(() => Parser.Parse(x)) -> Parser.Parse(x)",
    changes: [
      change(
        "tests/ParserTests.cs",
        `using NUnit.Framework;\npublic class ParserTests {\n  [Test]\n  public void ParsesQuietly() {\n    Assert.DoesNotThrow(() => Parser.Parse("a,b"));\n    Assert.AreEqual(1, Parser.Parse("a").Count);\n  }\n}\n`,
        `using NUnit.Framework;\npublic class ParserTests {\n  [Test]\n  public void ParsesQuietly() {\n    Parser.Parse("a,b");\n    Assert.AreEqual(1, Parser.Parse("a").Count);\n  }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "rspec: expect { f }.not_to raise_error -> f",
    changes: [
      change(
        "spec/parser_spec.rb",
        `RSpec.describe Parser do\n  it "parses quietly" do\n    expect { Parser.parse("a,b") }.not_to raise_error\n    expect(Parser.parse("a").size).to eq(1)\n  end\nend\n`,
        `RSpec.describe Parser do\n  it "parses quietly" do\n    Parser.parse("a,b")\n    expect(Parser.parse("a").size).to eq(1)\n  end\nend\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "minitest: assert_nothing_raised { f } -> f",
    changes: [
      change(
        "test/parser_test.rb",
        `class ParserTest < Minitest::Test\n  def test_parses_quietly\n    assert_nothing_raised { Parser.parse("a,b") }\n    assert_equal 1, Parser.parse("a").size\n  end\nend\n`,
        `class ParserTest < Minitest::Test\n  def test_parses_quietly\n    Parser.parse("a,b")\n    assert_equal 1, Parser.parse("a").size\n  end\nend\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "testify: assert.NotPanics(t, func() { f() }) -> f()",
    changes: [
      change(
        "parse_test.go",
        `package parse\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestParseQuietly(t *testing.T) {\n\tassert.NotPanics(t, func() { Parse("a,b") })\n\tassert.Equal(t, 1, len(Parse("a")))\n}\n`,
        `package parse\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestParseQuietly(t *testing.T) {\n\tParse("a,b")\n\tassert.Equal(t, 1, len(Parse("a")))\n}\n`,
      ),
    ],
    findings: [],
  },
];

const jsBefore = `import test from "ava";\nimport {parse} from "../index.js";\ntest("parses quietly", t => {\n  t.notThrows(() => parse("a,b"));\n  t.is(parse("a").length, 1);\n});\n`;
const jsAfter = (line: string): string => `import test from "ava";\nimport {parse} from "../index.js";\ntest("parses quietly", t => {\n${line}\n  t.is(parse("a").length, 1);\n});\n`;
const removed = [`assertion_removal/high test/parse.js "parses quietly"`];

const cheats: RuleCase[] = [
  { name: "ava: the not-throws check and its call both removed", changes: [change("test/parse.js", jsBefore, jsAfter(""))], findings: removed },
  { name: "ava: the call kept under a try that swallows", changes: [change("test/parse.js", jsBefore, jsAfter(`  try { parse("a,b"); } catch {}`))], findings: removed },
  { name: "ava: the call given another input", changes: [change("test/parse.js", jsBefore, jsAfter(`  parse("a");`))], findings: removed },
  { name: "ava: the call moved into a function nobody calls", changes: [change("test/parse.js", jsBefore, jsAfter(`  const later = () => parse("a,b");`))], findings: removed },
  { name: "ava: the call run only under a condition", changes: [change("test/parse.js", jsBefore, jsAfter(`  if (process.env.FULL) parse("a,b");`))], findings: removed },
  {
    name: "ava: the call's promise left floating (a rejection fails nothing)",
    changes: [
      change(
        "test/parse.js",
        `import test from "ava";\nimport {load} from "../index.js";\ntest("loads", async t => {\n  await t.notThrowsAsync(load("x"));\n  t.pass();\n});\n`,
        `import test from "ava";\nimport {load} from "../index.js";\ntest("loads", async t => {\n  load("x").catch(() => {});\n  t.pass();\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/parse.js "loads"`],
  },
  {
    name: "junit 5: the call kept inside a catch-all",
    changes: [
      change(
        "src/test/java/ParserTest.java",
        `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parsesQuietly() {\n    Parser p = new Parser();\n    assertDoesNotThrow(() -> p.parse("a,b"));\n    assertEquals(1, p.parse("a").size());\n  }\n}\n`,
        `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parsesQuietly() {\n    Parser p = new Parser();\n    try { p.parse("a,b"); } catch (Exception e) { }\n    assertEquals(1, p.parse("a").size());\n  }\n}\n`,
      ),
    ],
    findings: [`assertion_removal/high src/test/java/ParserTest.java "ParserTest > parsesQuietly"`],
  },
  {
    name: "rspec: the call kept under a rescue",
    changes: [
      change(
        "spec/parser_spec.rb",
        `RSpec.describe Parser do\n  it "parses quietly" do\n    expect { Parser.parse("a,b") }.not_to raise_error\n    expect(Parser.parse("a").size).to eq(1)\n  end\nend\n`,
        `RSpec.describe Parser do\n  it "parses quietly" do\n    Parser.parse("a,b") rescue nil\n    expect(Parser.parse("a").size).to eq(1)\n  end\nend\n`,
      ),
    ],
    findings: [`assertion_removal/high spec/parser_spec.rb "Parser > parses quietly"`],
  },
];

const goBefore = `package parse\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestParseQuietly(t *testing.T) {\n\tassert.NotPanics(t, func() { Parse("a,b") })\n\tassert.Equal(t, 1, len(Parse("a")))\n}\n`;
const rbBefore = `class ParserTest < Minitest::Test\n  def test_parses_quietly\n    assert_nothing_raised { Parser.parse("a,b") }\n    assert_equal 1, Parser.parse("a").size\n  end\nend\n`;
const csBefore = `using NUnit.Framework;\npublic class ParserTests {\n  [Test]\n  public void ParsesQuietly() {\n    Assert.DoesNotThrow(() => Parser.Parse("a,b"));\n    Assert.AreEqual(1, Parser.Parse("a").Count);\n  }\n}\n`;

cheats.push(
  {
    name: "testify: the call kept, a deferred recover swallows its panic",
    changes: [change("parse_test.go", goBefore, goBefore.replace(`\tassert.NotPanics(t, func() { Parse("a,b") })\n`, `\tdefer func() { _ = recover() }()\n\tParse("a,b")\n`))],
    findings: [`assertion_removal/high parse_test.go "TestParseQuietly"`],
  },
  {
    name: "testify: the call run in a goroutine nobody waits for",
    changes: [change("parse_test.go", goBefore, goBefore.replace(`\tassert.NotPanics(t, func() { Parse("a,b") })\n`, `\tgo Parse("a,b")\n`))],
    findings: [`assertion_removal/high parse_test.go "TestParseQuietly"`],
  },
  {
    name: "minitest: the call kept in a method that rescues",
    changes: [
      change(
        "test/parser_test.rb",
        rbBefore,
        rbBefore.replace(
          `    assert_nothing_raised { Parser.parse("a,b") }\n    assert_equal 1, Parser.parse("a").size\n`,
          `    Parser.parse("a,b")\n    assert_equal 1, Parser.parse("a").size\n  rescue StandardError\n    nil\n`,
        ),
      ),
    ],
    findings: [`assertion_removal/high test/parser_test.rb "ParserTest > test_parses_quietly"`],
  },
  {
    name: "minitest: the call run only under a modifier",
    changes: [change("test/parser_test.rb", rbBefore, rbBefore.replace(`    assert_nothing_raised { Parser.parse("a,b") }\n`, `    Parser.parse("a,b") if ENV["FULL"]\n`))],
    findings: [`assertion_removal/high test/parser_test.rb "ParserTest > test_parses_quietly"`],
  },
  {
    name: "nunit: the call kept in a lambda nobody invokes",
    changes: [change("tests/ParserTests.cs", csBefore, csBefore.replace(`    Assert.DoesNotThrow(() => Parser.Parse("a,b"));\n`, `    Action later = () => Parser.Parse("a,b");\n`))],
    findings: [`assertion_removal/high tests/ParserTests.cs "ParserTests > ParsesQuietly"`],
  },
  {
    name: "nunit: the call run after the test returned",
    changes: [
      change(
        "tests/ParserTests.cs",
        csBefore,
        csBefore.replace(
          `    Assert.DoesNotThrow(() => Parser.Parse("a,b"));\n    Assert.AreEqual(1, Parser.Parse("a").Count);\n`,
          `    Assert.AreEqual(1, Parser.Parse("a").Count);\n    return;\n    Parser.Parse("a,b");\n`,
        ),
      ),
    ],
    findings: [`assertion_removal/high tests/ParserTests.cs "ParserTests > ParsesQuietly"`],
  },
);

lookAlikes.push({
  name: "ava: a commented not-throws block made direct (globby c2eb272520: a comment must not swallow the statement after it)",
  changes: [
    change(
      "test/load.js",
      `import test from "ava";\nimport {load} from "../index.js";\ntest("loads", async t => {\n  await t.notThrowsAsync(async () => {\n    const value = await load({cwd: "x", quiet: true});\n    // Should be able to read it /* twice */\n    t.is(typeof value, "object");\n  });\n});\n`,
      `import test from "ava";\nimport {load} from "../index.js";\ntest("loads", async t => {\n  // Should be able to read it\n  const read = await load({cwd: "x", quiet: true});\n  t.is(typeof read, "object");\n});\n`,
    ),
  ],
  findings: [],
});

lookAlikes.push({
  name: "junit 5: assertDoesNotThrow(() -> p.parse(x)) -> var rows = p.parse(x)",
  changes: [
    change(
      "src/test/java/ParserTest.java",
      `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parsesQuietly() {\n    Parser p = new Parser();\n    assertDoesNotThrow(() -> p.parse("a,b"));\n  }\n}\n`,
      `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parsesQuietly() {\n    Parser p = new Parser();\n    var rows = p.parse("a,b");\n    assertEquals(2, rows.size());\n  }\n}\n`,
    ),
  ],
  findings: [],
});

describe("a not-throws check made a direct call", () => {
  it.each(lookAlikes)("look-alike: $name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(cheats)("cheat: $name", async (rule) => {
    await expectFindings(rule);
  });
});
