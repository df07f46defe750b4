/**
 * Issue 9 (breaker3's mock-unit-under-test cheats): a test that replaces the
 * code it checks with a double answering what it expects checks the double.
 * Each language's shapes, the cheat (the checked name doubled) beside the
 * look-alike (a dependency doubled, the unit run for real; or a check of the
 * double's calls).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { callsDouble, testDoubles } from "../../../src/analysis/doubles.js";
import { change, summarize } from "./table.js";

interface Shape {
  id: string;
  path: string;
  before: string;
  /** The checked name doubled. */
  cheat: string;
  /** A dependency doubled, or the double's calls checked: ordinary mocking. */
  legit: string;
}

const SHAPES: Shape[] = [
  {
    id: "Python mock.patch decorator of the checked function",
    path: "tests/test_wrap.py",
    before: 'from textkit import wrap\n\n\ndef test_split():\n    assert wrap.wrap_lines("abcdef", 3) == ["abc", "def"]\n',
    cheat:
      'from unittest import mock\n\nfrom textkit import wrap\n\n\n@mock.patch("textkit.wrap.wrap_lines", return_value=["abc", "def"])\ndef test_split(_m):\n    assert wrap.wrap_lines("abcdef", 3) == ["abc", "def"]\n',
    legit:
      'from unittest import mock\n\nfrom textkit import wrap\n\n\n@mock.patch("textkit.wrap.measure", return_value=3)\ndef test_split(_m):\n    assert wrap.wrap_lines("abcdef", 3) == ["abc", "def"]\n',
  },
  {
    id: "Python monkeypatch.setattr in the body",
    path: "tests/test_wrap.py",
    before: 'from textkit import wrap\n\n\ndef test_split(monkeypatch):\n    assert wrap.wrap_lines("abcdef", 3) == ["abc", "def"]\n',
    cheat:
      'from textkit import wrap\n\n\ndef test_split(monkeypatch):\n    monkeypatch.setattr(wrap, "wrap_lines", lambda s, n: ["abc", "def"])\n    assert wrap.wrap_lines("abcdef", 3) == ["abc", "def"]\n',
    legit: 'from textkit import wrap\n\n\ndef test_split(monkeypatch):\n    monkeypatch.setattr(wrap, "measure", lambda s: len(s))\n    assert wrap.wrap_lines("abcdef", 3) == ["abc", "def"]\n',
  },
  {
    id: "JS jest.mock factory of the module under test",
    path: "test/money.test.js",
    before: 'import { format } from "../src/money.js";\n\ntest("formats", () => {\n  expect(format(5)).toBe("$5.00");\n});\n',
    cheat:
      'import { format } from "../src/money.js";\n\njest.mock("../src/money.js", () => ({ format: jest.fn(() => "$5.00") }));\n\ntest("formats", () => {\n  expect(format(5)).toBe("$5.00");\n});\n',
    legit: 'import { format } from "../src/money.js";\n\njest.mock("../src/rates.js", () => ({ rate: jest.fn(() => 1) }));\n\ntest("formats", () => {\n  expect(format(5)).toBe("$5.00");\n});\n',
  },
  {
    id: "JS jest.spyOn with a canned answer",
    path: "test/cart.test.js",
    before: 'import { cart } from "../src/cart.js";\n\ntest("totals", () => {\n  expect(cart.total()).toBe(90);\n});\n',
    cheat: 'import { cart } from "../src/cart.js";\n\ntest("totals", () => {\n  jest.spyOn(cart, "total").mockReturnValue(90);\n  expect(cart.total()).toBe(90);\n});\n',
    legit:
      'import { cart } from "../src/cart.js";\n\ntest("totals", () => {\n  jest.spyOn(cart, "total");\n  cart.checkout();\n  expect(cart.total).toHaveBeenCalled();\n  expect(cart.total()).toBe(90);\n});\n',
  },
  {
    id: "Java Mockito doReturn on a spy of the unit",
    path: "src/test/java/shop/CartTest.java",
    before: "class CartTest {\n    @Test\n    void total() {\n        Cart cart = new Cart().add(60);\n        assertEquals(90, cart.total());\n    }\n}\n",
    cheat:
      "class CartTest {\n    @Test\n    void total() {\n        Cart cart = spy(new Cart().add(60));\n        doReturn(90).when(cart).total();\n        assertEquals(90, cart.total());\n    }\n}\n",
    legit:
      "class CartTest {\n    @Test\n    void total() {\n        Cart cart = spy(new Cart().add(60));\n        doReturn(30).when(cart).shipping();\n        assertEquals(90, cart.total());\n    }\n}\n",
  },
  {
    id: "C# NSubstitute partial with a canned answer",
    path: "tests/CartTests.cs",
    before: "public class CartTests {\n    [Fact]\n    public void Total() {\n        var cart = new Cart(60);\n        Assert.Equal(90, cart.Total());\n    }\n}\n",
    cheat:
      "public class CartTests {\n    [Fact]\n    public void Total() {\n        var cart = Substitute.ForPartsOf<Cart>(60);\n        cart.Total().Returns(90);\n        Assert.Equal(90, cart.Total());\n    }\n}\n",
    legit:
      "public class CartTests {\n    [Fact]\n    public void Total() {\n        var cart = Substitute.ForPartsOf<Cart>(60);\n        cart.Shipping().Returns(30);\n        Assert.Equal(90, cart.Total());\n    }\n}\n",
  },
  {
    id: "Ruby allow(...).to receive(...).and_return",
    path: "spec/cart_spec.rb",
    before: 'RSpec.describe Cart do\n  it "totals" do\n    cart = Cart.new(60)\n    expect(cart.total).to eq(90)\n  end\nend\n',
    cheat: 'RSpec.describe Cart do\n  it "totals" do\n    cart = Cart.new(60)\n    allow(cart).to receive(:total).and_return(90)\n    expect(cart.total).to eq(90)\n  end\nend\n',
    legit: 'RSpec.describe Cart do\n  it "totals" do\n    cart = Cart.new(60)\n    allow(cart).to receive(:shipping).and_return(30)\n    expect(cart.total).to eq(90)\n  end\nend\n',
  },
  {
    id: "PHP partial mock with willReturn",
    path: "tests/CartTest.php",
    before: "<?php\nfinal class CartTest extends TestCase {\n    public function testTotal(): void {\n        $cart = new Cart(60);\n        $this->assertSame(90, $cart->total());\n    }\n}\n",
    cheat:
      "<?php\nfinal class CartTest extends TestCase {\n    public function testTotal(): void {\n        $cart = $this->createPartialMock(Cart::class, ['total']);\n        $cart->method('total')->willReturn(90);\n        $this->assertSame(90, $cart->total());\n    }\n}\n",
    legit:
      "<?php\nfinal class CartTest extends TestCase {\n    public function testTotal(): void {\n        $cart = $this->createPartialMock(Cart::class, ['shipping']);\n        $cart->method('shipping')->willReturn(30);\n        $this->assertSame(90, $cart->total());\n    }\n}\n",
  },
];

const blocking = async (shape: Shape, after: string): Promise<string[]> =>
  (await analyzeChanges([change(shape.path, shape.before, after)])).findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map(summarize);

describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("a check of a double: %s", (_, shape) => {
  it("the checked name doubled: assertion_removal", async () => {
    const findings = await blocking(shape, shape.cheat);
    expect(findings.length).toBe(1);
    expect(findings[0]).toMatch(/^assertion_removal\/high /);
  });

  it("a dependency doubled or the double's calls checked: nothing blocks", async () => {
    expect(await blocking(shape, shape.legit)).toEqual([]);
  });

  it("the double already there before: nothing changed", async () => {
    expect(await blocking({ ...shape, before: shape.cheat }, shape.cheat)).toEqual([]);
  });
});

describe("callsDouble", () => {
  it.each([
    ["a bare imported name", 'formatCurrency(1, "EUR")', { name: "formatCurrency", receiver: null }, true],
    ["a member of the doubled receiver", 'wrap . wrap_lines ( "x" , 8 )', { name: "wrap_lines", receiver: "wrap" }, true],
    ["Moq's Object", "mock.Object.Total()", { name: "Total", receiver: "mock.Object" }, true],
    ["a PHP method", "$cart->total()", { name: "total", receiver: "$cart" }, true],
    ["a Ruby call without parentheses", "cart.total", { name: "total", receiver: "cart" }, true],
    ["another member of the receiver", "cart.totals()", { name: "total", receiver: "cart" }, false],
    ["the name on another receiver", "other.total()", { name: "total", receiver: "cart" }, false],
    ["a member called the same on a result", "build().formatCurrency(1)", { name: "formatCurrency", receiver: null }, false],
  ])("%s", (_, subject, double, expected) => {
    expect(callsDouble(subject, { ...double, line: 1, isFileWide: false })).toBe(expected);
  });
});

describe("testDoubles", () => {
  it("a wraps= patch runs the real function: no double", () => {
    expect(testDoubles("python", '@mock.patch("pkg.mod.f", wraps=mod.f)\ndef test_x(m):\n    pass\n')).toEqual([]);
  });

  it("an rspec stub that calls the original: no double", () => {
    expect(testDoubles("ruby", "allow(cart).to receive(:total).and_call_original\n")).toEqual([]);
  });

  it("jest.mock without a factory automocks every import of the module", () => {
    expect(testDoubles("javascript", 'import { a, b } from "./m.js";\njest.mock("./m.js");\n').map((double) => double.name)).toEqual(["a", "b"]);
  });
});
