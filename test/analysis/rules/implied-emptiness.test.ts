/**
 * An emptiness test dropped from a guard whose remaining alternative already
 * refuses an empty value (rules/validation.ts isEmptinessImplied; sweep of
 * servo/rust-url 4b9f1e699f, "perf: make parse_scheme slightly faster":
 * `if input.is_empty() || !input.starts_with(ascii_alpha)` ->
 * `if !input.starts_with(ascii_alpha)`, "starts_with will also fail for
 * empty strings"). A negated test that the value starts with, ends with or
 * contains something non-empty holds for an empty value, so the guard still
 * refuses it. The nearest cheats: the remaining test reads another value,
 * asks for the empty prefix, or is not negated; they still narrow the guard.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const row = (name: string, path: string, before: string, after: string, findings: string[]): RuleCase => ({ name, changes: [change(path, before, after)], findings });
const narrowed = (path: string): string => `validation_bypass/high ${path}`;

const RS = (condition: string): string => `pub fn parse_scheme(input: &str, other: &str) -> Result<(), ()> {\n    if ${condition} {\n        return Err(());\n    }\n    Ok(())\n}\n`;
const TS = (condition: string): string => `export function version(s: string, t: string): string {\n  if (${condition}) throw new Error("bad version");\n  return s.slice(1);\n}\n`;
const PY = (condition: string): string => `def version(s, t):\n    if ${condition}:\n        raise ValueError("bad version")\n    return s[1:]\n`;
const GO = (condition: string): string =>
  `package v\n\nimport (\n\t"errors"\n\t"strings"\n)\n\nfunc Version(s, t string) (string, error) {\n\tif ${condition} {\n\t\treturn "", errors.New("bad version")\n\t}\n\treturn s[1:], nil\n}\n`;
const JAVA = (condition: string): string =>
  `class V {\n  static String version(String s, String t) {\n    if (${condition}) {\n      throw new IllegalArgumentException("bad version");\n    }\n    return s.substring(1);\n  }\n}\n`;

const valid: RuleCase[] = [
  row("rust: is_empty() dropped before !starts_with(..)", "src/parser.rs", RS("input.is_empty() || !input.starts_with(ascii_alpha)"), RS("!input.starts_with(ascii_alpha)"), []),
  row("typescript: s.length === 0 dropped before !s.startsWith('v')", "src/version.ts", TS('s.length === 0 || !s.startsWith("v")'), TS('!s.startsWith("v")'), []),
  row("python: not s dropped before not s.startswith('v')", "app/version.py", PY('not s or not s.startswith("v")'), PY('not s.startswith("v")'), []),
  row("go: len(s) == 0 dropped before !strings.HasPrefix", "v.go", GO('len(s) == 0 || !strings.HasPrefix(s, "v")'), GO('!strings.HasPrefix(s, "v")'), []),
  row("java: s.isEmpty() dropped before !s.contains", "src/main/java/V.java", JAVA('s.isEmpty() || !s.contains("v")'), JAVA('!s.contains("v")'), []),
];

const invalid: RuleCase[] = [
  row("rust: the remaining test reads another value", "src/parser.rs", RS("input.is_empty() || !other.starts_with(ascii_alpha)"), RS("!other.starts_with(ascii_alpha)"), [narrowed("src/parser.rs")]),
  row("typescript: the remaining test asks for the empty prefix", "src/version.ts", TS('s.length === 0 || !s.startsWith("")'), TS('!s.startsWith("")'), [narrowed("src/version.ts")]),
  row("python: the remaining test is not negated", "app/version.py", PY('not s or s.startswith("v")'), PY('s.startswith("v")'), [narrowed("app/version.py")]),
  row("go: the emptiness dropped before a length bound", "v.go", GO("len(s) == 0 || len(t) > 8"), GO("len(t) > 8"), [narrowed("v.go")]),
];

describe("an emptiness test implied by a negated prefix or content test", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
