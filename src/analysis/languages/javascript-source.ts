/**
 * JavaScript and TypeScript code facts (facts.ts `CodeFacts`): imports,
 * exports, guards, functions, catch blocks, suppressions, validation
 * schemas, literal branches and test-runner checks. One walk over the Babel
 * AST that the test extractor already parsed; the rules in ../rules/ compare
 * these facts between the two sides of a change.
 *
 * The helpers that normalise expressions (literals JSON-quoted, whitespace
 * dropped around punctuation) are shared with the assertion details of
 * javascript.ts, so both sides of a comparison normalise the same way.
 */

import type * as t from "@babel/types";
import type { CatchBehaviour, CatchFact, CodeFacts, ExportFact, FunctionFact, GuardFact, ImportFact, EscapeFact, LiteralBranchFact, RunnerCheckFact, SchemaFact, SuppressionFact } from "../facts.js";
import { hashText } from "../facts.js";
import { isDefaultReference } from "../parsers/default-reference.js";
import { LITERAL_TOKEN } from "../dependency-tokens.js";
import { decimalOf } from "../checks/normalise.js";

/** AST keys a walk never descends into: positions, comments and type-only syntax (javascript.ts walks with it too). */
export const WALK_SKIP_KEYS: ReadonlySet<string> = new Set([
  "loc",
  "start",
  "end",
  "range",
  "extra",
  "leadingComments",
  "trailingComments",
  "innerComments",
  "typeAnnotation",
  "returnType",
  "typeParameters",
  "typeArguments",
  "comments",
  "tokens",
  "errors",
]);

/** At most this many string literals are recorded per product file (CodeFacts.literals). */
const MAX_LITERALS = 2000;

/** Environment variables only a test runner sets. */
const RUNNER_ENV_VARS: ReadonlySet<string> = new Set([
  "VITEST",
  "VITEST_WORKER_ID",
  "VITEST_POOL_ID",
  "VITEST_MODE",
  "JEST_WORKER_ID",
  "NODE_TEST_CONTEXT",
  "MOCHA_WORKER_ID",
  "PLAYWRIGHT_TEST_BASE_URL",
  "CYPRESS",
]);

/** Environment variables whose value "test" means a test run. */
const MODE_ENV_VARS: ReadonlySet<string> = new Set(["NODE_ENV", "BABEL_ENV", "MODE", "npm_lifecycle_event", "APP_ENV"]);

/** Globals that exist only inside a test runner (`typeof jest !== "undefined"`). */
const RUNNER_GLOBALS: ReadonlySet<string> = new Set(["jest", "vi", "describe", "it", "expect", "mocha", "jasmine", "__vitest_worker__", "__vitest_environment__"]);

/** Schema libraries by import source. */
const SCHEMA_MODULES: ReadonlySet<string> = new Set(["zod", "zod/v4", "zod/mini", "yup", "joi", "@hapi/joi", "superstruct", "valibot"]);

/** Names that are schema builders even without an import (a global or a re-export). */
const DEFAULT_SCHEMA_ROOTS: readonly string[] = ["z", "yup", "Joi", "joi"];

/** Calls that pass an error on when made in a catch block or a guard. */
const ERROR_RETURN_CALLEE = /^(err|Err|error|fail|failure|reject|left|Left|badRequest|unauthorized|forbidden|notFound|invalid|createError|httpError)$/;

/** Statement-level calls that are guards themselves: `assert(x)`, `invariant(x, "…")`, `assert.ok(x)`. */
const GUARD_CALLEES = /^(assert|invariant|ok|strictEqual|equal|deepStrictEqual|notStrictEqual)$/;

/** Receivers of logging calls (`console.log`, `logger.warn`, `log.error`). */
const LOG_RECEIVER = /^(console|logger|log|debug|winston|pino|Sentry|captureException)$/i;

/**
 * The condition a child of `node` under `key` runs under (EscapeFact.conditions):
 * an `if`'s or `?:`'s test for its consequent, a `case`'s test for its
 * statements, the left operand of `&&` for its right one; null otherwise
 * (an else branch runs under no condition that is written).
 */
function branchCondition(node: t.Node, key: string): t.Node | null {
  if ((node.type === "IfStatement" || node.type === "ConditionalExpression") && key === "consequent") return node.test;
  if (node.type === "SwitchCase" && key === "consequent") return node.test ?? null;
  if (node.type === "LogicalExpression" && node.operator === "&&" && key === "right") return node.left;
  return null;
}

function isNode(value: unknown): value is t.Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

function isFunctionLike(node: t.Node): node is t.Function {
  return (
    node.type === "FunctionDeclaration" ||
    node.type === "FunctionExpression" ||
    node.type === "ArrowFunctionExpression" ||
    node.type === "ObjectMethod" ||
    node.type === "ClassMethod" ||
    node.type === "ClassPrivateMethod"
  );
}

function keyName(node: t.Node, computed: boolean): string | null {
  if (!computed && node.type === "Identifier") return node.name;
  if (node.type === "StringLiteral") return node.value;
  if (node.type === "NumericLiteral") return String(node.value);
  if (node.type === "PrivateName") return `#${node.id.name}`;
  return null;
}

/** No names: the default of {@link isConstantExpression}'s constants. */
const NO_NAMES: ReadonlySet<string> = new Set();

function unwrap(node: t.Node): t.Node {
  let current = node;
  while (
    current.type === "TSAsExpression" ||
    current.type === "TSSatisfiesExpression" ||
    current.type === "TSNonNullExpression" ||
    current.type === "ParenthesizedExpression" ||
    current.type === "TSTypeAssertion"
  ) {
    current = current.expression;
  }
  return current;
}

/**
 * A literal's normalised value: strings (and templates without
 * substitutions) JSON-quoted, numbers in JavaScript's shortest form,
 * `true`/`false`/`null`/`undefined`; null for anything else.
 */
export function literalValue(node: t.Node | null | undefined): string | null {
  if (!node) return null;
  const inner = unwrap(node);
  switch (inner.type) {
    case "StringLiteral":
      return JSON.stringify(inner.value);
    case "TemplateLiteral":
      return inner.expressions.length === 0 ? JSON.stringify(inner.quasis[0]?.value.cooked ?? "") : null;
    case "NumericLiteral":
      return String(inner.value);
    case "BigIntLiteral":
      return `${decimalOf(inner.value)}n`; // Babel keeps a BigInt's digits as written (`0x10`, `1_000`)
    case "CallExpression": {
      // `BigInt(1)` is the literal `1n`.
      const [argument] = inner.arguments;
      if (inner.callee.type !== "Identifier" || inner.callee.name !== "BigInt" || inner.arguments.length !== 1) return null;
      if (argument?.type === "NumericLiteral" && Number.isSafeInteger(argument.value)) return `${argument.value}n`;
      return null;
    }
    case "BooleanLiteral":
      return String(inner.value);
    case "NullLiteral":
      return "null";
    case "Identifier":
      return inner.name === "undefined" ? "undefined" : null;
    case "UnaryExpression":
      if (inner.operator === "-" && inner.argument.type === "NumericLiteral") return String(-inner.argument.value);
      if (inner.operator === "void") return "undefined";
      return null;
    default:
      return null;
  }
}

/**
 * True when the expression is built from literals only (`1`, `"x"`, `[1, {a: true}]`, `-2`, `!0`): it reads nothing.
 * `constants` are names that count as literals: module-level `const`s bound to such an expression (`const dummy =
 * { hasSubscribers: false }` makes `[dummy, dummy]` one).
 */
export function isConstantExpression(node: t.Node | null | undefined, depth = 0, constants: ReadonlySet<string> = NO_NAMES): boolean {
  if (!node || depth > 20) return false;
  if (literalValue(node) !== null) return true;
  const inner = unwrap(node);
  switch (inner.type) {
    case "Identifier":
      return constants.has(inner.name);
    case "ArrayExpression":
      return inner.elements.every((element) => element !== null && element.type !== "SpreadElement" && isConstantExpression(element, depth + 1, constants));
    case "ObjectExpression":
      return inner.properties.every((property) => property.type === "ObjectProperty" && !property.computed && isConstantExpression(property.value, depth + 1, constants));
    case "UnaryExpression":
      return (inner.operator === "!" || inner.operator === "-" || inner.operator === "+") && isConstantExpression(inner.argument, depth + 1, constants);
    case "RegExpLiteral":
      return true;
    default:
      return false;
  }
}

/**
 * Source text of a node, normalised so formatting does not matter: a literal
 * as {@link literalValue}, otherwise the source with whitespace removed around
 * punctuation and collapsed elsewhere, and trailing commas dropped.
 */
export function normalizedSource(content: string, node: t.Node, maxChars = 200): string {
  const literal = literalValue(node);
  if (literal !== null) return literal;
  if (node.start == null || node.end == null) return node.type;
  const text = withoutComments(content, node)
    .replace(/\s+/g, " ")
    .replace(/ ?([()[\]{},;:.=<>!+\-*/?|&]) ?/g, "$1")
    .replace(/,([)\]}])/g, "$1")
    .replace(/'((?:[^'\\"]|\\.)*)'/g, '"$1"');
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/**
 * The source of `node` with the comments inside it cut out (the parse
 * keeps comments apart, unattached): a block's text compared as a check's
 * subject must not hold `// Should be able to …`, which would swallow the
 * statement after it once whitespace goes. Strings and templates are
 * skipped; a `//` right after a backslash ends a regular expression
 * (`/a\//`) and is kept.
 */
function withoutComments(content: string, node: t.Node): string {
  const text = content.slice(node.start ?? 0, node.end ?? 0);
  if (!text.includes("//") && !text.includes("/*")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === '"' || char === "'" || char === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== char) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
      continue;
    }
    if (char === "/" && text[i - 1] !== "\\" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      const close = text[i + 1] === "/" ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : text[i + 1] === "/" ? close - 1 : close + 1;
      out += " ";
      continue;
    }
    out += char;
  }
  return out;
}

/** sha1 (12 hex) of a subtree's source with whitespace collapsed (cheap enough for every export of a large module). */
function hashSource(content: string, node: t.Node | null | undefined): string {
  if (!node || node.start == null || node.end == null) return "";
  return hashText(content.slice(node.start, node.end).replace(/\s+/g, " ")).slice(0, 12);
}

/**
 * True for a throw of collected messages: `new Error(messages.join("\\n"))`,
 * `new AggregateError(errors)` (GuardFact.collected).
 */
function isCollectedThrow(action: t.Node): boolean {
  if (action.type !== "NewExpression") return false;
  if (calleeName(action.callee) === "AggregateError") return true;
  const argument = action.arguments[0];
  return (
    argument?.type === "CallExpression" &&
    argument.callee.type === "MemberExpression" &&
    argument.callee.object.type === "Identifier" &&
    keyName(argument.callee.property, argument.callee.computed) === "join"
  );
}

/** The string literals below a node, template literals with their interpolations as U+FFFC, at most 200 of them. */
function stringLiteralsIn(node: t.Node): string[] {
  const found: string[] = [];
  walk(node, (current) => {
    if (found.length >= 200) return false;
    if (current.type === "StringLiteral" && current.value.trim().length > 0) found.push(current.value);
    if (current.type === "TemplateLiteral") found.push(current.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join("\uFFFC"));
  });
  return found;
}

/** Visits every node below `node` (not into nested functions when `isShallow`), calling `visit` with its parent; a visit returning false skips the node's children. */
export function walk(node: t.Node, visit: (node: t.Node, parent: t.Node | null) => boolean | void, isShallow = false): void {
  const stack: [t.Node, t.Node | null][] = [[node, null]];
  while (stack.length > 0) {
    const [current, parent] = stack.pop() as [t.Node, t.Node | null];
    if (current !== node && isShallow && isFunctionLike(current)) continue;
    if (visit(current, parent) === false) continue;
    const record = current as unknown as Record<string, unknown>;
    const keys = Object.keys(record);
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k] as string;
      if (WALK_SKIP_KEYS.has(key)) continue;
      const value = record[key];
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (isNode(value[i])) stack.push([value[i] as t.Node, current]);
      } else if (isNode(value)) {
        stack.push([value, current]);
      }
    }
  }
}

/** Identifiers read by an expression (not property names), sorted and unique. */
function namesIn(node: t.Node): string[] {
  const names = new Set<string>();
  walk(node, (current, parent) => {
    if (current.type !== "Identifier") return;
    if ((parent?.type === "MemberExpression" || parent?.type === "OptionalMemberExpression") && parent.property === current && !parent.computed) return;
    if (parent?.type === "ObjectProperty" && parent.key === current && !parent.computed) return;
    names.add(current.name);
  });
  return [...names].sort();
}

/** The callee's last name: `a.b.c()` -> "c", `f()` -> "f"; null for computed or call-on-call callees. */
function calleeName(node: t.Node): string | null {
  const callee = unwrap(node);
  if (callee.type === "Identifier") return callee.name;
  if ((callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression") && !callee.computed) {
    if (callee.property.type === "Identifier") return callee.property.name;
    if (callee.property.type === "PrivateName") return `#${callee.property.id.name}`; // this.#check()
  }
  return null;
}

/** The root identifier of a member/call chain (`z.string().min(1)` -> "z"). */
function chainRoot(node: t.Node): string | null {
  let current: t.Node = node;
  for (let depth = 0; depth < 60; depth++) {
    if (current.type === "CallExpression" || current.type === "OptionalCallExpression") current = current.callee;
    else if (current.type === "MemberExpression" || current.type === "OptionalMemberExpression") current = current.object;
    else return current.type === "Identifier" ? current.name : null;
  }
  return null;
}

/** Method and property names of a chain, root-first, without the root (`z.string().min(1)` -> ["string", "min"]). */
function chainNames(node: t.Node): string[] {
  const names: string[] = [];
  let current: t.Node = node;
  for (let depth = 0; depth < 60; depth++) {
    if (current.type === "CallExpression" || current.type === "OptionalCallExpression") current = current.callee;
    else if (current.type === "MemberExpression" || current.type === "OptionalMemberExpression") {
      const name = keyName(current.property, current.computed);
      if (name !== null) names.unshift(name);
      current = current.object;
    } else break;
  }
  return names;
}

/** Schema combinators whose argument is itself a schema. */
const SCHEMA_WRAPPERS: ReadonlySet<string> = new Set([
  "optional",
  "nullable",
  "nullish",
  "array",
  "pipe",
  "union",
  "intersection",
  "lazy",
  "readonly",
  "_default",
  "default",
  "prefault",
  "catch",
  "record",
  "tuple",
  "and",
  "or",
  "extend",
  "merge",
  "concat",
  "of",
]);

/**
 * A combinator argument whose constraints live elsewhere: a schema by name
 * (`positiveInt`, `schemas.Item`) or one a helper function builds
 * (`numberOption({ max: 10 })`: a call of a bare function, where the
 * library's own builders are member calls such as `z.number()`).
 */
function isSchemaBuiltElsewhere(arg: t.Node): boolean {
  if (arg.type === "Identifier" || arg.type === "MemberExpression") return true;
  return (arg.type === "CallExpression" || arg.type === "OptionalCallExpression") && arg.callee.type === "Identifier";
}

/** True when a call of the chain passes a schema built elsewhere (`z.optional(positiveInt)`, `z.array(Item)`, `z.optional(numberOption({ max }))`). */
function wrapsNamedSchema(node: t.Node): boolean {
  let current: t.Node = node;
  for (let depth = 0; depth < 60; depth++) {
    if (current.type === "CallExpression" || current.type === "OptionalCallExpression") {
      const name = calleeName(current.callee);
      if (name !== null && SCHEMA_WRAPPERS.has(name) && current.arguments.some(isSchemaBuiltElsewhere)) return true;
      current = current.callee;
    } else if (current.type === "MemberExpression" || current.type === "OptionalMemberExpression") {
      current = current.object;
    } else {
      return false;
    }
  }
  return false;
}

/** True when `expression` is a value that carries an error: `err(x)`, `new HttpError()`, `Promise.reject(e)`, `{ error }`, `{ ok: false }`. */
function isErrorValue(expression: t.Node): boolean {
  const node = unwrap(expression.type === "AwaitExpression" ? expression.argument : expression);
  if (node.type === "NewExpression") {
    const name = calleeName(node.callee);
    return name !== null && /Error|Exception|Failure|Rejection/.test(name);
  }
  if (node.type === "CallExpression") {
    const name = calleeName(node.callee);
    if (name === null) return false;
    if (ERROR_RETURN_CALLEE.test(name) || /Error$/.test(name)) return true;
    if (name === "status" || name === "sendStatus") {
      const code = node.arguments[0];
      return code?.type === "NumericLiteral" && code.value >= 400;
    }
    if (name === "json" || name === "send") {
      // res.status(400).json({...}) / Response.json(body, { status: 400 })
      const receiver = node.callee.type === "MemberExpression" ? node.callee.object : null;
      if (receiver && isErrorValue(receiver)) return true;
      return node.arguments.some((arg) => arg.type === "ObjectExpression" && hasErrorStatus(arg));
    }
    return false;
  }
  if (node.type === "ObjectExpression") {
    return node.properties.some((property) => {
      if (property.type !== "ObjectProperty") return false;
      const key = keyName(property.key, property.computed);
      if (key === "error" || key === "errors") return !(property.value.type === "NullLiteral" || (property.value.type === "Identifier" && property.value.name === "undefined"));
      if (key === "ok" || key === "success" || key === "valid") return property.value.type === "BooleanLiteral" && !property.value.value;
      return false;
    });
  }
  return false;
}

function hasErrorStatus(options: t.ObjectExpression): boolean {
  return options.properties.some(
    (property) => property.type === "ObjectProperty" && keyName(property.key, property.computed) === "status" && property.value.type === "NumericLiteral" && property.value.value >= 400,
  );
}

/** The throw or error return that ends a guard's branch, or null: `throw x`, `return err(x)`, `{ …; throw x }`. */
/** True when a branch holds only assertion calls (`console.assert(…)`, `assert(…)`, `assert.ok(…)`, `invariant(…)`), one at least. */
function onlyAssertions(branch: t.Statement): boolean {
  const statements = branch.type === "BlockStatement" ? branch.body : [branch];
  return (
    statements.length > 0 &&
    statements.every((statement) => {
      if (statement.type !== "ExpressionStatement" || statement.expression.type !== "CallExpression") return false;
      const callee = statement.expression.callee;
      const name = calleeName(callee);
      const root = callee.type === "MemberExpression" && callee.object.type === "Identifier" ? callee.object.name : null;
      return name === "assert" || name === "invariant" || root === "assert" || (root === "console" && name === "assert");
    })
  );
}

function guardAction(branch: t.Statement | null | undefined): t.Node | null {
  if (!branch) return null;
  if (branch.type === "ThrowStatement") return branch.argument;
  if (branch.type === "ReturnStatement") return branch.argument && isErrorValue(branch.argument) ? branch.argument : null;
  if (branch.type === "ExpressionStatement" && branch.expression.type === "CallExpression") {
    const name = calleeName(branch.expression.callee);
    if (name !== null && (name === "reject" || name === "next" || name === "fail" || /^(callback|cb|done)$/.test(name))) {
      return branch.expression.arguments.length > 0 ? branch.expression : null;
    }
    return null;
  }
  if (branch.type === "BlockStatement") {
    const last = branch.body[branch.body.length - 1];
    return last ? guardAction(last) : null;
  }
  return null;
}

/**
 * The predicate of the `.filter(…)` a chain applies (`xs.filter((x) => bad(x))` -> `bad(x)`,
 * `.filter(isBad)` -> `isBad`), through the calls chained after it (`.map(…)`), or null.
 */
function filterPredicate(chain: t.Node | null | undefined): t.Node | null {
  let current = chain ? unwrap(chain) : null;
  while (current && (current.type === "CallExpression" || current.type === "OptionalCallExpression")) {
    const callee = unwrap(current.callee);
    if (callee.type !== "MemberExpression" && callee.type !== "OptionalMemberExpression") return null;
    if (calleeName(callee) === "filter") return predicateOf(current.arguments[0]);
    current = unwrap(callee.object);
  }
  return null;
}

/** What a predicate argument tests: an arrow's or function's returned expression, or the function named. */
function predicateOf(argument: t.Node | null | undefined): t.Node | null {
  if (!argument) return null;
  if (argument.type === "ArrowFunctionExpression" || argument.type === "FunctionExpression") {
    if (argument.body.type !== "BlockStatement") return argument.body;
    const [only] = argument.body.body;
    return argument.body.body.length === 1 && only?.type === "ReturnStatement" ? (only.argument ?? null) : null;
  }
  return argument.type === "Identifier" || argument.type === "MemberExpression" ? argument : null;
}

/** The throw or error return a loop body or callback consists of, after declarations at most (`{ throw new Error(…) }`), or null. */
function onlyExit(body: t.Node): t.Node | null {
  const statements = body.type === "BlockStatement" ? body.body : [body as t.Statement];
  const last = statements[statements.length - 1];
  if (!last || !statements.slice(0, -1).every((statement) => statement.type === "VariableDeclaration")) return null;
  return guardAction(last);
}

/** True for a condition that is always false, so its guard never fires: `false`, `0`, `false && x`. */
function isNeverTrue(condition: t.Node): boolean {
  const node = unwrap(condition);
  if (node.type === "BooleanLiteral") return !node.value;
  if (node.type === "NumericLiteral") return node.value === 0;
  if (node.type === "NullLiteral") return true;
  if (node.type === "LogicalExpression" && node.operator === "&&") return isNeverTrue(node.left) || isNeverTrue(node.right);
  return false;
}

/** `process.on`-style methods that install a listener. */
const PROCESS_LISTENERS: ReadonlySet<string> = new Set(["on", "once", "addListener", "prependListener", "prependOnceListener"]);

/** Process events whose listener runs as the process ends or on an uncaught error (Node docs, "Process events"). */
const EXIT_EVENTS: ReadonlySet<string> = new Set(['"exit"', '"beforeExit"', '"uncaughtException"', '"unhandledRejection"']);

/** A condition that holds when the module is the program (`require.main === module`, `import.meta.main`). */
const ENTRY_CONDITION = /require\.main\s*===?\s*module|module\s*===?\s*require\.main|import\.meta\.main/;

/**
 * What an empty handler does when the try block ends in a return and the
 * enclosing block goes on after the try (`try { return BigInt(s) } catch {}`
 * then a fallback): "handles" (the fallback after the try handles it),
 * "returns_constant" when all that follows is `return <constant>`,
 * "swallows" for a bare `return;`; null when the try is no such
 * fall-through. The tree-sitter languages share the rule
 * (parsers/tree-sitter-code.ts fallThroughBehaviour).
 */
function fallThroughBehaviour(node: t.TryStatement, parent: t.Node | null | undefined): CatchBehaviour | null {
  if (!parent || (parent.type !== "BlockStatement" && parent.type !== "Program")) return null;
  const last = node.block.body[node.block.body.length - 1];
  if (last?.type !== "ReturnStatement") return null;
  // A try block that throws itself (a guard wrapped in a new catch) has its own error discarded by the handler: no fall-through.
  let throws = false;
  walk(
    node.block,
    (inner) => {
      if (inner.type === "ThrowStatement") throws = true;
    },
    true,
  );
  if (throws) return null;
  const siblings = parent.body as t.Statement[];
  const following = siblings.slice(siblings.indexOf(node) + 1).filter((statement) => statement.type !== "EmptyStatement");
  if (following.length === 0) return null;
  const only = following[0] as t.Statement;
  if (following.length === 1 && only.type === "ReturnStatement") {
    if (only.argument === null || only.argument === undefined) return "swallows";
    if (isConstantExpression(only.argument) || isDefaultReference(referenceText(only.argument))) return "returns_constant";
  }
  return "handles";
}

/**
 * The try statements of a loop body that are attempts: a try whose block
 * leaves the loop on success (`return`, `break`), so a handler that does
 * nothing moves on to the next candidate or retry instead of discarding the
 * failure (`for (const dir of dirs) { try { return open(dir); } catch {} }`).
 */
function attemptTries(loop: t.Loop): t.TryStatement[] {
  const statements = loop.body.type === "BlockStatement" ? loop.body.body : [loop.body];
  return statements.filter((statement): statement is t.TryStatement => {
    if (statement.type !== "TryStatement") return false;
    let leaves = false;
    walk(
      statement.block,
      (node) => {
        if (node.type === "ReturnStatement" || (node.type === "BreakStatement" && node.label === null)) leaves = true;
        return !leaves && !isLoopNode(node);
      },
      true,
    );
    return leaves;
  });
}

/**
 * The try statements directly in `block` (not in a nested function), when
 * `block` is an error path that still fails (a catch clause that rethrows)
 * or a `finally` (which lets the outcome of its try through): a handler
 * there that swallows is best-effort cleanup (`try { unlinkSync(temp) }
 * catch {}`), not a failure discarded, since the error the caller sees
 * comes from the enclosing try.
 */
function errorPathTries(block: t.BlockStatement): t.TryStatement[] {
  const tries: t.TryStatement[] = [];
  walk(
    block,
    (node) => {
      if (node.type === "TryStatement") tries.push(node);
      return node === block || node.type !== "TryStatement";
    },
    true,
  );
  return tries;
}

function isLoopNode(node: t.Node): node is t.Loop {
  return node.type === "ForStatement" || node.type === "ForOfStatement" || node.type === "ForInStatement" || node.type === "WhileStatement" || node.type === "DoWhileStatement";
}

/**
 * The text of a reference to a named value, for {@link isDefaultReference}:
 * `DEFAULTS`, `Config.DEFAULTS`, `{ ...DEFAULTS }`, `structuredClone(DEFAULTS)`;
 * "" for any other expression.
 */
function referenceText(node: t.Node): string {
  if (node.type === "Identifier") return node.name;
  if (node.type === "MemberExpression" && !node.computed && node.property.type === "Identifier") {
    const object = referenceText(node.object);
    return object === "" ? "" : `${object}.${node.property.name}`;
  }
  if (node.type === "ObjectExpression" && node.properties.length === 1 && node.properties[0]?.type === "SpreadElement") {
    const inner = referenceText(node.properties[0].argument);
    return inner === "" ? "" : `{...${inner}}`;
  }
  if (node.type === "CallExpression" && node.callee.type === "Identifier" && node.arguments.length === 1 && node.arguments[0]?.type === "Identifier")
    return `${node.callee.name}(${node.arguments[0].name})`;
  return "";
}

/**
 * What a catch body does with the error it caught. `constants` are the
 * module's `const`s bound to literals: a fallback built of them
 * (`.catch(() => [dummy, dummy])`) is a constant answer, as a literal is.
 */
function classifyCatch(body: t.BlockStatement | t.Expression, errorName: string | null, constants: ReadonlySet<string> = NO_NAMES): CatchBehaviour {
  if (body.type !== "BlockStatement") {
    // `.catch((e) => value)`
    if (isErrorValue(body)) return "returns_error";
    if (isConstantExpression(body, 0, constants)) return "returns_constant";
    if (body.type === "CallExpression" && isLogCall(body)) return "swallows";
    return "handles";
  }
  let hasThrow = false;
  let passesError = false;
  walk(
    body,
    (node) => {
      if (node.type === "ThrowStatement") hasThrow = true;
      if (node.type === "ReturnStatement" && node.argument && isErrorValue(node.argument)) passesError = true;
      if (node.type === "CallExpression" && errorName !== null) {
        const name = calleeName(node.callee);
        const passesCaught = node.arguments.some((arg) => arg.type === "Identifier" && arg.name === errorName);
        if (passesCaught && name !== null && !isLogCall(node)) passesError = true;
      }
    },
    true,
  );
  if (hasThrow) return "rethrows";
  if (passesError) return "returns_error";
  const statements = body.body.filter((statement) => !(statement.type === "ExpressionStatement" && statement.expression.type === "CallExpression" && isLogCall(statement.expression)));
  if (statements.length === 0) return "swallows";
  if (statements.length === 1) {
    const only = statements[0] as t.Statement;
    if (only.type === "ReturnStatement" && (only.argument === null || isConstantExpression(only.argument, 0, constants))) {
      return only.argument === null ? "swallows" : "returns_constant";
    }
    if (only.type === "ReturnStatement" && only.argument && isDefaultReference(referenceText(only.argument))) return "returns_constant";
  }
  return "handles";
}

function isLogCall(call: t.CallExpression): boolean {
  const callee = call.callee;
  if (callee.type === "MemberExpression") {
    const root = chainRoot(callee);
    return root !== null && LOG_RECEIVER.test(root);
  }
  return callee.type === "Identifier" && LOG_RECEIVER.test(callee.name);
}

/** The value of a `return <constant>` only body, or of an arrow's constant expression body. */
function constantReturnOf(fn: t.Function): string | undefined {
  const body = fn.body;
  if (body.type !== "BlockStatement") return isConstantExpression(body) ? constantText(body) : undefined;
  if (body.body.length !== 1) return undefined;
  const only = body.body[0] as t.Statement;
  if (only.type === "ReturnStatement" && only.argument && isConstantExpression(only.argument)) return constantText(only.argument);
  return undefined;
}

function constantText(node: t.Node): string {
  const literal = literalValue(node);
  if (literal !== null) return literal;
  return node.type === "ArrayExpression" ? "[array]" : node.type === "ObjectExpression" ? "[object]" : "[constant]";
}

/** Literals compared with `===`/`==` anywhere in a condition (`a === "x" && b == 3` -> ["\"x\"", "3"]). */
function comparedLiterals(condition: t.Node): string[] {
  const node = unwrap(condition);
  if (node.type === "LogicalExpression") return [...comparedLiterals(node.left), ...comparedLiterals(node.right)];
  if (node.type === "BinaryExpression" && (node.operator === "===" || node.operator === "==")) {
    const left = literalValue(node.left);
    const right = literalValue(node.right);
    if (left !== null && right === null) return [left];
    if (right !== null && left === null) return [right];
  }
  if (node.type === "CallExpression" && calleeName(node.callee) === "includes") {
    // ["a", "b"].includes(x)
    const callee = node.callee;
    if (callee.type === "MemberExpression" && callee.object.type === "ArrayExpression") {
      return callee.object.elements.map((element) => literalValue(element)).filter((value): value is string => value !== null);
    }
  }
  return [];
}

/** The literal a branch returns: `return "x"`, `{ return "x"; }`, or null. */
function returnedLiteral(branch: t.Statement | null | undefined): string | null {
  if (!branch) return null;
  if (branch.type === "ReturnStatement") return branch.argument ? literalValue(branch.argument) : null;
  if (branch.type === "BlockStatement" && branch.body.length === 1) return returnedLiteral(branch.body[0]);
  return null;
}

/** The expression a branch returns when it is one `return <expression>` (alone or in a block), else null. */
function returnedExpression(branch: t.Statement | null | undefined): t.Expression | null {
  if (!branch) return null;
  if (branch.type === "ReturnStatement") return branch.argument ?? null;
  if (branch.type === "BlockStatement" && branch.body.length === 1) return returnedExpression(branch.body[0]);
  return null;
}

/** The name a class member or object key is declared under: an identifier, a string key, `#x` for a private name; null when computed. */
function memberKeyName(key: t.Node, isComputed: boolean): string | null {
  if (key.type === "PrivateName") return `#${key.id.name}`;
  if (isComputed) return null;
  if (key.type === "Identifier") return key.name;
  return key.type === "StringLiteral" ? key.value : null;
}

/** Calls `add` with each member a function body assigns on `this` (`this.cache = …`, `this.#count = …`), not in nested non-arrow functions or classes (their `this` is another). */
function thisAssignments(body: t.Node, add: (name: string | null) => void): void {
  walk(body, (node) => {
    if (
      node !== body &&
      (node.type === "FunctionExpression" || node.type === "FunctionDeclaration" || node.type === "ObjectMethod" || node.type === "ClassExpression" || node.type === "ClassDeclaration")
    )
      return false;
    if (node.type === "AssignmentExpression" && node.left.type === "MemberExpression" && node.left.object.type === "ThisExpression") add(memberKeyName(node.left.property, node.left.computed));
  });
}

/**
 * The names a JS/TS product file declares outside function bodies (as
 * parsers/tree-sitter-subjects.ts declaredNames does for the other
 * languages), sorted and unique: classes and their members (methods,
 * accessors, properties and fields, `#private` ones as `#name`, and TS
 * constructor parameter properties, and the fields its methods assign on
 * `this`), functions, module-level bindings,
 * TS interfaces with their members, type aliases, enums with their members.
 * A member a change removes is then known to be gone (rules/dependencies.ts
 * findRemovedNames): a test reading `options._init` that the change turns
 * into `#init` went with it (sindresorhus/got d4ebbfe954).
 */
export function declaredJavaScriptNames(ast: t.File): string[] {
  const names = new Set<string>();
  const add = (name: string | null | undefined): void => {
    if (name) names.add(name);
  };
  const classBody = (body: t.ClassBody): void => {
    for (const member of body.body) {
      if (member.type === "StaticBlock" || member.type === "TSIndexSignature") continue;
      if (member.type === "ClassMethod" && member.kind === "constructor") {
        for (const param of member.params)
          if (param.type === "TSParameterProperty") add(param.parameter.type === "Identifier" ? param.parameter.name : param.parameter.left.type === "Identifier" ? param.parameter.left.name : null);
        continue;
      }
      add(memberKeyName(member.key, "computed" in member && member.computed === true));
    }
    // Fields a method assigns on `this` (`this.cache = new Map()` in the constructor) are members as declared ones are.
    for (const member of body.body) if (member.type === "ClassMethod" || member.type === "ClassPrivateMethod") thisAssignments(member.body, add);
  };
  const declaration = (node: t.Node | null | undefined): void => {
    if (!node) return;
    switch (node.type) {
      case "ExportNamedDeclaration":
      case "ExportDefaultDeclaration":
        declaration(node.declaration);
        return;
      case "ClassDeclaration":
      case "ClassExpression":
        add(node.id?.name);
        classBody(node.body);
        return;
      case "FunctionDeclaration":
      case "TSDeclareFunction":
        add(node.id?.name);
        return;
      case "VariableDeclaration":
        for (const declarator of node.declarations) {
          if (declarator.id.type !== "Identifier") continue;
          add(declarator.id.name);
          if (declarator.init?.type === "ClassExpression") classBody(declarator.init.body);
        }
        return;
      case "TSInterfaceDeclaration":
        add(node.id.name);
        for (const member of node.body.body) if (member.type === "TSPropertySignature" || member.type === "TSMethodSignature") add(memberKeyName(member.key, member.computed === true));
        return;
      case "TSTypeAliasDeclaration":
        add(node.id.name);
        return;
      case "TSEnumDeclaration":
        add(node.id.name);
        for (const member of node.members) add(member.id.type === "Identifier" ? member.id.name : member.id.type === "StringLiteral" ? member.id.value : null);
        return;
      default:
        return;
    }
  };
  for (const statement of ast.program.body) declaration(statement);
  return [...names].sort();
}

/**
 * Code facts of one parsed JS/TS file. `content` must be the text `ast` was
 * parsed from (for normalised source and comments). For a test file only
 * the module-level facts (imports, exports) are collected: the rules that
 * read guards, suppressions or schemas judge product code only, and the
 * full walk is the expensive part.
 */
export function extractJavaScriptCodeFacts(content: string, ast: t.File, isTestFile = false): CodeFacts {
  const walker = new CodeWalker(content, ast);
  return isTestFile ? walker.runModuleLevel() : walker.run();
}

/** One pass over a file collecting {@link CodeFacts}. */
class CodeWalker {
  private readonly content: string;
  private readonly ast: t.File;
  private readonly imports: ImportFact[] = [];
  private readonly exports: ExportFact[] = [];
  private readonly guards: GuardFact[] = [];
  /** Named functions by name path, for the literals of a collected throw (GuardFact.collected). */
  private readonly functionNodes = new Map<string, t.Node>();
  /** Try statements that are attempts of a loop (see {@link attemptTries}). */
  private readonly attempts = new Set<t.Node>();
  /** Try statements on an error path that still fails (see {@link errorPathTries}). */
  private readonly onErrorPath = new Set<t.Node>();
  private readonly functions: FunctionFact[] = [];
  private readonly catches: CatchFact[] = [];
  private readonly suppressions: SuppressionFact[] = [];
  private readonly schemas: SchemaFact[] = [];
  private readonly literalBranches: LiteralBranchFact[] = [];
  private readonly runnerChecks: RunnerCheckFact[] = [];
  private readonly escapes: EscapeFact[] = [];
  /** Source texts of the conditions the walk is under within its function, outermost first (EscapeFact.conditions). */
  private readonly conditions: string[] = [];
  /** Names declared at module level (`let calls = 0`), and the names each named function counts or toggles. */
  private readonly moduleNames = new Set<string>();
  /** Module-level `const`s bound to an expression of literals (`const dummy = { hasSubscribers: false }`): constants a handler may answer with. */
  private readonly moduleConstants = new Set<string>();
  private readonly updates = new Map<string, Set<string>>();
  /** How many exit-hook handlers and program entry points (`if (require.main === module)`) the walk is inside. */
  private hookDepth = 0;
  private entryDepth = 0;
  private readonly schemaRoots = new Set<string>(DEFAULT_SCHEMA_ROOTS);
  private readonly catchCounts = new Map<string, number>();

  constructor(content: string, ast: t.File) {
    this.content = content;
    this.ast = ast;
  }

  /** Imports (including top-level requires) and exports only: module-level statements. */
  runModuleLevel(): CodeFacts {
    for (const statement of this.ast.program.body) {
      this.collectModuleStatement(statement);
      // `const app = require("..")` (the full walk finds these wherever they are)
      if (statement.type === "VariableDeclaration") for (const declarator of statement.declarations) this.noteRequire(declarator);
    }
    return { imports: this.imports, exports: this.exports };
  }

  run(): CodeFacts {
    this.collectComments();
    for (const statement of this.ast.program.body) this.collectModuleStatement(statement);
    for (const statement of this.ast.program.body) {
      const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
      if (declaration?.type !== "VariableDeclaration") continue;
      for (const declarator of declaration.declarations) {
        if (declarator.id.type !== "Identifier") continue;
        this.moduleNames.add(declarator.id.name);
        if (declaration.kind === "const" && isConstantExpression(declarator.init, 0, this.moduleConstants)) this.moduleConstants.add(declarator.id.name);
      }
    }
    this.visit(this.ast.program, null, "", []);
    for (const fact of this.functions) {
      const own = fact.name.slice(fact.name.lastIndexOf(".") + 1);
      const state = [...(this.updates.get(fact.name) ?? [])].filter((name) => this.moduleNames.has(name) || name.startsWith(`${own}.`));
      if (state.length > 0) fact.stateUpdates = state.sort();
    }
    return {
      imports: this.imports,
      exports: this.exports,
      guards: this.guards,
      functions: this.functions,
      catches: this.catches,
      suppressions: this.suppressions,
      schemas: this.schemas,
      literalBranches: this.literalBranches,
      runnerChecks: this.runnerChecks.map((fact) => (this.assertOnlyConditions.has(fact.text) ? { ...fact, onlyAsserts: true as const } : fact)),
      escapes: this.escapes,
      declared: declaredJavaScriptNames(this.ast),
      ...(this.literals.size > 0 ? { literals: [...this.literals].sort() } : {}),
      ...(this.writes.size > 0 ? { writes: [...this.writes].sort() } : {}),
    };
  }

  private line(node: t.Node): number {
    return node.loc?.start.line ?? 0;
  }

  private hash(node: t.Node | null | undefined): string {
    return hashSource(this.content, node);
  }

  private source(node: t.Node): string {
    return normalizedSource(this.content, node);
  }

  private collectComments(): void {
    for (const comment of this.ast.comments ?? []) {
      const text = comment.value.trim().replace(/\s+/g, " ");
      const line = comment.loc?.start.line ?? 0;
      const match = /^(?:\*\s*)?@ts-(ignore|expect-error|nocheck)\b/.exec(text);
      if (match) this.suppressions.push({ kind: `ts-${match[1] as "ignore" | "expect-error" | "nocheck"}`, line, text: text.slice(0, 120) });
      else if (/^eslint-disable(?:-next-line|-line)?\b/.test(text)) this.suppressions.push({ kind: "eslint-disable", line, text: text.slice(0, 120) });
    }
  }

  // --- imports and exports (module level)

  private collectModuleStatement(statement: t.Statement): void {
    switch (statement.type) {
      case "ImportDeclaration":
        if (statement.importKind === "type") return;
        this.addImport(
          statement.source.value,
          statement.specifiers
            .filter((spec) => !(spec.type === "ImportSpecifier" && spec.importKind === "type"))
            .map((spec) => ({
              imported: spec.type === "ImportSpecifier" ? (spec.imported.type === "Identifier" ? spec.imported.name : spec.imported.value) : spec.type === "ImportDefaultSpecifier" ? "default" : null,
              local: spec.local.name,
            })),
        );
        return;
      case "ExportNamedDeclaration":
        if (statement.exportKind === "type") return;
        if (statement.source) this.addImport(statement.source.value, []);
        if (statement.declaration) this.addDeclarationExports(statement.declaration);
        for (const spec of statement.specifiers) {
          if (spec.type === "ExportSpecifier" && spec.exportKind === "type") continue;
          const exported = spec.exported.type === "Identifier" ? spec.exported.name : spec.exported.value;
          this.exports.push({ name: exported, line: this.line(spec) });
        }
        return;
      case "ExportDefaultDeclaration": {
        const declaration = statement.declaration;
        const body = isFunctionLike(declaration) ? declaration.body : declaration.type === "ClassDeclaration" ? declaration.body : declaration;
        this.exports.push({ name: "default", line: this.line(statement), hash: this.hash(body) });
        return;
      }
      case "ExportAllDeclaration":
        this.addImport(statement.source.value, []);
        return;
      case "ExpressionStatement":
        this.collectCommonJsExport(statement.expression);
        return;
      default:
        return;
    }
  }

  private addImport(source: string, names: ImportFact["names"]): void {
    if (SCHEMA_MODULES.has(source)) for (const name of names) this.schemaRoots.add(name.local);
    this.imports.push({ source, names });
  }

  private addDeclarationExports(declaration: t.Declaration): void {
    switch (declaration.type) {
      case "FunctionDeclaration":
      case "ClassDeclaration":
        if (declaration.id) this.exports.push({ name: declaration.id.name, line: this.line(declaration), hash: this.hash(declaration.body) });
        return;
      case "VariableDeclaration":
        for (const declarator of declaration.declarations) {
          if (declarator.id.type === "Identifier") this.exports.push({ name: declarator.id.name, line: this.line(declarator), hash: this.hash(declarator.init) });
        }
        return;
      case "TSEnumDeclaration":
        this.exports.push({ name: declaration.id.name, line: this.line(declaration), hash: this.hash(declaration) });
        return;
      default:
        return; // interfaces, type aliases, declare statements: types, not features
    }
  }

  /** `module.exports = { a, b }`, `module.exports.a = …`, `exports.a = …`. */
  private collectCommonJsExport(expression: t.Expression): void {
    if (expression.type !== "AssignmentExpression" || expression.left.type !== "MemberExpression") return;
    const left = expression.left;
    const names = chainNames(left);
    const root = chainRoot(left);
    const isModuleExports = root === "module" && names[0] === "exports";
    if (isModuleExports && names.length === 1) {
      const right = expression.right;
      if (right.type === "ObjectExpression") {
        for (const property of right.properties) {
          if (property.type === "SpreadElement") continue;
          const name = keyName(property.key, property.computed);
          if (name !== null) this.exports.push({ name, line: this.line(property), hash: this.hash(property.type === "ObjectProperty" ? property.value : property.body) });
        }
      } else {
        this.exports.push({ name: "default", line: this.line(expression), hash: this.hash(right) });
      }
    } else if ((isModuleExports && names.length === 2) || (root === "exports" && names.length === 1)) {
      const name = names[names.length - 1] as string;
      this.exports.push({ name, line: this.line(expression), hash: this.hash(expression.right) });
    }
  }

  // --- the walk

  /** `fn` is the enclosing function's name path; `keyPath` the variable/property path (for schemas). */
  private visit(node: t.Node, parent: t.Node | null, fn: string, keyPath: string[]): void {
    let isHook = false;
    let isEntry = false;
    let innerFn = fn;
    let innerPath = keyPath;
    let opened: FunctionFact | null = null;
    switch (node.type) {
      case "FunctionDeclaration":
      case "FunctionExpression":
      case "ArrowFunctionExpression":
      case "ObjectMethod":
      case "ClassMethod":
      case "ClassPrivateMethod": {
        const name = this.functionName(node, parent, fn);
        innerFn = name ?? fn; // an anonymous callback belongs to the function that passes it
        if (name !== null) {
          opened = this.openFunction(node, name);
          this.functionNodes.set(name, node);
        }
        break;
      }
      case "ClassDeclaration":
      case "ClassExpression": {
        const name = node.id?.name ?? (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier" ? parent.id.name : null);
        if (name !== null) this.classOf.set(node.body, name);
        break;
      }
      case "VariableDeclarator":
        if (node.id.type === "Identifier") innerPath = [...keyPath, node.id.name];
        this.noteRequire(node);
        break;
      case "ObjectProperty": {
        const name = keyName(node.key, node.computed);
        if (name !== null) innerPath = [...keyPath, name];
        break;
      }
      case "ClassProperty": {
        const name = keyName(node.key, node.computed);
        if (name !== null) innerPath = [...keyPath, name];
        break;
      }
      case "IfStatement":
        this.noteIf(node, fn);
        if (ENTRY_CONDITION.test(this.source(node.test))) isEntry = true;
        break;
      case "AssignmentExpression":
        this.noteExitAssignment(node, fn);
        this.noteUpdate(node, fn);
        if (node.left.type === "MemberExpression" && node.left.object.type !== "ThisExpression" && this.writes.size < MAX_LITERALS) this.writes.add(this.source(node.left).replace(/\s+/g, ""));
        break;
      case "UpdateExpression":
        this.noteUpdate(node, fn);
        break;
      case "ExpressionStatement":
        this.noteGuardCall(node.expression, fn);
        break;
      case "ConditionalExpression":
        this.noteConditional(node, fn);
        break;
      case "SwitchStatement":
        this.noteSwitch(node, fn);
        this.noteCaseGuards(node, fn);
        break;
      case "ObjectExpression":
        this.noteTable(node, fn);
        break;
      case "NewExpression":
        if (calleeName(node.callee) === "Map" && node.arguments[0]?.type === "ArrayExpression") this.noteMapTable(node.arguments[0], fn);
        this.noteCallee(node.callee);
        break;
      case "OptionalCallExpression":
        this.noteCallee(node.callee);
        break;
      case "ForOfStatement":
        this.noteLoopGuard(node.right, node.body, fn);
        for (const attempt of attemptTries(node)) this.attempts.add(attempt);
        break;
      case "ForStatement":
      case "ForInStatement":
      case "WhileStatement":
      case "DoWhileStatement":
        for (const attempt of attemptTries(node)) this.attempts.add(attempt);
        break;
      case "TryStatement":
        if (node.handler) {
          const behaviour = classifyCatch(node.handler.body, node.handler.param?.type === "Identifier" ? node.handler.param.name : null, this.moduleConstants);
          if (behaviour === "rethrows") for (const nested of errorPathTries(node.handler.body)) this.onErrorPath.add(nested);
          // An empty handler of an attempt lets its loop try the next candidate, and one on an error path that still
          // fails (best-effort cleanup) hides nothing: neither failure is discarded.
          const handled = behaviour === "swallows" && (this.attempts.has(node) || this.onErrorPath.has(node));
          // An empty handler after a try that returns on success falls through to the code after the try: judged by that code.
          const fallThrough = behaviour === "swallows" && !handled && node.handler.body.body.length === 0 ? fallThroughBehaviour(node, parent) : null;
          this.addCatch(fn, node.handler, handled ? "handles" : (fallThrough ?? behaviour), node.block);
        }
        if (node.finalizer) for (const nested of errorPathTries(node.finalizer)) this.onErrorPath.add(nested);
        break;
      case "CallExpression":
        // `xs.filter(bad).forEach((x) => { throw … })`: a loop guard written with forEach.
        if (calleeName(node.callee) === "forEach" && (node.callee.type === "MemberExpression" || node.callee.type === "OptionalMemberExpression")) {
          const callback = node.arguments[0];
          if (callback?.type === "ArrowFunctionExpression" || callback?.type === "FunctionExpression") this.noteLoopGuard(node.callee.object, callback.body, fn);
        }
        this.noteCall(node, parent, fn, keyPath);
        this.noteCallee(node.callee);
        if (this.noteExitCall(node, fn)) isHook = true;
        break;
      case "MemberExpression":
      case "OptionalMemberExpression":
        this.noteMember(node, parent);
        break;
      case "BinaryExpression":
        this.noteBinary(node);
        break;
      case "StringLiteral":
        this.noteLiteral(node.value, parent);
        break;
      case "TemplateLiteral":
        if (node.expressions.length === 0) this.noteLiteral(node.quasis[0]?.value.cooked ?? "", parent);
        break;
      case "TSAsExpression":
      case "TSTypeAssertion":
        this.noteCast(node);
        break;
    }
    if (isHook) this.hookDepth++;
    if (isEntry) this.entryDepth++;
    const record = node as unknown as Record<string, unknown>;
    // A function's body starts with no condition over it (EscapeFact.conditions are read within their function), and in no handler.
    const outerConditions = opened !== null ? this.conditions.splice(0) : null;
    const outerHandlers = opened !== null ? this.handlerErrors.splice(0) : null;
    const isHandler = node.type === "CatchClause";
    if (isHandler) this.handlerErrors.push(node.param?.type === "Identifier" ? node.param.name : null);
    for (const key of Object.keys(record)) {
      if (WALK_SKIP_KEYS.has(key)) continue;
      const value = record[key];
      const condition = branchCondition(node, key);
      if (condition !== null) this.conditions.push(this.source(condition));
      if (Array.isArray(value)) {
        for (const child of value) if (isNode(child)) this.visit(child, node, innerFn, innerPath);
      } else if (isNode(value)) {
        this.visit(value, node, innerFn, innerPath);
      }
      if (condition !== null) this.conditions.pop();
    }
    if (outerConditions !== null) this.conditions.push(...outerConditions);
    if (isHandler) this.handlerErrors.pop();
    if (outerHandlers !== null) this.handlerErrors.push(...outerHandlers);
    if (isHook) this.hookDepth--;
    if (isEntry) this.entryDepth--;
    if (opened) this.closeFunction(opened);
  }

  /** The error names of the catch clauses the walk is inside, within the current function, innermost last (null: `catch {}` binds none). */
  private readonly handlerErrors: (string | null)[] = [];

  /** Calls made in the named function being visited (and the anonymous and nested functions inside it). */
  private readonly callSets: Set<string>[] = [];

  /** The file's plain string literals shaped like an option value, key or flag (CodeFacts.literals). */
  private readonly literals = new Set<string>();

  /** The places the file writes on objects other than `this` (CodeFacts.writes). */
  private readonly writes = new Set<string>();

  /** Records a string literal of the code (CodeFacts.literals), not a module path (`import … from "x"`, `require("x")`, `import("x")`). */
  private noteLiteral(value: string, parent: t.Node | null): void {
    if (!LITERAL_TOKEN.test(value) || this.literals.size >= MAX_LITERALS) return;
    if (parent?.type === "ImportDeclaration" || parent?.type === "ExportNamedDeclaration" || parent?.type === "ExportAllDeclaration" || parent?.type === "ImportExpression") return;
    if (parent?.type === "CallExpression" && (parent.callee.type === "Import" || (parent.callee.type === "Identifier" && parent.callee.name === "require"))) return;
    this.literals.add(value);
  }

  private noteCallee(callee: t.Node): void {
    const name = calleeName(callee);
    const calls = this.callSets[this.callSets.length - 1];
    if (name !== null && calls) calls.add(name);
  }

  /** `function f`, `const f = () =>`, `class C { m() }` -> "C.m", `{ m() {} }` in `const o` -> "o.m". */
  private functionName(node: t.Function, parent: t.Node | null, outer: string): string | null {
    const prefix = (name: string): string => (outer === "" ? name : `${outer}.${name}`);
    if ((node.type === "FunctionDeclaration" || node.type === "FunctionExpression") && node.id) return prefix(node.id.name);
    if (node.type === "ClassMethod" || node.type === "ClassPrivateMethod" || node.type === "ObjectMethod") {
      const name = keyName(node.key, node.computed ?? false);
      if (name === null) return null;
      const owner = this.ownerName(parent);
      return owner ? `${owner}.${name}` : prefix(name);
    }
    if (parent?.type === "VariableDeclarator" && parent.id.type === "Identifier") return prefix(parent.id.name);
    if (parent?.type === "ObjectProperty" || parent?.type === "ClassProperty") {
      const name = keyName(parent.key, parent.computed);
      return name === null ? null : prefix(name);
    }
    if (parent?.type === "AssignmentExpression" && parent.left.type === "MemberExpression") {
      const names = chainNames(parent.left);
      return names.length > 0 ? prefix(names[names.length - 1] as string) : null;
    }
    return null;
  }

  /** The class name for a method whose parent is a ClassBody (found through the class declaration's id). */
  private ownerName(parent: t.Node | null): string | null {
    if (parent?.type !== "ClassBody") return null;
    const owner = this.classOf.get(parent);
    return owner ?? null;
  }

  private readonly classOf = new Map<t.Node, string>();

  /** Records a named function; its calls are collected while its body is visited, until {@link closeFunction}. */
  private openFunction(node: t.Function, name: string): FunctionFact {
    const fact: FunctionFact = {
      name,
      line: this.line(node),
      statementCount: node.body.type === "BlockStatement" ? node.body.body.length : 1,
      calls: [],
      bodyHash: this.hash(node.body),
    };
    const constant = constantReturnOf(node);
    if (constant !== undefined) fact.constantReturn = constant;
    // A body that ends in a throw: its fall-through exit (GuardFact.fallthrough).
    const last = node.body.type === "BlockStatement" ? node.body.body[node.body.body.length - 1] : undefined;
    const exit = last ? guardAction(last) : null;
    if (exit) this.guards.push({ function: name, line: this.line(exit), condition: "", action: this.source(exit), names: [], fallthrough: true });
    this.functions.push(fact);
    this.callSets.push(new Set());
    return fact;
  }

  /** Ends a named function: its calls, sorted; a nested function's calls count for the enclosing one too. */
  private closeFunction(fact: FunctionFact): void {
    const calls = this.callSets.pop() ?? new Set<string>();
    fact.calls = [...calls].sort();
    const outer = this.callSets[this.callSets.length - 1];
    if (outer) for (const call of calls) outer.add(call);
  }

  private noteRequire(declarator: t.VariableDeclarator): void {
    const init = declarator.init;
    if (init?.type !== "CallExpression" || init.callee.type !== "Identifier" || init.callee.name !== "require") return;
    const source = init.arguments[0];
    if (source?.type !== "StringLiteral") return;
    const names: ImportFact["names"] = [];
    if (declarator.id.type === "Identifier") names.push({ imported: null, local: declarator.id.name });
    else if (declarator.id.type === "ObjectPattern") {
      for (const property of declarator.id.properties) {
        if (property.type === "ObjectProperty" && property.value.type === "Identifier") names.push({ imported: keyName(property.key, property.computed), local: property.value.name });
      }
    }
    this.addImport(source.value, names);
  }

  /** The source of the conditions of `if`s with no else whose branch only asserts (RunnerCheckFact.onlyAsserts). */
  private readonly assertOnlyConditions = new Set<string>();

  private noteIf(node: t.IfStatement, fn: string): void {
    if (node.alternate === null && onlyAssertions(node.consequent)) this.assertOnlyConditions.add(this.source(node.test));
    // A guard whose condition is never true is kept: rules/constant-condition.ts tells it from a working one.
    const consequent = guardAction(node.consequent);
    if (consequent) this.addGuard(fn, node.test, consequent, false);
    const alternate = node.alternate && node.alternate.type !== "IfStatement" ? guardAction(node.alternate) : null;
    if (alternate) this.addGuard(fn, node.test, alternate, true);
    const compared = comparedLiterals(node.test);
    const returned = returnedLiteral(node.consequent);
    // A branch on no literal is kept with what it reads, for the stateful-answer rule (`if (calls > 1) return 3`).
    const reads = namesIn(node.test);
    if (returned === null) {
      this.noteComputedBranch(node, returnedExpression(node.consequent), reads, fn);
      return;
    }
    if (compared.length > 0 || reads.length > 0) this.literalBranches.push({ line: this.line(node), kind: "branch", compared, returns: returned, function: fn, reads });
  }

  /** A branch on state that yields a computed value (`if (calls > 1) return label(n + 1)`): kept as its source text, for the stateful-answer rule. */
  private noteComputedBranch(node: t.Node, value: t.Node | null, reads: string[], fn: string): void {
    if (value === null || reads.length === 0 || fn === "") return;
    this.literalBranches.push({ line: this.line(node), kind: "branch", compared: [], returns: this.source(value).replace(/\s+/g, " ").slice(0, 200), function: fn, reads, computed: true });
  }

  /** `calls++`, `calls += 1`, `flag = !flag`, `solve.calls = (solve.calls || 0) + 1`: a name the function counts or toggles. */
  private noteUpdate(node: t.UpdateExpression | t.AssignmentExpression, fn: string): void {
    if (fn === "") return;
    const target = node.type === "UpdateExpression" ? node.argument : node.left;
    if (target.type !== "Identifier" && target.type !== "MemberExpression") return;
    const name = this.source(target).replace(/\s+/g, "");
    if (node.type === "AssignmentExpression" && node.operator !== "+=" && node.operator !== "-=") {
      const value = this.source(node.right).replace(/\s+/g, "");
      const isToggle = value === `!${name}`;
      const isCount = value.includes(name) && /[+-]1$/.test(value);
      if (node.operator !== "=" || !(isToggle || isCount)) return;
    }
    const names = this.updates.get(fn) ?? new Set<string>();
    names.add(name);
    this.updates.set(fn, names);
  }

  private addGuard(fn: string, condition: t.Node, action: t.Node, isNegated: boolean): void {
    const text = this.source(condition);
    const guard: GuardFact = {
      function: fn,
      line: this.line(condition),
      condition: isNegated ? `!(${text})` : text,
      action: this.source(action),
      names: namesIn(condition),
    };
    const owner = isCollectedThrow(action) ? this.functionNodes.get(fn) : undefined;
    if (owner) guard.collected = stringLiteralsIn(owner);
    // `catch (e) { if (!gone(e)) throw e; }`: a filter of the handler, which catches everything (GuardFact.rethrown).
    const handlerError = this.handlerErrors.at(-1);
    if (handlerError !== undefined && handlerError !== null && action.type === "Identifier" && action.name === handlerError) guard.rethrown = "*";
    this.guards.push(guard);
  }

  /**
   * `for (const x of xs.filter(bad)) throw …` (or `.forEach` over it): the
   * loop guard `for (const x of xs) if (bad(x)) throw …` with its condition
   * moved into the filter; the body must hold nothing but the exit.
   */
  private noteLoopGuard(iterable: t.Node, body: t.Node, fn: string): void {
    const predicate = filterPredicate(iterable);
    const action = predicate ? onlyExit(body) : null;
    if (predicate && action) this.addGuard(fn, predicate, action, false);
  }

  /**
   * A `case` whose statements end in a throw: a guard on the switched value
   * matching the case (`kind is "legacy"`), or on the case's own test in a
   * `switch (true)`. `default:` is left out: a catch-all rewritten as a
   * lookup would read as a guard removed.
   */
  private noteCaseGuards(node: t.SwitchStatement, fn: string): void {
    const isTagless = unwrap(node.discriminant).type === "BooleanLiteral";
    for (const switchCase of node.cases) {
      const last = switchCase.consequent[switchCase.consequent.length - 1];
      const action = switchCase.test && last ? guardAction(last) : null;
      if (!switchCase.test || !action) continue;
      if (isTagless) {
        this.addGuard(fn, switchCase.test, action, false);
        continue;
      }
      this.guards.push({
        function: fn,
        line: this.line(switchCase),
        condition: `${this.source(node.discriminant)} is ${this.source(switchCase.test)}`,
        action: this.source(action),
        names: [...new Set([...namesIn(node.discriminant), ...namesIn(switchCase.test)])].sort(),
      });
    }
  }

  /**
   * `assert(x, "…")`, `invariant(x)`, `assert.ok(x)` as statements; and
   * `signal.throwIfAborted()` as the `if (signal.aborted) throw
   * signal.reason` it does (DOM standard, AbortSignal: "throw this's abort
   * reason, if this is aborted").
   */
  private noteGuardCall(expression: t.Expression, fn: string): void {
    const call = expression.type === "AwaitExpression" ? expression.argument : expression;
    if (call.type === "CallExpression" && call.arguments.length === 0 && call.callee.type === "MemberExpression" && !call.callee.computed && calleeName(call.callee) === "throwIfAborted") {
      const signal = this.source(call.callee.object);
      this.guards.push({ function: fn, line: this.line(call), condition: `${signal}.aborted`, action: `${signal}.reason`, names: namesIn(call.callee.object) });
      return;
    }
    if (call.type !== "CallExpression" || call.arguments.length === 0) return;
    const name = calleeName(call.callee);
    const root = chainRoot(call.callee);
    if (name === null || !GUARD_CALLEES.test(name)) return;
    if (name !== "assert" && name !== "invariant" && root !== "assert") return;
    const first = call.arguments[0] as t.Node;
    if (isNeverTrue(first)) return;
    this.guards.push({ function: fn, line: this.line(call), condition: this.source(first), action: this.source(call.callee), names: namesIn(first) });
  }

  private noteConditional(node: t.ConditionalExpression, fn: string): void {
    const compared = comparedLiterals(node.test);
    const returned = literalValue(node.consequent);
    const reads = namesIn(node.test);
    if (returned === null) {
      this.noteComputedBranch(node, node.consequent, reads, fn);
      return;
    }
    if (compared.length > 0 || reads.length > 0) this.literalBranches.push({ line: this.line(node), kind: "branch", compared, returns: returned, function: fn, reads });
  }

  private noteSwitch(node: t.SwitchStatement, fn: string): void {
    for (const switchCase of node.cases) {
      const compared = literalValue(switchCase.test);
      const returned = returnedLiteral(switchCase.consequent[0]);
      if (compared !== null && returned !== null) this.literalBranches.push({ line: this.line(switchCase), kind: "branch", compared: [compared], returns: returned, function: fn });
    }
  }

  /** Every literal-keyed, literal-valued entry of an object literal (at most 500 per object). */
  private noteTable(node: t.ObjectExpression, fn: string): void {
    if (node.properties.length < 2 || node.properties.length > 500) return;
    for (const property of node.properties) {
      if (property.type !== "ObjectProperty") continue;
      const key = keyName(property.key, property.computed);
      const value = literalValue(property.value);
      if (key !== null && value !== null) this.literalBranches.push({ line: this.line(property), kind: "table", compared: [JSON.stringify(key)], returns: value, function: fn });
    }
  }

  private noteMapTable(entries: t.ArrayExpression, fn: string): void {
    for (const entry of entries.elements.slice(0, 500)) {
      if (entry?.type !== "ArrayExpression" || entry.elements.length !== 2) continue;
      const key = literalValue(entry.elements[0]);
      const value = literalValue(entry.elements[1]);
      if (key !== null && value !== null) this.literalBranches.push({ line: this.line(entry), kind: "table", compared: [key], returns: value, function: fn });
    }
  }

  /** Records a catch (a JS catch takes every error: `caught` "*") with the calls of the code it guards. */
  private addCatch(fn: string, handler: t.CatchClause, behaviour: CatchBehaviour, guarded: t.Node | null): void {
    const index = this.catchCounts.get(fn) ?? 0;
    this.catchCounts.set(fn, index + 1);
    const fact: CatchFact = { function: fn, index, line: this.line(handler), behaviour, caught: "*" };
    if (guarded) {
      const calls = new Set<string>();
      walk(guarded, (node) => {
        if (node.type === "CallExpression" || node.type === "NewExpression" || node.type === "OptionalCallExpression") {
          const name = calleeName(node.callee);
          if (name !== null) calls.add(name);
        }
      });
      fact.guardedCalls = [...calls].sort();
    }
    this.catches.push(fact);
  }

  /**
   * `process.exit(0)`, `process.reallyExit()`, `Deno.exit(0)` (exits); `process.on("exit" | "beforeExit" |
   * "uncaughtException" | "unhandledRejection", handler)` (a hook: returns true, its handler is walked as one).
   */
  private noteExitCall(node: t.CallExpression, fn: string): boolean {
    const callee = node.callee;
    if (callee.type !== "MemberExpression" || callee.object.type !== "Identifier") return false;
    const method = keyName(callee.property, callee.computed);
    const object = callee.object.name;
    if ((object === "process" && (method === "exit" || method === "reallyExit")) || (object === "Deno" && method === "exit")) {
      const first = node.arguments[0];
      this.addEscape(node, "exit", fn, first === undefined ? null : (literalValue(first) ?? (first.type === "Identifier" ? first.name : undefined)));
      return false;
    }
    const event = literalValue(node.arguments[0]);
    if (object === "process" && method !== null && PROCESS_LISTENERS.has(method) && event !== null && EXIT_EVENTS.has(event)) {
      this.addEscape(node, "hook", fn, undefined);
      return true;
    }
    return false;
  }

  /** `process.exitCode = 0`: the status the process ends with, whatever failed. */
  private noteExitAssignment(node: t.AssignmentExpression, fn: string): void {
    const left = node.left;
    if (left.type !== "MemberExpression" || left.object.type !== "Identifier" || left.object.name !== "process") return;
    const name = keyName(left.property, left.computed);
    if (name === "exitCode" && node.operator === "=") this.addEscape(node, "exit_code", fn, literalValue(node.right) ?? undefined);
    else if (name === "exit" || name === "reallyExit") this.addEscape(node, "hook", fn, undefined);
  }

  private addEscape(node: t.Node, kind: EscapeFact["kind"], fn: string, code: string | null | undefined): void {
    const fact: EscapeFact = { line: this.line(node), kind, function: fn, text: this.source(node) };
    if (code !== undefined) fact.code = code;
    if (this.entryDepth > 0 || fn.split(".").some((part) => part === "main") || this.content.startsWith("#!")) fact.isEntryPoint = true;
    if (this.hookDepth > 0) fact.isInHook = true;
    if (this.conditions.length > 0) fact.conditions = this.conditions.slice(-8).reverse();
    this.escapes.push(fact);
  }

  private noteCall(node: t.CallExpression, parent: t.Node | null, fn: string, keyPath: string[]): void {
    // promise.catch(handler)
    const name = calleeName(node.callee);
    const handler = node.arguments[0];
    if (name === "catch" && node.callee.type === "MemberExpression" && handler && (handler.type === "ArrowFunctionExpression" || handler.type === "FunctionExpression")) {
      const param = handler.params[0];
      this.addCatch(fn, handler as unknown as t.CatchClause, classifyCatch(handler.body, param?.type === "Identifier" ? param.name : null, this.moduleConstants), node.callee.object);
    }
    // a schema chain, recorded once at its outermost call
    const root = chainRoot(node.callee);
    const isOutermost = !((parent?.type === "MemberExpression" && parent.object === node) || (parent?.type === "CallExpression" && parent.callee === node));
    if (root !== null && this.schemaRoots.has(root) && isOutermost) {
      const fact: SchemaFact = { key: keyPath.join(".") || `<line ${this.line(node)}>`, line: this.line(node), methods: chainNames(node) };
      if (wrapsNamedSchema(node)) fact.opaque = true;
      this.schemas.push(fact);
    }
  }

  /** `process.env.VITEST`, `process.env["JEST_WORKER_ID"]`, `import.meta.env.VITEST`, `globalThis.__vitest_worker__`. */
  private noteMember(node: t.MemberExpression | t.OptionalMemberExpression, parent: t.Node | null): void {
    const name = keyName(node.property, node.computed);
    if (name === null) return;
    const object = node.object;
    const isEnv =
      object.type === "MemberExpression" &&
      keyName(object.property, object.computed) === "env" &&
      ((object.object.type === "Identifier" && object.object.name === "process") || object.object.type === "MetaProperty");
    if (isEnv && RUNNER_ENV_VARS.has(name)) {
      this.runnerChecks.push({ line: this.line(node), text: this.source(node) });
      return;
    }
    const isGlobal = object.type === "Identifier" && (object.name === "globalThis" || object.name === "global" || object.name === "window");
    if (isGlobal && RUNNER_GLOBALS.has(name) && !(parent?.type === "AssignmentExpression" && parent.left === node)) {
      this.runnerChecks.push({ line: this.line(node), text: this.source(node) });
    }
  }

  /** `NODE_ENV === "test"`, `typeof jest !== "undefined"`, `"vitest" in globalThis`. */
  private noteBinary(node: t.BinaryExpression): void {
    const { operator } = node;
    if (operator === "===" || operator === "!==" || operator === "==" || operator === "!=") {
      for (const [a, b] of [
        [node.left, node.right],
        [node.right, node.left],
      ] as const) {
        if (a.type === "PrivateName") continue;
        const value = literalValue(b);
        if (value === '"test"' && a.type === "MemberExpression") {
          const name = keyName(a.property, a.computed);
          if (name !== null && MODE_ENV_VARS.has(name)) {
            this.runnerChecks.push({ line: this.line(node), text: this.source(node) });
            return;
          }
        }
        if (a.type === "UnaryExpression" && a.operator === "typeof" && a.argument.type === "Identifier" && RUNNER_GLOBALS.has(a.argument.name)) {
          this.runnerChecks.push({ line: this.line(node), text: this.source(node) });
          return;
        }
      }
    }
    if (operator === "in" && node.left.type === "StringLiteral" && RUNNER_GLOBALS.has(node.left.value)) {
      this.runnerChecks.push({ line: this.line(node), text: this.source(node) });
    }
  }

  /** `x as any`, `<any>x`, `x as unknown as T`. */
  private noteCast(node: t.TSAsExpression | t.TSTypeAssertion): void {
    if (node.typeAnnotation.type === "TSAnyKeyword") {
      this.suppressions.push({ kind: "as-any", line: this.line(node), text: this.source(node) });
    } else if (node.expression.type === "TSAsExpression" && node.expression.typeAnnotation.type === "TSUnknownKeyword") {
      this.suppressions.push({ kind: "as-unknown-as", line: this.line(node), text: this.source(node) });
    }
  }
}
