#!/usr/bin/env node
// ralph benchmark: the config readers (src/analysis/config) stay linear in the size of what they read.
//
//   node scripts/bench-readers.mjs [--runs 7] [--json]
//
// What it measures: parseToml (the pyproject/Cargo.toml reader) and parseJsonWithLines (package.json,
// tsconfig) on generated documents of 5k, 10k, 20k and 40k sections, each size --runs times (default 7)
// (interleaved, after one warm-up), wall time per parse in ms. It prints the median per size and the
// ratio of each median to the one of half the size: a linear reader gives about 2.0, a quadratic one
// about 4.0. Exit code 1 when a ratio is above 3.5 (the reader went super-linear), 0 otherwise, 2 for
// bad usage. The sources are bundled with esbuild into the OS temp folder first; nothing else is written.
import { build } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

let options;
try {
  options = parseArgs({ options: { runs: { type: "string", default: "7" }, json: { type: "boolean", default: false } } }).values;
} catch (error) {
  console.error(`bench-readers: ${error.message}; usage: node scripts/bench-readers.mjs [--runs 7] [--json]`);
  process.exit(2);
}
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error("bench-readers: --runs takes a positive integer");
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), "ralph-bench-readers-"));
try {
  const outfile = join(dir, "readers.mjs");
  const source = (file) => JSON.stringify(new URL(`../src/analysis/config/${file}`, import.meta.url).pathname);
  await build({
    stdin: { contents: `export { parseToml } from ${source("ini.ts")};\nexport { parseJsonWithLines } from ${source("json.ts")};\n`, resolveDir: dir, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "error",
  });
  const readers = await import(pathToFileURL(outfile).href);
  const sizes = [5_000, 10_000, 20_000, 40_000];
  const documents = {
    parseToml: (n) => Array.from({ length: n }, (_, i) => `[tool.t${i}]\nkey = "value ${i}"\nlist = [1, 2, 3]\n`).join("\n"),
    parseJsonWithLines: (n) => `{\n${Array.from({ length: n }, (_, i) => `  "k${i}": { "a": [1, 2, 3], "b": "v${i}" }`).join(",\n")}\n}\n`,
  };
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const results = {};
  let superLinear = false;
  for (const [name, generate] of Object.entries(documents)) {
    const texts = sizes.map(generate);
    readers[name](texts[0]); // warm-up
    const times = sizes.map(() => []);
    for (let run = 0; run < runs; run++) {
      texts.forEach((text, index) => {
        const started = performance.now();
        readers[name](text);
        times[index].push(performance.now() - started);
      });
    }
    const medians = times.map(median);
    const ratios = medians.slice(1).map((value, index) => value / medians[index]);
    if (ratios.some((ratio) => ratio > 3.5)) superLinear = true;
    results[name] = sizes.map((size, index) => ({ sections: size, medianMs: Number(medians[index].toFixed(1)), ratio: index === 0 ? null : Number(ratios[index - 1].toFixed(2)) }));
  }
  if (options.json) console.log(JSON.stringify({ runs, results, superLinear }));
  else {
    for (const [name, rows] of Object.entries(results)) {
      console.log(`${name} (median of ${runs} runs)`);
      for (const row of rows) console.log(`  ${String(row.sections).padStart(6)} sections  ${String(row.medianMs).padStart(8)} ms${row.ratio === null ? "" : `  x${row.ratio} of half the size`}`);
    }
    console.log(superLinear ? "a reader went super-linear (a doubling cost more than 3.5x)" : "linear: every doubling cost at most 3.5x");
  }
  process.exitCode = superLinear ? 1 : 0;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
