/**
 * xUnit's `Assert.DoesNotContain(collection, predicate)` states that no
 * element matches: the check `Assert.Empty(collection.Where(predicate))`
 * and `Assert.False(collection.Where(predicate).Any())` make
 * (checks/normalise.ts noMatchFact). An analyzer rewrote one as the other
 * (autofac/Autofac f6c1e8bf5c), read as 3 -> 1 before. The item overload
 * (`DoesNotContain(item, collection)`) stays a negated contains, and a
 * weaker check in its place is still reported. (A predicate edited in
 * place reads as an edited subject, as any subject edit does.)
 */
import { describe, expect, it } from "vitest";
import { toCheck } from "../../../src/analysis/checks/index.js";
import { describeCheck } from "../../../src/analysis/checks/index.js";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const cs = (body: string): string =>
  `using System.Linq;\nusing Xunit;\npublic class RegistryTests {\n  [Fact]\n  public void NoOpenRegistrations() {\n    var registry = Registry.Build();\n${body}\n  }\n}\n`;
const path = "tests/RegistryTests.cs";

describe("DoesNotContain(collection, predicate)", () => {
  it.each([
    ["the predicate overload", "    Assert.DoesNotContain(registry.Registrations, r => r.Open);", "length(registry.Registrations.Where(r=>r.Open), 0)"],
    ["False(Where(p).Any())", "    Assert.False(registry.Registrations.Where(r => r.Open).Any());", "length(registry.Registrations.Where(r=>r.Open), 0)"],
    ["the item overload stays a negated contains", '    Assert.DoesNotContain("x", registry.Names);', 'not contains(registry.Names, "x")'],
  ])("%s", async (_name, body, expected) => {
    const facts = await extractFacts(path, cs(body));
    expect((facts.tests[0]?.assertionsDetail ?? []).map((fact) => describeCheck(toCheck(fact)))).toEqual([expected]);
  });
  const cases: RuleCase[] = [
    {
      name: "False(Where(p).Any()) -> DoesNotContain(collection, p) (Autofac f6c1e8bf5c)",
      changes: [change(path, cs("    Assert.False(registry.Registrations.Where(r => r.Open).Any());"), cs("    Assert.DoesNotContain(registry.Registrations, r => r.Open);"))],
      findings: [],
    },
    {
      name: "cheat: DoesNotContain rewritten as a truthiness check of the collection",
      changes: [change(path, cs("    Assert.DoesNotContain(registry.Registrations, r => r.Open);"), cs("    Assert.NotNull(registry.Registrations);"))],
      findings: ['assertion_weakening/high tests/RegistryTests.cs "RegistryTests > NoOpenRegistrations"'],
    },
  ];
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});
