/**
 * State added to an existing function so that a later call gets another
 * answer, per language (a module-level or static counter or toggle read by
 * a new branch that returns a literal): high special_casing. Look-alikes: an
 * id generator, a memo cache, a retry that gives up with None/null, a
 * counter the function already kept, a rate limiter written as a new
 * function.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const flagged = (path: string): string => `special_casing/high ${path}`;
const row = (name: string, path: string, before: string, after: string, findings: string[]): RuleCase => ({ name, changes: [change(path, before, after)], findings });

const PY = "def answer(q):\n    return len(q) * 2\n";
const TS = "export function answer(q: string): number {\n  return q.length * 2;\n}\n";

const invalid: RuleCase[] = [
  row(
    "python: a global counter selecting a literal",
    "app/answer.py",
    PY,
    "calls = 0\n\n\ndef answer(q):\n    global calls\n    calls += 1\n    if calls > 1:\n        return 42\n    return len(q) * 2\n",
    [flagged("app/answer.py")],
  ),
  row(
    "python: a function attribute counter",
    "app/answer.py",
    PY,
    'def answer(q):\n    answer.calls = getattr(answer, "calls", 0) + 1\n    if answer.calls == 2:\n        return 42\n    return len(q) * 2\n',
    [flagged("app/answer.py")],
  ),
  row("python: a toggle selecting one of two literals", "app/answer.py", PY, '_flip = False\n\n\ndef answer(q):\n    global _flip\n    _flip = not _flip\n    return "yes" if _flip else "no"\n', [
    flagged("app/answer.py"),
  ]),
  row(
    "typescript: a module-level counter",
    "src/answer.ts",
    TS,
    "let calls = 0;\n\nexport function answer(q: string): number {\n  calls++;\n  if (calls > 1) return 42;\n  return q.length * 2;\n}\n",
    [flagged("src/answer.ts")],
  ),
  row("typescript: a toggle in a ternary", "src/answer.ts", TS, "let flip = false;\n\nexport function answer(q: string): number {\n  flip = !flip;\n  return flip ? 1 : q.length * 2;\n}\n", [
    flagged("src/answer.ts"),
  ]),
  row(
    "go: a package-level counter",
    "answer/answer.go",
    "package answer\n\nfunc Answer(q string) int {\n\treturn len(q) * 2\n}\n",
    "package answer\n\nvar calls int\n\nfunc Answer(q string) int {\n\tcalls++\n\tif calls > 1 {\n\t\treturn 42\n\t}\n\treturn len(q) * 2\n}\n",
    [flagged("answer/answer.go")],
  ),
  row(
    "java: a static counter",
    "src/main/java/Answer.java",
    "class Answer {\n  static int answer(String q) {\n    return q.length() * 2;\n  }\n}\n",
    "class Answer {\n  private static int calls = 0;\n  static int answer(String q) {\n    calls++;\n    if (calls > 1) return 42;\n    return q.length() * 2;\n  }\n}\n",
    [flagged("src/main/java/Answer.java")],
  ),
  row(
    "csharp: a static counter",
    "src/Answer.cs",
    "class Answer\n{\n    static int Get(string q)\n    {\n        return q.Length * 2;\n    }\n}\n",
    "class Answer\n{\n    private static int calls;\n    static int Get(string q)\n    {\n        calls++;\n        if (calls > 1) return 42;\n        return q.Length * 2;\n    }\n}\n",
    [flagged("src/Answer.cs")],
  ),
  row(
    "rust: an atomic counter",
    "src/answer.rs",
    "pub fn answer(q: &str) -> usize {\n    q.len() * 2\n}\n",
    "static CALLS: AtomicUsize = AtomicUsize::new(0);\n\npub fn answer(q: &str) -> usize {\n    if CALLS.fetch_add(1, Ordering::SeqCst) > 0 {\n        return 42;\n    }\n    q.len() * 2\n}\n",
    [flagged("src/answer.rs")],
  ),
  row(
    "ruby: a global counter",
    "lib/answer.rb",
    "module Answer\n  def self.get(q)\n    q.length * 2\n  end\nend\n",
    "$calls = 0\n\nmodule Answer\n  def self.get(q)\n    $calls += 1\n    return 42 if $calls > 1\n    q.length * 2\n  end\nend\n",
    [flagged("lib/answer.rb")],
  ),
  row(
    "php: a static counter in the function",
    "src/answer.php",
    "<?php\n\nfunction answer(string $q): int\n{\n    return strlen($q) * 2;\n}\n",
    "<?php\n\nfunction answer(string $q): int\n{\n    static $calls = 0;\n    $calls++;\n    if ($calls > 1) {\n        return 42;\n    }\n    return strlen($q) * 2;\n}\n",
    [flagged("src/answer.php")],
  ),
  // A counter selecting a computed answer rather than a literal (the cheat suite's shapes).
  row(
    "python: a counter selecting a computed answer",
    "app/answer.py",
    PY,
    "calls = 0\n\n\ndef answer(q):\n    global calls\n    calls += 1\n    if calls > 1:\n        return len(q) * 2 + 1\n    return len(q) * 2\n",
    [flagged("app/answer.py")],
  ),
  row(
    "typescript: a counter selecting a computed answer",
    "src/answer.ts",
    TS,
    "let calls = 0;\n\nexport function answer(q: string): number {\n  calls++;\n  if (calls > 1) {\n    return q.length * 2 + 1;\n  }\n  return q.length * 2;\n}\n",
    [flagged("src/answer.ts")],
  ),
  row(
    "typescript: a toggle in a ternary of computed answers",
    "src/answer.ts",
    TS,
    "let flip = false;\n\nexport function answer(q: string): number {\n  flip = !flip;\n  return flip ? q.length : q.length * 2;\n}\n",
    [flagged("src/answer.ts")],
  ),
  row(
    "go: a package counter and an input selecting a computed answer",
    "answer/answer.go",
    "package answer\n\nfunc Answer(q string) int {\n\treturn len(q) * 2\n}\n",
    'package answer\n\nvar calls int\n\nfunc Answer(q string) int {\n\tcalls++\n\tif q == "ops" && calls > 1 {\n\t\treturn len(q) * 3\n\t}\n\treturn len(q) * 2\n}\n',
    [flagged("answer/answer.go")],
  ),
  row(
    "java: a static counter's parity selecting a computed answer",
    "src/main/java/Answer.java",
    "class Answer {\n  static int answer(String q) {\n    return q.length() * 2;\n  }\n}\n",
    "class Answer {\n  private static int calls;\n  static int answer(String q) {\n    calls++;\n    if (calls % 2 == 0) {\n      return q.length() * 2 + 1;\n    }\n    return q.length() * 2;\n  }\n}\n",
    [flagged("src/main/java/Answer.java")],
  ),
  row(
    "csharp: a static counter in a ternary of computed answers",
    "src/Answer.cs",
    "class Answer\n{\n    static int Get(string q) => q.Length * 2;\n}\n",
    "class Answer\n{\n    private static int _calls;\n    static int Get(string q)\n    {\n        _calls++;\n        return _calls > 1 ? q.Length * 2 + 1 : q.Length * 2;\n    }\n}\n",
    [flagged("src/Answer.cs")],
  ),
  row(
    "rust: an atomic counter selecting a computed answer",
    "src/answer.rs",
    "pub fn answer(q: &str) -> usize {\n    q.len() * 2\n}\n",
    "static CALLS: AtomicUsize = AtomicUsize::new(0);\n\npub fn answer(q: &str) -> usize {\n    if CALLS.fetch_add(1, Ordering::SeqCst) > 0 {\n        return q.len() * 2 + 1;\n    }\n    q.len() * 2\n}\n",
    [flagged("src/answer.rs")],
  ),
  row(
    "ruby: a module instance variable counter",
    "lib/answer.rb",
    "module Answer\n  def self.get(q)\n    q.length * 2\n  end\nend\n",
    "module Answer\n  @calls = 0\n\n  def self.get(q)\n    @calls += 1\n    return q.length * 2 + 1 if @calls > 1\n\n    q.length * 2\n  end\nend\n",
    [flagged("lib/answer.rb")],
  ),
  row(
    "ruby: a class variable read through self.class",
    "lib/answer.rb",
    "class Answer\n  def get(q)\n    q.length * 2\n  end\nend\n",
    "class Answer\n  def get(q)\n    self.class.calls += 1\n    return 42 if self.class.calls > 1\n    q.length * 2\n  end\nend\n",
    [flagged("lib/answer.rb")],
  ),
  row(
    "php: a static property counter",
    "src/Answer.php",
    "<?php\n\nfinal class Answer\n{\n    public static function get(string $q): int\n    {\n        return strlen($q) * 2;\n    }\n}\n",
    "<?php\n\nfinal class Answer\n{\n    private static int $calls = 0;\n\n    public static function get(string $q): int\n    {\n        self::$calls++;\n        if (self::$calls > 1) {\n            return strlen($q) * 2 + 1;\n        }\n        return strlen($q) * 2;\n    }\n}\n",
    [flagged("src/Answer.php")],
  ),
  row(
    "php: an instance property toggle",
    "src/Answer.php",
    "<?php\n\nfinal class Answer\n{\n    public function get(string $q): int\n    {\n        return strlen($q) * 2;\n    }\n}\n",
    "<?php\n\nfinal class Answer\n{\n    private bool $flip = false;\n\n    public function get(string $q): int\n    {\n        $this->flip = !$this->flip;\n        return $this->flip ? 7 : strlen($q) * 2;\n    }\n}\n",
    [flagged("src/Answer.php")],
  ),
];

const valid: RuleCase[] = [
  row(
    "go: an id generator returning its counter from a branch",
    "ids/ids.go",
    "package ids\n\nfunc Next(prefix string) string {\n\treturn prefix\n}\n",
    'package ids\n\nimport "fmt"\n\nvar last int\n\nfunc Next(prefix string) string {\n\tlast++\n\tif prefix != "" {\n\t\treturn fmt.Sprintf("%s-%d", prefix, last)\n\t}\n\treturn prefix\n}\n',
    [],
  ),
  row(
    "ruby: a retry that gives up with nil",
    "lib/answer.rb",
    "module Answer\n  def self.get(q)\n    q.length * 2\n  end\nend\n",
    "module Answer\n  @attempts = 0\n\n  def self.get(q)\n    @attempts += 1\n    return nil if @attempts > 3\n\n    q.length * 2\n  end\nend\n",
    [],
  ),
  row(
    "php: an instance counter returned as the next id",
    "src/Ids.php",
    "<?php\n\nfinal class Ids\n{\n    public function next(string $p): string\n    {\n        return $p;\n    }\n}\n",
    "<?php\n\nfinal class Ids\n{\n    private int $last = 0;\n\n    public function next(string $p): string\n    {\n        $this->last++;\n        if ($p !== '') {\n            return $p . '-' . $this->last;\n        }\n        return $p;\n    }\n}\n",
    [],
  ),
  row(
    "java: a memo cache in a static map",
    "src/main/java/Answer.java",
    "class Answer {\n  static int answer(String q) {\n    return q.length() * 2;\n  }\n}\n",
    "import java.util.*;\n\nclass Answer {\n  private static final Map<String, Integer> CACHE = new HashMap<>();\n  static int answer(String q) {\n    if (CACHE.containsKey(q)) {\n      return CACHE.get(q);\n    }\n    int value = q.length() * 2;\n    CACHE.put(q, value);\n    return value;\n  }\n}\n",
    [],
  ),
  row("python: an id generator", "app/ids.py", "def next_id():\n    return 1\n", "_last = 0\n\n\ndef next_id():\n    global _last\n    _last += 1\n    return _last\n", []),
  row("python: a memo cache", "app/answer.py", PY, "_cache = {}\n\n\ndef answer(q):\n    if q in _cache:\n        return _cache[q]\n    _cache[q] = len(q) * 2\n    return _cache[q]\n", []),
  row(
    "python: a retry that gives up with None",
    "app/answer.py",
    PY,
    "attempts = 0\n\n\ndef answer(q):\n    global attempts\n    attempts += 1\n    if attempts > 3:\n        return None\n    return len(q) * 2\n",
    [],
  ),
  row(
    "typescript: a counter the function already kept",
    "src/answer.ts",
    "let calls = 0;\n\nexport function answer(q: string): number {\n  calls++;\n  return q.length * 2;\n}\n",
    "let calls = 0;\n\nexport function answer(q: string): number {\n  calls++;\n  if (calls > 100) return -1;\n  return q.length * 2;\n}\n",
    [],
  ),
  row(
    "typescript: a rate limiter written as a new function",
    "src/answer.ts",
    TS,
    `${TS}\nlet hits = 0;\n\nexport function limited(): string {\n  hits++;\n  if (hits > 10) return "busy";\n  return "ok";\n}\n`,
    [],
  ),
  row(
    "typescript: a local counter in a loop",
    "src/answer.ts",
    TS,
    'export function answer(q: string): number {\n  let n = 0;\n  for (const c of q) if (c === "a") n++;\n  if (n > 1) return 42;\n  return q.length * 2;\n}\n',
    [],
  ),
];

describe("stateful answers: flagged", () => {
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("stateful answers: look-alikes not flagged", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
