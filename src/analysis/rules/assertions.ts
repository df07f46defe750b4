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
  coverage,
  findInlinedCover,
  helperArmLiterals,
  helperCheckParts,
  helperSinkLiterals,
  instantiateHelper,
  isCheckConserved,
  isTimingThreshold,
  readsMeasuredTime,
  conjunctFacts,
  removedDeclarations,
  toCheck,
  toChecks,
  type Check,
  type CheckedTest,
} from "../checks/index.js";
import { describeTolerance, isToleranceWidened } from "../checks/tolerance.js";
import { isElementSizedAway, isSizeInsteadOfContents, tokenize } from "../checks/coverage.js";
import { isPatternWidened, patternOf } from "../checks/pattern-widening.js";
import { describeNotRun, ranNoChecks, type AssertionFact, type AssertionHelperFact, type TestCase } from "../facts.js";
import { ON_FAILURE_CONDITION } from "../checks/error-checks.js";
import type { Finding } from "../types.js";
import { hasCodeUnderTestChanged, multisetMinus, resolveImport, usable, type MatchedTest, type RuleInput } from "./context.js";
import { renamedCheck, renamedFrom, type ProductRename } from "../product-renames.js";
import { defineRule, report, rereport } from "./registry.js";
import { describeRetired, findRetired, retiredNamesOf } from "./dependencies.js";
import { impliesPattern, isAnchoredRelaxation, isPartialKeepingEveryField, statedAt } from "../checks/patterns.js";
import { flipJudge } from "./flipped-refusals.js";
import { impliedByWhole } from "../checks/implied.js";
import { splitArguments } from "../checks/normalise.js";
import { rejectedCode } from "../checks/rejection.js";
import { skipConditionKind } from "../checks/skip-condition.js";

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

/** The words of a subject's names, lower-cased: `cached.lockCount` and `cached.lock_count` -> cached, lock, count. */
function subjectWords(text: string | undefined): Set<string> {
  const words = (text ?? "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+|_/)
    .filter((word) => word !== "" && !/^\d+$/.test(word));
  return new Set(words.map((word) => word.toLowerCase()));
}

/** True when the words of one set all occur in the other (a name moved into an object: `wait_count` -> `cond.wait_count`). */
function areWordsNested(left: ReadonlySet<string>, right: ReadonlySet<string>): boolean {
  if (left.size === 0 || right.size === 0) return false;
  const [small, large] = left.size <= right.size ? [left, right] : [right, left];
  return [...small].every((word) => large.has(word));
}

/**
 * The pairs of a before and an after assertion that read as one subject
 * renamed with its expected value kept (the same expected value, the words
 * of one subject all in the other's) and that no other assertion of either
 * side would make as well (copies aside: copies are interchangeable). Read
 * once per pair of sides, each pair of assertions tested once.
 */
function renamedKeepingPairs(before: readonly AssertionFact[], after: readonly AssertionFact[]): (a: AssertionFact, b: AssertionFact) => boolean {
  const words = new Map<string, Set<string>>();
  const wordsOf = (text: string | undefined): Set<string> => {
    const key = text ?? "";
    let found = words.get(key);
    if (!found) words.set(key, (found = subjectWords(text)));
    return found;
  };
  const rivalsOfAfter = new Map<AssertionFact, Set<string>>();
  const rivalsOfBefore = new Map<AssertionFact, Set<string>>();
  for (const a of before) {
    if (a.expected === undefined) continue;
    for (const b of after) {
      if (a.expected !== b.expected || !areWordsNested(wordsOf(a.actual), wordsOf(b.actual))) continue;
      (rivalsOfAfter.get(b) ?? rivalsOfAfter.set(b, new Set()).get(b))?.add(signature(a));
      (rivalsOfBefore.get(a) ?? rivalsOfBefore.set(a, new Set()).get(a))?.add(signature(b));
    }
  }
  const isOnly = (rivals: ReadonlySet<string> | undefined, key: string): boolean => rivals !== undefined && rivals.size === 1 && rivals.has(key);
  return (a, b) => isOnly(rivalsOfAfter.get(b), signature(a)) && isOnly(rivalsOfBefore.get(a), signature(b));
}

const signature = (fact: AssertionFact): string => [fact.matcher, fact.actual ?? "", fact.expected ?? "", fact.negated ? "!" : "", fact.unreachable ? "x" : ""].join("\u0000");

/** Equality levels used one after another inside the gaps left by the stricter one, for one pair of sides. */
function levelsOf(before: readonly AssertionFact[], after: readonly AssertionFact[]): readonly ((a: AssertionFact, b: AssertionFact) => boolean)[] {
  let isRenamedKeeping: ((a: AssertionFact, b: AssertionFact) => boolean) | null = null;
  return [
    (a, b) => signature(a) === signature(b),
    (a, b) => a.actual !== undefined && a.actual === b.actual,
    // A subject renamed keeps its expected values and its words (`lock_count == 3` -> `lock.count == 3`, read as a length;
    // `wait_count` -> `cond.wait_count`): several renamed at once stay aligned by them before the relation alone aligns
    // them. Only a pair no other assertion would make as well: two counters expecting 3 merged into one `count == 3` pair by
    // neither. Read on first use.
    (a, b) => (isRenamedKeeping ??= renamedKeepingPairs(before, after))(a, b),
    (a, b) => a.matcher === b.matcher,
    () => true,
  ];
}

/**
 * Pairs the assertions of two versions of one test in order (see the module
 * comment). Unpaired before assertions were removed; unpaired after ones were added.
 */
export function pairAssertions(before: readonly AssertionFact[], after: readonly AssertionFact[]): AssertionPairing {
  const pairs: [number, number][] = [];
  const levels = levelsOf(before, after);
  const pairWithin = (beforeIdx: number[], afterIdx: number[], level: number): void => {
    if (beforeIdx.length === 0 || afterIdx.length === 0 || level >= levels.length) return;
    const isSame = levels[level] as (a: AssertionFact, b: AssertionFact) => boolean;
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
  // Then checks of one subject reordered while their expected values changed (`data["bar"]`, `data["foo"]` checked the
  // other way round, each expecting another value): the same checks, re-expected, when that subject is checked so once a side.
  const subjectKey = (fact: AssertionFact): string | undefined =>
    fact.actual === undefined || fact.actual === "" ? undefined : `${fact.matcher}\u0000${fact.actual}\u0000${fact.negated ? "!" : ""}\u0002${branchesOf(fact)}`;
  const isOnce = (facts: readonly AssertionFact[], key: string): boolean => facts.filter((fact) => subjectKey(fact) === key).length === 1;
  const relationKey = (fact: AssertionFact): string => `${fact.matcher}\u0000${fact.negated ? "!" : ""}\u0002${branchesOf(fact)}`;
  const isRelationOnce = (facts: readonly AssertionFact[], key: string): boolean => facts.filter((fact) => !fact.tautology && relationKey(fact) === key).length === 1;
  const keys: ((fact: AssertionFact) => string | undefined)[] = [
    (fact) => `${signature(fact)}\u0002${branchesOf(fact)}`,
    signature,
    (fact) => {
      const key = subjectKey(fact);
      return key !== undefined && isOnce(before, key) && isOnce(after, key) ? key : undefined;
    },
    // Then a relation made once a side, whatever the order: a try/catch-with-flag rewritten as `assertThrows` puts the
    // handler's message check after the error check it came before (`e.getMessage()` -> `exception.getMessage()`).
    (fact) => {
      const key = relationKey(fact);
      return !fact.tautology && isRelationOnce(before, key) && isRelationOnce(after, key) ? key : undefined;
    },
  ];
  for (const key of keys) {
    const unpairedAfter = new Map<string, number[]>();
    after.forEach((fact, i) => {
      const at = key(fact);
      if (pairedAfter.has(i) || at === undefined) return;
      const list = unpairedAfter.get(at) ?? [];
      list.push(i);
      unpairedAfter.set(at, list);
    });
    before.forEach((fact, i) => {
      const at = key(fact);
      if (pairedBefore.has(i) || at === undefined) return;
      const match = unpairedAfter.get(at)?.shift();
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

/** A call as a check's canonical subject holds it: its callee (`tomllib.loads`, `parse`) and its argument list. */
const CALL_SUBJECT = /^((?:[A-Za-z_$][\w$]*(?:\.|::|->))*)([A-Za-z_$][\w$]*)\((.*)\)$/s;

/**
 * The after check that now pins the answer of a call a removed carve-out
 * expected to fail, or null (issue 9, class xfail-carve-out-removed; sweep
 * of hukkinen/tomli 9eb2125ef4). `lost` (a normalised fact, `lostCheck`
 * its check) is a rejection check (checks/rejection.ts rejectedCode: a
 * `throws`, `assert!(parse(s).is_err())`) of a call `S` that ran only for
 * some rows of a loop (AssertionFact.conditions: `if stem in XFAIL: with
 * assertRaises(E): loads(s); continue`), and the after side checks a value
 * of `S` with a value relation (an equality, {@link valuePin}) at least as
 * strong, under no condition `lost` did not also run under, neither
 * negated: with the carve-out and its `continue` gone, those rows now go
 * through the general path and expect an answer. The value checked must
 * come from `S`: its subject (or what its local was bound to) holds the
 * call's text, or the names the check depends on (`names`,
 * TestCase.checkNames) hold the callee with its arity (`loads/1`) and the
 * receiver's root. The carve-out's check removed with its `continue` kept
 * (`if stem in XFAIL: continue`) leaves the general check under the
 * guard's negation (skip-reach.ts guardCondition), so it covers nothing.
 */
export function carveOutReExpectation(
  lost: AssertionFact,
  lostCheck: Check | undefined,
  after: readonly AssertionFact[],
  boundOf: (fact: AssertionFact) => string | undefined,
  namesOf: (fact: AssertionFact) => readonly string[],
): AssertionFact | null {
  const conditions = lost.conditions ?? [];
  const subject = lostCheck === undefined ? null : rejectedCode(lostCheck);
  const call = subject === null ? null : CALL_SUBJECT.exec(subject);
  if (subject === null || conditions.length === 0 || call === null) return null;
  const [callee, args] = [call[2] as string, call[3] as string];
  const root = /^[A-Za-z_$][\w$]*/.exec(call[1] as string)?.[0];
  const arity = args.trim() === "" ? 0 : splitArguments(args).length;
  const readsCall = (now: AssertionFact): boolean => {
    if ([now.actual, boundOf(now)].some((text) => text !== undefined && text.includes(subject))) return true;
    const names = namesOf(now);
    return names.includes(`${callee}/${arity}`) && (root === undefined || names.includes(root));
  };
  return (
    after.find((now) => {
      const pin = valuePin(now);
      if (pin === null || pin.strength < lost.strength || now.negated || now.tautology || now.unreachable || now.gated) return false;
      return (now.conditions ?? []).every((condition) => conditions.includes(condition)) && readsCall(now);
    }) ?? null
  );
}

/** The kind of a literal expected value: a string, a number, a boolean, null; "other" for any expression. */
function literalKind(text: string | undefined): string {
  if (text === undefined) return "none";
  if (/^(["'`]).*\1$/s.test(text)) return "string";
  if (/^-?\d[\d_.]*(?:e-?\d+)?$/i.test(text)) return "number";
  if (/^(?:true|false|True|False)$/.test(text)) return "boolean";
  if (/^(?:null|nil|None|undefined)$/.test(text)) return "null";
  return "other";
}

/**
 * The check of an after helper call (`parts`: its checks instantiated with
 * the call's arguments, reachable only) that pins again the value an inline
 * check `was` pinned, or null (issue 9, class helper-re-expects-inline;
 * sweep of theskumar/python-dotenv 43340da220: `assert result == "b\n"` on
 * `sh.dotenv("get", "a")` -> `check_process(result, exit_code=0,
 * stdout="x\n")` on a subprocess result, whose helper asserts
 * `process.stdout == stdout`). The part has `was`'s relation, neither is
 * negated, it is at least as strong, its subject is the local `was` read
 * (Check.local, or its subject's root) or a member of it (`result` ->
 * `result.stdout`, `result.exit_code` -> `result.returncode`) and it
 * expects a literal of the same kind (a string for a string): the call pins that
 * value, to another expected value perhaps (an expectation changed, not a
 * weakening). A helper that checks only another kind of value (`exit_code
 * = 0` for an expected string) pins nothing of it.
 */
export function helperReExpectation(was: Check, parts: readonly Check[]): Check | null {
  if (was.isNegated || was.isTautology || was.expected === undefined) return null;
  const rootOf = (text: string): string | undefined => /^[A-Za-z_$][\w$]*(?=$|\.)/.exec(text)?.[0];
  const roots = new Set([was.local, rootOf(was.subject)].filter((root): root is string => root !== undefined && root.length >= 2));
  const kind = literalKind(was.expected);
  if (roots.size === 0 || kind === "other" || kind === "none") return null;
  return (
    parts.find((part) => {
      const root = rootOf(part.subject);
      return part.relation === was.relation && !part.isNegated && part.strength >= was.strength && root !== undefined && roots.has(root) && literalKind(part.expected) === kind;
    }) ?? null
  );
}

/**
 * True when a branch condition is decided by the environment a test runs in
 * (checks/skip-condition.ts: a platform, a runtime version, a dependency or
 * feature probe, CI), or is one of the conditions a check reads apart (the
 * failure of the code before it): a check kept under it is a branch per
 * environment, not a check for fewer cases.
 */
function isEnvironmentCondition(condition: string): boolean {
  const kind = skipConditionKind(condition.replace(/^!\((.*)\)$/s, "$1").replace(/^!/, ""));
  return kind === "environment" || kind === "here" || kind === "ci";
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

/** True when an equality now expects null (`toEqual(x)` -> `toBeNull()`, `assertEquals(x, y)` -> `assertNull(y)`): one exact value for another. */
function isNulled(was: Check, now: Check): boolean {
  return was.relation === "equal" && !was.isNegated && now.relation === "nullish" && !now.isNegated;
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

/** Matchers that take a pattern (`t.regex`, `toMatch`, `assert.match`, `must_match`, `assertRegex`, `assert.Regexp`, `matches`, `assertMatchesRegularExpression`). */
const PATTERN_MATCHER = /(?:^|[._\s])(?:regex|regexp|match|matches|tomatch|assertregex|assertregexpmatches|assertmatchesregularexpression|matchespattern|must_match|assert_match)$/i;

/**
 * True when an exact check of a string (`was`, as a check: strength 3, a
 * string literal expected) became a check of the same value against an
 * anchored pattern that still accepts it (`now` as written, and as a
 * check), see checks/patterns.ts isAnchoredRelaxation.
 */
function isPatternRelaxation(was: AssertionFact, written: AssertionFact, now: AssertionFact): boolean {
  if (was.strength < 3 || was.negated || now.negated || was.expected === undefined || now.expected === undefined || now.actual === undefined) return false;
  if (!/^(?:match|contains)$/.test(now.matcher) && !PATTERN_MATCHER.test(written.matcher)) return false;
  // The same value: as written, or one side read through the local it was bound to (`message` and `run().message`);
  // `assert.Regexp(t, re, s)` and `assertMatchesRegularExpression(re, $s)` read as a check of the pattern against the value.
  const isSame = (a: string, b: string): boolean => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
  const subject = was.actual ?? "";
  const pattern = isSame(subject, now.actual) ? now.expected : isSame(subject, now.expected) ? now.actual : null;
  return pattern !== null && isAnchoredRelaxation(was.expected, pattern);
}

/**
 * True when an equality check of an object (`was`, as a check) became a
 * check that the same value has at least those fields, every one kept with
 * its value (`now` as a check), see checks/patterns.ts isPartialKeepingEveryField.
 */
function isPartialRelaxation(was: AssertionFact, now: AssertionFact): boolean {
  // RSpec's `include(a: 1)` on a hash, chai's `include({a: 1})` on an object: a containment of entries is a partial check.
  if (was.matcher !== "equal" || !/^(?:partial|contains)$/.test(now.matcher) || was.expected === undefined || now.expected === undefined) return false;
  return isPartialKeepingEveryField(was.expected, now.expected);
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
  // A message pattern the new one implies (`/[1]/` -> `/2, \[1\]/`) is pinned further too (checks/patterns.ts impliesPattern).
  return (wasType === "" || wasType === nowType) && (wasMessage === "" || wasMessage === nowMessage || impliesPattern(nowMessage, wasMessage));
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
/** Relations (normalised matchers) that pin a value's contents, so a part of it too. */
const WHOLE_VALUE_RELATIONS: ReadonlySet<string> = new Set(["equal", "snapshot", "partial"]);

function isCoveredByWholerCheck(
  lost: AssertionFact,
  after: readonly AssertionFact[],
  lostCheck?: Check,
  afterChecks?: ReadonlyMap<AssertionFact, Check>,
  written: ReadonlyMap<AssertionFact, AssertionFact> = new Map(),
): boolean {
  const actual = lost.actual;
  if (actual === undefined) return false;
  if (isCoveredByPartialCheck(lost, after, written)) return true;
  if (lostCheck && afterChecks && isPartOfWholeThroughLocal(written.get(lost) ?? lost, lostCheck, after, afterChecks)) return true;
  return after.some((fact) => {
    if (fact.tautology || fact.unreachable || fact.negated || fact.actual === undefined || fact.strength < Math.max(lost.strength, 3)) return false;
    if (fact.actual === actual) return false; // the same value: pairing already judged it
    // Only a check of the whole value's contents covers its parts: its length (`cached.count` read as one) does not.
    if (!WHOLE_VALUE_RELATIONS.has(fact.matcher)) return false;
    const whole = afterChecks?.get(fact);
    const isPart = (base: string | undefined): boolean => base !== undefined && actual.startsWith(base) && /^[.[?]/.test(actual.slice(base.length));
    if (!isPart(fact.actual) && !isPart(whole?.local)) return false;
    // The whole's expected value read as a literal: the part must be there and agree (a part it contradicts is not covered).
    const implied = lostCheck && whole ? impliedByWhole(lostCheck, whole) : null;
    return implied !== false;
  });
}

/** A numeric literal's value (`1`, `-2.5`, `1_000`), or null. */
function numberOf(text: string | undefined): number | null {
  if (text === undefined || !/^-?\d[\d_]*(\.\d+)?$/.test(text.trim())) return null;
  return Number(text.replace(/_/g, ""));
}

/**
 * True when a lost bound (`n >= 0`, `n <= 1`, toBeGreaterThan(0): a
 * greater/less check of a subject against a numeric literal) is met by an
 * after equality of the same subject to a number inside it (`t.is(n, 1)`):
 * the equality states the bound and more. A range written as `a >= 0 && a
 * <= 1` is two such bounds, and one exact check meets both. Inclusive
 * unless the written matcher says strict (`>`, `<`, greaterThan without
 * OrEqual).
 */
function isBoundMetByEquality(lost: Check | undefined, written: AssertionFact, after: readonly AssertionFact[], checks: ReadonlyMap<AssertionFact, Check>): boolean {
  if (!lost || (lost.relation !== "greater" && lost.relation !== "less") || lost.isNegated) return false;
  const bound = numberOf(lost.expected);
  if (bound === null) return false;
  // Strict when the comparison as written says so (`n > 0`, `0 < n`), else when the matcher's name does (greaterThan, isAbove).
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s*");
  const operator = new RegExp(`${escape(lost.subject)}\\s*([<>]=?)\\s*${escape(lost.expected ?? "")}|${escape(lost.expected ?? "")}\\s*([<>]=?)\\s*${escape(lost.subject)}`).exec(written.actual ?? "");
  const isStrict = operator
    ? !(operator[1] ?? operator[2] ?? "").endsWith("=")
    : !/OrEqual|AtLeast|AtMost|GreaterEqual|LessEqual|_or_equal|Equal\b/i.test(written.matcher) && /Than|Above|Below|Greater|Less|positive|negative/i.test(written.matcher);
  return after.some((fact) => {
    const check = checks.get(fact);
    // The subject as written: a local the equality resolved to its initial value (`let n = 0; … t.is(n, 1)`) is still `n`.
    if (!check || check.relation !== "equal" || check.isNegated || check.isTautology || !check.isReachable || (check.subject !== lost.subject && check.local !== lost.subject)) return false;
    const value = numberOf(check.expected);
    if (value === null) return false;
    if (lost.relation === "greater") return isStrict ? value > bound : value >= bound;
    return isStrict ? value < bound : value <= bound;
  });
}

/**
 * The product functions the change made stateful (FunctionFact.stateUpdates
 * after, none before: a sequence, a cache, a counter), by name, with what
 * they now update.
 */
function newlyStatefulFunctions(pairs: RuleInput["pairs"]): Map<string, string[]> {
  const stateful = new Map<string, string[]>();
  for (const pair of pairs) {
    const [before, after] = [usable(pair.before), usable(pair.after)];
    if (!before?.code || !after?.code || after.isTestFile) continue;
    const was = new Map((before.code.functions ?? []).map((fn) => [fn.name, fn] as const));
    for (const fn of after.code.functions ?? []) {
      const old = was.get(fn.name);
      if (old && (old.stateUpdates ?? []).length === 0 && (fn.stateUpdates ?? []).length > 0) stateful.set(fn.name, fn.stateUpdates ?? []);
    }
  }
  return stateful;
}

/**
 * For a check that two results of one function are equal (Go's `id1 !=
 * id2` guard over `id1, _ := NewFromReader(r)` and `id2, _ :=
 * NewFromReader(r2)`: AssertionFact.comparedValues), when the change made
 * that function stateful: what retired the behaviour it checked
 * (`NewFromReader, which now updates seq`). Equal inputs no longer give
 * equal answers by design, so the check goes with the behaviour, as one of
 * removed code does. Null otherwise.
 */
function statefulCallee(fact: AssertionFact | undefined, stateful: ReadonlyMap<string, readonly string[]>): string | null {
  if (!fact?.comparedValues || fact.negated || stateful.size === 0) return null;
  const callees = fact.comparedValues.map((call) => /([A-Za-z_]\w*)\s*\(/.exec(call)?.[1]);
  const [callee] = callees;
  const updates = callee === undefined ? undefined : stateful.get(callee);
  if (!updates || callees.some((name) => name !== callee)) return null;
  return `${callee}, which now updates ${updates.join(", ")}`;
}

/**
 * The product functions of the change that panic on the error of a call
 * they make (Go's `func MustParse(s string) *Version { v, err :=
 * NewVersion(s); if err != nil { panic(err) }; return v }`), by the callee:
 * `NewVersion` -> {`MustParse`}. Read from the after side's functions and
 * guards (a guard of the function whose action panics).
 */
function panickingWrappers(pairs: RuleInput["pairs"]): Map<string, Set<string>> {
  const wrappers = new Map<string, Set<string>>();
  for (const pair of pairs) {
    const code = usable(pair.after)?.code;
    if (!code || usable(pair.after)?.isTestFile) continue;
    const panicking = new Set((code.guards ?? []).filter((guard) => /^panic\s*\(/.test(guard.action) && !guard.fallthrough).map((guard) => guard.function));
    for (const fn of code.functions ?? []) {
      if (!panicking.has(fn.name)) continue;
      for (const callee of fn.calls) {
        if (callee === fn.name || callee === "panic") continue;
        const set = wrappers.get(callee) ?? new Set<string>();
        set.add(fn.name);
        wrappers.set(callee, set);
      }
    }
  }
  return wrappers;
}

/**
 * True when `fact` is an error check of a call (AssertionFact.errorOf:
 * `if err != nil` after `v, err := NewVersion(tc.v1)`) that the edited test
 * no longer makes itself, and the test now calls a product wrapper that
 * panics on that call's error instead (`MustParse("1.2.3")` in its rows):
 * the panic fails the test where the error check did. A test that still
 * calls the function (its error discarded, `v, _ := NewVersion(s)`) checks
 * nothing of it.
 */
function isMadeByPanickingWrapper(fact: AssertionFact, test: MatchedTest, wrappers: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  const callee = fact.errorOf === undefined ? undefined : /([A-Za-z_]\w*)\s*\(/.exec(fact.errorOf)?.[1];
  if (callee === undefined || wrappers.size === 0) return false;
  const calls = new Set(test.after.calls ?? []);
  if (calls.has(callee)) return false;
  return [...(wrappers.get(callee) ?? [])].some((wrapper) => calls.has(wrapper));
}

/**
 * Conversions that give back the value they are called on as a record or a
 * list, so an equality of `parse(x).to_h` checks `parse(x)` whole: Ruby's
 * `.to_h`/`.to_hash`/`.to_a`, and Python's `dict(...)`/`list(...)`.
 */
function withoutIdentityConversion(subject: string): string {
  const python = /^(?:dict|list)\((.+)\)$/s.exec(subject)?.[1];
  if (python !== undefined && splitArguments(python).length === 1) return python;
  return subject.replace(/\.to_(?:h|hash|a)$/, "");
}

/**
 * True when a lost field check read a member or an index of a local
 * (`params = FormParser.parse(x); params["bio"].must_include "hello"`,
 * AssertionFact.actualBase) and an after check now compares the value that
 * local was bound to, whole, with a literal that holds that part and agrees
 * (`FormParser.parse(x).to_h.must_equal({"bio" => "hello"})`,
 * checks/implied.ts): the field check is a part of the whole one. A whole
 * equality that contradicts the part, or that the part cannot be read from
 * (no literal), covers nothing.
 */
function isPartOfWholeThroughLocal(
  /** The assertion as written (AssertionFact.actualBase). */ lost: AssertionFact,
  lostCheck: Check,
  after: readonly AssertionFact[],
  afterChecks: ReadonlyMap<AssertionFact, Check>,
): boolean {
  const base = lost.actualBase;
  const actual = lost.actual;
  if (base === undefined || actual === undefined || !actual.startsWith(base.local)) return false;
  const path = actual.slice(base.local.length).trimStart();
  if (!/^\??\s*[.[]/.test(path)) return false;
  const value = toCheck({ ...lost, actual: base.value }).subject;
  const rebased = toCheck({ ...lost, actual: `${base.value}${path}` });
  if (value === "" || !rebased.subject.startsWith(value) || rebased.relation !== lostCheck.relation || rebased.isNegated !== lostCheck.isNegated) return false;
  return after.some((fact) => {
    const whole = afterChecks.get(fact);
    if (!whole || fact.tautology || fact.unreachable || whole.isNegated || whole.relation !== "equal") return false;
    const subject = withoutIdentityConversion(whole.subject);
    if (subject !== value) return false;
    return impliedByWhole(rebased, { ...whole, subject }) === true;
  });
}

/** The retired tokens (dependencies.ts findRetired) but the old names of the functions the change renames: those live on (product-renames.ts). */
function retiredBut(retired: Set<string>, renames: readonly ProductRename[] | undefined): Set<string> {
  const renamed = renamedFrom(renames);
  return renamed.size === 0 ? retired : new Set([...retired].filter((token) => !renamed.has(token)));
}

/** The feature_removal of assertions a surviving test lost together with the retired code each checked (`retired`, per assertion). */
function removedWithCodeFinding(test: MatchedTest, assertions: readonly string[], lines: readonly number[], retired: readonly string[][]): Finding {
  const tokens = [...new Set(retired.flat())].sort();
  const total = assertions.length;
  return report(
    assertionsRule,
    "assertionsRemovedWithCode",
    {
      total,
      plural: total === 1 ? "" : "s",
      test: test.after.id,
      file: test.afterFile,
      were: total === 1 ? "was" : "were",
      they: total === 1 ? "it" : "they",
      list: tokens.map(describeRetired).join(", "),
    },
    {
      ...baseFinding(test),
      evidence: { removed: assertions.map((assertion, index) => ({ line: lines[index], assertion })), removed_symbols: tokens, reclassified_from: "assertion_removal" },
    },
  );
}

/**
 * True when a partial check of a value that contains the lost one's states
 * the lost check's expected value at its path: `t.like(cli, {flags: {meow:
 * "dog"}})` covers `t.is(cli.flags.meow, "dog")`, and `{fooBar: true}` there
 * covers `t.true(cli.flags.fooBar)` (several field checks merged into one
 * `t.like` / `toMatchObject` of the object, the sweep of sindresorhus/meow 7b9e7395cc).
 */
function isCoveredByPartialCheck(lost: AssertionFact, after: readonly AssertionFact[], written: ReadonlyMap<AssertionFact, AssertionFact> = new Map()): boolean {
  const actual = lost.actual;
  const wanted =
    lost.matcher === "equal" ? lost.expected : lost.matcher === "truthy" && lost.expected === undefined ? "true" : lost.matcher === "falsy" && lost.expected === undefined ? "false" : undefined;
  // A nested object in the partial check is itself checked partially: only a value that is no object is pinned there exactly.
  if (actual === undefined || wanted === undefined || lost.negated || wanted.startsWith("{")) return false;
  return after.some((fact) => {
    if (fact.matcher !== "partial" || fact.negated || fact.unreachable || fact.expected === undefined) return false;
    // The object as the check reads it, or as written (`cli`, where the check reads the call it was bound to).
    const subjects = [fact.actual, written.get(fact)?.actual].filter((subject): subject is string => subject !== undefined && actual.startsWith(subject));
    return subjects.some((subject) => {
      const path = actual.slice(subject.length);
      return /^[.[?]/.test(path) && statedAt(fact.expected as string, path) === wanted;
    });
  });
}

/** A bare `null` argument of a call in canonical text (`f ( null )`, `g ( 1 , null )`), not a `null!`. */
const BARE_NULL_ARGUMENT = /[(,]\s*null\s*(?=[,)])/;

/** The namespaces of the .NET framework, whose nullability annotations a project cannot change. */
const FRAMEWORK_NAMESPACES: ReadonlySet<string> = new Set(["System", "Microsoft"]);

/**
 * For a C# test file under a project whose change turned nullable warnings
 * into errors (RuleInput.nullableErrors), a judge of its lost before
 * assertions (by index): true for a check whose subject passes a bare
 * `null` to a call of a framework type (a framework namespace among what
 * the check reads, TestCase.checkNames, its error type aside:
 * `cmConverter.ConvertFromString(null)` with `cmConverter = new
 * System.ComponentModel.DateTimeConverter()`). The framework's parameter is
 * not nullable, so the line no longer compiles, and what it checked was the
 * framework's behaviour, not the project's: dropping it is reported at
 * medium (the sweep of JoshClose/CsvHelper 7dbb3fe710). A check of the
 * project's own code, or one passing no bare null, stays an assertion_removal.
 */
function nullForcedJudge(test: MatchedTest, scopes: readonly string[]): (index: number, fact: AssertionFact) => boolean {
  const file = test.afterFile;
  if (!file.endsWith(".cs") || !scopes.some((scope) => scope === "" || file.startsWith(`${scope}/`))) return () => false;
  return (index, fact) => {
    const names = test.before.checkNames?.[index] ?? [];
    const typeNames = new Set((fact.expected ?? "").split(/[^\w]+/));
    return BARE_NULL_ARGUMENT.test(fact.actual ?? "") && names.some((name) => FRAMEWORK_NAMESPACES.has(name) && !typeNames.has(name));
  };
}

/** True when `fact` makes checks and each is one `isRethrown` finds made again without its message (flipped-refusals.ts isRethrownWithoutMessage). */
function isRethrownCheck(fact: AssertionFact, isRethrown: (check: Check) => boolean): boolean {
  const checks = toChecks(fact);
  return checks.length > 0 && checks.every(isRethrown);
}

/**
 * The text of a check's subject or expected value with its variables, plain
 * names and literals written `_`, calls and members kept
 * (`$constraint->matches($multiConstraint)` -> `_->matches(_)`,
 * `ok(read("a"))` -> `ok(read(_))`): what two checks of one relation on
 * different values share.
 */
function shapeOf(text: string | undefined): string {
  if (text === undefined) return "";
  return tokenize(text)
    .map((token, index, tokens) => {
      if (/^\$\w+$/.test(token) || /^"|^-?\d/.test(token)) return "_";
      const previous = tokens[index - 1];
      const isMember = previous === "." || previous === ">" || previous === ":";
      return /^[A-Za-z_]\w*$/.test(token) && !isMember && tokens[index + 1] !== "(" ? "_" : token;
    })
    .join(" ");
}

/**
 * A judge of removed checks folded into a loop: a check after the change
 * that runs in loops over literal collections (AssertionFact.loopRows, read
 * by `rowsOf` from the fact as extracted) is that many checks, so beside the
 * before check it is paired with (`paired`) it stands for as many more
 * removed checks of the same relation whose subject and expected value have
 * its shape ({@link shapeOf}), and that run wherever it does (its
 * conditions a subset of theirs): two `assertTrue($c->matches($multi))` /
 * `…($matchAll)` become one `assertTrue($c->matches($mock))` inside
 * `foreach (array(Multi::class, MatchAll::class) …)`. A loop over fewer
 * values than the checks it replaced leaves the rest removed. Each call
 * uses up one of the loop's runs.
 */
function loopFolds(after: readonly AssertionFact[], paired: ReadonlySet<AssertionFact>, rowsOf: (fact: AssertionFact) => number | undefined): (lost: AssertionFact) => boolean {
  const spare = new Map<AssertionFact, number>();
  for (const fact of after) {
    const rows = rowsOf(fact);
    if (rows === undefined || fact.tautology || fact.unreachable) continue;
    const left = rows - (paired.has(fact) ? 1 : 0);
    if (left > 0) spare.set(fact, left);
  }
  return (lost) => {
    for (const [now, left] of spare) {
      if (left <= 0 || now.matcher !== lost.matcher || now.negated !== lost.negated) continue;
      if (shapeOf(now.actual) !== shapeOf(lost.actual) || shapeOf(now.expected) !== shapeOf(lost.expected)) continue;
      if (!(now.conditions ?? []).every((condition) => (lost.conditions ?? []).includes(condition))) continue;
      spare.set(now, left - 1);
      return true;
    }
    return false;
  };
}

/** Findings for one surviving test whose two sides both have assertion details. */
function compareDetails(
  test: MatchedTest,
  beforeFacts: AssertionFact[],
  afterFacts: AssertionFact[],
  isCodeChanged: () => boolean,
  isConserved: (fact: AssertionFact) => boolean,
  /** The retired tokens one before assertion (by its index) depends on, for a check of it: empty when it reads only surviving code. */
  retiredOf: (index: number, check: Check) => string[] = () => [],
  /** Whether a lost error check and a kept one are the same call flipped to "does not throw" with the refusal redecided (flipped-refusals.ts). */
  isFlip: (was: Check, now: Check, isSameTest?: boolean) => boolean = () => false,
  /** Whether a lost check is an error check whose call a product wrapper the test now calls panics on ({@link panickingWrappers}). */
  isMadeByWrapper: (fact: AssertionFact) => boolean = () => false,
  /** Whether one lost before assertion (by its index, as extracted) passed a bare null the change's nullable errors no longer compile ({@link nullForcedJudge}). */
  isNullForced: (index: number, fact: AssertionFact) => boolean = () => false,
  /** The checks an after helper call makes, instantiated with its arguments, reachable ones only (checks/index.ts helperCheckParts). */
  helperPartsOf: (fact: AssertionFact) => readonly Check[] = () => [],
): Finding[] {
  const findings: Finding[] = [];
  // Judged as checks (analysis/checks): one relation and strength whatever the framework, text in canonical form.
  const original = new Map<AssertionFact, AssertionFact>();
  const sourceIndex = new Map<AssertionFact, number>();
  const asChecks = new Map<AssertionFact, Check>();
  const normalise = (facts: readonly AssertionFact[]): AssertionFact[] =>
    facts.flatMap((fact, index) =>
      conjunctFacts(fact).map((part) => {
        const asCheck = toCheck(part);
        const check = asCheckFact(part, asCheck);
        original.set(check, part);
        sourceIndex.set(check, index);
        asChecks.set(check, asCheck);
        return check;
      }),
    );
  const before = normalise(beforeFacts);
  const after = normalise(afterFacts);
  const describe = (fact: AssertionFact): string => describeFact(original.get(fact) ?? fact);
  // What an after check's local subject was bound to, and the names it depends on (TestCase.checkNames, by its assertion).
  const boundOf = (fact: AssertionFact): string | undefined => (original.get(fact) ?? fact).actualValue;
  const namesOf = (fact: AssertionFact): readonly string[] => (test.after.checkNames?.length === afterFacts.length ? (test.after.checkNames[sourceIndex.get(fact) ?? -1] ?? []) : []);
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
  const nullForced: AssertionFact[] = [];
  const isFoldedIntoLoop = loopFolds(after, new Set(pairs.map(([, a]) => after[a] as AssertionFact)), (fact) => (original.get(fact) ?? fact).loopRows);
  const lost = removed
    .map((i) => before[i] as AssertionFact)
    .filter(
      (fact) =>
        !fact.tautology &&
        !fact.unreachable &&
        !hasTwin(fact) &&
        !isCoveredByWholerCheck(fact, after, asChecks.get(fact), asChecks, original) &&
        !isBoundMetByEquality(asChecks.get(fact), original.get(fact) ?? fact, after, asChecks) &&
        !isConserved(original.get(fact) ?? fact) &&
        !isMadeByWrapper(original.get(fact) ?? fact) &&
        !isFoldedIntoLoop(fact),
    )
    .filter((fact) => {
      const now = reExpectation(fact, after) ?? carveOutReExpectation(fact, asChecks.get(fact), after, boundOf, namesOf);
      if (now) reExpected.push([fact, now]);
      return now === null;
    })
    .filter((fact) => {
      // A check that passed a bare null to a framework call the change's nullable errors no longer compile is reported apart, at medium.
      const isForced = isNullForced(sourceIndex.get(fact) ?? -1, original.get(fact) ?? fact);
      if (isForced) nullForced.push(fact);
      return !isForced;
    });
  // A helper call whose helper gained an early return before all its assertions is silenced too (for the inputs that take it).
  const isSilencedNow = (was: AssertionFact, now: AssertionFact): boolean => (!was.unreachable && now.unreachable === true) || (!was.gated && now.gated === true && !now.unreachable);
  const silencedPairs = pairs.filter(([b, a]) => isSilencedNow(before[b] as AssertionFact, after[a] as AssertionFact) && !(before[b] as AssertionFact).tautology);
  const silenced = silencedPairs.map(([b]) => before[b] as AssertionFact);
  // Silenced by a double the test made of the code it checks (analysis/doubles.ts), not by an early return.
  const doubles = silencedPairs.map(([, a]) => (original.get(after[a] as AssertionFact) ?? (after[a] as AssertionFact)).doubled).filter((name): name is string => name !== undefined);
  const addedReal = added.map((i) => after[i] as AssertionFact).filter((fact) => !fact.tautology && !fact.unreachable);
  // Assertions removed with the code they checked (each read a name, an overload, an input or a written place the change
  // retired, rules/dependencies.ts): the feature went, as a test deleted with its code does (feature_removal, medium).
  const retired = silenced.length === 0 ? lost.map((fact) => retiredOf(sourceIndex.get(fact) ?? -1, asChecks.get(fact) as Check)) : [];
  if (lost.length > 0 && retired.length === lost.length && retired.every((names) => names.length > 0)) {
    findings.push(
      removedWithCodeFinding(
        test,
        lost.map(describe),
        lost.map((fact) => fact.line),
        retired,
      ),
    );
  } else if (lost.length + silenced.length > 0) {
    const commentedGain = (test.after.commentedAssertions ?? 0) - (test.before.commentedAssertions ?? 0);
    const reasons: string[] = [];
    if (silenced.length > doubles.length) reasons.push(`${silenced.length - doubles.length} can no longer fail the test: after an early return, an early done() or unawaited`);
    if (doubles.length > 0) reasons.push(`${doubles.length} now checking a double the test made: ${[...new Set(doubles)].join(", ")}`);
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
            ...(silenced.length > doubles.length ? { early_return: true } : {}),
            ...(doubles.length > 0 ? { doubled: [...new Set(doubles)] } : {}),
          },
        },
      ),
    );
  }
  if (nullForced.length > 0) {
    const total = nullForced.length;
    findings.push(
      report(
        assertionsRule,
        "nullChecksRemovedUnderNullable",
        { total, plural: total === 1 ? "" : "s", test: test.after.id, file: test.afterFile, were: total === 1 ? "was" : "were" },
        { ...baseFinding(test), evidence: { removed: nullForced.map((fact) => ({ line: fact.line, assertion: describe(fact) })), reclassified_from: "assertion_removal" } },
      ),
    );
  }

  // An error check flipped to "does not throw" on the same call, with the code raising that error redecided (flipped-refusals.ts);
  // where the framework names no call, one test edited in place that still feeds every input it fed.
  const fedAfter = new Set([...(test.after.inputLiterals ?? []), ...(test.after.literals ?? [])]);
  const dropped = [...(test.before.inputLiterals ?? []), ...(test.before.literals ?? [])].filter((literal) => !fedAfter.has(literal));
  // Edited in place: what it no longer feeds is at most the error the flipped check expected.
  const isInPlace = (was: AssertionFact): boolean => test.match !== "moved_and_edited" && dropped.every((literal) => (was.expected ?? "").includes(literal.replace(/^"|"$/g, "")));
  const flipped = pairs
    .map(([b, a]) => [before[b] as AssertionFact, after[a] as AssertionFact] as const)
    .filter(([was, now]) => !was.unreachable && !now.unreachable && isFlip(toCheck(original.get(was) ?? was), toCheck(original.get(now) ?? now), isInPlace(original.get(was) ?? was)));
  // assertion_weakening: a paired assertion got weaker (a lower strength, or an approximate equality that admits more), or a tautology arrived
  const checkOf = (fact: AssertionFact): Check => toCheck(original.get(fact) ?? fact);
  const isWidened = (was: AssertionFact, now: AssertionFact): boolean => now.strength === was.strength && isToleranceWidened(checkOf(was), checkOf(now));
  const isSizeOnly = (was: AssertionFact, now: AssertionFact): boolean => now.strength <= was.strength && isSizeInsteadOfContents(checkOf(was), checkOf(now));
  // A match whose pattern admits more (checks/pattern-widening.ts); the pattern is whichever side is a regex literal.
  const patternText = (check: Check): string | undefined => [check.expected, check.subject].find((text) => patternOf(text) !== null);
  const isPatternLoosened = (was: AssertionFact, now: AssertionFact): boolean => {
    const [before, after] = [checkOf(was), checkOf(now)];
    if (before.relation !== "match" || after.relation !== "match" || before.isNegated || after.isNegated || now.strength !== was.strength) return false;
    const [wasPattern, nowPattern] = [patternText(before), patternText(after)];
    return wasPattern !== undefined && nowPattern !== undefined && isPatternWidened(wasPattern, nowPattern);
  };
  // A check that now runs only when the code before it throws or rejects (a `catch` block, a `.catch` callback) checks nothing when it does not.
  const isFailureOnly = (was: AssertionFact, now: AssertionFact): boolean => (now.conditions ?? []).includes(ON_FAILURE_CONDITION) && !(was.conditions ?? []).includes(ON_FAILURE_CONDITION);
  // A check that now runs only under a condition it did not run under (`if name in KNOWN_BAD: continue` before it in a
  // table loop, an `if` around it), one the environment does not decide: it checks nothing for the cases the condition
  // leaves out. A platform, version or dependency condition is how a branch per environment is written (medium at most
  // elsewhere), a tautology or constant condition is judged by its own rules. Only net new conditions count.
  const gainedConditions = (was: AssertionFact, now: AssertionFact): string[] =>
    (now.conditions ?? []).filter((condition) => condition !== ON_FAILURE_CONDITION && !(was.conditions ?? []).includes(condition) && !isEnvironmentCondition(condition));
  // More conditions than it lost: a condition rewritten (`isset($t["skip"]) && $t["skip"]` -> `$t["skip"] ?? false`) is no new one.
  const isNowConditional = (was: AssertionFact, now: AssertionFact): boolean =>
    gainedConditions(was, now).length > (was.conditions ?? []).filter((condition) => !(now.conditions ?? []).includes(condition)).length;
  // An error check that lost its message while another check of the after test pins that message (the caught error's
  // message checked apart: `except E as err: assert "m" in str(err)`, `e = assertThrows(…); assertEquals("m", e.getMessage())`).
  const unquoted = (text: string): string => text.replace(/^(["'`/])(.*)\1[a-z]*$/s, "$2");
  const isMessageCheckedApart = (was: AssertionFact, now: AssertionFact): boolean => {
    const [then, later] = [checkOf(was), checkOf(now)];
    if (then.relation !== "throws" || later.relation !== "throws" || then.message === undefined || later.message !== undefined) return false;
    if (now.strength !== was.strength - 1 || (then.errorType !== undefined && later.errorType !== then.errorType)) return false;
    const message = unquoted(then.message);
    return (
      message !== "" &&
      after.some((fact) => fact !== now && !fact.tautology && [fact.expected, fact.actual].some((text) => text !== undefined && /^["'`]/.test(text) && unquoted(text).includes(message)))
    );
  };
  // An inline check paired with a helper call is weaker only if what the helper checks is: a helper check of the same
  // relation, at least as strong, on the same local (or a member of it) and expecting a literal of the same kind, pins
  // that value again (`assert result == "b\n"` -> `check_process(result, exit_code=0, stdout="x\n")`): re-expected.
  const helperReExpected: (readonly [AssertionFact, AssertionFact])[] = [];
  const isReExpectedByHelper = (was: AssertionFact, now: AssertionFact): boolean => {
    if (!now.matcher.startsWith("helper ") || was.matcher.startsWith("helper ")) return false;
    const part = helperReExpectation(checkOf(was), helperPartsOf(original.get(now) ?? now));
    if (part !== null) helperReExpected.push([was, { ...now, matcher: part.relation, expected: part.expected ?? "" }]);
    return part !== null;
  };
  const weakened = pairs
    .map(([b, a]) => [before[b] as AssertionFact, after[a] as AssertionFact] as const)
    .filter(
      ([was, now]) =>
        !was.tautology &&
        !was.unreachable &&
        !now.unreachable &&
        (now.strength < was.strength || isWidened(was, now) || isSizeOnly(was, now) || isPatternLoosened(was, now) || isFailureOnly(was, now) || isNowConditional(was, now)) &&
        !isNewErrorCheck(original.get(was) ?? was, original.get(now) ?? now) &&
        !isMessageCheckedApart(was, now) &&
        !isConserved(original.get(was) ?? was) &&
        !isCoveredByPartialCheck(was, after, original) &&
        !isReExpectedByHelper(was, now) &&
        !flipped.some(([flippedWas]) => flippedWas === was) &&
        // An equality re-expected as null while the code under test changed (`to eq(x)` -> `to be_nil`): the one value it
        // expects followed the product, as an edited expected value does; with the code unchanged it checks less.
        !(isNulled(checkOf(was), checkOf(now)) && isCodeChanged()),
    );
  // A wall-clock threshold (`t.true(duration < 10)`) whose test now checks other subjects, as many checks as before or
  // more, none of them timed and none a tautology: the behaviour it timed is observed directly (a spied timer, a fake
  // clock), the usual fix of a flaky timing test. Reported apart, at medium; a threshold loosened on the same measurement
  // stays paired with itself (an expectation changed), one dropped with less in its place is a removal.
  const realCount = (facts: readonly AssertionFact[]): number => facts.filter((fact) => !fact.tautology && !fact.unreachable).length;
  const isTimingReplaced = (was: AssertionFact, now: AssertionFact): boolean =>
    isTimingThreshold(checkOf(was)) && !now.tautology && !readsMeasuredTime(checkOf(now)) && realCount(after) >= realCount(before);
  const timingReplaced = weakened.filter(([was, now]) => isTimingReplaced(was, now));
  weakened.splice(0, weakened.length, ...weakened.filter(([was, now]) => !isTimingReplaced(was, now)));
  if (timingReplaced.length > 0) {
    findings.push(
      report(
        assertionsRule,
        "timingThresholdReplaced",
        { test: test.after.id, file: test.afterFile, parts: timingReplaced.map(([was, now]) => `${describe(was)} -> ${describe(now)}`).join("; ") },
        {
          ...baseFinding(test),
          line: timingReplaced[0]?.[1].line ?? test.after.line,
          evidence: { weakened: timingReplaced.map(([was, now]) => ({ before: describe(was), after: describe(now), before_line: was.line, line: now.line })) },
        },
      ),
    );
  }
  const tautologies = added.map((i) => after[i] as AssertionFact).filter((fact) => fact.tautology && !fact.unreachable);
  // Every weakening an exact expected string relaxed to an anchored pattern that still accepts it (checks/patterns.ts): medium.
  const isRelaxedOnly = tautologies.length === 0 && weakened.length > 0 && weakened.every(([was, now]) => isPatternRelaxation(was, original.get(now) ?? now, now) || isPartialRelaxation(was, now));
  if (weakened.length + tautologies.length > 0) {
    const parts = [
      ...weakened.map(([was, now]) =>
        now.tautology
          ? describe(was) === describe(now)
            ? `${describe(was)} can no longer fail (a handler around it catches its failure)`
            : `${describe(was)} was replaced by a tautology ${describe(now)}`
          : isWidened(was, now)
            ? `${describe(was)} -> ${describe(now)} (tolerance ${describeTolerance(checkOf(was).tolerance)} -> ${describeTolerance(checkOf(now).tolerance)})`
            : isSizeOnly(was, now)
              ? `${describe(was)} -> ${describe(now)} (the contents -> only their size)`
              : isPatternLoosened(was, now)
                ? `${describe(was)} -> ${describe(now)} (the pattern admits more)`
                : isFailureOnly(was, now)
                  ? `${describe(was)} -> ${describe(now)} (now checked only when the code throws or rejects: when it does not, nothing is checked)`
                  : now.strength >= was.strength && isNowConditional(was, now)
                    ? `${describe(was)} now runs only when ${gainedConditions(was, now)
                        .map((condition) => `\`${displayCode(condition)}\``)
                        .join(" and ")}: the other cases are no longer checked`
                    : `${describe(was)} -> ${describe(now)} (strength ${was.strength} -> ${now.strength})`,
      ),
      ...tautologies.map((fact) => `a tautology was added: ${describe(fact)}`),
    ];
    findings.push(
      report(
        assertionsRule,
        isRelaxedOnly ? "relaxedToPattern" : "checksLess",
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
  if (flipped.length > 0) {
    const parts = flipped.map(([was, now]) => `${describe(was)} -> ${describe(now)}`);
    findings.push(
      report(
        assertionsRule,
        "errorCheckFlipped",
        { test: test.after.id, file: test.afterFile, parts: parts.join("; ") },
        { ...baseFinding(test), line: flipped[0]?.[1].line ?? test.after.line, evidence: { flipped: flipped.map(([was, now]) => ({ before: describe(was), after: describe(now), line: now.line })) } },
      ),
    );
    return findings;
  }
  const isImpliedPart = (was: AssertionFact, now: AssertionFact): boolean => {
    const [part, whole] = [asChecks.get(was), asChecks.get(now)];
    return part !== undefined && whole !== undefined && (impliedByWhole(part, whole) === true || isPartOfWholeThroughLocal(original.get(was) ?? was, part, [now], asChecks));
  };
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
        !isMessageCheckedApart(was, now) &&
        // a field check now made by an equality of the whole value that holds the field and agrees (checks/implied.ts)
        !isImpliedPart(was, now) &&
        // equality is symmetric: the operands swapped (`a.equals(b)` -> `assertNotEquals(b, a)`'s order) expect the same
        !(/^(?:not )?equal$/.test(was.matcher) && was.expected === now.actual && was.actual === now.expected),
    );
  // The expectations of one branch unified with the other's (reExpectation): another expected value in that branch's environment.
  changedExpectations.push(...reExpected.filter(([was, now]) => was.matcher !== now.matcher || was.expected !== now.expected));
  // An inline check whose value a helper call now pins, to another expected value (isReExpectedByHelper).
  changedExpectations.push(...helperReExpected.filter(([was, now]) => was.expected !== now.expected));
  // The element a check read, asserted gone by a size of its collection (`get(1).text()` -> `size() == 1`).
  changedExpectations.push(
    ...pairs
      .map(([b, a]) => [before[b] as AssertionFact, after[a] as AssertionFact] as const)
      .filter(([was, now]) => !was.tautology && !now.tautology && isElementSizedAway(checkOf(was), checkOf(now))),
  );
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
  let retired: Set<string> | null = null; // what the change retired (rules/dependencies.ts), read once when a test lost assertions
  const flips = flipJudge(input);
  let stateful: Map<string, string[]> | null = null; // product functions the change made stateful, read once when needed
  let wrappers: Map<string, Set<string>> | null = null; // product functions that panic on a call's error, read once when needed
  const helpersOf = new Map(input.pairs.map((pair) => [pair.path, pair.after?.assertionHelpers ?? []] as const));
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
            // A check of a refusal the change redecided, made again without its message by a test of the change, still pins the failure.
            (fact) => conserved(test, fact) || isRethrownCheck(fact, flips.isRethrown),
            (index, check) => {
              const madeStateful = statefulCallee(test.before.assertionsDetail?.[index], (stateful ??= newlyStatefulFunctions(input.pairs)));
              if (madeStateful !== null) return [madeStateful];
              retired ??= retiredBut(findRetired(input.pairs), input.productRenames);
              return retired.size === 0 ? [] : retiredNamesOf(test.before, index, check, retired);
            },
            flips.isFlip,
            (fact) => isMadeByPanickingWrapper(fact, test, (wrappers ??= panickingWrappers(input.pairs))),
            nullForcedJudge(test, input.nullableErrors ?? []),
            (fact) => helperCheckParts(toCheck(fact), helpersOf.get(test.afterFile) ?? []).filter((part) => part.isReachable && !part.isTautology),
          )
        : compareCounts(test);
    // Assertions moved into an imported helper (`runScenario(dir)` holding the expects) are not removed.
    const lost = test.before.assertionCount - test.after.assertionCount;
    const moved = lost > 0 && delegatedAssertions(test, input) >= lost;
    const kept = moved ? found.filter((f) => f.type !== "assertion_removal") : found;
    const ranBefore = !ranNoChecks(test.before);
    findings.push(...(ranBefore ? kept : kept.map((finding) => ranNotBefore(finding, test.before))));
  }
  findings.push(...helperFindings(input, isCodeChanged));
  return findings;
}

/**
 * A finding on a test that ran no checks before the change (facts.ts
 * ranNoChecks: skipped by a declaration, todo, expected to fail), at low:
 * none of its checks stops running (sweep of sindresorhus/p-queue
 * f43fa4c79d, a `test.skip` enabled without one of its assertions). Its
 * type is kept; a finding of another type (a check removed with the code it
 * checked, already medium) is left as it is.
 */
function ranNotBefore(finding: Finding, before: TestCase): Finding {
  const via = describeNotRun(before);
  if (finding.type === "assertion_removal") return rereport(finding, assertionsRule, "checksOfSkippedTest", { message: finding.message, via });
  if (finding.type === "assertion_weakening") return rereport(finding, assertionsRule, "weakerChecksOfSkippedTest", { message: finding.message, via });
  if (finding.type === "expectation_changed") return rereport(finding, assertionsRule, "otherExpectationOfSkippedTest", { message: finding.message, via });
  return finding;
}

/**
 * Findings on the assertion helpers of the changed files themselves, whose
 * callers may live anywhere (a Go package's other _test.go files, whose
 * bodies did not change), one helper at a time:
 *
 * - a helper whose own checks got weaker (a widened delta, the contents ->
 *   their size): its assertion_weakening ({@link weakenedHelperFindings});
 * - otherwise, a helper of a test file that still exists but lost checks no
 *   check of its after version covers (a Go `assertDrains(t, …)` whose
 *   `t.Errorf` became `t.Logf`, a `check(...)` whose assert was deleted):
 *   one assertion_removal on the helper's line. Not when a changed test
 *   calls it (that caller is judged with its helper calls resolved), when
 *   it was removed with its callers, when its checks may live on in a
 *   helper it now calls, or when it now skips (a skip provider:
 *   test_disabled reports it).
 */
function helperFindings(input: RuleInput, isCodeChanged: (path: string) => boolean): Finding[] {
  const findings: Finding[] = [];
  let calledByChangedTests: Set<string> | null = null; // read once, when a helper lost checks
  const calledHelpers = (): Set<string> =>
    (calledByChangedTests ??= new Set(
      input.matched.flatMap((test) =>
        [...(test.before.assertionsDetail ?? []), ...(test.after.assertionsDetail ?? [])]
          .filter((fact) => fact.matcher.startsWith("helper "))
          .map((fact) => fact.matcher.slice("helper ".length).replace(/\(.*$/s, "")),
      ),
    ));
  const realChecks = (helper: AssertionHelperFact | undefined): Check[] =>
    positionalFacts(helper)
      .map(toCheck)
      .filter((check) => check.isReachable && !check.isTautology);
  for (const pair of input.pairs) {
    const helpersBefore = pair.before?.assertionHelpers ?? [];
    if (helpersBefore.length === 0) continue;
    const before = usable(pair.before);
    const after = usable(pair.after);
    const isTestPairNow = before?.isTestFile === true && after?.isTestFile === true;
    const defined = new Set([...(after?.nonTestFunctions ?? []).map((fn) => fn.name), ...(after?.assertionHelpers ?? []).map((helper) => helper.name)]);
    const skipping = new Set((after?.skipProviders ?? []).map((provider) => provider.name));
    for (const helper of helpersBefore) {
      const now = (pair.after?.assertionHelpers ?? []).find((candidate) => candidate.name === helper.name);
      // Only a test file's helpers: a product function that calls an `assert…` of its own (dot-prop's `assertNotStringIndex`)
      // is validation, judged by rules/validation.ts (sweep of sindresorhus/dot-prop 14e9f819a5).
      if (isTestPairNow && helper.assertionsDetail && now?.assertionsDetail) {
        const weakened = weakenedHelperFindings(pair.path, helper, now, () => isCodeChanged(pair.path));
        if (weakened.length > 0) {
          findings.push(...weakened);
          continue;
        }
      }
      if (!isTestPairNow || !defined.has(helper.name) || skipping.has(helper.name) || calledHelpers().has(helper.name)) continue;
      if (now?.assertionsDetail?.some((fact) => fact.matcher.startsWith("helper "))) continue; // its checks may live on in the helper it calls now
      const was = realChecks(helper);
      const is = realChecks(now);
      const lost = was.filter((check) => !is.some((candidate) => coverage(check, candidate, false) !== null || isCalledWithMore(check, candidate)));
      if (lost.length === 0) continue;
      const line = (after?.nonTestFunctions ?? []).find((fn) => fn.name === helper.name)?.line ?? lost[0]?.line ?? null;
      findings.push(
        report(
          assertionsRule,
          "helperChecksRemoved",
          { helper: helper.name, file: pair.path, total: lost.length, realBefore: was.length, were: lost.length === 1 ? "was" : "were" },
          { file: pair.path, line, evidence: { helper: helper.name, removed: lost.map((check) => ({ line: check.line, check: `${check.relation}(${check.subject})` })) } },
        ),
      );
    }
  }
  return findings;
}

/**
 * True when `now` is `was` with arguments appended to the call it checks
 * (`truncate($3, $4)` -> `truncate($3, $4, $5)`: a data-provider test of an
 * abstract PHPUnit base gained a parameter it passes on, symfony/string
 * 912a09f6): the same relation, negation and expected value of the same
 * call, fed one more input. The test comparison reads such an edit as a
 * changed check; a helper's is no check lost, unless an appended argument
 * passes the expected value in (`P.parse(input, expected)` may answer it).
 */
function isCalledWithMore(was: Check, now: Check): boolean {
  if (was.relation !== now.relation || was.isNegated !== now.isNegated || was.expected !== now.expected || !was.subject.endsWith(")") || now.subject.length <= was.subject.length) return false;
  const open = was.subject.slice(0, -1);
  const appended = now.subject.slice(open.length);
  const separator = /\(\s*$/.test(open) ? "" : "\\s*,";
  // An appended argument that passes the expected value in (`parse($1, $2)` of `assertEquals($2, …)`) can make the call answer it.
  const passesExpected = was.expected !== undefined && new RegExp(`(?<![\\w$])${was.expected.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w$])`).test(appended);
  return !passesExpected && now.subject.startsWith(open) && new RegExp(`^${separator}[^()]+(?:\\([^()]*\\)[^()]*)*\\)$`).test(appended);
}

/**
 * A helper's assertions with its plain parameters written by position
 * (`macro(t, fn, expected)`: `fn` -> `$1`), so a helper whose parameters
 * were renamed (`fn` -> `function_`) checks what it checked (sweep of
 * sindresorhus/ora fb0fced9ac). A destructured parameter stays as written.
 */
function positionalFacts(helper: AssertionHelperFact | undefined): AssertionFact[] {
  if (!helper) return [];
  const params = helper.params ?? [];
  if (params.length === 0) return [...(helper.assertionsDetail ?? [])];
  return instantiateHelper(`${helper.name}(${params.map((_, index) => `$${index}`).join(",")})`, { ...helper, absentIsUndefined: false });
}

/** A helper of a test file as the test-shaped record compareDetails reads: its name, its line, its assertions. */
function helperAsTest(helper: AssertionHelperFact): TestCase {
  const assertions = helper.assertionsDetail ?? [];
  return {
    id: `${helper.name} (assertion helper)`,
    name: helper.name,
    suitePath: [],
    line: assertions[0]?.line ?? 1,
    flags: { skipped: false, conditional: false, focused: false, todo: false, failing: false },
    assertionCount: helper.assertions,
    bodyHash: JSON.stringify(assertions.map(({ line: _line, ...fact }) => fact)),
    assertionsDetail: assertions,
  };
}

/**
 * assertion_weakening for one assertion helper of `file` whose checks
 * changed: a paired assertion of it checks less (see compareDetails), and
 * no check of its after side covers what it checked. Removed assertions and
 * changed expectations of a helper are left to the tests that call it.
 */
function weakenedHelperFindings(file: string, before: AssertionHelperFact, after: AssertionHelperFact, isCodeChanged: () => boolean): Finding[] {
  const [was, now] = [helperAsTest(before), helperAsTest(after)];
  if (was.bodyHash === now.bodyHash) return [];
  const afterChecks = (after.assertionsDetail ?? []).flatMap(toChecks).filter((check) => check.isReachable && !check.isTautology);
  const isConserved = (fact: AssertionFact): boolean => toChecks(fact).every((check) => afterChecks.some((other) => coverage(check, other, false) !== null));
  const test: MatchedTest = { beforeFile: file, before: was, afterFile: file, after: now, match: "edited" };
  return compareDetails(test, was.assertionsDetail ?? [], now.assertionsDetail ?? [], isCodeChanged, isConserved).filter((finding) => finding.type === "assertion_weakening");
}

/**
 * A test's calls of assertion helpers as one comparable text: each call's
 * helper, strength, gating and reachability, in order. Two sides of an unchanged test body
 * with the same text check the same through their helpers.
 */
function helperCallsOf(test: TestCase): string {
  return (test.assertionsDetail ?? [])
    .filter((fact) => fact.matcher.startsWith("helper "))
    .map((fact) => `${fact.matcher}\u0000${fact.strength}\u0000${fact.gated === true ? "gated" : ""}${fact.unreachable === true ? "unreachable" : ""}\u0000${fact.actual ?? ""}`)
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
    if (isCheckConserved(check, same, others)) return true;
    // The same check of a function the change renamed, made with its new name (product-renames.ts).
    const renamed = input.productRenames ?? [];
    const followed = renamed.length > 0 ? renamedCheck(check, renamed) : null;
    return followed !== null && isCheckConserved(followed, same, others);
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
    assertionsRemovedWithCode: {
      text: '{{total}} assertion{{plural}} of test "{{test}}" in {{file}} {{were}} removed together with the code {{they}} checked: {{list}}',
      type: "feature_removal",
      severity: "medium",
    },
    fewerAssertions: 'test "{{test}}" in {{file}} has {{fewer}} fewer assertions ({{before}} -> {{after}}){{commented}}',
    helperChecksRemoved: "{{total}} of the {{realBefore}} checks of the shared assertion helper {{helper}} in {{file}} {{were}} removed: every test that calls it checks less",
    checksLess: { text: 'test "{{test}}" in {{file}} checks less: {{parts}}', type: "assertion_weakening", severity: "high" },
    timingThresholdReplaced: {
      text: 'test "{{test}}" in {{file}} no longer bounds a measured time; it checks other subjects instead: {{parts}}',
      type: "assertion_weakening",
      severity: "medium",
    },
    relaxedToPattern: {
      text: 'test "{{test}}" in {{file}} checks less: {{parts}}; what it now expects still accepts the old value and states it (an anchored pattern, or every field of the object)',
      type: "assertion_weakening",
      severity: "medium",
    },
    expectationChanged: {
      text: 'test "{{test}}" in {{file}} now expects something else while the code under test did not change: {{parts}}',
      type: "expectation_changed",
      severity: "medium",
    },
    nullChecksRemovedUnderNullable: {
      text: '{{total}} assertion{{plural}} of test "{{test}}" in {{file}} {{were}} removed that passed a bare null to a framework call, which the nullable errors the change turned on no longer compile',
      severity: "medium",
    },
    checksOfSkippedTest: {
      text: "{{message}}; the test was {{via}} before the change, so these checks did not run then",
      severity: "low",
    },
    weakerChecksOfSkippedTest: {
      text: "{{message}}; the test was {{via}} before the change, so these checks did not run then",
      type: "assertion_weakening",
      severity: "low",
    },
    otherExpectationOfSkippedTest: {
      text: "{{message}}; the test was {{via}} before the change, so its old expectation was not checked then",
      type: "expectation_changed",
      severity: "low",
    },
    errorCheckFlipped: {
      text: 'test "{{test}}" in {{file}} no longer expects the error the change redecided: {{parts}}',
      type: "expectation_changed",
      severity: "medium",
    },
  },
  check: ({ input }: { input: RuleInput }) => assertionFindings(input),
});
