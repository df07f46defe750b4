/**
 * A deleted test that could never fail (compare.ts checksNothing): every
 * assertion a tautology, no code run besides them. It guarded nothing, so
 * its deletion is a test_deletion at low, in every language. One that runs
 * code (a call in its body, a pytest fixture it requests) still guarded
 * that the code does not throw, and one comparing a literal with the
 * product's answer is no tautology: both stay critical.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const lowCases: RuleCase[] = [
  {
    name: "python: `assert True` alone",
    changes: [change("tests/test_a.py", "def test_real():\n    assert f(1) == 1\n\n\ndef test_nothing():\n    assert True\n", "def test_real():\n    assert f(1) == 1\n")],
    findings: [`test_deletion/low tests/test_a.py "test_nothing"`],
  },
  {
    name: "c#: Assert.True(true) alone",
    changes: [
      change(
        "tests/ATests.cs",
        "public class ATests\n{\n    [Fact]\n    public void Real() { Assert.Equal(1, F.Of(1)); }\n\n    [Fact]\n    public void Nothing() { Assert.True(true); }\n}\n",
        "public class ATests\n{\n    [Fact]\n    public void Real() { Assert.Equal(1, F.Of(1)); }\n}\n",
      ),
    ],
    findings: [`test_deletion/low tests/ATests.cs "ATests > Nothing"`],
  },
  {
    name: "php: two locals bound to the same literal array compared",
    changes: [
      change(
        "tests/LTest.php",
        "<?php\nfinal class LTest extends TestCase\n{\n    public function testReal(): void\n    {\n        $this->assertSame(['a'], L::p('a'));\n    }\n\n    public function testSame(): void\n    {\n        $a = ['x'];\n        $b = ['x'];\n        self::assertSame($b, $a);\n    }\n}\n",
        "<?php\nfinal class LTest extends TestCase\n{\n    public function testReal(): void\n    {\n        $this->assertSame(['a'], L::p('a'));\n    }\n}\n",
      ),
    ],
    findings: [`test_deletion/low tests/LTest.php "LTest > testSame"`],
  },
];

const criticalCases: RuleCase[] = [
  {
    name: "python: `assert True` after a call of the code",
    changes: [change("tests/test_a.py", "def test_real():\n    assert f(1) == 1\n\n\ndef test_runs():\n    f(2)\n    assert True\n", "def test_real():\n    assert f(1) == 1\n")],
    findings: [`test_deletion/critical tests/test_a.py "test_runs"`],
  },
  {
    name: "python: `assert True` in a test that requests a fixture",
    changes: [change("tests/test_a.py", "def test_real():\n    assert f(1) == 1\n\n\ndef test_db(db):\n    assert True\n", "def test_real():\n    assert f(1) == 1\n")],
    findings: [`test_deletion/critical tests/test_a.py "test_db"`],
  },
  {
    name: "c#: Assert.True(true) after a call of the code",
    changes: [
      change(
        "tests/ATests.cs",
        "public class ATests\n{\n    [Fact]\n    public void Real() { Assert.Equal(1, F.Of(1)); }\n\n    [Fact]\n    public void Runs() { F.Of(2); Assert.True(true); }\n}\n",
        "public class ATests\n{\n    [Fact]\n    public void Real() { Assert.Equal(1, F.Of(1)); }\n}\n",
      ),
    ],
    findings: [`test_deletion/critical tests/ATests.cs "ATests > Runs"`],
  },
];

describe("deleted tests that checked nothing: low", () => {
  for (const rule of lowCases) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("deleted tests that ran code or checked it: critical", () => {
  for (const rule of criticalCases) it(rule.name, async () => void (await expectFindings(rule)));
});
