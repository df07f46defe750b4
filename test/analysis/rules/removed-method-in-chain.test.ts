/**
 * A deleted test that configured its local through a fluent chain holding a
 * method the change removed (`validator.Transform(f).Equal("x")`, then a
 * check of `validator.Validate(…)`) went with that method, as one calling
 * it as the chain's last link does (parsers/tree-sitter-subjects.ts
 * noteSetter; sweep of FluentValidation 6c0e705f "Remove deprecated
 * Transform methods": 9 tests read as critical deletions). The same test
 * deleted while the method stays is still a deletion.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

interface Shape {
  lang: string;
  product: string;
  source: (transform: boolean) => string;
  test: string;
  tests: (transformTest: boolean) => string;
  id: string;
  /** Whether removing a public method is itself a feature_removal of the product file (Python's are not read as exports). */
  methodsExported?: false;
}

const shapes: Shape[] = [
  {
    lang: "c#",
    product: "src/Validator.cs",
    source: (t) =>
      `public class Validator {\n${t ? "  public Validator Transform(int n) { return this; }\n" : ""}  public Validator Rule() { return this; }\n  public bool IsValid() { return true; }\n}\n`,
    test: "tests/ValidatorTests.cs",
    tests: (t) =>
      `using Xunit;\npublic class ValidatorTests {\n  [Fact]\n  public void Valid() {\n    var v = new Validator();\n    Assert.True(v.IsValid());\n  }\n${t ? "  [Fact]\n  public void Transforms() {\n    var v = new Validator();\n    v.Transform(2).Rule();\n    Assert.True(v.IsValid());\n  }\n" : ""}}\n`,
    id: "ValidatorTests > Transforms",
  },
  {
    lang: "java",
    product: "src/main/java/Validator.java",
    source: (t) =>
      `public class Validator {\n${t ? "  public Validator transform(int n) { return this; }\n" : ""}  public Validator rule() { return this; }\n  public boolean isValid() { return true; }\n}\n`,
    test: "src/test/java/ValidatorTest.java",
    tests: (t) =>
      `import org.junit.jupiter.api.Test;\nimport static org.junit.jupiter.api.Assertions.*;\nclass ValidatorTest {\n  @Test\n  void valid() {\n    Validator v = new Validator();\n    assertTrue(v.isValid());\n  }\n${t ? "  @Test\n  void transforms() {\n    Validator v = new Validator();\n    v.transform(2).rule();\n    assertTrue(v.isValid());\n  }\n" : ""}}\n`,
    id: "ValidatorTest > transforms",
  },
  {
    lang: "python",
    product: "pkg/validator.py",
    source: (t) => `class Validator:\n${t ? "    def transform(self, n):\n        return self\n\n" : ""}    def rule(self):\n        return self\n\n    def is_valid(self):\n        return True\n`,
    test: "tests/test_validator.py",
    tests: (t) =>
      `from pkg.validator import Validator\n\n\ndef test_valid():\n    v = Validator()\n    assert v.is_valid()\n${t ? "\n\ndef test_transforms():\n    v = Validator()\n    v.transform(2).rule()\n    assert v.is_valid()\n" : ""}`,
    id: "test_transforms",
    methodsExported: false,
  },
  {
    lang: "php",
    product: "src/Validator.php",
    source: (t) =>
      `<?php\nclass Validator {\n${t ? "  public function transform(int $n): self { return $this; }\n" : ""}  public function rule(): self { return $this; }\n  public function isValid(): bool { return true; }\n}\n`,
    test: "tests/ValidatorTest.php",
    tests: (t) =>
      `<?php\nuse PHPUnit\\Framework\\TestCase;\nclass ValidatorTest extends TestCase {\n  public function testValid(): void {\n    $v = new Validator();\n    $this->assertTrue($v->isValid());\n  }\n${t ? "  public function testTransforms(): void {\n    $v = new Validator();\n    $v->transform(2)->rule();\n    $this->assertTrue($v->isValid());\n  }\n" : ""}}\n`,
    id: "ValidatorTest > testTransforms",
  },
];

const cases: RuleCase[] = shapes.flatMap((shape) => [
  {
    name: `${shape.lang}: the test configuring its local through the removed method deleted with it`,
    changes: [change(shape.product, shape.source(true), shape.source(false)), change(shape.test, shape.tests(true), shape.tests(false))],
    findings: [...(shape.methodsExported === false ? [] : [`feature_removal/medium ${shape.product}`]), `feature_removal/medium ${shape.test} "${shape.id}"`],
  },
  {
    name: `cheat: ${shape.lang}: the same test deleted while the method stays`,
    changes: [change(shape.test, shape.tests(true), shape.tests(false))],
    findings: [`test_deletion/critical ${shape.test} "${shape.id}"`],
  },
]);

describe("a test deleted with a removed method of a fluent chain", () => {
  it.each(cases)("$name", async (rule) => {
    await expectFindings(rule);
  });
});
