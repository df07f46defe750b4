/**
 * Checks of the test's own constants (issue 9, checks implied or empty): an
 * equality whose two sides are built only from literals and names the test
 * file binds to such expressions (`const A: u32 = 0b0001; const AB: u32 = A
 * | B; assert_eq!(AB, 0b0011)`) reads nothing of the product. When both
 * sides evaluate to the same value it can never fail: a tautology, as
 * `assert_eq!(1, 1)` is. A side that reads anything else (a call, a field,
 * a name bound to product code), or two values that differ, is judged as
 * written.
 */

/** A constant's value: an integer, a string or a boolean. */
export type ConstantValue = bigint | string | boolean;

/** How deep names may resolve through other names before the evaluation gives up (cycles end there too). */
const MAX_DEPTH = 8;

/** Tokens of canonical text: numbers (any base, `_` separators, a type suffix), strings, names, operators. */
const TOKEN =
  /0[xX][\da-fA-F_]+(?:[iu](?:8|16|32|64|128|size))?|0[bB][01_]+(?:[iu](?:8|16|32|64|128|size))?|0[oO][0-7_]+(?:[iu](?:8|16|32|64|128|size))?|\d[\d_]*(?:[iu](?:8|16|32|64|128|size))?|"(?:[^"\\]|\\.)*"|[A-Za-z_$][\w$]*|<<|>>|&&|\|\||==|!=|<=|>=|[-+*/%|&^~!()<>]|\s+|./gs;

/**
 * The value of a constant expression in canonical text, names resolved by
 * `resolve` (the text a name is bound to, or undefined), or undefined when
 * it reads anything else or does not parse. `resolved` counts the names it
 * resolved.
 */
export function evaluateConstant(text: string, resolve: (name: string) => string | undefined, depth = 0, resolved: { count: number } = { count: 0 }): ConstantValue | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const tokens = (text.match(TOKEN) ?? []).filter((token) => !/^\s+$/.test(token));
  let at = 0;
  const peek = (): string | undefined => tokens[at];
  const fail = Symbol("fail");
  type Result = ConstantValue | typeof fail;
  const primary = (): Result => {
    const token = tokens[at++];
    if (token === undefined) return fail;
    if (token === "(") {
      const inner = binary(0);
      return tokens[at++] === ")" ? inner : fail;
    }
    if (token === "-" || token === "!" || token === "~") {
      const operand = primary();
      if (operand === fail) return fail;
      if (token === "-") return typeof operand === "bigint" ? -operand : fail;
      if (token === "!") return typeof operand === "boolean" ? !operand : fail;
      return typeof operand === "bigint" ? ~operand : fail;
    }
    if (/^\d/.test(token)) return integerOf(token) ?? fail;
    if (token.startsWith('"')) return stringOf(token) ?? fail;
    if (/^(?:true|True)$/.test(token)) return true;
    if (/^(?:false|False)$/.test(token)) return false;
    if (/^[A-Za-z_$]/.test(token)) {
      const bound = resolve(token);
      if (bound === undefined) return fail;
      resolved.count++;
      return evaluateConstant(bound, resolve, depth + 1, resolved) ?? fail;
    }
    return fail;
  };
  const binary = (minimum: number): Result => {
    let left = primary();
    for (;;) {
      const operator = peek();
      const precedence = operator === undefined ? undefined : PRECEDENCE.get(operator);
      if (left === fail || precedence === undefined || precedence < minimum) return left;
      at++;
      const right = binary(precedence + 1);
      if (right === fail) return fail;
      left = apply(operator as string, left, right) ?? fail;
    }
  };
  const value = binary(0);
  return value === fail || at !== tokens.length ? undefined : value;
}

/** Binary operators by precedence (higher binds tighter), as C-family languages and Python rank them. */
const PRECEDENCE: ReadonlyMap<string, number> = new Map([
  ["||", 1],
  ["&&", 2],
  ["|", 3],
  ["^", 4],
  ["&", 5],
  ["==", 6],
  ["!=", 6],
  ["<", 7],
  [">", 7],
  ["<=", 7],
  [">=", 7],
  ["<<", 8],
  [">>", 8],
  ["+", 9],
  ["-", 9],
  ["*", 10],
  ["/", 10],
  ["%", 10],
]);

/** `left operator right`, or undefined when the operands do not fit the operator (a string `|` a number, a division by zero). */
function apply(operator: string, left: ConstantValue, right: ConstantValue): ConstantValue | undefined {
  if (operator === "==" || operator === "!=") return typeof left === typeof right ? (left === right) === (operator === "==") : undefined;
  if (typeof left === "boolean" && typeof right === "boolean") return operator === "&&" ? left && right : operator === "||" ? left || right : undefined;
  if (typeof left === "string" && typeof right === "string") return operator === "+" ? left + right : undefined;
  if (typeof left !== "bigint" || typeof right !== "bigint") return undefined;
  switch (operator) {
    case "|":
      return left | right;
    case "&":
      return left & right;
    case "^":
      return left ^ right;
    case "<<":
      return right >= 0n && right < 256n ? left << right : undefined;
    case ">>":
      return right >= 0n && right < 256n ? left >> right : undefined;
    case "+":
      return left + right;
    case "-":
      return left - right;
    case "*":
      return left * right;
    case "/":
      return right === 0n ? undefined : left / right;
    case "%":
      return right === 0n ? undefined : left % right;
    case "<":
      return left < right;
    case ">":
      return left > right;
    case "<=":
      return left <= right;
    case ">=":
      return left >= right;
    default:
      return undefined;
  }
}

/** An integer literal of any base, `_` separators and a Rust type suffix dropped. */
function integerOf(token: string): bigint | undefined {
  const digits = token.replace(/[iu](?:8|16|32|64|128|size)$/, "").replace(/_/g, "");
  try {
    return /^0[oO]/.test(digits) ? BigInt(`0o${digits.slice(2)}`) : BigInt(digits);
  } catch {
    return undefined;
  }
}

/** A double-quoted string literal's value, or undefined for one with escapes this reader does not decode. */
function stringOf(token: string): string | undefined {
  const body = token.slice(1, -1);
  return /\\/.test(body) ? undefined : body;
}

/**
 * True when an equality's two sides are constants of the test itself that
 * always compare equal (see the module comment): both evaluate, at least
 * one name was resolved on the way, and the values are the same.
 */
export function isConstantTautology(actual: string | undefined, expected: string | undefined, resolve: (name: string) => string | undefined): boolean {
  if (actual === undefined || expected === undefined) return false;
  const resolved = { count: 0 };
  const left = evaluateConstant(actual, resolve, 0, resolved);
  const right = left === undefined ? undefined : evaluateConstant(expected, resolve, 0, resolved);
  return left !== undefined && right !== undefined && resolved.count > 0 && left === right;
}
