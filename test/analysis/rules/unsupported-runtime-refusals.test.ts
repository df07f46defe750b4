/**
 * A guard refusing runtimes older than any the project supports, removed
 * with the test that faked an old runtime to reach it
 * (runtime-requirements.ts; validation.ts isUnsupportedRuntimeRefusal;
 * rules/features.ts unsupportedRuntimeRefused; sweep of micromatch/picomatch
 * c0f9c5550d: "Node.js v10 or higher is required for regex lookbehinds"
 * went with its `process.version = 'v6.0.0'` test while engines said
 * `>=10`). The guard refuses nothing a user can meet, so its removal is no
 * bypass and the test went with the code it tested (feature_removal
 * medium). The same removal while the manifest still admits the refused
 * runtime is a bypass and a lost test.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";
import type { FileChange } from "../../../src/analysis/index.js";

interface Shape {
  lang: string;
  manifest: (minimum: string) => FileChange;
  product: FileChange;
  test: FileChange;
  id: string;
}

const pkg = (node: string): string => `${JSON.stringify({ name: "glob", version: "3.0.0", engines: { node } }, null, 2)}\n`;
const pyproject = (python: string): string => `[project]\nname = "glob"\nrequires-python = "${python}"\n`;
const composer = (php: string): string => `${JSON.stringify({ name: "acme/glob", require: { php } }, null, 2)}\n`;

const SHAPES: Shape[] = [
  {
    lang: "javascript",
    manifest: (minimum) => change("package.json", pkg(minimum), `${pkg(minimum)}\n`),
    product: change(
      "lib/parse.js",
      "const utils = require('./utils');\n\nfunction parse(input) {\n  if (input.includes('(?<') && !utils.supportsLookbehinds()) {\n    throw new Error('Node.js v10 or higher is required for regex lookbehinds');\n  }\n  return compile(input);\n}\n\nmodule.exports = parse;\n",
      "const utils = require('./utils');\n\nfunction parse(input) {\n  return compile(input);\n}\n\nmodule.exports = parse;\n",
    ),
    test: change(
      "test/parse.js",
      "const assert = require('assert');\nconst parse = require('../lib/parse');\n\ndescribe('lookbehinds', () => {\n  it('compiles lookbehinds', () => {\n    assert(parse('(?<!c)baz'));\n  });\n\n  it('throws on an unsupported node version', () => {\n    Reflect.defineProperty(process, 'version', { value: 'v6.0.0' });\n    assert.throws(() => parse('(?<!c)baz'), /Node\\.js v10 or higher/);\n  });\n});\n",
      "const assert = require('assert');\nconst parse = require('../lib/parse');\n\ndescribe('lookbehinds', () => {\n  it('compiles lookbehinds', () => {\n    assert(parse('(?<!c)baz'));\n  });\n});\n",
    ),
    id: "lookbehinds > throws on an unsupported node version",
  },
  {
    lang: "python",
    manifest: (minimum) => change("pyproject.toml", pyproject(minimum), `${pyproject(minimum)}\n`),
    product: change(
      "glob/parse.py",
      'import sys\n\n\ndef parse(pattern):\n    if sys.version_info < (3, 8):\n        raise RuntimeError("Python 3.8 or higher is required")\n    return compile_pattern(pattern)\n',
      "def parse(pattern):\n    return compile_pattern(pattern)\n",
    ),
    test: change(
      "tests/test_parse.py",
      'import sys\n\nimport pytest\n\nfrom glob.parse import parse\n\n\ndef test_parse():\n    assert parse("a*")\n\n\ndef test_old_python(monkeypatch):\n    monkeypatch.setattr(sys, "version_info", (3, 7))\n    with pytest.raises(RuntimeError, match="Python 3.8 or higher"):\n        parse("a*")\n',
      'from glob.parse import parse\n\n\ndef test_parse():\n    assert parse("a*")\n',
    ),
    id: "test_old_python",
  },
  {
    lang: "php",
    manifest: (minimum) => change("composer.json", composer(minimum), `${composer(minimum)}\n`),
    product: change(
      "src/Parser.php",
      "<?php\nfinal class Parser\n{\n    public static function parse(string $p): string\n    {\n        if (\\PHP_VERSION_ID < 80100) {\n            throw new \\RuntimeException('PHP 8.1 or newer is required');\n        }\n        return $p;\n    }\n}\n",
      "<?php\nfinal class Parser\n{\n    public static function parse(string $p): string\n    {\n        return $p;\n    }\n}\n",
    ),
    test: change(
      "tests/ParserTest.php",
      "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ParserTest extends TestCase\n{\n    public function testParse(): void\n    {\n        $this->assertSame('a', Parser::parse('a'));\n    }\n\n    public function testOldPhp(): void\n    {\n        $this->expectException(\\RuntimeException::class);\n        $this->expectExceptionMessage('PHP 8.1 or newer is required');\n        Parser::parse('a');\n    }\n}\n",
      "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ParserTest extends TestCase\n{\n    public function testParse(): void\n    {\n        $this->assertSame('a', Parser::parse('a'));\n    }\n}\n",
    ),
    id: "ParserTest > testOldPhp",
  },
];

const MINIMUMS: Record<string, [met: string, unmet: string]> = { javascript: [">=10", ">=8"], python: [">=3.9", ">=3.7"], php: [">=8.1", ">=7.4"] };

describe("a refusal of runtimes the project no longer supports, removed with its test: no bypass, the test went with it", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    await expectFindings({
      name: shape.lang,
      changes: [shape.manifest((MINIMUMS[shape.lang] as [string, string])[0]), shape.product, shape.test],
      findings: [`feature_removal/medium ${shape.test.path} "${shape.id}"`],
    });
  });
});

describe("the same removal while the manifest still admits the refused runtime: a bypass and a lost test", () => {
  it.each(SHAPES.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    await expectFindings({
      name: shape.lang,
      changes: [shape.manifest((MINIMUMS[shape.lang] as [string, string])[1]), shape.product, shape.test],
      findings: [`test_deletion/critical ${shape.test.path} "${shape.id}"`, `validation_bypass/high ${shape.product.path}`],
    });
  });
});
