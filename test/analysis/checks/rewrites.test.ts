/**
 * Issue 9's look-alikes that rewrite a check into an equivalent or stronger
 * form (the rewrites branch): a Go failure guard of a disjunction read as one
 * check per disjunct; a call with type arguments (`InvokePrivate<bool>(…)`,
 * `ReflectionTestUtils.<Boolean>invokeMethod(…)`, `parse::<u8>(…)`) read as
 * a call, not as a `<` comparison; and the cheats of the same shapes, which
 * must still be findings.
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

const lookAlikes: RuleCase[] = [
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
