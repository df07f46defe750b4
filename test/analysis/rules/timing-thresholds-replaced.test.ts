/**
 * Sweep of sindresorhus/ky 3419113b48: a test whose only check was an
 * absolute threshold on a measured duration (`t.true(duration < 10)`) was
 * rewritten to observe the behaviour directly (a timer spied on: the
 * timeout was set and cleared), and the threshold was read as weakened into
 * the first new check. A wall-clock threshold replaced by as many checks of
 * other subjects is the usual fix of a flaky timing test: reported at medium
 * (a person should still see it), never blocking. A threshold loosened on
 * the same measurement is an expectation changed (reported, not blocking:
 * a timeout raised for a slow machine is the usual fix). A threshold dropped with nothing in its place, or replaced by
 * fewer or tautological checks still blocks, and so does a threshold on
 * anything that is not a measured time.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

const ava = (body: string): string => `import test from "ava";\nimport { run } from "../source/index.js";\n\ntest("the timeout is cancelled", async t => {\n${body}\n});\n`;
const pytest = (body: string): string => `import time\nfrom pkg import run\n\n\ndef test_timeout_cancelled(monkeypatch):\n${body}\n`;
const gotest = (body: string): string => `package pkg\n\nimport (\n\t"testing"\n\t"time"\n)\n\nfunc TestTimeoutCancelled(t *testing.T) {\n${body}\n}\n`;
const xunit = (body: string): string =>
  `using System.Diagnostics;\nusing FluentAssertions;\nusing Xunit;\n\nnamespace Pkg.Tests;\n\npublic class RunTests\n{\n    [Fact]\n    public void TimeoutIsCancelled()\n    {\n${body}\n    }\n}\n`;

const AVA_TIMED = "\tconst start = Date.now();\n\tawait run({timeout: 2000});\n\tconst duration = Date.now() - start;\n\tt.true(duration < 10);";
const AVA_SPIED =
  "\tlet timeoutId;\n\tlet cleared = false;\n\tconst timer = spyTimers(id => { timeoutId = id; }, id => { cleared = id === timeoutId; });\n\tawait run({timeout: 2000});\n\ttimer.restore();\n\tt.truthy(timeoutId);\n\tt.true(cleared);";
const PY_TIMED = "    start = time.monotonic()\n    run(timeout=2)\n    elapsed = time.monotonic() - start\n    assert elapsed < 0.5";
const PY_SPIED =
  "    sleeps = []\n    cancelled = []\n    monkeypatch.setattr(time, 'sleep', sleeps.append)\n    run(timeout=2, on_cancel=cancelled.append)\n    assert sleeps == []\n    assert cancelled == [2]";
const GO_TIMED = '\tstart := time.Now()\n\tRun(2 * time.Second)\n\telapsed := time.Since(start)\n\tif elapsed > 100 {\n\t\tt.Fatalf("took %v", elapsed)\n\t}';
const GO_SPIED = '\tclock := &fakeClock{}\n\tRunWith(clock, 2*time.Second)\n\tif clock.set != 1 {\n\t\tt.Fatalf("set %d", clock.set)\n\t}\n\tif !clock.stopped {\n\t\tt.Fatal("not stopped")\n\t}';
const CS_TIMED = "        var timer = Stopwatch.StartNew();\n        Runner.Run(2000);\n        timer.ElapsedMilliseconds.Should().BeLessThan(100);";
const CS_SPIED = "        var clock = new FakeClock();\n        Runner.Run(2000, clock);\n        clock.Scheduled.Should().Be(1);\n        clock.Cancelled.Should().BeTrue();";

async function blocking(path: string, before: string, after: string): Promise<string[]> {
  const analysis = await analyzeChanges([change(path, before, after)]);
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map(summarize);
}

describe("a wall-clock threshold replaced by direct checks of what it timed", () => {
  it.each([
    ["ava: a duration bound -> a spied timer set and cleared", "test/main.ts", ava(AVA_TIMED), ava(AVA_SPIED)],
    ["pytest: an elapsed bound -> the sleeps and the cancellation recorded", "tests/test_run.py", pytest(PY_TIMED), pytest(PY_SPIED)],
    ["go: a time.Since bound -> a fake clock's counts", "run_test.go", gotest(GO_TIMED), gotest(GO_SPIED)],
    ["xunit: a Stopwatch bound -> a fake clock's counts", "tests/RunTests.cs", xunit(CS_TIMED), xunit(CS_SPIED)],
  ])("%s: no blocking finding", async (_, path, before, after) => {
    expect(await blocking(path, before, after)).toEqual([]);
  });

  it("ava: the replaced threshold is still reported, at medium", async () => {
    const analysis = await analyzeChanges([change("test/main.ts", ava(AVA_TIMED), ava(AVA_SPIED))]);
    expect(analysis.findings.map(summarize)).toEqual(['assertion_weakening/medium test/main.ts "the timeout is cancelled"']);
  });

  it.each([
    ["ava: the bound loosened on the same measurement", "test/main.ts", ava(AVA_TIMED), ava(AVA_TIMED.replace("duration < 10", "duration < 100000"))],
    ["pytest: the bound loosened on the same measurement", "tests/test_run.py", pytest(PY_TIMED), pytest(PY_TIMED.replace("< 0.5", "< 500"))],
  ])("%s: reported (a timeout raised for a slow machine is a common fix, so not blocking)", async (_, path, before, after) => {
    const analysis = await analyzeChanges([change(path, before, after)]);
    expect(analysis.findings.length).toBeGreaterThan(0);
  });

  it.each([
    ["ava: the bound dropped with nothing in its place", "test/main.ts", ava(AVA_TIMED), ava("\tawait run({timeout: 2000});")],
    ["ava: the bound replaced by a tautology", "test/main.ts", ava(AVA_TIMED), ava("\tawait run({timeout: 2000});\n\tt.true(true);")],
    ["ava: a count bound (no timing) replaced by other checks", "test/main.ts", ava(AVA_TIMED.replace(/duration/g, "count")), ava(AVA_SPIED)],
    ["ava: one of two checks kept in place of the threshold and a second", "test/main.ts", ava(AVA_TIMED + "\n\tt.is(await run(), 3);"), ava(AVA_SPIED.replace("\n\tt.true(cleared);", ""))],
    ["xunit: the bound dropped with nothing in its place", "tests/RunTests.cs", xunit(CS_TIMED), xunit("        Runner.Run(2000);")],
  ])("%s: still blocks", async (_, path, before, after) => {
    expect((await blocking(path, before, after)).length).toBeGreaterThan(0);
  });
});
