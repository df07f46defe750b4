/**
 * Deleted tests with no real check (rules/features.ts, TestCase.callNames):
 * such a test still guards that its calls do not throw or panic, so its
 * deletion is a critical test_deletion, unless every call it makes reaches
 * code the change retired (a function removed, an overload no longer
 * accepted): then it went with that code (feature_removal, medium). One call
 * of surviving code with surviving inputs keeps it critical, as does a call
 * that other tests make only with other inputs (python's
 * `parse_header("a=1;")` deleted while `parse_header("a=1; b=2")` is still
 * checked: the input is what it guarded).
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const lookAlikes: RuleCase[] = [
  {
    name: "go: a test that only printed a removed function's results, deleted with the function",
    changes: [
      change(
        "show.go",
        'package show\n\nfunc Trim(s string) string { return s }\n\nfunc Dump(v int) (string, error) { return "", nil }\n',
        "package show\n\nfunc Trim(s string) string { return s }\n",
      ),
      change(
        "show_test.go",
        'package show\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestTrim(t *testing.T) {\n\tif Trim("a") != "a" {\n\t\tt.Error("trim")\n\t}\n}\n\nfunc TestDump(t *testing.T) {\n\tout, err := Dump(1)\n\tfmt.Printf("%s %v\\n", out, err)\n}\n',
        'package show\n\nimport "testing"\n\nfunc TestTrim(t *testing.T) {\n\tif Trim("a") != "a" {\n\t\tt.Error("trim")\n\t}\n}\n',
      ),
    ],
    findings: ["feature_removal/medium show.go", `feature_removal/medium show_test.go "TestDump"`],
  },
  {
    name: "python: a smoke test of an overload the change removed (a parameter dropped)",
    changes: [
      change("pkg/sink.py", "class Sink:\n    def write(self, line, flush=False):\n        return line\n", "class Sink:\n    def write(self, line):\n        return line\n"),
      change(
        "tests/test_sink.py",
        'from pkg.sink import Sink\n\n\ndef test_write():\n    assert Sink().write("a") == "a"\n\n\ndef test_write_flush_does_not_raise():\n    Sink().write("a", True)\n',
        'from pkg.sink import Sink\n\n\ndef test_write():\n    assert Sink().write("a") == "a"\n',
      ),
    ],
    findings: [`feature_removal/medium tests/test_sink.py "test_write_flush_does_not_raise"`],
  },
  {
    name: "js: a smoke test of a removed export with only a tautology",
    changes: [
      change("src/dump.js", "export const trim = s => s.trim();\nexport const dump = v => String(v);\n", "export const trim = s => s.trim();\n"),
      change(
        "test/dump.test.js",
        "import {trim, dump} from '../src/dump.js';\n\ntest('trim', () => {\n\texpect(trim(' a ')).toBe('a');\n});\n\ntest('dump runs', () => {\n\tdump(1);\n\texpect(true).toBe(true);\n});\n",
        "import {trim} from '../src/dump.js';\n\ntest('trim', () => {\n\texpect(trim(' a ')).toBe('a');\n});\n",
      ),
    ],
    findings: ["feature_removal/medium src/dump.js", `feature_removal/medium test/dump.test.js "dump runs"`],
  },
];

const cheats: RuleCase[] = [
  {
    name: "go: a print-only test that also calls surviving code, deleted with one removed function",
    changes: [
      change(
        "show.go",
        'package show\n\nfunc Trim(s string) string { return s }\n\nfunc Dump(v int) (string, error) { return "", nil }\n',
        "package show\n\nfunc Trim(s string) string { return s[1:] }\n",
      ),
      change(
        "show_test.go",
        'package show\n\nimport (\n\t"fmt"\n\t"testing"\n)\n\nfunc TestShow(t *testing.T) {\n\tout, err := Dump(1)\n\tfmt.Printf("%s %v\\n", out, err)\n\tfmt.Println(Trim(""))\n}\n',
        'package show\n\nimport "testing"\n',
      ),
    ],
    findings: ["feature_removal/medium show.go", `test_deletion/critical show_test.go "TestShow"`],
  },
  {
    name: "python: a smoke test of a surviving function deleted while another input of it is still checked",
    changes: [
      change("hdr/parse.py", "def parse(line):\n    return dict(p.split('=') for p in line.split(';') if p)\n", "def parse(line):\n    return dict(p.split('=') for p in line.split(';'))\n"),
      change(
        "tests/test_parse.py",
        'from hdr.parse import parse\n\n\ndef test_two():\n    assert parse("a=1;b=2") == {"a": "1", "b": "2"}\n\n\ndef test_trailing_separator():\n    parse("a=1;")\n',
        'from hdr.parse import parse\n\n\ndef test_two():\n    assert parse("a=1;b=2") == {"a": "1", "b": "2"}\n',
      ),
    ],
    findings: [`test_deletion/critical tests/test_parse.py "test_trailing_separator"`],
  },
];

describe("check-free tests deleted with the code they call: feature_removal at medium", () => {
  for (const rule of lookAlikes) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("check-free tests deleted while what they ran survives: still critical", () => {
  for (const rule of cheats) it(rule.name, async () => void (await expectFindings(rule)));
});
