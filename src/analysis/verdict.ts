/**
 * Findings -> verdict. Allow rules mark findings as allowed but never remove
 * them; an allowed finding caps the verdict at WARN (an escape hatch
 * downgrades, it never silences; DESIGN.md).
 */

import { carryReport, SEVERITY_TABLE } from "./rules/registry.js";
import type { AllowRule, Finding, Verdict } from "./types.js";

/** Glob -> RegExp: `**` spans segments, `*` stays within one, `?` is one non-'/' character. */
function globToRegExp(glob: string): RegExp {
  let pattern = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*" && glob[i + 1] === "*") {
      const isSegment = glob[i + 2] === "/";
      pattern += isSegment ? "(?:.*/)?" : ".*";
      i += isSegment ? 2 : 1;
    } else if (char === "*") {
      pattern += "[^/]*";
    } else if (char === "?") {
      pattern += "[^/]";
    } else {
      pattern += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${pattern}$`);
}

/**
 * True when a rule's `path` covers `file`: the same path, a directory that
 * contains it (`test` or `test/`), or a glob that matches it.
 */
export function isPathCovered(rulePath: string, file: string): boolean {
  const normalized = rulePath.replace(/^\.\//, "");
  if (/[*?]/.test(normalized)) return globToRegExp(normalized).test(file);
  const directory = normalized.endsWith("/") ? normalized : `${normalized}/`;
  return file === normalized || file.startsWith(directory);
}

/** The first rule that allows this finding (by type or "*", and path when the rule has one), or null. */
export function findAllowRule(finding: Finding, rules: readonly AllowRule[]): AllowRule | null {
  for (const rule of rules) {
    if (rule.type !== "*" && rule.type !== finding.type) continue;
    if (rule.path !== undefined) {
      const files = [finding.file, finding.before_file].filter((file): file is string => file !== undefined);
      if (!files.some((file) => isPathCovered(rule.path as string, file))) continue;
    }
    return rule;
  }
  return null;
}

/**
 * Copies of the findings with `allowed`/`allow_reason` set from the first
 * matching rule. Findings that no rule matches come back with `allowed: false`.
 */
export function applyAllowRules(findings: readonly Finding[], rules: readonly AllowRule[]): Finding[] {
  return findings.map((finding) => {
    const rule = findAllowRule(finding, rules);
    if (!rule) return carryReport(finding, { ...finding, allowed: false });
    return carryReport(finding, { ...finding, allowed: true, allow_reason: rule.reason });
  });
}

/**
 * BLOCK when any unallowed finding is of a blocking severity (the
 * registry's SEVERITY_TABLE: critical or high); else WARN when any
 * unallowed finding is medium or any finding is allowed; else PASS
 * (unallowed low findings alone pass).
 */
export function decideVerdict(findings: readonly Finding[]): Verdict {
  const open = findings.filter((finding) => !finding.allowed);
  if (open.some((finding) => SEVERITY_TABLE[finding.severity].blocks)) return "BLOCK";
  if (open.some((finding) => finding.severity === "medium") || findings.some((finding) => finding.allowed)) return "WARN";
  return "PASS";
}

/** Findings ordered for people: most severe first, then by file and line. Returns a new array. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      SEVERITY_TABLE[a.severity].rank - SEVERITY_TABLE[b.severity].rank ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.test ?? "").localeCompare(b.test ?? ""),
  );
}
