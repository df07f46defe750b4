/**
 * The rows of a PHPUnit test with data providers (sweep of brick/math
 * d7f2df4 and a8507be): a test runs with the rows of every provider it
 * names (each `#[DataProvider]` attribute, each `@dataProvider` tag), and a
 * generator's rows are counted from its source only when each `yield` runs
 * once: a `yield` in a loop or a `yield from` yields rows the source does
 * not number.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "tests/MathTest.php";
const php = (attributes: string, providers: string): string =>
  `<?php\nuse PHPUnit\\Framework\\TestCase;\nuse PHPUnit\\Framework\\Attributes\\DataProvider;\nclass MathTest extends TestCase {\n${attributes}  public function testSqrt(string $number, string $expected): void {\n    $this->assertSame($expected, Math::sqrt($number));\n  }\n\n${providers}}\n`;
const provider = (name: string, rows: string): string => `  public static function ${name}(): \\Generator {\n${rows}  }\n\n`;
const arrayProvider = (name: string, rows: string[]): string => `  public static function ${name}(): array {\n    return [\n${rows.map((row) => `      ${row},\n`).join("")}    ];\n  }\n\n`;
const attr = (name: string): string => `  #[DataProvider('${name}')]\n`;
const ROWS = ["['0', '0']", "['1', '1']", "['4', '2']", "['9', '3']", "['16', '4']"];

const cases: RuleCase[] = [
  {
    name: "a returned array turned into a generator whose loop yields the rows",
    changes: [
      change(
        file,
        php(attr("providerSqrt"), arrayProvider("providerSqrt", ROWS)),
        php(
          attr("providerSqrt"),
          provider("providerSqrt", `    yield ['0', '0'];\n    yield ['1', '1'];\n    foreach (range(2, 100) as $n) {\n      yield [(string) ($n * $n), (string) $n];\n    }\n`),
        ),
      ),
    ],
    findings: [],
  },
  {
    name: "rows moved into a provider the generator delegates to (yield from)",
    changes: [
      change(file, php(attr("providerSqrt"), arrayProvider("providerSqrt", ROWS)), php(attr("providerSqrt"), provider("providerSqrt", `    yield ['0', '0'];\n    yield from self::squares();\n`))),
    ],
    findings: [],
  },
  {
    name: "providers added beside the first, the last with one row",
    changes: [
      change(
        file,
        php(attr("providerSqrt"), arrayProvider("providerSqrt", ROWS)),
        php(
          attr("providerSqrt") + attr("providerSqrtLarge") + attr("providerSqrtTies"),
          arrayProvider("providerSqrt", ROWS) + arrayProvider("providerSqrtLarge", ["['10000', '100']", "['1000000', '1000']"]) + provider("providerSqrtTies", `    yield ['2.25', '1.5'];\n`),
        ),
      ),
    ],
    findings: [],
  },
  {
    name: "a docblock naming two providers",
    changes: [
      change(
        file,
        php(`  /** @dataProvider providerSqrt */\n`, arrayProvider("providerSqrt", ROWS)),
        php(`  /**\n   * @dataProvider providerSqrt\n   * @dataProvider providerSqrtTies\n   */\n`, arrayProvider("providerSqrt", ROWS) + provider("providerSqrtTies", `    yield ['2.25', '1.5'];\n`)),
      ),
    ],
    findings: [],
  },
  {
    name: "cheat: rows dropped from the one provider",
    changes: [change(file, php(attr("providerSqrt"), arrayProvider("providerSqrt", ROWS)), php(attr("providerSqrt"), arrayProvider("providerSqrt", ROWS.slice(0, 2))))],
    findings: [`test_deletion/critical ${file} "MathTest > testSqrt"`],
  },
  {
    name: "cheat: one of two providers no longer named",
    changes: [
      change(
        file,
        php(attr("providerSqrt") + attr("providerSqrtLarge"), arrayProvider("providerSqrt", ROWS) + arrayProvider("providerSqrtLarge", ["['10000', '100']", "['1000000', '1000']"])),
        php(attr("providerSqrt"), arrayProvider("providerSqrt", ROWS) + arrayProvider("providerSqrtLarge", ["['10000', '100']", "['1000000', '1000']"])),
      ),
    ],
    findings: [`test_deletion/critical ${file} "MathTest > testSqrt"`],
  },
];

describe("the rows of a PHPUnit test's data providers", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
