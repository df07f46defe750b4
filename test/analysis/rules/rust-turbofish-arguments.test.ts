/**
 * A Rust assertion macro's tokens are not parsed as expressions, so its
 * arguments are split at top-level commas by hand; the comma between a
 * turbofish's generic arguments (`SmallVec::<u32, 2>`, `HashMap::<String,
 * u32>::new()`) separates generics, not the macro's arguments (sweep of
 * servo/rust-smallvec b0e2960: `SmallVec::<[u32; 2]>` -> `SmallVec::<u32,
 * 2>` inside `assert_eq!` read as "strength 3 -> 1").
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const rust = (body: string): string => `#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn from_slice() {\n${body}    }\n}\n`;
const file = "src/tests.rs";

const cases: RuleCase[] = [
  {
    name: "generic arguments of the subject's turbofish",
    changes: [change(file, rust(`        assert_eq!(&SmallVec::<[u32; 2]>::from(&[1][..])[..], [1]);\n`), rust(`        assert_eq!(&SmallVec::<u32, 2>::from(&[1][..])[..], [1]);\n`))],
    findings: [],
  },
  {
    name: "nested generics closed by `>>` in the expected value",
    changes: [change(file, rust(`        assert_eq!(collect(&[1]), Vec::<Vec<u32>>::new());\n`), rust(`        assert_eq!(collect::<Vec<u32>, 2>(&[1]), Vec::<Vec<u32>>::new());\n`))],
    findings: [],
  },
  {
    name: "a map's two type arguments",
    changes: [change(file, rust(`        assert_eq!(count(&[("a", 1)]), 1);\n`), rust(`        assert_eq!(HashMap::<String, u32>::from_iter(pairs(&[("a", 1)])).len(), 1);\n`))],
    findings: [],
  },
  {
    name: "cheat: the equality under a turbofish weakened to a non-emptiness check",
    changes: [change(file, rust(`        assert_eq!(&SmallVec::<u32, 2>::from(&[1][..])[..], [1]);\n`), rust(`        assert!(!SmallVec::<u32, 2>::from(&[1][..]).is_empty());\n`))],
    findings: [`assertion_weakening/high ${file} "tests > from_slice"`],
  },
];

describe("a Rust assertion macro's arguments with turbofish generics", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
