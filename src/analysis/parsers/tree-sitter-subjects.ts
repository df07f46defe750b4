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

import type { Node, Tree } from "web-tree-sitter";
import { callToken, isNameToken, LITERAL_TOKEN, literalToken, settingToken } from "../dependency-tokens.js";
import { isCollectionLiteral, isHandedOn, mutationOf } from "./filled-in-place.js";

/** At most this many names are kept per check (sorted): enough to find a removed symbol, bounded for the facts cache. */
const MAX_CHECK_NAMES = 48;

/** At most this many literal and call tokens are kept per check (sorted), after its names. */
const MAX_CHECK_TOKENS = 24;

/** Leaves that name something: identifiers of every grammar, PHP `name`, Ruby `constant` and its `@ivar`/`@@cvar`/`$global`. */
function isNameLeaf(node: Node): boolean {
  return node.childCount === 0 && (/identifier$/.test(node.type) || node.type === "name" || node.type === "constant" || /^(instance|class|global)_variable$/.test(node.type));
}

/** Node types of string literals, across the grammars. */
const STRING_LITERAL = /^(string|string_literal|interpreted_string_literal|raw_string_literal|encapsed_string|verbatim_string_literal)$/;

/**
 * The value of a string literal node (or a Ruby symbol) when it is a plain
 * literal of {@link LITERAL_TOKEN}'s shape (no interpolation, no escapes),
 * else null.
 */
export function stringLiteralValue(node: Node): string | null {
  // A Ruby symbol (`:legacy`) is the option key or value a string would be elsewhere.
  if (node.type === "simple_symbol") return LITERAL_TOKEN.test(node.text.slice(1)) ? node.text.slice(1) : null;
  if (!STRING_LITERAL.test(node.type) || (node.parent && STRING_LITERAL.test(node.parent.type))) return null;
  const parts = node.namedChildren.filter((child): child is Node => child !== null && !/^string_(start|end)$/.test(child.type));
  if (parts.some((part) => !/content|fragment|string_value/.test(part.type))) return null;
  const text = parts.length === 1 ? (parts[0] as Node).text : parts.length === 0 ? node.text.replace(/^[@$rbuRBUf]*("|'|`)/, "").replace(/("|'|`)$/, "") : null;
  return text !== null && LITERAL_TOKEN.test(text) ? text : null;
}

/** Node types of calls and constructions, across the grammars. */
const CALL =
  /^(call|call_expression|invocation_expression|method_invocation|object_creation_expression|implicit_object_creation_expression|function_call_expression|member_call_expression|nullsafe_member_call_expression|scoped_call_expression)$/;

/** Arguments that spread a collection: the call's argument count is unknown. */
const SPREAD_ARGUMENT = /splat|spread|variadic_unpacking|unpacking/;

/** The last name a callee node ends in: `a.b.c` -> `c`, `Foo<int>` -> `Foo`, `A::h` -> `h`. */
function lastNameOf(node: Node | null | undefined): string | null {
  let current = node ?? null;
  for (let step = 0; current && step < 8; step++) {
    if (isNameLeaf(current)) return current.text;
    const named = current.namedChildren.filter((child): child is Node => child !== null);
    current =
      current.childForFieldName("name") ??
      current.childForFieldName("field") ??
      current.childForFieldName("attribute") ??
      current.childForFieldName("property") ??
      (/generic/.test(current.type) ? (named[0] ?? null) : (named[named.length - 1] ?? null));
  }
  return null;
}

/** The declared type a target-typed construction (C#'s `new(x)`) builds: the type of the declaration it initialises, or null (`var`). */
function targetTypeOf(node: Node): string | null {
  let current: Node | null = node.parent;
  for (let step = 0; current && step < 4; step++, current = current.parent) {
    const type = current.childForFieldName("type");
    if (type) return type.type === "implicit_type" ? null : lastNameOf(type);
  }
  return null;
}

/** The names of the functions and methods called under a node (their callees' last names), unique. */
export function calledNamesIn(node: Node): Set<string> {
  const names = new Set<string>();
  const visit = (current: Node): void => {
    const token = CALL.test(current.type) ? callTokenOf(current) : null;
    if (token !== null) names.add(token.slice(0, token.lastIndexOf("/")));
    for (const child of current.namedChildren) if (child) visit(child);
  };
  visit(node);
  return names;
}

/**
 * The call token of a call node ({@link callToken}), or null when the callee
 * or the argument count is unknown. Ruby's `Runner.new(x)` is a call of
 * `Runner`, as a construction is in the other grammars.
 */
function callTokenOf(node: Node): string | null {
  if (!CALL.test(node.type)) return null;
  const args = node.childForFieldName("arguments") ?? node.namedChildren.find((child) => child !== null && /^(argument_list|arguments)$/.test(child.type)) ?? null;
  const parts = (args?.namedChildren ?? []).filter((child): child is Node => child !== null && child.type !== "comment" && child.type !== "block_argument");
  if (parts.some((part) => SPREAD_ARGUMENT.test(part.type) || SPREAD_ARGUMENT.test(part.namedChildren[0]?.type ?? ""))) return null;
  let name: string | null;
  if (node.type === "implicit_object_creation_expression") name = targetTypeOf(node);
  else {
    const callee =
      node.childForFieldName("function") ??
      node.childForFieldName("method") ??
      node.childForFieldName("name") ??
      node.childForFieldName("type") ??
      node.namedChildren.find((child) => child !== null && (isNameLeaf(child) || /qualified_name|scoped_identifier/.test(child.type))) ??
      null;
    name = lastNameOf(callee);
    const receiver = node.childForFieldName("receiver");
    if (name === "new" && receiver && isNameLeaf(receiver)) name = receiver.text;
  }
  return name === null ? null : callToken(name, parts.length);
}

/** Fields of a member access that hold its member (`a.b`: `b`), across the grammars. */
const MEMBER_FIELDS = ["name", "attribute", "method", "field", "property"] as const;

/** Fields of a member access or call that hold what it is applied to (`a.b`: `a`), across the grammars. */
const RECEIVER_FIELDS = ["expression", "object", "receiver", "operand", "value", "function"] as const;

/** The first of a node's children under one of `fields`. */
function fieldOf(node: Node, fields: readonly string[]): Node | null {
  for (const field of fields) {
    const child = node.childForFieldName(field);
    if (child) return child;
  }
  return null;
}

/** The local a receiver starts from (`cfg` of `cfg.Internal()`, `@config` of `@config.rules`), or null (`self`, `this`, a call's result). */
function receiverRootOf(node: Node): string | null {
  let current: Node | null = node;
  for (let step = 0; current && step < 8; step++) {
    if (isNameLeaf(current)) return /^(self|this|base|super|parent|static)$/.test(current.text) ? null : current.text;
    // PHP's `$builder` is a variable_name around its name, the name the bindings use.
    if (current.type === "variable_name") {
      const name = current.namedChildren.find((child) => child?.type === "name")?.text;
      return name === undefined || name === "this" ? null : name;
    }
    current = fieldOf(current, RECEIVER_FIELDS);
  }
  return null;
}

/**
 * The member an assignment target writes on an object (`cfg.Internal().AllowAdditiveTypeMapCreation`,
 * `cfg.allow_additive`, Ruby `config.allow_additive`): its name and the local it starts from
 * ({@link receiverRootOf}); null for a plain name or an element (`a[i]`).
 */
function memberWriteOf(target: Node): { member: string; root: string | null } | null {
  if (isNameLeaf(target)) return null;
  const member = fieldOf(target, MEMBER_FIELDS);
  const receiver = fieldOf(target, RECEIVER_FIELDS);
  if (!member || !receiver || !isNameLeaf(member)) return null;
  return { member: member.text, root: receiverRootOf(receiver) };
}

/**
 * The member a node sets on what it builds or runs, as written: a member
 * assignment ({@link memberWriteOf}), a C# object initializer's `Name =
 * value`, a named or keyword argument (`Config(allow_additive=True)`, C#
 * `f(allowAdditive: true)`, Ruby `Config.new(allow_additive: true)`); else
 * null. Its {@link settingToken} is what a test that sets a removed option
 * depends on (rules/dependencies.ts findRemovedSettings).
 */
function settingOf(node: Node): string | null {
  if (BINDING.test(node.type)) {
    const target = node.childForFieldName("left");
    if (!target) return null;
    if (isNameLeaf(target)) return node.parent?.type === "initializer_expression" ? target.text : null;
    return memberWriteOf(target)?.member ?? null;
  }
  if (node.type === "keyword_argument") {
    const name = node.childForFieldName("name");
    return name && isNameLeaf(name) ? name.text : null;
  }
  if (node.type === "pair") {
    const key = node.childForFieldName("key");
    return key?.type === "hash_key_symbol" ? key.text : null;
  }
  if (node.type === "argument") {
    const label = node.namedChildren.find((child) => child !== null && child.type === "name_colon");
    const name = label?.namedChildren.find((child) => child !== null && isNameLeaf(child));
    return name ? name.text : null;
  }
  return null;
}

/**
 * Every dependency token under a node, in source order: its name leaves,
 * the literal tokens of its plain string literals ({@link literalToken}),
 * the call tokens of its calls ({@link callToken}) and the setting tokens
 * of the members it sets ({@link settingOf}).
 */
function tokensIn(node: Node | null | undefined, into: Set<string> = new Set()): Set<string> {
  if (!node) return into;
  if (isNameLeaf(node)) {
    into.add(node.text);
    return into;
  }
  // A Ruby symbol of an instance variable (`instance_variable_get(:@size)`) reads that variable.
  if (node.type === "simple_symbol" && /^:@\w+$/.test(node.text)) {
    into.add(node.text.slice(1));
    return into;
  }
  const value = stringLiteralValue(node);
  if (value !== null) {
    into.add(literalToken(value));
    return into;
  }
  const call = callTokenOf(node);
  if (call !== null) into.add(call);
  const setting = settingOf(node);
  if (setting !== null) into.add(settingToken(setting));
  for (const child of node.children) if (child) tokensIn(child, into);
  return into;
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

/**
 * The local bindings of a test's declaration: what each name's values read,
 * those values' texts (whitespace dropped), and the settings the test writes
 * on each local ({@link settingWritesIn}).
 */
export interface ScopeBindings {
  names: Bindings;
  values: Map<string, string[]>;
  writes: Bindings;
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

/** Node types of a block or function given to a call as an argument (Ruby `do … end` / `{ … }`, lambdas, closures, function literals). */
const CALLBACK = /^(do_block|block|lambda|lambda_expression|arrow_function|closure_expression|func_literal|anonymous_function|function_expression|anonymous_method_expression)$/;

/**
 * The names of the call a binding node runs in when it sits in a block or
 * function passed to that call within `scope`: its callee and the names
 * its other arguments spell, also as a symbol or a one-word string
 * (`define_singleton_method(:actually_finalize) { finalized = true }`,
 * `mock.method(obj, "hook", () => { called = true })`): a flag set there is
 * set by what the call overrides or observes. Empty elsewhere.
 */
function callbackContext(node: Node, scope: Node): Set<string> {
  const names = new Set<string>();
  for (let current: Node | null = node.parent; current && current.id !== scope.id; current = current.parent) {
    if (!CALLBACK.test(current.type)) continue;
    const call = current.parent?.type === "argument_list" || current.parent?.type === "arguments" ? current.parent.parent : current.parent;
    if (!call || call.id === scope.id || !/call/.test(call.type)) continue;
    for (const child of call.namedChildren) {
      if (!child || child.id === current.id) continue;
      for (const leaf of [child, ...child.descendantsOfType(["simple_symbol", "string_content", "string_fragment", "string"])]) {
        if (!leaf) continue;
        const word = leaf.type === "simple_symbol" ? leaf.text.slice(1) : /string/.test(leaf.type) && leaf.namedChildCount === 0 ? leaf.text.replace(/^["']|["']$/g, "") : null;
        if (word !== null && /^[A-Za-z_]\w*[?!]?$/.test(word)) names.add(word);
      }
      if (child.id !== current.parent?.id) namesIn(child, names);
      else for (const arg of child.namedChildren) if (arg && arg.id !== current.id) namesIn(arg, names);
    }
  }
  return names;
}

/** A Java-style setter's name (`setAllowAdditive`): the property it sets, as a field (`allowAdditive`) and as named (`AllowAdditive`). */
const SETTER = /^set([A-Z]\w*)$/;

/**
 * The settings a scope writes on each of its locals, by the local's name ->
 * their {@link settingToken}s: a member assigned on it or on what it leads
 * to (`cfg.Internal().AllowAdditiveTypeMapCreation = true` sets
 * `AllowAdditiveTypeMapCreation=` on `cfg`, a lambda's parameter;
 * `config.allow_additive = true`), and a one-argument setter called on it as
 * a statement (`config.setAllowAdditive(true)`: `allowAdditive=`,
 * `AllowAdditive=`). A check reading the local reads what was built with them.
 */
function settingWritesIn(scope: Node): Bindings {
  const writes: Bindings = new Map();
  const add = (root: string | null, tokens: readonly string[]): void => {
    if (root === null) return;
    const known = writes.get(root) ?? new Set<string>();
    for (const token of tokens) known.add(token);
    writes.set(root, known);
  };
  const visit = (node: Node): void => {
    if (BINDING.test(node.type)) {
      const target = node.childForFieldName("left");
      const write = target ? memberWriteOf(target) : null;
      if (write) add(write.root, [settingToken(write.member)]);
    } else if (CALL.test(node.type) && node.parent !== null && (node.parent.type === "expression_statement" || CONTAINER.test(node.parent.type))) {
      noteSetter(node, add);
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(scope);
  return writes;
}

/**
 * Records a method called on a local as a statement as part of what the
 * local holds (see {@link settingWritesIn}): the method's name
 * (`$builder->tap(fn)`: `tap`, so a check reading `$builder` depends on
 * `tap`), and for a one-argument setter (`config.setAllowAdditive(true)`)
 * the settings it writes.
 */
function noteSetter(call: Node, add: (root: string | null, tokens: readonly string[]) => void): void {
  const token = callTokenOf(call);
  if (token === null) return;
  // Java `config.setX(v)` and Ruby hold the receiver on the call; C#, Python, PHP, Go, Rust on its callee (`config.SetX`).
  const callee = call.childForFieldName("function");
  const receiver = call.childForFieldName("object") ?? call.childForFieldName("receiver") ?? (callee ? fieldOf(callee, RECEIVER_FIELDS) : null);
  if (!receiver) return;
  const method = token.replace(/\/\d+$/, "");
  const setter = token.endsWith("/1") ? SETTER.exec(method) : null;
  const property = setter?.[1];
  const tokens = property === undefined ? [method] : [method, settingToken(property), settingToken(property.charAt(0).toLowerCase() + property.slice(1))];
  // A fluent chain (`validator.Transform(f).Equal("x")`, `$b->tap(fn)->host('a')`) is called on the local link by link: each
  // method of the chain is part of what it holds, an inner one as much as the last.
  for (let link: Node | null = receiver, step = 0; link && step < 8; step++) {
    const inner = callTokenOf(link);
    if (inner !== null) tokens.push(inner.replace(/\/\d+$/, ""));
    const innerCallee = link.childForFieldName("function");
    link = link.childForFieldName("object") ?? link.childForFieldName("receiver") ?? (innerCallee ? fieldOf(innerCallee, RECEIVER_FIELDS) : fieldOf(link, RECEIVER_FIELDS));
  }
  add(receiverRootOf(receiver), tokens);
}

/** The local bindings under a node: every name bound there -> the names of its value (and of the call it is bound in, {@link callbackContext}). */
function bindingsIn(scope: Node): ScopeBindings {
  const bindings: Bindings = new Map();
  const values = new Map<string, string[]>();
  const visit = (node: Node): void => {
    if (BINDING.test(node.type)) {
      const parts = bindingParts(node);
      if (parts) {
        const value = callbackContext(node, scope);
        for (const part of parts.value) tokensIn(part, value);
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
  // A collection bound once and then filled, or handed to code that may fill it, no longer holds the literal it was bound to.
  for (const [name, texts] of values) {
    const text = texts.length === 1 ? (texts[0] as string) : "";
    if (text === "" || !isCollectionLiteral(text)) continue;
    const body = scope.text;
    if (mutationOf(name).test(body) || isHandedOn(name, body)) values.set(name, [""]);
  }
  return { names: bindings, values, writes: settingWritesIn(scope) };
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

/**
 * The file's class bases, computed once per tree. Keyed by the Tree: each
 * read of `tree.rootNode` makes a new Node object, so a Node key never hits.
 */
const basesCache = new WeakMap<Tree, Bindings>();

/** Methods that set up a test class's state before each test: constructors, `setUp`, `setup_method`, `initialize`, `__construct`, `[SetUp]`-style names. */
const SETUP_METHOD =
  /^(__init__|__construct|initialize|constructor|init|setUp|setup|setup_method|setUpClass|setup_class|before|beforeEach|before_each|SetUp|Setup|TestInitialize|Initialize|BeforeEach)$/;

/**
 * The state a test class sets up for its tests, as bindings: each field or
 * property initialised where it is declared (`Scheduler Scheduler { get; } =
 * new(Period)`, `private Foo foo = new Foo(1)`, a class-level `x = …`), and
 * each member a constructor or setup method assigns (`_scheduler = new(…)`,
 * `self.parser = Parser(…)`, `@runner = Runner.new`, `$this->p = new P()`),
 * by the member's own name -> the tokens of its value. Assignments in other
 * methods (the tests themselves) are not set-up.
 */
function memberBindings(root: Node): Bindings {
  const members: Bindings = new Map();
  const bind = (target: Node, value: readonly Node[]): void => {
    const name = target.childForFieldName("name") ?? target.childForFieldName("attribute") ?? target.childForFieldName("property") ?? target.childForFieldName("field") ?? target;
    const own = isNameLeaf(name) ? name.text : name.type === "variable_name" ? name.text.replace(/^\$/, "") : lastNameOf(name);
    if (own === null || own === "self" || own === "this") return;
    const known = members.get(own) ?? new Set<string>();
    for (const part of value) tokensIn(part, known);
    known.delete(own);
    members.set(own, known);
  };
  const visit = (node: Node, inSetup: boolean, inFunction: boolean): void => {
    if (FUNCTION_LIKE.test(node.type)) {
      const name = node.childForFieldName("name")?.text ?? "";
      inSetup = /constructor/.test(node.type) || SETUP_METHOD.test(name);
      inFunction = true;
    }
    if (inSetup || !inFunction) {
      if (BINDING.test(node.type)) {
        const parts = bindingParts(node);
        if (parts) bind(parts.target, parts.value);
      } else if (node.type === "property_declaration") {
        // C#: `Scheduler Scheduler { get; } = new(Period);`
        const name = node.childForFieldName("name");
        const value = node.childForFieldName("value");
        if (name && value) bind(name, [value]);
      } else if (node.type === "property_element") {
        // PHP: `private $p = new P();`
        const target = node.namedChildren[0];
        const initializer = node.namedChildren.find((child) => child !== null && child.type === "property_initializer");
        if (target && initializer) bind(target, [initializer]);
      }
    }
    for (const child of node.namedChildren) if (child) visit(child, inSetup, inFunction);
  };
  for (const node of root.descendantsOfType(["class_declaration", "class_definition", "class", "struct_declaration", "record_declaration", "object_declaration", "impl_item"])) {
    if (!node) continue;
    const body = node.childForFieldName("body");
    if (body) visit(body, false, false);
  }
  return members;
}

/** The file's test-class set-up (see {@link memberBindings}), computed once per tree (keyed by the Tree, as {@link basesCache}). */
const membersCache = new WeakMap<Tree, Bindings>();

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
  const names = tokensIn(statement);
  for (let node: Node | null = statement.parent; node && node.id !== scope.id; node = node.parent) {
    if (!CONTROL.test(node.type)) continue;
    for (const child of node.namedChildren) {
      if (!child || CONTAINER.test(child.type) || (child.startIndex <= statement.startIndex && child.endIndex >= statement.endIndex)) continue;
      tokensIn(child, names);
    }
  }
  const tree = scope.tree;
  let bases = basesCache.get(tree);
  if (!bases) {
    bases = classBases(tree.rootNode);
    basesCache.set(tree, bases);
  }
  let members = membersCache.get(tree);
  if (!members) {
    members = memberBindings(tree.rootNode);
    membersCache.set(tree, members);
  }
  const queue = [...names];
  while (queue.length > 0 && names.size < 4 * MAX_CHECK_NAMES) {
    const name = queue.pop() as string;
    // A name the test binds itself is its local; one it does not is the test class's set-up state, if any.
    const bound = bindings.get(name) ?? members.get(name) ?? [];
    // What the test set on a local (`cfg.AllowAdditiveTypeMapCreation = true`) is part of what it built.
    for (const reached of [...bound, ...(bases.get(name) ?? []), ...(scopeBindings.writes.get(name) ?? [])]) {
      if (names.has(reached)) continue;
      names.add(reached);
      queue.push(reached);
    }
  }
  // A local (or a member set up for the test) stands for what it was bound to: only the names no binding explains are kept.
  const all = [...names].filter((name) => !bindings.has(name) && !members.has(name)).sort();
  return [...all.filter(isNameToken).slice(0, MAX_CHECK_NAMES), ...all.filter((token) => !isNameToken(token)).slice(0, MAX_CHECK_TOKENS)];
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

/** Ruby's attribute macros: each defines a reader, a writer or both, named by its symbols. */
const RUBY_ATTRIBUTE_MACRO = /^attr(_reader|_writer|_accessor)?$/;

/** The methods a Ruby `attr_reader :a, :b` (or attr_writer, attr_accessor, attr) defines: `a`, `b`; none for another call. */
function rubyAttributeNames(call: Node): string[] {
  const method = call.childForFieldName("method");
  if (call.childForFieldName("receiver") !== null || method === null || !RUBY_ATTRIBUTE_MACRO.test(method.text)) return [];
  const args = call.childForFieldName("arguments")?.namedChildren ?? [];
  return args.flatMap((arg) => (arg !== null && arg.type === "simple_symbol" ? [arg.text.slice(1)] : []));
}

/** The attribute a Python class body assigns (`allow_additive = False`, `strict: bool = True`), or null for another node. */
function pythonClassAttribute(node: Node): string | null {
  if (node.type !== "assignment" || node.parent?.type !== "expression_statement" || node.parent.parent?.type !== "block" || node.parent.parent.parent?.type !== "class_definition") return null;
  const target = node.childForFieldName("left");
  return target && isNameLeaf(target) ? target.text : null;
}

/**
 * The attribute a Python method assigns on `self` (`self._cache = {}` in
 * `__init__`), or null for another node: an instance attribute the class
 * declares as much as a class-body assignment does.
 */
function pythonSelfAttribute(node: Node): string | null {
  if (node.type !== "assignment") return null;
  const target = node.childForFieldName("left");
  if (target?.type !== "attribute" || target.childForFieldName("object")?.text !== "self") return null;
  let scope = node.parent;
  while (scope && scope.type !== "function_definition") scope = scope.parent;
  const owner = scope?.parent?.type === "decorated_definition" ? scope.parent.parent : scope?.parent;
  if (owner?.type !== "block" || owner.parent?.type !== "class_definition") return null;
  return target.childForFieldName("attribute")?.text ?? null;
}

/**
 * The instance variables a Ruby method assigns (`@version_needed = …`, and
 * each of a multiple assignment `_, @size, @offset = buffer.unpack(…)`), as
 * written with their `@`; none for another node: state the class keeps,
 * which a test reads with `instance_variable_get(:@version_needed)`.
 */
function rubyInstanceVariables(node: Node): string[] {
  if (node.type !== "assignment" && node.type !== "operator_assignment") return [];
  const target = node.childForFieldName("left");
  if (!target) return [];
  const variables = target.type === "instance_variable" ? [target] : /left_assignment_list|destructured_left_assignment/.test(target.type) ? target.descendantsOfType("instance_variable") : [];
  if (variables.length === 0) return [];
  for (let scope = node.parent; scope; scope = scope.parent) if (scope.type === "method") return variables.flatMap((variable) => (variable ? [variable.text] : []));
  return [];
}

/**
 * The names a product file declares outside function bodies, sorted and
 * unique: types, functions and methods (by their own name), properties,
 * fields, constants and enum members, the methods a Ruby `attr_reader`
 * defines, the attributes a Python class body assigns and those its
 * methods assign on `self`, and the instance variables Ruby methods assign
 * (`@name`). A `$` of a PHP property is dropped.
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
    if (!isInFunction && node.type === "call") for (const name of rubyAttributeNames(node)) names.add(name);
    if (!isInFunction) {
      const attribute = pythonClassAttribute(node);
      if (attribute !== null) names.add(attribute);
    }
    const instanceAttribute = pythonSelfAttribute(node);
    if (instanceAttribute !== null) names.add(instanceAttribute);
    for (const variable of rubyInstanceVariables(node)) names.add(variable);
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

/** At most this many string literals are recorded per product file (CodeFacts.literals). */
const MAX_PRODUCT_LITERALS = 2000;

/** Node types that name another module rather than hold a value of the code: their strings are no literals of it. */
const MODULE_REFERENCE = /import|use_declaration|namespace_use|require|package_clause|extern_crate|mod_item/;

/**
 * The plain string literals of a product file ({@link stringLiteralValue}:
 * option values, keys, flags, command words), sorted and unique, at most
 * {@link MAX_PRODUCT_LITERALS}; module paths of imports are left out. What
 * a change can stop handling besides names (rules/dependencies.ts).
 */
export function productLiterals(root: Node): string[] {
  const values = new Set<string>();
  const visit = (node: Node): void => {
    if (MODULE_REFERENCE.test(node.type)) return;
    const value = stringLiteralValue(node);
    if (value !== null) {
      values.add(value);
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return [...values].sort().slice(0, MAX_PRODUCT_LITERALS);
}

/** Parameter node types that take any number of arguments. */
const VARIADIC_PARAMETER = /splat|variadic|spread|rest/;

/** Parameter-list children that are no parameter a caller passes: a receiver, a block, separators, attributes. */
const NOT_A_PARAMETER = /^(self_parameter|block_parameter|receiver_parameter|keyword_separator|positional_separator|comment|attribute_list|attribute)$/;

/**
 * How many arguments a function's declaration accepts, by the shape of its
 * parameter list (any grammar): `min` the parameters without a default,
 * `max` all of them, null when one is variadic (`*args`, `**kw`, `...rest`,
 * C#'s `params`). A method's own receiver (`self`/`cls` first, Rust's
 * `&self`) is not counted. Null when the node has no parameter list it can
 * read.
 */
export function arityOf(fn: Node): { min: number; max: number | null } | null {
  const params = fn.childForFieldName("parameters") ?? fn.namedChildren.find((child) => child !== null && /^(parameter_list|parameters|formal_parameters|method_parameters)$/.test(child.type)) ?? null;
  if (!params) return /^(method|singleton_method)$/.test(fn.type) ? { min: 0, max: 0 } : null;
  let min = 0;
  let max: number | null = 0;
  // C#'s `params T[] rest` reads as a `params` keyword, then a bare array type and name in the list: it and what follows are variadic.
  const paramsAt = params.children.findIndex((child) => child !== null && !child.isNamed && child.text === "params");
  const listed = paramsAt === -1 ? params.children : params.children.slice(0, paramsAt);
  if (paramsAt !== -1) max = null;
  const children = listed.filter((child): child is Node => child !== null && child.isNamed && !NOT_A_PARAMETER.test(child.type));
  children.forEach((child, index) => {
    if (index === 0 && child.type === "identifier" && /^(self|cls)$/.test(child.text)) return;
    if (VARIADIC_PARAMETER.test(child.type)) {
      max = null;
      return;
    }
    if (!/parameter|identifier|declaration/.test(child.type)) return;
    const count = child.type === "parameter_declaration" ? Math.max(1, child.childrenForFieldName("name").length) : 1;
    const isOptional =
      /default|optional/.test(child.type) ||
      child.childForFieldName("default_value") !== null ||
      (child.type === "keyword_parameter" && child.childForFieldName("value") !== null) ||
      child.namedChildren.some((part) => part !== null && part.type === "equals_value_clause");
    if (!isOptional) min += count;
    if (max !== null) max += count;
  });
  return { min, max };
}

/** Parameter node types whose declared type the language enforces: PHP (at call time), Java and C# (at compile time). */
const TYPED_PARAMETER = /^(?:simple_parameter|property_promotion_parameter|formal_parameter|parameter)$/;

/**
 * The declared types of a function's parameters (FunctionFact.parameterTypes):
 * for each parameter with a `type` and a `name` field in an enforcing
 * grammar, its type split at `|` (a `?T` nullable as `T` and `null`), a
 * leading `\\` dropped. Null when none declares a type.
 */
export function parameterTypesOf(fn: Node): Record<string, string[]> | null {
  const params = fn.childForFieldName("parameters");
  if (!params) return null;
  const types: Record<string, string[]> = {};
  for (const param of params.namedChildren) {
    if (!param || !TYPED_PARAMETER.test(param.type)) continue;
    const type = param.childForFieldName("type");
    const name = param.childForFieldName("name");
    if (!type || !name) continue;
    const text = type.text.replace(/\s+/g, "");
    const parts = text.startsWith("?") ? [text.slice(1), "null"] : text.split("|");
    types[name.text] = parts.map((part) => part.replace(/^\\/, ""));
  }
  return Object.keys(types).length > 0 ? types : null;
}

/** Node types of enum members, across the grammars. */
const ENUM_MEMBER = /^(enum_variant|enum_member_declaration|enum_constant|enum_case)$/;

/** Base classes that make a Python class an enumeration. */
const PYTHON_ENUM_BASE = /^(enum\.)?(Enum|IntEnum|StrEnum|Flag|IntFlag)$/;

/**
 * The enum members a product file declares (Rust variants, C#/Java/PHP
 * enum members, the assignments of a Python `Enum` class), sorted and
 * unique: a value of the enum can be one of them and nothing else.
 */
export function enumMemberNames(root: Node): string[] {
  const names = new Set<string>();
  const visit = (node: Node): void => {
    if (ENUM_MEMBER.test(node.type)) {
      const name = node.childForFieldName("name") ?? node.namedChildren[0];
      if (name && isNameLeaf(name)) names.add(name.text);
      return;
    }
    if (node.type === "class_definition") {
      const bases = node.childForFieldName("superclasses")?.namedChildren ?? [];
      if (bases.some((base) => base !== null && PYTHON_ENUM_BASE.test(base.text))) {
        for (const statement of node.childForFieldName("body")?.namedChildren ?? []) {
          const assignment = statement?.type === "expression_statement" ? statement.namedChildren[0] : null;
          const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
          if (left?.type === "identifier") names.add(left.text);
        }
      }
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return [...names].sort();
}

/**
 * How many calls a test runs outside its assertions: the call and
 * construction nodes under `scope` (the test's declaration) that lie in no
 * assertion's statement (the statement starting where the assertion, at one
 * of `starts`, starts), plus, for a Python test, the fixtures it requests
 * (its parameters other than `self`/`cls`: each runs code before it). A test
 * with none runs nothing but its checks (TestCase.callCount).
 */
export function callsOutsideChecks(scope: Node, starts: readonly number[]): number {
  const calls = callStartsOutsideChecks(scope, starts).length;
  if (scope.type !== "function_definition") return calls;
  const params = (scope.childForFieldName("parameters")?.namedChildren ?? []).filter((param) => param !== null && !/^(self|cls)$/.test(param.text));
  return calls + params.length;
}

/** The start offsets of the calls {@link callsOutsideChecks} counts in the body (fixtures aside), in source order. */
export function callStartsOutsideChecks(scope: Node, starts: readonly number[]): number[] {
  const ranges: [number, number][] = [];
  for (const start of starts) {
    let node: Node | null = scope.descendantForIndex(start);
    while (node?.parent && node.parent.id !== scope.id && node.parent.startIndex === start && !CONTAINER.test(node.parent.type)) node = node.parent;
    if (node) ranges.push([start, node.endIndex]);
  }
  const calls: number[] = [];
  const visit = (node: Node): void => {
    if (ranges.some(([start, end]) => node.startIndex >= start && node.endIndex <= end)) return;
    if (CALL.test(node.type)) calls.push(node.startIndex);
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(scope.childForFieldName("body") ?? scope);
  return calls;
}

/** Statements that decide whether or when what they hold runs, or run it under a handler: a call inside runs maybe not at all (or its error is caught). */
const COMPOUND_STATEMENT =
  /^(?:if|unless|try|try_with_resources|begin|for|foreach|enhanced_for|while|until|do|with|switch|expression_switch|type_switch|case|match|select|block|unsafe_block|rescue|synchronized|using|lock|checked|unsafe|fixed|defer|go|labeled|loop|yield)(?:_statement|_expression|_modifier)?$|^(?:local_function_statement|function_definition|function_declaration|method_declaration|method|class|class_definition|class_declaration|decorated_definition)$/;

/** Statements that end the body's run: what follows them never runs. */
const ENDING_STATEMENT = /^(?:return|return_statement|return_expression|throw_statement|throw_expression|raise_statement|break_statement|continue_statement|next|redo|retry)$/;

/** Expressions whose later operands run only under a condition (`a && f()`, `x ?: f()`, `c ? f() : g()`, C#/Ruby safe navigation). */
const CONDITIONAL_EXPRESSION =
  /^(?:conditional_expression|ternary_expression|conditional_access_expression|if_expression|match_expression|if_modifier|unless_modifier|rescue_modifier|elvis_expression)$/;

/** Short-circuit operators: the right operand runs only when the left decides so. */
const SHORT_CIRCUIT: ReadonlySet<string> = new Set(["&&", "||", "and", "or", "??", "?:", "?->"]);

/**
 * What a test body runs at its top level whatever happens
 * (TestCase.directCalls), as source text: each top-level statement of
 * `body` (its statement list) that is no compound statement (`if`, `try`,
 * a loop, a `with`, a `defer`, a Ruby modifier or `rescue`) and each call
 * in one, outside callbacks (blocks, lambdas, closures, function literals),
 * conditional and short-circuit branches and safe navigation (`?.`,
 * `&.`). What follows a top-level `return`/`throw`/`raise` never runs. A
 * body that may swallow its own errors runs nothing this way: a Ruby method
 * or block with `rescue` (an `ensure` swallows nothing), a Go test that
 * calls `recover()` or defers a call.
 */
export function unconditionalRunsOf(body: Node): string[] {
  const statements = body.namedChildren.filter((child): child is Node => child !== null && !/comment/.test(child.type));
  // A `defer` may run a function that recovers (`defer swallow()`, `defer func() { recover() }()`): any panic may be swallowed.
  if (statements.some((child) => child.type === "rescue" || child.type === "defer_statement") || /\brecover\(\)/.test(body.text)) return [];
  const runs: string[] = [];
  const visit = (node: Node): void => {
    if (CALLBACK.test(node.type) || CONDITIONAL_EXPRESSION.test(node.type)) return;
    if (node.type === "call" && node.childForFieldName("operator")?.text === "&.") return;
    if (CALL.test(node.type)) runs.push(node.text);
    const operator = node.childForFieldName("operator")?.text;
    const children = node.namedChildren.filter((child): child is Node => child !== null);
    for (const child of operator !== undefined && SHORT_CIRCUIT.has(operator) ? children.slice(0, 1) : children) visit(child);
  };
  for (const statement of statements) {
    const inner = statement.type === "expression_statement" ? (statement.namedChild(0) ?? statement) : statement;
    if (ENDING_STATEMENT.test(inner.type)) break;
    // A block that catches nothing runs what it holds whatever happens: a `try` with no catch (Java's try-with-resources, a
    // `finally` only), C#'s `using`, Ruby's `begin … ensure` with no `rescue`.
    const transparent = transparentBlock(inner);
    if (transparent) runs.push(...unconditionalRunsOf(transparent));
    if (COMPOUND_STATEMENT.test(inner.type) || CONDITIONAL_EXPRESSION.test(inner.type)) continue;
    runs.push(statement.text);
    visit(statement);
  }
  return runs;
}

/** The statement list a block that catches nothing runs (see {@link unconditionalRunsOf}), or null. */
function transparentBlock(node: Node): Node | null {
  const children = node.namedChildren.filter((child): child is Node => child !== null);
  const catches = children.some((child) => /^(?:catch_clause|except_clause|rescue)$/.test(child.type));
  if (catches) return null;
  if (/^(?:try_statement|try_with_resources_statement|using_statement)$/.test(node.type)) return node.childForFieldName("body") ?? children.find((child) => child.type === "block") ?? null;
  if (node.type === "begin") return node;
  return null;
}

/** At most this many written places are recorded per product file (CodeFacts.writes). */
const MAX_WRITES = 500;

/** Assignment targets that name a place outside the function's locals: an element (`ENV["X"]`, `cache[k]`) or a member of another object (`os.environ`, `config.mode`). */
const PLACE =
  /^(subscript|element_reference|subscript_expression|index_expression|element_access_expression|array_access|attribute|member_access_expression|field_expression|selector_expression|field_access|scoped_property_access_expression)$/;

/**
 * The places a product file writes outside its locals (CodeFacts.writes):
 * the targets of its assignments that are an element or a member of
 * another object, as written with whitespace dropped, unique, sorted; the
 * object's own state (`self.x`, `this.x`, `$this->x`, `@x`) left out (its
 * tests read it through methods). A check reading a place the change no
 * longer writes checked a side effect that is gone (rules/dependencies.ts).
 */
export function writtenPlaces(root: Node): string[] {
  const places = new Set<string>();
  const visit = (node: Node): void => {
    if (places.size >= MAX_WRITES) return;
    if (BINDING.test(node.type)) {
      const target = node.childForFieldName("left");
      if (target && PLACE.test(target.type) && !/^(self|this|\$this|static|self::|static::)\b|^@|^self::|^static::/.test(target.text)) places.add(target.text.replace(/\s+/g, ""));
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return [...places].sort();
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
