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
