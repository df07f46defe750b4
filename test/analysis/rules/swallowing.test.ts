/**
 * New handlers that swallow every error of code that was already there, per
 * language, and the error-handling sites that replace a propagated error by
 * a value (Rust `.unwrap_or_default()` for `?`, Go `_ =` for `err :=`). The
 * look-alikes: a handler for one specific error, one that logs and
 * rethrows, one around new code, one in a new function. (Go's `_ =` case
 * reports twice: the discarded error, and the `if err != nil` guard that
 * went with it.)
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const bypass = (path: string): string => `validation_bypass/high ${path}`;
const row = (name: string, path: string, before: string, after: string, findings: string[]): RuleCase => ({ name, changes: [change(path, before, after)], findings });

const PY = "def load(path):\n    data = read(path)\n    return parse(data)\n";
const TS = "export function load(path: string): Config {\n  const data = read(path);\n  return parse(data);\n}\n";
const JAVA = "class Loader {\n  Config load(String path) throws IOException {\n    String data = read(path);\n    return parse(data);\n  }\n}\n";
const CS = "class Loader\n{\n    Config Load(string path)\n    {\n        var data = Read(path);\n        return Parse(data);\n    }\n}\n";
const RB = "class Loader\n  def load(path)\n    data = File.read(path)\n    Config.parse(data)\n  end\nend\n";
const PHP = "<?php\n\nclass Loader\n{\n    public function load(string $path): Config\n    {\n        $data = $this->read($path);\n        return $this->parse($data);\n    }\n}\n";

const invalid: RuleCase[] = [
  row(
    "python: try/except Exception: pass around existing code",
    "app/loader.py",
    PY,
    "def load(path):\n    try:\n        data = read(path)\n        return parse(data)\n    except Exception:\n        pass\n",
    [bypass("app/loader.py")],
  ),
  row("python: a bare except returning None", "app/loader.py", PY, "def load(path):\n    try:\n        data = read(path)\n    except:\n        return None\n    return parse(data)\n", [
    bypass("app/loader.py"),
  ]),
  row(
    "python: except BaseException that only logs",
    "app/loader.py",
    PY,
    "def load(path):\n    try:\n        data = read(path)\n        return parse(data)\n    except BaseException as e:\n        logger.warning(e)\n",
    [bypass("app/loader.py")],
  ),
  row(
    "typescript: try { … } catch (e) {}",
    "src/loader.ts",
    TS,
    "export function load(path: string): Config {\n  try {\n    const data = read(path);\n    return parse(data);\n  } catch (e) {}\n  return {} as Config;\n}\n",
    [bypass("src/loader.ts")],
  ),
  row(
    "typescript: catch returning a default",
    "src/loader.ts",
    TS,
    "export function load(path: string): Config | null {\n  try {\n    const data = read(path);\n    return parse(data);\n  } catch {\n    return null;\n  }\n}\n",
    [bypass("src/loader.ts")],
  ),
  row(
    "java: catch (Throwable t) {}",
    "src/main/java/Loader.java",
    JAVA,
    "class Loader {\n  Config load(String path) {\n    try {\n      String data = read(path);\n      return parse(data);\n    } catch (Throwable t) {\n    }\n    return null;\n  }\n}\n",
    [bypass("src/main/java/Loader.java")],
  ),
  row(
    "csharp: catch { return null; }",
    "src/Loader.cs",
    CS,
    "class Loader\n{\n    Config Load(string path)\n    {\n        try\n        {\n            var data = Read(path);\n            return Parse(data);\n        }\n        catch\n        {\n            return null;\n        }\n    }\n}\n",
    [bypass("src/Loader.cs")],
  ),
  row(
    "ruby: rescue StandardError around existing calls",
    "lib/loader.rb",
    RB,
    "class Loader\n  def load(path)\n    data = File.read(path)\n    Config.parse(data)\n  rescue StandardError\n    nil\n  end\nend\n",
    [bypass("lib/loader.rb")],
  ),
  row(
    "php: catch (\\Throwable) {}",
    "src/Loader.php",
    PHP,
    "<?php\n\nclass Loader\n{\n    public function load(string $path): ?Config\n    {\n        try {\n            $data = $this->read($path);\n            return $this->parse($data);\n        } catch (\\Throwable $e) {\n        }\n        return null;\n    }\n}\n",
    [bypass("src/Loader.php")],
  ),
  row(
    "rust: .unwrap_or_default() replacing ?",
    "src/loader.rs",
    "pub fn load(path: &str) -> Result<Config, Error> {\n    let data = read(path)?;\n    parse(&data)\n}\n",
    "pub fn load(path: &str) -> Result<Config, Error> {\n    let data = read(path).unwrap_or_default();\n    parse(&data)\n}\n",
    [bypass("src/loader.rs")],
  ),
  row(
    "go: _ = f() replacing err := f()",
    "loader/loader.go",
    "package loader\n\nfunc Load(path string) error {\n\terr := save(path)\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n",
    "package loader\n\nfunc Load(path string) error {\n\t_ = save(path)\n\treturn nil\n}\n",
    [bypass("loader/loader.go"), bypass("loader/loader.go")],
  ),
  // A catch-all answering every error with the defaults (a named constant or a copy of one).
  row(
    "ruby: rescue StandardError returning DEFAULTS.dup",
    "lib/loader.rb",
    RB,
    "class Loader\n  def load(path)\n    data = File.read(path)\n    Config.parse(data)\n  rescue StandardError\n    DEFAULTS.dup\n  end\nend\n",
    [bypass("lib/loader.rb")],
  ),
  row(
    "python: except Exception returning dict(DEFAULTS)",
    "app/loader.py",
    PY,
    "def load(path):\n    try:\n        data = read(path)\n        return parse(data)\n    except Exception:\n        return dict(DEFAULTS)\n",
    [bypass("app/loader.py")],
  ),
  row(
    "typescript: catch returning { ...DEFAULTS }",
    "src/loader.ts",
    TS,
    "export function load(path: string): Config {\n  try {\n    const data = read(path);\n    return parse(data);\n  } catch {\n    return { ...DEFAULTS };\n  }\n}\n",
    [bypass("src/loader.ts")],
  ),
  row(
    "java: catch (Exception e) returning Config.DEFAULTS",
    "src/main/java/Loader.java",
    JAVA,
    "class Loader {\n  Config load(String path) {\n    try {\n      String data = read(path);\n      return parse(data);\n    } catch (Exception e) {\n      return Config.DEFAULTS;\n    }\n  }\n}\n",
    [bypass("src/main/java/Loader.java")],
  ),
  row(
    "php: catch (\\Throwable) returning self::DEFAULTS",
    "src/Loader.php",
    PHP,
    "<?php\n\nclass Loader\n{\n    public function load(string $path): Config\n    {\n        try {\n            $data = $this->read($path);\n            return $this->parse($data);\n        } catch (\\Throwable $e) {\n            return self::DEFAULTS;\n        }\n    }\n}\n",
    [bypass("src/Loader.php")],
  ),
  // The same nesting that hides the failure: the outer catch no longer rethrows, or the swallowed code is the work itself.
  row(
    "typescript: an empty catch nested in a catch that does not rethrow",
    "src/loader.ts",
    TS,
    "export function load(path: string): Config {\n  try {\n    const data = read(path);\n    return parse(data);\n  } catch (error) {\n    try {\n      return parse(read(path));\n    } catch {\n      /* give up */\n    }\n    return {} as Config;\n  }\n}\n",
    [bypass("src/loader.ts")],
  ),
  row(
    "java: a catch-all nested in a catch that no longer rethrows, around code already run",
    "src/main/java/Loader.java",
    JAVA,
    "class Loader {\n  Config load(String path) {\n    try {\n      String data = read(path);\n      return parse(data);\n    } catch (IOException e) {\n      try {\n        return parse(read(path));\n      } catch (Exception ignored) {\n      }\n      return null;\n    }\n  }\n}\n",
    [bypass("src/main/java/Loader.java")],
  ),
];

const valid: RuleCase[] = [
  row(
    "ruby: rescue of one specific error returning DEFAULTS.dup",
    "lib/loader.rb",
    RB,
    "class Loader\n  def load(path)\n    data = File.read(path)\n    Config.parse(data)\n  rescue Errno::ENOENT\n    DEFAULTS.dup\n  end\nend\n",
    [],
  ),
  row(
    "ruby: rescue StandardError returning a computed fallback",
    "lib/loader.rb",
    RB,
    "class Loader\n  def load(path)\n    data = File.read(path)\n    Config.parse(data)\n  rescue StandardError => e\n    Config.fallback_for(path, e)\n  end\nend\n",
    [],
  ),
  row(
    "python: a handler for one specific error",
    "app/loader.py",
    PY,
    "def load(path):\n    try:\n        data = read(path)\n    except FileNotFoundError:\n        return None\n    return parse(data)\n",
    [],
  ),
  row(
    "python: a handler that logs and re-raises",
    "app/loader.py",
    PY,
    'def load(path):\n    try:\n        data = read(path)\n        return parse(data)\n    except Exception:\n        logger.exception("load failed")\n        raise\n',
    [],
  ),
  row(
    "python: a catch-all around new code only",
    "app/loader.py",
    PY,
    "def load(path):\n    try:\n        notify_metrics(path)\n    except Exception:\n        pass\n    data = read(path)\n    return parse(data)\n",
    [],
  ),
  row("python: a catch-all in a new function", "app/loader.py", PY, `${PY}\n\ndef try_load(path):\n    try:\n        return load(path)\n    except Exception:\n        return None\n`, []),
  row(
    "typescript: cleanup wrapped in try/catch that rethrows",
    "src/loader.ts",
    TS,
    "export function load(path: string): Config {\n  try {\n    const data = read(path);\n    return parse(data);\n  } catch (error) {\n    throw new LoadError(path, { cause: error });\n  }\n}\n",
    [],
  ),
  row(
    "java: catch (FileNotFoundException e) returning null",
    "src/main/java/Loader.java",
    JAVA,
    "class Loader {\n  Config load(String path) {\n    try {\n      String data = read(path);\n      return parse(data);\n    } catch (FileNotFoundException e) {\n      return null;\n    }\n  }\n}\n",
    [],
  ),
  row(
    "go: v, _ := strconv.Atoi(s) where no error was checked before",
    "loader/loader.go",
    "package loader\n\nfunc Load(path string) int {\n\treturn len(path)\n}\n",
    'package loader\n\nimport "strconv"\n\nfunc Load(path string) int {\n\tv, _ := strconv.Atoi(path)\n\treturn v\n}\n',
    [],
  ),
  // Best-effort cleanup on an error path that still fails (found in ralph's own src/store/lock.ts): the outer failure propagates.
  row(
    "typescript: a removal's own empty catch inside a catch that rethrows",
    "src/loader.ts",
    "export function load(path: string): Config {\n  const temp = `${path}.tmp`;\n  write(temp);\n  try {\n    return parse(read(temp));\n  } finally {\n    try {\n      unlinkSync(temp);\n    } catch {\n      /* already gone */\n    }\n  }\n}\n",
    "export function load(path: string): Config {\n  const temp = `${path}.tmp`;\n  try {\n    write(temp);\n  } catch (error) {\n    try {\n      unlinkSync(temp);\n    } catch {\n      /* never created */\n    }\n    throw error;\n  }\n  try {\n    return parse(read(temp));\n  } finally {\n    try {\n      unlinkSync(temp);\n    } catch {\n      /* already gone */\n    }\n  }\n}\n",
    [],
  ),
  row(
    "typescript: a removal's own empty catch inside a finally",
    "src/loader.ts",
    TS,
    "export function load(path: string): Config {\n  const temp = `${path}.tmp`;\n  try {\n    const data = read(path);\n    return parse(data);\n  } finally {\n    try {\n      unlinkSync(temp);\n    } catch {\n      /* already gone */\n    }\n  }\n}\n",
    [],
  ),
  row(
    "java: a removal's own catch-all inside a catch that rethrows, beside the same in a finally/ensure",
    "src/main/java/Store.java",
    "class Store {\n  void save(String p) throws IOException {\n    write(p);\n    try {\n      rename(p);\n    } finally {\n      try {\n        delete(p);\n      } catch (Exception e) {\n      }\n    }\n  }\n}\n",
    "class Store {\n  void save(String p) throws IOException {\n    try {\n      write(p);\n    } catch (IOException e) {\n      try {\n        delete(p);\n      } catch (Exception ignored) {\n      }\n      throw e;\n    }\n    try {\n      rename(p);\n    } finally {\n      try {\n        delete(p);\n      } catch (Exception e) {\n      }\n    }\n  }\n}\n",
    [],
  ),
  row(
    "csharp: a removal's own catch-all inside a catch that rethrows, beside the same in a finally/ensure",
    "src/Store.cs",
    "class Store\n{\n    void Save(string p)\n    {\n        Write(p);\n        try\n        {\n            Rename(p);\n        }\n        finally\n        {\n            try { Delete(p); } catch { }\n        }\n    }\n}\n",
    "class Store\n{\n    void Save(string p)\n    {\n        try\n        {\n            Write(p);\n        }\n        catch (IOException)\n        {\n            try { Delete(p); } catch { }\n            throw;\n        }\n        try\n        {\n            Rename(p);\n        }\n        finally\n        {\n            try { Delete(p); } catch { }\n        }\n    }\n}\n",
    [],
  ),
  row(
    "php: a removal's own catch-all inside a catch that rethrows, beside the same in a finally/ensure",
    "src/Store.php",
    "<?php\nclass Store\n{\n    public function save(string $p): void\n    {\n        $this->write($p);\n        try {\n            $this->rename($p);\n        } finally {\n            try {\n                unlink($p);\n            } catch (\\Throwable $e) {\n            }\n        }\n    }\n}\n",
    "<?php\nclass Store\n{\n    public function save(string $p): void\n    {\n        try {\n            $this->write($p);\n        } catch (\\IOException $e) {\n            try {\n                unlink($p);\n            } catch (\\Throwable $ignored) {\n            }\n            throw $e;\n        }\n        try {\n            $this->rename($p);\n        } finally {\n            try {\n                unlink($p);\n            } catch (\\Throwable $e) {\n            }\n        }\n    }\n}\n",
    [],
  ),
  row(
    "ruby: a removal's own catch-all inside a catch that rethrows, beside the same in a finally/ensure",
    "lib/store.rb",
    "class Store\n  def save(p)\n    write(p)\n    begin\n      rename(p)\n    ensure\n      begin\n        File.delete(p)\n      rescue StandardError\n        nil\n      end\n    end\n  end\nend\n",
    "class Store\n  def save(p)\n    begin\n      write(p)\n    rescue IOError => e\n      begin\n        File.delete(p)\n      rescue StandardError\n        nil\n      end\n      raise e\n    end\n    begin\n      rename(p)\n    ensure\n      begin\n        File.delete(p)\n      rescue StandardError\n        nil\n      end\n    end\n  end\nend\n",
    [],
  ),
];

describe("new swallowing handlers: flagged", () => {
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("new swallowing handlers: look-alikes not flagged", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

/** Go: a deferred recover() added around code the function already ran (breaker3's go-recover-swallows-panic). */
const GO = "package conf\n\nfunc Load(path string) (cfg Config) {\n\tdata := read(path)\n\treturn parse(data)\n}\n";
const goRecover = (handler: string): string => GO.replace("\tdata := read(path)", `\tdefer func() {\n\t\tif r := recover(); r != nil {\n\t\t\t${handler}\n\t\t}\n\t}()\n\tdata := read(path)`);
const goCases: { invalid: RuleCase[]; valid: RuleCase[] } = {
  invalid: [
    row("Go: recover() that answers a default config", "conf/load.go", GO, goRecover("cfg = Config{}"), [bypass("conf/load.go")]),
    row("Go: recover() with an empty handler", "conf/load.go", GO, goRecover("_ = 0"), [bypass("conf/load.go")]),
  ],
  valid: [
    row("Go: recover() that panics again with context", "conf/load.go", GO, goRecover('panic(fmt.Sprintf("load %s: %v", path, r))'), []),
    row(
      "Go: recover() turned into the function's error",
      "conf/load.go",
      GO.replace("(cfg Config)", "(cfg Config, err error)").replace("return parse(data)", "return parse(data), nil"),
      goRecover('err = fmt.Errorf("load: %v", r)').replace("(cfg Config)", "(cfg Config, err error)").replace("return parse(data)", "return parse(data), nil"),
      [],
    ),
  ],
};

describe("new swallowing handlers: Go recover()", () => {
  it.each(goCases.invalid)("flagged: $name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(goCases.valid)("not flagged: $name", async (rule) => {
    await expectFindings(rule);
  });
});

/**
 * A handler that answered a fallback built of the module's constants
 * (`.catch(() => [dummy, dummy])` with `const dummy = { hasSubscribers:
 * false }`) emptied once the fallback is pre-assigned (the sweep of
 * isaacs/node-lru-cache 28e4daca16): it swallowed the error into the
 * fallback before too. The nearest cheats: a handler that rethrew, or
 * answered a computed value or a `let` that code may change, emptied
 * behind a default.
 */
const CHANNELS = (handler: string, binding = "const"): string =>
  `${binding} dummy = { hasSubscribers: false };\n\nexport const [metrics, tracing] = await import("node:diagnostics_channel")\n  .then((dc) => [dc.channel("m"), dc.channel("t")])\n  .catch(${handler});\n`;
const PREASSIGNED = (binding = "const"): string =>
  `${binding} dummy = { hasSubscribers: false };\n\nexport let metrics = dummy;\nexport let tracing = dummy;\n\nimport("node:diagnostics_channel")\n  .then((dc) => {\n    metrics = dc.channel("m");\n    tracing = dc.channel("t");\n  })\n  .catch(() => {});\n`;
const LOAD_TRY = (handler: string): string =>
  `const fallback = { retries: 3 };\n\nexport function load(path: string): { retries: number } {\n  try {\n    return parse(read(path));\n  } catch (error) {\n    ${handler}\n  }\n}\n`;

const fallbackLookAlikes: RuleCase[] = [
  row("typescript: a .catch answering [dummy, dummy] emptied, the dummies pre-assigned", "src/channels.mts", CHANNELS("() => [dummy, dummy]"), PREASSIGNED(), []),
  row(
    "typescript: a catch returning a module constant emptied into a logged swallow",
    "src/load.ts",
    LOAD_TRY("return fallback;"),
    LOAD_TRY("console.warn(error);\n    return undefined as never;"),
    [],
  ),
];

const fallbackCheats: RuleCase[] = [
  row("typescript: a .catch that rethrew emptied, the dummies pre-assigned", "src/channels.mts", CHANNELS("(e) => {\n    throw new Error(`no channels: ${e}`);\n  }"), PREASSIGNED(), [
    bypass("src/channels.mts"),
  ]),
  row("typescript: a .catch answering computed values emptied", "src/channels.mts", CHANNELS("() => [makeDummy(), makeDummy()]"), PREASSIGNED(), [bypass("src/channels.mts")]),
  row("typescript: a .catch answering a let the module may change emptied", "src/channels.mts", CHANNELS("() => [dummy, dummy]", "let"), PREASSIGNED("let"), [bypass("src/channels.mts")]),
];

describe("a handler answering a constant fallback emptied (look-alikes)", () => {
  it.each(fallbackLookAlikes.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});

describe("a handler that passed the error on or computed an answer emptied (cheats)", () => {
  it.each(fallbackCheats.map((rule) => [rule.name, rule] as const))("%s", async (_name, rule) => {
    await expectFindings(rule);
  });
});
