/**
 * A runtime type guard taken over by a declared parameter type: PHP
 * enforces a typed parameter at call time with a TypeError (php.net,
 * "Type declarations"), Java and C# at compile time, so `if
 * (!\is_array($v) && !$v instanceof \Closure) throw new \TypeError(…)`
 * removed while the function now declares `array|\Closure $v` refuses the
 * same inputs (symfony/console 28424b5ff9: the BC layer reading
 * `func_get_arg(4)` became a typed parameter). The declared type must
 * admit nothing the guard refused: a wider declaration (`mixed`, `array|
 * string` where the guard took arrays only, a nullable type where it
 * refused null) keeps the removal a bypass.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const php = (signature: string, guard: string): string =>
  `<?php\nclass Command {\n  public function addArgument(string $name, ${signature}): static {\n${guard}    $this->values = $suggested;\n    return $this;\n  }\n}\n`;
const guard = `    if (!\\is_array($suggested) && !$suggested instanceof \\Closure) {\n      throw new \\TypeError(sprintf('Argument 2 passed to "%s()" must be array or \\Closure, "%s" given.', __METHOD__, get_debug_type($suggested)));\n    }\n`;
const before = php("mixed $suggested = []", guard);

const java = (param: string, guard: string): string => `package acme;\npublic class Registry {\n  public void register(${param}) {\n${guard}    this.value = value;\n  }\n}\n`;
const javaGuard = `    if (!(value instanceof String)) {\n      throw new IllegalArgumentException("value must be a String");\n    }\n`;

const cases: RuleCase[] = [
  { name: "php: the guard taken over by array|\\Closure", changes: [change("src/Command.php", before, php("array|\\Closure $suggested = []", ""))], findings: [] },
  { name: "php: the guard taken over by \\Closure|array (order)", changes: [change("src/Command.php", before, php("\\Closure|array $suggested = []", ""))], findings: [] },
  {
    name: "java: an instanceof guard taken over by the parameter's type",
    changes: [change("src/main/java/acme/Registry.java", java("Object value", javaGuard), java("String value", ""))],
    findings: [],
  },
  {
    name: "cheat: php: the guard removed, the parameter still mixed",
    changes: [change("src/Command.php", before, php("mixed $suggested = []", ""))],
    findings: [`validation_bypass/high src/Command.php`],
  },
  {
    name: "cheat: php: the guard removed, the declaration wider than the guard (array|string)",
    changes: [change("src/Command.php", before, php("array|string $suggested = []", ""))],
    findings: [`validation_bypass/high src/Command.php`],
  },
  {
    name: "cheat: php: the guard removed, the declaration nullable",
    changes: [change("src/Command.php", before, php("?array $suggested = []", ""))],
    findings: [`validation_bypass/high src/Command.php`],
  },
  {
    name: "cheat: java: the guard removed, the parameter still Object",
    changes: [change("src/main/java/acme/Registry.java", java("Object value", javaGuard), java("Object value", ""))],
    findings: [`validation_bypass/high src/main/java/acme/Registry.java`],
  },
];

describe("a runtime type guard taken over by a declared parameter type", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
