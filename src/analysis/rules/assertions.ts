/**
 * The assertion rules, per surviving test (matched by id, or by compare.ts's
 * move/rename matching): assertion_removal, assertion_weakening and
 * expectation_changed. Language-neutral: they read `assertionsDetail`
 * (facts.ts AssertionFact) and fall back to `assertionCount` when a
 * language does not fill the details.
 *
 * Assertions of the two sides are paired so an assertion added in the
 * middle does not shift the rest: first identical assertions (wherever they
 * moved), then, in order, a longest common subsequence of assertions on the
 * same value under test, then of the same matcher, then whatever is left
 * positionally between those anchors.
 */

import { displayCode } from "../display.js";
import {
  checkedTest,
  findInlinedCover,
  helperArmLiterals,
  helperCheckParts,
  helperSinkLiterals,
  isCheckConserved,
  conjunctFacts,
  removedDeclarations,
  toCheck,
  type Check,
  type CheckedTest,
} from "../checks/index.js";
import type { AssertionFact, TestCase } from "../facts.js";
import type { Finding } from "../types.js";
import { hasCodeUnderTestChanged, multisetMinus, resolveImport, type MatchedTest, type RuleInput } from "./context.js";
import { defineRule, report } from "./registry.js";
import { impliedByWhole } from "../checks/implied.js";

/** The outcome of {@link pairAssertions}: index pairs (before, after), and the unpaired indexes of each side. */
export interface AssertionPairing {
  pairs: [number, number][];
  removed: number[];
  added: number[];
}

/** Index pairs of a longest common subsequence of `a` and `b` under `isSame`. */
function longestCommon<T>(a: readonly T[], b: readonly T[], isSame: (x: T, y: T) => boolean): [number, number][] {
  const rows = a.length;
  const cols = b.length;
  const table: number[][] = Array.from({ length: rows + 1 }, () => new Array<number>(cols + 1).fill(0));
  for (let i = rows - 1; i >= 0; i--) {
    const row = table[i] as number[];
    const below = table[i + 1] as number[];
    for (let j = cols - 1; j >= 0; j--) {
      row[j] = isSame(a[i] as T, b[j] as T) ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < rows && j < cols) {
    if (isSame(a[i] as T, b[j] as T)) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if ((table[i + 1]?.[j] ?? 0) >= (table[i]?.[j + 1] ?? 0)) {
      i++;
    } else {
      j++;
    }
  }
  return pairs;
}

const signature = (fact: AssertionFact): string => [fact.matcher, fact.actual ?? "", fact.expected ?? "", fact.negated ? "!" : "", fact.unreachable ? "x" : ""].join("\u0000");

/** Equality levels used one after another inside the gaps left by the stricter one. */
const LEVELS: readonly ((a: AssertionFact, b: AssertionFact) => boolean)[] = [
  (a, b) => signature(a) === signature(b),
  (a, b) => a.actual !== undefined && a.actual === b.actual,
  (a, b) => a.matcher === b.matcher,
  () => true,
];

/**
 * Pairs the assertions of two versions of one test in order (see the module
 * comment). Unpaired before assertions were removed; unpaired after ones were added.
 */
export function pairAssertions(before: readonly AssertionFact[], after: readonly AssertionFact[]): AssertionPairing {
  const pairs: [number, number][] = [];
  const pairWithin = (beforeIdx: number[], afterIdx: number[], level: number): void => {
    if (beforeIdx.length === 0 || afterIdx.length === 0 || level >= LEVELS.length) return;
    const isSame = LEVELS[level] as (a: AssertionFact, b: AssertionFact) => boolean;
    const anchors = longestCommon(beforeIdx, afterIdx, (x, y) => isSame(before[x] as AssertionFact, after[y] as AssertionFact));
    let lastB = 0;
    let lastA = 0;
    for (const [bi, ai] of anchors) {
      pairWithin(beforeIdx.slice(lastB, bi), afterIdx.slice(lastA, ai), level + 1);
      pairs.push([beforeIdx[bi] as number, afterIdx[ai] as number]);
      lastB = bi + 1;
      lastA = ai + 1;
    }
    pairWithin(beforeIdx.slice(lastB), afterIdx.slice(lastA), level + 1);
  };
  // Moved assertions: an identical assertion elsewhere in the body is the same check, reordered; first one that runs in
  // the same branches (AssertionFact.conditions), so a copy in the other arm of an `if` is paired last.
  const pairedBefore = new Set<number>();
  const pairedAfter = new Set<number>();
  const branchesOf = (fact: AssertionFact): string => (fact.conditions ?? []).join("\u0001");
  for (const key of [(fact: AssertionFact): string => `${signature(fact)}\u0002${branchesOf(fact)}`, signature]) {
    const unpairedAfter = new Map<string, number[]>();
    after.forEach((fact, i) => {
      if (pairedAfter.has(i)) return;
      const list = unpairedAfter.get(key(fact)) ?? [];
      list.push(i);
      unpairedAfter.set(key(fact), list);
    });
    before.forEach((fact, i) => {
      if (pairedBefore.has(i)) return;
      const match = unpairedAfter.get(key(fact))?.shift();
      if (match === undefined) return;
      pairs.push([i, match]);
      pairedBefore.add(i);
      pairedAfter.add(match);
    });
  }
  pairWithin(
    before.map((_, i) => i).filter((i) => !pairedBefore.has(i)),
    after.map((_, i) => i).filter((i) => !pairedAfter.has(i)),
    1,
  );
  pairs.sort((x, y) => x[0] - y[0]);
  for (const [b, a] of pairs) {
    pairedBefore.add(b);
    pairedAfter.add(a);
  }
  return {
    pairs,
    removed: before.map((_, i) => i).filter((i) => !pairedBefore.has(i)),
    added: after.map((_, i) => i).filter((i) => !pairedAfter.has(i)),
  };
}

/**
 * An assertion (one conjunct of it: analysis/checks conjunctFacts) as its
 * check `check`, as a fact: matcher = the relation (`equal`, `contains`, …
 * with `not ` when negated), actual and expected in canonical text,
 * strength from the one table; line, tautology and reachability kept.
 */
function asCheckFact(fact: AssertionFact, check: Check): AssertionFact {
  const normalised: AssertionFact = {
    line: fact.line,
    matcher: `${check.isNegated ? "not " : ""}${check.relation === "helper" ? fact.matcher : check.relation}`,
    strength: check.strength,
    tautology: check.isTautology,
    actual: check.subject,
  };
  if (check.expected !== undefined) normalised.expected = check.expected;
  if (check.isNegated) normalised.negated = true;
  if (fact.unreachable) normalised.unreachable = true;
  if (fact.gated) normalised.gated = true;
  if (fact.conditions) normalised.conditions = fact.conditions;
  return normalised;
}

/** Relations of a check that pins its subject to a value (normalised matchers), with how tightly: an equality, a null/undefined/None check (one value), a true/false check; a length check pins the subject's length only. */
const VALUE_PIN_STRENGTH: ReadonlyMap<string, number> = new Map([
  ["equal", 3],
  ["nullish", 3],
  ["truthy", 1],
  ["falsy", 1],
  ["length", 3],
]);

/**
 * The after assertion that still pins, in every environment `lost` ran in,
 * the value `lost` pinned there, to another expected value (the expectations
 * of two branches unified: `if (isWindows) { t.is(code, "EPERM") } else {
 * t.is(code, undefined) }` -> `t.is(code, undefined)`), or null. `lost` (a
 * normalised fact) ran in a branch (AssertionFact.conditions); `now` checks
 * the same subject with a value relation ({@link VALUE_PIN_STRENGTH}: an
 * equality for a null check, true for false, a length for a length or an
 * equality for a length) at least as tightly, neither
 * negated, and runs under no condition `lost` did not also run under (none,
 * or a subset of its conditions). A check kept only under the other branch's
 * condition, or a subject no longer checked, is no such assertion.
 */
export function reExpectation(lost: AssertionFact, after: readonly AssertionFact[]): AssertionFact | null {
  const conditions = lost.conditions ?? [];
  const was = valuePin(lost);
  if (conditions.length === 0 || was === null) return null;
  return (
    after.find((now) => {
      const pin = valuePin(now);
      if (pin === null || pin.strength < was.strength || now.tautology || now.unreachable || now.gated || pin.subject !== was.subject) return false;
      // A length pins the length only: it re-expects a length, never the value.
      if (now.matcher === "length" && lost.matcher !== "length") return false;
      return (now.conditions ?? []).every((condition) => conditions.includes(condition));
    }) ?? null
  );
}

/** A subject negated as a whole (`!res.terminated`, `!(a.b)`): `!` before one operand, no operator after it. */
const NEGATED_OPERAND = /^!(\(?[^&|=<>!?:+*/%^\s]+\)?)$/;

/**
 * The subject a normalised fact pins to a value, and how tightly
 * ({@link VALUE_PIN_STRENGTH}), or null for any other check. A negated
 * truthiness check is one of falsiness and a truthiness check of `!x` one of
 * `x` (`assert not r.ok`, `assert!(!r.ok)`). An equality of the subject
 * pins its length too.
 */
function valuePin(fact: AssertionFact): { subject: string; strength: number } | null {
  if (fact.actual === undefined) return null;
  const matcher = fact.matcher.replace(/^not (truthy|falsy)$/, (_, relation: string) => (relation === "truthy" ? "falsy" : "truthy"));
  const strength = VALUE_PIN_STRENGTH.get(matcher);
  if (strength === undefined) return null;
  const negated = strength === 1 ? NEGATED_OPERAND.exec(fact.actual) : null;
  return { subject: negated ? (negated[1] as string).replace(/^\((.*)\)$/, "$1") : fact.actual, strength };
}

/** An assertion as a person would write it: `expect(x).toBe(1)` for expect-style matchers, else `assert.equal(x, 1)`. */
function describeFact(fact: AssertionFact): string {
  if (/^((not|resolves|rejects)\.)*to[A-Z]/.test(fact.matcher)) {
    const actual = fact.actual === undefined ? "" : `expect(${displayCode(fact.actual)}).`;
    return `${actual}${fact.matcher}(${displayCode(fact.expected ?? "")})`.slice(0, 160);
  }
  const args = [fact.actual, fact.expected].filter((arg): arg is string => arg !== undefined).map(displayCode);
  return `${fact.matcher}(${args.join(", ")})`.slice(0, 160);
}

/** Assertions that check an error is thrown or a promise rejects (any language's spelling). */
const THROWS_MATCHER = /(^|\.)(toThrow\w*|throws\w*|rejects\w*|assertRaises|raises|assertThrows|expectThrows|should_panic|toThrowError)$/i;

/**
 * True when `now` checks for an error where `was` checked a value: the
 * behaviour under test changed (a function that returned now throws), which
 * is not a weaker check of the same thing, provided `now` names what it expects.
 */
function isNewErrorCheck(was: AssertionFact, now: AssertionFact): boolean {
  return THROWS_MATCHER.test(now.matcher) && !THROWS_MATCHER.test(was.matcher) && now.strength >= 2;
}

/**
 * True when an error check (`throws`/`warns`, expected `type|message`) kept
 * every part it pinned and pins one more (`pytest.raises(ValueError)` ->
 * `pytest.raises(ValueError, match="bad")`): a stronger check of the same
 * failure, not another expected value.
 */
function isErrorCheckPinnedFurther(was: AssertionFact, now: AssertionFact): boolean {
  if (!/^(?:not )?(?:throws|warns)$/.test(was.matcher) || was.expected === undefined || now.expected === undefined) return false;
  const parts = (expected: string): [string, string] => {
    const bar = expected.indexOf("|");
    return bar === -1 ? [expected, ""] : [expected.slice(0, bar), expected.slice(bar + 1)];
  };
  const [wasType, wasMessage] = parts(was.expected);
  const [nowType, nowMessage] = parts(now.expected);
  return (wasType === "" || wasType === nowType) && (wasMessage === "" || wasMessage === nowMessage);
}

function baseFinding(test: MatchedTest): Pick<Finding, "file" | "line" | "before_file" | "before_line" | "test"> {
  return {
    file: test.afterFile,
    line: test.after.line,
    before_file: test.beforeFile,
    before_line: test.before.line,
    test: test.after.id,
  };
}

/**
 * True when some assertion of the after side checks, at least as strictly,
 * a value that contains the lost one's: `expect(issue).toMatchInlineSnapshot()`
 * covers `expect(issue.code).toBe(…)`; `expect(obj).toEqual({…})` covers `expect(obj.a).toBe(1)`.
 */
function isCoveredByWholerCheck(lost: AssertionFact, after: readonly AssertionFact[], lostCheck?: Check, afterChecks?: ReadonlyMap<AssertionFact, Check>): boolean {
  const actual = lost.actual;
  if (actual === undefined) return false;
  return after.some((fact) => {
    if (fact.tautology || fact.unreachable || fact.negated || fact.actual === undefined || fact.strength < Math.max(lost.strength, 3)) return false;
    if (fact.actual === actual) return false; // the same value: pairing already judged it
    const whole = afterChecks?.get(fact);
    const isPart = (base: string | undefined): boolean => base !== undefined && actual.startsWith(base) && /^[.[?]/.test(actual.slice(base.length));
    if (!isPart(fact.actual) && !isPart(whole?.local)) return false;
    // The whole's expected value read as a literal: the part must be there and agree (a part it contradicts is not covered).
    const implied = lostCheck && whole ? impliedByWhole(lostCheck, whole) : null;
    return implied !== false;
  });
}

/** Findings for one surviving test whose two sides both have assertion details. */
function compareDetails(test: MatchedTest, beforeFacts: AssertionFact[], afterFacts: AssertionFact[], isCodeChanged: () => boolean, isConserved: (fact: AssertionFact) => boolean): Finding[] {
  const findings: Finding[] = [];
  // Judged as checks (analysis/checks): one relation and strength whatever the framework, text in canonical form.
  const original = new Map<AssertionFact, AssertionFact>();
  const checkOf = new Map<AssertionFact, Check>();
  const normalise = (facts: readonly AssertionFact[]): AssertionFact[] =>
    facts.flatMap((fact) =>
      conjunctFacts(fact).map((part) => {
        const check = toCheck(part);
        const normalised = asCheckFact(part, check);
        original.set(normalised, part);
        checkOf.set(normalised, check);
        return normalised;
      }),
    );
  const before = normalise(beforeFacts);
  const after = normalise(afterFacts);
  const describe = (fact: AssertionFact): string => describeFact(original.get(fact) ?? fact);
  const { pairs, removed, added } = pairAssertions(before, after);

  // assertion_removal: real (non-tautological, reachable) assertions unpaired, or now behind an early return,
  // unless a check of the whole value now covers them (`.code` and `.inclusive` -> a snapshot of the issue)
  // A removed copy of a check the test made twice loses nothing while its twin survives (kept or re-expected).
  // The surviving copy must run wherever the removed one did: a copy kept in the other branch of an `if` is no twin.
  const survivors = new Map<string, AssertionFact[]>();
  for (const [b, a] of pairs) survivors.set(signature(before[b] as AssertionFact), [...(survivors.get(signature(before[b] as AssertionFact)) ?? []), after[a] as AssertionFact]);
  const hasTwin = (fact: AssertionFact): boolean => (survivors.get(signature(fact)) ?? []).some((twin) => (twin.conditions ?? []).every((condition) => (fact.conditions ?? []).includes(condition)));
  // A check of one branch whose subject is now pinned in every environment it ran in expects another value there: not removed.
  const reExpected: (readonly [AssertionFact, AssertionFact])[] = [];
  const lost = removed
    .map((i) => before[i] as AssertionFact)
    .filter((fact) => !fact.tautology && !fact.unreachable && !hasTwin(fact) && !isCoveredByWholerCheck(fact, after, checkOf.get(fact), checkOf) && !isConserved(original.get(fact) ?? fact))
    .filter((fact) => {
      const now = reExpectation(fact, after);
      if (now) reExpected.push([fact, now]);
      return now === null;
    });
  // A helper call whose helper gained an early return before all its assertions is silenced too (for the inputs that take it).
  const isSilencedNow = (was: AssertionFact, now: AssertionFact): boolean => (!was.unreachable && now.unreachable === true) || (!was.gated && now.gated === true && !now.unreachable);
  const silenced = pairs.filter(([b, a]) => isSilencedNow(before[b] as AssertionFact, after[a] as AssertionFact) && !(before[b] as AssertionFact).tautology).map(([b]) => before[b] as AssertionFact);
  const addedReal = added.map((i) => after[i] as AssertionFact).filter((fact) => !fact.tautology && !fact.unreachable);
  if (lost.length + silenced.length > 0) {
    const commentedGain = (test.after.commentedAssertions ?? 0) - (test.before.commentedAssertions ?? 0);
    const reasons: string[] = [];
    if (silenced.length > 0) reasons.push(`${silenced.length} now after an early return`);
    if (commentedGain > 0) reasons.push(`${commentedGain} commented out`);
    const total = lost.length + silenced.length;
    const realBefore = before.filter((fact) => !fact.tautology && !fact.unreachable).length;
    findings.push(
      report(
        assertionsRule,
        "assertionsRemoved",
        {
          total,
          realBefore,
          test: test.after.id,
          file: test.afterFile,
          were: total === 1 ? "was" : "were",
          reasons: reasons.length > 0 ? ` (${reasons.join(", ")})` : "",
          added: addedReal.length > 0 ? `; ${addedReal.length} added` : "",
        },
        {
          ...baseFinding(test),
          evidence: {
            removed: [...lost, ...silenced].map((fact) => ({ line: fact.line, assertion: describe(fact) })),
            assertions_before: realBefore,
            assertions_after: after.filter((fact) => !fact.tautology && !fact.unreachable).length,
            ...(commentedGain > 0 ? { commented_out: commentedGain } : {}),
            ...(silenced.length > 0 ? { early_return: true } : {}),
          },
        },
      ),
    );
  }

  // assertion_weakening: a paired assertion got weaker, or a tautology arrived
  const weakened = pairs
    .map(([b, a]) => [before[b] as AssertionFact, after[a] as AssertionFact] as const)
    .filter(
      ([was, now]) =>
        !was.tautology &&
        !was.unreachable &&
        !now.unreachable &&
        now.strength < was.strength &&
        !isNewErrorCheck(original.get(was) ?? was, original.get(now) ?? now) &&
        !isConserved(original.get(was) ?? was),
    );
  const tautologies = added.map((i) => after[i] as AssertionFact).filter((fact) => fact.tautology && !fact.unreachable);
  if (weakened.length + tautologies.length > 0) {
    const parts = [
      ...weakened.map(([was, now]) =>
        now.tautology ? `${describe(was)} was replaced by a tautology ${describe(now)}` : `${describe(was)} -> ${describe(now)} (strength ${was.strength} -> ${now.strength})`,
      ),
      ...tautologies.map((fact) => `a tautology was added: ${describe(fact)}`),
    ];
    findings.push(
      report(
        assertionsRule,
        "checksLess",
        { test: test.after.id, file: test.afterFile, parts: parts.join("; ") },
        {
          ...baseFinding(test),
          line: (weakened[0]?.[1] ?? tautologies[0])?.line ?? test.after.line,
          evidence: {
            weakened: weakened.map(([was, now]) => ({
              before: describe(was),
              after: describe(now),
              before_line: was.line,
              line: now.line,
              strength_before: was.strength,
              strength_after: now.strength,
            })),
            tautologies_added: tautologies.map((fact) => ({ line: fact.line, assertion: describe(fact) })),
          },
        },
      ),
    );
  }

  // expectation_changed: same check, another expected value, or setup inputs changed, while the code did not.
  // A test already reported as weakened or stripped says enough: its inputs went with the assertions.
  if (findings.length > 0) return findings;
  const changedExpectations = pairs
    .map(([b, a]) => [before[b] as AssertionFact, after[a] as AssertionFact] as const)
    .filter(
      ([was, now]) =>
        !was.tautology &&
        !now.tautology &&
        was.matcher === now.matcher &&
        was.expected !== undefined &&
        now.expected !== undefined &&
        was.expected !== now.expected &&
        !isErrorCheckPinnedFurther(was, now) &&
        // equality is symmetric: the operands swapped (`a.equals(b)` -> `assertNotEquals(b, a)`'s order) expect the same
        !(/^(?:not )?equal$/.test(was.matcher) && was.expected === now.actual && was.actual === now.expected),
    );
  // The expectations of one branch unified with the other's (reExpectation): another expected value in that branch's environment.
  changedExpectations.push(...reExpected.filter(([was, now]) => was.matcher !== now.matcher || was.expected !== now.expected));
  // An input the test still feeds in is not gone because one of its uses went (a duplicated check removed), nor one it now
  // expects where a helper call passed it (`check(t, "a", 1)` inlined as `t.is(f("a"), 1)`).
  const inputsAfter = new Set([...(test.after.inputLiterals ?? []), ...(test.after.expectedLiterals ?? [])]);
  const inputsGone = multisetMinus(test.before.inputLiterals ?? [], test.after.inputLiterals ?? []).filter((literal) => !inputsAfter.has(literal));
  const hasInputChange = inputsGone.length > 0 && test.before.inputLiterals !== undefined && test.after.inputLiterals !== undefined;
  if ((changedExpectations.length > 0 || hasInputChange) && !isCodeChanged()) {
    const parts = changedExpectations.map(([was, now]) => `${was.matcher}(${displayCode(was.expected ?? "")}) -> ${now.matcher}(${displayCode(now.expected ?? "")})`);
    if (hasInputChange) parts.push(`inputs changed (${inputsGone.slice(0, 5).join(", ")} no longer used)`);
    findings.push(
      report(
        assertionsRule,
        "expectationChanged",
        { test: test.after.id, file: test.afterFile, parts: parts.join("; ") },
        {
          ...baseFinding(test),
          line: changedExpectations[0]?.[1].line ?? test.after.line,
          evidence: {
            expectations: changedExpectations.map(([was, now]) => ({ line: now.line, before: was.expected, after: now.expected })),
            ...(hasInputChange ? { inputs_removed: inputsGone } : {}),
          },
        },
      ),
    );
  }
  return findings;
}

/** assertion_removal from counts alone, for languages that fill no assertion details. */
function compareCounts(test: MatchedTest): Finding[] {
  const before = test.before.assertionCount;
  const after = test.after.assertionCount;
  if (after >= before) return [];
  const commentedGain = (test.after.commentedAssertions ?? 0) - (test.before.commentedAssertions ?? 0);
  return [
    report(
      assertionsRule,
      "fewerAssertions",
      { test: test.after.id, file: test.afterFile, fewer: before - after, before, after, commented: commentedGain > 0 ? `; ${commentedGain} commented out` : "" },
      {
        ...baseFinding(test),
        evidence: { assertions_before: before, assertions_after: after },
      },
    ),
  ];
}

function hasDetails(test: TestCase): test is TestCase & { assertionsDetail: AssertionFact[] } {
  return Array.isArray(test.assertionsDetail) && test.assertionsDetail.length === test.assertionCount;
}

/**
 * assertion_removal, assertion_weakening and expectation_changed for every
 * surviving test whose body changed. Tests matched by body hash (unchanged,
 * moved, renamed) have the same assertions and are skipped, and so are tests
 * that are now skipped, todo or expected to fail (test_disabled covers those).
 */
export function assertionFindings(input: RuleInput): Finding[] {
  const findings: Finding[] = [];
  const conserved = conservationOf(input);
  const codeChanged = new Map<string, boolean>();
  const isCodeChanged = (path: string): boolean => {
    let answer = codeChanged.get(path);
    if (answer === undefined) {
      answer = hasCodeUnderTestChanged(path, input.pairs, input.changedPaths);
      codeChanged.set(path, answer);
    }
    return answer;
  };
  // A test whose body is as it was still loses checks when a helper it calls lost its assertions or gained an early
  // return before all of them: its helper calls are compared too.
  for (const test of input.matched) {
    if (test.before.bodyHash === test.after.bodyHash && helperCallsOf(test.after) === helperCallsOf(test.before)) continue;
    const flags = test.after.flags;
    if (flags.skipped || flags.todo || flags.failing) continue; // test_disabled already says it no longer runs
    const found =
      hasDetails(test.before) && hasDetails(test.after)
        ? compareDetails(
            test,
            test.before.assertionsDetail,
            test.after.assertionsDetail,
            () => isCodeChanged(test.afterFile),
            (fact) => conserved(test, fact),
          )
        : compareCounts(test);
    // Assertions moved into an imported helper (`runScenario(dir)` holding the expects) are not removed.
    const lost = test.before.assertionCount - test.after.assertionCount;
    const moved = lost > 0 && delegatedAssertions(test, input) >= lost;
    findings.push(...(moved ? found.filter((f) => f.type !== "assertion_removal") : found));
  }
  return findings;
}

/**
 * A test's calls of assertion helpers as one comparable text: each call's
 * helper, strength and gating, in order. Two sides of an unchanged test body
 * with the same text check the same through their helpers.
 */
function helperCallsOf(test: TestCase): string {
  return (test.assertionsDetail ?? [])
    .filter((fact) => fact.matcher.startsWith("helper "))
    .map((fact) => `${fact.matcher}\u0000${fact.strength}\u0000${fact.gated === true ? "gated" : ""}\u0000${fact.actual ?? ""}`)
    .join("\u0001");
}

/**
 * Whether an assertion a surviving test lost (or weakened) is still checked
 * after the change (analysis/checks isCheckConserved): by the test itself
 * (reworded, migrated, moved into a helper it calls) or by a test that is
 * new or was edited (split out of it). `fact` is as the extractor wrote it.
 */
function conservationOf(input: RuleInput): (test: MatchedTest, fact: AssertionFact) => boolean {
  let pool: CheckedTest[] | null = null;
  const factsOf = new Map(input.pairs.map((pair) => [pair.path, pair.after] as const));
  const keptAsIs = new Set(input.matched.filter((test) => test.before.bodyHash === test.after.bodyHash).map((test) => test.after));
  const poolOf = (): CheckedTest[] => {
    pool ??= input.pairs.flatMap((pair) =>
      (pair.after?.tests ?? []).filter((test) => !keptAsIs.has(test) && !test.flags.skipped && !test.flags.todo && !test.flags.failing).map((test) => checkedTest(pair.path, test, pair.after)),
    );
    return pool;
  };
  const beforeHelpersOf = new Map(input.pairs.map((pair) => [pair.path, pair.before?.assertionHelpers ?? []] as const));
  let removed: Set<string> | undefined;
  return (test, fact) => {
    const check = toCheck(fact);
    if (check.isTautology || !check.isReachable) return false;
    const same = checkedTest(test.afterFile, test.after, factsOf.get(test.afterFile) ?? null);
    const others = poolOf().filter((candidate) => candidate.test !== test.after);
    // A helper call lives on where each check of its helper does (the helper inlined into the test).
    const helpers = beforeHelpersOf.get(test.beforeFile) ?? [];
    const parts = helperCheckParts(check, helpers).filter((part) => part.isReachable && !part.isTautology);
    // ... in the mode the call's arguments selected: the branches they chose (`if next { r.Version = "1.1" }`) and the fields
    // they set (`Runner{Encoder: enc}`, unless the product dropped the field) still fed.
    removed ??= removedDeclarations(input.pairs);
    const knobs = removed;
    const armLiterals = [
      ...helperArmLiterals(check, helpers),
      ...helperSinkLiterals(check, helpers)
        .filter((sink) => !knobs.has(sink.key))
        .map((sink) => sink.literal),
    ];
    if (parts.length > 0 && parts.every((part) => isCheckConserved(part, same, others)) && (armLiterals.length === 0 || findInlinedCover(check, parts, armLiterals, [same, ...others]) !== null))
      return true;
    return isCheckConserved(check, same, others);
  };
}

/**
 * Assertions the after side of a test reaches through helpers it imports
 * from another changed file: its referenced imports resolved to that file's
 * {@link FileFacts.assertionHelpers}. Helpers in unchanged files are not
 * seen (their facts are not part of the change).
 */
function delegatedAssertions(test: MatchedTest, input: RuleInput): number {
  const references = new Set(test.after.references ?? []);
  if (references.size === 0) return 0;
  const pair = input.pairs.find((candidate) => candidate.path === test.afterFile);
  const imports = pair?.after?.code?.imports ?? [];
  const helpersByPath = new Map(input.pairs.flatMap((candidate) => (candidate.after?.assertionHelpers ? [[candidate.path, candidate.after.assertionHelpers] as const] : [])));
  if (helpersByPath.size === 0) return 0;
  let total = 0;
  for (const fact of imports) {
    const target = resolveImport(test.afterFile, fact.source, new Set(helpersByPath.keys()));
    const helpers = target === null ? undefined : helpersByPath.get(target);
    if (!helpers) continue;
    for (const name of fact.names) {
      if (!references.has(name.local)) continue;
      total += helpers.find((helper) => helper.name === name.imported)?.assertions ?? 0;
    }
  }
  return total;
}

/**
 * The assertion rule family, per surviving test whose body changed:
 * assertion_removal (high), assertion_weakening (high), and
 * expectation_changed (medium) when the code under test did not change.
 */
export const assertionsRule = defineRule({
  id: "assertions",
  type: "assertion_removal",
  defaultSeverity: "high",
  description: "A surviving test lost assertions, checks less (a weaker matcher or a tautology), or expects another value while the code under test did not change.",
  messages: {
    assertionsRemoved: '{{total}} of the {{realBefore}} assertions of test "{{test}}" in {{file}} {{were}} removed{{reasons}}{{added}}',
    fewerAssertions: 'test "{{test}}" in {{file}} has {{fewer}} fewer assertions ({{before}} -> {{after}}){{commented}}',
    checksLess: { text: 'test "{{test}}" in {{file}} checks less: {{parts}}', type: "assertion_weakening", severity: "high" },
    expectationChanged: {
      text: 'test "{{test}}" in {{file}} now expects something else while the code under test did not change: {{parts}}',
      type: "expectation_changed",
      severity: "medium",
    },
  },
  check: ({ input }: { input: RuleInput }) => assertionFindings(input),
});
