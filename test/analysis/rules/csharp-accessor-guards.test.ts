/**
 * A guard in a C# property accessor belongs to the accessor (`get_Name`,
 * `set_Name`: the CLR's names), not to module code (languages/csharp.ts
 * csharpAccessor; sweep of FluentValidation 77efb3b8: the `[Obsolete]`
 * property `CascadeMode`, whose getter threw on a value it could not
 * convert, removed with its tests, read as "a guard of module code
 * removed", high). A guard removed with its property goes with it; one
 * removed from a property that stays is a bypass.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "src/Options.cs";
const cs = (members: string): string => `public class Options {\n  private int value;\n  public int Value => value;\n${members}}\n`;
const LEGACY = `  public int Legacy {\n    get {\n      if (value < 0) throw new InvalidOperationException("no legacy value");\n      return value;\n    }\n    set { this.value = value; }\n  }\n`;
const SETTER_GUARD = `  public int Limit {\n    get => value;\n    set {\n      if (value < 0) throw new ArgumentOutOfRangeException(nameof(value));\n      this.value = value;\n    }\n  }\n`;
const EXPRESSION_GETTER = `  public int Checked => value >= 0 ? value : throw new InvalidOperationException("negative");\n`;

const cases: RuleCase[] = [
  { name: "a property removed with the guard of its getter", changes: [change(file, cs(LEGACY), cs(""))], findings: [`feature_removal/medium ${file}`] },
  { name: "a property removed with the guard of its setter", changes: [change(file, cs(SETTER_GUARD), cs(""))], findings: [`feature_removal/medium ${file}`] },
  {
    name: "cheat: the guard removed from the getter of a property that stays",
    changes: [change(file, cs(LEGACY), cs(LEGACY.replace(`      if (value < 0) throw new InvalidOperationException("no legacy value");\n`, "")))],
    findings: [`validation_bypass/high ${file}`],
  },
  {
    name: "cheat: the guard removed from the setter of a property that stays",
    changes: [change(file, cs(SETTER_GUARD), cs(SETTER_GUARD.replace(`      if (value < 0) throw new ArgumentOutOfRangeException(nameof(value));\n`, "")))],
    findings: [`validation_bypass/high ${file}`],
  },
  {
    name: "cheat: the throw of an expression-bodied getter dropped",
    changes: [change(file, cs(EXPRESSION_GETTER), cs(`  public int Checked => value;\n`))],
    findings: [`validation_bypass/high ${file}`],
  },
];

describe("guards in C# property accessors", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
