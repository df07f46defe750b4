/**
 * Tests deleted together with the code they checked (rules/features.ts
 * findRemovedDefinitions): when every check of a deleted test called a
 * function or method that the change removed, whatever its visibility (a
 * package-private Java method, an unexported Go func, a Python `_helper`),
 * the deletion is a feature_removal at medium (DESIGN.md), not a critical
 * test_deletion. A deleted test whose subject survives is still critical.
 * Checks reach removed code through locals, class bases of the test file,
 * macro arguments and the rows of a table (rules/dependencies.ts,
 * parsers/tree-sitter-subjects.ts); one check on surviving code keeps the
 * deletion critical.
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
  // A parent test with no check of its own whose subtests check the removed code (sweep of google/go-cmp a53d7e09b0).
  {
    name: "go: a package file deleted with its test file whose checks run in t.Run subtests over table rows",
    changes: [
      change("value/zero.go", 'package value\n\nimport "reflect"\n\nfunc IsZero(v reflect.Value) bool { return v.IsZero() }\n', null),
      change(
        "value/zero_test.go",
        'package value\n\nimport (\n\t"math"\n\t"reflect"\n\t"testing"\n)\n\nfunc TestIsZero(t *testing.T) {\n\ttests := []struct {\n\t\tin   interface{}\n\t\twant bool\n\t}{\n\t\t{0, true},\n\t\t{math.Copysign(0, -1), false},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\tgot := IsZero(reflect.ValueOf(tt.in))\n\t\t\tif got != tt.want {\n\t\t\t\tt.Errorf("IsZero(%v) = %v", tt.in, got)\n\t\t\t}\n\t\t})\n\t}\n}\n',
        null,
      ),
    ],
    findings: ["feature_removal/medium value/zero.go", `feature_removal/medium value/zero_test.go`],
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
  // Checks that reach removed code through locals, class bases, macro arguments and table rows (issue 9: sweeps of
  // hashicorp/golang-lru, jbogard/MediatR, serilog/serilog, sindresorhus/execa, BurntSushi/toml).
  {
    name: "go: a removed type's tests check values its removed constructor returned",
    changes: [
      change(
        "cache.go",
        "package cache\n\ntype LRU struct{}\n\nfunc (c *LRU) Get(k int) bool { return false }\n\ntype ARC struct{}\n\nfunc NewARC(n int) (*ARC, error) { return &ARC{}, nil }\n\nfunc (c *ARC) Get(k int) bool { return false }\n",
        "package cache\n\ntype LRU struct{}\n\nfunc (c *LRU) Get(k int) bool { return false }\n",
      ),
      change(
        "arc_test.go",
        'package cache\n\nimport "testing"\n\nfunc TestARC(t *testing.T) {\n\tc, err := NewARC(2)\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tif ok := c.Get(1); ok {\n\t\tt.Error("empty")\n\t}\n}\n',
        null,
      ),
    ],
    findings: [`feature_removal/medium arc_test.go "TestARC"`, "feature_removal/medium cache.go", "feature_removal/medium cache.go"],
  },
  {
    name: "c#: a removed property's test checks it after calls to a surviving method",
    changes: [
      change(
        "src/Scheduler.cs",
        "public sealed class Scheduler\n{\n    private int _failures;\n    public void MarkFailure() => ++_failures;\n    public bool ShouldDrop => _failures >= 8;\n}\n",
        "public sealed class Scheduler\n{\n    private int _failures;\n    public void MarkFailure() => ++_failures;\n}\n",
      ),
      change(
        "tests/SchedulerTests.cs",
        "public class SchedulerTests\n{\n    [Fact]\n    public void Marks() { var s = new Scheduler(); s.MarkFailure(); }\n\n    [Fact]\n    public void DropsAfterEight()\n    {\n        var s = new Scheduler();\n        for (var i = 0; i < 8; ++i)\n        {\n            Assert.False(s.ShouldDrop);\n            s.MarkFailure();\n        }\n        Assert.True(s.ShouldDrop);\n    }\n}\n",
        "public class SchedulerTests\n{\n    [Fact]\n    public void Marks() { var s = new Scheduler(); s.MarkFailure(); }\n}\n",
      ),
    ],
    findings: ["feature_removal/medium src/Scheduler.cs", `feature_removal/medium tests/SchedulerTests.cs "SchedulerTests > DropsAfterEight"`],
  },
  {
    name: "c#: a removed abstract base's test uses it through a class of the test file",
    changes: [
      change(
        "src/Handlers.cs",
        "public interface IHandler { string Handle(string r); }\n\npublic abstract class Handler : IHandler\n{\n    public string Handle(string r) => Run(r);\n    protected abstract string Run(string r);\n}\n",
        "public interface IHandler { string Handle(string r); }\n",
      ),
      change(
        "tests/HandlerTests.cs",
        'public class HandlerTests\n{\n    class Ping : Handler { protected override string Run(string r) => r + " Pong"; }\n\n    [Fact]\n    public void CallsRun()\n    {\n        IHandler handler = new Ping();\n        Assert.Equal("Ping Pong", handler.Handle("Ping"));\n    }\n}\n',
        null,
      ),
    ],
    findings: [
      "feature_removal/medium src/Handlers.cs",
      "feature_removal/medium src/Handlers.cs",
      "feature_removal/medium src/Handlers.cs",
      `feature_removal/medium tests/HandlerTests.cs "HandlerTests > CallsRun"`,
    ],
  },
  {
    name: "go: a table row naming a removed constant goes with it",
    changes: [
      change("kind.go", "package k\n\ntype Kind int\n\nconst (\n\tKindA Kind = iota\n\tKindNil\n\tKindB\n)\n", "package k\n\ntype Kind int\n\nconst (\n\tKindA Kind = iota\n\tKindB\n)\n"),
      change(
        "kind_test.go",
        'package k\n\nimport "testing"\n\nfunc TestKinds(t *testing.T) {\n\tfor _, k := range []Kind{KindA, KindNil, KindB} {\n\t\tif k < 0 {\n\t\t\tt.Errorf("negative %d", k)\n\t\t}\n\t}\n}\n',
        'package k\n\nimport "testing"\n\nfunc TestKinds(t *testing.T) {\n\tfor _, k := range []Kind{KindA, KindB} {\n\t\tif k < 0 {\n\t\t\tt.Errorf("negative %d", k)\n\t\t}\n\t}\n}\n',
      ),
    ],
    findings: [`feature_removal/medium kind_test.go "TestKinds"`],
  },
  {
    name: "js: an ava macro test that passes a removed export to its macro",
    changes: [
      change("src/run.js", "export const run = (c) => c;\nexport const runLine = (c) => c.trim();\n", "export const run = (c) => c;\n"),
      change(
        "test/run.js",
        "import test from 'ava';\nimport {run, runLine} from '../src/run.js';\n\nconst same = (t, input, method) => {\n\tt.is(method(input), input);\n};\n\ntest('run', same, 'a', run);\ntest('runLine', same, 'a', runLine);\n",
        "import test from 'ava';\nimport {run} from '../src/run.js';\n\nconst same = (t, input, method) => {\n\tt.is(method(input), input);\n};\n\ntest('run', same, 'a', run);\n",
      ),
    ],
    findings: [`feature_removal/medium src/run.js`, `feature_removal/medium test/run.js "runLine"`],
  },
  {
    name: "python: a removed class's test checks an instance bound to a local",
    changes: [
      change(
        "pkg/shapes.py",
        "class Square:\n    def area(self):\n        return 4\n\n\nclass Legacy:\n    def area(self):\n        return 1\n",
        "class Square:\n    def area(self):\n        return 4\n",
      ),
      change(
        "tests/test_shapes.py",
        "from pkg.shapes import Square, Legacy\n\n\ndef test_square():\n    assert Square().area() == 4\n\n\ndef test_legacy():\n    shape = Legacy()\n    assert shape.area() == 1\n",
        "from pkg.shapes import Square\n\n\ndef test_square():\n    assert Square().area() == 4\n",
      ),
    ],
    findings: ["feature_removal/medium pkg/shapes.py", `feature_removal/medium tests/test_shapes.py "test_legacy"`],
  },
  {
    name: "java: a removed class's test checks an instance bound to a local",
    changes: [
      change(
        "src/main/java/shop/Shapes.java",
        "package shop;\n\npublic class Shapes {\n  public int square() { return 4; }\n  public int legacy() { return 1; }\n}\n",
        "package shop;\n\npublic class Shapes {\n  public int square() { return 4; }\n}\n",
      ),
      change(
        "src/test/java/shop/ShapesTest.java",
        "package shop;\n\nclass ShapesTest {\n  @Test void square() { assertEquals(4, new Shapes().square()); }\n  @Test void legacy() { Shapes s = new Shapes(); int area = s.legacy(); assertEquals(1, area); }\n}\n",
        "package shop;\n\nclass ShapesTest {\n  @Test void square() { assertEquals(4, new Shapes().square()); }\n}\n",
      ),
    ],
    findings: ["feature_removal/medium src/main/java/shop/Shapes.java", `feature_removal/medium src/test/java/shop/ShapesTest.java "ShapesTest > legacy"`],
  },
  {
    name: "ruby: a removed method's test checks a value bound to a local",
    changes: [
      change("lib/shapes.rb", "class Shapes\n  def square\n    4\n  end\n\n  def legacy\n    1\n  end\nend\n", "class Shapes\n  def square\n    4\n  end\nend\n"),
      change(
        "test/shapes_test.rb",
        'require "minitest/autorun"\n\nclass ShapesTest < Minitest::Test\n  def test_square\n    assert_equal 4, Shapes.new.square\n  end\n\n  def test_legacy\n    area = Shapes.new.legacy\n    assert_equal 1, area\n  end\nend\n',
        'require "minitest/autorun"\n\nclass ShapesTest < Minitest::Test\n  def test_square\n    assert_equal 4, Shapes.new.square\n  end\nend\n',
      ),
    ],
    findings: ["feature_removal/medium lib/shapes.rb", `feature_removal/medium test/shapes_test.rb "ShapesTest > test_legacy"`],
  },
  {
    name: "rust: a removed method's test checks a value bound to a local",
    changes: [
      change(
        "src/shapes.rs",
        "pub struct Shapes;\n\nimpl Shapes {\n    pub fn square(&self) -> i32 { 4 }\n    pub fn legacy(&self) -> i32 { 1 }\n}\n",
        "pub struct Shapes;\n\nimpl Shapes {\n    pub fn square(&self) -> i32 { 4 }\n}\n",
      ),
      change(
        "tests/shapes.rs",
        "use app::shapes::Shapes;\n\n#[test]\nfn square() {\n    assert_eq!(Shapes.square(), 4);\n}\n\n#[test]\nfn legacy() {\n    let area = Shapes.legacy();\n    assert_eq!(area, 1);\n}\n",
        "use app::shapes::Shapes;\n\n#[test]\nfn square() {\n    assert_eq!(Shapes.square(), 4);\n}\n",
      ),
    ],
    findings: ["feature_removal/medium src/shapes.rs", `feature_removal/medium tests/shapes.rs "legacy"`],
  },
  {
    name: "php: a removed method's test checks a value bound to a local",
    changes: [
      change(
        "src/Shapes.php",
        "<?php\nnamespace App;\n\nfinal class Shapes\n{\n    public function square(): int { return 4; }\n    public function legacy(): int { return 1; }\n}\n",
        "<?php\nnamespace App;\n\nfinal class Shapes\n{\n    public function square(): int { return 4; }\n}\n",
      ),
      change(
        "tests/ShapesTest.php",
        "<?php\nnamespace App;\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ShapesTest extends TestCase\n{\n    public function testSquare(): void { $this->assertSame(4, (new Shapes())->square()); }\n\n    public function testLegacy(): void\n    {\n        $area = (new Shapes())->legacy();\n        $this->assertSame(1, $area);\n    }\n}\n",
        "<?php\nnamespace App;\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ShapesTest extends TestCase\n{\n    public function testSquare(): void { $this->assertSame(4, (new Shapes())->square()); }\n}\n",
      ),
    ],
    findings: ["feature_removal/medium src/Shapes.php", `feature_removal/medium tests/ShapesTest.php "ShapesTest > testLegacy"`],
  },
];

const cheats: RuleCase[] = [
  {
    name: "go: a test whose t.Run subtests check a surviving func, deleted with another package file",
    changes: [
      change("value/zero.go", 'package value\n\nimport "reflect"\n\nfunc IsZero(v reflect.Value) bool { return v.IsZero() }\n', null),
      change(
        "value/empty.go",
        'package value\n\nimport "reflect"\n\nfunc IsEmpty(v reflect.Value) bool { return v.IsZero() }\n',
        'package value\n\nimport "reflect"\n\nfunc IsEmpty(v reflect.Value) bool { return v.IsZero() }\n\nfunc Extra() {}\n',
      ),
      change(
        "value/zero_test.go",
        'package value\n\nimport (\n\t"math"\n\t"reflect"\n\t"testing"\n)\n\nfunc TestIsZero(t *testing.T) {\n\ttests := []struct {\n\t\tin   interface{}\n\t\twant bool\n\t}{\n\t\t{0, true},\n\t\t{math.Copysign(0, -1), false},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\tgot := IsEmpty(reflect.ValueOf(tt.in))\n\t\t\tif got != tt.want {\n\t\t\t\tt.Errorf("IsZero(%v) = %v", tt.in, got)\n\t\t\t}\n\t\t})\n\t}\n}\n',
        null,
      ),
    ],
    findings: ["feature_removal/medium value/zero.go", `test_deletion/critical value/zero_test.go`],
  },
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
  // The nearest cheats of the cases above: the code a deleted test checked stays, or only part of it was removed.
  {
    name: "go: a test deleted while the type its local came from stays and another type is removed",
    changes: [
      change(
        "cache.go",
        "package cache\n\ntype LRU struct{}\n\nfunc New() *LRU { return &LRU{} }\n\nfunc (c *LRU) Get(k int) bool { return false }\n\ntype ARC struct{}\n\nfunc (c *ARC) Has(k int) bool { return false }\n",
        "package cache\n\ntype LRU struct{}\n\nfunc New() *LRU { return &LRU{} }\n\nfunc (c *LRU) Get(k int) bool { return false }\n",
      ),
      change("lru_test.go", 'package cache\n\nimport "testing"\n\nfunc TestLRU(t *testing.T) {\n\tc := New()\n\tif ok := c.Get(1); ok {\n\t\tt.Error("empty")\n\t}\n}\n', null),
    ],
    findings: ["feature_removal/medium cache.go", `test_deletion/critical lru_test.go "TestLRU"`],
  },
  {
    name: "c#: a test deleted that checked a removed property and a surviving one",
    changes: [
      change(
        "src/Scheduler.cs",
        "public sealed class Scheduler\n{\n    private int _failures;\n    public void MarkFailure() => ++_failures;\n    public bool ShouldDrop => _failures >= 8;\n    public int Interval => _failures * 2;\n}\n",
        "public sealed class Scheduler\n{\n    private int _failures;\n    public void MarkFailure() => ++_failures;\n    public int Interval => _failures * 2;\n}\n",
      ),
      change(
        "tests/SchedulerTests.cs",
        "public class SchedulerTests\n{\n    [Fact]\n    public void Marks() { var s = new Scheduler(); s.MarkFailure(); }\n\n    [Fact]\n    public void DropsAfterEight()\n    {\n        var s = new Scheduler();\n        for (var i = 0; i < 8; ++i) s.MarkFailure();\n        Assert.True(s.ShouldDrop);\n        Assert.Equal(16, s.Interval);\n    }\n}\n",
        "public class SchedulerTests\n{\n    [Fact]\n    public void Marks() { var s = new Scheduler(); s.MarkFailure(); }\n}\n",
      ),
    ],
    findings: ["feature_removal/medium src/Scheduler.cs", `test_deletion/critical tests/SchedulerTests.cs "SchedulerTests > DropsAfterEight"`],
  },
  {
    name: "go: a table row deleted while its constant stays",
    changes: [
      change(
        "kind.go",
        "package k\n\ntype Kind int\n\nconst (\n\tKindA Kind = iota\n\tKindNil\n\tKindB\n\tKindOld\n)\n",
        "package k\n\ntype Kind int\n\nconst (\n\tKindA Kind = iota\n\tKindNil\n\tKindB\n)\n",
      ),
      change(
        "kind_test.go",
        'package k\n\nimport "testing"\n\nfunc TestKinds(t *testing.T) {\n\tfor _, k := range []Kind{KindA, KindNil, KindB} {\n\t\tif k < 0 {\n\t\t\tt.Errorf("negative %d", k)\n\t\t}\n\t}\n}\n',
        'package k\n\nimport "testing"\n\nfunc TestKinds(t *testing.T) {\n\tfor _, k := range []Kind{KindA, KindB} {\n\t\tif k < 0 {\n\t\t\tt.Errorf("negative %d", k)\n\t\t}\n\t}\n}\n',
      ),
    ],
    findings: [`test_deletion/critical kind_test.go "TestKinds"`],
  },
  {
    name: "js: a test deleted that checked a removed export and a surviving one",
    changes: [
      change("src/run.js", "export const run = (c) => c;\nexport const runLine = (c) => c.trim();\n", "export const run = (c) => c;\n"),
      change(
        "test/run.test.js",
        "import {run, runLine} from '../src/run.js';\n\ntest('run', () => {\n\texpect(run('a')).toBe('a');\n});\n\ntest('both', () => {\n\texpect(runLine(' a ')).toBe('a');\n\texpect(run('b')).toBe('b');\n});\n",
        "import {run} from '../src/run.js';\n\ntest('run', () => {\n\texpect(run('a')).toBe('a');\n});\n",
      ),
    ],
    findings: [`feature_removal/medium src/run.js`, `test_deletion/critical test/run.test.js "both"`],
  },
  {
    name: "python: a test deleted that checked a removed class and a surviving one",
    changes: [
      change(
        "pkg/shapes.py",
        "class Square:\n    def area(self):\n        return 4\n\n\nclass Legacy:\n    def area(self):\n        return 1\n",
        "class Square:\n    def area(self):\n        return 4\n",
      ),
      change(
        "tests/test_shapes.py",
        "from pkg.shapes import Square, Legacy\n\n\ndef test_square():\n    assert Square().area() == 4\n\n\ndef test_both():\n    old = Legacy()\n    new = Square()\n    assert old.area() == 1\n    assert new.area() == 4\n",
        "from pkg.shapes import Square\n\n\ndef test_square():\n    assert Square().area() == 4\n",
      ),
    ],
    findings: ["feature_removal/medium pkg/shapes.py", `test_deletion/critical tests/test_shapes.py "test_both"`],
  },
  {
    name: "ruby: a test deleted that checked a removed method and a surviving one",
    changes: [
      change("lib/shapes.rb", "class Shapes\n  def square\n    4\n  end\n\n  def legacy\n    1\n  end\nend\n", "class Shapes\n  def square\n    4\n  end\nend\n"),
      change(
        "test/shapes_test.rb",
        'require "minitest/autorun"\n\nclass ShapesTest < Minitest::Test\n  def test_square\n    assert_equal 4, Shapes.new.square\n  end\n\n  def test_both\n    shapes = Shapes.new\n    assert_equal 1, shapes.legacy\n    assert_equal 4, shapes.square\n  end\nend\n',
        'require "minitest/autorun"\n\nclass ShapesTest < Minitest::Test\n  def test_square\n    assert_equal 4, Shapes.new.square\n  end\nend\n',
      ),
    ],
    findings: ["feature_removal/medium lib/shapes.rb", `test_deletion/critical test/shapes_test.rb "ShapesTest > test_both"`],
  },
  {
    name: "rust: a test deleted that checked a removed method and a surviving one",
    changes: [
      change(
        "src/shapes.rs",
        "pub struct Shapes;\n\nimpl Shapes {\n    pub fn square(&self) -> i32 { 4 }\n    pub fn legacy(&self) -> i32 { 1 }\n}\n",
        "pub struct Shapes;\n\nimpl Shapes {\n    pub fn square(&self) -> i32 { 4 }\n}\n",
      ),
      change(
        "tests/shapes.rs",
        "use app::shapes::Shapes;\n\n#[test]\nfn square() {\n    assert_eq!(Shapes.square(), 4);\n}\n\n#[test]\nfn both() {\n    let old = Shapes.legacy();\n    let new = Shapes.square();\n    assert_eq!(old, 1);\n    assert_eq!(new, 4);\n}\n",
        "use app::shapes::Shapes;\n\n#[test]\nfn square() {\n    assert_eq!(Shapes.square(), 4);\n}\n",
      ),
    ],
    findings: ["feature_removal/medium src/shapes.rs", `test_deletion/critical tests/shapes.rs "both"`],
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
