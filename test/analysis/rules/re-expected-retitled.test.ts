/**
 * A test retitled, or its checks moved into a new plain test, whose check is
 * made again on the same call (the same callee, every literal it passed
 * still passed, arguments possibly added) with the same relation and no
 * less strength, expecting another value, while the code under test
 * changed in the same change (rules/features.ts reExpectedDeletions,
 * checks/index.ts findReCalledCover). The expectation followed the product
 * change (sweep of sindresorhus/globby 1273541cca, "Support negation-only
 * patterns": `return [] for all negative patterns` became `negation-only
 * patterns match all files in cwd except negated ones`, the same
 * `runGlobby(t, ['!a.tmp', '!b.tmp'], {cwd})` now expecting the files left).
 * Both the deleted test (test_deletion) and the test gone with some of its
 * checks kept (assertion_removal) become expectation_changed at medium.
 *
 * The nearest cheats stay what they were: the same retitle and re-expect
 * with no product file changed (how a failing case is made to pass), a
 * literal input changed (another check), a weaker relation, a negated one.
 */
import { describe, it } from "vitest";
import { change, edit, expectFindings, type RuleCase } from "./table.js";

const changed = (path: string, test?: string): string => `expectation_changed/medium ${path}${test === undefined ? "" : ` "${test}"`}`;
const removal = (path: string, test: string): string => `assertion_removal/high ${path} "${test}"`;
const deletion = (path: string, test: string): string => `test_deletion/critical ${path} "${test}"`;

// JavaScript, ava: the globby case, a local helper that asserts several things.
const GLOB_BEFORE =
  "import {match, matchSync} from './match.js';\n\nconst isNegative = pattern => pattern.startsWith('!');\n\nexport const globby = async (patterns, options = {}) => {\n\tconst list = [patterns].flat();\n\tif (list.every(isNegative)) {\n\t\treturn [];\n\t}\n\n\treturn match(list, options);\n};\n\nexport const globbySync = (patterns, options = {}) => {\n\tconst list = [patterns].flat();\n\tif (list.every(isNegative)) {\n\t\treturn [];\n\t}\n\n\treturn matchSync(list, options);\n};\n";
const GLOB_AFTER =
  "import {match, matchSync} from './match.js';\n\nconst isNegative = pattern => pattern.startsWith('!');\n\nconst withAll = list => (list.every(isNegative) ? ['**/*', ...list] : list);\n\nexport const globby = async (patterns, options = {}) => match(withAll([patterns].flat()), options);\n\nexport const globbySync = (patterns, options = {}) => matchSync(withAll([patterns].flat()), options);\n";
const AVA_HEAD =
  "import test from 'ava';\nimport {globby, globbySync} from '../src/glob.js';\n\nconst temporary = 'tmp';\n\nconst stabilizeResult = result => [...result].sort();\n\nconst runGlobby = async (t, patterns, options) => {\n\tconst syncResult = globbySync(patterns, options);\n\tconst promiseResult = await globby(patterns, options);\n\tconst result = stabilizeResult(promiseResult);\n\tt.deepEqual(stabilizeResult(syncResult), result, 'globbySync() result is different than globby()');\n\tt.is(syncResult.length, promiseResult.length);\n\treturn promiseResult;\n};\n\ntest('glob', async t => {\n\tt.deepEqual(await runGlobby(t, '*.tmp'), ['a.tmp', 'b.tmp', 'c.tmp', 'd.tmp', 'e.tmp']);\n});\n\n";
const AVA_BEFORE = `${AVA_HEAD}test('return [] for all negative patterns', async t => {\n\tt.deepEqual(await runGlobby(t, ['!a.tmp', '!b.tmp']), []);\n});\n`;
const avaAfter = (assertion: string): string =>
  `${AVA_HEAD}test('negation-only patterns match all files in cwd except negated ones', async t => {\n\t${assertion};\n});\n\ntest('negation-only patterns in a subdirectory', async t => {\n\tt.deepEqual(await runGlobby(t, ['!**/b.tmp'], {cwd: 'tmp/sub'}), ['a.tmp']);\n});\n`;
const AVA_RE_EXPECTED = "t.deepEqual(await runGlobby(t, ['!a.tmp', '!b.tmp'], {cwd: temporary}), ['c.tmp', 'd.tmp', 'e.tmp'])";
const AVA_TEST = "return [] for all negative patterns";

// JavaScript, jest/vitest: a test deleted, its one check made again on the same call with an option added.
const CLAMP_JS_BEFORE = "export const clamp = (level, low, high) => Math.max(low, Math.min(high, level));\n";
const CLAMP_JS_AFTER = "export const clamp = (level, low, high, options = {}) => (level > high && options.strict ? high - 1 : Math.max(low, Math.min(high, level)));\n";
const JEST_HEAD = "import {clamp} from '../src/levels.js';\n\ntest('inside', () => {\n\texpect(clamp(3, 1, 6)).toBe(3);\n});\n\n";
const JEST_BEFORE = `${JEST_HEAD}test('clamped high', () => {\n\texpect(clamp(9, 2, 4)).toEqual(4);\n});\n`;
const jestAfter = (assertion: string): string => `${JEST_HEAD}test('strict mode keeps the level below its bound', () => {\n\t${assertion};\n});\n`;

// Python, pytest.
const CLAMP_PY_BEFORE = "def clamp(level, low, high):\n    return max(low, min(high, level))\n";
const CLAMP_PY_AFTER = "def clamp(level, low, high, strict=False):\n    if strict and level > high:\n        return high - 1\n    return max(low, min(high, level))\n";
const PY_HEAD = "from pkg.levels import clamp\n\n\ndef test_inside():\n    assert clamp(3, 1, 6) == 3\n\n\n";
const PY_BEFORE = `${PY_HEAD}def test_clamped_high():\n    assert clamp(9, 2, 4) == 4\n    assert clamp(9, 2, 4) > 1\n`;
const pyAfter = (assertion: string): string => `${PY_HEAD}def test_above_the_bound_is_one_below():\n    ${assertion}\n    assert clamp(9, 2, 4) > 1\n`;

// Go, testify.
const CLAMP_GO_BEFORE = "package levels\n\nfunc Clamp(level, low, high int) int {\n\tif level > high {\n\t\treturn high\n\t}\n\tif level < low {\n\t\treturn low\n\t}\n\treturn level\n}\n";
const CLAMP_GO_AFTER =
  "package levels\n\ntype Option int\n\nconst Strict Option = 1\n\nfunc Clamp(level, low, high int, options ...Option) int {\n\tif level > high {\n\t\tif len(options) > 0 {\n\t\t\treturn high - 1\n\t\t}\n\t\treturn high\n\t}\n\tif level < low {\n\t\treturn low\n\t}\n\treturn level\n}\n";
const GO_HEAD = 'package levels\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestInside(t *testing.T) {\n\tassert.Equal(t, 3, Clamp(3, 1, 6))\n}\n\n';
const GO_BEFORE = `${GO_HEAD}func TestClampedHigh(t *testing.T) {\n\tassert.Equal(t, 4, Clamp(9, 2, 4))\n}\n`;
const goAfter = (call: string, want: string): string => `${GO_HEAD}func TestAboveTheBoundIsOneBelow(t *testing.T) {\n\tassert.Equal(t, ${want}, ${call})\n}\n`;

// Java, JUnit 5.
const CLAMP_JAVA_BEFORE = "package levels;\n\nclass Levels {\n  static int clamp(int level, int low, int high) {\n    return Math.max(low, Math.min(high, level));\n  }\n}\n";
const CLAMP_JAVA_AFTER =
  "package levels;\n\nclass Levels {\n  static int clamp(int level, int low, int high) {\n    return clamp(level, low, high, false);\n  }\n\n  static int clamp(int level, int low, int high, boolean strict) {\n    return strict && level > high ? high - 1 : Math.max(low, Math.min(high, level));\n  }\n}\n";
const JAVA_HEAD =
  "package levels;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass LevelsTest {\n  @Test\n  void inside() {\n    assertEquals(3, Levels.clamp(3, 1, 6));\n  }\n\n";
const JAVA_BEFORE = `${JAVA_HEAD}  @Test\n  void clampedHigh() {\n    assertEquals(4, Levels.clamp(9, 2, 4));\n  }\n}\n`;
const javaAfter = (assertion: string): string => `${JAVA_HEAD}  @Test\n  void aboveTheBoundIsOneBelow() {\n    ${assertion};\n  }\n}\n`;

const AVA = "test/glob.js";
const JEST = "test/levels.test.js";
const PY = "tests/test_levels.py";
const GO = "levels_test.go";
const JAVA = "src/test/java/levels/LevelsTest.java";

const lookAlikes: RuleCase[] = [
  {
    name: "ava: retitled, its check made again on the same helper call with an option added, expecting what the changed code returns (globby 1273541cca)",
    changes: [change("src/glob.js", GLOB_BEFORE, GLOB_AFTER), change(AVA, AVA_BEFORE, avaAfter(AVA_RE_EXPECTED))],
    findings: [changed(AVA, AVA_TEST)],
  },
  {
    name: "jest: a test deleted, its check made in a new test on the same call with an argument added, another value expected",
    changes: [change("src/levels.js", CLAMP_JS_BEFORE, CLAMP_JS_AFTER), change(JEST, JEST_BEFORE, jestAfter("expect(clamp(9, 2, 4, {strict: true})).toEqual(3)"))],
    findings: [changed(JEST, "clamped high")],
  },
  {
    name: "jest: the equality made stricter (toEqual -> toStrictEqual) on the same call, another value expected",
    changes: [change("src/levels.js", CLAMP_JS_BEFORE, CLAMP_JS_AFTER), change(JEST, JEST_BEFORE, jestAfter("expect(clamp(9, 2, 4, {strict: true})).toStrictEqual(3)"))],
    findings: [changed(JEST, "clamped high")],
  },
  {
    name: "jest: the input held in a local, kept, the same call re-expected",
    changes: [
      change("src/levels.js", CLAMP_JS_BEFORE, CLAMP_JS_AFTER),
      change(
        JEST,
        edit(JEST_BEFORE, "expect(clamp(9, 2, 4))", "const level = 9;\n\texpect(clamp(level, 2, 4))"),
        jestAfter("const level = 9;\n\texpect(clamp(level, 2, 4, {strict: true})).toEqual(3)"),
      ),
    ],
    findings: [changed(JEST, "clamped high")],
  },
  {
    name: "pytest: retitled, one check kept as it was, the other made on the same call expecting another value",
    changes: [change("pkg/levels.py", CLAMP_PY_BEFORE, CLAMP_PY_AFTER), change(PY, PY_BEFORE, pyAfter("assert clamp(9, 2, 4, strict=True) == 3"))],
    findings: [changed(PY, "test_clamped_high")],
  },
  {
    name: "go: retitled, the same call expected to give another value",
    changes: [change("levels.go", CLAMP_GO_BEFORE, CLAMP_GO_AFTER), change(GO, GO_BEFORE, goAfter("Clamp(9, 2, 4, Strict)", "3"))],
    findings: [changed(GO, "TestClampedHigh")],
  },
  {
    name: "java: retitled, the same call expected to give another value",
    changes: [change("src/main/java/levels/Levels.java", CLAMP_JAVA_BEFORE, CLAMP_JAVA_AFTER), change(JAVA, JAVA_BEFORE, javaAfter("assertEquals(3, Levels.clamp(9, 2, 4, true))"))],
    findings: [changed(JAVA, "LevelsTest > clampedHigh")],
  },
];

const cheats: RuleCase[] = [
  {
    name: "ava: the same retitle and re-expect with no product file changed",
    changes: [change(AVA, AVA_BEFORE, avaAfter(AVA_RE_EXPECTED))],
    findings: [removal(AVA, AVA_TEST)],
  },
  {
    name: "ava: the product changed, but a literal input changed too ('!b.tmp' -> '!c.tmp')",
    changes: [change("src/glob.js", GLOB_BEFORE, GLOB_AFTER), change(AVA, AVA_BEFORE, avaAfter(edit(AVA_RE_EXPECTED, "'!b.tmp'", "'!c.tmp'")))],
    findings: [removal(AVA, AVA_TEST)],
  },
  {
    name: "ava: the product changed, but the equality weakened to a truthiness (deepEqual -> truthy)",
    changes: [change("src/glob.js", GLOB_BEFORE, GLOB_AFTER), change(AVA, AVA_BEFORE, avaAfter("t.truthy(await runGlobby(t, ['!a.tmp', '!b.tmp'], {cwd: temporary}))"))],
    findings: [removal(AVA, AVA_TEST)],
  },
  {
    name: "ava: the product changed, but the equality negated (deepEqual -> notDeepEqual)",
    changes: [change("src/glob.js", GLOB_BEFORE, GLOB_AFTER), change(AVA, AVA_BEFORE, avaAfter("t.notDeepEqual(await runGlobby(t, ['!a.tmp', '!b.tmp'], {cwd: temporary}), ['c.tmp'])"))],
    findings: [removal(AVA, AVA_TEST)],
  },
  {
    name: "jest: the same deletion and re-expect with no product file changed",
    changes: [change(JEST, JEST_BEFORE, jestAfter("expect(clamp(9, 2, 4, {strict: true})).toEqual(3)"))],
    findings: [deletion(JEST, "clamped high")],
  },
  {
    name: "jest: the product changed, but the new check calls another function on the same inputs",
    changes: [change("src/levels.js", CLAMP_JS_BEFORE, CLAMP_JS_AFTER), change(JEST, JEST_BEFORE, jestAfter("expect(Math.min(9, 2, 4)).toEqual(2)"))],
    findings: [deletion(JEST, "clamped high")],
  },
  {
    name: "jest: the product changed, but the input held in a local changed (level 9 -> 8)",
    changes: [
      change("src/levels.js", CLAMP_JS_BEFORE, CLAMP_JS_AFTER),
      change(
        JEST,
        edit(JEST_BEFORE, "expect(clamp(9, 2, 4))", "const level = 9;\n\texpect(clamp(level, 2, 4))"),
        jestAfter("const level = 8;\n\texpect(clamp(level, 2, 4, {strict: true})).toEqual(3)"),
      ),
    ],
    findings: [deletion(JEST, "clamped high")],
  },
  {
    name: "pytest: the same retitle and re-expect with no product file changed",
    changes: [change(PY, PY_BEFORE, pyAfter("assert clamp(9, 2, 4, strict=True) == 3"))],
    findings: [removal(PY, "test_clamped_high")],
  },
  {
    name: "pytest: the product changed, but the level changed (9 -> 8)",
    changes: [change("pkg/levels.py", CLAMP_PY_BEFORE, CLAMP_PY_AFTER), change(PY, PY_BEFORE, pyAfter("assert clamp(8, 2, 4, strict=True) == 3"))],
    findings: [removal(PY, "test_clamped_high")],
  },
  {
    name: "pytest: the product changed, but the equality weakened to a truthiness",
    changes: [change("pkg/levels.py", CLAMP_PY_BEFORE, CLAMP_PY_AFTER), change(PY, PY_BEFORE, pyAfter("assert clamp(9, 2, 4, strict=True)"))],
    findings: [removal(PY, "test_clamped_high")],
  },
  {
    name: "go: the same retitle and re-expect with no product file changed",
    changes: [change(GO, GO_BEFORE, goAfter("Clamp(9, 2, 4, Strict)", "3"))],
    findings: [deletion(GO, "TestClampedHigh")],
  },
  {
    name: "go: the product changed, but the high bound changed (4 -> 5)",
    changes: [change("levels.go", CLAMP_GO_BEFORE, CLAMP_GO_AFTER), change(GO, GO_BEFORE, goAfter("Clamp(9, 2, 5, Strict)", "3"))],
    findings: [deletion(GO, "TestClampedHigh")],
  },
  {
    name: "java: the same retitle and re-expect with no product file changed",
    changes: [change(JAVA, JAVA_BEFORE, javaAfter("assertEquals(3, Levels.clamp(9, 2, 4, true))"))],
    findings: [deletion(JAVA, "LevelsTest > clampedHigh")],
  },
];

describe("retitled with the same call re-expected while the code under test changed: expectation_changed at medium", () => {
  it.each(lookAlikes)("$name", async (rule) => {
    await expectFindings(rule);
  });
});

describe("retitled and re-expected otherwise: still a removal or a deletion", () => {
  it.each(cheats)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
