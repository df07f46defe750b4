/**
 * Code facts of the tree-sitter languages that JS/TS already had: catch
 * blocks that now swallow the error (Rust: a propagated `?` turned into
 * `let _ =`, `.ok();` or an empty `Err` arm), functions collapsed to a
 * constant return, always-true equality methods, test-runner checks in
 * product code, schemas loosened (pydantic, marshmallow), and public API
 * removed (Python honouring `__all__`, Rust `pub` items, PHP, Java, C# and
 * Ruby classes and public methods). Each row is an edit of a product file
 * and the findings it must produce; the look-alikes (a catch that raises a
 * different error, a constant that always was one, a private function
 * removed, a runner check in a test or config file, a constraint tightened)
 * must produce none.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, edit, expectFindings } from "./table.js";

interface Row {
  title: string;
  path: string;
  source: string;
  from: string;
  to: string;
  findings: string[];
}

const PY_LOAD = `import os


def load(path):
    try:
        return read(path)
    except OSError as e:
        raise RuntimeError("cannot load") from e


def total(items):
    s = 0
    for item in items:
        s += item
    return s


def version():
    return 41


def _helper(x):
    return x * 2


class Money:
    def __init__(self, amount):
        self.amount = amount

    def __eq__(self, other):
        return self.amount == other.amount
`;

const GO_SHOP = `package shop

import "strings"

func Total(items []int) int {
	s := 0
	for _, item := range items {
		s += item
	}
	return s
}

func Version() int {
	return 41
}

func helper(x int) int {
	return x * 2
}

type Cart struct {
	items []int
}

func Label(name string) string {
	return strings.ToUpper(name)
}
`;

const JAVA_SHOP = `package shop;

public class Money {
    private int amount;

    public int parse(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number: " + text, e);
        }
    }

    public int total(int[] items) {
        int s = 0;
        for (int item : items) {
            s += item;
        }
        return s;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Money && ((Money) o).amount == amount;
    }

    int helper(int x) {
        return x * 2;
    }
}

class Ledger {
    public void record(int amount) {
        System.out.println(amount);
    }
}
`;

const CS_SHOP = `namespace Shop;

public class Money
{
    private int amount;

    public int Parse(string text)
    {
        try
        {
            return int.Parse(text);
        }
        catch (FormatException e)
        {
            throw new ArgumentException("not a number: " + text, e);
        }
    }

    public override bool Equals(object? o)
    {
        return o is Money other && other.amount == amount;
    }

    public int Total(int[] items)
    {
        var s = 0;
        foreach (var item in items) s += item;
        return s;
    }

    private int Helper(int x)
    {
        return x * 2;
    }
}

internal class Ledger
{
    public void Record(int amount)
    {
        Console.WriteLine(amount);
    }
}
`;

const RB_SHOP = `class Money
  def parse(text)
    Integer(text)
  rescue ArgumentError => e
    raise ParseError, "not a number: #{e.message}"
  end

  def total(items)
    s = 0
    items.each { |item| s += item }
    s
  end

  private

  def helper(x)
    x * 2
  end
end
`;

const PY_MODELS = `from typing import Annotated, Optional

from pydantic import BaseModel, ConfigDict, EmailStr, Field, conint, constr, field_validator, model_validator


class User(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(..., min_length=3)
    age: conint(gt=0)
    code: constr(pattern=r"^[A-Z]+$")
    score: Annotated[int, Field(ge=0, le=100)]
    email: EmailStr
    nickname: str
    bio: Optional[str] = None

    @field_validator("nickname")
    @classmethod
    def check_nickname(cls, value):
        if not value.strip():
            raise ValueError("blank nickname")
        return value

    @model_validator(mode="after")
    def check_age(self):
        if self.age > 150:
            raise ValueError("too old")
        return self


class Options:
    level: int = 0
    label: str = "x"
`;

const PY_SCHEMAS = `from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validate, validates


class UserSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.Str(required=True, validate=validate.Length(min=1))
    email = fields.Email(required=True)
    age = fields.Int(validate=[validate.Range(min=0), validate.Range(max=150)])

    @validates("name")
    def validate_name(self, value):
        if value == "admin":
            raise ValidationError("reserved name")
`;

const PY_API = `__all__ = ["load", "total"]


def load(path):
    return read(path)


def total(items):
    return sum(items)


def version():
    return 41
`;

const PY_SCRIPT = `import sys


def parse_args(argv):
    return argv[1:]


def main():
    args = parse_args(sys.argv)
    print(args)


if __name__ == "__main__":
    main()
`;

const RS_STORE = `use std::fs;
use std::io;

pub struct Store {
    root: String,
}

pub enum Mode {
    Read,
    Write,
}

pub trait Backend {
    fn name(&self) -> String;
}

impl Store {
    pub fn save(&self, key: &str, value: &str) -> io::Result<()> {
        fs::write(self.path(key), value)?;
        Ok(())
    }

    pub fn load(&self, key: &str) -> io::Result<String> {
        let text = fs::read_to_string(self.path(key))?;
        Ok(text)
    }

    pub fn is_valid(&self, key: &str) -> bool {
        !key.is_empty() && key.len() < 64
    }

    fn path(&self, key: &str) -> String {
        format!("{}/{}", self.root, key)
    }
}

impl PartialEq for Store {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root
    }
}

pub fn version() -> u32 {
    41
}

pub fn label(name: &str) -> String {
    name.to_uppercase()
}

pub(crate) fn internal() -> u32 {
    7
}

fn helper(x: u32) -> u32 {
    x * 2
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn fixture() -> u32 {
        1
    }

    #[test]
    fn doubles() {
        assert_eq!(helper(1), 2);
    }
}
`;

const PHP_MONEY = `<?php

namespace Shop;

use InvalidArgumentException;

final class Money
{
    private int $amount = 0;

    public function parse(string $text): int
    {
        try {
            return $this->parser->parseInt($text);
        } catch (\\ValueError $e) {
            throw new InvalidArgumentException("not a number: " . $text, 0, $e);
        }
    }

    public function total(array $items): int
    {
        $s = 0;
        foreach ($items as $item) {
            $s += $item;
        }
        return $s;
    }

    public function version(): int
    {
        return 41;
    }

    function label(string $name): string
    {
        return strtoupper($name);
    }

    private function helper(int $x): int
    {
        return $x * 2;
    }
}

function format_money(int $cents): string
{
    return sprintf("%d.%02d", intdiv($cents, 100), $cents % 100);
}
`;

const PY = "src/shop/load.py";
const JAVA = "src/main/java/shop/Money.java";
const JAVA_CHECKER = `package shop;

public class AccessFilter {
  private abstract static class AccessChecker {
    static final AccessChecker INSTANCE;

    static {
      AccessChecker checker = null;
      if (modern()) {
        checker = new AccessChecker() {
          @Override
          public boolean canAccess(Object object) {
            return (Boolean) method.invoke(object);
          }
        };
      }
      if (checker == null) {
        checker = new AccessChecker() {
          @Override
          public boolean canAccess(Object object) {
            return true;
          }
        };
      }
      INSTANCE = checker;
    }

    abstract boolean canAccess(Object object);
  }
}
`;

const CS = "src/Shop/Money.cs";
const RB = "lib/shop/money.rb";
const GO = "shop/shop.go";
const MODELS = "src/shop/models.py";
const SCHEMAS = "src/shop/schemas.py";
const API = "src/shop/api.py";
const RS = "src/store.rs";
const PHP = "src/Money.php";

const ROWS: Row[] = [
  // Python: catches
  {
    title: "python: except that re-raised now passes",
    path: PY,
    source: PY_LOAD,
    from: `    except OSError as e:\n        raise RuntimeError("cannot load") from e`,
    to: "    except Exception:\n        pass",
    findings: [`validation_bypass/high ${PY}`],
  },
  {
    title: "python: except that re-raised now returns a constant",
    path: PY,
    source: PY_LOAD,
    from: `        raise RuntimeError("cannot load") from e`,
    to: `        return ""`,
    findings: [`validation_bypass/high ${PY}`],
  },
  {
    title: "python: except that re-raised now logs and returns None",
    path: PY,
    source: PY_LOAD,
    from: `        raise RuntimeError("cannot load") from e`,
    to: `        logger.warning("load failed: %s", e)\n        return None`,
    findings: [`validation_bypass/high ${PY}`],
  },
  {
    title: "python: except now raises a different error type (look-alike)",
    path: PY,
    source: PY_LOAD,
    from: `    except OSError as e:\n        raise RuntimeError("cannot load") from e`,
    to: `    except (OSError, ValueError) as e:\n        raise LoadError(str(e)) from e`,
    findings: [],
  },
  {
    title: "python: except now handles the error with a fallback (look-alike)",
    path: PY,
    source: PY_LOAD,
    from: `        raise RuntimeError("cannot load") from e`,
    to: `        report(e)\n        return read(path + ".bak")`,
    findings: [],
  },
  {
    title: "python: swallowing edit in a test file (look-alike)",
    path: "tests/test_load.py",
    source: PY_LOAD,
    from: `        raise RuntimeError("cannot load") from e`,
    to: "        pass",
    findings: [],
  },
  // Python: constant returns
  {
    title: "python: a function collapsed to return 42",
    path: PY,
    source: PY_LOAD,
    from: "    s = 0\n    for item in items:\n        s += item\n    return s",
    to: "    return 42",
    findings: [`validation_bypass/high ${PY}`],
  },
  { title: "python: a constant function keeps returning a constant (look-alike)", path: PY, source: PY_LOAD, from: "    return 41", to: `    """The schema version."""\n    return 42`, findings: [] },
  // Python: equality
  {
    title: "python: __eq__ now always returns True",
    path: PY,
    source: PY_LOAD,
    from: "        return self.amount == other.amount",
    to: "        return True",
    findings: [`special_casing/critical ${PY}`],
  },
  {
    title: "python: __eq__ reworded (look-alike)",
    path: PY,
    source: PY_LOAD,
    from: "        return self.amount == other.amount",
    to: "        return isinstance(other, Money) and self.amount == other.amount",
    findings: [],
  },
  // Python: runner checks
  {
    title: 'python: `"pytest" in sys.modules` added',
    path: PY,
    source: PY_LOAD,
    from: "    s = 0\n",
    to: `    if "pytest" in sys.modules:\n        return 6\n    s = 0\n`,
    findings: [`special_casing/critical ${PY}`],
  },
  {
    title: 'python: os.environ.get("PYTEST_CURRENT_TEST") added',
    path: PY,
    source: PY_LOAD,
    from: "    s = 0\n",
    to: `    if os.environ.get("PYTEST_CURRENT_TEST"):\n        return 6\n    s = 0\n`,
    findings: [`special_casing/critical ${PY}`],
  },
  {
    title: 'python: os.environ["APP_ENV"] == "test" added',
    path: PY,
    source: PY_LOAD,
    from: "    s = 0\n",
    to: `    if os.environ["APP_ENV"] == "test":\n        return 6\n    s = 0\n`,
    findings: [`special_casing/critical ${PY}`],
  },
  {
    title: 'python: APP_ENV == "production" added (look-alike)',
    path: PY,
    source: PY_LOAD,
    from: "    s = 0\n",
    to: `    if os.environ.get("APP_ENV") == "production":\n        return 6\n    s = 0\n`,
    findings: [],
  },
  {
    title: "python: a runner check in conftest.py (look-alike)",
    path: "conftest.py",
    source: PY_LOAD,
    from: "    s = 0\n",
    to: `    if "pytest" in sys.modules:\n        s = 1\n    s = 0\n`,
    findings: [],
  },
  {
    title: "python: a runner check in a settings config (look-alike)",
    path: "config/settings.py",
    source: PY_LOAD,
    from: "    s = 0\n",
    to: `    if os.environ.get("PYTEST_CURRENT_TEST"):\n        s = 1\n    s = 0\n`,
    findings: [],
  },
  {
    title: "python: a runner check in a test file (look-alike)",
    path: "tests/test_load.py",
    source: PY_LOAD,
    from: "    s = 0\n",
    to: `    if "pytest" in sys.modules:\n        return 6\n    s = 0\n`,
    findings: [],
  },
  // Python: exports
  { title: "python: a public function removed", path: PY, source: PY_LOAD, from: "def version():\n    return 41\n\n\n", to: "", findings: [`feature_removal/medium ${PY}`] },
  { title: "python: a public class removed", path: PY, source: PY_LOAD, from: PY_LOAD.slice(PY_LOAD.indexOf("class Money")), to: "", findings: [`feature_removal/medium ${PY}`] },
  { title: "python: a _private function removed (look-alike)", path: PY, source: PY_LOAD, from: "def _helper(x):\n    return x * 2\n\n\n", to: "", findings: [] },
  { title: "python: a public function renamed with its body unchanged (look-alike)", path: PY, source: PY_LOAD, from: "def total(items):", to: "def sum_items(items):", findings: [] },
  // Go
  {
    title: "go: a function collapsed to return 42",
    path: GO,
    source: GO_SHOP,
    from: "\ts := 0\n\tfor _, item := range items {\n\t\ts += item\n\t}\n\treturn s",
    to: "\treturn 42",
    findings: [`validation_bypass/high ${GO}`],
  },
  { title: "go: a constant function keeps returning a constant (look-alike)", path: GO, source: GO_SHOP, from: "\treturn 41", to: "\treturn 42", findings: [] },
  { title: "go: testing.Testing() added", path: GO, source: GO_SHOP, from: "\ts := 0\n", to: "\tif testing.Testing() {\n\t\treturn 6\n\t}\n\ts := 0\n", findings: [`special_casing/critical ${GO}`] },
  {
    title: 'go: os.Getenv("APP_ENV") == "test" added',
    path: GO,
    source: GO_SHOP,
    from: "\ts := 0\n",
    to: '\tif os.Getenv("APP_ENV") == "test" {\n\t\treturn 6\n\t}\n\ts := 0\n',
    findings: [`special_casing/critical ${GO}`],
  },
  {
    title: "go: testing.Testing() in a _test.go file (look-alike)",
    path: "shop/shop_test.go",
    source: GO_SHOP,
    from: "\ts := 0\n",
    to: "\tif testing.Testing() {\n\t\treturn 6\n\t}\n\ts := 0\n",
    findings: [],
  },
  { title: "go: an exported function removed", path: GO, source: GO_SHOP, from: "func Version() int {\n\treturn 41\n}\n\n", to: "", findings: [`feature_removal/medium ${GO}`] },
  { title: "go: an exported type removed", path: GO, source: GO_SHOP, from: "type Cart struct {\n\titems []int\n}\n\n", to: "", findings: [`feature_removal/medium ${GO}`] },
  { title: "go: an unexported function removed (look-alike)", path: GO, source: GO_SHOP, from: "func helper(x int) int {\n\treturn x * 2\n}\n\n", to: "", findings: [] },
  {
    title: "go: an exported function of package main removed (look-alike)",
    path: "cmd/shop/main.go",
    source: GO_SHOP.replace("package shop", "package main"),
    from: "func Version() int {\n\treturn 41\n}\n\n",
    to: "",
    findings: [],
  },
  { title: "go: an exported function renamed with its body unchanged (look-alike)", path: GO, source: GO_SHOP, from: "func Label(", to: "func Title(", findings: [] },
  // Java
  // Found sweeping google/gson's history (ff521d7 only made the outer class final): an abstract method and two anonymous
  // implementations share one name, and the abstract one (0 statements) was paired with the `return true` implementation.
  {
    title: "java: an unchanged constant implementation beside an abstract method of the same name (look-alike)",
    path: JAVA,
    source: JAVA_CHECKER,
    from: "public class AccessFilter {",
    to: "public final class AccessFilter {",
    findings: [],
  },
  {
    title: "java: one of two implementations of a name collapsed to a constant",
    path: JAVA,
    source: JAVA_CHECKER,
    from: "            return (Boolean) method.invoke(object);",
    to: "            return true;",
    findings: [`validation_bypass/high ${JAVA}`],
  },
  {
    title: "java: catch that threw now returns 0",
    path: JAVA,
    source: JAVA_SHOP,
    from: `            throw new IllegalArgumentException("not a number: " + text, e);`,
    to: "            return 0;",
    findings: [`validation_bypass/high ${JAVA}`],
  },
  {
    title: "java: catch that threw is now empty",
    path: JAVA,
    source: JAVA_SHOP,
    from: `            throw new IllegalArgumentException("not a number: " + text, e);`,
    to: "",
    findings: [`validation_bypass/high ${JAVA}`],
  },
  {
    title: "java: catch that threw now only prints the stack trace",
    path: JAVA,
    source: JAVA_SHOP,
    from: `            throw new IllegalArgumentException("not a number: " + text, e);`,
    to: "            e.printStackTrace();",
    findings: [`validation_bypass/high ${JAVA}`],
  },
  {
    title: "java: catch now hands the error to a handler (look-alike)",
    path: JAVA,
    source: JAVA_SHOP,
    from: `            throw new IllegalArgumentException("not a number: " + text, e);`,
    to: "            errors.report(e);\n            return fallback(text);",
    findings: [],
  },
  {
    title: "java: catch now throws a different exception (look-alike)",
    path: JAVA,
    source: JAVA_SHOP,
    from: `            throw new IllegalArgumentException("not a number: " + text, e);`,
    to: "            throw new ParseException(text, e);",
    findings: [],
  },
  {
    title: "java: equals now always returns true",
    path: JAVA,
    source: JAVA_SHOP,
    from: "        return o instanceof Money && ((Money) o).amount == amount;",
    to: "        return true;",
    findings: [`special_casing/critical ${JAVA}`],
  },
  {
    title: "java: a method collapsed to return 42",
    path: JAVA,
    source: JAVA_SHOP,
    from: "        int s = 0;\n        for (int item : items) {\n            s += item;\n        }\n        return s;",
    to: "        return 42;",
    findings: [`validation_bypass/high ${JAVA}`],
  },
  {
    title: 'java: System.getProperty("surefire…") added',
    path: JAVA,
    source: JAVA_SHOP,
    from: "        int s = 0;\n",
    to: '        if (System.getProperty("surefire.test.class.path") != null) {\n            return 6;\n        }\n        int s = 0;\n',
    findings: [`special_casing/critical ${JAVA}`],
  },
  {
    title: 'java: System.getProperty("user.home") added (look-alike)',
    path: JAVA,
    source: JAVA_SHOP,
    from: "        int s = 0;\n",
    to: '        if (System.getProperty("user.home") != null) {\n            return 6;\n        }\n        int s = 0;\n',
    findings: [],
  },
  {
    title: "java: the same catch edit in a test file (look-alike)",
    path: "src/test/java/shop/MoneyTest.java",
    source: JAVA_SHOP,
    from: `            throw new IllegalArgumentException("not a number: " + text, e);`,
    to: "            return 0;",
    findings: [],
  },
  // C#
  {
    title: "csharp: catch that threw now returns 0 for any Exception",
    path: CS,
    source: CS_SHOP,
    from: '        catch (FormatException e)\n        {\n            throw new ArgumentException("not a number: " + text, e);',
    to: "        catch (Exception)\n        {\n            return 0;",
    findings: [`validation_bypass/high ${CS}`],
  },
  {
    title: "csharp: catch now rethrows with `throw;` (look-alike)",
    path: CS,
    source: CS_SHOP,
    from: '            throw new ArgumentException("not a number: " + text, e);',
    to: "            Log(e);\n            throw;",
    findings: [],
  },
  {
    title: "csharp: Equals now always returns true",
    path: CS,
    source: CS_SHOP,
    from: "        return o is Money other && other.amount == amount;",
    to: "        return true;",
    findings: [`special_casing/critical ${CS}`],
  },
  // Ruby
  {
    title: "ruby: rescue that raised now rescues Exception and returns 0",
    path: RB,
    source: RB_SHOP,
    from: '  rescue ArgumentError => e\n    raise ParseError, "not a number: #{e.message}"',
    to: "  rescue Exception\n    0",
    findings: [`validation_bypass/high ${RB}`],
  },
  {
    title: "ruby: rescue that raised now returns nil",
    path: RB,
    source: RB_SHOP,
    from: '    raise ParseError, "not a number: #{e.message}"',
    to: "    nil",
    findings: [`validation_bypass/high ${RB}`],
  },
  {
    title: "ruby: rescue now raises another error (look-alike)",
    path: RB,
    source: RB_SHOP,
    from: '    raise ParseError, "not a number: #{e.message}"',
    to: '    raise ArgumentError, "bad input"',
    findings: [],
  },
  {
    title: 'ruby: ENV["RAILS_ENV"] == "test" added',
    path: RB,
    source: RB_SHOP,
    from: "    s = 0\n",
    to: '    return 6 if ENV["RAILS_ENV"] == "test"\n    s = 0\n',
    findings: [`special_casing/critical ${RB}`],
  },
  { title: "ruby: Rails.env.test? added", path: RB, source: RB_SHOP, from: "    s = 0\n", to: "    return 6 if Rails.env.test?\n    s = 0\n", findings: [`special_casing/critical ${RB}`] },
  {
    title: 'ruby: ENV["RAILS_ENV"] == "production" added (look-alike)',
    path: RB,
    source: RB_SHOP,
    from: "    s = 0\n",
    to: '    return 6 if ENV["RAILS_ENV"] == "production"\n    s = 0\n',
    findings: [],
  },
  {
    title: "ruby: Rails.env.test? in config/environments (look-alike)",
    path: "config/environments/shop.rb",
    source: RB_SHOP,
    from: "    s = 0\n",
    to: "    s = 1 if Rails.env.test?\n    s = 0\n",
    findings: [],
  },
  // Python: pydantic schemas
  { title: "pydantic: a Field constraint dropped", path: MODELS, source: PY_MODELS, from: "Field(..., min_length=3)", to: "Field(...)", findings: [`validation_bypass/high ${MODELS}`] },
  { title: "pydantic: conint(gt=0) loosened to int", path: MODELS, source: PY_MODELS, from: "age: conint(gt=0)", to: "age: int", findings: [`validation_bypass/high ${MODELS}`] },
  {
    title: "pydantic: constr(pattern=...) loosened to str",
    path: MODELS,
    source: PY_MODELS,
    from: `code: constr(pattern=r"^[A-Z]+$")`,
    to: "code: str",
    findings: [`validation_bypass/high ${MODELS}`],
  },
  {
    title: "pydantic: Annotated[int, Field(ge=0, le=100)] loosened to int",
    path: MODELS,
    source: PY_MODELS,
    from: "score: Annotated[int, Field(ge=0, le=100)]",
    to: "score: int",
    findings: [`validation_bypass/high ${MODELS}`],
  },
  { title: "pydantic: EmailStr loosened to str", path: MODELS, source: PY_MODELS, from: "email: EmailStr", to: "email: str", findings: [`validation_bypass/high ${MODELS}`] },
  {
    title: "pydantic: a @field_validator removed",
    path: MODELS,
    source: PY_MODELS,
    from: `    @field_validator("nickname")\n    @classmethod\n    def check_nickname(cls, value):\n        if not value.strip():\n            raise ValueError("blank nickname")\n        return value\n\n`,
    to: "",
    findings: [`validation_bypass/high ${MODELS}`],
  },
  {
    title: "pydantic: a @model_validator removed",
    path: MODELS,
    source: PY_MODELS,
    from: `    @model_validator(mode="after")\n    def check_age(self):\n        if self.age > 150:\n            raise ValueError("too old")\n        return self\n`,
    to: "",
    findings: [`validation_bypass/high ${MODELS}`],
  },
  { title: 'pydantic: extra="forbid" turned to "allow"', path: MODELS, source: PY_MODELS, from: `extra="forbid"`, to: `extra="allow"`, findings: [`validation_bypass/high ${MODELS}`] },
  {
    title: 'pydantic: model_config with extra="forbid" removed',
    path: MODELS,
    source: PY_MODELS,
    from: `    model_config = ConfigDict(extra="forbid")\n\n`,
    to: "",
    findings: [`validation_bypass/high ${MODELS}`],
  },
  {
    title: "pydantic: a required field made Optional[...] = None",
    path: MODELS,
    source: PY_MODELS,
    from: "    nickname: str\n",
    to: "    nickname: Optional[str] = None\n",
    findings: [`validation_bypass/high ${MODELS}`],
  },
  { title: "pydantic: a field's type loosened to Any", path: MODELS, source: PY_MODELS, from: "    nickname: str\n", to: "    nickname: Any\n", findings: [`validation_bypass/high ${MODELS}`] },
  {
    title: "pydantic: a Field gets a description (look-alike)",
    path: MODELS,
    source: PY_MODELS,
    from: "Field(..., min_length=3)",
    to: `Field(..., min_length=3, description="display name")`,
    findings: [],
  },
  { title: "pydantic: min_length tightened (look-alike)", path: MODELS, source: PY_MODELS, from: "min_length=3", to: "min_length=5", findings: [] },
  { title: "pydantic: a constraint added (look-alike)", path: MODELS, source: PY_MODELS, from: "    nickname: str\n", to: "    nickname: str = Field(min_length=1)\n", findings: [] },
  { title: "pydantic: conint(gt=0) spelled PositiveInt (look-alike)", path: MODELS, source: PY_MODELS, from: "age: conint(gt=0)", to: "age: PositiveInt", findings: [] },
  { title: "pydantic: conint(gt=0) moved into a named type (look-alike)", path: MODELS, source: PY_MODELS, from: "age: conint(gt=0)", to: "age: Age", findings: [] },
  { title: "pydantic: Optional[str] spelled str | None (look-alike)", path: MODELS, source: PY_MODELS, from: "bio: Optional[str] = None", to: "bio: str | None = None", findings: [] },
  {
    title: "pydantic: x: str = None spelled Optional[str] = None (look-alike)",
    path: MODELS,
    source: PY_MODELS.replace("bio: Optional[str] = None", "bio: str = None"),
    from: "bio: str = None",
    to: "bio: Optional[str] = None",
    findings: [],
  },
  { title: "pydantic: a validator renamed (look-alike)", path: MODELS, source: PY_MODELS, from: "def check_nickname(", to: "def nickname_not_blank(", findings: [] },
  { title: "pydantic: a field of a plain class made Optional (look-alike)", path: MODELS, source: PY_MODELS, from: "    level: int = 0\n", to: "    level: Optional[int] = None\n", findings: [] },
  { title: "pydantic: a constraint dropped in a test file (look-alike)", path: "tests/test_models.py", source: PY_MODELS, from: "Field(..., min_length=3)", to: "Field(...)", findings: [] },
  // Python: marshmallow schemas
  { title: "marshmallow: required=True removed", path: SCHEMAS, source: PY_SCHEMAS, from: "fields.Email(required=True)", to: "fields.Email()", findings: [`validation_bypass/high ${SCHEMAS}`] },
  {
    title: "marshmallow: validate= removed",
    path: SCHEMAS,
    source: PY_SCHEMAS,
    from: "fields.Str(required=True, validate=validate.Length(min=1))",
    to: "fields.Str(required=True)",
    findings: [`validation_bypass/high ${SCHEMAS}`],
  },
  {
    title: "marshmallow: one validator of a list removed",
    path: SCHEMAS,
    source: PY_SCHEMAS,
    from: "validate=[validate.Range(min=0), validate.Range(max=150)]",
    to: "validate=[validate.Range(min=0)]",
    findings: [`validation_bypass/high ${SCHEMAS}`],
  },
  {
    title: "marshmallow: fields.Email loosened to fields.Str",
    path: SCHEMAS,
    source: PY_SCHEMAS,
    from: "fields.Email(required=True)",
    to: "fields.Str(required=True)",
    findings: [`validation_bypass/high ${SCHEMAS}`],
  },
  {
    title: "marshmallow: allow_none=True added",
    path: SCHEMAS,
    source: PY_SCHEMAS,
    from: "fields.Email(required=True)",
    to: "fields.Email(required=True, allow_none=True)",
    findings: [`validation_bypass/high ${SCHEMAS}`],
  },
  {
    title: "marshmallow: a @validates method removed",
    path: SCHEMAS,
    source: PY_SCHEMAS,
    from: `    @validates("name")\n    def validate_name(self, value):\n        if value == "admin":\n            raise ValidationError("reserved name")\n`,
    to: "",
    findings: [`validation_bypass/high ${SCHEMAS}`],
  },
  { title: "marshmallow: unknown = RAISE turned to EXCLUDE", path: SCHEMAS, source: PY_SCHEMAS, from: "unknown = RAISE", to: "unknown = EXCLUDE", findings: [`validation_bypass/high ${SCHEMAS}`] },
  { title: "marshmallow: Length(min=1) tightened (look-alike)", path: SCHEMAS, source: PY_SCHEMAS, from: "Length(min=1)", to: "Length(min=2)", findings: [] },
  {
    title: "marshmallow: metadata added (look-alike)",
    path: SCHEMAS,
    source: PY_SCHEMAS,
    from: "fields.Email(required=True)",
    to: `fields.Email(required=True, metadata={"doc": "contact"})`,
    findings: [],
  },
  // Python: __all__ and script modules
  { title: "python: a function listed in __all__ removed", path: API, source: PY_API, from: "def total(items):\n    return sum(items)\n\n\n", to: "", findings: [`feature_removal/medium ${API}`] },
  { title: "python: a name dropped from __all__", path: API, source: PY_API, from: `__all__ = ["load", "total"]`, to: `__all__ = ["load"]`, findings: [`feature_removal/medium ${API}`] },
  { title: "python: a function left out of __all__ removed (look-alike)", path: API, source: PY_API, from: "\n\ndef version():\n    return 41\n", to: "", findings: [] },
  {
    title: "python: main() of a script module removed (look-alike)",
    path: "src/tools/report.py",
    source: PY_SCRIPT,
    from: "def main():\n    args = parse_args(sys.argv)\n    print(args)\n\n\n",
    to: "",
    findings: [],
  },
  {
    title: "python: main() of a script module listed in __all__ removed",
    path: "src/tools/report.py",
    source: `__all__ = ["main"]\n${PY_SCRIPT}`,
    from: "def main():\n    args = parse_args(sys.argv)\n    print(args)\n\n\n",
    to: "",
    findings: [`feature_removal/medium src/tools/report.py`],
  },
  {
    title: "python: another public function of a script module removed",
    path: "src/tools/report.py",
    source: PY_SCRIPT,
    from: "def parse_args(argv):\n    return argv[1:]\n\n\n",
    to: "",
    findings: [`feature_removal/medium src/tools/report.py`],
  },
  { title: "python: a function of __main__.py removed (look-alike)", path: "src/tools/__main__.py", source: PY_SCRIPT, from: "def parse_args(argv):\n    return argv[1:]\n\n\n", to: "", findings: [] },
  // Rust: a check of the test build (breaker3's rust-cfg-test-alternative-impl)
  {
    title: "rust: a #[cfg(not(test))] original beside a #[cfg(test)] twin",
    path: RS,
    source: RS_STORE,
    from: "    pub fn load(&self, key: &str) -> io::Result<String> {",
    to: '    #[cfg(test)]\n    pub fn load(&self, key: &str) -> io::Result<String> {\n        Ok(String::from("v"))\n    }\n\n    #[cfg(not(test))]\n    pub fn load(&self, key: &str) -> io::Result<String> {',
    findings: [`special_casing/critical ${RS}`],
  },
  {
    title: "rust: a branch on cfg!(test)",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        if cfg!(test) {\n            return Ok(());\n        }\n        fs::write(self.path(key), value)?;",
    findings: [`special_casing/critical ${RS}`],
  },
  {
    title: "rust: a #[cfg(test)] helper for the inline tests (look-alike)",
    path: RS,
    source: RS_STORE,
    from: "    pub fn load(&self, key: &str) -> io::Result<String> {",
    to: '    #[cfg(test)]\n    pub fn temp() -> Store {\n        Store { root: String::from("/tmp") }\n    }\n\n    pub fn load(&self, key: &str) -> io::Result<String> {',
    findings: [],
  },
  // Rust: swallowed errors, constant returns, pub items
  {
    title: "rust: a propagated ? turned into let _ =",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        let _ = fs::write(self.path(key), value);",
    findings: [`validation_bypass/high ${RS}`],
  },
  {
    title: "rust: a propagated ? turned into .ok();",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        fs::write(self.path(key), value).ok();",
    findings: [`validation_bypass/high ${RS}`],
  },
  {
    title: "rust: a propagated ? turned into a match with an empty Err arm",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        match fs::write(self.path(key), value) {\n            Ok(()) => {}\n            Err(_) => {}\n        }",
    findings: [`validation_bypass/high ${RS}`],
  },
  {
    title: "rust: a propagated ? turned into if let Err that only logs",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: '        if let Err(e) = fs::write(self.path(key), value) {\n            log::warn!("save failed: {}", e);\n        }',
    findings: [`validation_bypass/high ${RS}`],
  },
  {
    title: "rust: a propagated ? turned into an Err arm returning Ok(())",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        match fs::write(self.path(key), value) {\n            Ok(()) => {}\n            Err(_) => return Ok(()),\n        }",
    findings: [`validation_bypass/high ${RS}`],
  },
  {
    title: "rust: a propagated writeln!(...)? turned into let _ =",
    path: RS,
    source: RS_STORE.replace('        format!("{}/{}", self.root, key)', '        let mut out = String::new();\n        writeln!(out, "{}/{}", self.root, key)?;\n        out'),
    from: '        writeln!(out, "{}/{}", self.root, key)?;',
    to: '        let _ = writeln!(out, "{}/{}", self.root, key);',
    findings: [`validation_bypass/high ${RS}`],
  },
  { title: "rust: a method collapsed to true", path: RS, source: RS_STORE, from: "        !key.is_empty() && key.len() < 64", to: "        true", findings: [`validation_bypass/high ${RS}`] },
  {
    title: "rust: a method collapsed to Ok(())",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;\n        Ok(())",
    to: "        Ok(())",
    findings: [`validation_bypass/high ${RS}`],
  },
  { title: "rust: PartialEq::eq now always returns true", path: RS, source: RS_STORE, from: "        self.root == other.root", to: "        true", findings: [`special_casing/critical ${RS}`] },
  { title: "rust: a pub fn removed", path: RS, source: RS_STORE, from: "pub fn version() -> u32 {\n    41\n}\n\n", to: "", findings: [`feature_removal/medium ${RS}`] },
  { title: "rust: a pub enum removed", path: RS, source: RS_STORE, from: "pub enum Mode {\n    Read,\n    Write,\n}\n\n", to: "", findings: [`feature_removal/medium ${RS}`] },
  { title: "rust: a pub trait removed", path: RS, source: RS_STORE, from: "pub trait Backend {\n    fn name(&self) -> String;\n}\n\n", to: "", findings: [`feature_removal/medium ${RS}`] },
  {
    title: "rust: a pub method of a pub struct removed",
    path: RS,
    source: RS_STORE,
    from: "    pub fn load(&self, key: &str) -> io::Result<String> {\n        let text = fs::read_to_string(self.path(key))?;\n        Ok(text)\n    }\n\n",
    to: "",
    findings: [`feature_removal/medium ${RS}`],
  },
  {
    title: "rust: ? now maps the error first (look-alike)",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        fs::write(self.path(key), value).map_err(StoreError::Io)?;",
    findings: [],
  },
  {
    title: "rust: ? spelled as a match returning the error (look-alike)",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        match fs::write(self.path(key), value) {\n            Ok(()) => {}\n            Err(e) => return Err(e),\n        }",
    findings: [],
  },
  {
    title: "rust: a new let _ = on a call that never propagated (look-alike)",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: '        let _ = fs::remove_file(self.path("tmp"));\n        fs::write(self.path(key), value)?;',
    findings: [],
  },
  {
    title: "rust: a new .ok(); beside a ? that stays (look-alike)",
    path: RS,
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        fs::write(self.path(key), value).ok();\n        fs::write(self.path(key), value)?;",
    findings: [],
  },
  {
    title: "rust: a ? removed beside a .ok(); that was already there (look-alike)",
    path: RS,
    source: RS_STORE.replace("        fs::write(self.path(key), value)?;", "        fs::write(self.path(key), value).ok();\n        fs::write(self.path(key), value)?;"),
    from: "        fs::write(self.path(key), value)?;\n",
    to: "",
    findings: [],
  },
  { title: "rust: a constant fn keeps returning a constant (look-alike)", path: RS, source: RS_STORE, from: "    41\n", to: "    42\n", findings: [] },
  { title: "rust: a pub(crate) fn removed (look-alike)", path: RS, source: RS_STORE, from: "pub(crate) fn internal() -> u32 {\n    7\n}\n\n", to: "", findings: [] },
  { title: "rust: a pub fn of a #[cfg(test)] module removed (look-alike)", path: RS, source: RS_STORE, from: "    pub fn fixture() -> u32 {\n        1\n    }\n\n", to: "", findings: [] },
  { title: "rust: a pub fn renamed with its body unchanged (look-alike)", path: RS, source: RS_STORE, from: "pub fn label(", to: "pub fn title(", findings: [] },
  { title: "rust: a pub fn of main.rs removed (look-alike)", path: "src/main.rs", source: RS_STORE, from: "pub fn version() -> u32 {\n    41\n}\n\n", to: "", findings: [] },
  {
    title: "rust: a swallowing edit in an integration test (look-alike)",
    path: "tests/store.rs",
    source: RS_STORE,
    from: "        fs::write(self.path(key), value)?;",
    to: "        let _ = fs::write(self.path(key), value);",
    findings: [],
  },
  // PHP
  {
    title: "php: catch that threw is now empty",
    path: PHP,
    source: PHP_MONEY,
    from: `        } catch (\\ValueError $e) {\n            throw new InvalidArgumentException("not a number: " . $text, 0, $e);\n        }`,
    to: "        } catch (\\Exception $e) {\n        }",
    findings: [`validation_bypass/high ${PHP}`],
  },
  {
    title: "php: catch that threw now returns 0",
    path: PHP,
    source: PHP_MONEY,
    from: `            throw new InvalidArgumentException("not a number: " . $text, 0, $e);`,
    to: "            return 0;",
    findings: [`validation_bypass/high ${PHP}`],
  },
  {
    title: "php: catch that threw now only logs",
    path: PHP,
    source: PHP_MONEY,
    from: `            throw new InvalidArgumentException("not a number: " . $text, 0, $e);`,
    to: `            $this->logger->warning("parse failed", ["error" => $e]);`,
    findings: [`validation_bypass/high ${PHP}`],
  },
  {
    title: "php: catch now throws a different exception (look-alike)",
    path: PHP,
    source: PHP_MONEY,
    from: `            throw new InvalidArgumentException("not a number: " . $text, 0, $e);`,
    to: "            throw new ParseError($text, 0, $e);",
    findings: [],
  },
  {
    title: "php: catch now hands the error to a handler (look-alike)",
    path: PHP,
    source: PHP_MONEY,
    from: `            throw new InvalidArgumentException("not a number: " . $text, 0, $e);`,
    to: "            $this->errors->report($e);\n            return $this->fallback($text);",
    findings: [],
  },
  {
    title: "php: a method collapsed to return 42",
    path: PHP,
    source: PHP_MONEY,
    from: "        $s = 0;\n        foreach ($items as $item) {\n            $s += $item;\n        }\n        return $s;",
    to: "        return 42;",
    findings: [`validation_bypass/high ${PHP}`],
  },
  { title: "php: a constant method keeps returning a constant (look-alike)", path: PHP, source: PHP_MONEY, from: "        return 41;", to: "        return 42;", findings: [] },
  {
    title: "php: a public method removed",
    path: PHP,
    source: PHP_MONEY,
    from: "    public function version(): int\n    {\n        return 41;\n    }\n\n",
    to: "",
    findings: [`feature_removal/medium ${PHP}`],
  },
  {
    title: "php: a method without a visibility modifier removed",
    path: PHP,
    source: PHP_MONEY,
    from: "    function label(string $name): string\n    {\n        return strtoupper($name);\n    }\n\n",
    to: "",
    findings: [`feature_removal/medium ${PHP}`],
  },
  {
    title: "php: a function removed",
    path: PHP,
    source: PHP_MONEY,
    from: `\nfunction format_money(int $cents): string\n{\n    return sprintf("%d.%02d", intdiv($cents, 100), $cents % 100);\n}\n`,
    to: "",
    findings: [`feature_removal/medium ${PHP}`],
  },
  { title: "php: a private method removed (look-alike)", path: PHP, source: PHP_MONEY, from: "    private function helper(int $x): int\n    {\n        return $x * 2;\n    }\n", to: "", findings: [] },
  { title: "php: a public method renamed with its body unchanged (look-alike)", path: PHP, source: PHP_MONEY, from: "public function total(", to: "public function sum(", findings: [] },
  {
    title: "php: the same catch edit in a test file (look-alike)",
    path: "tests/MoneyTest.php",
    source: PHP_MONEY,
    from: `            throw new InvalidArgumentException("not a number: " . $text, 0, $e);`,
    to: "            return 0;",
    findings: [],
  },
  // Java, C#, Ruby: public API
  {
    title: "java: a public method removed",
    path: JAVA,
    source: JAVA_SHOP,
    from: "    public int total(int[] items) {\n        int s = 0;\n        for (int item : items) {\n            s += item;\n        }\n        return s;\n    }\n\n",
    to: "",
    findings: [`feature_removal/medium ${JAVA}`],
  },
  { title: "java: a package-private method removed (look-alike)", path: JAVA, source: JAVA_SHOP, from: "    int helper(int x) {\n        return x * 2;\n    }\n", to: "", findings: [] },
  {
    title: "java: a method of a package-private class removed (look-alike)",
    path: JAVA,
    source: JAVA_SHOP,
    from: "    public void record(int amount) {\n        System.out.println(amount);\n    }\n",
    to: "",
    findings: [],
  },
  { title: "java: a public method renamed with its body unchanged (look-alike)", path: JAVA, source: JAVA_SHOP, from: "public int total(", to: "public int sum(", findings: [] },
  {
    title: "csharp: a public method removed",
    path: CS,
    source: CS_SHOP,
    from: "    public int Total(int[] items)\n    {\n        var s = 0;\n        foreach (var item in items) s += item;\n        return s;\n    }\n\n",
    to: "",
    findings: [`feature_removal/medium ${CS}`],
  },
  { title: "csharp: a private method removed (look-alike)", path: CS, source: CS_SHOP, from: "    private int Helper(int x)\n    {\n        return x * 2;\n    }\n", to: "", findings: [] },
  {
    title: "csharp: a method of an internal class removed (look-alike)",
    path: CS,
    source: CS_SHOP,
    from: "    public void Record(int amount)\n    {\n        Console.WriteLine(amount);\n    }\n",
    to: "",
    findings: [],
  },
  {
    title: "ruby: a public method removed",
    path: RB,
    source: RB_SHOP,
    from: "  def total(items)\n    s = 0\n    items.each { |item| s += item }\n    s\n  end\n\n",
    to: "",
    findings: [`feature_removal/medium ${RB}`],
  },
  { title: "ruby: a method after `private` removed (look-alike)", path: RB, source: RB_SHOP, from: "\n  def helper(x)\n    x * 2\n  end\n", to: "", findings: [] },
];

describe("code facts of the tree-sitter languages", () => {
  it.each(ROWS.map((row) => [row.title, row] as const))("%s", async (_title, row) => {
    await expectFindings({ name: row.title, changes: [change(row.path, row.source, edit(row.source, row.from, row.to))], findings: row.findings });
  });
});

const RS_LIB = `mod fmt;

pub fn render(x: u32) -> String {
    fmt::digits(x)
}
`;
const RS_FMT = `pub fn digits(x: u32) -> String {
    format!("{}", x)
}
`;

/** Changes over several files: what a module's parent says about it. */
const MULTI_FILE: { title: string; changes: ReturnType<typeof change>[]; findings: string[] }[] = [
  {
    title: "rust: a pub fn of a private module, deleted with its file (look-alike)",
    changes: [change("src/lib.rs", RS_LIB, "pub fn render(x: u32) -> String {\n    x.to_string()\n}\n"), change("src/fmt.rs", RS_FMT, null)],
    findings: [],
  },
  {
    title: "rust: a pub fn of a private module removed, the parent in the change (look-alike)",
    changes: [change("src/lib.rs", RS_LIB, RS_LIB.replace("fmt::digits(x)", "x.to_string()")), change("src/fmt.rs", RS_FMT, "")],
    findings: [],
  },
  {
    title: "rust: a pub use re-export removed with its private module",
    changes: [change("src/lib.rs", `${RS_LIB}\npub use fmt::digits;\n`, "pub fn render(x: u32) -> String {\n    x.to_string()\n}\n"), change("src/fmt.rs", RS_FMT, null)],
    findings: ["feature_removal/medium src/lib.rs"],
  },
  {
    title: "rust: a pub mod's file deleted",
    changes: [change("src/lib.rs", RS_LIB.replace("mod fmt;", "pub mod fmt;"), "pub fn render(x: u32) -> String {\n    x.to_string()\n}\n"), change("src/fmt.rs", RS_FMT, null)],
    findings: ["feature_removal/medium src/fmt.rs"],
  },
];

const JAVA_PRICE = `package shop;

public final class Price {
    private final int cents;

    public Price(int cents) {
        this.cents = cents;
    }

    public static Price of(int cents) {
        return new Price(cents);
    }
}
`;
MULTI_FILE.push(
  {
    title: "java: a public class renamed with its file and constructor (look-alike)",
    changes: [change("src/main/java/shop/Price.java", JAVA_PRICE, null), change("src/main/java/shop/Amount.java", null, JAVA_PRICE.replace(/Price/g, "Amount"))],
    findings: [],
  },
  {
    title: "ruby: a class moved out of a file that reopened its namespace module (look-alike)",
    changes: [
      change("lib/shop/cart.rb", "module Shop\n  class Cart\n    def add(item)\n      items << item\n    end\n  end\nend\n", null),
      change("lib/shop/order.rb", "module Shop\n  class Order\n  end\nend\n", "module Shop\n  class Order\n  end\n\n  class Cart\n    def add(item)\n      items << item\n    end\n  end\nend\n"),
    ],
    findings: [],
  },
  {
    title: "pydantic: a @field_validator moved into Annotated[..., BeforeValidator(f)] (look-alike)",
    changes: [
      change(
        MODELS,
        PY_MODELS,
        edit(
          edit(PY_MODELS, "    nickname: str\n", "    nickname: Annotated[str, BeforeValidator(check_nickname)]\n"),
          `    @field_validator("nickname")\n    @classmethod\n    def check_nickname(cls, value):\n        if not value.strip():\n            raise ValueError("blank nickname")\n        return value\n\n`,
          "",
        ),
      ),
    ],
    findings: [],
  },
  {
    title: "pydantic: a @field_validator rewritten as a @model_validator (look-alike)",
    changes: [
      change(
        MODELS,
        PY_MODELS,
        edit(
          PY_MODELS,
          `    @field_validator("nickname")\n    @classmethod\n    def check_nickname(cls, value):\n        if not value.strip():\n            raise ValueError("blank nickname")\n        return value\n`,
          `    @model_validator(mode="after")\n    def check_nickname(self):\n        if not self.nickname.strip():\n            raise ValueError("blank nickname")\n        return self\n`,
        ),
      ),
    ],
    findings: [],
  },
  {
    title: "java: a public class deleted",
    changes: [change("src/main/java/shop/Price.java", JAVA_PRICE, null)],
    findings: ["feature_removal/medium src/main/java/shop/Price.java"],
  },
);

describe("code facts across files", () => {
  it.each(MULTI_FILE.map((row) => [row.title, row] as const))("%s", async (_title, row) => {
    await expectFindings({ name: row.title, changes: row.changes, findings: row.findings });
  });
});

/** The public names each language's code facts record for feature_removal, sorted. */
const EXPORT_CASES: { title: string; path: string; source: string; names: string[] }[] = [
  { title: "python: top-level def/class without a leading _", path: PY, source: PY_LOAD, names: ["Money", "load", "total", "version"] },
  { title: "python: __all__ decides", path: API, source: PY_API, names: ["load", "total"] },
  { title: "python: a script module's main is not API", path: "src/tools/report.py", source: PY_SCRIPT, names: ["parse_args"] },
  { title: "python: __main__.py has no API", path: "src/tools/__main__.py", source: PY_SCRIPT, names: [] },
  {
    title: "python: __all__ may list an imported name, and grow with += and .append",
    path: API,
    source: `from .core import Engine\n\n__all__ = ["Engine"]\n__all__ += ["run"]\n__all__.append("VERSION")\n\nVERSION = "1"\n\n\ndef run():\n    return Engine()\n\n\ndef helper():\n    return 1\n`,
    names: ["Engine", "VERSION", "run"],
  },
  { title: "python: an __all__ built at run time is not read", path: API, source: `__all__ = [name for name in dir() if not name.startswith("_")]\n\n\ndef run():\n    return 1\n`, names: ["run"] },
  { title: "go: capitalised functions and types", path: GO, source: GO_SHOP, names: ["Cart", "Label", "Total", "Version"] },
  {
    title: "rust: pub items and pub methods of pub types, not pub(crate) or #[cfg(test)]",
    path: RS,
    source: RS_STORE,
    names: ["Backend", "Mode", "Store", "Store::is_valid", "Store::load", "Store::save", "label", "version"],
  },
  {
    title: "php: classes, functions and non-private, non-protected methods",
    path: PHP,
    source: PHP_MONEY,
    names: ["Money", "Money::label", "Money::parse", "Money::total", "Money::version", "format_money"],
  },
  { title: "java: public top-level types and their public methods", path: JAVA, source: JAVA_SHOP, names: ["Money", "Money.equals", "Money.parse", "Money.total"] },
  { title: "csharp: public types and their public methods", path: CS, source: CS_SHOP, names: ["Money", "Money.Equals", "Money.Parse", "Money.Total"] },
  { title: "ruby: classes and methods before `private`", path: RB, source: RB_SHOP, names: ["Money", "Money#parse", "Money#total"] },
  {
    title: "ruby: a namespace module is not API itself, initialize is private, private :x and class << self count",
    path: "lib/shop/errors.rb",
    source: `module Shop\n  class ParseError < StandardError\n    def initialize(text)\n      super("bad: #{text}")\n    end\n  end\n\n  class Cart\n    class << self\n      def build; end\n\n      private\n\n      def secret; end\n    end\n\n    def add; end\n\n    def remove; end\n    private :remove\n  end\nend\n`,
    names: ["Shop::Cart", "Shop::Cart#add", "Shop::Cart.build", "Shop::ParseError"],
  },
  {
    title: "csharp: a partial class leaves its name to its other parts",
    path: CS,
    source: "namespace Shop;\n\npublic partial class Money\n{\n    public int Total() { return 1; }\n}\n",
    names: ["Money.Total"],
  },
];

describe("exported names of the tree-sitter languages", () => {
  it.each(EXPORT_CASES.map((row) => [row.title, row] as const))("%s", async (_title, row) => {
    const facts = await extractFacts(row.path, row.source);
    expect((facts.code?.exports ?? []).map((fact) => fact.name).sort()).toEqual(row.names);
  });
});

/** Schema facts of Python models: each key's constraint names (merged, sorted), and the keys marked opaque. */
const SCHEMA_CASES: { title: string; source: string; keys: Record<string, string[]>; opaque?: string[] }[] = [
  {
    title: "pydantic v2: Field, con*, Annotated, constrained types, validators, config",
    source: PY_MODELS,
    keys: {
      User: ["extra=forbid", "model_validator"],
      "User.name": ["min_length"],
      "User.age": ["gt"],
      "User.code": ["pattern"],
      "User.score": ["ge", "le"],
      "User.email": ["email"],
      "User.nickname": ["validator"],
      "User.bio": ["nullable", "optional"],
    },
  },
  {
    title: "pydantic v1: class Config, @validator, a model extending one of the file",
    source: `from pydantic import BaseModel, Extra, validator


class Base(BaseModel):
    class Config:
        extra = Extra.forbid


class User(Base):
    name: str
    tags: list = []

    @validator("name", "tags", pre=True)
    def check(cls, v):
        return v
`,
    keys: { Base: ["extra=forbid"], User: [], "User.name": ["validator"], "User.tags": ["validator"] },
  },
  {
    title: "pydantic: class keywords, annotated-types metadata, Union with None, a named type",
    source: `from typing import Annotated, Optional, Union

from annotated_types import Gt, MaxLen
from pydantic import AfterValidator, BaseModel


class Item(BaseModel, extra="allow"):
    price: Annotated[float, Gt(0)]
    tags: Annotated[list[str], MaxLen(5), AfterValidator(dedupe)]
    parent: Union[int, None] = None
    ref: Optional[Ref] = None
    mode: Literal["local"] | None = None
    owner: Owner | None = None
    _cache: dict = {}
`,
    keys: {
      Item: ["extra=allow"],
      "Item.price": ["gt"],
      "Item.tags": ["max_length", "validator"],
      "Item.parent": ["nullable", "optional"],
      "Item.ref": ["nullable", "optional"],
      "Item.mode": ["nullable", "optional"],
      "Item.owner": ["nullable", "optional"],
    },
    opaque: ["Item.ref", "Item.owner"],
  },
  {
    title: "marshmallow: required, validate, field classes, @validates, Meta",
    source: PY_SCHEMAS.replace("unknown = RAISE", "unknown = INCLUDE"),
    keys: { UserSchema: ["unknown=INCLUDE"], "UserSchema.name": ["required", "validate", "validates"], "UserSchema.email": ["email", "required"], "UserSchema.age": ["validate", "validate"] },
  },
  {
    title: "a plain class and a stdlib dataclass are not schemas",
    source: `from dataclasses import dataclass
from typing import Optional


@dataclass
class Point:
    x: int
    y: Optional[int] = None


class Options:
    level: int = 0
`,
    keys: {},
  },
];

describe("schema facts of Python models", () => {
  it.each(SCHEMA_CASES.map((row) => [row.title, row] as const))("%s", async (_title, row) => {
    const facts = await extractFacts(MODELS, row.source);
    const keys: Record<string, string[]> = {};
    for (const schema of facts.code?.schemas ?? []) (keys[schema.key] ??= []).push(...schema.methods);
    for (const methods of Object.values(keys)) methods.sort();
    expect(keys).toEqual(row.keys);
    expect((facts.code?.schemas ?? []).filter((schema) => schema.opaque).map((schema) => schema.key)).toEqual(row.opaque ?? []);
  });
});
