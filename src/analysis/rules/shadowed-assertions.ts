/**
 * Shadowed assertions: test code gains a definition that takes the name of
 * the framework's own assertion where the tests resolve it (a
 * `macro_rules! assert_eq` in a Rust test module, a C# `Assert` class in the
 * tests' namespace, a PHPUnit or unittest base class overriding
 * `assertEquals`/`assertEqual`, a JUnit test class's own `assertEquals`,
 * Ruby redefining `assert_equal`, `expect.extend` replacing a built-in
 * matcher; analysis/assertion-shadows.ts), and that definition cannot fail
 * on the values it is given. Every call of that name in the tests then
 * checks nothing, while each test still shows the same assertions: the
 * matcher has been downgraded to none (DESIGN.md's assertion_weakening row),
 * reported high on the definition.
 *
 * A shadow that can still fail (it normalises the values and delegates to
 * the framework, or raises when they differ) is no finding; so is a
 * non-failing shadow that was already there before the change, one in
 * product code (an assertion library's own `Assert` class), and one in a
 * fixture or test-data folder (material for tests, not test code).
 */

import type { AssertionShadowFact } from "../facts.js";
import type { Finding } from "../types.js";
import { isInlineTestedProductCode, isTestPair, isTestSupportPath, multisetMinus, usable, type RuleInput } from "./context.js";
import { defineRule, report } from "./registry.js";

/** Rule id (evidence.rule). */
export const SHADOWED_ASSERTION_RULE = "shadowed_assertion";

const shadowKey = (fact: AssertionShadowFact): string => `${fact.name}\u0000${fact.canFail ? "fails" : "void"}`;

/**
 * Findings for the changed test-side files (test files, and product files
 * with inline tests) whose after side holds a shadow that cannot fail and
 * that the before side did not (by name and verdict, as a multiset); none
 * when either side's facts are unusable.
 */
export function shadowedAssertionFindings(input: RuleInput): Finding[] {
  const findings: Finding[] = [];
  for (const pair of input.pairs) {
    if (!(isTestPair(pair) || isInlineTestedProductCode(pair)) || isTestSupportPath(pair.path)) continue;
    if (pair.before !== null && usable(pair.before) === null) continue;
    const after = usable(pair.after)?.assertionShadows ?? [];
    const added = multisetMinus(after, usable(pair.before)?.assertionShadows ?? [], shadowKey);
    for (const fact of added) {
      if (fact.canFail) continue;
      findings.push(
        report(
          shadowedAssertionRule,
          "voidShadow",
          { name: fact.name, path: pair.path, reason: fact.reason ?? "nothing in it can fail" },
          { file: pair.path, line: fact.line, evidence: { rule: SHADOWED_ASSERTION_RULE, name: fact.name, ...(fact.reason ? { reason: fact.reason } : {}) } },
        ),
      );
    }
  }
  return findings;
}

/** The shadowed-assertion rule (see the module comment): assertion_weakening, high. */
export const shadowedAssertionRule = defineRule({
  id: "shadowed-assertion",
  type: "assertion_weakening",
  defaultSeverity: "high",
  description: "Test code now defines a framework assertion's name (assert_eq!, Assert.Equal, assertEquals, assert_equal, a built-in matcher) with a body that cannot fail.",
  messages: {
    voidShadow: "{{path}} now defines `{{name}}` where the tests resolve the framework's, and it cannot fail on its values ({{reason}}): every `{{name}}` in those tests checks nothing",
  },
  check: ({ input }: { input: RuleInput }) => shadowedAssertionFindings(input),
});
