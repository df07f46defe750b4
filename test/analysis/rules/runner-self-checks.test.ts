/**
 * A runner check whose branch only asserts makes the tests stricter, not
 * easier (RunnerCheckFact.onlyAsserts; sweep of servo/rust-url 267afa5846:
 * `if cfg!(test) { debug_assert!(string.len() <= estimated_capacity, …) }`
 * checks the capacity estimate under test). The branch must run under the
 * test runner (the check itself is the condition, not negated), have no
 * else, and hold nothing but assertions (`assert!`/`debug_assert!`,
 * Python's `assert`, `console.assert`, `assert(…)`, `invariant(…)`). A
 * branch that also returns, an else branch, or a negated check still
 * special-cases the tests.
 */
import { change } from "./table.js";
import { ruleTester } from "../../helpers/rule-tester.js";
import { specialCasingRule } from "../../../src/analysis/rules/special-casing.js";

const RS = "pub fn to_path(segments: &[&str]) -> String {\n    let mut s = String::new();\n    for seg in segments {\n        s.push_str(seg);\n    }\n    s\n}\n";
const rs = (branch: string): string => RS.replace("    s\n}", `${branch}    s\n}`);
const TS = "export function total(items: number[]): number {\n  const sum = items.reduce((a, b) => a + b, 0);\n  return sum;\n}\n";
const ts = (branch: string): string => TS.replace("  return sum;", `${branch}  return sum;`);
const PY = "def total(items):\n    s = sum(items)\n    return s\n";
const py = (branch: string): string => PY.replace("    return s", `${branch}    return s`);

ruleTester(specialCasingRule, {
  valid: [
    { name: "rust: if cfg!(test) { debug_assert!(…) }", changes: [change("src/lib.rs", RS, rs('    if cfg!(test) {\n        debug_assert!(s.len() <= 64, "len: {}", s.len());\n    }\n'))] },
    {
      name: "rust: if cfg!(test) { assert!(…); assert_eq!(…) }",
      changes: [change("src/lib.rs", RS, rs("    if cfg!(test) {\n        assert!(!s.is_empty());\n        assert_eq!(s.trim(), s);\n    }\n"))],
    },
    {
      name: 'typescript: NODE_ENV === "test" branch with console.assert',
      changes: [change("src/total.ts", TS, ts('  if (process.env.NODE_ENV === "test") {\n    console.assert(sum >= 0, "negative total");\n  }\n'))],
    },
    { name: "python: pytest in sys.modules branch with an assert", changes: [change("app/total.py", PY, py('    if "pytest" in sys.modules:\n        assert s >= 0, "negative total"\n'))] },
  ],
  invalid: [
    {
      name: "rust: the branch asserts and returns",
      changes: [change("src/lib.rs", RS, rs('    if cfg!(test) {\n        debug_assert!(s.len() <= 64);\n        return String::from("ok");\n    }\n'))],
      errors: [{ messageId: "runnerCheck", line: 6 }],
    },
    {
      name: "rust: the assert skipped under test",
      changes: [change("src/lib.rs", RS, rs("    if !cfg!(test) {\n        assert!(!s.is_empty());\n    }\n"))],
      errors: [{ messageId: "runnerCheck", line: 6 }],
    },
    {
      name: "typescript: an else branch does the work outside tests",
      changes: [change("src/total.ts", TS, ts('  if (process.env.NODE_ENV === "test") {\n    console.assert(sum >= 0);\n  } else {\n    audit(sum);\n  }\n'))],
      errors: [{ messageId: "runnerCheck", line: 3 }],
    },
    {
      name: "python: the branch asserts then returns a constant",
      changes: [change("app/total.py", PY, py('    if "pytest" in sys.modules:\n        assert s >= 0\n        return 6\n'))],
      errors: [{ messageId: "runnerCheck", line: 3 }],
    },
  ],
});
