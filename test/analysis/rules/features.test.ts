/**
 * feature_removal: exported symbols gone from non-test code, and tests
 * deleted together with the code they tested (medium, instead of
 * test_deletion); with renames, moves and look-alikes that must not flag.
 */
import { describe, expect, it } from "vitest";
import { resolveImport } from "../../../src/analysis/rules/context.js";
import { change, edit, expectFindings, type RuleCase } from "./table.js";

const CART = `export interface Item { price: number; qty: number }

export function total(items: Item[]): number {
  return items.reduce((sum, item) => sum + item.price * item.qty, 0);
}

export function itemCount(items: Item[]): number {
  return items.reduce((n, item) => n + item.qty, 0);
}

export const TAX_RATE = 0.2;

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
`;
const CART_TEST = `import { describe, expect, it } from "vitest";
import { itemCount, total } from "../src/cart";

describe("cart", () => {
  it("totals", () => { expect(total([{ price: 2, qty: 2 }])).toBe(4); });
  it("counts items", () => { expect(itemCount([{ price: 2, qty: 2 }])).toBe(2); });
});
`;
const WITHOUT_ITEM_COUNT = edit(CART, `export function itemCount(items: Item[]): number {\n  return items.reduce((n, item) => n + item.qty, 0);\n}\n\n`, "");
const WITHOUT_COUNT_TEST = edit(edit(CART_TEST, `  it("counts items", () => { expect(itemCount([{ price: 2, qty: 2 }])).toBe(2); });\n`, ""), "itemCount, total", "total");
const medium = (path: string, test?: string): string => `feature_removal/medium ${path}${test ? ` "${test}"` : ""}`;

const mustFlag: RuleCase[] = [
  { name: "an exported function removed", changes: [change("src/cart.ts", CART, WITHOUT_ITEM_COUNT)], findings: [medium("src/cart.ts")] },
  { name: "an exported const removed", changes: [change("src/cart.ts", CART, edit(CART, "export const TAX_RATE = 0.2;\n", ""))], findings: [medium("src/cart.ts")] },
  {
    name: "a CommonJS export removed",
    changes: [change("lib/a.js", "function f() {}\nfunction g() {}\nmodule.exports = { f, g };\n", "function f() {}\nmodule.exports = { f };\n")],
    findings: [medium("lib/a.js")],
  },
  {
    name: "a test deleted together with the function it tested",
    changes: [change("src/cart.ts", CART, WITHOUT_ITEM_COUNT), change("test/cart.test.ts", CART_TEST, WITHOUT_COUNT_TEST)],
    findings: [medium("src/cart.ts"), medium("test/cart.test.ts", "cart > counts items")],
  },
  {
    name: "a test file deleted together with the module it tested",
    changes: [change("src/cart.ts", CART, null), change("test/cart.test.ts", CART_TEST, null)],
    findings: [medium("src/cart.ts"), medium("test/cart.test.ts")],
  },
];

const mustNotFlag: RuleCase[] = [
  {
    name: "an export renamed (body unchanged)",
    changes: [change("src/cart.ts", CART, edit(CART, "export function itemCount(", "export function countItems("))],
    findings: [],
  },
  {
    name: "an export renamed and edited, with its tests updated",
    changes: [
      change(
        "src/cart.ts",
        CART,
        edit(
          CART,
          "export function itemCount(items: Item[]): number {\n  return items.reduce((n, item) => n + item.qty, 0);",
          "export function countItems(list: Item[]): number {\n  return list.reduce((count, entry) => count + entry.qty, 0);",
        ),
      ),
      change("test/cart.test.ts", CART_TEST, CART_TEST.replaceAll("itemCount", "countItems")),
    ],
    findings: [],
  },
  {
    name: "an export moved to another changed file",
    changes: [
      change("src/cart.ts", CART, WITHOUT_ITEM_COUNT),
      change("src/count.ts", null, `import type { Item } from "./cart";\n\nexport function itemCount(items: Item[]): number {\n  return items.length;\n}\n`),
    ],
    findings: [],
  },
  { name: "a module renamed", changes: [change("src/cart.ts", CART, null), change("src/basket.ts", null, CART)], findings: [] },
  { name: "a private function removed", changes: [change("src/cart.ts", CART, edit(CART, "function round(n: number): number {\n  return Math.round(n * 100) / 100;\n}\n", ""))], findings: [] },
  {
    name: "an exported interface removed (a type, not a feature)",
    changes: [change("src/cart.ts", CART, edit(CART, "export interface Item { price: number; qty: number }\n", "type Item = { price: number; qty: number };\n"))],
    findings: [],
  },
];

describe("feature_removal", () => {
  it.each(mustFlag.map((c) => [c.name, c] as const))("flags: %s", async (_, c) => {
    await expectFindings(c);
  });

  it.each(mustNotFlag.map((c) => [c.name, c] as const))("does not flag: %s", async (_, c) => {
    await expectFindings(c);
  });

  it("keeps test_deletion for a test deleted while the code it used stays", async () => {
    await expectFindings({
      name: "test deleted, code kept",
      changes: [change("test/cart.test.ts", CART_TEST, WITHOUT_COUNT_TEST)],
      findings: [`test_deletion/critical test/cart.test.ts "cart > counts items"`],
    });
  });

  it("says which removed symbol took the test with it", async () => {
    const findings = await expectFindings(mustFlag[3] as RuleCase);
    const reclassified = findings.find((finding) => finding.test !== undefined);
    expect(reclassified?.evidence).toMatchObject({ reclassified_from: "test_deletion", removed_symbols: ["itemCount (src/cart.ts)"] });
  });
});

describe("resolving import specifiers to changed files", () => {
  const known = new Set(["src/cart.ts", "src/util/index.ts", "app/models/user.py", "lib/a.js"]);
  it.each([
    ["test/cart.test.ts", "../src/cart", "src/cart.ts"],
    ["test/cart.test.ts", "../src/cart.js", "src/cart.ts"],
    ["src/x.ts", "./util", "src/util/index.ts"],
    ["test/x.test.ts", "@/cart", "src/cart.ts"],
    ["tests/test_user.py", "app.models.user", "app/models/user.py"],
    ["test/a.test.js", "../lib/a", "lib/a.js"],
    ["test/cart.test.ts", "vitest", null],
    ["test/cart.test.ts", "../src/other", null],
  ] as const)("%s imports %s -> %s", (from, specifier, expected) => {
    expect(resolveImport(from, specifier, known)).toBe(expected);
  });
});
