// The facts-cache key's extractor part: a hash of every file that decides what
// the extractors return for a given blob. Shared by the build (scripts/build.mjs
// injects it with esbuild `define`) and by vitest (vitest.config.ts defines the
// same constant), so the cache is never reused across a change to extraction
// and nobody has to remember to bump a version number.
//
// Hashed: the text of every file under src/analysis/ except the judging side
// (src/analysis/rules/**, verdict.ts, display.ts), which reads facts but never
// shapes them; the query and manifest files under grammars/ (their text); and
// each grammars/**/*.wasm by name and size (the manifest pins their checksums).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const DEFAULT_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Paths (repo-relative, '/'-separated) under src/analysis/ that read facts without shaping them. */
const JUDGING = [/^src\/analysis\/rules\//, /^src\/analysis\/verdict\.ts$/, /^src\/analysis\/display\.ts$/];

function walk(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/**
 * The files that determine facts, as sorted repo-relative paths with how each
 * enters the hash ("text" or "size").
 * @param {string} [root] the project root (default: this script's parent folder)
 * @returns {{ path: string, mode: "text" | "size" }[]}
 */
export function factsInputs(root = DEFAULT_ROOT) {
  const rel = (path) => relative(root, path).split(sep).join("/");
  const sources = walk(join(root, "src", "analysis"))
    .map(rel)
    .filter((path) => path.endsWith(".ts") && !JUDGING.some((pattern) => pattern.test(path)))
    .map((path) => ({ path, mode: "text" }));
  const grammars = walk(join(root, "grammars"))
    .map(rel)
    .map((path) => ({ path, mode: path.endsWith(".wasm") ? "size" : "text" }));
  return [...sources, ...grammars].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A 16-hex-digit sha256 over {@link factsInputs}: each path, then its text or
 * its size in bytes. Throws (ENOENT) when src/analysis or grammars is missing.
 * @param {string} [root] the project root
 * @returns {string}
 */
export function factsHash(root = DEFAULT_ROOT) {
  const hash = createHash("sha256");
  for (const { path, mode } of factsInputs(root)) {
    const file = join(root, path);
    hash.update(`${path}\u0000${mode}\u0000`);
    if (mode === "size") hash.update(String(statSync(file).size));
    else hash.update(readFileSync(file));
    hash.update("\u0000");
  }
  return hash.digest("hex").slice(0, 16);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(factsHash());
