/**
 * A test retitled with a word the change renames everywhere
 * (analysis/title-renames.ts, compare.ts pass 10): the product stops saying
 * `Buffer` and says `Uint8Array`, and the tests follow, "Buffer response"
 * -> "Uint8Array response", their bodies rewritten for the new type
 * (sindresorhus/got 309e36d104). The pair is judged as an edited test on
 * its checks; a title renamed with no line of the change renaming the word
 * alike stays a deletion, and a renamed test that checks nothing now is
 * still reported.
 */
import { describe, expect, it } from "vitest";
import { renameWitness, titleSubstitution, titleTokens } from "../../../src/analysis/title-renames.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const jsCode = (kind: string): string =>
  `/**\n * Fetches the body.\n * With responseType buffer, the body is returned as a \`${kind}\`.\n */\nexport async function get(options) {\n  const raw = "ok";\n  return {body: ${kind === "Buffer" ? "Buffer.from(raw)" : "new TextEncoder().encode(raw)"}};\n}\n`;
const jsTests = (...tests: string[]): string => `import test from "ava";\nimport {get} from "../src/read.js";\n\n${tests.join("\n")}`;
const jsBufferTest = `test("Buffer response", async t => {\n  t.deepEqual((await get({responseType: "buffer"})).body, Buffer.from("ok"));\n});\n`;
const jsArrayTest = `test("Uint8Array response", async t => {\n  const {body} = await get({responseType: "buffer"});\n  t.deepEqual(body, new TextEncoder().encode("ok"));\n  t.true(body instanceof Uint8Array);\n});\n`;
const jsEmptyArrayTest = `test("Uint8Array response", async t => {\n  await get({responseType: "buffer"});\n  t.pass();\n});\n`;

const pyCode = (kind: string): string => `def split(text):\n    """Returns a ${kind} of the words."""\n    return ${kind}(text.split())\n`;
const pyTests = (body: string): string => `from lib.words import split\n\n\ndef test_length():\n    assert len(split("a b")) == 2\n\n\n${body}`;
const pyListTest = `def test_split_returns_list():\n    assert split("a b") == ["a", "b"]\n`;
const pyTupleTest = `def test_split_returns_tuple():\n    words = split("a b")\n    assert isinstance(words, tuple)\n    assert words[0] == "a"\n`;

const goCode = (kind: string): string =>
  `package conf\n\n// ${kind} is returned when no file is found.\ntype ${kind} struct{ Name string }\n\nfunc (e ${kind}) Error() string { return "not found: " + e.Name }\n\nfunc Find(name string) error { return ${kind}{Name: name} }\n`;
const goTests = (body: string): string => `package conf\n\nimport (\n\t"errors"\n\t"testing"\n)\n\nfunc TestName(t *testing.T) {\n\tif Find("a") == nil {\n\t\tt.Fatal("no error")\n\t}\n}\n\n${body}`;
const goOldTest = `func TestFindFileMissingError(t *testing.T) {\n\terr := Find("a")\n\tif _, ok := err.(FileMissingError); !ok {\n\t\tt.Errorf("got %T", err)\n\t}\n}\n`;
const goNewTest = `func TestFindNotFoundError(t *testing.T) {\n\tvar target NotFoundError\n\tif !errors.As(Find("a"), &target) {\n\t\tt.Fatal("not a NotFoundError")\n\t}\n\tif target.Name != "a" {\n\t\tt.Errorf("name %q", target.Name)\n\t}\n}\n`;

const javaCode = (kind: string): string =>
  `package acme;\n/** Encodes text; the result is a ${kind}. */\npublic class Codec {\n  public Object encode(String s) { return ${kind === "Stream" ? "new java.io.ByteArrayInputStream(s.getBytes())" : "s.getBytes()"}; }\n}\n`;
const javaTests = (body: string): string =>
  `package acme;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass CodecTest {\n  @Test\n  void encodesNull() { assertThrows(NullPointerException.class, () -> new Codec().encode(null)); }\n${body}}\n`;
const javaOldTest = `  @Test\n  void encodesToArray() { assertArrayEquals("a".getBytes(), (byte[]) new Codec().encode("a")); }\n`;
const javaNewTest = `  @Test\n  void encodesToStream() throws Exception {\n    java.io.InputStream in = (java.io.InputStream) new Codec().encode("a");\n    assertEquals('a', in.read());\n    assertEquals(-1, in.read());\n  }\n`;

const rbCode = (kind: string): string =>
  `# Loads the config; the result is a ${kind}.\nclass Loader\n  def load(text)\n    ${kind === "Hash" ? "{ 'a' => text }" : "Struct.new(:a).new(text)"}\n  end\nend\n`;
const rbTests = (body: string): string => `require "loader"\n\nRSpec.describe Loader do\n  it "loads nil" do\n    expect(Loader.new.load(nil)).not_to be_nil\n  end\n\n${body}end\n`;
const rbOldTest = `  it "returns a Hash" do\n    expect(Loader.new.load("x")).to eq({ "a" => "x" })\n  end\n`;
const rbNewTest = `  it "returns a Struct" do\n    result = Loader.new.load("x")\n    expect(result.a).to eq("x")\n  end\n`;

const rustCode = (kind: string): string =>
  `/// Parses the flags; the result is a ${kind}.\npub fn parse(s: &str) -> ${kind === "Vec" ? "Vec<char>" : "std::collections::BTreeSet<char>"} {\n    s.chars().collect()\n}\n`;
const rustTests = (body: string): string => `use crate::parse;\n\n#[test]\nfn parses_empty() {\n    assert!(parse("").is_empty());\n}\n\n${body}`;
const rustOldTest = `#[test]\nfn parse_returns_vec() {\n    assert_eq!(parse("ab"), vec!['a', 'b']);\n}\n`;
const rustNewTest = `#[test]\nfn parse_returns_btreeset() {\n    let set = parse("aba");\n    assert_eq!(set.into_iter().collect::<String>(), "ab");\n}\n`;

export const javaStreamAndBuffer = javaCode("Stream").replace("the result is a Stream. */", "the result is a Stream. */\n/** Decodes into a Buffer. */");
const javaArrayTwice = javaCode("array").replace("the result is a array. */", "the result is a array. */\n/** Decodes into a array. */");

const cases: RuleCase[] = [
  {
    name: "js: a test retitled Buffer -> Uint8Array as a doc comment says Uint8Array for Buffer, its body rewritten (got 309e36d104)",
    changes: [change("src/read.js", jsCode("Buffer"), jsCode("Uint8Array")), change("test/read.js", jsTests(jsBufferTest), jsTests(jsArrayTest))],
    findings: [],
  },
  {
    name: "python: test_split_returns_list -> test_split_returns_tuple as the docstring says tuple for list",
    changes: [change("src/lib/words.py", pyCode("list"), pyCode("tuple")), change("tests/test_words.py", pyTests(pyListTest), pyTests(pyTupleTest))],
    findings: [],
  },
  {
    name: "go: TestFindFileMissingError -> TestFindNotFoundError as the error type is renamed",
    changes: [change("conf/find.go", goCode("FileMissingError"), goCode("NotFoundError")), change("conf/find_test.go", goTests(goOldTest), goTests(goNewTest))],
    findings: [],
  },
  {
    name: "java: encodesToArray -> encodesToStream as the Javadoc says Stream for array",
    changes: [change("src/main/java/acme/Codec.java", javaCode("array"), javaCode("Stream")), change("src/test/java/acme/CodecTest.java", javaTests(javaOldTest), javaTests(javaNewTest))],
    findings: [],
  },
  {
    name: 'ruby: "returns a Hash" -> "returns a Struct" as the comment says Struct for Hash',
    changes: [change("lib/loader.rb", rbCode("Hash"), rbCode("Struct")), change("spec/loader_spec.rb", rbTests(rbOldTest), rbTests(rbNewTest))],
    findings: [],
  },
  {
    name: "rust: parse_returns_vec -> parse_returns_btreeset as the doc comment says BTreeSet for Vec",
    changes: [change("src/parse.rs", rustCode("Vec"), rustCode("BTreeSet")), change("tests/parse.rs", rustTests(rustOldTest), rustTests(rustNewTest))],
    findings: [],
  },
  {
    name: "ruby: two tests retitled alike witness each other, no line of the code renames the word",
    changes: [
      change("lib/loader.rb", rbCode("Hash"), rbCode("Hash").replace("{ 'a' => text }", "Struct.new(:a).new(text)")),
      change("spec/loader_spec.rb", rbTests(`${rbOldTest}\n${rbOldTest.replace("a Hash", "a Hash twice")}`), rbTests(`${rbNewTest}\n${rbNewTest.replace("a Struct", "a Struct twice")}`)),
    ],
    findings: [],
  },
  {
    name: "cheat: ruby: a test retitled with a word no line of the change renames, its check rewritten",
    changes: [change("lib/loader.rb", rbCode("Hash"), rbCode("Hash").replace("{ 'a' => text }", "Struct.new(:a).new(text)")), change("spec/loader_spec.rb", rbTests(rbOldTest), rbTests(rbNewTest))],
    findings: ['test_deletion/critical spec/loader_spec.rb "Loader > returns a Hash"'],
  },
  {
    name: "cheat: java: a test retitled with a word only the test renames",
    changes: [
      change("src/main/java/acme/Codec.java", javaCode("array"), javaCode("array").replace("s.getBytes()", "new java.io.ByteArrayInputStream(s.getBytes())")),
      change("src/test/java/acme/CodecTest.java", javaTests(javaOldTest), javaTests(javaNewTest)),
    ],
    findings: ['test_deletion/critical src/test/java/acme/CodecTest.java "CodecTest > encodesToArray"'],
  },
  {
    name: "cheat: js: a witnessed rename whose new body checks nothing",
    changes: [change("src/read.js", jsCode("Buffer"), jsCode("Uint8Array")), change("test/read.js", jsTests(jsBufferTest), jsTests(jsEmptyArrayTest))],
    findings: ['assertion_removal/high test/read.js "Uint8Array response"'],
  },
  {
    name: "cheat: python: a witnessed rename whose new test is skipped",
    changes: [change("src/lib/words.py", pyCode("list"), pyCode("tuple")), change("tests/test_words.py", pyTests(pyListTest), `import pytest\n${pyTests(`@pytest.mark.skip\n${pyTupleTest}`)}`)],
    findings: ['test_disabled/critical tests/test_words.py "test_split_returns_tuple"'],
  },
  {
    name: "cheat: java: two witnessed candidates for one old test pair neither",
    changes: [
      change("src/main/java/acme/Codec.java", javaArrayTwice, javaStreamAndBuffer),
      change("src/test/java/acme/CodecTest.java", javaTests(javaOldTest), javaTests(`${javaNewTest}${javaNewTest.replace("encodesToStream", "encodesToBuffer")}`)),
    ],
    findings: ['test_deletion/critical src/test/java/acme/CodecTest.java "CodecTest > encodesToArray"'],
  },
];

describe("a test retitled with a word the change renames", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("titleSubstitution", () => {
  const table: [string, string, { from: string; to: string } | null][] = [
    ["Buffer response", "Uint8Array response", { from: "buffer", to: "uint8array" }],
    ["Buffer response - promise.buffer()", "Uint8Array response - promise.buffer()", { from: "buffer", to: "uint8array" }],
    ["returns buffer on compressed response", "returns Uint8Array on compressed response", { from: "buffer", to: "uint8array" }],
    ["TestFindFileMissingError", "TestFindNotFoundError", { from: "filemissing", to: "notfound" }],
    ["test_split_returns_list", "test_split_returns_tuple", { from: "list", to: "tuple" }],
    // whole titles replaced, words only added or removed, middles too long
    ["rounds", "rounding", null],
    ["Buffer", "Uint8Array", null],
    ["TestWrongConfigWithSetConfigFileNotFound", "TestWrongConfigWithFileNotFound", null],
    ["parses a b c d e", "parses v w x y z", null],
    ["same title", "same title", null],
  ];
  for (const [a, b, expected] of table) it(`${a} -> ${b}`, () => expect(titleSubstitution(a, b)).toEqual(expected));
  it("keeps dotted identifiers whole in a descriptive title and splits identifier titles", () => {
    expect(titleTokens("`got.stream()` exposes isStream")).toEqual(["got.stream", "exposes", "isStream"]);
    expect(titleTokens("TestParseHTTPHeader_v2")).toEqual(["Test", "Parse", "HTTP", "Header", "v2"]);
  });
});

describe("renameWitness", () => {
  it("is true for a line replaced with the words substituted, compared without case or punctuation", () => {
    const witness = renameWitness([{ before: "a\n * returned as a `Buffer`.\n", after: "a\n * Returned as a `Uint8Array`.\n" }]);
    expect(witness({ from: "buffer", to: "uint8array" })).toBe(true);
    expect(witness({ from: "buffer", to: "stream" })).toBe(false);
  });
  it("is false when the new line was there before or the old one stays", () => {
    expect(renameWitness([{ before: "as a Buffer\nas a Uint8Array\n", after: "as a Uint8Array\n" }])({ from: "buffer", to: "uint8array" })).toBe(false);
    expect(renameWitness([{ before: "as a Buffer\n", after: "as a Buffer\nas a Uint8Array\n" }])({ from: "buffer", to: "uint8array" })).toBe(false);
  });
  it("reads added and deleted files", () => {
    expect(
      renameWitness([
        { before: "type Buffer = x\n", after: null },
        { before: null, after: "type Uint8Array = x\n" },
      ])({ from: "buffer", to: "uint8array" }),
    ).toBe(true);
  });
});
