/**
 * A table row that lives on as a call of the table test itself
 * (compare.ts isRowCalled): python-attrs/cattrs 994ba06330 moved the
 * `cbor2_make_converter` row of `test_literal_dicts` into
 * `test_literal_dicts_cbor2`, which imports the converter where it runs
 * and calls `test_literal_dicts(cbor2_make_converter)`. The row's body
 * still runs on its value, so no row is lost. A call with another value,
 * another number of arguments, or from a test that does not run, keeps
 * the row's loss.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const table = (rows: string): string =>
  `@pytest.mark.parametrize(\n    "converter_factory",\n    [\n${rows}    ],\n)\ndef test_literal_dicts(converter_factory):\n    converter = converter_factory()\n    assert converter.unstructure({"a": 1}) == {"a": 1}\n`;
const rowsBefore = "        bson_make_converter,\n        cbor2_make_converter,\n        json_make_converter,\n";
const rowsAfter = "        bson_make_converter,\n        json_make_converter,\n";
const header = (cbor: boolean): string =>
  `import pytest\n\nfrom lib.bson import make_converter as bson_make_converter\n${cbor ? "from lib.cbor2 import make_converter as cbor2_make_converter\n" : ""}from lib.json import make_converter as json_make_converter\n\n\n`;
const own = (call: string, mark = ""): string => `\n\n${mark}def test_literal_dicts_cbor2():\n    from lib.cbor2 import make_converter as cbor2_make_converter\n\n    ${call}\n`;
const pyCase = (name: string, after: string, findings: string[]): RuleCase => ({
  name,
  changes: [change("tests/test_preconf.py", header(true) + table(rowsBefore), header(false) + table(rowsAfter) + after)],
  findings,
});
const lost = ['test_deletion/critical tests/test_preconf.py "test_literal_dicts"'];

const cases: RuleCase[] = [
  pyCase("python: a row moved into its own test that calls the table test with its value (cattrs 994ba06330)", own("test_literal_dicts(cbor2_make_converter)"), []),
  pyCase("python: the same call by keyword", own("test_literal_dicts(converter_factory=cbor2_make_converter)"), []),
  pyCase("cheat: python: the row removed with no such call", "", lost),
  pyCase("cheat: python: the table test called with another value", own("test_literal_dicts(json_make_converter)"), lost),
  pyCase("cheat: python: the call passes more than the row's values", own("test_literal_dicts(cbor2_make_converter, strict=False)"), lost),
  pyCase("cheat: python: the call is in a skipped test", own("test_literal_dicts(cbor2_make_converter)", '@pytest.mark.skip(reason="later")\n'), lost),
];

describe("a table row that lives on as a call of the table test", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});
