/**
 * Issue 9's look-alikes that rewrite a check into an equivalent or stronger
 * form (the rewrites branch): a Go failure guard of a disjunction read as one
 * check per disjunct; and the cheats of the same shapes, which must still be
 * findings.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const goFile = (body: string): string => `package calc\n\nimport "testing"\n\n${body}`;

const lookAlikes: RuleCase[] = [
  {
    name: "go: an error check and an equality check merged into one if err != nil || got != want",
    changes: [
      change(
        "calc/parse_test.go",
        goFile(`func TestParse(t *testing.T) {\n\tgot, err := Parse("7")\n\tif err != nil {\n\t\tt.Fatalf("Parse: %v", err)\n\t}\n\tif got != 7 {\n\t\tt.Errorf("got %d", got)\n\t}\n}\n`),
        goFile(`func TestParse(t *testing.T) {\n\tgot, err := Parse("7")\n\tif err != nil || got != 7 {\n\t\tt.Errorf("got %d, %v", got, err)\n\t}\n}\n`),
      ),
    ],
    findings: [],
  },
];

const cheats: RuleCase[] = [
  {
    name: "go: the merged guard kept the error check and dropped the equality",
    changes: [
      change(
        "calc/parse_test.go",
        goFile(`func TestParse(t *testing.T) {\n\tgot, err := Parse("7")\n\tif err != nil || got != 7 {\n\t\tt.Errorf("got %d, %v", got, err)\n\t}\n}\n`),
        goFile(`func TestParse(t *testing.T) {\n\t_, err := Parse("7")\n\tif err != nil {\n\t\tt.Errorf("Parse: %v", err)\n\t}\n}\n`),
      ),
    ],
    findings: [`assertion_removal/high calc/parse_test.go "TestParse"`],
  },
];

describe("rewritten checks: legitimate rewrites give no test finding", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("rewritten checks: the same rewrites hiding a lost check are findings", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
