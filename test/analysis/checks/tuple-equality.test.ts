/**
 * Issue 9, checks conserved in another shape: an equality of two tuples or
 * arrays compared element by element (`assert (a, b) == (1, 2)`,
 * `assert_eq!((a, b), (1, 2))`, `expect([a, b]).toEqual([1, 2])`) makes
 * one check per element, the checks of the separate assertions it bundles
 * (sweep of tox-dev/filelock, whose tests bundle their checks this way). An
 * identity (`toBe`), a negated equality and a one-element group stay one
 * check; an element dropped from the bundle is a check removed.
 */
import { describe, expect, it } from "vitest";
import { toChecks, type Check } from "../../../src/analysis/checks/index.js";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings } from "../rules/table.js";

/** The checks of the first test of a file, as extracted from source, one string each. */
async function checksIn(path: string, source: string): Promise<string[]> {
  const facts = await extractFacts(path, source);
  return (facts.tests[0]?.assertionsDetail ?? []).flatMap(toChecks).map(shape);
}

const shape = (check: Check): string => `${check.isNegated ? "not " : ""}${check.relation}(${[check.subject, check.expected].filter((part) => part !== undefined && part !== "").join(", ")})`;

const py = (body: string): string => `from locks import acquire\n\n\ndef test_release():\n    lock = acquire()\n${body}`;
const rs = (body: string): string => `use locks::acquire;\n\n#[test]\nfn release() {\n    let lock = acquire();\n${body}}\n`;
const js = (body: string): string => `import { expect, it } from "vitest";\nimport { acquire } from "../src/locks.js";\n\nit("releases", () => {\n  const lock = acquire();\n${body}});\n`;

describe("a tuple equality is one check per element", () => {
  it.each([
    ["python", "tests/test_locks.py", py('    assert (lock.depth, lock.owner, lock.held) == (1, "me", False)\n')],
    ["rust", "tests/locks.rs", rs('    assert_eq!((lock.depth, lock.owner, lock.held), (1, "me", false));\n')],
    ["javascript", "test/locks.test.js", js('  expect([lock.depth, lock.owner, lock.held]).toEqual([1, "me", false]);\n')],
  ])("%s", async (_, path, source) => {
    const checks = await checksIn(path, source);
    expect(checks).toHaveLength(3);
    expect(checks[0]).toMatch(/^equal\(.*depth, 1\)$/);
    expect(checks[1]).toMatch(/^equal\(.*owner, "me"\)$/);
    expect(checks[2]).toMatch(/^falsy\(.*held\)$/);
  });

  it.each([
    ["an identity of arrays", "test/locks.test.js", js("  expect([lock.depth, lock.held]).toBe([1, false]);\n")],
    ["a negated tuple equality", "tests/test_locks.py", py("    assert (lock.depth, lock.held) != (1, False)\n")],
    ["a parenthesised value", "tests/test_locks.py", py("    assert (lock.depth) == (1)\n")],
    ["groups of other lengths", "tests/test_locks.py", py("    assert (lock.depth, lock.held) == (1, False, 2)\n")],
  ])("%s stays one check", async (_, path, source) => {
    expect(await checksIn(path, source)).toHaveLength(1);
  });
});

describe("separate assertions bundled into a tuple (and back) keep their checks", () => {
  const SEPARATE = py('    assert lock.depth == 1\n    assert lock.owner == "me"\n    assert not lock.held\n');

  it("bundled: no finding", async () => {
    await expectFindings({ name: "bundled", changes: [change("tests/test_locks.py", SEPARATE, py('    assert (lock.depth, lock.owner, lock.held) == (1, "me", False)\n'))], findings: [] });
  });

  it("unbundled: no finding", async () => {
    await expectFindings({ name: "unbundled", changes: [change("tests/test_locks.py", py('    assert (lock.depth, lock.owner, lock.held) == (1, "me", False)\n'), SEPARATE)], findings: [] });
  });

  it("an element left out of the bundle is a check removed", async () => {
    await expectFindings({
      name: "element dropped",
      changes: [change("tests/test_locks.py", SEPARATE, py('    assert (lock.depth, lock.owner) == (1, "me")\n'))],
      findings: ['assertion_removal/high tests/test_locks.py "test_release"'],
    });
  });
});
