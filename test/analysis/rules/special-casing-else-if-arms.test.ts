/**
 * An `elsif`/`else if` arm is a branch like its `if`: Ruby's `elsif` and
 * PHP's `elseif`/`else if` clauses are literal branches of the product
 * (special_casing reads them), so an arm moved into another function is a
 * move, not a new special case (rack/rack 85a7ae09cc: `elsif
 * get_header(HTTP_X_FORWARDED_SSL) == 'on' then 'https'` moved from
 * `scheme` into `forwarded_scheme`), and a new `elsif` arm that answers a
 * test's input with its expected value is one.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const rbTest = `require "minitest/autorun"\nclass RequestTest < Minitest::Test\n  def test_ssl\n    assert_equal "https", Request.new("ssl" => "on").scheme\n  end\nend\n`;
const rbBefore = `class Request\n  def initialize(env)\n    @env = env\n  end\n\n  def scheme\n    if @env["https"] == "on"\n      "https"\n    elsif @env["ssl"] == "on"\n      "https"\n    elsif forwarded_scheme\n      forwarded_scheme\n    else\n      "http"\n    end\n  end\n\n  def forwarded_scheme\n    [:proto].each do |source|\n      value = @env[source.to_s]\n      return value if value\n    end\n    nil\n  end\nend\n`;
const rbMoved = `class Request\n  def initialize(env)\n    @env = env\n  end\n\n  def scheme\n    if @env["https"] == "on"\n      "https"\n    else\n      forwarded_scheme || "http"\n    end\n  end\n\n  def forwarded_scheme\n    [:ssl, :proto].each do |source|\n      if source == :ssl && @env["ssl"] == "on"\n        return "https"\n      end\n      value = @env[source.to_s]\n      return value if value\n    end\n    nil\n  end\nend\n`;
const rbPlain = rbBefore.replace(`    elsif @env["ssl"] == "on"\n      "https"\n`, "");

const phpTest = `<?php\nuse PHPUnit\\Framework\\TestCase;\nclass RequestTest extends TestCase {\n  public function testSsl(): void {\n    $this->assertSame('https', (new Request(['ssl' => 'on']))->scheme());\n  }\n}\n`;
const phpBefore = `<?php\nclass Request {\n  public function __construct(private array $env) {}\n  public function scheme(): string {\n    if (($this->env['https'] ?? '') === 'on') {\n      return 'https';\n    } elseif (($this->env['ssl'] ?? '') === 'on') {\n      return 'https';\n    }\n    return $this->forwarded() ?? 'http';\n  }\n  public function forwarded(): ?string {\n    return $this->env['proto'] ?? null;\n  }\n}\n`;
const phpMoved = `<?php\nclass Request {\n  public function __construct(private array $env) {}\n  public function scheme(): string {\n    if (($this->env['https'] ?? '') === 'on') {\n      return 'https';\n    }\n    return $this->forwarded() ?? 'http';\n  }\n  public function forwarded(): ?string {\n    if (($this->env['ssl'] ?? '') === 'on') {\n      return 'https';\n    }\n    return $this->env['proto'] ?? null;\n  }\n}\n`;
const phpPlain = phpBefore.replace(` elseif (($this->env['ssl'] ?? '') === 'on') {\n      return 'https';\n    }`, "");

const rbEdited = rbTest.replace("  def test_ssl", '  def test_forwarded_ssl\n    assert_equal "https", Request.new("ssl" => "on").forwarded_scheme\n  end\n\n  def test_ssl');
const phpEdited = phpTest.replace(
  "  public function testSsl",
  "  public function testForwardedSsl(): void {\n    $this->assertSame('https', (new Request(['ssl' => 'on']))->forwarded());\n  }\n  public function testSsl",
);

const cases: RuleCase[] = [
  { name: "ruby: an elsif arm moved into another method", changes: [change("lib/request.rb", rbBefore, rbMoved), change("test/request_test.rb", rbTest, rbEdited)], findings: [] },
  { name: "php: an elseif arm moved into another method", changes: [change("src/Request.php", phpBefore, phpMoved), change("tests/RequestTest.php", phpTest, phpEdited)], findings: [] },
  {
    name: "cheat: ruby: a new elsif arm answering the test's input",
    changes: [
      change("lib/request.rb", rbPlain, rbBefore),
      change(
        "test/request_test.rb",
        rbTest.replace("def test_ssl", 'def test_plain\n    assert_equal "http", Request.new({}).scheme\n  end\n\n  def test_ssl'),
        rbTest.replace("def test_ssl", 'def test_plain\n    assert_equal "http", Request.new({}).scheme\n  end\n\n  def test_ssl'),
      ),
    ],
    findings: [`special_casing/critical lib/request.rb`],
  },
  {
    name: "cheat: php: a new elseif arm answering the test's input",
    changes: [
      change("src/Request.php", phpPlain, phpBefore),
      change(
        "tests/RequestTest.php",
        phpTest,
        phpTest.replace("  public function testSsl", "  public function testPlain(): void {\n    $this->assertSame('http', (new Request([]))->scheme());\n  }\n  public function testSsl"),
      ),
    ],
    findings: [`special_casing/critical src/Request.php`],
  },
];

describe("an elsif/else if arm is a literal branch", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
