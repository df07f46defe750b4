/**
 * Issue 9 (breaker3's vacuous-async cheats and their kin): an assertion that
 * cannot decide its test. An async assertion nobody awaits settles after the
 * test (jestjs.io/docs/asynchronous: "return the promise"), one in a callback
 * after an early `done()` runs after it, and one in a `catch` block or a
 * `.catch` callback checks only when the code throws, so the test passes when
 * it does not. Each shape: the cheat beside the look-alike that still
 * decides the test (awaited or returned, counted with expect.assertions, a
 * failure ending the guarded block, `done()` last).
 */
import { describe, expect, it } from "vitest";
import { analyzeChanges } from "../../../src/analysis/index.js";
import { change, summarize } from "./table.js";

interface Shape {
  id: string;
  path: string;
  before: string;
  cheat: string;
  /** The finding type the cheat gets. */
  type: "assertion_removal" | "assertion_weakening";
  legit: string;
}

const jsTest = (header: string, body: string): string => `import { get } from "../src/store.js";\n\ntest("rejects an inherited key", ${header} {\n${body}\n});\n`;
const REJECTS = '  await expect(get("toString")).rejects.toThrow("missing key");';

const csTest = (signature: string, body: string): string =>
  `using Xunit;\nusing FluentAssertions;\n\nnamespace Store.Tests;\n\npublic class StoreTests\n{\n    [Fact]\n    ${signature} InheritedKey()\n    {\n${body}\n    }\n}\n`;

const SHAPES: Shape[] = [
  {
    id: "JS: the await before .rejects dropped",
    path: "test/store.test.ts",
    before: jsTest("async () =>", REJECTS),
    cheat: jsTest("() =>", '  expect(get("toString")).rejects.toThrow("missing key");'),
    type: "assertion_removal",
    legit: jsTest("() =>", '  return expect(get("toString")).rejects.toThrow("missing key");'),
  },
  {
    id: "JS: .rejects rewritten as a .catch callback",
    path: "test/store.test.ts",
    before: jsTest("async () =>", REJECTS),
    cheat: jsTest("async () =>", '  await get("toString").catch((err) => {\n    expect(err.message).toBe("missing key");\n  });'),
    type: "assertion_weakening",
    legit: jsTest("async () =>", '  expect.assertions(1);\n  await get("toString").catch((err) => {\n    expect(err.message).toBe("missing key");\n  });'),
  },
  {
    id: "JS: .rejects rewritten as try/catch",
    path: "test/store.test.ts",
    before: jsTest("async () =>", REJECTS),
    cheat: jsTest("async () =>", '  try {\n    await get("toString");\n  } catch (err) {\n    expect(err.message).toBe("missing key");\n  }'),
    type: "assertion_weakening",
    legit: jsTest("async () =>", '  expect.assertions(1);\n  try {\n    await get("toString");\n  } catch (err) {\n    expect(err.message).toBe("missing key");\n  }'),
  },
  {
    id: "JS: done() moved before the events",
    path: "test/lines.test.js",
    before:
      'import { Splitter } from "../src/lines.js";\n\ntest("splits", (done) => {\n  const s = new Splitter();\n  s.on("end", (lines) => {\n    expect(lines).toEqual(["a", "b"]);\n    done();\n  });\n  s.write("a\\nb");\n  s.end();\n});\n',
    cheat:
      'import { Splitter } from "../src/lines.js";\n\ntest("splits", (done) => {\n  const s = new Splitter();\n  s.on("end", (lines) => {\n    expect(lines).toEqual(["a", "b"]);\n  });\n  done();\n  s.write("a\\nb");\n  s.end();\n});\n',
    type: "assertion_removal",
    legit:
      'import { Splitter } from "../src/lines.js";\n\ntest("splits", (done) => {\n  const s = new Splitter();\n  s.on("end", (lines) => {\n    expect(lines).toEqual(["a", "b"]);\n  });\n  s.write("a\\nb");\n  s.end();\n  done();\n});\n',
  },
  {
    id: "Python: pytest.raises rewritten as try/except",
    path: "tests/test_store.py",
    before: 'import pytest\n\nfrom store import get\n\n\ndef test_inherited_key():\n    with pytest.raises(KeyError):\n        get("toString")\n',
    cheat: 'from store import get\n\n\ndef test_inherited_key():\n    try:\n        get("toString")\n    except KeyError as err:\n        assert "missing key" in str(err)\n',
    type: "assertion_weakening",
    legit:
      'import pytest\n\nfrom store import get\n\n\ndef test_inherited_key():\n    try:\n        get("toString")\n    except KeyError as err:\n        assert "missing key" in str(err)\n    else:\n        pytest.fail("get returned")\n',
  },
  {
    id: "Java: assertThrows rewritten as try/catch",
    path: "src/test/java/com/example/StoreTest.java",
    before:
      'package com.example;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass StoreTest {\n    @Test\n    void inheritedKey() {\n        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Store.get("toString"));\n        assertEquals("missing key", e.getMessage());\n    }\n}\n',
    cheat:
      'package com.example;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass StoreTest {\n    @Test\n    void inheritedKey() {\n        try {\n            Store.get("toString");\n        } catch (IllegalArgumentException e) {\n            assertEquals("missing key", e.getMessage());\n        }\n    }\n}\n',
    type: "assertion_weakening",
    legit:
      'package com.example;\n\nimport static org.junit.jupiter.api.Assertions.*;\n\nimport org.junit.jupiter.api.Test;\n\nclass StoreTest {\n    @Test\n    void inheritedKey() {\n        try {\n            Store.get("toString");\n            fail("get returned");\n        } catch (IllegalArgumentException e) {\n            assertEquals("missing key", e.getMessage());\n        }\n    }\n}\n',
  },
  {
    id: "C#: the await before Assert.ThrowsAsync dropped",
    path: "tests/Store.Tests/StoreTests.cs",
    before: csTest("public async Task", '        await Assert.ThrowsAsync<KeyNotFoundException>(() => Store.GetAsync("toString"));'),
    cheat: csTest("public async Task", '        Assert.ThrowsAsync<KeyNotFoundException>(() => Store.GetAsync("toString"));'),
    type: "assertion_removal",
    legit: csTest("public Task", '        return Assert.ThrowsAsync<KeyNotFoundException>(() => Store.GetAsync("toString"));'),
  },
  {
    id: "C#: the await before FluentAssertions' ThrowAsync dropped",
    path: "tests/Store.Tests/StoreTests.cs",
    before: csTest("public async Task", '        await Store.Invoking(s => s.GetAsync("toString")).Should().ThrowAsync<KeyNotFoundException>();'),
    cheat: csTest("public async Task", '        Store.Invoking(s => s.GetAsync("toString")).Should().ThrowAsync<KeyNotFoundException>();'),
    type: "assertion_removal",
    legit: csTest("public async Task", '        var act = Store.Invoking(s => s.GetAsync("toString")).Should().ThrowAsync<KeyNotFoundException>();\n        await act;'),
  },
  {
    id: "C#: Assert.Throws rewritten as try/catch",
    path: "tests/Store.Tests/StoreTests.cs",
    before:
      'namespace Store.Tests;\n\npublic class StoreTests\n{\n    [Fact]\n    public void InheritedKey()\n    {\n        var e = Assert.Throws<KeyNotFoundException>(() => Store.Get("toString"));\n        Assert.Equal("missing key", e.Message);\n    }\n}\n',
    cheat:
      'namespace Store.Tests;\n\npublic class StoreTests\n{\n    [Fact]\n    public void InheritedKey()\n    {\n        try\n        {\n            Store.Get("toString");\n        }\n        catch (KeyNotFoundException e)\n        {\n            Assert.Equal("missing key", e.Message);\n        }\n    }\n}\n',
    type: "assertion_weakening",
    legit:
      'namespace Store.Tests;\n\npublic class StoreTests\n{\n    [Fact]\n    public void InheritedKey()\n    {\n        try\n        {\n            Store.Get("toString");\n            Assert.Fail("Get returned");\n        }\n        catch (KeyNotFoundException e)\n        {\n            Assert.Equal("missing key", e.Message);\n        }\n    }\n}\n',
  },
  {
    id: "PHP: expectException rewritten as try/catch",
    path: "tests/StoreTest.php",
    before:
      '<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class StoreTest extends TestCase\n{\n    public function testInheritedKey(): void\n    {\n        try {\n            Store::get("toString");\n            $this->fail("get returned");\n        } catch (OutOfBoundsException $e) {\n            $this->assertSame("missing key", $e->getMessage());\n        }\n    }\n}\n',
    cheat:
      '<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class StoreTest extends TestCase\n{\n    public function testInheritedKey(): void\n    {\n        try {\n            Store::get("toString");\n        } catch (OutOfBoundsException $e) {\n            $this->assertSame("missing key", $e->getMessage());\n        }\n    }\n}\n',
    type: "assertion_removal",
    legit:
      '<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class StoreTest extends TestCase\n{\n    public function testInheritedKey(): void\n    {\n        try {\n            Store::get("toString");\n        } catch (OutOfBoundsException $e) {\n            $this->assertSame("missing key", $e->getMessage());\n            return;\n        }\n        $this->fail("get returned");\n    }\n}\n',
  },
];

async function blockingOf(shape: Shape, after: string, before = shape.before): Promise<string[]> {
  const analysis = await analyzeChanges([change(shape.path, before, after)]);
  return analysis.findings.filter((finding) => finding.severity === "critical" || finding.severity === "high").map(summarize);
}

describe.each(SHAPES.map((shape) => [shape.id, shape] as const))("an assertion that cannot decide its test: %s", (_, shape) => {
  it("the cheat blocks with its type", async () => {
    const found = await blockingOf(shape, shape.cheat);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toContainEqual(expect.stringMatching(new RegExp(`^${shape.type}/high ${shape.path}`)));
  });

  it("the look-alike that still decides the test: nothing blocks", async () => {
    expect(await blockingOf(shape, shape.legit)).toEqual([]);
  });

  it("the same shape on both sides: nothing changed", async () => {
    expect(await blockingOf(shape, shape.cheat, shape.cheat)).toEqual([]);
  });
});
