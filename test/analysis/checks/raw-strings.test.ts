/**
 * A raw or verbatim string is the string it spells (checks/normalise.ts
 * canonicalText; sweep of pallets/werkzeug b5a33d286c: `debug_repr(re.
 * compile(r"foo\d"))` and `debug_repr(re.compile("foo\\d"))` were one check
 * twice, and dropping the second lost nothing). Python and Rust `r"…"`/
 * `r'…'` keep their backslashes as written; C# `@"…"` also writes a quote
 * as `""`. Both read as the escaped string of the same characters.
 */
import { describe, expect, it } from "vitest";
import { canonicalText } from "../../../src/analysis/checks/normalise.js";
import { change, expectFindings, type RuleCase } from "../rules/table.js";

describe("canonical text of raw strings", () => {
  it.each([
    ['f(r"foo\\d")', 'f("foo\\\\d")'],
    ["f(r'a\\b')", 'f("a\\\\b")'],
    ['f(R"x\\y")', 'f("x\\\\y")'],
    ['Parse(@"C:\\dir")', 'Parse("C:\\\\dir")'],
    ['Parse(@"say ""hi""")', 'Parse("say \\"hi\\"")'],
  ])("%s is %s", (raw, escaped) => {
    expect(canonicalText(raw)).toBe(canonicalText(escaped));
  });

  it.each([
    ['f(r"foo\\d")', 'f("foo\\d")'],
    // An `r` ending a name is no raw-string prefix.
    ['f(ar"a\\b")', 'f(ar"a\\\\b")'],
    ['f(r"a")', 'f(r"b")'],
  ])("%s is not %s", (raw, other) => {
    expect(canonicalText(raw)).not.toBe(canonicalText(other));
  });
});

const py = (body: string): string => `import re\nfrom werkzeug.debug.repr import debug_repr\n\nclass TestDebugRepr:\n    def test_regex_repr(self):\n${body}`;
const first = `        assert debug_repr(re.compile(r"foo\\d")) == "re.compile(r'foo\\\\d')"\n`;

const cases: RuleCase[] = [
  {
    name: "python: a duplicate check spelled with an escaped string dropped beside its raw twin",
    changes: [change("tests/test_debug.py", py(`${first}        assert debug_repr(re.compile("foo\\\\d")) == "re.compile(r'foo\\\\d')"\n`), py(first))],
    findings: [],
  },
  {
    name: "cheat: python: a check of another pattern dropped beside a raw string",
    changes: [change("tests/test_debug.py", py(`${first}        assert debug_repr(re.compile("bar\\\\d")) == "re.compile(r'bar\\\\d')"\n`), py(first))],
    findings: [`assertion_removal/high tests/test_debug.py "TestDebugRepr > test_regex_repr"`],
  },
];

describe("a raw string beside its escaped twin", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
