import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { factsHash, factsInputs } from "../../scripts/facts-hash.mjs";
import { EXTRACTOR_VERSION } from "../../src/analysis/index.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A throwaway project root holding the given files. */
function projectWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "ralph-facts-hash-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const BASE = {
  "src/analysis/facts.ts": "export const a = 1;\n",
  "src/analysis/languages/python.ts": "export const b = 2;\n",
  "src/analysis/rules/validation.ts": "export const c = 3;\n",
  "src/analysis/verdict.ts": "export const d = 4;\n",
  "src/analysis/display.ts": "export const e = 5;\n",
  "grammars/manifest.json": "{}\n",
  "grammars/python/tests.scm": "(function_definition) @test\n",
  "grammars/python/python.wasm": "\u0000asm",
};

describe("facts hash (the facts-cache key)", () => {
  it("is what the sources run with under vitest: EXTRACTOR_VERSION is factsHash() of this checkout", () => {
    expect(EXTRACTOR_VERSION).toBe(factsHash());
    expect(EXTRACTOR_VERSION).toMatch(/^[0-9a-f]{16}$/);
  });

  it("hashes extractor sources and grammar files, not rules, verdict or display", () => {
    const paths = factsInputs(projectWith(BASE)).map((input) => `${input.path}:${input.mode}`);
    expect(paths).toEqual(["grammars/manifest.json:text", "grammars/python/python.wasm:size", "grammars/python/tests.scm:text", "src/analysis/facts.ts:text", "src/analysis/languages/python.ts:text"]);
  });

  it.each([
    ["an extractor source", "src/analysis/languages/python.ts", "export const b = 3;\n", true],
    ["a query file", "grammars/python/tests.scm", "(call) @test\n", true],
    ["a grammar's size", "grammars/python/python.wasm", "\u0000asm\u0001", true],
    ["a rule", "src/analysis/rules/validation.ts", "export const c = 4;\n", false],
    ["the verdict", "src/analysis/verdict.ts", "export const d = 5;\n", false],
    ["a grammar's bytes at the same size", "grammars/python/python.wasm", "\u0001asm", false],
  ])("changing %s (%s) changes the key: %s", (_what, path, text, changes) => {
    const before = factsHash(projectWith(BASE));
    const after = factsHash(projectWith({ ...BASE, [path]: text }));
    expect(after !== before).toBe(changes);
  });
});
