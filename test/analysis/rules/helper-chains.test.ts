/**
 * An assertion moved from a test helper into the helper's own helper stays
 * the test's (tree-sitter languages; JavaScript: javascript-assertions): a
 * helper that calls a helper which asserts checks what that one checks,
 * transitively. The shape of ralph's own test/cli/errors.test.ts (an
 * `expect` moved from placeFor into repoTemplate). The nearest cheat, the
 * assertion dropped on the way, is still an assertion_removal.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

interface Shape {
  id: string;
  path: string;
  test: string;
  /** The helper asserting itself. */
  direct: string;
  /** The assertion moved into the helper's helper. */
  chained: string;
  /** The helper's helper without the assertion. */
  dropped: string;
}

const PY_TEST = "\n\ndef test_uses_the_place():\n    place = place_for()\n    assert place.size == 3\n";
const GO_TEST = '\nfunc TestUsesThePlace(t *testing.T) {\n\tplace := placeFor(t)\n\tif place.Size != 3 {\n\t\tt.Errorf("size %d", place.Size)\n\t}\n}\n';
const GO_HEAD = 'package app\n\nimport "testing"\n\n';
const RS_TEST = "\n#[test]\nfn uses_the_place() {\n    let place = place_for();\n    assert_eq!(place.size, 3);\n}\n";

const TS_HEAD = 'import { expect, it } from "vitest";\nimport { build, copy } from "../src/app";\n\n';
const TS_TEST = '\nit("uses the place", () => {\n  const place = placeFor();\n  expect(place.size).toBe(3);\n});\n';

const SHAPES: Shape[] = [
  {
    id: "typescript",
    path: "test/place.test.ts",
    test: TS_TEST,
    direct: `${TS_HEAD}function placeFor() {\n  const made = build();\n  expect(made.kind).toBe("repo");\n  return copy(made);\n}\n`,
    chained: `${TS_HEAD}function template() {\n  const made = build();\n  expect(made.kind).toBe("repo");\n  return made;\n}\n\nfunction placeFor() {\n  return copy(template());\n}\n`,
    dropped: `${TS_HEAD}function template() {\n  const made = build();\n  return made;\n}\n\nfunction placeFor() {\n  return copy(template());\n}\n`,
  },
  {
    id: "python",
    path: "tests/test_place.py",
    test: PY_TEST,
    direct: 'from app import build, copy\n\n\ndef place_for():\n    made = build()\n    assert made.kind == "repo"\n    return copy(made)\n',
    chained: 'from app import build, copy\n\n\ndef template():\n    made = build()\n    assert made.kind == "repo"\n    return made\n\n\ndef place_for():\n    return copy(template())\n',
    dropped: "from app import build, copy\n\n\ndef template():\n    made = build()\n    return made\n\n\ndef place_for():\n    return copy(template())\n",
  },
  {
    id: "go",
    path: "app/place_test.go",
    test: GO_TEST,
    direct: `${GO_HEAD}func placeFor(t *testing.T) *Thing {\n\tmade := Build()\n\tif made.Kind != "repo" {\n\t\tt.Fatalf("build failed")\n\t}\n\treturn Copy(made)\n}\n`,
    chained: `${GO_HEAD}func template(t *testing.T) *Thing {\n\tmade := Build()\n\tif made.Kind != "repo" {\n\t\tt.Fatalf("build failed")\n\t}\n\treturn made\n}\n\nfunc placeFor(t *testing.T) *Thing {\n\treturn Copy(template(t))\n}\n`,
    dropped: `${GO_HEAD}func template(t *testing.T) *Thing {\n\tmade := Build()\n\treturn made\n}\n\nfunc placeFor(t *testing.T) *Thing {\n\treturn Copy(template(t))\n}\n`,
  },
  {
    id: "rust",
    path: "tests/place.rs",
    test: RS_TEST,
    direct: 'use app::{build, copy, Thing};\n\nfn place_for() -> Thing {\n    let made = build();\n    assert_eq!(made.kind, "repo");\n    copy(made)\n}\n',
    chained:
      'use app::{build, copy, Thing};\n\nfn template() -> Thing {\n    let made = build();\n    assert_eq!(made.kind, "repo");\n    made\n}\n\nfn place_for() -> Thing {\n    copy(template())\n}\n',
    dropped: "use app::{build, copy, Thing};\n\nfn template() -> Thing {\n    let made = build();\n    made\n}\n\nfn place_for() -> Thing {\n    copy(template())\n}\n",
  },
];

const TEST_NAMES: Record<string, string> = { typescript: "uses the place", python: "test_uses_the_place", go: "TestUsesThePlace", rust: "uses_the_place" };

describe.each(SHAPES)("$id: an assertion moved into a helper's helper", (shape) => {
  it("is still the test's (no finding)", async () => {
    const rule: RuleCase = { name: shape.id, changes: [change(shape.path, shape.direct + shape.test, shape.chained + shape.test)], findings: [] };
    await expectFindings(rule);
  });

  it("dropped on the way, is an assertion_removal", async () => {
    const rule: RuleCase = {
      name: shape.id,
      changes: [change(shape.path, shape.direct + shape.test, shape.dropped + shape.test)],
      findings: [`assertion_removal/high ${shape.path} "${TEST_NAMES[shape.id] as string}"`],
    };
    await expectFindings(rule);
  });
});
