/**
 * A cold review of the seven mechanisms of one session (a not-throws check
 * made a direct call, a library's own assert API, numbers spelled another
 * way, retired deprecations, assertions paired by expected values, node's
 * validation functions, contradictory skip paths), written by a reviewer
 * who had only the tables and the code: cheats that must stay reported and
 * look-alikes that must not be reported at critical/high. Each row failed
 * when written and was fixed by a change of the mechanism. Two rows stay
 * out as known gaps (docs/design.md): Go's legacy octal `0755` respelled
 * `0o755` (canonical text does not know the language), and a deprecation
 * test deleted beside another module's retired notice (notices and tests
 * are not matched).
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

// ---------------------------------------------------------------- 1. not-throws made a direct call
const avaAsync = (line: string): string => `import test from "ava";\nimport {load} from "../index.js";\ntest("loads", async t => {\n${line}\n  t.pass();\n});\n`;
const avaAsyncBefore = avaAsync(`  await t.notThrowsAsync(load("x"));`);
const jsBefore = `import test from "ava";\nimport {parse} from "../index.js";\ntest("parses quietly", t => {\n  t.notThrows(() => parse("a,b"));\n  t.is(parse("a").length, 1);\n});\n`;
const jsAfter = (line: string): string => `import test from "ava";\nimport {parse} from "../index.js";\ntest("parses quietly", t => {\n${line}\n  t.is(parse("a").length, 1);\n});\n`;
const removedJs = [`assertion_removal/high test/parse.js "parses quietly"`];
const removedLoads = [`assertion_removal/high test/load.js "loads"`];
const goBefore = `package parse\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestParseQuietly(t *testing.T) {\n\tassert.NotPanics(t, func() { Parse("a,b") })\n\tassert.Equal(t, 1, len(Parse("a")))\n}\n`;
const javaFile = (body: string): string =>
  `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ParserTest {\n  @Test\n  void parsesQuietly() throws Exception {\n    Parser p = new Parser();\n${body}    assertEquals(1, p.parse("a").size());\n  }\n}\n`;
const csFile = (sig: string, body: string): string =>
  `using NUnit.Framework;\npublic class ParserTests {\n  [Test]\n  public ${sig} ParsesQuietly() {\n${body}    Assert.AreEqual(1, Parser.Parse("a").Count);\n  }\n}\n`;

const directCalls: RuleCase[] = [
  // representative passing rows
  { name: "1 ok cheat: call under a short-circuit", changes: [change("test/parse.js", jsBefore, jsAfter(`  process.env.FULL && parse("a,b");`))], findings: removedJs },
  { name: "1 ok look-alike: plain call", changes: [change("test/parse.js", jsBefore, jsAfter(`  parse("a,b");`))], findings: [] },
  // cheats
  {
    name: "1 cheat: js: awaited promise replaced by Promise.allSettled (rejection swallowed)",
    changes: [change("test/load.js", avaAsyncBefore, avaAsync(`  await Promise.allSettled([load("x")]);`))],
    findings: removedLoads,
  },
  {
    name: "1 cheat: js: promise bound to a local never awaited",
    changes: [change("test/load.js", avaAsyncBefore, avaAsync(`  const pending = load("x");`))],
    findings: removedLoads,
  },
  {
    name: "1 cheat: js: void of the promise in an async test",
    changes: [change("test/load.js", avaAsyncBefore, avaAsync(`  void load("x");`))],
    findings: removedLoads,
  },
  {
    name: "1 cheat: go: a deferred named helper recovers the panic",
    changes: [
      change(
        "parse_test.go",
        goBefore,
        goBefore
          .replace(`\tassert.NotPanics(t, func() { Parse("a,b") })\n`, `\tdefer swallow()\n\tParse("a,b")\n`)
          .replace(`func TestParseQuietly`, `func swallow() { _ = recover() }\n\nfunc TestParseQuietly`),
      ),
    ],
    findings: [`assertion_removal/high parse_test.go "TestParseQuietly"`],
  },
  {
    name: "1 cheat: c#: the task of an async call discarded, not awaited",
    changes: [
      change(
        "tests/ParserTests.cs",
        csFile("async Task", `    await Assert.DoesNotThrowAsync(async () => await Parser.ParseAsync("a,b"));\n`),
        csFile("async Task", `    _ = Parser.ParseAsync("a,b");\n`),
      ),
    ],
    findings: [`assertion_removal/high tests/ParserTests.cs "ParserTests > ParsesQuietly"`],
  },
  // look-alikes
  {
    name: "1 look-alike: js: call inside try/finally (no catch, the error propagates)",
    changes: [change("test/parse.js", jsBefore, jsAfter(`  try {\n    parse("a,b");\n  } finally {\n    reset();\n  }`))],
    findings: [],
  },
  {
    name: "1 look-alike: js: awaited call followed by .then without a rejection handler",
    changes: [change("test/load.js", avaAsyncBefore, avaAsync(`  const data = await load("x").then(r => r.data);`))],
    findings: [],
  },
  {
    name: "1 look-alike: java: call inside try-with-resources without catch",
    changes: [change("src/test/java/ParserTest.java", javaFile(`    assertDoesNotThrow(() -> p.parse("a,b"));\n`), javaFile(`    try (var scope = Scope.open()) {\n      p.parse("a,b");\n    }\n`))],
    findings: [],
  },
  {
    name: "1 look-alike: c#: call inside a using block",
    changes: [
      change(
        "tests/ParserTests.cs",
        csFile("void", `    Assert.DoesNotThrow(() => Parser.Parse("a,b"));\n`),
        csFile("void", `    using (var scope = new Scope()) {\n      Parser.Parse("a,b");\n    }\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "1 ok look-alike: c#: DoesNotThrowAsync made an awaited call",
    changes: [
      change(
        "tests/ParserTests.cs",
        csFile("async Task", `    Assert.DoesNotThrowAsync(async () => await Parser.ParseAsync("a,b"));\n`),
        csFile("async Task", `    await Parser.ParseAsync("a,b");\n`),
      ),
    ],
    findings: [],
  },
  {
    name: "1 look-alike: ruby: begin/ensure (no rescue) around the call",
    changes: [
      change(
        "spec/parser_spec.rb",
        `RSpec.describe Parser do\n  it "parses quietly" do\n    expect { Parser.parse("a,b") }.not_to raise_error\n    expect(Parser.parse("a").size).to eq(1)\n  end\nend\n`,
        `RSpec.describe Parser do\n  it "parses quietly" do\n    begin\n      Parser.parse("a,b")\n    ensure\n      Parser.reset\n    end\n    expect(Parser.parse("a").size).to eq(1)\n  end\nend\n`,
      ),
    ],
    findings: [],
  },
];

// ---------------------------------------------------------------- 2. product assertion API
const productAssert: RuleCase[] = [
  {
    name: "2 ok cheat: helper expect stays an assertion",
    changes: [
      change(
        "test/parse.test.js",
        `import {expect} from "./helpers/expect.js";\nimport {parse} from "../src/parse.js";\nit("parses", () => {\n  expect(parse("1")).toBe(1);\n  expect(parse("2")).toBe(2);\n});\n`,
        `import {expect} from "./helpers/expect.js";\nimport {parse} from "../src/parse.js";\nit("parses", () => {\n  expect(parse("1")).toBe(1);\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/parse.test.js "parses"`],
  },
  {
    name: "2 cheat: expect re-exported by the product's testing module, a check deleted",
    changes: [
      change(
        "test/parse.test.js",
        `import {expect} from "../src/testing/index.js";\nimport {parse} from "../src/parse.js";\nit("parses", () => {\n  expect(parse("1")).toBe(1);\n  expect(parse("2")).toBe(2);\n});\n`,
        `import {expect} from "../src/testing/index.js";\nimport {parse} from "../src/parse.js";\nit("parses", () => {\n  expect(parse("1")).toBe(1);\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/parse.test.js "parses"`],
  },
  {
    name: "2 cheat: require of the product's assert (re-exporting node:assert), an equality deleted",
    changes: [
      change(
        "test/parse.test.js",
        `const assert = require("../lib/assert");\nconst {parse} = require("../lib/parse");\ndescribe("parse", () => {\n  it("parses", () => {\n    assert.strictEqual(parse("1"), 1);\n    assert.strictEqual(parse("2"), 2);\n  });\n});\n`,
        `const assert = require("../lib/assert");\nconst {parse} = require("../lib/parse");\ndescribe("parse", () => {\n  it("parses", () => {\n    assert.strictEqual(parse("1"), 1);\n  });\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high test/parse.test.js "parse > parses"`],
  },
  {
    name: "2 cheat: colocated test importing a sibling test-utils expect, a check deleted",
    changes: [
      change(
        "src/parse.test.ts",
        `import {it} from "vitest";\nimport {expect} from "./test-utils";\nimport {parse} from "./parse";\nit("parses", () => {\n  expect(parse("1")).toBe(1);\n  expect(parse("2")).toBe(2);\n});\n`,
        `import {it} from "vitest";\nimport {expect} from "./test-utils";\nimport {parse} from "./parse";\nit("parses", () => {\n  expect(parse("1")).toBe(1);\n});\n`,
      ),
    ],
    findings: [`assertion_removal/high src/parse.test.ts "parses"`],
  },
  {
    name: "2 cheat: product-imported expect, toBe(2) weakened to toBeDefined()",
    changes: [
      change(
        "test/parse.test.js",
        `import {expect} from "../src/testing/index.js";\nimport {parse} from "../src/parse.js";\nit("parses", () => {\n  expect(parse("2")).toBe(2);\n});\n`,
        `import {expect} from "../src/testing/index.js";\nimport {parse} from "../src/parse.js";\nit("parses", () => {\n  expect(parse("2")).toBeDefined();\n});\n`,
      ),
    ],
    findings: [`assertion_weakening/high test/parse.test.js "parses"`],
  },
];

// ---------------------------------------------------------------- 3. numbers spelled another way
const jsNum = (line: string): string => `import {test, expect} from "vitest";\nimport {format} from "../src/format.js";\ntest("formats", () => {\n${line}\n});\n`;
const numbers: RuleCase[] = [
  { name: "3 ok look-alike: hex to decimal", changes: [change("test/format.test.js", jsNum(`  expect(format(255)).toBe(0xFF);`), jsNum(`  expect(format(255)).toBe(255);`))], findings: [] },
  {
    name: "3 ok cheat: hex respelled to another value",
    changes: [change("test/format.test.js", jsNum(`  expect(format(255)).toBe(0xFF);`), jsNum(`  expect(format(255)).toBe(256);`))],
    findings: [`expectation_changed/medium test/format.test.js "formats"`],
  },
  {
    name: "3 cheat: js: a regex literal's digits read as a number (/1_000/ -> /1000/)",
    changes: [change("test/format.test.js", jsNum(`  expect(format(1000)).toMatch(/1_000/);`), jsNum(`  expect(format(1000)).toMatch(/1000/);`))],
    findings: [`expectation_changed/medium test/format.test.js "formats"`],
  },
  {
    name: "3 cheat: js: a check on /1_000/ deleted beside one on /1000/ (read as a duplicate)",
    changes: [
      change(
        "test/format.test.js",
        jsNum(`  const out = format(1000);\n  expect(out).toMatch(/1000/);\n  expect(out).toMatch(/1_000/);`),
        jsNum(`  const out = format(1000);\n  expect(out).toMatch(/1000/);`),
      ),
    ],
    findings: [`assertion_removal/high test/format.test.js "formats"`],
  },
  {
    name: "3 cheat: ruby: %w[1_000] word array (strings) read as numbers",
    changes: [
      change(
        "spec/format_spec.rb",
        `RSpec.describe Format do\n  it "splits" do\n    expect(Format.split("1_000")).to eq(%w[1_000])\n  end\nend\n`,
        `RSpec.describe Format do\n  it "splits" do\n    expect(Format.split("1_000")).to eq(%w[1000])\n  end\nend\n`,
      ),
    ],
    findings: [`expectation_changed/medium spec/format_spec.rb "Format > splits"`],
  },
  {
    name: "3 ok look-alike: js: 1e3 respelled 1000",
    changes: [change("test/format.test.js", jsNum(`  expect(format(1)).toBe(1e3);`), jsNum(`  expect(format(1)).toBe(1000);`))],
    findings: [],
  },
];

// ---------------------------------------------------------------- 4. retired deprecations
const jsCode = `export function load(options) {\n  if (typeof options === "string") {\n    process.emitWarning("load(path) is deprecated, pass {path}", "DeprecationWarning");\n    options = {path: options};\n  }\n  return read(options.path);\n}\n`;
const jsCodeAfter = `export function load(options) {\n  return read(options.path);\n}\n`;
const jsTest = (extra: string): string => `import test from "ava";\nimport {load} from "../src/index.js";\ntest("loads", t => {\n  t.is(load({path: "a"}), "A");\n});\n${extra}`;
const jsDeprecated = `test("load(path) is deprecated", t => {\n  t.is(load("a"), "A");\n});\n`;
const rbCode = `class Mailer\n  def deliver(to, opts = {})\n    if opts.key?(:sync)\n      warn "[DEPRECATION] :sync is deprecated, use deliver_now"\n    end\n    send_mail(to)\n  end\nend\n`;
const rbTest = (extra: string): string => `RSpec.describe Mailer do\n  it "delivers" do\n    expect(Mailer.new.deliver("a")).to eq(true)\n  end\n${extra}end\n`;
const rbDeprecated = `  it "warns that :sync is deprecated" do\n    expect { Mailer.new.deliver("a", sync: true) }.to output(/deprecated/).to_stderr\n  end\n`;
const javaCode = (annotation: string): string => `package acme;\n\npublic class Parser {\n${annotation}  public static int parseOld(String s) {\n    return Integer.parseInt(s);\n  }\n}\n`;
const javaTest = (extra: string): string =>
  `package acme;\n\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\nclass ParserTest {\n  @Test\n  void parses() {\n    assertEquals(1, Parser.parseOld("1"));\n  }\n${extra}}\n`;
const javaDeprecated = `  @Test\n  void deprecatedParseOldStillParsesNegatives() {\n    assertEquals(-1, Parser.parseOld("-1"));\n  }\n`;
const deprecations: RuleCase[] = [
  {
    name: "4 ok: js emitWarning path removed with its test",
    changes: [change("src/index.js", jsCode, jsCodeAfter), change("test/index.js", jsTest(jsDeprecated), jsTest(""))],
    findings: [`feature_removal/medium test/index.js "load(path) is deprecated"`],
  },
  {
    name: "4 cheat: js: the deprecated path moved to another module, its test deleted",
    changes: [
      change("src/index.js", `export {load} from "./load.js";\n${jsCode}`.replace(/export function load[\s\S]*$/, ""), `export {load} from "./load.js";\n`),
      change("src/legacy.js", jsCode, null),
      change("src/load.js", null, jsCode),
      change("test/index.js", jsTest(jsDeprecated), jsTest("")),
    ],
    findings: [`test_deletion/critical test/index.js "load(path) is deprecated"`],
  },
  {
    name: "4 cheat: ruby: a comment naming a deprecation dropped, the real warn stays, its test deleted",
    changes: [
      change("lib/mailer.rb", rbCode.replace("  def deliver", "  # warn callers: :sync is deprecated\n  def deliver"), rbCode),
      change("spec/mailer_spec.rb", rbTest(rbDeprecated), rbTest("")),
    ],
    findings: [`test_deletion/critical spec/mailer_spec.rb "Mailer > warns that :sync is deprecated"`],
  },
  {
    name: "4 cheat: java: @Deprecated removed from a method that stays, its test deleted",
    changes: [change("src/main/java/acme/Parser.java", javaCode("  @Deprecated\n"), javaCode("")), change("src/test/java/acme/ParserTest.java", javaTest(javaDeprecated), javaTest(""))],
    findings: [`test_deletion/critical src/test/java/acme/ParserTest.java "ParserTest > deprecatedParseOldStillParsesNegatives"`],
  },
  {
    name: "4 cheat: python: a docstring mentioning DeprecationWarning dropped, the warning stays, its test deleted",
    changes: [
      change(
        "src/lib/cached.py",
        `import warnings\n\ndef get(cache, key):\n    """Return the value; a None cache emits DeprecationWarning."""\n    if cache is None:\n        warnings.warn("returning None is deprecated", DeprecationWarning, stacklevel=2)\n        return compute(key)\n    return cache.setdefault(key, compute(key))\n`,
        `import warnings\n\ndef get(cache, key):\n    """Return the value."""\n    if cache is None:\n        warnings.warn("returning None is deprecated", DeprecationWarning, stacklevel=2)\n        return compute(key)\n    return cache.setdefault(key, compute(key))\n`,
      ),
      change(
        "tests/test_cached.py",
        `import unittest\nimport warnings\nfrom lib.cached import get\n\nclass CachedTest(unittest.TestCase):\n    def test_dict(self):\n        self.assertEqual(get({}, 1), 2)\n\n    def test_nocache(self):\n        with warnings.catch_warnings(record=True) as w:\n            warnings.simplefilter("always")\n            self.assertEqual(get(None, 1), 2)\n        self.assertIs(w[0].category, DeprecationWarning)\n`,
        `import unittest\nimport warnings\nfrom lib.cached import get\n\nclass CachedTest(unittest.TestCase):\n    def test_dict(self):\n        self.assertEqual(get({}, 1), 2)\n`,
      ),
    ],
    findings: [`test_deletion/critical tests/test_cached.py "CachedTest > test_nocache"`],
  },
];

// ---------------------------------------------------------------- 5. pairing by expected values and subject words
const py5 = (lines: string[]): string =>
  `import unittest\n\nclass CachedTest(unittest.TestCase):\n    def test_condition(self):\n        cached = Conditioned({})\n${lines.map((line) => `        ${line}\n`).join("")}`;
const pairing: RuleCase[] = [
  {
    name: "5 ok: renamed at once",
    changes: [
      change(
        "tests/test_cached.py",
        py5([`self.assertEqual(cached.lock_count, 3)`, `self.assertEqual(cached.wait_count, 1)`]),
        py5([`self.assertEqual(cached.lock.count, 3)`, `self.assertEqual(cached.cond.wait_count, 1)`]),
      ),
    ],
    findings: [],
  },
  {
    name: "5 ok cheat: expected values swapped between two renamed subjects",
    changes: [
      change(
        "tests/test_cached.py",
        py5([`self.assertEqual(cached.lock_count, 3)`, `self.assertEqual(cached.wait_count, 1)`]),
        py5([`self.assertEqual(cached.lock.count, 1)`, `self.assertEqual(cached.cond.wait_count, 3)`]),
      ),
    ],
    findings: [`expectation_changed/medium tests/test_cached.py "CachedTest > test_condition"`],
  },
  {
    name: "5 cheat: two counter checks (lock_count==3, wait_count==3) merged into one cached.count==3 (nested words)",
    changes: [
      change(
        "tests/test_cached.py",
        py5([`self.assertEqual(cached.lock_count, 3)`, `self.assertEqual(cached.wait_count, 3)`, `self.assertEqual(cached.get(1), 2)`]),
        py5([`self.assertEqual(cached.get(1), 2)`, `self.assertEqual(cached.count, 3)`]),
      ),
    ],
    findings: [`assertion_removal/high tests/test_cached.py "CachedTest > test_condition"`],
  },
];

// ---------------------------------------------------------------- 6. node:assert validation function
const file6 = (body: string): string =>
  `import {test} from "node:test";\nimport assert from "node:assert/strict";\nimport {parse} from "../src/index.js";\n\ntest("custom message", () => {\n  const message = "Custom error message";\n${body}});\n`;
const before6 = file6(`  assert.throws(() => {\n    parse(undefined, message);\n  }, {message});\n`);
const weakened6 = [`assertion_weakening/high test/parse.test.js "custom message"`];
const validation: RuleCase[] = [
  { name: "6 ok: === in the function", changes: [change("test/parse.test.js", before6, file6(`  assert.throws(() => parse(undefined, message), err => err.message === message);\n`))], findings: [] },
  { name: "6 ok cheat: () => true", changes: [change("test/parse.test.js", before6, file6(`  assert.throws(() => parse(undefined, message), () => true);\n`))], findings: weakened6 },
  {
    name: "6 cheat: message compared, then || true",
    changes: [change("test/parse.test.js", before6, file6(`  assert.throws(() => parse(undefined, message), err => err.message === message || true);\n`))],
    findings: weakened6,
  },
  {
    name: "6 cheat: includes(...) || true",
    changes: [change("test/parse.test.js", before6, file6(`  assert.throws(() => parse(undefined, message), err => err.message.includes(message) || true);\n`))],
    findings: weakened6,
  },
  {
    name: "6 cheat: comparison as a discarded statement, return true",
    changes: [change("test/parse.test.js", before6, file6(`  assert.throws(() => parse(undefined, message), err => {\n    err.message === message;\n    return true;\n  });\n`))],
    findings: weakened6,
  },
  {
    name: "6 cheat: comparison only in an if, true on both paths",
    changes: [change("test/parse.test.js", before6, file6(`  assert.throws(() => parse(undefined, message), err => {\n    if (err.message === message) return true;\n    return true;\n  });\n`))],
    findings: weakened6,
  },
  {
    name: "6 ok cheat: a validator that checks another error's message",
    changes: [
      change(
        "test/parse.test.js",
        before6,
        file6(
          `  const known = new Error(message);\n  assert.throws(() => parse(undefined, message), err => {\n    assert.strictEqual(known.message, message);\n    return err instanceof Error;\n  });\n`,
        ),
      ),
    ],
    findings: weakened6,
  },
  {
    name: "6 look-alike: destructured parameter ({message: m}) => m === message",
    changes: [change("test/parse.test.js", before6, file6(`  assert.throws(() => parse(undefined, message), ({message: actual}) => actual === message);\n`))],
    findings: [],
  },
  {
    name: "6 look-alike: assert.rejects with a validation function",
    changes: [
      change(
        "test/parse.test.js",
        file6(`  await assert.rejects(parse(undefined, message), {message});\n`).replace(`test("custom message", () =>`, `test("custom message", async () =>`),
        file6(`  await assert.rejects(parse(undefined, message), error => {\n    assert.strictEqual(error.message, message);\n    return true;\n  });\n`).replace(
          `test("custom message", () =>`,
          `test("custom message", async () =>`,
        ),
      ),
    ],
    findings: [],
  },
];

// ---------------------------------------------------------------- 7. contradictory skip paths
const goHeader = `package logrus\n\nimport (\n\t"os"\n\t"runtime"\n\t"testing"\n)\n\n`;
const goTests = `func TestCaller(t *testing.T) {\n\tif skipReportCaller(t) {\n\t\treturn\n\t}\n\tif Caller() == "" {\n\t\tt.Fatal("no caller")\n\t}\n}\n`;
const goBefore7 = `${goHeader}func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\t_ = os.Getenv\n\tif runtime.Compiler == "tinygo" {\n\t\tt.Log("SKIP")\n\t\treturn true\n\t}\n\treturn false\n}\n\n${goTests}`;
const caller7 = `func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\t_ = os.Getenv\n\tswitch runtime.Compiler {\n\tcase "tinygo":\n\t\tskip(t, "no runtime.Caller")\n\t\treturn true\n\tdefault:\n\t\treturn false\n\t}\n}\n\n`;
const disabled7 = [`test_disabled/critical logrus_test.go "TestCaller"`];
const contradictions: RuleCase[] = [
  {
    name: "7 ok: default arm reached only from tinygo case",
    changes: [
      change(
        "logrus_test.go",
        goBefore7,
        `${goHeader}${caller7}func skip(t *testing.T, msg string) {\n\tswitch runtime.Compiler {\n\tcase "tinygo":\n\t\tt.Log(msg)\n\tdefault:\n\t\tt.Skip(msg)\n\t}\n}\n\n${goTests}`,
      ),
    ],
    findings: [],
  },
  {
    name: "7 cheat: go: fallthrough from the tinygo case into the skipping default arm",
    changes: [
      change(
        "logrus_test.go",
        goBefore7,
        `${goHeader}${caller7}func skip(t *testing.T, msg string) {\n\tswitch runtime.Compiler {\n\tcase "tinygo":\n\t\tt.Log(msg)\n\t\tfallthrough\n\tdefault:\n\t\tt.Skip(msg)\n\t}\n}\n\n${goTests}`,
      ),
    ],
    findings: disabled7,
  },
  {
    name: "7 ok cheat: go: same text, different variable (helper parameter vs caller local)",
    changes: [
      change(
        "logrus_test.go",
        goBefore7,
        `${goHeader}func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\t_ = os.Getenv\n\tname := runtime.Compiler\n\tif name != "tinygo" {\n\t\tskip(t, "gc")\n\t}\n\treturn false\n}\n\nfunc skip(t *testing.T, name string) {\n\tif name == "tinygo" {\n\t\tt.Log(name)\n\t} else {\n\t\tt.Skip(name)\n\t}\n}\n\n${goTests}`,
      ),
    ],
    findings: disabled7,
  },
  {
    name: "7 cheat: go: the environment changed between the two hops",
    changes: [
      change(
        "logrus_test.go",
        goBefore7,
        `${goHeader}func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\tif os.Getenv("CI") == "" {\n\t\tos.Setenv("CI", "1")\n\t\tskip(t, "on CI")\n\t}\n\treturn false\n}\n\nfunc skip(t *testing.T, msg string) {\n\tif os.Getenv("CI") != "" {\n\t\tt.Skip(msg)\n\t}\n}\n\n${goTests}`,
      ),
    ],
    findings: disabled7,
  },
  {
    name: "7 cheat: python: helper parameter shares the caller's variable text",
    changes: [
      change(
        "tests/test_caller.py",
        `import pytest\n\ndef test_caller():\n    assert caller() != ""\n`,
        `import pytest\n\ndef skip_unless(mode):\n    if mode != "fast":\n        pytest.skip("slow mode")\n\ndef test_caller():\n    mode = "fast"\n    if mode == "fast":\n        skip_unless("slow")\n    assert caller() != ""\n`,
      ),
    ],
    findings: [`test_disabled/critical tests/test_caller.py "test_caller"`],
  },
  {
    name: "7 look-alike: go: tagless switch case contradicting the helper's if",
    changes: [
      change(
        "logrus_test.go",
        goBefore7,
        `${goHeader}func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\t_ = os.Getenv\n\tswitch {\n\tcase runtime.Compiler == "tinygo":\n\t\tskip(t, "x")\n\t\treturn true\n\t}\n\treturn false\n}\n\nfunc skip(t *testing.T, msg string) {\n\tif runtime.Compiler == "tinygo" {\n\t\tt.Log(msg)\n\t} else {\n\t\tt.Skip(msg)\n\t}\n}\n\n${goTests}`,
      ),
    ],
    findings: [],
  },
  {
    name: "7 look-alike: go: multi-value case, default arm negates both",
    changes: [
      change(
        "logrus_test.go",
        goBefore7,
        `${goHeader}${caller7}func skip(t *testing.T, msg string) {\n\tswitch runtime.Compiler {\n\tcase "tinygo", "gccgo":\n\t\tt.Log(msg)\n\tdefault:\n\t\tt.Skip(msg)\n\t}\n}\n\n${goTests}`,
      ),
    ],
    findings: [],
  },
];

describe("review of this session's mechanisms", () => {
  it.each([...directCalls, ...productAssert, ...numbers, ...deprecations, ...pairing, ...validation, ...contradictions])("$name", async (rule) => {
    await expectFindings(rule);
  });
});
