/**
 * One body over every tree-sitter language (STYLE.md §10): the shared rules
 * (test_deletion, test_disabled, moves and renames, renames out of
 * discovery, unparsable files) must behave the same whatever the syntax.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts, type Finding } from "../../../src/analysis/index.js";
import { LANGUAGE_CASES, type LanguageCase, type TestSpec } from "./cases.js";

const ADDS: TestSpec = { name: "adds", input: 2, expected: 4 };
const SUBTRACTS: TestSpec = { name: "subtracts", input: 3, expected: 1 };

/** Findings of one before/after pair of the language's test file, as [type, severity, test]. */
async function judge(language: LanguageCase, before: readonly TestSpec[] | string, after: readonly TestSpec[] | string | null): Promise<[string, string, string | undefined][]> {
  const render = (tests: readonly TestSpec[] | string): string => (typeof tests === "string" ? tests : language.render(tests));
  const analysis = await analyzeChanges([{ path: language.path, before: render(before), after: after === null ? null : render(after) }]);
  return analysis.findings.map((finding: Finding) => [finding.type, finding.severity, finding.test]);
}

describe.each(LANGUAGE_CASES.map((language) => [language.language, language] as const))("%s", (_id, language) => {
  it("sees both tests with their ids, lines and one assertion each", async () => {
    const facts = await extractFacts(language.path, language.render([ADDS, SUBTRACTS]));
    expect(facts.parseError).toBeUndefined();
    expect(facts.tests.map((test) => test.id)).toEqual([language.idOf("adds"), language.idOf("subtracts")]);
    expect(facts.tests.map((test) => test.assertionCount)).toEqual([1, 1]);
    expect(facts.tests[0]?.assertionsDetail?.[0]?.strength).toBe(3);
    expect(facts.tests.every((test) => test.line > 0 && !test.flags.skipped)).toBe(true);
  });

  it("deleting one of two tests is a critical test_deletion of that test", async () => {
    expect(await judge(language, [ADDS, SUBTRACTS], [ADDS])).toEqual([["test_deletion", "critical", language.idOf("subtracts")]]);
  });

  it("deleting the test file with its tests is a critical test_deletion (and a feature_removal of the code beside them)", async () => {
    const findings = await judge(language, [ADDS, SUBTRACTS], null);
    const removedCode: [string, string, undefined][] = language.isProductCode ? [["feature_removal", "medium", undefined]] : [];
    expect(findings).toEqual([["test_deletion", "critical", undefined], ...removedCode]);
  });

  it("adding tests while keeping the old ones finds nothing", async () => {
    expect(await judge(language, [ADDS], [ADDS, SUBTRACTS])).toEqual([]);
  });

  it("reordering tests finds nothing", async () => {
    expect(await judge(language, [ADDS, SUBTRACTS], [SUBTRACTS, ADDS])).toEqual([]);
  });

  it("renaming a test that is still collected finds nothing", async () => {
    expect(await judge(language, [ADDS, SUBTRACTS], [ADDS, { ...SUBTRACTS, name: "takes away" }])).toEqual([]);
  });

  it("skipping a test is a critical test_disabled", async () => {
    expect(await judge(language, [ADDS, SUBTRACTS], [ADDS, { ...SUBTRACTS, skip: "plain" }])).toEqual([["test_disabled", "critical", language.idOf("subtracts")]]);
  });

  it("a skip whose reason links an issue is medium", async () => {
    expect(await judge(language, [ADDS, SUBTRACTS], [ADDS, { ...SUBTRACTS, skip: "linked" }])).toEqual([["test_disabled", "medium", language.idOf("subtracts")]]);
  });

  it("a test that was already skipped and stays skipped finds nothing", async () => {
    expect(await judge(language, [ADDS, { ...SUBTRACTS, skip: "plain" }], [ADDS, { ...SUBTRACTS, skip: "linked" }])).toEqual([]);
  });

  it("taking a test out of discovery (same body, no longer collected) is a critical test_disabled", async () => {
    expect(await judge(language, [ADDS, SUBTRACTS], [ADDS, { ...SUBTRACTS, isDiscovered: false }])).toEqual([["test_disabled", "critical", language.idOf("subtracts")]]);
  });

  it.each([
    ["exact -> truthiness check", "exact", "truthy", [["assertion_weakening", "high"]]],
    ["exact -> tautology", "exact", "tautology", [["assertion_weakening", "high"]]],
    ["exact -> no check (the call stays)", "exact", "none", [["assertion_removal", "high"]]],
    ["an early return before the check", "exact", "returned", [["assertion_removal", "high"]]],
    ["truthiness check -> exact (strengthened)", "truthy", "exact", []],
    ["tautology -> exact", "tautology", "exact", []],
  ] as const)("assertions: %s", async (_title, from, to, expected) => {
    const findings = await judge(language, [ADDS, { ...SUBTRACTS, check: from }], [ADDS, { ...SUBTRACTS, check: to }]);
    expect(findings.map(([type, severity]) => [type, severity])).toEqual(expected);
    for (const [, , test] of findings) expect(test).toBe(language.idOf("subtracts"));
  });

  it("changing the expected value while the code under test did not change is expectation_changed", async () => {
    const findings = await judge(language, [ADDS, SUBTRACTS], [ADDS, { ...SUBTRACTS, expected: 7 }]);
    expect(findings).toEqual([["expectation_changed", "medium", language.idOf("subtracts")]]);
  });

  it("an unparsable after side never throws and accounts for the lost tests as high", async () => {
    const facts = await extractFacts(language.path, language.garbage);
    expect(facts.tests).toEqual([]);
    const findings = await judge(language, [ADDS, SUBTRACTS], language.garbage);
    expect(findings.map(([type, severity]) => [type, severity])).toEqual([["test_deletion", "high"]]);
  });
});
