#!/usr/bin/env node
// `npm run docs:rules`: writes the README's finding table from the rule
// registry (src/analysis/rules/registry.ts renderFindingTable), between the
// `<!-- finding-types … -->` and `<!-- /finding-types -->` markers.
// `--check` only compares: exit 1 when the README is out of date.
// test/analysis/rules/registry.test.ts makes the same check in the suite.
import { build } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";

const README = new URL("../README.md", import.meta.url);
const bundle = await build({
  entryPoints: [new URL("../src/analysis/rules/registry.ts", import.meta.url).pathname],
  bundle: true,
  write: false,
  format: "esm",
  platform: "node",
  logLevel: "warning",
});
const registry = await import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString("base64")}`);
const table = registry.renderFindingTable();
const text = readFileSync(README, "utf8");
const match = /(<!-- finding-types[^\n]*-->\n)([\s\S]*?)(\n<!-- \/finding-types -->)/.exec(text);
if (!match) {
  console.error("docs:rules: README.md has no <!-- finding-types --> … <!-- /finding-types --> markers; add them around the finding table");
  process.exit(2);
}
const updated = text.slice(0, match.index) + match[1] + table + match[3] + text.slice(match.index + match[0].length);
if (process.argv.includes("--check")) {
  if (updated !== text) {
    console.error("docs:rules: README.md's finding table differs from the registry; run npm run docs:rules");
    process.exit(1);
  }
} else if (updated !== text) {
  writeFileSync(README, updated);
  console.log("docs:rules: README.md finding table updated");
}
