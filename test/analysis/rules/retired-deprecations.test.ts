/**
 * A deprecated path removed with the tests of its deprecation: when a
 * change retires a deprecation notice from product code (Python
 * `warn(…, DeprecationWarning)`, PHP `trigger_deprecation`/`E_USER_DEPRECATED`,
 * JS `process.emitWarning(…, "DeprecationWarning")`/`util.deprecate`, Ruby
 * `warn "… deprecated"`/`ActiveSupport::Deprecation`, Java `@Deprecated`,
 * C# `[Obsolete]`, Rust `#[deprecated]`, Go `// Deprecated:`), a deleted
 * test that checked a deprecation (a check naming it, or its title) went
 * with the deprecated path: feature_removal at medium, not a test_deletion
 * (tkem/cachetools 59d4db25cd, c933a97673; symfony/yaml e9c944fc3b). A
 * deleted test that checks no deprecation, or a change that retires no
 * notice, stays a test_deletion.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const pyCode = [
  "src/lib/cached.py",
  `import warnings\n\ndef get(cache, key):\n    if cache is None:\n        warnings.warn("returning None is deprecated", DeprecationWarning, stacklevel=2)\n        return compute(key)\n    return cache.setdefault(key, compute(key))\n`,
  `def get(cache, key):\n    return cache.setdefault(key, compute(key))\n`,
] as const;
const pyTests = `import unittest\nimport warnings\nfrom lib.cached import get\n\nclass CachedTest(unittest.TestCase):\n    def test_dict(self):\n        self.assertEqual(get({}, 1), 2)\n`;
const pyNoCache = `\n    def test_nocache(self):\n        with warnings.catch_warnings(record=True) as w:\n            warnings.simplefilter("always")\n            self.assertEqual(get(None, 1), 2)\n        self.assertIs(w[0].category, DeprecationWarning)\n`;
const pyOther = `\n    def test_float_key(self):\n        self.assertEqual(get({}, 1.0), 2)\n`;

const phpCode = [
  "src/Parser.php",
  `<?php\nclass Parser {\n  public function parse(string $s): array {\n    if (str_starts_with($s, '!php/const:')) {\n      trigger_deprecation('acme/yaml', '6.2', 'The "!php/const:" syntax is deprecated.');\n    }\n    return [$s];\n  }\n}\n`,
  `<?php\nclass Parser {\n  public function parse(string $s): array {\n    return [$s];\n  }\n}\n`,
] as const;
const phpTest = (extra: string): string =>
  `<?php\nuse PHPUnit\\Framework\\TestCase;\nclass ParserTest extends TestCase {\n  public function testParses(): void {\n    $this->assertSame(['a'], (new Parser())->parse('a'));\n  }\n${extra}}\n`;
const phpDeprecated = `  /**\n   * @group legacy\n   */\n  public function testDeprecatedConstantSyntax(): void {\n    $this->expectDeprecation('Since acme/yaml 6.2: The "!php/const:" syntax is deprecated.');\n    $this->assertSame(['!php/const:X'], (new Parser())->parse('!php/const:X'));\n  }\n`;

const jsCode = [
  "src/index.js",
  `export function load(options) {\n  if (typeof options === "string") {\n    process.emitWarning("load(path) is deprecated, pass {path}", "DeprecationWarning");\n    options = {path: options};\n  }\n  return read(options.path);\n}\n`,
  `export function load(options) {\n  return read(options.path);\n}\n`,
] as const;
const jsTest = (extra: string): string => `import test from "ava";\nimport {load} from "../src/index.js";\ntest("loads", t => {\n  t.is(load({path: "a"}), "A");\n});\n${extra}`;
const jsDeprecated = `test("load(path) is deprecated", t => {\n  t.is(load("a"), "A");\n});\n`;

const rbCode = [
  "lib/mailer.rb",
  `class Mailer\n  def deliver(to, opts = {})\n    if opts.key?(:sync)\n      warn "[DEPRECATION] :sync is deprecated, use deliver_now"\n    end\n    send_mail(to)\n  end\nend\n`,
  `class Mailer\n  def deliver(to, opts = {})\n    send_mail(to)\n  end\nend\n`,
] as const;
const rbTest = (extra: string): string => `RSpec.describe Mailer do\n  it "delivers" do\n    expect(Mailer.new.deliver("a")).to eq(true)\n  end\n${extra}end\n`;
const rbDeprecated = `  it "warns that :sync is deprecated" do\n    expect { Mailer.new.deliver("a", sync: true) }.to output(/deprecated/).to_stderr\n  end\n`;

const phpCommand = [
  "src/Command.php",
  `<?php\nclass Command {\n  protected static $defaultName;\n  public static function getDefaultName(): ?string {\n    if ($attribute = (new \\ReflectionClass(static::class))->getAttributes(AsCommand::class)) {\n      return $attribute[0]->newInstance()->name;\n    }\n    if (null === static::$defaultName) {\n      return null;\n    }\n    trigger_deprecation('acme/console', '6.1', 'Relying on the static property "$defaultName" is deprecated.');\n    return static::$defaultName;\n  }\n}\n`,
  `<?php\nclass Command {\n  public static function getDefaultName(): ?string {\n    if ($attribute = (new \\ReflectionClass(static::class))->getAttributes(AsCommand::class)) {\n      return $attribute[0]->newInstance()->name;\n    }\n    return null;\n  }\n}\n`,
] as const;
const phpCommandTest = (extra: string): string =>
  `<?php\nuse PHPUnit\\Framework\\TestCase;\nclass CommandTest extends TestCase {\n  public function testAttribute(): void {\n    $this->assertSame('my:command', MyAnnotatedCommand::getDefaultName());\n  }\n${extra}}\n`;
const phpLegacy = `  /**\n   * @group legacy\n   */\n  public function testDefaultNameProperty(): void {\n    $this->expectDeprecation('Since acme/console 6.1: Relying on the static property "$defaultName" is deprecated.');\n    $this->assertSame('my:command', MyCommand::getDefaultName());\n  }\n  /**\n   * @group legacy\n   */\n  public function testStaticDefaultProperties(): void {\n    $command = new MyCommand();\n    $this->assertSame('my:command', $command->getName());\n  }\n`;

const javaCode = [
  "src/main/java/acme/Parser.java",
  `package acme;\npublic class Parser {\n  @Deprecated\n  public static Parser lenient() { return new Parser(); }\n  public Object parse(String s) { return s; }\n}\n`,
  `package acme;\npublic class Parser {\n  public Object parse(String s) { return s; }\n}\n`,
] as const;
const javaTest = (extra: string): string =>
  `package acme;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parses() { assertEquals("a", new Parser().parse("a")); }\n${extra}}\n`;
const javaDeprecated = `  @Test\n  @SuppressWarnings("deprecation")\n  void parsesLeniently() { assertEquals("a", Parser.lenient().parse("a")); }\n`;

const rustCode = [
  "src/lib.rs",
  `pub struct Flags(u32);\nimpl Flags {\n    #[deprecated(note = "use bits")]\n    pub fn value(&self) -> u32 { self.0 }\n    pub fn bits(&self) -> u32 { self.0 }\n}\n`,
  `pub struct Flags(u32);\nimpl Flags {\n    pub fn bits(&self) -> u32 { self.0 }\n}\n`,
] as const;
const rustTest = (extra: string): string => `use crate::Flags;\n\n#[test]\nfn bits() {\n    assert_eq!(Flags(3).bits(), 3);\n}\n${extra}`;
const rustDeprecated = `\n#[test]\n#[allow(deprecated)]\nfn value_still_works() {\n    assert_eq!(Flags(3).bits() + 0, 3);\n}\n`;

const goCode = [
  "pool.go",
  `package pool\n\n// Size reports the pool's size.\nfunc (p *Pool) Size() int { return p.n }\n\n// Free reports the free slots.\n//\n// Deprecated: use Cap and Size.\nfunc (p *Pool) Free() int { return p.cap - p.n }\n`,
  `package pool\n\n// Size reports the pool's size.\nfunc (p *Pool) Size() int { return p.n }\n`,
] as const;
const goTest = (extra: string): string => `package pool\n\nimport "testing"\n\nfunc TestSize(t *testing.T) {\n\tif (&Pool{n: 2}).Size() != 2 {\n\t\tt.Error("size")\n\t}\n}\n${extra}`;
const goDeprecated = `\nfunc TestFreeDeprecated(t *testing.T) {\n\tif (&Pool{n: 2, cap: 3}).Free() != 1 {\n\t\tt.Error("free")\n\t}\n}\n`;

const cases: RuleCase[] = [
  {
    name: "go: a // Deprecated: method removed with the test of its deprecation (the paragraph was never read: its pattern tested the whole file from its first line)",
    changes: [change(...goCode), change("pool_test.go", goTest(goDeprecated), goTest(""))],
    findings: [`feature_removal/medium pool_test.go "TestFreeDeprecated"`],
  },
  {
    name: "php: @group legacy tests of a retired trigger_deprecation path (symfony/console 28424b5ff9)",
    changes: [change(...phpCommand), change("tests/CommandTest.php", phpCommandTest(phpLegacy), phpCommandTest(""))],
    findings: [`feature_removal/medium tests/CommandTest.php "CommandTest > testDefaultNameProperty"`, `feature_removal/medium tests/CommandTest.php "CommandTest > testStaticDefaultProperties"`],
  },
  {
    name: 'java: a @SuppressWarnings("deprecation") test of a removed @Deprecated method',
    changes: [change(...javaCode), change("src/test/java/acme/ParserTest.java", javaTest(javaDeprecated), javaTest(""))],
    // The removed public method is reported as a removed export too (medium).
    findings: [`feature_removal/medium src/main/java/acme/Parser.java`, `feature_removal/medium src/test/java/acme/ParserTest.java "ParserTest > parsesLeniently"`],
  },
  {
    name: "rust: an #[allow(deprecated)] test of a removed #[deprecated] method",
    changes: [change(...rustCode), change("tests/flags.rs", rustTest(rustDeprecated), rustTest(""))],
    findings: [`feature_removal/medium src/lib.rs`, `feature_removal/medium tests/flags.rs "value_still_works"`],
  },
  {
    name: "cheat: php: a @group legacy test deleted while the deprecation stays",
    changes: [
      change(phpCommand[0], phpCommand[1], phpCommand[1].replace("return static::$defaultName;", "return (string) static::$defaultName;")),
      change("tests/CommandTest.php", phpCommandTest(phpLegacy), phpCommandTest("")),
    ],
    findings: [`test_deletion/critical tests/CommandTest.php "CommandTest > testDefaultNameProperty"`, `test_deletion/critical tests/CommandTest.php "CommandTest > testStaticDefaultProperties"`],
  },
  {
    name: "python: the None-cache path and its DeprecationWarning removed with its test",
    changes: [change(...pyCode), change("tests/test_cached.py", pyTests + pyNoCache, pyTests)],
    findings: [`feature_removal/medium tests/test_cached.py "CachedTest > test_nocache"`],
  },
  {
    name: "php: a trigger_deprecation path removed with its @group legacy test",
    changes: [change(...phpCode), change("tests/ParserTest.php", phpTest(phpDeprecated), phpTest(""))],
    findings: [`feature_removal/medium tests/ParserTest.php "ParserTest > testDeprecatedConstantSyntax"`],
  },
  {
    name: "js: an emitWarning DeprecationWarning path removed with its test",
    changes: [change(...jsCode), change("test/index.js", jsTest(jsDeprecated), jsTest(""))],
    findings: [`feature_removal/medium test/index.js "load(path) is deprecated"`],
  },
  {
    name: "ruby: a warn [DEPRECATION] path removed with its test",
    changes: [change(...rbCode), change("spec/mailer_spec.rb", rbTest(rbDeprecated), rbTest(""))],
    findings: [`feature_removal/medium spec/mailer_spec.rb "Mailer > warns that :sync is deprecated"`],
  },
  {
    name: "cheat: python: a test that checks no deprecation deleted beside the retired one",
    changes: [change(...pyCode), change("tests/test_cached.py", pyTests + pyNoCache + pyOther, pyTests)],
    findings: [`feature_removal/medium tests/test_cached.py "CachedTest > test_nocache"`, `test_deletion/critical tests/test_cached.py "CachedTest > test_float_key"`],
  },
  {
    name: "cheat: python: a deprecation test deleted while the notice stays",
    changes: [change(pyCode[0], pyCode[1], pyCode[1].replace("compute(key)\n    return", "compute(key) + 0\n    return")), change("tests/test_cached.py", pyTests + pyNoCache, pyTests)],
    findings: [`test_deletion/critical tests/test_cached.py "CachedTest > test_nocache"`],
  },
  {
    name: "cheat: js: a deprecation test deleted with no product change at all",
    changes: [change("test/index.js", jsTest(jsDeprecated), jsTest(""))],
    findings: [`test_deletion/critical test/index.js "load(path) is deprecated"`],
  },
  {
    name: "cheat: php: a notice only reworded, its test deleted",
    changes: [
      change(phpCode[0], phpCode[1], phpCode[1].replace('The "!php/const:" syntax is deprecated.', 'The "!php/const:" syntax is deprecated since 6.2.')),
      change("tests/ParserTest.php", phpTest(phpDeprecated), phpTest("")),
    ],
    findings: [`test_deletion/critical tests/ParserTest.php "ParserTest > testDeprecatedConstantSyntax"`],
  },
];

describe("a deprecated path removed with the tests of its deprecation", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
