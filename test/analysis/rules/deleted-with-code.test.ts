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
  // The code's whole file deleted with its test file, in languages whose tests name it without an import
  // (found sweeping google/go-cmp and sebastianbergmann/diff: reported critical test_deletion).
  {
    name: "go: a package file deleted with its test file",
    changes: [
      change("value/zero.go", "package value\n\nfunc IsZero(v int) bool { return v == 0 }\n", null),
      change("value/zero_test.go", 'package value\n\nimport "testing"\n\nfunc TestIsZero(t *testing.T) {\n\tif !IsZero(0) {\n\t\tt.Error("zero")\n\t}\n}\n', null),
    ],
    findings: ["feature_removal/medium value/zero.go", `feature_removal/medium value/zero_test.go "TestIsZero"`],
  },
  {
    name: "php: a class file deleted with its test file",
    changes: [
      change(
        "src/Output/UnifiedBuilder.php",
        '<?php\nnamespace Diff\\Output;\n\nfinal class UnifiedBuilder\n{\n    public function build(array $lines): string\n    {\n        return implode("\\n", $lines);\n    }\n}\n',
        null,
      ),
      change(
        "tests/Output/UnifiedBuilderTest.php",
        "<?php\nnamespace Diff\\Output;\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class UnifiedBuilderTest extends TestCase\n{\n    public function testBuild(): void\n    {\n        $this->assertSame(\"+b\", (new UnifiedBuilder)->build(['+b']));\n    }\n}\n",
        null,
      ),
    ],
    findings: ["feature_removal/medium src/Output/UnifiedBuilder.php", `feature_removal/medium tests/Output/UnifiedBuilderTest.php "UnifiedBuilderTest > testBuild"`],
  },
  {
    name: "java: a class file deleted with its test file",
    changes: [
      change("src/main/java/shop/Legacy.java", "package shop;\n\npublic class Legacy {\n  public int legacyTotal(int a) { return a; }\n}\n", null),
      change("src/test/java/shop/LegacyTest.java", "package shop;\n\nclass LegacyTest {\n  @Test void total() { assertEquals(2, new Legacy().legacyTotal(2)); }\n}\n", null),
    ],
    findings: ["feature_removal/medium src/main/java/shop/Legacy.java", `feature_removal/medium src/test/java/shop/LegacyTest.java "LegacyTest > total"`],
  },
];

const cheats: RuleCase[] = [
  {
    name: "go: a test file deleted beside another package file: what it checked survives",
    changes: [
      change(
        "value/zero.go",
        "package value\n\nfunc IsZero(v int) bool { return v == 0 }\n",
        "package value\n\nfunc IsZero(v int) bool { return v == 0 }\n\nfunc IsOne(v int) bool { return v == 1 }\n",
      ),
      change("value/old.go", "package value\n\nfunc oldHelper(v int) int { return v }\n", null),
      change("value/zero_test.go", 'package value\n\nimport "testing"\n\nfunc TestIsZero(t *testing.T) {\n\tif !IsZero(0) {\n\t\tt.Error("zero")\n\t}\n}\n', null),
    ],
    findings: [`test_deletion/critical value/zero_test.go "TestIsZero"`],
  },
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
