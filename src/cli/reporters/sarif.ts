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

/** Every finding type with DESIGN.md's default severity, in the order the driver lists them. */
export const SARIF_RULES: readonly RuleSpec[] = [
  { type: "test_deletion", name: "TestDeletion", severity: "critical", description: "A test case or test file is gone and was not found moved, renamed or merged elsewhere." },
  { type: "test_disabled", name: "TestDisabled", severity: "critical", description: "A test is skipped, marked todo or expected to fail, focused with .only, or renamed out of discovery." },
  { type: "assertion_removal", name: "AssertionRemoval", severity: "high", description: "A surviving test has fewer assertions, a commented-out body, or an early return before its assertions." },
  { type: "assertion_weakening", name: "AssertionWeakening", severity: "high", description: "An assertion was downgraded to a weaker matcher, or a tautology was added." },
  { type: "expectation_changed", name: "ExpectationChanged", severity: "medium", description: "The expected value or setup input of a surviving test changed while the code under test did not." },
  { type: "validation_bypass", name: "ValidationBypass", severity: "high", description: "A guard, schema or error path was removed or loosened, or a suppression or unsafe cast was added." },
  { type: "special_casing", name: "SpecialCasing", severity: "critical", description: "Non-test code checks for the test runner or returns the tests' expected values for their inputs." },
  { type: "test_config_tamper", name: "TestConfigTamper", severity: "critical", description: "Tests excluded or the runner narrowed, failures masked (|| true, continue-on-error, allow_failure), a test step removed, the harness patched, or a coverage threshold lowered." },
  { type: "coverage_regression", name: "CoverageRegression", severity: "medium", description: "Coverage fell below the baseline by more than the tolerance." },
  { type: "feature_removal", name: "FeatureRemoval", severity: "medium", description: "An exported symbol is gone from non-test code." },
];

/** critical/high block (error), medium warns (warning), low informs (note). */
export function sarifLevel(severity: Severity): SarifLevel {
  return severity === "critical" || severity === "high" ? "error" : severity === "medium" ? "warning" : "note";
}

/** A repo-relative '/' path as a relative URI reference (each segment percent-encoded). */
function toUri(path: string): string {
  return path.split("/").map((segment) => encodeURIComponent(segment)).join("/");
}

/** A fingerprint that survives line moves: type, file, test and message. */
function fingerprint(finding: Finding): string {
  return createHash("sha256").update([finding.type, finding.file, finding.test ?? "", finding.message].join("\u0000")).digest("hex").slice(0, 32);
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
