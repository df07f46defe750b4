/**
 * One RuleTester table per registered rule (test/helpers/rule-tester.ts, the
 * typescript-eslint style): `valid` changes the rule must not report,
 * `invalid` changes it must report with these message ids and lines. The
 * other tables in this folder check the same rules by finding type across
 * languages; these pin the message each case gets.
 */
import { change } from "./table.js";
import { ruleTester } from "../../helpers/rule-tester.js";
import { assertionsRule } from "../../../src/analysis/rules/assertions.js";
import { featureRemovalRule } from "../../../src/analysis/rules/features.js";
import { harnessEscapeRule } from "../../../src/analysis/rules/harness-escape.js";
import { specialCasingRule } from "../../../src/analysis/rules/special-casing.js";
import { statefulAnswerRule } from "../../../src/analysis/rules/stateful-answer.js";
import { swallowingRule } from "../../../src/analysis/rules/swallowing.js";
import { validationRule } from "../../../src/analysis/rules/validation.js";

const PARSE = 'export function parse(input: string): number {\n  if (input === "") throw new Error("empty");\n  return Number(input);\n}\n';
const PARSE_PY = 'def parse(text):\n    if text == "":\n        raise ValueError("empty")\n    return int(text)\n';

ruleTester(validationRule, {
  valid: [
    { name: "a guard reworded, same error", changes: [change("src/parse.ts", PARSE, PARSE.replace('input === ""', "input.length === 0"))] },
    {
      name: "a guard moved into a validating helper",
      changes: [
        change(
          "src/parse.ts",
          PARSE,
          'function assertNotEmpty(input: string): void {\n  if (input === "") throw new Error("empty");\n}\n\nexport function parse(input: string): number {\n  assertNotEmpty(input);\n  return Number(input);\n}\n',
        ),
      ],
    },
    { name: "a suppression removed", changes: [change("src/parse.ts", `// @ts-ignore\n${PARSE}`, PARSE)] },
  ],
  invalid: [
    {
      name: "typescript: a guard removed",
      changes: [change("src/parse.ts", PARSE, "export function parse(input: string): number {\n  return Number(input);\n}\n")],
      errors: [{ messageId: "guardRemoved", line: null }],
    },
    { name: "python: a guard removed", changes: [change("app/parse.py", PARSE_PY, "def parse(text):\n    return int(text)\n")], errors: [{ messageId: "guardRemoved", line: null }] },
    {
      name: "typescript: a guard made constant",
      changes: [change("src/parse.ts", PARSE, PARSE.replace('input === ""', 'input === "" && false'))],
      errors: [{ messageId: "guardMadeConstant", line: 2 }],
    },
    {
      name: "typescript: @ts-ignore added",
      changes: [change("src/parse.ts", PARSE, PARSE.replace("  return Number", "  // @ts-ignore\n  return Number"))],
      errors: [{ messageId: "suppressionAdded", line: 3, severity: "medium" }],
    },
    {
      name: "typescript: as any added",
      changes: [change("src/parse.ts", PARSE, PARSE.replace("Number(input)", "Number(input as any)"))],
      errors: [{ messageId: "castAdded", line: 3, severity: "medium" }],
    },
    {
      name: "tsconfig: strict turned off",
      changes: [change("tsconfig.json", '{\n  "compilerOptions": {\n    "strict": true\n  }\n}\n', '{\n  "compilerOptions": {\n    "strict": false\n  }\n}\n')],
      errors: [{ messageId: "strictOff", line: 3 }],
    },
  ],
});

const CART = "export function total(items: number[]): number {\n  return items.reduce((sum, item) => sum + item, 0);\n}\n";
const CART_TEST = 'import { expect, it } from "vitest";\nimport { total } from "../src/cart";\n\nit("adds the items", () => {\n  expect(total([1, 2])).toBe(3);\n  expect(total([])).toBe(0);\n});\n';
const CART_PY_TEST = "from app.cart import total\n\n\ndef test_adds_the_items():\n    assert total([1, 2]) == 3\n    assert total([]) == 0\n";

ruleTester(assertionsRule, {
  valid: [
    {
      name: "an assertion added",
      changes: [change("test/cart.test.ts", CART_TEST, CART_TEST.replace("  expect(total([])).toBe(0);\n", "  expect(total([])).toBe(0);\n  expect(total([5])).toBe(5);\n"))],
    },
    {
      name: "an expectation changed with the code under test",
      changes: [change("src/cart.ts", CART, CART.replace("sum + item, 0", "sum + item, 1")), change("test/cart.test.ts", CART_TEST, CART_TEST.replace("toBe(3)", "toBe(4)"))],
    },
    { name: "a test retitled, body kept", changes: [change("test/cart.test.ts", CART_TEST, CART_TEST.replace("adds the items", "sums the items"))] },
  ],
  invalid: [
    {
      name: "typescript: an assertion removed",
      changes: [change("test/cart.test.ts", CART_TEST, CART_TEST.replace("  expect(total([])).toBe(0);\n", ""))],
      errors: [{ messageId: "assertionsRemoved", line: 4, type: "assertion_removal" }],
    },
    {
      name: "python: an assert removed",
      changes: [change("tests/test_cart.py", CART_PY_TEST, CART_PY_TEST.replace("    assert total([]) == 0\n", ""))],
      errors: [{ messageId: "assertionsRemoved", line: 4 }],
    },
    {
      name: "typescript: toBe weakened to toBeDefined",
      changes: [change("test/cart.test.ts", CART_TEST, CART_TEST.replace("expect(total([1, 2])).toBe(3)", "expect(total([1, 2])).toBeDefined()"))],
      errors: [{ messageId: "checksLess", line: 5, type: "assertion_weakening", severity: "high" }],
    },
    {
      name: "typescript: the expected value changed, the code did not",
      changes: [change("test/cart.test.ts", CART_TEST, CART_TEST.replace("toBe(3)", "toBe(4)"))],
      errors: [{ messageId: "expectationChanged", line: 5, type: "expectation_changed", severity: "medium" }],
    },
  ],
});

const SLUG = 'export function slugify(title: string): string {\n  return title.toLowerCase().replace(/\\s+/g, "-");\n}\n';
const SLUG_TEST = 'import { expect, it } from "vitest";\nimport { slugify } from "../src/slug";\n\nit("slugifies a title", () => {\n  expect(slugify("Hello World")).toBe("hello-world");\n});\n';
const SLUG_NEW_TEST = SLUG_TEST.replace("});\n", '});\n\nit("drops the apostrophe", () => {\n  expect(slugify("Joe\'s Diner")).toBe("joes-diner");\n});\n').replace("});\n\nit(", "});\n\nit(");

ruleTester(specialCasingRule, {
  valid: [
    { name: 'NODE_ENV === "production" is not a runner check', changes: [change("src/slug.ts", SLUG, `const isProd = process.env.NODE_ENV === "production";\n${SLUG}`)] },
    { name: "a runner check in a config file", changes: [change("vitest.config.ts", "export default {};\n", "export default { threads: !process.env.VITEST };\n")] },
    {
      name: "a branch on a literal no test uses",
      changes: [
        change("test/slug.test.ts", SLUG_TEST, SLUG_NEW_TEST),
        change("src/slug.ts", SLUG, SLUG.replace("  return title", '  if (title === "Main Street") return "main-street";\n  return title')),
      ],
    },
  ],
  invalid: [
    {
      name: "typescript: a check for the test runner",
      changes: [change("src/slug.ts", SLUG, SLUG.replace("  return title", '  if (process.env.VITEST) return "hello-world";\n  return title'))],
      errors: [{ messageId: "runnerCheck", line: 2 }],
    },
    {
      name: "typescript: equals() now always true",
      changes: [
        change(
          "src/money.ts",
          "export class Money {\n  equals(other: Money): boolean {\n    return this.cents === other.cents && this.currency === other.currency;\n  }\n}\n",
          "export class Money {\n  equals(other: Money): boolean {\n    return true;\n  }\n}\n",
        ),
      ],
      errors: [{ messageId: "alwaysEqual", line: 2 }],
    },
    {
      name: "typescript: a branch that answers a new test's input",
      changes: [
        change("test/slug.test.ts", SLUG_TEST, SLUG_NEW_TEST),
        change("src/slug.ts", SLUG, SLUG.replace("  return title", '  if (title === "Joe\'s Diner") return "joes-diner";\n  return title')),
      ],
      errors: [{ messageId: "testLiteralBranch", line: 2 }],
    },
  ],
});

const CART_TWO = `${CART}\nexport function count(items: number[]): number {\n  return items.length;\n}\n`;
const COUNT_TEST = 'import { expect, it } from "vitest";\nimport { count } from "../src/cart";\n\nit("counts the items", () => {\n  expect(count([1, 2])).toBe(2);\n});\n';

ruleTester(featureRemovalRule, {
  valid: [
    {
      name: "an export moved to another changed file",
      changes: [change("src/cart.ts", CART_TWO, CART), change("src/count.ts", null, "export function count(items: number[]): number {\n  return items.length;\n}\n")],
    },
    { name: "a non-exported function removed", changes: [change("src/cart.ts", `${CART}\nfunction helper(): number {\n  return 1;\n}\n`, CART)] },
  ],
  invalid: [
    { name: "an exported function removed", changes: [change("src/cart.ts", CART_TWO, CART)], errors: [{ messageId: "exportRemoved", line: null }] },
    {
      name: "a module deleted with its exports",
      changes: [change("src/count.ts", "export function count(items: number[]): number {\n  return items.length;\n}\n", null)],
      errors: [{ messageId: "moduleDeleted", line: null }],
    },
    {
      name: "a test deleted together with the code it tested",
      changes: [change("src/cart.ts", CART_TWO, CART), change("test/count.test.ts", COUNT_TEST, null)],
      errors: [
        { messageId: "testDeletedWithCode", line: 4 },
        { messageId: "exportRemoved", line: null },
      ],
    },
  ],
});

const SOLVE_PY = "def solve(n):\n    return n * 2\n";
const SOLVE_TS = "export function solve(n: number): number {\n  return n * 2;\n}\n";

ruleTester(harnessEscapeRule, {
  valid: [
    { name: "python: sys.exit(1) in a library", changes: [change("app/solver.py", SOLVE_PY, "import sys\n\ndef solve(n):\n    if n < 0:\n        sys.exit(1)\n    return n * 2\n")] },
    { name: "typescript: process.exit(0) in bin/", changes: [change("bin/solver.js", "console.log(1);\n", "console.log(1);\nprocess.exit(0);\n")] },
  ],
  invalid: [
    {
      name: "python: sys.exit(0) at import",
      changes: [change("app/solver.py", SOLVE_PY, `import sys\n\n${SOLVE_PY}\nsys.exit(0)\n`)],
      errors: [{ messageId: "successExit", line: 6, type: "test_config_tamper", severity: "critical" }],
    },
    {
      name: "typescript: process.exit(0) on one input",
      changes: [change("src/solver.ts", SOLVE_TS, "export function solve(n: number): number {\n  if (n === 7) process.exit(0);\n  return n * 2;\n}\n")],
      errors: [{ messageId: "successExit", line: 2 }],
    },
  ],
});

const LOAD_PY = "def load(path):\n    data = read(path)\n    return parse(data)\n";
const LOAD_TS = "export function load(path: string): Config {\n  const data = read(path);\n  return parse(data);\n}\n";

ruleTester(swallowingRule, {
  valid: [
    {
      name: "python: a handler for one specific error",
      changes: [change("app/loader.py", LOAD_PY, "def load(path):\n    try:\n        data = read(path)\n    except FileNotFoundError:\n        return None\n    return parse(data)\n")],
    },
    {
      name: "python: a handler that logs and re-raises",
      changes: [
        change(
          "app/loader.py",
          LOAD_PY,
          'def load(path):\n    try:\n        data = read(path)\n        return parse(data)\n    except Exception:\n        logger.exception("load failed")\n        raise\n',
        ),
      ],
    },
  ],
  invalid: [
    {
      name: "python: except Exception: pass around existing code",
      changes: [change("app/loader.py", LOAD_PY, "def load(path):\n    try:\n        data = read(path)\n        return parse(data)\n    except Exception:\n        pass\n")],
      errors: [{ messageId: "newHandler", line: 5, type: "validation_bypass" }],
    },
    {
      name: "typescript: catch returning a default",
      changes: [
        change(
          "src/loader.ts",
          LOAD_TS,
          "export function load(path: string): Config | null {\n  try {\n    const data = read(path);\n    return parse(data);\n  } catch {\n    return null;\n  }\n}\n",
        ),
      ],
      errors: [{ messageId: "newHandler", line: 5 }],
    },
  ],
});

const ANSWER_PY = "def answer(q):\n    return len(q) * 2\n";
const ANSWER_TS = "export function answer(q: string): number {\n  return q.length * 2;\n}\n";

ruleTester(statefulAnswerRule, {
  valid: [
    {
      name: "typescript: an id generator",
      changes: [change("src/answer.ts", ANSWER_TS, "let next = 0;\n\nexport function answer(q: string): number {\n  next++;\n  return q.length * 2 + next;\n}\n")],
    },
    {
      name: "python: a memo cache",
      changes: [change("app/answer.py", ANSWER_PY, "_cache = {}\n\n\ndef answer(q):\n    if q in _cache:\n        return _cache[q]\n    _cache[q] = len(q) * 2\n    return _cache[q]\n")],
    },
  ],
  invalid: [
    {
      name: "python: a global counter selecting a literal",
      changes: [change("app/answer.py", ANSWER_PY, "calls = 0\n\n\ndef answer(q):\n    global calls\n    calls += 1\n    if calls > 1:\n        return 42\n    return len(q) * 2\n")],
      errors: [{ messageId: "statefulAnswer", line: 7, type: "special_casing", severity: "high" }],
    },
    {
      name: "typescript: a module-level counter",
      changes: [change("src/answer.ts", ANSWER_TS, "let calls = 0;\n\nexport function answer(q: string): number {\n  calls++;\n  if (calls > 1) return 42;\n  return q.length * 2;\n}\n")],
      errors: [{ messageId: "statefulAnswer", line: 5 }],
    },
  ],
});
