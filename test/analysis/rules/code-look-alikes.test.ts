/**
 * Legitimate rewrites of product code that once read as threats: a guard
 * rewritten as a `switch` whose default throws (C#, Java), and Python names
 * kept alive by a module `__getattr__` deprecation shim or defined under
 * `if sys.version_info` / `try: … except ImportError:`. Beside each, the
 * change that is a threat must still be one.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const row = (name: string, path: string, before: string, after: string, findings: string[]): RuleCase => ({ name, changes: [change(path, before, after)], findings });

const CS_GUARD =
  'public class Cache\n{\n    public int Get(object key)\n    {\n        if (!(key is int)) throw new ArgumentException("key must be an int", nameof(key));\n        return (int)key * 2;\n    }\n}\n';
const CS_SWITCH =
  'public class Cache\n{\n    public int Get(object key)\n    {\n        switch (key)\n        {\n            case int i:\n                return i * 2;\n            default:\n                throw new ArgumentException("key must be an int", nameof(key));\n        }\n    }\n}\n';
const CS_SWITCH_EXPRESSION =
  'public class Cache\n{\n    public int Get(object key) => key switch\n    {\n        int i => i * 2,\n        _ => throw new ArgumentException("key must be an int", nameof(key)),\n    };\n}\n';
const CS_NO_DEFAULT =
  "public class Cache\n{\n    public int Get(object key)\n    {\n        switch (key)\n        {\n            case int i:\n                return i * 2;\n        }\n        return 0;\n    }\n}\n";
const JAVA_GUARD =
  'public class Cache {\n  public int get(Object key) {\n    if (!(key instanceof Integer)) throw new IllegalArgumentException("key must be an int");\n    return (Integer) key * 2;\n  }\n}\n';
const JAVA_SWITCH =
  'public class Cache {\n  public int get(Object key) {\n    switch (key) {\n      case Integer i:\n        return i * 2;\n      default:\n        throw new IllegalArgumentException("key must be an int");\n    }\n  }\n}\n';

const PY_API = 'def parse(text):\n    return text.split()\n\n\ndef render(items):\n    return " ".join(items)\n';
const PY_SHIM =
  'import warnings\n\n\ndef render(items):\n    return " ".join(items)\n\n\ndef tokenize(text):\n    return text.split()\n\n\ndef __getattr__(name):\n    if name == "parse":\n        warnings.warn("parse is deprecated, use tokenize", DeprecationWarning)\n        return tokenize\n    raise AttributeError(name)\n';
const PY_SHIM_TABLE =
  'import warnings\n\n_RENAMED = {"parse": "tokenize"}\n\n\ndef render(items):\n    return " ".join(items)\n\n\ndef tokenize(text):\n    return text.split()\n\n\ndef __getattr__(name):\n    if name in _RENAMED:\n        warnings.warn(f"{name} is deprecated", DeprecationWarning)\n        return globals()[_RENAMED[name]]\n    raise AttributeError(name)\n';
const PY_VERSIONED =
  'import sys\n\nif sys.version_info >= (3, 11):\n    def parse(text):\n        return text.split()\nelse:\n    def parse(text):\n        return list(text.split())\n\n\ndef render(items):\n    return " ".join(items)\n';
const PY_FALLBACK = 'try:\n    from _speedups import parse\nexcept ImportError:\n    def parse(text):\n        return text.split()\n\n\ndef render(items):\n    return " ".join(items)\n';
const PY_REMOVED = 'def render(items):\n    return " ".join(items)\n';

const lookAlikes: RuleCase[] = [
  row("csharp: if (!(key is int)) throw -> switch whose default throws", "src/Cache.cs", CS_GUARD, CS_SWITCH, []),
  row("csharp: the same guard as a switch expression arm `_ => throw`", "src/Cache.cs", CS_GUARD, CS_SWITCH_EXPRESSION, []),
  row("java: if (!(key instanceof Integer)) throw -> switch whose default throws", "src/main/java/Cache.java", JAVA_GUARD, JAVA_SWITCH, []),
  row("python: a function kept alive by a module __getattr__ shim", "pkg/text.py", PY_API, PY_SHIM, []),
  row("python: a name served by __getattr__ through a rename table", "pkg/text.py", PY_API, PY_SHIM_TABLE, []),
  row("python: a function now defined under if sys.version_info", "pkg/text.py", PY_API, PY_VERSIONED, []),
  row("python: a function now defined in an except ImportError fallback", "pkg/text.py", PY_API, PY_FALLBACK, []),
];

const threats: RuleCase[] = [
  row("csharp: the guard dropped for a switch without a default", "src/Cache.cs", CS_GUARD, CS_NO_DEFAULT, ["validation_bypass/high src/Cache.cs"]),
  row("python: the function removed with no shim", "pkg/text.py", PY_API, PY_REMOVED, ["feature_removal/medium pkg/text.py"]),
];

describe("product-code look-alikes: not flagged", () => {
  it.each(lookAlikes)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("product-code threats beside them: still flagged", () => {
  it.each(threats)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
