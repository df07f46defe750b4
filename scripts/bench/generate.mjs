// Deterministic generator of real-looking repositories for the benchmark.
//
// A repository of N tracked files looks like a TypeScript project:
//   - `src/` as a tree of nested folders (10-20 files each, depth 3-4),
//     sources of 100 B to 20 KB (log-uniform), colocated `*.test.ts` files with
//     describe/it/expect bodies, some JSON and Markdown, and a handful of
//     200 KB files (a JSON fixture, a binary image);
//   - root files: package.json, tsconfig.json, README.md and a `.gitignore`
//     that ignores `node_modules/`, `dist/` and `*.log`;
//   - ignored files on disk (node_modules/ with ~N/5 files, dist/ with ~N/10,
//     a debug.log): a snapshot must skip them, as in a real project;
//   - everything committed once (fixed identity and dates, so the commit oid is
//     the same on every machine) and packed as in a clone, then a few
//     untracked, not ignored files.
//
// Everything comes from a seeded PRNG: same GENERATOR_VERSION + size = same
// bytes. Repositories are cached under <cacheRoot>/<size>/repo with a
// generator.json stamp; a different version (or --fresh) regenerates. The
// benchmark edits the cached repository and restores it afterwards (workcopy.mjs).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Bump when the generated content changes: cached repositories are then rebuilt. */
export const GENERATOR_VERSION = 2;

/**
 * Environment for git (and ralph) on generated repositories: no user or system
 * config, so the user's hooks, signing, fsmonitor or excludes never change the
 * figures; a fixed identity.
 */
export const isolatedGitEnv = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Bench Author",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "Bench Author",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};

/** Fixed dates for the generating commit: the same oid on every machine. */
const FIXED_DATES_ENV = { GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };

/**
 * Returns the generated repository for `fileCount` tracked files,
 * generating it unless a cached copy of the same generator version exists.
 * @returns {{ path: string, stamp: object, generatedMs: number | null }}
 */
export function ensureGeneratedRepo(cacheRoot, fileCount, { fresh = false, log = () => {} } = {}) {
  const sizeDir = join(cacheRoot, String(fileCount));
  const repo = join(sizeDir, "repo");
  const stampPath = join(sizeDir, "generator.json");
  const stamp = readStamp(stampPath);
  if (!fresh && stamp && stamp.version === GENERATOR_VERSION && stamp.files === fileCount && existsSync(join(repo, ".git"))) {
    return { path: repo, stamp, generatedMs: null };
  }
  log(`generating a repository of ${fileCount} files in ${repo} …`);
  const startMs = performance.now();
  // Build beside the cache entry, then swap it in: an interrupted run never leaves a half repository behind a valid stamp.
  rmSync(stampPath, { force: true });
  mkdirSync(sizeDir, { recursive: true });
  for (const leftover of readdirSync(sizeDir)) if (leftover.startsWith("repo.tmp-")) rmSync(join(sizeDir, leftover), { recursive: true, force: true });
  const building = join(sizeDir, `repo.tmp-${process.pid}`);
  const facts = generateRepo(building, fileCount);
  rmSync(repo, { recursive: true, force: true });
  renameSync(building, repo);
  const generatedMs = performance.now() - startMs;
  const newStamp = { version: GENERATOR_VERSION, files: fileCount, ...facts, generatedMs: Math.round(generatedMs) };
  writeFileSync(stampPath, JSON.stringify(newStamp, null, 2) + "\n");
  log(`generated ${fileCount} files in ${(generatedMs / 1000).toFixed(1)} s`);
  return { path: repo, stamp: newStamp, generatedMs };
}

function readStamp(stampPath) {
  try {
    return JSON.parse(readFileSync(stampPath, "utf8"));
  } catch {
    return null;
  }
}

/** Writes the repository into `root` (created) and commits it. Returns facts for the stamp. */
export function generateRepo(root, fileCount) {
  const rng = mulberry32(0x5eed_0000 + fileCount);
  const files = planFiles(rng, fileCount);
  let trackedBytes = 0;
  for (const [path, content] of files) {
    writeFile(root, path, content);
    trackedBytes += typeof content === "string" ? Buffer.byteLength(content) : content.length;
  }
  const ignored = planIgnoredFiles(rng, fileCount);
  for (const [path, content] of ignored) writeFile(root, path, content);

  const git = (args) => runGit(root, args);
  git(["init", "-q", "-b", "main"]);
  git(["config", "user.name", "Bench Author"]);
  git(["config", "user.email", "bench@example.invalid"]);
  git(["config", "commit.gpgsign", "false"]);
  git(["config", "core.autocrlf", "false"]);
  git(["config", "gc.auto", "0"]);
  // core.fsync=none (git >= 2.36; older versions ignore the unknown key): a throwaway repository needs no durability.
  git(["-c", "core.fsync=none", "add", "-A"]);
  git(["-c", "core.fsync=none", "commit", "-q", "--no-verify", "-m", `bench: generated repository of ${fileCount} files`]);
  // Pack the objects, as in a cloned repository: readers then go through a packfile, not 30k loose files.
  git(["-c", "core.fsync=none", "-c", "pack.threads=2", "repack", "-a", "-d", "-q"]);
  git(["prune-packed"]);
  const head = git(["rev-parse", "HEAD"]).trim();

  // Untracked, not ignored: a snapshot must include these, `git commit` did not.
  const untracked = [
    ["notes.md", "# Notes\n\n- try the new parser on large inputs\n- ask about the release date\n"],
    ["src/scratch.ts", "export const scratch = () => 42;\n"],
    ["tmp/todo.txt", "rename the helpers\nmeasure the cold start\n"],
    [`${dirname(files[files.length - 1][0])}/wip.ts`, "// work in progress\nexport function wip(): void {}\n"],
  ];
  for (const [path, content] of untracked) writeFile(root, path, content);

  return {
    head,
    trackedFiles: files.length,
    trackedBytes,
    ignoredFiles: ignored.length,
    untracked: untracked.map(([path]) => path).sort(),
    testFiles: files.filter(([p]) => p.endsWith(".test.ts")).length,
  };
}

function writeFile(root, path, content) {
  const abs = join(root, path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

function runGit(cwd, args) {
  const result = spawnSync("git", args, { cwd, env: { ...process.env, ...isolatedGitEnv, ...FIXED_DATES_ENV }, encoding: "utf8", maxBuffer: 64 << 20 });
  if (result.status !== 0) {
    throw new Error(`git ${args.join(" ")} failed (exit ${result.status}): ${(result.stderr || "").trim().split("\n").pop()}`);
  }
  return result.stdout;
}

// ---------------------------------------------------------------------------
// The plan: which files, where, with what content.

const WORDS = [
  "account",
  "adapter",
  "alias",
  "archive",
  "batch",
  "buffer",
  "cache",
  "channel",
  "client",
  "config",
  "cursor",
  "digest",
  "draft",
  "encoder",
  "entry",
  "event",
  "filter",
  "format",
  "graph",
  "handler",
  "header",
  "index",
  "invoice",
  "job",
  "ledger",
  "lexer",
  "limit",
  "loader",
  "matrix",
  "merge",
  "meta",
  "mode",
  "notice",
  "order",
  "owner",
  "packet",
  "parser",
  "patch",
  "policy",
  "pool",
  "quota",
  "range",
  "record",
  "region",
  "report",
  "request",
  "route",
  "rule",
  "schema",
  "scope",
  "session",
  "signal",
  "source",
  "stream",
  "table",
  "tenant",
  "token",
  "tracker",
  "update",
  "vector",
];
const VERBS = ["build", "check", "collect", "compute", "create", "decode", "find", "load", "merge", "normalize", "parse", "read", "resolve", "split", "update", "validate"];

/** Plans `fileCount` tracked files: [path, content] pairs in a stable order. */
function planFiles(rng, fileCount) {
  const out = [];
  const rootFiles = [
    [
      "package.json",
      JSON.stringify({ name: "bench-project", version: "1.0.0", type: "module", scripts: { build: "tsc", test: "vitest run" }, devDependencies: { typescript: "5.9.3", vitest: "4.1.12" } }, null, 2) +
        "\n",
    ],
    ["tsconfig.json", JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", strict: true, outDir: "dist" }, include: ["src"] }, null, 2) + "\n"],
    ["README.md", `# bench-project\n\nA generated repository of ${fileCount} files for the ralph benchmark.\n`],
    [".gitignore", "node_modules/\ndist/\n*.log\n"],
  ];
  out.push(...rootFiles);

  // Folders in breadth-first order with a fan-out chosen so that depth 4 holds
  // enough folders: fanout^4 ≈ fileCount / 12.
  const baseFanout = Math.max(2, Math.ceil((fileCount / 12) ** 0.25));
  const queue = [{ path: "src", depth: 0 }];
  let largeBudget = Math.max(2, Math.round(fileCount / 2000)); // "a few" 200 KB files
  while (out.length < fileCount) {
    const folder = queue.shift() ?? { path: `src/extra${out.length}`, depth: 1 }; // never reached with the fan-out above
    const maxDepth = 4;
    if (folder.depth < maxDepth) {
      const fanout = Math.max(2, baseFanout - 1 + Math.floor(rng() * 3));
      for (const name of pickUnique(rng, WORDS, fanout)) queue.push({ path: `${folder.path}/${name}`, depth: folder.depth + 1 });
    }
    const slots = Math.min(10 + Math.floor(rng() * 11), fileCount - out.length);
    out.push(...planFolder(rng, folder.path, slots, () => (largeBudget > 0 && rng() < 0.02 ? (largeBudget--, true) : false)));
  }
  // Guarantee the 200 KB files even in small repositories.
  for (let i = 0; largeBudget > 0; i++, largeBudget--) {
    const victim = out.findIndex(([p], idx) => idx >= rootFiles.length && p.endsWith(".md"));
    const at = victim >= 0 ? victim : out.length - 1 - i;
    out[at] = i % 2 === 0 ? [`src/fixtures/large-${i}.json`, largeJson(rng, `large-${i}`)] : [`src/assets/large-${i}.png`, randomBytes(rng, 200 * 1024)];
  }
  return out;
}

/** Plans up to `slots` files in one folder: sources, a few tests paired with them, some JSON/Markdown. */
function planFolder(rng, folder, slots, isLarge) {
  const out = [];
  const names = pickUnique(rng, WORDS, Math.min(slots, WORDS.length));
  for (let i = 0; out.length < slots; i++) {
    const base = names[i % names.length] + (i >= names.length ? String(i) : "");
    const roll = rng();
    const path = `${folder}/${base}`;
    if (isLarge()) {
      out.push(rng() < 0.5 ? [`${path}.fixture.json`, largeJson(rng, path)] : [`${path}.png`, randomBytes(rng, 200 * 1024)]);
    } else if (roll < 0.8) {
      out.push([`${path}.ts`, tsSource(rng, `${path}.ts`, base, logUniformSize(rng))]);
      // One source in ~8 gets a colocated test (≈10% of all files are tests).
      if (rng() < 0.125 && out.length < slots) out.push([`${path}.test.ts`, tsTest(rng, base, 500 + Math.floor(rng() * 7500))]);
    } else if (roll < 0.9) {
      out.push([`${path}.json`, smallJson(rng, path, logUniformSize(rng))]);
    } else {
      out.push([`${path}.md`, markdown(rng, path, logUniformSize(rng))]);
    }
  }
  return out;
}

/** Ignored files present on disk: installed packages, build output, a log. */
function planIgnoredFiles(rng, fileCount) {
  const out = [["debug.log", "npm ERR! nothing to see here\n".repeat(20)]];
  const modules = Math.max(50, Math.round(fileCount / 5));
  for (let i = 0; i < modules; i++) {
    const pkg = `${WORDS[i % WORDS.length]}-${Math.floor(i / WORDS.length)}`;
    const file = i % 3 === 0 ? "package.json" : `lib/${VERBS[i % VERBS.length]}.js`;
    out.push([`node_modules/${pkg}/${file}`, `// ${pkg}\nmodule.exports = ${JSON.stringify({ id: i })};\n`.padEnd(200 + Math.floor(rng() * 2000), " ")]);
  }
  const built = Math.max(20, Math.round(fileCount / 10));
  for (let i = 0; i < built; i++) out.push([`dist/${WORDS[i % WORDS.length]}/${i}.js`, `export const x${i} = ${i};\n`]);
  return out;
}

// ---------------------------------------------------------------------------
// Content.

/** 100 B .. 20 KB, log-uniform: most files are small, some are big. */
function logUniformSize(rng) {
  return Math.round(Math.exp(Math.log(100) + rng() * (Math.log(20_000) - Math.log(100))));
}

function tsSource(rng, path, base, targetBytes) {
  const type = capitalize(base);
  let text = `// ${path}\nimport type { Context } from "${"../".repeat(1 + Math.floor(rng() * 2))}context";\n\nexport interface ${type}Options {\n  limit: number;\n  strict?: boolean;\n}\n`;
  for (let i = 0; text.length < targetBytes; i++) {
    const verb = VERBS[Math.floor(rng() * VERBS.length)];
    const k = 1 + Math.floor(rng() * 97);
    text +=
      `\nexport function ${verb}${type}${i}(input: string, options: ${type}Options, ctx?: Context): number {\n` +
      `  const size = input.length * ${k};\n` +
      `  if (options.strict && size > options.limit) {\n` +
      `    throw new Error("${base}: input too large (" + size + ")");\n` +
      `  }\n` +
      `  return ctx ? size + ${k % 7} : size - ${k % 5};\n` +
      `}\n`;
  }
  return text;
}

/** A vitest file: one describe, several it blocks of the shape `  it("…", () => {` … `  });` (the bench deletes one). */
function tsTest(rng, base, targetBytes) {
  const type = capitalize(base);
  let text = `import { describe, it, expect } from "vitest";\nimport { parse${type}0 } from "./${base}";\n\ndescribe("${base}", () => {\n`;
  for (let i = 0; text.length < targetBytes || i < 3; i++) {
    const n = Math.floor(rng() * 1000);
    text +=
      `  it("handles case ${i} (${n})", () => {\n` +
      `    const result = parse${type}0("${"x".repeat(1 + (n % 9))}", { limit: ${n} });\n` +
      `    expect(result).toBe(${(1 + (n % 9)) * 3});\n` +
      `    expect(typeof result).toEqual("number");\n` +
      `  });\n\n`;
  }
  return text.trimEnd() + "\n});\n";
}

function smallJson(rng, path, targetBytes) {
  const items = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const item = { id: i, name: `${WORDS[Math.floor(rng() * WORDS.length)]}-${i}`, weight: Math.floor(rng() * 1000) };
    items.push(item);
    size += JSON.stringify(item).length + 6;
  }
  return JSON.stringify({ source: path, items }, null, 2) + "\n";
}

function largeJson(rng, path) {
  return smallJson(rng, path, 200 * 1024);
}

function markdown(rng, path, targetBytes) {
  let text = `# ${path}\n\n`;
  while (text.length < targetBytes) {
    const words = Array.from({ length: 12 }, () => WORDS[Math.floor(rng() * WORDS.length)]);
    text += `${capitalize(words.join(" "))}.\n\n`;
  }
  return text;
}

function randomBytes(rng, length) {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i += 4) bytes.writeUInt32LE((rng() * 0x1_0000_0000) >>> 0, i);
  bytes.write("\x89PNG\r\n\x1a\n", 0, "latin1");
  return bytes;
}

function capitalize(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `count` distinct entries of `list` (count ≤ list length), in PRNG order. */
function pickUnique(rng, list, count) {
  const pool = [...list];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, Math.min(count, pool.length));
}

/** mulberry32: a tiny seeded PRNG, returns floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
