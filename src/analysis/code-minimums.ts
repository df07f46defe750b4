/**
 * The runtime version a change's own code needs, where it needs more than
 * the manifest says (sweep of google/go-cmp c3ad8435e7 and 63c2960be6: CI
 * dropped Go 1.13-1.17 as the new tests imported `net/netip`, and Go 1.11
 * and 1.12 as the `//go:build !go1.13` file that served them was deleted,
 * while go.mod still said `go 1.13` / `go 1.11`). Before Go 1.21 the `go`
 * directive is a language version, not an enforced minimum, so a project's
 * real floor moves with its code: a CI cell for a version the code can no
 * longer build on tests nothing, and dropping it is routine.
 *
 * Read for Go (the one runtime whose manifest routinely lags its code):
 * - a standard-library package the change newly imports, by the release
 *   that added it (Go release notes, https://go.dev/doc/devel/release);
 * - a file the change deletes whose build constraint is only `!goX.Y`
 *   (`//go:build !go1.13`, `// +build !go1.13`: the build constraints of
 *   https://pkg.go.dev/cmd/go#hdr-Build_constraints): the versions below
 *   X.Y lost their implementation.
 * Never throws.
 */

import { compareVersions } from "./support.js";
import type { FileChange } from "./types.js";

/** The version a change's code needs and why, for messages. */
export interface CodeMinimum {
  minimum: number[];
  /** What needs it: `imports net/netip`, `deletes x_legacy.go (//go:build !go1.13)`. */
  reason: string;
}

/** Standard-library packages by the Go release that added them (1.16 onwards; older ones predate any version CI still runs). */
const GO_STD_SINCE: ReadonlyMap<string, number[]> = new Map([
  ["io/fs", [1, 16]],
  ["embed", [1, 16]],
  ["testing/fstest", [1, 16]],
  ["runtime/metrics", [1, 16]],
  ["net/netip", [1, 18]],
  ["debug/buildinfo", [1, 18]],
  ["go/doc/comment", [1, 19]],
  ["crypto/ecdh", [1, 20]],
  ["slices", [1, 21]],
  ["maps", [1, 21]],
  ["cmp", [1, 21]],
  ["log/slog", [1, 21]],
  ["testing/slogtest", [1, 21]],
  ["math/rand/v2", [1, 22]],
  ["go/version", [1, 22]],
  ["iter", [1, 23]],
  ["unique", [1, 23]],
  ["structs", [1, 23]],
  ["weak", [1, 24]],
  ["crypto/mlkem", [1, 24]],
  ["crypto/hkdf", [1, 24]],
  ["crypto/pbkdf2", [1, 24]],
  ["crypto/sha3", [1, 24]],
  ["testing/synctest", [1, 25]],
]);

/** The import paths of a Go source file (single imports and import blocks, aliases and dots allowed). */
export function goImports(source: string): Set<string> {
  const paths = new Set<string>();
  for (const match of source.matchAll(/^\s*import\s+(?:[\w.]+\s+)?"([^"]+)"/gm)) paths.add(match[1] as string);
  for (const block of source.matchAll(/^\s*import\s*\(([\s\S]*?)\)/gm)) {
    for (const line of (block[1] as string).split("\n")) {
      const path = /^\s*(?:[\w.]+\s+)?"([^"]+)"/.exec(line.replace(/\/\/.*$/, ""))?.[1];
      if (path) paths.add(path);
    }
  }
  return paths;
}

/** The X.Y of a Go file whose build constraint (before its package clause) is only `!goX.Y`, or null. */
export function goExcludedFrom(source: string): number[] | null {
  const header = source.slice(0, Math.max(0, source.search(/^package\s/m)));
  const expression = /^\/\/go:build\s+(.+)$/m.exec(header)?.[1] ?? /^\/\/\s*\+build\s+(.+)$/m.exec(header)?.[1];
  const version = expression === undefined ? null : /^!go(\d+)\.(\d+)$/.exec(expression.trim());
  return version ? [Number(version[1]), Number(version[2])] : null;
}

/**
 * The highest Go version the change's code needs (see the module comment),
 * or null when nothing it adds or deletes needs a known one.
 */
export function goCodeMinimum(changes: readonly FileChange[]): CodeMinimum | null {
  let best: CodeMinimum | null = null;
  const consider = (minimum: number[], reason: string): void => {
    if (best === null || compareVersions(minimum, best.minimum) > 0) best = { minimum, reason };
  };
  for (const change of changes) {
    if (!change.path.endsWith(".go")) continue;
    if (change.after !== null) {
      const before = change.before === null ? new Set<string>() : goImports(change.before);
      for (const path of goImports(change.after)) {
        const since = GO_STD_SINCE.get(path);
        if (since && !before.has(path)) consider(since, `${change.path} imports ${path}`);
      }
    } else if (change.before !== null) {
      const excluded = goExcludedFrom(change.before);
      if (excluded) consider(excluded, `${change.path} (//go:build !go${excluded.join(".")}) is deleted`);
    }
  }
  return best;
}
