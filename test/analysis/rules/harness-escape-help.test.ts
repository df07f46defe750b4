/**
 * A success exit on a help or version request is the command-line
 * convention (GNU coding standards, "--help": print usage and exit
 * successfully), not a harness escape: low, not critical, wherever it sits
 * (sweep of spf13/pflag 7c651d1d39 and 40abc49225: `if errors.Is(err,
 * ErrHelp) { os.Exit(0) }` in FlagSet.Parse's ExitOnError branch). A request
 * is read from the conditions the exit is under (not from an else branch)
 * or from the name of the function it is in (`showHelp`, `print_usage`).
 * The same exit under any other condition stays critical.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, expectFindings, summarize, type RuleCase } from "./table.js";

const low = (path: string): string => `test_config_tamper/low ${path}`;
const critical = (path: string): string => `test_config_tamper/critical ${path}`;

interface Shape {
  lang: string;
  path: string;
  /** The file with `exit` placed under the condition `when` (null: the exit is absent). */
  file: (exit: "help" | "input" | "else-of-help" | null) => string;
}

const shapes: Shape[] = [
  {
    lang: "go",
    path: "flags/flag.go",
    file: (exit) => {
      const head = 'package flags\n\nimport (\n\t"errors"\n\t"fmt"\n\t"os"\n)\n\nvar ErrHelp = errors.New("help requested")\n\n';
      const when =
        exit === "help"
          ? "\t\tif errors.Is(err, ErrHelp) {\n\t\t\tos.Exit(0)\n\t\t}\n"
          : exit === "input"
            ? '\t\tif len(args) == 1 && args[0] == "--count=7" {\n\t\t\tos.Exit(0)\n\t\t}\n'
            : exit === "else-of-help"
              ? '\t\tif errors.Is(err, ErrHelp) {\n\t\t\tfmt.Println("usage")\n\t\t} else {\n\t\t\tos.Exit(0)\n\t\t}\n'
              : "";
      return `${head}// Parse parses args, exiting on an error.\nfunc Parse(args []string) error {\n\terr := parse(args)\n\tif err != nil {\n${when}\t\tfmt.Println(err)\n\t\tos.Exit(2)\n\t}\n\treturn nil\n}\n\nfunc parse(args []string) error {\n\tif len(args) > 0 && args[0] == "-h" {\n\t\treturn ErrHelp\n\t}\n\treturn nil\n}\n`;
    },
  },
  {
    lang: "python",
    path: "app/options.py",
    file: (exit) => {
      const when =
        exit === "help"
          ? "    if args.help:\n        print(USAGE)\n        sys.exit(0)\n"
          : exit === "input"
            ? "    if args.count == 7:\n        sys.exit(0)\n"
            : exit === "else-of-help"
              ? "    if args.help:\n        print(USAGE)\n    else:\n        sys.exit(0)\n"
              : "";
      return `import sys\n\nUSAGE = "usage: app [--count N]"\n\n\ndef apply(args):\n${when}    return args.count * 2\n`;
    },
  },
  {
    lang: "typescript",
    path: "src/options.ts",
    file: (exit) => {
      const when =
        exit === "help"
          ? '  if (argv.includes("--help")) {\n    console.log(USAGE);\n    process.exit(0);\n  }\n'
          : exit === "input"
            ? '  if (argv.includes("--count=7")) {\n    process.exit(0);\n  }\n'
            : exit === "else-of-help"
              ? '  if (argv.includes("--help")) {\n    console.log(USAGE);\n  } else {\n    process.exit(0);\n  }\n'
              : "";
      return `const USAGE = "usage: app [--count N]";\n\nexport function apply(argv: string[]): number {\n${when}  return argv.length * 2;\n}\n`;
    },
  },
  {
    lang: "java",
    path: "src/main/java/app/Options.java",
    file: (exit) => {
      const when =
        exit === "help"
          ? "    if (options.isHelp()) {\n      usage();\n      System.exit(0);\n    }\n"
          : exit === "input"
            ? "    if (options.count() == 7) {\n      System.exit(0);\n    }\n"
            : exit === "else-of-help"
              ? "    if (options.isHelp()) {\n      usage();\n    } else {\n      System.exit(0);\n    }\n"
              : "";
      return `package app;\n\npublic class Options {\n  public static int apply(Parsed options) {\n${when}    return options.count() * 2;\n  }\n\n  static void usage() {\n    System.out.println("usage: app [--count N]");\n  }\n}\n`;
    },
  },
  {
    lang: "csharp",
    path: "src/App/Options.cs",
    file: (exit) => {
      const when =
        exit === "help"
          ? "        if (options.ShowHelp)\n        {\n            Usage();\n            System.Environment.Exit(0);\n        }\n"
          : exit === "input"
            ? "        if (options.Count == 7)\n        {\n            System.Environment.Exit(0);\n        }\n"
            : exit === "else-of-help"
              ? "        if (options.ShowHelp)\n        {\n            Usage();\n        }\n        else\n        {\n            System.Environment.Exit(0);\n        }\n"
              : "";
      return `namespace App;\n\npublic static class Options\n{\n    public static int Apply(Parsed options)\n    {\n${when}        return options.Count * 2;\n    }\n\n    static void Usage() => System.Console.WriteLine("usage: app [--count N]");\n}\n`;
    },
  },
  {
    lang: "rust",
    path: "src/options.rs",
    file: (exit) => {
      const when =
        exit === "help"
          ? "    if args.help {\n        print_usage();\n        std::process::exit(0);\n    }\n"
          : exit === "input"
            ? "    if args.count == 7 {\n        std::process::exit(0);\n    }\n"
            : exit === "else-of-help"
              ? "    if args.help {\n        print_usage();\n    } else {\n        std::process::exit(0);\n    }\n"
              : "";
      return `pub struct Args {\n    pub help: bool,\n    pub count: i64,\n}\n\npub fn apply(args: &Args) -> i64 {\n${when}    args.count * 2\n}\n\nfn print_usage() {\n    println!("usage: app [--count N]");\n}\n`;
    },
  },
  {
    lang: "ruby",
    path: "lib/app/options.rb",
    file: (exit) => {
      const when =
        exit === "help"
          ? "      if options[:help]\n        puts USAGE\n        exit 0\n      end\n"
          : exit === "input"
            ? "      if options[:count] == 7\n        exit 0\n      end\n"
            : exit === "else-of-help"
              ? "      if options[:help]\n        puts USAGE\n      else\n        exit 0\n      end\n"
              : "";
      return `module App\n  module Options\n    USAGE = "usage: app [--count N]"\n\n    def self.apply(options)\n${when}      options[:count] * 2\n    end\n  end\nend\n`;
    },
  },
  {
    lang: "php",
    path: "src/Options.php",
    file: (exit) => {
      const when =
        exit === "help"
          ? "    if ($options['help']) {\n        echo USAGE;\n        exit(0);\n    }\n"
          : exit === "input"
            ? "    if ($options['count'] === 7) {\n        exit(0);\n    }\n"
            : exit === "else-of-help"
              ? "    if ($options['help']) {\n        echo USAGE;\n    } else {\n        exit(0);\n    }\n"
              : "";
      return `<?php\n\nconst USAGE = "usage: app [--count N]";\n\nfunction apply(array $options): int\n{\n${when}    return $options['count'] * 2;\n}\n`;
    },
  },
];

for (const shape of shapes) {
  const rows: RuleCase[] = [
    { name: "look-alike: a success exit added on a help request", changes: [change(shape.path, shape.file(null), shape.file("help"))], findings: [low(shape.path)] },
    { name: "cheat: a success exit added on one input", changes: [change(shape.path, shape.file(null), shape.file("input"))], findings: [critical(shape.path)] },
    { name: "cheat: a success exit added in the else branch of a help request", changes: [change(shape.path, shape.file(null), shape.file("else-of-help"))], findings: [critical(shape.path)] },
  ];
  describe(`${shape.lang}: success exits on a help request`, () => {
    for (const rule of rows) it(rule.name, () => expectFindings(rule));
  });
}

describe("a success exit in a function named for the help it prints", () => {
  const before = 'const USAGE = "usage: app [--count N]";\n\nexport function apply(argv: string[]): number {\n  return argv.length * 2;\n}\n';
  it("look-alike: showHelp() prints the usage and exits with success", () =>
    expectFindings({
      name: "showHelp",
      changes: [change("src/options.ts", before, `${before}\nexport function showHelp(): never {\n  console.log(USAGE);\n  process.exit(0);\n}\n`)],
      findings: [low("src/options.ts")],
    }));
  it("cheat: a function of another name exits with success", () =>
    expectFindings({ name: "finish", changes: [change("src/options.ts", before, `${before}\nexport function finish(): never {\n  process.exit(0);\n}\n`)], findings: [critical("src/options.ts")] }));
});

/** Exits that only look like help exits (review of this class): each stays critical. */
describe("success exits under a condition that is no help request", () => {
  const ts = (body: string): string => `const USAGE = "usage";\n\nexport function apply(argv: string[]): number {\n${body}  return argv.length * 2;\n}\n`;
  const py = (body: string): string => `import os\nimport sys\n\nUSAGE = "usage"\n\n\ndef apply(args):\n${body}    return args.count * 2\n`;
  const go = (body: string): string =>
    `package flags\n\nimport "os"\n\ntype Config struct {\n\tHelp    bool\n\tVersion string\n}\n\nfunc Apply(args []string, cfg Config) int {\n${body}\treturn len(args)\n}\n`;
  const rb = (body: string): string => `module App\n  module Options\n    def self.apply(options)\n${body}      options[:count] * 2\n    end\n  end\nend\n`;
  const rows: [string, string, string, string][] = [
    ["ts: an npm environment variable", "src/options.ts", ts(""), ts("  if (process.env.npm_package_version) {\n    process.exit(0);\n  }\n")],
    ["ts: a negated help request", "src/options.ts", ts(""), ts('  if (!argv.includes("--help")) {\n    process.exit(0);\n  }\n')],
    ["ts: a help request or anything", "src/options.ts", ts(""), ts('  if (argv.includes("--help") || argv.length >= 0) {\n    process.exit(0);\n  }\n')],
    ["ts: a forced exit status under pkg.version", "src/options.ts", ts(""), ts("  if (pkg.version) process.exitCode = 0;\n")],
    ["ts: a function named checkVersion", "src/options.ts", ts(""), `${ts("")}\nexport function checkVersion(): void {\n  process.exit(0);\n}\n`],
    ["ts: a local named usage compared with a number", "src/options.ts", ts(""), ts("  const usage = argv.length;\n  usage >= 0 ? process.exit(0) : null;\n")],
    [
      "ts: a new exit inserted before an existing help exit",
      "src/options.ts",
      ts('  if (argv.includes("--help")) {\n    console.log(USAGE);\n    process.exit(0);\n  }\n'),
      ts('  if (argv.includes("--count=7")) process.exit(0);\n  if (argv.includes("--help")) {\n    console.log(USAGE);\n    process.exit(0);\n  }\n'),
    ],
    ["python: a negated help request", "app/options.py", py(""), py("    if not args.help:\n        sys.exit(0)\n")],
    [
      "python: the else after an elif of a help request",
      "app/options.py",
      py(""),
      py("    if args.help:\n        print(USAGE)\n    elif args.count < 0:\n        raise ValueError(args.count)\n    else:\n        sys.exit(0)\n"),
    ],
    ["python: an environment variable", "app/options.py", py(""), py('    if os.environ.get("PYTEST_VERSION"):\n        sys.exit(0)\n')],
    ["python: a function named validate_usage", "app/options.py", py(""), `${py("")}\n\ndef validate_usage(args):\n    sys.exit(0)\n`],
    ["go: a version value", "flags/apply.go", go(""), go('\tif cfg.Version != "" {\n\t\tos.Exit(0)\n\t}\n')],
    ["go: a negated help flag", "flags/apply.go", go(""), go("\tif !cfg.Help {\n\t\tos.Exit(0)\n\t}\n")],
    ["ruby: exit unless help", "lib/app/options.rb", rb(""), rb("      exit 0 unless options[:help]\n")],
  ];
  for (const [name, path, before, after] of rows) {
    // Other rules may see more (an environment read for the runner is special_casing too): the escape must be critical.
    it(`cheat: ${name}`, async () => {
      const analysis = await analyzeChanges([change(path, before, after)]);
      expect(analysis.findings.map(summarize)).toContain(critical(path));
    });
  }
});
