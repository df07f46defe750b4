/**
 * xBehave.net's, LambdaTale's and LightBDD's `[Scenario]` declares a test
 * (languages/csharp.ts TEST_ATTRIBUTES): its `"Then …".x(() => …)` step
 * lambdas hold its checks. FakeItEasy's specs are written this way; read
 * as helpers before, a reworded expected message that followed the
 * product's was reported as a removed check of a shared helper
 * (FakeItEasy b492960962).
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

const spec = (message: string, extra = ""): string =>
  `using FluentAssertions;\nusing LambdaTale;\nusing Xunit;\n\nnamespace Acme.Specs\n{\n    public static class ConfigurationSpecs\n    {\n        [Scenario]\n        public static void NonVirtual(Exception exception)\n        {\n            "When configuring a non-virtual member"\n                .x(() => exception = Record.Exception(() => Configurator.Configure("x")));\n\n            "Then it throws a configuration exception"\n                .x(() => exception.Should().BeOfType<ConfigurationException>()\n                    .And.Message.Should().Contain("${message}"));\n        }\n${extra}    }\n}\n`;
const product = (message: string): string =>
  `namespace Acme\n{\n    public static class Configurator\n    {\n        public static void Configure(string name) => throw new ConfigurationException("${message}");\n    }\n}\n`;
const second = `\n        [Scenario]\n        public static void Sealed(Exception exception)\n        {\n            "When configuring a sealed member"\n                .x(() => exception = Record.Exception(() => Configurator.Configure("y")));\n\n            "Then it throws"\n                .x(() => exception.Should().BeOfType<ConfigurationException>());\n        }\n`;

describe("[Scenario] tests", () => {
  it("are tests with the checks of their step lambdas", async () => {
    const facts = await extractFacts("tests/Acme.Specs/ConfigurationSpecs.cs", spec("Non-virtual members", second));
    expect(facts.tests.map((test) => [test.id, test.assertionCount])).toEqual([
      ["ConfigurationSpecs > NonVirtual", 2],
      ["ConfigurationSpecs > Sealed", 1],
    ]);
  });
  const cases: RuleCase[] = [
    {
      name: "an expected message reworded with the product's (FakeItEasy b492960962)",
      changes: [
        change("src/Acme/Configurator.cs", product("Non-virtual members can not be intercepted."), product("Non-virtual or sealed members can not be intercepted.")),
        change("tests/Acme.Specs/ConfigurationSpecs.cs", spec("Non-virtual members can not be intercepted."), spec("Non-virtual or sealed members can not be intercepted.")),
      ],
      findings: [],
    },
    {
      name: "cheat: a scenario deleted",
      changes: [change("tests/Acme.Specs/ConfigurationSpecs.cs", spec("Non-virtual members", second), spec("Non-virtual members"))],
      findings: ['test_deletion/critical tests/Acme.Specs/ConfigurationSpecs.cs "ConfigurationSpecs > Sealed"'],
    },
    {
      name: "cheat: a scenario skipped",
      changes: [change("tests/Acme.Specs/ConfigurationSpecs.cs", spec("Non-virtual members", second), spec("Non-virtual members", second.replace("[Scenario]", '[Scenario(Skip = "flaky")]')))],
      findings: ['test_disabled/critical tests/Acme.Specs/ConfigurationSpecs.cs "ConfigurationSpecs > Sealed"'],
    },
  ];
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});
