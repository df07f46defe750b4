/**
 * A test that gains a conditional skip (test_disabled): medium when the
 * condition probes the environment the suite is written for (an optional
 * dependency or capability, an older interpreter, another platform), since
 * the test still runs where CI and agents run; critical when it probes the
 * CI, a newer interpreter, a platform test that holds on Linux, or
 * something ralph cannot read. Sweeps of python-attrs/cattrs 9f3e2a36b5
 * (skipif(cbor2 missing), 7 critical) and ruby-i18n/i18n d6964f2b6 (`skip
 * if RUBY_VERSION < "3.2"` when 3.1 support came back) were reported
 * critical.
 */
import { describe, it } from "vitest";
import { change, type RuleCase, expectFindings } from "./table.js";

interface Shape {
  id: string;
  path: string;
  test: string;
  /** The test source with `{skip}` where the skip goes. */
  source: string;
  environment: string;
  here: string;
}

const SHAPES: Shape[] = [
  {
    id: "python decorator",
    path: "tests/test_codec.py",
    test: "test_dumps",
    source: "import os\nimport sys\nimport pytest\nfrom app import dumps\n\n\n{skip}def test_dumps():\n    assert dumps(1) == b'1'\n",
    environment: '@pytest.mark.skipif(cbor2 is None, reason="cbor2 is not installed")\n',
    here: '@pytest.mark.skipif(os.environ.get("CI") == "true", reason="flaky")\n',
  },
  {
    id: "python in-body skip",
    path: "tests/test_codec.py",
    test: "test_dumps",
    source: "import sys\nimport pytest\nfrom app import dumps\n\n\ndef test_dumps():\n{skip}    assert dumps(1) == b'1'\n",
    environment: '    if sys.platform == "win32":\n        pytest.skip("posix paths")\n',
    here: '    if sys.platform.startswith("linux"):\n        pytest.skip("flaky")\n',
  },
  {
    id: "vitest skipIf",
    path: "test/codec.test.ts",
    test: "dumps",
    source: 'import { expect, it } from "vitest";\nimport { dumps } from "../src/codec";\n\nit{skip}("dumps", () => {\n  expect(dumps(1)).toBe("1");\n});\n',
    environment: '.skipIf(process.platform === "win32")',
    here: ".skipIf(process.env.CI)",
  },
  {
    id: "node:test skip option",
    path: "test/codec.test.js",
    test: "dumps",
    source:
      'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { dumps } from "../src/codec.js";\n\ntest("dumps", {skip}() => {\n  assert.equal(dumps(1), "1");\n});\n',
    environment: '{ skip: typeof Bun === "undefined" }, ',
    here: '{ skip: process.platform !== "win32" }, ',
  },
  {
    id: "go",
    path: "codec/codec_test.go",
    test: "TestDumps",
    source: 'package codec\n\nimport (\n\t"os"\n\t"runtime"\n\t"testing"\n)\n\nfunc TestDumps(t *testing.T) {\n{skip}\tif Dumps(1) != "1" {\n\t\tt.Errorf("dumps")\n\t}\n}\n',
    environment: '\tif runtime.GOOS == "windows" {\n\t\tt.Skip("posix paths")\n\t}\n',
    here: '\tif os.Getenv("CI") != "" {\n\t\tt.Skip("flaky")\n\t}\n',
  },
  {
    id: "ruby minitest",
    path: "test/codec_test.rb",
    test: "CodecTest > test_dumps",
    source: 'require "minitest/autorun"\n\nclass CodecTest < Minitest::Test\n  def test_dumps\n{skip}    assert_equal "1", Codec.dumps(1)\n  end\nend\n',
    environment: '    skip "fiber storage needs Ruby 3.2" if RUBY_VERSION < "3.2"\n',
    here: '    skip "windows only" unless Gem.win_platform?\n',
  },
  {
    id: "php",
    path: "tests/CodecTest.php",
    test: "CodecTest > testDumps",
    source:
      "<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class CodecTest extends TestCase\n{\n    public function testDumps(): void\n    {\n{skip}        $this->assertSame('1', Codec::dumps(1));\n    }\n}\n",
    environment: "        if (!extension_loaded('intl')) {\n            $this->markTestSkipped('intl is not installed');\n        }\n",
    here: "        if (getenv('CI')) {\n            $this->markTestSkipped('flaky');\n        }\n",
  },
];

describe.each(SHAPES)("$id: a conditional skip added to an existing test", (shape) => {
  const without = shape.source.replace("{skip}", "");
  it("on an environment probe is medium", async () => {
    const rule: RuleCase = {
      name: shape.id,
      changes: [change(shape.path, without, shape.source.replace("{skip}", shape.environment))],
      findings: [`test_disabled/medium ${shape.path} "${shape.test}"`],
    };
    await expectFindings(rule);
  });
  it("where CI and agents run is critical", async () => {
    const rule: RuleCase = { name: shape.id, changes: [change(shape.path, without, shape.source.replace("{skip}", shape.here))], findings: [`test_disabled/critical ${shape.path} "${shape.test}"`] };
    await expectFindings(rule);
  });
});
