/**
 * Checks of a test that was skipped before the change did not run then, so
 * the change cannot stop them running (sweep of sindresorhus/p-queue
 * f43fa4c79d: a `test.skip` enabled and rewritten without one of its
 * assertions; e48716fa12: a `test.skip` deleted with the option it tested).
 * Deleting such a test, or enabling it with fewer or other checks, is low:
 * the note still says so. A test skipped only under a condition ran
 * elsewhere, and a test that ran before stays judged as ever.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

interface Shape {
  lang: string;
  path: string;
  /** The test file with two tests, the first skipped (`skip` true), unconditionally or not. */
  file: (first: { skip: "none" | "always" | "conditional"; checks: 1 | 2 } | null) => string;
  /** The test id of the first test. */
  id: string;
  /** False when the language skips only by a call at run time (Go's `t.Skip`), which may follow checks that ran: judged as a running test. */
  declares?: false;
}

const shapes: Shape[] = [
  {
    lang: "js",
    path: "test/queue.test.js",
    id: "handles a throwing task",
    file: (first) => {
      const opener = first === null ? "" : first.skip === "always" ? "test.skip(" : first.skip === "conditional" ? "test.skipIf(process.platform === 'win32')(" : "test(";
      const checks = first === null ? "" : first.checks === 2 ? "  assert.equal(queue.size, 2);\n  assert.equal(queue.pending, 1);\n" : "  assert.equal(queue.pending, 1);\n";
      const one = first === null ? "" : `${opener}'handles a throwing task', () => {\n  const queue = newQueue();\n${checks}});\n\n`;
      return `import {test} from 'vitest';\nimport assert from 'node:assert/strict';\nimport {newQueue} from '../src/queue.js';\n\n${one}test('counts tasks', () => {\n  assert.equal(newQueue().size, 0);\n});\n`;
    },
  },
  {
    lang: "python",
    path: "tests/test_queue.py",
    id: "test_handles_a_throwing_task",
    file: (first) => {
      const mark =
        first === null
          ? ""
          : first.skip === "always"
            ? '@pytest.mark.skip(reason="flaky")\n'
            : first.skip === "conditional"
              ? '@pytest.mark.skipif(sys.platform == "win32", reason="posix only")\n'
              : "";
      const checks = first === null ? "" : first.checks === 2 ? "    assert queue.size == 2\n    assert queue.pending == 1\n" : "    assert queue.pending == 1\n";
      const one = first === null ? "" : `${mark}def test_handles_a_throwing_task():\n    queue = new_queue()\n${checks}\n\n`;
      return `import sys\n\nimport pytest\n\nfrom queue_lib import new_queue\n\n\n${one}def test_counts_tasks():\n    assert new_queue().size == 0\n`;
    },
  },
  {
    lang: "java",
    path: "src/test/java/QueueTest.java",
    id: "QueueTest > handlesAThrowingTask",
    file: (first) => {
      const mark = first === null ? "" : first.skip === "always" ? "  @Disabled\n" : first.skip === "conditional" ? "  @DisabledOnOs(OS.WINDOWS)\n" : "";
      const checks = first === null ? "" : first.checks === 2 ? "    assertEquals(2, queue.size());\n    assertEquals(1, queue.pending());\n" : "    assertEquals(1, queue.pending());\n";
      const one = first === null ? "" : `  @Test\n${mark}  void handlesAThrowingTask() {\n    Queue queue = Queue.create();\n${checks}  }\n\n`;
      return `import static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Disabled;\nimport org.junit.jupiter.api.Test;\nimport org.junit.jupiter.api.condition.DisabledOnOs;\nimport org.junit.jupiter.api.condition.OS;\n\nclass QueueTest {\n${one}  @Test\n  void countsTasks() {\n    assertEquals(0, Queue.create().size());\n  }\n}\n`;
    },
  },
  {
    lang: "go",
    declares: false,
    path: "queue/queue_test.go",
    id: "TestHandlesAThrowingTask",
    file: (first) => {
      const skip = first === null ? "" : first.skip === "always" ? '\tt.Skip("flaky")\n' : first.skip === "conditional" ? '\tif runtime.GOOS == "windows" {\n\t\tt.Skip("posix only")\n\t}\n' : "";
      const checks =
        first === null
          ? ""
          : first.checks === 2
            ? '\tif q.Size() != 2 {\n\t\tt.Errorf("size = %d", q.Size())\n\t}\n\tif q.Pending() != 1 {\n\t\tt.Errorf("pending = %d", q.Pending())\n\t}\n'
            : '\tif q.Pending() != 1 {\n\t\tt.Errorf("pending = %d", q.Pending())\n\t}\n';
      const one = first === null ? "" : `func TestHandlesAThrowingTask(t *testing.T) {\n${skip}\tq := New()\n${checks}}\n\n`;
      return `package queue\n\nimport (\n\t"runtime"\n\t"testing"\n)\n\nvar _ = runtime.GOOS\n\n${one}func TestCountsTasks(t *testing.T) {\n\tif New().Size() != 0 {\n\t\tt.Error("not empty")\n\t}\n}\n`;
    },
  },
];

for (const shape of shapes) {
  const at = (kind: string): string => `${kind} ${shape.path} "${shape.id}"`;
  const declares = shape.declares !== false;
  const lookAlikes: RuleCase[] = [
    {
      name: "a skipped test deleted",
      changes: [change(shape.path, shape.file({ skip: "always", checks: 2 }), shape.file(null))],
      findings: [at(declares ? "test_deletion/low" : "test_deletion/critical")],
    },
    {
      name: "a skipped test enabled with one of its checks dropped",
      changes: [change(shape.path, shape.file({ skip: "always", checks: 2 }), shape.file({ skip: "none", checks: 1 }))],
      findings: [at(declares ? "assertion_removal/low" : "assertion_removal/high")],
    },
  ];
  const cheats: RuleCase[] = [
    {
      name: "a running test deleted",
      changes: [change(shape.path, shape.file({ skip: "none", checks: 2 }), shape.file(null))],
      findings: [at("test_deletion/critical")],
    },
    {
      name: "a test skipped only under a condition deleted",
      changes: [change(shape.path, shape.file({ skip: "conditional", checks: 2 }), shape.file(null))],
      findings: [at("test_deletion/critical")],
    },
    {
      name: "a running test losing one of its checks",
      changes: [change(shape.path, shape.file({ skip: "none", checks: 2 }), shape.file({ skip: "none", checks: 1 }))],
      findings: [at("assertion_removal/high")],
    },
  ];
  describe(`${shape.lang}: checks of a test skipped before the change did not run`, () => {
    for (const rule of lookAlikes) it(`look-alike: ${rule.name}`, () => expectFindings(rule));
    for (const rule of cheats) it(`cheat: ${rule.name}`, () => expectFindings(rule));
  });
}

describe("js: a skipped test enabled with a weaker check", () => {
  const file = (opener: string, check: string): string =>
    `import {test} from 'vitest';\nimport assert from 'node:assert/strict';\nimport {newQueue} from '../src/queue.js';\n\n${opener}'handles a throwing task', () => {\n  ${check}\n});\n`;
  it("look-alike: skipped before, the weaker check is low", () =>
    expectFindings({
      name: "skipped before",
      changes: [change("test/queue.test.js", file("test.skip(", "assert.deepEqual(newQueue().events, ['limited', 'cleared']);"), file("test(", "assert.ok(newQueue().events.includes('limited'));"))],
      findings: ['assertion_weakening/low test/queue.test.js "handles a throwing task"'],
    }));
  it("cheat: running before, the weaker check is high", () =>
    expectFindings({
      name: "running before",
      changes: [change("test/queue.test.js", file("test(", "assert.deepEqual(newQueue().events, ['limited', 'cleared']);"), file("test(", "assert.ok(newQueue().events.includes('limited'));"))],
      findings: ['assertion_weakening/high test/queue.test.js "handles a throwing task"'],
    }));
});

describe("a test expected to fail before the change (its checks decided no pass)", () => {
  const js = (failing: boolean): string =>
    `import test from 'ava';\nimport {parse} from '../src/parse.js';\n\n${failing ? "test.failing" : "test"}('parses a bin string', t => {\n  t.is(parse('x').bin, 'x');\n});\n\ntest('parses nothing', t => {\n  t.is(parse('').bin, undefined);\n});\n`;
  const py = (xfail: boolean): string =>
    `import pytest\n\nfrom tool import parse\n\n\n${xfail ? '@pytest.mark.xfail(reason="bin strings", strict=True)\n' : ""}def test_parses_a_bin_string():\n    assert parse("x").bin == "x"\n\n\ndef test_parses_nothing():\n    assert parse("").bin is None\n`;
  const dropFirst = (source: string, from: string, to: string): string => source.slice(0, source.indexOf(from)) + source.slice(source.indexOf(to));
  it("look-alike: js test.failing deleted", () =>
    expectFindings({
      name: "failing deleted",
      changes: [change("test/parse.js", js(true), dropFirst(js(true), "test.failing", "test('parses nothing'"))],
      findings: ['test_deletion/low test/parse.js "parses a bin string"'],
    }));
  it("cheat: js running test deleted", () =>
    expectFindings({
      name: "running deleted",
      changes: [change("test/parse.js", js(false), dropFirst(js(false), "test('parses a bin", "test('parses nothing'"))],
      findings: ['test_deletion/critical test/parse.js "parses a bin string"'],
    }));
  it("look-alike: python xfail test deleted", () =>
    expectFindings({
      name: "xfail deleted",
      changes: [change("tests/test_parse.py", py(true), dropFirst(py(true), "@pytest.mark.xfail", "def test_parses_nothing"))],
      findings: ['test_deletion/low tests/test_parse.py "test_parses_a_bin_string"'],
    }));
  it("cheat: python running test deleted", () =>
    expectFindings({
      name: "running deleted",
      changes: [change("tests/test_parse.py", py(false), dropFirst(py(false), "def test_parses_a_bin", "def test_parses_nothing"))],
      findings: ['test_deletion/critical tests/test_parse.py "test_parses_a_bin_string"'],
    }));
});

/** Skips CI can lift, or made while the test runs (after checks that ran): their tests' checks ran somewhere (review of this class). */
describe("skips that do not stop every check", () => {
  const goTagged = (extra: string): string =>
    `//go:build integration\n\npackage queue\n\nimport "testing"\n\n${extra}func TestCountsTasks(t *testing.T) {\n\tif New().Size() != 0 {\n\t\tt.Error("not empty")\n\t}\n}\n`;
  const goRoundTrip = 'func TestRoundTrip(t *testing.T) {\n\tq := New()\n\tif q.Pending() != 1 {\n\t\tt.Errorf("pending = %d", q.Pending())\n\t}\n}\n\n';
  const rs = (extra: string): string => `#[cfg(test)]\nmod tests {\n    use super::*;\n\n${extra}    #[test]\n    fn counts() {\n        assert_eq!(Queue::new().size(), 0);\n    }\n}\n`;
  const rsSlow = '    #[test]\n    #[ignore = "slow"]\n    fn round_trip() {\n        let q = Queue::new();\n        assert_eq!(q.pending(), 1);\n        assert_eq!(q.size(), 2);\n    }\n\n';
  const py = (extra: string): string => `import pytest\n\nfrom queue_lib import new_queue\n\n\n${extra}def test_counts_tasks():\n    assert new_queue().size == 0\n`;
  const js = (extra: string): string =>
    `import {test, expect} from 'vitest';\nimport {newQueue} from '../src/queue.js';\n\n${extra}test('counts tasks', () => {\n  expect(newQueue().size).toBe(0);\n});\n`;
  const rows: RuleCase[] = [
    {
      name: "go: a test of a //go:build integration file deleted",
      changes: [change("queue/db_test.go", goTagged(goRoundTrip), goTagged(""))],
      findings: ['test_deletion/critical queue/db_test.go "TestRoundTrip"'],
    },
    { name: "rust: an #[ignore] test deleted", changes: [change("tests/queue.rs", rs(rsSlow), rs(""))], findings: ['test_deletion/critical tests/queue.rs "tests > round_trip"'] },
    {
      name: "python: a test with pytest.skip() after its first check deleted",
      changes: [change("tests/test_queue.py", py('def test_round_trip():\n    q = new_queue()\n    assert q.pending == 1\n    pytest.skip("rest is flaky")\n    assert q.size == 2\n\n\n'), py(""))],
      findings: ['test_deletion/critical tests/test_queue.py "test_round_trip"'],
    },
    {
      name: "js: a test with ctx.skip() after its first check deleted",
      changes: [change("test/queue.test.js", js("test('round trip', (ctx) => {\n  const q = newQueue();\n  expect(q.pending).toBe(1);\n  ctx.skip();\n  expect(q.size).toBe(2);\n});\n\n"), js(""))],
      findings: ['test_deletion/critical test/queue.test.js "round trip"'],
    },
  ];
  for (const rule of rows) it(`cheat: ${rule.name}`, () => expectFindings(rule));
});
