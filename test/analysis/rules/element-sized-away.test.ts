/**
 * A content check of the element at a literal index replaced by a size that
 * leaves that element out (checks/coverage.ts isElementSizedAway; sweep of
 * jhy/jsoup ccd90e9cfc, `doc.select("p").get(1).text()` -> `doc.select("p")
 * .size() == 1`): the element is asserted gone, an expectation changed with
 * the code, not the contents given up for their size. A size that still
 * holds the element is a weakening.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

interface Shape {
  lang: string;
  product: [path: string, before: string, after: string];
  test: string;
  id: string;
  /** The test with `{{check}}` where the element's check or the size check goes. */
  body: string;
  element: string;
  /** A size check of the collection, `{{n}}` its expected size. */
  size: string;
}

const shapes: Shape[] = [
  {
    lang: "java",
    product: [
      "src/main/java/Parser.java",
      "class Parser {\n  static Doc parse(String s) { return split(s, true); }\n}\n",
      "class Parser {\n  static Doc parse(String s) { return split(s, false); }\n}\n",
    ],
    test: "src/test/java/ParserTest.java",
    id: "ParserTest > parsesTextarea",
    body: 'class ParserTest {\n  @Test public void parsesTextarea() {\n    Doc doc = Parser.parse("<p><textarea>one<p>two");\n    assertEquals("one", doc.first().text());\n    {{check}}\n  }\n}\n',
    element: 'assertEquals("two", doc.select("p").get(1).text());',
    size: 'assertEquals({{n}}, doc.select("p").size());',
  },
  {
    lang: "python",
    product: ["pkg/parser.py", "def parse(s):\n    return split(s, True)\n", "def parse(s):\n    return split(s, False)\n"],
    test: "tests/test_parser.py",
    id: "test_parses_textarea",
    body: 'from pkg.parser import parse\n\n\ndef test_parses_textarea():\n    doc = parse("<p><textarea>one<p>two")\n    assert doc.first().text == "one"\n    {{check}}\n',
    element: 'assert doc.paragraphs[1].text == "two"',
    size: "assert len(doc.paragraphs) == {{n}}",
  },
  {
    lang: "typescript",
    product: ["src/parser.ts", "export function parse(s: string) {\n  return split(s, true);\n}\n", "export function parse(s: string) {\n  return split(s, false);\n}\n"],
    test: "test/parser.test.ts",
    id: "parses textarea",
    body: "import { parse } from '../src/parser';\n\ntest('parses textarea', () => {\n  const doc = parse('<p><textarea>one<p>two');\n  expect(doc.first().text).toBe('one');\n  {{check}}\n});\n",
    element: "expect(doc.paragraphs[1].text).toBe('two');",
    size: "expect(doc.paragraphs).toHaveLength({{n}});",
  },
  {
    lang: "c#",
    product: [
      "src/Parser.cs",
      "public static class Parser {\n  public static Doc Parse(string s) { return Split(s, true); }\n}\n",
      "public static class Parser {\n  public static Doc Parse(string s) { return Split(s, false); }\n}\n",
    ],
    test: "tests/ParserTests.cs",
    id: "ParserTests > ParsesTextarea",
    body: 'public class ParserTests {\n  [Fact]\n  public void ParsesTextarea() {\n    var doc = Parser.Parse("<p><textarea>one<p>two");\n    Assert.Equal("one", doc.First().Text);\n    {{check}}\n  }\n}\n',
    element: 'Assert.Equal("two", doc.Paragraphs[1].Text);',
    size: "Assert.Equal({{n}}, doc.Paragraphs.Count);",
  },
  {
    lang: "go",
    product: ["parser.go", "package parser\n\nfunc Parse(s string) *Doc { return split(s, true) }\n", "package parser\n\nfunc Parse(s string) *Doc { return split(s, false) }\n"],
    test: "parser_test.go",
    id: "TestParsesTextarea",
    body: 'package parser\n\nimport "testing"\n\nfunc TestParsesTextarea(t *testing.T) {\n\tdoc := Parse("<p><textarea>one<p>two")\n\tif doc.First().Text != "one" {\n\t\tt.Errorf("first")\n\t}\n\t{{check}}\n}\n',
    element: 'if doc.Paragraphs[1].Text != "two" {\n\t\tt.Errorf("second")\n\t}',
    size: 'if len(doc.Paragraphs) != {{n}} {\n\t\tt.Errorf("count")\n\t}',
  },
  {
    lang: "ruby",
    product: ["lib/parser.rb", "module Parser\n  def self.parse(s)\n    split(s, true)\n  end\nend\n", "module Parser\n  def self.parse(s)\n    split(s, false)\n  end\nend\n"],
    test: "test/parser_test.rb",
    id: "ParserTest > test_parses_textarea",
    body: 'class ParserTest < Minitest::Test\n  def test_parses_textarea\n    doc = Parser.parse("<p><textarea>one<p>two")\n    assert_equal "one", doc.first.text\n    {{check}}\n  end\nend\n',
    element: 'assert_equal "two", doc.paragraphs[1].text',
    size: "assert_equal {{n}}, doc.paragraphs.size",
  },
  {
    lang: "php",
    product: [
      "src/Parser.php",
      "<?php\nfinal class Parser\n{\n    public static function parse(string $s): Doc\n    {\n        return self::split($s, true);\n    }\n}\n",
      "<?php\nfinal class Parser\n{\n    public static function parse(string $s): Doc\n    {\n        return self::split($s, false);\n    }\n}\n",
    ],
    test: "tests/ParserTest.php",
    id: "ParserTest > testParsesTextarea",
    body: "<?php\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ParserTest extends TestCase\n{\n    public function testParsesTextarea(): void\n    {\n        $doc = Parser::parse('<p><textarea>one<p>two');\n        $this->assertSame('one', $doc->first()->text);\n        {{check}}\n    }\n}\n",
    element: "$this->assertSame('two', $doc->paragraphs[1]->text);",
    size: "$this->assertCount({{n}}, $doc->paragraphs);",
  },
  {
    lang: "rust",
    product: ["src/parser.rs", "pub fn parse(s: &str) -> Doc {\n    split(s, true)\n}\n", "pub fn parse(s: &str) -> Doc {\n    split(s, false)\n}\n"],
    test: "tests/parser.rs",
    id: "parses_textarea",
    body: 'use parser::parse;\n\n#[test]\nfn parses_textarea() {\n    let doc = parse("<p><textarea>one<p>two");\n    assert_eq!(doc.first().text, "one");\n    {{check}}\n}\n',
    element: 'assert_eq!(doc.paragraphs[1].text, "two");',
    size: "assert_eq!(doc.paragraphs.len(), {{n}});",
  },
];

const version = (shape: Shape, check: string): string => shape.body.replace("{{check}}", check);

describe("the element a check read, sized away with the code: no finding", () => {
  it.each(shapes.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    const [path, before, after] = shape.product;
    await expectFindings({
      name: shape.lang,
      changes: [change(path, before, after), change(shape.test, version(shape, shape.element), version(shape, shape.size.replace("{{n}}", "1")))],
      findings: [],
    });
  });
});

describe("the element sized away while the code did not change: expectation_changed", () => {
  it.each(shapes.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    await expectFindings({
      name: shape.lang,
      changes: [change(shape.test, version(shape, shape.element), version(shape, shape.size.replace("{{n}}", "1")))],
      findings: [`expectation_changed/medium ${shape.test} "${shape.id}"`],
    });
  });
});

describe("a size that still holds the element in place of its contents: assertion_weakening", () => {
  it.each(shapes.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    const [path, before, after] = shape.product;
    await expectFindings({
      name: shape.lang,
      changes: [change(path, before, after), change(shape.test, version(shape, shape.element), version(shape, shape.size.replace("{{n}}", "2")))],
      findings: [`assertion_weakening/high ${shape.test} "${shape.id}"`],
    });
  });
});
