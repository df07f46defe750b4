/**
 * A test retitled and re-expected on the same call is the expectation
 * following the product only when the change rewrote what that call runs
 * (rules/features.ts calleeChanges; a cold review's cheats against
 * re-expected-retitled.test.ts): its callee's body, when a changed product
 * file defines it. A comment, another function of the callee's file, or a
 * dependency bump gives the new expected value no reason. An argument added
 * to switch a refusal off (a new escape hatch, `{lenient: true}`) leaves the
 * refusal checked nowhere.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const deletion = (path: string, test: string): string => `test_deletion/critical ${path} "${test}"`;
const removal = (path: string, test: string): string => `assertion_removal/high ${path} "${test}"`;

// (a) the product change is not a change of the callee: a comment, another function, a dependency bump.
const CLAMP_JS = "export const clamp = (level, low, high) => Math.max(low, Math.min(high, level));\n\nexport const wrap = (level, size) => level % size;\n";
const JEST_HEAD = "import {clamp} from '../src/levels.js';\n\ntest('inside', () => {\n\texpect(clamp(3, 1, 6)).toBe(3);\n});\n\n";
const JEST_BEFORE = `${JEST_HEAD}test('clamped high', () => {\n\texpect(clamp(9, 2, 4)).toEqual(4);\n});\n`;
const JEST_AFTER = `${JEST_HEAD}test('strict mode keeps the level below its bound', () => {\n\texpect(clamp(9, 2, 4, {strict: true})).toEqual(3);\n});\n`;
const JEST = "test/levels.test.js";

const CLAMP_PY = "def clamp(level, low, high, **options):\n    return max(low, min(high, level))\n\n\ndef wrap(level, size):\n    return level % size\n";
const PY_HEAD = "from pkg.levels import clamp\n\n\ndef test_inside():\n    assert clamp(3, 1, 6) == 3\n\n\n";
const PY_BEFORE = `${PY_HEAD}def test_clamped_high():\n    assert clamp(9, 2, 4) == 4\n    assert clamp(9, 2, 4) > 1\n`;
const PY_AFTER = `${PY_HEAD}def test_above_the_bound_is_one_below():\n    assert clamp(9, 2, 4, strict=True) == 3\n    assert clamp(9, 2, 4) > 1\n`;
const PY = "tests/test_levels.py";

const CLAMP_GO =
  "package levels\n\ntype Option int\n\nfunc Clamp(level, low, high int, options ...Option) int {\n\tif level > high {\n\t\treturn high\n\t}\n\tif level < low {\n\t\treturn low\n\t}\n\treturn level\n}\n\nfunc Wrap(level, size int) int {\n\treturn level % size\n}\n";
const GO_HEAD = 'package levels\n\nimport (\n\t"testing"\n\n\t"github.com/stretchr/testify/assert"\n)\n\nfunc TestInside(t *testing.T) {\n\tassert.Equal(t, 3, Clamp(3, 1, 6))\n}\n\n';
const GO_BEFORE = `${GO_HEAD}func TestClampedHigh(t *testing.T) {\n\tassert.Equal(t, 4, Clamp(9, 2, 4))\n}\n`;
const GO_AFTER = `${GO_HEAD}func TestAboveTheBoundIsOneBelow(t *testing.T) {\n\tassert.Equal(t, 3, Clamp(9, 2, 4, Strict))\n}\n`;

const JAVA_PROD =
  "package levels;\n\nclass Levels {\n  static int clamp(int level, int low, int high) {\n    return clamp(level, low, high, false);\n  }\n\n  static int clamp(int level, int low, int high, boolean strict) {\n    return Math.max(low, Math.min(high, level));\n  }\n\n  static int wrap(int level, int size) {\n    return level % size;\n  }\n}\n";
const JAVA_HEAD =
  "package levels;\n\nimport static org.junit.jupiter.api.Assertions.assertEquals;\n\nimport org.junit.jupiter.api.Test;\n\nclass LevelsTest {\n  @Test\n  void inside() {\n    assertEquals(3, Levels.clamp(3, 1, 6));\n  }\n\n";
const JAVA_BEFORE = `${JAVA_HEAD}  @Test\n  void clampedHigh() {\n    assertEquals(4, Levels.clamp(9, 2, 4));\n  }\n}\n`;
const JAVA_AFTER = `${JAVA_HEAD}  @Test\n  void aboveTheBoundIsOneBelow() {\n    assertEquals(3, Levels.clamp(9, 2, 4, true));\n  }\n}\n`;
const JAVA = "src/test/java/levels/LevelsTest.java";

const unrelated: RuleCase[] = [
  {
    name: "jest: only a comment added to the callee's file",
    changes: [change("src/levels.js", CLAMP_JS, `// levels helpers\n${CLAMP_JS}`), change(JEST, JEST_BEFORE, JEST_AFTER)],
    findings: [deletion(JEST, "clamped high")],
  },
  {
    name: "jest: only another function of the callee's file changed (wrap)",
    changes: [change("src/levels.js", CLAMP_JS, CLAMP_JS.replace("level % size", "((level % size) + size) % size")), change(JEST, JEST_BEFORE, JEST_AFTER)],
    findings: [deletion(JEST, "clamped high")],
  },
  {
    name: "jest: only a devDependency bumped in package.json",
    changes: [
      change("package.json", '{\n  "name": "levels",\n  "devDependencies": { "jest": "^29.6.0" }\n}\n', '{\n  "name": "levels",\n  "devDependencies": { "jest": "^29.7.0" }\n}\n'),
      change(JEST, JEST_BEFORE, JEST_AFTER),
    ],
    findings: [deletion(JEST, "clamped high")],
  },
  {
    name: "pytest: only another function of the module changed",
    changes: [change("pkg/levels.py", CLAMP_PY, CLAMP_PY.replace("level % size", "(level % size + size) % size")), change(PY, PY_BEFORE, PY_AFTER)],
    findings: [removal(PY, "test_clamped_high")],
  },
  {
    name: "pytest: only a requirements pin changed",
    changes: [change("requirements-dev.txt", "pytest==8.0.0\n", "pytest==8.1.0\n"), change(PY, PY_BEFORE, PY_AFTER)],
    findings: [removal(PY, "test_clamped_high")],
  },
  {
    name: "go: only another function of the package file changed",
    changes: [change("levels.go", CLAMP_GO, CLAMP_GO.replace("return level % size", "return (level%size + size) % size")), change("levels_test.go", GO_BEFORE, GO_AFTER)],
    findings: [deletion("levels_test.go", "TestClampedHigh")],
  },
  {
    name: "go: only go.mod touched",
    changes: [
      change("go.mod", "module levels\n\ngo 1.21\n\nrequire github.com/stretchr/testify v1.8.4\n", "module levels\n\ngo 1.21\n\nrequire github.com/stretchr/testify v1.9.0\n"),
      change("levels_test.go", GO_BEFORE, GO_AFTER),
    ],
    findings: [deletion("levels_test.go", "TestClampedHigh")],
  },
  {
    name: "java: only another method of the class changed",
    changes: [change("src/main/java/levels/Levels.java", JAVA_PROD, JAVA_PROD.replace("return level % size;", "return Math.floorMod(level, size);")), change(JAVA, JAVA_BEFORE, JAVA_AFTER)],
    findings: [deletion(JAVA, "LevelsTest > clampedHigh")],
  },
];

// (b) the added argument is a new escape hatch: the default-mode refusal is no longer checked anywhere.
const VAL_BEFORE = "export const isValidEmail = (text) => /^[^@\\s]+@[^@\\s]+\\.[a-z]+$/.test(text);\n";
const VAL_AFTER = "export const isValidEmail = (text, {lenient = false} = {}) => lenient || /^[^@\\s]+@[^@\\s]+\\.[a-z]+$/.test(text);\n";
const VJ_HEAD = "import {isValidEmail} from '../src/email.js';\n\ntest('accepts a plain address', () => {\n\texpect(isValidEmail('a@b.io')).toBe(true);\n});\n\n";
const VPY_BEFORE = "import re\n\n\ndef is_valid_email(text):\n    return re.match(r'^[^@\\s]+@[^@\\s]+\\.[a-z]+$', text) is not None\n";
const VPY_AFTER = "import re\n\n\ndef is_valid_email(text, lenient=False):\n    return lenient or re.match(r'^[^@\\s]+@[^@\\s]+\\.[a-z]+$', text) is not None\n";
const VPY_HEAD = "from app.email import is_valid_email\n\n\ndef test_accepts_plain():\n    assert is_valid_email('a@b.io') is True\n\n\n";
const hatch: RuleCase[] = [
  {
    name: "jest: refusal test retitled, the same call given a new lenient flag, now expecting acceptance",
    changes: [
      change("src/email.js", VAL_BEFORE, VAL_AFTER),
      change(
        "test/email.test.js",
        `${VJ_HEAD}test('rejects an address without a domain', () => {\n\texpect(isValidEmail('a@')).toBe(false);\n});\n`,
        `${VJ_HEAD}test('lenient mode accepts partial addresses', () => {\n\texpect(isValidEmail('a@', {lenient: true})).toBe(true);\n});\n`,
      ),
    ],
    findings: [deletion("test/email.test.js", "rejects an address without a domain")],
  },
  {
    name: "pytest: refusal test retitled, lenient=True added, now expecting acceptance",
    changes: [
      change("app/email.py", VPY_BEFORE, VPY_AFTER),
      change(
        "tests/test_email.py",
        `${VPY_HEAD}def test_rejects_missing_domain():\n    assert is_valid_email('a@') is False\n`,
        `${VPY_HEAD}def test_lenient_accepts_partial():\n    assert is_valid_email('a@', lenient=True) is True\n`,
      ),
    ],
    findings: [deletion("tests/test_email.py", "test_rejects_missing_domain")],
  },
];
describe("re-expected on the same call: the callee not rewritten, or the refusal switched off", () => {
  it.each(unrelated)("$name", async (rule) => {
    await expectFindings(rule);
  });
  it.each(hatch)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
