/**
 * Tests deleted together with the code they checked (rules/features.ts
 * findRemovedDefinitions): when every check of a deleted test called a
 * function or method that the change removed, whatever its visibility (a
 * package-private Java method, an unexported Go func, a Python `_helper`),
 * the deletion is a feature_removal at medium (DESIGN.md), not a critical
 * test_deletion. A deleted test whose subject survives is still critical.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const lookAlikes: RuleCase[] = [
  {
    name: "java: a package-private method removed with its test",
    changes: [
      change(
        "src/main/java/Scanner.java",
        "class Scanner {\n  public boolean startsWith(String p) { return true; }\n  boolean containsIgnoreCase(String s) { return true; }\n}\n",
        "class Scanner {\n  public boolean startsWith(String p) { return true; }\n}\n",
      ),
      change(
        "src/test/java/ScannerTest.java",
        'class ScannerTest {\n  @Test void startsWith() { assertTrue(new Scanner().startsWith("a")); }\n  @Test void containsIgnoreCase() { assertTrue(new Scanner().containsIgnoreCase("two")); assertFalse(new Scanner().containsIgnoreCase("x")); }\n}\n',
        'class ScannerTest {\n  @Test void startsWith() { assertTrue(new Scanner().startsWith("a")); }\n}\n',
      ),
    ],
    findings: [`feature_removal/medium src/test/java/ScannerTest.java "ScannerTest > containsIgnoreCase"`],
  },
  {
    name: "go: an unexported func removed with its test",
    changes: [
      change("trim.go", "package p\n\nfunc Trim(s string) string { return s }\n\nfunc squash(s string) string { return s }\n", "package p\n\nfunc Trim(s string) string { return s }\n"),
      change(
        "trim_test.go",
        'package p\n\nimport "testing"\n\nfunc TestTrim(t *testing.T) {\n\tif Trim("a") != "a" {\n\t\tt.Errorf("trim")\n\t}\n}\n\nfunc TestSquash(t *testing.T) {\n\tif squash("a  b") != "a b" {\n\t\tt.Errorf("squash")\n\t}\n}\n',
        'package p\n\nimport "testing"\n\nfunc TestTrim(t *testing.T) {\n\tif Trim("a") != "a" {\n\t\tt.Errorf("trim")\n\t}\n}\n',
      ),
    ],
    findings: [`feature_removal/medium trim_test.go "TestSquash"`],
  },
  {
    name: "python: a private helper removed with its test",
    changes: [
      change("pkg/text.py", "def trim(s):\n    return s.strip()\n\n\ndef _squash(s):\n    return ' '.join(s.split())\n", "def trim(s):\n    return s.strip()\n"),
      change(
        "tests/test_text.py",
        "from pkg.text import trim, _squash\n\n\ndef test_trim():\n    assert trim(' a ') == 'a'\n\n\ndef test_squash():\n    assert _squash('a  b') == 'a b'\n",
        "from pkg.text import trim\n\n\ndef test_trim():\n    assert trim(' a ') == 'a'\n",
      ),
    ],
    findings: [`feature_removal/medium tests/test_text.py "test_squash"`],
  },
];

const cheats: RuleCase[] = [
  {
    name: "java: a test deleted while the method it checked survives",
    changes: [
      change(
        "src/main/java/Scanner.java",
        "class Scanner {\n  public boolean startsWith(String p) { return true; }\n  boolean containsIgnoreCase(String s) { return true; }\n}\n",
        "class Scanner {\n  public boolean startsWith(String p) { return true; }\n  boolean containsIgnoreCase(String s) { return false; }\n}\n",
      ),
      change(
        "src/test/java/ScannerTest.java",
        'class ScannerTest {\n  @Test void startsWith() { assertTrue(new Scanner().startsWith("a")); }\n  @Test void containsIgnoreCase() { assertTrue(new Scanner().containsIgnoreCase("two")); }\n}\n',
        'class ScannerTest {\n  @Test void startsWith() { assertTrue(new Scanner().startsWith("a")); }\n}\n',
      ),
    ],
    findings: [`test_deletion/critical src/test/java/ScannerTest.java "ScannerTest > containsIgnoreCase"`],
  },
  {
    name: "go: a test deleted that also checked a surviving func besides the removed one",
    changes: [
      change("trim.go", "package p\n\nfunc Trim(s string) string { return s }\n\nfunc squash(s string) string { return s }\n", "package p\n\nfunc Trim(s string) string { return s }\n"),
      change(
        "trim_test.go",
        'package p\n\nimport "testing"\n\nfunc TestKeep(t *testing.T) {\n\tif Trim("a") != "a" {\n\t\tt.Errorf("trim")\n\t}\n}\n\nfunc TestBoth(t *testing.T) {\n\tif squash("a  b") != "a b" {\n\t\tt.Errorf("squash")\n\t}\n\tif Trim(" x ") != "x" {\n\t\tt.Errorf("trim")\n\t}\n}\n',
        'package p\n\nimport "testing"\n\nfunc TestKeep(t *testing.T) {\n\tif Trim("a") != "a" {\n\t\tt.Errorf("trim")\n\t}\n}\n',
      ),
    ],
    findings: [`test_deletion/critical trim_test.go "TestBoth"`],
  },
];

describe("tests deleted with the code they checked: feature_removal", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("tests deleted while what they checked survives: test_deletion", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
