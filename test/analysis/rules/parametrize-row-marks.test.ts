/**
 * A pytest.param row that gains `marks=`: an unconditional skip or xfail
 * takes the row out of the table (a removed row), a skipif reads like any
 * conditional skip (checks/skip-condition.ts): on an environment probe the
 * row still runs where CI and agents run, and the table keeps it. Sweep of
 * tox-dev/filelock 2b3ad2c561: `pytest.param("symlink", id="symlink",
 * marks=pytest.mark.skipif(not CAPABILITIES["symlink"], ...))` was read as
 * 2 -> 1 rows, critical test_deletion.
 */
import { describe, it } from "vitest";
import { change, expectFindings } from "./table.js";

const PATH = "tests/test_reaper.py";
const source = (row: string): string =>
  `import sys\n\nimport pytest\n\nfrom app import CAPABILITIES, reap\n\n\n@pytest.mark.parametrize(\n    "node",\n    [\n        pytest.param("directory", id="directory"),\n        ${row},\n    ],\n)\ndef test_reaper_leaves_node(node):\n    assert reap(node) is False\n`;
const BEFORE = source('pytest.param("symlink", id="symlink")');

describe("a parametrize row that gains marks=", () => {
  it("skipif on a capability probe keeps the row (no deletion)", async () => {
    const after = source('pytest.param(\n            "symlink",\n            id="symlink",\n            marks=pytest.mark.skipif(not CAPABILITIES["symlink"], reason="needs symlinks"),\n        )');
    await expectFindings({ name: "capability", changes: [change(PATH, BEFORE, after)], findings: [] });
  });

  it("skipif that holds on Linux takes the row out (critical)", async () => {
    const after = source('pytest.param("symlink", id="symlink", marks=pytest.mark.skipif(sys.platform == "linux", reason="flaky"))');
    await expectFindings({ name: "linux", changes: [change(PATH, BEFORE, after)], findings: [`test_deletion/critical ${PATH} "test_reaper_leaves_node"`] });
  });

  it("an unconditional skip takes the row out (critical)", async () => {
    const after = source('pytest.param("symlink", id="symlink", marks=pytest.mark.skip(reason="later"))');
    await expectFindings({ name: "skip", changes: [change(PATH, BEFORE, after)], findings: [`test_deletion/critical ${PATH} "test_reaper_leaves_node"`] });
  });
});
