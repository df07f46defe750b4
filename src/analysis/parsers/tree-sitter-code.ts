/**
 * Code facts ({@link CodeFacts}) of the tree-sitter languages: suppressions,
 * guards, functions, catches, schemas, runner checks and exports of non-test
 * code, for the validation_bypass, special_casing and feature_removal rules.
 *
 * The engine is one walk over the parse tree; what it looks for is data, a
 * {@link CodeSyntax} table per language module (STYLE.md §6): patterns run
 * over the lines of comment nodes, and handlers keyed by node type for
 * attributes, casts, functions, calls and guards. Suppressions come from the
 * tree, never from raw lines, so `"# noqa"` inside a string literal is not
 * one.
 *
 * Texts are normalised with {@link compactText}: tokens joined with a space
 * only between two word characters, so a reformatted guard (`if (x<0)` vs
 * `if ( x < 0 )`, a condition split over lines) keeps its text.
 */

import type { Node, TreeCursor } from "web-tree-sitter";
import type {
  CatchBehaviour,
  CatchFact,
  CodeFacts,
  ConstantFact,
  EscapeFact,
  ExportFact,
  ImportFact,
  FunctionFact,
  GuardFact,
  LiteralBranchFact,
  RunnerCheckFact,
  SchemaFact,
  SuppressionFact,
  SuppressionKind,
} from "../facts.js";
import { hashText } from "../facts.js";
import { isDefaultReference } from "./default-reference.js";
import { isLiteral, namedChildren, normalizeLiteral, walkSubtree as walk } from "./tree-sitter.js";
import { arityOf, parameterTypesOf } from "./tree-sitter-subjects.js";

/** Node types that are comments in the supported grammars. */
const COMMENT_TYPES: ReadonlySet<string> = new Set(["comment", "line_comment", "block_comment", "doc_comment"]);
const isComment = (type: string): boolean => COMMENT_TYPES.has(type);

/** A suppression written in a comment: `pattern` is searched in each line of each comment node; the fact's text runs from the match to the end of that line. */
export interface CommentSuppression {
  kind: SuppressionKind;
  pattern: RegExp;
}

/** A suppression found on a node (an attribute, an annotation, a cast, a directive); `text` defaults to the node's compact text. */
export interface NodeSuppression {
  kind: SuppressionKind;
  text?: string;
}

/**
 * A guard found on a node: the condition, the error it raises/returns (a
 * node or a normalised text), and whether it fires when the condition is
 * false (`else` branch). A `case`/match arm that exits with the error gives
 * the switched value as `condition` and its labels as `patterns`: the guard
 * fires when the value matches one (the condition reads `count.cmp(&2) is
 * Ordering::Greater`, `kind is "a" | "b"`).
 */
export interface GuardDraft {
  condition: Node;
  action: Node | string;
  isNegated?: boolean;
  /** The guard fires when `condition` is null (C#'s `x ?? throw …`): its condition is written `x == null`. */
  isNullTest?: boolean;
  patterns?: readonly Node[];
  /**
   * For the exit of a handled lookup ({@link GuardFact.handler}): the code it
   * guards (the statements of a `try` body, a lookup's receiver and key),
   * read as the condition's text and names; `condition` gives the line.
   */
  guarded?: readonly Node[];
}

/**
 * A catch clause found on a node: the statements it runs (null: none) and
 * the name the caught error is bound to. Languages without catch blocks
 * (Rust) describe an error-handling site instead: `subject` names the call
 * whose error is handled (the fact is then keyed by function, subject and
 * order), and `behaviour`, when given, is taken as is (a `?` propagates, a
 * `let _ =` swallows) instead of classifying `body`.
 */
export interface CatchDraft {
  body: Node | null;
  errorName: string | null;
  /** The handled call's callee text (`fs::write`, `self.repo.save`): what a `?` before and a `let _ =` after have in common. */
  subject?: string;
  /** What the site does, when the syntax says it without a body. */
  behaviour?: CatchBehaviour;
  /** `body` is one expression (a match arm's value), not a block of statements. */
  isExpression?: boolean;
  /** What the handler catches, as written, or "*" for everything (see {@link CatchFact.caught}). */
  caught?: string;
  /** The block the handler guards (the `try` body, or the statements before a Ruby `rescue`): the calls in it are recorded as {@link CatchFact.guardedCalls}. */
  guarded?: Node | readonly Node[] | null;
}

/**
 * A branch of non-test code that may map a literal to a literal
 * ({@link LiteralBranchFact}): an `if`/ternary with its `condition`
 * (equality comparisons with literals are read from it), a `case`/`when`/
 * match arm with its literal `patterns`, or a table entry (`kind` "table",
 * its key in `patterns`). `result` is what the branch yields: a block (its
 * single `return <literal>`, or its value where blocks have one), a return
 * statement, an expression, or the statements of a case arm.
 */
export interface BranchDraft {
  kind: "branch" | "table";
  condition?: Node | null;
  patterns?: readonly Node[];
  result: Node | readonly Node[] | null;
}

/**
 * A way out of the test run found on a node ({@link EscapeFact}): `code` is
 * the exit status node (null: none given), absent when it is not known; a
 * `hook` draft also marks everything below the node as run by the hook.
 */
export interface EscapeDraft {
  kind: EscapeFact["kind"];
  code?: Node | string | null;
}

/** A validation schema field found on a node (see {@link SchemaFact}); `key` is relative to the enclosing containers. */
export type SchemaDraft = SchemaFact;

/** An exported symbol found on a node: its name, the node its hash is taken from, and its line when it is not the node's (a method inside an exported class). */
export interface ExportDraft {
  name: string;
  body: Node | null;
  line?: number;
  /** Names masked before hashing (the class's own name, which its constructors and static calls repeat), so a renamed class keeps its hash. */
  ownNames?: readonly string[];
}

/**
 * How statements read, for classifying catch bodies ({@link CatchBehaviour})
 * and spotting a function collapsed to `return <literal>`.
 */
export interface FlowSyntax {
  /** Statements that raise: `raise`, `throw`. */
  throwTypes: ReadonlySet<string>;
  /** A call or name that raises (Ruby's `raise X, "m"`, a bare `raise`). */
  isThrow?: (node: Node) => boolean;
  /** Return statements; their value is the first named child (a one-value `expression_list` is unwrapped). */
  returnTypes: ReadonlySet<string>;
  /** Statements that do nothing (`pass`, `;`). */
  noopTypes?: ReadonlySet<string>;
  /** Wrapper of an expression used as a statement (`expression_statement`). */
  expressionTypes?: ReadonlySet<string>;
  /** Call node types, and the callee text of one (for log calls and calls passing the error on). */
  callTypes: ReadonlySet<string>;
  callee: (call: Node) => string | null;
  /** True when a block's last expression is its value (Ruby, Rust): a lone literal is a constant result. */
  implicitValue?: boolean;
  /**
   * Constants beyond plain literals, as normalised text (Rust's `Ok(())`,
   * `None`; PHP's `"text"` without interpolation), or null. Tried before
   * {@link literalText}.
   */
  constant?: (node: Node) => string | null;
  /** Values that do nothing when they are a whole catch body (Rust's `()`; an empty block is no statements already): the error is swallowed. */
  isEmptyValue?: (node: Node) => boolean;
}

/**
 * What one language's code looks like to the engine. Every handler is keyed
 * by node type, receives that node, and may return null for "not one".
 */
export interface CodeSyntax {
  /** The file's imports (CodeFacts.imports), for languages whose code facts carry them. */
  imports?: (root: Node) => ImportFact[];
  /** Suppression comments, tried on every line of every comment node. */
  comments: readonly CommentSuppression[];
  /** Nodes that are suppressions themselves: attributes, annotations, directives, casts, `unsafe` blocks. */
  suppressions?: Readonly<Record<string, (node: Node, context: CodeContext) => NodeSuppression | null>>;
  /** Named function scopes: the node's name (null: not a named function, e.g. a lambda). Its body's statements are counted. */
  functions?: Readonly<Record<string, (node: Node) => { name: string; body: Node | null; returnsError?: boolean } | null>>;
  /** Named non-function scopes (classes, impls, modules): their name prefixes the functions inside (`Class.method`). */
  containers?: Readonly<Record<string, (node: Node) => string | null>>;
  /** Calls: the called function's last name (`a.b.c()` -> "c"), recorded on the enclosing function. */
  calls?: Readonly<Record<string, (node: Node) => string | null>>;
  /** Guards: an `if` that raises or returns an error, an `assert`, a precondition call, a `case` arm that exits with the error, a loop over a filter whose body always does. */
  guards?: Readonly<Record<string, (node: Node) => GuardDraft[]>>;
  /**
   * The error a function body ends with unconditionally (its last statement
   * throws or returns an error), or null: recorded as a fall-through guard
   * ({@link GuardFact.fallthrough}).
   */
  fallthrough?: (body: Node) => Node | string | null;
  /** Local names a node binds to an unsigned parse whose failure reaches the caller ({@link FunctionFact.unsignedValues}). */
  unsignedValues?: Readonly<Record<string, (node: Node) => string[]>>;
  /** Constants a node outside any function defines, with their value nodes; those whose value is a boolean literal are recorded ({@link ConstantFact}). */
  constants?: Readonly<Record<string, (node: Node) => { name: string; value: Node | null }[]>>;
  /** Node types that are identifiers, for {@link GuardFact.names}. */
  identifierTypes: ReadonlySet<string>;
  /**
   * Test code inside a product file (Rust's `#[cfg(test)] mod tests`,
   * `#[test] fn`): a node for which the handler of its type returns true is
   * skipped with everything under it.
   */
  testCode?: Readonly<Record<string, (node: Node) => boolean>>;
  /** Statement shapes, for catches and constant returns ({@link FunctionFact.constantReturn} is filled when present). */
  flow?: FlowSyntax;
  /** Catch clauses (`except`, `catch`, `rescue`), classified with {@link flow}, keyed by function and order there. */
  catches?: Readonly<Record<string, (node: Node) => CatchDraft | null>>;
  /** Checks for the test runner (`"pytest" in sys.modules`, `testing.Testing()`): true when the node is one; its compact text is the fact's. */
  runnerChecks?: Readonly<Record<string, (node: Node) => boolean>>;
  /** Exported symbols, tried on the root's direct children only: the public names a node declares, each with the node its hash is taken from (its body, so a rename keeps the hash). */
  exports?: Readonly<Record<string, (node: Node, context: CodeContext) => ExportDraft[]>>;
  /**
   * The module's own word on its public API, run once after the walk over
   * the exports found by {@link exports}: Python's `__all__` replaces them,
   * a script's `main` is dropped. Returns the exports to keep.
   */
  moduleExports?: (root: Node, found: ExportFact[], context: CodeContext) => ExportFact[];
  /** The files a module declares as private children ({@link CodeFacts.privateModules}), from the root. */
  privateModules?: (root: Node, context: CodeContext) => string[];
  /** Validation schemas a node declares (pydantic models, marshmallow schemas): fields with their constraint names, keys relative to the enclosing containers. */
  schemas?: Readonly<Record<string, (node: Node, context: CodeContext) => SchemaDraft[]>>;
  /** Branches and table entries that map literals to literals (special_casing), read with {@link flow}. */
  literalBranches?: Readonly<Record<string, (node: Node) => BranchDraft[]>>;
  /** Process exits, forced exit statuses and exit hooks (the harness-escape rule). */
  escapes?: Readonly<Record<string, (node: Node) => EscapeDraft | null>>;
  /** Program entry points that are not functions (Python's `if __name__ == "__main__":`): true when everything below the node is one. */
  entryPoints?: Readonly<Record<string, (node: Node) => boolean>>;
  /**
   * State a function may count or toggle between calls ({@link FunctionFact.stateUpdates}):
   * `declarations` give the names a node declares as state (module-level or
   * static variables, `global` names; `isModuleLevel` when no function
   * encloses the node), `updates` the name a node counts or toggles
   * (see {@link counterTarget}), `isStateName` names that are state by their
   * spelling (Ruby `$n`, `@@n`).
   */
  state?: {
    declarations?: Readonly<Record<string, (node: Node, isModuleLevel: boolean) => string[]>>;
    updates?: Readonly<Record<string, (node: Node) => string | null>>;
    isStateName?: (name: string) => boolean;
  };
  /** True when the whole file is a program rather than a library module (`package main`, a `static void main`, a shebang): its exits are an entry point's. */
  isScript?: (content: string) => boolean;
}

/** What a handler may know about the file besides the node. */
export interface CodeContext {
  /** The whole file's text. */
  content: string;
  /** The file's path in the repository ("" when unknown): `__main__.py`, `src/main.rs` say what a file is. */
  path: string;
  /** The parse tree's root, for handlers that need the rest of the module (a model's base class declared above it). */
  root: Node;
  /** Scratch space shared by one file's handlers (each language keys its own entries), dropped after the file. */
  memo: Map<string, unknown>;
}

/**
 * A short hash (12 hex) of a declaration's text with whitespace runs
 * collapsed and each of `ownNames` (as a whole identifier) masked: an
 * export's {@link ExportFact.hash}.
 */
export function declarationHash(node: Node, ownNames: readonly string[] = []): string {
  let text = node.text.replace(/\s+/g, " ");
  for (const name of ownNames) {
    if (name === "") continue;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    text = text.replace(new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`, "g"), "\u0000");
  }
  return hashText(text).slice(0, 12);
}

/** Names of the functions a subtree calls, by the language's call handlers, sorted, unique. */
function callsIn(nodes: Node | readonly Node[], syntax: CodeSyntax): string[] {
  const names = new Set<string>();
  if (!syntax.calls) return [];
  for (const node of Array.isArray(nodes) ? (nodes as readonly Node[]) : [nodes as Node]) {
    walk(node, (cursor, type) => {
      const handler = syntax.calls?.[type];
      if (handler) {
        const name = handler(cursor.currentNode);
        if (name) names.add(name);
      }
      return "descend";
    });
  }
  return [...names].sort();
}

/** Longest condition text kept for a handled lookup's guard (GuardDraft.guarded: a `try` body may be long). */
const MAX_GUARDED_TEXT = 240;

/** Longest text kept for a suppression (a long `unsafe` block is cut). */
const MAX_TEXT = 120;

/**
 * A node's tokens, joined with a space only where two word characters meet:
 * `x < 0` and `x<0` both give `x<0`, `raise ValueError("a")` keeps its
 * space. String literals are kept whole; comments are dropped.
 */
export function compactText(node: Node): string {
  let out = "";
  const push = (token: string): void => {
    if (token.length === 0) return;
    if (out.length > 0 && /\w$/.test(out) && /^\w/.test(token)) out += " ";
    out += token;
  };
  walk(
    node,
    (cursor, type) => {
      if (isComment(type)) return "skip";
      if (STRING_TYPES.has(type)) {
        push(cursor.nodeText);
        return "skip";
      }
      return "descend";
    },
    (cursor) => push(cursor.nodeText.trim()),
  );
  return out;
}

/** String literal node types across the grammars: kept as one token. */
const STRING_TYPES: ReadonlySet<string> = new Set([
  "string",
  "interpreted_string_literal",
  "raw_string_literal",
  "string_literal",
  "encapsed_string",
  "verbatim_string_literal",
  "character_literal",
  "char_literal",
]);

/** Identifiers a node reads (by the language's identifier types), sorted, unique. */
function namesIn(node: Node, identifierTypes: ReadonlySet<string>): string[] {
  const names = new Set<string>();
  walk(node, (cursor, type) => {
    if (identifierTypes.has(type)) {
      names.add(cursor.nodeText);
      return "skip";
    }
    return "descend";
  });
  return [...names].sort();
}

/**
 * Suppressions in one comment node, one per pattern and line. A fact's text
 * runs from its match to the next match on the line (`# type: ignore[x]  # noqa`
 * gives `# type: ignore[x]` and `# noqa`) or the line's end.
 */
function commentSuppressions(comment: Node, patterns: readonly CommentSuppression[]): SuppressionFact[] {
  const facts: SuppressionFact[] = [];
  const lines = comment.text.split("\n");
  const firstLine = comment.startPosition.row + 1;
  lines.forEach((lineText, offset) => {
    const matches: { kind: SuppressionKind; index: number }[] = [];
    for (const { kind, pattern } of patterns) {
      const match = pattern.exec(lineText);
      if (match) matches.push({ kind, index: match.index });
    }
    matches.sort((a, b) => a.index - b.index);
    matches.forEach(({ kind, index }, order) => {
      const end = matches[order + 1]?.index ?? lineText.length;
      const text = lineText
        .slice(index, end)
        .replace(/\*+\/\s*$/, "")
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, MAX_TEXT);
      facts.push({ kind, line: firstLine + offset, text });
    });
  });
  return facts;
}

/** Callees that only log: `logger.warn(...)`, `print(...)`, `console.log(...)`, `Log.Error(...)`, `e.printStackTrace()`. */
const LOG_CALLEE =
  /^(print|puts|warn|p|pp|printf|println|(console|logger|log|logging|LOG|Log|_log|_logger|self\.logger|self\.log|Rails\.logger|System\.(out|err)|Console|Debug|Trace|fmt|slog|sentry_sdk|Sentry)\b.*|.*\.printStackTrace)$/;

/** Environment variables only a test runner sets, across languages. */
export const RUNNER_ENV_VARS: ReadonlySet<string> = new Set(["PYTEST_CURRENT_TEST", "PYTEST_XDIST_WORKER", "PYTEST_VERSION", "VITEST", "JEST_WORKER_ID", "RSPEC_RUNNING", "TEST_ENV_NUMBER"]);

/** Environment variables whose value "test" means a test run. */
export const MODE_ENV_VARS: ReadonlySet<string> = new Set([
  "NODE_ENV",
  "APP_ENV",
  "RAILS_ENV",
  "RACK_ENV",
  "FLASK_ENV",
  "DJANGO_ENV",
  "ENV",
  "ENVIRONMENT",
  "APP_ENVIRONMENT",
  "ASPNETCORE_ENVIRONMENT",
  "DOTNET_ENVIRONMENT",
  "GO_ENV",
]);

/** A literal's normalised text as the JS facts print it: strings JSON-quoted, `True`/`nil`/`None` as `true`/`null`; null when not a plain literal. */
export function literalText(node: Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === "parenthesized_expression" && node.namedChildCount === 1) return literalText(node.namedChild(0));
  if (node.type === "prefix_unary_expression" || node.type === "unary_operator" || node.type === "unary_expression") {
    const operand = node.namedChild(0);
    const inner = /^-/.test(node.text) && operand ? literalText(operand) : null;
    return inner !== null && /^[\d.]/.test(inner) ? `-${inner}` : null;
  }
  if (!isLiteral(node) || node.descendantsOfType(["interpolation", "string_interpolation", "interpolated_string_expression"]).length > 0) return null;
  const text = normalizeLiteral(node);
  if (/^(true|false)$/i.test(text)) return text.toLowerCase();
  if (/^(none|nil|null)$/i.test(text)) return "null";
  return text;
}

/** Statements of a block, without comments and no-op statements. */
function statementsOf(block: Node | null, flow: FlowSyntax): Node[] {
  if (!block) return [];
  return namedChildren(block).filter((child) => !flow.noopTypes?.has(child.type));
}

/** The call a statement is, unwrapping an expression statement. */
function statementCall(statement: Node, flow: FlowSyntax): Node | null {
  const inner = flow.expressionTypes?.has(statement.type) ? statement.namedChild(0) : statement;
  return inner && flow.callTypes.has(inner.type) ? inner : null;
}

function isLogCall(call: Node, flow: FlowSyntax): boolean {
  const callee = flow.callee(call);
  return callee !== null && LOG_CALLEE.test(callee.replace(/\s+/g, ""));
}

/** The value a return statement returns (null: a bare return). */
function returnedValue(statement: Node): Node | null {
  const value = namedChildren(statement)[0] ?? null;
  if (value?.type === "expression_list" || value?.type === "argument_list") return value.namedChildCount === 1 ? value.namedChild(0) : value;
  return value;
}

/** A node's constant value as normalised text: the language's own constants ({@link FlowSyntax.constant}), then plain literals. */
function constantText(node: Node | null | undefined, flow: FlowSyntax): string | null {
  if (!node) return null;
  return flow.constant?.(node) ?? literalText(node);
}

/**
 * What a catch body does with the error it caught (the rules of JS's
 * classifyCatch, over tree-sitter nodes). `isExpression`: the body is one
 * expression (a Rust match arm's value), not a block. `identifierTypes`:
 * the node types an argument passing the error on is spelled with.
 */
export function classifyCatchBody(body: Node | null, errorName: string | null, flow: FlowSyntax, isExpression = false, identifierTypes: readonly string[] = ["identifier"]): CatchBehaviour {
  const behaviour = classifyCatchBodyAsWritten(body, errorName, flow, isExpression, identifierTypes);
  if (body === null || (behaviour !== "swallows" && behaviour !== "returns_constant")) return behaviour;
  // A return from a handler in a finally would replace the failure itself; an implicit value (Ruby's nil) would not.
  if (behaviour === "returns_constant" && hasReturn(body, flow)) return behaviour;
  return isErrorPathHandler(body, flow) ? "handles" : behaviour;
}

/** True when a return statement is anywhere in `body`. */
function hasReturn(body: Node, flow: FlowSyntax): boolean {
  let found = false;
  walk(body, (_cursor, type) => {
    if (flow.returnTypes.has(type)) found = true;
    return found ? "skip" : "descend";
  });
  return found;
}

/** The try statement (or Ruby `begin`) a handler body belongs to, a few levels up, or null. */
function enclosingTry(handlerBody: Node): Node | null {
  let tryNode: Node | null = handlerBody.parent;
  for (let depth = 0; tryNode !== null && depth < 3 && !/try|^begin$/.test(tryNode.type); depth++) tryNode = tryNode.parent;
  return tryNode !== null && /try|^begin$/.test(tryNode.type) ? tryNode : null;
}

/** A statement that only asserts: Rust's assert macros, Python's `assert`, and assert-named calls (`console.assert`, `Debug.Assert`, `invariant`). */
const ASSERTION_STATEMENT = /^(?:(?:debug_)?assert(?:_eq|_ne)?!\s*[({[]|assert\b|(?:[\w.]+\.)?(?:assert|Assert|invariant)\s*\()/;

/**
 * True when `check` is the whole condition of an `if` with no else whose
 * branch holds nothing but assertions ({@link RunnerCheckFact.onlyAsserts}).
 */
function guardsOnlyAssertions(check: Node): boolean {
  let condition = check;
  while (condition.parent?.type === "parenthesized_expression" || condition.parent?.type === "condition_clause") condition = condition.parent;
  const branch = condition.parent;
  if (!branch || !/^if(_statement|_expression)?$/.test(branch.type) || branch.childForFieldName("condition")?.id !== condition.id) return false;
  if (branch.childForFieldName("alternative") !== null) return false;
  const body = branch.childForFieldName("consequence") ?? branch.childForFieldName("body");
  const statements = body ? body.namedChildren.filter((child): child is Node => child !== null && !isComment(child.type)) : [];
  return statements.length > 0 && statements.every((statement) => ASSERTION_STATEMENT.test(statement.text.trim()));
}

/** Clauses that run after a failure: a handler (catch/except/rescue) and a finally (finally/ensure). */
const HANDLER_CLAUSE = /^(catch_clause|except_clause|rescue|except_group_clause)$/;
const FINALLY_CLAUSE = /^(finally_clause|ensure)$/;
/** Nodes that start another function: the search for an enclosing clause stops there. */
const FUNCTION_BOUNDARY = /function|method|lambda|closure|constructor|^do_block$/;

/**
 * True when the try that `handlerBody` handles sits on an error path that
 * still fails: inside a catch/except/rescue clause that rethrows, or inside
 * a finally/ensure (which lets its try's outcome through). A handler there
 * that discards its error is best-effort cleanup (`try { delete(p); }
 * catch (Exception e) {}` in a finally): the failure the caller sees comes
 * from the enclosing try (JS: errorPathTries in javascript-source.ts).
 */
function isErrorPathHandler(handlerBody: Node, flow: FlowSyntax): boolean {
  const tryNode = enclosingTry(handlerBody);
  if (tryNode === null) return false;
  for (let node = tryNode.parent; node !== null; node = node.parent) {
    if (FINALLY_CLAUSE.test(node.type)) return true;
    if (HANDLER_CLAUSE.test(node.type)) {
      let rethrows = false;
      walk(node, (cursor, type) => {
        if (rethrows || cursor.currentNode.id === tryNode.id) return "skip";
        if (flow.throwTypes.has(type) || flow.isThrow?.(cursor.currentNode)) rethrows = true;
        return "descend";
      });
      return rethrows;
    }
    if (FUNCTION_BOUNDARY.test(node.type)) return false;
  }
  return false;
}

function classifyCatchBodyAsWritten(body: Node | null, errorName: string | null, flow: FlowSyntax, isExpression: boolean, identifierTypes: readonly string[]): CatchBehaviour {
  let hasThrow = false;
  let passesError = false;
  if (body) {
    walk(body, (cursor, type) => {
      if (isComment(type)) return "skip";
      if (flow.throwTypes.has(type)) {
        hasThrow = true;
        return "skip";
      }
      if (flow.isThrow || flow.callTypes.has(type) || flow.returnTypes.has(type)) {
        const node = cursor.currentNode;
        if (flow.isThrow?.(node)) {
          hasThrow = true;
          return "skip";
        }
        if (flow.returnTypes.has(type) && errorName !== null && returnedValue(node)?.text === errorName) passesError = true;
        if (flow.callTypes.has(type) && errorName !== null && !isLogCall(node, flow)) {
          const args = node.childForFieldName("arguments");
          const passes = args !== null && args.descendantsOfType([...identifierTypes]).some((id) => id?.text === errorName && id.parent?.type !== "attribute");
          if (passes && flow.callee(node) !== null) passesError = true;
        }
      }
      return "descend";
    });
  }
  if (hasThrow) return "rethrows";
  if (passesError) return "returns_error";
  const isValue = isExpression && body !== null && !isBlockLike(body);
  const statements = (isValue ? [body] : statementsOf(body, flow)).filter((statement) => {
    const call = statementCall(statement, flow);
    return !(call && isLogCall(call, flow));
  });
  // An empty handler of a loop's attempt lets the loop try the next candidate: the failure is handled by moving on.
  if (statements.length === 0) return body !== null && isLoopAttemptHandler(body, flow) ? "handles" : body !== null ? (fallThroughBehaviour(body, flow) ?? "swallows") : "swallows";
  if (statements.length === 1) {
    const only = unwrapReturn(statements[0] as Node, flow);
    if (flow.returnTypes.has(only.type)) {
      const value = returnedValue(only);
      if (value === null) return "swallows";
      if (constantText(value, flow) !== null) return "returns_constant";
    }
    if ((flow.implicitValue || isValue) && flow.isEmptyValue?.(only)) return "swallows";
    if ((flow.implicitValue || isValue) && constantText(only, flow) !== null) return "returns_constant";
    const value = flow.returnTypes.has(only.type) ? returnedValue(only) : flow.implicitValue || isValue ? (flow.expressionTypes?.has(only.type) ? only.namedChild(0) : only) : null;
    if (value && isDefaultReference(value.text)) return "returns_constant";
  }
  return "handles";
}

/** Loop statements of the tree-sitter grammars (for, for-each, while, until, do). */
const LOOP_TYPE = /^(for|while|until|foreach|for_each|enhanced_for|for_in|do|loop)(_statement|_expression)?$/;
/** Statement lists that may stand between a loop and a statement in its body. */
const BODY_TYPES: ReadonlySet<string> = new Set(["block", "compound_statement", "statement_block", "body_statement", "do"]);

/**
 * True when `handlerBody` belongs to a try statement that is an attempt of
 * a loop: the try is a statement of the loop's body and its block leaves the
 * loop on success (a return or an unlabelled break), so a handler that does
 * nothing moves on to the next candidate or retry (JS: attemptTries in
 * javascript-source.ts).
 */
function isLoopAttemptHandler(handlerBody: Node, flow: FlowSyntax): boolean {
  const tryNode = enclosingTry(handlerBody);
  if (tryNode === null) return false;
  let container = tryNode.parent;
  if (container !== null && BODY_TYPES.has(container.type)) container = container.parent;
  if (container === null || !LOOP_TYPE.test(container.type)) return false;
  const block = tryNode.childForFieldName("body") ?? tryNode.namedChildren.find((child) => child !== null && BODY_TYPES.has(child.type)) ?? null;
  if (block === null || block.id === handlerBody.id) return false;
  let leaves = false;
  walk(block, (cursor, type) => {
    if (leaves || LOOP_TYPE.test(type)) return "skip";
    if (flow.returnTypes.has(type) || type === "break_statement" || type === "break") leaves = true;
    return "descend";
  });
  return leaves;
}

/**
 * What an empty handler does when its try block returns on success and the
 * function goes on after the try statement: control falls through to that
 * code, the fallback the handler once held (`try: return int(s)` /
 * `except ValueError: pass` / `return float(s)`). The error is handled
 * there, not discarded: "handles"; when all that follows is one return of a
 * constant (`return None`), it is that constant, as if the handler returned
 * it: "returns_constant". Null when the handler is no such fall-through
 * (the try block does not end in a return, throws an error of its own that
 * the handler would discard, or nothing follows the try).
 * JS spells the same rule in javascript-source.ts (fallThroughBehaviour).
 */
function fallThroughBehaviour(handlerBody: Node, flow: FlowSyntax): CatchBehaviour | null {
  const tryNode = enclosingTry(handlerBody);
  if (tryNode === null) return null;
  const block = tryNode.childForFieldName("body") ?? tryNode.namedChildren.find((child) => child !== null && BODY_TYPES.has(child.type)) ?? null;
  if (block === null || block.id === handlerBody.id) return null;
  const last = statementsOf(block, flow)
    .filter((child) => !COMMENT_TYPES.has(child.type))
    .pop();
  if (last === undefined || !flow.returnTypes.has(unwrapReturn(last, flow).type)) return null;
  // A try block that throws itself (a guard wrapped in a new catch-all) has its own error discarded by the handler: no fall-through.
  let throws = false;
  walk(block, (cursor, type) => {
    if (flow.throwTypes.has(type) || flow.isThrow?.(cursor.currentNode)) throws = true;
    return throws ? "skip" : "descend";
  });
  if (throws) return null;
  const following: Node[] = [];
  for (let next = tryNode.nextNamedSibling; next !== null; next = next.nextNamedSibling) if (!COMMENT_TYPES.has(next.type) && !flow.noopTypes?.has(next.type)) following.push(next);
  if (following.length === 0) return null;
  if (following.length === 1) {
    const only = unwrapReturn(following[0] as Node, flow);
    if (flow.returnTypes.has(only.type)) {
      const value = returnedValue(only);
      if (value === null) return "swallows";
      if (constantText(value, flow) !== null || isDefaultReference(value.text)) return "returns_constant";
    }
  }
  return "handles";
}

/** True for a node that holds statements (a block), as opposed to one expression. */
const isBlockLike = (node: Node): boolean => node.type === "block" || node.type === "compound_statement" || node.type === "body_statement";

/** A return written as an expression statement (Rust's `return x;`), unwrapped to the return; any other statement as is. */
function unwrapReturn(statement: Node, flow: FlowSyntax): Node {
  if (!flow.expressionTypes?.has(statement.type)) return statement;
  const inner = statement.namedChild(0);
  return inner && flow.returnTypes.has(inner.type) ? inner : statement;
}

/** The literal a function body is reduced to (`return 42`, a lone docstring before it aside), or undefined. */
function constantReturnOf(body: Node | null, flow: FlowSyntax): string | undefined {
  let statements = statementsOf(body, flow);
  const first = statements[0];
  if (statements.length === 2 && first && flow.expressionTypes?.has(first.type) && first.namedChild(0)?.type === "string") statements = statements.slice(1); // a docstring
  if (statements.length !== 1) return undefined;
  const only = unwrapReturn(statements[0] as Node, flow);
  if (flow.returnTypes.has(only.type)) return constantText(returnedValue(only), flow) ?? undefined;
  if (flow.implicitValue) return constantText(only, flow) ?? undefined;
  return undefined;
}

/** Operators that compare for equality across the grammars. */
const EQUALITY_OPERATORS: ReadonlySet<string> = new Set(["==", "==="]);

/** Methods that compare for equality (`"x".equals(s)`, `s.Equals("x")`, `s.eql?("x")`). */
const EQUALITY_METHOD = /(^|[.:])(equals|Equals|equalsIgnoreCase|EqualsIgnoreCase|eql\?|equal\?)$/;

/** Node types of collections whose elements a membership test (`x in ("a", "b")`) compares with. */
const COLLECTION_TYPES: ReadonlySet<string> = new Set(["tuple", "list", "set", "array", "array_creation_expression"]);

/**
 * Literals a condition compares a value with, by equality: `n == 7`,
 * `7 === n` (one side a literal, the other not), `n in (1, 2)`,
 * `"x".equals(s)`, anywhere under `&&`/`||`/`and`/`or` and negations.
 */
export function comparedLiterals(condition: Node, flow: FlowSyntax): string[] {
  const found: string[] = [];
  walk(condition, (cursor, type) => {
    if (isComment(type)) return "skip";
    const node = cursor.currentNode;
    if (flow.callTypes.has(type)) {
      const callee = flow.callee(node)?.replace(/\s+/g, "") ?? "";
      if (EQUALITY_METHOD.test(callee)) {
        const receiver = node.childForFieldName("object") ?? node.childForFieldName("receiver") ?? node.childForFieldName("function")?.namedChild(0) ?? null;
        const args = node.childForFieldName("arguments");
        const sides = [receiver, ...(args ? namedChildren(args).map((arg) => (arg.type === "argument" ? arg.namedChild(0) : arg)) : [])];
        const literals = sides.map((side) => literalText(side)).filter((text): text is string => text !== null);
        if (literals.length === 1 && sides.length === 2) found.push(literals[0] as string);
      }
      return "skip";
    }
    for (let i = 1; i + 1 < node.childCount; i++) {
      const operator = node.child(i);
      if (!operator || operator.isNamed) continue;
      const left = node.child(i - 1);
      const right = node.child(i + 1);
      if (!left || !right) continue;
      if (EQUALITY_OPERATORS.has(operator.type)) {
        const a = literalText(left);
        const b = literalText(right);
        if (a !== null && b === null) found.push(a);
        else if (b !== null && a === null) found.push(b);
      } else if (operator.type === "in" && COLLECTION_TYPES.has(right.type)) {
        for (const element of namedChildren(right)) {
          const value = literalText(element);
          if (value !== null) found.push(value);
        }
      }
    }
    return "descend";
  });
  return found;
}

/** Node types that hold statements: a branch's block. */
const BLOCK_TYPES: ReadonlySet<string> = new Set(["block", "compound_statement", "then", "else", "body_statement", "block_body", "statement_block", "do_block", "switch_block_statement_group"]);

/** The literal a branch yields (see {@link BranchDraft.result}), or null. */
function branchResult(result: Node | readonly Node[] | null, flow: FlowSyntax): string | null {
  if (result === null) return null;
  if (Array.isArray(result)) {
    const statements = (result as readonly Node[]).filter((node) => !isComment(node.type) && !flow.noopTypes?.has(node.type) && node.type !== "break_statement");
    return statements.length === 1 ? branchResult(statements[0] as Node, flow) : null;
  }
  const node = unwrapReturn(result as Node, flow);
  if (flow.returnTypes.has(node.type)) return constantText(returnedValue(node), flow);
  if (BLOCK_TYPES.has(node.type)) return constantReturnOf(node, flow) ?? null;
  return constantText(node, flow);
}

/** Node types of a call or `new` whose arguments are all literals: a value built from literals ({@link LiteralBranchFact.constructed}). */
const CONSTRUCTION_TYPES: ReadonlySet<string> = new Set(["call", "call_expression", "invocation_expression", "object_creation_expression", "new_expression", "method_invocation"]);

/** The whitespace-free text of the value a branch yields when it is a call or `new` of literals only (`date(1900, 3, 1)`), else null. */
function constructedResult(result: Node | readonly Node[] | null, flow: FlowSyntax): string | null {
  if (result === null) return null;
  if (Array.isArray(result)) {
    const statements = (result as readonly Node[]).filter((node) => !isComment(node.type) && !flow.noopTypes?.has(node.type) && node.type !== "break_statement");
    return statements.length === 1 ? constructedResult(statements[0] as Node, flow) : null;
  }
  let node = unwrapReturn(result as Node, flow);
  if (BLOCK_TYPES.has(node.type)) return constructedResult(namedChildren(node), flow);
  if (flow.returnTypes.has(node.type)) {
    const value = returnedValue(node);
    if (!value) return null;
    node = value;
  }
  if (node.type === "expression_statement" && node.namedChildCount === 1) node = node.namedChild(0) ?? node;
  if (!CONSTRUCTION_TYPES.has(node.type)) return null;
  const args = node.childForFieldName("arguments") ?? namedChildren(node).find((child) => /argument/.test(child.type)) ?? null;
  const values = args ? namedChildren(args).map((arg) => (arg.type === "argument" && arg.namedChildCount === 1 ? (arg.namedChild(0) ?? arg) : arg)) : [];
  if (values.length === 0 || !values.every(isLiteral)) return null;
  const text = node.text.replace(/\s+/g, "");
  return text.length <= MAX_COMPUTED_TEXT ? text : null;
}

/**
 * The name a statement counts or toggles, or null: `x++`, `--x`, `x += 1`,
 * `x -= 1`, `x = x + 1`, `x = !x`, `x = not x` (the target's text: `calls`,
 * `solve.calls`, `$calls`, `self.n`).
 */
export function counterTarget(node: Node): string | null {
  const children: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (child) children.push(child);
  }
  const operatorIndex = children.findIndex((child) => !child.isNamed || child.type === "assignment_operator" || child.type === "operator");
  const operator = operatorIndex === -1 ? "" : (children[operatorIndex] as Node).text;
  const named = children.filter((child) => child.isNamed && child.type !== "assignment_operator" && child.type !== "operator");
  const compact = (part: Node | undefined): string => part?.text.replace(/\s+/g, "") ?? "";
  if (operator === "++" || operator === "--") return named.length === 1 ? compact(named[0]) : null;
  const [left, right] = named;
  if (!left || !right) return null;
  if (operator === "+=" || operator === "-=") return compact(left);
  if (operator !== "=") return null;
  const target = compact(left);
  const value = compact(right);
  const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^(!|not)\\(?${escaped}\\)?$|^\\(?${escaped}[+-]1\\)?$`).test(value) ? target : null;
}

/** A {@link LiteralBranchFact} from a draft, or null when it compares or yields no literal. */
function branchFact(draft: BranchDraft, flow: FlowSyntax, fn: string, identifierTypes: ReadonlySet<string>): LiteralBranchFact | null {
  const compared = draft.condition ? comparedLiterals(draft.condition, flow) : (draft.patterns ?? []).map((pattern) => literalText(pattern)).filter((text): text is string => text !== null);
  if (compared.length === 0) return null;
  const literal = branchResult(draft.result, flow);
  const constructed = literal === null ? constructedResult(draft.result, flow) : null;
  const returns = literal ?? constructed;
  if (returns === null) return null;
  const anchor = draft.condition ?? draft.patterns?.[0] ?? null;
  const fact: LiteralBranchFact = { line: (anchor?.startPosition.row ?? 0) + 1, kind: draft.kind, compared, returns, function: fn };
  if (constructed !== null) fact.constructed = true;
  if (draft.condition) fact.reads = namesIn(draft.condition, identifierTypes);
  return fact;
}

/**
 * The expression a branch yields when it yields one value (see
 * {@link BranchDraft.result}): a single return's value, a block's single
 * statement or its implicit value, or an expression; null for none (a bare
 * return, several statements, a block with no return).
 */
function branchValueNode(result: Node | readonly Node[] | null, flow: FlowSyntax): Node | null {
  if (result === null) return null;
  if (Array.isArray(result)) {
    const statements = (result as readonly Node[]).filter((node) => !isComment(node.type) && !flow.noopTypes?.has(node.type) && node.type !== "break_statement");
    return statements.length === 1 ? branchValueNode(statements[0] as Node, flow) : null;
  }
  const node = unwrapReturn(result as Node, flow);
  if (flow.returnTypes.has(node.type)) return returnedValue(node);
  if (BLOCK_TYPES.has(node.type)) {
    const statements = statementsOf(node, flow);
    if (statements.length !== 1) return null;
    const only = unwrapReturn(statements[0] as Node, flow);
    if (flow.returnTypes.has(only.type)) return returnedValue(only);
    if (!flow.implicitValue) return null;
    return flow.expressionTypes?.has(only.type) ? (only.namedChild(0) ?? only) : only;
  }
  return flow.expressionTypes?.has(node.type) ? (node.namedChild(0) ?? node) : node;
}

/** Longest source text kept for a computed branch value ({@link LiteralBranchFact.computed}). */
const MAX_COMPUTED_TEXT = 200;

/**
 * A branch that counts calls rather than naming an input (`if calls > 1:
 * return 3`, `return calls > 1 ? label(n + 1) : label(n)`): kept when its
 * condition reads a name, for the stateful-answer rule. A literal result is
 * kept as `returns`; any other single value as its compact text, marked
 * `computed`.
 */
function stateBranchFact(draft: BranchDraft, flow: FlowSyntax, fn: string, identifierTypes: ReadonlySet<string>): LiteralBranchFact | null {
  if (!draft.condition || draft.kind !== "branch") return null;
  const reads = namesIn(draft.condition, identifierTypes);
  if (reads.length === 0) return null;
  const line = draft.condition.startPosition.row + 1;
  const returns = branchResult(draft.result, flow);
  if (returns !== null) return { line, kind: "branch", compared: [], returns, function: fn, reads };
  const value = fn === "" ? null : branchValueNode(draft.result, flow);
  if (value === null) return null;
  return { line, kind: "branch", compared: [], returns: compactText(value).slice(0, MAX_COMPUTED_TEXT), function: fn, reads, computed: true };
}

/** The exit status of an escape draft as text: a literal's normalised text, a name's text, null for none. */
function escapeCode(code: Node | string | null | undefined, flow: FlowSyntax): string | null | undefined {
  if (code === undefined || code === null) return code;
  if (typeof code === "string") return code;
  const inner = code.type === "argument" && code.namedChildCount === 1 ? (code.namedChild(0) as Node) : code;
  return constantText(inner, flow) ?? (/^[\w.:\\]+$/.test(inner.text) ? inner.text : undefined);
}

/** Short names of program entry points: code in them may end the process. */
const ENTRY_FUNCTIONS: ReadonlySet<string> = new Set(["main", "Main", "__main__"]);

/** A scope open during the walk: a function (with its fact) or a container, and the depth it was entered at. */
interface Scope {
  depth: number;
  name: string;
  fact: FunctionFact | null;
  calls: Set<string> | null;
}

/** A subtree that is a program entry point or an exit hook, by the depth it was entered at. */
interface Region {
  depth: number;
  kind: "entry" | "hook";
}

/** Node types that end the search for an exit's conditions: its function, closure or class. */
const CONDITION_BOUNDARY = /function|method|lambda|closure|constructor|class|impl_item|^block_argument$|^do_block$|^program$|^source_file$|^module$/;

/** Node types that run a branch when their `condition` holds: `if`, `elif`/`elsif`/`else if`, the modifier forms, Ruby's `unless` (read as the negated condition). */
const BRANCH = /^(if|if_statement|if_expression|if_modifier|elif_clause|elsif|else_if_clause|unless|unless_modifier|guard_statement)$/;

/** Node types whose first named child is the value a branch runs for: Go/C#/Java/PHP `case`, Ruby `when`, Rust match arms, Python `case`. */
const CASE_CLAUSE = /^(expression_case|type_case|switch_section|switch_label|switch_block_statement_group|case_statement|case_clause|when|match_arm)$/;

/**
 * Compact texts of the conditions a node runs under within its function
 * (EscapeFact.conditions), innermost first: the `condition` field of an
 * enclosing `if`/`elif`/modifier ({@link BRANCH}; an `unless` as `!(…)`)
 * when the node is not in one of its `alternative` (elif, else) branches, the value of an enclosing case clause, and
 * the left operand of an `&&`/`and` whose right operand holds it. At most 8.
 */
function enclosingConditions(node: Node): string[] {
  const conditions: string[] = [];
  let child = node;
  for (let parent = node.parent; parent !== null && conditions.length < 8; child = parent, parent = parent.parent) {
    if (CONDITION_BOUNDARY.test(parent.type)) break;
    const condition = BRANCH.test(parent.type) ? parent.childForFieldName("condition") : null;
    if (condition !== null && condition.startIndex !== child.startIndex) {
      // Every alternative (Python's elif clauses and else are each one): a node in any of them is not under the condition.
      const isElse = parent.childrenForFieldName("alternative").some((alternative) => alternative !== null && child.startIndex >= alternative.startIndex && child.endIndex <= alternative.endIndex);
      const isInCondition = child.startIndex >= condition.startIndex && child.endIndex <= condition.endIndex;
      if (!isElse && !isInCondition) {
        const text = compactText(condition).slice(0, MAX_TEXT);
        conditions.push(parent.type.startsWith("unless") ? `!(${text})` : text);
      }
      continue;
    }
    if (CASE_CLAUSE.test(parent.type)) {
      const value = parent.namedChildren[0];
      if (value && value.startIndex !== child.startIndex) conditions.push(compactText(value).slice(0, MAX_TEXT));
      continue;
    }
    const operator = parent.childForFieldName("operator")?.type;
    const left = parent.childForFieldName("left");
    if ((operator === "&&" || operator === "and") && left !== null && left.startIndex !== child.startIndex) conditions.push(compactText(left).slice(0, MAX_TEXT));
  }
  return conditions;
}

/**
 * One walk of extractCodeFacts: the cursor, the node under it (made once,
 * and only when a handler of its type wants it: a Node crosses the wasm
 * boundary), the scopes and regions open there, and the facts collected so
 * far. `visit` runs the syntax table's handlers for one node; `facts`
 * assembles the result after the walk.
 */
class CodeFactWalk {
  private readonly suppressions: SuppressionFact[] = [];
  private readonly guards: GuardFact[] = [];
  private readonly constants: ConstantFact[] = [];
  private readonly unsignedOf = new Map<FunctionFact, Set<string>>();
  private readonly functions: FunctionFact[] = [];
  private readonly catches: CatchFact[] = [];
  private readonly catchCounts = new Map<string, number>();
  private readonly runnerChecks: RunnerCheckFact[] = [];
  private readonly literalBranches: LiteralBranchFact[] = [];
  private readonly escapes: EscapeFact[] = [];
  private readonly stateNames = new Set<string>();
  private readonly updatesOf = new Map<FunctionFact, Set<string>>();
  private readonly regions: Region[] = [];
  private readonly exports: ExportFact[] = [];
  private readonly schemas: SchemaFact[] = [];
  private readonly identifierTypes: string[];
  private readonly scopes: Scope[] = [];
  private depth = 0;
  private here: Node | null = null;

  constructor(
    private readonly syntax: CodeSyntax,
    private readonly context: CodeContext,
    private readonly cursor: TreeCursor,
  ) {
    this.identifierTypes = [...syntax.identifierTypes];
  }

  /** The node under the cursor, made on first use. */
  private node(): Node {
    return (this.here ??= this.cursor.currentNode);
  }

  private pathOf(name: string): string {
    return [...this.scopes.map((scope) => scope.name), name].join(".");
  }

  private currentFunction(): Scope | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) if ((this.scopes[i] as Scope).fact !== null) return this.scopes[i];
    return undefined;
  }

  private functionName(): string {
    return this.currentFunction()?.fact?.name ?? "";
  }

  /** Walks the whole tree in document order, skipping the subtrees `visit` says not to descend into. */
  run(): void {
    const cursor = this.cursor;
    for (;;) {
      this.leaveTo(this.depth);
      this.here = null;
      if (this.visit(cursor.nodeType) && cursor.gotoFirstChild()) {
        this.depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
        this.depth--;
      }
    }
  }

  /** Closes the scopes and regions entered at `depth` or deeper (their function facts get their sorted calls). */
  private leaveTo(depth: number): void {
    while (this.scopes.length > 0 && (this.scopes[this.scopes.length - 1] as Scope).depth >= depth) {
      const scope = this.scopes.pop() as Scope;
      if (scope.fact && scope.calls) scope.fact.calls = [...scope.calls].sort();
    }
    while (this.regions.length > 0 && (this.regions[this.regions.length - 1] as Region).depth >= depth) this.regions.pop();
  }

  /** Runs every handler of the syntax table for one node type; false when its subtree is not to be walked (test code, comments). */
  private visit(type: string): boolean {
    const syntax = this.syntax;
    if (syntax.testCode?.[type]?.(this.node())) return false;
    if (isComment(type)) {
      this.suppressions.push(...commentSuppressions(this.node(), syntax.comments));
      return false;
    }
    this.visitSuppression(type);
    this.visitGuards(type);
    this.visitValues(type);
    this.visitCatch(type);
    if (syntax.runnerChecks?.[type]?.(this.node())) {
      const fact: RunnerCheckFact = { line: this.node().startPosition.row + 1, text: compactText(this.node()).slice(0, MAX_TEXT) };
      if (guardsOnlyAssertions(this.node())) fact.onlyAsserts = true;
      this.runnerChecks.push(fact);
    }
    this.visitBranches(type);
    this.visitState(type);
    if (syntax.entryPoints?.[type]?.(this.node())) this.regions.push({ depth: this.depth, kind: "entry" });
    this.visitEscape(type);
    this.visitExports(type);
    const schema = syntax.schemas?.[type];
    if (schema) for (const draft of schema(this.node(), this.context)) this.schemas.push({ ...draft, key: this.pathOf(draft.key) });
    const call = syntax.calls?.[type];
    if (call) {
      const name = call(this.node());
      const owner = this.currentFunction();
      if (name && owner?.calls) owner.calls.add(name);
    }
    this.visitScope(type);
    return true;
  }

  private visitSuppression(type: string): void {
    const suppression = this.syntax.suppressions?.[type];
    if (!suppression) return;
    const node = this.node();
    const found = suppression(node, this.context);
    if (found) this.suppressions.push({ kind: found.kind, line: node.startPosition.row + 1, text: (found.text ?? compactText(node)).slice(0, MAX_TEXT) });
  }

  private visitGuards(type: string): void {
    const guard = this.syntax.guards?.[type];
    if (!guard) return;
    for (const draft of guard(this.node())) {
      const patterns = draft.patterns ?? [];
      const read = draft.guarded ?? [draft.condition];
      // A handler's guarded block can be long: its text is cut (its names are all kept).
      const subject = draft.guarded
        ? read
            .map((node) => compactText(node))
            .join(";")
            .slice(0, MAX_GUARDED_TEXT)
        : compactText(draft.condition);
      const condition = patterns.length > 0 ? `${subject} is ${patterns.map(compactText).join(" | ")}` : subject;
      const names = new Set<string>();
      for (const node of [...read, ...patterns]) for (const name of namesIn(node, this.syntax.identifierTypes)) names.add(name);
      const fact: GuardFact = {
        function: this.functionName(),
        line: draft.condition.startPosition.row + 1,
        condition: draft.isNullTest ? `${condition}==null` : draft.isNegated ? `!(${condition})` : condition,
        action: typeof draft.action === "string" ? draft.action : compactText(draft.action),
        names: [...names].sort(),
      };
      if (draft.guarded !== undefined) fact.handler = true;
      else {
        const rethrown = this.rethrownBy(fact.action);
        if (rethrown !== undefined) fact.rethrown = rethrown;
      }
      this.guards.push(fact);
    }
  }

  /**
   * When the current node sits in an error handler of its function and
   * `action` (a guard's exit, as {@link GuardFact.action} writes it) passes
   * that handler's error on, a bare `raise`/`throw` or the caught name
   * itself: what the handler catches ({@link GuardFact.rethrown}).
   */
  private rethrownBy(action: string): string | undefined {
    const catches = this.syntax.catches;
    if (!catches) return undefined;
    for (let node = this.node().parent; node !== null && !FUNCTION_BOUNDARY.test(node.type); node = node.parent) {
      if (!HANDLER_CLAUSE.test(node.type)) continue;
      const handler = catches[node.type]?.(node);
      if (!handler) return undefined;
      const isRethrow = action === "raise" || action === "throw" || action === "fail" || (handler.errorName !== null && action === handler.errorName);
      return isRethrow ? (handler.caught ?? "*") : undefined;
    }
    return undefined;
  }

  /** Boolean constants a node defines, and the unsigned parses of the enclosing function. */
  private visitValues(type: string): void {
    const constant = this.syntax.constants?.[type];
    // A constant local to a function is no build variant.
    if (constant && this.currentFunction() === undefined) {
      for (const { name, value } of constant(this.node())) {
        const text = literalText(value);
        if (text === "true" || text === "false") this.constants.push({ name, value: text, line: this.node().startPosition.row + 1 });
      }
    }
    const unsigned = this.syntax.unsignedValues?.[type];
    const owner = unsigned ? this.currentFunction()?.fact : undefined;
    if (!unsigned || !owner) return;
    const names = unsigned(this.node());
    if (names.length === 0) return;
    const known = this.unsignedOf.get(owner) ?? new Set<string>();
    for (const name of names) known.add(name);
    this.unsignedOf.set(owner, known);
  }

  /** A catch clause: its behaviour, and its index among the catches of its function (and subject), so a catch keeps its key when code moves. */
  private visitCatch(type: string): void {
    const catchClause = this.syntax.catches?.[type];
    const flow = this.syntax.flow;
    if (!catchClause || !flow) return;
    const node = this.node();
    const draft = catchClause(node);
    if (!draft) return;
    const fn = this.functionName();
    const countKey = draft.subject === undefined ? fn : `${fn}\u0000${draft.subject}`;
    const index = this.catchCounts.get(countKey) ?? 0;
    this.catchCounts.set(countKey, index + 1);
    const behaviour = draft.behaviour ?? classifyCatchBody(draft.body, draft.errorName, flow, draft.isExpression, this.identifierTypes);
    const fact: CatchFact = { function: fn, index, line: node.startPosition.row + 1, behaviour };
    if (draft.subject !== undefined) fact.subject = draft.subject;
    if (draft.caught !== undefined) fact.caught = draft.caught;
    if (draft.guarded) fact.guardedCalls = callsIn(draft.guarded, this.syntax);
    this.catches.push(fact);
  }

  private visitBranches(type: string): void {
    const branch = this.syntax.literalBranches?.[type];
    const flow = this.syntax.flow;
    if (!branch || !flow) return;
    const fn = this.functionName();
    const identifierTypes = this.syntax.identifierTypes;
    for (const draft of branch(this.node())) {
      const fact = branchFact(draft, flow, fn, identifierTypes) ?? (this.syntax.state ? stateBranchFact(draft, flow, fn, identifierTypes) : null);
      if (fact) this.literalBranches.push(fact);
    }
  }

  /** State declarations (module or class level) and the state names each function updates. */
  private visitState(type: string): void {
    const state = this.syntax.state;
    if (!state) return;
    const declares = state.declarations?.[type];
    if (declares) for (const name of declares(this.node(), this.currentFunction() === undefined)) this.stateNames.add(name);
    const update = state.updates?.[type];
    const owner = update ? this.currentFunction() : undefined;
    if (!update || !owner?.fact) return;
    const name = update(this.node());
    if (name) (this.updatesOf.get(owner.fact) ?? this.updatesOf.set(owner.fact, new Set()).get(owner.fact))?.add(name);
  }

  /** A process exit or exit hook; whether it sits in an entry point (a region or an entry function) or inside a hook. */
  private visitEscape(type: string): void {
    const escape = this.syntax.escapes?.[type];
    const flow = this.syntax.flow;
    if (!escape || !flow) return;
    const escaped = escape(this.node());
    if (!escaped) return;
    const node = this.node();
    const fact: EscapeFact = { line: node.startPosition.row + 1, kind: escaped.kind, function: this.functionName(), text: compactText(node).slice(0, MAX_TEXT) };
    const code = escapeCode(escaped.code, flow);
    if (code !== undefined) fact.code = code;
    const isEntry = this.regions.some((region) => region.kind === "entry") || this.scopes.some((scope) => scope.fact !== null && ENTRY_FUNCTIONS.has(scope.name));
    if (isEntry) fact.isEntryPoint = true;
    if (this.regions.some((region) => region.kind === "hook")) fact.isInHook = true;
    const conditions = enclosingConditions(node);
    if (conditions.length > 0) fact.conditions = conditions;
    this.escapes.push(fact);
    if (escaped.kind === "hook") this.regions.push({ depth: this.depth, kind: "hook" });
  }

  /** Top-level declarations only (depth 1): each export's line and the hash of its body. */
  private visitExports(type: string): void {
    const exported = this.depth === 1 ? this.syntax.exports?.[type] : undefined;
    if (!exported) return;
    const node = this.node();
    for (const { name, body, line, ownNames } of exported(node, this.context)) {
      const fact: ExportFact = { name, line: line ?? node.startPosition.row + 1 };
      if (body) fact.hash = declarationHash(body, ownNames);
      this.exports.push(fact);
    }
  }

  /** A function opens a scope with its fact (statement count, constant return); a container opens a named scope. */
  private visitScope(type: string): void {
    const fn = this.syntax.functions?.[type];
    if (!fn) {
      const container = this.syntax.containers?.[type];
      const name = container ? container(this.node()) : null;
      if (name) this.scopes.push({ depth: this.depth, name, fact: null, calls: null });
      return;
    }
    const node = this.node();
    const found = fn(node);
    if (!found) return;
    const fact: FunctionFact = {
      name: this.pathOf(found.name),
      line: node.startPosition.row + 1,
      statementCount: found.body ? found.body.namedChildren.filter((child) => child !== null && !isComment(child.type)).length : 0,
      calls: [],
      bodyHash: found.body ? hashText(compactText(found.body)).slice(0, 12) : "",
    };
    const constant = this.syntax.flow ? constantReturnOf(found.body, this.syntax.flow) : undefined;
    if (constant !== undefined) fact.constantReturn = constant;
    if (found.returnsError !== undefined) fact.returnsError = found.returnsError;
    const arity = arityOf(node);
    if (arity) fact.arity = arity;
    const parameterTypes = parameterTypesOf(node);
    if (parameterTypes) fact.parameterTypes = parameterTypes;
    const exit = found.body && this.syntax.fallthrough ? this.syntax.fallthrough(found.body) : null;
    if (exit !== null) {
      const line = typeof exit === "string" ? fact.line : exit.startPosition.row + 1;
      this.guards.push({ function: fact.name, line, condition: "", action: typeof exit === "string" ? exit : compactText(exit), names: [], fallthrough: true });
    }
    this.functions.push(fact);
    this.scopes.push({ depth: this.depth, name: found.name, fact, calls: new Set() });
  }

  /** The collected facts, with each kind present only when the syntax table looks for it. */
  facts(): CodeFacts {
    const { syntax, context } = this;
    this.leaveTo(0);
    const code: CodeFacts = { suppressions: this.suppressions };
    if (syntax.guards) code.guards = this.guards;
    if (syntax.constants) code.constants = this.constants;
    for (const [fact, names] of this.unsignedOf) fact.unsignedValues = [...names].sort();
    if (syntax.functions) code.functions = this.functions;
    if (syntax.catches) code.catches = this.catches;
    if (syntax.runnerChecks) code.runnerChecks = this.runnerChecks;
    if (syntax.literalBranches) code.literalBranches = this.literalBranches;
    for (const [fact, names] of this.updatesOf) {
      const own = fact.name.slice(fact.name.lastIndexOf(".") + 1);
      const state = [...names].filter((name) => this.stateNames.has(name) || name.startsWith(`${own}.`) || syntax.state?.isStateName?.(name) === true);
      if (state.length > 0) fact.stateUpdates = state.sort();
    }
    if (syntax.escapes) {
      if (this.escapes.length > 0 && syntax.isScript?.(context.content)) for (const fact of this.escapes) fact.isEntryPoint = true;
      code.escapes = this.escapes;
    }
    if (syntax.exports) code.exports = syntax.moduleExports ? syntax.moduleExports(context.root, this.exports, context) : this.exports;
    if (syntax.schemas) code.schemas = this.schemas;
    if (syntax.privateModules) code.privateModules = syntax.privateModules(context.root, context);
    return code;
  }
}

/**
 * The code facts of a parsed file, per the language's syntax table:
 * suppressions always, and guards and functions when the table has them.
 * Function names are paths through the enclosing containers and functions
 * (`Cart.add`, `outer.inner`); guards at module level belong to "". `path`
 * is the file's repository path, for tables that judge a file by its name
 * (`__main__.py`, `src/main.rs`, a `mod x;` file beside it).
 */
export function extractCodeFacts(root: Node, syntax: CodeSyntax, content: string, path = ""): CodeFacts {
  const cursor = root.walk();
  const walker = new CodeFactWalk(syntax, { content, path, root, memo: new Map() }, cursor);
  try {
    walker.run();
  } finally {
    cursor.delete();
  }
  const facts = walker.facts();
  if (syntax.imports && facts.imports === undefined) facts.imports = syntax.imports(root);
  return facts;
}
