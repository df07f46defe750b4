/**
 * The checks of a member the change starts to deprecate, dropped with that
 * deprecation: a library that announces a member is going (a new
 * `warnings.warn(…, DeprecationWarning)` in the property, a `__getattr__`
 * shim for a class, `if "cls" in kwargs: warn(…)` for a parameter, PHP
 * `trigger_deprecation`, JS `process.emitWarning(…, "DeprecationWarning")`,
 * Ruby `warn "[DEPRECATION] …"`, Java `@Deprecated`, C# `[Obsolete]`, Rust
 * `#[deprecated]`, Go `// Deprecated:`) drops the checks that now warn
 * (a suite run with warnings as errors fails on them). That is the feature
 * going, announced: feature_removal at medium, as for a retired
 * deprecation (pallets/werkzeug 68e1b7b7b9, aa03442c2f, 3ea0d282d7,
 * 1b00618e78). A check of a member the change does not deprecate, of the
 * member a notice names as the replacement, or of a member deprecated
 * before the change, stays an assertion_removal or a test_deletion.
 */
import { describe, expect, it } from "vitest";
import { deprecatedNames } from "../../../src/analysis/deprecations.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const pyRequest = (pragma: string): string =>
  `class Request:\n    def __init__(self, headers):\n        self.headers = headers\n\n    @property\n    def referrer(self):\n        return self.headers.get("Referer")\n\n    @property\n    def pragma(self):\n${pragma}        return self.headers.get("Pragma", "").split(",")\n`;
const pyWarn = `        import warnings\n\n        warnings.warn(\n            "The 'pragma' attribute is deprecated and will be removed in"\n            " 3.3. Use 'cache_control' instead.",\n            DeprecationWarning,\n            stacklevel=2,\n        )\n`;
const pyTest = (lines: string): string =>
  `from lib.request import Request\n\n\ndef test_descriptors():\n    request = Request({"Referer": "http://a/", "Pragma": "no-cache"})\n    assert request.referrer == "http://a/"\n${lines}`;
const pyPragmaCheck = `    assert "no-cache" in request.pragma\n`;

const pyShim = [
  "src/lib/accept.py",
  `class Accept:\n    pass\n\n\nclass CharsetAccept(Accept):\n    def best(self):\n        return "utf-8"\n`,
  `import warnings\n\n\nclass Accept:\n    pass\n\n\nclass _CharsetAccept(Accept):\n    def best(self):\n        return "utf-8"\n\n\ndef __getattr__(name):\n    if name == "CharsetAccept":\n        warnings.warn(\n            "The 'CharsetAccept' class is deprecated and will be removed.",\n            DeprecationWarning,\n            stacklevel=2,\n        )\n        return _CharsetAccept\n    raise AttributeError(name)\n`,
] as const;
const pyShimTest = (extra: string): string => `from lib import accept\n\n\ndef test_accept():\n    assert accept.Accept() is not None\n${extra}`;
const pyCharsetTest = `\n\ndef test_charset_accept():\n    a = accept.CharsetAccept()\n    assert a.best() == "utf-8"\n`;

const pyParser = [
  "src/lib/parser.py",
  `class Parser:\n    def __init__(self, factory=None, cls=None):\n        self.factory = factory\n        self.cls = cls or dict\n`,
  `import warnings\n\n\nclass Parser:\n    def __init__(self, factory=None, **kwargs):\n        self.factory = factory\n        if "cls" in kwargs:\n            warnings.warn(\n                "The 'cls' parameter is deprecated.",\n                DeprecationWarning,\n                stacklevel=2,\n            )\n        self.cls = kwargs.get("cls")\n`,
] as const;
const pyParserTest = (cls: string): string =>
  `from lib.parser import Parser\n\n\ndef test_constructor():\n    parser = Parser(factory=list${cls ? ", cls=dict" : ""})\n    assert parser.factory is list\n${cls}`;

const jsCode = [
  "src/index.js",
  `export function render(text, options = {}) {\n  if (options.legacy) return text.toUpperCase();\n  return text;\n}\n`,
  `export function render(text, options = {}) {\n  if (options.legacy) {\n    process.emitWarning("The 'legacy' option is deprecated, use 'upper'", "DeprecationWarning");\n    return text.toUpperCase();\n  }\n  return text;\n}\n`,
] as const;
const jsTest = (extra: string): string => `import test from "ava";\nimport {render} from "../src/index.js";\ntest("renders", t => {\n  t.is(render("a"), "a");\n${extra}});\n`;
const jsLegacyCheck = `  t.is(render("a", {legacy: true}), "A");\n`;

const phpCode = [
  "src/Inflector.php",
  `<?php\nclass Inflector {\n  public function plural(string $s): string { return $s . 's'; }\n  public function tableize(string $s): string { return strtolower($s) . 's'; }\n}\n`,
  `<?php\nclass Inflector {\n  public function plural(string $s): string { return $s . 's'; }\n  public function tableize(string $s): string {\n    trigger_deprecation('acme/inflector', '2.1', 'The "%s()" method is deprecated.', __METHOD__);\n    return strtolower($s) . 's';\n  }\n}\n`,
] as const;
const phpTest = (extra: string): string =>
  `<?php\nuse PHPUnit\\Framework\\TestCase;\nclass InflectorTest extends TestCase {\n  public function testPlural(): void {\n    $this->assertSame('cats', (new Inflector())->plural('cat'));\n  }\n${extra}}\n`;
const phpTableize = `  public function testTableize(): void {\n    $this->assertSame('users', (new Inflector())->tableize('User'));\n  }\n`;

const rbCode = [
  "lib/mailer.rb",
  `class Mailer\n  def deliver(to)\n    send_mail(to)\n  end\n\n  def deliver_later(to)\n    enqueue(to)\n  end\nend\n`,
  `class Mailer\n  def deliver(to)\n    send_mail(to)\n  end\n\n  def deliver_later(to)\n    warn "[DEPRECATION] \`deliver_later\` is deprecated, use \`deliver\`"\n    enqueue(to)\n  end\nend\n`,
] as const;
const rbTest = (extra: string): string => `RSpec.describe Mailer do\n  it "delivers" do\n    expect(Mailer.new.deliver("a")).to eq(true)\n${extra}  end\nend\n`;
const rbLaterCheck = `    expect(Mailer.new.deliver_later("a")).to eq(:queued)\n`;

const javaCode = [
  "src/main/java/acme/Parser.java",
  `package acme;\npublic class Parser {\n  public static Parser lenient() { return new Parser(); }\n  public Object parse(String s) { return s; }\n}\n`,
  `package acme;\npublic class Parser {\n  @Deprecated\n  public static Parser lenient() { return new Parser(); }\n  public Object parse(String s) { return s; }\n}\n`,
] as const;
const javaTest = (extra: string): string =>
  `package acme;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parses() { assertEquals("a", new Parser().parse("a")); }\n${extra}}\n`;
const javaLenient = `  @Test\n  void parsesLeniently() { assertEquals("a", Parser.lenient().parse("a")); }\n`;

const csCode = [
  "src/Acme/Slug.cs",
  `namespace Acme;\npublic static class Slug {\n  public static string Make(string s) => s.ToLower();\n  public static string MakeAscii(string s) => s.ToLower();\n}\n`,
  `namespace Acme;\npublic static class Slug {\n  public static string Make(string s) => s.ToLower();\n  [Obsolete("Use Make")]\n  public static string MakeAscii(string s) => s.ToLower();\n}\n`,
] as const;
const csTest = (extra: string): string => `using Xunit;\nnamespace Acme.Tests;\npublic class SlugTests {\n  [Fact]\n  public void Makes() {\n    Assert.Equal("a", Slug.Make("A"));\n${extra}  }\n}\n`;
const csAsciiCheck = `    Assert.Equal("b", Slug.MakeAscii("B"));\n`;

const rustCode = [
  "src/lib.rs",
  `pub struct Flags(u32);\nimpl Flags {\n    pub fn value(&self) -> u32 { self.0 }\n    pub fn bits(&self) -> u32 { self.0 }\n}\n`,
  `pub struct Flags(u32);\nimpl Flags {\n    #[deprecated(note = "use bits")]\n    pub fn value(&self) -> u32 { self.0 }\n    pub fn bits(&self) -> u32 { self.0 }\n}\n`,
] as const;
const rustTest = (extra: string): string => `use crate::Flags;\n\n#[test]\nfn reads() {\n    assert_eq!(Flags(3).bits(), 3);\n${extra}}\n`;
const rustValueCheck = `    assert_eq!(Flags(3).value(), 3);\n`;

const goCode = [
  "pool.go",
  `package pool\n\n// Size reports the pool's size.\nfunc (p *Pool) Size() int { return p.n }\n\n// Free reports the pool's size.\nfunc (p *Pool) Free() int { return p.cap - p.n }\n`,
  `package pool\n\n// Size reports the pool's size.\nfunc (p *Pool) Size() int { return p.n }\n\n// Free reports the pool's size.\n//\n// Deprecated: use Size.\nfunc (p *Pool) Free() int { return p.cap - p.n }\n`,
] as const;
const goTest = (extra: string): string =>
  `package pool\n\nimport "testing"\n\nfunc TestPool(t *testing.T) {\n\tp := &Pool{n: 2, cap: 3}\n\tif p.Size() != 2 {\n\t\tt.Errorf("size %d", p.Size())\n\t}\n${extra}}\n`;
const goFreeCheck = `\tif p.Free() != 1 {\n\t\tt.Errorf("free %d", p.Free())\n\t}\n`;

const cases: RuleCase[] = [
  {
    name: "python: a property that starts to warn, its check dropped from a surviving test (werkzeug 68e1b7b7b9)",
    changes: [change("src/lib/request.py", pyRequest(""), pyRequest(pyWarn)), change("tests/test_request.py", pyTest(pyPragmaCheck), pyTest(""))],
    findings: [`feature_removal/medium tests/test_request.py "test_descriptors"`],
  },
  {
    name: "python: a class moved behind a module __getattr__ deprecation shim, its test deleted (werkzeug 3ea0d282d7)",
    changes: [change(...pyShim), change("tests/test_accept.py", pyShimTest(pyCharsetTest), pyShimTest(""))],
    findings: [`feature_removal/medium tests/test_accept.py "test_charset_accept"`],
  },
  {
    name: 'python: a parameter deprecated under `if "cls" in kwargs`, its check dropped (werkzeug 1b00618e78)',
    changes: [change(...pyParser), change("tests/test_parser.py", pyParserTest("    assert parser.cls is dict\n"), pyParserTest(""))],
    findings: [`feature_removal/medium tests/test_parser.py "test_constructor"`],
  },
  {
    name: "python: a test retitled as its check of the deprecated parameter is dropped, the other check kept (werkzeug 1b00618e78)",
    changes: [
      change(...pyParser),
      change(
        "tests/test_parser.py",
        `from lib.parser import Parser\n\n\nclass TestParser:\n    def test_constructor_not_pass_factory_and_cls(self):\n        parser = Parser()\n        assert parser.factory is None\n        assert parser.cls is dict\n\n    def test_constructor_pass_factory_and_cls(self):\n        parser = Parser(factory=list, cls=dict)\n        assert parser.factory is list\n        assert parser.cls is dict\n`,
        `from lib.parser import Parser\n\n\nclass TestParser:\n    def test_constructor_default_factory(self):\n        parser = Parser()\n        assert parser.factory is None\n\n    def test_constructor_factory(self):\n        parser = Parser(factory=list)\n        assert parser.factory is list\n`,
      ),
    ],
    findings: [
      `feature_removal/medium tests/test_parser.py "TestParser > test_constructor_not_pass_factory_and_cls"`,
      `feature_removal/medium tests/test_parser.py "TestParser > test_constructor_pass_factory_and_cls"`,
    ],
  },
  {
    name: "js: an option that starts to emit a DeprecationWarning, its check dropped",
    changes: [change(...jsCode), change("test/index.js", jsTest(jsLegacyCheck), jsTest(""))],
    findings: [`feature_removal/medium test/index.js "renders"`],
  },
  {
    name: "php: a method that starts to trigger_deprecation(__METHOD__), its test deleted",
    changes: [change(...phpCode), change("tests/InflectorTest.php", phpTest(phpTableize), phpTest(""))],
    findings: [`feature_removal/medium tests/InflectorTest.php "InflectorTest > testTableize"`],
  },
  {
    name: "ruby: a method that starts to warn [DEPRECATION], its check dropped",
    changes: [change(...rbCode), change("spec/mailer_spec.rb", rbTest(rbLaterCheck), rbTest(""))],
    findings: [`feature_removal/medium spec/mailer_spec.rb "Mailer > delivers"`],
  },
  {
    name: "java: a method newly @Deprecated, its test deleted",
    changes: [change(...javaCode), change("src/test/java/acme/ParserTest.java", javaTest(javaLenient), javaTest(""))],
    findings: [`feature_removal/medium src/test/java/acme/ParserTest.java "ParserTest > parsesLeniently"`],
  },
  {
    name: "csharp: a method newly [Obsolete], its check dropped",
    changes: [change(...csCode), change("tests/SlugTests.cs", csTest(csAsciiCheck), csTest(""))],
    findings: [`feature_removal/medium tests/SlugTests.cs "SlugTests > Makes"`],
  },
  {
    name: "rust: a method newly #[deprecated], its check dropped",
    changes: [change(...rustCode), change("tests/flags.rs", rustTest(rustValueCheck), rustTest(""))],
    findings: [`feature_removal/medium tests/flags.rs "reads"`],
  },
  {
    name: "go: a method newly // Deprecated:, its check dropped",
    changes: [change(...goCode), change("pool_test.go", goTest(goFreeCheck), goTest(""))],
    findings: [`feature_removal/medium pool_test.go "TestPool"`],
  },
  {
    name: "cheat: python: a property deprecated, the check of another property dropped",
    changes: [
      change("src/lib/request.py", pyRequest(""), pyRequest(pyWarn)),
      change("tests/test_request.py", pyTest(pyPragmaCheck), pyTest(pyPragmaCheck).replace(`    assert request.referrer == "http://a/"\n`, "")),
    ],
    findings: [`assertion_removal/high tests/test_request.py "test_descriptors"`],
  },
  {
    name: "cheat: python: the replacement a notice names is not deprecated",
    changes: [
      change(
        "src/lib/request.py",
        pyRequest("").replace('"Referer"', '"Cache-Control"').replace("def referrer", "def cache_control"),
        pyRequest(pyWarn).replace('"Referer"', '"Cache-Control"').replace("def referrer", "def cache_control"),
      ),
      change(
        "tests/test_request.py",
        pyTest(pyPragmaCheck).replace("request.referrer", "request.cache_control"),
        pyTest(pyPragmaCheck).replace(`    assert request.cache_control == "http://a/"\n`, "").replace(`    assert request.referrer == "http://a/"\n`, ""),
      ),
    ],
    findings: [`assertion_removal/high tests/test_request.py "test_descriptors"`],
  },
  {
    name: "cheat: python: a member deprecated before the change, its check dropped now",
    changes: [change("src/lib/request.py", pyRequest(pyWarn), pyRequest(pyWarn).replace('"Pragma", ""', '"Pragma", "x"')), change("tests/test_request.py", pyTest(pyPragmaCheck), pyTest(""))],
    findings: [`assertion_removal/high tests/test_request.py "test_descriptors"`],
  },
  {
    name: "cheat: python: a deprecation only written in the docstring, the check dropped",
    changes: [
      change("src/lib/request.py", pyRequest(""), pyRequest(`        """.. deprecated:: 3.2 The 'pragma' attribute is deprecated."""\n`)),
      change("tests/test_request.py", pyTest(pyPragmaCheck), pyTest("")),
    ],
    findings: [`assertion_removal/high tests/test_request.py "test_descriptors"`],
  },
  {
    name: "cheat: js: an option deprecated, the check of the default path dropped",
    changes: [change(...jsCode), change("test/index.js", jsTest(jsLegacyCheck), jsTest(jsLegacyCheck).replace(`  t.is(render("a"), "a");\n`, ""))],
    findings: [`assertion_removal/high test/index.js "renders"`],
  },
  {
    name: "cheat: php: a method deprecated, a deleted test that also checks another method",
    changes: [change(...phpCode), change("tests/InflectorTest.php", phpTest(phpTableize.replace("  }\n", "    $this->assertSame('dogs', (new Inflector())->plural('dog'));\n  }\n")), phpTest(""))],
    findings: [`test_deletion/critical tests/InflectorTest.php "InflectorTest > testTableize"`],
  },
  {
    name: "cheat: java: a method newly @Deprecated, the check of another method dropped",
    changes: [
      change(...javaCode),
      change(
        "src/test/java/acme/ParserTest.java",
        javaTest(javaLenient),
        javaTest(javaLenient).replace('  void parses() { assertEquals("a", new Parser().parse("a")); }\n', '  void parses() { new Parser().parse("a"); }\n'),
      ),
    ],
    findings: [`assertion_removal/high src/test/java/acme/ParserTest.java "ParserTest > parses"`],
  },
];

describe("the checks of a member the change starts to deprecate", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("deprecatedNames: what a product file's notices deprecate", () => {
  it.each([
    ["python: the property the warning is in", "python", pyRequest(pyWarn), ["pragma"]],
    ["python: the class a __getattr__ shim tests for, not the shim", "python", pyShim[2], ["CharsetAccept"]],
    ["python: the parameter a condition tests for, not the constructor", "python", pyParser[2], ["cls"]],
    [
      "python: not what the message says replaces it in another sentence",
      "python",
      pyParser[2].replace("The 'cls' parameter is deprecated.", "The 'cls' parameter is deprecated. It will always be 'ImmutableMultiDict'."),
      ["cls"],
    ],
    ["python: a @deprecated decorator's function", "python", `from typing_extensions import deprecated\n\n@deprecated("use b")\ndef a():\n    return 1\n`, ["a"]],
    [
      "python: a member a condition reads",
      "python",
      `class R:\n    def args(self):\n        if self.parameter_storage_class is not None:\n            warnings.warn("Setting 'R.parameter_storage_class' is deprecated.", DeprecationWarning)\n        return 1\n`,
      ["parameter_storage_class"],
    ],
    ["js: the option a condition reads and the name quoted, not the replacement", "javascript", jsCode[2], ["legacy"]],
    ["js: the target of util.deprecate", "javascript", `import util from "node:util";\nexport const old = util.deprecate(() => 1, "old() is deprecated", "DEP0001");\n`, ["old"]],
    ["php: the method trigger_deprecation is in", "php", phpCode[2], ["tableize"]],
    ["ruby: the method and the name quoted, not the replacement", "ruby", rbCode[2], ["deliver_later"]],
    ["java: the annotated method", "java", javaCode[2], ["lenient"]],
    ["csharp: the annotated method", "csharp", csCode[2], ["MakeAscii"]],
    ["rust: the annotated function", "rust", rustCode[2], ["value"]],
    ["go: the declaration under the Deprecated: paragraph", "go", goCode[2], ["Free"]],
    ["go: a struct field", "go", `package a\n\ntype Options struct {\n\t// Deprecated: use Timeout.\n\tWait int\n\tTimeout int\n}\n`, ["Wait"]],
    ["none: no notice", "python", pyRequest(""), []],
  ] as const)("%s", (_name, language, source, names) => {
    expect(deprecatedNames(language, source)).toEqual(names);
  });
});
