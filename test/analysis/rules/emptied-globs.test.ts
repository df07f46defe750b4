/**
 * Issue 9 (breaker3's py-vacuous-loop-glob-in-helper and its variants): a
 * data-driven test's case pattern edited so that it finds no file of the
 * tree makes its loop run zero times. Each language's idiom, the cheat (the
 * pattern finds nothing) beside the look-alikes (a pattern that still finds
 * the cases; the cases renamed with the pattern).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { globMatchCount, pathGlobsOf } from "../../../src/analysis/emptied-globs.js";
import { changesBetween, treeOf, unchangedBetween } from "../../helpers/trees.js";
import picomatch from "picomatch";

interface Shape {
  id: string;
  /** The file holding the pattern. */
  path: string;
  /** Its text with `PATTERN` where the glob goes. */
  source: string;
  /** The case files of the tree. */
  cases: string[];
  was: string;
  /** A pattern that finds no case file. */
  emptied: string;
  /** A pattern that still finds them. */
  kept: string;
}

const SHAPES: Shape[] = [
  {
    id: "Python Path.glob in a helper",
    path: "tests/helpers.py",
    source: 'from pathlib import Path\n\nCASES = Path(__file__).parent / "cases"\n\n\ndef cases():\n    return sorted(CASES.glob("PATTERN"))\n',
    cases: ["tests/cases/inline.md", "tests/cases/lists.md"],
    was: "*.md",
    emptied: "*.markdown",
    kept: "**/*.md",
  },
  {
    id: "Go filepath.Glob over testdata",
    path: "render_test.go",
    source:
      'package render\n\nimport (\n\t"path/filepath"\n\t"testing"\n)\n\nfunc TestGolden(t *testing.T) {\n\tfiles, _ := filepath.Glob("PATTERN")\n\tfor _, f := range files {\n\t\tif got := Render(f); got == "" {\n\t\t\tt.Errorf("%s: empty", f)\n\t\t}\n\t}\n}\n',
    cases: ["testdata/inline.golden", "testdata/lists.golden"],
    was: "testdata/*.golden",
    emptied: "testdata/*.gold",
    kept: "testdata/*",
  },
  {
    id: "Ruby Dir[] in a spec",
    path: "spec/render_spec.rb",
    source: 'RSpec.describe Render do\n  Dir["PATTERN"].each do |file|\n    it "renders #{file}" do\n      expect(Render.call(File.read(file))).not_to be_empty\n    end\n  end\nend\n',
    cases: ["spec/fixtures/inline.yml", "spec/fixtures/lists.yml"],
    was: "spec/fixtures/*.yml",
    emptied: "spec/fixtures/*.yaml",
    kept: "spec/fixtures/*.{yml,yaml}",
  },
  {
    id: "PHP glob in a data provider",
    path: "tests/RenderTest.php",
    source:
      "<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class RenderTest extends TestCase\n{\n    public static function cases(): iterable\n    {\n        foreach (glob(__DIR__ . '/PATTERN') as $file) {\n            yield basename($file) => [$file];\n        }\n    }\n}\n",
    cases: ["tests/cases/inline.json", "tests/cases/lists.json"],
    was: "cases/*.json",
    emptied: "cases/*.jsonc",
    kept: "cases/*.json*",
  },
  {
    id: "JS fast-glob in a test",
    path: "test/render.test.js",
    source:
      'import fg from "fast-glob";\nimport { render } from "../src/render.js";\n\nfor (const file of fg.sync("PATTERN")) {\n  test(`renders ${file}`, () => {\n    expect(render(file)).not.toBe("");\n  });\n}\n',
    cases: ["test/cases/inline.txt", "test/cases/lists.txt"],
    was: "test/cases/**/*.txt",
    emptied: "test/cases/**/*.text",
    kept: "test/**/*.txt",
  },
];

const PRODUCT = { "src/render.txt": "the product\n" };

function treeWith(shape: Shape, pattern: string, cases: readonly string[]): Record<string, string> {
  return { ...PRODUCT, [shape.path]: shape.source.replace("PATTERN", pattern), ...Object.fromEntries(cases.map((path) => [path, "case\n"])) };
}

async function blockingOf(before: Record<string, string>, after: Record<string, string>): Promise<string[]> {
  const analysis = await analyzeChanges(changesBetween(before, after), { trees: { before: treeOf(before), after: treeOf(after) }, unchanged: unchangedBetween(before, after) });
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map((finding) => `${finding.type}/${finding.severity} ${finding.file}`);
}

describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("a case pattern that finds no file: %s", (_, shape) => {
  const before = treeWith(shape, shape.was, shape.cases);

  it("the pattern edited to find nothing: assertion_removal high on its file", async () => {
    expect(await blockingOf(before, treeWith(shape, shape.emptied, shape.cases))).toEqual([`assertion_removal/high ${shape.path}`]);
  });

  it("a pattern that still finds the cases: nothing blocks", async () => {
    expect(await blockingOf(before, treeWith(shape, shape.kept, shape.cases))).toEqual([]);
  });

  it("the cases renamed with the pattern: nothing blocks", async () => {
    const renamed = shape.cases.map((path) => path.replace(/\.[^./]+$/, `.${shape.emptied.split(".").pop() ?? ""}`));
    expect(await blockingOf(before, treeWith(shape, shape.emptied, renamed))).toEqual([]);
  });
});

describe("pathGlobsOf and globMatchCount", () => {
  it("reads path-shaped globs only", () => {
    expect([...pathGlobsOf('a = "*.md"; b = "hello world*"; c = "^a*b$"; d = "cases/**/*.json"; e = "x*y"')]).toEqual(["*.md", "cases/**/*.json"]);
  });

  it("matches file names anywhere below the root, and whole paths", () => {
    const paths = ["tests/cases/a.md", "docs/b.txt"];
    expect(globMatchCount(picomatch, "*.md", paths)).toBe(1);
    expect(globMatchCount(picomatch, "cases/*.md", paths)).toBe(1);
    expect(globMatchCount(picomatch, "*.markdown", paths)).toBe(0);
  });
});
