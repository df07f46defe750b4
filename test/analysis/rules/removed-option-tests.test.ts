/**
 * Deleted tests whose subject was a product option the change removed
 * (rules/dependencies.ts findRemovedSettings, TestCase.checkNames and
 * callNames with their setting tokens): a test that sets the option on what
 * it builds (assigns the property, passes it as a keyword or named argument,
 * calls its setter) and checks, or with no real check exercises, what that
 * built went with the option (feature_removal, medium), as a test of a
 * removed method does (sweep of AutoMapper/AutoMapper d0ed291f1a:
 * `cfg.Internal().AllowAdditiveTypeMapCreation = true` deleted with the
 * property, reported critical). It stays a critical test_deletion when the
 * option survives, when the test sets a surviving property that merely
 * shares its name with a removed method, when one of its checks reads only
 * surviving code, and when its checks run on an object the setting was not
 * written on.
 */
import { describe, it } from "vitest";
import { change, edit, expectFindings, type RuleCase } from "./table.js";

// C#: the option property of AutoMapper's configuration, read by the validation it turns off.
const csharpProduct =
  "namespace AutoMapper;\n\npublic interface IGlobalConfigurationExpression\n{\n    bool AllowAdditiveTypeMapCreation { get; set; }\n    bool AllowNullCollections { get; set; }\n}\n\npublic class MapperConfigurationExpression : IGlobalConfigurationExpression\n{\n    bool IGlobalConfigurationExpression.AllowAdditiveTypeMapCreation { get; set; }\n    public bool AllowNullCollections { get; set; }\n\n    public void Seal()\n    {\n        if (!Expression.AllowAdditiveTypeMapCreation)\n        {\n            CheckDuplicates();\n        }\n    }\n}\n";
const csharpProductAfter = edit(
  edit(edit(csharpProduct, "    bool AllowAdditiveTypeMapCreation { get; set; }\n", ""), "    bool IGlobalConfigurationExpression.AllowAdditiveTypeMapCreation { get; set; }\n", ""),
  "        if (!Expression.AllowAdditiveTypeMapCreation)\n        {\n            CheckDuplicates();\n        }\n",
  "        CheckDuplicates();\n",
);
const csharpKept =
  "    [Fact]\n    public void Should_throw_when_multiple_create_map_calls()\n    {\n        var config = new MapperConfiguration(cfg =>\n        {\n            cfg.CreateMap<Source, Dest>();\n            cfg.CreateMap<Source, Dest>();\n        });\n        Assert.Throws<DuplicateTypeMapConfigurationException>(() => config.AssertConfigurationIsValid());\n    }\n";
const csharpTests = (body: string): string => `namespace AutoMapper.UnitTests;\n\npublic class ConfigurationRules\n{\n${csharpKept}${body}}\n`;
const csharpDeleted = (setting: string, check: string): string =>
  `\n    [Fact]\n    public void Should_not_throw_when_allowing_multiple_create_map_calls()\n    {\n        var config = new MapperConfiguration(cfg =>\n        {\n            cfg.CreateMap<Source, Dest>();\n            cfg.CreateMap<Source, Dest>();\n            ${setting}\n        });\n        ${check}\n    }\n`;
const shouldNotThrow = "typeof(DuplicateTypeMapConfigurationException).ShouldNotBeThrownBy(() => config.AssertConfigurationIsValid());";
const CSHARP_PRODUCT = "src/AutoMapper/Configuration/MapperConfigurationExpression.cs";
const CSHARP_TESTS = "src/UnitTests/ConfigurationRules.cs";
const CSHARP_FINDING = `"ConfigurationRules > Should_not_throw_when_allowing_multiple_create_map_calls"`;

// Python: a class attribute the validation reads.
const pythonProduct = "class Config:\n    allow_additive = False\n    strict = True\n\n    def validate(self):\n        return self.allow_additive or not self.strict\n";
const pythonProductAfter = "class Config:\n    strict = True\n\n    def validate(self):\n        return not self.strict\n";
const pythonKept = "from pkg.config import Config\n\n\ndef test_strict_refuses():\n    assert not Config().validate()\n";

// Ruby: an attr_accessor the validation reads.
const rubyProduct = "class Config\n  attr_accessor :allow_additive, :strict\n\n  def valid?\n    allow_additive || !strict\n  end\nend\n";
const rubyProductAfter = "class Config\n  attr_accessor :strict\n\n  def valid?\n    !strict\n  end\nend\n";
const rubyTests = (extra: string): string =>
  `require "config"\n\nclass ConfigTest < Minitest::Test\n  def test_strict\n    config = Config.new\n    config.strict = true\n    refute config.valid?\n  end\n${extra}end\n`;

// Java: a field with its setter.
const javaProduct =
  "package shop;\n\npublic class Config {\n  private boolean allowAdditive;\n  private boolean strict = true;\n\n  public void setAllowAdditive(boolean value) { allowAdditive = value; }\n  public void setStrict(boolean value) { strict = value; }\n  public boolean validate() { return allowAdditive || !strict; }\n}\n";
const javaProductAfter =
  "package shop;\n\npublic class Config {\n  private boolean strict = true;\n\n  public void setStrict(boolean value) { strict = value; }\n  public boolean validate() { return !strict; }\n}\n";
const javaTests = (extra: string): string =>
  `package shop;\n\nclass ConfigTest {\n  @Test void strictRefuses() { Config config = new Config(); config.setStrict(true); assertFalse(config.validate()); }\n${extra}}\n`;

const lookAlikes: RuleCase[] = [
  {
    name: "c#: the AutoMapper test that set the removed option in the configuration lambda and checked with an unknown helper",
    changes: [
      change(CSHARP_PRODUCT, csharpProduct, csharpProductAfter),
      change(CSHARP_TESTS, csharpTests(csharpDeleted("cfg.Internal().AllowAdditiveTypeMapCreation = true;", shouldNotThrow)), csharpTests("")),
    ],
    findings: [`feature_removal/medium ${CSHARP_PRODUCT}`, `feature_removal/medium ${CSHARP_TESTS} ${CSHARP_FINDING}`],
  },
  {
    name: "c#: the same test with a real Assert.DoesNotThrow check on what the configuration built",
    changes: [
      change(CSHARP_PRODUCT, csharpProduct, csharpProductAfter),
      change(CSHARP_TESTS, csharpTests(csharpDeleted("cfg.Internal().AllowAdditiveTypeMapCreation = true;", "Assert.DoesNotThrow(() => config.AssertConfigurationIsValid());")), csharpTests("")),
    ],
    findings: [`feature_removal/medium ${CSHARP_PRODUCT}`, `feature_removal/medium ${CSHARP_TESTS} ${CSHARP_FINDING}`],
  },
  {
    name: "c#: the option set by an object initializer, checked by Assert.True",
    changes: [
      change(CSHARP_PRODUCT, csharpProduct, csharpProductAfter),
      change(
        "src/UnitTests/ExpressionTests.cs",
        "public class ExpressionTests\n{\n    [Fact]\n    public void Seals() { var e = new MapperConfigurationExpression(); e.Seal(); }\n\n    [Fact]\n    public void Seals_additive()\n    {\n        var e = new MapperConfigurationExpression { AllowAdditiveTypeMapCreation = true };\n        Assert.True(e.Seal());\n    }\n}\n",
        "public class ExpressionTests\n{\n    [Fact]\n    public void Seals() { var e = new MapperConfigurationExpression(); e.Seal(); }\n}\n",
      ),
    ],
    findings: [`feature_removal/medium ${CSHARP_PRODUCT}`, `feature_removal/medium src/UnitTests/ExpressionTests.cs "ExpressionTests > Seals_additive"`],
  },
  {
    name: "python: an attribute set on the config, its validation checked",
    changes: [
      change("pkg/config.py", pythonProduct, pythonProductAfter),
      change("tests/test_config.py", `${pythonKept}\n\ndef test_additive_accepts():\n    cfg = Config()\n    cfg.allow_additive = True\n    assert cfg.validate()\n`, pythonKept),
    ],
    findings: [`feature_removal/medium tests/test_config.py "test_additive_accepts"`],
  },
  {
    name: "python: the option passed as a keyword argument, with no real check",
    changes: [
      change("pkg/config.py", pythonProduct, pythonProductAfter),
      change("tests/test_config.py", `${pythonKept}\n\ndef test_additive_does_not_raise():\n    Config(allow_additive=True).validate()\n`, pythonKept),
    ],
    findings: [`feature_removal/medium tests/test_config.py "test_additive_does_not_raise"`],
  },
  {
    name: "ruby: an attr_accessor written on the config, its validation asserted",
    changes: [
      change("lib/config.rb", rubyProduct, rubyProductAfter),
      change("test/config_test.rb", rubyTests("\n  def test_additive\n    config = Config.new\n    config.allow_additive = true\n    assert config.valid?\n  end\n"), rubyTests("")),
    ],
    findings: [`feature_removal/medium test/config_test.rb "ConfigTest > test_additive"`],
  },
  {
    name: "java: the removed setter called on the config, its validation asserted",
    changes: [
      change("src/main/java/shop/Config.java", javaProduct, javaProductAfter),
      change(
        "src/test/java/shop/ConfigTest.java",
        javaTests("  @Test void additiveAccepts() { Config config = new Config(); config.setAllowAdditive(true); assertTrue(config.validate()); }\n"),
        javaTests(""),
      ),
    ],
    findings: [`feature_removal/medium src/test/java/shop/ConfigTest.java "ConfigTest > additiveAccepts"`, "feature_removal/medium src/main/java/shop/Config.java"],
  },
];

const cheats: RuleCase[] = [
  {
    name: "c#: the AutoMapper test deleted while the option stays in the product",
    changes: [
      change(CSHARP_PRODUCT, csharpProduct, edit(csharpProduct, "CheckDuplicates();", "CheckDuplicates(Expression);")),
      change(CSHARP_TESTS, csharpTests(csharpDeleted("cfg.Internal().AllowAdditiveTypeMapCreation = true;", shouldNotThrow)), csharpTests("")),
    ],
    findings: [`test_deletion/critical ${CSHARP_TESTS} ${CSHARP_FINDING}`],
  },
  {
    name: "c#: the test sets a surviving option that shares its name with a removed, unrelated method",
    changes: [
      change(
        "src/AutoMapper/Legacy.cs",
        "public class Legacy\n{\n    public void AllowNullCollections() { }\n    public void Run() { }\n}\n",
        "public class Legacy\n{\n    public void Run() { }\n}\n",
      ),
      change(CSHARP_TESTS, csharpTests(csharpDeleted("cfg.AllowNullCollections = true;", shouldNotThrow)), csharpTests("")),
    ],
    findings: [`test_deletion/critical ${CSHARP_TESTS} ${CSHARP_FINDING}`, "feature_removal/medium src/AutoMapper/Legacy.cs"],
  },
  {
    name: "python: the test sets a surviving attribute that shares its name with a removed function",
    changes: [
      change("pkg/legacy.py", "def allow_additive():\n    return True\n\n\ndef run():\n    return 1\n", "def run():\n    return 1\n"),
      change("tests/test_config.py", `${pythonKept}\n\ndef test_additive_accepts():\n    cfg = Config()\n    cfg.allow_additive = True\n    assert cfg.validate()\n`, pythonKept),
    ],
    findings: [`test_deletion/critical tests/test_config.py "test_additive_accepts"`, "feature_removal/medium pkg/legacy.py"],
  },
  {
    name: "python: the test sets the removed attribute but also checks surviving code",
    changes: [
      change("pkg/config.py", pythonProduct, pythonProductAfter),
      change(
        "tests/test_config.py",
        `${pythonKept}\n\ndef test_additive_accepts():\n    cfg = Config()\n    cfg.allow_additive = True\n    assert cfg.validate()\n    assert Config().strict\n`,
        pythonKept,
      ),
    ],
    findings: [`test_deletion/critical tests/test_config.py "test_additive_accepts"`],
  },
  {
    name: "java: the removed setter is called on one config while the check reads another",
    changes: [
      change("src/main/java/shop/Config.java", javaProduct, javaProductAfter),
      change(
        "src/test/java/shop/ConfigTest.java",
        javaTests("  @Test void additiveAccepts() { Config config = new Config(); Config other = new Config(); config.setAllowAdditive(true); assertFalse(other.validate()); }\n"),
        javaTests(""),
      ),
    ],
    findings: [`test_deletion/critical src/test/java/shop/ConfigTest.java "ConfigTest > additiveAccepts"`, "feature_removal/medium src/main/java/shop/Config.java"],
  },
  {
    name: "ruby: the test deleted while the attr_accessor stays",
    changes: [
      change("lib/config.rb", rubyProduct, edit(rubyProduct, "allow_additive || !strict", "allow_additive || strict == false")),
      change("test/config_test.rb", rubyTests("\n  def test_additive\n    config = Config.new\n    config.allow_additive = true\n    assert config.valid?\n  end\n"), rubyTests("")),
    ],
    findings: [`test_deletion/critical test/config_test.rb "ConfigTest > test_additive"`],
  },
];

describe("deleted tests that set a removed option (rules/features.ts, rules/dependencies.ts findRemovedSettings)", () => {
  describe("went with the option: feature_removal at medium", () => {
    for (const rule of lookAlikes) it(rule.name, async () => expectFindings(rule));
  });
  describe("stay test_deletion", () => {
    for (const rule of cheats) it(rule.name, async () => expectFindings(rule));
  });
});
