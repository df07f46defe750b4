/**
 * Pinned grammars (STYLE.md §7): the manifest covers every tree-sitter
 * language, the built wasm files match it, and a missing or altered grammar
 * fails with a RalphError that names the fix. web-tree-sitter itself loads
 * only through a dynamic import.
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isRalphError } from "../../../src/errors.js";
import { LANGUAGES } from "../../../src/analysis/languages/index.js";
import { findGrammarsDir, loadGrammar, parseWithTreeSitter, verifyGrammarAbi, verifyGrammarBytes, type GrammarPin } from "../../../src/analysis/parsers/tree-sitter.js";
import { TREE_SITTER_LANGUAGES } from "./cases.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const manifest = JSON.parse(readFileSync(join(ROOT, "grammars/manifest.json"), "utf8")) as Record<string, GrammarPin>;
const devDependencies = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> }).devDependencies;
const registered = LANGUAGES.map((language) => language.id as string).filter((id) => id !== "javascript");

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Catches what `run` throws (sync or async). */
async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("grammars/manifest.json", () => {
  it("pins a grammar for every registered tree-sitter language", () => {
    for (const id of [...registered, ...TREE_SITTER_LANGUAGES]) expect(manifest[id], id).toBeDefined();
  });

  it.each(Object.entries(manifest))("%s: the built wasm matches its pin and has an ABI web-tree-sitter 0.25 loads", (_id, pin) => {
    const bytes = readFileSync(join(ROOT, "grammars", pin.file));
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(pin.sha256);
    // The source package is a dev dependency pinned at exactly the version the manifest records (npm ci brings the same bytes).
    expect(devDependencies[pin.package], pin.package).toBe(pin.version);
    expect(pin.abi).toBeGreaterThanOrEqual(13);
    expect(pin.abi).toBeLessThanOrEqual(15);
  });

  it("is found by walking up from the parser module", () => {
    expect(findGrammarsDir()).toBe(join(ROOT, "grammars"));
  });
});

describe("grammar verification errors name the fix", () => {
  const pin = manifest.python as GrammarPin;

  it("altered bytes", async () => {
    const error = await caught(() => verifyGrammarBytes("python", pin, new Uint8Array([0, 97, 115, 109])));
    expect(isRalphError(error, "E_CORRUPT")).toBe(true);
    expect((error as Error).message).toContain("npm run build");
  });

  it("an ABI the runtime cannot load", async () => {
    const error = await caught(() => verifyGrammarAbi("python", pin, 15, { min: 13, max: 14 }));
    expect(isRalphError(error, "E_CORRUPT")).toBe(true);
    expect((error as Error).message).toContain("node scripts/grammars.mjs");
  });

  it.each([
    ["a missing wasm file", (dir: string) => writeFileSync(join(dir, "manifest.json"), JSON.stringify({ python: pin }))],
    ["a manifest without the language", (dir: string) => writeFileSync(join(dir, "manifest.json"), "{}")],
    [
      "a wasm file that differs from its pin",
      (dir: string) => {
        writeFileSync(join(dir, "manifest.json"), JSON.stringify({ python: pin }));
        mkdirSync(join(dir, "python"));
        copyFileSync(join(ROOT, "grammars/go/go.wasm"), join(dir, "python/python.wasm"));
      },
    ],
  ])("loadGrammar with %s", async (_title, arrange) => {
    const dir = mkdtempSync(join(tmpdir(), "ralph-grammars-"));
    temporary.push(dir);
    arrange(dir);
    const error = await caught(() => loadGrammar("python", ["tests"], dir));
    expect(isRalphError(error, "E_CORRUPT")).toBe(true);
    expect((error as Error).message).toContain("npm run build");
  });
});

describe("parsing", () => {
  it("counts recovered syntax errors and keeps the tree", async () => {
    const grammar = await loadGrammar("python", ["tests", "assertions"]);
    const result = parseWithTreeSitter(grammar, "def test_a():\n    x = = 1\n    assert x\n\ndef test_b():\n    pass\n");
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.recoveredErrorCount).toBeGreaterThan(0);
      result.tree.delete();
    }
  });

  it("reports a file that is mostly error as unparsable", async () => {
    const grammar = await loadGrammar("python", ["tests", "assertions"]);
    const result = parseWithTreeSitter(grammar, "def test_a(:\n    assert f(\n\n((( ]]] }}} :::\n");
    expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^syntax error \(\d+:\d+\)$/) });
  });

  it("imports web-tree-sitter only dynamically", () => {
    const source = readFileSync(join(ROOT, "src/analysis/parsers/tree-sitter.ts"), "utf8");
    expect(source).toContain('import("web-tree-sitter")');
    expect(source).not.toMatch(/^import\s+(?!type\b)[^;]*from\s+"web-tree-sitter"/m);
  });
});
