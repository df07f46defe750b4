/**
 * One description of "a test file with these tests" per tree-sitter
 * language, so the cross-language tests run one body over every language
 * (STYLE.md §10). Each language renders the same abstract test list in its
 * own syntax and frameworks.
 */

/** Languages parsed with tree-sitter, in the order they were added. */
export const TREE_SITTER_LANGUAGES = ["python", "go", "rust", "java", "csharp", "ruby", "php"] as const;

/** One test in a language-neutral description. */
export interface TestSpec {
  /** A lower-case word or two ("adds", "rejects empty"); each language spells it its own way. */
  name: string;
  /** The value the assertion expects; the assertion compares `compute(<input>)` with it. */
  expected: number;
  input: number;
  /** Skip it: with a plain reason, or with a reason that links an issue. */
  skip?: "plain" | "linked";
  /** False: the same body, but named/annotated so the runner no longer collects it. */
  isDiscovered?: boolean;
  /** What the test checks (default "exact"). */
  check?: Check;
}

/**
 * The kinds of check a test makes: an exact equality, a truthiness check,
 * none (the call stays, its result unchecked), a tautology, an exact check
 * after an early `return` (never runs).
 */
export type Check = "exact" | "truthy" | "none" | "tautology" | "returned";

/** One language's statement for each kind of check of `compute(input)`. */
type CheckSource = Record<Check, (input: number, expected: number) => string>;

function checkOf(checks: CheckSource, test: TestSpec): string {
  return checks[test.check ?? "exact"](test.input, test.expected);
}

/** How a language renders a test file and names a test. */
export interface LanguageCase {
  language: (typeof TREE_SITTER_LANGUAGES)[number];
  /** Path of the test file. */
  path: string;
  /** The test file's source with these tests in this order. */
  render(tests: readonly TestSpec[]): string;
  /** The TestCase id ralph gives the test. */
  idOf(name: string): string;
  /** Source that does not parse as this language at all. */
  garbage: string;
  /** True when the test file is also product code with public API (Rust keeps tests beside `pub fn compute`): deleting it removes that API too. */
  isProductCode?: boolean;
}

const words = (name: string): string[] => name.split(/\s+/);
const snake = (name: string): string => words(name).join("_");
const pascal = (name: string): string =>
  words(name)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join("");
const camel = (name: string): string => {
  const value = pascal(name);
  return value[0]?.toLowerCase() + value.slice(1);
};

const REASON = { plain: "flaky on CI", linked: "flaky, see https://github.com/acme/app/issues/42" } as const;

const PYTHON: CheckSource = {
  exact: (input, expected) => `assert compute(${input}) == ${expected}`,
  truthy: (input) => `assert compute(${input})`,
  none: (input) => `compute(${input})`,
  tautology: () => "assert True",
  returned: (input, expected) => `return\n    assert compute(${input}) == ${expected}`,
};
const GO: CheckSource = {
  exact: (input, expected) => `\tif got := Compute(${input}); got != ${expected} {\n\t\tt.Errorf("got %d", got)\n\t}\n`,
  truthy: (input) => `\tif !Valid(Compute(${input})) {\n\t\tt.Error("invalid")\n\t}\n`,
  none: (input) => `\t_ = Compute(${input})\n`,
  tautology: () => `\tif false {\n\t\tt.Error("never")\n\t}\n`,
  returned: (input, expected) => `\treturn\n\tif got := Compute(${input}); got != ${expected} {\n\t\tt.Errorf("got %d", got)\n\t}\n`,
};
const RUST: CheckSource = {
  exact: (input, expected) => `assert_eq!(compute(${input}), ${expected});`,
  truthy: (input) => `assert!(is_valid(compute(${input})));`,
  none: (input) => `compute(${input});`,
  tautology: () => "assert!(true);",
  returned: (input, expected) => `return;\n        assert_eq!(compute(${input}), ${expected});`,
};
const JAVA: CheckSource = {
  exact: (input, expected) => `assertEquals(${expected}, Calc.compute(${input}));`,
  truthy: (input) => `assertNotNull(Calc.compute(${input}));`,
  none: (input) => `Calc.compute(${input});`,
  tautology: () => "assertTrue(true);",
  returned: (input, expected) => `return;\n        assertEquals(${expected}, Calc.compute(${input}));`,
};
const CSHARP: CheckSource = {
  exact: (input, expected) => `Assert.Equal(${expected}, Calc.Compute(${input}));`,
  truthy: (input) => `Assert.NotNull(Calc.Compute(${input}));`,
  none: (input) => `Calc.Compute(${input});`,
  tautology: () => "Assert.True(true);",
  returned: (input, expected) => `return;\n        Assert.Equal(${expected}, Calc.Compute(${input}));`,
};
const RUBY: CheckSource = {
  exact: (input, expected) => `assert_equal ${expected}, compute(${input})`,
  truthy: (input) => `assert compute(${input})`,
  none: (input) => `compute(${input})`,
  tautology: () => "assert true",
  returned: (input, expected) => `return\n    assert_equal ${expected}, compute(${input})`,
};
const PHP: CheckSource = {
  exact: (input, expected) => `$this->assertSame(${expected}, Calc::compute(${input}));`,
  truthy: (input) => `$this->assertNotNull(Calc::compute(${input}));`,
  none: (input) => `Calc::compute(${input});`,
  tautology: () => "$this->assertTrue(true);",
  returned: (input, expected) => `return;\n        $this->assertSame(${expected}, Calc::compute(${input}));`,
};

/** Every tree-sitter language's rendering, keyed by language id. */
export const LANGUAGE_CASES: readonly LanguageCase[] = [
  {
    language: "python",
    path: "tests/test_calc.py",
    idOf: (name) => `test_${snake(name)}`,
    garbage: ")))) ((( def def class ::: ]]]",
    render: (tests) =>
      "import pytest\n\nfrom calc import compute\n\n" +
      tests
        .map((test) => {
          const skip = test.skip ? `@pytest.mark.skip(reason=${JSON.stringify(REASON[test.skip])})\n` : "";
          const name = test.isDiscovered === false ? `check_${snake(test.name)}` : `test_${snake(test.name)}`;
          return `${skip}def ${name}():\n    ${checkOf(PYTHON, test)}\n`;
        })
        .join("\n\n"),
  },
  {
    language: "go",
    path: "calc/calc_test.go",
    idOf: (name) => `Test${pascal(name)}`,
    garbage: "}}}} func func ((( package",
    render: (tests) =>
      'package calc\n\nimport "testing"\n\n' +
      tests
        .map((test) => {
          const skip = test.skip ? `\tt.Skip(${JSON.stringify(REASON[test.skip])})\n` : "";
          const name = test.isDiscovered === false ? `check${pascal(test.name)}` : `Test${pascal(test.name)}`;
          return `func ${name}(t *testing.T) {\n${skip}${checkOf(GO, test)}}\n`;
        })
        .join("\n"),
  },
  {
    language: "rust",
    path: "src/calc.rs",
    isProductCode: true,
    idOf: (name) => `tests > ${snake(name)}`,
    garbage: "}}}} fn fn ((( mod ::: #[",
    render: (tests) =>
      "pub fn compute(x: i32) -> i32 {\n    x * x\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n" +
      tests
        .map((test) => {
          const attribute = test.isDiscovered === false ? "" : "    #[test]\n";
          const skip = test.skip ? `    #[ignore = ${JSON.stringify(REASON[test.skip])}]\n` : "";
          return `${attribute}${skip}    fn ${snake(test.name)}() {\n        ${checkOf(RUST, test)}\n    }\n`;
        })
        .join("\n") +
      "}\n",
  },
  {
    language: "java",
    path: "src/test/java/calc/CalcTest.java",
    idOf: (name) => `CalcTest > ${camel(name)}`,
    garbage: "}}}} class class ((( @@ ;;; {",
    render: (tests) =>
      "package calc;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Disabled;\nimport org.junit.jupiter.api.Test;\n\nclass CalcTest {\n" +
      tests
        .map((test) => {
          const annotation = test.isDiscovered === false ? "" : "    @Test\n";
          const skip = test.skip ? `    @Disabled(${JSON.stringify(REASON[test.skip])})\n` : "";
          return `${annotation}${skip}    void ${camel(test.name)}() {\n        ${checkOf(JAVA, test)}\n    }\n`;
        })
        .join("\n") +
      "}\n",
  },
  {
    language: "csharp",
    path: "tests/CalcTests.cs",
    idOf: (name) => `CalcTests > ${pascal(name)}`,
    garbage: "}}}} class class ((( [[[ ;;; {",
    render: (tests) =>
      "using Xunit;\n\nnamespace Calc.Tests;\n\npublic class CalcTests\n{\n" +
      tests
        .map((test) => {
          const skip = test.skip ? `(Skip = ${JSON.stringify(REASON[test.skip])})` : "";
          const attribute = test.isDiscovered === false ? "" : `    [Fact${skip}]\n`;
          return `${attribute}    public void ${pascal(test.name)}()\n    {\n        ${checkOf(CSHARP, test)}\n    }\n`;
        })
        .join("\n") +
      "}\n",
  },
  {
    language: "ruby",
    path: "test/calc_test.rb",
    idOf: (name) => `CalcTest > test_${snake(name)}`,
    garbage: "class ((( ]]] {{{ def def || end end",
    render: (tests) =>
      'require "minitest/autorun"\n\nclass CalcTest < Minitest::Test\n' +
      tests
        .map((test) => {
          const name = test.isDiscovered === false ? `check_${snake(test.name)}` : `test_${snake(test.name)}`;
          const skip = test.skip ? `    skip ${JSON.stringify(REASON[test.skip])}\n` : "";
          return `  def ${name}\n${skip}    ${checkOf(RUBY, test)}\n  end\n`;
        })
        .join("\n") +
      "end\n",
  },
  {
    language: "php",
    path: "tests/CalcTest.php",
    idOf: (name) => `CalcTest > test${pascal(name)}`,
    garbage: "<?php }}}} class class ((( ;;; function {{ ->",
    render: (tests) =>
      "<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class CalcTest extends TestCase\n{\n" +
      tests
        .map((test) => {
          const name = test.isDiscovered === false ? `check${pascal(test.name)}` : `test${pascal(test.name)}`;
          const skip = test.skip ? `        $this->markTestSkipped(${JSON.stringify(REASON[test.skip])});\n` : "";
          return `    public function ${name}(): void\n    {\n${skip}        ${checkOf(PHP, test)}\n    }\n`;
        })
        .join("\n") +
      "}\n",
  },
];
