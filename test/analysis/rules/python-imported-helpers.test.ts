/**
 * Assertions moved into a helper another Python module defines (issue 9:
 * "a call to a local or imported helper that asserts contributes the
 * helper's checks"): `from tests.lib import check_process` or `from .lib
 * import check_process`, the helper asserting what the test asserted inline
 * (theskumar/python-dotenv 43340da220: `assert result == "b\n"` became
 * `check_process(result, exit_code=0, stdout="b\n")`). The call is the
 * helper's checks instantiated with its arguments, resolved in the changed
 * files or read from the tree. The nearest cheats stay findings: the helper
 * asserting nothing, a call passing another expected value, a call dropped.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type UnchangedFiles } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

const INLINE = `from app.cli import run\n\n\ndef test_get():\n    result = run(["get", "a"])\n    assert result.returncode == 0\n    assert result.stdout == "b\\n"\n\n\ndef test_list():\n    result = run(["list"])\n    assert result.returncode == 0\n    assert result.stdout == "a=b\\n"\n`;
const helperTests = (from: string, listExpected = "a=b\\n", dropList = false): string =>
  `from app.cli import run\n${from}\n\n\ndef test_get():\n    result = run(["get", "a"])\n    check_process(result, exit_code=0, stdout="b\\n")\n\n\ndef test_list():\n    result = run(["list"])\n${dropList ? "" : `    check_process(result, exit_code=0, stdout="${listExpected}")\n`}`;
const LIB = `def check_process(process, exit_code, stdout=None):\n    assert process.returncode == exit_code, f"exit code {process.returncode}"\n    if stdout is not None:\n        assert process.stdout == stdout\n`;
const HOLLOW = `def check_process(process, exit_code, stdout=None):\n    print(process.returncode, exit_code, stdout)\n`;
const unchanged = (files: Record<string, string>): UnchangedFiles => ({ paths: () => Object.keys(files), read: (file) => files[file] ?? null });
const path = "tests/test_cli.py";

describe("python: assertions moved into a helper of another module", () => {
  it.each([
    ["an absolute import of a new module (python-dotenv 43340da220)", "from tests.lib import check_process", "tests/lib.py"],
    ["a relative import of a new module", "from .lib import check_process", "tests/lib.py"],
    ["an import of a sibling module on the test's path", "from helpers import check_process", "tests/helpers.py"],
    ["an aliased import", "from tests.lib import check_process as check_process", "tests/lib.py"],
  ])("%s: no finding", async (_name, from, module) => {
    const analysis = await analyzeChanges([change(path, INLINE, helperTests(from)), change(module, null, LIB)]);
    expect(analysis.findings.map(summarize)).toEqual([]);
  });

  it("onto a helper of an unchanged module read from the tree: no finding", async () => {
    const analysis = await analyzeChanges([change(path, INLINE, helperTests("from tests.lib import check_process"))], { unchanged: unchanged({ "tests/lib.py": LIB }) });
    expect(analysis.findings.map(summarize)).toEqual([]);
  });

  it("cheat: onto an imported helper that asserts nothing: assertion_removal for each test", async () => {
    const analysis = await analyzeChanges([change(path, INLINE, helperTests("from tests.lib import check_process")), change("tests/lib.py", null, HOLLOW)]);
    expect(analysis.findings.map(summarize).sort()).toEqual([`assertion_removal/high ${path} "test_get"`, `assertion_removal/high ${path} "test_list"`]);
  });

  it("cheat: the imported helper's assertions dropped: a finding for each test calling it", async () => {
    const tests = helperTests("from tests.lib import check_process");
    const analysis = await analyzeChanges([change(path, tests, tests), change("tests/lib.py", LIB, HOLLOW)]);
    expect(
      analysis.findings
        .filter((finding) => finding.severity === "high" || finding.severity === "critical")
        .map((finding) => finding.test)
        .sort(),
    ).toEqual(["test_get", "test_list"]);
  });

  it("cheat: a call passing another expected value: a finding for that test", async () => {
    const analysis = await analyzeChanges([change(path, INLINE, helperTests("from tests.lib import check_process", "x\\n")), change("tests/lib.py", null, LIB)]);
    expect(analysis.findings.map((finding) => finding.test)).toEqual(["test_list"]);
  });

  it("a helper of the same file reading members of the local passed, by keyword, under a None default: no finding", async () => {
    const local = helperTests("").replace("from app.cli import run\n", `from app.cli import run\n\n\n${LIB}`);
    const analysis = await analyzeChanges([change(path, INLINE, local)]);
    expect(analysis.findings.map(summarize)).toEqual([]);
  });

  it("cheat: the call leaves the optional expected output out, so its check never runs: assertion_removal", async () => {
    const tests = helperTests("from tests.lib import check_process").replace(`check_process(result, exit_code=0, stdout="a=b\\n")`, "check_process(result, exit_code=0)");
    const analysis = await analyzeChanges([change(path, INLINE, tests), change("tests/lib.py", null, LIB)]);
    expect(analysis.findings.map(summarize)).toEqual([`assertion_removal/high ${path} "test_list"`]);
  });

  it("cheat: the call passes None as the expected output: assertion_removal", async () => {
    const tests = helperTests("from tests.lib import check_process").replace(`stdout="a=b\\n"`, "stdout=None");
    const analysis = await analyzeChanges([change(path, INLINE, tests), change("tests/lib.py", null, LIB)]);
    expect(analysis.findings.map(summarize)).toEqual([`assertion_removal/high ${path} "test_list"`]);
  });

  it("cheat: a call dropped: assertion_removal for that test", async () => {
    const analysis = await analyzeChanges([change(path, INLINE, helperTests("from tests.lib import check_process", "a=b\\n", true)), change("tests/lib.py", null, LIB)]);
    expect(analysis.findings.map(summarize)).toEqual([`assertion_removal/high ${path} "test_list"`]);
  });
});
