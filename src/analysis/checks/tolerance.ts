/**
 * The tolerance of an approximate equality (issue 9, "tolerance widened"): an
 * agent whose code is off by a little widens the test's tolerance until the
 * wrong value fits (`InDelta(t, 2.13809, sd, 1e-5)` -> `0.2`,
 * `pytest.approx(x, rel=1e-9)` -> `rel=0.05`, `toBeCloseTo(x, 2)` ->
 * `toBeCloseTo(x, -2)`). Every framework's spelling is read as one
 * {@link Tolerance}: the absolute and relative difference it admits.
 *
 * | spelling | tolerance |
 * |---|---|
 * | `pytest.approx(x, rel=R, abs=A)` | rel R (default 1e-6), abs A (default 1e-12), pytest's documented defaults |
 * | `math.isclose(a, b, rel_tol=R, abs_tol=A)` | rel R (default 1e-9), abs A (default 0) |
 * | testify `InDelta(t, a, b, d)`, JUnit `assertEquals(a, b, d)`, PHPUnit `assertEqualsWithDelta(a, b, d)`, minitest `assert_in_delta(a, b, d = 0.001)`, MSTest/NUnit `AreEqual(a, b, d)`, xUnit `Equal(a, b, 0.01)` | abs d |
 * | testify `InEpsilon(t, a, b, e)`, minitest `assert_in_epsilon(a, b, e = 0.001)` | rel e |
 * | Jest/Vitest `toBeCloseTo(x, digits = 2)` | abs 10^-digits / 2 (its documented rule) |
 * | xUnit `Assert.Equal(a, b, precision)` (an integer) | abs 10^-precision / 2 (both rounded to that many places) |
 * | `abs(a - b) < e`, `(a - b).abs() < e`, `Math.abs(a - b) <= e` | abs e |
 *
 * More digits are a tighter tolerance. A tolerance that is no number as
 * written (a name, an expression) is unknown, and an unknown tolerance is
 * never judged looser.
 */

import type { AssertionFact } from "../facts.js";
import { splitArguments, splitCall } from "./normalise.js";
import type { Relation } from "./relations.js";

/** The differences an approximate equality admits: absolute (`abs`, in the unit of the value) and relative (`rel`, a fraction). Undefined = not stated and no default known. */
export interface Tolerance {
  abs?: number;
  rel?: number;
}

/** A number as written in any of the languages (`1e-5`, `0.000_01`, `5`, `-2`, `1e-6f`, `0.01m`, `1E-9d`), or undefined. */
export function numberOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const bare = text.replace(/_/g, "").replace(/^\+/, "");
  if (!/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?:[fFdDmM]|f32|f64)?$/.test(bare)) return undefined;
  const value = Number.parseFloat(bare);
  return Number.isFinite(value) ? value : undefined;
}

/** Keyword arguments of a call's argument list (`rel=1e-9`, `abs_tol=0.5`), canonical text -> value text. */
function keywordArguments(args: readonly string[]): Map<string, string> {
  const keywords = new Map<string, string>();
  for (const arg of args) {
    const match = /^([A-Za-z_]\w*)=(?!=)(.+)$/s.exec(arg);
    if (match) keywords.set(match[1] as string, match[2] as string);
  }
  return keywords;
}

/** A stated keyword's number, the default when it is not stated, or undefined when it is stated but is no number (unknown). */
function keywordNumber(keywords: ReadonlyMap<string, string>, name: string, fallback: number): number | undefined {
  const text = keywords.get(name);
  return text === undefined ? fallback : numberOf(text);
}

/** The tolerance `pytest.approx(x, rel=, abs=)` states in canonical text, or undefined when the text is no approx call. */
export function approxTolerance(text: string | undefined): Tolerance | undefined {
  const call = text === undefined ? null : splitCall(text);
  if (!call || !/^(?:pytest\.)?approx$/.test(call[0])) return undefined;
  const args = splitArguments(call[1]);
  const keywords = keywordArguments(args);
  // approx(expected, rel=None, abs=None): positional rel and abs follow the value.
  if (!keywords.has("rel") && args[1] !== undefined && !args[1].includes("=")) keywords.set("rel", args[1]);
  if (!keywords.has("abs") && args[2] !== undefined && !args[2].includes("=")) keywords.set("abs", args[2]);
  return known({ abs: keywordNumber(keywords, "abs", 1e-12), rel: keywordNumber(keywords, "rel", 1e-6) });
}

/** `isclose(a, b, rel_tol=, abs_tol=)` (Python's math.isclose) in canonical text, or undefined. */
function iscloseTolerance(text: string): Tolerance | undefined {
  const call = splitCall(text);
  if (!call || !/^(?:math\.)?isclose$/.test(call[0])) return undefined;
  const keywords = keywordArguments(splitArguments(call[1]));
  return known({ abs: keywordNumber(keywords, "abs_tol", 0), rel: keywordNumber(keywords, "rel_tol", 1e-9) });
}

/** A subject that is the absolute difference of two values: `abs(a-b)`, `math.Abs(a-b)`, `Math.abs(a-b)`, `(a-b).abs()`, `fabs(a-b)`. */
const ABSOLUTE_DIFFERENCE = /^(?:(?:(?:math|Math|np|numpy|std::f64|f64)(?:\.|::))?(?:abs|Abs|fabs)\(.*[^-+*/(,eE]-.*\)|\(.*[^-+*/(,eE]-.*\)\.(?:abs|Abs)\(\))$/s;

/** Only the stated parts: an unknown part (a name) dropped, so it is never compared. */
function known(tolerance: Tolerance): Tolerance {
  const out: Tolerance = {};
  if (tolerance.abs !== undefined) out.abs = tolerance.abs;
  if (tolerance.rel !== undefined) out.rel = tolerance.rel;
  return out;
}

/** Half a unit in the last of `digits` decimal places: what rounding to that many places admits. */
function digitsTolerance(digits: number | undefined): Tolerance {
  return digits === undefined || !Number.isInteger(digits) ? {} : { abs: 10 ** -digits / 2 };
}

/**
 * The tolerance of one assertion (see the module table), from its fact and
 * the check read from it (relation, canonical subject and expected; for an
 * equality, subject and expected as written, before `approx(…)` was
 * unwrapped); undefined for an assertion that
 * is no approximate equality.
 */
export function toleranceOf(fact: AssertionFact, relation: Relation, subject: string, expected: string | undefined, rawExpected: string | undefined): Tolerance | undefined {
  const name = fact.matcher.replace(/^.*[.:]/, "");
  const stated = numberOf(fact.tolerance);
  if (name === "toBeCloseTo") return fact.tolerance === undefined ? digitsTolerance(2) : digitsTolerance(stated);
  if (/^In(?:Delta|Epsilon)/.test(name)) return known(name.startsWith("InEpsilon") ? { rel: stated } : { abs: stated });
  if (name === "assert_in_delta" || name === "assert_in_epsilon") {
    const value = fact.tolerance === undefined ? 0.001 : stated;
    return known(name === "assert_in_delta" ? { abs: value } : { rel: value });
  }
  if (fact.tolerance !== undefined && (name === "assertEquals" || name === "assertArrayEquals" || name === "assertEqualsWithDelta" || name === "AreEqual")) return known({ abs: stated });
  if (fact.tolerance !== undefined && name === "Equal") {
    // xUnit: an int is a precision in decimal places, a double a tolerance.
    return /^-?\d+$/.test(fact.tolerance.trim()) ? digitsTolerance(stated) : known({ abs: stated });
  }
  if (relation === "equal") return approxTolerance(rawExpected) ?? approxTolerance(subject);
  if (relation === "truthy") return iscloseTolerance(subject);
  if (relation === "less" && expected !== undefined && ABSOLUTE_DIFFERENCE.test(subject)) return known({ abs: numberOf(expected) });
  return undefined;
}

/** The difference a tolerance admits around a value of size `magnitude`: the larger of its parts (pytest's and math.isclose's rule), or undefined when a part is not known. */
function admitted(tolerance: Tolerance, magnitude: number): number | undefined {
  if (tolerance.abs === undefined || tolerance.rel === undefined) return undefined;
  return Math.max(tolerance.abs, tolerance.rel * magnitude);
}

/**
 * True when `after` admits more than `before`: around the expected value
 * when it is a number (`magnitude`) and both state every part; else when
 * some part stated on both sides is larger after and none is smaller. A
 * tolerance missing on either side (an exact check, an unknown delta) is
 * never looser: unknown = no finding.
 */
export function isLooser(before: Tolerance | undefined, after: Tolerance | undefined, magnitude?: number): boolean {
  if (before === undefined || after === undefined) return false;
  if (magnitude !== undefined) {
    const [was, now] = [admitted(before, magnitude), admitted(after, magnitude)];
    if (was !== undefined && now !== undefined) return now > was * (1 + 1e-9);
  }
  let larger = false;
  for (const part of ["abs", "rel"] as const) {
    const [was, now] = [before[part], after[part]];
    if (was === undefined || now === undefined) continue;
    if (now < was) return false;
    if (now > was * (1 + 1e-9)) larger = true;
  }
  return larger;
}

/** A tolerance as a person reads it: `abs 1e-5`, `rel 0.05`, `abs 0.01, rel 1e-6`. */
export function describeTolerance(tolerance: Tolerance | undefined): string {
  if (tolerance === undefined) return "none";
  const parts = (["abs", "rel"] as const).filter((part) => tolerance[part] !== undefined).map((part) => `${part} ${String(tolerance[part])}`);
  return parts.length > 0 ? parts.join(", ") : "unknown";
}

/** True when the after check admits a larger difference than the before one (see {@link isLooser}), around the expected value when it is a number. */
export function isToleranceWidened(before: { tolerance?: Tolerance; expected?: string; subject: string }, after: { tolerance?: Tolerance }): boolean {
  const value = numberOf(before.expected) ?? numberOf(before.subject);
  return isLooser(before.tolerance, after.tolerance, value === undefined ? undefined : Math.abs(value));
}
