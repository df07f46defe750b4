/**
 * Assertion shadows: a definition that takes the name of a test framework's
 * own assertion where the tests resolve that name, so every call of it in
 * those tests runs the project's definition instead of the framework's:
 * a `macro_rules! assert_eq` in a Rust test module (a local macro shadows
 * the prelude's), a C# `Assert` class in the tests' namespace (it wins over
 * `using Xunit;`), a PHPUnit `assertEquals` in the project's base TestCase,
 * a unittest `assertEqual` in a TestCase base class, a JUnit `assertEquals`
 * declared in the test class (a member wins over a static import), Ruby
 * reopening `Minitest::Assertions` or defining `assert_equal` in a test
 * class, and `expect.extend({ toBeCloseTo })` replacing a built-in jest /
 * vitest matcher.
 *
 * Such a definition is legitimate when it can still fail on the values it is
 * given (it normalises them and delegates to the framework, or raises when
 * they differ). {@link judgeShadow} reads its body for that: a failure site
 * (a raise/throw/panic, a framework assertion or `fail`, a delegation to
 * `super`/`parent::`/`base.`, a jest matcher's `pass:`) whose text, or the
 * text of a condition in the body, relates every value parameter in one
 * operand of its logical operators, by name or through a local bound from
 * it (`let (l, r) = (fmt($left), fmt($right)); if l != r { panic!() }`). `exp.to_s == act.to_s || true` with no
 * failure site, `pass: isFinite(received) || isFinite(expected)` (no operand
 * relates the two) and `assertTrue(is_array($actual))` for an
 * `assertEquals($expected, $actual)` (the expected value is never read)
 * cannot fail on the values; rules/shadowed-assertions.ts reports those.
 */

import type { AssertionShadowFact } from "./facts.js";
import type { Node } from "./parsers/tree-sitter.js";

export type { AssertionShadowFact } from "./facts.js";

/**
 * How a language spells failure inside a definition's body: where a failure
 * site starts (`failure`, a global regex) and, when the language has one, a
 * site that forwards every argument it was given (`forwardsAll`: Ruby's bare
 * `super`).
 */
export interface ShadowFailureSyntax {
  readonly failure: RegExp;
  readonly forwardsAll?: RegExp;
}

/** Parameters that carry no value under test: messages, tolerances, formats, receivers, blocks, splats. */
const META_PARAMETER =
  /^[$&*]*(self|cls|this|msg|message|messages|description|desc|format|fmt|args|kwargs|params|precision|delta|epsilon|tolerance|places|digits|decimals|comparer|comparison|options|opts|info|reason|block|blk|_\w*|\w*[Mm]essage)$/;

/** Keywords that open a condition in every supported language. */
const CONDITION = /\b(if|unless|elif|elsif|while|until|when)\b/g;

/** Logical operators an operand is split at: a relation is stated by one operand, not by two joined. */
const LOGICAL = /\|\||&&|\bor\b|\band\b|\?\?/;

/** An operand that is a constant true: a site holding one (`a == b || true`) cannot fail. */
const TRUE_OPERAND = /^[\s(!]*(true|True|TRUE|1)[\s)]*[;,]?\s*$/;

/** The value parameters of a definition: the non-meta ones ({@link META_PARAMETER}), the first two at most (actual and expected). */
export function valueParameters(parameters: readonly string[]): string[] {
  return parameters.filter((name) => !META_PARAMETER.test(name)).slice(0, 2);
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The text from `start` to the end of its statement: the first newline, `;`, or (for `pass:`) `,` at bracket depth 0, or an unmatched closing bracket. */
function statementFrom(body: string, start: number, stopAtComma: boolean): string {
  let depth = 0;
  for (let index = start; index < body.length; index += 1) {
    const char = body[index] as string;
    if (char === "(" || char === "[" || char === "{") depth += 1;
    else if (char === ")" || char === "]" || char === "}") {
      if (depth === 0) return body.slice(start, index);
      depth -= 1;
    } else if (depth === 0 && (char === "\n" || char === ";" || (stopAtComma && char === ","))) return body.slice(start, index);
  }
  return body.slice(start);
}

/** A whole-word pattern for a name (`$left`, `expected`). */
const wordOf = (name: string): RegExp => new RegExp(`(?<![\\w$])${escapeRegExp(name)}(?![\\w])`);

/** One assignment statement: its target side and its value (`let (l, r) = (f($left), f($right))`, `$e = norm($expected)`). */
const ASSIGNMENT = /^\s*(?:let\s+|const\s+|var\s+|val\s+)?(?:mut\s+)?([^=!<>;]+?)\s*(?<![=!<>+\-*/%&|^])=(?![=>~])\s*(.+)$/;

/**
 * The names that stand for each value parameter in `body`: the parameter,
 * and every name an assignment binds from a value that reads one already
 * standing for it (`left` in `let (left, right) = (format!("{:?}", $left),
 * …)`), in statement order.
 */
function standInsOf(body: string, values: readonly string[]): Map<string, Set<string>> {
  const standIns = new Map(values.map((value) => [value, new Set([value])]));
  for (const statement of body.split(/[\n;]/)) {
    const assignment = ASSIGNMENT.exec(statement);
    if (!assignment) continue;
    const targets = [...(assignment[1] as string).matchAll(/[$]?[A-Za-z_]\w*/g)].map((match) => match[0]);
    for (const names of standIns.values()) if ([...names].some((name) => wordOf(name).test(assignment[2] as string))) for (const target of targets) names.add(target);
  }
  return standIns;
}

/** True when one operand of `text` (split at {@link LOGICAL}) names every value parameter, itself or a stand-in ({@link standInsOf}), as a whole word. */
function relatesAll(text: string, standIns: ReadonlyMap<string, ReadonlySet<string>>): boolean {
  if (standIns.size === 0) return true;
  const patterns = [...standIns.values()].map((names) => [...names].map(wordOf));
  return text.split(LOGICAL).some((operand) => patterns.every((words) => words.some((word) => word.test(operand))));
}

/**
 * Whether a shadowing definition can fail on its values: `body` is its text
 * without the signature, `parameters` its parameter names as written
 * (`$expected`, `left` for Rust's `$left:expr` as `$left`). Returns
 * `{ canFail: true }` or `{ canFail: false, reason }` (`"nothing in it can
 * fail"`, `"no failure in it depends on expected and actual together"`).
 * Pure; never throws.
 */
export function judgeShadow(body: string, parameters: readonly string[], syntax: ShadowFailureSyntax): { canFail: boolean; reason?: string } {
  const values = valueParameters(parameters);
  const sites: string[] = [];
  for (const match of body.matchAll(new RegExp(syntax.failure.source, syntax.failure.flags.includes("g") ? syntax.failure.flags : `${syntax.failure.flags}g`))) {
    const site = statementFrom(body, match.index, /^pass\s*:/.test(match[0]));
    // `assert(a == b || true)`: an operand that is always true makes the site unable to fail.
    if (site.split(LOGICAL).some((operand, index) => index > 0 && TRUE_OPERAND.test(operand))) continue;
    if (syntax.forwardsAll?.test(site.trim())) return { canFail: true };
    sites.push(site);
  }
  if (sites.length === 0) return { canFail: false, reason: "nothing in it can fail" };
  const conditions = [...body.matchAll(CONDITION)].map((match) => statementFrom(body, match.index, false));
  const standIns = standInsOf(body, values);
  if ([...sites, ...conditions].some((text) => relatesAll(text, standIns))) return { canFail: true };
  const shown = values.map((name) => name.replace(/^\$/, ""));
  return { canFail: false, reason: `no failure in it depends on ${shown.join(" and ")}${shown.length > 1 ? " together" : ""}` };
}

/**
 * One tree-sitter language's shadow table: `gate` is a cheap test on the
 * file's text (no walk without it), `definitions` the node types that
 * define a function, method or macro, `isShadow` whether such a node with
 * that name shadows the framework's assertion where the tests resolve it,
 * `parameters` and `body` read the definition, and `failure` is the
 * language's {@link ShadowFailureSyntax}.
 */
export interface ShadowTable extends ShadowFailureSyntax {
  readonly gate: RegExp;
  readonly definitions: ReadonlySet<string>;
  isShadow(name: string, node: Node): boolean;
  parameters?(node: Node): string[];
  body?(node: Node): string;
}

const IDENTIFIER_TYPES = new Set(["identifier", "variable_name", "name"]);

/** A parameter node's name: its `name` field, else its first identifier (a splat, a typed or defaulted parameter), else its own text. */
function parameterName(node: Node): string {
  const named = node.childForFieldName("name");
  if (named) return named.text;
  if (IDENTIFIER_TYPES.has(node.type)) return node.text;
  for (const child of node.namedChildren) if (child && IDENTIFIER_TYPES.has(child.type)) return child.text;
  return node.text;
}

/** The names of a definition's `parameters` field, comments left out. */
export function fieldParameters(node: Node): string[] {
  const list = node.childForFieldName("parameters");
  if (!list) return [];
  return list.namedChildren.filter((child): child is Node => child !== null && !child.type.includes("comment")).map(parameterName);
}

/** A definition's body text: its `body` field, else everything after its parameters. */
function bodyText(node: Node): string {
  const body = node.childForFieldName("body");
  if (body) return body.text;
  const parameters = node.childForFieldName("parameters");
  return parameters ? node.text.slice(parameters.endIndex - node.startIndex) : node.text;
}

/** The name of the nearest enclosing declaration of one of `types` (its `name` field), or null. */
export function enclosingName(node: Node, types: ReadonlySet<string>): string | null {
  for (let parent = node.parent; parent; parent = parent.parent) if (types.has(parent.type)) return parent.childForFieldName("name")?.text ?? null;
  return null;
}

/**
 * The assertion shadows of a parsed file per `table`, in source order; none
 * when the file's text fails the table's gate. Never throws for odd trees
 * (a definition without a name is skipped).
 */
export function assertionShadows(root: Node, content: string, table: ShadowTable): AssertionShadowFact[] {
  if (!table.gate.test(content)) return [];
  const found: AssertionShadowFact[] = [];
  const visit = (node: Node): void => {
    if (table.definitions.has(node.type)) {
      const name = node.childForFieldName("name")?.text;
      if (name && table.isShadow(name, node)) {
        const verdict = judgeShadow(table.body ? table.body(node) : bodyText(node), table.parameters ? table.parameters(node) : fieldParameters(node), table);
        found.push({ name, line: node.startPosition.row + 1, ...verdict });
      }
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return found;
}
