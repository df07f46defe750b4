/**
 * Guards with the same exit merged into one whose condition is their
 * disjunction (sweep of apache/commons-codec 67914a64: `if (prefix.length()
 * < 3) throw E; if (prefix.charAt(0) != '$' && …) throw E;` -> one `if
 * (prefix.length() < 3 || prefix.charAt(0) != '$' && …) throw E;`, the
 * second read as removed, high). The merged guard fires on every value
 * either did. Merged into a conjunction, or with an alternative left out,
 * it fires on fewer: still a finding.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const java = (body: string): string => `public class Md5Crypt {\n  public static String md5Crypt(String prefix) {\n${body}    return prefix;\n  }\n}\n`;
const JAVA_TWO = `    if (prefix.length() < 3) {\n      throw new IllegalArgumentException("Invalid prefix value: " + prefix);\n    }\n    if (prefix.charAt(0) != '$' && prefix.charAt(prefix.length() - 1) != '$') {\n      throw new IllegalArgumentException("Invalid prefix value: " + prefix);\n    }\n`;
const py = (body: string): string => `def parse_port(text):\n    port = int(text)\n${body}    return port\n`;
const PY_TWO = `    if port < 0:\n        raise ValueError(f"bad port {port}")\n    if port > 65535:\n        raise ValueError(f"bad port {port}")\n`;
const ts = (body: string): string => `export function parsePort(text: string): number {\n  const port = Number(text);\n${body}  return port;\n}\n`;
const TS_TWO = `  if (Number.isNaN(port)) throw new RangeError(\`bad port \${text}\`);\n  if (port < 0 || port > 65535) throw new RangeError(\`bad port \${text}\`);\n`;
const go = (body: string): string => `package net\n\nimport "fmt"\n\nfunc ParsePort(port int) (int, error) {\n${body}\treturn port, nil\n}\n`;
const GO_TWO = `\tif port < 0 {\n\t\treturn 0, fmt.Errorf("bad port %d", port)\n\t}\n\tif port > 65535 {\n\t\treturn 0, fmt.Errorf("bad port %d", port)\n\t}\n`;

const bypass = (path: string): string => `validation_bypass/high ${path}`;
const cases: RuleCase[] = [
  {
    name: "java: two throwing guards merged into one disjunction",
    changes: [
      change(
        "src/main/java/Md5Crypt.java",
        java(JAVA_TWO),
        java(
          `    if (prefix.length() < 3 || prefix.charAt(0) != '$' && prefix.charAt(prefix.length() - 1) != '$') {\n      throw new IllegalArgumentException("Invalid prefix value: " + prefix);\n    }\n`,
        ),
      ),
    ],
    findings: [],
  },
  { name: "python: two raises merged with `or`", changes: [change("net/port.py", py(PY_TWO), py(`    if port < 0 or port > 65535:\n        raise ValueError(f"bad port {port}")\n`))], findings: [] },
  {
    name: "typescript: a guard of two alternatives merged with another, parenthesised",
    changes: [change("src/port.ts", ts(TS_TWO), ts(`  if (Number.isNaN(port) || (port < 0 || port > 65535)) throw new RangeError(\`bad port \${text}\`);\n`))],
    findings: [],
  },
  {
    name: "go: two error returns merged with ||",
    changes: [change("net/port.go", go(GO_TWO), go(`\tif port < 0 || port > 65535 {\n\t\treturn 0, fmt.Errorf("bad port %d", port)\n\t}\n`))],
    findings: [],
  },
  {
    name: "cheat: java: merged into a conjunction, which fires on fewer values",
    changes: [
      change(
        "src/main/java/Md5Crypt.java",
        java(JAVA_TWO),
        java(`    if (prefix.length() < 3 && prefix.charAt(0) != '$') {\n      throw new IllegalArgumentException("Invalid prefix value: " + prefix);\n    }\n`),
      ),
    ],
    findings: [bypass("src/main/java/Md5Crypt.java")],
  },
  {
    name: "cheat: python: merged with one alternative left out",
    changes: [change("net/port.py", py(PY_TWO), py(`    if port < 0 or port > 65536:\n        raise ValueError(f"bad port {port}")\n`))],
    findings: [bypass("net/port.py")],
  },
  {
    name: "cheat: go: merged into a guard that returns no error",
    changes: [change("net/port.go", go(GO_TWO), go(`\tif port < 0 || port > 65535 {\n\t\treturn 0, nil\n\t}\n`))],
    findings: [bypass("net/port.go"), bypass("net/port.go")],
  },
];

describe("guards merged into a disjunction", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
