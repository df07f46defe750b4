/**
 * validation_bypass in non-test code: guards removed or narrowed (an `||`
 * alternative of the condition dropped, same throw), bodies collapsed to a
 * constant return, catches that now swallow, schemas loosened, suppressions
 * and casts added, and `"strict": false` in a tsconfig. Reads facts.ts
 * CodeFacts, so any language that fills them gets the same rules.
 *
 * A guard counts as kept when the function that held it still reaches an
 * equivalent guard: in itself, in a function it calls (transitively, by
 * name, in any changed file), or through a new call to a helper outside the
 * change whose name says it validates (`assertX`, `validateX`, `ensureX`, …).
 * Equivalent in the function itself means the same thrown/returned value, the
 * same condition, or a condition on the same names that throws the same
 * error class; in a helper (with its own parameter names), the same error
 * class or shared names suffice; failing both, any reached guard not already
 * claimed that throws the same error class (a check rewritten in place, as
 * `/^[0-7]+$/.test(mode)` becoming a byte loop). Each guard of before needs
 * its own partner, so deleting one of two RangeError guards still fires.
 * Last, a guard that is new anywhere in the change and equivalent to the lost
 * one (a sibling method the callers now use) takes it over. A guard moved
 * into a helper, inverted or reworded does not fire; nor one rewritten as a
 * `case`/match arm or a loop over a filter that exits the same way (the
 * languages record those as guards), nor one whose throw a reached function
 * now ends in unconditionally (a fall-through exit with the same error
 * class and message: GuardFact.fallthrough), nor one spelled the EAFP way,
 * the lookup done and its failure handled by raising the same error
 * (`except KeyError: raise E(m)`, `fetch(k) { raise E, m }`,
 * `orElseThrow(() -> new E(m))`: GuardFact.handler, never reported removed
 * itself). An `||` alternative dropped is kept by a function the guarded
 * one calls in the change that throws the same error on a bound covering
 * it ({@link isDelegatedAlternative}).
 *
 * A guard whose reason is gone is no bypass either: a sign check on a value
 * the function now binds by an unsigned parse whose failure reaches the
 * caller ({@link isSubsumedSignCheck}), and a guard on a boolean constant
 * whose definition that let it fire was dropped with its build variant
 * ({@link isDeadVariantGuard}), and a guard testing for enum members the
 * change removed ({@link isDeadMemberGuard}).
 */

import { displayCode } from "../display.js";
import {
  CAST_KINDS,
  PYDANTIC_CONSTRAINT_KEYWORDS,
  type CatchFact,
  type CodeFacts,
  type ConstantFact,
  type FunctionFact,
  type GuardFact,
  type LiteralBranchFact,
  type SchemaFact,
  type SuppressionFact,
  type TestCase,
} from "../facts.js";
import type { FileChange, Finding } from "../types.js";
import { checkedTest, type Check } from "../checks/index.js";
import { ERROR_RESULT_CLASS } from "../checks/rejection.js";
import { isNeverFiring, madeConstantFinding, splitTopLevel, unwrapParentheses } from "./constant-condition.js";
import { isInlineTestedProductCode, isProductCode, isTestPair, multisetMinus, usable, type RuleInput, type RulePair } from "./context.js";
import { defineRule, report } from "./registry.js";
import { isMetBySupport, runtimeRequirementOf } from "../runtime-requirements.js";
import type { Runtime, StatedSupport } from "../support.js";

/** Schema methods that accept more than before when added. */
const LOOSENING_METHODS: ReadonlySet<string> = new Set([
  "optional",
  "nullable",
  "nullish",
  "partial",
  "deepPartial",
  "passthrough",
  "any",
  "unknown",
  "catchall",
  "nonstrict",
  "notRequired",
  "allow",
  "strip",
  "looseObject",
]);

/** Schema methods whose removal accepts more. */
const CONSTRAINING_METHODS: ReadonlySet<string> = new Set([
  "required",
  "strict",
  "strictObject",
  "min",
  "max",
  "length",
  "email",
  "url",
  "uuid",
  "cuid",
  "regex",
  "matches",
  "pattern",
  "int",
  "integer",
  "positive",
  "negative",
  "nonnegative",
  "nonpositive",
  "nonempty",
  "refine",
  "superRefine",
  "valid",
  "invalid",
  "defined",
  "startsWith",
  "endsWith",
  "gt",
  "gte",
  "lt",
  "lte",
  "multipleOf",
  "finite",
  "safe",
  "datetime",
  "ip",
  "date",
  "trim",
  "lowercase",
  "uppercase",
  "oneOf",
  "notOneOf",
  "exact",
  "noUnknown",
]);

/**
 * The same two sets for declared models ({@link SchemaFact.notation}
 * `keyword`): what pydantic and marshmallow constraints are called there.
 * Per the pydantic docs (Fields, "Constrained types", Validators, "Extra
 * attributes") and marshmallow's (fields.Field `required`, `validate`,
 * `allow_none`; `@validates`; Meta `unknown`).
 */
const KEYWORD_LOOSENING: ReadonlySet<string> = new Set(["optional", "nullable", "any", "extra=allow", "unknown=INCLUDE", "unknown=EXCLUDE"]);
const KEYWORD_CONSTRAINING: ReadonlySet<string> = new Set([
  ...PYDANTIC_CONSTRAINT_KEYWORDS,
  "strict",
  "finite",
  "email",
  "url",
  "uuid",
  "validator",
  "model_validator",
  "extra=forbid",
  "required",
  "validate",
  "validates",
  "validates_schema",
]);

/** Names of helpers that validate (a call to one, unchanged, keeps a guard). */
const VALIDATING_NAME = /^(assert|validate|check|ensure|verify|require|guard|invariant|expect)[A-Z_]?/;

const SUPPRESSION_WORDS: Record<SuppressionFact["kind"], string> = {
  "ts-ignore": "@ts-ignore",
  "ts-expect-error": "@ts-expect-error",
  "ts-nocheck": "@ts-nocheck",
  "eslint-disable": "eslint-disable",
  "as-any": "an `as any` cast",
  "as-unknown-as": "an `as unknown as T` cast",
  "type-ignore": "# type: ignore",
  noqa: "# noqa",
  "pyright-ignore": "# pyright: ignore",
  "mypy-ignore-errors": "# mypy: ignore-errors",
  "pylint-disable": "# pylint: disable",
  "typing-cast": "a `typing.cast`",
  nolint: "//nolint",
  "lint-ignore": "//lint:ignore",
  allow: "#[allow(...)]",
  unsafe: "an `unsafe` block",
  "suppress-warnings": "@SuppressWarnings",
  "pragma-warning-disable": "#pragma warning disable",
  "suppress-message": "[SuppressMessage]",
  "nullable-disable": "#nullable disable",
  "null-forgiving": "a null-forgiving `!`",
  "rubocop-disable": "# rubocop:disable",
  "steep-ignore": "# steep:ignore",
  "phpstan-ignore": "@phpstan-ignore",
  "psalm-suppress": "@psalm-suppress",
  "phpcs-ignore": "a phpcs ignore",
};

interface CodeSide {
  path: string;
  code: CodeFacts;
}

function codePairs(pairs: readonly RulePair[]): { path: string; before: CodeFacts | null; after: CodeFacts | null }[] {
  return pairs
    .filter((pair) => (isProductCode(pair) || isInlineTestedProductCode(pair)) && !(pair.before !== null && usable(pair.before) === null))
    .map((pair) => ({ path: pair.path, before: usable(pair.before)?.code ?? null, after: usable(pair.after)?.code ?? null }))
    .filter((pair) => pair.after !== null && (pair.before !== null || pair.after.suppressions !== undefined));
}

/**
 * Throw helpers of standard and common libraries, by callee: the error class each throws when its check fails.
 * A guard spelled with one is the same guard as the `if … throw new <class>` it replaces.
 * C#: ArgumentNullException.ThrowIfNull and kin (.NET 6+, found sweeping: `if (x == null) throw new
 * ArgumentNullException(nameof(x))` -> `ArgumentNullException.ThrowIfNull(x)`) are read by their class below;
 * Java: java.util.Objects and Guava Preconditions; PHP: webmozart/assert (InvalidArgumentException); Python: the checking
 * conversions `operator.index` and `os.fspath` (TypeError).
 */
const THROW_HELPER_CLASSES: Readonly<Record<string, string>> = {
  "Objects.requireNonNull": "NullPointerException",
  requireNonNull: "NullPointerException",
  "Objects.requireNonNullElse": "NullPointerException",
  "Preconditions.checkNotNull": "NullPointerException",
  checkNotNull: "NullPointerException",
  "Preconditions.checkArgument": "IllegalArgumentException",
  checkArgument: "IllegalArgumentException",
  "Preconditions.checkState": "IllegalStateException",
  checkState: "IllegalStateException",
  "Preconditions.checkElementIndex": "IndexOutOfBoundsException",
  "Preconditions.checkPositionIndex": "IndexOutOfBoundsException",
  "Objects.checkIndex": "IndexOutOfBoundsException",
  "Assert::notNull": "InvalidArgumentException",
  "Assert::notEmpty": "InvalidArgumentException",
  "Assert::true": "InvalidArgumentException",
  "Assert::string": "InvalidArgumentException",
  "Assert::integer": "InvalidArgumentException",
  "operator.index": "TypeError",
  "os.fspath": "TypeError",
};

/**
 * The error class or callee of a guard's action: `new RangeError("…")` -> "RangeError", `err(…)` -> "err";
 * a throw helper as the class it throws: `ArgumentNullException.ThrowIfNull` -> "ArgumentNullException",
 * `ArgumentOutOfRangeException.ThrowIfNegative` -> "ArgumentOutOfRangeException", `Objects.requireNonNull` -> "NullPointerException".
 */
function actionClass(action: string): string {
  // An error result that wraps its reason (`new InvalidEmail(new ConsecutiveDot(), $t)`) refuses for that reason, as a throw of it did.
  const wrapped = /^new\s+(?:[\w\\]*\\)?(\w+)\(\s*new\s+(?:[\w\\]*\\)?(\w+)\(/.exec(action);
  if (wrapped && ERROR_RESULT_CLASS.test(wrapped[1] as string)) return wrapped[2] as string;
  const phpAssert = /^\\?(?:Webmozart\\Assert\\)?(Assert::\w+)/.exec(action);
  const unpathed = action.replace(/^(?:std|core|anyhow|eyre)::/, "");
  const match = /^(?:new )?([\w$.]+)/.exec(unpathed);
  // A checking macro's action is its bare name (`assert!`); a macro that exits is called (`panic!(…)` -> "panic").
  const callee = phpAssert?.[1] ?? (match ? `${match[1]}${unpathed === `${match[1]}!` ? "!" : ""}` : action);
  const helper = THROW_HELPER_CLASSES[callee] ?? EXIT_ALIASES[callee];
  if (helper !== undefined) return helper;
  const thrower = /^(?:[\w.]+\.)?(\w+(?:Exception|Error))\.Throw\w*$/.exec(callee);
  if (thrower) return thrower[1] as string;
  // .NET's throw helpers say what they throw: `ThrowHelper.ThrowArgumentNullException(…)`, `ThrowArgumentNull(…)` -> "ArgumentNullException".
  const helperThrow = /(?:^|\.)Throw(?!If)([A-Z]\w*?)(?:Exception)?$/.exec(callee);
  if (helperThrow) return `${helperThrow[1] as string}Exception`;
  // .NET's `token.ThrowIfCancellationRequested()` (and a project's extension of that name) throws OperationCanceledException.
  if (/(?:^|\.)ThrowIfCancellationRequested$/.test(callee)) return "OperationCanceledException";
  // A project's own `ThrowHelper.ThrowIfNull(x)` follows .NET's (ArgumentNullException.ThrowIfNull, ArgumentOutOfRangeException.ThrowIfNegative).
  if (/(?:^|\.)ThrowIfNull$/.test(callee)) return "ArgumentNullException";
  if (/(?:^|\.)ThrowIf(?:Negative|Zero|NegativeOrZero|GreaterThan|GreaterThanOrEqual|LessThan|LessThanOrEqual|Equal|NotEqual)$/.test(callee)) return "ArgumentOutOfRangeException";
  return callee.replace(/^(?:java\.lang\.|System\.)/, "");
}

/**
 * Exits that are one exit spelled two ways, by callee: Rust's `assert!(c, m)`
 * panics as `if !c { panic!(m) }` does (clippy's manual_assert rewrites one
 * as the other), anyhow's `ensure!(c, m)` and `bail!(m)` return the error as
 * `return Err(anyhow!(m))` does. `debug_assert!` is no alias: release builds
 * drop it, so it keeps nothing a panic did ({@link isWeakerExit}).
 */
const EXIT_ALIASES: Readonly<Record<string, string>> = { "assert!": "panic", "ensure!": "Err", bail: "Err" };

/** True when the exit `now` takes is only a debug build's (`debug_assert!`) while `was` fired in every build. */
const isWeakerExit = (was: string, now: string): boolean => actionClass(now) === "debug_assert!" && actionClass(was) !== "debug_assert!";

/**
 * True when the exit `now` raises what `was` raised (the same error class,
 * {@link actionClass}), or more surely: a `debug_assert!` made a panic that
 * fires in release builds too.
 */
function isSameExitClass(was: string, now: string): boolean {
  const wasClass = actionClass(was);
  const nowClass = actionClass(now);
  return wasClass === nowClass || (wasClass === "debug_assert!" && nowClass === "panic");
}

/**
 * True when a handler's filter ({@link GuardFact.rethrown}) went in a way
 * that lets no error through that it stopped: its handler kept and no longer
 * rethrowing (catch_swallows judges that handler), or removed with the
 * handler while the code it guarded is still called by the function
 * directly and nothing else there swallows: no handler of the function that
 * swallows, no `suppress(…)` (Python's contextlib). Then every error goes
 * through, which is stricter. A handler kept that still rethrows (another
 * error now), or the guarded code gone or moved into a callee, leaves the
 * filter judged as any guard.
 */
function isFilterRetired(guard: GuardFact, before: CodeFacts, after: CodeFacts): boolean {
  if (guard.rethrown === undefined) return false;
  const kept = (after.catches ?? []).filter((site) => site.function === guard.function && site.caught === guard.rethrown);
  if (kept.length > 0) return !kept.some((site) => site.behaviour === "rethrows");
  const handler = (before.catches ?? []).filter((site) => site.function === guard.function && site.caught === guard.rethrown && site.line <= guard.line).sort((a, b) => b.line - a.line)[0];
  const fnAfter = (after.functions ?? []).find((fn) => fn.name === guard.function);
  if (!handler?.guardedCalls || handler.guardedCalls.length === 0 || !fnAfter) return false;
  if (!handler.guardedCalls.every((call) => fnAfter.calls.includes(call)) || fnAfter.calls.includes("suppress")) return false;
  return !(after.catches ?? []).some((site) => site.function === guard.function && SWALLOWING.has(site.behaviour));
}

/** Throw helpers that refuse a null argument (their guard's condition is that argument). */
const NULL_HELPER = /(?:^|[.:])(?:ThrowIfNull|requireNonNull|checkNotNull|notNull)$/;

/**
 * Which absent values a null test refuses: "null" the null value alone
 * (`is None`, `== None`, `.nil?`, `== nil`, `is null`, `is_null($x)`, the
 * null-refusing throw helpers), "loose" what a loose `==` takes for null (JS
 * `== null` also takes undefined, PHP's `== null` "" and 0), "strict-null"
 * and "strict-undefined" one value by `===`.
 */
type NullKind = "null" | "loose" | "strict-null" | "strict-undefined";

/** One alternative's null test: the value it tests and how ({@link NullKind}), or null. */
function nullTestOf(part: string): { name: string; kind: NullKind } | null {
  const strict = /^(.+?)\s*===\s*(null|undefined)$/.exec(part);
  const reversed = /^(null|undefined)\s*===\s*(.+)$/.exec(part);
  const [name, literal] = strict ? [strict[1], strict[2]] : reversed ? [reversed[2], reversed[1]] : [undefined, undefined];
  if (name !== undefined) return { name, kind: literal === "null" ? "strict-null" : "strict-undefined" };
  const loose = /^(.+?)\s*==\s*(null|undefined)$/.exec(part) ?? /^(?:null|undefined)\s*==\s*(.+)$/.exec(part);
  if (loose) return { name: loose[1] as string, kind: "loose" };
  const exact = /^(.+?)(?:\s+is|\s*==)\s*(?:None|nil)$/.exec(part) ?? /^(.+?)\s+is\s+null$/.exec(part) ?? /^(.+)\.nil\?$/.exec(part) ?? /^is_null\((.+)\)$/.exec(part);
  return exact ? { name: exact[1] as string, kind: "null" } : null;
}

/**
 * The value a guard refuses when it is absent and which absent values it
 * refuses ({@link NullKind}), or null when it tests something else: a
 * null-refusing throw helper's argument (`ArgumentNullException.ThrowIfNull(x)`,
 * `Objects.requireNonNull(x)`, Guava `checkNotNull`, webmozart
 * `Assert::notNull`), or a condition that only asks whether one value is
 * null (`x == null`, `x === null || x === undefined`, `x is None`, `x.nil?`).
 * A falsy test (`!x`, `not x`) is none: it refuses "" and 0 as well. Casts
 * on the value are left out (`(T)x` -> `x`).
 */
function nullTestedName(guard: GuardFact): { name: string; kind: NullKind } | null {
  const value = (text: string): string | null => {
    const bare = text.replace(/\s/g, "").replace(/^\((?:[\w.<>?]+)\)/, "");
    return /^\$?[A-Za-z_][\w.$]*$/.test(bare) ? bare : null;
  };
  const condition = guard.condition.replace(/\s+/g, " ").trim();
  if (NULL_HELPER.test(actionCallee(guard.action))) {
    const name = value(condition);
    return name === null ? null : { name, kind: "null" };
  }
  const tests = condition.split(/\s*\|\|\s*|\s+or\s+/).map(nullTestOf);
  const names = new Set(tests.map((test) => (test === null ? null : value(test.name))));
  const [name] = names;
  if (names.size !== 1 || name === null || name === undefined) return null;
  const kinds = new Set(tests.map((test) => test?.kind));
  if (kinds.size === 1) return { name, kind: tests[0]?.kind as NullKind };
  // `x === null || x === undefined` takes what `x == null` does.
  return kinds.size === 2 && kinds.has("strict-null") && kinds.has("strict-undefined") ? { name, kind: "loose" } : null;
}

/** True when two null tests refuse the same absent values: the same kind, or a loose `==` against a null-only test (a C# or Java `x == null` is exact). */
function isSameNullRefusal(was: { name: string; kind: NullKind } | null, now: { name: string; kind: NullKind } | null): boolean {
  if (was === null || now === null || was.name !== now.name) return false;
  if (was.kind === now.kind) return true;
  const kinds = new Set([was.kind, now.kind]);
  return kinds.has("loose") && kinds.has("null");
}

/** The callee an action calls, without arguments (`Objects.requireNonNull(x, "m")` -> `Objects.requireNonNull`); `new E(…)` gives "". */
function actionCallee(action: string): string {
  if (action.startsWith("new ")) return "";
  return /^[\w$.:\\]+/.exec(action)?.[0] ?? "";
}

function isEquivalentGuard(was: GuardFact, now: GuardFact): boolean {
  if (isWeakerExit(was.action, now.action)) return false;
  if (was.action === now.action || was.condition === now.condition) return true;
  // The refusal of one absent value is that refusal whatever error it raises (`?? throw new NullReferenceException` -> `ThrowIfNull`).
  if (isSameNullRefusal(nullTestedName(was), nullTestedName(now))) return true;
  const shared = was.names.filter((name) => now.names.includes(name));
  return shared.length > 0 && isSameExitClass(was.action, now.action);
}

/**
 * The partners (indexes into `candidates`) of a guard that refuses any of
 * several absent values at once (`if (entry == null || stream == null)
 * throw new IllegalStateException(…)`, `if a is None or b is None: raise
 * ValueError`) when the function now refuses each of them apart, in its
 * own body: a null-refusing throw helper per value
 * (`ArchiveException.requireNonNull(entry, …)`, `Objects.requireNonNull`,
 * `ArgumentNullException.ThrowIfNull`) or a null test of one value that
 * throws. The refusal of an absent value is that refusal whatever error it
 * raises ({@link isEquivalentGuard}). Returns the partners found and the
 * alternatives whose value nothing refuses any more (`stream == null` when
 * only `requireNonNull(entry)` is left): those are dropped from the guard.
 * Null when the guard tests anything but absent values.
 */
function splitNullPartners(guard: GuardFact, candidates: readonly ReachedGuard[]): { partners: number[]; unrefused: string[] } | null {
  const parts = guard.condition
    .replace(/\s+/g, " ")
    .trim()
    .split(/\s*\|\|\s*|\s+or\s+/);
  if (parts.length < 2) return null;
  const refused = parts.map(nullRefusalOf);
  if (refused.some((part) => part === null || !/^\$?[A-Za-z_][\w.$]*$/.test(part.name))) return null;
  const partners: number[] = [];
  const unrefused: string[] = [];
  (refused as { name: string; kind: NullKind }[]).forEach((wanted, position) => {
    const at = candidates.findIndex(
      (candidate, index) => candidate.isDirect && !partners.includes(index) && !isNeverFiring(candidate.guard) && isSameNullRefusal(wanted, nullTestedName(candidate.guard)),
    );
    if (at === -1) unrefused.push(parts[position] as string);
    else partners.push(at);
  });
  return { partners, unrefused };
}

/** The null test one alternative of a condition makes ({@link nullTestOf}), its value's whitespace dropped as nullTestedName compares it; null for any other alternative. */
function nullRefusalOf(alternative: string): { name: string; kind: NullKind } | null {
  const test = nullTestOf(alternative.replace(/\s+/g, " ").trim());
  return test === null ? null : { name: test.name.replace(/\s/g, ""), kind: test.kind };
}

/** Last segment of a function's name path (`Cart.add` -> "add"). */
const shortName = (name: string): string => name.slice(name.lastIndexOf(".") + 1);

/** Functions of the changed files by short name, per `allAfter` array (built once per comparison, not once per guarded function). */
const shortNameIndexes = new WeakMap<readonly CodeSide[], Map<string, { fn: FunctionFact; file: CodeSide }[]>>();

function functionsByShortName(allAfter: readonly CodeSide[]): Map<string, { fn: FunctionFact; file: CodeSide }[]> {
  let index = shortNameIndexes.get(allAfter);
  if (index === undefined) {
    index = new Map();
    for (const file of allAfter) {
      for (const fn of file.code.functions ?? []) {
        const key = shortName(fn.name);
        const list = index.get(key);
        if (list) list.push({ fn, file });
        else index.set(key, [{ fn, file }]);
      }
    }
    shortNameIndexes.set(allAfter, index);
  }
  return index;
}

/**
 * The guards the function `name` reaches after the change: its own, those of
 * the functions it calls transitively (by short name, across all changed
 * files and their unchanged neighbours), and whether it calls an outside
 * helper that validates. A call `name` makes inside a handler of its own
 * that neither rethrows nor returns the error is not followed.
 */
function reachableGuards(name: string, sideFile: CodeSide, allAfter: readonly CodeSide[]): { guards: ReachedGuard[]; validatorCalls: Set<string> } {
  const byShortName = functionsByShortName(allAfter);
  const start = (sideFile.code.functions ?? []).find((fn) => fn.name === name);
  const guards: ReachedGuard[] = [];
  const validatorCalls = new Set<string>();
  const seen = new Set<string>();
  const queue: { fn: FunctionFact; file: CodeSide }[] = start ? [{ fn: start, file: sideFile }] : [];
  for (let next = 0; next < queue.length; next++) {
    const { fn, file } = queue[next] as { fn: FunctionFact; file: CodeSide };
    const key = `${file.path}\u0000${fn.name}`;
    if (seen.has(key) || seen.size > 200) continue;
    seen.add(key);
    const isDirect = seen.size === 1;
    for (const guard of file.code.guards ?? []) {
      if (guard.function === fn.name || guard.function.startsWith(`${fn.name}.`)) guards.push({ guard, isDirect });
    }
    // A call the function itself wraps in a handler that does not rethrow cannot refuse for it: what it throws is caught.
    const handled = new Set(
      isDirect
        ? (file.code.catches ?? []).filter((site) => site.function === fn.name && site.behaviour !== "rethrows" && site.behaviour !== "returns_error").flatMap((site) => site.guardedCalls ?? [])
        : [],
    );
    // A throw helper read as a guard of its own (`Objects.requireNonNull(config)`) is no opaque validator: its guard says what it checks.
    const guardHelpers = new Set(isDirect ? guards.map((reached) => actionCallee(reached.guard.action).replace(/^.*[.:\\]/, "")).filter((name) => name !== "") : []);
    for (const call of fn.calls) {
      if (handled.has(call)) continue;
      const targets = byShortName.get(call);
      if (targets) queue.push(...targets);
      else if (isDirect && VALIDATING_NAME.test(call) && !guardHelpers.has(call)) validatorCalls.add(call);
    }
  }
  return { guards, validatorCalls };
}

/** A guard the function reaches after the change; `isDirect` when it sits in the function itself, not in a helper it calls. */
interface ReachedGuard {
  guard: GuardFact;
  isDirect: boolean;
}

/**
 * Does `now` still do the job of the removed `was`? In the function itself:
 * the same action, the same condition, or a condition on shared names that
 * throws the same error class. In a helper (whose parameters have their own
 * names): the same action or error class, or shared names.
 */
function isKeptBy(was: GuardFact, now: ReachedGuard): boolean {
  if (now.guard.fallthrough) return isSameThrow(was.action, now.guard.action) || isRewordedThrow(was.action, now.guard.action);
  // A throw of collected messages keeps only the guards whose messages its function still holds.
  if (now.guard.collected !== undefined) return isCollectedBy(was, now.guard);
  if (isEquivalentGuard(was, now.guard)) return true;
  if (now.isDirect) return false;
  if (isWeakerExit(was.action, now.guard.action)) return false;
  return isSameExitClass(was.action, now.guard.action) || was.names.some((name) => now.guard.names.includes(name));
}

/** True when a guard's action refuses, by its message, only runtimes older than the project's stated minimum (runtime-requirements.ts). */
export function isUnsupportedRuntimeRefusal(action: string, stated: ReadonlyMap<Runtime, StatedSupport> | undefined): boolean {
  if (!stated || stated.size === 0) return false;
  const requirement = runtimeRequirementOf(messageOf(action).join(" "));
  return requirement !== null && isMetBySupport(requirement, stated);
}

/**
 * The text of the string literals of an action, interpolations left out
 * (`new Error(\`Cannot encode ${tag}\`)` -> ["Cannot encode "]): what its
 * message says whatever the values put in it are called.
 */
function messageOf(action: string): string[] {
  const parts: string[] = [];
  for (const match of action.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)) {
    const text = (match[1] ?? match[2] ?? match[3] ?? "").replace(/[$#]?\{[^}]*\}|\$[A-Za-z_]\w*/g, "\uFFFC");
    if (text.replace(/\uFFFC/g, "").trim() !== "") parts.push(text);
  }
  return parts;
}

/**
 * True when two actions raise the same error: the same text, or the same
 * error class with the same message literals (`new Error(\`Cannot encode
 * ${tag}\`)` and `new Error(\`Cannot encode ${type}\`)`). What a
 * fall-through exit must share with a removed guard to keep it
 * ({@link GuardFact.fallthrough}): the class alone says too little there.
 */
function isSameThrow(was: string, now: string): boolean {
  if (was === now) return true;
  const message = messageOf(was);
  return message.length > 0 && actionClass(was) === actionClass(now) && message.join("\u0001") === messageOf(now).join("\u0001");
}

/**
 * True when `now` raises the error `was` raised with its message reworded:
 * the same error class, and a message of at least three words of which
 * `now`'s says three quarters (`Expected to get array argument, but got …`
 * as `Expected to get collection argument, but got …`, the accepted type
 * widened with the helper that now fails). A fall-through exit so spelled
 * keeps the guard ({@link isKeptBy}); one of another message
 * (`throw new Error("unreachable")`) says nothing of it.
 */
function isRewordedThrow(was: string, now: string): boolean {
  return actionClass(was) === actionClass(now) && isRewordedMessage(messageOf(was).join(" "), messageOf(now).join(" "));
}

/** True when the text `now` says three quarters of the words of the message `was`, which has three or more: `was` reworded. */
export function isRewordedMessage(was: string, now: string): boolean {
  const words = wordsOf(was);
  if (words.length < 3) return false;
  const present = new Set(wordsOf(now));
  return words.filter((word) => present.has(word)).length * 4 >= words.length * 3;
}

/**
 * A guard as its source reads: a call that checks its argument
 * (`assert(x)`, `invariant(x)`, `ArgumentNullException.ThrowIfNull(x)`,
 * `assert!(x)`) as that call; a thrown or returned error with its
 * language's keyword (`throw` in JS/TS, Java, C#, PHP; `raise` in Python and
 * Ruby; `return` in Go and Rust), which the fact leaves out.
 */
export function guardSource(path: string, guard: Pick<GuardFact, "condition" | "action">): string {
  const condition = displayCode(guard.condition);
  const action = displayCode(guard.action);
  // A bare capitalised name in Python and Ruby is the class a raise names (`raise UnknownCodec, "m"`), not a checking call.
  const isRaisedClass = /^[A-Z]\w*(Error|Exception)$/.test(action) || (/\.(py|pyi|rb)$/.test(path) && /^(?:[A-Z]\w*(?:::|\.))*[A-Z]\w*$/.test(action));
  if (/^[\w$.:]+!?$/.test(action) && !isRaisedClass) return `${action}(${condition})`;
  if (/^(throw|raise|return|panic)\b/.test(action)) return `if (${condition}) ${action}`;
  const keyword = /\.(py|pyi|rb)$/.test(path) ? "raise" : /\.(go|rs)$/.test(path) ? "return" : "throw";
  return `if (${condition}) ${keyword} ${action}`;
}

/** Words of a text that carry its meaning (three letters or more), lowercased. */
const wordsOf = (text: string): string[] => (text.toLowerCase().match(/[a-z][a-z0-9_]{2,}/g) ?? []).filter((word) => word !== "\ufffc");

/**
 * True when `now` throws collected messages ({@link GuardFact.collected})
 * of the same error class as `was`, and one string literal of its function
 * still says what `was` said: at least three words of its message, and
 * three quarters of them (`Flag keys may not contain '-': ${…}` as a table
 * entry's `Flag keys may not contain '-'. Invalid flags: ${…}`).
 */
function isCollectedBy(was: GuardFact, now: GuardFact): boolean {
  if (now.collected === undefined || !isSameExitClass(was.action, now.action)) return false;
  const words = wordsOf(messageOf(was.action).join(" "));
  if (words.length < 3) return false;
  return now.collected.some((literal) => {
    const present = new Set(wordsOf(literal));
    return words.filter((word) => present.has(word)).length * 4 >= words.length * 3;
  });
}

/** Key of a guard for multiset comparisons across sides: the same check in the same function. */
const guardKey = (guard: GuardFact): string => `${guard.function}\u0000${guard.condition}\u0000${guard.action}`;

/**
 * Guards that are new in the change, over all changed product files: where
 * a guard that left one function may have gone (a sibling method that the
 * callers now use, another module).
 */
function newGuards(files: readonly { before: CodeFacts | null; after: CodeFacts | null }[]): GuardFact[] {
  const beforeAll = files.flatMap((file) => file.before?.guards ?? []);
  // A fall-through exit keeps a guard only where the function reaches it (isKeptBy), not from anywhere in the change.
  const afterAll = files.flatMap((file) => file.after?.guards ?? []).filter((guard) => !isNeverFiring(guard) && !guard.fallthrough);
  return multisetMinus(afterAll, beforeAll, guardKey);
}

/**
 * The top-level `||` alternatives of a normalised condition (`a<0||b>1` ->
 * ["a<0", "b>1"]), and those of the word operator `or` of Python, Ruby and
 * PHP (`a<0 or b>1`, `f(x)or g`; not a method `x.or(y)`, `$x->or()`); parenthesised
 * ones stay whole.
 */
function alternativesOf(condition: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < condition.length; i++) {
    const char = condition[i] as string;
    if (quote !== null) {
      if (char === "\\") i++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'" || char === "`") {
      quote = char;
    } else if (char === "(" || char === "[" || char === "{") {
      depth++;
    } else if (char === ")" || char === "]" || char === "}") {
      depth--;
    } else if (depth === 0 && char === "|" && condition[i + 1] === "|") {
      parts.push(condition.slice(start, i));
      start = i + 2;
      i++;
    } else if (depth === 0 && char === "o" && condition[i + 1] === "r" && i > 0 && !/[\w$.:>]/.test(condition[i - 1] as string) && !/[\w$]/.test(condition[i + 2] ?? "")) {
      parts.push(condition.slice(start, i).trim());
      start = i + 2;
      i++;
    }
  }
  parts.push(condition.slice(start).trim());
  return parts;
}

/**
 * Alternatives of a guard's condition that its rewritten version no longer
 * checks, when the rewrite only dropped some (`p<0||p>100` -> `p<0`); empty
 * when the condition was rewritten in any other way.
 */
function droppedAlternatives(before: string, after: string): string[] {
  const was = alternativesOf(before);
  const now = alternativesOf(after);
  if (was.length < 2 || now.length >= was.length || !now.every((part) => was.includes(part))) return [];
  return was.filter((part) => !now.includes(part));
}

/** Guards whose condition is what must hold, the guard firing when it is false: `assert(c)`, `invariant(c, m)`, Rust's `assert!(c, m)`, Guava's `checkArgument(c, m)`. */
const HOLDING_ACTIONS = /^(?:assert|invariant|assert\.ok|console\.assert|(?:\w+::)?(?:assert|ensure|debug_assert)!|(?:Preconditions\.)?check(?:Argument|State))$/;

/** The first top-level comma-separated part of a text (`i<10,"far"` -> `i<10`): a Rust checking macro's condition, its message left out. */
function firstArgument(text: string): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote !== null) {
      if (char === "\\") i++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if ("([{".includes(char)) depth++;
    else if (")]}".includes(char)) depth--;
    else if (depth === 0 && char === ",") return text.slice(0, i);
  }
  return text;
}

/**
 * The `||` alternatives of the condition on which a guard fires, each as
 * written: an `if`'s condition as is; a holding check's ({@link
 * HOLDING_ACTIONS}) as `!(c)`, one alternative (Rust's macro token tree
 * `(c,"m")` read as `c`).
 */
function firingAlternatives(guard: GuardFact): string[] {
  if (!HOLDING_ACTIONS.test(guard.action)) return alternativesOf(guard.condition);
  const holding = guard.action.endsWith("!") ? firstArgument(unwrapParentheses(guard.condition)) : guard.condition;
  return [`!(${holding})`];
}

/** What a comparison with a number fires on: the values of `subject` below or above `limit` (`inclusive`: the limit too). */
interface Bound {
  subject: string;
  side: "below" | "above";
  limit: number;
  inclusive: boolean;
}

const FLIPPED: Readonly<Record<string, string>> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=" };
const NEGATED: Readonly<Record<string, string>> = { "<": ">=", "<=": ">", ">": "<=", ">=": "<" };

/**
 * A condition text as a {@link Bound}: `x<0`, `0>x`, `!(x>=0)`, `not x >= 0`
 * -> x below 0, exclusive; integer limits are made inclusive (`x<0` -> x
 * below -1 inclusive) so `x<1` and `x<=0` are one bound. Null for anything
 * but one comparison of a value with a number literal.
 */
function boundOf(condition: string): Bound | null {
  let text = unwrapParentheses(condition);
  let negated = false;
  for (;;) {
    const bang = /^!\s*(\([\s\S]*\))$/.exec(text);
    const not = /^not\s+([\s\S]+)$/.exec(text);
    const inner = bang && unwrapParentheses(bang[1] as string) !== (bang[1] as string) ? (bang[1] as string) : not ? (not[1] as string) : null;
    if (inner === null) break;
    text = unwrapParentheses(inner);
    negated = !negated;
  }
  text = text.replace(/\s+/g, "");
  const number = "(-?\\d+(?:\\.\\d+)?)";
  const subject = "([^<>=!&|,?:]+)";
  const forward = new RegExp(`^${subject}(<=|>=|<|>)${number}$`).exec(text);
  const backward = new RegExp(`^${number}(<=|>=|<|>)${subject}$`).exec(text);
  if (!forward && !backward) return null;
  const name = (forward ? forward[1] : backward?.[3]) as string;
  let operator = (forward ? forward[2] : FLIPPED[backward?.[2] as string]) as string;
  const literal = (forward ? forward[3] : backward?.[1]) as string;
  if (negated) operator = NEGATED[operator] as string;
  let limit = Number(literal);
  let inclusive = operator.endsWith("=");
  const side = operator.startsWith("<") ? "below" : "above";
  if (!inclusive && Number.isInteger(limit) && !literal.includes(".")) {
    limit += side === "below" ? -1 : 1;
    inclusive = true;
  }
  return { subject: name, side, limit, inclusive };
}

/** True when `now` fires on fewer values than `was`, both bounds of one value on one side (`x<0` -> `x<-1`, `x>100` -> `x>1000`, `x<=0` -> `x<0`). */
function isNarrowerBound(was: Bound, now: Bound): boolean {
  if (was.subject !== now.subject || was.side !== now.side) return false;
  const further = was.side === "below" ? now.limit < was.limit : now.limit > was.limit;
  return further || (now.limit === was.limit && was.inclusive && !now.inclusive);
}

/**
 * Alternatives of a guard's firing condition ({@link firingAlternatives})
 * whose bound the rewrite moved so that it fires on fewer values, as pairs
 * of before and after text (`qty<0` -> `qty<-1`, `assert!(i<10)` ->
 * `assert!(i<11)`); the rest of the condition left as it was. Empty for any
 * other rewrite, and for a bound widened or a comparison turned around.
 */
function narrowedBounds(was: GuardFact, now: GuardFact): { before: string; after: string }[] {
  const before = firingAlternatives(was);
  const after = firingAlternatives(now);
  if (before.length !== after.length) return [];
  const changedBefore = before.filter((part) => !after.includes(part));
  const changedAfter = after.filter((part) => !before.includes(part));
  const narrowed: { before: string; after: string }[] = [];
  for (const part of changedBefore) {
    const wasBound = boundOf(part);
    const index = wasBound ? changedAfter.findIndex((candidate) => boundOf(candidate)?.subject === wasBound.subject && boundOf(candidate)?.side === wasBound.side) : -1;
    if (!wasBound || index === -1) continue;
    const [partner] = changedAfter.splice(index, 1) as [string];
    if (isNarrowerBound(wasBound, boundOf(partner) as Bound)) narrowed.push({ before: part, after: partner });
  }
  return narrowed;
}

/** True when `now` fires on every value `was` fires on, both bounds on one side (the subject aside): `bytes>512` covers `size>512` and `size>1024`. */
function coversBound(was: Bound, now: Bound | null): boolean {
  if (now === null || was.side !== now.side) return false;
  const beyond = was.side === "below" ? now.limit > was.limit : now.limit < was.limit;
  return beyond || (now.limit === was.limit && (now.inclusive || !was.inclusive));
}

/**
 * True when an alternative of `guard`'s condition that its partner no
 * longer checks is refused by another guard of the function itself: one
 * throwing the same error class whose firing alternatives include it (`if
 * a < 0 or a > 9: raise ValueError("bad")` split into `if a < 0: raise
 * ValueError("negative")` and `if a > 9: raise ValueError("too big")`), or,
 * for a null test, a refusal of the same absent value whatever it raises.
 */
function isRefusedApart(alternative: string, guard: GuardFact, partner: ReachedGuard, candidates: readonly ReachedGuard[]): boolean {
  const nullTest = nullRefusalOf(alternative);
  return candidates.some(
    (candidate) =>
      candidate !== partner &&
      candidate.isDirect &&
      !candidate.guard.fallthrough &&
      !isNeverFiring(candidate.guard) &&
      ((isSameExitClass(guard.action, candidate.guard.action) && firingAlternatives(candidate.guard).includes(alternative)) ||
        (nullTest !== null && isSameNullRefusal(nullTest, nullTestedName(candidate.guard)))),
  );
}

/**
 * True when an alternative of `guard`'s condition that the function no
 * longer checks moved into a function it calls in the change: a guard
 * reached there (not in the function itself) throws what `guard` threw,
 * the same error class and message ({@link isSameThrow}), on a firing
 * alternative that is the same text or a bound refusing at least the values
 * the alternative refused ({@link coversBound}; the callee's own parameter
 * name in place of the caller's: `if (bytes > 512) throw new
 * RangeError("Wrong token size")` in the `fillPool(size)` that `token`
 * calls takes over its `size > 512`). A callee bound that lets more
 * through, or another message, takes nothing over.
 */
function isDelegatedAlternative(alternative: string, guard: GuardFact, candidates: readonly ReachedGuard[]): boolean {
  const bound = boundOf(alternative);
  return candidates.some(
    (candidate) =>
      !candidate.isDirect &&
      !candidate.guard.fallthrough &&
      isSameThrow(guard.action, candidate.guard.action) &&
      firingAlternatives(candidate.guard).some((part) => part === alternative || (bound !== null && coversBound(bound, boundOf(part)))),
  );
}

/**
 * True when a bound the change narrowed (`capacity<=0` -> `capacity<0`) is
 * a contract the change states: a test it adds calls the guarded function
 * (its short name among the test's checkNames, a constructor's its class's:
 * `new IntArrayList(0)` for `IntArrayList.IntArrayList`, `new List(0)` for
 * `List.constructor`) and feeds it a literal the old
 * bound refused and the new one admits (`0`). The newly allowed value is
 * then tested as working, not let through unseen; a bound moved with the
 * tests untouched, or a new test of other values, states nothing.
 */
function isTestedAdmission(part: { before: string; after: string }, fn: string, addedTests: readonly TestCase[]): boolean {
  const was = boundOf(part.before);
  const now = boundOf(part.after);
  if (was === null || now === null || fn === "") return false;
  const parts = fn.split(".");
  const name = parts[parts.length - 1] as string;
  // A constructor is called by its class's name (`new List(0)`, `Pool(0)`).
  const called = CONSTRUCTOR_NAMES.has(name) && parts.length > 1 ? (parts[parts.length - 2] as string) : name;
  return addedTests.some(
    (test) =>
      (test.checkNames ?? []).some((names) => names.includes(called)) && [...(test.literals ?? []), ...(test.inputLiterals ?? [])].some((literal) => isAdmittedValue(Number(literal), was, now)),
  );
}

/** The names languages give a class's constructor (JS/TS, Python, Ruby, PHP): called through the class's name. */
const CONSTRUCTOR_NAMES: ReadonlySet<string> = new Set(["constructor", "__init__", "__new__", "initialize", "__construct"]);

/**
 * The short names of the functions of the changed files after the change
 * that reach `fn` (it, and those calling it, transitively, by short name):
 * the calls through which a test exercises its code.
 */
function callersOf(fn: string, allAfter: readonly CodeSide[]): Set<string> {
  const reaching = new Set([shortName(fn)]);
  const functions = allAfter.flatMap((file) => file.code.functions ?? []);
  for (let grew = true; grew && reaching.size < 200;) {
    grew = false;
    for (const candidate of functions) {
      const name = shortName(candidate.name);
      if (!reaching.has(name) && candidate.calls.some((call) => reaching.has(call))) {
        reaching.add(name);
        grew = true;
      }
    }
  }
  return reaching;
}

/**
 * True when a test of the change after it (`throwChecks`: the `throws`
 * checks of its test files) still expects a value the dropped alternative
 * refused to fail: a non-negated `throws` whose subject calls `fn` or a
 * function reaching it ({@link callersOf}) with a number the alternative's
 * bound fires on (`throws(() => token(1025))` for fillPool's `bytes > 512`,
 * the limit left to the platform call that fails on it). What the test
 * runs shows the value still refused; with no such check (the test of
 * it removed, or only values the kept alternatives refuse) the
 * alternative is lost.
 */
function isStillRefusedInTests(alternative: string, fn: string, allAfter: readonly CodeSide[], throwChecks: readonly Check[]): boolean {
  const bound = boundOf(alternative);
  if (bound === null || fn === "" || throwChecks.length === 0) return false;
  const reaching = callersOf(fn, allAfter);
  return throwChecks.some((check) => {
    const calls = [...check.subject.matchAll(/([A-Za-z_$][\w$]*)\s*\(([^()]*)\)/g)];
    return calls.some((call) => {
      if (!reaching.has(call[1] as string)) return false;
      return [...(call[2] as string).matchAll(/(?<![\w$.])-?\d+(?:\.\d+)?(?![\w$])/g)].some((number) => {
        const value = Number(number[0]);
        return bound.side === "below" ? value < bound.limit || (bound.inclusive && value === bound.limit) : value > bound.limit || (bound.inclusive && value === bound.limit);
      });
    });
  });
}

/** The `throws` checks (not negated) of every test of the change's test files after it: what the tests still expect to fail. */
function throwChecksAfter(input: RuleInput): Check[] {
  return input.pairs.flatMap((pair) => {
    const facts = usable(pair.after);
    if (!facts?.isTestFile) return [];
    return facts.tests.flatMap((test) => checkedTest(pair.path, test, facts).checks.filter((check) => check.relation === "throws" && !check.isNegated));
  });
}

/** True when the number `value` is one `was` fires on and `now` does not (both bounds of one subject on one side). */
function isAdmittedValue(value: number, was: Bound, now: Bound): boolean {
  if (!Number.isFinite(value)) return false;
  const fires = (bound: Bound): boolean =>
    bound.side === "below" ? value < bound.limit || (bound.inclusive && value === bound.limit) : value > bound.limit || (bound.inclusive && value === bound.limit);
  return fires(was) && !fires(now);
}

function boundNarrowedFinding(path: string, fn: string, was: GuardFact, now: GuardFact, narrowed: { before: string; after: string }[]): Finding {
  return report(
    validationRule,
    "guardBoundNarrowed",
    {
      guard: guardSource(path, was),
      where: fn === "" ? "module code" : `${fn}()`,
      path,
      changes: narrowed.map((part) => `\`${part.before}\` became \`${part.after}\``).join(", "),
    },
    {
      file: path,
      line: now.line,
      before_file: path,
      before_line: was.line,
      evidence: { rule: "guard_narrowed", function: fn, condition_before: was.condition, condition_after: now.condition, narrowed },
    },
  );
}

function narrowedFinding(path: string, fn: string, was: GuardFact, now: GuardFact, dropped: string[]): Finding {
  return report(
    validationRule,
    "guardNarrowed",
    { condition: was.condition, action: was.action, where: fn === "" ? "module code" : `${fn}()`, path, dropped: dropped.map((part) => `\`${part}\``).join(" or ") },
    {
      file: path,
      line: now.line,
      before_file: path,
      before_line: was.line,
      evidence: { rule: "guard_narrowed", function: fn, condition_before: was.condition, condition_after: now.condition, dropped },
    },
  );
}

/**
 * True when `guard` was one of several identical copies (same condition,
 * same error exit) in its function and a copy is still there: branches that
 * repeated one check were merged (`b'a'..=b'f' => { if count > 15 { return
 * Err(..) } … }` and the same for `b'A'..=b'F'` becoming one arm), and the one
 * check that is left runs on every path the copies did.
 */
function isMergedCopy(guard: GuardFact, reached: readonly ReachedGuard[]): boolean {
  return reached.some((candidate) => candidate.isDirect && candidate.guard.condition === guard.condition && candidate.guard.action === guard.action && !isNeverFiring(candidate.guard));
}

/**
 * True when `guard` was merged into a disjunction that another guard of
 * the function kept: a direct guard with the same exit class whose
 * alternatives include each of `guard`'s (`if (p.length() < 3) throw E; if
 * (c != '$') throw E;` -> `if (p.length() < 3 || c != '$') throw E;`:
 * commons-codec 67914a64). The first guard pairs with the merged one by its
 * own alternative; this one still fires on every value it did.
 */
function isMergedAlternative(guard: GuardFact, reached: readonly ReachedGuard[]): boolean {
  const own = flatAlternatives(guard.condition);
  return reached.some((candidate) => {
    if (!candidate.isDirect || isNeverFiring(candidate.guard) || !isSameExitClass(guard.action, candidate.guard.action)) return false;
    const merged = new Set(flatAlternatives(candidate.guard.condition));
    return merged.size > own.length && own.every((part) => merged.has(part));
  });
}

/** The `||` alternatives of a condition, those of a parenthesised alternative read as its own (`a||(b||c)` -> a, b, c). */
function flatAlternatives(condition: string): string[] {
  return alternativesOf(condition).flatMap((part) => {
    const inner = withoutParentheses(part);
    return inner !== part.trim() && alternativesOf(inner).length > 1 ? flatAlternatives(inner) : [inner];
  });
}

/** A condition's text without the parentheses around the whole of it, however many pairs (`((a&&b))` -> `a&&b`). */
function withoutParentheses(condition: string): string {
  let text = condition.trim();
  for (let inner = unwrapParentheses(text); inner !== text; inner = unwrapParentheses(text)) text = inner;
  return text;
}

/**
 * Short names of functions (Go: FunctionFact.returnsError) whose results
 * included an `error` before the change and do not after it, and of those
 * that return one after it, over `files`: an `if err != nil` on what the
 * former returned can no longer fire.
 */
function errorResultsOf(files: readonly { before: CodeFacts | null; after: CodeFacts | null }[]): LostErrors {
  const returnedBefore = new Set<string>();
  const returnsAfter = new Map<string, boolean>();
  for (const file of files) {
    for (const fn of file.before?.functions ?? []) if (fn.returnsError) returnedBefore.add(shortName(fn.name));
    for (const fn of file.after?.functions ?? []) if (fn.returnsError !== undefined) returnsAfter.set(shortName(fn.name), (returnsAfter.get(shortName(fn.name)) ?? false) || fn.returnsError);
  }
  return {
    lost: new Set([...returnedBefore].filter((name) => returnsAfter.get(name) === false)),
    stillReturning: new Set([...returnsAfter].filter(([, returns]) => returns).map(([name]) => name)),
  };
}

/**
 * The {@link LostErrors} the calls of function `fn` in a changed file see:
 * in a method of a type (`ipSliceValue.Set`), a name the file defines as a
 * method of that same type (`ipSliceValue.fromString`) is read from that
 * file alone, other names from every changed file (sweep of spf13/pflag
 * 3d32e71abc: `ipSliceValue.fromString` lost its error result while
 * `boolSliceValue.fromString`, in another changed file, kept one). A plain
 * function's calls, which may reach any type's method, see every changed file.
 */
function lostErrorResults(files: readonly { path: string; before: CodeFacts | null; after: CodeFacts | null }[]): (path: string, fn: string) => LostErrors {
  const all = errorResultsOf(files);
  const byType = new Map<string, LostErrors>(); // per file and receiver type, read once
  return (path, fn) => {
    const type = fn.includes(".") ? fn.slice(0, fn.lastIndexOf(".")) : "";
    if (type === "") return all;
    const key = `${path}\u0000${type}`;
    let seen = byType.get(key);
    if (seen === undefined) {
      const own = files.filter((candidate) => candidate.path === path).map((candidate) => ({ before: onlyOf(candidate.before, type), after: onlyOf(candidate.after, type) }));
      const names = new Set(own.flatMap((side) => [...(side.before?.functions ?? []), ...(side.after?.functions ?? [])]).map((candidate) => shortName(candidate.name)));
      const local = errorResultsOf(own);
      // A name the type defines here is read from here; any other from every changed file.
      const pick = (inFile: ReadonlySet<string>, everywhere: ReadonlySet<string>): Set<string> =>
        new Set([...everywhere, ...inFile].filter((name) => (names.has(name) ? inFile.has(name) : everywhere.has(name))));
      seen = names.size === 0 ? all : { lost: pick(local.lost, all.lost), stillReturning: pick(local.stillReturning, all.stillReturning) };
      byType.set(key, seen);
    }
    return seen;
  };
}

/** A file's code facts with only the methods of `type` as its functions (null stays null). */
function onlyOf(code: CodeFacts | null, type: string): CodeFacts | null {
  return code === null ? null : { ...code, functions: (code.functions ?? []).filter((fn) => fn.name.startsWith(`${type}.`)) };
}

/** {@link errorResultsOf}: functions that stopped returning an error, and those of the change that return one after it. */
interface LostErrors {
  lost: ReadonlySet<string>;
  stillReturning: ReadonlySet<string>;
}

/**
 * True when a removed guard was a dead error check: `if err != nil` (Go) in
 * a function that called a function of the change that stopped returning an
 * error ({@link lostErrorResults}), so nothing is left to check (`ip, err :=
 * s.fromString(val)` became `s.fromString(val)` when fromString lost its
 * error result) and that, after the change, calls no function of the change
 * that still returns one. A check of an error that a callee still returns
 * is no dead check.
 */
function isDeadErrorCheck(guard: GuardFact, fnBefore: FunctionFact | undefined, fnAfter: FunctionFact | undefined, lostErrors: LostErrors): boolean {
  if (!fnBefore || !fnAfter || lostErrors.lost.size === 0 || !/^\w+!=nil$/.test(guard.condition.replace(/\s+/g, ""))) return false;
  return fnBefore.calls.some((call) => lostErrors.lost.has(call)) && !fnAfter.calls.some((call) => lostErrors.stillReturning.has(call));
}

/** A top-level `&&` conjunct that tests a value's sign: `v<0`, `0>v`, `v<=-1`, `-1>=v` -> "v"; else null. */
function signCheckedName(conjunct: string): string | null {
  const text = unwrapParentheses(conjunct).replace(/\s+/g, "");
  const match = /^([\w$.]+)(?:<0|<=-1)$/.exec(text) ?? /^(?:0>|-1>=)([\w$.]+)$/.exec(text);
  return match ? (match[1] as string) : null;
}

/**
 * True when a removed guard was a sign check that a stricter parse now
 * makes: every `||` alternative of its condition requires (`&&`) that a
 * value be negative (`i < 0 && !weak`), and the function now binds that
 * value by an unsigned parse whose failure reaches the caller
 * ({@link FunctionFact.unsignedValues}: `i, err := strconv.ParseUint(…)`
 * with `err` kept, `let i: u64 = s.parse()?`). The parse rejects what the
 * guard rejected, with its error on the same way out, and the value can no
 * longer be negative. The sign check removed while the parse stays signed,
 * or with the parse's error dropped (`i, _ :=`), is no such guard.
 */
function isSubsumedSignCheck(guard: GuardFact, fnAfter: FunctionFact | undefined): boolean {
  return alternativesOf(guard.condition).every((alternative) => isSubsumedAlternative(alternative, fnAfter));
}

/** The value an alternative tests for emptiness (`s.is_empty()`, `s.isEmpty()`, `s.length === 0`, `len(s) == 0`, `not s`, `!s`, `s == ""`, `s.empty?`, `empty($s)`), or null. */
function emptinessTestedValue(alternative: string): string | null {
  const text = unwrapParentheses(alternative.replace(/\s+/g, " ").trim());
  const match =
    /^([\w$.]+)\.(?:is_empty|isEmpty|IsEmpty)\(\)$/.exec(text) ??
    /^([\w$.]+)\.empty\?$/.exec(text) ??
    /^([\w$.]+)\.(?:length|Length|size\(\)|len\(\))\s*===?\s*0$/.exec(text) ??
    /^(?:len|strlen|count|empty|string\.IsNullOrEmpty)\((\$?[\w.]+)\)(?:\s*===?\s*0)?$/.exec(text) ??
    /^(?:!|not\s)\s*(\$?[\w.]+)$/.exec(text) ??
    /^(\$?[\w.]+)\s*===?\s*(?:""|'')$/.exec(text);
  return match ? (match[1] as string) : null;
}

/** Calls that ask whether a value holds a part: true of no empty value when the part is not empty. */
const CONTENT_TEST = /^(?:starts_with|startsWith|StartsWith|startswith|start_with\?|ends_with|endsWith|EndsWith|endswith|end_with\?|contains|Contains|includes|include\?)$/;

/**
 * True when an emptiness test (`s.is_empty()`, `len(s) == 0`) dropped from a
 * guard is implied by an alternative the guard kept: a negated test that
 * the same value starts with, ends with or contains a part that is not the
 * empty string (`!s.starts_with(ascii_alpha)`, `not s.startswith("v")`,
 * `!strings.HasPrefix(s, "v")`, `!str_contains($s, "v")`) holds for an
 * empty value, so the guard still refuses it (sweep of servo/rust-url
 * 4b9f1e699f: "starts_with will also fail for empty strings").
 */
function isEmptinessImplied(alternative: string, kept: string): boolean {
  const value = emptinessTestedValue(alternative);
  if (value === null) return false;
  return alternativesOf(kept).some((part) => {
    const text = unwrapParentheses(part.replace(/\s+/g, " ").trim());
    const negated = /^(?:!|not\s)\s*(.+)$/.exec(text)?.[1];
    if (negated === undefined) return false;
    const method = /^([\w$.]+)\.([\w?]+)\((.*)\)$/.exec(negated);
    if (method && method[1] === value && CONTENT_TEST.test(method[2] as string)) return !/^\s*(?:""|'')\s*$/.test(method[3] as string);
    const call = /^(?:strings\.(?:HasPrefix|HasSuffix|Contains)|str_(?:starts_with|ends_with|contains))\((\$?[\w.]+),\s*(.+)\)$/.exec(negated);
    return call !== null && call[1] === value && !/^(?:""|'')$/.test((call[2] as string).trim());
  });
}

/** PHP's `is_*` type tests, as the type each accepts (php.net, "Variable handling Functions"). */
const PHP_TYPE_TESTS: Readonly<Record<string, string>> = {
  is_array: "array",
  is_string: "string",
  is_int: "int",
  is_integer: "int",
  is_long: "int",
  is_float: "float",
  is_double: "float",
  is_bool: "bool",
  is_callable: "callable",
  is_iterable: "iterable",
  is_object: "object",
  is_null: "null",
};

/**
 * The variable a negated type test reads and the type it accepts: PHP
 * `!is_array($v)`, `!\is_string($v)`, `!$v instanceof \X`, `!($v instanceof
 * X)`; Java `!(v instanceof X)`; C# `!(v is X)`, `v is not X`. Null for any
 * other condition.
 */
function negatedTypeTest(conjunct: string): { name: string; type: string } | null {
  const text = unwrapParentheses(conjunct.replace(/\s+/g, " ").trim());
  const call = /^!\s*\\?(is_\w+)\((\$?\w+)\)$/.exec(text);
  if (call) return PHP_TYPE_TESTS[call[1] as string] ? { name: call[2] as string, type: PHP_TYPE_TESTS[call[1] as string] as string } : null;
  const instance = /^!\s*\(?\s*(\$?\w+)\s+(?:instanceof\s*|is\s+)\\?([\w\\.<>]+)\s*\)?$/.exec(text) ?? /^(\$?\w+) is not \\?([\w\\.<>]+)$/.exec(text);
  return instance ? { name: instance[1] as string, type: (instance[2] as string).split(/[\\.]/).pop() as string } : null;
}

/**
 * True when a removed guard refused values of the wrong type and the
 * function now declares a parameter type that refuses them itself: every
 * conjunct of the guard's one alternative is a negated type test of the
 * same parameter (`!\is_array($v) && !$v instanceof \Closure`), and that
 * parameter is declared (FunctionFact.parameterTypes) with types the guard
 * all accepted (`array|\Closure`; not `mixed`, not `array|string` against
 * `is_array` alone, not `?array` where null was refused). PHP raises a
 * TypeError on a call with another type (php.net, "Type declarations");
 * Java and C# refuse it at compile time (symfony/console 28424b5ff9).
 */
function isTypeDeclared(guard: GuardFact, fnAfter: FunctionFact | undefined): boolean {
  const declared = fnAfter?.parameterTypes;
  if (!declared) return false;
  const alternatives = alternativesOf(guard.condition);
  if (alternatives.length !== 1) return false;
  const tests = splitTopLevel(unwrapParentheses(alternatives[0] as string), "&&").map(negatedTypeTest);
  if (tests.length === 0 || tests.some((test) => test === null)) return false;
  const name = (tests[0] as { name: string }).name;
  if (tests.some((test) => test?.name !== name)) return false;
  const accepted = new Set(tests.map((test) => (test as { type: string }).type.toLowerCase()));
  const types = declared[name];
  return types !== undefined && types.length > 0 && types.every((type) => accepted.has(type.toLowerCase()));
}

/** One `||` alternative of {@link isSubsumedSignCheck}: it requires a value of `unsignedValues` to be negative. */
function isSubsumedAlternative(alternative: string, fnAfter: FunctionFact | undefined): boolean {
  const unsigned = fnAfter?.unsignedValues;
  if (!unsigned || unsigned.length === 0) return false;
  return splitTopLevel(unwrapParentheses(alternative), "&&").some((conjunct) => {
    const name = signCheckedName(conjunct);
    return name !== null && unsigned.includes(name);
  });
}

/** {@link variantConstants}: each boolean constant's values over the changed files, per side (one entry per definition). */
interface VariantConstants {
  before: ReadonlyMap<string, readonly ConstantFact["value"][]>;
  after: ReadonlyMap<string, readonly ConstantFact["value"][]>;
}

/** The boolean constants the changed files define, per side and name (ConstantFact). */
function variantConstants(files: readonly { before: CodeFacts | null; after: CodeFacts | null }[]): VariantConstants {
  const collect = (side: "before" | "after"): Map<string, ConstantFact["value"][]> => {
    const byName = new Map<string, ConstantFact["value"][]>();
    for (const file of files) for (const fact of file[side]?.constants ?? []) (byName.get(fact.name) ?? byName.set(fact.name, []).get(fact.name))?.push(fact.value);
    return byName;
  };
  return { before: collect("before"), after: collect("after") };
}

/** A conjunct that reads one constant, as the name and the value that makes it true: `!supportX` -> ["supportX", "false"], `cfg.X == true` -> ["X", "true"]. */
function constantTest(conjunct: string): { name: string; firesOn: ConstantFact["value"] } | null {
  let text = unwrapParentheses(conjunct).replace(/\s+/g, " ").trim();
  let firesOn: ConstantFact["value"] = "true";
  for (;;) {
    const negation = /^(?:!|not )\s*([\s\S]+)$/.exec(text);
    const compared = /^([\w$.:]+) ?(==|!=|===|!==) ?(true|false|True|False)$/.exec(text);
    if (negation) {
      text = unwrapParentheses(negation[1] as string);
      firesOn = firesOn === "true" ? "false" : "true";
    } else if (compared) {
      const isTrue = (compared[3] as string).toLowerCase() === "true";
      const isEqual = (compared[2] as string).startsWith("=");
      text = compared[1] as string;
      if (isTrue !== isEqual) firesOn = firesOn === "true" ? "false" : "true";
    } else {
      break;
    }
  }
  const match = /^(?:[\w$]+(?:\.|::))*([\w$]+)$/.exec(text);
  return match ? { name: match[1] as string, firesOn } : null;
}

/**
 * True when a removed guard was dead with a build variant dropped: a
 * conjunct of its condition reads a boolean constant (ConstantFact) that a
 * definition of before, now gone, set so the guard could fire (`const
 * supportExporters = false` in the `//go:build purego` file the change
 * deletes, a `#[cfg(not(feature = "std"))]` const, an `#if` branch), while
 * the change left fewer definitions of it and none that lets the guard fire.
 * The guard removed while that definition stays, or with its value flipped
 * in place, is no such guard. Only the changed files are read: a definition
 * in an unchanged file is not seen.
 */
function isDeadVariantGuard(guard: GuardFact, constants: VariantConstants): boolean {
  if (constants.before.size === 0 || alternativesOf(guard.condition).length > 1) return false;
  return splitTopLevel(unwrapParentheses(guard.condition), "&&").some((conjunct) => {
    const test = constantTest(conjunct);
    if (!test) return false;
    const before = constants.before.get(test.name) ?? [];
    const after = constants.after.get(test.name) ?? [];
    const firingBefore = before.filter((value) => value === test.firesOn).length;
    return firingBefore > 0 && after.length < before.length && !after.includes(test.firesOn);
  });
}

/**
 * The enum members the change removed (CodeFacts.enumMembers): declared
 * by a changed product file before (a deleted one too) and by no changed
 * file after, as a member or any other name.
 */
function removedEnumMembers(pairs: readonly RulePair[]): Set<string> {
  const code = pairs.filter((pair) => isProductCode(pair) || isInlineTestedProductCode(pair));
  if (code.some((pair) => pair.after !== null && usable(pair.after) === null)) return new Set();
  const after = new Set(code.flatMap((pair) => [...(usable(pair.after)?.code?.enumMembers ?? []), ...(usable(pair.after)?.code?.declared ?? [])]));
  return new Set(code.flatMap((pair) => usable(pair.before)?.code?.enumMembers ?? []).filter((name) => !after.has(name)));
}

/** The last segment of a qualified name (`Op::Legacy`, `Mode.LEGACY`), a variant's fields and bindings dropped (`Op::B(x)`, `Op::C { .. }`). */
function memberName(text: string): string | null {
  const bare = text.trim().replace(/\s*[({][\s\S]*$/, "");
  const match = /^(?:[\w$]+(?:::|\.))*([\w$]+)$/.exec(bare);
  return match ? (match[1] as string) : null;
}

/** True when a conjunct tests a value for being one of `members` and nothing else: `op is Op::A | Op::B` (a match arm), `x == Op.A`, `Op.A === x`. */
function testsOnlyMembers(conjunct: string, members: ReadonlySet<string>): boolean {
  const text = unwrapParentheses(conjunct).replace(/\s+/g, " ").trim();
  const arm = /^[\w$.:[\]]+ is (.+)$/.exec(text);
  if (arm) return (arm[1] as string).split(/\s*\|(?!\|)\s*/).every((part) => members.has(memberName(part) ?? ""));
  const equal = /^(.+?) ?(?:===|==) ?(.+)$/.exec(text);
  if (!equal) return false;
  return [equal[1] as string, equal[2] as string].some((side) => /(?:::|\.)/.test(side) && members.has(memberName(side) ?? ""));
}

/**
 * True when a removed guard can no longer fire because the enum members it
 * tests for are gone with it (Rust's `Op::__NonExhaustive => unreachable!()`
 * arm removed with the hidden variant): no value can be a member the enum
 * no longer has. Every `||` alternative must test only removed members
 * (through one conjunct of it); a guard on a member that survives, or on a
 * removed constant or function (a bound, a validator), still counts.
 */
function isDeadMemberGuard(guard: GuardFact, removedMembers: ReadonlySet<string>): boolean {
  if (removedMembers.size === 0 || guard.condition === "") return false;
  return alternativesOf(guard.condition).every((alternative) => splitTopLevel(unwrapParentheses(alternative), "&&").some((conjunct) => testsOnlyMembers(conjunct, removedMembers)));
}

/**
 * Error classes that say "this case is not handled (yet)" rather than "this
 * input is wrong": .NET's NotSupportedException and NotImplementedException,
 * Java's UnsupportedOperationException, Python's and Ruby's
 * NotImplementedError, Rust's `unimplemented!`/`todo!`, Go's
 * `errors.ErrUnsupported`.
 */
const REFUSAL_CLASSES: ReadonlySet<string> = new Set([
  "NotSupportedException",
  "NotImplementedException",
  "PlatformNotSupportedException",
  "UnsupportedOperationException",
  "NotImplementedError",
  "NotImplemented",
  "unimplemented",
  "todo",
  "errors.ErrUnsupported",
  "ErrUnsupported",
]);

/**
 * A message that refuses a case: "… is not (yet) supported", "not
 * implemented", "unimplemented". "unsupported <x>" is left out: it names an
 * input that is wrong (`unsupported ${key}`), as "invalid <x>" does.
 */
const REFUSAL_MESSAGE = /\bnot (?:yet )?(?:supported|implemented)\b|\bunimplemented\b|\b(?:is|are) unsupported\b/i;

/**
 * True when a guard refuses a case rather than rejecting an input
 * ({@link REFUSAL_CLASSES}, or any error whose message says so, as Go's
 * `errors.New("rank > 3 is not supported")` or JS's `new Error("not
 * implemented")`). Removing such a guard is how the case gets implemented.
 */
export function isRefusal(action: string): boolean {
  return REFUSAL_CLASSES.has(actionClass(action)) || messageOf(action).some((part) => REFUSAL_MESSAGE.test(part));
}

/** Calls that report rather than do: a refusal turned into one of them still refuses, only quietly. */
const LOGGING_CALL =
  /^(?:log|warn|warning|error|info|debug|trace|print|println|printf|eprintln|eprint|puts|pp|Print|Println|Printf|Fprintf|Fprintln|WriteLine|Write|LogWarning|LogError|LogInformation|LogDebug)$/;

/**
 * True when a refusal removed from function `fn` is implemented rather than
 * bypassed: the function calls something it did not call before, or a
 * function its file newly defines, that is no logger (the code that handles
 * the case: `Append(sb, array, …)` walking every rank), its condition reads no boolean constant of the change (a
 * refusal in a build variant, `if !supportExporters { panic("not supported
 * on purego builds") }`, refuses a build, not a case), and it gave the case
 * no default answer instead: no collapse to a constant, no new branch that
 * returns a literal (`if (rank > 3) return "";`, `return None`) on a name the
 * refusal's condition read (LiteralBranchFact).
 */
function isRefusalImplemented(guard: GuardFact, fn: string, before: CodeFacts, after: CodeFacts, constants: VariantConstants): boolean {
  const fnBefore = (before.functions ?? []).find((candidate) => candidate.name === fn);
  const fnAfter = (after.functions ?? []).find((candidate) => candidate.name === fn);
  if (!fnBefore || !fnAfter) return false;
  // New work: a call it did not make, or one of a function the file defines now and did not (`Append(sb, array, …)` shares its name with `sb.Append`).
  const definedBefore = new Set((before.functions ?? []).map((candidate) => shortName(candidate.name)));
  const definedNow = new Set((after.functions ?? []).map((candidate) => shortName(candidate.name)).filter((name) => !definedBefore.has(name)));
  const newCalls = fnAfter.calls.filter((call) => (!fnBefore.calls.includes(call) || definedNow.has(call)) && !LOGGING_CALL.test(call));
  if (newCalls.length === 0 || guard.names.some((name) => constants.before.has(name) || constants.after.has(name))) return false;
  return !answersDefaultInstead(guard, fn, before, after, fnAfter);
}

/**
 * True when a refusal removed from function `fn` was replaced by a default
 * answer for the case it refused, which is still not handled: the function
 * collapsed to a constant, or it gained a branch that returns a literal
 * (`if (rank > 3) return "";`, `return None`) on a name the refusal's
 * condition read (LiteralBranchFact, not one it had before).
 */
function answersDefaultInstead(guard: GuardFact, fn: string, before: CodeFacts, after: CodeFacts, fnAfter: FunctionFact): boolean {
  if (fnAfter.constantReturn !== undefined) return true;
  const keyOf = (branch: LiteralBranchFact): string => `${branch.function ?? ""}\u0000${branch.returns ?? ""}\u0000${(branch.reads ?? []).join(",")}\u0000${branch.compared.join(",")}`;
  const inFunction = (branches: readonly LiteralBranchFact[] | undefined): LiteralBranchFact[] =>
    (branches ?? []).filter((branch) => branch.kind === "branch" && branch.function === fn && branch.computed !== true);
  const gained = multisetMinus(inFunction(after.literalBranches), inFunction(before.literalBranches), keyOf);
  return gained.some((branch) => (branch.reads ?? []).some((name) => guard.names.includes(name)));
}

/** A refusal the change removed as the case it refused landed ({@link isRefusalImplemented}): its error class and its message literals. */
export interface ImplementedRefusal {
  errorClass: string;
  messages: string[];
}

/**
 * The refusals ({@link isRefusal}) the change removed from product
 * functions that stay, with no guard of the same action left in any changed
 * file, where the function now does the work ({@link isRefusalImplemented}).
 * A test that only checked such a refusal checked a behaviour the change
 * retired with the code: features.ts reads it as a test deleted with its code.
 */
export function implementedRefusals(pairs: readonly RulePair[]): ImplementedRefusal[] {
  const files = codePairs(pairs);
  const actionsAfter = new Set(files.flatMap((file) => (file.after?.guards ?? []).map((guard) => guard.action)));
  const constants = variantConstants(files);
  const refusals: ImplementedRefusal[] = [];
  for (const { before, after } of files) {
    if (!before || !after) continue;
    for (const guard of before.guards ?? []) {
      if (guard.fallthrough || guard.handler || !isRefusal(guard.action) || actionsAfter.has(guard.action)) continue;
      if (isRefusalImplemented(guard, guard.function, before, after, constants)) refusals.push({ errorClass: actionClass(guard.action), messages: messageOf(guard.action) });
    }
  }
  return refusals;
}

/**
 * A refusal the change kept but decides differently ({@link changedRefusals}): its error class and its message literals
 * (template parts joined by U+FFFC; for a throw of collected messages, every literal of its function).
 */
export interface RedecidedRefusal {
  errorClass: string;
  messages: string[];
}

/**
 * The refusals of changed product functions that raise the same error
 * before and after the change while the change rewrote what decides it:
 * the guard's condition changed, or (a throw of collected messages, whose
 * validators sit in a table beside it) the function holding it was
 * rewritten. A test that pinned such an error for an input may flip to
 * "does not throw" on it with the fix (sweep of sindresorhus/meow
 * c3bf62bf28: a `default` validator whose filter was inverted).
 */
export function changedRefusals(pairs: readonly RulePair[]): RedecidedRefusal[] {
  const refusals: RedecidedRefusal[] = [];
  for (const { before, after } of codePairs(pairs)) {
    if (!before || !after) continue;
    const bodies = (facts: CodeFacts): Map<string, string | undefined> => new Map((facts.functions ?? []).map((fn) => [fn.name, fn.bodyHash] as const));
    const [bodiesBefore, bodiesAfter] = [bodies(before), bodies(after)];
    for (const guard of before.guards ?? []) {
      if (guard.fallthrough) continue;
      const kept = (after.guards ?? []).find((candidate) => !candidate.fallthrough && candidate.function === guard.function && isSameThrow(guard.action, candidate.action));
      if (!kept) continue;
      const bodyBefore = bodiesBefore.get(guard.function);
      const isRewritten = kept.condition !== guard.condition || (guard.collected !== undefined && bodyBefore !== undefined && bodyBefore !== bodiesAfter.get(guard.function));
      if (!isRewritten) continue;
      refusals.push({ errorClass: actionClass(guard.action), messages: guard.collected ?? messageOf(guard.action) });
    }
  }
  return refusals;
}

/** What the change did to one guard of a changed product function ({@link refusalFates}). */
export interface GuardFate {
  /** The short name of the function holding the guard (`EntryParser.parse` -> `parse`). */
  function: string;
  errorClass: string;
  /** Its message literals (template parts joined by U+FFFC). */
  messages: string[];
  /**
   * kept: the same throw on the same condition, deciding through the same
   * code; redecided: the same throw (or its message reworded,
   * isRewordedThrow), its condition or a function of its
   * file the condition calls rewritten; implemented: a refusal removed as
   * the function now does the work ({@link isRefusalImplemented});
   * removed: gone otherwise (a bypass's business).
   */
  fate: "kept" | "redecided" | "implemented" | "removed";
}

/** One function of the change's product files, by short name: the names it calls (before) and whether the change rewrote or removed it. */
export interface ProductFunction {
  calls: readonly string[];
  isChanged: boolean;
}

/**
 * The refusals the change added to its product functions: guards of the
 * after side (fall-through exits and handled lookups left out; a rejected
 * input as well as a refused case) where the function raised no such throw
 * before (the same, or its message reworded), with the short name of their function;
 * `fate` is "redecided". Read by rules/accepted-refusals.ts: a test of an
 * answer deleted as the code starts refusing its input.
 */
export function addedRefusals(pairs: readonly RulePair[]): GuardFate[] {
  return codePairs(pairs).flatMap(({ before, after }) => {
    if (!before || !after) return [];
    const was = before.guards ?? [];
    return (after.guards ?? [])
      .filter((guard) => !guard.fallthrough && !guard.handler)
      .filter((guard) => !was.some((old) => old.function === guard.function && (isSameThrow(old.action, guard.action) || isRewordedThrow(old.action, guard.action))))
      .map((guard) => ({ function: shortName(guard.function), errorClass: actionClass(guard.action), messages: messageOf(guard.action), fate: "redecided" as const }));
  });
}

/**
 * The guards of the change's product functions (fall-through exits and
 * handled lookups left out) with what the change did to each
 * ({@link GuardFate}), and the functions of those files with the names they
 * call, by short name: what a test deleted as its refused input became
 * accepted is judged against (rules/accepted-refusals.ts).
 */
export function refusalFates(pairs: readonly RulePair[]): { guards: GuardFate[]; functions: Map<string, ProductFunction> } {
  const files = codePairs(pairs);
  const constants = variantConstants(files);
  const guards: GuardFate[] = [];
  const functions = new Map<string, ProductFunction>();
  for (const { before, after } of files) {
    if (!before || !after) continue;
    // By name, every body of that name (overloads share one): a body found again after is no rewrite.
    const hashes = new Map<string, Set<string | undefined>>();
    for (const fn of after.functions ?? []) (hashes.get(fn.name) ?? hashes.set(fn.name, new Set()).get(fn.name))?.add(fn.bodyHash);
    const changed = new Set<string>();
    for (const fn of before.functions ?? []) {
      const isChanged = !(hashes.get(fn.name)?.has(fn.bodyHash) ?? false);
      if (isChanged) changed.add(shortName(fn.name));
      const known = functions.get(shortName(fn.name));
      functions.set(shortName(fn.name), { calls: [...(known?.calls ?? []), ...fn.calls], isChanged: (known?.isChanged ?? false) || isChanged });
    }
    for (const guard of before.guards ?? []) {
      if (guard.fallthrough || guard.handler) continue;
      const candidates = (after.guards ?? []).filter((candidate) => !candidate.fallthrough && candidate.function === guard.function);
      // The same refusal, or one whose message was reworded with it ("invalid less function" -> "invalid less or compare function").
      const kept = candidates.find((candidate) => isSameThrow(guard.action, candidate.action)) ?? candidates.find((candidate) => isRewordedThrow(guard.action, candidate.action));
      const isRedecided = kept !== undefined && (kept.condition !== guard.condition || guard.names.some((name) => changed.has(name)));
      const fate = kept ? (isRedecided ? "redecided" : "kept") : isRefusal(guard.action) && isRefusalImplemented(guard, guard.function, before, after, constants) ? "implemented" : "removed";
      guards.push({ function: shortName(guard.function), errorClass: actionClass(guard.action), messages: messageOf(guard.action), fate });
    }
  }
  return { guards, functions };
}

/**
 * The error class each function of the change's before side throws when it
 * throws at all, by short name: the class of its guards and fall-through
 * exit when they all throw one (a throw helper: `ThrowIfCancelled(this
 * Token t, string m) { if (!t.IsCancelled) return; throw new
 * OperationCanceledException(m); }` -> "OperationCanceledException"). A
 * guard that calls one throws that class, whether the helper survives or its
 * body was inlined at the call sites and its file deleted.
 */
function helperExitClasses(files: readonly { before: CodeFacts | null }[]): Map<string, string> {
  const classes = new Map<string, Set<string>>();
  for (const file of files) {
    const names = new Set((file.before?.functions ?? []).map((fn) => fn.name));
    for (const guard of file.before?.guards ?? []) {
      if (!names.has(guard.function)) continue;
      const key = shortName(guard.function);
      (classes.get(key) ?? classes.set(key, new Set()).get(key))?.add(actionClass(guard.action));
    }
  }
  return new Map([...classes].filter(([, found]) => found.size === 1).map(([name, found]) => [name, [...found][0] as string]));
}

/** The error class a call guard (`token.ThrowIfCancelled`, its action a bare callee) throws through its helper of the change ({@link helperExitClasses}), else null. */
function calledHelperClass(guard: GuardFact, helpers: ReadonlyMap<string, string>): string | null {
  return /^[\w$.]+$/.test(guard.action) ? (helpers.get(shortName(guard.action)) ?? null) : null;
}

function guardFindings(
  path: string,
  before: CodeFacts,
  after: CodeFacts,
  allAfter: readonly CodeSide[],
  moved: GuardFact[],
  lostErrors: (fn: string) => LostErrors = () => ({ lost: new Set(), stillReturning: new Set() }),
  constants: VariantConstants = { before: new Map(), after: new Map() },
  helpers: ReadonlyMap<string, string> = new Map(),
  removedMembers: ReadonlySet<string> = new Set(),
  addedTests: readonly TestCase[] = [],
  throwChecks: readonly Check[] = [],
  stated?: () => ReadonlyMap<Runtime, StatedSupport>,
): Finding[] {
  const findings: Finding[] = [];
  const afterFunctions = new Set((after.functions ?? []).map((fn) => fn.name));
  const byFunction = new Map<string, GuardFact[]>();
  for (const guard of before.guards ?? []) {
    if (isNeverFiring(guard)) continue; // it never fired before either
    const list = byFunction.get(guard.function) ?? [];
    list.push(guard);
    byFunction.set(guard.function, list);
  }
  const self: CodeSide = { path, code: after };
  for (const [fn, guards] of byFunction) {
    const fnAfter = (after.functions ?? []).find((candidate) => candidate.name === fn);
    let candidates: ReachedGuard[];
    let callsValidator = false;
    if (fn === "") {
      candidates = (after.guards ?? []).filter((guard) => guard.function === "").map((guard) => ({ guard, isDirect: true }));
    } else {
      // A function that is gone (deleted or renamed) is feature_removal's business, not a bypass.
      const parts = fn.split(".");
      let owner: string | null = null;
      for (let size = parts.length; size > 0 && owner === null; size--) {
        const prefix = parts.slice(0, size).join(".");
        if (afterFunctions.has(prefix)) owner = prefix;
      }
      if (owner === null) continue;
      const reached = reachableGuards(owner, self, allAfter);
      candidates = reached.guards;
      // A call to an outside validator counts only when it is new: one that was there before did not replace the guard.
      const callsBefore = new Set((before.functions ?? []).find((candidate) => candidate.name === owner)?.calls ?? []);
      callsValidator = [...reached.validatorCalls].some((call) => !callsBefore.has(call));
    }
    // Each guard of before needs its own partner after: first an equivalent one, then one throwing the same error class.
    // A guard whose condition is constantly false (`&& false`) never fires: it is no partner.
    const unused = candidates.filter((candidate) => !isNeverFiring(candidate.guard));
    // A guard in a helper serves every call of it (two checks may become two calls of one helper), so only direct ones are used up.
    const claim = (index: number): void => {
      if (index !== -1 && (unused[index] as ReachedGuard).isDirect) unused.splice(index, 1);
    };
    // The same guard kept in place pairs with itself first: otherwise, among guards sharing one action (three
    // `checkArgument` calls), a removed one would take a kept one's partner and the finding would name the wrong guard.
    const keptInPlace = new Set<GuardFact>();
    for (const guard of guards) {
      const index = unused.findIndex((candidate) => candidate.isDirect && candidate.guard.condition === guard.condition && candidate.guard.action === guard.action);
      if (index === -1) continue;
      unused.splice(index, 1);
      keptInPlace.add(guard);
    }
    const unmatched = guards.filter((guard) => {
      // A fall-through exit of before only pairs with itself: gone, it is no guard removed (see GuardFact.fallthrough);
      // nor is a handled lookup's exit, the lookup left to raise its own error (GuardFact.handler).
      if (keptInPlace.has(guard) || guard.fallthrough || guard.handler) return false;
      // `if (a == null || b == null) throw …` split into one null refusal per value (`requireNonNull(a); requireNonNull(b)`).
      // Values left unrefused are alternatives dropped from the guard.
      const split = splitNullPartners(guard, unused);
      if (split !== null && split.partners.length > 0) {
        if (split.unrefused.length > 0) findings.push(narrowedFinding(path, fn, guard, (unused[split.partners[0] as number] as ReachedGuard).guard, split.unrefused));
        for (const at of [...split.partners].sort((x, y) => y - x)) claim(at);
        return false;
      }
      const index = unused.findIndex((candidate) => isKeptBy(guard, candidate));
      if (index !== -1) {
        const partner = unused[index] as ReachedGuard;
        // A sign check an unsigned parse now makes (`port < 0 || port > 65535` -> `port > 65535`) is no alternative lost.
        // An alternative moved into a callee that now throws the same error on it (`size > 512` -> fillPool's `bytes > 512`) is no alternative lost.
        // An alternative whose values a test of the change still expects to throw, through the function or a caller of it, still fails there.
        // A partner throwing the same error class with another message (a guard split per value, each reworded) drops
        // the null tests no other guard of the function refuses; other alternatives reworded are left to the same action
        // (`kind != reflect.Bool` widened to `kind != reflect.Bool && kind != reflect.Int` as the feature lands).
        const isSameAction = partner.guard.action === guard.action;
        const isReworded = !isSameAction && isSameExitClass(guard.action, partner.guard.action);
        const dropped = (partner.isDirect && (isSameAction || isReworded) ? droppedAlternatives(guard.condition, partner.guard.condition) : []).filter(
          (alternative) =>
            (isSameAction || nullRefusalOf(alternative) !== null) &&
            !isRefusedApart(alternative, guard, partner, candidates) &&
            !isSubsumedAlternative(alternative, fnAfter) &&
            !isEmptinessImplied(alternative, partner.guard.condition) &&
            !isDelegatedAlternative(alternative, guard, candidates) &&
            !isStillRefusedInTests(alternative, fn, allAfter, throwChecks),
        );
        // The same throw on a bound moved to fire on fewer values (`qty < 0` -> `qty < -1`) lets the values between through.
        // A bound moved so that a new test of the function feeds it a value the guard refused before states the new contract.
        const narrowed = (partner.isDirect && partner.guard.action === guard.action && dropped.length === 0 ? narrowedBounds(guard, partner.guard) : []).filter(
          (part) => !isDelegatedAlternative(part.before, guard, candidates) && !isTestedAdmission(part, fn, addedTests),
        );
        // A refusal that refuses fewer cases as the function does new work for them (`rank > 3` -> `rank > 4`) implements them, as one removed would.
        const isImplementing = (dropped.length > 0 || narrowed.length > 0) && isRefusal(guard.action) && isRefusalImplemented(guard, fn, before, after, constants);
        if (dropped.length > 0 && !isImplementing) findings.push(narrowedFinding(path, fn, guard, partner.guard, dropped));
        if (narrowed.length > 0 && !isImplementing) findings.push(boundNarrowedFinding(path, fn, guard, partner.guard, narrowed));
      }
      claim(index);
      return index === -1;
    });
    for (const guard of unmatched) {
      if (isFilterRetired(guard, before, after)) continue;
      // A guard moved into a table of validators whose messages one throw collects: it serves every guard whose message is in its function.
      if (candidates.some((candidate) => candidate.isDirect && isCollectedBy(guard, candidate.guard))) continue;
      const helperClass = calledHelperClass(guard, helpers);
      const index = unused.findIndex(
        (candidate) =>
          !candidate.guard.fallthrough && candidate.guard.collected === undefined && (isSameExitClass(guard.action, candidate.guard.action) || actionClass(candidate.guard.action) === helperClass),
      );
      if (index !== -1) {
        claim(index);
        continue;
      }
      if (isMergedCopy(guard, candidates) || isMergedAlternative(guard, candidates)) continue;
      if (isSubsumedSignCheck(guard, fnAfter)) continue;
      if (isTypeDeclared(guard, fnAfter)) continue;
      if (isDeadVariantGuard(guard, constants)) continue;
      if (isDeadMemberGuard(guard, removedMembers)) continue;
      // A refusal of runtimes older than every one the project supports ("Node.js v10 or higher is required", engines >=10) refuses nothing.
      if (isUnsupportedRuntimeRefusal(guard.action, stated?.())) continue;
      if (
        isDeadErrorCheck(
          guard,
          (before.functions ?? []).find((candidate) => candidate.name === fn),
          fnAfter,
          lostErrors(fn),
        )
      )
        continue;
      // Moved to another function (one the callers now use) with the same check: not removed.
      const movedIndex = moved.findIndex((candidate) => isEquivalentGuard(guard, candidate) && candidate.function !== fn);
      if (movedIndex !== -1) {
        moved.splice(movedIndex, 1);
        continue;
      }
      if (callsValidator) continue;
      // A refusal removed as the case it refused lands (a NotSupportedException for arrays of rank > 3 gone with a walk of every rank).
      if (isRefusal(guard.action) && isRefusalImplemented(guard, fn, before, after, constants)) continue;
      const constant = (after.guards ?? []).find((candidate) => candidate.function === fn && isNeverFiring(candidate) && actionClass(candidate.action) === actionClass(guard.action));
      if (constant) {
        findings.push(madeConstantFinding(path, fn, guard, constant));
        continue;
      }
      findings.push(
        report(
          validationRule,
          "guardRemoved",
          { guard: guardSource(path, guard), where: fn === "" ? "module code" : `${fn}()`, path },
          {
            file: path,
            line: null,
            before_file: path,
            before_line: guard.line,
            evidence: { rule: "guard_removed", function: fn, condition: guard.condition, action: guard.action },
          },
        ),
      );
    }
  }
  return findings;
}

function collapseFindings(path: string, before: CodeFacts, after: CodeFacts): Finding[] {
  const findings: Finding[] = [];
  // Several functions can share a name path (an abstract method and the anonymous classes that implement it in a
  // static block): each name is a multiset. An after constant function pairs first with a before function returning
  // the same constant (unchanged), then with one that had a body; a declaration without statements is no source.
  const beforeByName = new Map<string, FunctionFact[]>();
  for (const fn of before.functions ?? []) {
    const list = beforeByName.get(fn.name);
    if (list) list.push(fn);
    else beforeByName.set(fn.name, [fn]);
  }
  for (const fn of after.functions ?? []) {
    const candidates = beforeByName.get(fn.name);
    if (!candidates || fn.constantReturn === undefined) continue;
    const same = candidates.findIndex((candidate) => candidate.constantReturn === fn.constantReturn);
    if (same !== -1) {
      candidates.splice(same, 1);
      continue;
    }
    const index = candidates.findIndex((candidate) => candidate.constantReturn === undefined && candidate.statementCount > 0);
    if (index === -1) continue;
    const [was] = candidates.splice(index, 1) as [FunctionFact];
    if (EQUALITY_NAME.test(shortName(fn.name)) && fn.constantReturn === "true") continue; // special_casing reports it
    findings.push(
      report(
        validationRule,
        "collapsedToConstant",
        { name: fn.name, path, returns: fn.constantReturn, count: was.statementCount, statements: was.statementCount === 1 ? "statement" : "statements" },
        {
          file: path,
          line: fn.line,
          before_file: path,
          before_line: was.line,
          evidence: { rule: "constant_return", function: fn.name, returns: fn.constantReturn, statements_before: was.statementCount },
        },
      ),
    );
  }
  return findings;
}

/** Names of equality methods; an always-true one is special_casing, not a collapse. */
export const EQUALITY_NAME = /^(equals?|isEqual|eq|__eq__|deepEqual|isSame|sameAs|matches)$/i;

const CATCH_WORDS: Record<CatchFact["behaviour"], string> = {
  rethrows: "rethrew",
  returns_error: "passed the error on",
  handles: "handled it",
  swallows: "swallowed it",
  returns_constant: "returned a constant",
};

const SWALLOWING: ReadonlySet<CatchFact["behaviour"]> = new Set(["swallows", "returns_constant"]);

/** True when two catches are one catch left as it was: what it catches, what it does, and the calls of the block it guards. */
function isSameCatch(was: CatchFact, now: CatchFact): boolean {
  return was.caught === now.caught && was.behaviour === now.behaviour && (was.guardedCalls ?? []).join("\u0000") === (now.guardedCalls ?? []).join("\u0000");
}

/**
 * The catches of before and after paired across the change, per function:
 * first each catch left as it was with itself ({@link isSameCatch}), then
 * those catching the same thing, then the rest in their order. A clause
 * added before the others (a filtered `catch (E e) when (a || b)` split in
 * two) shifts no other catch onto a neighbour's partner, while a catch that
 * passed the error on and now swallows it still pairs with itself.
 */
function pairedCatches(before: readonly CatchFact[], after: readonly CatchFact[]): [CatchFact, CatchFact][] {
  const byFunction = new Map<string, { before: CatchFact[]; after: CatchFact[] }>();
  const groupOf = (fact: CatchFact): { before: CatchFact[]; after: CatchFact[] } =>
    byFunction.get(fact.function) ?? (byFunction.set(fact.function, { before: [], after: [] }).get(fact.function) as { before: CatchFact[]; after: CatchFact[] });
  for (const fact of before) groupOf(fact).before.push(fact);
  for (const fact of after) groupOf(fact).after.push(fact);
  const pairs: [CatchFact, CatchFact][] = [];
  for (const group of byFunction.values()) {
    const rest = [...group.after].sort((a, b) => a.index - b.index);
    const waiting = [...group.before].sort((a, b) => a.index - b.index);
    for (const match of [isSameCatch, (was: CatchFact, now: CatchFact): boolean => was.caught === now.caught, (): boolean => true]) {
      for (const was of [...waiting]) {
        const index = rest.findIndex((now) => match(was, now));
        if (index === -1) continue;
        pairs.push([was, rest.splice(index, 1)[0] as CatchFact]);
        waiting.splice(waiting.indexOf(was), 1);
      }
    }
  }
  return pairs;
}

function swallowFinding(path: string, was: CatchFact, now: CatchFact): Finding {
  const what = now.behaviour === "swallows" ? "swallows the error" : "returns a constant instead of the error";
  const where = `${now.function || "module code"} of ${path}`;
  return report(
    validationRule,
    now.subject === undefined ? "catchSwallows" : "errorNotPassedOn",
    { where, what, was: CATCH_WORDS[was.behaviour], subject: now.subject },
    {
      file: path,
      line: now.line,
      before_file: path,
      before_line: was.line,
      evidence: { rule: "catch_swallows", function: now.function, before: was.behaviour, after: now.behaviour, ...(now.subject === undefined ? {} : { subject: now.subject }) },
    },
  );
}

/**
 * Error-handling sites keyed by what they handle (Rust): per function and
 * subject, each site that stopped passing the error on and each new site
 * that swallows it pair up, so `save()?` becoming `let _ = save();` fires
 * while a `save().ok();` that was already there, with a `save()?` deleted
 * beside it, does not.
 */
function subjectSwallowFindings(path: string, before: readonly CatchFact[], after: readonly CatchFact[]): Finding[] {
  const groups = new Map<string, { before: CatchFact[]; after: CatchFact[] }>();
  const groupOf = (fact: CatchFact): { before: CatchFact[]; after: CatchFact[] } => {
    const key = `${fact.function}\u0000${fact.subject ?? ""}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { before: [], after: [] }));
    return group;
  };
  for (const fact of before) groupOf(fact).before.push(fact);
  for (const fact of after) groupOf(fact).after.push(fact);
  const findings: Finding[] = [];
  for (const group of groups.values()) {
    const passing = (facts: CatchFact[]): CatchFact[] => facts.filter((fact) => !SWALLOWING.has(fact.behaviour));
    const swallowing = (facts: CatchFact[]): CatchFact[] => facts.filter((fact) => SWALLOWING.has(fact.behaviour));
    const lost = passing(group.before).slice(passing(group.after).length);
    const gained = swallowing(group.after).slice(swallowing(group.before).length);
    for (let i = 0; i < Math.min(lost.length, gained.length); i++) findings.push(swallowFinding(path, lost[i] as CatchFact, gained[i] as CatchFact));
  }
  return findings;
}

/**
 * True when the handler `was` passed on only the refusal its own try raised,
 * and that refusal now fails the call from outside the handler `now`
 * (sweep of sindresorhus/globby 7535e6d74c): each of its rethrows sat under
 * a filter ({@link GuardFact.rethrown}) whose condition spells the message
 * of a refusal of the same function (`if (error.message === M) throw
 * error`), so every other error was swallowed already; and each such
 * refusal is still raised, its message kept or reworded, by a guard of the
 * function that sits after the handler now (moved out of the try, where the
 * new handler cannot swallow it).
 */
function passedOnOnlyOwnRefusal(was: CatchFact, now: CatchFact, before: CodeFacts, after: CodeFacts): boolean {
  const own = (before.guards ?? []).filter((guard) => guard.function === was.function);
  const filters = own.filter((guard) => guard.rethrown !== undefined && guard.line > was.line);
  if (filters.length === 0) return false;
  const refusals = own.filter((guard) => guard.rethrown === undefined && guard.line < was.line && messageOf(guard.action).length > 0);
  const passed = refusals.filter((refusal) => filters.some((filter) => messageOf(refusal.action).every((part) => filter.condition.includes(part))));
  if (passed.length === 0 || !filters.every((filter) => passed.some((refusal) => messageOf(refusal.action).every((part) => filter.condition.includes(part))))) return false;
  const outside = (after.guards ?? []).filter((guard) => guard.function === now.function && guard.line > now.line && guard.rethrown === undefined);
  return passed.every((refusal) =>
    outside.some((guard) => conditionShape(refusal.condition) === conditionShape(guard.condition) && (isSameThrow(refusal.action, guard.action) || isRewordedThrow(refusal.action, guard.action))),
  );
}

/**
 * A condition with the receivers of its method calls left out
 * (`!fs.statSync(cwd).isDirectory()` and `!stats.isDirectory()` both
 * `!…isDirectory()`): what it asks of a value, whether the value is read
 * in place or from a local it was bound to.
 */
function conditionShape(condition: string): string {
  let shape = condition.replace(/\s+/g, "");
  for (let previous = ""; previous !== shape;) {
    previous = shape;
    shape = shape.replace(/(?:…|[\w$]+)(?:\([^()]*\))?\.(?=[\w$])/g, "…");
  }
  return shape.replace(/…+/g, "…");
}

function catchFindings(path: string, before: CodeFacts, after: CodeFacts): Finding[] {
  const hasSubject = (fact: CatchFact): boolean => fact.subject !== undefined;
  const findings = subjectSwallowFindings(path, (before.catches ?? []).filter(hasSubject), (after.catches ?? []).filter(hasSubject));
  const isHandler = (fact: CatchFact): boolean => !hasSubject(fact);
  const pairs = pairedCatches((before.catches ?? []).filter(isHandler), (after.catches ?? []).filter(isHandler)).sort(([, a], [, b]) => a.line - b.line);
  for (const [was, now] of pairs) {
    if (SWALLOWING.has(was.behaviour) || !SWALLOWING.has(now.behaviour)) continue;
    if (passedOnOnlyOwnRefusal(was, now, before, after)) continue;
    findings.push(swallowFinding(path, was, now));
  }
  return findings;
}

/** Spellings that mean the same constraint: `z.strictObject` is `z.object().strict()`, `z.looseObject` is `.passthrough()`. */
const METHOD_EXPANSIONS: Record<string, string[]> = {
  strictObject: ["object", "strict"],
  looseObject: ["object", "passthrough"],
  exactOptional: ["optional"],
};

/**
 * Every chain recorded under one key (a field's schema may be several
 * chains: `z.optional(z.string())`, `.check(z.minLength(1))`), merged into
 * one method multiset; `opaque` when any chain wraps a named schema.
 */
function schemasByKey(schemas: readonly SchemaFact[]): Map<string, SchemaFact> {
  // Keys of chains and of declared models never meet: a file holds one or the other.
  const byKey = new Map<string, SchemaFact>();
  for (const schema of schemas) {
    if (schema.key.startsWith("<")) continue;
    const methods = schema.methods.flatMap((method) => METHOD_EXPANSIONS[method] ?? [method]);
    const known = byKey.get(schema.key);
    if (known) {
      known.methods.push(...methods);
      if (schema.opaque) known.opaque = true;
    } else {
      byKey.set(schema.key, { ...schema, methods });
    }
  }
  return byKey;
}

/**
 * A declared model's field validator that a new model-level validator may
 * have taken over (pydantic: a `@field_validator` rewritten as a
 * `@model_validator`; marshmallow: `@validates` as `@validates_schema`).
 */
const TAKEN_OVER_BY: Readonly<Record<string, string>> = { validator: "model_validator", validates: "validates_schema" };

/** The key of the model a field key belongs to (`User.email` -> "User"). */
const modelKeyOf = (key: string): string => key.slice(0, Math.max(0, key.lastIndexOf(".")));

function schemaFindings(path: string, before: CodeFacts, after: CodeFacts): Finding[] {
  const findings: Finding[] = [];
  const beforeByKey = schemasByKey(before.schemas ?? []);
  const afterByKey = schemasByKey(after.schemas ?? []);
  const count = (methods: readonly string[], method: string): number => methods.filter((name) => name === method).length;
  const hasGained = (key: string, method: string): boolean => {
    const now = afterByKey.get(key);
    const was = beforeByKey.get(key);
    return now !== undefined && was !== undefined && count(now.methods, method) > count(was.methods, method);
  };
  for (const now of afterByKey.values()) {
    const was = beforeByKey.get(now.key);
    if (!was) continue;
    const isKeyword = now.notation === "keyword";
    const loosening = isKeyword ? KEYWORD_LOOSENING : LOOSENING_METHODS;
    const constraining = isKeyword ? KEYWORD_CONSTRAINING : CONSTRAINING_METHODS;
    const added = multisetMinus(now.methods, was.methods).filter((method) => loosening.has(method));
    // A field that now wraps a named schema keeps its constraints there: only added looseners count.
    const isTakenOver = (method: string): boolean => isKeyword && TAKEN_OVER_BY[method] !== undefined && hasGained(modelKeyOf(now.key), TAKEN_OVER_BY[method]);
    const dropped = now.opaque ? [] : multisetMinus(was.methods, now.methods).filter((method) => constraining.has(method) && !isTakenOver(method));
    if (added.length === 0 && dropped.length === 0) continue;
    const spell = (method: string): string => (isKeyword ? `\`${method}\`` : `.${method}()`);
    const parts = [...added.map((method) => `${spell(method)} added`), ...dropped.map((method) => `${spell(method)} dropped`)];
    findings.push(
      report(
        validationRule,
        "schemaLoosened",
        { key: now.key, path, parts: parts.join(", ") },
        {
          file: path,
          line: now.line,
          before_file: path,
          before_line: was.line,
          evidence: { rule: "schema_loosened", key: now.key, before: was.methods, after: now.methods },
        },
      ),
    );
  }
  return findings;
}

/**
 * Suppressions and casts new in the after side (by kind and text). A
 * comment whose text was edited (`eslint-disable a` -> `eslint-disable a, b`)
 * is one removed plus one added of the same kind: only the net gain per kind
 * is reported, the last ones added first.
 */
function suppressionFindings(path: string, before: CodeFacts | null, after: CodeFacts): Finding[] {
  const keyOf = (fact: SuppressionFact): string => `${fact.kind}\u0000${fact.text}`;
  const added = multisetMinus(after.suppressions ?? [], before?.suppressions ?? [], keyOf);
  const removed = multisetMinus(before?.suppressions ?? [], after.suppressions ?? [], keyOf);
  const netAdded = added.filter((fact, index) => {
    const sameKindRemoved = removed.filter((gone) => gone.kind === fact.kind).length;
    const sameKindAddedBefore = added.slice(0, index + 1).filter((other) => other.kind === fact.kind).length;
    return sameKindAddedBefore > sameKindRemoved;
  });
  return netAdded.map((fact) => {
    const word = SUPPRESSION_WORDS[fact.kind];
    const isCast = CAST_KINDS.has(fact.kind);
    // The text says what is silenced (`# noqa: E501`, `#[allow(dead_code)]`) when it is more than the bare word.
    const detail = isCast || (fact.text !== word && !word.startsWith("@ts-")) ? `: ${fact.text}` : "";
    return report(
      validationRule,
      isCast ? "castAdded" : "suppressionAdded",
      { word, path, detail },
      {
        file: path,
        line: fact.line,
        evidence: { rule: isCast ? "cast_added" : "suppression_added", kind: fact.kind, text: fact.text },
      },
    );
  });
}

/** The tests of the change's test files after it that no test of before became (compare.ts matched none to them): the tests the change adds. */
function testsAdded(input: RuleInput): TestCase[] {
  const matched = new Set(input.matched.map((test) => `${test.afterFile}\u0000${test.after.id}`));
  return input.pairs.filter((pair) => isTestPair(pair)).flatMap((pair) => (usable(pair.after)?.tests ?? []).filter((test) => !matched.has(`${pair.path}\u0000${test.id}`)));
}

/**
 * validation_bypass findings over the changed non-test files: guards
 * removed, constant-return collapse, swallowing catches, schema loosening
 * (all high), suppressions and casts added (medium).
 */
export function validationFindings(input: RuleInput): Finding[] {
  const files = codePairs(input.pairs);
  // Unchanged collaborators count as callees: a guard may now be made by what the function calls (analysis/neighbours.ts).
  const allAfter: CodeSide[] = [...files.filter((file) => file.after !== null).map((file) => ({ path: file.path, code: file.after as CodeFacts })), ...(input.neighbours ?? [])];
  const moved = newGuards(files);
  const lostErrors = lostErrorResults(files);
  // Deleted files count here too: a helper inlined at its call sites often leaves with its file.
  const helpers = helperExitClasses(input.pairs.filter((pair) => isProductCode(pair) || isInlineTestedProductCode(pair)).map((pair) => ({ before: usable(pair.before)?.code ?? null })));
  // Deleted files count here: deleting a variant's file is how its definitions go.
  const constants = variantConstants(
    input.pairs.filter((pair) => isProductCode(pair) || isInlineTestedProductCode(pair)).map((pair) => ({ before: usable(pair.before)?.code ?? null, after: usable(pair.after)?.code ?? null })),
  );
  const removedMembers = removedEnumMembers(input.pairs);
  const addedTests = testsAdded(input);
  const throwChecks = throwChecksAfter(input);
  const findings: Finding[] = [];
  for (const { path, before, after } of files) {
    if (!after) continue;
    findings.push(...suppressionFindings(path, before, after));
    if (!before) continue;
    findings.push(...guardFindings(path, before, after, allAfter, moved, (fn) => lostErrors(path, fn), constants, helpers, removedMembers, addedTests, throwChecks, input.stated));
    findings.push(...collapseFindings(path, before, after));
    findings.push(...catchFindings(path, before, after));
    findings.push(...schemaFindings(path, before, after));
  }
  return findings;
}

// ---------------------------------------------------------------------------
// tsconfig.json

/** compilerOptions whose `false` turns type checking down. */
const STRICT_OPTIONS: readonly string[] = [
  "strict",
  "strictNullChecks",
  "noImplicitAny",
  "strictFunctionTypes",
  "strictPropertyInitialization",
  "noImplicitThis",
  "alwaysStrict",
  "useUnknownInCatchVariables",
];

/** `tsconfig.json`, `tsconfig.*.json`, `jsconfig.json`, anywhere in the tree. */
export function isTsConfigPath(path: string): boolean {
  return /(^|\/)(tsconfig(\.[\w-]+)?|jsconfig)\.json$/i.test(path);
}

/** JSON with comments and trailing commas (tsconfig's dialect) -> value, or null when it does not parse. */
function parseJsonc(text: string): unknown {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (inString) {
      out += char;
      if (char === "\\") out += text[++i] ?? "";
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      out += char;
    }
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1")) as unknown;
  } catch {
    return null;
  }
}

function compilerOptionsOf(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  const value = parseJsonc(text);
  if (typeof value !== "object" || value === null) return {};
  const options = (value as Record<string, unknown>).compilerOptions;
  return typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {};
}

function lineOf(text: string, option: string): number | null {
  const index = text.search(new RegExp(`"${option}"\\s*:\\s*false`));
  return index === -1 ? null : text.slice(0, index).split("\n").length;
}

/**
 * validation_bypass for tsconfig/jsconfig files whose strictness options
 * went from true (or, for the strict family, from `"strict": true`) to
 * false. Works on raw file text (these are not source files with facts).
 */
export function tsconfigFindings(changes: readonly FileChange[]): Finding[] {
  const findings: Finding[] = [];
  for (const change of changes) {
    if (!isTsConfigPath(change.path) || change.after === null) continue;
    const before = compilerOptionsOf(change.before);
    const after = compilerOptionsOf(change.after);
    const turnedOff = STRICT_OPTIONS.filter((option) => after[option] === false && before[option] !== false);
    if (turnedOff.length === 0) continue;
    findings.push(
      report(
        validationRule,
        "strictOff",
        { path: change.path, options: turnedOff.map((option) => `"${option}": false`).join(", ") },
        {
          file: change.path,
          line: lineOf(change.after, turnedOff[0] as string),
          evidence: { rule: "strict_off", options: turnedOff },
        },
      ),
    );
  }
  return findings;
}

/**
 * The validation-bypass rule family (see the module comment): guards removed,
 * narrowed or made constant, bodies collapsed to a constant return, catches
 * that now swallow, schemas loosened, strictness turned off in a tsconfig
 * (all high), suppressions and casts added (medium). `check` runs over the
 * rule input's pairs; the tsconfig part reads raw file changes and runs from
 * analyzeChanges ({@link tsconfigFindings}).
 */
export const validationRule = defineRule({
  id: "validation-bypass",
  type: "validation_bypass",
  defaultSeverity: "high",
  description: "A guard, schema or error path in non-test code was removed or loosened, or a suppression, unsafe cast or non-strict tsconfig was added.",
  messages: {
    guardNarrowed: "the guard `if ({{condition}}) {{action}}` in {{where}} of {{path}} no longer checks {{dropped}}",
    guardRemoved: "the guard `{{guard}}` in {{where}} of {{path}} was removed, and nothing it calls checks it any more",
    guardBoundNarrowed: "the guard `{{guard}}` in {{where}} of {{path}} now fires on fewer values: {{changes}}",
    guardMadeConstant: "the guard `if ({{condition}}) {{action}}` in {{where}} of {{path}} was made constant (`{{now}}`): it can no longer fire",
    collapsedToConstant: "{{name}}() in {{path}} was collapsed to `return {{returns}}` (it had {{count}} {{statements}})",
    catchSwallows: "a catch block in {{where}} now {{what}} (before, it {{was}})",
    errorNotPassedOn: "the error of `{{subject}}(…)` in {{where}} is no longer passed on: the code now {{what}} (before, it {{was}})",
    schemaLoosened: "schema {{key}} in {{path}} was loosened: {{parts}}",
    suppressionAdded: { text: "{{word}} added in {{path}}{{detail}}", severity: "medium" },
    castAdded: { text: "{{word}} added in {{path}}{{detail}}", severity: "medium" },
    strictOff: "type checking turned down in {{path}}: {{options}}",
  },
  check: ({ input }: { input: RuleInput }) => validationFindings(input),
});
