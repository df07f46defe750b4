/**
 * A deleted test that changed what its checks read through a method the
 * change removed went with that method (parsers/tree-sitter-subjects.ts
 * settingWritesIn; sweep of thephpleague/uri 4436c6ec8d, "Replace tap by
 * transform": `$builder->tap(fn)` then `assertSame('example.com',
 * $builder->build()->getHost())`, with `tap` removed). A method called on a
 * local as a statement is part of what the local holds when a check reads
 * it. The same test deleted while the method stays is still a deletion.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const PHP_SRC = (extra: string): string =>
  `<?php\n\nfinal class Builder\n{\n    private ?string $host = null;\n\n    public function host(string $host): self\n    {\n        $this->host = $host;\n        return $this;\n    }\n${extra}\n    public function build(): Uri\n    {\n        return new Uri($this->host);\n    }\n}\n`;
const TAP = "\n    public function tap(callable $callback): self\n    {\n        $callback($this);\n        return $this;\n    }\n";
const PHP_TEST = (extra: string): string =>
  `<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class BuilderTest extends TestCase\n{\n    public function test_host(): void\n    {\n        self::assertSame('a.com', (new Builder())->host('a.com')->build()->getHost());\n    }\n${extra}}\n`;
const TAP_TEST =
  "\n    public function test_tap_allows_builder_mutation(): void\n    {\n        $builder = new Builder();\n        $builder->tap(function (Builder $b) {\n            $b->host('example.com');\n        });\n        self::assertSame('example.com', $builder->build()->getHost());\n    }\n";

const PY_SRC = (extra: string): string => `class Builder:\n    def __init__(self):\n        self.host = None\n${extra}\n    def build(self):\n        return Uri(self.host)\n`;
const PY_TAP = "\n    def tap(self, callback):\n        callback(self)\n        return self\n";
const PY_TEST = (extra: string): string => `from app.builder import Builder\n\n\ndef test_build():\n    assert Builder().build().host is None\n${extra}`;
const PY_TAP_TEST = "\n\ndef test_tap_allows_mutation():\n    builder = Builder()\n    builder.tap(lambda b: setattr(b, 'host', 'example.com'))\n    assert builder.build().host == 'example.com'\n";

const cases: RuleCase[] = [
  {
    name: "php: the test mutating its builder through the removed tap() deleted with it",
    changes: [change("src/Builder.php", PHP_SRC(TAP), PHP_SRC("")), change("tests/BuilderTest.php", PHP_TEST(TAP_TEST), PHP_TEST(""))],
    findings: ["feature_removal/medium src/Builder.php", 'feature_removal/medium tests/BuilderTest.php "BuilderTest > test_tap_allows_builder_mutation"'],
  },
  {
    name: "python: the test mutating its builder through the removed tap() deleted with it",
    changes: [change("app/builder.py", PY_SRC(PY_TAP), PY_SRC("")), change("tests/test_builder.py", PY_TEST(PY_TAP_TEST), PY_TEST(""))],
    findings: ['feature_removal/medium tests/test_builder.py "test_tap_allows_mutation"'],
  },
  {
    name: "php: the same test deleted while tap() stays",
    changes: [change("tests/BuilderTest.php", PHP_TEST(TAP_TEST), PHP_TEST(""))],
    findings: ['test_deletion/critical tests/BuilderTest.php "BuilderTest > test_tap_allows_builder_mutation"'],
  },
  {
    name: "python: the same test deleted while tap() stays",
    changes: [change("tests/test_builder.py", PY_TEST(PY_TAP_TEST), PY_TEST(""))],
    findings: ['test_deletion/critical tests/test_builder.py "test_tap_allows_mutation"'],
  },
];

describe("a test mutating its subject through a removed method", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
