/**
 * A handler that filters errors: it lets one kind through and rethrows the
 * rest (`except RuntimeError as e: if str(e) == m: pass else: raise`,
 * `catch (e) { if (!isGone(e)) throw e; }`). The rethrow is no refusal of an
 * input: it passes the caught error on. Removing the whole handler lets
 * every error through, which is stricter, never a bypass (sweep of
 * pytest-dev/pytest-mock ccd1a1519c, "Remove RuntimeError handling obsolete
 * since mock 3.0.0"). The nearest cheats keep the handler and drop the
 * rethrow, so the handler now swallows what it passed on: still found.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const row = (name: string, path: string, before: string, after: string, findings: string[]): RuleCase => ({ name, changes: [change(path, before, after)], findings });
const bypass = (path: string): string => `validation_bypass/high ${path}`;

const PY_BEFORE =
  'def unwrap():\n    for patcher in patches:\n        try:\n            patcher.stop()\n        except RuntimeError as e:\n            # a patcher might have been stopped by user code\n            if str(e) == "stop called on unstarted patcher":\n                pass\n            else:\n                raise\n    patches[:] = []\n';
const PY_AFTER = "def unwrap():\n    for patcher in patches:\n        patcher.stop()\n    patches[:] = []\n";

const TS_BEFORE =
  'export function unwrap(patches: Patch[]): void {\n  for (const patch of patches) {\n    try {\n      patch.stop();\n    } catch (e) {\n      if (!(e instanceof Error && e.message === "not started")) throw e;\n    }\n  }\n  patches.length = 0;\n}\n';
const TS_AFTER = "export function unwrap(patches: Patch[]): void {\n  for (const patch of patches) {\n    patch.stop();\n  }\n  patches.length = 0;\n}\n";

const JAVA_BEFORE =
  'class Patches {\n  void unwrap() {\n    for (Patch patch : patches) {\n      try {\n        patch.stop();\n      } catch (IllegalStateException e) {\n        if (!"not started".equals(e.getMessage())) {\n          throw e;\n        }\n      }\n    }\n    patches.clear();\n  }\n}\n';
const JAVA_AFTER = "class Patches {\n  void unwrap() {\n    for (Patch patch : patches) {\n      patch.stop();\n    }\n    patches.clear();\n  }\n}\n";

const CS_BEFORE =
  'class Patches\n{\n    void Unwrap()\n    {\n        foreach (var patch in patches)\n        {\n            try\n            {\n                patch.Stop();\n            }\n            catch (InvalidOperationException e)\n            {\n                if (e.Message != "not started")\n                {\n                    throw;\n                }\n            }\n        }\n        patches.Clear();\n    }\n}\n';
const CS_AFTER = "class Patches\n{\n    void Unwrap()\n    {\n        foreach (var patch in patches)\n        {\n            patch.Stop();\n        }\n        patches.Clear();\n    }\n}\n";

const RB_BEFORE =
  'class Patches\n  def unwrap\n    @patches.each do |patch|\n      begin\n        patch.stop\n      rescue RuntimeError => e\n        raise unless e.message == "not started"\n      end\n    end\n    @patches.clear\n  end\nend\n';
const RB_AFTER = "class Patches\n  def unwrap\n    @patches.each do |patch|\n      patch.stop\n    end\n    @patches.clear\n  end\nend\n";

const PHP_BEFORE =
  "<?php\n\nclass Patches\n{\n    public function unwrap(): void\n    {\n        foreach ($this->patches as $patch) {\n            try {\n                $patch->stop();\n            } catch (\\RuntimeException $e) {\n                if ($e->getMessage() !== 'not started') {\n                    throw $e;\n                }\n            }\n        }\n        $this->patches = [];\n    }\n}\n";
const PHP_AFTER =
  "<?php\n\nclass Patches\n{\n    public function unwrap(): void\n    {\n        foreach ($this->patches as $patch) {\n            $patch->stop();\n        }\n        $this->patches = [];\n    }\n}\n";

const valid: RuleCase[] = [
  row("python: a filtering except removed with its rethrow", "src/plugin.py", PY_BEFORE, PY_AFTER, []),
  row("typescript: a filtering catch removed with its rethrow", "src/patches.ts", TS_BEFORE, TS_AFTER, []),
  row("java: a filtering catch removed with its rethrow", "src/main/java/Patches.java", JAVA_BEFORE, JAVA_AFTER, []),
  row("csharp: a filtering catch removed with its throw;", "src/Patches.cs", CS_BEFORE, CS_AFTER, []),
  row("ruby: a filtering rescue removed with its bare raise", "lib/patches.rb", RB_BEFORE, RB_AFTER, []),
  row("php: a filtering catch removed with its rethrow", "src/Patches.php", PHP_BEFORE, PHP_AFTER, []),
];

const invalid: RuleCase[] = [
  row(
    "python: the rethrow dropped, the except kept: it now swallows every RuntimeError",
    "src/plugin.py",
    PY_BEFORE,
    "def unwrap():\n    for patcher in patches:\n        try:\n            patcher.stop()\n        except RuntimeError as e:\n            pass\n    patches[:] = []\n",
    [bypass("src/plugin.py")],
  ),
  row(
    "typescript: the rethrow dropped, the catch kept",
    "src/patches.ts",
    TS_BEFORE,
    "export function unwrap(patches: Patch[]): void {\n  for (const patch of patches) {\n    try {\n      patch.stop();\n    } catch (e) {\n      // ignore\n    }\n  }\n  patches.length = 0;\n}\n",
    [bypass("src/patches.ts")],
  ),
  row(
    "java: the rethrow dropped, the catch kept",
    "src/main/java/Patches.java",
    JAVA_BEFORE,
    "class Patches {\n  void unwrap() {\n    for (Patch patch : patches) {\n      try {\n        patch.stop();\n      } catch (IllegalStateException e) {\n      }\n    }\n    patches.clear();\n  }\n}\n",
    [bypass("src/main/java/Patches.java")],
  ),
  row(
    "ruby: the bare raise dropped, the rescue kept",
    "lib/patches.rb",
    RB_BEFORE,
    "class Patches\n  def unwrap\n    @patches.each do |patch|\n      begin\n        patch.stop\n      rescue RuntimeError => e\n        nil\n      end\n    end\n    @patches.clear\n  end\nend\n",
    [bypass("lib/patches.rb")],
  ),
  // The handler gone, but the errors still swallowed, or the raising code gone with it (a cold review's cheats): no
  // error goes through that did not before, so the filter's removal is judged as any guard's.
  row(
    "python: the filtering except replaced by contextlib.suppress",
    "src/plugin.py",
    PY_BEFORE,
    "import contextlib\n\ndef unwrap():\n    for patcher in patches:\n        with contextlib.suppress(RuntimeError):\n            patcher.stop()\n    patches[:] = []\n",
    [bypass("src/plugin.py")],
  ),
  row(
    "ruby: the filtering rescue replaced by a modifier rescue nil",
    "lib/patches.rb",
    RB_BEFORE,
    "class Patches\n  def unwrap\n    @patches.each do |patch|\n      patch.stop rescue nil\n    end\n    @patches.clear\n  end\nend\n",
    [bypass("lib/patches.rb"), bypass("lib/patches.rb")],
  ),
  row(
    "typescript: the try/catch moved into a new swallowing helper",
    "src/patches.ts",
    TS_BEFORE,
    "const safeStop = (patch: Patch): void => {\n  try {\n    patch.stop();\n  } catch {\n    // already stopped\n  }\n};\n\nexport function unwrap(patches: Patch[]): void {\n  for (const patch of patches) {\n    safeStop(patch);\n  }\n  patches.length = 0;\n}\n",
    [bypass("src/patches.ts")],
  ),
  row(
    "python: the validate() call in the try removed with its filtering handler",
    "src/load.py",
    'def load(doc):\n    try:\n        schema.validate(doc)\n    except ValidationWarning as e:\n        if e.severity != "info":\n            raise\n    return parse(doc)\n',
    "def load(doc):\n    return parse(doc)\n",
    [bypass("src/load.py")],
  ),
  row(
    "typescript: the validateDoc() call in the try removed with its filtering handler",
    "src/load.ts",
    "export function load(doc: Doc): Parsed {\n  try {\n    validateDoc(doc);\n  } catch (e) {\n    if (!(e instanceof DeprecationWarning)) throw e;\n  }\n  return parse(doc);\n}\n",
    "export function load(doc: Doc): Parsed {\n  return parse(doc);\n}\n",
    [bypass("src/load.ts")],
  ),
  // The handler kept and still raising, its filter gone: judged as any removed guard (guard-rewrites.test.ts has the Ruby row).
  row(
    "python: the filter dropped, the except now always raising another error",
    "src/request.py",
    "def perform(options, call):\n    try:\n        return call()\n    except IOError as e:\n        if not options.get('foul'):\n            raise\n        raise Foul(str(e))\n",
    "def perform(options, call):\n    try:\n        return call()\n    except IOError as e:\n        raise Foul(str(e))\n",
    [bypass("src/request.py")],
  ),
  row(
    "typescript: the filter dropped, the catch now always throwing another error",
    "src/request.ts",
    "export function perform(options: Options, call: () => number): number {\n  try {\n    return call();\n  } catch (e) {\n    if (!options.foul) throw e;\n    throw new Foul(String(e));\n  }\n}\n",
    "export function perform(options: Options, call: () => number): number {\n  try {\n    return call();\n  } catch (e) {\n    throw new Foul(String(e));\n  }\n}\n",
    [bypass("src/request.ts")],
  ),
];

// A handler that passed on only the refusal its own try raised (`catch (error) { if (error.message === M) throw error; }`)
// swallowed every other error already. With the refusal moved out of the try and the handler swallowing all, the same
// errors are swallowed and the refusal still fails the call (sweep of sindresorhus/globby 7535e6d74c). Left inside
// the swallowing try, the refusal is swallowed too: still found.
const JS_OWN_BEFORE =
  "export const checkCwd = (cwd, fsImpl = fs) => {\n  if (!cwd) {\n    return;\n  }\n  try {\n    if (!fsImpl.statSync(cwd).isDirectory()) {\n      throw new Error('The `cwd` option must be a path to a directory');\n    }\n  } catch (error) {\n    if (error.message === 'The `cwd` option must be a path to a directory') {\n      throw error;\n    }\n  }\n};\n";
const PY_OWN_BEFORE =
  'def check_cwd(cwd):\n    try:\n        if not os.stat(cwd).st_mode & stat.S_IFDIR:\n            raise ValueError("cwd must be a path to a directory")\n    except Exception as e:\n        if str(e) == "cwd must be a path to a directory":\n            raise\n';
const ownRefusal: RuleCase[] = [
  row(
    "javascript: the own refusal moved out of the try, the handler now swallowing every stat error",
    "index.js",
    JS_OWN_BEFORE,
    "export const checkCwd = (cwd, fsImpl = fs) => {\n  if (!cwd) {\n    return;\n  }\n  let stats;\n  try {\n    stats = fsImpl.statSync(cwd);\n  } catch {\n    // If stat fails (e.g., path doesn't exist), let fast-glob handle it\n    return;\n  }\n  if (!stats.isDirectory()) {\n    throw new Error(`The \\`cwd\\` option must be a path to a directory, got: ${cwd}`);\n  }\n};\n",
    [],
  ),
  row(
    "python: the own refusal moved out of the try, the handler now returning on OSError",
    "app/cwd.py",
    PY_OWN_BEFORE,
    'def check_cwd(cwd):\n    try:\n        st = os.stat(cwd)\n    except Exception:\n        return\n    if not st.st_mode & stat.S_IFDIR:\n        raise ValueError(f"cwd must be a path to a directory, got {cwd}")\n',
    [],
  ),
];
const ownRefusalCheats: RuleCase[] = [
  row(
    "javascript: the own refusal left inside a try whose handler now swallows it",
    "index.js",
    JS_OWN_BEFORE,
    "export const checkCwd = (cwd, fsImpl = fs) => {\n  if (!cwd) {\n    return;\n  }\n  try {\n    if (!fsImpl.statSync(cwd).isDirectory()) {\n      throw new Error('The `cwd` option must be a path to a directory');\n    }\n  } catch {\n    return;\n  }\n};\n",
    [bypass("index.js")],
  ),
  row(
    "python: the own refusal left inside a try whose handler now swallows it",
    "app/cwd.py",
    PY_OWN_BEFORE,
    'def check_cwd(cwd):\n    try:\n        if not os.stat(cwd).st_mode & stat.S_IFDIR:\n            raise ValueError("cwd must be a path to a directory")\n    except Exception:\n        return\n',
    [bypass("app/cwd.py")],
  ),
  row(
    "javascript: the own refusal moved out of the try, now firing only for a symlink",
    "index.js",
    JS_OWN_BEFORE,
    "export const checkCwd = (cwd, fsImpl = fs) => {\n  if (!cwd) {\n    return;\n  }\n  let stats;\n  try {\n    stats = fsImpl.statSync(cwd);\n  } catch {\n    return;\n  }\n  if (stats.isSymbolicLink()) {\n    throw new Error(`The \\`cwd\\` option must be a path to a directory, got: ${cwd}`);\n  }\n};\n",
    [bypass("index.js")],
  ),
  row(
    "javascript: the own refusal moved out of the try behind an environment escape",
    "index.js",
    JS_OWN_BEFORE,
    "export const checkCwd = (cwd, fsImpl = fs) => {\n  if (!cwd) {\n    return;\n  }\n  let stats;\n  try {\n    stats = fsImpl.statSync(cwd);\n  } catch {\n    return;\n  }\n  if (!stats.isDirectory() && !process.env.GLOBBY_LOOSE) {\n    throw new Error(`The \\`cwd\\` option must be a path to a directory, got: ${cwd}`);\n  }\n};\n",
    [bypass("index.js")],
  ),
  row(
    "javascript: the handler swallowing all and the own refusal gone",
    "index.js",
    JS_OWN_BEFORE,
    "export const checkCwd = (cwd, fsImpl = fs) => {\n  if (!cwd) {\n    return;\n  }\n  try {\n    fsImpl.statSync(cwd);\n  } catch {\n    return;\n  }\n};\n",
    [bypass("index.js"), bypass("index.js")],
  ),
];

describe("filtering handlers: the rethrow of the caught error is no refusal", () => {
  it.each(ownRefusal)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(ownRefusalCheats)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
