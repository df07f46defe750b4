#!/usr/bin/env node
// Grammars: copies the pinned tree-sitter wasm grammars from the
// tree-sitter-wasms package into grammars/<lang>/<lang>.wasm and checks each
// against grammars/manifest.json (source package, version, ABI, sha256).
// A grammar whose bytes differ from the manifest fails the build, so a
// changed package can never slip in unnoticed (STYLE.md §7).
//
//   node scripts/grammars.mjs            copy + verify (run by scripts/build.mjs)
//   node scripts/grammars.mjs --update   copy, then rewrite the manifest from what was copied
//   node scripts/grammars.mjs --check    verify only (no copying)
//
// The .wasm files are build output (.gitignore); the manifest and the query
// files beside them are committed.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const GRAMMARS_DIR = join(ROOT, "grammars");
const MANIFEST_PATH = join(GRAMMARS_DIR, "manifest.json");
const SOURCE_PACKAGE = "tree-sitter-wasms";

/** ralph language id -> the grammar's name in tree-sitter-wasms/out/tree-sitter-<name>.wasm. */
const GRAMMARS = {
  python: "python",
  go: "go",
  rust: "rust",
  java: "java",
  csharp: "c_sharp",
  ruby: "ruby",
  php: "php",
  bash: "bash",
};

/** Hex sha256 of a file's bytes. */
function sha256(bytes) {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * The language ABI a wasm grammar was generated for, read by loading it into
 * web-tree-sitter (the runtime that will load it later), so a grammar the
 * runtime cannot load fails here, at build time.
 */
async function readAbi(bytes) {
  const { Parser, Language } = await import("web-tree-sitter");
  await Parser.init();
  const language = await Language.load(bytes);
  return language.abiVersion;
}

/** Copies (unless checkOnly) and verifies every grammar; returns the manifest it saw. */
export async function syncGrammars({ update = false, checkOnly = false, log = console.error } = {}) {
  const require = createRequire(import.meta.url);
  let sourceDir;
  let version;
  try {
    const pkgPath = require.resolve(`${SOURCE_PACKAGE}/package.json`);
    sourceDir = join(dirname(pkgPath), "out");
    version = JSON.parse(readFileSync(pkgPath, "utf8")).version;
  } catch {
    sourceDir = null;
  }
  const manifest = existsSync(MANIFEST_PATH) ? JSON.parse(readFileSync(MANIFEST_PATH, "utf8")) : {};
  const next = {};
  const problems = [];
  for (const [lang, name] of Object.entries(GRAMMARS)) {
    const file = `${lang}/${lang}.wasm`;
    const target = join(GRAMMARS_DIR, file);
    if (!checkOnly) {
      if (sourceDir === null) {
        if (!existsSync(target)) problems.push(`${lang}: ${SOURCE_PACKAGE} is not installed (run npm ci) and ${file} is missing`);
      } else {
        mkdirSync(dirname(target), { recursive: true });
        copyFileSync(join(sourceDir, `tree-sitter-${name}.wasm`), target);
      }
    }
    if (!existsSync(target)) {
      problems.push(`${lang}: ${file} is missing`);
      continue;
    }
    const bytes = readFileSync(target);
    const entry = { package: SOURCE_PACKAGE, version: version ?? manifest[lang]?.version, file, grammar: name, abi: await readAbi(bytes), sha256: sha256(bytes) };
    next[lang] = entry;
    const pinned = manifest[lang];
    if (!update) {
      if (!pinned) problems.push(`${lang}: not in grammars/manifest.json (run node scripts/grammars.mjs --update)`);
      else if (pinned.sha256 !== entry.sha256 || pinned.abi !== entry.abi) {
        problems.push(`${lang}: ${file} is ${entry.package}@${entry.version} ABI ${entry.abi} sha256 ${entry.sha256.slice(0, 12)}…, the manifest pins ${pinned.package}@${pinned.version} ABI ${pinned.abi} sha256 ${pinned.sha256.slice(0, 12)}…`);
      }
    }
  }
  if (update) {
    writeFileSync(MANIFEST_PATH, JSON.stringify(next, null, 2) + "\n");
    log(`grammars: wrote ${Object.keys(next).length} entries to grammars/manifest.json`);
  }
  if (problems.length > 0) {
    throw new Error(`grammars do not match grammars/manifest.json:\n  ${problems.join("\n  ")}\nInstall the pinned ${SOURCE_PACKAGE} version (npm ci), or after a deliberate upgrade run: node scripts/grammars.mjs --update`);
  }
  return update ? next : manifest;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  try {
    const manifest = await syncGrammars({ update: args.includes("--update"), checkOnly: args.includes("--check") });
    console.error(`grammars: ${Object.keys(manifest).length} grammars verified against grammars/manifest.json`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
