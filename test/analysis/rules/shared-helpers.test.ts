/**
 * A shared assertion helper that lost its checks makes every test that
 * calls it check less, wherever the tests are (breaker3's
 * go-helper-errorf-to-logf: `t.Errorf` -> `t.Logf` in a helper of another
 * file of the package). Its stronger or moved forms are no finding.
 */
import { describe, it } from "vitest";
import { change, edit, expectFindings } from "./table.js";

const GO_HELPER = `package pq\n\nimport "testing"\n\nfunc assertDrains(t *testing.T, got, want []int) {\n\tt.Helper()\n\tif len(got) != len(want) {\n\t\tt.Errorf("drained %v, want %v", got, want)\n\t}\n}\n`;
const PY_HELPER = `def check_roundtrip(value):\n    assert decode(encode(value)) == value\n\n\ndef test_helpers_load():\n    assert encode is not None\n`;

describe("shared assertion helpers", () => {
  it.each([
    {
      name: "Go: t.Errorf -> t.Logf in a helper of another file",
      changes: [change("pq/helpers_test.go", GO_HELPER, edit(GO_HELPER, "t.Errorf(", "t.Logf("))],
      findings: ["assertion_removal/high pq/helpers_test.go"],
    },
    {
      name: "Python: a helper's assert turned into a print",
      changes: [change("tests/test_helpers.py", PY_HELPER, edit(PY_HELPER, "    assert decode(encode(value)) == value", "    print(decode(encode(value)), value)"))],
      findings: ["assertion_removal/high tests/test_helpers.py"],
    },
    { name: "Go: t.Errorf -> t.Fatalf (stronger)", changes: [change("pq/helpers_test.go", GO_HELPER, edit(GO_HELPER, "t.Errorf(", "t.Fatalf("))], findings: [] },
    { name: "Go: the helper reworded", changes: [change("pq/helpers_test.go", GO_HELPER, edit(GO_HELPER, '"drained %v, want %v"', '"got %v, want %v"'))], findings: [] },
    {
      name: "Go: the helper deleted with its file (its callers must change too)",
      changes: [change("pq/helpers_test.go", GO_HELPER, null)],
      findings: [],
    },
  ])("$name", async (rule) => {
    await expectFindings(rule);
  });
});
