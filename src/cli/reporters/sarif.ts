/**
 * `ralph check --format sarif`: the judgement as a SARIF 2.1.0 log (OASIS
 * "Static Analysis Results Interchange Format Version 2.1.0"), the format
 * GitHub code scanning and most CI dashboards read. One run; the driver
 * "ralph" lists a rule per finding type with its default severity; each
 * finding is a result with its level, message and location; an allowed
 * finding carries an accepted external suppression with the allow reason.
 */
import { createHash } from "node:crypto";
import type { Finding, FindingType, Severity } from "../../analysis/index.js";
import { FINDING_TYPE_TABLE, SEVERITY_TABLE } from "../../analysis/rules/registry.js";
import type { Judgement } from "../../loop/check.js";

declare const RALPH_VERSION: string;

/** A SARIF `level`. */
export type SarifLevel = "error" | "warning" | "note";

/** One rule of the driver: a finding type with its default severity and a description. */
interface RuleSpec {
  type: FindingType;
  name: string;
  severity: Severity;
  description: string;
}

/** Every finding type with DESIGN.md's default severity, in the order the driver lists them: the analysis registry's FINDING_TYPE_TABLE. */
export const SARIF_RULES: readonly RuleSpec[] = FINDING_TYPE_TABLE.map((spec) => ({ type: spec.type, name: spec.name, severity: spec.defaultSeverity, description: spec.description }));

/** critical/high block (error), medium warns (warning), low informs (note): the registry's SEVERITY_TABLE. */
export function sarifLevel(severity: Severity): SarifLevel {
  return SEVERITY_TABLE[severity].sarifLevel;
}

/** A repo-relative '/' path as a relative URI reference (each segment percent-encoded). */
function toUri(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}

/** A fingerprint that survives line moves: type, file, test and message. */
function fingerprint(finding: Finding): string {
  return createHash("sha256")
    .update([finding.type, finding.file, finding.test ?? "", finding.message].join("\u0000"))
    .digest("hex")
    .slice(0, 32);
}

function resultOf(finding: Finding): Record<string, unknown> {
  const ruleIndex = SARIF_RULES.findIndex((rule) => rule.type === finding.type);
  const region = finding.line != null && finding.line >= 1 ? { region: { startLine: finding.line } } : {};
  const result: Record<string, unknown> = {
    ruleId: finding.type,
    ruleIndex,
    level: sarifLevel(finding.severity),
    message: { text: finding.message },
    locations: [{ physicalLocation: { artifactLocation: { uri: toUri(finding.file), uriBaseId: "%SRCROOT%" }, ...region } }],
    partialFingerprints: { "ralphFinding/v1": fingerprint(finding) },
    properties: {
      severity: finding.severity,
      ...(finding.test !== undefined ? { test: finding.test } : {}),
      ...(finding.before_file !== undefined ? { before_file: finding.before_file, before_line: finding.before_line ?? null } : {}),
      ...(finding.evidence !== undefined ? { evidence: finding.evidence } : {}),
    },
  };
  if (finding.allowed) {
    result.suppressions = [{ kind: "external", status: "accepted", justification: finding.allow_reason ?? "allowed by a Ralph-Allow rule" }];
  }
  return result;
}

/**
 * The judgement as a SARIF 2.1.0 log object: one run whose results are the
 * findings (allowed ones suppressed, not dropped) and whose properties carry
 * the verdict, the compared revisions, the stats and the files not analysed.
 */
export function judgementToSarif(j: Judgement, toolVersion = typeof RALPH_VERSION === "string" ? RALPH_VERSION : "0.0.0-dev"): Record<string, unknown> {
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "ralph",
            version: toolVersion,
            semanticVersion: toolVersion,
            rules: SARIF_RULES.map((rule) => ({
              id: rule.type,
              name: rule.name,
              shortDescription: { text: rule.description.split(/[.,;]/)[0] as string },
              fullDescription: { text: rule.description },
              defaultConfiguration: { level: sarifLevel(rule.severity) },
              properties: { "default-severity": rule.severity, tags: ["ralph", "test-integrity"] },
            })),
          },
        },
        invocations: [{ executionSuccessful: true }],
        results: j.findings.map(resultOf),
        properties: {
          verdict: j.verdict,
          from: j.from,
          to: j.to,
          stats: j.stats,
          not_analyzed: j.not_analyzed,
        },
      },
    ],
  };
}

/** {@link judgementToSarif} as the text `ralph check --format sarif` prints. */
export function renderJudgementSarif(j: Judgement): string {
  return JSON.stringify(judgementToSarif(j), null, 2);
}
