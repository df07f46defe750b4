/**
 * Rust test suites written as a local `macro_rules!` whose expansion defines
 * `#[test]` fns with fixed names, invoked once per type or input at item
 * level (`mod vec_deque { buf_tests!(make_input); }`): cargo runs each
 * invocation's copies of the body's tests, `vec_deque::get_u8` and
 * `u8_slice::get_u8`, each with the macro's metavariables bound to the
 * invocation's arguments (tokio-rs/bytes' `buf_tests!`). The macro's body is
 * token trees to tree-sitter, so neither its tests nor their assertions are
 * seen until the invocation is expanded: {@link expandTestSuiteMacros}
 * writes each such invocation's expansion in its place, on the invocation's
 * own lines (every other line keeps its number), and the file is analysed
 * as that text.
 *
 * Expanded only where that is simple: a rule whose pattern is a sequence of
 * literal tokens and `$name:fragment` bindings (no repetitions, no nested
 * groups) that the invocation's tokens match, and whose body holds no
 * repetition, binds no unknown metavariable and has no string literal over
 * several lines. A macro whose tests are named by a metavariable (`fn
 * $name`) is the row generator rust.ts reads, and a macro defined in another
 * file is not expanded (its tests are not seen, as before).
 */

import { isComment, type LoadedGrammar, type Node, parseWithTreeSitter } from "../parsers/tree-sitter.js";

/** How many rounds of expansion at most: a suite's body may invoke another suite; a macro that invokes itself stops here. */
const MAX_ROUNDS = 3;

/** Fragments a binding matches one token tree of (`$t:tt`, `$i:ident`, `$b:block`). */
const ONE_TOKEN_FRAGMENTS = new Set(["ident", "tt", "lifetime", "block", "literal"]);

/** Tokens of an `expr` argument that bind looser than a method call: such an argument is substituted in parentheses, as the parser keeps it one expression. */
const LOOSE_OPERATORS = /^(?:[-+*/%^&|<>=!]=?|&&|\|\||<<|>>|\.\.=?|as|=>)$/;

/** One element of a macro rule's pattern: a literal token, or a metavariable binding with its fragment. */
type PatternElement = { kind: "literal"; text: string } | { kind: "binding"; name: string; fragment: string };

/** One rule of a suite macro: its pattern elements (null when the pattern is not a simple sequence) and its body token tree. */
interface SuiteRule {
  pattern: PatternElement[] | null;
  body: Node;
}

/** The children of a delimited token tree (or pattern) between its delimiters, without comments. */
function innerTokens(tree: Node): Node[] {
  const children = tree.children.filter((child): child is Node => child !== null);
  return children.slice(1, -1).filter((child) => !isComment(child));
}

/** A rule's pattern as a sequence of literals and bindings, or null when it repeats (`$(…)*`) or nests groups. */
function patternElements(pattern: Node): PatternElement[] | null {
  const elements: PatternElement[] = [];
  for (const token of innerTokens(pattern)) {
    if (token.type === "token_binding_pattern") {
      const name = token.namedChildren.find((child) => child?.type === "metavariable")?.text.slice(1);
      const fragment = token.namedChildren.find((child) => child?.type === "fragment_specifier")?.text;
      if (!name || !fragment) return null;
      elements.push({ kind: "binding", name, fragment });
    } else if (token.type === "token_repetition_pattern" || token.type === "token_tree_pattern") return null;
    else elements.push({ kind: "literal", text: token.text });
  }
  return elements;
}

/**
 * The names of the `#[test]` fns (also `#[tokio::test]`, other attributes
 * between) a body defines at any depth of its token trees: `fixed` for a
 * name written out, `generated` for one a metavariable gives.
 */
function testFunctionNames(body: Node): { fixed: number; generated: number } {
  const counts = { fixed: 0, generated: 0 };
  const scan = (tree: Node): void => {
    const tokens = tree.children.filter((child): child is Node => child !== null && !isComment(child));
    tokens.forEach((token, index) => {
      if (token.type === "token_tree" || token.type === "token_repetition") scan(token);
      if (token.type !== "#" || !/^\[(?:\w+::)*test\]$/.test(tokens[index + 1]?.text.replace(/\s+/g, "") ?? "")) return;
      let next = index + 2;
      while (tokens[next]?.type === "#" && tokens[next + 1]?.type === "token_tree") next += 2;
      while (/^(?:pub|async|unsafe|const)$/.test(tokens[next]?.text ?? "")) next += 1;
      if (tokens[next]?.type !== "fn") return;
      if (tokens[next + 1]?.type === "identifier") counts.fixed += 1;
      else if (tokens[next + 1]?.type === "metavariable") counts.generated += 1;
    });
  };
  scan(body);
  return counts;
}

/** The macros a body invokes (`name!(…)`, `$crate::name!(…)`), by their last path segment. */
function invokedMacros(body: Node): Set<string> {
  const names = new Set<string>();
  const scan = (tree: Node): void => {
    const tokens = tree.children.filter((child): child is Node => child !== null && !isComment(child));
    tokens.forEach((token, index) => {
      if (token.type === "token_tree" || token.type === "token_repetition") scan(token);
      else if (token.type === "identifier" && tokens[index + 1]?.type === "!") names.add(token.text);
    });
  };
  scan(body);
  return names;
}

/**
 * The file's local suite macros by name: a macro that defines tests of fixed
 * names (and none named by a metavariable), or whose body invokes such a
 * suite (`all_tests!` expanding to `reader_tests!($make)`).
 */
function suiteMacros(root: Node): Map<string, SuiteRule[]> {
  const macros = new Map<string, { rules: SuiteRule[]; fixed: number; generated: number; invokes: Set<string> }>();
  for (const definition of root.descendantsOfType("macro_definition")) {
    if (!definition) continue;
    const name = definition.namedChildren.find((child) => child?.type === "identifier")?.text;
    if (!name) continue;
    const macro = { rules: [] as SuiteRule[], fixed: 0, generated: 0, invokes: new Set<string>() };
    for (const rule of definition.namedChildren) {
      if (rule?.type !== "macro_rule") continue;
      const pattern = rule.namedChildren.find((child) => child?.type === "token_tree_pattern");
      const body = rule.namedChildren.find((child) => child?.type === "token_tree");
      if (!pattern || !body) continue;
      const names = testFunctionNames(body);
      macro.fixed += names.fixed;
      macro.generated += names.generated;
      for (const invoked of invokedMacros(body)) macro.invokes.add(invoked);
      macro.rules.push({ pattern: patternElements(pattern), body });
    }
    macros.set(name, macro);
  }
  const suites = new Map<string, SuiteRule[]>();
  for (const [name, macro] of macros) if (macro.fixed > 0 && macro.generated === 0) suites.set(name, macro.rules);
  for (let grown = true; grown;) {
    grown = false;
    for (const [name, macro] of macros) {
      if (suites.has(name) || macro.generated > 0 || ![...macro.invokes].some((invoked) => suites.has(invoked))) continue;
      suites.set(name, macro.rules);
      grown = true;
    }
  }
  return suites;
}

/**
 * The invocation's argument tokens bound to the rule's metavariables, or null
 * when they do not match the pattern: literals must be the same token, a
 * one-token fragment takes one token tree, any other fragment (`expr`, `ty`,
 * `path`) the tokens up to the pattern's next literal (or the end).
 */
function bindArguments(pattern: readonly PatternElement[], args: readonly Node[]): Map<string, { nodes: Node[]; fragment: string }> | null {
  const bindings = new Map<string, { nodes: Node[]; fragment: string }>();
  let at = 0;
  for (const [index, element] of pattern.entries()) {
    if (element.kind === "literal") {
      if (args[at]?.text !== element.text) return null;
      at += 1;
      continue;
    }
    let end: number;
    if (ONE_TOKEN_FRAGMENTS.has(element.fragment)) end = at + 1;
    else {
      const next = pattern[index + 1];
      if (next === undefined) end = args.length;
      else if (next.kind === "literal") end = args.findIndex((arg, position) => position >= at && arg.text === next.text);
      else return null;
    }
    if (end <= at || end > args.length) return null;
    bindings.set(element.name, { nodes: args.slice(at, end), fragment: element.fragment });
    at = end;
  }
  return at === args.length ? bindings : null;
}

/** True when a subtree holds a string literal written over several lines (its text cannot be put on one line unchanged). */
function hasMultilineString(node: Node): boolean {
  return node.descendantsOfType(["string_literal", "raw_string_literal"]).some((literal) => literal !== null && literal.text.includes("\n"));
}

/**
 * The source of `start`..`end` of `content` on one line: the node of each
 * of `edits` written as its text, line breaks made spaces.
 */
function oneLine(content: string, start: number, end: number, edits: readonly { node: Node; text: string }[]): string {
  let text = "";
  let at = start;
  for (const edit of [...edits].sort((a, b) => a.node.startIndex - b.node.startIndex)) {
    text += content.slice(at, edit.node.startIndex) + edit.text;
    at = edit.node.endIndex;
  }
  return (text + content.slice(at, end)).replace(/\r?\n|\r/g, " ");
}

/** The comments inside a node, as edits that blank them. */
function blankedComments(node: Node): { node: Node; text: string }[] {
  return node.descendantsOfType(["line_comment", "block_comment"]).flatMap((comment) => (comment ? [{ node: comment, text: " ".repeat(comment.text.length) }] : []));
}

/** The text an argument is substituted as: its tokens on one line, in parentheses when it is an expression of loose operators. */
function argumentText(content: string, binding: { nodes: Node[]; fragment: string }): string | null {
  const first = binding.nodes[0] as Node;
  const last = binding.nodes[binding.nodes.length - 1] as Node;
  if (binding.nodes.some(hasMultilineString)) return null;
  const text = oneLine(content, first.startIndex, last.endIndex, binding.nodes.flatMap(blankedComments)).trim();
  const isLoose = binding.fragment === "expr" && binding.nodes.slice(1).some((node) => LOOSE_OPERATORS.test(node.text));
  return isLoose ? `(${text})` : text;
}

/** The expansion of one rule's body with its bindings, on one line; null when the body is not simple to expand (see the module comment). */
function expandBody(content: string, body: Node, bindings: ReadonlyMap<string, { nodes: Node[]; fragment: string }>): string | null {
  if (body.descendantsOfType("token_repetition").some((node) => node !== null) || hasMultilineString(body)) return null;
  const edits = blankedComments(body);
  for (const variable of body.descendantsOfType("metavariable")) {
    if (!variable) continue;
    const name = variable.text.slice(1);
    if (name === "crate") {
      edits.push({ node: variable, text: "crate" });
      continue;
    }
    const binding = bindings.get(name);
    const text = binding ? argumentText(content, binding) : null;
    if (text === null) return null;
    edits.push({ node: variable, text });
  }
  const open = body.child(0);
  const close = body.child(body.childCount - 1);
  if (!open || !close) return null;
  return oneLine(content, open.endIndex, close.startIndex, edits).trim();
}

/** True when an invocation stands where an item does: at the top of the file or in a `mod`'s body (as a statement there too). */
function isAtItemLevel(invocation: Node): boolean {
  const parent = invocation.parent?.type === "expression_statement" ? invocation.parent.parent : invocation.parent;
  return parent?.type === "source_file" || parent?.type === "declaration_list";
}

/** One round: the invocations of the file's suite macros, each replaced by its expansion; null when there is none. */
function expandOnce(content: string, root: Node): string | null {
  const suites = suiteMacros(root);
  if (suites.size === 0) return null;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const invocation of root.descendantsOfType("macro_invocation")) {
    if (!invocation || !isAtItemLevel(invocation)) continue;
    const rules = suites.get((invocation.childForFieldName("macro")?.text ?? "").replace(/^.*::/, ""));
    const tree = invocation.namedChildren.find((child) => child?.type === "token_tree");
    if (!rules || !tree) continue;
    const args = innerTokens(tree);
    for (const rule of rules) {
      const bindings = rule.pattern ? bindArguments(rule.pattern, args) : null;
      const expansion = bindings ? expandBody(content, rule.body, bindings) : null;
      if (expansion === null) continue;
      // The expansion on the invocation's first line, its other lines kept empty: every line after keeps its number.
      edits.push({ start: invocation.startIndex, end: invocation.endIndex, text: expansion + "\n".repeat(invocation.endPosition.row - invocation.startPosition.row) });
      break;
    }
  }
  if (edits.length === 0) return null;
  let text = content;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}

/**
 * The file's text with every item-level invocation of a local test-suite
 * macro (a `macro_rules!` whose body defines `#[test]` fns of fixed names,
 * or invokes such a macro) replaced by its expansion, on the invocation's lines: the test fns of the
 * matching rule's body with the macro's metavariables bound to the
 * invocation's arguments. Null when there is nothing to expand (no such
 * macro, no invocation that is simple to expand, or text that does not
 * parse). See the module comment for what is expanded.
 */
export function expandTestSuiteMacros(content: string, grammar: LoadedGrammar): string | null {
  if (!content.includes("macro_rules!") || !/#\s*\[\s*(?:\w+\s*::\s*)*test\s*\]/.test(content)) return null;
  let text = content;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const parsed = parseWithTreeSitter(grammar, text);
    if (!parsed.ok) break;
    let expanded: string | null;
    try {
      expanded = expandOnce(text, parsed.tree.rootNode);
    } finally {
      parsed.tree.delete();
    }
    if (expanded === null) break;
    text = expanded;
  }
  return text === content ? null : text;
}
