/**
 * A rule tester in the typescript-eslint RuleTester style
 * (https://typescript-eslint.io/packages/rule-tester): per registered rule
 * (src/analysis/rules/registry.ts defineRule), `valid` cases that must make
 * the rule report nothing and `invalid` cases that must make it report
 * exactly the listed errors, each a message id and a line (and, optionally,
 * the file and the finding type/severity the message resolves to).
 *
 * A case is a set of changed files run through analyzeChanges, the whole
 * pipeline (facts, test matching, the rule input compare.ts builds), so a
 * case tests the rule as a user meets it; only the findings the rule under
 * test reported are compared (registry.ts reportedAs), so another rule
 * firing on the same change does not disturb the table.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type FileChange, type Finding, type FindingType, type Severity } from "../../src/analysis/index.js";
import { reportedAs, type Rule } from "../../src/analysis/rules/registry.js";

/** One expected report of an invalid case. `line` null = a whole-file finding. */
export interface ExpectedError<Ids extends string> {
  messageId: Ids;
  line: number | null;
  file?: string;
  type?: FindingType;
  severity?: Severity;
}

/** A case: a name and the changed files (null = absent on that side). */
export interface ValidCase {
  name: string;
  changes: FileChange[];
}

/** A case the rule must report: its expected errors, in any order. */
export interface InvalidCase<Ids extends string> extends ValidCase {
  errors: ExpectedError<Ids>[];
}

/** The tables of one rule. */
export interface RuleTests<Ids extends string> {
  valid: ValidCase[];
  invalid: InvalidCase<Ids>[];
}

/** What one reported finding looks like to a table: only the fields the expected error names. */
function shapeOf<Ids extends string>(finding: Finding, expected: ExpectedError<Ids> | undefined, messageId: string): Record<string, unknown> {
  const shape: Record<string, unknown> = { messageId, line: finding.line };
  if (expected?.file !== undefined) shape.file = finding.file;
  if (expected?.type !== undefined) shape.type = finding.type;
  if (expected?.severity !== undefined) shape.severity = finding.severity;
  return shape;
}

const order = (a: { messageId: string; line: number | null }, b: { messageId: string; line: number | null }): number => a.messageId.localeCompare(b.messageId) || (a.line ?? 0) - (b.line ?? 0);

/** The findings `rule` reported for these changes, with their message ids. */
export async function reportsOf(rule: Pick<Rule, "id">, changes: FileChange[]): Promise<{ finding: Finding; messageId: string }[]> {
  const analysis = await analyzeChanges(changes);
  return analysis.findings.flatMap((finding) => {
    const as = reportedAs(finding);
    return as !== undefined && as.rule === rule.id ? [{ finding, messageId: as.messageId }] : [];
  });
}

/**
 * Declares a `describe(rule.id)` block with one `it` per case. A valid case
 * passes when the rule reports nothing; an invalid one when the rule's
 * reports, as `{ messageId, line }` (plus file/type/severity where the
 * expected error gives them), equal the expected errors in any order. Also
 * checks every expected message id is one the rule declares.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a rule of any input: the tester reads its id and messages
export function ruleTester<Ids extends string>(rule: Rule<any, Ids>, tests: RuleTests<Ids>): void {
  describe(`rule ${rule.id}`, () => {
    describe("valid", () => {
      it.each(tests.valid.map((test) => [test.name, test] as const))("%s", async (_name, test) => {
        const reports = await reportsOf(rule, test.changes);
        expect(reports.map(({ finding, messageId }) => ({ messageId, line: finding.line, message: finding.message }))).toEqual([]);
      });
    });
    describe("invalid", () => {
      it.each(tests.invalid.map((test) => [test.name, test] as const))("%s", async (_name, test) => {
        for (const error of test.errors) expect(Object.keys(rule.messages)).toContain(error.messageId);
        const reports = await reportsOf(rule, test.changes);
        const expected = [...test.errors].sort(order).map((error) => ({
          messageId: error.messageId,
          line: error.line,
          ...(error.file !== undefined ? { file: error.file } : {}),
          ...(error.type !== undefined ? { type: error.type } : {}),
          ...(error.severity !== undefined ? { severity: error.severity } : {}),
        }));
        const byId = new Map(test.errors.map((error) => [error.messageId as string, error] as const));
        const actual = reports.map(({ finding, messageId }) => shapeOf(finding, byId.get(messageId), messageId) as { messageId: string; line: number | null }).sort(order);
        expect(actual).toEqual(expected);
      });
    });
  });
}
