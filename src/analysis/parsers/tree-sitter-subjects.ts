/**
 * What a test's checks depend on, and what a product file declares, for any
 * tree-sitter grammar (issue 9: tests deleted together with the code they
 * test). Language-neutral: it reads node types by shape (an assignment has
 * `left`/`right`, a declarator `name`/`value`, a declaration a `name`), so
 * each grammar gets it without tables of its own.
 *
 * - {@link checkNamesOf}: for one assertion, the names its statement reads
 *   (and the conditions and loop headers it runs under), closed over the
 *   test's local bindings (`l, err := NewARC(8)` makes `err` stand for
 *   `NewARC`) and the bases of the file's classes (`new PingHandler()`
 *   reaches `RequestHandler` when `class PingHandler : RequestHandler<…>`).
 * - {@link declaredNames}: the names a product file declares outside function
 *   bodies (types, functions, methods, properties, fields, constants, enum
 *   members), so a removed one can be told from a surviving one.
 */

import type { Node } from "web-tree-sitter";

/** At most this many names are kept per check (sorted): enough to find a removed symbol, bounded for the facts cache. */
const MAX_CHECK_NAMES = 48;

/** Leaves that name something: identifiers of every grammar, PHP `name`, Ruby `constant`. */
function isNameLeaf(node: Node): boolean {
  return node.childCount === 0 && (/identifier$/.test(node.type) || node.type === "name" || node.type === "constant");
}

/** Every name leaf under a node, in source order. */
function namesIn(node: Node | null | undefined, into: Set<string> = new Set()): Set<string> {
  if (!node) return into;
  if (isNameLeaf(node)) {
    into.add(node.text);
    return into;
  }
  for (const child of node.children) if (child) namesIn(child, into);
  return into;
}

/** Node types that hold a list of statements: an assertion's statement is the child of one. */
const CONTAINER = /(^|_)(block|body|statement_list|compound_statement|program|module|source_file|declaration_list|then|else|do|begin|body_statement|suite)$/;

/** Node types whose header (condition, initializer, range) decides whether or with what a statement inside runs. */
const CONTROL = /^(if|elif|else_if|unless|when|for|foreach|enhanced_for|range|while|with|case|switch)(_|$)/;

/** The statement an assertion starting at `index` belongs to, within `scope`. */
function statementAt(scope: Node, index: number): Node | null {
  let node: Node | null = scope.descendantForIndex(index);
  while (node && node.parent && node.parent.id !== scope.id && !CONTAINER.test(node.parent.type)) node = node.parent;
  return node;
}

/** Bindings of one scope: each bound name -> the names its value reads. */
type Bindings = Map<string, Set<string>>;

/** The local bindings of a test's declaration: what each name's values read, and those values' texts (whitespace dropped). */
export interface ScopeBindings {
  names: Bindings;
  values: Map<string, string[]>;
}

/** The node a binding-like node binds and the one it binds it to, or null when it binds nothing. */
function bindingParts(node: Node): { target: Node; value: Node[] } | null {
  const first = node.namedChildren[0];
  const isDeclarator = /declarator|spec|let_declaration/.test(node.type);
  // A C# `variable_declarator` names its variable by a plain first child.
  const target = node.childForFieldName("left") ?? node.childForFieldName("pattern") ?? (isDeclarator ? (node.childForFieldName("name") ?? (first && isNameLeaf(first) ? first : null)) : null);
  if (!target) return null;
  const value = node.childForFieldName("right") ?? node.childForFieldName("value");
  if (value) return { target, value: [value] };
  // A C# `variable_declarator` holds its initializer as a plain child (or an `equals_value_clause`).
  const rest = node.namedChildren.filter((child): child is Node => child !== null && child.id !== target.id && child.type !== "type" && !/type/.test(child.type));
  return rest.length > 0 ? { target, value: rest } : null;
}

/** Node types that bind names to values, by shape. */
const BINDING =
  /^(short_var_declaration|assignment_statement|assignment|assignment_expression|augmented_assignment|var_spec|const_spec|variable_declarator|let_declaration|range_clause|for_statement|for_in_statement|foreach_statement|enhanced_for_statement|operator_assignment)$/;

/** The local bindings under a node: every name bound there -> the names of its value. */
function bindingsIn(scope: Node): ScopeBindings {
  const bindings: Bindings = new Map();
  const values = new Map<string, string[]>();
  const visit = (node: Node): void => {
    if (BINDING.test(node.type)) {
      const parts = bindingParts(node);
      if (parts) {
        const value = new Set<string>();
        for (const part of parts.value) namesIn(part, value);
        const text = parts.value.map((part) => part.text.replace(/\s+/g, "")).join(",");
        for (const name of namesIn(parts.target)) {
          const known = bindings.get(name) ?? new Set<string>();
          for (const entry of value) if (entry !== name) known.add(entry);
          bindings.set(name, known);
          const texts = values.get(name) ?? [];
          texts.push(isNameLeaf(parts.target) || parts.target.type === "variable_name" ? text : "");
          values.set(name, texts);
        }
      }
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(scope);
  return { names: bindings, values };
}

/** Node types of class-like declarations whose bases a name reaches: `new PingHandler()` depends on what PingHandler extends. */
const CLASS_LIKE = /^(class_declaration|class_definition|class|struct_declaration|record_declaration|interface_declaration|object_declaration)$/;

/** Each class of the file -> the names of its header (bases, type arguments), its body left out. */
function classBases(root: Node): Bindings {
  const bases: Bindings = new Map();
  for (const node of root.descendantsOfType(["class_declaration", "class_definition", "class", "struct_declaration", "record_declaration", "interface_declaration", "object_declaration"])) {
    if (!node || !CLASS_LIKE.test(node.type)) continue;
    const name = node.childForFieldName("name");
    if (!name) continue;
    const body = node.childForFieldName("body");
    const names = new Set<string>();
    for (const child of node.namedChildren) {
      if (!child || child.id === name.id || child.id === body?.id || CONTAINER.test(child.type)) continue;
      namesIn(child, names);
    }
    names.delete(name.text);
    bases.set(name.text, names);
  }
  return bases;
}

/** The file's class bases, computed once per tree. */
const basesCache = new WeakMap<Node, Bindings>();

/**
 * The names one assertion's check depends on, sorted, at most
 * {@link MAX_CHECK_NAMES}: the names of its statement within `scope` (the
 * test's declaration), those of the conditions and loop headers it runs
 * under there, and transitively what the scope's bindings and the file's
 * class bases bind them to. `bindings` is {@link testBindings} of the scope.
 */
export function checkNamesOf(scope: Node, index: number, scopeBindings: ScopeBindings): string[] {
  const bindings = scopeBindings.names;
  const statement = statementAt(scope, index);
  if (!statement) return [];
  const names = namesIn(statement);
  for (let node: Node | null = statement.parent; node && node.id !== scope.id; node = node.parent) {
    if (!CONTROL.test(node.type)) continue;
    for (const child of node.namedChildren) {
      if (!child || CONTAINER.test(child.type) || (child.startIndex <= statement.startIndex && child.endIndex >= statement.endIndex)) continue;
      namesIn(child, names);
    }
  }
  const root = scope.tree.rootNode;
  let bases = basesCache.get(root);
  if (!bases) {
    bases = classBases(root);
    basesCache.set(root, bases);
  }
  const queue = [...names];
  while (queue.length > 0 && names.size < 4 * MAX_CHECK_NAMES) {
    const name = queue.pop() as string;
    for (const reached of [...(bindings.get(name) ?? []), ...(bases.get(name) ?? [])]) {
      if (names.has(reached)) continue;
      names.add(reached);
      queue.push(reached);
    }
  }
  // A local stands for what it was bound to: only the names no local binding explains are kept.
  return [...names]
    .filter((name) => !bindings.has(name))
    .sort()
    .slice(0, MAX_CHECK_NAMES);
}

/** The local bindings of a test's declaration (see {@link checkNamesOf}). */
export function testBindings(scope: Node): ScopeBindings {
  return bindingsIn(scope);
}

/**
 * True when an assertion compares two locals (or a local and a literal)
 * that the scope binds, once each, to the same text that calls nothing:
 * `$lines = ['a']; $expected = ['a']; assertSame($expected, $lines)` can
 * never fail, a tautology through locals. `actual` and `expected` are the
 * fact's normalised texts (a PHP `$` is allowed).
 */
export function isTautologyThroughLocals(actual: string | undefined, expected: string | undefined, scopeBindings: ScopeBindings): boolean {
  if (actual === undefined || expected === undefined) return false;
  let isResolved = false;
  const resolve = (text: string): string => {
    const name = text.trim().replace(/^\$/, "");
    const values = /^[A-Za-z_]\w*$/.test(name) ? scopeBindings.values.get(name) : undefined;
    if (values?.length === 1 && values[0] !== "") {
      isResolved = true;
      return values[0] as string;
    }
    return text.replace(/\s+/g, "");
  };
  const left = resolve(actual);
  const right = resolve(expected);
  return isResolved && left === right && isLiteralValue(left);
}

/**
 * True when a binding's text (an `=` of its declaration dropped) is a
 * literal value: numbers, strings, booleans, null and lists or maps of them
 * (`['a']`, `array(1, 2)`, `{ "k": 1 }`), nothing that reads state. Two
 * reads of one property (`var a = timer.ElapsedMilliseconds; … var b =
 * timer.ElapsedMilliseconds;`) have the same text and different values.
 */
function isLiteralValue(text: string): boolean {
  const bare = text
    .replace(/^=/, "")
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, "0")
    .replace(/\b(?:true|false|null|nil|None|True|False|array)\b/g, "0");
  return bare !== "" && !/[A-Za-z_$@]/.test(bare);
}

/** Function-like node types: what they declare inside is local, not the file's API. */
const FUNCTION_LIKE = /function|method|constructor|lambda|closure|func_literal|accessor|arrow/;

/** Node types that declare a name of the file (by field `name`, or by their first named child). */
const DECLARATION = /(declaration|definition|spec|declarator|element|member|signature|variant|item|^method|^class|^module|^singleton_method)$/;

/**
 * The names a product file declares outside function bodies, sorted and
 * unique: types, functions and methods (by their own name), properties,
 * fields, constants and enum members. A `$` of a PHP property is dropped.
 */
export function declaredNames(root: Node): string[] {
  const names = new Set<string>();
  const visit = (node: Node, isInFunction: boolean): void => {
    if (!isInFunction && DECLARATION.test(node.type)) {
      const named = node.childrenForFieldName("name").filter((child): child is Node => child !== null);
      const first = node.namedChildren[0];
      const own = named.length > 0 ? named : first && (isNameLeaf(first) || first.type === "variable_name") && /element|member|declarator/.test(node.type) ? [first] : [];
      for (const name of own) names.add(name.text.replace(/^\$/, ""));
    }
    const isFunction = isInFunction || FUNCTION_LIKE.test(node.type);
    for (const child of node.namedChildren) if (child) visit(child, isFunction);
  };
  visit(root, false);
  return [...names].sort();
}

/** What reads the running interpreter's version in a module-level constant's value. */
const VERSION_READ = /\b(sys\.version_info|RUBY_VERSION|PHP_VERSION(_ID)?|process\.versions?)\b/;

/**
 * Module-level constants bound to a comparison of the running version
 * (`PY_3_10_PLUS = sys.version_info[:2] >= (3, 10)`), outside function
 * bodies: name and value text (whitespace collapsed), at most 200 characters.
 */
export function versionFlagsOf(root: Node): { name: string; condition: string }[] {
  const flags: { name: string; condition: string }[] = [];
  const visit = (node: Node): void => {
    if (FUNCTION_LIKE.test(node.type)) return;
    if (BINDING.test(node.type)) {
      const parts = bindingParts(node);
      const value = parts?.value.map((part) => part.text).join(" ") ?? "";
      if (parts && (isNameLeaf(parts.target) || parts.target.type === "variable_name") && VERSION_READ.test(value) && value.length <= 200) {
        flags.push({ name: parts.target.text.replace(/^\$/, ""), condition: value.replace(/\s+/g, " ").trim() });
      }
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return flags;
}

/**
 * The file's constants: names bound once, outside every function, to
 * their value's text (whitespace dropped): Rust `const A: u32 = 0b0001;`
 * and `static`, Go `const`/`var` specs, Python and Ruby module-level
 * assignments, also inside a module of tests (`mod tests { … }`). A name
 * bound twice is left out (its value is not one text). Read by
 * checks/constants.ts to tell a check of the test's own constants.
 */
export function fileConstants(root: Node): Map<string, string> {
  const values = new Map<string, string | null>();
  const bind = (name: string, text: string): void => {
    values.set(name, values.has(name) ? null : text);
  };
  const visit = (node: Node): void => {
    if (FUNCTION_LIKE.test(node.type) || node.type === "impl_item") return;
    if (node.type === "const_item" || node.type === "static_item") {
      const name = node.childForFieldName("name");
      const value = node.childForFieldName("value");
      if (name && value) bind(name.text, value.text.replace(/\s+/g, ""));
      return;
    }
    if (BINDING.test(node.type) && !/^(for|range|foreach|enhanced_for)/.test(node.type)) {
      const parts = bindingParts(node);
      if (parts && isNameLeaf(parts.target) && parts.value.length === 1) bind(parts.target.text, (parts.value[0] as Node).text.replace(/\s+/g, ""));
      else if (parts) for (const name of namesIn(parts.target)) values.set(name, null);
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  const constants = new Map<string, string>();
  for (const [name, text] of values) if (text !== null && text !== "") constants.set(name, text);
  return constants;
}
