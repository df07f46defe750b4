/**
 * extractFacts at the boundary: which syntax parses under which extension,
 * what happens to unparsable, binary, huge and minified content, and the
 * shape guarantees (JSON-serialisable, stable body hashes).
 */
import { describe, expect, it } from "vitest";
import { isRalphError } from "../../src/errors.js";
import { extractFacts, isAnalyzable } from "../../src/analysis/index.js";
import { isBinaryText, isMinified, isOverSizeLimit, MAX_ANALYZED_BYTES } from "../../src/analysis/content.js";

describe("parsing by extension", () => {
  it.each([
    { path: "test/cast.test.ts", source: `const a = <string>value; const f = <T,>(x: T) => x;\nit("casts", () => { expect(<number>a).toBe(1); });` },
    { path: "test/generic.test.mts", source: `export const id = <T>(x: T): T => x;\nit("generic", () => {});` },
    { path: "test/legacy.test.cts", source: `class A { constructor(@Inject(X) private x: X) {} @Input() a!: string }\nit("decorated", () => {});` },
    { path: "test/modern.test.ts", source: `export @sealed class A {}\nit("decorated after export", () => {});` },
    { path: "test/view.test.tsx", source: `const v = <div className="a">{(x as any).y}</div>;\nit("renders", () => { expect(v).toBeTruthy(); });` },
    { path: "test/view.test.jsx", source: `const v = <Foo bar={1} />;\nit("renders", () => {});` },
    { path: "test/plain.test.js", source: `const v = <Foo />;\nit("jsx in .js", () => {});` },
    { path: "test/flow.test.js", source: `// @flow\nfunction f(x: number): string { return String(x); }\nit("flow", () => {});` },
    { path: "test/script.test.cjs", source: `const assert = require("assert");\nit("cjs", function () { assert(true); });\nreturn;` },
    { path: "test/top.test.mjs", source: `const data = await load();\nimport cfg from "./c.json" with { type: "json" };\nit("esm", () => {});` },
    { path: "test/modern.test.ts", source: `{ using res = open(); }\nconst o = {} satisfies Record<string, never>;\nit("ts 5", () => {});` },
  ])("$path parses", async ({ path, source }) => {
    const facts = await extractFacts(path, source);
    expect(facts.parseError).toBeUndefined();
    expect(facts.tests).toHaveLength(1);
  });

  it("gives .ts no JSX, so a <T>x assertion is not a tag (in .tsx it would be)", async () => {
    const source = `const a = <string>value;\nit("a", () => {});`;
    const facts = await extractFacts("test/a.test.ts", source);
    expect(facts.parseError).toBeUndefined();
    const asTsx = await extractFacts("test/a.test.tsx", source);
    expect(asTsx.parseError).toBeDefined();
  });

  it("returns parseError, no tests and no throw for a syntax error", async () => {
    const facts = await extractFacts("test/broken.test.ts", `describe("a", () => {\n  it("b", () => {\n    expect(1).toBe(1)\n  })\n`);
    expect(facts.parseError).toMatch(/\(\d+:\d+\)/);
    expect(facts.tests).toEqual([]);
    expect(facts.isTestFile).toBe(true);
  });

  it("keeps facts from a file with recoverable errors", async () => {
    const facts = await extractFacts("test/recover.test.js", `"use strict";\nwith (a) {}\nit("still found", () => {});`);
    expect(facts.parseError).toBeUndefined();
    expect(facts.recoveredErrorCount).toBeGreaterThan(0);
    expect(facts.tests.map((test) => test.id)).toEqual(["still found"]);
  });
});

describe("content that is not parsed", () => {
  it.each([
    { name: "binary (NUL bytes)", path: "test/a.test.ts", content: "PNG\u0000\u0001\u0002it('x', () => {})", reason: "binary content" },
    { name: "binary (invalid UTF-8)", path: "src/a.js", content: "\ufffd".repeat(50) + "abc", reason: "binary content" },
    { name: "over 2 MB", path: "test/big.test.js", content: "x".repeat(MAX_ANALYZED_BYTES + 1), reason: "larger than 2 MB (2.0 MB)" },
    { name: "minified by name", path: "vendor/lib.min.js", content: "var a=1;", reason: "minified" },
    { name: "minified by line length", path: "dist/bundle.js", content: "var a=1;".repeat(1000), reason: "minified" },
  ])("$name", async ({ path, content, reason }) => {
    const facts = await extractFacts(path, content);
    expect(facts.notAnalyzed).toBe(reason);
    expect(facts.tests).toEqual([]);
  });

  it("does not call a test file with long lines minified", async () => {
    const source = `it("has a big fixture", () => { expect(decode("${"A".repeat(20_000)}")).toBeDefined(); });`;
    const facts = await extractFacts("test/fixture.test.ts", source);
    expect(facts.notAnalyzed).toBeUndefined();
    expect(facts.tests).toHaveLength(1);
  });

  it.each([
    ["text", "const a = 'é';", false],
    ["one NUL", "a\u0000b", true],
  ])("isBinaryText(%s) is %s", (_name, content, expected) => {
    expect(isBinaryText(content)).toBe(expected);
  });

  it("measures the size limit in UTF-8 bytes, not characters", () => {
    const multiByte = "é".repeat(MAX_ANALYZED_BYTES / 2 + 1); // 2 bytes each
    expect(multiByte.length).toBeLessThan(MAX_ANALYZED_BYTES);
    expect(isOverSizeLimit(multiByte)).toBe(true);
    expect(isOverSizeLimit("é".repeat(1000))).toBe(false);
  });

  it("isMinified leaves ordinary source alone", () => {
    expect(isMinified("src/a.js", "const a = 1;\n".repeat(2000))).toBe(false);
  });
});

describe("the facts shape", () => {
  it("survives a JSON round trip unchanged (it is cached)", async () => {
    const source = `describe("s", () => { it.skip("a", () => { expect(1).toBe(1); }); test.each([1])("b %s", () => {}); });`;
    const facts = await extractFacts("test/json.test.ts", source);
    expect(JSON.parse(JSON.stringify(facts))).toEqual(facts);
  });

  it("gives the same body hash to a moved, re-indented, re-commented, re-quoted test", async () => {
    const a = await extractFacts("test/a.test.ts", `it("x", () => {\n  expect(sum(1, 2)).toBe(3);\n});`);
    const b = await extractFacts("test/b.test.ts", `describe("moved", () => {\n    // a comment\n    it("x", () => { expect(sum(1, 2,)).toBe((3)); /* why */ });\n});`);
    expect(b.tests[0]?.bodyHash).toBe(a.tests[0]?.bodyHash);
    const changed = await extractFacts("test/c.test.ts", `it("x", () => { expect(sum(1, 2)).toBe(4); });`);
    expect(changed.tests[0]?.bodyHash).not.toBe(a.tests[0]?.bodyHash);
  });

  it("includes the each table in the body hash", async () => {
    const a = await extractFacts("test/a.test.ts", `test.each([1, 2])("n %s", (n) => { expect(n).toBeGreaterThan(0); });`);
    const b = await extractFacts("test/a.test.ts", `test.each([1])("n %s", (n) => { expect(n).toBeGreaterThan(0); });`);
    expect(a.tests[0]?.bodyHash).not.toBe(b.tests[0]?.bodyHash);
  });

  it("rejects a path no language handles, with a stable code", async () => {
    expect(isAnalyzable("README.md")).toBe(false);
    const error = await extractFacts("README.md", "# hi").catch((caught: unknown) => caught);
    expect(isRalphError(error, "E_USAGE")).toBe(true);
  });
});
