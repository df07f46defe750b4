/**
 * The embedded sample repository of `ralph demo`: a small TypeScript
 * invoicing library with Vitest tests, an ignored `node_modules/` and an
 * untracked scratch file, as a real project would have. Paths are
 * '/'-separated; contents are the files' exact bytes.
 */

/** The sample project's files at its first commit. */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  "package.json": `{
  "name": "acme-invoice",
  "version": "1.4.0",
  "type": "module",
  "scripts": {
    "test": "vitest run"
  },
  "devDependencies": {
    "vitest": "4.1.12"
  }
}
`,
  ".gitignore": `node_modules/
dist/
*.log
`,
  "README.md": `# acme-invoice

Invoice totals with per-line tax and discounts.
`,
  "src/money.ts": `/** Rounds an amount of money to cents, half away from zero. */
export function roundCents(amount: number): number {
  return Math.sign(amount) * Math.round(Math.abs(amount) * 100) / 100;
}
`,
  "src/invoice.ts": `import { roundCents } from "./money.js";

export interface Line {
  description: string;
  quantity: number;
  unitPrice: number;
  taxRate: number;
}

/** The total of an invoice, tax included, rounded to cents. */
export function invoiceTotal(lines: Line[], discountPercent = 0): number {
  if (discountPercent < 0 || discountPercent > 100) {
    throw new RangeError("discount must be between 0 and 100");
  }
  let total = 0;
  for (const line of lines) {
    if (line.quantity < 0) throw new RangeError(\`negative quantity for \${line.description}\`);
    total += line.quantity * line.unitPrice * (1 + line.taxRate);
  }
  return roundCents(total * (1 - discountPercent / 100));
}
`,
  "test/invoice.test.ts": `import { describe, expect, it } from "vitest";
import { invoiceTotal } from "../src/invoice.js";

const pen = { description: "pen", quantity: 2, unitPrice: 1.5, taxRate: 0.2 };
const pad = { description: "pad", quantity: 1, unitPrice: 4, taxRate: 0.1 };

describe("invoiceTotal", () => {
  it("adds tax per line", () => {
    expect(invoiceTotal([pen, pad])).toBe(8);
  });

  it("applies a discount after tax", () => {
    expect(invoiceTotal([pen, pad], 25)).toBe(6);
  });

  it("rejects negative quantities", () => {
    expect(() => invoiceTotal([{ ...pen, quantity: -1 }])).toThrow(RangeError);
  });

  it("rejects a discount over 100 percent", () => {
    expect(() => invoiceTotal([pen], 120)).toThrow("discount must be between 0 and 100");
  });
});
`,
  "test/money.test.ts": `import { describe, expect, it } from "vitest";
import { roundCents } from "../src/money.js";

describe("roundCents", () => {
  it("rounds half away from zero", () => {
    expect(roundCents(0.125)).toBe(0.13);
    expect(roundCents(-0.125)).toBe(-0.13);
  });
});
`,
};

/** Ignored files present on disk (never part of a checkpoint). */
export const DEMO_IGNORED_FILES: Readonly<Record<string, string>> = {
  "node_modules/vitest/package.json": `{ "name": "vitest", "version": "4.1.12" }\n`,
  "debug.log": "npm debug log\n",
};

/** An untracked file that is not ignored (part of every checkpoint). */
export const DEMO_UNTRACKED_FILES: Readonly<Record<string, string>> = {
  "notes/todo.md": "- support credit notes\n",
};

/**
 * What the simulated agent does in the demo: it cannot make the negative
 * quantity test pass after breaking the guard, so it deletes the test.
 */
export const DEMO_AGENT_EDIT = {
  "src/invoice.ts": (text: string): string => text.replace(/ {4}if \(line\.quantity < 0\)[^\n]*\n/, ""),
  "test/invoice.test.ts": (text: string): string =>
    text.replace(/\n {2}it\("rejects negative quantities", \(\) => \{\n[^\n]*\n {2}\}\);\n/, "\n"),
} as const;
