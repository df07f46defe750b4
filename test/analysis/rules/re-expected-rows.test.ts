/**
 * A table row re-expected with the code: its other values live on in one
 * added row, only its expected-value cell changed, while the code under
 * test changed (compare.ts expectedCells; sweep of urfave/cli 0ed457cf64:
 * the `default` row of TestArgUsage now expects `[ia]`, and a new
 * `required` row expects the old `ia`). The row was edited as a plain
 * test's expected value may be, not deleted. With the code unchanged the
 * same edit still reads as a row removed and hidden behind added rows.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const SRC = (usage: string): string => `package cli\n\ntype Arg struct {\n\tName     string\n\tRequired bool\n}\n\nfunc (a *Arg) Usage() string {\n${usage}}\n`;
const SRC_BEFORE = SRC("\treturn a.Name\n");
const SRC_AFTER = SRC('\tif a.Required {\n\t\treturn a.Name\n\t}\n\treturn "[" + a.Name + "]"\n');
const TEST_BEFORE =
  'package cli\n\nimport "testing"\n\nfunc TestArgUsage(t *testing.T) {\n\ttests := []struct {\n\t\tname     string\n\t\texpected string\n\t}{\n\t\t{\n\t\t\tname:     "default",\n\t\t\texpected: "ia",\n\t\t},\n\t\t{\n\t\t\tname:     "other",\n\t\t\texpected: "ib",\n\t\t},\n\t}\n\tfor _, test := range tests {\n\t\tt.Run(test.name, func(t *testing.T) {\n\t\t\targ := &Arg{Name: "ia"}\n\t\t\tif got := arg.Usage(); got != test.expected {\n\t\t\t\tt.Errorf("got %q", got)\n\t\t\t}\n\t\t})\n\t}\n}\n';
const TEST_AFTER =
  'package cli\n\nimport "testing"\n\nfunc TestArgUsage(t *testing.T) {\n\ttests := []struct {\n\t\tname     string\n\t\trequired bool\n\t\texpected string\n\t}{\n\t\t{\n\t\t\tname:     "default",\n\t\t\texpected: "[ia]",\n\t\t},\n\t\t{\n\t\t\tname:     "required",\n\t\t\trequired: true,\n\t\t\texpected: "ia",\n\t\t},\n\t\t{\n\t\t\tname:     "other",\n\t\t\texpected: "ib",\n\t\t},\n\t}\n\tfor _, test := range tests {\n\t\tt.Run(test.name, func(t *testing.T) {\n\t\t\targ := &Arg{Name: "ia", Required: test.required}\n\t\t\tif got := arg.Usage(); got != test.expected {\n\t\t\t\tt.Errorf("got %q", got)\n\t\t\t}\n\t\t})\n\t}\n}\n';

const cases: RuleCase[] = [
  { name: "go: a row re-expected as the code changed, a row added", changes: [change("args.go", SRC_BEFORE, SRC_AFTER), change("args_test.go", TEST_BEFORE, TEST_AFTER)], findings: [] },
  {
    name: "go: the same row edit with the code unchanged",
    changes: [change("args_test.go", TEST_BEFORE, TEST_AFTER)],
    findings: ['test_deletion/critical args_test.go "TestArgUsage"'],
  },
];

describe("table rows re-expected with the code", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
