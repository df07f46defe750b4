/**
 * The rule families that run after test matching (DESIGN.md "Analysis"):
 * assertion_removal / assertion_weakening / expectation_changed per
 * surviving test, validation_bypass and special_casing over non-test code,
 * and feature_removal (which also takes over test deletions that went with
 * the code they tested). compare.ts calls {@link applyRules} once per diff.
 */

import type { Finding } from "../types.js";
import { assertionFindings } from "./assertions.js";
import type { RuleInput } from "./context.js";
import { featureFindings } from "./features.js";
import { harnessEscapeFindings } from "./harness-escape.js";
import { statefulAnswerFindings } from "./stateful-answer.js";
import { swallowingFindings } from "./swallowing.js";
import { specialCasingFindings } from "./special-casing.js";
import { validationFindings } from "./validation.js";

export type { ExercisingFile, MatchedTest, RuleInput, RulePair, TestMatchKind } from "./context.js";
export { tsconfigFindings } from "./validation.js";

/**
 * The findings of test matching (`matchFindings`: test_deletion,
 * test_disabled) with deletions of tested code reclassified, followed by
 * every rule family's findings.
 */
export function applyRules(matchFindings: readonly Finding[], input: RuleInput): Finding[] {
  return [
    ...featureFindings(matchFindings, input),
    ...assertionFindings(input),
    ...validationFindings(input),
    ...specialCasingFindings(input),
    ...harnessEscapeFindings(input),
    ...swallowingFindings(input),
    ...statefulAnswerFindings(input),
  ];
}
