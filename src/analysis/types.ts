/**
 * The shapes that cross the analysis boundary: what the CLI hands in (file
 * changes, allow rules) and what it gets back (findings, a verdict, stats).
 * Field names are snake_case where they appear verbatim in `ralph check
 * --format json` (DESIGN.md "The command line").
 */

import { FINDING_TYPE_TABLE } from "./rules/registry.js";

/**
 * One changed file between two trees. `before`/`after` are the file's full
 * text on each side, or null when the file is absent on that side (added or
 * deleted). `path` is repo-relative and '/'-separated. A rename reaches
 * analysis as one deletion plus one addition; moved tests are matched across
 * files, so nothing is lost by that.
 */
export interface FileChange {
  path: string;
  before: string | null;
  after: string | null;
}

/** DESIGN.md's ten finding types, in its table's order ("Analysis: facts, then findings"); the registry's {@link FINDING_TYPE_TABLE}. */
export const FINDING_TYPES: readonly FindingType[] = Object.freeze(FINDING_TYPE_TABLE.map((spec) => spec.type));

/** Every kind of finding ralph knows: one of {@link FINDING_TYPES}. */
export type FindingType = (typeof FINDING_TYPE_TABLE)[number]["type"];

/** How bad a finding is; critical and high block, medium warns, low is informational. */
export type Severity = "critical" | "high" | "medium" | "low";

/** The outcome of a diff: BLOCK (any unallowed critical/high), WARN, or PASS. */
export type Verdict = "PASS" | "WARN" | "BLOCK";

/**
 * An intentional change the user approved: a `Ralph-Allow: <type> <reason>`
 * commit trailer or a config entry. `type` "*" matches every finding type.
 * `path`, when given, limits the rule to findings whose file (or before_file)
 * is that path, lies under that directory, or matches that glob
 * (`*` within a segment, `**` across segments, `?` one character).
 */
export interface AllowRule {
  type: FindingType | "*";
  reason: string;
  path?: string;
}

/**
 * One thing ralph noticed. `file`/`line` point at the finding in the after
 * tree, or, for things that are gone (a deleted test), at where they were in
 * the before tree; `before_file`/`before_line` always name the before side
 * when there is one. `line` is 1-based, null when the finding is about a
 * whole file. `test` is the test id (suite path and title joined with " > ").
 * `allowed` is true when an {@link AllowRule} matched; the finding then stays
 * in the output and `allow_reason` carries the rule's reason.
 */
export interface Finding {
  type: FindingType;
  severity: Severity;
  file: string;
  line: number | null;
  before_file?: string;
  before_line?: number | null;
  test?: string;
  message: string;
  evidence?: Record<string, unknown>;
  allowed: boolean;
  allow_reason?: string;
}

/**
 * Counts over the changed files. `files_changed` counts every change handed
 * in; `files_analyzed` those whose every present side had facts extracted.
 * Test and assertion counts are summed over the analysed sides of the
 * changed files only (unchanged files are not seen).
 */
export interface AnalysisStats {
  files_changed: number;
  files_analyzed: number;
  tests_before: number;
  tests_after: number;
  assertions_before: number;
  assertions_after: number;
}

/** A changed file ralph could not (fully) analyse, with a one-line reason. */
export interface NotAnalyzed {
  path: string;
  reason: string;
}

/** The result of {@link analyzeChanges}: verdict, findings (allowed ones included), stats. */
export interface Analysis {
  verdict: Verdict;
  findings: Finding[];
  stats: AnalysisStats;
  not_analyzed: NotAnalyzed[];
}
