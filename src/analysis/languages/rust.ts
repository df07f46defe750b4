/**
 * Rust: `#[test]` functions, `#[tokio::test]` and every other `*::test`
 * attribute, `#[rstest]` with `#[case(...)]` rows, `#[test_case(...)]`
 * rows, `#[ignore]`, `#[should_panic]`, and the assertion macros
 * (`assert!`, `assert_eq!`, `assert_ne!`, `debug_assert*!`,
 * `assert_matches!`), from tree-sitter-rust with grammars/rust/*.scm.
 * Test ids are the enclosing `mod` names and the function name.
 */

import {
  type AssertionDraft,
  type ExtractedDrafts,
  hashNode,
  isComment,
  literalsOf,
  type LoadedGrammar,
  loopTableRows,
  namedChildren,
  type Node,
  normalizedText,
  queryCaptures,
  stringValue,
  type TestDraft,
  withBoundActual,
} from "../parsers/tree-sitter.js";
import {
  compactText,
  counterTarget,
  literalText,
  type BranchDraft,
  type CatchDraft,
  type CodeContext,
  type CodeSyntax,
  type EscapeDraft,
  type ExportDraft,
  type FlowSyntax,
  type GuardDraft,
} from "../parsers/tree-sitter-code.js";
import type { AssertionFact, NonTestFunctionFact } from "../facts.js";
import { isUnderTestDirectory } from "./language.js";
import { cfgHoldsHere } from "../checks/skip-condition.js";
import { defineLanguage } from "./define-language.js";
import { RUST_SHADOWS } from "./shadow-tables.js";
import { expandTestSuiteMacros } from "./rust-suites.js";

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

/**
 * The predicate of a file's own `#![cfg(…)]` (an inner attribute at the
 * top of the file gates the whole module: The Rust Reference,
 * "Conditional compilation"), or null. tree-sitter-rust reads one on the
 * file's first line as a shebang; both forms are read.
 */
function fileCfgOf(root: Node): string | null {
  for (const child of namedChildren(root)) {
    if (child.type !== "inner_attribute_item" && child.type !== "shebang") continue;
    const predicate = /^#!\s*\[\s*cfg\s*\(([\s\S]*)\)\s*\]$/.exec(child.text.trim())?.[1];
    if (predicate !== undefined && predicate.trim() !== "test") return predicate.trim();
  }
  return null;
}

/**
 * A macro's arguments split at top-level commas, each as its normalised text
 * and its nodes. A macro's tokens are not parsed as expressions, so the
 * generic arguments of a turbofish (`SmallVec::<u32, 2>::new()`) are read
 * here: from `::<` to its closing `>` (`>>` closes two) a comma separates
 * generic arguments, not the macro's.
 */
function macroArguments(invocation: Node): { text: string; nodes: Node[] }[] {
  const tree = invocation.namedChildren.find((child) => child?.type === "token_tree");
  if (!tree) return [];
  const args: { text: string; nodes: Node[] }[] = [];
  let current: Node[] = [];
  let generics = 0;
  const children = tree.children.filter((child): child is Node => child !== null).slice(1, -1);
  for (const [index, child] of children.entries()) {
    if (child.type === "<" && (generics > 0 || children[index - 1]?.type === "::")) generics++;
    else if (generics > 0 && (child.type === ">" || child.type === ">>")) generics = Math.max(0, generics - child.type.length);
    if (child.type === "," && generics === 0) {
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
  const fileGate = fileCfgOf(root);

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
    // `#[allow(deprecated)]` on the test: it exercises deprecated API.
    if (attributes.some((attribute) => attribute.path === "allow" && /\bdeprecated\b/.test(attribute.args?.text ?? attribute.node.text))) draft.exercisesDeprecated = true;
    const ignore = attributes.find((attribute) => attribute.path === "ignore");
    if (ignore) {
      const reason = stringValue(ignore.value);
      draft.marks.skipped = reason === null ? { via: "#[ignore]" } : { via: "#[ignore]", reason };
    }
    // `#[cfg(any())]` compiles the test nowhere; `#[cfg(windows)]` only where the predicate holds (The Rust Reference, "Conditional compilation").
    const ownGate = attributes.find((attribute) => attribute.path === "cfg")?.args?.text.replace(/^\(\s*|\s*\)$/g, "");
    // A file gated whole (`#![cfg(exhaustive)]` at its top) compiles its tests under that predicate too.
    const compiledUnder = fileGate === null ? ownGate : ownGate === undefined ? fileGate : `all(${fileGate}, ${ownGate})`;
    if (compiledUnder !== undefined && !draft.marks.skipped) {
      if (cfgHoldsHere(compiledUnder, "anywhere") === false) draft.marks.skipped = { via: `#[cfg(${compiledUnder})]`, reason: "compiled in no configuration" };
      else if (cfgHoldsHere(compiledUnder) !== true) draft.marks.conditional = { via: `#[cfg(${compiledUnder})]`, condition: `cfg(not(${compiledUnder}))` };
    }
    // `#[cfg_attr(windows, ignore)]`: ignored only where the cfg holds.
    const conditionalIgnore = ignore ? undefined : attributes.find((attribute) => attribute.path === "cfg_attr" && /,\s*ignore\b/.test(attribute.args?.text ?? ""));
    if (conditionalIgnore) {
      const predicate = /^\(\s*([\s\S]*?)\s*,\s*ignore\b/.exec(conditionalIgnore.args?.text ?? "")?.[1];
      draft.marks.conditional = { via: `#[cfg_attr${conditionalIgnore.args?.text ?? "(…)"}]` };
      if (predicate) draft.marks.conditional.condition = `cfg(${predicate})`;
    }
    const rows = attributes.filter((attribute) => attribute.path === "case" || attribute.path === "test_case" || attribute.path === "rstest::case");
    if (rows.length > 0) {
      draft.eachRows = rows.length;
      draft.eachRowHashes = rows.map((row) => (row.args ? hashNode(row.args).slice(0, 12) : ""));
      draft.eachRowLiterals = rows.map((row) => (row.args ? literalsOf(row.args) : []));
    } else {
      // `for (input, want) in [(…), (…)] { assert_eq!(…) }`: the loop's checks run once per row of the table.
      const table = loopTableRows(body);
      if (table) draft.eachRowLiterals = table;
    }
    const shouldPanic = attributes.find((attribute) => attribute.path === "should_panic");
    if (shouldPanic) {
      const expected = shouldPanic.args ? literalsOf(shouldPanic.args)[0] : (stringValue(shouldPanic.value) ?? undefined);
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
    const fact = withBoundActual(macroFact(node, matcher, node.startPosition.row + 1), node);
    // Inside a closure run by `catch_unwind` whose result is thrown away, a failing assertion's panic is caught: it never fails.
    if (isUnwindDiscarded(node)) Object.assign(fact, { strength: 0, tautology: true });
    assertions.push({ ...fact, startIndex: node.startIndex });
  }
  return { tests, assertions, skips: [], nonTestFunctions, frameworks: [...frameworks] };
}

/** True when `call` is a call of `std::panic::catch_unwind` (any path to it). */
function isCatchUnwind(call: Node | null): call is Node {
  return call?.type === "call_expression" && /(?:^|::)catch_unwind$/.test(call.childForFieldName("function")?.text ?? "");
}

/**
 * True when an assertion runs inside a closure passed to `catch_unwind`
 * (directly, or wrapped in `AssertUnwindSafe(…)`) whose result nobody reads:
 * `let _ = catch_unwind(|| { assert_eq!(…) });`, `catch_unwind(…).ok();`,
 * or the call as a statement. The panic of a failing assertion is caught
 * and dropped, so the assertion can never fail the test (issue 9, class
 * assertion-error-caught). A result that is read (`assert!(r.is_err())`, a
 * test that the code panics) keeps the assertion as it is.
 */
function isUnwindDiscarded(assertion: Node): boolean {
  for (let node: Node | null = assertion.parent; node && node.type !== "function_item"; node = node.parent) {
    if (node.type !== "closure_expression") continue;
    let call = node.parent?.type === "arguments" ? node.parent.parent : null;
    if (call?.type === "call_expression" && /(?:^|::)AssertUnwindSafe$/.test(call.childForFieldName("function")?.text ?? "") && call.parent?.type === "arguments") call = call.parent.parent;
    if (!isCatchUnwind(call)) continue;
    let use: Node | null = call.parent;
    // `.ok()`, `.is_err()`, `.is_ok()` as a statement read nothing either.
    if (use?.type === "field_expression" && /^(?:ok|is_ok|is_err)$/.test(use.childForFieldName("field")?.text ?? "") && use.parent?.type === "call_expression") use = use.parent.parent;
    if (use?.type === "expression_statement") return true;
    if (use?.type === "let_declaration" && use.childForFieldName("pattern")?.text === "_") return true;
  }
  return false;
}

/** A lint attribute that silences: `allow(...)`, also inside `cfg_attr(cond, allow(...))`. */
const RUST_ALLOW = /^#!?\[(?:cfg_attr\(.*,)?allow\(/;

/** The error a Rust block ends with: `return Err(...)`, a tail `Err(...)`, `panic!`/`bail!`/`unreachable!`, else null. */
function rustErrorExit(block: Node | null): Node | null {
  const last = block ? namedChildren(block).at(-1) : undefined;
  const expression = last?.type === "expression_statement" ? last.namedChild(0) : last;
  return rustErrorValue(expression ?? null);
}

/** The error an expression ends the function with (`return Err(...)`, `Err(...)`, `panic!(...)`, a block ending in one), else null. */
function rustErrorValue(expression: Node | null): Node | null {
  if (!expression) return null;
  if (expression.type === "block") return rustErrorExit(expression);
  const value = expression.type === "return_expression" ? expression.namedChild(0) : expression;
  if (value?.type === "call_expression" && /^(?:Result::)?Err$/.test(value.childForFieldName("function")?.text ?? "")) return value;
  if (value?.type === "macro_invocation" && /^(?:(?:std|core|anyhow|eyre)::)?(panic|bail|unreachable|unimplemented|todo)$/.test(value.childForFieldName("macro")?.text ?? "")) return value;
  return null;
}

/**
 * `map.get(k).ok_or(E)?`, `.ok_or_else(|| E)?`: a `None` (a failed lookup)
 * turned into the error the function returns, as a handled lookup's exit
 * (GuardFact.handler) on the receiver, the action `Err(E)` as the `if
 * !map.contains_key(k) { return Err(E) }` it spells the other way.
 */
function rustOkOrGuard(node: Node): GuardDraft[] {
  const call = node.namedChild(0);
  const callee = call?.type === "call_expression" ? call.childForFieldName("function") : null;
  const method = callee?.type === "field_expression" ? callee.childForFieldName("field")?.text : undefined;
  const receiver = callee?.childForFieldName("value") ?? null;
  const argument = call?.childForFieldName("arguments")?.namedChild(0) ?? null;
  if (!receiver || !argument || (method !== "ok_or" && method !== "ok_or_else")) return [];
  let error: Node | null = argument;
  if (method === "ok_or_else") {
    const body = argument.type === "closure_expression" ? argument.childForFieldName("body") : null;
    const last = body?.type === "block" ? namedChildren(body).at(-1) : body;
    error = last?.type === "expression_statement" ? null : (last ?? null);
  }
  return error ? [{ condition: receiver, guarded: [receiver], action: `Err(${compactText(error)})` }] : [];
}

/**
 * The predicate a filtering iterator chain applies (`xs.iter().filter(|x| bad(x))` -> `bad(x)`,
 * `.filter(is_bad)` -> `is_bad`), through adapters after it (`.cloned()`, `.copied()`), or null.
 */
function filterPredicate(chain: Node | null): Node | null {
  let current = chain;
  while (current?.type === "call_expression") {
    const callee = current.childForFieldName("function");
    const method = callee?.type === "field_expression" ? callee.childForFieldName("field")?.text : undefined;
    if (method === "filter") {
      const argument = current.childForFieldName("arguments")?.namedChild(0) ?? null;
      return argument?.type === "closure_expression" ? argument.childForFieldName("body") : argument;
    }
    current = callee?.type === "field_expression" ? callee.childForFieldName("value") : null;
  }
  return null;
}

/** True when a block holds nothing but its exit, after `let` bindings at most (a loop guard's body: `{ return Err(..) }`). */
function isOnlyExit(block: Node): boolean {
  const statements = namedChildren(block).filter((child) => child.type !== "line_comment" && child.type !== "block_comment");
  return statements.length > 0 && statements.slice(0, -1).every((statement) => statement.type === "let_declaration");
}

/** Unsigned integer types: a parse into one rejects a negative input. */
const RUST_UNSIGNED = /^(u8|u16|u32|u64|u128|usize)$/;

/**
 * `let v: u64 = s.parse()?;`, `let v = s.parse::<u64>()?;`, `let v = u64::try_from(x)?;`,
 * `u64::from_str(s)?`, `.map_err(..)?` after any of them: `v` (FunctionFact.unsignedValues).
 * Without the `?` (`.unwrap_or(0)`) the rejection does not reach the caller.
 */
function rustUnsignedValues(node: Node): string[] {
  const pattern = node.childForFieldName("pattern");
  const value = node.childForFieldName("value");
  if (pattern?.type !== "identifier" || value?.type !== "try_expression") return [];
  const annotated = RUST_UNSIGNED.test(node.childForFieldName("type")?.text ?? "");
  let call = value.namedChild(0);
  // Through the error's adapters: `.map_err(..)`, anyhow's `.context(..)`.
  for (;;) {
    const callee = call?.type === "call_expression" ? call.childForFieldName("function") : null;
    const method = callee?.type === "field_expression" ? callee.childForFieldName("field")?.text : undefined;
    if (!method || !/^(map_err|context|with_context|wrap_err)$/.test(method)) break;
    call = callee?.childForFieldName("value") ?? null;
  }
  if (call?.type !== "call_expression") return [];
  const callee = call.childForFieldName("function");
  if (callee?.type === "scoped_identifier") {
    const isConversion = RUST_UNSIGNED.test(callee.childForFieldName("path")?.text ?? "") && /^(try_from|from_str|from_str_radix)$/.test(callee.childForFieldName("name")?.text ?? "");
    return isConversion ? [pattern.text] : [];
  }
  if (callee?.type === "generic_function") {
    const method = callee.childForFieldName("function");
    const name = method?.type === "field_expression" ? method.childForFieldName("field")?.text : undefined;
    return name === "parse" && RUST_UNSIGNED.test(callee.childForFieldName("type_arguments")?.namedChild(0)?.text ?? "") ? [pattern.text] : [];
  }
  const method = callee?.type === "field_expression" ? callee.childForFieldName("field")?.text : undefined;
  return annotated && (method === "parse" || method === "try_into") ? [pattern.text] : [];
}

/** `const X: bool = false;`, `static X: bool = true;` (each `#[cfg]` variant is its own item). */
function rustConstantItem(node: Node): { name: string; value: Node | null }[] {
  const name = node.childForFieldName("name")?.text;
  return name ? [{ name, value: node.childForFieldName("value") }] : [];
}

/** Macros that end the function with an error: a panic, anyhow's `bail!`. */
const RUST_ERROR_MACROS = /^(panic|bail|unreachable|unimplemented|todo)$/;

/** Logging macros (`log::warn!`, `tracing::error!`, `eprintln!`): spelled `log.<name>` for the engine's log-call test. */
const RUST_LOG_MACROS = /^(error|warn|info|debug|trace|eprintln|eprint|println|print|dbg)$/;

/** The last segment of a macro's path (`log::warn` -> "warn"). */
const macroName = (node: Node): string => (node.childForFieldName("macro")?.text ?? "").replace(/^.*::/, "");

/** True for `Err(...)` / `Result::Err(...)`: an error value, as good as a throw in a handler. */
const isErrCall = (node: Node): boolean => node.type === "call_expression" && /^(?:Result::)?Err$/.test(node.childForFieldName("function")?.text ?? "");

/**
 * Rust constants beyond literals: `Ok(())`, `Ok(true)`, `Some(3)`, `None`;
 * what a function collapsed to, or what an `Err` arm now returns instead of
 * the error.
 */
/** Methods that turn a `&str` literal into an owned `String` without changing its text. */
const OWNING_METHODS: ReadonlySet<string> = new Set(["to_string", "to_owned", "into"]);

/**
 * A literal, or an owned string made from one (`"x".to_string()`,
 * `"x".to_owned()`, `"x".into()`, `String::from("x")`): the literal's text,
 * since a test comparing with `"x"` sees the same value. Null otherwise.
 */
function rustLiteral(node: Node): string | null {
  const plain = literalText(node);
  if (plain !== null || node.type !== "call_expression") return plain;
  const callee = node.childForFieldName("function");
  const args = node.childForFieldName("arguments");
  if (!callee || !args) return null;
  if (callee.type === "field_expression" && args.namedChildCount === 0 && OWNING_METHODS.has(callee.childForFieldName("field")?.text ?? "")) {
    const receiver = callee.childForFieldName("value");
    return receiver?.type === "string_literal" || receiver?.type === "raw_string_literal" ? literalText(receiver) : null;
  }
  if (/^String\s*::\s*from$/.test(callee.text) && args.namedChildCount === 1) {
    const inner = args.namedChild(0) as Node;
    return inner.type === "string_literal" || inner.type === "raw_string_literal" ? literalText(inner) : null;
  }
  return null;
}

function rustConstant(node: Node): string | null {
  if (node.type === "identifier" && node.text === "None") return "None";
  if (node.type !== "call_expression") return null;
  const wrapper = node.childForFieldName("function")?.text;
  const args = node.childForFieldName("arguments");
  if ((wrapper !== "Ok" && wrapper !== "Some") || !args || args.namedChildCount !== 1) return rustLiteral(node);
  const inner = args.namedChild(0) as Node;
  const value = inner.type === "unit_expression" ? "()" : rustLiteral(inner);
  return value === null ? null : `${wrapper}(${value})`;
}

const RUST_FLOW: FlowSyntax = {
  throwTypes: new Set(["try_expression"]),
  isThrow: (node) => (node.type === "macro_invocation" && RUST_ERROR_MACROS.test(macroName(node))) || isErrCall(node),
  returnTypes: new Set(["return_expression"]),
  noopTypes: new Set(["empty_statement"]),
  expressionTypes: new Set(["expression_statement"]),
  callTypes: new Set(["call_expression", "macro_invocation"]),
  callee: (call) => {
    if (call.type !== "macro_invocation") return call.childForFieldName("function")?.text ?? null;
    const name = macroName(call);
    return RUST_LOG_MACROS.test(name) ? `log.${name}` : `${name}!`;
  },
  implicitValue: true,
  constant: rustConstant,
  isEmptyValue: (node) => node.type === "unit_expression",
};

/** Calls that only adapt a Result (`.map_err(f)`, `.context("…")`, `.await`): the fallible call is their receiver. */
const RESULT_ADAPTERS: ReadonlySet<string> = new Set(["map_err", "context", "with_context", "wrap_err", "wrap_err_with", "err_into", "into", "ok_or", "ok_or_else"]);

/** Methods that replace an error by a value (std `Result::unwrap_or_default`, `unwrap_or`, `unwrap_or_else`). */
const RESULT_DEFAULTS: ReadonlySet<string> = new Set(["unwrap_or_default", "unwrap_or", "unwrap_or_else"]);

/** Literal branches: an `if` whose block returns or yields a literal, a `match` arm of literal patterns with a literal value. */
const RUST_BRANCHES: Readonly<Record<string, (node: Node) => BranchDraft[]>> = {
  if_expression: (node) => {
    const condition = node.childForFieldName("condition");
    return condition?.type === "let_condition" ? [] : [{ kind: "branch", condition, result: node.childForFieldName("consequence") }];
  },
  match_arm: (node) => {
    const pattern = node.childForFieldName("pattern");
    const patterns = pattern ? namedChildren(pattern).flatMap((part) => (part.type === "or_pattern" ? namedChildren(part) : [part])) : [];
    return [{ kind: "branch", patterns, result: node.childForFieldName("value") }];
  },
};

/** Rust's ways out of a test run: `std::process::exit(0)`, `process::exit(0)`; a panic hook. */
function rustEscape(node: Node): EscapeDraft | null {
  const callee = node.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
  if (/^(std::)?process::exit$/.test(callee) || (callee === "exit" && /\buse\s+std::process::(exit|\{[^}]*\bexit\b)/.test(node.tree.rootNode.text))) {
    return { kind: "exit", code: node.childForFieldName("arguments")?.namedChild(0) ?? null };
  }
  return /^(std::)?panic::set_hook$/.test(callee) ? { kind: "hook" } : null;
}

/** The fallible expression under adapters: `fs::write(p).map_err(E)` -> `fs::write(p)`, `f().await` -> `f()`. */
function fallibleOf(node: Node): Node {
  let current = node;
  for (let depth = 0; depth < 20; depth++) {
    if (current.type === "await_expression" || current.type === "parenthesized_expression") {
      current = current.namedChild(0) ?? current;
      continue;
    }
    const callee = current.type === "call_expression" ? current.childForFieldName("function") : null;
    const method = callee?.type === "field_expression" ? callee.childForFieldName("field")?.text : undefined;
    const receiver = callee?.childForFieldName("value");
    if (!method || !RESULT_ADAPTERS.has(method) || !receiver) break;
    current = receiver;
  }
  return current;
}

/** What an error-handling site handles: the fallible call's callee (`fs::write`, `self.store.save`), or the expression itself (`result`). */
function subjectOf(node: Node): string {
  const fallible = fallibleOf(node);
  if (fallible.type === "macro_invocation") return `${compactText(fallible.childForFieldName("macro") ?? fallible)}!`; // writeln!(f, …)?
  const callee = fallible.type === "call_expression" ? fallible.childForFieldName("function") : null;
  return compactText(callee ?? fallible);
}

/** `Err(e)` / `Err(_)` / `Result::Err(..)`: the binding name (null for `_` or a nested pattern); undefined when the pattern is not an `Err`. */
function errBinding(pattern: Node | null): string | null | undefined {
  const inner = pattern?.type === "match_pattern" ? pattern.namedChild(0) : pattern;
  if (inner?.type !== "tuple_struct_pattern" || !/^(?:Result::)?Err$/.test(inner.childForFieldName("type")?.text ?? "")) return undefined;
  const bound = namedChildren(inner).slice(1);
  return bound.length === 1 && bound[0]?.type === "identifier" ? bound[0].text : null;
}

/** True for an `Ok(..)` pattern. */
function isOkPattern(pattern: Node | null): boolean {
  const inner = pattern?.type === "match_pattern" ? pattern.namedChild(0) : pattern;
  return inner?.type === "tuple_struct_pattern" && /^(?:Result::)?Ok$/.test(inner.childForFieldName("type")?.text ?? "");
}

/** A discarded call (`let _ = f();`, `_ = f();`): a swallowing site when the value is a call, not a propagated `?`. */
function discardedCall(value: Node | null): CatchDraft | null {
  const fallible = value ? fallibleOf(value) : null;
  if (fallible?.type !== "call_expression" && fallible?.type !== "macro_invocation") return null;
  return { body: null, errorName: null, subject: subjectOf(fallible), behaviour: "swallows" };
}

/**
 * Rust's error-handling sites as catch drafts (Rust has no catch blocks;
 * The Rust Book ch. 9.2 "Recoverable Errors with Result"): a `?` passes the
 * error on; `let _ = f();`, `_ = f();` and `f().ok();` discard it; a
 * `match` on `f()` with an `Err(..)` arm (or `Ok(..)` and `_`), `if let
 * Err(e) = f()`, `if let Ok(v) = f()` (its `else`, or nothing) and `let
 * Ok(v) = f() else {..}` handle it as their branch says. Each is keyed by
 * `f`'s callee, so `f()?` turned into `let _ = f();` pairs up.
 */
const RUST_CATCHES: Readonly<Record<string, (node: Node) => CatchDraft | null>> = {
  call_expression: (node) => {
    // `f().unwrap_or_default()`, `f().unwrap_or(x)`, `f().unwrap_or_else(|_| x)`: the error is replaced by a value.
    const callee = node.childForFieldName("function");
    const method = callee?.type === "field_expression" ? callee.childForFieldName("field")?.text : undefined;
    const receiver = callee?.childForFieldName("value");
    if (!method || !receiver || !RESULT_DEFAULTS.has(method)) return null;
    const fallible = fallibleOf(receiver);
    if (fallible.type !== "call_expression" && fallible.type !== "macro_invocation") return null;
    return { body: null, errorName: null, subject: subjectOf(receiver), behaviour: method === "unwrap_or_default" ? "swallows" : "returns_constant" };
  },
  try_expression: (node) => {
    const operand = node.namedChild(0);
    return operand ? { body: null, errorName: null, subject: subjectOf(operand), behaviour: "rethrows" } : null;
  },
  let_declaration: (node) => {
    const pattern = node.childForFieldName("pattern");
    const value = node.childForFieldName("value");
    if (!value) return null;
    if (pattern?.text === "_") return discardedCall(value);
    const alternative = node.childForFieldName("alternative");
    return alternative && isOkPattern(pattern) ? { body: alternative, errorName: null, subject: subjectOf(value) } : null;
  },
  expression_statement: (node) => {
    const expression = node.namedChild(0);
    if (expression?.type === "assignment_expression" && expression.childForFieldName("left")?.text === "_") return discardedCall(expression.childForFieldName("right"));
    const callee = expression?.type === "call_expression" ? expression.childForFieldName("function") : null;
    const receiver = callee?.type === "field_expression" && callee.childForFieldName("field")?.text === "ok" ? callee.childForFieldName("value") : null;
    if (!receiver || (expression?.childForFieldName("arguments")?.namedChildCount ?? 0) > 0) return null;
    return { body: null, errorName: null, subject: subjectOf(receiver), behaviour: "swallows" };
  },
  match_expression: (node) => {
    const value = node.childForFieldName("value");
    const arms = node.childForFieldName("body")?.namedChildren.filter((arm): arm is Node => arm?.type === "match_arm") ?? [];
    if (!value) return null;
    for (const arm of arms) {
      const errorName = errBinding(arm.childForFieldName("pattern"));
      if (errorName !== undefined) return { body: arm.childForFieldName("value"), errorName, subject: subjectOf(value), isExpression: true };
    }
    const hasOk = arms.some((arm) => isOkPattern(arm.childForFieldName("pattern")));
    const wildcard = arms.find((arm) => arm.childForFieldName("pattern")?.text === "_");
    return hasOk && wildcard ? { body: wildcard.childForFieldName("value"), errorName: null, subject: subjectOf(value), isExpression: true } : null;
  },
  if_expression: (node) => {
    const condition = node.childForFieldName("condition");
    if (condition?.type !== "let_condition") return null;
    const pattern = condition.childForFieldName("pattern");
    const value = condition.childForFieldName("value");
    if (!value) return null;
    const errorName = errBinding(pattern);
    if (errorName !== undefined) return { body: node.childForFieldName("consequence"), errorName, subject: subjectOf(value) };
    if (!isOkPattern(pattern)) return null;
    const otherwise = node.childForFieldName("alternative");
    const elseBlock = otherwise ? (namedChildren(otherwise).find((child) => child.type === "block") ?? null) : null;
    if (otherwise && !elseBlock) return null; // `else if …`: too far from one handler
    return { body: elseBlock, errorName: null, subject: subjectOf(value) };
  },
};

/** True for a bare `pub` (public outside the crate); `pub(crate)`, `pub(super)`, `pub(in …)` are not. */
function isPub(item: Node): boolean {
  return namedChildren(item).some((child) => child.type === "visibility_modifier" && child.text.replace(/\s+/g, "") === "pub");
}

/** Items whose `pub` puts a name in the crate's API. */
const RUST_API_ITEMS: ReadonlySet<string> = new Set(["function_item", "struct_item", "enum_item", "trait_item", "type_item", "union_item"]);

/** Files of a binary target or build script, whose `pub` items nobody imports: `main.rs`, `build.rs`, `src/bin/`, `examples/`, `benches/`. */
const RUST_BINARY_PATH = /(^|\/)(main|build)\.rs$|(^|\/)(src\/bin|examples|benches)\//;

/** The item's body, hashed for rename detection (a function's block, a struct's fields). */
const itemBody = (item: Node): Node | null => item.childForFieldName("body") ?? item.childForFieldName("type") ?? null;

/**
 * The public API one top-level item declares (The Rust Reference,
 * "Visibility and privacy"): `pub fn/struct/enum/trait/type/union`, the
 * `pub fn`s of an inherent `impl` of a type not declared private in this
 * file (`Store::load`), and the same inside an inline `pub mod` (`m::f`).
 * Nothing in a `#[cfg(test)]` item or a binary target's file.
 */
function rustExports(node: Node, context: CodeContext, prefix = ""): ExportDraft[] {
  if (RUST_BINARY_PATH.test(context.path) || isRustTestItem(node)) return [];
  const line = node.startPosition.row + 1;
  if (RUST_API_ITEMS.has(node.type)) {
    const name = node.childForFieldName("name")?.text;
    return name && isPub(node) ? [{ name: `${prefix}${name}`, body: itemBody(node), line, ownNames: [name] }] : [];
  }
  if (node.type === "use_declaration") {
    return isPub(node) ? useNames(node.childForFieldName("argument")).map((name) => ({ name: `${prefix}${name}`, body: null, line })) : [];
  }
  if (node.type === "mod_item" && isPub(node)) {
    const name = node.childForFieldName("name")?.text;
    const body = node.childForFieldName("body");
    return name && body ? namedChildren(body).flatMap((child) => rustExports(child, context, `${prefix}${name}::`)) : [];
  }
  if (node.type === "impl_item" && !node.childForFieldName("trait")) {
    const typeName = node.childForFieldName("type")?.text.replace(/<.*$/s, "");
    if (!typeName || isPrivateTypeHere(node.parent, typeName)) return [];
    const body = node.childForFieldName("body");
    return (body ? namedChildren(body) : []).flatMap((item) => {
      const name = item.type === "function_item" && isPub(item) ? item.childForFieldName("name")?.text : undefined;
      return name ? [{ name: `${prefix}${typeName}::${name}`, body: item.childForFieldName("body"), line: item.startPosition.row + 1, ownNames: [typeName] }] : [];
    });
  }
  return [];
}

/** The names a `pub use` re-exports (`pub use a::{x, y as z}` -> x, z); a glob re-exports nothing nameable. */
function useNames(argument: Node | null): string[] {
  if (!argument) return [];
  switch (argument.type) {
    case "identifier":
      return [argument.text];
    case "scoped_identifier":
      return [argument.childForFieldName("name")?.text ?? ""].filter((name) => name !== "" && name !== "self");
    case "use_as_clause":
      return [argument.childForFieldName("alias")?.text ?? ""].filter((name) => name !== "" && name !== "_");
    case "scoped_use_list":
      return useNames(argument.childForFieldName("list"));
    case "use_list":
      return namedChildren(argument).flatMap(useNames);
    default:
      return [];
  }
}

/**
 * The files a Rust module declares as private children (The Rust
 * Reference, "Modules": `mod x;` in `lib.rs`, `main.rs` or `mod.rs` is
 * `x.rs` or `x/mod.rs` beside it; in `foo.rs`, under `foo/`; a `#[path]`
 * attribute names the file).
 */
function rustPrivateModules(root: Node, context: CodeContext): string[] {
  const slash = context.path.lastIndexOf("/");
  const dir = slash === -1 ? "" : context.path.slice(0, slash + 1);
  const file = context.path.slice(slash + 1);
  const base = /^(lib|main|mod)\.rs$/.test(file) ? dir : `${dir}${file.replace(/\.rs$/, "")}/`;
  return namedChildren(root).flatMap((item) => {
    const name = item.type === "mod_item" && !item.childForFieldName("body") && !isPub(item) ? item.childForFieldName("name")?.text : undefined;
    if (!name) return [];
    const pathAttribute = attributesBefore(item).find((attribute) => attribute.path === "path")?.value;
    const explicit = pathAttribute ? stringValue(pathAttribute) : null;
    return explicit !== null ? [`${dir}${explicit}`] : [`${base}${name}.rs`, `${base}${name}/mod.rs`];
  });
}

/** True when `scope` declares a type of that name without a bare `pub`: its methods are not API whatever their visibility. */
function isPrivateTypeHere(scope: Node | null, typeName: string): boolean {
  return (scope ? namedChildren(scope) : []).some((item) => RUST_API_ITEMS.has(item.type) && item.type !== "function_item" && item.childForFieldName("name")?.text === typeName && !isPub(item));
}

/** True when a node sits in the body of an `unsafe fn` (through closures and blocks, not through a nested `fn`). */
function isInsideUnsafeFn(node: Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === "function_item") return namedChildren(current).some((child) => child.type === "function_modifiers" && /\bunsafe\b/.test(child.text));
  }
  return false;
}

/**
 * Rust's code facts (tree-sitter-code.ts): `#[allow(...)]` / `#![allow(...)]`
 * attributes (kind `allow`; tree-sitter-rust 0.20 reads an inner attribute on
 * a file's first line as a shebang, so that is checked too), `unsafe { ... }`
 * blocks outside an `unsafe fn` (kind `unsafe`, text cut at 120 characters), functions
 * (`Type.method` inside an impl) with their constant result (`true`,
 * `Ok(())`, `None`), guards: an `if` whose block ends in `return Err(...)`,
 * a tail `Err(...)` or `panic!`/`bail!`, a `match` whose `None` arm (or
 * another arm but a catch-all or `Err`) or a let-else whose `else` exits so,
 * a `for` over `.filter(…)` that exits so, a function's fall-through error,
 * and the `assert!`/`ensure!` family; unsigned parses propagated with `?`
 * and boolean `const`/`static` items; error-handling sites as catches ({@link RUST_CATCHES}); the
 * public API ({@link rustExports}) and the private child modules
 * ({@link rustPrivateModules}).
 */
/**
 * A check of the test build in product code: `#[cfg(not(test))]` on an item
 * (the item has another definition, or none, where the tests compile: a
 * `#[cfg(test)]` twin answers the tests apart) and the `cfg!(test)` macro
 * (a branch on the test build). `#[cfg(test)]` alone marks test-only
 * helpers and modules and is no check.
 */
function isRustRunnerCfg(node: Node): boolean {
  const text = node.text.replace(/\s+/g, "");
  if (node.type === "macro_invocation") return /^cfg!\((?:not\()?test\)?\)$/.test(text);
  return /^#\[cfg\((?:all\([^\]]*)?not\(test\)/.test(text);
}

const RUST_CODE: CodeSyntax = {
  comments: [],
  runnerChecks: { attribute_item: isRustRunnerCfg, macro_invocation: isRustRunnerCfg },
  suppressions: {
    attribute_item: (node) => (RUST_ALLOW.test(node.text.replace(/\s+/g, "")) && !isRustTestItem(itemAfterAttributes(node)) ? { kind: "allow" } : null),
    inner_attribute_item: (node) => (RUST_ALLOW.test(node.text.replace(/\s+/g, "")) ? { kind: "allow" } : null),
    shebang: (node) => (RUST_ALLOW.test(node.text.replace(/\s+/g, "")) ? { kind: "allow", text: node.text.replace(/\s+/g, "") } : null),
    // Inside an `unsafe fn` the block adds no unsafety: the body already was an unsafe context (Rust 2024's unsafe_op_in_unsafe_fn asks for it).
    unsafe_block: (node) => (isInsideUnsafeFn(node) ? null : { kind: "unsafe" }),
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
    // A guard rewritten as a match: `match s.strip_prefix("x") { Some(s) => s, None => return Err(..) }`
    // checks the same input and reaches the same error exit as `if !s.starts_with("x") { return Err(..) }`;
    // `match count.cmp(&2) { Ordering::Greater => return Err(..), .. }` as `if count > 2 { return Err(..) }`
    // (clippy's comparison_chain). An `Err(e)` arm passes an error on (a catch, RUST_CATCHES), and a catch-all arm
    // (`_`, a binding) is left out: a match's catch-all rewritten as a lookup would read as a guard removed.
    match_expression: (node) => {
      const scrutinee = node.childForFieldName("value");
      const block = node.childForFieldName("body");
      if (!scrutinee || !block) return [];
      return namedChildren(block).flatMap((arm): GuardDraft[] => {
        const pattern = arm.type === "match_arm" ? arm.childForFieldName("pattern") : null;
        const spelled = pattern?.text.replace(/\s+/g, "") ?? "_";
        const action = pattern ? rustErrorValue(arm.childForFieldName("value")) : null;
        // `_` and a binding (`other => …`) take every value left: catch-alls, like `_`.
        if (!pattern || !action || spelled === "_" || /^[a-z_]\w*$/.test(spelled) || errBinding(pattern) !== undefined) return [];
        return spelled === "None" ? [{ condition: scrutinee, action }] : [{ condition: scrutinee, action, patterns: [pattern] }];
      });
    },
    // `for x in xs.iter().filter(|x| bad(x)) { return Err(..) }`: the loop guard `for x in xs { if bad(x) { return Err(..) } }` with its condition moved into the filter.
    for_expression: (node) => {
      const predicate = filterPredicate(node.childForFieldName("value"));
      const body = node.childForFieldName("body");
      const action = body && isOnlyExit(body) ? rustErrorExit(body) : null;
      return predicate && action ? [{ condition: predicate, action }] : [];
    },
    try_expression: rustOkOrGuard,
    // `let Some(x) = s.strip_prefix("x") else { return Err(..) };`: the same guard as a let-else.
    let_declaration: (node) => {
      const alternative = node.childForFieldName("alternative");
      const value = node.childForFieldName("value");
      const action = alternative ? rustErrorValue(alternative) : null;
      return value && action ? [{ condition: value, action }] : [];
    },
    macro_invocation: (node) => {
      // A path is the same macro (`anyhow::ensure!`, `std::assert!`): the action names it without one.
      const name = (node.childForFieldName("macro")?.text ?? "").replace(/^(?:std|core|anyhow|eyre)::/, "");
      if (!/^(assert|ensure|debug_assert)$/.test(name)) return [];
      const condition = node.namedChildren.find((child) => child?.type === "token_tree");
      return condition ? [{ condition, action: `${name}!` }] : [];
    },
  },
  fallthrough: rustErrorExit,
  unsignedValues: { let_declaration: rustUnsignedValues },
  constants: { const_item: rustConstantItem, static_item: rustConstantItem },
  identifierTypes: new Set(["identifier"]),
  testCode: {
    mod_item: (node) => isRustTestItem(node),
    function_item: (node) => isRustTestItem(node),
  },
  flow: RUST_FLOW,
  catches: RUST_CATCHES,
  literalBranches: RUST_BRANCHES,
  state: {
    declarations: { static_item: (node) => [node.childForFieldName("name")?.text ?? ""].filter((name) => name !== "") },
    updates: {
      compound_assignment_expr: counterTarget,
      call_expression: (node) => {
        const callee = node.childForFieldName("function");
        const method = callee?.type === "field_expression" ? callee.childForFieldName("field")?.text : undefined;
        return method && /^fetch_(add|sub|xor|update)$/.test(method) ? (callee?.childForFieldName("value")?.text ?? null) : null;
      },
    },
  },
  escapes: { call_expression: rustEscape },
  isScript: (content) => /^(?:pub\s+)?(?:async\s+)?fn\s+main\s*\(/m.test(content),
  exports: Object.fromEntries([...RUST_API_ITEMS, "mod_item", "impl_item", "use_declaration"].map((type) => [type, (node: Node, context: CodeContext) => rustExports(node, context)])),
  privateModules: rustPrivateModules,
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

/** The Rust language module: `.rs`, parsed with tree-sitter-rust (see the module comment). Never throws for bad content. */
export const rust = defineLanguage({
  id: "rust",
  extensions: [".rs"],
  queries: ["tests", "assertions"],
  isTestPath: isRustTestPath,
  drafts: ({ path, content }, grammar, root) => extractRustDrafts(path, grammar, root, content),
  expand: expandTestSuiteMacros,
  code: RUST_CODE,
  shadows: RUST_SHADOWS,
  hasInlineTests: true,
});
