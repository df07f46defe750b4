import { it } from "vitest";
import { analyzeChanges } from "../src/analysis/index.js";
it("dbg", async () => {
  const py = [
    { path: "tests/test_p.py", before: `import unittest\nfrom lib import Parser\n\nclass T(unittest.TestCase):\n    def setUp(self):\n        self.p = Parser("x")\n\n    def test_parse(self):\n        self.assertEqual(self.p.parse("a"), 1)\n        self.assertEqual(self.p.parse("b"), 2)\n`, after: `import unittest\nfrom lib import Parser\n\nclass T(unittest.TestCase):\n    def test_parse(self):\n        p = Parser("x")\n        self.assertEqual(p.parse("a"), 1)\n        self.assertEqual(p.parse("b"), 2)\n` },
  ];
  const rb = [
    { path: "test/p_test.rb", before: `require "minitest/autorun"\nclass PTest < Minitest::Test\n  def setup\n    @p = Parser.new("x")\n  end\n\n  def test_parse\n    assert_equal(1, @p.parse("a"))\n  end\nend\n`, after: `require "minitest/autorun"\nclass PTest < Minitest::Test\n  def test_parse\n    p = Parser.new("x")\n    assert_equal(1, p.parse("a"))\n  end\nend\n` },
  ];
  const js = [
    { path: "test/p.test.js", before: `import {test, expect, beforeEach} from "vitest";\nimport {Parser} from "../src/p.js";\nlet p;\nbeforeEach(() => { p = new Parser("x"); });\ntest("parses", () => {\n  expect(p.parse("a")).toBe(1);\n});\n`, after: `import {test, expect} from "vitest";\nimport {Parser} from "../src/p.js";\ntest("parses", () => {\n  const parser = new Parser("x");\n  expect(parser.parse("a")).toBe(1);\n});\n` },
  ];
  for (const c of [py, rb, js]) { const a = await analyzeChanges(c); console.log("F", JSON.stringify(a.findings.map((f) => [f.type, f.severity, f.message.slice(0, 150)]))); }
});
