/**
 * Assertions moved into a test helper, or a helper inlined back into the
 * test (issue 9: "a call to a local or imported helper that asserts
 * contributes the helper's checks"), in every language with the idiom: a
 * Python `def check(x, expected)`, a Go `func checkF(t *testing.T, …)` with
 * t.Helper(), a PHP private assert helper, an RSpec helper method, a C# or
 * Java private helper, a Rust helper fn with assert_eq!, and ava macros
 * (`test.macro`, a plain `(t, …) =>` function passed as the implementation).
 * The helper's checks are instantiated with each call's arguments, so the
 * look-alikes conserve every check; the nearest cheats lose one and are
 * still findings: the helper loses its assertion, a call is dropped, a call
 * passes another expected value, or the helper is inlined without its
 * assertion.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type UnchangedFiles } from "../../../src/analysis/index.js";
import { change, expectFindings, summarize } from "./table.js";

interface Shape {
  id: string;
  path: string;
  /** The test as written with its assertions inline. */
  inline: string;
  /** The same checks through a helper the test calls with ("a", 1) and ("b", 2). */
  helper: string;
  /** The helper version whose helper no longer asserts. */
  hollow: string;
  /** The helper version with the call for "b" dropped. */
  dropped: string;
  /** The helper version whose call for "b" expects 3. */
  changed: string;
  /** The inline version without the check of "b". */
  inlineLess: string;
  /** The name findings give the test. */
  test: string;
}

/** A shape from its three texts: `helper` with `{{b}}` where the call for "b" goes. */
function shape(id: string, path: string, test: string, inline: string, inlineLess: string, helper: string, hollowFrom: string, hollowTo: string, callB: string, changedB: string): Shape {
  const full = helper.replace("{{b}}", callB);
  return {
    id,
    path,
    test,
    inline,
    inlineLess,
    helper: full,
    hollow: full.replace(hollowFrom, hollowTo),
    dropped: helper.replace("{{b}}", ""),
    changed: helper.replace("{{b}}", changedB),
  };
}

const SHAPES: Shape[] = [
  shape(
    "python check function",
    "tests/test_f.py",
    "test_f",
    'from app import f\n\n\ndef test_f():\n    assert f("a") == 1\n    assert f("b") == 2\n',
    'from app import f\n\n\ndef test_f():\n    assert f("a") == 1\n',
    'from app import f\n\n\ndef check(x, expected):\n    assert f(x) == expected\n\n\ndef test_f():\n    check("a", 1)\n{{b}}',
    "    assert f(x) == expected\n",
    "    f(x)\n",
    '    check("b", 2)\n',
    '    check("b", 3)\n',
  ),
  shape(
    "go helper taking t",
    "app/f_test.go",
    "TestF",
    'package app\n\nimport "testing"\n\nfunc TestF(t *testing.T) {\n\tif got := F("a"); got != 1 {\n\t\tt.Errorf("F(a) = %d", got)\n\t}\n\tif got := F("b"); got != 2 {\n\t\tt.Errorf("F(b) = %d", got)\n\t}\n}\n',
    'package app\n\nimport "testing"\n\nfunc TestF(t *testing.T) {\n\tif got := F("a"); got != 1 {\n\t\tt.Errorf("F(a) = %d", got)\n\t}\n}\n',
    'package app\n\nimport "testing"\n\nfunc checkF(t *testing.T, in string, want int) {\n\tt.Helper()\n\tif got := F(in); got != want {\n\t\tt.Errorf("F(%s) = %d", in, got)\n\t}\n}\n\nfunc TestF(t *testing.T) {\n\tcheckF(t, "a", 1)\n{{b}}}\n',
    '\tif got := F(in); got != want {\n\t\tt.Errorf("F(%s) = %d", in, got)\n\t}\n',
    "\tF(in)\n",
    '\tcheckF(t, "b", 2)\n',
    '\tcheckF(t, "b", 3)\n',
  ),
  shape(
    "php private assert helper",
    "tests/FTest.php",
    "FTest > testF",
    "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class FTest extends TestCase\n{\n    public function testF(): void\n    {\n        $this->assertSame(1, f('a'));\n        $this->assertSame(2, f('b'));\n    }\n}\n",
    "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class FTest extends TestCase\n{\n    public function testF(): void\n    {\n        $this->assertSame(1, f('a'));\n    }\n}\n",
    "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class FTest extends TestCase\n{\n    private function checkF(string $in, int $want): void\n    {\n        $this->assertSame($want, f($in));\n    }\n\n    public function testF(): void\n    {\n        $this->checkF('a', 1);\n{{b}}    }\n}\n",
    "        $this->assertSame($want, f($in));\n",
    "        f($in);\n",
    "        $this->checkF('b', 2);\n",
    "        $this->checkF('b', 3);\n",
  ),
  shape(
    "ruby rspec helper method",
    "spec/f_spec.rb",
    "f > maps",
    'require "app"\n\nRSpec.describe "f" do\n  it "maps" do\n    expect(f("a")).to eq(1)\n    expect(f("b")).to eq(2)\n  end\nend\n',
    'require "app"\n\nRSpec.describe "f" do\n  it "maps" do\n    expect(f("a")).to eq(1)\n  end\nend\n',
    'require "app"\n\nRSpec.describe "f" do\n  def check(input, want)\n    expect(f(input)).to eq(want)\n  end\n\n  it "maps" do\n    check("a", 1)\n{{b}}  end\nend\n',
    "    expect(f(input)).to eq(want)\n",
    "    f(input)\n",
    '    check("b", 2)\n',
    '    check("b", 3)\n',
  ),
  shape(
    "csharp private helper",
    "tests/FTests.cs",
    "FTests > Maps",
    'using Xunit;\n\npublic class FTests\n{\n    [Fact]\n    public void Maps()\n    {\n        Assert.Equal(1, App.F("a"));\n        Assert.Equal(2, App.F("b"));\n    }\n}\n',
    'using Xunit;\n\npublic class FTests\n{\n    [Fact]\n    public void Maps()\n    {\n        Assert.Equal(1, App.F("a"));\n    }\n}\n',
    'using Xunit;\n\npublic class FTests\n{\n    private static void Check(string input, int want)\n    {\n        Assert.Equal(want, App.F(input));\n    }\n\n    [Fact]\n    public void Maps()\n    {\n        Check("a", 1);\n{{b}}    }\n}\n',
    "        Assert.Equal(want, App.F(input));\n",
    "        App.F(input);\n",
    '        Check("b", 2);\n',
    '        Check("b", 3);\n',
  ),
  shape(
    "java private helper",
    "src/test/java/FTest.java",
    "FTest > maps",
    'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nclass FTest {\n  @Test\n  void maps() {\n    assertEquals(1, App.f("a"));\n    assertEquals(2, App.f("b"));\n  }\n}\n',
    'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nclass FTest {\n  @Test\n  void maps() {\n    assertEquals(1, App.f("a"));\n  }\n}\n',
    'import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nclass FTest {\n  private void check(String input, int want) {\n    assertEquals(want, App.f(input));\n  }\n\n  @Test\n  void maps() {\n    check("a", 1);\n{{b}}  }\n}\n',
    "    assertEquals(want, App.f(input));\n",
    "    App.f(input);\n",
    '    check("b", 2);\n',
    '    check("b", 3);\n',
  ),
  shape(
    "rust helper fn with assert_eq!",
    "tests/f.rs",
    "maps",
    'use app::f;\n\n#[test]\nfn maps() {\n    assert_eq!(f("a"), 1);\n    assert_eq!(f("b"), 2);\n}\n',
    'use app::f;\n\n#[test]\nfn maps() {\n    assert_eq!(f("a"), 1);\n}\n',
    'use app::f;\n\nfn check(input: &str, want: i32) {\n    assert_eq!(f(input), want);\n}\n\n#[test]\nfn maps() {\n    check("a", 1);\n{{b}}}\n',
    "    assert_eq!(f(input), want);\n",
    "    f(input);\n",
    '    check("b", 2);\n',
    '    check("b", 3);\n',
  ),
  shape(
    "js plain helper taking t",
    "test/f.js",
    "maps",
    "import test from 'ava';\nimport f from '../source/index.js';\n\ntest('maps', t => {\n\tt.is(f('a'), 1);\n\tt.is(f('b'), 2);\n});\n",
    "import test from 'ava';\nimport f from '../source/index.js';\n\ntest('maps', t => {\n\tt.is(f('a'), 1);\n});\n",
    "import test from 'ava';\nimport f from '../source/index.js';\n\nfunction check(t, input, expected) {\n\tt.is(f(input), expected);\n}\n\ntest('maps', t => {\n\tcheck(t, 'a', 1);\n{{b}}});\n",
    "\tt.is(f(input), expected);\n",
    "\tf(input);\n",
    "\tcheck(t, 'b', 2);\n",
    "\tcheck(t, 'b', 3);\n",
  ),
];

describe.each(SHAPES)("$id", (one) => {
  it("assertions moved into the helper: no finding", async () => {
    await expectFindings({ name: one.id, changes: [change(one.path, one.inline, one.helper)], findings: [] });
  });

  it("the helper inlined into the test: no finding", async () => {
    await expectFindings({ name: one.id, changes: [change(one.path, one.helper, one.inline)], findings: [] });
  });

  it("moved into a helper that does not assert: assertion_removal", async () => {
    await expectFindings({ name: one.id, changes: [change(one.path, one.inline, one.hollow)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });

  it("moved into the helper with one call dropped: assertion_removal", async () => {
    await expectFindings({ name: one.id, changes: [change(one.path, one.inline, one.dropped)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });

  it("the helper's assertion dropped: assertion_removal", async () => {
    await expectFindings({ name: one.id, changes: [change(one.path, one.helper, one.hollow)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });

  it("a helper call dropped: assertion_removal", async () => {
    await expectFindings({ name: one.id, changes: [change(one.path, one.helper, one.dropped)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });

  it("inlined without one check: assertion_removal", async () => {
    await expectFindings({ name: one.id, changes: [change(one.path, one.helper, one.inlineLess)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });

  it("moved into the helper with another expected value: a finding", async () => {
    const analysis = await expectFindingTypes(one.path, one.inline, one.changed);
    if (analysis.length === 0) throw new Error("expected a finding for the changed expected value");
  });
});

/** The findings' types for one change (any type: a changed expected value is expectation_changed or assertion_removal, by whether the code changed). */
async function expectFindingTypes(path: string, before: string, after: string): Promise<string[]> {
  const analysis = await analyzeChanges([change(path, before, after)]);
  return analysis.findings.map((finding) => finding.type);
}

interface Macro {
  id: string;
  /** The macro's declaration, asserting `f(input) == expected`. */
  macro: string;
  /** The same declaration without its assertion. */
  hollow: string;
  /** The arguments a test passes to check `f(input) == expected`. */
  data: (input: string, expected: number) => string;
}

const AVA_HEAD = "import test from 'ava';\nimport f from '../source/index.js';\n\n";
const INLINE_TESTS = `${AVA_HEAD}test('a', t => {\n\tt.is(f('a'), 1);\n});\n\ntest('b', t => {\n\tt.is(f('b'), 2);\n});\n`;

const MACROS: Macro[] = [
  {
    id: "test.macro with positional data",
    macro: "const macro = test.macro((t, input, expected) => {\n\tt.is(f(input), expected);\n});\n",
    hollow: "const macro = test.macro((t, input, expected) => {\n\tf(input);\n});\n",
    data: (input, expected) => `'${input}', ${expected}`,
  },
  {
    id: "plain (t, …) => function passed as the implementation",
    macro: "const macro = (t, input, expected) => {\n\tt.is(f(input), expected);\n};\n",
    hollow: "const macro = (t, input, expected) => {\n\tf(input);\n};\n",
    data: (input, expected) => `'${input}', ${expected}`,
  },
  {
    id: "test.macro destructuring an object of data",
    macro: "const macro = test.macro((t, {input, expected}) => {\n\tt.is(f(input), expected);\n});\n",
    hollow: "const macro = test.macro((t, {input, expected}) => {\n\tf(input);\n});\n",
    data: (input, expected) => `{input: '${input}', expected: ${expected}}`,
  },
  {
    id: "test.macro({exec, title})",
    macro: "const macro = test.macro({\n\texec(t, input, expected) {\n\t\tt.is(f(input), expected);\n\t},\n\ttitle: (given, input) => `maps ${input}`,\n});\n",
    hollow: "const macro = test.macro({\n\texec(t, input, expected) {\n\t\tf(input);\n\t},\n\ttitle: (given, input) => `maps ${input}`,\n});\n",
    data: (input, expected) => `'${input}', ${expected}`,
  },
];

describe.each(MACROS)("ava macro: $id", (one) => {
  const path = "test/f.js";
  const tests = (macro: string, expectedB: number): string => `${AVA_HEAD}${macro}\ntest('a', macro, ${one.data("a", 1)});\n\ntest('b', macro, ${one.data("b", expectedB)});\n`;
  const withMacro = tests(one.macro, 2);

  it("assertions moved into the macro: no finding", async () => {
    await expectFindings({ name: one.id, changes: [change(path, INLINE_TESTS, withMacro)], findings: [] });
  });

  it("the macro inlined into each test: no finding", async () => {
    await expectFindings({ name: one.id, changes: [change(path, withMacro, INLINE_TESTS)], findings: [] });
  });

  it("moved into a macro that does not assert: assertion_removal", async () => {
    await expectFindings({ name: one.id, changes: [change(path, INLINE_TESTS, tests(one.hollow, 2))], findings: [`assertion_removal/high ${path} "a"`, `assertion_removal/high ${path} "b"`] });
  });

  it("the macro's assertion dropped: assertion_removal", async () => {
    await expectFindings({ name: one.id, changes: [change(path, withMacro, tests(one.hollow, 2))], findings: [`assertion_removal/high ${path} "a"`, `assertion_removal/high ${path} "b"`] });
  });

  it("a macro test passing another expected value: a finding for it", async () => {
    for (const before of [INLINE_TESTS, withMacro]) {
      const analysis = await analyzeChanges([change(path, before, tests(one.macro, 3))]);
      if (!analysis.findings.some((finding) => finding.test === "b")) throw new Error(`expected a finding for test "b", got ${JSON.stringify(analysis.findings)}`);
    }
  });

  it("inlined with one test's check left out: assertion_removal", async () => {
    const less = INLINE_TESTS.replace("\tt.is(f('b'), 2);\n", "\tf('b');\n");
    await expectFindings({ name: one.id, changes: [change(path, withMacro, less)], findings: [`assertion_removal/high ${path} "b"`] });
  });
});

describe("imported macros and helpers", () => {
  const path = "test/f.js";
  const MACRO_MODULE = "import test from 'ava';\nimport f from '../source/index.js';\n\nexport const verify = test.macro((t, {input, expected}) => {\n\tt.is(f(input), expected);\n});\n";
  const FACTORY_MODULE =
    "import test from 'ava';\nimport f from '../source/index.js';\n\nexport const _verify = label => test.macro((t, {input, expected}) => {\n\tt.is(f(input), expected, label);\n});\n";
  const HELPER_MODULE = "import f from '../source/index.js';\n\nexport function check(t, input, expected) {\n\tt.is(f(input), expected);\n}\n";
  const hollow = (module: string): string => module.replace(/\tt\.is\(f\((.*)\), expected\);/, "\tf($1);");
  const macroTests = (expectedB: number, dropB = false): string =>
    `import test from 'ava';\nimport {verify} from './_utils.js';\n\ntest('a', verify, {input: 'a', expected: 1});\n${dropB ? "" : `\ntest('b', verify, {input: 'b', expected: ${expectedB}});\n`}`;
  const helperTests = (expectedB: number): string =>
    `import test from 'ava';\nimport {check} from './_utils.js';\n\ntest('a', t => {\n\tcheck(t, 'a', 1);\n});\n\ntest('b', t => {\n\tcheck(t, 'b', ${expectedB});\n});\n`;
  const unchanged = (files: Record<string, string>): UnchangedFiles => ({ paths: () => Object.keys(files), read: (file) => files[file] ?? null });

  it("assertions moved into a macro of a new shared module: no finding", async () => {
    await expectFindings({ name: "macro", changes: [change(path, INLINE_TESTS, macroTests(2)), change("test/_utils.js", null, MACRO_MODULE)], findings: [] });
  });

  it("assertions moved onto a macro of an unchanged module, read from the tree: no finding", async () => {
    const analysis = await analyzeChanges([change(path, INLINE_TESTS, macroTests(2))], { unchanged: unchanged({ "test/_utils.js": MACRO_MODULE, "source/index.js": "export default (x) => x;\n" }) });
    expect(analysis.findings.map(summarize)).toEqual([]);
  });

  it("assertions moved onto a macro an imported factory builds: no finding", async () => {
    const tests =
      "import test from 'ava';\nimport {_verify} from './_utils.js';\n\nconst verify = _verify('maps');\n\ntest('a', verify, {input: 'a', expected: 1});\n\ntest('b', verify, {input: 'b', expected: 2});\n";
    await expectFindings({ name: "factory", changes: [change(path, INLINE_TESTS, tests), change("test/_utils.js", null, FACTORY_MODULE)], findings: [] });
  });

  it("assertions moved into an imported helper given t: no finding", async () => {
    await expectFindings({ name: "helper", changes: [change(path, INLINE_TESTS, helperTests(2)), change("test/_utils.js", null, HELPER_MODULE)], findings: [] });
  });

  it("moved onto an unchanged module's macro that does not assert: assertion_removal", async () => {
    const analysis = await analyzeChanges([change(path, INLINE_TESTS, macroTests(2))], { unchanged: unchanged({ "test/_utils.js": hollow(MACRO_MODULE) }) });
    expect(analysis.findings.map(summarize).sort()).toEqual([`assertion_removal/high ${path} "a"`, `assertion_removal/high ${path} "b"`]);
  });

  it("the shared macro's assertion dropped: assertion_removal for each test using it", async () => {
    const analysis = await analyzeChanges([change(path, macroTests(2), macroTests(2)), change("test/_utils.js", MACRO_MODULE, hollow(MACRO_MODULE))]);
    expect(analysis.findings.map(summarize).sort()).toEqual([`assertion_removal/high ${path} "a"`, `assertion_removal/high ${path} "b"`]);
  });

  it("only the unchanged tests' shared macro hollowed: assertion_removal for each test using it", async () => {
    const analysis = await analyzeChanges([change("test/_utils.js", MACRO_MODULE, hollow(MACRO_MODULE))], {
      unchanged: unchanged({ [path]: macroTests(2), "source/index.js": "export default (x) => x;\n" }),
    });
    expect(analysis.findings.map(summarize).sort()).toEqual([`assertion_removal/high ${path} "a"`, `assertion_removal/high ${path} "b"`]);
  });

  it("only the unchanged tests' shared macro rewritten with the same check, or gaining one: no finding", async () => {
    const renamed = MACRO_MODULE.replace("{input, expected}", "{input: given, expected}").replace("f(input)", "f(given)");
    const more = MACRO_MODULE.replace("\tt.is(f(input), expected);\n", "\tt.is(f(input), expected);\n\tt.truthy(f(input));\n");
    for (const after of [renamed, more]) {
      const analysis = await analyzeChanges([change("test/_utils.js", MACRO_MODULE, after)], { unchanged: unchanged({ [path]: macroTests(2) }) });
      expect(analysis.findings.map(summarize)).toEqual([]);
    }
  });

  it("the imported helper's assertion dropped: assertion_removal for each test calling it", async () => {
    const analysis = await analyzeChanges([change(path, helperTests(2), helperTests(2)), change("test/_utils.js", HELPER_MODULE, hollow(HELPER_MODULE))]);
    expect(analysis.findings.map(summarize).sort()).toEqual([`assertion_removal/high ${path} "a"`, `assertion_removal/high ${path} "b"`]);
  });

  it("a test moved onto the imported macro with another expected value: a finding for it", async () => {
    const analysis = await analyzeChanges([change(path, INLINE_TESTS, macroTests(3)), change("test/_utils.js", null, MACRO_MODULE)]);
    expect(analysis.findings.some((finding) => finding.test === "b")).toBe(true);
  });

  it("an imported helper call passing another expected value: a finding for it", async () => {
    const analysis = await analyzeChanges([change(path, helperTests(2), helperTests(3))], { unchanged: unchanged({ "test/_utils.js": HELPER_MODULE }) });
    expect(analysis.findings.some((finding) => finding.test === "b")).toBe(true);
  });

  it("a macro test dropped: test_deletion", async () => {
    const analysis = await analyzeChanges([change(path, macroTests(2), macroTests(2, true))], { unchanged: unchanged({ "test/_utils.js": MACRO_MODULE }) });
    expect(analysis.findings.map(summarize)).toEqual([`test_deletion/critical ${path} "b"`]);
  });
});

/** A test whose whole body is a call of a helper checking a table the file declares, with the helper inlined (BurntSushi/toml's runTomlTest). */
const INLINED: { id: string; path: string; test: string; before: string; after: string; afterLess: string }[] = [
  {
    id: "go helper taking only t, over a package table",
    path: "dur/dur_test.go",
    test: "TestParse",
    before:
      'package dur\n\nimport "testing"\n\nvar cases = []struct {\n\tin   string\n\twant int\n}{\n\t{"90s", 90},\n\t{"2m", 120},\n}\n\nfunc TestParse(t *testing.T) {\n\trunCases(t)\n}\n\nfunc runCases(t *testing.T) {\n\tfor _, tt := range cases {\n\t\tgot, err := Parse(tt.in)\n\t\tif err != nil {\n\t\t\tt.Fatalf("Parse(%q): %v", tt.in, err)\n\t\t}\n\t\tif got != tt.want {\n\t\t\tt.Errorf("Parse(%q) = %d", tt.in, got)\n\t\t}\n\t}\n}\n',
    after:
      'package dur\n\nimport "testing"\n\nvar cases = []struct {\n\tin   string\n\twant int\n}{\n\t{"90s", 90},\n\t{"2m", 120},\n}\n\nfunc TestParse(t *testing.T) {\n\tfor _, tt := range cases {\n\t\tgot, err := Parse(tt.in)\n\t\tif err != nil {\n\t\t\tt.Fatalf("Parse(%q): %v", tt.in, err)\n\t\t}\n\t\tif got != tt.want {\n\t\t\tt.Errorf("Parse(%q) = %d", tt.in, got)\n\t\t}\n\t}\n}\n',
    afterLess:
      'package dur\n\nimport "testing"\n\nvar cases = []struct {\n\tin   string\n\twant int\n}{\n\t{"90s", 90},\n\t{"2m", 120},\n}\n\nfunc TestParse(t *testing.T) {\n\tfor _, tt := range cases {\n\t\tgot, err := Parse(tt.in)\n\t\tif err != nil {\n\t\t\tt.Fatalf("Parse(%q): %v", tt.in, err)\n\t\t}\n\t\t_ = got\n\t}\n}\n',
  },
  {
    id: "python helper without arguments, over a module table",
    path: "tests/test_dur.py",
    test: "test_parse",
    before:
      'from dur import parse\n\nCASES = [("90s", 90), ("2m", 120)]\n\n\ndef run_cases():\n    for text, want in CASES:\n        assert parse(text) == want\n\n\ndef test_parse():\n    run_cases()\n',
    after: 'from dur import parse\n\nCASES = [("90s", 90), ("2m", 120)]\n\n\ndef test_parse():\n    for text, want in CASES:\n        assert parse(text) == want\n',
    afterLess: 'from dur import parse\n\nCASES = [("90s", 90), ("2m", 120)]\n\n\ndef test_parse():\n    for text, want in CASES:\n        parse(text)\n',
  },
  {
    id: "rust helper fn over a const table",
    path: "tests/dur.rs",
    test: "parses",
    before:
      'use dur::parse;\n\nconst CASES: &[(&str, u32)] = &[("90s", 90), ("2m", 120)];\n\nfn run_cases() {\n    for (text, want) in CASES {\n        assert_eq!(parse(text), *want);\n    }\n}\n\n#[test]\nfn parses() {\n    run_cases();\n}\n',
    after:
      'use dur::parse;\n\nconst CASES: &[(&str, u32)] = &[("90s", 90), ("2m", 120)];\n\n#[test]\nfn parses() {\n    for (text, want) in CASES {\n        assert_eq!(parse(text), *want);\n    }\n}\n',
    afterLess: 'use dur::parse;\n\nconst CASES: &[(&str, u32)] = &[("90s", 90), ("2m", 120)];\n\n#[test]\nfn parses() {\n    for (text, _want) in CASES {\n        parse(text);\n    }\n}\n',
  },
];

describe.each(INLINED)("$id", (one) => {
  it("the helper inlined into the test: no finding", async () => {
    await expectFindings({ name: one.id, changes: [change(one.path, one.before, one.after)], findings: [] });
  });

  it("inlined with the assertion left out: a finding", async () => {
    const analysis = await analyzeChanges([change(one.path, one.before, one.afterLess)]);
    expect(analysis.findings.filter((finding) => finding.test === one.test && (finding.type === "assertion_removal" || finding.type === "assertion_weakening")).length).toBeGreaterThan(0);
  });
});
