/**
 * A Rust test compiled only under a Cargo feature that the change takes out
 * of its Cargo.toml can no longer be built: its deletion goes with the
 * feature, feature_removal at medium (dropped-dependencies.ts
 * droppedCargoFeatures, rules/features.ts; sweep of servo/rust-smallvec
 * 5522939 and its revert 390bd7c: `drain_keep_rest = ["drain_filter"]`
 * removed with `DrainFilter::keep_rest` and the test gated on it). A test
 * that still compiles in some build (the feature kept, another feature of
 * an `any`, a `not(feature)` gate) is still a deletion. The product
 * method stays in each case, so the feature alone decides.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const cargo = (features: string, dependencies = ""): string => `[package]\nname = "smallvec"\nversion = "2.0.0"\n\n[features]\nwrite = []\n${features}\n[dependencies]\n${dependencies}`;
const lib = (extra: string): string => `pub struct SmallVec;\n\nimpl SmallVec {\n    pub fn len(&self) -> usize { 0 }\n${extra}}\n`;
const tests = (gated: string): string => `use crate::SmallVec;\n\n#[test]\nfn len_of_empty() {\n    assert_eq!(SmallVec.len(), 0);\n}\n${gated}`;
const gatedTest = (cfg: string): string => `\n#[cfg(${cfg})]\n#[test]\nfn keep_rest() {\n    let mut a = SmallVec;\n    a.keep_rest();\n    assert_eq!(a.len(), 0);\n}\n`;
const KEEP_REST = `    #[cfg(feature = "drain_keep_rest")]\n    pub fn keep_rest(&mut self) {}\n`;
const deleted = (cfg: string, featuresBefore: string, featuresAfter: string, dependencies: [string, string] = ["", ""]): RuleCase["changes"] => [
  change("Cargo.toml", cargo(featuresBefore, dependencies[0]), cargo(featuresAfter, dependencies[1])),
  change("src/lib.rs", lib(KEEP_REST), lib(KEEP_REST)),
  change("src/tests.rs", tests(gatedTest(cfg)), tests("")),
];
const withCode = `feature_removal/medium src/tests.rs "keep_rest"`;
const deletion = `test_deletion/critical src/tests.rs "keep_rest"`;

const cases: RuleCase[] = [
  { name: "the feature gating the test dropped", changes: deleted(`feature = "drain_keep_rest"`, `drain_keep_rest = []\n`, ""), findings: [withCode] },
  { name: "one required feature of an all() dropped", changes: deleted(`all(feature = "drain_keep_rest", feature = "write")`, `drain_keep_rest = []\n`, ""), findings: [withCode] },
  {
    name: "an optional dependency (an implicit feature) dropped",
    changes: deleted(`feature = "serde"`, "", "", [`serde = { version = "1", optional = true }\n`, ""]),
    findings: [withCode],
  },
  {
    name: "every feature of an any() dropped",
    changes: deleted(`any(feature = "drain_keep_rest", feature = "drain_filter")`, `drain_filter = []\ndrain_keep_rest = ["drain_filter"]\n`, ""),
    findings: [withCode],
  },
  { name: "cheat: the feature kept", changes: deleted(`feature = "drain_keep_rest"`, `drain_keep_rest = []\n`, `drain_keep_rest = []\n`), findings: [deletion] },
  { name: "cheat: another feature of an any() kept", changes: deleted(`any(feature = "drain_keep_rest", feature = "write")`, `drain_keep_rest = []\n`, ""), findings: [deletion] },
  { name: "cheat: a not(feature) gate, which the dropped feature leaves compiled", changes: deleted(`not(feature = "drain_keep_rest")`, `drain_keep_rest = []\n`, ""), findings: [deletion] },
  {
    name: "an optional dependency made required: a required one is no feature, the gated test compiles nowhere",
    changes: deleted(`feature = "serde"`, "", "", [`serde = { version = "1", optional = true }\n`, `serde = { version = "1" }\n`]),
    findings: [withCode],
  },
  {
    name: "cheat: an optional dependency kept optional, named by an explicit feature",
    changes: deleted(`feature = "serde"`, "", `serde = ["dep:serde"]\n`, [`serde = { version = "1", optional = true }\n`, `serde = { version = "1", optional = true }\n`]),
    findings: [deletion],
  },
];

describe("a test deleted with the Cargo feature it was compiled under", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
