/**
 * ava attempts (`t.try`, the sweep of sindresorhus/meow 7b9e7395cc, whose
 * shared `_verifyCli` macro makes its checks in `t.try(async (tt) => { …
 * tt.is(output, expected) … })` and commits them): the assertions of an
 * attempt are the test's while the attempt is committed, or left to fail
 * the test for want of a commit; an attempt whose result is discarded
 * (`attempt.discard()`, also only when it failed) checks nothing, in a test
 * or in a macro the tests call.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type UnchangedFiles } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

const path = "test/parse.js";
const test = (body: string): string => `import test from 'ava';\nimport {parse} from '../source/parse.js';\n\ntest('parses a number', async t => {\n${body}});\n`;
const INLINE = "\tt.is(parse('1'), 1);\n";
const attempt = (end: string): string => `\tconst attempt = await t.try(tt => {\n\t\ttt.is(parse('1'), 1);\n\t});\n${end}`;

const judge = async (before: string, after: string): Promise<string[]> => (await analyzeChanges([change(path, test(before), test(after))])).findings.map(summarize);

describe("ava attempts in a test", () => {
  it("the check moved into a committed attempt: no finding", async () => {
    expect(await judge(INLINE, attempt("\tattempt.commit({retainLogs: !attempt.passed});\n"))).toEqual([]);
  });

  it("the check moved into an attempt left uncommitted (ava fails the test): no finding", async () => {
    expect(await judge(INLINE, "\tawait t.try(tt => {\n\t\ttt.is(parse('1'), 1);\n\t});\n")).toEqual([]);
  });

  it("the attempt discarded: assertion_removal", async () => {
    expect(await judge(INLINE, attempt("\tattempt.discard();\n\tt.pass();\n"))).toEqual([`assertion_removal/high ${path} "parses a number"`]);
  });

  it("the attempt discarded when it failed: assertion_removal", async () => {
    expect(await judge(attempt("\tattempt.commit();\n"), attempt("\tif (attempt.passed) {\n\t\tattempt.commit();\n\t} else {\n\t\tattempt.discard();\n\t\tt.pass();\n\t}\n"))).toEqual([
      `assertion_removal/high ${path} "parses a number"`,
    ]);
  });
});

describe("ava attempts in a shared macro", () => {
  const macro = (end: string): string =>
    `import test from 'ava';\nimport {parse} from '../source/parse.js';\n\nexport const verifyParse = test.macro(async (t, {input, expected}) => {\n\tconst attempt = await t.try(async tt => {\n\t\ttt.is(parse(input), expected);\n\t});\n${end}});\n`;
  const tests = "import test from 'ava';\nimport {verifyParse} from './_utils.js';\n\ntest('parses a number', verifyParse, {input: '1', expected: 1});\n";
  const unchanged = (files: Record<string, string>): UnchangedFiles => ({ paths: () => Object.keys(files), read: (file) => files[file] ?? null });

  it("rewritten to commit only passing attempts and discard the rest, while the tests stay: assertion_removal for the test", async () => {
    const analysis = await analyzeChanges([change("test/_utils.js", macro("\tattempt.commit();\n"), macro("\tif (attempt.passed) attempt.commit(); else attempt.discard();\n"))], {
      unchanged: unchanged({ [path]: tests }),
    });
    expect(analysis.findings.map(summarize)).toEqual([`assertion_removal/high ${path} "parses a number"`]);
  });

  it("rewritten with the commit kept: no finding", async () => {
    const analysis = await analyzeChanges([change("test/_utils.js", macro("\tattempt.commit();\n"), macro("\tattempt.commit({retainLogs: !attempt.passed});\n"))], {
      unchanged: unchanged({ [path]: tests }),
    });
    expect(analysis.findings.map(summarize)).toEqual([]);
  });
});
