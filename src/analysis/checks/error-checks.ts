/**
 * Exception checks written by hand with `try`, read as the `throws` checks
 * they are (issue 9, class exception-check-rewritten; sweep of jhy/jsoup
 * 9d2241ff46), in every language that has the idiom:
 *
 * - the flag form: a local set false (or null) before the `try`, set in a
 *   handler, and asserted after it (`boolean threw = false; try { call(); }
 *   catch (E e) { threw = true; } assertTrue(threw);`, Python's `raised =
 *   False … except E: raised = True … assert raised`, Ruby's
 *   begin/rescue, `let error; try {…} catch (e) { error = e }
 *   expect(error).toBeDefined()`): the assertion of the flag is
 *   `throws(call, E)`;
 * - the fail form: an explicit failure as the last statement of the guarded
 *   block or in its `else` clause (JUnit/PHPUnit `fail()`, `$this->fail()`,
 *   xUnit/NUnit `Assert.Fail()`, `self.fail()`, `pytest.fail()`, `assert
 *   False`, minitest `flunk`, node:assert `assert.fail()`): the failure is
 *   `throws(call, E)`, unless a handler catches the failure's own error
 *   (`catch (Throwable t)` around JUnit's AssertionError, `except
 *   Exception` around `self.fail`, any JS `catch`, PHP `catch (\Exception)`,
 *   Ruby `rescue Exception` around `flunk`): then the test passes whatever
 *   the call does, unless that handler asserts something about what it
 *   caught (a `throws` naming no type; the handler's checks stay its own);
 * - a failure right after the `try` whose every handler ends in `return`
 *   is read as one in its `else` clause;
 * - an assertion in a handler of a `try` that none of the forms above
 *   checks runs only when the guarded code throws: it gets the condition
 *   {@link ON_FAILURE_CONDITION} (unless the test counts its assertions);
 * - any other assertion of the guarded block, where a handler catches the
 *   framework's failure (`except AssertionError`, `catch (XunitException)`,
 *   `rescue Minitest::Assertion`) and swallows it (logs it, prints it;
 *   neither re-raises, asserts, nor keeps it for a later check): the
 *   assertion never fails, a tautology (issue 9, class assertion-error-caught).
 *
 * The call is the guarded block's last statement before the failure (its
 * value when it assigns one). Checks in the handler (`assertEquals(msg,
 * e.getMessage())`) stay checks of their own, as they do after `E e =
 * assertThrows(...)`. The language modules describe their `try` statements
 * as {@link TryShape}s; this module only reads the shapes and the facts.
 */

import type { AssertionFact } from "../facts.js";
import { canonicalText, toCheck } from "./normalise.js";

/** One statement of a {@link TryShape}: its byte range, its text, and the code it runs (its value, for an assignment or declaration). */
export interface TryStatement {
  start: number;
  end: number;
  /** The statement's source, whitespace collapsed. */
  text: string;
  /** The expression it evaluates (the right side of an assignment or declaration), in AssertionFact.actual form; undefined for other statements. */
  code?: string;
}

/** A handler (`catch`, `except`, `rescue`) of a {@link TryShape}: the error types it names (none: the language's catch-all or default) and its statements. */
export interface TryHandler {
  types: readonly string[];
  start: number;
  end: number;
  statements: readonly TryStatement[];
}

/** A `try` statement as the languages describe it. */
export interface TryShape {
  /** The guarded statements, in order. */
  body: readonly TryStatement[];
  /** Statements that run when the guarded ones raised nothing, outside the handlers (Python's and Ruby's `else`). */
  orElse: readonly TryStatement[];
  handlers: readonly TryHandler[];
  /** The statements before the `try` in its block, in order. */
  before: readonly TryStatement[];
  /** The statements after the `try` in its block, in order. */
  after: readonly TryStatement[];
}

/** An assertion fact with its position in the file. */
export interface PlacedFact {
  fact: AssertionFact;
  start: number;
}

/** What differs between languages: which handler types catch the error a failure call raises. */
export interface FailureSyntax {
  /** True when a handler naming `types` (none: the catch-all or the default) catches the error that `fail` (an explicit failure fact) raises. */
  catchesFailure(types: readonly string[], fail: AssertionFact): boolean;
  /** True when the test counts its assertions (jest `expect.assertions(n)`, `expect.hasAssertions()`): a handler's assertion that never runs fails it, so it is no {@link ON_FAILURE_CONDITION} check. */
  readonly countsAssertions?: boolean;
  /**
   * True when such a handler catches the error any assertion `fact` of the
   * framework raises on failure (AssertionError, XunitException,
   * Minitest::Assertion, …), so an assertion it guards never fails the
   * test ({@link withTryErrorChecks}); absent: the language's assertions are
   * not judged so (JS, whose bare `catch` is also the callback style's
   * `catch (e) { done(e) }`).
   */
  catchesAssertion?(types: readonly string[], fact: AssertionFact): boolean;
}

/**
 * The condition (AssertionFact.conditions) of an assertion that runs only
 * when the code before it throws or rejects: one in a handler of a `try`
 * whose guarded block neither ends in a failure nor sets a flag asserted
 * after it, one in a `.catch(cb)` / `.then(_, cb)` callback
 * (languages/javascript-settlement.ts). When the code does not throw, the
 * test passes having checked nothing, so such a check in place of an
 * unconditional one is weaker (rules/assertions.ts).
 */
export const ON_FAILURE_CONDITION = "<the code before it throws or rejects>";

/** A handler statement that hands the caught failure on: re-raises it, fails, or reports or keeps it for a later check (`raise`, `throw`, `done(e)`, `errors.append(e)`, `failures << e`, `error = e`). */
const HANDS_ON = /^(?:raise|throw|panic|fail|flunk)\b|\b(?:raise|throw|fail|Fail|flunk|done|reject|append|push|add|extend|addSuppressed|set_exception|collect|put)\s*\(|<<|^\$?[\w.$[\]]+\s*\+?=[^=]/;

/**
 * True when a handler swallows the failures it catches: it asserts nothing
 * (no fact of `facts` lies in it) and no statement of it hands the failure
 * on ({@link HANDS_ON}); a log line or a print is swallowing.
 */
function swallowsFailure(handler: TryHandler, facts: readonly PlacedFact[]): boolean {
  if (facts.some((placed) => placed.start >= handler.start && placed.start < handler.end)) return false;
  return !handler.statements.some((statement) => HANDS_ON.test(statement.text));
}

/** The matcher of a `throws` check read from a `try`. */
export const TRY_THROWS = "catch.throws";

/**
 * The matcher of a raise that fails the test when the guarded code did not
 * throw (parsers/tree-sitter-try.ts raiseFailures): a failure fact of the
 * fail form, its expected value the raised type. It becomes a `throws`
 * check or nothing: one a handler catches checks nothing.
 */
export const RAISE_FAILURE = "raise.fail";

/** True when a handler naming `types` (none: the catch-all) catches the error a {@link RAISE_FAILURE} raises: it names the raised type or a broad one. */
function catchesRaise(types: readonly string[], raised: string | undefined): boolean {
  return types.length === 0 || types.some((type) => type === raised || BROAD_TYPES.test(type));
}

/** Error types too broad to pin a failure down (relations.ts BROAD_ERRORS, as written in each language). */
const BROAD_TYPES = /^(?:\\?Exception|BaseException|Error|Throwable|StandardError|System\.Exception|java\.lang\.(?:Exception|Throwable)|Object)$/;

/** Initial values a flag starts with: false or nothing. */
export const UNSET_VALUE = /^(?:false|False|FALSE|null|NULL|nil|None|undefined)$/;

/** The name a statement declares or assigns unset (`boolean threw = false;`, `raised = False`, `$threw = false;`, `let error;`), or null. */
function unsetName(text: string): string | null {
  const assigned = /^(?:(?:final|var|let|const|bool|boolean|Boolean|auto|Exception|Throwable|Error|[A-Z]\w*(?:<[^>]*>)?\??)\s+)?\$?([A-Za-z_$][\w$]*)\s*=\s*([^=].*?)\s*;?$/.exec(text);
  if (assigned && UNSET_VALUE.test(assigned[2] as string)) return assigned[1] as string;
  return /^(?:let|var)\s+([A-Za-z_$][\w$]*)\s*;?$/.exec(text)?.[1] ?? null;
}

/** True when a statement assigns `name` (any value). */
function assigns(text: string, name: string): boolean {
  return new RegExp(`^\\$?${name.replace(/\$/g, "\\$")}\\s*=[^=]`).test(text);
}

/** True when a statement assigns `name` a value that is not unset (`threw = true`, `error = e`, `caught = e.getMessage()`). */
function setsFlag(text: string, name: string): boolean {
  const value = new RegExp(`^\\$?${name.replace(/\$/g, "\\$")}\\s*=\\s*([^=].*?)\\s*;?$`).exec(text)?.[1];
  return value !== undefined && !UNSET_VALUE.test(value);
}

/** A fact's check on its subject as written (the local's bound value left out: a flag is asserted by its name). */
function flagCheck(fact: AssertionFact): ReturnType<typeof toCheck> {
  const plain: AssertionFact = { ...fact };
  delete plain.actualValue;
  return toCheck(plain);
}

/** True when a fact asserts that `name` was set: truthy, defined, not null, equal to true. */
function assertsSet(fact: AssertionFact, name: string): boolean {
  const check = flagCheck(fact);
  if (check.subject !== name && check.subject !== `$${name}`) return false;
  if ((check.relation === "truthy" || check.relation === "defined") && !check.isNegated) return true;
  return (check.relation === "equal" || check.relation === "nullish") && check.isNegated && (check.expected === undefined || UNSET_VALUE.test(check.expected));
}

/** True when a fact asserts that its subject is still unset, the converse of {@link assertsSet}: falsy, not truthy, undefined, null, or equal to an unset value. */
export function assertsUnset(fact: AssertionFact): boolean {
  const check = flagCheck(fact);
  if (check.relation === "falsy" || check.relation === "nullish") return !check.isNegated;
  if (check.relation === "truthy" || check.relation === "defined") return check.isNegated;
  return check.relation === "equal" && !check.isNegated && check.expected !== undefined && UNSET_VALUE.test(check.expected);
}

/** True when a fact is an explicit failure: `fail()`, `Assert.Fail()`, `self.fail()`, `pytest.fail()`, `flunk`, `assert.fail()`, or a truthiness check of `false` (`assert False`, `assertTrue(false)`). */
export function isFailureFact(fact: AssertionFact): boolean {
  const known = failureFacts.get(fact);
  if (known !== undefined) return known;
  const last = fact.matcher.split(/[.\s]/).pop() ?? "";
  // Only a fact whose value under test spells false can be a truthiness check of it: the others need no normalising.
  const isFailure =
    /^(?:fail|Fail|flunk|unreachable)$/.test(last) ||
    (/\b(?:false|False|FALSE|0)\b/.test(`${fact.actual ?? ""} ${fact.actualValue ?? ""}`) &&
      ((check) => check.relation === "truthy" && !check.isNegated && /^(?:false|False|FALSE|0)$/.test(check.subject))(toCheck(fact)));
  failureFacts.set(fact, isFailure);
  return isFailure;
}

/** {@link isFailureFact} per fact: the `try` forms ask it of every fact once per `try` statement of the file. */
const failureFacts = new WeakMap<AssertionFact, boolean>();

/** Whether `start` lies in `statement`. */
const within = (start: number, statement: { start: number; end: number }): boolean => start >= statement.start && start < statement.end;

/** The call a `throws` check of this shape is about: the last guarded statement before `stop` that runs code and is neither a failure nor a flag assignment. */
function guardedCode(shape: TryShape, facts: readonly PlacedFact[], flag: string | null, stop: number): string | undefined {
  for (let i = shape.body.length - 1; i >= 0; i--) {
    const statement = shape.body[i] as TryStatement;
    if (statement.start >= stop || statement.code === undefined) continue;
    if (flag !== null && assigns(statement.text, flag)) continue;
    if (facts.some((placed) => within(placed.start, statement) && isFailureFact(placed.fact))) continue;
    return statement.code;
  }
  return undefined;
}

/** The `throws` fact that replaces `fact`: the guarded call and the one error type the handlers name (none when they name several or none). */
function throwsFact(fact: AssertionFact, code: string | undefined, types: readonly string[]): AssertionFact {
  const named = [...new Set(types)];
  const type = named.length === 1 ? named[0] : undefined;
  const rewritten: AssertionFact = { line: fact.line, matcher: TRY_THROWS, strength: type !== undefined && !BROAD_TYPES.test(type) ? 2 : 1, tautology: false };
  if (code !== undefined) rewritten.actual = code;
  if (type !== undefined) rewritten.expected = canonicalText(type);
  if (fact.unreachable) rewritten.unreachable = true;
  if (fact.gated) rewritten.gated = true;
  return rewritten;
}

/**
 * The facts of a file or test with the exception checks of its `try`
 * statements read as `throws` checks (see the module doc); every other fact
 * as it was, in the same order.
 */
export function withTryErrorChecks(shapes: readonly TryShape[], facts: readonly PlacedFact[], syntax: FailureSyntax): PlacedFact[] {
  const replaced = new Map<PlacedFact, AssertionFact>();
  for (const shape of shapes) {
    const replacedBefore = replaced.size;
    // The flag form.
    for (const statement of shape.before) {
      const flag = unsetName(statement.text);
      if (flag === null) continue;
      const setters = shape.handlers.filter((handler) => handler.statements.some((inner) => setsFlag(inner.text, flag)));
      if (setters.length === 0 || [...shape.body, ...shape.orElse].some((inner) => assigns(inner.text, flag))) continue;
      if (shape.before.some((other) => other.start > statement.start && assigns(other.text, flag))) continue;
      const check = facts.find((placed) => !replaced.has(placed) && shape.after.some((next) => within(placed.start, next)) && assertsSet(placed.fact, flag));
      if (!check) continue;
      replaced.set(
        check,
        throwsFact(
          check.fact,
          guardedCode(shape, facts, flag, Number.POSITIVE_INFINITY),
          setters.flatMap((handler) => handler.types),
        ),
      );
    }
    // The fail form: a failure ending the guarded block, or in its else clause.
    const last = shape.body.at(-1);
    for (const placed of facts) {
      if (replaced.has(placed) || !isFailureFact(placed.fact)) continue;
      // A failure right after the `try` whose every handler returns is reached only when nothing was thrown: an `else` clause.
      const handlersReturn = shape.handlers.every((handler) => /^return\b/.test(handler.statements.at(-1)?.text ?? ""));
      const inElse = shape.orElse.some((statement) => within(placed.start, statement)) || (handlersReturn && shape.after[0] !== undefined && within(placed.start, shape.after[0]));
      if (!inElse && !(last && within(placed.start, last))) continue;
      const code = guardedCode(shape, facts, null, inElse ? Number.POSITIVE_INFINITY : (last?.start ?? 0));
      const isRaise = placed.fact.matcher === RAISE_FAILURE;
      const catching = inElse ? [] : shape.handlers.filter((handler) => (isRaise ? catchesRaise(handler.types, placed.fact.expected) : syntax.catchesFailure(handler.types, placed.fact)));
      if (catching.length === 0) {
        replaced.set(
          placed,
          throwsFact(
            placed.fact,
            code,
            shape.handlers.flatMap((handler) => handler.types),
          ),
        );
        continue;
      }
      // The handler catches the failure itself: it checks something only if it asserts on what it caught.
      const checksCaught = catching.every((handler) => facts.some((other) => other.start >= handler.start && other.start < handler.end));
      // A raise its own handler catches is no assertion at all (withTryChecks drops it).
      if (checksCaught) replaced.set(placed, throwsFact(placed.fact, code, []));
      else if (!isRaise) replaced.set(placed, { ...placed.fact, strength: 0, tautology: true });
    }
    // An assertion of a handler, where nothing fails when the guarded code does not throw: it checks only on failure.
    const isChecked = replaced.size > replacedBefore;
    if (!isChecked && !syntax.countsAssertions)
      for (const placed of facts) {
        if (replaced.has(placed) || !shape.handlers.some((handler) => placed.start >= handler.start && placed.start < handler.end)) continue;
        if ((placed.fact.conditions ?? []).includes(ON_FAILURE_CONDITION)) continue;
        replaced.set(placed, { ...placed.fact, conditions: [...(placed.fact.conditions ?? []), ON_FAILURE_CONDITION] });
      }
    // Any other assertion of the guarded block (issue 9, class assertion-error-caught): a handler that catches the
    // framework's failure and swallows it (see swallowsFailure) makes it an assertion that never fails, a tautology.
    const catchesAssertion = syntax.catchesAssertion?.bind(syntax);
    if (catchesAssertion === undefined) continue;
    for (const placed of facts) {
      if (replaced.has(placed) || !shape.body.some((statement) => within(placed.start, statement)) || isFailureFact(placed.fact)) continue;
      if (!shape.handlers.some((handler) => catchesAssertion(handler.types, placed.fact) && swallowsFailure(handler, facts))) continue;
      replaced.set(placed, { ...placed.fact, strength: 0, tautology: true });
    }
  }
  if (replaced.size === 0) return [...facts];
  return facts.map((placed) => {
    const fact = replaced.get(placed);
    return fact ? { fact, start: placed.start } : placed;
  });
}
