/**
 * `ralph check --format gitlab`: GitLab's Code Quality report (the subset
 * of the Code Climate issue spec GitLab reads, docs.gitlab.com
 * ci/testing/code_quality "Code Quality report format"): a JSON array of
 * `{description, check_name, fingerprint, severity, location: {path,
 * lines: {begin}}}`, severity one of info | minor | major | critical |
 * blocker. A merge request job stores it as `artifacts: reports:
 * codequality`, and the merge request widget lists the findings.
 *
 * Severity: critical -> blocker, high -> critical, medium -> major, low ->
 * minor; an allowed finding (a Ralph-Allow trailer or an allow rule) is
 * info. The fingerprint (sha1 of type, file, line and test) is stable
 * across runs and unique per finding, so GitLab pairs a finding with the
 * same one on the target branch.
 */
import { createHash } from "node:crypto";
import type { Finding, Severity } from "../../analysis/types.js";
import type { Judgement } from "../../loop/check.js";

/** GitLab's Code Quality severities. */
export type CodeQualitySeverity = "info" | "minor" | "major" | "critical" | "blocker";

const SEVERITY: Record<Severity, CodeQualitySeverity> = { critical: "blocker", high: "critical", medium: "major", low: "minor" };

/** One Code Quality issue for a finding. */
export function codeQualityIssue(f: Finding): Record<string, unknown> {
  const fingerprint = createHash("sha1")
    .update(JSON.stringify([f.type, f.file, f.line, f.test ?? null, f.before_file ?? null]))
    .digest("hex");
  return {
    description: f.message,
    check_name: `ralph/${f.type}`,
    fingerprint,
    severity: f.allowed ? "info" : SEVERITY[f.severity],
    location: { path: f.file, lines: { begin: f.line ?? f.before_line ?? 1 } },
  };
}

/** The report `ralph check --format gitlab` prints (an empty array when there are no findings). */
export function renderJudgementGitlab(j: Judgement): string {
  return JSON.stringify(j.findings.map(codeQualityIssue), null, 2);
}
