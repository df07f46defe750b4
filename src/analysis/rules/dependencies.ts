/**
 * What a deleted test depended on, judged against what the change removed
 * (issue 9: tests deleted together with the code they test; DESIGN.md
 * reports those as feature_removal at medium). A test went with its code
 * when every one of its checks depended on a product name the change
 * removed; one check that reads only surviving code keeps the deletion a
 * test_deletion, and a test that names nothing removed is no part of it.
 *
 * Dependencies come from TestCase.checkNames (the names, plain string
 * literals and calls with their argument counts each check reads, locals and
 * the test class's set-up resolved: parsers/tree-sitter-subjects.ts,
 * languages/javascript-dependencies.ts) or, where none were recorded, from
 * the names and literals of each check's texts; and the place a check reads
 * as its subject. What the change retired ({@link findRetired}): names the
 * changed product files declared, exported or defined before and none
 * after (CodeFacts.declared, exports, functions); overloads, an argument
 * count a surviving callable no longer accepts (FunctionFact.arity);
 * literals (an option value, key or flag) none handles any more or a new
 * guard refuses (CodeFacts.literals, guards); places none writes any more
 * (CodeFacts.writes); options (a property, field or attribute, or a
 * setter's property) removed, which a test setting them on what its checks
 * read depended on (setting tokens, {@link findRemovedSettings}). A literal a check expects is never one it fed the
 * code: a value the code stopped producing is what the check caught.
 * Surviving tests that lost only checks of retired code lost them with the
 * code too (rules/assertions.ts, feature_removal at medium).
 */

import { canonicalText, toChecks, type Check } from "../checks/index.js";
import type { AssertionFact, TestCase } from "../facts.js";
import { isInlineTestedProductCode, isProductCode, usable, type RulePair } from "./context.js";
import { callToken, lastSegment, LITERAL_TOKEN, literalToken, settingToken } from "../dependency-tokens.js";

/**
 * The product names the change removed: declared, exported or defined (by
 * last name segment) by a changed product file before the change and by no
 * changed file after it. Empty when some after side exists but is
 * unreadable (nothing is known to be gone).
 */
export function findRemovedNames(pairs: readonly RulePair[]): Set<string> {
  const after = new Set<string>();
  for (const pair of pairs) {
    const facts = usable(pair.after);
    if (pair.after !== null && facts === null) return new Set();
    for (const name of facts?.code?.declared ?? []) after.add(name);
    for (const fact of facts?.code?.exports ?? []) after.add(lastSegment(fact.name));
    for (const fn of facts?.code?.functions ?? []) after.add(lastSegment(fn.name));
    for (const fn of facts?.nonTestFunctions ?? []) after.add(fn.name);
    for (const helper of facts?.assertionHelpers ?? []) after.add(helper.name);
  }
  const removed = new Set<string>();
  for (const pair of pairs) {
    if (!isProductCode(pair) && !isInlineTestedProductCode(pair)) continue;
    // A deleted file that held its own tests (Rust inline `#[cfg(test)]`) stays a test_deletion (see features.ts findRemovedDefinitions).
    if (pair.after === null && !isProductCode(pair)) continue;
    const code = usable(pair.before)?.code;
    if (!code) continue;
    const names = [...(code.declared ?? []), ...(code.exports ?? []).map((fact) => lastSegment(fact.name)), ...(code.functions ?? []).map((fn) => lastSegment(fn.name))];
    for (const name of names) if (name !== "" && name !== "default" && !after.has(name)) removed.add(name);
  }
  return removed;
}

/** Names (identifiers) in a source text. */
function namesOfText(text: string | undefined): string[] {
  return text === undefined ? [] : (text.match(/[A-Za-z_$][\w$]*/g) ?? []).map((name) => name.replace(/^\$/, ""));
}

/** The literal tokens (parsers/tree-sitter-subjects.ts literalToken) of the plain string literals in a source text. */
function literalTokensOfText(text: string | undefined): string[] {
  if (text === undefined) return [];
  const tokens: string[] = [];
  for (const match of text.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`$\\]*)`/g)) {
    const value = match[1] ?? match[2] ?? match[3] ?? "";
    if (LITERAL_TOKEN.test(value)) tokens.push(literalToken(value));
  }
  return tokens;
}

/** Most arguments a removed overload is looked for at (`f/0` … `f/12`). */
const MAX_ARITY = 12;

/** One side's accepted argument counts of each callable name (FunctionFact.arity), constructors under their class's name. */
function aritiesOf(pairs: readonly RulePair[], side: "before" | "after", isCode: (pair: RulePair) => boolean): Map<string, { min: number; max: number | null }[]> {
  const byName = new Map<string, { min: number; max: number | null }[]>();
  for (const pair of pairs) {
    if (!isCode(pair)) continue;
    for (const fn of usable(pair[side])?.code?.functions ?? []) {
      if (!fn.arity) continue;
      const parts = fn.name.split(/\.|::|#/);
      let name = parts[parts.length - 1] ?? fn.name;
      // Python's `__init__`, Ruby's `initialize`, PHP's `__construct`: a call of the class builds with them.
      if (/^(__init__|initialize|__construct)$/.test(name) && parts.length > 1) name = parts[parts.length - 2] as string;
      (byName.get(name) ?? byName.set(name, []).get(name))?.push(fn.arity);
    }
  }
  return byName;
}

/** True when one of the arities accepts `count` arguments. */
function accepts(arities: readonly { min: number; max: number | null }[], count: number): boolean {
  return arities.some((arity) => count >= arity.min && (arity.max === null || count <= arity.max));
}

/**
 * The call tokens (`name/N`, parsers/tree-sitter-subjects.ts callToken) of
 * the overloads the change removed: a callable name of the changed product
 * files that still exists after the change but no longer accepts N
 * arguments, which it accepted before (the one-argument constructor gone
 * for a two-argument one, `MarkFailure()` become `MarkFailure(out, out)`, a
 * parameter dropped). A name gone altogether is a removed name instead.
 */
export function findRemovedOverloads(pairs: readonly RulePair[]): Set<string> {
  const removed = new Set<string>();
  if (pairs.some((pair) => pair.after !== null && usable(pair.after) === null)) return removed;
  const isCode = (pair: RulePair): boolean => isProductCode(pair) || isInlineTestedProductCode(pair);
  const before = aritiesOf(pairs, "before", isCode);
  const after = aritiesOf(pairs, "after", () => true);
  for (const [name, was] of before) {
    const now = after.get(name);
    if (!now) continue;
    const top = Math.min(MAX_ARITY, Math.max(...was.map((arity) => arity.max ?? MAX_ARITY)));
    for (let count = 0; count <= top; count++) if (accepts(was, count) && !accepts(now, count)) removed.add(callToken(name, count));
  }
  return removed;
}

/** The string literals of a side's changed product files (CodeFacts.literals). */
function productLiteralsOf(pairs: readonly RulePair[], side: "before" | "after"): Set<string> {
  const literals = new Set<string>();
  for (const pair of pairs) {
    if (!isProductCode(pair) && !isInlineTestedProductCode(pair)) continue;
    for (const literal of usable(pair[side])?.code?.literals ?? []) literals.add(literal);
  }
  return literals;
}

/** A negation in a condition (`!`, `!==`, `not`, `<>`): its literals may be what the guard lets through (`!== "x"`, `not in ("x",)`, `!["a", "x"].includes(v)`). */
const NEGATION = /!|<>|\bnot\b|\bunless\b/;

/**
 * The literal tokens of the inputs the change retired: a string literal its
 * changed product files handled before and none handles after (a CLI flag,
 * a config key, an option value dropped), and one a guard the change added
 * now refuses (`if (stdio.includes('ipc')) throw …`: the value is rejected
 * from now on; a condition with a negation, which may refuse everything but
 * its literals, refuses none). A test that passes such an input checks a feature that is
 * gone. Empty when some after side is unreadable.
 */
export function findRetiredLiterals(pairs: readonly RulePair[]): Set<string> {
  const retired = new Set<string>();
  if (pairs.some((pair) => pair.after !== null && usable(pair.after) === null)) return retired;
  const after = productLiteralsOf(pairs, "after");
  for (const literal of productLiteralsOf(pairs, "before")) if (!after.has(literal)) retired.add(literalToken(literal));
  for (const pair of pairs) {
    if (!isProductCode(pair) && !isInlineTestedProductCode(pair)) continue;
    const before = new Set((usable(pair.before)?.code?.guards ?? []).map((guard) => `${guard.function}\u0000${guard.condition}`));
    for (const guard of usable(pair.after)?.code?.guards ?? []) {
      // A condition with a negation may refuse everything but its literals: only a plain test for them refuses them.
      if (guard.fallthrough || NEGATION.test(guard.condition) || before.has(`${guard.function}\u0000${guard.condition}`)) continue;
      for (const match of guard.condition.matchAll(/"([^"\\]*)"|'([^'\\]*)'/g)) {
        const value = match[1] ?? match[2] ?? "";
        if (LITERAL_TOKEN.test(value)) retired.add(literalToken(value));
      }
    }
  }
  return retired;
}

/** The token of a written place among the retired (`=ENV["TESTOPTS"]`): what a check of that place, as its subject, depends on. */
export function writeToken(place: string): string {
  return `=${canonicalText(place)}`;
}

/**
 * The write tokens ({@link writeToken}) of the places the change stopped
 * writing: written by a changed product file before (CodeFacts.writes) and
 * by none after (`ENV["TESTOPTS"] = "-v" if value` removed: verbose mode no
 * longer sets TESTOPTS). A check of such a place checked a side effect that
 * is gone. Empty when some after side is unreadable.
 */
export function findRemovedWrites(pairs: readonly RulePair[]): Set<string> {
  const removed = new Set<string>();
  if (pairs.some((pair) => pair.after !== null && usable(pair.after) === null)) return removed;
  const code = pairs.filter((pair) => isProductCode(pair) || isInlineTestedProductCode(pair));
  const after = new Set(code.flatMap((pair) => usable(pair.after)?.code?.writes ?? []).map(writeToken));
  for (const place of code.flatMap((pair) => usable(pair.before)?.code?.writes ?? [])) if (!after.has(writeToken(place))) removed.add(writeToken(place));
  return removed;
}

/** A Java-style setter's name (`setAllowAdditive`): the property it sets. */
const SETTER = /^set([A-Z]\w*)$/;

/**
 * The setting tokens (dependency-tokens.ts settingToken) of the options the
 * change removed: a removed name ({@link findRemovedNames}) that a changed
 * product file declared before as a property, field or attribute (a C#
 * property, a Java field, a Ruby `attr_accessor`, a Python class attribute:
 * CodeFacts.declared, not one of its functions), and the property a removed
 * one-argument setter set (`setAllowAdditive` -> `AllowAdditive=`,
 * `allowAdditive=`). A test that writes such a member on what it builds
 * (`cfg.AllowAdditiveTypeMapCreation = true`, `Config(allow_additive=True)`,
 * `config.setAllowAdditive(true)`) tested the option that is gone; a
 * removed method of the same name is no option, so a test setting a
 * surviving property of that name depends on nothing retired.
 */
export function findRemovedSettings(pairs: readonly RulePair[], removed: ReadonlySet<string> = findRemovedNames(pairs)): Set<string> {
  const settings = new Set<string>();
  if (removed.size === 0) return settings;
  for (const pair of pairs) {
    if (!isProductCode(pair) && !isInlineTestedProductCode(pair)) continue;
    if (pair.after === null && !isProductCode(pair)) continue;
    const code = usable(pair.before)?.code;
    if (!code) continue;
    const callables = new Set((code.functions ?? []).map((fn) => lastSegment(fn.name)));
    for (const name of code.declared ?? []) if (removed.has(name) && !callables.has(name)) settings.add(settingToken(name));
    for (const fn of code.functions ?? []) {
      const name = lastSegment(fn.name);
      const setter = SETTER.exec(name);
      if (!setter || !removed.has(name) || (fn.arity !== undefined && fn.arity.min > 1)) continue;
      const property = setter[1] as string;
      settings.add(settingToken(property));
      settings.add(settingToken(property.charAt(0).toLowerCase() + property.slice(1)));
    }
  }
  return settings;
}

/**
 * Everything the change retired that a check can depend on: removed names
 * ({@link findRemovedNames}), overloads ({@link findRemovedOverloads}),
 * literals ({@link findRetiredLiterals}), written places
 * ({@link findRemovedWrites}), settings ({@link findRemovedSettings}) and
 * names it starts to deprecate ({@link findNewlyDeprecated}), as one set of
 * tokens.
 */
export function findRetired(pairs: readonly RulePair[]): Set<string> {
  const names = findRemovedNames(pairs);
  return new Set([...names, ...findRemovedOverloads(pairs), ...findRetiredLiterals(pairs), ...findRemovedWrites(pairs), ...findRemovedSettings(pairs, names), ...findNewlyDeprecated(pairs)]);
}

/** The token of a name the change starts to deprecate (`~pragma`): what a check of that name, or of the setting of that name (`cls=`), depends on. */
export function deprecatedToken(name: string): string {
  return `~${name}`;
}

/** The deprecated token among `tokens` a name a check reads stands for: the name's, or its setting's (`cls=` of `Parser(cls=dict)`); else null. */
export function deprecatedTokenOf(name: string, tokens: ReadonlySet<string>): string | null {
  const token = deprecatedToken(name.endsWith("=") ? name.slice(0, -1) : name);
  return tokens.has(token) ? token : null;
}

/**
 * The deprecated tokens ({@link deprecatedToken}) of the names the change
 * starts to deprecate: deprecated by a changed product file after it
 * (CodeFacts.deprecatedNames, deprecations.ts) and by none before (a
 * notice moved between files, or one already there, starts nothing). A
 * library announcing that a member is going drops the checks that now warn
 * (werkzeug 68e1b7b7b9: `assert "no-cache" in request.pragma` went with the
 * new DeprecationWarning of `pragma`); such a check went with the
 * announced feature, as a check of removed code does (feature_removal,
 * medium). Empty when some after side is unreadable.
 */
export function findNewlyDeprecated(pairs: readonly RulePair[]): Set<string> {
  const product = pairs.filter((pair) => isProductCode(pair) || isInlineTestedProductCode(pair));
  if (product.some((pair) => pair.after !== null && usable(pair.after) === null)) return new Set();
  const before = new Set(product.flatMap((pair) => usable(pair.before)?.code?.deprecatedNames ?? []));
  return new Set(
    product
      .flatMap((pair) => usable(pair.after)?.code?.deprecatedNames ?? [])
      .filter((name) => !before.has(name))
      .map(deprecatedToken),
  );
}

/**
 * A dependency token as a message names it: `"ipc"` -> `the value "ipc"`,
 * `Scheduler/1` -> `Scheduler with 1 argument`, `AllowAdditive=` -> `the
 * setting AllowAdditive`, `~pragma` -> `pragma, which the change
 * deprecates`, a name as itself.
 */
export function describeRetired(token: string): string {
  if (token.startsWith('"')) return `the value ${token}`;
  if (token.startsWith("~")) return `${token.slice(1)}, which the change deprecates`;
  if (token.startsWith("=")) return `the write to ${token.slice(1)}`;
  if (token.endsWith("=")) return `the setting ${token.slice(0, -1)}`;
  const call = /^(.+)\/(\d+)$/.exec(token);
  if (call) return `${call[1]} with ${call[2]} argument${call[2] === "1" ? "" : "s"}`;
  return token;
}

/** An assertion counts as a check of the test: it can run and it can fail. */
function isRealCheck(fact: AssertionFact): boolean {
  return fact.unreachable !== true && !fact.tautology;
}

/** The names one check reads by its texts alone (subject and expected value), with the literals it feeds, for languages that record no checkNames. */
function namesOfCheck(check: Check): string[] {
  return [...namesOfText(check.subject), ...namesOfText(check.expected), ...namesOfText(check.errorType), ...literalTokensOfText(check.subject)];
}

/**
 * The retired tokens (see {@link findRetired}) one assertion of `test` (by
 * its index in assertionsDetail) depends on, for `check`, one check of it:
 * its recorded checkNames (or, where a language records none, the names and
 * literals of the check's texts) and the place it reads, sorted; empty when
 * it reads only surviving code.
 */
export function retiredNamesOf(test: TestCase, index: number, check: Check, retired: ReadonlySet<string>): string[] {
  const facts = test.assertionsDetail ?? [];
  const names = test.checkNames && test.checkNames.length === facts.length ? (test.checkNames[index] ?? []) : namesOfCheck(check);
  return [
    ...new Set(
      withoutExpected([...names, writeToken(check.subject)], [check])
        .map((name) => retiredAs(name, retired))
        .filter((name): name is string => name !== null),
    ),
  ].sort();
}

/**
 * The retired token a name a check reads stands for, or null: the name
 * itself when the change retired it, else the string literal of that text
 * when the change retired that (a member read `descriptors.then` of the
 * property the removed code defined by name, `['then', 'catch'].map(p =>
 * Reflect.defineProperty(x, p, …))`, `setattr(obj, "then", …)`): what
 * named the member is gone with the code that made it.
 */
function retiredAs(name: string, retired: ReadonlySet<string>): string | null {
  if (retired.has(name)) return name;
  const deprecated = deprecatedTokenOf(name, retired);
  if (deprecated !== null) return deprecated;
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) return null;
  const literal = literalToken(name);
  return retired.has(literal) ? literal : null;
}

/**
 * `tokens` without the literal tokens of the checks' expected values: a
 * literal the code no longer produces (`assert_equal "-v", ENV["X"]` after
 * the code stopped writing `"-v"`) is what the check caught, not an input
 * the change retired.
 */
function withoutExpected(tokens: readonly string[], checks: readonly Check[]): string[] {
  const expected = new Set(checks.flatMap((check) => [...literalTokensOfText(check.expected), ...literalTokensOfText(check.message)]));
  return tokens.filter((token) => !expected.has(token));
}

/** The write tokens of the places an assertion's checks read as their subjects. */
function writeTokensOf(fact: AssertionFact): string[] {
  return toChecks(fact).map((check) => writeToken(check.subject));
}

/** How a deleted test's checks stand to the removed code (see {@link removedNamesCheckedBy}). */
export type Dependence = { kind: "removed"; names: string[] } | { kind: "survives" } | { kind: "unknown" };

/**
 * How a deleted test's checks depended on the removed names (`removed`,
 * and `aliases`: further local names that stand for removed code in the
 * test's file, such as imports of removed exports): "removed" with the
 * names when each of its checks depended on one, "survives" when some check
 * depended on none (it checked surviving code), "unknown" when the test has
 * no real check (none that can run and fail).
 */
export function removedNamesCheckedBy(test: TestCase, removed: ReadonlySet<string>, aliases: ReadonlySet<string> = new Set()): Dependence {
  const isRemoved = (name: string): boolean => retiredAs(name, removed) !== null || aliases.has(name);
  const facts = test.assertionsDetail ?? [];
  const perCheck: string[][] = [];
  if (test.checkNames && test.checkNames.length === facts.length) {
    facts.forEach((fact, index) => {
      if (isRealCheck(fact)) perCheck.push(withoutExpected([...(test.checkNames?.[index] ?? []), ...writeTokensOf(fact)], toChecks(fact)));
    });
  } else {
    for (const fact of facts) if (isRealCheck(fact)) for (const check of toChecks(fact)) perCheck.push(withoutExpected([...namesOfCheck(check), writeToken(check.subject)], [check]));
  }
  if (perCheck.length === 0) return { kind: "unknown" };
  const hits = new Set<string>();
  for (const names of perCheck) {
    const own = names.filter(isRemoved);
    if (own.length === 0) return { kind: "survives" };
    for (const name of own) hits.add(retiredAs(name, removed) ?? name);
  }
  return { kind: "removed", names: [...hits].sort() };
}

/**
 * The removed names the removed rows of a table test named: for each
 * removed row (1-based, as compare.ts reports them), the names of its
 * elements; null unless at least `lost` removed rows name a removed name
 * (the rows that could no longer compile or run went with that code).
 */
export function removedNamesOfRows(test: TestCase, rows: readonly number[], lost: number, removed: ReadonlySet<string>): string[] | null {
  const elements = test.eachRowElements;
  if (!elements || removed.size === 0 || lost <= 0) return null;
  const hits = new Set<string>();
  let count = 0;
  for (const row of rows) {
    const names = (elements[row - 1] ?? []).flatMap(namesOfText).filter((name) => removed.has(name));
    if (names.length === 0) continue;
    count++;
    for (const name of names) hits.add(name);
  }
  return count >= lost ? [...hits].sort() : null;
}
