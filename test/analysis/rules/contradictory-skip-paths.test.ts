/**
 * A skip reached only through contradictory conditions never runs: a Go
 * helper that calls `skip(t, …)` only when `runtime.Compiler == "tinygo"`,
 * where `skip` calls `t.Skip` only in its `default:` arm (the compiler is
 * not tinygo), skips no test (sirupsen/logrus 108008340c: TinyGo has no
 * `t.Skip`, so the helper logs there and skips elsewhere, and nothing
 * calls it elsewhere). The conditions of each hop (an `if` arm, a `switch`
 * case, a `default:` arm: none of the cases) are joined; a path holding a
 * condition and its negation is dead. A path whose conditions can hold
 * together still skips, under a condition.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const header = `package logrus\n\nimport (\n\t"runtime"\n\t"testing"\n)\n\n`;
const tests = `func TestCaller(t *testing.T) {\n\tif skipReportCaller(t) {\n\t\treturn\n\t}\n\tif Caller() == "" {\n\t\tt.Fatal("no caller")\n\t}\n}\n`;
const before = `${header}func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\tif runtime.Compiler == "tinygo" {\n\t\tt.Log("SKIP: TinyGo does not support runtime.Caller")\n\t\treturn true\n\t}\n\treturn false\n}\n\n${tests}`;
const skipHelper = (arm: string): string =>
  `// tinygo doesn't support t.Skip\nfunc skip(t *testing.T, msg string) {\n\tt.Helper()\n\tswitch runtime.Compiler {\n\tcase "tinygo":\n\t\t${arm === "default" ? "t.Log(msg)" : "t.Skip(msg)"}\n\tdefault:\n\t\t${arm === "default" ? "t.Skip(msg)" : "t.Log(msg)"}\n\t}\n}\n\n`;
const caller = (guard: string): string =>
  `func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\tswitch runtime.Compiler {\n\tcase "tinygo":\n\t\t${guard}\n\t\treturn true\n\tdefault:\n\t\treturn false\n\t}\n}\n\n`;

const cases: RuleCase[] = [
  {
    name: "go: a skip in a default: arm reached only from the tinygo case",
    changes: [change("logrus_test.go", before, `${header}${caller(`skip(t, "TinyGo does not support runtime.Caller")`)}${skipHelper("default")}${tests}`)],
    findings: [],
  },
  {
    name: "go: an if arm and an else arm of one condition",
    changes: [
      change(
        "logrus_test.go",
        before,
        `${header}func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\tif runtime.Compiler == "tinygo" {\n\t\tskip(t, "no runtime.Caller")\n\t\treturn true\n\t}\n\treturn false\n}\n\nfunc skip(t *testing.T, msg string) {\n\tif runtime.Compiler == "tinygo" {\n\t\tt.Log(msg)\n\t} else {\n\t\tt.Skip(msg)\n\t}\n}\n\n${tests}`,
      ),
    ],
    findings: [],
  },
  {
    name: "cheat: go: the skip in the same case the caller reaches it from",
    changes: [change("logrus_test.go", before, `${header}${caller(`skip(t, "TinyGo does not support runtime.Caller")`)}${skipHelper("tinygo")}${tests}`)],
    findings: [`test_disabled/critical logrus_test.go "TestCaller"`],
  },
  {
    name: "cheat: go: the skip reached from the default arm, on every other compiler",
    changes: [
      change(
        "logrus_test.go",
        before,
        `${header}func skipReportCaller(t *testing.T) bool {\n\tt.Helper()\n\tswitch runtime.Compiler {\n\tcase "tinygo":\n\t\treturn true\n\tdefault:\n\t\tskip(t, "off")\n\t\treturn false\n\t}\n}\n\n${skipHelper("default")}${tests}`,
      ),
    ],
    findings: [`test_disabled/critical logrus_test.go "TestCaller"`],
  },
];

describe("a skip reached only through contradictory conditions", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
