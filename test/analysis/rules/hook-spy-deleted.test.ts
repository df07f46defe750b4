/**
 * A test that spied on an internal hook, deleted (or rewritten to check the
 * hook's effect) with the hook (the sweep of rack/rack-test 4fa741f1e4: a
 * redundant finalizer removed; the spec that overrode `actually_finalize`
 * to set a flag, then checked the flag, rewritten): the flag's check
 * depends on what the block setting it overrides or observes
 * (parsers/tree-sitter-subjects.ts callbackContext), so the test went with
 * its code (feature_removal, medium). The nearest cheat: the same test
 * deleted while the hook stays is a critical test_deletion.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";
import { isRubyTestPath } from "../../../src/analysis/languages/ruby.js";

interface Shape {
  id: string;
  source: string;
  test: string;
  /** The product with the hook, and without it. */
  withHook: string;
  withoutHook: string;
  /** The product with another method removed, the hook kept. */
  otherRemoved: string;
  /** The tests with the spying test, and without it. */
  spying: string;
  kept: string;
}

const SHAPES: Shape[] = [
  {
    id: "minitest-spec: define_singleton_method overriding the hook",
    source: "lib/scratch.rb",
    test: "spec/scratch_spec.rb",
    withHook:
      "class Scratch\n  def initialize(path)\n    @path = path\n    ObjectSpace.define_finalizer(self, self.class.finalize(path))\n  end\n\n  def size\n    File.size(@path)\n  end\n\n  def self.finalize(path)\n    proc { actually_finalize(path) }\n  end\n\n  def self.actually_finalize(path)\n    File.delete(path)\n  end\nend\n",
    withoutHook: "class Scratch\n  def initialize(path)\n    @path = path\n  end\n\n  def size\n    File.size(@path)\n  end\nend\n",
    otherRemoved:
      "class Scratch\n  def initialize(path)\n    @path = path\n    ObjectSpace.define_finalizer(self, self.class.finalize(path))\n  end\n\n  def self.finalize(path)\n    proc { actually_finalize(path) }\n  end\n\n  def self.actually_finalize(path)\n    File.delete(path)\n  end\nend\n",
    spying:
      'require "minitest/autorun"\nrequire_relative "../lib/scratch"\n\ndescribe Scratch do\n  it "measures the file" do\n    Scratch.new(__FILE__).size.must_equal File.size(__FILE__)\n  end\n\n  it "finalizes on garbage collection" do\n    finalized = false\n    c = Class.new(Scratch) do\n      define_singleton_method(:actually_finalize) do |path|\n        finalized = true\n      end\n    end\n    50.times { c.new(__FILE__); GC.start }\n    finalized.must_equal true\n  end\nend\n',
    kept: 'require "minitest/autorun"\nrequire_relative "../lib/scratch"\n\ndescribe Scratch do\n  it "measures the file" do\n    Scratch.new(__FILE__).size.must_equal File.size(__FILE__)\n  end\nend\n',
  },
];

const judge = async (shape: Shape, productAfter: string, testsAfter: string): Promise<string[]> =>
  (await analyzeChanges([change(shape.source, shape.withHook, productAfter), change(shape.test, shape.spying, testsAfter)])).findings
    .filter((finding) => finding.file === shape.test)
    .map(summarize)
    .map((finding) => finding.split(" ")[0] as string);

describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("a test spying on a hook: %s", (_, shape) => {
  it("deleted with the hook: feature_removal (medium)", async () => {
    expect(await judge(shape, shape.withoutHook, shape.kept)).toEqual(["feature_removal/medium"]);
  });

  it("deleted while the hook stays (another method removed): test_deletion (critical)", async () => {
    expect(await judge(shape, shape.otherRemoved, shape.kept)).toEqual(["test_deletion/critical"]);
  });
});

describe("isRubyTestPath: a test/ folder inside lib/ is a namespace of product code", () => {
  it.each([
    ["lib/rack/test/uploaded_file.rb", false],
    ["lib/minitest/test.rb", false],
    ["lib/rack/test/uploaded_file_spec.rb", true],
    ["test/lib/helper.rb", true],
    ["spec/rack/test/uploaded_file_spec.rb", true],
    ["spec/support/helpers.rb", true],
    ["lib/stamp.rb", false],
  ])("%s: %s", (path, expected) => {
    expect(isRubyTestPath(path)).toBe(expected);
  });
});
