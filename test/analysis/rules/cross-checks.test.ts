/**
 * Cross-checks moved into a helper that makes them over more inputs (issue
 * 9, class cross-check-split-and-generalized; sweep of
 * rust-itertools/itertools 6128bee39a, and the look-alike
 * rust-sweep-cross-check-split-and-generalized). A check that two
 * computations agree on fixed inputs (`fast(xs) == slow(xs)`) becomes a
 * helper comparing them on its parameter, called over generated inputs; the
 * adapter between the two output shapes may be written another way
 * (`|(a, b)| [a, b]` -> `Into::into`, `lambda p: list(p)` -> `list`). No
 * removal. The comparison moved onto one literal input, or turned into a
 * comparison of one computation with itself, is still a removal. One table
 * per language.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";
import { change, expectFindings } from "./table.js";

interface CrossCase {
  lang: string;
  path: string;
  test: string;
  before: string;
  generalised: string;
  /** The cheat: the same comparison over one literal input only. */
  literalInput: string;
  /** The cheat: one side compared with itself. */
  selfCompared: string;
  /** The cheat: the helper called only in a loop that never runs; absent where such loops are not read (JS `for (;;)`). */
  emptyLoop?: string;
}

const RS = (body: string): string =>
  `use win::{array_windows, pair_windows};\n\n#[test]\nfn windows() {\n    let vec4 = vec![1, 2, 3, 4];\n    let vec2 = vec![1, 2];\n    assert_eq!(array_windows::<2>(&vec4), vec![[1, 2], [2, 3], [3, 4]]);\n${body}}\n`;
const RS_CROSS =
  "    assert_eq!(array_windows::<2>(&vec4), pair_windows(&vec4).into_iter().map(|(a, b)| [a, b]).collect::<Vec<_>>());\n    assert_eq!(array_windows::<2>(&vec2), pair_windows(&vec2).into_iter().map(|(a, b)| [a, b]).collect::<Vec<_>>());\n";
const RS_HELPER = (call: string, other = "pair_windows"): string =>
  `}\n\n#[test]\nfn windows_agree() {\n    fn internal(slice: &[i32]) {\n        assert_eq!(array_windows::<2>(slice), ${other}(slice).into_iter().map(Into::<[_; 2]>::into).collect::<Vec<_>>());\n    }\n${call}`;

const PY = (body: string): string =>
  `from win import pair_windows, windows\n\n\ndef test_windows():\n    xs = [1, 2, 3, 4]\n    ys = [1, 2]\n    assert windows(xs, 2) == [[1, 2], [2, 3], [3, 4]]\n${body}`;
const PY_CROSS = "    assert windows(xs, 2) == list(map(lambda p: list(p), pair_windows(xs)))\n    assert windows(ys, 2) == list(map(lambda p: list(p), pair_windows(ys)))\n";
const PY_HELPER = (call: string, other = "pair_windows"): string =>
  `\n\ndef test_windows_agree():\n    def check(items):\n        assert windows(items, 2) == list(map(list, ${other}(items)))\n\n${call}`;

const JS = (body: string): string =>
  `import { pairWindows, windows } from "../src/index.js";\n\ntest("windows", () => {\n  const xs = [1, 2, 3, 4];\n  const ys = [1, 2];\n  expect(windows(xs, 2)).toEqual([[1, 2], [2, 3], [3, 4]]);\n${body}});\n`;
const JS_CROSS = "  expect(windows(xs, 2)).toEqual(pairWindows(xs).map(([a, b]) => [a, b]));\n  expect(windows(ys, 2)).toEqual(pairWindows(ys).map(([a, b]) => [a, b]));\n";
const JS_HELPER = (call: string, other = "pairWindows"): string =>
  `});\n\ntest("windows agree", () => {\n  const check = (items) => {\n    expect(windows(items, 2)).toEqual(${other}(items).map(Array.from));\n  };\n${call}`;

const cases: CrossCase[] = [
  {
    lang: "rust",
    path: "tests/windows.rs",
    test: "windows",
    before: RS(RS_CROSS),
    generalised: RS(RS_HELPER("    for i in 0..20 {\n        internal(&(0..i).collect::<Vec<_>>());\n    }\n")),
    literalInput: RS(RS_HELPER("    internal(&[]);\n")),
    selfCompared: RS(RS_HELPER("    for i in 0..20 {\n        internal(&(0..i).collect::<Vec<_>>());\n    }\n", "array_windows::<2>")),
    emptyLoop: RS(RS_HELPER("    for i in 0..0 {\n        internal(&(0..i).collect::<Vec<_>>());\n    }\n")),
  },
  {
    lang: "python",
    path: "tests/test_windows.py",
    test: "test_windows",
    before: PY(PY_CROSS),
    generalised: PY(PY_HELPER("    for n in range(20):\n        check(list(range(n)))\n")),
    literalInput: PY(PY_HELPER("    check([])\n")),
    selfCompared: PY(PY_HELPER("    for n in range(20):\n        check(list(range(n)))\n", "windows")),
    emptyLoop: PY(PY_HELPER("    for n in range(0):\n        check(list(range(n)))\n")),
  },
  {
    lang: "javascript",
    path: "test/windows.test.js",
    test: "windows",
    before: JS(JS_CROSS),
    // A JS arrow helper nested in its test is not instantiated per call: the generalised comparison is written inline.
    generalised: JS('});\n\ntest("windows agree", () => {\n  for (let n = 0; n < 20; n++) {\n    expect(windows(range(n), 2)).toEqual(pairWindows(range(n)).map(Array.from));\n  }\n'),
    literalInput: JS(JS_HELPER("  check([]);\n")),
    selfCompared: JS(JS_HELPER("  for (let n = 0; n < 20; n++) check(Array.from({ length: n }, (_, i) => i));\n", "windows")),
  },
];

describe.each(cases)("a cross-check generalised over more inputs ($lang)", (one) => {
  it("the same comparison over a helper's parameter: no removal", async () => {
    await expectFindings({ name: "generalised", changes: [change(one.path, one.before, one.generalised)], findings: [] });
  });

  it("the comparison kept for one literal input only is still a removal", async () => {
    await expectFindings({ name: "literal input", changes: [change(one.path, one.before, one.literalInput)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });

  it("one computation compared with itself is still a removal", async () => {
    await expectFindings({ name: "self compared", changes: [change(one.path, one.before, one.selfCompared)], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });
});

describe.each(cases.filter((one) => one.emptyLoop !== undefined))("a cross-check helper called only in a loop that never runs ($lang)", (one) => {
  it("is still a removal", async () => {
    await expectFindings({ name: "empty loop", changes: [change(one.path, one.before, one.emptyLoop ?? "")], findings: [`assertion_removal/high ${one.path} "${one.test}"`] });
  });
});

describe("a check in a loop that never runs can never fail (AssertionFact.unreachable)", () => {
  it.each([
    [
      "python range(0)",
      "tests/test_e.py",
      "def test_e():\n    for n in range(0):\n        assert f(n) == 1\n    for n in range(3, 3):\n        assert f(n) == 1\n    for x in []:\n        assert f(x) == 1\n    for n in range(2):\n        assert f(n) == 1\n",
      [true, true, true, false],
    ],
    [
      "rust empty ranges",
      "tests/e.rs",
      "#[test]\nfn e() {\n    for i in 0..0 {\n        assert_eq!(f(i), 1);\n    }\n    for i in 1..=0 {\n        assert_eq!(f(i), 1);\n    }\n    for i in 0..=0 {\n        assert_eq!(f(i), 1);\n    }\n}\n",
      [true, true, false],
    ],
    [
      "php foreach over an empty array",
      "tests/ETest.php",
      "<?php\nclass ETest extends TestCase {\n    public function testE(): void {\n        foreach ([] as $x) {\n            $this->assertSame(1, f($x));\n        }\n        foreach ([1] as $x) {\n            $this->assertSame(1, f($x));\n        }\n    }\n}\n",
      [true, false],
    ],
  ])("%s", async (_name, path, source, expected) => {
    const facts = await extractFacts(path, source);
    expect(facts.tests[0]?.assertionsDetail?.map((fact) => fact.unreachable === true)).toEqual(expected);
  });
});
