/** Small helpers the use cases share for findings: which block, how one reads in a reason, and a key to compare them. */
import type { Finding } from "../analysis/index.js";
import { isBlockingSeverity } from "../analysis/rules/registry.js";

/** True for a finding that blocks: not allowed, and of a blocking severity (critical, high; registry.ts SEVERITY_TABLE). */
export const isBlocking = (f: Finding): boolean => !f.allowed && isBlockingSeverity(f.severity);

/** One finding as a line for a reason: `- type (severity) file:line "test": message`. */
export function findingLine(f: Finding): string {
  const where = `${f.file}${f.line ? `:${f.line}` : ""}`;
  return `- ${f.type} (${f.severity}) ${where}${f.test ? ` "${f.test}"` : ""}: ${f.message}`;
}

/** A key that is equal for the same finding in two judgements (type, file, test, message; not the line, which moves). */
export const findingKey = (f: Finding): string => `${f.type}\u0000${f.file}\u0000${f.test ?? ""}\u0000${f.message}`;
