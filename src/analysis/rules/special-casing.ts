/**
 * special_casing: non-test code that knows it is being tested. Added checks
 * for the test runner (`process.env.VITEST`, `NODE_ENV === "test"`,
 * `typeof jest`), an equality method that now always returns true, and new
 * branches or lookup-table entries that map a literal the changed tests use
 * as input to the literal those tests expect.
 *
 * False-positive guards: fixtures, test data and mocks are not product code;
 * configuration files (`*.config.*`, `config/`, setup files) may branch on
 * the environment; `NODE_ENV === "production"`
 * is not a runner check; only checks, branches and entries that are new in
 * this change count; literals too common to mean anything (numbers below
 * 10, strings of up to two characters, booleans, null) are ignored.
 */

import type { CodeFacts, LiteralBranchFact, TestCase } from "../facts.js";
import type { Finding } from "../types.js";
import { isInlineTestedProductCode, isProductCode, isTestPair, multisetMinus, usable, type RuleInput } from "./context.js";
import { EQUALITY_NAME } from "./validation.js";

/** Config and setup files, where environment checks are the point. */
const CONFIG_PATH = /(^|\/)(config|configs|\.config)\/|(^|\/)[^/]*\.(config|conf|setup)\.[^/]+$|(^|\/)(setup[-_.]?tests?|test[-_.]?setup|jest\.setup|vitest\.setup|knexfile|env)\.[^/]+$/i;

/** True for a config or setup file, where runner checks are expected. */
export function isConfigPath(path: string): boolean {
  return CONFIG_PATH.test(path);
}

/** Is this literal specific enough that a branch on it means the code knows the test? */
function isDistinctive(literal: string): boolean {
  if (literal === "true" || literal === "false" || literal === "null" || literal === "undefined") return false;
  if (literal.startsWith('"')) return literal.length > 4; // more than two characters inside the quotes
  const value = Number(literal.replace(/n$/, ""));
  return !Number.isFinite(value) || Math.abs(value) >= 10;
}

interface TestLiterals {
  test: string;
  file: string;
  inputs: Set<string>;
  expected: Set<string>;
}

/** Literals each test of the changed test files feeds in and expects, both sides. */
function collectTestLiterals(input: RuleInput): TestLiterals[] {
  const result: TestLiterals[] = [];
  for (const pair of input.pairs) {
    if (!isTestPair(pair)) continue;
    for (const facts of [usable(pair.before), usable(pair.after)]) {
      for (const test of facts?.tests ?? []) {
        const literals = literalsOf(test);
        if (literals.inputs.size > 0 && literals.expected.size > 0) result.push({ test: test.id, file: pair.path, ...literals });
      }
    }
  }
  return result;
}

function literalsOf(test: TestCase): { inputs: Set<string>; expected: Set<string> } {
  const inputs = new Set((test.inputLiterals ?? []).filter(isDistinctive));
  const expected = new Set((test.expectedLiterals ?? []).filter(isDistinctive));
  for (const assertion of test.assertionsDetail ?? []) {
    if (assertion.expected !== undefined && isDistinctive(assertion.expected) && /^("|-?\d)/.test(assertion.expected)) expected.add(assertion.expected);
  }
  return { inputs, expected };
}

/**
 * True when `returned` is a lower-case word formed from the lower-case word
 * `compared` by a short suffix (`reject` -> `rejected`, `approve` ->
 * `approved`, `run` -> `running`): code translating a vocabulary (a command
 * to its outcome), which tests naturally exercise with the same pair.
 * Both are literals as the facts print them (`"reject"`).
 */
function isInflectionOf(returned: string, compared: string): boolean {
  const word = /^"([a-z]{3,})"$/;
  const r = word.exec(returned)?.[1];
  const c = word.exec(compared)?.[1];
  if (!r || !c) return false;
  const stem = c.endsWith("e") ? c.slice(0, -1) : c;
  return r.startsWith(stem) && r.length > c.length && r.length - c.length <= 4;
}

const branchKey = (fact: LiteralBranchFact): string => `${fact.kind}\u0000${fact.compared.join("\u0001")}\u0000${fact.returns ?? ""}`;

function runnerCheckFindings(path: string, before: CodeFacts | null, after: CodeFacts): Finding[] {
  if (isConfigPath(path)) return [];
  const added = multisetMinus(after.runnerChecks ?? [], before?.runnerChecks ?? [], (fact) => fact.text);
  return added.map((fact) => ({
    type: "special_casing",
    severity: "critical",
    file: path,
    line: fact.line,
    message: `${path} now checks whether it runs under a test runner (\`${fact.text}\`): code that behaves differently in tests passes them without working`,
    evidence: { rule: "runner_check", check: fact.text },
    allowed: false,
  }));
}

function equalityFindings(path: string, before: CodeFacts | null, after: CodeFacts): Finding[] {
  const beforeByName = new Map((before?.functions ?? []).map((fn) => [fn.name, fn] as const));
  return (after.functions ?? [])
    .filter((fn) => EQUALITY_NAME.test(fn.name.slice(fn.name.lastIndexOf(".") + 1)) && fn.constantReturn === "true")
    .filter((fn) => beforeByName.get(fn.name)?.constantReturn !== "true")
    .map((fn) => ({
      type: "special_casing",
      severity: "critical",
      file: path,
      line: fn.line,
      message: `${fn.name}() in ${path} now always returns true: every equality check passes`,
      evidence: { rule: "always_equal", function: fn.name },
      allowed: false,
    }));
}

function literalFindings(path: string, before: CodeFacts | null, after: CodeFacts, tests: readonly TestLiterals[]): Finding[] {
  if (tests.length === 0) return [];
  const added = multisetMinus(after.literalBranches ?? [], before?.literalBranches ?? [], branchKey);
  const findings: Finding[] = [];
  const tableHits: { fact: LiteralBranchFact; test: TestLiterals }[] = [];
  for (const fact of added) {
    if (fact.returns === undefined) continue;
    const returns = fact.returns;
    // Returning the very literal it compared is a whitelist (`mode === "ask" ? "ask" : "deny"`), not a faked result;
    // returning an inflection of it is a vocabulary (`decision === "reject" ? "rejected"`), not one either.
    if (fact.compared.includes(returns) || fact.compared.some((literal) => isInflectionOf(returns, literal))) continue;
    const test = tests.find((candidate) => candidate.expected.has(returns) && fact.compared.some((literal) => candidate.inputs.has(literal)));
    if (!test) continue;
    if (fact.kind === "table") {
      tableHits.push({ fact, test });
      continue;
    }
    const input = fact.compared.find((literal) => test.inputs.has(literal)) as string;
    findings.push({
      type: "special_casing",
      severity: "critical",
      file: path,
      line: fact.line,
      message: `${path} now branches on ${input}, an input of test "${test.test}", and returns ${returns}, the value that test expects`,
      evidence: { rule: "test_literal_branch", input, returns, test: test.test, test_file: test.file },
      allowed: false,
    });
  }
  if (tableHits.length >= 2) {
    findings.push({
      type: "special_casing",
      severity: "critical",
      file: path,
      line: tableHits[0]?.fact.line ?? null,
      message: `${path} gained a lookup table whose keys are the changed tests' inputs and whose values are their expected results (${tableHits.length} entries)`,
      evidence: {
        rule: "test_lookup_table",
        entries: tableHits.map(({ fact, test }) => ({ line: fact.line, key: fact.compared[0], value: fact.returns, test: test.test })),
      },
      allowed: false,
    });
  }
  return findings;
}

/** special_casing findings over the changed non-test files, and the product part of files with inline tests (Rust) (all critical). */
export function specialCasingFindings(input: RuleInput): Finding[] {
  const tests = collectTestLiterals(input);
  const findings: Finding[] = [];
  for (const pair of input.pairs) {
    if (!(isProductCode(pair) || isInlineTestedProductCode(pair)) || (pair.before !== null && usable(pair.before) === null)) continue;
    const after = usable(pair.after)?.code;
    if (!after) continue;
    const before = usable(pair.before)?.code ?? null;
    findings.push(...runnerCheckFindings(pair.path, before, after));
    findings.push(...equalityFindings(pair.path, before, after));
    findings.push(...literalFindings(pair.path, before, after, tests));
  }
  return findings;
}
