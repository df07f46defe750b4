/**
 * Error checks flipped together with the code that raises the error
 * (class error-check-flipped-with-fix; sweep of sindresorhus/meow
 * c3bf62bf28). A test that pinned a bug (`t.throws(() => meow({…choices:
 * [1, 2, 3], default: 1…}), {message: "Each value of the option `default`
 * must exist within the option `choices`…"})`: a valid default was refused)
 * becomes, with the fix that inverts the validator, `t.notThrows` on the
 * same call (its inputs kept, others added), and a new test throws on an
 * invalid default. The expectation changed because the product's decision
 * changed: validation.ts {@link changedRefusals} finds the refusal still
 * raised with its message while the change rewrote what decides it. Such a
 * check is reported as expectation_changed (medium), not as a deleted test
 * or a weakened check.
 *
 * The flip counts only on the same call (the same callee, every literal
 * the old check passed still passed) and only when the old check's
 * message (or its specific error class) is one of the redecided refusal's.
 * The same flip while the refusal's code stayed as it was, or with the
 * refusal removed (no longer raised at all), stays what it was.
 */

import { isSameCall } from "../checks/calls.js";
import { checkedTest, type Check } from "../checks/index.js";
import type { Finding } from "../types.js";
import { usable, type RuleInput } from "./context.js";
import type { RuleMeta } from "./registry.js";
import { rereport } from "./registry.js";
import { changedRefusals, type RedecidedRefusal } from "./validation.js";

/** The placeholder messageOf (validation.ts) leaves where a message interpolates a value. */
const PLACEHOLDER = "\uFFFC";

/** Error classes too general to name a refusal by themselves. */
const GENERIC_CLASSES: ReadonlySet<string> = new Set(["Error", "Exception", "RuntimeError", "StandardError", "Throwable", "BaseException"]);

/** The literal text of a quoted canonical string, else null. */
function stringValue(text: string | undefined): string | null {
  if (text === undefined) return null;
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
  return quoted ? (quoted[2] as string) : null;
}

/**
 * True when `text` holds one message of the refusal: its literal parts (3+
 * characters) in order, anything where it interpolated a value; whitespace
 * left out on both sides (canonical text drops it around punctuation).
 */
function holdsMessage(text: string, refusal: RedecidedRefusal): boolean {
  const squeezed = text.replace(/\s+/g, "");
  return refusal.messages.some((message) => {
    const parts = message
      .split(PLACEHOLDER)
      .map((part) => part.replace(/\\(.)/g, "$1").replace(/\s+/g, ""))
      .filter((part) => part.length >= 3);
    if (parts.join("").length < 12) return false;
    return new RegExp(parts.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*?")).test(squeezed);
  });
}

/**
 * True when `lost` (a check that a call throws) and `now` (a check that the
 * same call does not throw) are the flip a fix of one of `refusals` explains
 * (see the module comment). Where a framework names no call (`assertThrows(E.class, () -> …)`,
 * RSpec's `expect { … }`), `isSameTest` says whether the two checks are one
 * assertion of one test edited in place with its inputs kept: the call is then taken as the same.
 */
export function isFlippedWithFix(lost: Check, now: Check, refusals: readonly RedecidedRefusal[], isSameTest = false): boolean {
  if (lost.relation !== "throws" || lost.isNegated || now.relation !== "throws" || !now.isNegated) return false;
  const isUnnamed = lost.subject === "" || now.subject === "";
  if (isUnnamed ? !isSameTest : !isSameCall(lost.subject, now.subject)) return false;
  const message = stringValue(lost.message);
  const errorClass = lost.errorType?.replace(/^.*[.:\\]/, "");
  // By its message where both sides state one; else by a specific error class (Ruby's `raise Klass, "m"` records the class alone).
  const isOfClass = (refusal: RedecidedRefusal): boolean => errorClass !== undefined && !GENERIC_CLASSES.has(errorClass) && refusal.errorClass.replace(/^.*[.:\\]/, "") === errorClass;
  return refusals.some((refusal) => (message !== null && refusal.messages.length > 0 ? holdsMessage(message, refusal) : isOfClass(refusal)));
}

/**
 * True when `lost`, a check that a call throws with a message of one of
 * `refusals` (a guard the change kept but decides differently), is made
 * again by `now` without the message: the same call (the same callee,
 * every literal kept) still expected to throw, whatever it throws (the
 * sweep of ai/nanoid a6a94d3f8d: `throws(() => token(1025), /Wrong token
 * size/)` as `throws(() => token(1025))` once the size limit is left to
 * the platform call that fails on it). The refusal no longer raises that
 * message for the input, and the failure is still pinned; a message of a
 * refusal the change did not redecide, or no check that the call throws,
 * is no such check.
 */
export function isRethrownWithoutMessage(lost: Check, now: Check, refusals: readonly RedecidedRefusal[]): boolean {
  if (lost.relation !== "throws" || lost.isNegated || now.relation !== "throws" || now.isNegated || now.message !== undefined) return false;
  if (lost.subject === "" || !isSameCall(lost.subject, now.subject)) return false;
  const message = stringValue(lost.message) ?? /^\/(.*)\/[a-z]*$/.exec(lost.message ?? "")?.[1] ?? null;
  return message !== null && refusals.some((refusal) => holdsMessage(message, refusal));
}

/**
 * A reader of the change's redecided refusals, read once on first use (an
 * ordinary change never pays for it): `isFlip(was, now)` for two assertion
 * facts of a surviving test, `refusals()` for the list, `isRethrown(was)`
 * for a lost check some test of the change makes again without its
 * message ({@link isRethrownWithoutMessage}).
 */
export function flipJudge(input: RuleInput): {
  refusals: () => readonly RedecidedRefusal[];
  isFlip: (was: Check, now: Check, isSameTest?: boolean) => boolean;
  isRethrown: (was: Check) => boolean;
} {
  let refusals: RedecidedRefusal[] | null = null;
  let after: ReturnType<typeof afterChecks> | null = null;
  const read = (): readonly RedecidedRefusal[] => (refusals ??= changedRefusals(input.pairs));
  return {
    refusals: read,
    isFlip: (was, now, isSameTest = false) => was.relation === "throws" && now.relation === "throws" && now.isNegated && read().length > 0 && isFlippedWithFix(was, now, read(), isSameTest),
    isRethrown: (was) =>
      was.relation === "throws" &&
      !was.isNegated &&
      was.message !== undefined &&
      read().length > 0 &&
      (after ??= afterChecks(input)).some((candidate) => isRethrownWithoutMessage(was, candidate.check, read())),
  };
}

/** The checks of every test on the after side of the change's test files (read once, when a deleted test is judged). */
function afterChecks(input: RuleInput): { check: Check; file: string; test: string }[] {
  return input.pairs.flatMap((pair) => {
    const facts = usable(pair.after);
    if (!facts?.isTestFile) return [];
    return facts.tests.flatMap((test) => checkedTest(pair.path, test, facts).checks.map((check) => ({ check, file: pair.path, test: test.id })));
  });
}

/**
 * The test_deletion findings whose every lost test checked only errors that
 * a test after the change expects not to be raised on the same calls, with
 * the refusal raising them redecided by the change (see the module
 * comment), rewritten through `rule`'s `messageId` (data: test, path,
 * flipped); other findings as they are.
 */
export function flipErrorChecks<Ids extends string>(findings: readonly Finding[], input: RuleInput, rule: RuleMeta<Ids>, messageId: Ids): Finding[] {
  const judge = flipJudge(input);
  let after: ReturnType<typeof afterChecks> | null = null;
  return findings.map((finding) => {
    if (finding.type !== "test_deletion" || finding.severity === "low" || finding.test === undefined) return finding;
    const path = finding.before_file ?? finding.file;
    const pair = input.pairs.find((candidate) => candidate.path === path);
    const facts = pair ? usable(pair.before) : null;
    const test = facts?.tests.find((candidate) => candidate.id === finding.test && (finding.before_line == null || candidate.line === finding.before_line));
    if (!facts || !test) return finding;
    const checks = checkedTest(path, test, facts).checks;
    if (checks.length === 0 || !checks.every((check) => check.relation === "throws" && !check.isNegated) || judge.refusals().length === 0) return finding;
    after ??= afterChecks(input);
    const flips = checks.map((check) => after?.find((candidate) => judge.isFlip(check, candidate.check)));
    if (flips.some((flip) => flip === undefined)) return finding;
    const flipped = [...new Set(flips.map((flip) => `"${flip?.test}" in ${flip?.file}`))].join(", ");
    return rereport(finding, rule, messageId, { test: finding.test, path, flipped }, { evidence: { ...finding.evidence, flipped_by: flipped, reclassified_from: "test_deletion" } });
  });
}
