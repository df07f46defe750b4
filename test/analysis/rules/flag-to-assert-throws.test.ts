/**
 * A try/catch-with-flag test rewritten with the framework's throws
 * assertion (rules/assertions.ts pairAssertions; sweep of jhy/jsoup
 * 9d2241ff46): the handler's message check came before the error check the
 * flag made; after the rewrite it follows the `assertThrows` whose result
 * it reads, under another local name (`e` -> `exception`). A relation made
 * once a side pairs whatever the order, so the message check is the same
 * check, re-expected with the product's message; dropping it is still a
 * removal.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

const OLD = "Unhandled content type. Must be text/*";
const NEW = "Unhandled content type. Must be a text or XML media type";

interface Shape {
  lang: string;
  product: [path: string, source: (message: string) => string];
  test: string;
  before: string;
  after: (message: string) => string;
  /** The rewrite without the message check. */
  dropped: string;
}

const shapes: Shape[] = [
  {
    lang: "java",
    product: ["src/main/java/Conn.java", (m) => `class Conn {\n  void execute() {\n    if (!ok) throw new UnsupportedMimeTypeException("${m}");\n  }\n}\n`],
    test: "src/test/java/ConnTest.java",
    before: `class ConnTest {\n  @Test public void binaryThrows() {\n    Conn con = new Conn();\n    boolean threw = false;\n    try {\n      con.execute();\n    } catch (UnsupportedMimeTypeException e) {\n      threw = true;\n      assertEquals("${OLD}", e.getMessage());\n    }\n    assertTrue(threw);\n  }\n}\n`,
    after: (m) =>
      `class ConnTest {\n  @Test public void binaryThrows() {\n    Conn con = new Conn();\n    UnsupportedMimeTypeException exception = assertThrows(UnsupportedMimeTypeException.class, con::execute);\n    assertEquals("${m}", exception.getMessage());\n  }\n}\n`,
    dropped: `class ConnTest {\n  @Test public void binaryThrows() {\n    Conn con = new Conn();\n    assertThrows(UnsupportedMimeTypeException.class, con::execute);\n  }\n}\n`,
  },
  {
    lang: "python",
    product: ["pkg/conn.py", (m) => `def execute(ok):\n    if not ok:\n        raise UnsupportedMimeType("${m}")\n`],
    test: "tests/test_conn.py",
    before: `from pkg.conn import execute\n\n\ndef test_binary_throws():\n    threw = False\n    try:\n        execute(False)\n    except UnsupportedMimeType as e:\n        threw = True\n        assert str(e) == "${OLD}"\n    assert threw\n`,
    after: (m) =>
      `import pytest\nfrom pkg.conn import execute\n\n\ndef test_binary_throws():\n    with pytest.raises(UnsupportedMimeType) as excinfo:\n        execute(False)\n    assert str(excinfo.value) == "${m}"\n`,
    dropped: `import pytest\nfrom pkg.conn import execute\n\n\ndef test_binary_throws():\n    with pytest.raises(UnsupportedMimeType):\n        execute(False)\n`,
  },
  {
    lang: "c#",
    product: ["src/Conn.cs", (m) => `public class Conn {\n  public void Execute() {\n    if (!ok) throw new UnsupportedMimeTypeException("${m}");\n  }\n}\n`],
    test: "tests/ConnTests.cs",
    before: `public class ConnTests {\n  [Fact]\n  public void BinaryThrows() {\n    var con = new Conn();\n    var threw = false;\n    try {\n      con.Execute();\n    } catch (UnsupportedMimeTypeException e) {\n      threw = true;\n      Assert.Equal("${OLD}", e.Message);\n    }\n    Assert.True(threw);\n  }\n}\n`,
    after: (m) =>
      `public class ConnTests {\n  [Fact]\n  public void BinaryThrows() {\n    var con = new Conn();\n    var exception = Assert.Throws<UnsupportedMimeTypeException>(() => con.Execute());\n    Assert.Equal("${m}", exception.Message);\n  }\n}\n`,
    dropped: `public class ConnTests {\n  [Fact]\n  public void BinaryThrows() {\n    var con = new Conn();\n    Assert.Throws<UnsupportedMimeTypeException>(() => con.Execute());\n  }\n}\n`,
  },
  {
    lang: "ruby",
    product: ["lib/conn.rb", (m) => `class Conn\n  def execute\n    raise UnsupportedMimeType, "${m}" unless ok\n  end\nend\n`],
    test: "test/conn_test.rb",
    before: `class ConnTest < Minitest::Test\n  def test_binary_throws\n    threw = false\n    begin\n      Conn.new.execute\n    rescue UnsupportedMimeType => e\n      threw = true\n      assert_equal "${OLD}", e.message\n    end\n    assert threw\n  end\nend\n`,
    after: (m) =>
      `class ConnTest < Minitest::Test\n  def test_binary_throws\n    error = assert_raises(UnsupportedMimeType) { Conn.new.execute }\n    assert_equal "${m}", error.message\n  end\nend\n`,
    dropped: `class ConnTest < Minitest::Test\n  def test_binary_throws\n    assert_raises(UnsupportedMimeType) { Conn.new.execute }\n  end\nend\n`,
  },
  {
    lang: "javascript (ava)",
    product: ["src/conn.js", (m) => `export function execute(ok) {\n  if (!ok) throw new TypeError("${m}");\n}\n`],
    test: "test/conn.test.js",
    before: `import test from 'ava';\nimport {execute} from '../src/conn.js';\n\ntest('binary throws', t => {\n  let threw = false;\n  try {\n    execute(false);\n  } catch (error) {\n    threw = true;\n    t.is(error.message, "${OLD}");\n  }\n  t.true(threw);\n});\n`,
    after: (m) =>
      `import test from 'ava';\nimport {execute} from '../src/conn.js';\n\ntest('binary throws', t => {\n  const exception = t.throws(() => execute(false), {instanceOf: TypeError});\n  t.is(exception.message, "${m}");\n});\n`,
    dropped: `import test from 'ava';\nimport {execute} from '../src/conn.js';\n\ntest('binary throws', t => {\n  t.throws(() => execute(false), {instanceOf: TypeError});\n});\n`,
  },
];

describe("a try/catch flag rewritten as a throws assertion, the message re-expected with the product: no finding", () => {
  it.each(shapes.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    const [path, source] = shape.product;
    await expectFindings({ name: shape.lang, changes: [change(path, source(OLD), source(NEW)), change(shape.test, shape.before, shape.after(NEW))], findings: [] });
  });
});

describe("the same rewrite, the message re-expected while the code did not change: expectation_changed", () => {
  it.each(shapes.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    await expectFindings({ name: shape.lang, changes: [change(shape.test, shape.before, shape.after(NEW))], findings: [`expectation_changed/medium ${shape.test} "${testId(shape)}"`] });
  });
});

describe("the same rewrite dropping the message check: assertion_removal", () => {
  it.each(shapes.map((shape) => [shape.lang, shape] as const))("%s", async (_lang, shape) => {
    const [path, source] = shape.product;
    await expectFindings({
      name: shape.lang,
      changes: [change(path, source(OLD), source(NEW)), change(shape.test, shape.before, shape.dropped)],
      findings: [`assertion_removal/high ${shape.test} "${testId(shape)}"`],
    });
  });
});

function testId(shape: Shape): string {
  return { java: "ConnTest > binaryThrows", python: "test_binary_throws", "c#": "ConnTests > BinaryThrows", ruby: "ConnTest > test_binary_throws", "javascript (ava)": "binary throws" }[
    shape.lang
  ] as string;
}
