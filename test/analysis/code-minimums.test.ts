/** The Go version a change's code needs (code-minimums.ts): imports read from source text, build constraints from the header. */
import { describe, expect, it } from "vitest";
import { goCodeMinimum, goExcludedFrom, goImports } from "../../src/analysis/code-minimums.js";

describe("goImports", () => {
  it("reads single imports, blocks, aliases, dot and blank imports, and skips comments", () => {
    const source = 'package p\n\nimport "fmt"\nimport nip "net/netip"\n\nimport (\n\t"slices" // sort\n\t. "strings"\n\t_ "embed"\n\t// "iter"\n)\n';
    expect([...goImports(source)].sort()).toEqual(["embed", "fmt", "net/netip", "slices", "strings"]);
  });
});

describe("goExcludedFrom", () => {
  it("reads //go:build !goX.Y and // +build !goX.Y before the package clause", () => {
    expect(goExcludedFrom("//go:build !go1.13\n\npackage p\n")).toEqual([1, 13]);
    expect(goExcludedFrom("// +build !go1.18\n\npackage p\n")).toEqual([1, 18]);
  });
  it("reads nothing from other constraints or from a constraint after the package clause", () => {
    expect(goExcludedFrom("//go:build go1.13\n\npackage p\n")).toBeNull();
    expect(goExcludedFrom("//go:build !go1.13 && linux\n\npackage p\n")).toBeNull();
    expect(goExcludedFrom("package p\n\n//go:build !go1.13\n")).toBeNull();
  });
});

describe("goCodeMinimum", () => {
  it("takes the newest need among new imports and deleted old-Go files; imports already there need nothing new", () => {
    expect(
      goCodeMinimum([
        { path: "a.go", before: 'package p\n\nimport "slices"\n', after: 'package p\n\nimport (\n\t"slices"\n\t"net/netip"\n)\n' },
        { path: "old.go", before: "//go:build !go1.13\n\npackage p\n", after: null },
      ]),
    ).toEqual({ minimum: [1, 18], reason: "a.go imports net/netip" });
    expect(goCodeMinimum([{ path: "a.go", before: 'package p\n\nimport "slices"\n', after: 'package p\n\nimport "slices"\n\nfunc F() {}\n' }])).toBeNull();
  });
});
