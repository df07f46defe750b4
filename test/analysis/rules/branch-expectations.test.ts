/**
 * The expectations of two branches unified (issue 9, checks conserved in
 * another shape): a test that checked the same values with other expected
 * values on one platform (`if (isWindows) { ... } else { ... }`) keeps one
 * branch's checks unconditionally. Every value is still pinned in every
 * environment, to another expected value in the dropped branch's: at most
 * an expectation_changed, never an assertion_removal. A value no longer
 * checked in some environment, or checks kept only under the other branch's
 * condition, are still removals. One table per language.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";
import { negatedCondition } from "../../../src/analysis/checks/normalise.js";
import { change, expectFindings } from "./table.js";

interface BranchCase {
  lang: string;
  path: string;
  /** Source with the branch (before), the unified checks (after), the cheat that drops a value, and the cheat that keeps the checks under the negated condition only. */
  before: string;
  unified: string;
  valueDropped: string;
  negatedOnly: string;
  test: string;
}

const JS_HEAD = "import test from 'ava';\nimport {platform} from 'node:process';\nimport {run} from '../source/index.js';\n\nconst isWindows = platform === 'win32';\n\n";
const JS_BODY = (body: string): string => `${JS_HEAD}test('kills twice', async t => {\n\tconst {isTerminated, signal, code} = await t.throwsAsync(run('forever.js'));\n${body}});\n`;

const PY_BODY = (body: string): string => `import sys\n\nfrom proc import run\n\n\ndef test_kills_twice():\n    result = run("forever")\n${body}`;

const GO_BODY = (body: string): string => `package proc\n\nimport (\n\t"runtime"\n\t"testing"\n)\n\nfunc TestKillsTwice(t *testing.T) {\n\tres := Run("forever")\n${body}}\n`;

const RS_BODY = (body: string): string => `use proc::run;\n\n#[test]\nfn kills_twice() {\n    let res = run("forever");\n${body}}\n`;

const cases: BranchCase[] = [
  {
    lang: "javascript",
    path: "test/kill.js",
    test: "kills twice",
    before: JS_BODY(
      "\tif (isWindows) {\n\t\tt.false(isTerminated);\n\t\tt.is(signal, undefined);\n\t\tt.is(code, 'EPERM');\n\t} else {\n\t\tt.true(isTerminated);\n\t\tt.is(signal, 'SIGTERM');\n\t\tt.is(code, undefined);\n\t}\n",
    ),
    unified: JS_BODY("\tt.true(isTerminated);\n\tt.is(signal, 'SIGTERM');\n\tt.is(code, undefined);\n"),
    valueDropped: JS_BODY("\tt.true(isTerminated);\n\tt.is(signal, 'SIGTERM');\n"),
    negatedOnly: JS_BODY("\tif (!isWindows) {\n\t\tt.true(isTerminated);\n\t\tt.is(signal, 'SIGTERM');\n\t\tt.is(code, undefined);\n\t}\n"),
  },
  {
    lang: "python",
    path: "tests/test_kill.py",
    test: "test_kills_twice",
    before: PY_BODY(
      '    if sys.platform == "win32":\n        assert not result.terminated\n        assert result.signal is None\n        assert result.code == "EPERM"\n    else:\n        assert result.terminated\n        assert result.signal == "SIGTERM"\n        assert result.code is None\n',
    ),
    unified: PY_BODY('    assert result.terminated\n    assert result.signal == "SIGTERM"\n    assert result.code is None\n'),
    valueDropped: PY_BODY('    assert result.terminated\n    assert result.signal == "SIGTERM"\n'),
    negatedOnly: PY_BODY('    if sys.platform != "win32":\n        assert result.terminated\n        assert result.signal == "SIGTERM"\n        assert result.code is None\n'),
  },
  {
    lang: "go",
    path: "proc_test.go",
    test: "TestKillsTwice",
    before: GO_BODY(
      '\tif runtime.GOOS == "windows" {\n\t\tif res.Signal != "" {\n\t\t\tt.Errorf("signal %q", res.Signal)\n\t\t}\n\t\tif res.Code != "EPERM" {\n\t\t\tt.Errorf("code %q", res.Code)\n\t\t}\n\t} else {\n\t\tif res.Signal != "SIGTERM" {\n\t\t\tt.Errorf("signal %q", res.Signal)\n\t\t}\n\t\tif res.Code != "" {\n\t\t\tt.Errorf("code %q", res.Code)\n\t\t}\n\t}\n',
    ),
    unified: GO_BODY('\tif res.Signal != "SIGTERM" {\n\t\tt.Errorf("signal %q", res.Signal)\n\t}\n\tif res.Code != "" {\n\t\tt.Errorf("code %q", res.Code)\n\t}\n'),
    valueDropped: GO_BODY('\tif res.Signal != "SIGTERM" {\n\t\tt.Errorf("signal %q", res.Signal)\n\t}\n'),
    negatedOnly: GO_BODY(
      '\tif runtime.GOOS != "windows" {\n\t\tif res.Signal != "SIGTERM" {\n\t\t\tt.Errorf("signal %q", res.Signal)\n\t\t}\n\t\tif res.Code != "" {\n\t\t\tt.Errorf("code %q", res.Code)\n\t\t}\n\t}\n',
    ),
  },
  {
    lang: "rust",
    path: "tests/kill.rs",
    test: "kills_twice",
    before: RS_BODY(
      '    if cfg!(windows) {\n        assert!(!res.terminated);\n        assert_eq!(res.signal, None);\n        assert_eq!(res.code, Some("EPERM"));\n    } else {\n        assert!(res.terminated);\n        assert_eq!(res.signal, Some("SIGTERM"));\n        assert_eq!(res.code, None);\n    }\n',
    ),
    unified: RS_BODY('    assert!(res.terminated);\n    assert_eq!(res.signal, Some("SIGTERM"));\n    assert_eq!(res.code, None);\n'),
    valueDropped: RS_BODY('    assert!(res.terminated);\n    assert_eq!(res.signal, Some("SIGTERM"));\n'),
    negatedOnly: RS_BODY('    if !cfg!(windows) {\n        assert!(res.terminated);\n        assert_eq!(res.signal, Some("SIGTERM"));\n        assert_eq!(res.code, None);\n    }\n'),
  },
];

describe.each(cases)("branch expectations unified ($lang)", (one) => {
  it("records the branch each assertion runs in (AssertionFact.conditions)", async () => {
    const facts = await extractFacts(one.path, one.before);
    const conditions = facts.tests[0]?.assertionsDetail?.map((fact) => fact.conditions?.length ?? 0) ?? [];
    expect(conditions.filter((count) => count === 1).length).toBeGreaterThanOrEqual(4);
  });

  it("one branch's checks kept unconditionally: an expectation change, no removal", async () => {
    await expectFindings({ name: "unified", changes: [change(one.path, one.before, one.unified)], findings: [`expectation_changed/medium ${one.path} "${one.test}"`] });
  });

  it("a value no longer checked in the dropped branch's environment is still removed", async () => {
    const findings = await expectFindings({ name: "dropped", changes: [change(one.path, one.before, one.valueDropped)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
    expect(findings[0]?.message).toMatch(/2 of the/);
  });

  it("the checks kept under the negated condition only are still removed", async () => {
    await expectFindings({ name: "negated", changes: [change(one.path, one.before, one.negatedOnly)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });
});

describe("the branch an assertion runs in (AssertionFact.conditions)", () => {
  it.each([
    ['runtime.GOOS=="windows"', 'runtime.GOOS!="windows"'],
    ["a!==b", "a===b"],
    ["isWindows", "!isWindows"],
    ["!isWindows", "isWindows"],
    ["cfg!(windows)", "!cfg!(windows)"],
    ["!cfg!(windows)", "cfg!(windows)"],
    ["isWindows&&majorNodeVersion===22", "!(isWindows&&majorNodeVersion===22)"],
    ["!(isWindows&&majorNodeVersion===22)", "isWindows&&majorNodeVersion===22"],
    ["sys.version_info<(3,11)", "!(sys.version_info<(3,11))"],
  ])("negates %s as %s", (condition, negated) => {
    expect(negatedCondition(condition)).toBe(negated);
  });

  it("an elif chain: each arm runs when every condition before it failed (Python)", async () => {
    const facts = await extractFacts(
      "tests/test_a.py",
      "def test_a():\n    r = f()\n    if a:\n        assert r == 1\n    elif b:\n        assert r == 2\n    else:\n        assert r == 3\n    assert r\n",
    );
    expect(facts.tests[0]?.assertionsDetail?.map((fact) => fact.conditions)).toEqual([["a"], ["!a", "b"], ["!a", "!b"], undefined]);
  });

  it("Ruby's unless and modifier forms", async () => {
    const facts = await extractFacts(
      "test/a_test.rb",
      "class ATest < Minitest::Test\n  def test_a\n    r = f\n    unless windows?\n      assert_equal 1, r\n    end\n    assert_equal 2, r if fast?\n  end\nend\n",
    );
    expect(facts.tests[0]?.assertionsDetail?.map((fact) => fact.conditions)).toEqual([["!windows?"], ["fast?"]]);
  });

  it("Go: the `if` of an `if got != want { t.Errorf }` check is the check, not a branch", async () => {
    const facts = await extractFacts("a_test.go", 'package a\n\nimport "testing"\n\nfunc TestA(t *testing.T) {\n\tgot := F()\n\tif got != 1 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n');
    expect(facts.tests[0]?.assertionsDetail?.[0]?.conditions).toBeUndefined();
  });

  it("a copy of a check kept only in the other branch is no twin and covers nothing in this one", async () => {
    const before = PY_BODY(
      '    if sys.platform == "win32":\n        assert result.code == "EPERM"\n        assert result.done\n    else:\n        assert result.code is None\n        assert result.done\n',
    );
    const after = PY_BODY('    if sys.platform != "win32":\n        assert result.code is None\n        assert result.done\n');
    const findings = await expectFindings({ name: "other branch", changes: [change("tests/test_kill.py", before, after)], findings: ['assertion_removal/high tests/test_kill.py "test_kills_twice"'] });
    expect(findings[0]?.message).toMatch(/^2 of the 4/);
  });
});
