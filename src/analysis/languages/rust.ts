/**
 * Rust: `#[test]` functions, `#[tokio::test]` and every other `*::test`
 * attribute, `#[rstest]` with `#[case(...)]` rows, `#[test_case(...)]`
 * rows, `#[ignore]`, `#[should_panic]`, and the assertion macros
 * (`assert!`, `assert_eq!`, `assert_ne!`, `debug_assert*!`,
 * `assert_matches!`), from tree-sitter-rust with grammars/rust/*.scm.
 * Test ids are the enclosing `mod` names and the function name.
 */

import {
  extractWithTreeSitter,
  hashNode,
  isComment,
  literalsOf,
  normalizedText,
  namedChildren,
  queryCaptures,
  stringValue,
  type AssertionDraft,
  type ExtractedDrafts,
  type LoadedGrammar,
  type Node,
  type TestDraft,
} from "../parsers/tree-sitter.js";
import { extractCodeFacts, type CodeSyntax } from "../parsers/tree-sitter-code.js";
import type { AssertionFact, FileFacts, NonTestFunctionFact } from "../facts.js";
import { isUnderTestDirectory, type LanguageModule } from "./language.js";

const LANGUAGE_ID = "rust";
const QUERIES = ["tests", "assertions"] as const;

/** Integration tests (`tests/`), `*_test.rs`, `tests.rs` and `test.rs` module files. */
export function isRustTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return isUnderTestDirectory(path) || /(^|_)tests?\.rs$/.test(name);
}

/** One attribute before a function: its path (`test`, `tokio::test`) and its argument/value nodes. */
interface Attribute {
  path: string;
  node: Node;
  /** `#[ignore = "why"]`: the value; `#[case(1, 2)]`: the token tree. */
  value: Node | null;
  args: Node | null;
}

/** The attribute items right before an item (comments between them allowed), in source order. */
function attributesBefore(item: Node): Attribute[] {
  const attributes: Attribute[] = [];
  for (let sibling = item.previousSibling; sibling; sibling = sibling.previousSibling) {
    if (isComment(sibling)) continue;
    if (sibling.type !== "attribute_item") break;
    const attribute = sibling.namedChildren.find((child) => child?.type === "attribute");
    if (!attribute) continue;
    const path = attribute.namedChild(0)?.text.replace(/\s+/g, "") ?? "";
    attributes.unshift({ path, node: sibling, value: attribute.childForFieldName("value"), args: attribute.childForFieldName("arguments") });
  }
  return attributes;
}

/** Attributes that make a function a test. */
function isTestAttribute(path: string): boolean {
  return path === "test" || path.endsWith("::test") || path === "rstest" || path === "test_case" || path === "wasm_bindgen_test" || path === "quickcheck";
}

/** The names of the `mod` items enclosing a node, outermost first. */
function modulePath(node: Node): string[] {
  const names: string[] = [];
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === "mod_item") names.unshift(parent.childForFieldName("name")?.text ?? "");
  }
  return names;
}

/** A macro's arguments split at top-level commas, each as its normalised text and its nodes. */
function macroArguments(invocation: Node): { text: string; nodes: Node[] }[] {
  const tree = invocation.namedChildren.find((child) => child?.type === "token_tree");
  if (!tree) return [];
  const args: { text: string; nodes: Node[] }[] = [];
  let current: Node[] = [];
  const children = tree.children.filter((child): child is Node => child !== null);
  for (const child of children.slice(1, -1)) {
    if (child.type === ",") {
      args.push({ text: current.map(normalizedText).join(" "), nodes: current });
      current = [];
    } else if (!isComment(child)) current.push(child);
  }
  if (current.length > 0) args.push({ text: current.map(normalizedText).join(" "), nodes: current });
  return args;
}

/** One assertion macro as an AssertionFact. */
function macroFact(invocation: Node, matcher: string, line: number): AssertionFact {
  const name = `${matcher}!`;
  const base = matcher.replace(/^(debug_)?(prop_)?/, "");
  const args = macroArguments(invocation);
  const [first, second] = args;
  if ((base === "assert_eq" || base === "assert_ne") && first && second) {
    const isSame = first.text === second.text;
    const fact: AssertionFact = { line, matcher: name, strength: base === "assert_eq" ? 3 : 2, tautology: false, actual: first.text, expected: second.text };
    if (base === "assert_ne") fact.negated = true;
    if (isSame && base === "assert_eq") {
      fact.strength = 0;
      fact.tautology = true;
    }
    return fact;
  }
  if (base === "assert_matches") return { line, matcher: name, strength: 2, tautology: false, ...(first ? { actual: first.text } : {}) };
  if (!first) return { line, matcher: name, strength: 1, tautology: false };
  if (first.text === "true") return { line, matcher: name, strength: 0, tautology: true, actual: "true" };
  // `assert!(a == b)`: the first top-level comparison operator of the argument's tokens.
  // Token trees split `==` into two `=` tokens, so the comparison is read from the source text.
  const [head, tail] = [first.nodes[0], first.nodes[first.nodes.length - 1]];
  const source = head && tail ? invocation.text.slice(head.startIndex - invocation.startIndex, tail.endIndex - invocation.startIndex) : "";
  const comparison = /^(.+?)\s*(==|!=|<=|>=)\s*(.+)$/s.exec(source.replace(/\s+/g, " "));
  if (comparison) {
    const [, actual, operator, expected] = comparison.map((part) => part.trim()) as [string, string, string, string];
    const strength = operator === "==" ? 3 : 2;
    const fact: AssertionFact = { line, matcher: `assert ${operator}`, strength, tautology: false, actual, expected };
    if (operator === "!=") fact.negated = true;
    if (actual === expected && operator === "==") {
      fact.strength = 0;
      fact.tautology = true;
    }
    return fact;
  }
  if (first.text.startsWith("!")) return { line, matcher: name, strength: 1, tautology: false, negated: true, actual: first.text };
  return { line, matcher: name, strength: 1, tautology: false, actual: first.text };
}

/**
 * Tests a local `macro_rules!` generates: a rule whose expansion holds
 * `#[test] fn $name` with `$name:ident` in its pattern makes one test per
 * `name` the file's invocations of that macro bind, found as an identifier
 * followed by what follows `$name:ident` in the pattern (`(…)`, `:`, `,`…).
 * E.g. `test! { u64_0(0u64, "0") u64_max(u64::MAX, "…") }` is two tests.
 * Rows are recognised at the top level of the invocation only; a macro from
 * another file or crate is not expanded (cargo counts those, ralph does not).
 */
function macroGeneratedTests(root: Node): TestDraft[] {
  const generators = new Map<string, string>();
  for (const definition of root.descendantsOfType("macro_definition").filter((node): node is Node => node !== null)) {
    const macroName = definition.namedChildren.find((child) => child?.type === "identifier")?.text;
    if (!macroName) continue;
    for (const rule of definition.namedChildren.filter((child): child is Node => child?.type === "macro_rule")) {
      const pattern = rule.namedChildren.find((child) => child?.type === "token_tree_pattern")?.text.replace(/\s+/g, "") ?? "";
      const expansion = rule.namedChildren.find((child) => child?.type === "token_tree")?.text.replace(/\s+/g, "") ?? "";
      const variable = /#\[(?:\w+::)*test\]fn\$(\w+)/.exec(expansion)?.[1];
      const follower = variable ? new RegExp(`\\$${variable}:ident(.)`).exec(pattern)?.[1] : undefined;
      if (follower) {
        generators.set(macroName, follower);
        break;
      }
    }
  }
  if (generators.size === 0) return [];
  const drafts: TestDraft[] = [];
  for (const invocation of root.descendantsOfType("macro_invocation").filter((node): node is Node => node !== null)) {
    const follower = generators.get(invocation.childForFieldName("macro")?.text ?? "");
    const tree = invocation.namedChildren.find((child) => child?.type === "token_tree");
    if (!follower || !tree) continue;
    const children = tree.children.filter((child): child is Node => child !== null);
    children.forEach((child, index) => {
      if (child.type !== "identifier") return;
      const next = children[index + 1];
      const isGroup = "([{".includes(follower);
      if (!next || (isGroup ? !(next.type === "token_tree" && next.text.startsWith(follower)) : next.text !== follower)) return;
      const row = isGroup ? next : child;
      drafts.push({ name: child.text, suitePath: modulePath(invocation), line: child.startPosition.row + 1, node: child, bodyHash: hashNode(row), marks: {}, literals: literalsOf(row), body: row });
    });
  }
  return drafts;
}

function extractRustDrafts(path: string, grammar: LoadedGrammar, root: Node, content: string): ExtractedDrafts {
  const tests: TestDraft[] = [];
  const nonTestFunctions: NonTestFunctionFact[] = [];
  const assertions: AssertionDraft[] = [];
  const frameworks = new Set<string>();
  const hasTestCode = isRustTestPath(path) || /#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]/.test(content);

  for (const match of queryCaptures(grammar, "tests", root)) {
    const definition = match.get("definition");
    const name = match.get("name")?.text;
    const body = match.get("body");
    if (!definition || !name || !body) continue;
    const attributes = attributesBefore(definition);
    const line = definition.startPosition.row + 1;
    const bodyHash = hashNode(body);
    const suitePath = modulePath(definition);
    const testAttribute = attributes.find((attribute) => isTestAttribute(attribute.path));
    if (!testAttribute) {
      if (hasTestCode || attributes.length > 0) nonTestFunctions.push({ name, suitePath, line, bodyHash });
      continue;
    }
    frameworks.add(testAttribute.path.includes("::") ? (testAttribute.path.split("::")[0] as string) : testAttribute.path);
    const draft: TestDraft = { name, suitePath, line, node: definition, bodyHash, marks: {}, literals: literalsOf(body), body };
    const ignore = attributes.find((attribute) => attribute.path === "ignore");
    if (ignore) {
      const reason = stringValue(ignore.value);
      draft.marks.skipped = reason === null ? { via: "#[ignore]" } : { via: "#[ignore]", reason };
    }
    const rows = attributes.filter((attribute) => attribute.path === "case" || attribute.path === "test_case" || attribute.path === "rstest::case");
    if (rows.length > 0) {
      draft.eachRows = rows.length;
      draft.eachRowHashes = rows.map((row) => (row.args ? hashNode(row.args).slice(0, 12) : ""));
      draft.eachRowLiterals = rows.map((row) => (row.args ? literalsOf(row.args) : []));
    }
    const shouldPanic = attributes.find((attribute) => attribute.path === "should_panic");
    if (shouldPanic) {
      const expected = shouldPanic.args ? literalsOf(shouldPanic.args)[0] : stringValue(shouldPanic.value) ?? undefined;
      const fact: AssertionDraft = { line: shouldPanic.node.startPosition.row + 1, matcher: "#[should_panic]", strength: expected ? 2 : 1, tautology: false, startIndex: definition.startIndex };
      if (expected) fact.expected = expected;
      assertions.push(fact);
    }
    tests.push(draft);
  }

  tests.push(...macroGeneratedTests(root));
  tests.sort((a, b) => a.node.startIndex - b.node.startIndex);

  for (const match of queryCaptures(grammar, "assertions", root)) {
    const node = match.get("assertion");
    const matcher = match.get("matcher")?.text;
    if (!node || !matcher) continue;
    assertions.push({ ...macroFact(node, matcher, node.startPosition.row + 1), startIndex: node.startIndex });
  }
  return { tests, assertions, skips: [], nonTestFunctions, frameworks: [...frameworks] };
}

/** A lint attribute that silences: `allow(...)`, also inside `cfg_attr(cond, allow(...))`. */
const RUST_ALLOW = /^#!?\[(?:cfg_attr\(.*,)?allow\(/;

/** The error a Rust block ends with: `return Err(...)`, a tail `Err(...)`, `panic!`/`bail!`/`unreachable!`, else null. */
function rustErrorExit(block: Node | null): Node | null {
  const last = block ? namedChildren(block).at(-1) : undefined;
  const expression = last?.type === "expression_statement" ? last.namedChild(0) : last;
  if (!expression) return null;
  const value = expression.type === "return_expression" ? expression.namedChild(0) : expression;
  if (value?.type === "call_expression" && /^(?:Result::)?Err$/.test(value.childForFieldName("function")?.text ?? "")) return value;
  if (value?.type === "macro_invocation" && /^(panic|bail|unreachable|unimplemented|todo)$/.test(value.childForFieldName("macro")?.text ?? "")) return value;
  return null;
}

/**
 * Rust's code facts (tree-sitter-code.ts): `#[allow(...)]` / `#![allow(...)]`
 * attributes (kind `allow`; tree-sitter-rust 0.20 reads an inner attribute on
 * a file's first line as a shebang, so that is checked too), `unsafe { ... }`
 * blocks (kind `unsafe`, text cut at 120 characters), functions
 * (`Type.method` inside an impl), and guards: an `if` whose block ends in
 * `return Err(...)`, a tail `Err(...)` or `panic!`/`bail!`, and the
 * `assert!`/`ensure!` family.
 */
const RUST_CODE: CodeSyntax = {
  comments: [],
  suppressions: {
    attribute_item: (node) => (RUST_ALLOW.test(node.text.replace(/\s+/g, "")) && !isRustTestItem(itemAfterAttributes(node)) ? { kind: "allow" } : null),
    inner_attribute_item: (node) => (RUST_ALLOW.test(node.text.replace(/\s+/g, "")) ? { kind: "allow" } : null),
    shebang: (node) => (RUST_ALLOW.test(node.text.replace(/\s+/g, "")) ? { kind: "allow", text: node.text.replace(/\s+/g, "") } : null),
    unsafe_block: () => ({ kind: "unsafe" }),
  },
  functions: {
    function_item: (node) => ({ name: node.childForFieldName("name")?.text ?? "<anonymous>", body: node.childForFieldName("body") }),
  },
  containers: {
    impl_item: (node) => node.childForFieldName("type")?.text.replace(/<.*$/s, "") ?? null,
    trait_item: (node) => node.childForFieldName("name")?.text ?? null,
    mod_item: (node) => node.childForFieldName("name")?.text ?? null,
  },
  calls: {
    call_expression: (node) => {
      const callee = node.childForFieldName("function");
      if (callee?.type === "identifier") return callee.text;
      if (callee?.type === "field_expression") return callee.childForFieldName("field")?.text ?? null;
      if (callee?.type === "scoped_identifier") return callee.childForFieldName("name")?.text ?? null;
      return null;
    },
  },
  guards: {
    if_expression: (node) => {
      const condition = node.childForFieldName("condition");
      const action = rustErrorExit(node.childForFieldName("consequence"));
      return condition && action ? [{ condition, action }] : [];
    },
    macro_invocation: (node) => {
      const name = node.childForFieldName("macro")?.text ?? "";
      if (!/^(assert|ensure|debug_assert)$/.test(name)) return [];
      const condition = node.namedChildren.find((child) => child?.type === "token_tree");
      return condition ? [{ condition, action: `${name}!` }] : [];
    },
  },
  identifierTypes: new Set(["identifier"]),
  testCode: {
    mod_item: (node) => isRustTestItem(node),
    function_item: (node) => isRustTestItem(node),
  },
};

/** The item an attribute belongs to: the next named sibling that is not another attribute. */
function itemAfterAttributes(node: Node): Node | null {
  let sibling = node.nextNamedSibling;
  while (sibling?.type === "attribute_item") sibling = sibling.nextNamedSibling;
  return sibling;
}

/** True for test code in a product file: a `#[cfg(test)]` (or `cfg(all(test, …))`) item, or a function with a test attribute ({@link isTestAttribute}). */
function isRustTestItem(node: Node | null): boolean {
  if (!node || (node.type !== "mod_item" && node.type !== "function_item")) return false;
  return attributesBefore(node).some((a) => isTestAttribute(a.path) || (a.path === "cfg" && /\btest\b/.test(a.args?.text ?? "")));
}

/** Facts of one Rust file (see the module comment). Never throws for bad content. */
export function extractRustFacts(path: string, content: string): Promise<FileFacts> {
  return extractWithTreeSitter(
    LANGUAGE_ID,
    QUERIES,
    isRustTestPath(path),
    content,
    (grammar, root) => extractRustDrafts(path, grammar, root, content),
    (root) => extractCodeFacts(root, RUST_CODE, content),
    true,
  );
}

/** The Rust language module: `.rs`, parsed with tree-sitter-rust. */
export const rust = {
  id: "rust" as const,
  extensions: [".rs"],
  isTestPath: isRustTestPath,
  extract: extractRustFacts,
} satisfies LanguageModule;
