/**
 * Rust extraction tables: test attributes, ignore/should_panic, rstest and
 * test_case rows, module paths, and assertion macro strengths.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import type { TestCase } from "../../../src/analysis/facts.js";

async function testsOf(items: string, path = "src/lib.rs"): Promise<TestCase[]> {
  const facts = await extractFacts(path, `#[cfg(test)]\nmod tests {\n${items}}\n`);
  expect(facts.parseError).toBeUndefined();
  return facts.tests;
}

describe("rust: which functions are tests", () => {
  it.each([
    ["#[test]", "#[test]\nfn adds() {}\n", ["tests > adds"]],
    ["#[tokio::test] on an async fn", "#[tokio::test]\nasync fn io() {}\n", ["tests > io"]],
    ["#[sqlx::test] and other *::test", "#[sqlx::test]\nasync fn db() {}\n", ["tests > db"]],
    ["#[rstest]", "#[rstest]\nfn r() {}\n", ["tests > r"]],
    ["a helper is not a test", "fn helper() {}\n", []],
    ["#[cfg(test)] alone is not a test", "#[cfg(test)]\nfn helper() {}\n", []],
    ["nested modules", "mod inner {\n#[test]\nfn deep() {}\n}\n", ["tests > inner > deep"]],
    ["a comment between attributes", "#[test]\n// why\n#[ignore]\nfn c() {}\n", ["tests > c"]],
    // dtolnay/itoa's tests/test.rs: cargo lists one test per row of a local test-generating macro.
    [
      "a local macro_rules! that generates #[test] fns: one test per row it is invoked with",
      'macro_rules! test {\n($($name:ident($value:expr, $expected:expr))*) => {\n$(\n#[test]\nfn $name() { assert_eq!($value.to_string(), $expected); }\n)*\n};\n}\ntest! {\nu64_0(0u64, "0")\nu64_max(u64::MAX, "18446744073709551615")\n}\n#[test]\nfn plain() {}\n',
      ["tests > u64_0", "tests > u64_max", "tests > plain"],
    ],
    [
      "a name per invocation (`$name:ident,`)",
      "macro_rules! case {\n($name:ident, $v:expr) => {\n#[test]\nfn $name() { assert!($v); }\n};\n}\ncase!(one, true);\ncase!(two, 1 == 1);\n",
      ["tests > one", "tests > two"],
    ],
    ["a macro that generates no tests generates none", "macro_rules! m {\n($name:ident) => { fn $name() {} };\n}\nm!(helper);\n", []],
  ])("%s", async (_title, items, ids) => {
    expect((await testsOf(items)).map((test) => test.id)).toEqual(ids);
  });
});

describe("rust: flags and rows", () => {
  it.each([
    ["#[ignore]", "#[test]\n#[ignore]\nfn a() {}\n", true, undefined],
    ["#[ignore = reason]", '#[test]\n#[ignore = "slow"]\nfn a() {}\n', true, "slow"],
    ["#[ignore] before #[test]", "#[ignore]\n#[test]\nfn a() {}\n", true, undefined],
    ["#[should_panic] is not a skip", "#[test]\n#[should_panic]\nfn a() {}\n", false, undefined],
  ])("%s", async (_title, items, isSkipped, reason) => {
    const [test] = await testsOf(items);
    expect(test?.flags.skipped).toBe(isSkipped);
    expect(test?.skipReason).toBe(reason);
  });

  it.each([
    ["rstest cases", "#[rstest]\n#[case(1, 2)]\n#[case(3, 4)]\nfn a(#[case] x: i32, #[case] y: i32) {}\n", 2],
    ["test_case rows", '#[test_case(1, 2 ; "one")]\n#[test_case(3, 4 ; "two")]\n#[test_case(5, 6 ; "three")]\nfn a(x: i32, y: i32) {}\n', 3],
  ])("%s", async (_title, items, rows) => {
    const [test] = await testsOf(items);
    expect(test?.eachRows).toBe(rows);
  });
});

describe("rust: assertions", () => {
  it.each([
    ["assert_eq!", "assert_eq!(add(1, 2), 3);", { matcher: "assert_eq!", strength: 3, actual: "add ( 1 , 2 )", expected: "3" }],
    ["assert_ne!", "assert_ne!(add(1, 2), 4);", { matcher: "assert_ne!", strength: 2, negated: true }],
    ["assert!(x)", "assert!(ok());", { matcher: "assert!", strength: 1 }],
    ["assert!(a == b)", "assert!(add(1, 2) == 3);", { matcher: "assert ==", strength: 3, expected: "3" }],
    ["assert!(true) is a tautology", "assert!(true);", { strength: 0, tautology: true }],
    ["assert_eq!(x, x) is a tautology", "assert_eq!(x, x);", { strength: 0, tautology: true }],
    ["debug_assert_eq!", "debug_assert_eq!(a, 1);", { strength: 3 }],
    ["pretty_assertions::assert_eq!", "pretty_assertions::assert_eq!(a, 1);", { strength: 3 }],
    ["assert_matches!", "assert_matches!(r, Ok(_));", { strength: 2 }],
  ])("%s", async (_title, statement, expected) => {
    const [test] = await testsOf(`#[test]\nfn a() {\n    ${statement}\n}\n`);
    expect(test?.assertionCount).toBe(1);
    expect(test?.assertionsDetail?.[0]).toMatchObject(expected);
  });

  it("#[should_panic(expected = ...)] counts as a specific assertion", async () => {
    const [test] = await testsOf('#[test]\n#[should_panic(expected = "boom")]\nfn a() {\n    run();\n}\n');
    expect(test?.assertionsDetail).toMatchObject([{ matcher: "#[should_panic]", strength: 2, expected: '"boom"' }]);
  });
});

describe("rust: removing #[test]", () => {
  it.each([
    ["#[test] removed: test_disabled", "    fn a() {\n        assert_eq!(f(), 1);\n    }\n", [["test_disabled", "tests > a"]]],
    ["#[test] kept, #[ignore] added: test_disabled", "    #[test]\n    #[ignore]\n    fn a() {\n        assert_eq!(f(), 1);\n    }\n", [["test_disabled", "tests > a"]]],
    ["the function removed too: test_deletion", "", [["test_deletion", "tests > a"]]],
  ])("%s", async (_title, after, expected) => {
    const wrap = (items: string) => `#[cfg(test)]\nmod tests {\n${items}}\n`;
    const before = wrap("    #[test]\n    fn a() {\n        assert_eq!(f(), 1);\n    }\n");
    const analysis = await analyzeChanges([{ path: "src/lib.rs", before, after: wrap(after) }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });
});

describe("rust: macro-generated tests", () => {
  it("removing a row from a test-generating macro's invocation deletes that test", async () => {
    const macro = "macro_rules! test {\n($($name:ident($value:expr, $expected:expr))*) => {\n$(\n#[test]\nfn $name() { assert_eq!($value.to_string(), $expected); }\n)*\n};\n}\n";
    const before = `${macro}test! {\nu64_0(0u64, "0")\nu64_max(u64::MAX, "18446744073709551615")\n}\n`;
    const after = `${macro}test! {\nu64_0(0u64, "0")\n}\n`;
    const analysis = await analyzeChanges([{ path: "tests/test.rs", before, after }]);
    expect(analysis.findings.map((f) => `${f.type} ${f.test}`)).toEqual(["test_deletion u64_max"]);
    expect(analysis.verdict).toBe("BLOCK");
  });
});

// tokio-rs/bytes 0e9e4fc2f1 (`buf_tests!`): a macro_rules! suite whose body defines #[test] fns of fixed names, invoked in a mod per type.
describe("rust: test suites written as a macro_rules! with fixed test names", () => {
  const SUITE =
    "macro_rules! reader_tests {\n" +
    "    ($make:ident) => {\n" +
    "        #[test]\n" +
    "        fn get_u8() {\n" +
    "            let mut buf = $make(INPUT); // the shared input\n" +
    "            assert_eq!(0x21, buf.get_u8());\n" +
    "        }\n" +
    "\n" +
    "        #[test]\n" +
    "        #[should_panic]\n" +
    "        fn underflow() {\n" +
    "            $make(&INPUT[..1]).get_u16();\n" +
    "        }\n" +
    "    };\n" +
    "}\n";
  const file = (invocations: string): string => `${SUITE}mod slice {\n    fn make(b: &[u8]) -> &[u8] { b }\n    ${invocations}\n}\n\n#[test]\nfn after_the_suites() {\n    assert!(true);\n}\n`;

  it("each invocation holds the body's tests, in the invocation's module, with their assertions", async () => {
    const facts = await extractFacts("tests/reader.rs", file("reader_tests!(make);"));
    expect(facts.tests.map((test) => test.id)).toEqual(["slice > get_u8", "slice > underflow", "after_the_suites"]);
    const [getU8, underflow] = facts.tests;
    expect(getU8?.assertionsDetail).toMatchObject([{ matcher: "assert_eq!", strength: 3, actual: "0x21", expected: "buf . get_u8 ( )" }]);
    expect(underflow?.assertionsDetail).toMatchObject([{ matcher: "#[should_panic]" }]);
  });

  it("the tests are at the invocation's line, and every line after it keeps its number", async () => {
    const content = file("reader_tests!(\n        make\n    );");
    const facts = await extractFacts("tests/reader.rs", content);
    const lines = content.split("\n");
    const invocation = lines.findIndex((line) => line.includes("reader_tests!(")) + 1;
    const after = lines.findIndex((line) => line.includes("fn after_the_suites")) + 1;
    expect(facts.tests.map((test) => [test.id, test.line])).toEqual([
      ["slice > get_u8", invocation],
      ["slice > underflow", invocation],
      ["after_the_suites", after],
    ]);
  });

  it("the metavariables are the invocation's arguments: an expression with operators in parentheses", async () => {
    const suite =
      "macro_rules! sums {\n    ($value:expr, $want:expr) => {\n        #[test]\n        fn sum() {\n            assert_eq!($value * 2, $want);\n        }\n    };\n}\nmod small {\n    sums!(1 + 1, 4);\n}\n";
    const [test] = (await extractFacts("tests/sums.rs", suite)).tests;
    expect(test?.id).toBe("small > sum");
    expect(test?.assertionsDetail).toMatchObject([{ actual: "( 1 + 1 ) * 2", expected: "4" }]);
  });

  it.each([
    ["an invocation its patterns do not match", "reader_tests!(make, extra);"],
    ["an invocation inside a function (not where an item stands)", "fn f() { reader_tests!(make); }"],
  ])("%s is not expanded", async (_title, invocation) => {
    expect((await extractFacts("tests/reader.rs", file(invocation))).tests.map((test) => test.id)).toEqual(["after_the_suites"]);
  });

  it("a body with a repetition is not expanded", async () => {
    const suite = "macro_rules! each {\n    ($($t:ty),*) => {\n        $(#[test]\n        fn zero() { assert_eq!(<$t>::default(), 0); })*\n    };\n}\neach!(u8, u16);\n";
    expect((await extractFacts("tests/each.rs", suite)).tests).toEqual([]);
  });

  it("a suite invoked by another suite's body is expanded too", async () => {
    const suites = `${SUITE}macro_rules! all_tests {\n    ($make:ident) => {\n        reader_tests!($make);\n    };\n}\nmod slice {\n    fn make(b: &[u8]) -> &[u8] { b }\n    all_tests!(make);\n}\n`;
    expect((await extractFacts("tests/reader.rs", suites)).tests.map((test) => test.id)).toEqual(["slice > get_u8", "slice > underflow"]);
  });
});
