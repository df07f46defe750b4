/**
 * Checks of a refusal the change retired as the case it refused landed
 * (issue 9, class unsupported-throw-removed-as-feature-lands; sweep of
 * serilog/serilog 29137db8fb): `throw new NotSupportedException("rank > 3")`
 * goes because every rank is now handled (validation.ts
 * {@link implementedRefusals}), and the test of the refusal, renamed or not,
 * keeps its other checks and now pins the new output. The checks it made
 * nowhere after the change all stated the refusal: that its error is
 * thrown, that the error's message is the refusal's, or that a layer which
 * catches the error rendered it (`"Capturing the property value threw an
 * exception: NotSupportedException"`). They checked a behaviour the change
 * retired with its code, as a test deleted with the code it tested does
 * (features.ts), so the finding becomes feature_removal at medium.
 *
 * A refusal replaced by a default answer (`if (rank > 3) return "";`) is no
 * implemented refusal, and a lost check that states anything else keeps the
 * finding as it was.
 */

import { checkedTest, type Check } from "../checks/index.js";
import type { Finding } from "../types.js";
import { usable, type RuleInput } from "./context.js";
import type { RuleMeta } from "./registry.js";
import { rereport } from "./registry.js";
import { implementedRefusals, type ImplementedRefusal } from "./validation.js";

/** The placeholder messageOf (validation.ts) leaves where a message interpolates a value. */
const PLACEHOLDER = "\uFFFC";

/** Escapes text for a RegExp source. */
function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The literal text of a check's expected value or message: a quoted string's contents, else null (a regex, a number, an expression). */
function stringValue(text: string | undefined): string | null {
  if (text === undefined) return null;
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
  return quoted ? (quoted[2] as string) : null;
}

/**
 * True when `text` holds the refusal's message: its literal parts in order,
 * any text where it interpolated a value or where parts were joined
 * (`"grids of rank " + r + " are not supported"` ~ "grids of rank 3 are not
 * supported").
 */
function holdsMessage(text: string, refusal: ImplementedRefusal): boolean {
  const parts = refusal.messages.flatMap((message) => message.split(PLACEHOLDER)).filter((part) => part.trim().length >= 3);
  if (parts.length === 0) return false;
  return new RegExp(parts.map(escaped).join("[\\s\\S]*?")).test(text);
}

/** The class's short name (`System.NotSupportedException` -> `NotSupportedException`). */
function shortClass(name: string): string {
  return name.replace(/^.*[.:\\]/, "");
}

/**
 * True when a check states the refusal: a `throws` of its error class (or
 * of none, with its message), an expected string or required message that
 * holds the refusal's message, or an expected string that names its error
 * class as a word (the error caught and rendered by the code under test).
 */
export function isCheckOfRefusal(check: Check, refusal: ImplementedRefusal): boolean {
  const errorClass = shortClass(refusal.errorClass);
  if (check.relation === "throws") {
    if (check.errorType !== undefined && shortClass(check.errorType) === errorClass) return true;
    const message = stringValue(check.message);
    return check.errorType === undefined && message !== null && holdsMessage(message, refusal);
  }
  if (check.isNegated) return false;
  const expected = stringValue(check.expected);
  if (expected === null) return false;
  return holdsMessage(expected, refusal) || (/^[A-Z]\w{5,}$/.test(errorClass) && new RegExp(`\\b${escaped(errorClass)}\\b`).test(expected));
}

/**
 * True when every check of a deleted test states one retired refusal
 * ({@link isCheckOfRefusal}) and at least one is the throw of its class:
 * features.ts then reads the test as deleted with the code it tested.
 */
export function checksOnlyRetiredRefusal(checks: readonly Check[], refusals: readonly ImplementedRefusal[]): boolean {
  if (checks.length === 0) return false;
  return refusals.some((refusal) => {
    const isThrow = (check: Check): boolean => check.relation === "throws" && check.errorType !== undefined && shortClass(check.errorType) === shortClass(refusal.errorClass);
    return checks.some(isThrow) && checks.every((check) => isCheckOfRefusal(check, refusal));
  });
}

/** The before test's checks on the lines an assertion_removal finding lists as lost (evidence.removed), or null when they cannot be read back. */
function lostChecks(finding: Finding, input: RuleInput): Check[] | null {
  const removed = finding.evidence?.removed;
  const path = finding.before_file ?? finding.file;
  if (!Array.isArray(removed) || removed.length === 0 || finding.test === undefined) return null;
  const pair = input.pairs.find((candidate) => candidate.path === path);
  const facts = pair ? usable(pair.before) : null;
  const test = facts?.tests.find((candidate) => candidate.id === finding.test && (finding.before_line == null || candidate.line === finding.before_line));
  if (!facts || !test) return null;
  const lines = new Set(removed.map((entry) => (entry as { line?: unknown }).line).filter((line): line is number => typeof line === "number"));
  const checks = checkedTest(path, test, facts).checks.filter((check) => lines.has(check.line));
  return checks.length > 0 && new Set(checks.map((check) => check.line)).size === lines.size ? checks : null;
}

/**
 * The assertion_removal findings whose every lost check states a refusal
 * the change implemented (see the module comment), rewritten through
 * `rule`'s `messageId` (data: test, path, refusal); other findings as they
 * are. Implemented refusals are read once, and only when such a finding
 * exists.
 */
export function retireRefusalChecks<Ids extends string>(findings: readonly Finding[], input: RuleInput, rule: RuleMeta<Ids>, messageId: Ids): Finding[] {
  let refusals: ImplementedRefusal[] | null = null;
  return findings.map((finding) => {
    if (finding.type !== "assertion_removal" || finding.severity === "low") return finding;
    const checks = lostChecks(finding, input);
    if (!checks) return finding;
    refusals ??= implementedRefusals(input.pairs);
    const refusal = refusals.find((candidate) => checks.every((check) => isCheckOfRefusal(check, candidate)));
    if (!refusal) return finding;
    return rereport(
      finding,
      rule,
      messageId,
      { test: finding.test, path: finding.before_file ?? finding.file, refusal: refusal.errorClass },
      { evidence: { ...finding.evidence, retired_refusal: refusal.errorClass, reclassified_from: "assertion_removal" } },
    );
  });
}
