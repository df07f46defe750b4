/**
 * The rule families that run after test matching (DESIGN.md "Analysis"), as
 * registered rules (registry.ts {@link defineRule}), in the order they run:
 * feature_removal (which also takes over test deletions that went with the
 * code they tested), assertion_removal / assertion_weakening /
 * expectation_changed per surviving test, validation_bypass and
 * special_casing over non-test code, harness escapes, new swallowing
 * handlers, stateful answers and assertions shadowed by definitions that
 * cannot fail. compare.ts calls {@link applyRules} once
 * per diff.
 */

import type { Finding } from "../types.js";
import { assertionsRule } from "./assertions.js";
import type { RuleInput } from "./context.js";
import { featureRemovalRule } from "./features.js";
import { harnessEscapeRule } from "./harness-escape.js";
import type { Rule } from "./registry.js";
import { shadowedAssertionRule } from "./shadowed-assertions.js";
import { statefulAnswerRule } from "./stateful-answer.js";
import { swallowingRule } from "./swallowing.js";
import { specialCasingRule } from "./special-casing.js";
import { validationRule } from "./validation.js";

export type { ExercisingFile, MatchedTest, RuleInput, RulePair, TestMatchKind } from "./context.js";
export { tsconfigFindings } from "./validation.js";
export { defaultSeverityOf, FINDING_TYPE_TABLE, findingTypeSpec, isBlockingSeverity, report, reportedAs, SEVERITY_TABLE, type FindingTypeSpec, type Rule } from "./registry.js";

/** Every registered rule, in the order {@link applyRules} runs them (the order of their findings). */
export const RULES: readonly Rule<RuleInput>[] = [featureRemovalRule, assertionsRule, validationRule, specialCasingRule, harnessEscapeRule, swallowingRule, statefulAnswerRule, shadowedAssertionRule];

/**
 * The findings of test matching (`matchFindings`: test_deletion,
 * test_disabled) with deletions of tested code reclassified, followed by
 * every rule's findings.
 */
export function applyRules(matchFindings: readonly Finding[], input: RuleInput): Finding[] {
  return RULES.flatMap((rule) => rule.check({ input, matchFindings }));
}
