/**
 * Guards made constant, per language: a guard whose condition gains
 * `&& false` (`and False`), or whose `else` branch raises under a
 * condition made `|| true`, never fires: high validation_bypass
 * ("guard_made_constant"). Look-alikes: a condition narrowed by a real
 * check, a feature flag that was already there, a constant condition
 * where there was no guard.
 */
import { describe, expect, it } from "vitest";
import { constantValue } from "../../../src/analysis/rules/constant-condition.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const bypass = (path: string): string => `validation_bypass/high ${path}`;
const row = (name: string, path: string, before: string, after: string, findings: string[]): RuleCase => ({ name, changes: [change(path, before, after)], findings });

const invalid: RuleCase[] = [
  row(
    "go: if err != nil && false",
    "store/save.go",
    "package store\n\nfunc Save(p string) error {\n\terr := write(p)\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n",
    "package store\n\nfunc Save(p string) error {\n\terr := write(p)\n\tif err != nil && false {\n\t\treturn err\n\t}\n\treturn nil\n}\n",
    [bypass("store/save.go")],
  ),
  row(
    "typescript: && false on a throwing guard",
    "src/range.ts",
    'export function check(n: number): number {\n  if (n < 0) throw new RangeError("negative");\n  return n;\n}\n',
    'export function check(n: number): number {\n  if (n < 0 && false) throw new RangeError("negative");\n  return n;\n}\n',
    [bypass("src/range.ts")],
  ),
  row(
    "typescript: || true before an else that throws",
    "src/range.ts",
    'export function check(n: number): number {\n  if (n >= 0) {\n    return n;\n  } else {\n    throw new RangeError("negative");\n  }\n}\n',
    'export function check(n: number): number {\n  if (n >= 0 || true) {\n    return n;\n  } else {\n    throw new RangeError("negative");\n  }\n}\n',
    [bypass("src/range.ts")],
  ),
  row(
    "python: and False",
    "app/range.py",
    'def check(n):\n    if n < 0:\n        raise ValueError("negative")\n    return n\n',
    'def check(n):\n    if n < 0 and False:\n        raise ValueError("negative")\n    return n\n',
    [bypass("app/range.py")],
  ),
  row(
    "java: && false",
    "src/main/java/Range.java",
    'class Range {\n  static int check(int n) {\n    if (n < 0) throw new IllegalArgumentException("negative");\n    return n;\n  }\n}\n',
    'class Range {\n  static int check(int n) {\n    if (n < 0 && false) throw new IllegalArgumentException("negative");\n    return n;\n  }\n}\n',
    [bypass("src/main/java/Range.java")],
  ),
  row(
    "csharp: && false",
    "src/Range.cs",
    'class Range\n{\n    static int Check(int n)\n    {\n        if (n < 0) throw new ArgumentException("negative");\n        return n;\n    }\n}\n',
    'class Range\n{\n    static int Check(int n)\n    {\n        if (n < 0 && false) throw new ArgumentException("negative");\n        return n;\n    }\n}\n',
    [bypass("src/Range.cs")],
  ),
  row(
    "rust: && false",
    "src/range.rs",
    'pub fn check(n: i64) -> Result<i64, String> {\n    if n < 0 {\n        return Err("negative".into());\n    }\n    Ok(n)\n}\n',
    'pub fn check(n: i64) -> Result<i64, String> {\n    if n < 0 && false {\n        return Err("negative".into());\n    }\n    Ok(n)\n}\n',
    [bypass("src/range.rs")],
  ),
  row(
    "ruby: && false on a raise modifier",
    "lib/range.rb",
    'module Range2\n  def self.check(n)\n    raise ArgumentError, "negative" if n < 0\n    n\n  end\nend\n',
    'module Range2\n  def self.check(n)\n    raise ArgumentError, "negative" if n < 0 && false\n    n\n  end\nend\n',
    [bypass("lib/range.rb")],
  ),
  row(
    "php: && false",
    "src/Range.php",
    '<?php\n\nfunction check(int $n): int\n{\n    if ($n < 0) {\n        throw new InvalidArgumentException("negative");\n    }\n    return $n;\n}\n',
    '<?php\n\nfunction check(int $n): int\n{\n    if ($n < 0 && false) {\n        throw new InvalidArgumentException("negative");\n    }\n    return $n;\n}\n',
    [bypass("src/Range.php")],
  ),
];

const valid: RuleCase[] = [
  row(
    "typescript: a guard narrowed by a real flag",
    "src/range.ts",
    'export function check(n: number): number {\n  if (n < 0) throw new RangeError("negative");\n  return n;\n}\n',
    'export function check(n: number, strict: boolean): number {\n  if (n < 0 && strict) throw new RangeError("negative");\n  return n;\n}\n',
    [],
  ),
  row("python: a constant condition that guards nothing new", "app/range.py", "def check(n):\n    return n\n", "def check(n):\n    if False:\n        print(n)\n    return n\n", []),
  row(
    "go: an existing && false left alone",
    "store/save.go",
    'package store\n\nfunc Save(p string) error {\n\tif p == "" && false {\n\t\treturn errEmpty\n\t}\n\treturn nil\n}\n',
    'package store\n\nfunc Save(p string) error {\n\tif p == "" && false {\n\t\treturn errEmpty\n\t}\n\treturn write(p)\n}\n',
    [],
  ),
];

describe("guards made constant: flagged", () => {
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("guards made constant: look-alikes not flagged", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("constantValue", () => {
  it.each([
    ["err!=nil&&false", false],
    ["x < 0 and False", false],
    ["!(ok||true)", false],
    ["not(ok or True)", false],
    ["(a && false) || b", null],
    ["a || true", true],
    ["false", false],
    ["x<0", null],
    ['s == "&& false"', null],
  ] as const)("%s -> %s", (condition, value) => {
    expect(constantValue(condition)).toBe(value);
  });
});
