/**
 * `try` statements of a tree-sitter language as the language-neutral
 * {@link TryShape}s of analysis/checks/error-checks.ts, so an exception
 * check written by hand (a flag set in a handler and asserted after, or a
 * failure ending the guarded block) is read as the `throws` check it is.
 * Each language declares a {@link TrySyntax}: which nodes are `try`
 * statements, how their guarded block, handlers and `else` clause are read,
 * and which handler types catch the error its failure calls raise.
 */

import { withTryErrorChecks, type FailureSyntax, type TryHandler, type TryShape, type TryStatement } from "../checks/error-checks.js";
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

/** Named, non-comment children of a node, as statements. */
export function statementNodes(block: Node | null | undefined): Node[] {
  return block ? namedChildren(block).filter((child) => child.type !== "comment") : [];
}

/** The `try` statements of a file as shapes. */
export function tryShapes(root: Node, syntax: TrySyntax): TryShape[] {
  const shapes: TryShape[] = [];
  for (const node of root.descendantsOfType([...syntax.tryTypes])) {
    if (!node) continue;
    const parts = syntax.parts(node);
    if (!parts || parts.handlers.length === 0) continue;
    const siblings = parts.hasSiblings === false || !node.parent ? [] : statementNodes(node.parent);
    const index = siblings.findIndex((sibling) => sibling.id === node.id);
    const handlers: TryHandler[] = parts.handlers.map((handler) => ({
      types: handler.types,
      start: handler.node.startIndex,
      end: handler.node.endIndex,
      statements: handler.statements.map(statementOf),
    }));
    shapes.push({
      body: parts.body.map(statementOf),
      orElse: parts.orElse.map(statementOf),
      handlers,
      before: index === -1 ? [] : siblings.slice(0, index).map(statementOf),
      after: index === -1 ? [] : siblings.slice(index + 1).map(statementOf),
    });
  }
  return shapes;
}

/** A file's assertion drafts with its hand-written exception checks read as `throws` checks (analysis/checks/error-checks.ts). */
export function withTryChecks(root: Node, assertions: readonly AssertionDraft[], syntax: TrySyntax): AssertionDraft[] {
  if (assertions.length === 0) return [...assertions];
  const shapes = tryShapes(root, syntax);
  if (shapes.length === 0) return [...assertions];
  const placed = assertions.map(({ startIndex, ...fact }) => ({ fact, start: startIndex }));
  return withTryErrorChecks(shapes, placed, syntax).map(({ fact, start }) => ({ ...fact, startIndex: start }));
}
