#!/usr/bin/env node
// Warm checkpoint with a watcher's dirty set vs a full scan vs native git, in one long-lived
// process (what the warm per-repository process of issue 12 runs per checkpoint).
//
//   node scripts/bench-watch.mjs                         generated repos of 1k, 10k, 30k, 100k files
//   node scripts/bench-watch.mjs --sizes 1000,30000 --runs 9 [--json]
//
// Per repository, N runs, the three sides interleaved run by run, each after its own edit of
// 10 tracked files + 1 new file (as bench.mjs's warm row):
//   dirty     await watcher.take() (its barrier included) + store.checkpoint({ dirty })
//   full      store.checkpoint() with the same warm process and stat cache, no dirty set
//   native    GIT_INDEX_FILE=<tmp, kept> git add -A && git write-tree && git commit-tree && git update-ref
// RALPH_FSYNC=0 on ralph's side, as git's default does not fsync objects either. Figures are medians in ms (wall time in this process; native spawns 4 git processes), the ratio
// to native, the barrier's own median, the snapshot's own duration (Snapshot.stats.durationMs) on each side, how many runs the dirty set was used (not a fallback), and
// the process's resident size with the watcher running. Generated repos are shared with bench.mjs
// (/tmp/ralph-bench/<size>/repo) but measured in a copy (/tmp/ralph-bench-watch/<size>), deleted after.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { ensureGeneratedRepo } from "./bench/generate.mjs";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const sizes = opt("--sizes", "1000,10000,30000,100000").split(",").map(Number);
const runs = Number(opt("--runs", "7"));
const json = args.includes("--json");
const log = (m) => process.stderr.write(`${m}\n`);

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", RALPH_DEBUG: "" };
for (const k of Object.keys(env)) if (k.startsWith("GIT_") && !["GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL"].includes(k)) delete env[k];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const git = (cwd, a, e = env) => execFileSync("git", a, { cwd, env: e, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 28 }).trim();

/** The store and the watcher, bundled from src/ (as the CLI bundle is): no build of dist/ needed. */
async function loadStore() {
  const out = join(tmpdir(), `ralph-bench-watch-${process.pid}.mjs`);
  await build({
    stdin: {
      contents:
        'export { CheckpointStore } from "./src/store/checkpoint-store.ts"; export { WorkTreeWatcher } from "./src/store/dirty-paths.ts"; export { parseLoopId } from "./src/store/loop-id.ts";',
      resolveDir: new URL("..", import.meta.url).pathname,
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outfile: out,
    external: ["@parcel/watcher", "@babel/parser"],
    define: { RALPH_VERSION: '"bench"', RALPH_FACTS_HASH: '"bench"' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: "warning",
  });
  // The bundle resolves @parcel/watcher from this repository's node_modules.
  const linked = join(new URL("..", import.meta.url).pathname, `.bench-watch-${process.pid}.mjs`);
  writeFileSync(linked, readFileSync(out));
  rmSync(out);
  try {
    return await import(linked);
  } finally {
    rmSync(linked, { force: true });
  }
}

function editFiles(root, sources, run, side) {
  for (let k = 0; k < 10; k++) {
    const path = sources[(Math.floor(((k + 0.5) * sources.length) / 10) + run * 3 + side) % sources.length];
    writeFileSync(join(root, path), `${readFileSync(join(root, path), "utf8")}// bench ${run}.${side}.${k}\n`);
  }
  writeFileSync(join(root, `bench-new-${run}-${side}.ts`), `export const n = ${run};\n`);
}

async function benchSize(lib, size) {
  const source = ensureGeneratedRepo("/tmp/ralph-bench", size, { log }).path;
  const root = join("/tmp/ralph-bench-watch", String(size));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, ".."), { recursive: true });
  execFileSync("cp", ["-a", source, root]);
  try {
    const sources = git(root, ["ls-files"])
      .split("\n")
      .filter((p) => /\.(ts|js|py|go|rs|java|md)$/.test(p) && !p.includes(".gitignore"));
    const store = lib.CheckpointStore.open(root);
    const loop = lib.parseLoopId("bench-watch");
    const rssBefore = process.memoryUsage().rss;
    const watcher = new lib.WorkTreeWatcher();
    const t0 = performance.now();
    await watcher.start(root);
    const readyMs = performance.now() - t0;
    await watcher.take();
    store.checkpoint({ loop, kind: "manual" }); // the baseline full scan, stat cache written
    const nativeIndex = join(root, ".git", "bench-native-index");
    const nativeEnv = { ...env, GIT_INDEX_FILE: nativeIndex };
    let nativePrev = "";
    const native = () => {
      git(root, ["add", "-A"], nativeEnv);
      const tree = git(root, ["write-tree"], nativeEnv);
      nativePrev = git(root, ["commit-tree", tree, ...(nativePrev ? ["-p", nativePrev] : []), "-m", "x"], nativeEnv);
      git(root, ["update-ref", "refs/bench/native", nativePrev], nativeEnv);
      return tree;
    };
    native(); // its index warmed, as ralph's cache is
    const dirtyMs = [],
      fullMs = [],
      nativeMs = [],
      barrierMs = [],
      dirtyScanMs = [],
      fullScanMs = [];
    let dirtyUsed = 0;
    for (let run = 0; run < runs; run++) {
      editFiles(root, sources, run, 0);
      let t = performance.now();
      const dirty = await watcher.take();
      barrierMs.push(performance.now() - t);
      const r = store.checkpoint({ loop, kind: "manual" }, { dirty: dirty.kind === "paths" ? { paths: dirty.paths, sinceMs: dirty.sinceMs } : undefined });
      dirtyMs.push(performance.now() - t);
      dirtyScanMs.push(r.stats.durationMs);
      if (dirty.kind === "paths" && r.stats.filesStatted < Math.max(50, size / 10)) dirtyUsed++;

      editFiles(root, sources, run, 1);
      await watcher.take(); // dropped: the full scan that follows is the new baseline
      t = performance.now();
      const f = store.checkpoint({ loop, kind: "manual" });
      fullMs.push(performance.now() - t);
      fullScanMs.push(f.stats.durationMs);

      editFiles(root, sources, run, 2);
      t = performance.now();
      const nativeTree = native();
      nativeMs.push(performance.now() - t);
      // A full checkpoint (not measured) takes in the native side's edit: the next dirty set holds only its own.
      await watcher.take();
      const own = store.checkpoint({ loop, kind: "manual" }).treeOid;
      // Sanity: ralph's tree of the same work tree equals git's (native includes untracked files too).
      if (run === 0 && own !== nativeTree) log(`bench-watch ${size}: ralph tree ${own} != native ${nativeTree}`);
    }
    const rssMB = Math.round(process.memoryUsage().rss / 1048576);
    const watchRssMB = Math.round((process.memoryUsage().rss - rssBefore) / 1048576);
    await watcher.close();
    const row = {
      files: size,
      readyMs: Math.round(readyMs),
      dirtyMs: median(dirtyMs),
      barrierMs: median(barrierMs),
      fullMs: median(fullMs),
      dirtyScanMs: median(dirtyScanMs),
      fullScanMs: median(fullScanMs),
      nativeMs: median(nativeMs),
      dirtyUsed: `${dirtyUsed}/${runs}`,
      rssMB,
      rssGrowthMB: watchRssMB,
    };
    row.dirtyVsNative = row.dirtyMs / row.nativeMs;
    row.fullVsNative = row.fullMs / row.nativeMs;
    return row;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// Native git does not fsync loose objects by default (core.fsyncObjectFiles=false): neither does ralph here.
process.env.RALPH_FSYNC = "0";
if (args.includes("--debug")) process.env.RALPH_DEBUG = "1";
const lib = await loadStore();
const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const rows = [];
for (const size of sizes) {
  log(`bench-watch: ${size} files …`);
  rows.push(await benchSize(lib, size));
}
if (json) console.log(JSON.stringify({ runs, load, node: process.version, rows }, null, 2));
else {
  console.log(`bench-watch: ${runs} runs, medians in ms, load average at start ${load}, node ${process.version}`);
  console.log("files    | dirty (barrier) | full    | native  | dirty/native | full/native | snapshot dirty / full | dirty used | ready | RSS MB");
  for (const r of rows) {
    console.log(
      `${String(r.files).padEnd(8)} | ${r.dirtyMs.toFixed(1).padStart(6)} (${r.barrierMs.toFixed(1).padStart(5)}) | ${r.fullMs.toFixed(1).padStart(7)} | ${r.nativeMs.toFixed(1).padStart(7)} | ${r.dirtyVsNative.toFixed(2).padStart(11)}× | ${r.fullVsNative.toFixed(2).padStart(10)}× | ${r.dirtyScanMs.toFixed(1).padStart(9)} / ${r.fullScanMs.toFixed(1).padStart(7)} | ${r.dirtyUsed.padStart(10)} | ${String(r.readyMs).padStart(5)} | ${r.rssMB}`,
    );
  }
}
spawnSync("true");
process.exit(0);
