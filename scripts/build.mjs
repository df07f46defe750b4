#!/usr/bin/env node
// Bundles src/cli/main.ts into dist/cli.js (ESM, Node 20). Commands and heavy
// parsers are dynamic imports, so esbuild splits them into chunks that a
// command loads only when it runs: start-up cost stays near `node -e 0`.
import { build } from "esbuild";
import { cpSync, readFileSync, rmSync } from "node:fs";
import { factsHash } from "./facts-hash.mjs";
import { syncGrammars } from "./grammars.mjs";

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
  define: { RALPH_VERSION: JSON.stringify(pkg.version), RALPH_FACTS_HASH: JSON.stringify(factsHash()) },
  banner: {
    // Some bundled CommonJS packages call require(); give them one.
    js: "#!/usr/bin/env node\nimport { createRequire as __ralphCreateRequire } from 'node:module';\nconst require = __ralphCreateRequire(import.meta.url);",
  },
  logLevel: "warning",
});
// Ship the grammars (with their query files) in dist/grammars, where the
// bundled parser looks for them.
cpSync(new URL("../grammars", import.meta.url), new URL("../dist/grammars", import.meta.url), { recursive: true });
