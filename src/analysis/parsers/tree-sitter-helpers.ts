/**
 * Assertion helpers of a test file, for every tree-sitter language: the
 * functions and methods that assert outside any test (Go's
 * `checkSum(t *testing.T, …)`, Python's `def check(x, y)`, a Java
 * `private void assertValid(...)`), and the calls tests make to them. A
 * test that calls a helper makes the helper's checks (analysis/checks
 * resolves the call into them, one level); deleting the call deletes them.
 * Found by sweeping: in one Go file 51 of 58 tests asserted only through
 * helpers taking `t`, so they showed 0 assertions and losing a helper call
 * went unseen (issue 9).
 */

import { instantiateHelper } from "../checks/index.js";
import { isMemoGuard } from "../checks/memo-guard.js";
import type { Node } from "web-tree-sitter";
import type { AssertionFact, AssertionHelperFact, ParamArm, ParamSink } from "../facts.js";
import { literalsOf, normalizedText, walkSubtree } from "./tree-sitter.js";

/** Node types that declare a named function or method, across the tree-sitter grammars ralph loads. */
export const NAMED_FUNCTION_TYPES: ReadonlySet<string> = new Set([
  "function_definition",
  "function_declaration",
  "method_declaration",
  "function_item",
  "method",
  "singleton_method",
  "local_function_statement",
  "constructor_declaration",
]);

/** Node types of a call, across the grammars. */
const CALL_TYPES: ReadonlySet<string> = new Set([
  "call",
  "call_expression",
  "method_invocation",
  "invocation_expression",
  "function_call_expression",
  "member_call_expression",
  "scoped_call_expression",
  "nullsafe_member_call_expression",
]);

/** A function of the file with its byte range, before its assertions are known. */
export interface FunctionRange {
  name: string;
  start: number;
  end: number;
  params: string[];
  /** Default values of its parameters, as written (AssertionHelperFact.paramDefaults). */
  defaults: Record<string, string>;
  /** End indexes of the early-return guards among the body's top-level statements (`if x { return }`, `return if x`): assertions after one run only when it does not fire. */
  guardEnds: number[];
  /** Its branches on a parameter's truth (AssertionHelperFact.paramArms). */
  paramArms: ParamArm[];
  /** Where it hands a parameter on under a name (AssertionHelperFact.paramSinks). */
  paramSinks: ParamSink[];
}

/** Node types that set a named field or keyword from a value: Go `Key: v`, Rust `key: v`, Python `key=v`. */
const SINK_TYPES: ReadonlySet<string> = new Set(["keyed_element", "field_initializer", "keyword_argument"]);

/** The places `fn` hands one of `params` on under a name (AssertionHelperFact.paramSinks). */
function paramSinksOf(fn: Node, params: readonly string[]): ParamSink[] {
  const body = fn.childForFieldName("body");
  if (!body || params.length === 0) return [];
  const sinks: ParamSink[] = [];
  walkSubtree(body, (cursor, type) => {
    // Rust's `Runner { encode }`: the field named as the parameter it takes.
    if (type === "shorthand_field_initializer" && params.includes(cursor.nodeText.trim())) sinks.push({ param: cursor.nodeText.trim(), key: cursor.nodeText.trim() });
    if (!SINK_TYPES.has(type)) return "descend";
    const node = cursor.currentNode;
    const parts = node.namedChildren.filter((child): child is Node => child !== null);
    const key = (node.childForFieldName("name") ?? node.childForFieldName("field") ?? parts[0])?.text.trim();
    const value = (node.childForFieldName("value") ?? parts[parts.length - 1])?.text.trim();
    if (key && value && parts.length >= 2 && params.includes(value) && /^[A-Za-z_]\w*$/.test(key)) sinks.push({ param: value, key });
    return "descend";
  });
  return sinks;
}

/** Branch node types whose `condition` a parameter's truth may be (Ruby's `unless` runs its consequence when it is false). */
const PARAM_BRANCH_TYPES: ReadonlySet<string> = new Set(["if_statement", "if_expression", "if", "unless", "if_modifier", "unless_modifier"]);

/**
 * The arms of `fn`'s branches whose condition is one of `params` or its
 * negation (`next`, `!next`, `not next`), with the literals each holds
 * (AssertionHelperFact.paramArms): the consequence runs under the
 * condition's truth, the alternative under the other.
 */
function paramArmsOf(fn: Node, params: readonly string[]): ParamArm[] {
  const body = fn.childForFieldName("body");
  if (!body || params.length === 0) return [];
  const arms: ParamArm[] = [];
  walkSubtree(body, (cursor, type) => {
    if (!PARAM_BRANCH_TYPES.has(type)) return "descend";
    const branch = cursor.currentNode;
    const condition = branch.childForFieldName("condition");
    let text = condition?.text.replace(/^\((.*)\)$/s, "$1").trim() ?? "";
    let truth = !type.startsWith("unless");
    const negation = /^(?:!|not\s+)\s*(.*)$/s.exec(text);
    if (negation) [text, truth] = [negation[1] as string, !truth];
    if (!params.includes(text)) return "descend";
    const consequence = branch.childForFieldName("consequence") ?? branch.childForFieldName("body");
    if (consequence) arms.push({ param: text, when: truth, literals: literalsOf(consequence) });
    for (const alternative of branch.childrenForFieldName("alternative")) if (alternative) arms.push({ param: text, when: !truth, literals: literalsOf(alternative) });
    return "descend";
  });
  return arms;
}

/** Conditional statements of the grammars (Rust's `if` is an expression, wrapped in an expression statement). */
const IF_TYPES: ReadonlySet<string> = new Set(["if_statement", "if", "if_expression", "if_modifier", "unless", "unless_modifier"]);
/** Statements that leave a function. */
const RETURN_TYPES: readonly string[] = ["return_statement", "return", "return_expression"];

/** End indexes of the early-return guards among a function body's top-level statements. */
function guardEndsOf(fn: Node): number[] {
  const body = fn.childForFieldName("body");
  if (!body) return [];
  const ends: number[] = [];
  for (const statement of body.namedChildren) {
    if (!statement) continue;
    const inner = statement.type === "expression_statement" ? statement.namedChild(0) : statement;
    if (inner && IF_TYPES.has(inner.type) && inner.descendantsOfType(RETURN_TYPES as string[]).length > 0 && !isMemoGuardNode(inner, body)) ends.push(statement.endIndex);
  }
  return ends;
}

/**
 * True when the `if` statement `guard` of function body `body` only returns a
 * memoised value (checks/memo-guard.ts): one return statement, no else, and
 * the rest of the body fills what it returns.
 */
function isMemoGuardNode(guard: Node, body: Node): boolean {
  const condition = guard.childForFieldName("condition");
  if (!condition || guard.childForFieldName("alternative")) return false;
  const returns = guard.descendantsOfType(RETURN_TYPES as string[]).filter((node): node is Node => node !== null && node.isNamed);
  const returned = returns.length === 1 ? returns[0]?.namedChild(0) : null;
  if (!returned) return false;
  return isMemoGuard(condition.text, returned.text, body.text.slice(guard.endIndex - body.startIndex));
}

/** Parameter names of a parameter list, in order (`t *testing.T, a, b int` -> t, a, b; `int x` -> x; `$x` -> $x; `x: i32` -> x). */
function parameterNames(parameters: Node | null): string[] {
  if (!parameters) return [];
  const names: string[] = [];
  for (const child of parameters.namedChildren) {
    if (!child) continue;
    if (child.type === "identifier") {
      names.push(child.text);
      continue;
    }
    const named = child.childrenForFieldName("name").filter((node): node is Node => node !== null);
    if (named.length > 0) {
      names.push(...named.map((node) => node.text));
      continue;
    }
    const pattern = child.childForFieldName("pattern");
    if (pattern) {
      names.push(pattern.text);
      continue;
    }
    const first = child.namedChildren.find((node) => node !== null && (node.type === "identifier" || node.type === "variable_name"));
    if (first) names.push(first.text);
  }
  return names;
}

/** Parameter node types that carry a default value: Python `x=1`/`x: int = 1`, Ruby `n = 1` and `name: :gets`, PHP and C# defaults. */
const DEFAULT_PARAMETER = /^(default_parameter|typed_default_parameter|optional_parameter|keyword_parameter|simple_parameter|parameter)$/;

/** The default values of a parameter list, by parameter name, as written. */
function parameterDefaults(parameters: Node | null): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const child of parameters?.namedChildren ?? []) {
    if (!child || !DEFAULT_PARAMETER.test(child.type)) continue;
    const name = child.childForFieldName("name") ?? child.namedChildren.find((node) => node !== null && /identifier|variable_name/.test(node.type)) ?? null;
    const value = child.childForFieldName("value") ?? child.childForFieldName("default_value") ?? null;
    if (name && value) defaults[name.text.replace(/^\$/, "")] = value.text;
  }
  return defaults;
}

/** Every named function or method of the file with its range and parameters. */
export function functionRanges(root: Node): FunctionRange[] {
  const ranges: FunctionRange[] = [];
  walkSubtree(root, (cursor, type) => {
    if (!NAMED_FUNCTION_TYPES.has(type)) return "descend";
    const node = cursor.currentNode;
    const name = node.childForFieldName("name")?.text;
    if (name) {
      const parameters = node.childForFieldName("parameters");
      const params = parameterNames(parameters);
      ranges.push({
        name,
        start: node.startIndex,
        end: node.endIndex,
        params,
        defaults: parameterDefaults(parameters),
        guardEnds: guardEndsOf(node),
        paramArms: paramArmsOf(node, params),
        paramSinks: paramSinksOf(node, params),
      });
    }
    return "descend";
  });
  return ranges;
}

/** Node types that scope tests in a file that also holds product code (Rust's `mod tests`, a class or module of tests). */
const TEST_SCOPE_TYPES: ReadonlySet<string> = new Set(["mod_item", "class_definition", "class_declaration", "class", "module", "namespace_declaration"]);

/**
 * The functions of a file that also holds product code which may be test
 * support: those inside a scope (module, class) that holds a test. A Rust
 * `assert!` in `impl Set` is a precondition of the product, not a check of
 * the `#[cfg(test)] mod tests` that calls it (sweep of rust-lang/hashbrown
 * 9037471eb2: it moved into a callee in another file and the unchanged
 * tests were said to lose it). `tests` are the test declarations' nodes.
 */
export function testScopeFunctions(functions: readonly FunctionRange[], tests: readonly Node[]): FunctionRange[] {
  const scopes: { start: number; end: number }[] = [];
  for (const test of tests) {
    let scope = test.parent;
    while (scope && !TEST_SCOPE_TYPES.has(scope.type)) scope = scope.parent;
    if (scope && !scopes.some((one) => one.start === scope?.startIndex)) scopes.push({ start: scope.startIndex, end: scope.endIndex });
  }
  return functions.filter((fn) => scopes.some((scope) => scope.start <= fn.start && fn.end <= scope.end));
}

/**
 * The helpers among `functions`: those that hold assertions (given by their
 * start index) outside the ranges of tests, each with its parameters and
 * its assertions in order. The innermost function holding an assertion owns it.
 */
export function assertionHelpersOf(
  functions: readonly FunctionRange[],
  assertions: readonly (AssertionFact & { startIndex: number })[],
  testRanges: readonly { start: number; end: number }[],
): AssertionHelperFact[] {
  const helpers = new Map<FunctionRange, AssertionFact[]>();
  for (const assertion of assertions) {
    if (testRanges.some((range) => range.start <= assertion.startIndex && assertion.startIndex < range.end)) continue;
    let owner: FunctionRange | null = null;
    for (const fn of functions) {
      if (fn.start <= assertion.startIndex && assertion.startIndex < fn.end && (owner === null || fn.start > owner.start)) owner = fn;
    }
    if (!owner || testRanges.some((range) => range.start === owner.start)) continue;
    const { startIndex, ...rest } = assertion;
    const fact = owner.guardEnds.some((end) => end <= startIndex) ? { ...rest, gated: true } : rest;
    const list = helpers.get(owner);
    if (list) list.push(fact);
    else helpers.set(owner, [fact]);
  }
  return [...helpers].map(([fn, facts]) => withParamArms({ name: fn.name, assertions: facts.length, params: fn.params, assertionsDetail: facts }, fn));
}

/**
 * The helpers of {@link assertionHelpersOf} with what their own helpers
 * check: a function (not a test) that calls a helper checks that helper's
 * assertions too, transitively (each helper once per caller, so recursion
 * and cycles end; each distinct call of it once), as JavaScript's helpers do (languages/javascript.ts). A
 * test's assertion moved from a helper into a helper's helper is then still
 * the test's. An inherited fact has the callee's parameters bound to the
 * call's arguments (`checkEmpty("A")` inherits `fail("A" + ...)`, checks
 * index.ts instantiateHelper), so the caller checks what the call checked.
 * Facts inherited through a call that lies past the caller's
 * early-return guard are gated. Functions are matched to calls by name (the
 * first function of a name wins). Returns the direct helpers with their
 * inherited facts, plus every function that only inherits.
 */
export function inheritHelperChecks(
  root: Node,
  functions: readonly FunctionRange[],
  helpers: readonly AssertionHelperFact[],
  testRanges: readonly { start: number; end: number }[],
): AssertionHelperFact[] {
  if (helpers.length === 0) return [...helpers];
  const isTest = (fn: FunctionRange): boolean => testRanges.some((range) => range.start === fn.start);
  const innermost = (index: number): FunctionRange | null => {
    let owner: FunctionRange | null = null;
    for (const fn of functions) if (fn.start <= index && index < fn.end && (owner === null || fn.start > owner.start)) owner = fn;
    return owner;
  };
  const calls = new Map<FunctionRange, { name: string; startIndex: number; text: string }[]>();
  walkSubtree(root, (cursor, type) => {
    if (!CALL_TYPES.has(type)) return "descend";
    const call = cursor.currentNode;
    const name = calleeName(call);
    const owner = name === null ? null : innermost(call.startIndex);
    if (owner && name !== null && !isTest(owner)) {
      const list = calls.get(owner);
      const entry = { name, startIndex: call.startIndex, text: normalizedText(call) };
      if (list) list.push(entry);
      else calls.set(owner, [entry]);
    }
    return "descend";
  });
  const own = new Map(helpers.map((helper) => [helper.name, helper] as const));
  const fnByName = new Map<string, FunctionRange>();
  for (const fn of functions) if (!fnByName.has(fn.name) && !isTest(fn)) fnByName.set(fn.name, fn);
  const reachable = (start: FunctionRange): AssertionFact[] => {
    const facts: AssertionFact[] = [...(own.get(start.name)?.assertionsDetail ?? [])];
    const seen = new Set<string>([start.name]);
    const queued = new Set<string>();
    const seenCalls = new Set<string>();
    const queue: { fn: FunctionRange; isGated: boolean }[] = [{ fn: start, isGated: false }];
    while (queue.length > 0) {
      const { fn, isGated } = queue.shift() as { fn: FunctionRange; isGated: boolean };
      for (const call of calls.get(fn) ?? []) {
        const callee = fnByName.get(call.name);
        const key = `${call.name}\u0000${call.text}`;
        if (!callee || seen.has(call.name) || seenCalls.has(key)) continue;
        seenCalls.add(key);
        const gated = isGated || fn.guardEnds.some((end) => end <= call.startIndex);
        // The callee's checks with its parameters bound to this call's arguments (`checkEmpty("A")`: its `label` is "A"), once per distinct call.
        const inner = own.get(call.name);
        facts.push(...(inner ? instantiateHelper(call.text, inner) : []).map((fact) => (gated ? { ...fact, gated: true as const } : { ...fact })));
        if (queued.has(call.name)) continue;
        queued.add(call.name);
        queue.push({ fn: callee, isGated: gated });
      }
    }
    return facts;
  };
  const result: AssertionHelperFact[] = [];
  for (const fn of fnByName.values()) {
    const facts = reachable(fn);
    const direct = own.get(fn.name);
    if (facts.length === 0) continue;
    result.push(
      facts.length > (direct?.assertionsDetail?.length ?? 0)
        ? withParamArms({ name: fn.name, assertions: facts.length, params: fn.params, assertionsDetail: facts }, fn)
        : (direct as AssertionHelperFact),
    );
  }
  for (const helper of helpers) if (!result.some((one) => one.name === helper.name)) result.push(helper);
  return result;
}

/** `helper` with its function's branches on parameters (AssertionHelperFact.paramArms), when it has any. */
function withParamArms(helper: AssertionHelperFact, fn: FunctionRange): AssertionHelperFact {
  if (Object.keys(fn.defaults).length > 0) helper.paramDefaults = fn.defaults;
  if (fn.paramArms.length > 0) helper.paramArms = fn.paramArms;
  if (fn.paramSinks.length > 0) helper.paramSinks = fn.paramSinks;
  return helper;
}

/** Node types of an anonymous function a test may bind to a local name and call (Go's `run := func(t *testing.T, enc bool) {…}`, a Rust closure). */
const CLOSURE_TYPES: ReadonlySet<string> = new Set(["func_literal", "closure_expression"]);

/**
 * The closures a test binds to a local name that assert (`run := func(t
 * *testing.T, enc bool) { … t.Fatalf(…) … }`, `let run = |enc| { … }`, a
 * Python or Rust function defined inside the test), as helpers named
 * `name@line` so two tests' closures of one name stay apart, with the calls
 * of them inside the same test (its subtests' `t.Run("encode", func(t
 * *testing.T) { run(t, true) })`) as helper-call facts. A subtest whose body
 * is such a call checks what the closure checks, with its arguments.
 * `tests` are the ranges of the file's tests; a closure's assertions stay
 * its test's too.
 */
export function localClosureHelpers(
  root: Node,
  assertions: readonly (AssertionFact & { startIndex: number })[],
  tests: readonly { start: number; end: number }[],
): { helpers: AssertionHelperFact[]; calls: (AssertionFact & { startIndex: number })[] } {
  const helpers: AssertionHelperFact[] = [];
  const calls: (AssertionFact & { startIndex: number })[] = [];
  for (const test of tests) {
    const node = root.descendantForIndex(test.start, test.end);
    if (!node) continue;
    for (const declaration of node.descendantsOfType(["short_var_declaration", "let_declaration", "function_definition", "function_item"])) {
      if (!declaration || (declaration.startIndex === node.startIndex && declaration.endIndex === node.endIndex)) continue;
      const isNested = declaration.type === "function_definition" || declaration.type === "function_item";
      if (isNested && tests.some((other) => other.start === declaration.startIndex)) continue; // a test itself
      const left = isNested ? declaration.childForFieldName("name") : (declaration.childForFieldName("left") ?? declaration.childForFieldName("pattern"));
      const right = isNested ? declaration : (declaration.childForFieldName("right") ?? declaration.childForFieldName("value"));
      const value = right && (isNested || CLOSURE_TYPES.has(right.type) ? right : right.namedChildCount === 1 ? right.namedChild(0) : null);
      const name = left?.type === "identifier" ? left.text : left?.namedChildCount === 1 ? left.namedChild(0)?.text : undefined;
      if (!value || !(isNested || CLOSURE_TYPES.has(value.type)) || !name || !/^[A-Za-z_]\w*$/.test(name)) continue;
      const facts = assertions.filter((assertion) => assertion.startIndex >= value.startIndex && assertion.startIndex < value.endIndex).map(({ startIndex: _, ...fact }) => fact);
      if (facts.length === 0) continue;
      const params = parameterNames(value.childForFieldName("parameters"));
      const helper: AssertionHelperFact = { name: `${name}@${declaration.startPosition.row + 1}`, assertions: facts.length, params, assertionsDetail: facts };
      if (helpers.some((known) => known.name === helper.name)) continue; // a subtest's closure, met again from its parent
      const arms = paramArmsOf(value, params);
      const sinks = paramSinksOf(value, params);
      if (arms.length > 0) helper.paramArms = arms;
      if (sinks.length > 0) helper.paramSinks = sinks;
      helpers.push(helper);
      const strength = Math.max(1, ...facts.map((fact) => fact.strength)) as 1 | 2 | 3;
      walkSubtree(node, (cursor, type) => {
        if (!CALL_TYPES.has(type)) return "descend";
        const call = cursor.currentNode;
        if (call.startIndex < declaration.endIndex || call.childForFieldName("function")?.text !== name) return "descend";
        calls.push({ line: call.startPosition.row + 1, matcher: `helper ${helper.name}`, strength, tautology: false, actual: normalizedText(call), startIndex: call.startIndex });
        return "skip";
      });
    }
  }
  return { helpers, calls };
}

/** True when a Ruby identifier is evaluated as a value (a method call when no local binds it): not assigned, not a parameter, not a call's method or a key. */
function isBareCall(node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === "assignment" || parent.type === "operator_assignment") return parent.childForFieldName("left")?.id !== node.id;
  if (/parameter|parameters|pair|call|method|block_parameters|lambda_parameters|argument_list/.test(parent.type)) return parent.type === "argument_list";
  return true;
}

/** The name a call calls: its last identifier (`checkSum`, `self.check` -> check, `$this->assertValid` -> assertValid). */
function calleeName(call: Node): string | null {
  const callee = call.childForFieldName("function") ?? call.childForFieldName("name") ?? call.childForFieldName("method") ?? call.namedChild(0);
  if (!callee) return null;
  const match = /([A-Za-z_]\w*)\s*$/.exec(callee.text);
  return match ? (match[1] as string) : null;
}

/** True when every assertion of a helper runs only past an early-return guard: a call of it may check nothing. */
export function isGatedHelper(helper: AssertionHelperFact): boolean {
  const facts = helper.assertionsDetail ?? [];
  return facts.length > 0 && facts.every((fact) => fact.gated === true);
}

/**
 * The calls inside `node` to the named helpers, as AssertionFacts (matcher
 * `helper <name>`, actual = the call's normalised text, strength the
 * helper's strongest assertion) with their start index. With `bareCalls`
 * (Ruby, where `io = line_tests` calls the method `line_tests` with no
 * arguments), a bare identifier naming a helper is a call of it too, unless
 * it is assigned or is a parameter.
 */
export function helperCallFacts(node: Node, helpers: readonly AssertionHelperFact[], bareCalls = false): (AssertionFact & { startIndex: number })[] {
  if (helpers.length === 0) return [];
  const byName = new Map(helpers.map((helper) => [helper.name, helper] as const));
  const calls: (AssertionFact & { startIndex: number })[] = [];
  walkSubtree(node, (cursor, type) => {
    const isBare = bareCalls && type === "identifier" && isBareCall(cursor.currentNode);
    if (!CALL_TYPES.has(type) && !isBare) return "descend";
    const call = cursor.currentNode;
    const name = isBare ? call.text : calleeName(call);
    const helper = name === null ? undefined : byName.get(name);
    if (!helper) return "descend";
    const strength = Math.max(1, ...(helper.assertionsDetail ?? []).map((fact) => fact.strength)) as 1 | 2 | 3;
    const fact: AssertionFact & { startIndex: number } = {
      line: call.startPosition.row + 1,
      matcher: `helper ${helper.name}`,
      strength,
      tautology: false,
      actual: isBare ? `${call.text}()` : normalizedText(call),
      startIndex: call.startIndex,
    };
    if (isGatedHelper(helper)) fact.gated = true;
    calls.push(fact);
    return "skip";
  });
  return calls;
}
