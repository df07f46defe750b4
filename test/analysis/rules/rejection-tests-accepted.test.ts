/**
 * A test that checked an input is refused, deleted as the change makes the
 * code accept that input, with a new test feeding the same input and
 * checking what it now gives (the sweep of vlucas/phpdotenv 1a7ea2afc4:
 * `testParseUnicodeName` expected "Encountered an invalid name at [FOOƱ]."
 * for `parse('FOOƱ=BAZ')`; `testUnicodeNameParse` now parses it). The whole
 * test's counterpart of rejection rows moved to an accepting table
 * (checks/rejection.ts): the input is still checked, for its new answer.
 * Reported as expectation_changed (medium), not a deleted test. A refusal
 * is a thrown error or an error the call returns and the test reads
 * (`$result->error()`, `.unwrap_err()`, `.is_err()`). The same deletion with
 * no product change, with a product change that keeps the refusal deciding
 * as it did, with a new test feeding another input, or of a test that
 * checked a value (not a refusal) is still a deleted test.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type FileChange } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

interface Shape {
  id: string;
  test: string;
  /** The test file before (the refusal test) and after (the acceptance test instead). */
  before: string;
  after: string;
  /** The same after, the new test feeding another input. */
  otherInput: string;
  product: [path: string, before: string, after: string];
  /** The product after a change that keeps the refusal as it decided (another statement added beside it). */
  kept: string;
  deleted: string;
}

const SHAPES: Shape[] = [
  {
    id: "phpunit, an error result read through a helper",
    test: "tests/ParserTest.php",
    before: `<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class ParserTest extends TestCase\n{\n    public function testAsciiName()\n    {\n        $result = Parser::parse('FOO=BAZ');\n        $this->checkPositive($result, 'FOO', 'BAZ');\n    }\n\n    public function testParseUnicodeName()\n    {\n        $result = Parser::parse('FOOƱ=BAZ');\n        $this->checkError($result, 'Encountered an invalid name at [FOOƱ].');\n    }\n\n    private function checkPositive($result, string $name, string $value)\n    {\n        $this->assertTrue($result->success()->isDefined());\n        $this->assertSame($name, $result->success()->get()->getName());\n        $this->assertSame($value, $result->success()->get()->getValue());\n    }\n\n    private function checkError($result, string $message)\n    {\n        $this->assertTrue($result->error()->isDefined());\n        $this->assertSame($message, $result->error()->get());\n    }\n}\n`,
    after: "",
    otherInput: "",
    product: [
      "src/Parser.php",
      `<?php\n\nfinal class Parser\n{\n    public static function parse(string $entry)\n    {\n        [$name, $value] = explode('=', $entry, 2);\n        if (!preg_match('/\\A[a-zA-Z0-9_.]+\\z/', $name)) {\n            return Result::error(sprintf('Encountered an invalid name at [%s].', $name));\n        }\n        return Result::success(new Entry($name, $value));\n    }\n}\n`,
      `<?php\n\nfinal class Parser\n{\n    public static function parse(string $entry)\n    {\n        [$name, $value] = explode('=', $entry, 2);\n        if (!preg_match('/\\A[\\p{Ll}\\p{Lu}\\p{M}\\p{N}_.]+\\z/u', $name)) {\n            return Result::error(sprintf('Encountered an invalid name at [%s].', $name));\n        }\n        return Result::success(new Entry($name, $value));\n    }\n}\n`,
    ],
    kept: `<?php\n\nfinal class Parser\n{\n    public static function parse(string $entry)\n    {\n        [$name, $value] = explode('=', trim($entry), 2);\n        if (!preg_match('/\\A[a-zA-Z0-9_.]+\\z/', $name)) {\n            return Result::error(sprintf('Encountered an invalid name at [%s].', $name));\n        }\n        return Result::success(new Entry($name, $value));\n    }\n}\n`,
    deleted: "ParserTest > testParseUnicodeName",
  },
  {
    id: "pytest, a raised error",
    test: "tests/test_parser.py",
    before: `import pytest\nfrom pkg.parser import parse\n\n\ndef test_ascii_name():\n    assert parse("FOO=BAZ") == ("FOO", "BAZ")\n\n\ndef test_refuses_unicode():\n    with pytest.raises(ValueError, match="invalid name"):\n        parse("FOOÜ=BAZ")\n`,
    after: "",
    otherInput: "",
    product: [
      "pkg/parser.py",
      `import re\n\n\ndef parse(entry):\n    name, value = entry.split("=", 1)\n    if not re.fullmatch(r"[A-Za-z0-9_.]+", name):\n        raise ValueError(f"invalid name {name}")\n    return name, value\n`,
      `import re\n\n\ndef parse(entry):\n    name, value = entry.split("=", 1)\n    if not re.fullmatch(r"[\\w.]+", name):\n        raise ValueError(f"invalid name {name}")\n    return name, value\n`,
    ],
    kept: `import re\n\n\ndef parse(entry):\n    name, value = entry.strip().split("=", 1)\n    if not re.fullmatch(r"[A-Za-z0-9_.]+", name):\n        raise ValueError(f"invalid name {name}")\n    return name, value\n`,
    deleted: "test_refuses_unicode",
  },
  {
    id: "ava, a thrown error",
    test: "test/parser.js",
    before: `import test from "ava";\nimport { parse } from "../source/parser.js";\n\ntest("ascii name", (t) => {\n  t.deepEqual(parse("FOO=BAZ"), ["FOO", "BAZ"]);\n});\n\ntest("unicode name is refused", (t) => {\n  t.throws(() => parse("FOOÜ=BAZ"), { message: /invalid name/ });\n});\n`,
    after: "",
    otherInput: "",
    product: [
      "source/parser.js",
      `export function parse(entry) {\n  const [name, value] = entry.split("=");\n  if (!/^[A-Za-z0-9_.]+$/.test(name)) throw new Error(\`invalid name \${name}\`);\n  return [name, value];\n}\n`,
      `export function parse(entry) {\n  const [name, value] = entry.split("=");\n  if (!/^[\\p{L}\\p{N}_.]+$/u.test(name)) throw new Error(\`invalid name \${name}\`);\n  return [name, value];\n}\n`,
    ],
    kept: `export function parse(entry) {\n  const [name, value] = entry.trim().split("=");\n  if (!/^[A-Za-z0-9_.]+$/.test(name)) throw new Error(\`invalid name \${name}\`);\n  return [name, value];\n}\n`,
    deleted: "unicode name is refused",
  },
  {
    id: "rust, an error result read with is_err",
    test: "tests/parser.rs",
    before: `use envparse::parse;\n\n#[test]\nfn ascii_name() {\n    assert_eq!(parse("FOO=BAZ").unwrap(), ("FOO".to_string(), "BAZ".to_string()));\n}\n\n#[test]\nfn unicode_name_refused() {\n    assert!(parse("FOOÜ=BAZ").is_err());\n}\n`,
    after: "",
    otherInput: "",
    product: [
      "src/lib.rs",
      `pub fn parse(entry: &str) -> Result<(String, String), String> {\n    let (name, value) = entry.split_once('=').ok_or("no =")?;\n    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {\n        return Err(format!("invalid name {}", name));\n    }\n    Ok((name.to_string(), value.to_string()))\n}\n`,
      `pub fn parse(entry: &str) -> Result<(String, String), String> {\n    let (name, value) = entry.split_once('=').ok_or("no =")?;\n    if !name.chars().all(|c| c.is_alphanumeric() || c == '_') {\n        return Err(format!("invalid name {}", name));\n    }\n    Ok((name.to_string(), value.to_string()))\n}\n`,
    ],
    kept: `pub fn parse(entry: &str) -> Result<(String, String), String> {\n    let (name, value) = entry.trim().split_once('=').ok_or("no =")?;\n    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {\n        return Err(format!("invalid name {}", name));\n    }\n    Ok((name.to_string(), value.to_string()))\n}\n`,
    deleted: "unicode_name_refused",
  },
];

// The after sides: the refusal test gone, a new acceptance test of the same input (or, for the cheat, of another one).
const ACCEPTING: Record<string, (input: string) => string> = {
  "tests/ParserTest.php": (input) =>
    SHAPES[0]!.before
      .replace(/ {4}public function testParseUnicodeName\(\)\n {4}\{\n.*?\n {4}\}\n\n/s, "")
      .replace(
        "    private function checkPositive",
        `    public function testUnicodeNameParse()\n    {\n        $result = Parser::parse('${input}=BAZ');\n        $this->checkPositive($result, '${input}', 'BAZ');\n    }\n\n    private function checkPositive`,
      ),
  "tests/test_parser.py": (input) => SHAPES[1]!.before.replace(/\n\ndef test_refuses_unicode\(\):\n.*$/s, `\n\ndef test_unicode_name():\n    assert parse("${input}=BAZ") == ("${input}", "BAZ")\n`),
  "test/parser.js": (input) => SHAPES[2]!.before.replace(/\ntest\("unicode name is refused".*$/s, `\ntest("unicode name", (t) => {\n  t.deepEqual(parse("${input}=BAZ"), ["${input}", "BAZ"]);\n});\n`),
  "tests/parser.rs": (input) =>
    SHAPES[3]!.before.replace(
      /\n#\[test\]\nfn unicode_name_refused\(\) \{\n.*$/s,
      `\n#[test]\nfn unicode_name() {\n    assert_eq!(parse("${input}=BAZ").unwrap(), ("${input}".to_string(), "BAZ".to_string()));\n}\n`,
    ),
};

for (const shape of SHAPES) {
  const accepting = ACCEPTING[shape.test] as (input: string) => string;
  shape.after = accepting(shape.id.startsWith("phpunit") ? "FOOƱ" : "FOOÜ");
  shape.otherInput = accepting("FOOÅ");
}

async function findingsOf(changes: FileChange[]): Promise<string[]> {
  const analysis = await analyzeChanges(changes);
  return analysis.findings.map(summarize);
}

describe("a refusal test deleted as the code accepts its input, a new test checking the input's answer", () => {
  describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("%s", (_, shape) => {
    const [productPath, productBefore, productAfter] = shape.product;

    it("the product now accepts the input: expectation_changed, medium", async () => {
      expect(await findingsOf([change(shape.test, shape.before, shape.after), change(productPath, productBefore, productAfter)])).toEqual([
        `expectation_changed/medium ${shape.test} "${shape.deleted}"`,
      ]);
    });

    it("the product did not change: still a deleted test", async () => {
      expect(await findingsOf([change(shape.test, shape.before, shape.after)])).toContain(`test_deletion/critical ${shape.test} "${shape.deleted}"`);
    });

    it("the product changed but refuses the input as it did: still a deleted test", async () => {
      expect(await findingsOf([change(shape.test, shape.before, shape.after), change(productPath, productBefore, shape.kept)])).toContain(`test_deletion/critical ${shape.test} "${shape.deleted}"`);
    });

    it("the new test feeds another input: still a deleted test", async () => {
      expect(await findingsOf([change(shape.test, shape.before, shape.otherInput), change(productPath, productBefore, productAfter)])).toContain(
        `test_deletion/critical ${shape.test} "${shape.deleted}"`,
      );
    });
  });

  it("a deleted test that checked a value, not a refusal, is still a deleted test", async () => {
    const before = `import pytest\nfrom pkg.parser import parse\n\n\ndef test_ascii_name():\n    assert parse("FOO=BAZ") == ("FOO", "BAZ")\n\n\ndef test_unicode_name_kept():\n    assert parse("FOOÜ=BAZ") == ("FOOÜ", "BAZ")\n`;
    const after = `import pytest\nfrom pkg.parser import parse\n\n\ndef test_ascii_name():\n    assert parse("FOO=BAZ") == ("FOO", "BAZ")\n\n\ndef test_unicode_name():\n    assert parse("FOOÜ=BAZ") is not None\n`;
    const [productPath, productBefore, productAfter] = SHAPES[1]!.product;
    const findings = await findingsOf([change("tests/test_parser.py", before, after), change(productPath, productBefore, productAfter)]);
    expect(findings.some((finding) => /^(test_deletion|assertion_removal|assertion_weakening)\/(critical|high)/.test(finding))).toBe(true);
  });
});
