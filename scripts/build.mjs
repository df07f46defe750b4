#!/usr/bin/env node
// Bundles src/cli/main.ts into dist/cli.js (ESM, Node 20). Commands and heavy
// parsers are dynamic imports, so esbuild splits them into chunks that a
// command loads only when it runs: start-up cost stays near `node -e 0`.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { factsHash } from "./facts-hash.mjs";
import { syncGrammars } from "./grammars.mjs";

/** Replaced in dist/cli.js by the bundle's hash; as long as the hash, so the source map's columns stay right. */
const BUILD_ID_PLACEHOLDER = "@".repeat(20);
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });
// Tree-sitter grammars: copy the pinned wasm files out of their source packages and
// verify them against grammars/manifest.json, first, so the facts hash below
// sees the wasm files it ships.
await syncGrammars();
await build({
  entryPoints: { cli: "src/cli/main.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  // Loaded from node_modules at run time through a V8 code cache (src/analysis/parsers/code-cache.ts), not bundled.
  // @parcel/watcher is a native addon (a prebuilt binary per platform): loaded from node_modules.
  external: ["@babel/parser", "@parcel/watcher"],
  chunkNames: "chunks/[name]-[hash]",
  // RALPH_FACTS_HASH keys the facts cache (src/analysis/facts.ts EXTRACTOR_VERSION); vitest.config.ts defines the same.
  // RALPH_BUILD_ID: a placeholder, replaced below by a hash of the whole bundle (the warm process's hello compares it).
  define: { RALPH_VERSION: JSON.stringify(pkg.version), RALPH_FACTS_HASH: JSON.stringify(factsHash()), RALPH_BUILD_ID: JSON.stringify(BUILD_ID_PLACEHOLDER) },
  banner: {
    // Some bundled CommonJS packages call require(); give them one.
    js: "#!/usr/bin/env node\nimport { createRequire as __ralphCreateRequire } from 'node:module';\nconst require = __ralphCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
// The build id: 20 hex digits of the SHA-256 of cli.js (placeholder in) and every chunk, in name order. A client
// and a warm process (src/daemon/) of different builds see different ids, so an outdated warm process is replaced.
{
  const dist = new URL("../dist/", import.meta.url);
  const cli = readFileSync(new URL("cli.js", dist), "utf8");
  if (!cli.includes(BUILD_ID_PLACEHOLDER)) throw new Error("build: dist/cli.js must hold the build id placeholder (src/cli/main.ts RALPH_BUILD_ID)");
  const hash = createHash("sha256").update(cli);
  for (const name of readdirSync(new URL("chunks/", dist))
    .filter((f) => f.endsWith(".js"))
    .sort()) {
    hash.update(name).update(readFileSync(new URL(`chunks/${name}`, dist)));
  }
  writeFileSync(new URL("cli.js", dist), cli.replaceAll(BUILD_ID_PLACEHOLDER, hash.digest("hex").slice(0, BUILD_ID_PLACEHOLDER.length)));
}
// Ship the grammars (with their query files) in dist/grammars, where the
// bundled parser looks for them.
cpSync(new URL("../grammars", import.meta.url), new URL("../dist/grammars", import.meta.url), { recursive: true });
