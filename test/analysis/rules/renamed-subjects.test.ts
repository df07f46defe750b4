/**
 * A check of a product function the change renames, made again with the
 * new name, is the same check (product-renames.ts; sweep of
 * apache/commons-codec 868af384: `Base64.toIntegerBytes` moved to
 * `BaseNCodec.toUnsignedBytes`, its caller's line swapping the name, and
 * the renamed test class's 17 checks read as made nowhere). The rename must
 * be one a non-test line of the change makes; a check that checks less
 * under the new name is still a finding.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

const base64 = (helper: boolean, call: string): string =>
  `package codec;\n\nimport java.math.BigInteger;\n\npublic class Base64 {\n  public static byte[] encodeInteger(BigInteger b) {\n    return encodeBase64(${call}(b));\n  }\n${helper ? "\n  static byte[] toIntegerBytes(BigInteger b) {\n    return b.toByteArray();\n  }\n" : ""}}\n`;
const baseN = (helper: boolean): string =>
  `package codec;\n\nimport java.math.BigInteger;\n\npublic abstract class BaseNCodec {\n${helper ? "  static byte[] toUnsignedBytes(BigInteger value) {\n    return value.equals(BigInteger.ZERO) ? new byte[0] : value.toByteArray();\n  }\n" : ""}}\n`;
const javaTest = (cls: string, call: string, checks: string): string =>
  `package codec;\n\nimport java.math.BigInteger;\nimport org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\n\nclass ${cls} {\n  @Test\n  void testBigIntegerWithDecimalString() {\n    final BigInteger decimal = new BigInteger("12345");\n    final byte[] result = ${call}(decimal);\n${checks}  }\n}\n`;
const CHECKS = "    assertNotNull(result);\n    assertEquals(2, result.length);\n";
const javaRename = (after: { checks: string; caller?: string }): RuleCase["changes"] => [
  change("src/main/java/codec/Base64.java", base64(true, "toIntegerBytes"), base64(false, after.caller ?? "toUnsignedBytes")),
  change("src/main/java/codec/BaseNCodec.java", baseN(false), baseN(true)),
  change("src/test/java/codec/Base64ToIntegerBytesTest.java", javaTest("Base64ToIntegerBytesTest", "Base64.toIntegerBytes", CHECKS), null),
  change("src/test/java/codec/BaseNCodecToIntegerBytesTest.java", null, javaTest("BaseNCodecToIntegerBytesTest", "BaseNCodec.toUnsignedBytes", after.checks)),
];

const pyProduct = (name: string, caller: string): string => `def ${name}(n):\n    return n.to_bytes((n.bit_length() + 7) // 8, "big")\n\n\ndef encode_integer(n):\n    return encode(${caller}(n))\n`;
const pyTest = (name: string, checks: string): string => `from codec import ${name}\n\n\ndef test_decimal():\n    result = ${name}(12345)\n${checks}`;
const PY_CHECKS = `    assert result == b"09"\n    assert len(result) == 2\n`;

const cases: RuleCase[] = [
  { name: "java: a static helper moved and renamed, the test class renamed with it", changes: javaRename({ checks: CHECKS }), findings: [] },
  {
    name: "python: a function renamed, the test following in place",
    changes: [
      change("codec/__init__.py", pyProduct("to_integer_bytes", "to_integer_bytes"), pyProduct("to_unsigned_bytes", "to_unsigned_bytes")),
      change("tests/test_codec.py", pyTest("to_integer_bytes", PY_CHECKS), pyTest("to_unsigned_bytes", PY_CHECKS)),
    ],
    findings: [],
  },
  {
    name: "cheat: java: renamed, and a check dropped on the way",
    changes: javaRename({ checks: "    assertNotNull(result);\n" }),
    findings: [`assertion_removal/high src/test/java/codec/BaseNCodecToIntegerBytesTest.java "Base64ToIntegerBytesTest > testBigIntegerWithDecimalString"`],
  },
  {
    name: "cheat: python: renamed, and the equality weakened to a length check",
    changes: [
      change("codec/__init__.py", pyProduct("to_integer_bytes", "to_integer_bytes"), pyProduct("to_unsigned_bytes", "to_unsigned_bytes")),
      change("tests/test_codec.py", pyTest("to_integer_bytes", PY_CHECKS), pyTest("to_unsigned_bytes", `    assert len(result) == 2\n`)),
    ],
    findings: [`assertion_removal/high tests/test_codec.py "test_decimal"`],
  },
];

describe("a check of a renamed product function made with its new name", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
