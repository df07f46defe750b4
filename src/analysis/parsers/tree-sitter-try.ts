/**
 * `try` statements of a tree-sitter language as the language-neutral
 * {@link TryShape}s of analysis/checks/error-checks.ts, so an exception
 * check written by hand (a flag set in a handler and asserted after, or a
 * failure ending the guarded block) is read as the `throws` check it is.
 * Each language declares a {@link TrySyntax}: which nodes are `try`
 * statements, how their guarded block, handlers and `else` clause are read,
 * and which handler types catch the error its failure calls raise.
 */

import { RAISE_FAILURE, withTryErrorChecks, type FailureSyntax, type TryHandler, type TryShape, type TryStatement } from "../checks/error-checks.js";
import { compactText, namedChildren, type AssertionDraft, type Node } from "./tree-sitter.js";

/** The parts of one `try` node: its guarded statements, its handlers (with the types they name) and its `else` statements. */
export interface TryParts {
  body: readonly Node[];
  handlers: readonly { node: Node; types: readonly string[]; statements: readonly Node[] }[];
  orElse: readonly Node[];
  /** False when the node is a function body with handlers (Ruby's `def … rescue … end`): it has no statements before or after it. */
  hasSiblings?: boolean;
}

/** One language's `try` statements (see the module doc). */
export interface TrySyntax extends FailureSyntax {
  /** Node types that may be `try` statements. */
  readonly tryTypes: ReadonlySet<string>;
  /** The parts of a node of one of those types, or null when it holds no handler. */
  parts(node: Node): TryParts | null;
  /**
   * The error type a statement raises when it raises a new error (`raise
   * ValueError(x)`, `throw new AssertionError()`, Ruby's `raise "m"`: its
   * RuntimeError), or null for any other statement (a re-raise of what was
   * caught among them). Absent: the language's raises are not read as
   * failures ({@link raiseFailures}).
   */
  raisedType?(statement: Node): string | null;
}

/** Statement node types that declare or assign a value, and where the value is. */
function valueOf(statement: Node): Node | null {
  let node: Node | null = statement;
  if (node.type === "expression_statement") node = namedChildren(node).find((child) => child.type !== "comment") ?? null;
  if (!node) return null;
  if (node.type === "assignment" || node.type === "assignment_expression") return node.childForFieldName("right");
  if (node.type === "local_variable_declaration") return node.childForFieldName("declarator")?.childForFieldName("value") ?? null;
  if (node.type === "local_declaration_statement") {
    const declarator = node.descendantsOfType("variable_declarator")[0];
    const value = declarator ? namedChildren(declarator).at(-1) : undefined;
    if (!value || value.type === "identifier") return null;
    return value.type === "equals_value_clause" ? value.namedChild(0) : value;
  }
  return /statement|declaration|definition|block|clause|comment/.test(node.type) ? null : node;
}

/** A node as a {@link TryStatement}. */
function statementOf(node: Node): TryStatement {
  const statement: TryStatement = { start: node.startIndex, end: node.endIndex, text: node.text.replace(/\s+/g, " ").trim() };
  const value = valueOf(node);
  const code = value ? compactText(value) : undefined;
  if (code !== undefined) statement.code = code;
  return statement;
}

/**
 * The class an object creation names (`new E(…)` in Java, C# and PHP, a
 * Python or Ruby call of a capitalised name), or null when `node` is none.
 */
export function createdType(node: Node | null | undefined): string | null {
  if (!node) return null;
  if (node.type === "object_creation_expression") {
    const type = node.childForFieldName("type") ?? namedChildren(node).find((child) => /name|identifier|type/.test(child.type));
    return type ? type.text.replace(/\s+/g, "") : null;
  }
  const callee = node.type === "call" ? (node.childForFieldName("function") ?? node.childForFieldName("receiver")) : node;
  return callee && /^(?:[\w.]+\.|[\w:]+::)?[A-Z]\w*$/.test(callee.text) ? callee.text : null;
}

/** Named, non-comment children of a node, as statements. */
export function statementNodes(block: Node | null | undefined): Node[] {
  return block ? namedChildren(block).filter((child) => child.type !== "comment") : [];
}

/** One `try` statement of a file that has handlers: its node, its parts, and the statements of the block holding it. */
interface TryNode {
  node: Node;
  parts: TryParts;
  /** The statements of the enclosing block, the `try` among them at `index` (-1, and none, when it has no siblings). */
  siblings: Node[];
  index: number;
}

/** The `try` statements under `root` with handlers, read once for both {@link shapesOf} and {@link raiseFailures}. */
function tryNodes(root: Node, syntax: TrySyntax): TryNode[] {
  const nodes: TryNode[] = [];
  for (const node of root.descendantsOfType([...syntax.tryTypes])) {
    if (!node) continue;
    const parts = syntax.parts(node);
    if (!parts || parts.handlers.length === 0) continue;
    const siblings = parts.hasSiblings === false || !node.parent ? [] : statementNodes(node.parent);
    nodes.push({ node, parts, siblings, index: siblings.findIndex((sibling) => sibling.id === node.id) });
  }
  return nodes;
}

/** The `try` statements as the shapes analysis/checks/error-checks.ts reads. */
function shapesOf(nodes: readonly TryNode[]): TryShape[] {
  return nodes.map(({ parts, siblings, index }) => {
    const handlers: TryHandler[] = parts.handlers.map((handler) => ({
      types: handler.types,
      start: handler.node.startIndex,
      end: handler.node.endIndex,
      statements: handler.statements.map(statementOf),
    }));
    return {
      body: parts.body.map(statementOf),
      orElse: parts.orElse.map(statementOf),
      handlers,
      before: index === -1 ? [] : siblings.slice(0, index).map(statementOf),
      after: index === -1 ? [] : siblings.slice(index + 1).map(statementOf),
    };
  });
}

/** Assertion failures and base classes (a handler of a subclass never catches an instance of its base). */
const FAILURE_OR_BASE =
  /^(?:AssertionError|AssertionFailedError|AssertFailedException|XunitException|ExpectationFailedException|Exception|BaseException|Throwable|Error|StandardError|RuntimeException|RuntimeError)$/;

/** True when a `try` node lies inside another `try`'s guarded part, in the same function. */
function isInsideTry(node: Node, syntax: TrySyntax): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (/function|method|lambda|closure|^def$|^block_argument$|^do_block$/.test(parent.type)) return false;
    if (syntax.tryTypes.has(parent.type) && syntax.parts(parent)?.handlers.length) return true;
  }
  return false;
}

/**
 * The raises of a file that fail a test as an explicit failure does: a raise
 * of a new error ({@link TrySyntax.raisedType}) in a `try`'s `else` clause
 * (no handler of the `try` catches it), right after a `try` whose every
 * handler returns, or as the last guarded statement when it raises an
 * assertion failure or a base class ({@link FAILURE_OR_BASE}: a handler may
 * catch any other through a parent class), runs only when the guarded code
 * did not throw (`try: parse(s) except ParseError as e: return e else:
 * raise ValueError(s)`; `try { f(); throw new AssertionError(); } catch (E
 * e) {}`). A `try` inside another is not read: the outer one may catch
 * the raise. Each is a draft with the matcher {@link RAISE_FAILURE} and the
 * raised type as its expected value, unless an assertion already lies in
 * it.
 */
function raiseFailures(nodes: readonly TryNode[], syntax: TrySyntax, assertions: readonly AssertionDraft[]): AssertionDraft[] {
  const raisedType = syntax.raisedType?.bind(syntax);
  if (!raisedType) return [];
  const drafts: AssertionDraft[] = [];
  for (const { node, parts, siblings, index } of nodes) {
    const last = parts.body.at(-1);
    const next = index === -1 ? undefined : siblings[index + 1];
    const handlersReturn = parts.handlers.every((handler) => handler.statements.at(-1)?.type === "return_statement" || handler.statements.at(-1)?.type === "return");
    // An enclosing `try` may catch the raise (`except RuntimeError: pass` around it): then it fails nothing for sure.
    if (isInsideTry(node, syntax)) continue;
    const candidates = [...parts.orElse, ...(next && handlersReturn ? [next] : [])];
    // In the guarded block the handlers may catch the raise through a parent class (`raise KeyError` under `except
    // LookupError`), which is not known here: only a raise of a failure or base class no handler of a subclass catches counts.
    if (
      last &&
      FAILURE_OR_BASE.test(
        raisedType(last)
          ?.split(/[.:\\]+/)
          .pop() ?? "",
      )
    )
      candidates.push(last);
    for (const statement of candidates) {
      const type = raisedType(statement);
      if (type === null || assertions.some((draft) => draft.startIndex >= statement.startIndex && draft.startIndex < statement.endIndex)) continue;
      drafts.push({ line: statement.startPosition.row + 1, matcher: RAISE_FAILURE, expected: type, strength: 1, tautology: false, startIndex: statement.startIndex });
    }
  }
  return drafts;
}

/**
 * A file's assertion drafts with its hand-written exception checks read as
 * `throws` checks (analysis/checks/error-checks.ts); a raise that fails the
 * test when nothing was thrown ({@link raiseFailures}) is such a check's
 * failure, and only that: one that no `try` form reads is no assertion.
 */
export function withTryChecks(root: Node, assertions: readonly AssertionDraft[], syntax: TrySyntax): AssertionDraft[] {
  const nodes = tryNodes(root, syntax);
  if (nodes.length === 0) return [...assertions];
  const raises = raiseFailures(nodes, syntax, assertions);
  if (assertions.length === 0 && raises.length === 0) return [...assertions];
  const shapes = shapesOf(nodes);
  const placed = [...assertions, ...raises].sort((a, b) => a.startIndex - b.startIndex).map(({ startIndex, ...fact }) => ({ fact, start: startIndex }));
  return withTryErrorChecks(shapes, placed, syntax)
    .filter(({ fact }) => fact.matcher !== RAISE_FAILURE)
    .map(({ fact, start }) => ({ ...fact, startIndex: start }));
}
