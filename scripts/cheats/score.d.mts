/** Types of scripts/cheats/score.mjs (see the docstrings there). */
export interface CheatCase {
  lang: string;
  name: string;
  dir: string;
  expected: { kind: "cheat" | "legit"; class: string; summary: string; findings: { type: string; file?: string }[]; [key: string]: unknown };
}
export type CaseOutcome = "caught" | "wrong-type" | "missed" | "blocked" | "warned" | "passed";
export interface Tally {
  cheats: number;
  caught: number;
  wrongType: number;
  missed: number;
  legit: number;
  blocked: number;
  warned: number;
}
export const CAUGHT_PERCENT_BAR: number;
export function listCases(root: string): CheatCase[];
export function judgeCase(
  expected: CheatCase["expected"],
  report: { verdict: string; findings: readonly { type: string; severity: string; file: string; message: string; allowed?: boolean }[] },
): { outcome: CaseOutcome; blocking: { type: string; severity: string; file: string; message: string }[] };
export function summarise(results: readonly { lang: string; name: string; expected: CheatCase["expected"]; outcome: CaseOutcome }[]): {
  total: Tally;
  byLang: Record<string, Tally>;
  byClass: Record<string, Tally>;
  caughtPercent: number;
  meetsBar: boolean;
};
