/**
 * A conditional skip on a module-level flag is judged by what the flag
 * probes (parsers/module-flags.ts): `@pytest.mark.skipif(NO_CBOR2, …)`
 * where `NO_CBOR2` is set when `import cbor2` fails (python-attrs/cattrs
 * 9f3e2a36b5) skips where an optional dependency is missing, a notice
 * (test_disabled at medium) as `pytest.importorskip` is; a flag bound to
 * a platform probe likewise. A flag that is a constant, probes the CI, or
 * is bound twice stays critical.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const pyModule = (flags: string, mark: string): string =>
  `import os\nimport sys\nfrom platform import python_implementation\nfrom typing import Final\n\nimport pytest\n\nfrom lib.codec import dumps\n\n${flags}\n\n${mark}def test_dumps():\n    assert dumps(1) == b"1"\n\n\ndef test_plain():\n    assert dumps(2) == b"2"\n`;
const pyCase = (name: string, flags: string, mark: string, findings: string[]): RuleCase => ({
  name,
  changes: [change("tests/test_codec.py", pyModule(flags, ""), pyModule(flags, mark))],
  findings,
});
const medium = ['test_disabled/medium tests/test_codec.py "test_dumps"'];
const critical = ['test_disabled/critical tests/test_codec.py "test_dumps"'];
const tryImport = `try:\n    __import__("cbor2")\nexcept ImportError:\n    NO_CBOR2 = True\nelse:\n    NO_CBOR2 = False`;

const goModule = (flags: string, skip: string): string =>
  `package codec\n\nimport (\n\t"os"\n\t"runtime"\n\t"testing"\n)\n\n${flags}\n\nfunc TestDumps(t *testing.T) {\n${skip}\tif Dumps(1) != "1" {\n\t\tt.Fatal("bad")\n\t}\n}\n\nvar _ = os.Getenv\nvar _ = runtime.GOOS\n`;
const goCase = (name: string, flags: string, findings: string[]): RuleCase => ({
  name,
  changes: [change("codec/codec_test.go", goModule(flags, ""), goModule(flags, `\tif skipHere {\n\t\tt.Skip("not here")\n\t}\n`))],
  findings,
});

const rbModule = (flags: string, skip: string): string =>
  `require "minitest/autorun"\nrequire "codec"\n\n${flags}\n\nclass CodecTest < Minitest::Test\n  def test_dumps\n${skip}    assert_equal "1", Codec.dumps(1)\n  end\nend\n`;
const rbCase = (name: string, flags: string, findings: string[]): RuleCase => ({
  name,
  changes: [change("test/codec_test.rb", rbModule(flags, ""), rbModule(flags, '    skip "no fork" if NO_FORK\n'))],
  findings,
});

const cases: RuleCase[] = [
  pyCase("python: skipif(NO_CBOR2) where NO_CBOR2 is set when the import fails (cattrs 9f3e2a36b5)", tryImport, '@pytest.mark.skipif(NO_CBOR2, reason="cbor2 not available")\n', medium),
  pyCase(
    "python: skipif(not cbor_ok) where cbor_ok is set in the try that imports",
    `try:\n    import cbor2\n    cbor_ok = True\nexcept (ImportError, OSError):\n    cbor_ok = False`,
    '@pytest.mark.skipif(not cbor_ok, reason="no cbor2")\n',
    medium,
  ),
  pyCase("python: an annotated flag bound to a platform probe", `NO_ORJSON: Final = python_implementation() == "PyPy"`, '@pytest.mark.skipif(NO_ORJSON, reason="PyPy")\n', medium),
  goCase("go: if skipHere { t.Skip() } where skipHere is a package-level platform probe", `var skipHere = runtime.GOOS == "windows"`, ['test_disabled/medium codec/codec_test.go "TestDumps"']),
  rbCase("ruby: skip if NO_FORK where NO_FORK is a top-level platform probe", 'NO_FORK = RUBY_PLATFORM.include?("java")', ['test_disabled/medium test/codec_test.rb "CodecTest > test_dumps"']),
  rbCase("cheat: ruby: a top-level constant flag", "NO_FORK = true", ['test_disabled/critical test/codec_test.rb "CodecTest > test_dumps"']),
  pyCase("cheat: python: a flag that is a constant", "SKIP_ALL = True", '@pytest.mark.skipif(SKIP_ALL, reason="flaky")\n', critical),
  pyCase("cheat: python: a flag that probes the CI", 'ON_BUILD = os.environ.get("GITHUB_ACTIONS") == "true"', '@pytest.mark.skipif(ON_BUILD, reason="slow")\n', critical),
  pyCase("cheat: python: a flag bound twice is no flag", `NO_CBOR2 = python_implementation() == "PyPy"\nNO_CBOR2 = True`, '@pytest.mark.skipif(NO_CBOR2, reason="cbor2 not available")\n', critical),
  pyCase(
    "cheat: python: a try that imports nothing sets no probe",
    `try:\n    NO_CBOR2 = os.cpu_count() > 64\nexcept ImportError:\n    NO_CBOR2 = True`,
    '@pytest.mark.skipif(NO_CBOR2, reason="cbor2 not available")\n',
    critical,
  ),
  goCase("cheat: go: a package-level flag that is a constant", "var skipHere = true", ['test_disabled/critical codec/codec_test.go "TestDumps"']),
];

describe("a conditional skip on a module-level flag", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});
