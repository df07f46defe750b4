/**
 * Code in messages reads as source (issue 10, "Reports that tell the
 * truth"): tree-sitter facts keep code token-spaced for comparison
 * (`result . output`), and messages render it without those spaces; a
 * removed guard is quoted with the `throw`/`raise`/`return` its fact leaves out.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../src/analysis/index.js";
import { displayCode } from "../../src/analysis/display.js";
import { guardSource } from "../../src/analysis/rules/validation.js";

describe("displayCode", () => {
  it.each([
    ["result . output", "result.output"],
    ["self . assertEqual ( result . output , 3 )", "self.assertEqual(result.output, 3)"],
    ["a [ 0 ] . b", "a[0].b"],
    ["Foo :: bar ( )", "Foo::bar()"],
    ["x == ( 1 + 2 )", "x == (1 + 2)"],
    ["not ( a and b )", "not (a and b)"],
    ['f ( "a . b , c" )', 'f("a . b , c")'],
    ["r.output==null", "r.output==null"],
    ["len ( items ) > 0", "len(items) > 0"],
  ])("%j -> %j", (text, shown) => {
    expect(displayCode(text)).toBe(shown);
  });
});

describe("guardSource", () => {
  it.each([
    ["src/a.ts", { condition: "x<0", action: 'new RangeError("neg")' }, 'if (x<0) throw new RangeError("neg")'],
    ["src/a.py", { condition: "result . output is None", action: "ValueError ( 'no' )" }, "if (result.output is None) raise ValueError('no')"],
    ["src/a.go", { condition: "r.Output==nil", action: 'errors.New("x")' }, 'if (r.Output==nil) return errors.New("x")'],
    ["src/a.ts", { condition: "ok", action: "invariant" }, "invariant(ok)"],
    ["src/a.rs", { condition: "n > 0", action: "assert!" }, "assert!(n > 0)"],
    ["src/A.cs", { condition: "arg", action: "ArgumentNullException.ThrowIfNull" }, "ArgumentNullException.ThrowIfNull(arg)"],
    // Ruby's `raise UnknownCodec, "m"` and Python's `raise Unknown` keep the bare class: a raise, not a checking call.
    ["lib/a.rb", { condition: "!(@codecs.key?(name))", action: "UnknownCodec" }, "if (!(@codecs.key?(name))) raise UnknownCodec"],
    ["src/a.py", { condition: "x<0", action: "Negative" }, "if (x<0) raise Negative"],
    ["src/a.py", { condition: "n", action: "operator.index" }, "operator.index(n)"],
  ])("%s %j -> %s", (path, guard, shown) => {
    expect(guardSource(path, guard)).toBe(shown);
  });
});

describe("messages of tree-sitter languages", () => {
  it.each([
    [
      "src/m.py",
      "def f(result):\n    if result.output is None:\n        raise ValueError('no output')\n    return result.output\n",
      "def f(result):\n    return result.output\n",
      "raise ValueError('no output')",
    ],
    [
      "src/M.java",
      'class M { int f(R result) { if (result.output == null) { throw new IllegalStateException("x"); } return result.output.size(); } }\n',
      "class M { int f(R result) { return result.output.size(); } }\n",
      "throw new IllegalStateException",
    ],
  ])("a removed guard in %s is quoted with its keyword", async (path, before, after, quoted) => {
    const analysis = await analyzeChanges([{ path, before, after }]);
    expect(analysis.findings.map((f) => f.message).join("\n")).toContain(quoted);
  });

  it("a weakened assertion in a Python test is quoted as source, not token-spaced", async () => {
    const before = "def test_output():\n    result = run()\n    assert result.output == 3\n";
    const after = "def test_output():\n    result = run()\n    assert result.output\n";
    const analysis = await analyzeChanges([{ path: "tests/test_run.py", before, after }]);
    const messages = analysis.findings.map((f) => f.message).join("\n");
    expect(messages).not.toMatch(/\w \. \w/);
    expect(messages).toContain("result.output");
  });
});
