/**
 * The registries every judging surface reads (DESIGN.md "Analysis: facts,
 * then findings"; docs/design.md "Rule registry"):
 *
 * - {@link SEVERITY_TABLE}: the four severities, their order, which block
 *   (verdict.ts) and their SARIF level (src/cli/reporters/sarif.ts).
 * - {@link FINDING_TYPE_TABLE}: the ten finding types with their default
 *   severity, SARIF name and description; `FINDING_TYPES` (types.ts), the
 *   config schema, the SARIF driver's rules and the README's finding table
 *   (`npm run docs:rules`) all come from it.
 * - {@link defineRule}: one rule family per file under src/analysis/rules/,
 *   its metadata (id, finding type, default severity, description), its
 *   message templates by message id, and its `check` entry point;
 *   {@link report} turns a message id and data into a {@link Finding}.
 *   rules/index.ts lists the rules in the order they run.
 *
 * Nothing here shapes facts, so it is outside the facts hash
 * (scripts/facts-hash.mjs).
 */

import type { Finding, FindingType, Severity } from "../types.js";

/** One severity: its rank (0 most severe), whether an unallowed finding of it blocks, and its SARIF 2.1.0 `level`. */
export interface SeveritySpec {
  rank: number;
  blocks: boolean;
  sarifLevel: "error" | "warning" | "note";
}

/** critical and high block (SARIF error), medium warns (warning), low informs (note). DESIGN.md "Verdicts". */
export const SEVERITY_TABLE: Readonly<Record<Severity, SeveritySpec>> = {
  critical: { rank: 0, blocks: true, sarifLevel: "error" },
  high: { rank: 1, blocks: true, sarifLevel: "error" },
  medium: { rank: 2, blocks: false, sarifLevel: "warning" },
  low: { rank: 3, blocks: false, sarifLevel: "note" },
};

/** True for a severity whose unallowed findings block (critical, high): {@link SEVERITY_TABLE}. */
export function isBlockingSeverity(severity: Severity): boolean {
  return SEVERITY_TABLE[severity].blocks;
}

/**
 * One finding type: its id (as in `ralph check --format json`), SARIF rule
 * name, default severity, one-sentence description (SARIF), the README's
 * finding-table wording (`readme`, Markdown) and, when some findings of the
 * type are reported at another severity, a note saying which (`severityNote`).
 */
export interface FindingTypeSpec {
  readonly type: string;
  readonly name: string;
  readonly defaultSeverity: Severity;
  readonly description: string;
  readonly readme: string;
  readonly severityNote?: string;
}

/** DESIGN.md's ten finding types, in its table's order, with their default severities. */
export const FINDING_TYPE_TABLE = [
  {
    type: "test_deletion",
    name: "TestDeletion",
    defaultSeverity: "critical",
    description: "A test case or test file is gone and was not found moved, renamed or merged elsewhere.",
    readme: "a test gone and not found elsewhere",
  },
  {
    type: "test_disabled",
    name: "TestDisabled",
    defaultSeverity: "critical",
    description: "A test is skipped, marked todo or expected to fail, focused with .only, or renamed out of discovery.",
    readme:
      'skipped, todo, `.only`, renamed or moved out of discovery, left out by a runner config change, excluded by a build tag; skipped through a helper, fixture, conftest, `setUp`/`@Before`/`beforeEach`, a skip alias, an always-false assumption, a `TestMain` without `m.Run()` or a JUnit suite list; a conditional skip (`skipif`, `if GOOS == "windows" { t.Skip() }`) made unconditional (`ralph tests` lists conditional skips as `conditional`)',
    severityNote: "`.only` high; a skip whose reason links an issue: medium",
  },
  {
    type: "assertion_removal",
    name: "AssertionRemoval",
    defaultSeverity: "high",
    description: "A surviving test has fewer assertions, a commented-out body, or an early return before its assertions.",
    readme: "fewer assertions, a commented-out body, an early return before the assertions",
  },
  {
    type: "assertion_weakening",
    name: "AssertionWeakening",
    defaultSeverity: "high",
    description: "An assertion was downgraded to a weaker matcher, or a tautology was added.",
    readme: "weaker assertions (a weaker matcher), tautologies",
  },
  {
    type: "expectation_changed",
    name: "ExpectationChanged",
    defaultSeverity: "medium",
    description: "The expected value or setup input of a surviving test changed while the code under test did not.",
    readme: "an expected value changed while the code under test did not",
  },
  {
    type: "validation_bypass",
    name: "ValidationBypass",
    defaultSeverity: "high",
    description: "A guard, schema or error path was removed or loosened, or a suppression or unsafe cast was added.",
    readme:
      "guards removed or made constant (`&& false`), constant returns, catches that now swallow and new catch-all handlers around existing code (Rust `.unwrap_or_default()` for `?`, Go `_ =` for `err :=`), loosened schemas; suppressions and casts",
    severityNote: "suppression or cast: medium",
  },
  {
    type: "special_casing",
    name: "SpecialCasing",
    defaultSeverity: "critical",
    description: "Non-test code checks for the test runner or returns the tests' expected values for their inputs.",
    readme:
      "code that checks for the test runner, or maps the inputs of any test that exercises it (changed or not) to their expected outputs, by branch or lookup table; state added so a later call answers differently",
    severityNote: "stateful answer: high",
  },
  {
    type: "test_config_tamper",
    name: "TestConfigTamper",
    defaultSeverity: "critical",
    description: "Tests excluded or the runner narrowed, failures masked (|| true, continue-on-error, allow_failure), a test step removed, the harness patched, or a coverage threshold lowered.",
    readme:
      "runner narrowed, `|| true`, `continue-on-error`, test steps removed (vitest/jest/pytest/tox/Makefile/GitHub Actions/GitLab CI); product code that exits with success (`sys.exit(0)`, `process.exit()`, `os.Exit(0)`, …) outside an entry point, or from an exit hook",
    severityNote: "coverage threshold lowered: medium",
  },
  {
    type: "coverage_regression",
    name: "CoverageRegression",
    defaultSeverity: "medium",
    description: "Coverage fell below the baseline by more than the tolerance.",
    readme: "a coverage-summary.json below the baseline",
  },
  {
    type: "feature_removal",
    name: "FeatureRemoval",
    defaultSeverity: "medium",
    description: "An exported symbol is gone from non-test code.",
    readme: "an exported symbol gone (tests deleted with their code land here)",
  },
] as const satisfies readonly FindingTypeSpec[];

/**
 * The README's finding table (Markdown, no trailing newline): one row per
 * finding type in table order, its wording and default severity with the
 * severity note in brackets. `npm run docs:rules` writes it between the
 * README's `<!-- finding-types -->` markers; test/analysis/rules/registry.test.ts
 * checks the README holds it.
 */
export function renderFindingTable(): string {
  const cell = (text: string): string => text.replace(/\|/g, "\\|");
  const rows = FINDING_TYPE_TABLE.map((spec: FindingTypeSpec) => `| \`${spec.type}\`: ${cell(spec.readme)} | ${spec.defaultSeverity}${spec.severityNote ? ` (${cell(spec.severityNote)})` : ""} |`);
  return ["| finding | default severity |", "|---|---|", ...rows].join("\n");
}

/** The spec of one finding type. Throws Error for a name that is not a finding type (a programming error). */
export function findingTypeSpec(type: FindingType): FindingTypeSpec {
  const spec = FINDING_TYPE_TABLE.find((entry) => entry.type === type);
  if (spec === undefined) throw new Error(`unknown finding type "${type}"`);
  return spec;
}

/** The default severity of a finding type (DESIGN.md's table), for findings made outside a {@link defineRule} rule. */
export function defaultSeverityOf(type: FindingType): Severity {
  return findingTypeSpec(type).defaultSeverity;
}

/**
 * One message of a rule: a template whose `{{name}}` placeholders are filled
 * from the data given to {@link report}, or a template with the finding type
 * and severity it reports when they differ from the rule's (one rule family
 * can report a weaker or a neighbouring type, e.g. a suppression comment is a
 * medium validation_bypass beside the rule's high ones).
 */
export type MessageSpec = string | { readonly text: string; readonly type?: FindingType; readonly severity?: Severity };

/** What a rule's check reads: the rule input of compare.ts, and the findings of test matching (for rules that reclassify them). */
export interface RuleCheckContext<Input> {
  readonly input: Input;
  readonly matchFindings: readonly Finding[];
}

/** What {@link defineRule} takes. `id` is kebab-case and unique; `messages` maps message ids (camelCase) to templates. */
export interface RuleDefinition<Input, Ids extends string> {
  readonly id: string;
  readonly type: FindingType;
  readonly defaultSeverity: Severity;
  readonly description: string;
  readonly messages: Readonly<Record<Ids, MessageSpec>>;
  readonly check: (context: RuleCheckContext<Input>) => Finding[];
}

/** What {@link report} reads of a rule: its metadata and messages, not its check (so any rule's input fits). */
export type RuleMeta<Ids extends string = string> = Omit<RuleDefinition<unknown, Ids>, "check">;

/** A registered rule: its definition. The message ids are its `messages` keys. */
export type Rule<Input = unknown, Ids extends string = string> = RuleDefinition<Input, Ids>;

const RULE_IDS = new Set<string>();

/**
 * Declares a rule. Returns the definition unchanged (typed, so
 * {@link report} only accepts its message ids). Throws Error when the id is
 * taken or malformed, or a message id is not camelCase (programming errors,
 * caught by the registry test at load).
 */
export function defineRule<Input, Ids extends string>(definition: RuleDefinition<Input, Ids>): Rule<Input, Ids> {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(definition.id)) throw new Error(`rule id "${definition.id}" is not kebab-case`);
  if (RULE_IDS.has(definition.id)) throw new Error(`rule id "${definition.id}" is defined twice`);
  for (const id of Object.keys(definition.messages)) {
    if (!/^[a-z][A-Za-z0-9]*$/.test(id)) throw new Error(`message id "${id}" of rule "${definition.id}" is not camelCase`);
  }
  RULE_IDS.add(definition.id);
  return definition;
}

/** The rule and message id a finding was reported with (kept beside the finding, not in its JSON). */
export interface ReportedAs {
  rule: string;
  messageId: string;
}

const REPORTED_AS = new WeakMap<Finding, ReportedAs>();

/** Which rule and message id produced this finding object, or undefined for findings made outside {@link report} (or copied since). */
export function reportedAs(finding: Finding): ReportedAs | undefined {
  return REPORTED_AS.get(finding);
}

/** Records on a copy of a finding (`to`) the rule and message id `from` was reported with, if any. Returns `to`. */
export function carryReport(from: Finding, to: Finding): Finding {
  const as = REPORTED_AS.get(from);
  if (as !== undefined) REPORTED_AS.set(to, as);
  return to;
}

/** A template with its `{{name}}` placeholders replaced by `String(data[name])`. Throws Error for a placeholder without data. */
export function formatMessage(template: string, data: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_match, name: string) => {
    if (!(name in data)) throw new Error(`message placeholder {{${name}}} has no data`);
    return String(data[name]);
  });
}

/** The finding fields a rule site gives; type, severity and message come from the rule and message id, `allowed` is false. */
export type ReportFields = Omit<Finding, "type" | "severity" | "message" | "allowed">;

/**
 * The finding a rule reports: the message's (or else the rule's) type and
 * severity, then `fields` (file, line, before_file, before_line, test), the
 * message template filled from `data`, `evidence` when given, and `allowed`
 * false (allow rules are applied later, verdict.ts) — the key order of
 * `ralph check --format json`.
 */
export function report<Ids extends string>(rule: RuleMeta<Ids>, messageId: Ids, data: Readonly<Record<string, unknown>>, fields: ReportFields): Finding {
  const spec: MessageSpec = rule.messages[messageId];
  const text = typeof spec === "string" ? spec : spec.text;
  const type = typeof spec === "string" ? rule.type : (spec.type ?? rule.type);
  const severity = typeof spec === "string" ? rule.defaultSeverity : (spec.severity ?? rule.defaultSeverity);
  const { evidence, ...located } = fields;
  const finding: Finding = { type, severity, ...located, message: formatMessage(text, data), ...(evidence !== undefined ? { evidence } : {}), allowed: false };
  REPORTED_AS.set(finding, { rule: rule.id, messageId });
  return finding;
}

/**
 * An existing finding reported again by a rule that takes it over (feature
 * removal taking a test deletion): a copy with the message's type, severity
 * and filled template in place, `changes` (e.g. evidence) applied last; the
 * other fields and their order stay.
 */
export function rereport<Ids extends string>(finding: Finding, rule: RuleMeta<Ids>, messageId: Ids, data: Readonly<Record<string, unknown>>, changes: Partial<ReportFields> = {}): Finding {
  const fresh = report(rule, messageId, data, { file: finding.file, line: finding.line });
  const result: Finding = { ...finding, type: fresh.type, severity: fresh.severity, message: fresh.message, ...changes };
  REPORTED_AS.set(result, { rule: rule.id, messageId });
  return result;
}
