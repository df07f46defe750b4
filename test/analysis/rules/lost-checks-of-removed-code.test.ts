/**
 * A test gone whose checks live on in part (compare.ts conservation) while
 * every check made nowhere depended on an export the change removed: those
 * checks went with the code they checked (feature_removal, medium), as a
 * test deleted with its code does (sweep of bitflags/bitflags 79225854ca:
 * `iter_named` became `iter_defined_names`, the new test keeps the length
 * and whole-sequence checks, the counts of `iter_named`'s filtered output
 * went with it). One lost check of surviving code keeps the high
 * assertion_removal.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

const LIB_BEFORE =
  "pub fn named(defs: &[(&str, u32)]) -> impl Iterator<Item = u32> + '_ {\n    defs.iter().filter(|d| !d.0.is_empty()).map(|d| d.1)\n}\n\npub fn count(defs: &[(&str, u32)]) -> usize {\n    defs.len()\n}\n";
const LIB_AFTER =
  "pub fn named_pairs<'a>(defs: &'a [(&'a str, u32)]) -> impl Iterator<Item = (&'a str, u32)> + 'a {\n    defs.iter().filter(|d| !d.0.is_empty()).copied()\n}\n\npub fn count(defs: &[(&str, u32)]) -> usize {\n    defs.len()\n}\n";
const DEFS = 'const DEFS: [(&str, u32); 3] = [("A", 1), ("", 8), ("B", 2)];\n';

const OLD_TEST = (extra: string): string =>
  `use flags::{count, named};\n\n${DEFS}\n#[test]\nfn lists_named() {\n    let all: Vec<u32> = named(&DEFS).collect();\n    let expected = vec![1, 2];\n    assert_eq!(count(&DEFS), 3);\n    assert_eq!(all, expected);\n    assert_eq!(named(&DEFS).filter(|b| *b > 1).count(), 1);\n${extra}}\n`;
const NEW_TEST = (whole: string): string =>
  `use flags::{count, named_pairs};\n\n${DEFS}\n#[test]\nfn lists_named_pairs() {\n    let all: Vec<(&str, u32)> = named_pairs(&DEFS).collect();\n    let expected = vec![("A", 1), ("B", 2)];\n    assert_eq!(count(&DEFS), 3);\n${whole}}\n`;
const KEPT = "    assert_eq!(all, expected);\n";
const CONTAINS = "    for flag in &expected {\n        assert!(all.contains(flag));\n    }\n";
const changes = (oldTest: string, newTest: string) => [change("src/lib.rs", LIB_BEFORE, LIB_AFTER), change("tests/named.rs", oldTest, null), change("tests/pairs.rs", null, newTest)];

describe("checks a test lost with the export they checked", () => {
  it("the whole output's equality lives on (adapted to the new function), the counts it implied went with the old one: feature_removal, medium", async () => {
    await expectFindings({
      name: "with its code",
      changes: changes(OLD_TEST(""), NEW_TEST(KEPT)),
      findings: ["feature_removal/medium src/lib.rs", 'feature_removal/medium tests/pairs.rs "lists_named"'],
    });
  });

  it("the whole output's equality replaced by contains checks: still an assertion_removal", async () => {
    await expectFindings({
      name: "order dropped",
      changes: changes(OLD_TEST(""), NEW_TEST(CONTAINS)),
      findings: ["feature_removal/medium src/lib.rs", 'assertion_removal/high tests/pairs.rs "lists_named"'],
    });
  });

  it("a lost check of surviving code keeps the assertion_removal", async () => {
    await expectFindings({
      name: "surviving code",
      changes: changes(OLD_TEST("    assert_eq!(count(&[]), 0);\n"), NEW_TEST(KEPT)),
      findings: ["feature_removal/medium src/lib.rs", 'assertion_removal/high tests/pairs.rs "lists_named"'],
    });
  });
});
