/**
 * A guard kept in another shape (issue 9, validation_bypass false alarms
 * found sweeping jpadilla/pyjwt 1451d70eca and Tyrrrz/CliWrap 70e229152c),
 * and the nearest cheats, which still fire:
 * - the EAFP spelling of a membership or parse check: the lookup done and
 *   its failure handled by raising the error the check raised (Python
 *   `try: t[k] except KeyError: raise E(m)`, C# `catch
 *   (KeyNotFoundException)`, Java `catch (NumberFormatException)` and
 *   `Optional.orElseThrow(() -> new E(m))`, Ruby `fetch(k) { raise E, m }`
 *   and `rescue KeyError`, PHP `catch (\OutOfBoundsException)`, Rust
 *   `.ok_or_else(|| E)?`), and the other shapes of one check (C#
 *   `TryGetValue`, PHP `?? throw`, Go `v, ok := m[k]`); the handler that
 *   answers a default, returns or swallows instead is a guard lost;
 * - a guard spelled with its standard library's throw helper (C#
 *   `ct.ThrowIfCancellationRequested()`, `ArgumentException.ThrowIfNullOrEmpty`,
 *   `ObjectDisposedException.ThrowIf`, Java `Preconditions.checkNotNull`,
 *   `checkState`, `Objects.checkIndex`, Python `operator.index`), and back.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

/** One product file whose GUARD placeholder is replaced by the before and after spellings. */
function row(name: string, path: string, template: string, before: string, after: string, findings: string[]): RuleCase {
  return { name, changes: [change(path, template.replace("GUARD", before), template.replace("GUARD", after))], findings };
}

const PY = "class UnknownAlgorithm(Exception):\n    pass\n\n\ndef lookup(table, name, text, obj):\n    GUARD\n    return alg\n";
const PY_IN = 'if name in table:\n        alg = table[name]\n    else:\n        raise UnknownAlgorithm(f"unknown algorithm: {name}")';
const PY_NOT_IN = 'if name not in table:\n        raise UnknownAlgorithm(f"unknown algorithm: {name}")\n    alg = table[name]';
const PY_TRY = (handler: string): string => `try:\n        alg = table[name]\n    ${handler}`;
const PY_RAISE = 'raise UnknownAlgorithm(f"unknown algorithm: {name}") from None';

const CS =
  "namespace Shop;\n\npublic class Registry\n{\n    private readonly Dictionary<string, Codec> _codecs = new();\n\n    public Codec Find(string name, string text)\n    {\n        GUARD\n        return codec;\n    }\n}\n";
const CS_CONTAINS = 'if (!_codecs.ContainsKey(name))\n            throw new UnknownCodecException($"unknown codec {name}");\n        var codec = _codecs[name];';
const CS_TRY = (handler: string): string => `Codec codec;\n        try\n        {\n            codec = _codecs[name];\n        }\n        ${handler}`;
const CS_THROW = '{\n            throw new UnknownCodecException($"unknown codec {name}");\n        }';

const JAVA =
  "import java.util.*;\n\nclass Registry {\n    private final Map<String, Codec> codecs = new HashMap<>();\n\n    Codec find(String name, String text) {\n        GUARD\n        return codec;\n    }\n}\n";
const JAVA_NULL = 'Codec codec = codecs.get(name);\n        if (codec == null) {\n            throw new UnknownCodecException("unknown codec " + name);\n        }';
const JAVA_CONTAINS = 'if (!codecs.containsKey(name)) {\n            throw new UnknownCodecException("unknown codec " + name);\n        }\n        Codec codec = codecs.get(name);';

const RB = "class Registry\n  def find(name, text)\n    GUARD\n    codec\n  end\nend\n";
const RB_KEY = 'raise UnknownCodec, "unknown codec #{name}" unless @codecs.key?(name)\n    codec = @codecs[name]';

const PHP = "<?php\n\nclass Registry\n{\n    private array $codecs = [];\n\n    public function find(string $name, string $text): Codec\n    {\n        GUARD\n        return $codec;\n    }\n}\n";
const PHP_EXISTS = 'if (!array_key_exists($name, $this->codecs)) {\n            throw new UnknownCodecException("unknown codec $name");\n        }\n        $codec = $this->codecs[$name];';

const GO = 'package shop\n\nimport "fmt"\n\nfunc Find(codecs map[string]Codec, name string) (Codec, error) {\n\tGUARD\n\treturn codec, nil\n}\n';
const GO_OK = 'codec, ok := codecs[name]\n\tif !ok {\n\t\treturn nil, fmt.Errorf("unknown codec %q", name)\n\t}';

const RUST = "use std::collections::HashMap;\n\npub fn find<'a>(codecs: &'a HashMap<String, Codec>, name: &str) -> Result<&'a Codec, Error> {\n    GUARD\n    Ok(codec)\n}\n";
const RUST_CONTAINS = "if !codecs.contains_key(name) {\n        return Err(Error::Unknown(name.to_string()));\n    }\n    let codec = &codecs[name];";

const lookAlikes: RuleCase[] = [
  row("python: `if k in t: … else: raise E(m)` -> try/except KeyError raising E(m)", "pkg/keys.py", PY, PY_IN, PY_TRY(`except KeyError:\n        ${PY_RAISE}`), []),
  row("python: `if k not in t: raise E(m)` -> try/except KeyError raising E(m)", "pkg/keys.py", PY, PY_NOT_IN, PY_TRY(`except KeyError:\n        ${PY_RAISE}`), []),
  row(
    "python: except LookupError as e: raise E(other words) from e",
    "pkg/keys.py",
    PY,
    PY_NOT_IN,
    PY_TRY('except LookupError as e:\n        raise UnknownAlgorithm(f"no algorithm named {name}") from e'),
    [],
  ),
  row("python: except (KeyError, IndexError): raise E(m)", "pkg/keys.py", PY, PY_NOT_IN, PY_TRY(`except (KeyError, IndexError):\n        ${PY_RAISE}`), []),
  row(
    "python: isdigit() check -> int() with except ValueError raising the same error",
    "pkg/keys.py",
    PY,
    'if not text.isdigit():\n        raise UnknownAlgorithm(f"bad number: {text}")\n    alg = int(text)',
    'try:\n        alg = int(text)\n    except ValueError:\n        raise UnknownAlgorithm(f"bad number: {text}") from None',
    [],
  ),
  row(
    "python: hasattr() check -> except AttributeError raising the same error",
    "pkg/keys.py",
    PY,
    'if not hasattr(obj, "read"):\n        raise TypeError("not a file")\n    alg = obj.read',
    'try:\n        alg = obj.read\n    except AttributeError:\n        raise TypeError("not a file") from None',
    [],
  ),
  row("python: try/except KeyError raising E(m) -> `if k not in t: raise E(m)`", "pkg/keys.py", PY, PY_TRY(`except KeyError:\n        ${PY_RAISE}`), PY_NOT_IN, []),
  row(
    "python: isinstance check -> operator.index",
    "pkg/keys.py",
    PY,
    'if not isinstance(text, int):\n        raise TypeError("an integer is required")\n    alg = text',
    "alg = operator.index(text)",
    [],
  ),
  row("csharp: ContainsKey guard -> try/catch (KeyNotFoundException) throwing E(m)", "src/Shop/Registry.cs", CS, CS_CONTAINS, CS_TRY(`catch (KeyNotFoundException)\n        ${CS_THROW}`), []),
  row(
    "csharp: ContainsKey guard -> catch (KeyNotFoundException ex) throwing E(m, ex)",
    "src/Shop/Registry.cs",
    CS,
    CS_CONTAINS,
    CS_TRY('catch (KeyNotFoundException ex)\n        {\n            throw new UnknownCodecException($"unknown codec {name}", ex);\n        }'),
    [],
  ),
  row(
    "csharp: ContainsKey guard -> if (!TryGetValue(…)) throw",
    "src/Shop/Registry.cs",
    CS,
    CS_CONTAINS,
    'if (!_codecs.TryGetValue(name, out var codec))\n            throw new UnknownCodecException($"unknown codec {name}");',
    [],
  ),
  row(
    "csharp: ContainsKey guard -> TryGetValue(…) ? v : throw",
    "src/Shop/Registry.cs",
    CS,
    CS_CONTAINS,
    'var codec = _codecs.TryGetValue(name, out var found) ? found : throw new UnknownCodecException($"unknown codec {name}");',
    [],
  ),
  row(
    "csharp: TryParse guard -> int.Parse with catch (FormatException) throwing E(m)",
    "src/Shop/Registry.cs",
    CS,
    'if (!int.TryParse(text, out var n))\n            throw new UnknownCodecException($"bad number {text}");\n        var codec = _codecs[name];',
    'int n;\n        try\n        {\n            n = int.Parse(text);\n        }\n        catch (FormatException)\n        {\n            throw new UnknownCodecException($"bad number {text}");\n        }\n        var codec = _codecs[name];',
    [],
  ),
  row(
    "java: map.get + null throw -> Optional.orElseThrow(() -> new E(m))",
    "src/main/java/shop/Registry.java",
    JAVA,
    JAVA_NULL,
    'Codec codec = Optional.ofNullable(codecs.get(name)).orElseThrow(() -> new UnknownCodecException("unknown codec " + name));',
    [],
  ),
  row(
    "java: containsKey guard -> Optional.orElseThrow(E::new)",
    "src/main/java/shop/Registry.java",
    JAVA,
    JAVA_CONTAINS,
    "Codec codec = Optional.ofNullable(codecs.get(name)).orElseThrow(UnknownCodecException::new);",
    [],
  ),
  row("java: containsKey guard -> map.get + null throw", "src/main/java/shop/Registry.java", JAVA, JAVA_CONTAINS, JAVA_NULL, []),
  row(
    "java: regex check -> Integer.parseInt with catch (NumberFormatException) throwing E(m)",
    "src/main/java/shop/Registry.java",
    JAVA,
    'if (!text.matches("[0-9]+")) {\n            throw new UnknownCodecException("bad number " + text);\n        }\n        Codec codec = codecs.get(Integer.parseInt(text));',
    'int n;\n        try {\n            n = Integer.parseInt(text);\n        } catch (NumberFormatException e) {\n            throw new UnknownCodecException("bad number " + text, e);\n        }\n        Codec codec = codecs.get(n);',
    [],
  ),
  row("ruby: key? guard -> fetch(k) { raise E, m }", "lib/registry.rb", RB, RB_KEY, 'codec = @codecs.fetch(name) { raise UnknownCodec, "unknown codec #{name}" }', []),
  row("ruby: key? guard -> fetch(k) do raise E, m end", "lib/registry.rb", RB, RB_KEY, 'codec = @codecs.fetch(name) do\n      raise UnknownCodec, "unknown codec #{name}"\n    end', []),
  row(
    "ruby: key? guard -> begin fetch rescue KeyError raise E, m end",
    "lib/registry.rb",
    RB,
    RB_KEY,
    'begin\n      codec = @codecs.fetch(name)\n    rescue KeyError\n      raise UnknownCodec, "unknown codec #{name}"\n    end',
    [],
  ),
  row(
    "ruby: a digits check -> Integer() with rescue ArgumentError raising the same error",
    "lib/registry.rb",
    RB,
    'raise UnknownCodec, "bad number #{text}" unless text.match?(/\\A\\d+\\z/)\n    codec = Integer(text)',
    'begin\n      codec = Integer(text)\n    rescue ArgumentError => e\n      raise UnknownCodec, "bad number #{text}"\n    end',
    [],
  ),
  {
    name: "ruby: key? guard -> the method's own rescue KeyError raising E, m",
    changes: [
      change(
        "lib/registry.rb",
        `class Registry\n  def find(name)\n    ${RB_KEY}\n    codec\n  end\nend\n`,
        'class Registry\n  def find(name)\n    @codecs.fetch(name)\n  rescue KeyError\n    raise UnknownCodec, "unknown codec #{name}"\n  end\nend\n',
      ),
    ],
    findings: [],
  },
  row("php: array_key_exists guard -> ?? throw", "src/Registry.php", PHP, PHP_EXISTS, '$codec = $this->codecs[$name] ?? throw new UnknownCodecException("unknown codec $name");', []),
  row(
    "php: isset guard -> ?? throw",
    "src/Registry.php",
    PHP,
    'if (!isset($this->codecs[$name])) {\n            throw new UnknownCodecException("unknown codec $name");\n        }\n        $codec = $this->codecs[$name];',
    '$codec = $this->codecs[$name] ?? throw new UnknownCodecException("unknown codec $name");',
    [],
  ),
  row(
    "php: array_key_exists guard -> catch (\\OutOfBoundsException) throwing E(m)",
    "src/Registry.php",
    PHP,
    PHP_EXISTS,
    'try {\n            $codec = $this->lookup($name);\n        } catch (\\OutOfBoundsException $e) {\n            throw new UnknownCodecException("unknown codec $name", 0, $e);\n        }',
    [],
  ),
  row(
    "go: `v, ok := m[k]; if !ok` -> `if _, ok := m[k]; !ok`",
    "shop/find.go",
    GO,
    GO_OK,
    'if _, ok := codecs[name]; !ok {\n\t\treturn nil, fmt.Errorf("unknown codec %q", name)\n\t}\n\tcodec := codecs[name]',
    [],
  ),
  row(
    "go: `v, ok := m[k]; if !ok` -> `v := m[k]; if v == nil`",
    "shop/find.go",
    GO,
    GO_OK,
    'codec := codecs[name]\n\tif codec == nil {\n\t\treturn nil, fmt.Errorf("unknown codec %q", name)\n\t}',
    [],
  ),
  row("go: `v, ok := m[k]; if !ok` -> a switch on ok", "shop/find.go", GO, GO_OK, 'codec, ok := codecs[name]\n\tswitch {\n\tcase !ok:\n\t\treturn nil, fmt.Errorf("unknown codec %q", name)\n\t}', []),
  row("rust: contains_key guard -> get(k).ok_or_else(|| E)?", "src/lib.rs", RUST, RUST_CONTAINS, "let codec = codecs.get(name).ok_or_else(|| Error::Unknown(name.to_string()))?;", []),
  row("rust: contains_key guard -> get(k).ok_or(E)?", "src/lib.rs", RUST, RUST_CONTAINS, "let codec = codecs.get(name).ok_or(Error::Unknown(name.to_string()))?;", []),
  row(
    "rust: contains_key guard -> let-else returning Err(E)",
    "src/lib.rs",
    RUST,
    RUST_CONTAINS,
    "let Some(codec) = codecs.get(name) else {\n        return Err(Error::Unknown(name.to_string()));\n    };",
    [],
  ),
];

const cheats: RuleCase[] = [
  row("python: the except KeyError answers a default", "pkg/keys.py", PY, PY_IN, PY_TRY("except KeyError:\n        alg = None"), ["validation_bypass/high pkg/keys.py"]),
  row("python: the except KeyError returns", "pkg/keys.py", PY, PY_NOT_IN, PY_TRY("except KeyError:\n        return None"), ["validation_bypass/high pkg/keys.py"]),
  row("python: the except KeyError passes", "pkg/keys.py", PY, PY_NOT_IN, PY_TRY("except KeyError:\n        pass"), ["validation_bypass/high pkg/keys.py"]),
  row(
    "python: the except ValueError logs and answers a default",
    "pkg/keys.py",
    PY,
    'if not text.isdigit():\n        raise UnknownAlgorithm(f"bad number: {text}")\n    alg = int(text)',
    'try:\n        alg = int(text)\n    except ValueError:\n        log.warning("bad number: %s", text)\n        alg = 0',
    ["validation_bypass/high pkg/keys.py"],
  ),
  row(
    "python: the guard dropped, operator.index of another value",
    "pkg/keys.py",
    PY,
    'if not isinstance(text, int):\n        raise TypeError("an integer is required")\n    alg = text',
    "alg = text",
    ["validation_bypass/high pkg/keys.py"],
  ),
  row(
    "csharp: the catch (KeyNotFoundException) answers a default",
    "src/Shop/Registry.cs",
    CS,
    CS_CONTAINS,
    CS_TRY("catch (KeyNotFoundException)\n        {\n            codec = Codec.Default;\n        }"),
    ["validation_bypass/high src/Shop/Registry.cs"],
  ),
  row("csharp: GetValueOrDefault instead of the guard", "src/Shop/Registry.cs", CS, CS_CONTAINS, "var codec = _codecs.GetValueOrDefault(name);", ["validation_bypass/high src/Shop/Registry.cs"]),
  row("java: Optional.orElse(default) instead of the guard", "src/main/java/shop/Registry.java", JAVA, JAVA_NULL, "Codec codec = Optional.ofNullable(codecs.get(name)).orElse(Codec.DEFAULT);", [
    "validation_bypass/high src/main/java/shop/Registry.java",
  ]),
  row(
    "java: the catch (NumberFormatException) answers a default",
    "src/main/java/shop/Registry.java",
    JAVA,
    'if (!text.matches("[0-9]+")) {\n            throw new UnknownCodecException("bad number " + text);\n        }\n        Codec codec = codecs.get(Integer.parseInt(text));',
    "int n;\n        try {\n            n = Integer.parseInt(text);\n        } catch (NumberFormatException e) {\n            n = 0;\n        }\n        Codec codec = codecs.get(n);",
    ["validation_bypass/high src/main/java/shop/Registry.java"],
  ),
  row("ruby: fetch(k) { default }", "lib/registry.rb", RB, RB_KEY, "codec = @codecs.fetch(name) { Codec::DEFAULT }", ["validation_bypass/high lib/registry.rb"]),
  row("ruby: rescue KeyError answers nil", "lib/registry.rb", RB, RB_KEY, "begin\n      codec = @codecs.fetch(name)\n    rescue KeyError\n      codec = nil\n    end", [
    "validation_bypass/high lib/registry.rb",
  ]),
  row("php: ?? null instead of the guard", "src/Registry.php", PHP, PHP_EXISTS, "$codec = $this->codecs[$name] ?? null;", ["validation_bypass/high src/Registry.php"]),
  row(
    "php: the catch (\\OutOfBoundsException) answers null",
    "src/Registry.php",
    PHP,
    PHP_EXISTS,
    "try {\n            $codec = $this->lookup($name);\n        } catch (\\OutOfBoundsException $e) {\n            $codec = null;\n        }",
    ["validation_bypass/high src/Registry.php"],
  ),
  row("go: the ok check dropped", "shop/find.go", GO, GO_OK, "codec := codecs[name]", ["validation_bypass/high shop/find.go"]),
  row("go: a default when !ok", "shop/find.go", GO, GO_OK, "codec, ok := codecs[name]\n\tif !ok {\n\t\tcodec = defaultCodec\n\t}", ["validation_bypass/high shop/find.go"]),
  row("rust: get(k).unwrap_or(default)", "src/lib.rs", RUST, RUST_CONTAINS, "let codec = codecs.get(name).unwrap_or(&DEFAULT);", ["validation_bypass/high src/lib.rs"]),
];

const CS_CANCEL = "namespace Shop;\n\npublic class Runner\n{\n    public int Run(CancellationToken ct, string name, int qty)\n    {\n        GUARD\n        return qty;\n    }\n}\n";
const JAVA_STATE = "class Conn {\n    private boolean open;\n\n    int send(String name, int i, int size) {\n        GUARD\n        return i;\n    }\n}\n";

const CS_EXTENSION_BLOCK =
  "namespace Shop;\n\ninternal static class TokenExtensions\n{\n    extension(Token token)\n    {\n        public void ThrowIfCancelled(string message)\n        {\n            if (!token.IsCancelled)\n                return;\n\n            throw new OperationCanceledException(message);\n        }\n    }\n}\n";
const CS_RUN = "namespace Shop;\n\npublic class Runner\n{\n    public int Run(Token forceful, Token graceful)\n    {\n        GUARD\n        return 0;\n    }\n}\n";
const CS_CALLS = 'forceful.ThrowIfCancelled("forcefully terminated");\n        graceful.ThrowIfCancelled("gracefully terminated");';
const CS_FORCEFUL = 'if (forceful.IsCancelled)\n            throw new OperationCanceledException("forcefully terminated");';
const CS_GRACEFUL = '\n        if (graceful.IsCancelled)\n            throw new OperationCanceledException("gracefully terminated");';

const JS_ABORT = "export async function pump(signal, items) {\n  for (const item of items) {\n    GUARD\n    await send(item);\n  }\n}\n";

/** The two calls of a throw helper declared in a C# 14 extension block, before; `after` in their place, the helper's file deleted. */
const inlined = (name: string, after: string, findings: string[]): RuleCase => ({
  name,
  changes: [change("src/Shop/TokenExtensions.cs", CS_EXTENSION_BLOCK, null), change("src/Shop/Runner.cs", CS_RUN.replace("GUARD", CS_CALLS), CS_RUN.replace("GUARD", after))],
  findings,
});

const helperLookAlikes: RuleCase[] = [
  row("js: if (signal.aborted) throw signal.reason -> signal.throwIfAborted()", "src/pump.js", JS_ABORT, "if (signal.aborted) throw signal.reason;", "signal.throwIfAborted();", []),
  row(
    "js: signal.throwIfAborted() -> if (signal.aborted) { throw signal.reason; }",
    "src/pump.js",
    JS_ABORT,
    "signal.throwIfAborted();",
    "if (signal.aborted) {\n      throw signal.reason;\n    }",
    [],
  ),
  inlined("csharp: a throw helper of a C# 14 extension block inlined at its two calls, the block deleted", CS_FORCEFUL + CS_GRACEFUL, []),
  row(
    "csharp: if (ct.IsCancellationRequested) throw -> ct.ThrowIfCancellationRequested()",
    "src/Shop/Runner.cs",
    CS_CANCEL,
    "if (ct.IsCancellationRequested)\n            throw new OperationCanceledException(ct);",
    "ct.ThrowIfCancellationRequested();",
    [],
  ),
  row(
    "csharp: ct.ThrowIfCancellationRequested() -> if (ct.IsCancellationRequested) throw",
    "src/Shop/Runner.cs",
    CS_CANCEL,
    "ct.ThrowIfCancellationRequested();",
    'if (ct.IsCancellationRequested)\n            throw new OperationCanceledException("canceled", ct);',
    [],
  ),
  row(
    "csharp: IsNullOrEmpty guard -> ArgumentException.ThrowIfNullOrEmpty",
    "src/Shop/Runner.cs",
    CS_CANCEL,
    'if (string.IsNullOrEmpty(name))\n            throw new ArgumentException("empty name", nameof(name));',
    "ArgumentException.ThrowIfNullOrEmpty(name);",
    [],
  ),
  row(
    "csharp: qty > 100 guard -> ArgumentOutOfRangeException.ThrowIfGreaterThan",
    "src/Shop/Runner.cs",
    CS_CANCEL,
    "if (qty > 100)\n            throw new ArgumentOutOfRangeException(nameof(qty));",
    "ArgumentOutOfRangeException.ThrowIfGreaterThan(qty, 100);",
    [],
  ),
  {
    name: "csharp: disposed guard -> ObjectDisposedException.ThrowIf",
    changes: [
      change(
        "src/Shop/Conn.cs",
        "namespace Shop;\n\npublic class Conn\n{\n    private bool _disposed;\n\n    public void Send()\n    {\n        if (_disposed)\n            throw new ObjectDisposedException(nameof(Conn));\n        Write();\n    }\n}\n",
        "namespace Shop;\n\npublic class Conn\n{\n    private bool _disposed;\n\n    public void Send()\n    {\n        ObjectDisposedException.ThrowIf(_disposed, this);\n        Write();\n    }\n}\n",
      ),
    ],
    findings: [],
  },
  row(
    "java: null throw -> Preconditions.checkNotNull",
    "src/main/java/shop/Conn.java",
    JAVA_STATE,
    "if (name == null) {\n            throw new NullPointerException();\n        }",
    "Preconditions.checkNotNull(name);",
    [],
  ),
  row(
    "java: state throw -> Preconditions.checkState",
    "src/main/java/shop/Conn.java",
    JAVA_STATE,
    'if (!open) {\n            throw new IllegalStateException("closed");\n        }',
    'checkState(open, "closed");',
    [],
  ),
  row(
    "java: index range throw -> Objects.checkIndex",
    "src/main/java/shop/Conn.java",
    JAVA_STATE,
    'if (i < 0 || i >= size) {\n            throw new IndexOutOfBoundsException("index " + i);\n        }',
    "Objects.checkIndex(i, size);",
    [],
  ),
  row(
    "java: Objects.requireNonNull -> if null throw NullPointerException",
    "src/main/java/shop/Conn.java",
    JAVA_STATE,
    'Objects.requireNonNull(name, "name");',
    'if (name == null) {\n            throw new NullPointerException("name");\n        }',
    [],
  ),
];

const helperCheats: RuleCase[] = [
  row("js: signal.throwIfAborted() removed", "src/pump.js", JS_ABORT, "signal.throwIfAborted();", "", ["validation_bypass/high src/pump.js"]),
  row("js: the aborted check returns instead", "src/pump.js", JS_ABORT, "if (signal.aborted) throw signal.reason;", "if (signal.aborted) return;", ["validation_bypass/high src/pump.js"]),
  inlined("csharp: a throw helper of a C# 14 extension block inlined at one call, the other check dropped", CS_FORCEFUL, ["validation_bypass/high src/Shop/Runner.cs"]),
  row("csharp: ct.ThrowIfCancellationRequested() removed", "src/Shop/Runner.cs", CS_CANCEL, "ct.ThrowIfCancellationRequested();", "", ["validation_bypass/high src/Shop/Runner.cs"]),
  row(
    "csharp: the cancellation guard replaced by an early return",
    "src/Shop/Runner.cs",
    CS_CANCEL,
    "if (ct.IsCancellationRequested)\n            throw new OperationCanceledException(ct);",
    "if (ct.IsCancellationRequested)\n            return 0;",
    ["validation_bypass/high src/Shop/Runner.cs"],
  ),
  row("java: Preconditions.checkState dropped for a log", "src/main/java/shop/Conn.java", JAVA_STATE, 'checkState(open, "closed");', 'if (!open) {\n            log.warn("closed");\n        }', [
    "validation_bypass/high src/main/java/shop/Conn.java",
  ]),
];

describe("a lookup guard written as its failed lookup handled (look-alikes)", () => {
  it.each(lookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a lookup guard whose handler no longer refuses (cheats)", () => {
  it.each(cheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a guard written with its standard library's throw helper (look-alikes)", () => {
  it.each(helperLookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a throw helper's check dropped (cheats)", () => {
  it.each(helperCheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
