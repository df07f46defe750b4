/**
 * An inline check rewritten as a call of a helper that pins the same value
 * (issue 9, class helper-re-expects-inline; sweep of theskumar/python-dotenv
 * 43340da220: `assert result == "b\n"` on `sh.dotenv("get", "a")` became
 * `check_process(result, exit_code=0, stdout="x\n")`, the helper asserting
 * `process.stdout == stdout` when given one). The helper call is judged by
 * the checks it makes with the call's arguments, not by the fixed middle
 * strength of a helper call: an equality of the same local (or a member of
 * it) expecting a literal of the same kind re-expects the value, an
 * expectation_changed when the test's data changed with it. A helper call
 * that leaves the value unchecked (the output argument omitted, so the
 * helper's `if stdout is not None` check never runs; a helper that checks
 * only the exit code) is still a weakening. One table per language.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

interface HelperCase {
  lang: string;
  path: string;
  test: string;
  before: string;
  /** The inline check moved into a helper call that pins the value again, with new data. */
  viaHelper: string;
  /** The cheat: the helper call leaves out the value the inline check pinned. */
  valueLeftOut: string;
}

const PY_HELPER = "def check_process(process, exit_code, stdout=None):\n    assert process.returncode == exit_code\n    if stdout is not None:\n        assert process.stdout == stdout\n\n\n";
const PY = (helper: string, body: string): string => `from tests.run import run_dotenv\n\n\n${helper}def test_get(tmp_path):\n${body}`;

const JS_HELPER = "function checkProcess(result, code, stdout) {\n  expect(result.exitCode).toBe(code);\n  if (stdout !== undefined) {\n    expect(result.stdout).toBe(stdout);\n  }\n}\n\n";
const JS = (helper: string, body: string): string => `import { run } from "./run.js";\n\n${helper}test("get", async () => {\n${body}});\n`;

const GO_HELPER =
  'func checkProcess(t *testing.T, res Result, code int, stdout string) {\n\tt.Helper()\n\tif res.Code != code {\n\t\tt.Errorf("code %d", res.Code)\n\t}\n\tif res.Stdout != stdout {\n\t\tt.Errorf("stdout %q", res.Stdout)\n\t}\n}\n\nfunc checkCode(t *testing.T, res Result, code int) {\n\tt.Helper()\n\tif res.Code != code {\n\t\tt.Errorf("code %d", res.Code)\n\t}\n}\n\n';
const GO = (helper: string, body: string): string => `package cli\n\nimport "testing"\n\n${helper}func TestGet(t *testing.T) {\n${body}}\n`;

const RB_HELPER = "  def check_process(result, code, stdout = nil)\n    assert_equal code, result.exit_code\n    assert_equal stdout, result.stdout unless stdout.nil?\n  end\n\n";
const RB = (helper: string, body: string): string => `require "minitest/autorun"\n\nclass CliTest < Minitest::Test\n${helper}  def test_get\n${body}  end\nend\n`;

const cases: HelperCase[] = [
  {
    lang: "python",
    path: "tests/test_cli.py",
    test: "test_get",
    before: PY(PY_HELPER, '    (tmp_path / ".env").write_text("a=b")\n    result = run_dotenv(["get", "a"], cwd=tmp_path)\n    assert result.stdout == "b\\n"\n'),
    viaHelper: PY(PY_HELPER, '    (tmp_path / ".env").write_text("A=x")\n    result = run_dotenv(["get", "A"], cwd=tmp_path)\n    check_process(result, exit_code=0, stdout="x\\n")\n'),
    valueLeftOut: PY(PY_HELPER, '    (tmp_path / ".env").write_text("A=x")\n    result = run_dotenv(["get", "A"], cwd=tmp_path)\n    check_process(result, exit_code=0)\n'),
  },
  {
    lang: "javascript",
    path: "test/cli.test.js",
    test: "get",
    before: JS(JS_HELPER, '  const result = await run(["get", "a"]);\n  expect(result.stdout).toBe("b\\n");\n'),
    viaHelper: JS(JS_HELPER, '  const result = await run(["get", "A"]);\n  checkProcess(result, 0, "x\\n");\n'),
    valueLeftOut: JS(JS_HELPER, '  const result = await run(["get", "A"]);\n  checkProcess(result, 0);\n'),
  },
  {
    lang: "go",
    path: "cli_test.go",
    test: "TestGet",
    before: GO(GO_HELPER, '\tres := Run("get", "a")\n\tif res.Stdout != "b\\n" {\n\t\tt.Errorf("stdout %q", res.Stdout)\n\t}\n'),
    viaHelper: GO(GO_HELPER, '\tres := Run("get", "A")\n\tcheckProcess(t, res, 0, "x\\n")\n'),
    valueLeftOut: GO(GO_HELPER, '\tres := Run("get", "A")\n\tcheckCode(t, res, 0)\n'),
  },
  {
    lang: "ruby",
    path: "test/cli_test.rb",
    test: "CliTest > test_get",
    before: RB(RB_HELPER, '    result = run_cli("get", "a")\n    assert_equal "b\\n", result.stdout\n'),
    viaHelper: RB(RB_HELPER, '    result = run_cli("get", "A")\n    check_process(result, 0, "x\\n")\n'),
    valueLeftOut: RB(RB_HELPER, '    result = run_cli("get", "A")\n    check_process(result, 0)\n'),
  },
];

describe.each(cases)("an inline check re-expected through a helper call ($lang)", (one) => {
  it("the helper pins the value again: an expectation change, no weakening", async () => {
    await expectFindings({ name: "via helper", changes: [change(one.path, one.before, one.viaHelper)], findings: [`expectation_changed/medium ${one.path} "${one.test}"`] });
  });

  it("a helper call that leaves the value unchecked is still a weakening", async () => {
    await expectFindings({ name: "value left out", changes: [change(one.path, one.before, one.valueLeftOut)], findings: [`assertion_weakening/high ${one.path} "${one.test}"`] });
  });
});
