/**
 * Code facts of the tree-sitter languages that JS/TS already had: catch
 * blocks that now swallow the error, functions collapsed to a constant
 * return, always-true equality methods, test-runner checks in product code,
 * and public functions removed. Each row is an edit of a product file and
 * the findings it must produce; the look-alikes (a catch that raises a
 * different error, a constant that always was one, a private function
 * removed, a runner check in a test or config file) must produce none.
 */
import { describe, it } from "vitest";
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
end
`;

const PY = "src/shop/load.py";
const JAVA = "src/main/java/shop/Money.java";
const CS = "src/Shop/Money.cs";
const RB = "lib/shop/money.rb";
const GO = "shop/shop.go";

const ROWS: Row[] = [
  // Python: catches
  { title: "python: except that re-raised now passes", path: PY, source: PY_LOAD, from: `    except OSError as e:\n        raise RuntimeError("cannot load") from e`, to: "    except Exception:\n        pass", findings: [`validation_bypass/high ${PY}`] },
  { title: "python: except that re-raised now returns a constant", path: PY, source: PY_LOAD, from: `        raise RuntimeError("cannot load") from e`, to: `        return ""`, findings: [`validation_bypass/high ${PY}`] },
  { title: "python: except that re-raised now logs and returns None", path: PY, source: PY_LOAD, from: `        raise RuntimeError("cannot load") from e`, to: `        logger.warning("load failed: %s", e)\n        return None`, findings: [`validation_bypass/high ${PY}`] },
  { title: "python: except now raises a different error type (look-alike)", path: PY, source: PY_LOAD, from: `    except OSError as e:\n        raise RuntimeError("cannot load") from e`, to: `    except (OSError, ValueError) as e:\n        raise LoadError(str(e)) from e`, findings: [] },
  { title: "python: except now handles the error with a fallback (look-alike)", path: PY, source: PY_LOAD, from: `        raise RuntimeError("cannot load") from e`, to: `        report(e)\n        return read(path + ".bak")`, findings: [] },
  { title: "python: swallowing edit in a test file (look-alike)", path: "tests/test_load.py", source: PY_LOAD, from: `        raise RuntimeError("cannot load") from e`, to: "        pass", findings: [] },
  // Python: constant returns
  { title: "python: a function collapsed to return 42", path: PY, source: PY_LOAD, from: "    s = 0\n    for item in items:\n        s += item\n    return s", to: "    return 42", findings: [`validation_bypass/high ${PY}`] },
  { title: "python: a constant function keeps returning a constant (look-alike)", path: PY, source: PY_LOAD, from: "    return 41", to: `    """The schema version."""\n    return 42`, findings: [] },
  // Python: equality
  { title: "python: __eq__ now always returns True", path: PY, source: PY_LOAD, from: "        return self.amount == other.amount", to: "        return True", findings: [`special_casing/critical ${PY}`] },
  { title: "python: __eq__ reworded (look-alike)", path: PY, source: PY_LOAD, from: "        return self.amount == other.amount", to: "        return isinstance(other, Money) and self.amount == other.amount", findings: [] },
  // Python: runner checks
  { title: "python: `\"pytest\" in sys.modules` added", path: PY, source: PY_LOAD, from: "    s = 0\n", to: `    if "pytest" in sys.modules:\n        return 6\n    s = 0\n`, findings: [`special_casing/critical ${PY}`] },
  { title: "python: os.environ.get(\"PYTEST_CURRENT_TEST\") added", path: PY, source: PY_LOAD, from: "    s = 0\n", to: `    if os.environ.get("PYTEST_CURRENT_TEST"):\n        return 6\n    s = 0\n`, findings: [`special_casing/critical ${PY}`] },
  { title: "python: os.environ[\"APP_ENV\"] == \"test\" added", path: PY, source: PY_LOAD, from: "    s = 0\n", to: `    if os.environ["APP_ENV"] == "test":\n        return 6\n    s = 0\n`, findings: [`special_casing/critical ${PY}`] },
  { title: "python: APP_ENV == \"production\" added (look-alike)", path: PY, source: PY_LOAD, from: "    s = 0\n", to: `    if os.environ.get("APP_ENV") == "production":\n        return 6\n    s = 0\n`, findings: [] },
  { title: "python: a runner check in conftest.py (look-alike)", path: "conftest.py", source: PY_LOAD, from: "    s = 0\n", to: `    if "pytest" in sys.modules:\n        s = 1\n    s = 0\n`, findings: [] },
  { title: "python: a runner check in a settings config (look-alike)", path: "config/settings.py", source: PY_LOAD, from: "    s = 0\n", to: `    if os.environ.get("PYTEST_CURRENT_TEST"):\n        s = 1\n    s = 0\n`, findings: [] },
  { title: "python: a runner check in a test file (look-alike)", path: "tests/test_load.py", source: PY_LOAD, from: "    s = 0\n", to: `    if "pytest" in sys.modules:\n        return 6\n    s = 0\n`, findings: [] },
  // Python: exports
  { title: "python: a public function removed", path: PY, source: PY_LOAD, from: "def version():\n    return 41\n\n\n", to: "", findings: [`feature_removal/medium ${PY}`] },
  { title: "python: a public class removed", path: PY, source: PY_LOAD, from: PY_LOAD.slice(PY_LOAD.indexOf("class Money")), to: "", findings: [`feature_removal/medium ${PY}`] },
  { title: "python: a _private function removed (look-alike)", path: PY, source: PY_LOAD, from: "def _helper(x):\n    return x * 2\n\n\n", to: "", findings: [] },
  { title: "python: a public function renamed with its body unchanged (look-alike)", path: PY, source: PY_LOAD, from: "def total(items):", to: "def sum_items(items):", findings: [] },
  // Go
  { title: "go: a function collapsed to return 42", path: GO, source: GO_SHOP, from: "\ts := 0\n\tfor _, item := range items {\n\t\ts += item\n\t}\n\treturn s", to: "\treturn 42", findings: [`validation_bypass/high ${GO}`] },
  { title: "go: a constant function keeps returning a constant (look-alike)", path: GO, source: GO_SHOP, from: "\treturn 41", to: "\treturn 42", findings: [] },
  { title: "go: testing.Testing() added", path: GO, source: GO_SHOP, from: "\ts := 0\n", to: "\tif testing.Testing() {\n\t\treturn 6\n\t}\n\ts := 0\n", findings: [`special_casing/critical ${GO}`] },
  { title: "go: os.Getenv(\"APP_ENV\") == \"test\" added", path: GO, source: GO_SHOP, from: "\ts := 0\n", to: "\tif os.Getenv(\"APP_ENV\") == \"test\" {\n\t\treturn 6\n\t}\n\ts := 0\n", findings: [`special_casing/critical ${GO}`] },
  { title: "go: testing.Testing() in a _test.go file (look-alike)", path: "shop/shop_test.go", source: GO_SHOP, from: "\ts := 0\n", to: "\tif testing.Testing() {\n\t\treturn 6\n\t}\n\ts := 0\n", findings: [] },
  { title: "go: an exported function removed", path: GO, source: GO_SHOP, from: "func Version() int {\n\treturn 41\n}\n\n", to: "", findings: [`feature_removal/medium ${GO}`] },
  { title: "go: an exported type removed", path: GO, source: GO_SHOP, from: "type Cart struct {\n\titems []int\n}\n\n", to: "", findings: [`feature_removal/medium ${GO}`] },
  { title: "go: an unexported function removed (look-alike)", path: GO, source: GO_SHOP, from: "func helper(x int) int {\n\treturn x * 2\n}\n\n", to: "", findings: [] },
  { title: "go: an exported function of package main removed (look-alike)", path: "cmd/shop/main.go", source: GO_SHOP.replace("package shop", "package main"), from: "func Version() int {\n\treturn 41\n}\n\n", to: "", findings: [] },
  { title: "go: an exported function renamed with its body unchanged (look-alike)", path: GO, source: GO_SHOP, from: "func Label(", to: "func Title(", findings: [] },
  // Java
  { title: "java: catch that threw now returns 0", path: JAVA, source: JAVA_SHOP, from: `            throw new IllegalArgumentException("not a number: " + text, e);`, to: "            return 0;", findings: [`validation_bypass/high ${JAVA}`] },
  { title: "java: catch that threw is now empty", path: JAVA, source: JAVA_SHOP, from: `            throw new IllegalArgumentException("not a number: " + text, e);`, to: "", findings: [`validation_bypass/high ${JAVA}`] },
  { title: "java: catch that threw now only prints the stack trace", path: JAVA, source: JAVA_SHOP, from: `            throw new IllegalArgumentException("not a number: " + text, e);`, to: "            e.printStackTrace();", findings: [`validation_bypass/high ${JAVA}`] },
  { title: "java: catch now hands the error to a handler (look-alike)", path: JAVA, source: JAVA_SHOP, from: `            throw new IllegalArgumentException("not a number: " + text, e);`, to: "            errors.report(e);\n            return fallback(text);", findings: [] },
  { title: "java: catch now throws a different exception (look-alike)", path: JAVA, source: JAVA_SHOP, from: `            throw new IllegalArgumentException("not a number: " + text, e);`, to: "            throw new ParseException(text, e);", findings: [] },
  { title: "java: equals now always returns true", path: JAVA, source: JAVA_SHOP, from: "        return o instanceof Money && ((Money) o).amount == amount;", to: "        return true;", findings: [`special_casing/critical ${JAVA}`] },
  { title: "java: a method collapsed to return 42", path: JAVA, source: JAVA_SHOP, from: "        int s = 0;\n        for (int item : items) {\n            s += item;\n        }\n        return s;", to: "        return 42;", findings: [`validation_bypass/high ${JAVA}`] },
  { title: "java: System.getProperty(\"surefire…\") added", path: JAVA, source: JAVA_SHOP, from: "        int s = 0;\n", to: "        if (System.getProperty(\"surefire.test.class.path\") != null) {\n            return 6;\n        }\n        int s = 0;\n", findings: [`special_casing/critical ${JAVA}`] },
  { title: "java: System.getProperty(\"user.home\") added (look-alike)", path: JAVA, source: JAVA_SHOP, from: "        int s = 0;\n", to: "        if (System.getProperty(\"user.home\") != null) {\n            return 6;\n        }\n        int s = 0;\n", findings: [] },
  { title: "java: the same catch edit in a test file (look-alike)", path: "src/test/java/shop/MoneyTest.java", source: JAVA_SHOP, from: `            throw new IllegalArgumentException("not a number: " + text, e);`, to: "            return 0;", findings: [] },
  // C#
  { title: "csharp: catch that threw now returns 0 for any Exception", path: CS, source: CS_SHOP, from: "        catch (FormatException e)\n        {\n            throw new ArgumentException(\"not a number: \" + text, e);", to: "        catch (Exception)\n        {\n            return 0;", findings: [`validation_bypass/high ${CS}`] },
  { title: "csharp: catch now rethrows with `throw;` (look-alike)", path: CS, source: CS_SHOP, from: "            throw new ArgumentException(\"not a number: \" + text, e);", to: "            Log(e);\n            throw;", findings: [] },
  { title: "csharp: Equals now always returns true", path: CS, source: CS_SHOP, from: "        return o is Money other && other.amount == amount;", to: "        return true;", findings: [`special_casing/critical ${CS}`] },
  // Ruby
  { title: "ruby: rescue that raised now rescues Exception and returns 0", path: RB, source: RB_SHOP, from: "  rescue ArgumentError => e\n    raise ParseError, \"not a number: #{e.message}\"", to: "  rescue Exception\n    0", findings: [`validation_bypass/high ${RB}`] },
  { title: "ruby: rescue that raised now returns nil", path: RB, source: RB_SHOP, from: "    raise ParseError, \"not a number: #{e.message}\"", to: "    nil", findings: [`validation_bypass/high ${RB}`] },
  { title: "ruby: rescue now raises another error (look-alike)", path: RB, source: RB_SHOP, from: "    raise ParseError, \"not a number: #{e.message}\"", to: "    raise ArgumentError, \"bad input\"", findings: [] },
  { title: "ruby: ENV[\"RAILS_ENV\"] == \"test\" added", path: RB, source: RB_SHOP, from: "    s = 0\n", to: "    return 6 if ENV[\"RAILS_ENV\"] == \"test\"\n    s = 0\n", findings: [`special_casing/critical ${RB}`] },
  { title: "ruby: Rails.env.test? added", path: RB, source: RB_SHOP, from: "    s = 0\n", to: "    return 6 if Rails.env.test?\n    s = 0\n", findings: [`special_casing/critical ${RB}`] },
  { title: "ruby: ENV[\"RAILS_ENV\"] == \"production\" added (look-alike)", path: RB, source: RB_SHOP, from: "    s = 0\n", to: "    return 6 if ENV[\"RAILS_ENV\"] == \"production\"\n    s = 0\n", findings: [] },
  { title: "ruby: Rails.env.test? in config/environments (look-alike)", path: "config/environments/shop.rb", source: RB_SHOP, from: "    s = 0\n", to: "    s = 1 if Rails.env.test?\n    s = 0\n", findings: [] },
];

describe("code facts of the tree-sitter languages", () => {
  it.each(ROWS.map((row) => [row.title, row] as const))("%s", async (_title, row) => {
    await expectFindings({ name: row.title, changes: [change(row.path, row.source, edit(row.source, row.from, row.to))], findings: row.findings });
  });
});
