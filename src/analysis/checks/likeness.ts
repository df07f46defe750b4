/**
 * Tests alike by their checks (issue 9, "a test moved/renamed with its
 * subject renamed or identifiers adapted, or a title trimmed, whose checks
 * follow the product change"). The name passes of compare.ts pair tests by
 * id and title; a test that moved to another file AND was renamed, or whose
 * title was reworded beyond recognition, while the product it checks was
 * renamed or changed, has neither its id nor its body hash. Such a test is
 * the same test when its checks are: the same relations, each check keeping
 * either its subject (the expectation follows a product change:
 * `equal(parse("x"), error)` -> `equal(parse("x"), pair)`) or its expected
 * value with a subject that maps through the product rename
 * (`new Converter().toC(212)` -> `converter.toC(212)`,
 * `remaining({timeout: 1000}, 400)` -> `remaining({totalTimeout: 1000}, 400)`,
 * `Cached.get_typedclassmethod(0)` -> `Cached.get_typed(0)`).
 *
 * A local renamed (the subject one plain name on both sides) with the
 * expected value kept is adapted too: the test renamed with the local it
 * checks (Scrutor's `partialClassInstance` -> `compilerGeneratedSubclasses`);
 * one declared with the same value (Check.localValue) is the same check,
 * also when the check expects nothing (`Assert.NotNull(local)`).
 * A check that changed both its subject and its expected value, or its
 * relation or negation, is another check; a test with fewer checks after
 * than before is not alike (it checks less: the deletion or conservation
 * rules judge it). The pairs are then judged as edited tests
 * (rules/assertions.ts): expectation_changed at most.
 */

import { isEmptyLiteral, tokenize, literalTokens } from "./coverage.js";
import type { Check } from "./normalise.js";

/** Score of two checks that are the same text. */
const IDENTICAL = 4;
/** Score of two checks that keep one side (subject or expected) and adapt the other. */
const ADAPTED = 2;

/** Identifiers that are keywords, not names of the product. */
const KEYWORDS = /^(new|this|self|cls|static|await|return|true|false|null|nil|None|True|False|undefined|not|and|or|in|is|lambda|func|function|fn|crate|super)$/;

/**
 * The names a subject calls or reads last: identifiers followed by `(` (the
 * functions and methods called) and the identifier that ends the subject (a
 * constant or a parenthesis-less call: `Upload.mode`). Keywords are left out.
 */
export function calledNames(subject: string): Set<string> {
  const tokens = tokenize(subject);
  const names = new Set<string>();
  tokens.forEach((token, index) => {
    if (!isName(token)) return;
    if (tokens[index + 1] === "(" || index === tokens.length - 1) names.add(token);
  });
  return names;
}

/** True when a token is a name (not a keyword). */
function isName(token: string): boolean {
  return /^[A-Za-z_$][\w$]*[!?]?$/.test(token) && !KEYWORDS.test(token);
}

/**
 * True when two different subjects are the same code under test seen
 * through a rename: they call (or end in) a common name (`toC` in
 * `new Converter().toC(212)` and `converter.toC(212)`; `mode` in
 * `Upload.mode(stream: false)` and `Upload.mode`), or they have the same
 * shape with the same non-empty literals and differ only in names
 * (`Cached.get_typedclassmethod(0)` and `Cached.get_typed(0)`,
 * `ParseDur("1s")` and `ParseDuration("1s")`: the function renamed, its
 * inputs kept).
 */
export function areSubjectsRelated(before: string, after: string): boolean {
  if (before === "" || after === "") return false;
  const called = calledNames(after);
  for (const name of calledNames(before)) if (called.has(name)) return true;
  const left = tokenize(before);
  const right = tokenize(after);
  if (left.length !== right.length || literalTokens(before).length === 0) return false;
  return left.every((token, index) => token === right[index] || (isName(token) && isName(right[index] as string)));
}

/**
 * True when `after` is `before` made again on the successor of a member the
 * change removed: the same relation, negation and expected side, and
 * subjects of the same tokens but one name, `before`'s being in `removed`
 * (`foul.original_error` -> `foul.cause`, `foul.getOriginalError()` ->
 * `foul.getCause()`, `info.value.original_error` -> `info.value.__cause__`),
 * `after`'s name not in `declaredBefore` (a sibling that was there already,
 * `status` -> `state`, is another member, not its successor).
 */
export function isSuccessorCheck(before: Check, after: Check, removed: ReadonlySet<string>, declaredBefore: ReadonlySet<string> = new Set()): boolean {
  if (relationOf(before) !== relationOf(after) || before.isNegated !== after.isNegated || expectedText(before) !== expectedText(after)) return false;
  if (before.isTautology || after.isTautology || !before.isReachable || !after.isReachable) return false;
  const left = tokenize(before.subject);
  const right = tokenize(after.subject);
  if (left.length === 0 || left.length !== right.length) return false;
  const differing = left.flatMap((token, index) => (token === right[index] ? [] : [index]));
  if (differing.length !== 1) return false;
  const index = differing[0] as number;
  const [was, now] = [left[index] as string, right[index] as string];
  return isName(was) && isName(now) && !KEYWORDS.test(now) && removed.has(was) && !declaredBefore.has(now);
}

/** True when a subject is one plain name (a local holding the value under test: `partial`, `$levels`), not a call, member or literal. */
function isLocalName(subject: string): boolean {
  return /^\$?[A-Za-z_][\w]*$/.test(subject) && !KEYWORDS.test(subject);
}

/** The expected side of a check as one text: the expected value, or a throws/warns check's error type and message. */
function expectedText(check: Check): string {
  return check.relation === "throws" || check.relation === "warns" ? `${check.errorType ?? ""}\u0000${check.message ?? ""}` : (check.expected ?? "");
}

/**
 * The relation a check is compared by for likeness: an equality with an
 * empty collection or string (`assert attempts == []`) is the size check
 * `len(attempts) == 0` it states, so a test whose expectation moved from
 * "none" to "one" (`len(attempts) == 1`) keeps the same check.
 */
function relationOf(check: Check): Check["relation"] {
  return check.relation === "equal" && check.expected !== undefined && isEmptyLiteral(check.expected) ? "length" : check.relation;
}

/**
 * How far {@link checkLikeness} follows a test's locals: `none` compares
 * subjects as text; `same` also takes one local name read on both sides as
 * one subject, its binding followed on one side only or changed (the
 * test's input edited: a pair alike only so stays in its file); `renamed`
 * also takes a local renamed with its expected value kept.
 */
export type LocalsLevel = "none" | "same" | "renamed";

/**
 * How alike a before check and an after check are (0 when they are not the
 * same check): {@link IDENTICAL} for the same subject and expected value;
 * {@link ADAPTED} for the same relation and negation with the subject kept
 * and the expected value changed, or the expected value kept and the subject
 * related through a rename ({@link areSubjectsRelated}) or a local renamed
 * (`Assert.Contains(T, partial)` -> `Assert.Contains(T, subclasses)`: both
 * subjects one plain name, the expected value kept and not empty; a local
 * renamed with its expected value changed is another check). The subject is
 * kept when it is the same text, or (from level `same`, {@link LocalsLevel})
 * the same local as written. Relations compare through {@link relationOf}.
 * Tautologies and unreachable checks are never alike. `true` = `renamed`,
 * `false` = `none`.
 */
export function checkLikeness(before: Check, after: Check, allowRenamedLocal: boolean | LocalsLevel = true): number {
  const level: LocalsLevel = allowRenamedLocal === true ? "renamed" : allowRenamedLocal === false ? "none" : allowRenamedLocal;
  if (relationOf(before) !== relationOf(after) || before.isNegated !== after.isNegated) return 0;
  if (before.isTautology || after.isTautology || !before.isReachable || !after.isReachable) return 0;
  // The same local read on both sides is the same subject, whether or not its binding was followed (`failures` and the
  // `recordingQueue().failures` it was destructured from: an element of a bundled equality keeps the name).
  const isSubjectKept = before.subject === after.subject || (level !== "none" && (before.local ?? before.subject) === (after.local ?? after.subject));
  const isExpectedKept = expectedText(before) === expectedText(after);
  if (isSubjectKept && isExpectedKept) return IDENTICAL;
  if (isSubjectKept) return before.subject === "" ? 0 : ADAPTED;
  if (isExpectedKept && areSubjectsRelated(before.subject, after.subject)) return ADAPTED;
  if (level === "renamed" && isExpectedKept && expectedText(before) !== "" && isLocalName(before.subject) && isLocalName(after.subject)) return ADAPTED;
  // A local renamed that holds the same value (`var partial = provider.GetService<T>()` -> `var subclass = …` the same):
  // the same check, whatever it expects, also when it expects nothing (`Assert.NotNull(local)`).
  if (isExpectedKept && before.localValue !== undefined && before.localValue === after.localValue && isLocalName(before.subject) && isLocalName(after.subject)) return IDENTICAL;
  return 0;
}

/**
 * How alike two tests are by their checks, 0-1 (0: not alike). Every check
 * of `before` must have its own alike check in `after` (in order of best
 * likeness, each after check used once), and `after` may add checks but
 * never have fewer; a before test without checks is alike to nothing. The
 * score is the mean likeness over the before checks, scaled to 0-1.
 */
export function testLikeness(before: readonly Check[], after: readonly Check[], allowRenamedLocal: boolean | LocalsLevel = true): number {
  if (before.length === 0 || after.length < before.length) return 0;
  const used = new Set<number>();
  let total = 0;
  for (const check of before) {
    let best = -1;
    let bestScore = 0;
    after.forEach((candidate, index) => {
      if (used.has(index)) return;
      const score = checkLikeness(check, candidate, allowRenamedLocal);
      if (score > bestScore) {
        best = index;
        bestScore = score;
      }
    });
    if (best === -1) return 0;
    used.add(best);
    total += bestScore;
  }
  return total / (before.length * IDENTICAL);
}

/** One test offered to {@link pairAlikeTests}: its checks and where it is (file, suite path joined). */
export interface LikenessCandidate {
  checks: readonly Check[];
  file: string;
  suite: string;
  /** The literals the test's body feeds the code or expects (any order); a pair that is alike only through a renamed local must keep them. */
  literals?: readonly string[];
  /** True for a table test (literal rows): its names bind to its rows, which the conservation of checks reads, so it pairs here by its checks' text only. */
  hasRows?: boolean;
}

/** True when two lists hold the same literals as multisets. */
function isSameLiterals(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const left = [...a].sort();
  const right = [...b].sort();
  return left.every((literal, index) => literal === right[index]);
}

/** Most before x after test pairs {@link pairAlikeTests} scores; past it, nothing is paired (a change that large is judged by conservation alone). */
export const MAX_LIKENESS_PAIRS = 40_000;

/**
 * Pairs before tests with after tests whose checks are alike
 * ({@link testLikeness}), each test at most once, as many pairs as possible
 * (augmenting paths), each before test trying its most alike candidates
 * first (same suite, then same file, break ties). A pair alike only
 * through a renamed local (see {@link checkLikeness}) needs the same file
 * and the same literals on both sides; one alike only through a local of the
 * same name ({@link LocalsLevel} `same`) needs the same file and no table
 * on either side (a merge into a table is conservation's to judge). Returns
 * index pairs [before, after].
 */
export function pairAlikeTests(before: readonly LikenessCandidate[], after: readonly LikenessCandidate[]): [number, number][] {
  if (before.length === 0 || after.length === 0 || before.length * after.length > MAX_LIKENESS_PAIRS) return [];
  const options: number[][] = before.map((test) => {
    const scored: [number, number][] = [];
    after.forEach((candidate, index) => {
      const score = testLikeness(test.checks, candidate.checks);
      if (score === 0) return;
      // A local renamed says little on its own (`Assert.Equal(3, parsed)` ~ `Assert.Equal(3, count)`): such a pair stays in its file and keeps the test's inputs.
      // A local of one name whose binding changed (the test's inputs edited) is a test retitled in place: it stays in its file.
      const isTextAlike = testLikeness(test.checks, candidate.checks, "none") > 0;
      const isRenamedLocalOnly = !isTextAlike && testLikeness(test.checks, candidate.checks, "same") === 0;
      if (isRenamedLocalOnly && (candidate.file !== test.file || !isSameLiterals(test.literals ?? [], candidate.literals ?? []))) return;
      if (!isTextAlike && (candidate.file !== test.file || candidate.hasRows === true || test.hasRows === true)) return;
      const place = (candidate.file === test.file ? 0.02 : 0) + (candidate.file === test.file && candidate.suite === test.suite ? 0.01 : 0);
      scored.push([index, score + place]);
    });
    return scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([index]) => index);
  });
  const ownerOf = new Map<number, number>();
  const augment = (index: number, seen: Set<number>): boolean => {
    for (const candidate of options[index] ?? []) {
      if (seen.has(candidate)) continue;
      seen.add(candidate);
      const owner = ownerOf.get(candidate);
      if (owner === undefined || augment(owner, seen)) {
        ownerOf.set(candidate, index);
        return true;
      }
    }
    return false;
  };
  before.forEach((_, index) => augment(index, new Set()));
  return [...ownerOf].map(([afterIndex, beforeIndex]): [number, number] => [beforeIndex, afterIndex]).sort((a, b) => a[0] - b[0]);
}
