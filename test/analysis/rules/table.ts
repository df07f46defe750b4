/**
 * Shared shape of the rule tables: each case is a set of changed files and
 * the findings it must produce, as `type/severity file "test"` strings
 * (sorted), so a table reads like the report a person would get.
 */
import { expect } from "vitest";
import { analyzeChanges, type FileChange, type Finding } from "../../../src/analysis/index.js";

/** One row of a rule table. */
export interface RuleCase {
  name: string;
  changes: FileChange[];
  findings: string[];
}

/** A changed file; null = absent on that side. */
export const change = (path: string, before: string | null, after: string | null): FileChange => ({ path, before, after });

/** `type/severity file "test"` of a finding. */
export function summarize(finding: Finding): string {
  return `${finding.type}/${finding.severity} ${finding.file}${finding.test ? ` "${finding.test}"` : ""}`;
}

/** Replaces `from` by `to` in `source`, failing loudly when `from` is missing (a typo would silently test nothing). */
export function edit(source: string, from: string, to: string): string {
  if (!source.includes(from)) throw new Error(`fixture edit: "${from}" not in source`);
  return source.replace(from, to);
}

/** Runs one case and compares its findings, ignoring order. */
export async function expectFindings(rule: RuleCase): Promise<Finding[]> {
  const analysis = await analyzeChanges(rule.changes);
  expect(analysis.findings.map(summarize).sort()).toEqual([...rule.findings].sort());
  return analysis.findings;
}
