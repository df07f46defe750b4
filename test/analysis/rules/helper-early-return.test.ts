/**
 * A test helper that asserts gains an early return before all its
 * assertions (issue 9, "disabling through indirection"): the tests calling
 * it keep their bodies, but the helper's checks no longer run for the
 * inputs that take the return. Each test calling it reports an
 * assertion_removal ("can no longer fail the test: after an early return"). Look-alikes: a helper
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

/** A fixture helper that checks what it builds; `{guard}` marks where a memo guard goes, `{store}` how the result is kept. */
const JS_FIXTURE =
  'import { expect, it } from "vitest";\nimport { build } from "../src/build";\n\n{cache}function fixture() {\n{guard}  const made = build();\n  expect(made.ok).toBe(true);\n  return {store};\n}\n\nit("uses the fixture", () => {\n  expect(fixture().size).toBe(3);\n});\n';
const PY_FIXTURE =
  "from app import build\n\n{cache}\ndef fixture():\n{guard}    made = build()\n    assert made.ok\n{store}    return made\n\n\ndef test_uses_the_fixture():\n    assert fixture().size == 3\n";
const GO_FIXTURE =
  'package app\n\nimport "testing"\n\n{cache}func fixture(t *testing.T) *Thing {\n{guard}\tmade := Build()\n\tif !made.OK {\n\t\tt.Fatalf("build failed")\n\t}\n{store}\treturn made\n}\n\nfunc TestUsesTheFixture(t *testing.T) {\n\tif fixture(t).Size != 3 {\n\t\tt.Errorf("size")\n\t}\n}\n';
const fill = (template: string, parts: Record<string, string>): string => template.replace(/\{(cache|guard|store)\}/g, (_, key: string) => parts[key] ?? "");

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

invalid.push(
  {
    name: "typescript: a guard returning the helper's own input before its assertion (no memo: nothing stores it)",
    changes: [change("test/build.test.ts", fill(JS_FIXTURE, { store: "made" }), fill(JS_FIXTURE, { guard: "  if (process.env.FAST) return build();\n", store: "made" }))],
    findings: [removal("test/build.test.ts", "uses the fixture")],
  },
  {
    name: "python: `if …: return data` before the helper's assert (returns its input, stores nothing)",
    changes: [change("tests/test_b64.py", PY, edit(PY, "    assert encode", "    if len(data) % 3:\n        return data\n    assert encode"))],
    findings: [removal("tests/test_b64.py", "test_one_byte")],
  },
);

const valid: RuleCase[] = [
  {
    name: "typescript: the helper's assertion now behind a memo guard (checked on the first call, reused after)",
    changes: [
      change(
        "test/build.test.ts",
        fill(JS_FIXTURE, { store: "made" }),
        fill(JS_FIXTURE, { cache: "let cached: ReturnType<typeof build> | null = null;\n\n", guard: "  if (cached !== null) return cached;\n", store: "(cached = made)" }),
      ),
    ],
    findings: [],
  },
  {
    name: "typescript: a memo guard over a Map (`cache.get(key)` … `cache.set(key, …)`)",
    changes: [
      change(
        "test/build.test.ts",
        fill(JS_FIXTURE, { store: "made" }),
        fill(JS_FIXTURE, { cache: "const cache = new Map<string, ReturnType<typeof build>>();\n\n", guard: '  if (cache.has("x")) return cache.get("x");\n', store: '(cache.set("x", made), made)' }),
      ),
    ],
    findings: [],
  },
  {
    name: "python: the helper's assertion now behind a memo guard",
    changes: [
      change(
        "tests/test_app.py",
        fill(PY_FIXTURE, {}),
        fill(PY_FIXTURE, { cache: "_cached = None\n\n", guard: "    global _cached\n    if _cached is not None:\n        return _cached\n", store: "    _cached = made\n" }),
      ),
    ],
    findings: [],
  },
  {
    name: "go: the helper's check now behind a memo guard",
    changes: [
      change("app/app_test.go", fill(GO_FIXTURE, {}), fill(GO_FIXTURE, { cache: "var cached *Thing\n\n", guard: "\tif cached != nil {\n\t\treturn cached\n\t}\n", store: "\tcached = made\n" })),
    ],
    findings: [],
  },
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
