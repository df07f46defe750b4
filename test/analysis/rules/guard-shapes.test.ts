/**
 * Guards written in another shape that keeps them (issue 9, validation_bypass
 * false alarms found sweeping), and the nearest cheats, which still fire:
 * - an `if (c) panic!(m)` and `assert!(!(c), m)` (clippy's manual_assert),
 *   `ensure!(c, m)` for `if !c { bail!(m) }`; a `debug_assert!` is weaker
 *   (release builds drop it), so a panic rewritten as one is lost;
 * - a throw expression: PHP `c || throw E`, `$x ?? throw E`, `c or throw E`,
 *   C# `x ?? throw new E()`, `c ? v : throw new E()`; replaced by a default
 *   (`?? null`) it is lost;
 * - a guard as the `elif`/`elsif`/`elseif` of a branch before it;
 * - a guard's condition narrowed by its bound (`x < 0` -> `x < -1`), which
 *   fires on fewer values with the same throw;
 * - a throw helper inlined (`token.ThrowIfCancelled(m)`, its definition
 *   deleted, as `if (token.IsCancelled) throw new OperationCanceledException(m)`)
 *   and the reverse (`if (x is null) ThrowHelper.ThrowArgumentNullException(…)`);
 * - a catch clause added before the others of a function (a filtered catch
 *   split in two): the catches that were there keep what they did, so none
 *   of them "now swallows"; a catch that passed the error on and now
 *   swallows it still fires;
 * - a refusal (`throw new NotSupportedException`, `raise NotImplementedError`,
 *   `unimplemented!()`, `errors.New("… not supported")`) removed because the
 *   case it refused is handled now: implementing, not bypassing; the refusal
 *   replaced by a branch answering a default for the same case still fires;
 * - guards moved into a table of validators looped over, whose messages are
 *   collected and thrown together (`throw new Error(messages.join("\\n"))`):
 *   each guard whose message is still in the table is kept; one whose
 *   message left with its table entry is lost.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

/** One product file whose GUARD placeholder is replaced by the before and after spellings. */
function row(name: string, path: string, template: string, before: string, after: string, findings: string[]): RuleCase {
  return { name, changes: [change(path, template.replace("GUARD", before), template.replace("GUARD", after))], findings };
}

const RUST = "pub struct S { v: Vec<u32> }\n\nimpl S {\n    pub fn get(&self, i: usize, j: usize) -> u32 {\n        GUARD\n        self.v[i] + self.v[j]\n    }\n}\n";
const RUST_RESULT = "pub fn parse(s: &str) -> anyhow::Result<u32> {\n    GUARD\n    Ok(s.len() as u32)\n}\n";
const PHP = "<?php\n\nclass Resolver\n{\n    public function resolve(string $caster, ?string $name): string\n    {\n        GUARD\n        return 'callback:' . $caster;\n    }\n}\n";
const CS = "namespace Shop;\n\npublic class Cart\n{\n    private string _name;\n\n    public Cart(string? name, int qty)\n    {\n        GUARD\n    }\n}\n";
const PY = "def read(path, pending, deadline):\n    while True:\n        GUARD\n        pending = poll(path)\n";
const RB = "class Reader\n  def read(path, deadline)\n    loop do\n      GUARD\n      poll(path)\n    end\n  end\nend\n";
const JS = "export function take(qty) {\n  GUARD\n  return qty * 2;\n}\n";
const JAVA = "class Qty {\n    int check(int qty) {\n        GUARD\n        return qty;\n    }\n}\n";

const CS_EXTENSIONS =
  "namespace Shop;\n\ninternal static class TokenExtensions\n{\n    public static void ThrowIfCancelled(this Token token, string message)\n    {\n        if (!token.IsCancelled)\n            return;\n\n        throw new OperationCanceledException(message);\n    }\n}\n";
const CS_RUN = "namespace Shop;\n\npublic class Runner\n{\n    public int Run(Token forceful, Token graceful)\n    {\n        GUARD\n        return 0;\n    }\n}\n";
const CS_CALLS = 'forceful.ThrowIfCancelled("forcefully terminated");\n        graceful.ThrowIfCancelled("gracefully terminated");';
const CS_INLINED =
  'if (forceful.IsCancelled)\n            throw new OperationCanceledException("forcefully terminated");\n        if (graceful.IsCancelled)\n            throw new OperationCanceledException("gracefully terminated");';

/** The two calls of a throw helper defined in the change, before; `after` in their place, the helper's file deleted. */
const inlined = (name: string, after: string, findings: string[]): RuleCase => ({
  name,
  changes: [change("src/Shop/TokenExtensions.cs", CS_EXTENSIONS, null), change("src/Shop/Runner.cs", CS_RUN.replace("GUARD", CS_CALLS), CS_RUN.replace("GUARD", after))],
  findings,
});

const CS_CATCHES =
  'namespace Shop;\n\npublic class Runner\n{\n    public void Run(Token token)\n    {\n        try\n        {\n            Step(token);\n        }\n        CATCHES\n    }\n\n    public void Run()\n    {\n        try\n        {\n            Configure();\n        }\n        catch (NotSupportedException ex)\n        {\n            throw new InvalidOperationException("cannot configure", ex);\n        }\n    }\n}\n';
const PY_CATCHES =
  "def load(path):\n    try:\n        return read(path)\n    CATCHES\n\n\ndef load_all(paths):\n    try:\n        return [read(p) for p in paths]\n    except KeyError as e:\n        raise LoadError(str(e)) from e\n";
const catches = (name: string, path: string, template: string, before: string, after: string, findings: string[]): RuleCase => ({
  name,
  changes: [change(path, template.replace("CATCHES", before), template.replace("CATCHES", after))],
  findings,
});

const CS_RANK = "namespace Shop;\n\npublic static class Renderer\n{\n    public static string Render(int rank, int[] values)\n    {\n        GUARD\n        return Flat(values);\n    }\n}\n";
const PY_FMT = "def dump(data, fmt):\n    GUARD\n    return to_json(data)\n";
const JS_MODE = "export function open(path, mode) {\n  GUARD\n  return readAll(path);\n}\n";
const JAVA_MODE = "class Store {\n    byte[] open(String path, String mode) {\n        GUARD\n        return readAll(path);\n    }\n}\n";
const RUST_RANK = "pub fn render(rank: usize, values: &[u32]) -> String {\n    GUARD\n    flat(values)\n}\n";
const GO_RANK = 'package shop\n\nimport "errors"\n\nfunc Render(rank int, values []int) (string, error) {\n\tGUARD\n\treturn flat(values), nil\n}\n';
const RB_FMT = "class Dumper\n  def dump(data, fmt)\n    GUARD\n    to_json(data)\n  end\nend\n";
const PHP_FMT = "<?php\n\nclass Dumper\n{\n    public function dump(array $data, string $fmt): string\n    {\n        GUARD\n        return json_encode($data);\n    }\n}\n";

const lookAlikes: RuleCase[] = [
  row(
    "csharp: a NotSupportedException for rank > 3 removed, every rank handled",
    "src/Shop/Renderer.cs",
    CS_RANK,
    'if (rank > 3) throw new NotSupportedException("rank > 3");',
    "values = Nested(rank, values);",
    [],
  ),
  row(
    "python: raise NotImplementedError for a format removed, the format handled",
    "pkg/dump.py",
    PY_FMT,
    'if fmt == "xml":\n        raise NotImplementedError("xml")',
    'if fmt == "xml":\n        return to_xml(data)',
    [],
  ),
  row(
    "js: throw new Error('not implemented') removed, the mode handled",
    "src/open.js",
    JS_MODE,
    'if (mode === "stream") throw new Error("streaming is not implemented yet");',
    'if (mode === "stream") return readStream(path);',
    [],
  ),
  row(
    "java: UnsupportedOperationException removed, the mode handled",
    "src/main/java/Store.java",
    JAVA_MODE,
    'if (mode.equals("rw")) throw new UnsupportedOperationException("rw");',
    'if (mode.equals("rw")) return readWrite(path);',
    [],
  ),
  row("rust: unimplemented! for a rank removed, every rank handled", "src/lib.rs", RUST_RANK, 'if rank > 3 {\n        unimplemented!("rank > 3");\n    }', "let values = &nested(rank, values);", []),
  row(
    "go: errors.New(not supported) removed, every rank handled",
    "shop/render.go",
    GO_RANK,
    'if rank > 3 {\n\t\treturn "", errors.New("rank > 3 is not supported")\n\t}',
    "values = nested(rank, values)",
    [],
  ),
  row("ruby: raise NotImplementedError removed, the format handled", "lib/dumper.rb", RB_FMT, 'raise NotImplementedError, "xml" if fmt == :xml', "return to_xml(data) if fmt == :xml", []),
  row(
    "php: a 'not supported' LogicException removed, the format handled",
    "src/Dumper.php",
    PHP_FMT,
    "if ($fmt === 'xml') {\n            throw new LogicException('xml is not supported');\n        }",
    "if ($fmt === 'xml') {\n            return $this->toXml($data);\n        }",
    [],
  ),
  catches(
    "csharp: a filtered empty catch split in two, one now throwing; the same-named overload's catch shifts by one",
    "src/Shop/Runner.cs",
    CS_CATCHES,
    "catch (OperationCanceledException ex) when (ex.Token == token || ex.Token == timeout) { }",
    'catch (OperationCanceledException ex) when (ex.Token == timeout)\n        {\n            throw new TimeoutException("late", ex);\n        }\n        catch (OperationCanceledException ex) when (ex.Token == token) { }',
    [],
  ),
  catches(
    "python: a handler added before the one that passed on; the other function's handler is the same",
    "pkg/load.py",
    PY_CATCHES,
    "except FileNotFoundError:\n        return None",
    "except PermissionError as e:\n        raise LoadError(path) from e\n    except FileNotFoundError:\n        return None",
    [],
  ),
  inlined("csharp: a throw helper's two calls inlined as its if/throw, the helper deleted", CS_INLINED, []),
  row(
    "csharp: if (x is null) throw -> if (x is null) ThrowHelper.ThrowArgumentNullException(...)",
    "src/Shop/Cart.cs",
    CS,
    "if (name is null) throw new ArgumentNullException(nameof(name));\n        _name = name;",
    "if (name is null) ThrowHelper.ThrowArgumentNullException(nameof(name));\n        _name = name;",
    [],
  ),
  row(
    "csharp: if (x is null) throw -> ThrowHelper.ThrowIfNull(x)",
    "src/Shop/Cart.cs",
    CS,
    "if (name is null) throw new ArgumentNullException(nameof(name));\n        _name = name;",
    "ThrowHelper.ThrowIfNull(name);\n        _name = name;",
    [],
  ),
  row(
    "rust: if c { panic!(m) } -> assert!(!(c), m)",
    "src/lib.rs",
    RUST,
    'if i == j && i > 0 {\n            panic!("duplicate keys found");\n        }',
    'assert!(!(i == j && i > 0), "duplicate keys found");',
    [],
  ),
  row(
    "rust: if !ok { panic!(m) } -> assert!(ok, m)",
    "src/lib.rs",
    RUST,
    'if !(i < self.v.len()) {\n            panic!("index out of range");\n        }',
    'assert!(i < self.v.len(), "index out of range");',
    [],
  ),
  row("rust: assert!(c, m) -> if !(c) { panic!(m) }", "src/lib.rs", RUST, 'assert!(i != j, "duplicate keys found");', 'if !(i != j) {\n            panic!("duplicate keys found");\n        }', []),
  row("rust: if !c { bail!(m) } -> ensure!(c, m)", "src/lib.rs", RUST_RESULT, 'if !(s.len() < 10) {\n        bail!("too long");\n    }', 'anyhow::ensure!(s.len() < 10, "too long");', []),
  row("rust: debug_assert!(c) -> assert!(c) (stronger)", "src/lib.rs", RUST, 'debug_assert!(i != j, "duplicate keys found");', 'assert!(i != j, "duplicate keys found");', []),
  row(
    "php: if (!c) throw -> c || throw",
    "src/Resolver.php",
    PHP,
    "if (!$this->supports($caster)) {\n            throw new InvalidArgumentException('bad caster');\n        }",
    "$this->supports($caster) || throw new InvalidArgumentException('bad caster');",
    [],
  ),
  row(
    "php: if (!c) throw -> c or throw",
    "src/Resolver.php",
    PHP,
    "if (!$caster) {\n            throw new InvalidArgumentException('empty');\n        }",
    "$caster or throw new InvalidArgumentException('empty');",
    [],
  ),
  row(
    "php: if ($name === null) throw -> $name ?? throw",
    "src/Resolver.php",
    PHP,
    "if ($name === null) {\n            throw new InvalidArgumentException('no name');\n        }\n        $n = $name;",
    "$n = $name ?? throw new InvalidArgumentException('no name');",
    [],
  ),
  row(
    "php: if/elseif whose elseif throws, before: the same guard as an if",
    "src/Resolver.php",
    PHP,
    "if ($name === 'x') {\n            throw new InvalidArgumentException('x');\n        }",
    "if ($name === null) {\n            $name = 'y';\n        } elseif ($name === 'x') {\n            throw new InvalidArgumentException('x');\n        }",
    [],
  ),
  row(
    "csharp: if (name == null) throw -> name ?? throw",
    "src/Shop/Cart.cs",
    CS,
    "if (name == null) throw new ArgumentNullException(nameof(name));\n        _name = name;",
    "_name = name ?? throw new ArgumentNullException(nameof(name));",
    [],
  ),
  row(
    "csharp: if (qty < 0) throw -> c ? v : throw",
    "src/Shop/Cart.cs",
    CS,
    'if (qty < 0) throw new ArgumentOutOfRangeException(nameof(qty), "negative");\n        _name = name ?? "";',
    '_name = qty >= 0 ? name ?? "" : throw new ArgumentOutOfRangeException(nameof(qty), "negative");',
    [],
  ),
  row(
    "python: a guard becomes the elif after a lazy init",
    "claims/read.py",
    PY,
    "if time.monotonic() >= deadline:\n            raise ClaimError(pending)",
    "if deadline is None:\n            deadline = time.monotonic() + 1\n        elif time.monotonic() >= deadline:\n            raise ClaimError(pending)",
    [],
  ),
  row(
    "ruby: a guard becomes the elsif after a lazy init",
    "lib/reader.rb",
    RB,
    'raise ClaimError, "late" if Time.now >= deadline',
    'if deadline.nil?\n        deadline = Time.now + 1\n      elsif Time.now >= deadline\n        raise ClaimError, "late"\n      end',
    [],
  ),
  row("js: a guard's bound widened (fires on more values)", "src/take.js", JS, 'if (qty < 0) throw new RangeError("qty");', 'if (qty < 1) throw new RangeError("qty");', []),
  row("js: a guard's comparison turned around, the same bound", "src/take.js", JS, 'if (qty < 0) throw new RangeError("qty");', 'if (0 > qty) throw new RangeError("qty");', []),
];

/** A PHP parser refusing a name by returning a result type's error (graham-campbell/result-type, as vlucas/phpdotenv does). */
const PHP_RESULT = `<?php\n\nfinal class Parser\n{\n    public static function parseName(string $name)\n    {\n        GUARD\n        return Success::create($name);\n    }\n}\n`;

const cheats: RuleCase[] = [
  row(
    "php: a result type's error return removed",
    "src/Parser.php",
    PHP_RESULT,
    "if (!preg_match('/\\A[a-z]+\\z/', $name)) {\n            return Error::create(sprintf('Encountered an invalid name at [%s].', $name));\n        }",
    "",
    ["validation_bypass/high src/Parser.php"],
  ),
  row(
    "csharp: a NotSupportedException replaced by a default answer for the same case",
    "src/Shop/Renderer.cs",
    CS_RANK,
    'if (rank > 3) throw new NotSupportedException("rank > 3");',
    'if (rank > 3) return "";',
    ["validation_bypass/high src/Shop/Renderer.cs"],
  ),
  row("python: raise NotImplementedError replaced by return None", "pkg/dump.py", PY_FMT, 'if fmt == "xml":\n        raise NotImplementedError("xml")', 'if fmt == "xml":\n        return None', [
    "validation_bypass/high pkg/dump.py",
  ]),
  row(
    "js: throw new Error('not implemented') replaced by return null",
    "src/open.js",
    JS_MODE,
    'if (mode === "stream") throw new Error("streaming is not implemented yet");',
    'if (mode === "stream") return null;',
    ["validation_bypass/high src/open.js"],
  ),
  row("ruby: raise NotImplementedError replaced by return nil", "lib/dumper.rb", RB_FMT, 'raise NotImplementedError, "xml" if fmt == :xml', 'return "" if fmt == :xml', [
    "validation_bypass/high lib/dumper.rb",
  ]),
  catches(
    "csharp: a catch that rethrew now swallows, a new catch added before it",
    "src/Shop/Runner.cs",
    CS_CATCHES,
    'catch (OperationCanceledException ex)\n        {\n            throw new TimeoutException("late", ex);\n        }',
    "catch (TimeoutException)\n        {\n            throw;\n        }\n        catch (OperationCanceledException ex)\n        {\n        }",
    ["validation_bypass/high src/Shop/Runner.cs"],
  ),
  catches(
    "python: a handler that raised now passes, a handler added before it",
    "pkg/load.py",
    PY_CATCHES,
    "except OSError as e:\n        raise LoadError(path) from e",
    "except FileNotFoundError:\n        raise\n    except OSError:\n        pass",
    ["validation_bypass/high pkg/load.py"],
  ),
  inlined("csharp: a throw helper's two calls, only one inlined", CS_INLINED.slice(0, CS_INLINED.indexOf("\n        if (graceful")), ["validation_bypass/high src/Shop/Runner.cs"]),
  row(
    "csharp: if (x is null) ThrowHelper.ThrowArgumentNullException(...) removed",
    "src/Shop/Cart.cs",
    CS,
    "if (name is null) ThrowHelper.ThrowArgumentNullException(nameof(name));\n        _name = name;",
    "_name = name;",
    ["validation_bypass/high src/Shop/Cart.cs"],
  ),
  row(
    "rust: if c { panic!(m) } -> debug_assert!(!(c), m) (dropped in release builds)",
    "src/lib.rs",
    RUST,
    'if i == j {\n            panic!("duplicate keys found");\n        }',
    'debug_assert!(!(i == j), "duplicate keys found");',
    ["validation_bypass/high src/lib.rs"],
  ),
  row("rust: assert!(c, m) -> debug_assert!(c, m)", "src/lib.rs", RUST, 'assert!(i != j, "duplicate keys found");', 'debug_assert!(i != j, "duplicate keys found");', [
    "validation_bypass/high src/lib.rs",
  ]),
  row("rust: if c { panic!(m) } removed", "src/lib.rs", RUST, 'if i == j {\n            panic!("duplicate keys found");\n        }', "", ["validation_bypass/high src/lib.rs"]),
  row("rust: assert!(c, m) removed", "src/lib.rs", RUST, 'assert!(i != j, "duplicate keys found");', "", ["validation_bypass/high src/lib.rs"]),
  row("rust: assert!(i < 10) narrowed to assert!(i < 11)", "src/lib.rs", RUST, 'assert!(i < 10, "too far");', 'assert!(i < 11, "too far");', ["validation_bypass/high src/lib.rs"]),
  row("php: c || throw removed", "src/Resolver.php", PHP, "$this->supports($caster) || throw new InvalidArgumentException('bad caster');", "", ["validation_bypass/high src/Resolver.php"]),
  row("php: $name ?? throw -> $name ?? a default", "src/Resolver.php", PHP, "$n = $name ?? throw new InvalidArgumentException('no name');", "$n = $name ?? 'anonymous';", [
    "validation_bypass/high src/Resolver.php",
  ]),
  row(
    "php: an elseif that threw now assigns",
    "src/Resolver.php",
    PHP,
    "if ($name === null) {\n            $name = 'y';\n        } elseif ($name === 'x') {\n            throw new InvalidArgumentException('x');\n        }",
    "if ($name === null) {\n            $name = 'y';\n        } elseif ($name === 'x') {\n            $name = 'z';\n        }",
    ["validation_bypass/high src/Resolver.php"],
  ),
  row("csharp: name ?? throw -> name ?? a default", "src/Shop/Cart.cs", CS, "_name = name ?? throw new ArgumentNullException(nameof(name));", '_name = name ?? "";', [
    "validation_bypass/high src/Shop/Cart.cs",
  ]),
  row(
    "python: an elif that raised now passes",
    "claims/read.py",
    PY,
    "if deadline is None:\n            deadline = 1\n        elif time.monotonic() >= deadline:\n            raise ClaimError(pending)",
    "if deadline is None:\n            deadline = 1\n        elif time.monotonic() >= deadline:\n            pass",
    ["validation_bypass/high claims/read.py"],
  ),
  row(
    "ruby: an elsif that raised removed",
    "lib/reader.rb",
    RB,
    'if deadline.nil?\n        deadline = 1\n      elsif Time.now >= deadline\n        raise ClaimError, "late"\n      end',
    "if deadline.nil?\n        deadline = 1\n      end",
    ["validation_bypass/high lib/reader.rb"],
  ),
  row("js: a guard's bound narrowed (x < 0 -> x < -1)", "src/take.js", JS, 'if (qty < 0) throw new RangeError("qty");', 'if (qty < -1) throw new RangeError("qty");', [
    "validation_bypass/high src/take.js",
  ]),
  row("js: a guard's bound narrowed (x > 100 -> x > 1000)", "src/take.js", JS, 'if (qty > 100) throw new RangeError("qty");', 'if (qty > 1000) throw new RangeError("qty");', [
    "validation_bypass/high src/take.js",
  ]),
  row("js: <= turned into < on the same bound", "src/take.js", JS, 'if (qty <= 0) throw new RangeError("qty");', 'if (qty < 0) throw new RangeError("qty");', ["validation_bypass/high src/take.js"]),
  row(
    "java: one alternative's bound narrowed",
    "src/main/java/Qty.java",
    JAVA,
    'if (qty < 0 || qty > 100) throw new IllegalArgumentException("qty");',
    'if (qty < 0 || qty > 1000) throw new IllegalArgumentException("qty");',
    ["validation_bypass/high src/main/java/Qty.java"],
  ),
];

const PY_TEST_BEFORE =
  'import pytest\n\nfrom pkg.dump import dump\n\n\ndef test_json():\n    assert dump({}, "json") == "{}"\n\n\ndef test_xml_not_supported():\n    with pytest.raises(NotImplementedError):\n        dump({}, "xml")\n';
const PY_TEST_AFTER = 'import pytest\n\nfrom pkg.dump import dump\n\n\ndef test_json():\n    assert dump({}, "json") == "{}"\n\n\ndef test_xml():\n    assert dump({}, "xml") == "<r/>"\n';
const refusalTest = (name: string, productAfter: string, findings: string[]): RuleCase => ({
  name,
  changes: [
    change("pkg/dump.py", PY_FMT.replace("GUARD", 'if fmt == "xml":\n        raise NotImplementedError("xml")'), PY_FMT.replace("GUARD", productAfter)),
    change("tests/test_dump.py", PY_TEST_BEFORE, PY_TEST_AFTER),
  ],
  findings,
});

const JS_VALIDATE_BEFORE =
  "export const validate = (options) => {\n  const dashed = Object.keys(options).filter((key) => key.includes('-'));\n  if (dashed.length > 0) {\n    throw new Error(`Flag keys may not contain dashes: ${dashed.join(', ')}`);\n  }\n\n  const aliased = Object.keys(options).filter((key) => options[key].alias !== undefined);\n  if (aliased.length > 0) {\n    throw new Error(`The option alias has been renamed to shortFlag: ${aliased.join(', ')}`);\n  }\n};\n";
const JS_VALIDATE_TABLE = (entries: string): string =>
  `export const validate = (options) => {\n  const validators = {\n${entries}  };\n  const messages = [];\n  for (const { filter, message } of Object.values(validators)) {\n    const keys = Object.keys(options).filter((key) => filter(key, options[key]));\n    if (keys.length > 0) messages.push(message(keys));\n  }\n  if (messages.length > 0) {\n    throw new Error(messages.join('\\n'));\n  }\n};\n`;
const DASHES = "    dashes: { filter: (key) => key.includes('-'), message: (keys) => `Flag keys may not contain dashes. Invalid flags: ${keys.join(', ')}` },\n";
const ALIAS = "    alias: { filter: (key, flag) => flag.alias !== undefined, message: (keys) => `The option alias has been renamed to shortFlag: ${keys.join(', ')}` },\n";

describe("guards moved into a table of validators", () => {
  it("js: both guards' messages are table entries of one collected throw: nothing", async () => {
    await expectFindings({ name: "table", changes: [change("source/index.js", JS_VALIDATE_BEFORE, JS_VALIDATE_TABLE(DASHES + ALIAS))], findings: [] });
  });

  it("js: the alias guard left out of the table: its guard is lost", async () => {
    await expectFindings({ name: "table", changes: [change("source/index.js", JS_VALIDATE_BEFORE, JS_VALIDATE_TABLE(DASHES))], findings: ["validation_bypass/high source/index.js"] });
  });

  it("js: the collected messages only logged: both guards are lost", async () => {
    const logged = JS_VALIDATE_TABLE(DASHES + ALIAS).replace("throw new Error(messages.join('\\n'));", "console.warn(messages.join('\\n'));");
    await expectFindings({
      name: "table",
      changes: [change("source/index.js", JS_VALIDATE_BEFORE, logged)],
      findings: ["validation_bypass/high source/index.js", "validation_bypass/high source/index.js"],
    });
  });
});

describe("a test of a refusal the change implemented", () => {
  it("python: the refusal implemented, its pytest.raises test replaced by a test of the output: a test deleted with its code (medium)", async () => {
    await expectFindings(refusalTest("implemented", 'if fmt == "xml":\n        return to_xml(data)', ['feature_removal/medium tests/test_dump.py "test_xml_not_supported"']));
  });

  it("python: the refusal kept, its test deleted: still a test deletion", async () => {
    await expectFindings(refusalTest("kept", 'if fmt == "xml":\n        raise NotImplementedError("xml")\n    log(fmt)', ['test_deletion/critical tests/test_dump.py "test_xml_not_supported"']));
  });

  it("python: the refusal replaced by a default answer: the bypass and the deletion both fire", async () => {
    await expectFindings(refusalTest("default", 'if fmt == "xml":\n        return ""', ['test_deletion/critical tests/test_dump.py "test_xml_not_supported"', "validation_bypass/high pkg/dump.py"]));
  });
});

describe("guards written in another shape that keeps them", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("the nearest cheats still fire", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
