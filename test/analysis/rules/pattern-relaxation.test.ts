/**
 * An exact expected string relaxed to an anchored pattern that still
 * accepts it (checks/patterns.ts; the sweep of sindresorhus/execa
 * e7717338a3: `t.is(originalMessage, 'spawnSync node ETIMEDOUT')` ->
 * `t.regex(originalMessage, /^spawnSync .*node(?:\.[A-Za-z]+)? ETIMEDOUT$/)`
 * so Windows' resolved path fits): a medium assertion_weakening, in every
 * framework that spells it. The nearest cheats stay high: a fragment
 * matched anywhere, a pattern that accepts nearly anything, one that no
 * longer accepts the old value.
 */
import { describe, expect, it } from "vitest";
import { isAnchoredRelaxation } from "../../../src/analysis/checks/patterns.js";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

describe("isAnchoredRelaxation", () => {
  it.each([
    ['"spawnSync node ETIMEDOUT"', "/^spawnSync .*node(?:\\.[A-Za-z]+)? ETIMEDOUT$/", true],
    ['"spawnSync node ETIMEDOUT"', "/^spawnSync.*node(?:\\.[A-Za-z]+)?ETIMEDOUT$/", true],
    ['"foo"', "/^foo/", true],
    ['"v1.2.3"', "/^v1\\.2\\.\\d+$/", true],
    ["'a b'", 'r"\\Aa .*b\\Z"', true],
    ['"Exited with 1"', '"/^Exited with \\d+$/"', true],
    ['"spawnSync node ETIMEDOUT"', "/ETIMEDOUT/", false],
    ['"spawnSync node ETIMEDOUT"', "/^.*$/", false],
    ['"spawnSync node ETIMEDOUT"', "/^s/", false],
    ['"spawnSync node ETIMEDOUT"', "/^spawnSync .* EPERM$/", false],
    ["x", "/^x$/", false],
    ['"a"', "/^(/", false],
  ])("%s relaxed to %s: %s", (exact, pattern, expected) => {
    expect(isAnchoredRelaxation(exact, pattern)).toBe(expected);
  });
});

interface Shape {
  id: string;
  path: string;
  /** The test with `{{check}}` where the assertion goes. */
  test: string;
  /** The exact check, and the same value against a pattern with `{{pattern}}`. */
  exact: string;
  pattern: string;
  /** The pattern's spelling in that language: anchored relaxation, a fragment anywhere, anything, another value. */
  anchored: string;
  fragment: string;
  anything: string;
  other: string;
}

const SHAPES: Shape[] = [
  {
    id: "ava t.is -> t.regex",
    path: "test/timeout.js",
    test: "import test from 'ava';\nimport {run} from '../source/index.js';\n\ntest('times out', t => {\n\tconst {message} = run();\n\t{{check}};\n});\n",
    exact: "t.is(message, 'spawnSync node ETIMEDOUT')",
    pattern: "t.regex(message, {{pattern}})",
    anchored: "/^spawnSync .*node(?:\\.[A-Za-z]+)? ETIMEDOUT$/",
    fragment: "/ETIMEDOUT/",
    anything: "/^.*$/",
    other: "/^spawnSync .* EPERM$/",
  },
  {
    id: "Jest toBe -> toMatch",
    path: "test/timeout.test.ts",
    test: "import { run } from '../src/run';\n\nit('times out', () => {\n  const { message } = run();\n  {{check}};\n});\n",
    exact: "expect(message).toBe('spawnSync node ETIMEDOUT')",
    pattern: "expect(message).toMatch({{pattern}})",
    anchored: "/^spawnSync .*node(\\.exe)? ETIMEDOUT$/i",
    fragment: "/node/",
    anything: "/^./",
    other: "/^spawnSync node EPERM$/",
  },
  {
    id: "node:assert strictEqual -> match",
    path: "test/timeout.test.js",
    test: "import assert from 'node:assert';\nimport { test } from 'node:test';\nimport { run } from '../src/run.js';\n\ntest('times out', () => {\n  const { message } = run();\n  {{check}};\n});\n",
    exact: "assert.strictEqual(message, 'spawnSync node ETIMEDOUT')",
    pattern: "assert.match(message, {{pattern}})",
    anchored: "/^spawnSync \\S*node ETIMEDOUT$/",
    fragment: "/spawnSync/",
    anything: "/^[\\s\\S]*$/",
    other: "/^spawn node ETIMEDOUT$/",
  },
  {
    id: "pytest == -> re.match",
    path: "tests/test_timeout.py",
    test: "import re\n\nfrom app import run\n\n\ndef test_times_out():\n    message = run().message\n    {{check}}\n",
    exact: 'assert message == "spawnSync node ETIMEDOUT"',
    pattern: "assert re.match({{pattern}}, message)",
    anchored: 'r"^spawnSync .*node(\\.exe)? ETIMEDOUT$"',
    fragment: 'r"ETIMEDOUT"',
    anything: 'r"^.*$"',
    other: 'r"^spawnSync .* EPERM$"',
  },
  {
    id: "RSpec eq -> match",
    path: "spec/timeout_spec.rb",
    test: 'require "spec_helper"\n\nRSpec.describe Runner do\n  it "times out" do\n    message = Runner.run.message\n    {{check}}\n  end\nend\n',
    exact: 'expect(message).to eq("spawnSync node ETIMEDOUT")',
    pattern: "expect(message).to match({{pattern}})",
    anchored: "/\\AspawnSync .*node(\\.exe)? ETIMEDOUT\\z/",
    fragment: "/ETIMEDOUT/",
    anything: "/\\A.*\\z/",
    other: "/\\AspawnSync .* EPERM\\z/",
  },
  {
    id: "testify Equal -> Regexp",
    path: "run/run_test.go",
    test: 'package run\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestTimesOut(t *testing.T) {\n\tmessage := Run().Message\n\t{{check}}\n}\n',
    exact: 'assert.Equal(t, "spawnSync node ETIMEDOUT", message)',
    pattern: "assert.Regexp(t, {{pattern}}, message)",
    anchored: "`^spawnSync .*node(\\.exe)? ETIMEDOUT$`",
    fragment: '"ETIMEDOUT"',
    anything: '"^.*$"',
    other: '"^spawnSync .* EPERM$"',
  },
  {
    id: "PHPUnit assertSame -> assertMatchesRegularExpression",
    path: "tests/RunTest.php",
    test: "<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class RunTest extends TestCase\n{\n    public function testTimesOut(): void\n    {\n        $message = Run::run()->message;\n        {{check}};\n    }\n}\n",
    exact: "$this->assertSame('spawnSync node ETIMEDOUT', $message)",
    pattern: "$this->assertMatchesRegularExpression({{pattern}}, $message)",
    anchored: "'/^spawnSync .*node(\\.exe)? ETIMEDOUT$/'",
    fragment: "'/ETIMEDOUT/'",
    anything: "'/^.*$/'",
    other: "'/^spawnSync .* EPERM$/'",
  },
];

/** The findings of the change from the exact check to `pattern`, as `type/severity`. */
async function relaxed(shape: Shape, pattern: string): Promise<string[]> {
  const before = shape.test.replace("{{check}}", () => shape.exact);
  const after = shape.test.replace("{{check}}", () => shape.pattern.replace("{{pattern}}", () => pattern));
  const analysis = await analyzeChanges([change(shape.path, before, after)]);
  return analysis.findings.map(summarize).map((finding) => finding.split(" ")[0] as string);
}

describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("an exact string relaxed to a pattern: %s", (_, shape) => {
  it("anchored, still accepting the old value and stating most of it: medium assertion_weakening", async () => {
    expect(await relaxed(shape, shape.anchored)).toEqual(["assertion_weakening/medium"]);
  });

  it("a fragment matched anywhere: high assertion_weakening", async () => {
    expect(await relaxed(shape, shape.fragment)).toEqual(["assertion_weakening/high"]);
  });

  it("a pattern accepting nearly anything: high assertion_weakening", async () => {
    expect(await relaxed(shape, shape.anything)).toEqual(["assertion_weakening/high"]);
  });

  it("a pattern that refuses the old value: high assertion_weakening", async () => {
    expect(await relaxed(shape, shape.other)).toEqual(["assertion_weakening/high"]);
  });
});

interface PartialShape {
  id: string;
  path: string;
  /** The test with `{{check}}` where the assertion goes. */
  test: string;
  exact: string;
  /** The partial check with `{{fields}}` where the expected object's entries go. */
  partial: string;
  /** Entries: all the exact check's, one dropped, one changed. */
  all: string;
  fewer: string;
  changed: string;
}

const PARTIAL_SHAPES: PartialShape[] = [
  {
    id: "ava t.deepEqual -> t.like",
    path: "test/flags.js",
    test: "import test from 'ava';\nimport meow from '../source/index.js';\n\ntest('boolean args are false by default', t => {\n\tconst cli = meow({argv: ['--foo'], flags: {foo: {type: 'boolean'}, bar: {type: 'boolean', default: true}, baz: {type: 'boolean'}}});\n\t{{check}};\n});\n",
    exact: "t.deepEqual(cli.flags, {foo: true, bar: true, baz: false})",
    partial: "t.like(cli.flags, {{fields}})",
    all: "{foo: true, bar: true, baz: false}",
    fewer: "{foo: true, bar: true}",
    changed: "{foo: true, bar: true, baz: true}",
  },
  {
    id: "Jest toEqual -> toMatchObject",
    path: "test/flags.test.ts",
    test: "import { parse } from '../src/parse';\n\nit('reads the flags', () => {\n  const flags = parse(['--foo']);\n  {{check}};\n});\n",
    exact: "expect(flags).toEqual({ foo: true, bar: 'x' })",
    partial: "expect(flags).toMatchObject({{fields}})",
    all: "{ foo: true, bar: 'x', extra: 1 }",
    fewer: "{ foo: true }",
    changed: "{ foo: true, bar: 'y' }",
  },
  {
    id: "RSpec eq -> include",
    path: "spec/flags_spec.rb",
    test: 'require "spec_helper"\n\nRSpec.describe Flags do\n  it "reads the flags" do\n    flags = Flags.parse(["--foo"])\n    {{check}}\n  end\nend\n',
    exact: 'expect(flags).to eq({foo: true, bar: "x"})',
    partial: "expect(flags).to include({{fields}})",
    all: '{foo: true, bar: "x"}',
    fewer: "{foo: true}",
    changed: '{foo: true, bar: "y"}',
  },
];

/** The findings of the change from the exact check to the partial one with `fields`, as `type/severity`. */
async function partially(shape: PartialShape, fields: string): Promise<string[]> {
  const before = shape.test.replace("{{check}}", () => shape.exact);
  const after = shape.test.replace("{{check}}", () => shape.partial.replace("{{fields}}", () => fields));
  const analysis = await analyzeChanges([change(shape.path, before, after)]);
  return analysis.findings.map(summarize).map((finding) => finding.split(" ")[0] as string);
}

describe.each(PARTIAL_SHAPES.map((shape) => [shape.id, shape] as const))("an exact object check relaxed to a partial one: %s", (_, shape) => {
  it("every field kept with its value: medium assertion_weakening", async () => {
    expect(await partially(shape, shape.all)).toEqual(["assertion_weakening/medium"]);
  });

  it("a field dropped: high assertion_weakening", async () => {
    expect(await partially(shape, shape.fewer)).toEqual(["assertion_weakening/high"]);
  });

  it("a field's value changed: high assertion_weakening", async () => {
    expect(await partially(shape, shape.changed)).toEqual(["assertion_weakening/high"]);
  });
});

describe("field checks merged into one partial check of their object", () => {
  const path = "test/cli.js";
  const test = (body: string): string =>
    `import test from 'ava';\nimport meow from '../source/index.js';\n\ntest('return object', t => {\n\tconst cli = meow({argv: ['foo', '--foo-bar', '-u', 'cat']});\n${body}});\n`;
  const fields =
    "\tt.is(cli.input.at(0), 'foo');\n\tt.true(cli.flags.fooBar);\n\tt.is(cli.flags.unicorn, 'cat');\n\tt.deepEqual(cli.flags['--'], ['unicorn', 'cake']);\n\tt.is(cli.pkg.name, 'meow');\n";
  const judge = async (after: string): Promise<string[]> => (await analyzeChanges([change(path, test(fields), test(after))])).findings.map(summarize).map((finding) => finding.split(" ")[0] as string);

  it("every field stated with its value: nothing removed or weakened (the index read as an input left aside)", async () => {
    const findings = await judge("\tt.like(cli, {input: ['foo'], flags: {fooBar: true, unicorn: 'cat', '--': ['unicorn', 'cake']}, pkg: {name: 'meow'}});\n");
    expect(findings.filter((finding) => !finding.startsWith("expectation_changed/"))).toEqual([]);
  });

  it("a field left out: assertion_removal", async () => {
    expect(await judge("\tt.like(cli, {input: ['foo'], flags: {fooBar: true, '--': ['unicorn', 'cake']}, pkg: {name: 'meow'}});\n")).toEqual(["assertion_removal/high"]);
  });

  it("a field stated with another value: a finding", async () => {
    expect((await judge("\tt.like(cli, {input: ['foo'], flags: {fooBar: true, unicorn: 'dog', '--': ['unicorn', 'cake']}, pkg: {name: 'meow'}});\n")).length).toBeGreaterThan(0);
  });
});
