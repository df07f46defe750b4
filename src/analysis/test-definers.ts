/**
 * Tests defined through a project's own function, within one file: the
 * test a call defines through a test definer (facts.ts TestDefinerFact,
 * HelperTestFact), and a file's calls of its own definers made tests. The
 * language extractors use it at extraction; analysis/defined-tests.ts
 * resolves definers across files with it. Imports only facts.ts, so the
 * language modules can use it without an import cycle.
 */

import { settleFlags, type FileFacts, type HelperTestFact, type TestCase, type TestDefinerFact, type TestFlag } from "./facts.js";

/**
 * The test a call defines through `definer`, or null when the definer takes
 * its title or body from other positions than the call gives them (or has
 * another name), or declares a test per element of a list the call gives
 * empty. Its name is the definer's title with the call's title in
 * place (`{} (deprecated)` -> `keeps the legacy form (deprecated)`), its id
 * follows, and the flags the definer's declaration sets are added (with
 * where they come from); body hash, checks and literals are the call's.
 */
export function definedTest(call: HelperTestFact, definer: TestDefinerFact): TestCase | null {
  if (definer.name !== call.helper || definer.titleParam !== call.titleArgument || definer.bodyParam !== call.bodyArgument) return null;
  // One test per element of a list given empty: none.
  if (definer.eachParam !== undefined && call.emptyArguments?.includes(definer.eachParam)) return null;
  const name = definer.title.split("{}").join(call.test.name);
  const flags = { ...call.test.flags };
  const flagVia: Partial<Record<TestFlag, string>> = { ...call.test.flagVia };
  for (const [flag, via] of Object.entries(definer.flagVia ?? {}) as [TestFlag, string][]) {
    if (flags[flag]) continue;
    flags[flag] = true;
    flagVia[flag] = `${via} in ${definer.name}()`;
  }
  settleFlags(flags, flagVia);
  const { flagVia: _old, ...rest } = call.test;
  const test: TestCase = { ...rest, id: [...call.test.suitePath, name].join(" > "), name, flags };
  if (Object.keys(flagVia).length > 0) test.flagVia = flagVia;
  return test;
}

/**
 * The tests `calls` define through `definers`, and the calls no definer
 * resolves. A call may define several tests (a function declaring two).
 */
export function resolveCalls(calls: readonly HelperTestFact[], definersOf: (call: HelperTestFact) => readonly TestDefinerFact[]): { tests: TestCase[]; open: HelperTestFact[] } {
  const tests: TestCase[] = [];
  const open: HelperTestFact[] = [];
  for (const call of calls) {
    const defined = definersOf(call).flatMap((definer) => definedTest(call, definer) ?? []);
    if (defined.length > 0) tests.push(...defined);
    else open.push(call);
  }
  return { tests, open };
}

/** `facts` with `tests` added in line order and `helperTests` left with `open`; the same object when nothing was added. */
export function withTests(facts: FileFacts, tests: readonly TestCase[], open: readonly HelperTestFact[]): FileFacts {
  if (tests.length === 0) return facts;
  const { helperTests: _calls, ...rest } = facts;
  const merged: FileFacts = { ...rest, isTestFile: true, tests: [...facts.tests, ...tests].sort((a, b) => a.line - b.line) };
  if (open.length > 0) merged.helperTests = [...open];
  return merged;
}

/**
 * `facts` with the calls of its own definers made tests (a spec file that
 * defines its macro and uses it); calls of imported or loaded functions
 * stay for {@link linkDefinedTests}. The same object when none resolves.
 */
export function withOwnDefinedTests(facts: FileFacts): FileFacts {
  const definers = facts.testDefiners ?? [];
  const calls = facts.helperTests ?? [];
  if (definers.length === 0 || calls.length === 0) return facts;
  const { tests, open } = resolveCalls(
    calls.filter((call) => call.source === undefined),
    (call) => definers.filter((definer) => definer.name === call.helper),
  );
  return withTests(facts, tests, [...open, ...calls.filter((call) => call.source !== undefined)]);
}
