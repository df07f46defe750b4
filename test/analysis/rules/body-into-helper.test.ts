/**
 * A test's body moved into a helper that calls the class's (file's) other
 * check helpers with the arguments the test passed them (sweep of
 * apache/commons-io 20a7946782: testMonitor's body -> runMonitorTest, whose
 * checkEmpty("A") still fails with "A: ..."): the inherited checks have the
 * inner helper's parameters bound to the call's arguments, so every check
 * is still made. The nearest cheats: the helper no longer calls one check
 * helper, or calls it with another argument.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";

interface Shape {
  id: string;
  path: string;
  /** The file with `{{body}}`: where the test's body (or its call of the runner) goes, `{{runner}}`: where the runner goes. */
  file: string;
  check: (label: string) => string;
  body: string;
  runner: (inner: string) => string;
  call: string;
}

const SHAPES: Shape[] = [
  {
    id: "java",
    path: "src/test/java/app/ThingTest.java",
    file: 'package app;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\nimport org.junit.jupiter.api.Test;\n\nclass ThingTest {\n    private void checkSize(final Thing thing, final int size) {\n        assertEquals(size, thing.size(), "size");\n    }\n{{runner}}\n    @Test\n    void testThing() {\n        final Thing thing = new Thing();\n{{body}}    }\n}\n',
    check: (size) => `        checkSize(thing, ${size});\n`,
    body: "",
    runner: (inner) => `\n    private void runThing(final Thing thing) {\n        thing.grow();\n${inner}    }\n`,
    call: "        runThing(thing);\n",
  },
  {
    id: "python",
    path: "tests/test_thing.py",
    file: 'from app import Thing\n\n\ndef check_size(thing, size):\n    if thing.size() != size:\n        raise AssertionError("size")\n    assert thing.size() == size\n{{runner}}\n\ndef test_thing():\n    thing = Thing()\n{{body}}',
    check: (size) => `    check_size(thing, ${size})\n`,
    body: "",
    runner: (inner) => `\n\ndef run_thing(thing):\n    thing.grow()\n${inner}`,
    call: "    run_thing(thing)\n",
  },
  {
    id: "go",
    path: "app/thing_test.go",
    file: 'package app\n\nimport "testing"\n\nfunc checkSize(t *testing.T, thing *Thing, size int) {\n\tif thing.Size() != size {\n\t\tt.Errorf("size %d", thing.Size())\n\t}\n}\n{{runner}}\nfunc TestThing(t *testing.T) {\n\tthing := NewThing()\n{{body}}}\n',
    check: (size) => `\tcheckSize(t, thing, ${size})\n`,
    body: "",
    runner: (inner) => `\nfunc runThing(t *testing.T, thing *Thing) {\n\tthing.Grow()\n${inner}}\n`,
    call: "\trunThing(t, thing)\n",
  },
];

const grow: Record<string, string> = { java: "        thing.grow();\n", python: "    thing.grow()\n", go: "\tthing.Grow()\n" };

async function highs(shape: Shape, inner: string): Promise<string[]> {
  const before = shape.file.replace("{{runner}}", "").replace("{{body}}", `${grow[shape.id]}${shape.check("3")}${shape.check("4")}`);
  const after = shape.file.replace("{{runner}}", shape.runner(inner)).replace("{{body}}", shape.call);
  const analysis = await analyzeChanges([{ path: shape.path, before, after }]);
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => finding.type);
}

describe("a test body moved into a helper that calls the check helpers", () => {
  for (const shape of SHAPES) {
    it(`${shape.id}: keeps every check`, async () => {
      expect(await highs(shape, `${shape.check("3")}${shape.check("4")}`)).toEqual([]);
    });
    it(`${shape.id}: a check helper call dropped on the way is an assertion_removal`, async () => {
      expect(await highs(shape, shape.check("3"))).toContain("assertion_removal");
    });
  }
});
