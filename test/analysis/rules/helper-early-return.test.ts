/**
 * A test helper that asserts gains an early return before all its
 * assertions (issue 9, "disabling through indirection"): the tests calling
 * it keep their bodies, but the helper's checks no longer run for the
 * inputs that take the return. Each test calling it reports an
 * assertion_removal ("now after an early return"). Look-alikes: a helper
 * whose early return comes after its assertions, a guard the helper already
 * had, and a guard that raises instead of returning.
 */
import { describe, it } from "vitest";
import { change, edit, expectFindings, type RuleCase } from "./table.js";

const RUST = 'use b64::encode;\n\nfn check(input: &[u8], expected: &str) {\n    assert_eq!(encode(input), expected);\n}\n\n#[test]\nfn one_byte() {\n    check(b"f", "Zg==");\n}\n';
const GO =
  'package b64\n\nimport "testing"\n\nfunc check(t *testing.T, in, want string) {\n\tt.Helper()\n\tif got := Encode(in); got != want {\n\t\tt.Errorf("got %q, want %q", got, want)\n\t}\n}\n\nfunc TestOneByte(t *testing.T) { check(t, "f", "Zg==") }\n';
const PY = 'from b64 import encode\n\n\ndef check(data, expected):\n    assert encode(data) == expected\n\n\ndef test_one_byte():\n    check(b"f", "Zg==")\n';

const removal = (path: string, test: string): string => `assertion_removal/high ${path} "${test}"`;

const invalid: RuleCase[] = [
  {
    name: "rust: `if … { return; }` before the helper's assert_eq!",
    changes: [change("tests/roundtrip.rs", RUST, edit(RUST, "    assert_eq!", "    if input.len() % 3 != 0 {\n        return;\n    }\n    assert_eq!"))],
    findings: [removal("tests/roundtrip.rs", "one_byte")],
  },
  {
    name: "go: `if … { return }` before the helper's t.Errorf",
    changes: [change("b64/b64_test.go", GO, edit(GO, "\tif got :=", "\tif len(in)%3 != 0 {\n\t\treturn\n\t}\n\tif got :="))],
    findings: [removal("b64/b64_test.go", "TestOneByte")],
  },
  {
    name: "python: `if …: return` before the helper's assert",
    changes: [change("tests/test_b64.py", PY, edit(PY, "    assert encode", "    if len(data) % 3:\n        return\n    assert encode"))],
    findings: [removal("tests/test_b64.py", "test_one_byte")],
  },
];

const valid: RuleCase[] = [
  {
    name: "rust: an early return after the helper's assertions",
    changes: [change("tests/roundtrip.rs", RUST, edit(RUST, "expected);\n}", "expected);\n    if input.is_empty() {\n        return;\n    }\n}"))],
    findings: [],
  },
  {
    name: "python: a guard that raises before the assert",
    changes: [change("tests/test_b64.py", PY, edit(PY, "    assert encode", "    if not isinstance(data, bytes):\n        raise TypeError(data)\n    assert encode"))],
    findings: [],
  },
  {
    name: "python: a guard the helper already had, reworded",
    changes: [
      change(
        "tests/test_b64.py",
        edit(PY, "    assert encode", "    if not data:\n        return\n    assert encode"),
        edit(PY, "    assert encode", "    if len(data) == 0:\n        return\n    assert encode"),
      ),
    ],
    findings: [],
  },
];

describe("helper early return: flagged", () => {
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("helper early return: look-alikes not flagged", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
