/**
 * test_disabled through indirection (issue 9): a skip in a helper the tests
 * call, in a fixture or setup, an alias of a skip function, an assumption
 * that always fails, and a conditional skip made unconditional. Each table
 * is per language: `invalid` cases must report the tests they take out,
 * `valid` look-alikes must report nothing.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import { changesBetween, treeOf, unchangedBetween } from "../../helpers/trees.js";
import { change, edit, expectFindings, type RuleCase } from "./table.js";

const GO = `package calc

import (
\t"runtime"
\t"testing"
)

func check(t *testing.T, got, want int) {
\tt.Helper()
\tif got != want {
\t\tt.Errorf("got %d, want %d", got, want)
\t}
}

func TestAdd(t *testing.T) { check(t, Add(1, 2), 3) }

func TestSub(t *testing.T) { check(t, Sub(3, 2), 1) }

func TestPath(t *testing.T) {
\tif runtime.GOOS == "windows" {
\t\tt.Skip("posix paths")
\t}
\tcheck(t, Len("/a"), 2)
}
`;

const PY = `import sys
import pytest

@pytest.fixture
def db():
    return connect()

@pytest.mark.skipif(sys.platform == "win32", reason="posix")
def test_path():
    assert norm("/a") == "/a"

def test_query(db):
    assert db.query(1) == 1

class TestUser:
    def setUp(self):
        self.user = make()

    def test_name(self):
        assert self.user.name == "a"
`;

const JS = `import { describe, expect, it, test } from "vitest";

function requireDb(ctx) {
  if (!process.env.DB) ctx.skip();
}

describe("slug", () => {
  it("lowercases", () => { expect(slug("A")).toBe("a"); });
  it("trims", () => { expect(slug(" a ")).toBe("a"); });
});

test.skipIf(process.platform === "win32")("paths", () => { expect(norm("/a")).toBe("/a"); });
`;

const JAVA = `package calc;

import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.*;

class CalcTest {
  Calc calc;

  @BeforeEach
  void setUp() { calc = new Calc(); }

  @Test
  void adds() { assertEquals(3, calc.add(1, 2)); }

  @Test
  void subtracts() { assertEquals(1, calc.sub(3, 2)); }
}
`;

const CS = `using NUnit.Framework;

public class CalcTests {
  Calc calc;

  [SetUp]
  public void Init() { calc = new Calc(); }

  [Test]
  public void Adds() { Assert.AreEqual(3, calc.Add(1, 2)); }

  [Test]
  public void Subtracts() { Assert.AreEqual(1, calc.Sub(3, 2)); }
}
`;

const PHP = `<?php
use PHPUnit\\Framework\\TestCase;

class CalcTest extends TestCase {
    protected function setUp(): void { $this->calc = new Calc(); }

    private function requireDb(): void { $this->db = connect(); }

    public function testAdd(): void { $this->assertSame(3, $this->calc->add(1, 2)); }

    public function testQuery(): void { $this->requireDb(); $this->assertSame(1, $this->db->query(1)); }
}
`;

const RUBY = `require "minitest/autorun"

class CalcTest < Minitest::Test
  def setup
    @calc = Calc.new
  end

  def require_db
    @db = connect
  end

  def test_add
    assert_equal 3, @calc.add(1, 2)
  end

  def test_query
    require_db
    assert_equal 1, @db.query(1)
  end
end
`;

const RUST = `pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(windows, ignore)]
    fn adds() { assert_eq!(add(1, 2), 3); }
}
`;

const invalid: Record<string, RuleCase[]> = {
  go: [
    {
      name: "t.Errorf -> t.Skipf in a helper every test calls",
      changes: [change("calc_test.go", GO, edit(GO, `t.Errorf("got %d, want %d", got, want)`, `t.Skipf("got %d, want %d", got, want)`))],
      // TestPath (skipped only on Windows) still runs, but its check() call can no longer fail: the check it made is gone.
      findings: ['assertion_removal/high calc_test.go "TestPath"', 'test_disabled/critical calc_test.go "TestAdd"', 'test_disabled/critical calc_test.go "TestSub"'],
    },
    {
      name: "if GOOS == windows { t.Skip() } -> t.Skip()",
      changes: [change("calc_test.go", GO, edit(GO, `\tif runtime.GOOS == "windows" {\n\t\tt.Skip("posix paths")\n\t}\n`, `\tt.Skip("posix paths")\n`))],
      findings: ['test_disabled/critical calc_test.go "TestPath"'],
    },
    {
      name: "a TestMain that never calls m.Run()",
      changes: [change("calc_test.go", GO, `${GO}\nfunc TestMain(m *testing.M) {}\n`)],
      // TestPath's conditional skip is now a skip too: nothing runs it.
      findings: ['test_disabled/critical calc_test.go "TestAdd"', 'test_disabled/critical calc_test.go "TestSub"', 'test_disabled/critical calc_test.go "TestPath"'],
    },
  ],
  python: [
    {
      name: "skipif(WIN) -> skip",
      changes: [change("tests/test_calc.py", PY, edit(PY, `@pytest.mark.skipif(sys.platform == "win32", reason="posix")`, `@pytest.mark.skip(reason="posix")`))],
      findings: ['test_disabled/critical tests/test_calc.py "test_path"'],
    },
    {
      name: "pytest.skip in a fixture",
      changes: [change("tests/test_calc.py", PY, edit(PY, "    return connect()", '    pytest.skip("no db")'))],
      findings: ['test_disabled/critical tests/test_calc.py "test_query"'],
    },
    {
      name: "self.skipTest in setUp",
      changes: [change("tests/test_calc.py", PY, edit(PY, "        self.user = make()", '        self.skipTest("later")'))],
      findings: ['test_disabled/critical tests/test_calc.py "TestUser > test_name"'],
    },
    {
      name: "an autouse fixture that skips",
      changes: [change("tests/test_calc.py", PY, edit(PY, "@pytest.fixture\ndef db():", '@pytest.fixture(autouse=True)\ndef off():\n    pytest.skip("off")\n\n@pytest.fixture\ndef db():'))],
      findings: ['test_disabled/critical tests/test_calc.py "test_query"', 'test_disabled/critical tests/test_calc.py "TestUser > test_name"', 'test_disabled/critical tests/test_calc.py "test_path"'],
    },
  ],
  javascript: [
    {
      name: "const describeOrSkip = describe.skip",
      changes: [change("test/slug.test.ts", JS, edit(edit(JS, `describe("slug"`, `describeOrSkip("slug"`), `function requireDb`, `const describeOrSkip = describe.skip;\n\nfunction requireDb`))],
      findings: ['test_disabled/critical test/slug.test.ts "slug > lowercases"', 'test_disabled/critical test/slug.test.ts "slug > trims"'],
    },
    {
      name: "ctx.skip() in beforeEach",
      changes: [change("test/slug.test.ts", JS, edit(JS, `describe("slug", () => {\n`, `describe("slug", () => {\n  beforeEach((ctx) => { ctx.skip(); });\n`))],
      findings: ['test_disabled/critical test/slug.test.ts "slug > lowercases"', 'test_disabled/critical test/slug.test.ts "slug > trims"'],
    },
    {
      name: "a helper's skip made unconditional",
      changes: [
        change(
          "test/slug.test.ts",
          edit(JS, `it("trims", () => {`, `it("trims", (ctx) => { requireDb(ctx);`),
          edit(edit(JS, `it("trims", () => {`, `it("trims", (ctx) => { requireDb(ctx);`), "if (!process.env.DB) ctx.skip();", "ctx.skip();"),
        ),
      ],
      findings: ['test_disabled/critical test/slug.test.ts "slug > trims"'],
    },
    {
      name: "skipIf(win32) -> skip",
      changes: [change("test/slug.test.ts", JS, edit(JS, `test.skipIf(process.platform === "win32")("paths"`, `test.skip("paths"`))],
      findings: ['test_disabled/critical test/slug.test.ts "paths"'],
    },
  ],
  java: [
    {
      name: "assumeTrue(false) in @BeforeEach",
      changes: [change("src/test/java/calc/CalcTest.java", JAVA, edit(JAVA, "void setUp() { calc = new Calc(); }", "void setUp() { assumeTrue(false); calc = new Calc(); }"))],
      findings: ['test_disabled/critical src/test/java/calc/CalcTest.java "CalcTest > adds"', 'test_disabled/critical src/test/java/calc/CalcTest.java "CalcTest > subtracts"'],
    },
    {
      name: "Assumptions.assumeTrue(false) in a test",
      changes: [change("src/test/java/calc/CalcTest.java", JAVA, edit(JAVA, "void adds() {", "void adds() { Assumptions.assumeTrue(false);"))],
      findings: ['test_disabled/critical src/test/java/calc/CalcTest.java "CalcTest > adds"'],
    },
  ],
  csharp: [
    {
      name: "Assert.Ignore() in [SetUp]",
      changes: [change("tests/CalcTests.cs", CS, edit(CS, "public void Init() { calc = new Calc(); }", 'public void Init() { Assert.Ignore("later"); }'))],
      findings: ['test_disabled/critical tests/CalcTests.cs "CalcTests > Adds"', 'test_disabled/critical tests/CalcTests.cs "CalcTests > Subtracts"'],
    },
    {
      name: "Assume.That(false) in a test",
      changes: [change("tests/CalcTests.cs", CS, edit(CS, "public void Adds() {", "public void Adds() { Assume.That(false);"))],
      findings: ['test_disabled/critical tests/CalcTests.cs "CalcTests > Adds"'],
    },
  ],
  php: [
    {
      name: "markTestSkipped in setUp",
      changes: [
        change("tests/CalcTest.php", PHP, edit(PHP, "protected function setUp(): void { $this->calc = new Calc(); }", 'protected function setUp(): void { $this->markTestSkipped("later"); }')),
      ],
      findings: ['test_disabled/critical tests/CalcTest.php "CalcTest > testAdd"', 'test_disabled/critical tests/CalcTest.php "CalcTest > testQuery"'],
    },
    {
      name: "markTestSkipped in a helper a test calls",
      changes: [change("tests/CalcTest.php", PHP, edit(PHP, "$this->db = connect();", '$this->markTestSkipped("no db");'))],
      findings: ['test_disabled/critical tests/CalcTest.php "CalcTest > testQuery"'],
    },
  ],
  ruby: [
    {
      name: "skip in setup",
      changes: [change("test/calc_test.rb", RUBY, edit(RUBY, "    @calc = Calc.new", '    skip "later"'))],
      findings: ['test_disabled/critical test/calc_test.rb "CalcTest > test_add"', 'test_disabled/critical test/calc_test.rb "CalcTest > test_query"'],
    },
    {
      name: "skip in a helper called bare",
      changes: [change("test/calc_test.rb", RUBY, edit(RUBY, "    @db = connect", '    skip "no db"'))],
      findings: ['test_disabled/critical test/calc_test.rb "CalcTest > test_query"'],
    },
  ],
  rust: [
    {
      name: "#[cfg_attr(windows, ignore)] -> #[ignore]",
      changes: [change("src/lib.rs", RUST, edit(RUST, "#[cfg_attr(windows, ignore)]", "#[ignore]"))],
      findings: ['test_disabled/critical src/lib.rs "tests > adds"'],
    },
  ],
};

const valid: Record<string, RuleCase[]> = {
  go: [
    {
      name: "a skip that gains a condition",
      changes: [change("calc_test.go", edit(GO, `\tif runtime.GOOS == "windows" {\n\t\tt.Skip("posix paths")\n\t}\n`, `\tt.Skip("posix paths")\n`), GO)],
      findings: [],
    },
    {
      name: "a TestMain that runs the tests",
      changes: [change("calc_test.go", GO, `${GO}\nfunc TestMain(m *testing.M) {\n\tsetup()\n\tos.Exit(m.Run())\n}\n`)],
      findings: [],
    },
    {
      name: "a helper's message reworded",
      changes: [change("calc_test.go", GO, edit(GO, `t.Errorf("got %d, want %d", got, want)`, `t.Errorf("want %d, got %d", want, got)`))],
      findings: [],
    },
  ],
  python: [
    {
      name: "skip -> skipif (re-enabled on some platforms)",
      changes: [change("tests/test_calc.py", edit(PY, `@pytest.mark.skipif(sys.platform == "win32", reason="posix")`, `@pytest.mark.skip(reason="posix")`), PY)],
      findings: [],
    },
    {
      name: "a fixture that yields instead of returning",
      changes: [change("tests/test_calc.py", PY, edit(PY, "    return connect()", "    conn = connect()\n    yield conn\n    conn.close()"))],
      findings: [],
    },
    {
      name: "skipif reason reworded",
      changes: [change("tests/test_calc.py", PY, edit(PY, `reason="posix"`, `reason="posix paths only"`))],
      findings: [],
    },
  ],
  javascript: [
    {
      name: "an alias of describe itself",
      changes: [change("test/slug.test.ts", JS, edit(edit(JS, `describe("slug"`, `group("slug"`), `function requireDb`, `const group = describe;\n\nfunction requireDb`))],
      findings: [],
    },
    {
      name: "a beforeEach that sets up state",
      changes: [change("test/slug.test.ts", JS, edit(JS, `describe("slug", () => {\n`, `describe("slug", () => {\n  beforeEach((ctx) => { ctx.value = 1; });\n`))],
      findings: [],
    },
  ],
  java: [
    {
      name: "an assumption that holds (assumeTrue(true)) and a setup that builds state",
      changes: [change("src/test/java/calc/CalcTest.java", JAVA, edit(JAVA, "void setUp() { calc = new Calc(); }", "void setUp() { assumeTrue(true); calc = new Calc(1); }"))],
      findings: [],
    },
  ],
  csharp: [
    {
      name: "a setup that builds other state",
      changes: [change("tests/CalcTests.cs", CS, edit(CS, "public void Init() { calc = new Calc(); }", "public void Init() { calc = new Calc(precision: 2); }"))],
      findings: [],
    },
  ],
  php: [
    {
      name: "a helper that connects differently",
      changes: [change("tests/CalcTest.php", PHP, edit(PHP, "$this->db = connect();", '$this->db = connect("sqlite::memory:");'))],
      findings: [],
    },
  ],
  ruby: [
    {
      name: "a setup that builds other state",
      changes: [change("test/calc_test.rb", RUBY, edit(RUBY, "    @calc = Calc.new", "    @calc = Calc.new(precision: 2)"))],
      findings: [],
    },
  ],
  rust: [
    {
      name: "#[ignore] -> #[cfg_attr(windows, ignore)]",
      changes: [change("src/lib.rs", edit(RUST, "#[cfg_attr(windows, ignore)]", "#[ignore]"), RUST)],
      findings: [],
    },
  ],
};

describe("test_disabled through indirection", () => {
  for (const [language, cases] of Object.entries(invalid)) {
    it.each(cases.map((c) => [c.name, c] as const))(`${language} invalid: %s`, async (_name, c) => {
      await expectFindings(c);
    });
  }
  for (const [language, cases] of Object.entries(valid)) {
    it.each(cases.map((c) => [c.name, c] as const))(`${language} valid: %s`, async (_name, c) => {
      await expectFindings(c);
    });
  }

  it("names the helper and the skip it calls, and the condition a skip lost", async () => {
    const helper = await expectFindings(invalid.go?.[0] as RuleCase);
    expect(helper.find((finding) => finding.type === "test_disabled")?.message).toContain("check() calls t.Skipf()");
    const lost = await expectFindings(invalid.python?.[0] as RuleCase);
    expect(lost[0]?.message).toContain("it was skipped only under a condition (@pytest.mark.skipif)");
  });

  it("lists a conditional skip as conditional, not skipped", async () => {
    const facts = await extractFacts("tests/test_calc.py", PY);
    expect(facts.tests.find((test) => test.name === "test_path")?.flags).toMatchObject({ skipped: false, conditional: true });
  });
});

describe("test_disabled through a provider in another file", () => {
  const HELPERS = `package calc\n\nimport "testing"\n\nfunc check(t *testing.T, got, want int) {\n\tt.Helper()\n\tif got != want {\n\t\tt.Errorf("got %d, want %d", got, want)\n\t}\n}\n`;
  const ADD = `package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) { check(t, Add(1, 2), 3) }\n\nfunc TestSub(t *testing.T) { check(t, Sub(3, 2), 1) }\n\nfunc TestOwn(t *testing.T) {\n\tif Add(1, 1) != 2 {\n\t\tt.Fatal("add")\n\t}\n}\n`;
  const CONFTEST = `import pytest\n\n@pytest.fixture\ndef db():\n    return connect()\n`;
  const USERS = `def test_query(db):\n    assert db.query(1) == 1\n\ndef test_plain():\n    assert 1 + 1 == 2\n`;

  async function summaries(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
    const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) }, unchanged: unchangedBetween(before, after) });
    return analysis.findings.map((finding) => `${finding.type}/${finding.severity} ${finding.file}${finding.test ? ` "${finding.test}"` : ""}`).sort();
  }

  it.each([
    [
      "a Go helper's t.Errorf -> t.Skipf reaches the package's callers",
      { "calc/helpers_test.go": HELPERS, "calc/add_test.go": ADD },
      { "calc/helpers_test.go": edit(HELPERS, "t.Errorf(", "t.Skipf("), "calc/add_test.go": ADD },
      ['test_disabled/critical calc/helpers_test.go "TestAdd"', 'test_disabled/critical calc/helpers_test.go "TestSub"'],
    ],
    [
      "a Go TestMain without m.Run() in another file",
      { "calc/add_test.go": ADD },
      { "calc/add_test.go": ADD, "calc/main_test.go": `package calc\n\nimport "testing"\n\nfunc TestMain(m *testing.M) {}\n` },
      ['test_disabled/critical calc/main_test.go "TestAdd"', 'test_disabled/critical calc/main_test.go "TestOwn"', 'test_disabled/critical calc/main_test.go "TestSub"'],
    ],
    [
      "a conftest fixture that now skips",
      { "tests/conftest.py": CONFTEST, "tests/test_users.py": USERS },
      { "tests/conftest.py": edit(CONFTEST, "    return connect()", '    pytest.skip("no db")'), "tests/test_users.py": USERS },
      ['test_disabled/critical tests/conftest.py "test_query"'],
    ],
    [
      "a conftest autouse fixture that skips",
      { "tests/conftest.py": CONFTEST, "tests/test_users.py": USERS },
      { "tests/conftest.py": `${CONFTEST}\n@pytest.fixture(autouse=True)\ndef off():\n    pytest.skip("off")\n`, "tests/test_users.py": USERS },
      ['test_disabled/critical tests/conftest.py "test_plain"', 'test_disabled/critical tests/conftest.py "test_query"'],
    ],
  ])("invalid: %s", async (_name, before, after, findings) => {
    expect(await summaries(before, after)).toEqual(findings);
  });

  it.each([
    [
      "a Go helper's message reworded",
      { "calc/helpers_test.go": HELPERS, "calc/add_test.go": ADD },
      { "calc/helpers_test.go": edit(HELPERS, `"got %d, want %d", got, want`, `"want %d, got %d", want, got`), "calc/add_test.go": ADD },
    ],
    [
      "a Go TestMain that runs the tests",
      { "calc/add_test.go": ADD },
      { "calc/add_test.go": ADD, "calc/main_test.go": `package calc\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestMain(m *testing.M) { os.Exit(m.Run()) }\n` },
    ],
    [
      "a conftest fixture that now yields",
      { "tests/conftest.py": CONFTEST, "tests/test_users.py": USERS },
      { "tests/conftest.py": edit(CONFTEST, "    return connect()", "    conn = connect()\n    yield conn\n    conn.close()"), "tests/test_users.py": USERS },
    ],
    [
      "a skipping helper in another package",
      { "calc/helpers_test.go": HELPERS, "other/add_test.go": ADD },
      { "calc/helpers_test.go": edit(HELPERS, "t.Errorf(", "t.Skipf("), "other/add_test.go": ADD },
    ],
  ])("valid: %s", async (_name, before, after) => {
    expect(await summaries(before, after)).toEqual([]);
  });
});

describe("test classes dropped from a JUnit suite list", () => {
  const suite = (classes: string): string =>
    `package calc;\n\nimport org.junit.runner.RunWith;\nimport org.junit.runners.Suite;\n\n@RunWith(Suite.class)\n@Suite.SuiteClasses({${classes}})\npublic class AllTests {}\n`;
  const testClass = (name: string): string =>
    `package calc;\n\nimport org.junit.Test;\nimport static org.junit.Assert.*;\n\npublic class ${name} {\n  @Test\n  public void adds() { assertEquals(3, 1 + 2); }\n}\n`;
  const POM =
    "<project><build><plugins><plugin><artifactId>maven-surefire-plugin</artifactId><configuration><includes><include>**/AllTests.java</include></includes></configuration></plugin></plugins></build></project>\n";

  async function summaries(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
    const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) }, unchanged: unchangedBetween(before, after) });
    return analysis.findings.map((finding) => `${finding.type}/${finding.severity} ${finding.file}${finding.test ? ` "${finding.test}"` : ""}`).sort();
  }

  const base = { "pom.xml": POM, "src/test/java/calc/AddTest.java": testClass("AddTest"), "src/test/java/calc/SubTest.java": testClass("SubTest") };

  it("a class dropped from @Suite.SuiteClasses of the suite the build runs", async () => {
    const before = { ...base, "src/test/java/calc/AllTests.java": suite("AddTest.class, SubTest.class") };
    const after = { ...base, "src/test/java/calc/AllTests.java": suite("AddTest.class") };
    expect(await summaries(before, after)).toEqual(['test_disabled/critical src/test/java/calc/AllTests.java "SubTest > adds"']);
  });

  it.each([
    ["a class added to the list", suite("AddTest.class"), suite("AddTest.class, SubTest.class"), base],
    ["a class dropped that surefire's defaults still run (no build file names the suite)", suite("AddTest.class, SubTest.class"), suite("AddTest.class"), { ...base, "pom.xml": "<project/>\n" }],
  ])("valid: %s", async (_name, was, now, files) => {
    expect(await summaries({ ...files, "src/test/java/calc/AllTests.java": was }, { ...files, "src/test/java/calc/AllTests.java": now })).toEqual([]);
  });
});
