/**
 * Code facts ({@link CodeFacts}) of the tree-sitter languages: suppressions,
 * guards and functions of non-test code, for the validation_bypass rule.
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
import type { CodeFacts, FunctionFact, GuardFact, SuppressionFact, SuppressionKind } from "../facts.js";

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

/** A guard found on a node: the condition, the error it raises/returns (a node or a normalised text), and whether it fires when the condition is false (`else` branch). */
export interface GuardDraft {
  condition: Node;
  action: Node | string;
  isNegated?: boolean;
}

/**
 * What one language's code looks like to the engine. Every handler is keyed
 * by node type, receives that node, and may return null for "not one".
 */
export interface CodeSyntax {
  /** Suppression comments, tried on every line of every comment node. */
  comments: readonly CommentSuppression[];
  /** Nodes that are suppressions themselves: attributes, annotations, directives, casts, `unsafe` blocks. */
  suppressions?: Readonly<Record<string, (node: Node, context: CodeContext) => NodeSuppression | null>>;
  /** Named function scopes: the node's name (null: not a named function, e.g. a lambda). Its body's statements are counted. */
  functions?: Readonly<Record<string, (node: Node) => { name: string; body: Node | null } | null>>;
  /** Named non-function scopes (classes, impls, modules): their name prefixes the functions inside (`Class.method`). */
  containers?: Readonly<Record<string, (node: Node) => string | null>>;
  /** Calls: the called function's last name (`a.b.c()` -> "c"), recorded on the enclosing function. */
  calls?: Readonly<Record<string, (node: Node) => string | null>>;
  /** Guards: an `if` that raises or returns an error, an `assert`, a precondition call. */
  guards?: Readonly<Record<string, (node: Node) => GuardDraft[]>>;
  /** Node types that are identifiers, for {@link GuardFact.names}. */
  identifierTypes: ReadonlySet<string>;
  /**
   * Test code inside a product file (Rust's `#[cfg(test)] mod tests`,
   * `#[test] fn`): a node for which the handler of its type returns true is
   * skipped with everything under it.
   */
  testCode?: Readonly<Record<string, (node: Node) => boolean>>;
}

/** What a handler may know about the file besides the node. */
export interface CodeContext {
  /** The whole file's text. */
  content: string;
}

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
  "string", "interpreted_string_literal", "raw_string_literal", "string_literal", "encapsed_string", "verbatim_string_literal", "character_literal", "char_literal",
]);

/** Depth-first visit of a subtree with one cursor; `enter` says whether to descend into each node, `leaf` sees entered nodes without children. */
function walk(node: Node, enter: (cursor: TreeCursor, type: string) => "skip" | "descend", leaf: (cursor: TreeCursor) => void = () => {}): void {
  const cursor = node.walk();
  let depth = 0;
  try {
    for (;;) {
      if (enter(cursor, cursor.nodeType) === "descend") {
        if (cursor.gotoFirstChild()) {
          depth++;
          continue;
        }
        leaf(cursor);
      }
      while (!cursor.gotoNextSibling()) {
        if (depth === 0 || !cursor.gotoParent()) return;
        depth--;
      }
      if (depth === 0) return;
    }
  } finally {
    cursor.delete();
  }
}

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
      const text = lineText.slice(index, end).replace(/\*+\/\s*$/, "").replace(/\s+/g, " ").trim().slice(0, MAX_TEXT);
      facts.push({ kind, line: firstLine + offset, text });
    });
  });
  return facts;
}

/** A scope open during the walk: a function (with its fact) or a container, and the depth it was entered at. */
interface Scope {
  depth: number;
  name: string;
  fact: FunctionFact | null;
  calls: Set<string> | null;
}

/**
 * The code facts of a parsed file, per the language's syntax table:
 * suppressions always, and guards and functions when the table has them.
 * Function names are paths through the enclosing containers and functions
 * (`Cart.add`, `outer.inner`); guards at module level belong to "".
 */
export function extractCodeFacts(root: Node, syntax: CodeSyntax, content: string): CodeFacts {
  const context: CodeContext = { content };
  const suppressions: SuppressionFact[] = [];
  const guards: GuardFact[] = [];
  const functions: FunctionFact[] = [];
  const scopes: Scope[] = [];
  const pathOf = (name: string): string => [...scopes.map((scope) => scope.name), name].join(".");
  const currentFunction = (): Scope | undefined => [...scopes].reverse().find((scope) => scope.fact !== null);

  const cursor = root.walk();
  let depth = 0;
  try {
    for (;;) {
      while (scopes.length > 0 && (scopes[scopes.length - 1] as Scope).depth >= depth) {
        const scope = scopes.pop() as Scope;
        if (scope.fact && scope.calls) scope.fact.calls = [...scope.calls].sort();
      }
      const type = cursor.nodeType;
      // A Node crosses the wasm boundary: made once, and only for node types some handler wants.
      let current: Node | null = null;
      const nodeHere = (): Node => (current ??= cursor.currentNode);
      let shouldDescend = true;
      const isTestCode = syntax.testCode?.[type];
      if (isTestCode?.(nodeHere())) {
        shouldDescend = false;
      } else if (isComment(type)) {
        suppressions.push(...commentSuppressions(nodeHere(), syntax.comments));
        shouldDescend = false;
      } else {
        const suppression = syntax.suppressions?.[type];
        if (suppression) {
          const node = nodeHere();
          const found = suppression(node, context);
          if (found) suppressions.push({ kind: found.kind, line: node.startPosition.row + 1, text: (found.text ?? compactText(node)).slice(0, MAX_TEXT) });
        }
        const guard = syntax.guards?.[type];
        if (guard) {
          const node = nodeHere();
          for (const draft of guard(node)) {
            const condition = compactText(draft.condition);
            guards.push({
              function: currentFunction()?.fact?.name ?? "",
              line: draft.condition.startPosition.row + 1,
              condition: draft.isNegated ? `!(${condition})` : condition,
              action: typeof draft.action === "string" ? draft.action : compactText(draft.action),
              names: namesIn(draft.condition, syntax.identifierTypes),
            });
          }
        }
        const call = syntax.calls?.[type];
        if (call) {
          const name = call(nodeHere());
          const owner = currentFunction();
          if (name && owner?.calls) owner.calls.add(name);
        }
        const fn = syntax.functions?.[type];
        const container = syntax.containers?.[type];
        if (fn) {
          const node = nodeHere();
          const found = fn(node);
          if (found) {
            const fact: FunctionFact = {
              name: pathOf(found.name),
              line: node.startPosition.row + 1,
              statementCount: found.body ? found.body.namedChildren.filter((child) => child !== null && !isComment(child.type)).length : 0,
              calls: [],
            };
            functions.push(fact);
            scopes.push({ depth, name: found.name, fact, calls: new Set() });
          }
        } else if (container) {
          const name = container(nodeHere());
          if (name) scopes.push({ depth, name, fact: null, calls: null });
        }
      }
      if (shouldDescend && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      let isDone = false;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          isDone = true;
          break;
        }
        depth--;
      }
      if (isDone) break;
    }
  } finally {
    cursor.delete();
  }
  for (const scope of scopes) if (scope.fact && scope.calls) scope.fact.calls = [...scope.calls].sort();
  const code: CodeFacts = { suppressions };
  if (syntax.guards) code.guards = guards;
  if (syntax.functions) code.functions = functions;
  return code;
}
