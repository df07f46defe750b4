/**
 * Go's `if err == nil { t.Errorf(…) }` expects an error of the call `err`
 * was bound to (issue 9 gap: it was a check with no subject, so a
 * carve-out or a rewrite of it could not be judged by what it checks):
 * it is the negated equality `err != nil` on that call, as testify's
 * `assert.Error(t, err)` and `require.NotNil(t, v)` are. A condition with
 * a false conjunct (`err == nil && false`) never holds: the check never
 * fails, a tautology.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "parse_test.go";
const go = (imports: string, body: string): string => `package p\n\nimport (\n\t"testing"\n${imports})\n\nfunc TestParseRejects(t *testing.T) {\n${body}}\n`;
const TESTIFY = `\t"github.com/stretchr/testify/assert"\n`;
const IF_NIL = `\t_, err := Parse("x")\n\tif err == nil {\n\t\tt.Errorf("Parse(%q): want an error", "x")\n\t}\n`;

const cases: RuleCase[] = [
  { name: "if err == nil { t.Errorf } -> assert.Error", changes: [change(file, go("", IF_NIL), go(TESTIFY, `\t_, err := Parse("x")\n\tassert.Error(t, err)\n`))], findings: [] },
  {
    name: "assert.Error -> if err == nil { t.Fatal }",
    changes: [change(file, go(TESTIFY, `\t_, err := Parse("x")\n\tassert.Error(t, err)\n`), go("", IF_NIL.replace("t.Errorf", "t.Fatalf")))],
    findings: [],
  },
  { name: "the check moved into the if's initializer", changes: [change(file, go("", IF_NIL), go("", `\tif _, err := Parse("x"); err == nil {\n\t\tt.Errorf("want an error")\n\t}\n`))], findings: [] },
  {
    name: "cheat: the error check made to run only for another input",
    changes: [change(file, go("", IF_NIL), go("", `\t_, err := Parse("x")\n\tif err == nil && false {\n\t\tt.Errorf("Parse(%q): want an error", "x")\n\t}\n`))],
    findings: [`assertion_weakening/high ${file} "TestParseRejects"`],
  },
  {
    name: "cheat: a check that the call succeeds made constant (err != nil && false)",
    changes: [
      change(
        file,
        go("", `\tv, err := Parse("1")\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\t_ = v\n`),
        go("", `\tv, err := Parse("1")\n\tif err != nil && false {\n\t\tt.Fatal(err)\n\t}\n\t_ = v\n`),
      ),
    ],
    findings: [`assertion_weakening/high ${file} "TestParseRejects"`],
  },
  {
    name: "cheat: the error check dropped",
    changes: [change(file, go("", IF_NIL + `\tif Parse2("y") != 2 {\n\t\tt.Error("y")\n\t}\n`), go("", `\tParse("x")\n\tif Parse2("y") != 2 {\n\t\tt.Error("y")\n\t}\n`))],
    findings: [`assertion_removal/high ${file} "TestParseRejects"`],
  },
];

describe("go: an error expected by `if err == nil`", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
