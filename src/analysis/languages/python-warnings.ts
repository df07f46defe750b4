/**
 * "No warning is raised" checks, however a Python test spells them (issue 9,
 * class no-warning-check-as-error-filter; sweep of dateutil/dateutil
 * 1eea4fc60a), as one check per call they guard: `warns` negated, the call as
 * its subject, the warning category (when one is named) as its error type.
 *
 * - a recorder asserted empty: `with pytest.warns(None) as r:` (pytest < 7),
 *   `with warnings.catch_warnings(record=True) as r:`, or the `recwarn`
 *   fixture, then `assert len(r) == 0` / `assert not r` / `assert r == []`
 *   (`r.list` alike, unittest's assertEqual/assertFalse alike): the recorder
 *   and the emptiness assertion are one check of each call the recorder saw;
 * - an error filter: `with warnings.catch_warnings():` whose body starts
 *   with `warnings.simplefilter("error"[, Category])` or
 *   `warnings.filterwarnings("error", ...)` (pytest's documented replacement
 *   for `pytest.warns(None)`): each call after it fails on a warning;
 * - `@pytest.mark.filterwarnings("error")` (or `"error::Category"`) on the
 *   test: its whole body fails on a warning (a check with no subject).
 *
 * An `"ignore"` or `"always"` filter checks nothing: it hides warnings or
 * records them for someone else to assert.
 */

import { compactText, namedChildren, type AssertionDraft, type Node } from "../parsers/tree-sitter.js";
import { toCheck } from "../checks/normalise.js";
import type { AssertionFact } from "../facts.js";

/** The matcher of a no-warning check: the relation `warns`, negated. */
const NO_WARNING = "not.warns";

/** `warnings.simplefilter(...)` / `warnings.filterwarnings(...)` (or the bare names imported from warnings). */
const FILTER_CALL = /^(?:warnings\.)?(simplefilter|filterwarnings)$/;

/** The callee text of a call node, whitespace dropped. */
function calleeOf(call: Node): string {
  return call.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
}

/** The call of an expression statement, or null. */
function statementCall(statement: Node): Node | null {
  if (statement.type !== "expression_statement") return null;
  const inner = statement.namedChild(0);
  return inner?.type === "call" ? inner : null;
}

/** A string argument's value (`"error"` -> `error`), or null. */
function stringArgument(node: Node | undefined): string | null {
  if (node?.type !== "string") return null;
  return namedChildren(node)
    .filter((part) => part.type === "string_content")
    .map((part) => part.text)
    .join("");
}

/** Positional and keyword arguments of a call. */
function argumentsOf(call: Node): { positional: Node[]; keywords: Map<string, Node> } {
  const positional: Node[] = [];
  const keywords = new Map<string, Node>();
  for (const arg of namedChildren(call.childForFieldName("arguments") ?? call)) {
    if (arg.type === "keyword_argument") {
      const name = arg.childForFieldName("name")?.text;
      const value = arg.childForFieldName("value");
      if (name && value) keywords.set(name, value);
    } else if (arg.type !== "comment") positional.push(arg);
  }
  return { positional, keywords };
}

/**
 * The category an error filter call raises on (`simplefilter("error",
 * DeprecationWarning)`, `filterwarnings("error", category=X)`): `null` for
 * every warning, undefined when the call is no error filter.
 */
function errorFilterCategory(call: Node): string | null | undefined {
  const name = FILTER_CALL.exec(calleeOf(call))?.[1];
  if (!name) return undefined;
  const { positional, keywords } = argumentsOf(call);
  const action = stringArgument(positional[0] ?? keywords.get("action"));
  if (action !== "error") return undefined;
  const category = keywords.get("category") ?? (name === "simplefilter" ? positional[1] : positional[2]);
  return category ? (compactText(category) ?? null) : null;
}

/** A no-warning check of one call (or of the whole test when `call` is null), placed at `startIndex`. */
function noWarningDraft(call: Node | null, category: string | null, line: number, startIndex: number): AssertionDraft {
  const draft: AssertionDraft = { line, matcher: NO_WARNING, strength: 1, tautology: false, negated: true, startIndex };
  const subject = call ? compactText(call) : undefined;
  if (subject !== undefined) draft.actual = subject;
  if (category !== null) draft.expected = category;
  return draft;
}

/** The calls a block runs at its top level that are under test: not assertions, not warnings filters, not the recorder's own calls. */
function guardedCalls(statements: readonly Node[], assertionStarts: ReadonlySet<number>): Node[] {
  return statements.flatMap((statement) => {
    const call = statementCall(statement);
    if (!call || assertionStarts.has(call.startIndex) || /^(?:warnings\.|pytest\.|self\.)/.test(calleeOf(call)) || FILTER_CALL.test(calleeOf(call))) return [];
    return [call];
  });
}

/** True when an assertion states that the recorder `name` holds no warning (see the module doc). */
function isEmptyRecorderAssertion(fact: AssertionFact, name: string): boolean {
  const plain: AssertionFact = { ...fact };
  delete plain.actualValue;
  const check = toCheck(plain);
  const recorder = new Set([name, `${name}.list`]);
  const isRecorder = (text: string): boolean => recorder.has(text) || (text.startsWith("len(") && text.endsWith(")") && recorder.has(text.slice(4, -1)));
  if (check.relation === "equal" && !check.isNegated) return isRecorder(check.subject) && (check.expected === "0" || check.expected === "[]");
  if (check.relation === "length" && !check.isNegated) return recorder.has(check.subject) && check.expected === "0";
  if (check.relation === "falsy" && !check.isNegated) return recorder.has(check.subject);
  if (check.relation === "truthy" && check.isNegated) return recorder.has(check.subject);
  return false;
}

/** The statements of a block node (a `block`), or []. */
function statementsOf(block: Node | null | undefined): Node[] {
  return block ? namedChildren(block).filter((child) => child.type !== "comment") : [];
}

/** The call a `with` item opens (`warnings.catch_warnings()`, `pytest.warns(None) as r`), or null. */
function itemCall(item: Node): Node | null {
  const value = item.childForFieldName("value");
  const call = value?.type === "as_pattern" ? value.namedChild(0) : value;
  return call?.type === "call" ? call : null;
}

/** A recorder of warnings opened by a `with` item: `pytest.warns(None) as r`, `warnings.catch_warnings(record=True) as r`. */
function recorderName(item: Node): string | null {
  const value = item.childForFieldName("value");
  if (value?.type !== "as_pattern") return null;
  const call = itemCall(item);
  const alias = value.childForFieldName("alias")?.namedChild(0)?.text;
  if (!call || !alias) return null;
  const callee = calleeOf(call);
  const { positional, keywords } = argumentsOf(call);
  if (/^(?:pytest\.)?warns$/.test(callee) && (positional.length === 0 || positional[0]?.type === "none")) return alias;
  if (/^(?:warnings\.)?catch_warnings$/.test(callee) && keywords.get("record")?.text === "True") return alias;
  return null;
}

/**
 * The assertion drafts of a Python file with its no-warning checks read as
 * such (see the module doc): recorder + emptiness assertion pairs replaced
 * by one check per recorded call, error filters and `filterwarnings("error")`
 * marks added as checks. Other drafts are returned as they were.
 */
export function withNoWarningChecks(root: Node, assertions: readonly AssertionDraft[]): AssertionDraft[] {
  const dropped = new Set<number>();
  const added: AssertionDraft[] = [];
  const byStart = new Map(assertions.map((draft) => [draft.startIndex, draft] as const));
  const starts = new Set(byStart.keys());
  /** Replaces the emptiness assertions of `name` among `candidates` by checks of `calls`. */
  const replaceRecorder = (name: string, candidates: readonly Node[], calls: readonly Node[]): boolean => {
    let found = false;
    for (const statement of candidates) {
      const node = statement.type === "expression_statement" ? (statement.namedChild(0) ?? statement) : statement;
      const draft = byStart.get(node.startIndex);
      if (!draft || !isEmptyRecorderAssertion(draft, name)) continue;
      dropped.add(draft.startIndex);
      found = true;
      const subjects = calls.length > 0 ? calls : [null];
      subjects.forEach((call) => added.push(noWarningDraft(call, null, draft.line, draft.startIndex)));
    }
    return found;
  };

  for (const statement of root.descendantsOfType("with_statement")) {
    if (!statement) continue;
    const items = statement.descendantsOfType("with_item").filter((item): item is Node => item !== null && item.parent?.parent?.id === statement.id);
    const body = statementsOf(statement.childForFieldName("body"));
    for (const item of items) {
      const name = recorderName(item);
      if (name === null) continue;
      const calls = guardedCalls(body, starts);
      // The emptiness check sits in the block or just after it, in the block holding the `with`.
      const after: Node[] = [];
      for (let next = statement.nextNamedSibling; next; next = next.nextNamedSibling) after.push(next);
      if (replaceRecorder(name, [...body, ...after], calls)) {
        const opener = itemCall(item);
        if (opener) dropped.add(opener.startIndex);
      }
    }
    const opensFilterScope = items.some((item) => {
      const call = itemCall(item);
      return call !== null && /^(?:warnings\.)?catch_warnings$/.test(calleeOf(call));
    });
    if (!opensFilterScope) continue;
    body.forEach((inner, index) => {
      const call = statementCall(inner);
      const category = call ? errorFilterCategory(call) : undefined;
      if (!call || category === undefined) return;
      const line = call.startPosition.row + 1;
      const calls = guardedCalls(body.slice(index + 1), starts);
      (calls.length > 0 ? calls : [null]).forEach((guarded) => added.push(noWarningDraft(guarded, category, line, guarded?.startIndex ?? call.startIndex)));
    });
  }

  // The recwarn fixture: `def test_x(recwarn): ...; assert len(recwarn) == 0`.
  for (const fn of root.descendantsOfType("function_definition")) {
    if (!fn || !namedChildren(fn.childForFieldName("parameters") ?? fn).some((parameter) => parameter.text === "recwarn")) continue;
    const body = statementsOf(fn.childForFieldName("body"));
    body.forEach((statement, index) => {
      replaceRecorder("recwarn", [statement], guardedCalls(body.slice(0, index), starts));
    });
  }

  // @pytest.mark.filterwarnings("error") / ("error::DeprecationWarning") on a test function.
  for (const decorated of root.descendantsOfType("decorated_definition")) {
    const fn = decorated?.childForFieldName("definition");
    const body = fn?.type === "function_definition" ? fn.childForFieldName("body") : null;
    if (!decorated || !body) continue;
    for (const decorator of namedChildren(decorated).filter((child) => child.type === "decorator")) {
      const call = decorator.namedChild(0);
      if (call?.type !== "call" || !/(?:^|\.)mark\.filterwarnings$/.test(calleeOf(call))) continue;
      const spec = stringArgument(argumentsOf(call).positional[0]);
      const [action, , category] = (spec ?? "").split(":").map((part) => part.trim());
      if (action !== "error") continue;
      added.push(noWarningDraft(null, category ? category : null, decorator.startPosition.row + 1, body.startIndex));
    }
  }

  if (dropped.size === 0 && added.length === 0) return [...assertions];
  return [...assertions.filter((draft) => !dropped.has(draft.startIndex)), ...added].sort((a, b) => a.startIndex - b.startIndex);
}
