/**
 * A value compared with itself (sweep of mahmoud/boltons ec1ff9f6 and
 * 580a9c2d: `assert cab <= cab` and `assert cab >= cab` added to a test of
 * a complement set whose `__le__` was fixed, read as "a tautology was
 * added", high). Equality and identity of a value with itself check nothing
 * (`x == x`, `x is x`: the usual cheat, the expected value replaced by the
 * subject); an ordering compared with itself calls the ordering under test
 * (sets, versions, intervals define their own), and is a tautology of a
 * literal only; `x < x` and `x != x` are false, not tautologies.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const file = "tests/test_setutils.py";
const py = (extra: string): string =>
  `from boltons.setutils import complement\n\n\ndef test_complement_set():\n    cab = complement('ab')\n    assert cab != complement('a')\n    assert not cab.isdisjoint(complement('c'))\n${extra}`;
const weakened = `assertion_weakening/high ${file} "test_complement_set"`;

const cases: RuleCase[] = [
  {
    name: "an ordering of a complement set compared with itself added",
    changes: [change(file, py(""), py(`    assert cab <= complement('a')\n    assert cab <= cab\n    assert cab >= cab\n`))],
    findings: [],
  },
  { name: "a set's ordering through its methods compared with itself", changes: [change(file, py(""), py(`    assert cab.issubset(cab)\n    assert cab >= cab\n`))], findings: [] },
  {
    name: "cheat: an expected value replaced by the subject (x == x)",
    changes: [change(file, py(`    assert cab - complement('a') == complement('ab') - complement('a')\n`), py(`    assert cab - complement('a') == cab - complement('a')\n`))],
    findings: [weakened],
  },
  {
    name: "cheat: an identity of a value with itself in place of a check",
    changes: [change(file, py(`    assert cab.complemented() == set('ab')\n`), py(`    assert cab is cab\n`))],
    findings: [weakened],
  },
  { name: "cheat: a literal ordered with itself in place of a check", changes: [change(file, py(`    assert len(cab.complemented()) == 2\n`), py(`    assert 2 <= 2\n`))], findings: [weakened] },
];

describe("a value compared with itself", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
