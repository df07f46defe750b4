/**
 * A check of a member the change removed, made again on its successor
 * (sweep of jnunemaker/httparty 072e681e5e: `Foul#original_error` removed
 * for Ruby's own `cause`; `expect(foul.original_error).to be_a(error.class)`
 * became `expect(foul.cause).to be_a(error.class)` in a test retitled
 * "wraps … via cause"): the lost check went with the code it read and has
 * a counterpart, so the test gone is feature_removal medium, as for a
 * removed export (rules/features.ts reclassifyLostChecksOfRemovedCode).
 * A check of the removed member dropped with no counterpart, and a check
 * of a member that survives, stay assertion_removal high.
 */
import { describe, it } from "vitest";
import { change, expectFindings, type RuleCase } from "./table.js";

interface Shape {
  lang: string;
  product: { path: string; before: string; after: string };
  test: { path: string; id: string; before: string; after: string; dropped: string; survivorDropped: string };
  /** Findings on the product file (a public method removed is feature_removal there). */
  productFindings?: string[];
  /** What the surviving check dropped is reported as, when not assertion_removal high (no check of the old test left in the new: a deletion). */
  survivorDroppedAs?: string;
}

const shapes: Shape[] = [
  {
    lang: "ruby",
    product: {
      path: "lib/client/errors.rb",
      before:
        'module Client\n  class Foul < StandardError\n    attr_reader :original_error\n\n    def initialize(original_error)\n      @original_error = original_error\n      super("#{original_error.class}: #{original_error.message}")\n    end\n  end\nend\n',
      after: "module Client\n  class Foul < StandardError; end\nend\n",
    },
    test: {
      path: "spec/client_spec.rb",
      id: "Client > foul errors > wraps the network error with its information",
      before:
        'RSpec.describe Client do\n  describe "foul errors" do\n    it "wraps the network error with its information" do\n      expect { Client.get("http://x", foul: true) }.to raise_error(Client::Foul) do |foul|\n        expect(foul.original_error).to be_a(Errno::ECONNREFUSED)\n        expect(foul.message).to include("ECONNREFUSED")\n      end\n    end\n  end\nend\n',
      after:
        'RSpec.describe Client do\n  describe "foul errors" do\n    it "wraps the network error via cause" do\n      expect { Client.get("http://x", foul: true) }.to raise_error(Client::Foul) do |foul|\n        expect(foul.cause).to be_a(Errno::ECONNREFUSED)\n        expect(foul.message).to include("ECONNREFUSED")\n      end\n    end\n  end\nend\n',
      dropped:
        'RSpec.describe Client do\n  describe "foul errors" do\n    it "wraps the network error via cause" do\n      expect { Client.get("http://x", foul: true) }.to raise_error(Client::Foul) do |foul|\n        expect(foul.message).to include("ECONNREFUSED")\n      end\n    end\n  end\nend\n',
      survivorDropped:
        'RSpec.describe Client do\n  describe "foul errors" do\n    it "wraps the network error via cause" do\n      expect { Client.get("http://x", foul: true) }.to raise_error(Client::Foul) do |foul|\n        expect(foul.cause).to be_a(Errno::ECONNREFUSED)\n      end\n    end\n  end\nend\n',
    },
  },
  {
    lang: "python",
    product: {
      path: "client/errors.py",
      before:
        'class Foul(Exception):\n    def __init__(self, original_error):\n        super().__init__(f"{type(original_error).__name__}: {original_error}")\n        self._original_error = original_error\n\n    @property\n    def original_error(self):\n        return self._original_error\n',
      after: "class Foul(Exception):\n    pass\n",
    },
    test: {
      path: "tests/test_client.py",
      id: "test_wraps_the_network_error_with_its_information",
      before:
        'import pytest\n\nfrom client import get\nfrom client.errors import Foul\n\n\ndef test_wraps_the_network_error_with_its_information():\n    with pytest.raises(Foul) as info:\n        get("http://x", foul=True)\n    assert isinstance(info.value.original_error, ConnectionRefusedError)\n    assert "ConnectionRefusedError" in str(info.value)\n',
      after:
        'import pytest\n\nfrom client import get\nfrom client.errors import Foul\n\n\ndef test_wraps_the_network_error_via_cause():\n    with pytest.raises(Foul) as info:\n        get("http://x", foul=True)\n    assert isinstance(info.value.__cause__, ConnectionRefusedError)\n    assert "ConnectionRefusedError" in str(info.value)\n',
      dropped:
        'import pytest\n\nfrom client import get\nfrom client.errors import Foul\n\n\ndef test_wraps_the_network_error_via_cause():\n    with pytest.raises(Foul) as info:\n        get("http://x", foul=True)\n    assert "ConnectionRefusedError" in str(info.value)\n',
      survivorDropped:
        'import pytest\n\nfrom client import get\nfrom client.errors import Foul\n\n\ndef test_wraps_the_network_error_via_cause():\n    with pytest.raises(Foul) as info:\n        get("http://x", foul=True)\n    assert isinstance(info.value.__cause__, ConnectionRefusedError)\n',
    },
  },
  {
    lang: "java",
    productFindings: ["feature_removal/medium src/main/java/client/FoulException.java"],
    product: {
      path: "src/main/java/client/FoulException.java",
      before:
        'package client;\n\npublic class FoulException extends RuntimeException {\n  private final Exception originalError;\n\n  public FoulException(Exception originalError) {\n    super(originalError.getClass().getName() + ": " + originalError.getMessage());\n    this.originalError = originalError;\n  }\n\n  public Exception getOriginalError() {\n    return originalError;\n  }\n}\n',
      after:
        'package client;\n\npublic class FoulException extends RuntimeException {\n  public FoulException(Exception cause) {\n    super(cause.getClass().getName() + ": " + cause.getMessage(), cause);\n  }\n}\n',
    },
    test: {
      path: "src/test/java/client/ClientTest.java",
      id: "ClientTest > wrapsTheNetworkErrorWithItsInformation",
      before:
        'package client;\n\nimport static org.assertj.core.api.Assertions.assertThat;\nimport static org.junit.jupiter.api.Assertions.assertThrows;\n\nimport java.net.ConnectException;\nimport org.junit.jupiter.api.Test;\n\nclass ClientTest {\n  @Test\n  void wrapsTheNetworkErrorWithItsInformation() {\n    FoulException foul = assertThrows(FoulException.class, () -> Client.get("http://x", true));\n    assertThat(foul.getOriginalError()).isInstanceOf(ConnectException.class);\n    assertThat(foul.getMessage()).contains("ConnectException");\n  }\n}\n',
      after:
        'package client;\n\nimport static org.assertj.core.api.Assertions.assertThat;\nimport static org.junit.jupiter.api.Assertions.assertThrows;\n\nimport java.net.ConnectException;\nimport org.junit.jupiter.api.Test;\n\nclass ClientTest {\n  @Test\n  void wrapsTheNetworkErrorViaCause() {\n    FoulException foul = assertThrows(FoulException.class, () -> Client.get("http://x", true));\n    assertThat(foul.getCause()).isInstanceOf(ConnectException.class);\n    assertThat(foul.getMessage()).contains("ConnectException");\n  }\n}\n',
      dropped:
        'package client;\n\nimport static org.assertj.core.api.Assertions.assertThat;\nimport static org.junit.jupiter.api.Assertions.assertThrows;\n\nimport java.net.ConnectException;\nimport org.junit.jupiter.api.Test;\n\nclass ClientTest {\n  @Test\n  void wrapsTheNetworkErrorViaCause() {\n    FoulException foul = assertThrows(FoulException.class, () -> Client.get("http://x", true));\n    assertThat(foul.getMessage()).contains("ConnectException");\n  }\n}\n',
      survivorDropped:
        'package client;\n\nimport static org.assertj.core.api.Assertions.assertThat;\nimport static org.junit.jupiter.api.Assertions.assertThrows;\n\nimport java.net.ConnectException;\nimport org.junit.jupiter.api.Test;\n\nclass ClientTest {\n  @Test\n  void wrapsTheNetworkErrorViaCause() {\n    FoulException foul = assertThrows(FoulException.class, () -> Client.get("http://x", true));\n    assertThat(foul.getCause()).isInstanceOf(ConnectException.class);\n  }\n}\n',
    },
  },
  {
    lang: "typescript",
    survivorDroppedAs: "test_deletion/critical",
    product: {
      path: "src/errors.ts",
      before:
        "export class FoulError extends Error {\n  readonly #originalError: Error;\n\n  constructor(originalError: Error) {\n    super(`${originalError.name}: ${originalError.message}`);\n    this.#originalError = originalError;\n  }\n\n  get originalError(): Error {\n    return this.#originalError;\n  }\n}\n",
      after: "export class FoulError extends Error {\n  constructor(cause: Error) {\n    super(`${cause.name}: ${cause.message}`, { cause });\n  }\n}\n",
    },
    test: {
      path: "test/client.test.ts",
      id: "wraps the network error with its information",
      before:
        'import { expect, test } from "vitest";\nimport { get } from "../src/client.js";\n\ntest("wraps the network error with its information", async () => {\n  const foul = await get("http://x", { foul: true }).catch((error: unknown) => error as { originalError: unknown; message: string });\n  expect(foul.originalError).toBeInstanceOf(TypeError);\n  expect(foul.message).toContain("ECONNREFUSED");\n});\n',
      after:
        'import { expect, test } from "vitest";\nimport { get } from "../src/client.js";\n\ntest("wraps the network error via cause", async () => {\n  const foul = await get("http://x", { foul: true }).catch((error: unknown) => error as { cause: unknown; message: string });\n  expect(foul.cause).toBeInstanceOf(TypeError);\n  expect(foul.message).toContain("ECONNREFUSED");\n});\n',
      dropped:
        'import { expect, test } from "vitest";\nimport { get } from "../src/client.js";\n\ntest("wraps the network error via cause", async () => {\n  const foul = await get("http://x", { foul: true }).catch((error: unknown) => error as { cause: unknown; message: string });\n  expect(foul.message).toContain("ECONNREFUSED");\n});\n',
      survivorDropped:
        'import { expect, test } from "vitest";\nimport { get } from "../src/client.js";\n\ntest("wraps the network error via cause", async () => {\n  const foul = await get("http://x", { foul: true }).catch((error: unknown) => error as { cause: unknown; message: string });\n  expect(foul.cause).toBeInstanceOf(TypeError);\n});\n',
    },
  },
];

for (const shape of shapes) {
  const { product, test } = shape;
  const productChange = change(product.path, product.before, product.after);
  const extra = shape.productFindings ?? [];
  const rows: RuleCase[] = [
    {
      name: "look-alike: the check of the removed member made on its successor",
      changes: [productChange, change(test.path, test.before, test.after)],
      findings: [`feature_removal/medium ${test.path} "${test.id}"`, ...extra],
    },
    {
      name: "cheat: the check of the removed member dropped with no counterpart",
      changes: [productChange, change(test.path, test.before, test.dropped)],
      findings: [`assertion_removal/high ${test.path} "${test.id}"`, ...extra],
    },
    {
      name: "cheat: a check of a surviving member dropped beside it",
      changes: [productChange, change(test.path, test.before, test.survivorDropped)],
      findings: [`${shape.survivorDroppedAs ?? "assertion_removal/high"} ${test.path} "${test.id}"`, ...extra],
    },
  ];
  describe(`${shape.lang}: a check of a removed member made again on its successor`, () => {
    for (const rule of rows) it(rule.name, () => expectFindings(rule));
  });
}

describe("ruby: a check moved to a member that was there before is no successor's", () => {
  const before = "class Order\n  attr_reader :status, :state\n\n  def initialize\n    @status = :open\n    @state = :open\n  end\nend\n";
  const after = "class Order\n  attr_reader :state\n\n  def initialize\n    @state = :open\n  end\nend\n";
  const spec = (title: string, member: string): string =>
    `require "order"\n\nRSpec.describe Order do\n  it "${title}" do\n    order = Order.new\n    expect(order.${member}).to eq(:open)\n    expect(order).to be_a(Order)\n  end\nend\n`;
  it("cheat: the status check moved onto the surviving state", () =>
    expectFindings({
      name: "sibling",
      changes: [change("lib/order.rb", before, after), change("spec/order_spec.rb", spec("opens with its status", "status"), spec("opens in its state", "state"))],
      findings: ['assertion_removal/high spec/order_spec.rb "Order > opens with its status"'],
    }));
});
