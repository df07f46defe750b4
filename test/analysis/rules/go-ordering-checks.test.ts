/**
 * Go's `if n < 0 { t.Error(…) }` requires `n >= 0` of its operands
 * (checks/relations.ts): it had no subject, so a migration from testify's
 * `assert.True(t, n >= 0)` read as weaker (sweep of rs/xid 2c7e97ce).
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "id_test.go";
const go = (imports: string, body: string): string => `package xid\n\nimport (\n\t"testing"\n${imports})\n\nfunc TestNew(t *testing.T) {\n\tsecs := New().Time().Sub(time.Now()).Seconds()\n${body}}\n`;
const TESTIFY = `\t"github.com/stretchr/testify/assert"\n`;

const cases: RuleCase[] = [
  {
    name: "assert.True(t, n >= 0) -> if n < 0 { t.Error }",
    changes: [change(file, go(TESTIFY, `\tassert.True(t, secs >= 0)\n`), go("", `\tif secs < 0 {\n\t\tt.Error("negative")\n\t}\n`))],
    findings: [],
  },
  {
    name: "cheat: the bound check dropped in the migration",
    changes: [change(file, go(TESTIFY, `\tassert.True(t, secs >= 0)\n\tassert.True(t, secs <= 30)\n`), go("", `\tif secs < 0 {\n\t\tt.Error("negative")\n\t}\n`))],
    findings: [`assertion_removal/high ${file} "TestNew"`],
  },
];

describe("go: ordering checks written as if-conditions", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
