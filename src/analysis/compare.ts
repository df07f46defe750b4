/**
 * Facts before and after -> findings. Tests are matched across all changed
 * files, each before test to at most one after test, in passes from the
 * strictest key to the loosest:
 *
 *   1. same file, same id, same body hash   (unchanged)
 *   2. same file, same id                   (edited in place)
 *   3. any file, same id, same body hash    (moved)
 *   4. same file, same body hash            (renamed)
 *   5. any file, same body hash             (moved and renamed)
 *   6. any file, same id                    (moved and edited)
 *   6b. same file, a suite renamed (others of its tests matched it by
 *      body under the new suite path): same test name in the renamed suite
 *      (moved and edited)
 *   6c. any file or suite, the same descriptive title (3+ words), one
 *      unpaired test of that title on each side (moved and edited)
 *   7. same file and suite, a reworded descriptive title (retitled): both
 *      titles have at least 3 words and share at least 75% of them, e.g.
 *      "reads … with and without a base cache" -> "… with and without
 *      caches", or one title is the other with words added at its end,
 *      start or in one place in the middle ("… is a deletion" -> "… is a
 *      deletion (and a removal)", "… to zero when …" -> "… to zero or
 *      unset when …"); the pair
 *      is then judged on its assertions and flags like
 *      any edited test. Short titles never pair this way ("rounds" ->
 *      "rounding" with a new body stays a deletion).
 *   7b. same file, a test that became a suite of its own name
 *      (`test_vec_deque` -> `mod vec_deque { … }`, a suite new after the
 *      change): a test of that suite whose checks call what the test's did
 *      (retitled)
 *   8. any file, alike checks (checks/likeness.ts): the same relations,
 *      each check keeping its subject (the expectation follows a product
 *      change) or its expected value (the subject follows a product rename:
 *      `new Converter().toC(212)` -> `converter.toC(212)`), no fewer checks
 *      after (moved and edited, or retitled in the same file).
 *   8b. same file and suite, untitled tests (named by their body: RSpec
 *      `example { … }`) left on both sides in equal numbers, by their order
 *      (retitled)
 *   9. same file, a parent test renamed: its subtests were paired with the
 *      subtests of one after test (retitled).
 *  10. same file and suite, a title with words the change renames
 *      (title-renames.ts): `"Buffer response"` -> `"Uint8Array response"`
 *      where a product or documentation line says `Uint8Array` for
 *      `Buffer`, or another test was retitled alike; one candidate on each
 *      side (retitled).
 *
 * Name matching is the fast first pass and what messages quote. A before
 * test still without a partner is then judged by the conservation of its
 * checks (analysis/checks, {@link conservationFindings}): when every check
 * it made is made, equal or stronger, by a new or edited after test
 * (merged into a table, split, a test that became a suite of its own name,
 * moved and retitled, migrated), it is not deleted; when only some are, it
 * is an assertion_removal naming the others. A before test left without a
 * partner and without its checks was deleted (judged per test, never
 * by net count); a matched pair whose after side gained a flag was disabled;
 * a table test that lost rows lost test cases.
 * Duplicate ids pair up by multiplicity, in source order.
 *
 * Tests are first resolved across files (inheritance.ts): a class collects
 * the test methods of its bases, so one declaration can run as several test
 * cases (TestSigner > test_a, and TestTimestampSigner > test_a in a file
 * that subclasses it). Every instance is matched on its own, and findings
 * are reported once per declaration: a base method deleted is one
 * test_deletion at the method, naming the subclasses it also ran in; a
 * subclass that stops inheriting tests whose declaration survives (its base
 * changed) is one test_deletion per class; a flag or an assertion change
 * on a base method is judged once. Instances of an imported test class that
 * its own module also collects (declaredAt.isRepeat) are never judged.
 *
 * A side whose file the test runner does not collect (its config leaves the
 * file out: FactsPair.notCollected) takes no part in those passes: its
 * tests never run. Before tests still unmatched are then matched, by the
 * same passes, against the tests of after files the runner does not
 * collect: a test found there has left discovery (test_disabled), whether
 * its file was moved out of the runner's patterns or the patterns moved.
 * A file the config's include patterns never reached (FactsPair.byConventions)
 * is not "not collected": it is judged as without a config, since another
 * config or runner may run it.
 */

import { changesPermissions, isPrivilegedRunProbe, skipConditionKind } from "./checks/skip-condition.js";
import { describeNotRun, hasUsableFacts, ranNoChecks, type FileFacts, type TestCase, type TestFlag } from "./facts.js";
import { canonicalText, checkedTest, conserve, describeCheck, literalKey, removedDeclarations, type CheckedTest } from "./checks/index.js";
import { splitArguments, splitCall, type Check } from "./checks/normalise.js";
import { isAcceptedAfter, isMovedToOtherTable, isRebuiltFromTemplate, isRejectionTest, rowInputs, type AfterTable } from "./checks/rejection.js";
import { calledNames, pairAlikeTests, type LikenessCandidate } from "./checks/likeness.js";
import { EMPTY_CLASS_CONTEXT, resolveTestsAcross, type ClassContext } from "./inheritance.js";
import { hasCodeUnderTestChanged, isProductCode, usable } from "./rules/context.js";
import { productRenames, renamedCheck, type ProductRename } from "./product-renames.js";
import { titleSubstitution, type RenameWitness, type TitleSubstitution } from "./title-renames.js";
import { applyRules, defaultSeverityOf, type ExercisingFile, type MatchedTest, type RuleInput } from "./rules/index.js";
import type { Runtime, StatedSupport, SupportChange } from "./support.js";
import type { DroppedDependency } from "./dropped-dependencies.js";
import type { NeighbourCode } from "./neighbours.js";
import type { Finding, Severity } from "./types.js";

/** One changed path with its facts on each side; null means the file is absent on that side. */
export interface FactsPair {
  path: string;
  before: FileFacts | null;
  after: FileFacts | null;
  /**
   * Per side, set when the test runner's config leaves this file out of
   * discovery there (discovery.ts): what leaves it out, e.g. `jest testMatch
   * (jest.config.js)`. That side's tests do not run, so they are not matched.
   */
  notCollected?: { before?: string; after?: string };
  /** True for a file the change did not touch, judged only because a config change took it out of discovery. */
  isUnchanged?: boolean;
  /**
   * True when a runner config exists but its include patterns did not reach
   * the file before the change (nor after, if it still exists): its tests
   * are judged by the naming conventions, as another config or runner may
   * run them (index.ts notCollectedSides), and moving them into another
   * file the config does not reach is a move, not a test leaving discovery.
   */
  byConventions?: boolean;
}

/** How a before test found its after partner. */
export type MatchKind = "unchanged" | "edited" | "moved" | "renamed" | "moved_and_renamed" | "moved_and_edited" | "retitled";

interface Slot {
  file: string;
  test: TestCase;
  partner: Slot | null;
  match: MatchKind | null;
  /** For a test of a file the runner does not collect: what leaves the file out. */
  notCollectedBy?: string;
  /** For a before test of a {@link FactsPair.byConventions} file. */
  byConventions?: boolean;
}

interface MatchPass {
  kind: MatchKind;
  isSameFile: boolean;
  key: (test: TestCase) => string;
}

const MATCH_PASSES: readonly MatchPass[] = [
  { kind: "unchanged", isSameFile: true, key: (test) => `${test.id}\u0000${test.bodyHash}` },
  { kind: "edited", isSameFile: true, key: (test) => test.id },
  { kind: "moved", isSameFile: false, key: (test) => `${test.id}\u0000${test.bodyHash}` },
  { kind: "renamed", isSameFile: true, key: (test) => test.bodyHash },
  { kind: "moved_and_renamed", isSameFile: false, key: (test) => test.bodyHash },
  { kind: "moved_and_edited", isSameFile: false, key: (test) => test.id },
];

/** Flags that take a test out of the run (focus is judged apart: it disables the other tests). */
const DISABLING_FLAGS: readonly TestFlag[] = ["skipped", "conditional", "todo", "failing"];

const FLAG_WORDS: Record<TestFlag, string> = {
  skipped: "skipped",
  conditional: "skipped under a condition",
  todo: "marked todo",
  failing: "expected to fail (so its failure passes)",
  focused: "focused",
};

/** `#123`, `GH-123` or a URL in a skip reason: the skip is tracked somewhere, so it is medium, not critical. */
const ISSUE_LINK = /(?:^|[^\w&])#\d+\b|\bgh-\d+\b|https?:\/\/\S+/i;

/** True when a skip reason links an issue (`#123`, `GH-123`) or a URL. */
export function linksIssue(reason: string | undefined): boolean {
  return reason !== undefined && ISSUE_LINK.test(reason);
}

/**
 * Pairs before tests with after tests across files (see the module comment)
 * and returns every before slot with its partner, the after slots of
 * collected files, and those of files the runner does not collect. Files
 * whose facts are unusable (parse error, not analysed) contribute no tests
 * on that side.
 */
function matchTests(pairs: readonly FactsPair[], renames?: RenameWitness): { before: Slot[]; after: Slot[]; uncollected: Slot[] } {
  const slotsOf = (side: "before" | "after", isCollected: boolean): Slot[] =>
    pairs.flatMap((pair) => {
      const facts = pair[side];
      const notCollectedBy = pair.notCollected?.[side];
      if (!facts || !hasUsableFacts(facts) || (notCollectedBy === undefined) !== isCollected) return [];
      return facts.tests.map((test): Slot => {
        const slot: Slot = { file: pair.path, test, partner: null, match: null };
        if (notCollectedBy !== undefined) slot.notCollectedBy = notCollectedBy;
        if (pair.byConventions && side === "before") slot.byConventions = true;
        return slot;
      });
    });
  const before = slotsOf("before", true);
  const after = slotsOf("after", true);
  let uncollected = slotsOf("after", false);
  pairSlots(before, after);
  pairRenamedSuites(before, after);
  pairSameTitle(before, after);
  pairRetitled(before, after);
  pairTestsBecomeSuites(before, after, pairs);
  pairAlikeChecks(before, after, pairs);
  pairUntitled(before, after);
  pairParentsOfSubtests(before, after);
  pairRenamedWords(before, after, renames);
  // Tests of files no config reached may move to another such file: for them that file is an ordinary one.
  const byConventions = before.filter((slot) => slot.partner === null && slot.byConventions);
  if (byConventions.length > 0) {
    pairSlots(byConventions, uncollected);
    for (const slot of uncollected) {
      if (slot.partner === null) continue;
      delete slot.notCollectedBy;
      after.push(slot);
    }
    uncollected = uncollected.filter((slot) => slot.partner === null);
  }
  pairSlots(before, uncollected);
  return { before, after, uncollected };
}

/** The passes of the module comment over the slots still without a partner. */
function pairSlots(before: Slot[], after: Slot[]): void {
  for (const pass of MATCH_PASSES) {
    const candidates = new Map<string, Slot[]>();
    for (const slot of after) {
      if (slot.partner) continue;
      const key = (pass.isSameFile ? `${slot.file}\u0000` : "") + pass.key(slot.test);
      const list = candidates.get(key);
      if (list) list.push(slot);
      else candidates.set(key, [slot]);
    }
    for (const slot of before) {
      if (slot.partner) continue;
      const key = (pass.isSameFile ? `${slot.file}\u0000` : "") + pass.key(slot.test);
      const partner = candidates.get(key)?.shift();
      if (!partner) continue;
      slot.partner = partner;
      slot.match = pass.kind;
      partner.partner = slot;
      partner.match = pass.kind;
    }
  }
}

/**
 * Pass 6b: a suite renamed in place. When tests of a before suite were
 * matched (by body, passes 4-5) to tests of one after suite in the same
 * file under another suite path, the suite was renamed: its tests still
 * without a partner pair with the after suite's tests of the same name
 * (edited in the renamed suite), judged on their assertions like any edit.
 */
function pairRenamedSuites(before: Slot[], after: Slot[]): void {
  const suiteKey = (slot: Slot): string => `${slot.file}\u0000${slot.test.suitePath.join("\u0001")}`;
  const votes = new Map<string, Map<string, number>>();
  for (const slot of before) {
    const partner = slot.partner;
    if (!partner || partner.file !== slot.file || slot.test.suitePath.length === 0) continue;
    const from = suiteKey(slot);
    const to = suiteKey(partner);
    if (from === to) continue;
    const counts = votes.get(from) ?? new Map<string, number>();
    counts.set(to, (counts.get(to) ?? 0) + 1);
    votes.set(from, counts);
  }
  if (votes.size === 0) return;
  const renamedTo = new Map<string, string>();
  for (const [from, counts] of votes) renamedTo.set(from, [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] as string);
  const open = new Map<string, Slot[]>();
  for (const slot of after) if (slot.partner === null) pushTo(open, `${suiteKey(slot)}\u0000${slot.test.name}`, slot);
  for (const slot of before) {
    if (slot.partner !== null) continue;
    const to = renamedTo.get(suiteKey(slot));
    const candidate = to === undefined ? undefined : open.get(`${to}\u0000${slot.test.name}`)?.shift();
    if (!candidate) continue;
    slot.partner = candidate;
    slot.match = "moved_and_edited";
    candidate.partner = slot;
    candidate.match = "moved_and_edited";
  }
}

/**
 * Pass 6c: a descriptive title (3+ words) kept while the test moved to
 * another file or suite and its body was edited (one identifier adapted to
 * the new module): the one unpaired before test and the one unpaired after
 * test of that title pair up, judged on their assertions. A title shared by
 * several unpaired tests on either side pairs nothing.
 */
function pairSameTitle(before: Slot[], after: Slot[]): void {
  const openBefore = new Map<string, Slot[]>();
  const openAfter = new Map<string, Slot[]>();
  for (const slot of before) if (slot.partner === null && titleWords(slot.test.name).length >= 3) pushTo(openBefore, slot.test.name, slot);
  for (const slot of after) if (slot.partner === null && titleWords(slot.test.name).length >= 3) pushTo(openAfter, slot.test.name, slot);
  for (const [name, slots] of openBefore) {
    const candidates = openAfter.get(name);
    if (slots.length !== 1 || candidates?.length !== 1) continue;
    const slot = slots[0] as Slot;
    const partner = candidates[0] as Slot;
    slot.partner = partner;
    slot.match = "moved_and_edited";
    partner.partner = slot;
    partner.match = "moved_and_edited";
  }
}

/** Lower-case word tokens of a test title. */
function titleWords(name: string): string[] {
  // In a descriptive title (one with spaces), an identifier named for its words is those words: "totalTimeout budget" is "total timeout budget".
  const words = /\s/.test(name) ? name.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2").replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2") : name;
  return words.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Inflection endings a reworded title changes (`ignores` -> `ignored`, `args` -> `arg`), longest first. */
const INFLECTIONS = ["ing", "ed", "es", "s"] as const;

/** A title word without its inflection ending ({@link INFLECTIONS}), when at least 3 letters remain: `ignores` and `ignored` are both `ignor`. */
function wordStem(word: string): string {
  for (const ending of INFLECTIONS) if (word.endsWith(ending) && word.length - ending.length >= 3) return word.slice(0, -ending.length);
  return word;
}

/**
 * Shared words over the longer title's word count (multiset), 0-1; 0 when
 * either title has fewer than 3 words. Words are compared by their stem
 * ({@link wordStem}): "ignores args" and "extra args ignored" share two words.
 */
export function titleSimilarity(a: string, b: string): number {
  const wa = titleWords(a).map(wordStem);
  const wb = titleWords(b).map(wordStem);
  if (wa.length < 3 || wb.length < 3) return 0;
  const left = new Map<string, number>();
  for (const w of wa) left.set(w, (left.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of wb) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      shared++;
      left.set(w, n - 1);
    }
  }
  return shared / Math.max(wa.length, wb.length);
}

/** Least {@link titleSimilarity} for pass 7 (retitled). */
export const RETITLE_SIMILARITY = 0.75;

/**
 * True when one title of 3+ words is the other with words added at its end,
 * at its start or in one place in the middle ("deleting the file is a
 * deletion" -> "deleting the file is a deletion (and a removal)"; "sets the
 * length to zero when no params are given" -> "sets the length to zero or
 * leaves it unset when no params are given"): an extended or trimmed title,
 * however many words were added, every word of the shorter one kept in
 * order around one insertion.
 */
export function isExtendedTitle(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [titleWords(a), titleWords(b)] : [titleWords(b), titleWords(a)];
  if (short.length < 3 || short.length >= long.length) return false;
  let prefix = 0;
  while (prefix < short.length && short[prefix] === long[prefix]) prefix++;
  let suffix = 0;
  while (suffix < short.length - prefix && short[short.length - 1 - suffix] === long[long.length - 1 - suffix]) suffix++;
  return prefix + suffix === short.length;
}

/** Pass 7 (see the module comment): unmatched tests of the same file and suite whose descriptive titles were reworded, extended or trimmed ({@link isExtendedTitle}). */
function pairRetitled(before: Slot[], after: Slot[]): void {
  const suiteOf = (slot: Slot): string => `${slot.file}\u0000${slot.test.suitePath.join("\u0001")}`;
  for (const slot of before) {
    if (slot.partner) continue;
    let best: { slot: Slot; score: number } | null = null;
    for (const candidate of after) {
      if (candidate.partner || suiteOf(candidate) !== suiteOf(slot)) continue;
      const similarity = titleSimilarity(slot.test.name, candidate.test.name);
      const score = isExtendedTitle(slot.test.name, candidate.test.name) ? Math.max(similarity, RETITLE_SIMILARITY) : similarity;
      if (score >= RETITLE_SIMILARITY && (best === null || score > best.score)) best = { slot: candidate, score };
    }
    if (!best) continue;
    slot.partner = best.slot;
    slot.match = "retitled";
    best.slot.partner = slot;
    best.slot.match = "retitled";
  }
}

/**
 * Pass 7b: untitled tests (TestCase.untitled: RSpec `example { … }`, named
 * by their body) still without a partner, in the same file and suite, pair
 * by their order among the untitled tests of that suite left on each side:
 * an edited body renames such a test, so only its place says which it is.
 * Paired only when as many are left on each side (an added or removed one
 * makes the order ambiguous).
 */
function pairUntitled(before: Slot[], after: Slot[]): void {
  const suiteOf = (slot: Slot): string => `${slot.file}\u0000${slot.test.suitePath.join("\u0001")}`;
  const left = (slots: Slot[]): Map<string, Slot[]> => {
    const bySuite = new Map<string, Slot[]>();
    for (const slot of slots) if (!slot.partner && slot.test.untitled === true) bySuite.set(suiteOf(slot), [...(bySuite.get(suiteOf(slot)) ?? []), slot]);
    return bySuite;
  };
  const afterLeft = left(after);
  for (const [suite, was] of left(before)) {
    const now = afterLeft.get(suite) ?? [];
    if (now.length !== was.length) continue;
    was.forEach((slot, index) => {
      const partner = now[index] as Slot;
      slot.partner = partner;
      slot.match = "retitled";
      partner.partner = slot;
      partner.match = "retitled";
    });
  }
}

/**
 * Pass 8 (checks/likeness.ts): a before test still without a partner pairs
 * with a new after test whose checks are alike, each kept or adapted to a
 * product change (the same relations; each check keeps its subject or its
 * expected value, the other following a rename or a behaviour change): a
 * test moved and renamed with its subject renamed, or retitled in a way the
 * title passes do not see. The pair is judged as an edited test.
 * Inherited instances and tests without checks take no part.
 */
function pairAlikeChecks(before: Slot[], after: Slot[], pairs: readonly FactsPair[]): void {
  const openBefore = before.filter((slot) => slot.partner === null && slot.test.declaredAt === undefined);
  const openAfter = after.filter((slot) => slot.partner === null && slot.test.declaredAt === undefined && !slot.test.flags.skipped && !slot.test.flags.todo);
  if (openBefore.length === 0 || openAfter.length === 0) return;
  const facts = (side: "before" | "after"): Map<string, FileFacts | null> => new Map(pairs.map((pair) => [pair.path, pair[side]]));
  const candidate = (slot: Slot, side: Map<string, FileFacts | null>): LikenessCandidate => {
    const checked = checkedTest(slot.file, slot.test, side.get(slot.file) ?? null);
    return { checks: checked.checks, file: slot.file, suite: slot.test.suitePath.join("\u0001"), literals: [...checked.literals], hasRows: checked.rows !== null && checked.rows.length > 0 };
  };
  const beforeFacts = facts("before");
  const afterFacts = facts("after");
  const found = pairAlikeTests(
    openBefore.map((slot) => candidate(slot, beforeFacts)),
    openAfter.map((slot) => candidate(slot, afterFacts)),
  );
  for (const [b, a] of found) {
    const slot = openBefore[b] as Slot;
    const partner = openAfter[a] as Slot;
    const kind: MatchKind = slot.file === partner.file ? "retitled" : "moved_and_edited";
    slot.partner = partner;
    slot.match = kind;
    partner.partner = slot;
    partner.match = kind;
  }
}

/** A test's name as the name of what it tests: `test_vec_deque`, `testVecDeque`, `vec_deque_test` -> `vecdeque`. */
function testedName(name: string): string {
  return name
    .replace(/^test_?|_test$|Test$/i, "")
    .replace(/[_\s-]/g, "")
    .toLowerCase();
}

/** The names a check calls or reads last, in its subject and its expected value (an equality may be written either way round: `assert_eq!(5, buf.len())`). */
function checkCalls(check: Check): Set<string> {
  return new Set([...calledNames(check.subject), ...calledNames(check.expected ?? "")]);
}

/**
 * True when every check of `before` has its own check in `after` of the same
 * relation and negation that calls one of the names it calls
 * ({@link checkCalls}): the same code checked, whatever the inputs and
 * expected values are now.
 */
function isSameCodeChecked(before: readonly Check[], after: readonly Check[]): boolean {
  if (before.length === 0 || after.length < before.length) return false;
  const used = new Set<number>();
  return before.every((check) => {
    const names = checkCalls(check);
    const index = after.findIndex(
      (candidate, at) => !used.has(at) && candidate.relation === check.relation && candidate.isNegated === check.isNegated && [...checkCalls(candidate)].some((name) => names.has(name)),
    );
    if (index === -1) return false;
    used.add(index);
    return true;
  });
}

/**
 * Pass 7b: a test that became a suite of its own name. A before test still
 * without a partner whose name, less a `test` prefix or suffix, names a
 * suite of the same file and parent that holds no test before the change
 * (`test_vec_deque` -> `mod vec_deque { … }`: a per-type test swept into a
 * suite instantiated for each type, tokio-rs/bytes' `buf_tests!`) pairs with
 * a test of that suite still without a partner whose checks call what its
 * checks called ({@link isSameCodeChecked}), the first in source order: it
 * is judged as an edited test, so inputs and expectations changed with it
 * are an expectation_changed and a check it no longer makes is an
 * assertion_removal. A suite whose tests check other code pairs nothing.
 */
function pairTestsBecomeSuites(before: Slot[], after: Slot[], pairs: readonly FactsPair[]): void {
  const pathKey = (file: string, path: readonly string[]): string => `${file}\u0000${path.join("\u0001")}`;
  const openBefore = before.filter((slot) => slot.partner === null && slot.test.declaredAt === undefined && testedName(slot.test.name) !== "");
  if (openBefore.length === 0) return;
  const suitesBefore = new Set<string>();
  for (const slot of before) for (let depth = 1; depth <= slot.test.suitePath.length; depth++) suitesBefore.add(pathKey(slot.file, slot.test.suitePath.slice(0, depth)));
  const bySuite = new Map<string, Slot[]>();
  for (const slot of after) {
    const suite = slot.test.suitePath.at(-1);
    if (slot.partner !== null || slot.test.declaredAt !== undefined || slot.test.flags.skipped || slot.test.flags.todo || suite === undefined) continue;
    if (suitesBefore.has(pathKey(slot.file, slot.test.suitePath))) continue;
    const key = `${pathKey(slot.file, slot.test.suitePath.slice(0, -1))}\u0000${testedName(suite)}`;
    bySuite.set(key, [...(bySuite.get(key) ?? []), slot]);
  }
  if (bySuite.size === 0) return;
  const facts = (side: "before" | "after"): Map<string, FileFacts | null> => new Map(pairs.map((pair) => [pair.path, pair[side]]));
  const beforeFacts = facts("before");
  const afterFacts = facts("after");
  for (const slot of openBefore) {
    const candidates = bySuite.get(`${pathKey(slot.file, slot.test.suitePath)}\u0000${testedName(slot.test.name)}`);
    if (!candidates) continue;
    const checks = checkedTest(slot.file, slot.test, beforeFacts.get(slot.file) ?? null).checks;
    const partner = candidates.find((candidate) => candidate.partner === null && isSameCodeChecked(checks, checkedTest(candidate.file, candidate.test, afterFacts.get(candidate.file) ?? null).checks));
    if (!partner) continue;
    slot.partner = partner;
    slot.match = "retitled";
    partner.partner = slot;
    partner.match = "retitled";
  }
}

/**
 * Pass 9: a parent test renamed whose subtests were paired (Go's
 * `TestMaxTableNesting` -> `TestMaxDepth` around a `t.Run("", …)` that
 * holds the checks; a node:test `t.test` parent). A before test still
 * without a partner whose paired subtests (same file, its suite path and
 * name as their suite path) all have partners under one after test still
 * without a partner, in the same file, pairs with that test: judged as an
 * edited test (its rows by lostRowsFinding).
 */
function pairParentsOfSubtests(before: Slot[], after: Slot[]): void {
  const pathKey = (file: string, path: readonly string[]): string => `${file}\u0000${path.join("\u0001")}`;
  const openAfter = new Map<string, Slot>();
  for (const slot of after) if (slot.partner === null && slot.test.declaredAt === undefined) openAfter.set(pathKey(slot.file, [...slot.test.suitePath, slot.test.name]), slot);
  if (openAfter.size === 0) return;
  const parentsOf = new Map<string, Set<string>>();
  for (const slot of before) {
    const partner = slot.partner;
    if (!partner || partner.file !== slot.file || slot.test.suitePath.length === 0 || partner.test.suitePath.length === 0) continue;
    const key = pathKey(slot.file, slot.test.suitePath);
    const parents = parentsOf.get(key) ?? new Set<string>();
    parents.add(pathKey(partner.file, partner.test.suitePath));
    parentsOf.set(key, parents);
  }
  for (const slot of before) {
    if (slot.partner !== null || slot.test.declaredAt !== undefined) continue;
    const parents = parentsOf.get(pathKey(slot.file, [...slot.test.suitePath, slot.test.name]));
    if (parents?.size !== 1) continue;
    const candidate = openAfter.get([...parents][0] as string);
    if (!candidate || candidate.partner !== null) continue;
    slot.partner = candidate;
    slot.match = "retitled";
    candidate.partner = slot;
    candidate.match = "retitled";
  }
}

/** Most title pairs read for the witness of titles renamed alike (pass 10); past it only the lines witness. */
const MAX_TITLE_PAIRS = 250_000;

/**
 * Pass 10 (title-renames.ts): a before test still without a partner whose
 * title becomes the title of one after test still without a partner, in
 * the same file and suite, by a substitution the change witnesses (a
 * non-test line replaced alike, or another title renamed alike); paired
 * only when neither side has another such candidate. Judged as an edited
 * test.
 */
function pairRenamedWords(before: Slot[], after: Slot[], renames: RenameWitness | undefined): void {
  const suiteOf = (slot: Slot): string => `${slot.file}\u0000${slot.test.suitePath.join("\u0001")}`;
  const openBefore = before.filter((slot) => slot.partner === null && slot.test.declaredAt === undefined);
  const openAfter = after.filter((slot) => slot.partner === null && slot.test.declaredAt === undefined && !slot.test.flags.skipped && !slot.test.flags.todo);
  if (openBefore.length === 0 || openAfter.length === 0) return;
  const keyOf = (substitution: TitleSubstitution): string => `${substitution.from}\u0000${substitution.to}`;
  // Titles that the change takes away and brings, renamed alike: counted only when a candidate's substitution no line witnesses.
  let renamedTitles: Map<string, number> | null = null;
  const titlesRenamed = (): Map<string, number> => {
    if (renamedTitles) return renamedTitles;
    renamedTitles = new Map();
    const afterNames = new Set(after.map((slot) => slot.test.name));
    const beforeNames = new Set(before.map((slot) => slot.test.name));
    const gone = [...beforeNames].filter((name) => !afterNames.has(name));
    const come = [...afterNames].filter((name) => !beforeNames.has(name));
    if (gone.length * come.length > MAX_TITLE_PAIRS) return renamedTitles;
    for (const name of gone) {
      const seen = new Set<string>();
      for (const other of come) {
        const substitution = titleSubstitution(name, other);
        if (substitution) seen.add(keyOf(substitution));
      }
      for (const key of seen) renamedTitles.set(key, (renamedTitles.get(key) ?? 0) + 1);
    }
    return renamedTitles;
  };
  const isWitnessed = (substitution: TitleSubstitution): boolean => (renames?.(substitution) ?? false) || (titlesRenamed().get(keyOf(substitution)) ?? 0) >= 2;
  const proposals = new Map<Slot, Slot[]>();
  const wanted = new Map<Slot, number>();
  for (const slot of openBefore) {
    const candidates = openAfter.filter((candidate) => {
      if (suiteOf(candidate) !== suiteOf(slot)) return false;
      const substitution = titleSubstitution(slot.test.name, candidate.test.name);
      return substitution !== null && isWitnessed(substitution);
    });
    proposals.set(slot, candidates);
    for (const candidate of candidates) wanted.set(candidate, (wanted.get(candidate) ?? 0) + 1);
  }
  for (const [slot, candidates] of proposals) {
    const partner = candidates[0];
    if (candidates.length !== 1 || partner === undefined || wanted.get(partner) !== 1) continue;
    slot.partner = partner;
    slot.match = "retitled";
    partner.partner = slot;
    partner.match = "retitled";
  }
}

function unusableReason(facts: FileFacts): string {
  return facts.parseError !== undefined ? `parse error: ${facts.parseError}` : (facts.notAnalyzed ?? "not analysed");
}

/**
 * True when a test can never fail: it makes assertions, every one a
 * tautology (`assertTrue(true)`, two locals bound to the same literal
 * compared) or unreachable, and it runs no code besides them
 * (TestCase.callCount 0). It guards nothing, so deleting it loses no check.
 * A test that runs code still guards that the code does not throw.
 */
export function checksNothing(test: TestCase): boolean {
  const facts = test.assertionsDetail ?? [];
  return test.callCount === 0 && facts.length > 0 && facts.every((fact) => fact.tautology || fact.unreachable === true);
}

/**
 * True when a test makes no check at all (no assertion, no asserting
 * helper: {@link checkedTest}) yet runs code: it guards only that its calls
 * do not raise or panic (a Go test that prints what it gets, a pytest test
 * that just calls). `isCodeUnchanged` says whether the code under its file
 * stayed as it was; when it did, deleting the test hides nothing the change
 * could have broken: its one guard is about code the change never touched.
 */
function isUncheckedOfUnchangedCode(slot: Slot, facts: FileFacts | null, isCodeUnchanged: (path: string) => boolean): boolean {
  const test = slot.test;
  if ((test.callCount ?? 0) === 0 || test.assertionCount > 0 || test.flags.todo) return false;
  return checkedTest(slot.file, test, facts).checks.length === 0 && isCodeUnchanged(slot.file);
}

function deletionFindings(pair: FactsPair, lost: Slot[], isCodeUnchanged: (path: string) => boolean = () => false): Finding[] {
  const path = pair.path;
  const beforeCount = pair.before?.tests.length ?? 0;
  const ids = lost.map((slot) => slot.test.id);

  if (pair.after && !hasUsableFacts(pair.after)) {
    // The after side exists but cannot be read: its tests are unknown, not necessarily gone.
    const reason = unusableReason(pair.after);
    const single = lost.length === 1 ? lost[0] : undefined;
    const finding: Finding = {
      type: "test_deletion",
      severity: "high",
      file: path,
      line: null,
      before_file: path,
      before_line: single ? single.test.line : null,
      message:
        lost.length === beforeCount
          ? `${path} could not be analysed after the change (${reason}); its ${beforeCount} test${beforeCount === 1 ? "" : "s"} from before cannot be accounted for`
          : `${path} could not be analysed after the change (${reason}); ${lost.length} of its ${beforeCount} tests from before cannot be accounted for`,
      evidence: { reason, tests: ids, test_count: lost.length },
      allowed: false,
    };
    if (single) finding.test = single.test.id;
    return [finding];
  }

  const isFileDeleted = pair.after === null;
  if (isFileDeleted && lost.length > 1 && lost.length === beforeCount) {
    const isAllTodo = lost.every((slot) => ranNoChecks(slot.test) || checksNothing(slot.test) || isUncheckedOfUnchangedCode(slot, pair.before, isCodeUnchanged));
    return [
      {
        type: "test_deletion",
        severity: isAllTodo ? "low" : "critical",
        file: path,
        line: null,
        before_file: path,
        before_line: null,
        message: `test file ${path} was deleted with its ${lost.length} tests; none of them was found in another changed file`,
        evidence: { tests: ids, test_count: lost.length, file_deleted: true },
        allowed: false,
      },
    ];
  }

  return lost.map((slot) => {
    const test = slot.test;
    const isTodo = test.flags.todo;
    // Skipped by a declaration, or expected to fail (its checks decided no pass): nothing that ran as a check stops running.
    const wasSkipped = !isTodo && ranNoChecks(test);
    const isInert = !isTodo && !wasSkipped && checksNothing(test);
    const isUnchecked = !isTodo && !wasSkipped && !isInert && isUncheckedOfUnchangedCode(slot, pair.before, isCodeUnchanged);
    const where = isFileDeleted ? `was deleted with its file ${path}` : `was deleted from ${path}`;
    const why = wasSkipped
      ? `; it was ${describeNotRun(test)} before the change, so nothing that ran stops running`
      : isInert
        ? "; it checked nothing: its only assertions are tautologies and it runs no code"
        : isUnchecked
          ? "; it made no checks (it only ran code, guarding that the code does not raise) and none of the code under it changed"
          : "";
    return {
      type: "test_deletion",
      severity: isTodo || wasSkipped || isInert || isUnchecked ? "low" : "critical",
      file: path,
      line: test.line,
      before_file: path,
      before_line: test.line,
      test: test.id,
      message: `${isTodo ? "todo test" : "test"} "${test.id}" ${where} and not found elsewhere${why}`,
      evidence: {
        assertions: test.assertionCount,
        body_hash: test.bodyHash,
        file_deleted: isFileDeleted,
        ...(wasSkipped ? { skipped_before: true } : {}),
        ...(isInert ? { checks_nothing: true } : {}),
        ...(isUnchecked ? { unchecked_code_unchanged: true } : {}),
      },
      allowed: false,
    } satisfies Finding;
  });
}

function disabledFinding(after: Slot, before: Slot | null): Finding | null {
  const test = after.test;
  // A skip that lost its condition (`skipif(WIN)` -> `skip`) is gained; one that gained a condition is not.
  const gained = (["skipped", "conditional", "todo", "failing", "focused"] as const).filter(
    (flag) => test.flags[flag] && (before === null || (!before.test.flags[flag] && !(flag === "conditional" && before.test.flags.skipped))),
  );
  // A new test that arrives skipped loses nothing; a new focused test silences its neighbours.
  const disabling = before === null ? [] : gained.filter((flag) => DISABLING_FLAGS.includes(flag));
  const isFocusGained = gained.includes("focused");
  if (disabling.length === 0 && !isFocusGained) return null;

  const via = (flag: TestFlag): string => test.flagVia?.[flag] ?? flag;
  let severity: Severity;
  let message: string;
  if (disabling.length > 0) {
    const isTracked = disabling.every((flag) => flag !== "failing") && linksIssue(test.skipReason);
    // A skip only where an optional dependency, an older interpreter or another platform is (checks/skip-condition.ts):
    // the test still runs where CI and agents run.
    // Also a skip for a privileged run of a test that takes permissions away: it cannot pass as root whatever the code does.
    const isEnvironmentProbe =
      disabling.length === 1 &&
      disabling[0] === "conditional" &&
      (skipConditionKind(test.skipCondition) === "environment" || (isPrivilegedRunProbe(test.skipCondition) && changesPermissions(test.directCalls)));
    severity = isTracked || isEnvironmentProbe ? "medium" : "critical";
    const words = disabling.map((flag) => `${FLAG_WORDS[flag]} (${via(flag)})`).join(" and ");
    message = `test "${test.id}" in ${after.file} is now ${words}`;
    if (disabling.includes("skipped") && before?.test.flags.conditional) message += `; it was skipped only under a condition (${before.test.flagVia?.conditional ?? "conditional"})`;
    if (isEnvironmentProbe) message += `; it still runs wherever \`${test.skipCondition ?? ""}\` is false`;
    if (isTracked) message += `; the reason links an issue`;
  } else {
    severity = "high";
    message = `test "${test.id}" in ${after.file} is ${before === null ? "" : "now "}focused (${via("focused")}); the other tests in its file no longer run`;
  }
  const evidence: Record<string, unknown> = {
    gained: disabling.length > 0 ? disabling : ["focused"],
    via: Object.fromEntries(gained.map((flag) => [flag, via(flag)])),
  };
  if (test.skipReason !== undefined) evidence.reason = test.skipReason;
  if (before && before.test.id !== test.id) evidence.before_test = before.test.id;
  if (after.match) evidence.match = after.match;
  const finding: Finding = {
    type: "test_disabled",
    severity,
    file: after.file,
    line: test.line,
    test: test.id,
    message,
    evidence,
    allowed: false,
  };
  if (before) {
    finding.before_file = before.file;
    finding.before_line = before.test.line;
  }
  return finding;
}

/**
 * Rows gone from a surviving table test (`test.each([...])`): each row is a
 * test case at run time. Rows have no names, so an edited row looks like
 * one removed plus one added; rows removed beyond those added are reported,
 * as one test_deletion for the table, and so are removed rows whose values
 * no added row holds ({@link unmatchedRowsByValues}) when rows are added to
 * hide them.
 */
function lostRowsFinding(after: Slot, before: Slot, followed: RowsFollowed | null, calledRows: RowCalls): Finding | null {
  const beforeRows = before.test.eachRowHashes;
  const afterRows = after.test.eachRowHashes;
  if (!beforeRows || !afterRows) return null;
  const remaining = new Map<string, number>();
  for (const row of afterRows) remaining.set(row, (remaining.get(row) ?? 0) + 1);
  const removedRows: number[] = [];
  beforeRows.forEach((row, index) => {
    const count = remaining.get(row) ?? 0;
    if (count > 0) remaining.set(row, count - 1);
    else removedRows.push(index + 1);
  });
  const addedCount = [...remaining.values()].reduce((sum, count) => sum + count, 0);
  // A row that lives on as a call of the table test itself with its values (`test_literal_dicts(cbor2_make_converter)`).
  const isKept = (row: number): boolean => isRowCalled(before, after, row - 1, calledRows) || (followed !== null && isRowAccepted(before, row - 1, followed, after.test));
  const acceptedCount = removedRows.filter(isKept).length;
  const reExpected = followed ? expectedCells(before, followed) : undefined;
  const unmatched = unmatchedRowsByValues(before.test, after.test, removedRows, reExpected).filter((row) => !isKept(row));
  const lostCount = Math.max(removedRows.length - addedCount - acceptedCount, unmatched.length);
  if (lostCount <= 0) return null;
  const test = after.test;
  return {
    type: "test_deletion",
    severity: defaultSeverityOf("test_deletion"),
    file: after.file,
    line: test.line,
    before_file: before.file,
    before_line: before.test.line,
    test: test.id,
    message: `${lostCount} of the ${beforeRows.length} rows of table test "${test.id}" in ${after.file} were removed (${beforeRows.length} -> ${afterRows.length} rows)`,
    evidence: {
      rows_before: beforeRows.length,
      rows_after: afterRows.length,
      removed_rows: removedRows,
      added_rows: addedCount,
      ...(unmatched.length > 0 ? { rows_without_values: unmatched } : {}),
    },
    allowed: false,
  };
}

/** The calls (TestCase.directCalls, as written) the after tests of each file make, by file. */
type RowCalls = ReadonlyMap<string, readonly string[]>;

/** {@link RowCalls} of the after slots that run (a skipped or todo test calls nothing). */
function rowCallsOf(after: readonly Slot[]): RowCalls {
  const calls = new Map<string, string[]>();
  for (const slot of after) {
    if (DISABLING_FLAGS.some((flag) => slot.test.flags[flag])) continue;
    for (const call of slot.test.directCalls ?? []) pushTo(calls, slot.file, call);
  }
  return calls;
}

/**
 * True when a removed row (0-based) of a table test lives on as a call of
 * that test's own function, by a test of the same file after the change,
 * with the row's values: the row moved into a test of its own that runs
 * the table's body on it (python-attrs/cattrs 994ba06330: the
 * `cbor2_make_converter` row of `test_literal_dicts` became
 * `test_literal_dicts_cbor2`, which calls `test_literal_dicts(
 * cbor2_make_converter)`). Each value of the row (TestCase.eachRowElements,
 * keyed `name: value`) must be passed, positionally in order or by its
 * name, and nothing else; the table must still be declared under its name.
 */
function isRowCalled(before: Slot, after: Slot, row: number, calls: RowCalls): boolean {
  const elements = before.test.eachRowElements?.[row];
  if (!elements || elements.length === 0 || after.test.name !== before.test.name) return false;
  const cells = elements.map((element) => {
    const keyed = /^([A-Za-z_$][\w$]*): ([\s\S]+)$/.exec(element);
    return keyed ? { name: keyed[1] as string, value: canonicalText(keyed[2] as string) } : { name: null, value: canonicalText(element) };
  });
  return (calls.get(after.file) ?? []).some((call) => {
    const parts = splitCall(canonicalText(call));
    if (!parts || parts[0] !== before.test.name) return false;
    const args = parts[1].trim() === "" ? [] : splitArguments(parts[1]).map((arg) => arg.trim());
    if (args.length !== cells.length) return false;
    return args.every((arg, index) => {
      const keyword = /^([A-Za-z_$][\w$]*)\s*=(?!=)\s*([\s\S]+)$/.exec(arg);
      if (keyword) return cells.some((cell) => cell.name === keyword[1] && cell.value === canonicalText(keyword[2] as string));
      return cells[index]?.value === arg;
    });
  });
}

/** A row literal that reads as a message for people (words with spaces, a format directive): it may follow a reworded product message. */
function isMessageLiteral(literal: string): boolean {
  return literal.startsWith('"') && /\s|%[-+ #0-9.]*[a-zA-Z]|\{\w*\}/.test(literal);
}

/**
 * The removed rows (1-based, as `removedRows`) whose values no added row of
 * the after table holds: an edited row keeps the values the after rows still
 * use (a row reformatted, `strings.Repeat(".a", 129)` -> `tbl(129)`, keeps
 * `129` and its other inputs), so more rows added than removed do not hide a
 * row left out (the depth-129 row of a table renamed and extended with array
 * rows that reuse 129). A removed row needs, from one added row used once,
 * each of its literals that some added row uses at all (messages aside: they
 * follow the product's wording); a value no added row uses (an input edited)
 * is not asked for, and a row with nothing to ask for is taken as edited.
 * Rows with the most to ask for choose first. Empty when a side has no row
 * literals (languages that do not record them).
 */
function unmatchedRowsByValues(before: TestCase, after: TestCase, removedRows: readonly number[], expectedOf?: (row: number) => ReadonlySet<string>): number[] {
  const beforeLiterals = before.eachRowLiterals;
  const afterLiterals = after.eachRowLiterals;
  const afterHashes = after.eachRowHashes;
  if (!beforeLiterals || !afterLiterals || !afterHashes || removedRows.length === 0) return [];
  const keptHashes = new Map<string, number>();
  for (const hash of before.eachRowHashes ?? []) keptHashes.set(hash, (keptHashes.get(hash) ?? 0) + 1);
  const added: string[][] = [];
  afterHashes.forEach((hash, index) => {
    const count = keptHashes.get(hash) ?? 0;
    if (count > 0) keptHashes.set(hash, count - 1);
    else added.push(afterLiterals[index] ?? []);
  });
  const universe = new Set(added.flat());
  const needs = removedRows.map((row) => {
    const needed = [...new Set(beforeLiterals[row - 1] ?? [])].filter((literal) => universe.has(literal) && !isMessageLiteral(literal));
    // A row re-expected with the code keeps its other values in one added row; one whose only values reused are its
    // expected ones kept nothing of its own (dropped, its expectation reused by another row).
    const expected = expectedOf?.(row) ?? new Set<string>();
    const own = needed.filter((literal) => !expected.has(literal));
    return { row, needed: own.length > 0 ? own : needed };
  });
  needs.sort((a, b) => b.needed.length - a.needed.length || a.row - b.row);
  const used = new Set<number>();
  const unmatched: number[] = [];
  for (const { row, needed } of needs) {
    if (needed.length === 0) continue;
    const index = added.findIndex((cells, at) => !used.has(at) && needed.every((literal) => cells.includes(literal)));
    if (index === -1) unmatched.push(row);
    else used.add(index);
  }
  return unmatched.sort((a, b) => a - b);
}

/**
 * For a table test whose code under test changed (`followed`): the literals
 * of each row's expected-value cells (1-based row -> literals), the fields
 * the test's checks take their expected value from (`require.Equal(t,
 * test.expected, …)` reads `expected`). A row whose other values live on in
 * one added row was re-expected with the code ({@link unmatchedRowsByValues}
 * asks nothing of those cells), as an edited expected value of a plain test
 * is (sweep of urfave/cli 0ed457cf64: the `default` row now expects `[ia]`).
 */
function expectedCells(before: Slot, followed: RowsFollowed): (row: number) => ReadonlySet<string> {
  const fields = new Set(
    followed
      .checksOf(before)
      .flatMap((check) => (check.expected === undefined ? [] : [/^[A-Za-z_$][\w$]*\.([A-Za-z_$][\w$]*)$/.exec(check.expected)?.[1] ?? ""]))
      .filter((field) => field !== ""),
  );
  const elements = before.test.eachRowElements;
  return (row) => {
    const values = (elements?.[row - 1] ?? []).flatMap((element) => {
      const keyed = /^([A-Za-z_$][\w$]*)\s*:\s*([\s\S]*)$/.exec(element);
      return keyed && fields.has(keyed[1] as string) ? [keyed[2] as string] : [];
    });
    return new Set(values.flatMap(cellLiterals));
  };
}

/** The literals of a row cell's text as TestCase.eachRowLiterals writes them: strings JSON-quoted, numbers and words as written. */
function cellLiterals(text: string): string[] {
  const literals: string[] = [];
  for (const match of text.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`]*)`|(-?\d[\w.]*)|\b(true|false|nil|null|None)\b/g)) {
    const string = match[1] ?? match[2] ?? match[3];
    literals.push(string !== undefined ? JSON.stringify(string) : (match[4] ?? match[5] ?? ""));
  }
  return literals;
}

/** What tells a removed rejection row from a lost one (checks/rejection.ts): the change's product edit and the after side's tables. */
interface RowsFollowed {
  /** The before test's checks, per before slot. */
  checksOf: (slot: Slot) => readonly Check[];
  tables: readonly AfterTable[];
}

/**
 * True when a removed row (0-based) of a rejection table reappears as an
 * accepted input in an after table, or any table's row moved to another
 * table of the code it checks (checks/rejection.ts isMovedToOtherTable).
 */
function isRowAccepted(before: Slot, row: number, followed: RowsFollowed, successor: TestCase): boolean {
  const elements = before.test.eachRowElements?.[row];
  const checks = followed.checksOf(before);
  const inputs = elements && isRejectionTest(checks) ? rowInputs(elements, checks) : null;
  if (inputs !== null && isAcceptedAfter(inputs, followed.tables)) return true;
  const rows = before.test.eachRowElements;
  if (elements && rows && isRebuiltFromTemplate(elements, keptRows(rows, row, successor), checks, followed.tables, successor)) return true;
  const literals = before.test.eachRowLiterals?.[row];
  return (
    literals !== undefined &&
    isMovedToOtherTable(
      literals.map((literal) => literalKey(canonicalText(literal))),
      checks,
      followed.tables,
      successor,
      before.test.calls,
    )
  );
}

/** The rows of a before table (its keyed elements) other than `row` that its after version still has, as written. */
function keptRows(rows: readonly (readonly string[])[], row: number, successor: TestCase): (readonly string[])[] {
  const after = new Set((successor.eachRowElements ?? []).map((elements) => elements.join("\u0000")));
  return rows.filter((elements, index) => index !== row && after.has(elements.join("\u0000")));
}

/**
 * The {@link RowsFollowed} of a change, or null when it edits no product
 * code (then no removed row is excused): a changed analysable file that is
 * not a test file on either side.
 */
function rowsFollowed(pairs: readonly FactsPair[], after: readonly Slot[]): RowsFollowed | null {
  const isProductChanged = pairs.some((pair) => !pair.isUnchanged && [pair.before, pair.after].some((facts) => facts !== null && hasUsableFacts(facts) && !facts.isTestFile));
  if (!isProductChanged) return null;
  const factsByPath = new Map<string, { before: FileFacts | null; after: FileFacts | null }>(pairs.map((pair) => [pair.path, pair]));
  const checksOn = (slot: Slot, side: "before" | "after"): readonly Check[] => checkedTest(slot.file, slot.test, factsByPath.get(slot.file)?.[side] ?? null).checks;
  const tables: AfterTable[] = after
    .filter((slot) => slot.test.eachRowElements !== undefined || slot.test.eachRowLiterals !== undefined)
    .map((slot) => {
      const checks = checksOn(slot, "after");
      return {
        rows: slot.test.eachRowElements ?? [],
        isRejection: isRejectionTest(checks),
        test: slot.test,
        literalRows: (slot.test.eachRowLiterals ?? []).map((cells) => cells.map((literal) => literalKey(canonicalText(literal)))),
        calls: new Set([...checks.flatMap((check) => [...calledNames(check.subject)]), ...(slot.test.calls ?? [])]),
        subjects: checks.map((check) => check.subject),
      };
    });
  return { checksOf: (slot) => checksOn(slot, "before"), tables };
}

// Tree-sitter languages (python, go, rust, java, csharp, ruby, php) add two
// facts the matching passes cannot use: the literals of each test body and of
// each parametrised row (a merge of tests into a table), and the non-test
// functions of a test file (a test renamed or un-annotated out of discovery).

/**
 * True when an unmatched before test survives as a row of a parametrised
 * after test: every literal of its body appears in one row not already
 * claimed by another merged test (`test_a: f("12") == 1200` and
 * `parametrize([("12", 1200), ...])`). Claimed rows are recorded in `usedRows`.
 */
function isMergedIntoRows(lost: Slot, after: readonly Slot[], usedRows: Map<Slot, Set<number>>): boolean {
  const literals = lost.test.literals;
  if (!literals || literals.length === 0) return false;
  for (const slot of after) {
    const rows = slot.test.eachRowLiterals;
    if (!rows) continue;
    const used = usedRows.get(slot) ?? new Set<number>();
    // Literals of the after body itself (a message, a constant) need no row.
    const isInRowOrBody = (row: string[], literal: string): boolean => row.includes(literal) || (slot.test.literals ?? []).includes(literal);
    const index = rows.findIndex((row, rowIndex) => !used.has(rowIndex) && literals.every((literal) => isInRowOrBody(row, literal)) && literals.some((literal) => row.includes(literal)));
    if (index === -1) continue;
    used.add(index);
    usedRows.set(slot, used);
    return true;
  }
  return false;
}

/**
 * A test_disabled finding when an unmatched before test's body lives on in
 * an after file as a function the runner no longer collects (renamed from
 * `test_x` to `x`, `TestX` to `testX`, `#[test]` or `@Test` removed); null otherwise.
 */
function outOfDiscoveryFinding(lost: Slot, pairs: readonly FactsPair[]): Finding | null {
  const candidates = [...pairs].sort((a, b) => Number(b.path === lost.file) - Number(a.path === lost.file));
  for (const pair of candidates) {
    const fn = pair.after?.nonTestFunctions?.find((candidate) => candidate.bodyHash === lost.test.bodyHash);
    if (!fn) continue;
    const fnId = [...fn.suitePath, fn.name].join(" > ");
    return {
      type: "test_disabled",
      severity: defaultSeverityOf("test_disabled"),
      file: pair.path,
      line: fn.line,
      before_file: lost.file,
      before_line: lost.test.line,
      test: lost.test.id,
      message: `test "${lost.test.id}" is no longer collected by the test runner: its body is now the non-test function "${fnId}" in ${pair.path}`,
      evidence: { gained: ["out_of_discovery"], function: fnId, body_hash: lost.test.bodyHash },
      allowed: false,
    };
  }
  return null;
}

/** Appends to the list under `key`, creating it. */
function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Facts with their test list replaced (repeats of imported classes left out). */
function withTests(facts: FileFacts | null, tests: TestCase[] | undefined): FileFacts | null {
  if (!facts || !tests) return facts;
  return { ...facts, tests: tests.filter((test) => !test.declaredAt?.isRepeat) };
}

/**
 * The changed pairs with each side's tests resolved across files
 * (inheritance.ts), and pairs for the unchanged context files holding only
 * their inherited tests (their own tests cannot have changed).
 */
function resolvePairs(pairs: readonly FactsPair[], context: ClassContext): { changed: FactsPair[]; unchanged: FactsPair[] } {
  const resolved = { before: new Map<string, TestCase[]>(), after: new Map<string, TestCase[]>() };
  for (const side of ["before", "after"] as const) {
    const files = new Map<string, FileFacts>(context.files);
    const paths = [...context.paths];
    for (const pair of pairs) {
      const facts = pair[side];
      if (!facts) continue;
      files.set(pair.path, facts);
      paths.push(pair.path);
    }
    resolved[side] = resolveTestsAcross(files, paths);
  }
  const changed = pairs.map((pair) => ({
    ...pair,
    before: withTests(pair.before, resolved.before.get(pair.path)),
    after: withTests(pair.after, resolved.after.get(pair.path)),
  }));
  const unchanged: FactsPair[] = [];
  for (const [path, facts] of context.files) {
    if (pairs.some((pair) => pair.path === path)) continue;
    const derived = (side: "before" | "after"): FileFacts => ({ ...facts, tests: (resolved[side].get(path) ?? []).filter((test) => test.declaredAt && !test.declaredAt.isRepeat) });
    const before = derived("before");
    const after = derived("after");
    if (before.tests.length > 0 || after.tests.length > 0) unchanged.push({ path, before, after });
  }
  return { changed, unchanged };
}

/** The declaration a test case runs: where its method is declared (file, class path, name, line). */
function declarationKey(slot: Slot): string {
  const site = slot.test.declaredAt;
  const file = site ? site.file : slot.file;
  const suitePath = site ? site.suitePath : slot.test.suitePath;
  const line = site ? site.line : slot.test.line;
  return `${file}\u0000${suitePath.join("\u0001")}\u0000${slot.test.name}\u0000${line}`;
}

/** Keeps one item per key, preferring the one whose slot declares its test (no declaredAt) over an inherited instance. */
function oncePerDeclaration<T>(items: readonly { key: string; slot: Slot; item: T }[]): T[] {
  const chosen = new Map<string, { slot: Slot; item: T }>();
  for (const entry of items) {
    const current = chosen.get(entry.key);
    if (!current || (current.slot.test.declaredAt && !entry.slot.test.declaredAt)) chosen.set(entry.key, entry);
  }
  return [...chosen.values()].map((entry) => entry.item);
}

/** `Class > test` ids of the instances, for messages (at most `limit`, then "…"). */
function listIds(slots: readonly Slot[], limit = 5): string {
  const ids = slots.map((slot) => `"${slot.test.id}" in ${slot.file}`);
  return ids.length > limit ? `${ids.slice(0, limit).join(", ")}, …` : ids.join(", ");
}

/**
 * The conservation of checks (analysis/checks): a before test that no name
 * pass paired is not deleted when its checks live on in after tests that are
 * new or were edited (a test kept byte for byte absorbed nothing): merged
 * into a table (its literals bound to one row), split into several tests
 * (also a test that became a suite of its own name), moved and retitled,
 * migrated to another framework. When some of its checks live on and others
 * are found nowhere, it is one assertion_removal naming the lost checks.
 * Returns those findings and the slots conserved (wholly or in part), which
 * are not test deletions. Tests without checks, and inherited instances,
 * are left to the other passes. A check of a function the change renames
 * (`renamed`) is looked for under the new name.
 */
function conservationFindings(
  before: readonly Slot[],
  after: readonly Slot[],
  pairs: readonly FactsPair[],
  renamed: readonly ProductRename[] = [],
): { findings: Finding[]; conserved: Set<Slot>; judged: Set<Slot> } {
  const findings: Finding[] = [];
  const conserved = new Set<Slot>();
  const judged = new Set<Slot>();
  const open = before.filter((slot) => slot.partner === null && slot.test.declaredAt === undefined);
  if (open.length === 0) return { findings, conserved, judged };
  const factsOf = (side: "before" | "after"): Map<string, FileFacts | null> => new Map(pairs.map((pair) => [pair.path, pair[side]]));
  const beforeFacts = factsOf("before");
  const afterFacts = factsOf("after");
  const pool: CheckedTest[] = after
    .filter((slot) => !slot.test.flags.skipped && !slot.test.flags.todo && !slot.test.flags.failing && (slot.partner === null || slot.partner.test.bodyHash !== slot.test.bodyHash))
    .map((slot) => checkedTest(slot.file, slot.test, afterFacts.get(slot.file) ?? null));
  for (const slot of open) {
    const checked = checkedTest(slot.file, slot.test, beforeFacts.get(slot.file) ?? null);
    if (checked.checks.length === 0) continue;
    judged.add(slot);
    // A check of a function the change renamed is looked for under the new name (product-renames.ts), and named as written.
    const written = new Map<Check, Check>();
    const followed: CheckedTest =
      renamed.length === 0
        ? checked
        : {
            ...checked,
            checks: checked.checks.map((check) => {
              const now = renamedCheck(check, renamed);
              if (now) written.set(now, check);
              return now ?? check;
            }),
          };
    const result = conserve(followed, pool, removedDeclarations(pairs));
    result.missing = result.missing.map((check) => written.get(check) ?? check);
    if (result.covered.length === 0) continue;
    if (result.missing.length === 0 && result.lostLiterals.length > 0) continue; // its checks read other inputs now: not the same test
    conserved.add(slot);
    if (result.missing.length === 0) continue;
    const homes = [...new Set(result.covered.map((cover) => `"${cover.by.test.id}" in ${cover.by.file}`))];
    const keptCount = new Set(result.covered.map((cover) => cover.check)).size;
    const firstHome = result.covered[0]?.by as CheckedTest;
    findings.push({
      type: "assertion_removal",
      severity: defaultSeverityOf("assertion_removal"),
      file: firstHome.file,
      line: firstHome.test.line,
      before_file: slot.file,
      before_line: slot.test.line,
      test: slot.test.id,
      message: `test "${slot.test.id}" in ${slot.file} is gone; ${keptCount} of its ${checked.checks.length} checks live on in ${homes.slice(0, 3).join(", ")}${homes.length > 3 ? ", …" : ""}, ${result.missing.length} ${result.missing.length === 1 ? "is" : "are"} made nowhere after the change: ${result.missing.slice(0, 3).map(describeCheck).join("; ")}`,
      evidence: {
        checks_before: checked.checks.length,
        checks_kept: keptCount,
        removed: result.missing.map((check) => ({ line: check.line, check: describeCheck(check) })),
        conserved_in: result.covered
          .map((cover) => ({ file: cover.by.file, test: cover.by.test.id }))
          .filter((home, index, all) => all.findIndex((other) => other.file === home.file && other.test === home.test) === index),
      },
      allowed: false,
    });
  }
  return { findings, conserved, judged };
}

/**
 * One test_deletion for a test method that no longer exists anywhere and
 * that ran only as inherited (or imported) instances: its declaring class is
 * a mixin or base that its own module does not collect.
 */
function deletedDeclarationFinding(lost: readonly Slot[]): Finding {
  const first = lost[0] as Slot;
  const site = first.test.declaredAt as NonNullable<TestCase["declaredAt"]>;
  const declared = [...site.suitePath, first.test.name].join(" > ");
  const isTodo = lost.every((slot) => slot.test.flags.todo);
  return {
    type: "test_deletion",
    severity: isTodo ? "low" : "critical",
    file: site.file,
    line: site.line,
    before_file: site.file,
    before_line: site.line,
    test: first.test.id,
    message: `test method "${declared}" was deleted from ${site.file} and not found elsewhere; it ran as ${lost.length} inherited test${lost.length === 1 ? "" : "s"}: ${listIds(lost)}`,
    evidence: {
      declared: declared,
      tests: lost.map((slot) => slot.test.id),
      files: [...new Set(lost.map((slot) => slot.file))],
      test_count: lost.length,
      assertions: first.test.assertionCount,
      body_hash: first.test.bodyHash,
    },
    allowed: false,
  };
}

/**
 * One test_deletion for a class that no longer runs tests it inherited,
 * though their declarations still exist: its bases changed (a base dropped
 * or replaced), or a base stopped being collectable.
 */
function lostInheritanceFinding(lost: readonly Slot[]): Finding {
  const first = lost[0] as Slot;
  const className = first.test.suitePath.join(" > ");
  const sources = [...new Set(lost.map((slot) => `${slot.test.declaredAt?.suitePath.join(" > ")} (${slot.test.declaredAt?.file})`))];
  return {
    type: "test_deletion",
    severity: lost.every((slot) => slot.test.flags.todo) ? "low" : "critical",
    file: first.file,
    line: first.test.line,
    before_file: first.file,
    before_line: first.test.line,
    test: first.test.id,
    message: `class "${className}" in ${first.file} no longer runs ${lost.length} test${lost.length === 1 ? "" : "s"} it inherited from ${sources.join(", ")}: ${lost
      .map((slot) => slot.test.name)
      .slice(0, 8)
      .join(", ")}${lost.length > 8 ? ", …" : ""}`,
    evidence: { class: className, inherited_from: sources, tests: lost.map((slot) => slot.test.id), test_count: lost.length },
    allowed: false,
  };
}

/**
 * test_disabled findings for before tests whose after side is in a file the
 * test runner does not collect (see the module comment), one per before
 * file and after file: the tests' ids, the file and the config that leaves
 * it out. Critical, or low when every such test was skipped or todo before
 * (nothing that ran stops running).
 */
function leftDiscoveryFindings(slots: readonly Slot[]): Finding[] {
  const groups = new Map<string, Slot[]>();
  for (const slot of slots) {
    const partner = slot.partner as Slot;
    const key = `${slot.file}\u0000${partner.file}`;
    const group = groups.get(key);
    if (group) group.push(slot);
    else groups.set(key, [slot]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as Slot;
    const partner = first.partner as Slot;
    const by = partner.notCollectedBy ?? "the runner config";
    const isMoved = first.file !== partner.file;
    const ids = group.map((slot) => slot.test.id);
    const ranBefore = group.filter((slot) => !slot.test.flags.skipped && !slot.test.flags.todo);
    const where = isMoved ? `moved from ${first.file} to ${partner.file}, which ${by} does not collect` : `${by} no longer collects ${partner.file}`;
    const finding: Finding = {
      type: "test_disabled",
      severity: ranBefore.length > 0 ? "critical" : "low",
      file: partner.file,
      line: group.length === 1 ? partner.test.line : null,
      before_file: first.file,
      before_line: group.length === 1 ? first.test.line : null,
      message: group.length === 1 ? `test "${first.test.id}" no longer runs: ${where}` : `${group.length} tests no longer run: ${where}`,
      evidence: { gained: ["out_of_discovery"], not_collected_by: by, tests: ids, test_count: group.length },
      allowed: false,
    };
    if (group.length === 1) finding.test = first.test.id;
    return finding;
  });
}

/** Whether the code under a test file did not change in the diff (rules/context.ts hasCodeUnderTestChanged), asked once per file. */
function codeUnchangedJudge(pairs: readonly FactsPair[], changedPaths: readonly string[] | undefined): (path: string) => boolean {
  const answers = new Map<string, boolean>();
  return (path) => {
    let answer = answers.get(path);
    if (answer === undefined) {
      answer = !hasCodeUnderTestChanged(path, pairs, changedPaths);
      answers.set(path, answer);
    }
    return answer;
  };
}

/**
 * The findings of one diff, in the order of `pairs` (deletions per file,
 * then disabled tests, then the rule families of rules/: assertion,
 * validation, special-casing and feature-removal findings). Allow rules are
 * not applied here (see verdict.ts). `changedPaths`, every path of the diff
 * (analysable or not), lets the rules see a dependency manifest change.
 * `context` holds unchanged files that tests are inherited from or by
 * (inheritance.ts loadClassContext); without it, inheritance is resolved
 * among the changed files only. `reach.exercising` lists, per changed
 * product file, the unchanged test files that exercise it (exercising.ts),
 * which special_casing judges new literal branches against;
 * `reach.entryOnly` names the changed modules only program entry points
 * import (reach.ts), whose new success exits harness-escape leaves alone;
 * `reach.support` the runtime minimums the change's manifests moved
 * (support.ts), under which a version-gated test may run nowhere any more;
 * `reach.stated` what the root manifests support after the change
 * (config/index.ts supportAfterChange, read on first use), under which a runtime-requirement guard may
 * refuse nothing any more (runtime-requirements.ts);
 * `reach.neighbours` unchanged product files the changed ones call into
 * (neighbours.ts), where a removed guard may live on;
 * `reach.nullableErrors` the folders of the C# projects whose change made
 * nullable warnings errors (support.ts nullableErrorScopes).
 */
export function compareFacts(
  pairs: readonly FactsPair[],
  changedPaths?: readonly string[],
  context: ClassContext = EMPTY_CLASS_CONTEXT,
  reach: {
    exercising?: ReadonlyMap<string, readonly ExercisingFile[]>;
    entryOnly?: ReadonlySet<string>;
    support?: readonly SupportChange[];
    stated?: () => ReadonlyMap<Runtime, StatedSupport>;
    neighbours?: readonly NeighbourCode[];
    nullableErrors?: readonly string[];
    /** Whether a non-test line of the change renames words alike (title-renames.ts), for pass 10. */
    renames?: RenameWitness;
    /** Packages the change drops from its npm manifests (dropped-dependencies.ts). */
    droppedDependencies?: readonly DroppedDependency[];
    /** .NET target frameworks the change stops building for (dropped-dependencies.ts droppedTargets). */
    droppedTargets?: readonly string[];
    /** Cargo features the change drops (dropped-dependencies.ts droppedCargoFeatures). */
    droppedFeatures?: readonly DroppedDependency[];
  } = {},
): Finding[] {
  const { exercising, entryOnly, support, stated, neighbours, nullableErrors, renames, droppedDependencies, droppedTargets, droppedFeatures } = reach;
  const resolved = resolvePairs(pairs, context);
  const allPairs = [...resolved.changed, ...resolved.unchanged];
  const { before, after } = matchTests(allPairs, renames);
  const findings: Finding[] = [];
  const usedRows = new Map<Slot, Set<number>>();

  // Tests whose after side is in a file the runner does not collect: one finding per file they left.
  findings.push(...leftDiscoveryFindings(before.filter((slot) => slot.partner?.notCollectedBy !== undefined)));
  // Tests whose checks live on elsewhere (merged, split, moved and retitled, migrated): not lost.
  const productRenamed = productRenames(
    resolved.changed.filter((pair) => isProductCode(pair)).map((pair) => ({ before: usable(pair.before)?.code ?? null, after: usable(pair.after)?.code ?? null })),
    renames,
  );
  const conservation = conservationFindings(before, after, allPairs, productRenamed);
  findings.push(...conservation.findings);
  // Lost tests: each declaration is reported once (see the module comment).
  const ownLost = new Map<FactsPair, Slot[]>();
  const derivedLost: Slot[] = [];
  const tableSlots = after.filter((slot) => slot.test.eachRowLiterals !== undefined);
  // Whether the code under a test file stayed as it was, asked only for deleted tests without checks.
  const isCodeUnchanged = codeUnchangedJudge(resolved.changed, changedPaths);
  const unmatchedByFile = new Map<string, Slot[]>();
  for (const slot of before) if (slot.partner === null) pushTo(unmatchedByFile, slot.file, slot);
  for (const pair of allPairs) {
    const unmatched = unmatchedByFile.get(pair.path) ?? [];
    const lost = unmatched.filter((slot) => !conservation.conserved.has(slot) && (conservation.judged.has(slot) || !isMergedIntoRows(slot, tableSlots, usedRows)));
    if (pair.after && !hasUsableFacts(pair.after)) {
      if (lost.length > 0) findings.push(...deletionFindings(pair, lost, isCodeUnchanged));
      continue;
    }
    ownLost.set(
      pair,
      lost.filter((slot) => !slot.test.declaredAt),
    );
    derivedLost.push(...lost.filter((slot) => slot.test.declaredAt));
  }
  const ownKeys = new Set([...ownLost.values()].flat().map(declarationKey));
  const inheritedBy = new Map<string, Slot[]>();
  for (const slot of derivedLost) {
    const key = declarationKey(slot);
    if (ownKeys.has(key)) pushTo(inheritedBy, key, slot);
  }
  for (const [pair, lost] of ownLost) {
    const undiscovered = lost.map((slot) => outOfDiscoveryFinding(slot, allPairs));
    const deleted = lost.filter((_, index) => undiscovered[index] === null);
    const ownFindings = [...undiscovered.filter((finding): finding is Finding => finding !== null), ...(deleted.length > 0 ? deletionFindings(pair, deleted, isCodeUnchanged) : [])];
    // A base's own test case lost: its subclasses lost it too; say so on the same finding.
    for (const finding of ownFindings) {
      const slot = lost.find((candidate) => candidate.test.id === finding.test && candidate.test.line === finding.before_line);
      const heirs = slot ? inheritedBy.get(declarationKey(slot)) : undefined;
      if (!heirs) continue;
      finding.evidence = { ...finding.evidence, inherited_by: heirs.map((heir) => ({ file: heir.file, test: heir.test.id })) };
      finding.message += `; it also ran as ${listIds(heirs)}`;
    }
    findings.push(...ownFindings);
  }
  // Test methods still declared after the change, in changed or unchanged files.
  const afterDeclarations = new Set<string>();
  const afterBodies = new Set<string>();
  const afterFiles: [string, FileFacts | null][] = [...pairs.map((pair): [string, FileFacts | null] => [pair.path, pair.after]), ...context.files];
  for (const [path, facts] of afterFiles) {
    for (const fact of facts && hasUsableFacts(facts) ? (facts.classScope?.classes ?? []) : []) {
      for (const method of fact.methods) {
        afterDeclarations.add(`${path}\u0000${fact.suitePath.join("\u0001")}\u0000${method.test.name}`);
        afterBodies.add(method.test.bodyHash);
      }
    }
  }
  const byDeclaration = new Map<string, Slot[]>();
  for (const slot of derivedLost) {
    const key = declarationKey(slot);
    if (ownKeys.has(key)) continue; // reported with the base's own test case (inherited_by)
    pushTo(byDeclaration, key, slot);
  }
  const byClass = new Map<string, Slot[]>();
  for (const lost of byDeclaration.values()) {
    const first = lost[0] as Slot;
    const site = first.test.declaredAt as NonNullable<TestCase["declaredAt"]>;
    const isDeclared = afterDeclarations.has(`${site.file}\u0000${site.suitePath.join("\u0001")}\u0000${first.test.name}`) || afterBodies.has(first.test.bodyHash);
    if (!isDeclared) {
      findings.push(outOfDiscoveryFinding(first, allPairs) ?? deletedDeclarationFinding(lost));
      continue;
    }
    for (const slot of lost) pushTo(byClass, `${slot.file}\u0000${slot.test.suitePath.join("\u0001")}`, slot);
  }
  for (const lost of byClass.values()) findings.push(lostInheritanceFinding(lost));

  const perDeclaration: { key: string; slot: Slot; item: Finding }[] = [];
  const followed = rowsFollowed(allPairs, after);
  const calledRows = rowCallsOf(after);
  for (const slot of after) {
    const finding = disabledFinding(slot, slot.partner);
    if (finding) perDeclaration.push({ key: `disabled\u0000${declarationKey(slot)}\u0000${JSON.stringify(finding.evidence?.via)}`, slot, item: finding });
    const rows = slot.partner ? lostRowsFinding(slot, slot.partner, followed, calledRows) : null;
    if (rows) perDeclaration.push({ key: `rows\u0000${declarationKey(slot)}`, slot, item: rows });
  }
  findings.push(...oncePerDeclaration(perDeclaration));
  const matched: MatchedTest[] = oncePerDeclaration(
    after.flatMap((slot) =>
      slot.partner && slot.match
        ? [
            {
              key: `${declarationKey(slot.partner)}\u0000${declarationKey(slot)}`,
              slot,
              item: { beforeFile: slot.partner.file, before: slot.partner.test, afterFile: slot.file, after: slot.test, match: slot.match },
            },
          ]
        : [],
    ),
  );
  // Files judged only because they left discovery add no code facts to judge.
  const rulePairs = resolved.changed.filter((pair) => !pair.isUnchanged);
  const input: RuleInput = { pairs: rulePairs, matched };
  if (changedPaths) input.changedPaths = changedPaths;
  if (exercising && exercising.size > 0) input.exercising = exercising;
  if (entryOnly && entryOnly.size > 0) input.entryOnly = entryOnly;
  if (support && support.length > 0) input.support = support;
  if (stated) input.stated = stated;
  if (neighbours && neighbours.length > 0) input.neighbours = neighbours;
  if (nullableErrors && nullableErrors.length > 0) input.nullableErrors = nullableErrors;
  if (droppedDependencies && droppedDependencies.length > 0) input.droppedDependencies = droppedDependencies;
  if (droppedTargets && droppedTargets.length > 0) input.droppedTargets = droppedTargets;
  if (droppedFeatures && droppedFeatures.length > 0) input.droppedFeatures = droppedFeatures;
  if (productRenamed.length > 0) input.productRenames = productRenamed;
  return applyRules(findings, input);
}
