/**
 * A closure a test binds to a name and calls once per mode (Go's `run :=
 * func(t *testing.T, enc bool)` called from subtests `decode` and `encode`,
 * a Rust `let run = |encode: bool| { … }`, a Python function defined in the
 * test) is a helper of that test: each call checks what the closure checks
 * with its arguments, a branch its arguments rule out checking nothing
 * (sweep of BurntSushi/toml 21961ea9d5). When the calls are folded into one
 * body, each call lives on where its checks do and the fields its
 * arguments set (`Runner{Encoder: enc}`) are still set, unless the product
 * dropped the field (AssertionHelperFact.paramSinks). Known gap: a Python
 * keyword parameter is no declared name, so a knob dropped from a Python
 * product is not seen as gone.
 */
import { describe, expect, it } from "vitest";
import { checksOf } from "../../../src/analysis/checks/index.js";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings } from "../rules/table.js";

const GO = 'package kv_test\n\nimport (\n\t"testing"\n\n\t"example.com/kv"\n)\n\n';
const GO_BEFORE = `${GO}func TestCodec(t *testing.T) {\n\trun := func(t *testing.T, enc bool) {\n\t\tr := kv.Runner{Encoder: enc}\n\t\tfor _, c := range r.Run() {\n\t\t\tif c.Failed() {\n\t\t\t\tt.Fatalf("%s", c.Path)\n\t\t\t}\n\t\t\tif !enc && c.Valid {\n\t\t\t\tif c.Keys == 0 {\n\t\t\t\t\tt.Errorf("%s: no keys", c.Path)\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}\n\tt.Run("decode", func(t *testing.T) { run(t, false) })\n\tt.Run("encode", func(t *testing.T) { run(t, true) })\n}\n`;

describe("a test's closure is a helper of its subtests (Go)", () => {
  it("each subtest checks what the closure checks with its arguments; a branch they rule out checks nothing", async () => {
    const facts = await extractFacts("kv_test.go", GO_BEFORE);
    const checks = (name: string): string[] =>
      checksOf(facts.tests.find((test) => test.name === name) ?? facts.tests[0]!, facts.assertionHelpers)
        .filter((check) => check.isReachable)
        .map((check) => `${check.relation}(${check.subject})`);
    expect(checks("decode")).toEqual(["helper(run(t,false))", "other(c.Failed())", "equal(c.Keys)"]);
    expect(checks("encode")).toEqual(["helper(run(t,true))", "other(c.Failed())"]);
    expect(facts.assertionHelpers?.find((helper) => helper.name.startsWith("run@"))?.paramSinks).toEqual([{ param: "enc", key: "Encoder" }]);
  });
});

interface FoldCase {
  lang: string;
  test: string;
  product: string;
  /** The product before, and after with the mode field dropped (the one runner now runs both directions). */
  productBefore: string;
  productAfter: string;
  before: string;
  folded: string;
  /** The deleted mode's id when the calls were subtests (Go), else the test's. */
  lost: string;
}

const RS_PRODUCT = (field: string): string => `pub struct Runner {\n    pub cases: Vec<(String, String)>,\n${field}}\n`;
const PY_PRODUCT = (field: string): string => `from dataclasses import dataclass\n\n\n@dataclass\nclass Runner:\n    cases: list\n${field}`;

const folds: FoldCase[] = [
  {
    lang: "go",
    test: "kv_test.go",
    product: "runner.go",
    productBefore: "package kv\n\ntype Runner struct {\n\tEncoder bool\n}\n",
    productAfter: "package kv\n\ntype Runner struct {\n\tCases []string\n}\n",
    before: GO_BEFORE,
    folded: `${GO}func TestCodec(t *testing.T) {\n\tr := kv.Runner{}\n\tfor _, c := range r.Run() {\n\t\tif c.Failed() {\n\t\t\tt.Fatalf("%s", c.Path)\n\t\t}\n\t\tif c.Valid {\n\t\t\tif c.Keys == 0 {\n\t\t\t\tt.Errorf("%s: no keys", c.Path)\n\t\t\t}\n\t\t}\n\t}\n}\n`,
    lost: "TestCodec > encode",
  },
  {
    lang: "rust",
    test: "tests/codec.rs",
    product: "src/lib.rs",
    productBefore: RS_PRODUCT("    pub encode: bool,\n"),
    productAfter: RS_PRODUCT(""),
    before:
      'use kv::Runner;\n\n#[test]\nfn codec() {\n    let run = |encode: bool| {\n        let r = Runner { cases: cases(), encode };\n        for c in r.run() {\n            assert!(!c.failed(), "{}", c.path);\n        }\n    };\n    run(false);\n    run(true);\n}\n',
    folded: 'use kv::Runner;\n\n#[test]\nfn codec() {\n    let r = Runner { cases: cases() };\n    for c in r.run() {\n        assert!(!c.failed(), "{}", c.path);\n    }\n}\n',
    lost: "codec",
  },
  {
    lang: "python",
    test: "tests/test_codec.py",
    product: "kv/runner.py",
    productBefore: PY_PRODUCT("    encode: bool = False\n"),
    productAfter: PY_PRODUCT(""),
    before:
      "from kv.runner import Runner\n\n\ndef test_codec():\n    def run(encode):\n        runner = Runner(CASES, encode=encode)\n        for case in runner.run():\n            assert not case.failed, case.path\n\n    run(False)\n    run(True)\n",
    folded: "from kv.runner import Runner\n\n\ndef test_codec():\n    runner = Runner(CASES)\n    for case in runner.run():\n        assert not case.failed, case.path\n",
    lost: "test_codec",
  },
];

// Python's knob is a keyword parameter, which the product's declared names do not list (known gap: its removal is not seen), so only the cheat runs for it.
describe.each(folds.filter((one) => one.lang !== "python"))("calls of a mode closure folded into one body, the knob gone ($lang)", (one) => {
  it("the product dropped the mode's field (one runner for both): no finding", async () => {
    await expectFindings({ name: "knob gone", changes: [change(one.product, one.productBefore, one.productAfter), change(one.test, one.before, one.folded)], findings: [] });
  });
});

describe.each(folds)("calls of a mode closure folded into one body ($lang)", (one) => {
  it("the product keeps the field: the mode its call set runs nowhere any more", async () => {
    const findings = await expectFindings({ name: "mode dropped", changes: [change(one.test, one.before, one.folded)], findings: [`assertion_removal/high ${one.test} "${one.lost}"`] });
    expect(JSON.stringify(findings[0]?.evidence?.removed)).toMatch(/run\(t?,?(true|True)\)/);
  });
});
