/**
 * A "does not throw" check made by running the code directly. An error a
 * test does not catch fails it in every framework (JUnit, xUnit/NUnit,
 * pytest, RSpec/minitest, `go test` for a panic, ava/jest/node:test for a
 * throw or an awaited rejection), so `t.notThrows(() => parse("x"))`,
 * `expect(() => parse("x")).not.toThrow()`, `assertDoesNotThrow(() ->
 * p.parse("x"))`, `expect { parse("x") }.not_to raise_error` and
 * `assert.NotPanics(t, func() { Parse("x") })` check what a plain
 * `parse("x")` statement at the test's top level checks. What the test runs
 * that way is TestCase.directCalls, read by each extractor (only what runs
 * whatever happens: no call under a handler, a branch or a callback).
 */

import type { TestCase } from "../facts.js";
import { unify } from "./coverage.js";
import { canonicalText, closingBracket, splitArguments, splitStatements, type Check } from "./normalise.js";
import { relationOfMatcher } from "./relations.js";

/** A declaration or assignment's left side, canonical: `const v=`, `let v=`, `var v=`, `val v=`, `Parser p=`, `auto v=`, `x:=`, `_=`, `let mut v=`, `$v=`. */
const BINDING_HEAD = /^(?:(?:const|let|var|val|final|auto|let mut)\s+)?(?:[A-Z][\w.<>,[\]?]*\s+)?\$?[A-Za-z_][\w$]*(?::[^=]+)?(?::=|=)(?!=)/;

/** What one statement runs, its binding and `await`/`try` prefixes dropped: `const v=await load(x)` -> `load(x)`. */
function valueOf(statement: string): string {
  return statement
    .replace(BINDING_HEAD, "")
    .replace(/^(?:await|try!?|yield)\s+/, "")
    .replace(/[?]$/, "");
}

/**
 * The statements a not-throws check's subject runs, canonical: the
 * subject comes with its function literal already dropped (normalise.ts
 * unwrapThunk: `p.parse("a")`, a block's `;`-separated statements). Null
 * when it names no code (`""`, one bare name: a local holding code not read
 * back).
 */
function notThrowsStatements(subject: string): string[] | null {
  const statements = splitStatements(subject);
  if (statements.length === 0 || statements.some((statement) => /^\$?[A-Za-z_]\w*$/.test(statement))) return null;
  return statements;
}

/** True when a statement is itself an assertion (`t.is(…)`, `assertEquals(…)`, `expect(x).toBe(…)`): it is a check of its own, judged as one. */
function isAssertionStatement(statement: string): boolean {
  const callee = /^[\w$.!:>-]+?(?=\()/.exec(statement)?.[0];
  if (callee === undefined) return false;
  const last = callee.split(/\.|->|::/).pop() ?? callee;
  return /^(?:assert|expect|refute|require|verify)/i.test(callee) || /^t\.\w+$/.test(callee) || relationOfMatcher(last) !== "other";
}

/** What a test runs directly: every run (canonical, with each statement's value beside it), and the values it awaits. */
interface DirectRuns {
  all: ReadonlySet<string>;
  /** The expressions awaited by a top-level statement (`await load(x)`, `const v = await load(x)`), canonical. */
  awaited: ReadonlySet<string>;
}

/** A statement that awaits its value, as written: `await x;`, `const v = await x;`, `var v = await x;`, `v = await x`. */
const AWAITING = /^(?:(?:(?:const|let|var|val|auto)\s+)?(?:[\w$.<>,[\]?]+\s+)?[\w$]+\s*(?::[^=]+)?=\s*)?await\s+([\s\S]+?);?$/;

/** A test's direct runs, cached per test. */
const runsCache = new WeakMap<TestCase, DirectRuns>();

/** TestCase.directCalls read as {@link DirectRuns}. */
function directRuns(test: TestCase): DirectRuns {
  let runs = runsCache.get(test);
  if (!runs) {
    const all = new Set<string>();
    const awaited = new Set<string>();
    for (const text of test.directCalls ?? []) {
      const canonical = canonicalText(text).replace(/;$/, "");
      all.add(canonical);
      all.add(valueOf(canonical));
      const value = AWAITING.exec(text.trim())?.[1];
      if (value !== undefined) awaited.add(canonicalText(value));
    }
    runs = { all, awaited };
    runsCache.set(test, runs);
  }
  return runs;
}

/**
 * True when `after` runs, whatever happens, every statement of the code
 * the negated `throws` check `check` (a not-throws check) ran, with the
 * same arguments: each statement, or what it evaluates (its binding and
 * `await` dropped), is one of the test's direct runs (TestCase.directCalls,
 * compared by {@link unify} without binding); statements that are
 * assertions are checks of their own and left to them. The plain call
 * forbids every error, so it covers a check that forbade one type too. A
 * check naming no code, or run under a condition, is never covered this way.
 */
export function isRunDirectly(check: Check, after: TestCase): boolean {
  if (check.relation !== "throws" || !check.isNegated || after.directCalls === undefined) return false;
  if ((check.conditions ?? []).length > 0) return false;
  const statements = notThrowsStatements(check.subject);
  if (!statements) return false;
  const runs = directRuns(after);
  const needed = statements.filter((statement) => !isAssertionStatement(statement));
  // A promise or task fails the test only when awaited: `const p = load(x)`, `void load(x)`, `_ = ParseAsync(x)` and
  // `await Promise.allSettled([load(x)])` do not; the awaited value must be the call itself.
  if (check.isAsync) return needed.length > 0 && needed.every((statement) => isIn(runs.awaited, valueOf(statement)) || isAwaitedThrough(runs.awaited, valueOf(statement)));
  return needed.length > 0 && needed.every((statement) => isIn(runs.all, statement) || isIn(runs.all, valueOf(statement)));
}

/** True when a value awaited is `call` chained through `.then(f)` with no rejection handler (`await load(x).then(r => r.data)`): a rejection still fails the test. */
function isAwaitedThrough(awaited: ReadonlySet<string>, call: string): boolean {
  for (const value of awaited) {
    if (!value.startsWith(`${call}.then(`)) continue;
    const open = call.length + ".then".length;
    const close = closingBracket(value, open);
    if (close === value.length - 1 && splitArguments(value.slice(open + 1, close)).length === 1) return true;
  }
  return false;
}

/** True when `text` is one of `runs`, as written or through {@link unify} without binding. */
function isIn(runs: ReadonlySet<string>, text: string): boolean {
  return runs.has(text) || [...runs].some((run) => unify(run, text, false) !== null);
}
