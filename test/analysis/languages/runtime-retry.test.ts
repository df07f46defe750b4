/**
 * A failed start of the tree-sitter runtime is not kept: a long-lived
 * process (the daemon) that first ran on a broken install parses again
 * once the install is mended (the sweep's snapshot without node_modules
 * kept failing after the fix until the daemon was killed).
 */
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.doUnmock("web-tree-sitter");
  vi.resetModules();
});

describe("the tree-sitter runtime after a failed start", () => {
  it("loads on the next call once the package can be imported", async () => {
    vi.resetModules();
    vi.doMock("web-tree-sitter", () => {
      throw new Error("Cannot find package 'web-tree-sitter'");
    });
    const broken = await import("../../../src/analysis/parsers/tree-sitter.js");
    await expect(broken.loadGrammar("python", ["tests"])).rejects.toThrow();
    vi.doUnmock("web-tree-sitter");
    const grammar = await broken.loadGrammar("python", ["tests"]);
    expect(grammar.language).toBeDefined();
  });
});
