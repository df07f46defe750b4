/**
 * Issue 9's look-alikes that rewrite a check into an equivalent or stronger
 * form (the rewrites branch): a Go failure guard of a disjunction read as one
 * check per disjunct; a call with type arguments (`InvokePrivate<bool>(…)`,
 * `ReflectionTestUtils.<Boolean>invokeMethod(…)`, `parse::<u8>(…)`) read as
 * a call, not as a `<` comparison; a private member reached by Ruby's `send`
 * as the direct call; a type-level assertion's type argument as its expected
 * value; a no-warning check, however Python spells it; an exception check
 * written with `try` (a flag set in the handler, a failure ending the
 * guarded block) as the `throws` check it is; and the cheats of the same
 * shapes, which must still be findings.
 */
import { describe, expect, it } from "vitest";
import { coverage, toCheck, type Check } from "../../../src/analysis/checks/index.js";
import { extractFacts } from "../../../src/analysis/index.js";
import { splitComparison } from "../../../src/analysis/checks/normalise.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const goFile = (body: string): string => `package calc\n\nimport "testing"\n\n${body}`;

describe("rewritten checks: type arguments of a call are no comparison", () => {
  it.each([
    ["C# generic method", `InvokePrivate<bool>(compound,"TryParseOptional",[typeof(string)],empty)`],
    ["Java explicit type witness", `ReflectionTestUtils.<Boolean>invokeMethod(converter,"tryParseOptional","")`],
    ["Rust turbofish", `parse::<u8>("7").is_ok()`],
    ["nested type arguments", `Read<Dictionary<string,List<int>>>(path).Any()`],
    ["TypeScript generic call", `isShape<Circle>(value)`],
  ])("%s: %s", (_name, text) => {
    expect(splitComparison(text)).toBeNull();
    expect(toCheck({ line: 1, matcher: "assertTrue", strength: 1, tautology: false, actual: text })).toMatchObject({ relation: "truthy", strength: 1 });
  });

  it.each([
    ["a comparison of a generic call's result", `Count<int>(xs)>2`, ["Count<int>(xs)", ">", "2"]],
    ["an order between names", `a<b`, ["a", "<", "b"]],
    ["two orders", `a<b&&c>d`, ["a", "<", "b&&c>d"]],
    ["an order against a call", `n<max(a,b)`, ["n", "<", "max(a,b)"]],
  ])("%s stays a comparison", (_name, text, split) => {
    expect(splitComparison(text)).toEqual(split);
  });
});

describe("rewritten checks: a private member reached by reflection", () => {
  it.each([
    ["Ruby send", 'compound.send(:parse_optional,"and five")', 'compound.parse_optional("and five")'],
    ["Ruby __send__ without arguments", "compound.__send__(:reset!)", "compound.reset!()"],
    ["Ruby public_send", 'Compound.new.public_send(:convert,"x",strict:true)', 'Compound.new.convert("x",strict:true)'],
  ])("%s is the direct call", (_name, text, direct) => {
    expect(toCheck({ line: 1, matcher: "assert_equal", strength: 3, tautology: false, actual: text, expected: "5" }).subject).toBe(direct);
  });

  it("AssertJ hasValue of an Optional is an equality", () => {
    expect(toCheck({ line: 1, matcher: "assertThat.hasValue", strength: 3, tautology: false, actual: "f(x)", expected: "1000" })).toMatchObject({ relation: "equal", strength: 3 });
  });
});

/** The checks of the first test of a file, as extracted from source. */
async function checksIn(path: string, source: string): Promise<Check[]> {
  const facts = await extractFacts(path, source);
  return (facts.tests[0]?.assertionsDetail ?? []).map(toCheck);
}

const shape = (check: Check): string =>
  `${check.isNegated ? "not " : ""}${check.relation}(${[check.subject, check.expected].filter((part) => part !== undefined && part !== "").join(", ")})/${check.strength}`;

describe("rewritten checks: a type-level assertion's type argument is its expected value", () => {
  const typeTest = (statement: string): string => `import { assertType, expectTypeOf, test } from "vitest";\ntest("types", () => {\n  ${statement}\n});\n`;
  it.each([
    ["vitest assertType<T>(literal)", `assertType<Capital<"foo">>("Foo");`, `type("Foo", Capital<"foo">)/2`],
    ["vitest assertType<T>(call)", `assertType<string>(slug("a b"));`, `type(slug("a b"), string)/2`],
    ["expectTypeOf(literal).toEqualTypeOf<T>()", `expectTypeOf("Foo" as const).toEqualTypeOf<Capital<"foo">>();`, `other("Foo", Capital<"foo">)/3`],
    ["expectTypeOf<A>().toEqualTypeOf<B>()", `expectTypeOf<Capital<string>>().toEqualTypeOf<Capitalize<string>>();`, `other(Capital<string>, Capitalize<string>)/3`],
    ["expectTypeOf(literal).toMatchTypeOf<T>()", `expectTypeOf("Foo" as const).toMatchTypeOf<Capital<"foo">>();`, `type("Foo", Capital<"foo">)/2`],
    ["expectTypeOf(x).toEqualTypeOf(value)", `expectTypeOf(slug("a")).toEqualTypeOf("a");`, `other(slug("a"), "a")/3`],
  ])("%s", async (_name, statement, expected) => {
    expect((await checksIn("test/types.test-d.ts", typeTest(statement))).map(shape)).toEqual([expected]);
  });

  it.each([
    ["assertType without a type argument (a value against its own type)", `assertType("Foo");`],
    ["assertType<any>", `assertType<any>("Foo");`],
    ["assertType<unknown>", `assertType<unknown>(slug("a"));`],
    ["toMatchTypeOf<unknown>", `expectTypeOf("Foo" as const).toMatchTypeOf<unknown>();`],
    ["a type compared with itself", `expectTypeOf<Capital<string>>().toEqualTypeOf<Capital<string>>();`],
  ])("%s is a tautology", async (_name, statement) => {
    expect((await checksIn("test/types.test-d.ts", typeTest(statement))).map((check) => check.isTautology)).toEqual([true]);
  });
});

describe("rewritten checks: a no-warning check, however Python spells it", () => {
  const testOf = (body: string, signature = "def test_quiet():"): string => `import pytest\nimport warnings\n\n${signature}\n${body}`;
  it.each([
    ["pytest.warns(None) and len(recorder) == 0", `    with pytest.warns(None) as recorder:\n        lex("x")\n    assert len(recorder) == 0\n`, [`not warns(lex("x"))/1`]],
    [
      "catch_warnings(record=True) and assert not caught",
      `    with warnings.catch_warnings(record=True) as caught:\n        warnings.simplefilter("always")\n        lex("x")\n        lex("y")\n        assert not caught\n`,
      [`not warns(lex("x"))/1`, `not warns(lex("y"))/1`],
    ],
    ["catch_warnings() and simplefilter('error')", `    with warnings.catch_warnings():\n        warnings.simplefilter("error")\n        lex("x")\n`, [`not warns(lex("x"))/1`]],
    [
      "filterwarnings('error', category=...)",
      `    with warnings.catch_warnings():\n        warnings.filterwarnings("error", category=DeprecationWarning)\n        lex("x")\n`,
      [`not warns(lex("x"), DeprecationWarning|)/1`],
    ],
    ["the recwarn fixture", `    lex("x")\n    assert len(recwarn) == 0\n`, [`not warns(lex("x"))/1`], "def test_quiet(recwarn):"],
    ["@pytest.mark.filterwarnings('error')", `    lex("x")\n`, [`not warns()/1`], `@pytest.mark.filterwarnings("error")\ndef test_quiet():`],
  ])("%s", async (_name, body, expected, signature?: string) => {
    expect((await checksIn("tests/test_lex.py", testOf(body, signature))).map(shape)).toEqual(expected);
  });

  it("a no-warning check of one category does not cover one of every warning; the other way round it does", () => {
    const quiet = (category?: string): Check =>
      toCheck({ line: 1, matcher: "not.warns", strength: 1, tautology: false, negated: true, actual: 'lex("x")', ...(category === undefined ? {} : { expected: category }) });
    expect(coverage(quiet(), quiet("DeprecationWarning"), false)).toBeNull();
    expect(coverage(quiet("DeprecationWarning"), quiet(), false)).not.toBeNull();
    expect(coverage(quiet("DeprecationWarning"), quiet("DeprecationWarning"), false)).not.toBeNull();
  });

  it.each([
    ["an ignore filter hides warnings", `    with warnings.catch_warnings():\n        warnings.simplefilter("ignore")\n        lex("x")\n`],
    ["a recorder nobody asserts", `    with warnings.catch_warnings(record=True) as caught:\n        lex("x")\n`],
    ["@pytest.mark.filterwarnings('ignore')", `    lex("x")\n`, `@pytest.mark.filterwarnings("ignore::DeprecationWarning")\ndef test_quiet():`],
  ])("%s: no check", async (_name, body, signature?: string) => {
    expect(await checksIn("tests/test_lex.py", testOf(body, signature))).toEqual([]);
  });
});

describe("rewritten checks: an exception check written with try is a throws check", () => {
  const java = (body: string): string => `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass SizeTest {\n  @Test\n  void rejects() {\n${body}\n  }\n}\n`;
  const csharp = (body: string): string => `using Xunit;\npublic class SizeTests {\n  [Fact]\n  public void Rejects() {\n${body}\n  }\n}\n`;
  const python = (body: string): string => `import pytest\n\ndef test_rejects():\n${body}\n`;
  const unittest = (body: string): string => `import unittest\n\nclass SizeTest(unittest.TestCase):\n    def test_rejects(self):\n${body}\n`;
  const php = (body: string): string => `<?php\nuse PHPUnit\\Framework\\TestCase;\nfinal class SizeTest extends TestCase {\n  public function testRejects(): void {\n${body}\n  }\n}\n`;
  const ruby = (body: string): string => `require "minitest/autorun"\nclass SizeTest < Minitest::Test\n  def test_rejects\n${body}\n  end\nend\n`;
  const js = (body: string): string => `import { expect, it } from "vitest";\nimport assert from "node:assert";\nit("rejects", () => {\n${body}\n});\n`;
  it.each([
    [
      "java: flag set in catch, asserted after",
      "src/test/java/SizeTest.java",
      java(`boolean threw = false;\ntry { Size.parse("x"); } catch (IllegalArgumentException e) { threw = true; }\nassertTrue(threw);`),
      [`throws(Size.parse("x"), IllegalArgumentException|)/2`],
    ],
    [
      "java: try { call; fail() } catch (E e) {}",
      "src/test/java/SizeTest.java",
      java(`try {\n  long n = Size.parse("x");\n  fail("expected");\n} catch (IllegalArgumentException expected) {\n}`),
      [`throws(Size.parse("x"), IllegalArgumentException|)/2`],
    ],
    [
      "java: a caught error kept and asserted not null",
      "src/test/java/SizeTest.java",
      java(`Exception caught = null;\ntry { Size.parse("x"); } catch (IllegalArgumentException e) { caught = e; }\nassertNotNull(caught);\nassertEquals("bad", caught.getMessage());`),
      [`throws(Size.parse("x"), IllegalArgumentException|)/2`, `equal(caught.getMessage(), "bad")/3`],
    ],
    ["java: fail() caught by catch (Throwable)", "src/test/java/SizeTest.java", java(`try { Size.parse("x"); fail(); } catch (Throwable t) { }`), [`other()/0`]],
    ["java: fail() not caught by catch (Exception)", "src/test/java/SizeTest.java", java(`try { Size.parse("x"); fail(); } catch (Exception e) { }`), [`throws(Size.parse("x"), Exception|)/1`]],
    [
      "c#: flag set in catch",
      "tests/SizeTests.cs",
      csharp(`var threw = false;\ntry { Size.Parse("x"); } catch (FormatException) { threw = true; }\nAssert.True(threw);`),
      [`throws(Size.Parse("x"), FormatException|)/2`],
    ],
    ["c#: Assert.Fail() caught by a bare catch", "tests/SizeTests.cs", csharp(`try { Size.Parse("x"); Assert.Fail("no"); } catch { }`), [`other("no")/0`]],
    [
      "python: flag set in except",
      "tests/test_size.py",
      python(`    raised = False\n    try:\n        parse("x")\n    except ValueError:\n        raised = True\n    assert raised`),
      [`throws(parse("x"), ValueError|)/2`],
    ],
    [
      "python: pytest.fail in the else clause",
      "tests/test_size.py",
      python(`    try:\n        parse("x")\n    except (ValueError, TypeError):\n        pass\n    else:\n        pytest.fail("no error")`),
      [`throws(parse("x"))/1`],
    ],
    [
      "python: assert False ending the try",
      "tests/test_size.py",
      python(`    try:\n        parse("x")\n        assert False, "no error"\n    except ValueError:\n        pass`),
      [`throws(parse("x"), ValueError|)/2`],
    ],
    [
      "python: pytest.fail is not caught by except Exception",
      "tests/test_size.py",
      python(`    try:\n        parse("x")\n        pytest.fail("no error")\n    except Exception:\n        pass`),
      [`throws(parse("x"), Exception|)/1`],
    ],
    [
      "python: self.fail is caught by except Exception",
      "tests/test_size.py",
      unittest(`        try:\n            parse("x")\n            self.fail("no error")\n        except Exception:\n            pass`),
      [`other("no error")/0`],
    ],
    [
      "php: $this->fail() ending the try",
      "tests/SizeTest.php",
      php(`try { Size::parse('x'); $this->fail('no'); } catch (\\InvalidArgumentException $e) { }`),
      [`throws(Size::parse("x"), \\InvalidArgumentException|)/2`],
    ],
    [
      "php: flag set in catch",
      "tests/SizeTest.php",
      php(`$threw = false;\ntry { Size::parse('x'); } catch (\\InvalidArgumentException $e) { $threw = true; }\n$this->assertTrue($threw);`),
      [`throws(Size::parse("x"), \\InvalidArgumentException|)/2`],
    ],
    [
      "ruby: flag set in rescue",
      "test/size_test.rb",
      ruby(`    raised = false\n    begin\n      Size.parse("x")\n    rescue ArgumentError\n      raised = true\n    end\n    assert raised`),
      [`throws(Size.parse("x"), ArgumentError|)/2`],
    ],
    [
      "ruby: flunk in a method body with rescue",
      "test/size_test.rb",
      ruby(`    Size.parse("x")\n    flunk "no error"\n  rescue ArgumentError\n    nil`),
      [`throws(Size.parse("x"), ArgumentError|)/2`],
    ],
    [
      "ruby: flunk not caught by a bare rescue",
      "test/size_test.rb",
      ruby(`    begin\n      Size.parse("x")\n      flunk "no error"\n    rescue => e\n      assert_match(/bad/, e.message)\n    end`),
      [`throws(Size.parse("x"))/1`, `match(e.message, /bad/)/2`],
    ],
    ["js: flag set in catch", "test/size.test.ts", js(`  let threw = false;\n  try { parse("x"); } catch { threw = true; }\n  expect(threw).toBe(true);`), [`throws(parse("x"))/1`]],
    ["js: a caught error kept and asserted defined", "test/size.test.ts", js(`  let error;\n  try { parse("x"); } catch (e) { error = e; }\n  expect(error).toBeDefined();`), [`throws(parse("x"))/1`]],
    [
      "js: a rethrow guard names the type",
      "test/size.test.ts",
      js(`  try {\n    parse("x");\n    expect.unreachable("no error");\n  } catch (e) {\n    if (!(e instanceof RangeError)) throw e;\n    expect(e.message).toMatch(/bad/);\n  }`),
      [`throws(parse("x"), RangeError|)/2`, `match(e.message, /bad/)/2`],
    ],
    [
      "js: fail ending the try, the handler asserting the type",
      "test/size.test.ts",
      js(`  try {\n    parse("x");\n    assert.fail("no error");\n  } catch (e) {\n    assert.ok(e instanceof RangeError);\n  }`),
      [`throws(parse("x"), RangeError|)/2`, `type(e, RangeError)/2`],
    ],
    ["js: assert.fail caught by a catch that checks nothing", "test/size.test.ts", js(`  try { parse("x"); assert.fail("no error"); } catch (e) { }`), [`other("no error")/0`]],
  ])("%s", async (_name, path, source, expected) => {
    expect((await checksIn(path, source)).map(shape)).toEqual(expected);
  });

  it.each([
    ["java: a flag never asserted", "src/test/java/SizeTest.java", java(`boolean threw = false;\ntry { Size.parse("x"); } catch (IllegalArgumentException e) { threw = true; }`)],
    [
      "java: a flag set in the guarded block (it checks that nothing was thrown)",
      "src/test/java/SizeTest.java",
      java(`boolean ok = false;\ntry { Size.parse("x"); ok = true; } catch (IllegalArgumentException e) { }\nassertTrue(ok);`),
    ],
    ["python: a flag asserted false", "tests/test_size.py", python(`    raised = False\n    try:\n        parse("x")\n    except ValueError:\n        raised = True\n    assert not raised`)],
  ])("%s: no throws check", async (_name, path, source) => {
    expect((await checksIn(path, source)).filter((check) => check.relation === "throws")).toEqual([]);
  });
});

const lookAlikes: RuleCase[] = [
  {
    name: "js: expect(() => f()).toThrow(E) rewritten as try { f(); expect.unreachable() } catch (e) { expect(e).toBeInstanceOf(E) }",
    changes: [
      change(
        "test/size.test.ts",
        `it("rejects", () => {\n  expect(() => parseSize("12kb")).toThrow(RangeError);\n});\n`,
        `it("rejects", () => {\n  try {\n    parseSize("12kb");\n    expect.unreachable("no error");\n  } catch (error) {\n    expect(error).toBeInstanceOf(RangeError);\n  }\n});\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "java: a flag set in catch and asserted after, rewritten as assertThrows (the message check moves before it)",
    changes: [
      change(
        "src/test/java/MimeTest.java",
        `class MimeTest {\n  @Test void rejects() {\n    boolean threw = false;\n    try {\n      Mime.requireText("image/jpeg");\n    } catch (IllegalStateException e) {\n      threw = true;\n      assertEquals("bad type", e.getMessage());\n    }\n    assertTrue(threw);\n  }\n}\n`,
        `class MimeTest {\n  @Test void rejects() {\n    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Mime.requireText("image/jpeg"));\n    assertEquals("bad type", e.getMessage());\n  }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "go: an error check and an equality check merged into one if err != nil || got != want",
    changes: [
      change(
        "calc/parse_test.go",
        goFile(`func TestParse(t *testing.T) {\n\tgot, err := Parse("7")\n\tif err != nil {\n\t\tt.Fatalf("Parse: %v", err)\n\t}\n\tif got != 7 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n`),
        goFile(`func TestParse(t *testing.T) {\n\tgot, err := Parse("7")\n\tif err != nil || got != 7 {\n\t\tt.Errorf("got %d, %v", got, err)\n\t}\n}\n`),
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "js: toThrow(E) rewritten as try { f(); expect.unreachable() } catch {} (the catch swallows the failure)",
    changes: [
      change(
        "test/size.test.ts",
        `it("rejects", () => {\n  expect(() => parseSize("12kb")).toThrow(RangeError);\n});\n`,
        `it("rejects", () => {\n  try {\n    parseSize("12kb");\n    expect.unreachable("no error");\n  } catch {\n    // rejected\n  }\n});\n`,
      ),
    ],
    findings: [`assertion_weakening/high test/size.test.ts "rejects"`],
  },
  {
    name: "java: assertThrows rewritten as a flag set in catch that is never asserted",
    changes: [
      change(
        "src/test/java/MimeTest.java",
        `class MimeTest {\n  @Test void rejects() {\n    assertThrows(IllegalStateException.class, () -> Mime.requireText("image/jpeg"));\n  }\n}\n`,
        `class MimeTest {\n  @Test void rejects() {\n    boolean threw = false;\n    try {\n      Mime.requireText("image/jpeg");\n    } catch (IllegalStateException e) {\n      threw = true;\n    }\n  }\n}\n`,
      ),
    ],
    findings: [`assertion_removal/high src/test/java/MimeTest.java "MimeTest > rejects"`],
  },
  {
    name: "go: the merged guard kept the error check and dropped the equality",
    changes: [
      change(
        "calc/parse_test.go",
        goFile(`func TestParse(t *testing.T) {\n\tgot, err := Parse("7")\n\tif err != nil || got != 7 {\n\t\tt.Errorf("got %d, %v", got, err)\n\t}\n}\n`),
        goFile(`func TestParse(t *testing.T) {\n\t_, err := Parse("7")\n\tif err != nil {\n\t\tt.Errorf("Parse: %v", err)\n\t}\n}\n`),
      ),
    ],
    findings: [`assertion_removal/high calc/parse_test.go "TestParse"`],
  },
];

describe("rewritten checks: legitimate rewrites give no test finding", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("rewritten checks: the same rewrites hiding a lost check are findings", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
