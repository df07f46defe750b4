/**
 * A test deleted with a package the change drops from its manifest
 * (analysis/dropped-dependencies.ts, rules/features.ts reclassifyDeletions):
 * the change takes `form-data` out of package.json and the tests that
 * built `new FormData()` from it go (sindresorhus/got 670b2289dd). Those
 * tests could not load any more: support for the package went with it,
 * feature_removal at medium. A package still declared by a manifest after
 * the change, a test that never used the dropped package, a dropped
 * assertion library or test framework stay test_deletion.
 */
import { describe, expect, it } from "vitest";
import { droppedDependencies, npmDependencies, npmPackageOf } from "../../../src/analysis/dropped-dependencies.js";
import { change, expectFindings, type RuleCase } from "./table.js";

const manifest = (deps: Record<string, string>, devDeps: Record<string, string>): string =>
  `${JSON.stringify({ name: "acme", type: "module", dependencies: deps, devDependencies: devDeps }, null, 2)}\n`;
const withFormData = manifest({ "form-data-encoder": "^4.1.0", keyv: "^5.0.0" }, { ava: "^6.0.0", "form-data": "^4.0.5", "@legacy/codec": "^1.0.0" });
const withoutFormData = manifest({ keyv: "^5.0.0" }, { ava: "^6.0.0" });

const source = (legacy: boolean): string =>
  `export async function post(options) {\n  const body = options.body;\n  ${legacy ? "if (typeof body.getBoundary === 'function') return {type: `multipart/form-data; boundary=${body.getBoundary()}`};\n  " : ""}if (body instanceof globalThis.FormData) return {type: "multipart/form-data"};\n  return {type: "text/plain"};\n}\n`;

const tsImports = `import test from "ava";\nimport FormData from "form-data";\nimport {decode} from "@legacy/codec/strict.js";\nimport {post} from "../source/index.js";\n\n`;
const nativeTest = `test("native FormData", async t => {\n  const {type} = await post({body: new globalThis.FormData()});\n  t.is(type, "multipart/form-data");\n});\n`;
const legacyTest = `test("form-data automatic content-type header", async t => {\n  const form = new FormData();\n  form.append("a", "b");\n  const {type} = await post({body: form});\n  t.is(type, \`multipart/form-data; boundary=\${form.getBoundary()}\`);\n});\n`;
const codecTest = `test("decodes legacy bodies", async t => {\n  const {type} = await post({body: decode("x")});\n  t.is(type, "text/plain");\n});\n`;
const plainTest = `test("plain text body", async t => {\n  const {type} = await post({body: "x"});\n  t.is(type, "text/plain");\n});\n`;

const cjsImports = `const test = require("node:test");\nconst assert = require("node:assert");\nconst FormData = require("form-data");\nconst {post} = require("../source/index.js");\n\n`;
const cjsLegacyTest = `test("form-data sets a boundary", async () => {\n  const form = new FormData();\n  const {type} = await post({body: form});\n  assert.strictEqual(type, \`multipart/form-data; boundary=\${form.getBoundary()}\`);\n});\n`;
const cjsNativeTest = `test("native FormData", async () => {\n  const {type} = await post({body: new globalThis.FormData()});\n  assert.strictEqual(type, "multipart/form-data");\n});\n`;

const codeChange = change("source/index.js", source(true), source(false));

const cases: RuleCase[] = [
  {
    name: "ts: tests of form-data deleted as package.json drops form-data (got 670b2289dd)",
    changes: [
      change("package.json", withFormData, withoutFormData),
      codeChange,
      change("test/post.ts", tsImports + nativeTest + legacyTest, `import test from "ava";\nimport {post} from "../source/index.js";\n\n${nativeTest}`),
    ],
    findings: ['feature_removal/medium test/post.ts "form-data automatic content-type header"'],
  },
  {
    name: "ts: a test of a scoped package imported by a subpath, deleted as the package is dropped",
    changes: [
      change("package.json", withFormData, withoutFormData),
      codeChange,
      change("test/post.ts", tsImports + nativeTest + codecTest, `import test from "ava";\nimport {post} from "../source/index.js";\n\n${nativeTest}`),
    ],
    findings: ['feature_removal/medium test/post.ts "decodes legacy bodies"'],
  },
  {
    name: "js: a CommonJS require of a dropped package, its test deleted",
    changes: [
      change("package.json", withFormData, withoutFormData),
      codeChange,
      change(
        "test/post.test.js",
        cjsImports + cjsNativeTest + cjsLegacyTest,
        `const test = require("node:test");\nconst assert = require("node:assert");\nconst {post} = require("../source/index.js");\n\n${cjsNativeTest}`,
      ),
    ],
    findings: ['feature_removal/medium test/post.test.js "form-data sets a boundary"'],
  },
  {
    name: "ts: a package moved to another workspace manifest is not dropped",
    changes: [
      change("package.json", withFormData, withoutFormData),
      change("packages/legacy/package.json", manifest({}, {}), manifest({}, { "form-data": "^4.0.5" })),
      codeChange,
      change("test/post.ts", tsImports + nativeTest + legacyTest, `import test from "ava";\nimport {post} from "../source/index.js";\n\n${nativeTest}`),
    ],
    findings: ['test_deletion/critical test/post.ts "form-data automatic content-type header"'],
  },
  {
    name: "cheat: ts: a test that never used the dropped package deleted beside one that did",
    changes: [
      change("package.json", withFormData, withoutFormData),
      codeChange,
      change("test/post.ts", tsImports + nativeTest + legacyTest + plainTest, `import test from "ava";\nimport {post} from "../source/index.js";\n\n${nativeTest}`),
    ],
    findings: ['feature_removal/medium test/post.ts "form-data automatic content-type header"', 'test_deletion/critical test/post.ts "plain text body"'],
  },
  {
    name: "cheat: ts: an assertion library dropped with the tests that used it",
    changes: [
      change("package.json", manifest({}, { mocha: "^10.0.0", expect: "^29.0.0" }), manifest({}, { mocha: "^10.0.0" })),
      change(
        "test/post.spec.ts",
        `import expect from "expect";\nimport {post} from "../source/index.js";\n\ndescribe("post", () => {\n  it("plain text body", async () => {\n    expect((await post({body: "x"})).type).toBe("text/plain");\n  });\n  it("native", async () => {\n    expect((await post({body: new globalThis.FormData()})).type).toBe("multipart/form-data");\n  });\n});\n`,
        `import assert from "node:assert";\nimport {post} from "../source/index.js";\n\ndescribe("post", () => {\n  it("native", async () => {\n    assert.strictEqual((await post({body: new globalThis.FormData()})).type, "multipart/form-data");\n  });\n});\n`,
      ),
    ],
    findings: ['test_deletion/critical test/post.spec.ts "post > plain text body"'],
  },
  {
    name: "cheat: ts: a test deleted with no manifest change",
    changes: [codeChange, change("test/post.ts", tsImports + nativeTest + legacyTest, tsImports + nativeTest)],
    findings: ['test_deletion/critical test/post.ts "form-data automatic content-type header"'],
  },
];

describe("a test deleted with a package the change drops", () => {
  for (const rule of cases) it(rule.name, async () => void (await expectFindings(rule)));
});

describe("droppedDependencies", () => {
  it("lists the packages no manifest declares after the change", () => {
    expect(droppedDependencies([change("package.json", withFormData, withoutFormData)]).map((entry) => entry.name)).toEqual(["@legacy/codec", "form-data", "form-data-encoder"]);
  });
  it("drops nothing from a manifest deleted or unreadable", () => {
    expect(droppedDependencies([change("package.json", withFormData, null)])).toEqual([]);
    expect(droppedDependencies([change("package.json", withFormData, "{ not json")])).toEqual([]);
    expect(npmDependencies("[1, 2]")).toBeNull();
  });
});

describe("npmPackageOf", () => {
  const table: [string, string | null][] = [
    ["form-data", "form-data"],
    ["lodash/fp", "lodash"],
    ["@scope/pkg/sub/path.js", "@scope/pkg"],
    ["@scope", null],
    ["./local.js", null],
    ["/abs/path.js", null],
    ["node:fs", null],
    ["https://esm.sh/x", null],
  ];
  for (const [specifier, name] of table) it(`${specifier} -> ${name}`, () => expect(npmPackageOf(specifier)).toBe(name));
});
