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

describe("checkNames: literals, calls and set-up", () => {
  it("c#: a check of a property the test class set up reaches its initialiser, with the call's argument count", async () => {
    const facts = await extractFacts(
      "tests/PTests.cs",
      "public class PTests\n{\n    Pacer Pacer { get; } = new(3);\n\n    [Fact]\n    public void Doubles()\n    {\n        Assert.Equal(6, Pacer.Next);\n    }\n}\n",
    );
    const names = facts.tests[0]?.checkNames?.[0] ?? [];
    expect(names).toEqual(expect.arrayContaining(["Next", "Pacer/1"]));
    expect(names).not.toContain("Pacer");
  });

  it("python: setUp's assignments to self are the tests' set-up; a keyword argument counts as an argument", async () => {
    const facts = await extractFacts(
      "tests/test_p.py",
      "import unittest\n\n\nclass PTest(unittest.TestCase):\n    def setUp(self):\n        self.pacer = Pacer(3, cap=4)\n\n    def test_next(self):\n        self.assertEqual(6, self.pacer.next())\n",
    );
    expect(facts.tests[0]?.checkNames?.[0]).toEqual(expect.arrayContaining(["Pacer", "Pacer/2", "next"]));
  });

  it("ruby: a plain string or symbol the check feeds is a literal token", async () => {
    const facts = await extractFacts("test/test_r.rb", 'class TestR < Minitest::Test\n  def test_mode\n    r = Runner.new(mode: :legacy)\n    assert_equal "-v", r.flag("verbose")\n  end\nend\n');
    expect(facts.tests[0]?.checkNames?.[0]).toEqual(expect.arrayContaining(['"legacy"', '"verbose"', "Runner/1", "flag/1"]));
  });

  it("js: a destructured local stands for the call it came from; a top-level constant for its value", async () => {
    const facts = await extractFacts(
      "test/run.test.js",
      "const ipc = getStdio(3, 'ipc');\n\ntest('pipe', async () => {\n  const {escapedCommand} = await runCommand('echo').pipe('cat');\n  expect(escapedCommand).toBe('cat');\n  expect(run(ipc).ok).toBe(true);\n});\n",
    );
    const [first, second] = facts.tests[0]?.checkNames ?? [];
    expect(first).toEqual(expect.arrayContaining(["runCommand", "pipe", '"cat"']));
    expect(first).not.toContain("escapedCommand");
    expect(second).toEqual(expect.arrayContaining(["getStdio", '"ipc"', "run"]));
    expect(second).not.toContain("runCommand");
  });

  it("js: an ava macro test depends on its data and on what its macro (a top-level constant) calls", async () => {
    const facts = await extractFacts("test/mode.js", "import test from 'ava';\n\nconst macro = (t, mode) => { t.true(open(mode).ok); };\n\ntest('legacy', macro, 'legacy');\n");
    expect(facts.tests[0]?.checkNames?.[0]).toEqual(expect.arrayContaining(["open", '"legacy"']));
  });
});

describe("product facts", () => {
  it("arity: parameters with defaults are optional, variadic ones unbounded, a method's receiver not counted", async () => {
    const py = await extractFacts("pkg/p.py", "class P:\n    def __init__(self, step, cap=4):\n        pass\n\n    def many(self, *names):\n        pass\n");
    expect(py.code?.functions?.map((fn) => [fn.name, fn.arity])).toEqual([
      ["P.__init__", { min: 1, max: 2 }],
      ["P.many", { min: 0, max: null }],
    ]);
    const cs = await extractFacts("src/P.cs", "public class P\n{\n    public P(int step) { }\n    public void Mark(int a, int b = 2, params int[] rest) { }\n}\n");
    expect(cs.code?.functions?.map((fn) => fn.arity)).toEqual([
      { min: 1, max: 1 },
      { min: 1, max: null },
    ]);
    const go = await extractFacts("p.go", "package p\n\nfunc (r *R) Next(step, cap int) int { return step }\n");
    expect(go.code?.functions?.[0]?.arity).toEqual({ min: 2, max: 2 });
  });

  it("literals: option values, keys and flags of the code, not its import paths", async () => {
    const py = await extractFacts(
      "tool/cli.py",
      'import argparse\nfrom x import y\n\n\ndef main(argv):\n    p = argparse.ArgumentParser()\n    p.add_argument("--legacy-format")\n    return p.parse_args(argv).mode == "fast path"\n',
    );
    expect(py.code?.literals).toEqual(["--legacy-format"]);
    const js = await extractFacts("src/mode.js", "import {x} from './x.js';\nexport const open = mode => mode === 'legacy' ? require('./legacy.js') : x;\n");
    expect(js.code?.literals).toEqual(["legacy"]);
  });

  it("enum members: rust variants, c# and java members, php cases, a python Enum's names", async () => {
    expect((await extractFacts("src/lib.rs", "pub enum Op { Exact, Greater }\n")).code?.enumMembers).toEqual(["Exact", "Greater"]);
    expect((await extractFacts("src/Op.cs", "public enum Op { Exact = 1, Greater }\n")).code?.enumMembers).toEqual(["Exact", "Greater"]);
    expect((await extractFacts("pkg/op.py", "import enum\n\n\nclass Op(enum.Enum):\n    EXACT = 1\n    GREATER = 2\n")).code?.enumMembers).toEqual(["EXACT", "GREATER"]);
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
