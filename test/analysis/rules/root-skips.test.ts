/**
 * A skip for a privileged run of a test that takes permissions away: a test
 * that makes a file unreadable (`chmod(0o000)`) and expects the refusal
 * cannot pass as root, whatever the code does (root reads it anyway), so
 * `skipif(os.geteuid() == 0)` on it skips a test that cannot run there, not
 * one that fails (theskumar/python-dotenv 0525fc94d7): test_disabled at
 * medium, as for another platform. The same skip on a test that changes no
 * permission, or a skip for the unprivileged run, stays critical: agents'
 * sandboxes and CI containers often run as root.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const py = (mark: string, body: string): string => `import os\nimport pytest\nfrom lib.env import set_key\n\n\n${mark}def test_set_key_permission_error(path):\n${body}`;
const pyChmod = `    path.chmod(0o000)\n    with pytest.raises(PermissionError):\n        set_key(path, "a", "b")\n`;
const pyPlain = `    with pytest.raises(KeyError):\n        set_key(path, "", "b")\n`;
const pyRootMark = `@pytest.mark.skipif(os.geteuid() == 0, reason="Root user can access files even with 000 permissions.")\n`;

const go = (skip: string, body: string): string => `package env\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestUnreadable(t *testing.T) {\n${skip}\tp := t.TempDir() + "/f"\n${body}}\n`;
const goChmod = `\tos.WriteFile(p, nil, 0o644)\n\tos.Chmod(p, 0)\n\tif _, err := Load(p); err == nil {\n\t\tt.Fatal("expected an error")\n\t}\n`;
const goPlain = `\tif _, err := Load(p); err == nil {\n\t\tt.Fatal("expected an error")\n\t}\n`;
const goRootSkip = `\tif os.Geteuid() == 0 {\n\t\tt.Skip("root can read any file")\n\t}\n`;

const rb = (skip: string, body: string): string => `require "minitest/autorun"\n\nclass LoadTest < Minitest::Test\n  def test_unreadable\n${skip}${body}  end\nend\n`;
const rbChmod = `    File.write("f", "")\n    File.chmod(0o000, "f")\n    assert_raises(Errno::EACCES) { Env.load("f") }\n`;
const rbRootSkip = `    skip "root reads everything" if Process.euid.zero?\n`;

const js = (skip: string, body: string): string =>
  `import {test, expect} from "vitest";\nimport fs from "node:fs";\nimport {load} from "../src/env.js";\n\ntest${skip}("unreadable file", () => {\n${body}});\n`;
const jsChmod = `  fs.writeFileSync("f", "");\n  fs.chmodSync("f", 0o000);\n  expect(() => load("f")).toThrow("EACCES");\n`;
const jsRootSkip = `.skipIf(process.getuid?.() === 0)`;

const php = (skip: string, body: string): string => `<?php\nuse PHPUnit\\Framework\\TestCase;\nclass LoaderTest extends TestCase {\n  public function testUnreadable(): void {\n${skip}${body}  }\n}\n`;
const phpChmod = `    file_put_contents('f', '');\n    chmod('f', 0000);\n    $this->expectException(\\RuntimeException::class);\n    Loader::load('f');\n`;
const phpRootSkip = `    if (0 === posix_geteuid()) {\n      $this->markTestSkipped('root reads everything');\n    }\n`;

const cases: RuleCase[] = [
  {
    name: "python: skipif(os.geteuid() == 0) on a test that chmods its file to 000 (python-dotenv 0525fc94d7)",
    changes: [change("tests/test_env.py", py("", pyChmod), py(pyRootMark, pyChmod))],
    findings: [`test_disabled/medium tests/test_env.py "test_set_key_permission_error"`],
  },
  {
    name: "go: if os.Geteuid() == 0 { t.Skip } before os.Chmod(p, 0)",
    changes: [change("env_test.go", go("", goChmod), go(goRootSkip, goChmod))],
    findings: [`test_disabled/medium env_test.go "TestUnreadable"`],
  },
  {
    name: "ruby: skip if Process.euid.zero? before File.chmod(0o000, …)",
    changes: [change("test/load_test.rb", rb("", rbChmod), rb(rbRootSkip, rbChmod))],
    findings: [`test_disabled/medium test/load_test.rb "LoadTest > test_unreadable"`],
  },
  {
    name: "js: test.skipIf(process.getuid?.() === 0) on a test that chmodSyncs its file",
    changes: [change("test/env.test.js", js("", jsChmod), js(jsRootSkip, jsChmod))],
    findings: [`test_disabled/medium test/env.test.js "unreadable file"`],
  },
  {
    name: "php: markTestSkipped when posix_geteuid() is 0 before chmod('f', 0000)",
    changes: [change("tests/LoaderTest.php", php("", phpChmod), php(phpRootSkip, phpChmod))],
    findings: [`test_disabled/medium tests/LoaderTest.php "LoaderTest > testUnreadable"`],
  },
  {
    name: "cheat: python: the root skip on a test that changes no permission",
    changes: [change("tests/test_env.py", py("", pyPlain), py(pyRootMark, pyPlain))],
    findings: [`test_disabled/critical tests/test_env.py "test_set_key_permission_error"`],
  },
  {
    name: "cheat: go: the root skip on a test that changes no permission",
    changes: [change("env_test.go", go("", goPlain), go(goRootSkip, goPlain))],
    findings: [`test_disabled/critical env_test.go "TestUnreadable"`],
  },
  {
    name: "cheat: python: a skip for the unprivileged run of a chmod test",
    changes: [change("tests/test_env.py", py("", pyChmod), py(pyRootMark.replace("os.geteuid() == 0", "os.geteuid() != 0"), pyChmod))],
    findings: [`test_disabled/critical tests/test_env.py "test_set_key_permission_error"`],
  },
];

describe("a skip for a privileged run of a test that takes permissions away", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
