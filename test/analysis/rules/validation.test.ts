/**
 * validation_bypass: guards removed, bodies collapsed to a constant, catches
 * that swallow, schemas loosened, suppressions and casts added, and
 * tsconfig strictness turned off; each with look-alikes that must not flag.
 */
import { describe, expect, it } from "vitest";
import { tsconfigFindings } from "../../../src/analysis/rules/index.js";
import { change, edit, expectFindings, type RuleCase } from "./table.js";

const PATH = "src/cart.ts";
const CART = `import { z } from "zod";
import * as yup from "yup";
import Joi from "joi";

export const Order = z.object({ email: z.string().email(), qty: z.number().int().min(1) }).strict();
export const Address = yup.object({ street: yup.string().required() });
export const Payment = Joi.object({ card: Joi.string().required() });

export function applyDiscount(amount: number, percent: number): number {
  if (percent < 0 || percent > 100) throw new RangeError("percent must be within 0..100");
  return amount - (amount * percent) / 100;
}

export function parseQty(text: string): Result<number> {
  const qty = Number(text);
  if (!Number.isInteger(qty)) return err("not an integer");
  assert(qty > 0, "qty must be positive");
  return ok(qty);
}

export function isValid(order: unknown): boolean {
  const result = Order.safeParse(order);
  return result.success;
}

export async function load(path: string): Promise<string> {
  try {
    return await read(path);
  } catch (error) {
    throw new LoadError(path, { cause: error });
  }
}

export function fetchAll(urls: string[]) {
  return Promise.all(urls.map((url) => get(url))).catch((error) => {
    throw new FetchError(error);
  });
}

export function settings(raw: unknown) {
  return toSettings(raw as Record<string, unknown>);
}
`;
const changed = (after: string): RuleCase["changes"] => [change(PATH, CART, after)];
const high = `validation_bypass/high ${PATH}`;
const medium = `validation_bypass/medium ${PATH}`;

const mustFlag: RuleCase[] = [
  { name: "an if-throw guard removed", changes: changed(edit(CART, `  if (percent < 0 || percent > 100) throw new RangeError("percent must be within 0..100");\n`, "")), findings: [high] },
  { name: "a guard that returns an error removed", changes: changed(edit(CART, `  if (!Number.isInteger(qty)) return err("not an integer");\n`, "")), findings: [high] },
  { name: "a guard narrowed: one alternative of its condition dropped", changes: changed(edit(CART, "if (percent < 0 || percent > 100)", "if (percent < 0)")), findings: [high] },
  { name: "an assert() guard removed", changes: changed(edit(CART, `  assert(qty > 0, "qty must be positive");\n`, "")), findings: [high] },
  { name: "a guard's condition made always false", changes: changed(edit(CART, "if (percent < 0 || percent > 100)", "if (false && (percent < 0 || percent > 100))")), findings: [high] },
  { name: "a body collapsed to a constant return", changes: changed(edit(CART, "  const result = Order.safeParse(order);\n  return result.success;", "  return true;")), findings: [high] },
  { name: "a catch that rethrew now swallows", changes: changed(edit(CART, "    throw new LoadError(path, { cause: error });", "    console.warn(error);")), findings: [high] },
  { name: "a catch that rethrew now returns a constant", changes: changed(edit(CART, "    throw new LoadError(path, { cause: error });", '    return "";')), findings: [high] },
  { name: "a promise .catch that rethrew now returns null", changes: changed(edit(CART, ".catch((error) => {\n    throw new FetchError(error);\n  });", ".catch(() => null);")), findings: [high] },
  { name: "zod .optional() added", changes: changed(edit(CART, "email: z.string().email()", "email: z.string().email().optional()")), findings: [high] },
  { name: "zod field replaced by z.any()", changes: changed(edit(CART, "email: z.string().email()", "email: z.any()")), findings: [high] },
  { name: "zod .strict() replaced by .passthrough()", changes: changed(edit(CART, ".strict();", ".passthrough();")), findings: [high] },
  { name: "zod .min(1) dropped", changes: changed(edit(CART, "z.number().int().min(1)", "z.number().int()")), findings: [high] },
  { name: "yup .required() dropped", changes: changed(edit(CART, "yup.string().required()", "yup.string()")), findings: [high] },
  {
    name: "one of two guards throwing the same error class removed",
    changes: [
      change(
        "src/range.ts",
        `export function check(a: number, b: number) {\n  if (a < 0) throw new RangeError("a");\n  if (b < 0) throw new RangeError("b");\n  return a + b;\n}\n`,
        `export function check(a: number, b: number) {\n  if (a < 0) throw new RangeError("a");\n  return a + b;\n}\n`,
      ),
    ],
    findings: ["validation_bypass/high src/range.ts"],
  },
  {
    name: "zod/mini z.optional() wrapped around a field",
    changes: [
      change(
        "src/opts.ts",
        `import * as z from "zod/mini";\nexport const O = z.object({ a: z.string() });\n`,
        `import * as z from "zod/mini";\nexport const O = z.object({ a: z.optional(z.string()) });\n`,
      ),
    ],
    findings: ["validation_bypass/high src/opts.ts"],
  },
  { name: "joi .required() dropped", changes: changed(edit(CART, "Joi.string().required()", "Joi.string()")), findings: [high] },
  { name: "@ts-ignore added", changes: changed(edit(CART, "  return toSettings(", "  // @ts-ignore\n  return toSettings(")), findings: [medium] },
  { name: "@ts-expect-error added", changes: changed(edit(CART, "  return toSettings(", "  // @ts-expect-error wrong shape\n  return toSettings(")), findings: [medium] },
  {
    name: "eslint-disable-next-line added",
    changes: changed(edit(CART, "  return toSettings(", "  // eslint-disable-next-line @typescript-eslint/no-explicit-any\n  return toSettings(")),
    findings: [medium],
  },
  { name: "as any added", changes: changed(edit(CART, "raw as Record<string, unknown>", "raw as any")), findings: [medium] },
  { name: "as unknown as T added", changes: changed(edit(CART, "raw as Record<string, unknown>", "raw as unknown as Settings")), findings: [medium] },
  { name: "@ts-nocheck in a new source file", changes: [change("src/new.ts", null, "// @ts-nocheck\nexport const x = 1;\n")], findings: ["validation_bypass/medium src/new.ts"] },
];

const mustNotFlag: RuleCase[] = [
  {
    name: "a guard moved into a helper in the same file (condition inverted)",
    changes: changed(
      edit(
        edit(CART, `  if (percent < 0 || percent > 100) throw new RangeError("percent must be within 0..100");\n`, "  assertPercent(percent);\n"),
        "export function parseQty",
        `function assertPercent(percent: number): void {\n  if (!(percent >= 0 && percent <= 100)) {\n    throw new RangeError("percent must be within 0..100");\n  }\n}\n\nexport function parseQty`,
      ),
    ),
    findings: [],
  },
  {
    name: "a guard moved into a helper in another changed file",
    changes: [
      change(
        PATH,
        CART,
        edit(
          edit(CART, `  if (percent < 0 || percent > 100) throw new RangeError("percent must be within 0..100");\n`, "  checkRange(percent, 0, 100);\n"),
          `import Joi from "joi";\n`,
          `import Joi from "joi";\nimport { checkRange } from "./guards";\n`,
        ),
      ),
      change(
        "src/guards.ts",
        null,
        `export function checkRange(value: number, min: number, max: number): void {\n  if (value < min || value > max) throw new RangeError(\`value must be within \${min}..\${max}\`);\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "a guard replaced by a call to an unchanged validator",
    changes: changed(edit(CART, `  if (percent < 0 || percent > 100) throw new RangeError("percent must be within 0..100");\n`, "  validatePercent(percent);\n")),
    findings: [],
  },
  { name: "a guard widened: an alternative added", changes: changed(edit(CART, "if (percent < 0 || percent > 100)", "if (percent < 0 || percent > 100 || Number.isNaN(percent))")), findings: [] },
  { name: "a guard's message reworded", changes: changed(edit(CART, "percent must be within 0..100", "percent out of range")), findings: [] },
  { name: "a guard's condition rewritten, same error class", changes: changed(edit(CART, "if (percent < 0 || percent > 100)", "if (!(percent >= 0) || !(percent <= 100))")), findings: [] },
  {
    name: "a function with its guard deleted (not exported: no feature_removal either)",
    changes: [change("src/util.ts", 'export const x = 1;\nfunction check(n: number) {\n  if (n < 0) throw new Error("neg");\n}\n', "export const x = 1;\n")],
    findings: [],
  },
  {
    name: "a constant-return function returns another constant",
    changes: [change("src/flags.ts", "export function enabled() { return false; }\n", "export function enabled() { return true; }\n")],
    findings: [],
  },
  {
    name: "a catch that swallowed still swallows",
    changes: [change("src/a.ts", "export function f() { try { g(); } catch { } return 1; }\n", "export function f() { try { g(); } catch { } return 2; }\n")],
    findings: [],
  },
  { name: "a catch that swallowed now rethrows", changes: changed(edit(CART, "    throw new LoadError(path, { cause: error });", "    throw error;")), findings: [] },
  {
    name: "zod .optional() removed and .min() added (stricter)",
    changes: [
      change("src/s.ts", `import { z } from "zod";\nexport const S = z.object({ a: z.string().optional() });\n`, `import { z } from "zod";\nexport const S = z.object({ a: z.string().min(1) });\n`),
    ],
    findings: [],
  },
  {
    name: "a guard rewritten in place with other names, same error",
    changes: changed(
      edit(
        CART,
        `  if (percent < 0 || percent > 100) throw new RangeError("percent must be within 0..100");\n`,
        `  const p = Math.trunc(percent);\n  if (!(p >= 0 && p <= 100)) throw new RangeError(\`bad percent \${p}\`);\n`,
      ),
    ),
    findings: [],
  },
  {
    name: "zod rewritten to zod/mini (z.strictObject, z.optional, .check)",
    changes: [
      change(
        "src/opts.ts",
        `import { z } from "zod";\nexport const Options = z.object({ n: z.coerce.number().int().positive().optional(), json: z.boolean().optional() }).strict();\n`,
        `import * as z from "zod/mini";\nexport const Options = z.strictObject({ n: z.optional(z.coerce.number().check(z.int(), z.positive())), json: z.optional(z.boolean()) });\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "a field's constraints moved into a named schema",
    changes: [
      change(
        "src/opts.ts",
        `import { z } from "zod";\nexport const Options = z.object({ n: z.number().int().positive().optional() });\n`,
        `import { z } from "zod";\nimport { positiveInt } from "./schemas";\nexport const Options = z.object({ n: z.optional(positiveInt) });\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "a field's constraints moved into a helper that builds the schema (ralph's own start.ts: positiveIntOption.check(z.lte(MAX)) -> numberOption({ max: MAX }))",
    changes: [
      change(
        "src/opts.ts",
        `import * as z from "zod/mini";\nimport { positiveIntOption } from "./options";\nexport const Options = z.strictObject({ n: z.optional(positiveIntOption.check(z.lte(MAX))), t: z.optional(positiveIntOption.check(z.gte(100))) });\n`,
        `import * as z from "zod/mini";\nimport { numberOption } from "./options";\nexport const Options = z.strictObject({ n: z.optional(numberOption({ integer: true, min: 1, max: MAX })), t: z.optional(numberOption({ integer: true, min: 100 })) });\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "a field's constraint dropped while it still wraps a zod call (look-alike of the helper case: still flagged)",
    changes: [
      change(
        "src/opts.ts",
        `import * as z from "zod/mini";\nexport const Options = z.strictObject({ n: z.optional(z.number().check(z.lte(10))) });\n`,
        `import * as z from "zod/mini";\nexport const Options = z.strictObject({ n: z.optional(z.number()) });\n`,
      ),
    ],
    findings: ["validation_bypass/high src/opts.ts"],
  },
  {
    name: "an eslint-disable comment edited (same count)",
    changes: [change("src/e.ts", "/* eslint-disable no-console */\nexport const a = 1;\n", "/* eslint-disable no-console, no-alert */\nexport const a = 1;\n")],
    findings: [],
  },
  {
    name: "a guard moved into a private helper method",
    changes: [
      change(
        "src/ky.ts",
        "export class Ky {\n  #retry(delay: number, left: number) {\n    if (delay >= left) throw new TimeoutError(this.request);\n    return delay;\n  }\n}\n",
        "export class Ky {\n  #retry(delay: number, left: number) {\n    this.#checkTimeout(delay, left);\n    return delay;\n  }\n\n  #checkTimeout(ms: number, remaining: number) {\n    if (ms >= remaining) throw new TimeoutError(this.request);\n  }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "a guard moved to a sibling method that the callers now use",
    changes: [
      change(
        "src/ky.ts",
        "export class Ky {\n  run() { return this.#retry(1, 2); }\n  #retry(delay: number, left: number) {\n    if (delay >= left) throw new TimeoutError(this.request);\n    return delay;\n  }\n}\n",
        "export class Ky {\n  run() { return this.#retryFromError(1, 2); }\n  #retry(delay: number) {\n    return delay;\n  }\n  #retryFromError(delay: number, left: number) {\n    if (delay >= left) throw new TimeoutError(this.request);\n    return this.#retry(delay);\n  }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "a guard gone from build output",
    changes: [
      change(
        "dist/cart.js",
        CART.replace(`  if (percent < 0 || percent > 100) throw new RangeError("percent must be within 0..100");\n`, '  if (percent < 0) throw new RangeError("neg");\n'),
        CART.replace(`  if (percent < 0 || percent > 100) throw new RangeError("percent must be within 0..100");\n`, ""),
      ),
    ],
    findings: [],
  },
  { name: "a @ts-expect-error removed", changes: [change(PATH, edit(CART, "  return toSettings(", "  // @ts-expect-error wrong shape\n  return toSettings("), CART)], findings: [] },
  { name: "an as any removed", changes: [change(PATH, edit(CART, "raw as Record<string, unknown>", "raw as any"), CART)], findings: [] },
  { name: "a @ts-ignore that moved lines", changes: [change("src/l.ts", "// @ts-ignore\nexport const a = f();\n", "export const b = 1;\n// @ts-ignore\nexport const a = f();\n")], findings: [] },
  {
    name: "suppressions added in a test file",
    changes: [change("test/cart.test.ts", `it("x", () => { expect(f()).toBe(1); });\n`, `it("x", () => {\n  // @ts-expect-error testing a bad call\n  expect(f(1 as any)).toBe(1);\n});\n`)],
    findings: [],
  },
];

describe("validation_bypass", () => {
  it.each(mustFlag.map((c) => [c.name, c] as const))("flags: %s", async (_, c) => {
    await expectFindings(c);
  });

  it.each(mustNotFlag.map((c) => [c.name, c] as const))("does not flag: %s", async (_, c) => {
    await expectFindings(c);
  });

  it("names the removed guard and its function", async () => {
    const [finding] = await expectFindings(mustFlag[0] as RuleCase);
    expect(finding?.evidence).toMatchObject({ rule: "guard_removed", function: "applyDiscount", action: 'new RangeError("percent must be within 0..100")' });
    expect(finding?.before_line).toBe(10);
  });
});

describe("tsconfig strictness", () => {
  const before = `{\n  // comments and trailing commas are allowed\n  "compilerOptions": { "strict": true, "target": "ES2022", },\n}\n`;
  it.each([
    ['"strict": false', before.replace('"strict": true', '"strict": false'), ["strict"]],
    ['"noImplicitAny": false added', before.replace('"strict": true', '"strict": true, "noImplicitAny": false'), ["noImplicitAny"]],
  ] as const)("flags %s", (_, after, options) => {
    const findings = tsconfigFindings([change("tsconfig.json", before, after)]);
    expect(findings.map((finding) => [finding.type, finding.severity, finding.line])).toEqual([["validation_bypass", "high", 3]]);
    expect(findings[0]?.evidence).toEqual({ rule: "strict_off", options });
  });

  it("runs from analyzeChanges", async () => {
    await expectFindings({ name: "tsconfig", changes: [change("tsconfig.json", before, before.replace('"strict": true', '"strict": false'))], findings: ["validation_bypass/high tsconfig.json"] });
  });

  it.each([
    ["strict turned on", before.replace('"strict": true', '"strict": false'), before, "tsconfig.json"],
    ["another option changed", before, before.replace("ES2022", "ES2023"), "tsconfig.build.json"],
    ["already off", before.replace('"strict": true', '"strict": false'), before.replace('"strict": true', '"strict": false, "outDir": "x"'), "tsconfig.json"],
    ["not a tsconfig", before, before.replace('"strict": true', '"strict": false'), "config/settings.json"],
  ] as const)("does not flag: %s", (_, from, to, path) => {
    expect(tsconfigFindings([change(path, from, to)])).toEqual([]);
  });
});
