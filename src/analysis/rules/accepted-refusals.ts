/**
 * A test that checked an input is refused, deleted as the change makes the
 * code accept that input (class refusal-test-accepted; sweep of
 * vlucas/phpdotenv 1a7ea2afc4: `testParseUnicodeName` expected
 * "Encountered an invalid name at [FOOƱ]." from `parse('FOOƱ=BAZ')`, and
 * with unicode names allowed `testUnicodeNameParse` checks what
 * `parse('FOOƱ=BAZ')` now gives). The whole-test counterpart of a rejection
 * row moved to an accepting table (checks/rejection.ts): the input is still
 * checked, for its new answer, so the deletion is an expectation changed
 * (medium), not a test deleted.
 *
 * It holds when the deleted test's checks (helper calls read through their
 * helpers' checks) are all refusals (checks/rejection.ts isRejectionCheck:
 * a thrown error, or an error the call returned that the test reads), every
 * input it fed (its literals, less those its checks expect and messages
 * for people) is fed by one new or edited test of the after side whose
 * checks are not all refusals and which calls a name the deleted test
 * called, and the change rewrote what decides the refusal. That is read
 * from the product functions the deleted test reaches (the names its checks
 * depend on, followed through the calls of the change's product files,
 * validation.ts refusalFates): the guards of those functions that raise the
 * error the test expected (by its message, else its specific error class;
 * every guard there when the test names neither) must include one the change
 * redecided (its condition, or a function the condition calls, rewritten)
 * or removed as it implemented the case. A refusal kept as it was, or one
 * replaced by a default answer (validation_bypass), accepts nothing new; a
 * new test of another input checks something else. Where those functions
 * hold no guard the extractor reads (an error result built by a helper,
 * `Error::create(…)`), a rewrite of one of them is the evidence.
 */

import { checkedTest, isMessageLiteral, literalsOfTest, type Check } from "../checks/index.js";
import { canonicalText } from "../checks/normalise.js";
import { calledNames } from "../checks/likeness.js";
import { isRejectionCheck, isRejectionTest } from "../checks/rejection.js";
import { hasUsableFacts, type FileFacts, type TestCase } from "../facts.js";
import type { Finding } from "../types.js";
import { usable, type RuleInput } from "./context.js";
import { rereport, type RuleMeta } from "./registry.js";
import { addedRefusals, isRewordedMessage, refusalFates, type GuardFate } from "./validation.js";

/** A test of the after side the change added or edited, with what {@link acceptRefusedInputs} compares. */
interface Successor {
  file: string;
  test: TestCase;
  literals: Map<string, number>;
  called: Set<string>;
  isRefusalOnly: boolean;
  /** Its own checks (helper calls read through their helpers). */
  checks: Check[];
}

/** The checks that say something of their own: helper calls stand for the checks of their helpers, which checkedTest lists too. */
function ownChecks(checks: readonly Check[]): Check[] {
  return checks.filter((check) => check.relation !== "helper");
}

/** The names a test's checks call and depend on (TestCase.checkNames: through the locals they read), with the names its body goes through (TestCase.calls) and runs directly (TestCase.directCalls: `const result = normalizeOptions(…)`). */
function calledBy(test: TestCase, checks: readonly Check[]): Set<string> {
  return new Set([
    ...checks.flatMap((check) => [...calledNames(check.subject), ...calledNames(check.localValue ?? "")]),
    ...(test.directCalls ?? []).flatMap((text) => [...calledNames(canonicalText(text))]),
    ...(test.checkNames ?? []).flat().filter((name) => /^[A-Za-z_$][\w$]*$/.test(name)),
    ...(test.calls ?? []),
  ]);
}

/** A multiset of literals (literal -> count). */
function countOf(literals: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const literal of literals) counts.set(literal, (counts.get(literal) ?? 0) + 1);
  return counts;
}

/** The tests of the after side's test files that are new or whose body changed (a test kept byte for byte took nothing over). */
function successorsOf(input: RuleInput): Successor[] {
  return input.pairs.flatMap((pair) => {
    const facts = usable(pair.after);
    if (!facts?.isTestFile) return [];
    const kept = new Set((usable(pair.before)?.tests ?? []).map((test) => `${test.id}\u0000${test.bodyHash}`));
    return facts.tests
      .filter((test) => !kept.has(`${test.id}\u0000${test.bodyHash}`))
      .map((test) => {
        const checks = ownChecks(checkedTest(pair.path, test, facts).checks);
        return { file: pair.path, test, literals: countOf(literalsOfTest(test)), called: calledBy(test, checks), isRefusalOnly: checks.length === 0 || isRejectionTest(checks), checks };
      });
  });
}

/** The literals a refusal test fed the code: all of its own but those its checks expect (the error, its message) and messages for people. */
function fedLiterals(test: TestCase, checks: readonly Check[]): string[] {
  const expected = checks.map((check) => [check.expected, check.message, check.errorType].filter((text) => text !== undefined).join("\u0000"));
  return literalsOfTest(test).filter((literal) => {
    if (isMessageLiteral(literal)) return false;
    const bare = literal.replace(/^(["'`])([\s\S]*)\1$/, "$2");
    return bare !== "" && !expected.some((text) => text.includes(bare));
  });
}

/** True when `literals` holds every literal of `needed`, as a multiset. */
function holdsAll(literals: ReadonlyMap<string, number>, needed: readonly string[]): boolean {
  const left = new Map(literals);
  return needed.every((literal) => {
    const count = left.get(literal) ?? 0;
    left.set(literal, count - 1);
    return count > 0;
  });
}

/** True when the change edits product code: a changed analysable file that is no test file on either side. */
function isProductChanged(input: RuleInput): boolean {
  return input.pairs.some((pair) => [pair.before, pair.after].some((facts: FileFacts | null) => facts !== null && hasUsableFacts(facts) && !facts.isTestFile));
}

/** Calls followed at most from a test into the change's product functions. */
const MAX_DEPTH = 6;

/** `text` without whitespace: canonical text drops it around punctuation, messages keep it. */
const squeezed = (text: string): string => text.replace(/\s+/g, "");

/** True when a guard raises the error `checks` expect: its message's longest literal part (8+ characters) is in a check's expected text, else its error class is the one they name. */
function raisesExpected(guard: GuardFate, checks: readonly Check[]): boolean {
  const expected = checks.map((check) => squeezed([check.expected, check.message].filter((text) => text !== undefined).join(" ")));
  const parts = messageParts(guard);
  if (parts.length > 0 && expected.some((text) => parts.some((part) => text.includes(part)))) return true;
  const types = checks.flatMap((check) => (check.errorType === undefined ? [] : [check.errorType.replace(/^.*[.:\\]/, "")]));
  return types.includes(guard.errorClass.replace(/^.*[.:\\]/, ""));
}

/** The change's product functions that `names` reach through their calls (at most {@link MAX_DEPTH} deep), by short name. */
function reachedFrom(names: Iterable<string>, fates: ReturnType<typeof refusalFates>): Set<string> {
  const reached = new Set<string>();
  let frontier = [...names].filter((name) => fates.functions.has(name));
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0; depth++) {
    for (const name of frontier) reached.add(name);
    frontier = [...new Set(frontier.flatMap((name) => fates.functions.get(name)?.calls ?? []))].filter((name) => fates.functions.has(name) && !reached.has(name));
  }
  return reached;
}

/** True when the change rewrote what decides the refusal `checks` expect from the code `names` reach (see the module comment). */
function isRefusalRedecided(names: ReadonlySet<string>, checks: readonly Check[], fates: ReturnType<typeof refusalFates>): boolean {
  const reached = reachedFrom(names, fates);
  const guards = fates.guards.filter((guard) => reached.has(guard.function));
  if (guards.length === 0) return [...reached].some((name) => fates.functions.get(name)?.isChanged === true);
  const raising = guards.filter((guard) => raisesExpected(guard, checks));
  return (raising.length > 0 ? raising : guards).some((guard) => guard.fate === "redecided" || guard.fate === "implemented");
}

/**
 * The test_deletion findings of refusal tests whose input a new or edited
 * test now feeds for its accepted answer (see the module comment),
 * rewritten through `rule`'s `messageId` (data: test, path, successor),
 * and removed rows of a table test that refused inputs the change now
 * accepts ({@link acceptedRows}) through `rowsMessageId` (data: test, path,
 * count, guard, successor); other findings as they are. Reads nothing when no finding is a deletion
 * or no product code changed.
 */
export function acceptRefusedInputs<Ids extends string>(findings: readonly Finding[], input: RuleInput, rule: RuleMeta<Ids>, messageId: Ids, rowsMessageId: Ids, refusedMessageId?: Ids): Finding[] {
  if (!findings.some((finding) => finding.type === "test_deletion") || !isProductChanged(input)) return [...findings];
  let successors: Successor[] | null = null;
  let fates: ReturnType<typeof refusalFates> | null = null;
  return findings.map((finding) => {
    if (finding.type !== "test_deletion" || finding.severity === "low" || finding.test === undefined) return finding;
    if (Array.isArray(finding.evidence?.removed_rows)) {
      fates ??= refusalFates(input.pairs);
      const accepted = acceptedRows(finding, input, fates);
      if (accepted === null) return finding;
      return rereport(
        finding,
        rule,
        rowsMessageId,
        { test: finding.test, path: finding.file, count: accepted.rows, guard: accepted.guard, successor: accepted.successor },
        { evidence: { ...finding.evidence, accepted_by: accepted.successor, reclassified_from: "test_deletion" } },
      );
    }
    const path = finding.before_file ?? finding.file;
    const facts = usable(input.pairs.find((pair) => pair.path === path)?.before ?? null);
    const test = facts?.tests.find((candidate) => candidate.id === finding.test && (finding.before_line == null || candidate.line === finding.before_line));
    if (!facts || !test) return finding;
    const checks = ownChecks(checkedTest(path, test, facts).checks);
    if (!isRejectionTest(checks)) {
      if (refusedMessageId === undefined || checks.length === 0 || checks.some(isRejectionCheck)) return finding;
      successors ??= successorsOf(input);
      const refusing = refusingSuccessor(test, checks, successors, input);
      if (refusing === null) return finding;
      const named = `"${refusing.test.id}" in ${refusing.file}`;
      return rereport(finding, rule, refusedMessageId, { test: finding.test, path, successor: named }, { evidence: { ...finding.evidence, refused_by: named, reclassified_from: "test_deletion" } });
    }
    const fed = fedLiterals(test, checks);
    const called = calledBy(test, checks);
    if (fed.length === 0 || called.size === 0) return finding;
    successors ??= successorsOf(input);
    const successor = successors.find((candidate) => !candidate.isRefusalOnly && holdsAll(candidate.literals, fed) && [...candidate.called].some((name) => called.has(name)));
    if (!successor) return finding;
    fates ??= refusalFates(input.pairs);
    if (!isRefusalRedecided(called, checks, fates)) return finding;
    const named = `"${successor.test.id}" in ${successor.file}`;
    return rereport(finding, rule, messageId, { test: finding.test, path, successor: named }, { evidence: { ...finding.evidence, accepted_by: named, reclassified_from: "test_deletion" } });
  });
}

/**
 * The new or edited test that checks the refusal of what a deleted test of
 * an answer fed, as the change starts refusing it (class
 * answer-test-refused; sweep of expressjs/body-parser 2322e111cc:
 * "should return null for an invalid limit" expected `normalizeOptions({
 * limit: 'invalid' }).limit` to be null, and with `throw new
 * TypeError(\`option limit "…" is invalid\`)` added, "should throw an error
 * for an invalid string limit" expects that refusal for the same input).
 * The mirror of an accepted refusal: every input the deleted test fed (its
 * literals, less those its checks expect and messages) is fed by one
 * successor that calls a name the deleted test called and makes a
 * rejection check (checks/rejection.ts), and the change added a refusal
 * (a throw no guard of that function raised before) in a product function
 * those names reach, whose message or error class that rejection check
 * expects. Null otherwise: a value test deleted with nothing refusing its
 * input, or refused by code the change did not touch, is still deleted.
 */
function refusingSuccessor(test: TestCase, checks: readonly Check[], successors: readonly Successor[], input: RuleInput): Successor | null {
  // A null check's expected value is written as a literal of the test (`assert f("x") is None`): expected, not fed.
  const expectsNull = checks.some((check) => check.relation === "nullish" && !check.isNegated);
  const fed = fedLiterals(test, checks).filter((literal) => !(expectsNull && /^(?:None|null|nil|undefined)$/.test(literal)));
  const called = calledBy(test, checks);
  if (fed.length === 0 || called.size === 0) return null;
  const added = addedRefusals(input.pairs);
  if (added.length === 0) return null;
  const reached = reachedFrom(called, refusalFates(input.pairs));
  const candidates = added.filter((guard) => reached.has(guard.function) || called.has(guard.function));
  if (candidates.length === 0) return null;
  return (
    successors.find((candidate) => {
      if (!holdsAll(candidate.literals, fed) || ![...candidate.called].some((name) => called.has(name))) return false;
      const refusals = candidate.checks.filter(isRejectionCheck);
      return refusals.length > 0 && candidates.some((guard) => raisesExpected(guard, refusals));
    }) ?? null
  );
}

/** The names a row's elements spell (`fnc : SortSlices`, `args : args ( strings . Compare )`). */
function namesOfRow(elements: readonly string[]): Set<string> {
  return new Set(elements.flatMap((element) => element.match(/[A-Za-z_$][\w$]*/g) ?? []));
}

/** The message parts of a guard worth matching (8+ characters, whitespace squeezed). */
function messageParts(guard: GuardFate): string[] {
  return guard.messages
    .flatMap((message) => message.split("\uFFFC"))
    .map(squeezed)
    .filter((part) => part.length >= 8);
}

/**
 * True when one of `literals` spells a message part of `guard`, or the
 * guard's message reworded (three quarters of its words, three or more:
 * "invalid less function" in "invalid less or compare function").
 */
function spellsMessageOf(literals: readonly string[], guard: GuardFate): boolean {
  const parts = messageParts(guard);
  if (parts.length > 0 && literals.some((literal) => parts.some((part) => squeezed(literal).includes(part)))) return true;
  return literals.some((literal) => isRewordedMessage(guard.messages.join(" "), literal));
}

/**
 * What makes the removed rows of a table test (a test_deletion with
 * `evidence.removed_rows`) refusals the change now accepts (class
 * refusal-rows-accepted; sweep of google/go-cmp 391980c4b2: `SortSlices`
 * accepts `func(T, T) int` as well as a less function, so the TestPanic
 * rows expecting "invalid less function" for `strings.Compare` went, and
 * TestOptions gained rows sorting with a compare function), or null. Each
 * row counted holds the message of a guard the change redecided (its
 * condition rewritten, its message possibly reworded) or implemented, in a
 * product function the row names or reaches; and the after side accepts
 * that function's input anew: a row added to a table whose values name a
 * function reaching the guard and spell none of its messages, or a new test
 * calling one that checks an answer. The counted rows must cover every row
 * lost (removed less added) and every removed row no added row holds the
 * values of.
 */
function acceptedRows(finding: Finding, input: RuleInput, fates: ReturnType<typeof refusalFates>): { rows: number; guard: string; successor: string } | null {
  const path = finding.before_file ?? finding.file;
  const test = usable(input.pairs.find((pair) => pair.path === path)?.before ?? null)?.tests.find(
    (candidate) => candidate.id === finding.test && (finding.before_line == null || candidate.line === finding.before_line),
  );
  const elements = test?.eachRowElements;
  if (!test || !elements) return null;
  const rows = finding.evidence?.removed_rows as number[];
  const added = typeof finding.evidence?.added_rows === "number" ? finding.evidence.added_rows : 0;
  const without = Array.isArray(finding.evidence?.rows_without_values) ? (finding.evidence.rows_without_values as number[]) : [];
  const redecided = fates.guards.filter((guard) => guard.fate === "redecided" || guard.fate === "implemented");
  if (redecided.length === 0) return null;
  const called = calledBy(test, ownChecks(checkedTest(path, test, usable(input.pairs.find((pair) => pair.path === path)?.before ?? null)).checks));
  const accepted = new Map<number, GuardFate>();
  for (const row of rows) {
    const values = elements[row - 1] ?? [];
    const literals = test.eachRowLiterals?.[row - 1] ?? values;
    const reached = reachedFrom([...namesOfRow(values), ...called], fates);
    const guard = redecided.find((candidate) => reached.has(candidate.function) && spellsMessageOf(literals, candidate));
    if (guard) accepted.set(row, guard);
  }
  const lost = rows.length - added;
  if (accepted.size === 0 || accepted.size < lost || !without.every((row) => accepted.has(row))) return null;
  const guards = [...new Set(accepted.values())];
  const successor = newAcceptance(input, guards, fates);
  if (successor === null) return null;
  const guard = guards[0] as GuardFate;
  return { rows: Math.max(lost, without.length), guard: `"${guard.messages[0]?.replaceAll("\uFFFC", "…") ?? guard.errorClass}" of ${guard.function}`, successor };
}

/**
 * Where the after side checks an answer of a function holding one of
 * `guards` that it did not check before: a row added to a table test (its
 * values, as written, absent from the table's before rows) that, with the
 * table's own calls, reaches the guard's function and spells none of its
 * messages (reworded or not: a re-expected refusal row), or a new test
 * whose calls reach it and whose checks are not all refusals; null when
 * there is none. Returns `"<test>" in <file>`.
 */
function newAcceptance(input: RuleInput, guards: readonly GuardFate[], fates: ReturnType<typeof refusalFates>): string | null {
  const functions = new Set(guards.map((guard) => guard.function));
  const reaches = (names: Iterable<string>): boolean => [...reachedFrom(names, fates)].some((name) => functions.has(name));
  for (const pair of input.pairs) {
    const facts = usable(pair.after);
    if (!facts?.isTestFile) continue;
    const before = usable(pair.before)?.tests ?? [];
    for (const test of facts.tests) {
      const was = before.find((candidate) => candidate.id === test.id);
      if (test.eachRowElements && was?.eachRowElements) {
        const old = new Set(was.eachRowElements.map((values) => values.join("\u0000")));
        const isNew = (values: readonly string[]): boolean => !old.has(values.join("\u0000"));
        const called = calledBy(test, ownChecks(checkedTest(pair.path, test, facts).checks));
        const isAccepting = (values: readonly string[]): boolean => reaches([...namesOfRow(values), ...called]) && !guards.some((guard) => spellsMessageOf(values, guard));
        if (test.eachRowElements.some((values) => isNew(values) && isAccepting(values))) return `"${test.id}" in ${pair.path}`;
        continue;
      }
      if (was) continue;
      const checks = ownChecks(checkedTest(pair.path, test, facts).checks);
      if (checks.length > 0 && !isRejectionTest(checks) && reaches(calledBy(test, checks))) return `"${test.id}" in ${pair.path}`;
    }
  }
  return null;
}
