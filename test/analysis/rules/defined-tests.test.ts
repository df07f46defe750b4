/**
 * Tests defined through a project's own function (analysis/defined-tests.ts):
 * a test moved from `it "x" do` / `test("x", fn)` under a spec helper's
 * `deprecated "x" do` or a test module's `deprecated("x", fn)`, which
 * declares a test with the caller's title and runs the caller's body, keeps
 * every check (the sweep of jeremyevans/roda 345a7c51ed and 3 more). The
 * shapes: node:test with an imported definer, Jest with the file's own
 * definer, Mocha with `title + "…"` and `fn.call(this)`, ava with an arrow
 * definer, minitest-spec's `class Minitest::Spec; def self.deprecated` in
 * spec_helper.rb, an RSpec module method loaded through spec_helper.rb, and
 * a spec file's own `def self.legacy(desc) it(desc) { yield } end`. The
 * nearest cheats: the definer runs the body under a `catch`/`rescue`, under
 * a condition, or not at all, or declares a skipped test, and a shared
 * definer hollowed while the tests calling it stay as they were.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, type UnchangedFiles } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

interface Shape {
  id: string;
  /** The test file. */
  path: string;
  /** The file defining the function, when it is not the test file. */
  helperPath?: string;
  /** The test file before: the test declared directly. */
  before: string;
  /** The test file after: the test through the function (with the function itself when the file defines it). */
  after: (definer: string) => string;
  /** The helper file's text around the definer (when the test file does not define it). */
  helper?: (definer: string) => string;
  /** Other unchanged files (a spec_helper loading the helper). */
  others?: Record<string, string>;
  /** The definer as the project writes it. */
  definer: string;
  /** Rewrites of the definer, the nearest cheats: its body swallowed, run under a condition, dropped; its test skipped. */
  swallowed: string;
  conditional: string;
  dropped: string;
  skipped: string;
  /** The id findings give the test before. */
  test: string;
}

const NODE_TEST_BEFORE = `import { equal } from "node:assert";
import { test } from "node:test";
import { legacyKey } from "../src/stamp.js";

test("keeps the legacy colon form", () => {
  equal(legacyKey("a/b", 3), "a/b:3");
});
`;

const JEST_BEFORE = `import { legacyKey } from "../src/stamp";

describe("stamp", () => {
  it("keeps the legacy colon form", () => {
    expect(legacyKey("a/b", 3)).toBe("a/b:3");
  });
});
`;

const MOCHA_BEFORE = `const assert = require("assert");
const { legacyKey } = require("../src/stamp");

describe("stamp", function () {
  it("keeps the legacy colon form", function () {
    assert.strictEqual(legacyKey("a/b", 3), "a/b:3");
  });
});
`;

const AVA_BEFORE = `import test from "ava";
import { legacyKey } from "../source/stamp.js";

test("keeps the legacy colon form", (t) => {
  t.is(legacyKey("a/b", 3), "a/b:3");
});
`;

/** A definer declaring one test per element of the list it is given, whose test runs the caller's body as `run`. */
const PER_ENGINE = (runs: string): string => `export const perEngine = (title, engines, run) => {
  for (const engine of engines) {
    test.serial(\`\${engine} - \${title}\`, async (t) => {
      t.timeout(1000);
${runs}
    });
  }
};
`;

const MINITEST_BEFORE = `require_relative "spec_helper"

describe "Stamp" do
  it "keeps the legacy colon form" do
    Stamp.legacy_key("a/b", 3).must_equal "a/b:3"
  end
end
`;

const RSPEC_BEFORE = `require "spec_helper"

RSpec.describe Stamp do
  it "keeps the legacy colon form" do
    expect(Stamp.legacy_key("a/b", 3)).to eq("a/b:3")
  end
end
`;

const SHAPES: Shape[] = [
  {
    id: "node:test, definer imported from a test module",
    path: "test/stamp.test.js",
    helperPath: "test/helpers.js",
    before: NODE_TEST_BEFORE,
    after: () =>
      NODE_TEST_BEFORE.replace('import { legacyKey } from "../src/stamp.js";\n', 'import { legacyKey } from "../src/stamp.js";\nimport { deprecated } from "./helpers.js";\n').replace(
        'test("keeps the legacy colon form"',
        'deprecated("keeps the legacy colon form"',
      ),
    helper: (definer) => `import { test } from "node:test";\nimport { warnings } from "../src/stamp.js";\n\n${definer}`,
    definer: `export function deprecated(title, fn) {
  test(\`\${title} (deprecated)\`, async (t) => {
    warnings.enabled = false;
    try {
      await fn(t);
    } finally {
      warnings.enabled = true;
    }
  });
}
`,
    swallowed: `export function deprecated(title, fn) {
  test(\`\${title} (deprecated)\`, async (t) => {
    try {
      await fn(t);
    } catch {}
  });
}
`,
    conditional: `export function deprecated(title, fn) {
  test(\`\${title} (deprecated)\`, async (t) => {
    if (process.env.LEGACY) await fn(t);
  });
}
`,
    dropped: `export function deprecated(title, fn) {
  test(\`\${title} (deprecated)\`, async () => {});
}
`,
    skipped: `export function deprecated(title, fn) {
  test.skip(\`\${title} (deprecated)\`, fn);
}
`,
    test: "keeps the legacy colon form",
  },
  {
    id: "Jest, the file's own definer",
    path: "test/stamp.test.js",
    before: JEST_BEFORE,
    after: (definer) => `${definer}\n${JEST_BEFORE.replace('  it("keeps the legacy colon form"', '  deprecated("keeps the legacy colon form"')}`,
    definer: `function deprecated(title, fn) {
  it(\`\${title} (deprecated)\`, () => {
    jest.spyOn(console, "warn").mockImplementation(() => {});
    fn();
  });
}
`,
    swallowed: `function deprecated(title, fn) {
  it(\`\${title} (deprecated)\`, () => {
    try {
      fn();
    } catch (error) {
      console.log(error);
    }
  });
}
`,
    conditional: `function deprecated(title, fn) {
  it(\`\${title} (deprecated)\`, () => {
    if (process.env.CI) fn();
  });
}
`,
    dropped: `function deprecated(title, fn) {
  it(\`\${title} (deprecated)\`, () => {});
}
`,
    skipped: `function deprecated(title, fn) {
  it.skip(\`\${title} (deprecated)\`, () => {
    fn();
  });
}
`,
    test: "stamp > keeps the legacy colon form",
  },
  {
    id: "Mocha, a concatenated title and fn.call(this)",
    path: "test/stamp.js",
    before: MOCHA_BEFORE,
    after: (definer) => `${MOCHA_BEFORE.replace('  it("keeps the legacy colon form"', '  legacy("keeps the legacy colon form"')}\n${definer}`,
    definer: `function legacy(title, fn) {
  it(title + " (legacy)", function () {
    return fn.call(this);
  });
}
`,
    swallowed: `function legacy(title, fn) {
  it(title + " (legacy)", function () {
    try {
      return fn.call(this);
    } catch (e) {
      return undefined;
    }
  });
}
`,
    conditional: `function legacy(title, fn) {
  it(title + " (legacy)", function () {
    return process.env.LEGACY && fn.call(this);
  });
}
`,
    dropped: `function legacy(title, fn) {
  it(title + " (legacy)", function () {
    return undefined;
  });
}
`,
    skipped: `function legacy(title, fn) {
  it.skip(title + " (legacy)", function () {
    return fn.call(this);
  });
}
`,
    test: "stamp > keeps the legacy colon form",
  },
  {
    id: "ava, an arrow definer in a shared module",
    path: "test/stamp.js",
    helperPath: "test/_utils.js",
    before: AVA_BEFORE,
    after: () =>
      AVA_BEFORE.replace('import test from "ava";\n', 'import { deprecated } from "./_utils.js";\n').replace('test("keeps the legacy colon form"', 'deprecated("keeps the legacy colon form"'),
    helper: (definer) => `import test from "ava";\n\n${definer}`,
    definer: "export const deprecated = (title, fn) => test(`${title} (deprecated)`, (t) => fn(t));\n",
    swallowed: "export const deprecated = (title, fn) => test(`${title} (deprecated)`, (t) => { try { fn(t); } catch {} });\n",
    conditional: "export const deprecated = (title, fn) => test(`${title} (deprecated)`, (t) => { if (t.title) fn(t); });\n",
    dropped: "export const deprecated = (title, fn) => test(`${title} (deprecated)`, (t) => t.pass());\n",
    skipped: "export const deprecated = (title, fn) => test.skip(`${title} (deprecated)`, (t) => fn(t));\n",
    test: "keeps the legacy colon form",
  },
  {
    id: "ava, a definer declaring the test once per element of a list it is given (ky's browserTest)",
    path: "test/stamp.js",
    helperPath: "test/helpers/engines.js",
    before: AVA_BEFORE,
    after: () =>
      AVA_BEFORE.replace('import test from "ava";\n', 'import { perEngine } from "./helpers/engines.js";\n').replace(
        'test("keeps the legacy colon form", (t) => {',
        'perEngine("keeps the legacy colon form", ["v8", "jsc"], (t) => {',
      ),
    helper: (definer) => `import test from "ava";\n\n${definer}`,
    definer: PER_ENGINE("      await run(t, engine);"),
    swallowed: PER_ENGINE("      try {\n        await run(t, engine);\n      } catch {}"),
    conditional: PER_ENGINE('      if (engine === "v8") await run(t, engine);'),
    dropped: PER_ENGINE("      t.pass();"),
    skipped: PER_ENGINE("      await run(t, engine);").replace("test.serial(", "test.skip("),
    test: "keeps the legacy colon form",
  },
  {
    id: "ava, a definer passing its title and body on to another definer of its module (ky's defaultBrowsersTest)",
    path: "test/stamp.js",
    helperPath: "test/helpers/engines.js",
    before: AVA_BEFORE,
    after: () =>
      AVA_BEFORE.replace('import test from "ava";\n', 'import { everyEngine } from "./helpers/engines.js";\n').replace(
        'test("keeps the legacy colon form", (t) => {',
        'everyEngine("keeps the legacy colon form", (t) => {',
      ),
    helper: (definer) => `import test from "ava";\n\nconst ENGINES = ["v8", "jsc"];\n\n${definer}\nexport const everyEngine = (title, run) => {\n  perEngine(title, ENGINES, run);\n};\n`,
    definer: PER_ENGINE("      await run(t, engine);"),
    swallowed: PER_ENGINE("      try {\n        await run(t, engine);\n      } catch {}"),
    conditional: PER_ENGINE('      if (engine === "v8") await run(t, engine);'),
    dropped: PER_ENGINE("      t.pass();"),
    skipped: PER_ENGINE("      await run(t, engine);").replace("test.serial(", "test.skip("),
    test: "keeps the legacy colon form",
  },
  {
    id: "minitest-spec, a class method of Minitest::Spec in spec_helper.rb",
    path: "spec/stamp_spec.rb",
    helperPath: "spec/spec_helper.rb",
    before: MINITEST_BEFORE,
    after: () => MINITEST_BEFORE.replace('  it "keeps the legacy colon form" do', '  deprecated "keeps the legacy colon form" do'),
    helper: (definer) => `require "minitest/autorun"\n\nclass Minitest::Spec\n${definer}end\n`,
    definer: `  def self.deprecated(a, &block)
    it("#{a} (deprecated)") do
      begin
        $STAMP_WARN = false
        instance_exec(&block)
      ensure
        $STAMP_WARN = true
      end
    end
  end
`,
    swallowed: `  def self.deprecated(a, &block)
    it("#{a} (deprecated)") do
      begin
        instance_exec(&block)
      rescue Minitest::Assertion
        nil
      end
    end
  end
`,
    conditional: `  def self.deprecated(a, &block)
    it("#{a} (deprecated)") do
      instance_exec(&block) if ENV["LEGACY"]
    end
  end
`,
    dropped: `  def self.deprecated(a, &block)
    it("#{a} (deprecated)") do
      pass
    end
  end
`,
    skipped: `  def self.deprecated(a, &block)
    it("#{a} (deprecated)") do
      skip "deprecated"
      instance_exec(&block)
    end
  end
`,
    test: "Stamp > keeps the legacy colon form",
  },
  {
    id: "RSpec, a module method spec_helper.rb loads and extends",
    path: "spec/stamp_spec.rb",
    helperPath: "spec/support/deprecation.rb",
    before: RSPEC_BEFORE,
    after: () => RSPEC_BEFORE.replace('  it "keeps the legacy colon form" do', '  deprecated "keeps the legacy colon form" do'),
    helper: (definer) => `module Deprecation\n${definer}end\n`,
    others: { "spec/spec_helper.rb": 'require_relative "support/deprecation"\n\nRSpec.configure do |config|\n  config.extend Deprecation\nend\n' },
    definer: `  def deprecated(description, &block)
    it("#{description} (deprecated)") do
      allow(Kernel).to receive(:warn)
      instance_exec(&block)
    end
  end
`,
    swallowed: `  def deprecated(description, &block)
    it("#{description} (deprecated)") do
      begin
        instance_exec(&block)
      rescue RSpec::Expectations::ExpectationNotMetError
        nil
      end
    end
  end
`,
    conditional: `  def deprecated(description, &block)
    it("#{description} (deprecated)") do
      instance_exec(&block) unless ENV["CI"]
    end
  end
`,
    dropped: `  def deprecated(description, &block)
    it("#{description} (deprecated)") do
      expect(true).to be(true)
    end
  end
`,
    skipped: `  def deprecated(description, &block)
    xit("#{description} (deprecated)") do
      instance_exec(&block)
    end
  end
`,
    test: "Stamp > keeps the legacy colon form",
  },
  {
    id: "RSpec, the spec file's own `def self.legacy(desc) it(desc) { yield } end`",
    path: "spec/stamp_spec.rb",
    before: RSPEC_BEFORE,
    after: (definer) =>
      RSPEC_BEFORE.replace("RSpec.describe Stamp do\n", `RSpec.describe Stamp do\n${definer}\n`).replace('  it "keeps the legacy colon form" do', '  legacy "keeps the legacy colon form" do'),
    definer: "  def self.legacy(desc)\n    it(desc) { yield }\n  end\n",
    swallowed: "  def self.legacy(desc)\n    it(desc) { yield rescue nil }\n  end\n",
    conditional: "  def self.legacy(desc)\n    it(desc) { yield if ENV['LEGACY'] }\n  end\n",
    dropped: "  def self.legacy(desc)\n    it(desc) { }\n  end\n",
    skipped: "  def self.legacy(desc)\n    xit(desc) { yield }\n  end\n",
    test: "Stamp > keeps the legacy colon form",
  },
];

const unchangedFiles = (files: Record<string, string>): UnchangedFiles => ({ paths: () => Object.keys(files), read: (file) => files[file] ?? null });

/** The analysis of the shape's test moved under its definer written as `definer`, the helper file (if any) unchanged. */
async function moved(shape: Shape, definer: string): Promise<string[]> {
  const others: Record<string, string> = { ...shape.others };
  if (shape.helperPath && shape.helper) others[shape.helperPath] = shape.helper(definer);
  const analysis = await analyzeChanges([change(shape.path, shape.before, shape.after(definer))], { unchanged: unchangedFiles(others) });
  return analysis.findings.map(summarize);
}

describe("tests defined through a project function", () => {
  describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("%s", (_, shape) => {
    it("a test moved under the definer keeps its checks: no finding", async () => {
      expect(await moved(shape, shape.definer)).toEqual([]);
    });

    it("the definer runs the body under a catch or rescue: the test is lost", async () => {
      expect(await moved(shape, shape.swallowed)).toEqual([`test_deletion/critical ${shape.path} "${shape.test}"`]);
    });

    it("the definer runs the body only under a condition: the test is lost", async () => {
      expect(await moved(shape, shape.conditional)).toEqual([`test_deletion/critical ${shape.path} "${shape.test}"`]);
    });

    it("the definer drops the body: the test is lost", async () => {
      expect(await moved(shape, shape.dropped)).toEqual([`test_deletion/critical ${shape.path} "${shape.test}"`]);
    });

    it("the definer declares a skipped test: test_disabled", async () => {
      const findings = await moved(shape, shape.skipped);
      expect(findings.map((finding) => finding.split(" ")[0])).toEqual(["test_disabled/critical"]);
    });
  });

  describe("a definer declaring one test per element of a list: given an empty list, it declares none", () => {
    const helper = `import test from "ava";\n\n${PER_ENGINE("      await run(t, engine);")}\nexport const noEngine = (title, run) => {\n  perEngine(title, [], run);\n};\n`;
    const judge = async (call: string): Promise<string[]> => {
      const after = AVA_BEFORE.replace('import test from "ava";\n', 'import { perEngine, noEngine } from "./helpers/engines.js";\n').replace('test("keeps the legacy colon form", (t) => {', call);
      const analysis = await analyzeChanges([change("test/stamp.js", AVA_BEFORE, after)], { unchanged: unchangedFiles({ "test/helpers/engines.js": helper }) });
      return analysis.findings.map(summarize);
    };

    it("the caller passes an empty list: the test is lost", async () => {
      expect(await judge('perEngine("keeps the legacy colon form", [], (t) => {')).toEqual(['test_deletion/critical test/stamp.js "keeps the legacy colon form"']);
    });

    it("a function passing an empty list on: the test is lost", async () => {
      expect(await judge('noEngine("keeps the legacy colon form", (t) => {')).toEqual(['test_deletion/critical test/stamp.js "keeps the legacy colon form"']);
    });
  });

  describe.each(SHAPES.filter((shape) => shape.helperPath).map((shape) => [shape.id, shape] as const))("%s, the shared definer changed", (_, shape) => {
    const helperPath = shape.helperPath as string;
    const helper = shape.helper as (definer: string) => string;
    const judge = async (definer: string): Promise<string[]> => {
      const tests = shape.after(shape.definer);
      const analysis = await analyzeChanges([change(helperPath, helper(shape.definer), helper(definer))], { unchanged: unchangedFiles({ ...shape.others, [shape.path]: tests }) });
      return analysis.findings.map(summarize).filter((finding) => finding.includes(shape.path));
    };

    it("hollowed while the tests calling it stay as they were: each of them is lost", async () => {
      expect((await judge(shape.dropped)).map((finding) => finding.split(" ")[0])).toEqual(["test_deletion/critical"]);
    });

    it("reworded with the body still run: no finding on the tests", async () => {
      expect(await judge(shape.definer.replace("(deprecated)", "(legacy)"))).toEqual([]);
    });
  });
});
