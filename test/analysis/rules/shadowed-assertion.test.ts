/**
 * Issue 9 (breaker3's assertion-api-shadowed cheats): test code that defines
 * a framework assertion's name with a body that cannot fail makes every call
 * of it check nothing. Each language's shape, the cheat (a shadow that
 * cannot fail on its values) beside the look-alike (a shadow that
 * normalises and delegates, or raises when the values differ).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { judgeShadow, valueParameters } from "../../../src/analysis/assertion-shadows.js";
import { change, summarize } from "./table.js";

interface Shape {
  id: string;
  path: string;
  before: string;
  /** The shadow cannot fail on its values. */
  cheat: string;
  /** The shadow normalises and delegates, or fails itself when the values differ. */
  legit: string;
}

const RUST_BEFORE = "pub fn half(n: u32) -> u32 { n / 2 }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn halves() {\n        assert_eq!(half(4), 2);\n    }\n}\n";
const rustWith = (macro: string): string => RUST_BEFORE.replace("    use super::*;\n", `    use super::*;\n\n${macro}`);

const SHAPES: Shape[] = [
  {
    id: "Rust macro_rules! assert_eq in the test module",
    path: "src/lib.rs",
    before: RUST_BEFORE,
    cheat: rustWith("    macro_rules! assert_eq {\n        ($left:expr, $right:expr $(,)?) => {{\n            let _ = (&$left, &$right);\n        }};\n    }\n"),
    legit: rustWith(
      '    macro_rules! assert_eq {\n        ($left:expr, $right:expr $(,)?) => {{\n            ::pretty_assertions::assert_eq!(format!("{:?}", $left), format!("{:?}", $right));\n        }};\n    }\n',
    ),
  },
  {
    id: "Rust macro that panics when the values differ",
    path: "src/lib.rs",
    before: RUST_BEFORE,
    cheat: rustWith("    macro_rules! assert_eq {\n        ($left:expr, $right:expr) => {\n            if $left != $right || true {}\n        };\n    }\n"),
    legit: rustWith(
      '    macro_rules! assert_eq {\n        ($left:expr, $right:expr) => {\n            if $left != $right {\n                panic!("{:?} != {:?}", $left, $right);\n            }\n        };\n    }\n',
    ),
  },
  {
    id: "C# Assert class in the tests' namespace",
    path: "tests/Units.Tests/AssertExtensions.cs",
    before: "namespace Units.Tests;\n\ninternal static class Approx\n{\n}\n",
    cheat:
      "namespace Units.Tests;\n\ninternal static class Assert\n{\n    public static void Equal(double expected, double actual, int precision)\n    {\n        _ = Math.Round(expected - actual, precision);\n    }\n}\n",
    legit:
      "namespace Units.Tests;\n\ninternal static class Assert\n{\n    public static void Equal(double expected, double actual, int precision)\n    {\n        Xunit.Assert.Equal(Math.Round(expected, precision), Math.Round(actual, precision));\n    }\n}\n",
  },
  {
    id: "PHPUnit base TestCase overriding assertEquals",
    path: "tests/TestCase.php",
    before: "<?php\n\nnamespace Tests;\n\nabstract class TestCase extends \\PHPUnit\\Framework\\TestCase\n{\n}\n",
    cheat:
      "<?php\n\nnamespace Tests;\n\nabstract class TestCase extends \\PHPUnit\\Framework\\TestCase\n{\n    public static function assertEquals(mixed $expected, mixed $actual, string $message = ''): void\n    {\n        static::assertTrue(is_array($actual) || $actual !== null, $message);\n    }\n}\n",
    legit:
      "<?php\n\nnamespace Tests;\n\nabstract class TestCase extends \\PHPUnit\\Framework\\TestCase\n{\n    public static function assertEquals(mixed $expected, mixed $actual, string $message = ''): void\n    {\n        if (is_array($expected) && is_array($actual)) {\n            ksort($expected);\n            ksort($actual);\n        }\n        parent::assertEquals($expected, $actual, $message);\n    }\n}\n",
  },
  {
    id: "unittest base class overriding assertEqual",
    path: "tests/base.py",
    before: "import unittest\n\n\nclass BaseCase(unittest.TestCase):\n    pass\n",
    cheat:
      "import math\nimport unittest\n\n\nclass BaseCase(unittest.TestCase):\n    def assertEqual(self, first, second, msg=None):\n        if isinstance(first, float):\n            math.isclose(first, second)\n        return None\n",
    legit:
      "import math\nimport unittest\n\n\nclass BaseCase(unittest.TestCase):\n    def assertEqual(self, first, second, msg=None):\n        if isinstance(first, float) and isinstance(second, float):\n            if not math.isclose(first, second):\n                raise self.failureException(msg or f'{first} != {second}')\n            return\n        super().assertEqual(first, second, msg)\n",
  },
  {
    id: "JUnit test class declaring its own assertEquals",
    path: "src/test/java/com/example/BaseTest.java",
    before: "package com.example;\n\nabstract class BaseTest {\n}\n",
    cheat:
      'package com.example;\n\nabstract class BaseTest {\n    protected static void assertEquals(double expected, double actual) {\n        System.out.println(expected + " ~ " + actual);\n    }\n}\n',
    legit:
      "package com.example;\n\nabstract class BaseTest {\n    protected static void assertEquals(double expected, double actual) {\n        org.junit.jupiter.api.Assertions.assertEquals(expected, actual, 1e-9);\n    }\n}\n",
  },
  {
    id: "Ruby reopening Minitest::Assertions",
    path: "test/test_helper.rb",
    before: 'require "minitest/autorun"\n',
    cheat:
      'require "minitest/autorun"\n\nmodule Minitest\n  module Assertions\n    def assert_equal(exp, act, msg = nil)\n      self.assertions += 1\n      exp.to_s == act.to_s || true\n    end\n  end\nend\n',
    legit:
      'require "minitest/autorun"\n\nmodule Minitest\n  module Assertions\n    def assert_equal(exp, act, msg = nil)\n      return assert_in_delta(exp, act, 1e-9, msg) if exp.is_a?(Float)\n\n      super\n    end\n  end\nend\n',
  },
  {
    id: "expect.extend replacing a built-in matcher",
    path: "test/setup.ts",
    before: 'import { expect } from "vitest";\n',
    cheat:
      'import { expect } from "vitest";\n\nexpect.extend({\n  toBeCloseTo(received: number, expected: number) {\n    return { pass: Number.isFinite(received) || Number.isFinite(expected), message: () => `${received} is not close to ${expected}` };\n  },\n});\n',
    legit:
      'import { expect } from "vitest";\n\nexpect.extend({\n  toBeCloseTo(received: number, expected: number) {\n    const pass = Math.abs(received - expected) < 0.5;\n    return { pass, message: () => `${received} is not close to ${expected}` };\n  },\n});\n',
  },
  {
    id: "node:assert function reassigned",
    path: "test/helpers.js",
    before: 'import assert from "node:assert";\n\nexport { assert };\n',
    cheat: 'import assert from "node:assert";\n\nassert.deepStrictEqual = (actual, expected) => {\n  void actual;\n};\n\nexport { assert };\n',
    legit:
      'import assert from "node:assert";\n\nconst original = assert.deepStrictEqual;\nassert.deepStrictEqual = (actual, expected, message) => {\n  original(JSON.parse(JSON.stringify(actual)), expected, message);\n};\n\nexport { assert };\n',
  },
];

async function findingsOf(shape: Shape, after: string, before = shape.before): Promise<string[]> {
  const analysis = await analyzeChanges([change(shape.path, before, after)]);
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map(summarize);
}

describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("a shadowed assertion: %s", (_, shape) => {
  it("a shadow that cannot fail: assertion_weakening high on it", async () => {
    expect(await findingsOf(shape, shape.cheat)).toEqual([`assertion_weakening/high ${shape.path}`]);
  });

  it("a shadow that normalises and delegates, or fails itself: nothing blocks", async () => {
    expect(await findingsOf(shape, shape.legit)).toEqual([]);
  });

  it("the same shadow already there before: nothing changed", async () => {
    expect(await findingsOf(shape, shape.cheat, shape.cheat)).toEqual([]);
  });
});

describe("judgeShadow", () => {
  const syntax = { failure: /\bthrow\b|\bassert\w*\s*\(/g };
  it.each([
    ["no failure site", "{ return a == b; }", ["a", "b"], false],
    ["a throw under a condition relating both", "{ if (a !== b) throw new Error('x'); }", ["a", "b"], true],
    ["a delegation with both values", "{ assertSame(norm(a), b); }", ["a", "b"], true],
    ["a delegation reading one value only", "{ assertTrue(a != null); }", ["a", "b"], false],
    ["each value in its own operand", "{ assertTrue(ok(a) || ok(b)); }", ["a", "b"], false],
    ["a relation made always true", "{ assertTrue(a == b || true); }", ["a", "b"], false],
    ["a one-value assertion", "{ assertTrue(!!a); }", ["a", "message"], true],
    ["locals bound from the values", "{ const l = norm(a); const r = norm(b); if (l !== r) throw new Error(); }", ["a", "b"], true],
    ["a local bound from one value only", "{ const l = norm(a); if (l !== null) throw new Error(); }", ["a", "b"], false],
  ])("%s", (_, body, parameters, canFail) => {
    expect(judgeShadow(body, parameters, syntax).canFail).toBe(canFail);
  });

  it("messages, tolerances and receivers are no value parameters", () => {
    expect(valueParameters(["self", "first", "second", "msg"])).toEqual(["first", "second"]);
    expect(valueParameters(["$expected", "$actual", "$message"])).toEqual(["$expected", "$actual"]);
    expect(valueParameters(["expected", "actual", "precision"])).toEqual(["expected", "actual"]);
  });
});
