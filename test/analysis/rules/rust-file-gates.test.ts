/**
 * A Rust file gated whole by `#![cfg(p)]` compiles its tests only where `p`
 * holds, as a `#[cfg(p)]` on each would (languages/rust.ts fileCfgOf; sweep
 * of dtolnay/ryu 92fbde0: `#![cfg(exhaustive)]` -> `#[cfg_attr(not(exhaustive),
 * ignore = "requires cfg(exhaustive)")]` on the test, read as a new skip,
 * critical). The gate moved onto the test under the same condition is no
 * change; made unconditional, or gated where it was not, it is.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "tests/exhaustive.rs";
const test = (attributes: string): string =>
  `${attributes}#[test]\nfn test_exhaustive() {\n    for i in 0..u32::MAX {\n        assert_eq!(ryu::Buffer::new().format(f32::from_bits(i)).parse::<f32>().unwrap().to_bits(), i);\n    }\n}\n`;
const FILE_GATED = `#![cfg(exhaustive)]\n\n${test("")}`;

const cases: RuleCase[] = [
  {
    name: "the file's gate moved onto the test as a cfg_attr ignore under the same condition",
    changes: [change(file, FILE_GATED, test(`#[cfg_attr(not(exhaustive), ignore = "requires cfg(exhaustive)")]\n`))],
    findings: [],
  },
  { name: "the file's gate moved onto the test as its own cfg", changes: [change(file, `// Exhaustive check.\n${FILE_GATED}`, test("#[cfg(exhaustive)]\n"))], findings: [] },
  { name: "cheat: the file-gated test ignored outright", changes: [change(file, FILE_GATED, test("#[ignore]\n"))], findings: [`test_disabled/critical ${file} "test_exhaustive"`] },
];

describe("a Rust file gated whole by #![cfg]", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
