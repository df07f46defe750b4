/**
 * Building test_config_tamper findings: one place decides the shape, so every
 * detector names the file, the line (when known) and the before/after values
 * the same way (DESIGN.md "Analysis": test_config_tamper).
 */

import { defaultSeverityOf } from "../rules/registry.js";
import type { Finding, Severity } from "../types.js";

/** What one detector noticed before it becomes a {@link Finding}. */
export interface TamperNote {
  /** The setting or command that changed, e.g. `scripts.test`, `jobs.test.steps[2]`, `test.exclude`. */
  setting: string;
  /** 1-based line in the after file (or the before file when the thing is gone); null when unknown. */
  line: number | null;
  /** A sentence a person understands, without the file name (the finding carries it). */
  message: string;
  /** The value before the change (null when it was absent). */
  before: unknown;
  /** The value after the change (null when it is gone). */
  after: unknown;
  /** True for a lowered coverage threshold (medium by default); everything else is critical. */
  isCoverageThreshold?: boolean;
  /** A severity the detector decided (a CI job for a runtime the project no longer supports: low); absent, {@link severityOfNote} decides. */
  severity?: Severity;
  /** Extra evidence (the runner, the pattern added, …). */
  detail?: Record<string, unknown>;
}

/** The severity DESIGN.md gives a tamper note: critical, or medium for a lowered coverage threshold; a detector's own when it set one. */
export function severityOfNote(note: TamperNote): Severity {
  if (note.severity !== undefined) return note.severity;
  return note.isCoverageThreshold ? "medium" : defaultSeverityOf("test_config_tamper");
}

/** Turns notes about one file into findings (evidence carries setting, before and after). */
export function notesToFindings(file: string, notes: readonly TamperNote[]): Finding[] {
  return notes.map((note) => ({
    type: "test_config_tamper",
    severity: severityOfNote(note),
    file,
    line: note.line,
    message: `${file}: ${note.message}`,
    evidence: { setting: note.setting, before: note.before, after: note.after, ...(note.detail ?? {}) },
    allowed: false,
  }));
}

/** A short, quoted rendering of a value for messages. */
export function show(value: unknown): string {
  if (value === null || value === undefined) return "(none)";
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
