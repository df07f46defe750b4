/**
 * Tests a class collects from other files (src/analysis/inheritance.ts,
 * languages/python-classes.ts): resolution over several files' facts, and
 * the diff of a change whose tests are inherited across files, with the
 * unchanged files handed over as the store would (`unchanged`).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts, resolveTestsAcross, type FileChange, type FileFacts, type UnchangedFiles } from "../../src/analysis/index.js";
import type { TestCase } from "../../src/analysis/facts.js";

/** Every file's resolved tests, as `file: id` rows (with `<- declaring file:line` for inherited and imported ones). */
async function resolvedRows(files: Record<string, string>): Promise<string[]> {
  const facts = new Map<string, FileFacts>();
  for (const [path, source] of Object.entries(files)) facts.set(path, await extractFacts(path, source));
  const resolved = resolveTestsAcross(facts);
  return [...facts].flatMap(([path, fileFacts]) =>
    (resolved.get(path) ?? fileFacts.tests).map(
      (test) => `${path}: ${test.id}${test.declaredAt ? ` <- ${test.declaredAt.file}:${test.declaredAt.line}` : ""}${test.declaredAt?.isRepeat ? " (repeat)" : ""}`,
    ),
  );
}

async function resolvedTest(files: Record<string, string>, path: string, id: string): Promise<TestCase | undefined> {
  const facts = new Map<string, FileFacts>();
  for (const [file, source] of Object.entries(files)) facts.set(file, await extractFacts(file, source));
  return resolveTestsAcross(facts)
    .get(path)
    ?.find((test) => test.id === id);
}

const SIGNER = [
  "import pytest",
  "",
  "class TestSigner:",
  "    def test_sign(self, signer):",
  "        assert signer.sign(b'x') == b'x.sig'",
  "",
  "    def test_unsign(self, signer):",
  "        assert signer.unsign(b'x.sig') == b'x'",
  "",
].join("\n");

const TIMED = [
  "from tests.test_signer import TestSigner",
  "",
  "class TestTimestampSigner(TestSigner):",
  "    def test_max_age(self, signer):",
  "        assert signer.unsign(b'x.sig', max_age=10) == b'x'",
  "",
].join("\n");

describe("resolving test classes across files", () => {
  it("a subclass collects its base's test methods from another file; the imported base is collected there again", async () => {
    expect(await resolvedRows({ "tests/test_signer.py": SIGNER, "tests/test_timed.py": TIMED })).toEqual([
      "tests/test_signer.py: TestSigner > test_sign",
      "tests/test_signer.py: TestSigner > test_unsign",
      "tests/test_timed.py: TestSigner > test_sign <- tests/test_signer.py:4 (repeat)",
      "tests/test_timed.py: TestSigner > test_unsign <- tests/test_signer.py:7 (repeat)",
      "tests/test_timed.py: TestTimestampSigner > test_sign <- tests/test_signer.py:4",
      "tests/test_timed.py: TestTimestampSigner > test_unsign <- tests/test_signer.py:7",
      "tests/test_timed.py: TestTimestampSigner > test_max_age",
    ]);
  });

  it("a base's own tests stay its own whichever file is resolved first", async () => {
    const rows = await resolvedRows({ "tests/test_timed.py": TIMED, "tests/test_signer.py": SIGNER });
    expect(rows.filter((row) => row.startsWith("tests/test_signer.py"))).toEqual(["tests/test_signer.py: TestSigner > test_sign", "tests/test_signer.py: TestSigner > test_unsign"]);
  });

  it.each([
    ["a relative import", "from .base import Shared\nclass TestA(Shared):\n    pass\n", { "tests/base.py": "class Shared:\n    def test_s(self):\n        pass\n" }],
    ["a module attribute (import x as m; m.Base)", "import tests.base as base\nclass TestA(base.Shared):\n    pass\n", { "tests/base.py": "class Shared:\n    def test_s(self):\n        pass\n" }],
    ["a dotted module path (import a.b; a.b.Base)", "import tests.base\nclass TestA(tests.base.Shared):\n    pass\n", { "tests/base.py": "class Shared:\n    def test_s(self):\n        pass\n" }],
    ["a star import", "from tests.base import *\nclass TestA(Shared):\n    pass\n", { "tests/base.py": "class Shared:\n    def test_s(self):\n        pass\n" }],
    [
      "a re-export through a package __init__",
      "from tests.support import Shared\nclass TestA(Shared):\n    pass\n",
      { "tests/support/__init__.py": "from .mixins import Shared\n", "tests/support/mixins.py": "class Shared:\n    def test_s(self):\n        pass\n" },
    ],
    [
      "a base of a base in a third file",
      "from tests.middle import Middle\nclass TestA(Middle):\n    pass\n",
      { "tests/middle.py": "from tests.base import Shared\nclass Middle(Shared):\n    pass\n", "tests/base.py": "class Shared:\n    def test_s(self):\n        pass\n" },
    ],
  ])("through %s", async (_title, source, others) => {
    const rows = await resolvedRows({ "tests/test_a.py": source, ...others });
    expect(rows.filter((row) => row.startsWith("tests/test_a.py"))).toEqual([expect.stringMatching(/^tests\/test_a\.py: TestA > test_s <- tests\/(support\/mixins|base)\.py:2$/)]);
  });

  it("a unittest.TestCase subclass in another file makes a subclass collected whatever its name", async () => {
    const rows = await resolvedRows({
      "tests/base.py": "import unittest\nclass BaseChecks(unittest.TestCase):\n    def test_base(self):\n        pass\n",
      "tests/test_a.py": "from tests.base import BaseChecks\nclass CartChecks(BaseChecks):\n    def test_cart(self):\n        pass\n",
    });
    expect(rows).toEqual(["tests/test_a.py: CartChecks > test_base <- tests/base.py:3", "tests/test_a.py: CartChecks > test_cart"]);
  });

  it("a plain base class in another file does not make a non-Test* subclass a test class", async () => {
    const rows = await resolvedRows({
      "tests/base.py": "class BaseTest:\n    def test_base(self):\n        pass\n",
      "tests/test_a.py": "from tests.base import BaseTest\nclass CartCheck(BaseTest):\n    def test_cart(self):\n        pass\n",
    });
    expect(rows).toEqual([]);
  });

  it("__init__ or __test__ = False on a base in another file stops collection", async () => {
    const rows = await resolvedRows({
      "tests/base.py": "class WithInit:\n    def __init__(self):\n        pass\nclass Off:\n    __test__ = False\n",
      "tests/test_a.py":
        "from tests.base import WithInit, Off\nclass TestA(WithInit):\n    def test_a(self):\n        pass\nclass TestB(Off):\n    def test_b(self):\n        pass\nclass TestC:\n    def test_c(self):\n        pass\n",
    });
    expect(rows).toEqual(["tests/test_a.py: TestC > test_c"]);
  });

  it.each([
    ["a skip on the base method", "@pytest.mark.skip(reason='slow')\n    def test_s(self):", { skipped: true }, "@pytest.mark.skip"],
    ["a skip on the base class (marks follow the MRO)", "def test_s(self):", { skipped: true }, "@pytest.mark.skip on class Shared", "@pytest.mark.skip(reason='slow')\nclass Shared:"],
  ])("flags: %s apply to the inherited test", async (_title, method, flags, via, classLine = "class Shared:") => {
    const base = `import pytest\n${classLine}\n    ${method}\n        pass\n`;
    const test = await resolvedTest({ "tests/base.py": base, "tests/test_a.py": "from tests.base import Shared\nclass TestA(Shared):\n    pass\n" }, "tests/test_a.py", "TestA > test_s");
    expect(test?.flags).toMatchObject(flags);
    expect(test?.flagVia?.skipped).toBe(via);
  });

  it("flags: a skip on the subclass applies to the tests it inherits, not to the base's own", async () => {
    const files = {
      "tests/test_base.py": "class TestShared:\n    def test_s(self):\n        pass\n",
      "tests/test_a.py": "import pytest\nfrom tests.test_base import TestShared as Shared\n@pytest.mark.xfail(reason='port pending')\nclass TestA(Shared):\n    pass\n",
    };
    const inherited = await resolvedTest(files, "tests/test_a.py", "TestA > test_s");
    expect(inherited?.flags).toMatchObject({ failing: true });
    expect(inherited?.flagVia).toEqual({ failing: "@pytest.mark.xfail on class TestA" });
    expect((await resolvedTest(files, "tests/test_base.py", "TestShared > test_s"))?.flags.failing).toBe(false);
    // imported under a name pytest does not collect (`as Shared`): no repeat in test_a.py
    expect((await resolvedRows(files)).filter((row) => row.includes("TestShared"))).toEqual(["tests/test_base.py: TestShared > test_s"]);
  });

  it("flags: the collecting module's pytestmark applies, the declaring module's does not", async () => {
    const files = {
      "tests/test_base.py": "import pytest\npytestmark = pytest.mark.skip(reason='base only')\nclass TestShared:\n    def test_s(self):\n        pass\n",
      "tests/test_a.py": "import pytest\nfrom tests.test_base import TestShared\npytestmark = pytest.mark.xfail(reason='a only')\nclass TestA(TestShared):\n    pass\n",
    };
    const inherited = await resolvedTest(files, "tests/test_a.py", "TestA > test_s");
    expect(inherited?.flags).toMatchObject({ skipped: false, failing: true });
    expect(inherited?.skipReason).toBe("a only");
    expect((await resolvedTest(files, "tests/test_base.py", "TestShared > test_s"))?.flags).toMatchObject({ skipped: true, failing: false });
  });

  it("a lookup that needs a file not given reports it as missing", async () => {
    const facts = new Map([["tests/test_a.py", await extractFacts("tests/test_a.py", TIMED.replace("tests.test_signer", "tests.test_signer"))]]);
    const missing = new Set<string>();
    resolveTestsAcross(facts, ["tests/test_a.py", "tests/test_signer.py", "src/app.py"], missing);
    expect([...missing]).toEqual(["tests/test_signer.py"]);
  });
});

// ---------------------------------------------------------------- diffs

/** Unchanged files as the store would hand them over, counting reads. */
function unchangedFiles(files: Record<string, string>): UnchangedFiles & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    paths: () => Object.keys(files),
    read: (path) => {
      reads.push(path);
      return files[path] ?? null;
    },
  };
}

const change = (path: string, before: string | null, after: string | null): FileChange => ({ path, before, after });
const summary = (finding: { type: string; severity: string; file: string; test?: string }): string => `${finding.type}/${finding.severity} ${finding.file} "${finding.test ?? ""}"`;

/** A mixin of shared tests that no module collects on its own; two test files inherit it. */
const MIXIN = [
  "class SignerTests:",
  "    def test_sign(self, signer):",
  "        assert signer.sign(b'x') == b'x.sig'",
  "",
  "    def test_unsign(self, signer):",
  "        assert signer.unsign(b'x.sig') == b'x'",
  "",
].join("\n");
const USES_MIXIN = (name: string) => `from tests.mixins import SignerTests\n\nclass Test${name}(SignerTests):\n    pass\n`;
const UNSIGN_DELETED = MIXIN.replace("\n    def test_unsign(self, signer):\n        assert signer.unsign(b'x.sig') == b'x'\n", "");

describe("diffs of inherited tests", () => {
  it("a base's test method deleted is one test_deletion, though the base and a subclass in an unchanged file both ran it", async () => {
    const unchanged = unchangedFiles({ "tests/test_timed.py": TIMED, "src/app.py": "def f():\n    return 1\n" });
    const afterSigner = SIGNER.replace("\n    def test_unsign(self, signer):\n        assert signer.unsign(b'x.sig') == b'x'\n", "");
    const analysis = await analyzeChanges([change("tests/test_signer.py", SIGNER, afterSigner)], { unchanged });
    expect(analysis.findings.map(summary)).toEqual(['test_deletion/critical tests/test_signer.py "TestSigner > test_unsign"']);
    expect(analysis.findings[0]?.evidence?.inherited_by).toEqual([{ file: "tests/test_timed.py", test: "TestTimestampSigner > test_unsign" }]);
    // only Python test files are read (src/app.py is not a test path)
    expect(unchanged.reads).toEqual(["tests/test_timed.py"]);
  });

  it("a mixin's test method deleted is one test_deletion at the method, naming the classes it ran in", async () => {
    const unchanged = unchangedFiles({ "tests/test_a.py": USES_MIXIN("A"), "tests/test_b.py": USES_MIXIN("B") });
    const analysis = await analyzeChanges([change("tests/mixins.py", MIXIN, UNSIGN_DELETED)], { unchanged });
    expect(analysis.verdict).toBe("BLOCK");
    expect(analysis.findings.map(summary)).toEqual(['test_deletion/critical tests/mixins.py "TestA > test_unsign"']);
    expect(analysis.findings[0]).toMatchObject({ line: 5, evidence: { tests: ["TestA > test_unsign", "TestB > test_unsign"], files: ["tests/test_a.py", "tests/test_b.py"] } });
  });

  it("without the unchanged files a mixin's deleted method goes unseen (what the context is for)", async () => {
    const analysis = await analyzeChanges([change("tests/mixins.py", MIXIN, UNSIGN_DELETED)]);
    expect(analysis.findings).toEqual([]);
  });

  it("a subclass that drops its base loses the inherited tests: one test_deletion for the class", async () => {
    const unchanged = unchangedFiles({ "tests/mixins.py": MIXIN, "tests/test_b.py": USES_MIXIN("B") });
    const analysis = await analyzeChanges([change("tests/test_a.py", USES_MIXIN("A"), "class TestA:\n    pass\n")], { unchanged });
    expect(analysis.findings.map(summary)).toEqual(['test_deletion/critical tests/test_a.py "TestA > test_sign"']);
    expect(analysis.findings[0]?.evidence).toMatchObject({ class: "TestA", test_count: 2, inherited_from: ["SignerTests (tests/mixins.py)"] });
  });

  it("a base moved to another file with the same tests is not a deletion", async () => {
    const unchanged = unchangedFiles({ "tests/test_b.py": USES_MIXIN("B").replace("tests.mixins", "tests.shared") });
    const analysis = await analyzeChanges(
      [change("tests/mixins.py", MIXIN, null), change("tests/shared.py", null, MIXIN), change("tests/test_a.py", USES_MIXIN("A"), USES_MIXIN("A").replace("tests.mixins", "tests.shared"))],
      { unchanged },
    );
    expect(analysis.findings).toEqual([]);
  });

  it("a base's tests moved into a mixin the base now inherits are not deletions", async () => {
    const unchanged = unchangedFiles({ "tests/test_timed.py": TIMED });
    const signerAfter = "from tests.mixins import SignerTests\n\nclass TestSigner(SignerTests):\n    pass\n";
    const analysis = await analyzeChanges([change("tests/test_signer.py", SIGNER, signerAfter), change("tests/mixins.py", null, MIXIN)], { unchanged });
    expect(analysis.findings).toEqual([]);
  });

  it("a skip added to a base method is one test_disabled, not one per subclass", async () => {
    const unchanged = unchangedFiles({ "tests/test_a.py": USES_MIXIN("A"), "tests/test_b.py": USES_MIXIN("B") });
    const skipped = `import pytest\n\n${MIXIN.replace("    def test_unsign", "    @pytest.mark.skip(reason='flaky')\n    def test_unsign")}`;
    const analysis = await analyzeChanges([change("tests/mixins.py", MIXIN, skipped)], { unchanged });
    expect(analysis.findings.map((finding) => finding.type)).toEqual(["test_disabled"]);
  });

  it("an assertion weakened in a base method is one finding, not one per subclass", async () => {
    const unchanged = unchangedFiles({ "tests/test_timed.py": TIMED });
    const weaker = SIGNER.replace("assert signer.sign(b'x') == b'x.sig'", "assert signer.sign(b'x')");
    const analysis = await analyzeChanges([change("tests/test_signer.py", SIGNER, weaker)], { unchanged });
    expect(analysis.findings.map(summary)).toEqual(['assertion_weakening/high tests/test_signer.py "TestSigner > test_sign"']);
  });

  it("an assertion weakened in a mixin method only subclasses run is judged once, through them", async () => {
    const unchanged = unchangedFiles({ "tests/test_a.py": USES_MIXIN("A"), "tests/test_b.py": USES_MIXIN("B") });
    const weaker = MIXIN.replace("assert signer.sign(b'x') == b'x.sig'", "assert signer.sign(b'x')");
    const analysis = await analyzeChanges([change("tests/mixins.py", MIXIN, weaker)], { unchanged });
    expect(analysis.findings.map(summary)).toEqual(['assertion_weakening/high tests/test_a.py "TestA > test_sign"']);
  });

  it("a body edit in a base its own module collects is judged there without reading its importers", async () => {
    const unchanged = unchangedFiles({ "tests/test_timed.py": TIMED });
    const edited = SIGNER.replace("assert signer.sign(b'x') == b'x.sig'", "assert signer.sign(b'y') == b'y.sig'");
    await analyzeChanges([change("tests/test_signer.py", SIGNER, edited)], { unchanged });
    expect(unchanged.reads).toEqual([]);
  });

  it("an unused import of a Test class removed loses only repeats of tests its own module runs: nothing", async () => {
    const unchanged = unchangedFiles({ "tests/test_signer.py": SIGNER });
    const before = `from tests.test_signer import TestSigner\n\ndef test_other():\n    assert 1 == 1\n`;
    const analysis = await analyzeChanges([change("tests/test_other.py", before, "def test_other():\n    assert 1 == 1\n")], { unchanged });
    expect(analysis.findings).toEqual([]);
  });

  it("reads no unchanged file when no changed Python file has classes", async () => {
    const unchanged = unchangedFiles({ "tests/test_timed.py": TIMED });
    await analyzeChanges([change("tests/test_f.py", "def test_f():\n    assert 1 == 1\n", "def test_f():\n    assert 2 == 2\n")], { unchanged });
    expect(unchanged.reads).toEqual([]);
  });
});
