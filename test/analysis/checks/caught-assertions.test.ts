/**
 * Assertions guarded by a handler that catches the framework's failure and swallows it (checks/error-checks.ts,
 * issue 9 class assertion-error-caught): they can never fail, so they read as tautologies; a handler that
 * re-raises, asserts or keeps what it caught, or catches something else, leaves them as they are.
 */
import { describe, expect, it } from "vitest";
import { extractFacts } from "../../../src/analysis/index.js";

async function strengths(path: string, source: string): Promise<number[]> {
  const facts = await extractFacts(path, source);
  return (facts.tests ?? []).flatMap((test) => (test.assertionsDetail ?? []).map((fact) => fact.strength));
}

const python = (handler: string, caught = "AssertionError"): string => `def test_value():\n    value = f(1)\n    try:\n        assert value == 65.0\n    except ${caught} as e:\n        ${handler}\n`;

describe("an assertion whose failure is caught", () => {
  it.each([
    ["Python, logged", "tests/test_a.py", python('log.warning("drift %s", e)'), [0]],
    ["Python, passed over", "tests/test_a.py", python("pass"), [0]],
    ["Python, except Exception", "tests/test_a.py", python("print(e)", "Exception"), [0]],
    [
      "Java, catch (AssertionError)",
      "src/test/java/ATest.java",
      `class ATest {\n  @Test\n  void a() {\n    try {\n      assertEquals(1, f());\n    } catch (AssertionError e) {\n      System.err.println(e.getMessage());\n    }\n  }\n}\n`,
      [0],
    ],
    [
      "C#, catch (XunitException)",
      "tests/ATests.cs",
      `public class ATests {\n  [Fact]\n  public void A() {\n    try { Assert.Equal(1, F()); }\n    catch (XunitException e) { output.WriteLine(e.Message); }\n  }\n}\n`,
      [0],
    ],
    [
      "Ruby, rescue Minitest::Assertion",
      "test/a_test.rb",
      `class ATest < Minitest::Test\n  def test_a\n    assert_equal 1, f\n  rescue Minitest::Assertion => e\n    warn e.message\n  end\nend\n`,
      [0],
    ],
  ])("%s: a tautology", async (_, path, source, expected) => {
    expect(await strengths(path, source)).toEqual(expected);
  });

  it.each([
    ["re-raised", python("raise")],
    ["re-raised with context", python('raise AssertionError(f"row 1: {e}") from e')],
    ["kept for a later check", python("failures.append(e)")],
    ["another error caught", python("value = 0", "KeyError")],
    ["a failure in the handler", python('pytest.fail(f"drift {e}")')],
  ])("Python, %s: still a check", async (_, source) => {
    expect((await strengths("tests/test_a.py", source)).every((strength) => strength > 0)).toBe(true);
  });

  it("Java, catch (Exception) does not catch AssertionError", async () => {
    const source = `class ATest {\n  @Test\n  void a() {\n    try {\n      assertEquals(1, f());\n    } catch (Exception e) {\n      System.err.println(e);\n    }\n  }\n}\n`;
    expect(await strengths("src/test/java/ATest.java", source)).toEqual([3]);
  });

  it("Java, rethrown: still a check", async () => {
    const source = `class ATest {\n  @Test\n  void a() {\n    try {\n      assertEquals(1, f());\n    } catch (AssertionError e) {\n      log(e);\n      throw e;\n    }\n  }\n}\n`;
    expect(await strengths("src/test/java/ATest.java", source)).toEqual([3]);
  });

  const rust = (wrapped: string): string => `#[cfg(test)]\nmod tests {\n    #[test]\n    fn short_form() {\n        ${wrapped}\n    }\n}\n`;

  it.each([
    ["let _ =", rust("let _ = std::panic::catch_unwind(|| {\n            assert_eq!(parse(1), Ok(2));\n        });")],
    ["a statement, AssertUnwindSafe", rust("std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| { assert_eq!(parse(1), Ok(2)); })).ok();")],
  ])("Rust, catch_unwind result discarded (%s): a tautology", async (_, source) => {
    expect(await strengths("src/lib.rs", source)).toEqual([0]);
  });

  it("Rust, catch_unwind result read (a test that it panics): still checks", async () => {
    const source = rust("let result = std::panic::catch_unwind(|| { assert_eq!(parse(1), Ok(2)); });\n        assert!(result.is_err());");
    expect(await strengths("src/lib.rs", source)).toEqual([3, 1]);
  });
});
