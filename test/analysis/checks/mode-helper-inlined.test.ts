/**
 * A helper that runs the same checks in two modes (`runConformance(t, false)`
 * for one test, `runConformance(t, true)` for another, the mode selecting
 * `if next { r.Version = "1.1" }` in the helper) inlined into one test as
 * the product keeps one mode (sweep of BurntSushi/toml 52534926c5). The
 * deleted test's helper call lives on where each of the helper's checks
 * does and the inlined code still feeds the literals of the branch its
 * argument selected (AssertionHelperFact.paramArms). Inlined in the other
 * mode, the same checks run, but not the deleted test's: still a removal.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings } from "../rules/table.js";

interface ModeCase {
  lang: string;
  path: string;
  before: string;
  /** Inlined into the kept test in the deleted test's mode. */
  inlined: string;
  /** Inlined in the kept test's (other) mode. */
  otherMode: string;
  deleted: string;
}

const GO_HEAD = 'package kv_test\n\nimport (\n\t"testing"\n\n\t"example.com/kv"\n)\n\n';
const GO_LOOP = '\tfor _, c := range p.Cases() {\n\t\tif got := p.Decode(c.In); got != c.Want {\n\t\t\tt.Errorf("%s: got %q", c.In, got)\n\t\t}\n\t}\n';
const PY_HEAD = "from kv import Parser\n\n";
const PY_LOOP = "    for case in parser.cases():\n        assert parser.decode(case.text) == case.want\n";
const RS_HEAD = "use kv::Parser;\n\n";
const RS_LOOP = "    for (input, want) in p.cases() {\n        assert_eq!(p.decode(input), want);\n    }\n";

const cases: ModeCase[] = [
  {
    lang: "go",
    path: "kv_test.go",
    deleted: "TestDecodeNext",
    before: `${GO_HEAD}func TestDecode(t *testing.T) {\n\trunDecode(t, false)\n}\n\nfunc TestDecodeNext(t *testing.T) {\n\trunDecode(t, true)\n}\n\nfunc runDecode(t *testing.T, next bool) {\n\tp := kv.NewParser()\n\tif next {\n\t\tp.Version = "1.1"\n\t}\n${GO_LOOP}}\n`,
    inlined: `${GO_HEAD}func TestDecode(t *testing.T) {\n\tp := kv.NewParser()\n\tp.Version = "1.1"\n${GO_LOOP}}\n`,
    otherMode: `${GO_HEAD}func TestDecode(t *testing.T) {\n\tp := kv.NewParser()\n${GO_LOOP}}\n`,
  },
  {
    lang: "python",
    path: "tests/test_kv.py",
    deleted: "test_decode_strict",
    before: `${PY_HEAD}def _run_decode(strict):\n    parser = Parser()\n    if strict:\n        parser.mode = "strict"\n${PY_LOOP}\n\ndef test_decode():\n    _run_decode(False)\n\n\ndef test_decode_strict():\n    _run_decode(True)\n`,
    inlined: `${PY_HEAD}def test_decode():\n    parser = Parser()\n    parser.mode = "strict"\n${PY_LOOP}`,
    otherMode: `${PY_HEAD}def test_decode():\n    parser = Parser()\n${PY_LOOP}`,
  },
  {
    lang: "rust",
    path: "tests/kv.rs",
    deleted: "decodes_strict",
    before: `${RS_HEAD}fn run_decode(strict: bool) {\n    let mut p = Parser::new();\n    if strict {\n        p.set_mode("strict");\n    }\n${RS_LOOP}}\n\n#[test]\nfn decodes() {\n    run_decode(false);\n}\n\n#[test]\nfn decodes_strict() {\n    run_decode(true);\n}\n`,
    inlined: `${RS_HEAD}#[test]\nfn decodes() {\n    let mut p = Parser::new();\n    p.set_mode("strict");\n${RS_LOOP}}\n`,
    otherMode: `${RS_HEAD}#[test]\nfn decodes() {\n    let mut p = Parser::new();\n${RS_LOOP}}\n`,
  },
];

describe.each(cases)("a mode helper inlined into its test ($lang)", (one) => {
  it("records the helper's branches on its parameter (AssertionHelperFact.paramArms)", async () => {
    const facts = await extractFacts(one.path, one.before);
    const arms = facts.assertionHelpers?.flatMap((helper) => helper.paramArms ?? []) ?? [];
    expect(arms).toEqual([expect.objectContaining({ when: true, literals: ['"1.1"'].map((literal) => (one.lang === "go" ? literal : '"strict"')) })]);
  });

  it("in the deleted test's mode: its checks live on", async () => {
    await expectFindings({ name: "inlined", changes: [change(one.path, one.before, one.inlined)], findings: [] });
  });

  it("in the other mode: the deleted test's checks are made nowhere", async () => {
    const findings = await expectFindings({ name: "other mode", changes: [change(one.path, one.before, one.otherMode)], findings: [`assertion_removal/high ${one.path} "${one.deleted}"`] });
    expect(findings[0]?.message).toMatch(/made nowhere/);
  });
});
