/**
 * A shared assertion helper whose parameters were renamed checks what it
 * checked (rules/assertions.ts helperFindings, positionalHelper; sweep of
 * sindresorhus/ora fb0fced9ac: ava's `macro(t, fn, expected)` became
 * `macro(t, function_, expected)`, and `t.regex(await doSpinner(fn), expected)`
 * read as a check removed). The helper's checks are compared with its
 * parameters written by position. A helper whose check now reads another
 * argument, or lost its check, still checks less.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const ava = (params: string, check: string): string =>
  `import test from 'ava';\n\nconst doSpinner = async (run) => run();\n\nconst macro = async (${params}) => {\n\t${check}\n};\n\ntest('main', macro, () => 'spin', /spin/);\ntest('other', macro, () => 'spun', /spun/);\n`;
const py = (params: string, check: string): string =>
  `def check_render(${params}):\n    ${check}\n\n\ndef test_main():\n    check_render(lambda: "spin", "spin")\n\n\ndef test_other():\n    check_render(lambda: "spun", "spun")\n`;

const cases: RuleCase[] = [
  {
    name: "ava: a macro's parameter renamed (fn -> function_)",
    changes: [change("test.js", ava("t, fn, expected", "t.regex(await doSpinner(fn), expected);"), ava("t, function_, expected", "t.regex(await doSpinner(function_), expected);"))],
    findings: [],
  },
  {
    name: "python: a helper's parameters renamed",
    changes: [change("tests/test_render.py", py("fn, expected", "assert fn() == expected"), py("render, wanted", "assert render() == wanted"))],
    findings: [],
  },
  {
    name: "ava: the macro's check now reads another argument",
    changes: [change("test.js", ava("t, fn, expected", "t.regex(await doSpinner(fn), expected);"), ava("t, fn, expected", "t.regex(await doSpinner(() => ''), expected);"))],
    findings: ["assertion_removal/high test.js"],
  },
];

describe("a shared helper's parameters renamed", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
