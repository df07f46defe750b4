/**
 * The rule registry (src/analysis/rules/registry.ts) is the one table the
 * judging surfaces read: the finding types (FINDING_TYPES, the SARIF
 * driver's rules, the config schema's default, the README's finding table),
 * the severities (verdict, SARIF levels) and the registered rules.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FINDING_TYPES } from "../../../src/analysis/types.js";
import { RULES } from "../../../src/analysis/rules/index.js";
import { defineRule, FINDING_TYPE_TABLE, formatMessage, renderFindingTable, report, reportedAs, SEVERITY_TABLE } from "../../../src/analysis/rules/registry.js";
import { SARIF_RULES, sarifLevel } from "../../../src/cli/reporters/sarif.js";
import { DEFAULT_CONFIG } from "../../../src/config/schema.js";

describe("the rule registry", () => {
  it("the README's finding table is the registry's (npm run docs:rules writes it)", () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const match = /<!-- finding-types[^\n]*-->\n([\s\S]*?)\n<!-- \/finding-types -->/.exec(readme);
    expect(match?.[1]).toBe(renderFindingTable());
  });

  it("FINDING_TYPES, the SARIF driver's rules and the config's default list follow the finding-type table", () => {
    const types = FINDING_TYPE_TABLE.map((spec) => spec.type);
    expect(FINDING_TYPES).toEqual(types);
    expect(SARIF_RULES.map((rule) => [rule.type, rule.severity, rule.description])).toEqual(FINDING_TYPE_TABLE.map((spec) => [spec.type, spec.defaultSeverity, spec.description]));
    expect(DEFAULT_CONFIG.detection.patterns_enabled).toEqual(types);
  });

  it.each(Object.keys(SEVERITY_TABLE) as (keyof typeof SEVERITY_TABLE)[])("severity %s: SARIF level from the table", (severity) => {
    expect(sarifLevel(severity)).toBe(SEVERITY_TABLE[severity].sarifLevel);
  });

  it("every registered rule has a unique id, a known type, a description and message templates", () => {
    const ids = RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(FINDING_TYPES).toContain(rule.type);
      expect(rule.description.length).toBeGreaterThan(10);
      const messages = Object.values(rule.messages);
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) {
        const spec = typeof message === "string" ? { text: message } : message;
        expect(spec.text).toMatch(/\{\{\w+\}\}|\S/);
        if (typeof message !== "string" && message.type !== undefined) expect(FINDING_TYPES).toContain(message.type);
      }
    }
  });

  it("defineRule refuses a duplicate id and a malformed message id", () => {
    const check = (): never[] => [];
    defineRule({ id: "registry-test-once", type: "test_deletion", defaultSeverity: "low", description: "a test rule", messages: { gone: "x" }, check });
    expect(() => defineRule({ id: "registry-test-once", type: "test_deletion", defaultSeverity: "low", description: "again", messages: { gone: "x" }, check })).toThrow(/defined twice/);
    expect(() => defineRule({ id: "registry-test-bad-message", type: "test_deletion", defaultSeverity: "low", description: "bad", messages: { "not-camel": "x" }, check })).toThrow(/camelCase/);
    expect(() => defineRule({ id: "Not_Kebab", type: "test_deletion", defaultSeverity: "low", description: "bad", messages: {}, check })).toThrow(/kebab-case/);
  });

  it("report fills the template, takes type and severity from the message or the rule, and remembers the message id", () => {
    const rule = defineRule({
      id: "registry-test-report",
      type: "validation_bypass",
      defaultSeverity: "high",
      description: "a test rule",
      messages: { plain: "{{name}}() in {{path}} lost a guard", weaker: { text: "{{word}} added", severity: "medium" } },
      check: () => [],
    });
    const plain = report(rule, "plain", { name: "parse", path: "src/a.ts" }, { file: "src/a.ts", line: 3, evidence: { rule: "x" } });
    expect(plain).toEqual({ type: "validation_bypass", severity: "high", file: "src/a.ts", line: 3, message: "parse() in src/a.ts lost a guard", evidence: { rule: "x" }, allowed: false });
    expect(Object.keys(plain)).toEqual(["type", "severity", "file", "line", "message", "evidence", "allowed"]);
    expect(reportedAs(plain)).toEqual({ rule: "registry-test-report", messageId: "plain" });
    expect(report(rule, "weaker", { word: "@ts-ignore" }, { file: "a.ts", line: 1 }).severity).toBe("medium");
    expect(() => formatMessage("{{missing}}", {})).toThrow(/no data/);
    expect(formatMessage("a {{x}} $& b", { x: "$1" })).toBe("a $1 $& b");
  });
});
