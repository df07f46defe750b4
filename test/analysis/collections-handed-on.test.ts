/**
 * A collection a test binds (`sleeps = []`) and hands to other code, as an
 * argument or as one of its own filling methods (`monkeypatch.setattr(time,
 * "sleep", sleeps.append)`, `run(on_cancel=calls.append)`, `fill(items)`),
 * may be filled by that code before it is checked: `assert sleeps == []`
 * checks what the code recorded, not the literal it was bound to, so it is
 * no tautology (first seen in a rewrite of sindresorhus/ky 3419113b48's
 * timing test, written in Python). A collection nobody is handed, and a
 * plain value (`n = 0; log(n); assert n == 0`: a number cannot be changed
 * in place), are still what they were bound to.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../src/analysis/index.js";

async function tautologies(path: string, source: string): Promise<boolean[]> {
  const facts = await extractFacts(path, source);
  expect(facts.parseError).toBeUndefined();
  expect(facts.notAnalyzed).toBeUndefined();
  return facts.tests.flatMap((test) => (test.assertionsDetail ?? []).map((fact) => fact.tautology === true));
}

const py = (body: string): string => `from pkg import run, fill\n\n\ndef test_records(monkeypatch):\n${body}\n`;
const rb = (body: string): string => `require "minitest/autorun"\n\nclass RunTest < Minitest::Test\n  def test_records\n${body}\n  end\nend\n`;
const php = (body: string): string => `<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class RunTest extends TestCase\n{\n    public function testRecords(): void\n    {\n${body}\n    }\n}\n`;
const cs = (body: string): string => `using Xunit;\n\nnamespace Pkg.Tests;\n\npublic class RunTests\n{\n    [Fact]\n    public void Records()\n    {\n${body}\n    }\n}\n`;

describe("a collection handed to other code is not what it was bound to", () => {
  it.each([
    ["python: a bound filling method passed on", "tests/test_run.py", py("    sleeps = []\n    monkeypatch.setattr('time.sleep', sleeps.append)\n    run()\n    assert sleeps == []")],
    ["python: a keyword argument", "tests/test_run.py", py("    calls = []\n    run(on_cancel=calls)\n    assert calls == []")],
    ["python: a positional argument", "tests/test_run.py", py("    items = {}\n    fill(items)\n    assert items == {}")],
    ["ruby: a positional argument", "test/run_test.rb", rb("    items = []\n    Run.fill(items)\n    assert_equal [], items")],
    ["php: a positional argument", "tests/RunTest.php", php("        $items = [];\n        fill($items);\n        $this->assertSame([], $items);")],
    ["c#: a positional argument", "tests/RunTests.cs", cs("        var items = new List<int>();\n        Runner.Fill(items);\n        Assert.Equal(new List<int>(), items);")],
  ])("%s: no tautology", async (_, path, source) => {
    expect(await tautologies(path, source)).toEqual([false]);
  });

  it.each([
    ["python: a collection nobody is handed", "tests/test_run.py", py("    sleeps = []\n    run()\n    assert sleeps == []")],
    ["python: a number handed on cannot change in place", "tests/test_run.py", py("    n = 0\n    run(n)\n    assert n == 0")],
    ["ruby: a collection nobody is handed", "test/run_test.rb", rb("    items = []\n    Run.go\n    assert_equal [], items")],
  ])("%s: still a tautology", async (_, path, source) => {
    expect(await tautologies(path, source)).toEqual([true]);
  });
});
