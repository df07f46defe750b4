/**
 * Pairing before tests with after tests beyond their names (issue 9,
 * "names are only a first pass"): a table row that leaves out an argument
 * the old call also left out (its default), a title extended in the middle,
 * a table test renamed whose subtests kept their checks, a check on a local
 * whose value now comes from an arrange helper of a table test, a test
 * renamed with the local it checks renamed. Each look-alike gives no test
 * finding; the nearest cheat under the same reshape (a row dropped, an old
 * input left out of the rows, a weakened matcher, a changed expected value
 * behind a renamed local) still blocks.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const lookAlikes: RuleCase[] = [
  {
    name: "java: a test renamed with the local it checks for null renamed, declared with the same value",
    changes: [
      change(
        "src/test/java/ScannerTest.java",
        "class ScannerTest {\n  @Test void scanIncludesAllowedClasses() {\n    Object partial = new Scanner().allow(Sub.class).find(Sub.class);\n    assertNotNull(partial);\n  }\n}\n",
        "class ScannerTest {\n  @Test void scanIncludesSpecifiedClasses() {\n    Object subclass = new Scanner().allow(Sub.class).find(Sub.class);\n    assertNotNull(subclass);\n  }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "php: a test renamed with the local it checks for null renamed, assigned the same value",
    changes: [
      change(
        "tests/ScannerTest.php",
        "<?php\nfinal class ScannerTest extends TestCase\n{\n    public function testScanIncludesAllowedClasses(): void\n    {\n        $partial = (new Scanner())->allow(Sub::class)->find(Sub::class);\n        $this->assertNotNull($partial);\n    }\n}\n",
        "<?php\nfinal class ScannerTest extends TestCase\n{\n    public function testScanIncludesSpecifiedClasses(): void\n    {\n        $subclass = (new Scanner())->allow(Sub::class)->find(Sub::class);\n        $this->assertNotNull($subclass);\n    }\n}\n",
      ),
    ],
    findings: [],
  },
  {
    name: "js: tests merged into it.each, the default argument written out in the rows",
    changes: [
      change(
        "test/pad.test.ts",
        `it("pads with spaces", () => { expect(pad("7", 3)).toBe("  7"); });\nit("pads with zeros", () => { expect(pad("7", 3, "0")).toBe("007"); });\n`,
        `it.each([\n  ["7", 3, " ", "  7"],\n  ["7", 3, "0", "007"],\n])("pad(%s, %i, %j) is %s", (text, width, fill, want) => { expect(pad(text, width, fill)).toBe(want); });\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "python: tests merged into parametrize, the default argument written out in the rows",
    changes: [
      change(
        "tests/test_wrap.py",
        `def test_single_line():\n    assert indent("a") == "  a"\n\ndef test_custom_prefix():\n    assert indent("a", "> ") == "> a"\n`,
        `import pytest\n\n@pytest.mark.parametrize(("text", "prefix", "expected"), [("a", "  ", "  a"), ("a", "> ", "> a")])\ndef test_indent(text, prefix, expected):\n    assert indent(text, prefix) == expected\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "php: tests merged into a data provider, the default argument written out in the rows",
    changes: [
      change(
        "tests/PadTest.php",
        `<?php\nclass PadTest extends TestCase {\n  public function testSpaces() { $this->assertSame("  7", pad("7", 3)); }\n  public function testZeros() { $this->assertSame("007", pad("7", 3, "0")); }\n}\n`,
        `<?php\nclass PadTest extends TestCase {\n  public static function cases() { return [["7", 3, " ", "  7"], ["7", 3, "0", "007"]]; }\n  /** @dataProvider cases */\n  public function testPad($text, $width, $fill, $want) { $this->assertSame($want, pad($text, $width, $fill)); }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "ruby: a title extended in the middle, the check kept",
    changes: [
      change(
        "spec/env_spec.rb",
        `describe Env do\n  it "sets the length to zero when no params are given" do\n    expect(Env.for_get["LENGTH"]).to eq("0")\n  end\nend\n`,
        `describe Env do\n  it "sets the length to zero for GET and HEAD when no params are given" do\n    expect(Env.for_get(head: false)["LENGTH"]).to eq("0")\n  end\nend\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "js: a title extended in the middle, one identifier of the body adapted",
    changes: [
      change(
        "test/env.test.ts",
        `it("sets the length to zero when no params are given", () => { expect(forGet().length).toBe(0); });\n`,
        `it("sets the length to zero for GET requests when no params are given", () => { expect(forGetRequest().length).toBe(0); });\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "csharp: a test renamed with the local it checks renamed",
    changes: [
      change(
        "tests/ScannerTests.cs",
        `public class ScannerTests {\n  [Fact]\n  public void ScanIncludesAllowedClasses() {\n    var scanner = new Scanner().Allow(typeof(Sub));\n    var partial = scanner.Scan(typeof(ScannerTests).Assembly);\n    Assert.Contains(typeof(Sub), partial);\n  }\n}\n`,
        `public class ScannerTests {\n  [Fact]\n  public void ScanIncludesSpecifiedClasses() {\n    var scanner = new Scanner().Allow(typeof(Sub));\n    var subclasses = scanner.Scan(typeof(ScannerTests).Assembly);\n    Assert.Contains(typeof(Sub), subclasses);\n  }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "java: a test renamed with the local it checks renamed",
    changes: [
      change(
        "src/test/java/ScannerTest.java",
        `class ScannerTest {\n  @Test void includesAllowedClasses() {\n    List<Class<?>> partial = new Scanner().allow(Sub.class).scan();\n    assertTrue(partial.contains(Sub.class));\n  }\n}\n`,
        `class ScannerTest {\n  @Test void includesSpecifiedClasses() {\n    List<Class<?>> subclasses = new Scanner().allow(Sub.class).scan();\n    assertTrue(subclasses.contains(Sub.class));\n  }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "go: a table test renamed with its setter, its subtest's check kept and rows added",
    changes: [
      change(
        "decode_test.go",
        `package conf\n\nimport "testing"\n\nfunc TestMaxNesting(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{"a.b=1", 1, "too deep"},\n\t\t{"a=1", 1, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run(tt.doc, func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxNesting(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
        `package conf\n\nimport "testing"\n\nfunc TestMaxDepth(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{"a.b=1", 1, "table too deep"},\n\t\t{"a=1", 1, ""},\n\t\t{"a=[[1]]", 1, "array too deep"},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run(tt.doc, func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxDepth(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "go: a table test renamed with its setter, its literal-named subtest's check kept and rows added",
    changes: [
      change(
        "decode_test.go",
        `package conf\n\nimport "testing"\n\nfunc TestMaxNesting(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{"a.b=1", 1, "too deep"},\n\t\t{"a=1", 1, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxNesting(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
        `package conf\n\nimport "testing"\n\nfunc TestMaxDepth(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{"a.b=1", 1, "table too deep"},\n\t\t{"a=1", 1, ""},\n\t\t{"a=[[1]]", 1, "array too deep"},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxDepth(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "php: tests checking a local merged into a data provider test whose arrange code moved into a helper",
    changes: [
      change(
        "tests/NormTest.php",
        `<?php\nclass NormTest extends TestCase {\n  public function testClamps() {\n    $n = Norm::fromConfig(['max' => 4]);\n    $levels = $n->apply([1, 5]);\n    $this->assertSame([1, 4], $levels);\n  }\n  public function testKeeps() {\n    $n = Norm::fromConfig([]);\n    $levels = $n->apply([1, 6]);\n    $this->assertSame([1, 6], $levels);\n  }\n}\n`,
        `<?php\nclass NormTest extends TestCase {\n  /** @dataProvider cases */\n  public function testNorm($config, $levels, $expected) { $this->assertSame($expected, $this->process($config, $levels)); }\n  public static function cases() { return [[['max' => 4], [1, 5], [1, 4]], [[], [1, 6], [1, 6]]]; }\n  private function process($config, $levels) { return Norm::fromConfig($config)->apply($levels); }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "csharp (Shouldly): a test renamed with its setup adapted, its checks kept",
    changes: [
      change(
        "tests/PipelineTests.cs",
        `using Shouldly;\npublic class PipelineTests {\n  [Fact]\n  public void Should_pick_up_pre_processors() {\n    var config = new Config();\n    config.ScanAssembly(typeof(PipelineTests));\n    config.PreProcessors.Count.ShouldBe(2);\n    config.PreProcessors.ShouldBe(new[] { typeof(First), typeof(Next) });\n  }\n}\n`,
        `using Shouldly;\npublic class PipelineTests {\n  [Fact]\n  public void Should_register_pre_processors() {\n    var config = new Config();\n    config.ScanAssembly(typeof(PipelineTests));\n    config.AddPreProcessor<First>();\n    config.AddPreProcessor<Next>();\n    config.PreProcessors.Count.ShouldBe(2);\n    config.PreProcessors.ShouldBe(new[] { typeof(First), typeof(Next) });\n  }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "csharp (xUnit): a test renamed with its setup adapted, its checks kept",
    changes: [
      change(
        "tests/PipelineTests.cs",
        `using Xunit;\npublic class PipelineTests {\n  [Fact]\n  public void Should_pick_up_pre_processors() {\n    var config = new Config();\n    config.ScanAssembly(typeof(PipelineTests));\n    Assert.Equal(2, config.PreProcessors.Count);\n    Assert.Equal(new[] { typeof(First), typeof(Next) }, config.PreProcessors);\n  }\n}\n`,
        `using Xunit;\npublic class PipelineTests {\n  [Fact]\n  public void Should_register_pre_processors() {\n    var config = new Config();\n    config.ScanAssembly(typeof(PipelineTests));\n    config.AddPreProcessor<First>();\n    config.AddPreProcessor<Next>();\n    Assert.Equal(2, config.PreProcessors.Count);\n    Assert.Equal(new[] { typeof(First), typeof(Next) }, config.PreProcessors);\n  }\n}\n`,
      ),
    ],
    findings: [],
  },
  {
    name: "csharp (Shouldly): two timing tests with absolute thresholds merged into one relative comparison",
    changes: [
      change(
        "tests/PublisherTests.cs",
        `using Shouldly;\npublic class PublisherTests {\n  [Fact]\n  public async Task Sequential() {\n    var timer = Stopwatch.StartNew();\n    await Publisher.Sequential(Handlers());\n    timer.Stop();\n    timer.ElapsedMilliseconds.ShouldBeGreaterThanOrEqualTo(750);\n  }\n  [Fact]\n  public async Task Parallel() {\n    var timer = Stopwatch.StartNew();\n    await Publisher.WhenAll(Handlers());\n    timer.Stop();\n    timer.ElapsedMilliseconds.ShouldBeLessThan(750);\n  }\n}\n`,
        `using Shouldly;\npublic class PublisherTests {\n  [Fact]\n  public async Task Sequential() {\n    var timer = Stopwatch.StartNew();\n    await Publisher.Sequential(Handlers());\n    timer.Stop();\n    var sequentialElapsed = timer.ElapsedMilliseconds;\n    timer.Restart();\n    await Publisher.WhenAll(Handlers());\n    timer.Stop();\n    var parallelElapsed = timer.ElapsedMilliseconds;\n    sequentialElapsed.ShouldBeGreaterThan(parallelElapsed);\n  }\n}\n`,
      ),
    ],
    // The surviving test's threshold became the other measurement: a change of expectation, not a lost test (WARN).
    findings: [`expectation_changed/medium tests/PublisherTests.cs "PublisherTests > Sequential"`],
  },
  {
    name: "js: two timing tests with absolute thresholds merged into one relative comparison",
    changes: [
      change(
        "test/publish.test.ts",
        `it("runs in sequence", async () => {\n  const start = performance.now();\n  await sequential(handlers());\n  const elapsedMs = performance.now() - start;\n  expect(elapsedMs).toBeGreaterThanOrEqual(750);\n});\nit("runs in parallel", async () => {\n  const start = performance.now();\n  await parallel(handlers());\n  const elapsedMs = performance.now() - start;\n  expect(elapsedMs).toBeLessThan(750);\n});\n`,
        `it("runs in sequence", async () => {\n  let start = performance.now();\n  await sequential(handlers());\n  const sequentialMs = performance.now() - start;\n  start = performance.now();\n  await parallel(handlers());\n  const parallelMs = performance.now() - start;\n  expect(sequentialMs).toBeGreaterThan(parallelMs);\n});\n`,
      ),
    ],
    // The surviving test's threshold became the other measurement: a change of expectation, not a lost test (WARN).
    findings: [`expectation_changed/medium test/publish.test.ts "runs in sequence"`],
  },
  {
    name: "python: two timing tests with absolute thresholds merged into one relative comparison",
    changes: [
      change(
        "tests/test_publish.py",
        "def test_sequential():\n    start = time.monotonic()\n    run_sequential(handlers())\n    assert time.monotonic() - start >= 0.75\n\ndef test_parallel():\n    start = time.monotonic()\n    run_parallel(handlers())\n    elapsed = time.monotonic() - start\n    assert elapsed < 0.75\n",
        "def test_sequential():\n    start = time.monotonic()\n    run_sequential(handlers())\n    sequential_elapsed = time.monotonic() - start\n    start = time.monotonic()\n    run_parallel(handlers())\n    parallel_elapsed = time.monotonic() - start\n    assert sequential_elapsed > parallel_elapsed\n",
      ),
    ],
    // The surviving test's threshold became the other measurement: a change of expectation, not a lost test (WARN).
    findings: [`expectation_changed/medium tests/test_publish.py "test_sequential"`],
  },
  {
    name: "go: table rows rewritten through a local closure and array rows added, every old row kept",
    changes: [
      change(
        "decode_test.go",
        `package conf\n\nimport (\n\t"strings"\n\t"testing"\n)\n\nfunc TestMaxNesting(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{strings.Repeat(".a", 129)[1:] + " = 1", -99, "too many nested tables"},\n\t\t{strings.Repeat(".a", 5)[1:] + " = 1", 5, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxNesting(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
        `package conf\n\nimport (\n\t"strings"\n\t"testing"\n)\n\nfunc TestMaxNesting(t *testing.T) {\n\ttbl := func(n int) string { return strings.Repeat(".a", n)[1:] + "=1" }\n\tarr := func(n int) string { return "a=" + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{tbl(129), -99, "exceeds maximum table depth"},\n\t\t{tbl(5), 5, ""},\n\t\t{arr(129), -99, "exceeds maximum array depth"},\n\t\t{arr(5), 5, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxNesting(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "js: a timing test deleted while a relative timing comparison is added in another file",
    changes: [
      change(
        "test/publish.test.ts",
        `it("runs in parallel", async () => {\n  const start = performance.now();\n  await parallel(handlers());\n  const elapsedMs = performance.now() - start;\n  expect(elapsedMs).toBeLessThan(750);\n});\n`,
        null,
      ),
      change(
        "test/cache.test.ts",
        null,
        `it("is faster warm", async () => {\n  let start = performance.now();\n  await load();\n  const coldMs = performance.now() - start;\n  start = performance.now();\n  await load();\n  const warmMs = performance.now() - start;\n  expect(coldMs).toBeGreaterThan(warmMs);\n});\n`,
      ),
    ],
    findings: [`test_deletion/critical test/publish.test.ts "runs in parallel"`],
  },
  {
    name: "csharp: a test deleted and a new one added that checks the same value on another local fed other inputs",
    changes: [
      change(
        "tests/ParserTests.cs",
        `public class ParserTests {\n  [Fact]\n  public void ParsesThreeItems() {\n    var parsed = Parser.Parse("a,b,c");\n    Assert.Equal(3, parsed);\n  }\n}\n`,
        `public class ParserTests {\n  [Fact]\n  public void CountsDefaults() {\n    var count = Defaults.Count();\n    Assert.Equal(3, count);\n  }\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/ParserTests.cs "ParserTests > ParsesThreeItems"`],
  },
  {
    name: "go: table rows rewritten through a local closure and array rows added, one old row left out whose values the new rows reuse apart",
    changes: [
      change(
        "decode_test.go",
        `package conf\n\nimport (\n\t"strings"\n\t"testing"\n)\n\nfunc TestMaxNesting(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{strings.Repeat(".a", 129)[1:] + " = 1", -99, "too many nested tables"},\n\t\t{strings.Repeat(".a", 5)[1:] + " = 1", 5, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxNesting(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
        `package conf\n\nimport (\n\t"strings"\n\t"testing"\n)\n\nfunc TestMaxNesting(t *testing.T) {\n\ttbl := func(n int) string { return strings.Repeat(".a", n)[1:] + "=1" }\n\tarr := func(n int) string { return "a=" + strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{tbl(5), 5, ""},\n\t\t{arr(129), 0, ""},\n\t\t{arr(6), -99, "exceeds maximum array depth"},\n\t\t{arr(5), 5, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxNesting(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical decode_test.go "TestMaxNesting"`],
  },
  {
    name: "csharp (Shouldly): a timing test deleted, no relative comparison in its place",
    changes: [
      change(
        "tests/PublisherTests.cs",
        `using Shouldly;\npublic class PublisherTests {\n  [Fact]\n  public async Task Sequential() {\n    var timer = Stopwatch.StartNew();\n    await Publisher.Sequential(Handlers());\n    timer.Stop();\n    timer.ElapsedMilliseconds.ShouldBeGreaterThanOrEqualTo(750);\n  }\n  [Fact]\n  public async Task Parallel() {\n    var timer = Stopwatch.StartNew();\n    await Publisher.WhenAll(Handlers());\n    timer.Stop();\n    timer.ElapsedMilliseconds.ShouldBeLessThan(750);\n  }\n}\n`,
        `using Shouldly;\npublic class PublisherTests {\n  [Fact]\n  public async Task Sequential() {\n    var timer = Stopwatch.StartNew();\n    await Publisher.Sequential(Handlers());\n    timer.Stop();\n    timer.ElapsedMilliseconds.ShouldBeGreaterThanOrEqualTo(750);\n  }\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/PublisherTests.cs "PublisherTests > Parallel"`],
  },
  {
    name: "csharp: count thresholds (not timings) merged into one relative comparison",
    changes: [
      change(
        "tests/QueueTests.cs",
        `using Xunit;\npublic class QueueTests {\n  [Fact]\n  public void Batches() {\n    var sent = Queue.Drain(Batch(3));\n    Assert.True(sent.Count >= 3);\n  }\n  [Fact]\n  public void Singles() {\n    var sent = Queue.Drain(Single(3));\n    Assert.True(sent.Count < 3);\n  }\n}\n`,
        `using Xunit;\npublic class QueueTests {\n  [Fact]\n  public void Batches() {\n    var batches = Queue.Drain(Batch(3)).Count;\n    var singles = Queue.Drain(Single(3)).Count;\n    Assert.True(batches > singles);\n  }\n}\n`,
      ),
    ],
    findings: [`expectation_changed/medium tests/QueueTests.cs "QueueTests > Batches"`, `test_deletion/critical tests/QueueTests.cs "QueueTests > Singles"`],
  },
  {
    name: "csharp (Shouldly): a test renamed with its setup adapted and one check dropped",
    changes: [
      change(
        "tests/PipelineTests.cs",
        `using Shouldly;\npublic class PipelineTests {\n  [Fact]\n  public void Should_pick_up_pre_processors() {\n    var config = new Config();\n    config.ScanAssembly(typeof(PipelineTests));\n    config.PreProcessors.Count.ShouldBe(2);\n    config.PreProcessors.ShouldBe(new[] { typeof(First), typeof(Next) });\n  }\n}\n`,
        `using Shouldly;\npublic class PipelineTests {\n  [Fact]\n  public void Should_register_pre_processors() {\n    var config = new Config();\n    config.ScanAssembly(typeof(PipelineTests));\n    config.AddPreProcessor<First>();\n    config.AddPreProcessor<Next>();\n    config.PreProcessors.Count.ShouldBe(2);\n  }\n}\n`,
      ),
    ],
    findings: [`assertion_removal/high tests/PipelineTests.cs "PipelineTests > Should_pick_up_pre_processors"`],
  },
  {
    // The kept check must not pin the count itself: an equality with a two-element array already checks Count == 2.
    name: "csharp (xUnit): a test renamed with its setup adapted and its count check weakened",
    changes: [
      change(
        "tests/PipelineTests.cs",
        `using Xunit;\npublic class PipelineTests {\n  [Fact]\n  public void Should_pick_up_pre_processors() {\n    var config = new Config();\n    config.ScanAssembly(typeof(PipelineTests));\n    Assert.Equal(2, config.PreProcessors.Count);\n    Assert.Contains(typeof(First), config.PreProcessors);\n  }\n}\n`,
        `using Xunit;\npublic class PipelineTests {\n  [Fact]\n  public void Should_register_pre_processors() {\n    var config = new Config();\n    config.ScanAssembly(typeof(PipelineTests));\n    config.AddPreProcessor<First>();\n    config.AddPreProcessor<Next>();\n    Assert.NotEmpty(config.PreProcessors);\n    Assert.Contains(typeof(First), config.PreProcessors);\n  }\n}\n`,
      ),
    ],
    findings: [`assertion_removal/high tests/PipelineTests.cs "PipelineTests > Should_pick_up_pre_processors"`],
  },
  {
    name: "js: tests merged into it.each with the default written out, one case's row dropped",
    changes: [
      change(
        "test/pad.test.ts",
        `it("pads with spaces", () => { expect(pad("7", 3)).toBe("  7"); });\nit("pads with zeros", () => { expect(pad("7", 3, "0")).toBe("007"); });\n`,
        `it.each([\n  ["7", 3, "0", "007"],\n])("pad(%s, %i, %j) is %s", (text, width, fill, want) => { expect(pad(text, width, fill)).toBe(want); });\n`,
      ),
    ],
    findings: [`test_deletion/critical test/pad.test.ts "pads with spaces"`],
  },
  {
    name: "python: tests merged into parametrize whose rows leave out an argument an old test passed",
    changes: [
      change(
        "tests/test_wrap.py",
        `def test_single_line():\n    assert indent("a") == "  a"\n\ndef test_custom_prefix():\n    assert indent("a", "> ") == "> a"\n`,
        `import pytest\n\n@pytest.mark.parametrize(("text", "expected"), [("a", "  a"), ("b", "  b")])\ndef test_indent(text, expected):\n    assert indent(text) == expected\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/test_wrap.py "test_custom_prefix"`],
  },
  {
    name: "python: tests merged into parametrize, the old input changed in the row",
    changes: [
      change(
        "tests/test_wrap.py",
        `def test_single_line():\n    assert indent("a") == "  a"\n\ndef test_custom_prefix():\n    assert indent("a", "> ") == "> a"\n`,
        `import pytest\n\n@pytest.mark.parametrize(("text", "prefix", "expected"), [("b", "  ", "  a"), ("a", "> ", "> a")])\ndef test_indent(text, prefix, expected):\n    assert indent(text, prefix) == expected\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/test_wrap.py "test_single_line"`],
  },
  {
    name: "ruby: a title extended in the middle and its exact check weakened to a membership",
    changes: [
      change(
        "spec/env_spec.rb",
        `describe Env do\n  it "sets the length to zero when no params are given" do\n    Env.for_get["LENGTH"].must_equal "0"\n  end\nend\n`,
        `describe Env do\n  it "sets the length to zero or leaves it unset when no params are given" do\n    ["0", nil].must_include Env.for_get["LENGTH"]\n  end\nend\n`,
      ),
    ],
    findings: [`assertion_weakening/high spec/env_spec.rb "Env > sets the length to zero or leaves it unset when no params are given"`],
  },
  {
    name: "js: a title extended in the middle and toBe(3) weakened to toBeDefined",
    changes: [
      change(
        "test/count.test.ts",
        `it("counts the three items of the list", () => { expect(count(list)).toBe(3); });\n`,
        `it("counts the three items or more of the list", () => { expect(count(list)).toBeDefined(); });\n`,
      ),
    ],
    findings: [`assertion_weakening/high test/count.test.ts "counts the three items or more of the list"`],
  },
  {
    name: "csharp: a test renamed with its local renamed and its expected value changed",
    changes: [
      change(
        "tests/ScannerTests.cs",
        `public class ScannerTests {\n  [Fact]\n  public void ScanIncludesAllowedClasses() {\n    var scanner = new Scanner().Allow(typeof(Sub));\n    var partial = scanner.Scan(typeof(ScannerTests).Assembly);\n    Assert.Contains(typeof(Sub), partial);\n  }\n}\n`,
        `public class ScannerTests {\n  [Fact]\n  public void ScanIncludesSpecifiedClasses() {\n    var scanner = new Scanner().Allow(typeof(Sub));\n    var subclasses = scanner.Scan(typeof(ScannerTests).Assembly);\n    Assert.Contains(typeof(Other), subclasses);\n  }\n}\n`,
      ),
    ],
    // The locals are read as the value they hold (`scanner.Scan(...)` on both sides), so this is the expected value of
    // one check changed while the code did not: expectation_changed at medium (DESIGN.md's table), as the same change
    // always was in Python and JS/TS. It was a test_deletion only while C# checks named their locals.
    findings: [`expectation_changed/medium tests/ScannerTests.cs "ScannerTests > ScanIncludesSpecifiedClasses"`],
  },
  {
    name: "java: a test renamed with the local it checks for null renamed, declared with another value",
    changes: [
      change(
        "src/test/java/ScannerTest.java",
        "class ScannerTest {\n  @Test void scanIncludesAllowedClasses() {\n    Object partial = new Scanner().allow(Sub.class).find(Sub.class);\n    assertNotNull(partial);\n  }\n}\n",
        "class ScannerTest {\n  @Test void scanIncludesSpecifiedClasses() {\n    Object subclass = new Scanner().allow(Sub.class).find(Base.class);\n    assertNotNull(subclass);\n  }\n}\n",
      ),
    ],
    findings: [`test_deletion/critical src/test/java/ScannerTest.java "ScannerTest > scanIncludesAllowedClasses"`],
  },
  {
    name: "csharp: a test renamed with its local renamed and Assert.Equal weakened to Assert.NotNull",
    changes: [
      change(
        "tests/ScannerTests.cs",
        `public class ScannerTests {\n  [Fact]\n  public void ScanFindsThreeClasses() {\n    var found = new Scanner().Scan();\n    Assert.Equal(3, found);\n  }\n}\n`,
        `public class ScannerTests {\n  [Fact]\n  public void ScanFindsTheClasses() {\n    var classes = new Scanner().Scan();\n    Assert.NotNull(classes);\n  }\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/ScannerTests.cs "ScannerTests > ScanFindsThreeClasses"`],
  },
  {
    name: "go: a table test renamed and one of its rows dropped",
    changes: [
      change(
        "decode_test.go",
        `package conf\n\nimport "testing"\n\nfunc TestMaxNesting(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{"a.b=1", 1, "too deep"},\n\t\t{"a=1", 1, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run(tt.doc, func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxNesting(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
        `package conf\n\nimport "testing"\n\nfunc TestMaxDepth(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{"a=1", 1, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run(tt.doc, func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxDepth(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical decode_test.go "TestMaxDepth"`],
  },
  {
    name: "go: a table test renamed and one of its rows dropped, its check in a literal-named subtest",
    changes: [
      change(
        "decode_test.go",
        `package conf\n\nimport "testing"\n\nfunc TestMaxNesting(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{"a.b=1", 1, "too deep"},\n\t\t{"a=1", 1, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxNesting(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
        `package conf\n\nimport "testing"\n\nfunc TestMaxDepth(t *testing.T) {\n\ttests := []struct {\n\t\tdoc  string\n\t\tmax  int\n\t\twant string\n\t}{\n\t\t{"a=1", 1, ""},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run("", func(t *testing.T) {\n\t\t\td := NewDecoder()\n\t\t\td.MaxDepth(tt.max)\n\t\t\t_, err := d.Decode(tt.doc)\n\t\t\tif !errorContains(err, tt.want) {\n\t\t\t\tt.Errorf("have %v want %q", err, tt.want)\n\t\t\t}\n\t\t})\n\t}\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical decode_test.go "TestMaxDepth"`],
  },
  {
    name: "php: tests checking a local merged into a data provider whose rows leave out one old input",
    changes: [
      change(
        "tests/NormTest.php",
        `<?php\nclass NormTest extends TestCase {\n  public function testClamps() {\n    $n = Norm::fromConfig(['max' => 4]);\n    $levels = $n->apply([1, 5]);\n    $this->assertSame([1, 4], $levels);\n  }\n  public function testKeeps() {\n    $n = Norm::fromConfig([]);\n    $levels = $n->apply([1, 6]);\n    $this->assertSame([1, 6], $levels);\n  }\n}\n`,
        `<?php\nclass NormTest extends TestCase {\n  /** @dataProvider cases */\n  public function testNorm($levels, $expected) { $this->assertSame($expected, $this->process($levels)); }\n  public static function cases() { return [[[1, 5], [1, 4]], [[1, 6], [1, 6]]]; }\n  private function process($levels) { return Norm::fromConfig([])->apply($levels); }\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/NormTest.php "NormTest > testClamps"`],
  },
  {
    name: "php: tests checking a local merged into a data provider, one expected value changed",
    changes: [
      change(
        "tests/NormTest.php",
        `<?php\nclass NormTest extends TestCase {\n  public function testClamps() {\n    $n = Norm::fromConfig(['max' => 4]);\n    $levels = $n->apply([1, 5]);\n    $this->assertSame([1, 4], $levels);\n  }\n  public function testKeeps() {\n    $n = Norm::fromConfig([]);\n    $levels = $n->apply([1, 6]);\n    $this->assertSame([1, 6], $levels);\n  }\n}\n`,
        `<?php\nclass NormTest extends TestCase {\n  /** @dataProvider cases */\n  public function testNorm($config, $levels, $expected) { $this->assertSame($expected, $this->process($config, $levels)); }\n  public static function cases() { return [[['max' => 4], [1, 5], [1, 5]], [[], [1, 6], [1, 6]]]; }\n  private function process($config, $levels) { return Norm::fromConfig($config)->apply($levels); }\n}\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/NormTest.php "NormTest > testClamps"`],
  },
];

describe("pairing beyond names: legitimate rewrites", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("pairing beyond names: the nearest cheats still block", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
