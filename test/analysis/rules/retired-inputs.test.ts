/**
 * Tests deleted together with the feature they tested where the checks name
 * only surviving code (rules/dependencies.ts findRemovedOverloads,
 * findRetiredLiterals): the test passes an input the change retired (a
 * constructor or method arity no longer accepted, a CLI flag or config key
 * no longer handled, a value a new guard now refuses), through its own
 * locals, its class's set-up or the file's top level. Such a deletion is a
 * feature_removal at medium. A check on surviving code with surviving
 * inputs stays a critical test_deletion: the option survives, the overload
 * the test calls survives, the guard that mentions the value lets it
 * through (a negated test), or the removed overload is only called by a
 * statement the check does not read. A check of a place the code no longer
 * writes (`os.environ["TESTOPTS"]`) removed from a surviving test, or
 * deleted with its test, went with that side effect (feature_removal,
 * medium); removed while the code still writes the place, it is lost.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const lookAlikes: RuleCase[] = [
  {
    name: "c#: the check reads a surviving property of an object its class built with the removed one-argument constructor",
    changes: [
      change(
        "src/Pacer.cs",
        "public sealed class Pacer\n{\n    private readonly int _step;\n    public Pacer(int step) => _step = step;\n    public int Next => _step * 2;\n}\n",
        "public sealed class Pacer\n{\n    private readonly int _step, _cap;\n    public Pacer(int step, int cap) { _step = step; _cap = cap; }\n    public int Next => System.Math.Min(_step * 2, _cap);\n}\n",
      ),
      change(
        "tests/PacerTests.cs",
        "public class PacerTests\n{\n    Pacer Pacer { get; } = new(3);\n\n    [Fact]\n    public void Doubles() { Assert.Equal(6, Pacer.Next); }\n}\n",
        "public class PacerTests\n{\n}\n",
      ),
    ],
    findings: [`feature_removal/medium tests/PacerTests.cs "PacerTests > Doubles"`],
  },
  {
    name: "ruby: the check reads an object setup built with the removed one-argument constructor",
    changes: [
      change(
        "lib/pacer.rb",
        "class Pacer\n  def initialize(step)\n    @step = step\n  end\n\n  def next_step\n    @step * 2\n  end\nend\n",
        "class Pacer\n  def initialize(step, cap)\n    @step = step\n    @cap = cap\n  end\n\n  def next_step\n    [@step * 2, @cap].min\n  end\nend\n",
      ),
      change(
        "test/test_pacer.rb",
        "class TestPacer < Minitest::Test\n  def setup\n    @pacer = Pacer.new(3)\n  end\n\n  def test_doubles\n    assert_equal 6, @pacer.next_step\n  end\nend\n",
        "class TestPacer < Minitest::Test\nend\n",
      ),
    ],
    findings: [`feature_removal/medium test/test_pacer.rb "TestPacer > test_doubles"`],
  },
  {
    name: "go: the check reads the result of a function that lost a parameter",
    changes: [
      change(
        "pace.go",
        "package pace\n\nfunc Next(step, cap int) int {\n\tif step*2 > cap {\n\t\treturn cap\n\t}\n\treturn step * 2\n}\n",
        "package pace\n\nfunc Next(step int) int {\n\treturn step * 2\n}\n",
      ),
      change(
        "pace_test.go",
        'package pace\n\nimport "testing"\n\nfunc TestNext(t *testing.T) {\n\tif Next(3) != 6 {\n\t\tt.Error("next")\n\t}\n}\n\nfunc TestCapped(t *testing.T) {\n\tgot := Next(3, 4)\n\tif got != 4 {\n\t\tt.Errorf("capped: %d", got)\n\t}\n}\n',
        'package pace\n\nimport "testing"\n\nfunc TestNext(t *testing.T) {\n\tif Next(3) != 6 {\n\t\tt.Error("next")\n\t}\n}\n',
      ),
    ],
    findings: [`feature_removal/medium pace_test.go "TestCapped"`],
  },
  {
    name: "python: a CLI flag the parser no longer defines",
    changes: [
      change(
        "tool/cli.py",
        'import argparse\n\n\ndef main(argv):\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--upper", action="store_true")\n    parser.add_argument("--legacy-format", action="store_true")\n    parser.add_argument("word")\n    args = parser.parse_args(argv)\n    word = args.word.upper() if args.upper else args.word\n    return f"[{word}]" if args.legacy_format else word\n',
        'import argparse\n\n\ndef main(argv):\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--upper", action="store_true")\n    parser.add_argument("word")\n    args = parser.parse_args(argv)\n    return args.word.upper() if args.upper else args.word\n',
      ),
      change(
        "tests/test_cli.py",
        'from tool.cli import main\n\n\ndef test_upper():\n    assert main(["--upper", "a"]) == "A"\n\n\ndef test_legacy_format():\n    assert main(["--legacy-format", "a"]) == "[a]"\n',
        'from tool.cli import main\n\n\ndef test_upper():\n    assert main(["--upper", "a"]) == "A"\n',
      ),
    ],
    findings: [`feature_removal/medium tests/test_cli.py "test_legacy_format"`],
  },
  {
    name: "php: a config key the schema no longer has, passed through a data provider row's local",
    changes: [
      change(
        "src/Normalizer.php",
        "<?php\nfinal class Normalizer\n{\n    public function levels(array $config, array $levels): array\n    {\n        $min = $config['min_level'] ?? 1;\n        if ($config['rebase'] ?? false) {\n            return array_map(fn ($l) => $l - min($levels) + $min, $levels);\n        }\n        return array_map(fn ($l) => max($l, $min), $levels);\n    }\n}\n",
        "<?php\nfinal class Normalizer\n{\n    public function levels(array $config, array $levels): array\n    {\n        $min = $config['min_level'] ?? 1;\n        return array_map(fn ($l) => max($l, $min), $levels);\n    }\n}\n",
      ),
      change(
        "tests/NormalizerTest.php",
        "<?php\nfinal class NormalizerTest extends TestCase\n{\n    public function testClamps(): void\n    {\n        $this->assertSame([2, 2], (new Normalizer())->levels(['min_level' => 2], [1, 2]));\n    }\n\n    public function testRebases(): void\n    {\n        $config = ['rebase' => true];\n        $this->assertSame([1, 2], (new Normalizer())->levels($config, [3, 4]));\n    }\n}\n",
        "<?php\nfinal class NormalizerTest extends TestCase\n{\n    public function testClamps(): void\n    {\n        $this->assertSame([2, 2], (new Normalizer())->levels(['min_level' => 2], [1, 2]));\n    }\n}\n",
      ),
    ],
    findings: [`feature_removal/medium tests/NormalizerTest.php "NormalizerTest > testRebases"`],
  },
  {
    name: "js: a value a new guard refuses, passed to an ava macro",
    changes: [
      change(
        "source/mode.js",
        "export const open = mode => ({mode, shared: mode === 'shared'});\n",
        "export const open = mode => {\n\tif (mode === 'legacy') {\n\t\tthrow new Error('The legacy mode was removed');\n\t}\n\n\treturn {mode, shared: mode === 'shared'};\n};\n",
      ),
      change(
        "test/mode.js",
        "import test from 'ava';\nimport {open} from '../source/mode.js';\n\nconst testNotShared = (t, mode) => {\n\tt.false(open(mode).shared);\n};\n\ntest('private is not shared', testNotShared, 'private');\ntest('legacy is not shared', testNotShared, 'legacy');\n",
        "import test from 'ava';\nimport {open} from '../source/mode.js';\n\nconst testNotShared = (t, mode) => {\n\tt.false(open(mode).shared);\n};\n\ntest('private is not shared', testNotShared, 'private');\n",
      ),
    ],
    findings: [`feature_removal/medium test/mode.js "legacy is not shared"`],
  },
];

const PY_RUN = (body: string): string => `import os\n\n\nclass Runner:\n    def verbose(self, value):\n        self._verbose = value\n${body}        return self._verbose\n`;
const PY_RUN_TEST = (checks: string): string => `import os\n\nfrom pkg.runner import Runner\n\n\ndef test_verbose():\n    runner = Runner()\n    assert runner.verbose(True) is True\n${checks}`;

const sideEffects: RuleCase[] = [
  {
    name: "python: the check of an environment variable the code no longer sets is removed with the write",
    changes: [
      change("pkg/runner.py", PY_RUN('        if value:\n            os.environ["TESTOPTS"] = "-v"\n'), PY_RUN("")),
      change("tests/test_runner.py", PY_RUN_TEST('    assert os.environ["TESTOPTS"] == "-v"\n'), PY_RUN_TEST("")),
    ],
    findings: [`feature_removal/medium tests/test_runner.py "test_verbose"`],
  },
  {
    name: "js: a deleted test whose check reads a property the code no longer writes",
    changes: [
      change("src/runner.js", "export const verbose = value => {\n\tif (value) process.env.TESTOPTS = '-v';\n\treturn value;\n};\n", "export const verbose = value => value;\n"),
      change(
        "test/runner.test.js",
        "import {verbose} from '../src/runner.js';\n\ntest('returns the value', () => {\n\texpect(verbose(true)).toBe(true);\n});\n\ntest('sets TESTOPTS', () => {\n\tverbose(true);\n\texpect(process.env.TESTOPTS).toBe('-v');\n});\n",
        "import {verbose} from '../src/runner.js';\n\ntest('returns the value', () => {\n\texpect(verbose(true)).toBe(true);\n});\n",
      ),
    ],
    findings: [`feature_removal/medium test/runner.test.js "sets TESTOPTS"`],
  },
  {
    name: "python: the write is kept with another value and its check removed: a check lost",
    changes: [
      change("pkg/runner.py", PY_RUN('        if value:\n            os.environ["TESTOPTS"] = "-v"\n'), PY_RUN('        if value:\n            os.environ["TESTOPTS"] = "--verbose"\n')),
      change("tests/test_runner.py", PY_RUN_TEST('    assert os.environ["TESTOPTS"] == "-v"\n'), PY_RUN_TEST("")),
    ],
    findings: [`assertion_removal/high tests/test_runner.py "test_verbose"`],
  },
];

const cheats: RuleCase[] = [
  {
    name: "c#: the removed overload is only called by a statement the check does not read",
    changes: [
      change(
        "src/Pacer.cs",
        "public sealed class Pacer\n{\n    private int _step;\n    public Pacer(int step) => _step = step;\n    public void Bump() => _step++;\n    public void Bump(int by) => _step += by;\n    public int Next => _step * 2;\n}\n",
        "public sealed class Pacer\n{\n    private int _step;\n    public Pacer(int step) => _step = step;\n    public void Bump() => _step++;\n    public int Next => _step * 3;\n}\n",
      ),
      change(
        "tests/PacerTests.cs",
        "public class PacerTests\n{\n    Pacer Pacer { get; } = new(3);\n\n    [Fact]\n    public void Doubles() { Pacer.Bump(2); Assert.Equal(10, Pacer.Next); }\n}\n",
        "public class PacerTests\n{\n}\n",
      ),
    ],
    findings: [`test_deletion/critical tests/PacerTests.cs "PacerTests > Doubles"`],
  },
  {
    name: "python: the constructor gained an optional parameter: the test's one-argument call is still accepted",
    changes: [
      change(
        "pkg/pacer.py",
        "class Pacer:\n    def __init__(self, step):\n        self.step = step\n\n    def next(self):\n        return self.step * 2\n",
        "class Pacer:\n    def __init__(self, step, cap=4):\n        self.step = step\n        self.cap = cap\n\n    def next(self):\n        return min(self.step * 2, self.cap)\n",
      ),
      change("tests/test_pacer.py", "from pkg.pacer import Pacer\n\n\ndef test_doubles():\n    assert Pacer(3).next() == 6\n", null),
    ],
    findings: [`test_deletion/critical tests/test_pacer.py "test_doubles"`],
  },
  {
    name: "python: the CLI flag the deleted test passes survives (another flag was removed)",
    changes: [
      change(
        "tool/cli.py",
        'import argparse\n\n\ndef main(argv):\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--upper", action="store_true")\n    parser.add_argument("--legacy-format", action="store_true")\n    parser.add_argument("word")\n    args = parser.parse_args(argv)\n    word = args.word.upper() if args.upper else args.word\n    return f"[{word}]" if args.legacy_format else word\n',
        'import argparse\n\n\ndef main(argv):\n    parser = argparse.ArgumentParser()\n    parser.add_argument("--upper", action="store_true")\n    parser.add_argument("word")\n    args = parser.parse_args(argv)\n    return args.word.lower() if args.upper else args.word\n',
      ),
      change(
        "tests/test_cli.py",
        'from tool.cli import main\n\n\ndef test_plain():\n    assert main(["a"]) == "a"\n\n\ndef test_upper():\n    assert main(["--upper", "a"]) == "A"\n',
        'from tool.cli import main\n\n\ndef test_plain():\n    assert main(["a"]) == "a"\n',
      ),
    ],
    findings: [`test_deletion/critical tests/test_cli.py "test_upper"`],
  },
  {
    name: "js: a new guard that mentions the value under a negation lets it through: not refused",
    changes: [
      change(
        "source/mode.js",
        "export const open = mode => ({mode, shared: mode === 'shared'});\n",
        "export const open = mode => {\n\tif (!['private', 'shared', 'legacy'].includes(mode)) {\n\t\tthrow new Error(`Unknown mode ${mode}`);\n\t}\n\n\treturn {mode, shared: mode !== 'private'};\n};\n",
      ),
      change(
        "test/mode.js",
        "import test from 'ava';\nimport {open} from '../source/mode.js';\n\nconst testNotShared = (t, mode) => {\n\tt.false(open(mode).shared);\n};\n\ntest('private is not shared', testNotShared, 'private');\ntest('legacy is not shared', testNotShared, 'legacy');\n",
        "import test from 'ava';\nimport {open} from '../source/mode.js';\n\nconst testNotShared = (t, mode) => {\n\tt.false(open(mode).shared);\n};\n\ntest('private is not shared', testNotShared, 'private');\n",
      ),
    ],
    findings: [`test_deletion/critical test/mode.js "legacy is not shared"`],
  },
];

describe("tests deleted with an input the change retired: feature_removal at medium", () => {
  for (const rule of lookAlikes) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("tests deleted while their inputs survive: still critical", () => {
  for (const rule of cheats) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("checks of a side effect the change removed", () => {
  for (const rule of sideEffects) it(rule.name, async () => void (await expectFindings(rule)));
});
