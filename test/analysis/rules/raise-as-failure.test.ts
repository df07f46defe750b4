/**
 * A raise of a new error where the guarded code did not throw (in a `try`'s
 * `else` clause, or as the last guarded statement when no handler catches
 * it) fails the test as `fail()` does, so the `try` is the `throws` check
 * of the guarded call (checks/error-checks.ts, the fail form; sweep of
 * pytest-dev/iniconfig 5f617e30ac: the helper `parse_a_error` went from
 * `pytest.raises(ParseError, parse, input)` to `try: parse(input) except
 * ParseError as e: return e else: raise ValueError(input)`, read as 4 high
 * removals). A raise that its own handler catches checks nothing; in the
 * guarded block only an assertion failure or a base class counts (a
 * handler may catch any other through a parent class), and a `try` inside
 * another is not read (the outer one may catch the raise).
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const pyHelperBefore = `import pytest\nfrom pkg.parse import parse, ParseError\n\n\ndef parse_a_error(text):\n    return pytest.raises(ParseError, parse, text)\n\n\ndef test_needs_token():\n    excinfo = parse_a_error(" Foo")\n    assert excinfo.value.lineno == 0\n`;
const pyHelperAfter = (orElse: string): string =>
  `from pkg.parse import parse, ParseError\n\n\ndef parse_a_error(text):\n    try:\n        parse(text)\n    except ParseError as e:\n        return e\n${orElse}\n\ndef test_needs_token():\n    err = parse_a_error(" Foo")\n    assert err.lineno == 0\n`;

const pyTest = (body: string): string => `import pytest\nfrom pkg.parse import parse\n\n\ndef test_rejects_empty():\n${body}`;
const javaTest = (body: string): string =>
  `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void rejectsEmpty() {\n${body}  }\n}\n`;
const csTest = (body: string): string => `using Xunit;\npublic class ParserTests {\n  [Fact]\n  public void RejectsEmpty() {\n${body}  }\n}\n`;
const phpTest = (body: string): string => `<?php\nuse PHPUnit\\Framework\\TestCase;\nclass ParserTest extends TestCase {\n  public function testRejectsEmpty(): void {\n${body}  }\n}\n`;
const rbTest = (body: string): string => `class ParserTest < Minitest::Test\n  def test_rejects_empty\n${body}  end\nend\n`;

const jsTest = (body: string): string => `import { parse } from "../src/parse.js";\n\ntest("rejects empty", () => {\n${body}});\n`;

const removed = (file: string, test: string): string => `assertion_removal/high ${file} "${test}"`;

const cases: RuleCase[] = [
  {
    name: "python: a helper's pytest.raises rewritten as try/except/else raise",
    changes: [change("testing/test_parse.py", pyHelperBefore, pyHelperAfter(`    else:\n        raise ValueError(text)\n`))],
    findings: [],
  },
  {
    name: "python: pytest.raises rewritten as try/except: pass/else: raise AssertionError",
    changes: [
      change(
        "tests/test_parse.py",
        pyTest(`    with pytest.raises(ValueError):\n        parse("")\n`),
        pyTest(`    try:\n        parse("")\n    except ValueError:\n        pass\n    else:\n        raise AssertionError("parse('') did not raise")\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "python: pytest.raises rewritten with the raise last in the guarded block",
    changes: [
      change(
        "tests/test_parse.py",
        pyTest(`    with pytest.raises(ValueError):\n        parse("")\n`),
        pyTest(`    try:\n        parse("")\n        raise AssertionError("parse('') did not raise")\n    except ValueError:\n        pass\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "java: assertThrows rewritten as try { call; throw new AssertionError } catch (E)",
    changes: [
      change(
        "src/test/java/ParserTest.java",
        javaTest(`    assertThrows(IllegalArgumentException.class, () -> Parser.parse(""));\n`),
        javaTest(`    try {\n      Parser.parse("");\n      throw new AssertionError("expected IllegalArgumentException");\n    } catch (IllegalArgumentException expected) {\n    }\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "c#: Assert.Throws rewritten as try { call; throw new XunitException } catch (E)",
    changes: [
      change(
        "tests/ParserTests.cs",
        csTest(`    Assert.Throws<ArgumentException>(() => Parser.Parse(""));\n`),
        csTest(`    try {\n      Parser.Parse("");\n      throw new XunitException("expected ArgumentException");\n    } catch (ArgumentException) {\n    }\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "php: expectException rewritten as try { call; throw new \\Exception } catch (E)",
    changes: [
      change(
        "tests/ParserTest.php",
        phpTest(`    $this->expectException(InvalidArgumentException::class);\n    Parser::parse('');\n`),
        phpTest(
          `    try {\n      Parser::parse('');\n      throw new \\Exception('expected InvalidArgumentException');\n    } catch (InvalidArgumentException $e) {\n      $this->addToAssertionCount(1);\n    }\n`,
        ),
      ),
    ],
    findings: [],
  },
  {
    name: "ruby: assert_raises rewritten as begin/rescue E/else raise",
    changes: [
      change(
        "test/parser_test.rb",
        rbTest(`    assert_raises(ArgumentError) { Parser.parse("") }\n`),
        rbTest(`    begin\n      Parser.parse("")\n    rescue ArgumentError\n      nil\n    else\n      raise "expected ArgumentError"\n    end\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "javascript: toThrow(E) rewritten as try { call; throw new Error } catch (e) { expect(e).toBeInstanceOf(E) }",
    changes: [
      change(
        "test/parse.test.js",
        jsTest(`  expect(() => parse("")).toThrow(TypeError);\n`),
        jsTest(`  try {\n    parse("");\n    throw new Error("parse('') should throw");\n  } catch (error) {\n    expect(error).toBeInstanceOf(TypeError);\n  }\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "cheat: javascript: the throw caught by a handler that checks nothing",
    changes: [
      change(
        "test/parse.test.js",
        jsTest(`  expect(() => parse("")).toThrow(TypeError);\n`),
        jsTest(`  try {\n    parse("");\n    throw new Error("parse('') should throw");\n  } catch (error) {\n    console.log(error);\n  }\n`),
      ),
    ],
    findings: [removed("test/parse.test.js", "rejects empty")],
  },
  {
    name: "cheat: python: the raise caught through its parent class (KeyError under except LookupError)",
    changes: [
      change(
        "tests/test_parse.py",
        pyTest(`    with pytest.raises(LookupError):\n        parse("")\n`),
        pyTest(`    try:\n        parse("")\n        raise KeyError("parse('') did not raise")\n    except LookupError:\n        pass\n`),
      ),
    ],
    findings: [removed("tests/test_parse.py", "test_rejects_empty")],
  },
  {
    name: "cheat: java: the throw caught through its parent class (NumberFormatException under IllegalArgumentException)",
    changes: [
      change(
        "src/test/java/ParserTest.java",
        javaTest(`    assertThrows(IllegalArgumentException.class, () -> Parser.parse(""));\n`),
        javaTest(`    try {\n      Parser.parse("");\n      throw new NumberFormatException("expected");\n    } catch (IllegalArgumentException expected) {\n    }\n`),
      ),
    ],
    findings: [removed("src/test/java/ParserTest.java", "ParserTest > rejectsEmpty")],
  },
  {
    name: "cheat: python: an enclosing try swallows the else clause's raise",
    changes: [
      change(
        "tests/test_parse.py",
        pyTest(`    with pytest.raises(KeyError):\n        parse("")\n`),
        pyTest(
          `    try:\n        try:\n            parse("")\n        except KeyError:\n            return\n        else:\n            raise RuntimeError("did not raise")\n    except RuntimeError:\n        pass\n`,
        ),
      ),
    ],
    findings: [removed("tests/test_parse.py", "test_rejects_empty")],
  },
  {
    name: "cheat: javascript: the handler asserts what the thrown error satisfies too",
    changes: [
      change(
        "test/parse.test.js",
        jsTest(`  expect(() => parse("")).toThrow();\n`),
        jsTest(`  try {\n    parse("");\n    throw new Error("should have thrown");\n  } catch (error) {\n    expect(error).toBeDefined();\n  }\n`),
      ),
    ],
    findings: [`assertion_weakening/high test/parse.test.js "rejects empty"`],
  },
  {
    name: "cheat: python: the helper's raises check dropped (no raise when nothing was raised)",
    changes: [change("testing/test_parse.py", pyHelperBefore, pyHelperAfter(`    return None\n`))],
    findings: [removed("testing/test_parse.py", "test_needs_token")],
  },
  {
    name: "cheat: python: the raise caught by its own handler",
    changes: [
      change(
        "tests/test_parse.py",
        pyTest(`    with pytest.raises(ValueError):\n        parse("")\n`),
        pyTest(`    try:\n        parse("")\n        raise ValueError("parse('') did not raise")\n    except ValueError:\n        pass\n`),
      ),
    ],
    findings: [removed("tests/test_parse.py", "test_rejects_empty")],
  },
  {
    name: "cheat: java: the throw caught by a catch (Exception) around it",
    changes: [
      change(
        "src/test/java/ParserTest.java",
        javaTest(`    assertThrows(IllegalArgumentException.class, () -> Parser.parse(""));\n`),
        javaTest(`    try {\n      Parser.parse("");\n      throw new IllegalStateException("expected IllegalArgumentException");\n    } catch (Exception expected) {\n    }\n`),
      ),
    ],
    findings: [removed("src/test/java/ParserTest.java", "ParserTest > rejectsEmpty")],
  },
  {
    name: "cheat: ruby: a bare rescue catches the raise of the guarded block",
    changes: [
      change(
        "test/parser_test.rb",
        rbTest(`    assert_raises(ArgumentError) { Parser.parse("") }\n`),
        rbTest(`    begin\n      Parser.parse("")\n      raise "expected ArgumentError"\n    rescue\n      nil\n    end\n`),
      ),
    ],
    findings: [removed("test/parser_test.rb", "ParserTest > test_rejects_empty")],
  },
];

describe("a raise where the guarded code did not throw is the failure of a throws check", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
