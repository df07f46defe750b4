#!/usr/bin/env node
// Times reading a commit's whole tree recursively (every tree object; blobs
// are only listed, as `git ls-tree -r` does) four ways, each run in a fresh
// process as a ralph hook would be:
//   iso-nocache  isomorphic-git readTree per tree, no shared cache (its default)
//   iso-cache    isomorphic-git readTree per tree, one shared `cache` object
//   odb          ralph's synchronous ObjectDatabase (src/store/odb.ts)
//   git          native `git ls-tree -r <commit>`
// and prints medians of N runs. `--write` also times writing one checkpoint's
// objects (2,000 new blobs of 1-4 KiB, their tree and a commit) into an empty
// repository, each in a fresh process:
//   iso-write    isomorphic-git writeBlob/writeTree/writeCommit
//   odb-write    ralph's ObjectDatabase.write with encodeTree/encodeCommit
//   git-write    native `git hash-object -w --stdin-paths`, `git mktree`,
//                `git commit-tree` (three processes, the files on disk first) `--diagnose` also times the parts of
// isomorphic-git's packed read path (whole-pack read, whole-pack SHA-1, oid
// Map build, inflate calls) and counts delta work with and without a cache.
//
//   node scripts/bench-odb.mjs [--repo GITDIR] [--runs 5] [--budget-s 120] [--diagnose] [--write]
//
// Without --repo it generates (once) a repository of 20,000 files and 50
// commits under $TMPDIR/ralph-bench-odb and runs `git gc` on it.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i < 0 ? fallback : args[i + 1];
};

const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const runGit = (gitDir, gitArgs, options = {}) => execFileSync("git", [`--git-dir=${gitDir}`, ...gitArgs], { env: gitEnv, maxBuffer: 1 << 30, ...options });

// ---------------------------------------------------------------------------
// worker: one measurement in this process, JSON on stdout

if (args[0] === "--worker") {
  const [, variant, gitdir, treeOid, budgetMs, lib] = args;
  const budget = Number(budgetMs);
  let files = 0;
  let trees = 0;
  let timedOut = false;
  const t0 = performance.now();
  if (variant === "odb") {
    const { ObjectDatabase, parseTree } = await import(lib);
    const importMs = performance.now() - t0;
    const start = performance.now();
    const odb = new ObjectDatabase(join(gitdir, "objects"));
    const walk = (oid) => {
      trees++;
      for (const entry of parseTree(odb.read(oid).content)) {
        if (entry.mode === "40000") walk(entry.oid);
        else files++;
      }
    };
    walk(treeOid);
    process.stdout.write(JSON.stringify({ importMs, walkMs: performance.now() - start, files, trees, timedOut }));
  } else {
    const git = (await import("isomorphic-git")).default;
    const fs = await import("node:fs");
    const importMs = performance.now() - t0;
    const cache = variant === "iso-cache" ? {} : undefined;
    const start = performance.now();
    const walk = async (oid) => {
      if (performance.now() - start > budget) {
        timedOut = true;
        return;
      }
      trees++;
      const { tree } = await git.readTree({ fs, gitdir, oid, cache });
      for (const entry of tree) {
        if (entry.type === "tree") await walk(entry.oid);
        else files++;
      }
    };
    await walk(treeOid);
    process.stdout.write(JSON.stringify({ importMs, walkMs: performance.now() - start, files, trees, timedOut }));
  }
  process.exit(0);
}

if (args[0] === "--write-worker") {
  const [, variant, dir, lib] = args;
  const files = writeSet();
  const gitdir = join(dir, ".git");
  const t0 = performance.now();
  if (variant === "odb-write") {
    const { ObjectDatabase, encodeTree, encodeCommit } = await import(lib);
    const odb = new ObjectDatabase(join(gitdir, "objects"));
    const entries = files.map(([name, body]) => ({ mode: "100644", name, oid: odb.write("blob", Buffer.from(body)) }));
    const tree = odb.write("tree", encodeTree(entries));
    const who = { name: "Bench", email: "b@example.invalid", timestamp: 1_700_000_000, timezone: "+0000" };
    odb.write("commit", encodeCommit({ tree, parents: [], author: who, committer: who, extraHeaders: [], message: "bench\n" }));
    odb.close();
  } else if (variant === "iso-write") {
    const git = (await import("isomorphic-git")).default;
    const fs = await import("node:fs");
    const tree = [];
    for (const [name, body] of files) tree.push({ mode: "100644", path: name, type: "blob", oid: await git.writeBlob({ fs, gitdir, blob: Buffer.from(body) }) });
    const treeOid = await git.writeTree({ fs, gitdir, tree });
    const who = { name: "Bench", email: "b@example.invalid", timestamp: 1_700_000_000, timezoneOffset: 0 };
    await git.writeCommit({ fs, gitdir, commit: { tree: treeOid, parent: [], author: who, committer: who, message: "bench\n" } });
  } else {
    const work = join(dir, "work");
    mkdirSync(work, { recursive: true });
    for (const [name, body] of files) writeFileSync(join(work, name), body);
    const start = performance.now();
    const oids = runGit(gitdir, ["hash-object", "-w", "--stdin-paths"], { input: files.map(([name]) => join(work, name)).join("\n") })
      .toString()
      .trim()
      .split("\n");
    const listing = files.map(([name], i) => `100644 blob ${oids[i]}\t${name}`).join("\n") + "\n";
    const tree = runGit(gitdir, ["mktree"], { input: listing }).toString().trim();
    runGit(gitdir, ["commit-tree", tree, "-m", "bench"], {
      env: { ...gitEnv, GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "b@example.invalid", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "b@example.invalid" },
    });
    process.stdout.write(JSON.stringify({ writeMs: performance.now() - start }));
    process.exit(0);
  }
  process.stdout.write(JSON.stringify({ writeMs: performance.now() - t0 }));
  process.exit(0);
}

/** The files one write run stores: 2,000 names with 1-4 KiB of text each, the same in every run and variant. */
function writeSet() {
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  return Array.from({ length: 2000 }, (_, i) => [`file${String(i).padStart(4, "0")}.ts`, `// ${i}\n${"x".repeat(1024 + (random() % 3072))}\n`]);
}

// ---------------------------------------------------------------------------
// driver

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function makeSyntheticRepo(dir) {
  const gitdir = join(dir, ".git");
  if (existsSync(join(dir, ".done"))) return gitdir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync("git", ["init", "-q", "-b", "main", dir], { env: gitEnv });
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const words = ["alpha", "beta", "gamma", "delta", "import", "export", "const", "return", "value", "test"];
  const text = (n) => Array.from({ length: n }, () => words[random() % words.length]).join(" ");
  const paths = [];
  for (let d = 0; d < 20; d++) for (let s = 0; s < 20; s++) for (let f = 0; f < 50; f++) paths.push(`src/d${d}/s${s}/file${f}.ts`);
  const contents = new Map(paths.map((p) => [p, `// ${p}\n${text(80)}\n${text(40)}\n`]));
  const chunks = [];
  for (let c = 0; c < 50; c++) {
    const msg = `commit ${c}\n`;
    chunks.push(`commit refs/heads/main\ncommitter Bench <b@example.invalid> ${1_700_000_000 + c * 3600} +0000\ndata ${Buffer.byteLength(msg)}\n${msg}`);
    const changed = c === 0 ? paths : Array.from({ length: 400 }, () => paths[random() % paths.length]);
    for (const p of changed) {
      if (c > 0) contents.set(p, `${contents.get(p)}// edit ${c}: ${text(6)}\n`);
      const body = contents.get(p);
      chunks.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(body)}\n${body}\n`);
    }
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, env: gitEnv, input: chunks.join(""), maxBuffer: 1 << 30 });
  execFileSync("git", ["gc", "-q"], { cwd: dir, env: gitEnv });
  execFileSync("touch", [join(dir, ".done")]);
  return gitdir;
}

/** Bundles src/store/odb.ts (and pack.ts) so plain Node can import them. */
async function bundleStore() {
  const { build } = await import("esbuild");
  const outdir = join(tmpdir(), `ralph-bench-odb-lib-${process.pid}`);
  await build({
    entryPoints: { odb: join(root, "src/store/odb.ts"), pack: join(root, "src/store/pack.ts") },
    splitting: true,
    outdir,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
  });
  return outdir;
}

/** Times the pieces of isomorphic-git's packed read path and the delta work a tree walk needs. */
async function diagnose(gitdir, treeOid, libDir) {
  const packDir = join(gitdir, "objects", "pack");
  const packs = readdirSync(packDir).filter((n) => n.endsWith(".pack"));
  const pakoPath = join(root, "node_modules", "pako", "index.js");
  const pako = (await import(pakoPath)).default;
  const { PackFile, PackIndex } = await import(join(libDir, "pack.js"));
  const { ObjectDatabase, parseTree } = await import(join(libDir, "odb.js"));
  const out = {};
  for (const name of packs) {
    const packPath = join(packDir, name);
    let t = performance.now();
    const pack = await readFile(packPath);
    out.readWholePackMs = performance.now() - t;
    out.packBytes = pack.length;
    t = performance.now();
    const hash = createHash("sha1");
    for (let i = 0; i < pack.length - 20; i += 1 << 24) hash.update(pack.subarray(i, Math.min(i + (1 << 24), pack.length - 20)));
    hash.digest("hex");
    out.sha1WholePackMs = performance.now() - t;
    t = performance.now();
    const idx = await readFile(packPath.replace(/\.pack$/, ".idx"));
    const count = idx.readUInt32BE(8 + 255 * 4);
    const hashes = [];
    for (let i = 0; i < count; i++) hashes.push(idx.toString("hex", 8 + 1024 + i * 20, 8 + 1024 + i * 20 + 20));
    const offsets = new Map();
    for (let i = 0; i < count; i++) offsets.set(hashes[i], idx.readUInt32BE(8 + 1024 + count * 24 + i * 4));
    out.idxToMapMs = performance.now() - t;
    out.objectsInPack = count;
    t = performance.now();
    PackIndex.fromFile(packPath.replace(/\.pack$/, ".idx"));
    out.idxLoadOdbMs = performance.now() - t;

    // Which entries does reading every tree of the walk touch, with git's
    // chains and no cache (isomorphic-git caches only past depth 3)?
    const odb = new ObjectDatabase(join(gitdir, "objects"));
    const treeOids = [];
    const walk = (oid) => {
      treeOids.push(oid);
      for (const entry of parseTree(odb.read(oid).content)) if (entry.mode === "40000") walk(entry.oid);
    };
    walk(treeOid);
    odb.close();
    const index = PackIndex.fromFile(packPath.replace(/\.pack$/, ".idx"));
    const probe = new PackFile(packPath, packPath.replace(/\.pack$/, ".idx"), 0, 1);
    let entriesNoCache = 0;
    let maxDepth = 0;
    const depths = [];
    for (const oid of treeOids) {
      let offset = index.findOffset(Buffer.from(oid, "hex"));
      let depth = 0;
      for (;;) {
        const { header } = probe.readEntry(offset);
        entriesNoCache++;
        if (header.baseOffset !== undefined) offset = header.baseOffset;
        else if (header.baseOid !== undefined) offset = index.findOffset(Buffer.from(header.baseOid, "hex"));
        else break;
        depth++;
      }
      depths.push(depth);
      maxDepth = Math.max(maxDepth, depth);
    }
    out.treesInWalk = treeOids.length;
    out.entriesInflatedWithoutCache = entriesNoCache;
    out.treeDeltaDepthMedian = median(depths);
    out.treeDeltaDepthMax = maxDepth;
    let inflated = 0;
    const originalInflate = PackFile.prototype.inflateEntry;
    PackFile.prototype.inflateEntry = function (entry) {
      inflated++;
      return originalInflate.call(this, entry);
    };
    const counted = new ObjectDatabase(join(gitdir, "objects"));
    for (const oid of treeOids) counted.read(oid);
    counted.close();
    PackFile.prototype.inflateEntry = originalInflate;
    out.entriesInflatedWithOdbCache = inflated;

    // Inflating every entry of those chains: pako (isomorphic-git's
    // inflater) over "the rest of the pack" as readSlice passes it, pako over
    // an exact slice, and zlib.inflateSync. Warmed up, then timed.
    const { inflateSync } = await import("node:zlib");
    const chainStarts = [];
    for (const oid of treeOids) {
      let offset = index.findOffset(Buffer.from(oid, "hex"));
      for (;;) {
        const { header } = probe.readEntry(offset);
        chainStarts.push(header.dataOffset);
        if (header.baseOffset !== undefined) offset = header.baseOffset;
        else if (header.baseOid !== undefined) offset = index.findOffset(Buffer.from(header.baseOid, "hex"));
        else break;
      }
    }
    const timeAll = (fn) => {
      for (const start of chainStarts.slice(0, 50)) fn(start);
      const t0 = performance.now();
      for (const start of chainStarts) fn(start);
      return performance.now() - t0;
    };
    out.chainEntries = chainStarts.length;
    out.pakoRestOfPackMs = timeAll((start) => pako.inflate(pack.slice(start)));
    out.pakoExactSliceMs = timeAll((start) => pako.inflate(pack.subarray(start, start + (1 << 20))));
    out.zlibInflateSyncMs = timeAll((start) => inflateSync(pack.subarray(start, start + (1 << 20))));
    // isomorphic-git tries the loose path first for every object: one failed async read each.
    t = performance.now();
    for (const oid of treeOids) {
      try {
        await readFile(join(gitdir, "objects", oid.slice(0, 2), oid.slice(2)));
      } catch {
        // expected: packed
      }
    }
    out.failedLooseReadsMs = performance.now() - t;
    probe.close();
  }
  return out;
}

async function main() {
  const runs = Number(option("--runs", "5"));
  const budgetMs = Number(option("--budget-s", "120")) * 1000;
  const gitdir = option("--repo", undefined) ?? makeSyntheticRepo(join(tmpdir(), "ralph-bench-odb"));
  const treeOid = runGit(gitdir, ["rev-parse", "HEAD^{tree}"]).toString().trim();
  const fileCount = runGit(gitdir, ["ls-tree", "-r", treeOid]).toString().split("\n").length - 1;
  const packBytes = readdirSync(join(gitdir, "objects", "pack"))
    .filter((n) => n.endsWith(".pack"))
    .reduce((sum, n) => sum + readFileSync(join(gitdir, "objects", "pack", n)).length, 0);
  console.log(`repository ${gitdir}: ${fileCount} files at HEAD, packs ${(packBytes / 2 ** 20).toFixed(1)} MiB; ${runs} runs per variant`);
  const libDir = await bundleStore();
  const lib = join(libDir, "odb.js");
  const results = [];
  for (const variant of ["iso-nocache", "iso-cache", "odb", "git"]) {
    const walls = [];
    const walks = [];
    let detail = "";
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      if (variant === "git") {
        const r = spawnSync("git", [`--git-dir=${gitdir}`, "ls-tree", "-r", treeOid], { env: gitEnv, maxBuffer: 1 << 30 });
        walls.push(performance.now() - t);
        walks.push(performance.now() - t);
        detail = `${r.stdout.toString().split("\n").length - 1} files`;
        continue;
      }
      const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--worker", variant, gitdir, treeOid, String(budgetMs), lib], {
        cwd: root,
        maxBuffer: 1 << 30,
      });
      walls.push(performance.now() - t);
      if (r.status !== 0) throw new Error(`${variant} worker failed: ${r.stderr}`);
      const m = JSON.parse(r.stdout.toString());
      walks.push(m.walkMs);
      detail = `${m.files} files, ${m.trees} trees${m.timedOut ? `, STOPPED at the ${budgetMs / 1000} s budget` : ""}`;
      if (m.timedOut) break;
    }
    results.push({ variant, walkMs: median(walks), wallMs: median(walls), runs: walks.length, detail });
    console.log(`${variant.padEnd(12)} walk ${median(walks).toFixed(1).padStart(9)} ms   process ${median(walls).toFixed(1).padStart(9)} ms   (${walks.length} runs; ${detail})`);
  }
  if (args.includes("--write")) {
    for (const variant of ["iso-write", "odb-write", "git-write"]) {
      const times = [];
      for (let i = 0; i < runs; i++) {
        const dir = mkdtempSync(join(tmpdir(), "ralph-bench-write-"));
        execFileSync("git", ["init", "-q", "-b", "main", dir], { env: gitEnv });
        const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--write-worker", variant, dir, lib], { cwd: root, env: gitEnv, maxBuffer: 1 << 30 });
        if (r.status !== 0) throw new Error(`${variant} worker failed: ${r.stderr}`);
        times.push(JSON.parse(r.stdout.toString()).writeMs);
        const fsck = spawnSync("git", ["-C", dir, "fsck", "--full", "--no-dangling"], { env: gitEnv });
        if (fsck.status !== 0) throw new Error(`${variant}: git fsck failed: ${fsck.stderr}`);
        rmSync(dir, { recursive: true, force: true });
      }
      console.log(`${variant.padEnd(12)} write ${median(times).toFixed(1).padStart(8)} ms   (${runs} runs; 2000 blobs + tree + commit, git fsck clean)`);
    }
  }
  if (args.includes("--diagnose")) console.log(JSON.stringify(await diagnose(gitdir, treeOid, libDir), null, 2));
  rmSync(libDir, { recursive: true, force: true });
}

await main();
