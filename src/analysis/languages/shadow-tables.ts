/**
 * The assertion-shadow tables of the tree-sitter languages
 * (analysis/assertion-shadows.ts): which definitions take a framework
 * assertion's name where the tests resolve it, and how each language spells
 * a failure inside one. Go has no such idiom (its checks are `t.Errorf` on
 * the test's own `*testing.T`; a helper that stops failing is judged as a
 * weakened helper, rules/assertions.ts); JavaScript's `expect.extend` is read
 * by languages/javascript-shadows.ts.
 */

import { enclosingName, type ShadowTable } from "../assertion-shadows.js";
import type { Node } from "../parsers/tree-sitter.js";

/** unittest.TestCase's assertion methods (docs.python.org/3/library/unittest.html#assert-methods) and `fail`. */
const UNITTEST_ASSERTIONS: ReadonlySet<string> = new Set([
  "assertEqual",
  "assertNotEqual",
  "assertTrue",
  "assertFalse",
  "assertIs",
  "assertIsNot",
  "assertIsNone",
  "assertIsNotNone",
  "assertIn",
  "assertNotIn",
  "assertIsInstance",
  "assertNotIsInstance",
  "assertRaises",
  "assertRaisesRegex",
  "assertWarns",
  "assertWarnsRegex",
  "assertLogs",
  "assertNoLogs",
  "assertAlmostEqual",
  "assertNotAlmostEqual",
  "assertGreater",
  "assertGreaterEqual",
  "assertLess",
  "assertLessEqual",
  "assertRegex",
  "assertNotRegex",
  "assertCountEqual",
  "assertMultiLineEqual",
  "assertSequenceEqual",
  "assertListEqual",
  "assertTupleEqual",
  "assertSetEqual",
  "assertDictEqual",
  "assertEquals",
  "assertAlmostEquals",
  "fail",
]);

const CLASSES_PYTHON: ReadonlySet<string> = new Set(["class_definition"]);

/** Python: a method of a class named like a unittest assertion (it overrides TestCase's for the class and its subclasses). */
export const PYTHON_SHADOWS: ShadowTable = {
  gate: /\bdef\s+(assert[A-Z]|fail\b)/,
  definitions: new Set(["function_definition"]),
  isShadow: (name: string, node: Node) => UNITTEST_ASSERTIONS.has(name) && enclosingName(node, CLASSES_PYTHON) !== null,
  failure: /\braise\b|(?<![\w.])assert\b|\b(assert[A-Z_]\w*|fail\w*)\s*\(|\bsuper\(\)\s*\.\s*\w+|\b_?orig\w*\s*\(|\bpytest\.fail\b/g,
};

/** Minitest::Assertions and Minitest::Expectations names (docs.seattlerb.org/minitest). */
const MINITEST_ASSERTION =
  /^(assert|refute)(_(empty|equal|in_delta|in_epsilon|includes|instance_of|kind_of|match|nil|operator|output|path_exists|pattern|predicate|raises|respond_to|same|send|silent|throws))?$|^flunk$|^(must|wont)_(be|equal|include|match|be_nil|be_empty|be_same_as|be_within_delta|be_within_epsilon|be_close_to|be_instance_of|be_kind_of|raise|respond_to|output|throw|pattern_match)$/;

/** Ruby: a method named like a minitest assertion or expectation (reopening Minitest::Assertions, or in a test class or helper module). */
export const RUBY_SHADOWS: ShadowTable = {
  gate: /\bdef\s+(assert|refute|must_|wont_|flunk)/,
  definitions: new Set(["method"]),
  isShadow: (name: string) => MINITEST_ASSERTION.test(name),
  failure: /\braise\b|\bfail\b|\bflunk\b|\bsuper\b|\b(assert|refute)(?!ions\b)\w*|\b(must|wont)_\w+|\bexpect\b/g,
  forwardsAll: /^super\s*$/,
};

/** PHPUnit's Assert methods (docs.phpunit.de, "Assertions") that a base TestCase can override. */
const PHPUNIT_ASSERTION =
  /^assert(Equals|NotEquals|Same|NotSame|True|False|Null|NotNull|Count|NotCount|Contains|NotContains|ContainsEquals|StringContainsString|StringNotContainsString|StringContainsStringIgnoringCase|InstanceOf|NotInstanceOf|Empty|NotEmpty|ArrayHasKey|ArrayNotHasKey|MatchesRegularExpression|DoesNotMatchRegularExpression|EqualsWithDelta|EqualsCanonicalizing|EqualsIgnoringCase|GreaterThan|GreaterThanOrEqual|LessThan|LessThanOrEqual|IsArray|IsBool|IsFloat|IsInt|IsString|IsObject|IsCallable|IsNumeric|IsIterable|IsList|Finite|Infinite|Nan|JsonStringEqualsJsonString|JsonStringEqualsJsonFile|StringEqualsFile|FileExists|FileEquals|DirectoryExists|That|StringStartsWith|StringEndsWith|ContainsOnly|ContainsOnlyInstancesOf|ObjectHasProperty|XmlStringEqualsXmlString|SameSize|Matches)$|^fail$/;

/** PHP: a method named like a PHPUnit assertion (a base TestCase overriding it for every subclass). */
export const PHP_SHADOWS: ShadowTable = {
  gate: /\bfunction\s+(assert[A-Z]|fail\b)/,
  definitions: new Set(["method_declaration"]),
  isShadow: (name: string) => PHPUNIT_ASSERTION.test(name),
  failure: /\bthrow\b|\bparent::\w+|(\$this->|static::|self::|\b\w*Assert::|\bTestCase::)\s*(assert\w*|fail)\b|\bfail\s*\(/g,
};

/** JUnit 4/5 assertion names (org.junit.Assert, org.junit.jupiter.api.Assertions) a test class's own method shadows. */
const JUNIT_ASSERTIONS: ReadonlySet<string> = new Set([
  "assertEquals",
  "assertNotEquals",
  "assertTrue",
  "assertFalse",
  "assertNull",
  "assertNotNull",
  "assertSame",
  "assertNotSame",
  "assertArrayEquals",
  "assertIterableEquals",
  "assertLinesMatch",
  "assertThrows",
  "assertThrowsExactly",
  "assertDoesNotThrow",
  "assertAll",
  "assertTimeout",
  "assertTimeoutPreemptively",
  "assertInstanceOf",
  "assertThat",
  "fail",
]);

/** Java: a method named like a JUnit assertion (a member wins over a static import in the class and its subclasses). */
export const JAVA_SHADOWS: ShadowTable = {
  gate: /\b(assert[A-Z]\w*|fail)\s*\([^;{]*\)\s*(throws\s+[\w.,\s]+)?\{/,
  definitions: new Set(["method_declaration"]),
  isShadow: (name: string) => JUNIT_ASSERTIONS.has(name),
  failure: /\bthrow\b|\bsuper\s*\.\s*\w+|\b(Assert|Assertions|Assume|Truth|MatcherAssert)\s*\.\s*\w+|\b(assert\w*|fail)\s*\(/g,
};

/** Class names of the .NET frameworks' assertion classes (xUnit `Assert`, NUnit `Assert`/`ClassicAssert`/`CollectionAssert`/`StringAssert`, MSTest's). */
const DOTNET_ASSERTION_CLASSES: ReadonlySet<string> = new Set(["Assert", "ClassicAssert", "CollectionAssert", "StringAssert", "Assertions"]);

const CLASSES_CSHARP: ReadonlySet<string> = new Set(["class_declaration"]);

/** C#: a method of a class named like the framework's assertion class (in the tests' namespace it wins over `using Xunit;`). */
export const CSHARP_SHADOWS: ShadowTable = {
  gate: /\bclass\s+(Assert|ClassicAssert|CollectionAssert|StringAssert|Assertions)\b/,
  definitions: new Set(["method_declaration"]),
  isShadow: (_name: string, node: Node) => DOTNET_ASSERTION_CLASSES.has(enclosingName(node, CLASSES_CSHARP) ?? ""),
  failure: /\bthrow\b|\bbase\s*\.\s*\w+|[\w.:]*\bAssert\s*\.\s*\w+|\.Should\w*\s*\(/g,
};

/** The std assertion macros (doc.rust-lang.org/std/macro.assert_eq.html) a `macro_rules!` of the same name shadows in its module. */
const RUST_ASSERTION_MACROS: ReadonlySet<string> = new Set(["assert", "assert_eq", "assert_ne", "debug_assert", "debug_assert_eq", "debug_assert_ne", "assert_matches"]);

/** Rust: a `macro_rules!` named like a std assertion macro; its parameters are the rules' metavariables (`$left`). */
export const RUST_SHADOWS: ShadowTable = {
  gate: /macro_rules!\s*(debug_)?assert/,
  definitions: new Set(["macro_definition"]),
  isShadow: (name: string) => RUST_ASSERTION_MACROS.has(name),
  parameters: (node: Node) => [...new Set([...node.text.matchAll(/\$(\w+)\s*:/g)].map((match) => `$${match[1] as string}`))],
  body: (node: Node) => {
    const name = node.childForFieldName("name");
    return name ? node.text.slice(name.endIndex - node.startIndex) : node.text;
  },
  failure: /\b(panic|assert|assert_eq|assert_ne|debug_assert\w*|unreachable|todo|unimplemented)!|::\s*(assert\w*|panic)!/g,
};
