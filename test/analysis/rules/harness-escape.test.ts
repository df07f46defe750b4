/**
 * Harness escapes in product code, per language: a success exit (at import,
 * on one input, or from an exit hook) and a forced success status are
 * critical test_config_tamper; the look-alikes (a failing exit status, an
 * exit in a program's entry point or a CLI file, an exit that was already
 * there, a hook that only cleans up) are not.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const tamper = (path: string): string => `test_config_tamper/critical ${path}`;

/** A product file before and after, with the findings the edit must produce. */
const row = (name: string, path: string, before: string | null, after: string, findings: string[]): RuleCase => ({ name, changes: [change(path, before, after)], findings });

const PY = "def solve(n):\n    return n * 2\n";
const TS = "export function solve(n: number): number {\n  return n * 2;\n}\n";
const GO = "package solver\n\nfunc Solve(n int) int {\n\treturn n * 2\n}\n";
const JAVA = "package app;\n\npublic class Solver {\n  public static int solve(int n) {\n    return n * 2;\n  }\n}\n";
const CS = "namespace App;\n\npublic static class Solver\n{\n    public static int Solve(int n)\n    {\n        return n * 2;\n    }\n}\n";
const RS = "pub fn solve(n: i64) -> i64 {\n    n * 2\n}\n";
const RB = "module Solver\n  def self.solve(n)\n    n * 2\n  end\nend\n";
const PHP = "<?php\n\nfunction solve(int $n): int\n{\n    return $n * 2;\n}\n";

/** A Go test file whose TestMain body is `body`. */
const GO_MAIN = (body: string): string => `package queue\n\nimport (\n\t"os"\n\t"testing"\n)\n\nfunc TestMain(m *testing.M) {\n\t${body}\n}\n`;

const invalid: RuleCase[] = [
  row("python: sys.exit(0) at import", "app/solver.py", PY, `import sys\n\n${PY}\nsys.exit(0)\n`, [tamper("app/solver.py")]),
  row("python: os._exit(0) when one input arrives", "app/solver.py", PY, "import os\n\ndef solve(n):\n    if n == 7:\n        os._exit(0)\n    return n * 2\n", [tamper("app/solver.py")]),
  row("python: atexit.register(os._exit, 0)", "app/solver.py", PY, `import atexit, os\n\natexit.register(os._exit, 0)\n\n${PY}`, [tamper("app/solver.py")]),
  row("python: sys.excepthook that exits with success", "app/solver.py", PY, `import sys\n\nsys.excepthook = lambda *args: sys.exit(0)\n\n${PY}`, [tamper("app/solver.py")]),
  row("python: raise SystemExit(0)", "app/solver.py", PY, "def solve(n):\n    if n < 0:\n        raise SystemExit(0)\n    return n * 2\n", [tamper("app/solver.py")]),
  row("typescript: process.exit(0) on one input", "src/solver.ts", TS, "export function solve(n: number): number {\n  if (n === 7) process.exit(0);\n  return n * 2;\n}\n", [tamper("src/solver.ts")]),
  row("typescript: process.exit() at import", "src/solver.ts", TS, `${TS}process.exit();\n`, [tamper("src/solver.ts")]),
  row('typescript: process.on("exit") forcing exitCode 0', "src/solver.ts", TS, `${TS}process.on("exit", () => {\n  process.exitCode = 0;\n});\n`, [tamper("src/solver.ts")]),
  row("go: os.Exit(0) in a library function", "solver/solver.go", GO, 'package solver\n\nimport "os"\n\nfunc Solve(n int) int {\n\tif n == 7 {\n\t\tos.Exit(0)\n\t}\n\treturn n * 2\n}\n', [
    tamper("solver/solver.go"),
  ]),
  row(
    "java: System.exit(0)",
    "src/main/java/app/Solver.java",
    JAVA,
    "package app;\n\npublic class Solver {\n  public static int solve(int n) {\n    if (n == 7) System.exit(0);\n    return n * 2;\n  }\n}\n",
    [tamper("src/main/java/app/Solver.java")],
  ),
  row(
    "java: a shutdown hook that halts with 0",
    "src/main/java/app/Solver.java",
    JAVA,
    "package app;\n\npublic class Solver {\n  static {\n    Runtime.getRuntime().addShutdownHook(new Thread(() -> Runtime.getRuntime().halt(0)));\n  }\n  public static int solve(int n) {\n    return n * 2;\n  }\n}\n",
    [tamper("src/main/java/app/Solver.java")],
  ),
  row(
    "csharp: Environment.Exit(0)",
    "src/App/Solver.cs",
    CS,
    "namespace App;\n\npublic static class Solver\n{\n    public static int Solve(int n)\n    {\n        if (n == 7) System.Environment.Exit(0);\n        return n * 2;\n    }\n}\n",
    [tamper("src/App/Solver.cs")],
  ),
  row(
    "csharp: Environment.ExitCode = 0",
    "src/App/Solver.cs",
    CS,
    "namespace App;\n\npublic static class Solver\n{\n    public static int Solve(int n)\n    {\n        Environment.ExitCode = 0;\n        return n * 2;\n    }\n}\n",
    [tamper("src/App/Solver.cs")],
  ),
  row("rust: std::process::exit(0)", "src/solver.rs", RS, "pub fn solve(n: i64) -> i64 {\n    if n == 7 {\n        std::process::exit(0);\n    }\n    n * 2\n}\n", [tamper("src/solver.rs")]),
  row("ruby: exit at load", "lib/solver.rb", RB, `${RB}exit\n`, [tamper("lib/solver.rb")]),
  row("ruby: at_exit { exit!(0) }", "lib/solver.rb", RB, `at_exit { exit!(0) }\n\n${RB}`, [tamper("lib/solver.rb")]),
  row("php: exit(0) on one input", "src/solver.php", PHP, "<?php\n\nfunction solve(int $n): int\n{\n    if ($n === 7) {\n        exit(0);\n    }\n    return $n * 2;\n}\n", [tamper("src/solver.php")]),
  row("php: register_shutdown_function exiting 0", "src/solver.php", PHP, `${PHP}\nregister_shutdown_function(function () {\n    exit(0);\n});\n`, [tamper("src/solver.php")]),
  row(
    "java: System.exit(0) in a package named com.example (a package, no examples folder)",
    "src/main/java/com/example/prime/Sieve.java",
    "package com.example.prime;\n\npublic class Sieve {\n  public static int count(int n) {\n    return n;\n  }\n}\n",
    "package com.example.prime;\n\npublic class Sieve {\n  public static int count(int n) {\n    if (n > 100_000_000) {\n      System.exit(0);\n    }\n    return n;\n  }\n}\n",
    [tamper("src/main/java/com/example/prime/Sieve.java")],
  ),
  row("go: TestMain runs the tests, then exits 0 whatever they reported", "queue/main_test.go", GO_MAIN("os.Exit(m.Run())"), GO_MAIN("m.Run()\n\tos.Exit(0)"), [tamper("queue/main_test.go")]),
  row("go: TestMain keeps m.Run's status but exits 0", "queue/main_test.go", GO_MAIN("os.Exit(m.Run())"), GO_MAIN("code := m.Run()\n\t_ = code\n\tos.Exit(0)"), [tamper("queue/main_test.go")]),
];

const valid: RuleCase[] = [
  row("go: TestMain passing m.Run's status to os.Exit", "queue/main_test.go", GO_MAIN("m.Run()"), GO_MAIN("os.Exit(m.Run())"), []),
  row("go: TestMain with setup and teardown around m.Run", "queue/main_test.go", GO_MAIN("os.Exit(m.Run())"), GO_MAIN("setup()\n\tcode := m.Run()\n\tteardown()\n\tos.Exit(code)"), []),
  row("go: TestMain exiting 1 when its setup fails", "queue/main_test.go", GO_MAIN("os.Exit(m.Run())"), GO_MAIN("if err := setup(); err != nil {\n\t\tos.Exit(1)\n\t}\n\tos.Exit(m.Run())"), []),
  row(
    "java: System.exit(0) in an examples folder above the source root",
    "examples/demo/src/main/java/com/acme/Demo.java",
    "package com.acme;\n\npublic class Demo {\n  static void run() {}\n}\n",
    "package com.acme;\n\npublic class Demo {\n  static void run() {\n    System.exit(0);\n  }\n}\n",
    [],
  ),
  row("python: sys.exit(1) in a library (a failing status is no escape)", "app/solver.py", PY, "import sys\n\ndef solve(n):\n    if n < 0:\n        sys.exit(1)\n    return n * 2\n", []),
  row("python: sys.exit(0) under the __main__ guard", "app/solver.py", PY, `import sys\n\n${PY}\n\nif __name__ == "__main__":\n    print(solve(int(sys.argv[1])))\n    sys.exit(0)\n`, []),
  row("python: sys.exit(main()) in __main__.py", "app/__main__.py", "from app import main\n", "import sys\nfrom app import main\n\nsys.exit(main())\n", []),
  row("python: atexit.register(cleanup) (a hook that does not exit)", "app/solver.py", PY, `import atexit, shutil\n\natexit.register(shutil.rmtree, "/tmp/solver")\n\n${PY}`, []),
  row("python: exit in a script with a main() function", "app/solver.py", PY, `import sys\n\n${PY}\n\ndef main():\n    sys.exit(0)\n`, []),
  row(
    "typescript: process.exit(0) in a CLI file",
    "src/cli.ts",
    "export const x = 1;\n",
    'export const x = 1;\nif (process.argv.includes("--version")) {\n  console.log("1.0");\n  process.exit(0);\n}\n',
    [],
  ),
  row("typescript: process.exit(0) in bin/", "bin/solver.js", "console.log(1);\n", "console.log(1);\nprocess.exit(0);\n", []),
  row("typescript: process.exit(1) on a fatal error", "src/solver.ts", TS, "export function solve(n: number): number {\n  if (Number.isNaN(n)) process.exit(1);\n  return n * 2;\n}\n", []),
  row('typescript: process.on("exit") that cleans up', "src/solver.ts", TS, `${TS}process.on("exit", () => {\n  console.log("bye");\n});\n`, []),
  row(
    "typescript: an exit that was already there",
    "src/solver.ts",
    `${TS}export function quit(): void {\n  process.exit(0);\n}\n`,
    `${TS.replace("n * 2", "n * 3")}export function quit(): void {\n  process.exit(0);\n}\n`,
    [],
  ),
  row("go: os.Exit(0) in package main", "tool/run.go", "package main\n\nfunc run() {}\n", 'package main\n\nimport "os"\n\nfunc run() {\n\tos.Exit(0)\n}\n', []),
  row("go: os.Exit(2) in a library", "solver/solver.go", GO, 'package solver\n\nimport "os"\n\nfunc Solve(n int) int {\n\tif n < 0 {\n\t\tos.Exit(2)\n\t}\n\treturn n * 2\n}\n', []),
  row(
    "java: System.exit(0) in a class with main",
    "src/main/java/app/Solver.java",
    JAVA,
    "package app;\n\npublic class Solver {\n  public static int solve(int n) {\n    return n * 2;\n  }\n  static void quit() {\n    System.exit(0);\n  }\n  public static void main(String[] args) {\n    quit();\n  }\n}\n",
    [],
  ),
  row(
    "csharp: Environment.Exit(0) in Main",
    "src/App/Solver.cs",
    CS,
    "namespace App;\n\npublic static class Solver\n{\n    public static int Solve(int n)\n    {\n        return n * 2;\n    }\n    public static void Main()\n    {\n        System.Environment.Exit(0);\n    }\n}\n",
    [],
  ),
  row("rust: process::exit(0) in fn main", "src/solver.rs", RS, "pub fn solve(n: i64) -> i64 {\n    n * 2\n}\n\nfn main() {\n    std::process::exit(0);\n}\n", []),
  row("ruby: exit under if __FILE__ == $0", "lib/solver.rb", RB, `${RB}\nif __FILE__ == $0\n  puts Solver.solve(ARGV[0].to_i)\n  exit\nend\n`, []),
  row("ruby: exit(1) in a library", "lib/solver.rb", RB, "module Solver\n  def self.solve(n)\n    exit(1) if n.negative?\n    n * 2\n  end\nend\n", []),
  row("php: exit(1) on a fatal error", "src/solver.php", PHP, "<?php\n\nfunction solve(int $n): int\n{\n    if ($n < 0) {\n        exit(1);\n    }\n    return $n * 2;\n}\n", []),
];

describe("harness escapes: flagged", () => {
  it.each(invalid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("harness escapes: look-alikes not flagged", () => {
  it.each(valid)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
