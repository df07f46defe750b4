/**
 * Python: pytest and unittest test cases, their skip/xfail markers and
 * parametrize rows, and their assertions, from tree-sitter-python with the
 * queries in grammars/python/.
 *
 * Collection follows pytest's defaults: files `test_*.py` / `*_test.py`;
 * functions named `test*` at module level or in classes named `Test*`; every
 * `test*` method of a `unittest.TestCase` subclass whatever its class name.
 * Flags come from decorators on the test and its classes (`pytest.mark.skip`,
 * `skipif`, `xfail`, `unittest.skip*`, `expectedFailure`), a module-level
 * `pytestmark`, and runtime calls in the body (`pytest.skip()`,
 * `self.skipTest()`, `pytest.xfail()`).
 */

import {
  type AssertionDraft,
  boundLocalValue,
  type ClassDraft,
  compactText,
  type ExtractedDrafts,
  hashNode,
  hashRow,
  isLiteral,
  literalsOf,
  type LoadedGrammar,
  namedChildren,
  type Node,
  normalizedText,
  queryCaptures,
  type SkipDraft,
  stringValue,
  type TestDraft,
  thunkSubject,
} from "../parsers/tree-sitter.js";
import {
  counterTarget,
  declarationHash,
  literalText,
  MODE_ENV_VARS,
  RUNNER_ENV_VARS,
  type BranchDraft,
  type CodeContext,
  type CodeSyntax,
  type EscapeDraft,
  type FlowSyntax,
  type GuardDraft,
} from "../parsers/tree-sitter-code.js";
import { PYTHON_SKIP_REACH, raisedSkips } from "./python-skips.js";
import { catchesOnlyLookupErrors, LOOKUP_ERRORS } from "./lookup-errors.js";
import { withNoWarningChecks } from "./python-warnings.js";
import { TEST_FLAG_ORDER, type AssertionFact, type ExportFact, type ImportFact, type MarkFact, type NonTestFunctionFact, type TestFlag } from "../facts.js";
import { matchesPrefixOrGlob, type CollectionRules } from "./collection.js";
import { pythonSchemas } from "./python-schemas.js";
import { isUnderTestDirectory } from "./language.js";
import { defineLanguage } from "./define-language.js";
import { createdType, statementNodes, withTryChecks, type TrySyntax } from "../parsers/tree-sitter-try.js";
import { isPythonCollectedFile, isTestClassName, resolvePythonTests } from "./python-classes.js";
import { skipConditionKind } from "../checks/skip-condition.js";
import { withModuleFlags } from "../parsers/module-flags.js";
import { PYTHON_SHADOWS } from "./shadow-tables.js";

/** `test_*.py`, `*_test.py`, `conftest.py`, or any `.py` under a test directory. */
export function isPythonTestPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return isPythonCollectedFile(path) || name === "conftest.py" || isUnderTestDirectory(path);
}

/** Decorator (or pytestmark entry) name -> the flag it sets. Names are matched on their last two dotted parts. */
const MARKER_FLAGS: ReadonlyMap<string, TestFlag> = new Map([
  ["mark.skip", "skipped"],
  ["mark.skipif", "conditional"],
  ["mark.xfail", "failing"],
  ["unittest.skip", "skipped"],
  ["unittest.skipIf", "conditional"],
  ["unittest.skipUnless", "conditional"],
  ["unittest.expectedFailure", "failing"],
  ["skip", "skipped"],
  ["skipIf", "conditional"],
  ["skipUnless", "conditional"],
  ["expectedFailure", "failing"],
]);

/** Runtime calls in a body -> flag. */
const RUNTIME_FLAGS: ReadonlyMap<string, TestFlag> = new Map([
  ["skip", "skipped"],
  ["skipTest", "skipped"],
  ["importorskip", "skipped"],
  ["xfail", "failing"],
]);

/**
 * unittest assertion methods -> strength (see AssertionFact.strength) and
 * whether the check is negated. assertRaises and friends are judged by
 * their exception class below.
 */
const UNITTEST_STRENGTH: ReadonlyMap<string, { strength: 1 | 2 | 3; negated?: boolean }> = new Map([
  ["assertEqual", { strength: 3 }],
  ["assertEquals", { strength: 3 }],
  ["assertDictEqual", { strength: 3 }],
  ["assertListEqual", { strength: 3 }],
  ["assertTupleEqual", { strength: 3 }],
  ["assertSetEqual", { strength: 3 }],
  ["assertSequenceEqual", { strength: 3 }],
  ["assertMultiLineEqual", { strength: 3 }],
  ["assertCountEqual", { strength: 3 }],
  ["assertAlmostEqual", { strength: 3 }],
  ["assertAlmostEquals", { strength: 3 }],
  ["assertIs", { strength: 3 }],
  ["assertIsNone", { strength: 3 }],
  ["assertRaisesRegex", { strength: 3 }],
  ["assertWarnsRegex", { strength: 3 }],
  ["assertNotEqual", { strength: 2, negated: true }],
  ["assertNotEquals", { strength: 2, negated: true }],
  ["assertNotAlmostEqual", { strength: 2, negated: true }],
  ["assertIsNot", { strength: 2, negated: true }],
  ["assertIn", { strength: 2 }],
  ["assertNotIn", { strength: 2, negated: true }],
  ["assertIsInstance", { strength: 2 }],
  ["assertNotIsInstance", { strength: 2, negated: true }],
  ["assertRegex", { strength: 2 }],
  ["assertNotRegex", { strength: 2, negated: true }],
  ["assertGreater", { strength: 2 }],
  ["assertGreaterEqual", { strength: 2 }],
  ["assertLess", { strength: 2 }],
  ["assertLessEqual", { strength: 2 }],
  ["assertDictContainsSubset", { strength: 2 }],
  ["assertLogs", { strength: 2 }],
  ["assertTrue", { strength: 1 }],
  ["assert_", { strength: 1 }],
  ["assertFalse", { strength: 1, negated: true }],
  ["assertIsNotNone", { strength: 1, negated: true }],
  ["assertNoLogs", { strength: 1 }],
  ["fail", { strength: 1 }],
]);

/** pytest functions that assert. */
const PYTEST_ASSERTIONS: ReadonlySet<string> = new Set(["raises", "warns", "deprecated_call", "fail"]);

/** True for `self.assert*(...)`, `self.fail(...)` and `pytest.raises/warns/deprecated_call/fail(...)`. */
function isAssertionCall(object: string, method: string): boolean {
  if (object === "self") return /^(assert|fail)/.test(method);
  return object === "pytest" && PYTEST_ASSERTIONS.has(method);
}

/** Exception classes too broad to pin a failure down: `raises(Exception)` checks only that something failed. */
const BROAD_EXCEPTIONS: ReadonlySet<string> = new Set(["Exception", "BaseException", "object"]);

/** Comparison operator -> (matcher suffix, strength, negated). */
const COMPARISONS: ReadonlyMap<string, { strength: 2 | 3; negated?: boolean }> = new Map([
  ["==", { strength: 3 }],
  ["is", { strength: 3 }],
  ["!=", { strength: 2, negated: true }],
  ["is not", { strength: 2, negated: true }],
  ["in", { strength: 2 }],
  ["not in", { strength: 2, negated: true }],
  ["<", { strength: 2 }],
  ["<=", { strength: 2 }],
  [">", { strength: 2 }],
  [">=", { strength: 2 }],
]);

/** Comparison operators true of any value compared with itself ({@link assertStatementFact}). */
const REFLEXIVE: ReadonlySet<string> = new Set(["==", "is"]);

/** Comparison operators true of a literal compared with itself (`1 <= 1`, `"a" in "a"`). */
const REFLEXIVE_OF_LITERALS: ReadonlySet<string> = new Set(["==", "is", "<=", ">=", "in"]);

interface CallArguments {
  positional: Node[];
  keywords: Map<string, Node>;
}

function argumentsOf(args: Node | null | undefined): CallArguments {
  const result: CallArguments = { positional: [], keywords: new Map() };
  if (!args) return result;
  for (const child of namedChildren(args)) {
    if (child.type === "keyword_argument") {
      const name = child.childForFieldName("name")?.text;
      const value = child.childForFieldName("value");
      if (name && value) result.keywords.set(name, value);
    } else result.positional.push(child);
  }
  return result;
}

/** The dotted name of a decorator or mark expression, without call arguments: `pytest.mark.skipif`. */
function dottedName(node: Node): { name: string; args: Node | null } {
  const target = node.type === "call" ? node.childForFieldName("function") : node;
  const args = node.type === "call" ? node.childForFieldName("arguments") : null;
  return { name: target?.text.replace(/\s+/g, "") ?? "", args };
}

/** The flag a marker sets, matching its last two dotted parts (`pytest.mark.skip` -> `mark.skip`), or its last one. */
function markerFlag(name: string): TestFlag | undefined {
  const parts = name.split(".");
  return MARKER_FLAGS.get(parts.slice(-2).join(".")) ?? (parts.length === 1 ? MARKER_FLAGS.get(name) : undefined);
}

/** The reason of a skip marker or call: `reason=` or the first (skip) / second (skipif) string argument. */
function reasonOf(call: CallArguments): string | undefined {
  const keyword = stringValue(call.keywords.get("reason") ?? call.keywords.get("msg"));
  if (keyword !== null) return keyword;
  for (const arg of call.positional) {
    const value = stringValue(arg);
    if (value !== null) return value;
  }
  return undefined;
}

/** Decorators of a function or class definition (from its decorated_definition wrapper). */
function decoratorsOf(definition: Node): Node[] {
  const wrapper = definition.parent;
  if (wrapper?.type !== "decorated_definition") return [];
  return namedChildren(wrapper)
    .filter((child) => child.type === "decorator")
    .map((decorator) => namedChildren(decorator)[0])
    .filter((expression): expression is Node => expression !== undefined);
}

/**
 * The flag of a conditional marker whose condition is a literal: `skipif(True)`
 * and `skipUnless(False)` always skip; `skipif(False)` and `skipUnless(True)`
 * never do (null). Any other condition stays conditional.
 */
function settleCondition(name: string, flag: TestFlag, args: Node | null): TestFlag | null {
  if (flag !== "conditional") return flag;
  const condition = argumentsOf(args).positional[0]?.text;
  const isUnless = /skipUnless$/.test(name);
  if (condition === "True") return isUnless ? null : "skipped";
  if (condition === "False") return isUnless ? "skipped" : null;
  return flag;
}

/** Applies a marker expression's flag to `marks` (the first marker of each flag wins). */
function applyMarker(expression: Node, marks: TestDraft["marks"], inherited: string | null): void {
  const { name, args } = dottedName(expression);
  const marked = markerFlag(name);
  const flag = marked === undefined ? null : settleCondition(name, marked, args);
  if (!flag || marks[flag]) return;
  const reason = reasonOf(argumentsOf(args));
  const via = `@${name}` + (inherited ? ` on ${inherited}` : "");
  const mark: { via: string; reason?: string; condition?: string } = reason === undefined ? { via } : { via, reason };
  const written = flag === "conditional" ? argumentsOf(args).positional[0]?.text : undefined;
  // A module-level flag (`NO_CBOR2`, set where `import cbor2` fails) is read as what it probes (parsers/module-flags.ts).
  const condition = written === undefined ? undefined : withModuleFlags(written.replace(/\s+/g, " "), expression.tree.rootNode);
  if (condition !== undefined) mark.condition = /skipUnless$/.test(name) ? `!(${condition})` : condition;
  marks[flag] = mark;
}

interface Rows {
  count: number | null;
  hashes?: string[];
  literals?: string[][];
  /** Per row, its values named by their argnames (`s: "1.5"`), as TestCase.eachRowElements wants; absent when the argnames are not literal. */
  elements?: string[][];
}

/** The argnames of a parametrize call: `"a, b"`, `"a,b"` or a list/tuple of strings; null when not literal. */
function argnamesOf(node: Node | undefined): string[] | null {
  if (!node) return null;
  const single = stringValue(node);
  if (single !== null) return single.split(",").map((name) => name.trim());
  if (node.type !== "list" && node.type !== "tuple") return null;
  const names = namedChildren(node).map(stringValue);
  return names.every((name): name is string => name !== null) ? names : null;
}

/** The values of one parametrize row named by `names` (`("1.5", 1.5)` -> `s: "1.5"`, `want: 1.5`), or null when they do not line up. */
function namedRowValues(row: Node, names: readonly string[]): string[] | null {
  const isParam = row.type === "call" && /(^|\.)param$/.test(row.childForFieldName("function")?.text ?? "");
  const values = isParam ? argumentsOf(row.childForFieldName("arguments")).positional : names.length === 1 ? [row] : row.type === "tuple" || row.type === "list" ? namedChildren(row) : null;
  if (!values || values.length !== names.length) return null;
  return values.map((value, index) => `${names[index] as string}: ${normalizedText(value)}`);
}

/** Rows of `@pytest.mark.parametrize(names, [rows])` decorators (their product when stacked), or null when none. */
function parametrizeRows(decorators: readonly Node[]): Rows | null {
  const tables: Node[][] = [];
  let argnames: string[] | null = null;
  let isUnknown = false;
  for (const expression of decorators) {
    const { name, args } = dottedName(expression);
    if (!/(^|\.)parametrize$/.test(name)) continue;
    const call = argumentsOf(args);
    const table = call.positional[1] ?? call.keywords.get("argvalues");
    argnames = argnamesOf(call.positional[0] ?? call.keywords.get("argnames"));
    if (table && (table.type === "list" || table.type === "tuple")) tables.push(namedChildren(table));
    else isUnknown = true;
  }
  if (tables.length === 0 && !isUnknown) return null;
  if (isUnknown) return { count: null };
  const count = tables.reduce((product, rows) => product * rows.length, 1);
  if (tables.length > 1) return { count };
  // A row wrapped in pytest.param(..., marks=pytest.mark.skip/xfail) no longer tests anything:
  // it is left out of the row hashes, so a row that gains such a mark counts as a removed row.
  const rows = (tables[0] as Node[]).filter((row) => !isDisabledRow(row));
  const result: Rows = { count, hashes: rows.map(hashRow), literals: rows.map(literalsOf) };
  const names = argnames;
  const elements = names ? rows.map((row) => namedRowValues(row, names)) : [];
  if (names && elements.every((row): row is string[] => row !== null)) result.elements = elements;
  return result;
}

/**
 * `pytest.param(..., marks=pytest.mark.skip(...))` (or xfail, or a skipif,
 * alone or in a list). A skipif whose condition probes the environment the
 * suite is written for (checks/skip-condition.ts: an optional capability,
 * an older interpreter, another platform) leaves the row running where CI
 * and agents run, so it does not disable the row; one on the CI, the
 * platform CI runs on, or an unreadable condition does.
 */
function isDisabledRow(row: Node): boolean {
  if (row.type !== "call" || !/(^|\.)param$/.test(row.childForFieldName("function")?.text ?? "")) return false;
  const marks = argumentsOf(row.childForFieldName("arguments")).keywords.get("marks");
  if (!marks) return false;
  const entries = marks.type === "list" || marks.type === "tuple" ? namedChildren(marks) : [marks];
  return entries.some((entry) => {
    const { name, args } = dottedName(entry);
    const flag = markerFlag(name);
    if (flag !== "conditional") return flag !== undefined;
    const written = argumentsOf(args).positional[0]?.text;
    const condition = written === undefined ? undefined : withModuleFlags(written, row.tree.rootNode);
    const probe = condition === undefined ? undefined : /skipUnless$/.test(name) ? `!(${condition})` : condition;
    return skipConditionKind(probe) !== "environment";
  });
}

/** A class on the way from a function up to the module, with whether it is collected and its marker decorators. */
interface ClassFrame {
  name: string;
  node: Node;
  isCollected: boolean;
}

/** A class as a frame: pytest collects `Test*` classes (or those `python_classes` names), unittest every TestCase subclass. */
function classFrame(node: Node, classPatterns: readonly string[] = ["Test"]): ClassFrame {
  const name = node.childForFieldName("name")?.text ?? "";
  const superclasses = node.childForFieldName("superclasses")?.text ?? "";
  const isTestCase = /TestCase\b|\bTestCase|Test\b/.test(superclasses);
  return { name, node, isCollected: matchesPrefixOrGlob(name, classPatterns) || isTestCase };
}

/**
 * The classes enclosing a function definition (outermost first), or null
 * when the function is nested in another function (never collected).
 */
function enclosingClasses(definition: Node, classPatterns?: readonly string[]): ClassFrame[] | null {
  const frames: ClassFrame[] = [];
  let node: Node | null = definition.parent?.type === "decorated_definition" ? definition.parent : definition;
  for (;;) {
    const parent: Node | null = node.parent;
    if (!parent || parent.type === "module") return frames.reverse();
    if (parent.type !== "block") {
      node = parent;
      if (parent.type === "decorated_definition" || parent.type === "class_definition") continue;
      // if/try/with at module or class level still count as that level
      if (/_statement$|_clause$/.test(parent.type)) continue;
      return null;
    }
    const owner: Node | null = parent.parent;
    if (!owner) return null;
    if (owner.type === "function_definition") return null;
    if (owner.type === "class_definition") {
      frames.push(classFrame(owner, classPatterns));
      node = owner;
      continue;
    }
    node = owner;
  }
}

/**
 * A class statement's bases as written (whitespace dropped), keyword
 * arguments left out, and its `metaclass=` keyword:
 * `class A(Base, mixins.Other, metaclass=ABCMeta)` -> [Base, mixins.Other], ABCMeta.
 */
function classBases(classNode: Node): { bases: string[]; metaclass?: string } {
  const superclasses = classNode.childForFieldName("superclasses");
  const bases: string[] = [];
  let metaclass: string | undefined;
  for (const base of superclasses ? namedChildren(superclasses) : []) {
    if (base.type === "keyword_argument") {
      if (base.childForFieldName("name")?.text === "metaclass") metaclass = base.childForFieldName("value")?.text.replace(/\s+/g, "");
    } else if (base.type !== "comment" && base.type !== "list_splat" && base.type !== "dictionary_splat") bases.push(base.text.replace(/\s+/g, ""));
  }
  return metaclass === undefined ? { bases } : { bases, metaclass };
}

/** A statement of a class body (or of an `if`/`try`/`with` inside it) and the names it binds: defs, classes, assignment targets. */
interface BodyBinding {
  name: string;
  /** The function_definition, when the binding is a def. */
  definition: Node | null;
  /** Decorator expressions of a def. */
  decorators: Node[];
  /** The assigned value, for a plain `name = value`. */
  value: Node | null;
}

/** Names bound directly in a class body, in source order, descending into if/try/with/for blocks but not into defs or classes. */
function bodyBindings(block: Node): BodyBinding[] {
  const bindings: BodyBinding[] = [];
  const visit = (node: Node): void => {
    for (const statement of namedChildren(node)) {
      const definition = statement.type === "decorated_definition" ? statement.childForFieldName("definition") : statement;
      if (definition?.type === "function_definition" || definition?.type === "class_definition") {
        const name = definition.childForFieldName("name")?.text;
        const isDef = definition.type === "function_definition";
        if (name) bindings.push({ name, definition: isDef ? definition : null, decorators: isDef ? decoratorsOf(definition) : [], value: null });
      } else if (statement.type === "expression_statement") {
        const assignment = statement.namedChild(0);
        if (assignment?.type !== "assignment") continue;
        const left = assignment.childForFieldName("left");
        const targets =
          left?.type === "identifier"
            ? [left]
            : (left?.descendantsOfType("identifier") ?? []).filter((target): target is Node => target !== null && target.parent?.type !== "attribute" && target.parent?.type !== "subscript");
        const value = left?.type === "identifier" ? assignment.childForFieldName("right") : null;
        for (const target of targets) bindings.push({ name: target.text, definition: null, decorators: [], value });
      } else if (/_statement$|_clause$|^block$/.test(statement.type)) visit(statement);
    }
  };
  visit(block);
  return bindings;
}

/** A marks record as a list of MarkFacts, in flag order. */
function markList(marks: TestDraft["marks"]): MarkFact[] {
  return TEST_FLAG_ORDER.flatMap((flag) => {
    const mark = marks[flag];
    if (!mark) return [];
    return [mark.reason === undefined ? { flag, via: mark.via } : { flag, via: mark.via, reason: mark.reason }];
  });
}

/** A class's facts for cross-file resolution (its test methods are filled in by the caller), plus the def each test name finally binds. */
function classDraftOf(classNode: Node, enclosing: readonly ClassFrame[]): { draft: ClassDraft; finalDefs: Map<string, Node> } {
  const name = classNode.childForFieldName("name")?.text ?? "";
  const body = classNode.childForFieldName("body");
  const marks: TestDraft["marks"] = {};
  for (const decorator of decoratorsOf(classNode)) applyMarker(decorator, marks, `class ${name}`);
  for (const mark of body ? moduleMarks(body) : []) applyMarker(mark, marks, `pytestmark of class ${name}`);
  const bindings = body ? bodyBindings(body) : [];
  const finalDefs = new Map<string, Node>();
  const abstract = new Set<string>();
  let testAttribute: boolean | undefined;
  for (const binding of bindings) {
    if (binding.definition) finalDefs.set(binding.name, binding.definition);
    else finalDefs.delete(binding.name);
    if (binding.decorators.some((decorator) => /(^|\.)abstractmethod$/.test(dottedName(decorator).name))) abstract.add(binding.name);
    else abstract.delete(binding.name);
    if (binding.name === "__test__" && (binding.value?.type === "true" || binding.value?.type === "false")) testAttribute = binding.value.type === "true";
  }
  const draft: ClassDraft = {
    suitePath: [...enclosing.map((frame) => frame.name), name],
    line: classNode.startPosition.row + 1,
    ...classBases(classNode),
    marks: markList(marks),
    members: [...new Set(bindings.map((binding) => binding.name))],
    methods: [],
  };
  if (abstract.size > 0) draft.abstractMethods = [...abstract];
  if (testAttribute !== undefined) draft.testAttribute = testAttribute;
  return { draft, finalDefs };
}

/** Module-level imports (also inside module-level if/try blocks) as ImportFacts with their lines. */
function moduleImports(root: Node): ImportFact[] {
  const imports: ImportFact[] = [];
  const visit = (node: Node): void => {
    for (const statement of namedChildren(node)) {
      const line = statement.startPosition.row + 1;
      if (statement.type === "import_statement") {
        for (const child of namedChildren(statement)) {
          if (child.type === "dotted_name") imports.push({ source: child.text, names: [{ imported: null, local: child.text.split(".")[0] as string }], line });
          else if (child.type === "aliased_import") {
            const source = child.childForFieldName("name")?.text;
            const alias = child.childForFieldName("alias")?.text;
            if (source && alias) imports.push({ source, names: [{ imported: null, local: alias }], line, isAlias: true });
          }
        }
      } else if (statement.type === "import_from_statement") {
        const source = statement.childForFieldName("module_name")?.text.replace(/\s+/g, "");
        if (!source) continue;
        const names: ImportFact["names"] = [];
        for (const child of statement.childrenForFieldName("name")) {
          if (child?.type === "dotted_name") names.push({ imported: child.text, local: child.text });
          else if (child?.type === "aliased_import") {
            const imported = child.childForFieldName("name")?.text;
            const local = child.childForFieldName("alias")?.text;
            if (imported && local) names.push({ imported, local });
          }
        }
        if (namedChildren(statement).some((child) => child.type === "wildcard_import")) names.push({ imported: "*", local: "*" });
        if (names.length > 0) imports.push({ source, names, line });
      } else if (/_statement$|_clause$|^block$/.test(statement.type) && statement.type !== "expression_statement") visit(statement);
    }
  };
  visit(root);
  return imports;
}

/** `pytestmark = pytest.mark.skip(...)` (or a list of marks) among a module's or a class body's statements. */
function moduleMarks(root: Node): Node[] {
  const marks: Node[] = [];
  for (const statement of namedChildren(root)) {
    if (statement.type !== "expression_statement") continue;
    const assignment = statement.namedChild(0);
    if (assignment?.type !== "assignment" || assignment.childForFieldName("left")?.text !== "pytestmark") continue;
    const right = assignment.childForFieldName("right");
    if (!right) continue;
    if (right.type === "list" || right.type === "tuple") marks.push(...namedChildren(right));
    else marks.push(right);
  }
  return marks;
}

/** Operator text of a single-operator comparison (`==`, `is not`, `not in`), or null for a chain. */
function comparisonOperator(node: Node): string | null {
  const operators = node.children.filter((child): child is Node => child !== null && !child.isNamed);
  const text = operators.map((child) => child.type).join(" ");
  return COMPARISONS.has(text) ? text : null;
}

function isTruthyLiteral(node: Node): boolean {
  if (node.type === "true") return true;
  if (node.type === "integer" || node.type === "float") return Number(node.text.replace(/_/g, "")) !== 0;
  if (node.type === "string") return (stringValue(node) ?? "").length > 0;
  return false;
}

/** One `assert` statement as an AssertionFact. */
function assertStatementFact(statement: Node, line: number): AssertionFact {
  let expression = namedChildren(statement)[0];
  // `assert (\n  a\n  == b\n)` (Black's layout for long asserts) is `assert a == b`; a tuple `assert (a, b)` is not unwrapped.
  while (expression?.type === "parenthesized_expression") expression = namedChildren(expression)[0];
  if (!expression) return { line, matcher: "assert", strength: 1, tautology: false };
  if (isLiteral(expression)) {
    const isTautology = isTruthyLiteral(expression);
    return { line, matcher: "assert", strength: isTautology ? 0 : 1, tautology: isTautology, actual: expression.text };
  }
  if (expression.type === "comparison_operator") {
    const operator = comparisonOperator(expression);
    const operands = namedChildren(expression);
    const left = operands[0];
    const right = operands[operands.length - 1];
    if (operator && left && right) {
      const rank = COMPARISONS.get(operator) as { strength: 2 | 3; negated?: boolean };
      // A value is equal and identical to itself (Python's data model; a NaN, or an __eq__ that says otherwise, is the test's
      // own business), so `x == x` and `x is x` check nothing. `a <= a` and `a >= a` call the ordering under test (sets,
      // versions and intervals define their own: boltons ec1ff9f6's `cab <= cab` of a complement set), true of a literal
      // only; `a < a` and `a != a` are false, failing checks rather than tautologies.
      const isSame = compactText(left) === compactText(right);
      const isTautology = isSame && (REFLEXIVE.has(operator) || (isLiteral(left) && REFLEXIVE_OF_LITERALS.has(operator)));
      const fact: AssertionFact = {
        line,
        matcher: `assert ${operator}`,
        strength: isTautology ? 0 : rank.strength,
        tautology: isTautology,
        actual: compactText(left) as string,
        expected: compactText(right) as string,
      };
      if (rank.negated) fact.negated = true;
      return fact;
    }
    return { line, matcher: "assert", strength: 2, tautology: false, actual: compactText(expression) as string };
  }
  if (expression.type === "not_operator") {
    return { line, matcher: "assert not", strength: 1, tautology: false, negated: true, actual: compactText(expression.childForFieldName("argument")) as string };
  }
  if (expression.type === "call" && expression.childForFieldName("function")?.text === "isinstance") {
    return { line, matcher: "assert isinstance", strength: 2, tautology: false, actual: compactText(expression) as string };
  }
  return { line, matcher: "assert", strength: 1, tautology: false, actual: compactText(expression) as string };
}

/** The error and warning checks that run code of their own (a `with` block, or a callable and its arguments). */
const ERROR_CHECKS: ReadonlySet<string> = new Set(["raises", "warns", "assertRaises", "assertWarns", "assertRaisesRegex", "assertWarnsRegex"]);

/**
 * The code an error check runs, as its subject: the last statement of the
 * `with pytest.raises(E):` / `with self.assertRaises(E):` block it opens, or
 * the callable and its arguments it is given (`self.assertRaises(E, parse,
 * "")` -> `parse("")`). Undefined when it runs nothing readable.
 */
function errorCheckSubject(call: Node, args: Node | undefined): string | undefined {
  const positional = args ? namedChildren(args).filter((arg) => arg.type !== "keyword_argument") : [];
  const callable = positional[1];
  if (callable)
    return `${compactText(callable) as string}(${positional
      .slice(2)
      .map((arg) => compactText(arg) as string)
      .join(", ")})`;
  let node: Node | null = call;
  for (let depth = 0; node && depth < 4 && node.type !== "with_statement"; depth++) node = node.parent;
  return node?.type === "with_statement" ? thunkSubject(node.childForFieldName("body")) : undefined;
}

/** `self.assertX(...)` / `pytest.raises(...)` as an AssertionFact. */
function callAssertionFact(object: string, matcher: string, args: Node | undefined, line: number): AssertionFact {
  const call = argumentsOf(args);
  const [first, second] = call.positional;
  if (matcher === "raises" || matcher === "warns" || matcher === "assertRaises" || matcher === "assertWarns") {
    const exception = first?.text.replace(/\s+/g, "") ?? "";
    const hasMessage = call.keywords.has("match");
    const strength = exception === "" || BROAD_EXCEPTIONS.has(exception.replace(/^builtins\./, "")) ? 1 : hasMessage ? 3 : 2;
    const fact: AssertionFact = { line, matcher: object === "self" ? matcher : `${object}.${matcher}`, strength, tautology: false };
    if (exception !== "") fact.expected = exception;
    const message = call.keywords.get("match");
    if (message) fact.message = compactText(message) as string;
    return fact;
  }
  const rank = object === "pytest" ? { strength: 1 as const } : (UNITTEST_STRENGTH.get(matcher) ?? { strength: 1 as const });
  const fact: AssertionFact = { line, matcher: object === "self" ? matcher : `${object}.${matcher}`, strength: rank.strength, tautology: false };
  if (first) fact.actual = compactText(first) as string;
  if (second && rank.strength >= 2) fact.expected = compactText(second) as string;
  if (rank.negated) fact.negated = true;
  // assertTrue(True), assertEqual(1, 1), assertEqual(x, x): can never fail.
  const isConstantTrue = (matcher === "assertTrue" || matcher === "assert_") && first !== undefined && isLiteral(first) && isTruthyLiteral(first);
  const isSelfEqual = rank.strength === 3 && !rank.negated && first !== undefined && second !== undefined && compactText(first) === compactText(second);
  if (isConstantTrue || isSelfEqual) {
    fact.strength = 0;
    fact.tautology = true;
  }
  return fact;
}

function extractPythonDrafts(path: string, grammar: LoadedGrammar, root: Node, content: string, rules: CollectionRules = {}): ExtractedDrafts {
  const tests: TestDraft[] = [];
  const nonTestFunctions: NonTestFunctionFact[] = [];
  const collectsTests = rules.testModule === true || isPythonCollectedFile(path);
  const fileMarks = moduleMarks(root);

  /**
   * A test declaration: marks of its own decorators, then (for a module-level
   * function) the module's `pytestmark`. A method's class and module marks
   * are added when its classes are resolved (python-classes.ts), as they
   * depend on the class that collects it.
   */
  const makeDraft = (name: string, definition: Node, body: Node, suitePath: string[], isMethod: boolean): TestDraft => {
    const marks: TestDraft["marks"] = {};
    const decorators = decoratorsOf(definition);
    for (const decorator of decorators) applyMarker(decorator, marks, null);
    if (!isMethod) for (const mark of fileMarks) applyMarker(mark, marks, "pytestmark");
    const line = definition.startPosition.row + 1;
    const draft: TestDraft = { name, suitePath, line, node: definition, bodyHash: hashNode(body), marks, literals: literalsOf(body), body };
    const rows = parametrizeRows(decorators);
    if (rows) {
      draft.eachRows = rows.count;
      if (rows.hashes) draft.eachRowHashes = rows.hashes;
      if (rows.literals) draft.eachRowLiterals = rows.literals;
      if (rows.elements) draft.eachRowElements = rows.elements;
    }
    return draft;
  };

  // Every class outside a function, by its start, with the def each of its names finally binds.
  const classes = new Map<number, { draft: ClassDraft; finalDefs: Map<string, Node> }>();
  for (const classNode of root.descendantsOfType("class_definition")) {
    const enclosing = classNode ? enclosingClasses(classNode) : null;
    if (classNode && enclosing !== null) classes.set(classNode.startIndex, classDraftOf(classNode, enclosing));
  }

  const testMatches = queryCaptures(grammar, "tests", root);
  for (const match of testMatches) {
    const definition = match.get("definition");
    const name = match.get("name")?.text;
    const body = match.get("body");
    if (!definition || !name || !body) continue;
    const frames = enclosingClasses(definition, rules.classPatterns);
    if (frames === null) continue;
    const suitePath = frames.map((frame) => frame.name);
    const owner = frames.at(-1);
    const isTestName = matchesPrefixOrGlob(name, rules.functionPatterns ?? ["test"]);
    if (owner) {
      // Which class collects a method is decided by resolution; the last def of a name is the method.
      const ownerClass = classes.get(owner.node.startIndex);
      if (isTestName && ownerClass?.finalDefs.get(name)?.startIndex === definition.startIndex) {
        ownerClass.draft.methods.push(makeDraft(name, definition, body, suitePath, true));
      }
    }
    // Out-of-discovery detection (compare.ts) reads these: a method counts as a test here when its class chain is collectable by name.
    const isTest = collectsTests && isTestName && frames.every((frame) => frame.isCollected);
    if (!isTest) {
      if (!name.startsWith("__")) nonTestFunctions.push({ name, suitePath, line: definition.startPosition.row + 1, bodyHash: hashNode(body) });
      continue;
    }
    if (!owner) tests.push(makeDraft(name, definition, body, suitePath, false));
  }

  const classDrafts = [...classes.values()].map((entry) => entry.draft);
  const imports = moduleImports(root);
  const hasTestMethods = classDrafts.some((draft) => draft.methods.length > 0);
  // Classes, imports and module marks for resolution: a test file's whenever it has classes, imports a Test* class
  // (pytest collects it again here) or may re-export one; any other file's only when it holds test methods (a shared
  // test mixin).
  const importsTestClass = imports.some((fact) => fact.names.some((name) => name.imported === "*" || isTestClassName(name.local)));
  // A test-path module pytest does not collect (a package __init__, a helpers module) may re-export a base class.
  const mayReExport = !collectsTests && imports.some((fact) => fact.names.some((name) => name.imported !== null));
  const wantsScope = isPythonTestPath(path) ? classDrafts.length > 0 || importsTestClass || mayReExport : hasTestMethods;
  const fileMarkRecord: TestDraft["marks"] = {};
  for (const mark of fileMarks) applyMarker(mark, fileMarkRecord, "pytestmark");

  const skips: SkipDraft[] = [];
  for (const match of testMatches) {
    const call = match.get("skip");
    const object = match.get("object")?.text;
    const method = match.get("method")?.text;
    if (!call || !object || !method) continue;
    if ((object === "self") !== (method === "skipTest")) continue;
    const flag = RUNTIME_FLAGS.get(method);
    if (!flag) continue;
    const reason = reasonOf(argumentsOf(match.get("args")));
    // importorskip skips only when the module is missing.
    const skip: SkipDraft = { startIndex: call.startIndex, flag, via: `${object}.${method}()`, node: call, isConditional: method === "importorskip" };
    if (reason !== undefined) skip.reason = reason;
    skips.push(skip);
  }
  skips.push(...raisedSkips(root));

  const assertions: AssertionDraft[] = [];
  for (const match of queryCaptures(grammar, "assertions", root)) {
    const node = match.get("assertion") ?? match.get("call");
    if (!node) continue;
    if (node.type === "call" && !isAssertionCall(match.get("object")?.text ?? "", match.get("matcher")?.text ?? "")) continue;
    const line = node.startPosition.row + 1;
    const fact = node.type === "assert_statement" ? assertStatementFact(node, line) : callAssertionFact(match.get("object")?.text ?? "", match.get("matcher")?.text ?? "", match.get("args"), line);
    if (node.type === "call" && ERROR_CHECKS.has(match.get("matcher")?.text ?? "") && fact.actual === undefined) {
      const code = errorCheckSubject(node, match.get("args"));
      if (code !== undefined) fact.actual = code;
    }
    if (fact.actual !== undefined && /^[A-Za-z_]\w*$/.test(fact.actual)) {
      const value = boundLocalValue(node, fact.actual);
      if (value !== undefined) fact.actualValue = value;
    }
    assertions.push({ ...fact, startIndex: node.startIndex });
  }

  const checked = withTryChecks(root, withNoWarningChecks(root, assertions), PYTHON_TRY);

  const frameworks: string[] = [];
  if (/^\s*(?:import|from)\s+pytest\b/m.test(content)) frameworks.push("pytest");
  if (/^\s*(?:import|from)\s+unittest\b/m.test(content)) frameworks.push("unittest");
  const drafts: ExtractedDrafts = { tests, assertions: checked, skips, nonTestFunctions: collectsTests ? nonTestFunctions : [], frameworks, skipReach: PYTHON_SKIP_REACH };
  if (wantsScope) drafts.classScope = { classes: classDrafts, imports, marks: markList(fileMarkRecord) };
  // Only module-level test functions record imported helper calls: only they are linked (a test class's methods are not yet).
  if (tests.length > 0 && imports.some((fact) => fact.names.some((name) => name.imported !== null))) drafts.helperImports = imports;
  return drafts;
}

/** `from typing import cast` (or typing_extensions), so a bare `cast(...)` is typing's. */
const IMPORTS_TYPING_CAST = /\bfrom\s+typing(?:_extensions)?\s+import\s+(?:\([^)]*|[^\n]*)\bcast\b/;

/** The raised exception of a block whose last statement is `raise X(...)` (or a bare `raise`), else null. */
function raisedBy(block: Node | null): Node | string | null {
  const last = block ? namedChildren(block).at(-1) : undefined;
  if (last?.type !== "raise_statement") return null;
  return namedChildren(last)[0] ?? "raise";
}

/**
 * The condition a filtering iterable applies (`filter(lambda x: bad(x), xs)` -> `bad(x)`,
 * `filter(is_bad, xs)` -> `is_bad`, `(y for y in xs if bad(y))` -> `bad(y)`), or null.
 */
function pythonFilterPredicate(iterable: Node | null): Node | null {
  if (iterable?.type === "call" && iterable.childForFieldName("function")?.text === "filter") {
    const predicate = namedChildren(iterable.childForFieldName("arguments") ?? iterable)[0];
    return predicate?.type === "lambda" ? predicate.childForFieldName("body") : predicate?.type === "identifier" || predicate?.type === "attribute" ? predicate : null;
  }
  if (iterable?.type !== "generator_expression" && iterable?.type !== "list_comprehension" && iterable?.type !== "set_comprehension") return null;
  const clauses = namedChildren(iterable).filter((child) => child.type === "if_clause");
  return clauses.length === 1 ? (clauses[0]?.namedChild(0) ?? null) : null;
}

/**
 * `for x in filter(bad, xs): raise …` (or over a comprehension with an
 * `if`): the loop guard `for x in xs: if bad(x): raise …` with its
 * condition moved into the filter. The body must hold nothing but the
 * raise, after assignments.
 */
function pythonLoopGuard(node: Node): GuardDraft[] {
  const predicate = pythonFilterPredicate(node.childForFieldName("right"));
  const body = node.childForFieldName("body");
  const statements = body ? namedChildren(body).filter((child) => child.type !== "comment") : [];
  const isPlain = (statement: Node): boolean => statement.type === "expression_statement" && statement.namedChild(0)?.type === "assignment";
  const raised = predicate && statements.slice(0, -1).every(isPlain) ? raisedBy(body) : null;
  return predicate && raised ? [{ condition: predicate, action: raised }] : [];
}

/**
 * A `case` of a `match` that raises: a guard on the subject matching the
 * case's patterns (`n is 1 | 2`), or on the case's `if` guard when it has
 * one. A catch-all (`case _:`, a capture `case other:`) is left out: rewritten
 * as a lookup, it would read as a guard removed.
 */
function pythonCaseGuard(node: Node): GuardDraft[] {
  const raised = raisedBy(node.childForFieldName("consequence"));
  const subject = node.parent?.parent?.type === "match_statement" ? node.parent.parent.childForFieldName("subject") : null;
  const guard = node.childForFieldName("guard")?.namedChild(0);
  if (!raised || !subject) return [];
  if (guard) return [{ condition: guard, action: raised }];
  const patterns = namedChildren(node).filter((child) => child.type === "case_pattern");
  // `case _:` and a capture (`case other:`) take every value left: catch-alls.
  return patterns.length > 0 && !patterns.some((pattern) => /^[A-Za-z_]\w*$/.test(pattern.text.trim())) ? [{ condition: subject, action: raised, patterns }] : [];
}

/**
 * `try: v = t[k] except KeyError: raise E(m)`: the exit of a failed lookup
 * or conversion handled by raising (GuardFact.handler), as the `if k not in
 * t: raise E(m)` it spells the EAFP way. Only a handler of lookup errors
 * ({@link LOOKUP_ERRORS}) whose last statement raises an error of its own
 * (not a bare `raise`) is one.
 */
function pythonHandlerGuard(node: Node): GuardDraft[] {
  const tryBody = node.parent?.type === "try_statement" ? node.parent.childForFieldName("body") : null;
  const handler = namedChildren(node).find((child) => child.type === "block") ?? null;
  const raised = raisedBy(handler);
  if (!tryBody || raised === null || typeof raised === "string" || !catchesOnlyLookupErrors(caughtBy(node), LOOKUP_ERRORS.python)) return [];
  const guarded = namedChildren(tryBody).filter((child) => child.type !== "comment");
  return guarded.length > 0 ? [{ condition: guarded[0] as Node, guarded, action: raised }] : [];
}

/**
 * Checking conversions of the standard library, by callee, and the error
 * each raises for a value it refuses: `n = operator.index(n)` is the guard
 * `if not isinstance(n, int): raise TypeError(…)` (PEP 357), `os.fspath(p)`
 * the one that refuses what is no path.
 */
const PYTHON_CHECKING_CALLS: Readonly<Record<string, string>> = { "operator.index": "TypeError", "os.fspath": "TypeError" };

/** A call of a checking conversion ({@link PYTHON_CHECKING_CALLS}) as a guard on its argument; the action is the callee. */
function pythonHelperGuard(node: Node): GuardDraft[] {
  const callee = node.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
  const first = namedChildren(node.childForFieldName("arguments") ?? node)[0];
  return callee in PYTHON_CHECKING_CALLS && first ? [{ condition: first, action: callee }] : [];
}

const PYTHON_FLOW: FlowSyntax = {
  throwTypes: new Set(["raise_statement"]),
  returnTypes: new Set(["return_statement"]),
  noopTypes: new Set(["pass_statement"]),
  expressionTypes: new Set(["expression_statement"]),
  callTypes: new Set(["call"]),
  callee: (call) => call.childForFieldName("function")?.text ?? null,
};

/** Calls that end the process (Python docs: sys.exit, os._exit, the site module's exit/quit, os.abort). */
const PYTHON_EXIT = /^(sys\.exit|exit|quit|os\._exit|_exit|os\.abort)$/;

/** Calls and assignments that install a hook run at exit or on an uncaught error (atexit.register, sys.excepthook, threading.excepthook, sys.unraisablehook). */
const PYTHON_HOOK_CALL = /^(atexit\.register|register)$/;
const PYTHON_HOOK_TARGET = /^(sys\.excepthook|threading\.excepthook|sys\.unraisablehook|sys\.exit|os\._exit)$/;

/**
 * Python's ways out of a test run ({@link EscapeDraft}): `sys.exit(0)`,
 * `os._exit(0)`, `exit()`, `raise SystemExit(0)`; `atexit.register(...)`
 * (with `atexit.register(os._exit, 0)` an exit itself); `sys.excepthook = ...`.
 */
const PYTHON_ESCAPES: Readonly<Record<string, (node: Node) => EscapeDraft | null>> = {
  call: (node) => {
    const callee = node.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "";
    const args = namedChildren(node.childForFieldName("arguments") ?? node).filter((arg) => arg.type !== "keyword_argument");
    if (PYTHON_EXIT.test(callee)) return { kind: "exit", code: args[0] ?? null };
    if (!PYTHON_HOOK_CALL.test(callee) || (callee === "register" && !/^\s*(from\s+atexit\s+import|import\s+atexit)/m.test(node.tree.rootNode.text))) return null;
    const target = args[0]?.text.replace(/\s+/g, "") ?? "";
    return PYTHON_EXIT.test(target) ? { kind: "exit", code: args[1] ?? null } : { kind: "hook" };
  },
  raise_statement: (node) => {
    const raised = namedChildren(node)[0];
    const name = raised?.type === "call" ? raised.childForFieldName("function")?.text : raised?.text;
    if (name !== "SystemExit") return null;
    const arg = raised?.type === "call" ? namedChildren(raised.childForFieldName("arguments") ?? raised)[0] : undefined;
    return { kind: "exit", code: arg ?? null };
  },
  assignment: (node) => (PYTHON_HOOK_TARGET.test(node.childForFieldName("left")?.text.replace(/\s+/g, "") ?? "") ? { kind: "hook" } : null),
};

/**
 * Python state a function may count between calls: module-level names (and
 * those a `global` statement names), and `solve.calls = getattr(solve,
 * "calls", 0) + 1` on the function itself.
 */
const PYTHON_STATE: NonNullable<CodeSyntax["state"]> = {
  declarations: {
    assignment: (node, isModuleLevel) => {
      const left = node.childForFieldName("left");
      return isModuleLevel && left?.type === "identifier" ? [left.text] : [];
    },
    global_statement: (node) =>
      namedChildren(node)
        .filter((child) => child.type === "identifier")
        .map((child) => child.text),
  },
  updates: {
    augmented_assignment: counterTarget,
    assignment: (node) => {
      const target = node.childForFieldName("left")?.text.replace(/\s+/g, "") ?? "";
      const value = node.childForFieldName("right")?.text.replace(/\s+/g, "") ?? "";
      const attribute = /^(\w+)\.(\w+)$/.exec(target);
      if (attribute && value.startsWith(`getattr(${attribute[1]},"${attribute[2]}"`) && /[+-]1$/.test(value)) return target;
      return counterTarget(node);
    },
  },
};

/** `if __name__ == "__main__":`: the module run as a script. */
const isMainGuard = (node: Node): boolean => /^__name__==(["'])__main__\1$/.test(node.childForFieldName("condition")?.text.replace(/\s+/g, "") ?? "");

/** Literal branches: `if`/`elif` returning a literal, `x if n == 7 else y`, `case 7: return 3`, dict literals (two entries or more). */
const PYTHON_BRANCHES: Readonly<Record<string, (node: Node) => BranchDraft[]>> = {
  if_statement: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
  elif_clause: (node) => [{ kind: "branch", condition: node.childForFieldName("condition"), result: node.childForFieldName("consequence") }],
  conditional_expression: (node) => {
    const [value, condition] = namedChildren(node);
    return value && condition ? [{ kind: "branch", condition, result: value }] : [];
  },
  case_clause: (node) => {
    const patterns = namedChildren(node)
      .filter((child) => child.type === "case_pattern")
      .map((pattern) => pattern.namedChild(0) ?? pattern);
    return [{ kind: "branch", patterns, result: node.childForFieldName("consequence") }];
  },
  dictionary: (node) => {
    const pairs = namedChildren(node).filter((child) => child.type === "pair");
    if (pairs.length < 2 || pairs.length > 500) return [];
    return pairs.map((pair) => ({ kind: "table" as const, patterns: [pair.childForFieldName("key")].filter((key): key is Node => key !== null), result: pair.childForFieldName("value") }));
  },
};

/** What an `except` clause catches: its exception expression as written, "*" for a bare `except:`. */
function caughtBy(clause: Node): string {
  const first = namedChildren(clause).find((child) => child.type !== "block");
  if (!first) return "*";
  const value = first.type === "as_pattern" ? first.namedChild(0) : first;
  return value?.text.replace(/\s+/g, " ") ?? "*";
}

/** Modules only a test run imports: `"pytest" in sys.modules`. */
const RUNNER_MODULES: ReadonlySet<string> = new Set(["pytest", "_pytest", "unittest", "nose", "nose2"]);

/** The plain string values among a node's direct children. */
const stringChildren = (node: Node): string[] =>
  namedChildren(node).flatMap((child) => {
    const value = child.type === "string" ? literalText(child) : null;
    return value === null ? [] : [JSON.parse(value) as string];
  });

/** True when an expression reads the environment (`os.environ[...]`, `os.environ.get(...)`, `os.getenv(...)`) for one of `names`. */
function readsEnv(node: Node, names: ReadonlySet<string>): boolean {
  let key: Node | null | undefined = null;
  if (node.type === "call" && /(^|\.)(environ\.get|getenv)$/.test(node.childForFieldName("function")?.text.replace(/\s+/g, "") ?? "")) {
    key = node.childForFieldName("arguments")?.namedChild(0);
  } else if (node.type === "subscript" && /(^|\.)environ$/.test(node.childForFieldName("value")?.text.replace(/\s+/g, "") ?? "")) {
    key = node.childForFieldName("subscript");
  }
  const value = key?.type === "string" ? literalText(key) : null;
  return value !== null && names.has(JSON.parse(value) as string);
}

/** A Python check for the test runner (special_casing): `"pytest" in sys.modules`, `os.environ.get("PYTEST_CURRENT_TEST")`, `os.environ["APP_ENV"] == "test"`. */
function isPythonRunnerCheck(node: Node): boolean {
  if (node.type === "comparison_operator") {
    const strings = stringChildren(node);
    const text = node.text;
    if (/\bsys\.modules\b/.test(text) && strings.some((value) => RUNNER_MODULES.has(value))) return true;
    if (/\benviron\b/.test(text) && strings.some((value) => RUNNER_ENV_VARS.has(value))) return true;
    return strings.includes("test") && namedChildren(node).some((child) => readsEnv(child, MODE_ENV_VARS));
  }
  // call / subscript: reading a variable only the runner sets
  return readsEnv(node, RUNNER_ENV_VARS) && !(node.parent?.type === "comparison_operator" && isPythonRunnerCheck(node.parent));
}

/** A top-level `def`/`class` whose name does not start with `_`: Python's public API (feature_removal). */
function pythonExport(node: Node): { name: string; body: Node | null }[] {
  const definition = node.type === "decorated_definition" ? node.childForFieldName("definition") : node;
  const name = definition?.childForFieldName("name")?.text;
  if (!definition || !name || name.startsWith("_")) return [];
  return [{ name, body: definition.childForFieldName("body") }];
}

/**
 * Definitions under a module-level `if` or `try` (`if sys.version_info >=
 * (3, 11):` / `else:`, `try: from fast import f` / `except ImportError:
 * def f…`): public names of the module like top-level ones. Blocks nest
 * (an `if` inside the `try`); definitions inside functions and classes do
 * not count.
 */
function conditionalExports(node: Node): { name: string; body: Node | null; line: number }[] {
  const blocks = node.descendantsOfType("block").filter((block): block is Node => {
    for (let parent = block?.parent ?? null; parent && parent.id !== node.id; parent = parent.parent) if (/^(function|class)_definition$/.test(parent.type)) return false;
    return block !== null;
  });
  return blocks.flatMap((block) =>
    namedChildren(block).flatMap((statement) =>
      /^(function|class|decorated)_definition$/.test(statement.type) ? pythonExport(statement).map((draft) => ({ ...draft, line: statement.startPosition.row + 1 })) : [],
    ),
  );
}

/**
 * Names a module-level `__getattr__(name)` serves (PEP 562, a deprecation
 * shim): the string literals it compares `name` with (`if name == "old"`,
 * `name in ("a", "b")`) and the keys of module-level dicts it reads
 * (`_DEPRECATED[name]`). They are still importable from the module.
 */
function getattrNames(root: Node): { name: string; line: number }[] {
  const hook = namedChildren(root).find((child) => child.type === "function_definition" && child.childForFieldName("name")?.text === "__getattr__");
  const body = hook?.childForFieldName("body");
  if (!hook || !body) return [];
  const served: { name: string; line: number }[] = [];
  const add = (literal: Node): void => {
    const value = literal.type === "string" ? literalText(literal) : null;
    if (value !== null) served.push({ name: JSON.parse(value) as string, line: literal.startPosition.row + 1 });
  };
  for (const comparison of body.descendantsOfType("comparison_operator")) {
    for (const part of namedChildren(comparison as Node)) {
      if (part.type === "string") add(part);
      else if (/^(tuple|list|set)$/.test(part.type)) for (const element of namedChildren(part)) add(element);
    }
  }
  const read = new Set(body.descendantsOfType("identifier").map((id) => id?.text));
  for (const child of namedChildren(root)) {
    const assignment = child.type === "expression_statement" ? child.namedChild(0) : null;
    const target = assignment?.type === "assignment" ? assignment.childForFieldName("left")?.text : undefined;
    const value = assignment?.childForFieldName("right");
    if (!target || !read.has(target) || value?.type !== "dictionary") continue;
    for (const pair of namedChildren(value)) {
      const key = pair.type === "pair" ? pair.childForFieldName("key") : null;
      if (key) add(key);
    }
  }
  return served.filter(({ name }) => /^[A-Za-z_]\w*$/.test(name));
}

/** The names a module-level `__all__` lists, each with its line; null when there is none or it is not plain string literals (built at run time). */
function dunderAll(root: Node): { name: string; line: number }[] | null {
  const stringsIn = (items: Node[] | null): { name: string; line: number }[] | null => {
    if (items === null) return null;
    const values = items.map((item) => (item.type === "string" ? literalText(item) : null));
    if (values.some((value) => value === null)) return null;
    return values.map((value, index) => ({ name: JSON.parse(value as string) as string, line: (items[index] as Node).startPosition.row + 1 }));
  };
  const itemsOf = (node: Node | null | undefined): Node[] | null => (node && (node.type === "list" || node.type === "tuple") ? namedChildren(node) : null);
  let names: { name: string; line: number }[] | null = null;
  for (const child of namedChildren(root)) {
    const statement = child.type === "expression_statement" ? child.namedChild(0) : null;
    if (!statement) continue;
    let listed: { name: string; line: number }[] | null;
    if (statement.type === "assignment" && statement.childForFieldName("left")?.text === "__all__") {
      listed = stringsIn(itemsOf(statement.childForFieldName("right")));
      if (!listed) return null;
      names = listed;
      continue;
    }
    if (statement.type === "augmented_assignment" && statement.childForFieldName("left")?.text === "__all__") {
      listed = stringsIn(itemsOf(statement.childForFieldName("right")));
    } else if (statement.type === "call" && /^__all__\.(extend|append)$/.test(statement.childForFieldName("function")?.text ?? "")) {
      const argument = statement.childForFieldName("arguments")?.namedChild(0) ?? null;
      listed = stringsIn(statement.childForFieldName("function")?.text.endsWith("append") ? (argument ? [argument] : null) : itemsOf(argument));
    } else {
      continue;
    }
    if (!listed || names === null) return null;
    names = [...names, ...listed];
  }
  return names;
}

/**
 * The names a module binds at top level (definitions, assignments, imports,
 * also inside top-level `if`/`try`/`with` blocks); null when a `from x
 * import *` makes that unknowable.
 */
function moduleBindings(root: Node): Set<string> | null {
  const names = new Set<string>();
  const bindTarget = (target: Node | null): void => {
    if (!target) return;
    if (target.type === "identifier") names.add(target.text);
    else if (target.type === "pattern_list" || target.type === "tuple_pattern" || target.type === "list_pattern") for (const part of namedChildren(target)) bindTarget(part);
  };
  const visit = (statements: Node[]): boolean => {
    for (const statement of statements) {
      const inner = statement.type === "expression_statement" ? (statement.namedChild(0) ?? statement) : statement;
      const definition = inner.type === "decorated_definition" ? inner.childForFieldName("definition") : inner;
      if (definition && /^(function|class)_definition$/.test(definition.type)) {
        const name = definition.childForFieldName("name")?.text;
        if (name) names.add(name);
      } else if (inner.type === "assignment" || inner.type === "augmented_assignment") {
        bindTarget(inner.childForFieldName("left"));
      } else if (inner.type === "import_statement" || inner.type === "import_from_statement") {
        if (namedChildren(inner).some((child) => child.type === "wildcard_import")) return false;
        for (const imported of inner.childrenForFieldName("name")) {
          if (imported?.type === "aliased_import") bindTarget(imported.childForFieldName("alias"));
          else if (imported) names.add(inner.type === "import_statement" ? (namedChildren(imported)[0]?.text ?? "") : (namedChildren(imported).at(-1)?.text ?? ""));
        }
      } else if (/^(if|try|with)_statement$/.test(inner.type)) {
        const blocks = inner.descendantsOfType("block").filter((block): block is Node => block !== null && block.parent !== null && !/^(function|class)_definition$/.test(block.parent.type));
        for (const block of blocks) if (!visit(namedChildren(block))) return false;
      }
    }
    return true;
  };
  return visit(namedChildren(root)) ? names : null;
}

/** True for a module that runs as a script: a top-level `if __name__ == "__main__":`. */
function isScriptModule(root: Node): boolean {
  return namedChildren(root).some((child) => {
    if (child.type !== "if_statement") return false;
    const condition = child.childForFieldName("condition");
    return condition?.type === "comparison_operator" && /^__name__==(['"])__main__\1$|^(['"])__main__\2==__name__$/.test(condition.text.replace(/\s+/g, ""));
  });
}

/**
 * A Python module's public API from its own word (the Python tutorial,
 * "Importing * From a Package"; PEP 8 "Public and Internal Interfaces"):
 * `__main__.py` has none; a literal `__all__` lists it exactly (a name it
 * lists that the module only imports counts too); otherwise the top-level
 * `def`/`class` names without a leading `_`, less a script's `main` (a
 * module with `if __name__ == "__main__":` runs it, nobody imports it). A
 * name `__all__` lists that the module no longer binds is gone all the same.
 */
function pythonModuleExports(root: Node, found: ExportFact[], context: CodeContext): ExportFact[] {
  if (/(^|\/)__main__\.py$/.test(context.path)) return [];
  const listed = dunderAll(root);
  const served = getattrNames(root);
  if (listed === null) {
    const kept = isScriptModule(root) ? found.filter((fact) => fact.name !== "main") : found;
    const names = new Set(kept.map((fact) => fact.name));
    const unique = kept.filter((fact) => {
      if (!names.has(fact.name)) return false;
      names.delete(fact.name);
      return true;
    });
    return [...unique, ...served.filter(({ name }) => !kept.some((fact) => fact.name === name))];
  }
  const declared = new Map<string, ExportFact>();
  for (const child of namedChildren(root)) {
    const definition = child.type === "decorated_definition" ? child.childForFieldName("definition") : child;
    const name = definition && /^(function|class)_definition$/.test(definition.type) ? definition.childForFieldName("name")?.text : undefined;
    const body = definition?.childForFieldName("body");
    if (name && body) declared.set(name, { name, line: child.startPosition.row + 1, hash: declarationHash(body) });
  }
  const bound = moduleBindings(root);
  for (const { name } of served) bound?.add(name);
  const seen = new Set<string>();
  return listed.flatMap(({ name, line }) => {
    if (seen.has(name) || (bound !== null && !bound.has(name))) return [];
    seen.add(name);
    return [declared.get(name) ?? { name, line }];
  });
}

/**
 * Python's code facts (tree-sitter-code.ts): suppression comments
 * (`# type: ignore`, `# noqa`, `# pyright: ignore`, `# mypy: ignore-errors`,
 * `# pylint: disable=`), `typing.cast` calls, functions (`Class.method`), and
 * guards: an `if` whose branch ends in `raise` (an `else: raise` guards the
 * negated condition), `assert` statements, a `case` that raises, a `for`
 * over `filter(…)` or a filtering comprehension that raises, and a
 * function's fall-through `raise`; `except` clauses by what they
 * do with the error, runner checks, the public API
 * ({@link pythonModuleExports}), and pydantic/marshmallow schemas
 * (python-schemas.ts).
 */
const PYTHON_CODE: CodeSyntax = {
  imports: moduleImports,
  comments: [
    { kind: "type-ignore", pattern: /#\s*type:\s*ignore\b/ },
    { kind: "noqa", pattern: /#\s*noqa\b/i },
    { kind: "pyright-ignore", pattern: /#\s*pyright:\s*ignore\b/ },
    { kind: "mypy-ignore-errors", pattern: /#\s*mypy:\s*ignore-errors\b/ },
    { kind: "pylint-disable", pattern: /#\s*pylint:\s*disable(?:-next)?\s*=/ },
  ],
  suppressions: {
    call: (node, context) => {
      const callee = node.childForFieldName("function")?.text.replace(/\s+/g, "");
      const isCast = callee === "typing.cast" || (callee === "cast" && IMPORTS_TYPING_CAST.test(context.content));
      return isCast ? { kind: "typing-cast" } : null;
    },
  },
  functions: {
    function_definition: (node) => ({ name: node.childForFieldName("name")?.text ?? "<anonymous>", body: node.childForFieldName("body") }),
  },
  containers: { class_definition: (node) => node.childForFieldName("name")?.text ?? null },
  calls: {
    call: (node) => {
      const callee = node.childForFieldName("function");
      if (callee?.type === "identifier") return callee.text;
      if (callee?.type === "attribute") return callee.childForFieldName("attribute")?.text ?? null;
      return null;
    },
  },
  guards: {
    if_statement: (node) => {
      const condition = node.childForFieldName("condition");
      if (!condition) return [];
      const guards: GuardDraft[] = [];
      const raised = raisedBy(node.childForFieldName("consequence"));
      if (raised) guards.push({ condition, action: raised });
      const alternatives = node.childrenForFieldName("alternative").filter((child): child is Node => child !== null);
      const onlyElse = alternatives.length === 1 && alternatives[0]?.type === "else_clause" ? alternatives[0] : null;
      const raisedElse = onlyElse ? raisedBy(onlyElse.childForFieldName("body")) : null;
      if (raisedElse) guards.push({ condition, action: raisedElse, isNegated: true });
      return guards;
    },
    // `elif c: raise …`: a guard on `c` (the branches before it took their own values), as the `if` it often was.
    elif_clause: (node) => {
      const condition = node.childForFieldName("condition");
      const raised = raisedBy(node.childForFieldName("consequence"));
      return condition && raised ? [{ condition, action: raised }] : [];
    },
    assert_statement: (node) => {
      const condition = namedChildren(node)[0];
      return condition ? [{ condition, action: "assert" }] : [];
    },
    for_statement: pythonLoopGuard,
    case_clause: pythonCaseGuard,
    except_clause: pythonHandlerGuard,
    call: pythonHelperGuard,
    // `raise A(..) if c else B(..)`: two guards, `c` raising A and `not c` raising B, as the `if`/`else` it rewrites.
    raise_statement: (node) => {
      const raised = node.namedChild(0);
      if (raised?.type !== "conditional_expression") return [];
      const [whenTrue, condition, whenFalse] = namedChildren(raised);
      if (!whenTrue || !condition || !whenFalse) return [];
      return [
        { condition, action: whenTrue },
        { condition, action: whenFalse, isNegated: true },
      ];
    },
  },
  fallthrough: (body) => {
    const raised = raisedBy(body);
    return raised === "raise" ? null : raised; // a bare `raise` re-raises: nothing of its own
  },
  identifierTypes: new Set(["identifier"]),
  flow: PYTHON_FLOW,
  catches: {
    except_clause: (node) => {
      const body = namedChildren(node).find((child) => child.type === "block") ?? null;
      const caught = namedChildren(node).find((child) => child.type === "as_pattern");
      const alias = caught?.childForFieldName("alias");
      const guarded = node.parent?.type === "try_statement" ? node.parent.childForFieldName("body") : null;
      return { body, errorName: alias ? (alias.descendantsOfType("identifier")[0]?.text ?? null) : null, caught: caughtBy(node), guarded };
    },
  },
  literalBranches: PYTHON_BRANCHES,
  state: PYTHON_STATE,
  escapes: PYTHON_ESCAPES,
  entryPoints: { if_statement: isMainGuard },
  isScript: (content) => /^if\s+__name__\s*==\s*(["'])__main__\1\s*:/m.test(content) || content.startsWith("#!"),
  runnerChecks: { comparison_operator: isPythonRunnerCheck, call: isPythonRunnerCheck, subscript: isPythonRunnerCheck },
  exports: {
    function_definition: pythonExport,
    class_definition: pythonExport,
    decorated_definition: pythonExport,
    if_statement: (node) => (isMainGuard(node) ? [] : conditionalExports(node)),
    try_statement: conditionalExports,
  },
  moduleExports: pythonModuleExports,
  schemas: { class_definition: pythonSchemas },
};

/**
 * The Python language module: `.py`, parsed with tree-sitter-python (see the
 * module comment). A file's `tests` are what the file alone resolves:
 * module-level test functions, and the test methods of its classes with
 * bases defined in the same file (python-classes.ts); bases in other files
 * are resolved across files by analysis/inheritance.ts. The collection
 * `rules` are the project's pytest `python_files`/`python_classes`/
 * `python_functions` when its config sets them; they are kept in
 * `facts.collection` for the resolution. Never throws for bad content.
 */
export const python = defineLanguage({
  id: "python",
  extensions: [".py"],
  queries: ["tests", "assertions"],
  isTestPath: isPythonTestPath,
  isTestFile: ({ path, rules }) => isPythonTestPath(path) || rules?.testModule === true,
  drafts: ({ path, content, rules }, grammar, root) => extractPythonDrafts(path, grammar, root, content, rules),
  code: PYTHON_CODE,
  shadows: PYTHON_SHADOWS,
  finish: (facts, { path, rules }) => {
    if (rules) facts.collection = rules;
    if (facts.classScope) facts.tests = resolvePythonTests(new Map([[path, facts]])).get(path) ?? facts.tests;
    return facts;
  },
});

/**
 * Python `try` statements for the exception checks written by hand
 * (parsers/tree-sitter-try.ts): `except (A, B) as e` names A and B, a bare
 * `except:` none; the `else:` clause runs when nothing was raised.
 * `self.fail()` and `assert False` raise AssertionError, which `except
 * Exception` catches; `pytest.fail()` raises pytest's Failed, a
 * BaseException, which only a bare `except:` or `except BaseException`
 * catches.
 */
const PYTHON_TRY: TrySyntax = {
  tryTypes: new Set(["try_statement"]),
  parts(node) {
    const clauses = namedChildren(node);
    const handlers = clauses
      .filter((child) => child.type === "except_clause" || child.type === "except_group_clause")
      .map((clause) => {
        const parts = namedChildren(clause);
        const block = parts.find((part) => part.type === "block");
        const first = parts[0] && parts[0].type !== "block" ? parts[0] : undefined;
        const typed = first?.type === "as_pattern" ? (first.namedChild(0) ?? undefined) : first;
        const types = !typed ? [] : typed.type === "tuple" || typed.type === "parenthesized_expression" ? namedChildren(typed).map((type) => type.text) : [typed.text];
        return { node: clause, types, statements: statementNodes(block) };
      });
    const orElse = statementNodes(clauses.find((child) => child.type === "else_clause")?.childForFieldName("body"));
    return { body: statementNodes(node.childForFieldName("body")), handlers, orElse };
  },
  /** `raise E(…)` / `raise E` (a capitalised name: `raise e` re-raises what was caught). */
  raisedType: (statement) => (statement.type === "raise_statement" ? createdType(namedChildren(statement)[0]) : null),
  catchesFailure: (types, fail) =>
    types.length === 0 ||
    types.some((type) => /^(?:builtins\.)?BaseException$/.test(type)) ||
    (!/pytest\.fail$/.test(fail.matcher) && types.some((type) => /^(?:builtins\.)?(?:Exception|AssertionError)$/.test(type))),
  /** Every assertion of the framework fails as its explicit failure does (the same error type). */
  catchesAssertion(types, fact) {
    return this.catchesFailure(types, fact);
  },
};
