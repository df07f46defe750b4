/**
 * Ruby: RSpec (`describe`/`context` groups, `it`/`specify`/`example`/`its`
 * examples, `x*` and `skip:` skips, `f*`/`focus:` focus, `pending`,
 * examples without a block as todo, `skip`/`pending` inside an example) and
 * minitest (`def test_*` in a `Minitest::Test`/`*TestCase` class,
 * ActiveSupport `test "name" do`, `skip`), with their assertions
 * (`expect(...).to matcher`, `assert_*`/`refute_*`, `must_*`/`wont_*`), from
 * tree-sitter-ruby with the one flat query grammars/ruby/facts.scm.
 */

import { isConditionalWithin } from "../parsers/skip-reach.js";
import {
  type AssertionDraft,
  boundLocalValue,
  compactText,
  enclosingEachRows,
  type ExtractedDrafts,
  hashNode,
  isLiteral,
  literalsOf,
  type LoadedGrammar,
  namedChildren,
  type Node,
  normalizedText,
  queryCaptures,
  type SkipDraft,
  type SkipReach,
  stringValue,
  type TestDraft,
  thunkSubject,
} from "../parsers/tree-sitter.js";
import {
  counterTarget,
  literalText,
  MODE_ENV_VARS,
  RUNNER_ENV_VARS,
  type BranchDraft,
  type CodeSyntax,
  type EscapeDraft,
  type ExportDraft,
  type FlowSyntax,
  type GuardDraft,
} from "../parsers/tree-sitter-code.js";
import { hashText, type AssertionFact, type NonTestFunctionFact, type TestDefinerFact, type TestFlag } from "../facts.js";
import { withOwnDefinedTests } from "../test-definers.js";
import { isUnderTestDirectory } from "./language.js";
import { defineLanguage } from "./define-language.js";
import { catchesOnlyLookupErrors, LOOKUP_ERRORS } from "./lookup-errors.js";
import { createdType, statementNodes, withTryChecks, type TrySyntax } from "../parsers/tree-sitter-try.js";
import { RUBY_SHADOWS } from "./shadow-tables.js";

/**
 * `*_spec.rb`, `*_test.rb`, `test_*.rb`, or under `spec/`/`test/` — but not
 * a `test/` folder inside `lib/`, the gem's load path, where it is a
 * namespace of product code (`lib/rack/test/uploaded_file.rb` is
 * `Rack::Test::UploadedFile`).
 */
export function isRubyTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (/(_spec|_test)\.rb$/.test(name) || /^test_.*\.rb$/.test(name)) return true;
  const segments = path.split("/").slice(0, -1);
  const lib = segments.indexOf("lib");
  return isUnderTestDirectory(lib === -1 ? path : `${segments.slice(0, lib).join("/")}/${name}`);
}

/** RSpec/minitest-spec declaration names -> kind and the flag the name sets. */
const DECLARATIONS: ReadonlyMap<string, { kind: "group" | "example"; flag?: TestFlag }> = new Map([
  ["describe", { kind: "group" }],
  ["context", { kind: "group" }],
  ["feature", { kind: "group" }],
  ["xdescribe", { kind: "group", flag: "skipped" }],
  ["xcontext", { kind: "group", flag: "skipped" }],
  ["xfeature", { kind: "group", flag: "skipped" }],
  ["fdescribe", { kind: "group", flag: "focused" }],
  ["fcontext", { kind: "group", flag: "focused" }],
  ["ffeature", { kind: "group", flag: "focused" }],
  ["it", { kind: "example" }],
  ["its", { kind: "example" }],
  ["specify", { kind: "example" }],
  ["example", { kind: "example" }],
  ["scenario", { kind: "example" }],
  ["test", { kind: "example" }],
  ["xit", { kind: "example", flag: "skipped" }],
  ["xits", { kind: "example", flag: "skipped" }],
  ["xspecify", { kind: "example", flag: "skipped" }],
  ["xexample", { kind: "example", flag: "skipped" }],
  ["xscenario", { kind: "example", flag: "skipped" }],
  ["skip", { kind: "example", flag: "skipped" }],
  ["fit", { kind: "example", flag: "focused" }],
  ["fspecify", { kind: "example", flag: "focused" }],
  ["fexample", { kind: "example", flag: "focused" }],
  ["fscenario", { kind: "example", flag: "focused" }],
  ["focus", { kind: "example", flag: "focused" }],
  ["pending", { kind: "example", flag: "failing" }],
]);

/** Metadata keys of an example or group that set a flag (`skip: "why"`, `focus: true`, `pending: true`). */
const METADATA_FLAGS: ReadonlyMap<string, TestFlag> = new Map([
  ["skip", "skipped"],
  ["focus", "focused"],
  ["pending", "failing"],
]);

/** RSpec matchers and minitest assertions -> strength; negation comes from not_to/refute. */
const STRENGTH: ReadonlyMap<string, 0 | 1 | 2 | 3> = new Map([
  ["eq", 3],
  ["eql", 3],
  ["equal", 3],
  ["be", 3],
  ["match_array", 3],
  ["contain_exactly", 3],
  ["be_within", 3],
  ["include", 2],
  ["match", 2],
  ["start_with", 2],
  ["end_with", 2],
  ["have_key", 2],
  ["be_a", 2],
  ["be_an", 2],
  ["be_kind_of", 2],
  ["be_instance_of", 2],
  ["have_attributes", 2],
  ["respond_to", 2],
  ["change", 2],
  ["have_received", 2],
  ["raise_error", 2],
  ["throw_symbol", 2],
  ["output", 2],
  ["satisfy", 1],
  ["be_truthy", 1],
  ["be_falsey", 1],
  ["be_falsy", 1],
  ["be_nil", 1],
  ["be_present", 1],
  ["be_empty", 1],
  ["be_blank", 1],
  ["assert_equal", 3],
  ["assert_same", 3],
  ["assert_nil", 3],
  ["assert_in_delta", 2],
  ["assert_in_epsilon", 2],
  ["assert_includes", 2],
  ["assert_match", 2],
  ["assert_instance_of", 2],
  ["assert_kind_of", 2],
  ["assert_raises", 2],
  ["assert_operator", 2],
  ["assert_respond_to", 2],
  ["assert_output", 2],
  ["assert_throws", 2],
  ["assert", 1],
  ["assert_empty", 1],
  ["assert_predicate", 1],
  ["assert_not_nil", 1],
  ["flunk", 1],
  ["must_equal", 3],
  ["must_be_same_as", 3],
  ["must_be_nil", 3],
  ["must_include", 2],
  ["must_match", 2],
  ["must_be_instance_of", 2],
  ["must_be_kind_of", 2],
  ["must_raise", 2],
  ["must_be_empty", 1],
  ["must_be", 1],
]);

/** Exception classes too broad to pin a failure down. */
const BROAD_EXCEPTIONS: ReadonlySet<string> = new Set(["StandardError", "Exception", "RuntimeError"]);

/** Arguments of a call, without the block. */
function argumentsOf(call: Node): Node[] {
  const args = call.childForFieldName("arguments");
  return args ? namedChildren(args) : [];
}

/** Flags set by metadata: `skip: "why"`, `:skip`, `focus: true`, `pending: "why"`. */
function metadataMarks(args: readonly Node[]): TestDraft["marks"] {
  const marks: TestDraft["marks"] = {};
  for (const arg of args) {
    if (arg.type === "simple_symbol") {
      const flag = METADATA_FLAGS.get(arg.text.slice(1));
      if (flag) marks[flag] = { via: arg.text };
    } else if (arg.type === "pair") {
      const key = arg.childForFieldName("key")?.text.replace(/^:|:$/g, "") ?? "";
      const value = arg.childForFieldName("value");
      const flag = METADATA_FLAGS.get(key);
      if (!flag || !value || value.type === "false" || value.type === "nil") continue;
      const reason = stringValue(value);
      marks[flag] = reason === null ? { via: `${key}:` } : { via: `${key}:`, reason };
    }
  }
  return marks;
}

/** The title of a group or example: its first string/constant/symbol argument, or the body for `it { ... }`. */
function titleOf(call: Node): string {
  const first = argumentsOf(call)[0];
  if (first && first.type !== "pair") return stringValue(first) ?? first.text;
  const block = call.childForFieldName("block");
  return block
    ? `{ ${normalizedText(block)
        .replace(/^(do|\{)\s*|\s*(end|\})$/g, "")
        .slice(0, 80)} }`
    : "(untitled)";
}

/**
 * The description of an example group, as RSpec builds it from the group's
 * arguments (rspec-core, ExampleGroup description: `describe
 * Addressable::URI, "when created with a non-string authority"` is
 * "Addressable::URI when created with a non-string authority"; a second
 * string starting with `#`, `.` or `::` is joined with no space): its
 * first argument's title, then a second argument that is a string.
 * Metadata (symbols, pairs) is no part of it. Without the second string,
 * groups of one class described per context shared one name, and their
 * tests one id (sweep of sporkmonger/addressable 01053b2).
 */
function groupTitleOf(call: Node, title: string): string {
  const second = argumentsOf(call)[1];
  const text = second && (second.type === "string" || second.type === "string_content") ? stringValue(second) : null;
  if (text === null || text === "") return title;
  return /^(?:#|\.|::)/.test(text) ? `${title}${text}` : `${title} ${text}`;
}

/** True for an example call with no title argument (`example { … }`, `it { is_expected.to … }`): {@link titleOf} names it by its body. */
function isUntitled(call: Node): boolean {
  const first = argumentsOf(call)[0];
  return (!first || first.type === "pair") && call.childForFieldName("block") !== null;
}

/** The body of a method or block, for hashing and literals. */
function bodyOf(node: Node): Node | null {
  return node.childForFieldName("body") ?? node.childForFieldName("block") ?? null;
}

/** Nodes between a class body and a method that keep the method a method of that class (`def ... end unless windows?`). */
const TRANSPARENT_TYPES: ReadonlySet<string> = new Set(["body_statement", "if", "unless", "then", "else", "elsif", "if_modifier", "unless_modifier", "begin"]);

/** The class a method is defined in, through conditionals and modifiers; null for top-level and nested (block, method) definitions. */
function enclosingClass(definition: Node): Node | null {
  for (let node = definition.parent; node; node = node.parent) {
    if (node.type === "class") return node;
    if (!TRANSPARENT_TYPES.has(node.type)) return null;
  }
  return null;
}

/** The `before`/`prepend_before`/`append_before` hook call whose block holds this node, if any (stopping at examples). */
/** A skip in minitest's `setup` reaches every test of its class; in another method, the examples and tests calling it (bare calls too). */
const RUBY_SKIP_REACH: SkipReach = {
  classify(fn) {
    const name = fn.childForFieldName("name")?.text;
    if (!name) return null;
    const cls = enclosingClass(fn);
    if (name === "setup" && cls) return { kind: "setup", scope: cls, label: "setup" };
    return { kind: "helper", name };
  },
  functionTypes: new Set(["method", "singleton_method"]),
  hasBareCalls: true,
};

function enclosingHook(node: Node): Node | null {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type !== "call") continue;
    const name = parent.childForFieldName("method")?.text ?? "";
    if (/^(prepend_|append_)?before$/.test(name)) return parent;
    if (DECLARATIONS.has(name)) return null;
  }
  return null;
}

/** Is this `class X < Base` a minitest/test-unit test class? */
function isTestClass(node: Node): boolean {
  const superclass = node.childForFieldName("superclass")?.text ?? "";
  const name = node.childForFieldName("name")?.text ?? "";
  return /Minitest::Test|MiniTest::Unit::TestCase|Test::Unit::TestCase|TestCase\b|Minitest::Spec/.test(superclass) || (/Test$/.test(name) && superclass !== "");
}

/** One expectation or minitest assertion as an AssertionFact. */
function expectationFact(node: Node, to: string, args: Node | undefined, line: number): AssertionFact {
  const negated = to === "not_to" || to === "to_not" || to === "should_not";
  const matcherNode = args ? namedChildren(args)[0] : undefined;
  // A chained matcher (`change { x }.from(1).to(2)`, `eq(1).and eq(2)`) is named by its first link.
  let head = matcherNode;
  while (head?.type === "call" && head.childForFieldName("receiver")?.type === "call") head = head.childForFieldName("receiver") as Node;
  const matcher = head?.type === "call" ? (head.childForFieldName("method")?.text ?? "") : (head?.text ?? "");
  const matcherArgs = head?.type === "call" ? argumentsOf(head) : [];
  let strength = STRENGTH.get(matcher) ?? (/^(be_|have_)/.test(matcher) ? 1 : 2);
  if (matcher === "raise_error") {
    const type = matcherArgs[0]?.text;
    strength = type === undefined || BROAD_EXCEPTIONS.has(type) ? 1 : matcherArgs.length > 1 ? 3 : 2;
  }
  const receiver = node.childForFieldName("receiver");
  const isExpect = receiver?.type === "call" && receiver.childForFieldName("method")?.text === "expect";
  // `expect { call }`: the block's one statement is the call under test (what `expect(-> { call })` names).
  const block = isExpect ? receiver.childForFieldName("block") : null;
  const blockStatements = block ? namedChildren(bodyOf(block) ?? block) : [];
  const subject = isExpect ? (argumentsOf(receiver)[0] ?? (blockStatements.length === 1 ? blockStatements[0] : undefined)) : receiver?.type === "identifier" ? receiver : undefined;
  const fact: AssertionFact = { line, matcher: `${to} ${matcher}`, strength: negated && strength === 3 ? 2 : strength, tautology: false };
  if (negated) fact.negated = true;
  if (subject) fact.actual = compactText(subject) as string;
  else if (receiver?.type === "call" && receiver.childForFieldName("method")?.text === "expect") {
    // expect { parse("") }.to raise_error(E): the block's code is the subject.
    const block = receiver.childForFieldName("block");
    const code = block ? thunkSubject(block) : undefined;
    if (code !== undefined) fact.actual = code;
  }
  if (matcherArgs[0] && matcher !== "raise_error") fact.expected = compactText(matcherArgs[0]) as string;
  else if (matcherArgs[0]) fact.expected = matcherArgs[0].text;
  // raise_error(E, "message") / raise_error(E, /pattern/) pins the message too.
  if (matcher === "raise_error" && matcherArgs[1]) fact.message = compactText(matcherArgs[1]) as string;
  const isAlwaysTrue =
    !negated &&
    subject !== undefined &&
    isLiteral(subject) &&
    ((matcher === "be_truthy" && subject.type !== "false" && subject.type !== "nil") || (STRENGTH.get(matcher) === 3 && fact.expected === fact.actual));
  if (isAlwaysTrue) Object.assign(fact, { strength: 0, tautology: true });
  return fact;
}

function minitestFact(node: Node, matcher: string, line: number): AssertionFact {
  const isRefute = matcher.startsWith("refute") || matcher.startsWith("wont");
  const positive = matcher.replace(/^refute/, "assert").replace(/^wont/, "must");
  let strength: 0 | 1 | 2 | 3 = STRENGTH.get(positive) ?? 1;
  const args = argumentsOf(node);
  // refute_equal still pins a value down (2); refute_nil only says "something" (1).
  const isNilCheck = /_nil$/.test(positive);
  const fact: AssertionFact = { line, matcher, strength: isRefute && strength === 3 ? (isNilCheck ? 1 : 2) : strength, tautology: false };
  if (isRefute) fact.negated = true;
  // assert_nothing_raised { parse("") } (test-unit, ActiveSupport::TestCase): the block raises nothing, a negated error check of its code.
  if (matcher === "assert_nothing_raised") {
    Object.assign(fact, { negated: true, strength: 1 });
    const block = node.childForFieldName("block");
    const code = block ? thunkSubject(block) : undefined;
    if (code !== undefined) fact.actual = code;
    return fact;
  }
  if (positive === "assert_raises") {
    const type = args[0]?.text;
    strength = type === undefined || BROAD_EXCEPTIONS.has(type) ? 1 : 2;
    fact.strength = strength;
    if (type) fact.expected = type;
    // assert_raises(E) { parse("") }: the block's code is the subject.
    const block = node.childForFieldName("block");
    const code = block ? thunkSubject(block) : undefined;
    if (code !== undefined) fact.actual = code;
    return fact;
  }
  const isSpec = matcher.startsWith("must") || matcher.startsWith("wont");
  const receiver = node.childForFieldName("receiver");
  // `_(x).must_equal y` / `expect(x)` / `value(x)` wrap the subject; any other receiver (`r.scheme.must_equal y`) is the subject itself.
  const isWrapped = receiver?.type === "call" && receiver.childForFieldName("receiver") === null && /^(?:_|expect|value)$/.test(receiver.childForFieldName("method")?.text ?? "");
  const subject = isSpec ? (isWrapped && receiver ? argumentsOf(receiver)[0] : receiver) : undefined;
  const [first, second] = args;
  if (isSpec) {
    if (subject) fact.actual = compactText(subject) as string;
    // A hash passed without braces (`must_equal("a" => 1, "b" => 2)`) is one argument, the whole hash.
    if (first?.type === "pair")
      fact.expected = `{ ${args
        .filter((arg) => arg.type === "pair")
        .map((arg) => compactText(arg) as string)
        .join(" , ")} }`;
    else if (first) fact.expected = compactText(first) as string;
  } else if (strength >= 2 && first && second) {
    fact.expected = compactText(first) as string;
    fact.actual = compactText(second) as string;
    // assert_in_delta(want, got, delta) / assert_in_epsilon(want, got, epsilon): the tolerance (checks/tolerance.ts).
    if (args[2] && !isRefute && /^assert_in_(?:delta|epsilon)$/.test(positive)) fact.tolerance = compactText(args[2]) as string;
  } else if (first) fact.actual = compactText(first) as string;
  const isAlwaysTrue = (positive === "assert" && first?.type === "true" && !isRefute) || (strength === 3 && !isRefute && fact.expected !== undefined && fact.expected === fact.actual);
  if (isAlwaysTrue) Object.assign(fact, { strength: 0, tautology: true });
  return fact;
}

interface Group {
  node: Node;
  title: string;
  marks: TestDraft["marks"];
}

/** Methods that run a block given as `&block` in the receiver's scope: a definer's example runs its caller's body with one. */
const BLOCK_RUNNERS: ReadonlySet<string> = new Set(["instance_exec", "instance_eval", "class_exec", "class_eval", "module_exec", "module_eval"]);

/** RSpec's own block-taking words that are no test definers whatever a project defines (shared groups, hooks, lets). */
const RSPEC_DSL: ReadonlySet<string> = new Set([
  "shared_examples",
  "shared_examples_for",
  "shared_context",
  "include_examples",
  "include_context",
  "it_behaves_like",
  "it_should_behave_like",
  "let",
  "let!",
  "subject",
  "before",
  "after",
  "around",
]);

/**
 * True when `statement` always runs the block parameter `block` (null: only
 * the implicit block): `instance_exec(&block)` and its kin, `block.call`,
 * `yield`, or a `begin … ensure … end` holding one; a `begin` with a
 * `rescue` may swallow the body's failures, and an `if` may not run it.
 */
function runsBlock(statement: Node, block: string | null): boolean {
  if (statement.type === "yield") return true;
  if (statement.type === "begin") {
    const children = namedChildren(statement);
    return !children.some((child) => child.type === "rescue") && children.some((child) => child.type !== "ensure" && runsBlock(child, block));
  }
  if (statement.type !== "call" || block === null) return false;
  const method = statement.childForFieldName("method")?.text ?? "";
  const receiver = statement.childForFieldName("receiver");
  if (receiver?.type === "identifier" && receiver.text === block) return method === "call" || method === "()";
  if (receiver || !BLOCK_RUNNERS.has(method)) return false;
  return argumentsOf(statement).some((arg) => arg.type === "block_argument" && namedChildren(arg)[0]?.text === block);
}

/**
 * The test definer an example makes of the method whose body states it
 * (facts.ts TestDefinerFact): `def self.deprecated(a, &block)` with
 * `it("#{a} (deprecated)") { …; instance_exec(&block) }`, `it(a, &block)`,
 * `specify(a) { yield }`; null when the example is no statement of a
 * method, its title is not made from a parameter, or it does not always
 * run the method's block.
 */
function rubyDefinerOf(example: Node, marks: TestDraft["marks"]): TestDefinerFact | null {
  const method = example.parent?.type === "body_statement" ? example.parent.parent : null;
  if (!method || (method.type !== "method" && method.type !== "singleton_method")) return null;
  const name = method.childForFieldName("name")?.text;
  if (!name) return null;
  const params: (string | null)[] = [];
  let block: string | null = null;
  for (const param of namedChildren(method.childForFieldName("parameters") ?? method).filter((child) => child.parent?.type === "method_parameters")) {
    if (param.type === "block_parameter") block = param.childForFieldName("name")?.text ?? null;
    else if (param.type === "identifier") params.push(param.text);
    else if (param.type === "optional_parameter") params.push(param.childForFieldName("name")?.text ?? null);
    else params.push(null);
  }
  const args = argumentsOf(example);
  const first = args[0];
  let titleParam = -1;
  let title: string | null = null;
  if (first?.type === "identifier") {
    titleParam = params.indexOf(first.text);
    title = "{}";
  } else if (first?.type === "string") {
    const pieces: string[] = [];
    for (const child of namedChildren(first)) {
      const inner = child.type === "interpolation" ? namedChildren(child) : [];
      const index = inner.length === 1 && inner[0]?.type === "identifier" ? params.indexOf(inner[0].text) : -1;
      if (index !== -1 && (titleParam === -1 || titleParam === index)) {
        titleParam = index;
        pieces.push("{}");
      } else pieces.push(child.text);
    }
    title = pieces.join("");
  }
  if (titleParam === -1 || title === null) return null;
  const blockBody = example.childForFieldName("block");
  const body = blockBody ? (bodyOf(blockBody) ?? null) : null;
  const isRun = blockBody
    ? namedChildren(body ?? blockBody).some((statement) => runsBlock(statement, block))
    : block !== null && args.some((arg) => arg.type === "block_argument" && namedChildren(arg)[0]?.text === block);
  if (!isRun) return null;
  const fact: TestDefinerFact = { name, line: method.startPosition.row + 1, titleParam, bodyParam: "block", title };
  const flagVia: Partial<Record<TestFlag, string>> = Object.fromEntries(Object.entries(marks).flatMap(([flag, mark]) => (mark ? [[flag, mark.via]] : [])));
  // `skip "why"` / `pending` in the declared example's body stops every test defined through it (under a modifier: when its condition holds).
  for (const statement of namedChildren(body ?? blockBody ?? example)) {
    const isModifier = statement.type === "if_modifier" || statement.type === "unless_modifier";
    const call = isModifier ? statement.childForFieldName("body") : statement;
    const word = call?.type === "identifier" ? call.text : call?.type === "call" && !call.childForFieldName("receiver") ? call.childForFieldName("method")?.text : undefined;
    if (word !== "skip" && word !== "pending") continue;
    const flag: TestFlag = word === "pending" ? "failing" : isModifier ? "conditional" : "skipped";
    if (!flagVia[flag]) flagVia[flag] = `${word}()`;
  }
  if (Object.keys(flagVia).length > 0) fact.flagVia = flagVia;
  return fact;
}

/**
 * True when `call` may define a test through a project method (facts.ts
 * HelperTestFact): a receiver-less call of a method that is no declaration
 * nor RSpec word, with a string title and a block that declares no
 * example or group itself, outside every example and method.
 */
function isHelperTestCall(call: Node, method: string): boolean {
  if (DECLARATIONS.has(method) || RSPEC_DSL.has(method) || call.childForFieldName("receiver")) return false;
  const block = call.childForFieldName("block");
  if (!block || argumentsOf(call)[0]?.type !== "string") return false;
  for (let parent = call.parent; parent; parent = parent.parent) {
    if (parent.type === "method" || parent.type === "singleton_method") return false;
    if (parent.type === "call" && DECLARATIONS.get(parent.childForFieldName("method")?.text ?? "")?.kind === "example") return false;
  }
  return !block.descendantsOfType("call").some((inner) => {
    if (inner === null) return false;
    const declaration = DECLARATIONS.get(inner.childForFieldName("method")?.text ?? "");
    return declaration !== undefined && (inner.childForFieldName("block") !== null || (declaration.kind === "example" && !/^(skip|pending)$/.test(inner.childForFieldName("method")?.text ?? "")));
  });
}

function extractRubyDrafts(path: string, grammar: LoadedGrammar, root: Node): ExtractedDrafts {
  const groups: Group[] = [];
  const examples: { node: Node; title: string; marks: TestDraft["marks"]; body: Node | null; helper?: string }[] = [];
  const testDefiners: TestDefinerFact[] = [];
  const loads: string[] = [];
  const tests: TestDraft[] = [];
  const nonTestFunctions: NonTestFunctionFact[] = [];
  const skips: SkipDraft[] = [];
  const frameworks = new Set<string>();
  const matches = queryCaptures(grammar, "facts", root);

  for (const match of matches) {
    const call = match.get("call");
    const method = call?.childForFieldName("method")?.text;
    if (!call || !method) continue;
    const receiver = call.childForFieldName("receiver");
    if (receiver && receiver.text !== "RSpec") continue;
    const declaration = DECLARATIONS.get(method);
    if (!declaration) {
      const loaded = /^require(_relative)?$/.test(method) && !receiver ? stringValue(argumentsOf(call)[0]) : null;
      if (loaded !== null && call.parent?.type === "program") loads.push(method === "require_relative" && !loaded.startsWith(".") ? `./${loaded}` : loaded);
      else if (isHelperTestCall(call, method)) {
        const block = call.childForFieldName("block") as Node;
        examples.push({ node: call, title: titleOf(call), marks: {}, body: bodyOf(block) ?? block, helper: method });
      }
      continue;
    }
    const block = call.childForFieldName("block");
    const args = argumentsOf(call);
    // `skip`/`pending` with a block is an example; without one it is a runtime skip (handled below).
    if ((method === "skip" || method === "pending") && !block) continue;
    if (declaration.kind === "example" && method === "test" && (!block || args.length === 0)) continue;
    if (declaration.kind === "group" && !block) continue;
    if (declaration.kind === "example" && !block && args.length === 0) continue;
    const marks = metadataMarks(args);
    if (declaration.flag && !marks[declaration.flag]) marks[declaration.flag] = { via: method };
    if (declaration.kind === "example" && !block) marks.todo = { via: `${method} without a block` };
    frameworks.add(method === "test" ? "minitest" : "rspec");
    const title = titleOf(call);
    const definer = declaration.kind === "example" ? rubyDefinerOf(call, marks) : null;
    if (definer)
      testDefiners.push(definer); // a template of the tests its callers define, no test itself
    else if (declaration.kind === "group") groups.push({ node: call, title: groupTitleOf(call, title), marks });
    else examples.push({ node: call, title: method === "its" ? `its(${title})` : title, marks, body: block ? (bodyOf(block) ?? block) : null });
  }

  const containing = (node: Node): Group[] =>
    groups.filter((group) => group.node.startIndex < node.startIndex && node.endIndex <= group.node.endIndex).sort((a, b) => a.node.startIndex - b.node.startIndex);

  // `before { skip "why" }` in a group skips every example of the group.
  for (const match of matches) {
    const call = match.get("call");
    const method = call?.childForFieldName("method")?.text;
    if (!call || (method !== "skip" && method !== "pending") || call.childForFieldName("receiver") || call.childForFieldName("block")) continue;
    const hook = enclosingHook(call);
    const group = hook ? containing(hook).pop() : undefined;
    if (!group) continue;
    // `before { skip "posix" if windows? }` skips only under its condition.
    const flag: TestFlag = method === "pending" ? "failing" : hook && isConditionalWithin(call, hook) ? "conditional" : "skipped";
    const reason = stringValue(argumentsOf(call)[0]);
    if (!group.marks[flag]) group.marks[flag] = reason === null ? { via: `${method}() in a before hook` } : { via: `${method}() in a before hook`, reason };
  }

  const helperTests: NonNullable<ExtractedDrafts["helperTests"]> = [];
  for (const example of examples) {
    const enclosing = containing(example.node);
    const marks = { ...example.marks };
    for (const group of [...enclosing].reverse()) {
      for (const [flag, mark] of Object.entries(group.marks) as [TestFlag, { via: string; reason?: string }][]) {
        if (!marks[flag]) marks[flag] = { ...mark, via: `${mark.via} on group "${group.title}"` };
      }
    }
    const body = example.body;
    const draft: TestDraft = {
      name: example.title,
      suitePath: enclosing.map((group) => group.title),
      line: example.node.startPosition.row + 1,
      node: example.node,
      bodyHash: hashNode(body),
      marks,
      literals: body ? literalsOf(body) : [],
      body,
    };
    if (isUntitled(example.node)) draft.untitled = true;
    // `[[…], […]].each do |a, b| it "…" do … end end`: the example runs once per row.
    const rows = enclosingEachRows(example.node);
    if (rows) {
      draft.eachRows = rows.length;
      draft.eachRowHashes = rows.map((row) => hashText(row.join("\u0000")).slice(0, 12));
      draft.eachRowLiterals = rows;
    }
    if (example.helper !== undefined) helperTests.push({ call: { helper: example.helper, titleArgument: 0, bodyArgument: "block" }, draft });
    else tests.push(draft);
  }

  for (const match of matches) {
    const definition = match.get("definition");
    const name = definition?.childForFieldName("name")?.text;
    if (!definition || !name) continue;
    const classNode = enclosingClass(definition);
    const body = bodyOf(definition);
    const line = definition.startPosition.row + 1;
    const suitePath = classNode ? [classNode.childForFieldName("name")?.text ?? ""] : [];
    const isTest = classNode !== null && isTestClass(classNode) && name.startsWith("test_");
    if (!isTest) {
      nonTestFunctions.push({ name, suitePath, line, bodyHash: hashNode(body) });
      continue;
    }
    frameworks.add("minitest");
    tests.push({ name, suitePath, line, node: definition, bodyHash: hashNode(body), marks: {}, literals: body ? literalsOf(body) : [], body });
  }

  for (const match of matches) {
    const call = match.get("call");
    const isCallSkip = call !== undefined && !call.childForFieldName("receiver") && /^(skip|pending)$/.test(call.childForFieldName("method")?.text ?? "") && !call.childForFieldName("block");
    const node = isCallSkip ? call : match.get("bare_skip");
    if (!node) continue;
    if (!isCallSkip && !["body_statement", "block_body", "then", "else", "begin_block", "if_modifier", "unless_modifier"].includes(node.parent?.type ?? "")) continue;
    const method = isCallSkip ? (node.childForFieldName("method")?.text ?? "skip") : node.text;
    const reason = isCallSkip ? stringValue(argumentsOf(node)[0]) : null;
    const skip: SkipDraft = { startIndex: node.startIndex, flag: method === "pending" ? "failing" : "skipped", via: `${method}()`, node };
    if (reason !== null) skip.reason = reason;
    skips.push(skip);
  }
  tests.sort((a, b) => a.node.startIndex - b.node.startIndex);

  const assertions: AssertionDraft[] = [];
  for (const match of matches) {
    const call = match.get("call");
    const method = call?.childForFieldName("method")?.text ?? "";
    const hasReceiver = call?.childForFieldName("receiver") != null;
    const isExpectation = /^(to|not_to|to_not|should|should_not)$/.test(method) && call?.childForFieldName("arguments") != null;
    const isAssertion = hasReceiver ? /^(must|wont)_/.test(method) : /^(assert|refute|flunk)/.test(method);
    const expectation = isExpectation ? call : undefined;
    const assertion = !isExpectation && isAssertion ? call : undefined;
    if (expectation) {
      const to = method;
      // `.to` also chains inside matchers (`change { x }.from(1).to(2)`): only expect(...)/is_expected receivers assert.
      const receiver = expectation.childForFieldName("receiver");
      const receiverName = receiver?.type === "call" ? receiver.childForFieldName("method")?.text : receiver?.text;
      if (!to.startsWith("should") && !/^(expect|is_expected|are_expected|expect_any_instance_of)$/.test(receiverName ?? "")) continue;
      const fact = expectationFact(expectation, to, expectation.childForFieldName("arguments") ?? undefined, expectation.startPosition.row + 1);
      if (fact.actual !== undefined && /^[a-z_]\w*$/.test(fact.actual)) {
        const value = boundLocalValue(expectation, fact.actual);
        if (value !== undefined) fact.actualValue = value;
      }
      assertions.push({ ...fact, startIndex: expectation.startIndex });
    } else if (assertion) {
      const matcher = method;
      assertions.push({ ...minitestFact(assertion, matcher, assertion.startPosition.row + 1), startIndex: assertion.startIndex });
    }
  }
  return {
    tests,
    assertions: withTryChecks(root, assertions, RUBY_TRY),
    skips,
    nonTestFunctions: tests.length > 0 || isRubyTestPath(path) ? nonTestFunctions : [],
    frameworks: [...frameworks],
    skipReach: RUBY_SKIP_REACH,
    testDefiners,
    helperTests,
    loads,
  };
}

/** The exception a Ruby statement raises (`raise X, "m"`, `fail X`, a bare `raise`), else null. */
function rubyRaised(statement: Node | null | undefined): Node | string | null {
  if (!statement) return null;
  if (statement.type === "identifier" && (statement.text === "raise" || statement.text === "fail")) return statement.text;
  if (statement.type !== "call" || statement.childForFieldName("receiver")) return null;
  const method = statement.childForFieldName("method")?.text;
  if (method !== "raise" && method !== "fail") return null;
  return statement.childForFieldName("arguments")?.namedChild(0) ?? method;
}

/** The exception the last statement of a Ruby branch (`then`/`else` body) raises, else null. */
function rubyRaisedBy(branch: Node | null): Node | string | null {
  return branch ? rubyRaised(namedChildren(branch).at(-1)) : null;
}

/** Filtering calls and whether they keep the elements their block rejects (`reject`). */
const RUBY_FILTERS: Readonly<Record<string, boolean>> = { select: false, filter: false, find_all: false, reject: true };

/**
 * `xs.select { |x| bad(x) }.each { |x| raise … }` (`reject` negated,
 * `select(&:bad?)`): the loop guard `xs.each { |x| raise … if bad(x) }`
 * with its condition moved into the filter. The block must hold nothing
 * but the raise, after assignments.
 */
function rubyLoopGuard(node: Node): GuardDraft[] {
  if (node.childForFieldName("method")?.text !== "each") return [];
  const receiver = node.childForFieldName("receiver");
  const filter = receiver?.type === "call" ? receiver.childForFieldName("method")?.text : undefined;
  if (!receiver || filter === undefined || !(filter in RUBY_FILTERS)) return [];
  const predicateBlock = receiver.childForFieldName("block");
  const predicateBody = predicateBlock?.childForFieldName("body") ?? (predicateBlock ? namedChildren(predicateBlock).find((child) => child.type === "body_statement") : undefined);
  const expressions = predicateBody ? namedChildren(predicateBody) : [];
  const symbol = receiver.childForFieldName("arguments")?.namedChild(0);
  const condition = expressions.length === 1 ? expressions[0] : symbol?.type === "block_argument" ? symbol : undefined;
  const block = node.childForFieldName("block");
  const body = block?.childForFieldName("body") ?? (block ? namedChildren(block).find((child) => child.type === "body_statement") : undefined);
  const statements = body ? namedChildren(body).filter((child) => child.type !== "comment") : [];
  const raised = statements.length > 0 && statements.slice(0, -1).every((statement) => statement.type === "assignment") ? rubyRaised(statements.at(-1)) : null;
  return condition && raised ? [{ condition, action: raised, isNegated: RUBY_FILTERS[filter] }] : [];
}

/**
 * `begin v = t.fetch(k) rescue KeyError raise E, m end` (a method's own
 * `rescue` too): the exit of a failed lookup or conversion handled by
 * raising (GuardFact.handler), as the `raise E, m unless t.key?(k)` it
 * spells the other way. Only a `rescue` of lookup errors ({@link
 * LOOKUP_ERRORS}) whose last statement raises an error of its own (not a
 * bare `raise`) is one.
 */
function rubyHandlerGuard(node: Node): GuardDraft[] {
  if (!node.isNamed) return [];
  const { caught, guarded } = rubyRescued(node);
  const raised = rubyRaisedBy(node.childForFieldName("body"));
  const statements = guarded.filter((statement) => statement.type !== "comment");
  if (raised === null || typeof raised === "string" || statements.length === 0 || !catchesOnlyLookupErrors(caught, LOOKUP_ERRORS.ruby)) return [];
  return [{ condition: statements[0] as Node, guarded: statements, action: raised }];
}

/**
 * `t.fetch(k) { raise E, m }` (or a `do … end` block): the block runs when
 * the key is missing, so its raise is a handled lookup's exit
 * (GuardFact.handler) on the receiver and key, as the `raise E, m unless
 * t.key?(k)` it spells the other way. A block that answers a default is
 * none.
 */
function rubyFetchGuard(node: Node): GuardDraft[] {
  const receiver = node.childForFieldName("receiver");
  const key = node.childForFieldName("arguments");
  const block = node.childForFieldName("block");
  if (node.childForFieldName("method")?.text !== "fetch" || !receiver || !key || !block) return [];
  const body = block.childForFieldName("body") ?? namedChildren(block).find((child) => child.type === "block_body" || child.type === "body_statement") ?? null;
  const raised = rubyRaisedBy(body);
  return raised !== null && typeof raised !== "string" ? [{ condition: receiver, guarded: [receiver, key], action: raised }] : [];
}

/**
 * A `when` of a `case` that raises: a guard on the case's value matching
 * its patterns (`n is 1 | 2`), or in a `case` without a value, on the
 * `when`'s own condition (`when n > 2`, as the `if` it rewrites). `else`
 * is left out: a catch-all rewritten as a lookup would read as a guard
 * removed.
 */
function rubyWhenGuard(node: Node): GuardDraft[] {
  const raised = rubyRaisedBy(node.childForFieldName("body"));
  const patterns = node.childrenForFieldName("pattern").filter((pattern): pattern is Node => pattern?.isNamed === true);
  if (!raised || patterns.length === 0) return [];
  const subject = node.parent?.type === "case" ? node.parent.childForFieldName("value") : null;
  if (subject) return [{ condition: subject, action: raised, patterns }];
  const only = patterns.length === 1 ? (patterns[0]?.namedChild(0) ?? null) : null;
  return only ? [{ condition: only, action: raised }] : [];
}

/**
 * Ruby's code facts (tree-sitter-code.ts): `# rubocop:disable|todo` (and
 * standardrb's `# standard:disable`) and `# steep:ignore` comments; methods
 * (`Class.method`), guards: `raise X if cond` / `unless cond`, an
 * `if`/`unless` whose branch ends in `raise`, `raise cond ? A : B`, a
 * `when` that raises, `xs.select {…}.each { raise … }`, and a method's
 * fall-through `raise`; `rescue` clauses by what they
 * do with the error, runner checks, and the public API
 * ({@link rubyExports}).
 */
/** `raise X, "m"`, `fail "m"`, a bare `raise`: Ruby's throw is a call. */
const isRubyRaise = (node: Node): boolean =>
  (node.type === "call" && node.childForFieldName("receiver") === null && /^(raise|fail)$/.test(node.childForFieldName("method")?.text ?? "")) ||
  (node.type === "identifier" && /^(raise|fail)$/.test(node.text) && node.parent?.type !== "call");

/** Literal branches: `if` (each `elsif` arm too)/`return x if` returning a literal, a ternary, a `when` of literals, hash literals (two pairs or more). */
const RUBY_BRANCHES: Readonly<Record<string, (node: Node) => BranchDraft[]>> = {
  if: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
  // An `elsif c` arm of a chain is a branch of its own.
  elsif: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
  if_modifier: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("body") }],
  conditional: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
  when: (node) => {
    const patterns = namedChildren(node)
      .filter((child) => child.type === "pattern")
      .map((pattern) => pattern.namedChild(0) ?? pattern);
    return [{ kind: "branch", patterns, result: node.childForFieldName("body") }];
  },
  hash: (node) => {
    const pairs = namedChildren(node).filter((child) => child.type === "pair");
    if (pairs.length < 2 || pairs.length > 500) return [];
    return pairs.flatMap((pair) => {
      const key = pair.childForFieldName("key");
      return key ? [{ kind: "table" as const, patterns: [key], result: pair.childForFieldName("value") }] : [];
    });
  },
};

/** Ruby's ways out of a test run: `exit`, `exit!`, `Process.exit(0)`, `Kernel.exit!`; `at_exit { ... }` hooks. */
function rubyEscape(node: Node): EscapeDraft | null {
  if (node.type === "identifier") return /^exit!?$/.test(node.text) && node.parent?.type !== "call" ? { kind: "exit", code: null } : null;
  const receiver = node.childForFieldName("receiver")?.text;
  const method = node.childForFieldName("method")?.text ?? "";
  if (receiver !== undefined && !/^(Kernel|Process)$/.test(receiver)) return null;
  if (/^exit!?$/.test(method)) return { kind: "exit", code: node.childForFieldName("arguments")?.namedChild(0) ?? null };
  return method === "at_exit" ? { kind: "hook" } : null;
}

/** `if __FILE__ == $0` / `$PROGRAM_NAME`: the file run as a script. */
const isRubyMainGuard = (node: Node): boolean => /^__FILE__==\$(0|PROGRAM_NAME)$|^\$(0|PROGRAM_NAME)==__FILE__$/.test(node.childForFieldName("condition")?.text.replace(/\s+/g, "") ?? "");

/** What a `rescue` catches (its exception list as written, "*" for a bare `rescue`) and the statements it guards. */
function rubyRescued(node: Node): { caught: string; guarded: Node[] } {
  const exceptions = node.childForFieldName("exceptions");
  const siblings = node.parent ? namedChildren(node.parent) : [];
  const guarded = siblings
    .slice(
      0,
      Math.max(
        0,
        siblings.findIndex((sibling) => sibling.id === node.id),
      ),
    )
    .filter((sibling) => sibling.type !== "rescue");
  return { caught: exceptions ? exceptions.text.replace(/\s+/g, " ") : "*", guarded };
}

const RUBY_FLOW: FlowSyntax = {
  throwTypes: new Set(),
  isThrow: isRubyRaise,
  returnTypes: new Set(["return"]),
  callTypes: new Set(["call"]),
  callee: (call) => {
    const method = call.childForFieldName("method")?.text;
    if (!method) return null;
    const receiver = call.childForFieldName("receiver")?.text;
    return receiver ? `${receiver}.${method}` : method;
  },
  implicitValue: true,
};

/** `ENV["RAILS_ENV"]`, `ENV.fetch("RACK_ENV", ...)`: the mode variable it reads, or null. */
function rubyEnvRead(node: Node | null): string | null {
  if (!node) return null;
  let key: Node | null = null;
  if (node.type === "element_reference" && node.childForFieldName("object")?.text === "ENV") key = node.namedChild(1);
  else if (node.type === "call" && node.childForFieldName("receiver")?.text === "ENV" && /^(fetch|\[\])$/.test(node.childForFieldName("method")?.text ?? "")) {
    key = node.childForFieldName("arguments")?.namedChild(0) ?? null;
  }
  const value = literalText(key);
  return value !== null && value.startsWith('"') ? (JSON.parse(value) as string) : null;
}

/** A Ruby check for the test runner (special_casing): `ENV["RAILS_ENV"] == "test"`, `Rails.env.test?`, `Rails.env == "test"`. */
function isRubyRunnerCheck(node: Node): boolean {
  if (node.type === "call") {
    return node.childForFieldName("method")?.text === "test?" && /^(::)?(Rails|Hanami|Sinatra::Base|settings)\.env(ironment)?$/.test(node.childForFieldName("receiver")?.text ?? "");
  }
  if (!/^(==|!=|===)$/.test(node.childForFieldName("operator")?.text ?? "")) return false;
  const sides = [node.childForFieldName("left"), node.childForFieldName("right")];
  if (!sides.some((side) => literalText(side) === '"test"' || side?.text === ":test")) return false;
  return sides.some((side) => {
    const variable = rubyEnvRead(side);
    return (variable !== null && MODE_ENV_VARS.has(variable)) || /^(::)?Rails\.env$/.test(side?.text ?? "");
  });
}

/** The statements of a class, module or `class << self` body. */
const bodyStatements = (node: Node): Node[] => {
  const body = node.childForFieldName("body") ?? namedChildren(node).find((child) => child.type === "body_statement") ?? null;
  return body ? namedChildren(body) : [];
};

/** Symbols a call lists (`private :a, :b` -> ["a", "b"]). */
const symbolArguments = (call: Node): string[] => namedChildren(call.childForFieldName("arguments") ?? call).flatMap((arg) => (arg.type === "simple_symbol" ? [arg.text.slice(1)] : []));

/**
 * The public methods of a class or module body (Ruby docs, "Visibility" in
 * Modules and Classes): `def` before any bare `private`/`protected` (or
 * after `public`/`module_function`), less those named by `private :x` or
 * wrapped as `private def x`; `def self.x` and the methods of `class <<
 * self` as `Name.x`, less `private_class_method :x`; nested classes and
 * modules as `Name::Inner`. Instance methods are `Name#x`.
 */
function rubyMembers(node: Node, name: string): ExportDraft[] {
  const own: { draft: ExportDraft; method: string; isSingleton: boolean }[] = [];
  const nested: ExportDraft[] = [];
  const hidden = new Set<string>();
  const hiddenSingletons = new Set<string>();
  const walkBody = (statements: Node[], isSingletonScope: boolean): void => {
    let isPublic = true;
    for (const statement of statements) {
      const word = statement.type === "identifier" ? statement.text : null;
      if (word === "private" || word === "protected") isPublic = false;
      else if (word === "public" || word === "module_function") isPublic = true;
      else if (statement.type === "call" && !statement.childForFieldName("receiver")) {
        const method = statement.childForFieldName("method")?.text;
        if (method === "private" || method === "protected") for (const symbol of symbolArguments(statement)) (isSingletonScope ? hiddenSingletons : hidden).add(symbol);
        if (method === "private_class_method") for (const symbol of symbolArguments(statement)) hiddenSingletons.add(symbol);
      } else if ((statement.type === "method" && isPublic) || statement.type === "singleton_method") {
        const method = statement.childForFieldName("name")?.text;
        if (method === "initialize" || method === "initialize_copy") continue; // always private
        const isSingleton = isSingletonScope || statement.type === "singleton_method";
        const draft = { name: `${name}${isSingleton ? "." : "#"}${method}`, body: methodBody(statement), line: statement.startPosition.row + 1, ownNames: [name.replace(/^.*::/, "")] };
        if (method) own.push({ draft, method, isSingleton });
      } else if (statement.type === "singleton_class") {
        walkBody(bodyStatements(statement), true);
      } else if (statement.type === "class" || statement.type === "module") {
        nested.push(...rubyExports(statement, `${name}::`));
      }
    }
  };
  walkBody(bodyStatements(node), false);
  const visible = own.filter(({ method, isSingleton }) => !(isSingleton ? hiddenSingletons : hidden).has(method)).map(({ draft }) => draft);
  return [...visible, ...nested];
}

/** A method's statements (its body_statement), hashed so a renamed method keeps its hash. */
const methodBody = (method: Node): Node | null => method.childForFieldName("body") ?? namedChildren(method).find((child) => child.type === "body_statement") ?? null;

/**
 * A top-level class or module and its public methods (see {@link
 * rubyMembers}), named `Shop::Money`, `Shop::Money#parse`,
 * `Shop::Money.build`. A `module Shop` that only wraps other classes and
 * modules is a namespace reopened file after file, not a declaration of
 * `Shop`: only what it wraps counts.
 */
function rubyExports(node: Node, prefix = ""): ExportDraft[] {
  const name = node.childForFieldName("name")?.text;
  if (!name) return [];
  const qualified = `${prefix}${name}`;
  const body = node.childForFieldName("body") ?? namedChildren(node).find((child) => child.type === "body_statement") ?? null;
  const statements = body ? namedChildren(body) : [];
  const isNamespace = node.childForFieldName("superclass") === null && statements.length > 0 && statements.every((child) => child.type === "class" || child.type === "module");
  const own: ExportDraft[] = isNamespace ? [] : [{ name: qualified, body, line: node.startPosition.row + 1, ownNames: [name.replace(/^.*::/, "")] }];
  return [...own, ...rubyMembers(node, qualified)];
}

/** Constants only a Ruby test run defines: the test frameworks' own modules. */
const RUBY_RUNNER_CONSTANTS = /^(?:::)?(?:RSpec|Minitest|MiniTest|Test::Unit|Cucumber)\b/;

/** A Ruby check for the test framework (special_casing): `defined?(RSpec)`, `Object.const_defined?(:Minitest)`, `ENV["RSPEC_RUNNING"]`. */
function isRubyFrameworkCheck(node: Node): boolean {
  if (node.type === "unary" || node.type === "defined") {
    const match = /^defined\?\s*\(?\s*([\w:]+)/.exec(node.text);
    return match !== null && RUBY_RUNNER_CONSTANTS.test(match[1] as string);
  }
  if (node.type === "call") {
    const method = node.childForFieldName("method")?.text;
    if (method !== "const_defined?") return false;
    const first =
      node
        .childForFieldName("arguments")
        ?.namedChild(0)
        ?.text.replace(/^[:"']|["']$/g, "") ?? "";
    return RUBY_RUNNER_CONSTANTS.test(first);
  }
  if (node.type === "element_reference" && node.childForFieldName("object")?.text === "ENV") {
    const key = literalText(node.namedChild(1));
    return key !== null && key.startsWith('"') && RUNNER_ENV_VARS.has(JSON.parse(key) as string);
  }
  return false;
}

const RUBY_CODE: CodeSyntax = {
  comments: [
    { kind: "rubocop-disable", pattern: /#\s*(?:rubocop|standard):(?:disable|todo)\b/ },
    { kind: "steep-ignore", pattern: /#\s*steep:ignore\b/ },
  ],
  functions: {
    method: (node) => ({
      name: node.childForFieldName("name")?.text ?? "<anonymous>",
      body: node.childForFieldName("body") ?? namedChildren(node).find((child) => child.type === "body_statement") ?? null,
    }),
    singleton_method: (node) => ({
      name: node.childForFieldName("name")?.text ?? "<anonymous>",
      body: node.childForFieldName("body") ?? namedChildren(node).find((child) => child.type === "body_statement") ?? null,
    }),
  },
  containers: { class: (node) => node.childForFieldName("name")?.text ?? null, module: (node) => node.childForFieldName("name")?.text ?? null },
  calls: { call: (node) => node.childForFieldName("method")?.text ?? null },
  guards: {
    ...Object.fromEntries(
      // `elsif c` guards `c` as an `if` does (the branches before it took their own values).
      (["if_modifier", "unless_modifier", "if", "unless", "elsif"] as const).map((type) => [
        type,
        (node: Node): GuardDraft[] => {
          const condition = node.childForFieldName("condition");
          const isNegated = type.startsWith("unless");
          if (!condition) return [];
          const action = type.endsWith("_modifier") ? rubyRaised(node.childForFieldName("body")) : rubyRaisedBy(node.childForFieldName("consequence"));
          return action ? [{ condition, action, isNegated }] : [];
        },
      ]),
    ),
    when: rubyWhenGuard,
    // `raise cond ? Foul.new(..) : e`: two guards, `cond` raising the first and `!cond` the second, as the
    // `raise e unless cond` / `raise Foul` pair it rewrites.
    rescue: rubyHandlerGuard,
    call: (node: Node): GuardDraft[] => {
      if (rubyRaised(node) === null) return [...rubyFetchGuard(node), ...rubyLoopGuard(node)];
      const raised = node.childForFieldName("arguments")?.namedChild(0);
      if (raised?.type !== "conditional") return [];
      const condition = raised.childForFieldName("condition");
      const whenTrue = raised.childForFieldName("consequence");
      const whenFalse = raised.childForFieldName("alternative");
      if (!condition || !whenTrue || !whenFalse) return [];
      return [
        { condition, action: whenTrue },
        { condition, action: whenFalse, isNegated: true },
      ];
    },
  },
  fallthrough: (body) => {
    const raised = rubyRaisedBy(body);
    return raised === "raise" || raised === "fail" ? null : raised; // a bare `raise` re-raises: nothing of its own
  },
  identifierTypes: new Set(["identifier", "instance_variable", "global_variable", "class_variable"]),
  flow: RUBY_FLOW,
  catches: {
    // The `rescue` keyword token has the clause's type too: only the named clause is one.
    rescue: (node) =>
      !node.isNamed
        ? null
        : {
            body: node.childForFieldName("body"),
            errorName: node.childForFieldName("variable")?.descendantsOfType("identifier")[0]?.text ?? null,
            ...rubyRescued(node),
          },
    // `x rescue nil`: a handler of StandardError around one expression, its value the handler's (Ruby's "rescue modifier").
    rescue_modifier: (node) => {
      const body = node.childForFieldName("body");
      return { body: node.childForFieldName("handler"), errorName: null, caught: "*", guarded: body ? [body] : [], isExpression: true };
    },
  },
  literalBranches: RUBY_BRANCHES,
  state: { updates: { operator_assignment: counterTarget, assignment: counterTarget }, isStateName: (name) => /^(\$|@@?)\w|^self\.class\.\w/.test(name) },
  escapes: { call: rubyEscape, identifier: rubyEscape },
  entryPoints: { if: isRubyMainGuard },
  isScript: (content) => content.startsWith("#!"),
  runnerChecks: {
    binary: isRubyRunnerCheck,
    call: (node) => isRubyRunnerCheck(node) || isRubyFrameworkCheck(node),
    unary: isRubyFrameworkCheck,
    defined: isRubyFrameworkCheck,
    element_reference: isRubyFrameworkCheck,
  },
  exports: { class: (node) => rubyExports(node), module: (node) => rubyExports(node) },
};

/** The Ruby language module: `.rb`, parsed with tree-sitter-ruby (see the module comment). Never throws for bad content. */
export const ruby = defineLanguage({
  id: "ruby",
  extensions: [".rb"],
  queries: ["facts"],
  isTestPath: isRubyTestPath,
  drafts: ({ path }, grammar, root) => extractRubyDrafts(path, grammar, root),
  code: RUBY_CODE,
  shadows: RUBY_SHADOWS,
  // A spec file that defines its own test macro and calls it: its calls are tests now (analysis/defined-tests.ts).
  finish: (facts) => withOwnDefinedTests(facts),
});

/**
 * Ruby `begin … rescue … else … end` (and a method body with `rescue`) for
 * the exception checks written by hand (parsers/tree-sitter-try.ts). A bare
 * `rescue` catches StandardError; minitest's failures (`flunk`, `assert
 * false`) raise Minitest::Assertion and RSpec's ExpectationNotMetError, each
 * an Exception but no StandardError, which only `rescue Exception` (or the
 * failure's own class) catches.
 */
const RUBY_TRY: TrySyntax = {
  tryTypes: new Set(["begin", "body_statement"]),
  parts(node) {
    const children = statementNodes(node);
    const handlers = children
      .filter((child) => child.type === "rescue")
      .map((clause) => ({
        node: clause,
        types: namedChildren(clause.childForFieldName("exceptions") ?? clause).flatMap((type) => (clause.childForFieldName("exceptions") ? [type.text] : [])),
        statements: statementNodes(clause.childForFieldName("body")),
      }));
    if (handlers.length === 0) return null;
    const orElse = statementNodes(children.find((child) => child.type === "else"));
    const body = children.filter((child) => child.type !== "rescue" && child.type !== "else" && child.type !== "ensure");
    return { body, handlers, orElse, hasSiblings: node.type === "begin" };
  },
  /** `raise E`, `raise E, "m"`, `raise E.new("m")`, `raise "m"` (a RuntimeError), and `fail` so; a bare `raise` re-raises. */
  raisedType(statement) {
    if (statement.type !== "call" || !isRubyRaise(statement)) return null;
    const first = namedChildren(statement.childForFieldName("arguments") ?? statement).find((child) => child.type !== "identifier" || child.text !== statement.childForFieldName("method")?.text);
    if (!first) return null;
    if (first.type === "string") return "RuntimeError";
    return first.type === "constant" || first.type === "scope_resolution" ? first.text : createdType(first);
  },
  catchesFailure: (types) => types.some((type) => /^(?:::)?(?:Exception|Mini[Tt]est::Assertion|RSpec::Expectations::ExpectationNotMetError)$/.test(type)),
  /** Every assertion of the framework fails as its explicit failure does (the same error type). */
  catchesAssertion(types, fact) {
    return this.catchesFailure(types, fact);
  },
};
