/**
 * What a test's checks depend on and what a product file declares
 * (parsers/tree-sitter-subjects.ts): TestCase.checkNames closes each check's
 * names over the test's locals and the file's class bases; CodeFacts.declared
 * lists the names declared outside function bodies; an assertion comparing
 * locals bound to the same literal text is a tautology.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../src/analysis/index.js";

describe("checkNames", () => {
  it("go: a check on a local stands for the call the local was bound to", async () => {
    const facts = await extractFacts(
      "arc_test.go",
      'package c\n\nimport "testing"\n\nfunc TestA(t *testing.T) {\n\tl, err := NewARC(2)\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tif _, ok := l.Get(1); !ok {\n\t\tt.Error("x")\n\t}\n}\n',
    );
    const names = facts.tests[0]?.checkNames ?? [];
    expect(names).toHaveLength(2);
    expect(names[0]).toContain("NewARC");
    expect(names[0]).not.toContain("err");
    expect(names[1]).toEqual(expect.arrayContaining(["Get", "NewARC"]));
  });

  it("c#: a local of a test-file class reaches the class's base", async () => {
    const facts = await extractFacts(
      "tests/HTests.cs",
      "public class HTests\n{\n    class Ping : Handler { }\n\n    [Fact]\n    public void Calls()\n    {\n        IHandler h = new Ping();\n        Assert.Equal(1, h.Handle());\n    }\n}\n",
    );
    expect(facts.tests[0]?.checkNames?.[0]).toEqual(expect.arrayContaining(["Handle", "Ping", "Handler"]));
  });

  it("python: a check names only what it reads, not the test's other calls", async () => {
    const facts = await extractFacts("tests/test_a.py", "def test_a():\n    old = Legacy()\n    new = Square()\n    assert old.area() == 1\n    assert new.area() == 4\n");
    const [first, second] = facts.tests[0]?.checkNames ?? [];
    expect(first).toContain("Legacy");
    expect(first).not.toContain("Square");
    expect(second).toContain("Square");
    expect(second).not.toContain("Legacy");
  });
});

describe("declared", () => {
  it("lists constants, properties and methods, not locals", async () => {
    const go = await extractFacts("k.go", 'package k\n\ntype Kind int\n\nconst (\n\tKindA Kind = iota\n\tKindNil\n)\n\nfunc (k Kind) String() string { local := 1; _ = local; return "" }\n');
    expect(go.code?.declared).toEqual(["Kind", "KindA", "KindNil", "String"]);
    const cs = await extractFacts("src/S.cs", "public sealed class S\n{\n    private int _n;\n    public bool ShouldDrop => _n > 8;\n    public void Mark() { var local = 1; ++_n; }\n}\n");
    expect(cs.code?.declared).toEqual(expect.arrayContaining(["S", "_n", "ShouldDrop", "Mark"]));
    expect(cs.code?.declared).not.toContain("local");
  });
});

describe("tautology through locals", () => {
  it("php: two locals bound to the same literal compared is a tautology; a local bound to a call is not", async () => {
    const facts = await extractFacts(
      "tests/LTest.php",
      "<?php\nfinal class LTest extends TestCase\n{\n    public function testSame(): void\n    {\n        $a = ['x'];\n        $b = ['x'];\n        self::assertSame($b, $a);\n    }\n\n    public function testCall(): void\n    {\n        $a = L::p('x');\n        $b = ['x'];\n        self::assertSame($b, $a);\n    }\n}\n",
    );
    expect(facts.tests.map((test) => test.assertionsDetail?.[0]?.tautology)).toEqual([true, false]);
  });

  it("c#: two reads of one property bound to locals are two measurements, not a tautology (timing tests merged into one relative check)", async () => {
    const facts = await extractFacts(
      "tests/PublisherTests.cs",
      "using Shouldly;\npublic class PublisherTests {\n  [Fact]\n  public async Task Sequential() {\n    var timer = Stopwatch.StartNew();\n    await Publisher.Sequential(Handlers());\n    var sequentialElapsed = timer.ElapsedMilliseconds;\n    timer.Restart();\n    await Publisher.WhenAll(Handlers());\n    var parallelElapsed = timer.ElapsedMilliseconds;\n    sequentialElapsed.ShouldBeGreaterThan(parallelElapsed);\n  }\n  [Fact]\n  public void Same() {\n    var a = 3;\n    var b = 3;\n    Assert.Equal(a, b);\n  }\n}\n",
    );
    expect(facts.tests.map((test) => test.assertionsDetail?.[0]?.tautology)).toEqual([false, true]);
  });
});
