/**
 * The exported object of a JS/TS config file (`vitest.config.ts`,
 * `jest.config.js`, `.mocharc.cjs`), evaluated statically from the Babel
 * AST: literals, objects, arrays, top-level `const`s, `defineConfig(...)`,
 * `mergeConfig(a, b)` and arrow functions that return an object. Anything
 * else (a call, a member access, a spread of an import) becomes an opaque
 * string `«source»`, so two sides still compare equal when the same
 * expression appears on both.
 */

import type * as t from "@babel/types";
import { parseWithBabel } from "../parsers/babel.js";

/** A JSON-like value read from source; opaque expressions are strings in «guillemets». */
export type StaticValue = string | number | boolean | null | StaticValue[] | { [key: string]: StaticValue };

/** A config object with the 1-based line of every property, by dotted path (`test.exclude`). */
export interface StaticConfig {
  value: StaticValue;
  lines: Map<string, number>;
}

/**
 * The key under which an object records spreads it could not read
 * (`{ ...require("./base"), testEnvironment: "node" }` reads as
 * `{ "«spread»": "«require(\"./base\")»", testEnvironment: "node" }`): the
 * object may hold more keys than it shows.
 */
export const OPAQUE_SPREAD_KEY = "«spread»";

/** Calls whose first (or last, for merges) argument is the config itself. */
const CONFIG_WRAPPERS = new Set(["defineConfig", "defineProject", "defineWorkspace", "defineVitestConfig", "withNx", "createConfig"]);

class Evaluator {
  readonly lines = new Map<string, number>();
  private readonly constants = new Map<string, t.Expression>();
  private depth = 0;

  constructor(
    private readonly source: string,
    program: t.Program,
  ) {
    for (const statement of program.body) {
      const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
      if (declaration?.type !== "VariableDeclaration") continue;
      for (const declarator of declaration.declarations) {
        if (declarator.id.type === "Identifier" && declarator.init) this.constants.set(declarator.id.name, declarator.init);
      }
    }
  }

  private opaque(node: t.Node): string {
    const text = this.source.slice(node.start ?? 0, node.end ?? 0).replace(/\s+/g, " ");
    return `«${text.length > 200 ? `${text.slice(0, 197)}...` : text}»`;
  }

  /** Evaluates an expression; `path` is where it sits in the config, for line numbers. */
  evaluate(node: t.Node, path: string): StaticValue {
    if (this.depth > 50) return this.opaque(node);
    this.depth++;
    try {
      return this.evaluateInner(node, path);
    } finally {
      this.depth--;
    }
  }

  private evaluateInner(node: t.Node, path: string): StaticValue {
    switch (node.type) {
      case "StringLiteral":
        return node.value;
      case "NumericLiteral":
        return node.value;
      case "BooleanLiteral":
        return node.value;
      case "NullLiteral":
        return null;
      case "RegExpLiteral":
        return `/${node.pattern}/${node.flags}`;
      case "TemplateLiteral":
        return node.expressions.length === 0 ? node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join("") : this.opaque(node);
      case "UnaryExpression":
        if (node.operator === "-" && node.argument.type === "NumericLiteral") return -node.argument.value;
        if (node.operator === "!" && node.argument.type === "NumericLiteral") return !node.argument.value;
        return this.opaque(node);
      case "TSAsExpression":
      case "TSSatisfiesExpression":
      case "TSNonNullExpression":
      case "TSTypeAssertion":
      case "ParenthesizedExpression":
        return this.evaluate(node.expression, path);
      case "Identifier": {
        if (node.name === "undefined") return null;
        const init = this.constants.get(node.name);
        if (!init) return this.opaque(node);
        this.constants.delete(node.name); // no cycles
        try {
          return this.evaluate(init, path);
        } finally {
          this.constants.set(node.name, init);
        }
      }
      case "ArrayExpression":
        return node.elements
          .map((element, index) => {
            if (element === null) return null;
            if (element.type === "SpreadElement") {
              const spread = this.evaluate(element.argument, `${path}[${index}]`);
              return Array.isArray(spread) ? spread : `...${typeof spread === "string" ? spread : this.opaque(element.argument)}`;
            }
            return this.evaluate(element, `${path}[${index}]`);
          })
          .flat(1) as StaticValue[];
      case "ObjectExpression": {
        const result: { [key: string]: StaticValue } = {};
        for (const property of node.properties) {
          if (property.type === "SpreadElement") {
            const spread = this.evaluate(property.argument, path);
            if (spread !== null && typeof spread === "object" && !Array.isArray(spread)) Object.assign(result, spread);
            else {
              // Keys it may bring are unknown: say so under OPAQUE_SPREAD_KEY, so a reader can tell the object is partial.
              const text = typeof spread === "string" ? spread : this.opaque(property.argument);
              const earlier = result[OPAQUE_SPREAD_KEY];
              result[OPAQUE_SPREAD_KEY] = typeof earlier === "string" ? `${earlier} ${text}` : text;
            }
            continue;
          }
          const key = propertyKey(property);
          if (key === null) continue;
          const childPath = path === "" ? key : `${path}.${key}`;
          if (property.loc) this.lines.set(childPath, property.loc.start.line);
          if (property.type === "ObjectMethod") result[key] = this.opaque(property);
          else result[key] = this.evaluate(property.value, childPath);
        }
        return result;
      }
      case "CallExpression": {
        const callee = node.callee;
        const name = callee.type === "Identifier" ? callee.name : callee.type === "MemberExpression" && callee.property.type === "Identifier" ? callee.property.name : "";
        const args = node.arguments.filter((arg): arg is t.Expression => arg.type !== "SpreadElement" && arg.type !== "ArgumentPlaceholder");
        if (CONFIG_WRAPPERS.has(name) && args[0]) return this.evaluate(args[0], path);
        if (name === "mergeConfig" || name === "mergeProjects") {
          return args.map((arg) => this.evaluate(arg, path)).reduce<StaticValue>((merged, next) => deepMerge(merged, next), {});
        }
        return this.opaque(node);
      }
      case "ArrowFunctionExpression":
      case "FunctionExpression": {
        if (node.body.type !== "BlockStatement") return this.evaluate(node.body, path);
        const returned = node.body.body.find((statement): statement is t.ReturnStatement => statement.type === "ReturnStatement");
        return returned?.argument ? this.evaluate(returned.argument, path) : this.opaque(node);
      }
      default:
        return this.opaque(node);
    }
  }
}

function propertyKey(property: t.ObjectProperty | t.ObjectMethod): string | null {
  if (property.computed) return property.key.type === "StringLiteral" ? property.key.value : null;
  if (property.key.type === "Identifier") return property.key.name;
  if (property.key.type === "StringLiteral") return property.key.value;
  if (property.key.type === "NumericLiteral") return String(property.key.value);
  return null;
}

/** Merges `b` over `a` the way vite's mergeConfig does for plain objects (arrays concatenate). */
function deepMerge(a: StaticValue, b: StaticValue): StaticValue {
  if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object" || Array.isArray(a) || Array.isArray(b)) return b;
  const result: { [key: string]: StaticValue } = { ...a };
  for (const [key, value] of Object.entries(b)) result[key] = key in result ? deepMerge(result[key] as StaticValue, value) : value;
  return result;
}

/** The expression a module exports as its default: `export default X`, `module.exports = X`, `export = X`. */
function exportedExpression(program: t.Program): t.Node | null {
  for (const statement of program.body) {
    if (statement.type === "ExportDefaultDeclaration") return statement.declaration;
    if (statement.type === "TSExportAssignment") return statement.expression;
    if (statement.type === "ExpressionStatement" && statement.expression.type === "AssignmentExpression") {
      const left = statement.expression.left;
      if (left.type === "MemberExpression" && left.object.type === "Identifier" && left.object.name === "module" && left.property.type === "Identifier" && left.property.name === "exports") {
        return statement.expression.right;
      }
    }
  }
  return null;
}

/**
 * The statically known default export of a JS/TS config file, or an error
 * string when the file does not parse or exports nothing readable.
 */
export async function readStaticConfig(path: string, content: string): Promise<StaticConfig | { error: string }> {
  const parsed = await parseWithBabel(path, content);
  if (!parsed.ok) return { error: `parse error: ${parsed.error}` };
  const exported = exportedExpression(parsed.ast.program);
  if (!exported) return { error: "no default export" };
  const evaluator = new Evaluator(content, parsed.ast.program);
  const value = evaluator.evaluate(exported, "");
  return { value, lines: evaluator.lines };
}

/** The value at a dotted path of a static value, or undefined. */
export function getPath(value: StaticValue | undefined, path: string): StaticValue | undefined {
  let current: StaticValue | undefined = value;
  for (const key of path.split(".")) {
    if (current === null || current === undefined || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = current[key];
  }
  return current;
}
