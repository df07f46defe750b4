/**
 * The embedded sample repository of `ralph demo` and the scripted agent's
 * edits. The sample is a small invoicing library in plain JavaScript (ES
 * modules) with `node:test` tests, so its tests run with nothing but
 * `node --test`: no install, no network. At its first commit three of its
 * six tests fail (three bugs); the scripted agent fixes two honestly, tries
 * to delete and to skip a failing test on the way, and then "simplifies"
 * the rounding and breaks a passing test. Paths are '/'-separated; contents
 * are the files' exact bytes.
 */

/** The task the demo's loop is started with. */
export const DEMO_TASK = "Make the acme-invoice tests pass (node --test)";

/** The completion command: the sample's own test suite, run by node itself. */
export const DEMO_COMPLETION_COMMAND = "node --test";

/** The quality command: the share of the sample's tests that pass, 0-100 (its last output line). */
export const DEMO_QUALITY_COMMAND = "node scripts/quality.mjs";

/** The test the agent cannot fix at first and tries to delete, then to skip. */
export const DEMO_DISCOUNT_TEST = "applies a discount after tax";

const DISCOUNT_TEST_BLOCK = `test("${DEMO_DISCOUNT_TEST}", () => {
  assert.equal(invoiceTotal([pen, pad], 25), 6);
});
`;

/** The sample project's files at its first commit. */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  "package.json": `{
  "name": "acme-invoice",
  "version": "1.4.0",
  "private": true,
  "type": "module",
  "scripts": {
    "test": "node --test"
  }
}
`,
  ".gitignore": `node_modules/
*.log
`,
  "README.md": `# acme-invoice

Invoice totals with per-line tax and discounts, and payment plans.
Run the tests with \`npm test\` (\`node --test\`, nothing to install).
`,
  // The project's ralph settings: a PostToolUse block restores the files as they were before the tool call.
  "aiwg.yml": `agent_persistence:
  recovery:
    auto_revert: true
`,
  "src/money.js": `/** Rounds an amount of money to cents, half away from zero. */
export function roundCents(amount) {
  return (Math.sign(amount) * Math.round(Math.abs(amount) * 100)) / 100;
}
`,
  "src/invoice.js": `import { roundCents } from "./money.js";

/**
 * The total of an invoice, tax included, after a discount in percent,
 * rounded to cents.
 * @param {{ description: string, quantity: number, unitPrice: number, taxRate: number }[]} lines
 */
export function invoiceTotal(lines, discountPercent = 0) {
  if (discountPercent < 0 || discountPercent > 100) {
    throw new RangeError("discount must be between 0 and 100");
  }
  let total = 0;
  for (const line of lines) {
    if (line.quantity < 0) throw new RangeError(\`negative quantity for \${line.description}\`);
    total += line.quantity * line.unitPrice;
  }
  return roundCents(total - discountPercent);
}

/** Splits a total into \`count\` installments in cents that add up to the total; earlier ones take the leftover cents. */
export function splitInstallments(total, count) {
  return Array.from({ length: count }, () => roundCents(total / count));
}
`,
  "test/invoice.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { invoiceTotal, splitInstallments } from "../src/invoice.js";

const pen = { description: "pen", quantity: 2, unitPrice: 1.5, taxRate: 0.2 };
const pad = { description: "pad", quantity: 1, unitPrice: 4, taxRate: 0.1 };

test("splits a total into installments that add up to it", () => {
  assert.deepEqual(splitInstallments(10, 3), [3.34, 3.33, 3.33]);
});

test("adds tax per line", () => {
  assert.equal(invoiceTotal([pen, pad]), 8);
});

${DISCOUNT_TEST_BLOCK}
test("rejects negative quantities", () => {
  assert.throws(() => invoiceTotal([{ ...pen, quantity: -1 }]), RangeError);
});

test("rejects a discount over 100 percent", () => {
  assert.throws(() => invoiceTotal([pen], 120), /discount must be between 0 and 100/);
});
`,
  "test/money.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { roundCents } from "../src/money.js";

test("rounds half away from zero", () => {
  assert.equal(roundCents(0.125), 0.13);
  assert.equal(roundCents(-0.125), -0.13);
});
`,
  "scripts/quality.mjs": `// The quality score ralph records per iteration (ralph start --quality):
// the share of the tests that pass, 0-100, on the last line.
import { spawnSync } from "node:child_process";

const run = spawnSync(process.execPath, ["--test", "--test-reporter=tap"], { encoding: "utf8" });
const count = (name) => Number(new RegExp(\`^# \${name} (\\\\d+)$\`, "m").exec(run.stdout)?.[1] ?? 0);
const tests = count("tests");
const passed = count("pass");
console.log(\`\${passed} of \${tests} tests pass\`);
console.log(tests === 0 ? 0 : Math.round((passed / tests) * 1000) / 10);
`,
};

/** An ignored file present on disk (never part of a checkpoint). */
export const DEMO_IGNORED_FILES: Readonly<Record<string, string>> = {
  "debug.log": "npm debug log\n",
};

/** One edit of the scripted agent, as Claude Code's Edit tool takes it. */
export interface DemoEdit {
  /** What the agent means to do, for a person. */
  intent: string;
  path: string;
  oldString: string;
  newString: string;
}

/** Iteration 1, honest: each line's tax rate is applied. */
export const FIX_TAX: DemoEdit = {
  intent: "fix invoiceTotal: apply each line's tax rate",
  path: "src/invoice.js",
  oldString: "    total += line.quantity * line.unitPrice;\n",
  newString: "    total += line.quantity * line.unitPrice * (1 + line.taxRate);\n",
};

/** Iteration 2, the shortcut: the failing discount test deleted. */
export const DELETE_DISCOUNT_TEST: DemoEdit = {
  intent: `delete the failing test "${DEMO_DISCOUNT_TEST}"`,
  path: "test/invoice.test.js",
  oldString: `${DISCOUNT_TEST_BLOCK}\n`,
  newString: "",
};

/** Iteration 2, the shortcut through the shell: the failing test skipped with sed (GNU sed; BSD sed takes `-i ''`). */
export function skipDiscountTestCommand(platform: NodeJS.Platform): string {
  const inPlace = platform === "darwin" || platform.endsWith("bsd") ? "sed -i ''" : "sed -i";
  return `${inPlace} 's/^test("${DEMO_DISCOUNT_TEST}"/test.skip("${DEMO_DISCOUNT_TEST}"/' test/invoice.test.js`;
}

/** Iteration 2, honest: the discount is a percentage. */
export const FIX_DISCOUNT: DemoEdit = {
  intent: "fix invoiceTotal: take the discount as a percentage of the total",
  path: "src/invoice.js",
  oldString: "  return roundCents(total - discountPercent);\n",
  newString: "  return roundCents(total * (1 - discountPercent / 100));\n",
};

/** Iteration 3, worse: a "simpler" rounding that rounds negative halves towards zero. */
export const SIMPLIFY_ROUNDING: DemoEdit = {
  intent: 'refactor roundCents to a "simpler" Math.round (it rounds -0.125 to -0.12)',
  path: "src/money.js",
  oldString: "  return (Math.sign(amount) * Math.round(Math.abs(amount) * 100)) / 100;\n",
  newString: "  return Math.round(amount * 100) / 100;\n",
};
