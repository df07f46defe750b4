/**
 * Ruby extraction tables: RSpec groups and examples with their skip/focus/
 * pending forms, minitest classes and `test "name"` blocks, and assertion
 * strengths for RSpec matchers and minitest assertions.
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges, extractFacts } from "../../../src/analysis/index.js";
import type { TestCase } from "../../../src/analysis/facts.js";

async function testsOf(source: string, path = "spec/cart_spec.rb"): Promise<TestCase[]> {
  const facts = await extractFacts(path, source);
  expect(facts.parseError).toBeUndefined();
  return facts.tests;
}

describe("ruby: which examples are tests", () => {
  it.each([
    ["RSpec.describe / context / it", 'RSpec.describe Cart do\n  context "empty" do\n    it "totals zero" do\n    end\n  end\nend\n', ["Cart > empty > totals zero"]],
    ["specify, example, its", 'describe "cart" do\n  specify "a" do\n  end\n  example "b" do\n  end\n  its(:total) { is_expected.to eq(0) }\nend\n', ["cart > a", "cart > b", "cart > its(:total)"]],
    ["an it without a title", 'describe "cart" do\n  it { is_expected.to be_empty }\nend\n', ["cart > { is_expected . to be_empty }"]],
    ["hooks and lets are not tests", 'describe "cart" do\n  before { @c = 1 }\n  let(:x) { 1 }\nend\n', []],
    ["minitest test_ methods", "class CartTest < Minitest::Test\n  def test_total\n  end\n  def helper\n  end\nend\n", ["CartTest > test_total"]],
    [
      "minitest methods under a condition or a modifier",
      "class CartTest < Minitest::Test\n  def test_a\n  end unless windows?\n  if RUBY_VERSION < '3'\n    def test_b\n    end\n  end\nend\n",
      ["CartTest > test_a", "CartTest > test_b"],
    ],
    ["ActiveSupport test blocks", 'class CartTest < ActiveSupport::TestCase\n  test "totals" do\n  end\nend\n', ["totals"]],
  ])("%s", async (_title, source, ids) => {
    expect((await testsOf(source)).map((test) => test.id)).toEqual(ids);
  });
});

describe("ruby: flags", () => {
  it.each([
    ["xit", 'describe "c" do\n  xit "a" do\n  end\nend\n', "skipped", "xit", undefined],
    ["skip: metadata", 'describe "c" do\n  it "a", skip: "later" do\n  end\nend\n', "skipped", "skip:", "later"],
    ["skip inside the example", 'describe "c" do\n  it "a" do\n    skip "broken"\n  end\nend\n', "skipped", "skip()", "broken"],
    ["xdescribe reaches its examples", 'xdescribe "c" do\n  it "a" do\n  end\nend\n', "skipped", 'xdescribe on group "c"', undefined],
    ["pending inside the example", 'describe "c" do\n  it "a" do\n    pending "not yet"\n  end\nend\n', "failing", "pending()", "not yet"],
    ["fit focuses", 'describe "c" do\n  fit "a" do\n  end\nend\n', "focused", "fit", undefined],
    ["an it without a block is todo", 'describe "c" do\n  it "a"\nend\n', "todo", "it without a block", undefined],
    ["skip in a before hook of the group", 'describe "c" do\n  before { skip "no db" }\n  it "a" do\n  end\nend\n', "skipped", 'skip() in a before hook on group "c"', "no db"],
    ["minitest skip", "class CartTest < Minitest::Test\n  def test_a\n    skip\n  end\nend\n", "skipped", "skip()", undefined],
  ] as const)("%s", async (_title, source, flag, via, reason) => {
    const [test] = await testsOf(source);
    expect(test?.flags[flag]).toBe(true);
    expect(test?.flagVia?.[flag]).toBe(via);
    expect(test?.skipReason).toBe(reason);
  });
});

describe("ruby: assertions", () => {
  it.each([
    ["expect().to eq", "expect(cart.total).to eq(500)", { matcher: "to eq", strength: 3, actual: "cart . total", expected: "500" }],
    ["expect().to be_truthy", "expect(cart.ok?).to be_truthy", { matcher: "to be_truthy", strength: 1 }],
    ["expect().to include", "expect(list).to include(1)", { strength: 2 }],
    ["expect().not_to eq is weaker", "expect(x).not_to eq(1)", { strength: 2, negated: true }],
    ["expect(true).to be_truthy is a tautology", "expect(true).to be_truthy", { strength: 0, tautology: true }],
    ["raise_error(Specific)", "expect { f }.to raise_error(ArgumentError)", { strength: 2 }],
    ["raise_error without a class", "expect { f }.to raise_error", { strength: 1 }],
    ["a chained .to inside a matcher is not an extra assertion", "expect { f }.to change { x }.from(1).to(2)", { matcher: "to change" }],
    ["assert_equal", "assert_equal 500, cart.total", { matcher: "assert_equal", strength: 3, expected: "500", actual: "cart . total" }],
    ["assert", "assert cart.ok?", { matcher: "assert", strength: 1 }],
    ["assert true is a tautology", "assert true", { strength: 0, tautology: true }],
    ["refute_nil", "refute_nil cart", { strength: 1, negated: true }],
    ["must_equal", "_(cart.total).must_equal 500", { matcher: "must_equal", strength: 3, expected: "500" }],
  ])("%s", async (_title, statement, expected) => {
    const [test] = await testsOf(`describe "c" do\n  it "a" do\n    ${statement}\n  end\nend\n`);
    expect(test?.assertionCount).toBe(1);
    expect(test?.assertionsDetail?.[0]).toMatchObject(expected);
  });
});

describe("ruby: RSpec changes", () => {
  const spec = (examples: string) => `RSpec.describe Cart do\n${examples}end\n`;
  const A = '  it "is empty" do\n    expect(Cart.new.total).to eq(0)\n  end\n';
  const B = '  it "adds" do\n    expect(Cart.new.add(1).total).to eq(1)\n  end\n';
  it.each([
    ["an example removed: test_deletion", spec(A), [["test_deletion", "Cart > adds"]]],
    ["it -> xit: test_disabled", spec(A + B.replace("  it ", "  xit ")), [["test_disabled", "Cart > adds"]]],
    ["examples moved into a context: nothing", spec(`  context "x" do\n${A}${B}  end\n`), []],
  ])("%s", async (_title, after, expected) => {
    const analysis = await analyzeChanges([{ path: "spec/cart_spec.rb", before: spec(A + B), after }]);
    expect(analysis.findings.map((finding) => [finding.type, finding.test])).toEqual(expected);
  });
});
