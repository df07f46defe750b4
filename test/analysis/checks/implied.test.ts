/**
 * Checks implied by a whole-value equality, judged soundly
 * (checks/implied.ts): a field check dropped beside a kept equality of the
 * whole value to a literal that holds the field with the same value loses
 * nothing; one the literal contradicts (an impossible test made passable
 * by dropping the check that cannot pass) or one of a field the literal
 * does not hold is still a removal. Also for a deleted test whose checks
 * live on as one whole equality in another test (conservation).
 */
import { describe, expect, it } from "vitest";
import { impliedByWhole, readLiteral } from "../../../src/analysis/checks/implied.js";
import type { Check } from "../../../src/analysis/checks/index.js";
import { change, expectFindings } from "../rules/table.js";

const check = (subject: string, relation: Check["relation"], expected?: string): Check => ({
  subject,
  relation,
  isNegated: false,
  strength: 3,
  isTautology: false,
  isReachable: true,
  line: 1,
  ...(expected === undefined ? {} : { expected }),
});

describe("impliedByWhole", () => {
  const whole = check('parse("x")', "equal", '{port:80,hosts:["a","b"],tls:false,proxy:null}');
  it.each([
    ['parse("x").port', "equal", "80", true],
    ['parse("x").port', "equal", "8080", false],
    ['parse("x").hosts[1]', "equal", '"b"', true],
    ['parse("x").hosts', "length", "2", true],
    ['parse("x").hosts', "length", "3", false],
    ['parse("x").tls', "falsy", undefined, true],
    ['parse("x").tls', "truthy", undefined, false],
    ['parse("x").proxy', "nullish", undefined, true],
    ['parse("x").user', "equal", '"me"', false],
    ['parse("y").port', "equal", "80", null],
  ] as const)("%s %s %s: %s", (subject, relation, expected, implied) => {
    expect(impliedByWhole(check(subject, relation, expected), whole)).toBe(implied);
  });

  it("reads struct literals, keyword constructors, tuples and snapshots", () => {
    expect(readLiteral('Config{port:80,name:"a"}')).toMatchObject({ kind: "record" });
    expect(readLiteral('Owner(pid=4242,mode="lease")')).toMatchObject({ kind: "record" });
    expect(readLiteral('(1,"a")')).toMatchObject({ kind: "list" });
    expect(impliedByWhole(check("r.0", "equal", "1"), check("r", "equal", '(1,"a")'))).toBe(true);
    expect(impliedByWhole(check("issue.code", "equal", '"invalid"'), check("issue", "snapshot", '"{ code: \\"invalid\\", path: [] }"'))).toBe(true);
    expect(readLiteral("make(1)")).toBeNull();
  });
});

describe("a field check dropped beside a kept whole-value equality", () => {
  const JS = (checks: string): string =>
    `import { expect, it } from "vitest";\nimport { parse } from "../src/config.js";\n\nit("parses", () => {\n  const config = parse("port=80");\n  expect(config).toEqual({ port: 80, hosts: [] });\n${checks}});\n`;
  const PY = (checks: string): string => `from config import parse\n\n\ndef test_parses():\n    config = parse("port=80")\n    assert config == {"port": 80, "hosts": []}\n${checks}`;
  const RS = (checks: string): string =>
    `use config::{parse, Config};\n\n#[test]\nfn parses() {\n    let config = parse("port=80");\n    assert_eq!(config, Config { port: 80, hosts: vec![] });\n${checks}}\n`;

  it.each([
    [
      "javascript",
      "test/config.test.js",
      "parses",
      JS("  expect(config.port).toBe(80);\n  expect(config.hosts.length).toBe(0);\n"),
      JS(""),
      JS("  expect(config.port).toBe(8080);\n"),
      JS('  expect(config.user).toBe("me");\n'),
    ],
    [
      "python",
      "tests/test_config.py",
      "test_parses",
      PY('    assert config["port"] == 80\n    assert len(config["hosts"]) == 0\n'),
      PY(""),
      PY('    assert config["port"] == 8080\n'),
      PY('    assert config["user"] == "me"\n'),
    ],
    [
      "rust",
      "tests/config.rs",
      "parses",
      RS("    assert_eq!(config.port, 80);\n    assert!(config.hosts.is_empty());\n"),
      RS(""),
      RS("    assert_eq!(config.port, 8080);\n"),
      RS('    assert_eq!(config.user, "me");\n'),
    ],
  ])("%s", async (_, path, test, withFields, withoutFields, contradicting, unheld) => {
    await expectFindings({ name: "implied", changes: [change(path, withFields, withoutFields)], findings: [] });
    await expectFindings({ name: "contradicted", changes: [change(path, contradicting, withoutFields)], findings: [`assertion_removal/high ${path} "${test}"`] });
    await expectFindings({ name: "not held", changes: [change(path, unheld, withoutFields)], findings: [`assertion_removal/high ${path} "${test}"`] });
  });
});

describe("a deleted test's field checks live on in another test's whole-value equality", () => {
  const HEAD = 'import { expect, it } from "vitest";\nimport { parse } from "../src/config.js";\n\n';
  const WHOLE = `${HEAD}it("parses a port", () => {\n  expect(parse("port=80")).toEqual({ port: 80, hosts: [] });\n});\n`;

  it("agreeing: no finding", async () => {
    await expectFindings({
      name: "agrees",
      changes: [change("test/port.test.js", `${HEAD}it("reads the port", () => {\n  expect(parse("port=80").port).toBe(80);\n});\n`, null), change("test/config.test.js", null, WHOLE)],
      findings: [],
    });
  });

  it("contradicted: the deleted test is lost", async () => {
    await expectFindings({
      name: "contradicts",
      changes: [change("test/port.test.js", `${HEAD}it("reads the port", () => {\n  expect(parse("port=80").port).toBe(8080);\n});\n`, null), change("test/config.test.js", null, WHOLE)],
      findings: ['test_deletion/critical test/port.test.js "reads the port"'],
    });
  });
});

describe("impliedByWhole on keys, inclusions and Ruby hashes", () => {
  const whole = check('parse("x")', "equal", '{"bio"=>"hello","tags"=>["a","b"]}');
  const negated = (part: Check): Check => ({ ...part, isNegated: true });
  it.each([
    [check('parse("x").keys', "contains", '"bio"'), true],
    [check('parse("x").keys()', "contains", '"bio"'), true],
    [check('parse("x").keys', "contains", '"files"'), false],
    [negated(check('parse("x").keys', "contains", '"files"')), true],
    [negated(check('parse("x").keys', "contains", '"bio"')), false],
    [check('parse("x")["bio"]', "contains", '"ell"'), true],
    [check('parse("x")["bio"]', "contains", '"bye"'), false],
    [check('parse("x")["tags"]', "contains", '"b"'), true],
    [check('parse("x")["tags"]', "contains", '"c"'), false],
  ] as const)("%j: %s", (part, implied) => {
    expect(impliedByWhole(part, whole)).toBe(implied);
  });
});

describe("field checks read through a local folded into one equality of what the local was bound to", () => {
  const RB = (body: string): string => `require "minitest/autorun"\nrequire_relative "../lib/form"\n\ndescribe Form do\n  it "parses nested fields" do\n${body}  end\nend\n`;
  const SPEC = (body: string): string => `require_relative "../lib/form"\n\nRSpec.describe Form do\n  it "parses nested fields" do\n${body}  end\nend\n`;
  const PY = (body: string): string => `from form import parse\n\n\ndef test_nested():\n${body}`;
  const minitestFields = (bio: string): string =>
    `    params = Form.parse("profile[bio]=hello&commit=Save")\n    params["profile"]["bio"].must_include "${bio}"\n    params["profile"].keys.must_include "bio"\n    params.keys.wont_include "files"\n    params["commit"].must_equal "Save"\n`;
  const minitestWhole = (hash: string): string => `    Form.parse("profile[bio]=hello&commit=Save").to_h.must_equal(${hash})\n`;
  const rspecFields = (commit: string): string => `    params = Form.parse("commit=Save")\n    expect(params["commit"]).to eq("${commit}")\n    expect(params["files"]).to be_nil\n`;
  const pyFields = (commit: string): string => `    params = parse("commit=Save")\n    assert params["commit"] == "${commit}"\n    assert params["files"] is None\n`;

  it.each([
    ["minitest", "test/form_test.rb", "Form > parses nested fields", RB(minitestFields("hell")), RB(minitestWhole('"profile" => { "bio" => "hello" }, "commit" => "Save"')), RB(minitestFields("bye"))],
    [
      "minitest, a braced hash",
      "test/form_test.rb",
      "Form > parses nested fields",
      RB(minitestFields("hell")),
      RB(minitestWhole('{ "profile" => { "bio" => "hello" }, "commit" => "Save" }')),
      RB(minitestFields("bye")),
    ],
    [
      "rspec",
      "spec/form_spec.rb",
      "Form > parses nested fields",
      SPEC(rspecFields("Save")),
      SPEC('    expect(Form.parse("commit=Save")).to eq({ "commit" => "Save" })\n'),
      SPEC(rspecFields("Quit")),
      "expectation_changed/medium",
    ],
    ["pytest", "tests/test_form.py", "test_nested", PY(pyFields("Save")), PY('    assert parse("commit=Save") == {"commit": "Save"}\n'), PY(pyFields("Quit")), "expectation_changed/medium"],
  ])("%s", async (_, path, test, fields, whole, contradicted, contradiction = "assertion_removal/high") => {
    await expectFindings({ name: "implied", changes: [change(path, fields, whole)], findings: [] });
    // A field the whole equality contradicts: lost, or (paired with it) expected otherwise while the code did not change.
    await expectFindings({ name: "contradicted", changes: [change(path, contradicted, whole)], findings: [`${contradiction} ${path} "${test}"`] });
  });

  it("a key the whole hash holds is no longer absent: still a removal", async () => {
    await expectFindings({
      name: "key held",
      changes: [change("test/form_test.rb", RB(minitestFields("hell")), RB(minitestWhole('"profile" => { "bio" => "hello" }, "commit" => "Save", "files" => ""')))],
      findings: ['assertion_removal/high test/form_test.rb "Form > parses nested fields"'],
    });
  });

  it("a whole equality of another value covers no field of the local", async () => {
    await expectFindings({
      name: "other value",
      changes: [change("test/form_test.rb", RB(minitestFields("hell")), RB('    Form.parse("commit=Save").to_h.must_equal("commit" => "Save")\n'))],
      findings: ['assertion_removal/high test/form_test.rb "Form > parses nested fields"'],
    });
  });
});
