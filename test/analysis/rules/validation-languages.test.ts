/**
 * validation_bypass in the tree-sitter languages: suppressions added (each
 * kind, with its line and text), guards removed; and the look-alikes that
 * must not flag: an unchanged or shifted suppression, the suppression's text
 * inside a string literal, the same edit in a test file, a reformatted guard.
 */
import { describe, expect, it } from "vitest";
import type { SuppressionKind } from "../../../src/analysis/facts.js";
import { change, edit, expectFindings } from "./table.js";

/** One product file per language, with a guard where the language has guards. */
interface Base {
  path: string;
  /** A test file of the language, where the same edit must find nothing. */
  testPath: string;
  source: string;
}

const BASES = {
  python: {
    path: "src/shop/cart.py",
    testPath: "tests/test_cart.py",
    source: `from typing import Any, cast


class Cart:
    def add(self, qty: int) -> int:
        if qty < 0 or qty > 100:
            raise ValueError("qty out of range")
        label = "qty"
        return self.total + qty + len(label)
`,
  },
  go: {
    path: "shop/cart.go",
    testPath: "shop/cart_test.go",
    source: `package shop

import "fmt"

func (c *Cart) Add(qty int) (int, error) {
	if qty < 0 {
		return 0, fmt.Errorf("qty %d out of range", qty)
	}
	label := "qty"
	return c.total + qty + len(label), nil
}
`,
  },
  rust: {
    path: "src/cart.rs",
    testPath: "tests/cart.rs",
    source: `pub struct Cart { total: i32 }

impl Cart {
    pub fn add(&mut self, qty: i32) -> Result<i32, String> {
        if qty < 0 {
            return Err(format!("qty {} out of range", qty));
        }
        let label = "qty";
        Ok(self.total + qty + label.len() as i32)
    }
}
`,
  },
  java: {
    path: "src/main/java/shop/Cart.java",
    testPath: "src/test/java/shop/CartTest.java",
    source: `package shop;

public class Cart {
    private int total;

    public int add(int qty) {
        if (qty < 0) {
            throw new IllegalArgumentException("qty out of range");
        }
        String label = "qty";
        return total + qty + label.length();
    }
}
`,
  },
  csharp: {
    path: "src/Shop/Cart.cs",
    testPath: "tests/Shop.Tests/CartTests.cs",
    source: `namespace Shop;

public class Cart
{
    private int total;

    public int Add(int qty, string? note)
    {
        if (qty < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(qty), "qty out of range");
        }
        var label = "qty";
        return total + qty + label.Length;
    }
}
`,
  },
  ruby: {
    path: "lib/shop/cart.rb",
    testPath: "spec/cart_spec.rb",
    source: `class Cart
  def add(qty)
    raise ArgumentError, "qty out of range" if qty < 0
    label = "qty"
    @total + qty + label.size
  end
end
`,
  },
  php: {
    path: "src/Cart.php",
    testPath: "tests/CartTest.php",
    source: `<?php

class Cart
{
    private int $total = 0;

    public function add(int $qty): int
    {
        if ($qty < 0) {
            throw new InvalidArgumentException("qty out of range");
        }
        $label = "qty";
        return $this->total + $qty + strlen($label);
    }
}
`,
  },
} as const satisfies Record<string, Base>;

type LanguageId = keyof typeof BASES;

/** An edit of a language's base that adds one suppression: kind, the line it lands on, and its normalised text. */
interface Added {
  language: LanguageId;
  from: string;
  to: string;
  kind: SuppressionKind;
  line: number;
  text: string;
}

const ADDED: Added[] = [
  { language: "python", from: "len(label)\n", to: "len(label)  # type: ignore[operator]\n", kind: "type-ignore", line: 9, text: "# type: ignore[operator]" },
  { language: "python", from: `label = "qty"\n`, to: `label = "qty"  # why not  # noqa: F841\n`, kind: "noqa", line: 8, text: "# noqa: F841" },
  { language: "python", from: "len(label)\n", to: "len(label)  # pyright: ignore[reportOperatorIssue]\n", kind: "pyright-ignore", line: 9, text: "# pyright: ignore[reportOperatorIssue]" },
  { language: "python", from: "from typing", to: "# mypy: ignore-errors\nfrom typing", kind: "mypy-ignore-errors", line: 1, text: "# mypy: ignore-errors" },
  {
    language: "python",
    from: `        label = "qty"\n`,
    to: `        # pylint: disable=unused-variable\n        label = "qty"\n`,
    kind: "pylint-disable",
    line: 8,
    text: "# pylint: disable=unused-variable",
  },
  { language: "python", from: "self.total + qty", to: "cast(Any, self.total) + qty", kind: "typing-cast", line: 9, text: "cast(Any,self.total)" },
  { language: "go", from: `label := "qty"\n`, to: `label := "qty" //nolint:ineffassign\n`, kind: "nolint", line: 9, text: "//nolint:ineffassign" },
  { language: "go", from: `\tlabel := "qty"\n`, to: `\t//lint:ignore SA4006 kept for logs\n\tlabel := "qty"\n`, kind: "lint-ignore", line: 9, text: "//lint:ignore SA4006 kept for logs" },
  { language: "rust", from: "    pub fn add", to: "    #[allow(clippy::cast_possible_truncation)]\n    pub fn add", kind: "allow", line: 4, text: "#[allow(clippy::cast_possible_truncation)]" },
  { language: "rust", from: "pub struct", to: "#![allow(dead_code)]\npub struct", kind: "allow", line: 1, text: "#![allow(dead_code)]" },
  { language: "rust", from: `let label = "qty";`, to: "let label = unsafe { raw_label() };", kind: "unsafe", line: 8, text: "unsafe{raw_label()}" },
  { language: "java", from: "    public int add", to: `    @SuppressWarnings("unchecked")\n    public int add`, kind: "suppress-warnings", line: 6, text: `@SuppressWarnings("unchecked")` },
  { language: "csharp", from: "namespace Shop;", to: "#pragma warning disable CS8602\nnamespace Shop;", kind: "pragma-warning-disable", line: 1, text: "#pragma warning disable CS8602" },
  { language: "csharp", from: "namespace Shop;", to: "#nullable disable\nnamespace Shop;", kind: "nullable-disable", line: 1, text: "#nullable disable" },
  {
    language: "csharp",
    from: "    public int Add",
    to: `    [SuppressMessage("Style", "IDE0060")]\n    public int Add`,
    kind: "suppress-message",
    line: 7,
    text: `SuppressMessage("Style","IDE0060")`,
  },
  { language: "csharp", from: "label.Length", to: "note!.Length", kind: "null-forgiving", line: 14, text: "note!" },
  { language: "ruby", from: `label = "qty"\n`, to: `label = "qty" # rubocop:disable Lint/UselessAssignment\n`, kind: "rubocop-disable", line: 4, text: "# rubocop:disable Lint/UselessAssignment" },
  { language: "ruby", from: "label.size\n", to: "label.size # steep:ignore\n", kind: "steep-ignore", line: 5, text: "# steep:ignore" },
  { language: "php", from: "        return", to: "        // @phpstan-ignore-next-line\n        return", kind: "phpstan-ignore", line: 13, text: "@phpstan-ignore-next-line" },
  {
    language: "php",
    from: "    public function add",
    to: "    /** @psalm-suppress MixedReturnStatement */\n    public function add",
    kind: "psalm-suppress",
    line: 7,
    text: "@psalm-suppress MixedReturnStatement",
  },
  { language: "php", from: `$label = "qty";`, to: `$label = "qty"; // phpcs:ignore Generic.Files.LineLength`, kind: "phpcs-ignore", line: 12, text: "phpcs:ignore Generic.Files.LineLength" },
];

/** Each language's suppression text written inside a string literal: not a suppression. */
const IN_STRING: Record<LanguageId, { from: string; to: string }> = {
  python: { from: `label = "qty"`, to: `label = "qty  # noqa  # type: ignore"` },
  go: { from: `label := "qty"`, to: `label := "qty //nolint //lint:ignore X"` },
  rust: { from: `let label = "qty";`, to: `let label = "#[allow(dead_code)] unsafe { }";` },
  java: { from: `String label = "qty";`, to: `String label = "@SuppressWarnings(\\"all\\")";` },
  csharp: { from: `var label = "qty";`, to: `var label = "#pragma warning disable [SuppressMessage()]";` },
  ruby: { from: `label = "qty"`, to: `label = "# rubocop:disable all # steep:ignore"` },
  php: { from: `$label = "qty";`, to: `$label = "@phpstan-ignore-line @psalm-suppress X phpcs:ignore";` },
};

/** The base with one blank line inserted after its first line: every later line moves down. */
const shifted = (source: string): string => source.replace("\n", "\n\n");

describe.each(ADDED.map((row) => [`${row.language} ${row.kind}: ${row.text}`, row] as const))("suppression %s", (_title, row) => {
  const base: Base = BASES[row.language];
  const withSuppression = edit(base.source, row.from, row.to);

  it("added to product code: validation_bypass at medium, with its line and text", async () => {
    const findings = await expectFindings({ name: "added", changes: [change(base.path, base.source, withSuppression)], findings: [`validation_bypass/medium ${base.path}`] });
    expect(findings[0]?.line).toBe(row.line);
    expect(findings[0]?.evidence).toMatchObject({ kind: row.kind, text: row.text });
    expect(findings[0]?.message).toContain(row.text);
  });

  it("already there, only moved down a line: nothing", async () => {
    await expectFindings({ name: "shifted", changes: [change(base.path, withSuppression, shifted(withSuppression))], findings: [] });
  });

  it("removed: nothing", async () => {
    await expectFindings({ name: "removed", changes: [change(base.path, withSuppression, base.source)], findings: [] });
  });

  it("added in a test file: nothing", async () => {
    await expectFindings({ name: "test file", changes: [change(base.testPath, base.source, withSuppression)], findings: [] });
  });
});

describe.each(Object.entries(IN_STRING))("%s: suppression text inside a string literal", (language, { from, to }) => {
  it("is not a suppression", async () => {
    const base: Base = BASES[language as LanguageId];
    await expectFindings({ name: "in string", changes: [change(base.path, base.source, edit(base.source, from, to))], findings: [] });
  });
});

/** A guard of a language's base: the text that removes it and a reformatting of it that keeps it. */
interface GuardCase {
  language: LanguageId;
  guard: string;
  reformatted: string;
}

const GUARDS: GuardCase[] = [
  {
    language: "python",
    guard: `        if qty < 0 or qty > 100:\n            raise ValueError("qty out of range")\n`,
    reformatted: `        if qty<0 or  qty>100:\n            raise ValueError("qty out of range")\n`,
  },
  { language: "go", guard: `\tif qty < 0 {\n\t\treturn 0, fmt.Errorf("qty %d out of range", qty)\n\t}\n`, reformatted: `\tif qty<0 { return 0, fmt.Errorf("qty %d out of range", qty) }\n` },
  {
    language: "rust",
    guard: `        if qty < 0 {\n            return Err(format!("qty {} out of range", qty));\n        }\n`,
    reformatted: `        if qty<0 { return Err(format!("qty {} out of range", qty)); }\n`,
  },
  {
    language: "java",
    guard: `        if (qty < 0) {\n            throw new IllegalArgumentException("qty out of range");\n        }\n`,
    reformatted: `        if (qty<0)\n            throw new IllegalArgumentException("qty out of range");\n`,
  },
  {
    language: "php",
    guard: `        if ($qty < 0) {\n            throw new InvalidArgumentException("qty out of range");\n        }\n`,
    reformatted: `        if ($qty<0) throw new InvalidArgumentException("qty out of range");\n`,
  },
  { language: "ruby", guard: `    raise ArgumentError, "qty out of range" if qty < 0\n`, reformatted: `    raise(ArgumentError, "qty out of range") if qty<0\n` },
  {
    language: "csharp",
    guard: `        if (qty < 0)\n        {\n            throw new ArgumentOutOfRangeException(nameof(qty), "qty out of range");\n        }\n`,
    reformatted: `        if (qty<0) throw new ArgumentOutOfRangeException(nameof(qty), "qty out of range");\n`,
  },
];

describe.each(GUARDS.map((row) => [row.language, row] as const))("%s guard", (_language, row) => {
  const base: Base = BASES[row.language];

  it("removed while its function stays: validation_bypass at high, at the guard's old line", async () => {
    const findings = await expectFindings({ name: "removed", changes: [change(base.path, base.source, edit(base.source, row.guard, ""))], findings: [`validation_bypass/high ${base.path}`] });
    expect(findings[0]?.before_line).toBe(base.source.slice(0, base.source.indexOf(row.guard)).split("\n").length);
    expect(findings[0]?.evidence).toMatchObject({ rule: "guard_removed" });
  });

  it("reformatted: nothing", async () => {
    await expectFindings({ name: "reformatted", changes: [change(base.path, base.source, edit(base.source, row.guard, row.reformatted))], findings: [] });
  });

  it("removed in a test file: nothing", async () => {
    await expectFindings({ name: "test file", changes: [change(base.testPath, base.source, edit(base.source, row.guard, ""))], findings: [] });
  });
});

describe("guards of the tree-sitter languages", () => {
  it.each([
    [
      "go: `if err != nil { return err }` removed",
      "shop/load.go",
      `package shop\n\nfunc Load(path string) (*Config, error) {\n\tdata, err := read(path)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn parse(data), nil\n}\n`,
      "\tif err != nil {\n\t\treturn nil, err\n\t}\n",
      ["validation_bypass/high shop/load.go"],
    ],
    [
      "python: an assert removed",
      "src/shop/qty.py",
      `def check(qty):\n    assert qty >= 0, "negative"\n    return qty\n`,
      `    assert qty >= 0, "negative"\n`,
      ["validation_bypass/high src/shop/qty.py"],
    ],
    [
      "python: an else that raises removed",
      "src/shop/qty.py",
      `def check(qty):\n    if qty >= 0:\n        return qty\n    else:\n        raise ValueError(qty)\n`,
      `    else:\n        raise ValueError(qty)\n`,
      ["validation_bypass/high src/shop/qty.py"],
    ],
    [
      "csharp: ArgumentNullException.ThrowIfNull removed",
      "src/Shop/Qty.cs",
      `class Qty\n{\n    int Check(string? name)\n    {\n        ArgumentNullException.ThrowIfNull(name);\n        return name.Length;\n    }\n}\n`,
      `        ArgumentNullException.ThrowIfNull(name);\n`,
      ["validation_bypass/high src/Shop/Qty.cs"],
    ],
    [
      "ruby: an unless … raise … end removed",
      "lib/shop/qty.rb",
      `def check(qty)\n  unless qty.positive?\n    raise ArgumentError, "negative"\n  end\n  qty\nend\n`,
      `  unless qty.positive?\n    raise ArgumentError, "negative"\n  end\n`,
      ["validation_bypass/high lib/shop/qty.rb"],
    ],
    [
      "java: a Preconditions check removed",
      "src/main/java/shop/Qty.java",
      `class Qty {\n    int check(int qty) {\n        Preconditions.checkArgument(qty >= 0, "negative");\n        return qty;\n    }\n}\n`,
      `        Preconditions.checkArgument(qty >= 0, "negative");\n`,
      ["validation_bypass/high src/main/java/shop/Qty.java"],
    ],
    [
      "python: the whole function removed (feature_removal's business, not a bypass)",
      "src/shop/qty.py",
      `def keep():\n    return 1\n\n\ndef check(qty):\n    if qty < 0:\n        raise ValueError(qty)\n    return qty\n`,
      `\n\ndef check(qty):\n    if qty < 0:\n        raise ValueError(qty)\n    return qty\n`,
      ["feature_removal/medium src/shop/qty.py"],
    ],
    [
      "python: an if that only returns a value removed (not a guard)",
      "src/shop/qty.py",
      `def check(qty):\n    if qty < 0:\n        return 0\n    return qty\n`,
      `    if qty < 0:\n        return 0\n`,
      [],
    ],
  ] as const)("%s", async (_title, path, source, removed, findings) => {
    await expectFindings({ name: _title, changes: [change(path, source, edit(source, removed, ""))], findings: [...findings] });
  });
});

// A guard rewritten as its library's throw helper is the same guard (found sweeping: C# `if (x == null) throw new
// ArgumentNullException(nameof(x))` -> `ArgumentNullException.ThrowIfNull(x)`); a helper that checks another value is not.
describe("guards rewritten as a throw helper", () => {
  it.each([
    [
      "csharp: ThrowIfNull",
      "src/Shop/Qty.cs",
      "class Qty\n{\n    int Check(string? name)\n    {\n        GUARD\n        return name.Length;\n    }\n}\n",
      "if (name == null) throw new ArgumentNullException(nameof(name));",
      "ArgumentNullException.ThrowIfNull(name);",
    ],
    [
      "csharp: ThrowIfNegative",
      "src/Shop/Qty.cs",
      "class Qty\n{\n    int Check(int qty)\n    {\n        GUARD\n        return qty;\n    }\n}\n",
      "if (qty < 0) { throw new ArgumentOutOfRangeException(nameof(qty)); }",
      "ArgumentOutOfRangeException.ThrowIfNegative(qty);",
    ],
    [
      "csharp: a setter's guard",
      "src/Shop/Qty.cs",
      "class Qty\n{\n    private string _n;\n    public string Name\n    {\n        set\n        {\n            GUARD\n            _n = value;\n        }\n    }\n}\n",
      "if (value == null)\n            {\n                throw new ArgumentNullException(nameof(value));\n            }",
      "ArgumentNullException.ThrowIfNull(value);",
    ],
    [
      "java: Objects.requireNonNull",
      "src/main/java/shop/Qty.java",
      "class Qty {\n    int check(String name) {\n        GUARD\n        return name.length();\n    }\n}\n",
      'if (name == null) throw new NullPointerException("name");',
      'Objects.requireNonNull(name, "name");',
    ],
    [
      "java: Preconditions.checkArgument",
      "src/main/java/shop/Qty.java",
      "class Qty {\n    int check(int qty) {\n        GUARD\n        return qty;\n    }\n}\n",
      'if (qty < 0) { throw new IllegalArgumentException("negative"); }',
      'Preconditions.checkArgument(qty >= 0, "negative");',
    ],
  ] as const)("%s: nothing", async (_title, path, template, was, now) => {
    await expectFindings({ name: _title, changes: [change(path, template.replace("GUARD", was), template.replace("GUARD", now))], findings: [] });
  });

  it("csharp: two guards become one ThrowIfNull: the other guard is lost", async () => {
    const template = "class Qty\n{\n    int Check(string? name, string? unit)\n    {\n        GUARD\n        return name.Length + unit.Length;\n    }\n}\n";
    const was = "if (name == null) throw new ArgumentNullException(nameof(name));\n        if (unit == null) throw new ArgumentNullException(nameof(unit));";
    await expectFindings({
      name: "two",
      changes: [change("src/Shop/Qty.cs", template.replace("GUARD", was), template.replace("GUARD", "ArgumentNullException.ThrowIfNull(name);"))],
      findings: ["validation_bypass/high src/Shop/Qty.cs"],
    });
  });
});

describe("java: a boolean predicate named like a precondition is no guard", () => {
  // jjwt's `Strings.hasText(x)` answers a boolean, as Spring's StringUtils.hasText does; Spring's Assert.hasText throws.
  const template =
    "class Locator {\n    private final String msg;\n    FLAG_FIELD\n    Locator(String msg) {\n        this.msg = Strings.clean(msg);\n        FLAG_SET\n    }\n    String locate(String id) {\n        if (id == null) {\n            CHECK\n            return null;\n        }\n        return id;\n    }\n}\n";
  const fill = (field: string, set: string, check: string): string => template.replace("FLAG_FIELD", field).replace("FLAG_SET", set).replace("CHECK", check);
  const before = fill("private final boolean required;", "this.required = Strings.hasText(this.msg);", "if (this.required) {\n                throw new MissingValueException(msg);\n            }");

  it("a flag set from the predicate becomes the null check it stood for: nothing", async () => {
    const after = fill("", "", "if (this.msg != null) {\n                throw new MissingValueException(msg);\n            }");
    await expectFindings({ name: "flag", changes: [change("src/main/java/loc/Locator.java", before, after)], findings: [] });
  });

  it("the flag goes with the throw it guarded: the throw is lost", async () => {
    const after = fill("", "", "");
    await expectFindings({ name: "flag", changes: [change("src/main/java/loc/Locator.java", before, after)], findings: ["validation_bypass/high src/main/java/loc/Locator.java"] });
  });

  it("Assert.hasText as a statement of its own still guards: removed, it fires", async () => {
    const own = "class Name {\n    String check(String name) {\n        GUARD\n        return name;\n    }\n}\n";
    await expectFindings({
      name: "assert",
      changes: [change("src/main/java/loc/Name.java", own.replace("GUARD", 'Assert.hasText(name, "name is required");'), own.replace("GUARD", ""))],
      findings: ["validation_bypass/high src/main/java/loc/Name.java"],
    });
  });
});

describe("Rust product files with inline tests", () => {
  const PRODUCT = `pub fn add(a: i32, b: i32) -> Result<i32, String> {
    if a < 0 {
        return Err("negative".to_string());
    }
    Ok(a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        assert_eq!(add(1, 2).unwrap(), 3);
    }
}
`;

  it("a suppression or removed guard in the product code is judged even though the file declares tests", async () => {
    const allowed = PRODUCT.replace("pub fn add", "#[allow(clippy::all)]\npub fn add");
    await expectFindings({ name: "allow added", changes: [change("src/lib.rs", PRODUCT, allowed)], findings: ["validation_bypass/medium src/lib.rs"] });
    const unguarded = PRODUCT.replace('    if a < 0 {\n        return Err("negative".to_string());\n    }\n', "");
    await expectFindings({ name: "guard removed", changes: [change("src/lib.rs", PRODUCT, unguarded)], findings: ["validation_bypass/high src/lib.rs"] });
  });

  it("what happens inside #[cfg(test)] and #[test] items is test code: no validation finding", async () => {
    const inTests = PRODUCT.replace("    #[test]\n    fn adds() {", "    #[allow(unused)]\n    #[test]\n    fn adds() {\n        let _x = unsafe { 1 };");
    await expectFindings({ name: "allow and unsafe in the test module", changes: [change("src/lib.rs", PRODUCT, inTests)], findings: [] });
  });
});
